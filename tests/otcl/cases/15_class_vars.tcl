# class-level variables (used by ns-2 as defaults)
Class Agt
Class Agt/Tcp -superclass Agt
Agt set packetSize_ 1000
Agt/Tcp set window_ 20
puts [Agt set packetSize_]
puts [Agt/Tcp set window_]
puts [catch {Agt/Tcp set packetSize_} msg]
puts $msg
puts [lsort [Agt/Tcp info vars]]
Agt/Tcp set arr(1) x
puts [lsort [Agt/Tcp info vars]]
Agt/Tcp unset arr
puts [lsort [Agt/Tcp info vars]]
# class procs reading class variables
Agt proc getsize {} { return [$self set packetSize_] }
puts [Agt getsize]
Agt/Tcp proc next_id {} {
    $self instvar counter
    if {![info exists counter]} { set counter 0 }
    return [incr counter]
}
puts [Agt/Tcp next_id]
puts [Agt/Tcp next_id]
puts [Agt/Tcp set counter]
# class variables are separate from instance variables
Agt/Tcp t
puts [catch {t set window_} msg]
puts $msg
t set window_ 5
puts "[t set window_] [Agt/Tcp set window_]"
# the tclcl pattern: copy class defaults to the instance
Agt/Tcp u
u init-vars
puts [lsort [u info vars]]
puts [u set window_]
puts [u set packetSize_]
# class array via the array method
Agt array set table {a 1 b 2}
puts [lsort [Agt array names table]]
