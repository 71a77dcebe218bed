//! The bound variables of the ns-2 classes, one file per family.

pub mod queue;
