# ns-2 sets tcl_precision to 17, so every double Tcl prints has 17
# significant digits (this is what queue-sample-timeout writes for mean
# queue sizes computed with expr).  Dumbbell leaves Tcl's default (shortest).
puts [expr 1.0/3]
puts $tcl_precision
exit 0
