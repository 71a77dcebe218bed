# Wireless nodes, first slice (docs/wireless.md): `node-config`, mobile
# nodes with their position and `setdest` movements, `Topography`,
# `create-god`, `initial_node_pos`, `namtrace-all-wireless` and
# `use-newtrace`, as ns-2 2.35's ns-lib.tcl and ns-mobilenode.tcl have
# them.  The radio stack (channel, propagation, PHY, 802.11, link layer,
# ad hoc routing) is not built yet: a script that would send a packet
# between wireless nodes stops with an error that says so.

Simulator instproc use-newtrace {} { Simulator set WirelessNewTrace_ 1 }

Simulator instproc namtrace-all-wireless {file optx opty} {
    $self set namNeedsW_ 1
    if {$optx ne "" && $opty ne ""} {
        $self set namWx_ $optx
        $self set namWy_ $opty
    }
    $self namtrace-all $file
}

# nam's end of a wireless animation: a W line with the time.
Simulator instproc nam-end-wireless {stoptime} {
    $self instvar namtraceAllFile_
    if {[info exists namtraceAllFile_] && $namtraceAllFile_ ne ""} {
        $self puts-nam-config "W -t $stoptime"
    }
}

# ---- node-config -----------------------------------------------------------------

# Each option and the Simulator variable it sets (ns-lib.tcl's one-line
# instprocs that init-vars calls).
namespace eval ::dumbbell {
    variable wl_options
    array set wl_options {
        addressType addressType_  adhocRouting routingAgent_  llType llType_
        macType macType_  propType propType_  propInstance propInstance_
        ifqType ifqType_  ifqLen ifqlen_  phyType phyType_  antType antType_
        channel channel_  channelType channelType_  topoInstance topoInstance_
        wiredRouting wiredRouting_  mobileIP mobileIP_  energyModel energyModel_
        initialEnergy initialEnergy_  txPower txPower_  rxPower rxPower_
        idlePower idlePower_  sleepPower sleepPower_  sleepTime sleepTime_
        transitionPower transitionPower_  transitionTime transitionTime_
        IncomingErrProc inerrProc_  OutgoingErrProc outerrProc_  FECProc FECProc_
        agentTrace agentTrace_  routerTrace routerTrace_  macTrace macTrace_
        phyTrace phyTrace_  movementTrace movementTrace_  toraDebug toraDebug_
        satNodeType satNodeType_  downlinkBW downlinkBW_  stopTime stopTime_
        rtAgentFunction rtAgentFunction_  eotTrace eotTrace_
        diffusionFilter diffFilter_
    }
}

# ns-2 ignores an option it does not know (a misspelt one is lost without
# a word); here it is an error that lists the options.
Simulator instproc node-config args {
    variable ::dumbbell::wl_options
    if {[llength $args] % 2} {
        error "node-config: expected -option value pairs, got \"$args\""
    }
    foreach {opt val} $args {
        set name [string range $opt 1 end]
        # Quick-Start routers (quickstart.tcl): ns-2 calls `$ns QS $val`
        if {$opt eq "-QS"} { $self QS $val; continue }
        if {[string index $opt 0] ne "-" || ![info exists wl_options($name)]} {
            error "node-config: unknown option \"$opt\"; expected one of -[join [lsort -dictionary [array names wl_options]] {, -}]"
        }
        $self set $wl_options($name) $val
    }
    $self instvar propType_ propInstance_ channelType_ channel_ chan \
        phyTrace_ macTrace_ routerTrace_ agentTrace_ movementTrace_ eotTrace_ \
        mobileIP_ addressType_
    foreach {v flag} {phyTrace_ PhyTrace_ macTrace_ MacTrace_ routerTrace_ RouterTrace_
                      agentTrace_ AgentTrace_ movementTrace_ MovementTrace_ eotTrace_ EotTrace_} {
        if {[info exists $v]} { Simulator set $flag [set $v] }
    }
    # One propagation model for all nodes, made by the first node-config
    # that names one.
    if {[info exists propInstance_]} {
        if {[info exists propType_] && [Simulator set propInstCreated_] == 0} {
            warn "Both propType and propInstance are set. propType is ignored."
        }
    } elseif {[info exists propType_]} {
        set propInstance_ [new $propType_]
        Simulator set propInstCreated_ 1
    }
    if {[info exists channelType_] && [info exists channel_]} {
        error "Can't specify both channel and channelType, error!"
    } elseif {[info exists channelType_]} {
        warn "Please use -channel as shown in tcl/ex/wireless-mitf.tcl"
        if {![info exists chan]} { set chan [new $channelType_] }
    } elseif {[info exists channel_]} {
        set chan $channel_
    }
    if {[info exists addressType_] && $addressType_ ne ""} {
        $self set-address-format $addressType_
    }
    # (ns-lib.tcl: the flag the next nodes' types are read from)
    if {[info exists mobileIP_] && $mobileIP_ eq "ON"} {
        Simulator set mobile_ip_ 1
    } elseif {[info exists mobileIP_]} {
        Simulator set mobile_ip_ 0
    }
}

