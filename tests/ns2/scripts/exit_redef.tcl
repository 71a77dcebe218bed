# A script that redefines `exit` and ends without calling it: Tcl's main
# loop, and so ns-2, invokes `exit 0` when the script ends (`exit 1` after
# an error), so the script's own exit runs.
#
# Usage: ns exit_redef.tcl MODE
#   chain   the new exit prints, then calls the original (renamed) with 3
#   return  the new exit prints and returns: the process exits 0
#   error   the script fails; the new exit prints and returns: exit code 1
set mode [lindex $argv 0]
if {$mode eq "chain"} {
    rename exit original_exit
    proc exit {{code 0}} { puts "own exit $code"; original_exit 3 }
} else {
    proc exit {{code 0}} { puts "own exit $code" }
}
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns at 1.0 "puts {at 1.0}"
$ns at 2.0 "$ns halt"
$ns run
puts "run returned at [$ns now]"
if {$mode eq "error"} {
    error "failing on purpose"
}
