//! Class-based queueing (Floyd and Jacobson, "Link-sharing and resource
//! management models for packet networks", ToN 3(4), 1995), as ns-2 2.35's
//! queue/cbq.cc: a link-sharing tree of classes, the leaves each with a
//! DropTail queue, served by priority then round robin (or weighted round
//! robin), a class over its allotment sending only when a rule lets it
//! borrow from an ancestor.
//!
//! **Classes.**  Each class has an allotment (its share of the link), a
//! priority (0 is served first; leaves only), a level (leaves are 1, an
//! inner class is above its children), a `lender` (the parent it may
//! borrow from, if `borrow` is set), `maxidle` (a bound on its credit)
//! and `extradelay` (added to a regulated class's wait).  Only leaves have
//! queues; a leaf has *demand* when its queue holds a packet.
//!
//! **Estimator.**  When a class sends a packet of `s` bytes that takes `tx`
//! seconds on the link and finishes at `f`, the class and each lender up to
//! the root update `idle = (f - last) - s / maxrate` (`maxrate` the
//! allotment in bytes per second), `avgidle += (idle - avgidle) / 16`
//! (capped at `maxidle`), and when `avgidle <= 0` the class is over its
//! limit until `undertime = f + tx (1/allotment - 1) + 15 (-avgidle)`.
//! A class is under its limit while `undertime < now`.
//!
//! **Scheduling.**  A dequeue goes through the priorities in order and, at
//! each, round-robin from where the last one left off, through the leaves
//! with demand: the first that may send sends.  A leaf may send when it is
//! under its limit, or when it can borrow: an ancestor reached through its
//! lenders that is under its limit and passes the link-sharing rule:
//! * ancestor-only: any such ancestor;
//! * top-level: an ancestor at a level no higher than the *top level*,
//!   which arrivals lower (to 1 when the arriving class is under its limit,
//!   to 2 when its lender is) and departures raise again;
//! * formal: an ancestor with no unsatisfied class (under its limit with
//!   demand below it) at any lower level.
//!
//! A leaf that may not send is *delayed*: the first time, its undertime
//! moves by `extradelay` plus `15 avgidle`.  When no leaf may send, the
//! first one met that could borrow sends anyway, without updating any
//! estimator (ns-2's behaviour); when none could, nothing is sent.
//!
//! **Weighted round robin.**  Each leaf gets `allotment * M` bytes per
//! round at its priority (`M = n * maxpkt / total allotment` of the `n`
//! leaves there), spends a packet's size when it sends and keeps the turn
//! while it has bytes left; a round where leaves could send but lacked
//! bytes is followed by one where they send regardless.  ns-2 also
//! dequeues when the link goes idle with nothing queued; that visit leaves
//! every leaf with no bytes (a debt forgiven): `Discipline::link_idle`.
//!
//! An allotment of 0 makes ns-2 die of SIGFPE (it traps division by
//! zero) as soon as the class sends (`size / maxrate`); Dumbbell carries
//! on with IEEE arithmetic, the class then never under its limit.
//!
//! The arrival that finds the scheduler idle does not leave at once: the
//! queue starts its link a zero delay later, as an event (ns-2's
//! `CBQueue::sched`); see [`super::Queue::send_next`].  Nothing else wakes a
//! regulated scheduler: when no class may send, packets wait for the next
//! arrival (ns-2 2.35 has no timer for it either).

use super::{Capacity, Discipline, Drops, Verdict};
use crate::packet::PktId;
use crate::sched::ObjId;
use crate::sim::{World, NONE};

/// Priorities 0..MAX_PRIO (`MAXPRIO`).
pub const MAX_PRIO: usize = 10;
/// Levels 1..=MAX_LEVEL (`MAXLEVEL`).
pub const MAX_LEVEL: i32 = 32;
const LEAF_LEVEL: i32 = 1;
/// The estimator's gain is 1/16 (`POWEROFTWO`).
const POWER_OF_TWO: f64 = 16.0;
const NO: u32 = u32::MAX;
/// Flow ids below this are looked up in a table by index; larger ones
/// (any `int` is a flow id in ns-2) in a map.
const DENSE_FIDS: usize = 1 << 16;

/// Which ancestors a class over its limit may borrow from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    AncestorOnly,
    TopLevel,
    Formal,
}

impl Sharing {
    /// ns-2's names and numbers (`ancestor-only` or 0, `top-level` or 1,
    /// `formal` or 2; its `old-formal`, 3, is refused as ns-2 refuses it).
    /// Like ns-2, only the first character of a number counts.
    pub fn parse(s: &str) -> Option<Sharing> {
        match s {
            "ancestor-only" => Some(Sharing::AncestorOnly),
            "top-level" => Some(Sharing::TopLevel),
            "formal" => Some(Sharing::Formal),
            _ => match s.as_bytes().first() {
                Some(b'0') => Some(Sharing::AncestorOnly),
                Some(b'1') => Some(Sharing::TopLevel),
                Some(b'2') => Some(Sharing::Formal),
                _ => None,
            },
        }
    }
}

/// A leaf's queue: the discipline of the queue object the class was given
/// (`CBQClass install-queue`), DropTail, RED, SFQ, DRR, PI, REM, Vq, GK,
/// SRR or RIO (qdisc/subqueue.rs).  ns-2's CBQ asks it for a
/// packet only when its queue monitor counts one (`CBQueue::deque` resumes
/// the queue of the eligible class, which has demand), so a RED leaf never
/// finds itself empty: it is idle only until its first arrival.  A RED
/// leaf is the `Queue/RED` as the script left it: ns-2 neither resets a
/// class's queue when the run starts (`Simulator run` resets the link's
/// queue, the CBQ, whose `reset` does nothing) nor links it (`$q link` is
/// the script's to call), and its drops, early or forced, go to the class's
/// drop snoop and on to the link's drop head (`CBQLink insert`).
pub use super::subqueue::SubQueue as Leaf;

