# things OTcl does not have
Object o
foreach m {incr isa append lappend exists eval variable vwait hasclass} {
    puts "$m: [catch {o $m x} msg] $msg"
}
puts [catch {o info commands x y} msg]
puts $msg
puts [catch {o info bogus} msg]
puts $msg
puts [catch {Object info bogus} msg]
puts $msg
puts [catch {Object instproc} msg]
puts $msg
puts [catch {Object instproc a b} msg]
puts $msg
puts [catch {o instproc a b c} msg]
puts $msg
puts [catch {o proc a b} msg]
puts $msg
puts [catch {o create x} msg]
puts $msg
puts [catch {o info instances} msg]
puts $msg
puts [catch {o superclass Object} msg]
puts $msg
