//! Self-clocked fair queueing (Golestani, "A self-clocked fair queueing
//! scheme for broadband applications", INFOCOM 1994) over per-class
//! queues, each with its own discipline (DropTail or RED).
//!
//! Each arriving packet of class `c` gets a finish tag
//! `F = max(F_c, v) + L / w_c` (Golestani's eq. 4), where `F_c` is the tag
//! of the last packet of class `c` that was queued, `v` (the "system
//! virtual time") is the tag of the packet in service, `L` the packet's
//! size in bytes and `w_c` the class's weight.  The link serves the queued
//! packet with the smallest tag; equal tags go in arrival order.  Since a
//! class's tags grow in arrival order, only each class's head competes.
//! When the whole scheduler is empty, `v` and every `F_c` restart at zero
//! (the end of a busy period, as the paper does): every later tag would
//! otherwise exceed them all by the same amount, so the order is the same
//! and the numbers stay small.
//!
//! A packet is classified by its flow id (`fid_`) through a table, else
//! into the default class (the first class added unless set); with no
//! class at all it is dropped.  A packet a class's discipline drops (its
//! overflow or RED's early drop) takes no tag: `F_c` moves only when the
//! arrival is queued.
//!
//! **RED's idle time in a class.**  ns-2's RED decays its average over the
//! time the queue sat empty, counting the packets the link could have sent
//! meanwhile (`ptc * idle time`), and it learns of the idleness when a
//! dequeue finds its queue empty.  A class queue is dequeued only when it
//! has packets, so "idle" has to be defined for it: a class is idle from
//! the first moment the link was free to send (a dequeue of the scheduler,
//! or the link going idle) and the class had nothing queued; it stops
//! being idle at its next arrival.  That is exactly when a standalone RED
//! on the same link would have found its queue empty, so a RED class that
//! is the only active class behaves as the standalone RED (tested).  The
//! packet rate `ptc` stays the link's: SCFQ is work-conserving, so while
//! the class is empty its backlog could have drained at up to the full
//! link rate, and the decay should not depend on what the other classes
//! happened to send.  (Only the first empty dequeue starts the idle
//! period: later ones, while other classes are served, must not move its
//! start, unlike ns-2's RED which resets `idletime_` at every empty
//! dequeue but sees only one per idle period.)

use super::{Capacity, Discipline, Drops, DropTail, Red, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::sched::ObjId;
use crate::sim::{World, NONE};

/// A class's own queue.
#[derive(Debug)]
pub enum ClassQueue {
    DropTail(DropTail),
    Red(Box<Red>),
}

/// What a class saw, in packets and bytes.  Conservation: `arrivals =
/// departures + drops + queued`, and the same in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    pub arrivals: u64,
    pub arrival_bytes: u64,
    pub departures: u64,
    pub departure_bytes: u64,
    /// Every packet dropped (overflow and early drops; a queued packet the
    /// discipline dropped instead of the arrival counts here too).
    pub drops: u64,
    pub drop_bytes: u64,
    /// Of `drops`, the discipline's early (AQM) drops.
    pub early_drops: u64,
    /// Arrivals after which a packet was CE-marked.
    pub marks: u64,
}

/// A class queue's length over time, for its time-weighted mean and
/// coefficient of variation (seed 003's Fig. 3 reports the best-effort
/// queue's): the integrals of the length and its square since `since`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Occupancy {
    pub since: f64,
    /// The time the integrals reach.
    pub last: f64,
    pub area: f64,
    pub area2: f64,
}

impl Occupancy {
    /// The length was `len` packets from `last` to `now`.
    #[inline]
    pub fn advance(&mut self, now: f64, len: usize) {
        let (dt, l) = (now - self.last, len as f64);
        self.area += l * dt;
        self.area2 += l * l * dt;
        self.last = now;
    }

