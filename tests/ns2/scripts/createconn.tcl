# createconn.tcl -- "$ns create-connection" and several agents per node.
#
#        n0 --(5Mb,10ms)-- n1 --(1.2Mb,20ms, q 12)-- n2 --(5Mb,2ms)-- n3
#                                                     \--(5Mb,7ms)-- n4
#
# Three senders share node n0 (ports 0.0, 0.1, 0.2) and are built with
# create-connection (which also sets fid_ on both ends):
#   TCP/Reno    n0 -> TCPSink        n3, class 1, from 0.0 s
#   TCP         n0 -> TCPSink        n3, class 2, from 0.4 s  (2 sinks on n3)
#   TCP/Newreno n0 -> TCPSink/DelAck n4, class 3, from 1.0 s
# plus one sender on n3 back to n0 (attach-agent/connect), so n3 holds
# two sinks and one sender, and n0 three senders and one sink.
#
# Usage: ns createconn.tcl [endtime]        (default 10)
# Writes cc.tr (trace-all) and cc.nam.

set endtime 10
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 25

set ns [new Simulator]
set tf [open cc.tr w]
$ns trace-all $tf
set nf [open cc.nam w]
$ns namtrace-all $nf
$ns color 1 Blue
$ns color 2 Red
$ns color 3 Green
$ns color 4 Black

for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 5Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1.2Mb 20ms DropTail
$ns duplex-link $n(2) $n(3) 5Mb 2ms DropTail
$ns duplex-link $n(2) $n(4) 5Mb 7ms DropTail
$ns queue-limit $n(1) $n(2) 12
$ns queue-limit $n(2) $n(1) 12
$ns duplex-link-op $n(0) $n(1) orient right
$ns duplex-link-op $n(1) $n(2) orient right
$ns duplex-link-op $n(2) $n(3) orient right-up
$ns duplex-link-op $n(2) $n(4) orient right-down
$ns duplex-link-op $n(1) $n(2) queuePos 0.5

set tcp(1) [$ns create-connection TCP/Reno $n(0) TCPSink $n(3) 1]
set tcp(2) [$ns create-connection TCP $n(0) TCPSink $n(3) 2]
set tcp(3) [$ns create-connection TCP/Newreno $n(0) TCPSink/DelAck $n(4) 3]
$tcp(3) set packetSize_ 576

set tcp(4) [new Agent/TCP/Reno]
$tcp(4) set fid_ 4
$ns attach-agent $n(3) $tcp(4)
set sink4 [new Agent/TCPSink]
$ns attach-agent $n(0) $sink4
$ns connect $tcp(4) $sink4

set starts {0 0.0 0.4 1.0 2.5}
for {set i 1} {$i <= 4} {incr i} {
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [lindex $starts $i] "$ftp($i) start"
}

proc finish {} {
    global ns tf nf tcp
    for {set i 1} {$i <= 4} {incr i} {
        puts [format "tcp%d fid %d: ack_ %d maxseq_ %d ndatapack_ %d nrexmitpack_ %d cwnd_ %s" $i \
            [$tcp($i) set fid_] [$tcp($i) set ack_] [$tcp($i) set maxseq_] \
            [$tcp($i) set ndatapack_] [$tcp($i) set nrexmitpack_] [$tcp($i) set cwnd_]]
    }
    $ns flush-trace
    close $tf
    close $nf
    exit 0
}
$ns at $endtime "finish"
$ns run
