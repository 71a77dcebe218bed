//! ns-2's `ReassemblyQueue` (tcp/rq.cc): byte ranges received above the
//! next expected byte, each with the TCP flags of the segments in it.  The
//! receive side queues out-of-order data in one; a SACK sender keeps its
//! scoreboard of the peer's SACK blocks in another.
//!
//! ns-2 keeps the ranges twice, in sequence order (a linked list) and in
//! the order they were made (a stack, whose top is the most recent): SACK
//! blocks are reported from the top of the stack.  A range that grows by
//! merging keeps its place in the stack; only a range made anew goes on
//! top.  Here the ranges are a vector in sequence order, each with a stamp
//! that orders the stack.  `add` follows rq.cc's steps exactly, quirks
//! included (which range survives a merge and whose flags it keeps; the
//! running byte total), since the SACK blocks and the sender's pipe
//! estimate depend on them.

/// One range `[start, end)`, the OR of its segments' flags, and its place
/// in the stack (greater: nearer the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    start: i32,
    end: i32,
    flags: i32,
    stamp: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Reassembly {
    ranges: Vec<Range>,
    stamps: u64,
    /// Bytes held, as rq.cc counts them (`total_`).
    total: i32,
}

impl Reassembly {
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn clear(&mut self) {
        self.ranges.clear();
        self.total = 0;
    }

    /// Bytes held (`total()`).
    pub fn total(&self) -> i32 {
        self.total
    }

    fn made(&mut self, start: i32, end: i32, flags: i32) -> Range {
        self.stamps += 1;
        Range { start, end, flags, stamp: self.stamps }
    }

