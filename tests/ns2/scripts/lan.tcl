# Wired LANs beyond ns-2's lan suite.
#   ns lan.tcl SCENARIO
# tcp-cbr:    802.3 LAN of five nodes with two wired stubs; TCP/Reno and
#             TCP/Newreno across it and a CBR flow inside it, short
#             interface queues (drops), collisions traced
# collisions: 802.3 LAN of eight nodes, seven CBR senders to one receiver
#             at 100 Mb/s: collisions, backoff, frames given up
# plain:      the plain MAC (newLan) with TCP and CBR, a 100-byte queue
#             limit, and a LAN cost
# abstract:   the abstract LAN with three TCP flows and a short common
#             queue
# chain:      an abstract LAN, then a plain-MAC LAN, then an 802.3 LAN
#             in a row, a TCP flow and a CBR flow across all three (a
#             packet out of the abstract LAN goes up the next LAN's link
#             layer once before it goes down, as in ns-2)
set scen [lindex $argv 0]
set ns [new Simulator]
set tf [open lan.tr w]
$ns trace-all $tf
set nf [open lan.nam w]
$ns namtrace-all $nf

proc finish {} {
    global ns tf nf
    $ns flush-trace
    close $tf
    close $nf
    exit 0
}

# at the end: the senders' highest acknowledgements and what else is asked
proc report {what} {
    puts [uplevel #0 [list subst $what]]
    finish
}

proc tcp {src dst {flavor TCP/Reno} {win 20}} {
    global ns
    set t [$ns create-connection $flavor $src TCPSink $dst 0]
    $t set window_ $win
    set f [$t attach-app FTP]
    return [list $t $f]
}

proc cbr {src dst size interval} {
    global ns
    set u [new Agent/UDP]
    $ns attach-agent $src $u
    set n [new Agent/Null]
    $ns attach-agent $dst $n
    $ns connect $u $n
    set c [new Application/Traffic/CBR]
    $c set packetSize_ $size
    $c set interval_ $interval
    $c attach-agent $u
    return $c
}

switch $scen {
    tcp-cbr {
        for {set i 0} {$i < 5} {incr i} { lappend members [set n($i) [$ns node]] }
        set lan [$ns make-lan -trace on $members 10Mb 1ms LL Queue/DropTail Mac/802_3 Channel Phy/WiredPhy 10]
        set a [$ns node]
        set b [$ns node]
        $ns duplex-link $a $n(0) 5Mb 3ms DropTail
        $ns duplex-link $b $n(4) 5Mb 2ms DropTail
        lassign [tcp $a $n(3)] t1 f1
        lassign [tcp $n(1) $b TCP/Newreno 30] t2 f2
        set c [cbr $n(2) $n(0) 500 0.002]
        $ns at 0.0 "$f1 start"
        $ns at 0.1 "$f2 start"
        $ns at 0.5 "$c start"
        $ns at 1.5 "$c stop"
        $ns at 2.5 {report {acks [$t1 set ack_] [$t2 set ack_] mac [[[$lan set lanIface_($n(2))] set mac_] id]}}
    }
    collisions {
        for {set i 0} {$i < 8} {incr i} { lappend members [set n($i) [$ns node]] }
        set lan [$ns make-lan -trace on $members 100Mb 0.01ms LL Queue/DropTail Mac/802_3 Channel Phy/WiredPhy]
        for {set i 1} {$i < 8} {incr i} {
            set c [cbr $n($i) $n(0) 1000 0.0004]
            $ns at [expr {0.001 * $i}] "$c start"
        }
        $ns at 0.6 "finish"
    }
    plain {
        for {set i 0} {$i < 4} {incr i} { lappend members [set n($i) [$ns node]] }
        set lan [$ns newLan $members 2Mb 3ms -ifqLen 100]
        set a [$ns node]
        $ns duplex-link $a $n(2) 1Mb 5ms DropTail
        $ns duplex-link $a $n(3) 1Mb 5ms DropTail
        $lan cost 3
        lassign [tcp $n(0) $a] t1 f1
        set c [cbr $n(1) $a 200 0.005]
        $ns at 0.0 "$f1 start"
        $ns at 0.2 "$c start"
        $ns at 2.0 {report {acks [$t1 set ack_] cost [$lan cost?]}}
    }
    abstract {
        for {set i 0} {$i < 6} {incr i} { lappend members [set n($i) [$ns node]] }
        set lan [$ns make-abslan $members 5Mb 2ms 8]
        lassign [tcp $n(0) $n(1)] t1 f1
        lassign [tcp $n(2) $n(3) TCP/Newreno] t2 f2
        lassign [tcp $n(4) $n(5) TCP 10] t3 f3
        $ns at 0.0 "$f1 start"
        $ns at 0.05 "$f2 start"
        $ns at 0.1 "$f3 start"
        $ns at 2.0 {report {acks [$t1 set ack_] [$t2 set ack_] [$t3 set ack_]}}
    }
    chain {
        for {set i 0} {$i < 7} {incr i} { set n($i) [$ns node] }
        set l1 [$ns make-abslan "$n(0) $n(1) $n(2)" 10Mb 1ms]
        set l2 [$ns newLan "$n(2) $n(3) $n(4)" 10Mb 1ms]
        set l3 [$ns make-lan "$n(4) $n(5) $n(6)" 10Mb 1ms LL Queue/DropTail Mac/802_3 Channel]
        lassign [tcp $n(0) $n(6)] t1 f1
        set c [cbr $n(1) $n(5) 300 0.01]
        $ns at 0.0 "$f1 start"
        $ns at 0.05 "$c start"
        $ns at 1.5 {report {acks [$t1 set ack_]}}
    }
}
$ns run
