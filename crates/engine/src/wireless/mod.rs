//! Wireless nodes: the ground they stand on and how they move.  This is
//! the first slice of the wireless model (docs/wireless.md): positions,
//! movement and the area, with ns-2 2.35's arithmetic; the radio layers
//! (channel, propagation, PHY, 802.11 MAC, ad hoc routing) come next and
//! will live here too, one file per component.

pub mod aodv;
pub mod aodv_buffer;
pub mod aodv_table;
pub mod arp;
pub mod backoff;
pub mod channel;
pub mod cmu_ifq;
pub mod dcf;
pub mod dsdv;
pub mod dsr;
pub mod dsr_cache;
pub mod dsr_flow;
pub mod dsr_header;
pub mod dsr_request;
pub mod dup;
pub mod energy;
pub mod ifq;
pub mod mac80211;
pub mod mac_ext;
pub mod medium;
pub mod mip;
pub mod mip_agent;
pub mod mobility;
pub mod net;
pub mod phy;
pub mod phy_ext;
pub mod propagation;
pub mod retry;
pub mod stack;
pub mod tdma;
pub mod topography;

pub use mobility::{Mobility, Move};
pub use topography::FlatGrid;

use crate::sched::ObjId;

/// The wireless model's objects other than nodes.
#[derive(Debug)]
pub enum Part {
    /// The area nodes move in.
    Area(FlatGrid),
    /// The omniscient observer of the nodes ns-2 calls GOD: how many
    /// nodes the script declared (0 until it says), and the shortest
    /// distance in hops between each two, as a movement scenario tells it
    /// (row-major, `nodes * nodes`).
    Observer { nodes: u32, hops: Vec<i32> },
    /// A wireless channel: its nodes' stacks and the air between them
    /// (net.rs).
    Channel(Box<net::Net>),
    /// A mobile node's routing agent (its agents' target) and its entry
    /// (the stack's scheduled deliveries), on slot `slot` of channel `net`.
    Router { net: ObjId, slot: u32 },
    Entry { net: ObjId, slot: u32 },
    /// A propagation model, which the channels of the nodes made with it
    /// take (a copy of its parameters when each node joins; a shadowing
    /// model's random stream is the run's, shared by the copies).
    Propagation(propagation::Model),
    /// A part of the radio stack whose model is not built yet (a channel,
    /// PHY, MAC, link layer, antenna, propagation model or interface
    /// queue): it holds nothing.
    Inert,
}

/// A mobile node's wireless part.
#[derive(Clone, Debug, Default)]
pub struct MobileNode {
    pub pos: Mobility,
    /// The object holding its area (a `Part::Area`), once given.
    pub area: Option<ObjId>,
    /// Where its movements are logged, and nam's channel.
    pub log: Option<u32>,
    pub nam: Option<u32>,
    /// Its channel (a `Part::Channel`) and its slot there, once joined.
    pub net: Option<(ObjId, u32)>,
}
