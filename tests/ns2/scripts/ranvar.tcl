# ranvar.tcl -- every RandomVariable class drawn from the default RNG, one on its
# own RNG (use-rng), an empirical CDF with interpolation; prints the draws.
# Usage: ns ranvar.tcl   (writes cdf.txt)
set ns [new Simulator]
foreach c {Uniform Exponential Erlang Gamma Pareto ParetoII Normal LogNormal Constant HyperExponential Weibull} {
  set rv [new RandomVariable/$c]
  set l {}
  for {set i 0} {$i < 5} {incr i} { lappend l [$rv value] }
  puts "$c $l"
}
set r [new RNG]
$r seed 7
set u [new RandomVariable/Uniform]
$u set min_ 2
$u set max_ 5
$u use-rng $r
puts "uniform rng [$u value] [$u value] [$u set min_]"
set f [open cdf.txt w]
puts $f "1 0 0.1\n5 0 0.5\n10 0 1.0"
close $f
set e [new RandomVariable/Empirical]
$e loadCDF cdf.txt
$e set interpolation_ 1
puts "empirical [$e value] [$e value] [$e value]"
set g [new RandomVariable/Gamma]
$g set alpha_ 0.5
puts "gamma [$g value] [$g value]"
set x [new RandomVariable/Exponential]
$x use-rng $r
puts "exp [$x value] [$x set avg_]"