# nam's colour levels of an energy model (fractions of the initial
# energy: green above LEVEL1, yellow above LEVEL2, red above 0)
Simulator instproc energy-color-change {level1 level2} {
    $self set level1_ $level1
    $self set level2_ $level2
}

# Does `$ns node` make a wireless node (node-config named a routing
# protocol)?
Simulator instproc wireless-node? {} {
    $self instvar routingAgent_
    expr {[info exists routingAgent_] && $routingAgent_ ne ""}
}

# ---- mobile nodes ------------------------------------------------------------------

Simulator instproc create-wireless-node args {
    $self instvar routingAgent_ wiredRouting_ topoInstance_ energyModel_ \
        satNodeType_ rtAgentFunction_ chan wlNodes_
    if {[info exists satNodeType_]} { ::dumbbell::unsupported "satellite nodes (node-config -satNodeType)" }
    # Base stations and mobile nodes with hierarchical addresses
    # (wired-cum-wireless scenarios) route with DSDV here.
    set hier [Simulator hier-addr?]
    set base [expr {[info exists wiredRouting_] && $wiredRouting_ eq "ON"}]
    if {$base && !$hier} {
        error "node-config -wiredRouting ON: a base station needs hierarchical addresses (node-config -addressType hierarchical before the nodes)"
    }
    if {$hier && [info exists routingAgent_] && $routingAgent_ ni {DSDV}} {
        ::dumbbell::unsupported "mobile nodes with hierarchical addresses routing with $routingAgent_ (Dumbbell's wired-cum-wireless nodes route with DSDV)"
    }
    if {$hier && [llength $args] != 1} {
        error "\$ns node: hierarchical addresses are on: expected the mobile node's address, \$ns node D.C.N"
    }
    if {!$hier && [llength $args] > 0} {
        ::dumbbell::unsupported "\$ns node with arguments \"$args\" (a node's address is given only with hierarchical addresses: \$ns node D.C.N)"
    }
    if {[info exists energyModel_] && $energyModel_ ne "" && $energyModel_ ne "EnergyModel"} {
        ::dumbbell::unsupported "node-config -energyModel $energyModel_ (Dumbbell has EnergyModel)"
    }
    if {[info exists rtAgentFunction_] && $rtAgentFunction_ ne ""} {
        ::dumbbell::unsupported "node-config -rtAgentFunction"
    }
    # DumbAgent's, AODV's, DSDV's and DSR's nodes carry packets (their
    # stack and routing agent are joined to the run); the others are not
    # joined yet.
    if {$routingAgent_ ni {AODV DSDV DSR DumbAgent}} {
        if {$routingAgent_ in {TORA AOMDV PUMA MDART ManualRtg FLOODING OMNIMCAST
                DIFFUSION/RATE DIFFUSION/PROB Directed_Diffusion}} {
            ::dumbbell::unsupported "ad hoc routing with $routingAgent_ (node-config -adhocRouting)"
        }
        error "node-config -adhocRouting: unknown routing protocol \"$routingAgent_\"; ns-2 knows DSDV, DSR, AODV, AOMDV, TORA, PUMA, MDART, DumbAgent, ManualRtg and the diffusion protocols"
    }
    if {![info exists topoInstance_]} {
        error "\$ns node: a wireless node needs a topography (node-config -topoInstance \$topo)"
    }
    if {![info exists chan]} {
        error "\$ns node: a wireless node needs a channel (node-config -channel \[new Channel/WirelessChannel\])"
    }
    set node [new Node/MobileNode]
    $node set ns_ $self
    lappend wlNodes_ $node
    if {$hier} { ::dumbbell::addr::assign $node [lindex $args 0] }
    set mip [$self dumbbell-mip-type]
    if {$mip ne ""} {
        if {!$hier} {
            error "node-config -mobileIP ON: Mobile IP nodes need hierarchical addresses (node-config -addressType hierarchical before the nodes)"
        }
        if {$routingAgent_ ne "DSDV"} {
            ::dumbbell::unsupported "node-config -mobileIP ON with -adhocRouting $routingAgent_ (Dumbbell's Mobile IP nodes route with DSDV)"
        }
        # (ns-mobilenode.tcl's makemip-New$nodetype_: the agent is made,
        # and draws its first beacon time, when the node is)
        set regagent [new Agent/$mip]
        $regagent beacon-period 1.0
        $node set regagent_ $regagent
    }
    if {$base} {
        # (ns-2 lists a base station among the wired nodes, for routes)
        $self instvar Node_
        set Node_([$node id]) $node
        $node set base_stn_ [AddrParams addr2id [$node node-addr]]
        set ::dumbbell::bases([$node id]) 1
    }
    # Movements go to the trace-all file (ns-2's Trace/Generic log
    # target) and to nam's.
    set tracefd [$self get-ns-traceall]
    if {$tracefd ne ""} { $node cmd log-channel $tracefd }
    set namfd [$self get-nam-traceall]
    if {$namfd ne ""} { $node cmd namattach $namfd }
    $node cmd topography $topoInstance_
    $self dumbbell-join-radio $node $tracefd $namfd $base
    if {$base} { $node base-station [$node set base_stn_] }
    if {$mip ne ""} { $node dumbbell-attach-mip $mip }
    return $node
}

