# RED queues as the leaves of a CBQ or CBQ/WRR link (CBQClass install-queue
# of a Queue/RED), as ns-2 2.35 runs them: each leaf's RED with its own
# state and random draws, neither reset when the run starts nor linked
# (ns-2's CBQLink does neither), so that its thresholds are thresh_queue_
# and maxthresh_queue_ unless the script resets the queue itself; early
# and forced drops go to the link's drop trace, ECN marks ride the packets.
#   ns cbq_red.tcl LINKTYPE ALGORITHM MODE
#     MODE defaults: three RED leaves with Queue/RED's defaults (limit_ only)
#          reset:    RED leaves with thresholds, one reset by the script,
#                    one not (thresh_queue_, gentle_ off), and a DropTail one
#          ecn:      RED leaves marking (setbit_) ECN-capable TCP packets
#          bytes:    a byte-mode RED leaf (bytes_, queue_in_bytes_), a
#                    drop-front RED leaf and a DropTail leaf
set type [lindex $argv 0]
set alg [lindex $argv 1]
set mode [lindex $argv 2]
if {$mode eq "ecn"} { Agent/TCP set ecn_ 1 }
set ns [new Simulator]
set tf [open cbq_red.tr w]
$ns trace-all $tf
foreach i {0 1 2} { set s($i) [$ns node] }
set r1 [$ns node]; set r2 [$ns node]
foreach i {0 1 2} { $ns duplex-link $s($i) $r1 10Mb [expr 2+3*$i]ms DropTail }
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
    defaults {
        set ka {{set limit_ 20}}
        set kb {{set limit_ 30}}
        set kc {}
        set kinds {RED RED RED}
    }
    reset {
        set ka {{set thresh_ 2} {set maxthresh_ 8} {set q_weight_ 0.05} {set queue_in_bytes_ false} {set bytes_ false} {set limit_ 25} reset}
        set kb {{set thresh_queue_ 3} {set maxthresh_queue_ 10} {set q_weight_ 0.02} {set gentle_ false} {set queue_in_bytes_ false} {set limit_ 20}}
        set kc {{set limit_ 15}}
        set kinds {RED RED DropTail}
    }
    ecn {
        set ka {{set setbit_ true} {set thresh_ 2} {set maxthresh_ 6} {set q_weight_ 0.1} {set queue_in_bytes_ false} {set limit_ 30} reset}
        set kb {{set setbit_ true} {set thresh_ 4} {set maxthresh_ 12} {set q_weight_ 0.02} {set linterm_ 4} {set queue_in_bytes_ false} {set limit_ 30} reset}
        set kc {{set thresh_ 3} {set maxthresh_ 9} {set q_weight_ 0.05} {set queue_in_bytes_ false} {set limit_ 20} reset}
        set kinds {RED RED RED}
    }
    bytes {
        set ka {{set bytes_ true} {set queue_in_bytes_ true} {set mean_pktsize_ 800} {set thresh_ 3} {set maxthresh_ 9} {set q_weight_ 0.02} {set linterm_ 5} {set limit_ 20} reset}
        set kb {{set limit_ 10}}
        set kc {{set drop_front_ true} {set thresh_ 2} {set maxthresh_ 7} {set q_weight_ 0.05} {set queue_in_bytes_ false} {set limit_ 12} reset}
        set kinds {RED DropTail RED}
    }
}
set a [leaf $ag 0.3 0 [lindex $kinds 0] $ka]
set b [leaf $ag 0.4 1 [lindex $kinds 1] $kb]
set c [leaf $root 0.28 1 [lindex $kinds 2] $kc]
foreach cl [list $root $ag $a $b $c] { $l insert $cl }
$l bind $a 1
$l bind $b 2 3
$l bind $c 4
[$l queue] algorithm $alg
if {$type eq "CBQ/WRR"} { [$l queue] set maxpkt_ 1000 }
puts "leaf queues [[$a qdisc] info class] [[$b qdisc] info class] [[$c qdisc] info class]"

proc cbr {src fid size rate start stop} {
    global ns r2
    set u [new Agent/UDP]; $ns attach-agent $src $u; $u set fid_ $fid
    set k [new Agent/Null]; $ns attach-agent $r2 $k; $ns connect $u $k
    set g [new Application/Traffic/CBR]; $g attach-agent $u
    $g set packetSize_ $size; $g set rate_ $rate
    $ns at $start "$g start"; $ns at $stop "$g stop"
}
set n 0
proc tcp {src fid start} {
    global ns r2 t n
    set t($n) [new Agent/TCP/Reno]; $ns attach-agent $src $t($n); $t($n) set fid_ $fid
    set k [new Agent/TCPSink]; $ns attach-agent $r2 $k; $ns connect $t($n) $k
    set f [$t($n) attach-app FTP]; $ns at $start "$f start"
    incr n
}
if {$mode eq "defaults"} {
    # few enough arrivals that the default q_weight_ (-1, used as it is:
    # the average doubles away from zero) keeps a finite average
    cbr $s(0) 1 500 450Kb 0.1 3.5
    cbr $s(1) 2 500 400Kb 0.3 3.5
    cbr $s(1) 3 300 150Kb 1.0 3.0
    cbr $s(2) 4 500 350Kb 0.2 3.5
    set stop 4
} else {
    tcp $s(0) 1 0.0
    cbr $s(0) 1 400 200Kb 0.5 6.0
    tcp $s(1) 2 0.2
    tcp $s(1) 3 1.1
    tcp $s(2) 4 0.4
    cbr $s(2) 4 500 300Kb 2.0 5.0
    set stop 8
}
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
