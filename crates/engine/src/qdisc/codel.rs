//! CoDel, "Controlled Delay" active queue management (RFC 8289), as ns-3.37's
//! `CoDelQueueDisc` computes it (src/traffic-control/model/codel-queue-disc.cc,
//! itself a port of Linux's include/net/codel_impl.h).
//!
//! Packets are timestamped when they are queued; at dequeue the time a
//! packet spent in the queue (its sojourn) is compared with `target`.  Once
//! every packet has stayed above target for an `interval`, CoDel enters its
//! dropping state: it drops (or, with `use_ecn`, marks) the head packet and
//! schedules the next drop at `interval / sqrt(count)` later (the control
//! law, RFC 8289 section 5.4), until a packet is seen below target.
//!
//! To reproduce ns-3's numbers exactly, times are "CoDel times" as ns-3
//! keeps them: unsigned 32-bit counts of 1024 ns (`Time2CoDel`: nanoseconds
//! shifted right by 10), compared as plain unsigned integers, and
//! 1/sqrt(count) is a 16-bit fixed-point value refined by one Newton step
//! per change of count (`NewtonStep`), not computed exactly as RFC 8289
//! does.  Where ns-3 departs from RFC 8289 we follow ns-3:
//! * a packet is OK to drop when its sojourn is at least target, at least
//!   `min_bytes` stay queued behind it (RFC: more than one maximum-size
//!   packet), and `now` is strictly after `first_above_time` (RFC: `>=`);
//! * re-entering the dropping state soon after leaving it (within 16
//!   intervals of the last drop) starts from `count - last_count` drops
//!   (Linux's rule, quoted by RFC 8289 section 5.6);
//! * with ECN, a mark replaces a drop and the next deadline is counted from
//!   the time of the mark (`ControlLaw(now, ...)`; Linux counts from the old
//!   deadline), and with a CE threshold, ECN-capable packets whose sojourn
//!   exceeds it are marked (once: not a packet already marked by the law);
//! * an empty queue leaves the dropping state without resetting
//!   `first_above_time`.
//! ns-3.37 dereferences a missing packet when the dropping loop emptied the
//! queue and `min_bytes` is 0; here the CE check is simply skipped then.
//! ns-3's L4S mode (`UseL4s`, ECT(1) packets bypassing the law) needs the
//! ECT(1) codepoint, which packets here do not carry yet.