    /// Mean and standard deviation of the length from `since` to `now`
    /// (the length is `len` since the last change).
    pub fn moments(&self, now: f64, len: usize) -> (f64, f64) {
        let mut o = *self;
        o.advance(now, len);
        let t = now - o.since;
        if t <= 0.0 {
            return (len as f64, 0.0);
        }
        let mean = o.area / t;
        (mean, (o.area2 / t - mean * mean).max(0.0).sqrt())
    }
}

/// One class: its id, weight, queue and capacity, its last finish tag.
#[derive(Debug)]
pub struct Class {
    /// The id scripts use (`add-class ID WEIGHT`).
    pub id: i32,
    pub weight: f64,
    pub queue: ClassQueue,
    /// The class queue's own capacity (its limit, in packets or bytes).
    pub cap: Capacity,
    /// Finish tag of the class's last queued packet (`F_c`).
    pub last_finish: f64,
    pub stats: ClassStats,
    pub occupancy: Occupancy,
}

impl Class {
    fn head(&self) -> Option<PktId> {
        match &self.queue {
            ClassQueue::DropTail(d) => d.fifo.get(0),
            ClassQueue::Red(r) => r.fifo.get(0),
        }
    }

    /// Packets queued.
    pub fn len(&self) -> usize {
        match &self.queue {
            ClassQueue::DropTail(d) => d.fifo.len(),
            ClassQueue::Red(r) => r.fifo.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes queued.
    pub fn bytes(&self) -> i64 {
        match &self.queue {
            ClassQueue::DropTail(d) => d.fifo.bytes(),
            ClassQueue::Red(r) => r.fifo.bytes(),
        }
    }

    /// The class's RED, if its queue is one.
    pub fn red_mut(&mut self) -> Option<&mut Red> {
        match &mut self.queue {
            ClassQueue::Red(r) => Some(r),
            ClassQueue::DropTail(_) => None,
        }
    }

    /// The link was free to send at `now` and this class had nothing: its
    /// RED's idle period starts, unless it has already.
    #[inline]
    fn found_empty(&mut self, now: f64) {
        if let ClassQueue::Red(r) = &mut self.queue {
            if !r.idle {
                r.dequeued(false, now);
            }
        }
    }
}

/// Reasons a class set-up is refused.
pub fn check_weight(w: f64) -> Result<f64, String> {
    if w > 0.0 && w.is_finite() {
        Ok(w)
    } else {
        Err(format!("a class weight must be a positive number, got {w}"))
    }
}

/// SCFQ's classes, classification and state.
#[derive(Debug, Default)]
pub struct Scfq {
    pub classes: Vec<Class>,
    /// Flow id -> class index, sorted by flow id.
    fids: Vec<(i32, u32)>,
    /// Index of the class of unlisted flow ids (`None`: the first class).
    default_class: Option<u32>,
    /// The system virtual time `v`: the tag of the packet last sent.
    pub vtime: f64,
    /// (finish tag, arrival number) of each queued packet, by packet index:
    /// grows with the packet pool, never per packet.
    tags: Vec<(f64, u64)>,
    seq: u64,
    packets: usize,
    bytes: i64,
    /// Arrivals dropped because there was no class to put them in.
    pub unclassified_drops: u64,
    /// The link (`$q link`), its bandwidth and delay: the RED classes'
    /// packet rate and automatic parameters.
    pub link: ObjId,
    pub link_bw: f64,
    pub link_delay: f64,
    /// When the link last went idle, not yet told to the classes (-1: none).
    link_idle_at: f64,
}

impl Scfq {
    pub fn new() -> Scfq {
        Scfq { link: NONE, link_idle_at: -1.0, ..Scfq::default() }
    }

    /// The index of class `id`.
    pub fn index_of(&self, id: i32) -> Option<usize> {
        self.classes.iter().position(|c| c.id == id)
    }

    pub fn class(&self, id: i32) -> Option<&Class> {
        self.classes.iter().find(|c| c.id == id)
    }

    pub fn class_mut(&mut self, id: i32) -> Option<&mut Class> {
        self.classes.iter_mut().find(|c| c.id == id)
    }

    /// Add class `id` with `weight`, a DropTail queue of capacity `cap`.
    pub fn add_class(&mut self, id: i32, weight: f64, cap: Capacity) -> Result<(), String> {
        let weight = check_weight(weight)?;
        if self.index_of(id).is_some() {
            return Err(format!("class {id} exists already"));
        }
        self.classes.push(Class { id, weight, queue: ClassQueue::DropTail(DropTail::default()), cap, last_finish: 0.0, stats: ClassStats::default(), occupancy: Occupancy::default() });
        Ok(())
    }

    /// Give class `id` this queue and capacity (it must hold no packets:
    /// set up before the run).
    pub fn set_class_queue(&mut self, id: i32, mut queue: ClassQueue, cap: Capacity) -> Result<(), String> {
        let (link, bw, delay) = (self.link, self.link_bw, self.link_delay);
        let c = self.class_mut(id).ok_or_else(|| format!("no class {id} (add-class it first)"))?;
        if !c.is_empty() {
            return Err(format!("class {id} holds packets; its queue can only be replaced while it is empty"));
        }
        if let (ClassQueue::Red(r), true) = (&mut queue, link != NONE) {
            r.set_link(link, bw, delay, cap.mean_pktsize);
        }
        c.queue = queue;
        c.cap = cap;
        Ok(())
    }

    /// Set a class's weight.
    pub fn set_weight(&mut self, id: i32, weight: f64) -> Result<(), String> {
        let weight = check_weight(weight)?;
        self.class_mut(id).ok_or_else(|| format!("no class {id}"))?.weight = weight;
        Ok(())
    }

    /// Packets of flow `fid` go to class `id`.
    pub fn classify(&mut self, fid: i32, id: i32) -> Result<(), String> {
        let ci = self.index_of(id).ok_or_else(|| format!("no class {id} (add-class it first)"))? as u32;
        match self.fids.binary_search_by_key(&fid, |&(f, _)| f) {
            Ok(i) => self.fids[i].1 = ci,
            Err(i) => self.fids.insert(i, (fid, ci)),
        }
        Ok(())
    }

    /// Flows not classified go to class `id`.
    pub fn set_default_class(&mut self, id: i32) -> Result<(), String> {
        self.default_class = Some(self.index_of(id).ok_or_else(|| format!("no class {id} (add-class it first)"))? as u32);
        Ok(())
    }

    /// The id of the default class, if there is a class.
    pub fn default_class(&self) -> Option<i32> {
        let i = self.default_class.unwrap_or(0) as usize;
        self.classes.get(i).map(|c| c.id)
    }

    /// The class index of a packet of flow `fid`.
    #[inline]
    pub fn class_of(&self, fid: i32) -> Option<usize> {
        match self.fids.binary_search_by_key(&fid, |&(f, _)| f) {
            Ok(i) => Some(self.fids[i].1 as usize),
            Err(_) if !self.classes.is_empty() => Some(self.default_class.unwrap_or(0) as usize),
            Err(_) => None,
        }
    }

    /// `$q link`: the RED classes learn the link (as a standalone RED does).
    pub fn set_link(&mut self, link: ObjId, bw: f64, delay: f64) {
        self.link = link;
        self.link_bw = bw;
        self.link_delay = delay;
        for c in &mut self.classes {
            let mean = c.cap.mean_pktsize;
            if let Some(r) = c.red_mut() {
                r.set_link(link, bw, delay, mean);
            }
        }
    }

    /// `$q reset` for the RED classes (before the queue drains): as a
    /// standalone RED's `reset`.
    pub fn reset_red(&mut self, w: &mut World) {
        let bw = if self.link != NONE { Some(self.link_bw) } else { None };
        for c in &mut self.classes {
            let (qib, mean) = (c.cap.in_bytes, c.cap.mean_pktsize);
            if let Some(r) = c.red_mut() {
                r.reset(w, bw, qib, mean);
            }
        }
    }

    /// The tag of queued packet `p`.
    #[inline]
    fn tag(&self, p: PktId) -> (f64, u64) {
        self.tags[p.index() as usize]
    }

    /// Tell the classes the link went idle, if it did since they last heard.
    #[inline]
    fn settle_idle(&mut self) {
        if self.link_idle_at >= 0.0 {
            let t = self.link_idle_at;
            self.link_idle_at = -1.0;
            for c in &mut self.classes {
                c.found_empty(t);
            }
        }
    }

    /// Tag `p`, queue it in class `ci` with its discipline, count.
    fn enqueue_in(&mut self, ci: usize, w: &mut World, p: PktId) -> Verdict {
        self.settle_idle();
        if self.packets == 0 {
            // the end of a busy period: restart the virtual time
            self.vtime = 0.0;
            for c in &mut self.classes {
                c.last_finish = 0.0;
            }
        }
        let size = w.pool.get(p).size;
        let c = &mut self.classes[ci];
        let finish = c.last_finish.max(self.vtime) + size as f64 / c.weight;
        let i = p.index() as usize;
        if i >= self.tags.len() {
            self.tags.resize((i + 1).next_power_of_two(), (0.0, 0));
        }
        self.tags[i] = (finish, self.seq);
        self.seq += 1;
        c.stats.arrivals += 1;
        c.stats.arrival_bytes += size as u64;
        c.occupancy.advance(w.s.now, c.len());
        let v = match &mut c.queue {
            ClassQueue::DropTail(d) => d.enqueue(&c.cap, &w.pool, p),
            ClassQueue::Red(r) => r.enque(&c.cap, w, p),
        };
        match v {
            Verdict::Queued | Verdict::Marked => {
                c.last_finish = finish;
                c.stats.marks += (v == Verdict::Marked) as u64;
                self.packets += 1;
                self.bytes += size as i64;
            }
            Verdict::Dropped(x) | Verdict::EarlyDropped(x) => {
                let xs = w.pool.get(x).size;
                c.stats.drops += 1;
                c.stats.drop_bytes += xs as u64;
                c.stats.early_drops += matches!(v, Verdict::EarlyDropped(_)) as u64;
                if x != p {
                    // a queued packet went instead; the arrival is in
                    c.last_finish = finish;
                    self.bytes += size as i64 - xs as i64;
                }
            }
            Verdict::Overflow => unreachable!("a class queue drops one packet at a time"),
            Verdict::Police => unreachable!("a class queue has no flow filter"),
        }
        v
    }

    /// The next packet: the smallest tag over the classes' heads.
    fn dequeue_at(&mut self, pool: &PacketPool, now: f64) -> Option<PktId> {
        self.settle_idle();
        let mut best: Option<(usize, (f64, u64))> = None;
        for ci in 0..self.classes.len() {
            match self.classes[ci].head() {
                Some(h) => {
                    let t = self.tag(h);
                    if best.map_or(true, |(_, b)| t.0 < b.0 || (t.0 == b.0 && t.1 < b.1)) {
                        best = Some((ci, t));
                    }
                }
                None => self.classes[ci].found_empty(now),
            }
        }
        let (ci, (finish, _)) = best?;
        let c = &mut self.classes[ci];
        c.occupancy.advance(now, c.len());
        let p = match &mut c.queue {
            ClassQueue::DropTail(d) => d.fifo.pop(pool),
            ClassQueue::Red(r) => r.deque(pool, now),
        }
        .expect("the head is queued");
        let size = pool.get(p).size;
        c.stats.departures += 1;
        c.stats.departure_bytes += size as u64;
        self.vtime = finish;
        self.packets -= 1;
        self.bytes -= size as i64;
        Some(p)
    }
}

impl Discipline for Scfq {
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        match self.class_of(w.pool.get(p).fid) {
            Some(ci) => self.enqueue_in(ci, w, p),
            None => {
                self.unclassified_drops += 1;
                Verdict::Dropped(p)
            }
        }
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.dequeue_at(&w.pool, w.s.now)
    }

    /// The link went idle at `now`: every class is empty and idle from
    /// then.  Only noted here, and told to the classes at the next arrival
    /// or dequeue (before anything else changes them): the queue's blocked
    /// test, inlined on every packet's path, dispatches here, and a loop
    /// over the classes in it cost that path 0.3% of the instructions of
    /// `grid 16 100 10` (a store costs nothing measurable).
    #[inline(always)]
    fn link_idle(&mut self, now: f64) {
        self.link_idle_at = now;
    }

    fn len(&self) -> usize {
        self.packets
    }

    fn bytes(&self) -> i64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time-weighted mean and deviation of a length that is 0 for 1 s,
    /// 4 for 2 s, 1 for 1 s: mean 9/4, E[len^2] = 33/4.
    #[test]
    fn occupancy_moments() {
        let mut o = Occupancy { since: 1.0, last: 1.0, ..Default::default() };
        o.advance(2.0, 0);
        o.advance(4.0, 4);
        let (m, sd) = o.moments(5.0, 1);
        assert_eq!(m, 9.0 / 4.0);
        assert!((sd - (33.0f64 / 4.0 - 81.0 / 16.0).sqrt()).abs() < 1e-12);
        assert_eq!(o.last, 4.0, "moments leave the integrals where they were");
        assert_eq!(Occupancy::default().moments(0.0, 3), (3.0, 0.0));
    }

    fn cap(limit: i32) -> Capacity {
        Capacity { limit, ..Capacity::default() }
    }

    /// A packet of flow `fid` and `size` bytes.
    fn pkt(w: &mut World, fid: i32, size: i32) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.fid = fid;
        pk.size = size;
        p
    }

