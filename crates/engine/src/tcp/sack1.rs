//! SACK TCP (tcp/tcp-sack1.cc, `Agent/TCP/Sack1`): on the third duplicate
//! ACK it halves the window and enters fast recovery, where it keeps an
//! estimate of the packets in flight (`pipe_`) and sends, while the pipe
//! is below cwnd, first the holes the receiver's SACK blocks reveal, then
//! new data.  The scoreboard is ns-2's reassembly-queue scoreboard
//! (tcp/scoreboard-rq.cc over tcp/rq.cc).

use super::*;

/// `TCP_REASON_PARTIALACK`.
const REASON_PARTIALACK: i32 = 0x04;

/// What the sender knows the receiver holds above the cumulative ACK: the
/// SACKed blocks, kept sorted and merged (ns-2's `ReassemblyQueue`), plus
/// the highest sequence number retransmitted in this recovery (`h_seqno_`).
#[derive(Clone, Debug)]
pub struct ScoreBoard {
    /// Disjoint, non-touching `[start, end)` blocks in increasing order.
    blocks: Vec<(i32, i32)>,
    total: i64,
    h_seqno: i32,
    /// One above the highest cumulative ACK seen (`sack_min`, the queue's
    /// `rcv_nxt_`).
    sack_min: i32,
    changed: bool,
}

impl Default for ScoreBoard {
    fn default() -> Self {
        ScoreBoard { blocks: Vec::new(), total: 0, h_seqno: -1, sack_min: -1, changed: false }
    }
}

impl ScoreBoard {
    /// `ClearScoreBoard`: forget the blocks (not `sack_min`).
    pub fn clear(&mut self) {
        self.blocks.clear();
        self.total = 0;
        self.h_seqno = -1;
    }

    /// `ReassemblyQueue::add` for one SACK block.
    fn add(&mut self, start: i32, end: i32) {
        if end < start {
            return;
        }
        if self.blocks.is_empty() {
            self.blocks.push((start, end));
            self.total = (end - start) as i64;
            if self.sack_min >= start {
                self.sack_min = end;
            }
            return;
        }
        if self.blocks.contains(&(start, end)) {
            return;
        }
        if self.blocks.iter().any(|&(s, e)| s <= start && end <= e) {
            // Inside a block already held: nothing changes but the
            // queue's `rcv_nxt_` check against its first block.
            let (hs, he) = self.blocks[0];
            if self.sack_min >= hs {
                self.sack_min = he;
            }
            return;
        }
        // Merge with every block it overlaps or touches.
        let (mut s, mut e) = (start, end);
        let mut removed = 0i64;
        self.blocks.retain(|&(bs, be)| {
            if be >= start && bs <= end {
                s = s.min(bs);
                e = e.max(be);
                removed += (be - bs) as i64;
                false
            } else {
                true
            }
        });
        let at = self.blocks.iter().position(|&(bs, _)| bs > s).unwrap_or(self.blocks.len());
        self.blocks.insert(at, (s, e));
        self.total += (e - s) as i64 - removed;
        if self.sack_min >= s {
            self.sack_min = e;
        }
    }

    /// `ReassemblyQueue::clearto(sack_min)`.
    fn clear_to_sack_min(&mut self) {
        let seq = self.sack_min;
        while let Some(&(s, e)) = self.blocks.first() {
            if e <= seq {
                self.total -= (e - s) as i64;
                self.blocks.remove(0);
            } else {
                if s <= seq {
                    self.total -= (seq - s) as i64;
                    self.blocks[0].0 = seq;
                }
                break;
            }
        }
    }

    /// `UpdateScoreBoard`: a (duplicate) ACK for `last_ack` with SACK blocks.
    pub fn update(&mut self, last_ack: i32, sacks: &[(i32, i32)]) {
        let old_total = self.total;
        self.changed = false;
        if self.sack_min <= last_ack {
            self.sack_min = last_ack + 1;
            if !self.blocks.is_empty() {
                self.clear_to_sack_min();
                self.changed = true;
            }
        }
        for &(l, r) in sacks {
            self.add(l, r);
        }
        self.changed = self.changed || old_total != self.total;
    }

