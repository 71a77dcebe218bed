# C-level output (a queue's printstats, printf in ns-2) reaches stdout after
# the Tcl output, also when the script then fails.
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set q [[$ns link $a $b] queue]
$q set summarystats_ true
puts "before"
$q printstats
puts "after"
error "failing on purpose"
