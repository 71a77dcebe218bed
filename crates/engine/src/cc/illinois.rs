//! TCP-Illinois (Liu, Basar, Srikant, "TCP-Illinois: a loss- and
//! delay-based congestion control algorithm for high-speed networks",
//! Performance Evaluation 2008), as Linux 2.6.2x's tcp_illinois.c (ns-2's
//! copy tcp/linux/src/tcp_illinois.c): once per RTT the average queueing
//! delay da (mean RTT less the least) against the largest dm sets the
//! increase alpha (10 segments per RTT when da <= dm/100, falling to 0.3
//! as da nears dm; back to 10 only after `theta` RTTs of low delay) and
//! the cut beta (1/8 when da <= dm/10, up to 1/2 from 8 dm/10), both in
//! fixed point (alpha in 1/128, beta in 1/64).  Reno's alpha 1 and beta
//! 1/2 below `win_thresh` segments.
//!
//! The ns-3 dialect is ns-3.37's TcpIllinois (tcp-illinois.cc): alpha and
//! beta as doubles from the delays in whole ms (the mean RTT less the
//! least, the largest less the least; the RTTs are those passed to
//! PktsAcked, ns-3's SRTT), worked out at the first IncreaseWindow after
//! the ACK reaches the sequence number sent when they were last worked
//! out; alpha starts at 10.  `WinThresh` (15) is compared with the window
//! in bytes (as ns-3 passes it), so the Reno fallback below it never
//! happens for a segment over one byte.  Above ssthresh an ACK of n
//! segments adds n alpha to a counter (a 32-bit integer, the sum
//! truncated), each whole window of it one MSS (the window becomes whole
//! segments).  The loss response is ssthresh = max(2, (1 - beta) x
//! segments in flight) segments; an RTO (Loss) goes back to alpha 1, beta
//! 0.5.  Attributes in thousandths (`alpha_min_milli` 300, `alpha_max_milli`
//! 10000, `alpha_base_milli` 1000, `beta_min_milli` 125, `beta_max_milli`
//! 500, `beta_base_milli` 500), `win_thresh` and `theta`.

use super::{cast_u32, reno, CaEvent, CaState, CongestionOps, Param, Sock};

const NS3_ALPHA_MIN: usize = 0;
const NS3_ALPHA_MAX: usize = 1;
const NS3_ALPHA_BASE: usize = 2;
const NS3_BETA_MIN: usize = 3;
const NS3_BETA_MAX: usize = 4;
const NS3_BETA_BASE: usize = 5;
const NS3_WIN_THRESH: usize = 6;
const NS3_THETA: usize = 7;

/// ns-3.37's TcpIllinois members (times in ns).
#[derive(Clone, Debug)]
pub struct Ns3Illinois {
    pub sum_rtt: i64,
    pub cnt_rtt: u32,
    pub base_rtt: i64,
    pub max_rtt: i64,
    pub end_seq: u64,
    pub rtt_above: bool,
    pub rtt_low: u8,
    /// None until set: ns-3 starts alpha at AlphaMax, beta at BetaBase.
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    pub ack_cnt: u32,
}

impl Default for Ns3Illinois {
    fn default() -> Self {
        Ns3Illinois { sum_rtt: 0, cnt_rtt: 0, base_rtt: i64::MAX, max_rtt: i64::MIN, end_seq: 0, rtt_above: false, rtt_low: 0, alpha: None, beta: None, ack_cnt: 0 }
    }
}

fn milli(sk: &Sock, i: usize) -> f64 {
    sk.p[i] as f64 / 1000.0
}

impl Ns3Illinois {
    fn alpha(&self, sk: &Sock) -> f64 {
        self.alpha.unwrap_or_else(|| milli(sk, NS3_ALPHA_MAX))
    }

    fn beta(&self, sk: &Sock) -> f64 {
        self.beta.unwrap_or_else(|| milli(sk, NS3_BETA_BASE))
    }

    fn reset(&mut self, next_tx: u64) {
        self.end_seq = next_tx;
        self.cnt_rtt = 0;
        self.sum_rtt = 0;
    }

