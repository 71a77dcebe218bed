# set/unset of instance variables
Object o
puts [o set x 1]
puts [o set x]
puts [o set x "a b"]
puts [o set a(1) one]
puts [o set a(2) two]
puts [o set a(1)]
puts [catch {o set a} msg]
puts $msg
puts [catch {o set nosuch} msg]
puts $msg
puts [catch {o set a(9)} msg]
puts $msg
puts [catch {o set x(1) 2} msg]
puts $msg
puts [catch {o set} msg]
puts $msg
puts [catch {o set a b c} msg]
puts $msg
puts [lsort [o info vars]]
puts [o unset x]
puts [lsort [o info vars]]
puts [catch {o unset x} msg]
puts $msg
o set p 1; o set q 2; o set r 3
puts [o unset p q]
puts [lsort [o info vars]]
puts [catch {o unset r nosuch p} msg]
puts $msg
puts [lsort [o info vars]]
puts [catch {o unset} msg]
puts $msg
o unset a(1)
puts [lsort [o info vars]]
puts [o set a(2)]
o unset a
puts [lsort [o info vars]]
# variables are per object
Object o2
o2 set x 10
o set x 20
puts "[o set x] [o2 set x]"
# values with special characters
o set s {[puts bad] $x \n}
puts [o set s]
# numeric-looking names
o set 1 one
puts [o set 1]
