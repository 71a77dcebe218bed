# Nodes and routing: `$ns node`, the Node class (its id and address, the
# agents attached at its ports), the report of a packet no classifier can
# place, and static routes (`compute-routes`, `rtproto`, the RouteLogic).

# ---- nodes -------------------------------------------------------------------------

Simulator instproc node args {
    $self instvar Node_
    # after node-config named a routing protocol: a wireless node (wireless.tcl)
    if {[$self wireless-node?]} { return [eval $self create-wireless-node $args] }
    set hier [Simulator hier-addr?]
    if {[llength $args] > 1 || ([llength $args] == 1 && !$hier)} {
        ::dumbbell::unsupported "\$ns node with arguments \"$args\" (a node's address is given only with hierarchical addresses: \$ns node D.C.N)"
    }
    if {$hier && [llength $args] == 0} {
        error "\$ns node: hierarchical addresses are on (set-address-format hierarchical or node-config -addressType hierarchical): expected the node's address, \$ns node D.C.N"
    }
    set node [new Node]
    set Node_([$node id]) $node
    $node set ns_ $self
    if {$hier} { ::dumbbell::addr::assign $node [lindex $args 0] }
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
    # the Quick-Start module (quickstart.tcl), if enabled
    if {"QS" in $::dumbbell::node_modules} { $self dumbbell-qs-register }
}

# (Accessors read the variable through instvar, inlined in methods: less
# than half the cost of `$self set`.)
Node instproc id {} { $self instvar id_; return $id_ }
Node instproc node-addr {} { $self instvar address_; return $address_ }
Node instproc nodeid {args} { if {$args ne ""} { $self cmd nodeid [lindex $args 0] } }
Node instproc entry {} {
    # a Quick-Start agent sees packets first (quickstart.tcl)
    $self instvar dumbbell_entry_
    if {[info exists dumbbell_entry_]} { return $dumbbell_entry_ }
    return $self
}
Node instproc neighbors {} { $self instvar neighbor_; lsort $neighbor_ }
Node instproc add-neighbor {p {pushback 0}} { $self instvar neighbor_; lappend neighbor_ $p }
Node instproc is-neighbor {node} { $self instvar neighbor_; expr {[lsearch $neighbor_ $node] != -1} }
Node instproc incr-rtgtable-size {} { }
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
    # (a hierarchical address as its packed number, which the engine
    # translates to the node's id: address.tcl)
    if {[Simulator hier-addr?]} {
        $agent set agent_addr_ [AddrParams addr2id $address_]
    } else {
        $agent set agent_addr_ $address_
    }
    if {$port eq ""} {
        set port [$self cmd alloc-port [[Simulator instance] nullagent]]
    }
    $agent set agent_port_ $port
    $self cmd install $port $agent
    set dumbbell_ports_($port) $agent
    $agent target [$self entry]
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

# ---- classifiers -------------------------------------------------------------------

# A packet no classifier can place: ns-2's `Classifier no-slot` handler
# reports, flushes the traces and exits with 1; so do we.
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

# A hash classifier (an ErrorModule's, a script's own) that finds no slot for
# a packet: ns-2's Classifier::find calls the classifier's `unknown-flow`
# (HashClassifier::unknown), looks again, calls `no-slot` for a slot still
# empty and, for slot -1, classifies once more (`TWICE`, which may call
# `unknown-flow` again) before dropping the packet.  The engine holds the
# packet over the call-backs, made right after its event; `dumbbell-place`
# sends it on once a look finds a target ("" back) or drops it.  A packet
# the engine could not hold (-1) is already dropped: the calls are made all
# the same.
proc ::dumbbell::unknown_flow {cl src dst fid pkt} {
    $cl unknown-flow $src $dst $fid
    set r [$cl cmd dumbbell-place after-unknown $pkt $src $dst $fid]
    if {$r eq ""} { return }
    ::dumbbell::classifier_no_slot $cl $r $src $dst $fid $pkt
}
# No object at slot $slot (4294967295: -1, no entry) for the packet.
proc ::dumbbell::classifier_no_slot {cl slot src dst fid pkt} {
    $cl no-slot $slot
    if {$slot == 4294967295} {
        set r [$cl cmd dumbbell-place again $pkt $src $dst $fid]
        if {$r eq "unknown"} {
            $cl unknown-flow $src $dst $fid
            set r [$cl cmd dumbbell-place last $pkt $src $dst $fid]
        }
        if {$r eq ""} { return }
    }
    $cl cmd dumbbell-place drop $pkt $src $dst $fid
}
# ns-2's default handler (ns-lib.tcl): report, dump, flush the traces, exit 1.
Classifier instproc no-slot slot {
    puts stderr "--- Classfier::no-slot{} default handler (tcl/lib/ns-lib.tcl) ---"
    puts stderr "\t$self: no target for slot $slot"
    puts stderr "\t$self type: [$self info class]"
    puts stderr "content dump:"
    $self dump
    puts stderr "---------- Finished standard no-slot{} default handler ----------"
    [Simulator instance] flush-trace
    exit 1
}
# ns-2's Classifier dump (ns-lib.tcl), of the slots the classifier holds.
Classifier instproc dump {} {
    $self instvar offset_ shift_ mask_
    set slots [$self cmd dumbbell-slots]
    puts "classifier $self"
    puts "\t$offset_ offset"
    puts "\t$shift_ shift"
    puts "\t$mask_ mask"
    puts "\t[expr {[llength $slots] / 2}] slots"
    foreach {i iv} $slots {
        puts "\t\tslot $i: $iv ([$iv info class])"
    }
}
# ns-2's (ns-lib.tcl): the address fields a hash key is cut from, as the
# address format has them when the classifier is made.
Classifier/Hash instproc init nbuck {
    $self next $nbuck
    $self set shift_ [AddrParams NodeShift 1]
    $self set mask_ [AddrParams NodeMask 1]
}
Classifier/Hash instproc dump args {
    eval $self next $args
    $self instvar default_
    puts "\t$default_ default"
}

