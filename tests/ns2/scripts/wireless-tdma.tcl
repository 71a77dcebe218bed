# Mobile nodes with ns-2's preamble TDMA MAC (Mac/Tdma): a frame of one
# preamble slot and one slot per node; each node sends at most one frame
# in its own slot, announced in the preamble, and turns its radio off in
# the slots that are not for it.  A row of nodes 200 m apart (each hears
# its neighbours only), CBR or TCP from the first to the last, routed by
# DSDV or AODV; with an energy model the radio's sleep shows in the
# trace's N lines (and the nodes with little energy run out).
# Usage: ns wireless-tdma.tcl DSDV|AODV NODES cbr|tcp old|new energy|plain [SLOTBYTES]
lassign $argv rp nn traffic fmt en
set slot 1500
if {$argc >= 6} { set slot [lindex $argv 5] }
Mac/Tdma set slot_packet_len_ $slot
Mac/Tdma set max_node_num_ 8
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open tdma.tr w]
set namfd [open tdma.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 1000 300
set topo [new Topography]
$topo load_flatgrid 1000 300
create-god $nn
set chan [new Channel/WirelessChannel]
set energies {3.0 0.05 3.0 0.3 3.0}
for {set i 0} {$i < $nn} {incr i} {
    set opts [list -adhocRouting $rp -llType LL -macType Mac/Tdma \
        -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
        -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
        -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON \
        -movementTrace OFF]
    if {$en eq "energy"} {
        lappend opts -energyModel EnergyModel -initialEnergy [lindex $energies $i] \
            -txPower 0.6 -rxPower 0.3 -idlePower 0.02 -sleepPower 0.001
    }
    eval $ns node-config $opts
    set node($i) [$ns node]
    $node($i) set X_ [expr {50 + 200 * $i}]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
set last [expr {$nn - 1}]
if {$traffic eq "tcp"} {
    set src [new Agent/TCP]
    $src set window_ 8
    $src set packetSize_ 512
    set sink [new Agent/TCPSink]
    $ns attach-agent $node(0) $src
    $ns attach-agent $node($last) $sink
    $ns connect $src $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $src
    $ns at 3.0 "$ftp start"
    $ns at 18.0 "$ftp stop"
} else {
    set udp [new Agent/UDP]
    set null [new Agent/Null]
    $ns attach-agent $node(0) $udp
    $ns attach-agent $node($last) $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 256
    $cbr set rate_ 16kb
    $cbr attach-agent $udp
    $ns at 3.0 "$cbr start"
    $ns at 18.0 "$cbr stop"
    # and a broadcast-sized flow back, one hop
    set udp2 [new Agent/UDP]
    set null2 [new Agent/Null]
    $ns attach-agent $node(1) $udp2
    $ns attach-agent $node(0) $null2
    $ns connect $udp2 $null2
    set cbr2 [new Application/Traffic/CBR]
    $cbr2 set packetSize_ 1000
    $cbr2 set rate_ 24kb
    $cbr2 attach-agent $udp2
    $ns at 4.0 "$cbr2 start"
    $ns at 15.0 "$cbr2 stop"
}
for {set i 0} {$i < $nn} {incr i} {
    $ns at 20.0 "$node($i) reset"
}
$ns at 20.0001 "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    exit 0
}
$ns run
