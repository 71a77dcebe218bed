//! ns-2's `ScoreBoard1` (tcp/scoreboard1.cc), the SACK scoreboard of
//! Agent/TCP/Linux: the outstanding packets as a list of blocks, each in
//! flight, SACKed, lost (by FACK: more than `dupack_threshold` + 1 below
//! the highest SACKed packet) or retransmitted (one packet per block,
//! remembering `snd_nxt` when it was resent and a retransmission id, by
//! which a retransmission is found lost again).
//!
//! The list is kept in an arena (`nodes`, with a free list) linked by
//! index as ns-2's is by pointer, so a node split or merged costs no
//! allocation once the arena has grown.

use super::linux::{FLAG_DATA_LOST, FLAG_DATA_SACKED, FLAG_UNSURE_TSTAMP};

const INFLIGHT: u8 = 0;
const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANSMITTED: u8 = 4;

const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    flag: u8,
    seq: i32,
    /// The block's last packet, or for a retransmission `snd_nxt` when it
    /// was resent.
    nxt: i32,
    retran: i32,
    next: u32,
}

impl Node {
    fn end(&self) -> i32 {
        if self.flag == RETRANSMITTED {
            self.seq
        } else {
            self.nxt
        }
    }
    fn length(&self) -> i32 {
        if self.flag == RETRANSMITTED {
            1
        } else {
            self.nxt + 1 - self.seq
        }
    }
    fn set_flag(&mut self, flag: u8) {
        if self.flag == RETRANSMITTED {
            self.nxt = self.seq;
        }
        self.flag = flag;
    }
    /// 0: keep; -1: the whole block is acknowledged; n > 0: its first n
    /// packets are.
    fn should_clean(&self, ackseq: i32) -> i32 {
        if ackseq < self.seq {
            0
        } else if self.flag == RETRANSMITTED || ackseq >= self.nxt {
            -1
        } else {
            ackseq + 1 - self.seq
        }
    }
}

#[derive(Clone, Debug)]
pub struct ScoreBoard1 {
    nodes: Vec<Node>,
    free: Vec<u32>,
    head: u32,
    nxt_to_retrx: u32,
    acked_rtx_id: i32,
    rtx_id: i32,
    fack: i32,
    fack_out: i32,
    sack_out: i32,
}

impl Default for ScoreBoard1 {
    fn default() -> Self {
        ScoreBoard1 {
            nodes: Vec::new(),
            free: Vec::new(),
            head: NIL,
            nxt_to_retrx: NIL,
            acked_rtx_id: -1,
            rtx_id: 0,
            fack: 0,
            fack_out: 0,
            sack_out: 0,
        }
    }
}

