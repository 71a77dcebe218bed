# classes of classes
Class Meta -superclass Class
Meta instproc describe {} { return "class $self with [llength [$self info instprocs]] instprocs" }
Meta Widget
Widget instproc draw {} { return "draw $self" }
puts [Widget info class]
puts [Widget describe]
Widget w
puts [w draw]
puts [w info class]
puts [Meta info instances]
puts [lsort [Meta info heritage]]
Meta create Gadget -superclass Widget
puts [Gadget info superclass]
Gadget gg
puts [gg draw]
puts [Gadget describe]
puts [lsort [Class info instances Gadg*]]
puts [lsort [Meta info instances Gadg*]]
# metaclass init hook
Class Counted -superclass Class
Counted instproc init {args} {
    eval $self next $args
    $self set count 0
}
Counted instproc create {name args} {
    $self set count [expr {[$self set count] + 1}]
    eval $self next [list $name] $args
}
Counted Thing
Thing t1
Thing t2
Thing create t3
puts [Thing set count]
puts [lsort [Thing info instances]]
