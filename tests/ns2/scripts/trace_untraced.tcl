# Tracing a variable that is bound but not a TracedVar.
#   arg "caught":  variables bound the ordinary way (NewReno's and Sack1's
#                  switches, a sink's bytes_, a UDP agent's packetSize_) give
#                  an error the script catches, and the run goes on.
#   arg "tcp":     a TCP sender's window_ (delay-bound) traced mid-run: ns-2
#                  reports and exits with 1, inside `catch` too; the
#                  trace-all file is flushed.
#   arg "sink":    a sink's fid_ (delay-bound, Agent's), at set-up.
set mode [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 20ms DropTail
set tcp [new Agent/TCP/Newreno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.0 "$ftp start"
set udp [new Agent/UDP]
set sack [new Agent/TCP/Sack1]
foreach {o v} [list $tcp newreno_changes_ $sack partial_ack_ $sink bytes_ $udp packetSize_] {
    puts "[catch {$o trace $v} m] $m"
}
if {$mode eq "sink"} {
    puts "tracing fid_"
    catch {$sink trace fid_}
    puts "not reached"
}
if {$mode eq "tcp"} {
    $ns at 0.5 {puts "at [$ns now]"; catch {$tcp trace window_}; puts "not reached"}
}
$ns at 1.0 {puts "done at [$ns now]"; $ns flush-trace; exit 0}
$ns run
