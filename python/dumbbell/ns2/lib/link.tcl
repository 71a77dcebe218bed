# Links: simplex-link, duplex-link and the per-link commands (queue-limit,
# cost, delay, bandwidth); Link and SimpleLink, with what can be spliced in:
# traces, queue monitors, error models, delayers.  The wiring mirrors ns-2's
# object graph (head -> queue -> delay -> ttl -> next node, with traces
# spliced in), so scripts that inspect or re-wire links find the objects they
# expect.  What takes links down and up is in dynamics.tcl.

# ---- the Simulator's link commands ----------------------------------------------------

Simulator instproc simplex-link {n1 n2 bw delay qtype args} {
    $self instvar link_ queueMap_
    set sid [$n1 id]
    set did [$n2 id]
    if {[info exists queueMap_($qtype)]} { set qtype $queueMap_($qtype) }
    if {![::dumbbell::is_class Queue/$qtype]} {
        set have {}
        foreach c [::dumbbell::be::kinds] {
            if {[string match Queue/* $c]} { lappend have [string range $c 6 end] }
        }
        error "unknown queue type \"$qtype\" for link $sid->$did (Dumbbell has: [join [lsort $have] {, }])"
    }
    ::dumbbell::check_bw $bw "bandwidth of link $sid->$did"
    ::dumbbell::check_time $delay "delay of link $sid->$did"
    if {$qtype eq "CBQ" || $qtype eq "CBQ/WRR"} {
        # cbq.tcl: the classifier is the link type's argument, by default
        # one by flow id
        set q [new Queue/$qtype]
        if {[llength $args] == 0} {
            set c [new Classifier/Hash/Fid 33]
        } else {
            set c [lindex $args 0]
        }
        set link_($sid:$did) [new CBQLink $n1 $n2 $bw $delay $q $c]
    } elseif {$qtype eq "FQ"} {
        set q [new Queue/FQ]
        set link_($sid:$did) [new FQLink $n1 $n2 $bw $delay $q]
    } else {
        if {[llength $args] == 0} {
            set q [new Queue/$qtype]
        } else {
            set q [new Queue/$qtype $args]
        }
        set link_($sid:$did) [new SimpleLink $n1 $n2 $bw $delay $q]
    }
    $n1 add-neighbor $n2
    # Active queues learn the link's bandwidth and delay (ns-2 does this for
    # every queue type whose name contains RED, PI, Vq, REM, GK, RIO or XCP;
    # Dumbbell's SCFQ passes the link on to its RED classes, XCP to its two
    # RED virtual queues).
    if {[string first RED $qtype] != -1 || [string first Vq $qtype] != -1 || [string first GK $qtype] != -1
            || [string first REM $qtype] != -1 || [string first XCP $qtype] != -1
            || $qtype eq "SCFQ"} {
        $q link [$link_($sid:$did) set link_]
    }
    ::dumbbell::be::sim add-link $sid $did [$link_($sid:$did) head]
    set trace [$self get-ns-traceall]
    if {$trace ne ""} {
        $self trace-queue $n1 $n2 $trace
    }
    set trace [$self get-nam-traceall]
    if {$trace ne ""} {
        $self namtrace-queue $n1 $n2 $trace
    }
    # nam's list of links (nam.tcl's register-nam-linkconfig)
    ::dumbbell::nam_register $self $link_($sid:$did) $sid $did
    return $link_($sid:$did)
}

# ns-2's library probes elements of the Simulator's link_ array with `info
# exists` (in duplex-link, and when it registers each link after the first
# for nam: register-nam-linkconfig).  In Tcl 8.6 a probe of a missing element made directly on the
# array (as OTcl's instance variables are) leaves an entry in the array's
# hash table, which moves the order of [array names link_] -- the order in
# which `$ns run` resets the queues, and RED queues trace on reset.  The
# probe goes to the object's variable itself, not through an instvar link.
proc ::dumbbell::probe_link {sim key} {
    info exists $::otcl::_::ns($sim)::link_($key)
}

Simulator instproc duplex-link {n1 n2 bw delay type args} {
    if {[::dumbbell::probe_link $self [$n1 id]:[$n2 id]]} {
        $self remove-nam-linkconfig [$n1 id] [$n2 id]
    }
    eval $self simplex-link $n1 $n2 [list $bw] [list $delay] $type $args
    eval $self simplex-link $n2 $n1 [list $bw] [list $delay] $type $args
}

Simulator instproc link {n1 n2} {
    $self instvar link_
    if {![catch {set sid [$n1 id]}]} { set n1 $sid }
    if {![catch {set did [$n2 id]}]} { set n2 $did }
    if {[::dumbbell::probe_link $self $n1:$n2]} { return $link_($n1:$n2) }
    return ""
}

# ns-2's Queue/XCP makes its virtual queues with `new` (ns-queue.tcl's
# create-vqueues): they start with the class defaults of that moment,
# `Queue set limit_` and Queue/DropTail's for the XCP packets' one, two
# Queue/RED for the TCP packets and the others.  (The XCP packets' queue,
# a Queue/DropTail/XCPQ in ns-2, is made here too, so that the objects made
# later are numbered as in ns-2; the engine keeps its settings.)
Queue/XCP instproc init args {
    eval $self next $args
    $self instvar vq_
    set vq_(0) [new Queue/DropTail]
    $self xcpq-defaults [Queue set limit_] [Queue/DropTail set drop_front_] \
        [Queue/DropTail set queue_in_bytes_] [Queue/DropTail set mean_pktsize_]
    $self set-tcpQ [set vq_(1) [new Queue/RED]]
    $self set-otherQ [set vq_(2) [new Queue/RED]]
}

Simulator instproc queue-limit {n1 n2 limit} {
    $self instvar link_
    set l $link_([$n1 id]:[$n2 id])
    [$l queue] set limit_ $limit
    # (ns-2's Queue/XCP passes the limit on to its virtual queues)
    if {[[$l queue] info class] eq "Queue/XCP"} {
        [$l queue] queue-limit $limit
    }
}

Simulator instproc cost {n1 n2 c} {
    $self instvar link_
    $link_([$n1 id]:[$n2 id]) cost $c
    ::dumbbell::be::sim set-cost [$n1 id] [$n2 id] $c
}

Simulator instproc delay {n1 n2 delay {type simplex}} {
    $self instvar link_
    set sid [$n1 id]
    set did [$n2 id]
    if {[::dumbbell::probe_link $self $sid:$did]} { [$link_($sid:$did) link] set delay_ $delay }
    if {$type eq "duplex" && [::dumbbell::probe_link $self $did:$sid]} {
        [$link_($did:$sid) link] set delay_ $delay
    }
}

Simulator instproc bandwidth {n1 n2 bandwidth {type simplex}} {
    $self instvar link_
    set sid [$n1 id]
    set did [$n2 id]
    if {[::dumbbell::probe_link $self $sid:$did]} { [$link_($sid:$did) link] set bandwidth_ $bandwidth }
    if {$type eq "duplex" && [::dumbbell::probe_link $self $did:$sid]} {
        [$link_($did:$sid) link] set bandwidth_ $bandwidth
    }
}

# ---- links ---------------------------------------------------------------------------

::otcl::_::LibClass Link

Link instproc init {src dst} {
    $self next
    $self instvar id_ trace_ fromNode_ toNode_ color_
    upvar #0 [::otcl::api::varname Link nl_] nl_
    set id_ $nl_
    set nl_ [expr {$id_ + 1}]
    set fromNode_ $src
    set toNode_ $dst
    set color_ black
    set trace_ ""
}

Link instproc head {} { $self instvar head_; return $head_ }
Link instproc queue {} { $self instvar queue_; return $queue_ }
Link instproc link {} { $self instvar link_; return $link_ }
Link instproc src {} { $self instvar fromNode_; return $fromNode_ }
Link instproc dst {} { $self instvar toNode_; return $toNode_ }
Link instproc cost {c} { $self set cost_ $c }
Link instproc cost? {} {
    $self instvar cost_
    if {![info exists cost_]} { set cost_ 1 }
    set cost_
}
Link instproc id {} { $self instvar id_; return $id_ }

# ---- a link's state: up or down -------------------------------------------------------
# A dynamic link (made so by an rtmodel when the simulation starts) has a
# DynamicLink gate at its head.  Going down, it refuses new packets and
# every object of the link is reset: the queue drops what it holds, the
# delay line what is in flight (both through the drop head, so the packet
# trace shows them).  Its Generic traces (trace-dynamics) write
# "v <time> link-down <src> <dst>" and "link-up" lines.
# (Here, before SimpleLink exists: a method defined on a class with subclasses
# makes every class's cached answers stale, otcl.tcl's InvalClass.)
Link instproc up? {} {
    $self instvar dynamics_
    if {[info exists dynamics_]} { return [$dynamics_ status?] }
    return up
}
Link instproc up {} {
    $self instvar dynamics_ dynT_
    if {![info exists dynamics_]} return
    $dynamics_ set status_ 1
    if {[info exists dynT_]} {
        foreach tr $dynT_ {
            $tr format link-up {$src_} {$dst_}
            ::dumbbell::nam_link_state $self $tr UP link-up
        }
    }
}
Link instproc down {} {
    $self instvar dynamics_ dynT_
    if {![info exists dynamics_]} {
        # ns-2 2.35 means to warn and go on here, but its warning reads the
        # undefined variable `class::`: the call fails with that error (a
        # script doing this at top level exits 1).  Checked with /usr/bin/ns.
        error {can't read "class::": no such variable}
    }
    $dynamics_ set status_ 0
    $self all-connectors reset
    if {[info exists dynT_]} {
        foreach tr $dynT_ {
            $tr format link-down {$src_} {$dst_}
            ::dumbbell::nam_link_state $self $tr DOWN link-down
        }
    }
}
# Apply `op` to every object the link's variables name (not its nodes), in
# the order ns-2 lists the link's variables (its hash order: the link has
# between 12 and 47 variables there, so 16 buckets; e.g. a queue monitor,
# then an error model after the link, then the queue, then the delay line).
Link instproc all-connectors op {
    set order {}
    foreach c [$self info vars] {
        lappend order [list [expr {[::dumbbell::tclhash $c] & 15}] $c]
    }
    foreach e [lsort -integer -index 0 $order] {
        set c [lindex $e 1]
        $self instvar $c
        if {![info exists $c] || [array exists $c]} continue
        foreach var [set $c] {
            if {[catch {$var info class}]} continue
            if {![$var info class Node]} {
                catch {$var $op}
            }
        }
    }
}
# Tcl's string hash (what orders a variable table).
proc ::dumbbell::tclhash {s} {
    set h 0
    foreach ch [split $s ""] {
        scan $ch %c v
        set h [expr {($h + ($h << 3) + $v) & 0xffffffff}]
    }
    return $h
}

# (After a tagger: ns-2 makes the tagger's snoop the link's head, so what
# is added to the head later comes after the tagger.)
Link instproc add-to-head {connector} {
    $self instvar head_ taggerSnoop_
    set h $head_
    if {[info exists taggerSnoop_]} { set h $taggerSnoop_ }
    $connector target [$h target]
    $h target $connector
}

::otcl::_::LibClass SimpleLink Link

SimpleLink instproc init {src dst bw delay q {lltype DelayLink}} {
    $self next $src $dst
    $self instvar link_ queue_ head_ toNode_ ttl_ drophead_
    set ns [Simulator instance]
    set drophead_ [new Connector]
    $drophead_ target [$ns set nullAgent_]
    set head_ [new Connector]
    $head_ target $q
    set queue_ $q
    set link_ [new $lltype]
    $link_ set bandwidth_ $bw
    $link_ set delay_ $delay
    $queue_ target $link_
    $link_ target [$dst entry]
    $queue_ drop-target $drophead_
    set ttl_ [new TTLChecker]
    $ttl_ target [$link_ target]
    $ttl_ drop-target $drophead_
    $link_ target $ttl_
}

SimpleLink instproc bw {} { [$self set link_] set bandwidth_ }
SimpleLink instproc delay {} { [$self set link_] set delay_ }
SimpleLink instproc qsize {} { [$self queue] set limit_ }

SimpleLink instproc trace {ns f {op ""}} {
    $self instvar enqT_ deqT_ drpT_ queue_ link_ fromNode_ toNode_ rcvT_ ttl_ trace_ drophead_
    set trace_ $f
    set enqT_ [$ns create-trace Enque $f $fromNode_ $toNode_ $op]
    set deqT_ [$ns create-trace Deque $f $fromNode_ $toNode_ $op]
    set drpT_ [$ns create-trace Drop $f $fromNode_ $toNode_ $op]
    set rcvT_ [$ns create-trace Recv $f $fromNode_ $toNode_ $op]
    set nxt [$drophead_ target]
    $drophead_ target $drpT_
    $drpT_ target $nxt
    $queue_ drop-target $drophead_
    $deqT_ target [$queue_ target]
    $queue_ target $deqT_
    $self add-to-head $enqT_
    $rcvT_ target [$ttl_ target]
    $ttl_ target $rcvT_
    $self instvar dynamics_
    if {[info exists dynamics_]} {
        $self trace-dynamics $ns $f $op
    }
}

SimpleLink instproc attach-monitors {insnoop outsnoop dropsnoop qmon} {
    $self instvar queue_ snoopIn_ snoopOut_ snoopDrop_ qMonitor_ drophead_
    set snoopIn_ $insnoop
    set snoopOut_ $outsnoop
    set snoopDrop_ $dropsnoop
    $self add-to-head $snoopIn_
    $snoopOut_ target [$queue_ target]
    $queue_ target $snoopOut_
    set nxt [$drophead_ target]
    $drophead_ target $snoopDrop_
    $snoopDrop_ target $nxt
    $snoopIn_ set-monitor $qmon
    $snoopOut_ set-monitor $qmon
    $snoopDrop_ set-monitor $qmon
    set qMonitor_ $qmon
}

# A tagger for RIO (ns-2's maketbtagger): a flow monitor whose flows are
# token buckets, set per flow id with `[$tagger classifier] set-flowrate
# fid rate depth tokens` before traffic starts, and put at the head of a
# link with attach-tagger.  The arrivals a bucket covers are tagged In.
# (Flows not set so are not tagged; ns-2 would give them a bucket with the
# class defaults.)
Simulator instproc maketbtagger {cltype {clslots 29}} {
    set tagger [new QueueMonitor/ED/Tagger]
    set cl [new Classifier/Hash/$cltype $clslots]
    $cl proc set-rate {src dst fid hashbucket rate depth init} {
        set fdesc [new QueueMonitor/ED/Flow/TB]
        $fdesc set-delay-samples [new Samples]
        $fdesc set target_rate_ $rate
        $fdesc set bucket_depth_ $depth
        $fdesc set tbucket_ $init
        $self set-hash $hashbucket $src $dst $fid [$self installNext $fdesc]
    }
    $cl proc no-slot slotnum { }
    $tagger classifier $cl
    return $tagger
}
# The token bucket of flow `fid` (classified by flow id alone): a new one,
# or the one the flow has, set anew.
Classifier/Hash instproc set-flowrate {fid rate depth init} {
    set f [$self lookup auto 0 0 $fid]
    if {$f eq ""} {
        $self set-rate 0 0 $fid 4294967295 $rate $depth $init
        return
    }
    $f set target_rate_ $rate
    $f set bucket_depth_ $depth
    $f set tbucket_ $init
}
Simulator instproc attach-tagger {lnk tagger} {
    $lnk attach-taggers [new SnoopQueue/Tagger] $tagger
}
SimpleLink instproc attach-taggers {insnoop qmon} {
    $self instvar snoopIn_ qMonitor_ head_ taggerSnoop_
    set snoopIn_ $insnoop
    # first after the head, and later additions to the head after it
    $snoopIn_ target [$head_ target]
    $head_ target $snoopIn_
    set taggerSnoop_ $snoopIn_
    $snoopIn_ set-monitor $qmon
    set qMonitor_ $qmon
}

SimpleLink instproc init-monitor {ns qtrace sampleInterval} {
    $self instvar qMonitor_ ns_ qtrace_ sampleInterval_
    set ns_ $ns
    set qtrace_ $qtrace
    set sampleInterval_ $sampleInterval
    set qMonitor_ [new QueueMonitor]
    $self attach-monitors [new SnoopQueue/In] [new SnoopQueue/Out] [new SnoopQueue/Drop] $qMonitor_
    set bytesInt_ [new Integrator]
    $qMonitor_ set-bytes-integrator $bytesInt_
    set pktsInt_ [new Integrator]
    $qMonitor_ set-pkts-integrator $pktsInt_
    return $qMonitor_
}

SimpleLink instproc start-tracing {} {
    $self instvar qMonitor_ qtrace_ fromNode_ toNode_
    if {$qtrace_ != 0} { $qMonitor_ trace $qtrace_ }
    $qMonitor_ set-src-dst [$fromNode_ id] [$toNode_ id]
}

SimpleLink instproc queue-sample-timeout {} {
    $self instvar ns_ qtrace_ sampleInterval_ fromNode_ toNode_
    set qavg [$self sample-queue-size]
    if {$qtrace_ != 0} {
        puts $qtrace_ "[$ns_ now] [$fromNode_ id] [$toNode_ id] $qavg"
    }
    $ns_ at [expr {[$ns_ now] + $sampleInterval_}] "$self queue-sample-timeout"
}

SimpleLink instproc sample-queue-size {} {
    $self instvar qMonitor_ ns_ lastSample_
    set now [$ns_ now]
    set qBytesMonitor_ [$qMonitor_ get-bytes-integrator]
    set qPktsMonitor_ [$qMonitor_ get-pkts-integrator]
    $qBytesMonitor_ newpoint $now [$qBytesMonitor_ set lasty_]
    set bsum [$qBytesMonitor_ set sum_]
    $qPktsMonitor_ newpoint $now [$qPktsMonitor_ set lasty_]
    set psum [$qPktsMonitor_ set sum_]
    if {![info exists lastSample_]} { set lastSample_ 0 }
    set dur [expr $now - $lastSample_]
    if {$dur != 0} {
        set meanBytesQ [expr $bsum / $dur]
        set meanPktsQ [expr $psum / $dur]
    } else {
        set meanBytesQ 0
        set meanPktsQ 0
    }
    $qBytesMonitor_ set sum_ 0.0
    $qPktsMonitor_ set sum_ 0.0
    set lastSample_ $now
    $qMonitor_ instvar pdrops_ pdepartures_ parrivals_ bdrops_ bdepartures_ barrivals_
    return "$meanBytesQ $meanPktsQ $parrivals_ $pdepartures_ $pdrops_ $barrivals_ $bdepartures_ $bdrops_"
}

# ---- loss models and delayers on a link ------------------------------------------------

# Loss injection.  `errormodule` puts an ErrorModule at the head of the link
# (before the queue); `insert-linkloss` and `install-error` put an error
# model after the link, before the receiving node.
# One error model object sits in one place: installed a second time, it
# would become its own target, and ns-2 sends packets round that loop for
# ever at one instant.
proc ::dumbbell::install_once {em how} {
    if {[info exists ::dumbbell::installed($em)]} {
        error "$how: error model $em is already installed ($::dumbbell::installed($em)); make one object per place (ns-2 would send packets round a loop for ever)"
    }
    set ::dumbbell::installed($em) $how
}
SimpleLink instproc errormodule args {
    $self instvar errmodule_ drophead_
    if {$args eq ""} { return $errmodule_ }
    ::dumbbell::install_once [lindex $args 0] "errormodule on link [[$self set fromNode_] id]->[[$self set toNode_] id]"
    set errmodule_ [lindex $args 0]
    $self add-to-head $errmodule_
    $errmodule_ drop-target $drophead_
}
SimpleLink instproc insert-linkloss args {
    $self instvar link_errmodule_ drophead_ link_
    if {$args eq ""} { return $link_errmodule_ }
    ::dumbbell::install_once [lindex $args 0] "insert-linkloss on link [[$self set fromNode_] id]->[[$self set toNode_] id]"
    set link_errmodule_ [lindex $args 0]
    $link_errmodule_ target [$link_ target]
    $link_ target $link_errmodule_
    $link_errmodule_ drop-target $drophead_
}
# ns-2's shorthands for the two: a loss model before the link's queue, or
# after the link (where nam would show the losses).
Simulator instproc lossmodel {lossobj from to} {
    [$self link $from $to] errormodule $lossobj
}
Simulator instproc link-lossmodel {lossobj from to} {
    [$self link $from $to] insert-linkloss $lossobj
}
Link instproc install-error {em} {
    $self instvar link_
    $em target [$link_ target]
    $link_ target $em
}
# A Delayer (engine: delayer.rs) goes between the link's queue and what
# follows it (the dequeue trace if the link is traced by then, else the delay
# line): the queue hands it each packet, it passes them on one at a time
# when the link is free and no spike or channel allocation delays them.
Simulator instproc insert-delayer {src dst delayer} {
    set link [$self link $src $dst]
    if {$link eq ""} {
        error "insert-delayer: no link from node [$src id] to node [$dst id]"
    }
    $link insert-delayer $delayer
}
SimpleLink instproc insert-delayer args {
    $self instvar delayer_ queue_
    if {[info exists delayer_]} {
        puts stderr "Delayer already inserted"
        return
    }
    set delayer_ [lindex $args 0]
    $delayer_ target [$queue_ target]
    $queue_ target $delayer_
}

# ---- error models ----------------------------------------------------------------

# ErrorModel/Uniform is ErrorModel with its rate (and unit) given to `new`.
# ---- FQ links -------------------------------------------------------------------------

# ns-2's FQLink puts a classifier by flow id in front of its Queue/FQ and
# makes a queue of type `queueManagement_` for each new flow (ns-queue.tcl's
# new-flow).  Dumbbell's Queue/FQ keeps the flow queues itself, DropTail,
# RED, SFQ, DRR, PI, REM, Vq, GK, SRR, RIO or PriQueue ones: the link tells it the kind and the variables a new
# flow queue has, that class's defaults, and tells it again whenever they or
# the kind change, so that each flow gets the ones current when its first
# packet arrives, as in ns-2.
::otcl::_::LibClass FQLink SimpleLink
FQLink set queueManagement_ DropTail

FQLink instproc init {src dst bw delay q} {
    $self next $src $dst $bw $delay $q
    $self instvar link_ queue_ nactive_
    set nactive_ 0
    $queue_ set secsPerByte_ [expr {8.0 / [$link_ set bandwidth_]}]
    ::dumbbell::fq_watch
    lappend ::dumbbell::fq_queues $queue_
    ::dumbbell::fq_flow_queue $queue_
}
FQLink instproc up? {} { return up }
# ns-2's new-flow gives each flow queue the link's drop trace as its drop
# target (`$q drop-target $drpT_`): the flow queues' drops reach drpT_
# directly, not through the link's drophead_ (nor a queue monitor's drop
# snoop attached there after the trace).
FQLink instproc trace args {
    eval $self next $args
    $self instvar queue_ drpT_
    $queue_ cmd flow-drop-target $drpT_
}

# Why ns-2 2.35 cannot run a Queue/KIND (or a class of it) inside a
# scheduler, as a CBQ class's queue or an FQ link's flow queue ("" when it
# runs there), as /usr/bin/ns does with each kind in both places.
proc ::dumbbell::inner_queue_fails {cls} {
    foreach c [list $cls {*}[::otcl::api::heritage $cls]] {
        switch -- $c {
            Queue/CBQ - Queue/FQ {
                return "ns-2 stops at its first packet with exit status 1 and no message (it schedules classes or flows of its own, and has none there)"
            }
            Queue/RED/PD {
                return "ns-2 stops at its first packet (\"RedPD: ERROR: FlowMonitor Not Found\": its flow monitor comes from its own link's makeflowmon)"
            }
            Queue/JoBS {
                return "ns-2 stops at its first packet (\"Bad priority value\": its classes are set by a Queue/Marker on the way in)"
            }
            Queue/Demarker {
                return "ns-2 stops at its first packet (\"Wrong class type in Demarker-deque\")"
            }
            Queue/dsRED/edge {
                return "ns-2 stops at its first packet (\"No Policy Table entry found\": its policies are its own link's)"
            }
            Queue/XCP {
                return "ns-2 dies of a floating-point exception (SIGFPE) at its first packets"
            }
        }
    }
    return ""
}

proc ::dumbbell::fq_flow_queue {q} {
    set type [FQLink set queueManagement_]
    switch -- $type {
        DropTail {
            array set d [::dumbbell::class_defaults Queue/DropTail Queue/DropTail]
            $q cmd flow-queue $d(limit_) $d(queue_in_bytes_) $d(drop_front_) $d(mean_pktsize_)
        }
        RED {
            # every variable REDQueue binds, as `new Queue/RED` reads them
            $q cmd flow-queue RED {*}[::dumbbell::class_defaults Queue/RED Queue/RED]
        }
        SFQ - DRR - PI - REM - Vq - GK - SRR - RED/RIO - DropTail/PriQueue {
            # every variable the kind binds, as `new Queue/$type` reads them
            # (the engine makes such an object, and a copy of it at each
            # new flow)
            $q cmd flow-queue $type {*}[::dumbbell::class_defaults Queue/$type Queue/$type]
        }
        default {
            # ns-2 makes `new Queue/$type` at each new flow: other queue
            # types run there too (Marker, dsRED/core, ...), an unknown one
            # stops ns-2 at the flow's first packet
            if {[info exists ::dumbbell::unsupported(Queue/$type)]} {
                # an ns-2 class Dumbbell does not run (classes.tcl)
                set why "not supported by Dumbbell yet"
                if {[info exists ::dumbbell::unsupported_why(class\ Queue/$type)]} {
                    set why "not supported by Dumbbell: $::dumbbell::unsupported_why(class\ Queue/$type)"
                }
                error "FQLink set queueManagement_ $type: ns-2 makes a Queue/$type for each flow; class Queue/$type is $why"
            }
            if {[info exists ::otcl::_::ns(Queue/$type)]} {
                set why [::dumbbell::inner_queue_fails Queue/$type]
                if {$why ne ""} {
                    error "FQLink set queueManagement_ $type: a Queue/$type cannot be a flow queue: $why; FQ links make DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR, RED/RIO or DropTail/PriQueue flow queues"
                }
                error "FQLink set queueManagement_ $type: Dumbbell's FQ links make DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR, RED/RIO or DropTail/PriQueue flow queues, not Queue/$type ones (ns-2 makes a Queue/$type for each flow)"
            }
            error "FQLink set queueManagement_ $type: there is no class Queue/$type (ns-2 fails at the first packet of a new flow, making \"new Queue/$type\"); FQ links make DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR, RED/RIO or DropTail/PriQueue flow queues"
        }
    }
}

# Watch the class variables a flow queue's kind and variables come from
# (those of Queue/DropTail and Queue/RED and the classes they inherit
# from), once.
proc ::dumbbell::fq_watch {} {
    variable fq_watched
    if {[info exists fq_watched]} return
    set fq_watched 1
    foreach c [list Queue/DropTail {*}[::otcl::api::heritage Queue/DropTail]] {
        set ns $::otcl::_::ns($c)
        foreach v {limit_ queue_in_bytes_ drop_front_ mean_pktsize_} {
            trace add variable ${ns}::$v {write unset} ::dumbbell::fq_refresh
        }
    }
    set vars [::dumbbell::boundvars Queue/RED]
    foreach c [list Queue/RED {*}[::otcl::api::heritage Queue/RED]] {
        set ns $::otcl::_::ns($c)
        foreach v $vars {
            trace add variable ${ns}::$v {write unset} ::dumbbell::fq_refresh_red
        }
    }
    foreach k {SFQ DRR PI REM Vq GK SRR RED/RIO DropTail/PriQueue} {
        set vars [::dumbbell::boundvars Queue/$k]
        foreach c [list Queue/$k {*}[::otcl::api::heritage Queue/$k]] {
            set ns $::otcl::_::ns($c)
            foreach v $vars {
                trace add variable ${ns}::$v {write unset} [list ::dumbbell::fq_refresh_kind $k]
            }
        }
    }
    trace add variable $::otcl::_::ns(FQLink)::queueManagement_ write ::dumbbell::fq_refresh
}
proc ::dumbbell::fq_refresh {args} {
    foreach q $::dumbbell::fq_queues {
        ::dumbbell::fq_flow_queue $q
    }
}
# A Queue/RED class variable changed: only RED flow queues read them.
proc ::dumbbell::fq_refresh_red {args} {
    if {[FQLink set queueManagement_] eq "RED"} {
        ::dumbbell::fq_refresh
    }
}
# A class variable of Queue/SFQ, Queue/DRR, Queue/PI, ... changed: only flow
# queues of that kind read them.
proc ::dumbbell::fq_refresh_kind {kind args} {
    if {[FQLink set queueManagement_] eq $kind} {
        ::dumbbell::fq_refresh
    }
}

::otcl::_::LibClass ErrorModel/Uniform ErrorModel
ErrorModel instproc init args {
    eval $self next $args
    [Simulator instance] create-eventtrace Event $self
}
ErrorModel/Uniform instproc init {rate {unit pkt}} {
    $self next
    $self unit $unit
    $self set rate_ $rate
}

# An ErrorModule classifies packets by flow (Classifier/Hash/<cltype>) and
# hands each flow to the error model bound to it; "default" says what the
# other flows get (`pass`: no errors).  Its C++ target and drop-target are
# two inner connectors, so models inserted before the module is put on a
# link still reach the link's objects.
ErrorModule instproc init {cltype {clslots 29}} {
    $self next
    set cl [new Classifier/Hash/$cltype $clslots]
    $self cmd classifier $cl
    $self cmd target [new Connector]
    $self cmd drop-target [new Connector]
    $cl proc unknown-flow {src dst fid} {
        puts "warning: classifier $self unknown flow s:$src, d:$dst, fid:$fid"
    }
}
ErrorModule instproc default {errmodel} {
    set cl [$self cmd classifier]
    if {$errmodel eq "pass"} {
        $cl set default_ [$cl installNext [$self cmd target]]
        return
    }
    set slot [$cl findslot $errmodel]
    if {$slot == -1} {
        puts "ErrorModule: couldn't find classifier entry for error model $errmodel"
        return
    }
    $cl set default_ $slot
}
ErrorModule instproc insert {errmodel} {
    if {$errmodel eq $self} {
        error "ErrorModule insert: $errmodel is this module itself; insert an error model (ErrorModel/...)"
    }
    $self instvar models_
    $errmodel target [$self cmd target]
    $errmodel drop-target [$self cmd drop-target]
    lappend models_ $errmodel
}
ErrorModule instproc errormodels {} {
    $self instvar models_
    return $models_
}
# $module bind $errmodel fid ?lastfid?: flows fid..lastfid use $errmodel.
ErrorModule instproc bind {errmodel first {last ""}} {
    if {$errmodel eq $self} {
        # its classifier would hand packets back to it, for ever at one
        # instant (ns-2 loops there)
        error "ErrorModule bind: $errmodel is this module itself; bind an error model (ErrorModel/...)"
    }
    if {$last eq ""} { set last $first }
    set cl [$self cmd classifier]
    for {set f $first} {$f <= $last} {incr f} {
        $cl set-hash auto 0 0 $f [$cl installNext $errmodel]
    }
}
ErrorModule instproc target args {
    set inner [$self cmd target]
    if {$args eq ""} { return [$inner target] }
    $inner target [lindex $args 0]
    $inner drop-target [lindex $args 0]
}
ErrorModule instproc drop-target args {
    set inner [$self cmd drop-target]
    if {$args eq ""} { return [$inner target] }
    $inner target [lindex $args 0]
    $inner drop-target [lindex $args 0]
}
