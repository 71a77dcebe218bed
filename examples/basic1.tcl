# basic1.tcl simulation: A---R---B
#
# Dordal, "An Introduction to Computer Networks", 31.2 (A Single TCP Sender),
# reconstructed from the book's listing: one TCP Reno sender A -> R -> B,
# 10Mb/10ms access link, 800Kb/50ms bottleneck, queue-limit 7 at R,
# window_ 100, packetSize_ 960 (1000-byte packets on the wire).
# trace-all and namtrace-all go to basic1.tr / basic1.nam; the variable
# traces of cwnd_, ssthresh_, ack_ and maxseq_ are attached to the same
# trace file, so packet records and variable records are interleaved.
#
# Usage: ns basic1.tcl [endtime]       (default 10; the book also uses 1000)
#
# Book figures for endtime 10: last "ack_ 808" at 9.98029, last
# "maxseq_ 829" at 9.99029, first drop "d 0.58616 1 2 tcp 1000 ... 28 43".

set endtime 10
if { $argc >= 1 } {
    set endtime [expr [lindex $argv 0]]
}

#Create a simulator object
set ns [new Simulator]

#Open the nam file basic1.nam and the trace file basic1.tr
set namfile [open basic1.nam w]
$ns namtrace-all $namfile
set tracefile [open basic1.tr w]
$ns trace-all $tracefile

#Define a 'finish' procedure
proc finish {} {
        global ns namfile tracefile
        $ns flush-trace
        close $namfile
        close $tracefile
        exit 0
}

#Create the network nodes
set A [$ns node]
set R [$ns node]
set B [$ns node]

#Create a duplex link between the nodes

$ns duplex-link $A $R 10Mb 10ms DropTail
$ns duplex-link $R $B 800Kb 50ms DropTail

# The queue size at $R is to be 7, including the packet being sent
$ns queue-limit $R $B 7

# some hints for nam
# color packets of flow 0 red
$ns color 0 Red
$ns duplex-link-op $A $R orient right
$ns duplex-link-op $R $B orient right
$ns duplex-link-op $R $B queuePos 0.5

# Create a TCP sending agent and attach it to A
set tcp0 [new Agent/TCP/Reno]
# We make our one-and-only flow be flow 0
$tcp0 set class_ 0
$tcp0 set window_ 100
$tcp0 set packetSize_ 960
$ns attach-agent $A $tcp0

# Let's trace some variables
$tcp0 attach $tracefile
$tcp0 tracevar cwnd_
$tcp0 tracevar ssthresh_
$tcp0 tracevar ack_
$tcp0 tracevar maxseq_

#Create a TCP receive agent (a traffic sink) and attach it to B
set end0 [new Agent/TCPSink]
$ns attach-agent $B $end0

#Connect the traffic source with the traffic sink
$ns connect $tcp0 $end0

#Schedule the connection data flow; start sending data at T=0, stop at T=$endtime
set myftp [new Application/FTP]
$myftp attach-agent $tcp0
$ns at 0.0 "$myftp start"
$ns at $endtime "finish"

#Run the simulation
$ns run
