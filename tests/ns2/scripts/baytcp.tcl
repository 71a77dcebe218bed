# Bay Networks' two-way TCP (Agent/TCP/BayFullTcp) with its file-fetch client and
# server (Agent/BayTcpApp/FtpClient, FtpServer).  Mode from argv:
#   cycle  a client fetches a 40000-byte file over and over (each fetch: SYN, an
#          80-byte request, the file, FIN both ways; the server listens again,
#          the closed client asks anew), a second client a bigger file with
#          segsperack_ 2 and 512-byte segments, over a small bottleneck queue (losses)
#   loss   one long fetch with periodic drops of data and of ACKs, delayed ACKs at
#          50 ms, window_ 12, a plain `advance` pair beside it
#   stop   a client stopped, initial-window 3, nodelay_, iss_ 1000
#   abort  stop, and a client that closes while its response comes in (ns-2 aborts)
# trace-all with TCP headers, traced cwnd_/ack_/dupacks_, counters at the end.
set mode [lindex $argv 0]
set ns [new Simulator]
Trace set show_tcphdr_ 1
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]
foreach i {0 1 2 3} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 4ms DropTail
$ns duplex-link $n(2) $n(3) 1.5Mb 30ms DropTail
$ns queue-limit $n(2) $n(3) 10
$ns queue-limit $n(3) $n(2) 10

proc fetch {cnode snode fid size} {
    global ns
    set c [new Agent/TCP/BayFullTcp]
    set s [new Agent/TCP/BayFullTcp]
    $ns attach-agent $cnode $c
    $ns attach-agent $snode $s
    $c set fid_ $fid
    $s set fid_ $fid
    $ns connect $c $s
    $s listen
    set cli [new Agent/BayTcpApp/FtpClient]
    $c attach-application $cli
    $cli tcp $c
    set srv [new Agent/BayTcpApp/FtpServer]
    $srv file_size $size
    $s attach-application $srv
    return [list $c $s $cli]
}

proc counters {name a} {
    puts "$name cwnd=[format %.4f [$a set cwnd_]] ssthresh=[$a set ssthresh_] ack=[$a set ack_] t_seqno=[$a set t_seqno_] maxseq=[$a set maxseq_] ndatapack=[$a set ndatapack_] nackpack=[$a set nackpack_] nrexmit=[$a set nrexmit_] nrexmitpack=[$a set nrexmitpack_] nrexmitbytes=[$a set nrexmitbytes_] srtt=[$a set srtt_] rttvar=[$a set rttvar_] backoff=[$a set backoff_]"
}

if {$mode == "cycle"} {
    Agent/TCP/BayFullTcp set segsize_ 1000
    set f1 [fetch $n(3) $n(0) 1 40000]
    set s1 [lindex $f1 1]
    $s1 set window_ 20
    $s1 attach $vf
    $s1 trace cwnd_
    $s1 trace ack_
    set f2 [fetch $n(3) $n(1) 2 300000]
    set s2 [lindex $f2 1]
    $s2 set window_ 30
    $s2 set segsize_ 512
    [lindex $f2 0] set segsperack_ 2
    $ns at 0.5 "[lindex $f1 2] start"
    $ns at 0.7 "[lindex $f2 2] start"
    set end 12.0
    set show [list s1 $s1 c1 [lindex $f1 0] s2 $s2 c2 [lindex $f2 0]]
} elseif {$mode == "loss"} {
    set em [new ErrorModel/Periodic]
    $em unit pkt
    $em set period_ 37
    $em set offset_ 5
    $ns lossmodel $em $n(2) $n(3)
    set em2 [new ErrorModel/Periodic]
    $em2 unit pkt
    $em2 set period_ 23
    $ns lossmodel $em2 $n(3) $n(2)
    Agent/TCP/BayFullTcp set interval_ 50ms
    set f1 [fetch $n(0) $n(3) 1 5000000]
    set c1 [lindex $f1 0]
    set s1 [lindex $f1 1]
    $s1 set window_ 12
    $s1 set segsize_ 1460
    $s1 attach $vf
    $s1 trace cwnd_
    $s1 trace dupacks_
    $ns at 0.2 "[lindex $f1 2] start"
    set a [new Agent/TCP/BayFullTcp]
    set b [new Agent/TCP/BayFullTcp]
    $ns attach-agent $n(1) $a
    $ns attach-agent $n(3) $b
    $a set fid_ 3
    $ns connect $a $b
    $b listen
    $a set window_ 8
    $ns at 1.0 "$a advance 60"
    set end 10.0
    set show [list s1 $s1 c1 $c1 a $a b $b]
} elseif {$mode == "stop" || $mode == "abort"} {
    set f1 [fetch $n(3) $n(0) 1 30000]
    set c1 [lindex $f1 0]
    set s1 [lindex $f1 1]
    $s1 set iss_ 1000
    $s1 set nodelay_ true
    $s1 set window_ 10
    $s1 initial-window 3
    $s1 attach $vf
    $s1 trace cwnd_
    $s1 trace ack_
    $ns at 0.1 "[lindex $f1 2] start"
    $ns at 4.0 "[lindex $f1 2] stop"
    set end 15.0
    set show [list s1 $s1 c1 $c1]
    if {$mode == "abort"} {
        # a third fetch whose client closes while the response comes in:
        # the connection ends with no request pending, and ns-2 aborts
        set f3 [fetch $n(3) $n(1) 3 60000]
        $ns at 0.3 "[lindex $f3 2] start"
        $ns at 0.9 "[lindex $f3 0] close"
    }
}

proc finish {} {
    global ns tf vf show
    $ns flush-trace
    close $tf
    close $vf
    foreach {name a} $show { counters $name $a }
    exit 0
}
$ns at $end "finish"
$ns run
