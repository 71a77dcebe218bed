# instvar
Class Foo
Foo instproc init {} { $self set a 1; $self set b 2; $self set c 3 }
Foo instproc sum {} {
    $self instvar a b c
    return [expr {$a + $b + $c}]
}
Foo instproc bump {} {
    $self instvar a
    incr a
}
Foo instproc renamed {} {
    $self instvar a {b localb} c
    return "$a $localb $c [info exists b]"
}
Foo instproc renamed2 {} {
    $self instvar {a x} {b y}
    set x 10
    set y 20
}
Foo instproc newvar {} {
    $self instvar fresh
    set fresh new
}
Foo instproc exists {} {
    $self instvar nope
    return [info exists nope]
}
Foo f
puts [f sum]
puts [f bump]
puts [f set a]
puts [f renamed]
f renamed2
puts "[f set a] [f set b]"
f newvar
puts [f set fresh]
puts [f exists]
puts [lsort [f info vars]]
# array instvar
Foo instproc arr {} {
    $self instvar tab
    set tab(x) 1
    set tab(y) 2
    return [lsort [array names tab]]
}
puts [f arr]
puts [f set tab(y)]
# errors
Foo instproc bad1 {} { $self instvar {a b c} }
puts [catch {f bad1} msg]
puts $msg
Foo instproc bad2 {} { $self instvar tab(x) }
puts [catch {f bad2} msg]
puts $msg
Foo instproc bad3 {} { set a 5; $self instvar a }
puts [catch {f bad3} msg]
puts $msg
puts [catch {f instvar a} msg]
puts $msg
Foo instproc bad4 {} { $self instvar }
puts [catch {f bad4} msg]
puts $msg
# instvar twice is fine
Foo instproc twice {} { $self instvar a; $self instvar a; return $a }
puts [f twice]
# instvar with a variable name in a variable
Foo instproc dyn {n} { $self instvar $n; return [set $n] }
puts [f dyn c]
# instvar of another object
Foo g
g set a 100
Foo instproc other {o} { $o instvar a; return $a }
puts [f other g]
# instvar in a per-object proc and in a class proc
f proc pp {} { $self instvar a; return "pp $a" }
puts [f pp]
Foo set cv 7
Foo proc cp {} { $self instvar cv; incr cv; return $cv }
puts [Foo cp]
puts [Foo set cv]
# unset through instvar
Foo instproc drop {} { $self instvar c; unset c }
f drop
puts [lsort [f info vars]]
# upvar to an instvar
Foo instproc viaupvar {} { $self instvar a; helper a; return $a }
proc helper {vn} { upvar 1 $vn v; set v changed }
puts [f viaupvar]
puts [f set a]
