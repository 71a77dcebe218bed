# sacks.tcl -- ns-2's other SACK senders, FACK (tcp/tcp-fack.cc) and rate
# halving (tcp/tcp-sack-rh.cc), against Sack1 over a shared bottleneck.
#
#   s0, s1, s2 --(10Mb, 2ms)-- r ==(1.5Mb, 20ms, DropTail, limit 12)== k
#
# Three FTP flows to TCPSink/Sack1 sinks at k: s0 TCP/Sack1, s1 TCP/Fack,
# s2 TCP/SackRH (windows 40), started 0.1 s apart, so the queue overflows
# in slow start and again later; a lossy error model (uniform, by packet,
# seeded) on r->k adds scattered drops.
#
# Usage: ns sacks.tcl endtime [opt=value ...]
#   rampdown=1   FACK ramps its window down (rampdown_)
#   div4=1       FACK quarters the window on a loss in slow start (ss-div4_)
#   loss=P       the error model's rate (default 0.01)
#   ecn=1        RED with ECN at the bottleneck instead, senders ecn_ 1
# Writes sacks.tr (trace-all) and prints each sender's counters at the end.

set endtime [lindex $argv 0]
set rampdown 0
set div4 0
set loss 0.01
set ecn 0
foreach a [lrange $argv 1 end] {
    set kv [split $a =]
    set [lindex $kv 0] [lindex $kv 1]
}

set ns [new Simulator]
set tf [open sacks.tr w]
$ns trace-all $tf

set r [$ns node]
set k [$ns node]
foreach i {0 1 2} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb 2ms DropTail
}
if {$ecn} {
    Queue/RED set setbit_ true
    $ns duplex-link $r $k 1.5Mb 20ms RED
} else {
    $ns duplex-link $r $k 1.5Mb 20ms DropTail
}
$ns queue-limit $r $k 12

set rng [new RNG]
$rng seed 7
set em [new ErrorModel]
$em set rate_ $loss
$em unit pkt
set rv [new RandomVariable/Uniform]
$rv use-rng $rng
$em ranvar $rv
$em drop-target [new Agent/Null]
$ns lossmodel $em $r $k

Agent/TCP/Fack set rampdown_ $rampdown
Agent/TCP/Fack set ss-div4_ $div4
set i 0
foreach kind {Sack1 Fack SackRH} {
    set tcp($i) [new Agent/TCP/$kind]
    $tcp($i) set window_ 40
    $tcp($i) set fid_ $i
    if {$ecn} { $tcp($i) set ecn_ 1 }
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $k $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr 0.1 * ($i + 1)] "$ftp($i) start"
    incr i
}

proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    foreach i {0 1 2} {
        puts "$i [$tcp($i) set ndatapack_] [$tcp($i) set nrexmitpack_] [$tcp($i) set ack_] [$tcp($i) set cwnd_] [$tcp($i) set ssthresh_]"
    }
    exit 0
}
$ns at $endtime "finish"
$ns run
