# A mock of the engine backend (::dumbbell::be::*) for testing
# tclobject.tcl.  Engine classes and their bound variables are listed in
# ::mock::classes; every backend call is appended to ::mock::log.
namespace eval ::mock {
    variable log {}
    variable values         ;# obj,var -> value
    variable kindof         ;# obj -> kind
    variable classes
    array set values {}
    array set kindof {}
    array set classes {
        Agent           {addr_ dst_ fid_ ttl_}
        Agent/TCP       {addr_ dst_ fid_ ttl_ window_ packetSize_ tcpTick_}
        Agent/TCP/Reno  {addr_ dst_ fid_ ttl_ window_ packetSize_ tcpTick_ maxburst_}
        Queue           {limit_ blocking_}
        Queue/DropTail  {limit_ blocking_ drop_front_}
    }
}
namespace eval ::dumbbell::be {}

proc ::mock::be_boundvars {kind} {
    lappend ::mock::log [list boundvars $kind]
    return $::mock::classes($kind)
}

proc ::mock::be_shadow {obj cls argv} {
    lappend ::mock::log [list shadow $obj $cls $argv]
    foreach c [list $cls {*}[$cls info heritage]] {
        if {[info exists ::mock::classes($c)]} {
            set kind $c
            break
        }
    }
    if {![info exists kind]} {
        error "no engine class in the heritage of $cls"
    }
    if {[lindex $argv 0] eq "fail"} {
        error "engine refused to create $cls"
    }
    set ::mock::kindof($obj) $kind
    foreach {v val} [::dumbbell::class_defaults $kind $cls] {
        set ::mock::values($obj,$v) $val
    }
    return $kind
}

proc ::mock::be_delete {obj} {
    lappend ::mock::log [list delete $obj]
    unset -nocomplain ::mock::kindof($obj)
    array unset ::mock::values $obj,*
}

proc ::mock::be_get {obj var} {
    lappend ::mock::log [list get $obj $var]
    if {![info exists ::mock::values($obj,$var)]} {
        error "no value for $var"
    }
    return $::mock::values($obj,$var)
}

# numbers are stored the way a C++ double would print them (%g-like)
proc ::mock::be_set {obj var val} {
    lappend ::mock::log [list set $obj $var $val]
    if {![string is double -strict $val]} {
        error "expected a number for $var but got \"$val\""
    }
    if {[string is integer -strict $val]} {
        set ::mock::values($obj,$var) [expr {$val}]
    } else {
        set ::mock::values($obj,$var) [format %g $val]
    }
    return $::mock::values($obj,$var)
}

proc ::mock::be_cmd {obj args} {
    lappend ::mock::log [list cmd $obj {*}$args]
    switch -- [lindex $args 0] {
        ping { return pong }
        echo { return [lrange $args 1 end] }
        kind { return $::mock::kindof($obj) }
        default { error "no such engine command \"[lindex $args 0]\"" }
    }
}

proc ::mock::calls {what} {
    set n 0
    foreach e $::mock::log {
        if {[lindex $e 0] eq $what} {
            incr n
        }
    }
    return $n
}

# (the implementations live in ::mock: inside ::dumbbell::be a proc named
# "set" would capture every plain "set" of the other procs there)
foreach n {boundvars shadow delete get set cmd} {
    interp alias {} ::dumbbell::be::$n {} ::mock::be_$n
}
unset n
foreach k [lsort [array names ::mock::classes]] {
    ::dumbbell::register_class $k
}
unset k
