# onoff.tcl -- flows that start and stop at different times, and FTP
# sources that send a fixed number of packets (produce / producemore).
#
#   n0, n1, n2, n3 --(10Mb, 2..8ms)-- r --(2Mb, 20ms, DropTail 20)-- d
#
# flow 1 (Reno, n0):    FTP start at 0.0, stop at 6.0, start again at 9.0
# flow 2 (Newreno, n1): FTP start at 1.5, runs to the end
# flow 3 (Tahoe, n2):   "produce 300" at 2.0 (send up to packet 300 and
#                       stop), then "producemore 200" at 8.0
# flow 4 (Reno, n3, DelAck sink): "produce 50" at 0.5, "producemore 100"
#                       at 4.0, "producemore 100" at 4.5, "stop" at 11.0
# Every second a sampler prints [$ns now] and the ack_ of each flow.
#
# Usage: ns onoff.tcl [endtime]        (default 14)
# Writes onoff.tr (trace-all) and seq.tr (var traces of ack_, t_seqno_ and
# cwnd_ of flows 3 and 4).

set endtime 14
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 30
Agent/TCP set packetSize_ 960

set ns [new Simulator]
set tf [open onoff.tr w]
$ns trace-all $tf
set sf [open seq.tr w]

set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 2Mb 20ms DropTail
$ns queue-limit $r $d 20
set types {TCP/Reno TCP/Newreno TCP TCP/Reno}
set sinks {TCPSink TCPSink TCPSink TCPSink/DelAck}
for {set i 0} {$i < 4} {incr i} {
    set n($i) [$ns node]
    $ns duplex-link $n($i) $r 10Mb [expr 2 + 2 * $i]ms DropTail
    set f [expr $i + 1]
    set tcp($f) [new Agent/[lindex $types $i]]
    $tcp($f) set fid_ $f
    $ns attach-agent $n($i) $tcp($f)
    set sink($f) [new Agent/[lindex $sinks $i]]
    $ns attach-agent $d $sink($f)
    $ns connect $tcp($f) $sink($f)
    set ftp($f) [new Application/FTP]
    $ftp($f) attach-agent $tcp($f)
}
foreach f {3 4} {
    $tcp($f) attach $sf
    $tcp($f) tracevar ack_
    $tcp($f) tracevar t_seqno_
    $tcp($f) tracevar cwnd_
}

$ns at 0.0  "$ftp(1) start"
$ns at 6.0  "$ftp(1) stop"
$ns at 9.0  "$ftp(1) start"
$ns at 1.5  "$ftp(2) start"
$ns at 2.0  "$ftp(3) produce 300"
$ns at 8.0  "$ftp(3) producemore 200"
$ns at 0.5  "$ftp(4) produce 50"
$ns at 4.0  "$ftp(4) producemore 100"
$ns at 4.5  "$ftp(4) producemore 100"
$ns at 11.0 "$ftp(4) stop"

proc sample {} {
    global ns tcp
    set now [$ns now]
    set line [format "t=%.1f" $now]
    foreach f {1 2 3 4} {
        append line " [$tcp($f) set ack_]"
    }
    puts $line
    $ns at [expr $now + 1.0] "sample"
}
$ns at 1.0 "sample"

proc finish {} {
    global ns tf sf tcp sink
    foreach f {1 2 3 4} {
        puts "flow $f: ack_ [$tcp($f) set ack_] maxseq_ [$tcp($f) set maxseq_] ndatapack_ [$tcp($f) set ndatapack_] nrexmitpack_ [$tcp($f) set nrexmitpack_] bytes_ [$sink($f) set bytes_]"
    }
    $ns flush-trace
    close $tf
    close $sf
    exit 0
}
$ns at $endtime "finish"
$ns run
