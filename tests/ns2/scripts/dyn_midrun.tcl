# A link made dynamic while packets are in flight on it.
#   ns dyn_midrun.tcl link|rt
# link: `$link dynamic` at 1.0, then the link goes down at 1.05 and up at 1.5.
# rt:   `rtmodel-at` called at 1.0 (which makes the link dynamic then).
# The packets sent before the link turned dynamic are not in its transit
# queue: they still arrive while the link is down; later ones are dropped.
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 200ms DropTail
proc flow {src dst start} {
    global ns
    set tcp [new Agent/TCP/Reno]
    $ns attach-agent $src $tcp
    set sink [new Agent/TCPSink]
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at $start "$ftp start"
}
flow $n0 $n2 0.1
flow $n2 $n0 0.3
set mode [lindex $argv 0]
if {$mode == "link"} {
    $ns at 1.0 "[$ns link $n1 $n2] dynamic"
    $ns at 1.05 "[$ns link $n1 $n2] down"
    $ns at 1.5 "[$ns link $n1 $n2] up"
} else {
    $ns at 1.0 "$ns rtmodel-at 1.05 down $n1 $n2"
    $ns at 1.0 "$ns rtmodel-at 1.5 up $n1 $n2"
}
$ns at 4.0 "finish"
proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    puts "done at [$ns now]"
    exit 0
}
$ns run
