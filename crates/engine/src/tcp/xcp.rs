//! The XCP end system (Katabi, Handley and Rohrs, SIGCOMM 2002), as ns-2
//! 2.35's Reno sender and sink have it (xcp/xcp-end-sys.cc).
//!
//! The sender's window never grows by itself (no slow start, no additive
//! increase): each data packet carries its RTT, `x` = RTT / window and an
//! unbounded request (`delta_throughput` = 1e24 - window * size / RTT),
//! which the XCP routers on the path lower to their feedback; the receiver
//! sums what arrives and sends the sum back in its next ACK; each new ACK
//! moves the window by `reverse_feedback * RTT / size` packets (at least
//! 1, at most `maxcwnd_` when set).  Loss recovery is Reno's.
//!
//! The RTT is the end system's own estimate, kept beside Reno's: ticks of
//! `tcpTick_` (with timestamps, the ticks between the send and receive
//! times), averaged with gain 1/8 in fixed point with 8 fraction bits.
//! A reset forgets the estimate but not the fixed-point average, as ns-2's
//! `rtt_init` does.

use super::*;
use crate::packet::{XcpHdr, XcpKind};
use crate::trace::XcpVar;

/// The request a sender makes (`MAX_THROUGHPUT`, bytes/s).
const MAX_THROUGHPUT: f64 = 1e24;
/// Fixed-point shifts of the RTT average (`XCP_DELTA_SHIFT`,
/// `XCP_EXPO_SHIFT`).
const DELTA_SHIFT: u32 = 5;
const EXPO_SHIFT: u32 = 3;
const RTT_SHIFT: u32 = DELTA_SHIFT + EXPO_SHIFT;

/// One end's XCP state (`XcpEndsys`).
#[derive(Clone, Debug, Default)]
pub struct XcpEnd {
    /// Feedback received, to send back (bytes/s; a receiver's).
    pub rev_fb: f64,
    /// The smoothed RTT, seconds (0: none yet).
    pub srtt_estimate: f64,
    /// The same, in ticks with `RTT_SHIFT` fraction bits.
    pub srtt_fixed: i64,
    /// The end's id in its headers.
    pub id: i32,
}

impl XcpEnd {
    /// `rtt_update(tao)` at `now` with ticks of `tick` seconds.
    pub fn rtt_update(&mut self, now: f64, tao: f64, tick: f64, ts_option: bool, boot_time: f64) {
        let sendtime = now - tao;
        let t_rtt = if ts_option {
            (now / tick) as i32 as i64 - (sendtime / tick) as i32 as i64
        } else {
            let tickoff = (sendtime + boot_time) % tick;
            ((tao + tickoff) / tick) as i32 as i64
        };
        self.srtt_fixed = if self.srtt_fixed != 0 {
            self.srtt_fixed + ((t_rtt << DELTA_SHIFT) - ((self.srtt_fixed + (1 << (EXPO_SHIFT - 1))) >> EXPO_SHIFT))
        } else {
            t_rtt << RTT_SHIFT
        };
        self.srtt_estimate = self.srtt_fixed as f64 * tick / (1u32 << RTT_SHIFT) as f64;
    }

    /// A receiver's `recv`: add the packet's feedback to what goes back.
    pub fn take_feedback(&mut self, h: &XcpHdr) {
        if h.kind != XcpKind::Disabled {
            self.rev_fb += h.delta_throughput;
        }
    }

    /// A receiver's header for an ACK (`send` with no data).
    pub fn ack_header(&mut self) -> XcpHdr {
        let h = XcpHdr { kind: XcpKind::Ack, rtt: self.srtt_estimate, id: self.id, reverse_feedback: self.rev_fb, ..XcpHdr::default() };
        self.rev_fb = 0.0;
        h
    }
}

/// The new window an ACK's `reverse_feedback` (bytes/s) makes of `cwnd`,
/// with RTT `srtt` and packets of `size` bytes, capped by `maxcwnd` (0:
/// none) and at least 1.
pub fn window_after_feedback(cwnd: f64, reverse_feedback: f64, srtt: f64, size: i32, maxcwnd: i32) -> f64 {
    let mut w = cwnd + reverse_feedback * srtt / size as f64;
    if maxcwnd != 0 && w > maxcwnd as f64 {
        w = maxcwnd as f64;
    }
    if w < 1.0 {
        w = 1.0;
    }
    w
}

