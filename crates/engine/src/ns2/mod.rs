//! The ns-2 layer: what makes the engine look like ns-2 2.35 to its Tcl
//! library (python/dumbbell/ns2): the classes it implements and their
//! bound variables (registry.rs, bind.rs, class/).

pub mod bind;
pub mod class;
pub mod registry;
