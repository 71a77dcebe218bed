# Seed 000 (Hamann, New-ECN), section 4.3.1: one TCP-Reno flow S1 -> D,
# run three times: New-ECN, ECN, and plain (non-ECN) TCP-Reno.
#
#   S1 --(link 1: 10Mb, 14ms)-- R1 ==(link 7: 5Mb, 1ms, RED)== D
#
# RED and TCP parameters as in section 4.1 (max_p 0.1, thresholds 10/20,
# w_q 0.002, 512-byte packets, tcpTick_ 0.01, window 128).
# Usage: dumbbell run newecn_1flow.tcl newecn|ecn|reno [T=60]
# Prints: "RESULT mode=.. acked=.. sent=.. drops=.. marks=.. rate_pps=.."

set mode [lindex $argv 0]
set T [expr {$argc > 1 ? [lindex $argv 1] : 60}]
# Defaults of the paper's ns-2 version (see ../old-defaults.tcl).
source [file join [file dirname [info script]] .. old-defaults.tcl]

set ns [new Simulator]
set s1 [$ns node]
set r1 [$ns node]
set d [$ns node]
$ns duplex-link $s1 $r1 10Mb 14ms DropTail
$ns duplex-link $r1 $d 5Mb 1ms RED
$ns queue-limit $r1 $d 500
$ns queue-limit $d $r1 500
set redq [[$ns link $r1 $d] queue]
$redq set setbit_ true
$redq set linterm_ 10
$redq set thresh_ 10
$redq set maxthresh_ 20
$redq set q_weight_ 0.002
set qmon [$ns monitor-queue $r1 $d ""]

Agent/TCP set tcpTick_ 0.01
switch -- $mode {
    newecn { Agent/TCP set windowOption_ 8; Agent/TCP set newecn_ true
             Agent/TCPSink set windowOptionS_ 8; set ecn 1 }
    ecn    { set ecn 1 }
    reno   { set ecn 0 }
    default { puts stderr "mode must be newecn, ecn or reno"; exit 2 }
}
set tcp [$ns create-connection TCP/Reno $s1 TCPSink $d 0]
$tcp set window_ 128
$tcp set ecn_ $ecn
$tcp set packetSize_ 512
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
proc finish {} {
    global ns tcp qmon mode T
    puts [format "RESULT mode=%s acked=%d sent=%d drops=%d marks=%d rate_pps=%.1f" $mode \
        [expr {[$tcp set ack_] + 1}] [$tcp set ndatapack_] [$qmon set pdrops_] [$qmon set pmarks_] \
        [expr {([$tcp set ack_] + 1) / double($T)}]]
    exit 0
}
$ns at $T finish
$ns run
