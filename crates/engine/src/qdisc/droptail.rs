//! DropTail (queue/drop-tail.cc): a FIFO that drops the arrival when it
//! is full, or with `drop_front` the packet at the head.

use super::{Capacity, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};

/// A FIFO with tail (or front) drop.
#[derive(Debug, Default, Clone)]
pub struct DropTail {
    pub fifo: Fifo,
}

impl DropTail {
    /// `DropTail::enque`: queue `p` unless the queue would reach its limit;
    /// then drop `p`, or with `drop_front` the head (`p` taking its place at
    /// the tail).
    #[inline(always)]
    pub(crate) fn enqueue(&mut self, cap: &Capacity, pool: &PacketPool, p: PktId) -> Verdict {
        let full = if !cap.in_bytes {
            (self.fifo.len() as i64 + 1) >= cap.limit as i64
        } else {
            (self.fifo.bytes() + pool.get(p).size as i64) >= cap.limit_bytes()
        };
        if !full {
            self.fifo.push(pool, p);
            Verdict::Queued
        } else if cap.drop_front {
            self.fifo.push(pool, p);
            Verdict::Dropped(self.fifo.pop(pool).expect("queue not empty"))
        } else {
            Verdict::Dropped(p)
        }
    }

    /// `DropTail::shrink_queue`: the packets over the (possibly lowered)
    /// limit, in the order to drop them (from the head with `drop_front`,
    /// else from the tail).
    pub(crate) fn shrink(&mut self, cap: &Capacity, pool: &PacketPool, out: &mut Vec<PktId>) {
        loop {
            let over = if !cap.in_bytes { self.fifo.len() as i64 > cap.limit as i64 } else { self.fifo.bytes() > cap.limit_bytes() };
            if !over {
                return;
            }
            let p = if cap.drop_front { self.fifo.pop(pool) } else { self.fifo.pop_back(pool) };
            match p {
                Some(p) => out.push(p),
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkts(pool: &mut PacketPool, n: usize, size: i32) -> Vec<PktId> {
        (0..n)
            .map(|_| {
                let p = pool.alloc();
                pool.get_mut(p).size = size;
                p
            })
            .collect()
    }

    /// ns-2 drops once the queue *would reach* its limit: a limit of 3
    /// holds two packets.
    #[test]
    fn drops_the_arrival_at_the_limit() {
        let mut pool = PacketPool::new();
        let ps = pkts(&mut pool, 4, 100);
        let cap = Capacity { limit: 3, ..Capacity::default() };
        let mut d = DropTail::default();
        assert_eq!(d.enqueue(&cap, &pool, ps[0]), Verdict::Queued);
        assert_eq!(d.enqueue(&cap, &pool, ps[1]), Verdict::Queued);
        assert_eq!(d.enqueue(&cap, &pool, ps[2]), Verdict::Dropped(ps[2]));
        assert_eq!((d.fifo.len(), d.fifo.bytes()), (2, 200));
    }

    /// With `drop_front` the head goes and the arrival is queued.
    #[test]
    fn drop_front_displaces_the_head() {
        let mut pool = PacketPool::new();
        let ps = pkts(&mut pool, 3, 100);
        let cap = Capacity { limit: 3, drop_front: true, ..Capacity::default() };
        let mut d = DropTail::default();
        d.enqueue(&cap, &pool, ps[0]);
        d.enqueue(&cap, &pool, ps[1]);
        assert_eq!(d.enqueue(&cap, &pool, ps[2]), Verdict::Dropped(ps[0]));
        assert_eq!(d.fifo.iter().copied().collect::<Vec<_>>(), vec![ps[1], ps[2]]);
    }

    /// In bytes, the limit is `limit * mean_pktsize`, reached by the
    /// arrival's size.
    #[test]
    fn byte_limit_counts_sizes() {
        let mut pool = PacketPool::new();
        let ps = pkts(&mut pool, 3, 400);
        let cap = Capacity { limit: 2, in_bytes: true, mean_pktsize: 500, drop_front: false };
        let mut d = DropTail::default();
        assert_eq!(d.enqueue(&cap, &pool, ps[0]), Verdict::Queued);
        assert_eq!(d.enqueue(&cap, &pool, ps[1]), Verdict::Queued);
        assert_eq!(d.enqueue(&cap, &pool, ps[2]), Verdict::Dropped(ps[2]), "1200 >= 1000");
    }

    /// Shrinking to a lower limit takes packets from the tail, or from the
    /// head with `drop_front`.
    #[test]
    fn shrink_takes_from_the_tail_or_the_head() {
        let mut pool = PacketPool::new();
        let ps = pkts(&mut pool, 5, 100);
        for (front, want) in [(false, vec![ps[4], ps[3]]), (true, vec![ps[0], ps[1]])] {
            let mut d = DropTail::default();
            let big = Capacity { limit: 100, ..Capacity::default() };
            for &p in &ps {
                d.enqueue(&big, &pool, p);
            }
            let mut out = Vec::new();
            d.shrink(&Capacity { limit: 3, drop_front: front, ..Capacity::default() }, &pool, &mut out);
            assert_eq!(out, want);
            assert_eq!(d.fifo.len(), 3);
        }
    }
}
