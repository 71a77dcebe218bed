//! Forward-acknowledgement TCP (tcp/tcp-fack.cc, Mathis and Mahdavi's
//! FACK): the highest sequence number the receiver's SACK blocks report
//! (`fack_`) stands for what has left the network, so the sender keeps
//! `t_seqno_ - fack_ + retran_data_` (the data in flight, counting
//! retransmissions) below the window.  On the third duplicate ACK, or as
//! soon as the SACKed data lies three packets beyond the cumulative ACK,
//! it halves ssthresh, restarts the window and retransmits the holes the
//! scoreboard shows; with `rampdown_` the window shrinks gradually
//! (`wintrim_`) instead of at once.
//!
//! The scoreboard is ns-2's original array scoreboard (tcp/scoreboard.cc),
//! one entry per packet from the cumulative ACK up to the highest SACKed
//! packet, each with the sender's next sequence number when it was last
//! retransmitted: a retransmission is known lost again when a SACK covers
//! that number.

use super::*;

/// One packet's entry (`ScoreBoardNode`).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    seq: i32,
    acked: bool,
    sacked: bool,
    retran: bool,
    /// `t_seqno_` when the packet was retransmitted.
    snd_nxt: i32,
}

/// ns-2's array scoreboard (`ScoreBoard` of tcp/scoreboard.cc): a ring of
/// entries indexed by sequence number modulo its size, doubled when a SACK
/// block reaches past it.  `first` is the sequence number of the first
/// entry; clearing only forgets the length, as ns-2's does.
#[derive(Clone, Debug)]
pub struct ArrayScoreBoard {
    first: i32,
    length: i32,
    size: i32,
    slots: Vec<Entry>,
}

impl Default for ArrayScoreBoard {
    fn default() -> Self {
        ArrayScoreBoard { first: 0, length: 0, size: 1024, slots: vec![Entry::default(); 1024] }
    }
}

impl ArrayScoreBoard {
    fn at(&mut self, seq: i32) -> &mut Entry {
        let i = seq.rem_euclid(self.size) as usize;
        &mut self.slots[i]
    }

    /// The sequence number of the last entry.
    fn last_seq(&mut self) -> i32 {
        let (f, l, s) = (self.first, self.length, self.size);
        self.at(f + l + s - 1).seq
    }

    fn first_seq(&mut self) -> i32 {
        let f = self.first;
        self.at(f).seq
    }

    fn fresh(&mut self, seq: i32) {
        *self.at(seq) = Entry { seq, ..Entry::default() };
    }

    /// `ClearScoreBoard`.
    pub fn clear(&mut self) {
        self.length = 0;
    }

    /// `resizeSB`: a ring of `size` entries holding the present ones.
    fn resize(&mut self, size: i32) {
        let mut slots = vec![Entry::default(); size as usize + 1];
        let first = self.first_seq();
        for i in first..=first + self.length {
            slots[i.rem_euclid(size) as usize] = *self.at(i);
        }
        self.slots = slots;
        self.size = size;
    }

    /// `UpdateScoreBoard`: an ACK for `last_ack` with SACK blocks; returns
    /// how many retransmitted packets it shows to have arrived.
    pub fn update(&mut self, last_ack: i32, sacks: &[(i32, i32)]) -> i32 {
        let mut retran_decr = 0;
        if self.length != 0 && self.first_seq() <= last_ack {
            let mut i = self.first_seq();
            while i <= last_ack {
                let e = self.at(i);
                if e.seq <= last_ack {
                    e.acked = true;
                    e.sacked = true;
                    if e.retran {
                        e.retran = false;
                        e.snd_nxt = 0;
                        retran_decr += 1;
                    }
                    self.first += 1;
                    self.length -= 1;
                    if self.length == 0 {
                        break;
                    }
                }
                i += 1;
            }
        }
        if self.length == 0 && !sacks.is_empty() {
            self.fresh(last_ack + 1);
            self.first = last_ack + 1;
            self.length = 1;
        }
        for &(left, right) in sacks {
            if right > self.last_seq() {
                while right - last_ack >= self.size - 1 {
                    let s = self.size * 2;
                    self.resize(s);
                }
                for i in self.last_seq() + 1..right {
                    self.fresh(i);
                    self.length += 1;
                }
            }
            for i in self.first_seq()..right {
                let e = self.at(i);
                if e.seq >= left && e.seq < right {
                    e.sacked = true;
                    if e.retran {
                        e.retran = false;
                        retran_decr += 1;
                    }
                }
            }
        }
        retran_decr
    }

