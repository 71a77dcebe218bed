# delayer_chained.tcl -- two Delayers chained by hand on one link.
#
#   s0 --(10Mb, 2ms)-- r --(1Mb, 15ms, DropTail)-- k, one TCP flow s0 -> k.
#
# insert-delayer puts d1 after the r->k queue; d2 is spliced in after d1 by
# hand.  When d2 passes a packet to the link it calls d1 back while d1 is
# still handing that packet over: ns-2 then hands the same packet on a
# second time and aborts ("Scheduler: Event UID not valid!", exit 1) when
# the link schedules it again.  Dumbbell stops at the call-back with ns-2's
# message and exit code (its trace lacks ns-2's second dequeue line, so the
# trace is not compared).
# Usage: ns delayer_chained.tcl

set ns [new Simulator]
set tf [open chained.tr w]
$ns trace-all $tf
set s0 [$ns node]
set r [$ns node]
set k [$ns node]
$ns duplex-link $s0 $r 10Mb 2ms DropTail
$ns duplex-link $r $k 1Mb 15ms DropTail
set d1 [new Delayer]
$ns insert-delayer $r $k $d1
set d2 [new Delayer]
$d2 target [$d1 target]
$d1 target $d2
set tcp [new Agent/TCP]
$ns attach-agent $s0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $k $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "puts {start}; $ftp start"
$ns at 2.0 "puts {not reached}; exit 0"
$ns run
