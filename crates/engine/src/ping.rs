//! `Agent/Ping` (apps/ping.cc): echo requests and replies, the round-trip
//! time reported to Tcl (`$agent recv from rtt`, or with `oneway` on,
//! `$agent recv from seq forward-ms back-ms`).
//!
//! The ping header (`hdr_ping`: ret, send_time, rcv_time, seq) is kept in
//! packet fields that only TCP otherwise uses, see [`PingHdr`].  Traces
//! print a ping's sequence-number column as -1, like every packet type
//! ns-2's trace does not know a sequence number of.

use crate::agent::AgentBase;
use crate::notice::{Notice, PingTimes};
use crate::packet::{Packet, PktId};
use crate::sim::Sim;

/// ns-2's `IP_BROADCAST` as the signed address field holds it.
const IP_BROADCAST: i32 = -1;

/// The ping header's fields in a packet: `ret` in `reason`, `send_time` in
/// `ts`, `rcv_time` in `ts_echo`, `seq` in `seqno` (TCP fields, which a
/// ping packet does not otherwise carry; `allocpkt` zeroes them).
pub struct PingHdr;

impl PingHdr {
    #[inline]
    pub fn ret(p: &Packet) -> bool {
        p.reason != 0
    }

    #[inline]
    fn set(p: &mut Packet, ret: bool, send_time: f64, rcv_time: f64, seq: i32) {
        p.reason = ret as i32;
        p.ts = send_time;
        p.ts_echo = rcv_time;
        p.seqno = seq;
    }
}

/// `PingAgent`'s own state.
#[derive(Clone, Debug, Default)]
pub struct Ping {
    /// The next request's sequence number.
    pub seq: i32,
    /// `$ping oneway`: report the sequence number and both one-way delays.
    pub oneway: bool,
}

impl Ping {
    /// `$ping send`: an echo request stamped with the current time.
    pub fn send(&mut self, b: &AgentBase, sim: &mut Sim) {
        let p = b.allocpkt(sim);
        let now = sim.w.s.now;
        PingHdr::set(sim.w.pool.get_mut(p), false, now, 0.0, self.seq);
        self.seq += 1;
        b.send(sim, p);
    }

    /// `$ping start-WL-brdcast`: a request to every node (meant for
    /// wireless broadcast; the packet goes wherever the node sends address
    /// -1, as in ns-2).
    pub fn broadcast(&self, b: &AgentBase, sim: &mut Sim) {
        send_broadcast(b, sim, false);
    }

    /// `PingAgent::recv`: answer a request; report a reply to Tcl.
    pub fn recv(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        let pk = sim.w.pool.get(p);
        let (ret, send_time, rcv_time, seq) = (PingHdr::ret(pk), pk.ts, pk.ts_echo, pk.seqno);
        let (daddr, saddr, sport) = (pk.daddr, pk.saddr, pk.sport);
        sim.w.pool.free(p);
        let now = sim.w.s.now;
        if daddr == IP_BROADCAST {
            sim.w.notify(Notice::PingBroadcast { agent: b.id, reply: ret, from: saddr, sport });
            if !ret {
                send_broadcast(b, sim, true);
            }
            return;
        }
        if !ret {
            let q = b.allocpkt(sim);
            PingHdr::set(sim.w.pool.get_mut(q), true, send_time, now, seq);
            b.send(sim, q);
            return;
        }
        let times = if self.oneway {
            PingTimes::OneWay { seq, there: (rcv_time - send_time) * 1000.0, back: (now - rcv_time) * 1000.0 }
        } else {
            PingTimes::RoundTrip((now - send_time) * 1000.0)
        };
        sim.w.notify(Notice::PingReply { agent: b.id, from: saddr, times });
    }
}

/// A broadcast ping (a request, or the reply to one) to address -1, to the
/// sender's own port.
fn send_broadcast(b: &AgentBase, sim: &mut Sim, ret: bool) {
    let p = b.allocpkt(sim);
    let pk = sim.w.pool.get_mut(p);
    pk.daddr = IP_BROADCAST;
    pk.dport = pk.sport;
    PingHdr::set(pk, ret, 0.0, 0.0, 0);
    b.send(sim, p);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_through_the_tcp_fields() {
        let mut p = Packet::blank();
        PingHdr::set(&mut p, true, 1.5, 2.25, 7);
        assert!(PingHdr::ret(&p));
        assert_eq!((p.ts, p.ts_echo, p.seqno), (1.5, 2.25, 7));
        PingHdr::set(&mut p, false, 0.0, 0.0, 0);
        assert!(!PingHdr::ret(&p));
    }
}
