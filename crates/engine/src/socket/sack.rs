//! SACK (RFC 2018) at the receiver: the blocks of out-of-order data it
//! reports, kept as ns-3.37's `TcpRxBuffer` keeps its SACK list
//! (`UpdateSackList`, `ClearSackList`), and how many of them fit in a
//! pure ACK's options (`AddOptionSack`).  The sender's side, the
//! scoreboard that the blocks update, is `scoreboard.rs`.
//!
//! The list holds at most four blocks, the most recent first: a newly
//! stored range goes in front, merged with a block it touches (RFC 2018's
//! rule (a): the first block names the data that triggered the ACK); the
//! oldest falls off the end.  A fixed array, so nothing is allocated.

/// Blocks a TCP header has room for (40 option bytes, 8 a block plus 2).
pub const MAX_BLOCKS: usize = 4;

/// The receiver's SACK blocks `[start, end)` in byte sequence numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackList {
    blocks: [(u64, u64); MAX_BLOCKS],
    len: usize,
}

impl SackList {
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn blocks(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len]
    }

    /// `UpdateSackList`: `[head, tail)` was stored out of order.  It goes in
    /// front; a block that ends where it starts, or starts where it ends, is
    /// merged into it (the merged block stays in front and the scan goes
    /// on from the next); a fifth block drops the last.
    #[cold]
    pub fn stored(&mut self, head: u64, tail: u64) {
        // push_front into a list of at most 5 (the fifth dropped at the end)
        let mut l = [(0u64, 0u64); MAX_BLOCKS + 1];
        l[0] = (head, tail);
        l[1..=self.len].copy_from_slice(&self.blocks[..self.len]);
        let mut n = self.len + 1;
        let mut i = 1;
        while i < n {
            let (b, c) = (l[0], l[i]);
            let merged = if b.0 == c.1 {
                Some((c.0, b.1))
            } else if b.1 == c.0 {
                Some((b.0, c.1))
            } else {
                None
            };
            if let Some(m) = merged {
                // erase block i, the merged block replaces the first; the
                // scan resumes after the first (ns-3 restarts at begin and
                // increments)
                l.copy_within(i + 1..n, i);
                n -= 1;
                l[0] = m;
                i = 1;
                continue;
            }
            i += 1;
        }
        self.len = n.min(MAX_BLOCKS);
        self.blocks[..self.len].copy_from_slice(&l[..self.len]);
    }

    /// `ClearSackList`: the in-order point reached `next`; blocks wholly
    /// below it go.
    #[cold]
    pub fn clear_below(&mut self, next: u64) {
        let mut k = 0;
        for i in 0..self.len {
            if self.blocks[i].1 > next {
                self.blocks[k] = self.blocks[i];
                k += 1;
            }
        }
        self.len = k;
    }

    /// Blocks a pure ACK carries: as many as the 40 option bytes hold after
    /// the others (the timestamp option's 10), in list order.
    pub fn allowed(&self, other_options: u32) -> usize {
        let avail = 40u32.saturating_sub(other_options);
        (avail.saturating_sub(2) / 8).min(self.len as u32) as usize
    }
}

/// The SACK option's length in bytes for `n` blocks (0: no option).
#[inline]
pub fn option_len(n: usize) -> u32 {
    if n == 0 {
        0
    } else {
        2 + 8 * n as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-3.37's tcp-rx-buffer-test.cc (`TestUpdateSACKList`), through the
    /// reassembly that keeps the list: 100-byte segments, the expected
    /// next byte and blocks after each.
    #[test]
    fn ns3_rx_buffer_test_update_sack_list() {
        use super::super::rx::Reassembly;
        let mut r = Reassembly::new(1);
        let cap = 1 << 20;
        let mut add = |seq: u64| {
            r.add(seq, 100, cap);
            (r.next, r.sacks.blocks().to_vec())
        };
        assert_eq!(add(1), (101, vec![]));
        assert_eq!(add(501), (101, vec![(501, 601)]));
        // in order, not reaching the block: it stays
        assert_eq!(add(101), (201, vec![(501, 601)]));
        // merge on the right, then on the left
        assert_eq!(add(401), (201, vec![(401, 601)]));
        assert_eq!(add(601), (201, vec![(401, 701)]));
        // new blocks go in front
        assert_eq!(add(901), (201, vec![(901, 1001), (401, 701)]));
        assert_eq!(add(1201), (201, vec![(1201, 1301), (901, 1001), (401, 701)]));
        assert_eq!(add(1401), (201, vec![(1401, 1501), (1201, 1301), (901, 1001), (401, 701)]));
        // in order, short of the first block: all four stay
        assert_eq!(add(201).1.len(), 4);
        // in order into the lowest block: it goes
        assert_eq!(add(301), (701, vec![(1401, 1501), (1201, 1301), (901, 1001)]));
        // a left merge moves the block to the top
        assert_eq!(add(801), (701, vec![(801, 1001), (1401, 1501), (1201, 1301)]));
        assert_eq!(add(701), (1001, vec![(1401, 1501), (1201, 1301)]));
        // a right merge, then a left one, into one block on top
        assert_eq!(add(1301), (1001, vec![(1201, 1501)]));
        assert_eq!(add(1001), (1101, vec![(1201, 1501)]));
        assert_eq!(add(1101), (1501, vec![]));
    }

    #[test]
    fn the_fifth_block_drops_the_oldest_and_the_newest_is_first() {
        let mut l = SackList::default();
        for k in 0..5u64 {
            l.stored(1000 * (k + 1), 1000 * (k + 1) + 100);
        }
        assert_eq!(l.len(), 4);
        assert_eq!(l.blocks()[0], (5000, 5100));
        assert_eq!(l.blocks()[3], (2000, 2100));
        // a block below the in-order point is cleared, the others kept in order
        l.clear_below(3100);
        assert_eq!(l.blocks(), &[(5000, 5100), (4000, 4100)]);
    }

    #[test]
    fn blocks_a_pure_ack_holds() {
        let mut l = SackList::default();
        for k in 0..4u64 {
            l.stored(1000 * (k + 1), 1000 * (k + 1) + 100);
        }
        // with timestamps (10 bytes): (40 - 10 - 2) / 8 = 3
        assert_eq!(l.allowed(10), 3);
        assert_eq!(l.allowed(0), 4);
        assert_eq!(option_len(3), 26);
    }
}