    /// `CheckSndNxt`: has a SACK block reached past the point where a
    /// retransmission was sent (so the retransmission was lost too)?
    pub fn check_snd_nxt(&mut self, sacks: &[(i32, i32)]) -> bool {
        let mut lost = false;
        for &(_, right) in sacks {
            for i in self.first_seq()..right {
                let e = self.at(i);
                if e.retran && e.snd_nxt < right {
                    e.retran = false;
                    e.snd_nxt = 0;
                    lost = true;
                }
            }
        }
        lost
    }

    /// `GetNextRetran`: the first packet neither acknowledged, SACKed nor
    /// retransmitted, or -1.
    pub fn next_retran(&mut self) -> i32 {
        if self.length != 0 {
            let first = self.first_seq();
            for i in first..first + self.length {
                let e = *self.at(i);
                if !e.acked && !e.sacked && !e.retran {
                    return i;
                }
            }
        }
        -1
    }

    /// `MarkRetran(seqno, snd_nxt)`.
    pub fn mark_retran(&mut self, seqno: i32, snd_nxt: i32) {
        let e = self.at(seqno);
        e.retran = true;
        e.snd_nxt = snd_nxt;
    }
}

/// State `FackTcpAgent` adds to a TCP sender.
#[derive(Clone, Debug)]
pub struct FackState {
    /// A retransmission was lost again: send nothing until the timeout.
    pub timeout: bool,
    pub fastrecov: bool,
    /// What `rampdown_` adds to the window while it ramps down.
    pub wintrim: f64,
    pub wintrimmult: f64,
    /// `rampdown_` (tclcl's bool: nonzero means on).
    pub rampdown: i32,
    /// `ss-div4_`: a loss in slow start quarters the window, not halves it.
    pub ss_div4: i32,
    pub fack: i32,
    /// Retransmitted packets still in flight.
    pub retran_data: i32,
    pub scb: ArrayScoreBoard,
}

impl Default for FackState {
    fn default() -> Self {
        FackState {
            timeout: false,
            fastrecov: false,
            wintrim: 0.0,
            wintrimmult: 0.5,
            rampdown: 0,
            ss_div4: 0,
            fack: -1,
            retran_data: 0,
            scb: ArrayScoreBoard::default(),
        }
    }
}

impl Virtuals for FackState {
    const OUTPUT_KEEPS_WINDOW: bool = true;

    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        t.output_inline::<false>(b, sim, seqno, reason, spare)
    }

    fn window(&self, t: &Sender) -> i32 {
        window(t, self)
    }
}

/// `FackTcpAgent::window`: the window plus what ramping down keeps.
fn window(t: &Sender, st: &FackState) -> i32 {
    let w = if t.cwnd < t.wnd { t.cwnd } else { t.wnd };
    (w + st.wintrim) as i32
}

/// `slowdown` with FACK's window.
fn slowdown(t: &mut Sender, st: &FackState, b: &AgentBase, w: &mut World, how: u32) {
    let (windowd, win) = (t.windowd(), window(t, st));
    t.slowdown_with(b, w, how, windowd, win);
}

/// `FackTcpAgent::maxsack`: the highest packet the SACK blocks report.
fn maxsack(sacks: &[(i32, i32)]) -> i32 {
    sacks.iter().fold(-1, |m, &(_, r)| m.max(r)) - 1
}

