# Traces and monitors: trace-all, trace-queue and the Trace classes' Tcl
# side, Generic ("v") and event traces, queue monitors and flow monitors.
# Where they are spliced into a link is SimpleLink's (link.tcl); nam traces
# are in nam.tcl.

# ---- tracing ---------------------------------------------------------------------

Simulator instproc trace-all {file} {
    $self instvar traceAllFile_
    set traceAllFile_ $file
}


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
# ns-2's Trace::command: the channel must be open for writing (an error
# at the line that makes the trace, not at the first packet).
proc ::dumbbell::check_writable {fp} {
    if {[catch {chan pending output $fp} n] || $n < 0} {
        error "trace: can't attach $fp for writing"
    }
}
Trace instproc attach {fp} {
    ::dumbbell::check_writable $fp
    $self set fp_ $fp
    $self cmd attach $fp
}
Trace instproc namattach {fp} {
    ::dumbbell::check_writable $fp
    $self cmd namattach $fp
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

# RED-PD's monitored drops get a trace of their own too.
Queue/RED/PD instproc attach-traces {src dst file {op ""}} {
    $self next $src $dst $file $op
    set ns [Simulator instance]
    set type [$self mon-trace-type]
    if {$op eq "nam"} { set type Drop }
    set medtrace [$ns create-trace $type $file $src $dst $op]
    set oldTrace [$self mon-edrop-trace]
    if {$oldTrace != 0} {
        puts "exists"
        $medtrace target $oldTrace
    } else {
        $medtrace target [$ns set nullAgent_]
    }
    $self mon-edrop-trace $medtrace
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

# ---- tagged traces, flow monitors, event traces ----------------------------------------

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
    # refuses, is the adoption's error).  A RED-PD queue's flow monitor
    # makes RED-PD flows, without delay samples (its makeflowmon).
    variable flow_class
    set cls QueueMonitor/ED/Flow
    if {[info exists flow_class($cl)]} { set cls $flow_class($cl) }
    ::dumbbell::be::adopt $placeholder
    set fdesc [new $cls]
    if {$fdesc eq ""} {
        error $::dumbbell::shadow_error
    }
    if {$cls eq "QueueMonitor/ED/Flow"} {
        set dsamp [new Samples]
        $fdesc set-delay-samples $dsamp
    }
    # its first packets counted again with its class defaults and delay
    # samples (ns-2 has both before the first packet)
    $fdesc cmd settle
}
# A RED-PD queue's flow monitor (ns-queue.tcl): its flows are RED-PD flows,
# which the queue polices; the monitor sees the link's arrivals,
# departures and drops, RED's early drops through an early-drop snoop, and
# the queue's monitored drops directly.
Queue/RED/PD instproc makeflowmon {link {cltype SrcDestFid} {cslots 29}} {
    set flowmon [new QueueMonitor/ED/Flowmon]
    set cl [new Classifier/Hash/$cltype $cslots]
    $cl cmd auto-flows policed
    set ::dumbbell::flow_class($cl) QueueMonitor/ED/Flow/RedPD
    $cl proc no-slot slotnum {
        puts stderr "classifier $self, no-slot for slotnum $slotnum"
    }
    $flowmon classifier $cl
    $self attach-flowmon $flowmon
    set isnoop [new SnoopQueue/In]
    set osnoop [new SnoopQueue/Out]
    set dsnoop [new SnoopQueue/Drop]
    set edsnoop [new SnoopQueue/EDrop]
    $link attach-monitors $isnoop $osnoop $dsnoop $flowmon
    $edsnoop set-monitor $flowmon
    $self early-drop-target $edsnoop
    $edsnoop target [[Simulator instance] set nullAgent_]
    $self drop-target $dsnoop
    return $flowmon
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

# ---- queue monitors ------------------------------------------------------------------

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
