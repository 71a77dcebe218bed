# A packet no classifier can place: ns-2's no-slot handler names the
# classifier on stderr, dumps it on stdout, flushes the traces and exits 1.
#   arg "route":   a TCP sender whose sink sits on a node no link reaches
#                  (its node's address classifier misses; the dump shows
#                  the port demuxer at the node's own address)
#   arg "port":    a UDP sender aimed at a port nobody holds on a node with
#                  three agents, one detached (the demuxer's dump: agents
#                  and the null agent by port)
#   arg "own":     packets to a node with no agent at all (no demuxer: its
#                  address classifier misses its own address)
#   arg "brdcast": Agent/Ping's wireless broadcast on a wired node
set mode [lindex $argv 0]
Agent/Ping instproc recv {from rtt} {
    puts "ping reply from $from, rtt $rtt"
}
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
# A ping from node a to node b at 0.1 s; returns the sending agent.
proc ping_pair {a b} {
    set ns [Simulator instance]
    set pa [new Agent/Ping]
    $ns attach-agent $a $pa
    set pb [new Agent/Ping]
    $ns attach-agent $b $pb
    $ns connect $pa $pb
    $ns at 0.1 "$pa send"
    return $pa
}
switch $mode {
    route {
        set tcp [new Agent/TCP/Reno]
        $ns attach-agent $n0 $tcp
        set sink [new Agent/TCPSink]
        $ns attach-agent $n3 $sink
        $ns connect $tcp $sink
        set ftp [$tcp attach-app FTP]
        $ns at 0.2 "$ftp start"
        set p0 [ping_pair $n0 $n2]
    }
    port {
        set udp [new Agent/UDP]
        $ns attach-agent $n0 $udp
        set s1 [new Agent/Null]
        set s2 [new Agent/LossMonitor]
        set s3 [new Agent/TCPSink]
        $ns attach-agent $n2 $s1
        $ns attach-agent $n2 $s2
        $ns attach-agent $n2 $s3
        $ns detach-agent $n2 $s2
        $ns connect $udp $s1
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $ns at 0.1 "$cbr start"
        $ns at 0.3 "$udp set dst_port_ 9"
    }
    own {
        set udp [new Agent/UDP]
        $ns attach-agent $n0 $udp
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $udp set dst_addr_ 2
        $udp set dst_port_ 0
        $ns at 0.1 "$cbr start"
    }
    brdcast {
        set p0 [ping_pair $n0 $n2]
        $ns at 0.3 "$p0 start-WL-brdcast"
    }
}
$ns at 0.25 "puts {still running at 0.25}"
$ns at 2.0 "puts {still running at 2}; exit 0"
$ns run
