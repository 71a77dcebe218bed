//! Step marking: the queue DCTCP was designed for (Alizadeh et al.,
//! SIGCOMM 2010, section 3.1; RFC 8257 section 3.1): a tail-drop FIFO that
//! sets CE on an ECN-capable arrival when the instantaneous queue exceeds
//! the threshold K, with no averaging and no randomness.  A packet that is
//! not ECN-capable is never marked (nor dropped early): it is queued, or
//! dropped when the buffer is full, as in DropTail.
//!
//! "Exceeds K": the arrival is marked when the queue, with it, holds more
//! than K packets (with the capacity in bytes: more than K times the mean
//! packet size in bytes).  ns-2's RED cannot be set to this (with
//! `thresh_` = `maxthresh_` and `q_weight_` 1 an average at the threshold
//! is a forced drop, or a mark only while RED's probability is below
//! `mark_p_`), hence a discipline of its own.

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::sim::World;

#[derive(Debug, Clone)]
pub struct StepMark {
    pub fifo: Fifo,
    /// K, in packets (times the mean packet size with a byte capacity).
    pub thresh: i32,
    /// CE marks given.
    pub marks: u64,
}

impl Default for StepMark {
    fn default() -> Self {
        StepMark::new()
    }
}

impl StepMark {
    pub fn new() -> StepMark {
        StepMark { fifo: Fifo::default(), thresh: 20, marks: 0 }
    }

    pub(crate) fn do_enqueue(&mut self, cap: &Capacity, pool: &mut PacketPool, p: PktId) -> Verdict {
        let size = pool.get(p).size as i64;
        let (held, limit, k) = if cap.in_bytes {
            (self.fifo.bytes() + size, cap.limit_bytes(), self.thresh as i64 * cap.mean_pktsize as i64)
        } else {
            (self.fifo.len() as i64 + 1, cap.limit as i64, self.thresh as i64)
        };
        if held > limit {
            return Verdict::Dropped(p);
        }
        self.fifo.push(pool, p);
        if held > k && super::mark_ce(pool, p) {
            self.marks += 1;
            return Verdict::Marked;
        }
        Verdict::Queued
    }
}

impl Discipline for StepMark {
    #[inline]
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.do_enqueue(cap, &mut w.pool, p)
    }

    #[inline]
    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.fifo.pop(&w.pool)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// K = 3, limit 5: the first three arrivals are queued unmarked, the
    /// fourth and fifth (queue of 4, 5 > 3) marked if ECN-capable, a
    /// Not-ECT one queued unmarked; the sixth dropped (tail drop).  After
    /// two departures (3 held) the next arrival makes 4: marked.
    #[test]
    fn marks_above_k_and_drops_at_the_limit() {
        let mut pool = PacketPool::new();
        let ids: Vec<PktId> = (0..7)
            .map(|i| {
                let id = pool.alloc();
                let pk = pool.get_mut(id);
                pk.size = 1000;
                pk.uid = i;
                pk.ecn_capable = i != 4;
                pk.ecn_to_echo = false;
                id
            })
            .collect();
        let cap = Capacity { limit: 5, ..Capacity::default() };
        let mut q = StepMark { thresh: 3, ..StepMark::new() };
        let got: Vec<Verdict> = ids[..6].iter().map(|&p| q.do_enqueue(&cap, &mut pool, p)).collect();
        use Verdict::*;
        assert_eq!(got, vec![Queued, Queued, Queued, Marked, Queued, Dropped(ids[5])]);
        assert!(!pool.get(ids[4]).ecn_to_echo, "Not-ECT: queued, not marked");
        assert_eq!(q.marks, 1);
        q.fifo.pop(&pool);
        q.fifo.pop(&pool);
        assert_eq!(q.do_enqueue(&cap, &mut pool, ids[6]), Marked);
        // in bytes: K = 3 x 500 bytes, limit 5 x 500: 2 x 1000 = 2000 > 1500
        let cap = Capacity { limit: 5, in_bytes: true, mean_pktsize: 500, ..Capacity::default() };
        let mut q = StepMark { thresh: 3, ..StepMark::new() };
        let mut pool2 = PacketPool::new();
        let v: Vec<Verdict> = (0..3)
            .map(|_| {
                let id = pool2.alloc();
                let pk = pool2.get_mut(id);
                pk.size = 1000;
                pk.ecn_capable = true;
                q.do_enqueue(&cap, &mut pool2, id)
            })
            .collect();
        assert_eq!(v[0], Queued);
        assert_eq!(v[1], Marked);
        assert!(matches!(v[2], Dropped(_)), "3000 bytes > 2500");
    }
}
