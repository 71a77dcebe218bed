# object introspection
Class Foo
Foo f
f set x 1
f set y 2
f set zz 3
f set arr(1) 1
puts [lsort [f info vars]]
puts [lsort [f info vars z*]]
puts [lsort [f info vars ?]]
puts "<[f info procs]>"
puts "<[f info commands]>"
f proc p1 {a {b 5}} { return $a$b }
f proc p2 args { return }
puts [lsort [f info procs]]
puts [lsort [f info commands]]
puts [lsort [f info procs p1*]]
puts [f info args p1]
puts [f info args p2]
puts [string trim [f info body p1]]
puts [f info default p1 b d]
puts $d
puts [f info default p1 a d]
puts "<$d>"
puts [catch {f info args nosuch} msg]
puts $msg
puts [catch {f info body nosuch} msg]
puts $msg
puts [catch {f info default p1 q d} msg]
puts $msg
puts [catch {f info} msg]
puts $msg
puts [catch {f info vars a b} msg]
puts $msg
puts [catch {f info args} msg]
puts $msg
puts [catch {f info default p1 a} msg]
puts $msg
puts [catch {f info instances} msg]
puts $msg
puts [f info class]
puts [f info class Foo]
puts [f info class Object]
puts [catch {f info class Foo x} msg]
puts $msg
# class objects have object info too
Foo set cvar 1
puts [Foo info vars]
Foo proc cp {} {}
Foo proc cp2 {x} { return $x }
puts [lsort [Foo info procs]]
puts [Foo info args cp2]
puts [Foo info class]
