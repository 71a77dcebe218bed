# Link dynamics in the nam file: l ... -S DOWN/UP and v ... link-down/up
# lines, packets dropped on the link going down, with or without trace-all.
# Usage: ns nam_dynamics.tcl MODEL TRACE ROUTING
#   MODEL: manual (rtmodel-at) | det (Deterministic) | exp (Exponential) | node
#   TRACE: 1 trace-all as well, 0 nam only
#   ROUTING: static | session
lassign $argv model trace routing
set ns [new Simulator]
if {$routing eq "session"} { $ns rtproto Session }
if {$trace} { $ns trace-all [open out.tr w] }
set nf [open out.nam w]
$ns namtrace-all $nf
$ns color 1 Red
$ns color 2 Blue
for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 2Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 30ms DropTail
$ns duplex-link $n(2) $n(3) 2Mb 10ms DropTail
$ns duplex-link $n(1) $n(4) 1Mb 20ms DropTail
$ns duplex-link $n(4) $n(2) 1Mb 20ms DropTail
$ns cost $n(1) $n(4) 3
$ns cost $n(4) $n(1) 3
$ns duplex-link-op $n(0) $n(1) orient right
$ns duplex-link-op $n(1) $n(2) orient right
$ns duplex-link-op $n(2) $n(3) orient right
$ns duplex-link-op $n(1) $n(4) orient right-down
$ns duplex-link-op $n(4) $n(2) orient right-up
switch $model {
    manual {
        $ns rtmodel-at 0.8 down $n(1) $n(2)
        $ns rtmodel-at 1.4 up $n(1) $n(2)
    }
    det { $ns rtmodel Deterministic {0.3 0.5 0.3 2.0} $n(1) $n(2) }
    exp { $ns rtmodel Exponential {0.2 0.6 0.2} $n(1) $n(2) }
    node { $ns rtmodel Deterministic {0.5 0.6 0.2} $n(4) }
}
set tcp [new Agent/TCP]
$tcp set fid_ 1
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(3) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n(0) $udp
set cbr [new Application/Traffic/CBR]
$cbr set interval_ 0.01
$cbr attach-agent $udp
set null [new Agent/Null]
$ns attach-agent $n(3) $null
$ns connect $udp $null
$ns at 0.1 "$ftp start"
$ns at 0.1 "$cbr start"
$ns at 2.5 "finish"
proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns run
