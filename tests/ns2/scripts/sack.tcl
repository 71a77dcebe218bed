# sack.tcl -- SACK TCP (Agent/TCP/Sack1) with SACK receivers.
#
#   s0..s3 --(10Mb, 1/4/7/10ms)-- r ==(bw, 20ms, qtype, qlim)== d
#
# Four Sack1 flows to Agent/TCPSink/Sack1 (flows 0, 2) or
# Agent/TCPSink/Sack1/DelAck (flows 1, 3).  Flow 1 sets partial_ack_;
# flow 2's sink reports D-SACKs (generateDSacks_) and flow 3's sink keeps
# `blocks` SACK blocks (maxSackBlocks_).  An ErrorModel/List on the
# bottleneck drops several packets of flow 0 in one window (drops "a b c"),
# so recovery has several holes to fill.  With qtype RED and ecn=1 the
# flows are ECN-capable and RED marks.
#
# Usage: ns sack.tcl endtime qtype(DropTail|RED) qlim blocks ecn "drops" [bw]
# Writes sack.tr (trace-all) and sack-cwnd.tr.

if { $argc < 6 } {
    puts stderr "usage: ns sack.tcl endtime qtype qlim blocks ecn drops \[bw\]"
    exit 1
}
lassign $argv endtime qtype qlim blocks ecn drops
set bw 1.5Mb
if { $argc >= 7 } { set bw [lindex $argv 6] }
Queue/RED set setbit_ true

set ns [new Simulator]
set tf [open sack.tr w]
$ns trace-all $tf
set cf [open sack-cwnd.tr w]

set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d $bw 20ms $qtype
$ns queue-limit $r $d $qlim

set em [new ErrorModule Fid]
set lst [new ErrorModel/List]
$lst droplist $drops
[$ns link $r $d] errormodule $em
$em insert $lst
$em bind $lst 0
$em default pass

set sinks {TCPSink/Sack1 TCPSink/Sack1/DelAck TCPSink/Sack1 TCPSink/Sack1/DelAck}
for {set i 0} {$i < 4} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb [expr {1 + 3 * $i}]ms DropTail
    set tcp($i) [new Agent/TCP/Sack1]
    $tcp($i) set fid_ $i
    $tcp($i) set window_ [expr {24 + 8 * $i}]
    $tcp($i) set ecn_ $ecn
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/[lindex $sinks $i]]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    $tcp($i) attach $cf
    $tcp($i) trace cwnd_
    $tcp($i) trace dupacks_
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr {0.23 * $i}] "$ftp($i) start"
}
$tcp(1) set partial_ack_ true
$sink(2) set generateDSacks_ true
$sink(3) set maxSackBlocks_ $blocks

proc finish {} {
    global ns tf cf tcp sink
    $ns flush-trace
    close $tf
    close $cf
    for {set i 0} {$i < 4} {incr i} {
        puts "flow $i ack [$tcp($i) set ack_] nrexmitpack [$tcp($i) set nrexmitpack_] nrexmit [$tcp($i) set nrexmit_] ncwndcuts [$tcp($i) set ncwndcuts_] partial_ack [$tcp($i) set partial_ack_] blocks [$sink($i) set maxSackBlocks_]"
    }
    exit 0
}
$ns at $endtime "finish"
$ns run
