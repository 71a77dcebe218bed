# Dumbbell's nam output: what ns-2 2.35 writes into a nam trace file for
# wired topologies (`$ns namtrace-all`, `namtrace-queue`, `namtrace-config`).
#
# The file starts, at `$ns run`, with the configuration: the version (V) and
# address (A) lines, the colours of `$ns color` (c), the nodes (n), the links
# (l, in the order `register-nam-linkconfig` keeps) and the queue positions
# (q).  Then come the packet events, written by the links' trace objects
# attached with `namattach` (the engine writes `+ - h r d` lines in nam's
# `-t -s -d -p -e -c -i -a -x` form), the link-up/down lines of link
# dynamics, and the lines of the animation hints a script asks for during
# the run (node and link colours and labels, annotations, marks).
#
# Loaded after the rest of the library (runner.py's LIB_FILES): link.tcl's
# simplex-link, duplex-link and Link up/down, simulator.tcl's run and
# trace.tcl's create-eventtrace call into this file.

# ---- where nam lines go ------------------------------------------------------------

Simulator instproc namtrace-all {file} {
    $self instvar namtraceAllFile_
    if {$file ne ""} {
        set namtraceAllFile_ $file
    } else {
        unset namtraceAllFile_
    }
}

# ns-2 2.35 records the file but nothing reads it: puts-nam-config and
# puts-nam-traceall test a *local* namtraceSomeFile_ (never set), and
# get-nam-traceall does not know it.  Only links traced explicitly with
# `namtrace-queue ... $file` write there.  So it is here.
Simulator instproc namtrace-some {file} {
    $self instvar namtraceSomeFile_
    set namtraceSomeFile_ $file
}

Simulator instproc puts-nam-traceall {str} {
    $self instvar namtraceAllFile_
    if {[info exists namtraceAllFile_]} { puts $namtraceAllFile_ $str }
}

# nam's configuration lines go to the file of namtrace-config if there is
# one, else to the namtrace-all file.
Simulator instproc namtrace-config {f} {
    $self instvar namConfigFile_
    set namConfigFile_ $f
}
Simulator instproc get-nam-config {} {
    $self instvar namConfigFile_
    if {[info exists namConfigFile_]} { return $namConfigFile_ }
    return ""
}
Simulator instproc puts-nam-config {str} {
    $self instvar namtraceAllFile_ namConfigFile_
    if {[info exists namConfigFile_]} {
        puts $namConfigFile_ $str
    } elseif {[info exists namtraceAllFile_]} {
        puts $namtraceAllFile_ $str
    }
}
# Is there a file for nam configuration lines at all?
Simulator instproc nam-config? {} {
    $self instvar namtraceAllFile_ namConfigFile_
    expr {[info exists namConfigFile_] || [info exists namtraceAllFile_]}
}

# ---- the links' nam traces ---------------------------------------------------------

# A link already traced (trace-all) has its trace objects attached to the
# nam file too; otherwise it gets trace objects for nam alone.  A RED queue
# adds a trace of its early drops (shown as drops).
Simulator instproc namtrace-queue {n1 n2 {file ""}} {
    $self instvar link_ namtraceAllFile_
    if {$file eq ""} {
        if {![info exists namtraceAllFile_]} return
        set file $namtraceAllFile_
    }
    $link_([$n1 id]:[$n2 id]) nam-trace $self $file
    [$link_([$n1 id]:[$n2 id]) queue] attach-nam-traces $n1 $n2 $file
}
Queue instproc attach-nam-traces {src dst file} {
    $self attach-traces $src $dst $file nam
}

SimpleLink instproc nam-trace {ns f} {
    $self instvar enqT_ deqT_ drpT_ rcvT_ dynT_
    if {[info exists enqT_]} {
        $enqT_ namattach $f
        if {[info exists deqT_]} { $deqT_ namattach $f }
        if {[info exists drpT_]} { $drpT_ namattach $f }
        if {[info exists rcvT_]} { $rcvT_ namattach $f }
        if {[info exists dynT_]} {
            foreach tr $dynT_ { $tr namattach $f }
        }
    } else {
        $self trace $ns $f nam
    }
}

