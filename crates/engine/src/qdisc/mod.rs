//! Queue disciplines: the queue in front of a link, and the seam that
//! decides what it keeps, drops, marks and sends next.
//!
//! [`Queue`] is the plumbing every discipline shares, shaped like ns-2's
//! `Queue` base class (queue/queue.cc): the link's busy flag and resume
//! slot, the targets packets go to, the capacity, summary statistics.
//! [`Qdisc`] is the discipline: an enum with one variant per algorithm
//! (DropTail inline, the others in [`Boxed`]), each in its own file and
//! owning its packets and state, dispatched with a `match` (no `dyn`).  Its hooks follow ns-3's `QueueDisc`
//! (`DoEnqueue`/`DoDequeue`): enqueue returns a [`Verdict`] (queued,
//! marked, a packet to drop, or queued with queued packets dropped to make
//! room, FQ-CoDel's overflow), dequeue hands out the next packet and may
//! drop others on the way ([`Drops`]), and a discipline that needs to know
//! when the link went idle (RED's idle-time decay) hears of it
//! ([`Qdisc::link_idle`]).  The queue sends the drops on: forced drops to
//! its drop target, the discipline's own early (AQM) drops to its early-drop
//! target when one is set (ns-2's `early-drop-target`), else to the drop
//! target too.
//!
//! Adding a discipline: a file here with its state, its `enqueue`,
//! `dequeue`, `link_idle` (if it needs it), `len` and `bytes`, a line in
//! the `disciplines!` list below, and its binding in the ns-2 layer if ns-2
//! scripts name it.

pub mod cbq;
pub mod classmark;
pub mod cobalt;
pub mod codel;
pub mod droptail;
pub mod drr;
pub mod dsred;
pub mod dualpi2;
pub mod finish_fq;
pub mod fq;
pub mod fq_codel;
pub mod pi;
pub mod gk;
pub mod jobs;
pub mod pie;
pub mod red;
pub mod redpd;
pub mod rem;
pub mod rio;
pub mod scfq;
pub mod sfq;
pub mod srr;
pub mod step;
pub mod subqueue;
pub mod vq;
pub mod xcp;

use crate::packet::{PacketPool, PktId};
use crate::ring::Ring;
use crate::sched::{ObjId, ResumeId};
use crate::sim::{World, NONE};

pub use cbq::Cbq;
pub use classmark::{ClassCounter, ClassMarker};
pub use cobalt::Cobalt;
pub use codel::CoDel;
pub use droptail::DropTail;
pub use drr::Drr;
pub use dsred::DsRed;
pub use dualpi2::DualPi2;
pub use finish_fq::FinishFq;
pub use fq::{FqCobalt, FqPie};
pub use fq_codel::FqCoDel;
pub use pi::Pi;
pub use gk::Gk;
pub use jobs::Jobs;
pub use pie::Pie;
pub use red::Red;
pub use redpd::RedPd;
pub use rem::Rem;
pub use rio::Rio;
pub use scfq::Scfq;
pub use sfq::Sfq;
pub use srr::Srr;
pub use step::StepMark;
pub use vq::Vq;

/// What a discipline did with an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Queued as it is.
    Queued,
    /// Queued, and the discipline set CE on it or on a queued packet.
    Marked,
    /// Overflow: drop this packet (the arrival, or a queued packet the
    /// arrival displaced, which is then queued in its stead).
    Dropped(PktId),
    /// An early (AQM) drop of this packet: the arrival, or a queued packet
    /// chosen instead (RED's mark-front), the arrival then queued.
    EarlyDropped(PktId),
    /// Overflow: the arrival was queued, and the discipline then dropped
    /// the packets it left in `drops` (FQ-CoDel's batch from its fattest
    /// queue, which may include the arrival); they go to the drop target.
    Overflow,
    /// Nothing done yet: the arrival must first pass a filter by its flow,
    /// which the simulation runs (RED-PD's, `Sim::police`), then enqueue
    /// it again if it passed.
    Police,
}

/// Packets a discipline dropped while dequeuing (CoDel drops at the head),
/// in the order it dropped them; the queue sends them on before the packet
/// the dequeue returned.  Also the packets dropped to make room at an
/// arrival ([`Verdict::Overflow`]), sent on before anything is dequeued.
#[derive(Debug, Default)]
pub struct Drops {
    pub(crate) pkts: Vec<PktId>,
}

