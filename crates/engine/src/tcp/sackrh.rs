//! SACK TCP with rate halving (tcp/tcp-sack-rh.cc, after Mathis et al.'s
//! "Rate-Halving" draft; the section numbers in the comments are the
//! draft's): instead of halving the window at once on a loss, the sender
//! takes half a packet off the window for every packet that leaves the
//! network during the adjustment interval, so it keeps sending, at half the
//! rate, while it repairs.  With SACK blocks the loss is known exactly
//! (`Exact`); from plain duplicate ACKs it is estimated, NewReno-style
//! (`Est`, `EstRepair`).  Data in flight is counted from the forward ACK
//! (`fack`), as FACK does, with the retransmissions still out.
//!
//! Its scoreboard (tcp/scoreboard-rh.cc) keeps, per packet from the
//! cumulative ACK to the highest SACKed one, how many ACKs reported the
//! packet missing; a hole is retransmitted once reported `numdupacks_`
//! times.

use super::*;

/// The adjustment state (`rh_state_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No adjustment: the window grows (`RH_INCR`).
    Incr,
    /// Halving with the losses known from SACK blocks (`RH_EXACT`).
    Exact,
    /// Halving with losses estimated from duplicate ACKs (`RH_EST`).
    Est,
    /// Halved; repairing the estimated losses (`RH_EST_REPAIR`).
    EstRepair,
}

/// Where the estimate of a NewReno-style hole stands (`rh_est_hole_state_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoleState {
    None,
    /// Counting duplicate ACKs for the hole at the cumulative ACK.
    Counting,
    /// Enough duplicates: retransmit the hole.
    NewHole,
    Retransmitted,
}

const SLOTS: i32 = 1024;

/// One packet's entry.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    seq: i32,
    acked: bool,
    sacked: bool,
    retran: bool,
    /// `t_seqno_` when it was retransmitted.
    snd_nxt: i32,
    /// How many ACKs reported it missing.
    reports: i32,
    /// The adjustment interval it was retransmitted in.
    rh_id: i32,
}

/// ns-2's rate-halving scoreboard (`ScoreBoardRH`): a ring of 1,024
/// entries by sequence number; `first` is the first entry's slot.
#[derive(Clone, Debug)]
pub struct RhScoreBoard {
    first: i32,
    length: i32,
    /// The last interval in which a retransmission was acknowledged or
    /// SACKed (`retran_sacked_`).
    retran_sacked: i32,
    slots: Vec<Entry>,
}

impl Default for RhScoreBoard {
    fn default() -> Self {
        RhScoreBoard { first: 0, length: 0, retran_sacked: 0, slots: vec![Entry::default(); SLOTS as usize + 1] }
    }
}

impl RhScoreBoard {
    fn at(&mut self, seq: i32) -> &mut Entry {
        &mut self.slots[seq.rem_euclid(SLOTS) as usize]
    }

    fn first_seq(&self) -> i32 {
        self.slots[self.first as usize].seq
    }

    fn last_seq(&self) -> i32 {
        self.slots[(self.first + self.length + SLOTS - 1).rem_euclid(SLOTS) as usize].seq
    }

    /// New, empty entries up to (not including) `right`.
    fn extend_to(&mut self, right: i32) {
        if right > self.last_seq() {
            for i in self.last_seq() + 1..right {
                *self.at(i) = Entry { seq: i, ..Entry::default() };
                self.length += 1;
            }
        }
    }

    /// `UpdateScoreBoard`: an ACK for `last_ack` with SACK blocks, in
    /// adjustment interval `rh_id`; returns how many retransmissions left
    /// the network (arrived, or lost again).
    pub fn update(&mut self, last_ack: i32, sacks: &[(i32, i32)], rh_id: i32, ) -> i32 {
        if sacks.is_empty() && self.length == 0 {
            return 0;
        }
        let mut retran_decr = 0;
        if self.length == 0 {
            let i = last_ack + 1;
            *self.at(i) = Entry { seq: i, ..Entry::default() };
            self.first = i.rem_euclid(SLOTS);
            self.length = 1;
        }
        if self.first_seq() <= last_ack {
            let mut i = self.first_seq();
            while i <= last_ack {
                let e = self.at(i);
                if e.seq <= last_ack {
                    e.acked = true;
                    e.sacked = true;
                    let was_retran = e.retran;
                    if was_retran {
                        e.retran = false;
                        e.snd_nxt = 0;
                        retran_decr += 1;
                        self.retran_sacked = rh_id;
                    }
                    self.first = (self.first + 1) % SLOTS;
                    self.length -= 1;
                    if self.length == 0 {
                        break;
                    }
                }
                i += 1;
            }
        }
        let mut sack_max = 0;
        for &(left, right) in sacks {
            sack_max = sack_max.max(right);
            self.extend_to(right);
            for i in self.first_seq()..right {
                let e = self.at(i);
                if e.seq >= left && e.seq < right {
                    e.sacked = true;
                    if e.retran {
                        e.retran = false;
                        e.snd_nxt = 0;
                        retran_decr += 1;
                        self.retran_sacked = rh_id;
                    }
                }
            }
        }
        if self.length != 0 {
            for i in self.first_seq()..sack_max {
                let e = self.at(i);
                if !e.acked && !e.sacked {
                    e.reports += 1;
                }
            }
        }
        retran_decr + self.check_snd_nxt(sack_max)
    }

