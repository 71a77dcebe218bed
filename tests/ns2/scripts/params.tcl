# params.tcl -- TCP parameters: class defaults vs per-object settings.
#
#   s0..s3 --(10Mb, 1/3/5/7ms)-- r --(1.5Mb, 25ms, DropTail 16)-- d
#
# The class defaults window_, packetSize_, windowInit_ and tcpTick_ come
# from the command line; minrto_ and maxburst_ are fixed class defaults.
#   flow 0 (Reno)     class defaults only
#   flow 1 (Reno)     per-object window_ 8 (window-limited), packetSize_ 1460
#   flow 2 (Newreno)  per-object windowInit_ 1, maxburst_ 0 (unlimited burst),
#                     window_ 64, DelAck sink
#   flow 3 (Tahoe)    created after "Agent/TCP set window_ 100": a class
#                     default changed later only affects objects created
#                     afterwards, flows 0-2 keep their values
# The finish proc prints each flow's window_/packetSize_/windowInit_ and its
# counters.
#
# Usage: ns params.tcl window packetSize windowInit tcpTick [endtime]
# Writes params.tr (trace-all) and cwnd.tr (cwnd_ and srtt_ of all flows).

if { $argc < 4 } {
    puts stderr "usage: ns params.tcl window packetSize windowInit tcpTick \[endtime\]"
    exit 1
}
set endtime 10
if { $argc >= 5 } { set endtime [lindex $argv 4] }

Agent/TCP set window_     [lindex $argv 0]
Agent/TCP set packetSize_ [lindex $argv 1]
Agent/TCP set windowInit_ [lindex $argv 2]
Agent/TCP set tcpTick_    [lindex $argv 3]
Agent/TCP set minrto_ 0.5
Agent/TCP set maxburst_ 4
Agent/TCP set overhead_ 0

set ns [new Simulator]
set tf [open params.tr w]
$ns trace-all $tf
set cf [open cwnd.tr w]

set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 1.5Mb 25ms DropTail
$ns queue-limit $r $d 16

proc mkflow {i type sinktype} {
    global ns n tcp sink ftp cf
    set tcp($i) [new Agent/$type]
    $tcp($i) set fid_ $i
    set sink($i) [new Agent/$sinktype]
    return $tcp($i)
}
proc wire {i} {
    global ns n tcp sink ftp cf d
    $ns attach-agent $n($i) $tcp($i)
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    $tcp($i) attach $cf
    $tcp($i) trace cwnd_
    $tcp($i) trace srtt_
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
}

for {set i 0} {$i < 4} {incr i} {
    set n($i) [$ns node]
    $ns duplex-link $n($i) $r 10Mb [expr 1 + 2 * $i]ms DropTail
}

mkflow 0 TCP/Reno TCPSink
mkflow 1 TCP/Reno TCPSink
$tcp(1) set window_ 8
$tcp(1) set packetSize_ 1460
mkflow 2 TCP/Newreno TCPSink/DelAck
$tcp(2) set windowInit_ 1
$tcp(2) set maxburst_ 0
$tcp(2) set window_ 64
Agent/TCP set window_ 100
mkflow 3 TCP TCPSink
for {set i 0} {$i < 4} {incr i} {
    wire $i
    $ns at [expr 0.25 * $i] "$ftp($i) start"
}

proc finish {} {
    global ns tf cf tcp sink
    for {set i 0} {$i < 4} {incr i} {
        set t $tcp($i)
        puts [format "flow %d %s: window_ %s packetSize_ %s windowInit_ %s maxburst_ %s | ack_ %d maxseq_ %d ndatapack_ %d nrexmitpack_ %d bytes_ %d" \
            $i [$t info class] [$t set window_] [$t set packetSize_] [$t set windowInit_] [$t set maxburst_] \
            [$t set ack_] [$t set maxseq_] [$t set ndatapack_] [$t set nrexmitpack_] [$sink($i) set bytes_]]
    }
    $ns flush-trace
    close $tf
    close $cf
    exit 0
}
$ns at $endtime "finish"
$ns run