# Mobile IP's node types (ns-lib.tcl's get-nodetype): with -mobileIP ON, a
# base station (-wiredRouting ON) is a MIPBS node, a node made with
# -wiredRouting OFF a MIPMH node; "" for the others.
Simulator instproc dumbbell-mip-type {} {
    $self instvar wiredRouting_
    if {![Simulator set mobile_ip_] || ![info exists wiredRouting_]} { return "" }
    if {$wiredRouting_ eq "ON"} { return MIPBS }
    if {$wiredRouting_ eq "OFF"} { return MIPMH }
    return ""
}

# The node's registration agent at port 0 (REGAGENT_PORT), and on a base
# station the tunnel's end at port 1 (DECAP_PORT), as makemip-NewMIPBS and
# makemip-NewMIPMH place them.
Node/MobileNode instproc dumbbell-attach-mip {type} {
    $self instvar regagent_
    # (its port demultiplexer is a Classifier/Port/Reserve: the agents
    # attached later get ports from 2)
    $self cmd reserve-port 2
    $self attach $regagent_ [Node/MobileNode set REGAGENT_PORT]
    $regagent_ node $self
    if {$type eq "MIPBS"} {
        $self instvar decap_
        set decap_ [new Classifier/Addr/MIPDecapsulator]
        $decap_ node $self
        $self cmd install [Node/MobileNode set DECAP_PORT] $decap_
    }
}

