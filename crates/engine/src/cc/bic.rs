//! BIC (Xu, Harfoush, Rhee, "Binary Increase Congestion Control for Fast,
//! Long Distance Networks", INFOCOM 2004), as Linux 2.6.2x's tcp_bic.c
//! (ns-2's copy tcp/linux/src/tcp_bic.c): below the window of the last
//! loss a binary search towards it (at most `max_increment` segments per
//! RTT), above it a slow, then linear, probe; `beta`/1024 kept at a loss,
//! fast convergence; Reno below `low_window`.  ACKs are counted with the
//! delayed-ACK ratio estimate (`delayed_ack`, `pkts_acked`).
//!
//! ns-3.37's TcpBic follows the same module but without the delayed-ACK
//! ratio (cnt is used as is) and counts `segmentsAcked`.

use super::{CaState, CongestionOps, Param, Sock, HZ};

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
}
