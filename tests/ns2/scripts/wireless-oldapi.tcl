# Mobile nodes made the older way (ns-2's tcl/mobility scripts and the
# wireless-gridkeeper suite): `new Node/MobileNode`, `add-interface` with
# the stack's classes, a DSDV agent made by the script and attached at port
# 255, trace points from a cmu-trace procedure on the global tracefd,
# `log-target` for the movements; CBR flows across a moving set of nodes.
# Usage: ns wireless-oldapi.tcl [NODES] [STOP] [GRID RADIUS]
#   GRID 1: a GridKeeper holds the nodes, each hearing only the nodes
#   within RADIUS metres of the sender (its `radius`)
set nn 8
set stop 60.0
set grid 0
set radius 150
if {$argc >= 1} { set nn [lindex $argv 0] }
if {$argc >= 2} { set stop [lindex $argv 1] }
if {$argc >= 3} { set grid [lindex $argv 2] }
if {$argc >= 4} { set radius [lindex $argv 3] }

Agent/DSDV set perup_ 5
Agent/DSDV set use_mac_ 0
LL set mindelay_ 50us
LL set delay_ 25us

set ns_ [new Simulator]
set tracefd [open oa.tr w]
set chan [new Channel/WirelessChannel]
set prop [new Propagation/TwoRayGround]
set topo [new Topography]
$topo load_flatgrid 600 600
$prop topography $topo
set god_ [new God]
$god_ num_nodes $nn

proc cmu-trace {ttype atype node} {
    global ns_ tracefd
    set T [new CMUTrace/$ttype $atype]
    $T target [$ns_ set nullAgent_]
    $T attach $tracefd
    $T set src_ [$node id]
    $T node $node
    return $T
}

proc make-node {id} {
    global ns_ chan prop topo tracefd node_
    set node [new Node/MobileNode]
    set node_($id) $node
    $node random-motion 0
    $node topography $topo
    set T [new Trace/Generic]
    $T target [$ns_ set nullAgent_]
    $T attach $tracefd
    $T set src_ $id
    $node log-target $T
    $node add-interface $chan $prop LL Mac/802_11 Queue/DropTail/PriQueue 50 \
        Phy/WirelessPhy Antenna/OmniAntenna $topo "" "" ""
    set ragent [new Agent/DSDV]
    set addr [$node node-addr]
    $ragent addr $addr
    $ragent node $node
    $node addr $addr
    $node set ragent_ $ragent
    $node attach $ragent [Node set rtagent_port_]
    $ns_ at 0.0 "$ragent start-dsdv"
    $ragent drop-target [cmu-trace Drop "RTR" $node]
    set L [new Trace/Generic]
    $L target [$ns_ set nullAgent_]
    $L attach $tracefd
    $L set src_ $id
    $ragent tracetarget $L
    return $node
}

for {set i 0} {$i < $nn} {incr i} { make-node $i }

# a ring of nodes around the middle, then moving across (off the whole
# metres: ns-2 2.35 with a GridKeeper stops, exit status 1 and no message,
# when these nodes start their moves from whole-metre positions)
for {set i 0} {$i < $nn} {incr i} {
    set a [expr {6.283185307179586 * $i / $nn}]
    $node_($i) set X_ [expr {300.37 + 200 * cos($a)}]
    $node_($i) set Y_ [expr {299.61 + 200 * sin($a)}]
    $node_($i) set Z_ 0.0
}
for {set i 0} {$i < $nn} {incr i 2} {
    set j [expr {($i + $nn / 2) % $nn}]
    $ns_ at [expr {5.0 + $i}] "$node_($i) setdest [$node_($j) set X_] [$node_($j) set Y_] [expr {4.0 + $i}]"
}

for {set f 0} {$f < 3} {incr f} {
    set s [expr {$f % $nn}]
    set d [expr {($f * 3 + $nn / 2) % $nn}]
    set udp_($f) [new Agent/UDP]
    $ns_ attach-agent $node_($s) $udp_($f)
    set null_($f) [new Agent/Null]
    $ns_ attach-agent $node_($d) $null_($f)
    set cbr_($f) [new Application/Traffic/CBR]
    $cbr_($f) set packetSize_ 512
    $cbr_($f) set interval_ 0.5
    $cbr_($f) attach-agent $udp_($f)
    $ns_ connect $udp_($f) $null_($f)
    $ns_ at [expr {11.0 + $f}] "$cbr_($f) start"
}

if {$grid} {
    set gk [new GridKeeper]
    $gk dimension 600 600
    for {set i 0} {$i < $nn} {incr i} {
        $gk addnode $node_($i)
        $node_($i) radius $radius
    }
}

for {set i 0} {$i < $nn} {incr i} {
    $ns_ at $stop "$node_($i) reset"
}
$ns_ at $stop "puts done; $ns_ halt"
$ns_ run
close $tracefd
