//! The scheduler's priority queue of heap entries.
//!
//! Entries are 16 bytes: `t`, the bit pattern of the event time (event
//! times are never negative, and the bit patterns of non-negative doubles
//! order exactly like their values), and `s`, the sequence number shifted
//! left with the event's slot in the low bits.  Sequence numbers are unique,
//! so `(t, s)` orders entries exactly by `(time, seq)`.
//!
//! Most events schedule a successor a little later than now: a pipe's next
//! packet, the next hop of a packet.  Measured on the benchmark grids, the
//! new entry usually ranks among the first ten of the ~50 pending (16
//! flows) or few hundred (128 flows).  So the smallest entries are kept in
//! a short sorted array (`front`, largest first, the minimum at the end):
//! taking the minimum is a `pop`, and inserting near the front shifts only
//! the few entries smaller than the new one.  Everything else waits in a
//! 4-ary heap (`heap`).  Invariant: every entry of `front` is smaller than
//! every entry of `heap`.  `front` is refilled from the heap when it runs
//! empty and spills its larger half into the heap when it grows too long.

/// A pending event: time bits and `seq << SLOT_BITS | slot`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub t: u64,
    pub s: u64,
}

impl Entry {
    #[inline(always)]
    pub fn k(self) -> u128 {
        ((self.t as u128) << 64) | self.s as u128
    }

    #[inline(always)]
    fn lt(self, o: Entry) -> bool {
        self.t < o.t || (self.t == o.t && self.s < o.s)
    }
}

/// Longest `front` (entries): replayed heap traces of the bench grids ran
/// fastest with 128 (16, 128 and 1024 flows).
const FRONT_MAX: usize = 128;
/// Heap arity.
const D: usize = 4;

#[derive(Debug, Default)]
pub(crate) struct EventQueue {
    front: Vec<Entry>,
    heap: Vec<Entry>,
}

impl EventQueue {
    pub fn new() -> EventQueue {
        EventQueue { front: Vec::with_capacity(FRONT_MAX + 1), heap: Vec::with_capacity(1024) }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.front.len() + self.heap.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.front.is_empty() && self.heap.is_empty()
    }

    /// The smallest entry.
    #[inline]
    pub fn peek(&self) -> Option<Entry> {
        match self.front.last() {
            Some(&e) => Some(e),
            None => self.heap.first().copied(),
        }
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.front.iter().chain(self.heap.iter())
    }

    #[inline(always)]
    pub fn push(&mut self, e: Entry) {
        match self.heap.first() {
            Some(&h) if !e.lt(h) => self.heap_push(e),
            _ => self.front_insert(e),
        }
    }

    /// Remove the smallest entry (the queue must not be empty).
    #[inline]
    pub fn pop_min(&mut self) {
        if self.front.pop().is_none() {
            self.heap_pop();
        }
        if self.front.is_empty() && !self.heap.is_empty() {
            self.refill();
        }
    }

    /// Remove the smallest entry and insert `e`.
    #[inline]
    pub fn replace_min(&mut self, e: Entry) {
        if self.front.pop().is_none() {
            self.heap_pop();
        }
        self.push(e);
        if self.front.is_empty() && !self.heap.is_empty() {
            self.refill();
        }
    }

    /// Insertion into the sorted front: shift the smaller entries (at the
    /// end) up by one while looking for the place; times first, then, among
    /// equal times, sequence numbers.
    #[inline(always)]
    fn front_insert(&mut self, e: Entry) {
        self.front.push(e);
        let n = self.front.len();
        let f = self.front.as_mut_ptr();
        let mut j = n - 1;
        // SAFETY: 0 <= j - 1 < j <= n - 1 < len inside the loops.
        unsafe {
            while j > 0 && (*f.add(j - 1)).t < e.t {
                *f.add(j) = *f.add(j - 1);
                j -= 1;
            }
            while j > 0 && (*f.add(j - 1)).t == e.t && (*f.add(j - 1)).s < e.s {
                *f.add(j) = *f.add(j - 1);
                j -= 1;
            }
            *f.add(j) = e;
        }
        if n > FRONT_MAX {
            self.spill();
        }
    }

    /// Move the larger half of the front into the heap.
    #[cold]
    #[inline(never)]
    fn spill(&mut self) {
        let m = self.front.len() / 2;
        for i in 0..m {
            let e = self.front[i];
            self.heap_push(e);
        }
        self.front.drain(..m);
    }

    /// The front ran empty: move the smallest heap entries into it.
    #[inline(never)]
    fn refill(&mut self) {
        let m = (FRONT_MAX / 2).min(self.heap.len());
        let mut tmp = [Entry { t: 0, s: 0 }; FRONT_MAX / 2];
        for slot in tmp.iter_mut().take(m) {
            *slot = self.heap[0];
            self.heap_pop();
        }
        // Ascending order of removal; the front keeps the minimum at the end.
        self.front.extend(tmp[..m].iter().rev());
    }

