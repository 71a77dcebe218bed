# Run WITHOUT the shim: ns-2's own %6e / %g output of a few values.
source common.tcl
set v [new RandomVariable/Exponential]
draw e6 300 {$v value}
set v [new RandomVariable/Pareto]
draw p6 300 {$v value}
set v [new RandomVariable/Uniform]
$v set min_ -1e-7; $v set max_ 1e-7
draw u6 300 {$v value}
draw ng 300 {$defaultRNG normal 0 1}
draw lg 300 {$defaultRNG lognormal 3 2}
draw td 300 {$defaultRNG testdouble 1e9}
