//! The scheduler's priority queue of heap entries.
//!
//! Entries are 16 bytes: `t`, the bit pattern of the event time (event
//! times are never negative, and the bit patterns of non-negative doubles
//! order exactly like their values), and `s`, the sequence number shifted
//! left with the event's slot in the low bits.  Sequence numbers are unique,
//! so `(t, s)` orders entries exactly by `(time, seq)`.
//!
//! # A calendar of narrow buckets
//!
//! Most events schedule a successor a little later than now: a pipe's next
//! packet, the next hop of a packet.  On the benchmark grids half the new
//! entries land within eight mean inter-event gaps of the minimum and nine
//! in ten within fifty, and a new entry ranks around the seventh of the
//! ~45 (16 flows) to ~1400 (1024 flows) pending.  A sorted array pays for
//! that rank by shifting the entries it passes, a heap by sifting through
//! its levels; a calendar of time buckets pays for neither:
//!
//! * A bucket is `2^shift` consecutive time bit patterns: the bucket of an
//!   entry is `t >> shift` ([`EventQueue::bucket`]), which never decreases
//!   as the time grows, so every entry of a bucket is smaller than every
//!   entry of a later bucket.  (In seconds a bucket is twice as wide in
//!   `[2, 4)` as in `[1, 2)`; the tuning below follows.)
//! * The ring holds `mask + 1` buckets from `base`, the bucket of the last
//!   entry taken; absolute bucket `b` is ring bucket `b & mask`, and `cur`
//!   is the first non-empty one.  A bucket is a list of nodes sorted by the
//!   full key `(t, s)`, so equal and close times keep their exact order.
//!   Buckets are an eighth to a quarter of the mean gap between two events
//!   wide, so an entry usually finds its bucket empty (85 to 90% of insertions
//!   on the grids) and becomes its list; the others are mostly equal times
//!   scheduled one after the other, appended after the list's last node
//!   (which its first node records), and only the rare rest walks the list.
//!   A walk starts at the head, or at the node the last insertion into the
//!   middle or the front of a list linked when that holds the same time and
//!   an earlier sequence number: a long run of equal times in front of a
//!   later entry of its bucket (a CBR source sending a million packets
//!   into a LAN in one event) then grows by one step per entry, not by a
//!   walk of the whole run.
//! * A bitmap of the non-empty buckets leads from a bucket that runs empty
//!   to the next minimum without looking at the empty buckets between.
//! * Entries beyond the ring's reach (retransmission timers, a Tcl callback
//!   at the end of the run, a packet on a long idle link) wait in a 4-ary
//!   heap, `far`.  A `far` entry's bucket is beyond `base + mask`, so it is
//!   larger than everything in the ring; when `base` comes close enough, it
//!   moves into the ring.
//!
//! Taking the minimum unlinks the first node of bucket `cur` and, when that
//! leaves the bucket empty, clears its bit and moves `cur` to the next set
//! bit (in the same or the next bitmap word, each of 64 buckets; beyond is a
//! cold path).  Inserting stores the node in its bucket and sets its bit.
//! Neither depends on how many entries are pending.  The minimum itself is
//! kept in `min` as soon as it is known, so that the scheduler's next
//! `peek`, which decides what to dispatch, does not wait for the chain of
//! loads that finds it (docs/performance.md).
//!
//! # Tuning
//!
//! Widths and ring lengths that suit 2 flows at 100 Mb/s do not suit 1024
//! flows at 10 Gb/s, so the queue measures itself: after [`TUNE_POPS`]
//! pops, the next time the minimum leaves its bitmap word or takes the slow path (sooner if insertions pass many nodes or push many entries just
//! beyond the ring) it compares its bucket width with the mean time between
//! pops and its ring with how many entries fell just beyond it, and
//! rebuilds itself when the width is off by a factor of four or more, or
//! too many entries missed the ring (a ring four times as long), or few did
//! and the ring is almost empty (a quarter).  The mean gap misleads when
//! events come in bursts; insertions that pass nodes of other times show
//! it (when the mean gap does not already ask for narrower buckets), and
//! then the buckets narrow fourfold and stay narrow for a while.
//! A rebuild re-inserts the ring's entries in order (`far` stays as it is),
//! a handful of times per run.  The order of the entries never depends on
//! these choices, only the cost.

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
        self.k() < o.k()
    }
}

/// No node: the end of a list, an empty bucket.
const NIL: u32 = u32::MAX;
/// The time bits of a node on the free list (a negative NaN: no event time).
const FREE_T: u64 = u64::MAX;
/// `cur` when the ring is empty (so that any insertion lowers it).
const EMPTY_RING: u64 = u64::MAX;
/// `min` of an empty queue: after every entry.
const NO_MIN: Entry = Entry { t: FREE_T, s: u64::MAX };

/// An entry and the next node of its bucket (or of the free list).
#[derive(Clone, Copy, Debug)]
struct Node {
    e: Entry,
    next: u32,
    /// In the first node of a list: the last node (kept here rather than
    /// beside `heads`, where it would cost a cache line of its own).
    last: u32,
}

/// Shortest, first and longest ring (buckets; powers of two, at least 64).
const MIN_BUCKETS: usize = 64;
const START_BUCKETS: usize = 1024;
const MAX_BUCKETS: usize = 1 << 17;
/// Pops between two looks at the width and the ring.
const TUNE_POPS: u64 = 8192;
/// Buckets per mean gap between pops, as a power of two.
const NARROW: u32 = 2;
/// The ring grows fourfold when more than one pop in `SPILL_GROW` pushed
/// an entry just beyond it (that a ring four times as long would have
/// held: entries far beyond, like timers, do not count), and shrinks
/// fourfold (not below `START_BUCKETS`) when fewer than one in
/// `SPILL_SHRINK` did and it has more than `SPARSE` buckets per entry,
/// unless it grew in the last `NO_SHRINK_AFTER_GROWTH` tunings.  (The
/// entries of the ring are no guide to its length: most of those pending
/// at any time lie far ahead, while most of those inserted land near.)
const SPILL_GROW: u64 = 32;
const SPILL_SHRINK: u64 = 256;
const SPARSE: usize = 1024;
const NO_SHRINK_AFTER_GROWTH: u32 = 8;
/// When insertions passed more nodes of other times than there were pops,
/// the buckets narrow fourfold (whatever the mean gap between pops says)
/// and may not widen again for `NARROW_AFTER_WALKS` tunings.
const NARROW_AFTER_WALKS: u32 = 32;
/// Fewest pops to measure the gap between them over.
const MIN_TUNE_POPS: u64 = 64;
/// Nodes passed by insertions, and entries pushed just beyond the ring,
/// that ask for a tuning before the next regular one.
const WALK_BUDGET: u64 = 4096;
const FAR_BUDGET: u64 = 1024;
/// Heap arity of `far` (`heap_pop` compares four children at a time).
const D: usize = 4;
const _: () = assert!(D == 4);