# ---- route logic (static routes, computed lazily by the engine) ---------------------

# Static routes (ns-2's compute-flat-routes).  From `$ns run` on, the
# engine computes each node's routes lazily, the first time it forwards.
# When links can go down (link dynamics), every link's state is handed to
# the route logic as ns-2 hands it (insert if up, reset if down) before it
# computes; called again while the simulation runs (links changed, with
# `rtproto Session`), routes are computed again at once: nodes take the new
# routes, and keep their old route to a destination they can no longer reach.
Simulator instproc compute-routes {} {
    $self instvar link_ dynlinks_
    if {[Simulator hier-addr?]} {
        # hierarchical routes (address.tcl), computed at once
        $self dumbbell-hier-routes
    } elseif {[info exists dynlinks_]} {
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
# from the whole topology (Session again whenever links change); DV is a
# protocol of messages between the nodes (rtproto.tcl).
Simulator instproc rtproto {proto args} {
    if {$proto ni {Static Session DV}} { ::dumbbell::unsupported "routing protocol $proto" }
    eval [list [$self get-routelogic] register $proto] $args
}

# The route logic is an engine object (routing/route.cc's RouteLogic): its
# `lookup`, `insert`, `reset` and `compute` act on the engine's routes.
RouteLogic instproc lookup {src dst} {
    # ns-route.tcl's order: the same node (compared as Tcl compares), the
    # source node (an error if there is none), in hierarchical mode the
    # destination node too, then its route object or the flat tables
    if {$src == $dst} {
        return $src
    }
    set ns [Simulator instance]
    set node [$ns get-node-by-id $src]
    if {[Simulator hier-addr?]} {
        $ns get-node-by-id $dst
    }
    # (a node with a route object: its protocols' routes, rtproto.tcl)
    set obj [$node rtObject?]
    if {$obj ne ""} { return [$obj lookup [$ns get-node-by-id $dst]] }
    if {![Simulator hier-addr?]} {
        # route.cc's lookup_flat reads the ids with atoi and refuses those
        # past its table, whose size doubles from 16 until it holds the
        # largest id a link joins (RouteLogic::check); a negative id or
        # one past a C int reads outside it in ns-2
        set d [::dumbbell::atoi $dst]
        $ns instvar link_
        set size 16
        foreach k [array names link_] {
            foreach id [split $k :] {
                while {$size <= $id + 1} { set size [expr {$size * 2}] }
            }
        }
        if {$d + 1 >= $size || $d < 0} {
            error "node out of range"
        }
        set dst $d
    }
    set nh [::dumbbell::be::sim route-lookup $src $dst]
    # (ns-2's hierarchical lookup asks for the node of address -1 when
    # there is no route, which is an error)
    if {$nh < 0 && $src != $dst && [Simulator hier-addr?]} {
        error "get-node-id-by-addr:Cannot find node with given address"
    }
    return $nh
}
# C's atoi: the leading integer of `s` (after white space, with a sign), 0
# if there is none.
proc ::dumbbell::atoi {s} {
    if {[regexp {^[ \t\n\v\f\r]*([+-]?[0-9]+)} $s -> n]} {
        return [scan $n %lld]
    }
    return 0
}
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
            if {$proto eq "DV"} {
                eval Agent/rtProto/DV init-all $rtprotos_(DV)
            } else {
                [Simulator instance] compute-routes
            }
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
            DV { }
            Static { error {wrong # args: should be "compute-all self class proc node"} }
        }
    }
}

# ---- DelayBox (ns-2's delaybox/delaybox.tcl) ----------------------------------------

# A node with per-flow delay, loss and speed in front of its classifier
# (crates/engine/src/flowdelay.rs): `set db [$ns DelayBox]`, then
# `$db add-rule SRC DST DELAY_RV [LOSS_RV [SPEED_RV]]`, `$db set-asymmetric`.
Class Node/DelayBox -superclass Node

Node/DelayBox instproc init args {
    eval $self next $args
    $self instvar db_classifier_
    set db_classifier_ [new Classifier/DelayBox]
    $db_classifier_ target $self
}

Node/DelayBox instproc entry {} { $self instvar db_classifier_; return $db_classifier_ }
# (the classifier is made with the node)
Node/DelayBox instproc create-classifier {} { }
Node/DelayBox instproc add-rule args { $self instvar db_classifier_; eval [list $db_classifier_ add-rule] $args }
Node/DelayBox instproc set-asymmetric {} { $self instvar db_classifier_; $db_classifier_ set-asymmetric }

Simulator instproc DelayBox args {
    $self instvar Node_
    set node [new Node/DelayBox]
    set Node_([$node id]) $node
    $node set ns_ $self
    return $node
}
