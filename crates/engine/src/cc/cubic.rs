//! CUBIC (Ha, Rhee, Xu, "CUBIC: a new TCP-friendly high-speed TCP variant",
//! SIGOPS OSR 2008; later RFC 8312/9438), as Linux 2.6.2x's tcp_cubic.c
//! version 2.1 (ns-2's copy tcp/linux/src/tcp_cubic.c): W(t) = C (t -
//! K)^3 + Wmax in fixed point (t in 1/1024 s, C = `bic_scale`/1024 * ...),
//! K from an integer cube root (table + one Newton step), `beta`/1024 kept
//! at a loss, fast convergence, the TCP-friendly region (`tcp_friendliness`),
//! the delayed-ACK ratio estimate.  No HyStart (Linux added it in 2.6.29).
//!
//! The derived constants (`beta_scale`, `cube_rtt_scale`, `cube_factor`)
//! are worked out once from the default `beta` and `bic_scale`, as the
//! module's init does: changing those parameters later changes the cut
//! and C only where the module reads them directly, as in ns-2.
//!
//! ns-3.37's TcpCubic is a later Linux version: HyStart on, beta 0.7
//! (717/1024), `cubic_root` by floating point, the TCP-friendly estimate
//! per RFC 8312 and time from the simulator clock rather than jiffies.

use super::{div64_64, fls64, CaState, CongestionOps, Param, Sock, HZ};

pub const BETA_SCALE: u64 = 1024;
/// `BICTCP_HZ`: time in 1/2^10 s.
pub const BICTCP_HZ: u32 = 10;
pub const ACK_RATIO_SHIFT: u32 = 4;

pub const FAST_CONVERGENCE: usize = 0;
pub const MAX_INCREMENT: usize = 1;
pub const BETA: usize = 2;
pub const INITIAL_SSTHRESH: usize = 3;
pub const BIC_SCALE: usize = 4;
pub const TCP_FRIENDLINESS: usize = 5;

const DEFAULT_BETA: u64 = 819;
const DEFAULT_BIC_SCALE: u64 = 41;
/// `beta_scale`: 8 (1024 + beta) / 3 / (1024 - beta).
pub const BETA_SCALE_FRIENDLY: u64 = 8 * (BETA_SCALE + DEFAULT_BETA) / 3 / (BETA_SCALE - DEFAULT_BETA);
/// `cube_rtt_scale`: bic_scale * 10.
pub const CUBE_RTT_SCALE: u64 = DEFAULT_BIC_SCALE * 10;
/// `cube_factor`: 2^(10 + 3 BICTCP_HZ) / (bic_scale * 10).
pub const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (DEFAULT_BIC_SCALE * 10);

#[derive(Clone, Debug, Default)]
pub struct Cubic {
    pub cnt: u64,
    pub last_max_cwnd: u64,
    pub loss_cwnd: u64,
    pub last_cwnd: u64,
    pub last_time: u64,
    pub bic_origin_point: u64,
    /// K, in 1/1024 s.
    pub bic_k: u64,
    pub delay_min: u64,
    pub epoch_start: u64,
    pub ack_cnt: u64,
    /// The Reno window estimate of the TCP-friendly region.
    pub tcp_cwnd: u64,
    pub delayed_ack: u64,
}

/// `cubic_root`: the cube root of `a`, from a 64-entry table and one
/// Newton-Raphson step (relative error under 0.2%).
pub fn cubic_root(a: u64) -> u64 {
    const V: [u8; 64] = [
        0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164, 168, 170, 173, 176, 179,
        181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209, 211, 213, 215, 217, 219, 221, 222, 224, 225, 227,
        229, 231, 232, 234, 236, 237, 239, 240, 242, 244, 245, 246, 248, 250, 251, 252, 254,
    ];
    let mut b = fls64(a) as u64;
    if b < 7 {
        return (V[a as usize] as u64 + 35) >> 6;
    }
    b = ((b * 84) >> 8) - 1;
    let shift = a >> (b * 3);
    let mut x = ((V[shift as usize] as u64 + 10) << b) >> 6;
    x = 2 * x + div64_64(a, x * (x - 1));
    (x * 341) >> 10
}

impl Cubic {
    fn reset(&mut self) {
        *self = Cubic { delayed_ack: 2 << ACK_RATIO_SHIFT, ..Cubic::default() };
    }

