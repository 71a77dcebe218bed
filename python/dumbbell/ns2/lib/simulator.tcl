# The Simulator: its creation (with ns-2's OTcl handles), scheduling (`at`,
# `after`, `cancel`), `run` (the engine's run loop), `halt`, `now`; and
# ns-2's global commands: unit parsers, random numbers, packet headers,
# `source`.  Its methods for nodes, links, dynamics, traces and agents are in
# the files of those.

# ---- Simulator -------------------------------------------------------------------

::otcl::_::LibClass Simulator

Simulator proc instance {} {
    set i [::dumbbell::_instances Simulator]
    if {$i ne ""} { return [lindex $i 0] }
    error "Cannot find instance of simulator"
}

# `$cls info instances`, without the dispatch where info is OTcl's own.
proc ::dumbbell::_instances {cls} {
    if {[::dumbbell::_class_info_builtin $cls]} {
        return [dict keys $::otcl::_::inst($cls)]
    }
    return [$cls info instances]
}

# Is `$cls info` OTcl's built-in Class info?  (Cached until methods or
# procs change.)
lappend ::otcl::_::classcaches ::dumbbell::_cib
proc ::dumbbell::_class_info_builtin {cls} {
    variable _cib
    if {[info exists _cib($cls)] && [lindex $_cib($cls) 0] == $::otcl::_::mepoch} {
        return [lindex $_cib($cls) 1]
    }
    set ok [expr {[info exists ::otcl::_::isclass($cls)]
        && [lindex [::otcl::_::Lookup $cls $::otcl::_::cls($cls) info] 0 1] eq "::otcl::_::Class.info"}]
    set _cib($cls) [list $::otcl::_::mepoch $ok]
    set ::otcl::_::cached($cls) 1
    return $ok
}

Simulator instproc init args {
    $self instvar nullAgent_ started_ color_
    if {[llength [::dumbbell::_instances Simulator]] > 1} {
        ::dumbbell::unsupported "more than one Simulator object"
    }
    # ns-2 makes the packet header manager and the scheduler first, then
    # the null agent, then the address allocators: their OTcl handles
    # (_oN) are skipped so that every later object gets ns-2's handle.
    ::dumbbell::skip_ids 2
    set nullAgent_ [new Agent/Null]
    ::dumbbell::skip_ids 3
    eval $self next $args
}

Simulator instproc nullagent {} { $self instvar nullAgent_; return $nullAgent_ }

Simulator instproc use-scheduler {type} {
    switch -- $type {
        Calendar - List - Heap - Splay { }
        default { ::dumbbell::unsupported "scheduler $type" }
    }
}

Simulator instproc now {} { ::dumbbell::be::sim now }

Simulator instproc at {args} {
    if {[llength $args] == 1} {
        return [::dumbbell::be::sim at-now [lindex $args 0]]
    }
    if {[llength $args] != 2} {
        error "wrong # args: should be \"\$ns at time script\""
    }
    set t [lindex $args 0]
    if {![string is double -strict $t]} {
        # ns-2 reads the time with atof: "500ms" is 500 s, "1e" is 1.
        ::dumbbell::be::warn "\$ns at time \"$t\" is not a plain number of seconds; like ns-2, Dumbbell reads its leading number (units are ignored)"
    }
    ::dumbbell::be::sim at $t [lindex $args 1]
}

Simulator instproc at-now {script} { ::dumbbell::be::sim at-now $script }
Simulator instproc cancel {uid} { ::dumbbell::be::sim cancel $uid }
Simulator instproc after {ival args} {
    eval $self at [expr {[$self now] + $ival}] $args
}
Simulator instproc halt {} { ::dumbbell::be::sim halt }
Simulator instproc is-started {} { $self instvar started_; info exists started_ }
Simulator instproc check-node-num {} { }
Simulator instproc dumpq {} { ::dumbbell::unsupported "dumpq" }

Simulator instproc delay_parse {spec} { time_parse $spec }
Simulator instproc bw_parse {spec} { bw_parse $spec }

Simulator instproc multicast args { ::dumbbell::unsupported "multicast" }
Simulator instproc multihome-add-interface args { ::dumbbell::unsupported "multihoming" }

Simulator instproc run {} {
    $self instvar Node_ link_ started_
    $self rtmodel-configure
    [$self get-routelogic] configure
    set started_ 1
    ::dumbbell::be::sim started
    # Reset every node (which resets its agents) in the order ns-2 visits
    # them, then every queue.
    if {[info exists Node_]} {
        foreach nn [array names Node_] {
            $Node_($nn) reset
        }
    }
    if {[info exists link_]} {
        foreach qn [array names link_] {
            [$link_($qn) queue] reset
        }
    }
    # nam's configuration lines (nam.tcl)
    $self init-nam
    ::dumbbell::be::sim run
}

# Flow colours (by fid_), for nam's output (nam.tcl).
Simulator instproc color {id name} {
    $self instvar color_
    set color_($id) $name
}
Simulator instproc get-color {id} {
    $self instvar color_
    return $color_($id)
}

