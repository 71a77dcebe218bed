//! VoIP calls as a birth-death process (seed 003, Misra & Ott, section
//! IV.A): calls arrive as a Poisson process of rate `lambda` (calls/s) and
//! each lasts an exponential holding time of mean `holding` (s); while it
//! lasts, a call is an exponential on/off voice source (ITU P.59's mean
//! talk spurt 1.008 s and silence 1.587 s) sending a `size`-byte packet
//! every `interval` while on (80 B of G.711 voice and a 40 B header every
//! 10 ms: 96 kb/s peak).  All calls send through one agent, so their
//! packets carry the agent's flow id.  Calls start and end inside the
//! engine: one timer for the whole process, no script call-back per call.
//!
//! A talk spurt is drawn as ns-2's exponential on/off source draws a burst
//! (tools/expoo.cc): `round(Exp(on / interval))` packets (at least one),
//! one every `interval`, then a silence of `Exp(off)` after the last
//! packet's interval.  The mean number of calls is `lambda * holding`
//! (M/M/inf), the fraction of a call's time in talk spurts
//! `on / (on + off)`, its mean rate `size * 8 / interval` times that.
//!
//! Not specified by the paper, chosen here: a call starts in the on/off
//! process's stationary state (talking with probability `on / (on +
//! off)`, for an exponential remainder, else silent), so the mean rate
//! holds from a call's first second; and with `stationary_start` the
//! process starts at time 0 with a Poisson(`lambda * holding`) number of
//! calls already up (the birth-death process's stationary distribution,
//! each with an exponential remaining holding time), so a run needs no
//! warm-up of several holding times.  At most `max_calls` calls are up at
//! once; arrivals beyond that are blocked (counted).
//!
//! Every draw is from the source's own copy of an RNG stream (the default
//! RNG when the source was made, or the one given with `use-rng`) taken
//! at `start` and moved to that stream's next substream (MRG32k3a's jump
//! of 2^76 draws, ns-2's `next-substream`).  So the seed fixes the calls;
//! the stream itself is not drawn from, so adding calls does not change
//! the draws of RED or other sources; and the first draws after a small
//! raw seed, which are biased in ns-2's generator (the first 200 unit
//! exponentials after `$defaultRNG seed 1` .. `40` average 1.05, in
//! ns-2 2.35 as here; 200 expected calls came out as 190 on average),
//! are not used.  Calls
//! live in a slab and their next events are keyed by (time, arrival
//! order), both grown to the number of calls up and reused: no
//! allocation per packet or per call once warmed up.  A packet inside a
//! talk spurt is due one `interval` after the event that sends the one
//! before it, so those events come in the order they are made: they
//! wait in a FIFO (`spurt`), and only the others (a spurt's first packet,
//! a call's end) in a binary heap.  The next event is the least key of
//! the two, so the order is exactly one heap's, at a fraction of the cost
//! (most events are packets within spurts: 78 of 200 calls talk at once,
//! 100 packets a second each).

use crate::rng::Rng;
use crate::sched::ObjId;
use crate::sim::Sim;

/// The paper's voice source: mean talk spurt, silence (s), bytes per
/// packet on the wire, interval (s).
pub const P59_ON: f64 = 1.008;
pub const P59_OFF: f64 = 1.587;
pub const G711_PACKET: i32 = 120;
pub const G711_INTERVAL: f64 = 0.010;

/// One call: when it ends, its next packet, the packets left in its spurt.
#[derive(Clone, Copy, Debug)]
struct Call {
    end: f64,
    next: f64,
    /// Packets left in the current talk spurt; 0: the next event starts one.
    rem: u32,
}

/// What the process counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VoipStats {
    /// Calls begun (with those up at time 0) and ended.
    pub started: u64,
    pub ended: u64,
    /// Arrivals refused because `max_calls` were up.
    pub blocked: u64,
    pub packets: u64,
    /// Calls up now.
    pub active: u32,
    /// The integral of the number of calls up over time (call-seconds),
    /// from the start to the last event.
    pub call_seconds: f64,
    /// The time from the start to the last event.
    pub elapsed: f64,
}

