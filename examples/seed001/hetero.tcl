# Seed 001: heterogeneous TCP-Reno flows (fragile, average, robust) through
# one RED/ECN gateway, as in chapter 4 (section 4.3) and chapter 5 (5.4).
#
#   F_i --(fragile delay)--+
#   A_i --(average delay)--+-- R ==(10 Mb/s, 5 ms, 120 packets)== D
#   R_i --(robust delay)---+
#
# Usage: dumbbell run hetero.tcl scenario(ch4|ch5) N variant(red|ecn|ecnm|aecn) max_p [T]
#   ch4: access delays 145/45/5 ms, 300 Mb/s offered in total, all start at 0,
#        min_th = max_th / 3 with max_th 30 (the chapter varies them);
#   ch5: access delays 95/45/20 ms, 90 Mb/s in total, min_th 10, max_th 30,
#        half of each group starts at 0 s and half at 2 s.
#   N flows, split equally into the three groups (fragile first); 1000-byte
#   packets, window 64.  red: drops only; ecn: RED marking ECN-capable flows;
#   ecnm: marks also above max_th (drops only on overflow); aecn or
#   aecn:A:B: AECN (per-group max_p and mark-front, seed 001 Algorithm 5.1).
# Prints one line per flow "FLOW i group acked locked N" (N: seconds after
# 5 s in which the flow's cumulative ACK did not move) and a "QUEUE" line
# with the bottleneck's departures, drops, marks and mean queueing delay.

lassign $argv scenario N variant maxp
# Defaults of the paper's ns-2 version (see ../old-defaults.tcl).
source [file join [file dirname [info script]] .. old-defaults.tcl]
set T [expr {$argc > 4 ? [lindex $argv 4] : 100}]
set ns [new Simulator]
set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 10Mb 5ms RED
$ns queue-limit $r $d 120
set q [[$ns link $r $d] queue]
$q set maxthresh_ 30
$q set thresh_ [expr {$scenario eq "ch4" ? 10 : 10}]
$q set linterm_ [expr {1.0 / $maxp}]
$q set q_weight_ 0.002
set ecn [expr {$variant ne "red"}]
$q set setbit_ $ecn
if {$variant eq "ecnm"} { $q set ecnm_ true }
if {[string match aecn* $variant]} {
    # aecn or aecn:A:B (fragile max_p = max_p / A, robust = max_p * B)
    $q set aecn_ true
    lassign [split $variant :] - a b
    if {$a ne ""} { $q set aecn_a_ $a; $q set aecn_b_ $b }
}
set qmon [$ns monitor-queue $r $d ""]
set qdelay [new Samples]
$qmon set-delay-samples $qdelay

if {$scenario eq "ch4"} {
    set delays {145ms 45ms 5ms}
    set total 300e6
} else {
    set delays {95ms 45ms 20ms}
    set total 90e6
}
set per [expr {$N / 3}]
set access_bw [expr {$total / $N}]
set names {fragile average robust}
for {set i 0} {$i < $N} {incr i} {
    set g [expr {$i / $per}]
    if {$g > 2} { set g 2 }
    set grp($i) [lindex $names $g]
    set s [$ns node]
    $ns duplex-link $s $r $access_bw [lindex $delays $g] DropTail
    $ns queue-limit $s $r 1000
    set tcp($i) [$ns create-connection TCP/Reno $s TCPSink $d $i]
    $tcp($i) set window_ 64
    $tcp($i) set packetSize_ 1000
    $tcp($i) set ecn_ $ecn
    set ftp($i) [$tcp($i) attach-app FTP]
    set start 0.0
    if {$scenario eq "ch5" && ($i % $per) >= $per / 2} { set start 2.0 }
    $ns at $start "$ftp($i) start"
}
# Lockout: every second after the first 5 s, count the flows whose
# cumulative ACK did not move during that second.
proc lockout {} {
    global ns N tcp last locked
    for {set i 0} {$i < $N} {incr i} {
        set a [$tcp($i) set ack_]
        if {[info exists last($i)] && $a == $last($i)} { incr locked($i) }
        set last($i) $a
    }
    $ns at [expr {[$ns now] + 1.0}] lockout
}
for {set i 0} {$i < $N} {incr i} { set locked($i) 0 }
$ns at 5.0 lockout
proc finish {} {
    global N tcp grp qmon qdelay locked
    for {set i 0} {$i < $N} {incr i} {
        puts "FLOW $i $grp($i) [expr {[$tcp($i) set ack_] + 1}] locked $locked($i)"
    }
    puts "QUEUE departures [$qmon set pdepartures_] drops [$qmon set pdrops_] marks [$qmon set pmarks_] delay_ms [expr {1000.0 * [$qdelay mean]}]"
    exit 0
}
$ns at $T finish
$ns run