impl Drops {
    /// Drop `p` (an early drop: it goes to the early-drop target if set).
    #[inline]
    pub fn push(&mut self, p: PktId) {
        self.pkts.push(p);
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.pkts.is_empty()
    }
}

/// Set CE on `p` if it is ECN-capable (ns-3's `QueueDisc::Mark` of an IP
/// item); false, leaving it alone, if not.
#[inline]
pub(crate) fn mark_ce(pool: &mut PacketPool, p: PktId) -> bool {
    let pk = pool.get_mut(p);
    if pk.ecn_capable {
        pk.ecn_to_echo = true;
        true
    } else {
        false
    }
}

/// Packets in arrival order with their total size.
#[derive(Debug, Default, Clone)]
pub struct Fifo {
    pub(crate) q: Ring<PktId>,
    /// An `int` in ns-2's `PacketQueue` (`bytes_`); 32 bits keep the
    /// discipline enum within the queue's first cache line.
    bytes: i32,
}

impl Fifo {
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.q.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Bytes queued.
    #[inline(always)]
    pub fn bytes(&self) -> i64 {
        self.bytes as i64
    }

    #[inline]
    pub(crate) fn push(&mut self, pool: &PacketPool, p: PktId) {
        self.bytes = self.bytes.wrapping_add(pool.get(p).size);
        self.q.push_back(p);
    }

    #[inline]
    pub(crate) fn pop(&mut self, pool: &PacketPool) -> Option<PktId> {
        let p = self.q.pop_front()?;
        self.bytes = self.bytes.wrapping_sub(pool.get(p).size);
        Some(p)
    }

    pub(crate) fn pop_back(&mut self, pool: &PacketPool) -> Option<PktId> {
        let p = self.q.pop_back()?;
        self.bytes = self.bytes.wrapping_sub(pool.get(p).size);
        Some(p)
    }

    /// Remove the packet `i` places from the front (`PacketQueue::remove`).
    pub(crate) fn remove_at(&mut self, pool: &PacketPool, i: usize) -> PktId {
        let p = self.q.remove(i).expect("victim in queue");
        self.bytes = self.bytes.wrapping_sub(pool.get(p).size);
        p
    }

    /// The packet `i` places from the front.
    pub fn get(&self, i: usize) -> Option<PktId> {
        self.q.get(i).copied()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &PktId> + ExactSizeIterator + '_ {
        self.q.iter()
    }
}

/// How much a queue holds: `limit` packets, or, counted in bytes, `limit`
/// packets of `mean_pktsize` bytes (ns-2's `qlim_` with `queue_in_bytes_`
/// and `mean_pktsize_`, shared by DropTail and RED).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Capacity {
    pub limit: i32,
    pub in_bytes: bool,
    /// On overflow the packet at the head is dropped rather than the
    /// arrival (`drop_front_`).
    pub drop_front: bool,
    pub mean_pktsize: i32,
}

impl Capacity {
    /// The limit in bytes, as ns-2 computes it (an unsigned product, wrapped).
    #[inline]
    pub fn limit_bytes(&self) -> i64 {
        (self.limit as u32).wrapping_mul(self.mean_pktsize as u32) as i64
    }

    /// The length of `f` in this capacity's unit.
    #[inline]
    pub fn len_of(&self, f: &Fifo) -> i64 {
        if self.in_bytes {
            f.bytes()
        } else {
            f.len() as i64
        }
    }
}

impl Default for Capacity {
    fn default() -> Self {
        Capacity { limit: 50, in_bytes: false, mean_pktsize: 500, drop_front: false }
    }
}

/// The discipline of a queue, owning its packets and state.  DropTail, the
/// common case, is held inline; the others, one variant of [`Boxed`] per
/// algorithm, behind one box, which keeps the queue's per-packet fields in
/// its first cache line.
#[derive(Debug)]
pub enum Qdisc {
    DropTail(DropTail),
    Boxed(Box<Boxed>),
}

/// What a discipline other than DropTail implements: ns-3's `QueueDisc`
/// hooks (`DoEnqueue`, `DoDequeue`) over the packets it owns.  Dispatch is
/// static: the `disciplines!` list below makes the [`Boxed`] enum and a
/// `match` per hook.
pub trait Discipline: Variant + std::fmt::Debug {
    /// Take `p` in, or say what to drop ([`Verdict`]); `cap` is the
    /// queue's capacity.  A discipline that drops several queued packets
    /// to make room leaves them in `drops` (empty on entry) and says
    /// [`Verdict::Overflow`].
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict;

