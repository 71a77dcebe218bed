//! H-TCP (Leith, Shorten, "H-TCP: TCP for high-speed and long-distance
//! networks", PFLDnet 2004), as Linux 2.6.2x's tcp_htcp.c (ns-2's copy
//! tcp/linux/src/tcp_htcp.c): the increase alpha grows with the time
//! since the last congestion event (1 + 10 (t - 1) + ((t - 1)/2)^2 per
//! RTT after the first second), scaled by RTT (`use_rtt_scaling`); the
//! cut beta = minRTT/maxRTT within [0.5, 0.8] (in 1/128), or 0.5 when
//! the throughput changed by more than 20% (`use_bandwidth_switch`).
//! Time in jiffies (ms), RTTs from the sender's smoothed RTT.
//!
//! The ns-3 dialect is ns-3.37's TcpHtcp (tcp-htcp.cc), a simpler model:
//! alpha = 2 (1 - beta) (1 + 10 t + t²/4) with t the seconds beyond
//! `DeltaL` (1 s) since the last congestion (1 within it), at least 1,
//! worked out again at every PktsAcked and loss; congestion avoidance adds
//! (MSS² + cwnd alpha) / cwnd bytes per ACK (NewReno's with alpha);
//! no RTT scaling.  At a loss beta is `DefaultBackoff` (0.5) unless the
//! throughput (bytes acknowledged in Open since the last congestion over
//! the seconds since it, a 32-bit integer) rose from the last period's by
//! a ratio at most `ThroughputRatio` (0.2), where the ratio is 32-bit
//! integer division, so only a rise smaller than the last throughput
//! (ratio 0) counts; then beta = minRTT / maxRTT of the period (the RTTs
//! passed to PktsAcked, ns-3's SRTT).  ssthresh = max(2 MSS, flight x
//! beta).  beta starts at 0, so until the first loss alpha is twice
//! standard: 2 (1 + 10 t + t²/4) (Linux: the RTT-scaled 1 + ...).
//! Attributes as integers: `default_backoff_pct`, `throughput_ratio_pct`,
//! `delta_l_ms`.

use super::{cast_u32, reno, CaEvent, CaState, CongestionOps, Param, Sock, HZ};

pub const ALPHA_BASE: u64 = 1 << 7;
pub const BETA_MIN: u8 = 1 << 6;
pub const BETA_MAX: u8 = 102;

pub const USE_RTT_SCALING: usize = 0;
pub const USE_BANDWIDTH_SWITCH: usize = 1;

#[derive(Clone, Debug, Default)]
pub struct Htcp {
    pub alpha: u64,
    pub beta: u8,
    pub modeswitch: bool,
    pub pkts_acked: u32,
    pub packetcount: u64,
    pub min_rtt: u64,
    pub max_rtt: u64,
    pub last_cong: u64,
    pub undo_last_cong: u64,
    pub undo_max_rtt: u64,
    pub undo_old_max_b: u64,
    pub min_b: u64,
    pub max_b: u64,
    pub old_max_b: u64,
    pub bi: u64,
    pub lasttime: u64,
    /// The ns-3 dialect's state.
    pub ns3: Ns3Htcp,
}

pub const NS3_DEFAULT_BACKOFF: usize = 0;
pub const NS3_THROUGHPUT_RATIO: usize = 1;
pub const NS3_DELTA_L: usize = 2;

/// ns-3.37's TcpHtcp members (times in ns).
#[derive(Clone, Debug)]
pub struct Ns3Htcp {
    pub alpha: f64,
    pub beta: f64,
    pub last_con_ns: i64,
    pub min_rtt_ns: i64,
    pub max_rtt_ns: i64,
    pub throughput: u32,
    pub last_throughput: u32,
    pub data_sent: u32,
}

impl Default for Ns3Htcp {
    fn default() -> Self {
        Ns3Htcp { alpha: 0.0, beta: 0.0, last_con_ns: 0, min_rtt_ns: i64::MAX, max_rtt_ns: i64::MIN, throughput: 0, last_throughput: 0, data_sent: 0 }
    }
}

