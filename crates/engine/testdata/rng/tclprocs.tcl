# Tcl-level procs of ns-random.tcl, ns-random, and the RNG normal/lognormal
# commands (printed with %.17g by the shim).
source common.tcl
draw gu 2000 {g17 [uniform 0 10]}
draw gu2 1000 {g17 [uniform -3.5 1e6]}
draw gi 2000 {integer 1000}
draw gi2 500 {integer -7}
draw ge 2000 {g17 [exponential]}
draw ge2 1000 {g17 [exponential 2.5]}
set r [new RNG]
$r next-substream
draw ru 1000 {g17 [$r uniform 1 2]}
draw ri 1000 {$r integer 33}
draw re 1000 {g17 [$r exponential 0.1]}
draw ns 3000 {ns-random}
puts "nsr [ns-random 7]"
puts "def [$defaultRNG all-seeds]"
draw ns 1000 {ns-random}
puts "pkg [[new RNG] all-seeds]"
draw nrm 2001 {$defaultRNG normal 0 1}
draw nrm2 1000 {$r normal 5 2}
draw nrm3 999 {$defaultRNG normal 1 0.25}
draw lnm 2000 {$r lognormal 1 1}
draw lnm2 1000 {$defaultRNG lognormal 0 0.5}
puts "def [$defaultRNG all-seeds]"
puts "r [$r all-seeds]"