# The node's link layer, interface queue, MAC, radio and antenna, as
# ns-2's add-interface makes them from node-config's types and their
# classes' variables, and its routing agent: the engine's stack of the
# node on its channel (crates/engine/src/wireless/net.rs).
Simulator instproc dumbbell-join-radio {node tracefd namfd {base 0}} {
    $self instvar llType_ macType_ ifqType_ ifqlen_ antType_ phyType_ propInstance_ \
        routingAgent_ chan
    foreach {opt v want} {-llType llType_ LL -macType macType_ {Mac/802_11 Mac/Tdma Mac/802_11Ext}
            -ifqType ifqType_ {Queue/DropTail/PriQueue CMUPriQueue} -antType antType_ Antenna/OmniAntenna
            -phyType phyType_ {Phy/WirelessPhy Phy/WirelessPhyExt}} {
        set wanted [join $want " or "]
        if {![info exists $v]} {
            error "\$ns node: a wireless node needs node-config $opt ($wanted)"
        }
        if {[set $v] ni $want} {
            ::dumbbell::unsupported "node-config $opt [set $v] (Dumbbell's wireless nodes have $wanted)"
        }
    }
    if {$ifqType_ eq "CMUPriQueue" && $routingAgent_ eq "AODV"} {
        # (aodv.cc takes its interface queue to be a PriQueue: ns-2 2.35
        # runs such a script until the first link failure, then crashes)
        ::dumbbell::unsupported "node-config -adhocRouting AODV with -ifqType CMUPriQueue (ns-2 2.35's AODV treats its queue as a Queue/DropTail/PriQueue and crashes at the first link failure)"
    }
    if {![info exists propInstance_]} {
        error "\$ns node: a wireless node needs node-config -propType or -propInstance (Propagation/TwoRayGround, /FreeSpace, /Shadowing or /Nakagami)"
    }
    if {![info exists ifqlen_]} {
        error "\$ns node: a wireless node needs node-config -ifqLen"
    }
    set god [God info instances]
    set nodes 0
    if {$god ne ""} { set nodes [$god num_nodes] }
    set macaddr [::dumbbell::next-mac]
    $node set dumbbell_macaddr_ $macaddr
    set kv [list ifq $ifqType_ ifqlen $ifqlen_ god $nodes god_obj $god mac $macaddr \
        ll_delay [LL set delay_] trace $tracefd nam $namfd \
        agent [Simulator set AgentTrace_] router [Simulator set RouterTrace_] \
        mactrace [Simulator set MacTrace_] newtrace [Simulator set WirelessNewTrace_] \
        tagged [Simulator set TaggedTrace_] wired $base \
        eot [Simulator set EotTrace_]]
    if {$routingAgent_ eq "DSDV"} {
        foreach v {wst0_ perup_ use_mac_ be_random_ alpha_ min_update_periods_ verbose_ trace_wst_} {
            lappend kv dsdv_$v [Agent/DSDV set $v]
        }
    }
    foreach v {Pt_ freq_ L_ CPThresh_ CSThresh_ RXThresh_} {
        lappend kv $v [Phy/WirelessPhy set $v]
    }
    foreach v {X_ Y_ Z_} { lappend kv ant$v [Antenna/OmniAntenna set $v] }
    foreach v {Gt_ Gr_} { lappend kv $v [Antenna/OmniAntenna set $v] }
    set macvars {}
    foreach v {CWMin_ CWMax_ SlotTime_ SIFS_ PreambleLength_ PLCPHeaderLength_ PLCPDataRate_
            RTSThreshold_ ShortRetryLimit_ LongRetryLimit_ dataRate_ basicRate_ bugFix_timer_
            BeaconInterval_ ProbeDelay_ MinChannelTime_ MaxChannelTime_ ChannelTime_} {
        lappend kv $v [Mac/802_11 set $v]
        dict set macvars $v [Mac/802_11 set $v]
    }
    # (the values its MAC object, [$node getMac 0], starts with)
    $node set dumbbell_macvars_ $macvars
    lappend kv macType $macType_
    # (the extended MAC talks only to the extended radio, and the radio
    # only to it: ns-2 casts one to the other)
    if {($macType_ eq "Mac/802_11Ext") != ($phyType_ eq "Phy/WirelessPhyExt")} {
        ::dumbbell::unsupported "node-config -macType $macType_ with -phyType $phyType_ (Mac/802_11Ext works only over Phy/WirelessPhyExt, and Phy/WirelessPhyExt only under Mac/802_11Ext, as in ns-2)"
    }
    if {$macType_ eq "Mac/802_11Ext"} {
        foreach v {CWMin_ CWMax_ SlotTime_ SIFS_ RTSThreshold_ ShortRetryLimit_ LongRetryLimit_
                HeaderDuration_ SymbolDuration_ BasicModulationScheme_ use_802_11a_flag_ MAC_DBG} {
            lappend kv ext_$v [Mac/802_11Ext set $v]
        }
        foreach v {CSThresh_ Pt_ freq_ L_ noise_floor_ PowerMonitorThresh_ HeaderDuration_
                BasicModulationScheme_ PreambleCaptureSwitch_ DataCaptureSwitch_ SINR_PreambleCapture_
                SINR_DataCapture_ trace_dist_ PHY_DBG_} {
            lappend kv xphy_$v [Phy/WirelessPhyExt set $v]
        }
        lappend kv phytrace [Simulator set PhyTrace_]
    }
    if {$macType_ eq "Mac/Tdma"} {
        foreach v {slot_packet_len_ max_node_num_} { lappend kv $v [Mac/Tdma set $v] }
        # (an instance's default is its class's, else its superclass's)
        if {[catch {Mac/Tdma set bandwidth_} bw]} { set bw [Mac set bandwidth_] }
        lappend kv mac_bandwidth_ $bw
    }
    # the energy model (ns-lib.tcl's addenergymodel and the radio's
    # powers), with nam's colour levels (energy-color-change)
    $self instvar energyModel_ initialEnergy_ level1_ level2_
    if {[info exists energyModel_] && $energyModel_ ne ""} {
        if {![info exists initialEnergy_]} {
            error "\$ns node: node-config -energyModel needs -initialEnergy (joules)"
        }
        lappend kv initialEnergy $initialEnergy_
        if {[info exists level1_]} { lappend kv level1 $level1_ }
        if {[info exists level2_]} { lappend kv level2 $level2_ }
        foreach v {txPower rxPower idlePower sleepPower transitionPower transitionTime} {
            $self instvar ${v}_
            if {[info exists ${v}_] && [set ${v}_] ne ""} { lappend kv $v [set ${v}_] }
        }
    }
    set id [$node id]
    set entry _dumbbell_wl_entry_$id
    set ragent _dumbbell_ragent_$id
    eval [list $node cmd wireless-join $chan $propInstance_ $routingAgent_ $entry $ragent] $kv
    $node set dumbbell_ragent_ $ragent
}

