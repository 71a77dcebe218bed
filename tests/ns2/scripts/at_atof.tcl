# at_atof.tcl -- `$ns at` reads its time with C's atof, as ns-2 does:
# hex numbers, trailing garbage, exponents and leading dots.
set ns [new Simulator]
foreach t {0x10 " 2.5abc" 1e1 .5 3. +4 0x1p2 junk} {
    $ns at $t "puts \"[list $t] fired at \[\$ns now\]\""
}
$ns at 20 {exit 0}
$ns run
