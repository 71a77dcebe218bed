# the structure used by ns-2's validation test suites
Object instproc exit args {
    puts "exit called with $args"
}
Class TestSuiteZ
TestSuiteZ instproc init {} {
    $self instvar ns_ net_ defNet_ test_ topo_ testName_
    set ns_ fake-sim
    if {![info exists net_]} { set net_ $defNet_ }
    set testName_ "$test_:$net_"
}
TestSuiteZ instproc finish {file} {
    $self instvar testName_
    puts "finish $testName_ $file"
    $self exit 0
}
TestSuiteZ instproc run {} {
    $self instvar ns_ testName_
    puts "running $testName_ on $ns_"
    $self finish out
}
Class TestZ/red1 -superclass TestSuiteZ
TestZ/red1 instproc init {} {
    $self instvar net_ test_ defNet_
    set defNet_ net2
    set test_ red1
    $self next
}
Class TestZ/red2 -superclass TestZ/red1
TestZ/red2 instproc init {} {
    $self instvar net_
    set net_ net9
    $self next
    $self instvar test_
    set test_ red2
}
TestZ/red2 instproc run {} {
    puts "red2 override"
    $self next
}
proc usage {} {
    set err "usage: tests: "
    foreach cl [lsort [TestSuiteZ info subclass]] {
        append err " [string range $cl 6 end]"
    }
    foreach cl [lsort [TestZ/red1 info subclass]] {
        append err " [string range $cl 6 end]"
    }
    return $err
}
proc isProc? {cls prc} {
    if [catch "Object info subclass $cls/$prc" r] {
        set argv0 script
        puts "$argv0: no such $cls: $prc"
        return 0
    }
    return 1
}
proc runtest {arg} {
    set t [new TestZ/$arg]
    $t run
}
puts [usage]
puts [isProc? TestZ red1]
puts [isProc? TestZ nothere]
runtest red1
runtest red2
# default class variables read via init-vars style access
TestSuiteZ set default_ 5
TestZ/red1 instproc showdef {} { return [[$self info class] set default_] }
puts [catch {[new TestZ/red1] showdef} msg]
puts [string match "can't read*" $msg]
puts [TestSuiteZ set default_]
