# Agent/TCP/Linux flows over one bottleneck: the module (select_ca) and the
# sink from the command line, a second flow with another module and SACK,
# a third left to ns-2's own window control, trace-all and var traces.
#   ns linux_flows.tcl CC SINK QUEUE SECONDS
set cc [lindex $argv 0]
set sinkcls [lindex $argv 1]
set qtype [lindex $argv 2]
set stop [lindex $argv 3]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set vf [open vars.tr w]
foreach i {0 1 2 3 4 5} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 100Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 100Mb 7ms DropTail
$ns duplex-link $n(2) $n(3) 8Mb 15ms $qtype
$ns queue-limit $n(2) $n(3) 40
$ns duplex-link $n(3) $n(4) 100Mb 3ms DropTail
$ns duplex-link $n(3) $n(5) 100Mb 1ms DropTail
Agent/TCP set window_ 50
set t0 [$ns create-connection TCP/Linux $n(0) $sinkcls $n(4) 1]
$t0 select_ca $cc
$t0 attach $vf
$t0 trace cwnd_
$t0 trace ssthresh_
set f0 [$t0 attach-app FTP]
set t1 [$ns create-connection TCP/Linux $n(1) TCPSink/Sack1 $n(5) 2]
$ns at 0.0 "$t1 select_ca highspeed"
set f1 [$t1 attach-app FTP]
set t2 [$ns create-connection TCP/Linux $n(1) TCPSink/DelAck $n(4) 3]
$t2 set windowInit_ 4
$t2 attach $vf
$t2 trace cwnd_
set f2 [$t2 attach-app FTP]
$ns at 0.1 "$f0 start"
$ns at 1.3 "$f1 start"
$ns at 2.1 "$f2 start"
$ns at [expr $stop / 2] "$t1 select_ca westwood"
proc finish {} {
    global ns tf vf t0 t1 t2
    foreach t [list $t0 $t1 $t2] {
        puts "[$t set ack_] [$t set cwnd_] [$t set ssthresh_] [$t set nrexmitpack_] [$t set ncwndcuts_] [$t set next_pkts_in_flight_]"
    }
    $ns flush-trace
    close $tf
    close $vf
    exit 0
}
$ns at $stop "finish"
$ns run
