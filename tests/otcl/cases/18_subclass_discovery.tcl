# test discovery as done by the ns-2 validation suites
Class TestSuiteX
Class TestX/alpha -superclass TestSuiteX
Class TestX/beta -superclass TestSuiteX
Class TestX/gamma -superclass TestX/alpha
puts [TestSuiteX info subclass]
puts [TestX/alpha info subclass]
puts [TestSuiteX info subclass TestX/gamma]
puts [TestX/beta info subclass TestX/gamma]
# the usual "runtest" lookup
proc runtest {name} {
    set t TestX/$name
    if {[catch {$t info class}]} {
        return "no such test: $name"
    }
    if {![TestSuiteX info subclass $t]} {
        return "$t is not a test"
    }
    return [$t info heritage]
}
puts [runtest alpha]
puts [runtest gamma]
puts [runtest nope]
# usage message listing tests, sorted
set names {}
foreach c [TestSuiteX info subclass] {
    lappend names [string range $c 6 end]
}
puts [lsort $names]
# Object info subclass contains the new top-level classes
set found {}
foreach c [Object info subclass] {
    if {[string match TestSuiteX* $c]} { lappend found $c }
}
puts $found
puts [lsearch -exact [Object info subclass] TestX/alpha]
# order of subclasses: newest first, and re-parenting moves to the front
Class TestX/delta -superclass TestSuiteX
puts [TestSuiteX info subclass]
TestX/alpha superclass TestSuiteX
puts [TestSuiteX info subclass]
