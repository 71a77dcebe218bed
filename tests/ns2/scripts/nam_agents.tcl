# nam's agent traces: add-agent-trace (an `a` line at $ns run),
# monitor-agent-trace (a monitor_agent annotation), TCP variables traced in
# nam's form (nam_tracevar_: f lines with the previous value), a UDP agent
# traced, a TCP traced into a file of its own, delete-agent-trace.
# Usage: ns nam_agents.tcl FLAVOR   (Reno, Newreno, ...)
lassign $argv flavor
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
set af [open agent.nam w]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 6
Agent/TCP set nam_tracevar_ true
proc tcpflow {i file} {
    global ns n0 n2 flavor
    set tcp [new Agent/TCP/$flavor]
    $tcp set fid_ $i
    $tcp set window_ 30
    $ns attach-agent $n0 $tcp
    set sink [new Agent/TCPSink]
    $ns attach-agent $n2 $sink
    $ns connect $tcp $sink
    if {$file eq ""} { $ns add-agent-trace $tcp tcp$i } else { $ns add-agent-trace $tcp tcp$i $file }
    $ns monitor-agent-trace $tcp
    foreach v {cwnd_ ssthresh_ rtt_ srtt_ rttvar_ backoff_ dupacks_ t_seqno_ ack_} { $tcp tracevar $v }
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at [expr 0.1 * $i] "$ftp start"
    return $tcp
}
set tcp1 [tcpflow 1 ""]
set tcp2 [tcpflow 2 $af]
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
$ns add-agent-trace $udp udp0
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 200k
$ns at 0.2 "$cbr start"
$ns at 1.5 "$ns delete-agent-trace $tcp1"
$ns at 3.0 "finish"
proc finish {} {
    global ns nf af
    $ns flush-trace
    close $nf
    close $af
    exit 0
}
$ns run
