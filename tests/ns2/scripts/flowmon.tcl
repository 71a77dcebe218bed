# flowmon.tcl -- flow monitors on a RED bottleneck.
#
#   s0..s3 --(10Mb)-- r ==(1.5Mb, 20ms, RED, 40 packets)== d
#
# Three Reno flows and one CBR flow (fids 0..3); a Fid flow monitor
# (makeflowmon) attached to r->d with early-drop support when edrop=1
# (attach-fmon ... 1).  Every 2 s the monitor is dumped into flows.tr and
# the flows and the monitor are reset; at the end each flow's counters and
# delay samples are printed.
#
# Usage: ns flowmon.tcl edrop(0|1) [endtime]
# Writes flows.tr.

set edrop [lindex $argv 0]
set endtime [expr {$argc > 1 ? [lindex $argv 1] : 20}]
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set q_weight_ 0.002
set ns [new Simulator]
set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 1.5Mb 20ms RED
$ns queue-limit $r $d 40
set fm [$ns makeflowmon Fid]
set ff [open flows.tr w]
$fm attach $ff
$ns attach-fmon [$ns link $r $d] $fm $edrop
for {set i 0} {$i < 4} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb [expr {1 + 4 * $i}]ms DropTail
}
for {set i 0} {$i < 3} {incr i} {
    set tcp($i) [$ns create-connection TCP/Reno $s($i) TCPSink $d $i]
    $tcp($i) set window_ 30
    $ns at [expr {0.5 * $i}] "[$tcp($i) attach-app FTP] start"
}
set udp [new Agent/UDP]
$udp set fid_ 3
$ns attach-agent $s(3) $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $d $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 400Kb
$cbr set packetSize_ 500
$ns at 1.0 "$cbr start"

proc dump {} {
    global ns fm
    $fm dump
    foreach f [$fm flows] { $f reset }
    $fm reset
    $ns at [expr {[$ns now] + 2.0}] dump
}
$ns at 2.0 dump
proc finish {} {
    global fm ff
    $fm dump
    foreach f [$fm flows] {
        set smp [$f get-delay-samples]
        puts "[$f set flowid_] src [$f set src_] dst [$f set dst_] arr [$f set parrivals_] dep [$f set pdepartures_] drops [$f set pdrops_] edrops [$f set epdrops_] samples [$smp cnt] mean [$smp mean]"
    }
    puts "monitor arrivals [$fm set parrivals_] drops [$fm set pdrops_] edrops [$fm set epdrops_] size [$fm set size_]"
    close $ff
    exit 0
}
$ns at $endtime finish
$ns run
