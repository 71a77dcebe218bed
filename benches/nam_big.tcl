# 10 Reno flows through a 10 Mb/s RED bottleneck for 120 s with nam output: the large run of
# docs/animate.md (a 315 MB nam file; `dumbbell run benches/nam_big.tcl && dumbbell animate big.nam`).
set ns [new Simulator]
set nf [open big.nam w]
$ns namtrace-all $nf
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 20ms RED
$ns queue-limit $r1 $r2 100
for {set i 0} {$i < 10} {incr i} {
    $ns color $i [lindex {red blue green orange purple brown magenta cyan gold navy} $i]
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb [expr 1 + $i]ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 2ms DropTail
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ 200
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
$ns at 120.0 "finish"
proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns run
