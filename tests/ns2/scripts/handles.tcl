# OTcl handles (_oN) of the objects a script makes, as ns-2 numbers them:
# the next handle is printed after each construct.
#   ns handles.tcl TRACE NAM ROUTING
# TRACE, NAM: 1 for trace-all / namtrace-all (0 for none); ROUTING: Static
# or Session.
set ns [new Simulator]
puts "simulator $ns null [$ns set nullAgent_]"
proc next {what} { puts [format "%-14s %s" $what [SplitObject getid]] }
lassign $argv trace nam routing
if {$routing eq "Session"} { $ns rtproto Session }
if {$trace} { $ns trace-all [open out.tr w] }
if {$nam} { $ns namtrace-all [open out.nam w] }
next start
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
puts "nodes $n(0) $n(5)"
next nodes
$ns duplex-link $n(0) $n(1) 10Mb 5ms DropTail
next duplex
$ns duplex-link $n(1) $n(2) 1Mb 20ms RED
next duplex-red
$ns simplex-link $n(2) $n(3) 1Mb 20ms DropTail
$ns simplex-link $n(3) $n(2) 1Mb 20ms RED
next simplex
$ns duplex-link $n(3) $n(4) 1Mb 20ms DropTail
$ns duplex-link $n(4) $n(5) 1Mb 20ms DropTail
$ns duplex-link-op $n(0) $n(1) orient right
$ns duplex-link-op $n(1) $n(2) queuePos 0.5
$ns color 1 Blue
next link-ops
$ns queue-limit $n(1) $n(2) 15
$ns trace-queue $n(3) $n(4) [open tq.tr w]
$ns namtrace-queue $n(1) $n(2)
next trace-queue
set qm [new QueueMonitor]
[$ns link $n(2) $n(3)] attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qm
set mq [$ns monitor-queue $n(4) $n(5) [open mq.tr w] 0.1]
next monitors
set fm [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $n(0) $n(1)] $fm
next flowmon
set em [new ErrorModel]
$em set rate_ 0.01
$em ranvar [new RandomVariable/Uniform]
$ns lossmodel $em $n(3) $n(4)
$ns link-lossmodel [new ErrorModel/Periodic] $n(4) $n(3)
next errormodels
set tcp [new Agent/TCP/Sack1]
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink/Sack1/DelAck]
$ns attach-agent $n(5) $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
puts "tcp $tcp sink $sink ftp $ftp"
next sack
$tcp attach [open v.tr w]
$tcp trace cwnd_
next vartrace
set udp [new Agent/UDP]
$ns attach-agent $n(1) $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $n(4) $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
next cbr
set t2 [new Agent/TCP/Newreno]
$ns attach-agent $n(2) $t2
set s2 [new Agent/TCPSink]
$ns attach-agent $n(0) $s2
$ns connect $t2 $s2
set tel [new Application/Telnet]
$tel attach-agent $t2
next telnet
set t3 [$ns create-connection TCP/Reno $n(5) TCPSink/DelAck $n(1) 2]
set cl [$ns create-connection-list TCP $n(4) TCPSink $n(0) 3]
puts "cc $t3 cclist $cl"
next connections
set rng [new RNG]
set rv [new RandomVariable/Exponential]
$rv use-rng $rng
next random
$ns rtmodel Deterministic {0.5 1.0 0.2} $n(1) $n(2)
$ns rtmodel-at 1.5 down $n(3)
$ns rtmodel-at 1.7 up $n(3)
$ns rtmodel Exponential {0.8 0.3} $n(0) $n(1)
next rtmodels
$ns at 0.1 "$ftp start; $cbr start; $tel start"
$ns at 0.7 {next at-0.7; set x [new Agent/TCP]; puts "made $x"}
$ns at 2.0 "next end; exit 0"
$ns run
