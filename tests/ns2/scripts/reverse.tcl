# reverse.tcl -- two-way traffic: data and ACKs share the bottleneck queues.
#
#   a0 \                    / b0
#        ra ==(1Mb,30ms)== rb
#   a1 /                    \ b1
#
# Forward flows a0->b0 (Reno) and a1->b1 (Newreno, DelAck sink) and a
# reverse flow b0->a1 (Tahoe) that starts at 3 s and whose data packets
# queue behind / in front of the forward flows' ACKs at rb->ra (and vice
# versa at ra->rb): ACK compression and ACK drops.  The reverse flow is
# attached to node b0, which also hosts the sink of the first forward flow
# (two agents on one node).  Both directions of the bottleneck hold 10
# packets.  Variable traces of cwnd_ for all three senders go to cwnd.tr.
#
# Usage: ns reverse.tcl [endtime]       (default 12)
# Writes reverse.tr (trace-all) and cwnd.tr.

set endtime 12
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 32
Agent/TCP set packetSize_ 960

set ns [new Simulator]
set tf [open reverse.tr w]
$ns trace-all $tf
set cf [open cwnd.tr w]

set a0 [$ns node]
set a1 [$ns node]
set ra [$ns node]
set rb [$ns node]
set b0 [$ns node]
set b1 [$ns node]
$ns duplex-link $a0 $ra 10Mb 1ms DropTail
$ns duplex-link $a1 $ra 10Mb 4ms DropTail
$ns duplex-link $ra $rb 1Mb 30ms DropTail
$ns duplex-link $rb $b0 10Mb 2ms DropTail
$ns duplex-link $rb $b1 10Mb 6ms DropTail
$ns queue-limit $ra $rb 10
$ns queue-limit $rb $ra 10

set fwd0 [new Agent/TCP/Reno]
$fwd0 set fid_ 1
$ns attach-agent $a0 $fwd0
set snk0 [new Agent/TCPSink]
$ns attach-agent $b0 $snk0
$ns connect $fwd0 $snk0

set fwd1 [new Agent/TCP/Newreno]
$fwd1 set fid_ 2
$ns attach-agent $a1 $fwd1
set snk1 [new Agent/TCPSink/DelAck]
$ns attach-agent $b1 $snk1
$ns connect $fwd1 $snk1

set rev [new Agent/TCP]
$rev set fid_ 3
$rev set packetSize_ 1460
$ns attach-agent $b0 $rev
set snkr [new Agent/TCPSink]
$ns attach-agent $a1 $snkr
$ns connect $rev $snkr

foreach t [list $fwd0 $fwd1 $rev] {
    $t attach $cf
    $t trace cwnd_
}

foreach {name agent} [list f0 $fwd0 f1 $fwd1 r $rev] {
    set ftp($name) [new Application/FTP]
    $ftp($name) attach-agent $agent
}
$ns at 0.0 "$ftp(f0) start"
$ns at 0.2 "$ftp(f1) start"
$ns at 3.0 "$ftp(r) start"

proc finish {} {
    global ns tf cf fwd0 fwd1 rev snk0 snk1 snkr
    foreach {name t s} [list fwd0 $fwd0 $snk0 fwd1 $fwd1 $snk1 rev $rev $snkr] {
        puts "$name ack_ [$t set ack_] maxseq_ [$t set maxseq_] cwnd_ [$t set cwnd_] nrexmitpack_ [$t set nrexmitpack_] bytes_ [$s set bytes_]"
    }
    $ns flush-trace
    close $tf
    close $cf
    exit 0
}
$ns at $endtime "finish"
$ns run
