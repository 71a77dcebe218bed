# Dumbbell's ns-2 library: the Simulator, Node, Link, Agent and Application
# interface that ns-2 2.35 scripts use, written for Dumbbell's engine.
#
# Objects with an engine part (queues, links, agents, traces, monitors) are
# split objects (tclobject.tcl): their bound variables and C++-style commands
# live in the engine.  The wiring mirrors ns-2's object graph (a link is
# head -> queue -> delay -> ttl -> next node, with traces spliced in), so
# scripts that inspect or re-wire links find the objects they expect.
#
# Anything a script uses that Dumbbell does not model raises an error that
# names it; anything accepted but not modelled prints one warning.

namespace eval ::dumbbell {
    variable warned
    array set warned {}
}

# Print a warning once per message (ns-2's `warn`).
proc warn {msg} {
    global warned_
    if {![info exists warned_($msg)]} {
        puts stderr "warning: $msg"
        set warned_($msg) 1
    }
}

proc ::dumbbell::unsupported {what} {
    error "$what is not supported by Dumbbell yet"
}

proc ::dumbbell::is_class {name} {
    if {[info exists ::otcl::_::isclass([::otcl::_::Norm $name])] && [info commands ::$name] ne ""} {
        return 1
    }
    if {[info commands ::$name] eq ""} {
        ::dumbbell::define_unsupported $name
    }
    expr {[info commands ::$name] ne ""
          && ([info exists ::otcl::_::isclass([::otcl::_::Norm $name])]
              || ![catch {::$name info superclass}])}
}

# `new` of a class that does not exist names it as such (ns-2 says
# "invalid command name"); tclobject.tcl's `new` asks this first.
proc ::dumbbell::new_unknown_class {className} {
    ::dumbbell::define_unsupported $className
    if {[info commands ::$className] eq ""} {
        error "unknown class \"$className\" (not an ns-2 class, or not one Dumbbell implements)"
    }
}

# ---- engine classes --------------------------------------------------------------

foreach cls {
    Connector TTLChecker Classifier
    Trace Trace/Enque Trace/Deque Trace/Drop Trace/Recv Trace/Hop
    Queue/DropTail Queue/RED DelayLink DynamicLink RouteLogic Node
    SnoopQueue/In SnoopQueue/Out SnoopQueue/Drop SnoopQueue/EDrop QueueMonitor Integrator
    QueueMonitor/ED QueueMonitor/ED/Flowmon QueueMonitor/ED/Flow Samples
    Agent/Null Agent/TCP Agent/TCP/Reno Agent/TCP/Newreno Agent/TCP/Sack1 Agent/TCP/RFC793edu
    Agent/TCP/Vegas
    Agent/TCPSink Agent/TCPSink/DelAck Agent/TCPSink/Sack1 Agent/TCPSink/Sack1/DelAck
    Application RNG BaseTrace/Event
    Agent/UDP Agent/LossMonitor Agent/Ping Application/Traffic/CBR Application/Telnet
    Application/Traffic/Exponential Application/Traffic/Pareto
    RandomVariable/Uniform RandomVariable/Exponential RandomVariable/Erlang RandomVariable/Gamma
    RandomVariable/Pareto RandomVariable/ParetoII RandomVariable/Normal RandomVariable/LogNormal
    RandomVariable/Constant RandomVariable/HyperExponential RandomVariable/Weibull
    RandomVariable/Empirical
    ErrorModule ErrorModel ErrorModel/Periodic ErrorModel/List
    Classifier/Hash/Fid Classifier/Hash/Dest Classifier/Hash/SrcDest Classifier/Hash/SrcDestFid
    Delayer
} {
    ::dumbbell::register_class $cls
}