impl Ns3Htcp {
    /// `UpdateAlpha`.
    fn update_alpha(&mut self, sk: &Sock) {
        let delta = sk.now_ns - self.last_con_ns;
        let delta_l = sk.p[NS3_DELTA_L] as i64 * 1_000_000;
        self.alpha = if delta <= delta_l {
            1.0
        } else {
            let d = (delta - delta_l) as f64 / 1e9;
            1.0 + 10.0 * d + 0.25 * (d * d)
        };
        self.alpha = 2.0 * (1.0 - self.beta) * self.alpha;
        if self.alpha < 1.0 {
            self.alpha = 1.0;
        }
    }

    /// `UpdateBeta`.
    fn update_beta(&mut self, sk: &Sock) {
        self.beta = sk.p[NS3_DEFAULT_BACKOFF] as f64 / 100.0;
        if self.throughput > self.last_throughput && self.last_throughput > 0 {
            let diff = self.throughput - self.last_throughput;
            if (diff / self.last_throughput) as f64 <= sk.p[NS3_THROUGHPUT_RATIO] as f64 / 100.0 {
                self.beta = self.min_rtt_ns as f64 / self.max_rtt_ns as f64;
            }
        }
    }
}

impl Htcp {
    fn cong_time(&self, now: u64) -> u64 {
        now.wrapping_sub(self.last_cong)
    }

    fn ccount(&self, now: u64) -> u64 {
        self.cong_time(now).checked_div(self.min_rtt).unwrap_or(0)
    }

    fn reset(&mut self, now: u64) {
        self.undo_last_cong = self.last_cong;
        self.undo_max_rtt = self.max_rtt;
        self.undo_old_max_b = self.old_max_b;
        self.last_cong = now;
    }

    fn measure_rtt(&mut self, sk: &Sock) {
        let srtt = sk.srtt >> 3;
        if self.min_rtt > srtt || self.min_rtt == 0 {
            self.min_rtt = srtt;
        }
        if sk.ca_state == CaState::Open && sk.snd_ssthresh < 0xFFFF && self.ccount(sk.now_jiffies) > 3 {
            if self.max_rtt < self.min_rtt {
                self.max_rtt = self.min_rtt;
            }
            if self.max_rtt < srtt && srtt <= self.max_rtt + 20 {
                self.max_rtt = srtt;
            }
        }
    }

    fn beta_update(&mut self, sk: &Sock, min_rtt: u64, max_rtt: u64) {
        if sk.p[USE_BANDWIDTH_SWITCH] != 0 {
            let max_b = self.max_b;
            let old_max_b = self.old_max_b;
            self.old_max_b = self.max_b;
            // between(5 maxB, 4 old_maxB, 6 old_maxB), unsigned.
            let (s1, s2, s3) = (5u64.wrapping_mul(max_b), 4u64.wrapping_mul(old_max_b), 6u64.wrapping_mul(old_max_b));
            if s3.wrapping_sub(s2) < s1.wrapping_sub(s2) {
                self.beta = BETA_MIN;
                self.modeswitch = false;
                return;
            }
        }
        if self.modeswitch && min_rtt > 10 && max_rtt != 0 {
            self.beta = ((min_rtt << 7) / max_rtt) as u8;
            if self.beta < BETA_MIN {
                self.beta = BETA_MIN;
            } else if self.beta > BETA_MAX {
                self.beta = BETA_MAX;
            }
        } else {
            self.beta = BETA_MIN;
            self.modeswitch = true;
        }
    }

    fn alpha_update(&mut self, sk: &Sock) {
        let min_rtt = self.min_rtt;
        let mut factor: u64 = 1;
        let mut diff = self.cong_time(sk.now_jiffies);
        if diff > HZ {
            diff -= HZ;
            factor = 1 + (10 * diff + ((diff / 2) * (diff / 2) / HZ)) / HZ;
        }
        if sk.p[USE_RTT_SCALING] != 0 && min_rtt != 0 {
            let scale = ((HZ << 3) / (10 * min_rtt)).max(1 << 2).min(10 << 3);
            factor = (factor << 3) / scale;
            if factor == 0 {
                factor = 1;
            }
        }
        self.alpha = (2 * factor).wrapping_mul(((1i64 << 7) - self.beta as i64) as u64);
        if self.alpha == 0 {
            self.alpha = ALPHA_BASE;
        }
    }