# Link dynamics: the nam lines of a link going down or up, through each of
# its dynamics traces attached to a nam file.
proc ::dumbbell::nam_link_state {link tr state event} {
    set ns [Simulator instance]
    set now [$ns now]
    set s [[$link src] id]
    set d [[$link dst] id]
    $tr ntrace "l -t $now -s $s -d $d -S $state"
    $tr ntrace "v -t $now $event $now $s $d"
}

# ---- the configuration written at `$ns run` ------------------------------------------

# (The configuration is skipped when no file takes it: ns-2 then writes
# nothing either, and only the nodes' and links' default attributes, which
# ns-2 would set here, are left unset; the methods below fall back on them.)
Simulator instproc init-nam {} {
    $self instvar annotationSeq_
    set annotationSeq_ 0
    if {[$self nam-config?]} {
        $self dump-namversion 1.0a5
        $self dump-namwireless
        $self dump-namaddress
        $self dump-namcolors
        $self dump-namnodes
        $self dump-namlinks
        $self dump-namlans
        $self dump-namqueues
    }
    $self dump-namagents
}

Simulator instproc dump-namversion {v} {
    $self puts-nam-config "V -t * -v $v -a 0"
}

# A W line (the canvas size) only if some node was given coordinates.
# namNeedsW_, namWx_ and namWy_ are what namtrace-all-wireless sets
# (wireless.tcl); a wired script may set them itself and ns-2 then writes
# its W line from them, so they are read as ns-2 reads them.
Simulator instproc dump-namwireless {} {
    $self instvar namNeedsW_ namWx_ namWy_
    if {![info exists namNeedsW_]} { set namNeedsW_ 0 }
    if {[info exists namWx_] && [info exists namWy_]} {
        set maxX $namWx_
        set maxY $namWy_
    } else {
        set maxX 10
        set maxY 10
        foreach node [Node info instances] {
            set vars [$node info vars]
            if {[lsearch -exact $vars X_] != -1} {
                set namNeedsW_ 1
                set x [$node set X_]
                if {$x > $maxX} { set maxX $x }
            }
            if {[lsearch -exact $vars Y_] != -1} {
                set namNeedsW_ 1
                set y [$node set Y_]
                if {$y > $maxY} { set maxY $y }
            }
        }
    }
    if {$namNeedsW_} {
        $self puts-nam-config "W -t * -x $maxX -y $maxY"
    }
}

# The address format's masks and shifts (address.tcl).
Simulator instproc dump-namaddress {} {
    # the address format (ns-2's dump-namaddress): levels, then each
    # level's mask and shift
    $self puts-nam-config "A -t * -n [AddrParams hlevel] -p 0 -o 0x7fffffff -c 30 -a 1"
    for {set i 1} {$i <= [AddrParams hlevel]} {incr i} {
        $self puts-nam-config "A -t * -h $i -m [AddrParams NodeMask $i] -s [AddrParams NodeShift $i]"
    }
}

Simulator instproc dump-namcolors {} {
    $self instvar color_
    if {![info exists color_]} return
    foreach id [array names color_] {
        $self puts-nam-config "c -t * -i $id -n $color_($id)"
    }
}

Simulator instproc dump-namnodes {} {
    $self instvar Node_
    if {![info exists Node_]} return
    foreach nn [array names Node_] {
        if {![$Node_($nn) is-lan?]} { $Node_($nn) dump-namconfig }
    }
}

# The LANs (lan.tcl), after the links.
Simulator instproc dump-namlans {} {
    $self instvar Node_
    if {![info exists Node_]} return
    foreach nn [array names Node_] {
        if {[$Node_($nn) is-lan?]} { $Node_($nn) dump-namconfig }
    }
}

Simulator instproc dump-namlinks {} {
    $self instvar namLinks_
    if {![info exists namLinks_]} return
    foreach lnk [dict keys $namLinks_] {
        $lnk dump-namconfig
    }
    unset namLinks_
}

