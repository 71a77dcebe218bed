# frames: uplevel/upvar inside methods refer to the caller
Class Foo
Foo instproc setcaller {name val} {
    upvar 1 $name v
    set v $val
}
Foo instproc evalcaller {script} {
    uplevel 1 $script
}
Foo instproc level {} { return [info level] }
Foo f
proc p {} {
    f setcaller local 42
    f evalcaller {set other 7}
    return "$local $other"
}
puts [p]
f setcaller glob 1
puts $glob
proc lv {} { return [f level] }
puts "[f level] [lv]"
# through next, uplevel 1 reaches the method that called next
Class Sub -superclass Foo
Sub instproc setcaller {name val} { $self next $name $val; return [set $name] }
Sub s
proc q {} {
    set r [s setcaller x 9]
    return "$r [info exists x]"
}
puts [q]
Sub instproc evalcaller {script} { eval $self next [list $script]; return [info exists y] }
proc r {} {
    set r [s evalcaller {set y 3}]
    return "$r [info exists y]"
}
puts [r]
# global variables from methods
set ::gv 5
Foo instproc readglobal {} { global gv; return $gv }
puts [f readglobal]
# info locals in a method
Foo instproc locals {a} { set b 1; return [lsort [info locals]] }
puts [f locals 1]
# a method can define and use local procs-like helpers via apply
Foo instproc useapply {} { return [apply {{x} {expr {$x + 1}}} 41] }
puts [f useapply]
# arguments named like the implicit ones are visible
Foo instproc implicit {} { return [list [info exists self] [info exists class] [info exists proc]] }
puts [f implicit]
