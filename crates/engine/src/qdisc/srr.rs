//! Smoothed round robin (Chuanxiong Guo, "SRR: an O(1) time complexity
//! packet scheduler for flows in multi-service packet networks", SIGCOMM
//! 2001), as ns-2 2.35 models it (queue/srr.cc `SRR`, queue/wss.h), step
//! for step.
//!
//! Flows map to queues (`setqueue`, queue 0 by default); each queue has a
//! rate (`setrate`, in units of `granularity`).  A busy queue's weight, its
//! rate over the granularity, is spread over the columns of the weight
//! matrix, one node in column i for each bit i of the weight; the scheduler
//! walks a column's nodes in order and picks the next column from the
//! weight spread sequence (WSS: the number of trailing zeros of a counter,
//! plus one, read from the highest column down), so a queue of weight w is
//! visited w times in 2^k visits, spread evenly.  A visit gives the queue
//! `mtu` bytes of credit once per turn (deficit round robin's counter);
//! the queue sends while its credit covers its head packet, then the turn
//! passes on.
//!
//! Kept from ns-2: a packet sent stays counted in its queue (its length,
//! bytes and the limit test) until the next dequeue, the one after the link
//! has sent it; so the queue leaves the matrix, and its counter resets, only
//! then (the empty dequeue that ends a busy period: `link_idle`).  A queue
//! holds at most `limit_` packets, counting that one.  The rates a queue is
//! given are kept per queue, from the granularity of the moment its weight
//! is taken (when it becomes busy).

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;

/// Flow ids and queues (ns-2's `MAXFLOW`).
pub const MAX_FLOWS: usize = 100;
/// Weight matrix columns (ns-2's `MAXWSSORDER`).
pub const MAX_ORDER: usize = 16;

#[derive(Debug, Default, Clone)]
struct SrrQueue {
    fifo: Fifo,
    /// Packets and bytes counted (including the last one sent, until the
    /// next dequeue).
    pkts: i32,
    bcount: i32,
    deficit: i32,
    turn: bool,
}

/// A weight matrix node: `queue` in column `col`, linked in its column and
/// to the next node of its queue's row.  Indices 0..16 are the columns'
/// head sentinels, 16..32 their tail sentinels.
#[derive(Debug, Clone, Copy)]
struct Node {
    queue: i32,
    col: usize,
    prev: usize,
    next: usize,
    sibling: usize,
}

const NIL: usize = usize::MAX;

fn head(c: usize) -> usize {
    c
}

fn tail(c: usize) -> usize {
    MAX_ORDER + c
}

#[derive(Debug, Clone)]
pub struct Srr {
    queues: Vec<SrrQueue>,
    /// Flow id -> queue.
    f2q: Vec<i32>,
    /// Queue -> rate (bits/s).
    rate: Vec<i32>,
    pub max_queues: i32,
    pub blimit: i32,
    pub mtu: i32,
    pub granularity: i32,
    pktcnt: i32,
    bytecnt: i32,
    /// The queue of the packet last sent and its size (-1: none).
    last_queue: i32,
    last_size: i32,
    nodes: Vec<Node>,
    free: Vec<usize>,
    rows: Vec<(usize, usize)>,
    /// The node being served.
    curr: usize,
    empty: bool,
    max_column: usize,
    curr_max_column: i32,
    min_quantum: i32,
    /// The WSS pointer.
    ptr: u32,
    /// Packets held now (without the last one sent).
    held: usize,
    held_bytes: i64,
}

impl Default for Srr {
    fn default() -> Self {
        Self::new()
    }
}

/// The WSS term at `ptr`: one plus the trailing zeros of ptr + 1, at most
/// `MAX_ORDER` (ns-2's table `rawScan` fills).
fn wss_term(ptr: u32) -> usize {
    ((ptr + 1).trailing_zeros() as usize + 1).min(MAX_ORDER)
}

/// ns-2's `getOrder`: the highest bit set of `i` (i >= 1).
fn order(i: i32) -> usize {
    let mut o = 0;
    while (1i64 << o) <= i as i64 {
        o += 1;
    }
    o - 1
}

impl Srr {
    pub fn new() -> Srr {
        let mut nodes = Vec::with_capacity(4 * MAX_ORDER);
        for c in 0..MAX_ORDER {
            nodes.push(Node { queue: -1, col: c, prev: NIL, next: tail(c), sibling: NIL });
        }
        for c in 0..MAX_ORDER {
            nodes.push(Node { queue: -1, col: c, prev: head(c), next: NIL, sibling: NIL });
        }
        Srr {
            queues: vec![SrrQueue::default(); MAX_FLOWS],
            f2q: vec![0; MAX_FLOWS],
            rate: vec![1000; MAX_FLOWS],
            max_queues: 10,
            blimit: 25000,
            mtu: 1000,
            granularity: 1000,
            pktcnt: 0,
            bytecnt: 0,
            last_queue: -1,
            last_size: 0,
            nodes,
            free: Vec::new(),
            rows: vec![(NIL, NIL); MAX_FLOWS],
            curr: NIL,
            empty: true,
            max_column: 0,
            curr_max_column: -1,
            min_quantum: 1000,
            ptr: 0,
            held: 0,
            held_bytes: 0,
        }
    }