    /// `CheckSndNxt`: retransmissions sent before `sack_max` was first
    /// sent are lost again; they count as reported once.
    fn check_snd_nxt(&mut self, sack_max: i32) -> i32 {
        let mut lost = 0;
        if self.length != 0 {
            for i in self.first_seq()..sack_max {
                let e = self.at(i);
                if e.retran && e.snd_nxt < sack_max {
                    e.retran = false;
                    e.snd_nxt = 0;
                    e.reports = 1;
                    lost += 1;
                }
            }
        }
        lost
    }

    /// `GetNextRetran`: the first hole reported `numdupacks` times and not
    /// yet retransmitted, or -1.
    pub fn next_retran(&mut self, numdupacks: i32) -> i32 {
        if self.length != 0 {
            let first = self.first_seq();
            for i in first..first + self.length {
                let e = *self.at(i);
                if !e.acked && !e.sacked && !e.retran && e.reports >= numdupacks {
                    return i;
                }
            }
        }
        -1
    }

    /// `MarkRetran`.
    pub fn mark_retran(&mut self, seqno: i32, snd_nxt: i32, rh_id: i32) {
        let e = self.at(seqno);
        e.retran = true;
        e.snd_nxt = snd_nxt;
        e.rh_id = rh_id;
    }

    /// `GetFack`: the highest packet the scoreboard holds, or `last_ack`.
    pub fn fack(&self, last_ack: i32) -> i32 {
        if self.length != 0 {
            self.first_seq() + self.length - 1
        } else {
            last_ack
        }
    }

    /// `GetNewHoles`: holes reported for the first time.
    pub fn new_holes(&mut self) -> i32 {
        let first = self.first_seq();
        let mut n = 0;
        for i in first..first + self.length {
            let e = *self.at(i);
            if !e.acked && !e.sacked && e.reports == 1 {
                n += 1;
            }
        }
        n
    }

    /// `TimeoutScoreBoard`: after a timeout every hole up to `snd_nxt` is
    /// to be retransmitted, and a SACKed first packet (a renege) too.
    pub fn timeout(&mut self, snd_nxt: i32, numdupacks: i32) {
        if self.length == 0 {
            return;
        }
        self.extend_to(snd_nxt);
        let first = self.first_seq();
        for i in first..first + self.length {
            let e = self.at(i);
            if !e.acked && !e.sacked {
                e.retran = false;
                e.snd_nxt = 0;
                e.reports = numdupacks;
            }
        }
        let e = self.at(first);
        if !e.acked && e.sacked {
            e.sacked = false;
            e.retran = false;
            e.snd_nxt = 0;
            e.reports = numdupacks;
        }
    }
}

/// State `SackRHTcpAgent` adds to a TCP sender.
#[derive(Clone, Debug)]
pub struct SackRhState {
    pub fack: i32,
    /// Retransmissions in flight.
    pub retran_data: i32,
    /// Duplicate ACKs without SACK blocks (the estimate's).
    pub num_dupacks: i32,
    pub phase: Phase,
    /// cwnd when the adjustment began.
    pub prior_cwnd: f64,
    /// `t_seqno_` when the adjustment began.
    pub prior_max_seq: i32,
    /// The current adjustment interval (0: none) and the highest so far.
    pub rh_id: i32,
    pub rh_max: i32,
    pub hole: HoleState,
    /// Retransmissions in the estimating states.
    pub num_retrans: i32,
    /// A retransmission / an ECN-Echo in this adjustment.
    pub retransmitted: bool,
    pub ecn_seen: bool,
    pub scb: RhScoreBoard,
}

