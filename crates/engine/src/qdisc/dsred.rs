//! A DiffServ router's queue (Nichols et al., RFC 2475), as ns-2 2.35
//! models it (diffserv/dsred.cc, dsredq.cc, dsEdge.cc), step for step.
//!
//! Up to [`MAX_QUEUES`] physical FIFO queues, each with up to [`MAX_PREC`]
//! virtual queues (drop precedences) that run RED (multi-RED) over the
//! packets of their precedence.  A per-hop behaviour table maps a packet's
//! code point (its IP priority) to a physical queue and a precedence.  A
//! scheduler picks the physical queue to send from: round robin, weighted
//! round robin, weighted interleaved round robin, or strict priority (with
//! an optional rate cap per queue, metered over a one-second sliding
//! window).  An edge queue first marks each arrival with a code point
//! from its flow's profile (`policer.rs`); a core queue takes the code
//! point the packet carries.
//!
//! The averages are kept as ns-2 keeps them: computed in single precision
//! (a C `float`), stored in double.  How a precedence's average counts the
//! queue is the accounting mode: RIO coupled (the packets of its own and
//! every better precedence), RIO decoupled (its own), WRED (the whole
//! physical queue, one average shared by all precedences), or drop-tail
//! (no average: a precedence holding its lower threshold drops).

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::policer::{Marker, Unmarked};
use crate::sim::World;

pub const MAX_QUEUES: usize = 8;
pub const MAX_PREC: usize = 3;
/// Code points run 0..MAX_CP.
pub const MAX_CP: usize = 40;

/// How a precedence's average queue is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accounting {
    /// RIO coupled: precedence n counts the packets of precedences 0..=n.
    RioCoupled,
    /// RIO decoupled: each precedence counts its own packets.
    RioDecoupled,
    /// One average over the whole physical queue.
    Wred,
    /// No RED: a precedence drops once it holds its lower threshold.
    DropTail,
}

/// Which physical queue sends next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    RoundRobin,
    WeightedRoundRobin,
    WeightedInterleavedRoundRobin,
    Priority,
}

/// One precedence's RED parameters and state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Precedence {
    pub th_min: f64,
    pub th_max: f64,
    pub max_p_inv: f64,
    pub q_w: f64,
    pub mean_pktsize: i32,
    /// Packets per second the link sends (`ptc`), set at a reset.
    pub ptc: f64,
    pub ave: f64,
    pub prob: f64,
    pub count: i32,
    /// Packets of this precedence queued.
    pub qlen: i32,
    pub idle: bool,
    pub idle_time: f64,
}

/// What a physical queue did with an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Queued,
    Dropped,
    EarlyDropped,
    Marked,
}

/// A physical queue and its precedences.
#[derive(Clone, Debug)]
pub struct PhysQueue {
    pub fifo: Fifo,
    pub prec: [Precedence; MAX_PREC],
    pub num_prec: usize,
    /// Packets it holds at most (the queue's limit at the last reset).
    pub limit: i32,
    pub mode: Accounting,
}

impl PhysQueue {
    fn new() -> PhysQueue {
        PhysQueue { fifo: Fifo::default(), prec: [Precedence::default(); MAX_PREC], num_prec: MAX_PREC, limit: 50, mode: Accounting::RioCoupled }
    }

    /// Configure precedence `p` (`q_w` 0.002 unless given); its average
    /// starts again at 0 and idle since `now`.
    pub fn configure(&mut self, p: usize, th_min: f64, th_max: f64, max_p: f64, q_w: Option<f64>, now: f64) {
        let v = &mut self.prec[p];
        v.qlen = 0;
        v.th_min = th_min;
        v.th_max = th_max;
        v.max_p_inv = 1.0 / max_p;
        v.q_w = q_w.unwrap_or(0.002);
        v.ave = 0.0;
        v.idle = true;
        v.idle_time = now;
    }

    /// The average of precedence `p` after an arrival, `m` packet times
    /// since it was last updated (the estimator in single precision).
    fn average(&mut self, p: usize, mut m: i32) {
        let q_w = self.prec[p].q_w;
        let mut f = self.prec[p].ave as f32;
        loop {
            m = m.wrapping_sub(1);
            if m < 1 || f == 0.0 {
                break;
            }
            f = (f as f64 * (1.0 - q_w)) as f32;
        }
        f = (f as f64 * (1.0 - q_w)) as f32;
        match self.mode {
            Accounting::RioCoupled | Accounting::DropTail => {
                for v in &self.prec[..=p] {
                    f = (f as f64 + v.q_w * v.qlen as f64) as f32;
                }
            }
            Accounting::RioDecoupled => f = (f as f64 + q_w * self.prec[p].qlen as f64) as f32,
            Accounting::Wred => f = (f as f64 + q_w * self.fifo.len() as f64) as f32,
        }
        if self.mode == Accounting::Wred {
            for v in &mut self.prec[..self.num_prec] {
                v.ave = f as f64;
            }
        } else {
            self.prec[p].ave = f as f64;
        }
    }

