# Ad hoc networks over 802.11 with DumbAgent routing (every destination
# one hop away) and CBR/UDP flows, traced in full: the trace-all file
# (agent, routing, queue and, with macTrace ON, MAC lines), nam's wireless
# records and stdout (GOD's line, the channel's carrier-sense range).
# Usage: ns wireless-dumb.tcl SCENARIO [old|new] [ON|OFF]
#   pair:   two nodes, one flow (ARP, RTS/CTS, data, ACK)
#   three:  two senders to one receiver all in range (NAV, RTS collisions,
#           retries, queue drops)
#   hidden: the same with the senders 400 m apart and carrier sense cut
#           to 250 m (hidden terminals)
#   move:   three nodes, one moving away from its receiver and back
#           (setdest during the run; frames given up while out of range)
set scen [lindex $argv 0]
set fmt old
set mactrace ON
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
switch $scen {
    pair   { set xs {100 200};   set flows {{0 1 200kb 1.0 2.0}} }
    three  { set xs {0 100 200}; set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    hidden { set xs {0 200 400}; set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    move   { set xs {100 200 300}; set flows {{0 1 100kb 0.5 6.0} {2 1 150kb 0.7 6.0}} }
    default { error "unknown scenario $scen" }
}
if {$scen eq "hidden"} { Phy/WirelessPhy set CSThresh_ 3.652e-10 }
set n [llength $xs]
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open dumb.tr w]
set namfd [open dumb.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 600 300
set topo [new Topography]
$topo load_flatgrid 600 300
create-god $n
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace $mactrace \
    -movementTrace OFF
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) set X_ [lindex $xs $i]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
if {$scen eq "move"} {
    # node 0 leaves node 1's range (250 m) and comes back; node 2 drifts
    $ns at 1.0 "$node(0) setdest 5.0 150.0 80.0"
    $ns at 2.5 "$node(0) setdest 590.0 110.0 150.0"
    $ns at 1.5 "$node(2) setdest 420.5 60.25 10.0"
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
set end [expr {$scen eq "move" ? 7.0 : 3.0}]
$ns at $end "finish"
proc finish {} {
    global ns tracefd namfd node n
    $ns flush-trace
    close $tracefd
    close $namfd
    for {set i 0} {$i < $n} {incr i} { puts "node $i at [$node($i) set X_] [$node($i) set Y_]" }
    exit 0
}
$ns run
