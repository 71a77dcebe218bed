# NS basic2.tcl example of two TCPs competing on the same link, for sweeps.
#
# Dordal 31.3.1 (Two TCP Senders Competing): TCP Reno senders A and B share
# the bottleneck R--D (bottleneckBW Mb, 100ms, queue queuesize).  B's access
# link is delayB ms slower than A's.  As the book's full version, every
# parameter comes from the command line; prints the book's "parameters:" line
# at start-up and its format line (delayB overhead recv0 recv1 rttratio
# rttratio2 actualratio ratio1 ratio2) at the end, last.
#
# Usage: ns basic2.tcl [delayB [overhead [bottleneckBW [endtime [queuesize [seed [tracefile]]]]]]]
#   delayB        additional B--R propagation delay in ms, default 0
#   overhead      Agent/TCP overhead_ (uniform random send delay in [0,overhead]
#                 seconds, drawn from ns-2's RNG), default 0
#   bottleneckBW  R--D bandwidth in Mbit/s (book: 0.8 or 8.0), default 0.8;
#                 the access links are ten times faster
#   endtime       simulated seconds, default 300
#   queuesize     R's queue-limit towards D, default 20
#   seed          if given and not 0, seeds the default RNG (ns-random); with
#                 overhead > 0, different seeds give different runs
#   tracefile     if given (and not "-"), trace-all plus cwnd_ var traces

############## some globals (modify as desired) ##############

# queuesize on bottleneck link
set queuesize 20
# default run time, in seconds
set endtime 300
# "overhead" of D>0 introduces a uniformly randomized delay d, 0<=d<=D; 0 turns it off.
set overhead 0
# delay on the A--R link, in ms
set basedelay 10
# ADDITIONAL delay on the B--R link, in ms
set delayB 0
# bandwidth on the bottleneck link, either 0.8 or 8.0 Mbit
set bottleneckBW 0.8
# estimated no-load RTT for the first flow, in ms
set RTTNL 220
set tracename ""

set seed 0

if { $argc >= 1 } { set delayB [expr [lindex $argv 0]] }
if { $argc >= 2 } { set overhead [expr [lindex $argv 1]] }
if { $argc >= 3 } { set bottleneckBW [expr [lindex $argv 2]] }
if { $argc >= 4 } { set endtime [expr [lindex $argv 3]] }
if { $argc >= 5 } { set queuesize [expr [lindex $argv 4]] }
if { $argc >= 6 } { set seed [expr [lindex $argv 5]] }
if { $argc >= 7 && [lindex $argv 6] != "-" } { set tracename [lindex $argv 6] }

# Create a simulator object
set ns [new Simulator]
if { $seed != 0 } { ns-random $seed }

#Open the trace file (before any link is created, or the links are not traced)
if { $tracename != "" } {
    set trace [open $tracename w]
    $ns trace-all $trace
}

############## arrange for output ##############

set outstr [format "parameters: delayB=%f overhead=%f bottleneckBW=%f" $delayB $overhead $bottleneckBW]
puts stdout $outstr

# Define a 'finish' procedure that prints out progress for each connection
proc finish {} {
        global ns tcp0 tcp1 end0 end1 queuesize trace delayB overhead RTTNL
        # counts of packets *received*
        set recv0 [expr round ( [$end0 set bytes_] / 1000.0)]
        set recv1 [expr round ( [$end1 set bytes_] / 1000.0)]
        # see numbers below in topology-creation section
        set rttratio [expr (2.0*$delayB+$RTTNL)/$RTTNL]
        # actual ratio of throughputs fast/slow; the 1.0 forces floating point
        set actualratio [expr 1.0*$recv0/$recv1]
        # theoretical ratio fast/slow with squaring; see text for discussion of ratio1 and ratio2
        set rttratio2 [expr $rttratio*$rttratio]
        set ratio1 [expr $actualratio/$rttratio]
        set ratio2 [expr $actualratio/$rttratio2]
        set outstr [format "%f %f %d %d %f %f %f %f %f" $delayB $overhead $recv0 $recv1 $rttratio $rttratio2 $actualratio $ratio1 $ratio2 ]
        puts stdout $outstr
        if { [info exists trace] } {
            $ns flush-trace
            close $trace
        }
        exit 0
}

############### create network topology ##############

# A
#   \
#     \
#      R---D (Destination)
#     /
#   /
# B

#Create four nodes
set A [$ns node]
set B [$ns node]
set R [$ns node]
set D [$ns node]

set fastbw [expr $bottleneckBW * 10]
#Create links between the nodes; propdelay on B--R link is 10+$delayB ms
$ns duplex-link $A $R ${fastbw}Mb ${basedelay}ms DropTail
$ns duplex-link $B $R ${fastbw}Mb [expr $basedelay + $delayB]ms DropTail
# this last link is the bottleneck; 1000 bytes at 0.80Mbps => 10 ms/packet
# A--D one-way delay is thus 110 ms prop + 11 ms bandwidth
# the values 0.8Mb, 100ms are from Floyd & Jacobson

$ns duplex-link $R $D ${bottleneckBW}Mb 100ms DropTail

$ns queue-limit $R $D $queuesize

############## create and connect TCP agents, and start ##############

Agent/TCP set window_ 65000
Agent/TCP set packetSize_ 960
Agent/TCP set overhead_ $overhead

#Create a TCP agent and attach it to node A, the delayed path
set tcp0 [new Agent/TCP/Reno]
$tcp0 set class_ 0
# set the flowid here, used as field 8 in the trace
$tcp0 set fid_ 0
$ns attach-agent $A $tcp0

set tcp1 [new Agent/TCP/Reno]
$tcp1 set class_ 1
$tcp1 set fid_ 1
$ns attach-agent $B $tcp1

if { [info exists trace] } {
    foreach t [list $tcp0 $tcp1] {
        $t attach $trace
        $t tracevar cwnd_
    }
}

set end0 [new Agent/TCPSink]
$ns attach-agent $D $end0

set end1 [new Agent/TCPSink]
$ns attach-agent $D $end1

#Connect the traffic source with the traffic sink
$ns connect $tcp0 $end0
$ns connect $tcp1 $end1

#Schedule the connection data flow
set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0

set ftp1 [new Application/FTP]
$ftp1 attach-agent $tcp1

$ns at 0.0 "$ftp0 start"
$ns at 0.0 "$ftp1 start"
$ns at $endtime "finish"

#Run the simulation
$ns run
