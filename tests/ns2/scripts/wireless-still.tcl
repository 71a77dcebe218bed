# Seed 002's wireless script (Dordal 31.6; ../shared/oracle/scripts/wireless.tcl)
# without its traffic (the UDP agent, the null agent and the CBR source): the
# row of fixed nodes and the mover, their configuration and the mover's
# movement only.  Usage: ns wireless-still.tcl [finish] [routing]
set opt(chan)           Channel/WirelessChannel
set opt(prop)           Propagation/TwoRayGround
set opt(netif)          Phy/WirelessPhy
set opt(mac)            Mac/802_11
set opt(ifq)            Queue/DropTail/PriQueue
set opt(ll)             LL
set opt(ant)            Antenna/OmniAntenna
set opt(ifqlen)         50
set opt(bottomrow)      5
set opt(spacing)        200
set opt(mheight)        150
set opt(brheight)       50
set opt(x)              [expr ($opt(bottomrow)-1)*$opt(spacing)+1]
set opt(y)              300
set opt(adhocRouting)   AODV
set opt(finish)         100
if {$argc >= 1} { set opt(finish) [lindex $argv 0] }
if {$argc >= 2} { set opt(adhocRouting) [lindex $argv 1] }
set opt(speed)          [expr 1.0*$opt(x)/$opt(finish)]

set ns [new Simulator]
$ns use-newtrace
set tracefd  [open wireless.tr w]
set namtrace [open wireless.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namtrace $opt(x) $opt(y)
set topo [new Topography]
$topo load_flatgrid $opt(x) $opt(y)
create-god [expr $opt(bottomrow) + 1]
set chan1 [new $opt(chan)]
$ns node-config -adhocRouting $opt(adhocRouting) \
                 -llType $opt(ll) \
                 -macType $opt(mac) \
                 -ifqType $opt(ifq) \
                 -ifqLen $opt(ifqlen) \
                 -antType $opt(ant) \
                 -propType $opt(prop) \
                 -phyType $opt(netif) \
                 -channel $chan1 \
                 -topoInstance $topo \
                 -wiredRouting OFF \
                 -agentTrace ON \
                 -routerTrace ON \
                 -macTrace OFF
for {set i 0} {$i < $opt(bottomrow)} {incr i} {
    set rownode($i) [$ns node]
    $rownode($i) set X_ [expr $i * $opt(spacing)]
    $rownode($i) set Y_ $opt(brheight)
    $rownode($i) set Z_ 0
}
set mover [$ns node]
$mover set X_ 0
$mover set Y_ [expr $opt(mheight) + $opt(brheight)]
$mover set Z_ 0
set moverdestX [expr $opt(x) - 1]
$ns at 0 "$mover setdest $moverdestX [$mover set Y_] $opt(speed)"


for {set i 0} {$i < $opt(bottomrow)} {incr i} {
    $ns initial_node_pos $rownode($i) 10
}
$ns initial_node_pos $mover 20
$mover color blue
$ns at 0.0 "$mover color blue"
$ns at $opt(finish) "finish"
proc finish {} {
    global ns tracefd namtrace
    $ns flush-trace
    close $tracefd
    close $namtrace
    exit 0
}
$ns run
