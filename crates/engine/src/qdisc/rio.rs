//! RED with In and Out (Clark and Fang, "Explicit allocation of best-effort
//! packet delivery service", 1998), as ns-2 2.35 models it (queue/rio.cc
//! `RIOQueue`), step for step.
//!
//! One FIFO; each packet is In (its `pri` flag set, by a tagger upstream or,
//! with `priority_from_fid`, from its flow id) or Out.  RED's drop logic
//! runs twice over: In packets against the In band (their own average of
//! the In packets queued, their own thresholds and max_p), Out packets
//! against the Out band (the average of the whole queue, the Out
//! thresholds, RED's own max_p `linterm`).  RED's count and spreading,
//! `wait`, byte mode, ECN marking and forced drops (tail, front, random)
//! are RED's (qdisc/red.rs), which this wraps.
//!
//! Details kept from ns-2: only an In arrival runs the estimators (the
//! whole queue's and the In one), so the average the Out band reads moves
//! only when In packets arrive, and only an In arrival ends RED's idle
//! period; the In estimator's idle period starts when a dequeue finds the
//! queue empty and is measured from RED's idle time; a dequeued Out packet
//! does not end the In idle period; an In forced drop resets both counts
//! (unless `ns1_compat`), an Out one neither; the gentle curves' slopes are
//! set at reset (RED's `gentle` makes both bands gentle), and in byte mode
//! each reset scales the band thresholds by the mean packet size again.

use super::red::{curve_p, spread_p};
use super::{Capacity, Discipline, Drops, Qdisc, Red, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::sim::World;

/// One band's RED parameters and state (ns-2's `edp_in_`/`edv_in_`,
/// `edp_out_`/`edv_out_`).
#[derive(Debug, Clone, Default)]
pub struct Band {
    /// Thresholds (packets, or bytes after a reset in byte mode).
    pub th_min: f64,
    pub th_max: f64,
    /// 1 / max_p (In band only: the Out band uses RED's `max_p_inv`).
    pub max_p_inv: f64,
    pub gentle: bool,
    /// The average (In band only: the Out band reads RED's).
    pub v_ave: f64,
    pub v_prob1: f64,
    pub v_prob: f64,
    v_a: f64,
    v_b: f64,
    v_c: f64,
    v_d: f64,
    /// Arrivals (and bytes) since the band's last early drop.
    pub count: i32,
    pub count_bytes: i32,
    old: bool,
}

impl Band {
    /// The band's slopes (`RIOQueue::reset`); `max_p_inv` is the band's
    /// 1 / max_p.
    fn reset(&mut self, max_p_inv: f64) {
        if self.gentle {
            self.v_c = (1.0 - 1.0 / max_p_inv) / self.th_max;
            self.v_d = 2.0 / max_p_inv - 1.0;
        }
        self.v_ave = 0.0;
        self.count = 0;
        self.count_bytes = 0;
        self.old = false;
        self.v_a = 1.0 / (self.th_max - self.th_min);
        self.v_b = -self.th_min / (self.th_max - self.th_min);
    }

    /// Above the upper threshold (twice it when gentle): a forced drop.
    fn over(&self, avg: f64) -> bool {
        (!self.gentle && avg >= self.th_max) || (self.gentle && avg >= 2.0 * self.th_max)
    }
}

/// Outcome of a band's drop logic for one arrival.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DropType {
    None,
    Forced,
    /// An early drop of the queued packet at this index, or of the arrival.
    Unforced(Option<usize>),
}

/// RIO: RED and its two bands.
#[derive(Debug, Clone)]
pub struct Rio {
    /// RED's parameters and state: the FIFO, the whole queue's average,
    /// `q_w`, `linterm` (the Out band's max_p), `wait`, `bytes`, `setbit`,
    /// `gentle`, the count, the idle time, the traced variables.
    pub red: Red,
    pub in_band: Band,
    pub out_band: Band,
    /// In packets queued, and their bytes.
    pub in_len: i32,
    pub in_bcount: i32,
    /// The In estimator's idle flag.
    pub in_idle: bool,
    /// 1 sets each arrival's In flag from its flow id
    /// (`pri_ = fid`, as a byte), anything else leaves the flag as it came.
    pub priority_method: i32,
}

impl Default for Rio {
    fn default() -> Self {
        Rio::new()
    }
}

impl Rio {
    pub fn new() -> Rio {
        Rio {
            red: Red::new(),
            in_band: Band::default(),
            out_band: Band::default(),
            in_len: 0,
            in_bcount: 0,
            in_idle: true,
            priority_method: 0,
        }
    }

