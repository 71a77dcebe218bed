# tclcl's new/delete on plain OTcl classes
Class Foo
Foo instproc init {args} { $self set args $args }
Foo instproc destroy {} { puts "destroy [$self set args]"; $self next }
set o [new Foo a b {c d}]
puts [regexp {^_o[0-9]+$} $o]
puts [$o set args]
puts [llength [$o set args]]
puts [$o info class]
set o2 [new Foo]
puts [expr {[string range $o2 2 end] == [string range $o 2 end] + 1}]
puts [expr {[lsort -command SplitObjectCompare [list $o2 $o]] eq [list $o $o2]}]
delete $o
puts [info commands $o]
# constructor failures
Class Bad
Bad instproc init {args} { error "nope: $args" }
puts [catch {new Bad 1 2} msg]
puts $msg
puts [string match "*nope: 1 2*" $::errorInfo]
puts [catch {new NoSuchClass} msg]
puts $msg
# getid shares the counter
set id [SplitObject getid]
set o3 [new Foo]
puts [expr {[string range $o3 2 end] == [string range $id 2 end] + 1}]
puts [regexp {^_o[0-9]+$} [SplitObject set id]]
puts [expr {[SplitObject set id] == [string range $o3 2 end]}]
