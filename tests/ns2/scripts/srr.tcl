# Smoothed round robin (Queue/SRR) beyond ns-2's srr test: TCP and CBR
# flows of several packet sizes, some larger than the quantum (mtu_), two
# flows sharing a queue, rates set by command and a granularity variable,
# the queue limit, a rate changed mid-run (taken when the queue is next
# busy), a queue monitor sampling the queue.
#   ns srr.tcl MTU LIMIT
set mtu [lindex $argv 0]
set lim [lindex $argv 1]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set s0 [$ns node]; set s1 [$ns node]; set r [$ns node]; set k [$ns node]
$ns duplex-link $s0 $r 10Mb 2ms DropTail
$ns duplex-link $s1 $r 10Mb 5ms DropTail
$ns simplex-link $r $k 400kb 10ms SRR
$ns simplex-link $k $r 400kb 10ms DropTail
$ns queue-limit $r $k $lim
set q [[$ns link $r $k] queue]
$q set granularity_ 5000
$q mtu $mtu
$q maxqueuenumber 8
foreach {flow queue} {1 0 2 1 3 2 4 2 5 3 6 4} { $q setqueue $flow $queue }
foreach {queue rate} {0 160000 1 80000 2 40000 3 20000 4 5000} { $q setrate $queue $rate }

proc tcp {src fid size start} {
    global ns k
    set t [$ns create-connection TCP/Reno $src TCPSink $k $fid]
    $t set window_ 30
    $t set packetSize_ $size
    $ns at $start "[$t attach-app FTP] start"
}
proc cbr {src fid rate size start stop} {
    global ns k
    set u [$ns create-connection UDP $src Null $k $fid]
    set c [$u attach-app Traffic/CBR]
    $c set rate_ $rate
    $c set packetSize_ $size
    $c set random_ 1
    $ns at $start "$c start"
    $ns at $stop "$c stop"
}
tcp $s0 1 1000 0.0
tcp $s1 2 500 0.2
cbr $s0 3 150kb 300 0.5 9.0
cbr $s1 4 100kb 1200 1.0 8.0
tcp $s1 5 1500 2.0
cbr $s0 6 200kb 200 3.0 6.0
$ns at 5.0 "$q setrate 4 60000"
set qm [$ns monitor-queue $r $k [open qm.tr w] 0.25]
[$ns link $r $k] queue-sample-timeout
$ns at 10.0 {
    $ns flush-trace
    close $tf
    exit 0
}
$ns run
