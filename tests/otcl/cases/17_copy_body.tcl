# copying method bodies between classes, as ns-2 scripts do
Class Bar
Bar instproc m {x} {
    $self instvar total
    if {![info exists total]} { set total 0 }
    incr total $x
    return "$class:$total"
}
Class Foo
Foo instproc m {x} [Bar info instbody m]
puts [Bar info instbody m]
puts [string equal [Foo info instbody m] [Bar info instbody m]]
Foo f
puts [f m 3]
puts [f m 4]
Bar b
puts [b m 1]
# copying with args from instargs
Foo instproc m2 [Bar info instargs m] [Bar info instbody m]
puts [f m2 10]
# body with default args copied
Bar instproc d {{a 1} {b 2}} { return "$a/$b" }
set al {}
foreach a [Bar info instargs d] {
    if {[Bar info instdefault d $a def]} {
        lappend al [list $a $def]
    } else {
        lappend al $a
    }
}
Foo instproc d $al [Bar info instbody d]
puts [f d]
puts [f d 9]
# per-object proc bodies can be copied too
f proc pp {} { return "pp of $self" }
Bar proc pp {} [f info body pp]
puts [Bar pp]
# body text is returned exactly
Bar instproc ws {} "  \n  # comment\n  return 1\n"
puts "<[Bar info instbody ws]>"
