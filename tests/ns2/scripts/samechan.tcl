# samechan.tcl -- trace-all and namtrace-all writing to the same channel.
#
#   A --(1Mb, 10ms, queue 2)-- B
#
# A CBR source sends 5 packets of 1000 bytes 1 ms apart at a 1 Mb link
# whose queue holds 2: enqueues, dequeues (each with nam's `h` line, and in
# the tagged format its own `h` line too), drops and receives.  Every
# packet event is written twice to out.tr: once in the trace format and
# once in nam's; ns-2 writes them in DequeTrace::recv's order (trace `-`,
# nam `-`, nam `h`, trace `h`).
#
# Usage: ns samechan.tcl mode
#   mode: tagged   $ns use-taggedtrace before the traces are made
#         plain    the positional trace format
# Writes out.tr.

set mode [lindex $argv 0]
set ns [new Simulator]
if {$mode eq "tagged"} { $ns use-taggedtrace }
set f [open out.tr w]
$ns trace-all $f
$ns namtrace-all $f

set A [$ns node]
set B [$ns node]
$ns duplex-link $A $B 1Mb 10ms DropTail
$ns queue-limit $A $B 2

set udp [new Agent/UDP]
$udp set fid_ 3
$ns attach-agent $A $udp
set null [new Agent/Null]
$ns attach-agent $B $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.001
$cbr set maxpkts_ 5
$cbr attach-agent $udp

proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at 0.1 "$cbr start"
$ns at 1.0 finish
$ns run