    /// The packet times since precedence `i` went idle (0 if it is not).
    fn idle_periods(&self, i: usize, now: f64) -> i32 {
        let v = &self.prec[i];
        if v.idle {
            crate::num::c_int(v.ptc * (now - v.idle_time))
        } else {
            0
        }
    }

    /// A packet of precedence `p` was taken in: its precedences are busy.
    fn busy(&mut self, p: usize) {
        match self.mode {
            Accounting::RioCoupled => {
                for v in &mut self.prec[p..self.num_prec.max(p)] {
                    v.idle = false;
                }
            }
            Accounting::RioDecoupled => self.prec[p].idle = false,
            _ => self.prec[0].idle = false,
        }
    }

    /// An arrival of precedence `p`, ECN-capable with `ecn`.
    fn enque(&mut self, w: &mut World, pkt: PktId, p: usize, ecn: bool) -> Outcome {
        if self.fifo.len() as i64 > self.limit as i64 - 1 {
            return Outcome::Dropped;
        }
        let now = w.s.now;
        match self.mode {
            Accounting::DropTail => {
                if self.prec[p].qlen as f64 >= self.prec[p].th_min {
                    return Outcome::Dropped;
                }
            }
            Accounting::RioCoupled => {
                for i in p..self.num_prec {
                    let m = self.idle_periods(i, now);
                    self.average(i, m.wrapping_add(1));
                }
            }
            Accounting::RioDecoupled => {
                let m = self.idle_periods(p, now);
                self.average(p, m.wrapping_add(1));
            }
            Accounting::Wred => {
                let m = self.idle_periods(0, now);
                self.average(0, m.wrapping_add(1));
            }
        }
        if ecn {
            self.fifo.push(&w.pool, pkt);
            self.prec[p].qlen += 1;
        }
        let v = &mut self.prec[p];
        if v.ave > v.th_min {
            if v.ave <= v.th_max {
                v.count = v.count.wrapping_add(1);
                v.prob = (1.0 / v.max_p_inv) * (v.ave - v.th_min) / (v.th_max - v.th_min);
                let pb = v.prob;
                let pa = pb / (1.0 - v.count as f64 * pb);
                if w.rng.default_stream().uniform_double() <= pa {
                    v.count = 0;
                    if ecn {
                        self.busy(p);
                        return Outcome::Marked;
                    }
                    return Outcome::EarlyDropped;
                }
            } else {
                v.count = 0;
                if ecn {
                    self.busy(p);
                    return Outcome::Marked;
                }
                return Outcome::Dropped;
            }
        } else {
            v.count = -1;
        }
        if !ecn {
            self.fifo.push(&w.pool, pkt);
            self.prec[p].qlen += 1;
        }
        self.busy(p);
        Outcome::Queued
    }

    /// A packet of precedence `p` left at `now`.
    fn left(&mut self, p: usize, now: f64) {
        self.prec[p].qlen -= 1;
        if self.prec[p].qlen != 0 {
            return;
        }
        match self.mode {
            Accounting::RioCoupled => {
                if self.prec[..p].iter().all(|v| v.qlen == 0) {
                    for v in &mut self.prec[p..self.num_prec.max(p)] {
                        if v.qlen != 0 {
                            break;
                        }
                        v.idle = true;
                        v.idle_time = now;
                    }
                }
            }
            Accounting::RioDecoupled => {
                self.prec[p].idle = true;
                self.prec[p].idle_time = now;
            }
            Accounting::Wred => {
                self.prec[0].idle = true;
                self.prec[0].idle_time = now;
            }
            Accounting::DropTail => {}
        }
    }

    /// The queue's weighted length: the last precedence's average when
    /// coupled, else the sum of the averages.
    pub fn weighted_len(&self) -> f64 {
        if self.mode == Accounting::RioCoupled {
            self.prec[self.num_prec.max(1) - 1].ave
        } else {
            self.prec[..self.num_prec].iter().map(|v| v.ave).sum()
        }
    }
}

