//! H-TCP (Leith, Shorten, "H-TCP: TCP for high-speed and long-distance
//! networks", PFLDnet 2004), as Linux 2.6.2x's tcp_htcp.c (ns-2's copy
//! tcp/linux/src/tcp_htcp.c): the increase alpha grows with the time
//! since the last congestion event (1 + 10 (t - 1) + ((t - 1)/2)^2 per
//! RTT after the first second), scaled by RTT (`use_rtt_scaling`); the
//! cut beta = minRTT/maxRTT within [0.5, 0.8] (in 1/128), or 0.5 when
//! the throughput changed by more than 20% (`use_bandwidth_switch`).
//! Time in jiffies (ms), RTTs from the sender's smoothed RTT.
//!
//! ns-3.37's TcpHtcp follows the same module with its time in seconds
//! from the simulator clock, and throughput from bytes acknowledged.

use super::{CaState, CongestionOps, Param, Sock, HZ};

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
    const NAME: &'static str = "htcp";
    const PARAMS: &'static [Param] = &[
        Param { name: "use_rtt_scaling", default: 1, about: "turn on/off RTT scaling" },
        Param { name: "use_bandwidth_switch", default: 1, about: "turn on/off bandwidth switcher" },
    ];

    fn init(&mut self, sk: &mut Sock) {
        *self = Htcp { alpha: ALPHA_BASE, beta: BETA_MIN, pkts_acked: 1, last_cong: sk.now_jiffies, ..Htcp::default() };
    }

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
}