    /// `RecalcParam(cWnd)`, the window in bytes.
    fn recalc(&mut self, sk: &Sock) {
        if sk.cwnd_bytes < sk.p[NS3_WIN_THRESH] as u32 {
            self.alpha = Some(milli(sk, NS3_ALPHA_BASE));
            self.beta = Some(milli(sk, NS3_BETA_BASE));
        } else if self.cnt_rtt > 0 {
            // `GetMilliSeconds`: whole ms, towards zero
            let dm = ((self.max_rtt.wrapping_sub(self.base_rtt)) / 1_000_000) as f64;
            let da = ((self.sum_rtt / self.cnt_rtt as i64).wrapping_sub(self.base_rtt) / 1_000_000) as f64;
            self.calc_alpha(sk, da, dm);
            self.calc_beta(sk, da, dm);
        }
    }

    /// `CalculateAlpha`.
    fn calc_alpha(&mut self, sk: &Sock, mut da: f64, mut dm: f64) {
        let (amin, amax) = (milli(sk, NS3_ALPHA_MIN), milli(sk, NS3_ALPHA_MAX));
        let d1 = dm / 100.0;
        if da <= d1 {
            if !self.rtt_above {
                self.alpha = Some(amax);
            }
            self.rtt_low = self.rtt_low.wrapping_add(1);
            if self.rtt_low as u32 >= sk.p[NS3_THETA] as u32 {
                self.rtt_low = 0;
                self.rtt_above = false;
                self.alpha = Some(amax);
            }
        } else {
            self.rtt_above = true;
            dm -= d1;
            da -= d1;
            self.alpha = Some((dm * amax) / (dm + (da * (amax - amin)) / amin));
        }
    }

    /// `CalculateBeta`.
    fn calc_beta(&mut self, sk: &Sock, da: f64, dm: f64) {
        let (bmin, bmax) = (milli(sk, NS3_BETA_MIN), milli(sk, NS3_BETA_MAX));
        let d2 = dm / 10.0;
        let d3 = (8.0 * dm) / 10.0;
        if da <= d2 {
            self.beta = Some(bmin);
        } else if da > d2 && da < d3 {
            self.beta = Some((bmin * d3 - bmax * d2 + (bmax - bmin) * da) / (d3 - d2));
        } else if da >= d3 || d3 <= d2 {
            self.beta = Some(bmax);
        }
    }
}

pub const ALPHA_SHIFT: u32 = 7;
pub const ALPHA_SCALE: u64 = 1 << ALPHA_SHIFT;
pub const ALPHA_MIN: u64 = (3 * ALPHA_SCALE) / 10;
pub const ALPHA_MAX: u64 = 10 * ALPHA_SCALE;
pub const ALPHA_BASE: u64 = ALPHA_SCALE;
/// `RTT_MAX`: ns-2's `(u32)~0U` is 2^32 - 1.
pub const RTT_MAX: u64 = 0xffff_ffff / ALPHA_MAX;
pub const BETA_SHIFT: u32 = 6;
pub const BETA_SCALE: u64 = 1 << BETA_SHIFT;
pub const BETA_MIN: u64 = BETA_SCALE / 8;
pub const BETA_MAX: u64 = BETA_SCALE / 2;
pub const BETA_BASE: u64 = BETA_MAX;

pub const WIN_THRESH: usize = 0;
pub const THETA: usize = 1;

#[derive(Clone, Debug, Default)]
pub struct Illinois {
    /// The ns-3 dialect's state.
    pub ns3: Ns3Illinois,
    pub sum_rtt: u64,
    pub cnt_rtt: u32,
    pub base_rtt: u64,
    pub max_rtt: u64,
    pub end_seq: u64,
    pub alpha: u64,
    pub beta: u64,
    pub acked: u32,
    pub rtt_above: u8,
    pub rtt_low: u8,
}

impl Illinois {
    fn rtt_reset(&mut self, sk: &Sock) {
        self.end_seq = sk.snd_nxt;
        self.cnt_rtt = 0;
        self.sum_rtt = 0;
    }