# ---- the node's MAC as an object ([$node getMac 0]) ---------------------------------

# ns-2's `getMac 0`: the MAC of the node's (only) interface.  Dumbbell's
# MAC lives in the engine; this object stands for it: `id` (its address),
# `ap ADDR` (it becomes an access point), `ScanType ACTIVE|PASSIVE` (a
# station scans for one: docs/wireless.md's infrastructure mode) and
# `set RTSThreshold_ V` reach the engine's MAC.
Node/MobileNode instproc getMac {i} {
    $self instvar dumbbell_mac_ dumbbell_macaddr_ dumbbell_ragent_
    if {$i ne "0"} {
        error "\$node getMac $i: a mobile node has one interface, getMac 0"
    }
    if {![info exists dumbbell_ragent_] || ![info exists dumbbell_macaddr_]} {
        ::dumbbell::unsupported "getMac on a mobile node without an 802.11 radio stack"
    }
    if {![info exists dumbbell_mac_]} {
        set dumbbell_mac_ [new Mac/802_11]
        # (its variables as the node's MAC was made with them)
        dict for {v value} [$self set dumbbell_macvars_] { $dumbbell_mac_ set $v $value }
        $dumbbell_mac_ instvar dumbbell_node_ dumbbell_addr_
        set dumbbell_node_ $self
        set dumbbell_addr_ $dumbbell_macaddr_
    }
    return $dumbbell_mac_
}

