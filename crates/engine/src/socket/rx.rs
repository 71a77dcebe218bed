//! The receiver's out-of-order data (ns-3's `TcpRxBuffer`, less the bytes:
//! the application reads in-order data at once, as ns-3's PacketSink does,
//! so only the ranges above the next expected byte are kept).  A sorted
//! list of disjoint `[start, end)` ranges whose capacity is kept, and the
//! SACK blocks to report (`sack.rs`) when SACK is in use.

use super::sack::SackList;

#[derive(Clone, Debug, Default)]
pub struct Reassembly {
    /// Next byte expected (`NextRxSequence`).
    pub next: u64,
    ranges: Vec<(u64, u64)>,
    /// Bytes held out of order.
    pub held: u64,
    /// The SACK blocks (ns-3's `m_sackList`), kept if `track`.
    pub sacks: SackList,
    track: bool,
}

impl Reassembly {
    pub fn new(next: u64) -> Reassembly {
        Reassembly { next, ranges: Vec::new(), held: 0, sacks: SackList::default(), track: true }
    }

    /// Keep the SACK blocks or not (SACK in use).
    pub fn with_sacks(mut self, track: bool) -> Reassembly {
        self.track = track;
        self
    }

    pub fn has_holes(&self) -> bool {
        !self.ranges.is_empty()
    }

    /// `TcpRxBuffer::Add` for `[seq, seq+len)` with a buffer of `cap` bytes:
    /// returns the number of bytes now delivered in order (the next expected
    /// byte advanced by that much), or `None` if nothing new was stored
    /// (all old, or no room).
    pub fn add(&mut self, seq: u64, len: u64, cap: u64) -> Option<u64> {
        self.add_trimming::<true>(seq, len, cap)
    }

    /// `add`, its trim starting at the first range ending after the data
    /// (`SEARCH`) or walking from the first range (the reference the tests
    /// hold the search to).
    #[inline(always)]
    fn add_trimming<const SEARCH: bool>(&mut self, seq: u64, len: u64, cap: u64) -> Option<u64> {
        let mut head = seq.max(self.next);
        let mut tail = seq + len;
        if let Some(&(first, _)) = self.ranges.first() {
            tail = tail.min(first + cap);
            head = head.min(tail);
        }
        // trim what is already held (the ranges are disjoint and sorted, so
        // their ends are too: those ending at or before `head` are passed
        // over at once, as the walk from the first would pass them)
        let mut i = if SEARCH { self.ranges.partition_point(|&(_, b)| b <= head) } else { 0 };
        while i < self.ranges.len() {
            let (a, b) = self.ranges[i];
            if a > tail {
                break;
            }
            if b > head {
                if a > head && b < tail {
                    // an existing range inside the new one: drop it, the new covers it
                    self.held -= b - a;
                    self.ranges.remove(i);
                    continue;
                }
                if a <= head {
                    head = b;
                }
                if b >= tail {
                    tail = a;
                }
            }
            i += 1;
        }
        if head >= tail {
            return None;
        }
        if self.held + (tail - head) > cap {
            return None;
        }
        if head == self.next {
            let before = self.next;
            self.next = tail;
            // pull in what now follows
            while let Some(&(a, b)) = self.ranges.first() {
                if a > self.next {
                    break;
                }
                self.held -= b - a;
                self.next = self.next.max(b);
                self.ranges.remove(0);
            }
            if !self.sacks.is_empty() {
                self.sacks.clear_below(self.next);
            }
            return Some(self.next - before);
        }
        // store out of order, merging with neighbours; a new SACK block
        if self.track {
            self.sacks.stored(head, tail);
        }
        let pos = self.ranges.partition_point(|&(a, _)| a < head);
        self.ranges.insert(pos, (head, tail));
        self.held += tail - head;
        let mut k = pos.saturating_sub(1);
        while k + 1 < self.ranges.len() {
            let (a0, b0) = self.ranges[k];
            let (a1, b1) = self.ranges[k + 1];
            if b0 >= a1 {
                self.ranges[k] = (a0, b0.max(b1));
                self.ranges.remove(k + 1);
            } else {
                k += 1;
                if a0 > tail {
                    break;
                }
            }
        }
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_out_of_order_and_filling_the_hole() {
        let mut r = Reassembly::new(1);
        assert_eq!(r.add(1, 100, 1 << 20), Some(100));
        assert_eq!(r.next, 101);
        assert_eq!(r.add(201, 100, 1 << 20), Some(0));
        assert_eq!(r.add(301, 100, 1 << 20), Some(0));
        assert!(r.has_holes());
        assert_eq!(r.held, 200);
        // a duplicate of held data stores nothing
        assert_eq!(r.add(201, 100, 1 << 20), None);
        // old data stores nothing
        assert_eq!(r.add(1, 100, 1 << 20), None);
        assert_eq!(r.add(101, 100, 1 << 20), Some(300));
        assert_eq!((r.next, r.held), (401, 0));
        assert!(!r.has_holes());
    }

    #[test]
    fn full_buffer_refuses() {
        let mut r = Reassembly::new(0);
        assert_eq!(r.add(100, 100, 150), Some(0));
        assert_eq!(r.add(300, 100, 150), None);
    }

    /// `add` against the walk from the first range on random segments: the
    /// same answers and the same ranges, held bytes, next byte and SACK
    /// blocks after every one (holes many and few, old, duplicate and
    /// overlapping data, a buffer that fills).
    #[test]
    fn trim_from_the_first_range_ending_after_the_data_is_the_walk() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for round in 0..400 {
            let track = round % 2 == 0;
            let cap = [1 << 20, 3000, 600][round % 3];
            let mut a = Reassembly::new(1).with_sacks(track);
            let mut b = a.clone();
            for _ in 0..300 {
                let seq = a.next.saturating_sub(200) + rnd(2500);
                let long = rnd(4) == 0;
                let len = 1 + rnd(if long { 300 } else { 60 });
                assert_eq!(a.add(seq, len, cap), b.add_trimming::<false>(seq, len, cap), "round {round}: add({seq}, {len})");
                assert_eq!((a.next, a.held, &a.ranges), (b.next, b.held, &b.ranges), "round {round}");
                assert_eq!(format!("{:?}", a.sacks), format!("{:?}", b.sacks), "round {round}");
            }
        }
    }
}
