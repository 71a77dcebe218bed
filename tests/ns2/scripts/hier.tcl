# Hierarchical addresses and routing (domain.cluster.node).
#   ns hier.tcl mesh     two domains of clusters joined by more than one
#                        path, link costs: routes go towards a domain or a
#                        cluster, which is not always the shortest path
#                        between the nodes (0.0.0 reaches 0.1.1 over its
#                        direct link into cluster 0.1 and 0.1.0, cost 4,
#                        not through 0.0.1 and 0.0.2, cost 3); TCP and CBR
#                        both ways, a queue that drops
#   ns hier.tcl mesh session   the same with Session routing and links going
#                        down and up (0.0.0-0.1.0 at 0.7 s and back at
#                        1.2 s, 0.0.2-0.2.1 at 1.0 s): routes computed
#                        again, old ones kept where none is found
#   ns hier.tcl lan      an 802.3 LAN with an address (newLan -address)
#                        inside a cluster, wired stubs in other clusters
#                        and another domain
#   ns hier.tcl defaults no cluster_num_ or nodes_num_ (ns-2's defaults and
#                        notices), the address format given by bits
#   ns hier.tcl random S a random hierarchy (1-3 domains, 1-3 clusters each,
#                        1-4 nodes each) joined by a random tree and extra
#                        links of random costs 1-5, some down; every node's
#                        route to every other (RouteLogic lookup) on stdout,
#                        CBR flows between random pairs (Tcl's rand, seed S)
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open hier.tr w]
$ns trace-all $tf
set nf [open hier.nam w]
$ns namtrace-all $nf

proc finish {} {
    global ns tf nf
    $ns flush-trace
    close $tf
    close $nf
    exit 0
}

proc showroute {a b} {
    global ns
    if {[catch {[$ns get-routelogic] lookup $a $b} r]} { set r "none ($r)" }
    puts "route $a -> $b: $r"
}

proc show {nodes} {
    foreach n $nodes {
        set a [$n node-addr]
        puts "node [$n id] addr $a packed [AddrParams addr2id $a] back [AddrParams id2addr [AddrParams addr2id $a]]"
    }
}

