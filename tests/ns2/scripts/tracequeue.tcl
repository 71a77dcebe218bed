# tracequeue.tcl -- packet tracing of the bottleneck link only.
#
#   s0, s1, s2 --(100Mb, 1/10/20ms)-- r1 --(3Mb, 15ms, DropTail 25)-- r2 -- d
#
# No trace-all: "$ns trace-queue $r1 $r2 $f" records +, -, d and r events
# of the r1->r2 direction only (the ACK direction r2->r1 and the access
# links are not traced).  Three Newreno flows with staggered starts.
#
# Usage: ns tracequeue.tcl [endtime]        (default 30)
# Writes bottleneck.tr.

set endtime 30
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 100
Agent/TCP set packetSize_ 1460

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
set d  [$ns node]
$ns duplex-link $r1 $r2 3Mb 15ms DropTail
$ns duplex-link $r2 $d 100Mb 1ms DropTail
$ns queue-limit $r1 $r2 25

set delays {1 10 20}
for {set i 0} {$i < 3} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb [lindex $delays $i]ms DropTail
    set tcp($i) [new Agent/TCP/Newreno]
    $tcp($i) set fid_ $i
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 + 1.7 * $i] "$ftp($i) start"
}

# trace the bottleneck queue only
set qf [open bottleneck.tr w]
$ns trace-queue $r1 $r2 $qf

proc finish {} {
    global ns qf tcp sink
    for {set i 0} {$i < 3} {incr i} {
        puts "flow $i: ack_ [$tcp($i) set ack_] bytes_ [$sink($i) set bytes_]"
    }
    $ns flush-trace
    close $qf
    exit 0
}
$ns at $endtime "finish"
$ns run