Mac/802_11 instproc dumbbell-node {what} {
    $self instvar dumbbell_node_
    if {![info exists dumbbell_node_]} {
        error "$self $what: this Mac/802_11 is not a node's (use \[\$node getMac 0\])"
    }
    return $dumbbell_node_
}

Mac/802_11 instproc id {} {
    [$self dumbbell-node id] set dumbbell_macaddr_
}

# (ns-2 takes the MAC's own address whatever ADDR says)
Mac/802_11 instproc ap {addr} {
    [$self dumbbell-node ap] cmd wireless-mac ap
}

Mac/802_11 instproc ScanType {type} {
    [$self dumbbell-node ScanType] cmd wireless-mac ScanType $type
}

Mac/802_11 instproc set args {
    $self instvar dumbbell_node_
    if {[llength $args] >= 2 && [lindex $args 0] eq "RTSThreshold_" && [info exists dumbbell_node_]} {
        $dumbbell_node_ cmd wireless-mac RTSThreshold_ [lindex $args 1]
    }
    eval [list $self next] $args
}

# ns-2's MAC addresses: a counter over all MACs made (Mac::index_).
namespace eval ::dumbbell { variable mac_count 0 }
proc ::dumbbell::next-mac {} {
    variable mac_count
    set m $mac_count
    incr mac_count
    return $m
}

# An agent on a wireless node: attached at a port as on any node, its
# packets sent to the node's routing agent.
Node/MobileNode instproc attach {agent {port ""}} {
    $self instvar dumbbell_ragent_ dumbbell_iface_
    if {![info exists dumbbell_ragent_] && [info exists dumbbell_iface_] && $port eq "255"} {
        # (a node made with add-interface: its routing agent joins it)
        [Simulator instance] dumbbell-join-old $self $agent
        $agent set dumbbell_node_ $self
        return
    }
    if {![info exists dumbbell_ragent_]} {
        ::dumbbell::unsupported "an agent on a wireless node without a radio stack (only nodes made with -adhocRouting AODV, DSDV, DSR or DumbAgent carry packets; docs/wireless.md)"
    }
    # (a base station's agents reach its classifier, wired routes first,
    # and what comes from the wire for them passes its agent trace: not
    # modelled yet)
    if {[info exists ::dumbbell::bases([$self id])] && [$agent info class] ne "Agent/MIPBS"} {
        ::dumbbell::unsupported "an agent on a base station (node-config -wiredRouting ON): attach it to a wired or a mobile node"
    }
    $self next $agent $port
    $agent target $dumbbell_ragent_
}

# The node's base station (mobilenode.cc's `base-station`: the packed
# address, as `AddrParams addr2id` gives it), where its DSDV agent sends
# what leaves its subnet without a route of its own.
Node/MobileNode instproc base-station {addr} {
    if {![string is integer -strict $addr]} {
        error "\$node base-station \"$addr\": expected the base station's packed address (\[AddrParams addr2id \[\$bs node-addr\]\])"
    }
    $self set base_stn_ $addr
    $self cmd wireless-base-station $addr
}

# ns-2's MobileNode reset (ns-mobilenode.tcl): the parts of its interface,
# of which only the queue and the ARP table hold anything (their packets are
# dropped, traced END); unlike a wired node's reset, its agents are left.
Node/MobileNode instproc reset {} {
    $self instvar dumbbell_ragent_
    if {[info exists dumbbell_ragent_]} { $self cmd wireless-reset }
}

