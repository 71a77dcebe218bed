# boolvars.tcl -- bound bools keep the integer set (tclcl InstVarBool: "3"
# reads back as 3, "true" as 1, "yes" as 0), for RFC793edu's add793*_
# switches and Sack1's partial_ack_; $trace tagged takes only what
# Tcl_GetBoolean takes (0, 1, the boolean words), other values are errors.
#
# Usage: ns boolvars.tcl

set ns [new Simulator]
Agent/TCP/RFC793edu set add793exponinc_ 7
set t [new Agent/TCP/RFC793edu]
puts "[$t set add793exponinc_] [$t set add793fastrtx_]"
$t set add793fastrtx_ 3
$t set add793karnrtt_ true
$t set add793slowstart_ yes
puts "[$t set add793fastrtx_] [$t set add793karnrtt_] [$t set add793slowstart_]"
set s [new Agent/TCP/Sack1]
$s set partial_ack_ 5
puts [$s set partial_ack_]
set tr [new Trace/Enque]
foreach v {1 0 yes off 2 0.0 " 1" 0x1} { puts "tagged $v: [catch {$tr tagged $v} m] $m" }
