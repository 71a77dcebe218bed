# Class-based queueing: CBQ links (simplex-link ... CBQ or CBQ/WRR), their
# classes (CBQClass) and the link commands that put classes in (insert) and
# flows in classes (bind).  The scheduler is the engine's (qdisc/cbq.rs);
# a CBQClass is an object of this library that holds its parameters until
# it is inserted, then hands them to the scheduler and forwards changes.
# A leaf class queues with a Queue/DropTail or a Queue/RED.
#
# The link's path is ns-2's: head -> (traces, monitors) -> classifier (a
# Classifier/Hash/Fid by default) -> the CBQ queue -> the link.  ns-2's
# classifier slots hold the classes, each feeding its own queue through a
# queue monitor's snoops; here a slot holds the CBQ queue, which puts the
# packet in its flow's class itself (the same flow-to-class map, set by
# bind), and counts each class's backlog without a monitor.  A flow no
# class is bound to meets the classifier's unknown-flow handling, as in
# ns-2.

::otcl::_::LibClass CBQLink SimpleLink

CBQLink instproc init {src dst bw delay q cl {lltype DelayLink}} {
    $self next $src $dst $bw $delay $q $lltype
    $self instvar head_ queue_ link_ classifier_
    $queue_ link $link_
    set classifier_ $cl
    $head_ target $classifier_
    # the link-sharing rule by default (ancestor-only unless changed); the
    # queue's algorithm_ only records it, as in ns-2
    set alg [Queue/CBQ set algorithm_]
    $queue_ set algorithm_ $alg
    $queue_ algorithm $alg
}

CBQLink instproc classifier {} {
    $self instvar classifier_
    return $classifier_
}

# bind CLASS FID, or bind CLASS FIRST LAST: flows FIRST..LAST go to CLASS.
CBQLink instproc bind {cbqcl a {b ""}} {
    $self instvar classifier_ queue_
    if {$b eq ""} { set b $a }
    if {[$cbqcl cbq] ne $queue_} {
        error "$self bind: class $cbqcl is not inserted in this link (insert it first)"
    }
    set idx [$cbqcl set cbq_index_]
    for {} {$a <= $b} {incr a} {
        set slot [$classifier_ installNext $queue_]
        $classifier_ set-hash auto 0 0 $a $slot
        $queue_ cbq-bind $idx $a
    }
}

# insert CLASS: resolve an "auto" maxidle, then hand the class to the
# scheduler.  (ns-2 also takes a queue monitor for the class's demand;
# Dumbbell's scheduler counts the demand itself.)
CBQLink instproc insert {cbqcl args} {
    $self instvar queue_ link_
    if {[llength $args] > 0} {
        error "$self insert $cbqcl: Dumbbell's CBQ counts a class's backlog itself and takes no queue monitor (insert CLASS)"
    }
    if {[$cbqcl cbq] ne ""} {
        error "$self insert: class $cbqcl is already inserted in [$cbqcl cbq]"
    }
    $cbqcl instvar maxidle_
    if {![info exists maxidle_]} {
        error "$self insert $cbqcl: the class has no maxidle (setparams, or set maxidle_ to a number or auto)"
    }
    if {$maxidle_ eq "auto"} {
        $cbqcl automaxidle [$link_ set bandwidth_] [$queue_ set maxpkt_]
        set maxidle_ [$cbqcl set maxidle_]
    }
    $cbqcl maxidle $maxidle_
    $queue_ insert-class $cbqcl
}

