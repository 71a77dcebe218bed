//! The PI controller of Hollot, Misra, Towsley and Gong ("On designing
//! improved controllers for AQM routers supporting TCP flows", INFOCOM
//! 2001), as ns-2 2.35 runs it (queue/pi.cc `PIQueue`).
//!
//! `w` times a second the drop probability moves by the discretised PI
//! law p <- p + a (q - q_ref) - b (q_old - q_ref), clipped to [0, 1],
//! where q is the queue now and q_old the queue at the previous update
//! (in packets, or with the byte capacity in bytes over `mean_pktsize`).
//! An arrival that finds the queue at its limit is dropped; any other
//! arrival draws `Random::uniform()` (every one, whatever the probability)
//! and is dropped, or with `setbit` marked if it is ECN-capable, when the
//! draw is at most the probability (in byte mode scaled by its size over
//! `mean_pktsize`, at most 1).
//!
//! ns-2 runs the update from a timer (`CalcTimer`), rescheduled one period
//! after each update, first by `reset` (at `$ns run`).  Dumbbell keeps no
//! timer per queue: the updates due by a packet's arrival or departure run,
//! in order and at their own times, when the queue sees it
//! ([`Pi::catch_up`]); only the queue's length is read by an update, and it
//! changes only at those events, so this is the timer exactly.  An update
//! due at the very time of a packet event runs first (a timer set one
//! period earlier).  The update times are accumulated as ns-2's scheduler
//! does (`now + 1/w`), so they agree to the bit.  A traced `prob_` is
//! written with each update's own time, when the update runs; those due
//! after the queue's last packet event of a run are not written.