switch -- $mode {
    mesh {
        $ns node-config -addressType hierarchical
        puts "format [Simulator address-format] levels [AddrParams hlevel]"
        for {set i 1} {$i <= 3} {incr i} {
            puts "level $i shift [AddrParams NodeShift $i] mask [AddrParams NodeMask $i]"
        }
        AddrParams set domain_num_ 2
        AddrParams set cluster_num_ {3 2}
        AddrParams set nodes_num_ {3 2 2 2 3}
        set addrs {0.0.0 0.0.1 0.0.2 0.1.0 0.1.1 0.2.0 0.2.1 1.0.0 1.0.1 1.1.0 1.1.1 1.1.2}
        foreach a $addrs { lappend n [$ns node $a] }
        show $n
        # cluster 0.0: 0-1-2 in a line; 0.0.0 to 0.1.0 (cost 3), 0.0.2 to 0.1.1
        # (cost 1); 0.1: 3-4; 0.2: 5-6, joined to 0.1.1 and 0.0.2; domain 1
        # through 0.2.1 (to 1.0.0) and through 0.0.0 (to 1.1.0, cost 4)
        foreach {a b c} {0 1 1  1 2 1  0 3 3  2 4 1  3 4 1  5 6 1  4 5 1  2 6 2
                         6 7 1  0 9 4  7 8 1  8 10 1  9 10 1  10 11 1} {
            $ns duplex-link [lindex $n $a] [lindex $n $b] 2Mb 5ms DropTail
            if {$c != 1} { $ns cost [lindex $n $a] [lindex $n $b] $c; $ns cost [lindex $n $b] [lindex $n $a] $c }
        }
        $ns queue-limit [lindex $n 6] [lindex $n 7] 5
        if {[lindex $argv 1] eq "session"} {
            $ns rtproto Session
            $ns rtmodel-at 0.7 down [lindex $n 0] [lindex $n 3]
            $ns rtmodel-at 1.0 down [lindex $n 2] [lindex $n 6]
            $ns rtmodel-at 1.2 up [lindex $n 0] [lindex $n 3]
            $ns at 1.1 "showroute 6 1; showroute 0 4; showroute 1 11"
        }
        set tcp [$ns create-connection TCP/Reno [lindex $n 1] TCPSink [lindex $n 11] 1]
        $tcp set window_ 30
        set ftp [$tcp attach-app FTP]
        $ns at 0.1 "$ftp start"
        set udp [new Agent/UDP]
        $ns attach-agent [lindex $n 10] $udp
        $udp set fid_ 2
        set null [new Agent/Null]
        $ns attach-agent [lindex $n 4] $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr set rate_ 800kb
        $cbr attach-agent $udp
        $ns at 0.2 "$cbr start"
        set udp2 [new Agent/UDP]
        $ns attach-agent [lindex $n 3] $udp2
        $udp2 set fid_ 3
        set null2 [new Agent/Null]
        $ns attach-agent [lindex $n 1] $null2
        $ns connect $udp2 $null2
        set cbr2 [new Application/Traffic/CBR]
        $cbr2 set rate_ 300kb
        $cbr2 attach-agent $udp2
        $ns at 0.3 "$cbr2 start"
        set udp3 [new Agent/UDP]
        $ns attach-agent [lindex $n 0] $udp3
        $udp3 set fid_ 4
        set null3 [new Agent/Null]
        $ns attach-agent [lindex $n 4] $null3
        # (by its packed address, as scripts often do)
        $udp3 set dst_addr_ [AddrParams addr2id 0.1.1]
        $udp3 set dst_port_ [$null3 set agent_port_]
        puts "udp3 from [$udp3 set agent_addr_] to [$udp3 set dst_addr_].[$udp3 set dst_port_]; tcp to [$tcp set dst_addr_]"
        set cbr3 [new Application/Traffic/CBR]
        $cbr3 set rate_ 200kb
        $cbr3 attach-agent $udp3
        $ns at 0.4 "$cbr3 start"
        $ns at 0.25 "showroute 1 4; showroute 7 3; showroute 0 2; showroute 0 4"
        $ns at 1.5 "finish"
    }
    lan {
        $ns node-config -addressType hierarchical
        AddrParams set domain_num_ 2
        AddrParams set cluster_num_ {2 1}
        AddrParams set nodes_num_ {5 2 2}
        set lanlist {}
        for {set i 1} {$i <= 4} {incr i} { lappend lanlist [$ns node 0.0.$i] }
        set lan [$ns newLan $lanlist 10Mb 1ms -address 0.0.0 -llType LL -ifqType Queue/DropTail \
                     -macType Mac/802_3 -chanType Channel]
        set a [$ns node 0.1.0]
        set b [$ns node 0.1.1]
        set c [$ns node 1.0.0]
        set d [$ns node 1.0.1]
        show [concat $lanlist [list $a $b $c $d]]
        puts "lan [$lan id] addr [$lan node-addr]"
        $ns duplex-link $a [lindex $lanlist 0] 5Mb 2ms DropTail
        $ns duplex-link $b [lindex $lanlist 1] 5Mb 2ms DropTail
        $ns duplex-link $a $b 1Mb 10ms DropTail
        $ns duplex-link $c [lindex $lanlist 3] 5Mb 2ms DropTail
        $ns duplex-link $c $d 5Mb 2ms DropTail
        set tcp [$ns create-connection TCP/Newreno $d TCPSink $b 0]
        $tcp set window_ 20
        set ftp [$tcp attach-app FTP]
        $ns at 0.0 "$ftp start"
        set udp [new Agent/UDP]
        $ns attach-agent [lindex $lanlist 2] $udp
        set null [new Agent/Null]
        $ns attach-agent $a $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $ns at 0.05 "$cbr start"
        $ns at 2.0 "finish"
    }
    random {
        expr {srand([lindex $argv 1])}
        proc pick {n} { expr {int(rand() * $n)} }
        $ns node-config -addressType hierarchical
        set D [expr {1 + [pick 3]}]
        set clusters {}
        set sizes {}
        set addrs {}
        for {set d 0} {$d < $D} {incr d} {
            set C [expr {1 + [pick 3]}]
            lappend clusters $C
            for {set c 0} {$c < $C} {incr c} {
                set N [expr {1 + [pick 4]}]
                lappend sizes $N
                for {set i 0} {$i < $N} {incr i} { lappend addrs $d.$c.$i }
            }
        }
        AddrParams set domain_num_ $D
        AddrParams set cluster_num_ $clusters
        AddrParams set nodes_num_ $sizes
        # nodes in a shuffled order (ids and addresses unrelated)
        set order {}
        foreach a $addrs { lappend order [list [expr {rand()}] $a] }
        set n {}
        foreach x [lsort -real -index 0 $order] { lappend n [$ns node [lindex $x 1]] }
        set nn [llength $n]
        puts "domains $D clusters $clusters nodes $sizes"
        show $n
        set pairs {}
        for {set i 1} {$i < $nn} {incr i} { lappend pairs [pick $i] $i }
        for {set k [pick [expr {$nn + 1}]]} {$k > 0} {incr k -1} {
            set a [pick $nn]
            set b [pick $nn]
            if {$a != $b && ![info exists linked($a:$b)]} { lappend pairs $a $b }
        }
        foreach {a b} $pairs {
            if {[info exists linked($a:$b)] || [info exists linked($b:$a)]} { continue }
            set linked($a:$b) 1
            $ns duplex-link [lindex $n $a] [lindex $n $b] 10Mb 2ms DropTail
            if {[pick 3] == 0} {
                $ns cost [lindex $n $a] [lindex $n $b] [expr {1 + [pick 5]}]
                $ns cost [lindex $n $b] [lindex $n $a] [expr {1 + [pick 5]}]
            }
        }
        for {set f 0} {$f < 4} {incr f} {
            set a [pick $nn]
            set b [pick $nn]
            if {$a == $b} { continue }
            set udp [new Agent/UDP]
            $ns attach-agent [lindex $n $a] $udp
            $udp set fid_ $f
            set null [new Agent/Null]
            $ns attach-agent [lindex $n $b] $null
            $ns connect $udp $null
            set cbr [new Application/Traffic/CBR]
            $cbr set rate_ 100kb
            $cbr attach-agent $udp
            # (only along a route that arrives: ns-2's report of a packet
            # with no route names its classifiers' handles)
            $ns at [expr {0.1 + 0.01 * $f}] "if {\[reaches $a $b $nn\]} { $cbr start }"
        }
        proc reaches {a b nn} {
            for {set k 0} {$k < $nn && $a != $b} {incr k} {
                if {[catch {[[Simulator instance] get-routelogic] lookup $a $b} a]} { return 0 }
            }
            puts "flow to $b: [expr {$a == $b}]"
            expr {$a == $b}
        }
        proc routes {nn} {
            for {set i 0} {$i < $nn} {incr i} {
                set l {}
                for {set j 0} {$j < $nn} {incr j} { lappend l [showhop $i $j] }
                puts "routes from $i: $l"
            }
        }
        proc showhop {a b} {
            global ns
            if {[catch {[$ns get-routelogic] lookup $a $b} r]} { return x }
            return $r
        }
        $ns at 0.05 "routes $nn"
        $ns at 0.5 "finish"
    }
    defaults {
        $ns set-address-format expanded
        $ns set-address-format hierarchical 3 6 8 10
        for {set i 1} {$i <= 3} {incr i} {
            puts "level $i shift [AddrParams NodeShift $i] mask [AddrParams NodeMask $i]"
        }
        AddrParams set domain_num_ 2
        set n0 [$ns node 0.0.0]
        set n1 [$ns node 0.3.4]
        set n2 [$ns node 1.2.2]
        set n3 [$ns node 1.0.0]
        show [list $n0 $n1 $n2 $n3]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
        $ns duplex-link $n0 $n3 1Mb 10ms DropTail
        $ns duplex-link $n3 $n2 1Mb 10ms DropTail
        set udp [new Agent/UDP]
        $ns attach-agent $n1 $udp
        set null [new Agent/Null]
        $ns attach-agent $n2 $null
        $ns connect $udp $null
        set cbr [new Application/Traffic/CBR]
        $cbr attach-agent $udp
        $ns at 0.1 "$cbr start"
        $ns at 1.0 "finish"
    }
}
$ns run
