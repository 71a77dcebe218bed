# An on/off source (Application/Traffic/Exponential or /Pareto) driving a TCP
# agent: its packets are typed exp/pareto, and their trace lines show the
# RTP sequence number (0), not the TCP one.
#   ns tcp_onoff.tcl Exponential|Pareto
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set e [new Application/Traffic/[lindex $argv 0]]
$e attach-agent $tcp
$ns at 0.1 "$e start"
$ns at 3.0 "$ns flush-trace; close $f; puts [$tcp set ack_]; exit 0"
$ns run
