# Two-way TCP (ns-2's FullTcp family): variant from argv (FullTcp, FullTcp/Tahoe,
# FullTcp/Newreno, FullTcp/Sack).  Two connections over a 1 Mb/s bottleneck with a
# small queue (losses), one with data both ways; a Telnet over a third; a one-way
# Reno beside them; trace-all with TCP headers, traced cwnd_, counters, done callbacks.
set variant [lindex $argv 0]
set ns [new Simulator]
Trace set show_tcphdr_ 1
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]
foreach i {0 1 2 3} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 10Mb 5ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 3ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 20ms DropTail
$ns queue-limit $n(2) $n(3) 8
$ns queue-limit $n(3) $n(2) 8

set a [new Agent/TCP/$variant]
set b [new Agent/TCP/$variant]
$ns attach-agent $n(0) $a
$ns attach-agent $n(3) $b
$a set fid_ 1
$ns connect $a $b
$b listen
$a set window_ 30
$b set window_ 30
$a attach $vf
$a trace cwnd_
$a trace ack_
set fa [$a attach-app FTP]
set fb [$b attach-app FTP]
$ns at 0.1 "$fa produce 200"
$ns at 0.5 "$fb produce 80"
$ns at 4.0 "$a close"

set c [$ns create-connection-listen TCP/$variant $n(1) TCP/$variant $n(3) 2]
$c set segsize_ 1000
$c set window_ 20
set d [$n(3) agent [$c set dst_port_]]
$d set segsize_ 1000
$d set segsperack_ 2
$ns at 0.3 "$c sendmsg 150000 MSG_EOF"

set e [new Agent/TCP/$variant]
set f [new Agent/TCP/$variant]
$ns attach-agent $n(1) $e
$ns attach-agent $n(3) $f
$ns connect $e $f
$f listen
set tel [$e attach-app Telnet]
$tel set interval_ 0.05
$ns at 0.2 "$tel start"
$ns at 3.0 "$tel stop"

set r [$ns create-connection TCP/Reno $n(0) TCPSink $n(3) 3]
$r set window_ 20
set fr [$r attach-app FTP]
$ns at 0.0 "$fr start"
$ns at 4.5 "$fr stop"

Agent/TCP/$variant instproc done {} {
    global ns
    puts "[$ns now] $self done"
}
proc counters {} {
    global ns a b c d e f
    foreach t [list $a $b $c $d $e $f] {
        puts "[$ns now] $t [$t set ndatapack_] [$t set ndatabytes_] [$t set nackpack_] [$t set nrexmitpack_] [$t set cwnd_] [$t set ssthresh_] [$t set t_seqno_] [$t set ack_]"
    }
}
$ns at 2.0 "counters"
proc finish {} {
    global ns tf vf
    counters
    $ns flush-trace
    close $tf
    close $vf
    exit 0
}
$ns at 6.0 "finish"
$ns run
