# FQ links (ns-2's FQLink) with SFQ or DRR flow queues: each flow id's
# queue is made at its first packet, `new Queue/SFQ` or `new Queue/DRR`
# with that class's defaults of that moment, and schedules the flow's
# packets from several sources by its own hash; its drops go to the link's
# drop trace (drpT_), a DRR queue's several at one arrival when small
# packets make room for a large one.  The FQ link's trace is written to
# out.tr.
#   ns fq_fair.tcl sfq     - SFQ flow queues, maxqueue_ 12 in 4 buckets
#   ns fq_fair.tcl drr     - DRR flow queues, blimit_ 5000, quantum_ 700
#   ns fq_fair.tcl midrun  - DropTail flow queues first, SFQ for the flows
#     whose first packet comes after 2 s, DRR after 5 s, Queue/DRR's
#     defaults changed at 5.8 s (for later flows: mask_ puts all of a
#     flow's sources in one bucket), SFQ again at 9 s
#   ns fq_fair.tcl monitor - as drr, with a queue monitor on the FQ link
#     attached after its trace: the flow queues drop to the link's drop
#     trace directly, so the monitor's drop snoop never sees their drops
#     (its counters printed every 2 s)
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set k [$ns node]
$ns duplex-link $n0 $r1 10Mb 2ms DropTail
$ns duplex-link $n1 $r1 10Mb 7ms DropTail
$ns duplex-link $n2 $r1 10Mb 4ms DropTail
$ns simplex-link $r1 $r2 1Mb 10ms FQ
$ns trace-queue $r1 $r2 $tf
$ns simplex-link $r2 $r1 1Mb 10ms DropTail
$ns duplex-link $r2 $k 10Mb 3ms DropTail

switch $mode {
    sfq {
        FQLink set queueManagement_ SFQ
        Queue/SFQ set maxqueue_ 12
        Queue/SFQ set buckets_ 4
    }
    drr - monitor {
        FQLink set queueManagement_ DRR
        Queue/DRR set blimit_ 5000
        Queue/DRR set quantum_ 700
        Queue/DRR set buckets_ 6
    }
    midrun {
        Queue/SFQ set maxqueue_ 10
        Queue/DRR set blimit_ 4000
        $ns at 2.0 {FQLink set queueManagement_ SFQ}
        $ns at 5.0 {FQLink set queueManagement_ DRR}
        $ns at 5.8 {Queue/DRR set blimit_ 2500; Queue/DRR set quantum_ 1500; Queue/DRR set mask_ 1}
        $ns at 9.0 {FQLink set queueManagement_ SFQ}
    }
}

if {$mode eq "monitor"} {
    set qm [$ns monitor-queue $r1 $r2 ""]
    proc show {} {
        global ns qm
        puts "[$ns now] size_ [$qm set size_] pkts_ [$qm set pkts_] parrivals_ [$qm set parrivals_] pdepartures_ [$qm set pdepartures_] pdrops_ [$qm set pdrops_] bdrops_ [$qm set bdrops_]"
        $ns at [expr {[$ns now] + 2.0}] show
    }
    $ns at 1.0 show
}

proc tcp {src fid size start} {
    global ns k
    set t [$ns create-connection TCP/Sack1 $src TCPSink/Sack1 $k $fid]
    $t set window_ 40
    $t set packetSize_ $size
    $ns at $start "[$t attach-app FTP] start"
    return $t
}
proc cbr {src fid rate size start stop} {
    global ns k
    set u [$ns create-connection UDP $src Null $k $fid]
    set c [$u attach-app Traffic/CBR]
    $c set rate_ $rate
    $c set packetSize_ $size
    $c set random_ 1
    $ns at $start "$c start"
    $ns at $stop "$c stop"
    return $c
}
# flow 1 from three sources, large and small packets
tcp $n0 1 1500 0.0
cbr $n1 1 0.3Mb 100 0.5 11.0
cbr $n2 1 0.2Mb 300 1.0 8.0
# flow 2 from two
tcp $n1 2 500 0.2
tcp $n2 2 1000 1.5
cbr $n0 3 0.4Mb 400 0.5 11.0
tcp $n0 4 1000 2.5
cbr $n1 5 0.3Mb 200 5.5 9.5
tcp $n2 6 1000 6.0
cbr $n0 6 0.1Mb 120 6.5 10.5
tcp $n1 7 1200 9.5
$ns at 12.0 {
    global tf
    $ns flush-trace
    close $tf
    puts done
    exit 0
}
$ns run
