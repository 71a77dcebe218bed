//! A queue held inside a scheduler, as ns-2 scripts give schedulers
//! queues of their own: a CBQ class's (`CBQClass install-queue`, queue/cbq.cc)
//! and an FQ link's per-flow queues (ns-queue.tcl's `FQLink new-flow`,
//! queue/fq.cc).  Of the kinds those take in ns-2, DropTail, RED, SFQ
//! (queue/sfq.cc) and DRR (queue/drr.cc) run here, each the same code as
//! the link queue of that kind; the holder says how ns-2 sets each up
//! (neither resets nor links a RED it holds).  An enum, so that the
//! DropTail case costs no dispatch; the others are boxed to keep it small.

use super::{Capacity, Drops, DropTail, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::qdisc::drr::Drr;
use crate::qdisc::red::Red;
use crate::qdisc::sfq::Sfq;
use crate::sim::World;

#[derive(Debug)]
pub enum SubQueue {
    DropTail(DropTail),
    Red(Box<Red>),
    /// Stochastic fair queueing: drops the arrival (`SFQ::enque`'s `drop`).
    Sfq(Box<Sfq>),
    /// Deficit round robin: over its byte limit it queues the arrival and
    /// drops from its fattest flow ([`Verdict::Overflow`], the packets in
    /// `drops`: `DRR::enque`'s `drop(q->deque())` loop).
    Drr(Box<Drr>),
}

impl Default for SubQueue {
    fn default() -> Self {
        SubQueue::DropTail(DropTail::default())
    }
}

impl SubQueue {
    /// The queue's `enque` (DropTail's, `REDQueue::enque`, `SFQ::enque`,
    /// `DRR::enque`).  A DRR queue that drops to make room says
    /// [`Verdict::Overflow`] and leaves the packets in `drops`.
    #[inline]
    pub(crate) fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        match self {
            SubQueue::DropTail(d) => d.enqueue(cap, &w.pool, p),
            SubQueue::Red(r) => r.enque(cap, w, p),
            SubQueue::Sfq(s) => s.take_in(&w.pool, p),
            SubQueue::Drr(d) => d.take_in(&w.pool, p, drops),
        }
    }

    /// The queue's `deque`: RED's marks the queue idle from `now` when it
    /// finds nothing (`REDQueue::deque`).
    #[inline]
    pub(crate) fn deque(&mut self, pool: &PacketPool, now: f64) -> Option<PktId> {
        match self {
            SubQueue::DropTail(d) => d.fifo.pop(pool),
            SubQueue::Red(r) => r.deque(pool, now),
            SubQueue::Sfq(s) => s.next_out(pool),
            SubQueue::Drr(d) => d.next_out(pool),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            SubQueue::DropTail(d) => d.fifo.len(),
            SubQueue::Red(r) => r.fifo.len(),
            SubQueue::Sfq(s) => super::Discipline::len(&**s),
            SubQueue::Drr(d) => super::Discipline::len(&**d),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The RED queue, if it is one.
    pub fn red(&self) -> Option<&Red> {
        match self {
            SubQueue::Red(r) => Some(r),
            _ => None,
        }
    }
}
