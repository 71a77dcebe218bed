# namespace context of method bodies
Class Foo
Foo instproc ns {} { return [namespace current] }
Foo f
puts [f ns]
f proc pns {} { return [namespace current] }
puts [f pns]
# global commands and variables are found from methods
proc gproc {} { return gproc }
set gvar 5
Foo instproc callg {} { return "[gproc] $::gvar" }
puts [f callg]
# a proc defined inside a method lands in the method namespace
Foo instproc defproc {} { proc helper_in_method {} { return helper }; return [helper_in_method] }
puts [f defproc]
puts [llength [info commands ::helper_in_method]]
Foo instproc callhelper {} { return [helper_in_method] }
puts [f callhelper]
# "variable" inside a method refers to the method namespace
Foo instproc setnsvar {} { variable nsv; set nsv 11 }
Foo instproc getnsvar {} { variable nsv; return $nsv }
f setnsvar
puts [f getnsvar]
puts [info exists ::nsv]
# global declarations
Foo instproc setglobal {} { global newglobal; set newglobal 3 }
f setglobal
puts $newglobal
