# A link that was never made dynamic is taken down.  ns-2 2.35 means to warn
# and go on, but its warning fails on an undefined variable: the script stops
# there with exit 1 (nothing after it runs).
set ns [new Simulator]
set a [$ns node]
set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
puts before
[$ns link $a $b] down
puts after
