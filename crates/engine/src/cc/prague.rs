//! TCP Prague: the L4S scalable congestion control (RFC 9331's "Prague L4S
//! requirements", section 4.3; after Linux's out-of-tree `tcp_prague` of
//! the L4S team, simplified).  ns-2 2.35 has none.
//!
//! What it does here:
//!
//! * **ECT(1)** on its packets (`ECT1`), so an L4S queue (DualPI2) takes
//!   them; the receiver echoes CE exactly, as DCTCP's (the sender asks for
//!   it: `NEEDS_ECN`).  AccECN is not modelled: the echo is DCTCP's.
//! * **A scalable response**: alpha, the fraction of bytes marked, is an
//!   EWMA with g = 1/16 over each observation window (about one RTT, from
//!   one `snd_nxt` to the ACK covering it), as DCTCP's; on an ECN echo,
//!   once per window, the window becomes `cwnd * (1 - alpha / 2)`, kept
//!   with its fraction (tcp_prague keeps a fractional window too) so that
//!   small alphas still add up to cuts; at least 2.
//! * **Reno-like growth**: slow start as Reno's; in congestion avoidance
//!   one segment per window of bytes acknowledged, times the RTT-independence
//!   factor.
//! * **RTT independence** (optional, `rtt_scaling` 1; off by default): below
//!   `rtt_target_us` (25 ms, tcp_prague's target) the additive increase is
//!   scaled by (srtt / target)^2, so that the rate grows per unit of time as
//!   a flow of the target RTT's would, whatever the RTT (tcp_prague's
//!   "rate" RTT control).  Off by default: RFC 9332's coupling balances a
//!   Prague flow with a Reno-like classic flow of the same RTT when both
//!   grow by one segment per RTT, and tcp_prague's default scaling would
//!   slow a short-RTT Prague flow below such a classic flow.
//! * **Classic ECN fallback** (RFC 9331 section 4.3, item 3): a bottleneck
//!   that marks like an RFC 3168 AQM sits on a large queue, where an L4S
//!   queue keeps about 1 ms.  The flow estimates the queuing delay as the
//!   RTT less the smallest RTT seen, smoothed (gain 1/8); above
//!   `classic_qdelay_us` (5 ms) it takes the bottleneck for classic and
//!   answers an ECN echo as Reno does (halve), back to the scalable
//!   response once the estimate falls below half that.  This is a simple
//!   delay-based detector of our own, not tcp_prague's.
//! * A loss halves the window (Reno), as DCTCP's.
//!
//! Needs RTT samples (`rtt_sample`, in microseconds), so the sender keeps
//! send times.

use super::reno;
use super::{CaEvent, CaState, CongestionOps, Param, Sock, CA_ACK_ECE};

const SHIFT_G: usize = 0;
const RTT_SCALING: usize = 1;
const RTT_TARGET_US: usize = 2;
const CLASSIC_QDELAY_US: usize = 3;

#[derive(Clone, Debug, Default)]
pub struct Prague {
    /// The fraction of marked bytes (0..1).
    pub alpha: f64,
    prior_snd_una: u64,
    next_seq: u64,
    acked_bytes_total: u64,
    acked_bytes_ecn: u64,
    /// The window's fraction of a segment (cuts and scaled increases).
    pub frac: f64,
    /// Smoothed RTT (µs, gain 1/8; 0 before a sample) and the least seen.
    pub srtt_us: f64,
    pub min_rtt_us: f64,
    /// Smoothed queuing delay estimate (µs).
    pub qdelay_us: f64,
    /// The bottleneck is taken for a classic ECN AQM.
    pub classic: bool,
    loss_cwnd: u64,
}

impl Prague {
    fn reset(&mut self, sk: &Sock) {
        self.next_seq = sk.snd_nxt;
        self.acked_bytes_ecn = 0;
        self.acked_bytes_total = 0;
    }

    fn react_to_loss(&mut self, sk: &mut Sock) {
        self.loss_cwnd = sk.snd_cwnd;
        self.frac = 0.0;
        sk.snd_ssthresh = (sk.snd_cwnd >> 1).max(2);
    }

