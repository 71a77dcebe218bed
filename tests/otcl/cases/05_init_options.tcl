# Object init: -option value processing
Class Foo
Foo instproc color {c} { $self set color $c; return "" }
Foo instproc size {s} { $self set size $s }
Foo f -color red -size 10
puts [f set color]
puts [f set size]
# options without leading dash work too
Foo g color blue
puts [g set color]
# "set" as an option: -set is dispatched as method set with one arg
puts [catch {Foo h -set x} msg]
puts $msg
# errors
puts [catch {Foo e1 -color} msg]
puts $msg
puts [catch {Foo e2 -nosuch 1} msg]
puts $msg
puts [catch {Foo e3 -color red -nosuch 1 -size 3} msg]
puts $msg
# objects whose init failed still exist
puts [lsort [Foo info instances e*]]
puts [e3 set color]
# an init that takes arguments and calls next with options
Class Bar
Bar instproc init {name args} {
    $self set name $name
    eval $self next $args
}
Bar instproc tag {t} { $self set tag $t }
Bar b1 alpha -tag x
puts "[b1 set name] [b1 set tag]"
puts [catch {Bar b2} msg]
puts [string match "wrong # args*" $msg]
# -superclass via create args
Class create K -superclass Foo
puts [K info superclass]
K k -color green
puts [k set color]
# the value of init processing
puts "<[f init]>"
puts "<[f init -size 99]>"
puts [f set size]
# options with list values
f init -color {light blue}
puts [f set color]
