//! The bound variables of the ns-2 classes, one file per family.

pub mod queue;
pub mod aqm;
pub mod l4s;
pub mod agent;
pub mod app;
pub mod bay;
pub mod cbq;
pub mod errmodel;
pub mod fairq;
pub mod fulltcp;
pub mod jobs;
pub mod link;
pub mod misc;
pub mod pi;
pub mod quickstart;
pub mod monitor;
pub mod ranvar;
pub mod rem;
pub mod rio;
pub mod tagger;
pub mod tcp;
pub mod tcp_linux;
pub mod tfrc;
pub mod trace;
pub mod wireless;
pub mod xcp;
