# CBR over AODV or DSDV on Mac/802_11Ext over Phy/WirelessPhyExt: N nodes in a row
# SPACING m apart over two-ray ground, flows end to end both ways (one above
# the RTS threshold), the last node moving away at 4 s.
# Usage: ns wireless-80211ext-routed.tcl AODV|DSDV N SPACING
set rt [lindex $argv 0]
set n [lindex $argv 1]
set spacing [lindex $argv 2]
Phy/WirelessPhyExt set Pt_ 0.001
Phy/WirelessPhyExt set PowerMonitorThresh_ 2.653e-14
Mac/802_11Ext set RTSThreshold_ 1000
set ns [new Simulator]
set tracefd [open ext.tr w]
set namfd [open ext.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 2000 200
set topo [new Topography]
$topo load_flatgrid 2000 200
create-god $n
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting $rt -llType LL -macType Mac/802_11Ext \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhyExt -channel $chan -topoInstance $topo \
    -agentTrace ON -routerTrace ON -macTrace ON -phyTrace ON -movementTrace OFF
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) random-motion 0
    $node($i) set X_ [expr {10 + $spacing * $i}]
    $node($i) set Y_ 50
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 10
}
set last [expr {$n - 1}]
foreach {src dst start size rate} [list 0 $last 1.0 512 64kb $last 0 1.5 1400 100kb] {
    set udp [new Agent/UDP]
    set null [new Agent/Null]
    $ns attach-agent $node($src) $udp
    $ns attach-agent $node($dst) $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ $size
    $cbr set rate_ $rate
    $cbr attach-agent $udp
    $ns at $start "$cbr start"
    $ns at 8.0 "$cbr stop"
}
$ns at 4.0 "$node($last) setdest [expr {10 + $spacing * $last + 300}] 60.0 100.0"
for {set i 0} {$i < $n} {incr i} { $ns at 9.5 "$node($i) reset" }
$ns at 10.0 "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    exit 0
}
$ns run
