# Seed 000 (Hamann, New-ECN), sections 4.3.2 and 4.3.3: TCP and ECN-TCP
# friendliness.  Six flows S_i -> D, all starting at 0 s:
#
#   S1, S4 --(10Mb, 34ms)--+
#   S2, S5 --(10Mb, 14ms)--+-- R1 ==(link 7: 10Mb, 1ms, RED)== D
#   S3, S6 --(10Mb,  1ms)--+
#
# Flows 1-3 use `first` and flows 4-6 use `second`, each one of
#   newecn  New-ECN (windowOption_ 8, newecn_, ECN, New-ECN receiver)
#   ecn     TCP-Reno with ECN
#   reno    TCP-Reno without ECN
# Usage: dumbbell run newecn_mixed.tcl first second [T=60]
# Prints "FLOW i mode acked" lines (packets acknowledged from 10 s to the end).

lassign $argv first second
set T [expr {$argc > 2 ? [lindex $argv 2] : 60}]
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
$redq set linterm_ 10
$redq set thresh_ 10
$redq set maxthresh_ 20
$redq set q_weight_ 0.002
Agent/TCP set tcpTick_ 0.01

set delays {34ms 14ms 1ms 34ms 14ms 1ms}
for {set i 1} {$i <= 6} {incr i} {
    set mode($i) [expr {$i <= 3 ? $first : $second}]
    set s [$ns node]
    $ns duplex-link $s $r1 10Mb [lindex $delays [expr {$i - 1}]] DropTail
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 128
    $tcp($i) set packetSize_ 512
    set sink($i) [new Agent/TCPSink]
    switch -- $mode($i) {
        newecn {
            $tcp($i) set ecn_ 1
            $tcp($i) set windowOption_ 8
            $tcp($i) set newecn_ true
            $sink($i) set windowOptionS_ 8
        }
        ecn { $tcp($i) set ecn_ 1 }
        reno { }
    }
    $ns attach-agent $s $tcp($i)
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    $ns at 0.0 "[$tcp($i) attach-app FTP] start"
}
proc mark10 {} {
    global tcp at10
    for {set i 1} {$i <= 6} {incr i} { set at10($i) [$tcp($i) set ack_] }
}
proc finish {} {
    global tcp mode at10
    for {set i 1} {$i <= 6} {incr i} {
        puts "FLOW $i $mode($i) [expr {[$tcp($i) set ack_] - $at10($i)}]"
    }
    exit 0
}
$ns at 10.0 mark10
$ns at $T finish
$ns run
