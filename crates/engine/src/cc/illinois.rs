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
//! ns-3.37's TcpIllinois follows the same module on byte windows, with
//! RTTs from its own measurement.

use super::{reno, CaState, CongestionOps, Param, Sock};

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
}