    fn param_update(&mut self, sk: &Sock) {
        let (min_rtt, max_rtt) = (self.min_rtt, self.max_rtt);
        self.beta_update(sk, min_rtt, max_rtt);
        self.alpha_update(sk);
        if min_rtt > 0 && max_rtt > min_rtt {
            self.max_rtt = min_rtt + ((max_rtt - min_rtt) * 95) / 100;
        }
    }
}

impl CongestionOps for Htcp {
    const NS3_CLOCK: bool = true;
    const NAME: &'static str = "htcp";
    const PARAMS: &'static [Param] = &[
        Param { name: "use_rtt_scaling", default: 1, about: "turn on/off RTT scaling" },
        Param { name: "use_bandwidth_switch", default: 1, about: "turn on/off bandwidth switcher" },
    ];

    fn init(&mut self, sk: &mut Sock) {
        *self = Htcp { alpha: ALPHA_BASE, beta: BETA_MIN, pkts_acked: 1, last_cong: sk.now_jiffies, ..Htcp::default() };
    }

    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "default_backoff_pct", default: 50, about: "The default AIMD backoff factor, % [DefaultBackoff]" },
        Param { name: "throughput_ratio_pct", default: 20, about: "Threshold value for updating beta, % [ThroughputRatio]" },
        Param { name: "delta_l_ms", default: 1000, about: "Delta_L parameter in increase function, ms [DeltaL]" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    /// `GetSsThresh`.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        let h = &mut self.ns3;
        h.last_con_ns = sk.now_ns;
        h.update_beta(sk);
        h.update_alpha(sk);
        let ss = (2 * sk.mss_cache as u32).max(cast_u32(bytes_in_flight as f64 * h.beta));
        h.min_rtt_ns = i64::MAX;
        h.max_rtt_ns = i64::MIN;
        h.last_throughput = h.throughput;
        h.throughput = 0;
        h.data_sent = 0;
        ss
    }
    /// NewReno's `IncreaseWindow` with H-TCP's `CongestionAvoidance`.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let alpha = self.ns3.alpha;
        reno::ns3_increase_with(sk, segments_acked, |sk, n| {
            if n > 0 {
                let m = sk.mss_cache as u32;
                let c = sk.cwnd_bytes;
                let adder = ((m.wrapping_mul(m) as f64 + c as f64 * alpha) / c as f64).max(1.0);
                sk.cwnd_bytes = c.wrapping_add(cast_u32(adder));
            }
        });
    }
    /// `PktsAcked`.
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, segments_acked: u32, rtt_ns: i64) {
        let h = &mut self.ns3;
        if sk.ca_state == CaState::Open {
            h.data_sent = h.data_sent.wrapping_add(segments_acked.wrapping_mul(sk.mss_cache as u32));
        }
        let secs = sk.now_ns as f64 / 1e9 - h.last_con_ns as f64 / 1e9;
        h.throughput = cast_u32(h.data_sent as f64 / secs);
        h.update_alpha(sk);
        if rtt_ns < h.min_rtt_ns {
            h.min_rtt_ns = rtt_ns;
        }
        if rtt_ns > h.max_rtt_ns {
            h.max_rtt_ns = rtt_ns;
        }
    }
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        self.param_update(sk);
        ((sk.snd_cwnd * self.beta as u64) >> 7).max(2)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
            return;
        }
        self.measure_rtt(sk);
        if ((sk.snd_cwnd_cnt as u64).wrapping_mul(self.alpha) >> 7) >= sk.snd_cwnd {
            if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd += 1;
            }
            sk.snd_cwnd_cnt = 0;
            self.alpha_update(sk);
        } else {
            sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(self.pkts_acked);
        }
        self.pkts_acked = 1;
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        match new {
            CaState::Open => self.last_cong = sk.now_jiffies,
            CaState::Cwr | CaState::Recovery | CaState::Loss => self.reset(sk.now_jiffies),
            CaState::Disorder => {}
        }
    }

    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        self.last_cong = self.undo_last_cong;
        self.max_rtt = self.undo_max_rtt;
        self.old_max_b = self.undo_old_max_b;
        sk.snd_cwnd.max((sk.snd_ssthresh << 7) / self.beta as u64)
    }

    /// `measure_achieved_throughput`.
    fn pkts_acked(&mut self, sk: &mut Sock, pkts_acked: u64, _last: i64) {
        let now = sk.now_jiffies;
        if sk.ca_state == CaState::Open {
            self.pkts_acked = pkts_acked as u32;
        }
        if sk.p[USE_BANDWIDTH_SWITCH] == 0 {
            return;
        }
        if sk.ca_state != CaState::Open && sk.ca_state != CaState::Disorder {
            self.packetcount = 0;
            self.lasttime = now;
            return;
        }
        self.packetcount = self.packetcount.wrapping_add(pkts_acked);
        let a = if self.alpha >> 7 != 0 { self.alpha >> 7 } else { 1 };
        if self.packetcount >= sk.snd_cwnd.wrapping_sub(a) && now.wrapping_sub(self.lasttime) >= self.min_rtt && self.min_rtt > 0 {
            let cur_bi = (self.packetcount * HZ) / now.wrapping_sub(self.lasttime);
            if self.ccount(now) <= 3 {
                self.min_b = cur_bi;
                self.max_b = cur_bi;
                self.bi = cur_bi;
            } else {
                self.bi = (3 * self.bi + cur_bi) / 4;
                if self.bi > self.max_b {
                    self.max_b = self.bi;
                }
                if self.min_b > self.max_b {
                    self.min_b = self.max_b;
                }
            }
            self.packetcount = 0;
            self.lasttime = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// alpha after 3 s without congestion at minRTT 100 ms: diff = 2000
    /// ms past the first second, factor = 1 + (20000 + 1000^2/1000)/1000
    /// = 22; RTT scaling: scale = 8000/1000 = 8 -> factor 22*8/8 = 22;
    /// alpha = 2 * 22 * (128 - 64) = 2816 (22 segments per RTT, in 1/128).
    /// beta = minRTT/maxRTT = 100/125 = 0.8 -> 102 (at most BETA_MAX).
    #[test]
    fn alpha_grows_with_time_since_congestion() {
        let mut h = Htcp::default();
        let mut sk = Sock { snd_cwnd: 100, ..Default::default() };
        sk.p[USE_RTT_SCALING] = 1;
        sk.p[USE_BANDWIDTH_SWITCH] = 0;
        sk.now_jiffies = 1000;
        h.init(&mut sk);
        h.min_rtt = 100;
        sk.now_jiffies = 4000;
        h.alpha_update(&sk);
        assert_eq!(h.alpha, 2816);
        h.max_rtt = 125;
        h.modeswitch = true;
        h.beta_update(&sk, 100, 125);
        assert_eq!(h.beta, 102);
        // The cut: cwnd * beta >> 7 = 100 * 102 / 128 = 79.
        h.max_rtt = 125;
        assert_eq!(h.ssthresh(&sk), 79);
    }

    /// ns-3.37's tcp-htcp-test.cc (TcpHtcpIncrementTest): GetSsThresh at
    /// 1 ms (flight = cwnd: beta 0.5, alpha 2 x 0.5 x 1 = 1), PktsAcked of
    /// n segments at 900 ms (RTT 80 ms) and at the second time (100 ms),
    /// then IncreaseWindow(n) in congestion avoidance (ssthresh 0):
    /// * 38 x 536, n 38, second ACK at 1000 ms: 999 ms since the loss, alpha
    ///   1: (536² + 20368) / 20368 = 15.1 -> 20383.
    /// * cwnd 38 of 1-byte segments, n 100, 1100 ms: 1.099 s, t = 0.099:
    ///   alpha 1 + 0.99 + 0.00245 = 1.992: (1 + 38 x 1.992) / 38 = 2.02 ->
    ///   40.
    /// * 53 x 1446, n 50, 1500 ms: t = 0.499, alpha 1 + 4.99 + 0.0623 =
    ///   6.052: 1446² / 76638 + 6.052 = 33.3 -> 76671.
    #[test]
    fn ns3_htcp_test_suite() {
        for (cwnd, mss, n, second_ms, want) in [(38 * 536u32, 536u64, 38u32, 1000i64, 20383u32), (38, 1, 100, 1100, 40), (53 * 1446, 1446, 50, 1500, 76671)] {
            let mut h = Htcp::default();
            let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: 0, mss_cache: mss, now_ns: 1_000_000, ..Default::default() };
            for (i, p) in Htcp::NS3_PARAMS.iter().enumerate() {
                sk.p[i] = p.default;
            }
            let _ = h.ns3_ssthresh(&mut sk, cwnd);
            sk.now_ns = 900_000_000;
            h.ns3_pkts_acked(&mut sk, n, 80_000_000);
            sk.now_ns = second_ms * 1_000_000;
            h.ns3_pkts_acked(&mut sk, n, 100_000_000);
            h.ns3_increase_window(&mut sk, n);
            assert_eq!(sk.cwnd_bytes, want, "second ACK at {second_ms} ms");
        }
    }

    /// The loss response: beta 0.5 until a period's throughput rose by less
    /// than the last period's (integer ratio 0 <= 0.2), then minRTT/maxRTT
    /// (80/100 ms: 0.8); the RTT range restarts at each loss.  Before any
    /// loss beta is 0: alpha 2 x (1 + 10 x 1 + 0.25) = 22.5 two seconds in.
    #[test]
    fn ns3_htcp_beta_and_alpha() {
        let mut h = Htcp::default();
        let mut sk = Sock { cwnd_bytes: 100_000, mss_cache: 1000, ..Default::default() };
        for (i, p) in Htcp::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk.now_ns = 2_000_000_000;
        h.ns3_pkts_acked(&mut sk, 10, 80_000_000);
        assert!((h.ns3.alpha - 22.5).abs() < 1e-9, "{}", h.ns3.alpha);
        assert_eq!(h.ns3.throughput, 5000);
        // first loss: no last throughput: beta 0.5
        assert_eq!(h.ns3_ssthresh(&mut sk, 100_000), 50_000);
        assert_eq!((h.ns3.last_throughput, h.ns3.min_rtt_ns, h.ns3.data_sent), (5000, i64::MAX, 0));
        // 1 s on, 8000 bytes: 8000 B/s, a rise of 3000 (3000 / 5000 = 0)
        sk.now_ns = 3_000_000_000;
        h.ns3_pkts_acked(&mut sk, 4, 80_000_000);
        h.ns3_pkts_acked(&mut sk, 4, 100_000_000);
        assert_eq!(h.ns3.throughput, 8000);
        assert_eq!(h.ns3_ssthresh(&mut sk, 100_000), 80_000);
        // a period that doubled it (ratio 1 > 0.2): back to 0.5
        sk.now_ns = 4_000_000_000;
        h.ns3_pkts_acked(&mut sk, 16, 90_000_000);
        assert_eq!(h.ns3.throughput, 16000);
        assert_eq!(h.ns3_ssthresh(&mut sk, 100_000), 50_000);
        // PktsAcked at the instant of the loss: 0 bytes / 0 s is 0
        h.ns3_pkts_acked(&mut sk, 0, 90_000_000);
        assert_eq!(h.ns3.throughput, 0);
        // ...and a segment then: x / 0 s (infinity) is 0 as gcc converts it
        h.ns3_pkts_acked(&mut sk, 1, 90_000_000);
        assert_eq!(h.ns3.throughput, 0);
    }
}
