# many objects and methods: dispatch caches stay correct
Class Base
Class Mid -superclass Base
Base instproc val {} { return base }
for {set i 0} {$i < 200} {incr i} {
    if {$i % 2} { Mid o$i } else { Base o$i }
    o$i set i $i
}
set s 0
for {set i 0} {$i < 200} {incr i} { incr s [o$i set i] }
puts $s
puts [o1 val]
Mid instproc val {} { return "mid>[$self next]" }
set r {}
foreach i {0 1 2 3} { lappend r [o$i val] }
puts $r
o3 proc val {} { return "o3 own" }
set r {}
foreach i {0 1 2 3} { lappend r [o$i val] }
puts $r
for {set i 0} {$i < 200} {incr i 2} { o$i destroy }
puts [llength [Base info instances]]
puts [llength [Mid info instances]]
Base instproc val {} { return base2 }
puts [o5 val]
o5 class Base
puts [o5 val]
# many methods on one object
for {set i 0} {$i < 100} {incr i} {
    Base instproc m$i {} "return $i"
}
set s 0
for {set i 0} {$i < 100} {incr i} { incr s [o5 m$i] }
puts $s
# re-create after destroy
Base o0
puts [o0 val]
puts [catch {o0 set i} msg]
puts $msg