    /// `RIOQueue::reset`, then RED's (`link_bw` as `Red::reset` takes it).
    pub fn reset(&mut self, w: &mut World, link_bw: Option<f64>, qib: bool, mean_pktsize: i32) {
        if qib {
            for b in [&mut self.in_band, &mut self.out_band] {
                b.th_min *= mean_pktsize as f64;
                b.th_max *= mean_pktsize as f64;
            }
        }
        if self.red.gentle {
            self.in_band.gentle = true;
            self.out_band.gentle = true;
        }
        let in_inv = self.in_band.max_p_inv;
        self.in_band.reset(in_inv);
        self.out_band.reset(self.red.max_p_inv);
        self.in_idle = true;
        self.red.reset(w, link_bw, qib, mean_pktsize);
    }

    /// Take the arrival `p` in, or drop it or a queued packet.
    pub(crate) fn enque(&mut self, cap: &Capacity, w: &mut World, p: PktId) -> Verdict {
        if self.priority_method == 1 {
            let pk = w.pool.get_mut(p);
            pk.pri = pk.fid as u8 != 0;
        }
        let size = w.pool.get(p).size;
        let mean = cap.mean_pktsize;
        let qlen = cap.len_of(&self.red.fifo);
        let qlim = if cap.in_bytes { (cap.limit as i64).wrapping_mul(mean as i64) as i32 as i64 } else { cap.limit as i64 };
        let is_in = w.pool.get(p).pri;
        let mut marked = false;
        let mut droptype;
        if is_in {
            let now = w.s.now;
            let (mut m, mut m_in) = (0, 0);
            if self.in_idle {
                self.in_idle = false;
                m_in = crate::num::c_int(self.red.ptc * (now - self.red.idletime));
            }
            if self.red.idle {
                self.red.idle = false;
                m = crate::num::c_int(self.red.ptc * (now - self.red.idletime));
            }
            let (ave, q_w) = (self.red.v_ave, self.red.q_w);
            let new_ave = self.red.estimator(w, qlen, m.wrapping_add(1), ave, q_w);
            self.red.set_ave(w, new_ave);
            let in_qlen = if cap.in_bytes { self.in_bcount as i64 } else { self.in_len as i64 };
            let in_ave = self.in_band.v_ave;
            self.in_band.v_ave = self.red.estimator(w, in_qlen, m_in.wrapping_add(1), in_ave, q_w);
            self.red.count += 1;
            self.red.count_bytes = self.red.count_bytes.wrapping_add(size);
            self.in_band.count += 1;
            self.in_band.count_bytes = self.in_band.count_bytes.wrapping_add(size);
            let in_qavg = self.in_band.v_ave;
            droptype = DropType::None;
            self.red.set_curq(w, qlen as i32);
            if in_qavg >= self.in_band.th_min && in_qlen > 1 {
                if self.in_band.over(in_qavg) {
                    droptype = DropType::Forced;
                } else if !self.in_band.old {
                    self.in_band.count = 1;
                    self.in_band.count_bytes = size;
                    self.in_band.old = true;
                } else if let Some(at) = self.drop_early(true, mean, w, p, &mut marked) {
                    droptype = DropType::Unforced(at);
                }
            } else {
                self.in_band.v_prob = 0.0;
                self.in_band.old = false;
            }
        } else {
            self.red.count += 1;
            self.red.count_bytes = self.red.count_bytes.wrapping_add(size);
            self.out_band.count += 1;
            self.out_band.count_bytes = self.out_band.count_bytes.wrapping_add(size);
            let qavg = self.red.v_ave;
            droptype = DropType::None;
            self.red.set_curq(w, qlen as i32);
            if qavg >= self.out_band.th_min && qlen > 1 {
                if self.out_band.over(qavg) {
                    droptype = DropType::Forced;
                } else if !self.out_band.old {
                    self.out_band.count = 1;
                    self.out_band.count_bytes = size;
                    self.out_band.old = true;
                } else if let Some(at) = self.drop_early(false, mean, w, p, &mut marked) {
                    droptype = DropType::Unforced(at);
                }
            } else {
                self.out_band.v_prob = 0.0;
                self.out_band.old = false;
            }
        }
        if qlen >= qlim {
            droptype = DropType::Forced;
        }
        match droptype {
            DropType::Unforced(at) => {
                let victim = match at {
                    Some(i) => {
                        self.push(&w.pool, p);
                        self.remove_at(&w.pool, i)
                    }
                    None => p,
                };
                Verdict::EarlyDropped(victim)
            }
            DropType::Forced => {
                self.push(&w.pool, p);
                let len = self.red.fifo.len();
                let i = if cap.drop_front {
                    1.min(len - 1)
                } else if self.red.drop_rand {
                    w.rng.default_stream().uniform_int(len as i32) as usize
                } else {
                    len - 1
                };
                let v = self.remove_at(&w.pool, i);
                if is_in && !self.red.ns1_compat {
                    self.red.count = 0;
                    self.red.count_bytes = 0;
                    self.in_band.count = 0;
                    self.in_band.count_bytes = 0;
                }
                Verdict::Dropped(v)
            }
            DropType::None => {
                self.push(&w.pool, p);
                if marked {
                    Verdict::Marked
                } else {
                    Verdict::Queued
                }
            }
        }
    }

