# A dynamic link (made so by rtmodel-at) whose delay is lowered while packets
# are in flight, then taken down before any arrival at the new delay:
# ns-2's dynamic LinkDelay keeps packets in transit in sending order, and
# going down drops every one of them, including the packet sent after the
# change (whose arrival would come before the others').
#
# Usage: ns dyn_delay.tcl LOWER_AT DOWN_AT
#   LOWER_AT  time the delay goes from 100ms to 5ms
#   DOWN_AT   time the link goes down (up again 0.5 s later)
# (Packets sent after LOWER_AT must not arrive before DOWN_AT: ns-2 reuses a
# delivered packet's memory while its old arrival event is still queued, so
# its behaviour then is undefined.)
set lower_at [lindex $argv 0]
set down_at [lindex $argv 1]
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 100ms DropTail
$ns rtmodel-at $down_at down $n0 $n1
$ns rtmodel-at [expr {$down_at + 0.5}] up $n0 $n1
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.02
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at $lower_at "[[$ns link $n0 $n1] link] set delay_ 5ms"
$ns at 4.0 "finish"
proc finish {} { global ns f; $ns flush-trace; close $f; puts "done at [$ns now]"; exit 0 }
$ns run
