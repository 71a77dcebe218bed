# N mobile nodes moving by random waypoint over AODV (or DSDV), 10 CBR/UDP
# flows, agent and routing traces on (benches/wireless_aodv.py's network,
# issue 20's speed figure, and corpus cases).  Usage: ns wireless-rwp.tcl N
# [SECONDS] [AODV|DSDV] [new|old] [OFF|ON] (the last: the MAC trace).
# The area grows with N (1000 m square at 50 nodes, the same density at
# other sizes).  The waypoints come from a fixed-seed generator of the
# script's own (a 31-bit LCG) and are rounded to centimetres, so that
# ns-2 and Dumbbell read the same movements; writes rwp.tr.
set n [lindex $argv 0]
set end 100.0
set rt AODV
set fmt new
set mactrace OFF
if {$argc >= 2} { set end [lindex $argv 1] }
if {$argc >= 3} { set rt [lindex $argv 2] }
if {$argc >= 4} { set fmt [lindex $argv 3] }
if {$argc >= 5} { set mactrace [lindex $argv 4] }
set side [expr {round(1000.0 * sqrt($n / 50.0))}]
set seed 12345
proc rnd {} {
    global seed
    set seed [expr {($seed * 1103515245 + 12345) % 2147483648}]
    return [expr {$seed / 2147483648.0}]
}
proc coord {side} { format %.2f [expr {1.0 + [rnd] * ($side - 2.0)}] }
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open rwp.tr w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid $side $side
create-god $n
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting $rt -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace $mactrace \
    -movementTrace OFF
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) set X_ [coord $side]
    $node($i) set Y_ [coord $side]
    $node($i) set Z_ 0
}
# random waypoint: to a random point at 1 to 10 m/s, pause 0 to 5 s, again
for {set i 0} {$i < $n} {incr i} {
    set t 0.0
    set x [$node($i) set X_]
    set y [$node($i) set Y_]
    while {$t < $end} {
        set dx [coord $side]
        set dy [coord $side]
        set speed [format %.2f [expr {1.0 + 9.0 * [rnd]}]]
        $ns at $t "$node($i) setdest $dx $dy $speed"
        set d [expr {hypot($dx - $x, $dy - $y)}]
        set t [format %.3f [expr {$t + $d / $speed + 5.0 * [rnd]}]]
        set x $dx
        set y $dy
    }
}
for {set f 0} {$f < 10} {incr f} {
    set src [expr {$f % $n}]
    set dst [expr {($f * 7 + 3) % $n}]
    if {$dst == $src} { set dst [expr {($src + 1) % $n}] }
    set udp($f) [new Agent/UDP]
    set null($f) [new Agent/Null]
    $ns attach-agent $node($src) $udp($f)
    $ns attach-agent $node($dst) $null($f)
    $ns connect $udp($f) $null($f)
    set cbr($f) [new Application/Traffic/CBR]
    $cbr($f) set packetSize_ 512
    $cbr($f) set rate_ 16kb
    $cbr($f) attach-agent $udp($f)
    $ns at [format %.2f [expr {1.0 + $f * 0.5}]] "$cbr($f) start"
}
$ns at $end "finish"
proc finish {} {
    global ns tracefd
    $ns flush-trace
    close $tracefd
    exit 0
}
$ns run
