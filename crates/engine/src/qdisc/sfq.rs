//! Stochastic fair queueing (McKenney, INFOCOM 1990), as ns-2 2.35 models
//! it (queue/sfq.cc), decision for decision.
//!
//! Packets are hashed by source plus destination address into `buckets`
//! FIFOs; the buckets that hold packets form a ring served one packet per
//! turn.  The discipline holds at most `maxqueue` packets (not the queue's
//! `limit_`).  An arrival is dropped when its bucket already holds half of
//! the room left or more, when less room is left than there are buckets
//! and its bucket holds more than its fair share (`maxqueue / buckets`), or
//! when no room is left.
//!
//! Details kept from ns-2: the buckets are made at the first packet event
//! with the counts of that moment, and the fair share then (the `limit`
//! command recomputes it, setting `maxqueue_` does not); a bucket that
//! becomes active joins the ring just behind the one to be served next.

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::sim::World;

const NIL: u32 = u32::MAX;

#[derive(Debug, Clone, Default)]
struct Bucket {
    fifo: Fifo,
    prev: u32,
    next: u32,
}

/// Stochastic fair queueing over (source + destination)-hashed buckets.
#[derive(Debug, Clone)]
pub struct Sfq {
    /// Packets held at most (`maxqueue_`).
    pub maxqueue: i32,
    /// Buckets (`buckets_`).
    pub buckets: i32,
    /// Packets a bucket may hold when room is short (`maxqueue / buckets`
    /// when the buckets were made or `limit` last given).
    pub fairshare: i32,
    table: Vec<Bucket>,
    /// The bucket to serve next.
    active: u32,
    occupied: i32,
    bytes: i64,
}

impl Default for Sfq {
    fn default() -> Self {
        Sfq::new()
    }
}

impl Sfq {
    /// ns-2's defaults: 40 packets in 16 buckets.
    pub fn new() -> Sfq {
        Sfq { maxqueue: 40, buckets: 16, fairshare: 0, table: Vec::new(), active: NIL, occupied: 0, bytes: 0 }
    }

    /// `SFQ::hash` of a source and destination address (C's signed
    /// arithmetic).
    pub fn hash(saddr: i32, daddr: i32) -> i32 {
        let k = saddr.wrapping_add(daddr);
        k.wrapping_add(k >> 8).wrapping_add(!(k >> 4)) % ((2 << 19) - 1)
    }

    /// `$q limit N`: the most packets held, and the fair share with it.
    pub fn set_limit(&mut self, n: i32) -> Result<(), String> {
        if self.buckets <= 0 {
            return Err(format!("SFQ needs at least one bucket, it has {}", self.buckets));
        }
        self.maxqueue = n;
        self.fairshare = n / self.buckets;
        Ok(())
    }

    /// Whether the buckets have been made (then their count is fixed:
    /// ns-2's `buckets` command never returns once they are).
    pub fn started(&self) -> bool {
        !self.table.is_empty()
    }

    fn init(&mut self) {
        if self.table.is_empty() {
            let n = self.buckets.max(1);
            self.table = vec![Bucket { prev: NIL, next: NIL, ..Bucket::default() }; n as usize];
            self.active = NIL;
            self.occupied = 0;
            self.fairshare = self.maxqueue / n;
        }
    }

