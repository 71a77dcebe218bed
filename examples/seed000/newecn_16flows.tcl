# Seed 000 (Hamann, New-ECN), section 4.2.3: 16 New-ECN TCP-Reno flows, two
# from each of 8 sources (Tables 4.7 and 4.8), max_p 0.2, link 9 at 10 Mb/s.
#
# Usage: dumbbell run newecn_16flows.tcl [option=8] [linterm=5] [T=60]
#   option 8: New-ECN; option 1: plain ECN TCP-Reno.
# Prints "FLOW i acked" (packets acknowledged from 15 s to the end).

set option 8; set linterm 5; set T 60
foreach a $argv { lassign [split $a =] k v; set $k $v }
# Defaults of the paper's ns-2 version (see ../old-defaults.tcl).
source [file join [file dirname [info script]] .. old-defaults.tcl]

set ns [new Simulator]
set r1 [$ns node]
set d [$ns node]
$ns duplex-link $r1 $d 10Mb 1ms RED
$ns queue-limit $r1 $d 500
$ns queue-limit $d $r1 500
set redq [[$ns link $r1 $d] queue]
$redq set setbit_ true
$redq set linterm_ $linterm
$redq set thresh_ 10
$redq set maxthresh_ 20
$redq set q_weight_ 0.002
Agent/TCP set tcpTick_ 0.01
Agent/TCP set windowOption_ $option
Agent/TCPSink set windowOptionS_ $option

set delays {44ms 34ms 28ms 24ms 14ms 9ms 9ms 4ms}
set starts {0.0 0.25 0.5 0.75 2.0 2.25 2.5 2.75 4.0 4.25 4.5 4.75 6.0 6.25 6.5 6.75}
for {set s 1} {$s <= 8} {incr s} {
    set src($s) [$ns node]
    $ns duplex-link $src($s) $r1 10Mb [lindex $delays [expr {$s - 1}]] DropTail
}
for {set i 1} {$i <= 16} {incr i} {
    set s [expr {($i - 1) % 8 + 1}]
    set tcp($i) [$ns create-connection TCP/Reno $src($s) TCPSink $d [expr {$i - 1}]]
    $tcp($i) set window_ 128
    $tcp($i) set ecn_ 1
    $tcp($i) set packetSize_ 512
    $ns at [lindex $starts [expr {$i - 1}]] "[$tcp($i) attach-app FTP] start"
}
proc mark {} { global tcp at; for {set i 1} {$i <= 16} {incr i} { set at($i) [$tcp($i) set ack_] } }
proc finish {} {
    global tcp at
    for {set i 1} {$i <= 16} {incr i} { puts "FLOW $i [expr {[$tcp($i) set ack_] - $at($i)}]" }
    exit 0
}
$ns at 15.0 mark
$ns at $T finish
$ns run
