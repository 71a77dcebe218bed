//! A queue held inside a scheduler, as ns-2 scripts give schedulers
//! queues of their own: a CBQ class's (`CBQClass install-queue`, queue/cbq.cc)
//! and an FQ link's per-flow queues (ns-queue.tcl's `FQLink new-flow`,
//! queue/fq.cc).  Of the kinds those take in ns-2, DropTail, RED, SFQ
//! (queue/sfq.cc) and DRR (queue/drr.cc) run here, each the same code as
//! the link queue of that kind; the holder says how ns-2 sets each up
//! (neither resets nor links a RED it holds).  PI, REM, Vq, GK, SRR and
//! RIO run here too, as the link queue's discipline itself ([`Boxed`],
//! its own `match`): ns-2 gives them no link either (`$q link` is the
//! script's, FQLink's flow queues never get one), and a flow queue is made
//! in the middle of the run, when its constructor starts PI's and REM's
//! update timers ([`SubQueue::made`]).  An enum, so that the DropTail case
//! costs no dispatch; the others are boxed to keep it small.

use super::{Boxed, Capacity, Drops, DropTail, Qdisc, Verdict};
use crate::packet::PktId;
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
    /// PI, REM, Vq, GK, SRR or RIO: the link queue's discipline of that
    /// kind, its verdicts as the link queue's ([`SubQueue::of`] says which
    /// kinds).
    Other(Box<Boxed>),
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
            SubQueue::Other(b) => b.enqueue(cap, w, p, drops),
        }
    }

    /// The queue's `deque`: RED's (and RIO's) marks the queue idle from now
    /// when it finds nothing (`REDQueue::deque`); PI and REM run the
    /// updates due by now first, REM with `markpkts_` draws even when it
    /// finds nothing (`REMQueue::deque`).
    #[inline]
    pub(crate) fn deque(&mut self, w: &mut World) -> Option<PktId> {
        match self {
            SubQueue::DropTail(d) => d.fifo.pop(&w.pool),
            SubQueue::Red(r) => r.deque(&w.pool, w.s.now),
            SubQueue::Sfq(s) => s.next_out(&w.pool),
            SubQueue::Drr(d) => d.next_out(&w.pool),
            SubQueue::Other(b) => {
                // none of these kinds drops at a dequeue
                let mut none = Drops::default();
                let p = b.dequeue(w, &mut none);
                debug_assert!(none.is_empty());
                p
            }
        }
    }

    /// The holder found the queue with nothing to send at `now` without
    /// asking it (an FQ link gone idle): what its `deque` would have noted,
    /// RED's and RIO's idle period.
    #[inline]
    pub(crate) fn idle(&mut self, now: f64) {
        match self {
            SubQueue::Red(r) => r.dequeued(false, now),
            SubQueue::Other(b) => b.link_idle(now),
            _ => {}
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        match self {
            SubQueue::DropTail(d) => d.fifo.len(),
            SubQueue::Red(r) => r.fifo.len(),
            SubQueue::Sfq(s) => super::Discipline::len(&**s),
            SubQueue::Drr(d) => super::Discipline::len(&**d),
            SubQueue::Other(b) => b.len(),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sub-queue for a queue object's discipline `disc`, if it is of a
    /// kind that runs as one (DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR,
    /// RIO); else `disc` back.
    pub(crate) fn of(disc: Qdisc) -> Result<SubQueue, Qdisc> {
        match disc {
            Qdisc::DropTail(d) => Ok(SubQueue::DropTail(d)),
            Qdisc::Boxed(b) => match *b {
                Boxed::Red(r) => Ok(SubQueue::Red(Box::new(r))),
                Boxed::Sfq(s) => Ok(SubQueue::Sfq(Box::new(s))),
                Boxed::Drr(d) => Ok(SubQueue::Drr(Box::new(d))),
                Boxed::Pi(_) | Boxed::Rem(_) | Boxed::Vq(_) | Boxed::Gk(_) | Boxed::Srr(_) | Boxed::Rio(_) => Ok(SubQueue::Other(b)),
                other => Err(Qdisc::Boxed(Box::new(other))),
            },
        }
    }

    /// A fresh copy of this queue (a flow queue's kind and variables, held
    /// empty by an FQ queue); None if it holds packets.
    pub(crate) fn copy(&self) -> Option<SubQueue> {
        if !self.is_empty() {
            return None;
        }
        Some(match self {
            SubQueue::DropTail(d) => SubQueue::DropTail(d.clone()),
            SubQueue::Red(r) => SubQueue::Red(r.clone()),
            SubQueue::Sfq(s) => SubQueue::Sfq(s.clone()),
            SubQueue::Drr(d) => SubQueue::Drr(d.clone()),
            SubQueue::Other(b) => SubQueue::Other(Box::new(match &**b {
                Boxed::Pi(q) => Boxed::Pi(q.clone()),
                Boxed::Rem(q) => Boxed::Rem(q.clone()),
                Boxed::Vq(q) => Boxed::Vq(q.clone()),
                Boxed::Gk(q) => Boxed::Gk(q.clone()),
                Boxed::Srr(q) => Boxed::Srr(q.clone()),
                Boxed::Rio(q) => Boxed::Rio(q.clone()),
                _ => unreachable!("SubQueue::of takes no other kind"),
            })),
        })
    }

    /// The queue was made (`new Queue/KIND`) now, with capacity `cap`, in
    /// the middle of a run: PI's constructor runs its first update now and
    /// sets its timer one period on (`PIQueue::PIQueue` calls `reset`, which
    /// calls `calculate_p`), REM's arms its timer one period on from zeroed
    /// state (`REMQueue::REMQueue` calls `reset`).  Neither timer is a
    /// scheduler event here: their updates run when the queue next sees a
    /// packet (qdisc/pi.rs, [`crate::qdisc::Rem::start_lazy`]).
    pub(crate) fn made(&mut self, cap: &Capacity, w: &mut World) {
        if let SubQueue::Other(b) = self {
            match &mut **b {
                Boxed::Pi(q) => q.reset(cap, w),
                Boxed::Rem(q) => q.start_lazy(w),
                _ => {}
            }
        }
    }

    /// The RED queue, if it is one.
    pub fn red(&self) -> Option<&Red> {
        match self {
            SubQueue::Red(r) => Some(r),
            _ => None,
        }
    }
}