impl Sender {
    /// Trace an XCP variable to the agent's channel, if it has one.
    fn xcp_trace(b: &AgentBase, w: &mut World, var: XcpVar, v: f64) {
        let Some(ch) = b.channel else { return };
        let now = w.s.now;
        w.out.with_tracer(|t, out| t.xcp_var(out, ch, now, var, v));
    }

    /// `output_helper`: the XCP header of data packet `p`.
    #[cold]
    #[inline(never)]
    pub(super) fn xcp_output(&mut self, b: &AgentBase, w: &mut World, p: PktId) {
        let datalen = w.pool.get(p).size;
        self.xcp_send(b, w, p, datalen)
    }

    /// `XcpEndsys::send`: the XCP header of packet `p`, with `datalen`
    /// bytes of data (none: an ACK's header).
    #[cold]
    #[inline(never)]
    pub(super) fn xcp_send(&mut self, b: &AgentBase, w: &mut World, p: PktId, datalen: i32) {
        let window = self.window();
        let size = b.size;
        let cwnd = self.cwnd;
        let Some(x) = self.xcp.as_mut() else { return };
        let mut h = XcpHdr {
            kind: if datalen != 0 { XcpKind::Enabled } else { XcpKind::Ack },
            rtt: x.srtt_estimate,
            id: x.id,
            reverse_feedback: x.rev_fb,
            cwnd,
            ..XcpHdr::default()
        };
        x.rev_fb = 0.0;
        // (ns-2 computes the claim for ACKs too: both kinds are non-zero)
        let mut tput = 0.0;
        if x.srtt_estimate != 0.0 {
            if window == 0 {
                // `srtt_estimate_ / window()`: ns-2 traps the division
                w.abort(crate::notice::Abort::XcpZeroWindow { agent: b.id, cwnd });
            }
            tput = (window as f64 * size as f64) / x.srtt_estimate;
            h.x = x.srtt_estimate / window as f64;
            h.delta_throughput = MAX_THROUGHPUT - tput;
        }
        w.pool.set_xcp_hdr(p, h);
        Self::xcp_trace(b, w, XcpVar::Throughput, tput);
    }

    /// XCP's part of an arriving packet (header `h`; a one-way sender's
    /// new ACK, any segment of a two-way one): the feedback moves the
    /// window.
    #[cold]
    #[inline(never)]
    pub(super) fn xcp_feedback(&mut self, b: &AgentBase, w: &mut World, h: &XcpHdr) {
        if h.kind == XcpKind::Disabled {
            return;
        }
        let Some(x) = self.xcp.as_mut() else { return };
        x.rev_fb += h.delta_throughput;
        let srtt = x.srtt_estimate;
        if b.channel.is_some() {
            Self::xcp_trace(b, w, XcpVar::ReverseFeedback, h.reverse_feedback);
            Self::xcp_trace(b, w, XcpVar::ControllingHop, h.controlling_hop as f64);
        }
        let c = window_after_feedback(self.cwnd, h.reverse_feedback, srtt, b.size, self.maxcwnd);
        self.set_cwnd(b, w, c);
        let c = self.cwnd;
        Self::xcp_trace(b, w, XcpVar::Cwnd, c);
    }
}

impl Sender {
    /// `XcpEndsys::rtt_update(tao)` (beside the sender's own).
    #[cold]
    #[inline(never)]
    pub(super) fn xcp_rtt_update(&mut self, now: f64, tao: f64) {
        let (tick, ts, boot) = (self.tcp_tick, self.ts_option, self.boot_time);
        if let Some(x) = self.xcp.as_mut() {
            x.rtt_update(now, tao, tick, ts, boot);
        }
    }
}

