# Mobile nodes with an energy model (node-config -energyModel): each
# radio drains its node's energy while it sends, receives and idles, as
# ns-2's WirelessPhy accounts it; the trace lines show the energy left
# (old format: [energy .. ei .. es .. et .. er ..], new format: -Ne) and
# nam colours each node by its level (green, yellow, red).  One node has
# little energy and runs out mid-run: from then on it neither sends nor
# receives and its trace points are silent.
# With a third argument, Shadowing or FreeSpace, the radios use that model
# instead of two-ray ground: a dead radio asks it nothing (no shadowing
# draw, no FreeSpace line), as ns-2's WirelessPhy::sendUp checks the
# energy first.
# Usage: ns wireless-energy.tcl DumbAgent|AODV [old|new|tagged] [Shadowing|FreeSpace]
set rp [lindex $argv 0]
set fmt old
if {$argc >= 2} { set fmt [lindex $argv 1] }
set prop TwoRayGround
if {$argc >= 3} { set prop [lindex $argv 2] }
if {$prop eq "Shadowing"} {
    Propagation/Shadowing set pathlossExp_ 2.0
    Propagation/Shadowing set std_db_ 4.0
    Propagation/Shadowing set dist0_ 1.0
    Propagation/Shadowing set seed_ 7
}
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
if {$fmt eq "tagged"} { $ns use-taggedtrace }
set tracefd [open energy.tr w]
set namfd [open energy.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 800 300
set topo [new Topography]
$topo load_flatgrid 800 300
if {$rp eq "AODV"} { set xs {0 200 400 600} } else { set xs {100 200 300} }
set n [llength $xs]
create-god $n
set chan [new Channel/WirelessChannel]
# (energies: node 1, the relay or the receiver, has little)
set energies {5.0 0.12 5.0 5.0}
for {set i 0} {$i < $n} {incr i} {
    $ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 \
        -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
        -propType Propagation/$prop -phyType Phy/WirelessPhy -channel $chan \
        -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON \
        -movementTrace OFF -energyModel EnergyModel -initialEnergy [lindex $energies $i] \
        -txPower 0.6 -rxPower 0.3 -idlePower 0.02
    set node($i) [$ns node]
    $node($i) set X_ [lindex $xs $i]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
if {$rp eq "AODV"} {
    set flows [list [list 0 3 64kb 1.0 9.0] [list 3 1 32kb 1.5 9.0]]
} else {
    set flows [list [list 0 1 200kb 1.0 9.0] [list 2 1 100kb 1.2 9.0] [list 0 2 50kb 1.4 9.0]]
}
set f 0
foreach fl $flows {
    lassign $fl src dst rate start stop
    set udp($f) [new Agent/UDP]
    set null($f) [new Agent/Null]
    $ns attach-agent $node($src) $udp($f)
    $ns attach-agent $node($dst) $null($f)
    $ns connect $udp($f) $null($f)
    set cbr($f) [new Application/Traffic/CBR]
    $cbr($f) set packetSize_ 512
    $cbr($f) set rate_ $rate
    $cbr($f) attach-agent $udp($f)
    $ns at $start "$cbr($f) start"
    $ns at $stop "$cbr($f) stop"
    incr f
}
$ns at 10.0 "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    exit 0
}
$ns run
