# Agent/Ping: oneway reports, several pings in flight, packetSize_, losses
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 100Kb 25ms DropTail
$ns duplex-link $n3 $n1 10Mb 2ms DropTail
$ns queue-limit $n1 $n2 3
Agent/Ping instproc recv {from args} {
    $self instvar node_
    puts "[[Simulator instance] now] node [$node_ id]: from $from $args"
}
set p0 [new Agent/Ping]; $ns attach-agent $n0 $p0
set p2 [new Agent/Ping]; $ns attach-agent $n2 $p2
set p3 [new Agent/Ping]; $ns attach-agent $n3 $p3
set p2b [new Agent/Ping]; $ns attach-agent $n2 $p2b
$ns connect $p0 $p2
$ns connect $p3 $p2b
$p0 oneway
$p3 set packetSize_ 500
$p3 set fid_ 3
puts "[$p3 set packetSize_] [$p0 set packetSize_]"
for {set i 0} {$i < 8} {incr i} {
    $ns at [expr 0.3 + $i*0.011] "$p0 send"
    $ns at [expr 0.1 + $i*0.002] "$p3 send"
}
$ns at 0.5 "$p2 send; $p2b send"
if {$mode eq "bcast"} { $ns at 0.7 "$p0 start-WL-brdcast" }
$ns at 1.0 "$ns flush-trace; exit 0"
$ns run
