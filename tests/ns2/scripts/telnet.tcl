# telnet.tcl -- Telnet sources over TCP beside a bulk transfer.
#
#   s0, s1, s2 --(10Mb)-- r --(1Mb, 30ms, DropTail 15)-- d
#
# s0: Telnet with interval_ 0 (tcplib's empirical interarrivals, default
# RNG); s1: Telnet with exponential interarrivals of mean `mean` seconds;
# s2: FTP.  The Telnet at s1 stops at 6 s and starts again at 7 s.
#
# Usage: ns telnet.tcl mean [endtime]
# Writes telnet.tr (trace-all).

set mean [lindex $argv 0]
set endtime [expr {$argc > 1 ? [lindex $argv 1] : 10}]
set ns [new Simulator]
set tf [open telnet.tr w]
$ns trace-all $tf
set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 1Mb 30ms DropTail
$ns queue-limit $r $d 15
for {set i 0} {$i < 3} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb [expr {2 + 3 * $i}]ms DropTail
    set tcp($i) [$ns create-connection TCP/Reno $s($i) TCPSink $d $i]
}
set t0 [$tcp(0) attach-app Telnet]
$t0 set interval_ 0
set t1 [$tcp(1) attach-app Telnet]
$t1 set interval_ $mean
set ftp [$tcp(2) attach-app FTP]
$ns at 0.0 "$t0 start"
$ns at 0.2 "$t1 start"
$ns at 0.5 "$ftp start"
$ns at 6.0 "$t1 stop"
$ns at 7.0 "$t1 start"
proc finish {} {
    global ns tf tcp t1
    $ns flush-trace
    close $tf
    for {set i 0} {$i < 3} {incr i} { puts "flow $i ack [$tcp($i) set ack_] ndatapack [$tcp($i) set ndatapack_]" }
    puts "interval [$t1 set interval_]"
    exit 0
}
$ns at $endtime finish
$ns run