    /// `ReassemblyQueue::nexthole`: the first sequence number at or above
    /// `seq` not covered by a block (-1 past the last block), and how many
    /// blocks lie above it (-1: none).
    fn next_hole(&self, seq: i32) -> (i32, i32) {
        let n = self.blocks.len() as i32;
        for (i, &(s, e)) in self.blocks.iter().enumerate() {
            let i = i as i32;
            if s > seq {
                return (seq, n - i);
            }
            if s <= seq && e >= seq {
                let above = if i + 1 < n { n - i - 1 } else { -1 };
                return (e, above);
            }
        }
        (-1, -1)
    }

    /// `GetNextRetran`: the next hole to retransmit, or -1.
    pub fn next_retran(&mut self) -> i32 {
        if self.h_seqno < self.sack_min {
            self.h_seqno = self.sack_min;
        }
        let (seq, above) = self.next_hole(self.h_seqno);
        if seq > 0 {
            if above <= 0 {
                return -1;
            }
            if seq > self.h_seqno {
                self.h_seqno = seq;
            }
            return seq;
        }
        -1
    }

    /// `GetNextUnacked`.
    pub fn next_unacked(&self, seqno: i32) -> i32 {
        self.next_hole(seqno).0
    }

    /// `MarkRetran`.
    pub fn mark_retran(&mut self, seqno: i32) {
        if seqno >= self.h_seqno {
            self.h_seqno = seqno + 1;
        }
    }
}

/// State `Sack1TcpAgent` adds to a TCP sender.
#[derive(Clone, Debug)]
pub struct Sack1State {
    /// The last packet was sent by a retransmission timeout.
    pub timeout: bool,
    pub fastrecov: bool,
    pub pipe: i32,
    /// `partial_ack_`: send on every partial ACK (tclcl's bool: the integer
    /// set, nonzero meaning on).
    pub partial_ack: i32,
    pub next_pkt: i32,
    pub firstpartial: bool,
    pub scb: ScoreBoard,
}

impl Default for Sack1State {
    fn default() -> Self {
        Sack1State {
            timeout: false,
            fastrecov: false,
            pipe: -1,
            partial_ack: 0,
            next_pkt: 0,
            firstpartial: false,
            scb: ScoreBoard::default(),
        }
    }
}

/// `numdupacks(cwnd_)`: the duplicate-ACK threshold, raised for large
/// windows when `numdupacksFrac_` is positive.
fn numdupacks_for(t: &Sender) -> i32 {
    if t.numdupacks_frac == 0 {
        return t.numdupacks;
    }
    let frac = (t.cwnd as i32).wrapping_div(t.numdupacks_frac);
    if t.numdupacks > frac {
        t.numdupacks
    } else {
        frac
    }
}

