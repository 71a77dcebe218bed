//! Deficit round robin (Shreedhar and Varghese, SIGCOMM 1995), as ns-2
//! 2.35 models it (queue/drr.cc), decision for decision.
//!
//! Packets are hashed by source address into `buckets` flow queues.  The
//! flows that hold packets form a ring; the link serves the ring's current
//! flow while its deficit covers the head packet's size, adding `quantum`
//! bytes at the start of each turn, then moves on.  The whole discipline
//! holds at most `blimit` bytes: an arrival that takes it over is queued,
//! then packets are dropped from the head of the flow holding the most
//! bytes until it fits (the arrival's own flow may be that flow).
//!
//! Details kept from ns-2: the flow table is made at the first arrival
//! with the bucket count of that moment; a flow joins the ring just behind
//! the current flow with a deficit of zero; a flow emptied by the server
//! leaves with its deficit and turn cleared, one emptied by an overflow
//! drop keeps them (its deficit is cleared when it next joins, its turn
//! flag is not); among flows of equal bytes the fattest is the first met
//! going round from the current flow.  Two sources hashed into one bucket
//! share it (ns-2 only reports the collision on stderr).

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::sim::World;

const NIL: u32 = u32::MAX;

/// One flow queue and its place in the ring of active flows.
#[derive(Debug, Clone, Default)]
struct Flow {
    fifo: Fifo,
    /// The source address first hashed here (`src`; -1: none yet).
    src: i32,
    /// Bytes queued (`bcount`).
    bytes: i32,
    prev: u32,
    next: u32,
    deficit: i32,
    /// The flow's deficit has had its quantum for the current turn.
    turn: bool,
}

/// Deficit round robin over source-hashed flow queues.
#[derive(Debug, Clone)]
pub struct Drr {
    /// Flow queues (`buckets_`; the table is made at the first arrival).
    pub buckets: i32,
    /// Bytes the discipline may hold over all flows (`blimit_`).
    pub blimit: i32,
    /// Bytes added to a flow's deficit at each turn (`quantum_`).
    pub quantum: i32,
    /// Non-zero: hash on the node part of the address only (`mask_`:
    /// `saddr & 0xfff0`).
    pub mask: i32,
    flows: Vec<Flow>,
    curr: u32,
    active: i32,
    pkts: usize,
    bytes: i32,
}

impl Default for Drr {
    fn default() -> Self {
        Drr::new()
    }
}

impl Drr {
    /// ns-2's defaults (ns-default.tcl): 10 buckets, 25000 bytes, quantum 250.
    pub fn new() -> Drr {
        Drr { buckets: 10, blimit: 25000, quantum: 250, mask: 0, flows: Vec::new(), curr: NIL, active: 0, pkts: 0, bytes: 0 }
    }

    /// `DRR::hash`: the source address mixed and reduced modulo a large
    /// prime, plus one (C's signed arithmetic).
    pub fn hash(&self, saddr: i32) -> i32 {
        let i = if self.mask != 0 { saddr & 0xfff0 } else { saddr };
        let h = i.wrapping_add(i >> 8).wrapping_add(!(i >> 4));
        (h % ((2 << 23) - 1)) + 1
    }

    /// The bucket of a source address (C's `%`; a negative index, which
    /// ns-2 would read out of bounds, wraps into the table instead).
    fn bucket(&self, saddr: i32) -> usize {
        self.hash(saddr).rem_euclid(self.flows.len() as i32) as usize
    }

    /// Forget the flow table (`$q buckets N`); an error while it holds
    /// packets (ns-2 exits there).
    pub fn clear(&mut self) -> Result<(), String> {
        if self.pkts > 0 {
            return Err("cannot change the buckets of a DRR queue that holds packets".into());
        }
        self.flows.clear();
        self.curr = NIL;
        self.active = 0;
        Ok(())
    }

