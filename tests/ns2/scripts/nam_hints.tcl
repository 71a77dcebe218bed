# nam output of a small wired topology with every animation hint ns-2 has:
# flow colours, link orientation / colour / label / queue position, node
# shape / colour / label / marks, colour changes and annotations during the
# run; a DropTail and a RED bottleneck that both drop.
# Usage: ns nam_hints.tcl QTYPE   (DropTail or RED for the bottleneck)
set qtype [lindex $argv 0]
set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
$ns color 3 green
set nf [open out.nam w]
$ns namtrace-all $nf
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
$n(0) shape box
$n(1) color red
$n(4) shape hexagon
$n(4) color blue
$n(5) label "sink node"
$ns duplex-link $n(0) $n(2) 2Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 2Mb 10ms DropTail
$ns duplex-link $n(2) $n(3) 1Mb 20ms $qtype
$ns duplex-link $n(3) $n(4) 2Mb 10ms DropTail
$ns simplex-link $n(3) $n(5) 2Mb 5ms DropTail
$ns simplex-link $n(5) $n(3) 2Mb 5ms DropTail
$ns duplex-link-op $n(0) $n(2) orient right-down
$ns duplex-link-op $n(1) $n(2) orient right-up
$ns duplex-link-op $n(2) $n(3) orient right
$ns duplex-link-op $n(2) $n(3) queuePos 0.5
$ns duplex-link-op $n(3) $n(4) color green
$ns duplex-link-op $n(3) $n(4) label "access"
$ns simplex-link-op $n(3) $n(5) orient down
$ns simplex-link-op $n(5) $n(3) queuePos 0.25
$ns queue-limit $n(2) $n(3) 8
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$tcp set window_ 30
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(4) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n(1) $udp
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 800
$cbr set rate_ 0.6Mb
$cbr attach-agent $udp
set null [new Agent/Null]
$ns attach-agent $n(5) $null
$ns connect $udp $null
$ns at 0.1 "$ftp start"
$ns at 0.2 "$cbr start"
$ns at 0.3 "$n(2) color orange"
$ns at 0.35 "$n(2) label congested"
$ns at 0.4 "$n(2) label {still congested}"
$ns at 0.45 "$n(3) add-mark m1 purple"
$ns at 0.5 "[$ns link $n(2) $n(3)] color red"
$ns at 0.55 "$ns trace-annotate {bottleneck busy}"
$ns at 0.6 "$n(3) delete-mark m1"
$ns at 0.6 "$n(3) delete-mark nosuch"
$ns at 0.65 "$ns set-animation-rate 2ms"
$ns at 0.7 "[$ns link $n(3) $n(4)] label-color red"
$ns at 0.7 "[$ns link $n(3) $n(4)] label-at up"
$ns at 0.7 "$n(5) label-color blue"
$ns at 0.7 "$n(5) label-at down"
$ns at 0.75 "$ns snapshot"
$ns at 0.8 "$cbr stop"
$ns at 0.9 "$ns trace-annotate done"
$ns at 1.0 "finish"
proc finish {} {
    global ns nf n
    $ns flush-trace
    close $nf
    puts "node 2 colour [$n(2) get-attribute COLOR] shape [$n(0) get-shape]"
    puts "link 2-3 [[$ns link $n(2) $n(3)] get-attribute COLOR] [[$ns link $n(2) $n(3)] get-attribute ORIENTATION]"
    exit 0
}
$ns run