    #[inline(always)]
    fn at(&self, i: usize) -> Entry {
        debug_assert!(i < self.heap.len());
        // SAFETY: callers index within 0..heap.len().
        unsafe { *self.heap.get_unchecked(i) }
    }

    #[inline(always)]
    fn set_at(&mut self, i: usize, e: Entry) {
        debug_assert!(i < self.heap.len());
        // SAFETY: callers index within 0..heap.len().
        unsafe { *self.heap.get_unchecked_mut(i) = e }
    }

    fn heap_push(&mut self, e: Entry) {
        self.heap.push(e);
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / D;
            let pe = self.at(parent);
            if e.lt(pe) {
                self.set_at(i, pe);
                i = parent;
            } else {
                break;
            }
        }
        self.set_at(i, e);
    }

    fn heap_pop(&mut self) {
        let last = self.heap.pop().expect("event queue not empty");
        if self.heap.is_empty() {
            return;
        }
        // Move `last` down from the root.  Children are compared by time
        // alone; equal times take the exact path.
        let n = self.heap.len();
        let e = last;
        let mut i = 0;
        loop {
            let first = D * i + 1;
            if first + D <= n {
                let (t0, t1, t2, t3) = (self.at(first).t, self.at(first + 1).t, self.at(first + 2).t, self.at(first + 3).t);
                let (a, ta) = if t1 < t0 { (1, t1) } else { (0, t0) };
                let (c, tc) = if t3 < t2 { (3, t3) } else { (2, t2) };
                let (mut m, _) = if tc < ta { (c, tc) } else { (a, ta) };
                if (t0 == t1) | (t2 == t3) | (ta == tc) {
                    m = self.min_child_exact(first, first + D) - first;
                }
                let child = self.at(first + m);
                if child.lt(e) {
                    self.set_at(i, child);
                    i = first + m;
                    continue;
                }
                break;
            }
            if first < n {
                let m = self.min_child_exact(first, n);
                let child = self.at(m);
                if child.lt(e) {
                    self.set_at(i, child);
                    i = m;
                }
            }
            break;
        }
        self.set_at(i, e);
    }

    /// Remove the entry equal to `e`, if present (rare: a link going down
    /// cancels its packets in flight).  Rebuilds the queue, O(n log n).
    #[cold]
    pub fn remove(&mut self, e: Entry) -> bool {
        let n = self.len();
        let rest: Vec<Entry> = self.iter().copied().filter(|x| x.k() != e.k()).collect();
        if rest.len() == n {
            return false;
        }
        self.front.clear();
        self.heap.clear();
        for x in rest {
            self.push(x);
        }
        true
    }

    /// Index of the smallest entry in `from..to` by the full key.
    fn min_child_exact(&self, from: usize, to: usize) -> usize {
        let mut m = from;
        let mut mk = self.at(from).k();
        for c in from + 1..to {
            let k = self.at(c).k();
            if k < mk {
                m = c;
                mk = k;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a sorted list: random pushes, pops and replacements with
    /// many equal times, through sizes that make the front spill and refill.
    #[test]
    fn pops_in_key_order() {
        let mut state: u64 = 7;
        let mut rnd = |m: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        for round in 0..40 {
            let mut q = EventQueue::new();
            let mut model: Vec<(u64, u64)> = Vec::new();
            let mut seq = 0u64;
            let size = [5u64, 50, 300][round % 3];
            for _ in 0..4000 {
                let op = rnd(10);
                if op < 4 || model.is_empty() || (model.len() as u64) < size / 2 {
                    seq += 1;
                    let e = Entry { t: rnd(size), s: seq };
                    q.push(e);
                    model.push((e.t, e.s));
                } else if op < 7 {
                    seq += 1;
                    let e = Entry { t: rnd(size) + model[0].0, s: seq };
                    q.replace_min(e);
                    model.remove(0);
                    model.push((e.t, e.s));
                } else {
                    q.pop_min();
                    model.remove(0);
                }
                if op == 9 && model.len() > 2 {
                    // remove an arbitrary entry
                    let i = rnd(model.len() as u64) as usize;
                    let (t, s) = model.remove(i);
                    assert!(q.remove(Entry { t, s }));
                    assert!(!q.remove(Entry { t, s }));
                }
                model.sort();
                assert_eq!(q.len(), model.len());
                assert_eq!(q.peek().map(|e| (e.t, e.s)), model.first().copied());
            }
        }
    }
}