Simulator instproc dump-namqueues {} {
    $self instvar link_
    if {![info exists link_]} return
    foreach qn [array names link_] {
        $link_($qn) dump-nam-queueconfig
    }
}

# The order in which nam learns the links (it lays them out in that order):
# each simplex link registers when it is made, unless the reverse link is
# already there; a link given an orientation (`orient`) moves to the end,
# taking the place of its reverse if that one has none.  (ns-2 keeps a list
# it searches; an ordered dict gives the same order.)
Simulator instproc register-nam-linkconfig {link} {
    ::dumbbell::nam_register $self $link [[$link src] id] [[$link dst] id]
}
# (simplex-link calls this directly, with the link's node ids: it runs for
# every link of every script.  The probe of link_ is made on the array
# itself, as probe_link does.)
proc ::dumbbell::nam_register {sim link i1 i2} {
    set ns $::otcl::_::ns($sim)
    upvar #0 ${ns}::namLinks_ links
    if {[info exists links]} {
        if {[info exists ${ns}::link_($i2:$i1)]} {
            set rev [set ${ns}::link_($i2:$i1)]
            if {[dict exists $links $rev]} {
                if {[::dumbbell::nam_attr $rev ORIENTATION] eq ""
                        && [::dumbbell::nam_attr $link ORIENTATION] ne ""} {
                    dict unset links $rev
                } else {
                    return
                }
            }
        }
        dict unset links $link
    }
    dict set links $link 1
}

# A link made again (a duplex link over an existing one) is no longer listed.
Simulator instproc remove-nam-linkconfig {i1 i2} {
    $self instvar namLinks_ link_
    if {![info exists namLinks_]} return
    if {[dict exists $namLinks_ $link_($i1:$i2)]} {
        dict unset namLinks_ $link_($i1:$i2)
        return
    }
    if {[info exists link_($i2:$i1)] && [dict exists $namLinks_ $link_($i2:$i1)]} {
        dict unset namLinks_ $link_($i2:$i1)
    }
}

# An object's attribute (attr_(NAME)), "" if unset, read without a dispatch.
proc ::dumbbell::nam_attr {obj name} {
    set v $::otcl::_::ns($obj)::attr_($name)
    if {[info exists $v]} { return [set $v] }
    return ""
}

# ---- link and node hints ------------------------------------------------------------

Simulator instproc simplex-link-op {n1 n2 op args} {
    $self instvar link_
    eval $link_([$n1 id]:[$n2 id]) $op $args
}
Simulator instproc duplex-link-op {n1 n2 op args} {
    $self instvar link_
    eval $link_([$n1 id]:[$n2 id]) $op $args
    eval $link_([$n2 id]:[$n1 id]) $op $args
}

SimpleLink instproc dump-namconfig {} {
    $self instvar link_ attr_ fromNode_ toNode_
    if {![info exists attr_(COLOR)]} { set attr_(COLOR) black }
    set ns [Simulator instance]
    set bw [$link_ set bandwidth_]
    set delay [$link_ set delay_]
    set line "l -t * -s [$fromNode_ id] -d [$toNode_ id] -S UP -r $bw -D $delay -c $attr_(COLOR)"
    if {[info exists attr_(ORIENTATION)]} { append line " -o $attr_(ORIENTATION)" }
    $ns puts-nam-config $line
}

Link instproc dump-nam-queueconfig {} {
    $self instvar attr_ fromNode_ toNode_
    if {![info exists attr_(COLOR)]} { set attr_(COLOR) black }
    if {[info exists attr_(QUEUE_POS)]} {
        [Simulator instance] puts-nam-config "q -t * -s [$fromNode_ id] -d [$toNode_ id] -a $attr_(QUEUE_POS)"
    } else {
        set attr_(QUEUE_POS) ""
    }
}

Link instproc orient {ori} {
    $self instvar attr_
    set attr_(ORIENTATION) $ori
    [Simulator instance] register-nam-linkconfig $self
}

Link instproc queuePos {pos} {
    $self instvar attr_
    set attr_(QUEUE_POS) $pos
}