# Where ns-2 exits or aborts in the middle of a run (an undefined
# windowOption_, a Delayer misused, a Vegas window_ that cannot size its
# table, tracing a delay-bound variable that is not a TracedVar): the
# engine's error message, exit status 1 (`exit` flushes the
# traces; ns-2 loses what it had buffered).
proc ::dumbbell::abort {what} {
    puts stderr "dumbbell: error: $what"
    exit 1
}

# ---- unit parsers (ns-lib.tcl) -------------------------------------------------------

proc bw_parse {bspec} {
    if {[scan $bspec "%f%s" b unit] == 1} { set unit bps }
    regsub {[/p]s(ec)?$} $unit {} unit
    if {[string match {*B} $unit]} {
        set b [expr {$b * 8}]
        set unit "[string trimright $unit B]b"
    }
    switch -- $unit {
        b { return $b }
        kb { return [expr {$b * 1000}] }
        Mb { return [expr {$b * 1000000}] }
        Gb { return [expr {$b * 1000000000}] }
        default { error "bw_parse: unknown unit `$unit'" }
    }
}

proc time_parse {spec} {
    if {[scan $spec "%f%s" t unit] == 1} { set unit s }
    regsub {sec$} $unit {s} unit
    switch -- $unit {
        s { return $t }
        ms { return [expr {$t * 1e-3}] }
        us { return [expr {$t * 1e-6}] }
        ns { return [expr {$t * 1e-9}] }
        ps { return [expr {$t * 1e-12}] }
        default { error "time_parse: unknown unit `$unit'" }
    }
}

proc delay_parse {spec} { time_parse $spec }

# A bandwidth or delay given to a link must parse completely; ns-2 would
# silently read "10Xb" as 10 b/s.
# (Each accepts a value once: the strings it accepted are remembered in
# ::dumbbell::_ok, so a topology's many links with the same bandwidth and
# delay run no regexp again.)
proc ::dumbbell::check_bw {v what} {
    if {[info exists ::dumbbell::_ok(bw,$v)]} {
        return
    }
    if {![regexp {^\s*[0-9.eE+-]+([kKmMgGtTpP]?([bB](ps)?)?)\s*$} $v] ||
        [scan $v %f x] != 1 || $x <= 0} {
        error "bad $what \"$v\": expected a positive number with an optional unit such as 10Mb, 800Kb or 1.5Mbps"
    }
    set ::dumbbell::_ok(bw,$v) 1
}

proc ::dumbbell::check_time {v what} {
    if {[info exists ::dumbbell::_ok(time,$v)]} {
        return
    }
    if {![regexp {^\s*[0-9.eE+-]+(s|ms|us|ns|ps|sec)?\s*$} $v] ||
        [scan $v %f x] != 1 || $x < 0} {
        error "bad $what \"$v\": expected a non-negative time such as 10ms, 0.5 or 2us"
    }
    set ::dumbbell::_ok(time,$v) 1
}

# ---- random numbers ---------------------------------------------------------------------

proc ns-random {{seed {}}} {
    global defaultRNG
    if {$seed eq ""} {
        return [$defaultRNG next-random]
    }
    $defaultRNG seed $seed
}

# ns-2's self-test of the generator: writes temp.rands.
RNG instproc test {} {
    set f [open temp.rands w]
    puts -nonewline $f [$self cmd test-output]
    close $f
}
RNG instproc uniform {a b} {
    expr {$a + (($b - $a) * ([$self next-random] * 1.0 / 0x7fffffff))}
}
RNG instproc integer {k} {
    expr {[$self next-random] % abs($k)}
}
RNG instproc exponential {{mu 1.0}} {
    expr {- $mu * log(([$self next-random] + 1.0) / (0x7fffffff + 1.0))}
}
proc exponential {args} { global defaultRNG; eval [list $defaultRNG exponential] $args }
proc uniform {args} { global defaultRNG; eval [list $defaultRNG uniform] $args }
proc integer {args} { global defaultRNG; eval [list $defaultRNG integer] $args }

# ---- packet headers --------------------------------------------------------------
# ns-2 lets a script leave out packet headers it does not need, to save
# memory.  The choice changes no packet size, uid or trace line, and Dumbbell's
# packets carry a fixed set of fields, so these are accepted and do nothing.
proc remove-all-packet-headers {} { }
proc remove-packet-header {args} { }
proc add-packet-header {args} { }
proc add-all-packet-headers {} { }

# ---- source (tclcl's tcl-import.tcl) --------------------------------------------------

# `source` as ns-2 has it (tclcl's tcl-import.tcl replaces Tcl's, which
# stays as `source.orig`): one argument, the file sourced in the caller's
# frame, and an `Import` object made at the first call -- an OTcl handle,
# so objects made after a script's first `source` get ns-2's handles.  (The
# runner starts the script itself with `source.orig`, as ns-2's main does
# not go through this proc.)
rename source source.orig
proc source {fileName} {
    if {![info exists ::dumbbell::import_made]} {
        set ::dumbbell::import_made 1
        ::dumbbell::skip_ids 1
    }
    uplevel 1 [list source.orig $fileName]
}
