//! Vegas (Brakmo, Peterson, "TCP Vegas: end to end congestion avoidance on
//! a global Internet", JSAC 1995), as Linux 2.6.2x's tcp_vegas.c (ns-2's
//! copy tcp/linux/src/tcp_vegas.c): once per RTT, from the minimum RTT of
//! the last round (`minRTT`) and the least ever seen (`baseRTT`), the
//! expected window target = old window * baseRTT / minRTT; diff = old
//! window - target (both << 1); in slow start leave it when diff > gamma,
//! else +1 when diff < alpha and -1 when diff > beta.  Reno while fewer
//! than three RTT samples came in the round, or in a state other than
//! Open.  RTTs come from the send times of acknowledged segments
//! (`pkts_acked`, in microseconds + 1).
//!
//! ns-3.37's TcpVegas is the same algorithm on byte windows with alpha 2,
//! beta 4, gamma 1 unscaled (here 2<<1, 4<<1, 1<<1 in halves), and leaves
//! slow start with cwnd = min(cwnd, target + 1) and ssthresh = min(ssthresh,
//! cwnd - 1) rather than ssthresh = 2.

use super::{reno, CaEvent, CaState, CongestionOps, Param, Sock};

/// `V_PARAM_SHIFT`: alpha, beta, gamma and diff are in halves.
pub const V_PARAM_SHIFT: u32 = 1;

pub const ALPHA: usize = 0;
pub const BETA: usize = 1;
pub const GAMMA: usize = 2;

#[derive(Clone, Debug, Default)]
pub struct Vegas {
    /// Right edge of the current round.
    pub beg_snd_nxt: u64,
    /// Left edge of the current round.
    pub beg_snd_una: u64,
    /// The window at the start of the round.
    pub beg_snd_cwnd: u64,
    pub doing_vegas_now: bool,
    /// RTT samples in the round (an `unsigned int` in ns-2's build).
    pub cnt_rtt: u32,
    /// Least RTT of the round, us.
    pub min_rtt: u64,
    /// Least RTT ever, us.
    pub base_rtt: u64,
}

impl Vegas {
    fn enable(&mut self, sk: &Sock) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = sk.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }
}

/// The RTT of a segment sent at `last_ns` (`ktime`), acknowledged now, in
/// microseconds + 1 (`ktime_to_us(net_timedelta(last)) + 1`); None for no
/// send time (0).
pub fn sample_us(sk: &Sock, last_ns: i64) -> Option<u64> {
    if last_ns == 0 {
        return None;
    }
    Some(((sk.now_ns - last_ns) / 1000 + 1) as u64)
}