    /// The additive increase's factor: (srtt / target)^2 below the target
    /// with `rtt_scaling`, else 1.
    pub fn ai_factor(&self, sk: &Sock) -> f64 {
        let target = sk.p[RTT_TARGET_US] as f64;
        if sk.p[RTT_SCALING] == 0 || self.srtt_us <= 0.0 || target <= 0.0 || self.srtt_us >= target {
            1.0
        } else {
            let r = self.srtt_us / target;
            r * r
        }
    }
}

impl CongestionOps for Prague {
    const NAME: &'static str = "prague";
    const PARAMS: &'static [Param] = &[
        Param { name: "shift_g", default: 4, about: "alpha's EWMA gain g = 1/2^shift_g" },
        Param { name: "rtt_scaling", default: 0, about: "1: scale the additive increase by (srtt/rtt_target)^2 below the target" },
        Param { name: "rtt_target_us", default: 25_000, about: "the RTT independence target (us)" },
        Param { name: "classic_qdelay_us", default: 5_000, about: "queuing delay (us) above which the bottleneck is taken for classic ECN (0: never)" },
    ];
    const NEEDS_ECN: bool = true;
    const ECT1: bool = true;
    const HAS_RTT_SAMPLE: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.prior_snd_una = sk.snd_una;
        self.alpha = 1.0;
        self.frac = 0.0;
        self.classic = false;
        self.reset(sk);
    }

    /// Scalable: `(cwnd + frac) * (1 - alpha/2)`; classic: half.
    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        self.loss_cwnd = sk.snd_cwnd;
        if self.classic {
            self.frac = 0.0;
            return (sk.snd_cwnd >> 1).max(2);
        }
        let w = (sk.snd_cwnd as f64 + self.frac) * (1.0 - self.alpha / 2.0);
        if w <= 2.0 {
            self.frac = 0.0;
            return 2;
        }
        let whole = w.floor();
        self.frac = w - whole;
        whole as u64
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            reno::cong_avoid(sk, in_flight);
            return;
        }
        let wnd_bytes = (sk.snd_cwnd * sk.mss_cache).max(1) as f64;
        self.frac += self.ai_factor(sk) * sk.bytes_acked as f64 / wnd_bytes;
        sk.bytes_acked = 0;
        while self.frac >= 1.0 {
            self.frac -= 1.0;
            if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd += 1;
            }
        }
    }

    fn rtt_sample(&mut self, sk: &mut Sock, usrtt: u64) {
        let r = usrtt as f64;
        if r <= 0.0 {
            return;
        }
        if self.srtt_us == 0.0 {
            self.srtt_us = r;
            self.min_rtt_us = r;
        } else {
            self.srtt_us += (r - self.srtt_us) / 8.0;
            self.min_rtt_us = self.min_rtt_us.min(r);
        }
        self.qdelay_us += (r - self.min_rtt_us - self.qdelay_us) / 8.0;
        let th = sk.p[CLASSIC_QDELAY_US] as f64;
        if th > 0.0 {
            if !self.classic && self.qdelay_us > th {
                self.classic = true;
            } else if self.classic && self.qdelay_us < th / 2.0 {
                self.classic = false;
            }
        }
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
            let g = 1.0 / (1u64 << sk.p[SHIFT_G].clamp(0, 20)) as f64;
            let f = self.acked_bytes_ecn as f64 / self.acked_bytes_total.max(1) as f64;
            self.alpha = (1.0 - g) * self.alpha + g * f;
            self.reset(sk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sock(cwnd: u64) -> Sock {
        let mut sk = Sock { snd_cwnd: cwnd, snd_ssthresh: 2, mss_cache: 1000, snd_cwnd_clamp: 10_000, ..Default::default() };
        for (i, p) in Prague::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// alpha as DCTCP's, in floating point: from 1, a window with half its
    /// bytes marked gives 15/16 + 0.5/16 = 0.96875; then the cut of a
    /// window of 20: 20 * (1 - 0.484375) = 10.3125: 10, the 0.3125 kept;
    /// the next cut (alpha as it is) from 10 + 0.3125: 10.3125 * 0.515625
    /// = 5.3173828125: 5, the 0.3173828125 kept.
    #[test]
    fn scalable_cut_keeps_the_fraction() {
        let mut c = Prague::default();
        let mut sk = sock(20);
        sk.snd_nxt = 10_000;
        c.init(&mut sk);
        for i in 0..10 {
            sk.snd_una += 1000;
            c.in_ack_event(&mut sk, if i % 2 == 0 { CA_ACK_ECE } else { 0 });
        }
        assert_eq!(c.alpha, 0.96875);
        assert_eq!(c.ssthresh(&sk), 10);
        assert_eq!(c.frac, 0.3125);
        let sk = sock(10);
        assert_eq!(c.ssthresh(&sk), 5);
        assert_eq!(c.frac, 0.3173828125);
        // a small alpha: 0.01 on a window of 100 cuts 0.5 segment: 99 with
        // frac 0.5 kept (DCTCP's integer cut would leave 100)
        c.alpha = 0.01;
        c.frac = 0.0;
        assert_eq!(c.ssthresh(&sock(100)), 99);
        assert!((c.frac - 0.5).abs() < 1e-12);
    }

    /// Congestion avoidance: one segment per window of bytes acknowledged;
    /// with RTT scaling at srtt 10 ms (target 25 ms) the increase is
    /// (10/25)^2 = 0.16 of that: 100 segments' bytes on a window of 100
    /// add 0.16 segment.
    #[test]
    fn additive_increase_with_and_without_rtt_scaling() {
        let mut c = Prague::default();
        let mut sk = sock(100);
        c.init(&mut sk);
        sk.bytes_acked = 100_000;
        c.cong_avoid(&mut sk, 0, 0, 100, true);
        assert_eq!((sk.snd_cwnd, sk.bytes_acked), (101, 0));
        sk.p[RTT_SCALING] = 1;
        c.rtt_sample(&mut sk, 10_000);
        assert!((c.ai_factor(&sk) - 0.16).abs() < 1e-12);
        sk.snd_cwnd = 100;
        c.frac = 0.0;
        sk.bytes_acked = 100_000;
        c.cong_avoid(&mut sk, 0, 0, 100, true);
        assert_eq!(sk.snd_cwnd, 100);
        assert!((c.frac - 0.16).abs() < 1e-12);
        // at or above the target: factor 1
        c.srtt_us = 30_000.0;
        assert_eq!(c.ai_factor(&sk), 1.0);
    }

    /// The classic ECN fallback: RTT samples 10 ms then 30 ms: the
    /// queuing-delay estimate moves 1/8 of the way to 20 ms per sample:
    /// 2.5, 4.6875, 6.6 ms: classic at the third (> 5 ms), where an ECN
    /// echo halves the window whatever alpha; samples back at 10 ms bring
    /// it below 2.5 ms and the scalable response back.
    #[test]
    fn classic_ecn_fallback() {
        let mut c = Prague::default();
        let mut sk = sock(40);
        c.init(&mut sk);
        c.alpha = 0.1;
        c.rtt_sample(&mut sk, 10_000);
        assert_eq!((c.qdelay_us, c.classic), (0.0, false));
        c.rtt_sample(&mut sk, 30_000);
        assert_eq!(c.qdelay_us, 2_500.0);
        c.rtt_sample(&mut sk, 30_000);
        assert_eq!((c.qdelay_us, c.classic), (4_687.5, false));
        c.rtt_sample(&mut sk, 30_000);
        assert!(c.classic);
        assert_eq!(c.ssthresh(&sk), 20, "classic: half");
        for _ in 0..8 {
            c.rtt_sample(&mut sk, 10_000);
        }
        assert!(c.qdelay_us < 2_500.0 && !c.classic);
        // 40 * (1 - 0.05) = 38
        assert_eq!(c.ssthresh(&sk), 38);
    }

    /// A loss halves the window (Reno), and Prague's packets are ECT(1).
    #[test]
    fn loss_halves_and_packets_are_ect1() {
        let mut c = Prague::default();
        let mut sk = sock(30);
        c.init(&mut sk);
        c.set_state(&mut sk, CaState::Recovery);
        assert_eq!(sk.snd_ssthresh, 15);
        assert!(<Prague as CongestionOps>::ECT1 && <Prague as CongestionOps>::NEEDS_ECN);
        assert!(!<super::super::dctcp::Dctcp as CongestionOps>::ECT1);
    }
}
