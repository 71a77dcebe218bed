//! TCP Vegas (tcp/tcp-vegas.cc, `Agent/TCP/Vegas`, after Brakmo and
//! Peterson through NetBSD-Vegas).
//!
//! Once per round trip Vegas compares the rate it expects (outstanding
//! packets over the smallest RTT seen, `v_baseRTT_`) with the rate it gets
//! (packets sent in the last round over the round's mean RTT) and turns the
//! difference into packets queued in the network (`delta`).  In congestion
//! avoidance it grows cwnd by one packet per RTT while delta < `v_alpha_`,
//! shrinks it by one while delta > `v_beta_`; in slow start it doubles cwnd
//! every other RTT and leaves slow start once delta > `v_gamma_`.
//!
//! Its RTT is measured per packet from its own send-time table, in seconds
//! since the first packet (`vegastime()`), beside the common coarse
//! estimator (which still drives the retransmission timer).  A duplicate
//! ACK, or the first one or two new ACKs after one, retransmit a packet
//! whose fine-grained timeout has expired without waiting for three
//! duplicates.
//!
//! ns-2's Vegas is a separate `recv`, `timeout` and `output`: it never calls
//! the common window opening, sends full-size packets from the first one
//! (no SYN-sized packet 0, no header bytes added), never marks packets ECN
//! capable, and ignores the timestamp, F-RTO, quiescence and ELN options.
//! Its parameters are the only bound variables it adds: `v_alpha_`,
//! `v_beta_`, `v_gamma_` (integers) and `v_rtt_` (the last fine-grained RTT
//! sample, a double); none of them is a traced variable.

use super::*;
use crate::num::c_int;

/// Vegas's parameters and state.
#[derive(Clone, Debug)]
pub struct VegasState {
    // ---- bound variables -----------------------------------------------
    /// Lower bound of the queued-packet estimate in congestion avoidance.
    pub alpha: i32,
    /// Upper bound of the queued-packet estimate in congestion avoidance.
    pub beta: i32,
    /// Queued packets beyond which slow start ends.
    pub gamma: i32,
    /// The last fine-grained RTT sample (seconds).
    pub rtt: f64,

    // ---- state ------------------------------------------------------------
    /// `vegastime()` when cwnd was last cut for a loss.
    pub t_cwnd_changed: f64,
    /// `vegastime()` of the first ACK (negative before it).
    pub firstrecv: f64,
    /// The window after a timeout.
    pub slowstart: i32,
    /// New ACKs still to check for expired packets after a duplicate ACK.
    pub worried: i32,
    /// The fine-grained retransmission timeout.
    pub timeout: f64,
    /// Smoothed RTT (scaled by 8) and mean deviation (scaled by 4).
    pub sa: f64,
    pub sd: f64,
    /// RTT samples of this round and their sum.
    pub cnt_rtt: i32,
    pub sum_rtt: f64,
    /// When the round's tagged packet was sent, and its sequence number.
    pub begtime: f64,
    pub begseq: i32,
    /// Send time and transmission count of each unacknowledged packet,
    /// indexed by sequence number modulo `maxwnd`.
    pub sendtime: Vec<f64>,
    pub transmits: Vec<i32>,
    pub maxwnd: i32,
    /// The uninflated window after a loss.
    pub newcwnd: f64,
    /// The smallest RTT seen.
    pub base_rtt: f64,
    /// Increase of cwnd per ACK during this round.
    pub incr: f64,
    /// Slow start grows cwnd only every other round.
    pub inc_flag: i32,
    /// Packets per second delivered in the last round.
    pub actual: f64,
}

impl Default for VegasState {
    fn default() -> Self {
        VegasState {
            alpha: 0,
            beta: 0,
            gamma: 0,
            rtt: 0.0,
            t_cwnd_changed: 0.0,
            firstrecv: -1.0,
            slowstart: 2,
            worried: 0,
            timeout: 1000.0,
            sa: 0.0,
            sd: 0.0,
            cnt_rtt: 0,
            sum_rtt: 0.0,
            begtime: 0.0,
            begseq: 0,
            sendtime: Vec::new(),
            transmits: Vec::new(),
            maxwnd: 0,
            newcwnd: 0.0,
            base_rtt: 1e9,
            incr: 0.0,
            inc_flag: 1,
            actual: 0.0,
        }
    }
}

/// The most packets the send-time table may be sized for (`window_` when
/// packet 0 is sent): ns-2 would allocate and fill 12 bytes per packet.
pub const MAX_TABLE: i32 = 1 << 26;