use super::{mark_ce, Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;
use crate::trace::PiVar;

/// PI's parameters and state.
#[derive(Debug, Clone)]
pub struct Pi {
    pub fifo: Fifo,
    /// The proportional-plus-integral coefficients of the discretised law.
    pub a: f64,
    pub b: f64,
    /// Updates per second.
    pub w: f64,
    /// The queue the controller holds (packets).
    pub qref: f64,
    /// Scale the probability by packet size over `mean_pktsize`.
    pub bytes: bool,
    /// Mark ECN-capable packets instead of dropping them.
    pub setbit: bool,
    /// The drop probability (`prob_`).
    pub prob: f64,
    /// The queue at the last update (packets, or bytes with a byte capacity).
    pub qold: i64,
    /// The queue an arrival saw, or the queue after a departure (`curq_`).
    pub curq: i32,
    /// Time of the next update (None before the first `reset`).
    pub next_update: Option<f64>,
    /// The capacity's unit and mean packet size as of the last arrival or
    /// reset (a departure's catch-up has no capacity at hand).
    unit: (bool, i32),
    /// Channel of `$q attach $file`.
    pub channel: Option<u32>,
    pub trace_type: String,
    traced: u8,
}

const T_CURQ: u8 = 1;
const T_PROB: u8 = 2;

impl Default for Pi {
    fn default() -> Self {
        Self::new()
    }
}

impl Pi {
    /// ns-2's defaults (tcl/lib/ns-default.tcl).
    pub fn new() -> Pi {
        Pi {
            fifo: Fifo::default(),
            a: 0.00001822,
            b: 0.00001816,
            w: 170.0,
            qref: 50.0,
            bytes: false,
            setbit: false,
            prob: 0.0,
            qold: 0,
            curq: 0,
            next_update: None,
            unit: (false, 500),
            channel: None,
            trace_type: "Drop".into(),
            traced: 0,
        }
    }

    /// `$q trace var`: trace `var` from now on, and write its value now.
    pub fn trace(&mut self, w: &mut World, var: PiVar) {
        let bit = match var {
            PiVar::CurrentQueue => T_CURQ,
            PiVar::Prob => T_PROB,
        };
        self.traced |= bit;
        self.write_trace(w, var, w.s.now);
    }

    fn write_trace(&self, w: &mut World, var: PiVar, at: f64) {
        let Some(ch) = self.channel else { return };
        let v = match var {
            PiVar::CurrentQueue => self.curq as f64,
            PiVar::Prob => self.prob,
        };
        w.out.with_tracer(|t, out| t.pi_var(out, ch, at, var, v));
    }

    /// A traced assignment (tclcl's `TracedInt`/`TracedDouble`: only a
    /// change is written), at time `at`.
    fn set_prob(&mut self, w: &mut World, v: f64, at: f64) {
        if self.prob != v {
            self.prob = v;
            if self.traced & T_PROB != 0 {
                self.write_trace(w, PiVar::Prob, at);
            }
        }
    }

    fn set_curq(&mut self, w: &mut World, v: i32) {
        if self.curq != v {
            self.curq = v;
            if self.traced & T_CURQ != 0 {
                self.write_trace(w, PiVar::CurrentQueue, w.s.now);
            }
        }
    }

    /// `PIQueue::reset` (at `$ns run`): probability and memory cleared,
    /// one update now, and the next one period later.
    pub fn reset(&mut self, cap: &Capacity, w: &mut World) {
        self.qold = 0;
        self.set_prob(w, 0.0, w.s.now);
        self.set_curq(w, 0);
        self.unit = (cap.in_bytes, cap.mean_pktsize);
        self.calculate_p(w, w.s.now);
    }

    /// `calculate_p`: one update at time `at`, and the next one scheduled.
    fn calculate_p(&mut self, w: &mut World, at: f64) {
        let (in_bytes, mean) = self.unit;
        let qlen = if in_bytes { self.fifo.bytes() } else { self.fifo.len() as i64 };
        let mut p = if in_bytes {
            let mean = mean as f64;
            self.a * (qlen as f64 / mean - self.qref) - self.b * (self.qold as f64 / mean - self.qref) + self.prob
        } else {
            self.a * (qlen as f64 - self.qref) - self.b * (self.qold as f64 - self.qref) + self.prob
        };
        if p < 0.0 {
            p = 0.0;
        }
        if p > 1.0 {
            p = 1.0;
        }
        self.set_prob(w, p, at);
        self.qold = qlen;
        self.next_update = Some(at + 1.0 / self.w);
    }

    /// Run the updates due by now (those at now included).
    #[inline]
    pub fn catch_up(&mut self, w: &mut World) {
        let now = w.s.now;
        while let Some(t) = self.next_update {
            if t > now {
                break;
            }
            self.calculate_p(w, t);
        }
    }

    /// `PIQueue::enque` without the catch-up (see [`Pi::catch_up`]): the
    /// tail drop at the limit, else the draw; `draw` gives the uniform.
    pub fn do_enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, draw: impl FnOnce(&mut World) -> f64) -> Verdict {
        let qlen = cap.len_of(&self.fifo);
        self.set_curq(w, qlen as i32);
        let qlim = if cap.in_bytes { cap.limit.wrapping_mul(cap.mean_pktsize) as i64 } else { cap.limit as i64 };
        if qlen >= qlim {
            return Verdict::Dropped(p);
        }
        let mut prob = self.prob;
        if self.bytes {
            prob = prob * w.pool.get(p).size as f64 / cap.mean_pktsize as f64;
            if prob > 1.0 {
                prob = 1.0;
            }
        }
        let u = draw(w);
        if u <= prob {
            if self.setbit && mark_ce(&mut w.pool, p) {
                self.fifo.push(&w.pool, p);
                return Verdict::Marked;
            }
            return Verdict::EarlyDropped(p);
        }
        self.fifo.push(&w.pool, p);
        Verdict::Queued
    }
}

impl Discipline for Pi {
    #[inline]
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.unit = (cap.in_bytes, cap.mean_pktsize);
        self.catch_up(w);
        self.do_enqueue(cap, w, p, |w| w.rng.default_stream().uniform_double())
    }

    #[inline]
    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.catch_up(w);
        let p = self.fifo.pop(&w.pool);
        let qlen = if self.unit.0 { self.fifo.bytes() } else { self.fifo.len() as i64 };
        self.set_curq(w, qlen as i32);
        p
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.fifo.len()
    }

    #[inline(always)]
    fn bytes(&self) -> i64 {
        self.fifo.bytes()
    }
}
