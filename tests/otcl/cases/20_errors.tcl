# errors raised inside methods
Class Foo
Foo instproc fail {x} {
    set y 1
    error "failed with $x"
}
Foo instproc outer {} {
    $self fail 42
}
Foo f
puts [catch {f outer} msg]
puts $msg
set ei $::errorInfo
puts [lindex [split $ei \n] 0]
puts [string match {*error "failed with $x"*} $ei]
puts [string match {*$self fail 42*} $ei]
puts [string match {*f outer*} $ei]
# line numbers of the failing method appear in errorInfo
puts [regexp {line 3\)} $ei]
# errorCode is preserved
Foo instproc coded {} { error msg info {MY CODE} }
catch {f coded}
puts $::errorCode
# return -code error
Foo instproc ret {} { return -code error "via return" }
puts [catch {f ret} msg]
puts $msg
# errors in init propagate through create and the unknown shorthand
Foo instproc init {args} { if {$args eq "bad"} { error "bad init" } }
puts [catch {Foo create g bad} msg]
puts $msg
puts [catch {Foo h bad} msg]
puts $msg
puts [string match {*bad init*} $::errorInfo]
# wrong number of arguments to a method
puts [catch {f fail} msg]
puts [string match "wrong # args*" $msg]
puts [catch {f fail 1 2} msg]
puts [string match "wrong # args*" $msg]
# catch inside a method
Foo instproc safe {} {
    if {[catch {$self fail 1} m]} { return "caught: $m" }
    return none
}
puts [f safe]
# error from a deeply nested next chain
Class Sub -superclass Foo
Sub instproc fail {x} { $self next $x }
Sub s
puts [catch {s fail 7} msg]
puts $msg