/// `FackTcpAgent::recv`.
#[cold]
#[inline(never)]
pub(super) fn recv(t: &mut Sender, st: &mut FackState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let mut held = [(0, 0); 4];
    let n = {
        let pk = sim.w.pool.get(p);
        let n = (pk.sa_len as usize).min(pk.sa.len());
        held[..n].copy_from_slice(&pk.sa[..n]);
        n
    };
    let sacks = &held[..n];
    sim.w.pool.free(p);
    t.ts_peer = ack.ts;
    if ack.ecnecho && t.ecn {
        t.ecn_response(st, b, &mut sim.w, ack.seqno);
    }
    let mb = t.maxburst;
    if !st.fastrecov {
        if ack.seqno > t.last_ack && sacks.is_empty() {
            // `recv_newack_helper` (FACK's own: no ECN bookkeeping)
            t.newack(b, &mut sim.w, ack);
            t.opencwnd(b, &mut sim.w);
            finish_if_done(t, b, sim);
            st.fack = t.last_ack;
            st.timeout = false;
            st.scb.clear();
            st.retran_data = 0;
            st.wintrim = 0.0;
        } else if ack.seqno < t.last_ack {
            // an old ACK, perhaps reordered: nothing to do
        } else {
            let ha = t.highest_ack;
            st.retran_data -= st.scb.update(ha, sacks);
            oldack(t, st, b, sim, ack);
            let ms = maxsack(sacks);
            if ms > st.fack {
                st.fack = ms;
            }
            if st.fack >= t.t_seqno {
                let s = st.fack + 1;
                t.seti(b, &mut sim.w, Tv::TSeqno, s);
            }
            let d = st.fack - t.last_ack - 1;
            t.seti(b, &mut sim.w, Tv::Dupacks, d);
            if t.dupacks >= t.numdupacks {
                enter_recovery(t, st, b, sim);
            }
        }
        if t.dupacks == 0 {
            send_much(t, st, b, sim, false, 0, mb);
        }
    } else {
        oldack(t, st, b, sim, ack);
        let ms = maxsack(sacks);
        if ms > st.fack {
            if st.rampdown != 0 {
                st.wintrim -= (ms - st.fack) as f64 * st.wintrimmult;
                if st.wintrim < 0.0 {
                    st.wintrim = 0.0;
                }
            }
            st.fack = ms;
        }
        if st.fack >= t.t_seqno {
            let s = st.fack + 1;
            t.seti(b, &mut sim.w, Tv::TSeqno, s);
        }
        let ha = t.highest_ack;
        st.retran_data -= st.scb.update(ha, sacks);
        // A retransmission lost again: stop sending until the timeout.
        st.timeout |= st.scb.check_snd_nxt(sacks);
        t.opencwnd(b, &mut sim.w);
        if sacks.is_empty() && t.last_ack >= t.recover {
            // No SACK blocks: fast recovery is over.
            st.fastrecov = false;
            st.timeout = false;
            st.scb.clear();
            st.retran_data = 0;
            st.wintrim = 0.0;
            t.seti(b, &mut sim.w, Tv::Dupacks, 0);
        }
        send_much(t, st, b, sim, false, 0, mb);
    }
}

