# red_reset_order.tcl -- the order in which $ns run resets queues (and RED
# queues write their traced cur_max_p_) follows Tcl's hash order of the
# Simulator's link_ array, which ns-2's library shapes by probing elements
# with info exists.  From tests/random/found (check.py --stress seed 101701).
# Writes red.tr.
# Two RED queues (both directions of the last of six duplex links) trace
# cur_max_p_ into one file: the lines written when `$ns run` resets every
# queue come in the order of [array names link_].
set ns [new Simulator]
set f [open red.tr w]
for {set i 0} {$i < 6} {incr i} {
    set n($i) [$ns node]
}
$ns duplex-link $n(2) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(5) $n(4) 1Mb 10ms DropTail
$ns duplex-link $n(5) $n(2) 1Mb 10ms DropTail
$ns duplex-link $n(0) $n(4) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(1) $n(0) 1Mb 10ms RED
set q10 [[$ns link $n(1) $n(0)] queue]
set q01 [[$ns link $n(0) $n(1)] queue]
$q10 set linterm_ 3
$q01 set linterm_ 20
$q10 trace cur_max_p_
$q10 attach $f
$q01 trace cur_max_p_
$q01 attach $f
$ns at 1 "close $f; exit 0"
$ns run
