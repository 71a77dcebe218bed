# nam traces of chosen links only.  Usage: ns nam_some.tcl MODE
#   queue:  no namtrace-all; namtrace-queue of one link into a file (no
#           configuration lines are written: nothing takes them)
#   some:   namtrace-some (ns-2 2.35 records the file but writes nothing by
#           itself), then namtrace-queue of one link into it
#   config: namtrace-config for the configuration lines, namtrace-all for
#           the packet events, plus one more link traced into a third file
#   twice:  namtrace-all, and one link traced again into a second file
lassign $argv mode
set ns [new Simulator]
$ns color 0 Green
set f1 [open one.nam w]
switch $mode {
    some { $ns namtrace-some $f1 }
    config {
        set fc [open config.nam w]
        $ns namtrace-config $fc
        $ns namtrace-all $f1
    }
    twice { $ns namtrace-all $f1 }
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 0.3Mb 10ms RED
$ns queue-limit $n1 $n2 6
$ns duplex-link-op $n0 $n1 orient right
$ns duplex-link-op $n1 $n2 queuePos 0.5
set f2 [open two.nam w]
switch $mode {
    queue - some { $ns namtrace-queue $n1 $n2 $f1 }
    config - twice { $ns namtrace-queue $n1 $n2 $f2 }
}
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.01
$cbr attach-agent $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
$ns at 0.1 "$cbr start"
$ns at 0.3 "$n1 color red"
$ns at 0.4 "$ns trace-annotate hello"
$ns at 0.6 "$cbr stop"
$ns at 0.7 "finish"
proc finish {} {
    global ns f1 f2
    $ns flush-trace
    close $f1
    close $f2
    exit 0
}
$ns run
