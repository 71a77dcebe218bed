"""ns-2 compatibility: OTcl on Python's Tcl interpreter, ns-2's library,
and the bridge to the engine."""
