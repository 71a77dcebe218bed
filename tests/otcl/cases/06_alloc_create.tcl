# alloc and create
puts [Object alloc a1 x y z]
puts [a1 info class]
puts [lsort [Object info instances a*]]
puts [Class alloc C1 p q]
puts [C1 info class]
puts [C1 info superclass]
C1 instproc hi {} { return hi }
C1 c
puts [c hi]
Class Foo
# Foo alloc is not a method of Foo: unknown creates an object named alloc
puts [catch {Foo alloc x} msg]
puts $msg
puts [alloc info class]
puts [Foo create create2]
puts [catch {Foo create} msg]
puts $msg
puts [catch {Foo create create} msg]
puts $msg
puts [catch {Class create} msg]
puts $msg
# init failures leave the object in place
Foo instproc init {} { error "init failed" }
puts [catch {Foo broken} msg]
puts $msg
puts [broken info class]
# create returns the name as given
Foo instproc init {} {}
puts [Foo create ::q1]
puts [q1 info class]
# a per-object alloc on a class takes over creation for it and subclasses
Class Pool
Pool proc alloc {name args} {
    puts "Pool alloc $name $args"
    Object alloc $name
    return $args
}
Pool instproc init {args} { puts "Pool init $args" }
Pool create p1 1 2
puts [p1 info class]
Class SubPool -superclass Pool
SubPool create p2 a
puts [p2 info class]
puts [lsort [Pool info procs]]
puts [lsort [Object info commands]]
puts [lsort [Class info commands]]
puts "<[Object info procs]>"
