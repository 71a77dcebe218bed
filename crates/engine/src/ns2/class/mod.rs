//! The bound variables of the ns-2 classes, one file per family.

pub mod queue;
pub mod agent;
pub mod app;
pub mod errmodel;
pub mod fulltcp;
pub mod link;
pub mod misc;
pub mod monitor;
pub mod ranvar;
pub mod tcp;
pub mod tfrc;
pub mod trace;
