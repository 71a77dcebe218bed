# tagged.tcl -- the tagged trace format ($ns use-taggedtrace).
#
#   S --(10Mb, 1.2345678ms)-- R --(1Mb, 20.3ms, queue 25)-- D
#   U --(10Mb, 3ms)----------/
#
# A Reno flow S->D and a CBR flow U->D share the bottleneck; an error
# model drops 0.4% of the bottleneck's packets.  Link delays that are not
# whole microseconds show that tagged lines print unrounded times.
#
# Usage: ns tagged.tcl mode [queue] [ecn]
#   mode: all      use-taggedtrace before trace-all (every link tagged)
#         late     the first link made untagged, then use-taggedtrace,
#                  the others tagged (a trace is tagged when it is made)
#         off      use-taggedtrace OFF after use-taggedtrace: positional
#         queue    trace-queue of the bottleneck only, tagged, with
#                  show_tcphdr_ 1 (which the tagged format ignores)
#   queue: DropTail (default) or RED;  ecn: 1 for ECN marking and ECN TCP
# Writes out.tr; prints what `$trace tagged` answers.

set mode [lindex $argv 0]
set qtype DropTail
set ecn 0
if {$argc > 1} { set qtype [lindex $argv 1] }
if {$argc > 2} { set ecn [lindex $argv 2] }
if {$ecn} { Queue/RED set setbit_ true }

set ns [new Simulator]
set tf [open out.tr w]
switch $mode {
    all { $ns use-taggedtrace; $ns trace-all $tf }
    late { $ns trace-all $tf }
    off { $ns use-taggedtrace; $ns use-taggedtrace OFF; $ns trace-all $tf }
    queue { Trace set show_tcphdr_ 1; $ns use-taggedtrace }
}
puts "TaggedTrace_ [Simulator set TaggedTrace_]"

set S [$ns node]
set U [$ns node]
set R [$ns node]
set D [$ns node]
$ns duplex-link $S $R 10Mb 1.2345678ms DropTail
if {$mode eq "late"} { $ns use-taggedtrace on }
$ns duplex-link $U $R 10Mb 3ms DropTail
$ns duplex-link $R $D 1Mb 20.3ms $qtype
$ns queue-limit $R $D 25
if {$mode eq "queue"} { $ns trace-queue $R $D $tf }

set em [new ErrorModel]
$em set rate_ 0.004
$em unit pkt
$em drop-target [new Agent/Null]
$ns lossmodel $em $R $D

set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$tcp set window_ 60
if {$ecn} { $tcp set ecn_ 1 }
$ns attach-agent $S $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $D $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $U $udp
set null [new Agent/Null]
$ns attach-agent $D $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.0073
$cbr attach-agent $udp

foreach {a b} [list $S $R $R $D] {
    set l [$ns link $a $b]
    if {[catch {$l set enqT_}]} continue
    puts "[$a id]->[$b id] enqT tagged: [[$l set enqT_] tagged] deqT tagged: [[$l set deqT_] tagged]"
}

proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 0.1 "$ftp start"
$ns at 0.3 "$cbr start"
$ns at 2.7 "$cbr stop"
$ns at 3.5 "$ftp stop"
$ns at 4.0 finish
$ns run
