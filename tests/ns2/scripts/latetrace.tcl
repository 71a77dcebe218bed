# latetrace.tcl -- what "$ns trace-all" covers when it is called late.
#
#   a --(10Mb,5ms)-- r --(1Mb,20ms, q 10)-- b --(10Mb,5ms)-- c
#
# A common mistake in ns-2 scripts: trace-all only takes effect for links
# created AFTER it is called (simplex-link looks the trace-all file up when
# it builds the link).  Here a--r and r--b are created before trace-all and
# b--c after it, so late.tr only holds the packet events of the b--c link,
# although the flow a -> c crosses all three.  The variable trace
# (attach + trace cwnd_) is independent of trace-all and is complete.
# "$ns flush-trace" then flushes only the traces that exist.
#
# Usage: ns latetrace.tcl [endtime]        (default 8)
# Writes late.tr.

set endtime 8
if { $argc >= 1 } { set endtime [lindex $argv 0] }

set ns [new Simulator]
set a [$ns node]
set r [$ns node]
set b [$ns node]
set c [$ns node]
$ns duplex-link $a $r 10Mb 5ms DropTail
$ns duplex-link $r $b 1Mb 20ms DropTail
$ns queue-limit $r $b 10

# too late for the two links above
set tf [open late.tr w]
$ns trace-all $tf

$ns duplex-link $b $c 10Mb 5ms DropTail

set tcp [new Agent/TCP/Reno]
$tcp set window_ 30
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $c $sink
$ns connect $tcp $sink
$tcp attach $tf
$tcp trace cwnd_

set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"

proc finish {} {
    global ns tf tcp sink
    puts "ack_ [$tcp set ack_] nrexmitpack_ [$tcp set nrexmitpack_] bytes_ [$sink set bytes_]"
    $ns flush-trace
    close $tf
    exit 0
}
$ns at $endtime "finish"
$ns run
