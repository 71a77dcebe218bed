# the array instproc
Object o
o array set arr {a 1 b 2 c 3}
puts [lsort [o array names arr]]
puts [o array size arr]
puts [o array exists arr]
puts [o array exists none]
puts [lsort -stride 2 -index 0 [o array get arr]]
puts [o array get arr a]
o array unset arr a
puts [lsort [o array names arr]]
o array set empty {}
puts [o array exists empty]
puts [o array size empty]
puts [lsort [o info vars]]
puts [lsort [o array names arr b*]]
puts [catch {o array} msg]
puts [catch {o array bogus arr} msg]
# arrays written with set are visible to array
o set h(x) 1
puts [o array names h]
# array used through instvar in a method
Class Foo
Foo instproc fill {} {
    $self instvar tbl
    set tbl(k1) v1
    set tbl(k2) v2
    return [array size tbl]
}
Foo f
puts [f fill]
puts [lsort [f array names tbl]]
puts [f set tbl(k1)]
puts [Object info instprocs array]
puts [Object info instargs array]
