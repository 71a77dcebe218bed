# Dynamic unicast routing: `$ns rtproto DV` (ns-2 2.35's distance-vector
# protocol, tcl/rtglib/route-proto.tcl, routing/rtProtoDV.cc).
#
# Each node gets a route object (rtObject) that chooses, per destination,
# between what its protocols offer: Direct (its own links, preference 100)
# and DV (preference 120).  A DV agent keeps a peer per neighbour with the
# metrics that neighbour last advertised (plus the link's cost), sends its
# whole table to every peer every advertInterval (times 0.9..1.1 drawn from
# $rtglibRNG, the first send at 0..0.5 s) and to every peer at once when a
# route changed; a route through a peer is advertised back to it as INFINITY
# (split horizon with poisoned reverse).  The updates travel as packets of
# type rtProtoDV (one byte per node) through the engine's message agent
# (crates/engine/src/rtmsg.rs): the table itself is kept here under a message
# number until the packet arrives.  Routes go into the engine's per-node
# tables (`RouteLogic dumbbell-route`); until a route is known, a node's
# packets to that destination go to the null agent, as in ns-2.
#
# The order of everything observable (the random draws, which peers are
# sent to first, which of equal next hops is chosen) is ns-2's: the same
# loops over the same Tcl arrays, keyed by the same object names.

::otcl::_::LibClass rtObject
rtObject set unreach_ -1
rtObject set maxpref_ 255

::otcl::_::LibClass rtPeer

Agent/rtProto set preference_ 200
::otcl::_::LibClass Agent/rtProto/Direct Agent/rtProto
Agent/rtProto/Direct set preference_ 100
Agent/rtProto/DV set preference_ 120
Agent/rtProto/DV set INFINITY 32
Agent/rtProto/DV set advertInterval 2
Agent/rtProto/DV set UNREACHABLE -1
Agent/rtProto/DV set mid_ 0
# the updates in flight, by message number
namespace eval ::dumbbell { variable dvmsg; array set dvmsg {} }

# ---- node side ------------------------------------------------------------------

Node instproc rtObject? {} {
    $self instvar rtObject_
    if {[info exists rtObject_]} { return $rtObject_ }
    return ""
}
Node instproc intf-changed {} {
    $self instvar rtObject_
    if {[info exists rtObject_]} { $rtObject_ intf-changed }
}
# A route of this node's classifier: packets to node `id` enter `target`.
# (Only dynamic routing sets routes: a script's own routes beside static
# routing are not modelled.)
Node instproc add-route {id target} {
    if {[$self rtObject?] eq ""} { ::dumbbell::unsupported "routes set by hand (\$node add-route)" }
    [[Simulator instance] get-routelogic] cmd dumbbell-route [$self id] $id $target
}
Node instproc delete-route {id nullagent} {
    $self add-route $id $nullagent
}
Node instproc add-routes {id ifs} {
    if {[llength $ifs] > 1} {
        warn "Node::add-routes cannot install multiple routes"
        set ifs [lindex $ifs 0]
    }
    $self add-route $id [$ifs head]
}
Node instproc delete-routes {id ifs nullagent} {
    $self delete-route $id $nullagent
}

# ---- the route object of a node ----------------------------------------------------

rtObject proc init-all args {
    foreach node $args {
        if {[$node rtObject?] eq ""} { set obj($node) [new rtObject $node] }
    }
    foreach node $args { $obj($node) compute-routes }
}

rtObject instproc init {node} {
    $self next
    $self instvar ns_ nullAgent_ nextHop_ rtpref_ metric_ node_ rtVia_ rtProtos_
    set ns_ [Simulator instance]
    set nullAgent_ [$ns_ set nullAgent_]
    if {[catch {Node set multiPath_} mp] == 0 && $mp} {
        ::dumbbell::unsupported "multipath routing (Node multiPath_ 1)"
    }
    $node set rtObject_ $self
    set node_ $node
    foreach dest [$ns_ all-nodes-list] {
        set nextHop_($dest) ""
        if {$dest eq $node} {
            set rtpref_($dest) 0
            set metric_($dest) 0
            set rtVia_($dest) Agent/rtProto/Local
        } else {
            set rtpref_($dest) [rtObject set maxpref_]
            set metric_($dest) [rtObject set unreach_]
            set rtVia_($dest) ""
            $node add-route [$dest id] $nullAgent_
        }
    }
    $self add-proto Direct $node
    $rtProtos_(Direct) compute-routes
}

