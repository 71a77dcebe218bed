//! DCTCP, Data Center TCP (RFC 8257), as Linux's `tcp_dctcp` computes it
//! (net/ipv4/tcp_dctcp.c, Linux 4.x-6.x; ns-2 2.35 has no DCTCP).
//!
//! The sender keeps alpha, an estimate of the fraction of its bytes that
//! met congestion (RFC 8257 section 3.3): over each observation window
//! (from one `snd_nxt` until the ACK that covers it, about one RTT) it
//! counts the bytes acknowledged and those acknowledged by ACKs echoing CE
//! (ECE), then
//!
//! ```text
//!     alpha <- (1 - g) * alpha + g * F,    F = marked bytes / bytes,  g = 1/16
//! ```
//!
//! in Linux's fixed point: alpha in units of 1/1024, `alpha -= alpha >> 4`
//! (all of a small alpha, `min_not_zero`), `alpha += (marked << 6) / bytes`,
//! at most 1024.  On an ECN echo the window is cut once per window (the
//! sender's CWR state) to `cwnd - cwnd * alpha / 2` (`(cwnd * alpha) >> 11`
//! in units of 1/1024), at least 2; a loss halves it as Reno does (RFC 8257
//! section 3.4: `set_state(Recovery)` and a timeout set ssthresh to cwnd/2).
//! The window grows as Reno's.  alpha starts at 1 (`alpha_on_init` 1024:
//! the first mark halves the window, Linux's default).
//!
//! A DCTCP ACK that did not move `snd_una` counts one MSS (a duplicate
//! ACK), as Linux's.  The receiver's side (ECE set exactly while CE
//! arrives, RFC 8257 section 3.2) is the sink's (`sink/`): the sender
//! turns it on for an algorithm that `NEEDS_ECN`.
//!
//! ## The ns-3 dialect (the full TCP's `cc="dctcp"`)
//!
//! ns-3.37's `TcpDctcp` (tcp-dctcp.cc, a `TcpLinuxReno`), which the full
//! TCP runs with ns-3's `DctcpEcn` mode (`socket/ecn.rs`):
//!
//! * alpha in floating point, `alpha = (1 - g) alpha + g F` once per
//!   observation window, from `PktsAcked`: each call counts `segments *
//!   MSS` bytes, and as marked bytes when the sender's ECN state is
//!   `ECN_ECE_RCVD` (this ACK carried a new ECE); the window ends when the
//!   ACK reaches the `m_nextTxSequence` taken at its start (the first
//!   window starts at the first `PktsAcked`).
//! * `GetSsThresh` = `(1 - alpha/2) cwnd` in bytes, truncated, for an ECN
//!   echo (the socket's CWR, once per window) and for a loss alike: ns-3
//!   does not halve on loss as RFC 8257 section 3.4 and Linux do.
//! * The window grows as `TcpLinuxReno`: slow start by `segmentsAcked`
//!   MSS up to ssthresh (the rest dropped), congestion avoidance one MSS
//!   per window's worth of segments acked (`m_cWndCnt`).
//! * The receiver's CE state machine (RFC 8257 section 3.2 with delayed
//!   ACKs, `CeState0to1`/`CeState1to0`): when CE starts (stops) while an
//!   ACK is held back (the last event was `DelayedAck`), an ACK goes out
//!   at once without (with) ECE, so that ECE covers only segments of one
//!   CE state; CE stopping takes the receiver's ECN state to idle (no
//!   more ECE).  That ACK is for `m_priorRcvNxt`, the next expected byte
//!   at the previous ECN-capable segment's arrival: ns-3 raises the
//!   events before the segment is added (Linux after), so it acknowledges
//!   one segment less than the ACK held back, and repeats the last ACK
//!   sent, which the sender takes for a duplicate ACK (kept, as ns-3).
//! * Attributes: `shift_g` (ns-3's `DctcpShiftG`, which is g itself,
//!   0.0625 by default; here g = 1/2^shift_g, 4 by default, as Linux's
//!   parameter), `alpha_on_init` (`DctcpAlphaOnInit`, in 1/1024: 1024 is
//!   1.0) and `use_ect0` (`UseEct0`: 1 sends ECT(0), 0 ECT(1)).

