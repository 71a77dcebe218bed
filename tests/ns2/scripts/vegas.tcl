# vegas.tcl -- TCP Vegas (Agent/TCP/Vegas) on a small dumbbell.
#
#   s0 --10Mb, 5ms--\
#                    r ==1.5Mb, 30ms, DropTail qlim== d
#   s1 --10Mb, 8ms--/
#
# Flow 1 (fid 1) is Vegas from s0; with reno=1 a Reno flow (fid 2) from s1
# starts at 0.7 s.  Losses come from the queue, and from an error model on
# r->d: "u<rate>" drops uniformly at random (ns-2's default RNG through a
# RandomVariable/Uniform), "l<a,b,...>" drops those packet numbers
# (ErrorModel/List), "-" none.  Writes out.tr (trace-all) and vars.tr (the
# Vegas flow's cwnd_ ssthresh_ dupacks_ t_seqno_ ack_ maxseq_ rtt_ srtt_
# backoff_ nrexmit_ traces) and prints Vegas's bound variables every 2 s.
#
# Usage: ns vegas.tcl endtime qlim window alpha beta gamma sink reno
#                     overhead loss maxcwnd packetsize slow_start_restart

if { $argc != 13 } {
    puts stderr "usage: ns vegas.tcl endtime qlim window alpha beta gamma sink reno overhead loss maxcwnd packetsize ssr"
    exit 1
}
lassign $argv endtime qlim window alpha beta gamma sink reno overhead loss maxcwnd pktsize ssr

set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set s0 [$ns node]; set s1 [$ns node]; set r [$ns node]; set d [$ns node]
$ns duplex-link $s0 $r 10Mb 5ms DropTail
$ns duplex-link $s1 $r 10Mb 8ms DropTail
$ns duplex-link $r $d 1.5Mb 30ms DropTail
$ns queue-limit $r $d $qlim

Agent/TCP/Vegas set packetSize_ $pktsize
set tcp [new Agent/TCP/Vegas]
$tcp set window_ $window
$tcp set v_alpha_ $alpha
$tcp set v_beta_ $beta
$tcp set v_gamma_ $gamma
$tcp set overhead_ $overhead
$tcp set maxcwnd_ $maxcwnd
$tcp set slow_start_restart_ $ssr
$tcp set fid_ 1
$ns attach-agent $s0 $tcp
set snk [new Agent/$sink]
$ns attach-agent $d $snk
$ns connect $tcp $snk
set ftp [$tcp attach-app FTP]

if { $reno } {
    set rt [new Agent/TCP/Reno]
    $rt set window_ 30
    $rt set overhead_ $overhead
    $rt set fid_ 2
    $ns attach-agent $s1 $rt
    set rs [new Agent/$sink]
    $ns attach-agent $d $rs
    $ns connect $rt $rs
    set rf [$rt attach-app FTP]
    $ns at 0.7 "$rf start"
}

switch -glob -- $loss {
    u* {
        set em [new ErrorModel]
        $em set rate_ [string range $loss 1 end]
        $em unit pkt
        $em ranvar [new RandomVariable/Uniform]
        $em drop-target [new Agent/Null]
        $ns lossmodel $em $r $d
    }
    l* {
        set em [new ErrorModel/List]
        $em droplist [split [string range $loss 1 end] ,]
        $ns lossmodel $em $r $d
    }
}

set vf [open vars.tr w]
$tcp attach $vf
foreach v {cwnd_ ssthresh_ dupacks_ t_seqno_ ack_ maxseq_ rtt_ srtt_ backoff_ nrexmit_} {
    $tcp trace $v
}

proc show {} {
    global tcp ns
    puts -nonewline "[$ns now]:"
    foreach v {v_rtt_ v_alpha_ v_beta_ v_gamma_ cwnd_ ssthresh_ ndatapack_ ndatabytes_ nackpack_ nrexmitpack_ nrexmitbytes_} {
        puts -nonewline " $v=[$tcp set $v]"
    }
    puts ""
}
for {set t 1} {$t < $endtime} {incr t 2} { $ns at $t show }
$ns at 0.1 "$ftp start"
proc finish {} {
    global ns f vf snk
    puts "sink bytes_ [$snk set bytes_]"
    $ns flush-trace
    close $f
    close $vf
    exit 0
}
$ns at $endtime finish
$ns run
