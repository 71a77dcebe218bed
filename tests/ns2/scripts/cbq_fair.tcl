# SFQ, DRR, PI, REM, Vq, GK, SRR and RIO queues as the leaves of a CBQ or CBQ/WRR link (CBQClass
# install-queue of such a queue object), as ns-2 2.35 runs them: each
# leaf's scheduler hashes the class's packets by source (DRR) or source and
# destination (SFQ) into buckets of its own; SFQ drops an arrival, DRR over
# its byte limit queues the arrival and drops from the head of its fattest
# bucket, several packets when small ones make room for a large one; the
# drops go to the link's drop trace.
#   ns cbq_fair.tcl LINKTYPE ALGORITHM MODE
#     MODE mixed: an SFQ leaf (maxqueue_, buckets_), a DRR leaf (blimit_,
#                 quantum_) and a DropTail leaf
#          aqm:   a PI leaf (setbit_, marking the ECN-capable TCP), a REM
#                 leaf and a Vq leaf (markpkts_), as `new` made them: PI's
#                 and REM's update timers run from then, none is given the
#                 link (REM and Vq measure its rate as 0)
#          aqm2:  a GK leaf, an SRR leaf and a RIO leaf
#          cmds:  the same kinds set by their commands (SFQ's limit, DRR's
#                 blimit, quantum, buckets) and DRR's mask_ (every source
#                 in one bucket), and a second DRR leaf in place of DropTail
set type [lindex $argv 0]
set alg [lindex $argv 1]
set mode [lindex $argv 2]
set ns [new Simulator]
set tf [open cbq_fair.tr w]
$ns trace-all $tf
foreach i {0 1 2 3} { set s($i) [$ns node] }
set r1 [$ns node]; set r2 [$ns node]
foreach i {0 1 2 3} { $ns duplex-link $s($i) $r1 10Mb [expr 2+3*$i]ms DropTail }
$ns simplex-link $r1 $r2 1Mb 20ms $type
$ns simplex-link $r2 $r1 1Mb 20ms DropTail
set l [$ns link $r1 $r2]

set root [new CBQClass]
$root setparams none 0 0.98 auto 8 3 0
set ag [new CBQClass]
$ag setparams $root 1 0.7 auto 8 2 0
# leaf PARENT ALLOT PRIO KIND KNOBS: a class whose queue is a Queue/KIND
# with KNOBS applied to it
proc leaf {parent allot prio kind knobs} {
    set c [new CBQClass]
    set q [new Queue/$kind]
    foreach k $knobs { eval $q $k }
    $c install-queue $q
    $c setparams $parent true $allot auto $prio 1 0
    return $c
}
switch -- $mode {
    mixed {
        set ka {{set maxqueue_ 14} {set buckets_ 4}}
        set kb {{set blimit_ 6000} {set quantum_ 600} {set buckets_ 5}}
        set kc {{set limit_ 15}}
        set kinds {SFQ DRR DropTail}
    }
    aqm {
        set ka {{set qref_ 3} {set a_ 0.01} {set b_ 0.0099} {set setbit_ true} {set limit_ 20}}
        set kb {{set pbo_ 4} {set gamma_ 0.005} {set limit_ 25}}
        set kc {{set markpkts_ true} {set queue_in_bytes_ false} {set mean_pktsize_ 400} {set limit_ 15}}
        set kinds {PI REM Vq}
    }
    aqm2 {
        set ka {{set ecnlim_ 0.4} {set limit_ 12}}
        set kb {{set limit_ 10}}
        set kc {{set q_weight_ 0.02} {set thresh_ 2} {set maxthresh_ 6} {set out_thresh_ 2} {set out_maxthresh_ 6} {set limit_ 16}}
        set kinds {GK SRR RED/RIO}
    }
    cmds {
        set ka {{set buckets_ 3} {limit 10}}
        set kb {{blimit 4500} {quantum 300} {buckets 7}}
        set kc {{set mask_ 1} {set blimit_ 3000} {set quantum_ 1000}}
        set kinds {SFQ DRR DRR}
    }
}
set a [leaf $ag 0.3 0 [lindex $kinds 0] $ka]
set b [leaf $ag 0.4 1 [lindex $kinds 1] $kb]
set c [leaf $root 0.28 1 [lindex $kinds 2] $kc]
foreach cl [list $root $ag $a $b $c] { $l insert $cl }
$l bind $a 1 2
$l bind $b 3 4
$l bind $c 5 6
[$l queue] algorithm $alg
if {$type eq "CBQ/WRR"} { [$l queue] set maxpkt_ 1000 }
puts "leaf queues [[$a qdisc] info class] [[$b qdisc] info class] [[$c qdisc] info class]"

proc cbr {src fid size rate start stop} {
    global ns r2
    set u [new Agent/UDP]; $ns attach-agent $src $u; $u set fid_ $fid
    set k [new Agent/Null]; $ns attach-agent $r2 $k; $ns connect $u $k
    set g [new Application/Traffic/CBR]; $g attach-agent $u
    $g set packetSize_ $size; $g set rate_ $rate; $g set random_ 1
    $ns at $start "$g start"; $ns at $stop "$g stop"
}
set n 0
proc tcp {src fid size start} {
    global ns r2 t n
    set t($n) [new Agent/TCP/Reno]; $ns attach-agent $src $t($n); $t($n) set fid_ $fid
    $t($n) set packetSize_ $size; $t($n) set window_ 30
    global mode
    if {$mode in {aqm aqm2} && $fid in {1 3 5}} { $t($n) set ecn_ 1 }
    set k [new Agent/TCPSink]; $ns attach-agent $r2 $k; $ns connect $t($n) $k
    set f [$t($n) attach-app FTP]; $ns at $start "$f start"
    incr n
}
# class a: two TCPs from two sources and a CBR from a third
tcp $s(0) 1 1000 0.0
tcp $s(1) 2 500 0.3
cbr $s(2) 1 200 150Kb 1.0 6.0
# class b: big TCP packets beside small CBR ones from other sources (DRR's
# overflow drops several small ones for one big one)
tcp $s(2) 3 1500 0.1
cbr $s(3) 4 100 200Kb 0.5 7.0
cbr $s(0) 4 300 150Kb 2.0 5.0
tcp $s(3) 3 1000 3.0
# class c
tcp $s(1) 5 1000 0.2
cbr $s(3) 6 400 250Kb 1.5 6.5
set stop 8
set qm [$ns monitor-queue $r1 $r2 [open qm.tr w] 0.25]
proc finish {} {
    global ns tf qm t n
    $ns flush-trace
    close $tf
    puts "qmon arrivals [$qm set parrivals_] departures [$qm set pdepartures_] drops [$qm set pdrops_]"
    for {set i 0} {$i < $n} {incr i} { puts "tcp $i ack [$t($i) set ack_] cwnd [$t($i) set cwnd_]" }
    exit 0
}
$ns at $stop finish
$ns run
