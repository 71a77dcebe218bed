# unknown handling
Class Foo
Foo f
puts [catch {f nosuch 1 2} msg]
puts $msg
# object-level unknown via an instproc
Foo instproc unknown {m args} { return "unknown($m|$args)" }
puts [f nosuch 1 2]
puts [f other]
# a real method takes precedence
Foo instproc nosuch {args} { return "real nosuch $args" }
puts [f nosuch 1 2]
# per-object unknown proc
Foo g
g proc unknown {m args} { return "g-unknown $m" }
puts [g whatever]
puts [f whatever]
# removing unknown again
Foo instproc unknown {} {}
puts [catch {f whatever} msg]
puts $msg
puts [g whatever]
# unknown that calls next (to Object: no unknown there)
Class Bar
Bar instproc unknown {m args} { return "Bar-unknown:[$self next $m {*}$args]" }
Bar b
puts [b zzz]
# class-level unknown: creating objects
Class Baz
Baz instproc init {args} { $self set args $args }
Baz obj1 a b
puts [obj1 set args]
puts [catch {Baz create} msg]
puts $msg
puts [catch {Class unknown create x} msg]
puts $msg
puts [catch {Baz unknown create} msg]
puts $msg
# Class's unknown is an ordinary instproc
puts [Class info instprocs]
puts [Class info instargs unknown]
# unknown on a class with a per-object unknown proc
Class Qux
Qux proc unknown {m args} { return "Qux unknown $m" }
puts [Qux something]
puts [info commands something]
# unknown errors propagate
Foo instproc unknown {m args} { error "cannot do $m" }
puts [catch {f what} msg]
puts $msg