rtObject instproc add-proto {proto node} {
    $self instvar ns_ rtProtos_
    set rtProtos_($proto) [new Agent/rtProto/$proto $node]
    $ns_ attach-agent $node $rtProtos_($proto)
    return $rtProtos_($proto)
}

rtObject instproc rtProto? {proto} {
    $self instvar rtProtos_
    if {[info exists rtProtos_($proto)]} { return $rtProtos_($proto) }
    return ""
}
rtObject instproc nextHop? {dest} { $self set nextHop_($dest) }
# (a DV update's one read of the node's routes: metrics and next hops)
rtObject instproc dumbbell-table {} {
    $self instvar metric_ nextHop_
    list [array get metric_] [array get nextHop_]
}
rtObject instproc rtpref? {dest} { $self set rtpref_($dest) }
rtObject instproc metric? {dest} { $self set metric_($dest) }

rtObject instproc lookup {dest} {
    $self instvar nextHop_
    if {![info exists nextHop_($dest)] || $nextHop_($dest) eq ""} { return -1 }
    return [[$nextHop_($dest) set toNode_] id]
}

# Choose each destination's route among the protocols' (best preference,
# then metric; the first protocol wins a tie), install what changed and let
# the protocols advertise.
rtObject instproc compute-routes {} {
    $self instvar ns_ node_ rtProtos_ nullAgent_ nextHop_ rtpref_ metric_ rtVia_
    set protos {}
    set changed 0
    foreach p [array names rtProtos_] {
        if {[$rtProtos_($p) set rtsChanged_]} {
            incr changed
            $rtProtos_($p) set rtsChanged_ 0
        }
        lappend protos $rtProtos_($p)
    }
    if {!$changed} return
    # (each protocol's tables read once, not three method calls per
    # destination: nothing changes them while this runs)
    foreach p $protos {
        lassign [$p dumbbell-tables] nh pf mt
        foreach {d v} $nh { set pnh($p,$d) $v }
        foreach {d v} $pf { set ppf($p,$d) $v }
        foreach {d v} $mt { set pmt($p,$d) $v }
    }
    set maxpref [rtObject set maxpref_]
    set unreach [rtObject set unreach_]
    set changes 0
    foreach dst [$ns_ all-nodes-list] {
        if {$dst eq $node_} continue
        set nh ""
        set pf $maxpref
        set mt $unreach
        set rv ""
        foreach p $protos {
            set h $pnh($p,$dst)
            if {$h eq ""} continue
            set f $ppf($p,$dst)
            set m $pmt($p,$dst)
            if {$f < $pf || ($f == $pf && $m < $mt) || $mt < 0} {
                set nh $h
                set pf $f
                set mt $m
                set rv $p
            }
        }
        if {$nh eq ""} {
            if {$nextHop_($dst) ne ""} {
                $node_ delete-routes [$dst id] $nextHop_($dst) $nullAgent_
                set nextHop_($dst) ""
                set rtpref_($dst) $pf
                set metric_($dst) $mt
                set rtVia_($dst) $rv
                incr changes
            }
        } elseif {$rv eq $rtVia_($dst)} {
            if {$nh ne $nextHop_($dst)} {
                $node_ delete-routes [$dst id] $nextHop_($dst) $nullAgent_
                set nextHop_($dst) $nh
                $node_ add-routes [$dst id] $nh
                incr changes
            }
            if {$mt != $metric_($dst)} {
                set metric_($dst) $mt
                incr changes
            }
            set rtpref_($dst) $pf
        } else {
            if {$rtVia_($dst) ne ""} {
                set v $rtVia_($dst)
                set nextHop_($dst) $pnh($v,$dst)
                set rtpref_($dst) $ppf($v,$dst)
                set metric_($dst) $pmt($v,$dst)
            }
            if {$rtpref_($dst) != $pf || $metric_($dst) != $mt} {
                $node_ delete-routes [$dst id] $nextHop_($dst) $nullAgent_
                set nextHop_($dst) $nh
                set rtpref_($dst) $pf
                set metric_($dst) $mt
                set rtVia_($dst) $rv
                $node_ add-routes [$dst id] $nh
                incr changes
            }
        }
    }
    foreach p [array names rtProtos_] { $rtProtos_($p) send-updates $changes }
}

rtObject instproc intf-changed {} {
    $self instvar rtProtos_
    foreach p [array names rtProtos_] {
        $rtProtos_($p) intf-changed
        $rtProtos_($p) compute-routes
    }
    $self compute-routes
}

