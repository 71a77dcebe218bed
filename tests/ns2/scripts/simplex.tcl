# simplex.tcl -- asymmetric paths built from simplex links.
#
#        s0 --> r1 --> d0            data path: s0->r1 (10Mb 5ms),
#        s1 /    \                              r1->d0 (2Mb 20ms, queue 15)
#         ^       v
#          \-- r2 <--                ACK path:  d0->r2 (64Kb 30ms, queue 15),
#                                               r2->s0, r2->s1 (10Mb 5ms)
#
# Every link is a simplex-link, so data and ACKs take different routes and
# the slow ACK path d0->r2 drops ACKs (an ADSL-like return
# path).  Two senders: s0 (Reno, ACK per packet) and s1 (Newreno, DelAck
# sink), s1 starting at 2 s.  s1->r1 is 10Mb 8ms.
#
# Usage: ns simplex.tcl [endtime]          (default 15)
# Writes simplex.tr (trace-all) and vars.tr (cwnd_, ack_, dupacks_ of s0).

set endtime 15
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 40
Agent/TCP set packetSize_ 960

set ns [new Simulator]
set tf [open simplex.tr w]
$ns trace-all $tf
set vf [open vars.tr w]

set s0 [$ns node]
set s1 [$ns node]
set r1 [$ns node]
set d0 [$ns node]
set r2 [$ns node]

$ns simplex-link $s0 $r1 10Mb 5ms DropTail
$ns simplex-link $s1 $r1 10Mb 8ms DropTail
$ns simplex-link $r1 $d0 2Mb 20ms DropTail
$ns simplex-link $d0 $r2 64Kb 30ms DropTail
$ns simplex-link $r2 $s0 10Mb 5ms DropTail
$ns simplex-link $r2 $s1 10Mb 5ms DropTail
$ns queue-limit $r1 $d0 15
$ns queue-limit $d0 $r2 15

set tcp0 [new Agent/TCP/Reno]
$tcp0 set fid_ 0
$ns attach-agent $s0 $tcp0
set sink0 [new Agent/TCPSink]
$ns attach-agent $d0 $sink0
$ns connect $tcp0 $sink0
$tcp0 attach $vf
$tcp0 tracevar cwnd_
$tcp0 tracevar ack_
$tcp0 tracevar dupacks_

set tcp1 [new Agent/TCP/Newreno]
$tcp1 set fid_ 1
$ns attach-agent $s1 $tcp1
set sink1 [new Agent/TCPSink/DelAck]
$ns attach-agent $d0 $sink1
$ns connect $tcp1 $sink1

set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0
set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1
$ns at 0.0 "$ftp0 start"
$ns at 2.0 "$ftp1 start"

proc finish {} {
    global ns tf vf tcp0 tcp1 sink0 sink1
    puts "s0: ack_ [$tcp0 set ack_] maxseq_ [$tcp0 set maxseq_] nrexmitpack_ [$tcp0 set nrexmitpack_] bytes_ [$sink0 set bytes_]"
    puts "s1: ack_ [$tcp1 set ack_] maxseq_ [$tcp1 set maxseq_] nrexmitpack_ [$tcp1 set nrexmitpack_] bytes_ [$sink1 set bytes_]"
    $ns flush-trace
    close $tf
    close $vf
    exit 0
}
$ns at $endtime "finish"
$ns run
