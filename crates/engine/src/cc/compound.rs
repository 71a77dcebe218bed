//! Compound TCP (Tan, Song, Zhang, Sridharan, "A compound TCP approach for
//! high-speed and long distance networks", INFOCOM 2006), as ns-2's copy
//! of the Linux patch by Angelo Castellani and Lachlan Andrew
//! (tcp/linux/src/tcp_compound.c): the window is a Reno part (`cwnd`)
//! plus a delay-based part (`dwnd`) that grows by (win^3)^(1/4)/8 - 1 per
//! RTT while Vegas's queue estimate diff stays below gamma (30 packets)
//! and shrinks by diff (beta 1) beyond it.  RTT samples come from the
//! sender's RTT estimator (`rtt_sample`, in microseconds + 1).
//!
//! Not in mainline Linux or ns-3.37.

use super::{fls, fls64, reno, CaEvent, CaState, CongestionOps, Sock};

pub const V_PARAM_SHIFT: u32 = 1;
pub const ALPHA: u32 = 3;
pub const BETA: u64 = 1;
pub const GAMMA: u64 = 30;

#[derive(Clone, Debug, Default)]
pub struct Compound {
    pub beg_snd_nxt: u64,
    pub beg_snd_una: u64,
    pub beg_snd_cwnd: u64,
    pub doing_vegas_now: bool,
    pub cnt_rtt: u32,
    pub min_rtt: u64,
    pub base_rtt: u64,
    /// The loss-based window.
    pub cwnd: u64,
    /// The delay-based window.
    pub dwnd: u64,
}

/// `cdiv64_64`: divide, the divisor shifted into 32 bits first.
fn cdiv64_64(mut dividend: u64, divisor: u64) -> u64 {
    let mut d = divisor;
    if divisor > 0xffff_ffff {
        let shift = fls((divisor >> 32) as u32);
        d = divisor >> shift;
        dividend >>= shift;
    }
    if dividend >> 32 != 0 {
        dividend / ((d as u32) as u64)
    } else {
        dividend / d
    }
}

/// `qroot`: the fourth root by Newton's method.
pub fn qroot(a: u64) -> u64 {
    let mut x: u64 = 1u64 << (fls64(a) >> 2);
    loop {
        let x1 = x;
        let x3 = x.wrapping_mul(x).wrapping_mul(x);
        x = (3 * x + cdiv64_64(a, x3)) / 4;
        // abs() of the difference as an int, as ns-2 has it.
        if (x1.wrapping_sub(x) as i32 as i64).abs() <= 1 {
            break;
        }
    }
    x
}

impl Compound {
    fn enable(&mut self, sk: &Sock) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = sk.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }
}

impl CongestionOps for Compound {
    const NAME: &'static str = "compound";
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;
    const HAS_RTT_SAMPLE: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.base_rtt = 0x7fff_ffff;
        self.enable(sk);
        self.dwnd = 0;
        self.cwnd = sk.snd_cwnd;
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn rtt_sample(&mut self, _sk: &mut Sock, usrtt: u64) {
        let vrtt = usrtt.wrapping_add(1);
        if vrtt < self.base_rtt {
            self.base_rtt = vrtt;
        }
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Open {
            self.enable(sk);
        } else {
            self.doing_vegas_now = false;
        }
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        if ev == CaEvent::CwndRestart || ev == CaEvent::TxStart {
            self.init(sk);
        }
    }

