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
//! ns-3.37's `TcpDctcp` computes alpha in floating point, on bytes
//! (`PktsAcked` with the segments acked), cuts to `cwnd * (1 - alpha/2)` in
//! bytes, and sends ECT(0) by default (`UseEct0`); this one sends ECT(0)
//! too.

use super::reno;
use super::{CaEvent, CaState, CongestionOps, Param, Sock, CA_ACK_ECE};

/// alpha's scale: 1024 is 1.
pub const MAX_ALPHA: u32 = 1024;

const SHIFT_G: usize = 0;
const ALPHA_ON_INIT: usize = 1;

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

    /// ns-3.37 tcp-dctcp-test.cc, "DCTCP decrement test": alpha on init 0;
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
}
