# Two ECN-capable Reno flows through a RED bottleneck that marks (setbit_),
# with nam output: the animation's marks come from this run.
set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
set nf [open out.nam w]
$ns namtrace-all $nf
for {set i 0} {$i < 4} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(2) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 10Mb 3ms DropTail
$ns duplex-link $n(2) $n(3) 1.5Mb 20ms RED
$ns duplex-link-op $n(0) $n(2) orient right-down
$ns duplex-link-op $n(1) $n(2) orient right-up
$ns duplex-link-op $n(2) $n(3) orient right
$ns duplex-link-op $n(2) $n(3) queuePos 0.5
$ns queue-limit $n(2) $n(3) 25
set red [[$ns link $n(2) $n(3)] queue]
$red set setbit_ true
$red set thresh_ 3
$red set maxthresh_ 10
$red set linterm_ 5
$red set q_weight_ 0.02
for {set i 0} {$i < 2} {incr i} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set ecn_ 1
    $tcp($i) set fid_ [expr $i + 1]
    $tcp($i) set window_ 40
    $ns attach-agent $n($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $n(3) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
$ns at 3.0 "finish"
proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns run