    /// Put flow `f` in the ring behind `curr` (`activate`); the new head.
    fn activate(&mut self, f: u32) {
        if self.curr == NIL {
            self.flows[f as usize].prev = f;
            self.flows[f as usize].next = f;
            self.curr = f;
            return;
        }
        let head = self.curr;
        let tail = self.flows[head as usize].prev;
        self.flows[f as usize].prev = tail;
        self.flows[f as usize].next = head;
        self.flows[tail as usize].next = f;
        self.flows[head as usize].prev = f;
    }

    /// Take flow `f` out of the ring (`idle`); the current flow moves on
    /// if it was `f`.
    fn idle(&mut self, f: u32) {
        let (prev, next) = (self.flows[f as usize].prev, self.flows[f as usize].next);
        if self.curr == f && next == f {
            self.curr = NIL;
            return;
        }
        self.flows[next as usize].prev = prev;
        self.flows[prev as usize].next = next;
        if self.curr == f {
            self.curr = next;
        }
    }

    /// The active flow holding the most bytes, the first met from `curr`
    /// (`getMaxflow`).
    fn fattest(&self) -> u32 {
        let mut max = self.curr;
        let mut f = self.curr;
        for _ in 0..self.active {
            if self.flows[max as usize].bytes < self.flows[f as usize].bytes {
                max = f;
            }
            f = self.flows[f as usize].next;
        }
        max
    }

    pub(crate) fn take_in(&mut self, pool: &PacketPool, p: PktId, drops: &mut Drops) -> Verdict {
        if self.flows.is_empty() {
            self.flows = vec![Flow { src: -1, prev: NIL, next: NIL, ..Flow::default() }; self.buckets.max(1) as usize];
        }
        let pk = pool.get(p);
        let (saddr, size) = (pk.saddr, pk.size);
        let b = self.bucket(saddr);
        let src = if self.mask != 0 { saddr & 0xfff0 } else { saddr };
        let f = &mut self.flows[b];
        if f.src == -1 {
            f.src = src;
        }
        f.fifo.push(pool, p);
        f.bytes += size;
        self.pkts += 1;
        self.bytes += size;
        if f.fifo.len() == 1 {
            self.activate(b as u32);
            self.flows[b].deficit = 0;
            self.active += 1;
        }
        if self.bytes <= self.blimit {
            return Verdict::Queued;
        }
        while self.bytes > self.blimit {
            let m = self.fattest();
            let f = &mut self.flows[m as usize];
            let v = f.fifo.pop(pool).expect("the fattest flow holds packets");
            let size = pool.get(v).size;
            f.bytes -= size;
            self.bytes -= size;
            self.pkts -= 1;
            drops.push(v);
            if f.fifo.is_empty() {
                self.idle(m);
                self.active -= 1;
            }
        }
        Verdict::Overflow
    }

    pub(crate) fn next_out(&mut self, pool: &PacketPool) -> Option<PktId> {
        if self.bytes == 0 {
            return None;
        }
        loop {
            let c = self.curr as usize;
            let quantum = self.quantum;
            let f = &mut self.flows[c];
            if !f.turn {
                f.deficit += quantum;
                f.turn = true;
            }
            let head = f.fifo.get(0).expect("an active flow holds packets");
            let size = pool.get(head).size;
            if f.deficit >= size {
                f.deficit -= size;
                let p = f.fifo.pop(pool).expect("head");
                f.bytes -= size;
                self.pkts -= 1;
                self.bytes -= size;
                if f.fifo.is_empty() {
                    f.turn = false;
                    f.deficit = 0;
                    self.active -= 1;
                    self.idle(c as u32);
                }
                return Some(p);
            }
            f.turn = false;
            self.curr = f.next;
        }
    }
}

