# Queue/XCP's virtual queues start with the class defaults of the moment
# the XCP queue is made (ns-2 makes them with `new`): `Queue set limit_`
# for all three, Queue/DropTail's drop_front_, queue_in_bytes_ and
# mean_pktsize_ for the XCP packets' Queue/DropTail/XCPQ.  Argument: the
# setting to make before the links ("bytes", "front", "limit"; "none").
set which [lindex $argv 0]
switch -- $which {
    bytes { Queue/DropTail set queue_in_bytes_ true; Queue/DropTail set mean_pktsize_ 300 }
    front { Queue/DropTail set drop_front_ true; Queue set limit_ 6 }
    limit { Queue set limit_ 6 }
}
set ns [new Simulator]
set tf [open xcp_vq.tr w]
$ns trace-all $tf
for {set i 0} {$i < 3} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 20ms XCP
# (after the links: no effect on them)
Queue/DropTail set queue_in_bytes_ false
Queue set limit_ 50
foreach {a b} {1 2 2 1} {
    [[$ns link $n($a) $n($b)] queue] set-link-capacity 1000000
}
for {set k 0} {$k < 3} {incr k} {
    set x($k) [new Agent/TCP/Reno/XCP]
    $x($k) set window_ 40
    $x($k) set windowInit_ 12
    set xs($k) [new Agent/TCPSink/XCPSink]
    $ns attach-agent $n(0) $x($k)
    $ns attach-agent $n(2) $xs($k)
    $ns connect $x($k) $xs($k)
    $ns at [expr 0.1 + 0.001 * $k] "[$x($k) attach-app FTP] produce 80"
}
$ns at 4 "finish"
proc finish {} {
    global ns tf x
    $ns flush-trace
    close $tf
    for {set k 0} {$k < 3} {incr k} {
        puts "xcp $k ack_ [$x($k) set ack_] nrexmitpack_ [$x($k) set nrexmitpack_] cwnd_ [$x($k) set cwnd_]"
    }
    exit 0
}
$ns run
