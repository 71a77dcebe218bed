//! The event scheduler.
//!
//! ns-2 orders events by time and runs equal-time events in the order they
//! were scheduled (its calendar queue appends an event after every queued
//! event with the same time; checked against /usr/bin/ns).  Every event here
//! carries the key `(time, seq)` where `seq` is taken from one counter at the
//! moment ns-2 would call `Scheduler::schedule`.  That makes the order exact
//! even for events the engine never materialises in the heap:
//!
//! * **Pipes.**  Packets in flight on one link arrive in the order they were
//!   sent, so each link keeps its own FIFO and only the FIFO's head sits in the
//!   heap.  The heap stays as small as the number of busy links.
//! * **Queue resumes.**  ns-2 schedules a "transmission finished" event for
//!   every packet a link sends.  It matters only when the queue holds a packet
//!   by then, so its key is recorded and pushed only when a packet is queued
//!   behind the one in transmission.
//! * **Timers.**  A TCP sender reschedules its retransmission timer on every
//!   ACK.  The timer keeps its current key; the heap holds at most one entry per
//!   timer, and an entry that pops early is pushed again at the current key.
//!
//! Time is an `f64` of seconds and `at = now + delay` is computed exactly as
//! ns-2 computes it.

use crate::packet::PktId;
use crate::ring::Ring;

/// Identifier of an engine object.
pub type ObjId = u32;

/// A link's pipe (`Scheduler::new_pipe`), and a queue's or a delayer's
/// resume slot (`Scheduler::new_resume`).  Only the scheduler makes them,
/// each the index of an entry of its tables, which only grow: it indexes
/// them without a bounds check (a path taken once or twice per packet;
/// docs/performance.md).  The engine uses an id only with
/// the scheduler that made it, its simulation's; the methods that make
/// and take ids are private to the crate, so that no code outside it can
/// hand one simulation's id to another's scheduler.
///
/// Nor can it put another scheduler under a simulation's objects: the
/// simulation's world (`Sim::w`) and its scheduler (`World::s`) are
/// private to the crate, read through `Sim::world` and `World::sched`,
/// changed only through `Sim`'s methods.  (Checked indexing instead cost
/// 2% of the engine's time: docs/performance.md.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeId(u32);

/// See `PipeId`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeId(u32);

/// An event key: time, then scheduling order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    pub time: f64,
    pub seq: u64,
}

impl Key {
    /// No event: after every key (no event time is infinite with the
    /// largest sequence number, which no scheduling call reaches).  Held
    /// where "none" would be `Option<Key>`, whose discriminant costs a
    /// store and a test of its own on the paths that set and compare keys.
    pub const NEVER: Key = Key { time: f64::INFINITY, seq: u64::MAX };

    /// The same event as `other`: sequence numbers are unique (one per
    /// scheduling call), so the time need not be compared.
    #[inline(always)]
    pub fn same(self, other: Key) -> bool {
        self.seq == other.seq
    }

    #[inline]
    pub fn before(self, other: Key) -> bool {
        self.time < other.time || (self.time == other.time && self.seq < other.seq)
    }
}

/// A one-off event (kept in the scheduler's table of pending one-off
/// events; pipes, resumes and timers are named by their slot directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ev {
    /// A Tcl callback scheduled with `$ns at` (its uid is the entry's
    /// sequence number).
    Tcl,
    /// Deliver a packet to an object (used when a pipe cannot keep FIFO order).
    Deliver(ObjId, PktId),
    /// An event was scheduled with a negative (or NaN) delay: the run
    /// stops here, before that event (see `Scheduler::went_backwards`).
    Backwards,
}

/// Bits of a heap entry's second word that name the event's slot; the
/// sequence number takes the rest.  A slot is a 2-bit kind and an index
/// (of a pipe, a resume, a timer, or an entry of the one-off table), so that
/// dispatch needs no table lookup for the common kinds.
const SLOT_BITS: u32 = 24;
const SLOT_MASK: u64 = (1 << SLOT_BITS) - 1;
const IDX_BITS: u32 = SLOT_BITS - 2;
const IDX_MASK: u32 = (1 << IDX_BITS) - 1;
const KIND_PIPE: u32 = 0;
const KIND_RESUME: u32 = 1;
const KIND_TIMER: u32 = 2;
const KIND_ONE_OFF: u32 = 3;
/// The index of a one-off event kept by sequence number (the table is full).
const OVERFLOW: u32 = IDX_MASK;

/// The slot of index `i` of a kind (panics past 2^22 pipes, resumes or timers;
/// one-off events beyond their table are kept by sequence number instead).
#[inline]
fn tagged(kind: u32, i: usize) -> u32 {
    if i as u64 > IDX_MASK as u64 {
        panic!("more than {} event sources or pending events of one kind", IDX_MASK as u64 + 1);
    }
    (kind << IDX_BITS) | i as u32
}
/// Sequence numbers must fit above the slot bits (2^40: over 10^12
/// scheduling calls).  The hot paths (pipes, resumes, timers) do not
/// check: a key past this would sit misplaced in the queue, but `next`
/// refuses to dispatch anything once the counter has gone past (one check
/// per dispatched event instead of one per scheduling call).  One-off
/// events, whose sequence number is also a Tcl uid, check at once.
const MAX_SEQ: u64 = 1 << (64 - SLOT_BITS);

use crate::pq::{Entry, EventQueue};