    pub(crate) fn take_in(&mut self, pool: &PacketPool, p: PktId) -> Verdict {
        self.init();
        let pk = pool.get(p);
        // C's `%`; a negative index, out of bounds in ns-2, wraps instead
        let b = Sfq::hash(pk.saddr, pk.daddr).rem_euclid(self.table.len() as i32) as usize;
        let used = self.table[b].fifo.len() as i32;
        let left = self.maxqueue - self.occupied;
        if used >= (left >> 1) || (left < self.table.len() as i32 && used > self.fairshare) || left <= 0 {
            return Verdict::Dropped(p);
        }
        self.table[b].fifo.push(pool, p);
        self.bytes += pk.size as i64;
        self.occupied += 1;
        if self.table[b].fifo.len() == 1 {
            // in the ring behind the bucket to serve next
            let f = b as u32;
            if self.active == NIL {
                self.table[b].prev = f;
                self.table[b].next = f;
                self.active = f;
            } else {
                let head = self.active;
                let tail = self.table[head as usize].prev;
                self.table[b].prev = tail;
                self.table[b].next = head;
                self.table[tail as usize].next = f;
                self.table[head as usize].prev = f;
            }
        }
        Verdict::Queued
    }

    pub(crate) fn next_out(&mut self, pool: &PacketPool) -> Option<PktId> {
        self.init();
        if self.active == NIL {
            return None;
        }
        let a = self.active as usize;
        let p = self.table[a].fifo.pop(pool).expect("an active bucket holds packets");
        self.occupied -= 1;
        self.bytes -= pool.get(p).size as i64;
        let (prev, next) = (self.table[a].prev, self.table[a].next);
        if !self.table[a].fifo.is_empty() {
            self.active = next;
        } else if next == a as u32 {
            self.active = NIL;
        } else {
            self.table[next as usize].prev = prev;
            self.table[prev as usize].next = next;
            self.active = next;
        }
        Some(p)
    }
}

impl Discipline for Sfq {
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.take_in(&w.pool, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.next_out(&w.pool)
    }

    fn len(&self) -> usize {
        self.occupied as usize
    }

    fn bytes(&self) -> i64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(pool: &mut PacketPool, saddr: i32, daddr: i32) -> PktId {
        let p = pool.alloc();
        let pk = pool.get_mut(p);
        pk.saddr = saddr;
        pk.daddr = daddr;
        pk.size = 1000;
        p
    }

    /// ns-2's hash: k + (k>>8) + ~(k>>4) modulo 2^20-1, k = src + dst.
    #[test]
    fn hash_is_ns2s() {
        assert_eq!(Sfq::hash(0, 3), 2);
        assert_eq!(Sfq::hash(1, 3), 3);
        assert_eq!(Sfq::hash(10, 10), 20 - 1 - 1);
        assert_eq!(Sfq::hash(200, 100), 300 + 1 - 18 - 1);
    }

    /// Buckets take turns, one packet each.
    #[test]
    fn buckets_take_turns() {
        let mut pool = PacketPool::new();
        let mut s = Sfq::new();
        let a: Vec<_> = (0..3).map(|_| pkt(&mut pool, 0, 3)).collect();
        let b: Vec<_> = (0..2).map(|_| pkt(&mut pool, 1, 3)).collect();
        for &p in a.iter().chain(&b) {
            assert_eq!(s.take_in(&pool, p), Verdict::Queued);
        }
        let out: Vec<_> = std::iter::from_fn(|| s.next_out(&pool)).collect();
        assert_eq!(out, vec![a[0], b[0], a[1], b[1], a[2]]);
        assert_eq!((s.len(), s.bytes()), (0, 0));
    }

    /// One bucket may hold less than half the room left: with 40 packets
    /// of room, a lone flow gets 13 (13 >= (40-13)/2 stops the 14th).
    #[test]
    fn a_bucket_holds_under_half_the_room_left() {
        let mut pool = PacketPool::new();
        let mut s = Sfq::new();
        let mut queued = 0;
        for _ in 0..20 {
            let p = pkt(&mut pool, 0, 3);
            if s.take_in(&pool, p) == Verdict::Queued {
                queued += 1;
            }
        }
        assert_eq!(queued, 13);
    }

    /// The `limit` command sets the fair share too.
    #[test]
    fn limit_sets_the_fair_share() {
        let mut s = Sfq::new();
        s.set_limit(64).unwrap();
        assert_eq!((s.maxqueue, s.fairshare), (64, 4));
    }
}
