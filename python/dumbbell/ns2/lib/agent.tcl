# Agents and applications: attach-agent, connect, create-connection; the
# Tcl side of the engine's agents (TCP, UDP, LossMonitor) and traffic
# generators; FTP and the older Source/* sources.

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
    # A TCP sender connected to itself takes its own data for ACKs and
    # answers them at once, for ever (ns-2 recurses until it crashes).
    if {$src eq $dst && [string match Agent/TCP* [$src info class]]
            && ![string match Agent/TCPSink* [$src info class]]} {
        error "connect: $src ([$src info class]) cannot be connected to itself: its own data would come back to it as acknowledgements"
    }
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

# As create-connection, the destination (a two-way TCP) listening.
Simulator instproc create-connection-listen {s_type source d_type dest pktClass} {
    set s_agent [new Agent/$s_type]
    set d_agent [new Agent/$d_type]
    $s_agent set fid_ $pktClass
    $d_agent set fid_ $pktClass
    $self attach-agent $source $s_agent
    $self attach-agent $dest $d_agent
    $self connect $s_agent $d_agent
    $d_agent listen
    return $s_agent
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
# No arguments, as in ns-2 (ns-agent.tcl): `new Agent/TCP x` is a wrong
# number of arguments there, and here.
Agent/TCP instproc init {} {
    eval $self next
    [Simulator instance] create-eventtrace Event $self
}
# Two-way TCP (ns-default.tcl): the variants differ from FullTcp in
# the defaults their init sets, and `done_data` is the call-back of
# `sendmsg N DAT_EOF`.
Agent/TCP/FullTcp instproc done_data {} { }
Agent/TCP/FullTcp/Tahoe instproc init args {
    eval $self next $args
    $self set reno_fastrecov_ false
}
Agent/TCP/FullTcp/Sack instproc init args {
    eval $self next $args
    $self set reno_fastrecov_ false
    $self set open_cwnd_on_pack_ false
}
Agent/TCP/FullTcp/Newreno instproc init args {
    eval $self next $args
    $self set open_cwnd_on_pack_ false
}

::otcl::_::LibClass Application/FTP Application
Application/FTP instproc init {} { $self next }
Application/FTP instproc start {} {
    set a [$self agent]
    if {$a eq ""} {
        # (ns-2 crashes here)
        error "$self (Application/FTP): no agent attached (attach-agent) to start"
    }
    $a send -1
}
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
