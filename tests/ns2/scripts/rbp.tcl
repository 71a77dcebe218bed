# rbp.tcl -- rate-based pacing after idle periods (tcp/tcp-rbp.cc).
#
#   a --(10Mb, 5ms)-- r --(1Mb, 40ms, DropTail 15)-- b
#
# A TCP/KIND sender (Reno/RBP or Vegas/RBP) to a TCPSink/DelAck sends
# bursts of 40 packets 3 s apart (idle in between, so its retransmission
# timer expires and the next burst is paced), against a Reno flow that
# runs throughout.
#
# Usage: ns rbp.tcl endtime Reno/RBP|Vegas/RBP [alg [scale]]
# Writes rbp.tr (trace-all); prints the pacing counters at the end.
set endtime [lindex $argv 0]
set kind [lindex $argv 1]
set alg [expr {[llength $argv] > 2 ? [lindex $argv 2] : 1}]
set scale [expr {[llength $argv] > 3 ? [lindex $argv 3] : 0.75}]
set ns [new Simulator]
set tf [open rbp.tr w]
$ns trace-all $tf
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 10Mb 5ms DropTail
$ns duplex-link $r $b 1Mb 40ms DropTail
$ns queue-limit $r $b 15
set tcp [$ns create-connection TCP/$kind $a TCPSink/DelAck $b 1]
$tcp set window_ 30
$tcp set restart_bugfix_ 1
$tcp set rbp_scale_ $scale
if {$kind eq "Vegas/RBP"} { $tcp set rbp_rate_algorithm_ $alg }
set ftp [$tcp attach-app FTP]
set other [$ns create-connection TCP/Reno $a TCPSink $b 2]
$other set window_ 8
set oftp [$other attach-app FTP]
$ns at 0.0 "$oftp start"
set n 0
for {set t 0.5} {$t < $endtime - 1} {set t [expr $t + 3]} {
    incr n 40
    $ns at $t "$ftp produce $n"
}
proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    puts "[$tcp set rbp_segs_actually_paced_] [$tcp set rbp_inter_pace_delay_] [$tcp set cwnd_] [$tcp set ndatapack_]"
    exit 0
}
$ns at $endtime "finish"
$ns run
