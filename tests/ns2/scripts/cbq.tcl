# CBQ beyond ns-2's own suite: a three-level link-sharing tree (two
# agencies) on a CBQ or CBQ/WRR link, TCP and CBR flows, a child inserted
# before its parent, flow ids bound singly and in ranges, drop-front and
# byte-counted class queues, extra delay, the class queries, newallot
# during the run, and a queue monitor on the link.
#   ns cbq.tcl [LINKTYPE [ALGORITHM]]    (CBQ or CBQ/WRR; ancestor-only,
#                                         top-level, formal or 0, 1, 2)
set type [expr {[llength $argv] > 0 ? [lindex $argv 0] : "CBQ"}]
set alg [expr {[llength $argv] > 1 ? [lindex $argv 1] : "formal"}]
set ns [new Simulator]
set tf [open cbq.tr w]
$ns trace-all $tf
foreach i {0 1 2 3} { set s($i) [$ns node] }
set r1 [$ns node]; set r2 [$ns node]
foreach i {0 1 2 3} { $ns duplex-link $s($i) $r1 10Mb [expr 2+$i]ms DropTail }
$ns simplex-link $r1 $r2 1.5Mb 10ms $type
$ns simplex-link $r2 $r1 1.5Mb 10ms DropTail
set l [$ns link $r1 $r2]

set root [new CBQClass]
$root setparams none 0 0.98 auto 8 3 0
set agA [new CBQClass]
$agA setparams $root 1 0.6 auto 8 2 0
set agB [new CBQClass]
$agB setparams $root 1 0.38 0.01 8 2 0
proc leaf {parent borrow allot maxidle prio xdelay limit {knob ""}} {
    set c [new CBQClass]
    set q [new Queue/DropTail]
    $q set limit_ $limit
    if {$knob ne ""} { eval $q $knob }
    $c install-queue $q
    $c setparams $parent $borrow $allot $maxidle $prio 1 $xdelay
    return $c
}
set audio [leaf $agA true 0.05 auto 0 0 5]
set video [leaf $agA 1 0.35 auto 1 0.01 15 {set drop_front_ true}]
set bulkA [leaf $agA true 0.2 0.05 2 0 25]
set bulkB [leaf $agB false 0.3 auto 2 0 30000 {set queue_in_bytes_ true; set mean_pktsize_ 1}]
set misc [leaf $agB 1 0.08 auto 3 0.005 8]
# a leaf before its agency and root
foreach c [list $audio $video $bulkA $agA $root $agB $bulkB $misc] { $l insert $c }
$l bind $audio 1
$l bind $video 2 3
$l bind $bulkA 4
$l bind $bulkB 5 7
$l bind $misc 0
[$l queue] algorithm $alg
if {$type eq "CBQ/WRR"} { [$l queue] set maxpkt_ 1500 }

puts "root allot [$root allot] cbq [expr {[$root cbq] eq [$l queue]}] qdisc '[$root qdisc]'"
puts "video allot [$video allot] cbq [expr {[$video cbq] eq [$l queue]}] queue [[$video qdisc] info class]"
puts "bulkB maxidle_ [$bulkB set maxidle_] misc maxidle_ [format %.9f [$misc set maxidle_]]"

proc cbr {i src fid size rate start stop} {
    global ns r2 u
    set u($i) [new Agent/UDP]; $ns attach-agent $src $u($i); $u($i) set fid_ $fid
    set k [new Agent/Null]; $ns attach-agent $r2 $k; $ns connect $u($i) $k
    set c [new Application/Traffic/CBR]; $c attach-agent $u($i)
    $c set packetSize_ $size; $c set rate_ $rate
    $ns at $start "$c start"; $ns at $stop "$c stop"
}
cbr 0 $s(0) 1 200 100Kb 0.1 4.5
cbr 1 $s(1) 2 1000 600Kb 0.2 3.0
cbr 2 $s(1) 3 500 300Kb 1.0 4.0
cbr 3 $s(2) 0 300 200Kb 0.5 2.5
foreach {i fid src start} {0 4 3 0.3 1 5 2 0.0 2 6 3 1.5} {
    set t($i) [new Agent/TCP/Reno]; $ns attach-agent $s($src) $t($i); $t($i) set fid_ $fid
    set k [new Agent/TCPSink]; $ns attach-agent $r2 $k; $ns connect $t($i) $k
    set f [$t($i) attach-app FTP]; $ns at $start "$f start"
}
set qm [$ns monitor-queue $r1 $r2 [open qm.tr w] 0.25]
$ns at 2.0 "$bulkA newallot 0.4; $audio newallot 0.1"
$ns at 3.5 "$bulkB newallot 0.05"
proc finish {} {
    global ns tf qm t
    $ns flush-trace
    close $tf
    puts "qmon arrivals [$qm set parrivals_] departures [$qm set pdepartures_] drops [$qm set pdrops_]"
    foreach i {0 1 2} { puts "tcp $i ack [$t($i) set ack_] cwnd [$t($i) set cwnd_]" }
    exit 0
}
$ns at 5 finish
$ns run
