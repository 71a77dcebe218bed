# Helpers shared by the oracle scripts (sourced first).  Every output line
# is "<tag> <value> ...".
proc draw {tag n script} {
	for {set i 0} {$i < $n} {incr i 10} {
		set l {}
		for {set j 0} {$j < 10 && $i + $j < $n} {incr j} {
			lappend l [uplevel 1 $script]
		}
		puts "$tag [join $l]"
	}
}
proc g17 {x} { format %.17g $x }