/// `XcpRenoTcpAgent`'s ACK: Reno's `recv` with the window opened only by
/// the feedback, and the end system's RTT estimate updated beside Reno's.
#[cold]
#[inline(never)]
pub(super) fn recv(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let h = sim.w.pool.xcp_hdr(p);
    if !t.recv_prologue(b, sim, p, ack) {
        return;
    }
    if ack.seqno > t.last_ack {
        if t.last_cwnd_action == CWND_ACTION_DUPACK {
            t.last_cwnd_action = CWND_ACTION_EXITED;
        }
        t.dupwnd = 0;
        // `newack` measures an RTT in these cases (`rtt_update`).
        let now = sim.w.s.now;
        let tao = if ack.no_ts {
            None
        } else if t.ts_option {
            Some(now - ack.ts_echo)
        } else if t.rtt_active && ack.seqno >= t.rtt_seq {
            Some(now - t.rtt_ts)
        } else {
            None
        };
        if let (Some(tao), Some(x)) = (tao, t.xcp.as_mut()) {
            x.rtt_update(now, tao, t.tcp_tick, t.ts_option, t.boot_time);
        }
        t.newack(b, &mut sim.w, ack);
        t.recv_newack_tail(b, sim, ack);
        t.xcp_feedback(b, &mut sim.w, &h);
        t.first_ack_window(b, &mut sim.w);
    } else if ack.seqno == t.last_ack {
        if t.eln_dupack(&mut Base, b, sim, ack, p) {
            return;
        }
        t.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if t.dupacks == t.numdupacks {
            reno::dupack_action(t, b, sim, true);
            if !t.exit_fast_retrans {
                t.dupwnd = t.numdupacks as u32;
            }
        } else if t.dupacks > t.numdupacks
            && (!t.exit_fast_retrans || t.last_cwnd_action == CWND_ACTION_DUPACK)
        {
            t.dupwnd = t.dupwnd.wrapping_add(1);
        } else if t.dupacks < t.numdupacks && t.singledup != 0 {
            t.send_one(b, sim);
        }
    }
    let valid_ack = ack.seqno >= t.last_ack;
    if (valid_ack || t.aggressive_maxburst) && (t.dupacks == 0 || t.dupacks > t.numdupacks - 1) {
        let mb = t.maxburst;
        return t.send_much_ack(b, sim, p, mb);
    }
    sim.w.pool.free(p);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With timestamps the RTT is the ticks between the send and receive
    /// times: sent at 0.004, received at 0.0441 with 10 ms ticks: tick 4
    /// less tick 0 = 4 ticks, 1024 in fixed point, 0.04 s.  The next, 6
    /// ticks: 1024 + (6 << 5) - ((1024 + 4) >> 3) = 1024 + 192 - 128 =
    /// 1088, 1088 / 256 * 0.01 = 0.0425 s.
    #[test]
    fn rtt_average_in_fixed_point() {
        let mut x = XcpEnd::default();
        x.rtt_update(0.0441, 0.0401, 0.01, true, 0.0);
        assert_eq!(x.srtt_fixed, 1024);
        assert!((x.srtt_estimate - 0.04).abs() < 1e-15);
        x.rtt_update(1.065, 0.06, 0.01, true, 0.0);
        assert_eq!(x.srtt_fixed, 1088);
        assert!((x.srtt_estimate - 0.0425).abs() < 1e-15);
    }

    /// 491,440 bytes/s of feedback over an RTT of 0.04 s with 1000-byte
    /// packets is 19.6576 packets more: 2 becomes 21.6576 (ns-2's trace of
    /// test-suite-xcp's first flow at 0.121808 s).  A cut below 1 stops at
    /// 1; `maxcwnd_` caps.
    #[test]
    fn feedback_moves_the_window() {
        assert!((window_after_feedback(2.0, 491_440.0, 0.04, 1000, 0) - 21.6576).abs() < 1e-9);
        assert_eq!(window_after_feedback(2.0, -1e6, 0.04, 1000, 0), 1.0);
        assert_eq!(window_after_feedback(2.0, 491_440.0, 0.04, 1000, 10), 10.0);
    }

    /// The receiver returns the sum of the feedback since its last ACK,
    /// once.
    #[test]
    fn receiver_returns_the_feedback_sum() {
        let mut r = XcpEnd::default();
        let d = |v| XcpHdr { kind: XcpKind::Enabled, delta_throughput: v, ..XcpHdr::default() };
        r.take_feedback(&d(100.0));
        r.take_feedback(&d(-30.0));
        r.take_feedback(&XcpHdr { delta_throughput: 5.0, ..XcpHdr::default() });
        let a = r.ack_header();
        assert_eq!((a.kind, a.reverse_feedback), (XcpKind::Ack, 70.0));
        assert_eq!(r.ack_header().reverse_feedback, 0.0);
    }
}