    /// `setqueue FLOW QUEUE`.
    pub fn set_queue(&mut self, flow: i32, queue: i32) -> Result<(), String> {
        if !(0..MAX_FLOWS as i32).contains(&flow) || !(0..MAX_FLOWS as i32).contains(&queue) {
            return Err(format!("setqueue: flows and queues are 0 to {}, got flow {flow} queue {queue} \
                                (ns-2 writes outside its tables)", MAX_FLOWS - 1));
        }
        self.f2q[flow as usize] = queue;
        Ok(())
    }

    /// `setrate QUEUE RATE`: the queue's rate in bits/s (1 kb/s at least,
    /// 100 Mb/s at most); the matrix grows to the order of its weight.
    pub fn set_rate(&mut self, queue: i32, rate: i32) -> Result<(), String> {
        if !(0..MAX_FLOWS as i32).contains(&queue) {
            return Err(format!("setrate: queues are 0 to {}, got {queue} (ns-2 writes outside its table)", MAX_FLOWS - 1));
        }
        if rate > 100_000_000 {
            return Err(format!("setrate: a queue's rate is at most 100000000 bits/s, got {rate} (ns-2 exits)"));
        }
        if self.granularity <= 0 {
            return Err(format!("setrate: the granularity must be positive, is {} (ns-2 divides by it)", self.granularity));
        }
        self.min_quantum = self.min_quantum.min(rate);
        let r = rate.max(1000);
        let w = (r / self.granularity).max(1);
        let o = order(w);
        if o > MAX_ORDER - 1 {
            return Err(format!("setrate: rate {rate} over the granularity {} is a weight of order {o}, above {} \
                                (ns-2 exits)", self.granularity, MAX_ORDER - 1));
        }
        self.rate[queue as usize] = r;
        self.max_column = self.max_column.max(o);
        Ok(())
    }

    /// `blimit N`: refused when more bytes than that are held (ns-2 exits).
    pub fn set_blimit(&mut self, b: i32) -> Result<(), String> {
        if self.bytecnt > b {
            return Err(format!("blimit: {} bytes are queued, more than {b} (ns-2 exits)", self.bytecnt));
        }
        self.blimit = b;
        Ok(())
    }

    fn alloc(&mut self, n: Node) -> usize {
        match self.free.pop() {
            Some(i) => {
                self.nodes[i] = n;
                i
            }
            None => {
                self.nodes.push(n);
                self.nodes.len() - 1
            }
        }
    }

    fn column_empty(&self, c: usize) -> bool {
        self.nodes[head(c)].next == tail(c)
    }

    fn wss_get(&self, order: usize) -> Result<usize, String> {
        if self.ptr as i64 > (1i64 << order) - 2 {
            return Err(format!("SRR: weight spread sequence pointer {} past order {order} (ns-2 exits)", self.ptr));
        }
        Ok(wss_term(self.ptr))
    }

    fn wss_inc(&mut self, order: usize) {
        self.ptr += 1;
        if self.ptr as i64 > (1i64 << order) - 2 {
            self.ptr = 0;
        }
    }

    /// The first node of the next non-empty column the WSS names.
    fn next_column(&mut self) -> Result<usize, String> {
        let order = (self.curr_max_column + 1) as usize;
        loop {
            let term = self.wss_get(order)?;
            self.wss_inc(order);
            let c = order - term;
            if !self.column_empty(c) {
                return Ok(self.nodes[head(c)].next);
            }
        }
    }

