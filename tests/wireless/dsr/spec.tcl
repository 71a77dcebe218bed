# A network of a spec under the real ns-2 routed by DSR (ns-2's SRNode:
# the DSR agent between the node's entry and its link layer, MobiCache,
# flow state, the promiscuous tap): CBR/UDP flows of 512-byte packets and
# TCP transfers, agent and routing traces on.  Usage: ns spec.tcl
# NAME.spec; writes NAME.tr and NAME.nam.  A spec's lines: "nodes X,Y
# ...", "flows SRC:DST:RATE:START:STOP ...", "tcp SRC:DST:START:STOP ..."
# (an FTP over TCP Reno), "moves NODE:TIME:X:Y:SPEED ..." (setdest,
# scheduled before the flows), "area W H" (the topography; default 1000
# 1000), "mac on|off" (the MAC trace; default off), "trace new"
# (use-newtrace's format), "ifq CMUPriQueue|Queue/DropTail/PriQueue" (the
# interface queue; default CMUPriQueue: ns-2 2.35's DSR agent takes its
# queue to be a CMUPriQueue when a link fails, and crashes on another
# kind), "end T" (when the script finishes).
set specfile [lindex $argv 0]
set f [open $specfile]
set spec(area) {1000 1000}
set spec(mac) off
set spec(ifq) CMUPriQueue
set spec(flows) {}
while {[gets $f line] >= 0} {
    if {[llength $line] > 0} { set spec([lindex $line 0]) [lrange $line 1 end] }
}
close $f
set name [file rootname [file tail $specfile]]
set n [llength $spec(nodes)]
set ns [new Simulator]
if {[info exists spec(trace)] && $spec(trace) eq "new"} { $ns use-newtrace }
set tracefd [open $name.tr w]
set namfd [open $name.nam w]
$ns trace-all $tracefd
$ns namtrace-all-wireless $namfd [lindex $spec(area) 0] [lindex $spec(area) 1]
set topo [new Topography]
$topo load_flatgrid [lindex $spec(area) 0] [lindex $spec(area) 1]
create-god $n
set chan1 [new Channel/WirelessChannel]
$ns node-config -adhocRouting DSR -llType LL -macType Mac/802_11 \
    -ifqType $spec(ifq) -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan1 \
    -topoInstance $topo -agentTrace ON -routerTrace ON \
    -macTrace [string toupper $spec(mac)] -movementTrace ON
set i 0
foreach xy $spec(nodes) {
    lassign [split $xy ,] x y
    set node($i) [$ns node]
    $node($i) set X_ $x
    $node($i) set Y_ $y
    $node($i) set Z_ 0
    $ns initial_node_pos $node($i) 20
    incr i
}
if {[info exists spec(moves)]} {
    foreach mv $spec(moves) {
        lassign [split $mv :] i t x y speed
        $ns at $t "$node($i) setdest $x $y $speed"
    }
}
set k 0
foreach fl $spec(flows) {
    lassign [split $fl :] src dst rate start stop
    set udp($k) [new Agent/UDP]
    set null($k) [new Agent/Null]
    $ns attach-agent $node($src) $udp($k)
    $ns attach-agent $node($dst) $null($k)
    $ns connect $udp($k) $null($k)
    set cbr($k) [new Application/Traffic/CBR]
    $cbr($k) set packetSize_ 512
    $cbr($k) set rate_ $rate
    $cbr($k) attach-agent $udp($k)
    $ns at $start "$cbr($k) start"
    $ns at $stop "$cbr($k) stop"
    incr k
}
if {[info exists spec(tcp)]} {
    foreach fl $spec(tcp) {
        lassign [split $fl :] src dst start stop
        set tcp($k) [new Agent/TCP]
        set sink($k) [new Agent/TCPSink]
        $ns attach-agent $node($src) $tcp($k)
        $ns attach-agent $node($dst) $sink($k)
        $ns connect $tcp($k) $sink($k)
        set ftp($k) [new Application/FTP]
        $ftp($k) attach-agent $tcp($k)
        $ns at $start "$ftp($k) start"
        $ns at $stop "$ftp($k) stop"
        incr k
    }
}
$ns at $spec(end) "finish"
proc finish {} { global ns tracefd namfd; $ns flush-trace; close $tracefd; close $namfd; exit 0 }
$ns run