impl VegasState {
    /// `VegasTcpAgent::reset` (before the common reset): the per-connection
    /// state; the parameters and the send-time table stay.
    pub fn reset(&mut self) {
        *self = VegasState {
            alpha: self.alpha,
            beta: self.beta,
            gamma: self.gamma,
            rtt: self.rtt,
            sendtime: std::mem::take(&mut self.sendtime),
            transmits: std::mem::take(&mut self.transmits),
            maxwnd: self.maxwnd,
            newcwnd: self.newcwnd,
            actual: self.actual,
            ..VegasState::default()
        };
    }

    #[inline]
    fn slot(&self, seqno: i32) -> usize {
        // Sequence numbers here are never negative; C's `%` then agrees.
        (seqno % self.maxwnd) as usize
    }
}

/// `VegasTcpAgent`'s override of `TcpAgent::output` for the shared
/// sending loop.
impl Virtuals for VegasState {
    /// `output` notes the send time in the table it may (re)size.
    const OUTPUT_KEEPS_WINDOW: bool = false;

    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        debug_assert!(spare.is_none());
        output(t, self, b, sim, seqno, reason)
    }
}

/// `TcpAgent::send_much` with Vegas's `output`; out of line from the
/// common path.
#[inline(never)]
pub(super) fn send_much(
    t: &mut Sender,
    s: &mut VegasState,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    t.send_much_with(s, b, sim, force, reason, maxburst, None)
}

/// `vegastime()`: seconds since the first packet was sent.
#[inline]
fn vegastime(t: &Sender, w: &World) -> f64 {
    w.s.now - t.firstsent
}

/// `vegas_expire`: the packet after `seqno`, if its fine-grained timeout
/// has expired, else -1.
fn expire(t: &Sender, s: &VegasState, w: &World, seqno: i32) -> i32 {
    let now = vegastime(t, w);
    let elapse = now - s.sendtime[s.slot(seqno + 1)];
    if elapse >= s.timeout {
        seqno + 1
    } else {
        -1
    }
}

/// `VegasTcpAgent::output`: send segment `seqno`, recording its
/// fine-grained send time.
pub(super) fn output(t: &mut Sender, s: &mut VegasState, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
    let p = b.allocpkt(sim);
    let now = sim.w.s.now;
    {
        let pk = sim.w.pool.get_mut(p);
        pk.seqno = seqno;
        pk.ts = now;
        pk.reason = reason;
    }
    let vt = vegastime(t, &sim.w);
    let wnd = t.wnd;
    if seqno == 0 || s.sendtime.is_empty() {
        // The table is sized by the window when packet 0 goes out.
        let mut m = c_int(wnd);
        if !(1..=MAX_TABLE).contains(&m) {
            let megabytes = (m >= 1).then(|| m as i64 * 12 >> 20);
            sim.w.abort(crate::notice::Abort::VegasWindow { agent: b.id, window: wnd, megabytes });
            m = 1;
        }
        s.maxwnd = m;
        s.sendtime = vec![-1.0; m as usize];
        s.transmits = vec![0; m as usize];
    }
    let i = s.slot(seqno);
    s.sendtime[i] = vt;
    s.transmits[i] += 1;
    let bytes = sim.w.pool.get(p).size;
    t.inc(b, &mut sim.w, Tv::Ndatabytes, bytes);
    t.inc(b, &mut sim.w, Tv::Ndatapack, 1);
    t.sent(b, sim, p, seqno, bytes, false);
}

/// `VegasTcpAgent::recv`.
pub(super) fn recv(t: &mut Sender, s: &mut VegasState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let now = vegastime(t, &sim.w);
    t.inc(b, &mut sim.w, Tv::Nackpack, 1);
    if s.firstrecv < 0.0 {
        s.firstrecv = now;
        s.base_rtt = now;
        s.rtt = now;
        s.sa = s.rtt * 8.0;
        s.sd = s.rtt;
        s.timeout = (s.sa / 4.0 + s.sd) / 2.0;
    }
    if ack.ecnecho {
        t.ecn_response(&mut Base, b, &mut sim.w, ack.seqno);
    }
    if ack.seqno > t.last_ack {
        new_ack(t, s, b, sim, ack, now);
    } else if ack.seqno == t.last_ack {
        dup_ack(t, s, b, sim, ack, now);
    }
    sim.w.pool.free(p);
    if t.dupacks == 0 || t.dupacks > t.numdupacks - 1 {
        let mb = t.maxburst;
        send_much(t, s, b, sim, false, 0, mb);
    }
}

