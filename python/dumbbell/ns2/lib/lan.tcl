# Wired LANs: `$ns make-lan`, `newLan` and `make-abslan`, as ns-2's
# tcl/lan/vlan.tcl and abslan.tcl build them.  A LAN is a node of its own
# (LanNode: an id from the nodes' count, in the routing graph with a
# half-cost link to and from each member) whose members each get an
# interface (LanIface): entry -> link layer -> interface queue -> MAC ->
# PHY -> the LAN's channel, and back up MAC -> link layer -> interface ->
# node.  The objects and their commands are the engine's (crates/engine/
# src/lan/, ns2/lan.rs); this file only wires them, in ns-2's order.

# ---- the LAN node ----------------------------------------------------------------

Class LanNode
LanNode set ifqType_ Queue/DropTail
LanNode set ifqLen_ ""
LanNode set llType_ LL
LanNode set macType_ Mac
LanNode set chanType_ Channel
LanNode set phyType_ Phy/WiredPhy
LanNode set address_ ""
LanNode set mactrace_ false

foreach v {address bw delay ifqType ifqLen llType macType chanType phyType mactrace} {
    LanNode instproc $v {val} "\$self set ${v}_ \$val"
}

LanNode instproc init {ns args} {
    set args [eval $self init-vars $args]
    $self instvar ns_ nodelist_ cost_ id_ address_ defRouter_ channel_ varp_ chanType_
    $ns instvar Node_
    set ns_ $ns
    set nodelist_ ""
    set cost_ 1
    set id_ [Node getid]
    set Node_($id_) $self
    ::dumbbell::lan_address $self
    set defRouter_ [new LanRouter $ns $self]
    set channel_ [new $chanType_]
    set varp_ [new VARPTable]
}

LanNode instproc addNode {nodes bw delay {llType ""} {ifqType ""} {macType ""} {phyType ""} {mactrace ""} {ifqLen ""}} {
    $self instvar ifqType_ ifqLen_ llType_ macType_ phyType_ mactrace_ id_ channel_ lanIface_ ns_ nodelist_ cost_ varp_
    $ns_ instvar link_
    foreach {v def} {ifqType ifqType_ ifqLen ifqLen_ macType macType_ llType llType_ phyType phyType_ mactrace mactrace_} {
        if {[set $v] eq ""} { set $v [set $def] }
    }
    ::dumbbell::lan_members $nodes
    set half [expr {$cost_ / 2.0}]
    foreach src $nodes {
        set nif [new LanIface $src $self -ifqType $ifqType -ifqLen $ifqLen -llType $llType \
                     -macType $macType -phyType $phyType -mactrace $mactrace]
        set tr [$ns_ get-ns-traceall]
        if {$tr ne ""} { $nif trace $ns_ $tr }
        set tr [$ns_ get-nam-traceall]
        if {$tr ne ""} { $nif nam-trace $ns_ $tr }
        set ll [$nif set ll_]
        $ll set delay_ $delay
        $ll varp $varp_
        $varp_ mac-addr [[$nif set node_] id] [[$nif set mac_] id]
        set phy [$nif set phy_]
        $phy node $src
        $phy channel $channel_
        $channel_ addif $phy
        $phy set bandwidth_ $bw
        set lanIface_($src) $nif
        $src add-neighbor $self
        $self dumbbell-vlinks $src $nif [$nif set ifq_] [$nif set iface_] $bw $half
    }
    set nodelist_ [concat $nodelist_ $nodes]
}

# A LAN's members must be (wired) nodes, at least one.
proc ::dumbbell::lan_members {nodes} {
    if {[llength $nodes] == 0} { error "a LAN needs at least one node, got an empty node list" }
    foreach n $nodes {
        if {[catch {$n is-lan?} lan] || $lan} {
            error "a LAN's members must be nodes: \"$n\" is not one"
        }
    }
}

