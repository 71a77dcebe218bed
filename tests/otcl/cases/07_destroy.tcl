# destroy and its chaining
Class Foo
Foo instproc destroy {} {
    puts "Foo destroy [$self set v]"
    $self next
}
Foo f
f set v 1
f set a(1) 2
f destroy
puts [info commands f]
puts [lsort [Foo info instances]]
puts [catch {f set v} msg]
puts $msg
# destroy that does not chain keeps the object
Class Keep
Keep instproc destroy {} { puts "not destroying" }
Keep k
k destroy
puts [info commands k]
puts [catch {k destroy extra} msg]
# the builtin rejects arguments
Object g
g set v 2
puts [catch {g destroy now} msg]
puts $msg
puts [g set v]
# destroying a class destroys its instances
Class Plain
Plain h
h set v 3
Class Sub -superclass Plain
Sub s
s set v 4
Plain destroy
puts [info commands h]
puts [info commands Plain]
puts "<[Sub info superclass]>"
puts [info commands s]
puts [catch {s set v} msg]
puts $msg
# unset traces run during destroy
Class T
T t
t set x 5
T instproc destroy {} { puts "T destroy"; $self next }
t destroy
puts [info commands t]
# recreate an object with the same name: the old one is destroyed
Class R
R instproc destroy {} { puts "R destroy $self [$self set id]"; $self next }
R r
r set id 1
R r
puts [catch {r set id} msg]
puts $msg
# recreating a class destroys the old class and its instances
Class Old
Old o1
Class Old
puts [info commands o1]
puts [lsort [Old info instances]]
# an object can destroy itself from inside a method
Class Self
Self instproc suicide {} { $self destroy; return "gone" }
Self sx
puts [sx suicide]
puts [info commands sx]