    /// `drop_in_early` / `drop_out_early`: the band's probability, a draw,
    /// and the decision.  None keeps the arrival (`marked` set if it, or
    /// the packet picked instead, was marked); Some(victim) drops (see
    /// `Red::pick_for_ecn`).
    fn drop_early(&mut self, is_in: bool, mean: i32, w: &mut World, p: PktId, marked: &mut bool) -> Option<Option<usize>> {
        let size = w.pool.get(p).size;
        let (red, band) = if is_in { (&self.red, &mut self.in_band) } else { (&self.red, &mut self.out_band) };
        let (ave, max_p_inv) = if is_in { (band.v_ave, band.max_p_inv) } else { (red.v_ave, red.max_p_inv) };
        band.v_prob1 = curve_p(ave, band.th_max, band.gentle, (band.v_a, band.v_b, band.v_c, band.v_d), 1.0 / max_p_inv);
        band.v_prob = spread_p(band.v_prob1, band.count, band.count_bytes, red.bytes, red.wait, mean, size);
        let u = w.rng.default_stream().uniform_double();
        if u <= band.v_prob {
            band.count = 0;
            band.count_bytes = 0;
            let th_max = band.th_max;
            let at = red.pick_for_ecn(&w.pool, p);
            let victim = at.map_or(p, |i| red.fifo.get(i).expect("victim in queue"));
            let pk = w.pool.get_mut(victim);
            if red.setbit && pk.ecn_capable && ave < th_max {
                pk.ecn_to_echo = true;
                *marked = true;
                return None;
            }
            return Some(at);
        }
        None
    }

    /// Queue `p`, counting it as In whatever its flag (ns-2 counts every
    /// packet the In branch queues, and only those).
    fn push(&mut self, pool: &PacketPool, p: PktId) {
        self.red.fifo.push(pool, p);
        let pk = pool.get(p);
        if pk.pri {
            self.in_len += 1;
            self.in_bcount = self.in_bcount.wrapping_add(pk.size);
        }
    }

    /// Take out the queued packet at `i`, uncounting it if it is In.
    fn remove_at(&mut self, pool: &PacketPool, i: usize) -> PktId {
        let v = self.red.fifo.remove_at(pool, i);
        let pk = pool.get(v);
        if pk.pri {
            self.in_len -= 1;
            self.in_bcount = self.in_bcount.wrapping_sub(pk.size);
        }
        v
    }

    /// `RIOQueue::deque`: RED's, then the In bookkeeping.
    pub(crate) fn deque(&mut self, pool: &PacketPool, now: f64) -> Option<PktId> {
        let p = self.red.deque(pool, now);
        match p {
            Some(p) => {
                let pk = pool.get(p);
                if pk.pri {
                    self.in_idle = false;
                    self.in_bcount = self.in_bcount.wrapping_sub(pk.size);
                    self.in_len -= 1;
                }
            }
            None => self.in_idle = true,
        }
        p
    }
}

impl Discipline for Rio {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.enque(cap, w, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.deque(&w.pool, w.s.now)
    }

    /// A dequeue that found the queue empty at `now` (learnt late).
    fn link_idle(&mut self, now: f64) {
        self.red.dequeued(false, now);
        self.in_idle = true;
    }

    fn len(&self) -> usize {
        self.red.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.red.fifo.bytes()
    }
}

impl Qdisc {
    /// The RED of a RED queue, of a RIO queue (a RED with two bands) or of a
    /// RED-PD queue (a RED behind a per-flow filter):
    /// what RED's commands (`link`, `trace`, `reset`) and variables reach.
    pub fn red(&self) -> Option<&Red> {
        self.get::<Red>().or_else(|| self.get::<Rio>().map(|r| &r.red)).or_else(|| self.get::<super::RedPd>().map(|r| &r.red))
    }

    pub fn red_mut(&mut self) -> Option<&mut Red> {
        if self.get::<Red>().is_some() {
            return self.get_mut::<Red>();
        }
        if self.get::<Rio>().is_some() {
            return self.get_mut::<Rio>().map(|r| &mut r.red);
        }
        self.get_mut::<super::RedPd>().map(|r| &mut r.red)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(w: &mut World, fid: i32) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.size = 1000;
        pk.fid = fid;
        p
    }

