//! The virtual queue AQM of Kunniyur and Srikant ("Analysis and design of
//! an adaptive virtual queue (AVQ) algorithm for active queue management",
//! SIGCOMM 2001), as ns-2 2.35 models it (queue/vq.cc), step for step.
//!
//! Beside the real FIFO, a virtual queue of capacity `buflim` times the
//! real one drains at the virtual rate `ctilde` (below the link rate `c`).
//! An arrival that overflows the virtual queue is marked (ECN, `markpkts`)
//! or dropped; the virtual rate adapts at each arrival towards the target
//! utilisation `gamma` (`ctilde += alpha (gamma c dt - size)`, within
//! `[0, c]`), not after a drop.  The real queue drops on overflow (tail or
//! front).  Lengths count packets, or bytes with `in_bytes`.
//!
//! Details kept from ns-2: the link rate is converted to packets (of
//! `mean_pktsize`) or bytes per second at the first arrival, which also
//! starts the clocks; the drops from the front take the *arrival's* size
//! off the real length (vq.cc subtracts the arriving packet's size, not the
//! head's); the overflow test is `qlength > limit` after the arrival is
//! counted (one packet more than DropTail holds); marking from the front
//! marks the head, whatever the arrival.

use super::{mark_ce, Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;

/// The adaptive virtual queue.
#[derive(Debug, Clone)]
pub struct Vq {
    pub fifo: Fifo,
    /// The virtual queue's size as a fraction of the real one (`buflim_`).
    pub buflim: f64,
    /// The virtual rate's start as a fraction of the link rate (`ecnlim_`).
    pub ecnlim: f64,
    /// The target utilisation (`gamma_`).
    pub gamma: f64,
    /// Mark ECN-capable packets instead of dropping (`markpkts_`).
    pub markpkts: bool,
    /// Mark the head rather than the arrival (`markfront_`).
    pub markfront: bool,
    /// Drop from the head, for both kinds of drop (`drop_front_`).
    pub drop_front: bool,
    /// Lengths in bytes (`queue_in_bytes_`).
    pub in_bytes: bool,
    /// The packet size of the packet mode (`mean_pktsize_`).
    pub mean_pktsize: i32,
    /// The link rate: bits per second from `link` until the first arrival,
    /// then packets (or bytes) per second (`c_`).
    pub c: f64,
    /// The virtual rate (`ctilde`).
    pub ctilde: f64,
    /// The virtual queue's length (`vq_len`).
    pub vq_len: f64,
    /// The real queue's length in packets or bytes (`qlength`).
    pub qlength: i64,
    /// The traced `curq_`: `qlength` after the last packet event.
    pub curq: i32,
    /// Where `curq_` is traced (`attach`), and whether it is.
    pub channel: Option<u32>,
    pub traced: bool,
    prev_time: f64,
    vqprev_time: f64,
    first: bool,
    /// The last arrival was dropped by the virtual queue: no adaptation.
    dropped: bool,
}

/// How fast the virtual rate adapts (`alpha2`).
const ALPHA: f64 = 0.15;

impl Default for Vq {
    fn default() -> Self {
        Vq::new()
    }
}

impl Vq {
    /// ns-default.tcl's defaults.
    pub fn new() -> Vq {
        Vq {
            fifo: Fifo::default(),
            buflim: 1.0,
            ecnlim: 0.8,
            gamma: 0.98,
            markpkts: false,
            markfront: false,
            drop_front: false,
            in_bytes: true,
            mean_pktsize: 1000,
            c: 0.0,
            ctilde: 0.0,
            vq_len: 0.0,
            qlength: 0,
            curq: 0,
            channel: None,
            traced: false,
            prev_time: 0.0,
            vqprev_time: 0.0,
            first: true,
            dropped: false,
        }
    }

    /// `$q link $delay`: the link's rate in bits per second.
    pub fn set_link(&mut self, bandwidth: f64) {
        self.c = bandwidth;
    }

    /// What a packet of `size` bytes adds to a length.
    #[inline]
    fn unit(&self, size: i32) -> i64 {
        if self.in_bytes {
            size as i64
        } else {
            1
        }
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

    /// Assign the traced `curq_` (a `TracedInt`: only a change is traced).
    fn set_curq(&mut self, w: &mut World) {
        let v = self.qlength as i32;
        if v != self.curq {
            self.curq = v;
            if self.traced {
                self.write_trace(w);
            }
        }
    }

    /// `1 - qib_ + qib_ * mean_pktsize_`: the unit of the limit.
    fn limit_unit(&self) -> i64 {
        if self.in_bytes {
            self.mean_pktsize as i64
        } else {
            1
        }
    }

    fn take_in(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        let now = w.s.now;
        let size = w.pool.get(p).size;
        let unit = self.unit(size);
        self.fifo.push(&w.pool, p);
        self.qlength += unit;
        if self.first {
            self.c /= if self.in_bytes { 8.0 } else { 8.0 * self.mean_pktsize as f64 };
            self.first = false;
            self.ctilde = self.c * self.ecnlim;
            self.prev_time = now;
            self.vqprev_time = now;
        }
        self.vq_len -= self.ctilde * (now - self.vqprev_time);
        self.vqprev_time = now;
        if self.vq_len < 0.0 {
            self.vq_len = 0.0;
        }
        self.vq_len += unit as f64;
        let mut marked = false;
        // (buflim_ * qlim_) * (1 - qib_ + qib_ * mean_pktsize_), as C groups it
        if self.vq_len > (self.buflim * cap.limit as f64) * self.limit_unit() as f64 {
            self.vq_len -= unit as f64;
            if self.vq_len < 0.0 {
                self.vq_len = 0.0;
            }
            if self.markpkts {
                let m = if self.markfront { self.fifo.get(0).expect("queue not empty") } else { p };
                marked = mark_ce(&mut w.pool, m);
            } else {
                if self.drop_front {
                    // the head (vq.cc takes the arrival's size off)
                    let h = self.fifo.pop(&w.pool).expect("queue not empty");
                    self.qlength -= unit;
                    drops.push(h);
                } else {
                    let last = self.fifo.pop_back(&w.pool);
                    debug_assert_eq!(last, Some(p));
                    self.qlength -= unit;
                    drops.push(p);
                }
                self.dropped = true;
            }
        }
        if !self.dropped {
            // C's order: ctilde + a*g*c*dt - a*(1 - qib) - a*qib*size
            let qib = self.in_bytes as i32 as f64;
            self.ctilde = self.ctilde + ALPHA * self.gamma * self.c * (now - self.prev_time) - ALPHA * (1.0 - qib) - ALPHA * qib * size as f64;
            if self.ctilde > self.c {
                self.ctilde = self.c;
            }
            if self.ctilde < 0.0 {
                self.ctilde = 0.0;
            }
            self.prev_time = now;
        } else {
            self.dropped = false;
        }
        if self.qlength > cap.limit as i64 * self.limit_unit() {
            if self.drop_front {
                if let Some(h) = self.fifo.pop(&w.pool) {
                    self.qlength -= unit;
                    drops.push(h);
                }
            } else if let Some(i) = { let found = self.fifo.iter().rposition(|&x| x == p); found } {
                // the arrival, if the virtual queue left it queued
                let a = self.fifo.remove_at(&w.pool, i);
                self.qlength -= unit;
                drops.push(a);
            }
        }
        self.set_curq(w);
        if !drops.is_empty() {
            Verdict::Overflow
        } else if marked {
            Verdict::Marked
        } else {
            Verdict::Queued
        }
    }

    fn next_out(&mut self, w: &mut World) -> Option<PktId> {
        let p = self.fifo.pop(&w.pool)?;
        self.qlength -= self.unit(w.pool.get(p).size);
        self.set_curq(w);
        Some(p)
    }
}

impl Discipline for Vq {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        self.take_in(cap, w, p, drops)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.next_out(w)
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

    fn pkt(w: &mut World, size: i32, ect: bool) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.size = size;
        pk.ecn_capable = ect;
        p
    }

    /// A burst at one instant: the virtual queue (half the real one) fills
    /// first; its drops keep the real queue below its own limit.
    #[test]
    fn the_virtual_queue_drops_first() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 10, ..Capacity::default() };
        let mut v = Vq { in_bytes: false, buflim: 0.5, ..Vq::new() };
        v.set_link(8e6);
        let mut drops = Drops::default();
        let verdicts: Vec<Verdict> = (0..8)
            .map(|_| {
                let p = pkt(&mut w, 1000, false);
                drops.pkts.clear();
                v.take_in(&cap, &mut w, p, &mut drops)
            })
            .collect();
        // the 6th arrival takes the virtual length over 0.5 * 10 packets
        assert!(verdicts[..5].iter().all(|x| *x == Verdict::Queued), "{verdicts:?}");
        assert!(verdicts[5..].iter().all(|x| *x == Verdict::Overflow), "{verdicts:?}");
        assert_eq!((v.fifo.len(), v.qlength, v.vq_len), (5, 5, 5.0));
        // the rate is converted to packets per second at the first arrival
        assert_eq!(v.c, 1000.0);
    }

    /// With marking, the arrival over the virtual limit is queued and marked
    /// if ECN-capable (the head instead with `markfront`).
    #[test]
    fn marking_instead_of_dropping() {
        for front in [false, true] {
            let mut w = World::new_for_tests();
            let cap = Capacity { limit: 4, ..Capacity::default() };
            let mut v = Vq { in_bytes: false, buflim: 0.5, markpkts: true, markfront: front, ..Vq::new() };
            v.set_link(8e6);
            let mut drops = Drops::default();
            let ps: Vec<PktId> = (0..3).map(|_| pkt(&mut w, 1000, true)).collect();
            let vs: Vec<Verdict> = ps.iter().map(|&p| v.take_in(&cap, &mut w, p, &mut drops)).collect();
            assert_eq!(vs, vec![Verdict::Queued, Verdict::Queued, Verdict::Marked]);
            let marked: Vec<bool> = ps.iter().map(|&p| w.pool.get(p).ecn_to_echo).collect();
            assert_eq!(marked, if front { vec![true, false, false] } else { vec![false, false, true] });
            assert!(drops.is_empty());
        }
    }

    /// The virtual queue drains at the virtual rate between arrivals, and
    /// the virtual rate grows by alpha * gamma * c * dt less alpha per packet.
    #[test]
    fn draining_and_adaptation() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 100, ..Capacity::default() };
        let mut v = Vq { in_bytes: false, ..Vq::new() };
        v.set_link(8e6); // 1000 packets/s
        let mut drops = Drops::default();
        let p = pkt(&mut w, 1000, false);
        v.take_in(&cap, &mut w, p, &mut drops);
        assert_eq!(v.ctilde, 800.0 - 0.15);
        w.s.now = 0.001;
        let q = pkt(&mut w, 1000, false);
        v.take_in(&cap, &mut w, q, &mut drops);
        let ct = 800.0 - 0.15;
        assert_eq!(v.vq_len, (1.0 - ct * 0.001) + 1.0);
        assert_eq!(v.ctilde, ct + 0.15 * 0.98 * 1000.0 * 0.001 - 0.15 * 1.0 - 0.15 * 0.0 * 1000.0);
        assert_eq!(v.next_out(&mut w), Some(p));
        assert_eq!(v.qlength, 1);
    }
}