use super::{mark_ce, Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::ring::Ring;
use crate::sim::World;

/// `REC_INV_SQRT` starting value: 1/sqrt(1) as Q0.16, less one ulp (`~0U >> 16`).
const REC_INV_SQRT_ONE: u16 = u16::MAX;

/// ns-3's `Time2CoDel`: a time in seconds as CoDel time, 1024-ns units
/// (`ns >> CODEL_SHIFT` with `CODEL_SHIFT` 10), truncated to 32 bits.  Seconds
/// become whole nanoseconds first, rounding to the nearest (ns-3 times are
/// integers of nanoseconds).
#[inline]
pub fn codel_time(seconds: f64) -> u32 {
    let ns = (seconds * 1e9).round() as i64;
    (ns >> 10) as u32
}

/// One Newton-Raphson step of y = 1/sqrt(count), in Q0.16 fixed point:
/// y' = y (3 - count y^2) / 2 (ns-3's `NewtonStep`, Linux's
/// `codel_Newton_step`), with their intermediate widths and shifts.
pub fn newton_step(rec_inv_sqrt: u16, count: u32) -> u16 {
    let invsqrt = (rec_inv_sqrt as u32) << 16; // Q0.32
    let invsqrt2 = ((invsqrt as u64 * invsqrt as u64) >> 32) as u32;
    let mut val = (3u64 << 32).wrapping_sub(count as u64 * invsqrt2 as u64);
    val >>= 2; // room for the multiply below
    val = val.wrapping_mul(invsqrt as u64) >> (32 - 2 + 1);
    (val >> 16) as u16
}

/// The control law: `t + interval / sqrt(count)`, with 1/sqrt(count) as
/// the fixed-point `rec_inv_sqrt` (ns-3's `ControlLaw` with
/// `ReciprocalDivide`); 32-bit wrapping sum.
pub fn control_law(t: u32, interval: u32, rec_inv_sqrt: u16) -> u32 {
    let step = ((interval as u64 * ((rec_inv_sqrt as u64) << 16)) >> 32) as u32;
    t.wrapping_add(step)
}

/// Whether `p` is an L4S packet to ns-3.37's `UseL4s` options: ECT(1) or
/// CE (an IP header's ECN field 1 or 3).
#[inline]
pub(crate) fn is_l4s(pool: &PacketPool, p: PktId) -> bool {
    let pk = pool.get(p);
    pool.is_ect1(p) || (pk.ecn_capable && pk.ecn_to_echo)
}

/// CoDel's parameters and state, and the packets it holds.
#[derive(Debug, Clone)]
pub struct CoDel {
    /// The packets queued, and when each was queued (seconds).
    pub fifo: Fifo,
    stamps: Ring<f64>,
    // ---- parameters (ns-3 attributes) ----
    /// Acceptable standing queue delay, seconds (`Target`, 5 ms).
    pub target: f64,
    /// Width of the window a standing delay must persist for, and the
    /// control law's base, seconds (`Interval`, 100 ms).
    pub interval: f64,
    /// Never drop while fewer bytes than this would remain queued
    /// (`MinBytes`, 1500).
    pub min_bytes: u32,
    /// Mark ECN-capable packets instead of dropping them (`UseEcn`).
    pub use_ecn: bool,
    /// With `use_ecn`, mark ECN-capable packets whose sojourn exceeds this
    /// (seconds; `CeThreshold`, off by default).
    pub ce_threshold: Option<f64>,
    /// L4S mode (`UseL4s`, off): an ECT(1) or CE packet bypasses the
    /// control law and is marked only when its sojourn exceeds
    /// `ce_threshold` (with or without `use_ecn`); other packets meet
    /// CoDel as usual but are never marked on the CE threshold.
    pub use_l4s: bool,
    // ---- state (all CoDel times are 1024-ns units) ----
    /// Drops (and marks) in the current dropping episode.
    pub count: u32,
    /// `count` when the last episode began.
    pub last_count: u32,
    pub dropping: bool,
    /// 1/sqrt(count), Q0.16.
    pub rec_inv_sqrt: u16,
    /// When the sojourn will have been above target for an interval (0:
    /// not above target).
    pub first_above_time: u32,
    /// When the next drop is due, in the dropping state.
    pub drop_next: u32,
    // ---- counters ----
    /// Packets dropped by the control law (`Target exceeded drop`).
    pub target_drops: u64,
    /// Packets marked by the control law (`Target exceeded mark`).
    pub target_marks: u64,
    /// Packets marked above the CE threshold (`CE threshold exceeded mark`).
    pub ce_marks: u64,
    /// Arrivals refused because the queue was full (`Overlimit drop`).
    pub overlimit_drops: u64,
    /// The sojourn of the last packet dequeued, seconds.
    pub last_sojourn: f64,
}

impl Default for CoDel {
    fn default() -> Self {
        CoDel::new()
    }
}

impl CoDel {
    /// ns-3.37's defaults: target 5 ms, interval 100 ms, 1500 min bytes, no ECN.
    pub fn new() -> CoDel {
        CoDel {
            fifo: Fifo::default(),
            stamps: Ring::new(),
            target: 0.005,
            interval: 0.1,
            min_bytes: 1500,
            use_ecn: false,
            ce_threshold: None,
            use_l4s: false,
            count: 0,
            last_count: 0,
            dropping: false,
            rec_inv_sqrt: REC_INV_SQRT_ONE,
            first_above_time: 0,
            drop_next: 0,
            target_drops: 0,
            target_marks: 0,
            ce_marks: 0,
            overlimit_drops: 0,
            last_sojourn: 0.0,
        }
    }

    /// `DoEnqueue`: refuse the packet if it would take the queue past its
    /// capacity (which it may fill exactly), else queue it with the time.
    pub(crate) fn do_enqueue(&mut self, cap: &Capacity, pool: &PacketPool, now: f64, p: PktId) -> Verdict {
        let over = if cap.in_bytes {
            self.fifo.bytes() + pool.get(p).size as i64 > cap.limit_bytes()
        } else {
            self.fifo.len() as i64 + 1 > cap.limit as i64
        };
        if over {
            self.overlimit_drops += 1;
            return Verdict::Dropped(p);
        }
        self.fifo.push(pool, p);
        self.stamps.push_back(now);
        Verdict::Queued
    }

    /// Take the head packet out without CoDel seeing it (FQ-CoDel's
    /// overflow drop reaches into a flow's queue so: `FqCoDelDrop`).
    pub(crate) fn drop_head(&mut self, pool: &PacketPool) -> Option<PktId> {
        self.pop(pool).map(|(p, _)| p)
    }

    fn pop(&mut self, pool: &PacketPool) -> Option<(PktId, f64)> {
        let p = self.fifo.pop(pool)?;
        let t = self.stamps.pop_front().expect("a stamp per packet");
        Some((p, t))
    }

    /// `OkToDrop`: has the head packet `item` (already taken out) stayed
    /// above target long enough to be dropped?  Keeps `first_above_time`.
    fn ok_to_drop(&mut self, item: Option<(PktId, f64)>, now: f64, now_ct: u32) -> bool {
        let Some((_, stamp)) = item else {
            self.first_above_time = 0;
            return false;
        };
        let sojourn = codel_time(now - stamp);
        if sojourn < codel_time(self.target) || self.fifo.bytes() < self.min_bytes as i64 {
            self.first_above_time = 0;
            return false;
        }
        if self.first_above_time == 0 {
            self.first_above_time = now_ct.wrapping_add(codel_time(self.interval));
            return false;
        }
        now_ct > self.first_above_time
    }

    /// `DoDequeue`: the next packet to send, if any; the packets the control
    /// law drops on the way go to `drops`, in order.
    pub(crate) fn do_dequeue(&mut self, pool: &mut PacketPool, now: f64, drops: &mut Drops) -> Option<PktId> {
        let Some(first) = self.pop(pool) else {
            self.dropping = false;
            return None;
        };
        if self.use_l4s {
            // ns-3.37: an ECT(1) or CE packet leaves at once, CE-marked if
            // it waited more than the threshold; CoDel's state is untouched.
            let (p, stamp) = first;
            if is_l4s(pool, p) {
                self.last_sojourn = now - stamp;
                if let Some(ce) = self.ce_threshold {
                    if codel_time(now - stamp) > codel_time(ce) && mark_ce(pool, p) {
                        self.ce_marks += 1;
                    }
                }
                return Some(p);
            }
        }
        let mut item = Some(first);
        let now_ct = codel_time(now);
        let interval = codel_time(self.interval);
        let ok = self.ok_to_drop(item, now, now_ct);
        let mut marked = false;
        if self.dropping {
            if !ok {
                // Below target again (or too little left queued): leave.
                self.dropping = false;
            } else {
                // Drop (or mark) for every deadline already passed,
                // each next deadline interval/sqrt(count) after the last.
                while self.dropping && now_ct >= self.drop_next {
                    self.count = self.count.wrapping_add(1);
                    self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
                    let (p, _) = item.expect("dropping needs a packet");
                    if self.use_ecn && mark_ce(pool, p) {
                        self.target_marks += 1;
                        marked = true;
                        self.drop_next = control_law(now_ct, interval, self.rec_inv_sqrt);
                        break;
                    }
                    self.target_drops += 1;
                    drops.push(p);
                    item = self.pop(pool);
                    if !self.ok_to_drop(item, now, now_ct) {
                        self.dropping = false;
                    } else {
                        self.drop_next = control_law(self.drop_next, interval, self.rec_inv_sqrt);
                    }
                }
            }
        } else if ok {
            // Enter the dropping state with a drop (or a mark).
            let (p, _) = first;
            if self.use_ecn && mark_ce(pool, p) {
                self.target_marks += 1;
                marked = true;
            } else {
                self.target_drops += 1;
                drops.push(p);
                item = self.pop(pool);
                // for its effect on first_above_time only
                self.ok_to_drop(item, now, now_ct);
            }
            self.dropping = true;
            // Soon after the last episode: resume near its drop rate.
            let delta = self.count.wrapping_sub(self.last_count) as i32;
            if delta > 1 && now_ct.wrapping_sub(self.drop_next) < interval.wrapping_mul(16) {
                self.count = delta as u32;
                self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
            } else {
                self.count = 1;
                self.rec_inv_sqrt = REC_INV_SQRT_ONE;
            }
            self.last_count = self.count;
            self.drop_next = control_law(now_ct, interval, self.rec_inv_sqrt);
        }
        let (p, stamp) = item?;
        self.last_sojourn = now - stamp;
        if !marked && !self.use_l4s && self.use_ecn {
            if let Some(ce) = self.ce_threshold {
                if codel_time(now - stamp) > codel_time(ce) && mark_ce(pool, p) {
                    self.ce_marks += 1;
                }
            }
        }
        Some(p)
    }
}

impl Discipline for CoDel {
    #[inline(always)]
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.do_enqueue(cap, &w.pool, w.s.now, p)
    }

    #[inline(always)]
    fn dequeue(&mut self, w: &mut World, drops: &mut Drops) -> Option<PktId> {
        self.do_dequeue(&mut w.pool, w.s.now, drops)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-3's CoDel-time conversions of the defaults.
    #[test]
    fn codel_time_is_1024_ns_units() {
        assert_eq!(codel_time(0.005), 4882);
        assert_eq!(codel_time(0.1), 97656);
        assert_eq!(codel_time(0.010), 9765);
        assert_eq!(codel_time(0.210), 205078);
        assert_eq!(codel_time(0.420), 410156);
        assert_eq!(codel_time(20.0), 19531250);
        // the boundary of a 5 ms target: 4 999 167 ns is below it
        assert_eq!(codel_time(4_999_167e-9), 4881);
        assert_eq!(codel_time(4_999_168e-9), 4882);
    }

    /// ns-3.37's `CoDelQueueDiscNewtonStepTest` grid: for these small
    /// values the result does not depend on count.
    #[test]
    fn newton_step_grid_of_the_ns3_suite() {
        let want = [(0xff, 382), (0x7f, 190), (0x3f, 94), (0x1f, 46), (0x0f, 22), (0x07, 10), (0x03, 4), (0x01, 1)];
        for (rec, out) in want {
            for count in [1, 2, 4, 8, 16, 32, 64, 128] {
                assert_eq!(newton_step(rec, count), out, "rec {rec} count {count}");
            }
        }
    }

    /// From 1/sqrt(1), one Newton step per increment of count: the values
    /// ns-3.37 produces (its trajectory lags the exact 1/sqrt at small counts).
    #[test]
    fn newton_trajectory_from_one() {
        let want = [
            (2, 32769),
            (3, 36864),
            (4, 31968),
            (5, 28935),
            (6, 26481),
            (7, 24588),
            (8, 23037),
            (9, 21746),
            (10, 20647),
            (16, 16360),
            (20, 14640),
            (30, 11960),
            (40, 10359),
        ];
        let mut rec = REC_INV_SQRT_ONE;
        let mut at = want.iter();
        let mut next = at.next();
        for count in 2..=40u32 {
            rec = newton_step(rec, count);
            if let Some(&(c, v)) = next {
                if c == count {
                    assert_eq!(rec, v, "count {count}");
                    next = at.next();
                }
            }
        }
        assert!(next.is_none());
    }

    /// ns-3.37's `CoDelQueueDiscControlLawTest`: `t + floor(97656 r / 65536)`
    /// for t from 0 to 20 s in steps of 100 ms.
    #[test]
    fn control_law_grid_of_the_ns3_suite() {
        let incs = [(0xff, 379), (0x7f, 189), (0x3f, 93), (0x1f, 46), (0x0f, 22), (0x07, 10), (0x03, 4), (0x01, 1)];
        let interval = codel_time(0.1);
        for i in 0..=200 {
            let t = codel_time(i as f64 * 0.1);
            for (rec, inc) in incs {
                assert_eq!(control_law(t, interval, rec), t + inc);
            }
        }
        assert_eq!(control_law(19531250, interval, 0xff), 19531629);
        assert_eq!(control_law(0, interval, REC_INV_SQRT_ONE), 97654);
    }

    fn fill(pool: &mut PacketPool, c: &mut CoDel, cap: &Capacity, n: usize, ect: bool) -> Vec<PktId> {
        (0..n)
            .map(|_| {
                let p = pool.alloc();
                let pk = pool.get_mut(p);
                pk.size = 1000;
                pk.ecn_capable = ect;
                assert_eq!(c.do_enqueue(cap, pool, 0.0, p), Verdict::Queued);
                p
            })
            .collect()
    }

    fn big() -> Capacity {
        Capacity { limit: 500, ..Capacity::default() }
    }

    /// `CoDelQueueDiscBasicEnqueueDequeue`: FIFO order, no drops while the
    /// sojourn is zero, and nothing from an empty queue.
    #[test]
    fn basic_enqueue_and_dequeue() {
        let mut pool = PacketPool::new();
        let mut c = CoDel { min_bytes: 1000, interval: 0.05, target: 0.004, ..CoDel::new() };
        let ps = fill(&mut pool, &mut c, &Capacity { limit: 1500, ..Capacity::default() }, 6, false);
        let mut drops = Drops::default();
        for (i, &p) in ps.iter().enumerate() {
            assert_eq!(c.do_dequeue(&mut pool, 0.0, &mut drops), Some(p));
            assert_eq!(c.fifo.len(), 5 - i);
        }
        assert_eq!(c.do_dequeue(&mut pool, 0.0, &mut drops), None);
        assert!(drops.is_empty() && c.target_drops == 0);
    }

    /// `CoDelQueueDiscBasicOverflow`: the limit is inclusive, in packets or
    /// in bytes.
    #[test]
    fn overflow_fills_the_queue_exactly() {
        for cap in [big(), Capacity { limit: 500, in_bytes: true, mean_pktsize: 1000, drop_front: false }] {
            let mut pool = PacketPool::new();
            let mut c = CoDel { min_bytes: 1000, ..CoDel::new() };
            fill(&mut pool, &mut c, &cap, 500, false);
            for _ in 0..3 {
                let p = pool.alloc();
                pool.get_mut(p).size = 1000;
                assert_eq!(c.do_enqueue(&cap, &pool, 0.0, p), Verdict::Dropped(p));
            }
            assert_eq!((c.fifo.len(), c.overlimit_drops), (500, 3));
        }
    }

    /// `CoDelQueueDiscBasicDrop`: 20 packets queued at 0, dequeued at 10
    /// ms, 210 ms (twice) and 420 ms: the first dequeue notes the queue
    /// above target, the second enters the dropping state with one drop,
    /// the fourth drops three more on the control law's schedule.
    #[test]
    fn basic_drop() {
        let mut pool = PacketPool::new();
        let mut c = CoDel::new();
        let ps = fill(&mut pool, &mut c, &big(), 20, false);
        let mut drops = Drops::default();
        assert_eq!(c.do_dequeue(&mut pool, 0.010, &mut drops), Some(ps[0]));
        assert_eq!((c.fifo.len(), c.target_drops, c.first_above_time), (19, 0, 107421));
        assert_eq!(c.do_dequeue(&mut pool, 0.210, &mut drops), Some(ps[2]));
        assert_eq!((c.fifo.len(), c.target_drops, c.drop_next, c.count), (17, 1, 302732, 1));
        assert_eq!(drops.pkts, vec![ps[1]]);
        assert_eq!(c.do_dequeue(&mut pool, 0.210, &mut drops), Some(ps[3]));
        assert_eq!((c.fifo.len(), c.target_drops, c.drop_next), (16, 1, 302732));
        assert_eq!(c.do_dequeue(&mut pool, 0.420, &mut drops), Some(ps[7]));
        assert_eq!((c.fifo.len(), c.target_drops, c.drop_next, c.count), (12, 4, 454127, 4));
        assert_eq!(drops.pkts, vec![ps[1], ps[4], ps[5], ps[6]]);
    }

    /// `CoDelQueueDiscBasicMark` 6.1 and 6.2: an ECN-capable packet is
    /// marked where a Not-ECT one is dropped, at the same point (19
    /// packets queued), and after a mark in the dropping state the next
    /// deadline counts from now (410156 + 48829).
    #[test]
    fn basic_mark() {
        let mut pool = PacketPool::new();
        let mut c = CoDel { use_ecn: true, ..CoDel::new() };
        fill(&mut pool, &mut c, &big(), 20, false);
        let mut drops = Drops::default();
        c.do_dequeue(&mut pool, 0.010, &mut drops);
        let before_first_drop = c.fifo.len();
        c.do_dequeue(&mut pool, 0.210, &mut drops);
        assert_eq!((c.target_drops, c.drop_next), (1, 302732));

        let mut pool = PacketPool::new();
        let mut c = CoDel { use_ecn: true, ..CoDel::new() };
        fill(&mut pool, &mut c, &big(), 20, true);
        let mut drops = Drops::default();
        let mut sizes = Vec::new();
        let mut before_first_mark = None;
        for t in [0.010, 0.210, 0.210, 0.420] {
            let n = c.fifo.len();
            c.do_dequeue(&mut pool, t, &mut drops);
            if c.target_marks == 1 && before_first_mark.is_none() {
                before_first_mark = Some(n);
            }
            sizes.push((c.fifo.len(), c.target_marks, c.drop_next));
        }
        assert!(drops.is_empty());
        assert_eq!(sizes, vec![(19, 0, 0), (18, 1, 302732), (17, 1, 302732), (16, 2, 458985)]);
        assert_eq!(before_first_mark, Some(before_first_drop));
    }

    /// `CoDelQueueDiscBasicMark` 6.3: with a 2 ms CE threshold, ECN-capable
    /// packets above it are CE-marked, but not a second time when the law
    /// marked them; Not-ECT packets are dropped by the law.
    #[test]
    fn ce_threshold_marks_once() {
        let mut pool = PacketPool::new();
        let mut c = CoDel { use_ecn: true, ce_threshold: Some(0.002), ..CoDel::new() };
        fill(&mut pool, &mut c, &big(), 3, true);
        fill(&mut pool, &mut c, &big(), 17, false);
        let mut drops = Drops::default();
        let mut seen = Vec::new();
        for t in [0.010, 0.210, 0.210, 0.420] {
            c.do_dequeue(&mut pool, t, &mut drops);
            seen.push((c.fifo.len(), drops.pkts.len(), c.target_marks, c.ce_marks));
        }
        assert_eq!(seen, vec![(19, 0, 0, 1), (18, 0, 1, 1), (17, 0, 1, 2), (13, 3, 1, 2)]);
    }

    /// `CoDelQueueDiscBasicMark` 6.4: below the CE threshold nothing is
    /// marked; above it, every ECN-capable packet.
    #[test]
    fn ce_threshold_before_target() {
        let mut pool = PacketPool::new();
        let mut c = CoDel { use_ecn: true, ce_threshold: Some(0.002), ..CoDel::new() };
        fill(&mut pool, &mut c, &big(), 20, true);
        let mut drops = Drops::default();
        let mut seen = Vec::new();
        for t in [0.001, 0.003, 0.010, 0.210] {
            c.do_dequeue(&mut pool, t, &mut drops);
            seen.push((c.fifo.len(), c.target_marks, c.ce_marks));
        }
        assert_eq!(seen, vec![(19, 0, 0), (18, 0, 1), (17, 0, 2), (16, 1, 2)]);
    }

    /// The backlog floor: a packet is OK to drop when exactly `min_bytes`
    /// stay queued behind it, not when one byte fewer does.
    #[test]
    fn min_bytes_floor_is_inclusive() {
        for (behind, drops_expected) in [(1500, 1), (1499, 0)] {
            let mut pool = PacketPool::new();
            let mut c = CoDel::new();
            for size in [1000, 1000, behind] {
                let p = pool.alloc();
                pool.get_mut(p).size = size;
                c.do_enqueue(&big(), &pool, 0.0, p);
            }
            let mut drops = Drops::default();
            // above target from 10 ms on: OK to drop after an interval
            c.do_dequeue(&mut pool, 0.010, &mut drops);
            c.do_dequeue(&mut pool, 0.2, &mut drops);
            assert_eq!(c.target_drops, drops_expected, "{behind} bytes behind");
        }
    }
}

/// Replays of ns-3.37 logs (testdata/codel): the same enqueue and dequeue
/// calls at the same times must give the same outcome, call by call.
#[cfg(test)]
mod ns3_fixture_replay {
    use super::*;
    use std::collections::HashMap;
    use std::io::Read;

    /// `5ms`, `100ms`, `20ms`: seconds.
    fn time_arg(v: &str) -> f64 {
        let (num, scale) = if let Some(n) = v.strip_suffix("ms") {
            (n, 1e-3)
        } else if let Some(n) = v.strip_suffix("us") {
            (n, 1e-6)
        } else {
            (v.strip_suffix('s').unwrap_or(v), 1.0)
        };
        num.parse::<f64>().unwrap() * scale
    }

    fn kv<'a>(fields: &'a [&'a str], key: &str) -> Option<&'a str> {
        fields.iter().find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
    }

    /// What one dequeue call must do.
    #[derive(Default, Debug, PartialEq)]
    struct Call {
        returned: Option<u32>,
        drops: Vec<u32>,
        target_marks: Vec<u32>,
        ce_marks: Vec<u32>,
        qbytes: i64,
        sojourn_ns: Option<i64>,
        dropping: Option<bool>,
        count: Option<u32>,
        last_count: Option<u32>,
        drop_next: Option<u32>,
    }

    fn replay(name: &str) -> (usize, usize) {
        let path = format!("{}/testdata/codel/{name}.txt.gz", env!("CARGO_MANIFEST_DIR"));
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
        let mut c = CoDel::new();
        let mut cap = Capacity { limit: 1_500_000, in_bytes: true, mean_pktsize: 1, drop_front: false };
        let mut pool = PacketPool::new();
        let mut by_seq: HashMap<u32, PktId> = HashMap::new();
        let mut seq_of: HashMap<PktId, u32> = HashMap::new();
        let mut want = Call::default();
        let (mut calls, mut enqueues) = (0, 0);
        for (n, line) in text.lines().enumerate() {
            let at = format!("{name}:{}: {line}", n + 1);
            if let Some(h) = line.strip_prefix("# target=") {
                let f: Vec<&str> = format!("target={h}").leak().split(' ').collect();
                c.target = time_arg(kv(&f, "target").unwrap());
                c.interval = time_arg(kv(&f, "interval").unwrap());
                c.use_ecn = kv(&f, "useEcn") == Some("1");
                c.min_bytes = kv(&f, "minBytes").unwrap().parse().unwrap();
                let ce = kv(&f, "ceThreshold").unwrap();
                c.ce_threshold = if ce.starts_with("default") { None } else { Some(time_arg(ce)) };
                let max = kv(&f, "maxSize").unwrap();
                cap = match max.strip_suffix('p') {
                    Some(p) => Capacity { limit: p.parse().unwrap(), in_bytes: false, mean_pktsize: 1, drop_front: false },
                    None => Capacity { limit: max.strip_suffix('B').unwrap().parse().unwrap(), in_bytes: true, mean_pktsize: 1, drop_front: false },
                };
                continue;
            }
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split(' ').collect();
            let t_ns: i64 = f[0].parse().unwrap();
            let now = t_ns as f64 / 1e9;
            let value: i64 = f[2].parse().unwrap();
            let seq = kv(&f, "seq").map(|s| s.parse::<u32>().unwrap());
            match f[1] {
                "enqueue" | "drop(overlimit)" => {
                    let p = pool.alloc();
                    let pk = pool.get_mut(p);
                    pk.size = value as i32;
                    pk.ecn_capable = kv(&f, "ect") == Some("1");
                    pk.ecn_to_echo = false;
                    let seq = seq.unwrap();
                    by_seq.insert(seq, p);
                    seq_of.insert(p, seq);
                    let v = c.do_enqueue(&cap, &pool, now, p);
                    if f[1] == "enqueue" {
                        assert_eq!(v, Verdict::Queued, "{at}");
                        assert_eq!(c.fifo.bytes(), kv(&f, "qbytes").unwrap().parse::<i64>().unwrap(), "{at}");
                    } else {
                        assert_eq!(v, Verdict::Dropped(p), "{at}");
                        by_seq.remove(&seq);
                        pool.free(p);
                    }
                    enqueues += 1;
                }
                "drop(target)" => want.drops.push(seq.unwrap()),
                "mark(target)" => want.target_marks.push(seq.unwrap()),
                "mark(ce_threshold)" => want.ce_marks.push(seq.unwrap()),
                "dropping" => want.dropping = Some(value == 1),
                "count" => want.count = Some(value as u32),
                "lastcount" => want.last_count = Some(value as u32),
                "drop_next" => want.drop_next = Some(value as u32),
                "dequeue" | "dequeue_empty" => {
                    want.qbytes = kv(&f, "qbytes").unwrap().parse().unwrap();
                    want.returned = seq;
                    want.sojourn_ns = kv(&f, "sojourn_ns").map(|s| s.parse().unwrap());
                    let before = (c.target_marks, c.ce_marks);
                    let (old_dropping, old_count, old_last, old_next) = (c.dropping, c.count, c.last_count, c.drop_next);
                    let mut drops = Drops::default();
                    let got = c.do_dequeue(&mut pool, now, &mut drops);
                    let returned = got.map(|p| seq_of[&p]);
                    let mut marked = Vec::new();
                    if let Some(p) = got {
                        if pool.get(p).ecn_to_echo {
                            marked.push(seq_of[&p]);
                        }
                    }
                    let have = Call {
                        returned,
                        drops: drops.pkts.iter().map(|p| seq_of[p]).collect(),
                        // a returned packet is marked by the law or for the CE threshold (never both)
                        target_marks: if c.target_marks > before.0 { marked.clone() } else { Vec::new() },
                        ce_marks: if c.ce_marks > before.1 { marked } else { Vec::new() },
                        qbytes: c.fifo.bytes(),
                        sojourn_ns: got.map(|_| (c.last_sojourn * 1e9).round() as i64),
                        dropping: (c.dropping != old_dropping).then_some(c.dropping),
                        count: (c.count != old_count).then_some(c.count),
                        last_count: (c.last_count != old_last).then_some(c.last_count),
                        drop_next: (c.drop_next != old_next).then_some(c.drop_next),
                    };
                    assert_eq!(have, std::mem::take(&mut want), "{at}");
                    for p in drops.pkts.iter().chain(got.iter()) {
                        by_seq.remove(&seq_of[p]);
                        pool.free(*p);
                    }
                    calls += 1;
                }
                other => panic!("{at}: unknown event {other}"),
            }
        }
        assert!(c.fifo.is_empty() && by_seq.is_empty(), "{name}: every packet accounted for");
        (enqueues, calls)
    }

    #[test]
    fn drops_on_a_10_mbit_link() {
        assert_eq!(replay("s1_drop_basic").0, 4728);
    }

    #[test]
    fn several_drops_per_dequeue_on_a_slow_link() {
        assert_eq!(replay("s2_slowlink_multidrop").0, 272);
    }

    #[test]
    fn ecn_marks_and_overflow() {
        assert_eq!(replay("s3_ecn_all_ect").0, 3934);
    }

    #[test]
    fn ecn_for_half_the_packets_and_a_ce_threshold() {
        assert_eq!(replay("s4_ecn_mixed_cethreshold").0, 3811);
    }
}
