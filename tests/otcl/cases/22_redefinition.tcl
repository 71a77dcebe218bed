# redefining methods after objects exist (dispatch caches must follow)
Class A
Class B -superclass A
A instproc m {} { return A1 }
B b
A a
puts "[a m] [b m]"
A instproc m {} { return A2 }
puts "[a m] [b m]"
B instproc m {} { return "B1>[$self next]" }
puts "[a m] [b m]"
A instproc m {} {}
puts [catch {a m} msg]
puts $msg
puts "[b m]"
puts [catch {a m} msg]
puts $msg
B instproc m {} {}
puts [catch {b m} msg]
puts $msg
A instproc m {} { return A3 }
puts "[a m] [b m]"
# methods defined on Object reach every object, including classes
Object instproc everywhere {} { return "everywhere $self" }
puts [b everywhere]
puts [A everywhere]
puts [Class everywhere]
Object instproc everywhere {} {}
puts [catch {b everywhere} msg]
# shadowing an inherited builtin, then removing the shadow
A instproc set {args} { return "A set $args" }
puts [b set x 1]
A instproc set {} {}
puts [b set x 1]
puts [b set x]
# unknown defined later is used for names that failed before
puts [catch {b late 1} msg]
A instproc unknown {m args} { return "late unknown $m" }
puts [b late 1]
A instproc late {args} { return "now a method $args" }
puts [b late 1]
# instvar redefined (all objects must use the new one)
A instproc get {} { $self instvar x; return $x }
puts [b get]
A instproc instvar {args} { uplevel 1 [list set x intercepted]; return }
puts [b get]
A instproc instvar {} {}
puts [b get]
puts [b set x]
# a class whose superclass gains a method later
Class C
C c
puts [catch {c newm} msg]
C superclass A
puts [c m]
