# Endurance (benches/endurance.py): 8 TCP Reno flows and 2 CBR flows over a
# 10 Mb/s RED bottleneck, for as long as the run is let go (it is stopped
# with --max-events).  argv: "trace" writes the packet trace to /dev/null.
set ns [new Simulator]
if {[lindex $argv 0] eq "trace"} {
    set tf [open /dev/null w]
    $ns trace-all $tf
}
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 10Mb 20ms RED
$ns queue-limit $r1 $r2 50
for {set i 0} {$i < 10} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 100Mb [expr {1 + $i}]ms DropTail
    $ns duplex-link $r2 $d($i) 100Mb 1ms DropTail
}
for {set i 0} {$i < 8} {incr i} {
    set tcp [$ns create-connection TCP/Reno $s($i) TCPSink $d($i) $i]
    set ftp [$tcp attach-app FTP]
    $ns at [expr {0.1 * $i}] "$ftp start"
}
for {set i 8} {$i < 10} {incr i} {
    set udp [new Agent/UDP]
    $ns attach-agent $s($i) $udp
    set null [new Agent/Null]
    $ns attach-agent $d($i) $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set rate_ 1Mb
    $cbr attach-agent $udp
    $ns at 0.05 "$cbr start"
}
$ns at 1e9 "exit 0"
$ns run
