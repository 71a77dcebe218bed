//! ns-2's "naive_reno" (tcp/linux/tcp_naivereno.c), the example module of
//! ns-2's TCP-Linux: slow start by one per ACK below ssthresh, `alpha`
//! segments per window above it, a cut of 1/`beta` of the window, and
//! the window after fast retransmit is ssthresh.  Not in Linux or ns-3.

use super::{CongestionOps, Param, Sock};

pub const ALPHA: usize = 0;
pub const BETA: usize = 1;

#[derive(Clone, Debug, Default)]
pub struct NaiveReno;

impl CongestionOps for NaiveReno {
    const NAME: &'static str = "naive_reno";
    const PARAMS: &'static [Param] = &[
        Param { name: "alpha", default: 1, about: "AI increment size of window (in unit of pkt/round trip time)" },
        Param { name: "beta", default: 2, about: "MD decrement portion of window: every loss the window is reduced by a proportion of 1/beta" },
    ];
    const HAS_MIN_CWND: bool = true;

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        let reduction = (sk.snd_cwnd as i64).checked_div(sk.p[BETA] as i64).unwrap_or(0) as u64;
        sk.snd_cwnd.wrapping_sub(reduction).max(2)
    }
    fn min_cwnd(&self, sk: &Sock) -> u64 {
        sk.snd_ssthresh
    }
    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, _in_flight: u64, _good: bool) {
        if sk.snd_cwnd < sk.snd_ssthresh {
            sk.snd_cwnd += 1;
        } else if sk.snd_cwnd_cnt as u64 >= sk.snd_cwnd {
            sk.snd_cwnd = sk.snd_cwnd.wrapping_add(sk.p[ALPHA] as i64 as u64);
            sk.snd_cwnd_cnt = 0;
            if sk.snd_cwnd > sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd = sk.snd_cwnd_clamp as u64;
            }
        } else {
            sk.snd_cwnd_cnt += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// alpha 1, beta 2: +1 per ACK below ssthresh; above it +alpha once
    /// cwnd_cnt reaches cwnd (after cwnd+1 ACKs); ssthresh = cwnd - cwnd/2.
    #[test]
    fn increase_and_cut() {
        let mut c = NaiveReno;
        let mut sk = Sock { snd_cwnd: 3, snd_ssthresh: 4, snd_cwnd_clamp: 100, ..Default::default() };
        sk.p[ALPHA] = 1;
        sk.p[BETA] = 2;
        c.cong_avoid(&mut sk, 0, 0, 0, true);
        assert_eq!(sk.snd_cwnd, 4);
        for _ in 0..4 {
            c.cong_avoid(&mut sk, 0, 0, 0, true);
        }
        assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (4, 4));
        c.cong_avoid(&mut sk, 0, 0, 0, true);
        assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (5, 0));
        assert_eq!(c.ssthresh(&sk), 3, "5 - 5/2");
    }
}
