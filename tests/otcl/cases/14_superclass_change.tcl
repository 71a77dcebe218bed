# changing superclasses
Class A
Class B
A instproc who {} { return A }
B instproc who {} { return B }
Class C -superclass A
C c
puts [c who]
C superclass B
puts [c who]
puts [C info superclass]
puts [lsort [A info subclass]]
puts [lsort [B info subclass]]
C superclass {A B}
puts [C info heritage]
C superclass {B A}
puts [C info heritage]
puts [c who]
# errors
puts [catch {C superclass NoSuch} msg]
puts $msg
puts [catch {C superclass {A NoSuch}} msg]
puts $msg
puts [C info superclass]
Class D -superclass C
puts [catch {C superclass D} msg]
puts $msg
puts [C info superclass]
puts [catch {C superclass C} msg]
puts $msg
puts [catch {D superclass {A C}} msg]
puts $msg
puts [D info superclass]
puts [catch {C superclass} msg]
puts $msg
puts [catch {c superclass A} msg]
puts $msg
# no superclass at all
Class E
E superclass {}
puts "<[E info superclass]>"
puts "<[E info heritage]>"
puts [catch {E e} msg]
puts $msg
E superclass Object
E e
E superclass {}
puts [catch {e set x 1} msg]
puts $msg
E superclass Object
puts [e set x 1]
# subclasses see new inherited methods
A instproc late {} { return late }
D d
D superclass A
puts [d late]
puts [D info heritage]
