# delayer.tcl -- Delayer modules (queue/delayer.cc) on a bottleneck.
#
#   s0, s1 --(10Mb, 2ms)-- r ==(1Mb, 20ms, QTYPE, limit 20)== k
#
# A Reno flow s0 -> k (window 30), an on/off CBR (UDP, 500 bytes, 400 kb/s)
# s1 -> k that leaves the bottleneck idle now and then, and a Reno flow
# k -> s0 on the reverse path from 1.3 s.  A Delayer sits between the r->k
# queue and its link; the options choose what it does.  With QTYPE RED the
# r->k queue's curq_ and ave_ go to delayer-q.tr (the average sees the idle
# periods, whose start is when the delayer calls the queue back).
#
# Usage: ns delayer.tcl endtime DropTail|RED [opt=value ...]
#   block=T1:T2     block the delayer at T1, unblock at T2 (repeatable)
#   spikes=INT:LEN  exponential delay spikes (mean interval, mean length)
#   alloc=A:B:C:D   channel allocation delay: idle time Uniform(A,B),
#                   allocation Uniform(C,D)
#   rev=SPEC        a delayer on k->r too: "alloc" (Uniform 0.01..0.4 idle,
#                   0.05..0.1 allocation) or "block" (blocked 2.0..2.6)
#   trace=late      no trace-all: the r->k link is traced with trace-queue
#                   after the delayer is in (the dequeue trace then comes
#                   before the delayer); default trace-all before the links
#   mon=1           a queue monitor on r->k (printed at the end)
#   qweight=W       RED's q_weight_ (default 0.02)
#   stats=1         DropTail summarystats_ (printstats at the end)
# Writes delayer.tr, delayer-q.tr.

if { $argc < 2 } {
    puts stderr "usage: ns delayer.tcl endtime DropTail|RED \[opt=value ...\]"
    exit 1
}
set endtime [lindex $argv 0]
set qtype [lindex $argv 1]
set blocks {}
set spikes ""
set alloc ""
set rev ""
set trace all
set mon 0
set qweight 0.02
set stats 0
foreach a [lrange $argv 2 end] {
    set kv [split $a =]
    set v [lindex $kv 1]
    switch -- [lindex $kv 0] {
        block { lappend blocks [split $v :] }
        spikes { set spikes [split $v :] }
        alloc { set alloc [split $v :] }
        rev { set rev $v }
        trace { set trace $v }
        mon { set mon $v }
        qweight { set qweight $v }
        stats { set stats $v }
        default { puts stderr "unknown option $a"; exit 1 }
    }
}

Queue/RED set q_weight_ $qweight
Queue/RED set thresh_ 3
Queue/RED set maxthresh_ 12
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
if {$stats} { Queue/DropTail set summarystats_ true }

set ns [new Simulator]
set tf [open delayer.tr w]
if {$trace eq "all"} { $ns trace-all $tf }

set s0 [$ns node]
set s1 [$ns node]
set r [$ns node]
set k [$ns node]
$ns duplex-link $s0 $r 10Mb 2ms DropTail
$ns duplex-link $s1 $r 10Mb 2ms DropTail
$ns duplex-link $r $k 1Mb 20ms $qtype
$ns queue-limit $r $k 20
$ns queue-limit $k $r 20

set d [new Delayer]
$ns insert-delayer $r $k $d
foreach b $blocks {
    $ns at [lindex $b 0] "$d block"
    $ns at [lindex $b 1] "$d unblock"
}
if {$spikes ne ""} {
    set int [new RandomVariable/Exponential]
    $int set avg_ [lindex $spikes 0]
    set len [new RandomVariable/Exponential]
    $len set avg_ [lindex $spikes 1]
    $d spike $int $len
}
if {$alloc ne ""} {
    set aint [new RandomVariable/Uniform]
    $aint set min_ [lindex $alloc 0]
    $aint set max_ [lindex $alloc 1]
    set alen [new RandomVariable/Uniform]
    $alen set min_ [lindex $alloc 2]
    $alen set max_ [lindex $alloc 3]
    $d alloc $aint $alen
}
if {$rev ne ""} {
    set d2 [new Delayer]
    $ns insert-delayer $k $r $d2
    if {$rev eq "alloc"} {
        set ri [new RandomVariable/Uniform]
        $ri set min_ 0.01
        $ri set max_ 0.4
        set rl [new RandomVariable/Uniform]
        $rl set min_ 0.05
        $rl set max_ 0.1
        $d2 alloc $ri $rl
    } else {
        $ns at 2.0 "$d2 block"
        $ns at 2.6 "$d2 unblock"
    }
}
if {$trace eq "late"} { $ns trace-queue $r $k $tf }

set q [[$ns link $r $k] queue]
set qf [open delayer-q.tr w]
if {$qtype eq "RED"} {
    $q trace curq_
    $q trace ave_
    $q attach $qf
}
if {$mon} {
    set qm [$ns monitor-queue $r $k ""]
}

set tcp [new Agent/TCP/Reno]
$tcp set window_ 30
$tcp set fid_ 1
$ns attach-agent $s0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $k $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"

set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $s1 $udp
set null [new Agent/Null]
$ns attach-agent $k $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 400kb
$cbr attach-agent $udp
for {set t 0.5} {$t < $endtime} {set t [expr {$t + 1.7}]} {
    $ns at $t "$cbr start"
    $ns at [expr {$t + 0.6}] "$cbr stop"
}

set rtcp [new Agent/TCP/Reno]
$rtcp set window_ 8
$rtcp set fid_ 3
$ns attach-agent $k $rtcp
set rsink [new Agent/TCPSink]
$ns attach-agent $s0 $rsink
$ns connect $rtcp $rsink
set rftp [$rtcp attach-app FTP]
$ns at 1.3 "$rftp start"

proc finish {} {
    global ns tf qf tcp rtcp mon qm stats q
    $ns flush-trace
    close $tf
    close $qf
    foreach t [list $tcp $rtcp] {
        puts "[$t set fid_]: ack [$t set ack_] cwnd [$t set cwnd_] nrexmit [$t set nrexmit_]"
    }
    if {$mon} {
        puts "monitor: arrivals [$qm set parrivals_] departures [$qm set pdepartures_] drops [$qm set pdrops_]"
    }
    if {$stats} { $q printstats }
    exit 0
}
$ns at $endtime "finish"
$ns run
