# FQ links (ns-2's FQLink) with RED flow queues: each flow's queue is made
# at its first packet, `new Queue/RED` with Queue/RED's class defaults of
# that moment, never reset (so thresh_queue_/maxthresh_queue_ are the
# thresholds, thresh_/maxthresh_ unused, q_weight_ as it is).  A RED link
# elsewhere (m -> r1) draws from the same default generator.  The FQ link's
# trace is written to out.tr.
#   ns fq_red.tcl defaults - Queue/RED's defaults (q_weight_ -1: the average
#     runs to minus infinity, only the byte limit drops; stopped at 6 s,
#     before the busiest flow's average overflows, where ns-2 traps)
#   ns fq_red.tcl thresh   - q_weight_, thresh_queue_/maxthresh_queue_ set,
#     ungentle: drops forced by the average; thresh_/maxthresh_ ignored;
#     drop_rand_ picks the victims of overflow
#   ns fq_red.tcl ecn      - ECN senders, setbit_, mark_p_ 2 (above the
#     curve's 1): marks above maxthresh_queue_ instead of drops
#   ns fq_red.tcl midrun   - DropTail flow queues first, RED for the flows
#     that start after 3 s, RED's class defaults changed at 6 s (for later
#     flows), DropTail again at 9 s
#   ns fq_red.tcl packets  - queue_in_bytes_ false and bytes_ false: the
#     thresholds and limit in packets; mean_pktsize_ 1000, drop_front_
#   ns fq_red.tcl monitor  - as thresh, with a queue monitor on the FQ link
#     attached after its trace: the flow queues drop to the link's drop
#     trace directly, so the monitor's drop snoop never sees their drops
#     (its counters printed every 2 s)
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
set n0 [$ns node]; set n1 [$ns node]; set m [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set k [$ns node]
$ns duplex-link $n0 $r1 10Mb 2ms DropTail
$ns duplex-link $n1 $r1 10Mb 7ms DropTail
$ns simplex-link $m $r1 0.5Mb 4ms RED
$ns simplex-link $r1 $m 10Mb 4ms DropTail
set red [[$ns link $m $r1] queue]
$red set thresh_ 3
$red set maxthresh_ 9
$red set q_weight_ 0.02
$red set queue_in_bytes_ false
$red set bytes_ false
$ns simplex-link $r1 $r2 1Mb 10ms FQ
# only the FQ link is traced: FQLink gives each new flow queue the link's
# drop trace (drpT_)
$ns trace-queue $r1 $r2 $tf
$ns simplex-link $r2 $r1 1Mb 10ms DropTail
$ns duplex-link $r2 $k 10Mb 3ms DropTail

# class settings from here on reach the FQ link's flow queues only
switch $mode {
    defaults {
        FQLink set queueManagement_ RED
    }
    thresh - monitor {
        FQLink set queueManagement_ RED
        Queue/RED set q_weight_ 0.01
        Queue/RED set thresh_ 2
        Queue/RED set maxthresh_ 6
        Queue/RED set thresh_queue_ 3000
        Queue/RED set maxthresh_queue_ 9000
        Queue/RED set gentle_ false
        Queue/RED set use_mark_p_ false
        Queue/RED set drop_rand_ true
        Queue set limit_ 30
    }
    ecn {
        FQLink set queueManagement_ RED
        Queue/RED set q_weight_ 0.005
        Queue/RED set thresh_queue_ 2000
        Queue/RED set maxthresh_queue_ 5000
        Queue/RED set gentle_ false
        Queue/RED set setbit_ true
        Queue/RED set mark_p_ 2
        Agent/TCP set ecn_ 1
    }
    midrun {
        Queue/RED set q_weight_ 0.02
        Queue/RED set thresh_queue_ 1500
        Queue/RED set maxthresh_queue_ 4000
        Queue/RED set gentle_ false
        $ns at 3.0 {FQLink set queueManagement_ RED}
        $ns at 6.0 {Queue/RED set maxthresh_queue_ 2500; Queue/RED set use_mark_p_ false}
        $ns at 9.0 {FQLink set queueManagement_ DropTail}
    }
    packets {
        FQLink set queueManagement_ RED
        Queue/RED set queue_in_bytes_ false
        Queue/RED set bytes_ false
        Queue/RED set mean_pktsize_ 1000
        Queue/RED set q_weight_ 0.05
        Queue/RED set thresh_queue_ 4
        Queue/RED set maxthresh_queue_ 8
        Queue/RED set gentle_ true
        Queue/RED set use_mark_p_ false
        Queue/RED set drop_front_ true
        Queue set limit_ 12
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
tcp $n0 1 1000 0.0
tcp $n1 2 500 0.2
cbr $m 3 0.6Mb 400 0.5 11.0
tcp $n0 4 1500 4.0
cbr $n1 5 0.3Mb 200 7.0 9.5
tcp $n1 6 1000 10.0
$ns at [expr {$mode eq "defaults" ? 6.0 : 12.0}] {
    global tf
    $ns flush-trace
    close $tf
    puts done
    exit 0
}
$ns run