impl VoipStats {
    /// The time-average number of calls up.
    pub fn mean_calls(&self) -> f64 {
        if self.elapsed > 0.0 {
            self.call_seconds / self.elapsed
        } else {
            self.active as f64
        }
    }
}

/// The process's parameters and state.
#[derive(Clone, Debug)]
pub struct VoipCalls {
    /// Call arrival rate (calls/s).
    pub lambda: f64,
    /// Mean holding time (s).
    pub holding: f64,
    /// Mean talk spurt and silence (s).
    pub ontime: f64,
    pub offtime: f64,
    /// Bytes per packet, time between packets in a spurt (s).
    pub size: i32,
    pub interval: f64,
    pub stationary_start: bool,
    pub max_calls: u32,
    /// The RNG stream whose next substream the draws come from.
    pub stream: u32,
    /// The copy drawn from (made at start).
    rng: Option<Box<Rng>>,
    pub timer: u32,
    pub running: bool,
    calls: Vec<Call>,
    free: Vec<u32>,
    /// (time, order, call) of each call's next event; a min-heap.
    heap: Vec<(f64, u64, u32)>,
    /// The same for the next packets of talk spurts under way, in key
    /// order (see the module's comment).
    spurt: std::collections::VecDeque<(f64, u64, u32)>,
    order: u64,
    next_arrival: f64,
    /// The event time the timer was set for.
    armed: f64,
    start_time: f64,
    last_change: f64,
    pub stats: VoipStats,
}

impl VoipCalls {
    pub fn new(timer: u32, stream: u32) -> VoipCalls {
        VoipCalls {
            lambda: 2.0,
            holding: 100.0,
            ontime: P59_ON,
            offtime: P59_OFF,
            size: G711_PACKET,
            interval: G711_INTERVAL,
            stationary_start: true,
            max_calls: 100_000,
            stream,
            rng: None,
            timer,
            running: false,
            calls: Vec::new(),
            free: Vec::new(),
            heap: Vec::new(),
            spurt: std::collections::VecDeque::new(),
            order: 0,
            next_arrival: f64::INFINITY,
            armed: 0.0,
            start_time: 0.0,
            last_change: 0.0,
            stats: VoipStats::default(),
        }
    }

    /// The fraction of a call's time in talk spurts.
    pub fn on_fraction(&self) -> f64 {
        self.ontime / (self.ontime + self.offtime)
    }

    fn exp(&mut self, _sim: &mut Sim, mean: f64) -> f64 {
        self.rng.as_mut().expect("started").exponential_mean(mean)
    }

    fn uniform(&mut self, _sim: &mut Sim) -> f64 {
        self.rng.as_mut().expect("started").uniform_double()
    }

    /// Count the calls up over [last change, t].
    fn integrate(&mut self, t: f64) {
        self.stats.call_seconds += self.stats.active as f64 * (t - self.last_change);
        self.last_change = t;
        self.stats.elapsed = t - self.start_time;
    }

    // ---- the heap of call events --------------------------------------------

    fn key(&self, i: usize) -> (f64, u64) {
        (self.heap[i].0, self.heap[i].1)
    }

    fn less(a: (f64, u64), b: (f64, u64)) -> bool {
        a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
    }