    fn cong_avoid(&mut self, sk: &mut Sock, ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if self.cwnd.wrapping_add(self.dwnd) > sk.snd_cwnd {
            if self.cwnd > sk.snd_cwnd || self.dwnd > sk.snd_cwnd {
                self.cwnd = sk.snd_cwnd;
                self.dwnd = 0;
            } else {
                self.cwnd = sk.snd_cwnd - self.dwnd;
            }
        }
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        let mut inc = false;
        if self.cwnd <= sk.snd_ssthresh {
            inc = true;
        } else if (sk.snd_cwnd_cnt as u64) < sk.snd_cwnd {
            sk.snd_cwnd_cnt += 1;
        }
        if sk.snd_cwnd_cnt as u64 >= sk.snd_cwnd {
            inc = true;
            sk.snd_cwnd_cnt = 0;
        }
        if inc && sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
            self.cwnd += 1;
        }
        if self.beg_snd_nxt < ack {
            if sk.mss_cache == 0 {
                return;
            }
            let old_wnd = self.beg_snd_nxt.wrapping_sub(self.beg_snd_una) / sk.mss_cache;
            self.beg_snd_una = self.beg_snd_nxt;
            self.beg_snd_nxt = sk.snd_nxt;
            self.beg_snd_cwnd = sk.snd_cwnd;
            if self.cnt_rtt > 2 {
                let rtt = self.min_rtt;
                if rtt == 0 {
                    return;
                }
                let brtt = self.base_rtt;
                let target_cwnd = (old_wnd.wrapping_mul(brtt) << V_PARAM_SHIFT) / rtt;
                let diff = (old_wnd << V_PARAM_SHIFT).wrapping_sub(target_cwnd);
                let mut dwnd = self.dwnd;
                if diff < (GAMMA << V_PARAM_SHIFT) {
                    let win3 = old_wnd.wrapping_mul(old_wnd).wrapping_mul(old_wnd);
                    let x = qroot(win3) >> ALPHA;
                    dwnd = if x > 1 { x - 1 } else { 0 };
                    dwnd = dwnd.wrapping_add(self.dwnd);
                } else if (dwnd << V_PARAM_SHIFT) < diff.wrapping_mul(BETA) {
                    dwnd = 0;
                } else {
                    dwnd = ((dwnd << V_PARAM_SHIFT) - diff.wrapping_mul(BETA)) >> V_PARAM_SHIFT;
                }
                self.dwnd = dwnd;
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
        }
        sk.snd_cwnd = self.cwnd.wrapping_add(self.dwnd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourth_root() {
        assert_eq!(qroot(0), 0);
        assert_eq!(qroot(16), 2);
        assert_eq!(qroot(10_000), 10);
        assert_eq!(qroot(100u64.pow(4)), 100);
    }

    /// A round of 64 segments with no queueing (minRTT = baseRTT): diff 0
    /// < gamma: dwnd grows by (64^3)^(1/4)/8 - 1 = 22.6/8 - 1 = 1; cwnd
    /// (Reno part, 64, at ssthresh) + 1 by slow start's inc, so the window
    /// is 65 + 1.  With 40 queued (diff 80 halves > 60): dwnd 10 shrinks to
    /// (20 - 80) < 0: 0.
    #[test]
    fn delay_window() {
        let mut c = Compound::default();
        let mut sk = Sock { snd_cwnd: 64, snd_ssthresh: 64, snd_cwnd_clamp: 10_000, mss_cache: 1000, snd_nxt: 200_000, ..Default::default() };
        c.init(&mut sk);
        c.beg_snd_una = 0;
        c.beg_snd_nxt = 64_000;
        c.base_rtt = 100_000;
        c.min_rtt = 100_000;
        c.cnt_rtt = 3;
        c.cong_avoid(&mut sk, 64_001, 0, 64, true);
        assert_eq!((c.cwnd, c.dwnd, sk.snd_cwnd), (65, 1, 66));
        c.dwnd = 10;
        c.cwnd = 56;
        sk.snd_cwnd = 66;
        c.beg_snd_una = 0;
        c.beg_snd_nxt = 100_000;
        c.base_rtt = 60_000;
        c.min_rtt = 100_000;
        c.cnt_rtt = 3;
        sk.snd_ssthresh = 10;
        c.cong_avoid(&mut sk, 100_001, 0, 66, true);
        assert_eq!(c.dwnd, 0);
    }
}