    fn two_classes(w0: f64, w1: f64, limit: i32) -> Scfq {
        let mut s = Scfq::new();
        s.add_class(0, w0, cap(limit)).unwrap();
        s.add_class(1, w1, cap(limit)).unwrap();
        s.classify(1, 1).unwrap();
        s
    }

    fn enq(s: &mut Scfq, w: &mut World, p: PktId) -> Verdict {
        Discipline::enqueue(s, &Capacity::default(), w, p, &mut Drops::default())
    }

    fn deq(s: &mut Scfq, w: &mut World) -> Option<PktId> {
        Discipline::dequeue(s, w, &mut Drops::default())
    }

    /// Tags worked by hand: weights 0.5 and 0.25, all arrivals while idle.
    /// Class 0: 100 B -> 200, 100 B -> 400, 50 B -> 500; class 1: 100 B ->
    /// 400, 25 B -> 500.  Served: 200 (a0), 400 (a1, earlier than b0), 400
    /// (b0), 500 (a2, earlier than b1), 500 (b1).  Then, with v = 500 and
    /// class 1 idle, a class-1 arrival gets max(500, 500) + 100/0.25 = 900
    /// while a class-0 arrival after it gets 500 + 200 = 700 and goes first.
    #[test]
    fn finish_tags_by_hand() {
        let mut w = World::new_for_tests();
        let mut s = two_classes(0.5, 0.25, 100);
        let a0 = pkt(&mut w, 0, 100);
        let b0 = pkt(&mut w, 1, 100);
        let a1 = pkt(&mut w, 0, 100);
        let b1 = pkt(&mut w, 1, 25);
        let a2 = pkt(&mut w, 0, 50);
        for p in [a0, b0, a1, b1, a2] {
            assert_eq!(enq(&mut s, &mut w, p), Verdict::Queued);
        }
        let tags: Vec<f64> = [a0, b0, a1, b1, a2].iter().map(|&p| s.tag(p).0).collect();
        assert_eq!(tags, vec![200.0, 400.0, 400.0, 500.0, 500.0]);
        // a0 (200); a1 and b0 tie at 400: b0 arrived first
        assert_eq!(deq(&mut s, &mut w), Some(a0));
        assert_eq!(s.vtime, 200.0);
        assert_eq!(deq(&mut s, &mut w), Some(b0));
        // a1 (400) is still queued: one more class-1 arrival now gets
        // max(F_1 = 500, v = 400) + 4 * 50 = 700
        let b2 = pkt(&mut w, 1, 50);
        enq(&mut s, &mut w, b2);
        assert_eq!(s.tag(b2).0, 700.0);
        assert_eq!(deq(&mut s, &mut w), Some(a1));
        assert_eq!(deq(&mut s, &mut w), Some(b1), "b1 (500) arrived before a2 (500)");
        assert_eq!(deq(&mut s, &mut w), Some(a2));
        assert_eq!(s.vtime, 500.0);
        // b2 (700) waits; a class-0 arrival gets max(500, 500) + 100 = 600
        let a3 = pkt(&mut w, 0, 50);
        enq(&mut s, &mut w, a3);
        assert_eq!(s.tag(a3).0, 600.0);
        assert_eq!(deq(&mut s, &mut w), Some(a3));
        assert_eq!(deq(&mut s, &mut w), Some(b2));
        assert_eq!(deq(&mut s, &mut w), None);
        // empty: the next busy period starts from zero
        let a4 = pkt(&mut w, 0, 100);
        enq(&mut s, &mut w, a4);
        assert_eq!(s.tag(a4).0, 200.0);
    }