# ns-2 classes Dumbbell does not implement yet: creating one is an error that
# says so (instead of "invalid command name").  They are defined when first
# named (through Tcl's auto_index, `new` and is_class), not at start-up.
namespace eval ::dumbbell {
    variable unsupported
    array set unsupported {}
}
foreach cls {
    Queue/RED/RIO Queue/RED/PD Queue/CBQ Queue/FQ Queue/SFQ Queue/DRR
    Queue/REM Queue/PI Queue/Vq Queue/XCP Queue/SRR Queue/JoBS Queue/CoDel
    Agent/TCP/Vegas/RBP Agent/TCP/Reno/RBP Agent/TCP/Fack Agent/TCP/Linux
    Agent/TCP/FullTcp Agent/TCP/FullTcp/Sack Agent/TCP/FullTcp/Newreno
    Agent/TCP/Reno/XCP Agent/TCP/Asym Agent/TCP/Int
    Agent/TCPSink/Asym
    Agent/CBR Agent/TFRC Agent/TFRCSink Agent/RAP
    Agent/RTP Agent/SRM Agent/SCTP
    Application/Traffic/Trace
    ErrorModel/TwoState ErrorModel/Expo ErrorModel/Empirical ErrorModel/MultiState
    ErrorModel/Trace ErrorModel/TwoStateMarkov ErrorModel/ComplexTwoStateMarkov
    Classifier/MultiPath
    Mac/802_11
} {
    set ::dumbbell::unsupported($cls) 1
    set ::auto_index($cls) [list ::dumbbell::define_unsupported $cls]
}

# Define unsupported class `cls` (and the missing classes on its path, the
# unsupported ones among them with their init); other names are ignored.
proc ::dumbbell::define_unsupported {cls} {
    variable unsupported
    set cls [string trimleft $cls :]
    if {![info exists unsupported($cls)] || [info commands ::$cls] ne ""} {
        return
    }
    set parent SplitObject
    set path ""
    foreach p [split $cls /] {
        if {$path eq ""} { set path $p } else { append path / $p }
        if {[info commands ::$path] eq ""} {
            Class $path -superclass $parent
            if {[info exists unsupported($path)]} {
                $path instproc init args "::dumbbell::unsupported {class $path}"
            }
        }
        set parent $path
    }
}

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

# Static routes (ns-2's compute-flat-routes).  From `$ns run` on, the
# engine computes each node's routes lazily, the first time it forwards.
# When links can go down (link dynamics), every link's state is handed to
# the route logic as ns-2 hands it (insert if up, reset if down) before it
# computes; called again while the simulation runs (links changed, with
# `rtproto Session`), routes are computed again at once: nodes take the new
# routes, and keep their old route to a destination they can no longer reach.
Simulator instproc compute-routes {} {
    $self instvar link_ dynlinks_
    if {[info exists dynlinks_]} {
        set r [$self get-routelogic]
        foreach ln [array names link_] {
            lassign [split $ln :] src dst
            if {[$link_($ln) up?] eq "up"} {
                $r cmd insert $src $dst [$link_($ln) cost?]
            } else {
                $r cmd reset $src $dst
            }
        }
        $r cmd compute
    }
    ::dumbbell::be::sim enable-routing
}

Simulator instproc get-routelogic {} {
    $self instvar routingTable_
    if {![info exists routingTable_]} {
        set routingTable_ [new RouteLogic]
    }
    return $routingTable_
}

