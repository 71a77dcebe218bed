# parkinglot.tcl -- two bottlenecks in series with cross traffic.
#
#     s0                c1          c2
#       \                |           |
#        r1 ==(1.5Mb)== r2 ==(1Mb)== r3 -- d0
#        |               |           |
#       c0              e0          e1
#
# Long flow  s0 -> d0 (Newreno) crosses both bottlenecks r1->r2 and r2->r3.
# Cross flow c0 -> e0 (Reno, DelAck sink) loads only r1->r2 (starts at 1 s).
# Cross flow c1 -> e1 (Tahoe) loads only r2->r3 (starts at 2 s, stops at
# 12 s).  Bottleneck queues hold 15 packets; access links are 10Mb.
#
# Usage: ns parkinglot.tcl [endtime]          (default 15)
# Writes parkinglot.tr (trace-all); prints per-flow counters and the
# drop counts seen by queue monitors on both bottlenecks.

set endtime 15
if { $argc >= 1 } { set endtime [lindex $argv 0] }

set ns [new Simulator]
set tf [open parkinglot.tr w]
$ns trace-all $tf

Agent/TCP set window_ 50
Agent/TCP set packetSize_ 1000

foreach name {s0 r1 r2 r3 d0 c0 e0 c1 e1} {
    set $name [$ns node]
}
$ns duplex-link $s0 $r1 10Mb 2ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 20ms DropTail
$ns duplex-link $r2 $r3 1Mb 15ms DropTail
$ns duplex-link $r3 $d0 10Mb 3ms DropTail
$ns duplex-link $c0 $r1 10Mb 7ms DropTail
$ns duplex-link $r2 $e0 10Mb 1ms DropTail
$ns duplex-link $c1 $r2 10Mb 4ms DropTail
$ns duplex-link $r3 $e1 10Mb 9ms DropTail
$ns queue-limit $r1 $r2 15
$ns queue-limit $r2 $r3 15

# count arrivals/drops on the two bottlenecks
set qm1 [new QueueMonitor]
[$ns link $r1 $r2] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm1
set qm2 [new QueueMonitor]
[$ns link $r2 $r3] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm2

proc flow {name type src sinktype dst fid} {
    global ns tcp sink ftp
    set tcp($name) [new Agent/$type]
    $tcp($name) set fid_ $fid
    $ns attach-agent $src $tcp($name)
    set sink($name) [new Agent/$sinktype]
    $ns attach-agent $dst $sink($name)
    $ns connect $tcp($name) $sink($name)
    set ftp($name) [new Application/FTP]
    $ftp($name) attach-agent $tcp($name)
}

flow long  TCP/Newreno $s0 TCPSink        $d0 1
flow cross1 TCP/Reno   $c0 TCPSink/DelAck $e0 2
flow cross2 TCP        $c1 TCPSink        $e1 3

$ns at 0.0  "$ftp(long) start"
$ns at 1.0  "$ftp(cross1) start"
$ns at 2.0  "$ftp(cross2) start"
$ns at 12.0 "$ftp(cross2) stop"

proc finish {} {
    global ns tf tcp sink qm1 qm2
    foreach f {long cross1 cross2} {
        puts [format "%-6s ack_=%d maxseq_=%d ndatapack_=%d nrexmitpack_=%d bytes_=%d" \
            $f [$tcp($f) set ack_] [$tcp($f) set maxseq_] [$tcp($f) set ndatapack_] \
            [$tcp($f) set nrexmitpack_] [$sink($f) set bytes_]]
    }
    foreach {n q} [list r1-r2 $qm1 r2-r3 $qm2] {
        puts [format "%s: arrivals %d departures %d drops %d (bytes %d %d %d)" $n \
            [$q set parrivals_] [$q set pdepartures_] [$q set pdrops_] \
            [$q set barrivals_] [$q set bdepartures_] [$q set bdrops_]]
    }
    $ns flush-trace
    close $tf
    exit 0
}
$ns at $endtime "finish"
$ns run
