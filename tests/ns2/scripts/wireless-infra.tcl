# 802.11 infrastructure mode: access points, beacons, scanning, association
# and the access points' relaying (Mac/802_11's infrastructure mode).
#
#   ns wireless-infra.tcl MODE STATIONS SCAN [FORMAT]
#
# MODE:   beacons  one access point and STATIONS stations that never scan
#                  (beacons only: the stations hear them and build their
#                  tables, nothing else is sent)
#         one      one access point, STATIONS stations scanning with SCAN;
#                  CBR from the last station to the first (through the AP)
#         move     two access points 200 m apart, STATIONS stations near
#                  the first; the last station moves to the second AP's
#                  side while CBR flows from it to the first station
# SCAN:   PASSIVE or ACTIVE
# FORMAT: old (default) or new (use-newtrace)
# Writes infra.tr (the trace-all file, MAC trace on).

if {$argc != 3 && $argc != 4} {
    puts stderr "usage: ns wireless-infra.tcl beacons|one|move STATIONS PASSIVE|ACTIVE \[old|new\]"
    exit 1
}
set mode [lindex $argv 0]
set nsta [lindex $argv 1]
set scan [lindex $argv 2]

Mac/802_11 set bugFix_timer_ true
Mac/802_11 set BeaconInterval_ 0.1
Mac/802_11 set dataRate_ 11Mb

set aps 1
if {$mode eq "move"} { set aps 2 }
set nn [expr {$aps + $nsta}]

set ns [new Simulator]
if {[lindex $argv 3] eq "new"} { $ns use-newtrace }
set tf [open infra.tr w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 500 500
create-god $nn

$ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel [new Channel/WirelessChannel] -topoInstance $topo \
    -agentTrace ON -routerTrace OFF -macTrace ON -movementTrace OFF

for {set i 0} {$i < $nn} {incr i} {
    set n($i) [$ns node]
    $n($i) random-motion 0
    set mac($i) [$n($i) getMac 0]
    $mac($i) set RTSThreshold_ 3000
    $n($i) set Y_ 10.0
    $n($i) set Z_ 0.0
}
# the access points first, then the stations
$n(0) set X_ 10.0
if {$aps == 2} { $n(1) set X_ 210.0 }
for {set i $aps} {$i < $nn} {incr i} {
    $n($i) set X_ [expr {15.0 + 5 * ($i - $aps)}]
}
for {set i 0} {$i < $aps} {incr i} {
    $mac($i) ap [$mac($i) id]
}
if {$mode ne "beacons"} {
    for {set i $aps} {$i < $nn} {incr i} {
        $mac($i) ScanType $scan
    }
    set src $n([expr {$nn - 1}])
    set dst $n($aps)
    set udp [new Agent/UDP]
    $ns attach-agent $src $udp
    set null [new Agent/Null]
    $ns attach-agent $dst $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 256
    $cbr set rate_ 32Kb
    $cbr attach-agent $udp
    $ns at 1.0 "$cbr start"
    if {$mode eq "move"} {
        $ns at 1.5 "$src setdest 400.0 10.0 200.0"
    }
}
set stop 5.0
for {set i 0} {$i < $nn} {incr i} {
    $ns at $stop "$n($i) reset"
}
$ns at $stop.0001 "finish"
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    puts "done"
    exit 0
}
$ns run