Link instproc get-attribute {name} { ::dumbbell::nam_attr $self $name }

# The head of the link's nam attribute lines: `l -t now -s from -d to`.
Link instproc nam-head {} {
    $self instvar fromNode_ toNode_
    return "l -t [[Simulator instance] now] -s [$fromNode_ id] -d [$toNode_ id]"
}
Link instproc color {color} {
    $self instvar attr_
    set ns [Simulator instance]
    if {[$ns is-started]} {
        if {![info exists attr_(COLOR)]} { set attr_(COLOR) black }
        $ns puts-nam-config [eval list "[$self nam-head] -S COLOR -c $color -o $attr_(COLOR)"]
    }
    set attr_(COLOR) $color
}

Link instproc change-color {color} {
    puts "Warning: Link::change-color is obsolete. Please use Link::color."
    $self color $color
}

Link instproc get-color {} {
    puts "Warning: Node::get-color is obsolete. Please use Node::get-attribute"
    return [$self get-attribute COLOR]
}

# label, label-color, label-at: a DLABEL / DCOLOR / DIRECTION change (with
# the previous value, quoted) written at once.  `attrv` names the caller's
# attr_ array.
proc ::dumbbell::nam_text {attrv head new oldflag key str} {
    upvar 1 $attrv attr_
    if {[info exists attr_($key)]} { set old $attr_($key) } else { set old {""} }
    [Simulator instance] puts-nam-config "$head -S $key $new \"$str\" $oldflag $old"
    set attr_($key) \"$str\"
}
Link instproc label {label} {
    $self instvar attr_
    ::dumbbell::nam_text attr_ [$self nam-head] -l -L DLABEL $label
}
Link instproc label-color {str} {
    $self instvar attr_
    ::dumbbell::nam_text attr_ [$self nam-head] -e -E DCOLOR $str
}
Link instproc label-at {str} {
    $self instvar attr_
    ::dumbbell::nam_text attr_ [$self nam-head] -p -P DIRECTION $str
}

Node instproc is-lan? {} { return 0 }

Node instproc shape {shape} {
    $self instvar attr_
    set attr_(SHAPE) $shape
}
Node instproc get-shape {} {
    $self instvar attr_
    if {[info exists attr_(SHAPE)]} { return $attr_(SHAPE) }
    return ""
}

Node instproc color {color} {
    $self instvar attr_ id_
    set ns [Simulator instance]
    if {[$ns is-started]} {
        if {![info exists attr_(COLOR)]} { set attr_(COLOR) black }
        if {![info exists attr_(LCOLOR)]} { set attr_(LCOLOR) black }
        $ns puts-nam-config [eval list "n -t [format %.15g [$ns now]] -s $id_ -S COLOR -c $color -o $attr_(COLOR) -i $color -I $attr_(LCOLOR)"]
    }
    set attr_(COLOR) $color
    set attr_(LCOLOR) $color
}

Node instproc label {str} {
    $self instvar attr_ id_
    ::dumbbell::nam_text attr_ "n -t [[Simulator instance] now] -s $id_" -l -L DLABEL $str
}
Node instproc label-color {str} {
    $self instvar attr_ id_
    ::dumbbell::nam_text attr_ "n -t [[Simulator instance] now] -s $id_" -e -E DCOLOR $str
}
Node instproc label-at {str} {
    $self instvar attr_ id_
    ::dumbbell::nam_text attr_ "n -t [[Simulator instance] now] -s $id_" -p -P DIRECTION $str
}

Node instproc dump-namconfig {} {
    $self instvar attr_ id_ address_ X_ Y_ Z_
    if {![info exists attr_(SHAPE)]} { set attr_(SHAPE) circle }
    if {![info exists attr_(COLOR)]} {
        set attr_(COLOR) black
        set attr_(LCOLOR) black
    }
    if {![info exists attr_(DCOLOR)]} { set attr_(DCOLOR) black }
    set line "n -t * -a $address_ -s $id_ -S UP -v $attr_(SHAPE) -c $attr_(COLOR) -i $attr_(LCOLOR)"
    if {[info exists X_] && [info exists Y_]} {
        append line " -x $X_ -y $Y_"
        if {[info exists Z_]} { append line " -Z $Z_" }
    }
    [Simulator instance] puts-nam-config [eval list $line]
}

