# qmdist.tcl -- RTT and sequence-number distributions of QueueMonitors.
#
#   s0..s3 --(10Mb, 2/8/20/45ms)-- r1 --(1.5Mb, 15ms, DropTail 25)-- r2 --(10Mb,1ms)-- d
#                                       u --(10Mb,1ms)-- r1   (CBR, not counted)
#
# Four TCP flows (Tahoe, Reno, Newreno, Reno with a coarse tcpTick_) and a
# CBR flow cross r1->r2.  Three QueueMonitors:
#  * qa on r1->r2 (attach-monitors), with the class defaults given on the
#    command line: keepRTTstats_, maxRTT_, binsPerSec_, keepSeqnoStats_,
#    maxSeqno_, SeqnoBinSize_; distributions printed to stdout every
#    `every` seconds and at the end;
#  * qb on r1->r2 as well, created at 3 s, its own settings set per object
#    (maxRTT_ 2, binsPerSec_ 7, maxSeqno_ 300, SeqnoBinSize_ 25), printing
#    into dist.out;
#  * qc on the ACK direction r2->r1 (ACKs are not TCP data: no samples;
#    printing an empty distribution is avoided, ns-2 crashes there).
# The settings are read back at the start.
#
# Usage: ns qmdist.tcl maxRTT binsPerSec maxSeqno SeqnoBinSize [endtime] [every]
# Writes dist.out.

set maxrtt [lindex $argv 0]
set bins [lindex $argv 1]
set maxseq [lindex $argv 2]
set seqbin [lindex $argv 3]
set endtime [expr {$argc > 4 ? [lindex $argv 4] : 10}]
set every [expr {$argc > 5 ? [lindex $argv 5] : 2.5}]

QueueMonitor set keepRTTstats_ true
QueueMonitor set maxRTT_ $maxrtt
QueueMonitor set binsPerSec_ $bins
QueueMonitor set keepSeqnoStats_ 1
QueueMonitor set maxSeqno_ $maxseq
QueueMonitor set SeqnoBinSize_ $seqbin
Agent/TCP set window_ 40
Agent/TCP set packetSize_ 1000

set ns [new Simulator]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
$ns duplex-link $r1 $r2 1.5Mb 15ms DropTail
$ns duplex-link $r2 $d 10Mb 1ms DropTail
$ns queue-limit $r1 $r2 25

set types {TCP TCP/Reno TCP/Newreno TCP/Reno}
set delays {2 8 20 45}
for {set i 0} {$i < 4} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [lindex $delays $i]ms DropTail
    set tcp($i) [$ns create-connection [lindex $types $i] $s($i) TCPSink $d $i]
    $ns at [expr {0.3 * $i}] "[$tcp($i) attach-app FTP] start"
}
$tcp(3) set tcpTick_ 0.1
$ns at 6.0 "$tcp(1) set tcpTick_ 0.5"

set u [$ns node]
$ns duplex-link $u $r1 10Mb 1ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $u $udp
set null [new Agent/Null]
$ns attach-agent $d $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 200Kb
$ns at 0.5 "$cbr start"

set qa [new QueueMonitor]
[$ns link $r1 $r2] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qa
$qa traceDist stdout
foreach v {keepRTTstats_ maxRTT_ binsPerSec_ keepSeqnoStats_ maxSeqno_ SeqnoBinSize_} {
    puts "qa $v [$qa set $v]"
}

set df [open dist.out w]
proc make_qb {} {
    global ns r1 r2 qb df
    set qb [new QueueMonitor]
    $qb set maxRTT_ 2
    $qb set binsPerSec_ 7
    $qb set maxSeqno_ 300
    $qb set SeqnoBinSize_ 25
    [$ns link $r1 $r2] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qb
    $qb traceDist $df
}
$ns at 3.0 make_qb

set qc [new QueueMonitor]
[$ns link $r2 $r1] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qc
$qc traceDist stdout

proc show {} {
    global ns qa qb every
    puts "-- [$ns now]"
    $qa printRTTs
    $qa printSeqnos
    if {[info exists qb]} {
        $qb printRTTs
        $qb printSeqnos
    }
    $ns at [expr {[$ns now] + $every}] show
}
$ns at $every show

proc finish {} {
    global qa qb qc df
    puts "-- end"
    $qa printSeqnos
    $qa printRTTs
    $qb printRTTs
    $qb printSeqnos
    # the seqno distribution off: printSeqnos prints nothing
    $qb set keepSeqnoStats_ 0
    $qb printSeqnos
    puts "qa departures [$qa set pdepartures_] qc departures [$qc set pdepartures_]"
    close $df
    exit 0
}
$ns at $endtime finish
$ns run
