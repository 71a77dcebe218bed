# Link dynamics: a bottleneck that goes down and up under TCP.
# usage: ns dynamics.tcl MODEL ROUTING ALT QTYPE ?TRACEALL?
#   MODEL    manual | det | detfin | detdel (det, and an exp deleted before the run) | exp | trace |
#            node (all links of a node)
#   ROUTING  static | session
#   ALT      0 | 1   (1: a fallback path r1 - b1 - k1 of cost 3)
#   QTYPE    DropTail | RED
#   TRACEALL 1 (default: trace-all to out.tr, so the route models trace the
#            dynamics there too) | 0 (only the links' own dynamics trace)
set model [lindex $argv 0]
set routing [lindex $argv 1]
set alt [lindex $argv 2]
set qtype [lindex $argv 3]
set traceall [expr {$argc > 4 ? [lindex $argv 4] : 1}]

set ns [new Simulator]
set f [open out.tr w]
if {$traceall} {
    $ns trace-all $f
}
set dynf [open dyn.tr w]

set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set k1 [$ns node]
$ns duplex-link $s1 $r1 8Mb 5ms DropTail
$ns duplex-link $s2 $r1 8Mb 5ms DropTail
$ns duplex-link $r1 $k1 800Kb 50ms $qtype
$ns queue-limit $r1 $k1 12
if {$alt} {
    set b1 [$ns node]
    $ns duplex-link $r1 $b1 800Kb 40ms DropTail
    $ns duplex-link $b1 $k1 800Kb 40ms DropTail
    $ns cost $r1 $b1 3
    $ns cost $b1 $r1 3
}
if {$routing eq "session"} {
    $ns rtproto Session
}

switch $model {
    manual {
        $ns rtmodel-at 1.3 down $r1 $k1
        $ns rtmodel-at 2.1 up $r1 $k1
        $ns rtmodel-at 3.05 down $r1 $k1
        $ns rtmodel-at 3.4 up $r1 $k1
    }
    det {
        set m [$ns rtmodel Deterministic {0.7 0.9 0.35} $r1 $k1]
    }
    detfin {
        # down for 0.35 s every 1.25 s from 1.6 s; a down due after the
        # finish time is not scheduled, an up is moved to it
        set m [$ns rtmodel Deterministic {0.7 0.9 0.35 3.0} $r1 $k1]
        set m2 [$ns rtmodel Deterministic {- 0.5 1.0 1.9} $s2 $r1]
    }
    detdel {
        # (ns-2 2.35 deletes a model but not its pending event: deleting one
        # during the run fails at that event, in ns-2 as in Dumbbell)
        set m [$ns rtmodel Deterministic {0.7 0.9 0.35} $r1 $k1]
        set m2 [$ns rtmodel Exponential {0.1 0.3 0.25} $r1 $k1]
        $ns rtmodel-delete $m2
    }
    exp {
        set m [$ns rtmodel Exponential {0.1 0.3 0.25} $r1 $k1]
    }
    trace {
        set tf [open dyn.in w]
        puts $tf "v 1.1 link-down 2 3"
        puts $tf "v 1.1 link-down 3 2"
        puts $tf "v 1.7 link-up 2 3"
        puts $tf "v 1.7 link-up 3 2"
        puts $tf "v 2.45 link-down 0 2"
        puts $tf "v 2.95 link-up 0 2"
        puts $tf "v 3.5 link-down 2 3"
        puts $tf "v 3.9 link-up 2 3"
        close $tf
        set m [$ns rtmodel Trace dyn.in $r1 $k1]
    }
    node {
        set m [$ns rtmodel Deterministic {1.0 1.2 0.4} $k1]
    }
}
[$ns link $r1 $k1] trace-dynamics $ns $dynf
[$ns link $k1 $r1] trace-dynamics $ns $dynf

set qm [$ns monitor-queue $r1 $k1 ""]

set tcp1 [$ns create-connection TCP/Reno $s1 TCPSink $k1 1]
$tcp1 set window_ 30
set ftp1 [$tcp1 attach-app FTP]
set tcp2 [$ns create-connection TCP/Newreno $s2 TCPSink/DelAck $k1 2]
$tcp2 set window_ 20
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.0 "$ftp1 start"
$ns at 0.2 "$ftp2 start"

proc report {} {
    global ns tcp1 tcp2 qm r1 k1
    set l [$ns link $r1 $k1]
    puts "[$ns now] [$l up?] [[$ns link $k1 $r1] up?] cwnd [$tcp1 set cwnd_] [$tcp2 set cwnd_] ack [$tcp1 set ack_] [$tcp2 set ack_] q [$qm set pkts_] arr [$qm set parrivals_] dep [$qm set pdepartures_] drop [$qm set pdrops_]"
    $ns at [expr [$ns now] + 0.25] report
}
$ns at 0.25 report
$ns at 5.0 "finish"
proc finish {} {
    global ns f dynf
    $ns flush-trace
    close $f
    close $dynf
    exit 0
}
$ns run
