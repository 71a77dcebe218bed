# flush.tcl -- what `$trace flush` and `$ns flush-trace` flush.
#
#   A --(1Mb, 10ms)-- B
#
# ns-2's `$trace flush` flushes the trace object's channel and its nam
# channel (Tcl_Flush of each); `$trace detach` clears both, after which it
# flushes nothing.  The files stay smaller than a Tcl channel buffer, so
# a file's size shows whether it was flushed.
#
# Usage: ns flush.tcl mode
#   mode: nam    namtrace-all only (out.nam)
#         both   trace-all to out.tr and namtrace-all to out.nam
# Prints file sizes after flush-trace at 0.5 s (3 CBR packets sent by
# then) and after flushes of trace objects made by hand.

set mode [lindex $argv 0]
set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
if {$mode eq "both"} {
    set tf [open out.tr w]
    $ns trace-all $tf
}

set A [$ns node]
set B [$ns node]
$ns duplex-link $A $B 1Mb 10ms DropTail

set udp [new Agent/UDP]
$ns attach-agent $A $udp
set null [new Agent/Null]
$ns attach-agent $B $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 200
$cbr set interval_ 0.1
$cbr set maxpkts_ 3
$cbr attach-agent $udp

proc sizes {what args} {
    set l {}
    foreach f $args { lappend l "$f [file size $f]" }
    puts "$what: [join $l {, }]"
}

proc report {} {
    global ns mode
    set files out.nam
    if {$mode eq "both"} { lappend files out.tr }
    eval [list sizes before] $files
    $ns flush-trace
    eval [list sizes {after flush-trace}] $files

    # A trace object with a nam channel only.
    set g1 [open g1.txt w]
    puts $g1 "g1 line"
    set t1 [new Trace/Enque]
    $t1 namattach $g1
    $t1 flush
    sizes {namattach, flush} g1.txt

    # Both channels, then detach: flush flushes neither.
    set g2 [open g2.txt w]
    set g3 [open g3.txt w]
    puts $g2 "g2 line"
    puts $g3 "g3 line"
    set t2 [new Trace/Deque]
    $t2 attach $g2
    $t2 namattach $g3
    $t2 detach
    $t2 flush
    sizes {attach, namattach, detach, flush} g2.txt g3.txt
    # Attached again to the nam channel only: that one is flushed.
    $t2 namattach $g3
    $t2 flush
    sizes {namattach again, flush} g2.txt g3.txt
    # And to a trace channel only.
    $t2 detach
    $t2 attach $g2
    $t2 flush
    sizes {detach, attach, flush} g2.txt g3.txt
    foreach f [list $g1 $g2 $g3] { close $f }
}

proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns at 0.1 "$cbr start"
$ns at 0.5 report
$ns at 1.0 finish
$ns run
