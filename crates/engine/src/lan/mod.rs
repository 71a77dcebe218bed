//! Wired LANs: several nodes sharing one medium, as ns-2's LAN model
//! (tcl/lan/vlan.tcl, abslan.tcl; mac/ll.cc, mac.cc, mac-802_3.cc,
//! channel.cc, phy.cc, lanRouter.cc, varp.cc; mcast/replicator.cc) has them.
//!
//! A LAN is a virtual node in the routing graph, joined to each member by
//! half-cost links.  A member's route into the LAN enters its interface:
//! the link layer (`ll.rs`) picks the member that is the LAN's next hop
//! towards the packet's destination (the LAN's route, `Router`) and its MAC
//! address (`Varp`, no ARP exchange), waits its delay and hands the packet
//! to the interface queue; the MAC (`mac.rs`: the plain MAC, which only
//! keeps the sender busy for a frame's time, or 802.3's CSMA/CD with binary
//! exponential backoff) puts it on the channel (`channel.rs`), which hands
//! every other member's interface a copy after its delay; the receiving
//! MAC keeps the frames addressed to it and its link layer passes them up,
//! after its delay again, to the node.  The abstract LAN instead puts every
//! member's frames through one queue and one delay link, whose far end
//! copies each frame to every MAC (`Replicator`).
//!
//! Which way a packet goes and its MAC addresses travel beside the pool
//! (`PacketPool::lan_hdr`).  The objects are `Obj::Lan`, off the path of
//! wired packets (`Sim::recv_other`).

pub mod channel;
pub mod ll;
pub mod mac;

pub use channel::{Channel, Phy, Replicator};
pub use ll::{Ll, Router, Varp};
pub use mac::{Mac, MacKind};

use crate::packet::PktId;
use crate::sched::{ObjId, ResumeId};
use crate::sim::{Obj, Sim};

/// A part of a LAN (`Obj::Lan`).
#[derive(Debug)]
pub enum Part {
    Ll(Ll),
    Mac(Mac),
    Phy(Phy),
    Channel(Channel),
    Router(Router),
    Varp(Varp),
    Replicator(Replicator),
    /// A network interface: packets pass on to its target.
    Iface { target: ObjId, label: i32 },
}

impl Sim {
    /// A packet reaches LAN object `to` (from its queue through resume
    /// slot `h`, if any).
    pub(crate) fn lan_recv(&mut self, to: ObjId, p: PktId, h: Option<ResumeId>) {
        let Obj::Lan(part) = &mut self.objs[to as usize] else { unreachable!() };
        match &mut **part {
            Part::Ll(_) => self.ll_recv(to, p),
            Part::Mac(_) => self.mac_recv(to, p, h),
            Part::Phy(_) => self.phy_recv(to, p),
            Part::Replicator(_) => self.replicate(to, p),
            Part::Iface { target, .. } => {
                let t = *target;
                self.recv(t, p, None)
            }
            Part::Channel(_) | Part::Router(_) | Part::Varp(_) => self.w.pool.free(p),
        }
    }

    /// A LAN object's timer (a MAC's) expired.
    pub(crate) fn lan_timeout(&mut self, owner: ObjId, kind: u8) {
        if let Obj::Lan(part) = &self.objs[owner as usize] {
            if let Part::Mac(_) = **part {
                self.mac_timeout(owner, kind);
            }
        }
    }

    /// LAN object `id`'s part.
    pub(crate) fn lan_part(&mut self, id: ObjId) -> Option<&mut Part> {
        match self.objs.get_mut(id as usize) {
            Some(Obj::Lan(p)) => Some(p),
            _ => None,
        }
    }
}
