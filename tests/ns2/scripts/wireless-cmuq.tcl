# Mobile nodes whose interface queue is ns-2's CMUPriQueue (the queue
# ns-2 2.35's DSR agent works with: four FIFO bands by packet type,
# routing, audio/video, TCP acknowledgements, the rest, 50 packets each
# whatever -ifqLen says), traced in full.
# Usage: ns wireless-cmuq.tcl SCENARIO [old|new] [ON|OFF]
#   flood: DumbAgent; node 1 floods node 0 with CBR (its queue's data
#          band fills: IFQ drops) while node 0 sends TCP to node 1 (node
#          1's acknowledgements pass its waiting CBR packets); every node
#          reset at the end (the bands emptied in priority order, END)
#   dsdv:  DSDV over four nodes in a row, CBR both ways heavy enough to
#          fill the data band, the updates (routing band) first in their
#          order of arrival; node 3 leaves and comes back
set scen [lindex $argv 0]
set fmt old
set mactrace ON
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
switch $scen {
    flood { set rt DumbAgent; set xs {100 250 350}; set end 4.0
            set flows {{1 0 1200kb 1.0 3.0} {2 1 100kb 1.2 2.5}}; set tcps {{0 1 1.1 3.5}} }
    dsdv  { set rt DSDV; set xs {0 200 400 600}; set end 30.0
            set flows {{0 3 600kb 2.0 25.0} {3 0 200kb 3.0 24.0}}; set tcps {} }
    default { error "unknown scenario $scen" }
}
set n [llength $xs]
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open cmuq.tr w]
set namfd [open cmuq.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 800 300
set topo [new Topography]
$topo load_flatgrid 800 300
create-god $n
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting $rt -llType LL -macType Mac/802_11 \
    -ifqType CMUPriQueue -ifqLen 20 -antType Antenna/OmniAntenna \
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
if {$scen eq "dsdv"} {
    $ns at 8.0 "$node(3) setdest 790.0 120.0 60.0"
    $ns at 14.0 "$node(3) setdest 590.0 100.0 60.0"
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
foreach fl $tcps {
    lassign $fl src dst start stop
    set tcp($f) [new Agent/TCP]
    $tcp($f) set window_ 32
    set sink($f) [new Agent/TCPSink]
    $ns attach-agent $node($src) $tcp($f)
    $ns attach-agent $node($dst) $sink($f)
    $ns connect $tcp($f) $sink($f)
    set ftp($f) [new Application/FTP]
    $ftp($f) attach-agent $tcp($f)
    $ns at $start "$ftp($f) start"
    $ns at $stop "$ftp($f) stop"
    incr f
}
$ns at [expr {$end - 0.0001}] "reset-all"
proc reset-all {} {
    global node n
    for {set i 0} {$i < $n} {incr i} { $node($i) reset }
}
$ns at $end "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    puts "done"
    exit 0
}
$ns run
