# Mobile nodes moved by a movement scenario in the format ns-2's setdest
# tool writes (positions, GOD's hop counts, timed setdest lines), sourced
# as the wireless examples do; no traffic.  The script writes the scenario
# file itself.  Usage: ns wireless-scen.tcl
set val(nn) 3
set f [open scen-3 w]
puts $f {#
# nodes: 3, pause: 2.00, max speed: 10.00, max x: 300.00, max y: 300.00
#
$node_(0) set X_ 150.512838453261
$node_(0) set Y_ 93.314194004722
$node_(0) set Z_ 0.000000000000
$node_(1) set X_ 12.750017862115
$node_(1) set Y_ 270.339208013413
$node_(1) set Z_ 0.000000000000
$node_(2) set X_ 290.120349181313
$node_(2) set Y_ 5.480132123455
$node_(2) set Z_ 0.000000000000
$god_ set-dist 0 1 1
$god_ set-dist 0 2 1
$god_ set-dist 1 2 2
$ns_ at 2.000000000000 "$node_(0) setdest 220.517693140614 190.248823218838 3.421198203511"
$ns_ at 2.000000000000 "$node_(1) setdest 101.010101010101 17.171717171717 9.999999999999"
$ns_ at 3.141592653590 "$node_(2) setdest 1.000000000001 298.999999999999 0.123456789012"
$ns_ at 7.000000000000 "$god_ set-dist 1 2 16777215"
$ns_ at 26.400000000000 "$node_(1) setdest 150.0 150.0 1.0"
#
# Destination Unreachables: 0
#
# Route Changes: 1
#
# Link Changes: 1
#
}
close $f
set ns_ [new Simulator]
set tracefd [open scen.tr w]
set namfd [open scen.nam w]
$ns_ trace-all $tracefd
$ns_ namtrace-all-wireless $namfd 300 300
set topo [new Topography]
$topo load_flatgrid 300 300
set god_ [create-god $val(nn)]
$ns_ node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channelType Channel/WirelessChannel -topoInstance $topo \
    -agentTrace ON -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $val(nn)} {incr i} {
    set node_($i) [$ns_ node]
    $node_($i) random-motion 0
}
puts "Loading scenario file..."
source scen-3
puts "Load complete..."
for {set i 0} {$i < $val(nn)} {incr i} {
    $ns_ initial_node_pos $node_($i) 20
}
foreach t {1.0 10.0 30.0 60.0} {
    for {set i 0} {$i < $val(nn)} {incr i} { $ns_ at $t "$node_($i) log-movement" }
}
$ns_ at 60.0 "puts \"[$god_ num_nodes] nodes\"; $ns_ nam-end-wireless 60.0"
$ns_ at 60.0001 "$ns_ halt"
$ns_ run
$ns_ flush-trace
close $tracefd
close $namfd
puts "end at [$ns_ now]"
