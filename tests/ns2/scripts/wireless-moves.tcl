# Mobile nodes moving with setdest, no traffic: positions as ns-2 updates
# them (M lines in the trace, nam's movement records, X_/Y_ read back).
# Usage: ns wireless-moves.tcl [newtrace 0|1] [finish]
set newtrace 1
set finish 60
if {$argc >= 1} { set newtrace [lindex $argv 0] }
if {$argc >= 2} { set finish [lindex $argv 1] }
set ns [new Simulator]
if {$newtrace} { $ns use-newtrace }
set tracefd [open moves.tr w]
set namfd [open moves.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 500 400
set topo [new Topography]
$topo load_flatgrid 500 400
create-god 4
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel $chan -topoInstance $topo -agentTrace ON -routerTrace ON \
    -macTrace OFF -movementTrace OFF
for {set i 0} {$i < 4} {incr i} {
    set n($i) [$ns node]
    $n($i) set X_ [expr 10.5 + 97.3 * $i]
    $n($i) set Y_ [expr 20 + 33.3 * $i]
    $n($i) set Z_ 0.0
    $ns initial_node_pos $n($i) [expr 10 + $i]
}
$n(3) set Z_ 1.25
# a move set before the run (at time 0)
$n(0) setdest 480.25 390.5 3.7
$ns at 0.5 "$n(1) setdest 15.0 15.0 12.345"
$ns at 1.25 "$n(2) setdest 250.0 100.0 0.0"
$ns at 2.0 "$n(2) setdest 399.9 7.77 22.2"
# a new destination in the middle of a move
$ns at 3.3 "$n(1) setdest 300.0 300.0 5.5"
# the same point again: no movement
$ns at 4.0 "$n(3) setdest [$n(3) set X_] [$n(3) set Y_] 2.0"
$ns at 7.1 "$n(3) setdest 100.0 380.0 1.0"
proc show {} {
    global ns n
    foreach i {0 1 2 3} {
        puts "[$ns now] $i [$n($i) set X_] [$n($i) set Y_] [$n($i) set Z_] [$n($i) set speed_]"
    }
}
# X_ and Y_ as stored (a read does not update them), then brought up to
# date by log-movement
$ns at 10.0 "show"
foreach t {10.0 17.123456 29.9 45.5} {
    foreach i {0 1 2 3} { $ns at $t "$n($i) log-movement" }
    $ns at $t "show"
}
# past the destination: clamped
$ns at 50.0 "$n(2) setdest 12.5 370.0 100.0"
$ns at 55.0 "$n(2) log-movement"
$ns at 55.0 "show"
$n(1) color red
$ns at 1.0 "$n(1) color green"
$ns at $finish "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    exit 0
}
$ns run