rtObject instproc dump-routes {chan} {
    $self instvar ns_ node_ nextHop_ rtpref_ metric_ rtVia_
    puts $chan [concat "Node:\t${node_}([$node_ id])\tat t =" [format %4.2f [$ns_ now]]]
    puts $chan "  Dest\t\t nextHop\tPref\tMetric\tProto"
    foreach dest [$ns_ all-nodes-list] {
        if {$nextHop_($dest) ne ""} {
            set proto [lindex [split [$rtVia_($dest) info class] /] end]
            foreach rt $nextHop_($dest) {
                puts $chan [format "%-5s(%d)\t%-5s(%d)\t%3d\t%4d\t %s" $dest [$dest id] \
                        $rt [[$rt set toNode_] id] $rtpref_($dest) $metric_($dest) $proto]
            }
        } elseif {$dest eq $node_} {
            puts $chan [format "%-5s(%d)\t%-5s(%d)\t%03d\t%4d\t %s" $dest [$dest id] $dest [$dest id] 0 0 Local]
        } else {
            puts $chan [format "%-5s(%d)\t%-5s(%s)\t%03d\t%4d\t %s" $dest [$dest id] "" - 255 32 Unknown]
        }
    }
}

# ---- a neighbour's advertised metrics --------------------------------------------

rtPeer instproc init {addr port cls} {
    $self next
    $self instvar addr_ port_ metric_ rtpref_
    set addr_ $addr
    set port_ $port
    set inf [$cls set INFINITY]
    set pref [$cls set preference_]
    foreach dest [[Simulator instance] all-nodes-list] {
        set metric_($dest) $inf
        set rtpref_($dest) $pref
    }
}
rtPeer instproc addr? {} { $self set addr_ }
rtPeer instproc port? {} { $self set port_ }
# A DV agent's peer: its metrics live in the agent's arrays (`pm_`, `pp_`,
# keyed by neighbour and destination), which the protocol reads directly
# rather than through a method call per destination.
rtPeer instproc dumbbell-own {agent nbr} {
    $self set owner_ $agent
    $self set nbr_ $nbr
}
rtPeer instproc metric {dest val} {
    $self instvar owner_ nbr_
    if {[info exists owner_]} { return [$owner_ set pm_($nbr_,$dest) $val] }
    $self set metric_($dest) $val
}
rtPeer instproc metric? {dest} {
    $self instvar owner_ nbr_
    if {[info exists owner_]} { return [$owner_ set pm_($nbr_,$dest)] }
    $self set metric_($dest)
}
rtPeer instproc preference {dest val} {
    $self instvar owner_ nbr_
    if {[info exists owner_]} { return [$owner_ set pp_($nbr_,$dest) $val] }
    $self set rtpref_($dest) $val
}
rtPeer instproc preference? {dest} {
    $self instvar owner_ nbr_
    if {[info exists owner_]} { return [$owner_ set pp_($nbr_,$dest)] }
    $self set rtpref_($dest)
}

# ---- protocols: the common part, Direct ----------------------------------------

Agent/rtProto instproc init {node} {
    $self next
    $self instvar ns_ rtObject_ preference_ ifs_ ifstat_
    set ns_ [Simulator instance]
    set preference_ [[$self info class] set preference_]
    foreach nbr [$node set neighbor_] {
        set link [$ns_ link $node $nbr]
        set ifs_($nbr) $link
        set ifstat_($nbr) [$link up?]
    }
    set rtObject_ [$node rtObject?]
}
Agent/rtProto instproc intf-changed {} { }
# (the route object's one read of a protocol's tables)
Agent/rtProto instproc dumbbell-tables {} {
    $self instvar nextHop_ rtpref_ metric_
    list [array get nextHop_] [array get rtpref_] [array get metric_]
}
Agent/rtProto instproc send-updates args { }

Agent/rtProto/Direct instproc init {node} {
    $self next $node
    $self instvar ns_ rtpref_ nextHop_ metric_ ifs_
    foreach n [$ns_ all-nodes-list] {
        set rtpref_($n) 255
        set nextHop_($n) ""
        set metric_($n) -1
    }
    foreach n [array names ifs_] { set rtpref_($n) [Agent/rtProto/Direct set preference_] }
}
# A route to each neighbour whose link is up, at the link's cost.
Agent/rtProto/Direct instproc compute-routes {} {
    $self instvar ifs_ ifstat_ nextHop_ metric_ rtsChanged_
    set rtsChanged_ 0
    foreach nbr [array names ifs_] {
        set up [expr {[$ifs_($nbr) up?] eq "up"}]
        if {$nextHop_($nbr) eq "" && $up} {
            set ifstat_($nbr) 1
            set nextHop_($nbr) $ifs_($nbr)
            set metric_($nbr) [$ifs_($nbr) cost?]
            incr rtsChanged_
        } elseif {$nextHop_($nbr) ne "" && !$up} {
            set ifstat_($nbr) 0
            set nextHop_($nbr) ""
            set metric_($nbr) -1
            incr rtsChanged_
        }
    }
}