/// `Sack1TcpAgent::recv`.
pub(super) fn recv(t: &mut Sender, st: &mut Sack1State, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let sacks = {
        let pk = sim.w.pool.get(p);
        let n = (pk.sa_len as usize).min(pk.sa.len());
        let mut v = [(0, 0); 4];
        v[..n].copy_from_slice(&pk.sa[..n]);
        (v, n)
    };
    let sacks = &sacks.0[..sacks.1];
    sim.w.pool.free(p);
    if ack.ts < t.lastreset {
        return;
    }
    t.inc(b, &mut sim.w, Tv::Nackpack, 1);
    if ack.ecnecho && t.ecn {
        t.ecn_response(&mut Base, b, &mut sim.w, ack.seqno);
    }
    if t.ecn {
        t.mark = if ack.ecnecho { 1.0 } else { 0.0 };
    }
    let valid_ack = ack.seqno >= t.last_ack;
    if !st.fastrecov {
        if ack.seqno > t.last_ack {
            st.firstpartial = false;
            t.recv_newack_helper(b, sim, ack);
            st.timeout = false;
            st.scb.clear();
            t.first_ack_window(b, &mut sim.w);
        } else if ack.seqno < t.last_ack {
            // an old ACK: nothing to do
        } else if !st.timeout {
            let ha = t.highest_ack;
            st.scb.update(ha, sacks);
            if st.scb.changed {
                t.inc(b, &mut sim.w, Tv::Dupacks, 1);
                let nd = numdupacks_for(t);
                if t.dupacks == nd {
                    dupack_action(t, st, b, sim);
                } else if t.dupacks < nd && t.singledup != 0 {
                    t.send_one(b, sim);
                }
            }
            if t.frto.sfrto_enabled && t.frto.frto == 2 {
                let changed = st.scb.changed;
                if changed && !is_sacked(sacks, t.recover, t.maxseq) {
                    t.spurious_timeout(b, &mut sim.w);
                } else {
                    let s = t.highest_ack + 1;
                    t.seti(b, &mut sim.w, Tv::TSeqno, s);
                    let f = t.frto.frto as f64;
                    t.set_cwnd(b, &mut sim.w, f);
                    t.frto.frto = 0;
                    t.seti(b, &mut sim.w, Tv::Dupacks, 0);
                }
            }
        }
        if (valid_ack || t.aggressive_maxburst) && t.dupacks == 0 {
            let mb = t.maxburst;
            send_much(t, st, b, sim, false, 0, mb);
        }
    } else {
        st.pipe -= 1;
        if ack.seqno >= t.recover {
            t.recover = 0;
            st.fastrecov = false;
            t.newack(b, &mut sim.w, ack);
            if t.highest_ack >= t.curseq - 1 && !t.closed {
                t.closed = true;
                t.finish(b, sim);
            }
            st.timeout = false;
            st.scb.clear();
        } else if ack.seqno > t.highest_ack {
            t.seti(b, &mut sim.w, Tv::Ack, ack.seqno);
            let ha = t.highest_ack;
            st.scb.update(ha, sacks);
            if st.partial_ack != 0 {
                partial_ack_action(t, st, b, sim);
                st.pipe += 1;
                if !st.firstpartial {
                    t.newtimer(&mut sim.w, ack);
                    t.seti(b, &mut sim.w, Tv::Backoff, 1);
                    st.firstpartial = true;
                }
            } else {
                st.pipe -= 1;
                t.newtimer(&mut sim.w, ack);
                t.seti(b, &mut sim.w, Tv::Backoff, 1);
            }
        } else if !st.timeout {
            let ha = t.highest_ack;
            st.scb.update(ha, sacks);
            if st.scb.changed && t.dupacks > 0 {
                t.inc(b, &mut sim.w, Tv::Dupacks, 1);
            }
        }
        if valid_ack || t.aggressive_maxburst {
            let mb = t.maxburst;
            send_much(t, st, b, sim, false, 0, mb);
        }
    }
}

/// Do any of the SACK blocks cover sequence numbers in `[lo, hi]`?
fn is_sacked(sacks: &[(i32, i32)], lo: i32, hi: i32) -> bool {
    sacks.iter().any(|&(l, r)| (r > lo && r <= hi) || (l >= lo && l < hi) || (l < lo && r > hi))
}

/// The pipe estimate when fast recovery starts.
fn initial_pipe(t: &Sender, old_code_allowed: bool) -> i32 {
    if old_code_allowed && t.old_code {
        t.cwnd as i32 - numdupacks_for(t)
    } else if t.singledup != 0 && t.lim_transmit_fix {
        t.maxseq - t.highest_ack - 1
    } else {
        t.maxseq - t.highest_ack - numdupacks_for(t)
    }
}

