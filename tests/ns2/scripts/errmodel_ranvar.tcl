# An error model drawing from its own random variable (`$em ranvar $rv`).
#   ns emrv.tcl uniform|exp|rng|byte ?head|link?
# head: `$ns lossmodel` (before the queue); link: `$ns link-lossmodel` (after the link)
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 2Mb 20ms DropTail
set mode [lindex $argv 0]
set em [new ErrorModel]
$em set rate_ 0.05
switch $mode {
    uniform { set rv [new RandomVariable/Uniform] }
    exp { set rv [new RandomVariable/Exponential]; $rv set avg_ 4.0 }
    rng {
        set rng [new RNG]
        $rng seed 7
        set rv [new RandomVariable/Uniform]
        $rv set max_ 0.5
        $rv use-rng $rng
    }
    byte { $em unit byte; $em set rate_ 0.0001; set rv [new RandomVariable/Uniform] }
}
$em ranvar $rv
puts "ranvar [expr {[$em ranvar] == $rv}]"
$em drop-target [new Agent/Null]
if {[lindex $argv 1] eq "link"} {
    $ns link-lossmodel $em $n1 $n2
} else {
    $ns lossmodel $em $n1 $n2
}
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
# the default RNG keeps its own sequence (the flow's start jitter is none here)
$ns at 0.1 "$ftp start"
$ns at 0.15 {puts "default [ns-random]"}
$ns at 5.0 "finish"
proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "acked [$tcp set ack_] retransmits [$tcp set nrexmitpack_]"
    exit 0
}
$ns run
