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
use crate::sched::{ObjId, TimerStatus};
use crate::sim::Sim;

/// C's `(int) x` for a double, as x86-64 computes it (`cvttsd2si`): the
/// value truncated toward zero, and `INT_MIN` when it does not fit (the
/// heavy tail of a Pareto draw can exceed `INT_MAX`).
fn c_int(x: f64) -> i32 {
    if x.is_finite() && x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// What the two sources share: bound variables, the burst's state and the
/// timer (ns-2's `TrafficGenerator` with the on/off fields).
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
    /// Time between packets in a burst (set at start).
    interval: f64,
    /// Packets left in the current burst.
    rem: u32,
    /// The gap last scheduled (`nextPkttime_`; -1 before the first).
    next_pkttime: f64,
    pub running: bool,
    pub timer: u32,
}

impl OnOff {
    fn new(timer: u32) -> OnOff {
        OnOff {
            ontime: 0.0,
            offtime: 0.0,
            rate: 0.0,
            size: 0,
            interval: 0.0,
            rem: 0,
            next_pkttime: -1.0,
            running: false,
            timer,
        }
    }

    /// `TrafficGenerator::stop`.
    fn stop(&mut self, sim: &mut Sim) {
        if self.running && sim.w.s.timer_status(self.timer) == TimerStatus::Pending {
            sim.w.s.timer_cancel(self.timer);
        }
        self.running = false;
    }
}

/// `Application/Traffic/Exponential`: exponentially distributed burst
/// lengths (in packets, rounded) and idle times, each from its own
/// `ExponentialRandomVariable` on the RNG that was the default when the
/// source was made (or the one given with `use-rng`).
#[derive(Clone, Debug)]
pub struct Expoo {
    pub o: OnOff,
    /// The RNG stream of both variables.
    pub stream: u32,
    /// Mean packets per burst (`burstlen_`'s mean, set at start).
    burstlen: f64,
}

impl Expoo {
    pub fn new(timer: u32, stream: u32) -> Expoo {
        Expoo { o: OnOff::new(timer), stream, burstlen: 0.0 }
    }

    fn draw(&self, sim: &mut Sim, avg: f64) -> f64 {
        sim.w.rng.streams[self.stream as usize].exponential_mean(avg)
    }

    fn next_interval(&mut self, sim: &mut Sim) -> f64 {
        let mut t = self.o.interval;
        if self.o.rem == 0 {
            self.o.rem = c_int(self.draw(sim, self.burstlen) + 0.5) as u32;
            if self.o.rem == 0 {
                self.o.rem = 1;
            }
            t += self.draw(sim, self.o.offtime);
        }
        self.o.rem = self.o.rem.wrapping_sub(1);
        t
    }

    /// `TrafficGenerator::start` with `EXPOO_Traffic::init`.
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        self.o.interval = ((self.o.size << 3) as f64) / self.o.rate;
        self.burstlen = self.o.ontime / self.o.interval;
        self.o.rem = 0;
        sim.set_pkttype(agent, PacketType::Exp);
        self.o.running = true;
        self.o.next_pkttime = self.next_interval(sim);
        sim.w.s.timer_resched(self.o.timer, self.o.next_pkttime);
    }

    pub fn stop(&mut self, sim: &mut Sim) {
        self.o.stop(sim);
    }

    /// `EXPOO_Traffic::timeout`: send a packet (ns-2 flags a burst's first
    /// as `NEW_BURST`, an RTP header bit no trace shows), schedule the next.
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.o.running {
            return;
        }
        sim.app_send(agent, self.o.size);
        self.o.next_pkttime = self.next_interval(sim);
        if self.o.next_pkttime > 0.0 {
            sim.w.s.timer_resched(self.o.timer, self.o.next_pkttime);
        }
    }
}

/// `Application/Traffic/Pareto`: Pareto-distributed burst lengths and idle
/// times with shape `shape_`, scaled so that their means are `burst_time_`
/// (in packets) and `idle_time_`; drawn from the default RNG at each draw,
/// or from the RNG given with `use-rng`.
#[derive(Clone, Debug)]
pub struct Poo {
    pub o: OnOff,
    /// `shape_`.
    pub shape: f64,
    /// The RNG stream of `use-rng`, if any.
    pub stream: Option<u32>,
    /// Scales of the burst and idle distributions (set at start).
    p1: f64,
    p2: f64,
}

impl Poo {
    pub fn new(timer: u32) -> Poo {
        Poo { o: OnOff::new(timer), shape: 0.0, stream: None, p1: 0.0, p2: 0.0 }
    }

    fn draw(&self, sim: &mut Sim, scale: f64) -> f64 {
        let rng = &mut sim.w.rng;
        let r = match self.stream {
            Some(s) => &mut rng.streams[s as usize],
            None => rng.default_stream(),
        };
        r.pareto(scale, self.shape)
    }

    fn next_interval(&mut self, sim: &mut Sim) -> f64 {
        let mut t = self.o.interval;
        if self.o.rem == 0 {
            self.o.rem = c_int(self.draw(sim, self.p1) + 0.5) as u32;
            if self.o.rem == 0 {
                self.o.rem = 1;
            }
            t += self.draw(sim, self.p2);
        }
        self.o.rem = self.o.rem.wrapping_sub(1);
        t
    }

    /// `TrafficGenerator::start` with `POO_Traffic::init`.
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        self.o.interval = ((self.o.size << 3) as f64) / self.o.rate;
        let burstlen = self.o.ontime / self.o.interval;
        self.o.rem = 0;
        self.p1 = burstlen * (self.shape - 1.0) / self.shape;
        self.p2 = self.o.offtime * (self.shape - 1.0) / self.shape;
        sim.set_pkttype(agent, PacketType::Pareto);
        self.o.running = true;
        self.o.next_pkttime = self.next_interval(sim);
        sim.w.s.timer_resched(self.o.timer, self.o.next_pkttime);
    }

    pub fn stop(&mut self, sim: &mut Sim) {
        self.o.stop(sim);
    }

    /// `TrafficGenerator::timeout`.
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.o.running {
            return;
        }
        sim.app_send(agent, self.o.size);
        self.o.next_pkttime = self.next_interval(sim);
        if self.o.next_pkttime > 0.0 {
            sim.w.s.timer_resched(self.o.timer, self.o.next_pkttime);
        } else {
            self.o.running = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_int_truncates_and_gives_int_min_when_out_of_range() {
        assert_eq!(c_int(2.7), 2);
        assert_eq!(c_int(-2.7), -2);
        assert_eq!(c_int(2147483647.9), 2147483647);
        assert_eq!(c_int(2147483648.0), i32::MIN);
        assert_eq!(c_int(1e300), i32::MIN);
        assert_eq!(c_int(f64::INFINITY), i32::MIN);
        assert_eq!(c_int(f64::NAN), i32::MIN);
        // as ns-2's unsigned burst counter sees it
        assert_eq!(c_int(3e9 + 0.5) as u32, 2147483648);
    }
}
