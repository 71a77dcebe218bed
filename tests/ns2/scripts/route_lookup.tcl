# RouteLogic's lookup as ns-route.tcl and route.cc do it: the same node
# (compared as Tcl compares), an unknown source node, destination ids read
# with C's atoi, the flat table's size (16, doubling past the largest id a
# link joins) and the ids past it.
#   ns route_lookup.tcl N      N nodes in a chain (default 3)
set ns [new Simulator]
set n [expr {[llength $argv] ? [lindex $argv 0] : 3}]
for {set i 0} {$i < $n} {incr i} { set node($i) [$ns node] }
for {set i 1} {$i < $n} {incr i} { $ns duplex-link $node([expr {$i - 1}]) $node($i) 1Mb 10ms DropTail }
proc show {a b} {
    global ns
    if {[catch {[$ns get-routelogic] lookup $a $b} r]} { set r "ERR($r)" }
    puts "lookup {$a} {$b}: $r"
}
$ns at 0.5 {
    set last [expr {$n - 1}]
    foreach {a b} [list 0 $last $last 0 0 0 5 5 0 99 99 0 0 $n abc abc 0 abc 0 1.5 0 " 1" 0 +1 0 " -0" \
                       0 14 0 15 0 16 0 30 0 31 0 32 0 63 0 64 1 0x1 0 1e1] {
        show $a $b
    }
}
$ns at 1 "exit 0"
$ns run