impl Discipline for Drr {
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        self.take_in(&w.pool, p, drops)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.next_out(&w.pool)
    }

    fn len(&self) -> usize {
        self.pkts
    }

    fn bytes(&self) -> i64 {
        self.bytes as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(pool: &mut PacketPool, saddr: i32, size: i32) -> PktId {
        let p = pool.alloc();
        let pk = pool.get_mut(p);
        pk.saddr = saddr;
        pk.size = size;
        p
    }

    /// The hash of ns-2's drr.cc for a few addresses.
    #[test]
    fn hash_is_ns2s() {
        let d = Drr::new();
        // i + (i>>8) + ~(i>>4), mod 2^24-1, plus one
        assert_eq!(d.hash(0), 0);
        assert_eq!(d.hash(1), 1);
        assert_eq!(d.hash(17), 17 - 1 - 1 + 1);
        assert_eq!(d.hash(300), 300 + 1 - 18 - 1 + 1);
    }

    /// Two backlogged flows with a quantum of one packet alternate; a
    /// quantum of half a packet still alternates (two turns per packet).
    #[test]
    fn round_robin_by_deficit() {
        for quantum in [1000, 500] {
            let mut pool = PacketPool::new();
            let mut d = Drr { quantum, ..Drr::new() };
            let mut drops = Drops::default();
            let a: Vec<_> = (0..3).map(|_| pkt(&mut pool, 0, 1000)).collect();
            let b: Vec<_> = (0..3).map(|_| pkt(&mut pool, 1, 1000)).collect();
            for &p in a.iter().chain(&b) {
                assert_eq!(d.take_in(&pool, p, &mut drops), Verdict::Queued);
            }
            let out: Vec<_> = std::iter::from_fn(|| d.next_out(&pool)).collect();
            assert_eq!(out, vec![a[0], b[0], a[1], b[1], a[2], b[2]], "quantum {quantum}");
            assert_eq!((d.len(), d.bytes()), (0, 0));
        }
    }

    /// Small packets of one flow go several to a turn against a flow of
    /// large packets: bytes, not packets, are shared.
    #[test]
    fn deficit_counts_bytes() {
        let mut pool = PacketPool::new();
        let mut d = Drr { quantum: 1000, ..Drr::new() };
        let mut drops = Drops::default();
        let big: Vec<_> = (0..2).map(|_| pkt(&mut pool, 0, 1000)).collect();
        let small: Vec<_> = (0..4).map(|_| pkt(&mut pool, 1, 500)).collect();
        for &p in big.iter().chain(&small) {
            d.take_in(&pool, p, &mut drops);
        }
        let out: Vec<_> = std::iter::from_fn(|| d.next_out(&pool)).collect();
        assert_eq!(out, vec![big[0], small[0], small[1], big[1], small[2], small[3]]);
    }

    /// Over `blimit` bytes, the head of the flow holding the most bytes is
    /// dropped, even when the arrival belongs to another flow.
    #[test]
    fn overflow_drops_from_the_fattest_flow() {
        let mut pool = PacketPool::new();
        let mut d = Drr { blimit: 3000, ..Drr::new() };
        let mut drops = Drops::default();
        let a: Vec<_> = (0..3).map(|_| pkt(&mut pool, 0, 1000)).collect();
        for &p in &a {
            assert_eq!(d.take_in(&pool, p, &mut drops), Verdict::Queued);
        }
        let b = pkt(&mut pool, 1, 1000);
        assert_eq!(d.take_in(&pool, b, &mut drops), Verdict::Overflow);
        assert_eq!(drops.pkts, vec![a[0]]);
        assert_eq!((d.len(), d.bytes()), (3, 3000));
    }

    /// `clear` refuses while packets are held.
    #[test]
    fn buckets_change_only_when_empty() {
        let mut pool = PacketPool::new();
        let mut d = Drr::new();
        let mut drops = Drops::default();
        let p = pkt(&mut pool, 0, 100);
        d.take_in(&pool, p, &mut drops);
        assert!(d.clear().is_err());
        d.next_out(&pool);
        assert!(d.clear().is_ok());
    }
}
