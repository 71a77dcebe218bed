# Streams, substreams and seeding.
source common.tcl
set r [new RNG]
puts "init [$r all-seeds]"
draw nr 3000 {$r next-random}
puts "state [$r all-seeds]"
$r next-substream
puts "sub1 [$r all-seeds]"
draw nr 1000 {$r next-random}
$r reset-start-substream
puts "reset [$r all-seeds]"
draw nr 500 {$r next-random}
for {set i 0} {$i < 5} {incr i} {
	$r next-substream
	puts "sub [$r all-seeds]"
	draw nr 20 {$r next-random}
}
$r reset-start-substream
puts "reset [$r all-seeds]"
foreach s {1 2 7 12345 2147483646 999999999 65536 4294967297 12abc} {
	$r seed $s
	puts "raw $s [$r all-seeds]"
	set n [new RNG]
	puts "rawnew [$n all-seeds]"
	draw nr 300 {$r next-random}
	draw nn 30 {$n next-random}
	puts "seed [$r seed]"
}
for {set i 0} {$i < 64} {incr i} {
	$r seed predef $i
	puts "predef $i [$r all-seeds]"
	draw nr 5 {$r next-random}
}
puts "pkg [[new RNG] all-seeds]"
$r seed raw 77
puts "raw77 [$r all-seeds]"
foreach s {-5 2147483647 -2147483648} {
	catch {$r seed $s} msg
	puts "err $s $msg"
	puts "errstate [$r all-seeds]"
}
draw ti 2000 {$r testint 1000}
draw ti7 1000 {$r testint 7}
draw tin 200 {$r testint -5}
draw td 1000 {$r testdouble 3.5}
puts "final [$r all-seeds]"
puts "pkg [[new RNG] all-seeds]"