    fn alpha_of(&mut self, sk: &Sock, mut da: u64, mut dm: u64) -> u64 {
        let d1 = dm / 100;
        if da <= d1 {
            if self.rtt_above == 0 {
                return ALPHA_MAX;
            }
            self.rtt_low = self.rtt_low.wrapping_add(1);
            if (self.rtt_low as i32) < sk.p[THETA] {
                return self.alpha;
            }
            self.rtt_low = 0;
            self.rtt_above = 0;
            return ALPHA_MAX;
        }
        self.rtt_above = 1;
        dm -= d1;
        da -= d1;
        (dm.wrapping_mul(ALPHA_MAX)) / (dm.wrapping_add(da.wrapping_mul(ALPHA_MAX - ALPHA_MIN) / ALPHA_MIN))
    }

    fn update_params(&mut self, sk: &Sock) {
        if sk.snd_cwnd < sk.p[WIN_THRESH] as i64 as u64 {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
        } else if self.cnt_rtt > 0 {
            let dm = self.max_rtt.wrapping_sub(self.base_rtt);
            let da = (self.sum_rtt / self.cnt_rtt as u64).wrapping_sub(self.base_rtt);
            self.alpha = self.alpha_of(sk, da, dm);
            self.beta = beta_of(da, dm);
        }
        self.rtt_reset(sk);
    }
}

fn beta_of(da: u64, dm: u64) -> u64 {
    let d2 = dm / 10;
    if da <= d2 {
        return BETA_MIN;
    }
    let d3 = (8 * dm) / 10;
    if da >= d3 || d3 <= d2 {
        return BETA_MAX;
    }
    (BETA_MIN.wrapping_mul(d3).wrapping_sub(BETA_MAX.wrapping_mul(d2)).wrapping_add((BETA_MAX - BETA_MIN).wrapping_mul(da)))
        / (d3 - d2)
}

