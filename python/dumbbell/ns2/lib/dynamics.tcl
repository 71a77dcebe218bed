# Link dynamics: dynamic links and their traces, and the route models that
# take links down and up (`$ns rtmodel`, rtmodel-at, rtQueue, rtModel/*).
# A link's up?, up and down are Link's (link.tcl).

SimpleLink instproc dynamic {} {
    $self instvar dynamics_
    if {[info exists dynamics_]} return
    set dynamics_ [new DynamicLink]
    $self add-to-head $dynamics_
    $self transit-drop-trace
    $self all-connectors isDynamic
    [Simulator instance] set dynlinks_ 1
}

# Link dynamics traces: a Generic ("v") trace per call, written to when the
# link goes down or up (Link up/down); packets lost in transit on a dynamic
# link go to the link's drop head (so the packet trace shows them), and so
# do packets refused by a link that is down once the link is dynamic.
SimpleLink instproc trace-dynamics {ns f {op ""}} {
    $self instvar dynT_ fromNode_ toNode_
    lappend dynT_ [$ns create-trace Generic $f $fromNode_ $toNode_ $op]
    $self transit-drop-trace
    $self linkfail-drop-trace
}
SimpleLink instproc transit-drop-trace args {
    $self instvar link_ drophead_
    if {[llength $args]} { $link_ drop-target [lindex $args 0] } else { $link_ drop-target $drophead_ }
}
SimpleLink instproc linkfail-drop-trace args {
    $self instvar dynamics_ drophead_
    if {![info exists dynamics_]} return
    if {[llength $args]} { $dynamics_ drop-target [lindex $args 0] } else { $dynamics_ drop-target $drophead_ }
}
SimpleLink instproc ttl-drop-trace args {
    $self instvar ttl_ drophead_
    if {![info exists ttl_]} return
    if {[llength $args]} { $ttl_ drop-target [lindex $args 0] } else { $ttl_ drop-target $drophead_ }
}

# ---- route models: links going down and up (ns-2's rtglib/dynamics.tcl) ------------
#
# `$ns rtmodel DIST PARAMS NODE1 ?NODE2?` makes the link(s) between the
# nodes (or all links of NODE1) go down and up: Deterministic (start, up
# interval, down interval, finish), Exponential (intervals drawn with
# $rtglibRNG's exponential), Trace (events read from a dynamics trace
# file: "v TIME link-down|link-up N1 N2") or Manual (`rtmodel-at TIME
# up|down N1 N2`).  The links become dynamic when the simulation starts;
# events of one time run together, then the models notify routing.

Simulator instproc rtmodel {dist parms args} {
    $self instvar rtModel_
    set m ""
    if {[rtModel info subclass rtModel/$dist] ne ""} {
        set m [eval new rtModel/$dist $self]
        eval $m set-elements $args
        eval $m set-parms $parms
        set f [$self get-ns-traceall]
        if {$f ne ""} { $m trace $self $f }
        set f [$self get-nam-traceall]
        if {$f ne ""} { $m trace $self $f nam }
        lappend rtModel_ $m
    }
    return $m
}
Simulator instproc rtmodel-configure {} {
    $self instvar rtq_ rtModel_
    if {![info exists rtModel_]} return
    set rtq_ [new rtQueue $self]
    foreach m $rtModel_ { $m configure }
}
Simulator instproc rtmodel-at {at op args} {
    eval $self rtmodel Manual [list [list $op $at]] $args
}
Simulator instproc rtmodel-delete {model} {
    $self instvar rtModel_
    set i [lsearch -exact $rtModel_ $model]
    if {$i >= 0} {
        delete $model
        set rtModel_ [lreplace $rtModel_ $i $i]
    }
}

