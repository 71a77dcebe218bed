# qmon.tcl -- queue monitors on a DropTail bottleneck, sampled over time.
#
#   s0..s2 --(10Mb, 3/9/27ms)-- r1 --(1Mb, 20ms, DropTail 20)-- r2 --(10Mb,1ms)-- d
#
# Two ways of creating a QueueMonitor:
#  * qm1 on r1->r2: built by hand with attach-monitors and SnoopQueue/In,
#    /Out, /Drop;
#  * qm2 on the reverse (ACK) direction r2->r1: "$ns monitor-queue".
# A sampler writes [$ns now] (unformatted, so ns-2's tcl_precision shows)
# and the counters size_, pkts_, parrivals_, pdepartures_, pdrops_,
# barrivals_, bdepartures_, bdrops_ of qm1 every 0.1 s to qmon.out, and the
# counters of qm2 every second to stdout.
# The run ends with "$ns halt"; the final report is printed after
# "$ns run" returns.  No packet trace.
#
# Usage: ns qmon.tcl [endtime]            (default 20)
# Writes qmon.out.

set endtime 20
if { $argc >= 1 } { set endtime [lindex $argv 0] }

Agent/TCP set window_ 64
Agent/TCP set packetSize_ 1000

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
set d  [$ns node]
$ns duplex-link $r1 $r2 1Mb 20ms DropTail
$ns duplex-link $r2 $d 10Mb 1ms DropTail
$ns queue-limit $r1 $r2 20
$ns queue-limit $r2 $r1 20

set types {TCP/Reno TCP/Newreno TCP}
set delays {3 9 27}
for {set i 0} {$i < 3} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [lindex $delays $i]ms DropTail
    set tcp($i) [new Agent/[lindex $types $i]]
    $tcp($i) set fid_ $i
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/TCPSink/DelAck]
    $ns attach-agent $d $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 2.0 * $i] "$ftp($i) start"
}
# the first flow pauses for a while
$ns at 8.0 "$ftp(0) stop"
$ns at 11.0 "$ftp(0) start"

# hand-made queue monitor on the forward bottleneck
set qm1 [new QueueMonitor]
[$ns link $r1 $r2] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm1

# monitor-queue on the ACK direction (its trace file is not used here)
set qm2 [$ns monitor-queue $r2 $r1 [open /dev/null w] 0.2]

set qf [open qmon.out w]

proc qline {q} {
    set out ""
    foreach v {size_ pkts_ parrivals_ pdepartures_ pdrops_ barrivals_ bdepartures_ bdrops_} {
        append out " $v=[$q set $v]"
    }
    return $out
}

proc sample {} {
    global ns qm1 qf
    puts $qf "[$ns now][qline $qm1]"
    $ns at [expr [$ns now] + 0.1] "sample"
}
$ns at 0.1 "sample"

proc report {} {
    global ns qm2
    puts "[format %.1f [$ns now]] rev:[qline $qm2]"
    $ns at [expr [$ns now] + 1.0] "report"
}
$ns at 1.0 "report"

$ns at $endtime "$ns halt"
$ns run

# "$ns run" returns after the halt
puts "halted at [$ns now]"
puts "fwd:[qline $qm1]"
puts "rev:[qline $qm2]"
for {set i 0} {$i < 3} {incr i} {
    puts "flow $i: ack_ [$tcp($i) set ack_] ndatapack_ [$tcp($i) set ndatapack_] nrexmitpack_ [$tcp($i) set nrexmitpack_] bytes_ [$sink($i) set bytes_]"
}
close $qf
exit 0
