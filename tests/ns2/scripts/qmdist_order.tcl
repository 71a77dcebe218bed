# QueueMonitor distribution settings pass through an unusable state
# (maxSeqno_ 5 below the default SeqnoBinSize_ 10) before they are complete:
# ns-2 takes them in any order; only the values at the first sample matter.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set qm [new QueueMonitor]
$qm set keepSeqnoStats_ 1
$qm set maxSeqno_ 5
$qm set SeqnoBinSize_ 1
$qm set keepRTTstats_ 1
$qm set binsPerSec_ 0
$qm set binsPerSec_ 50
$qm traceDist stdout
[$ns link $n0 $n1] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm
set tcp [new Agent/TCP]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 2.0 "$qm printSeqnos; $qm printRTTs; exit 0"
$ns run