# Unicast routing protocols: Static (the default) and Session compute routes
# from the whole topology (Session again whenever links change).
Simulator instproc rtproto {proto args} {
    if {$proto ni {Static Session}} { ::dumbbell::unsupported "routing protocol $proto" }
    eval [list [$self get-routelogic] register $proto] $args
}
Simulator instproc multicast args { ::dumbbell::unsupported "multicast" }
Simulator instproc node-config args { ::dumbbell::unsupported "node-config (wireless nodes)" }
Simulator instproc use-newtrace {} { ::dumbbell::unsupported "use-newtrace (wireless trace format)" }
# Traces made afterwards write the tagged format (ns-lib.tcl).
Simulator instproc use-taggedtrace {{tag ON}} {
    Simulator set TaggedTrace_ $tag
}
# Flow monitors.  The classifier makes a QueueMonitor/ED/Flow (with delay
# samples) for every new flow, as ns-2's unknown-flow procedure does; the
# engine creates it when the flow's first packet is seen and this library
# adopts it right after that event (::dumbbell::adopt_flow).
Simulator instproc makeflowmon {cltype {clslots 29}} {
    set flowmon [new QueueMonitor/ED/Flowmon]
    set cl [new Classifier/Hash/$cltype $clslots]
    $cl cmd auto-flows
    $cl proc no-slot slotnum { }
    $flowmon classifier $cl
    return $flowmon
}
proc ::dumbbell::adopt_flow {cl placeholder} {
    # The new flow object takes the engine's flow over, started afresh with
    # its class defaults (a failure there, say a class default the run
    # refuses, is the adoption's error)
    ::dumbbell::be::adopt $placeholder
    set fdesc [new QueueMonitor/ED/Flow]
    if {$fdesc eq ""} {
        error $::dumbbell::shadow_error
    }
    set dsamp [new Samples]
    $fdesc set-delay-samples $dsamp
    # its first packets counted again with its class defaults and delay
    # samples (ns-2 has both before the first packet)
    $fdesc cmd settle
}
# Attach a flow monitor to a link; with edrop, RED's early drops reach it
# through an early-drop snoop.
Simulator instproc attach-fmon {lnk fm {edrop 0}} {
    set isnoop [new SnoopQueue/In]
    set osnoop [new SnoopQueue/Out]
    set dsnoop [new SnoopQueue/Drop]
    $lnk attach-monitors $isnoop $osnoop $dsnoop $fm
    if {$edrop != 0} {
        set edsnoop [new SnoopQueue/EDrop]
        $edsnoop set-monitor $fm
        [$lnk queue] early-drop-target $edsnoop
        $edsnoop target [$self set nullAgent_]
    }
    [$lnk queue] drop-target $dsnoop
}
# Event traces: TCP senders (and error models) created after eventtrace-all
# write "E" lines (SLOW_START, FAST_RETX, TIMEOUT, ...) into the file.
Simulator instproc eventtrace-all {{file ""}} {
    $self instvar eventTraceAll_ eventtraceAllFile_ traceAllFile_
    set eventTraceAll_ 1
    if {$file ne ""} {
        set eventtraceAllFile_ $file
    } else {
        set eventtraceAllFile_ $traceAllFile_
    }
}
Simulator instproc create-eventtrace {type owner} {
    $self instvar alltrace_ eventTraceAll_ eventtraceAllFile_
    if {![info exists eventTraceAll_] || $eventTraceAll_ != 1} return
    set et [new BaseTrace/$type]
    $owner cmd eventtrace $et
    lappend alltrace_ $et
    $et attach $eventtraceAllFile_
    $self instvar namtraceAllFile_
    if {[info exists namtraceAllFile_]} { $et namattach $namtraceAllFile_ }
}
Simulator instproc set-address-format {type args} {
    if {$type ne "def"} { ::dumbbell::unsupported "address format $type" }
}
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

Simulator instproc node args {
    $self instvar Node_
    if {[llength $args] != 0} {
        ::dumbbell::unsupported "nodes with explicit (hierarchical) addresses"
    }
    set node [new Node]
    set Node_([$node id]) $node
    $node set ns_ $self
    return $node
}

Simulator instproc get-node-by-id {id} {
    $self instvar Node_
    return $Node_($id)
}

Simulator instproc all-nodes-list {} {
    $self instvar Node_
    set l {}
    foreach n [lsort -integer [array names Node_]] { lappend l $Node_($n) }
    return $l
}

