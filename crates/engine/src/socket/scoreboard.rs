//! The sender's record of what it has sent and not yet seen acknowledged:
//! ns-3.37's `TcpTxBuffer` sent list and its counters (`m_sentSize`,
//! `m_sackedOut`, `m_lostOut`, `m_retrans`), one entry per segment.
//!
//! The full TCP only ever sends whole segments on a fixed grid (ns-3 too:
//! its silly-window check never lets a partial segment out while more data
//! waits, and a retransmission is cut to at most one MSS), so an entry is a
//! segment's flags and length, in a ring that keeps its capacity: nothing is
//! allocated per packet once it has grown to the largest flight.
//!
//! Without SACK, ns-3 emulates it from duplicate ACKs (`AddRenoSack`: each
//! dupack marks the first unsacked segment after the head), so that
//! `bytes_in_flight` (RFC 6675's pipe) falls as dupacks arrive; that is how
//! classic recovery lets new segments out without an inflated cwnd.

use crate::ring::Ring;

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;
/// Counted as delivered (SACKed): not counted again when cumulatively
/// acknowledged (ns-3's rate sampler marks the item's delivered time).
const DELIVERED: u8 = 8;

#[derive(Clone, Copy, Debug)]
struct Seg {
    flags: u8,
    len: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    segs: Ring<Seg>,
    /// Bytes sent and not acknowledged (`m_sentSize`).
    pub sent: u32,
    pub sacked: u32,
    pub lost: u32,
    pub retrans: u32,
    /// Index of the highest segment SACKed (ns-3's `m_highestSack`), if any.
    highest_sack: Option<usize>,
    /// Segments lost, not SACKed, not yet resent (what `first_lost` looks
    /// for), and a lower bound of the first one's index; with the
    /// first-unsacked hint below they keep the searches from rescanning the
    /// window on every segment sent or duplicate ACK.
    pending: usize,
    lost_hint: usize,
    /// No segment in 1..sack_hint is unSACKed.
    sack_hint: usize,
    /// Every segment below this index is SACKed or lost (what
    /// `update_lost_count` has already marked; it starts from here).
    lost_below: usize,
}

#[inline]
fn is_pending(f: u8) -> bool {
    f & (LOST | RETRANS | SACKED) == LOST
}

impl Scoreboard {
    pub fn new() -> Scoreboard {
        Scoreboard { sack_hint: 1, ..Scoreboard::default() }
    }

    /// Change segment `i`'s flags, keeping every counter in step.
    #[inline]
    fn set(&mut self, i: usize, new: u8) {
        let s = self.segs[i];
        let (old, len) = (s.flags, s.len);
        if old == new {
            return;
        }
        let d = |c: &mut u32, bit: u8| {
            if old & bit != 0 {
                *c -= len;
            }
            if new & bit != 0 {
                *c += len;
            }
        };
        d(&mut self.sacked, SACKED);
        d(&mut self.lost, LOST);
        d(&mut self.retrans, RETRANS);
        if is_pending(old) {
            self.pending -= 1;
        }
        if is_pending(new) {
            self.pending += 1;
            self.lost_hint = self.lost_hint.min(i);
        }
        if old & SACKED != 0 && new & SACKED == 0 && i >= 1 {
            self.sack_hint = self.sack_hint.min(i);
        }
        self.segs[i].flags = new;
    }

    /// The counters without segment `s`'s marks, as `set(i, 0)` leaves
    /// them (for the head, just taken off the list).
    fn unmark(&mut self, s: Seg) {
        let d = |c: &mut u32, bit: u8| {
            if s.flags & bit != 0 {
                *c -= s.len;
            }
        };
        d(&mut self.sacked, SACKED);
        d(&mut self.lost, LOST);
        d(&mut self.retrans, RETRANS);
        if is_pending(s.flags) {
            self.pending -= 1;
        }
    }

