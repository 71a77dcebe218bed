# Class creation forms, object creation forms, $self/$class/$proc
Class Foo
puts [Foo info class]
Class create Bar
puts [Bar info class]
puts [Class create Baz]
puts [Foo create f1]
puts [Foo f2]
Foo instproc who {} { return "self=$self class=$class proc=$proc" }
puts [f1 who]
puts [f2 who]
Foo instproc add {a b} { expr {$a + $b} }
puts [f1 add 2 3]
puts [f1 info class]
Object create plain
puts [plain info class]
puts [lsort [Foo info instances]]
set o [Foo create ::f3]
puts $o
puts [f3 who]
puts [lsort [Foo info instances]]
# objects are commands
puts [llength [info commands f1]]
puts [catch {f9 who} msg]
puts $msg
# Class with -superclass option via unknown shorthand
Class Sub -superclass Foo
Sub s
puts [s who]
puts [s add 10 20]
puts [Sub info superclass]
puts [Sub info heritage]
# method returning a list and an empty string
Foo instproc lst {} { return [list a {b c} d] }
Foo instproc empty {} { }
puts [llength [f1 lst]]
puts "<[f1 empty]>"
