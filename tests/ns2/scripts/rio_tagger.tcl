set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms RED/RIO
set tg [$ns maketbtagger Fid]
$ns attach-tagger [$ns link $n0 $n1] $tg
[$tg classifier] set-flowrate 2 100000 10000 1
set f [open tag.out w]
$tg attach $f
set tcp [$ns create-connection TCP $n0 TCPSink $n2 2]
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 2.0 "$tg dump"
$ns at 3.0 "puts \[$tg flows\] ; $tg dump; close $f; exit 0"
$ns run