# The two virtual links between member `src` and the LAN, in ns-2's link_
# array and in the engine's routing graph (the way in is the interface's
# entry; nothing leaves by the way out, which the link layer replaces).
proc ::dumbbell::lan_vlinks {lan src entry ifq back bw cost} {
    set ns [Simulator instance]
    $ns instvar link_
    set sid [$src id]
    set id [$lan id]
    set link_($sid:$id) [new Vlink $ns $lan $src $lan $bw 0]
    set link_($id:$sid) [new Vlink $ns $lan $lan $src $bw 0]
    $link_($sid:$id) queue $ifq
    $link_($id:$sid) queue $ifq
    $link_($sid:$id) cost $cost
    $link_($id:$sid) cost $cost
    ::dumbbell::be::sim add-link $sid $id $entry
    ::dumbbell::be::sim add-link $id $sid $back
    ::dumbbell::be::sim set-cost $sid $id $cost
    ::dumbbell::be::sim set-cost $id $sid $cost
}

# A LAN's address: its id with flat addresses; with hierarchical ones the
# `-address D.C.N` it was made with (ns-2 requires one).
proc ::dumbbell::lan_address {lan} {
    $lan instvar address_ id_
    if {![Simulator hier-addr?]} {
        set address_ $id_
    } elseif {$address_ eq ""} {
        error "LanNode: use \"-address\" option with hierarchical routing"
    } else {
        ::dumbbell::addr::assign $lan $address_
    }
}

LanNode instproc dumbbell-vlinks {src nif ifq back bw cost} {
    ::dumbbell::lan_vlinks $self $src [$nif entry] $ifq $back $bw $cost
}

LanNode instproc cost {c} {
    $self instvar ns_ nodelist_ id_ cost_
    $ns_ instvar link_
    set cost_ $c
    set half [expr {$c / 2.0}]
    foreach node $nodelist_ {
        set nid [$node id]
        $link_($id_:$nid) cost $half
        $link_($nid:$id_) cost $half
        ::dumbbell::be::sim set-cost $id_ $nid $half
        ::dumbbell::be::sim set-cost $nid $id_ $half
    }
}
LanNode instproc cost? {} { $self set cost_ }
LanNode instproc id {} { $self set id_ }
LanNode instproc node-addr {{addr ""}} { eval $self set address_ $addr }
LanNode instproc is-lan? {} { return 1 }
LanNode instproc assign-mac {ip} { return $ip }
LanNode instproc dump-namconfig {} {
    $self instvar ns_ bw_ delay_ nodelist_ id_
    $ns_ puts-nam-config "X -t * -n $id_ -r $bw_ -D $delay_ -o left"
    set orient {up down}
    set k 0
    foreach n $nodelist_ {
        $ns_ puts-nam-config "L -t * -s $id_ -d [$n id] -o [lindex $orient $k]"
        set k [expr {1 - $k}]
    }
}
# what ns-2's routing and node processing call on every node; a LAN has
# no classifier and no agents (its router finds the routes)
foreach m {reset rtObject? init-outLink start-mcast getArbiter attach sp-add-route add-route add-hroute
           incr-rtgtable-size decr-rtgtable-size intf-changed} {
    LanNode instproc $m args { return }
}

# ---- a member's interface ----------------------------------------------------------

Class LanIface
LanIface set ifqType_ Queue/DropTail
LanIface set macType_ Mac
LanIface set llType_ LL
LanIface set phyType_ Phy/WiredPhy
LanIface set mactrace_ false
foreach v {llType ifqType ifqLen macType phyType mactrace} {
    LanIface instproc $v {val} "\$self set ${v}_ \$val"
}
LanIface instproc entry {} { $self set entry_ }