# The scheduler takes a class: its parameters now, its queue's discipline
# and capacity.  A class whose parent is inserted later gets it then.
Queue/CBQ instproc insert-class {cl} {
    $self instvar cbq_classes_
    if {[$cl cbq] ne ""} {
        error "CBQ: class $cl is already inserted in [$cl cbq]"
    }
    set parent [$cl set parent_]
    set pidx -1
    if {$parent ne "" && [$parent cbq] eq $self} {
        set pidx [$parent set cbq_index_]
    }
    $cl instvar priority_ level_ extradelay_ okborrow_
    set q [$cl qdisc]
    if {[catch {$self cmd cbq-class $pidx [$cl allot] [$cl set maxidle_set_] $priority_ $level_ $extradelay_ $okborrow_ $q} idx]} {
        if {[string match "* is not a Queue/DropTail, Queue/RED, Queue/SFQ, Queue/DRR, *" $idx]} {
            # ns-2's class takes any queue object (Marker, dsRED/core, ...
            # run there; a few kinds do not)
            set why [::dumbbell::inner_queue_fails [$q info class]]
            if {$why ne ""} {
                error "CBQ: trouble inserting class $cl: its queue $q is a [$q info class], which cannot be a class's queue: $why; Dumbbell's CBQ classes queue with Queue/DropTail, Queue/RED, Queue/SFQ, Queue/DRR, Queue/PI, Queue/REM, Queue/Vq, Queue/GK, Queue/SRR or Queue/RED/RIO"
            }
            error "CBQ: trouble inserting class $cl: its queue $q is a [$q info class]; Dumbbell's CBQ classes queue with Queue/DropTail, Queue/RED, Queue/SFQ, Queue/DRR, Queue/PI, Queue/REM, Queue/Vq, Queue/GK, Queue/SRR or Queue/RED/RIO"
        }
        error "CBQ: trouble inserting class $cl: $idx"
    }
    $cl set cbq_index_ $idx
    $cl set cbq_ $self
    lappend cbq_classes_ $cl
    foreach c $cbq_classes_ {
        if {[$c set parent_] eq $cl} {
            $self cbq-lender [$c set cbq_index_] $idx
        }
    }
}

::otcl::_::LibClass CBQClass

# The number `v` (what `what` of class `cl` was given), or an error that
# says so.
proc ::dumbbell::cbq_number {cl what v} {
    if {[catch {expr {double($v)}} x]} {
        error "$cl $what: expected a number, got \"$v\""
    }
    return $x
}

# A write to a variable ns-2 binds in C++ reads back as the C++ value
# prints: an int (strtol), a double (%.17g), a bool (atoi of a number,
# else 1 for t..., 0 otherwise).
proc ::dumbbell::cbq_bound {type name1 name2 op} {
    upvar 1 $name1 v
    set x $v
    switch -- $type {
        int { if {[scan $x %i n] != 1} { set n 0 }; set v $n }
        real { if {[scan $x %f n] != 1} { set n 0.0 }; set v [format %.17g $n] }
        bool {
            set c [string index $x 0]
            if {[string is digit -strict $c]} {
                scan $x %d n
                set v $n
            } else {
                set v [expr {$c eq "t" || $c eq "T"}]
            }
        }
    }
}

CBQClass instproc init {} {
    $self next
    $self instvar automaxidle_gain_ priority_ level_ extradelay_ okborrow_ debug_
    $self instvar allot_ parent_ qdisc_ cbq_ maxidle_set_
    foreach {v type} {priority_ int level_ int extradelay_ real okborrow_ bool} {
        trace add variable $v write [list ::dumbbell::cbq_bound $type]
    }
    foreach v {automaxidle_gain_ priority_ level_ extradelay_ okborrow_ debug_} {
        set $v [CBQClass set $v]
    }
    set allot_ 0.0
    set parent_ ""
    set qdisc_ ""
    set cbq_ ""
    set maxidle_set_ -1.0
}

# allot: the allotment (%g); allot BW: set it, once.
CBQClass instproc allot {args} {
    $self instvar allot_
    if {[llength $args] == 0} {
        return [format %g $allot_]
    }
    set bw [lindex $args 0]
    if {[::dumbbell::cbq_number $self allot $bw] < 0} {
        error "$self allot: the allotment must be zero or more, got \"$bw\""
    }
    if {$allot_ != 0} {
        error " class $self already has allotment of [format %f $allot_]!"
    }
    set allot_ $bw
    return
}

# newallot BW: change the allotment of an inserted class.
CBQClass instproc newallot {bw} {
    $self instvar allot_ cbq_ cbq_index_
    if {$cbq_ eq ""} {
        error "$self newallot: the class is not inserted in a CBQ link yet"
    }
    if {[::dumbbell::cbq_number $self newallot $bw] < 0} {
        error "$self newallot: the allotment must be zero or more, got \"$bw\""
    }
    $cbq_ cbq-newallot $cbq_index_ $bw
    set allot_ $bw
    return
}