    /// In band 10..20, Out band 3..9, max_p 1/10 both, the average the
    /// instantaneous queue (q_w 1), reset; flow 0 Out, others In.
    fn rio(w: &mut World) -> (Rio, Capacity) {
        let mut r = Rio::new();
        r.priority_method = 1;
        r.red.q_w = 1.0;
        r.red.max_p_inv = 10.0;
        r.red.th_min_pkts = 5.0;
        r.red.th_max_pkts = 15.0;
        r.red.wait = true;
        r.in_band = Band { th_min: 10.0, th_max: 20.0, max_p_inv: 10.0, ..Band::default() };
        r.out_band = Band { th_min: 3.0, th_max: 9.0, ..Band::default() };
        r.reset(w, None, false, 500);
        (r, Capacity { limit: 100, ..Capacity::default() })
    }

    /// Priority method 1 sets the In flag from the flow id, as ns-2's
    /// byte-wide `pri_` holds it (flow 256 is Out).
    #[test]
    fn in_flag_from_the_flow_id() {
        let mut w = World::new_for_tests();
        let (mut r, cap) = rio(&mut w);
        let ps: Vec<PktId> = [0, 1, 7, 256].iter().map(|&f| pkt(&mut w, f)).collect();
        for &p in &ps {
            assert_eq!(r.enque(&cap, &mut w, p), Verdict::Queued);
        }
        let pri: Vec<bool> = ps.iter().map(|&p| w.pool.get(p).pri).collect();
        assert_eq!(pri, vec![false, true, true, false]);
        assert_eq!((r.in_len, r.in_bcount), (2, 2000));
        // dequeuing In packets uncounts them
        for _ in 0..3 {
            r.deque(&w.pool, 0.0);
        }
        assert_eq!((r.in_len, r.in_bcount, r.in_idle), (0, 0, false));
        r.deque(&w.pool, 0.0);
        assert!(r.deque(&w.pool, 0.5).is_none());
        assert!(r.in_idle && r.red.idle && r.red.idletime == 0.5);
    }

    /// Out packets are dropped once the average passes the Out band's upper
    /// threshold, while In packets are still queued; only In arrivals move
    /// the averages.
    #[test]
    fn out_dropped_while_in_queued() {
        let mut w = World::new_for_tests();
        let (mut r, cap) = rio(&mut w);
        for _ in 0..12 {
            let p = pkt(&mut w, 1);
            assert_eq!(r.enque(&cap, &mut w, p), Verdict::Queued);
        }
        // the last In arrival saw 11 queued
        assert_eq!((r.red.v_ave, r.in_band.v_ave), (11.0, 11.0));
        let out = pkt(&mut w, 0);
        assert_eq!(r.enque(&cap, &mut w, out), Verdict::Dropped(out));
        assert_eq!(r.red.v_ave, 11.0, "an Out arrival runs no estimator");
        // an Out forced drop leaves the counts; an In arrival is queued
        // (the In average, 12, just crossed the In band's lower threshold)
        let p = pkt(&mut w, 1);
        assert_eq!(r.enque(&cap, &mut w, p), Verdict::Queued);
        assert_eq!((r.in_band.v_ave, r.in_len, r.red.fifo.len()), (12.0, 13, 13));
        assert!(r.in_band.old);
    }

    /// The In band's own drop curve: between its thresholds the In arrivals
    /// are dropped early with RED's spreading, drawn from the default
    /// stream; the counts restart at each drop.
    #[test]
    fn in_band_drops_early() {
        let mut w = World::new_for_tests();
        let (mut r, cap) = rio(&mut w);
        r.red.wait = false;
        r.in_band.max_p_inv = 2.0;
        r.reset(&mut w, None, false, 500);
        let mut early = 0;
        for _ in 0..19 {
            let p = pkt(&mut w, 1);
            match r.enque(&cap, &mut w, p) {
                Verdict::EarlyDropped(v) => {
                    assert_eq!(v, p);
                    assert_eq!(r.in_band.count, 0);
                    early += 1;
                }
                v => assert_eq!(v, Verdict::Queued),
            }
        }
        assert!(r.in_band.v_prob1 > 0.0 && r.in_band.v_prob1 < 0.5, "{}", r.in_band.v_prob1);
        assert_eq!(r.in_len as usize, r.red.fifo.len());
        assert_eq!(r.in_len as usize + early, 19);
        assert!(early >= 1, "no early drop");
    }
}