LanIface instproc init {node lan args} {
    set args [eval $self init-vars $args]
    eval $self next $args
    $self instvar llType_ ifqType_ macType_ phyType_ mactrace_ node_ lan_ ifq_ ifqLen_ mac_ ll_ phy_ \
        iface_ entry_ drophead_
    set node_ $node
    set lan_ $lan
    set ll_ [new $llType_]
    if {[$ll_ info class] eq "LL/LLSnoop"} {
        # (the parameters its snoop agents start with: ns-2's agents read
        # Snoop's class variables when they are made)
        $ll_ cmd snoop-params [Snoop set srtt_] [Snoop set rttvar_] [Snoop set g_] \
            [Snoop set snoopTick_] [Snoop set maxbufs_] [Snoop set lru_]
    }
    set ifq_ [new $ifqType_]
    if {[info exists ifqLen_] && $ifqLen_ ne ""} { $ifq_ set limit_ $ifqLen_ }
    set mac_ [new $macType_]
    if {$macType_ eq "Mac/802_3"} { $mac_ set trace_ $mactrace_ }
    set iface_ [new NetworkInterface]
    set phy_ [new $phyType_]
    set entry_ [new Connector]
    set drophead_ [new Connector]

    $ll_ set macDA_ -1
    $ll_ lanrouter [$lan set defRouter_]
    $ll_ up-target $iface_
    $ll_ down-target $ifq_
    $ll_ mac $mac_
    $ll_ ifq $ifq_
    $ifq_ target $mac_
    $mac_ up-target $ll_
    $mac_ down-target $phy_
    $mac_ netif $phy_
    $phy_ up-target $mac_
    $iface_ target [$node entry]
    $entry_ target $ll_
    $drophead_ target [[Simulator instance] set nullAgent_]
    $ifq_ drop-target $drophead_
    $mac_ drop-target $drophead_
    $ll_ drop-target $drophead_
}

LanIface instproc trace {ns f {op ""}} {
    $self instvar hopT_ rcvT_ enqT_ deqT_ drpT_ iface_ entry_ node_ lan_ drophead_ ll_ ifq_ mac_ mactrace_
    set hopT_ [$ns create-trace Hop $f $node_ $lan_ $op]
    set rcvT_ [$ns create-trace Recv $f $lan_ $node_ $op]
    set enqT_ [$ns create-trace Enque $f $node_ $lan_ $op]
    set deqT_ [$ns create-trace Deque $f $node_ $lan_ $op]
    set drpT_ [$ns create-trace Drop $f $node_ $lan_ $op]
    if {$mactrace_ eq "true"} {
        # 802.3's collisions, as drops of their own kind
        set macdrpT [$ns create-trace Collision $f $node_ $lan_ $op]
        set macdrophead [new Connector]
        $mac_ drop-target $macdrophead
        $macdrophead target $macdrpT
    }
    $hopT_ target [$entry_ target]
    $entry_ target $hopT_
    $rcvT_ target [$iface_ target]
    $iface_ target $rcvT_
    $enqT_ target [$ll_ down-target]
    $ll_ down-target $enqT_
    $deqT_ target [$ifq_ target]
    $ifq_ target $deqT_
    $drpT_ target [$drophead_ target]
    $drophead_ target $drpT_
}

LanIface instproc nam-trace {ns f} {
    $self instvar hopT_ rcvT_ enqT_ deqT_ drpT_
    if {[info exists hopT_]} {
        $hopT_ namattach $f
    } else {
        $self trace $ns $f "nam"
    }
    foreach t [list $rcvT_ $enqT_ $deqT_ $drpT_] { $t namattach $f }
}

# ---- the virtual links -----------------------------------------------------------

Class Vlink
Vlink instproc init {ns lan src dst b d} {
    $self instvar ns_ lan_ src_ dst_ bw_ delay_
    set ns_ $ns
    set lan_ $lan
    set src_ $src
    set dst_ $dst
    set bw_ $b
    set delay_ $d
}
Vlink instproc up? {} { return "up" }
Vlink instproc queue {{q ""}} { eval $self set queue_ $q }
Vlink instproc src {} { $self set src_ }
Vlink instproc dst {} { $self set dst_ }
Vlink instproc dump-nam-queueconfig {} { return }
Vlink instproc head {} {
    $self instvar lan_ src_
    if {$src_ eq $lan_} { return "" }
    return [[$lan_ set lanIface_($src_)] entry]
}
Vlink instproc cost {c} { $self set cost_ $c }
Vlink instproc cost? {} {
    $self instvar cost_
    if {![info exists cost_]} { return 1 }
    return $cost_
}