    /// The next packet to send, if any; packets dropped on the way are
    /// pushed to `drops` (sent on, as early drops, before the packet).
    fn dequeue(&mut self, w: &mut World, drops: &mut Drops) -> Option<PktId>;

    /// The link finished sending at `now` and found nothing queued.
    #[inline]
    fn link_idle(&mut self, _now: f64) {}

    /// Packets held (over all of its queues, for a discipline with several).
    fn len(&self) -> usize;

    /// Bytes held.
    fn bytes(&self) -> i64;
}

/// A discipline's place in [`Boxed`] (made by `disciplines!`).
pub trait Variant: Sized {
    fn of(b: &Boxed) -> Option<&Self>;
    fn of_mut(b: &mut Boxed) -> Option<&mut Self>;
    fn boxed(self) -> Boxed;
}

/// The disciplines other than DropTail, one line each: the [`Boxed`]
/// variant and its type, which implements [`Discipline`] in its own file.
macro_rules! disciplines {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        /// The disciplines other than DropTail.
        #[derive(Debug)]
        pub enum Boxed {
            $($variant($ty)),*
        }

        $(impl Variant for $ty {
            #[inline]
            fn of(b: &Boxed) -> Option<&Self> {
                #[allow(unreachable_patterns)]
                match b {
                    Boxed::$variant(d) => Some(d),
                    _ => None,
                }
            }
            #[inline]
            fn of_mut(b: &mut Boxed) -> Option<&mut Self> {
                #[allow(unreachable_patterns)]
                match b {
                    Boxed::$variant(d) => Some(d),
                    _ => None,
                }
            }
            fn boxed(self) -> Boxed {
                Boxed::$variant(self)
            }
        })*

        impl Boxed {
            #[inline(always)]
            pub(crate) fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
                match self {
                    $(Boxed::$variant(d) => Discipline::enqueue(d, cap, w, p, drops)),*
                }
            }
            #[inline(always)]
            pub(crate) fn dequeue(&mut self, w: &mut World, drops: &mut Drops) -> Option<PktId> {
                match self {
                    $(Boxed::$variant(d) => Discipline::dequeue(d, w, drops)),*
                }
            }
            #[inline(always)]
            pub(crate) fn link_idle(&mut self, now: f64) {
                match self {
                    $(Boxed::$variant(d) => Discipline::link_idle(d, now)),*
                }
            }
            #[inline(always)]
            pub(crate) fn len(&self) -> usize {
                match self {
                    $(Boxed::$variant(d) => Discipline::len(d)),*
                }
            }
            #[inline(always)]
            fn bytes(&self) -> i64 {
                match self {
                    $(Boxed::$variant(d) => Discipline::bytes(d)),*
                }
            }
        }
    };
}

disciplines! {
    Red(Red),
    CoDel(CoDel),
    Pie(Pie),
    FqCoDel(FqCoDel),
    Scfq(Scfq),
    Pi(Pi),
    Drr(Drr),
    Sfq(Sfq),
    Vq(Vq),
    Gk(Gk),
    Cobalt(Cobalt),
    FqPie(FqPie),
    FqCobalt(FqCobalt),
    DualPi2(DualPi2),
    StepMark(StepMark),
    Rio(Rio),
    Rem(Rem),
    Cbq(Cbq),
    Xcp(xcp::Xcp),
    XcpVq(xcp::XcpVq),
    DsRed(DsRed),
    RedPd(RedPd),
    FinishFq(FinishFq),
    Srr(Srr),
    Jobs(Jobs),
    ClassMarker(ClassMarker),
    ClassCounter(ClassCounter),
}

impl Qdisc {
    /// A queue discipline other than DropTail.
    pub fn boxed<D: Discipline>(d: D) -> Qdisc {
        Qdisc::Boxed(Box::new(d.boxed()))
    }

