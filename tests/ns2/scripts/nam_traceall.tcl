# trace-all and namtrace-all together (the links' trace objects write both
# files), RED with an early-drop target (its early drops traced for both),
# event traces (E lines in both files), namtrace-all given before or after
# the topology; annotations (in both files).  Usage: ns nam_traceall.tcl ORDER EDROP
#   ORDER: first | late   (namtrace-all before the nodes, or after the links)
#   EDROP: 1 attach a flow monitor with early drops to the RED link, 0 not
lassign $argv order edrop
set ns [new Simulator]
$ns color 1 Blue
set tf [open out.tr w]
$ns trace-all $tf
set nf [open out.nam w]
if {$order eq "first"} { $ns namtrace-all $nf }
$ns eventtrace-all
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
Queue/RED set thresh_ 3
Queue/RED set maxthresh_ 9
Queue/RED set q_weight_ 0.02
$ns duplex-link $n2 $n3 1.5Mb 20ms RED
$ns queue-limit $n2 $n3 15
if {$order eq "late"} { $ns namtrace-all $nf }
$ns duplex-link-op $n2 $n3 queuePos 0.5
if {$edrop} {
    set fmon [$ns makeflowmon Fid]
    $ns attach-fmon [$ns link $n2 $n3] $fmon 1
}
for {set i 0} {$i < 3} {incr i} {
    set tcp($i) [new Agent/TCP/Newreno]
    $tcp($i) set fid_ [expr $i + 1]
    $tcp($i) set window_ 40
    $ns attach-agent [expr {$i == 1 ? $n1 : $n0}] $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $n3 $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
$ns at 1.0 "$ns trace-annotate {half way}"
$ns at 1.5 "flash_annotate 1.6 0.2 {a flash}"
$ns at 2.0 "finish"
proc finish {} {
    global ns nf tf edrop fmon
    if {$edrop} { puts "early drops [$fmon set epdrops_], drops [$fmon set pdrops_]" }
    $ns flush-trace
    close $nf
    close $tf
    exit 0
}
$ns run