    /// `add(start, end, flags)`: queue the segment `[start, end)`; `next`
    /// is the byte the queue's owner expects next (the receiver's next
    /// byte, the SACK sender's lowest unacknowledged byte), which moves to
    /// the end of a range that reaches it.  Returns the flags of the range
    /// the segment ended in (rq.cc's return value).
    pub fn add(&mut self, mut start: i32, mut end: i32, mut tiflags: i32, next: &mut i32) -> i32 {
        if self.ranges.is_empty() {
            let r = self.made(start, end, tiflags);
            self.ranges.push(r);
            self.total = end - start;
            if *next >= start {
                *next = end;
            }
            return tiflags;
        }
        let mut needmerge;
        // The ranges before and after the new one, by index.
        let (mut p, mut q): (Option<usize>, Option<usize>);
        'again: loop {
            needmerge = false;
            let n = self.ranges.len();
            if start >= self.ranges[n - 1].end {
                p = Some(n - 1);
                q = None;
                needmerge = start == self.ranges[n - 1].end;
                break 'again;
            }
            if end <= self.ranges[0].start {
                p = None;
                q = Some(0);
                needmerge = end == self.ranges[0].start;
                break 'again;
            }
            // q: the first range at or after `end`; p: the last one ending
            // at or before `start`.
            q = self.ranges.iter().position(|r| r.start >= end);
            p = self.ranges.iter().rposition(|r| r.end <= start);
            let mut i = p.unwrap_or(0);
            let mut hi = q.unwrap_or(n);
            let mut altered = false;
            while i < hi {
                let r = self.ranges[i];
                if start == r.start && end == r.end {
                    self.ranges[i].flags |= tiflags;
                    return self.ranges[i].flags;
                } else if start <= r.start && end >= r.end {
                    // The segment covers a range: it goes.
                    self.total -= r.end - r.start;
                    tiflags |= r.flags;
                    self.ranges.remove(i);
                    hi -= 1;
                    altered = true;
                } else {
                    i += 1;
                }
            }
            if self.ranges.is_empty() {
                p = None;
                q = None;
                break 'again;
            }
            if altered {
                continue 'again;
            }
            // A range overlapping the segment's start takes its front.
            let n = self.ranges.len();
            if p.is_none() || self.ranges[p.unwrap() + 1].start < start {
                let pp = p.map_or(0, |x| x + 1);
                let r = &mut self.ranges[pp];
                if start < r.start {
                    self.total += r.start - start;
                    r.start = start;
                }
                start = r.end;
                needmerge = true;
                r.flags |= tiflags;
                p = Some(pp);
            }
            // A range overlapping its end takes its back.
            if q.is_none() || self.ranges[q.unwrap() - 1].end > end {
                let qq = q.map_or(n - 1, |x| x - 1);
                let r = &mut self.ranges[qq];
                if end > r.end {
                    self.total += end - r.end;
                    r.end = end;
                }
                end = r.start;
                needmerge = true;
                r.flags |= tiflags;
                q = Some(qq);
            }
            if end <= start {
                if *next >= self.ranges[0].start {
                    *next = self.ranges[0].end;
                }
                return tiflags;
            }
            if !needmerge {
                if let (Some(pi), Some(qi)) = (p, q) {
                    let (pr, qr) = (self.ranges[pi], self.ranges[qi]);
                    if qi == pi + 1 && pr.end <= start && qr.start >= end && (pr.end == start || qr.start == end) {
                        needmerge = true;
                    }
                }
            }
            break 'again;
        }
        // The new range, between p and q, on top of the stack.
        let at = p.map_or(0, |x| x + 1);
        let r = self.made(start, end, tiflags);
        self.ranges.insert(at, r);
        let q = q.map(|x| if x >= at { x + 1 } else { x });
        self.total += end - start;
        if needmerge {
            return self.coalesce(p, at, q, next);
        }
        if *next >= start {
            *next = end;
        }
        tiflags
    }

    /// rq.cc's `coalesce(p, n, q)`: join the new range `n` to its
    /// neighbours it touches; the older range survives with its place in
    /// the stack (joining both, p survives and q's flags are lost, as in
    /// ns-2).
    fn coalesce(&mut self, p: Option<usize>, n: usize, q: Option<usize>, next: &mut i32) -> i32 {
        let nr = self.ranges[n];
        let touches_p = p.is_some_and(|pi| self.ranges[pi].end == nr.start);
        let touches_q = q.is_some_and(|qi| nr.end == self.ranges[qi].start);
        let (flags, survivor) = if touches_p && touches_q {
            let (pi, qi) = (p.unwrap(), q.unwrap());
            self.ranges[pi].end = self.ranges[qi].end;
            self.ranges[pi].flags |= nr.flags;
            let f = self.ranges[pi].flags;
            self.ranges.drain(n..=qi);
            (f, pi)
        } else if touches_p {
            let pi = p.unwrap();
            self.ranges[pi].end = nr.end;
            self.ranges[pi].flags |= nr.flags;
            let f = self.ranges[pi].flags;
            self.ranges.remove(n);
            (f, pi)
        } else if touches_q {
            let qi = q.unwrap();
            self.ranges[qi].start = nr.start;
            self.ranges[qi].flags |= nr.flags;
            let f = self.ranges[qi].flags;
            self.ranges.remove(n);
            (f, qi - 1)
        } else {
            (0, p.unwrap_or(n))
        };
        let s = self.ranges[survivor];
        if *next >= s.start {
            *next = s.end;
        }
        flags
    }

    /// `clearto(seq)`: drop what lies below `seq` (a range straddling it is
    /// trimmed); returns the OR of the flags of the ranges touched.
    pub fn clear_to(&mut self, seq: i32) -> i32 {
        let mut flags = 0;
        let n = self.ranges.iter().take_while(|r| r.end <= seq).count();
        for r in self.ranges.drain(..n) {
            flags |= r.flags;
            self.total -= r.end - r.start;
        }
        if let Some(r) = self.ranges.first_mut() {
            if r.start <= seq && r.end > seq {
                self.total -= seq - r.start;
                r.start = seq;
                flags |= r.flags;
            }
        }
        flags
    }

    /// `gensack(maxblocks)`: up to `max` ranges, most recently made first.
    pub fn sack_blocks(&self, max: usize, out: &mut [(i32, i32)]) -> usize {
        let mut order: Vec<&Range> = self.ranges.iter().collect();
        order.sort_unstable_by(|a, b| b.stamp.cmp(&a.stamp));
        let n = max.min(out.len()).min(order.len());
        for (o, r) in out.iter_mut().zip(order.iter().take(n)) {
            *o = (r.start, r.end);
        }
        n
    }

    /// `nexthole(seq)`: the next hole at or above `seq` (`seq` itself if it
    /// is not covered, else the end of the range covering it; -1 past the
    /// last range), with the number of ranges above the hole and their
    /// bytes (-1, -1 if none).
    pub fn next_hole(&self, seq: i32) -> (i32, i32, i32) {
        let counts = |from: usize| {
            let rest = &self.ranges[from..];
            (rest.len() as i32, rest.iter().map(|r| r.end - r.start).sum::<i32>())
        };
        for (i, r) in self.ranges.iter().enumerate() {
            if r.start > seq {
                let (c, b) = counts(i);
                return (seq, c, b);
            }
            if r.start <= seq && r.end >= seq {
                let (c, b) = if i + 1 < self.ranges.len() { counts(i + 1) } else { (-1, -1) };
                return (r.end, c, b);
            }
        }
        (-1, -1, -1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(q: &Reassembly) -> Vec<(i32, i32, i32)> {
        q.ranges.iter().map(|r| (r.start, r.end, r.flags)).collect()
    }

    #[test]
    fn a_hole_filled_moves_the_next_byte_past_the_queued_data() {
        let mut q = Reassembly::default();
        let mut nxt = 100;
        assert_eq!(q.add(200, 300, 0x10, &mut nxt), 0x10);
        assert_eq!(nxt, 100, "out of order: nothing delivered");
        assert_eq!(q.add(400, 500, 0x11, &mut nxt), 0x11);
        assert_eq!(q.total(), 200);
        // The hole 100..200 filled: the range joins 200..300, not 400..500.
        assert_eq!(q.add(100, 200, 0x08, &mut nxt), 0x18);
        assert_eq!(nxt, 300);
        assert_eq!(q.clear_to(nxt), 0x18);
        assert_eq!(spans(&q), vec![(400, 500, 0x11)]);
        assert_eq!(q.total(), 100);
        // Then 300..400: the FIN of 400..500 becomes in order.
        assert_eq!(q.add(300, 400, 0x10, &mut nxt), 0x11);
        assert_eq!(nxt, 500);
        assert_eq!(q.clear_to(nxt), 0x11);
        assert!(q.is_empty());
        assert_eq!(q.total(), 0);
    }

    #[test]
    fn overlapping_and_duplicate_segments_merge() {
        let mut q = Reassembly::default();
        let mut nxt = 0;
        q.add(10, 20, 1, &mut nxt);
        q.add(30, 40, 2, &mut nxt);
        // Overlapping both: each takes its side, the middle joins them.
        q.add(15, 35, 4, &mut nxt);
        assert_eq!(spans(&q), vec![(10, 40, 5)], "joining both keeps p's flags and the new ones (rq.cc)");
        assert_eq!(q.add(10, 40, 8, &mut nxt), 13, "an exact duplicate adds its flags");
        assert_eq!(nxt, 0);
        assert_eq!(q.total(), 30);
        // Trimming in the middle keeps the rest and reports its flags.
        assert_eq!(q.clear_to(25), 13);
        assert_eq!(spans(&q), vec![(25, 40, 13)]);
        assert_eq!(q.total(), 15);
    }

    #[test]
    fn sack_blocks_come_most_recent_first_and_a_grown_range_keeps_its_place() {
        let mut q = Reassembly::default();
        let mut nxt = 0;
        q.add(100, 200, 0, &mut nxt);
        q.add(300, 400, 0, &mut nxt);
        q.add(500, 600, 0, &mut nxt);
        let mut out = [(0, 0); 4];
        assert_eq!(q.sack_blocks(3, &mut out), 3);
        assert_eq!(&out[..3], &[(500, 600), (300, 400), (100, 200)]);
        // 200..250 grows the oldest range, which stays at the bottom.
        q.add(200, 250, 0, &mut nxt);
        assert_eq!(q.sack_blocks(2, &mut out), 2);
        assert_eq!(&out[..2], &[(500, 600), (300, 400)]);
        q.add(700, 800, 0, &mut nxt);
        assert_eq!(q.sack_blocks(4, &mut out), 4);
        assert_eq!(out, [(700, 800), (500, 600), (300, 400), (100, 250)]);
    }

    #[test]
    fn next_hole_skips_covered_bytes_and_counts_what_lies_above() {
        let mut q = Reassembly::default();
        let mut low = -1;
        q.add(1000, 2000, 0, &mut low);
        q.add(3000, 3500, 0, &mut low);
        assert_eq!(q.next_hole(500), (500, 2, 1500));
        assert_eq!(q.next_hole(1500), (2000, 1, 500));
        assert_eq!(q.next_hole(3000), (3500, -1, -1));
        assert_eq!(q.next_hole(4000), (-1, -1, -1));
    }
}