Simulator instproc simplex-link {n1 n2 bw delay qtype args} {
    $self instvar link_ queueMap_
    set sid [$n1 id]
    set did [$n2 id]
    if {[info exists queueMap_($qtype)]} { set qtype $queueMap_($qtype) }
    if {![::dumbbell::is_class Queue/$qtype]} {
        error "unknown queue type \"$qtype\" for link $sid->$did (Dumbbell has: DropTail, RED)"
    }
    ::dumbbell::check_bw $bw "bandwidth of link $sid->$did"
    ::dumbbell::check_time $delay "delay of link $sid->$did"
    if {[llength $args] == 0} {
        set q [new Queue/$qtype]
    } else {
        set q [new Queue/$qtype $args]
    }
    set link_($sid:$did) [new SimpleLink $n1 $n2 $bw $delay $q]
    $n1 add-neighbor $n2
    # Active queues learn the link's bandwidth and delay (ns-2 does this for
    # every queue type whose name contains RED, PI, Vq, REM, GK, RIO or XCP).
    if {[string first RED $qtype] != -1} {
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

Simulator instproc queue-limit {n1 n2 limit} {
    $self instvar link_
    set l $link_([$n1 id]:[$n2 id])
    [$l queue] set limit_ $limit
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

Simulator instproc color {id name} {
    $self instvar color_
    set color_($id) $name
}
Simulator instproc get-color {id} {
    $self instvar color_
    return $color_($id)
}

# ---- tracing ---------------------------------------------------------------------

Simulator instproc trace-all {file} {
    $self instvar traceAllFile_
    set traceAllFile_ $file
}

Simulator instproc namtrace-all-wireless args { ::dumbbell::unsupported "namtrace-all-wireless" }

Simulator instproc get-ns-traceall {} {
    $self instvar traceAllFile_
    if {[info exists traceAllFile_]} { return $traceAllFile_ }
    return ""
}

Simulator instproc get-nam-traceall {} {
    $self instvar namtraceAllFile_
    if {[info exists namtraceAllFile_]} { return $namtraceAllFile_ }
    return ""
}

Simulator instproc puts-ns-traceall {str} {
    $self instvar traceAllFile_
    if {[info exists traceAllFile_]} { puts $traceAllFile_ $str }
}

# A Generic trace ("v" lines) writes what Tcl code gives `format`: the
# type letter, the time and the words of its arguments, which are evaluated
# where the trace's src_ and dst_ are visible (`format link-up {$src_} {$dst_}`).
::otcl::_::LibClass Trace/Generic Trace
Trace/Generic instproc init {} {
    $self next
    $self set type_ v
}
Trace instproc attach {fp} {
    $self set fp_ $fp
    $self cmd attach $fp
}
# ns-2's `$trace flush` flushes the trace object's channel and its nam
# channel (Tcl_Flush of each, none after `detach`, which clears both): lines
# the engine still holds go to the channels first, then the engine names
# the channels to flush.  A script may read the file before it ends (the
# tagged-trace suite converts its trace after flush-trace and halt).
# flush-trace drains once for all its traces: while it runs, their flushes
# find the engine drained (::dumbbell::traces_drained).
set ::dumbbell::traces_drained 0
Trace instproc flush {} {
    if {!$::dumbbell::traces_drained} {
        ::dumbbell::be::drain
    }
    foreach ch [$self cmd flush] { catch {flush $ch} }
}
Trace instproc format args {
    $self instvar type_ fp_ src_ dst_
    if {[info exists fp_]} {
        set ns [Simulator instance]
        puts $fp_ [eval list $type_ [$ns now] [eval concat $args]]
    }
}

Simulator instproc create-trace {type file src dst {op ""}} {
    $self instvar alltrace_
    set p [new Trace/$type]
    # ns-2 always passes TaggedTrace_ on; OFF (the default) changes nothing.
    set tagged [Simulator set TaggedTrace_]
    if {$tagged ne "OFF"} { $p tagged $tagged }
    if {[catch {$p set src_ [$src id]}]} { $p set src_ $src }
    if {[catch {$p set dst_ [$dst id]}]} { $p set dst_ $dst }
    lappend alltrace_ $p
    if {$file ne ""} {
        $p ${op}attach $file
    }
    return $p
}

Simulator instproc trace-queue {n1 n2 {file ""}} {
    $self instvar link_ traceAllFile_
    if {$file eq ""} {
        if {![info exists traceAllFile_]} return
        set file $traceAllFile_
    }
    $link_([$n1 id]:[$n2 id]) trace $self $file
    [$link_([$n1 id]:[$n2 id]) queue] attach-traces $n1 $n2 $file
}

# RED gives early drops sent to an early-drop target their own trace.
Queue/RED instproc attach-traces {src dst file {op ""}} {
    set ns [Simulator instance]
    set type [$self trace-type]
    if {$op eq "nam"} { set type Drop }
    set newtrace [$ns create-trace $type $file $src $dst $op]
    set oldTrace [$self edrop-trace]
    if {$oldTrace != 0} {
        $newtrace target $oldTrace
    } else {
        $newtrace target [$ns set nullAgent_]
    }
    $self edrop-trace $newtrace
}

Simulator instproc drop-trace {n1 n2 trace} {
    $self instvar link_
    [$link_([$n1 id]:[$n2 id]) queue] drop-target $trace
}

Simulator instproc monitor-queue {n1 n2 qtrace {sampleInterval 0.1}} {
    $self instvar link_
    return [$link_([$n1 id]:[$n2 id]) init-monitor $self $qtrace $sampleInterval]
}

Simulator instproc flush-trace {} {
    $self instvar alltrace_
    ::dumbbell::be::drain
    if {[info exists alltrace_]} {
        set ::dumbbell::traces_drained 1
        try {
            foreach t $alltrace_ { $t flush }
        } finally {
            set ::dumbbell::traces_drained 0
        }
    }
}

# ---- agents and connections --------------------------------------------------------

Simulator instproc attach-agent {node agent} {
    $node attach $agent
}

Simulator instproc detach-agent {node agent} {
    $self instvar nullAgent_
    $node detach $agent $nullAgent_
}

Simulator instproc simplex-connect {src dst} {
    $src set dst_addr_ [$dst set agent_addr_]
    $src set dst_port_ [$dst set agent_port_]
    return $src
}

Simulator instproc connect {src dst} {
    $self simplex-connect $src $dst
    $self simplex-connect $dst $src
    return $src
}

Simulator instproc create-connection {s_type source d_type dest pktClass} {
    set s_agent [new Agent/$s_type]
    set d_agent [new Agent/$d_type]
    $s_agent set fid_ $pktClass
    $d_agent set fid_ $pktClass
    $self attach-agent $source $s_agent
    $self attach-agent $dest $d_agent
    $self connect $s_agent $d_agent
    return $s_agent
}

Simulator instproc create-connection-list {s_type source d_type dest pktClass} {
    set s_agent [new Agent/$s_type]
    set d_agent [new Agent/$d_type]
    $s_agent set fid_ $pktClass
    $d_agent set fid_ $pktClass
    $self attach-agent $source $s_agent
    $self attach-agent $dest $d_agent
    $self connect $s_agent $d_agent
    return [list $s_agent $d_agent]
}

Simulator instproc create-tcp-connection {s_type source d_type dest pktClass} {
    set s_agent [new Agent/$s_type]
    set d_agent [new Agent/$d_type]
    $s_agent set fid_ $pktClass
    $d_agent set fid_ $pktClass
    $self attach-agent $source $s_agent
    $self attach-agent $dest $d_agent
    return "$s_agent $d_agent"
}

# A packet no classifier can place: ns-2's `Classifier no-slot` handler
# reports, flushes the traces and exits with 1; so do we.
# Where ns-2 exits or aborts in the middle of a run (an undefined
# windowOption_, a Delayer misused, a Vegas window_ that cannot size its
# table, tracing a delay-bound variable that is not a TracedVar): the
# engine's error message, exit status 1 (`exit` flushes the
# traces; ns-2 loses what it had buffered).
proc ::dumbbell::abort {what} {
    puts stderr "dumbbell: error: $what"
    exit 1
}
# ns-2's handler names the classifier on stderr and dumps it on stdout:
# what its Tcl side knows of the classifier's slots (a node's address
# classifier holds its port demuxer at the node's address, routes being
# installed from C++; a demuxer, the agents attached at each port).
proc ::dumbbell::no_slot {kind nodeid slot uid what} {
    set node [[Simulator instance] get-node-by-id $nodeid]
    if {[catch {$node set dumbbell_dmux_} ports]} { set ports "" }
    if {$kind eq "port" && $ports eq ""} {
        # no demuxer: the address classifier misses the node's own address
        set kind dest
        set slot 4294967295
    }
    set slots {}
    if {$kind eq "dest"} {
        set cl [$node set dumbbell_classifier_]
        set class Classifier/Hash/Dest
        set mask 1073741823
        if {$ports ne ""} { lappend slots [$node set address_] $ports Classifier/Port }
    } else {
        set cl $ports
        set class Classifier/Port
        set mask -1
        foreach port [lsort -integer [$node array names dumbbell_ports_]] {
            set a [$node set dumbbell_ports_($port)]
            lappend slots $port $a [$a info class]
        }
    }
    puts stderr "--- Classfier::no-slot{} default handler (tcl/lib/ns-lib.tcl) ---"
    puts stderr "\t$cl: no target for slot $slot"
    puts stderr "\t$cl type: $class"
    puts stderr "content dump:"
    puts "classifier $cl\n\t0 offset\n\t0 shift\n\t$mask mask\n\t[expr {[llength $slots] / 3}] slots"
    foreach {i target tclass} $slots {
        puts "\t\tslot $i: $target ($tclass)"
    }
    if {$kind eq "dest"} { puts "\t-1 default" }
    puts stderr "---------- Finished standard no-slot{} default handler ----------"
    puts stderr "dumbbell: error: $what (packet uid $uid at time [[Simulator instance] now]); ns-2 stops here too (no-slot)"
    [Simulator instance] flush-trace
    exit 1
}

# ---- route logic (static routes, computed lazily by the engine) ---------------------

# The route logic is an engine object (routing/route.cc's RouteLogic): its
# `lookup`, `insert`, `reset` and `compute` act on the engine's routes.
RouteLogic instproc lookup {src dst} { ::dumbbell::be::sim route-lookup $src $dst }
# `compute` here only enables routing (routes are computed lazily); ns-2's
# computes route tables that forwarding uses only once compute-routes fills
# the classifiers, which calls the engine's own `compute` (`$r cmd compute`).
RouteLogic instproc compute {} { ::dumbbell::be::sim enable-routing }
RouteLogic instproc register {proto args} {
    $self instvar rtprotos_
    if {[info exists rtprotos_($proto)]} {
        eval lappend rtprotos_($proto) $args
    } else {
        set rtprotos_($proto) $args
    }
}
# At `$ns run`: every registered protocol (or Static) computes its routes.
RouteLogic instproc configure {} {
    $self instvar rtprotos_
    if {[info exists rtprotos_]} {
        foreach proto [array names rtprotos_] {
            [Simulator instance] compute-routes
        }
    } else {
        [Simulator instance] compute-routes
    }
}
# Links changed: Session routing computes routes again; default static
# routing does not (packets sent into a link that is down are lost there).
# A script that named Static with `$ns rtproto` fails here in ns-2 2.35
# (Agent/rtProto/Static has no compute-all: OTcl takes the call for the
# creation of an object of that name); so does it here.
RouteLogic instproc notify {} {
    $self instvar rtprotos_
    foreach proto [array names rtprotos_] {
        switch -- $proto {
            Session { [Simulator instance] compute-routes }
            Static { error {wrong # args: should be "compute-all self class proc node"} }
        }
    }
}

# ---- nodes -------------------------------------------------------------------------

# (The class's counter is read and written directly: `Node set nn_` is
# two method dispatches for each node.)
Node proc getid {} {
    upvar #0 [::otcl::api::varname Node nn_] nn_
    set id $nn_
    set nn_ [expr {$id + 1}]
    return $id
}

Node instproc init args {
    eval $self next $args
    $self instvar id_ agents_ neighbor_ address_ ns_
    set id_ [Node getid]
    set address_ $id_
    $self cmd nodeid $id_
    $self cmd addr $address_
    set agents_ {}
    set neighbor_ {}
    # ns-2's node makes its routing module and address classifier here
    # (handles skipped, see Simulator init; the classifier's is kept for
    # the no-slot report); its port demuxer comes with the first agent
    # attached (`attach`).
    $self set dumbbell_classifier_ _o[::dumbbell::skip_ids 2]
}

# (Accessors read the variable through instvar, inlined in methods: less
# than half the cost of `$self set`.)
Node instproc id {} { $self instvar id_; return $id_ }
Node instproc node-addr {} { $self instvar address_; return $address_ }
Node instproc nodeid {args} { if {$args ne ""} { $self cmd nodeid [lindex $args 0] } }
Node instproc entry {} { return $self }
Node instproc neighbors {} { $self instvar neighbor_; lsort $neighbor_ }
Node instproc add-neighbor {p {pushback 0}} { $self instvar neighbor_; lappend neighbor_ $p }
Node instproc is-neighbor {node} { $self instvar neighbor_; expr {[lsearch $neighbor_ $node] != -1} }
Node instproc incr-rtgtable-size {} { }
# (dynamic routing agents would hear of link changes here; Static and
# Session routing have none)
Node instproc intf-changed {} { }
Node instproc decr-rtgtable-size {} { }

Node instproc attach {agent {port ""}} {
    $self instvar agents_ address_ dumbbell_dmux_ dumbbell_ports_
    if {![info exists dumbbell_dmux_]} {
        # (ns-2 makes the node's port demuxer now: its handle is skipped,
        # and kept for the no-slot report)
        set dumbbell_dmux_ _o[::dumbbell::skip_ids 1]
    }
    lappend agents_ $agent
    $agent set node_ $self
    $agent set agent_addr_ $address_
    if {$port eq ""} {
        set port [$self cmd alloc-port [[Simulator instance] nullagent]]
    }
    $agent set agent_port_ $port
    $self cmd install $port $agent
    set dumbbell_ports_($port) $agent
    $agent target $self
}

Node instproc detach {agent nullagent} {
    $self instvar agents_
    set k [lsearch -exact $agents_ $agent]
    if {$k >= 0} { set agents_ [lreplace $agents_ $k $k] }
    $agent set node_ ""
    $agent set agent_addr_ 0
    $agent target $nullagent
    $self cmd install [$agent set agent_port_] $nullagent
    $self set dumbbell_ports_([$agent set agent_port_]) $nullagent
}

Node instproc agent {port} {
    $self instvar agents_
    foreach a $agents_ {
        if {[$a set agent_port_] == $port} { return $a }
    }
    return ""
}

Node instproc reset {} {
    $self instvar agents_
    foreach a $agents_ { $a reset }
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

# ---- link dynamics ---------------------------------------------------------------
# A dynamic link (made so by an rtmodel when the simulation starts) has a
# DynamicLink gate at its head.  Going down, it refuses new packets and
# every object of the link is reset: the queue drops what it holds, the
# delay line what is in flight (both through the drop head, so the packet
# trace shows them).  Its Generic traces (trace-dynamics) write
# "v <time> link-down <src> <dst>" and "link-up" lines.
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

Link instproc add-to-head {connector} {
    $self instvar head_
    $connector target [$head_ target]
    $head_ target $connector
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

SimpleLink instproc dynamic {} {
    $self instvar dynamics_
    if {[info exists dynamics_]} return
    set dynamics_ [new DynamicLink]
    $self add-to-head $dynamics_
    $self transit-drop-trace
    $self all-connectors isDynamic
    [Simulator instance] set dynlinks_ 1
}
# Loss injection.  `errormodule` puts an ErrorModule at the head of the link
# (before the queue); `insert-linkloss` and `install-error` put an error
# model after the link, before the receiving node.
SimpleLink instproc errormodule args {
    $self instvar errmodule_ drophead_
    if {$args eq ""} { return $errmodule_ }
    set errmodule_ [lindex $args 0]
    $self add-to-head $errmodule_
    $errmodule_ drop-target $drophead_
}
SimpleLink instproc insert-linkloss args {
    $self instvar link_errmodule_ drophead_ link_
    if {$args eq ""} { return $link_errmodule_ }
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

# ---- agent and application conveniences -------------------------------------------------

Agent instproc port {} { $self set agent_port_ }
Agent instproc dst-port {} { $self set dst_port_ }
Agent instproc nodeid {} { [$self set node_] id }
Agent instproc attach-app {s_type} {
    set app_ [new Application/$s_type]
    $app_ attach-agent $self
    $self set type_ $s_type
    return $app_
}
# The older sources (Source/FTP, Source/Telnet; ns-source.tcl), which
# scripts from before Application/* attach with `attach-source`.
Agent instproc attach-source {s_type} {
    set src [new Source/$s_type]
    $src attach $self
    $self set type_ $s_type
    return $src
}
Agent/TCP instproc done {} { }
Agent/TCP instproc init args {
    eval $self next $args
    [Simulator instance] create-eventtrace Event $self
}

::otcl::_::LibClass Application/FTP Application
Application/FTP instproc init {} { $self next }
Application/FTP instproc start {} { [$self agent] send -1 }
Application/FTP instproc stop {} {
    [$self agent] advance 0
    [$self agent] close
}
Application/FTP instproc send {nbytes} { [$self agent] send $nbytes }
# produce and producemore of an FTP application whose agent `agent` (a
# command substitution in the instproc) finds
proc ::dumbbell::ftp_produce {cls agent} {
    $cls instproc produce {pktcnt} "$agent advance \$pktcnt"
    $cls instproc producemore {pktcnt} "$agent advanceby \$pktcnt"
}
::dumbbell::ftp_produce Application/FTP {[$self agent]}

# Source/FTP drives its agent through advance/advanceby (start: as good as
# forever, 2^28 packets; stop: advance 0); Source/Telnet is Application/Telnet
# with `attach`.  maxpkts_ is a class default both have, and an instance
# variable only Source/FTP sets.  Both keep their agent in agent_.
proc ::dumbbell::old_source {cls super} {
    ::otcl::_::LibClass $cls $super
    $cls set maxpkts_ 268435456
    $cls instproc attach {agent} {
        $self set agent_ $agent
        $self attach-agent $agent
    }
}
::dumbbell::old_source Source/FTP Application
Source/FTP instproc init {} {
    $self next
    $self set maxpkts_ 268435456
}
Source/FTP instproc start {} { [$self set agent_] advance [$self set maxpkts_] }
Source/FTP instproc stop {} { [$self set agent_] advance 0 }
::dumbbell::ftp_produce Source/FTP {[$self set agent_]}
::dumbbell::old_source Source/Telnet Application/Telnet

# The C++ Application looks for script-defined recv/resume callbacks when it
# starts.
Application instproc start {} {
    set procs " [::dumbbell::_instprocs [::otcl::_::ClassOf $self]] "
    $self cmd start-flags [expr {[string first " recv " $procs] >= 0}] \
        [expr {[string first " resume " $procs] >= 0}]
}

# `$cls info instprocs`, without the dispatch where info is OTcl's own.
proc ::dumbbell::_instprocs {cls} {
    set c [::otcl::_::Norm $cls]
    if {[info exists ::otcl::_::isclass($c)]
            && !([info exists ::otcl::_::procs($c)] && [dict exists $::otcl::_::procs($c) info])
            && [::otcl::_::InfoImpl $::otcl::_::cls($c)] eq "::otcl::_::Class.info"} {
        return [::otcl::_::ProcKeys $::otcl::_::iprocs($c) ""]
    }
    return [$cls info instprocs]
}

# ---- datagram traffic ---------------------------------------------------------------
Agent/UDP instproc done {} { }
Agent/UDP instproc process_data {from data} { }
Agent/LossMonitor instproc log-loss {} { }

# Traffic sources accept the old name packet_size_; a CBR source's interval_
# is another way to set its rate (as ns-2's library does).
Application/Traffic instproc set args {
    $self instvar packetSize_
    if {[lindex $args 0] eq "packet_size_"} {
        if {[llength $args] == 2} {
            set packetSize_ [lindex $args 1]
            return
        } elseif {[llength $args] == 1} {
            return $packetSize_
        }
    }
    eval $self next $args
}
Application/Traffic/CBR instproc set args {
    $self instvar packetSize_ rate_
    if {[lindex $args 0] eq "interval_"} {
        if {[llength $args] == 2} {
            set interval [[Simulator instance] delay_parse [lindex $args 1]]
            $self set rate_ [expr {$packetSize_ * 8.0 / $interval}]
            return
        } elseif {[llength $args] == 1} {
            return [expr {$packetSize_ * 8.0 / $rate_}]
        }
    }
    eval $self next $args
}

# Resetting a queue monitor clears its cumulative counters (not size_ and
# pkts_, which describe the queue now), its integrators and delay samples.
QueueMonitor instproc reset {} {
    $self instvar parrivals_ barrivals_ pdepartures_ bdepartures_ pdrops_ bdrops_
    set parrivals_ 0
    set barrivals_ 0
    set pdepartures_ 0
    set bdepartures_ 0
    set pdrops_ 0
    set bdrops_ 0
    set bi [$self get-bytes-integrator]
    if {$bi ne ""} { $bi reset }
    set pi [$self get-pkts-integrator]
    if {$pi ne ""} { $pi reset }
    set samp [$self get-delay-samples]
    if {$samp ne ""} { $samp reset }
}
# `trace` (a line per event) and `traceDist` (where printRTTs and printSeqnos
# write) name an open Tcl channel; ns-2 refuses any other name.
foreach cmd {trace traceDist} {
    QueueMonitor instproc $cmd args [string map [list @CMD@ $cmd] {
        if {[llength $args] == 1 && [lsearch -exact [file channels] [lindex $args 0]] < 0} {
            error "trace: can't attach [lindex $args 0] for writing"
        }
        eval [list $self cmd @CMD@] $args
    }]
}
unset cmd

QueueMonitor/ED instproc reset {} {
    $self next
    $self instvar epdrops_ ebdrops_ mon_epdrops_ mon_ebdrops_
    set epdrops_ 0
    set ebdrops_ 0
    set mon_epdrops_ 0
    set mon_ebdrops_ 0
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

# ---- error models ----------------------------------------------------------------

# ErrorModel/Uniform is ErrorModel with its rate (and unit) given to `new`.
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