# The queue of route events: one `$ns at` per distinct time.
::otcl::_::LibClass rtQueue
rtQueue instproc init {ns} {
    $self next
    $self set ns_ $ns
}
rtQueue instproc insq-i {interval obj iproc args} {
    $self instvar rtq_ ns_
    set t [expr {$interval + [$ns_ now]}]
    if {![info exists rtq_($t)]} { $ns_ at $t "$self runq $t" }
    lappend rtq_($t) "$obj $iproc $args"
    return $t
}
rtQueue instproc insq {at obj iproc args} {
    $self instvar rtq_ ns_
    if {[$ns_ now] >= $at} {
        puts stderr "insq: Cannot set event in the past"
        return ""
    }
    if {![info exists rtq_($at)]} { $ns_ at $at "$self runq $at" }
    lappend rtq_($at) "$obj $iproc $args"
    return $at
}
rtQueue instproc delq {time obj} {
    $self instvar rtq_
    if {[info exists rtq_($time)]} {
        set keep {}
        foreach ev $rtq_($time) {
            if {[lindex $ev 0] ne $obj} { lappend keep $ev }
        }
        set rtq_($time) $keep
    }
    return ret
}
rtQueue instproc runq {time} {
    $self instvar rtq_
    set done {}
    foreach ev $rtq_($time) {
        eval [lindex $ev 0] [lindex $ev 1] [lrange $ev 2 end]
        lappend done [lindex $ev 0]
    }
    foreach obj $done { $obj notify }
    unset rtq_($time)
}

::otcl::_::LibClass rtModel
rtModel set rtq_ ""
rtModel set startTime_ 0.5
rtModel set finishTime_ "-"
rtModel instproc init {ns} {
    $self next
    $self instvar ns_ startTime_ finishTime_
    set ns_ $ns
    set startTime_ [rtModel set startTime_]
    set finishTime_ [rtModel set finishTime_]
}
# The links between two nodes, or every link of one node.
rtModel instproc set-elements args {
    $self instvar ns_ links_ nodes_
    set n0 [lindex $args 0]
    set i0 [$n0 id]
    set nodes_($i0) $n0
    if {[llength $args] == 2} {
        set nbrs [list [lindex $args 1]]
    } else {
        set nbrs [$n0 set neighbor_]
    }
    foreach n1 $nbrs {
        set i1 [$n1 id]
        set nodes_($i1) $n1
        set links_($i0:$i1) [$ns_ link $n0 $n1]
        set links_($i1:$i0) [$ns_ link $n1 $n0]
    }
}
# {?start? up down ?finish?}; "-" or "" keeps the class default.
rtModel instproc set-parms args {
    $self instvar startTime_ upInterval_ downInterval_ finishTime_
    set cls [$self info class]
    foreach v {startTime_ upInterval_ downInterval_ finishTime_} {
        if {[catch {$cls set $v} val]} {
            set val [rtModel set $v]
        }
        set $v $val
    }
    set vals {- - - -}
    switch [llength $args] {
        4 { set vals $args }
        3 { set vals [concat $args -] }
        2 { set vals [concat - $args -] }
    }
    foreach v {startTime_ upInterval_ downInterval_ finishTime_} x $vals {
        if {$x ne "-" && $x ne ""} { set $v $x }
    }
}
rtModel instproc configure {} {
    $self instvar ns_ links_
    if {[rtModel set rtq_] eq ""} {
        rtModel set rtq_ [$ns_ set rtq_]
    }
    foreach l [array names links_] { $links_($l) dynamic }
    $self set-first-event
}
# An event at `t`; past the finish time only a last "up" (at the finish time).
rtModel instproc set-event-exact {t op} {
    $self instvar finishTime_
    if {$finishTime_ ne "-" && $t > $finishTime_} {
        if {$op eq "up"} { [rtModel set rtq_] insq $finishTime_ $self $op }
    } else {
        [rtModel set rtq_] insq $t $self $op
    }
}
rtModel instproc set-event {interval op} {
    $self instvar ns_
    $self set-event-exact [expr {[$ns_ now] + $interval}] $op
}
rtModel instproc set-first-event {} {
    $self instvar startTime_ upInterval_
    $self set-event [expr {$startTime_ + $upInterval_}] down
}
rtModel instproc up {} {
    $self instvar links_
    foreach l [array names links_] { $links_($l) up }
}
rtModel instproc down {} {
    $self instvar links_
    foreach l [array names links_] { $links_($l) down }
}
rtModel instproc notify {} {
    $self instvar nodes_ ns_
    foreach n [array names nodes_] { $nodes_($n) intf-changed }
    [$ns_ get-routelogic] notify
}
rtModel instproc trace {ns f {op ""}} {
    $self instvar links_
    foreach l [array names links_] { $links_($l) trace-dynamics $ns $f $op }
}

