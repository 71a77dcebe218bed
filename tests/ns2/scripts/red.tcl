# red.tcl -- RED gateways with ECN and non-ECN TCP flows.
#
#   s0..s5 --(10Mb, 1..11ms)-- r1 ==(bw, 20ms, RED both ways)== r2 --(10Mb)-- d0, d1
#
# Six forward flows s_i -> d_(i%2) (Tahoe, Reno, Newreno in turn; even flows
# ECN-capable when ecn=1, odd flows never), starting at scattered times, some
# stopping early; one reverse flow d1 -> s0 so that the r2->r1 RED queue
# sees data too.  The r1->r2 queue is traced (curq_, ave_, prob1_,
# cur_max_p_) into red-q.tr; every flow's cwnd_ goes to red-cwnd.tr; the
# finish proc prints the RED variables and each sender's counters.
#
# Usage: ns red.tcl endtime [Queue/RED-variable=value ...] [ecn=0|1]
#        [bw=1.5Mb] [qlim=25] [sink=TCPSink|TCPSink/DelAck] [pkt=1000]
# e.g.   ns red.tcl 20 gentle_=false setbit_=true ecn=1
# Writes red.tr (trace-all), red-q.tr, red-cwnd.tr.

if { $argc < 1 } {
    puts stderr "usage: ns red.tcl endtime \[var=value ...\]"
    exit 1
}
set endtime [lindex $argv 0]
set ecn 0
set bw 1.5Mb
set qlim 25
set sinktype TCPSink
set pkt 1000
foreach a [lrange $argv 1 end] {
    set kv [split $a =]
    set k [lindex $kv 0]
    set v [lindex $kv 1]
    switch -- $k {
        ecn { set ecn $v }
        bw { set bw $v }
        qlim { set qlim $v }
        sink { set sinktype $v }
        pkt { set pkt $v }
        default { Queue/RED set $k $v }
    }
}

set ns [new Simulator]
set tf [open red.tr w]
$ns trace-all $tf
set cf [open red-cwnd.tr w]

set r1 [$ns node]
set r2 [$ns node]
set d(0) [$ns node]
set d(1) [$ns node]
$ns duplex-link $r1 $r2 $bw 20ms RED
$ns queue-limit $r1 $r2 $qlim
$ns queue-limit $r2 $r1 $qlim
$ns duplex-link $r2 $d(0) 10Mb 2ms DropTail
$ns duplex-link $r2 $d(1) 10Mb 3ms DropTail

set redq [[$ns link $r1 $r2] queue]
set qf [open red-q.tr w]
$redq trace curq_
$redq trace ave_
$redq trace prob1_
$redq trace cur_max_p_
$redq attach $qf

set types {TCP TCP/Reno TCP/Newreno}
set starts {0.0 0.37 1.1 2.05 3.3 4.71}
set stops {-1 -1 9.5 -1 -1 15.25}
for {set i 0} {$i < 6} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [expr {1 + 2 * $i}]ms DropTail
    set tcp($i) [new Agent/[lindex $types [expr {$i % 3}]]]
    $tcp($i) set fid_ $i
    $tcp($i) set packetSize_ $pkt
    $tcp($i) set window_ [expr {20 + 5 * $i}]
    if {$i % 2 == 0} { $tcp($i) set ecn_ $ecn }
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/$sinktype]
    $ns attach-agent $d([expr {$i % 2}]) $sink($i)
    $ns connect $tcp($i) $sink($i)
    $tcp($i) attach $cf
    $tcp($i) trace cwnd_
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [lindex $starts $i] "$ftp($i) start"
    if {[lindex $stops $i] > 0} { $ns at [lindex $stops $i] "$ftp($i) stop" }
}
# reverse traffic
set rtcp [new Agent/TCP/Reno]
$rtcp set fid_ 9
$rtcp set ecn_ $ecn
$ns attach-agent $d(1) $rtcp
set rsink [new Agent/TCPSink]
$ns attach-agent $s(0) $rsink
$ns connect $rtcp $rsink
set rftp [new Application/FTP]
$rftp attach-agent $rtcp
$ns at 0.5 "$rftp start"

proc finish {} {
    global ns tf qf cf redq tcp rtcp
    $ns flush-trace
    close $tf
    close $qf
    close $cf
    foreach v {ave_ prob1_ curq_ cur_max_p_ q_weight_ thresh_ maxthresh_ thresh_queue_ maxthresh_queue_ bottom_ linterm_} {
        puts "$v [$redq set $v]"
    }
    for {set i 0} {$i < 6} {incr i} {
        puts "flow $i ack [$tcp($i) set ack_] ndatapack [$tcp($i) set ndatapack_] nrexmitpack [$tcp($i) set nrexmitpack_] necn [$tcp($i) set necnresponses_] ncwndcuts [$tcp($i) set ncwndcuts_] cwnd [$tcp($i) set cwnd_]"
    }
    puts "reverse ack [$rtcp set ack_] necn [$rtcp set necnresponses_]"
    exit 0
}
$ns at $endtime "finish"
$ns run
