# On/off sources (Application/Traffic/Exponential, /Pareto) over UDP, with
# a TCP flow beside them through one bottleneck.
#   ns onoff_sources.tcl exp|pareto|both ?rng?
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 10ms DropTail
$ns queue-limit $n2 $n3 20
lassign $argv mode userng
proc source {cls node i} {
    global ns n3 userng
    set udp [new Agent/UDP]
    $ns attach-agent $node $udp
    set null [new Agent/Null]
    $ns attach-agent $n3 $null
    $ns connect $udp $null
    $udp set fid_ $i
    set s [new Application/Traffic/$cls]
    $s attach-agent $udp
    if {$userng eq "rng"} {
        set r [new RNG]
        $r seed [expr {$i * 17 + 3}]
        $s use-rng $r
    }
    return $s
}
set srcs {}
if {$mode eq "exp" || $mode eq "both"} {
    set e [source Exponential $n0 1]
    $e set burst_time_ 200ms
    $e set idle_time_ 100ms
    $e set rate_ 800k
    $e set packetSize_ 500
    lappend srcs $e
    puts "exp: [$e set burst_time_] [$e set idle_time_] [$e set rate_] [$e set packetSize_]"
}
if {$mode eq "pareto" || $mode eq "both"} {
    set p [source Pareto $n1 2]
    $p set shape_ 1.2
    $p set rate_ 1Mb
    lappend srcs $p
    puts "pareto: [$p set burst_time_] [$p set idle_time_] [$p set rate_] [$p set packetSize_] [$p set shape_]"
}
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
foreach s $srcs { $ns at 0.5 "$s start"; $ns at 6.0 "$s stop"; $ns at 7.0 "$s start" }
$ns at 10.0 "finish"
proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "tcp acked [$tcp set ack_]; next random [ns-random]"
    exit 0
}
$ns run