# ---- DV ----------------------------------------------------------------------------

Agent/rtProto/DV proc init-all args {
    set ns [Simulator instance]
    if {[llength $args] == 0} {
        set nodes [$ns all-nodes-list]
    } else {
        set nodes [concat {*}$args]
    }
    # (Agent set-maxttl: INFINITY is at least the agents' ttl_)
    if {[Agent/rtProto/DV set INFINITY] < [Agent set ttl_]} {
        Agent/rtProto/DV set INFINITY [Agent set ttl_]
    }
    eval rtObject init-all $nodes
    foreach node $nodes {
        set proto($node) [[$node rtObject?] add-proto DV $node]
    }
    foreach node $nodes {
        foreach nbr [$node neighbors] {
            set obj [$nbr rtObject?]
            if {$obj eq ""} continue
            set dv [$obj rtProto? DV]
            if {$dv ne ""} {
                $proto($node) add-peer $nbr [$dv set agent_addr_] [$dv set agent_port_]
            }
        }
    }
}
Agent/rtProto/DV proc compute-all {} { }

Agent/rtProto/DV instproc init {node} {
    global rtglibRNG
    $self next $node
    $self instvar ns_ preference_ rtpref_ nextHop_ nextHopPeer_ metric_ ifsUp_
    foreach dest [$ns_ all-nodes-list] {
        set rtpref_($dest) $preference_
        set nextHop_($dest) ""
        set nextHopPeer_($dest) ""
        set metric_($dest) [Agent/rtProto/DV set UNREACHABLE]
    }
    set ifsUp_ ""
    $ns_ at [$rtglibRNG uniform 0.0 0.5] "$self send-periodic-update"
}

Agent/rtProto/DV instproc add-peer {nbr addr port} {
    $self instvar ns_ peers_ paddr_ pm_ pp_
    set peer [new rtPeer $addr $port Agent/rtProto/DV]
    set peers_($nbr) $peer
    set paddr_($nbr) $addr
    $self set pnbr_($peer) $nbr
    set inf [Agent/rtProto/DV set INFINITY]
    set pref [Agent/rtProto/DV set preference_]
    foreach dest [$ns_ all-nodes-list] {
        set pm_($nbr,$dest) $inf
        set pp_($nbr,$dest) $pref
    }
    $peer dumbbell-own $self $nbr
}

Agent/rtProto/DV instproc send-periodic-update {} {
    global rtglibRNG
    $self instvar ns_
    $self send-updates 1
    set t [expr {[$ns_ now] + [Agent/rtProto/DV set advertInterval] * [$rtglibRNG uniform 0.9 1.1]}]
    $ns_ at $t "$self send-periodic-update"
}

# The best route per destination over the peers' metrics (lowest
# preference, then metric); a route through the current next hop is kept
# at equal cost.
Agent/rtProto/DV instproc compute-routes {} {
    $self instvar ns_ ifs_ rtpref_ metric_ nextHop_ nextHopPeer_ peers_ rtsChanged_ pm_ pp_ pnbr_
    set inf [Agent/rtProto/DV set INFINITY]
    set nbrs [lsort -dictionary [array names peers_]]
    set maxpref [rtObject set maxpref_]
    set unreach [rtObject set unreach_]
    set rtsChanged_ 0
    foreach dst [$ns_ all-nodes-list] {
        set p [lindex $nextHopPeer_($dst) 0]
        if {$p ne ""} {
            set metric_($dst) $pm_($pnbr_($p),$dst)
            set rtpref_($dst) $pp_($pnbr_($p),$dst)
        }
        set pf $maxpref
        set mt $inf
        array unset nh
        foreach nbr $nbrs {
            set pmt $pm_($nbr,$dst)
            set ppf $pp_($nbr,$dst)
            if {$pmt < 0 || $pmt >= $inf || $ppf > $pf || $pmt > $mt} continue
            if {$ppf < $pf || $pmt < $mt} {
                set pf $ppf
                set mt $pmt
                array unset nh
            }
            set nh($ifs_($nbr)) $peers_($nbr)
        }
        if {$pf == $maxpref && $mt == $inf} continue
        if {$pf > $rtpref_($dst) || ($metric_($dst) >= 0 && $mt > $metric_($dst))} continue
        if {$mt >= $inf} { set mt $unreach }
        incr rtsChanged_
        if {$pf < $rtpref_($dst) || $mt < $metric_($dst)} {
            set rtpref_($dst) $pf
            set metric_($dst) $mt
            set n [lindex [array names nh] 0]
            set nextHop_($dst) $n
            set nextHopPeer_($dst) $nh($n)
            continue
        }
        set rtpref_($dst) $pf
        set metric_($dst) $mt
        set keep ""
        set keepPeer ""
        foreach rt $nextHop_($dst) {
            if {[info exists nh($rt)]} {
                lappend keep $rt
                lappend keepPeer $nh($rt)
                unset nh($rt)
            }
        }
        set nextHop_($dst) $keep
        set nextHopPeer_($dst) $keepPeer
        if {$keep eq ""} {
            set n [lindex [array names nh] 0]
            if {$n ne ""} {
                lappend nextHop_($dst) $n
                lappend nextHopPeer_($dst) $nh($n)
            }
        }
    }
    return $rtsChanged_
}

