//! Dumbbell engine: a packet-level discrete-event network simulator whose
//! semantics follow ns-2 2.35 closely enough to reproduce its traces byte for
//! byte.
//!
//! Two layers, one crate: the core (every module but `ns2`: scheduler,
//! packets, links, routing, queue disciplines, agents, TCP, sources,
//! monitors, trace events; typed, with no ns-2 names or formats, which
//! tests/test_layers.py checks) and the ns-2 layer (`ns2`: classes by name,
//! bound variables, commands, ns-2's text formats, the builder).  See
//! docs/architecture.md.
//!
//! No Python and no I/O in the hot path.  Time comes from the scheduler,
//! never from a clock.  Output for a front end's channels is buffered in
//! [`sim::Outputs`] and drained by the front end.

pub mod agent;
pub mod cc;
pub mod delayer;
pub mod errmodel;
pub mod fetch;
pub mod flowdelay;
pub mod fluid;
pub mod hier;
pub mod lan;
pub mod notice;
pub mod num;
pub mod ns2;
pub mod objs;
pub mod onoff;
pub mod packet;
pub mod pcap;
pub mod pbc;
pub mod ping;
pub mod policer;
mod pq;
pub mod qdisc;
pub mod quickstart;
pub mod ring;
pub mod random;
pub mod ranvar;
pub mod rng;
pub mod routing;
pub mod rtmsg;
pub mod sched;
pub mod sim;
pub mod sink;
pub mod socket;
pub mod tagger;
pub mod tcp;
pub mod telnet;
pub mod tfrc;
pub mod trace;
pub mod tracesrc;
#[cfg(test)]
mod testrng;
pub mod udp;
pub mod wireless;
pub mod voip;

pub use sim::{Sim, Yield};
