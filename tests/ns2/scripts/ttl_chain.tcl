# A TTL too small for the path: a 4-node chain, TCP with ttl_ 2, packets
# dropped by a TTL checker on the way (each link takes 1); trace-all.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
for {set i 0} {$i < 3} {incr i} { $ns duplex-link $n($i) $n([expr {$i + 1}]) 1Mb 5ms DropTail }
set tcp [new Agent/TCP]
$tcp set ttl_ [lindex $argv 0]
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(3) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 2.0 "$ns flush-trace; close $tf; puts \"ack \[$tcp set ack_\]\"; exit 0"
$ns run
