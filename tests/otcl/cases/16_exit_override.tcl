# the validation suites redefine Object's exit instproc
Object instproc exit args {
    puts "exit instproc on $self with <$args>"
    return "not exited"
}
Class Test
Test t
puts [t exit 0]
puts [Test exit 1 2]
puts [Object info instprocs exit]
puts [Object info instargs exit]
# global commands are still found from methods
Test instproc check {} { return [llength [info commands puts]] }
puts [t check]
# a subclass may override it again
Test instproc exit args { puts "Test exit"; $self next {*}$args }
puts [t exit 3]
Object instproc exit {} {}
puts "<[Object info instprocs exit]>"
puts [catch {t exit 4} msg]
puts $msg
Test instproc exit {} {}
puts [catch {t exit 4} msg]
puts $msg