#[inline(always)]
fn entry(k: Key, slot: u32) -> Entry {
    debug_assert!(k.time >= 0.0 && k.time.is_sign_positive(), "event time must be non-negative");
    Entry { t: k.time.to_bits(), s: (k.seq << SLOT_BITS) | slot as u64 }
}

#[inline(always)]
fn key_of(e: Entry) -> Key {
    Key { time: f64::from_bits(e.t), seq: e.s >> SLOT_BITS }
}

/// Status of a timer, as ns-2's `TimerHandler`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerStatus {
    Idle,
    Pending,
    Handling,
}

/// A timer owned by an engine object.
#[derive(Clone, Debug)]
pub struct Timer {
    pub owner: ObjId,
    /// Which of the owner's timers (e.g. retransmit, delayed send).
    pub kind: u8,
    pub status: TimerStatus,
    key: Key,
    /// The key of its entry in the heap, or `Key::NEVER` (none: any key
    /// comes before it, so a resched pushes).
    heap_key: Key,
    /// Its heap-entry slot (kind and index; see `tagged`).
    slot: u32,
}

/// The pipe `pipe` names, of the scheduler's `pipes`.
#[inline(always)]
fn pipe_mut(pipes: &mut [Pipe], pipe: PipeId) -> &mut Pipe {
    debug_assert!((pipe.0 as usize) < pipes.len());
    // SAFETY: `Scheduler::new_pipe` made `pipe` as the index of an entry of
    // `pipes`, which only grows (see `PipeId`).
    unsafe { pipes.get_unchecked_mut(pipe.0 as usize) }
}

/// A link's packets in flight, in arrival order.
#[derive(Debug)]
pub struct Pipe {
    fifo: Ring<(Key, PktId, ObjId)>,
    head_in_heap: bool,
    /// Its heap-entry slot (kind and index; see `tagged`).
    slot: u32,
}

/// The "transmission finished" event of a queue's link.
#[derive(Clone, Copy, Debug)]
pub struct ResumeSlot {
    /// Key of the last resume set.  It is read only while not pushed, or
    /// against a popped entry of this slot: a key is pushed at most once
    /// (`pushed`), so a resume that has fired or lapsed can keep its key,
    /// matching no entry (so nothing clears it on the per-event path).
    pub key: Key,
    /// Whether that key has been pushed into the heap (true when there is
    /// none: nothing to push).
    pub pushed: bool,
    /// The object it resumes (a queue, or a delayer: its target's
    /// handler), given to `Fired::Resume` from the line `next` has read
    /// anyway.
    owner: ObjId,
}

/// The scheduler: clock, heap and the lazily materialised event sources.
pub struct Scheduler {
    pub now: f64,
    /// Key of the event being dispatched (time = now).
    pub current: Key,
    next_seq: u64,
    heap: EventQueue,
    /// The pending one-off events (Tcl callbacks, out-of-order deliveries)
    /// by index; freed entries are reused.
    slots: Vec<Ev>,
    free_slots: Vec<u32>,
    /// One-off events beyond the table (more than `slot_cap` pending at
    /// once, e.g. millions of `$ns at` callbacks), by sequence number; their
    /// heap entries carry the index `OVERFLOW`.
    overflow: std::collections::HashMap<u64, Ev>,
    slot_cap: usize,
    /// The event sources by index.  They only grow (`new_pipe`,
    /// `new_resume`, `new_timer`), so the index in a heap entry's slot,
    /// taken from one of them when it was made, is always in range.
    pipes: Vec<Pipe>,
    resumes: Vec<ResumeSlot>,
    timers: Vec<Timer>,
    cancelled_tcl: std::collections::HashSet<u64>,
    pending_tcl: usize,
    /// The first negative delay asked for, and when (`went_backwards`).
    backwards: Option<(f64, f64)>,
    /// A packet an upcoming event will touch (to prefetch).
    pub hint: PktId,
}

impl Default for Scheduler {
    fn default() -> Self {
        Self::new()
    }
}

impl Scheduler {
    pub fn new() -> Self {
        Scheduler {
            now: 0.0,
            current: Key { time: 0.0, seq: 0 },
            // ns-2's Scheduler::uid_ starts at 1.
            next_seq: 1,
            heap: EventQueue::new(),
            slots: Vec::new(),
            free_slots: Vec::new(),
            overflow: Default::default(),
            slot_cap: OVERFLOW as usize,
            pipes: Vec::new(),
            resumes: Vec::new(),
            timers: Vec::new(),
            cancelled_tcl: Default::default(),
            pending_tcl: 0,
            backwards: None,
            hint: PktId::NONE,
        }
    }

    /// Allocate the next scheduling key for an event `delay` seconds from
    /// now.  For packets on links and queues resuming: their delays come
    /// from link delays and transmission times, never negative (the
    /// setters refuse negative delays and bandwidths; a packet of negative
    /// size is caught by `DelayLink::txtime`).
    #[inline(always)]
    pub fn key_after(&mut self, delay: f64) -> Key {
        debug_assert!(delay >= 0.0, "a link or queue event {delay} s from now");
        let seq = self.next_seq;
        self.next_seq += 1;
        Key { time: self.now + delay, seq }
    }

    /// `key_after` for timers and one-off events, whose delays come from
    /// agents' and sources' settings and may be negative or NaN
    /// (`went_backwards`).
    #[inline(always)]
    fn checked_key_after(&mut self, mut delay: f64) -> Key {
        if !(delay >= 0.0) {
            delay = self.went_backwards(delay);
        }
        self.key_after(delay)
    }

