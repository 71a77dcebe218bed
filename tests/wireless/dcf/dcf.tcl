# Static ad hoc networks over 802.11 with DumbAgent routing (every
# destination one hop away) and CBR/UDP flows, MAC trace on: the fixtures
# crates/engine/tests/dcf.rs's runs of the DCF state machine are compared
# with.  Usage: ns dcf.tcl SCENARIO [new] (SCENARIO: pair, three, garbled,
# busy, hidden, capture, crowd, line, norts, fast, oldtimer,
# oldtimer-norts); writes SCENARIO.tr in
# the old trace format, or with `new`, SCENARIO-new.tr in use-newtrace's
set scen [lindex $argv 0]
set newtrace [expr {[lindex $argv 1] eq "new"}]
# node positions (X) on a line, and flows {src dst rate start stop}
switch $scen {
    pair    { set xs {100 200};      set flows {{0 1 200kb 1.0 2.0}} }
    three   { set xs {0 100 200};    set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    garbled { set xs {0 200 400};    set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    busy    { set xs {0 50 100 150}; set flows {{0 1 600kb 1.0 1.5} {2 1 600kb 1.0011 1.5} {3 0 600kb 1.0023 1.5} {1 3 300kb 1.0037 1.5}} }
    hidden  { set xs {0 200 400};    set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    capture { set xs {0 100 280};    set flows {{0 1 400kb 1.0 2.0} {2 1 400kb 1.003 2.0}} }
    line    { set xs {0 200 400 600 800}; set flows {{1 2 800kb 1.0 3.0} {0 1 800kb 1.0013 3.0} {3 2 800kb 1.0021 3.0} {4 3 800kb 1.0032 3.0} {2 1 400kb 1.0041 3.0}} }
    norts   { set xs {0 200 400 210}; set flows {{0 1 800kb 1.0 3.0} {2 1 800kb 1.001 3.0} {3 0 800kb 1.002 3.0} {1 2 800kb 1.0027 3.0} {3 2 800kb 1.0031 3.0}} }
    fast    { set xs {0 200 400 210}; set flows {{0 1 2Mb 1.0 1.6} {2 1 2Mb 1.001 1.6} {3 0 2Mb 1.002 1.6} {1 2 2Mb 1.0027 1.6} {3 2 2Mb 1.0031 1.6}} }
    oldtimer { set xs {0 200 400 210}; set flows {{0 1 800kb 1.0 3.0} {2 1 800kb 1.001 3.0} {3 0 800kb 1.002 3.0} {1 2 800kb 1.0027 3.0} {3 2 800kb 1.0031 3.0}} }
    oldtimer-norts { set xs {0 200 400 210}; set flows {{0 1 800kb 1.0 3.0} {2 1 800kb 1.001 3.0} {3 0 800kb 1.002 3.0} {1 2 800kb 1.0027 3.0} {3 2 800kb 1.0031 3.0}} }
    crowd   { set xs {0 200 400 210}; set flows {{0 1 800kb 1.0 3.0} {2 1 800kb 1.001 3.0} {3 0 800kb 1.002 3.0} {1 2 800kb 1.0027 3.0} {3 2 800kb 1.0031 3.0}} }
}
# hidden, capture, crowd, line, norts, fast, oldtimer*: carrier sense only as far as
# reception (250 m), so that nodes more than 250 m apart cannot hear each
# other
if {$scen in {hidden capture crowd line norts fast oldtimer oldtimer-norts}} { Phy/WirelessPhy set CSThresh_ 3.652e-10 }
# norts: the crowd without RTS/CTS for its frames (shorter than 3000
# bytes); fast: the same with data at 11 Mb/s (control frames and
# broadcasts at the basic rate, 1 Mb/s)
if {$scen in {norts fast oldtimer-norts}} { Mac/802_11 set RTSThreshold_ 3000 }
# oldtimer, oldtimer-norts: the crowd with and without RTS/CTS, with
# bugFix_timer_ off (a first wait is one deferral of a DIFS and the
# backoff's slots, not a backoff timer)
if {$scen in {oldtimer oldtimer-norts}} { Mac/802_11 set bugFix_timer_ false }
if {$scen eq "fast"} { Mac/802_11 set dataRate_ 11Mb }
set n [llength $xs]
set ns [new Simulator]
if {$newtrace} {
    $ns use-newtrace
    set tracefd [open $scen-new.tr w]
} else {
    set tracefd [open $scen.tr w]
}
$ns trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 1000 1000
create-god $n
set chan1 [new Channel/WirelessChannel]
$ns node-config -adhocRouting DumbAgent -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan1 \
    -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace ON
for {set i 0} {$i < $n} {incr i} {
    set node($i) [$ns node]
    $node($i) set X_ [lindex $xs $i]
    $node($i) set Y_ 100
    $node($i) set Z_ 0
}
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
$ns at 3.5 "finish"
proc finish {} { global ns tracefd; $ns flush-trace; close $tracefd; exit 0 }
$ns run
