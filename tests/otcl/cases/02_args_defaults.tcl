# argument lists: defaults, args, introspection
Class Foo
Foo instproc m {a {b 2} args} { return "a=$a b=$b args=$args" }
Foo f
puts [f m 1]
puts [f m 1 5]
puts [f m 1 5 6 7]
puts [catch {f m} msg]
puts [Foo info instargs m]
puts [Foo info instdefault m b v]
puts "v=$v"
puts [Foo info instdefault m a v]
puts "v=<$v>"
puts [Foo info instdefault m args v]
puts [Foo info instdefault m self v]
puts [catch {Foo info instdefault m zz v} msg]
puts $msg
puts [catch {Foo info instdefault nosuch a v} msg]
puts $msg
puts [catch {Foo info instargs nosuch} msg]
puts $msg
puts [string trim [Foo info instbody m]]
Foo instproc noargs {} { return ok }
puts [f noargs]
puts "<[Foo info instargs noargs]>"
Foo instproc onlyargs args { return [llength $args] }
puts [f onlyargs a b c]
puts [Foo info instargs onlyargs]
Foo instproc withlist {{x {1 2}} {y ""}} { return "x=$x y=<$y>" }
puts [f withlist]
puts [Foo info instdefault withlist x d]
puts $d
puts [Foo info instdefault withlist y d]
puts "<$d>"
proc defaultcheck {} {
    Foo info instdefault m b local
    return $local
}
puts [defaultcheck]
