# handles_source.tcl -- ns-2's `source` (tclcl's, Tcl's own kept as
# source.orig) makes an Import object at its first call: objects made after
# a script's first `source` have handles one higher.  Also: `source` takes
# exactly one argument, and a sourced file sees its own `info script`.
#
# Usage: ns handles_source.tcl
# Writes helper.tcl (then sources it twice).

Class Foo
puts "before: [new Foo] [info script]"
set f [open helper.tcl w]
puts $f {Class Helper
Helper instproc init {} { puts "helper made in [info script]" }
set ::sourced_times [expr {[info exists ::sourced_times] ? $::sourced_times + 1 : 1}]}
close $f
source helper.tcl
puts "after one source: [new Foo] [new Helper] ($::sourced_times)"
source helper.tcl
puts "after two: [new Foo] ($::sourced_times) [info script]"
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]
puts "simulator $ns, nodes $n0 $n1, tcp $tcp, then [new Foo]"
puts "source with two words: [catch {source -encoding utf-8 helper.tcl} msg] $msg"
puts "source.orig exists: [llength [info commands source.orig]]"
