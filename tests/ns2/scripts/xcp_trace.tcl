# XCP senders' packets in a packet trace: Agent/TCP/Reno/XCP's data and
# an active Agent/TCP/FullTcp/Newreno/XCP's are of type `xcp` (PT_XCP),
# the XCPSink's ACKs and the listening FullTcp's packets `ack`; a plain
# Reno flow beside them on its own path stays `tcp`.
set ns [new Simulator]
set tf [open xcp_trace.tr w]
$ns trace-all $tf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 5ms DropTail
$ns duplex-link $n(1) $n(2) 2Mb 10ms XCP
$ns duplex-link $n(0) $n(3) 2Mb 10ms DropTail
foreach {a b} {1 2 2 1} {
    [[$ns link $n($a) $n($b)] queue] set-link-capacity [[[$ns link $n($a) $n($b)] set link_] set bandwidth_]
}
set x [new Agent/TCP/Reno/XCP]
set xs [new Agent/TCPSink/XCPSink]
$ns attach-agent $n(0) $x
$ns attach-agent $n(2) $xs
$ns connect $x $xs
set f [new Agent/TCP/FullTcp/Newreno/XCP]
set fs [new Agent/TCP/FullTcp/Newreno/XCP]
$f set segsize_ 960
$ns attach-agent $n(0) $f
$ns attach-agent $n(2) $fs
$ns connect $f $fs
$fs listen
set r [new Agent/TCP/Reno]
set rs [new Agent/TCPSink]
$ns attach-agent $n(0) $r
$ns attach-agent $n(3) $rs
$ns connect $r $rs
$ns at 0.1 "[$x attach-app FTP] produce 40"
$ns at 0.2 "[$f attach-app FTP] produce 30"
$ns at 0.3 "[$r attach-app FTP] produce 20"
$ns at 3 "finish"
proc finish {} {
    global ns tf x xs f fs
    $ns flush-trace
    close $tf
    puts "xcp ack_ [$x set ack_] cwnd_ [$x set cwnd_] sink bytes_ [$xs set bytes_]"
    puts "fullxcp ack_ [$f set ack_] ndatapack_ [$f set ndatapack_]"
    exit 0
}
$ns run
