# class introspection
Class Base
Class Mid -superclass Base
Class Leaf -superclass Mid
Class Other
Class Multi -superclass {Leaf Other}
puts [Leaf info superclass]
puts [Multi info superclass]
puts [Leaf info superclass Base]
puts [Leaf info superclass Leaf]
puts [Leaf info superclass Other]
puts [Leaf info superclass Object]
puts [catch {Leaf info superclass NoSuch} msg]
puts $msg
puts [Base info subclass]
puts [Base info subclass Multi]
puts [Base info subclass Other]
puts [catch {Base info subclass NoSuch} msg]
puts $msg
puts [Multi info heritage]
puts [Multi info heritage *e*]
puts [Leaf info heritage M*]
Base instproc b1 {} {}
Base instproc b2 {x} { return $x }
Base instproc c1 {} { return c }
puts [lsort [Base info instprocs]]
puts [lsort [Base info instprocs b*]]
puts [lsort [Base info instcommands]]
puts "<[Leaf info instprocs]>"
puts [Base info instargs b2]
puts [string trim [Base info instbody c1]]
Leaf l1
Leaf l2
Mid m1
puts [lsort [Leaf info instances]]
puts [lsort [Leaf info instances *2]]
puts [Mid info instances]
puts "<[Base info instances]>"
puts [lsort [Class info instances Mult?]]
puts [lsort [Object info instcommands]]
puts [lsort [Class info instcommands]]
puts [lsort [Class info instprocs]]
puts [lsort [Object info instprocs a*]]
puts [catch {Base info instbody nosuch} msg]
puts $msg
puts [catch {Base info instbody set} msg]
puts $msg
puts [catch {Object info instargs init} msg]
puts $msg
puts [catch {Base info instprocs a b} msg]
puts $msg
puts [catch {Base info instdefault b2 x} msg]
puts $msg
puts [catch {Base info heritage a b} msg]
puts $msg
puts [Object info heritage]
puts [Class info heritage]
puts [Class info superclass]
puts "<[Object info superclass]>"
puts [Object info class]
puts [Class info class]
puts [lsort [Other info subclass]]