use super::reno;
use super::{AckRequest, CaEvent, CaState, CongestionOps, Param, Sock, CA_ACK_ECE};

/// alpha's scale: 1024 is 1.
pub const MAX_ALPHA: u32 = 1024;

const SHIFT_G: usize = 0;
const ALPHA_ON_INIT: usize = 1;
/// The ns-3 dialect's third attribute.
pub const USE_ECT0: usize = 2;

#[derive(Clone, Debug, Default)]
pub struct Dctcp {
    /// The fraction of marked bytes, in 1/1024.
    pub alpha: u32,
    /// `snd_una` at the last ACK.
    prior_snd_una: u64,
    /// The end of the observation window.
    next_seq: u64,
    /// Bytes acknowledged in this window, and by ACKs echoing CE.
    acked_bytes_total: u64,
    acked_bytes_ecn: u64,
    /// The window before the last cut (`undo_cwnd`).
    loss_cwnd: u64,
    /// The ns-3 dialect's state.
    ns3: Ns3Dctcp,
}

/// ns-3.37's `TcpDctcp` members (its sender's and its receiver's), and
/// `TcpLinuxReno`'s `m_cWndCnt`.
#[derive(Clone, Debug, Default)]
pub struct Ns3Dctcp {
    /// alpha set from `alpha_on_init` (at the first hook: ns-3 sets it
    /// when the attribute is).
    pub started: bool,
    pub alpha: f64,
    pub acked_bytes_ecn: u64,
    pub acked_bytes_total: u64,
    pub next_seq: u64,
    pub next_seq_flag: bool,
    pub prior_rcv_nxt: u64,
    pub prior_rcv_nxt_flag: bool,
    pub ce_state: bool,
    pub delayed_ack_reserved: bool,
    pub cwnd_cnt: u32,
}

impl Ns3Dctcp {
    #[inline]
    fn start(&mut self, sk: &Sock) {
        if !self.started {
            self.started = true;
            self.alpha = sk.p[ALPHA_ON_INIT].clamp(0, MAX_ALPHA as i32) as f64 / MAX_ALPHA as f64;
        }
    }

    /// g = 1/2^shift_g.
    fn g(sk: &Sock) -> f64 {
        1.0 / (1u32 << sk.p[SHIFT_G].clamp(0, 30)) as f64
    }

    /// `Reset`: a new observation window from `m_nextTxSequence`.
    fn reset(&mut self, sk: &Sock) {
        self.next_seq = sk.snd_nxt;
        self.acked_bytes_ecn = 0;
        self.acked_bytes_total = 0;
    }

    /// `CeState0to1` / `CeState1to0`: the receiver's CE state becomes
    /// `ce`; the held-back ACK goes out first with the old state's ECE.
    fn ce_state(&mut self, sk: &mut Sock, ce: bool) {
        if self.ce_state != ce && self.delayed_ack_reserved && self.prior_rcv_nxt_flag {
            sk.ack_request = AckRequest::Ack { seq: self.prior_rcv_nxt, ece: !ce };
        }
        self.prior_rcv_nxt_flag = true;
        self.prior_rcv_nxt = sk.rcv_nxt;
        self.ce_state = ce;
        if !ce {
            sk.ecn_idle = true;
        }
    }
}

/// `min_not_zero`: the smaller of two, the other when one is 0.
fn min_not_zero(a: u32, b: u32) -> u32 {
    match (a, b) {
        (0, b) => b,
        (a, 0) => a,
        (a, b) => a.min(b),
    }
}

impl Dctcp {
    /// A new observation window from `snd_nxt`.
    fn reset(&mut self, sk: &Sock) {
        self.next_seq = sk.snd_nxt;
        self.acked_bytes_ecn = 0;
        self.acked_bytes_total = 0;
    }

    /// RFC 8257 section 3.4 (and Linux's `dctcp_react_to_loss`): a loss
    /// halves the window as Reno.
    fn react_to_loss(&mut self, sk: &mut Sock) {
        self.loss_cwnd = sk.snd_cwnd;
        sk.snd_ssthresh = (sk.snd_cwnd >> 1).max(2);
    }
}

