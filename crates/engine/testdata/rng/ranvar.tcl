# RandomVariable classes of ranvar.cc; `value` is printed with %.17g by the
# shim (ns-2 itself prints %6e).
source common.tcl
set N 1000
set r1 [new RNG]
set r2 [new RNG]
$r2 next-substream

set v [new RandomVariable/Uniform]
draw uni0 $N {$v value}
$v set min_ -5; $v set max_ 10
draw uni1 $N {$v value}
$v set min_ 3; $v set max_ 3.5
$v use-rng $r1
draw uni2 $N {$v value}
$v set min_ 1e-3; $v set max_ 0
draw uni3 $N {$v value}

set v [new RandomVariable/Exponential]
draw exp0 $N {$v value}
$v set avg_ 0.25
draw exp1 $N {$v value}
$v set avg_ 1000
$v use-rng $r2
draw exp2 $N {$v value}

set v [new RandomVariable/Pareto]
draw par0 $N {$v value}
$v set avg_ 10; $v set shape_ 2.5
draw par1 $N {$v value}
$v set avg_ 0.5; $v set shape_ 1.1
$v use-rng $r1
draw par2 $N {$v value}

set v [new RandomVariable/ParetoII]
draw pa20 $N {$v value}
$v set avg_ 5; $v set shape_ 3
draw pa21 $N {$v value}
$v use-rng $r2
$v set avg_ 1; $v set shape_ 1.5
draw pa22 $N {$v value}

set v [new RandomVariable/Normal]
draw nor0 1001 {$v value}
$v set avg_ 5; $v set std_ 2
draw nor1 $N {$v value}
$v set std_ 0
draw nor2 10 {$v value}
$v set avg_ -1; $v set std_ 0.5
$v use-rng $r1
draw nor3 $N {$v value}

# The polar-method cache is shared by all RNG objects.
set n1 [new RandomVariable/Normal]
$n1 use-rng $r1
set n2 [new RandomVariable/Normal]
$n2 set avg_ 10; $n2 set std_ 3
$n2 use-rng $r2
for {set i 0} {$i < 500} {incr i} {
	puts "nq [$n2 value] [$n1 value]"
}
puts "nq-r1 [$r1 all-seeds]"
puts "nq-r2 [$r2 all-seeds]"
puts "nq-def [$defaultRNG all-seeds]"

set v [new RandomVariable/LogNormal]
draw lno0 $N {$v value}
$v set avg_ 0; $v set std_ 0.5
draw lno1 $N {$v value}
$v use-rng $r2
$v set avg_ 2; $v set std_ 1.5
draw lno2 $N {$v value}

set v [new RandomVariable/Constant]
draw con0 20 {$v value}
$v set val_ 3.5
draw con1 20 {$v value}

set v [new RandomVariable/HyperExponential]
draw hyp0 $N {$v value}
$v set avg_ 2; $v set cov_ 1.5
draw hyp1 $N {$v value}
# ns-2 draws HyperExponential values from the default RNG even after use-rng.
$v use-rng $r1
$v set avg_ 0.5; $v set cov_ 10
draw hyp2 $N {$v value}
puts "hyp-r1 [$r1 all-seeds]"
puts "hyp-def [$defaultRNG all-seeds]"

set v [new RandomVariable/Weibull]
draw wei0 $N {$v value}
$v set shape_ 2; $v set scale_ 3
draw wei1 $N {$v value}
$v set shape_ 0.5; $v set scale_ 10
$v use-rng $r2
draw wei2 $N {$v value}
set v [new RandomVariable/Weibull 2 3]
draw wei3 $N {$v value}

set v [new RandomVariable/Erlang]
draw erl0 $N {$v value}
$v set lambda_ 0.5; $v set k_ 3
draw erl1 $N {$v value}
$v set lambda_ 2; $v set k_ 7
$v use-rng $r1
draw erl2 $N {$v value}

set v [new RandomVariable/Gamma]
draw gam0 $N {$v value}
$v set alpha_ 2.5; $v set beta_ 2
draw gam1 $N {$v value}
$v set alpha_ 0.5; $v set beta_ 1
draw gam2 $N {$v value}
# alpha < 1: u from the variable's RNG, the rest from the default RNG.
$v set alpha_ 0.3; $v set beta_ 2
$v use-rng $r1
draw gam3 $N {$v value}
puts "gam-r1 [$r1 all-seeds]"
puts "gam-def [$defaultRNG all-seeds]"
$v set alpha_ 4; $v set beta_ 0.5
draw gam4 $N {$v value}

set v [new RandomVariable/Empirical]
$v loadCDF cdf1.txt
draw emp0 $N {$v value}
$v set interpolation_ 1
draw emp1 $N {$v value}
$v set interpolation_ 2
draw emp2 $N {$v value}
$v set minCDF_ 0.2; $v set maxCDF_ 0.9
$v use-rng $r2
draw emp3 $N {$v value}
set v [new RandomVariable/Empirical]
$v loadCDF cdf2.txt
$v set interpolation_ 1
draw emp4 $N {$v value}
$v set interpolation_ 0
draw emp5 $N {$v value}
$v set interpolation_ 2
draw emp6 $N {$v value}

puts "end-def [$defaultRNG all-seeds]"
puts "end-r1 [$r1 all-seeds]"
puts "end-r2 [$r2 all-seeds]"
