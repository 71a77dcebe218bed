# Ad hoc networks over 802.11 routed by DSR (ns-2's SRNode: the DSR agent
# as the node's entry, its route cache, flow state and promiscuous tap),
# CBR/UDP flows and TCP, traced in full: the trace-all file (agent,
# routing, queue and, with macTrace ON, MAC lines, and the DSR agent's own
# lines), nam's wireless records and stdout.
# Usage: ns wireless-dsr.tcl SCENARIO [old|new|tagged] [ON|OFF]
#   chain:   four nodes in a row, 200 m apart, a flow end to end (the
#            ring-zero request, the propagating one, the reply reversed,
#            flow state established)
#   repair:  five nodes in a row, a flow end to end; the last node leaves
#            the fourth's range (send failures, route errors, the send
#            buffer's retries and time-outs) and comes back
#   grid:    six nodes in two rows, two flows crossing, one node moving
#            through the others (overheard routes, replies from caches)
#   tcp:     the chain's four nodes with a TCP (Reno) transfer end to end
#            and a CBR flow back
#   diamond: a source, two relays side by side and a destination; the relay
#            in use leaves (salvaging with the other relay's route, which
#            the tap overheard)
#   long:    four nodes in a row for 60 s; the last leaves at 25 s and comes
#            back at 40 s (the send buffer's 30 s time-out, the request
#            back-off up to 10 s)
set scen [lindex $argv 0]
set fmt old
set mactrace OFF
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
switch $scen {
    chain   { set at {{0 100} {200 100} {400 100} {600 100}}
              set flows {{0 3 200kb 1.0 3.0}}; set end 4.0 }
    repair  { set at {{0 100} {200 100} {400 100} {600 100} {800 100}}
              set flows {{0 4 100kb 0.5 14.0}}; set end 16.0 }
    grid    { set at {{0 50} {200 50} {400 50} {0 250} {200 250} {400 250}}
              set flows {{0 5 150kb 1.0 9.0} {3 2 100kb 1.5 9.5}}; set end 10.0 }
    tcp     { set at {{0 100} {200 100} {400 100} {600 100}}
              set flows {{3 0 50kb 2.0 5.0}}; set end 6.0 }
    diamond { set at {{0 200} {200 120} {200 280} {400 200}}
              set flows {{0 3 100kb 1.0 9.0} {1 2 50kb 0.5 1.5}}; set end 10.0 }
    long    { set at {{0 100} {200 100} {400 100} {600 100}}
              set flows {{0 3 40kb 1.0 58.0}}; set end 60.0 }
    default { error "unknown scenario $scen" }
}
set n [llength $at]
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
if {$fmt eq "tagged"} { $ns use-taggedtrace }
set tracefd [open rt.tr w]
set namfd [open rt.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 900 400
set topo [new Topography]
$topo load_flatgrid 900 400
create-god $n
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSR -llType LL -macType Mac/802_11 \
    -ifqType CMUPriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace $mactrace \
    -movementTrace ON
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) set X_ [lindex $at $i 0]
    $node($i) set Y_ [lindex $at $i 1]
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
if {$scen eq "repair"} {
    $ns at 2.0 "$node(4) setdest 800.0 395.0 100.0"
    $ns at 9.0 "$node(4) setdest 800.0 100.0 100.0"
}
if {$scen eq "long"} {
    $ns at 25.0 "$node(3) setdest 600.0 395.0 50.0"
    $ns at 40.0 "$node(3) setdest 600.0 100.0 50.0"
}
if {$scen eq "diamond"} {
    $ns at 3.0 "$node(1) setdest 200.0 5.0 60.0"
}
if {$scen eq "grid"} {
    $ns at 2.0 "$node(4) setdest 380.0 150.0 40.0"
    $ns at 6.0 "$node(4) setdest 200.0 250.0 60.0"
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
if {$scen eq "tcp"} {
    set tcp [new Agent/TCP]
    set sink [new Agent/TCPSink]
    $ns attach-agent $node(0) $tcp
    $ns attach-agent $node(3) $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at 1.0 "$ftp start"
}
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
