# Ordinary TCP and CBR traffic through a Queue/XCP beside an XCP flow: ns-2
# queues them in the XCP queue's two RED virtual queues (ns-queue.tcl's
# create-vqueues), made with Queue/RED's class defaults of that moment.
#   default   Queue/RED's defaults (automatic thresholds from the link)
#   classvars Queue/RED thresholds, weight and gentle_ changed before the link
#   reset     the XCP queue reset while it holds packets of all three kinds
#   qtrace    a limit of 8; the XCP queue's own trace file (attach), its samples every
#             0.05 s from 1 s (queue-sample-everyrtt), flows below 1 counted
#             as mice (num-mice), and its drop count (queue-read-drops)
#   vqtrace   the TCP virtual queue reached as ns-2's tcl/ex/xcp/xcp-tcp.tcl
#             does ([$q set vq_(1)]): its curq_, ave_ and prob1_ traced into a
#             file, its thresholds changed and read back
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open xcp_red_vq.tr w]
$ns trace-all $tf
if {$mode eq "classvars"} {
    Queue/RED set thresh_ 2
    Queue/RED set maxthresh_ 6
    Queue/RED set q_weight_ 0.1
    Queue/RED set gentle_ false
}
set n0 [$ns node]; set n1 [$ns node]; set n2 [$ns node]; set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 10Mb 5ms DropTail
$ns duplex-link $n2 $n3 2Mb 20ms XCP
$ns queue-limit $n2 $n3 30
set q [[$ns link $n2 $n3] queue]
$q set-link-capacity 2000000
[[$ns link $n3 $n2] queue] set-link-capacity 2000000
set x [new Agent/TCP/Reno/XCP]; $ns attach-agent $n0 $x
set xs [new Agent/TCPSink/XCPSink]; $ns attach-agent $n3 $xs; $ns connect $x $xs
set t [new Agent/TCP/Reno]; $t set window_ 40; $ns attach-agent $n1 $t
set ts [new Agent/TCPSink]; $ns attach-agent $n3 $ts; $ns connect $t $ts
set u [new Agent/UDP]; $ns attach-agent $n1 $u
set nl [new Agent/Null]; $ns attach-agent $n3 $nl; $ns connect $u $nl
set cbr [new Application/Traffic/CBR]; $cbr attach-agent $u; $cbr set rate_ 800kb
set f1 [new Application/FTP]; $f1 attach-agent $x
set f2 [new Application/FTP]; $f2 attach-agent $t
$ns at 0.1 "$f1 start"; $ns at 0.3 "$f2 start"; $ns at 0.5 "$cbr start"
if {$mode eq "reset"} {
    $ns at 1.5 "$q reset"
    $ns at 2.0 "$q reset"
}
puts "XCP queue $q, a RED made after it: [new Queue/RED]"
if {$mode eq "qtrace"} {
    $ns queue-limit $n2 $n3 8
    set qf [open xcp_queue.tr w]
    $q attach $qf
    $q num-mice 1
    $ns at 1.0 "$q queue-sample-everyrtt 0.05"
}
if {$mode eq "vqtrace"} {
    set vf [open xcp_vq1.tr w]
    set tcpq [$q set vq_(1)]
    $tcpq attach $vf
    $tcpq trace curq_
    $tcpq trace ave_
    $tcpq trace prob1_
    $tcpq set thresh_ 3
    $tcpq set maxthresh_ 9
    puts "TCP virtual queue $tcpq: thresh_ [$tcpq set thresh_] maxthresh_ [$tcpq set maxthresh_] limit_ [$tcpq set limit_]"
    $ns at 2.0 "puts \"at 2.0 the TCP virtual queue's ave_ is \[$tcpq set ave_\]\""
}
proc finish {} {
    global ns tf t x q mode
    if {$mode eq "qtrace"} {
        puts "XCP drops [$q queue-read-drops]"
    }
    puts "reno ack_ [$t set ack_] nrexmitpack_ [$t set nrexmitpack_]; xcp ack_ [$x set ack_] cwnd_ [$x set cwnd_]"
    $ns flush-trace
    close $tf
    exit 0
}
$ns at 3 "finish"
$ns run
