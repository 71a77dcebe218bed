# nam's node and link configuration: node coordinates (W line, -x -y -Z),
# a duplex link made twice over the same nodes, links oriented in various
# orders (nam's link list), a link op that does not exist.
# Usage: ns nam_layout.tcl CASE   (coords | relink | badop)
lassign $argv case
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
for {set i 0} {$i < 7} {incr i} { set n($i) [$ns node] }
if {$case eq "coords"} {
    $n(0) set X_ 20
    $n(0) set Y_ 5
    $n(3) set X_ 3
    $n(3) set Y_ 40
    $n(3) set Z_ 0
    $n(5) set X_ 7
}
for {set i 0} {$i < 6} {incr i} {
    $ns duplex-link $n($i) $n([expr $i + 1]) 1Mb [expr 5 + $i]ms DropTail
}
$ns simplex-link $n(6) $n(0) 1Mb 1ms DropTail
$ns duplex-link-op $n(3) $n(4) orient left
$ns duplex-link-op $n(0) $n(1) orient up
$ns simplex-link-op $n(2) $n(1) orient right
$ns simplex-link-op $n(1) $n(2) orient left
$ns simplex-link-op $n(5) $n(4) orient down
$ns simplex-link-op $n(6) $n(0) orient 60deg
if {$case eq "relink"} {
    $ns duplex-link $n(1) $n(2) 2Mb 3ms DropTail
    $ns duplex-link $n(5) $n(4) 2Mb 3ms DropTail
    $ns duplex-link-op $n(1) $n(2) orient right-up
}
if {$case eq "badop"} {
    if {[catch {$ns duplex-link-op $n(0) $n(1) no-such-op 1} err]} { puts "error: $err" }
}
$ns at 0.1 "finish"
proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns run