# ---- the LAN's router ------------------------------------------------------------

LanRouter instproc init {ns lan} {
    $self next
    # (the LAN's router asks the route logic for the LAN node's next hop,
    # by its id: inside the engine addresses are node ids)
    if {[Simulator hier-addr?]} { $self routing hier } else { $self routing flat }
    $self lanaddr [$lan id]
    $self routelogic [$ns get-routelogic]
}

# ---- the Simulator's commands ----------------------------------------------------

Simulator instproc newLan {nodelist bw delay args} {
    set lan [eval new LanNode $self -bw $bw -delay $delay $args]
    $lan addNode $nodelist $bw $delay
    return $lan
}

Simulator instproc make-lan {args} {
    set mactrace false
    if {[lindex $args 0] eq "-trace"} {
        set mactrace [lindex $args 1]
        if {$mactrace eq "on"} { set mactrace true }
        set args [lrange $args 2 end]
    }
    lassign $args nodelist bw delay llType ifqType macType chanType phyType ifqLen
    if {$llType eq ""} { set llType LL }
    if {$macType eq ""} { set macType Mac }
    if {$chanType eq ""} { set chanType Channel }
    if {$phyType eq ""} { set phyType Phy/WiredPhy }
    if {$macType eq "Mac/Csma/Cd"} {
        puts "Warning: Mac/Csma/Cd is out of date"
        puts "Warning: Please use Mac/802_3 to replace Mac/Csma/Cd"
        set macType Mac/802_3
    }
    foreach {what cls} [list "link layer" $llType "MAC" $macType "channel" $chanType "PHY" $phyType] {
        if {$cls ni {LL LL/LLSnoop Mac Mac/802_3 Channel Phy/WiredPhy}} {
            error "make-lan: the $what \"$cls\" is not supported by Dumbbell on a LAN (it has LL, LL/LLSnoop, Mac, Mac/802_3, Channel, Phy/WiredPhy)"
        }
    }
    ::dumbbell::check_bw $bw "bandwidth of the LAN"
    ::dumbbell::check_time $delay "delay of the LAN"
    if {$ifqType ne "" && ![::dumbbell::is_class $ifqType]} {
        error "make-lan: unknown interface queue type \"$ifqType\""
    }
    # (ns-2 misspells the interface queue's default here, so an empty one
    # stays empty and the LAN's class default applies)
    set lan [new LanNode $self -bw $bw -delay $delay -llType $llType -ifqType $ifqType \
                 -ifqLen $ifqLen -macType $macType -chanType $chanType -phyType $phyType -mactrace $mactrace]
    $lan addNode $nodelist $bw $delay $llType $ifqType $macType $phyType $mactrace $ifqLen
    return $lan
}

# ---- the abstract LAN: one queue and one delay link for all -------------------------

Class AbsLanNode -superclass LanNode
AbsLanNode set address_ ""
foreach v {address bw delay qlen} {
    AbsLanNode instproc $v {val} "\$self set ${v}_ \$val"
}

AbsLanNode instproc init {ns args} {
    set args [eval $self init-vars $args]
    $self instvar bw_ delay_ qlen_ ns_ nodelist_ cost_ id_ address_ defRouter_ q_ dlink_ mcl_ varp_
    $ns instvar Node_
    set ns_ $ns
    set nodelist_ ""
    set cost_ 1
    set id_ [Node getid]
    set Node_($id_) $self
    ::dumbbell::lan_address $self
    set defRouter_ [new LanRouter $ns $self]
    set varp_ [new VARPTable]
    set q_ [new Queue/DropTail]
    set dlink_ [new DelayLink]
    $dlink_ set bandwidth_ $bw_
    $dlink_ set delay_ $delay_
    set mcl_ [new Classifier/Replicator]
    $mcl_ set direction_ true
    $q_ target $dlink_
    $q_ set limit_ $qlen_
    $dlink_ target $mcl_
}

