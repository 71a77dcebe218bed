# Mobile IP (node-config -mobileIP ON): two wired nodes, a home agent
# (1.0.0) and a foreign agent (2.0.0), base stations routed by DSDV, and a
# mobile host (1.0.1) that starts at home, moves to the foreign agent (out
# of its home agent's reach), stays, and comes back; its agents advertise
# every BEACON_HA and BEACON_FA seconds.  Traced in full: the trace-all file
# (wired, agent, routing and, with macTrace ON, MAC lines), nam's file and
# stdout.
# Usage: ns wireless-mip.tcl SCENARIO [old|new] [ON|OFF] [BEACON_HA] [BEACON_FA]
#   tcp: an FTP transfer from wired node 0.0.0 to the host
#   cbr: CBR from wired node 0.0.0 to the host and from the host to 0.0.1
set scen [lindex $argv 0]
set fmt old
set mactrace OFF
set bha 1.0
set bfa 1.0
if {$argc >= 2} { set fmt [lindex $argv 1] }
if {$argc >= 3} { set mactrace [lindex $argv 2] }
if {$argc >= 4} { set bha [lindex $argv 3] }
if {$argc >= 5} { set bfa [lindex $argv 4] }
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 3
AddrParams set cluster_num_ {1 1 1}
AddrParams set nodes_num_ {2 2 1}
set tracefd [open mip.tr w]
set namfd [open mip.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd 700 400
set topo [new Topography]
$topo load_flatgrid 700 400
create-god 3
set W(0) [$ns node 0.0.0]
set W(1) [$ns node 0.0.1]
$ns node-config -mobileIP ON -adhocRouting DSDV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
    -channel [new Channel/WirelessChannel] -topoInstance $topo -wiredRouting ON \
    -agentTrace ON -routerTrace ON -macTrace $mactrace -movementTrace ON
set HA [$ns node 1.0.0]
set FA [$ns node 2.0.0]
foreach {n x y} [list $HA 50.0 50.0 $FA 600.0 350.0] {
    $n random-motion 0
    $n set X_ $x
    $n set Y_ $y
    $n set Z_ 0.0
    $ns initial_node_pos $n 20
}
$ns node-config -wiredRouting OFF
set MH [$ns node 1.0.1]
[$MH set regagent_] set home_agent_ [AddrParams addr2id [$HA node-addr]]
$MH set X_ 70.0
$MH set Y_ 60.0
$MH set Z_ 0.0
$ns initial_node_pos $MH 20
[$HA set regagent_] beacon-period $bha
[$FA set regagent_] beacon-period $bfa
$ns at 5.0 "$MH setdest 590.0 340.0 60.0"
$ns at 24.0 "$MH setdest 70.0 60.0 60.0"
$ns duplex-link $W(0) $W(1) 5Mb 2ms DropTail
$ns duplex-link $W(1) $HA 5Mb 2ms DropTail
$ns duplex-link $W(1) $FA 5Mb 2ms DropTail
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
switch $scen {
    tcp {
        set tcp [new Agent/TCP]
        set sink [new Agent/TCPSink]
        $ns attach-agent $W(0) $tcp
        $ns attach-agent $MH $sink
        $ns connect $tcp $sink
        set ftp [new Application/FTP]
        $ftp attach-agent $tcp
        $ns at 3.0 "$ftp start"
        $ns at 38.0 "$ftp stop"
    }
    cbr {
        cbr $W(0) $MH 40kb 3.0 38.0
        cbr $MH $W(1) 20kb 3.5 37.0
    }
    default { error "unknown scenario $scen" }
}
set end 40.0
foreach n [list $MH $HA $FA] { $ns at $end "$n reset" }
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