    /// Packets held.
    pub fn len(&self) -> usize {
        match self {
            Qdisc::DropTail(d) => d.fifo.len(),
            Qdisc::Boxed(b) => b.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held.
    pub fn bytes(&self) -> i64 {
        match self {
            Qdisc::DropTail(d) => d.fifo.bytes(),
            Qdisc::Boxed(b) => b.bytes(),
        }
    }

    /// The link finished sending at `t` and found nothing queued.
    #[inline]
    pub fn link_idle(&mut self, t: f64) {
        if let Qdisc::Boxed(b) = self {
            Self::link_idle_boxed(b, t);
        }
    }

    /// `link_idle` of the disciplines other than DropTail, out of line:
    /// kept out of the per-packet path that inlines `link_idle`.
    #[inline(never)]
    fn link_idle_boxed(b: &mut Boxed, t: f64) {
        b.link_idle(t);
    }

    /// A timer the queue owns expired: the discipline's (REM's price
    /// update; XCP's controllers while its trace file is attached).  The
    /// others never arm a timer.
    pub(crate) fn timeout(&mut self, w: &mut World) {
        if let Some(r) = self.get_mut::<Rem>() {
            r.timeout(w);
        } else if let Some(x) = self.get_mut::<xcp::Xcp>() {
            x.timeout(w);
        }
    }

    /// The discipline, if it is a `D`.
    pub fn get<D: Discipline>(&self) -> Option<&D> {
        match self {
            Qdisc::Boxed(b) => D::of(b),
            Qdisc::DropTail(_) => None,
        }
    }

    pub fn get_mut<D: Discipline>(&mut self) -> Option<&mut D> {
        match self {
            Qdisc::Boxed(b) => D::of_mut(b),
            Qdisc::DropTail(_) => None,
        }
    }
}

/// A queue in front of a link (queue/queue.cc `Queue`): the link's busy
/// flag and resume slot, where packets go, the capacity, summary
/// statistics, and the discipline.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Queue {
    // first cache line: what every packet's enque/deque reads
    pub disc: Qdisc,
    pub target: ObjId,
    /// Resume slot (the link's "transmission finished" event).
    pub(crate) resume: ResumeId,
    /// Packets the discipline holds, counted here from its verdicts and
    /// dequeues (as ns-3's `QueueDisc` counts for every discipline), so
    /// that the per-packet tests of emptiness need not ask the discipline.
    held: u32,
    /// True while the link is sending a packet from this queue.
    pub blocked: bool,
    pub unblock_on_resume: bool,
    /// Keep the time-average queue length (`summarystats_`).
    pub summarystats: bool,
    /// A DropTail queue of packets, limit above one, without summary
    /// statistics: the kind `pass_through` may apply to (`refresh_plain`
    /// keeps it in step with the fields it depends on).
    plain: bool,
    /// (`limit`, `in_bytes`, `drop_front` in the first line)
    pub cap: Capacity,
    pub drop_target: ObjId,
    // the rest
    /// The discipline's early drops go here when set (ns-2's
    /// `early-drop-target`), else to `drop_target`.
    pub early_drop_target: ObjId,
    /// A trace that sees the early drops sent to `early_drop_target`
    /// (`edrop-trace`).
    pub early_drop_trace: ObjId,
    pub debug: bool,
    pub util_weight: f64,
    pub util_check_intv: f64,
    pub util_records: i32,
    /// An arrival that finds the link free starts it a zero delay later,
    /// as an event, instead of at once (CBQ's `sched`).
    start_later: bool,
    // summary statistics (`summarystats_`)
    pub true_ave: f64,
    pub total_time: f64,
    /// What the discipline dropped in its last dequeue.
    pub(crate) drops: Drops,
    /// The link's utilization, kept when a Quick-Start router may ask
    /// (`quickstart::UtilMeter`; `meter_on`).
    pub(crate) util: Option<Box<crate::quickstart::UtilMeter>>,
}

const _: () = assert!(std::mem::offset_of!(Queue, plain) < 64 && std::mem::offset_of!(Queue, cap) + 6 <= 64);
const _: () = assert!(std::mem::offset_of!(Queue, disc) == 0 && std::mem::size_of::<Qdisc>() <= 40);

impl Queue {
    pub(crate) fn new(disc: Qdisc, resume: ResumeId) -> Queue {
        let start_later = disc.get::<Cbq>().is_some();
        let mut q = Queue {
            target: NONE,
            drop_target: NONE,
            resume,
            blocked: false,
            unblock_on_resume: true,
            summarystats: false,
            plain: false,
            held: 0,
            cap: Capacity::default(),
            disc,
            early_drop_target: NONE,
            early_drop_trace: NONE,
            debug: false,
            util_weight: 0.8,
            util_check_intv: 0.2,
            util_records: 5,
            start_later,
            true_ave: 0.0,
            total_time: 0.0,
            drops: Drops::default(),
            util: None,
        };
        q.refresh_plain();
        q
    }