/// `Sack1TcpAgent::dupack_action`: enter fast recovery.
fn dupack_action(t: &mut Sender, st: &mut Sack1State, b: &mut AgentBase, sim: &mut Sim) {
    let recovered = t.highest_ack > t.recover;
    if !(recovered || (!t.bug_fix && !t.ecn) || (t.bugfix_ss && t.highest_ack == 0)) {
        if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
            // The window was already cut for ECN in this window of data.
            t.last_cwnd_action = CWND_ACTION_DUPACK;
            t.reset_rtx_timer(b, &mut sim.w, true, false);
            let pipe = initial_pipe(t, false);
            st.pipe = pipe;
            st.fastrecov = true;
            let h = t.highest_ack + 1;
            st.scb.mark_retran(h);
            let s = t.last_ack + 1;
            t.output(b, sim, s, REASON_DUPACK);
            return;
        }
        if t.bug_fix {
            return;
        }
    }
    t.recover = t.maxseq;
    let pipe = initial_pipe(t, true);
    st.pipe = pipe;
    t.reset_rtx_timer(b, &mut sim.w, true, false);
    st.fastrecov = true;
    let h = t.highest_ack + 1;
    st.scb.mark_retran(h);
    if t.qs.window != 0 && t.qs_loss(b, sim) {
        return;
    }
    t.trace_event(b, &mut sim.w, crate::trace::TcpEvent::FastRecovery);
    t.last_cwnd_action = CWND_ACTION_DUPACK;
    t.slowdown(b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
    let s = t.last_ack + 1;
    t.output(b, sim, s, REASON_DUPACK);
}

/// `Sack1TcpAgent::partial_ack_action`: send two packets from the next hole.
fn partial_ack_action(t: &mut Sender, st: &mut Sack1State, b: &mut AgentBase, sim: &mut Sim) {
    if st.next_pkt < t.highest_ack + 1 {
        st.next_pkt = t.highest_ack + 1;
    }
    for _ in 0..2 {
        let np = st.next_pkt;
        let next = st.scb.next_unacked(np);
        if next > np {
            st.next_pkt = next;
        }
        let np = st.next_pkt;
        if t.t_seqno < np {
            t.seti(b, &mut sim.w, Tv::TSeqno, np);
        }
        t.output(b, sim, np, REASON_PARTIALACK);
        st.scb.mark_retran(np);
        st.next_pkt = np + 1;
    }
}

/// `Sack1TcpAgent::timeout`: leave fast recovery and forget the
/// scoreboard before the common timeout handling.
pub(super) fn timeout(t: &mut Sender, st: &mut Sack1State, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    let no_frto = st.fastrecov;
    if tno == TIMER_RTX {
        t.seti(b, &mut sim.w, Tv::Dupacks, 0);
        st.fastrecov = false;
        st.timeout = true;
        if t.highest_ack > t.last_ack {
            t.last_ack = t.highest_ack;
        }
        t.recover = t.maxseq;
        st.scb.clear();
        // `TcpAgent::timeout`, sending with SACK's loop.
        t.rtx_timeout(&mut Base, b, sim);
        let mb = t.maxburst;
        send_much(t, st, b, sim, false, REASON_TIMEOUT, mb);
    } else if tno == TIMER_DELSND {
        let mb = t.maxburst;
        send_much(t, st, b, sim, true, REASON_TIMEOUT, mb);
    }
    if no_frto {
        t.frto.frto = 0;
    }
}

