# The MAC's end-of-transmission trace (node-config -eotTrace ON): an `x`
# line when each frame (RTS, CTS, data, ACK, ARP, a routing agent's
# broadcast) leaves the air, with the frame as it went on it (nam's file,
# with NAM, gets nothing for them).
# Usage: ns wireless-eot.tcl ROUTING [old|new] [ON|OFF] [RTS] [NAM]
#   ROUTING: DumbAgent (two senders, one receiver, all in range) or AODV
#            (four nodes in a row, a flow end to end); MAC trace ON or OFF;
#            RTS: Mac/802_11 RTSThreshold_ (0: RTS/CTS before every
#            unicast frame, 3000: none)
set rt [lindex $argv 0]
set fmt old
set mactrace ON
set rts 0
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
if {$argc >= 4} { set rts [lindex $argv 3] }
set nam [expr {$argc >= 5 && [lindex $argv 4] eq "NAM"}]
Mac/802_11 set RTSThreshold_ $rts
if {$rt eq "DumbAgent"} {
    set at {{100 100} {200 100} {150 180}}
    set flows {{0 2 100kb 0.5 2.5} {1 2 80kb 0.7 2.6}}
    set end 3.0
} else {
    set at {{0 100} {200 100} {400 100} {600 100}}
    set flows {{0 3 60kb 1.0 3.0}}
    set end 3.5
}
set n [llength $at]
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open eot.tr w]
$ns trace-all $tracefd
if {$nam} {
    set namfd [open eot.nam w]
    $ns namtrace-all-wireless $namfd 700 300
}
set topo [new Topography]
$topo load_flatgrid 700 300
create-god $n
$ns node-config -adhocRouting $rt -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel [new Channel/WirelessChannel] -topoInstance $topo \
    -agentTrace ON -routerTrace ON -macTrace $mactrace -movementTrace OFF \
    -eotTrace ON
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) set X_ [lindex $at $i 0]
    $node($i) set Y_ [lindex $at $i 1]
    $node($i) set Z_ 0
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
for {set i 0} {$i < $n} {incr i} { $ns at $end "$node($i) reset" }
$ns at $end "finish"
proc finish {} {
    global ns tracefd
    $ns flush-trace
    close $tracefd
    puts "done at [$ns now]"
    exit 0
}
$ns run
