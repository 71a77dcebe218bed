# rfc793edu.tcl -- ns-2's educational RFC 793 TCP (Agent/TCP/RFC793edu)
# with its add793*_ switches, against a Tahoe flow on the same bottleneck.
#
#   S1 --(10Mb, 5ms)--+
#                     R --(bw, 40ms, DropTail or RED, qlim)-- D
#   S2 --(10Mb, 9ms)--+
#
# The RFC793edu flow (S1) is FTP from 0.2 s; a Tahoe flow (S2, created
# after it, so its boot time is drawn after the RFC793edu sender's) starts
# at 3 s; at 12 s the RFC793edu flow stops, is reset and restarted.
# Variable traces of both senders go to vars.tr; rto_ of the RFC793edu
# sender is printed every 0.5 s; counters are printed at the end.
#
# Usage: ns rfc793edu.tcl endtime [var=value ...]
#   var=value of the RFC793edu sender (add793slowstart_=true, window_=30,
#   timestamps_=true, ecn_=true, windowOption_=0, ...), or one of
#   bw=1Mb qlim=10 queue=DropTail|RED sink=TCPSink|TCPSink/DelAck
#   tick=0.01 (tcpTick_ of both senders), class:var=value (a class default
#   of Agent/TCP/RFC793edu, set before the senders are made)
# Writes out.tr (trace-all) and vars.tr.

if { $argc < 1 } {
    puts stderr "usage: ns rfc793edu.tcl endtime \[var=value ...\]"
    exit 1
}
set endtime [lindex $argv 0]
set bw 1Mb
set qlim 10
set queue DropTail
set sinktype TCPSink
set tick 0.01
set settings {}
foreach a [lrange $argv 1 end] {
    set kv [split $a =]
    set k [lindex $kv 0]
    set v [lindex $kv 1]
    switch -glob -- $k {
        bw { set bw $v }
        qlim { set qlim $v }
        queue { set queue $v }
        sink { set sinktype $v }
        tick { set tick $v }
        class:* { Agent/TCP/RFC793edu set [string range $k 6 end] $v }
        default { lappend settings $k $v }
    }
}
Queue/RED set setbit_ true

set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]

set S1 [$ns node]
set S2 [$ns node]
set R  [$ns node]
set D  [$ns node]
$ns duplex-link $S1 $R 10Mb 5ms DropTail
$ns duplex-link $S2 $R 10Mb 9ms DropTail
$ns duplex-link $R $D $bw 40ms $queue
$ns queue-limit $R $D $qlim

set tcp [new Agent/TCP/RFC793edu]
$tcp set fid_ 1
$tcp set tcpTick_ $tick
foreach {k v} $settings {
    $tcp set $k $v
}
$ns attach-agent $S1 $tcp
set sink [new Agent/$sinktype]
$ns attach-agent $D $sink
$ns connect $tcp $sink
$tcp attach $vf
foreach v {cwnd_ ssthresh_ ack_ maxseq_ rtt_ srtt_ rttvar_ backoff_ dupacks_ t_seqno_} {
    $tcp trace $v
}

set tcp2 [new Agent/TCP]
$tcp2 set fid_ 2
$tcp2 set window_ 16
$tcp2 set tcpTick_ $tick
$ns attach-agent $S2 $tcp2
set sink2 [new Agent/TCPSink]
$ns attach-agent $D $sink2
$ns connect $tcp2 $sink2
$tcp2 attach $vf
foreach v {cwnd_ rtt_ srtt_} {
    $tcp2 trace $v
}

set ftp [new Application/FTP]
$ftp attach-agent $tcp
set ftp2 [new Application/FTP]
$ftp2 attach-agent $tcp2

proc showrto {} {
    global ns tcp
    puts "[$ns now] rto_ [$tcp set rto_] t_rtxcur [expr [$tcp set rto_] * [$tcp set tcpTick_]] backoff_ [$tcp set backoff_] cwnd_ [$tcp set cwnd_]"
    $ns at [expr [$ns now] + 0.5] showrto
}

proc restart {} {
    global ns tcp ftp
    $ftp stop
    $tcp reset
    puts "[$ns now] reset: rto_ [$tcp set rto_] cwnd_ [$tcp set cwnd_] ssthresh_ [$tcp set ssthresh_]"
    $ns at [expr [$ns now] + 0.3] "$ftp start"
}

proc finish {} {
    global ns tf vf tcp tcp2
    $ns flush-trace
    close $tf
    close $vf
    foreach t [list $tcp $tcp2] {
        set l {}
        foreach v {ndatapack_ ndatabytes_ nrexmitpack_ nrexmitbytes_ nrexmit_ nackpack_ ack_ maxseq_ cwnd_ ssthresh_ srtt_ rttvar_ backoff_} {
            lappend l "$v=[$t set $v]"
        }
        puts [join $l " "]
    }
    foreach v {add793expbackoff_ add793jacobsonrtt_ add793fastrtx_ add793slowstart_ add793additiveinc_ add793karnrtt_ add793exponinc_ syn_ rto_} {
        puts "$v [$tcp set $v]"
    }
    exit 0
}

$ns at 0.0 showrto
$ns at 0.2 "$ftp start"
$ns at 3.0 "$ftp2 start"
$ns at 12.0 restart
$ns at $endtime finish
$ns run