    /// A class whose packets were not queued (overflow) keeps its tag.
    #[test]
    fn a_dropped_arrival_takes_no_tag() {
        let mut w = World::new_for_tests();
        let mut s = two_classes(1.0, 1.0, 2); // each class holds one packet
        let a0 = pkt(&mut w, 0, 100);
        let a1 = pkt(&mut w, 0, 100);
        let b0 = pkt(&mut w, 1, 100);
        assert_eq!(enq(&mut s, &mut w, a0), Verdict::Queued);
        assert_eq!(enq(&mut s, &mut w, a1), Verdict::Dropped(a1));
        assert_eq!(s.classes[0].last_finish, 100.0);
        enq(&mut s, &mut w, b0);
        assert_eq!(s.tag(b0).0, 100.0);
        assert_eq!(deq(&mut s, &mut w), Some(a0), "equal tags: arrival order");
        let st = s.classes[0].stats;
        assert_eq!((st.arrivals, st.drops, st.departures), (2, 1, 1));
    }

    /// Flow ids go to their class, others to the default class, which is
    /// the first class unless set.
    #[test]
    fn classification_and_default_class() {
        let mut s = two_classes(1.0, 1.0, 10);
        assert_eq!((s.class_of(1), s.class_of(7), s.class_of(-3)), (Some(1), Some(0), Some(0)));
        s.set_default_class(1).unwrap();
        assert_eq!(s.class_of(7), Some(1));
        s.classify(7, 0).unwrap();
        assert_eq!(s.class_of(7), Some(0));
        assert!(s.classify(3, 9).unwrap_err().contains("no class 9"));
        assert!(s.add_class(0, 1.0, cap(5)).unwrap_err().contains("exists"));
        assert!(s.add_class(2, 0.0, cap(5)).unwrap_err().contains("positive"));
        assert!(s.add_class(2, f64::NAN, cap(5)).is_err());
        assert_eq!(Scfq::new().class_of(1), None);
    }

