# tcpip_base_hdr_size_ 0 makes the first ("SYN") packet 0 bytes long; ns-2's
# Acker::update prints "Error, received TCP packet size <= 0" on stdout for it.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP]
$tcp set tcpip_base_hdr_size_ 0
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp produce 2"
$ns at 1 "puts \[$sink set bytes_\]"
$ns at 1 "exit 0"
$ns run
