//! BIC (Xu, Harfoush, Rhee, "Binary Increase Congestion Control for Fast,
//! Long Distance Networks", INFOCOM 2004), as Linux 2.6.2x's tcp_bic.c
//! (ns-2's copy tcp/linux/src/tcp_bic.c): below the window of the last
//! loss a binary search towards it (at most `max_increment` segments per
//! RTT), above it a slow, then linear, probe; `beta`/1024 kept at a loss,
//! fast convergence; Reno below `low_window`.  ACKs are counted with the
//! delayed-ACK ratio estimate (`delayed_ack`, `pkts_acked`).
//!
//! The ns-3 dialect is ns-3.37's TcpBic (tcp-bic.cc), which differs: no
//! delayed-ACK ratio (cnt is used as is: one MSS when more than cnt
//! segments were acknowledged since the last increase, the counter then
//! cleared), beta 0.8 as a double (Linux 819/1024), smooth part 5 (Linux
//! 20), the binary search's distance an integer ((Wmax - w) / 4 in
//! integers, then a double), and its loss response: ssthresh = max(2,
//! 0.8 w) MSS, or below `LowWnd` NewReno's half the flight (Linux's
//! `min_cwnd`-free ssthresh in segments).  Slow start adds one MSS for an
//! ACK of any size.  Attributes `fast_convergence`, `beta_pct` (80),
//! `max_incr`, `low_wnd`, `smooth_part`, `b` (BinarySearchCoefficient).

use super::{CaEvent, CaState, CongestionOps, Param, Sock, HZ};

pub const BETA_SCALE: u64 = 1024;
/// `BICTCP_B`: the binary search's divisor.
pub const B: u64 = 4;
pub const ACK_RATIO_SHIFT: u32 = 4;

pub const FAST_CONVERGENCE: usize = 0;
pub const MAX_INCREMENT: usize = 1;
pub const LOW_WINDOW: usize = 2;
pub const BETA: usize = 3;
pub const INITIAL_SSTHRESH: usize = 4;
pub const SMOOTH_PART: usize = 5;

#[derive(Clone, Debug, Default)]
pub struct Bic {
    /// ACKs per one-segment increase.
    pub cnt: u64,
    pub last_max_cwnd: u64,
    pub loss_cwnd: u64,
    pub last_cwnd: u64,
    pub last_time: u64,
    pub epoch_start: u64,
    /// The estimated ACK ratio, << ACK_RATIO_SHIFT.
    pub delayed_ack: u64,
    /// The ns-3 dialect's `m_cWndCnt` and `m_lastMaxCwnd` (segments).
    pub ns3_cwnd_cnt: u32,
    pub ns3_last_max: u32,
}

pub const NS3_FAST_CONVERGENCE: usize = 0;
pub const NS3_BETA: usize = 1;
pub const NS3_MAX_INCR: usize = 2;
pub const NS3_LOW_WND: usize = 3;
pub const NS3_SMOOTH_PART: usize = 4;
pub const NS3_B: usize = 5;

impl Bic {
    /// ns-3.37's `TcpBic::Update`: segments to acknowledge per one-MSS
    /// increase.
    fn ns3_update(&mut self, sk: &Sock) -> u32 {
        let seg = sk.cwnd_segments();
        let (max_incr, low, smooth, b) = (sk.p[NS3_MAX_INCR] as u32, sk.p[NS3_LOW_WND] as u32, sk.p[NS3_SMOOTH_PART] as u32, sk.p[NS3_B] as u8 as u32);
        let last = self.ns3_last_max;
        if seg < low {
            return seg;
        }
        let mut cnt = if seg < last {
            let dist = ((last - seg) / b) as f64;
            if dist > max_incr as f64 {
                seg / max_incr
            } else if dist <= 1.0 {
                seg.wrapping_mul(smooth) / b
            } else {
                (seg as f64 / dist) as u32
            }
        } else if seg < last.wrapping_add(b) {
            seg.wrapping_mul(smooth) / b
        } else if seg < last.wrapping_add(max_incr.wrapping_mul(b - 1)) {
            seg.wrapping_mul(b - 1) / (seg - last)
        } else {
            seg / max_incr
        };
        if last == 0 && cnt > 20 {
            cnt = 20;
        }
        cnt.max(1)
    }
}

