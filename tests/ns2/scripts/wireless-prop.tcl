# Mobile nodes over the propagation models other than two-ray ground:
# free space (Friis, which prints a line per reception on stdout) and
# log-normal shadowing (a path-loss exponent from a reference distance and a
# normal draw per reception from the model's own RNG).  Five nodes 100 m
# apart in a row, the last one moving away and back, CBR flows end to end and
# a saturating one at the end; GOD's hop counts (stamped on data packets at
# their agents' send trace); every node reset before the end (what its
# interface queue and ARP table hold dropped, END).
# Usage: ns wireless-prop.tcl MODEL ROUTING [old|new] [MACTRACE] [ROUTERTRACE]
#   free:     -propType Propagation/FreeSpace, thresholds raised so that a
#             frame is received up to 139 m and sensed up to 438 m
#   shadow:   -propInstance of Propagation/Shadowing, exponent 2.7 (about
#             130 m to receive, 420 m to sense, on average), 4 dB,
#             `seed predef 3`
#   classdef: -propType Propagation/Shadowing with its class defaults
#             changed before (exponent 2.7, 6 dB, dist0_ 2, seed_ 5)
#   raw:      a Shadowing instance seeded `raw 4242`, 3 dB, and an RNG made
#             after it (the package's next stream) whose draws are printed
#   ROUTING:  DumbAgent, AODV or DSDV
set model [lindex $argv 0]
set rp [lindex $argv 1]
set fmt old
set mactrace OFF
set rtrtrace ON
if {$argc >= 3} { set fmt [lindex $argv 2] }
if {$argc >= 4} { set mactrace [lindex $argv 3] }
if {$argc >= 5} { set rtrtrace [lindex $argv 4] }
set n 5
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open prop.tr w]
set namfd [open prop.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 800 300
set topo [new Topography]
$topo load_flatgrid 800 300
set god [create-god $n]
$god off
set chan [new Channel/WirelessChannel]
set opts [list -adhocRouting $rp -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 20 -antType Antenna/OmniAntenna \
    -phyType Phy/WirelessPhy -channel $chan -topoInstance $topo \
    -agentTrace ON -routerTrace $rtrtrace -macTrace $mactrace -movementTrace OFF]
switch $model {
    free {
        Phy/WirelessPhy set RXThresh_ 1e-8
        Phy/WirelessPhy set CSThresh_ 1e-9
        lappend opts -propType Propagation/FreeSpace
    }
    shadow {
        set prop [new Propagation/Shadowing]
        $prop set pathlossExp_ 2.7
        $prop set std_db_ 4.0
        $prop seed predef 3
        puts "shadowing [$prop set pathlossExp_] [$prop set std_db_] [$prop set dist0_] [$prop set seed_]"
        lappend opts -propInstance $prop
    }
    classdef {
        Propagation/Shadowing set pathlossExp_ 2.7
        Propagation/Shadowing set std_db_ 6.0
        Propagation/Shadowing set dist0_ 2.0
        Propagation/Shadowing set seed_ 5
        lappend opts -propType Propagation/Shadowing
    }
    raw {
        set prop [new Propagation/Shadowing]
        $prop set pathlossExp_ 2.7
        $prop set std_db_ 3.0
        $prop seed raw 4242
        set rng [new RNG]
        puts "after the model: [$rng uniform 0 1] [$rng integer 1000]"
        lappend opts -propInstance $prop
    }
    default { error "unknown model $model" }
}
eval $ns node-config $opts
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) random-motion 0
    $node($i) set X_ [expr {50 + 100 * $i}]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
# GOD's hop counts along the row (the stamps on the data packets)
for {set i 0} {$i < $n} {incr i} {
    for {set j [expr {$i + 1}]} {$j < $n} {incr j} {
        $god set-dist $i $j [expr {$j - $i}]
    }
}
$ns at 4.0 "$god set-dist 0 4 9"
$ns at 3.0 "$node(4) setdest 780.0 120.0 60.0"
$ns at 6.0 "$node(4) setdest 450.0 100.0 60.0"
set flows {{0 4 64kb 1.0 9.0} {3 1 48kb 1.5 9.0} {1 2 1.5Mb 9.3 10.0}}
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
for {set i 0} {$i < $n} {incr i} {
    $ns at 9.5 "$node($i) reset"
}
$ns at 10.0 "finish"
proc finish {} {
    global ns tracefd namfd node n
    $ns flush-trace
    close $tracefd
    close $namfd
    for {set i 0} {$i < $n} {incr i} { puts "node $i at [$node($i) set X_] [$node($i) set Y_]" }
    exit 0
}
$ns run