    /// `add_to_WM`: queue `q` becomes busy with weight `w`.
    fn add(&mut self, q: usize, w: i32) -> Result<(), String> {
        let old = self.curr_max_column;
        if w == 0 {
            return Err(format!("SRR: queue {q} has weight 0 (its rate below the granularity; ns-2 exits)"));
        }
        if w as i64 > (1i64 << (self.max_column + 1)) - 1 {
            return Err(format!("SRR: queue {q}'s weight {w} exceeds the matrix (give its rate with setrate; ns-2 exits)"));
        }
        for i in (0..=self.max_column).rev() {
            if w & (1 << i) == 0 {
                continue;
            }
            let n = self.alloc(Node { queue: q as i32, col: i, prev: NIL, next: NIL, sibling: NIL });
            match self.rows[q] {
                (NIL, _) => self.rows[q] = (n, n),
                (h, t) => {
                    self.nodes[t].sibling = n;
                    self.rows[q] = (h, n);
                }
            }
            let (prev, next) = if self.curr != NIL && self.nodes[self.curr].col == i {
                (self.nodes[self.curr].prev, self.curr)
            } else {
                (self.nodes[tail(i)].prev, tail(i))
            };
            self.nodes[n].prev = prev;
            self.nodes[n].next = next;
            self.nodes[prev].next = n;
            self.nodes[next].prev = n;
            if self.curr_max_column < i as i32 {
                self.curr_max_column = i as i32;
            }
            if self.empty {
                self.empty = false;
                if self.curr == NIL {
                    self.curr = n;
                }
            }
        }
        if old < self.curr_max_column && old >= 0 {
            let pc = (self.ptr as i64 + 1) << (self.curr_max_column - old);
            self.ptr = (pc - 1) as u32;
        }
        Ok(())
    }

    /// `del_from_WM`: queue `q` is empty.
    fn remove(&mut self, q: usize) -> Result<(), String> {
        if self.curr != NIL && self.nodes[self.curr].queue == q as i32 {
            let c = self.curr;
            self.curr = if self.nodes[c].next != tail(self.nodes[c].col) { self.nodes[c].next } else { NIL };
        }
        let mut n = self.rows[q].0;
        while n != NIL {
            let Node { prev, next, sibling, .. } = self.nodes[n];
            self.nodes[prev].next = next;
            self.nodes[next].prev = prev;
            self.free.push(n);
            n = sibling;
        }
        self.rows[q] = (NIL, NIL);
        let old = self.curr_max_column;
        let top = (0..=old.max(-1)).rev().find(|&c| !self.column_empty(c as usize));
        match top {
            None => {
                self.empty = true;
                self.curr_max_column = -1;
                self.curr = NIL;
                self.last_queue = -1;
                self.ptr = 0;
                return Ok(());
            }
            Some(c) => {
                self.curr_max_column = c;
                if c < old {
                    let pc = self.ptr as i64 + 1;
                    let mul = 1i64 << (old - c);
                    let mut tmpc = pc / mul;
                    if pc % mul != 0 {
                        tmpc += 1;
                        if tmpc > (1i64 << (c + 1)) - 1 {
                            tmpc = 1;
                        }
                    }
                    self.ptr = (tmpc - 1) as u32;
                }
            }
        }
        if self.curr == NIL {
            self.curr = self.next_column()?;
        }
        Ok(())
    }

    /// `getNextNode`: the turn passes to the next node.
    fn next_node(&mut self) -> Result<(), String> {
        if self.bytecnt == 0 {
            return Ok(());
        }
        let c = self.curr;
        if self.nodes[c].next != tail(self.nodes[c].col) {
            self.curr = self.nodes[c].next;
        } else {
            self.curr = self.next_column()?;
        }
        Ok(())
    }

    /// The first part of ns-2's dequeue: the packet sent last leaves its
    /// queue's counts (and an emptied queue the matrix).
    fn settle_last(&mut self) -> Result<(), String> {
        if self.last_queue >= 0 {
            let lq = self.last_queue as usize;
            let q = &mut self.queues[lq];
            q.bcount -= self.last_size;
            q.pkts -= 1;
            self.pktcnt -= 1;
            self.bytecnt -= self.last_size;
            if q.pkts == 0 {
                q.turn = false;
                q.deficit = 0;
                self.remove(lq)?;
            }
        }
        if self.pktcnt == 0 {
            self.last_queue = -1;
        }
        Ok(())
    }

    fn deque(&mut self, w: &mut World) -> Result<Option<PktId>, String> {
        self.settle_last()?;
        if self.pktcnt == 0 {
            return Ok(None);
        }
        if self.curr == NIL {
            return Err("SRR: packets queued but no queue in the weight matrix (ns-2 exits)".into());
        }
        loop {
            let qi = self.nodes[self.curr].queue as usize;
            let mtu = self.mtu;
            let q = &mut self.queues[qi];
            let Some(p) = q.fifo.get(0) else {
                return Err(format!("SRR: queue {qi} is in the weight matrix with no packet (ns-2 exits)"));
            };
            if !q.turn {
                q.deficit += mtu;
                q.turn = true;
            }
            let size = w.pool.get(p).size;
            if q.deficit >= size {
                q.deficit -= size;
                q.fifo.pop(&w.pool);
                self.last_size = size;
                self.last_queue = qi as i32;
                self.held -= 1;
                self.held_bytes -= size as i64;
                return Ok(Some(p));
            }
            q.turn = false;
            self.next_node()?;
        }
    }
}

