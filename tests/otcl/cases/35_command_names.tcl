# Objects named like Tcl commands: OTcl's `Class name` (and `create`)
# replace the command, for the script; the object system goes on working.
Class Foo
Foo instproc init args {}
Foo instproc add {l x} {
    lappend l $x
}
Foo lappend
puts [lappend info class]
puts [catch {lappend l 1} msg]
puts $msg
Foo f
puts [catch {f add {1 2} 3} msg]
puts $msg
Foo string
puts [string info class]
Class Bar -superclass Foo
Bar instproc hello {} {
    $self instvar n
    set n 5
    expr {$n + 1}
}
Bar b
puts [b info class]
puts [b hello]
puts [catch {string length abc} msg]
puts $msg
proc myproc {} {expr 1}
Foo myproc
puts [myproc info class]
myproc destroy
puts [catch {myproc} msg]
puts $msg
puts [Bar info superclass]