    /// An event asked to run `delay` (negative or NaN) seconds from now.
    /// ns-2 warns (`Scheduler::schedule`) and aborts when the event comes
    /// up, its time before the clock ("scheduler going backwards in
    /// time", `Scheduler::dispatch`); such an event comes up next, so the
    /// run stops here: a `Backwards` event now, ahead of the bad event
    /// (which is kept at the current time so that the queue's times never
    /// go back).  Returns the delay to use instead (zero).
    #[cold]
    #[inline(never)]
    pub(crate) fn went_backwards(&mut self, delay: f64) -> f64 {
        if self.backwards.is_none() {
            self.backwards = Some((self.now, delay));
            let key = Key { time: self.now, seq: self.next_seq };
            self.next_seq += 1;
            let slot = self.new_slot(Ev::Backwards, key);
            self.push(key, slot);
        }
        0.0
    }

    /// The first negative delay an event asked for and the time it asked
    /// (`Fired::Backwards`).
    pub fn backwards(&self) -> Option<(f64, f64)> {
        self.backwards
    }

    /// The key the next `schedule` call would get (for `$ns at` uids).
    pub fn peek_seq(&self) -> u64 {
        self.next_seq
    }

    /// The slot of a new one-off event of key `key`.
    fn new_slot(&mut self, ev: Ev, key: Key) -> u32 {
        if let Some(i) = self.free_slots.pop() {
            self.slots[i as usize] = ev;
            return tagged(KIND_ONE_OFF, i as usize);
        }
        let i = self.slots.len();
        if i >= self.slot_cap {
            return self.new_overflow(ev, key);
        }
        self.slots.push(ev);
        tagged(KIND_ONE_OFF, i)
    }

    #[cold]
    #[inline(never)]
    fn new_overflow(&mut self, ev: Ev, key: Key) -> u32 {
        self.overflow.insert(key.seq, ev);
        tagged(KIND_ONE_OFF, OVERFLOW as usize)
    }

    /// The one-off event of a heap entry (index `idx`, key `key`); its slot
    /// is freed.
    #[inline]
    fn take_one_off(&mut self, idx: u32, key: Key) -> Ev {
        if idx == OVERFLOW {
            return self.take_overflow(key.seq);
        }
        self.free_slots.push(idx);
        self.slots[idx as usize]
    }

    #[cold]
    #[inline(never)]
    fn take_overflow(&mut self, seq: u64) -> Ev {
        self.overflow.remove(&seq).expect("overflow event present")
    }

    #[inline]
    fn push(&mut self, key: Key, slot: u32) {
        self.heap.push(entry(key, slot));
    }

    /// Schedule a plain event `delay` seconds from now.
    pub fn schedule(&mut self, delay: f64, ev: Ev) -> Key {
        let key = self.checked_key_after(delay);
        if key.seq >= MAX_SEQ {
            seq_overflow();
        }
        if let Ev::Tcl = ev {
            self.pending_tcl += 1;
        }
        let slot = self.new_slot(ev, key);
        self.push(key, slot);
        key
    }

    /// Schedule a Tcl callback; returns its uid (the sequence number).
    pub fn schedule_tcl(&mut self, delay: f64) -> u64 {
        self.schedule(delay, Ev::Tcl).seq
    }

    /// Cancel a Tcl callback by uid.  Returns false if it was unknown.
    pub fn cancel_tcl(&mut self, uid: u64) -> bool {
        let (slots, overflow) = (&self.slots, &self.overflow);
        let pending = self.heap.iter().any(|e| {
            let slot = (e.s & SLOT_MASK) as u32;
            let seq = e.s >> SLOT_BITS;
            let idx = slot & IDX_MASK;
            seq == uid
                && slot >> IDX_BITS == KIND_ONE_OFF
                && if idx == OVERFLOW { overflow.get(&seq) == Some(&Ev::Tcl) } else { slots[idx as usize] == Ev::Tcl }
        });
        if pending && self.cancelled_tcl.insert(uid) {
            self.pending_tcl -= 1;
            true
        } else {
            false
        }
    }

    /// Number of Tcl callbacks still to run.
    pub fn pending_tcl(&self) -> usize {
        self.pending_tcl
    }

    // ---- pipes -------------------------------------------------------------

    pub(crate) fn new_pipe(&mut self) -> PipeId {
        let p = self.pipes.len() as u32;
        let slot = tagged(KIND_PIPE, p as usize);
        self.pipes.push(Pipe { fifo: Ring::new(), head_in_heap: false, slot });
        PipeId(p)
    }


    /// Put a packet in flight on `pipe`, to reach `target` after `delay`.
    #[inline(always)]
    pub(crate) fn pipe_send(&mut self, pipe: PipeId, delay: f64, pkt: PktId, target: ObjId) {
        let key = self.key_after(delay);
        let p = pipe_mut(&mut self.pipes, pipe);
        if let Some(tail) = p.fifo.back() {
            if key.time < tail.0.time {
                // Arrival order would change (e.g. the delay was lowered):
                // keep exactness by scheduling this packet on its own.
                let slot = self.new_slot(Ev::Deliver(target, pkt), key);
                self.push(key, slot);
                return;
            }
        }
        self.pipe_append(pipe, key, pkt, target);
    }

