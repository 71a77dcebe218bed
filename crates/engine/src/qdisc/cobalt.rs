//! COBALT, "CoDel BLUE Alternate" (Linux's sch_cake AQM), as ns-3.37's
//! `CobaltQueueDisc` computes it (src/traffic-control/model/cobalt-queue-disc.cc).
//!
//! Two AQMs on one FIFO, both acting at dequeue:
//! * a CoDel (RFC 8289) simplified as CAKE has it: the dropping state is
//!   entered as soon as a packet's sojourn exceeds `target` (no wait of an
//!   interval above target first: the first drop is one control-law step
//!   later), the count is kept on leaving the state and decays by one per
//!   control-law step while the state is off ("hysteresis"), and the
//!   deadline of the next drop doubles as an activity timeout;
//! * BLUE: a drop probability `p_drop` raised by `increment` when the queue
//!   overflows or a packet's sojourn exceeds `blue_threshold` (400 ms), and
//!   lowered by `decrement` when the queue is found empty, each at most once
//!   per `target`; every dequeued packet is dropped with that probability
//!   (BLUE never marks: it deals with flows that ignore ECN).
//!
//! What ns-3.37 does and is followed here:
//! * times are integers of nanoseconds (`Time2CoDel` is `GetNanoSeconds`),
//!   compared as signed differences (`CoDelTimeAfter`);
//! * 1/sqrt(count) is a Q0.32 fixed-point value, from a cache of 16 values
//!   made with four Newton steps each, then one Newton step per change of
//!   count past 15 (`InvSqrt`), and the control law is
//!   `t + (interval * rec_inv_sqrt) >> 32` (`ReciprocalDivide`);
//! * the time of BLUE's last update is kept in 32 bits (`m_lastUpdateTimeBlue`
//!   is a `uint32_t` holding nanoseconds): past 4.29 s the difference with
//!   `now` is always large, and BLUE updates at every opportunity;
//! * the draw for BLUE happens only while `p_drop` is not zero, one per
//!   dequeued packet;
//! * with a CE threshold and ECN, an ECN-capable packet whose sojourn exceeds
//!   it is marked unless CoDel just marked it.
//! ns-3's L4S mode (`UseL4s`: ECT(1) packets only CE-threshold marked) needs
//! the ECT(1) codepoint, which packets here do not carry yet.
//!
//! Random numbers: ns-2's default stream in a simulation (as PIE's, see
//! pie.rs); the tests feed ns-3's draws (the draw is a closure argument of
//! [`Cobalt::do_dequeue`]).

