# dbox.tcl -- DelayBox (delaybox/delaybox.cc): per-flow delay, loss and
# bottleneck speed drawn from random variables when each flow starts.
#
#   c0, c1 --(100Mb, 1ms)-- [DelayBox d] --(10Mb, 5ms)-- s0, s1
#
# Four TCP flows from c0/c1 to s0/s1 (two flow ids per pair), started
# 0.05 s apart and each sending 200 packets; the box's rules draw a delay
# (Uniform 10..60 ms), a loss rate (Uniform 0..LOSS) and a speed
# (Uniform 1..5 Mb/s) per flow.  A fifth flow starts at the box's own node
# (its packets leave through the box too) to s1, without a rule.
#
# Usage: ns dbox.tcl endtime one-way|full [opt=value ...]
#   loss=P     the loss rates' upper bound (default 0.02)
#   asym=1     the box is asymmetric (answers take no values: ACKs pass)
#   speed=0    no speed rule (delay and loss only)
# Writes dbox.tr (trace-all).

set endtime [lindex $argv 0]
set kind [lindex $argv 1]
set loss 0.02
set asym 0
set speed 1
foreach option [lrange $argv 2 end] {
    set kv [split $option =]
    set [lindex $kv 0] [lindex $kv 1]
}

set ns [new Simulator]
set tf [open dbox.tr w]
$ns trace-all $tf

set d [$ns DelayBox]
foreach i {0 1} {
    set c($i) [$ns node]
    set s($i) [$ns node]
    $ns duplex-link $c($i) $d 100Mb 1ms DropTail
    $ns duplex-link $d $s($i) 10Mb 5ms DropTail
    $ns queue-limit $d $s($i) 30
}

proc uniform {lo hi seed} {
    set rng [new RNG]
    $rng seed $seed
    set rv [new RandomVariable/Uniform]
    $rv set min_ $lo
    $rv set max_ $hi
    $rv use-rng $rng
    return $rv
}
set dly [uniform 10 60 11]
set lrv [uniform 0 $loss 12]
set spd [uniform 1 5 13]
foreach i {0 1} {
    if {$speed} {
        $d add-rule [$c($i) id] [$s($i) id] $dly $lrv $spd
    } else {
        $d add-rule [$c($i) id] [$s($i) id] $dly $lrv
    }
}
if {$asym} { $d set-asymmetric }

proc flow {src dst fid} {
    global ns kind
    if {$kind eq "full"} {
        set a [new Agent/TCP/FullTcp]
        set b [new Agent/TCP/FullTcp]
        $ns attach-agent $src $a
        $ns attach-agent $dst $b
        $a set fid_ $fid
        $b set fid_ $fid
        $ns connect $a $b
        $b listen
    } else {
        set a [new Agent/TCP/Reno]
        set b [new Agent/TCPSink]
        $ns attach-agent $src $a
        $ns attach-agent $dst $b
        $a set fid_ $fid
        $ns connect $a $b
    }
    $a set window_ 30
    return $a
}
set t 0.1
set n 0
foreach i {0 1} {
    foreach fid [list [expr 2 * $i + 1] [expr 2 * $i + 2]] {
        set a($n) [flow $c($i) $s($i) $fid]
        $ns at $t "$a($n) advance 200"
        set t [expr $t + 0.05]
        incr n
    }
}
set a($n) [flow $d $s(1) 9]
$ns at 0.3 "$a($n) advance 100"
if {$kind eq "full"} {
    foreach i {0 1 2 3 4} { $ns at [expr $endtime - 1] "$a($i) close" }
}

proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at $endtime "finish"
$ns run