impl Default for SackRhState {
    fn default() -> Self {
        SackRhState {
            fack: -1,
            retran_data: 0,
            num_dupacks: 0,
            phase: Phase::Incr,
            prior_cwnd: 0.0,
            prior_max_seq: 0,
            rh_id: 0,
            rh_max: 0,
            hole: HoleState::None,
            num_retrans: 0,
            retransmitted: false,
            ecn_seen: false,
            scb: RhScoreBoard::default(),
        }
    }
}

impl SackRhState {
    /// `rhclear`: forget the adjustment.
    fn clear(&mut self) {
        self.rh_id = 0;
        self.prior_max_seq = 0;
        self.num_dupacks = 0;
        self.hole = HoleState::None;
        self.ecn_seen = false;
        self.num_retrans = 0;
        self.retransmitted = false;
        self.prior_cwnd = 0.0;
    }

    /// `computefack`: from the scoreboard, or estimated from the duplicates.
    fn compute_fack(&mut self, last_ack: i32) {
        self.fack = match self.phase {
            Phase::Incr | Phase::Exact => self.scb.fack(last_ack),
            Phase::Est | Phase::EstRepair => last_ack + self.num_dupacks + 1,
        };
    }

    /// A new adjustment interval begins.
    fn begin(&mut self, phase: Phase, t: &mut Sender) {
        self.phase = phase;
        self.prior_cwnd = t.cwnd;
        self.prior_max_seq = t.t_seqno;
        t.cong_action = true;
        self.rh_max += 1;
        self.rh_id = self.rh_max;
    }
}

/// `SackRHTcpAgent::recv`.
#[cold]
#[inline(never)]
pub(super) fn recv(t: &mut Sender, st: &mut SackRhState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let mut held = [(0, 0); 4];
    let n = {
        let pk = sim.w.pool.get(p);
        let n = (pk.sa_len as usize).min(pk.sa.len());
        held[..n].copy_from_slice(&pk.sa[..n]);
        n
    };
    let sacks = &held[..n];
    sim.w.pool.free(p);
    let ecnecho = ack.ecnecho && t.last_ack != -1;
    let sackpresent = !sacks.is_empty();
    t.inc(b, &mut sim.w, Tv::Nackpack, 1);
    let old_ack = t.last_ack;
    newack(t, b, &mut sim.w, ack);
    if ecnecho {
        st.ecn_seen = true;
    }
    let (old_fack, old_retran_data) = (st.fack, st.retran_data);
    st.retran_data -= st.scb.update(t.last_ack, sacks, st.rh_id);
    if !sackpresent && old_ack == t.last_ack {
        st.num_dupacks += 1;
        if st.hole == HoleState::Counting && st.num_dupacks == t.numdupacks {
            st.hole = HoleState::NewHole;
        }
    }
    st.compute_fack(t.last_ack);

    // 7.8: exit on reordering
    if !st.retransmitted && !st.ecn_seen {
        let reordered = (st.phase == Phase::Exact && !sackpresent && !ecnecho)
            || (st.phase == Phase::Est && t.last_ack > old_ack);
        if reordered {
            st.phase = Phase::Incr;
            let c = st.prior_cwnd;
            t.set_cwnd(b, &mut sim.w, c);
            st.clear();
            st.compute_fack(t.last_ack);
        }
    }
    // 7.10: RH_EXACT completes
    if st.phase == Phase::Exact && (st.fack >= st.prior_max_seq || st.scb.retran_sacked == st.rh_id) {
        bound(t, st, b, &mut sim.w);
        st.phase = Phase::Incr;
        st.clear();
    }
    // 7.11: the estimating states complete
    if matches!(st.phase, Phase::Est | Phase::EstRepair) && t.last_ack >= st.prior_max_seq {
        // (as a partial ACK: a retransmission has left the network)
        st.retran_data = 0;
        // 7.13: correct the estimate
        let c = (st.prior_cwnd - st.num_retrans as f64) / 2.0;
        t.set_cwnd(b, &mut sim.w, c);
        bound(t, st, b, &mut sim.w);
        st.phase = Phase::Incr;
        st.clear();
        st.compute_fack(t.last_ack);
    }
    // 7.12: NewReno's case
    if st.phase == Phase::Est && t.cwnd <= st.prior_cwnd / 2.0 {
        st.phase = Phase::EstRepair;
    }
    // 7.9: partial ACKs while estimating
    if matches!(st.phase, Phase::Est | Phase::EstRepair) && t.last_ack > old_ack {
        st.retran_data = 0;
        st.num_dupacks -= t.last_ack - old_ack - 1;
        st.hole = if st.num_dupacks >= t.numdupacks { HoleState::NewHole } else { HoleState::Counting };
        st.compute_fack(t.last_ack);
    }

    // 7.4: entering RH_EXACT
    if st.phase == Phase::Incr && (ecnecho || st.scb.new_holes() != 0) {
        st.begin(Phase::Exact, t);
    }
    // 7.5: entering RH_EST
    if st.phase == Phase::Incr && st.num_dupacks > 0 {
        st.begin(Phase::Est, t);
        st.hole = HoleState::Counting;
    }
    if st.phase == Phase::Exact && st.num_dupacks > 0 {
        // (the window was already cut: no new CWR, same prior window)
        st.phase = Phase::Est;
        st.hole = HoleState::Counting;
        st.rh_max += 1;
        st.rh_id = st.rh_max;
    }
    if st.phase == Phase::EstRepair && ecnecho {
        st.begin(Phase::Est, t);
    }

    match st.phase {
        // 7.2
        Phase::Incr => {
            if t.t_seqno - old_fack + old_retran_data + 1 >= t.cwnd as i32 {
                t.opencwnd(b, &mut sim.w);
            }
        }
        // 7.6: half a packet off per packet that left the network
        Phase::Exact => {
            let left = (st.fack - old_fack + st.scb.new_holes()) as f32;
            let c = t.cwnd - left as f64 / 2.0;
            t.set_cwnd(b, &mut sim.w, c);
        }
        // 7.7
        Phase::Est => {
            let c = t.cwnd - 0.5;
            t.set_cwnd(b, &mut sim.w, c);
        }
        Phase::EstRepair => {}
    }
    let mb = t.maxburst;
    send_much(t, st, b, sim, false, 0, mb);
}

