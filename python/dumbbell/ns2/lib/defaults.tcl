# Class-level defaults that the engine's class registry does not give.
#
# The engine's classes declare their bound variables with their ns-2 2.35
# defaults (tcl/lib/ns-default.tcl) in its class registry
# (crates/engine/src/ns2/class/), and the library evaluates those defaults,
# `Engine.class_defaults_tcl()`, just before this file.  Left here: the
# class variables of OTcl-only classes (`Link`, `Simulator`).  A script that sets any other
# class variable simply gets an ordinary OTcl class variable.
#
# `::dumbbell::class_vars Cls {var value ...}` is `Cls set var value` for
# each pair, in order, in one command (a class-level `set` through OTcl's
# dispatch, once per variable, made this file a sixth of the library's
# load time).

# ---- LANs ---------------------------------------------------------------------------
# (ns-ll.tcl's; the class's bound variables' other defaults are the
# registry's)
LL/LLSnoop set delay_ 0ms

# ---- simulator -----------------------------------------------------------------
Link set nl_ 0
::dumbbell::class_vars Simulator {
    node_factory_ Node
    nsv1flag 0
    useasim_ 0
    TaggedTrace_ OFF
    nix-routing 0
}
# (the flags of wireless scripts: wireless.tcl)
::dumbbell::class_vars Simulator {
    MovementTrace_ OFF
    EotTrace_ OFF
    IMEPFlag_ ""
    WirelessNewTrace_ 0
    propInstCreated_ 0
    AgentTrace_ ON
    RouterTrace_ OFF
    MacTrace_ OFF
    PhyTrace_ OFF
    mobile_ip_ 0
}