/// Arrivals, overflow drops and early drops: over all, and per code point.
#[derive(Clone, Debug)]
pub struct Stats {
    pub pkts: i64,
    pub drops: i64,
    pub edrops: i64,
    pub pkts_cp: [i64; MAX_CP],
    pub drops_cp: [i64; MAX_CP],
    pub edrops_cp: [i64; MAX_CP],
}

impl Default for Stats {
    fn default() -> Stats {
        Stats { pkts: 0, drops: 0, edrops: 0, pkts_cp: [0; MAX_CP], drops_cp: [0; MAX_CP], edrops_cp: [0; MAX_CP] }
    }
}

/// One per-hop behaviour: a code point's physical queue and precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phb {
    pub code_point: i32,
    pub queue: usize,
    pub prec: usize,
}

/// Why a packet stopped the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Its code point has no per-hop behaviour here.
    NoPhb(i32),
    /// The edge could not mark it.
    Unmarked(Unmarked),
}

/// The DiffServ queue.
#[derive(Clone, Debug)]
pub struct DsRed {
    pub queues: Vec<PhysQueue>,
    /// Physical queues in use (1..=MAX_QUEUES).
    pub num_queues: i32,
    pub num_prec: usize,
    /// Mark rather than drop ECN-capable packets.
    pub ecn: bool,
    pub phb: Vec<Phb>,
    pub scheduler: Scheduler,
    pub weights: [i32; MAX_QUEUES],
    /// Priority scheduling's rate caps (bytes/s, 0 for none), and each
    /// queue's metered rate and last update.
    pub max_rate: [f64; MAX_QUEUES],
    avg_rate: [f64; MAX_QUEUES],
    arr_time: [f64; MAX_QUEUES],
    /// The scheduler's state: the queue served last, the weighted round
    /// robins' rounds.
    q_to_dq: usize,
    wirr_temp: [i32; MAX_QUEUES],
    wirr_done: [bool; MAX_QUEUES],
    queues_done: i32,
    /// Packets sent from each queue.
    pub sent: [i64; MAX_QUEUES],
    pub stats: Stats,
    /// An edge's marker (None at a core).
    pub marker: Option<Box<Marker>>,
    /// The link it feeds (its bandwidth sets each precedence's `ptc` at a
    /// reset), as an object id.
    pub link: u32,
}

impl DsRed {
    /// A core queue (`edge`: an edge queue, with an empty marker).
    pub fn new(edge: bool) -> DsRed {
        DsRed {
            queues: (0..MAX_QUEUES).map(|_| PhysQueue::new()).collect(),
            num_queues: 4,
            num_prec: MAX_PREC,
            ecn: false,
            phb: Vec::new(),
            scheduler: Scheduler::RoundRobin,
            weights: [1; MAX_QUEUES],
            max_rate: [0.0; MAX_QUEUES],
            avg_rate: [0.0; MAX_QUEUES],
            arr_time: [0.0; MAX_QUEUES],
            q_to_dq: 0,
            wirr_temp: [0; MAX_QUEUES],
            wirr_done: [false; MAX_QUEUES],
            queues_done: MAX_QUEUES as i32,
            sent: [0; MAX_QUEUES],
            stats: Stats::default(),
            marker: edge.then(Box::default),
            link: u32::MAX,
        }
    }

    /// Precedences per physical queue (1..=MAX_PREC).
    pub fn set_num_prec(&mut self, n: usize) {
        self.num_prec = n;
        for q in &mut self.queues {
            q.num_prec = n;
        }
    }

    /// The mean packet size of the precedences in use now.
    pub fn set_mean_pktsize(&mut self, size: i32) {
        for q in &mut self.queues {
            for v in &mut q.prec[..q.num_prec] {
                v.mean_pktsize = size;
            }
        }
    }

    /// Map `code_point` to physical queue `queue`, precedence `prec`
    /// (a code point mapped twice keeps its first mapping).
    pub fn add_phb(&mut self, code_point: i32, queue: usize, prec: usize) {
        self.phb.push(Phb { code_point, queue, prec });
    }

    fn lookup(&self, code_point: i32) -> Option<(usize, usize)> {
        self.phb.iter().find(|e| e.code_point == code_point).map(|e| (e.queue, e.prec))
    }