impl ScoreBoard1 {
    fn alloc(&mut self, seq: i32, nxt: i32, flag: u8) -> u32 {
        let n = Node { flag, seq, nxt, retran: 0, next: NIL };
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = n;
            i
        } else {
            self.nodes.push(n);
            (self.nodes.len() - 1) as u32
        }
    }

    fn n(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    fn nm(&mut self, i: u32) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.head == NIL
    }

    /// Packets in flight: sent, not acknowledged, not SACKed, not lost.
    #[inline]
    pub fn packets_in_flight(&self, snd_una: i32, snd_nxt: i32) -> i32 {
        snd_nxt - snd_una - self.fack_out - self.sack_out
    }

    pub fn clear(&mut self) {
        self.rtx_id = 0;
        self.acked_rtx_id = -1;
        self.fack_out = 0;
        self.sack_out = 0;
        self.fack = 0;
        self.nxt_to_retrx = NIL;
        let mut i = self.head;
        while i != NIL {
            let next = self.n(i).next;
            self.free.push(i);
            i = next;
        }
        self.head = NIL;
    }

    /// Mergable: the next block has the same flag and is no retransmission.
    fn mergable(&self, i: u32) -> bool {
        let nx = self.n(i).next;
        nx != NIL && self.n(nx).flag != RETRANSMITTED && self.n(nx).flag == self.n(i).flag
    }

    fn merge(&mut self, i: u32) {
        let nx = self.n(i).next;
        let (nxt, next) = (self.n(nx).nxt, self.n(nx).next);
        let node = self.nm(i);
        node.nxt = nxt;
        node.next = next;
        self.free.push(nx);
    }

    /// Split block `i` at `seq`: the new block [seq, end] follows it.
    fn split(&mut self, i: u32, seq: i32) -> u32 {
        let (nxt, flag, next) = (self.n(i).nxt, self.n(i).flag, self.n(i).next);
        let j = self.alloc(seq, nxt, flag);
        self.nm(j).next = next;
        let node = self.nm(i);
        node.next = j;
        node.nxt = seq - 1;
        j
    }

    fn clean_rtx_queue(&mut self, last_ack: i32, flag: &mut u8) -> bool {
        let mut changed = false;
        while self.head != NIL {
            let h = self.head;
            let cmp = self.n(h).should_clean(last_ack);
            if cmp == 0 {
                break;
            }
            let pkt_num = if cmp < 0 { self.n(h).length() } else { cmp };
            match self.n(h).flag {
                SACKED => self.sack_out -= pkt_num,
                LOST => self.fack_out -= pkt_num,
                _ => {}
            }
            if cmp < 0 {
                let node = *self.n(h);
                self.head = node.next;
                if node.flag == RETRANSMITTED {
                    if node.retran > self.acked_rtx_id {
                        changed = true;
                        self.acked_rtx_id = node.retran;
                    }
                    *flag |= FLAG_UNSURE_TSTAMP;
                }
                if h == self.nxt_to_retrx {
                    self.nxt_to_retrx = self.head;
                }
                self.free.push(h);
            } else {
                self.nm(h).seq = last_ack + 1;
                break;
            }
        }
        changed
    }

    /// `UpdateScoreBoard`: the ACK `last_ack` with its SACK blocks
    /// `[left, right)`; returns FLAG_DATA_SACKED, FLAG_DATA_LOST,
    /// FLAG_UNSURE_TSTAMP as they apply.
    pub fn update(&mut self, last_ack: i32, sacks: &[(i32, i32)], dupack_threshold: i32) -> u8 {
        let mut flag = 0u8;
        let mut thorough = self.clean_rtx_queue(last_ack, &mut flag);
        if self.head == NIL {
            self.clear();
            thorough = false;
        }
        if !thorough && sacks.is_empty() {
            return flag;
        }
        // Drop D-SACKs, sort the rest by left edge.
        let mut left = [0i32; 5];
        let mut right = [0i32; 5];
        let mut sa_length = 0usize;
        for &(l, r) in sacks {
            if l >= last_ack {
                let mut j = sa_length;
                sa_length += 1;
                while j > 0 && left[j - 1] > l {
                    left[j] = left[j - 1];
                    right[j] = right[j - 1];
                    j -= 1;
                }
                left[j] = l;
                right[j] = r;
            }
        }
        if !thorough && sa_length == 0 {
            return flag;
        }
        if sa_length > 0 && self.fack < right[sa_length - 1] - 1 {
            self.fack = right[sa_length - 1] - 1;
            thorough = true;
        }
        if self.head == NIL {
            self.head = self.alloc(last_ack + 1, self.fack, INFLIGHT);
        }
        self.nxt_to_retrx = NIL;
        let lost_seq_threshold = self.fack - (dupack_threshold + 1);
        let mut now = self.head;
        let mut prev = NIL;
        let mut si = 0usize;
        while now != NIL && (si < sa_length || thorough) {
            if self.n(now).flag != SACKED {
                while si < sa_length && right[si] <= self.n(now).seq {
                    si += 1;
                }
                if si < sa_length && left[si] <= self.n(now).end() {
                    if left[si] > self.n(now).seq {
                        self.split(now, left[si]);
                    } else {
                        if right[si] <= self.n(now).end() {
                            self.split(now, right[si]);
                        }
                        let pktnum = self.n(now).length();
                        match self.n(now).flag {
                            LOST => self.fack_out -= pktnum,
                            RETRANSMITTED => {
                                self.acked_rtx_id = self.n(now).retran;
                                flag |= FLAG_UNSURE_TSTAMP;
                                thorough = true;
                            }
                            _ => {}
                        }
                        self.sack_out += pktnum;
                        flag |= FLAG_DATA_SACKED;
                        self.nm(now).set_flag(SACKED);
                    }
                }
                if si >= sa_length || left[si] > self.n(now).end() {
                    match self.n(now).flag {
                        RETRANSMITTED => {
                            let nd = *self.n(now);
                            if nd.nxt <= self.fack || nd.retran + dupack_threshold + 1 < self.acked_rtx_id {
                                self.nm(now).set_flag(LOST);
                                self.fack_out += 1;
                                flag |= FLAG_DATA_LOST;
                                if self.nxt_to_retrx == NIL {
                                    self.nxt_to_retrx = now;
                                }
                            }
                        }
                        INFLIGHT => {
                            if self.n(now).seq <= lost_seq_threshold {
                                if lost_seq_threshold < self.n(now).end() {
                                    self.split(now, lost_seq_threshold + 1);
                                }
                                self.nm(now).set_flag(LOST);
                                self.fack_out += self.n(now).length();
                                flag |= FLAG_DATA_LOST;
                                if self.nxt_to_retrx == NIL {
                                    self.nxt_to_retrx = now;
                                }
                            }
                        }
                        LOST => {
                            if self.nxt_to_retrx == NIL {
                                self.nxt_to_retrx = now;
                            }
                        }
                        _ => {}
                    }
                }
            }
            if prev != NIL && self.mergable(prev) {
                self.merge(prev);
            } else {
                prev = now;
            }
            if self.n(prev).next == NIL && self.n(prev).end() < self.fack {
                let s = self.n(prev).end() + 1;
                let j = self.alloc(s, self.fack, INFLIGHT);
                self.nm(prev).next = j;
            }
            now = self.n(prev).next;
        }
        flag
    }

    /// `MarkLoss`: a timeout; everything not SACKed is lost.
    pub fn mark_loss(&mut self, snd_una: i32, snd_nxt: i32) {
        self.nxt_to_retrx = NIL;
        let mut now = self.head;
        let mut prev = NIL;
        let mut last_lost = false;
        while now != NIL {
            if self.n(now).flag & SACKED == 0 {
                if self.n(now).flag & LOST == 0 {
                    self.fack_out += self.n(now).end() - self.n(now).seq + 1;
                }
                self.nm(now).set_flag(LOST);
                if last_lost {
                    self.merge(prev);
                    now = prev;
                } else if self.nxt_to_retrx == NIL {
                    self.nxt_to_retrx = now;
                }
                last_lost = true;
            } else {
                last_lost = false;
            }
            prev = now;
            now = self.n(now).next;
            if now == NIL && self.n(prev).end() + 1 < snd_nxt {
                let s = self.n(prev).end() + 1;
                now = self.alloc(s, snd_nxt - 1, INFLIGHT);
                self.nm(prev).next = now;
            }
        }
        if prev == NIL && snd_una < snd_nxt {
            self.head = self.alloc(snd_una, snd_nxt - 1, LOST);
            self.nxt_to_retrx = self.head;
            self.fack_out += snd_nxt - snd_una;
        }
        self.rtx_id = 0;
        self.acked_rtx_id = -1;
    }

    /// `GetNextRetran`: the next lost packet to resend, or -1.
    pub fn next_retran(&mut self) -> i32 {
        while self.nxt_to_retrx != NIL && self.n(self.nxt_to_retrx).flag != LOST {
            self.nxt_to_retrx = self.n(self.nxt_to_retrx).next;
        }
        if self.nxt_to_retrx != NIL {
            self.n(self.nxt_to_retrx).seq
        } else {
            -1
        }
    }

    /// `MarkRetran`: the packet `next_retran` gave is resent (with
    /// `snd_nxt` as it is now).
    pub fn mark_retran(&mut self, _retran_seqno: i32, snd_nxt: i32) {
        let i = self.nxt_to_retrx;
        debug_assert!(i != NIL);
        self.fack_out -= 1;
        if self.n(i).nxt > self.n(i).seq {
            let s = self.n(i).seq + 1;
            self.split(i, s);
        }
        let id = self.rtx_id;
        let node = self.nm(i);
        node.flag = RETRANSMITTED;
        node.nxt = snd_nxt;
        node.retran = id;
        self.rtx_id += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2's own walk-through (ScoreBoard1::test): ACK 1 with SACK [4,5)
    /// leaves 2-3 in flight (not yet 4 below the highest SACKed); SACK
    /// [7,8) makes fack 7: packets up to 7-4 = 3 are lost (2, 3), 4
    /// SACKed, 5-6 in flight; the first retransmission is 2.
    #[test]
    fn fack_marks_losses() {
        let mut sb = ScoreBoard1::default();
        let f = sb.update(1, &[(4, 5)], 3);
        assert_eq!(f & FLAG_DATA_SACKED, FLAG_DATA_SACKED);
        assert_eq!(f & FLAG_DATA_LOST, 0);
        assert_eq!(sb.next_retran(), -1);
        let f = sb.update(1, &[(7, 8)], 3);
        assert_eq!(f & FLAG_DATA_LOST, FLAG_DATA_LOST);
        assert_eq!((sb.fack, sb.sack_out, sb.fack_out), (7, 2, 2));
        assert_eq!(sb.next_retran(), 2);
        sb.mark_retran(2, 8);
        assert_eq!(sb.fack_out, 1);
        assert_eq!(sb.next_retran(), 3);
        // In flight: packets 2..=7 sent (snd_una 2, snd_nxt 8) less 2
        // SACKed and 1 lost = 3 (the retransmission of 2, and 5, 6).
        assert_eq!(sb.packets_in_flight(2, 8), 3);
        // A cumulative ACK past everything empties the board.
        sb.update(8, &[], 3);
        assert!(sb.is_empty());
        assert_eq!(sb.packets_in_flight(9, 9), 0);
    }

    /// A timeout marks everything unSACKed lost, from snd_una.
    #[test]
    fn mark_loss_on_empty_board() {
        let mut sb = ScoreBoard1::default();
        sb.mark_loss(10, 15);
        assert_eq!(sb.packets_in_flight(10, 15), 0);
        assert_eq!(sb.next_retran(), 10);
        sb.mark_retran(10, 15);
        assert_eq!(sb.next_retran(), 11);
        assert_eq!(sb.packets_in_flight(10, 15), 1);
    }
}
