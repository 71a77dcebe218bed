# Mobile nodes over Propagation/Nakagami and with Agent/PBC's broadcasts
# (the pieces of ns-2's wireless-lan-newnode-80211Ext suite that also run
# over the ordinary stack, Phy/WirelessPhy and Mac/802_11, DumbAgent).
# N nodes in a row SPACING m apart, the last moving away and back.
# Usage: ns wireless-ext.tcl PROP TRAFFIC [N] [SPACING] [old|new] [MACTRACE] [RATE]
#   PROP:    tworay   two-ray ground (PBC's reference)
#            mean     Nakagami's path loss without fading (use_nakagami_dist_ false)
#            rayleigh Nakagami fading with m 1 near, 2 farther, 3 beyond (Erlang draws)
#            gamma    Nakagami fading with m 1.5, 0.75, 0.75 (Gamma draws;
#                     ns-2's default shapes), exponents 2, 3, 3.5
#   TRAFFIC: cbr      CBR/UDP flows end to end and back
#            pbc      Agent/PBC on every node: single broadcasts, unicasts
#                     (one to an address no node has), periodic broadcasts
#                     on some nodes (interval and variance set), stopped
#   RATE:    Mac/802_11 dataRate_ (and basicRate_ 1Mb)
set prop [lindex $argv 0]
set traffic [lindex $argv 1]
set n 4
set spacing 150
set fmt old
set mactrace ON
set rate 2Mb
if {$argc >= 3} { set n [lindex $argv 2] }
if {$argc >= 4} { set spacing [lindex $argv 3] }
if {$argc >= 5} { set fmt [lindex $argv 4] }
if {$argc >= 6} { set mactrace [lindex $argv 5] }
if {$argc >= 7} { set rate [lindex $argv 6] }
Mac/802_11 set dataRate_ $rate
Mac/802_11 set basicRate_ 1Mb
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open ext.tr w]
set namfd [open ext.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 1500 300
set topo [new Topography]
$topo load_flatgrid 1500 300
set god [create-god $n]
$god off
set chan [new Channel/WirelessChannel]
set opts [list -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 20 -antType Antenna/OmniAntenna \
    -phyType Phy/WirelessPhy -channel $chan -topoInstance $topo \
    -agentTrace ON -routerTrace ON -macTrace $mactrace -movementTrace OFF]
switch $prop {
    tworay { lappend opts -propType Propagation/TwoRayGround }
    mean {
        Propagation/Nakagami set use_nakagami_dist_ false
        lappend opts -propType Propagation/Nakagami
    }
    rayleigh {
        set p [new Propagation/Nakagami]
        $p set use_nakagami_dist_ true
        $p set m0_ 1.0
        $p set m1_ 2.0
        $p set m2_ 3.0
        $p set d0_m_ 100
        $p set d1_m_ 300
        puts "nakagami [$p set gamma0_] [$p set gamma1_] [$p set gamma2_] [$p set m0_] [$p set m1_] [$p set m2_] [$p set use_nakagami_dist_]"
        lappend opts -propInstance $p
    }
    gamma {
        Propagation/Nakagami set use_nakagami_dist_ 1
        Propagation/Nakagami set gamma0_ 2.0
        Propagation/Nakagami set gamma1_ 3.0
        Propagation/Nakagami set gamma2_ 3.5
        Propagation/Nakagami set d0_gamma_ 150
        Propagation/Nakagami set d1_gamma_ 400
        lappend opts -propType Propagation/Nakagami
    }
    default { error "unknown model $prop" }
}
eval $ns node-config $opts
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) random-motion 0
    $node($i) set X_ [expr {50 + $spacing * $i}]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
}
set last [expr {$n - 1}]
$ns at 3.0 "$node($last) setdest [expr {50 + $spacing * $last + 300}] 120.0 50.0"
$ns at 6.0 "$node($last) setdest [expr {50 + $spacing * $last - 20}] 100.0 50.0"
switch $traffic {
    cbr {
        set flows [list [list 0 $last 64kb 1.0 9.0] [list $last 0 48kb 1.5 9.0] [list 1 [expr {$n > 2 ? 2 : 0}] 400kb 4.3 5.0]]
        set f 0
        foreach fl $flows {
            lassign $fl src dst r start stop
            set udp($f) [new Agent/UDP]
            set null($f) [new Agent/Null]
            $ns attach-agent $node($src) $udp($f)
            $ns attach-agent $node($dst) $null($f)
            $ns connect $udp($f) $null($f)
            set cbr($f) [new Application/Traffic/CBR]
            $cbr($f) set packetSize_ 512
            $cbr($f) set rate_ $r
            $cbr($f) attach-agent $udp($f)
            $ns at $start "$cbr($f) start"
            $ns at $stop "$cbr($f) stop"
            incr f
        }
    }
    pbc {
        for {set i 0} {$i < $n} {incr i} {
            set pbc($i) [new Agent/PBC]
            $ns attach-agent $node($i) $pbc($i)
            $pbc($i) set payloadSize [expr {300 + 100 * $i}]
        }
        puts "pbc [$pbc(0) set payloadSize] [$pbc(0) set periodicBroadcastInterval] [$pbc(0) set periodicBroadcastVariance] [$pbc(0) set modulationScheme]"
        $ns at 0.5 "$pbc(0) singleBroadcast"
        $ns at 0.5 "$pbc($last) singleBroadcast"
        $ns at 1.0 "$pbc(0) unicast 1"
        $ns at 1.2 "$pbc(1) unicast $last"
        $ns at 1.4 "$pbc(0) unicast 77"
        $ns at 2.0 "$pbc(1) set payloadSize 1200"
        $ns at 2.01 "$pbc(1) unicast 0"
        $pbc(0) set periodicBroadcastInterval 0.3
        $pbc(0) set periodicBroadcastVariance 0.05
        $pbc(0) PeriodicBroadcast ON
        $ns at 2.5 "$pbc($last) PeriodicBroadcast ON"
        $ns at 4.0 "$pbc(1) set periodicBroadcastInterval 0.1"
        $ns at 4.0 "$pbc(1) set periodicBroadcastVariance 0.5"
        $ns at 4.0 "$pbc(1) PeriodicBroadcast ON"
        $ns at 6.0 "$pbc(0) stop"
        $ns at 7.0 "$pbc(1) PeriodicBroadcast OFF"
        $ns at 7.5 "$pbc(0) PeriodicBroadcast ON"
    }
    default { error "unknown traffic $traffic" }
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