    /// Recompute `plain` (after the discipline, the capacity or
    /// `summarystats` changed).
    pub fn refresh_plain(&mut self) {
        self.plain = matches!(self.disc, Qdisc::DropTail(_)) && !self.summarystats && !self.cap.in_bytes && self.cap.limit > 1 && self.util.is_none();
    }

    /// Keep the link's utilization from now on (a metered queue never
    /// passes packets straight through: `send_next` and the resumes
    /// measure).
    pub fn meter_on(&mut self) {
        if self.util.is_none() {
            self.util = Some(Box::new(crate::quickstart::UtilMeter::new(self.util_records)));
            self.refresh_plain();
        }
    }

    /// `util_records_`: a meter that has measured nothing yet keeps that
    /// many intervals (ns-2 sizes the buffer when the queue is made, from
    /// the class default).
    pub fn set_util_records(&mut self, n: i32) {
        self.util_records = n;
        if let Some(m) = self.util.as_mut() {
            if m.is_fresh() {
                **m = crate::quickstart::UtilMeter::new(n);
            }
        }
    }

    /// The link's decaying average utilization now (`Queue::utilization`),
    /// or None if it is not kept.
    pub(crate) fn utilization(&mut self, w: &mut World, peak: bool) -> Option<f64> {
        self.util.as_ref()?;
        let busy = self.is_blocked(w);
        let (weight, intv) = (self.util_weight, self.util_check_intv);
        let m = self.util.as_mut()?;
        m.advance(w.s.now, busy, weight, intv);
        Some(if peak { m.peak() } else { m.average() })
    }

    /// The link went from `busy` to the other state at `t`.
    #[cold]
    #[inline(never)]
    fn meter(&mut self, t: f64, busy: bool) {
        let (weight, intv) = (self.util_weight, self.util_check_intv);
        if let Some(m) = self.util.as_mut() {
            m.advance(t, busy, weight, intv);
        }
    }

    pub fn len(&self) -> usize {
        debug_assert_eq!(self.held as usize, self.disc.len());
        self.held as usize
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        debug_assert_eq!(self.held as usize, self.disc.len());
        self.held == 0
    }

    /// Bytes queued.
    pub fn bytes(&self) -> i64 {
        self.disc.bytes()
    }

    /// Is the link still sending?  (A resume whose time has passed with an
    /// empty queue unblocked the queue at that time.)
    #[inline(always)]
    fn is_blocked(&mut self, w: &mut World) -> bool {
        if self.blocked {
            if let Some(t) = w.s.resume_lapsed(self.resume) {
                // The link finished at `t` and found nothing to send.
                if self.util.is_some() {
                    self.meter(t, true);
                }
                self.blocked = !self.unblock_on_resume;
                self.disc.link_idle(t);
            }
        }
        self.blocked
    }

    /// `Queue::updateStats`: the time-average queue length.
    pub(crate) fn update_stats(&mut self, now: f64) {
        let queuesize = if self.cap.in_bytes { self.disc.bytes() as f64 } else { self.len() as f64 };
        let newtime = now - self.total_time;
        if newtime > 0.0 {
            let oldave = self.true_ave;
            let oldtime = self.total_time;
            self.true_ave = (oldtime * oldave + newtime * queuesize) / now;
            self.total_time = now;
        }
    }

    /// The discipline's enqueue (`enque`).  A discipline that must know
    /// since when the queue has been idle (RED) first settles a finished
    /// transmission.
    #[inline(always)]
    pub(crate) fn enqueue(&mut self, w: &mut World, p: PktId) -> Verdict {
        if matches!(self.disc, Qdisc::DropTail(_)) {
            if self.summarystats {
                self.update_stats(w.s.now);
            }
            if let Qdisc::DropTail(d) = &mut self.disc {
                let v = d.enqueue(&self.cap, &w.pool, p);
                self.held += matches!(v, Verdict::Queued) as u32;
                return v;
            }
        }
        let v = self.enqueue_other(w, p);
        self.held += matches!(v, Verdict::Queued | Verdict::Marked) as u32;
        v
    }