    /// The counters and the scheduler start again; each physical queue
    /// holds `limit` packets; with the link's bandwidth `link_bw`, the
    /// precedences in use learn their packet rate.
    pub fn reset(&mut self, limit: i32, link_bw: Option<f64>) {
        self.q_to_dq = 0;
        self.avg_rate = [0.0; MAX_QUEUES];
        self.arr_time = [0.0; MAX_QUEUES];
        self.wirr_temp = [0; MAX_QUEUES];
        self.wirr_done = [false; MAX_QUEUES];
        self.sent = [0; MAX_QUEUES];
        self.stats = Stats::default();
        for q in &mut self.queues {
            q.limit = limit;
            if let Some(bw) = link_bw {
                for v in &mut q.prec[..q.num_prec] {
                    v.ptc = bw / (8.0 * v.mean_pktsize as f64);
                }
            }
        }
    }

    /// Stop the run for `f` (ns-2 asserts or crashes here).
    #[cold]
    fn fault(&mut self, w: &mut World, f: Fault) {
        w.abort(crate::notice::Abort::DiffServ(f));
    }

    /// The one-second sliding-window rate of queue `q`, `bytes` more sent.
    fn meter(&mut self, q: usize, bytes: i32, now: f64) {
        let win = 1.0;
        let total = self.avg_rate[q] * win + bytes as f64;
        self.avg_rate[q] = total / (now - self.arr_time[q] + win);
        self.arr_time[q] = now;
    }

    fn is_empty(&self, q: usize) -> bool {
        self.queues[q].fifo.is_empty()
    }

    /// The physical queue to serve next (may be past `num_queues`, or
    /// empty: then nothing is sent).
    fn select(&mut self) -> usize {
        let n = self.num_queues.max(1) as usize;
        let mut i = 0;
        match self.scheduler {
            Scheduler::RoundRobin => {
                self.q_to_dq = (self.q_to_dq + 1) % n;
                while i < n && self.is_empty(self.q_to_dq) {
                    self.q_to_dq = (self.q_to_dq + 1) % n;
                    i += 1;
                }
            }
            Scheduler::WeightedRoundRobin => {
                let q = self.q_to_dq;
                if self.wirr_temp[q] <= 0 {
                    self.q_to_dq = (q + 1) % n;
                    self.wirr_temp[self.q_to_dq] = self.weights[self.q_to_dq] - 1;
                } else {
                    self.wirr_temp[q] -= 1;
                }
                while i < n && self.is_empty(self.q_to_dq) {
                    self.wirr_temp[self.q_to_dq] = 0;
                    self.q_to_dq = (self.q_to_dq + 1) % n;
                    self.wirr_temp[self.q_to_dq] = self.weights[self.q_to_dq] - 1;
                    i += 1;
                }
            }
            Scheduler::WeightedInterleavedRoundRobin => {
                self.q_to_dq = (self.q_to_dq + 1) % n;
                while i < n && (self.is_empty(self.q_to_dq) || self.wirr_done[self.q_to_dq]) {
                    if !self.wirr_done[self.q_to_dq] {
                        self.queues_done += 1;
                        self.wirr_done[self.q_to_dq] = true;
                    }
                    self.q_to_dq = (self.q_to_dq + 1) % n;
                    i += 1;
                }
                let q = self.q_to_dq;
                if self.wirr_temp[q] == 1 {
                    self.queues_done += 1;
                    self.wirr_done[q] = true;
                }
                self.wirr_temp[q] -= 1;
                if self.queues_done >= n as i32 {
                    self.queues_done = 0;
                    for j in 0..n {
                        self.wirr_temp[j] = self.weights[j];
                        self.wirr_done[j] = false;
                    }
                }
            }
            Scheduler::Priority => {
                while i < n && (self.is_empty(i) || (self.max_rate[i] != 0.0 && self.avg_rate[i] > self.max_rate[i])) {
                    i += 1;
                }
                self.q_to_dq = i;
                if i == n {
                    i = 0;
                    self.q_to_dq = 0;
                    while i < n && self.is_empty(self.q_to_dq) {
                        self.q_to_dq = (self.q_to_dq + 1) % n;
                        i += 1;
                    }
                }
            }
        }
        self.q_to_dq
    }
}

