# A random wireless network of a spec under the real ns-2 (or `dumbbell
# run`) with TCP flows beside CBR ones, over AODV or DSDV: agent and
# routing traces on.  Usage: ns spec.tcl NAME.spec; writes NAME.tr.  A
# spec's lines: "nodes X,Y ...", "flows SRC:DST:RATE:START:STOP ..." (CBR/UDP,
# 512-byte packets), "tcp SRC:DST:CLASS:SINK:START:STOP:WINDOW:SIZE ..."
# (FTP over Agent/CLASS to Agent/SINK), "moves NODE:TIME:X:Y:SPEED ..."
# (setdest, scheduled before the flows), "area W H", "mac on|off", "trace
# new" (use-newtrace's format), "routing AODV|DSDV", "rts N"
# (Mac/802_11 RTSThreshold_), "rate R" (Mac/802_11 dataRate_), "ifq TYPE"
# (the interface queue: Queue/DropTail/PriQueue, the default, or
# CMUPriQueue), "end T".
set specfile [lindex $argv 0]
set f [open $specfile]
set spec(area) {1000 1000}
set spec(mac) off
set spec(routing) AODV
set spec(ifq) Queue/DropTail/PriQueue
while {[gets $f line] >= 0} {
    if {[llength $line] > 0} { set spec([lindex $line 0]) [lrange $line 1 end] }
}
close $f
set name [file rootname [file tail $specfile]]
set n [llength $spec(nodes)]
if {[info exists spec(rts)]} { Mac/802_11 set RTSThreshold_ $spec(rts) }
if {[info exists spec(rate)]} { Mac/802_11 set dataRate_ $spec(rate) }
set ns [new Simulator]
if {[info exists spec(trace)] && $spec(trace) eq "new"} { $ns use-newtrace }
set tracefd [open $name.tr w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid [lindex $spec(area) 0] [lindex $spec(area) 1]
create-god $n
set chan1 [new Channel/WirelessChannel]
$ns node-config -adhocRouting $spec(routing) -llType LL -macType Mac/802_11 \
    -ifqType $spec(ifq) -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan1 \
    -topoInstance $topo -agentTrace ON -routerTrace ON \
    -macTrace [string toupper $spec(mac)]
set i 0
foreach xy $spec(nodes) {
    lassign [split $xy ,] x y
    set node($i) [$ns node]
    $node($i) set X_ $x
    $node($i) set Y_ $y
    $node($i) set Z_ 0
    incr i
}
if {[info exists spec(moves)]} {
    foreach mv $spec(moves) {
        lassign [split $mv :] i t x y speed
        $ns at $t "$node($i) setdest $x $y $speed"
    }
}
set k 0
if {[info exists spec(flows)]} {
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
}
if {[info exists spec(tcp)]} {
    foreach fl $spec(tcp) {
        lassign [split $fl :] src dst cls sinkcls start stop window size
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
        $ns at $stop "$ftp($k) stop"
        incr k
    }
}
$ns at $spec(end) "finish"
proc finish {} {
    global ns tracefd tcp sink
    $ns flush-trace
    close $tracefd
    foreach k [lsort -integer [array names tcp]] {
        puts "tcp $k ack_ [$tcp($k) set ack_] maxseq_ [$tcp($k) set maxseq_] nrexmit_ [$tcp($k) set nrexmit_] cwnd_ [$tcp($k) set cwnd_]"
    }
    exit 0
}
$ns run