AbsLanNode instproc addNode {nodes} {
    $self instvar id_ lanIface_ q_ ns_ nodelist_ cost_ varp_ dlink_ mcl_ bw_ deqT_
    ::dumbbell::lan_members $nodes
    set half [expr {$cost_ / 2.0}]
    foreach src $nodes {
        set nif [new AbsLanIface $src $self]
        set tr [$ns_ get-ns-traceall]
        if {$tr ne ""} { $nif trace $ns_ $tr }
        set tr [$ns_ get-nam-traceall]
        if {$tr ne ""} { $nif nam-trace $ns_ $tr }
        $mcl_ installNext [$nif set mac_]
        $varp_ mac-addr [[$nif set node_] id] [[$nif set mac_] id]
        $q_ drop-target [$nif set drophead_]
        set lanIface_($src) $nif
        $src add-neighbor $self
        ::dumbbell::lan_vlinks $self $src [$nif entry] $q_ [$nif set ll_] $bw_ $half
    }
    set nodelist_ [concat $nodelist_ $nodes]
    # (ns-2 makes the queue's departure trace, between the members' common
    # queue and the link, once, naming the last member added)
    set f [$ns_ get-ns-traceall]
    if {$f ne ""} {
        set deqT_ [$ns_ create-trace Deque $f $src $self]
        $deqT_ target $dlink_
        $q_ target $deqT_
    }
}

Class AbsLanIface
AbsLanIface instproc entry {} { $self set entry_ }
AbsLanIface instproc init {node lan} {
    $self next
    $self instvar node_ lan_ entry_ mac_ ll_ drophead_
    set node_ $node
    set lan_ $lan
    set entry_ [new Connector]
    set ll_ [new LL]
    set mac_ [new Mac]
    $mac_ set abstract_ true
    $entry_ target $ll_
    $ll_ mac $mac_
    $ll_ up-target [$node entry]
    $ll_ down-target $mac_
    $ll_ set macDA_ -1
    $ll_ set delay_ 0
    $ll_ lanrouter [$lan set defRouter_]
    $ll_ varp [$lan set varp_]
    $mac_ up-target $ll_
    $mac_ down-target [$lan set q_]
    $mac_ set delay_ 0
    set drophead_ [new Connector]
    $drophead_ target [[Simulator instance] set nullAgent_]
    $mac_ drop-target $drophead_
    $ll_ drop-target $drophead_
}

AbsLanIface instproc trace {ns f {op ""}} {
    $self instvar hopT_ rcvT_ enqT_ drpT_ entry_ node_ lan_ drophead_ ll_ mac_
    set hopT_ [$ns create-trace Hop $f $node_ $lan_ $op]
    set rcvT_ [$ns create-trace Recv $f $lan_ $node_ $op]
    set enqT_ [$ns create-trace Enque $f $node_ $lan_ $op]
    set drpT_ [$ns create-trace Drop $f $node_ $lan_ $op]
    $hopT_ target [$entry_ target]
    $entry_ target $hopT_
    $rcvT_ target [$ll_ up-target]
    $ll_ up-target $rcvT_
    $enqT_ target [$mac_ down-target]
    $mac_ down-target $enqT_
    $drpT_ target [$drophead_ target]
    $drophead_ target $drpT_
}

AbsLanIface instproc nam-trace {ns f} {
    $self instvar hopT_ rcvT_ enqT_ drpT_
    if {[info exists hopT_]} {
        $hopT_ namattach $f
    } else {
        $self trace $ns $f "nam"
    }
    foreach t [list $rcvT_ $enqT_ $drpT_] { $t namattach $f }
}

Simulator instproc make-abslan {nodelist bw delay {qlen 50}} {
    ::dumbbell::check_bw $bw "bandwidth of the LAN"
    ::dumbbell::check_time $delay "delay of the LAN"
    set lan [new AbsLanNode $self -bw $bw -delay $delay -qlen $qlen]
    $lan addNode $nodelist
    return $lan
}

# (the loops' variables are not left to the script: ns-2's library leaves
# no `v` or `m`)
unset -nocomplain v m