/// 7.14 (`boundparms`): at most half the prior window, and ssthresh at
/// least a quarter of it.
fn bound(t: &mut Sender, st: &SackRhState, b: &AgentBase, w: &mut World) {
    if t.cwnd > st.prior_cwnd / 2.0 {
        let c = st.prior_cwnd / 2.0;
        t.set_cwnd(b, w, c);
    }
    let s = t.cwnd as i32;
    t.seti(b, w, Tv::Ssthresh, s);
    if (t.ssthresh as f64) < st.prior_cwnd / 4.0 {
        t.seti(b, w, Tv::Ssthresh, (st.prior_cwnd / 4.0) as i32);
    }
}

/// `SackRHTcpAgent::newack`, run on every ACK: takes the ACK's cumulative
/// point (without clearing the duplicate count) and its RTT sample.
fn newack(t: &mut Sender, b: &AgentBase, w: &mut World, ack: &AckInfo) {
    let now = w.s.now;
    t.newtimer(w, ack);
    t.last_ack = ack.seqno;
    t.seti(b, w, Tv::Ack, ack.seqno);
    if t.t_seqno < ack.seqno + 1 {
        t.seti(b, w, Tv::TSeqno, ack.seqno + 1);
    }
    if !ack.no_ts {
        if t.ts_option {
            t.rtt_update(b, w, now - ack.ts_echo);
        }
        if t.rtt_active && ack.seqno >= t.rtt_seq {
            if !ack.ecnecho {
                // (an ECN-Echo keeps the back-off)
                t.seti(b, w, Tv::Backoff, 1);
            }
            t.rtt_active = false;
            if !t.ts_option {
                let tao = now - t.rtt_ts;
                t.rtt_update(b, w, tao);
            }
        }
    }
    t.awnd *= 1.0 - t.wnd_th;
    t.awnd += t.wnd_th * t.cwnd;
}

