# The networks of random/*.spec (written by random.py) under the real ns-2,
# as dcf.tcl's: DumbAgent routing, CBR/UDP flows of 512-byte packets, MAC
# trace on, old trace format.  Usage: ns spec.tcl NAME.spec; writes NAME.tr
# A spec's lines: "nodes X,Y ...", "flows SRC:DST:RATE:START:STOP ...",
# "rts BYTES", "cs default|short" (short: carrier sense only as far as
# reception, 250 m), "rate MBPS" (the data rate; control frames at 1 Mb/s),
# and optionally "moves NODE:TIME:X:Y:SPEED ..." (setdest), "trace new"
# (use-newtrace's format) and "prop free" (free space, the thresholds raised
# to receive up to 139 m and sense up to 438 m) or "prop shadow EXP DB SEED"
# (log-normal shadowing, `seed predef SEED`) instead of two-ray ground.
set specfile [lindex $argv 0]
set f [open $specfile]
while {[gets $f line] >= 0} {
    set spec([lindex $line 0]) [lrange $line 1 end]
}
close $f
set name [file rootname [file tail $specfile]]
if {$spec(cs) eq "short"} { Phy/WirelessPhy set CSThresh_ 3.652e-10 }
Mac/802_11 set RTSThreshold_ $spec(rts)
Mac/802_11 set dataRate_ [lindex $spec(rate) 0]Mb
set prop [list -propType Propagation/TwoRayGround]
if {[info exists spec(prop)]} {
    if {[lindex $spec(prop) 0] eq "free"} {
        Phy/WirelessPhy set RXThresh_ 1e-8
        Phy/WirelessPhy set CSThresh_ 1e-9
        set prop [list -propType Propagation/FreeSpace]
    } else {
        lassign $spec(prop) - exp db seed
        set model [new Propagation/Shadowing]
        $model set pathlossExp_ $exp
        $model set std_db_ $db
        $model seed predef $seed
        set prop [list -propInstance $model]
    }
}
set n [llength $spec(nodes)]
set ns [new Simulator]
if {[info exists spec(trace)] && $spec(trace) eq "new"} { $ns use-newtrace }
set tracefd [open $name.tr w]
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 1000 1000
create-god $n
set chan1 [new Channel/WirelessChannel]
eval $ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    $prop -phyType Phy/WirelessPhy -channel $chan1 \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON
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
$ns at 3.5 "finish"
proc finish {} { global ns tracefd; $ns flush-trace; close $tracefd; exit 0 }
$ns run
