# A CBQ or CBQ/WRR link whose bandwidth changes, before its classes are
# inserted and during the run ($ns bandwidth, and the link's bandwidth_
# set directly), as ns-2 2.35 runs it: a class's maxrate_ is the allotment
# at the link's rate when the class is inserted (CBQueue::insert_class) or
# given a new allotment (CBQClass::newallot), while the estimator takes
# each packet's transmission time from the link's rate at the time
# (CBQClass::update, LinkDelay::txtime).  Found by tests/random seed 20184
# (--queues).
#   ns cbq_bw.tcl LINKTYPE ALGORITHM
set kind [lindex $argv 0]
set alg [lindex $argv 1]
set ns [new Simulator]
set tf [open cbq_bw.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns simplex-link $n1 $n2 1Mb 10ms $kind
$ns simplex-link $n2 $n1 1Mb 10ms DropTail
set cbql [$ns link $n1 $n2]
set root [new CBQClass]
$root setparams none 0 0.98 auto 8 2 0
set a [new CBQClass]
set qa [new Queue/DropTail]
$qa set limit_ 20
$a install-queue $qa
$a setparams $root true 0.3 auto 1 1 0
set b [new CBQClass]
set qb [new Queue/DropTail]
$qb set limit_ 20
$b install-queue $qb
$b setparams $root 0 0.5 auto 1 1 0
$cbql insert $root
$cbql insert $a
# b's maxrate_ and maxidle from 1.2 Mb/s, the others' from 1 Mb/s
$ns bandwidth $n1 $n2 1.2Mb
$cbql insert $b
$cbql bind $a 1
$cbql bind $b 2
[$cbql queue] algorithm $alg
for {set i 1} {$i <= 2} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 40
    $ns attach-agent $n0 $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $n2 $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [$tcp($i) attach-app FTP]
}
$ns at 0.0 "$ftp(1) start"
$ns at 0.3 "$ftp(2) start"
$ns at 1.5 "$ns bandwidth $n1 $n2 3Mb"
$ns at 3.0 "$ns bandwidth $n1 $n2 400kb"
# a new allotment takes the rate of the time
$ns at 3.8 "$a newallot 0.4"
$ns at 4.5 "\[\[$ns link $n1 $n2\] link\] set bandwidth_ 2Mb"
proc finish {} {
    global ns tf tcp sink
    foreach i {1 2} {
        puts "flow $i: ack_=[$tcp($i) set ack_] cwnd_=[$tcp($i) set cwnd_] bytes_=[$sink($i) set bytes_]"
    }
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 6.0 "finish"
$ns run
