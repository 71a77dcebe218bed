# Heuristic (clock) seeds; run with a fixed gettimeofday (see regen.sh).
source common.tcl
set r [new RNG]
$r seed 0
puts "h1 [$r all-seeds]"
draw nr 10 {$r next-random}
puts "pkg [[new RNG] all-seeds]"
$r seed heuristic 5
puts "h2 [$r all-seeds]"
set q [new RNG]
$q seed 0
puts "h3 [$q all-seeds]"
puts "nsr [ns-random 0]"
puts "def [$defaultRNG all-seeds]"
draw nr 10 {$defaultRNG next-random}
puts "pkg [[new RNG] all-seeds]"