#[derive(Debug)]
pub(crate) struct EventQueue {
    /// First node of each bucket's list (`NIL`: empty).
    heads: Vec<u32>,
    /// One bit per bucket: set when its list is not empty (or, for a bucket
    /// just emptied, until `settle` looks at it).
    occupied: Vec<u64>,
    /// The nodes; unused ones are chained from `free`.
    nodes: Vec<Node>,
    free: u32,
    /// The node the last insertion into the middle or the front of a list
    /// linked (`NIL`: none since the last `reset`).  Every node that holds
    /// an event time is linked in its bucket's list (save one being
    /// inserted, which holds the entry being inserted), and equal times
    /// share a bucket, so when this node holds the time of a new entry and
    /// an earlier sequence number, the new entry's place is after it: its
    /// walk may start there.  No upkeep when the node is taken or reused.
    run: u32,
    /// Number of buckets - 1.
    mask: u64,
    /// The ring's first bucket: that of the last entry taken (after a
    /// rebuild, the new bucket of the first time bits of the old one).  No
    /// entry, queued or to come, lies before it (unless times go backwards,
    /// see `insert`), and every entry of the ring lies in
    /// `base..=base + mask`.
    base: u64,
    /// Absolute bucket number of the minimum (`>= base`), or `EMPTY_RING`.
    cur: u64,
    shift: u32,
    /// Entries in the queue.
    len: usize,
    /// The smallest entry (`NO_MIN` if none) and its node (`NIL` if it is
    /// in `far`), kept up to date so that `peek` is a single load.
    min: Entry,
    min_node: u32,
    /// Entries beyond the ring, a 4-ary heap.
    far: Vec<Entry>,
    /// `settle` takes its slow path once `cur` reaches this: the first
    /// `far` entry may then be within the ring's reach (or a tuning is due).
    slow_at: u64,
    /// Pops so far; pops and the minimum's time bits at the last tuning;
    /// when the next is due; since the last, pushes into `far` that a ring
    /// four times as long would have held, and nodes passed by insertions.
    pops: u64,
    tune_pops: u64,
    tune_t: u64,
    tune_at: u64,
    near_misses: u64,
    walked: u64,
    /// Tunings to come that may not shrink the ring (it grew lately), and
    /// that may not widen the buckets beyond `shift_cap` (insertions had to
    /// pass many nodes).
    no_shrink: u32,
    narrow_for: u32,
    shift_cap: u32,
    /// A tuning is due as soon as `MIN_TUNE_POPS` pops allow; until then
    /// every `settle` takes its slow path.
    tune_forced: bool,
    /// Nodes passed by insertions' walks, equal times included (tests only:
    /// they check that a walk does not grow with a run of equal times).
    #[cfg(test)]
    passed: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl EventQueue {
    pub fn new() -> EventQueue {
        let mut q = EventQueue {
            heads: Vec::new(),
            occupied: Vec::new(),
            nodes: Vec::new(),
            free: NIL,
            run: NIL,
            mask: 0,
            base: 0,
            cur: EMPTY_RING,
            shift: 0,
            len: 0,
            min: NO_MIN,
            min_node: NIL,
            far: Vec::new(),
            slow_at: u64::MAX,
            pops: 0,
            tune_pops: 0,
            tune_t: 0,
            // The first look comes early: the initial width is a guess.
            tune_at: 256,
            near_misses: 0,
            walked: 0,
            no_shrink: 0,
            narrow_for: 0,
            shift_cap: 0,
            tune_forced: false,
            #[cfg(test)]
            passed: 0,
        };
        // Buckets of 2^34 bit patterns (about 4 us at one second); both
        // guesses that the first tunings correct.
        q.reset(START_BUCKETS, 34);
        q
    }

    /// Empty ring of `n` buckets of `2^shift` time bit patterns each, no
    /// nodes, no `far`.
    fn reset(&mut self, n: usize, shift: u32) {
        debug_assert!(n.is_power_of_two() && n >= 64);
        self.heads.clear();
        self.heads.resize(n, NIL);
        self.occupied.clear();
        self.occupied.resize(n / 64, 0);
        self.nodes.clear();
        self.free = NIL;
        self.run = NIL;
        self.mask = n as u64 - 1;
        self.base = 0;
        self.cur = EMPTY_RING;
        self.shift = shift;
        self.len = 0;
        self.min = NO_MIN;
        self.min_node = NIL;
        self.far.clear();
        self.slow_at = u64::MAX;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Minimum entries removed so far (`pop_min` and `replace_min`).
    pub fn pops(&self) -> u64 {
        self.pops
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bucket of time bits `t`.
    #[inline(always)]
    fn bucket(&self, t: u64) -> u64 {
        t >> self.shift
    }

    #[inline(always)]
    fn ring_index(&self, b: u64) -> usize {
        (b & self.mask) as usize
    }

    #[inline(always)]
    fn head(&self, i: usize) -> u32 {
        debug_assert!(i < self.heads.len());
        // SAFETY: `i` is a ring index (masked).
        unsafe { *self.heads.get_unchecked(i) }
    }

    #[inline(always)]
    fn head_mut(&mut self, i: usize) -> &mut u32 {
        debug_assert!(i < self.heads.len());
        // SAFETY: as in `head`.
        unsafe { self.heads.get_unchecked_mut(i) }
    }

    #[inline(always)]
    fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: heads, links and `free` name nodes of `nodes`.
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: as in `node`.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn word_mut(&mut self, i: usize) -> &mut u64 {
        debug_assert!(i >> 6 < self.occupied.len());
        // SAFETY: one bit per bucket, and `i` is a ring index.
        unsafe { self.occupied.get_unchecked_mut(i >> 6) }
    }

    /// The smallest entry.
    #[inline]
    pub fn peek(&self) -> Option<Entry> {
        if self.min.t == FREE_T {
            return None;
        }
        Some(self.min)
    }

    /// Set `min` and `min_node` from scratch.
    fn refresh_min(&mut self) {
        let h = if self.cur == EMPTY_RING { NIL } else { self.head(self.ring_index(self.cur)) };
        self.min_node = h;
        self.min = match self.far.first() {
            _ if h != NIL => self.node(h).e,
            Some(&f) => f,
            None => NO_MIN,
        };
    }

    /// Every entry, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.nodes.iter().filter(|n| n.e.t != FREE_T).map(|n| &n.e).chain(self.far.iter())
    }

    #[inline(always)]
    pub fn push(&mut self, e: Entry) {
        // All-ones time bits mark a free node (event times are never
        // negative, so no real entry has them).
        debug_assert!(e.t != FREE_T, "event time bits reserved for free nodes");
        self.len += 1;
        let n = self.alloc();
        self.insert::<true>(e, n);
    }

    /// Remove the smallest entry (the queue must not be empty).
    #[inline]
    pub fn pop_min(&mut self) {
        let h = self.unlink_min();
        self.len -= 1;
        self.release(h);
        self.settle();
    }

    /// Remove the smallest entry and insert `e`.
    #[inline]
    pub fn replace_min(&mut self, e: Entry) {
        let h = self.unlink_min();
        // `cur` is `base` and stays the minimum's bucket.
        self.insert::<false>(e, h);
        self.settle();
    }

    /// Unlink the first node of bucket `cur` and return it; the bucket
    /// becomes the ring's base.  If that leaves it empty, its bit and
    /// `cur` are left to `settle`.
    #[inline(always)]
    fn unlink_min(&mut self) -> u32 {
        self.pops += 1;
        let mut h = self.min_node;
        if h == NIL {
            // The ring is empty: the minimum is `far`'s.
            self.restart_ring();
            h = self.min_node;
        }
        let bi = self.ring_index(self.cur);
        self.base = self.cur;
        let next = self.node(h).next;
        *self.head_mut(bi) = next;
        if next != NIL {
            // The new first node keeps the last.
            self.node_mut(next).last = self.node(h).last;
        }
        h
    }

    #[inline(always)]
    fn alloc(&mut self) -> u32 {
        let i = self.free;
        if i == NIL {
            self.nodes.push(Node { e: Entry { t: FREE_T, s: 0 }, next: NIL, last: NIL });
            return (self.nodes.len() - 1) as u32;
        }
        self.free = self.node(i).next;
        i
    }

    #[inline(always)]
    fn release(&mut self, i: u32) {
        let free = self.free;
        let n = self.node_mut(i);
        n.e.t = FREE_T;
        n.next = free;
        self.free = i;
    }

    /// Put `e` in node `n` and link it into its bucket (or `far`).
    /// `LOWER`: a push, which may come before the minimum.  (A replacement
    /// comes after the entry it replaces, in bucket `cur` or later, and
    /// `settle` then finds the minimum.)
    #[inline(always)]
    fn insert<const LOWER: bool>(&mut self, e: Entry, n: u32) {
        let mut b = self.bucket(e.t);
        if b.wrapping_sub(self.base) > self.mask {
            if b > self.base {
                return self.push_far(e, b, n);
            }
            // Before the last entry taken (only if times go backwards):
            // into bucket `base`, whose list keeps it in order.
            b = self.base;
        }
        if LOWER {
            self.cur = self.cur.min(b);
            if e.lt(self.min) {
                self.min = e;
                self.min_node = n;
            }
        }
        let bi = self.ring_index(b);
        self.node_mut(n).e = e;
        let h = self.head(bi);
        if h == NIL {
            let nd = self.node_mut(n);
            nd.next = NIL;
            nd.last = n;
            *self.head_mut(bi) = n;
            *self.word_mut(bi) |= 1 << (bi & 63);
        } else {
            self.insert_sorted(bi, h, e, n);
        }
    }

    /// Link node `n` (holding `e`) into the list of bucket `bi`, which
    /// starts with node `h`.
    #[cold]
    #[inline(never)]
    fn insert_sorted(&mut self, bi: usize, h: u32, e: Entry, n: u32) {
        let last = self.node(h).last;
        if !e.lt(self.node(last).e) {
            // After the last: an equal time scheduled later, the usual case.
            self.node_mut(n).next = NIL;
            self.node_mut(last).next = n;
            self.node_mut(h).last = n;
            return;
        }
        let run = std::mem::replace(&mut self.run, n);
        if e.lt(self.node(h).e) {
            let nd = self.node_mut(n);
            nd.next = h;
            nd.last = last;
            *self.head_mut(bi) = n;
            return;
        }
        // Between the first and the last: after the previous such insertion
        // if that is an earlier entry of the same time (still in this list,
        // see `run`), else after the first.
        let mut p = h;
        if run != NIL {
            let r = self.node(run).e;
            if r.t == e.t && r.lt(e) {
                p = run;
            }
        }
        loop {
            let q = self.node(p).next;
            let qe = self.node(q).e;
            if e.lt(qe) {
                self.node_mut(n).next = q;
                self.node_mut(p).next = n;
                break;
            }
            // (Equal times do not count: no width would part them.)
            self.walked += (qe.t != e.t) as u64;
            #[cfg(test)]
            {
                self.passed += 1;
            }
            p = q;
        }
        if self.walked > WALK_BUDGET {
            // Buckets too wide for the times: tune at the next settle.
            self.tune_soon();
        }
    }

    /// After a pop: if bucket `cur` is empty, clear its bit and move `cur`
    /// to the next non-empty bucket.
    #[inline(always)]
    fn settle(&mut self) {
        let bi = self.ring_index(self.cur);
        let h = self.head(bi);
        if h != NIL {
            // Bucket `cur` still holds entries (its bit is set): the
            // minimum is its first, found without the bitmap (one pop in
            // eight on the benchmark).
            if self.cur >= self.slow_at {
                return self.settle_slow();
            }
            self.min_node = h;
            self.min = self.node(h).e;
            return;
        }
        let w = self.word_mut(bi);
        let word = *w & !(1 << (bi & 63));
        *w = word;
        let rest = word >> (bi & 63);
        let step = if rest != 0 {
            rest.trailing_zeros() as u64
        } else {
            // Try the next word.
            let words = self.occupied.len();
            // SAFETY: masked into the bitmap.
            let next = unsafe { *self.occupied.get_unchecked(((bi >> 6) + 1) & (words - 1)) };
            // (A tuning that is due waits at most for the minimum to leave
            // its bitmap word.)
            if next == 0 || self.pops >= self.tune_at {
                return self.settle_slow();
            }
            (64 - (bi & 63)) as u64 + next.trailing_zeros() as u64
        };
        self.cur = self.cur.wrapping_add(step);
        if self.cur >= self.slow_at {
            return self.settle_slow();
        }
        let h = self.head(self.ring_index(self.cur));
        self.min_node = h;
        self.min = self.node(h).e;
    }

    /// `settle` when the next non-empty bucket is not in the same bitmap
    /// word, or `far` entries may be within reach, or a tuning is due.
    #[cold]
    #[inline(never)]
    fn settle_slow(&mut self) {
        let bi = self.ring_index(self.cur);
        if self.head(bi) == NIL {
            match self.next_occupied(bi) {
                Some(d) => self.cur += d,
                // The ring is empty.  Unless `far` entries are now within
                // reach, it restarts at the first of them when that is
                // taken (not now: the event being dispatched may schedule
                // entries before it).
                None => self.cur = EMPTY_RING,
            }
        }
        self.set_slow_at();
        if self.base >= self.slow_at {
            self.pull_far();
        }
        self.refresh_min();
        if self.pops >= self.tune_at {
            self.tune();
        }
    }

    /// Distance from bucket `bi` to the next non-empty bucket after it,
    /// round the ring, or `None` if all are empty.
    fn next_occupied(&self, bi: usize) -> Option<u64> {
        let words = self.occupied.len();
        let w = bi >> 6;
        // Bits after `bi` in its word (none if `bi` is the word's last).
        let above = self.occupied[w] & ((!1u64) << (bi & 63));
        if above != 0 {
            return Some((above.trailing_zeros() as usize - (bi & 63)) as u64);
        }
        for k in 1..=words {
            let mut x = self.occupied[(w + k) & (words - 1)];
            if k == words {
                // Back at `bi`'s word: only the bits before it.
                x &= (1u64 << (bi & 63)) - 1;
            }
            if x != 0 {
                let j = (((w + k) & (words - 1)) << 6) + x.trailing_zeros() as usize;
                return Some(j.wrapping_sub(bi) as u64 & self.mask);
            }
        }
        None
    }

    /// With the ring empty, start it at the first `far` entry's bucket (to
    /// take that entry).
    #[cold]
    #[inline(never)]
    fn restart_ring(&mut self) {
        let f = *self.far.first().expect("event queue not empty");
        self.cur = self.bucket(f.t);
        self.base = self.cur;
        self.pull_far();
        self.refresh_min();
    }

    /// `slow_at` for the current `mask` and `far`.
    fn set_slow_at(&mut self) {
        self.slow_at = match self.far.first() {
            _ if self.tune_forced => 0,
            Some(f) => self.bucket(f.t).saturating_sub(self.mask),
            None => u64::MAX,
        };
    }

    /// Move the `far` entries the ring now reaches into it.
    #[cold]
    #[inline(never)]
    fn pull_far(&mut self) {
        while let Some(&e) = self.far.first() {
            if self.bucket(e.t).saturating_sub(self.base) > self.mask {
                break;
            }
            self.heap_pop();
            let n = self.alloc();
            self.insert::<true>(e, n);
        }
        self.set_slow_at();
    }

    /// Push `e` (of bucket `b`, beyond the ring) into `far`; node `n` is
    /// not needed.
    #[cold]
    #[inline(never)]
    fn push_far(&mut self, e: Entry, b: u64, n: u32) {
        self.release(n);
        if e.lt(self.min) {
            // (Only a push: a replacement's minimum is found by `settle`.)
            self.min = e;
            self.min_node = NIL;
        }
        if self.far.first().is_none_or(|&f| e.lt(f)) {
            self.slow_at = self.slow_at.min(b - self.mask);
        }
        self.heap_push(e);
        if b - self.base <= 4 * self.mask {
            self.near_misses += 1;
            if self.near_misses > FAR_BUDGET {
                // The ring too short for the times: tune at the next settle.
                self.tune_soon();
            }
        }
    }

    /// Have a `settle` tune as soon as enough pops have been seen since the
    /// last tuning to measure the gap between them.
    fn tune_soon(&mut self) {
        self.tune_forced = true;
        self.slow_at = 0;
        self.tune_at = self.tune_at.min(self.pops.max(self.tune_pops + MIN_TUNE_POPS));
    }

    /// Compare the bucket width with the mean time between pops, and the
    /// ring's length with the entries that fell just beyond it (and with
    /// the queue's size); rebuild if either is off.
    #[cold]
    #[inline(never)]
    fn tune(&mut self) {
        let pops = self.pops - self.tune_pops;
        let near_misses = std::mem::take(&mut self.near_misses);
        let walked = std::mem::take(&mut self.walked);
        self.tune_forced = false;
        self.tune_pops = self.pops;
        self.tune_at = self.pops + TUNE_POPS;
        self.set_slow_at();
        let Some(min) = self.peek() else { return };
        let t_prev = self.tune_t;
        self.tune_t = min.t;
        let n = self.mask as usize + 1;
        let mut want_n = n;
        self.no_shrink = self.no_shrink.saturating_sub(1);
        if near_misses * SPILL_GROW > pops {
            // Too many entries fall just beyond the ring's reach.
            want_n = n * 4;
            self.no_shrink = NO_SHRINK_AFTER_GROWTH;
        } else if near_misses * SPILL_SHRINK < pops && n > START_BUCKETS && n > self.len * SPARSE && self.no_shrink == 0 {
            // Few spills, and far more buckets than entries: a quarter will do.
            want_n = n / 4;
        }
        let want_n = want_n.clamp(MIN_BUCKETS, MAX_BUCKETS);
        let mut shift = self.shift;
        // (The first tuning only starts the clock.)
        if t_prev != 0 && pops >= MIN_TUNE_POPS && min.t > t_prev {
            // Aim at buckets a fraction of the mean gap between pops wide
            // (in time bit patterns, the unit of the buckets).
            let gap = ((min.t - t_prev) / pops).max(1);
            let want = (63 - gap.leading_zeros()).saturating_sub(NARROW);
            if want.abs_diff(shift) >= 2 {
                shift = want;
            }
        }
        self.narrow_for = self.narrow_for.saturating_sub(1);
        if walked > pops && shift + 2 > self.shift {
            // Insertions pass other times in their buckets, and the mean gap
            // does not explain it (it would narrow them anyway, as after the
            // first guess): events come in bursts.  Narrower, whatever the
            // mean gap says, and not wider again for a while.
            shift = shift.min(self.shift.saturating_sub(2));
            self.narrow_for = NARROW_AFTER_WALKS;
            self.shift_cap = shift;
        }
        if self.narrow_for > 0 {
            shift = shift.min(self.shift_cap);
        }
        if shift != self.shift || want_n != n {
            self.rebuild(want_n, shift, None);
        }
    }

    /// Re-spread every entry (but `except`) over a new ring.
    #[cold]
    #[inline(never)]
    fn rebuild(&mut self, n: usize, shift: u32, except: Option<Entry>) {
        // The ring's entries in order (bucket by bucket from `cur`), so that
        // each goes to the end of its new bucket.  `far` stays as it is (its
        // order does not depend on the buckets); those of its entries that
        // the new ring reaches move in afterwards.
        let mut all = Vec::with_capacity(self.len - self.far.len());
        let mut left = self.len - self.far.len();
        let mut bi = self.ring_index(self.cur);
        while left > 0 {
            let mut p = self.head(bi);
            while p != NIL {
                all.push(self.node(p).e);
                p = self.node(p).next;
                left -= 1;
            }
            if left > 0 {
                let d = self.next_occupied(bi).expect("ring entries left");
                bi = self.ring_index(bi as u64 + d);
            }
        }
        let mut far = std::mem::take(&mut self.far);
        if let Some(x) = except {
            all.retain(|e| e.k() != x.k());
            if let Some(i) = far.iter().position(|e| e.k() == x.k()) {
                far.swap_remove(i);
                // Restore the heap order (rare: linear).
                self.far = far;
                for j in (0..self.far.len()).rev() {
                    let e = self.far_at(j);
                    self.sift_down(j, e);
                }
                far = std::mem::take(&mut self.far);
            }
        }
        // The first time bits of the base bucket: no entry, present or to
        // come, is before them.
        let floor = self.base << self.shift;
        self.reset(n, shift);
        self.base = self.bucket(floor);
        self.len = far.len();
        self.far = far;
        self.set_slow_at();
        for e in all {
            self.push(e);
        }
        if self.base >= self.slow_at {
            self.pull_far();
        }
        // Spills of the rebuild itself are no news.
        self.near_misses = 0;
        self.tune_forced = false;
        self.set_slow_at();
        self.refresh_min();
    }

    /// Remove the entry equal to `e`, if present (rare: a link going down
    /// cancels its packets in flight).  Rebuilds the queue: linear in the
    /// entries and the buckets.
    #[cold]
    pub fn remove(&mut self, e: Entry) -> bool {
        if !self.iter().any(|x| x.k() == e.k()) {
            return false;
        }
        self.rebuild(self.mask as usize + 1, self.shift, Some(e));
        true
    }

    // ---- far: a 4-ary heap ---------------------------------------------------

    #[inline(always)]
    fn far_at(&self, i: usize) -> Entry {
        debug_assert!(i < self.far.len());
        // SAFETY: callers index within 0..far.len().
        unsafe { *self.far.get_unchecked(i) }
    }

    #[inline(always)]
    fn far_set(&mut self, i: usize, e: Entry) {
        debug_assert!(i < self.far.len());
        // SAFETY: callers index within 0..far.len().
        unsafe { *self.far.get_unchecked_mut(i) = e }
    }

    fn heap_push(&mut self, e: Entry) {
        self.far.push(e);
        let mut i = self.far.len() - 1;
        while i > 0 {
            let parent = (i - 1) / D;
            let pe = self.far_at(parent);
            if !e.lt(pe) {
                break;
            }
            self.far_set(i, pe);
            i = parent;
        }
        self.far_set(i, e);
    }

    /// Remove `far[0]`.
    fn heap_pop(&mut self) {
        let e = self.far.pop().expect("far not empty");
        if !self.far.is_empty() {
            self.sift_down(0, e);
        }
    }

    /// Put `e` in the hole at `i`, moving it down as far as it goes.  Four
    /// children are compared by time alone; equal times take the exact path.
    fn sift_down(&mut self, mut i: usize, e: Entry) {
        let n = self.far.len();
        loop {
            let first = D * i + 1;
            let m = if first + D <= n {
                let t = [0, 1, 2, 3].map(|k| self.far_at(first + k).t);
                let (a, ta) = if t[1] < t[0] { (1, t[1]) } else { (0, t[0]) };
                let (c, tc) = if t[3] < t[2] { (3, t[3]) } else { (2, t[2]) };
                if (t[0] == t[1]) | (t[2] == t[3]) | (ta == tc) {
                    self.min_child(first, first + D)
                } else if tc < ta {
                    first + c
                } else {
                    first + a
                }
            } else if first < n {
                self.min_child(first, n)
            } else {
                break;
            };
            let child = self.far_at(m);
            if !child.lt(e) {
                break;
            }
            self.far_set(i, child);
            i = m;
        }
        self.far_set(i, e);
    }

    /// Index of the smallest entry of `far[from..to]`.
    fn min_child(&self, from: usize, to: usize) -> usize {
        let mut m = from;
        for c in from + 1..to {
            if self.far_at(c).lt(self.far_at(m)) {
                m = c;
            }
        }
        m
    }
}

#[cfg(test)]
impl EventQueue {
    /// Check every invariant of the structure (tests only).
    fn check(&self) {
        let n = self.mask as usize + 1;
        assert_eq!(self.heads.len(), n);
        assert_eq!(self.occupied.len(), n / 64);
        let mut in_ring = 0;
        let mut first_bucket: Option<u64> = None;
        for i in 0..n {
            let h = self.heads[i];
            let bit = (self.occupied[i >> 6] >> (i & 63)) & 1 == 1;
            assert_eq!(h != NIL, bit, "bit of bucket {i}");
            // The absolute bucket ring bucket `i` stands for.
            let abs = self.base + ((i as u64).wrapping_sub(self.base) & self.mask);
            let mut p = h;
            let mut prev: Option<Entry> = None;
            if h != NIL {
                let t = self.nodes[h as usize].last;
                assert_eq!(self.nodes[t as usize].next, NIL, "last not last");
            }
            while p != NIL {
                let e = self.nodes[p as usize].e;
                assert_ne!(e.t, FREE_T);
                let b = self.bucket(e.t);
                if abs == self.base {
                    assert!(b <= abs, "entry before the ring's base bucket");
                } else {
                    assert_eq!(b, abs, "entry in the wrong bucket");
                }
                if let Some(q) = prev {
                    assert!(q.lt(e), "bucket list out of order");
                }
                prev = Some(e);
                in_ring += 1;
                p = self.nodes[p as usize].next;
            }
            if h != NIL {
                first_bucket = Some(first_bucket.map_or(abs, |m: u64| m.min(abs)));
            }
        }
        assert_eq!(self.cur, first_bucket.unwrap_or(EMPTY_RING), "cur is not the first non-empty bucket");
        let mut free = 0;
        let mut p = self.free;
        while p != NIL {
            assert_eq!(self.nodes[p as usize].e.t, FREE_T);
            free += 1;
            p = self.nodes[p as usize].next;
        }
        assert_eq!(in_ring + free, self.nodes.len(), "nodes lost");
        for (i, f) in self.far.iter().enumerate() {
            assert!(self.bucket(f.t) - self.base > self.mask, "far entry within the ring's reach");
            if i > 0 {
                assert!(!f.lt(self.far[(i - 1) / D]), "far heap out of order");
            }
        }
        if let Some(f) = self.far.first() {
            assert!(self.slow_at <= self.bucket(f.t) - self.mask);
        }
        assert_eq!(in_ring + self.far.len(), self.len);
        let mut want = first_bucket.map(|b| self.heads[(b & self.mask) as usize]);
        if want.is_none() && !self.far.is_empty() {
            want = Some(NIL);
        }
        match want {
            None => assert_eq!(self.min.t, FREE_T),
            Some(h) => {
                assert_eq!(self.min_node, h, "min_node");
                let e = if h == NIL { self.far[0] } else { self.nodes[h as usize].e };
                assert_eq!(self.min.k(), e.k(), "min");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    use crate::testrng::TestRng as Rng;

    /// The queue against a sorted set of the same entries.
    struct Both {
        q: EventQueue,
        model: BTreeSet<(u64, u64)>,
        /// The last entry taken.
        last: Option<(u64, u64)>,
    }

    impl Both {
        fn new() -> Both {
            Both { q: EventQueue::new(), model: BTreeSet::new(), last: None }
        }
        fn min(&self) -> Option<(u64, u64)> {
            self.model.first().copied()
        }
        fn push(&mut self, e: Entry) {
            self.q.push(e);
            assert!(self.model.insert((e.t, e.s)), "test pushed a key twice");
        }
        fn pop(&mut self) {
            self.q.pop_min();
            self.last = self.model.pop_first();
        }
        fn replace(&mut self, e: Entry) {
            self.q.replace_min(e);
            self.last = self.model.pop_first();
            assert!(self.model.insert((e.t, e.s)), "test pushed a key twice");
        }
        fn remove(&mut self, e: Entry) {
            let there = self.model.remove(&(e.t, e.s));
            assert_eq!(self.q.remove(e), there);
        }
        fn agree(&self) {
            assert_eq!(self.q.len(), self.model.len());
            assert_eq!(self.q.is_empty(), self.model.is_empty());
            assert_eq!(self.q.peek().map(|e| (e.t, e.s)), self.min());
        }
        fn agree_fully(&self) {
            self.agree();
            self.q.check();
            let mut all: Vec<(u64, u64)> = self.q.iter().map(|e| (e.t, e.s)).collect();
            all.sort();
            assert_eq!(all, self.model.iter().copied().collect::<Vec<_>>());
        }
        fn drain(&mut self) {
            while !self.model.is_empty() {
                self.agree();
                self.pop();
            }
            self.agree_fully();
        }
    }

    /// Random pushes, pops, replacements and removals with many equal
    /// times (small integers as time bits), through sizes that make the
    /// ring grow and shrink.
    #[test]
    fn pops_in_key_order() {
        let mut r = Rng(7);
        for round in 0..40 {
            let mut b = Both::new();
            let size = [5u64, 50, 300, 3000][round % 4];
            for i in 0..4000 {
                let op = r.below(10);
                let seq = i + 1;
                if op < 4 || b.model.is_empty() || (b.model.len() as u64) < size / 2 {
                    b.push(Entry { t: r.below(size), s: seq });
                } else if op < 7 {
                    let t = r.below(size) + b.min().unwrap().0;
                    b.replace(Entry { t, s: seq });
                } else {
                    b.pop();
                }
                if op == 9 && b.model.len() > 2 {
                    let (t, s) = *b.model.iter().nth(r.below(b.model.len() as u64) as usize).unwrap();
                    b.remove(Entry { t, s });
                    b.remove(Entry { t, s });
                }
                b.agree();
                if i % 97 == 0 {
                    b.agree_fully();
                }
            }
            b.drain();
        }
    }

    /// A simulation-like load with real times: successors a few gaps after
    /// now, equal times, entries keyed earlier than those already queued at
    /// their time (a lazily pushed resume), far-future entries (timers, end
    /// of run callbacks, infinity), and the event rate changing by a factor
    /// of a thousand so that the buckets are resized both ways.
    #[test]
    fn simulated_times_in_key_order() {
        let mut r = Rng(11);
        for round in 0..6 {
            let mut b = Both::new();
            let mut seq = 1u64 << 24;
            let mut held: Vec<u64> = Vec::new(); // keys handed out, not pushed yet
            // Never reached: the clock stays below 1000 s.
            let far = [1e4, 1e7, f64::INFINITY];
            let mut now = 0.0;
            for i in 0..60_000u64 {
                // The mean delay: 10 us, then 1 ms, then 10 ns (per phase).
                let scale = [1e-5, 1e-3, 1e-8][((i / 20_000 + round) % 3) as usize];
                if let Some((t, _)) = b.last {
                    now = f64::from_bits(t);
                }
                let mut key = |r: &mut Rng, now: f64, delay: f64| {
                    seq += 1 << 24;
                    Entry { t: (now + delay).to_bits(), s: seq | r.below(1 << 24) }
                };
                let d = match r.below(20) {
                    0 => 0.0,
                    1 => far[r.below(3) as usize],
                    2 => scale * 1e4 * r.unit(),
                    3 | 4 => scale * r.below(4) as f64,
                    _ => scale * 10.0 * r.unit(),
                };
                match r.below(12) {
                    _ if b.model.is_empty() || b.min().unwrap().0 >= 1e3f64.to_bits() => b.push(key(&mut r, now, d)),
                    0..=2 => b.push(key(&mut r, now, d)),
                    3 => {
                        // Hand out a key now, push it later (a resume).
                        let e = key(&mut r, now, d);
                        held.push(e.t);
                        held.push(e.s);
                    }
                    4 if held.len() >= 2 => {
                        let s = held.pop().unwrap();
                        let t = held.pop().unwrap();
                        if b.last.is_none_or(|l| t >= l.0) {
                            b.push(Entry { t, s });
                        }
                    }
                    5..=8 => {
                        // The successor of the event taken: after it.
                        let m = f64::from_bits(b.min().unwrap().0);
                        let e = key(&mut r, m, d);
                        b.replace(e)
                    }
                    9 if i % 50 == 0 => {
                        let (t, s) = *b.model.iter().nth(r.below(b.model.len() as u64) as usize).unwrap();
                        b.remove(Entry { t, s });
                    }
                    _ => b.pop(),
                }
                b.agree();
                if i % 1009 == 0 {
                    b.agree_fully();
                }
            }
            b.agree_fully();
            b.drain();
        }
    }

    /// Many callbacks scheduled in random order before the first event
    /// (Tcl `at` at setup), then taken while events follow each other.
    #[test]
    fn setup_in_random_order() {
        let mut r = Rng(3);
        let mut b = Both::new();
        let mut seq = 0;
        for _ in 0..5000 {
            seq += 1 << 24;
            b.push(Entry { t: (100.0 * r.unit()).to_bits(), s: seq });
        }
        b.agree_fully();
        for i in 0..20_000 {
            seq += 1 << 24;
            let now = f64::from_bits(b.min().unwrap().0);
            b.replace(Entry { t: (now + 1e-3 * r.unit()).to_bits(), s: seq });
            b.agree();
            if i % 997 == 0 {
                b.agree_fully();
            }
        }
        b.drain();
    }

    /// Many sources firing at the same times (CBR sources started
    /// together): large groups of equal times, each member rescheduling
    /// itself after the others, plus an older key now and then.
    #[test]
    fn large_groups_of_equal_times() {
        let mut r = Rng(13);
        let mut b = Both::new();
        let mut seq = 1u64;
        let sources = 3000;
        for _ in 0..sources {
            seq += 1;
            b.push(Entry { t: 0.5f64.to_bits(), s: seq << 24 });
        }
        let mut old = Vec::new();
        for i in 0..30_000 {
            let now = f64::from_bits(b.min().unwrap().0);
            seq += 1;
            if i % 100 == 0 {
                old.push(Entry { t: (now + 0.01).to_bits(), s: seq << 24 | 1 });
                b.replace(Entry { t: (now + 0.01).to_bits(), s: (seq + 1) << 24 });
                seq += 1;
            } else {
                b.replace(Entry { t: (now + 0.01).to_bits(), s: seq << 24 });
            }
            if i % 100 == 50 {
                let e = old.remove(0);
                if e.t >= b.min().unwrap().0 {
                    b.push(e);
                }
            }
            b.agree();
            if i % 1999 == 0 {
                b.agree_fully();
            }
            let _ = r.below(2);
        }
        b.drain();
    }

    /// Bursts of events a few nanoseconds apart, scheduled in random order,
    /// a second apart: the mean gap says wide buckets, the insertions that
    /// then pass each other say narrow ones.
    #[test]
    fn bursts_in_random_order() {
        let mut r = Rng(17);
        let mut b = Both::new();
        let mut seq = 0u64;
        let mut t = 0.0;
        for burst in 0..200 {
            t += 1.0;
            for _ in 0..300 {
                seq += 1;
                b.push(Entry { t: (t + 1e-6 * r.unit()).to_bits(), s: seq << 24 });
            }
            for _ in 0..20 {
                seq += 1;
                b.push(Entry { t: (t + 0.5 + 5.0 * r.unit()).to_bits(), s: seq << 24 });
            }
            while f64::from_bits(b.min().unwrap().0) < t + 0.9 {
                let now = f64::from_bits(b.min().unwrap().0);
                seq += 1;
                if r.below(2) == 0 {
                    b.replace(Entry { t: (now + 1e-5 * r.unit()).to_bits(), s: seq << 24 });
                } else {
                    b.pop();
                }
                b.agree();
            }
            if burst % 20 == 0 {
                b.agree_fully();
            }
        }
        b.drain();
    }

    /// Equal times arriving out of sequence order, in one bucket.
    #[test]
    fn equal_times_out_of_sequence() {
        let mut r = Rng(5);
        let mut b = Both::new();
        for round in 0..20u64 {
            let t = (1.0 + round as f64).to_bits();
            for _ in 0..300 {
                let s = r.below(1 << 40);
                if !b.model.contains(&(t, s)) {
                    b.push(Entry { t, s });
                }
            }
            b.agree_fully();
            for _ in 0..250 {
                b.pop();
                b.agree();
            }
        }
        b.drain();
    }

    /// A run of 200,000 equal times in front of one later entry of their
    /// bucket, each scheduled after the one before (a sender emitting a
    /// burst of packets onto a link in one event, fuzz mutant #3853 of
    /// lan.tcl): the insertions pass no more nodes than there are
    /// insertions (walking the run from its head made the burst quadratic:
    /// that fails at the fifth), and they come out in scheduling order.
    #[test]
    fn a_run_of_equal_times_is_not_walked_again() {
        let mut q = EventQueue::new();
        let t = 1.5f64.to_bits();
        // An event at `t` taken first, so that the ring starts at its
        // bucket (the entries below are in the ring, not in `far`).
        q.push(Entry { t, s: 1 << 24 });
        q.pop_min();
        // One time bit pattern later: the same bucket (the low 51 bits of
        // `t` are zero).
        q.push(Entry { t: t + 1, s: 2 << 24 });
        let n = 200_000u64;
        for i in 0..n {
            q.push(Entry { t, s: (i + 3) << 24 });
            assert!(q.far.is_empty());
            assert!(q.passed <= i, "{} nodes passed by {} insertions into the run", q.passed, i + 1);
        }
        q.check();
        for i in 0..n {
            assert_eq!(q.peek().map(|e| (e.t, e.s)), Some((t, (i + 3) << 24)));
            q.pop_min();
        }
        assert_eq!(q.peek().map(|e| (e.t, e.s)), Some((t + 1, 2 << 24)));
        q.pop_min();
        assert!(q.is_empty());
    }

    /// Several runs of equal times grown in turn, each in front of later
    /// entries of its bucket or of others, with entries keyed earlier than
    /// a run's last (a lazily pushed resume), cancellations, pops and
    /// replacements in between, against the sorted set.
    #[test]
    fn interleaved_runs_of_equal_times_in_key_order() {
        let mut r = Rng(21);
        for round in 0..12 {
            let mut b = Both::new();
            let mut seq = 0u64;
            let mut key = |r: &mut Rng| {
                seq += 1;
                (seq << 24) | r.below(1 << 24)
            };
            // The time of each run (a few in one bucket, others apart).
            let mut runs: Vec<u64> = Vec::new();
            let mut held: Vec<(u64, u64)> = Vec::new();
            let spread = [1u64, 1 << 12, 1 << 30, 1 << 40][round % 4];
            for i in 0..30_000u64 {
                let floor = b.last.map_or(1.0f64.to_bits(), |l| l.0);
                let now = b.min().map_or(floor, |m| m.0);
                match r.below(16) {
                    0 if runs.len() < 6 => runs.push(now + r.below(8) * spread),
                    1 if !runs.is_empty() => {
                        runs.swap_remove(r.below(runs.len() as u64) as usize);
                    }
                    2..=7 if !runs.is_empty() => {
                        // Extend a run; sometimes hand its key out for later.
                        let t = runs[r.below(runs.len() as u64) as usize];
                        let s = key(&mut r);
                        if t < floor {
                        } else if r.below(8) == 0 {
                            held.push((t, s));
                        } else {
                            b.push(Entry { t, s });
                        }
                    }
                    8 if !held.is_empty() => {
                        let (t, s) = held.swap_remove(r.below(held.len() as u64) as usize);
                        if t >= floor {
                            b.push(Entry { t, s });
                        }
                    }
                    9 | 10 => {
                        let t = now + 1 + r.below(16 * spread);
                        let s = key(&mut r);
                        b.push(Entry { t, s });
                    }
                    11 if i % 7 == 0 && !b.model.is_empty() => {
                        let (t, s) = *b.model.iter().nth(r.below(b.model.len() as u64) as usize).unwrap();
                        b.remove(Entry { t, s });
                    }
                    12 if !b.model.is_empty() => {
                        let t = now + r.below(4) * spread;
                        let s = key(&mut r);
                        b.replace(Entry { t, s });
                    }
                    13..=15 if !b.model.is_empty() => b.pop(),
                    _ => {}
                }
                b.agree();
                if i % 499 == 0 {
                    b.agree_fully();
                }
            }
            b.agree_fully();
            b.drain();
        }
    }

    /// Entries before the last one taken (times going backwards: never
    /// from the scheduler, but the queue keeps them in order).
    #[test]
    fn times_going_backwards() {
        let mut r = Rng(9);
        let mut b = Both::new();
        for i in 0..20_000 {
            let seq = i + 1;
            let t = (10.0 * r.unit()).to_bits();
            if r.below(3) == 0 && !b.model.is_empty() {
                b.pop();
            } else {
                b.push(Entry { t, s: seq });
            }
            b.agree();
            if i % 499 == 0 {
                b.agree_fully();
            }
        }
        b.drain();
    }

    /// The queue runs empty and starts again far later, with and without
    /// entries waiting beyond the ring.
    #[test]
    fn empty_and_restart() {
        let mut b = Both::new();
        let mut seq = 0;
        let mut t = 0.0;
        for round in 0..50 {
            for k in 0..(round % 7) {
                seq += 1;
                b.push(Entry { t: (t + 1e-6 * k as f64).to_bits(), s: seq });
            }
            seq += 1;
            b.push(Entry { t: (t + 1000.0).to_bits(), s: seq });
            b.agree_fully();
            while b.model.len() > 1 {
                b.pop();
                b.agree();
            }
            b.agree_fully();
            t += 1000.0;
            if round % 2 == 0 {
                b.pop();
                b.agree_fully();
                assert_eq!(b.q.peek().map(|e| e.t), None);
            }
        }
        b.drain();
    }

    // ---- tuning: the width follows the gap between pops, the ring the
    // reach of insertions (only speed depends on these, so they are
    // checked on the structure itself) ---------------------------------------

    /// Steady load: `pending` entries, each pop inserting one about
    /// `pending * gap` time bits after the minimum (uniform in [1, 2x]),
    /// so pops come `gap` apart on average.  Returns the last sequence
    /// number used.
    fn steady(q: &mut EventQueue, r: &mut Rng, mut seq: u64, pending: u64, gap: u64, pops: usize) -> u64 {
        // (`below` draws 31 bits: two of them for wider ranges.)
        let after = |r: &mut Rng| 1 + ((r.below(1 << 31) << 31) | r.below(1 << 31)) % (2 * pending * gap);
        while (q.len() as u64) < pending {
            seq += 1;
            let t = q.peek().map_or(q.base << q.shift, |m| m.t) + after(r);
            q.push(Entry { t, s: seq });
        }
        for _ in 0..pops {
            let m = q.peek().expect("not empty");
            seq += 1;
            q.replace_min(Entry { t: m.t + after(r), s: seq });
        }
        q.check();
        seq
    }

    /// The bucket width settles at 2^-NARROW of the mean gap between pops
    /// (within the factor of four a tuning tolerates), and follows the gap
    /// when it changes a thousandfold either way.  (The width is checked
    /// when the minimum leaves a bitmap word, a dense ring included.)
    #[test]
    fn bucket_width_follows_the_gap_between_pops() {
        let mut r = Rng(11);
        let mut q = EventQueue::new();
        assert_eq!(q.shift, 34);
        let mut seq = 0;
        for gap_log in [20u32, 30, 12] {
            // (What the last load left pending lies far ahead: gone first.)
            while !q.is_empty() {
                q.pop_min();
            }
            seq = steady(&mut q, &mut r, seq, 50, 1 << gap_log, 60_000);
            let want = gap_log - NARROW;
            assert!(q.shift.abs_diff(want) <= 1, "gap 2^{gap_log}: shift {} (want about {want})", q.shift);
        }
    }

    /// Insertions that land just beyond the ring make it grow; when nearly
    /// nothing is pending any more it shrinks again, not below the start.
    #[test]
    fn ring_grows_for_far_insertions_and_shrinks_when_sparse() {
        let mut r = Rng(12);
        let mut q = EventQueue::new();
        assert_eq!(q.mask as usize + 1, START_BUCKETS);
        // 4000 pending, pops 2^16 apart: buckets of about 2^14, an
        // insertion about 16000 buckets ahead of the minimum.
        let seq = steady(&mut q, &mut r, 0, 4000, 1 << 16, 200_000);
        let grown = q.mask as usize + 1;
        assert!(grown >= 16 * START_BUCKETS, "ring of {grown} buckets for insertions ~16000 ahead");
        // Drain to two pending with the same gap: the spills stop, the
        // ring is far larger than 1024 buckets per entry.
        while q.len() > 2 {
            q.pop_min();
        }
        steady(&mut q, &mut r, seq, 2, 1 << 16, 400_000);
        let n = q.mask as usize + 1;
        assert!(n < grown, "ring stayed at {n} buckets for 2 entries");
        assert!(n >= START_BUCKETS);
    }

    /// Events in tight bursts far apart: the mean gap would make buckets
    /// that hold whole bursts, insertions walk their lists, and the
    /// buckets narrow below what the mean gap says (and stay narrower).
    #[test]
    fn walking_insertions_narrow_the_buckets() {
        let mut r = Rng(13);
        let mut q = EventQueue::new();
        let mut seq = 0;
        let mut base: u64 = 1 << 40;
        for _ in 0..2_000 {
            // A burst of 64 events 2^8 apart, inserted out of order, every 2^30.
            let mut ts: Vec<u64> = (0..64).map(|k| base + (k << 8)).collect();
            for i in (1..ts.len()).rev() {
                ts.swap(i, r.below(i as u64 + 1) as usize);
            }
            for t in ts {
                seq += 1;
                q.push(Entry { t, s: seq });
            }
            while q.len() > 0 {
                q.pop_min();
            }
            base += 1 << 30;
        }
        q.check();
        // The mean gap is 2^30 / 64 = 2^24: width 2^22 by the gap alone.
        let by_gap = 24 - NARROW;
        assert!(q.shift + 2 <= by_gap, "shift {} not narrower than the gap's {by_gap}", q.shift);
    }
}
