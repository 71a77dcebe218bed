set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 20ms RED
set q [[$ns link $n0 $n1] queue]
$q set q_weight_ 1
$q set cautious_ 2
set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp start"
$ns at 2 "puts done; exit 0"
$ns run
