# A stub engine good enough to load ns-2's Tcl library and build a small
# topology (used by test_nslib_load.py).  ::stub::classes must be set.
namespace eval ::stub {
    variable reg
    variable val
    array set reg {}
    array set val {}
}
proc ::stub::boundvars {kind} {
    # PacketHeaderManager's hdrlen_ is a bound variable the library relies on
    if {$kind eq "PacketHeaderManager"} {
        return hdrlen_
    }
    return {}
}
proc ::stub::shadow {obj cls argv} {
    foreach c [list $cls {*}[$cls info heritage]] {
        if {[info exists ::stub::reg($c)]} {
            foreach {v x} [::dumbbell::class_defaults $c $cls] {
                ::set ::stub::val($obj,$v) $x
            }
            return $c
        }
    }
    error "no engine class for $cls"
}
proc ::stub::delete {obj} {}
proc ::stub::get {obj var} {
    if {[info exists ::stub::val($obj,$var)]} {
        return $::stub::val($obj,$var)
    }
    return 0
}
proc ::stub::put {obj var x} {
    ::set ::stub::val($obj,$var) $x
}
proc ::stub::cmd {obj args} {
    return ""
}
foreach n {boundvars shadow delete get cmd} {
    interp alias {} ::dumbbell::be::$n {} ::stub::$n
}
interp alias {} ::dumbbell::be::set {} ::stub::put
foreach c $::stub::classes {
    set ::stub::reg($c) 1
    ::dumbbell::register_class $c
}
foreach c [Class info instances PacketHeader/*] {
    $c set hdrlen_ 8
    $c proc offset args { return 0 }
}
foreach m {McastShift McastMask NodeShift NodeMask PortMask PortShift hlevel} {
    AddrParams proc $m args { return 1 }
}
AddrParams proc nodebits args { return 30 }
proc ns-hasSTL {} { return 0 }
proc ns-version {} { return 2.35 }
proc ns-hasint64 {} { return 1 }
proc ns-random args { return 1 }
proc time_atof {x} { return $x }