/// An ACK for new data.
fn new_ack(t: &mut Sender, s: &mut VegasState, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo, now: f64) {
    t.first_ack_window(b, &mut sim.w);
    // Deflate a window inflated by duplicate ACKs.
    let newcwnd = s.newcwnd;
    if t.dupacks > t.numdupacks && t.cwnd > newcwnd {
        t.set_cwnd(b, &mut sim.w, newcwnd);
        t.seti(b, &mut sim.w, Tv::Ssthresh, 2);
    }
    let oldack = t.last_ack;
    // `recv_newack_helper`: no window opening here.
    t.newack(b, &mut sim.w, ack);
    if t.highest_ack >= t.curseq - 1 && !t.closed {
        t.closed = true;
        t.finish(b, sim);
    }

    if ack.seqno >= s.begseq {
        once_per_rtt(t, s, b, &mut sim.w, now);
    }

    // The round's increase stops at ssthresh in slow start ...
    if s.incr == 1.0 && t.cwnd >= t.ssthresh as f64 {
        s.incr = 0.0;
    }
    // ... and applies only while the window is being used.
    let incr = s.incr;
    if incr > 0.0 && t.cwnd - (t.t_seqno - t.last_ack) as f64 <= 2.0 {
        let c = t.cwnd + incr;
        t.set_cwnd(b, &mut sim.w, c);
    }
    if t.maxcwnd != 0 && c_int(t.cwnd) > t.maxcwnd {
        let c = t.maxcwnd as f64;
        t.set_cwnd(b, &mut sim.w, c);
    }

    // Clear the table for the packets this ACK covers and take an RTT
    // sample from a packet sent once.
    let at = s.slot(ack.seqno);
    let (send_time, transmits) = (s.sendtime[at], s.transmits[at]);
    let mut range = ack.seqno - oldack;
    let mut k = (oldack + 1) % s.maxwnd;
    // As in ns-2, the walk stops where the index wraps past the end of the
    // table (those entries are simply overwritten when reused).
    while k <= ack.seqno % s.maxwnd && range > 0 {
        s.sendtime[k as usize] = -1.0;
        s.transmits[k as usize] = 0;
        k = (k + 1) % s.maxwnd;
        range -= 1;
    }
    if send_time != 0.0 && transmits == 1 {
        let rtt = now - send_time;
        s.sum_rtt += rtt;
        s.cnt_rtt += 1;
        if rtt > 0.0 {
            s.rtt = rtt;
            if s.rtt < s.base_rtt {
                s.base_rtt = s.rtt;
            }
            let mut n = s.rtt - s.sa / 8.0;
            s.sa += n;
            n = n.abs();
            n -= s.sd / 4.0;
            s.sd += n;
            s.timeout = (s.sa / 4.0 + s.sd) / 2.0;
            s.timeout += s.timeout / 16.0;
        }
    }

    // After a duplicate ACK, the next one or two new ACKs retransmit a
    // packet whose fine-grained timeout has run out.
    if s.worried > 0 {
        s.worried -= 1;
        let expired = expire(t, s, &sim.w, ack.seqno);
        if expired >= 0 {
            let nd = t.numdupacks;
            t.seti(b, &mut sim.w, Tv::Dupacks, nd);
            output(t, s, b, sim, expired, REASON_DUPACK);
        } else {
            s.worried = 0;
        }
    }
}

/// The once-per-round decision: update the base RTT and choose the
/// round's window change from the expected and actual rates.
fn once_per_rtt(t: &mut Sender, s: &mut VegasState, b: &AgentBase, w: &mut World, now: f64) {
    let (t_seqno, last_ack, cwnd, ssthresh) = (t.t_seqno, t.last_ack, t.cwnd, t.ssthresh);
    let rtt = if s.cnt_rtt > 0 { s.sum_rtt / s.cnt_rtt as f64 } else { now - s.begtime };
    s.sum_rtt = 0.0;
    s.cnt_rtt = 0;
    let rtt_len = t_seqno - s.begseq;
    // The window change this round, if any: (new cwnd, leave slow start).
    let mut cut = None;
    if rtt > 0.0 {
        // With one packet in flight the round's RTT is the path's own.
        if rtt < s.base_rtt || rtt_len <= 1 {
            s.base_rtt = rtt;
        }
        s.actual = rtt_len as f64 / rtt;
        let expect = (t_seqno - last_ack) as f64 / s.base_rtt;
        let delta = c_int((expect - s.actual) * s.base_rtt + 0.5);
        if cwnd < ssthresh as f64 {
            // Slow start: double every other round.
            s.inc_flag = (s.inc_flag == 0) as i32;
            if s.inc_flag == 0 {
                s.incr = 0.0;
            } else if delta > s.gamma {
                // Too many packets queued: leave slow start, a bit lower.
                cut = Some((cwnd - cwnd / 8.0, true));
                s.incr = 0.0;
            } else {
                s.incr = 1.0;
            }
        } else if delta > s.beta {
            // Back to the previous round's window; no increase next round.
            cut = Some((cwnd - 1.0, false));
            s.incr = 0.0;
        } else if delta < s.alpha {
            s.incr = 1.0 / cwnd;
        } else {
            s.incr = 0.0;
        }
    }
    // Tag the next packet to be sent: its ACK ends the next round.
    s.begseq = t_seqno;
    s.begtime = now;
    if let Some((c, leave_ss)) = cut {
        if leave_ss {
            t.seti(b, w, Tv::Ssthresh, 2);
        }
        t.set_cwnd(b, w, c);
        if t.cwnd < 2.0 {
            t.set_cwnd(b, w, 2.0);
        }
    }
}