impl Bic {
    fn reset(&mut self) {
        *self = Bic { delayed_ack: 2 << ACK_RATIO_SHIFT, ..Bic::default() };
    }

    /// `bictcp_update`: ACKs per segment for the window `cwnd`.
    fn update(&mut self, sk: &Sock, cwnd: u64) {
        let p = &sk.p;
        let now = sk.now_jiffies;
        if self.last_cwnd == cwnd && (now.wrapping_sub(self.last_time) as i64) <= (HZ / 32) as i64 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start == 0 {
            self.epoch_start = now;
        }
        if cwnd <= p[LOW_WINDOW] as i64 as u64 {
            self.cnt = cwnd;
            return;
        }
        let max_increment = p[MAX_INCREMENT] as i64 as u64;
        let smooth_part = p[SMOOTH_PART] as i64 as u64;
        if cwnd < self.last_max_cwnd {
            let dist = (self.last_max_cwnd - cwnd) / B;
            if dist > max_increment {
                self.cnt = cwnd.checked_div(max_increment).unwrap_or(0);
            } else if dist <= 1 {
                self.cnt = cwnd.wrapping_mul(smooth_part) / B;
            } else {
                self.cnt = cwnd / dist;
            }
        } else if cwnd < self.last_max_cwnd + B {
            self.cnt = cwnd.wrapping_mul(smooth_part) / B;
        } else if cwnd < self.last_max_cwnd.wrapping_add(max_increment.wrapping_mul(B - 1)) {
            self.cnt = (cwnd * (B - 1)) / (cwnd - self.last_max_cwnd);
        } else {
            self.cnt = cwnd.checked_div(max_increment).unwrap_or(0);
        }
        if self.loss_cwnd == 0 && self.cnt > 20 {
            self.cnt = 20;
        }
        self.cnt = (self.cnt << ACK_RATIO_SHIFT).checked_div(self.delayed_ack).unwrap_or(0);
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }
}