# Links went down or up: a peer behind a link that went down advertises
# nothing any more; a link that came up is advertised over at the next
# update even if no route changed.
Agent/rtProto/DV instproc intf-changed {} {
    $self instvar ns_ peers_ ifs_ ifstat_ ifsUp_ pm_
    set inf [Agent/rtProto/DV set INFINITY]
    set ifsUp_ ""
    foreach nbr [lsort -dictionary [array names peers_]] {
        set state [$ifs_($nbr) up?]
        if {$state ne $ifstat_($nbr)} {
            set ifstat_($nbr) $state
            if {$state ne "up"} {
                foreach dest [$ns_ all-nodes-list] { set pm_($nbr,$dest) $inf }
            } else {
                lappend ifsUp_ $nbr
            }
        }
    }
}

Agent/rtProto/DV instproc send-updates {changes} {
    $self instvar peers_ ifs_ ifsUp_
    if {$changes} {
        set to [lsort -dictionary [array names peers_]]
    } else {
        set to $ifsUp_
    }
    set ifsUp_ ""
    foreach nbr $to {
        if {[$ifs_($nbr) up?] eq "up"} { $self send-to-peer $nbr }
    }
}

# The node's table as this peer should hear it: a route through the peer
# is poisoned (INFINITY).  Kept under a message number until it arrives.
Agent/rtProto/DV instproc send-to-peer {nbr} {
    $self instvar ns_ rtObject_ ifs_ peers_
    set inf [Agent/rtProto/DV set INFINITY]
    set n 0
    set update {}
    lassign [$rtObject_ dumbbell-table] ms nhs
    array set metric $ms
    array set nexthop $nhs
    foreach dest [$ns_ all-nodes-list] {
        set m $metric($dest)
        if {$m < 0} {
            set m $inf
        } elseif {$ifs_($nbr) in $nexthop($dest)} {
            set m $inf
        }
        lappend update $dest $m
        incr n
    }
    set id [Agent/rtProto/DV set mid_]
    Agent/rtProto/DV set mid_ [expr {$id + 1}]
    set ::dumbbell::dvmsg($id) $update
    set p $peers_($nbr)
    $self cmd send-update [$p addr?] [$p port?] $id $n
}

Agent/rtProto/DV instproc recv-update {peerAddr id} {
    $self instvar peers_ ifs_ rtsChanged_ rtObject_ paddr_ pm_
    set inf [Agent/rtProto/DV set INFINITY]
    set msg $::dumbbell::dvmsg($id)
    unset ::dumbbell::dvmsg($id)
    foreach nbr [lsort -dictionary [array names peers_]] {
        if {$paddr_($nbr) != $peerAddr} continue
        set cost [$ifs_($nbr) cost?]
        set changed 0
        foreach {dest m} $msg {
            set m [expr {$m + $cost}]
            if {$m > $inf} { set m $inf }
            if {$m != $pm_($nbr,$dest)} {
                set pm_($nbr,$dest) $m
                incr changed
            }
        }
        if {$changed} {
            $self compute-routes
            incr rtsChanged_ $changed
            $rtObject_ compute-routes
        }
        return
    }
    # An update from a node that is no peer (it has a simplex link towards
    # this node): ns-2 2.35 stops the run here too (its message, meant to
    # say this, fails on the undefined variable `class::`).
    set me [[$self set node_] id]
    error "rtproto DV: node $me got a routing update from node $peerAddr, which it has no link back to\
            (a simplex link $peerAddr -> $me; DV needs links both ways); ns-2 stops here too"
}