    /// `enqueue` for the disciplines other than DropTail.
    #[inline(never)]
    fn enqueue_other(&mut self, w: &mut World, p: PktId) -> Verdict {
        self.is_blocked(w);
        if self.summarystats {
            self.update_stats(w.s.now);
        }
        let Qdisc::Boxed(b) = &mut self.disc else { unreachable!("DropTail is enqueued inline") };
        let v = b.enqueue(&self.cap, w, p, &mut self.drops);
        if v == Verdict::Overflow {
            // the arrival is in, the packets in `drops` are out
            self.held = self.held + 1 - self.drops.pkts.len() as u32;
        }
        v
    }

    /// The discipline's dequeue (`deque`); what it drops on the way is left
    /// in `drops`.
    #[inline(always)]
    fn deque(&mut self, w: &mut World) -> Option<PktId> {
        if self.summarystats {
            self.update_stats(w.s.now);
        }
        let p = match &mut self.disc {
            Qdisc::DropTail(d) => d.fifo.pop(&w.pool),
            Qdisc::Boxed(_) => return self.deque_boxed(w),
        };
        self.held -= p.is_some() as u32;
        p
    }

    /// `deque` for the disciplines other than DropTail.
    #[inline(never)]
    fn deque_boxed(&mut self, w: &mut World) -> Option<PktId> {
        let Qdisc::Boxed(b) = &mut self.disc else { unreachable!("DropTail is dequeued inline") };
        let before = self.drops.pkts.len();
        let p = b.dequeue(w, &mut self.drops);
        self.held -= (self.drops.pkts.len() - before) as u32 + p.is_some() as u32;
        p
    }

    /// `Queue::recv`'s steps when they let the arriving packet straight
    /// through: a DropTail queue that is empty, below its limit even with
    /// the packet, without statistics to update, whose link is idle; enque
    /// then deque would hand back the packet itself.  Marks the link busy
    /// and returns true; false (nothing changed) in any other case.
    #[inline(always)]
    pub(crate) fn pass_through(&mut self, w: &mut World) -> bool {
        if !self.plain || !self.is_empty() {
            return false;
        }
        debug_assert!(matches!(self.disc, Qdisc::DropTail(_)) && !self.summarystats && !self.cap.in_bytes && self.cap.limit > 1);
        if self.is_blocked_unmetered(w) {
            return false;
        }
        self.blocked = true;
        true
    }

    /// `is_blocked` for a plain queue, which keeps no utilization meter
    /// (`refresh_plain`): the pass-through path leaves the meter's test out.
    #[inline(always)]
    fn is_blocked_unmetered(&mut self, w: &mut World) -> bool {
        debug_assert!(self.util.is_none());
        if self.blocked {
            if let Some(t) = w.s.resume_lapsed(self.resume) {
                self.blocked = !self.unblock_on_resume;
                self.disc.link_idle(t);
            }
        }
        self.blocked
    }

    /// The second step of `Queue::recv` (after `enque`): if the link is
    /// free, the next packet to hand to it (the link is busy from then on).
    #[inline(always)]
    pub(crate) fn send_next(&mut self, w: &mut World) -> Option<PktId> {
        if self.is_blocked(w) {
            return None;
        }
        if self.start_later {
            return self.start_link_later(w);
        }
        let p = self.deque(w)?;
        if self.util.is_some() {
            self.meter(w.s.now, false);
        }
        self.blocked = true;
        Some(p)
    }

    /// `send_next` of a queue that starts its link a zero delay later: the
    /// link is busy from now, its resume an event now.
    #[cold]
    #[inline(never)]
    fn start_link_later(&mut self, w: &mut World) -> Option<PktId> {
        self.blocked = true;
        w.s.set_resume(self.resume, 0.0);
        w.s.need_resume(self.resume);
        None
    }

    /// `Queue::resume`: the link finished a packet; the next one to hand
    /// it, if any (else the queue unblocks, `unblock_on_resume_`).
    #[inline(always)]
    pub(crate) fn resume_next(&mut self, w: &mut World) -> Option<PktId> {
        let p = self.deque(w);
        if p.is_none() {
            if self.util.is_some() {
                self.meter(w.s.now, true);
            }
            self.blocked = !self.unblock_on_resume;
        }
        p
    }

