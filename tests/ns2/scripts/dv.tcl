# Distance-vector routing (`$ns rtproto DV`): updates as rtProtoDV packets,
# routes that follow links going down and up, costs.
# usage: ns dv.tcl MODE
#   ring     five nodes in a ring, a CBR flow 0 -> 2; the link 1-2 fails at
#            1.0 s and recovers at 2.0 s (traffic moves to 0-4-3-2 and back);
#            the trace shows TCP header fields (an update's ackno is 0)
#   mesh     a mesh with asymmetric costs and equal-cost ties, DV's
#            advertInterval and INFINITY changed, routes dumped at 0, 1 and 5 s
#   traffic  two TCPs and a CBR over DV, a bottleneck going down and up by an
#            Exponential model, a node's links down at once (rtmodel of a node)
set mode [lindex $argv 0]
if {$mode eq "ring"} { Trace set show_tcphdr_ 1 }
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f

proc dump {} {
    global ns n
    foreach i [lsort -integer [array names n]] {
        set o [$n($i) rtObject?]
        if {$o ne ""} { $o dump-routes stdout }
    }
    foreach i [lsort -integer [array names n]] {
        foreach j [lsort -integer [array names n]] {
            puts -nonewline " [[$ns get-routelogic] lookup $i $j]"
        }
        puts ""
    }
}
proc finish {} {
    global ns f
    dump
    $ns flush-trace
    close $f
    exit 0
}

switch $mode {
    ring {
        for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
        for {set i 0} {$i < 5} {incr i} {
            $ns duplex-link $n($i) $n([expr {($i + 1) % 5}]) 1Mb 10ms DropTail
        }
        $ns rtproto DV
        $ns rtmodel-at 1.0 down $n(1) $n(2)
        $ns rtmodel-at 2.0 up $n(1) $n(2)
        set udp [new Agent/UDP]
        $ns attach-agent $n(0) $udp
        set null [new Agent/Null]
        $ns attach-agent $n(2) $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $cbr set interval_ 0.02
        $ns at 0.1 "$cbr start"
        $ns at 2.9 "$cbr stop"
        $ns at 1.5 dump
        $ns at 3.0 finish
    }
    mesh {
        Agent/rtProto/DV set advertInterval 1.5
        for {set i 0} {$i < 7} {incr i} { set n($i) [$ns node] }
        foreach {a b} {0 1  0 2  1 3  2 3  3 4  1 5  5 4  2 6  6 4  0 6} {
            $ns duplex-link $n($a) $n($b) 2Mb 5ms DropTail
        }
        $ns cost $n(0) $n(1) 2
        $ns cost $n(1) $n(0) 3
        $ns cost $n(3) $n(4) 4
        $ns cost $n(0) $n(6) 3
        $ns cost $n(6) $n(0) 3
        $ns rtproto DV
        $ns rtmodel-at 2.5 down $n(2) $n(3)
        $ns rtmodel-at 3.5 down $n(5) $n(4)
        $ns rtmodel-at 4.2 up $n(2) $n(3)
        $ns at 0.0 dump
        $ns at 1.0 dump
        $ns at 5.0 finish
    }
    traffic {
        for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
        $ns duplex-link $n(0) $n(2) 10Mb 2ms DropTail
        $ns duplex-link $n(1) $n(2) 10Mb 3ms DropTail
        $ns duplex-link $n(2) $n(3) 1.5Mb 20ms RED
        $ns duplex-link $n(3) $n(4) 10Mb 4ms DropTail
        $ns duplex-link $n(2) $n(5) 1Mb 15ms DropTail
        $ns duplex-link $n(5) $n(4) 1Mb 15ms DropTail
        $ns cost $n(2) $n(5) 2
        $ns cost $n(5) $n(2) 2
        $ns queue-limit $n(2) $n(3) 20
        $ns rtproto DV
        $ns rtmodel Exponential {0.5 1.2 0.4} $n(2) $n(3)
        $ns rtmodel-at 6.0 down $n(5)
        $ns rtmodel-at 6.6 up $n(5)
        foreach {k s d} {0 0 4  1 1 4} {
            set tcp($k) [new Agent/TCP/Reno]
            $tcp($k) set fid_ [expr {$k + 1}]
            $ns attach-agent $n($s) $tcp($k)
            set sink($k) [new Agent/TCPSink]
            $ns attach-agent $n($d) $sink($k)
            $ns connect $tcp($k) $sink($k)
            set ftp($k) [new Application/FTP]
            $ftp($k) attach-agent $tcp($k)
            $ns at [expr {0.2 + $k * 0.3}] "$ftp($k) start"
        }
        set udp [new Agent/UDP]
        $ns attach-agent $n(4) $udp
        set null [new Agent/Null]
        $ns attach-agent $n(0) $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $cbr set rate_ 200Kb
        $ns at 0.1 "$cbr start"
        $ns at 8.0 finish
    }
}
$ns run