impl Discipline for DsRed {
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        if let Some(m) = self.marker.as_deref_mut() {
            let (src, dst, size) = {
                let pk = w.pool.get(p);
                (pk.saddr, pk.daddr, pk.size)
            };
            let now = w.s.now;
            match m.mark(now, src, dst, size, w.rng.default_stream()) {
                Ok(cp) => w.pool.get_mut(p).prio = cp,
                Err(e) => {
                    self.fault(w, Fault::Unmarked(e));
                    return Verdict::Dropped(p);
                }
            }
        }
        let cp = w.pool.get(p).prio;
        let Some((q, prec)) = self.lookup(cp) else {
            self.fault(w, Fault::NoPhb(cp));
            return Verdict::Dropped(p);
        };
        let ecn = self.ecn && w.pool.get(p).ecn_capable;
        let c = cp as usize;
        self.stats.pkts_cp[c] += 1;
        self.stats.pkts += 1;
        match self.queues[q].enque(w, p, prec, ecn) {
            Outcome::Queued => Verdict::Queued,
            Outcome::Dropped => {
                self.stats.drops_cp[c] += 1;
                self.stats.drops += 1;
                Verdict::Dropped(p)
            }
            Outcome::EarlyDropped => {
                self.stats.edrops_cp[c] += 1;
                self.stats.edrops += 1;
                Verdict::EarlyDropped(p)
            }
            Outcome::Marked => {
                w.pool.get_mut(p).ecn_to_echo = true;
                Verdict::Marked
            }
        }
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        let q = self.select();
        if q >= self.num_queues.max(0) as usize || q >= MAX_QUEUES {
            return None;
        }
        let p = self.queues[q].fifo.pop(&w.pool)?;
        self.sent[q] += 1;
        let now = w.s.now;
        if self.scheduler == Scheduler::Priority {
            let size = w.pool.get(p).size;
            for i in 0..self.num_queues as usize {
                if self.max_rate[i] != 0.0 {
                    self.meter(i, if i == q { size } else { 0 }, now);
                }
            }
        }
        // a queued packet's code point has its behaviour (it was looked up)
        let (_, prec) = self.lookup(w.pool.get(p).prio).unwrap_or((q, 0));
        self.queues[q].left(prec, now);
        Some(p)
    }

    fn len(&self) -> usize {
        self.queues.iter().map(|q| q.fifo.len()).sum()
    }

    fn bytes(&self) -> i64 {
        self.queues.iter().map(|q| q.fifo.bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policer::{MeterKind, Profile, Rule};

    fn pkt(w: &mut World, cp: i32, size: i32) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.prio = cp;
        pk.size = size;
        p
    }

    /// Two physical queues (code points 10 and 20), precedences 0 and 1 of
    /// queue 0 (10 and 11), thresholds far above what the tests queue.
    fn two_queues() -> DsRed {
        let mut d = DsRed::new(false);
        d.num_queues = 2;
        d.set_num_prec(2);
        d.set_mean_pktsize(1000);
        d.add_phb(10, 0, 0);
        d.add_phb(11, 0, 1);
        d.add_phb(20, 1, 0);
        for (q, p) in [(0, 0), (0, 1), (1, 0)] {
            d.queues[q].configure(p, 100.0, 200.0, 0.1, None, 0.0);
        }
        d.reset(50, Some(1.0e6));
        d
    }

    fn enq(d: &mut DsRed, w: &mut World, cp: i32) -> Verdict {
        let p = pkt(w, cp, 1000);
        d.enqueue(&Capacity::default(), w, p, &mut Drops::default())
    }

    fn served(d: &mut DsRed, w: &mut World, n: usize) -> Vec<i32> {
        let ps: Vec<PktId> = (0..n).filter_map(|_| d.dequeue(w, &mut Drops::default())).collect();
        ps.iter().map(|&p| w.pool.get(p).prio).collect()
    }

    /// Round robin alternates between the queues that hold packets; the
    /// virtual queue lengths follow the packets of their precedence.
    #[test]
    fn round_robin_alternates() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        for cp in [10, 11, 10, 20, 20] {
            assert_eq!(enq(&mut d, &mut w, cp), Verdict::Queued);
        }
        assert_eq!((d.queues[0].prec[0].qlen, d.queues[0].prec[1].qlen), (2, 1));
        assert_eq!(served(&mut d, &mut w, 6), [20, 10, 20, 11, 10]);
        assert_eq!((d.queues[0].prec[0].qlen, d.queues[0].prec[1].qlen), (0, 0));
        assert_eq!(d.stats.pkts_cp[10], 2);
        assert_eq!(d.sent[..2], [3, 2]);
    }

    /// Weighted round robin serves queue 0 three times for each of queue 1.
    #[test]
    fn weighted_round_robin_follows_the_weights() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        d.scheduler = Scheduler::WeightedRoundRobin;
        d.weights[0] = 3;
        for _ in 0..6 {
            enq(&mut d, &mut w, 10);
            enq(&mut d, &mut w, 20);
        }
        assert_eq!(served(&mut d, &mut w, 8), [20, 10, 10, 10, 20, 10, 10, 10]);
    }

    /// Priority serves queue 0 while it holds packets, unless its metered
    /// rate is above its cap.
    #[test]
    fn priority_and_its_rate_cap() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        d.scheduler = Scheduler::Priority;
        for _ in 0..3 {
            enq(&mut d, &mut w, 20);
            enq(&mut d, &mut w, 10);
        }
        assert_eq!(served(&mut d, &mut w, 4), [10, 10, 10, 20]);
        let mut d = two_queues();
        d.scheduler = Scheduler::Priority;
        d.max_rate[0] = 500.0;
        for _ in 0..3 {
            enq(&mut d, &mut w, 20);
            enq(&mut d, &mut w, 10);
        }
        // the first 1000 bytes put queue 0's one-second rate at 1000 B/s
        assert_eq!(served(&mut d, &mut w, 3), [10, 20, 20]);
    }

    /// The physical queue's limit drops arrivals, counted per code point.
    #[test]
    fn overflow_drops() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        d.reset(2, None);
        assert_eq!(enq(&mut d, &mut w, 10), Verdict::Queued);
        assert_eq!(enq(&mut d, &mut w, 11), Verdict::Queued);
        assert!(matches!(enq(&mut d, &mut w, 11), Verdict::Dropped(_)));
        assert_eq!(enq(&mut d, &mut w, 20), Verdict::Queued);
        assert_eq!((d.stats.pkts, d.stats.drops, d.stats.drops_cp[11]), (4, 1, 1));
    }

    /// The average is RED's estimator in single precision; with RIO
    /// coupled a precedence counts the packets of the better ones too.
    #[test]
    fn coupled_average_in_single_precision() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        for _ in 0..3 {
            enq(&mut d, &mut w, 10);
        }
        enq(&mut d, &mut w, 11);
        let mut f = 0.0f32;
        for n in 0..3 {
            f = (f as f64 * (1.0 - 0.002)) as f32;
            f = (f as f64 + 0.002 * n as f64) as f32;
        }
        assert_eq!(d.queues[0].prec[0].ave, f as f64);
        // precedence 1 is averaged at each arrival of precedence 0 and 1,
        // over the 0-packets and its own
        let mut g = 0.0f32;
        for (n0, n1) in [(0, 0), (1, 0), (2, 0), (3, 0)] {
            g = (g as f64 * (1.0 - 0.002)) as f32;
            g = (g as f64 + 0.002 * n0 as f64) as f32;
            g = (g as f64 + 0.002 * n1 as f64) as f32;
        }
        assert_eq!(d.queues[0].prec[1].ave, g as f64);
    }

    /// Above the upper threshold an arrival is dropped, or marked when ECN
    /// is on and it is ECN-capable.
    #[test]
    fn above_max_thresh_drops_or_marks() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        d.queues[0].prec[0].ave = 500.0;
        assert!(matches!(enq(&mut d, &mut w, 10), Verdict::Dropped(_)));
        d.ecn = true;
        let p = pkt(&mut w, 10, 1000);
        w.pool.get_mut(p).ecn_capable = true;
        assert_eq!(d.enqueue(&Capacity::default(), &mut w, p, &mut Drops::default()), Verdict::Marked);
        assert!(w.pool.get(p).ecn_to_echo);
        assert_eq!(d.len(), 1);
    }

    /// An edge marks each arrival from its profile before queueing it.
    #[test]
    fn an_edge_marks_then_queues() {
        let mut w = World::new_for_tests();
        let mut d = two_queues();
        d.marker = Some(Box::new(crate::policer::Marker {
            profiles: vec![Profile::new(3, 4, MeterKind::TokenBucket, 10, 8000.0, 0.0, 1000.0, 0.0, 0.0)],
            rules: vec![Rule { kind: MeterKind::TokenBucket, initial: 10, yellow: 11, red: 0 }],
        }));
        for _ in 0..2 {
            let p = pkt(&mut w, 0, 1000);
            let pk = w.pool.get_mut(p);
            (pk.saddr, pk.daddr) = (3, 4);
            d.enqueue(&Capacity::default(), &mut w, p, &mut Drops::default());
        }
        assert_eq!((d.stats.pkts_cp[10], d.stats.pkts_cp[11]), (1, 1));
        assert_eq!((d.queues[0].prec[0].qlen, d.queues[0].prec[1].qlen), (1, 1));
    }
}