    /// Two backlogged classes of weights 0.8 and 0.2 share the link 4:1:
    /// after any number of departures the bytes served differ from the
    /// 4:1 split by less than one packet of each (Golestani's fairness
    /// bound for SCFQ: |W_i/w_i - W_j/w_j| <= L_i/w_i + L_j/w_j).
    #[test]
    fn backlogged_classes_share_by_weight() {
        let mut w = World::new_for_tests();
        let mut s = two_classes(0.8, 0.2, 1000);
        let mut rng = crate::testrng::TestRng(3);
        let mut served = [0f64; 2];
        let lmax = 1500.0;
        for step in 0..20_000 {
            // keep both classes backlogged with packets of mixed sizes
            for (c, fid) in [(0usize, 0), (1, 1)] {
                while s.classes[c].len() < 20 {
                    let size = 40 + rng.below(1461) as i32;
                    let p = pkt(&mut w, fid, size);
                    enq(&mut s, &mut w, p);
                }
            }
            let p = deq(&mut s, &mut w).unwrap();
            let pk = w.pool.get(p);
            served[if pk.fid == 1 { 1 } else { 0 }] += pk.size as f64;
            w.pool.free(p);
            let gap = (served[0] / 0.8 - served[1] / 0.2).abs();
            assert!(gap <= lmax / 0.8 + lmax / 0.2, "step {step}: normalised service differs by {gap}");
        }
        let share = served[0] / (served[0] + served[1]);
        assert!((share - 0.8).abs() < 0.001, "share {share}");
    }

