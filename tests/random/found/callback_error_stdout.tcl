# An error in a `$ns at` callback: ns-2 (tclcl's Tcl::eval) prints
#   ns: nosuch 1: invalid command name "nosuch"
#       while executing
#   "nosuch 1"
# on stdout and exits 1; Dumbbell exits 1 too but writes its own report on
# stderr and nothing on stdout.
set ns [new Simulator]
$ns at 1 "nosuch 1"
$ns at 2 "exit 0"
$ns run