impl CongestionOps for Illinois {
    const NAME: &'static str = "illinois";
    const PARAMS: &'static [Param] = &[
        Param { name: "win_thresh", default: 15, about: "Window threshold for starting adaptive sizing" },
        Param { name: "theta", default: 5, about: "# of fast RTT's before full growth" },
    ];
    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "alpha_min_milli", default: 300, about: "Minimum alpha threshold, 1/1000 [AlphaMin]" },
        Param { name: "alpha_max_milli", default: 10_000, about: "Maximum alpha threshold, 1/1000 [AlphaMax]" },
        Param { name: "alpha_base_milli", default: 1000, about: "Alpha base threshold, 1/1000 [AlphaBase]" },
        Param { name: "beta_min_milli", default: 125, about: "Minimum beta threshold, 1/1000 [BetaMin]" },
        Param { name: "beta_max_milli", default: 500, about: "Maximum beta threshold, 1/1000 [BetaMax]" },
        Param { name: "beta_base_milli", default: 500, about: "Beta base threshold, 1/1000 [BetaBase]" },
        Param { name: "win_thresh", default: 15, about: "Window threshold [WinThresh]" },
        Param { name: "theta", default: 5, about: "Theta threshold [Theta]" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    /// `GetSsThresh`.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        let m = sk.mss_cache as u32;
        let seg = if m == 0 { 0 } else { bytes_in_flight / m };
        let ss = cast_u32(((1.0 - self.ns3.beta(sk)) * seg as f64).max(2.0));
        ss.wrapping_mul(m)
    }
    /// `IncreaseWindow`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let c = &mut self.ns3;
        if sk.snd_una >= c.end_seq {
            c.recalc(sk);
            c.reset(sk.snd_nxt);
        }
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            reno::ns3_slow_start(sk, segments_acked);
        } else {
            let old = sk.cwnd_segments();
            let mut seg = old;
            if segments_acked > 0 {
                c.ack_cnt = cast_u32(c.ack_cnt as f64 + segments_acked as f64 * c.alpha(sk));
            }
            // (a window under one segment would loop for ever in ns-3)
            while seg > 0 && c.ack_cnt >= seg {
                c.ack_cnt -= seg;
                seg += 1;
            }
            if seg != old {
                sk.cwnd_bytes = seg.wrapping_mul(sk.mss_cache as u32);
            }
        }
    }
    /// `PktsAcked`.
    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        if rtt_ns == 0 {
            return;
        }
        let c = &mut self.ns3;
        c.base_rtt = c.base_rtt.min(rtt_ns);
        c.max_rtt = c.max_rtt.max(rtt_ns);
        c.cnt_rtt = c.cnt_rtt.wrapping_add(1);
        c.sum_rtt = c.sum_rtt.wrapping_add(rtt_ns);
    }
    /// `CongestionStateSet`: an RTO goes back to standard AIMD.
    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Loss {
            let c = &mut self.ns3;
            c.alpha = Some(milli(sk, NS3_ALPHA_BASE));
            c.beta = Some(milli(sk, NS3_BETA_BASE));
            c.rtt_low = 0;
            c.rtt_above = false;
            c.reset(sk.snd_nxt);
        }
    }
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.alpha = ALPHA_MAX;
        self.beta = BETA_BASE;
        self.base_rtt = 0x7fff_ffff;
        self.max_rtt = 0;
        self.acked = 0;
        self.rtt_low = 0;
        self.rtt_above = 0;
        self.rtt_reset(sk);
    }

    fn pkts_acked(&mut self, sk: &mut Sock, pkts_acked: u64, last: i64) {
        self.acked = pkts_acked as u32;
        if last == 0 {
            return;
        }
        let mut rtt = ((sk.now_ns - last) / 1000) as u64;
        if rtt > RTT_MAX {
            rtt = RTT_MAX;
        }
        if self.base_rtt > rtt {
            self.base_rtt = rtt;
        }
        if self.max_rtt < rtt {
            self.max_rtt = rtt;
        }
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
        self.sum_rtt = self.sum_rtt.wrapping_add(rtt);
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Loss {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
            self.rtt_low = 0;
            self.rtt_above = 0;
            self.rtt_reset(sk);
        }
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if self.end_seq < ack {
            self.update_params(sk);
        }
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        } else {
            sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(self.acked);
            self.acked = 1;
            let delta = (sk.snd_cwnd_cnt as u64).wrapping_mul(self.alpha) >> ALPHA_SHIFT;
            if delta >= sk.snd_cwnd {
                sk.snd_cwnd = (sk.snd_cwnd + delta.checked_div(sk.snd_cwnd).unwrap_or(0)).min(sk.snd_cwnd_clamp as u64);
                sk.snd_cwnd_cnt = 0;
            }
        }
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        ((sk.snd_cwnd.wrapping_mul(self.beta)) >> BETA_SHIFT).max(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// dm = 100 ms of queueing at most; da = 50 ms on average: alpha =
    /// (99 * 1280) / (99 + 49 * 1242 / 38) = 126720 / 1700 = 74 (0.58
    /// segment per RTT); beta = (8*80 - 32*10 + 24*50) / 70 = 21 (1/3).
    /// A low delay (da <= dm/100) keeps alpha for theta RTTs, then 10.
    #[test]
    fn delay_sets_alpha_and_beta() {
        let mut c = Illinois::default();
        let mut sk = Sock { snd_cwnd: 100, ..Default::default() };
        sk.p[WIN_THRESH] = 15;
        sk.p[THETA] = 5;
        c.init(&mut sk);
        c.base_rtt = 100_000;
        c.max_rtt = 200_000;
        c.sum_rtt = 150_000 * 4;
        c.cnt_rtt = 4;
        c.update_params(&sk);
        assert_eq!((c.alpha, c.beta), (74, 21));
        assert_eq!(c.ssthresh(&sk), 32, "100 * 21 / 64");
        for i in 1..5 {
            c.sum_rtt = 100_500;
            c.cnt_rtt = 1;
            c.update_params(&sk);
            assert_eq!(c.alpha, 74, "low RTT {i}: alpha kept");
        }
        c.sum_rtt = 100_500;
        c.cnt_rtt = 1;
        c.update_params(&sk);
        assert_eq!(c.alpha, ALPHA_MAX);
    }

    /// ns-3.37's tcp-illinois-test.cc: PktsAcked with the base RTT (100
    /// ms), then cntRtt - 1 times with maxRtt; IncreaseWindow(n) with the
    /// ACK past the last reset (5785 >= 0): alpha and beta from da and dm
    /// in whole ms; then GetSsThresh with the window in flight:
    /// * 38 x 1446 in slow start (ssthresh 40 x 1446), RTTs 100, 105: dm 5,
    ///   da 102.5 - 100 -> 2 ms; d1 0.05: alpha 4.95 x 10 / (4.95 + 1.95 x
    ///   9.7 / 0.3) = 0.728; d2 0.5, d3 4: beta (0.5 - 0.25 + 0.75) / 3.5 =
    ///   0.2857; slow start: 39 segments; ssthresh 39 x 0.714 = 27.86 ->
    ///   27 x 1446 = 39042.
    /// * 60 x 346, ssthresh 40 x 346, RTTs 100, 100: dm = da = 0: alpha 10,
    ///   beta 0.125; 2 x 10 = 20 < 60: no growth (20760); ssthresh 60 x
    ///   0.875 = 52.5 -> 52 x 346 = 17992.
    /// * 38 x 1446, RTTs 100, 110 x 4: dm 10, da 8 >= d3 8: beta 0.5; slow
    ///   start to 39; ssthresh 19 x 1446 = 27474.
    /// * 40 x 1446 above ssthresh 38 x 1446, RTTs 100, 105, n 55: alpha
    ///   0.728: 55 x 0.728 = 40.04 -> 40 >= 40: 41 segments, 59286;
    ///   ssthresh 41 x 0.714 = 29.3 -> 29 x 1446 = 41934.
    #[test]
    fn ns3_illinois_test_suite() {
        for (cwnd, ssthresh, mss, cnt, max_ms, n, want_cwnd, want_ss) in [
            (38 * 1446u32, 40 * 1446u32, 1446u64, 2u32, 105i64, 2u32, 39 * 1446u32, 39042u32),
            (60 * 346, 40 * 346, 346, 2, 100, 2, 60 * 346, 17992),
            (38 * 1446, 40 * 1446, 1446, 5, 110, 2, 39 * 1446, 27474),
            (40 * 1446, 38 * 1446, 1446, 2, 105, 55, 41 * 1446, 41934),
        ] {
            let mut c = Illinois::default();
            let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: mss, snd_nxt: 2893, snd_una: 5785, ..Default::default() };
            for (i, p) in Illinois::NS3_PARAMS.iter().enumerate() {
                sk.p[i] = p.default;
            }
            c.ns3_pkts_acked(&mut sk, n, 100_000_000);
            for _ in 1..cnt {
                c.ns3_pkts_acked(&mut sk, n, max_ms * 1_000_000);
            }
            c.ns3_increase_window(&mut sk, n);
            assert_eq!(sk.cwnd_bytes, want_cwnd, "cwnd, case {cwnd} {max_ms} ms");
            let w = sk.cwnd_bytes;
            assert_eq!(c.ns3_ssthresh(&mut sk, w), want_ss, "ssthresh, case {cwnd} {max_ms} ms");
            assert_eq!((c.ns3.end_seq, c.ns3.cnt_rtt), (2893, 0));
        }
    }

    /// Alpha returns to its maximum only after theta (5) low-delay RTTs
    /// once the delay was high; an RTO restores alpha 1, beta 0.5.
    #[test]
    fn ns3_illinois_theta_and_loss() {
        let mut c = Illinois::default();
        let mut sk = Sock { cwnd_bytes: 100_000, ssthresh_bytes: 0, mss_cache: 1000, ..Default::default() };
        for (i, p) in Illinois::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        assert_eq!(c.ns3.alpha(&sk), 10.0);
        c.ns3.calc_alpha(&sk, 8.0, 10.0);
        assert!(c.ns3.rtt_above && c.ns3.alpha(&sk) < 1.0);
        for k in 1..5 {
            c.ns3.calc_alpha(&sk, 0.0, 10.0);
            assert!(c.ns3.alpha(&sk) < 1.0, "after {k} low RTTs");
        }
        c.ns3.calc_alpha(&sk, 0.0, 10.0);
        assert_eq!((c.ns3.alpha(&sk), c.ns3.rtt_low, c.ns3.rtt_above), (10.0, 0, false));
        sk.snd_nxt = 7000;
        c.ns3_state_set(&mut sk, CaState::Loss);
        assert_eq!((c.ns3.alpha(&sk), c.ns3.beta(&sk), c.ns3.end_seq), (1.0, 0.5, 7000));
    }
}