    /// Work conservation: while one class is idle, the other gets every
    /// departure (the scheduler never idles with a packet queued).
    #[test]
    fn an_idle_class_leaves_the_link_to_the_other() {
        let mut w = World::new_for_tests();
        let mut s = two_classes(0.2, 0.8, 1000);
        for _ in 0..50 {
            let p = pkt(&mut w, 0, 1000);
            enq(&mut s, &mut w, p);
        }
        for _ in 0..50 {
            let p = deq(&mut s, &mut w).expect("class 0 is served while class 1 is idle");
            assert_eq!(w.pool.get(p).fid, 0);
        }
        assert_eq!(deq(&mut s, &mut w), None);
        assert_eq!(Discipline::len(&s), 0);
    }

    /// Packets are conserved per class and in total: arrivals = departures
    /// + drops + queued, in packets and in bytes, under random traffic
    /// with DropTail and RED classes.
    #[test]
    fn packets_are_conserved() {
        let mut w = World::new_for_tests();
        let mut s = two_classes(0.5, 0.5, 8);
        let mut red = Red::new();
        red.th_min_pkts = 2.0;
        red.th_max_pkts = 5.0;
        red.max_p_inv = 2.0;
        red.q_w = 0.2;
        red.wait = true;
        red.gentle = true;
        red.ptc = 1000.0;
        let rcap = Capacity { limit: 10, in_bytes: false, mean_pktsize: 500, drop_front: false };
        s.set_class_queue(1, ClassQueue::Red(Box::new(red)), rcap).unwrap();
        s.reset_red(&mut w);
        let mut rng = crate::testrng::TestRng(11);
        for i in 0..5000 {
            w.s.now = i as f64 * 0.001;
            if rng.below(3) < 2 {
                let fid = rng.below(3) as i32; // flows 0 and 2 go to class 0 (default)
                let p = pkt(&mut w, fid, 40 + rng.below(1000) as i32);
                enq(&mut s, &mut w, p);
            } else {
                deq(&mut s, &mut w);
            }
            let mut total = 0;
            for c in &s.classes {
                let st = c.stats;
                assert_eq!(st.arrivals, st.departures + st.drops + c.len() as u64, "class {} at step {i}", c.id);
                assert_eq!(st.arrival_bytes, st.departure_bytes + st.drop_bytes + c.bytes() as u64);
                total += c.len();
            }
            assert_eq!(total, Discipline::len(&s));
            assert_eq!(s.classes.iter().map(|c| c.bytes()).sum::<i64>(), Discipline::bytes(&s));
        }
        assert!(s.classes[1].stats.early_drops > 0 && s.classes[0].stats.drops > 0, "{:?}", s.classes[1].stats);
    }
}