use super::codel::is_l4s;
use super::{mark_ce, Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::ring::Ring;
use crate::sim::World;

/// Size of the cache of 1/sqrt(count) (`REC_INV_SQRT_CACHE`).
const REC_INV_SQRT_CACHE: usize = 16;

/// One Newton step of y = 1/sqrt(count) in Q0.32 (ns-3's `NewtonStep`):
/// y' = y (3 - count y^2) / 2, with its widths and shifts.
pub fn newton_step(rec_inv_sqrt: u32, count: u32) -> u32 {
    let invsqrt = rec_inv_sqrt as u64;
    let invsqrt2 = (invsqrt * invsqrt) >> 32;
    let mut val = (3u64 << 32).wrapping_sub((count as u64).wrapping_mul(invsqrt2));
    val >>= 2; // room for the multiply below
    val = val.wrapping_mul(invsqrt) >> (32 - 2 + 1);
    val as u32
}

/// The cache of 1/sqrt(count) for counts 0 to 15 (`CacheInit`): each entry
/// four Newton steps on from the one before.
fn inv_sqrt_cache() -> [u32; REC_INV_SQRT_CACHE] {
    let mut cache = [0u32; REC_INV_SQRT_CACHE];
    let mut r = u32::MAX;
    cache[0] = r;
    for (count, slot) in cache.iter_mut().enumerate().skip(1) {
        for _ in 0..4 {
            r = newton_step(r, count as u32);
        }
        *slot = r;
    }
    cache
}

/// `a - b > 0` on nanosecond times (`CoDelTimeAfter`).
#[inline]
fn after(a: i64, b: i64) -> bool {
    a.wrapping_sub(b) > 0
}

/// COBALT's parameters and state, and the packets it holds.
#[derive(Debug, Clone)]
pub struct Cobalt {
    /// The packets queued, and when each was queued (nanoseconds).
    pub fifo: Fifo,
    stamps: Ring<i64>,
    // ---- parameters (ns-3 attributes; times in nanoseconds) ----
    /// (`Target`, 5 ms)
    pub target: i64,
    /// (`Interval`, 100 ms)
    pub interval: i64,
    /// Mark ECN-capable packets instead of CoDel's drops (`UseEcn`, off).
    pub use_ecn: bool,
    /// Mark ECN-capable packets whose sojourn exceeds this (`CeThreshold`, off).
    pub ce_threshold: Option<i64>,
    /// L4S mode (`UseL4s`, off): an ECT(1) or CE packet meets neither CoDel
    /// nor BLUE and is CE-marked only when its sojourn exceeds
    /// `ce_threshold` (with or without `use_ecn`); other packets are never
    /// marked on the threshold.
    pub use_l4s: bool,
    /// BLUE's steps up and down (`Increment` 1/256, `Decrement` 1/4096).
    pub increment: f64,
    pub decrement: f64,
    /// Sojourn past which BLUE is raised (`BlueThreshold`, 400 ms; `None`:
    /// never, ns-3's `Time::Max()`).
    pub blue_threshold: Option<i64>,
    // ---- state ----
    /// BLUE's drop probability (`Pdrop`, an attribute too: its start value).
    pub p_drop: f64,
    pub count: u32,
    pub dropping: bool,
    pub rec_inv_sqrt: u32,
    cache: [u32; REC_INV_SQRT_CACHE],
    /// When BLUE last moved, nanoseconds in 32 bits (ns-3 keeps it so).
    pub last_update_blue: u32,
    /// CoDel's next drop, or while count is zero an activity timeout.
    pub drop_next: i64,
    /// How many times `drop_next` took a new value (the calls ns-3's
    /// `DropNext` trace source makes).
    pub drop_next_changes: u64,
    // ---- counters ----
    /// Arrivals refused because the queue was full (`Overlimit drop`).
    pub overlimit_drops: u64,
    /// Packets dropped at dequeue by CoDel or BLUE (`Target exceeded drop`).
    pub target_drops: u64,
    /// CoDel's marks instead of drops (`Forced mark`).
    pub forced_marks: u64,
    /// CE-threshold marks (`CE threshold exceeded mark`).
    pub ce_marks: u64,
}

impl Default for Cobalt {
    fn default() -> Self {
        Cobalt::new()
    }
}

impl Cobalt {
    /// ns-3.37's defaults.
    pub fn new() -> Cobalt {
        Cobalt {
            fifo: Fifo::default(),
            stamps: Ring::new(),
            target: 5_000_000,
            interval: 100_000_000,
            use_ecn: false,
            ce_threshold: None,
            use_l4s: false,
            increment: 1.0 / 256.0,
            decrement: 1.0 / 4096.0,
            blue_threshold: Some(400_000_000),
            p_drop: 0.0,
            count: 0,
            dropping: false,
            rec_inv_sqrt: u32::MAX,
            cache: inv_sqrt_cache(),
            last_update_blue: 0,
            drop_next: 0,
            drop_next_changes: 0,
            overlimit_drops: 0,
            target_drops: 0,
            forced_marks: 0,
            ce_marks: 0,
        }
    }

    /// `InvSqrt`: 1/sqrt(count) from the cache, or one Newton step on.
    fn inv_sqrt(&mut self) {
        self.rec_inv_sqrt = match self.cache.get(self.count as usize) {
            Some(&r) => r,
            None => newton_step(self.rec_inv_sqrt, self.count),
        };
    }

    /// `ControlLaw`: `t` plus interval / sqrt(count).
    fn control_law(&self, t: i64) -> i64 {
        t + (((self.interval as u32 as u64) * self.rec_inv_sqrt as u64) >> 32) as i64
    }

    /// `drop_next = t`, counted when it changes (ns-3's traced value).
    #[inline]
    fn set_drop_next(&mut self, t: i64) {
        self.drop_next_changes += (t != self.drop_next) as u64;
        self.drop_next = t;
    }

    /// Has a `target` passed since BLUE last moved?
    fn blue_due(&self, now: i64) -> bool {
        after(now - self.last_update_blue as i64, self.target)
    }

    /// `CobaltQueueFull`: the queue refused a packet.
    fn queue_full(&mut self, now: i64) {
        if self.blue_due(now) {
            self.p_drop = (self.p_drop + self.increment).min(1.0);
            self.last_update_blue = now as u32;
        }
        self.dropping = true;
        self.set_drop_next(now);
        if self.count == 0 {
            self.count = 1;
        }
    }

    /// `CobaltQueueEmpty`: a dequeue found the queue empty.
    fn queue_empty(&mut self, now: i64) {
        if self.p_drop != 0.0 && self.blue_due(now) {
            self.p_drop = (self.p_drop - self.decrement).max(0.0);
            self.last_update_blue = now as u32;
        }
        self.dropping = false;
        if self.count != 0 && now - self.drop_next >= 0 {
            self.count -= 1;
            self.inv_sqrt();
            self.set_drop_next(self.control_law(self.drop_next));
        }
    }

    /// `CobaltShouldDrop` for packet `p`, queued at `stamp`, dequeued at
    /// `now`: CoDel's and BLUE's decisions (CoDel may mark instead).
    fn should_drop(&mut self, pool: &mut PacketPool, p: PktId, stamp: i64, now: i64, draw: &mut impl FnMut() -> f64) -> bool {
        let sojourn = now - stamp;
        if self.use_l4s && is_l4s(pool, p) {
            if self.ce_threshold.is_some_and(|ce| after(sojourn, ce)) && mark_ce(pool, p) {
                self.ce_marks += 1;
            }
            return false;
        }
        let mut schedule = now - self.drop_next;
        let over_target = after(sojourn, self.target);
        let mut next_due = self.count != 0 && schedule >= 0;
        let mut drop = false;
        let mut marked = false;
        if over_target {
            if !self.dropping {
                self.dropping = true;
                self.set_drop_next(self.control_law(now));
            }
            if self.count == 0 {
                self.count = 1;
            }
        } else if self.dropping {
            self.dropping = false;
        }
        if next_due && self.dropping {
            marked = self.use_ecn && mark_ce(pool, p);
            self.forced_marks += marked as u64;
            drop = !marked;
            self.count = self.count.max(self.count.wrapping_add(1));
            self.inv_sqrt();
            self.set_drop_next(self.control_law(self.drop_next));
            schedule = now - self.drop_next;
        } else {
            while next_due {
                self.count -= 1;
                self.inv_sqrt();
                self.set_drop_next(self.control_law(self.drop_next));
                schedule = now - self.drop_next;
                next_due = self.count != 0 && schedule >= 0;
            }
        }
        if let Some(ce) = self.ce_threshold {
            if !marked && !self.use_l4s && self.use_ecn && after(sojourn, ce) && mark_ce(pool, p) {
                self.ce_marks += 1;
            }
        }
        // BLUE's rise on a long sojourn
        if self.blue_threshold.is_some_and(|b| after(sojourn, b)) && self.blue_due(now) {
            self.p_drop = (self.p_drop + self.increment).min(1.0);
            self.last_update_blue = now as u32;
        }
        if self.p_drop != 0.0 {
            drop |= draw() < self.p_drop;
        }
        // the next drop's deadline doubles as an activity timeout
        if self.count == 0 {
            self.set_drop_next(now + self.interval);
        } else if schedule > 0 && !drop {
            self.set_drop_next(now);
        }
        drop
    }

    /// `DoEnqueue` at `now` (nanoseconds): refuse the packet if it does not
    /// fit (BLUE then rises), else queue it.
    pub(crate) fn do_enqueue(&mut self, cap: &Capacity, pool: &PacketPool, now: i64, p: PktId) -> Verdict {
        let size = pool.get(p).size as i64;
        let over = if cap.in_bytes { self.fifo.bytes() + size > cap.limit_bytes() } else { self.fifo.len() as i64 + 1 > cap.limit as i64 };
        if over {
            self.queue_full(now);
            self.overlimit_drops += 1;
            return Verdict::Dropped(p);
        }
        self.fifo.push(pool, p);
        self.stamps.push_back(now);
        Verdict::Queued
    }

    /// The head packet taken out with no AQM decision (an FQ discipline's
    /// overflow drop reaches into a flow's queue so).
    pub(crate) fn drop_head(&mut self, pool: &PacketPool) -> Option<PktId> {
        self.stamps.pop_front();
        self.fifo.pop(pool)
    }

    /// `DoDequeue` at `now` (nanoseconds): the first head packet neither
    /// CoDel nor BLUE drops; those dropped go to `drops`.  `draw` is BLUE's
    /// uniform draw.
    pub(crate) fn do_dequeue(&mut self, pool: &mut PacketPool, now: i64, drops: &mut Drops, mut draw: impl FnMut() -> f64) -> Option<PktId> {
        loop {
            let Some(p) = self.fifo.pop(pool) else {
                self.dropping = false;
                self.queue_empty(now);
                return None;
            };
            let stamp = self.stamps.pop_front().expect("a stamp per packet");
            if self.should_drop(pool, p, stamp, now, &mut draw) {
                self.target_drops += 1;
                drops.push(p);
            } else {
                return Some(p);
            }
        }
    }
}

/// A time in seconds as whole nanoseconds (to the nearest).
#[inline]
pub(crate) fn nanos(seconds: f64) -> i64 {
    (seconds * 1e9).round() as i64
}

impl Discipline for Cobalt {
    #[inline]
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.do_enqueue(cap, &w.pool, nanos(w.s.now), p)
    }

    #[inline]
    fn dequeue(&mut self, w: &mut World, drops: &mut Drops) -> Option<PktId> {
        let now = nanos(w.s.now);
        self.do_dequeue(&mut w.pool, now, drops, || w.rng.default_stream().uniform_double())
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

/// ns-3.37's own test suite (src/traffic-control/test/cobalt-queue-disc-test-suite.cc),
/// its cases run with the same calls at the same times, checked against the
/// library's run of the same set-ups (testdata/cobalt/testsuite.txt.gz,
/// made by testcases.cc): after every enqueue and dequeue, the packets and
/// bytes held, BLUE's probability to the bit, CoDel's count and next drop,
/// and the drop and mark counters; then the suite's own assertions.
#[cfg(test)]
mod ns3_suite {
    use super::*;
    use std::io::Read;

    fn read_suite() -> String {
        let path = format!("{}/testdata/cobalt/testsuite.txt.gz", env!("CARGO_MANIFEST_DIR"));
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut text).unwrap();
        text
    }

    fn kv<'a>(fields: &'a [&'a str], key: &str) -> &'a str {
        fields.iter().find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('='))).unwrap_or_else(|| panic!("no {key} in {fields:?}"))
    }

    /// The queue and capacity of a case, as the suite sets them up.
    fn setup(case: &str) -> (Cobalt, Capacity) {
        let bytes = case.ends_with("_bytes");
        let cap = |n: i32, mean: i32| if bytes { Capacity { limit: n, in_bytes: true, mean_pktsize: mean, drop_front: false } } else { Capacity { limit: n, ..Capacity::default() } };
        // ns-3's default MaxSize: 1000 packets of 1500 bytes, in bytes
        let default_cap = Capacity { limit: 1000, in_bytes: true, mean_pktsize: 1500, drop_front: false };
        let mut q = Cobalt::new();
        let c = match &case[..case.find('_').unwrap()] {
            "drop" => {
                q.blue_threshold = None;
                cap(100, 1500)
            }
            "mark1" | "mark2" | "mark3" => {
                q.use_ecn = !case.starts_with("mark1");
                q.blue_threshold = None;
                cap(500, 1000)
            }
            "ce" => {
                q.use_ecn = true;
                q.ce_threshold = Some(1_000_000);
                q.blue_threshold = None;
                default_cap
            }
            "blue1" => default_cap,
            "blue2" => {
                q.use_ecn = true;
                q.blue_threshold = None;
                default_cap
            }
            other => panic!("unknown case {other}"),
        };
        (q, c)
    }

    /// Replays every case; returns each case's final queue.
    fn replay() -> Vec<(String, Cobalt)> {
        let text = read_suite();
        let draws: Vec<f64> = text.lines().filter_map(|l| l.strip_prefix("draw ")).map(|d| d.parse().unwrap()).collect();
        assert_eq!(draws.len(), 200);
        let mut out: Vec<(String, Cobalt)> = Vec::new();
        let mut cur: Option<(String, Cobalt, Capacity, usize)> = None;
        let mut pool = PacketPool::new();
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split(' ').collect();
            if f[0] == "draw" {
                continue;
            }
            let at = format!("testsuite:{}: {line}", n + 1);
            if f[1] == "case" {
                if let Some((name, q, _, _)) = cur.take() {
                    out.push((name, q));
                }
                let (q, cap) = setup(f[0]);
                cur = Some((f[0].to_string(), q, cap, 0));
                continue;
            }
            let (name, q, cap, used) = cur.as_mut().unwrap();
            let now: i64 = f[1].parse().unwrap();
            match f[2] {
                "enqueue" => {
                    let p = pool.alloc();
                    let pk = pool.get_mut(p);
                    pk.size = kv(&f, "size").parse().unwrap();
                    pk.ecn_capable = kv(&f, "ect") == "1";
                    pk.ecn_to_echo = false;
                    if let Verdict::Dropped(d) = q.do_enqueue(cap, &pool, now, p) {
                        pool.free(d);
                    }
                }
                "dequeue" => {
                    let mut drops = Drops::default();
                    let blue = name.starts_with("blue1");
                    let got = q.do_dequeue(&mut pool, now, &mut drops, || {
                        assert!(blue, "{at}: a draw where ns-3 made none");
                        *used += 1;
                        draws[*used - 1]
                    });
                    assert_eq!(got.is_some(), kv(&f, "got") == "1", "{at}");
                    for p in drops.pkts.iter().chain(got.iter()) {
                        pool.free(*p);
                    }
                }
                other => panic!("{at}: unknown call {other}"),
            }
            let have = (
                q.fifo.len(),
                q.fifo.bytes(),
                q.p_drop.to_bits(),
                q.drop_next,
                q.count,
                (q.overlimit_drops, q.target_drops, q.forced_marks, q.ce_marks),
            );
            let want = (
                kv(&f, "pkts").parse::<usize>().unwrap(),
                kv(&f, "bytes").parse::<i64>().unwrap(),
                kv(&f, "pdrop").parse::<f64>().unwrap().to_bits(),
                kv(&f, "dropnext").parse::<i64>().unwrap(),
                kv(&f, "count").parse::<u32>().unwrap(),
                (
                    kv(&f, "overlimit").parse().unwrap(),
                    kv(&f, "target_drops").parse().unwrap(),
                    kv(&f, "forced_marks").parse().unwrap(),
                    kv(&f, "ce_marks").parse().unwrap(),
                ),
            );
            assert_eq!(have, want, "{at}");
        }
        out.extend(cur.map(|(name, q, _, _)| (name, q)));
        out
    }

    #[test]
    fn every_call_of_the_suite_matches_ns3() {
        let cases = replay();
        assert_eq!(cases.len(), 14);
        let get = |name: &str| &cases.iter().find(|c| c.0 == name).unwrap().1;
        for unit in ["packets", "bytes"] {
            // CobaltQueueDiscDropTest: overflow raises BLUE
            let q = get(&format!("drop_{unit}"));
            assert!(q.p_drop != 0.0 && q.overlimit_drops != 0);
            // CobaltQueueDiscMarkTest: not ECN-capable, the second dequeue
            // (19 queued, as before the first mark below) drops 4 packets
            let q = get(&format!("mark1_{unit}"));
            assert_eq!((q.target_drops, q.forced_marks, q.fifo.len()), (4, 0, 14));
            // ECN-capable: three marks, no drop
            assert_eq!((get(&format!("mark2_{unit}")).target_drops, get(&format!("mark2_{unit}")).forced_marks), (0, 3));
            // three ECN-capable then not: two marks, then drops
            let q = get(&format!("mark3_{unit}"));
            assert!(q.forced_marks == 2 && q.target_drops > 0, "{unit}: {q:?}");
            // CobaltQueueDiscCeThresholdTest: one CE-threshold mark between
            // 11 and 28 ms (its check of three marks after 31 ms never runs:
            // the suite's last dequeue is at 22 ms)
            assert_eq!(get(&format!("ce_{unit}")).ce_marks, 1);
            // CobaltQueueDiscEnhancedBlueTest: 60 sojourns above 400 ms
            let q = get(&format!("blue1_{unit}"));
            assert_eq!((q.p_drop, q.target_drops), (0.234375, 49));
            let q = get(&format!("blue2_{unit}"));
            assert_eq!((q.p_drop, q.target_drops), (0.0, 0));
        }
    }

    /// CobaltQueueDiscBasicEnqueueDequeue: FIFO order, no drops, in
    /// packets and in bytes (Interval 50 ms, Target 4 ms, BLUE off).
    #[test]
    fn basic_enqueue_dequeue() {
        for in_bytes in [false, true] {
            let cap = Capacity { limit: 1500, in_bytes, mean_pktsize: 1000, drop_front: false };
            let mut pool = PacketPool::new();
            let mut q = Cobalt { interval: 50_000_000, target: 4_000_000, blue_threshold: None, ..Cobalt::new() };
            let ps: Vec<PktId> = (0..6)
                .map(|i| {
                    let p = pool.alloc();
                    pool.get_mut(p).size = 1000;
                    assert_eq!(q.do_enqueue(&cap, &pool, 0, p), Verdict::Queued);
                    assert_eq!(cap.len_of(&q.fifo), (i + 1) * if in_bytes { 1000 } else { 1 });
                    p
                })
                .collect();
            let mut drops = Drops::default();
            for (i, &p) in ps.iter().enumerate() {
                assert_eq!(q.do_dequeue(&mut pool, 0, &mut drops, || panic!("no draw")), Some(p));
                assert_eq!(q.fifo.len(), 5 - i);
            }
            assert_eq!(q.do_dequeue(&mut pool, 0, &mut drops, || panic!("no draw")), None);
            assert!(drops.is_empty() && q.target_drops == 0 && q.overlimit_drops == 0);
        }
    }

    /// The cache and the Newton step: 1/sqrt(n) within 1% for n up to
    /// 15, and the Newton steps past the cache stay near it.
    #[test]
    fn inverse_square_root() {
        let cache = inv_sqrt_cache();
        for (n, &r) in cache.iter().enumerate().skip(1) {
            let want = 1.0 / (n as f64).sqrt();
            assert!((r as f64 / 2f64.powi(32) - want).abs() < 0.01 * want, "{n}: {r}");
        }
        let mut r = cache[15];
        for n in 16..200u32 {
            r = newton_step(r, n);
            let want = 1.0 / (n as f64).sqrt();
            assert!((r as f64 / 2f64.powi(32) - want).abs() < 0.02 * want, "{n}: {r}");
        }
    }
}