/// `Sack1TcpAgent::send_much`: outside recovery as TCP does; in recovery,
/// while fewer than cwnd packets are in the pipe, holes first.
pub(super) fn send_much(
    t: &mut Sender,
    st: &mut Sack1State,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    let mut win = t.window();
    let mut npacket = 0;
    let mut found = true;
    if !force && t.delsnd_pending(&sim.w) {
        return;
    }
    loop {
        let (fastrecov, pipe) = (st.fastrecov, st.pipe);
        let open = (!fastrecov && t.t_seqno <= t.last_ack + win) || (fastrecov && pipe < t.cwnd as i32);
        if !(open && t.last_ack + 1 < t.curseq && found) {
            break;
        }
        if t.overhead == 0.0 || force {
            found = false;
            let mut xmit = st.scb.next_retran();
            if xmit == -1 {
                let wnd = t.wnd as i32;
                if ((!fastrecov && t.t_seqno <= t.highest_ack + win) || (fastrecov && t.t_seqno <= t.highest_ack + wnd))
                    && t.t_seqno < t.curseq
                {
                    found = true;
                    xmit = t.t_seqno;
                    t.inc(b, &mut sim.w, Tv::TSeqno, 1);
                }
            } else if t.recover > 0 && xmit <= t.highest_ack + t.wnd as i32 {
                found = true;
                st.scb.mark_retran(xmit);
                win = t.window();
            }
            if found {
                t.output(b, sim, xmit, reason);
                if t.t_seqno <= xmit {
                    t.seti(b, &mut sim.w, Tv::TSeqno, xmit + 1);
                }
                npacket += 1;
                st.pipe += 1;
                if t.qopt.qoption != 0 {
                    t.process_qoption_after_send(b, &mut sim.w);
                }
                if t.qs.approved {
                    let cwnd = t.cwnd;
                    t.qs_pace(&mut sim.w, cwnd);
                    return;
                }
            }
        } else if !t.delsnd_pending(&sim.w) {
            t.delsnd_resched(&mut sim.w);
            return;
        }
        if maxburst != 0 && npacket == maxburst {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sb(blocks: &[(i32, i32)], sack_min: i32) -> ScoreBoard {
        let mut s = ScoreBoard::default();
        s.sack_min = sack_min;
        for &(l, r) in blocks {
            s.add(l, r);
        }
        s
    }

    #[test]
    fn blocks_merge_like_the_reassembly_queue() {
        // the examples of rq.cc's self-test
        let s = sb(&[(2, 4), (6, 8), (1, 2), (8, 10), (4, 6)], -5);
        assert_eq!(s.blocks, vec![(1, 10)]);
        assert_eq!(s.total, 9);
        let s = sb(&[(5, 10), (11, 20), (30, 40), (11, 20), (30, 50), (1, 10)], -5);
        assert_eq!(s.blocks, vec![(1, 10), (11, 20), (30, 50)]);
        assert_eq!(s.total, 9 + 9 + 20);
        let s = sb(&[(1, 5), (6, 9), (3, 8)], -5);
        assert_eq!(s.blocks, vec![(1, 9)]);
    }

    #[test]
    fn update_clears_below_the_cumulative_ack_and_reports_change() {
        let mut s = ScoreBoard::default();
        s.update(9, &[(12, 15)]);
        assert!(s.changed);
        assert_eq!(s.sack_min, 10);
        s.update(9, &[(12, 15)]);
        assert!(!s.changed, "same block again is no news");
        s.update(9, &[(12, 15), (17, 18)]);
        assert!(s.changed);
        s.update(13, &[(17, 18)]);
        assert!(s.changed);
        assert_eq!(s.blocks, vec![(14, 15), (17, 18)]);
    }

    #[test]
    fn retransmissions_walk_the_holes_once() {
        let mut s = ScoreBoard::default();
        s.update(9, &[(12, 15), (17, 18)]);
        // holes: 10, 11 (below 12), 15, 16 (below 17); nothing above 18
        assert_eq!(s.next_retran(), 10);
        s.mark_retran(10);
        assert_eq!(s.next_retran(), 11);
        s.mark_retran(11);
        assert_eq!(s.next_retran(), 15);
        s.mark_retran(15);
        assert_eq!(s.next_retran(), 16);
        s.mark_retran(16);
        assert_eq!(s.next_retran(), -1, "no hole above the last SACK block");
        assert_eq!(s.next_unacked(12), 15);
        assert_eq!(s.next_unacked(30), -1);
    }

    #[test]
    fn is_sacked_checks_overlap() {
        assert!(is_sacked(&[(5, 8)], 6, 10));
        assert!(is_sacked(&[(1, 20)], 6, 10));
        assert!(!is_sacked(&[(11, 12)], 6, 10));
    }
}