impl CongestionOps for Bic {
    const NAME: &'static str = "bic";
    const PARAMS: &'static [Param] = &[
        Param { name: "fast_convergence", default: 1, about: "turn on/off fast convergence" },
        Param { name: "max_increment", default: 16, about: "Limit on increment allowed during binary search" },
        Param { name: "low_window", default: 14, about: "lower bound on congestion window (for TCP friendliness)" },
        Param { name: "beta", default: 819, about: "beta for multiplicative increase" },
        Param { name: "initial_ssthresh", default: 0, about: "initial value of slow start threshold" },
        Param { name: "smooth_part", default: 20, about: "log(B/(B*Smin))/log(B/(B-1))+B, # of RTT from Wmax-B to Wmax" },
    ];
    const NS3_NATIVE: bool = true;
    const NS3_PKTS_ACKED: bool = false;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "fast_convergence", default: 1, about: "Turn on/off fast convergence [FastConvergence]" },
        Param { name: "beta_pct", default: 80, about: "Beta for multiplicative decrease, % [Beta]" },
        Param { name: "max_incr", default: 16, about: "Limit on increment allowed during binary search [MaxIncr]" },
        Param { name: "low_wnd", default: 14, about: "Threshold window size (in segments) for engaging BIC response [LowWnd]" },
        Param { name: "smooth_part", default: 5, about: "Number of RTT needed to approach cWnd_max from cWnd_max-B [SmoothPart]" },
        Param { name: "b", default: 4, about: "Inverse of the coefficient for the binary search [BinarySearchCoefficient]" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    /// `TcpBic::GetSsThresh`.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        let seg = sk.cwnd_segments();
        let m = sk.mss_cache as u32;
        let beta = sk.p[NS3_BETA] as f64 / 100.0;
        self.ns3_last_max = if seg < self.ns3_last_max && sk.p[NS3_FAST_CONVERGENCE] != 0 { (beta * seg as f64) as u32 } else { seg };
        if seg < sk.p[NS3_LOW_WND] as u32 {
            (2 * m).max(bytes_in_flight / 2)
        } else {
            ((seg as f64 * beta).max(2.0) * m as f64) as u32
        }
    }
    /// `TcpBic::IncreaseWindow`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, mut segments_acked: u32) {
        let m = sk.mss_cache as u32;
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(m);
            segments_acked = segments_acked.wrapping_sub(1);
        }
        if sk.cwnd_bytes >= sk.ssthresh_bytes && segments_acked > 0 {
            self.ns3_cwnd_cnt = self.ns3_cwnd_cnt.wrapping_add(segments_acked);
            let cnt = self.ns3_update(sk);
            if self.ns3_cwnd_cnt > cnt {
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(m);
                self.ns3_cwnd_cnt = 0;
            }
        }
    }
    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, _rtt_ns: i64) {}
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn init(&mut self, sk: &mut Sock) {
        self.reset();
        if sk.p[INITIAL_SSTHRESH] != 0 {
            sk.snd_ssthresh = sk.p[INITIAL_SSTHRESH] as i64 as u64;
        }
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        } else {
            self.update(sk, sk.snd_cwnd);
            if sk.snd_cwnd_cnt as u64 >= self.cnt {
                if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd += 1;
                }
                sk.snd_cwnd_cnt = 0;
            } else {
                sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(1);
            }
        }
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        let beta = sk.p[BETA] as i64 as u64;
        self.epoch_start = 0;
        if sk.snd_cwnd < self.last_max_cwnd && sk.p[FAST_CONVERGENCE] != 0 {
            self.last_max_cwnd = sk.snd_cwnd.wrapping_mul(BETA_SCALE.wrapping_add(beta)) / (2 * BETA_SCALE);
        } else {
            self.last_max_cwnd = sk.snd_cwnd;
        }
        self.loss_cwnd = sk.snd_cwnd;
        if sk.snd_cwnd <= sk.p[LOW_WINDOW] as i64 as u64 {
            (sk.snd_cwnd >> 1).max(2)
        } else {
            (sk.snd_cwnd.wrapping_mul(beta) / BETA_SCALE).max(2)
        }
    }

    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        sk.snd_cwnd.max(self.last_max_cwnd)
    }

    fn set_state(&mut self, _sk: &mut Sock, new: CaState) {
        if new == CaState::Loss {
            self.reset();
        }
    }

    fn pkts_acked(&mut self, sk: &mut Sock, cnt: u64, _last: i64) {
        if cnt > 0 && sk.ca_state == CaState::Open {
            let cnt = cnt.wrapping_sub(self.delayed_ack >> ACK_RATIO_SHIFT);
            self.delayed_ack = self.delayed_ack.wrapping_add(cnt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sock(cwnd: u64) -> Sock {
        let mut sk = Sock { snd_cwnd: cwnd, snd_ssthresh: 2, snd_cwnd_clamp: 100_000, ..Default::default() };
        for (i, p) in Bic::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// A loss at cwnd 100 (first loss: no fast convergence) keeps
    /// 100*819/1024 = 79 and remembers Wmax 100; at 40 below Wmax 100 the
    /// second loss remembers 40*(1024+819)/2048 = 35.  Then at cwnd 80,
    /// 20 below Wmax 100: dist 20/4 = 5, cnt = 80/5 = 16 ACKs per segment,
    /// times 16 / delayed_ack (2<<4 = 32): 8.
    #[test]
    fn binary_search_towards_last_max() {
        let mut c = Bic::default();
        let mut sk = sock(100);
        c.init(&mut sk);
        assert_eq!(c.ssthresh(&sk), 79);
        assert_eq!(c.last_max_cwnd, 100);
        sk.snd_cwnd = 40;
        c.ssthresh(&sk);
        assert_eq!(c.last_max_cwnd, 35);
        c.last_max_cwnd = 100;
        sk.snd_cwnd = 80;
        sk.now_jiffies = 1000;
        c.cong_avoid(&mut sk, 0, 0, 80, true);
        assert_eq!(c.cnt, 8);
        // Small windows (<= low_window 14) are Reno's: cnt = cwnd, halving.
        sk.snd_cwnd = 10;
        sk.now_jiffies = 2000;
        c.cong_avoid(&mut sk, 0, 0, 10, true);
        assert_eq!(c.cnt, 10);
        assert_eq!(c.ssthresh(&sk), 5);
    }

    fn ns3_sock(cwnd: u32, mss: u32, ssthresh: u32) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: mss as u64, ..Default::default() };
        for (i, p) in Bic::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// ns-3.37's tcp-bic-test.cc.  TcpBicIncrementTest: IncreaseWindow(n)
    /// above ssthresh with Wmax set; one MSS more iff n > cnt, cnt worked
    /// out as its Update does (LowWnd 14, B 4, MaxIncr 16, SmoothPart 5):
    /// * 10 segments (< 14): cnt 10: 11 ACKs grow, 8 do not;
    /// * 18, Wmax 90: distance 72 / 4 = 18 > 16: cnt 18 / 16 = 1: 5 grow;
    /// * 18, Wmax 20: distance 0 <= 1: cnt 18 x 5 / 4 = 22: 24 grow;
    /// * 19 of 1 byte, Wmax 83: distance 16: cnt 19 / 16.0 -> 1: 2 grow;
    /// * 15, Wmax 13 (< Wmax + 4): cnt 15 x 5 / 4 = 18: 19 grow;
    /// * 22, Wmax 16 (< 16 + 16 x 3): cnt 22 x 3 / 6 = 11: 9 do not;
    /// * 65, Wmax 16 (linear): cnt 65 / 16 = 4: 2 do not.
    /// TcpBicDecrementTest (GetSsThresh with flight = cwnd):
    /// * 5 x 1446, Wmax 10, fast convergence: Wmax (uint)(0.8 x 5) = 4,
    ///   ssthresh (< LowWnd) max(2892, 7230 / 2) = 3615; without: Wmax 5;
    /// * 15 x 1446, Wmax 10, no fast convergence: Wmax 15, ssthresh 12 x
    ///   1446 = 17352.
    #[test]
    fn ns3_bic_test_suite() {
        for (seg, mss, ss, n, wmax, grows) in [
            (10u32, 536u32, 9u32, 11u32, 0u32, true),
            (10, 536, 9, 8, 0, false),
            (18, 1446, 15, 5, 90, true),
            (18, 1446, 15, 24, 20, true),
            (19, 1, 17, 2, 83, true),
            (15, 536, 9, 19, 13, true),
            (22, 1000, 9, 9, 16, false),
            (65, 1000, 9, 2, 16, false),
        ] {
            let mut c = Bic { ns3_last_max: wmax, ..Default::default() };
            let mut sk = ns3_sock(seg * mss, mss, ss * mss);
            c.ns3_increase_window(&mut sk, n);
            assert_eq!(sk.cwnd_bytes, (seg + grows as u32) * mss, "{seg} segments, {n} acked, Wmax {wmax}");
        }
        for (seg, fc, want_ss, want_max) in [(5u32, 1, 3615u32, 4u32), (5, 0, 3615, 5), (15, 0, 17352, 15)] {
            let mut c = Bic { ns3_last_max: 10, ..Default::default() };
            let mut sk = ns3_sock(seg * 1446, 1446, 0);
            sk.p[NS3_FAST_CONVERGENCE] = fc;
            assert_eq!(c.ns3_ssthresh(&mut sk, seg * 1446), want_ss);
            assert_eq!(c.ns3_last_max, want_max);
        }
    }

    /// The counter: 15 segments at Wmax 13 need more than 18 segments
    /// acknowledged; 18 ACKs of one leave it at 18, the 19th adds a
    /// segment and clears it.  In slow start an ACK of 2 adds one MSS and
    /// counts the other above ssthresh.
    #[test]
    fn ns3_bic_counts_acks() {
        let mut c = Bic { ns3_last_max: 13, ..Default::default() };
        let mut sk = ns3_sock(15 * 1000, 1000, 9000);
        for _ in 0..18 {
            c.ns3_increase_window(&mut sk, 1);
        }
        assert_eq!((sk.cwnd_bytes, c.ns3_cwnd_cnt), (15_000, 18));
        c.ns3_increase_window(&mut sk, 1);
        assert_eq!((sk.cwnd_bytes, c.ns3_cwnd_cnt), (16_000, 0));
        let mut sk = ns3_sock(14_500, 1000, 15_000);
        c.ns3_increase_window(&mut sk, 2);
        assert_eq!((sk.cwnd_bytes, c.ns3_cwnd_cnt), (15_500, 1));
    }
}