    /// The resume must really happen when a packet waits while the link is
    /// busy, or when summary statistics are on: ns-2's `deque()` updates
    /// them even when it finds the queue empty.
    #[inline]
    pub(crate) fn settle(&self, w: &mut World) {
        if self.needs_resume() {
            w.s.need_resume(self.resume);
        }
    }

    #[inline(always)]
    pub(crate) fn needs_resume(&self) -> bool {
        self.blocked && (!self.is_empty() || self.summarystats || self.disc.deques_when_empty())
    }

    /// `Queue::reset`: take out everything queued, head first, for the
    /// caller to drop.  Each dequeue, and the last that finds the queue
    /// empty, does what a dequeue does (statistics, RED's idle time).
    pub(crate) fn reset(&mut self, w: &mut World) -> Vec<PktId> {
        self.total_time = 0.0;
        self.true_ave = 0.0;
        let mut out = Vec::new();
        while let Some(p) = self.deque(w) {
            out.append(&mut self.drops.pkts);
            out.push(p);
        }
        out.append(&mut self.drops.pkts);
        out
    }

    /// A reset the discipline does its own way (a composite queue that
    /// resets its parts in turn, not by dequeuing through itself): `f`
    /// returns what it took out, for the caller to drop.
    pub(crate) fn drain_with(&mut self, w: &mut World, f: impl FnOnce(&mut Qdisc, &mut World) -> Vec<PktId>) -> Vec<PktId> {
        let out = f(&mut self.disc, w);
        self.held = self.disc.len() as u32;
        out
    }

    /// Put `d` in place of the discipline (the queue's count of packets
    /// follows it); returns the one it replaced.
    pub(crate) fn replace_disc(&mut self, d: Qdisc) -> Qdisc {
        let old = std::mem::replace(&mut self.disc, d);
        self.held = self.disc.len() as u32;
        self.refresh_plain();
        old
    }

    /// The packets the discipline dropped in its last dequeue, to send on
    /// (before the packet that dequeue returned).
    #[inline(always)]
    pub(crate) fn has_drops(&self) -> bool {
        !self.drops.is_empty()
    }

    /// The `i`th packet of the last dequeue's drops; `None` past the last,
    /// when the list is cleared (its buffer kept for the next).
    pub(crate) fn nth_drop(&mut self, i: usize) -> Option<PktId> {
        let p = self.drops.pkts.get(i).copied();
        if p.is_none() {
            self.drops.pkts.clear();
        }
        p
    }

    /// Blocked state as ns-2's `blocked_` reads it.
    pub fn blocked_now(&mut self, w: &mut World) -> bool {
        self.is_blocked(w)
    }

    /// The packets over the (possibly lowered) limit, taken out in the
    /// order they are to be dropped: from the head with `drop_front`, else
    /// from the tail (DropTail's `shrink_queue`).
    pub(crate) fn over_limit(&mut self, w: &World) -> Vec<PktId> {
        let mut out = Vec::new();
        if let Qdisc::DropTail(d) = &mut self.disc {
            d.shrink(&self.cap, &w.pool, &mut out);
        }
        self.held -= out.len() as u32;
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::{Obj, Sim};

    /// `Queue::plain`, which lets a packet pass an empty DropTail queue
    /// without entering it, follows every variable it depends on.
    #[test]
    fn plain_follows_the_queue_variables() {
        let mut sim = Sim::new();
        let q = sim.create("q", "Queue/DropTail").unwrap();
        let plain = |sim: &Sim| match &sim.objs[q as usize] {
            Obj::Queue(q) => q.plain,
            _ => unreachable!(),
        };
        assert!(plain(&sim));
        for (var, on, off) in [("summarystats_", "true", "false"), ("queue_in_bytes_", "true", "false"), ("limit_", "1", "50")] {
            sim.set_var(q, var, on).unwrap();
            assert!(!plain(&sim), "{var} {on}");
            sim.set_var(q, var, off).unwrap();
            assert!(plain(&sim), "{var} {off}");
        }
        let r = sim.create("r", "Queue/RED").unwrap();
        assert!(matches!(&sim.objs[r as usize], Obj::Queue(q) if !q.plain));
    }
}