/// What a class is made with.
#[derive(Clone, Copy, Debug)]
pub struct ClassSpec {
    pub allotment: f64,
    /// Negative: not configured (the estimator then leaves avgidle uncapped).
    pub maxidle: f64,
    pub priority: i32,
    pub level: i32,
    pub extradelay: f64,
    pub borrow: bool,
}

/// A class of the tree.
#[derive(Debug)]
pub struct Class {
    pub allotment: f64,
    pub maxidle: f64,
    /// Allotment in bytes per second.
    pub maxrate: f64,
    pub extradelay: f64,
    pub last_time: f64,
    pub undertime: f64,
    pub avgidle: f64,
    pub priority: usize,
    pub level: i32,
    pub delayed: bool,
    pub bytes_alloc: i32,
    pub borrow: bool,
    /// The class it may borrow from (its parent).
    pub lender: u32,
    /// A leaf's queue and its capacity.
    pub queue: Option<(Leaf, Capacity)>,
    /// Next leaf at the same priority (a ring).
    peer: u32,
    /// Next class at the same level.
    level_peer: u32,
}

impl Class {
    /// Has demand: a packet queued.
    #[inline]
    fn demand(&self) -> bool {
        self.queue.as_ref().is_some_and(|(q, _)| !q.is_empty())
    }
}

/// WRR's per-priority state.
#[derive(Debug, Default)]
struct Weights {
    alloc: [f64; MAX_PRIO],
    m: [f64; MAX_PRIO],
    count: [i32; MAX_PRIO],
}

/// The scheduler.
#[derive(Debug)]
pub struct Cbq {
    pub classes: Vec<Class>,
    pub sharing: Sharing,
    /// Largest packet, for WRR's per-round bytes (`maxpkt_`).
    pub maxpkt: i32,
    /// The link's rate, bits per second (0: no link yet), kept equal to
    /// its `bandwidth_` (the ns-2 layer passes a change on): the estimator
    /// reads it at each packet, as ns-2's `CBQClass::update` asks the link
    /// (`LinkDelay::txtime`), and a class's `maxrate` takes it when the
    /// class is added or given a new allotment only.
    pub link_bw: f64,
    /// The link (the front end reads its rate).
    pub link: ObjId,
    /// Flow id -> class, for flow ids below `DENSE_FIDS`.
    fids: Vec<u32>,
    /// Flow id -> class for the larger ids (ns-2's classifier hashes any
    /// id; a table indexed by a flow id of 2^31 would take 8 GB).
    sparse_fids: std::collections::BTreeMap<i32, u32>,
    active: [u32; MAX_PRIO],
    levels: [u32; MAX_LEVEL as usize + 1],
    maxprio: i32,
    maxlevel: i32,
    toplevel: i32,
    last_lender: u32,
    /// WRR's state, if the scheduler is WRR.
    wrr: Option<Box<Weights>>,
    len: usize,
    bytes: i64,
}

impl Cbq {
    /// A scheduler by priority and round robin, or with `weighted`, by
    /// priority and weighted round robin.
    pub fn new(weighted: bool) -> Cbq {
        Cbq {
            classes: Vec::new(),
            sharing: Sharing::AncestorOnly,
            maxpkt: 1024,
            link_bw: 0.0,
            link: NONE,
            fids: Vec::new(),
            sparse_fids: std::collections::BTreeMap::new(),
            active: [NO; MAX_PRIO],
            levels: [NO; MAX_LEVEL as usize + 1],
            maxprio: -1,
            maxlevel: -1,
            toplevel: MAX_LEVEL,
            last_lender: NO,
            wrr: if weighted { Some(Box::default()) } else { None },
            len: 0,
            bytes: 0,
        }
    }

    pub fn is_weighted(&self) -> bool {
        self.wrr.is_some()
    }

    /// Add a class (`insert_class`): `queue` for a leaf, `lender` the index
    /// of a class already added.  Returns its index.
    pub fn add_class(&mut self, spec: ClassSpec, lender: Option<usize>, queue: Option<(Leaf, Capacity)>) -> Result<usize, String> {
        if spec.priority < 0 || spec.priority >= MAX_PRIO as i32 {
            return Err(format!("priority {} out of range (0..{})", spec.priority, MAX_PRIO - 1));
        }
        if !(0.0..=1.0).contains(&spec.allotment) {
            return Err(format!("allotment {} out of range (0..1)", spec.allotment));
        }
        if !(self.link_bw > 0.0) {
            return Err("the scheduler has no link with a positive bandwidth".into());
        }
        if spec.level <= 0 || spec.level > MAX_LEVEL {
            return Err(format!("level {} out of range (1..{MAX_LEVEL})", spec.level));
        }
        if let Some(l) = lender {
            if l >= self.classes.len() {
                return Err(format!("no class {l} to borrow from"));
            }
        }
        let i = self.classes.len();
        let pri = spec.priority as usize;
        let mut c = Class {
            allotment: spec.allotment,
            maxidle: spec.maxidle,
            maxrate: spec.allotment * (self.link_bw / 8.0),
            extradelay: spec.extradelay,
            last_time: 0.0,
            undertime: 0.0,
            avgidle: 0.0,
            priority: pri,
            level: spec.level,
            delayed: false,
            bytes_alloc: 0,
            borrow: spec.borrow,
            lender: lender.map_or(NO, |l| l as u32),
            queue,
            peer: NO,
            level_peer: self.levels[spec.level as usize],
        };
        if c.queue.is_some() {
            // into the ring at this priority, after its current position
            let a = self.active[pri];
            if a != NO {
                c.peer = self.classes[a as usize].peer;
                self.classes[a as usize].peer = i as u32;
            } else {
                c.peer = i as u32;
                self.active[pri] = i as u32;
            }
            self.maxprio = self.maxprio.max(spec.priority);
        }
        self.classes.push(c);
        self.add_allot(pri, spec.allotment);
        self.levels[spec.level as usize] = i as u32;
        self.maxlevel = self.maxlevel.max(spec.level);
        if let Some(w) = &mut self.wrr {
            w.count[pri] += 1;
            self.set_m();
        }
        Ok(i)
    }

