# A data frame the MAC drops as a duplicate (DUP, with the MAC trace on):
# its ACK lost, the frame sent again and received again.  ns-2's recvDATA
# counts the reception (num_forwards, the old format's field after the
# TCP header, the new format's -Pf) before it finds the duplicate, so the
# drop line shows the count one up.  Found by tests/wireless/tcp/check.py
# (two TCP transfers over AODV among seven nodes), cut to 0.21 s.
# Usage: ns wireless-dup.tcl [old|new]; writes dup.tr.
set fmt [expr {$argc >= 1 ? [lindex $argv 0] : "old"}]
Mac/802_11 set RTSThreshold_ 3000
set ns [new Simulator]
if {$fmt eq "new"} { $ns use-newtrace }
set tracefd [open dup.tr w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 400 400
create-god 7
set chan1 [new Channel/WirelessChannel]
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan1 \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON
set i 0
foreach {x y} {136 387 204 282 146 294 317 43 39 363 88 137 212 43} {
    set node($i) [$ns node]
    $node($i) set X_ $x
    $node($i) set Y_ $y
    $node($i) set Z_ 0
    incr i
}
set k 0
foreach {src dst cls sinkcls start window size} {
    3 6 TCP/Sack1 TCPSink/Sack1 0.1503 20 512
    0 3 TCP/Reno TCPSink/DelAck 0.1 4 1000
} {
    set tcp($k) [new Agent/$cls]
    $tcp($k) set window_ $window
    $tcp($k) set packetSize_ $size
    $tcp($k) set fid_ $k
    set sink($k) [new Agent/$sinkcls]
    $ns attach-agent $node($src) $tcp($k)
    $ns attach-agent $node($dst) $sink($k)
    $ns connect $tcp($k) $sink($k)
    set ftp($k) [new Application/FTP]
    $ftp($k) attach-agent $tcp($k)
    $ns at $start "$ftp($k) start"
    incr k
}
$ns at 0.21 "finish"
proc finish {} { global ns tracefd; $ns flush-trace; close $tracefd; exit 0 }
$ns run
