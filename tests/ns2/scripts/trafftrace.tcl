# trafftrace.tcl -- trace-driven sources (Application/Traffic/Trace,
# trace/traffictrace.cc) reading ns-2's binary traffic trace format.
#
#   u0, u1, u2 --(10Mb, 5ms)-- r --(1Mb, 20ms, DropTail 20)-- k
#
# The script first writes a trace file of NREC records (each two
# big-endian 32-bit words: the gap to the next packet in microseconds and
# the packet's size in bytes), gaps and sizes varying in a fixed pattern.
# Two UDP sources (u0, u1) share it through one Tracefile; a third (u2)
# reads a second, shorter file, so it wraps around often; each starts at a
# random record (drawn from the default RNG at start).  u1 stops at
# 4 s and starts again at 5 s (a new random start).  A Reno flow u0 -> k
# competes.
#
# Usage: ns trafftrace.tcl endtime [nrec]
# Writes trafftrace.tr (trace-all).

set endtime [lindex $argv 0]
set nrec [expr {[llength $argv] > 1 ? [lindex $argv 1] : 500}]

proc write_trace {name n seed} {
    set f [open $name w]
    fconfigure $f -translation binary
    set x $seed
    for {set i 0} {$i < $n} {incr i} {
        set x [expr {($x * 1103515245 + 12345) % 2147483648}]
        set gap [expr {2000 + $x % 18000}]
        set size [expr {40 + ($x / 7) % 1460}]
        puts -nonewline $f [binary format II $gap $size]
    }
    close $f
}
write_trace tt-long.bin $nrec 17
write_trace tt-short.bin 7 3

set ns [new Simulator]
set tf [open trafftrace.tr w]
$ns trace-all $tf
set r [$ns node]
set k [$ns node]
foreach i {0 1 2} {
    set u($i) [$ns node]
    $ns duplex-link $u($i) $r 10Mb 5ms DropTail
}
$ns duplex-link $r $k 1Mb 20ms DropTail
$ns queue-limit $r $k 20

set long [new Tracefile]
$long filename tt-long.bin
set short [new Tracefile]
$short filename tt-short.bin

foreach i {0 1 2} {
    set udp($i) [new Agent/UDP]
    $udp($i) set fid_ [expr $i + 1]
    $ns attach-agent $u($i) $udp($i)
    set null($i) [new Agent/Null]
    $ns attach-agent $k $null($i)
    $ns connect $udp($i) $null($i)
    set src($i) [new Application/Traffic/Trace]
    $src($i) attach-tracefile [expr {$i < 2 ? $long : $short}]
    $src($i) attach-agent $udp($i)
    $ns at [expr 0.2 * $i] "$src($i) start"
}
$ns at 4.0 "$src(1) stop"
$ns at 5.0 "$src(1) start"
set tcp [$ns create-connection TCP/Reno $u(0) TCPSink $k 9]
set ftp [$tcp attach-app FTP]
$ns at 1.0 "$ftp start"

proc finish {} {
    global ns tf
    $ns flush-trace
    close $tf
    exit 0
}
$ns at $endtime "finish"
$ns run