impl Discipline for Srr {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        let (fid, size) = (w.pool.get(p).fid, w.pool.get(p).size);
        if !(0..MAX_FLOWS as i32).contains(&fid) {
            w.abort(crate::notice::Abort::Front(format!(
                "smoothed round robin maps flows 0 to {} to its queues; a packet of flow {fid} arrived \
                 (ns-2 reads outside its table)", MAX_FLOWS - 1)));
            return Verdict::Dropped(p);
        }
        let qi = self.f2q[fid as usize];
        if qi > self.max_queues {
            w.abort(crate::notice::Abort::Front(format!(
                "smoothed round robin: flow {fid} maps to queue {qi}, above the highest queue number, {} (ns-2 exits)", self.max_queues)));
            return Verdict::Dropped(p);
        }
        let q = &mut self.queues[qi as usize];
        if q.pkts == cap.limit {
            return Verdict::Dropped(p);
        }
        q.fifo.push(&w.pool, p);
        q.pkts += 1;
        q.bcount += size;
        self.pktcnt += 1;
        self.bytecnt += size;
        self.held += 1;
        self.held_bytes += size as i64;
        if q.pkts == 1 {
            let weight = if self.granularity != 0 { self.rate[qi as usize] / self.granularity } else { 0 };
            if let Err(e) = self.add(qi as usize, weight) {
                w.abort(crate::notice::Abort::Front(e));
            }
            self.queues[qi as usize].deficit = 0;
        }
        Verdict::Queued
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        match self.deque(w) {
            Ok(p) => p,
            Err(e) => {
                w.abort(crate::notice::Abort::Front(e));
                None
            }
        }
    }

    /// The dequeue that found nothing to send when the link went idle
    /// (learnt late): the last packet sent leaves its queue's counts.
    fn link_idle(&mut self, _now: f64) {
        // errors here cannot happen: the matrix holds the queue being settled
        let _ = self.settle_last();
    }

    fn len(&self) -> usize {
        self.held
    }

    fn bytes(&self) -> i64 {
        self.held_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(w: &mut World, fid: i32, size: i32) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.fid = fid;
        pk.size = size;
        p
    }

    #[test]
    fn wss_is_trailing_zeros_plus_one() {
        let got: Vec<usize> = (0..7).map(wss_term).collect();
        assert_eq!(got, [1, 2, 1, 3, 1, 2, 1]);
        assert_eq!(order(1), 0);
        assert_eq!(order(8), 3);
        assert_eq!(order(15), 3);
    }

    /// Four backlogged queues of weights 8, 4, 2, 1 get sends in those
    /// proportions.
    #[test]
    fn sends_follow_the_weights() {
        let mut w = World::new_for_tests();
        let mut s = Srr::new();
        s.mtu = 250;
        s.granularity = 10000;
        s.max_queues = 256;
        for (f, q, r) in [(1, 0, 80000), (2, 1, 40000), (3, 2, 20000), (4, 3, 10000)] {
            s.set_queue(f, q).unwrap();
            s.set_rate(q, r).unwrap();
        }
        let cap = Capacity { limit: 1000, ..Capacity::default() };
        let mut d = Drops::default();
        for _ in 0..200 {
            for f in 1..=4 {
                let p = pkt(&mut w, f, 250);
                assert_eq!(s.enqueue(&cap, &mut w, p, &mut d), Verdict::Queued);
            }
        }
        let mut count = [0; 5];
        for _ in 0..150 {
            let p = s.dequeue(&mut w, &mut d).unwrap();
            count[w.pool.get(p).fid as usize] += 1;
        }
        assert_eq!(&count[1..], &[80, 40, 20, 10]);
    }

    /// A sent packet counts against its queue's limit until the next
    /// dequeue.
    #[test]
    fn the_last_packet_sent_counts_until_the_next_dequeue() {
        let mut w = World::new_for_tests();
        let mut s = Srr::new();
        let cap = Capacity { limit: 2, ..Capacity::default() };
        let mut d = Drops::default();
        let a = pkt(&mut w, 0, 100);
        s.enqueue(&cap, &mut w, a, &mut d);
        assert_eq!(s.dequeue(&mut w, &mut d), Some(a));
        assert_eq!(s.len(), 0);
        let b = pkt(&mut w, 0, 100);
        assert_eq!(s.enqueue(&cap, &mut w, b, &mut d), Verdict::Queued);
        let c = pkt(&mut w, 0, 100);
        assert_eq!(s.enqueue(&cap, &mut w, c, &mut d), Verdict::Dropped(c), "a is still counted");
        s.link_idle(1.0);
        let c2 = pkt(&mut w, 0, 100);
        assert_eq!(s.enqueue(&cap, &mut w, c2, &mut d), Verdict::Queued);
    }
}
