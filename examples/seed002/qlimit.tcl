# qlimit.tcl: one TCP Reno sender through an 800 kb/s bottleneck (Dordal,
# "An Introduction to Computer Networks", 31.2.6 "Single-sender Throughput
# Experiments" and "Queue utilization").  basic1's topology with the
# propagation delays raised to 50 ms (A--R) and 100 ms (R--B): the round-trip
# transit capacity is about 30 packets of 1000 bytes.
#
# Usage: ns qlimit.tcl queuesize [endtime [tracefile]]
#   queuesize  queue-limit at R towards B (the book's table: 3..30; 40 for
#              the queue-utilization experiment)
#   endtime    simulated seconds (default 1000, as in the book)
#   tracefile  if given, trace-all goes there (the book's table ran untraced)
#
# Prints one line: queuesize, packets received by B (sink bytes_ / 1000,
# rounded, as the book counts), final ack_, maxseq_, retransmissions, and the
# R->B utilization in % (received / (100 packets/s x endtime)).

if { $argc < 1 } {
    puts stderr "usage: ns qlimit.tcl queuesize \[endtime \[tracefile\]\]"
    exit 1
}
set queuesize [expr [lindex $argv 0]]
set endtime 1000
if { $argc >= 2 } { set endtime [expr [lindex $argv 1]] }
set tracename ""
if { $argc >= 3 } { set tracename [lindex $argv 2] }

set ns [new Simulator]
if { $tracename != "" } {
    set trace [open $tracename w]
    $ns trace-all $trace
}

set A [$ns node]
set R [$ns node]
set B [$ns node]
$ns duplex-link $A $R 10Mb 50ms DropTail
$ns duplex-link $R $B 800Kb 100ms DropTail
$ns queue-limit $R $B $queuesize

set tcp0 [new Agent/TCP/Reno]
$tcp0 set class_ 0
$tcp0 set window_ 65000
$tcp0 set packetSize_ 960
$ns attach-agent $A $tcp0
set end0 [new Agent/TCPSink]
$ns attach-agent $B $end0
$ns connect $tcp0 $end0
set myftp [new Application/FTP]
$myftp attach-agent $tcp0

proc finish {} {
    global ns tcp0 end0 queuesize endtime tracename trace
    set received [expr round([$end0 set bytes_] / 1000.0)]
    set util [expr 100.0 * $received / (100.0 * $endtime)]
    puts [format "%d %d ack=%d maxseq=%d rexmit=%d util=%.1f" $queuesize $received \
        [$tcp0 set ack_] [$tcp0 set maxseq_] [$tcp0 set nrexmitpack_] $util]
    if { $tracename != "" } {
        $ns flush-trace
        close $trace
    }
    exit 0
}

$ns at 0.0 "$myftp start"
$ns at $endtime "finish"
$ns run