    /// Segments outstanding.
    #[inline]
    pub fn len(&self) -> usize {
        self.segs.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// Length of segment `i` (from the head).
    #[inline]
    pub fn seg_len(&self, i: usize) -> u32 {
        self.segs[i].len
    }

    /// RFC 6675's pipe as ns-3 counts it (`TcpTxBuffer::BytesInFlight`):
    /// sent - (sacked + lost) + retransmitted.
    #[inline]
    pub fn bytes_in_flight(&self) -> u32 {
        self.sent - (self.sacked + self.lost) + self.retrans
    }

    /// A new segment went out (`GetNewSegment`).
    #[inline]
    pub fn push_new(&mut self, len: u32) {
        self.segs.push_back(Seg { flags: 0, len });
        self.sent += len;
    }

    /// Segment `i` was sent again (`GetTransmittedSegment`): marked
    /// retransmitted; a lost mark stays (so it counts in flight once).
    pub fn retransmitted(&mut self, i: usize) {
        let f = self.segs[i].flags;
        self.set(i, (f | RETRANS) & !DELIVERED);
    }

    /// `DiscardUpTo`: drop the first `n` segments (acknowledged).  If the new
    /// head was marked SACKed (a Reno guess that turned out wrong), the mark
    /// moves on and the head is marked lost, as ns-3 does.
    /// Returns the bytes newly delivered: those of segments not already
    /// counted when SACKed (ns-3's `SkbDelivered` on each item removed).
    pub fn discard(&mut self, n: usize) -> u32 {
        let mut delivered = 0;
        for _ in 0..n {
            let s = self.segs.pop_front().expect("discard past the sent list");
            if s.flags & DELIVERED == 0 {
                delivered += s.len;
            }
            if s.flags != 0 {
                // its marks leave the counters (`set` to no flags; the
                // hints it moves are at index 0 already); a segment without
                // marks, the usual one, changes none
                self.unmark(s);
            }
            self.sent -= s.len;
        }
        self.lost_hint = self.lost_hint.saturating_sub(n);
        self.lost_below = self.lost_below.saturating_sub(n);
        self.sack_hint = self.sack_hint.saturating_sub(n).max(1);
        self.highest_sack = match self.highest_sack {
            Some(h) if h >= n => Some(h - n),
            _ => None,
        };
        if let Some(head) = self.segs.front() {
            if head.flags & SACKED != 0 {
                let f = head.flags;
                self.set(0, f & !SACKED);
                self.add_reno_sack();
                self.mark_head_lost();
            }
        }
        if self.segs.is_empty() {
            self.highest_sack = None;
        }
        delivered
    }

    /// `AddRenoSack`: a duplicate ACK means one more segment after the head
    /// has arrived; mark the first unsacked one (never the head).
    pub fn add_reno_sack(&mut self) {
        let mut i = self.sack_hint.max(1);
        while i < self.segs.len() && self.segs[i].flags & SACKED != 0 {
            i += 1;
        }
        self.sack_hint = i;
        if i < self.segs.len() {
            let f = self.segs[i].flags;
            self.set(i, f | SACKED);
            self.highest_sack = Some(i);
        }
    }

    /// `ResetRenoSack`.
    pub fn reset_reno_sack(&mut self) {
        self.lost_below = 0;
        if self.sacked > 0 {
            for i in 0..self.segs.len() {
                let f = self.segs[i].flags;
                self.set(i, f & !SACKED);
            }
        }
        self.highest_sack = None;
        self.sack_hint = 1;
    }

    /// `MarkHeadAsLost`: unsack and un-retransmit the head, mark it lost.
    pub fn mark_head_lost(&mut self) {
        let Some(h) = self.segs.front() else { return };
        let f = h.flags;
        self.set(0, (f & !(SACKED | RETRANS)) | LOST);
    }

    /// `SetSentListLost`: after a retransmission timeout every segment is
    /// lost (`reset_sack`: SACK marks forgotten too, as without SACK).
    pub fn set_all_lost(&mut self, reset_sack: bool) {
        for i in 0..self.segs.len() {
            let f = self.segs[i].flags;
            let new = if reset_sack {
                LOST
            } else if f & SACKED == 0 {
                (f | LOST) & !RETRANS
            } else {
                f & !RETRANS
            };
            self.set(i, new);
        }
        if reset_sack {
            self.highest_sack = None;
            self.sack_hint = 1;
        }
        self.lost_hint = 0;
    }

    /// RFC 6675 NextSeg rule (1) as ns-3 applies it: the first segment lost,
    /// not SACKed and not yet retransmitted.
    pub fn first_lost(&mut self) -> Option<usize> {
        if self.pending == 0 {
            return None;
        }
        let mut i = self.lost_hint;
        while !is_pending(self.segs[i].flags) {
            i += 1;
        }
        self.lost_hint = i;
        Some(i)
    }

    /// `IsLost` for the segment at index `i`: ns-3 scans from it for the
    /// first lost or sacked mark (nothing at or beyond the highest SACK is lost).
    pub fn is_lost(&self, i: usize) -> bool {
        match self.highest_sack {
            Some(h) if i < h => {}
            _ => return false,
        }
        for s in self.segs.iter().skip(i) {
            if s.flags & LOST != 0 {
                return true;
            }
            if s.flags & SACKED != 0 {
                return false;
            }
        }
        false
    }

    /// `IsRetransmittedDataAcked` for the segment ending at index `i`'s end:
    /// retransmitted and not SACKed.
    pub fn retransmitted_unsacked(&self, i: usize) -> bool {
        self.segs.get(i).is_some_and(|s| s.flags & RETRANS != 0 && s.flags & SACKED == 0)
    }

    /// `IsHeadRetransmitted`.
    pub fn head_retransmitted(&self) -> bool {
        self.segs.front().is_some_and(|s| s.flags & RETRANS != 0)
    }

    /// `TcpTxBuffer::Update`: the SACK blocks of an ACK, in byte sequence
    /// numbers, with `una` the first byte of segment 0 and every segment
    /// but the last `mss` long (the grid is fixed).  A segment is SACKed
    /// only if a block covers it wholly.  Returns (bytes newly SACKed,
    /// bytes newly delivered); after a change, `update_lost_count` marks
    /// the segments that `dupthresh` SACKed ones lie above as lost.
    pub fn update(&mut self, blocks: &[(u64, u64)], una: u64, mss: u32, dupthresh: u32) -> (u32, u32) {
        self.update_with(blocks, una, mss, dupthresh, |_, _| {})
    }

    /// `update`, telling `on_sacked` (index, length) of each segment newly
    /// SACKed, in the order ns-3's `Update` calls the rate sampler.
    #[inline]
    pub fn update_with(&mut self, blocks: &[(u64, u64)], una: u64, mss: u32, dupthresh: u32, mut on_sacked: impl FnMut(usize, u32)) -> (u32, u32) {
        let m = mss as u64;
        let end = una + self.sent as u64;
        let mut sacked = 0;
        let mut delivered = 0;
        for &(a, b) in blocks {
            if end < a {
                // "the option block is outside the sent list": ns-3 stops here
                break;
            }
            let mut i = if a <= una { 0 } else { (a - una).div_ceil(m) } as usize;
            while i < self.segs.len() {
                let begin = una + i as u64 * m;
                let s = self.segs[i];
                if begin + s.len as u64 > b {
                    break;
                }
                if s.flags & SACKED == 0 {
                    self.set(i, (s.flags | SACKED | DELIVERED) & !LOST);
                    on_sacked(i, s.len);
                    sacked += s.len;
                    if s.flags & DELIVERED == 0 {
                        delivered += s.len;
                    }
                    // ns-3 moves the highest mark when its start is at or
                    // below this segment's end: a segment just below it
                    // takes the mark too
                    match self.highest_sack {
                        Some(h) if h > i + 1 => {}
                        _ => self.highest_sack = Some(i),
                    }
                }
                i += 1;
            }
        }
        if sacked > 0 {
            self.update_lost_count(dupthresh);
        }
        (sacked, delivered)
    }

    /// `UpdateLostCount`: counting SACKed segments down from the highest,
    /// every segment below the `dupthresh`-th one that is neither SACKed
    /// nor lost becomes lost (the head included).
    fn update_lost_count(&mut self, dupthresh: u32) {
        let Some(h) = self.highest_sack else { return };
        let mut count = 0;
        let mut k = h + 1;
        while k > 1 {
            k -= 1;
            if self.segs[k].flags & SACKED != 0 {
                count += 1;
                if count >= dupthresh {
                    break;
                }
            }
        }
        if count < dupthresh {
            return;
        }
        // segments k-1 down to 0 (ns-3 walks down to 1 and then the head)
        for i in self.lost_below..k {
            let f = self.segs[i].flags;
            if f & (SACKED | LOST) == 0 {
                self.set(i, f | LOST);
            }
        }
        self.lost_below = self.lost_below.max(k);
    }

    /// NextSeg rule (3): the first segment neither SACKed nor resent.
    pub fn first_unsacked_unsent(&self) -> Option<usize> {
        self.segs.iter().position(|s| s.flags & (SACKED | RETRANS) == 0)
    }

    /// `m_isRetransDataAcked`: one of the first `n` segments (about to be
    /// acknowledged) was retransmitted and not SACKed.
    pub fn retransmission_in(&self, n: usize) -> bool {
        self.segs.iter().take(n).any(|s| s.flags & RETRANS != 0 && s.flags & SACKED == 0)
    }

    /// Everything forgotten (a new connection).
    pub fn clear(&mut self) {
        self.segs.clear();
        *self = Scoreboard { segs: std::mem::take(&mut self.segs), ..Scoreboard::new() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u32 = 1000;

    /// The counters against a recount of the flags.
    fn check(b: &Scoreboard) {
        let sum = |bit: u8| b.segs.iter().filter(|s| s.flags & bit != 0).map(|s| s.len).sum::<u32>();
        assert_eq!((b.sacked, b.lost, b.retrans), (sum(SACKED), sum(LOST), sum(RETRANS)));
        assert_eq!(b.pending, b.segs.iter().filter(|s| is_pending(s.flags)).count());
        assert_eq!(b.sent, b.segs.iter().map(|s| s.len).sum::<u32>());
        assert!(b.segs.iter().take(b.lost_below).all(|s| s.flags & (SACKED | LOST) != 0));
        assert!(b.lost_below <= b.segs.len());
    }

    fn board(n: usize) -> Scoreboard {
        let mut b = Scoreboard::new();
        for _ in 0..n {
            b.push_new(M);
        }
        b
    }

    #[test]
    fn dupacks_shrink_the_pipe_and_fast_retransmit_restores_one() {
        let mut b = board(10);
        assert_eq!(b.bytes_in_flight(), 10 * M);
        // two dupacks (limited transmit), then the third enters recovery
        b.add_reno_sack();
        b.add_reno_sack();
        b.add_reno_sack();
        b.mark_head_lost();
        // 10 sent - 3 sacked - 1 lost
        assert_eq!(b.bytes_in_flight(), 6 * M);
        assert_eq!(b.first_lost(), Some(0));
        b.retransmitted(0);
        assert_eq!(b.bytes_in_flight(), 7 * M);
        assert_eq!(b.first_lost(), None);
        // a partial ACK of 5 segments: the sacked ones go, the new head is unsacked
        b.discard(5);
        assert_eq!((b.sent, b.sacked, b.lost, b.retrans), (5 * M, 0, 0, 0));
        check(&b);
    }

    #[test]
    fn a_sacked_head_after_an_ack_is_moved_on_and_marked_lost() {
        let mut b = board(5);
        b.add_reno_sack(); // segment 1
        b.discard(1); // segment 1 is now the head, sacked: a wrong guess
        assert_eq!(b.sacked, M);
        assert_eq!(b.lost, M);
        assert_eq!(b.first_lost(), Some(0));
        assert_eq!(b.bytes_in_flight(), 2 * M);
        check(&b);
    }

    #[test]
    fn timeout_marks_everything_lost() {
        let mut b = board(4);
        b.add_reno_sack();
        b.retransmitted(0);
        b.set_all_lost(true);
        assert_eq!(b.bytes_in_flight(), 0);
        assert_eq!(b.first_lost(), Some(0));
        b.retransmitted(0);
        assert_eq!(b.bytes_in_flight(), M);
        assert_eq!(b.first_lost(), Some(1));
        assert!(b.head_retransmitted());
        check(&b);
    }

    /// A random walk of the operations the socket makes, the counters and
    /// hints checked against a recount after each step.
    #[test]
    fn counters_follow_the_flags_under_random_operations() {
        let mut b = Scoreboard::new();
        let mut x: u64 = 12345;
        for _ in 0..20000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = (x >> 33) % 10;
            match r {
                0 | 1 => b.push_new(M),
                2 if !b.is_empty() => b.add_reno_sack(),
                3 if !b.is_empty() => b.mark_head_lost(),
                4 if !b.is_empty() => {
                    let n = ((x >> 40) as usize % 3).min(b.len());
                    b.discard(n);
                }
                5 if !b.is_empty() => {
                    if let Some(i) = b.first_lost() {
                        b.retransmitted(i)
                    }
                }
                6 if (x >> 50) % 50 == 0 => b.set_all_lost(true),
                7 if (x >> 50) % 20 == 0 => b.reset_reno_sack(),
                8 | 9 if b.len() > 1 => {
                    // a SACK block over a random run of segments above the head
                    let a = 1 + (x >> 20) as usize % (b.len() - 1);
                    let n = 1 + (x >> 44) as usize % 3;
                    let (l, r) = (a as u64 * M as u64, ((a + n).min(b.len()) as u64) * M as u64);
                    b.update(&[(l, r)], 0, M, 3);
                }
                _ => {}
            }
            check(&b);
            let naive = b.segs.iter().position(|s| is_pending(s.flags));
            assert_eq!(b.clone().first_lost(), naive);
        }
    }

    /// ns-3.37's tcp-tx-buffer-test.cc, `TestIsLost`: ten segments of 1000
    /// bytes from sequence 1; SACKing the second and third marks nothing
    /// lost; with the fourth (three SACKed above it, DupThresh 3) the head is
    /// lost and nothing else.
    #[test]
    fn ns3_tx_buffer_test_is_lost() {
        let mut b = board(10);
        let mut blocks = Vec::new();
        for (k, lost_head) in [(1u64, false), (2, false), (3, true)] {
            blocks.push((k * 1000 + 1, k * 1000 + 1001));
            b.update(&blocks, 1, M, 3);
            assert_eq!(b.is_lost(0), lost_head, "after block {k}");
            for i in 1..10 {
                assert!(!b.is_lost(i), "segment {i} after block {k}");
            }
            check(&b);
        }
    }

    /// `TestNextSeg`'s first part (150-byte segments from 1, DupThresh 3):
    /// two SACKed segments (limited transmit) mark nothing lost; the third
    /// marks the head, which rule (1) returns, once; SACKs of the later
    /// segments add nothing to retransmit; a partial ACK of the head that
    /// finds the new head SACKed (a wrong guess) moves the mark on and
    /// makes the new head the one to resend.
    #[test]
    fn ns3_tx_buffer_test_next_seg_rule_1() {
        let m = 150;
        let mut b = Scoreboard::new();
        for _ in 0..100 {
            b.push_new(m);
        }
        let seg = |i: u64| (1 + i * m as u64, 1 + (i + 1) * m as u64);
        for i in 1..3 {
            b.update(&[seg(i)], 1, m, 3);
            assert_eq!(b.first_lost(), None, "limited transmit: new data");
        }
        b.update(&[seg(3)], 1, m, 3);
        assert_eq!(b.first_lost(), Some(0));
        b.retransmitted(0);
        for i in 4..=7 {
            b.update(&[seg(i)], 1, m, 3);
            assert_eq!(b.first_lost(), None);
        }
        // the ACK of the head: segment 1, SACKed, is the head now
        b.discard(1);
        assert_eq!(b.first_lost(), Some(0));
        check(&b);
    }

    #[test]
    fn is_lost_needs_a_sack_above() {
        let mut b = board(6);
        assert!(!b.is_lost(1));
        b.mark_head_lost();
        b.add_reno_sack();
        b.add_reno_sack();
        // segment 1 is sacked: not lost
        assert!(!b.is_lost(1));
        assert!(b.is_lost(0));
    }
}