# parent CLASS (or none): the class it borrows from.
CBQClass instproc parent {p} {
    $self instvar parent_ cbq_ cbq_index_
    if {$p eq "none"} {
        set p ""
    } elseif {[catch {$p info class CBQClass} is] || !$is} {
        error "$self parent: \"$p\" is not a CBQClass (or none)"
    }
    set parent_ $p
    if {$cbq_ ne ""} {
        set pidx -1
        if {$p ne "" && [$p cbq] eq $cbq_} { set pidx [$p set cbq_index_] }
        $cbq_ cbq-lender $cbq_index_ $pidx
    }
    return
}

# qdisc [QUEUE]: the class's queue (a leaf class has one).
CBQClass instproc qdisc {args} {
    $self instvar qdisc_ cbq_
    if {[llength $args] == 0} {
        return $qdisc_
    }
    if {$cbq_ ne ""} {
        error "$self qdisc: the class is inserted already; its queue cannot change"
    }
    set q [lindex $args 0]
    if {[catch {$q info class Queue} is] || !$is} {
        error "couldn't find object $q"
    }
    set qdisc_ $q
    return
}

CBQClass instproc cbq {} {
    $self instvar cbq_
    return $cbq_
}

# Dumbbell's scheduler counts each class's backlog itself: no monitor.
CBQClass instproc qmon {args} {
    if {[llength $args] == 0} { return "" }
    error "$self qmon: Dumbbell's CBQ counts a class's backlog itself and takes no queue monitor"
}

# maxidle M: the bound on the class's idle credit (handed to the
# scheduler when the class is inserted).
CBQClass instproc maxidle {m} {
    $self instvar maxidle_set_ cbq_
    if {[::dumbbell::cbq_number $self maxidle $m] < 0} {
        error "invalid maxidle value $m (must be non-negative)"
    }
    if {$cbq_ ne ""} {
        error "$self maxidle: the class is inserted already (set maxidle before insert)"
    }
    set maxidle_set_ $m
    return
}

# The maxidle for a class of this allotment and priority on a link of
# LINKBW b/s sending packets of up to MAXPKT bytes: the larger of
# (1/allot - 1)(1 - g^n)/g^n and 1 - g, in units of MAXPKT's transmission
# time (g the gain automaxidle_gain_, n = 8 * priority).
CBQClass instproc automaxidle {linkbw maxpkt} {
    $self instvar automaxidle_gain_ maxidle_ priority_
    set allot [$self allot]
    set g $automaxidle_gain_
    if {$g == 0 || $allot == 0 || $linkbw == 0} {
        set maxidle_ 0.0
        return
    }
    set gn [expr pow($g, [expr 8 * $priority_])]
    set lo [expr ((1/$allot) - 1) * (1-$gn) / $gn ]
    set hi [expr (1 - $g)]
    set unit [expr ($maxpkt * 8.0)/$linkbw]
    if {$lo > $hi} {
        set maxidle_ [expr $unit * $lo]
    } else {
        set maxidle_ [expr $unit * $hi]
    }
    return $maxidle_
}

# setparams PARENT OKBORROW ALLOT MAXIDLE PRIO LEVEL XDELAY
CBQClass instproc setparams {parent okborrow allot maxidle prio level xdelay} {
    $self allot $allot
    $self parent $parent
    $self instvar okborrow_ maxidle_ priority_ level_ extradelay_
    set okborrow_ $okborrow
    set maxidle_ $maxidle
    set priority_ $prio
    set level_ $level
    set extradelay_ $xdelay
    return $self
}

# install-queue QUEUE: the class queues with QUEUE (a Queue/DropTail,
# Queue/RED, Queue/SFQ, Queue/DRR, Queue/PI, Queue/REM, Queue/Vq, Queue/GK,
# Queue/SRR or Queue/RED/RIO), blocked so that only the scheduler
# takes packets from it.  The scheduler takes the queue over, in the state
# it is in, when the class is inserted; a RED queue is neither reset when
# the run starts nor linked (ns-2's CBQLink does neither), unless the
# script does it.
CBQClass instproc install-queue {q} {
    $q set blocked_ true
    $q set unblock_on_resume_ false
    $self qdisc $q
}

# ns-default.tcl's
Queue/CBQ set algorithm_ 0
CBQClass set priority_ 0
CBQClass set level_ 1
CBQClass set extradelay_ 0.0
CBQClass set def_qtype_ DropTail
CBQClass set okborrow_ true
CBQClass set automaxidle_gain_ 0.9375
CBQClass set debug_ false
