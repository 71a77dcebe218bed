# delayer_misc.tcl -- a Delayer's variables, commands and failure modes.
#
#   n0 --(1Mb, 10ms)-- n1, a CBR (UDP, 1000 bytes every 50 ms) n0 -> n1.
#
# The n0->n1 delayer prints its state at every attempt to send (debug_,
# C's stdout) while it is blocked from 0.2 to 0.35 s; blocking is refused
# once delay spikes are set; a second insert-delayer on a link is refused
# (stderr); at 0.5 s a UDP agent is made to send through a second delayer
# directly (not behind a queue), which then receives a packet while it holds
# one: ns-2 prints "delayer not empty!" and exits with 1.
# Usage: ns delayer_misc.tcl

set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail

set d [new Delayer]
puts "class [$d info class], debug_ [$d set debug_]"
$ns insert-delayer $n0 $n1 $d
$ns insert-delayer $n0 $n1 [new Delayer]
$d set debug_ true
puts "debug_ [$d set debug_]"

set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.05
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns at 0.2 "$d block"
$ns at 0.35 "$d unblock"
$ns at 0.36 "$d unblock"

set d2 [new Delayer]
set int [new RandomVariable/Constant]
$int set val_ 0.3
set len [new RandomVariable/Constant]
$len set val_ 0.1
$d2 spike $int $len
puts "block with spikes set: [catch {$d2 block} e] $e"
$ns insert-delayer $n1 $n0 $d2

# An agent sending straight into a delayer: a burst of three packets.
set udp2 [new Agent/UDP]
$ns attach-agent $n0 $udp2
$ns connect $udp2 $null
set d3 [new Delayer]
$d3 target [$udp2 target]
$udp2 target $d3
$ns at 0.5 "puts {burst at 0.5}; $udp2 send 1000; $udp2 send 1000; $udp2 send 1000"
$ns at 1.0 "puts {not reached}; exit 0"
$ns run
