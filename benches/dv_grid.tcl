# Distance-vector routing on a K x K grid: updates only (no traffic), the
# link 0-1 down at 5 s and up at 10 s, 20 s simulated, trace-all.
# usage: dumbbell run benches/dv_grid.tcl K   (or: ns benches/dv_grid.tcl K)
set k [lindex $argv 0]
set ns [new Simulator]
set f [open dv_grid.tr w]
$ns trace-all $f
for {set i 0} {$i < $k * $k} {incr i} { set n($i) [$ns node] }
for {set r 0} {$r < $k} {incr r} {
    for {set c 0} {$c < $k} {incr c} {
        set i [expr {$r * $k + $c}]
        if {$c + 1 < $k} { $ns duplex-link $n($i) $n([expr {$i + 1}]) 10Mb 2ms DropTail }
        if {$r + 1 < $k} { $ns duplex-link $n($i) $n([expr {$i + $k}]) 10Mb 2ms DropTail }
    }
}
$ns rtproto DV
$ns rtmodel-at 5.0 down $n(0) $n(1)
$ns rtmodel-at 10.0 up $n(0) $n(1)
$ns at 20 "close $f; exit 0"
$ns run
