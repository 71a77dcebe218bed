# qmrate.tcl -- arrival-rate estimation of QueueMonitors and flow monitors.
#
#   s0..s2 --(10Mb, 3/9/27ms)-- r1 --(2Mb, 10ms, DropTail 30)-- r2 --(10Mb,1ms)-- d
#   c0, c1 --(10Mb, 5ms)-- r1            (two CBRs sending at the same instants)
#
# Three TCP flows (fids 0..2) and two CBR flows (fids 3, 4) whose packets
# reach r1->r2 at the same instants (arrivals at one instant are summed
# into the next estimate).  Monitors on r1->r2, all with estimate_rate_:
#  * qa (attach-monitors) from the start, k_ 0.1 (default); its estimate
#    is switched off from 6 s to 7 s (prevTime_ keeps following arrivals);
#  * qb created at 2.5 s with the class default k_ changed to 0.5 (its
#    startTime_ and prevTime_ start at its creation);
#  * fm, a Fid flow monitor (makeflowmon, attach-fmon) estimating the
#    aggregate rate; its flows estimate theirs from their first packet
#    (class defaults of QueueMonitor/ED/Flow: estimate_rate_ 1, k_ 0.2);
#    at 3 s each flow gets k_ 0.3, and flow 0 stops estimating.
# Every 0.5 s estRate_, prevTime_ and startTime_ are printed as ns-2 reads
# them back (%.17g), with each flow's delay samples.
#
# Usage: ns qmrate.tcl [endtime]      (default 10)

set endtime [expr {$argc > 0 ? [lindex $argv 0] : 10}]
Agent/TCP set window_ 30
Agent/TCP set packetSize_ 1000

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
$ns duplex-link $r1 $r2 2Mb 10ms DropTail
$ns duplex-link $r2 $d 10Mb 1ms DropTail
$ns queue-limit $r1 $r2 30

set delays {3 9 27}
for {set i 0} {$i < 3} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [lindex $delays $i]ms DropTail
    set tcp($i) [$ns create-connection TCP/Reno $s($i) TCPSink $d $i]
    $ns at [expr {0.4 * $i}] "[$tcp($i) attach-app FTP] start"
}
set null [new Agent/Null]
$ns attach-agent $d $null
for {set i 0} {$i < 2} {incr i} {
    set c($i) [$ns node]
    $ns duplex-link $c($i) $r1 10Mb 5ms DropTail
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ [expr {3 + $i}]
    $ns attach-agent $c($i) $udp($i)
    $ns connect $udp($i) $null
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) attach-agent $udp($i)
    $cbr($i) set rate_ 160Kb
    $cbr($i) set packetSize_ 500
    $cbr($i) set interval_ 0.025
    $ns at 0.2 "$cbr($i) start"
}

set lnk [$ns link $r1 $r2]
set qa [new QueueMonitor]
$qa set estimate_rate_ 1
$lnk attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qa

QueueMonitor/ED/Flow set estimate_rate_ 1
QueueMonitor/ED/Flow set k_ 0.2
set fm [$ns makeflowmon Fid]
$fm set estimate_rate_ 1
$ns attach-fmon $lnk $fm

proc make_qb {} {
    global ns lnk qb
    QueueMonitor set k_ 0.5
    set qb [new QueueMonitor]
    $qb set estimate_rate_ true
    $lnk attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qb
    puts "qb created: k_ [$qb set k_] startTime_ [$qb set startTime_] prevTime_ [$qb set prevTime_] estRate_ [$qb set estRate_]"
}
$ns at 2.5 make_qb

proc flows_on {} {
    global fm
    foreach f [$fm flows] {
        $f set k_ 0.3
        if {[$f set flowid_] == 0} { $f set estimate_rate_ 0 }
    }
}
$ns at 3.0 flows_on
$ns at 6.0 "$qa set estimate_rate_ 0"
$ns at 7.0 "$qa set estimate_rate_ 1"

proc rate {q} {
    return "estRate_ [$q set estRate_] prevTime_ [$q set prevTime_] startTime_ [$q set startTime_]"
}
proc show {} {
    global ns qa qb fm
    set now [$ns now]
    puts "-- $now"
    puts "qa [rate $qa] estimate_rate_ [$qa set estimate_rate_]"
    if {[info exists qb]} { puts "qb [rate $qb]" }
    puts "fm [rate $fm]"
    foreach f [$fm flows] {
        set smp [$f get-delay-samples]
        set delay [expr {[$smp cnt] > 0 ? " mean delay [$smp mean]" : ""}]
        puts "  fid [$f set flowid_] [rate $f] arrivals [$f set parrivals_] departures [$f set pdepartures_] samples [$smp cnt]$delay"
    }
    $ns at [expr {$now + 0.5}] show
}
$ns at 0.5 show
$ns at $endtime "exit 0"
$ns run