    /// Put a packet at the tail of `pipe`, its key the pipe's last; the
    /// first packet of an empty pipe puts the pipe's entry in the queue.
    #[inline(always)]
    fn pipe_append(&mut self, pipe: PipeId, key: Key, pkt: PktId, target: ObjId) {
        let p = pipe_mut(&mut self.pipes, pipe);
        p.fifo.push_back((key, pkt, target));
        if !p.head_in_heap {
            p.head_in_heap = true;
            let slot = p.slot;
            self.push(key, slot);
        }
    }

    /// `pipe_send` for a dynamic link (ns-2's `LinkDelay` with `dynamic_`
    /// set keeps its packets in transit in a FIFO, and each arrival event
    /// delivers the FIFO's head): packets leave in the order they were
    /// sent, at the times of the arrival events in event order, even when a
    /// lowered delay makes a later packet's event come first.  Such a packet
    /// is queued behind the others and the events' keys are sorted among
    /// the packets; the FIFO stays whole for `pipe_drain`.
    #[inline]
    pub(crate) fn pipe_send_fifo(&mut self, pipe: PipeId, delay: f64, pkt: PktId, target: ObjId) {
        let key = self.key_after(delay);
        let p = pipe_mut(&mut self.pipes, pipe);
        if let Some(tail) = p.fifo.back() {
            if key.before(tail.0) {
                return self.pipe_overtake(pipe, key, pkt, target);
            }
        }
        self.pipe_append(pipe, key, pkt, target);
    }

    /// `pipe_send_fifo` for a packet whose arrival event comes before the
    /// last one's: the packet joins the FIFO's tail, its key goes to its
    /// place among the keys.
    #[cold]
    fn pipe_overtake(&mut self, pipe: PipeId, key: Key, pkt: PktId, target: ObjId) {
        let p = pipe_mut(&mut self.pipes, pipe);
        let old_head = p.fifo.front().map(|h| h.0);
        p.fifo.push_back((key, pkt, target));
        let mut j = p.fifo.len() - 1;
        while j > 0 {
            let k = p.fifo.get(j - 1).map(|e| e.0).expect("in range");
            if !key.before(k) {
                break;
            }
            p.fifo.get_mut(j).expect("in range").0 = k;
            j -= 1;
        }
        p.fifo.get_mut(j).expect("in range").0 = key;
        if j == 0 {
            // The first arrival is now this key: it replaces the old one in
            // the queue (rare, so a removal that rebuilds the queue will do).
            let slot = p.slot;
            if p.head_in_heap {
                if let Some(k) = old_head {
                    self.heap.remove(entry(k, slot));
                }
            }
            pipe_mut(&mut self.pipes, pipe).head_in_heap = true;
            self.push(key, slot);
        }
    }

    /// Take every packet in flight on `pipe`, in arrival order, cancelling
    /// their arrivals (`LinkDelay::reset` of a dynamic link, whose packets
    /// all go through `pipe_send_fifo`).
    #[cold]
    pub(crate) fn pipe_drain(&mut self, pipe: PipeId) -> Vec<PktId> {
        let p = pipe_mut(&mut self.pipes, pipe);
        let head = p.fifo.front().map(|h| h.0);
        let mut out = Vec::with_capacity(p.fifo.len());
        while let Some((_, pkt, _)) = p.fifo.pop_front() {
            out.push(pkt);
        }
        if p.head_in_heap {
            p.head_in_heap = false;
            let slot = p.slot;
            if let Some(k) = head {
                self.heap.remove(entry(k, slot));
            }
        }
        out
    }

    /// Turn every packet in flight on `pipe` into an event of its own, at
    /// the key it already has, and leave the pipe empty.  A link made
    /// dynamic while packets are in flight (ns-2's `LinkDelay` given
    /// `isDynamic` then) scheduled those packets to its target directly:
    /// they are not in the transit FIFO that later packets join, so a reset
    /// does not drop them and they arrive at their own times.
    #[cold]
    pub(crate) fn pipe_detach(&mut self, pipe: PipeId) {
        let p = pipe_mut(&mut self.pipes, pipe);
        let head = p.fifo.front().map(|h| h.0);
        let mut moved = Vec::with_capacity(p.fifo.len());
        while let Some(e) = p.fifo.pop_front() {
            moved.push(e);
        }
        if p.head_in_heap {
            p.head_in_heap = false;
            let slot = p.slot;
            if let Some(k) = head {
                self.heap.remove(entry(k, slot));
            }
        }
        for (key, pkt, target) in moved {
            let slot = self.new_slot(Ev::Deliver(target, pkt), key);
            self.push(key, slot);
        }
    }

    // ---- queue resumes -----------------------------------------------------

    /// A resume slot for `owner` (a queue, or a delayer).
    pub(crate) fn new_resume(&mut self, owner: ObjId) -> ResumeId {
        let r = self.resumes.len();
        // Its heap-entry slot is made when pushed (`need_resume`): check
        // here that the index fits one.
        tagged(KIND_RESUME, r);
        self.resumes.push(ResumeSlot { key: Key::NEVER, pushed: true, owner });
        ResumeId(r as u32)
    }

    /// The resume slot `slot` names.
    #[inline(always)]
    fn resume_slot(&mut self, slot: ResumeId) -> &mut ResumeSlot {
        debug_assert!((slot.0 as usize) < self.resumes.len());
        // SAFETY: `new_resume` made `slot` as the index of an entry of
        // `resumes`, which only grows (see `PipeId`).
        unsafe { self.resumes.get_unchecked_mut(slot.0 as usize) }
    }

