# RED-PD and FQ beyond ns-2's suites.
#   ns redpd_fq.tcl redpd  - a RED-PD bottleneck whose flow monitor classifies
#     by flow id: monitor-flow with a target and a current rate, a global
#     target, an unresponsive flow's penalty with noidle_, responsive-flow,
#     unmonitor-flow; the flows' counters and policing variables printed
#   ns redpd_fq.tcl fq     - an FQ bottleneck with four flows of three packet
#     sizes, started at different times; Queue set limit_ changed mid-run
#     (flows made after it get the new limit)
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]; set n1 [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set k [$ns node]
$ns duplex-link $n0 $r1 10Mb 2ms DropTail
$ns duplex-link $n1 $r1 10Mb 7ms DropTail
if {$mode eq "redpd"} {
    Queue/RED set thresh_ 5
    Queue/RED set maxthresh_ 15
    Queue/RED set q_weight_ 0.01
    Queue/RED/PD set noidle_ true
    $ns simplex-link $r1 $r2 1Mb 10ms RED/PD
} else {
    $ns simplex-link $r1 $r2 1Mb 10ms FQ
}
$ns simplex-link $r2 $r1 1Mb 10ms DropTail
$ns queue-limit $r1 $r2 30
$ns duplex-link $r2 $k 10Mb 3ms DropTail

proc tcp {src fid size start} {
    global ns k
    set t [$ns create-connection TCP/Sack1 $src TCPSink/Sack1 $k $fid]
    $t set window_ 40
    $t set packetSize_ $size
    $ns at $start "[$t attach-app FTP] start"
    return $t
}
proc cbr {src fid rate size start} {
    global ns k
    set u [$ns create-connection UDP $src Null $k $fid]
    set c [$u attach-app Traffic/CBR]
    $c set rate_ $rate
    $c set packetSize_ $size
    $ns at $start "$c start"
    return $c
}

if {$mode eq "redpd"} {
    set q [[$ns link $r1 $r2] queue]
    set fm [$q makeflowmon [$ns link $r1 $r2] Fid 17]
    tcp $n0 1 1000 0.0
    tcp $n1 2 500 0.3
    cbr $n0 3 0.6Mb 400 0.5
    cbr $n1 4 0.2Mb 1000 1.0
    proc flow {fid} {
        global fm
        foreach f [$fm flows] {
            if {[$f set flowid_] == $fid} { return $f }
        }
        return ""
    }
    proc show {} {
        global ns fm q
        puts "[$ns now] q: arr [$fm set parrivals_] drops [$fm set pdrops_] edrops [$fm set epdrops_] mon [$fm set mon_epdrops_] monitored [$q set noMonitored_]"
        foreach f [$fm flows] {
            puts "  flow [$f set flowid_]: arr [$f set parrivals_]/[$f set barrivals_] dep [$f set pdepartures_] drops [$f set pdrops_] mon [$f set mon_epdrops_]/[$f set mon_ebdrops_] monitored [$f set monitored_] unresp [$f set unresponsive_] target [$f set targetBW_] current [$f set currentBW_] start [$f set monitorStartTime_] last [$f set lastDropTime_]"
        }
        $ns at [expr {[$ns now] + 2.5}] show
    }
    $ns at 2.0 show
    $ns at 3.0 {$q monitor-flow [flow 3] 0.3e6 0.6e6}
    $ns at 4.0 {$q monitor-flow [flow 1] 0.25}
    $ns at 6.0 {$q unresponsive-flow [flow 3]; $q set unresponsive_penalty_ 1.5}
    $ns at 8.0 {$q set global_target_ true; $q set targetBW_ 0.2Mb}
    $ns at 10.0 {$q responsive-flow [flow 3]; $q unmonitor-flow [flow 1]}
    $ns at 11.0 {$q set global_target_ false; $q monitor-flow [flow 4] 0.5; $q set P_testFRp_ 0.02}
    $ns at 13.0 {puts "unmonitor again: [catch {$q unmonitor-flow [flow 1]} e] $e"}
} else {
    tcp $n0 1 1000 0.0
    tcp $n1 2 500 0.2
    cbr $n0 5 0.5Mb 200 1.0
    $ns at 4.0 {Queue set limit_ 6}
    tcp $n1 7 1500 5.0
    $ns at 7.0 {Queue/DropTail set drop_front_ true}
    cbr $n0 9 0.3Mb 700 8.0
}
$ns at 15.0 {
    global tf
    $ns flush-trace
    close $tf
    puts done
    exit 0
}
$ns run
