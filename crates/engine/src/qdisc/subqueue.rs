//! A queue held inside a scheduler, as ns-2 scripts give schedulers
//! queues of their own: a CBQ class's (`CBQClass install-queue`, queue/cbq.cc)
//! and an FQ link's per-flow queues (ns-queue.tcl's `FQLink new-flow`,
//! queue/fq.cc).  Of the kinds those take in ns-2, DropTail and RED run
//! here; the holder says how ns-2 sets each up (neither resets nor links a
//! RED it holds).  An enum, so that the DropTail case costs no dispatch.

use super::{Capacity, DropTail, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::qdisc::red::Red;
use crate::sim::World;

#[derive(Debug)]
pub enum SubQueue {
    DropTail(DropTail),
    Red(Box<Red>),
}

impl Default for SubQueue {
    fn default() -> Self {
        SubQueue::DropTail(DropTail::default())
    }
}

impl SubQueue {
    /// The queue's `enque` (DropTail's, or `REDQueue::enque`).
    #[inline]
    pub(crate) fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId) -> Verdict {
        match self {
            SubQueue::DropTail(d) => d.enqueue(cap, &w.pool, p),
            SubQueue::Red(r) => r.enque(cap, w, p),
        }
    }

    /// The queue's `deque`: RED's marks the queue idle from `now` when it
    /// finds nothing (`REDQueue::deque`).
    #[inline]
    pub(crate) fn deque(&mut self, pool: &PacketPool, now: f64) -> Option<PktId> {
        match self {
            SubQueue::DropTail(d) => d.fifo.pop(pool),
            SubQueue::Red(r) => r.deque(pool, now),
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            SubQueue::DropTail(d) => d.fifo.len(),
            SubQueue::Red(r) => r.fifo.len(),
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
            SubQueue::DropTail(_) => None,
        }
    }
}
