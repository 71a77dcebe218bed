# Dumbbell's ns-2 library: the Simulator, Node, Link, Agent and Application
# interface of ns-2 2.35 scripts, for Dumbbell's engine, in the files of
# runner.py's LIB_FILES.  This one, loaded first, holds what the others build
# on: `warn`, the error for what Dumbbell does not model, the class checks,
# and the two class lists -- the engine's classes, registered here for the
# other files to add methods to (from the engine's class registry), and the
# ns-2 classes not implemented yet.
#
# Objects with an engine part (queues, links, agents, traces, monitors) are
# split objects (tclobject.tcl): their bound variables and C++-style commands
# live in the engine.  Anything a script uses that Dumbbell does not model
# raises an error that names it; anything accepted but not modelled prints
# one warning.

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
    variable unsupported_why
    if {[info exists unsupported_why($what)]} {
        error "$what is not supported by Dumbbell: $unsupported_why($what)"
    }
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

# The engine lists them (`Engine.kinds()`: its class registry,
# crates/engine/src/ns2/registry.rs).
foreach cls [::dumbbell::be::kinds] {
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
    Queue/SimpleIntServ Queue/RED/Pushback
    Queue/RED/Semantic Queue/RED/RIO/Semantic PacketQueue/Semantic
    Agent/TCP/Asym Agent/TCP/Int
    Agent/TCPSink/Asym
    Agent/CBR Agent/RAP
    Agent/RTP Agent/SRM Agent/SCTP
    ErrorModel/TwoState ErrorModel/Expo ErrorModel/Empirical ErrorModel/MultiState
    ErrorModel/Trace ErrorModel/TwoStateMarkov ErrorModel/ComplexTwoStateMarkov
    Classifier/MultiPath
    Mac/Tdma
    Propagation/ShadowingVis
} {
    set ::dumbbell::unsupported($cls) 1
    set ::auto_index($cls) [list ::dumbbell::define_unsupported $cls]
}
# Why some of them are not run: what ns-2 itself does with them.
# queue/semantic-red.cc and semantic-rio.cc cast the queue's PacketQueue to
# a SemanticPacketQueue to pick a victim (checked against /usr/bin/ns).
namespace eval ::dumbbell {
    variable unsupported_why
    set unsupported_why(class\ Queue/RED/Semantic) "ns-2 2.35's Queue/RED/Semantic picks its victims through a PacketQueue/Semantic's options (random_drop_, priority_drop_, random_ecn_), which without one attached (\$q packetqueue-attach) it reads from memory past its plain packet queue: undefined (/usr/bin/ns happens to drop its forced victims at random, as Queue/RED with drop_rand_ true does, which Dumbbell runs); the packet queue it needs, PacketQueue/Semantic, is not modelled"
    set unsupported_why(class\ Queue/RED/RIO/Semantic) "ns-2 2.35's Queue/RED/RIO/Semantic picks its victims through a PacketQueue/Semantic, which without one attached (\$q packetqueue-attach) it reads from memory past its plain packet queue (/usr/bin/ns stops at its first drop: \"PacketQueue:: remove() couldn't find target\"); PacketQueue/Semantic (ack filtering, acks first, priority and random drops) is not modelled"
    set unsupported_why(class\ PacketQueue/Semantic) "the packet queue of ns-2's semantic queues (ack filtering, acks first, priority and random drops; queue/semantic-packetqueue.cc) is not modelled"
}
# (the loops' variable is not left to the script: ns-2's library leaves no `cls`)
unset cls

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
