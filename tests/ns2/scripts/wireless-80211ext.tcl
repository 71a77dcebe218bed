# Mobile nodes with Mac/802_11Ext over Phy/WirelessPhyExt (ns-2's
# wireless-lan-newnode-80211Ext suite's stack), DumbAgent, Agent/PBC.
# N nodes in a row SPACING m apart, the last moving away and back.
# Usage: ns wireless-80211ext.tcl PROP TRAFFIC [N] [SPACING] [old|new] [RTS] [MOD] [PHYTRACE]
#   PROP:    naka     Nakagami fading (m 1, Erlang draws)
#            mean     Nakagami's path loss without fading
#            tworay   two-ray ground (PowerMonitorThresh_ above 0)
#   TRAFFIC: unicast  PBC unicasts between neighbours, one to an address
#                     no node has, two frames longer than the RTS threshold
#            bcast    PBC periodic broadcasts on every node
#            mixed    both
#   RTS:     Mac/802_11Ext RTSThreshold_ (bytes)
#   MOD:     the PBC agents' modulationScheme (0 BPSK .. 3 QAM64)
set prop [lindex $argv 0]
set traffic [lindex $argv 1]
set n 3
set spacing 20
set fmt old
set rts 2000
set mod 0
set phytrace ON
if {$argc >= 3} { set n [lindex $argv 2] }
if {$argc >= 4} { set spacing [lindex $argv 3] }
if {$argc >= 5} { set fmt [lindex $argv 4] }
if {$argc >= 6} { set rts [lindex $argv 5] }
if {$argc >= 7} { set mod [lindex $argv 6] }
if {$argc >= 8} { set phytrace [lindex $argv 7] }
Mac/802_11Ext set RTSThreshold_ $rts
Phy/WirelessPhyExt set Pt_ 0.001
Phy/WirelessPhyExt set CSThresh_ 6.30957e-13
Phy/WirelessPhyExt set noise_floor_ 2.51189e-13
Phy/WirelessPhyExt set PowerMonitorThresh_ 0
Phy/WirelessPhyExt set SINR_PreambleCapture_ 2.5118
Phy/WirelessPhyExt set SINR_DataCapture_ 100.0
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open ext.tr w]
set namfd [open ext.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 2500 200
set topo [new Topography]
$topo load_flatgrid 2500 200
set god [create-god $n]
$god off
set chan [new Channel/WirelessChannel]
set opts [list -adhocRouting DumbAgent -llType LL -macType Mac/802_11Ext \
    -ifqType Queue/DropTail/PriQueue -ifqLen 20 -antType Antenna/OmniAntenna \
    -phyType Phy/WirelessPhyExt -channel $chan -topoInstance $topo \
    -agentTrace ON -routerTrace OFF -macTrace ON -phyTrace $phytrace -movementTrace OFF]
switch $prop {
    naka {
        Propagation/Nakagami set use_nakagami_dist_ true
        Propagation/Nakagami set m0_ 1.0
        Propagation/Nakagami set m1_ 1.0
        Propagation/Nakagami set m2_ 1.0
        lappend opts -propType Propagation/Nakagami
    }
    mean {
        Propagation/Nakagami set use_nakagami_dist_ false
        lappend opts -propType Propagation/Nakagami
    }
    tworay {
        # (the channel's reach is where the power falls to the monitor's
        # threshold: above 0 here)
        Phy/WirelessPhyExt set PowerMonitorThresh_ 2.653e-14
        lappend opts -propType Propagation/TwoRayGround
    }
    default { error "unknown model $prop" }
}
eval $ns node-config $opts
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) random-motion 0
    $node($i) set X_ [expr {10 + $spacing * $i}]
    $node($i) set Y_ 50
    $node($i) set Z_ 0
    set pbc($i) [new Agent/PBC]
    $ns attach-agent $node($i) $pbc($i)
    $pbc($i) set payloadSize [expr {500 + 100 * $i}]
    $pbc($i) set modulationScheme $mod
    $ns initial_node_pos $node($i) 10
}
set last [expr {$n - 1}]
$ns at 2.0 "$node($last) setdest [expr {10 + $spacing * $last + 400}] 60.0 100.0"
$ns at 5.0 "$node($last) setdest [expr {10 + $spacing * $last}] 50.0 100.0"
if {$traffic eq "unicast" || $traffic eq "mixed"} {
    $ns at 0.1 "$pbc(0) singleBroadcast"
    for {set i 0} {$i < $n} {incr i} {
        set j [expr {($i + 1) % $n}]
        $ns at [expr {0.5 + 0.5 * $i}] "$pbc($i) unicast $j"
        $ns at [expr {3.0 + 0.5 * $i}] "$pbc($i) unicast $j"
        $ns at [expr {6.0 + 0.3 * $i}] "$pbc($j) unicast $i"
    }
    $ns at 1.7 "$pbc(0) unicast 77"
    $ns at 2.2 "$pbc(1) set payloadSize 2500"
    $ns at 2.21 "$pbc(1) unicast 0"
    $ns at 2.21 "$pbc(0) unicast 1"
    $ns at 7.5 "$pbc(0) set payloadSize 2200"
    $ns at 7.51 "$pbc(0) unicast $last"
    $ns at 7.51 "$pbc($last) unicast 0"
}
if {$traffic eq "bcast" || $traffic eq "mixed"} {
    for {set i 0} {$i < $n} {incr i} {
        $pbc($i) set periodicBroadcastInterval 0.05
        $pbc($i) set periodicBroadcastVariance 0.02
        $ns at [expr {0.2 * $i}] "$pbc($i) PeriodicBroadcast ON"
        $ns at 8.0 "$pbc($i) PeriodicBroadcast OFF"
    }
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
