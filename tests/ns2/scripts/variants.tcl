# variants.tcl -- one-way TCP loss recovery: Tahoe / Reno / NewReno sender
# against an ACK-every-packet sink or a delayed-ACK sink.
#
#   S --(10Mb, 5ms)-- R --(1Mb, 40ms, DropTail 8)-- D
#
# window_ 64 with a short buffer makes slow start overshoot badly, so the
# first loss event drops a burst of packets from one window: Tahoe falls
# back to slow start, Reno usually times out after a second loss within
# fast recovery, NewReno stays in fast recovery using partial ACKs.
# Later teeth are single-loss events.  A second, late-starting Reno flow
# (from S2 at t=6) adds cross traffic so the later losses are less regular.
#
# Usage: ns variants.tcl tahoe|reno|newreno sink|delack [endtime]
#
# Writes: out.tr   trace-all (packet events on every link)
#         vars.tr  variable traces of the measured flow (cwnd_ ssthresh_
#                  ack_ maxseq_ srtt_ rtt_ rttvar_ dupacks_ t_seqno_
#                  backoff_), attached to a separate file
# Prints final counters of both flows.

if { $argc < 2 } {
    puts stderr "usage: ns variants.tcl tahoe|reno|newreno sink|delack \[endtime\]"
    exit 1
}
set variant [lindex $argv 0]
set sinktype [lindex $argv 1]
set endtime 20
if { $argc >= 3 } { set endtime [lindex $argv 2] }

switch $variant {
    tahoe   { set tcpclass Agent/TCP }
    reno    { set tcpclass Agent/TCP/Reno }
    newreno { set tcpclass Agent/TCP/Newreno }
    default { puts stderr "unknown variant $variant"; exit 1 }
}
switch $sinktype {
    sink    { set sinkclass Agent/TCPSink }
    delack  { set sinkclass Agent/TCPSink/DelAck }
    default { puts stderr "unknown sink $sinktype"; exit 1 }
}

set ns [new Simulator]
# trace-all must be in place before the links are built
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]

set S  [$ns node]
set S2 [$ns node]
set R  [$ns node]
set D  [$ns node]
$ns duplex-link $S  $R 10Mb 5ms DropTail
$ns duplex-link $S2 $R 10Mb 12ms DropTail
$ns duplex-link $R  $D 1Mb 40ms DropTail
$ns queue-limit $R $D 8

# the flow under test
set tcp [new $tcpclass]
$tcp set window_ 64
$tcp set fid_ 1
$ns attach-agent $S $tcp
set sink [new $sinkclass]
$ns attach-agent $D $sink
$ns connect $tcp $sink

$tcp attach $vf
foreach v {cwnd_ ssthresh_ ack_ maxseq_ srtt_ rtt_ rttvar_ dupacks_ t_seqno_ backoff_} {
    $tcp trace $v
}

# a background Reno flow that starts later
set tcp2 [new Agent/TCP/Reno]
$tcp2 set window_ 32
$tcp2 set fid_ 2
$ns attach-agent $S2 $tcp2
set sink2 [new Agent/TCPSink]
$ns attach-agent $D $sink2
$ns connect $tcp2 $sink2

set ftp [new Application/FTP]
$ftp attach-agent $tcp
set ftp2 [new Application/FTP]
$ftp2 attach-agent $tcp2

proc report {name t s} {
    puts [format "%s ack=%d maxseq=%d cwnd=%.3f ssthresh=%d ndatapack=%d nrexmitpack=%d sinkbytes=%d" \
        $name [$t set ack_] [$t set maxseq_] [$t set cwnd_] [$t set ssthresh_] \
        [$t set ndatapack_] [$t set nrexmitpack_] [$s set bytes_]]
}

proc finish {} {
    global ns tf vf tcp sink tcp2 sink2 variant sinktype
    puts "$variant/$sinktype at [$ns now]"
    report flow1 $tcp $sink
    report flow2 $tcp2 $sink2
    $ns flush-trace
    close $tf
    close $vf
    exit 0
}

$ns at 0.0 "$ftp start"
$ns at 6.0 "$ftp2 start"
$ns at $endtime "finish"
$ns run
