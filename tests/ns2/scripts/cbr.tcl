# cbr.tcl -- constant-bit-rate UDP traffic into loss monitors, with TCP.
#
#   a --(2Mb, 5ms)-- r --(1Mb, 20ms, DropTail 10)-- b
#
# CBR 1 (500-byte packets, interval_ 0.003 s, i.e. rate_ 1.33 Mb/s; random_
# jitter from argv) overloads the 1 Mb/s link; CBR 2 uses the old name
# packet_size_ 1200 (larger than UDP's packetSize_ 1000, so every message is
# sent as two packets) and stops after maxpkts_ 300; a Reno flow competes.
# CBR 1 stops at 3 s and starts again at 4 s.  The loss monitors' counters
# are printed at the end.
#
# Usage: ns cbr.tcl random(0|1)
# Writes cbr.tr (trace-all).
set ns [new Simulator]
set f [open cbr.tr w]
$ns trace-all $f
set a [$ns node]; set r [$ns node]; set b [$ns node]
$ns duplex-link $a $r 2Mb 5ms DropTail
$ns duplex-link $r $b 1Mb 20ms DropTail
$ns queue-limit $r $b 10
set udp [new Agent/UDP]
$udp set fid_ 3
$ns attach-agent $a $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $b $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 500
$cbr set interval_ 0.003
$cbr set random_ [lindex $argv 0]
puts "rate [$cbr set rate_] interval [$cbr set interval_]"
set udp2 [new Agent/UDP]
$ns attach-agent $a $udp2
set lm2 [new Agent/LossMonitor]
$ns attach-agent $b $lm2
$ns connect $udp2 $lm2
set cbr2 [new Application/Traffic/CBR]
$cbr2 attach-agent $udp2
$cbr2 set maxpkts_ 300
$cbr2 set packet_size_ 1200
set tcp [$ns create-connection TCP/Reno $a TCPSink $b 1]
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$cbr start"
$ns at 0.3 "$cbr2 start"
$ns at 0.2 "$ftp start"
$ns at 3.0 "$cbr stop"
$ns at 4.0 "$cbr start"
proc finish {} { global ns f lm lm2 tcp; $ns flush-trace; close $f
 foreach m [list $lm $lm2] { puts "npkts [$m set npkts_] nlost [$m set nlost_] bytes [$m set bytes_] last [$m set lastPktTime_] exp [$m set expected_]" }
 puts "tcp ack [$tcp set ack_]"; exit 0 }
$ns at 6 finish
$ns run
