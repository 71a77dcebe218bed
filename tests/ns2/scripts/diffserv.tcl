# DiffServ beyond ns-2's suite: an edge and a core dsRED queue with three
# physical queues, a scheduler and an MRED mode given as arguments, TCP
# (ECN-capable, marked when the queue's ecn_ is on) and CBR flows under
# TSW2CM (with its window), token-bucket and Null policies (one by
# wildcard), queries and tables printed along the way.
#   ns diffserv.tcl SCHEDULER MRED-MODE ECN
set sched [lindex $argv 0]
set mode [lindex $argv 1]
set ecn [lindex $argv 2]

set ns [new Simulator]
set tf [open ds.tr w]
$ns trace-all $tf

set s1 [$ns node]
set s2 [$ns node]
set s3 [$ns node]
set e1 [$ns node]
set core [$ns node]
set dest [$ns node]

$ns duplex-link $s1 $e1 10Mb 2ms DropTail
$ns duplex-link $s2 $e1 10Mb 3ms DropTail
$ns duplex-link $s3 $e1 10Mb 4ms DropTail
$ns simplex-link $e1 $core 4Mb 5ms dsRED/edge
$ns simplex-link $core $e1 4Mb 5ms DropTail
$ns simplex-link $core $dest 2Mb 10ms dsRED/core
$ns simplex-link $dest $core 2Mb 10ms DropTail
$ns queue-limit $core $dest 40

set qe [[$ns link $e1 $core] queue]
set qc [[$ns link $core $dest] queue]

foreach q [list $qe $qc] {
    $q meanPktSize 1000
    $q set numQueues_ 3
    $q set ecn_ $ecn
    $q setNumPrec 2
    $q setSchedularMode $sched
    $q setMREDMode $mode
    $q addPHBEntry 10 0 0
    $q addPHBEntry 11 0 1
    $q addPHBEntry 20 1 0
    $q addPHBEntry 21 1 1
    $q addPHBEntry 30 2 0
    $q configQ 0 0 10 20 0.05
    $q configQ 0 1 5 10 0.2 0.01
    $q configQ 1 0 8 16 0.1
    $q configQ 1 1 3 8 0.3 0.005
    $q configQ 2 0 15 30 0.02
    $q addQueueWeights 0 3
    $q addQueueWeights 1 2
    $q addQueueWeights 2 1
    $q addQueueRate 0 1200000
}
# queue 2 drops tail-style whatever the mode
$qc setMREDMode DROP 2

$qe addPolicyEntry [$s1 id] [$dest id] TSW2CM 10 800000 0.5
$qe addPolicyEntry [$s2 id] [$dest id] TokenBucket 20 600000 4000
$qe addPolicyEntry -1 -1 Null 30
$qe addPolicerEntry TSW2CM 10 11
$qe addPolicerEntry TokenBucket 20 21
$qe addPolicerEntry Null 30
$qe printPolicyTable
$qe printPolicerTable
$qc printPHBTable

Agent/TCP set ecn_ $ecn
Agent/TCP set window_ 40
set tcp1 [$ns create-connection TCP/Reno $s1 TCPSink $dest 1]
set tcp2 [$ns create-connection TCP/Newreno $s2 TCPSink $dest 2]
set ftp1 [$tcp1 attach-app FTP]
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.1 "$ftp1 start"
$ns at 0.3 "$ftp2 start"

set udp [new Agent/UDP]
$ns attach-agent $s3 $udp
$udp set fid_ 3
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packet_size_ 500
$cbr set rate_ 900Kb
set null [new Agent/Null]
$ns attach-agent $dest $null
$ns connect $udp $null
$ns at 0.2 "$cbr start"
$ns at 4.0 "$cbr stop"

proc report {} {
    global ns qe qc s2 dest
    puts "t=[$ns now] edge: pkts [$qe getStat pkts] drops [$qe getStat drops] edrops [$qe getStat edrops] cp11 [$qe getStat pkts 11]"
    puts "  core: pkts [$qc getStat pkts] drops [$qc getStat drops] edrops [$qc getStat edrops] drops21 [$qc getStat drops 21] bogus [$qc getStat nothing]"
    puts "  core q0 avg [$qc getAverage 0] cur [$qc getCurrent 0] v1 [$qc getAverageV 0 1] [$qc getCurrentV 0 1]"
    puts "  core q1 avg [$qc getAverage 1] cur [$qc getCurrent 1] q2 avg [$qc getAverage 2] cur [$qc getCurrent 2]"
    puts "  bucket [$qe getCBucket [$s2 id] [$dest id]]"
}
foreach t {1.0 2.5 4.5} {
    $ns at $t "report"
}
$ns at 3.0 "$qc printStats"
$ns at 5.0 "$qc printWRRcount; $qe printStats"
$ns at 5.0 "$ns flush-trace; close $tf; exit 0"
$ns run
