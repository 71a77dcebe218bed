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
    if {[info exists mobileIP_] && $mobileIP_ eq "ON"} {
        ::dumbbell::unsupported "node-config -mobileIP ON (Mobile IP)"
    }
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
    if {[info exists wiredRouting_] && $wiredRouting_ eq "ON"} {
        ::dumbbell::unsupported "base stations (node-config -wiredRouting ON)"
    }
    if {[info exists energyModel_] && $energyModel_ ne ""} {
        ::dumbbell::unsupported "energy models (node-config -energyModel)"
    }
    if {[info exists rtAgentFunction_] && $rtAgentFunction_ ne ""} {
        ::dumbbell::unsupported "node-config -rtAgentFunction"
    }
    # AODV sends nothing until an agent has a packet for another node
    # (its HELLO messages are off in ns-2 2.35), which Dumbbell cannot do
    # yet; DSDV and the others send from the start.
    if {$routingAgent_ ne "AODV"} {
        if {$routingAgent_ in {DSDV DSR TORA AOMDV PUMA MDART DumbAgent ManualRtg FLOODING OMNIMCAST
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
    set node [eval new Node/MobileNode $args]
    $node set ns_ $self
    lappend wlNodes_ $node
    # Movements go to the trace-all file (ns-2's Trace/Generic log
    # target) and to nam's.
    set tracefd [$self get-ns-traceall]
    if {$tracefd ne ""} { $node cmd log-channel $tracefd }
    set namfd [$self get-nam-traceall]
    if {$namfd ne ""} { $node cmd namattach $namfd }
    $node cmd topography $topoInstance_
    return $node
}

# An agent on a wireless node would send over the radio stack.
Node/MobileNode instproc attach {agent {port ""}} {
    ::dumbbell::unsupported "an agent on a wireless node (the wireless channel, 802.11 MAC and AODV routing are not built yet; docs/wireless.md)"
}

Simulator instproc initial_node_pos {nodep size} {
    $self instvar addressType_
    if {[info exists addressType_] && $addressType_ eq "hierarchical"} {
        ::dumbbell::unsupported "hierarchical addresses"
    }
    # (ns-2's line is continued with backslash-newlines, each of which
    # adds a space: hence two spaces before -x and before -v)
    $self puts-nam-config "n -t * -s [$nodep id]  -x [$nodep set X_] -y [$nodep set Y_] -Z [$nodep set Z_] -z $size  -v circle -c black"
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
