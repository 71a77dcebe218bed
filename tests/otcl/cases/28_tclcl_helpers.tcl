# helpers from tclcl's tcl-object.tcl that ns-2 relies on
Class Node2
Node2 set color_ red
Node2 set size_ 3
Class Node2/Big -superclass Node2
Node2/Big set size_ 10
Node2/Big instproc shape {s} { $self set shape_ $s }
Node2/Big n
puts [n init-vars -shape round -unknownopt 5 plain 1]
puts [lsort [n info vars]]
puts "[n set color_] [n set size_] [n set shape_]"
Node2/Big n2
n2 set size_ 1
n2 init-default-vars Node2/Big
puts [n2 set size_]
# list helpers
Object o
puts [o add-to-list lst a]
puts [o add-to-list lst b]
puts [o add-to-list lst a]
puts [o set lst]
puts [o remove-from-list lst a]
puts [o set lst]
puts [o extract-var foo(bar)]
puts [o extract-var plain]
o add-to-list arr(x) 1
o add-to-list arr(x) 2
puts [o set arr(x)]
# public/private define instprocs, proc.invoke runs a proc
Class Svc
Svc public hello {} { return hello }
Svc private secret {} { return secret }
Svc s
puts "[s hello] [s secret]"
s proc.public pp {} { return pp }
puts [s pp]
puts [s proc.invoke {a b} {return "$a+$b"} 1 2]
# tk-style variables
s tkvar tv {tv2 local2}
puts [s tkvarname tv]
Svc instproc usetk {} { $self tkvar v1; set v1 99; return $v1 }
puts [s usetk]
puts [set s/v1]
puts [lsort [s info_tkvar v*]]
s delete_tkvar
puts [info exists s/v1]
# TclObject is an alias of SplitObject
puts [TclObject info class]
puts [SplitObject info superclass]
puts [lsort -command SplitObjectCompare {_o10 _o9 _o100 _o1}]
# is-class
puts [SplitObject is-class SplitObject]
puts [SplitObject is-class NoSuchClass]
puts [SplitObject is-class Node2]
puts [expr {[lsearch -exact [Object info subclass] InitObject] >= 0}]
