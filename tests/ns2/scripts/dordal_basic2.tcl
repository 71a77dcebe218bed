# basic2.tcl: two TCP senders competing for one bottleneck (Dordal, "An
# Introduction to Computer Networks", 31.3.1, the "full version" with every
# global a command-line parameter).
#
#   A --10x BW, 10 ms-------------\
#                                  R --BW, 100 ms, queue-- D
#   B --10x BW, 10+delayB ms------/
#
# Usage: ns basic2.tcl [delayB [overhead [bottleneckBW [endtime [queuesize
#                      [seed [tracefile [variant [tracekind [alpha beta]]]]]]]]]]
#   delayB        additional B--R propagation delay, ms      (default 0)
#   overhead      Agent/TCP overhead_, s (uniform random send delay in
#                 [0, overhead]; draws from ns-2's RNG)       (default 0)
#   bottleneckBW  R--D bandwidth in Mb/s; access links 10x   (default 0.8)
#   endtime       simulated seconds                           (default 300)
#   queuesize     queue-limit at R towards D                  (default 20)
#   seed          if not 0, seeds ns-2's default RNG (`ns-random seed`):
#                 with overhead > 0, seeds give independent runs (default 0)
#   tracefile     trace-all plus cwnd_/ack_ variable traces; "-" for none
#                 (default none, so that sweeps run fast)
#   variant       Reno (the book's "classic"), Sack1 (31.4.2) or Vegas (31.5)
#                 for both flows, or "X/Y": flow 0 (A) X, flow 1 (B) Y, e.g.
#                 Reno/Vegas (31.5)                           (default Reno)
#   tracekind     "all": trace-all and the variable traces; "vars": only the
#                 cwnd_/ack_ variable traces (much smaller); "drops": only
#                 the drops at R's queue towards D (d lines)  (default all)
#   alpha beta    v_alpha_ and v_beta_ of the Vegas flows     (default 1 3,
#                 ns-2's); Vegas's packetSize_ is 1000, as the book sets it
#                 (its packets have no 40 header bytes added)
#
# Prints the book's "parameters:" line, then at the end its result line:
#   delayB overhead recv0 recv1 rttratio rttratio2 actualratio ratio1 ratio2
# recv = packets received by D (sink bytes_ / 1000, rounded), rttratio =
# (2 delayB + RTTNL) / RTTNL with RTTNL = 220 ms, actualratio = recv0/recv1,
# ratio1 = actualratio/rttratio, ratio2 = actualratio/rttratio^2.

set delayB 0
set overhead 0
set bottleneckBW 0.8
set endtime 300
set queuesize 20
set seed 0
set tracename ""
set variant Reno
set tracekind all
set alpha 1
set beta 3
# delay on the A--R link, in ms
set basedelay 10
# estimated no-load RTT for the first flow, in ms
set RTTNL 220

if { $argc >= 1 } { set delayB [expr [lindex $argv 0]] }
if { $argc >= 2 } { set overhead [expr [lindex $argv 1]] }
if { $argc >= 3 } { set bottleneckBW [expr [lindex $argv 2]] }
if { $argc >= 4 } { set endtime [expr [lindex $argv 3]] }
if { $argc >= 5 } { set queuesize [expr [lindex $argv 4]] }
if { $argc >= 6 } { set seed [expr [lindex $argv 5]] }
if { $argc >= 7 && [lindex $argv 6] != "-" } { set tracename [lindex $argv 6] }
if { $argc >= 8 } { set variant [lindex $argv 7] }
if { $argc >= 9 } { set tracekind [lindex $argv 8] }
if { $argc >= 11 } { set alpha [lindex $argv 9]; set beta [lindex $argv 10] }
set variants [split $variant /]
if { [llength $variants] == 1 } { lappend variants $variant }
foreach v $variants {
    if { [lsearch -exact {Reno Sack1 Vegas} $v] < 0 || [llength $variants] != 2 } {
        puts stderr "basic2.tcl: variant must be Reno, Sack1, Vegas or X/Y of them, not $variant"
        exit 1
    }
}
if { [lsearch -exact {all vars drops} $tracekind] < 0 } {
    puts stderr "basic2.tcl: tracekind must be all, vars or drops, not $tracekind"
    exit 1
}

set ns [new Simulator]
if { $seed != 0 } { ns-random $seed }
if { $tracename != "" } {
    set trace [open $tracename w]
    if { $tracekind == "all" } { $ns trace-all $trace }
}

puts stdout [format "parameters: delayB=%f overhead=%f bottleneckBW=%f" $delayB $overhead $bottleneckBW]

proc finish {} {
    global ns tcp0 tcp1 end0 end1 tracename trace delayB overhead RTTNL
    set recv0 [expr round ( [$end0 set bytes_] / 1000.0)]
    set recv1 [expr round ( [$end1 set bytes_] / 1000.0)]
    set rttratio [expr (2.0*$delayB+$RTTNL)/$RTTNL]
    set actualratio [expr 1.0*$recv0/$recv1]
    set rttratio2 [expr $rttratio*$rttratio]
    set ratio1 [expr $actualratio/$rttratio]
    set ratio2 [expr $actualratio/$rttratio2]
    puts stdout [format "%f %f %d %d %f %f %f %f %f" $delayB $overhead $recv0 $recv1 \
                     $rttratio $rttratio2 $actualratio $ratio1 $ratio2]
    if { $tracename != "" } {
        $ns flush-trace
        close $trace
    }
    exit 0
}

set A [$ns node]
set B [$ns node]
set R [$ns node]
set D [$ns node]

set fastbw [expr $bottleneckBW * 10]
$ns duplex-link $A $R ${fastbw}Mb ${basedelay}ms DropTail
$ns duplex-link $B $R ${fastbw}Mb [expr $basedelay + $delayB]ms DropTail
$ns duplex-link $R $D ${bottleneckBW}Mb 100ms DropTail
$ns queue-limit $R $D $queuesize
if { $tracename != "" && $tracekind == "drops" } {
    set drops [$ns create-trace Drop $trace $R $D]
    $drops target [$ns set nullAgent_]
    [[$ns link $R $D] queue] drop-target $drops
}

Agent/TCP set window_ 65000
Agent/TCP set packetSize_ 960
Agent/TCP set overhead_ $overhead

Agent/TCP/Vegas set packetSize_ 1000
Agent/TCP/Vegas set v_alpha_ $alpha
Agent/TCP/Vegas set v_beta_ $beta

set tcp0 [new Agent/TCP/[lindex $variants 0]]
$tcp0 set class_ 0
$tcp0 set fid_ 0
set tcp1 [new Agent/TCP/[lindex $variants 1]]
$tcp1 set class_ 1
$tcp1 set fid_ 1
foreach i {0 1} {
    if { [lindex $variants $i] == "Sack1" } { set sinkclass($i) Agent/TCPSink/Sack1 } else { set sinkclass($i) Agent/TCPSink }
}
if { $tracename != "" && $tracekind != "drops" } {
    foreach t [list $tcp0 $tcp1] {
        $t attach $trace
        $t tracevar cwnd_
        $t tracevar ack_
    }
}
$ns attach-agent $A $tcp0
$ns attach-agent $B $tcp1

set end0 [new $sinkclass(0)]
$ns attach-agent $D $end0
set end1 [new $sinkclass(1)]
$ns attach-agent $D $end1

$ns connect $tcp0 $end0
$ns connect $tcp1 $end1

set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0
set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1

$ns at 0.0 "$ftp0 start"
$ns at 0.0 "$ftp1 start"
$ns at $endtime "finish"

$ns run
