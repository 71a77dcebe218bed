//! Datagram traffic: `Agent/UDP` (apps/udp.cc), `Agent/LossMonitor`
//! (tools/loss-monitor.cc) and the constant-bit-rate source
//! `Application/Traffic/CBR` (tools/cbr_traffic.cc over the
//! `TrafficGenerator` of tools/trafgen.cc).
//!
//! UDP packets carry an RTP-style sequence number, which traces print in
//! the sequence-number column; it is kept in the packet's `seqno` field
//! (a packet is either TCP or RTP-numbered, never both).

use crate::agent::AgentBase;
use crate::packet::{PacketType, PktId};
use crate::sched::{ObjId, TimerStatus};
use crate::sim::Sim;

/// `UdpAgent`: splits each message into `packetSize_` packets.
#[derive(Clone, Debug)]
pub struct Udp {
    pub seqno: i32,
}

impl Default for Udp {
    fn default() -> Self {
        Udp { seqno: -1 }
    }
}

impl Udp {
    /// `UdpAgent::sendmsg(nbytes)`.
    pub fn sendmsg(&mut self, b: &AgentBase, sim: &mut Sim, nbytes: i32) {
        if b.size <= 0 {
            sim.w.warn(crate::notice::Warning::PacketSizeNotPositive { agent: b.id });
            return;
        }
        if nbytes == -1 {
            sim.w.c_stdout.extend_from_slice(b"Error:  sendmsg() for UDP should not be -1\n");
            return;
        }
        let mut n = nbytes / b.size;
        while n > 0 {
            n -= 1;
            self.send_one(b, sim, b.size);
        }
        let rest = nbytes % b.size;
        if rest > 0 {
            self.send_one(b, sim, rest);
        }
        b.idle(sim);
    }

    fn send_one(&mut self, b: &AgentBase, sim: &mut Sim, size: i32) {
        let p = b.allocpkt(sim);
        self.seqno += 1;
        {
            let pk = sim.w.pool.get_mut(p);
            pk.size = size;
            pk.seqno = self.seqno;
            pk.rtp = true;
        }
        b.send(sim, p);
    }

    /// `UdpAgent::recv`: datagrams carry no application data here; the
    /// packet is consumed.
    pub fn recv(&mut self, sim: &mut Sim, p: PktId) {
        sim.w.pool.free(p);
    }
}

/// `LossMonitor`: counts packets, bytes and gaps in their sequence numbers.
#[derive(Clone, Debug)]
pub struct LossMonitor {
    pub nlost: i32,
    pub npkts: i32,
    pub bytes: i32,
    pub last_packet_time: f64,
    pub expected: i32,
    pub seqno: i32,
}

impl Default for LossMonitor {
    fn default() -> Self {
        LossMonitor { nlost: 0, npkts: 0, bytes: 0, last_packet_time: 0.0, expected: -1, seqno: 0 }
    }
}

impl LossMonitor {
    pub fn recv(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        let (seqno, size) = {
            let pk = sim.w.pool.get(p);
            (pk.seqno, pk.size)
        };
        self.seqno = seqno;
        self.bytes = self.bytes.wrapping_add(size);
        self.npkts += 1;
        if self.expected >= 0 {
            let loss = self.seqno - self.expected;
            if loss > 0 {
                self.nlost += loss;
                sim.w.notify(crate::notice::Notice::Loss { agent: b.id });
            }
        }
        self.last_packet_time = sim.w.s.now;
        self.expected = self.seqno + 1;
        sim.w.pool.free(p);
    }
}

/// `CBR_Traffic`: one packet of `packetSize_` bytes every
/// `packetSize_ * 8 / rate_` seconds, optionally jittered by up to half an
/// interval (`random_`), for at most `maxpkts_` packets.
#[derive(Clone, Debug)]
pub struct Cbr {
    pub rate: f64,
    pub random: f64,
    pub size: i32,
    pub maxpkts: i32,
    pub seqno: i32,
    pub running: bool,
    pub timer: u32,
}

impl Cbr {
    pub fn new(timer: u32) -> Cbr {
        Cbr { rate: 448e3, random: 0.0, size: 210, maxpkts: 268435456, seqno: 0, running: false, timer }
    }

    /// The nominal time between packets: `packetSize_` bits at `rate_`.
    pub fn interval(&self) -> f64 {
        ((self.size << 3) as f64) / self.rate
    }

    fn next_interval(&mut self, sim: &mut Sim) -> f64 {
        let interval = self.interval();
        let mut t = interval;
        if self.random != 0.0 {
            t += interval * sim.w.rng.default_stream().uniform_range(-0.5, 0.5);
        }
        self.seqno += 1;
        if self.seqno < self.maxpkts {
            t
        } else {
            -1.0
        }
    }

    /// `CBR_Traffic::start`: send the first packet now.
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        // `CBR_Traffic::init`: an agent under it sends `cbr` packets, but
        // for TCP's and TFRC's
        if sim.agent_mut(agent).is_some_and(|a| !matches!(a.base.ptype, PacketType::Tcp | PacketType::Tfrc)) {
            sim.set_pkttype(agent, PacketType::Cbr);
        }
        if self.rate == 0.0 || !self.rate.is_finite() {
            // ns-2 divides by it (a floating-point exception)
            sim.w.abort(crate::notice::Abort::SourceRate { agent, rate: self.rate });
            return;
        }
        self.running = true;
        self.timeout(sim, agent);
    }

    /// `TrafficGenerator::stop`.
    pub fn stop(&mut self, sim: &mut Sim) {
        stop_source(sim, &mut self.running, self.timer);
    }

    /// `TrafficGenerator::timeout`: send one packet, schedule the next.
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.running {
            return;
        }
        let size = self.size;
        sim.app_send(agent, size);
        let next = self.next_interval(sim);
        if next > 0.0 {
            sim.w.s.timer_resched(self.timer, next);
        } else {
            self.running = false;
        }
    }
}

/// `TrafficGenerator::stop` of a timer-driven source: cancel its pending
/// timer, if it is running, and stop.
pub(crate) fn stop_source(sim: &mut Sim, running: &mut bool, timer: u32) {
    if *running && sim.w.s.timer_status(timer) == TimerStatus::Pending {
        sim.w.s.timer_cancel(timer);
    }
    *running = false;
}

impl Sim {
    /// `Agent::set_pkttype`: the type of the agent's packets from now on.
    pub(crate) fn set_pkttype(&mut self, agent: ObjId, t: PacketType) {
        if let Some(a) = self.agent_mut(agent) {
            a.base.ptype = t;
        }
    }

    /// `Application::send`: `agent_->sendmsg(nbytes)`.
    pub fn app_send(&mut self, agent: ObjId, nbytes: i32) {
        if self.agent_mut(agent).is_none() {
            return;
        }
        let mut o = self.take(agent);
        if let crate::sim::Obj::Agent(a) = &mut o {
            let crate::agent::Agent { base, kind } = &mut **a;
            match kind {
                crate::agent::AgentKind::Udp(u) => u.sendmsg(base, self, nbytes),
                crate::agent::AgentKind::Tcp(t) => t.sendmsg(base, self, nbytes),
                crate::agent::AgentKind::TfrcSender(t) => t.sendmsg(base, self, nbytes),
                _ => {}
            }
        }
        self.put(agent, o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbr_interval_follows_rate_and_size() {
        let mut c = Cbr::new(0);
        c.rate = 8000.0;
        c.size = 100;
        assert_eq!(c.interval(), 0.1);
        c.size = 210;
        c.rate = 448e3;
        assert_eq!(c.interval(), 210.0 * 8.0 / 448e3);
    }
}
