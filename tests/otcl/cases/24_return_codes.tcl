# return codes from methods
Class Foo
Foo instproc brk {} { return -code break }
Foo instproc cont {} { return -code continue }
Foo instproc ret {} { return -code return "rr" }
Foo instproc val {} { return val }
Foo instproc ok {} { return -code ok "fine" }
Foo instproc custom {} { return -code 7 "seven" }
Foo f
set out {}
foreach i {1 2 3 4} {
    if {$i == 3} { f brk }
    lappend out $i
}
puts $out
set out {}
foreach i {1 2 3 4} {
    if {$i == 2} { f cont }
    lappend out $i
}
puts $out
proc caller {} {
    f ret
    return "after"
}
puts [caller]
puts [f ok]
puts [catch {f custom} msg]
puts $msg
puts [catch {f brk}]
puts [catch {f cont}]
# through next
Class Sub -superclass Foo
Sub instproc brk {} { $self next }
Sub s
# (break returned from next inside a method body is an error there)
set out {}
foreach i {1 2 3} {
    if {$i == 2} { lappend out [catch {s brk} msg] $msg }
    lappend out $i
}
puts $out
# the result of the last command is the method's value
Foo instproc implicit {} { set a 5; expr {$a * 2} }
puts [f implicit]
