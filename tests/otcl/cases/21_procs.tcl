# per-object procs
Class Foo
Foo instproc m {} { return "instproc m" }
Foo f
Foo g
f proc m {} { return "proc m of $self ([$self next])" }
puts [f m]
puts [g m]
f proc extra {a args} { return "$a|$args" }
puts [f extra 1 2 3]
puts [catch {g extra 1} msg]
puts $msg
# class objects have procs
Foo proc make {name} { return [$self create $name] }
puts [Foo make h]
puts [h m]
puts [lsort [Foo info procs]]
# a proc on a class is not inherited by subclasses
Class Sub -superclass Foo
puts [catch {Sub make x} msg]
puts [info commands make]
puts [Sub info class]
# removing a proc
f proc m {} {}
puts [f m]
puts [lsort [f info procs]]
# redefinition
f proc extra {} { return redefined }
puts [f extra]
# procs named like builtins shadow them for that object
f proc set {args} { return "my set $args" }
puts [f set x 1]
puts [g set x 1]
f proc set {} {}
puts [f set x 2]
# Object and Class procs
puts [lsort [Object info commands]]
Object proc helper {} { return "Object helper" }
puts [Object helper]
puts [catch {Foo helper} msg]
puts [info commands helper]
