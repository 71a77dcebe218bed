set ns [new Simulator]
set tr [open unknown_sender.tr w]
$ns trace-all $tr
$ns use-newtrace
set topo [new Topography]
$topo load_flatgrid 500 500
create-god 1
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel $chan -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON
set n0 [$ns node]
set n1 [$ns node]
$n0 set X_ 10; $n0 set Y_ 10; $n0 set Z_ 0
$n1 set X_ 100; $n1 set Y_ 10; $n1 set Z_ 0
set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set sink [new Agent/Null]
$ns attach-agent $n0 $sink
$ns connect $udp $sink
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set interval_ 0.5
$ns at 1.0 "$cbr start"
$ns at 10.0 "puts done; $ns halt"
$ns run