    /// The object resume slot `slot` resumes.
    #[inline(always)]
    pub(crate) fn resume_owner(&mut self, slot: ResumeId) -> ObjId {
        self.resume_slot(slot).owner
    }

    /// The link started sending: its queue resumes `delay` from now.
    #[inline(always)]
    pub(crate) fn set_resume(&mut self, slot: ResumeId, delay: f64) -> Key {
        let key = self.key_after(delay);
        let r = self.resume_slot(slot);
        r.key = key;
        r.pushed = false;
        key
    }

    /// Has the resume of `slot` happened without being materialised?  If
    /// its time has passed (and it was not pushed because no packet
    /// waited), the queue silently found itself empty then: this returns
    /// that time once and clears the slot.  `None`: still pending, or no
    /// resume outstanding.
    #[inline(always)]
    pub(crate) fn resume_lapsed(&mut self, slot: ResumeId) -> Option<f64> {
        let cur = self.current;
        let r = self.resume_slot(slot);
        let k = r.key;
        if !r.pushed && !cur.before(k) {
            r.pushed = true;
            return Some(k.time);
        }
        None
    }

    /// A packet is waiting behind the one in transmission: make the resume real.
    #[inline(always)]
    pub(crate) fn need_resume(&mut self, slot: ResumeId) {
        let r = self.resume_slot(slot);
        if !r.pushed {
            r.pushed = true;
            let k = r.key;
            // (`new_resume` checked that the index fits its slot.)
            self.push(k, (KIND_RESUME << IDX_BITS) | slot.0);
        }
    }

    // ---- timers ------------------------------------------------------------

    pub fn new_timer(&mut self, owner: ObjId, kind: u8) -> u32 {
        let t = self.timers.len() as u32;
        let slot = tagged(KIND_TIMER, t as usize);
        self.timers.push(Timer {
            owner,
            kind,
            status: TimerStatus::Idle,
            key: Key { time: 0.0, seq: 0 },
            heap_key: Key::NEVER,
            slot,
        });
        t
    }

    #[inline]
    pub fn timer_status(&self, t: u32) -> TimerStatus {
        self.timers[t as usize].status
    }

    /// `TimerHandler::resched`: (re)arm the timer `delay` from now.  The
    /// usual case (a TCP sender pushing its retransmission timer back on an
    /// ACK) only records the key: its entry already in the heap is earlier
    /// and will be pushed again when it pops.  The push is kept out of line
    /// so that this path saves no registers.
    #[inline]
    pub fn timer_resched(&mut self, t: u32, delay: f64) {
        let key = self.checked_key_after(delay);
        let tm = &mut self.timers[t as usize];
        tm.status = TimerStatus::Pending;
        tm.key = key;
        if key.before(tm.heap_key) {
            self.timer_push(t, key);
        }
    }

    /// `timer_resched` when the timer has no heap entry before `key`.
    #[inline(never)]
    fn timer_push(&mut self, t: u32, key: Key) {
        let tm = &mut self.timers[t as usize];
        tm.heap_key = key;
        let hs = tm.slot;
        self.push(key, hs);
    }

    /// `TimerHandler::force_cancel` / `cancel`.
    #[inline]
    pub fn timer_cancel(&mut self, t: u32) {
        let tm = &mut self.timers[t as usize];
        if tm.status == TimerStatus::Pending {
            tm.status = TimerStatus::Idle;
        }
    }

    /// After a timer's handler ran: if it did not re-arm, it is idle.
    #[inline]
    pub fn timer_handled(&mut self, t: u32) {
        let tm = &mut self.timers[t as usize];
        if tm.status == TimerStatus::Handling {
            tm.status = TimerStatus::Idle;
        }
    }

    // ---- dispatch ----------------------------------------------------------

    /// Pop the next live event, advance the clock and return it.
    /// Stale heap entries (superseded timers, emptied pipes, cancelled Tcl
    /// callbacks) are dropped here.
    #[inline]
    pub fn next(&mut self) -> Option<Fired> {
        if self.next_seq > MAX_SEQ {
            seq_overflow();
        }
        loop {
            let top = self.heap.peek()?;
            let key = key_of(top);
            let slot = (top.s & SLOT_MASK) as u32;
            let idx = slot & IDX_MASK;
            match slot >> IDX_BITS {
                KIND_PIPE => {
                    let p = idx;
                    // The common case: the pipe's next packet replaces its
                    // head in the queue.
                    debug_assert!((p as usize) < self.pipes.len());
                    // SAFETY: a slot's index names an existing pipe (see
                    // `pipes`).
                    let pipe = unsafe { self.pipes.get_unchecked_mut(p as usize) };
                    match pipe.fifo.front() {
                        // A pipe's heap entry is always its head's key (it
                        // is pushed only for a new head and replaced when the
                        // head leaves).
                        Some(&(k, pkt, target)) => {
                            debug_assert!(k == key, "pipe entry out of step with its head");
                            pipe.fifo.pop_front();
                            if let Some(&(nk, np, _)) = pipe.fifo.front() {
                                self.hint = np;
                                self.heap.replace_min(entry(nk, slot));
                            } else {
                                pipe.head_in_heap = false;
                                self.heap.pop_min();
                            }
                            self.advance(key);
                            return Some(Fired::Packet(target, pkt));
                        }
                        None => {
                            pipe.head_in_heap = false;
                            self.heap.pop_min();
                        }
                    }
                }
                KIND_RESUME => {
                    let r = idx;
                    self.heap.pop_min();
                    debug_assert!((r as usize) < self.resumes.len());
                    // SAFETY: as for a pipe's slot above.
                    let rs = unsafe { self.resumes.get_unchecked_mut(r as usize) };
                    // (Its key is this entry's only if it was pushed; it
                    // stays pushed, as a slot with no key is, and keeps
                    // the key, which no other entry has.)
                    if rs.key.same(key) {
                        let owner = rs.owner;
                        self.advance(key);
                        return Some(Fired::Resume(owner));
                    }
                }
                // Timers and one-off events are rare among dispatched
                // events (on the grids a timer entry pops about once per
                // thousand events): out of line, they leave the hot arms
                // their registers.
                _ => {
                    if let Some(f) = self.next_other(key, slot) {
                        return Some(f);
                    }
                }
            }
        }
    }