    /// `bictcp_update`: ACKs per segment for the window `cwnd`.
    fn update(&mut self, sk: &Sock, cwnd: u64) {
        let now = sk.now_jiffies;
        self.ack_cnt = self.ack_cnt.wrapping_add(1);
        if self.last_cwnd == cwnd && (now.wrapping_sub(self.last_time) as i64) <= (HZ / 32) as i64 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start == 0 {
            self.epoch_start = now;
            self.ack_cnt = 1;
            self.tcp_cwnd = cwnd;
            if self.last_max_cwnd <= cwnd {
                self.bic_k = 0;
                self.bic_origin_point = cwnd;
            } else {
                self.bic_k = cubic_root(CUBE_FACTOR.wrapping_mul(self.last_max_cwnd - cwnd));
                self.bic_origin_point = self.last_max_cwnd;
            }
        }
        let t = (now.wrapping_add(self.delay_min >> 3).wrapping_sub(self.epoch_start) << BICTCP_HZ) / HZ;
        let offs = if t < self.bic_k { self.bic_k - t } else { t - self.bic_k };
        let delta = CUBE_RTT_SCALE.wrapping_mul(offs).wrapping_mul(offs).wrapping_mul(offs) >> (10 + 3 * BICTCP_HZ);
        let bic_target =
            if t < self.bic_k { self.bic_origin_point.wrapping_sub(delta) } else { self.bic_origin_point.wrapping_add(delta) };
        self.cnt = if bic_target > cwnd { cwnd / (bic_target - cwnd) } else { 100 * cwnd };
        if self.delay_min > 0 {
            let max_increment = sk.p[MAX_INCREMENT] as i64;
            let div = ((10 * max_increment) as u64).wrapping_mul(self.delay_min);
            let min_cnt = (cwnd * HZ * 8).checked_div(div).unwrap_or(0);
            if self.cnt < min_cnt && t >= self.bic_k {
                self.cnt = min_cnt;
            }
        }
        if self.loss_cwnd == 0 {
            self.cnt = 50;
        }
        if sk.p[TCP_FRIENDLINESS] != 0 {
            let delta = (cwnd * BETA_SCALE_FRIENDLY) >> 3;
            while self.ack_cnt > delta {
                self.ack_cnt -= delta;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd {
                let delta = self.tcp_cwnd - cwnd;
                let max_cnt = cwnd / delta;
                if self.cnt > max_cnt {
                    self.cnt = max_cnt;
                }
            }
        }
        self.cnt = (self.cnt << ACK_RATIO_SHIFT).checked_div(self.delayed_ack).unwrap_or(0);
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }

    /// `measure_delay`: the minimum RTT from timestamps, in jiffies << 3,
    /// from a second after the epoch started.
    fn measure_delay(&mut self, sk: &Sock) {
        if !(sk.saw_tstamp && sk.rcv_tsecr != 0) || (sk.now_jiffies.wrapping_sub(self.epoch_start) as i64) < HZ as i64 {
            return;
        }
        let mut delay = sk.now_jiffies.wrapping_sub(sk.rcv_tsecr) << 3;
        if delay == 0 {
            delay = 1;
        }
        if self.delay_min == 0 || self.delay_min > delay {
            self.delay_min = delay;
        }
    }
}

impl CongestionOps for Cubic {
    const NAME: &'static str = "cubic";
    const PARAMS: &'static [Param] = &[
        Param { name: "fast_convergence", default: 1, about: "turn on/off fast convergence" },
        Param { name: "max_increment", default: 16, about: "Limit on increment allowed during binary search" },
        Param { name: "beta", default: DEFAULT_BETA as i32, about: "beta for multiplicative increase" },
        Param { name: "initial_ssthresh", default: 0, about: "initial value of slow start threshold" },
        Param { name: "bic_scale", default: DEFAULT_BIC_SCALE as i32, about: "scale (scaled by 1024) value for bic function (bic_scale/1024)" },
        Param { name: "tcp_friendliness", default: 1, about: "turn on/off tcp friendliness" },
    ];

    fn init(&mut self, sk: &mut Sock) {
        self.reset();
        if sk.p[INITIAL_SSTHRESH] != 0 {
            sk.snd_ssthresh = sk.p[INITIAL_SSTHRESH] as i64 as u64;
        }
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, good: bool) {
        if good {
            self.measure_delay(sk);
        }
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
        (sk.snd_cwnd.wrapping_mul(beta) / BETA_SCALE).max(2)
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

    #[test]
    fn derived_constants() {
        // 8*1843/3 = 4914, /205 = 23; 2^40/410 = 2681735677.
        assert_eq!(BETA_SCALE_FRIENDLY, 23);
        assert_eq!(CUBE_RTT_SCALE, 410);
        assert_eq!(CUBE_FACTOR, 2_681_735_677);
    }

    /// The cube root is within 0.2% (tiny arguments from the table).
    #[test]
    fn cube_root() {
        assert_eq!(cubic_root(0), 0);
        assert_eq!(cubic_root(1), 1, "(54 + 35) >> 6");
        // 27 < 64: from the table, v[27] = 190: (190 + 35) >> 6 = 3.
        assert_eq!(cubic_root(27), 3);
        for n in [100u64, 1000, 12345, 1 << 20, 2_681_735_677 * 20] {
            let exact = (n as f64).cbrt();
            let r = cubic_root(n) as f64;
            assert!((r - exact).abs() <= exact * 0.01 + 1.0, "cbrt({n}) = {r}, exact {exact}");
        }
    }

    /// A loss at cwnd 100 keeps 100*819/1024 = 79 and remembers Wmax 100.
    /// At cwnd 81 the epoch starts: K is the cube root of cube_factor *
    /// (100 - 81) = 2681735677*19 in 1/1024 s, (19 * 2^40/410)^(1/3) =
    /// 3705 (3.6 s; the integer root gives 3704 or 3705); at t = 0 the
    /// target is W(0) = 100 - 410 K^3 >> 40 = 100 - 18 = 82 (18.98
    /// truncated), one above cwnd: cnt = 81/1 = 81 ACKs per segment, times
    /// 16/32 for the assumed two segments per ACK: 40.
    #[test]
    fn cubic_function_after_loss() {
        let mut c = Cubic::default();
        let mut sk = Sock { snd_cwnd: 100, snd_ssthresh: 50, snd_cwnd_clamp: 100_000, ..Default::default() };
        for (i, p) in Cubic::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        c.init(&mut sk);
        sk.snd_ssthresh = c.ssthresh(&sk);
        assert_eq!((sk.snd_ssthresh, c.last_max_cwnd, c.loss_cwnd), (79, 100, 100));
        sk.snd_cwnd = 81;
        sk.now_jiffies = 10_000;
        c.update(&sk, 81);
        let k = c.bic_k;
        let exact = ((19u64 * CUBE_FACTOR) as f64).cbrt();
        assert!((k as f64 - exact).abs() < exact * 0.002, "K {k} vs {exact}");
        assert_eq!(c.bic_origin_point, 100);
        assert_eq!(c.cnt, 81 * 16 / 32);
    }
}