impl CongestionOps for Dctcp {
    const NAME: &'static str = "dctcp";
    const PARAMS: &'static [Param] = &[
        Param { name: "shift_g", default: 4, about: "parameter g for updating dctcp_alpha (g = 1/2^shift_g)" },
        Param { name: "alpha_on_init", default: MAX_ALPHA as i32, about: "parameter for initial alpha value (1024 is 1)" },
    ];
    const NEEDS_ECN: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.prior_snd_una = sk.snd_una;
        self.alpha = (sk.p[ALPHA_ON_INIT].max(0) as u32).min(MAX_ALPHA);
        self.loss_cwnd = 0;
        self.reset(sk);
    }

    /// `dctcp_ssthresh`: cwnd less cwnd * alpha / 2, at least 2.
    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        self.loss_cwnd = sk.snd_cwnd;
        sk.snd_cwnd.saturating_sub((sk.snd_cwnd * self.alpha as u64) >> 11).max(2)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        reno::cong_avoid(sk, in_flight)
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Recovery && sk.ca_state != CaState::Recovery {
            self.react_to_loss(sk);
        }
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        if ev == CaEvent::Loss {
            self.react_to_loss(sk);
        }
    }

    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        sk.snd_cwnd.max(self.loss_cwnd)
    }

    const NS3_NATIVE: bool = true;
    const NS3_ACK_EVENTS: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "shift_g", default: 4, about: "g = 1/2^shift_g for updating alpha [DctcpShiftG = 0.0625]" },
        Param { name: "alpha_on_init", default: MAX_ALPHA as i32, about: "Initial alpha value, 1024 is 1 [DctcpAlphaOnInit]" },
        Param { name: "use_ect0", default: 1, about: "Use ECT(0) for ECN codepoint, if 0 use ECT(1) [UseEct0]" },
    ];

    fn ns3_init(&mut self, sk: &mut Sock) {
        self.ns3.start(sk);
    }

    /// `TcpDctcp::GetSsThresh`: `(1 - alpha/2) cwnd`, whatever the cause.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, _bytes_in_flight: u32) -> u32 {
        self.ns3.start(sk);
        ((1.0 - self.ns3.alpha / 2.0) * sk.cwnd_bytes as f64) as u32
    }

    /// `TcpLinuxReno::IncreaseWindow`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let m = sk.mss_cache as u32;
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            if segments_acked >= 1 {
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(segments_acked.wrapping_mul(m)).min(sk.ssthresh_bytes);
            }
        } else {
            let w = (sk.cwnd_bytes / m.max(1)).max(1);
            let cnt = &mut self.ns3.cwnd_cnt;
            if *cnt >= w {
                *cnt = 0;
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(m);
            }
            *cnt += segments_acked;
            if *cnt >= w {
                let delta = *cnt / w;
                *cnt -= delta * w;
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(delta * m);
            }
        }
    }

    /// `TcpDctcp::PktsAcked`: count the bytes, update alpha at the end of
    /// the observation window.
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, segments_acked: u32, _rtt_ns: i64) {
        let d = &mut self.ns3;
        d.start(sk);
        let bytes = segments_acked as u64 * sk.mss_cache;
        d.acked_bytes_total += bytes;
        if sk.ece_rcvd {
            d.acked_bytes_ecn += bytes;
        }
        if !d.next_seq_flag {
            d.next_seq = sk.snd_nxt;
            d.next_seq_flag = true;
        }
        if sk.snd_una >= d.next_seq {
            let f = if d.acked_bytes_total > 0 { d.acked_bytes_ecn as f64 / d.acked_bytes_total as f64 } else { 0.0 };
            let g = Ns3Dctcp::g(sk);
            d.alpha = (1.0 - g) * d.alpha + g * f;
            d.reset(sk);
        }
    }

    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}

    /// `TcpDctcp::CwndEvent`: the receiver's CE state machine.
    fn ns3_cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        match ev {
            CaEvent::EcnIsCe => self.ns3.ce_state(sk, true),
            CaEvent::EcnNoCe => self.ns3.ce_state(sk, false),
            CaEvent::DelayedAck => self.ns3.delayed_ack_reserved = true,
            CaEvent::NonDelayedAck => self.ns3.delayed_ack_reserved = false,
            _ => {}
        }
    }

    /// `dctcp_update_alpha`.
    fn in_ack_event(&mut self, sk: &mut Sock, flags: u32) {
        let mut acked = sk.snd_una.wrapping_sub(self.prior_snd_una);
        if acked == 0 {
            acked = sk.mss_cache;
        }
        if flags & CA_ACK_ECE != 0 {
            self.acked_bytes_ecn += acked;
        }
        self.acked_bytes_total += acked;
        self.prior_snd_una = sk.snd_una;
        if sk.snd_una >= self.next_seq {
            let g = sk.p[SHIFT_G].clamp(0, 10) as u32;
            let mut alpha = self.alpha;
            alpha -= min_not_zero(alpha, alpha >> g);
            if self.acked_bytes_ecn > 0 {
                let f = (self.acked_bytes_ecn << (10 - g)) / self.acked_bytes_total.max(1);
                alpha = (alpha as u64 + f).min(MAX_ALPHA as u64) as u32;
            }
            self.alpha = alpha;
            self.reset(sk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::reno::Reno;

    fn sock(cwnd: u64) -> Sock {
        let mut sk = Sock { snd_cwnd: cwnd, snd_ssthresh: 1000, mss_cache: 1000, snd_cwnd_clamp: 10_000, ..Default::default() };
        sk.p[SHIFT_G] = 4;
        sk.p[ALPHA_ON_INIT] = 1024;
        sk
    }

    /// One observation window: `n` ACKs of one segment each, the first
    /// `marked` of them echoing CE, the last one reaching `next_seq`.
    fn window(d: &mut Dctcp, sk: &mut Sock, n: u64, marked: u64) {
        for i in 0..n {
            sk.snd_una += sk.mss_cache;
            d.in_ack_event(sk, if i < marked { CA_ACK_ECE } else { 0 });
        }
    }

    /// alpha's EWMA with g = 1/16 (RFC 8257 section 3.3), in Linux's
    /// 1/1024 units.  alpha starts at 1024.  A window of 10 segments with 5
    /// marked: F = 0.5, alpha = 1024 - 1024/16 + (5000 << 6) / 10000 = 960
    /// + 32 = 992 (= 15/16 + 0.5/16 = 0.96875).  The next, unmarked: 992 -
    /// 992 >> 4 = 992 - 62 = 930.  Then a window all marked: 930 - 58 + 64
    /// = 936.
    #[test]
    fn alpha_is_an_ewma_of_the_marked_fraction() {
        let mut d = Dctcp::default();
        let mut sk = sock(10);
        sk.snd_nxt = 10_000;
        d.init(&mut sk);
        assert_eq!(d.alpha, 1024);
        window(&mut d, &mut sk, 10, 5);
        assert_eq!(d.alpha, 992);
        sk.snd_nxt = 20_000;
        // the update took next_seq = snd_nxt at its time (10000): the next
        // ACK closes a window at once; give the window its own end
        d.next_seq = 20_000;
        window(&mut d, &mut sk, 10, 0);
        assert_eq!(d.alpha, 930);
        d.next_seq = 30_000;
        window(&mut d, &mut sk, 10, 10);
        assert_eq!(d.alpha, 936);
        // No update before the window's end: 9 of 10 ACKs change nothing.
        d.next_seq = 40_000;
        window(&mut d, &mut sk, 9, 9);
        assert_eq!(d.alpha, 936);
    }

    /// A small alpha decays to 0 (`min_not_zero`: 15 >> 4 is 0, so all of
    /// it goes), and a duplicate ACK counts one MSS.
    #[test]
    fn small_alpha_decays_to_zero_and_dupacks_count_one_mss() {
        let mut d = Dctcp::default();
        let mut sk = sock(10);
        sk.p[ALPHA_ON_INIT] = 15;
        d.init(&mut sk);
        assert_eq!(d.alpha, 15);
        sk.snd_una = 1000;
        d.in_ack_event(&mut sk, 0);
        assert_eq!(d.alpha, 0);
        // dupack (snd_una unchanged) with ECE, next_seq ahead: 1000 bytes
        d.next_seq = 5000;
        d.in_ack_event(&mut sk, CA_ACK_ECE);
        assert_eq!((d.acked_bytes_ecn, d.acked_bytes_total), (1000, 1000));
    }

    /// The cut: cwnd - (cwnd * alpha) >> 11.  alpha 992, cwnd 20: 19840 >>
    /// 11 = 9: 11 (20 * (1 - 0.484) = 10.3 before Linux's truncation of
    /// the decrement).  alpha 1024 halves; at least 2.
    #[test]
    fn ssthresh_cuts_by_half_of_alpha() {
        let mut d = Dctcp { alpha: 992, ..Default::default() };
        let sk = sock(20);
        assert_eq!(d.ssthresh(&sk), 11);
        d.alpha = 1024;
        assert_eq!(d.ssthresh(&sock(20)), 10);
        assert_eq!(d.ssthresh(&sock(3)), 2);
        d.alpha = 0;
        assert_eq!(d.ssthresh(&sock(20)), 20, "no marks, no cut");
    }

    /// A loss halves the window whatever alpha (RFC 8257 section 3.4):
    /// entering Recovery (after `ssthresh`, as Linux orders it) or a
    /// timeout sets ssthresh to cwnd/2.
    #[test]
    fn loss_halves_as_reno() {
        let mut d = Dctcp { alpha: 64, ..Default::default() };
        let mut sk = sock(40);
        sk.snd_ssthresh = d.ssthresh(&sk);
        assert_eq!(sk.snd_ssthresh, 39, "40 - (40 * 64) >> 11 = 40 - 1");
        d.set_state(&mut sk, CaState::Recovery);
        assert_eq!(sk.snd_ssthresh, 20);
        let mut sk = sock(9);
        d.cwnd_event(&mut sk, CaEvent::Loss);
        assert_eq!(sk.snd_ssthresh, 4);
        assert_eq!(d.undo_cwnd(&sock(5)), 9);
    }

    /// ns-3.37 tcp-dctcp-test.cc, "DCTCP falls to New Reno for slowstart":
    /// cwnd 2, ssthresh 4, an ACK of 2 segments: DCTCP's window is
    /// Reno's.  ns-3's NewReno grows by the segments acked, to 4; Linux
    /// 2.6's slow start grows by one per ACK here: with `abc` 1, cnt = cwnd
    /// = 2 wraps cwnd_cnt once (3); with `abc` 2 and two segments' bytes,
    /// cnt = 4 wraps it once at 2 and leaves 2 < 3: 3 as well.
    #[test]
    fn ns3_slow_start_is_reno() {
        for abc in [1, 2] {
            let (mut d, mut r) = (Dctcp::default(), Reno);
            let mut a = sock(2);
            a.snd_ssthresh = 4;
            a.abc = abc;
            a.bytes_acked = 2000;
            let mut b = a.clone();
            d.cong_avoid(&mut a, 0, 0, 2, true);
            r.cong_avoid(&mut b, 0, 0, 2, true);
            assert_eq!((a.snd_cwnd, a.snd_cwnd_cnt), (b.snd_cwnd, b.snd_cwnd_cnt));
            assert_eq!(a.snd_cwnd, 3);
        }
    }

    /// A decrement worked out as ns-3.37's TcpDctcp computes one (its test
    /// suite, tcp-dctcp-test.cc, has no such case): alpha on init 0;
    /// a window of 2 unmarked segments leaves alpha 0 and the cut nothing;
    /// a window of 2 marked segments gives alpha = g = 1/16 (64/1024), and
    /// the cut cwnd * (1 - 0.0625/2).  ns-3's cwnd is 4 segments in bytes
    /// (5784 -> 5603); in segments the same cut needs a window of 64: 64 -
    /// (64 * 64) >> 11 = 62 = 64 * 0.96875.
    #[test]
    fn ns3_decrement() {
        let mut d = Dctcp::default();
        let mut sk = sock(64);
        sk.p[ALPHA_ON_INIT] = 0;
        d.init(&mut sk);
        window(&mut d, &mut sk, 2, 0);
        assert_eq!(d.alpha, 0);
        assert_eq!(d.ssthresh(&sk), 64);
        d.next_seq = sk.snd_una + 2000;
        window(&mut d, &mut sk, 2, 2);
        assert_eq!(d.alpha, 64);
        assert_eq!(d.ssthresh(&sk), 62);
        assert_eq!(62.0, 64.0 * (1.0 - 0.0625 / 2.0));
    }

    // ---- the ns-3 dialect (ns-3.37's TcpDctcp)

    fn ns3_sock(cwnd: u32, ssthresh: u32, mss: u32) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: mss as u64, ..Default::default() };
        for (i, p) in Dctcp::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// ns-3.37 tcp-dctcp-test.cc, "DCTCP falls to New Reno for
    /// slowstart": cwnd 2 x 1446, ssthresh 4 x 1446, an ACK of 2 segments:
    /// TcpLinuxReno's slow start, 2 x 1446 + 2 x 1446 = 5784 (capped at
    /// ssthresh, which it reaches).  Congestion avoidance is TcpLinuxReno's
    /// too: one MSS per cwnd/MSS segments acked (w = 4: the 4th segment
    /// adds 1446, the count restarts).
    #[test]
    fn ns3_falls_to_linux_reno() {
        let mut d = Dctcp::default();
        let mut sk = ns3_sock(2 * 1446, 4 * 1446, 1446);
        sk.snd_nxt = 4753;
        sk.snd_una = 3216;
        d.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 4 * 1446);
        // past ssthresh the rest of the ACK is dropped: 3 segments from
        // 3 x 1446 reach only 4 x 1446
        let mut sk = ns3_sock(3 * 1446, 4 * 1446, 1446);
        d.ns3_increase_window(&mut sk, 3);
        assert_eq!(sk.cwnd_bytes, 4 * 1446);
        let mut sk = ns3_sock(4 * 1446, 4 * 1446, 1446);
        for (acked, want) in [(1, 4), (1, 4), (1, 4), (1, 5), (1, 5)] {
            d.ns3_increase_window(&mut sk, acked);
            assert_eq!(sk.cwnd_bytes, want * 1446, "cnt {}", d.ns3.cwnd_cnt);
        }
    }

    /// `PktsAcked`: alpha = (1 - g) alpha + g F once per observation
    /// window (RFC 8257 section 3.3, in floating point as ns-3 has it).
    /// alpha on init 1, g 1/16.  The first call opens a window to
    /// m_nextTxSequence 10 x 1000; 10 ACKs of one segment, the first 5
    /// with ECN_ECE_RCVD: F = 0.5, alpha = 15/16 + 0.5/16 = 0.96875.  The
    /// next window (to 20000) unmarked: alpha = 0.96875 x 15/16 =
    /// 0.908203125.  Then `GetSsThresh` = (1 - alpha/2) cwnd, truncated:
    /// 0.5458984375 x 20000 = 10917.96875 -> 10917.
    #[test]
    fn ns3_alpha_and_the_cut() {
        let mut d = Dctcp::default();
        let mut sk = ns3_sock(20_000, u32::MAX, 1000);
        sk.snd_nxt = 10_000;
        for i in 0..10 {
            sk.snd_una += 1000;
            sk.ece_rcvd = i < 5;
            d.ns3_pkts_acked(&mut sk, 1, 0);
            if i < 9 {
                assert_eq!(d.ns3.alpha, 1.0, "no update before the window's end");
            }
        }
        assert_eq!(d.ns3.alpha, 0.96875);
        assert_eq!(d.ns3.next_seq, 10_000, "reset to m_nextTxSequence at the update");
        sk.snd_nxt = 20_000;
        // the next ACK ends the window at once (next_seq 10000 <= 11000),
        // with 1 segment unmarked: F = 0
        sk.snd_una = 11_000;
        sk.ece_rcvd = false;
        d.ns3_pkts_acked(&mut sk, 1, 0);
        assert_eq!(d.ns3.alpha, 0.96875 * 15.0 / 16.0);
        assert_eq!(d.ns3_ssthresh(&mut sk, 0), 10_917);
        // with alpha 1 the cut halves; with alpha 0 it is none (a loss
        // too: ns-3's DCTCP has one GetSsThresh)
        d.ns3.alpha = 1.0;
        assert_eq!(d.ns3_ssthresh(&mut sk, 0), 10_000);
        d.ns3.alpha = 0.0;
        assert_eq!(d.ns3_ssthresh(&mut sk, 0), 20_000);
    }

    /// The attributes: alpha_on_init 0 (DctcpAlphaOnInit 0) and shift_g 1
    /// (g = 1/2): a fully marked window gives alpha 0.5.
    #[test]
    fn ns3_attributes() {
        let mut d = Dctcp::default();
        let mut sk = ns3_sock(20_000, u32::MAX, 1000);
        sk.p[ALPHA_ON_INIT] = 0;
        sk.p[SHIFT_G] = 1;
        sk.snd_nxt = 2000;
        sk.ece_rcvd = true;
        d.ns3_init(&mut sk);
        assert_eq!(d.ns3.alpha, 0.0);
        sk.snd_una = 2000;
        d.ns3_pkts_acked(&mut sk, 2, 0);
        assert_eq!(d.ns3.alpha, 0.5);
        assert_eq!(d.ns3_ssthresh(&mut sk, 0), 15_000);
    }

    /// The receiver's CE state machine (`CeState0to1`, `CeState1to0`):
    /// with delayed ACKs, a change of CE state while an ACK is held back
    /// (`DelayedAck` last) sends an ACK for the data before this segment
    /// at once, echoing the old state; without one held back, nothing.
    /// CE stopping ends the echo (ECN state to idle), CWR or not.
    #[test]
    fn ns3_receiver_ce_state_machine() {
        let mut d = Dctcp::default();
        let mut sk = ns3_sock(0, 0, 1000);
        let ev = |d: &mut Dctcp, sk: &mut Sock, e: CaEvent, rcv_nxt: u64| {
            sk.rcv_nxt = rcv_nxt;
            sk.ack_request = AckRequest::None;
            sk.ecn_idle = false;
            d.ns3_cwnd_event(sk, e);
            (sk.ack_request, sk.ecn_idle)
        };
        // segment 1 (ECT, no CE) at rcv_nxt 1: the first, nothing to send
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnNoCe, 1), (AckRequest::None, true));
        ev(&mut d, &mut sk, CaEvent::DelayedAck, 1001);
        // segment 2 CE while segment 1's ACK is held: ACK 1001 without ECE
        // (for the rcv_nxt of the last event, before segment 1: ns-3 raises
        // the events before the segment is added)
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnIsCe, 1001), (AckRequest::Ack { seq: 1, ece: false }, false));
        assert!(d.ns3.ce_state);
        // (the socket's SendEmptyPacket cancels the delayed ACK; the
        // segment's own ACK waits) segment 3 CE: no change, nothing
        ev(&mut d, &mut sk, CaEvent::DelayedAck, 2001);
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnIsCe, 2001), (AckRequest::None, false));
        // its ACK goes out (NonDelayedAck); segment 4 unmarked, none held:
        // the state changes, no ACK, the echo stops
        ev(&mut d, &mut sk, CaEvent::NonDelayedAck, 3001);
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnNoCe, 3001), (AckRequest::None, true));
        // segment 5 CE while 4's ACK is held: ACK 3001 without ECE; segment
        // 6 unmarked while 5's is held: ACK 4001 with ECE
        ev(&mut d, &mut sk, CaEvent::DelayedAck, 4001);
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnIsCe, 4001).0, AckRequest::Ack { seq: 3001, ece: false });
        ev(&mut d, &mut sk, CaEvent::DelayedAck, 5001);
        assert_eq!(ev(&mut d, &mut sk, CaEvent::EcnNoCe, 5001), (AckRequest::Ack { seq: 4001, ece: true }, true));
        // other events change nothing
        let before = d.ns3.clone();
        assert_eq!(ev(&mut d, &mut sk, CaEvent::TxStart, 6001), (AckRequest::None, false));
        assert_eq!(format!("{:?}", d.ns3), format!("{before:?}"));
    }
}
