# chain.tcl -- a linear chain n0 - n1 - ... - n(N-1) of duplex links.
#
# One long Newreno flow runs end to end (n0 -> n(N-1)); every link i
# (n_i -> n_i+1) with i odd also carries a one-hop Reno flow, so the long
# flow crosses several loaded queues.  Link bandwidths alternate 2Mb/1.5Mb
# and the delays grow along the chain (2, 5, 8, ... ms), so the path mixes
# bottlenecks of different capacity.  Every link queue is limited to 12
# packets.  Default static routing sends everything along the chain.
#
# Usage: ns chain.tcl N [endtime]      (N >= 3 nodes, endtime default 10)
#
# Writes chain.tr (trace-all) and chain.nam; prints per-flow goodput.

if { $argc < 1 } {
    puts stderr "usage: ns chain.tcl N \[endtime\]"
    exit 1
}
set N [lindex $argv 0]
set endtime 10
if { $argc >= 2 } { set endtime [lindex $argv 1] }

set ns [new Simulator]
set tf [open chain.tr w]
$ns trace-all $tf
set nf [open chain.nam w]
$ns namtrace-all $nf

Agent/TCP set packetSize_ 960
Agent/TCP set window_ 40

for {set i 0} {$i < $N} {incr i} {
    set n($i) [$ns node]
}
for {set i 0} {$i < $N - 1} {incr i} {
    set bw [expr {$i % 2 == 0 ? "2Mb" : "1.5Mb"}]
    set delay [expr {2 + 3 * $i}]ms
    $ns duplex-link $n($i) $n([expr $i + 1]) $bw $delay DropTail
    $ns queue-limit $n($i) $n([expr $i + 1]) 12
    $ns queue-limit $n([expr $i + 1]) $n($i) 12
    $ns duplex-link-op $n($i) $n([expr $i + 1]) orient right
}

# the end-to-end flow
set last [expr $N - 1]
set tcp(0) [new Agent/TCP/Newreno]
$tcp(0) set fid_ 0
$ns attach-agent $n(0) $tcp(0)
set sink(0) [new Agent/TCPSink]
$ns attach-agent $n($last) $sink(0)
$ns connect $tcp(0) $sink(0)
set ftp(0) [new Application/FTP]
$ftp(0) attach-agent $tcp(0)
$ns at 0.0 "$ftp(0) start"
set flows [list 0]

# one-hop flows on the odd links, started 0.5 s apart
for {set i 1} {$i < $N - 1} {incr i 2} {
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set fid_ $i
    $ns attach-agent $n($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $n([expr $i + 1]) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.5 * $i] "$ftp($i) start"
    lappend flows $i
}
$ns color 0 Red
$ns color 1 Blue
$ns color 3 Green

proc finish {} {
    global ns tf nf tcp sink flows
    foreach f $flows {
        puts [format "flow %d: ack_ %d maxseq_ %d nrexmitpack_ %d sink bytes_ %d" \
            $f [$tcp($f) set ack_] [$tcp($f) set maxseq_] \
            [$tcp($f) set nrexmitpack_] [$sink($f) set bytes_]]
    }
    $ns flush-trace
    close $tf
    close $nf
    exit 0
}

$ns at $endtime "finish"
$ns run
