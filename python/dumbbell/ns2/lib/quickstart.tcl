# Quick-Start routers (ns-2's ns-qsnode.tcl): `$ns node-config -QS ON`
# (`$ns QS ON`) gives each node made after it a Quick-Start agent that
# sees every packet entering the node before the node's classifier does:
# links and the node's own agents send to the node's `entry`, the
# routing module's classifier (Classifier/QS), which hands everything to
# the agent (slot 0) and it to the node.  The agent is attached at a port
# of the node, as in ns-2.

namespace eval ::dumbbell {
    # ns-2's `Node set module_list_`: Base, and QS once enabled
    variable node_modules {Base}
}

Node proc enable-module {name} {
    variable ::dumbbell::node_modules
    if {$name ni {Base QS}} {
        ::dumbbell::unsupported "routing module $name (Node enable-module)"
    }
    if {$name ni $node_modules} { lappend node_modules $name }
}

Node proc disable-module {name} {
    variable ::dumbbell::node_modules
    set k [lsearch -exact $node_modules $name]
    if {$k >= 0} { set node_modules [lreplace $node_modules $k $k] }
}

Simulator instproc QS {val} {
    if {$val eq "ON"} {
        Node enable-module QS
    } else {
        Node disable-module QS
    }
}

# RtModule/QS's register: the classifier and the agent, the agent attached
# and told where packets go on (the node's classifier).
Node instproc dumbbell-qs-register {} {
    $self instvar qs_classifier_ qs_agent_ switch_ dumbbell_entry_
    # (the RtModule/QS object's handle)
    ::dumbbell::skip_ids 1
    set qs_classifier_ [new Classifier/QS]
    set qs_agent_ [new Agent/QSAgent]
    set switch_ $qs_classifier_
    set dumbbell_entry_ $qs_classifier_
    $qs_classifier_ install 0 $qs_agent_
    $self attach $qs_agent_
    $qs_agent_ set old_classifier_ $self
    $qs_agent_ cmd dumbbell-old-classifier $self
}

Node instproc qs-agent {} {
    $self instvar qs_agent_
    if {![info exists qs_agent_]} {
        error "[$self id]: this node has no Quick-Start agent (\$ns node-config -QS ON before the node is made)"
    }
    return $qs_agent_
}
