# Seed 000 (Hamann, New-ECN), section 4.2.1: four New-ECN TCP-Reno flows
# through a RED gateway that marks, as in the Appendix C.1 / C.2 scripts
# (reconstructed: the appendix text lost braces and line breaks).
#
#   S1..S4 --(10Mb; 1, 14, 34, 94 ms)-- R1 ==(link 7: bw, 1 ms, RED)== D
#
# Usage: dumbbell run newecn_4flows.tcl [bw=10Mb] [linterm=10] [option=8] [T=60]
#   option 8: New-ECN senders and receivers; option 1: plain ECN TCP-Reno.
# Writes tcp1.tr..tcp4.tr (cwnd_, srtt_, ack_, maxseq_ traces, as the
# paper's scripts) and samples.tr: every 0.1 s "time flow cwnd srtt slope".

set bw 10Mb; set linterm 10; set option 8; set T 60
foreach a $argv {
    lassign [split $a =] k v
    set $k $v
}
# Defaults of the paper's ns-2 version (see ../old-defaults.tcl).
source [file join [file dirname [info script]] .. old-defaults.tcl]

set ns [new Simulator]

set node_(r1) [$ns node]
set node_(d) [$ns node]
set node_(s1) [$ns node]
set node_(s2) [$ns node]
set node_(s3) [$ns node]
set node_(s4) [$ns node]
$ns duplex-link $node_(s1) $node_(r1) 10Mb 1ms DropTail
$ns duplex-link $node_(s2) $node_(r1) 10Mb 14ms DropTail
$ns duplex-link $node_(s3) $node_(r1) 10Mb 34ms DropTail
$ns duplex-link $node_(s4) $node_(r1) 10Mb 94ms DropTail
$ns duplex-link $node_(r1) $node_(d) $bw 1ms RED
$ns queue-limit $node_(r1) $node_(d) 500
$ns queue-limit $node_(d) $node_(r1) 500

set redq [[$ns link $node_(r1) $node_(d)] queue]
$redq set setbit_ true
$redq set linterm_ $linterm
$redq set thresh_ 10
$redq set maxthresh_ 20
$redq set q_weight_ 0.002

Agent/TCP set tcpTick_ 0.01
Agent/TCP set windowOption_ $option
Agent/TCPSink set windowOptionS_ $option

for {set i 1} {$i <= 4} {incr i} {
    set tcp($i) [$ns create-connection TCP/Reno $node_(s$i) TCPSink $node_(d) [expr {$i - 1}]]
    $tcp($i) set window_ 128
    $tcp($i) set ecn_ 1
    $tcp($i) set packetSize_ 512
    set ftp($i) [$tcp($i) attach-app FTP]
}

proc tracestart {} {
    global tcp trc
    for {set i 1} {$i <= 4} {incr i} {
        set trc($i) [open tcp$i.tr w]
        foreach v {cwnd_ srtt_ ack_ maxseq_} { $tcp($i) tracevar $v }
        $tcp($i) attach $trc($i)
    }
}
set sf [open samples.tr w]
proc sample {} {
    global ns tcp sf
    set now [$ns now]
    for {set i 1} {$i <= 4} {incr i} {
        puts $sf "$now $i [$tcp($i) set cwnd_] [expr {[$tcp($i) set srtt_] / 8.0 * 0.01}] [$tcp($i) set slope_window_]"
    }
    $ns at [expr {$now + 0.1}] sample
}
proc finish {} {
    global ns trc sf tcp
    $ns flush-trace
    for {set i 1} {$i <= 4} {incr i} { close $trc($i) }
    close $sf
    for {set i 1} {$i <= 4} {incr i} { puts "tcp$i ack [$tcp($i) set ack_]" }
    exit 0
}
$ns at 0.0 "tracestart"
$ns at 0.0 "sample"
# TCP 1..4 start at 0, 0.5, 1, 1.5 s (section 4.2.1)
$ns at 0.0 "$ftp(1) start"
$ns at 0.5 "$ftp(2) start"
$ns at 1.0 "$ftp(3) start"
$ns at 1.5 "$ftp(4) start"
$ns at $T "finish"
$ns run
