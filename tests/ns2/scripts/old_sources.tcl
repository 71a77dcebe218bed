# old_sources.tcl -- the sources from before Application/*: Source/FTP
# (produce, producemore, start, stop through advance/advanceby) and
# Source/Telnet, made with new and attach; maxpkts_ is an instance variable
# of Source/FTP only; OTcl handles as ns-2.
#
# Usage: ns old_sources.tcl
# Writes out.tr.

set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]
set f [open out.tr w]; $ns trace-all $f
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]
set ftp [new Source/FTP]
puts "ftp $ftp [$ftp set maxpkts_] [$ftp info class]"
$ftp attach $tcp
$ns at 0.1 "$ftp produce 20"
$ns at 1.0 "$ftp producemore 10"
$ns at 1.5 "$ftp start"
$ns at 1.8 "$ftp stop"
set tcp2 [$ns create-connection TCP/Reno $n0 TCPSink $n1 1]
set tcp3 [$ns create-connection TCP/Newreno $n0 TCPSink $n1 2]
set src3 [$tcp3 attach-source FTP]
puts "attach-source: [$src3 info class] [$tcp3 set type_]"
$ns at 0.3 "$src3 produce 7"
set tel [new Source/Telnet]
$tel attach $tcp2
$tel set interval_ 0.05
puts "telnet $tel [catch {$tel set maxpkts_} m] $m [$tel info class]"
$ns at 0.2 "$tel start"
$ns at 2.5 "$tel stop"
proc finish {} {
    global ns tcp tcp2
    $ns flush-trace
    puts "[$tcp set ack_] [$tcp2 set ack_] [$tcp set maxseq_] [$tcp2 set maxseq_]"
    exit 0
}
$ns at 3 finish
$ns run