Simulator instproc initial_node_pos {nodep size} {
    $self instvar addressType_ energyModel_
    # (green, nam's full-energy colour, under an energy model)
    set color black
    if {[info exists energyModel_]} { set color green }
    if {[info exists addressType_] && $addressType_ eq "hierarchical"} {
        # (the node's address first; the same continued lines as below)
        $self puts-nam-config "n -t * -a [$nodep set address_]  -s [$nodep id] -x [$nodep set X_] -y [$nodep set Y_] -Z [$nodep set Z_]  -z $size -v circle -c $color"
        return
    }
    # (ns-2's line is continued with backslash-newlines, each of which
    # adds a space: hence two spaces before -x and before -v)
    $self puts-nam-config "n -t * -s [$nodep id]  -x [$nodep set X_] -y [$nodep set Y_] -Z [$nodep set Z_] -z $size  -v circle -c $color"
}

# ---- GOD (tcl/mobility/com.tcl) -----------------------------------------------------

proc create-god {nodes} {
    set god [God info instances]
    if {$god eq ""} { set god [new God] }
    $god num_nodes $nodes
    return $god
}

God proc instance {} {
    set god [God info instances]
    if {$god ne ""} { return $god }
    error "Cannot find instance of god"
}

# ---- the older way to make a mobile node (ns-2's tcl/mobility/*.tcl) ---------------

# (the routing agent's port, ns-lib.tcl's)
Node set rtagent_port_ 255

# `$node log-target $T`: its movements go where Trace/Generic $T writes.
Node/MobileNode instproc log-target {T} {
    if {[catch {$T set fp_} fp]} {
        error "\$node log-target $T: expected a trace attached to a file (\$T attach \$fd)"
    }
    $self cmd log-channel $fp
}

# `$node add-interface CHAN PROP LL MAC IFQ IFQLEN PHY ANT TOPO INERR OUTERR
# FEC`: the interface ns-2 builds here is joined to the run when the
# routing agent is attached at port 255 (which chooses the stack's
# routing): until then it is only remembered.
Node/MobileNode instproc add-interface {channel pmodel lltype mactype qtype qlen iftype anttype topo {inerr ""} {outerr ""} {fec ""}} {
    $self instvar dumbbell_iface_ dumbbell_ragent_
    if {[info exists dumbbell_iface_] || [info exists dumbbell_ragent_]} {
        ::dumbbell::unsupported "a mobile node with more than one interface (add-interface again)"
    }
    if {"$inerr$outerr$fec" ne ""} {
        ::dumbbell::unsupported "add-interface with error models or FEC on the interface"
    }
    set dumbbell_iface_ [list $channel $pmodel $lltype $mactype $qtype $qlen $iftype $anttype $topo]
}

# The interface of add-interface and routing agent $agent joined to the run,
# as create-wireless-node joins a node made with node-config's settings
# (they are set for the join and put back after).  Its traces go to the
# global `tracefd`, as com.tcl's cmu-trace sends them.
Simulator instproc dumbbell-join-old {node agent} {
    set keep {llType_ macType_ ifqType_ ifqlen_ antType_ phyType_ propInstance_ routingAgent_ chan topoInstance_}
    eval $self instvar $keep
    set rp [string range [$agent info class] [string length Agent/] end]
    if {$rp ni {AODV DSDV DSR DumbAgent}} {
        ::dumbbell::unsupported "a routing agent [$agent info class] attached to a node made with add-interface"
    }
    set saved {}
    foreach v $keep {
        if {[info exists $v]} { lappend saved $v [set $v] 1 } else { lappend saved $v {} 0 }
    }
    lassign [$node set dumbbell_iface_] chan_ prop ll mac ifq qlen phy ant topo
    foreach v $keep val [list $ll $mac $ifq $qlen $ant $phy $prop $rp $chan_ $topo] {
        set $v $val
    }
    set tracefd ""
    if {[info exists ::tracefd]} { set tracefd $::tracefd }
    set err [catch {$self dumbbell-join-radio $node $tracefd ""} msg opts]
    foreach {v val had} $saved {
        if {$had} { set $v $val } else { unset $v }
    }
    if {$err} { return -options $opts $msg }
}

