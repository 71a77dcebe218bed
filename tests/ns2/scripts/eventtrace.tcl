# eventtrace.tcl -- event traces ($ns eventtrace-all): the "E" lines TCP
# senders write (SLOW_START, FAST_RETX, RENO_FAST_RETX, NEWRENO_FAST_RETX,
# NEWRENO_FAST_RECOVERY, FAST_RECOVERY, TIMEOUT) among the packet trace.
#
#   s0..s3 --(10Mb)-- r --(800Kb, 30ms, DropTail qlim)-- d
#
# Tahoe, Reno, Newreno and Sack1 senders (the last to a Sack1 sink), with
# window 40 so the small buffer forces losses and timeouts.
#
# Usage: ns eventtrace.tcl qlim [endtime]
# Writes ev.tr (trace-all and event trace in one file).

set qlim [lindex $argv 0]
set endtime [expr {$argc > 1 ? [lindex $argv 1] : 10}]
set ns [new Simulator]
set tf [open ev.tr w]
$ns trace-all $tf
$ns eventtrace-all
set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 800Kb 30ms DropTail
$ns queue-limit $r $d $qlim
set types {TCP TCP/Reno TCP/Newreno TCP/Sack1}
set sinks {TCPSink TCPSink TCPSink TCPSink/Sack1}
for {set i 0} {$i < 4} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb [expr {1 + 2 * $i}]ms DropTail
    set tcp($i) [$ns create-connection [lindex $types $i] $s($i) [lindex $sinks $i] $d $i]
    $tcp($i) set window_ 40
    $ns at [expr {0.2 * $i}] "[$tcp($i) attach-app FTP] start"
}
proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at $endtime finish
$ns run
