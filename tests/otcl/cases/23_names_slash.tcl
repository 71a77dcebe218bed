# class and object names containing "/" and other characters
Class Ag
Class Ag/T -superclass Ag
Class Ag/T/Reno -superclass Ag/T
Class Ag/T/Reno/Mod -superclass Ag/T/Reno
Ag instproc kind {} { return "Ag:[$self info class]" }
Ag/T/Reno instproc kind {} { return "Reno>[$self next]" }
Ag/T/Reno/Mod m
puts [m kind]
puts [Ag/T/Reno/Mod info heritage]
Ag/T/Reno create obj/with/slash
puts [obj/with/slash kind]
puts [lsort [Ag/T/Reno info instances]]
Ag/T/Reno create obj.dot
Ag/T/Reno create obj-dash
Ag/T/Reno create obj:colon
puts [obj.dot kind]
puts [obj-dash kind]
puts [obj:colon kind]
obj:colon set v 1
puts [obj:colon set v]
obj:colon proc p {} { return "p of <$self>" }
puts [obj:colon p]
puts [lsort [Ag/T/Reno info instances obj*]]
Class Test/red1 -superclass Ag
Test/red1 t
puts [t kind]
Test/red1 instproc init {} { $self next; $self set ok 1 }
Test/red1 t2
puts [t2 set ok]
puts [Test/red1 info superclass]
puts [Ag info subclass Test/red1]
# per-object procs on slash classes
Ag/T proc cp {} { return "class proc of $self" }
puts [Ag/T cp]
Ag/T set window_ 20
puts [Ag/T set window_]