    fn push(&mut self, t: f64, call: u32) {
        self.order += 1;
        self.heap.push((t, self.order, call));
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let up = (i - 1) / 2;
            if !Self::less(self.key(i), self.key(up)) {
                break;
            }
            self.heap.swap(i, up);
            i = up;
        }
    }

    fn pop(&mut self) -> Option<(f64, u32)> {
        let n = self.heap.len();
        if n == 0 {
            return None;
        }
        self.heap.swap(0, n - 1);
        let (t, _, c) = self.heap.pop().unwrap();
        let n = n - 1;
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && Self::less(self.key(l), self.key(m)) {
                m = l;
            }
            if r < n && Self::less(self.key(r), self.key(m)) {
                m = r;
            }
            if m == i {
                break;
            }
            self.heap.swap(i, m);
            i = m;
        }
        Some((t, c))
    }

    /// The call with the next event, its time, and whether it waits in
    /// the spurt FIFO (else it is first in the heap).
    fn first(&self) -> Option<(f64, u32, bool)> {
        match (self.heap.first(), self.spurt.front()) {
            (None, None) => None,
            (Some(h), None) => Some((h.0, h.2, false)),
            (None, Some(f)) => Some((f.0, f.2, true)),
            (Some(h), Some(f)) => {
                if Self::less((f.0, f.1), (h.0, h.1)) {
                    Some((f.0, f.2, true))
                } else {
                    Some((h.0, h.2, false))
                }
            }
        }
    }

    fn next_call_event(&self) -> f64 {
        self.first().map_or(f64::INFINITY, |e| e.0)
    }

    // ---- calls ----------------------------------------------------------------

    /// A call begins at `t`, lasting an exponential holding time, in the
    /// on/off process's stationary state.
    fn begin(&mut self, sim: &mut Sim, t: f64) {
        if self.stats.active >= self.max_calls {
            self.stats.blocked += 1;
            return;
        }
        let end = t + self.exp(sim, self.holding);
        let talking = self.uniform(sim) < self.on_fraction();
        let next = if talking { t } else { t + self.exp(sim, self.offtime) };
        let call = Call { end, next, rem: 0 };
        let slot = match self.free.pop() {
            Some(s) => {
                self.calls[s as usize] = call;
                s
            }
            None => {
                self.calls.push(call);
                (self.calls.len() - 1) as u32
            }
        };
        self.integrate(t);
        self.stats.active += 1;
        self.stats.started += 1;
        self.push(end.min(next), slot);
    }

    /// The call in `slot` has its event at `t`: it ends, or sends a packet.
    /// Its next event goes to the spurt FIFO when it is the spurt's next
    /// packet, one `interval` after `t`: every key there was made the same
    /// way at a time up to `t` (float addition is monotone) with a lower
    /// arrival order, so the FIFO stays in key order.
    fn call_event(&mut self, sim: &mut Sim, agent: ObjId, t: f64, slot: u32) {
        let c = self.calls[slot as usize];
        if c.end <= c.next {
            self.integrate(t);
            self.stats.active -= 1;
            self.stats.ended += 1;
            self.free.push(slot);
            return;
        }
        let mut c = c;
        if c.rem == 0 {
            // a talk spurt begins: its length in packets as expoo.cc draws a burst
            let n = crate::num::c_int(self.exp(sim, self.ontime / self.interval) + 0.5);
            c.rem = n.max(1) as u32;
        }
        sim.app_send(agent, self.size);
        self.stats.packets += 1;
        c.rem -= 1;
        c.next += self.interval;
        if c.rem == 0 {
            c.next += self.exp(sim, self.offtime);
        }
        self.calls[slot as usize] = c;
        // (the check keeps the FIFO in order even if `interval_` is changed
        // during the run: then a key that would go before its last is put in
        // the heap)
        if c.rem > 0 && c.next < c.end && self.spurt.back().map_or(true, |b| b.0 <= c.next) {
            self.order += 1;
            self.spurt.push_back((c.next, self.order, slot));
        } else {
            self.push(c.end.min(c.next), slot);
        }
    }

    /// Run every event due up to `upto` (in time order; a call arrival
    /// before a call event at the same time).
    fn run_events(&mut self, sim: &mut Sim, agent: ObjId, upto: f64) {
        loop {
            let tc = self.next_call_event();
            let ta = self.next_arrival;
            if ta <= tc && ta <= upto {
                self.next_arrival = if self.lambda > 0.0 { ta + self.exp(sim, 1.0 / self.lambda) } else { f64::INFINITY };
                self.begin(sim, ta);
            } else if tc < ta && tc <= upto {
                let (t, slot, in_spurt) = self.first().expect("a call event");
                if in_spurt {
                    self.spurt.pop_front();
                } else {
                    self.pop();
                }
                self.call_event(sim, agent, t, slot);
            } else {
                break;
            }
        }
    }

    /// Set the timer for the next event, if any.
    fn arm(&mut self, sim: &mut Sim) {
        let t = self.next_call_event().min(self.next_arrival);
        if t.is_finite() {
            self.armed = t;
            let delay = (t - sim.w.s.now).max(0.0);
            sim.w.s.timer_resched(self.timer, delay);
        }
    }

    /// `$app start`: the process begins now (with the calls of the
    /// stationary distribution if `stationary_start`).
    #[inline(never)]
    pub fn start(&mut self, sim: &mut Sim, agent: ObjId) {
        if self.running {
            return;
        }
        let now = sim.w.s.now;
        self.running = true;
        self.calls.clear();
        self.free.clear();
        self.heap.clear();
        self.spurt.clear();
        self.stats = VoipStats::default();
        let mut rng = sim.w.rng.streams[self.stream as usize].clone();
        rng.reset_next_substream();
        self.rng = Some(Box::new(rng));
        self.start_time = now;
        self.last_change = now;
        let expected = self.lambda * self.holding;
        let room = (expected * 2.0 + 64.0).min(self.max_calls as f64) as usize;
        self.calls.reserve(room);
        self.heap.reserve(room);
        self.spurt.reserve(room);
        self.free.reserve(room);
        if self.stationary_start && expected > 0.0 {
            // Poisson(expected): unit-rate exponential gaps that fit in it
            let mut n = 0u64;
            let mut s = self.exp(sim, 1.0);
            while s <= expected {
                n += 1;
                s += self.exp(sim, 1.0);
            }
            for _ in 0..n {
                self.begin(sim, now);
            }
        }
        self.next_arrival = if self.lambda > 0.0 { now + self.exp(sim, 1.0 / self.lambda) } else { f64::INFINITY };
        // calls that talk from the first instant send now
        self.run_events(sim, agent, now);
        self.arm(sim);
    }

    /// `$app stop`: every call ends now.
    #[inline(never)]
    pub fn stop(&mut self, sim: &mut Sim) {
        if self.running {
            self.integrate(sim.w.s.now);
            self.stats.ended += self.stats.active as u64;
            self.stats.active = 0;
            self.heap.clear();
            self.spurt.clear();
            self.calls.clear();
            self.free.clear();
            self.next_arrival = f64::INFINITY;
        }
        crate::udp::stop_source(sim, &mut self.running, self.timer);
    }

    /// The timer: run the events due, set it for the next.
    #[inline(never)]
    pub fn timeout(&mut self, sim: &mut Sim, agent: ObjId) {
        if !self.running {
            return;
        }
        let upto = self.armed.max(sim.w.s.now);
        self.run_events(sim, agent, upto);
        self.arm(sim);
    }

    /// The counters, with the call-seconds brought up to `now`.
    pub fn stats_at(&self, now: f64) -> VoipStats {
        let mut s = self.stats;
        if self.running {
            s.call_seconds += s.active as f64 * (now - self.last_change);
            s.elapsed = now - self.start_time;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_orders_by_time_then_by_push_order() {
        let mut v = VoipCalls::new(0, 0);
        for (t, c) in [(3.0, 0), (1.0, 1), (2.0, 2), (1.0, 3), (0.5, 4), (2.0, 5)] {
            v.push(t, c);
        }
        let order: Vec<u32> = std::iter::from_fn(|| v.pop().map(|e| e.1)).collect();
        assert_eq!(order, vec![4, 1, 3, 2, 5, 0]);
    }

    #[test]
    fn paper_defaults() {
        let v = VoipCalls::new(0, 0);
        assert!((v.on_fraction() - 1.008 / 2.595).abs() < 1e-15);
        // 120 B every 10 ms: 96 kb/s while talking
        assert_eq!(v.size as f64 * 8.0 / v.interval, 96_000.0);
        assert_eq!(v.lambda * v.holding, 200.0);
    }
}
