//! Rate-based pacing after idle periods (tcp/tcp-rbp.cc, Visweswaraiah
//! and Heidemann's RBP): a sender that has been idle long enough for its
//! retransmission timer to expire does not send its window in one burst
//! when data comes again, but paces it out, one packet per
//! `rtt / window`, until the first ACK returns and the ACK clock takes
//! over.  The window paced is the Vegas sender's measured rate times its
//! RTT (or its cwnd), or Reno's cwnd, scaled; RTT is Vegas's fine-grained
//! one or Reno's smoothed one.
//!
//! It wraps a Reno or a Vegas sender: their `recv`, `timeout` and sending
//! loop run as they are, around the pacing decisions.

use super::vegas::VegasState;
use super::*;

/// `TCP_REASON_RBP`.
const REASON_RBP: i32 = 0x03;

/// The pacing timer's number (ns-2's timers use 0 to 5).
pub const TIMER_PACE: u8 = 7;

/// The sender wrapped.
#[derive(Clone, Debug)]
pub enum Paced {
    Reno,
    Vegas(Box<VegasState>),
}

/// Whether pacing is on (`rbp_mode_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Pacing out the window.
    Going,
    /// Idle long enough: pace when data comes.
    Possible,
    Off,
}

/// How the window to pace is worked out (Vegas only; Reno paces its cwnd).
pub const RATE_ALGORITHM: i32 = 1;
pub const CWND_ALGORITHM: i32 = 2;

#[derive(Clone, Debug)]
pub struct RbpState {
    pub paced: Paced,
    /// The window paced is this fraction of the estimate.
    pub scale: f64,
    /// `RATE_ALGORITHM` or `CWND_ALGORITHM` (Vegas).
    pub rate_algorithm: i32,
    /// Packets paced in the last paced period.
    pub segs_paced: i32,
    /// Seconds between paced packets.
    pub inter_pace_delay: f64,
    pub mode: Mode,
    /// The pacing timer (made with the sender).
    pub timer: u32,
}

impl RbpState {
    pub fn new(paced: Paced) -> RbpState {
        RbpState {
            paced,
            scale: 0.0,
            rate_algorithm: 0,
            segs_paced: 0,
            inter_pace_delay: 0.0,
            mode: Mode::Off,
            timer: u32::MAX,
        }
    }
}

/// `recv`: any ACK ends pacing.  Reno caps cwnd at what was paced out on
/// the first new ACK, so that the ACK clock does not start with a burst.
#[cold]
#[inline(never)]
pub(super) fn recv(t: &mut Sender, st: &mut RbpState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    if st.mode != Mode::Off {
        st.mode = Mode::Off;
        if matches!(st.paced, Paced::Reno) && ack.seqno > t.last_ack {
            let c = (t.maxseq - t.last_ack) as f64;
            t.set_cwnd(b, &mut sim.w, c);
        }
    }
    match &mut st.paced {
        Paced::Reno => reno::recv(t, b, sim, p, ack),
        Paced::Vegas(v) => vegas::recv(t, v, b, sim, p, ack),
    }
}

/// `timeout`: the retransmission timer expiring with nothing outstanding
/// makes pacing possible; the pacing timer sends the next paced packet.
#[cold]
#[inline(never)]
pub(super) fn timeout(t: &mut Sender, st: &mut RbpState, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_PACE {
        return paced_send_one(t, st, b, sim);
    }
    if tno == TIMER_RTX && t.highest_ack == t.maxseq {
        st.mode = Mode::Possible;
        return;
    }
    match &mut st.paced {
        Paced::Reno => reno::timeout(t, b, sim, tno),
        Paced::Vegas(v) => vegas::timeout(t, v, b, sim, tno),
    }
}

/// Can a paced packet go now?
fn able_to_send_one(t: &Sender) -> bool {
    t.t_seqno < t.curseq && t.t_seqno <= t.highest_ack + t.window()
}

/// `send_much`: after an idle period, start pacing (cwnd cut to the window
/// to pace, at least two packets); else the wrapped sender's loop.
#[cold]
#[inline(never)]
pub(super) fn send_much(
    t: &mut Sender,
    st: &mut RbpState,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    if !(st.mode == Mode::Possible && able_to_send_one(t)) {
        return match &mut st.paced {
            Paced::Reno => t.send_much_tcp(b, sim, force, reason, maxburst),
            Paced::Vegas(v) => vegas::send_much(t, v, b, sim, force, reason, maxburst),
        };
    }
    st.mode = Mode::Going;
    st.segs_paced = 0;
    let estimate = match &st.paced {
        Paced::Vegas(v) if st.rate_algorithm == RATE_ALGORITHM => v.actual * v.rtt,
        Paced::Vegas(_) if st.rate_algorithm == CWND_ALGORITHM => t.cwnd,
        Paced::Vegas(_) => {
            // ns-2 aborts (`abort()`) on another algorithm
            sim.w.abort(crate::notice::Abort::PacingAlgorithm { agent: b.id, algorithm: st.rate_algorithm });
            return;
        }
        Paced::Reno => t.cwnd,
    };
    let mut win = ((estimate * st.scale) + 0.5) as i32 as f64;
    if win <= 2.0 {
        win = 2.0;
    }
    if win < t.cwnd {
        t.set_cwnd(b, &mut sim.w, win);
    }
    // `window()` packets in one RTT
    let rtt = match &st.paced {
        Paced::Vegas(v) => v.rtt,
        Paced::Reno => t.t_srtt as f64 / (1u32 << t.t_srtt_bits.clamp(0, 31)) as f64 * t.tcp_tick,
    };
    st.inter_pace_delay = rtt / t.window() as f64;
    paced_send_one(t, st, b, sim);
}

/// `paced_send_one`: send the next packet and set the timer for the one
/// after.
fn paced_send_one(t: &mut Sender, st: &mut RbpState, b: &mut AgentBase, sim: &mut Sim) {
    if st.mode != Mode::Going || !able_to_send_one(t) {
        return;
    }
    let seqno = t.t_seqno;
    t.inc(b, &mut sim.w, Tv::TSeqno, 1);
    match &mut st.paced {
        Paced::Reno => t.output(b, sim, seqno, REASON_RBP),
        Paced::Vegas(v) => vegas::output(t, v, b, sim, seqno, REASON_RBP),
    }
    st.segs_paced += 1;
    sim.w.s.timer_resched(st.timer, st.inter_pace_delay);
}