# A routing agent made by the script (com.tcl's create-dsdv-routing-agent):
# the engine's agent of the node it is attached to at port 255 does its
# work.  Its address must be its node's; its start (`$ns at 0.0 "$ragent
# start-dsdv"`) is the engine's own, made when the node joins; its drop
# trace is the node's RTR drop trace, as for any node; its log target
# carries only what trace_wst_ and verbose_ print, which is not modelled.
Agent/DSDV instproc addr {{a ""}} {
    $self instvar dumbbell_addr_
    if {$a eq ""} { return $dumbbell_addr_ }
    set dumbbell_addr_ $a
}
Agent/DSDV instproc node {n} {
    if {[$n set address_] != [$self addr]} {
        error "$self node $n: the agent's address ([$self addr]) is not the node's ([$n set address_])"
    }
}
Agent/DSDV instproc start-dsdv {} {
    if {[$self info vars dumbbell_node_] eq ""} {
        error "$self start-dsdv: the agent is not attached to a mobile node at port 255"
    }
}
Agent/DSDV instproc drop-target {t} {}
Agent/DSDV instproc tracetarget {t} {}
Agent/DSDV instproc port-dmux {d} {
    ::dumbbell::unsupported "Agent/DSDV port-dmux (Mobile IP nodes made with add-interface)"
}

# The trace points scripts make with `new CMUTrace/Drop RTR` (com.tcl's
# cmu-trace) for a node made with add-interface: the engine's trace points
# of the node, writing to the file of the global `tracefd`, stand in for
# them; these objects only take the commands they are given.
::otcl::_::LibClass CMUTrace
foreach k {Send Recv Drop Fwd EOT} { ::otcl::_::LibClass CMUTrace/$k CMUTrace }
unset k
CMUTrace instproc init {layer} {
    $self next
    $self set layer_ $layer
}
CMUTrace instproc target {t} {}
CMUTrace instproc attach {fp} {
    if {![info exists ::tracefd] || $fp ne $::tracefd} {
        ::dumbbell::unsupported "a wireless trace point (CMUTrace) writing to a file other than the global tracefd's"
    }
}
CMUTrace instproc node {n} {}
CMUTrace instproc namattach {fp} {}

# ---- GridKeeper (mobile/gridkeeper.cc) ------------------------------------------------

# A grid of 1 m cells over the area that the channel asks, instead of its
# X-sorted list, which nodes a transmission reaches: those the keeper holds
# (`addnode`) strictly within the sender's `radius` (metres; 0 until
# `$node radius R`), cell by cell (crates/engine/src/wireless/medium.rs).
::otcl::_::LibClass GridKeeper
GridKeeper instproc dimension {x y} {
    $self instvar dim_
    if {![string is integer -strict $x] || ![string is integer -strict $y] || $x <= 0 || $y <= 0} {
        error "GridKeeper dimension $x $y: illegal grid dimension (expected two whole numbers of metres above 0)"
    }
    set dim_ [list $x $y]
}
GridKeeper instproc addnode {node} {
    $self instvar dim_
    if {![info exists dim_]} {
        error "GridKeeper addnode $node: the grid has no size yet (\$gk dimension X Y first)"
    }
    if {[catch {$node info class} cls] || ![$node info class Node/MobileNode]} {
        error "GridKeeper addnode $node: expected a mobile node"
    }
    eval [list $node cmd wireless-grid-add] $dim_
}
GridKeeper instproc dump {} {
    ::dumbbell::unsupported "GridKeeper dump"
}
Node/MobileNode instproc radius {r} {
    $self cmd wireless-radius $r
}