impl CongestionOps for Vegas {
    const NAME: &'static str = "vegas";
    const PARAMS: &'static [Param] = &[
        Param { name: "alpha", default: 2 << V_PARAM_SHIFT, about: "lower bound of packets in network (scale by 2)" },
        Param { name: "beta", default: 4 << V_PARAM_SHIFT, about: "upper bound of packets in network (scale by 2)" },
        Param { name: "gamma", default: 1 << V_PARAM_SHIFT, about: "limit on increase (scale by 2)" },
    ];
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.base_rtt = 0x7fff_ffff;
        self.enable(sk);
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn pkts_acked(&mut self, sk: &mut Sock, _cnt: u64, last_ns: i64) {
        let Some(vrtt) = sample_us(sk, last_ns) else { return };
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
        if !self.doing_vegas_now {
            return reno::cong_avoid(sk, in_flight);
        }
        let (alpha, beta, gamma) = (sk.p[ALPHA] as i64 as u64, sk.p[BETA] as i64 as u64, sk.p[GAMMA] as i64 as u64);
        if self.beg_snd_nxt < ack {
            // A round is over: the window it started with, in segments.
            let old_wnd = self.beg_snd_nxt.wrapping_sub(self.beg_snd_una).checked_div(sk.mss_cache).unwrap_or(0);
            let old_snd_cwnd = self.beg_snd_cwnd;
            self.beg_snd_una = self.beg_snd_nxt;
            self.beg_snd_nxt = sk.snd_nxt;
            self.beg_snd_cwnd = sk.snd_cwnd;
            if self.cnt_rtt <= 2 {
                reno::cong_avoid(sk, in_flight);
            } else {
                let rtt = self.min_rtt;
                let target_cwnd = (old_wnd.wrapping_mul(self.base_rtt) << V_PARAM_SHIFT) / rtt;
                let diff = (old_wnd << V_PARAM_SHIFT).wrapping_sub(target_cwnd);
                if sk.snd_cwnd <= sk.snd_ssthresh {
                    if diff > gamma {
                        sk.snd_ssthresh = 2;
                        sk.snd_cwnd = sk.snd_cwnd.min((target_cwnd >> V_PARAM_SHIFT) + 1);
                    }
                    sk.slow_start();
                } else {
                    let next_snd_cwnd = if diff > beta {
                        old_snd_cwnd.wrapping_sub(1)
                    } else if diff < alpha {
                        old_snd_cwnd + 1
                    } else {
                        old_snd_cwnd
                    };
                    if next_snd_cwnd > sk.snd_cwnd {
                        sk.snd_cwnd += 1;
                    } else if next_snd_cwnd < sk.snd_cwnd {
                        sk.snd_cwnd -= 1;
                    }
                }
                if sk.snd_cwnd < 2 {
                    sk.snd_cwnd = 2;
                } else if sk.snd_cwnd > sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd = sk.snd_cwnd_clamp as u64;
                }
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
        } else if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sock() -> Sock {
        let mut sk = Sock { mss_cache: 1000, snd_cwnd_clamp: 10_000, ..Default::default() };
        for (i, p) in Vegas::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// A round of 20 segments (old window 20) with baseRTT 100 ms and
    /// minRTT 125 ms: target = 20*100/125 = 16 segments (<< 1: 32), diff
    /// = 40 - 32 = 8 halves = 4 segments queued.  In congestion avoidance,
    /// 8 is beta (4 << 1) exactly: neither above beta nor below alpha
    /// (4): the window stays; with minRTT 150 ms, target 13.33 -> 26,
    /// diff 14 > 8: one less than the round's start window.
    #[test]
    fn window_follows_queue_estimate() {
        for (min_rtt, want) in [(125_000u64, 30u64), (150_000, 29), (101_000, 31)] {
            let mut v = Vegas::default();
            let mut sk = sock();
            sk.snd_cwnd = 30;
            sk.snd_ssthresh = 10;
            v.init(&mut sk);
            v.beg_snd_una = 0;
            v.beg_snd_nxt = 20_000;
            v.beg_snd_cwnd = 30;
            v.base_rtt = 100_000;
            v.min_rtt = min_rtt;
            v.cnt_rtt = 3;
            sk.snd_nxt = 50_000;
            v.cong_avoid(&mut sk, 20_001, 0, 30, true);
            assert_eq!(sk.snd_cwnd, want, "minRTT {min_rtt}");
            assert_eq!((v.beg_snd_una, v.beg_snd_nxt, v.cnt_rtt), (20_000, 50_000, 0));
        }
    }

    /// RTT samples: now 1.5 s, sent at 1.2 s: 300000 us + 1.
    #[test]
    fn samples_from_send_times() {
        let mut v = Vegas::default();
        let mut sk = sock();
        v.init(&mut sk);
        sk.now_ns = 1_500_000_000;
        v.pkts_acked(&mut sk, 1, 1_200_000_000);
        assert_eq!((v.base_rtt, v.min_rtt, v.cnt_rtt), (300_001, 300_001, 1));
        v.pkts_acked(&mut sk, 1, 0);
        assert_eq!(v.cnt_rtt, 1, "no send time: no sample");
    }
}