    /// `next` for a timer's or a one-off event's entry `key` (slot `slot`),
    /// the queue's minimum: the event to dispatch, or `None` if the entry
    /// was stale (and has been dropped or re-armed).
    #[cold]
    #[inline(never)]
    fn next_other(&mut self, key: Key, slot: u32) -> Option<Fired> {
        let idx = slot & IDX_MASK;
        if slot >> IDX_BITS == KIND_TIMER {
            let t = idx;
            let tm = &mut self.timers[t as usize];
            if !tm.heap_key.same(key) {
                self.heap.pop_min();
                return None; // superseded entry
            }
            if tm.status != TimerStatus::Pending {
                tm.heap_key = Key::NEVER;
                self.heap.pop_min();
                return None; // cancelled
            }
            if tm.key.same(key) {
                tm.heap_key = Key::NEVER;
                tm.status = TimerStatus::Handling;
                let (owner, kind) = (tm.owner, tm.kind);
                self.heap.pop_min();
                self.advance(key);
                return Some(Fired::Timer(t, owner, kind));
            }
            // Rescheduled later: re-arm at the current key.
            let k = tm.key;
            tm.heap_key = k;
            self.heap.replace_min(entry(k, slot));
            return None;
        }
        match self.take_one_off(idx, key) {
            Ev::Deliver(target, pkt) => {
                self.heap.pop_min();
                self.advance(key);
                Some(Fired::Packet(target, pkt))
            }
            Ev::Backwards => {
                self.heap.pop_min();
                self.advance(key);
                Some(Fired::Backwards)
            }
            Ev::Tcl => {
                self.heap.pop_min();
                let uid = key.seq;
                if self.cancelled_tcl.remove(&uid) {
                    return None;
                }
                self.pending_tcl -= 1;
                self.advance(key);
                Some(Fired::Tcl(uid))
            }
        }
    }

    #[inline]
    fn advance(&mut self, key: Key) {
        debug_assert!(key.time >= self.now, "scheduler going backwards");
        self.now = key.time;
        self.current = key;
    }

    /// Events dispatched so far (popped heap entries, including stale ones:
    /// every entry `next` looks at is taken or replaced, so the queue's
    /// count of removals is this).
    pub fn dispatched(&self) -> u64 {
        self.heap.pops()
    }

    /// Is anything left to run?
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Number of entries in the heap (for benchmarks and tests).
    pub fn heap_len(&self) -> usize {
        self.heap.len()
    }
}

#[cold]
#[inline(never)]
fn seq_overflow() -> ! {
    panic!("more than {} events scheduled in one simulation", MAX_SEQ)
}

/// A dispatched event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fired {
    Packet(ObjId, PktId),
    /// A resume slot's event: its owner.
    Resume(ObjId),
    Timer(u32, ObjId, u8),
    Tcl(u64),
    /// An event was scheduled with a negative delay
    /// (`Scheduler::backwards` says which and when).
    Backwards,
}

#[cfg(test)]
mod tests {
    fn pk(i: u32) -> PktId {
        PktId::test(i)
    }
    use super::*;

    /// Property: whatever the mix of plain events and pipe packets, events
    /// fire in (time, scheduling order), as a sorted list of all keys says.
    #[test]
    fn random_mix_fires_in_key_order() {
        let mut rng = crate::testrng::TestRng(42);
        let mut rnd = |m: u64| rng.below(m);
        for _ in 0..50 {
            let mut s = Scheduler::new();
            let pipes: Vec<PipeId> = (0..5).map(|_| s.new_pipe()).collect();
            let mut expect: Vec<(f64, u64, u32)> = Vec::new();
            let mut tails = vec![0.0f64; pipes.len()];
            let mut id = 0u32;
            for _ in 0..400 {
                // Delays on a coarse grid so that many times are equal.
                let delay = rnd(20) as f64 * 0.25;
                let seq = s.peek_seq();
                let t = s.now + delay;
                if rnd(2) == 0 {
                    let p = rnd(pipes.len() as u64) as usize;
                    if t >= tails[p] {
                        tails[p] = t;
                        s.pipe_send(pipes[p], delay, pk(id), 0);
                        expect.push((t, seq, id));
                        id += 1;
                    }
                } else {
                    let uid = s.schedule_tcl(delay);
                    expect.push((t, uid, u32::MAX));
                }
            }
            expect.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
            let mut got = Vec::new();
            while let Some(f) = s.next() {
                match f {
                    Fired::Packet(_, pkt) => got.push((s.now, pkt.index())),
                    Fired::Tcl(_) => got.push((s.now, u32::MAX)),
                    _ => unreachable!(),
                }
            }
            let want: Vec<(f64, u32)> = expect.iter().map(|e| (e.0, e.2)).collect();
            assert_eq!(got, want);
        }
    }

