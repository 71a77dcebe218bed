//! A LAN interface's link layer (mac/ll.cc), the LAN's router (which
//! member is the next hop, mac/lanRouter.cc) and its address table (the
//! MAC address of each member, without ARP: mac/varp.cc).

use crate::packet::{Direction, PktId};
use crate::sched::{Ev, ObjId};
use crate::sim::{Obj, Sim, NONE};

use super::Part;

/// The broadcast MAC address.
pub const BROADCAST: i32 = -1;

/// A link layer.
#[derive(Debug, Clone)]
pub struct Ll {
    /// Its delay, each way.
    pub delay: f64,
    /// The MAC address a packet gets when the LAN has no route for it.
    pub default_da: i32,
    /// Its MAC's address (`NONE`-like -1 until the MAC is given).
    pub mac_addr: i32,
    /// Its LAN's router (`NONE`: none).
    pub router: ObjId,
    /// Its LAN's address table (`NONE`: none, the next hop's node
    /// number is its MAC address).
    pub varp: ObjId,
    pub up_target: ObjId,
    pub down_target: ObjId,
    pub drop_target: ObjId,
    /// Its interface queue (`$ll ifq`), which only snoop looks at.
    pub ifq: ObjId,
    /// A snoop link layer's agents (`LL/LLSnoop`).
    pub snoop: Option<Box<super::snoop::Snoops>>,
}

impl Default for Ll {
    fn default() -> Self {
        Ll { delay: 0.0, default_da: 0, mac_addr: -1, router: NONE, varp: NONE, up_target: NONE, down_target: NONE, drop_target: NONE, ifq: NONE, snoop: None }
    }
}

/// A LAN's router: the LAN's node in the routing graph, whose routes name
/// the member a packet leaves the LAN by.
#[derive(Debug, Clone, Copy)]
pub struct Router {
    /// The LAN's node number (-1 until given).
    pub lan: i32,
}

/// A LAN's table of MAC addresses by node number (-1: none).
#[derive(Debug, Clone, Default)]
pub struct Varp {
    pub addrs: Vec<i32>,
}

impl Varp {
    /// Node `node`'s interface has MAC address `mac`.
    pub fn insert(&mut self, node: i32, mac: i32) {
        if node < 0 {
            return;
        }
        let i = node as usize;
        if i >= self.addrs.len() {
            self.addrs.resize(i + 1, -1);
        }
        self.addrs[i] = mac;
    }

    /// The MAC address of node `node`'s interface, if known.
    pub fn resolve(&self, node: i32) -> Option<i32> {
        match self.addrs.get(usize::try_from(node).ok()?) {
            Some(&m) if m >= 0 => Some(m),
            _ => None,
        }
    }
}

impl Sim {
    fn ll(&mut self, id: ObjId) -> &mut Ll {
        match self.lan_part(id) {
            Some(Part::Ll(l)) => l,
            _ => unreachable!("not a link layer"),
        }
    }

    /// `LL::recv`: a packet coming up (from the MAC) goes on to the node
    /// after the delay; any other goes down: its MAC addresses are filled
    /// in and it goes to the interface queue after the delay.
    pub(crate) fn ll_recv(&mut self, id: ObjId, p: PktId) {
        let l = self.ll(id);
        if l.snoop.is_some() {
            return self.snoop_recv(id, p);
        }
        let (up_target, drop_target, delay) = (l.up_target, l.drop_target, l.delay);
        let mut h = self.w.pool.lan_hdr(p);
        if h.dir == Direction::Up {
            let to = if up_target != NONE { up_target } else { drop_target };
            self.w.s.schedule(delay, Ev::Deliver(to, p));
            return;
        }
        h.dir = Direction::Down;
        self.w.pool.set_lan_hdr(p, h);
        self.ll_send_down(id, p)
    }

    /// `LL::sendDown`: the packet's MAC addresses filled in, it goes to
    /// the interface queue after the delay.
    pub(crate) fn ll_send_down(&mut self, id: ObjId, p: PktId) {
        let l = self.ll(id);
        let l = Ll { snoop: None, ..*l };
        let mut h = self.w.pool.lan_hdr(p);
        h.sa = l.mac_addr;
        let dst = self.w.pool.get(p).daddr;
        let mut resolved = true;
        if dst == BROADCAST {
            h.da = BROADCAST;
        } else {
            let lan = match self.lan_part(l.router) {
                Some(Part::Router(r)) => r.lan,
                _ => -1,
            };
            let nh = if lan >= 0 { self.w.routing.next_hop(lan, dst).unwrap_or(-1) } else { -1 };
            if nh < 0 {
                h.da = l.default_da;
            } else if let Some(Part::Varp(v)) = self.lan_part(l.varp) {
                match v.resolve(nh) {
                    Some(m) => h.da = m,
                    None => resolved = false,
                }
            } else {
                h.da = nh;
            }
        }
        self.w.pool.set_lan_hdr(p, h);
        if !resolved {
            // ns-2 keeps the packet nowhere (it is lost).
            self.w.pool.free(p);
            return;
        }
        self.w.s.schedule(l.delay, Ev::Deliver(l.down_target, p));
    }

    /// A new link layer object.
    pub fn new_ll() -> Obj {
        Obj::Lan(Box::new(Part::Ll(Ll::default())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varp_resolves_only_known_nodes() {
        let mut v = Varp::default();
        v.insert(3, 7);
        assert_eq!(v.resolve(3), Some(7));
        assert_eq!(v.resolve(2), None);
        assert_eq!(v.resolve(4), None);
        assert_eq!(v.resolve(-1), None);
    }
}
