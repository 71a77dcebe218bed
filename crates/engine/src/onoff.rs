//! On/off traffic sources: `Application/Traffic/Exponential` and
//! `Application/Traffic/Pareto` (ns-2's tools/expoo.cc and tools/pareto.cc).
//!
//! During a burst a source sends `packetSize_`-byte packets at `rate_`; the
//! number of packets in a burst and the idle time after it are drawn when a
//! burst begins, so the gap before a burst's first packet is one packet
//! interval plus the idle time.  Both start one such gap after `start` (not
//! at once, unlike CBR), and their agent's packets are typed `exp` or
//! `pareto` in traces.

use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::Sim;
use crate::num::c_int;

/// An on/off source: ns-2's `TrafficGenerator` with the on/off fields of
/// `EXPOO_Traffic` and `POO_Traffic`, which differ only in their
/// distributions ([`Dist`]).
#[derive(Clone, Debug)]
pub struct OnOff {
    /// `burst_time_`: mean burst length (seconds).
    pub ontime: f64,
    /// `idle_time_`: mean idle time (seconds).
    pub offtime: f64,
    /// `rate_`: sending rate during a burst (bits per second).
    pub rate: f64,
    /// `packetSize_` (bytes).
    pub size: i32,
    pub dist: Dist,
    /// Time between packets in a burst (set at start).
    interval: f64,
    /// Packets left in the current burst.
    rem: u32,
    /// The gap last scheduled (`nextPkttime_`; -1 before the first).
    next_pkttime: f64,
    pub running: bool,
    pub timer: u32,
}

/// How bursts and idle times are drawn.
#[derive(Clone, Debug)]
pub enum Dist {
    /// `Application/Traffic/Exponential`: exponential burst lengths (in
    /// packets, rounded) and idle times, each from an
    /// `ExponentialRandomVariable` on the RNG that was the default when
    /// the source was made (or the one given with `use-rng`).
    Exponential {
        stream: u32,
        /// Mean packets per burst (set at start).
        burstlen: f64,
    },
    /// `Application/Traffic/Pareto`: Pareto burst lengths and idle times of
    /// shape `shape_`, scaled so that their means are `burst_time_` (in
    /// packets) and `idle_time_`; from the default RNG at each draw, or the
    /// RNG given with `use-rng`.
    Pareto {
        shape: f64,
        stream: Option<u32>,
        /// Scales of the burst and idle distributions (set at start).
        p1: f64,
        p2: f64,
    },
}

impl OnOff {
    pub fn exponential(timer: u32, stream: u32) -> OnOff {
        OnOff::new(timer, Dist::Exponential { stream, burstlen: 0.0 })
    }

    pub fn pareto(timer: u32) -> OnOff {
        OnOff::new(timer, Dist::Pareto { shape: 0.0, stream: None, p1: 0.0, p2: 0.0 })
    }

    fn new(timer: u32, dist: Dist) -> OnOff {
        OnOff { ontime: 0.0, offtime: 0.0, rate: 0.0, size: 0, dist, interval: 0.0, rem: 0, next_pkttime: -1.0, running: false, timer }
    }

    /// `use-rng`: draw from RNG stream `stream` from now on.
    pub fn use_rng(&mut self, rng: u32) {
        match &mut self.dist {
            Dist::Exponential { stream, .. } => *stream = rng,
            Dist::Pareto { stream, .. } => *stream = Some(rng),
        }
    }

    /// A new burst's length in packets and the idle time before it.
    fn draw_burst(&self, sim: &mut Sim) -> (f64, f64) {
        let rng = &mut sim.w.rng;
        match self.dist {
            Dist::Exponential { stream, burstlen } => {
                let r = &mut rng.streams[stream as usize];
                let n = r.exponential_mean(burstlen);
                (n, r.exponential_mean(self.offtime))
            }
            Dist::Pareto { shape, stream, p1, p2 } => {
                let r = match stream {
                    Some(s) => &mut rng.streams[s as usize],
                    None => rng.default_stream(),
                };
                let n = r.pareto(p1, shape);
                (n, r.pareto(p2, shape))
            }
        }
    }

    /// `next_interval`: one packet interval, and at a burst's start the
    /// idle time before it.
    fn next_interval(&mut self, sim: &mut Sim) -> f64 {
        let mut t = self.interval;
        if self.rem == 0 {
            let (burst, idle) = self.draw_burst(sim);
            self.rem = c_int(burst + 0.5) as u32;
            if self.rem == 0 {
                self.rem = 1;
            }
            t += idle;
        }
        self.rem = self.rem.wrapping_sub(1);
        t
    }

    /// `TrafficGenerator::start` with the source's `init`.
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        if self.rate == 0.0 || !self.rate.is_finite() {
            // ns-2 divides by it (a floating-point exception)
            sim.w.abort(crate::notice::Abort::SourceRate { agent, rate: self.rate });
        }
        self.interval = ((self.size << 3) as f64) / self.rate;
        self.rem = 0;
        let ptype = match &mut self.dist {
            Dist::Exponential { burstlen, .. } => {
                *burstlen = self.ontime / self.interval;
                PacketType::Exp
            }
            Dist::Pareto { shape, p1, p2, .. } => {
                let burstlen = self.ontime / self.interval;
                *p1 = burstlen * (*shape - 1.0) / *shape;
                *p2 = self.offtime * (*shape - 1.0) / *shape;
                PacketType::Pareto
            }
        };
        sim.set_pkttype(agent, ptype);
        self.running = true;
        self.next_pkttime = self.next_interval(sim);
        sim.w.s.timer_resched(self.timer, self.next_pkttime);
    }

    /// `TrafficGenerator::stop`.
    pub fn stop(&mut self, sim: &mut Sim) {
        crate::udp::stop_source(sim, &mut self.running, self.timer);
    }

    /// `timeout`: send a packet, schedule the next.  (The exponential
    /// source flags a burst's first packet `NEW_BURST`, an RTP header bit
    /// no trace shows; unlike `TrafficGenerator::timeout` it stays running
    /// when no next packet comes.)
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.running {
            return;
        }
        sim.app_send(agent, self.size);
        self.next_pkttime = self.next_interval(sim);
        if self.next_pkttime > 0.0 {
            sim.w.s.timer_resched(self.timer, self.next_pkttime);
        } else if matches!(self.dist, Dist::Pareto { .. }) {
            self.running = false;
        }
    }
}