    /// Packets of flow `fid` go to class `class` (a leaf).
    pub fn bind(&mut self, fid: i32, class: usize) -> Result<(), String> {
        if class >= self.classes.len() || self.classes[class].queue.is_none() {
            return Err(format!("class {class} has no queue (only a leaf class takes packets)"));
        }
        if fid < 0 {
            return Err(format!("flow id {fid} is negative"));
        }
        let f = fid as usize;
        if f >= DENSE_FIDS {
            self.sparse_fids.insert(fid, class as u32);
            return Ok(());
        }
        if self.fids.len() <= f {
            self.fids.resize(f + 1, NO);
        }
        self.fids[f] = class as u32;
        Ok(())
    }

    /// The class flow `fid` goes to.
    pub fn class_of(&self, fid: i32) -> Option<usize> {
        let f = usize::try_from(fid).ok()?;
        let c = match self.fids.get(f) {
            Some(&c) => c,
            None if f >= DENSE_FIDS => *self.sparse_fids.get(&fid)?,
            None => return None,
        };
        (c != NO).then_some(c as usize)
    }

    /// Set where a class borrows from (its parent), or nothing.
    pub fn set_lender(&mut self, class: usize, lender: Option<usize>) -> Result<(), String> {
        if class >= self.classes.len() || lender.is_some_and(|l| l >= self.classes.len()) {
            return Err("no such class".into());
        }
        // (a cycle would make the estimator's walk to the root endless;
        // ns-2's recursion overflows its stack)
        let mut l = lender.map_or(NO, |l| l as u32);
        while l != NO {
            if l as usize == class {
                return Err("a class cannot borrow from itself or from a class below it".into());
            }
            l = self.classes[l as usize].lender;
        }
        self.classes[class].lender = lender.map_or(NO, |l| l as u32);
        Ok(())
    }

    /// Change a class's allotment (`newallot`).
    pub fn set_allotment(&mut self, class: usize, mut bw: f64) {
        let pri = self.classes[class].priority;
        let c = &mut self.classes[class];
        if c.allotment < 0.0 {
            c.allotment = 0.0;
        }
        if bw < 0.0 {
            bw = 0.0;
        }
        c.maxrate = bw * (self.link_bw / 8.0);
        let diff = bw - c.allotment;
        c.allotment = bw;
        self.add_allot(pri, diff);
    }

    fn add_allot(&mut self, pri: usize, diff: f64) {
        if let Some(w) = &mut self.wrr {
            w.alloc[pri] += diff;
            self.set_m();
        }
    }

    /// WRR's bytes per round at each priority (`setM`).
    fn set_m(&mut self) {
        let maxpkt = self.maxpkt;
        let Some(w) = &mut self.wrr else { return };
        for i in 0..=self.maxprio.max(-1) {
            let i = i as usize;
            w.m[i] = if w.alloc[i] > 0.0 { w.count[i] as f64 * maxpkt as f64 * 1.0 / w.alloc[i] } else { 0.0 };
        }
    }

    /// `toplevel_arrival`.
    fn toplevel_arrival(&mut self, c: usize, now: f64) {
        if self.toplevel > 1 {
            let cl = &self.classes[c];
            if cl.undertime < now {
                self.toplevel = 1;
            } else if self.toplevel > 2 && cl.borrow && cl.lender != NO && self.classes[cl.lender as usize].undertime < now {
                self.toplevel = 2;
            }
        }
    }

    /// `toplevel_departure`, after a class sent; `left` packets are still
    /// in its queue (ns-2's queue monitor has counted the departure then).
    fn toplevel_departure(&mut self, left: usize, now: f64) {
        let ll = &self.classes[self.last_lender as usize];
        if self.toplevel >= ll.level {
            self.toplevel = if left <= 1 || ll.undertime > now { MAX_LEVEL } else { ll.level };
        }
    }

    /// May `c` send now (`send_permitted`)?  Records the class it borrows
    /// from (itself when under its limit).
    fn send_permitted(&mut self, c: usize, now: f64) -> bool {
        if self.classes[c].undertime < now {
            self.classes[c].delayed = false;
            self.last_lender = c as u32;
            true
        } else if self.classes[c].borrow {
            match self.find_lender(c, now) {
                Some(l) => {
                    self.last_lender = l as u32;
                    true
                }
                None => false,
            }
        } else {
            false
        }
    }

    fn find_lender(&self, c: usize, now: f64) -> Option<usize> {
        let cl = &self.classes[c];
        if !cl.borrow || cl.lender == NO {
            return None;
        }
        let mut l = cl.lender;
        while l != NO {
            let a = &self.classes[l as usize];
            if a.undertime > now {
                if self.sharing == Sharing::TopLevel && a.level > self.toplevel {
                    return None;
                }
                l = a.lender;
                continue;
            }
            let ok = match self.sharing {
                Sharing::TopLevel => a.level <= self.toplevel,
                Sharing::AncestorOnly => true,
                Sharing::Formal => self.eligible_formal(a.level, now),
            };
            if ok {
                return Some(l as usize);
            }
            l = a.lender;
        }
        None
    }

    /// Formal link-sharing: no unsatisfied class below `level`.
    fn eligible_formal(&self, level: i32, now: f64) -> bool {
        for lv in LEAF_LEVEL..level {
            let mut p = self.levels[lv as usize];
            while p != NO {
                if !self.satisfied(p as usize, now) {
                    return false;
                }
                p = self.classes[p as usize].level_peer;
            }
        }
        true
    }

    fn satisfied(&self, c: usize, now: f64) -> bool {
        let cl = &self.classes[c];
        if cl.level == LEAF_LEVEL {
            return !(cl.undertime < now && cl.demand());
        }
        !(cl.undertime < now && self.desc_with_demand(c))
    }