Node instproc change-color {color} {
    puts "Warning: Node::change-color is obsolete. Use Node::color instead"
    $self color $color
}
Node instproc get-attribute {name} { ::dumbbell::nam_attr $self $name }
Node instproc get-color {} {
    puts "Warning: Node::get-color is obsolete. Please use Node::get-attribute"
    return [$self get-attribute COLOR]
}

Node instproc add-mark {name color {shape circle}} {
    $self instvar id_ markColor_ shape_
    set ns [Simulator instance]
    $ns puts-nam-config "m -t [$ns now] -s $id_ -n $name -c $color -h $shape"
    set markColor_($name) $color
    set shape_($name) $shape
}
Node instproc delete-mark {name} {
    $self instvar id_ markColor_ shape_
    if {![info exists markColor_($name)]} return
    set ns [Simulator instance]
    $ns puts-nam-config "m -t [$ns now] -s $id_ -n $name -c $markColor_($name) -h $shape_($name) -X"
}

# ---- annotations and animation control ------------------------------------------------

Simulator instproc trace-annotate {str} {
    $self instvar annotationSeq_
    $self puts-ns-traceall [format "v %s %s {set sim_annotation {%s}}" [$self now] eval $str]
    incr annotationSeq_
    $self puts-nam-config [format "v -t %.15g -e sim_annotation %.15g $annotationSeq_ $str" [$self now] [$self now]]
}
proc trace_annotate {str} {
    [Simulator instance] trace-annotate $str
}
proc flash_annotate {start duration msg} {
    set ns [Simulator instance]
    $ns at $start "trace_annotate {$msg}"
    $ns at [expr $start+$duration] "trace_annotate periodic_message"
}

Simulator instproc set-animation-rate {rate} {
    set r [time_parse $rate]
    $self puts-nam-config "v -t [$self now] set_rate_ext $r 1"
}
Simulator instproc snapshot {} {
    $self puts-nam-config "v -t [$self now] take_snapshot"
}
Simulator instproc rewind-nam {} {
    $self puts-nam-config "v  -t [$self now] playing_backward"
}
Simulator instproc re-rewind-nam {} {
    $self puts-nam-config "v  -t [$self now] playing_forward"
}
Simulator instproc terminate-nam {} {
    $self puts-nam-config "v  -t [$self now] terminating_nam"
}

# ---- agents ---------------------------------------------------------------------------
# An agent traced for nam (`add-agent-trace`) writes its variable traces to
# the nam file (with `nam_tracevar_`, TCP writes them in nam's form); at
# `$ns run` each gets an `a` line, and each monitored one a `monitor_agent`
# annotation.

Simulator instproc add-agent-trace {agent name {f ""}} {
    $self instvar tracedAgents_
    set tracedAgents_($name) $agent
    set trace [$self get-nam-traceall]
    if {$f ne ""} {
        $agent attach-trace $f
    } elseif {$trace ne ""} {
        $agent attach-trace $trace
    }
}
Simulator instproc delete-agent-trace {agent} {
    $agent delete-agent-trace
}
Simulator instproc monitor-agent-trace {agent} {
    $self instvar monitoredAgents_
    lappend monitoredAgents_ $agent
}
Agent instproc attach-trace {file} {
    $self instvar namTrace_
    set namTrace_ $file
    $self attach $file
}

Simulator instproc dump-namagents {} {
    $self instvar tracedAgents_ monitoredAgents_
    if {[info exists tracedAgents_]} {
        foreach id [array names tracedAgents_] {
            $tracedAgents_($id) add-agent-trace $id
            $tracedAgents_($id) cmd dump-namtracedvars
        }
        unset tracedAgents_
    }
    if {[info exists monitoredAgents_]} {
        foreach a $monitoredAgents_ {
            $a show-monitor
        }
        unset monitoredAgents_
    }
}
