# Link dynamics driven by hand: a link made dynamic and taken down before
# `$ns run` (routes at the start avoid it), brought up by `$link up` during
# the run, routes recomputed by `$ns compute-routes`, then an rtmodel-at.
# usage: ns dynamics_direct.tcl MODE   (0: static routing, 2: rtproto Session)
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set mode [lindex $argv 0]
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(0) $n(2) 1Mb 30ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 30ms DropTail
if {$mode == 2} { $ns rtproto Session }
set l [$ns link $n(0) $n(1)]
$l dynamic
[$ns link $n(1) $n(0)] dynamic
$l down
puts "before run: [$l up?]"
set tcp [$ns create-connection TCP/Reno $n(0) TCPSink $n(3) 0]
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 0.5 "$l up; puts up"
$ns at 0.8 "$ns compute-routes; puts recomputed"
$ns rtmodel-at 1.2 down $n(1) $n(3)
$ns at 2.0 {puts "ack [$tcp set ack_]"; $ns flush-trace; exit 0}
$ns run