/// `SackRHTcpAgent::timeout` (7.15): a timeout abandons the adjustment,
/// as if it never began, then does TCP's.
#[cold]
#[inline(never)]
pub(super) fn timeout(t: &mut Sender, st: &mut SackRhState, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_DELSND {
        let mb = t.maxburst;
        return send_much(t, st, b, sim, true, REASON_TIMEOUT, mb);
    }
    if tno != TIMER_RTX || (t.highest_ack == t.maxseq && !t.slow_start_restart) {
        return;
    }
    if t.highest_ack == -1 && t.wnd_init_option == 2 {
        t.wnd_init_option = 1;
    }
    if st.phase != Phase::Incr {
        let c = st.prior_cwnd;
        t.set_cwnd(b, &mut sim.w, c);
        st.clear();
        st.phase = Phase::Incr;
    }
    t.inc(b, &mut sim.w, Tv::Nrexmit, 1);
    t.slowdown(b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
    st.retran_data = 0;
    st.scb.timeout(t.t_seqno, t.numdupacks);
    st.compute_fack(t.last_ack);
    // as if nothing beyond the forward ACK had been sent
    if t.t_seqno > st.fack + 1 {
        let s = st.fack + 1;
        t.seti(b, &mut sim.w, Tv::TSeqno, s);
    }
    t.reset_rtx_timer(b, &mut sim.w, true, true);
    t.last_cwnd_action = CWND_ACTION_TIMEOUT;
    let mb = t.maxburst;
    send_much(t, st, b, sim, false, REASON_TIMEOUT, mb);
}

/// `SackRHTcpAgent::send_much` (7.3): while the data in flight, counted
/// from the forward ACK with the retransmissions out, is within cwnd:
/// a hole, else the estimated hole, else new data.
#[cold]
#[inline(never)]
pub(super) fn send_much(
    t: &mut Sender,
    st: &mut SackRhState,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    if !force && t.delsnd_pending(&sim.w) {
        return;
    }
    let mut npacket = 0;
    let mut found = true;
    while t.cwnd as i32 >= t.t_seqno - st.fack + st.retran_data && found {
        if t.overhead == 0.0 || force {
            found = false;
            let mut xmit = st.scb.next_retran(t.numdupacks);
            let wnd = t.wnd as i32;
            if xmit == -1 {
                if matches!(st.phase, Phase::Est | Phase::EstRepair) && st.hole == HoleState::NewHole {
                    xmit = t.last_ack + 1;
                    st.hole = HoleState::Retransmitted;
                    st.num_retrans += 1;
                    st.retran_data += 1;
                    st.retransmitted = true;
                    found = true;
                } else if t.t_seqno < t.curseq && t.t_seqno <= t.last_ack + wnd {
                    found = true;
                    xmit = t.t_seqno;
                    t.inc(b, &mut sim.w, Tv::TSeqno, 1);
                }
            } else if xmit <= t.last_ack + wnd {
                found = true;
                let next = t.t_seqno;
                st.scb.mark_retran(xmit, next, st.rh_id);
                st.retran_data += 1;
                st.retransmitted = true;
            }
            if found {
                t.output(b, sim, xmit, reason);
                if t.t_seqno <= xmit {
                    t.seti(b, &mut sim.w, Tv::TSeqno, xmit + 1);
                }
                npacket += 1;
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

    #[test]
    fn holes_wait_for_enough_reports() {
        let mut s = RhScoreBoard::default();
        assert_eq!(s.update(9, &[], 0), 0, "no blocks, no board");
        assert_eq!(s.length, 0);
        s.update(9, &[(12, 13)], 1);
        // entries 10, 11, 12; holes 10 and 11 reported once
        assert_eq!(s.fack(9), 12);
        assert_eq!(s.new_holes(), 2);
        assert_eq!(s.next_retran(3), -1);
        s.update(9, &[(12, 14)], 1);
        s.update(9, &[(12, 15)], 1);
        assert_eq!(s.new_holes(), 0);
        assert_eq!(s.next_retran(3), 10);
        s.mark_retran(10, 15, 1);
        assert_eq!(s.next_retran(3), 11);
        // 10 arrives (the cumulative ACK passes it): one retransmission out
        assert_eq!(s.update(10, &[(12, 15)], 1), 1);
        assert_eq!(s.retran_sacked, 1);
        // 11 retransmitted at snd_nxt 15; a block reaching past 15: lost again
        s.mark_retran(11, 15, 1);
        assert_eq!(s.update(10, &[(12, 17)], 1), 1);
        assert_eq!(s.next_retran(3), -1, "lost again counts as one report");
    }

    #[test]
    fn timeout_makes_every_hole_due() {
        let mut s = RhScoreBoard::default();
        s.update(9, &[(12, 13)], 1);
        s.timeout(16, 3);
        assert_eq!(s.fack(9), 15);
        assert_eq!(s.next_retran(3), 10);
        s.mark_retran(10, 16, 1);
        assert_eq!(s.next_retran(3), 11);
        s.mark_retran(11, 16, 1);
        assert_eq!(s.next_retran(3), 13);
    }
}
