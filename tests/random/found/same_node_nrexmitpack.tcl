# A TCP sender and its sink on the same node: ns-2 delivers the packet and
# the ACK re-entrantly inside the sender's output loop and counts 10
# "retransmitted" packets; Dumbbell counts none.  (With Agent/TCP/Newreno
# ns-2 itself dies with SIGFPE, so the generator never puts both ends of a
# flow on one node.)
set ns [new Simulator]
set n0 [$ns node]
set tcp [new Agent/TCP]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp produce 10"
$ns at 5 "puts \"\[$tcp set ack_\] \[$tcp set nrexmitpack_\] \[$tcp set ndatapack_\]\""
$ns at 6 "exit 0"
$ns run