    /// Is a leaf below `c` (through lenders) backlogged?
    fn desc_with_demand(&self, c: usize) -> bool {
        let mut p = self.levels[LEAF_LEVEL as usize];
        while p != NO {
            if self.classes[p as usize].demand() && self.is_ancestor(c, p as usize) {
                return true;
            }
            p = self.classes[p as usize].level_peer;
        }
        false
    }

    fn is_ancestor(&self, a: usize, mut p: usize) -> bool {
        loop {
            let cl = &self.classes[p];
            if !cl.borrow || cl.lender == NO {
                return false;
            }
            if cl.lender as usize == a {
                return true;
            }
            p = cl.lender as usize;
        }
    }

    /// `delayed`: a class that may not send.
    fn delayed(&mut self, c: usize, now: f64) {
        let cl = &mut self.classes[c];
        let delay = cl.undertime - now + cl.extradelay;
        if delay > 0.0 && !cl.delayed {
            cl.undertime += cl.extradelay;
            cl.undertime -= (1.0 - POWER_OF_TWO) * cl.avgidle;
            cl.delayed = true;
        }
    }

    /// `update`: `c` and its lenders to the root sent `size` bytes at `now`.
    fn update(&mut self, mut c: usize, size: i32, now: f64) {
        let tx_time = 8.0 * size as f64 / self.link_bw;
        let fin_time = now + tx_time;
        loop {
            let cl = &mut self.classes[c];
            let idle = (fin_time - cl.last_time) - (size as f64 / cl.maxrate);
            let mut avgidle = cl.avgidle;
            avgidle += (idle - avgidle) / POWER_OF_TWO;
            if cl.maxidle >= 0.0 && avgidle > cl.maxidle {
                avgidle = cl.maxidle;
            }
            cl.avgidle = avgidle;
            if avgidle <= 0.0 {
                cl.undertime = fin_time + tx_time * (1.0 / cl.allotment - 1.0);
                cl.undertime += (1.0 - POWER_OF_TWO) * avgidle;
            }
            cl.last_time = fin_time;
            if cl.lender == NO {
                return;
            }
            c = cl.lender as usize;
        }
    }

    /// Take the head of leaf `c`'s queue; with the packets left there.
    fn take(&mut self, c: usize, w: &mut World) -> Option<(PktId, usize)> {
        let (q, _) = self.classes[c].queue.as_mut()?;
        let p = q.deque(w)?;
        let left = q.len();
        self.len -= 1;
        self.bytes -= w.pool.get(p).size as i64;
        Some((p, left))
    }

    /// After leaf `c` sent `p` (not as the last resort): the estimators,
    /// and top-level's departure rule.
    fn sent(&mut self, c: usize, p: PktId, left: usize, w: &World) {
        let now = w.s.now;
        self.update(c, w.pool.get(p).size, now);
        if self.sharing == Sharing::TopLevel {
            self.toplevel_departure(left, now);
        }
    }

    /// Priority round robin (`CBQueue::deque`).
    fn dequeue_prr(&mut self, w: &mut World) -> Option<PktId> {
        let now = w.s.now;
        let mut first = NO;
        let mut eligible = NO;
        'prio: for prio in 0..=self.maxprio.max(-1) {
            let start = self.active[prio as usize];
            if start == NO {
                continue;
            }
            let mut c = start;
            loop {
                if self.classes[c as usize].demand() {
                    let cl = &self.classes[c as usize];
                    if first == NO && cl.borrow && cl.lender != NO {
                        first = c;
                    }
                    if self.send_permitted(c as usize, now) {
                        eligible = c;
                        break 'prio;
                    }
                    self.delayed(c as usize, now);
                }
                c = self.classes[c as usize].peer;
                if c == start {
                    break;
                }
            }
        }
        let none_found = eligible == NO;
        if none_found {
            eligible = first;
        }
        if eligible == NO {
            return None;
        }
        let e = eligible as usize;
        self.active[self.classes[e].priority] = self.classes[e].peer;
        let (p, left) = self.take(e, w)?;
        if !none_found {
            self.sent(e, p, left, w);
        }
        Some(p)
    }

    /// Weighted round robin (`WRR_CBQueue::deque`).
    fn dequeue_wrr(&mut self, w: &mut World) -> Option<PktId> {
        let now = w.s.now;
        let mut first = NO;
        let mut eligible = NO;
        'prio: for prio in 0..=self.maxprio.max(-1) {
            let start = self.active[prio as usize];
            if start == NO {
                continue;
            }
            let mut c = start;
            let mut deficit = 0;
            loop {
                loop {
                    let ci = c as usize;
                    if deficit < 2 && self.classes[ci].bytes_alloc <= 0 {
                        let m = self.wrr.as_ref().map_or(0.0, |w| w.m[self.classes[ci].priority]);
                        let cl = &mut self.classes[ci];
                        cl.bytes_alloc = cl.bytes_alloc.wrapping_add((cl.allotment * m) as i32);
                    }
                    if self.classes[ci].demand() {
                        let cl = &self.classes[ci];
                        if first == NO && cl.borrow && cl.lender != NO {
                            first = c;
                        }
                        if !self.send_permitted(ci, now) {
                            self.delayed(ci, now);
                        } else if self.classes[ci].bytes_alloc > 0 || deficit > 1 {
                            eligible = c;
                            break 'prio;
                        } else {
                            deficit = 1;
                        }
                    }
                    self.classes[ci].bytes_alloc = 0;
                    c = self.classes[ci].peer;
                    if c == self.active[prio as usize] || c == NO {
                        break;
                    }
                }
                if deficit == 1 {
                    deficit = 2;
                } else {
                    break;
                }
            }
        }
        let none_found = eligible == NO;
        if none_found {
            eligible = first;
        }
        if eligible == NO {
            return None;
        }
        let e = eligible as usize;
        let mut next = self.classes[e].peer;
        let Some((p, left)) = self.take(e, w) else {
            self.active[self.classes[e].priority] = next;
            return None;
        };
        if !none_found {
            let cl = &mut self.classes[e];
            if cl.bytes_alloc > 0 {
                cl.bytes_alloc = cl.bytes_alloc.wrapping_sub(w.pool.get(p).size);
            }
            if cl.bytes_alloc > 0 {
                next = e as u32;
            }
            self.sent(e, p, left, w);
        }
        self.active[self.classes[e].priority] = next;
        Some(p)
    }
}

