# changing an object's class
Class A
Class B
A instproc who {} { return A }
B instproc who {} { return B }
B instproc onlyb {} { return onlyb }
A o
puts [o who]
puts [o info class]
puts [o class B]
puts [o who]
puts [o onlyb]
puts [o info class]
puts [lsort [A info instances]]
puts [lsort [B info instances]]
puts [catch {o class} msg]
puts $msg
puts [catch {o class NoSuch} msg]
puts $msg
puts [catch {o class {a b}} msg]
puts $msg
puts [o info class A]
puts [o info class B]
puts [o info class Object]
puts [catch {o info class NoSuch} msg]
puts $msg
# per-object procs survive a class change
o proc mine {} { return mine }
o class A
puts [o mine]
puts [o who]
# class change of an object whose class has next chains
Class C -superclass B
C instproc who {} { return "C>[$self next]" }
o class C
puts [o who]
