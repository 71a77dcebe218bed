# an instproc/proc with empty args and empty body is removed (OTcl quirk)
Class Foo
Foo instproc a a {}
Foo instproc b {} { }
Foo instproc c {} {}
puts [lsort [Foo info instprocs]]
Foo f
puts [catch {f c} msg]
puts $msg
puts [f b]
f proc p {} {}
puts "<[f info procs]>"
f proc q {} { }
puts [f info procs]
# removing something that does not exist is fine
Foo instproc nothing {} {}
f proc nothing {} {}
puts ok
# autoloading methods: the body is a script that defines the real method
Foo instproc lazy auto {
    Foo instproc lazy {x} { return "lazy loaded $x" }
}
puts [lsort [Foo info instprocs]]
puts [f lazy 1]
puts [f lazy 2]
puts [Foo info instargs lazy]
f proc plazy auto { f proc plazy {} { return "proc loaded" } }
puts [f plazy]
Foo instproc broken auto { set x 1 }
puts [catch {f broken} msg]
puts $msg
Foo instproc broken2 auto { error oops }
puts [catch {f broken2} msg]
puts $msg