/// Enough duplicates (or SACKed data far enough beyond the cumulative
/// ACK): cut the window and retransmit the first hole.
fn enter_recovery(t: &mut Sender, st: &mut FackState, b: &mut AgentBase, sim: &mut Sim) {
    t.recover = t.t_seqno;
    t.last_cwnd_action = CWND_ACTION_DUPACK;
    if st.ss_div4 == 1 && t.cwnd <= t.ssthresh as f64 + 0.5 {
        let c = t.cwnd / 2.0;
        t.set_cwnd(b, &mut sim.w, c);
        st.wintrimmult = 0.75;
    } else {
        st.wintrimmult = 0.5;
    }
    slowdown(t, st, b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
    if st.rampdown != 0 {
        st.wintrim = (t.t_seqno - st.fack - 1) as f64 * st.wintrimmult;
    }
    t.reset_rtx_timer(b, &mut sim.w, true, false);
    st.fastrecov = true;
    let (first, next) = (t.last_ack + 1, t.t_seqno);
    st.scb.mark_retran(first, next);
    st.retran_data += 1;
    t.output(b, sim, first, REASON_DUPACK);
}

/// `FackTcpAgent::oldack`: take the ACK's cumulative point (new or not)
/// and its timestamp's RTT sample.
fn oldack(t: &mut Sender, st: &mut FackState, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
    let w = &mut sim.w;
    t.last_ack = ack.seqno;
    let la = t.last_ack;
    t.seti(b, w, Tv::Ack, la);
    st.fack = st.fack.max(t.highest_ack);
    let m = t.maxseq.max(t.highest_ack);
    t.seti(b, w, Tv::Maxseq, m);
    if t.t_seqno < la + 1 {
        t.seti(b, w, Tv::TSeqno, la + 1);
    }
    t.newtimer(w, ack);
    if t.rtt_active && ack.seqno >= t.rtt_seq {
        t.rtt_active = false;
        t.seti(b, w, Tv::Backoff, 1);
    }
    let tao = w.s.now - ack.ts_echo;
    t.rtt_update(b, w, tao);
    if t.ts_reset_rto {
        t.seti(b, w, Tv::Backoff, 1);
    }
    t.awnd *= 1.0 - t.wnd_th;
    t.awnd += t.wnd_th * t.cwnd;
    finish_if_done(t, b, sim);
}

fn finish_if_done(t: &mut Sender, b: &AgentBase, sim: &mut Sim) {
    if t.highest_ack >= t.curseq - 1 && !t.closed {
        t.closed = true;
        t.finish(b, sim);
    }
}

/// `FackTcpAgent::timeout`: keeps `fastrecov_` and `recover_`, restarts
/// the window and goes back to the cumulative ACK.
#[cold]
#[inline(never)]
pub(super) fn timeout(t: &mut Sender, st: &mut FackState, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_DELSND {
        let mb = t.maxburst;
        return send_much(t, st, b, sim, true, REASON_TIMEOUT, mb);
    }
    if tno != TIMER_RTX || (t.highest_ack == t.maxseq && !t.slow_start_restart) {
        return;
    }
    st.timeout = false;
    if t.highest_ack > t.last_ack {
        t.last_ack = t.highest_ack;
    }
    st.retran_data = 0;
    t.last_cwnd_action = CWND_ACTION_TIMEOUT;
    let idle = t.highest_ack == t.maxseq;
    let how = if idle && t.restart_bugfix { CLOSE_CWND_INIT } else { CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART };
    slowdown(t, st, b, &mut sim.w, how);
    st.scb.clear();
    // (no back-off when nothing is outstanding)
    t.reset_rtx_timer(b, &mut sim.w, true, !idle);
    st.fack = t.last_ack;
    let s = t.last_ack + 1;
    t.seti(b, &mut sim.w, Tv::TSeqno, s);
    send_much(t, st, b, sim, false, REASON_TIMEOUT, 0);
}

/// `FackTcpAgent::send_much`: while the data in flight (from `fack_`,
/// with the retransmissions) is below the window, the scoreboard's next
/// hole, else new data.
#[cold]
#[inline(never)]
pub(super) fn send_much(
    t: &mut Sender,
    st: &mut FackState,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    let mut win = window(t, st);
    if !force && t.delsnd_pending(&sim.w) {
        return;
    }
    let mut npacket = 0;
    while t.t_seqno <= st.fack + win - st.retran_data && !st.timeout {
        if t.overhead == 0.0 || force {
            let mut xmit = st.scb.next_retran();
            if xmit == -1 {
                if t.t_seqno >= t.curseq {
                    return;
                }
                if st.fastrecov && t.t_seqno > t.highest_ack + t.wnd as i32 {
                    break;
                }
                xmit = t.t_seqno;
                t.inc(b, &mut sim.w, Tv::TSeqno, 1);
            } else {
                let next = t.t_seqno;
                st.scb.mark_retran(xmit, next);
                st.retran_data += 1;
                win = window(t, st);
            }
            t.output(b, sim, xmit, reason);
            if t.t_seqno <= xmit {
                t.seti(b, &mut sim.w, Tv::TSeqno, xmit + 1);
            }
            npacket += 1;
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

    #[test]
    fn scoreboard_marks_sacked_and_finds_holes() {
        let mut s = ArrayScoreBoard::default();
        // ACK 9 with SACK [12, 15): entries 10..14, holes 10 and 11
        assert_eq!(s.update(9, &[(12, 15)]), 0);
        assert_eq!(s.length, 5);
        assert_eq!(s.next_retran(), 10);
        s.mark_retran(10, 20);
        assert_eq!(s.next_retran(), 11);
        s.mark_retran(11, 21);
        assert_eq!(s.next_retran(), -1);
        // SACK [17, 18) too: 15 and 16 become holes
        assert_eq!(s.update(9, &[(17, 18), (12, 15)]), 0);
        assert_eq!(s.next_retran(), 15);
        // the cumulative ACK passes 10 (retransmitted): one retransmission left the network
        assert_eq!(s.update(10, &[(17, 18), (12, 15)]), 1);
        assert_eq!(s.first, 11);
        // a SACK block beyond 21, where 11 was retransmitted: 11 was lost again
        assert_eq!(s.update(10, &[(22, 23)]), 0);
        assert!(s.check_snd_nxt(&[(22, 23)]));
        assert_eq!(s.next_retran(), 11);
    }

    #[test]
    fn scoreboard_grows_for_a_block_far_ahead() {
        let mut s = ArrayScoreBoard::default();
        s.update(0, &[(1500, 1501)]);
        assert_eq!(s.size, 2048);
        assert_eq!(s.next_retran(), 1);
        assert_eq!(s.length, 1500);
        s.update(1498, &[(1500, 1501)]);
        assert_eq!(s.next_retran(), 1499);
    }

    #[test]
    fn maxsack_is_one_below_the_highest_right_edge() {
        assert_eq!(maxsack(&[(5, 8), (12, 15), (9, 10)]), 14);
        assert_eq!(maxsack(&[]), -2);
    }
}
