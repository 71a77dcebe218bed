# FQ links (ns-2's FQLink) with SFQ, DRR, PI, REM, Vq, GK, SRR, RIO or PriQueue flow queues: each flow id's
# queue is made at its first packet, `new Queue/KIND`
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
#   ns fq_fair.tcl KIND    - KIND (pi, rem, vq, gk, srr, rio, priqueue)
#     flow queues, each a `new Queue/KIND` made at its flow's first packet
#     (PI's and REM's update timers start there, one period after), no link
#     given to them (REM, Vq and GK measure the link rate as 0); some TCPs
#     ECN-capable (PI's setbit_, REM's and Vq's markpkts_ and GK mark them;
#     REM's marking draws at every dequeue, even of an empty queue, which
#     FQ asks at each resume of the link)
#   ns fq_fair.tcl aqmrun  - the kind changes mid-run: PI, REM at 3 s
#     (Queue/REM's defaults changed at 4.5 s), Vq at 5.8 s, GK at 7.5 s,
#     RIO at 9 s, PriQueue at 9.6 s, each taken by the next new flow (two
#     more flows, 8 from 8 s and 9 from 9.8 s)
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
    pi {
        FQLink set queueManagement_ PI
        Queue/PI set qref_ 4
        Queue/PI set a_ 0.01
        Queue/PI set b_ 0.0099
        Queue/PI set w_ 150
        Queue/PI set setbit_ true
        Queue set limit_ 15
    }
    rem {
        FQLink set queueManagement_ REM
        Queue/REM set markpkts_ true
        Queue/REM set pbo_ 3
        Queue/REM set gamma_ 0.01
        Queue/REM set pupdtime_ 0.003
        Queue set limit_ 20
    }
    vq {
        FQLink set queueManagement_ Vq
        Queue/Vq set markpkts_ true
        Queue/Vq set queue_in_bytes_ false
        Queue/Vq set mean_pktsize_ 500
    }
    gk {
        FQLink set queueManagement_ GK
        Queue/GK set ecnlim_ 0.3
        Queue set limit_ 12
    }
    srr {
        FQLink set queueManagement_ SRR
        Queue set limit_ 10
    }
    rio {
        FQLink set queueManagement_ RED/RIO
        Queue/RED/RIO set q_weight_ 0.02
        Queue/RED/RIO set out_thresh_ 2
        Queue/RED/RIO set out_maxthresh_ 8
        Queue/RED/RIO set thresh_ 2
        Queue/RED/RIO set maxthresh_ 8
        Queue set limit_ 14
    }
    priqueue {
        FQLink set queueManagement_ DropTail/PriQueue
        Queue set limit_ 9
    }
    aqmrun {
        Queue/PI set qref_ 3
        Queue/PI set a_ 0.02
        Queue/PI set b_ 0.0199
        Queue/RED/RIO set q_weight_ 0.01
        FQLink set queueManagement_ PI
        $ns at 3.0 {FQLink set queueManagement_ REM}
        $ns at 4.5 {Queue/REM set pbo_ 2; Queue/REM set inw_ 0.5}
        $ns at 5.8 {FQLink set queueManagement_ Vq}
        $ns at 7.5 {FQLink set queueManagement_ GK}
        $ns at 9.0 {FQLink set queueManagement_ RED/RIO}
        $ns at 9.6 {FQLink set queueManagement_ DropTail/PriQueue}
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
    global ns k mode
    set t [$ns create-connection TCP/Sack1 $src TCPSink/Sack1 $k $fid]
    $t set window_ 40
    if {$fid % 2 == 0 && $mode in {pi rem vq gk aqmrun}} { $t set ecn_ 1 }
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
if {$mode eq "aqmrun"} {
    tcp $n0 8 800 8.0
    cbr $n2 9 0.2Mb 300 9.8 11.5
}
$ns at 12.0 {
    global tf
    $ns flush-trace
    close $tf
    puts done
    exit 0
}
$ns run
