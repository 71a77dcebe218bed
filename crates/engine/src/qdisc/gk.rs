//! Gibbens and Kelly's virtual-queue marking ("Resource pricing and the
//! evolution of congestion control", Automatica 1999), as ns-2 2.35 models
//! it (queue/gk.cc), step for step.
//!
//! A virtual queue of `ecnlim` times the real buffer drains at `ecnlim`
//! times the link rate (in packets of `mean_pktsize`); when an arrival
//! would take it over its size, every departing packet is marked (if
//! ECN-capable) until the virtual queue empties again.  The real queue is
//! a DropTail (tail or front).
//!
//! Details kept from ns-2: the virtual queue drains only while it holds
//! something, and its clock stands still while it is empty (the drain
//! after an idle period counts from its last update); it is updated at
//! each arrival later than the last update and at every dequeue, the empty
//! ones at the end of a busy period included ([`Discipline::link_idle`]
//! stands for those); the link rate is taken in packets per second when
//! the queue learns of its link, with the `mean_pktsize` of that moment;
//! `curq_` is set at arrivals only.

use super::{mark_ce, Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;

/// Gibbens-Kelly virtual-queue marking over a DropTail queue.
#[derive(Debug, Clone)]
pub struct Gk {
    pub fifo: Fifo,
    /// The virtual queue's size and rate as a fraction of the real ones
    /// (`ecnlim_`).
    pub ecnlim: f64,
    /// Drop from the head on overflow (`drop_front_`).
    pub drop_front: bool,
    /// The packet size the link rate is counted in (`mean_pktsize_`).
    pub mean_pktsize: i32,
    /// The link rate in packets per second (`c_`).
    pub c: f64,
    /// The virtual queue's length in packets (`vq_len`).
    pub vq_len: f64,
    /// Mark every departure (`mark_flag`).
    pub marking: bool,
    /// The traced `curq_`: the real queue's length after the last arrival.
    pub curq: i32,
    pub channel: Option<u32>,
    pub traced: bool,
    prev_time: f64,
}

impl Default for Gk {
    fn default() -> Self {
        Gk::new()
    }
}

impl Gk {
    /// ns-default.tcl's defaults.
    pub fn new() -> Gk {
        Gk {
            fifo: Fifo::default(),
            ecnlim: 0.95,
            drop_front: false,
            mean_pktsize: 1000,
            c: 0.0,
            vq_len: 0.0,
            marking: false,
            curq: 0,
            channel: None,
            traced: false,
            prev_time: 0.0,
        }
    }

    /// `$q link $delay`: the link's rate, in packets per second now.
    pub fn set_link(&mut self, bandwidth: f64) {
        self.c = bandwidth / (8.0 * self.mean_pktsize as f64);
    }

    /// `$q trace curq_`: trace it, and write its value now.
    pub fn trace(&mut self, w: &mut World) {
        self.traced = true;
        self.write_trace(w);
    }

    fn write_trace(&self, w: &mut World) {
        let Some(ch) = self.channel else { return };
        let (now, v) = (w.s.now, self.curq as i64);
        w.out.with_tracer(|t, out| t.queue_int_var(out, ch, now, b'Q', v));
    }

    /// `deque_vq`: drain the virtual queue up to `now`.
    fn drain(&mut self, now: f64) {
        if self.vq_len > 0.0 {
            self.vq_len -= self.ecnlim * self.c * (now - self.prev_time);
            self.prev_time = now;
            if self.vq_len <= 0.0 {
                self.vq_len = 0.0;
                self.marking = false;
            }
        }
    }

    fn take_in(&mut self, cap: &Capacity, w: &mut World, p: PktId) -> Verdict {
        let now = w.s.now;
        self.fifo.push(&w.pool, p);
        if now > self.prev_time {
            self.drain(now);
        }
        self.vq_len += 1.0;
        if self.vq_len > self.ecnlim * cap.limit as f64 {
            self.marking = true;
            self.vq_len -= 1.0;
        }
        let mut v = Verdict::Queued;
        if self.fifo.len() as i64 >= cap.limit as i64 {
            if self.drop_front {
                v = Verdict::Dropped(self.fifo.pop(&w.pool).expect("queue not empty"));
            } else {
                self.fifo.pop_back(&w.pool);
                v = Verdict::Dropped(p);
            }
        }
        let q = self.fifo.len() as i32;
        if q != self.curq {
            self.curq = q;
            if self.traced {
                self.write_trace(w);
            }
        }
        v
    }

    fn next_out(&mut self, w: &mut World) -> Option<PktId> {
        self.drain(w.s.now);
        let p = self.fifo.pop(&w.pool)?;
        if self.marking {
            mark_ce(&mut w.pool, p);
        }
        Some(p)
    }
}

impl Discipline for Gk {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.take_in(cap, w, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.next_out(w)
    }

    /// The dequeue that found the queue empty when the link finished.
    fn link_idle(&mut self, now: f64) {
        self.drain(now);
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.fifo.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(w: &mut World) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.size = 1000;
        pk.ecn_capable = true;
        p
    }

    /// Once an arrival overflows the virtual queue, departures are marked
    /// until it has drained empty.
    #[test]
    fn marks_until_the_virtual_queue_empties() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 10, ..Capacity::default() };
        let mut g = Gk { ecnlim: 0.5, ..Gk::new() };
        g.set_link(8e6); // 1000 packets/s, the virtual queue drains 500/s
        let ps: Vec<PktId> = (0..6).map(|_| pkt(&mut w)).collect();
        for &p in &ps {
            assert_eq!(g.take_in(&cap, &mut w, p), Verdict::Queued);
        }
        assert!(g.marking, "the 6th arrival overflowed 0.5 * 10");
        assert_eq!(g.vq_len, 5.0);
        w.s.now = 0.004; // drains 2 packets
        let out = g.next_out(&mut w).unwrap();
        assert!(w.pool.get(out).ecn_to_echo);
        assert_eq!(g.vq_len, 3.0);
        w.s.now = 0.02; // empty: marking stops
        let out = g.next_out(&mut w).unwrap();
        assert!(!w.pool.get(out).ecn_to_echo);
        assert_eq!((g.vq_len, g.marking), (0.0, false));
    }

    /// The real queue is a DropTail of the queue's limit.
    #[test]
    fn the_real_queue_drops_at_its_limit() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 3, ..Capacity::default() };
        let mut g = Gk::new();
        let ps: Vec<PktId> = (0..3).map(|_| pkt(&mut w)).collect();
        let vs: Vec<Verdict> = ps.iter().map(|&p| g.take_in(&cap, &mut w, p)).collect();
        assert_eq!(vs, vec![Verdict::Queued, Verdict::Queued, Verdict::Dropped(ps[2])]);
        assert_eq!(g.curq, 2);
    }
}
