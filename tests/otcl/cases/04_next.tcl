# $self next semantics
Class Base
Class Mid -superclass Base
Class Leaf -superclass Mid
Base instproc m {args} { return "Base($args)" }
Mid instproc m {args} { return "Mid($args)->[$self next]" }
Leaf instproc m {args} { return "Leaf($args)->[eval $self next $args]" }
Leaf l
puts [l m 1 2]
# next at the end of the chain is a no-op returning ""
Base instproc only {} { return "<[$self next]>" }
puts [l only]
Leaf instproc only2 {} { return "<[$self next a b c]>" }
puts [l only2]
# next with changed arguments
Mid instproc n {x} { return "Mid:$x" }
Leaf instproc n {x} { return [$self next [expr {$x * 2}]] }
puts [l n 21]
# next from a per-object proc goes to the class chain
l proc m {args} { return "proc($args)->[$self next x]" }
puts [l m 9]
# next from a class proc (class objects have Class/Object chains)
Base proc info2 {} { return "classproc" }
# next inside init chain
Base instproc init {args} { $self set initlog "Base" ; $self next }
Mid instproc init {args} { $self next; $self set initlog "[$self set initlog] Mid" }
Leaf instproc init {args} { $self next; $self set initlog "[$self set initlog] Leaf($args)" }
Leaf l2 -q 1
puts [l2 set initlog]
# next outside a method
puts [catch {l next} msg]
puts $msg
# next in destroy chain
Base instproc destroy {} { puts "Base destroy $self"; $self next }
Leaf instproc destroy {} { puts "Leaf destroy $self"; $self next }
l2 destroy
puts [info commands l2]
# next when defining class method is removed in between
Mid instproc k {} { return mid }
Leaf instproc k {} { return "leaf->[$self next]" }
puts [l k]
Mid instproc k {} {}
puts [l k]
Base instproc k {} { return base }
puts [l k]
# next passes through per-object proc with no class method
Leaf l3
l3 proc solo {} { return "solo<[$self next]>" }
puts [l3 solo]
Base q
q proc q1 {} { return [$self next] }
puts "<[q q1]>"
