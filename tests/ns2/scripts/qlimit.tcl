# qlimit.tcl -- single-sender link-utilization sweep over queue-limit
#
# Dordal 31.2.6 (Single-sender Throughput Experiments): the basic1 topology
# with the propagation delays raised to 50 ms (A--R) and 100 ms (R--B), so the
# round-trip transit capacity is ~30 packets.  TCP Reno, packetSize_ 960
# (1000 bytes on the wire => 100 packets/s at 800Kb).  Tracing is off (as in
# the book) to keep runs fast.  The book's table is reproduced exactly with
# window_ 65000 (the value of its next section); with basic1's window_ 100
# the initial slow start is capped once queue-limit >= 20 and the counts
# differ slightly (e.g. 97193 instead of 97261 for queue-limit 20).
#
# Usage: ns qlimit.tcl queuesize [endtime [window]]
#        (endtime defaults to 1000, window to 65000)
#
# Prints one line: queuesize, packets received by B (sink bytes_/1000,
# rounded; this counts the 40-byte SYN as well, see the book), final ack_,
# final maxseq_, number of retransmitted packets, utilization %.
# Book table: 3 79767, 4 80903, 5 83313, 8 87169, 10 89320, 12 91382,
# 16 94570, 20 97261, 22 98028, 26 99041, 30 99567.

if { $argc < 1 } {
    puts stderr "usage: ns qlimit.tcl queuesize \[endtime\]"
    exit 1
}
set queuesize [expr [lindex $argv 0]]
set endtime 1000
if { $argc >= 2 } {
    set endtime [expr [lindex $argv 1]]
}
set window 65000
if { $argc >= 3 } {
    set window [expr [lindex $argv 2]]
}

set ns [new Simulator]

set A [$ns node]
set R [$ns node]
set B [$ns node]

$ns duplex-link $A $R 10Mb 50ms DropTail
$ns duplex-link $R $B 800Kb 100ms DropTail
$ns queue-limit $R $B $queuesize

set tcp0 [new Agent/TCP/Reno]
$tcp0 set class_ 0
$tcp0 set window_ $window
$tcp0 set packetSize_ 960
$ns attach-agent $A $tcp0

set end0 [new Agent/TCPSink]
$ns attach-agent $B $end0
$ns connect $tcp0 $end0

set myftp [new Application/FTP]
$myftp attach-agent $tcp0

proc finish {} {
    global tcp0 end0 queuesize endtime
    set received [expr round([$end0 set bytes_] / 1000.0)]
    set util [expr 100.0 * $received / (100.0 * $endtime)]
    puts [format "%d %d ack=%d maxseq=%d rexmit=%d util=%.1f" $queuesize $received \
        [$tcp0 set ack_] [$tcp0 set maxseq_] [$tcp0 set nrexmitpack_] $util]
    exit 0
}

$ns at 0.0 "$myftp start"
$ns at $endtime "finish"
$ns run
