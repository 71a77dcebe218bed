//! A LAN's medium: the wired interface (mac/wired-phy.cc), the channel
//! that hands every other interface a copy of a frame after its delay
//! (mac/channel.cc), and the abstract LAN's replicator, which copies a
//! frame to every MAC at once (mcast/replicator.cc with `direction_` on).

use crate::packet::{Direction, PktId};
use crate::sched::{Ev, ObjId};
use crate::sim::{Sim, NONE};

use super::Part;

/// A wired interface.
#[derive(Debug, Clone)]
pub struct Phy {
    /// Its node's number (-1 until given): a channel skips the sender's
    /// node.
    pub node: i32,
    pub channel: ObjId,
    /// Its MAC.
    pub up_target: ObjId,
    /// Bits per second: the MAC's transmission times.
    pub bandwidth: f64,
}

impl Default for Phy {
    fn default() -> Self {
        Phy { node: -1, channel: NONE, up_target: NONE, bandwidth: 10e6 }
    }
}

/// A channel: its interfaces, in ns-2's list order (each added at the
/// head), and its delay.
#[derive(Debug, Clone, Default)]
pub struct Channel {
    pub delay: f64,
    pub ifaces: Vec<ObjId>,
}

impl Channel {
    /// Interface `phy` joins (at the head of the list, as ns-2 inserts).
    pub fn add(&mut self, phy: ObjId) {
        self.ifaces.insert(0, phy);
    }
}

/// The abstract LAN's replicator: each frame, turned upwards, to every
/// slot (copies to all but the last, which takes the frame itself).
#[derive(Debug, Clone, Default)]
pub struct Replicator {
    pub slots: Vec<ObjId>,
    /// Turn a frame going down upwards.
    pub direction: bool,
}

impl Sim {
    /// `Phy::recv`: a frame going down goes on the channel; any other up
    /// to the MAC.
    pub(crate) fn phy_recv(&mut self, id: ObjId, p: PktId) {
        let Some(Part::Phy(phy)) = self.lan_part(id) else { unreachable!() };
        let (node, channel, up) = (phy.node, phy.channel, phy.up_target);
        if self.w.pool.lan_hdr(p).dir == Direction::Down {
            self.channel_send(channel, node, p);
        } else {
            self.recv(up, p, None);
        }
    }

    /// `Channel::sendUp`: every interface of the channel but those of the
    /// sending node `from` gets its own copy of `p`, after the channel's
    /// delay, in the list's order.
    fn channel_send(&mut self, channel: ObjId, from: i32, p: PktId) {
        let mut h = self.w.pool.lan_hdr(p);
        h.dir = Direction::Up;
        self.w.pool.set_lan_hdr(p, h);
        let n = match self.lan_part(channel) {
            Some(Part::Channel(c)) => c.ifaces.len(),
            _ => 0,
        };
        for i in 0..n {
            let Some(Part::Channel(c)) = self.lan_part(channel) else { unreachable!() };
            let (rphy, delay) = (c.ifaces[i], c.delay);
            let rnode = match self.lan_part(rphy) {
                Some(Part::Phy(r)) => r.node,
                _ => continue,
            };
            if rnode == from {
                continue;
            }
            let q = self.w.pool.copy(p);
            self.w.s.schedule(delay, Ev::Deliver(rphy, q));
        }
        self.w.pool.free(p);
    }

    /// `Replicator::recv`.
    pub(crate) fn replicate(&mut self, id: ObjId, p: PktId) {
        let Some(Part::Replicator(r)) = self.lan_part(id) else { unreachable!() };
        let (n, direction) = (r.slots.len(), r.direction);
        if n == 0 {
            self.w.pool.free(p);
            return;
        }
        let mut h = self.w.pool.lan_hdr(p);
        if direction && h.dir == Direction::Down {
            h.dir = Direction::Up;
            self.w.pool.set_lan_hdr(p, h);
        }
        for i in 0..n - 1 {
            let Some(Part::Replicator(r)) = self.lan_part(id) else { unreachable!() };
            let to = r.slots[i];
            let q = self.w.pool.copy(p);
            self.recv(to, q, None);
        }
        let Some(Part::Replicator(r)) = self.lan_part(id) else { unreachable!() };
        let last = r.slots[n - 1];
        self.recv(last, p, None);
    }
}