impl Discipline for Cbq {
    /// A packet of a bound flow joins its class's queue (`CBQClass::recv`);
    /// a packet of no class is dropped, and the run stops (a script's CBQ
    /// link classifies before the queue, and stops at such a flow).
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        let Some(c) = self.class_of(w.pool.get(p).fid) else {
            w.abort(crate::notice::Abort::CbqUnboundFlow { fid: w.pool.get(p).fid });
            return Verdict::Dropped(p);
        };
        if self.sharing == Sharing::TopLevel {
            self.toplevel_arrival(c, w.s.now);
        }
        let size = w.pool.get(p).size as i64;
        let (q, cap) = self.classes[c].queue.as_mut().expect("a bound class is a leaf");
        match q.enqueue(cap, w, p, drops) {
            v @ (Verdict::Queued | Verdict::Marked) => {
                self.len += 1;
                self.bytes += size;
                v
            }
            // a RED leaf's early drop goes where its forced ones go: the
            // class's drop snoop, then the link's drop head (RED's
            // early-drop target is unset in a class's queue)
            Verdict::Dropped(d) | Verdict::EarlyDropped(d) => {
                if d != p {
                    // drop-front, RED's random victim: the arrival in, a
                    // queued packet out
                    self.bytes += size - w.pool.get(d).size as i64;
                }
                Verdict::Dropped(d)
            }
            // a DRR leaf over its byte limit: the arrival in, the packets
            // it dropped from its fattest flow out, to the class's drop
            // snoop and the link's drop head as its other drops
            Verdict::Overflow => {
                self.len = self.len + 1 - drops.pkts.len();
                self.bytes += size - drops.pkts.iter().map(|&d| w.pool.get(d).size as i64).sum::<i64>();
                Verdict::Overflow
            }
            v => v,
        }
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        if self.wrr.is_some() {
            self.dequeue_wrr(w)
        } else {
            self.dequeue_prr(w)
        }
    }

    /// The dequeue that finds every class empty (ns-2 makes it when the
    /// link finishes with nothing queued).  Priority round robin changes
    /// nothing then; weighted round robin visits every leaf, tops up its
    /// bytes and, finding no demand, leaves it with none.
    fn link_idle(&mut self, _now: f64) {
        if self.wrr.is_some() {
            for c in self.classes.iter_mut().filter(|c| c.queue.is_some()) {
                c.bytes_alloc = 0;
            }
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bytes(&self) -> i64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::PacketPool;
    use crate::qdisc::{DropTail, Red};

    /// A link of 8000 b/s: a 100-byte packet takes 0.1 s.
    fn cbq(weighted: bool) -> Cbq {
        Cbq { link_bw: 8000.0, ..Cbq::new(weighted) }
    }

    fn spec(allotment: f64, priority: i32, level: i32, borrow: bool) -> ClassSpec {
        ClassSpec { allotment, maxidle: 10.0, priority, level, extradelay: 0.0, borrow }
    }

    fn leaf(limit: i32) -> Option<(Leaf, Capacity)> {
        Some((Leaf::DropTail(DropTail::default()), Capacity { limit, ..Capacity::default() }))
    }

    fn pkt(pool: &mut PacketPool, fid: i32, size: i32) -> PktId {
        let p = pool.alloc();
        let pk = pool.get_mut(p);
        pk.fid = fid;
        pk.size = size;
        p
    }

    fn put(c: &mut Cbq, w: &mut World, fid: i32, n: usize) -> Vec<PktId> {
        let mut drops = Drops::default();
        (0..n)
            .map(|_| {
                let p = pkt(&mut w.pool, fid, 100);
                assert_eq!(c.enqueue(&Capacity::default(), w, p, &mut drops), Verdict::Queued);
                p
            })
            .collect()
    }

    fn get(c: &mut Cbq, w: &mut World) -> Option<PktId> {
        c.dequeue(w, &mut Drops::default())
    }

    /// Any `int` is a flow id (ns-2's classifier hashes it): a large one
    /// is bound without a table of its size (a fuzzed script bound flow
    /// 2^31-1 and the table asked for 8 GB).
    #[test]
    fn large_flow_ids_bind_sparsely() {
        let mut c = cbq(false);
        let a = c.add_class(spec(0.5, 0, 1, false), None, leaf(50)).unwrap();
        let b = c.add_class(spec(0.5, 0, 1, false), None, leaf(50)).unwrap();
        c.bind(i32::MAX, a).unwrap();
        c.bind(70_000, b).unwrap();
        c.bind(3, b).unwrap();
        assert!(c.fids.len() <= 4);
        assert_eq!(c.class_of(i32::MAX), Some(a));
        assert_eq!(c.class_of(70_000), Some(b));
        assert_eq!(c.class_of(70_001), None);
        assert_eq!(c.class_of(3), Some(b));
        assert_eq!(c.class_of(2), None);
        assert_eq!(c.class_of(-1), None);
    }

    /// The estimator after one packet, by hand: allotment 0.5 of 1000 B/s
    /// is 500 B/s, so 100 bytes "should" take 0.2 s but took 0.1 s.  The
    /// class is then over its limit; it waits (a dequeue finds nothing to
    /// send, the class delayed), and sends again once under.
    #[test]
    fn estimator_regulates_a_class() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let a = c.add_class(spec(0.5, 0, 1, false), None, leaf(50)).unwrap();
        c.bind(1, a).unwrap();
        let ps = put(&mut c, &mut w, 1, 2);
        w.s.now = 0.0;
        // at 0 the class is not under its limit (undertime 0 is not < 0)
        // and has no lender
        assert_eq!(get(&mut c, &mut w), None);
        w.s.now = 1e-9;
        assert_eq!(get(&mut c, &mut w), Some(ps[0]));
        let cl = &c.classes[a];
        let fin = 1e-9 + 0.1;
        let idle = fin - 0.2;
        let avg = idle / 16.0;
        assert_eq!(cl.avgidle, avg);
        assert!(avg < 0.0);
        assert_eq!(cl.undertime, fin + 0.1 * (1.0 / 0.5 - 1.0) + 15.0 * -avg);
        assert_eq!(cl.last_time, fin);
        // still over at 0.15: delayed, its undertime less the 15 avgidle
        let under = cl.undertime;
        w.s.now = 0.15;
        assert_eq!(get(&mut c, &mut w), None);
        assert!(c.classes[a].delayed);
        assert_eq!(c.classes[a].undertime, under + 15.0 * avg);
        // a second refusal does not move it again
        assert_eq!(get(&mut c, &mut w), None);
        assert_eq!(c.classes[a].undertime, under + 15.0 * avg);
        w.s.now = c.classes[a].undertime + 1e-9;
        assert_eq!(get(&mut c, &mut w), Some(ps[1]));
        assert!(!c.classes[a].delayed);
        assert_eq!((c.len(), c.bytes()), (0, 0));
    }

    /// Priority 0 goes first; leaves of one priority take turns.
    #[test]
    fn priority_then_round_robin() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
        let lo = c.add_class(spec(0.2, 1, 1, true), Some(root), leaf(50)).unwrap();
        let a = c.add_class(spec(0.4, 0, 1, true), Some(root), leaf(50)).unwrap();
        let b = c.add_class(spec(0.4, 0, 1, true), Some(root), leaf(50)).unwrap();
        for (fid, cl) in [(1, lo), (2, a), (3, b)] {
            c.bind(fid, cl).unwrap();
        }
        let l = put(&mut c, &mut w, 1, 2);
        let pa = put(&mut c, &mut w, 2, 2);
        let pb = put(&mut c, &mut w, 3, 2);
        let mut out = Vec::new();
        w.s.now = 100.0;
        while let Some(p) = get(&mut c, &mut w) {
            out.push(p);
            w.s.now += 0.1;
        }
        assert_eq!(out, vec![pa[0], pb[0], pa[1], pb[1], l[0], l[1]]);
    }

    /// A class over its limit sends by borrowing from an under-limit
    /// parent, and only if it may borrow.
    #[test]
    fn borrowing_needs_permission_and_an_underlimit_lender() {
        for borrow in [true, false] {
            let mut w = World::new_for_tests();
            let mut c = cbq(false);
            let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
            let a = c.add_class(spec(0.1, 0, 1, borrow), Some(root), leaf(50)).unwrap();
            c.bind(1, a).unwrap();
            let ps = put(&mut c, &mut w, 1, 1);
            w.s.now = 1.0;
            c.classes[a].undertime = 5.0;
            let got = get(&mut c, &mut w);
            assert_eq!(got, borrow.then_some(ps[0]), "borrow {borrow}");
            // borrowing updates the lender's estimator as well
            assert_eq!(c.classes[root].last_time, if borrow { 1.1 } else { 0.0 });
            if !borrow {
                assert_eq!(c.len(), 1);
            }
        }
    }

    /// Formal link-sharing refuses a loan while a class at a lower level is
    /// unsatisfied (under its limit with a backlog); ancestor-only lends.
    #[test]
    fn formal_sharing_waits_for_unsatisfied_classes() {
        for (sharing, first) in [(Sharing::Formal, 2), (Sharing::AncestorOnly, 1)] {
            let mut w = World::new_for_tests();
            let mut c = cbq(false);
            c.sharing = sharing;
            let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
            let a = c.add_class(spec(0.5, 0, 1, true), Some(root), leaf(50)).unwrap();
            let b = c.add_class(spec(0.5, 1, 1, true), Some(root), leaf(50)).unwrap();
            c.bind(1, a).unwrap();
            c.bind(2, b).unwrap();
            put(&mut c, &mut w, 1, 1);
            put(&mut c, &mut w, 2, 1);
            w.s.now = 1.0;
            c.classes[a].undertime = 5.0;
            let p = get(&mut c, &mut w).unwrap();
            assert_eq!(w.pool.get(p).fid, first, "{sharing:?}");
        }
    }

    /// When no class may send, the first one met that could borrow goes
    /// anyway, and no estimator moves.
    #[test]
    fn last_resort_sends_without_accounting() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
        let a = c.add_class(spec(0.5, 0, 1, true), Some(root), leaf(50)).unwrap();
        c.bind(1, a).unwrap();
        let ps = put(&mut c, &mut w, 1, 1);
        w.s.now = 1.0;
        c.classes[a].undertime = 5.0;
        c.classes[root].undertime = 5.0;
        assert_eq!(get(&mut c, &mut w), Some(ps[0]));
        assert_eq!((c.classes[a].last_time, c.classes[root].last_time), (0.0, 0.0));
    }

    /// Top-level sharing: an arrival to an under-limit class lowers the
    /// top level to 1, so no ancestor (level 2) lends until a departure
    /// raises it again.
    #[test]
    fn top_level_follows_arrivals() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        c.sharing = Sharing::TopLevel;
        let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
        let a = c.add_class(spec(0.5, 0, 1, true), Some(root), leaf(50)).unwrap();
        let b = c.add_class(spec(0.5, 1, 1, true), Some(root), leaf(50)).unwrap();
        c.bind(1, a).unwrap();
        c.bind(2, b).unwrap();
        w.s.now = 1.0;
        c.classes[a].undertime = 5.0;
        c.classes[b].undertime = 0.5;
        put(&mut c, &mut w, 1, 1);
        assert_eq!(c.toplevel, 2, "a is over its limit, its lender under it");
        put(&mut c, &mut w, 2, 1);
        assert_eq!(c.toplevel, 1);
        // a may not borrow from the root (level 2 > 1): b goes first
        let p = get(&mut c, &mut w).unwrap();
        assert_eq!(w.pool.get(p).fid, 2);
        // b's queue is empty after it: the top level is back up
        assert_eq!(c.toplevel, MAX_LEVEL);
        w.s.now = 1.1;
        let p = get(&mut c, &mut w).unwrap();
        assert_eq!(w.pool.get(p).fid, 1);
    }

    /// Weighted round robin shares by allotment: 3:1 for two backlogged
    /// classes of allotments 0.75 and 0.25 at one priority (dequeued at
    /// half the link's rate, so that neither goes over its limit).
    #[test]
    fn weighted_round_robin_shares_by_allotment() {
        let mut w = World::new_for_tests();
        let mut c = cbq(true);
        c.maxpkt = 100;
        // (every class counts in its priority's weights, as in ns-2: the
        // root at priority 8 stays out of the leaves')
        let root = c.add_class(spec(1.0, 8, 2, false), None, None).unwrap();
        let a = c.add_class(spec(0.75, 0, 1, true), Some(root), leaf(1000)).unwrap();
        let b = c.add_class(spec(0.25, 0, 1, true), Some(root), leaf(1000)).unwrap();
        c.bind(1, a).unwrap();
        c.bind(2, b).unwrap();
        put(&mut c, &mut w, 1, 300);
        put(&mut c, &mut w, 2, 300);
        w.s.now = 1.0;
        let mut n = [0; 3];
        for _ in 0..400 {
            let p = get(&mut c, &mut w).unwrap();
            n[w.pool.get(p).fid as usize] += 1;
            w.s.now += 0.2;
        }
        assert_eq!(n[1], 300, "{n:?}");
        // the same classes under plain round robin share 1:1
        let mut c2 = cbq(false);
        let root = c2.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
        let a = c2.add_class(spec(0.75, 0, 1, true), Some(root), leaf(1000)).unwrap();
        let b = c2.add_class(spec(0.25, 0, 1, true), Some(root), leaf(1000)).unwrap();
        c2.bind(1, a).unwrap();
        c2.bind(2, b).unwrap();
        put(&mut c2, &mut w, 1, 300);
        put(&mut c2, &mut w, 2, 300);
        let mut n = [0; 3];
        for _ in 0..400 {
            let p = get(&mut c2, &mut w).unwrap();
            n[w.pool.get(p).fid as usize] += 1;
            w.s.now += 0.2;
        }
        assert_eq!(n[1], 200, "{n:?}");
    }

    /// The dequeue ns-2 makes when the link goes idle with nothing queued
    /// leaves WRR's leaves without bytes (a debt included), and nothing
    /// else changed.
    #[test]
    fn idle_link_clears_wrr_bytes() {
        for weighted in [true, false] {
            let mut c = cbq(weighted);
            let a = c.add_class(spec(0.5, 0, 1, true), None, leaf(10)).unwrap();
            c.classes[a].bytes_alloc = -980;
            c.classes[a].undertime = 3.0;
            Discipline::link_idle(&mut c, 1.0);
            assert_eq!(c.classes[a].bytes_alloc, if weighted { 0 } else { -980 });
            assert_eq!(c.classes[a].undertime, 3.0);
        }
    }

    /// A new allotment moves the class's rate and WRR's weights.
    #[test]
    fn new_allotment() {
        let mut c = cbq(true);
        c.maxpkt = 100;
        let a = c.add_class(spec(0.2, 0, 1, true), None, leaf(10)).unwrap();
        let b = c.add_class(spec(0.3, 0, 1, true), None, leaf(10)).unwrap();
        // M = classes * maxpkt / total allotment
        assert_eq!(c.wrr.as_ref().unwrap().m[0], 2.0 * 100.0 / 0.5);
        c.set_allotment(a, 0.7);
        assert_eq!(c.classes[a].maxrate, 0.7 * 1000.0);
        assert_eq!(c.wrr.as_ref().unwrap().m[0], 2.0 * 100.0 / (0.5 + 0.5));
        assert_eq!(c.classes[b].allotment, 0.3);
    }

    /// The limits ns-2 checks when a class is inserted, and the flow map.
    #[test]
    fn bad_classes_are_refused() {
        let mut c = cbq(false);
        assert!(c.add_class(spec(0.5, 10, 1, true), None, leaf(5)).unwrap_err().contains("priority 10"));
        assert!(c.add_class(spec(1.5, 0, 1, true), None, leaf(5)).unwrap_err().contains("allotment 1.5"));
        assert!(c.add_class(spec(0.5, 0, 0, true), None, leaf(5)).unwrap_err().contains("level 0"));
        assert!(c.add_class(spec(0.5, 0, 1, true), Some(3), leaf(5)).unwrap_err().contains("no class 3"));
        assert!(Cbq::new(false).add_class(spec(0.5, 0, 1, true), None, leaf(5)).unwrap_err().contains("no link"));
        let root = c.add_class(spec(1.0, 0, 2, false), None, None).unwrap();
        assert!(c.bind(1, root).unwrap_err().contains("no queue"));
        assert!(c.set_lender(root, Some(root)).unwrap_err().contains("cannot borrow from itself"));
        let a = c.add_class(spec(0.5, 0, 1, true), Some(root), leaf(5)).unwrap();
        assert!(c.set_lender(root, Some(a)).unwrap_err().contains("or from a class below it"));
        c.set_lender(a, None).unwrap();
        c.set_lender(a, Some(root)).unwrap();
        c.bind(7, a).unwrap();
        assert_eq!((c.class_of(7), c.class_of(6), c.class_of(-1)), (Some(a), None, None));
        assert_eq!(Sharing::parse("formal"), Some(Sharing::Formal));
        assert_eq!(Sharing::parse("1"), Some(Sharing::TopLevel));
        assert_eq!(Sharing::parse("03"), Some(Sharing::AncestorOnly));
        assert_eq!(Sharing::parse("weighted"), None);
    }

    /// A RED leaf judges its arrivals by its own average: with the queue's
    /// length as the average (q_weight 1) and thresholds 0.5 and 1, not
    /// gentle, the third packet meets an average of 2 over two queued and
    /// is dropped (forced) where a DropTail leaf beside it takes it; the leaf's
    /// backlog counts what RED kept, and the scheduler takes it from there.
    #[test]
    fn red_leaf_drops_by_its_average() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let mut r = Red::new();
        (r.th_min, r.th_max, r.q_w, r.gentle, r.bytes, r.use_mark_p) = (0.5, 1.0, 1.0, false, false, false);
        let cap = Capacity { limit: 50, in_bytes: false, ..Capacity::default() };
        let a = c.add_class(spec(0.5, 0, 1, false), None, Some((Leaf::Red(Box::new(r)), cap))).unwrap();
        let b = c.add_class(spec(0.5, 0, 1, false), None, leaf(50)).unwrap();
        c.bind(1, a).unwrap();
        c.bind(2, b).unwrap();
        let mut drops = Drops::default();
        let v: Vec<Verdict> = [1, 1, 1, 2, 2, 2]
            .iter()
            .map(|&fid| {
                let p = pkt(&mut w.pool, fid, 100);
                c.enqueue(&Capacity::default(), &mut w, p, &mut drops)
            })
            .collect();
        assert_eq!(&v[..2], &[Verdict::Queued, Verdict::Queued]);
        assert!(matches!(v[2], Verdict::Dropped(_)), "{v:?}");
        assert_eq!(&v[3..], &[Verdict::Queued, Verdict::Queued, Verdict::Queued]);
        assert_eq!((c.len(), c.bytes()), (5, 500));
        assert_eq!(c.classes[a].queue.as_ref().unwrap().0.len(), 2);
        assert!(c.classes[a].queue.as_ref().unwrap().0.red().is_some());
        w.s.now = 1.0;
        let mut got = Vec::new();
        while let Some(p) = get(&mut c, &mut w) {
            got.push(w.pool.get(p).fid);
        }
        assert_eq!(got, vec![1, 2, 1, 2, 2]);
        assert_eq!((c.len(), c.bytes()), (0, 0));
    }

    /// A DRR leaf over its byte limit queues the arrival and drops from
    /// the head of its fattest bucket: three 100-byte packets make room for
    /// a 300-byte one of the same source (blimit 300), and the scheduler's
    /// backlog counts what is left; an SFQ leaf beside it drops the arrival
    /// once its bucket holds half the room left.
    #[test]
    fn drr_and_sfq_leaves_drop_as_theirs() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let mut drr = crate::qdisc::Drr::new();
        drr.blimit = 300;
        let mut sfq = crate::qdisc::Sfq::new();
        (sfq.maxqueue, sfq.buckets) = (8, 2);
        let a = c.add_class(spec(0.5, 0, 1, false), None, Some((Leaf::Drr(Box::new(drr)), Capacity::default()))).unwrap();
        let b = c.add_class(spec(0.5, 0, 1, false), None, Some((Leaf::Sfq(Box::new(sfq)), Capacity::default()))).unwrap();
        c.bind(1, a).unwrap();
        c.bind(2, b).unwrap();
        let mut drops = Drops::default();
        let small: Vec<PktId> = (0..3)
            .map(|_| {
                let p = pkt(&mut w.pool, 1, 100);
                w.pool.get_mut(p).saddr = 1;
                assert_eq!(c.enqueue(&Capacity::default(), &mut w, p, &mut drops), Verdict::Queued);
                p
            })
            .collect();
        let big = pkt(&mut w.pool, 1, 300);
        w.pool.get_mut(big).saddr = 1;
        assert_eq!(c.enqueue(&Capacity::default(), &mut w, big, &mut drops), Verdict::Overflow);
        assert_eq!(drops.pkts, small);
        assert_eq!((c.len(), c.bytes()), (1, 300));
        drops.pkts.clear();
        // SFQ: room 8, its packets in one bucket: 3 >= (8 - 3) / 2 stops
        // the fourth
        let v: Vec<Verdict> = (0..4)
            .map(|_| {
                let p = pkt(&mut w.pool, 2, 100);
                c.enqueue(&Capacity::default(), &mut w, p, &mut drops)
            })
            .collect();
        assert_eq!(&v[..3], &[Verdict::Queued, Verdict::Queued, Verdict::Queued]);
        assert!(matches!(v[3], Verdict::Dropped(_)), "{v:?}");
        assert_eq!((c.len(), c.bytes()), (4, 600));
        assert_eq!(c.classes[b].queue.as_ref().unwrap().0.len(), 3);
    }

    /// A full class queue drops the arrival; a packet of no class is dropped.
    #[test]
    fn drops() {
        let mut w = World::new_for_tests();
        let mut c = cbq(false);
        let a = c.add_class(spec(0.5, 0, 1, true), None, leaf(3)).unwrap();
        c.bind(1, a).unwrap();
        put(&mut c, &mut w, 1, 2);
        let mut drops = Drops::default();
        let p = pkt(&mut w.pool, 1, 100);
        assert_eq!(c.enqueue(&Capacity::default(), &mut w, p, &mut drops), Verdict::Dropped(p));
        let q = pkt(&mut w.pool, 9, 100);
        assert_eq!(c.enqueue(&Capacity::default(), &mut w, q, &mut drops), Verdict::Dropped(q));
        assert_eq!((c.len(), c.bytes()), (2, 200));
    }
}
