//! A routing protocol's messages as packets: the agent a distance-vector
//! protocol sends its updates through.
//!
//! The protocol itself (its tables, peers and timers) lives in the front
//! end, which decides what to advertise; what travels is a packet of the
//! protocol's type and of the size the front end gives (one unit per entry
//! of the update), carrying the number of the message it stands for.  The
//! packet crosses links, queues and traces like any other; on arrival the
//! agent hands the message number and the sender's address back to the
//! front end (`Notice::RouteMsg`), which reads the update it stored under
//! that number.  So the updates' timing, losses and queueing are the
//! engine's, exactly, without the engine knowing any protocol.

use crate::agent::AgentBase;
use crate::notice::Notice;
use crate::packet::{Packet, PktId};
use crate::sim::Sim;

/// The message number in a packet: kept in `reason` (a field no trace
/// prints and a routing message does not otherwise carry, unlike the TCP
/// header's `ackno`, which traces of TCP headers show; `allocpkt` zeroes
/// it).
pub struct MsgHdr;

impl MsgHdr {
    #[inline]
    pub fn get(p: &Packet) -> u32 {
        p.reason as u32
    }

    #[inline]
    fn set(p: &mut Packet, msg: u32) {
        p.reason = msg as i32;
    }
}

/// Sends a message to `addr`.`port` as one packet of `size` bytes; the
/// agent's own packet size becomes `size` (as the protocol agent's `size_`
/// does in ns-2).
pub fn send(b: &mut AgentBase, sim: &mut Sim, addr: i32, port: i32, msg: u32, size: i32) {
    b.dst_addr = addr;
    b.dst_port = port;
    b.size = size;
    let p = b.allocpkt(sim);
    MsgHdr::set(sim.w.pool.get_mut(p), msg);
    b.send(sim, p);
}

/// A message arrived: report its number and its sender to the front end.
pub fn recv(b: &AgentBase, sim: &mut Sim, p: PktId) {
    let pk = sim.w.pool.get(p);
    let (from, msg) = (pk.saddr, MsgHdr::get(pk));
    sim.w.pool.free(p);
    sim.w.notify(Notice::RouteMsg { agent: b.id, from, msg });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_number_round_trips_through_the_packet() {
        let mut p = Packet::blank();
        MsgHdr::set(&mut p, 4_000_000_000);
        assert_eq!(MsgHdr::get(&p), 4_000_000_000);
        MsgHdr::set(&mut p, 7);
        assert_eq!(MsgHdr::get(&p), 7);
    }
}
