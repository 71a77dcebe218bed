# vegas_misc.tcl -- Agent/TCP/Vegas's Tcl surface and odd corners.
#
# Class defaults and per-object settings of v_alpha_/v_beta_/v_gamma_/v_rtt_
# (integers are read with strtol, so 2.7 is 2 and "abc" is 0); the state
# variables that ns-2 does not bind (v_baseRTT_ ...) cannot be read; a
# create-connection of TCP/Vegas; $tcp reset in the middle of a transfer
# (the send-time table is made afresh when packet 0 goes out again);
# produce/producemore with idle periods; a one-line variable trace
# (trace_all_oneline_); an event trace; window_ 0.5 (nothing is ever sent);
# two Vegas flows through a DelAck and a plain sink.
# Writes misc.tr (trace-all and event trace) and oneline.tr.

set ns [new Simulator]
set f [open misc.tr w]
$ns trace-all $f
$ns eventtrace-all
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns duplex-link $a $b 10Mb 2ms DropTail
$ns duplex-link $b $c 2Mb 25ms DropTail
$ns queue-limit $b $c 6

puts "class: [Agent/TCP/Vegas set v_alpha_] [Agent/TCP/Vegas set v_beta_] [Agent/TCP/Vegas set v_gamma_] [Agent/TCP/Vegas set v_rtt_]"
Agent/TCP/Vegas set v_beta_ 5
set t1 [$ns create-connection TCP/Vegas $a TCPSink/DelAck $c 3]
puts "t1: [$t1 set v_alpha_] [$t1 set v_beta_] [$t1 set v_gamma_] [$t1 set v_rtt_] [$t1 set packetSize_] [$t1 set window_]"
$t1 set v_alpha_ 2.7
$t1 set v_gamma_ abc
$t1 set v_rtt_ 0.5x
puts "t1 set: [$t1 set v_alpha_] [$t1 set v_gamma_] [$t1 set v_rtt_]"
foreach v {v_baseRTT_ v_incr_ v_inc_flag_ v_sa_ v_timeout_} {
    puts "$v: [catch {$t1 set $v} e] $e"
}
$t1 set v_gamma_ 1
set f1 [$t1 attach-app FTP]

set t2 [new Agent/TCP/Vegas]
$ns attach-agent $a $t2
set k2 [new Agent/TCPSink]
$ns attach-agent $c $k2
$ns connect $t2 $k2
$t2 set fid_ 4
set of [open oneline.tr w]
$t2 attach $of
$t2 set trace_all_oneline_ true
$t2 trace cwnd_
set f2 [$t2 attach-app FTP]

set t3 [new Agent/TCP/Vegas]
$t3 set window_ 0.5
$ns attach-agent $a $t3
set k3 [new Agent/TCPSink]
$ns attach-agent $c $k3
$ns connect $t3 $k3
set f3 [$t3 attach-app FTP]

$ns at 0.0 "$f1 start"
$ns at 0.3 "$f2 produce 40"
$ns at 0.4 "$f3 start"
$ns at 2.0 "$t1 reset"
$ns at 2.5 "$f1 start"
$ns at 3.0 "$f2 producemore 60"
$ns at 6.0 "$f2 producemore 25"
proc report {} {
    global ns t1 t2 t3
    foreach t [list $t1 $t2 $t3] {
        puts "[$ns now] $t: cwnd_ [$t set cwnd_] ack_ [$t set ack_] v_rtt_ [$t set v_rtt_] ndatapack_ [$t set ndatapack_] nrexmit_ [$t set nrexmit_]"
    }
}
foreach t {1.0 1.999 2.001 4.0 8.0} { $ns at $t report }
$ns at 9.0 "$ns flush-trace; close $f; close $of; exit 0"
$ns run
