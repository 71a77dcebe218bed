//! The receive side's reassembly queue (ns-2's `ReassemblyQueue`,
//! tcp/rq.cc): the byte ranges received above the next expected byte,
//! each with the TCP flags of the segments that made it.
//!
//! ns-2 keeps the ranges in a doubly linked list (and a LIFO stack for
//! SACK, not needed here); what the receiver reads from it is the same
//! with a sorted vector of disjoint, non-adjacent ranges: where the next
//! expected byte moves when a range is added, and the union of the flags
//! of the ranges that become in order (a FIN, a PUSH).

/// One range of bytes `[start, end)` and the OR of its segments' flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    start: i32,
    end: i32,
    flags: i32,
}

/// Out-of-order data held until the hole before it is filled.
#[derive(Clone, Debug, Default)]
pub struct Reassembly {
    ranges: Vec<Range>,
}

impl Reassembly {
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub fn clear(&mut self) {
        self.ranges.clear();
    }

    /// `add(start, end, flags)`: merge the segment `[start, end)` with the
    /// ranges it overlaps or touches; if the merged range begins at or
    /// before `rcv_nxt`, the next expected byte moves to its end.  Returns
    /// the merged range's flags.
    pub fn add(&mut self, start: i32, end: i32, flags: i32, rcv_nxt: &mut i32) -> i32 {
        let mut merged = Range { start, end, flags };
        // The first range that ends at or after `start` (touching counts).
        let first = self.ranges.partition_point(|r| r.end < start);
        let mut last = first;
        while last < self.ranges.len() && self.ranges[last].start <= end {
            let r = self.ranges[last];
            merged.start = merged.start.min(r.start);
            merged.end = merged.end.max(r.end);
            merged.flags |= r.flags;
            last += 1;
        }
        self.ranges.splice(first..last, [merged]);
        if *rcv_nxt >= merged.start && *rcv_nxt < merged.end {
            *rcv_nxt = merged.end;
        }
        merged.flags
    }

    /// `clearto(seq)`: drop what lies below `seq` (a range straddling it is
    /// trimmed); returns the OR of the flags of the ranges touched.
    pub fn clear_to(&mut self, seq: i32) -> i32 {
        let mut flags = 0;
        let n = self.ranges.partition_point(|r| r.end <= seq);
        for r in self.ranges.drain(..n) {
            flags |= r.flags;
        }
        if let Some(r) = self.ranges.first_mut() {
            if r.start <= seq && r.end > seq {
                r.start = seq;
                flags |= r.flags;
            }
        }
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hole_filled_moves_the_next_byte_past_the_queued_data() {
        let mut q = Reassembly::default();
        let mut nxt = 100;
        assert_eq!(q.add(200, 300, 0x10, &mut nxt), 0x10);
        assert_eq!(nxt, 100, "out of order: nothing delivered");
        assert_eq!(q.add(400, 500, 0x11, &mut nxt), 0x11);
        assert_eq!(q.ranges.len(), 2);
        // The hole 100..200 filled: the range joins 200..300, not 400..500.
        assert_eq!(q.add(100, 200, 0x08, &mut nxt), 0x18);
        assert_eq!(nxt, 300);
        assert_eq!(q.clear_to(nxt), 0x18);
        assert_eq!(q.ranges, vec![Range { start: 400, end: 500, flags: 0x11 }]);
        // Then 300..400: the FIN of 400..500 becomes in order.
        assert_eq!(q.add(300, 400, 0x10, &mut nxt), 0x11);
        assert_eq!(nxt, 500);
        assert_eq!(q.clear_to(nxt), 0x11);
        assert!(q.is_empty());
    }

    #[test]
    fn overlapping_and_duplicate_segments_merge() {
        let mut q = Reassembly::default();
        let mut nxt = 0;
        q.add(10, 20, 1, &mut nxt);
        q.add(30, 40, 2, &mut nxt);
        q.add(15, 35, 4, &mut nxt);
        assert_eq!(q.ranges, vec![Range { start: 10, end: 40, flags: 7 }]);
        q.add(10, 40, 8, &mut nxt);
        assert_eq!(q.ranges, vec![Range { start: 10, end: 40, flags: 15 }]);
        assert_eq!(nxt, 0);
        // Trimming in the middle keeps the rest and reports its flags.
        assert_eq!(q.clear_to(25), 15);
        assert_eq!(q.ranges, vec![Range { start: 25, end: 40, flags: 15 }]);
    }
}
