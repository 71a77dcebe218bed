//! `Agent/PBC` (apps/pbc.cc): a periodic broadcaster for wireless nodes.
//! It sends a payload of a set size to every node (a single broadcast, or
//! one every `interval` give or take `variance`, uniformly drawn), or to
//! one link-layer address, with no ARP (ns-2's `NS_AF_ILINK`: the address
//! is the MAC's).  What it receives it frees.
//!
//! The modulation scheme a packet carries is read only by the extended
//! MAC and radio (Mac/802_11Ext, Phy/WirelessPhyExt).

use crate::agent::AgentBase;
use crate::sched::TimerStatus;
use crate::sim::Sim;

/// ns-2's `IP_BROADCAST` as the signed address field holds it.
const IP_BROADCAST: i32 = -1;

/// `PBCAgent`'s state and `PBCTimer`'s.
#[derive(Clone, Debug)]
pub struct Pbc {
    /// `payloadSize`: the size of what it sends (bytes).
    pub payload: i32,
    /// `periodicBroadcastInterval` and `periodicBroadcastVariance` (s), as
    /// bound: read when periodic broadcasting starts.
    pub interval: f64,
    pub variance: f64,
    /// `modulationScheme` (0 BPSK, 1 QPSK, 2 QAM16, 3 QAM64; another value
    /// is sent as BPSK).
    pub modulation: i32,
    /// `periodicBroadcast`: whether a broadcast schedules the next.
    pub periodic: bool,
    /// The timer's own copies of the period and variance, taken at start.
    period: f64,
    spread: f64,
    /// The timer (`PBCTimer`; `started` is its being pending).
    pub timer: u32,
}

impl Pbc {
    /// ns-2's defaults (ns-default.tcl), with the agent's timer.
    pub fn new(timer: u32) -> Pbc {
        Pbc { payload: 200, interval: 1.0, variance: 0.1, modulation: 0, periodic: false, period: 1.0, spread: 0.0, timer }
    }

    /// The scheme a packet is stamped with (pbc.cc's switch).
    pub fn scheme(&self) -> u8 {
        if (0..=3).contains(&self.modulation) {
            self.modulation as u8
        } else {
            0
        }
    }

    /// `singleBroadcast`: one packet to every node, at the agent's own port.
    pub fn broadcast(&self, b: &AgentBase, sim: &mut Sim) {
        self.send_to(b, sim, IP_BROADCAST);
    }

    /// `unicast ADDR`: one packet to link-layer address `addr`.
    pub fn unicast(&self, b: &AgentBase, sim: &mut Sim, addr: i32) {
        self.send_to(b, sim, addr);
    }

    fn send_to(&self, b: &AgentBase, sim: &mut Sim, dst: i32) {
        let p = b.allocpkt(sim);
        let pk = sim.w.pool.get_mut(p);
        pk.size = self.payload;
        pk.daddr = dst;
        pk.dport = b.port;
        sim.w.pool.wl_hdr_mut(p).modulation = self.scheme();
        // (the send time of pbc's header, which nothing reads, is not kept)
        b.send(sim, p);
    }

    /// `PeriodicBroadcast ON`: start the timer (unless it runs) after a
    /// uniform draw within the interval.
    pub fn start(&mut self, sim: &mut Sim) {
        self.periodic = true;
        if sim.w.s.timer_status(self.timer) == TimerStatus::Pending {
            return;
        }
        self.spread = self.variance;
        self.period = self.interval;
        let offset = sim.w.rng.default_stream().uniform_range(0.0, self.period);
        sim.w.s.timer_resched(self.timer, offset);
    }

    /// `PeriodicBroadcast OFF` (`periodic` off too) and `stop` (left on).
    pub fn stop(&mut self, sim: &mut Sim, periodic: bool) {
        self.periodic = periodic;
        sim.w.s.timer_cancel(self.timer);
    }

    /// The timer: broadcast, and while periodic, the next one
    /// `period - variance + uniform(2 variance)` later (0 if that is
    /// below 0).
    pub fn timeout(&mut self, b: &AgentBase, sim: &mut Sim) {
        self.broadcast(b, sim);
        if self.periodic {
            let t = self.period - self.spread + sim.w.rng.default_stream().uniform(self.spread * 2.0);
            sim.w.s.timer_resched(self.timer, if t > 0.0 { t } else { 0.0 });
        }
    }
}
