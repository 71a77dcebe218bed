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

use std::collections::VecDeque;

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;

#[derive(Clone, Copy, Debug)]
struct Seg {
    flags: u8,
    len: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    segs: VecDeque<Seg>,
    /// Bytes sent and not acknowledged (`m_sentSize`).
    pub sent: u32,
    pub sacked: u32,
    pub lost: u32,
    pub retrans: u32,
    /// Index of the highest segment SACKed (ns-3's `m_highestSack`), if any.
    highest_sack: Option<usize>,
}

impl Scoreboard {
    pub fn new() -> Scoreboard {
        Scoreboard::default()
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
        let s = &mut self.segs[i];
        if s.flags & RETRANS == 0 {
            s.flags |= RETRANS;
            self.retrans += s.len;
        }
    }

    fn remove_counts(&mut self, s: Seg) {
        if s.flags & SACKED != 0 {
            self.sacked -= s.len;
        }
        if s.flags & RETRANS != 0 {
            self.retrans -= s.len;
        }
        if s.flags & LOST != 0 {
            self.lost -= s.len;
        }
    }

    /// `DiscardUpTo`: drop the first `n` segments (acknowledged).  If the new
    /// head was marked SACKed (a Reno guess that turned out wrong), the mark
    /// moves on and the head is marked lost, as ns-3 does.
    pub fn discard(&mut self, n: usize) {
        for _ in 0..n {
            let s = self.segs.pop_front().expect("discard past the sent list");
            self.sent -= s.len;
            self.remove_counts(s);
        }
        self.highest_sack = match self.highest_sack {
            Some(h) if h >= n => Some(h - n),
            _ => None,
        };
        if let Some(head) = self.segs.front() {
            if head.flags & SACKED != 0 {
                let len = head.len;
                self.segs[0].flags &= !SACKED;
                self.sacked -= len;
                self.add_reno_sack();
                self.mark_head_lost();
            }
        }
        if self.segs.is_empty() {
            self.highest_sack = None;
        }
    }

    /// `AddRenoSack`: a duplicate ACK means one more segment after the head
    /// has arrived; mark the first unsacked one (never the head).
    pub fn add_reno_sack(&mut self) {
        let mut i = 1;
        while i < self.segs.len() && self.segs[i].flags & SACKED != 0 {
            i += 1;
        }
        if i < self.segs.len() {
            self.segs[i].flags |= SACKED;
            self.sacked += self.segs[i].len;
            self.highest_sack = Some(i);
        }
    }

    /// `ResetRenoSack`.
    pub fn reset_reno_sack(&mut self) {
        self.sacked = 0;
        for s in self.segs.iter_mut() {
            s.flags &= !SACKED;
        }
        self.highest_sack = None;
    }

    /// `MarkHeadAsLost`: unsack and un-retransmit the head, mark it lost.
    pub fn mark_head_lost(&mut self) {
        let Some(h) = self.segs.front_mut() else { return };
        let len = h.len;
        let f = h.flags;
        h.flags = (f & !(SACKED | RETRANS)) | LOST;
        if f & SACKED != 0 {
            self.sacked -= len;
        }
        if f & RETRANS != 0 {
            self.retrans -= len;
        }
        if f & LOST == 0 {
            self.lost += len;
        }
    }

    /// `SetSentListLost`: after a retransmission timeout every segment is
    /// lost (`reset_sack`: SACK marks forgotten too, as without SACK).
    pub fn set_all_lost(&mut self, reset_sack: bool) {
        self.retrans = 0;
        if reset_sack {
            self.sacked = 0;
            self.lost = self.sent;
            self.highest_sack = None;
            for s in self.segs.iter_mut() {
                s.flags = LOST;
            }
        } else {
            self.lost = 0;
            for s in self.segs.iter_mut() {
                if s.flags & SACKED == 0 {
                    s.flags |= LOST;
                }
                s.flags &= !RETRANS;
                if s.flags & LOST != 0 {
                    self.lost += s.len;
                }
            }
        }
    }

    /// RFC 6675 NextSeg rule (1) as ns-3 applies it: the first segment lost,
    /// not SACKed and not yet retransmitted.
    pub fn first_lost(&self) -> Option<usize> {
        self.segs.iter().position(|s| s.flags & (RETRANS | SACKED) == 0 && s.flags & LOST != 0)
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

    /// Everything forgotten (a new connection).
    pub fn clear(&mut self) {
        self.segs.clear();
        self.sent = 0;
        self.sacked = 0;
        self.lost = 0;
        self.retrans = 0;
        self.highest_sack = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: u32 = 1000;

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
