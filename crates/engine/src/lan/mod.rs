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
pub mod snoop;

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
    /// A network interface: packets pass on to its target, their
    /// direction cleared.
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
                // (ns-2's interface clears the direction: a packet that
                // crossed an abstract LAN, which has none, still says up)
                let t = *target;
                let mut hd = self.w.pool.lan_hdr(p);
                if hd.dir != crate::packet::Direction::None {
                    hd.dir = crate::packet::Direction::None;
                    self.w.pool.set_lan_hdr(p, hd);
                }
                self.recv(t, p, None)
            }
            Part::Channel(_) | Part::Router(_) | Part::Varp(_) => self.w.pool.free(p),
        }
    }

    /// A LAN object's timer (a MAC's) expired.
    pub(crate) fn lan_timeout(&mut self, owner: ObjId, kind: u8) {
        if let Obj::Lan(part) = &self.objs[owner as usize] {
            match **part {
                Part::Mac(_) => self.mac_timeout(owner, kind),
                // (a snoop agent's retransmission timer)
                Part::Ll(_) => self.snoop_timeout(owner, kind),
                _ => {}
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

#[cfg(test)]
mod tests {
    use crate::packet::{Direction, LanHdr, PacketType};
    use crate::sched::ObjId;
    use crate::sim::Sim;

    /// Two 802.3 interfaces on one channel (10 Mb/s, 4 us), each MAC's
    /// frames for it counted by a loss monitor, its collisions (traced
    /// drops) by another.  (mac, monitor, collisions) per node.
    fn ether_pair(sim: &mut Sim) -> Vec<(ObjId, ObjId, ObjId)> {
        let ch = sim.create("ch", "Channel").unwrap();
        // (objects made here get no class defaults: the library sets those)
        sim.set_var(ch, "delay_", "4us").unwrap();
        let mut out = Vec::new();
        for i in 0..2 {
            let node = sim.create(&format!("n{i}"), "Node").unwrap();
            sim.command(node, &["nodeid", &i.to_string()]).unwrap();
            let mac = sim.create(&format!("mac{i}"), "Mac/802_3").unwrap();
            let phy = sim.create(&format!("phy{i}"), "Phy/WiredPhy").unwrap();
            let mon = sim.create(&format!("mon{i}"), "Agent/LossMonitor").unwrap();
            let col = sim.create(&format!("col{i}"), "Agent/LossMonitor").unwrap();
            sim.set_var(mac, "trace_", "true").unwrap();
            sim.command(phy, &["node", &format!("n{i}")]).unwrap();
            sim.command(ch, &["addif", &format!("phy{i}")]).unwrap();
            sim.command(phy, &["up-target", &format!("mac{i}")]).unwrap();
            sim.command(mac, &["netif", &format!("phy{i}")]).unwrap();
            sim.command(mac, &["down-target", &format!("phy{i}")]).unwrap();
            sim.command(mac, &["up-target", &format!("mon{i}")]).unwrap();
            sim.command(mac, &["drop-target", &format!("col{i}")]).unwrap();
            out.push((mac, mon, col));
        }
        out
    }

    /// A 100-byte frame from MAC `from` to MAC address `to`, handed to
    /// the MAC now (as its link layer would).
    fn send(sim: &mut Sim, from: ObjId, to: i32, uid: i32) {
        let p = sim.w.pool.alloc();
        let pk = sim.w.pool.get_mut(p);
        *pk = crate::packet::Packet::blank();
        pk.size = 100;
        pk.uid = uid;
        pk.ptype = PacketType::Cbr;
        sim.w.pool.set_lan_hdr(p, LanHdr { da: to, sa: -1, padding: 0, dir: Direction::Down });
        sim.recv(from, p, None);
    }

    fn get(sim: &mut Sim, id: ObjId, var: &str) -> String {
        sim.get_var(id, var).unwrap()
    }

    #[test]
    fn a_frame_arrives_after_delay_and_transmission_without_its_header() {
        let mut sim = Sim::new();
        let n = ether_pair(&mut sim);
        let addr1: i32 = sim.command(n[1].0, &["id"]).unwrap().parse().unwrap();
        send(&mut sim, n[0].0, addr1, 1);
        sim.run();
        assert_eq!(get(&mut sim, n[1].1, "npkts_"), "1");
        assert_eq!(get(&mut sim, n[1].1, "bytes_"), "100");
        // 4 us on the channel, then 114 bytes (the Ethernet header) at 10 Mb/s
        let t: f64 = get(&mut sim, n[1].1, "lastPktTime_").parse().unwrap();
        assert!((t - (4e-6 + 114.0 * 8.0 / 10e6)).abs() < 1e-12, "{t}");
        // the sender hears nothing of its own frame, and nothing collided
        assert_eq!(get(&mut sim, n[0].1, "npkts_"), "0");
        assert_eq!(get(&mut sim, n[0].2, "npkts_"), "0");
        assert_eq!(sim.live_packets(), 0);
    }

    #[test]
    fn a_frame_for_another_address_is_not_passed_up() {
        let mut sim = Sim::new();
        let n = ether_pair(&mut sim);
        send(&mut sim, n[0].0, 77, 1);
        sim.run();
        assert_eq!(get(&mut sim, n[1].1, "npkts_"), "0");
        assert_eq!(sim.live_packets(), 0);
    }

    #[test]
    fn simultaneous_senders_collide_back_off_and_each_frame_arrives_once() {
        let mut sim = Sim::new();
        let n = ether_pair(&mut sim);
        let a0: i32 = sim.command(n[0].0, &["id"]).unwrap().parse().unwrap();
        let a1: i32 = sim.command(n[1].0, &["id"]).unwrap().parse().unwrap();
        send(&mut sim, n[0].0, a1, 1);
        send(&mut sim, n[1].0, a0, 2);
        sim.run();
        for (_, mon, col) in &n {
            assert_eq!(get(&mut sim, *mon, "npkts_"), "1");
            // each saw the other's frame while sending: at least one collision
            let c: i32 = get(&mut sim, *col, "npkts_").parse().unwrap();
            assert!(c >= 1, "collisions {c}");
        }
        assert_eq!(sim.live_packets(), 0);
    }
}