/// A duplicate ACK: retransmit at once if the next packet's fine-grained
/// timeout has expired (or on the numdupacks_-th duplicate).
fn dup_ack(t: &mut Sender, s: &mut VegasState, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo, now: f64) {
    t.inc(b, &mut sim.w, Tv::Dupacks, 1);
    let expired = expire(t, s, &sim.w, ack.seqno);
    if expired >= 0 || t.dupacks == t.numdupacks {
        let last_ack = t.last_ack;
        let at = s.slot(last_ack + 1);
        let (send_time, transmits) = (s.sendtime[at], s.transmits[at]);
        if !t.bug_fix || t.highest_ack > t.recover || t.last_cwnd_action != CWND_ACTION_TIMEOUT {
            let mut win = t.window();
            t.last_cwnd_action = CWND_ACTION_DUPACK;
            t.recover = t.maxseq;
            let in_flight = t.t_seqno - t.last_ack;
            s.worried = in_flight.min(2);
            // Back the fine-grained timeout off.
            if transmits > 1 {
                s.timeout *= 2.0;
            } else {
                s.timeout += s.timeout / 8.0;
            }
            // Cut the window once per loss: only if it has not changed
            // since the packet was sent.
            if s.t_cwnd_changed < send_time {
                if win <= 3 {
                    win = 2;
                } else if transmits > 1 {
                    win >>= 1;
                } else {
                    win -= win >> 2;
                }
                s.newcwnd = win as f64;
                s.t_cwnd_changed = now;
                let c = s.newcwnd + t.dupacks as f64;
                t.set_cwnd(b, &mut sim.w, c);
            }
            t.reset_rtx_timer(b, &mut sim.w, true, true);
            let seq = if expired >= 0 { expired } else { t.last_ack + 1 };
            output(t, s, b, sim, seq, REASON_DUPACK);
            if transmits == 1 {
                let nd = t.numdupacks;
                t.seti(b, &mut sim.w, Tv::Dupacks, nd);
            }
        }
    } else if t.dupacks > t.numdupacks {
        let c = t.cwnd + 1.0;
        t.set_cwnd(b, &mut sim.w, c);
    }
}

/// `VegasTcpAgent::timeout`.
pub(super) fn timeout(t: &mut Sender, s: &mut VegasState, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_RTX {
        if t.highest_ack == t.maxseq && !t.slow_start_restart {
            // Nothing outstanding and no slow-start restart.
            return;
        }
        let w = &mut sim.w;
        t.seti(b, w, Tv::Dupacks, 0);
        t.recover = t.maxseq;
        t.last_cwnd_action = CWND_ACTION_TIMEOUT;
        t.reset_rtx_timer(b, w, false, true);
        t.inc(b, w, Tv::Nrexmit, 1);
        t.slowdown(b, w, CLOSE_CWND_RESTART | CLOSE_SSTHRESH_HALF);
        let c = s.slowstart as f64;
        t.set_cwnd(b, w, c);
        let vt = vegastime(t, w);
        s.newcwnd = 0.0;
        s.t_cwnd_changed = vt;
        send_much(t, s, b, sim, false, REASON_TIMEOUT, 0);
    } else {
        // The delayed-send timer (`overhead_`); Vegas also sends on the
        // burst timer, which nothing arms for it.
        send_much(t, s, b, sim, true, REASON_TIMEOUT, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;


    #[test]
    fn reset_keeps_parameters_and_table() {
        let mut s = VegasState { alpha: 3, beta: 6, gamma: 2, rtt: 0.25, maxwnd: 4, ..Default::default() };
        s.sendtime = vec![1.0; 4];
        s.base_rtt = 0.1;
        s.inc_flag = 0;
        s.firstrecv = 5.0;
        s.reset();
        assert_eq!((s.alpha, s.beta, s.gamma, s.rtt), (3, 6, 2, 0.25));
        assert_eq!(s.sendtime.len(), 4);
        assert_eq!((s.base_rtt, s.inc_flag, s.firstrecv), (1e9, 1, -1.0));
    }
}