    /// The last sequence number that fits is used normally; a key past it
    /// stops the run before anything else is dispatched.
    #[test]
    fn sequence_overflow_stops_dispatch() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.next_seq = MAX_SEQ - 1;
        s.pipe_send(p, 1.0, pk(10), 1);
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(10))));
        s.pipe_send(p, 1.0, pk(11), 1);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.next()));
        assert!(r.is_err(), "dispatched past the last sequence number");
        let mut s = Scheduler::new();
        s.next_seq = MAX_SEQ;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.schedule_tcl(1.0)));
        assert!(r.is_err(), "a Tcl uid past the last sequence number");
    }

    /// Past the table of one-off events, they are kept by sequence number:
    /// still in order, still cancellable.
    /// A negative or NaN delay stops the run before anything else happens
    /// at the current time (ns-2's "scheduler going backwards"): the stop
    /// comes first, the bad event is kept at the current time, and the
    /// first bad delay is the one reported.
    #[test]
    fn negative_delays_stop_the_run_first() {
        for bad in [-0.5, f64::NAN, f64::NEG_INFINITY] {
            let mut s = Scheduler::new();
            let first = s.schedule_tcl(0.0);
            assert_eq!(s.next(), Some(Fired::Tcl(first)));
            let p = s.new_pipe();
            s.pipe_send(p, 0.0, pk(1), 7);
            let later = s.schedule_tcl(2.0);
            let tm = s.new_timer(3, 0);
            s.timer_resched(tm, bad);
            s.timer_resched(tm, -9.0);
            assert_eq!(s.next(), Some(Fired::Packet(7, pk(1))), "events already due at now come first");
            assert_eq!(s.next(), Some(Fired::Backwards));
            assert_eq!(s.now, 0.0, "time never goes back");
            let (at, d) = s.backwards().unwrap();
            assert_eq!(at, 0.0);
            assert!(d == bad || (d.is_nan() && bad.is_nan()));
            assert_eq!(s.next(), Some(Fired::Timer(tm, 3, 0)));
            assert_eq!(s.next(), Some(Fired::Tcl(later)));
            assert_eq!(s.now, 2.0);
        }
        let mut s = Scheduler::new();
        s.schedule(-1.0, Ev::Tcl);
        assert_eq!(s.next(), Some(Fired::Backwards));
    }

    #[test]
    fn one_off_events_beyond_the_table() {
        let mut s = Scheduler::new();
        s.slot_cap = 3;
        let uids: Vec<u64> = (0..8).map(|i| s.schedule_tcl(1.0 + (i % 3) as f64)).collect();
        assert_eq!(s.overflow.len(), 5);
        assert!(s.cancel_tcl(uids[6]));
        assert!(!s.cancel_tcl(uids[6]));
        assert_eq!(s.pending_tcl(), 7);
        let mut got = Vec::new();
        while let Some(Fired::Tcl(u)) = s.next() {
            got.push(u);
        }
        let mut want: Vec<u64> = uids.iter().copied().filter(|&u| u != uids[6]).collect();
        want.sort_by_key(|&u| ((u - uids[0]) % 3, u));
        assert_eq!(got, want);
        assert!(s.overflow.is_empty());
        assert_eq!(s.pending_tcl(), 0);
    }

    #[test]
    fn equal_times_run_in_scheduling_order() {
        let mut s = Scheduler::new();
        let a = s.schedule_tcl(1.0);
        let b = s.schedule_tcl(0.5);
        let c = s.schedule_tcl(1.0);
        let d = s.schedule_tcl(0.5);
        let order: Vec<u64> = std::iter::from_fn(|| match s.next() {
            Some(Fired::Tcl(u)) => Some(u),
            _ => None,
        })
        .collect();
        assert_eq!(order, vec![b, d, a, c]);
    }

    #[test]
    fn time_is_now_plus_delay_in_f64() {
        let mut s = Scheduler::new();
        s.schedule_tcl(0.1);
        s.next();
        s.schedule_tcl(0.2);
        s.next();
        // 0.1 + 0.2 != 0.3 in binary floating point, and ns-2 agrees.
        assert_eq!(s.now, 0.1 + 0.2);
        assert_ne!(s.now, 0.3);
    }

    #[test]
    fn pipe_keeps_fifo_and_interleaves_with_other_events_by_key() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send(p, 1.0, pk(10), 1); // seq 1, t=1
        let tcl = s.schedule_tcl(1.0); // seq 2, t=1
        s.pipe_send(p, 1.0, pk(11), 1); // seq 3, t=1
        s.pipe_send(p, 2.0, pk(12), 1); // seq 4, t=2
        assert_eq!(s.heap_len(), 2, "only the pipe head and the Tcl event are in the heap");
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(10))));
        assert_eq!(s.next(), Some(Fired::Tcl(tcl)));
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(11))));
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(12))));
        assert_eq!(s.next(), None);
    }

    #[test]
    fn pipe_falls_back_to_heap_when_order_would_change() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send(p, 2.0, pk(10), 1);
        s.pipe_send(p, 1.0, pk(11), 1);
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(11))));
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(10))));
    }

    #[test]
    fn fifo_pipe_keeps_sending_order_at_the_events_times() {
        // ns-2's dynamic LinkDelay: each arrival event delivers the head of
        // the packets in transit.
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send_fifo(p, 3.0, pk(10), 1); // event at 3
        s.pipe_send_fifo(p, 2.0, pk(11), 1); // event at 2: comes first, delivers 10
        let tcl = s.schedule_tcl(2.5);
        s.pipe_send_fifo(p, 1.0, pk(12), 1); // event at 1: first of all, delivers 10
        s.pipe_send_fifo(p, 4.0, pk(13), 1);
        let mut got = Vec::new();
        while let Some(f) = s.next() {
            got.push((s.now, f));
        }
        assert_eq!(
            got,
            vec![
                (1.0, Fired::Packet(1, pk(10))),
                (2.0, Fired::Packet(1, pk(11))),
                (2.5, Fired::Tcl(tcl)),
                (3.0, Fired::Packet(1, pk(12))),
                (4.0, Fired::Packet(1, pk(13))),
            ]
        );
    }

    #[test]
    fn fifo_pipe_drains_every_packet_in_sending_order() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send_fifo(p, 3.0, pk(10), 1);
        s.pipe_send_fifo(p, 1.0, pk(11), 1);
        s.pipe_send_fifo(p, 2.0, pk(12), 1);
        assert_eq!(s.heap_len(), 1, "one entry for the pipe");
        assert_eq!(s.pipe_drain(p), vec![pk(10), pk(11), pk(12)]);
        assert_eq!(s.next(), None);
    }

    #[test]
    fn detached_packets_arrive_on_their_own_and_escape_the_drain() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send(p, 1.0, pk(10), 1);
        s.pipe_send(p, 2.0, pk(11), 1);
        s.pipe_detach(p);
        // Sent after the link turned dynamic: in the pipe's FIFO.
        s.pipe_send_fifo(p, 1.5, pk(12), 1);
        s.pipe_send_fifo(p, 2.5, pk(13), 1);
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(10))));
        assert_eq!(s.pipe_drain(p), vec![pk(12), pk(13)]);
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(11))));
        assert_eq!(s.now, 2.0);
        assert_eq!(s.next(), None);
    }

    #[test]
    fn drained_pipe_delivers_nothing_and_takes_new_packets_in_order() {
        let mut s = Scheduler::new();
        let p = s.new_pipe();
        s.pipe_send(p, 1.0, pk(10), 1);
        s.pipe_send(p, 1.5, pk(11), 1);
        let a = s.schedule_tcl(0.5);
        assert_eq!(s.next(), Some(Fired::Tcl(a)));
        assert_eq!(s.pipe_drain(p), vec![pk(10), pk(11)]);
        assert!(s.pipe_drain(p).is_empty());
        // A packet sent after the drain arrives at its own time, after
        // the cancelled ones would have.
        s.pipe_send(p, 2.0, pk(12), 1);
        assert_eq!(s.next(), Some(Fired::Packet(1, pk(12))));
        assert_eq!(s.now, 2.5);
        assert_eq!(s.next(), None);
        assert!(s.pipe_drain(p).is_empty());
    }

    #[test]
    fn rescheduled_timer_fires_once_at_its_latest_key() {
        let mut s = Scheduler::new();
        let t = s.new_timer(7, 0);
        s.timer_resched(t, 1.0);
        s.timer_resched(t, 3.0); // later: the heap entry at 1.0 stays, stale
        let marker = s.schedule_tcl(2.0);
        s.timer_resched(t, 0.5); // earlier: a new entry is pushed
        s.timer_resched(t, 2.0); // same time as marker, scheduled after it
        assert_eq!(s.next(), Some(Fired::Tcl(marker)));
        assert_eq!(s.next(), Some(Fired::Timer(t, 7, 0)));
        assert_eq!(s.now, 2.0);
        assert_eq!(s.timer_status(t), TimerStatus::Handling);
        s.timer_handled(t);
        assert_eq!(s.timer_status(t), TimerStatus::Idle);
        assert_eq!(s.next(), None);
    }

    #[test]
    fn cancelled_timer_and_tcl_events_do_not_fire() {
        let mut s = Scheduler::new();
        let t = s.new_timer(1, 0);
        s.timer_resched(t, 1.0);
        s.timer_cancel(t);
        let u = s.schedule_tcl(1.0);
        assert!(s.cancel_tcl(u));
        assert!(!s.cancel_tcl(u));
        assert_eq!(s.pending_tcl(), 0);
        assert_eq!(s.next(), None);
    }

    #[test]
    fn lazy_resume_is_ordered_exactly_like_a_real_event() {
        let mut s = Scheduler::new();
        let slot = s.new_resume(9);
        let a = s.schedule_tcl(1.0); // seq 1
        s.set_resume(slot, 1.0); // seq 2: resume at t=1 after a
        let b = s.schedule_tcl(1.0); // seq 3
        // At event a the resume has not happened yet.
        assert_eq!(s.next(), Some(Fired::Tcl(a)));
        assert_eq!(s.resume_lapsed(slot), None);
        // If nothing is queued, the resume silently passes; at b it is over,
        // and it reports its time once.
        assert_eq!(s.next(), Some(Fired::Tcl(b)));
        assert_eq!(s.resume_lapsed(slot), Some(1.0));
        assert_eq!(s.resume_lapsed(slot), None);

        // With a packet waiting the resume becomes a real event.
        let c = s.schedule_tcl(1.0);
        s.set_resume(slot, 0.5);
        s.need_resume(slot);
        assert_eq!(s.next(), Some(Fired::Resume(9)));
        assert_eq!(s.next(), Some(Fired::Tcl(c)));
    }
}
