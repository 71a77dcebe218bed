# RNG state when a user script starts, and the first draws of the default RNG.
source common.tcl
puts "default [$defaultRNG all-seeds]"
puts "rtglib [$rtglibRNG all-seeds]"
puts "defseed [$defaultRNG seed]"
set r1 [new RNG]
puts "new1 [$r1 all-seeds]"
set ns [new Simulator]
set r2 [new RNG]
puts "new2 [$r2 all-seeds]"
draw nr 5000 {$defaultRNG next-random}
draw r1 2000 {$r1 next-random}
draw r2 1000 {$r2 next-random}
draw rt 1000 {$rtglibRNG next-random}
puts "default [$defaultRNG all-seeds]"
puts "defseed [$defaultRNG seed]"