::otcl::_::LibClass rtModel/Exponential rtModel
rtModel/Exponential set upInterval_ 10.0
rtModel/Exponential set downInterval_ 1.0
rtModel/Exponential instproc set-first-event {} {
    global rtglibRNG
    $self instvar startTime_ upInterval_
    $self set-event [expr {$startTime_ + [$rtglibRNG exponential] * $upInterval_}] down
}
rtModel/Exponential instproc up {} {
    global rtglibRNG
    $self next
    $self instvar upInterval_
    $self set-event [expr {[$rtglibRNG exponential] * $upInterval_}] down
}
rtModel/Exponential instproc down {} {
    global rtglibRNG
    $self next
    $self instvar downInterval_
    $self set-event [expr {[$rtglibRNG exponential] * $downInterval_}] up
}

::otcl::_::LibClass rtModel/Deterministic rtModel
rtModel/Deterministic set upInterval_ 2.0
rtModel/Deterministic set downInterval_ 1.0
rtModel/Deterministic instproc up {} {
    $self next
    $self instvar upInterval_
    $self set-event $upInterval_ down
}
rtModel/Deterministic instproc down {} {
    $self next
    $self instvar downInterval_
    $self set-event $downInterval_ up
}

# Events from a dynamics trace file (the "v" lines a Generic trace wrote).
::otcl::_::LibClass rtModel/Trace rtModel
rtModel/Trace instproc get-next-event {} {
    $self instvar tracef_ links_
    while {[gets $tracef_ line] >= 0} {
        set toks [split $line]
        if {[info exists links_([lindex $toks 3]:[lindex $toks 4])]} {
            return $toks
        }
    }
    return ""
}
# Schedule the next time's event (one per time), reading past its lines.
rtModel/Trace instproc set-trace-events {} {
    $self instvar nextEvent_ evq_
    set t [lindex $nextEvent_ 1]
    while {$nextEvent_ ne ""} {
        set nt [lindex $nextEvent_ 1]
        if {$nt < $t} {
            # (ns-2 reports this and then loops on the same event forever)
            puts stderr "event $nextEvent_  is before current time $t. ignored."
            set nextEvent_ [$self get-next-event]
            continue
        }
        if {$nt > $t} break
        if {![info exists evq_($t)]} {
            $self set-event-exact $t [string range [lindex $nextEvent_ 2] 5 end]
            set evq_($t) 1
        }
        set nextEvent_ [$self get-next-event]
    }
}
rtModel/Trace instproc set-parms {traceFile} {
    $self instvar tracef_ nextEvent_
    if {[catch {open $traceFile r} tracef_]} {
        puts stderr "cannot open $traceFile"
    } else {
        set nextEvent_ [$self get-next-event]
        if {$nextEvent_ eq ""} { puts stderr "no relevant events in $traceFile" }
    }
}
rtModel/Trace instproc set-first-event {} { $self set-trace-events }
rtModel/Trace instproc up {} {
    $self next
    $self set-trace-events
}
rtModel/Trace instproc down {} {
    $self next
    $self set-trace-events
}

# One event: `rtmodel-at TIME up|down N1 N2` (= rtmodel Manual {op time} ...);
# the model deletes itself once it has notified routing.
::otcl::_::LibClass rtModel/Manual rtModel
rtModel/Manual instproc set-first-event {} {
    $self instvar op_ at_
    $self set-event-exact $at_ $op_
}
rtModel/Manual instproc set-parms {op at} {
    $self instvar op_ at_
    set op_ $op
    set at_ $at
}
rtModel/Manual instproc notify {} {
    $self next
    delete $self
}
