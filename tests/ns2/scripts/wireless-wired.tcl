# Wired-cum-wireless networks: wired nodes and base stations with
# hierarchical addresses, mobile nodes routed by DSDV reaching the wired
# nodes through their base station (node-config -wiredRouting ON,
# `$node base-station`), traced in full: the trace-all file (wired lines
# and the wireless agent, routing and, with macTrace ON, MAC lines), nam's
# file and stdout.
# Usage: ns wireless-wired.tcl SCENARIO [old|new|tagged] [ON|OFF]
#   one:  two wired nodes, one base station, three mobile nodes; CBR from
#         a mobile node to a wired one, TCP from a wired node to the
#         farthest mobile node (two radio hops), a mobile node moving
#         away and back
#   two:  two base stations in two domains, a mobile node near each; CBR
#         between the two mobile nodes across the wired network, and
#         from a wired node to each
#   lost: a mobile node beyond its base station's reach sends to a wired
#         node (no route to the base station: its packets are dropped)
#         until it moves into range
#   random-SEED: one to three wired nodes, one or two base stations, one to
#         four mobile nodes each, random places, wired links, flows (CBR and
#         TCP between wired and mobile nodes, and between mobile nodes) and
#         moves, from Tcl's rand() seeded with SEED
#         (tests/ns2/wired_random.py compares many seeds with ns-2)
set scen [lindex $argv 0]
set fmt old
set mactrace OFF
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
switch $scen {
    one  { set domains 2; set clusters {1 1}; set nodes {2 4}
           set bs {{1.0.0 50 50}}
           set mn {{1.0.1 230 50} {1.0.2 410 50} {1.0.3 150 200}}
           set end 30.0 }
    two  { set domains 3; set clusters {1 1 1}; set nodes {2 2 2}
           set bs {{1.0.0 50 50} {2.0.0 600 300}}
           set mn {{1.0.1 200 100} {2.0.1 500 200}}
           set end 30.0 }
    lost { set domains 2; set clusters {1 1}; set nodes {1 2}
           set bs {{1.0.0 50 50}}
           set mn {{1.0.1 600 350}}
           set end 40.0 }
    default {
        if {![regexp {^random-(\d+)$} $scen -> seed]} { error "unknown scenario $scen" }
        expr {srand($seed)}
        proc pick {n} { expr {int(rand() * $n)} }
        set nb [expr {1 + [pick 2]}]
        set domains [expr {1 + $nb}]
        set clusters {}
        for {set d 0} {$d < $domains} {incr d} { lappend clusters 1 }
        set nodes [list [expr {1 + [pick 3]}]]
        set bs {}; set mn {}
        for {set d 1} {$d <= $nb} {incr d} {
            set k [expr {1 + [pick 4]}]
            lappend nodes [expr {$k + 1}]
            lappend bs [list $d.0.0 [expr {20 + [pick 660]}] [expr {20 + [pick 360]}]]
            for {set j 1} {$j <= $k} {incr j} {
                lappend mn [list $d.0.$j [expr {10 + [pick 680]}] [expr {10 + [pick 380]}]]
            }
        }
        set scen random
        set end [expr {20.0 + [pick 20]}]
    }
}
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
if {$fmt eq "tagged"} { $ns use-taggedtrace }
$ns node-config -addressType hierarchical
AddrParams set domain_num_ $domains
AddrParams set cluster_num_ $clusters
AddrParams set nodes_num_ $nodes
set tracefd [open ww.tr w]
set namfd [open ww.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 700 400
set topo [new Topography]
$topo load_flatgrid 700 400
create-god [expr {[llength $bs] + [llength $mn]}]
# the wired nodes: 0.0.0 and 0.0.1 (scenario lost: 0.0.0 only)
set nw [lindex $nodes 0]
for {set i 0} {$i < $nw} {incr i} { set W($i) [$ns node 0.0.$i] }
set chan [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
    -topoInstance $topo -wiredRouting ON -agentTrace ON -routerTrace ON \
    -macTrace $mactrace -movementTrace ON
set i 0
foreach b $bs {
    lassign $b a x y
    set BS($i) [$ns node $a]
    $BS($i) random-motion 0
    $BS($i) set X_ $x
    $BS($i) set Y_ $y
    $BS($i) set Z_ 0.0
    $ns initial_node_pos $BS($i) 20
    incr i
}
$ns node-config -wiredRouting OFF
set i 0
foreach m $mn {
    lassign $m a x y
    set M($i) [$ns node $a]
    $M($i) random-motion 0
    $M($i) set X_ $x
    $M($i) set Y_ $y
    $M($i) set Z_ 0.0
    $ns initial_node_pos $M($i) 20
    # the base station of the mobile node's domain
    set d [lindex [split $a .] 0]
    $M($i) base-station [AddrParams addr2id [$BS([expr {$d - 1}]) node-addr]]
    incr i
}
if {$scen eq "random"} {
    # a random tree over the wired nodes, each base station on one of them
    for {set i 1} {$i < $nw} {incr i} {
        $ns duplex-link $W($i) $W([pick $i]) [expr {1 + [pick 10]}]Mb [expr {1 + [pick 10]}]ms DropTail
    }
    for {set k 0} {$k < [array size BS]} {incr k} {
        $ns duplex-link $BS($k) $W([pick $nw]) [expr {1 + [pick 10]}]Mb [expr {1 + [pick 10]}]ms DropTail
    }
} elseif {$nw > 1} {
    $ns duplex-link $W(0) $W(1) 5Mb 2ms DropTail
    foreach k [array names BS] { $ns duplex-link $W(1) $BS($k) 5Mb 2ms DropTail }
} else {
    $ns duplex-link $W(0) $BS(0) 5Mb 2ms DropTail
}
proc cbr {src dst rate start stop} {
    global ns
    set udp [new Agent/UDP]
    set null [new Agent/Null]
    $ns attach-agent $src $udp
    $ns attach-agent $dst $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ 512
    $cbr set rate_ $rate
    $cbr attach-agent $udp
    $ns at $start "$cbr start"
    $ns at $stop "$cbr stop"
}
proc tcp {src dst start stop} {
    global ns
    set tcp [new Agent/TCP]
    set sink [new Agent/TCPSink]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at $start "$ftp start"
    $ns at $stop "$ftp stop"
}
switch $scen {
    one {
        cbr $M(0) $W(0) 40kb 5.0 28.0
        tcp $W(1) $M(1) 8.0 27.0
        $ns at 12.0 "$M(2) setdest 600.0 380.0 60.0"
        $ns at 20.0 "$M(2) setdest 150.0 200.0 60.0"
    }
    two {
        cbr $M(0) $M(1) 30kb 6.0 28.0
        cbr $W(0) $M(0) 20kb 7.0 27.0
        cbr $W(1) $M(1) 20kb 7.5 27.5
    }
    lost {
        cbr $M(0) $W(0) 20kb 3.0 38.0
        $ns at 15.0 "$M(0) setdest 150.0 100.0 40.0"
    }
    random {
        # endpoints: the wired and the mobile nodes
        set ends {}
        for {set i 0} {$i < $nw} {incr i} { lappend ends $W($i) }
        foreach k [lsort -integer [array names M]] { lappend ends $M($k) }
        set nf [expr {1 + [pick 4]}]
        for {set f 0} {$f < $nf} {incr f} {
            set a [lindex $ends [pick [llength $ends]]]
            set b [lindex $ends [pick [llength $ends]]]
            if {$a eq $b} { continue }
            set start [expr {3.0 + [pick 80] / 10.0}]
            set stop [expr {$end - 1.0 - [pick 30] / 10.0}]
            if {[pick 3] == 0} {
                tcp $a $b $start $stop
            } else {
                cbr $a $b [expr {10 + [pick 50]}]kb $start $stop
            }
        }
        foreach k [lsort -integer [array names M]] {
            if {[pick 2]} {
                $ns at [expr {2.0 + [pick 150] / 10.0}] "$M($k) setdest [expr {10 + [pick 680]}].0 [expr {10 + [pick 380]}].0 [expr {5 + [pick 60]}].0"
            }
        }
    }
}
foreach k [array names M] { $ns at $end "$M($k) reset" }
foreach k [array names BS] { $ns at $end "$BS($k) reset" }
$ns at $end "finish"
proc finish {} {
    global ns tracefd namfd
    $ns flush-trace
    close $tracefd
    close $namfd
    puts "done at [$ns now]"
    exit 0
}
$ns run
