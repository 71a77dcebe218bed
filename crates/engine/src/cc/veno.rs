//! Veno (Fu, Liew, "TCP Veno: TCP enhancement for transmission over
//! wireless access networks", JSAC 2003), as Linux 2.6.2x's tcp_veno.c
//! (ns-2's copy tcp/linux/src/tcp_veno.c): Vegas's backlog estimate
//! N = cwnd (RTT - baseRTT) / RTT (here diff, in halves) tells random loss
//! from congestion: below beta (3 segments) a loss cuts to 4/5 and the
//! window grows one segment per window; at or above it the loss halves
//! and growth is one segment every other window.
//!
//! ns-2's copy never resets `cntrtt` (the round's sample count), so after
//! the first three samples the backlog is always worked out; kept here.
//! ns-3.37's TcpVeno resets it every RTT and works on byte windows.

use super::{reno, vegas, CaEvent, CaState, CongestionOps, Sock};

pub const V_PARAM_SHIFT: u32 = 1;
/// `beta`: 3 segments, in halves.
pub const BETA: u64 = 3 << V_PARAM_SHIFT;

#[derive(Clone, Debug, Default)]
pub struct Veno {
    pub doing_veno_now: bool,
    pub cntrtt: u32,
    pub minrtt: u64,
    pub basertt: u64,
    /// Whether to grow at the next window (every other one when congested).
    pub inc: bool,
    /// The backlog estimate, in halves of segments.
    pub diff: u64,
}

impl CongestionOps for Veno {
    const NAME: &'static str = "veno";
    const RTT_STAMP: bool = true;

    fn init(&mut self, _sk: &mut Sock) {
        self.basertt = 0x7fff_ffff;
        self.inc = true;
        self.doing_veno_now = true;
        self.minrtt = 0x7fff_ffff;
    }

    fn pkts_acked(&mut self, sk: &mut Sock, _cnt: u64, last_ns: i64) {
        let Some(vrtt) = vegas::sample_us(sk, last_ns) else { return };
        if vrtt < self.basertt {
            self.basertt = vrtt;
        }
        self.minrtt = self.minrtt.min(vrtt);
        self.cntrtt = self.cntrtt.wrapping_add(1);
    }

    fn set_state(&mut self, _sk: &mut Sock, new: CaState) {
        if new == CaState::Open {
            self.doing_veno_now = true;
            self.minrtt = 0x7fff_ffff;
        } else {
            self.doing_veno_now = false;
        }
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        if ev == CaEvent::CwndRestart || ev == CaEvent::TxStart {
            self.init(sk);
        }
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !self.doing_veno_now {
            return reno::cong_avoid(sk, in_flight);
        }
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if self.cntrtt <= 2 {
            reno::cong_avoid(sk, in_flight);
        } else {
            let rtt = self.minrtt;
            let target_cwnd = (sk.snd_cwnd.wrapping_mul(self.basertt) << V_PARAM_SHIFT) / rtt;
            self.diff = (sk.snd_cwnd << V_PARAM_SHIFT).wrapping_sub(target_cwnd);
            if sk.snd_cwnd <= sk.snd_ssthresh {
                sk.slow_start();
            } else if self.diff < BETA {
                let w = sk.snd_cwnd;
                sk.cong_avoid_ai(w);
            } else if sk.snd_cwnd_cnt as u64 >= sk.snd_cwnd {
                if self.inc && sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd += 1;
                    self.inc = false;
                } else {
                    self.inc = true;
                }
                sk.snd_cwnd_cnt = 0;
            } else {
                sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(1);
            }
            if sk.snd_cwnd < 2 {
                sk.snd_cwnd = 2;
            } else if sk.snd_cwnd > sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd = sk.snd_cwnd_clamp as u64;
            }
        }
        self.minrtt = 0x7fff_ffff;
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        if self.diff < BETA {
            (sk.snd_cwnd * 4 / 5).max(2)
        } else {
            (sk.snd_cwnd >> 1).max(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 50, baseRTT 100 ms, RTT 104 ms: target = 50*100/104 = 48.08
    /// (<< 1: 96), diff = 100 - 96 = 4 halves (2 segments) < beta 6: a
    /// random loss, cut to 50*4/5 = 40.  RTT 120 ms: target 83, diff 17:
    /// congestion, halved to 25, and growth every other window.
    #[test]
    fn loss_kind_from_backlog() {
        for (rtt, cut) in [(104_000u64, 40u64), (120_000, 25)] {
            let mut v = Veno::default();
            let mut sk = Sock { snd_cwnd: 50, snd_ssthresh: 10, snd_cwnd_clamp: 1000, ..Default::default() };
            v.init(&mut sk);
            v.basertt = 100_000;
            v.cntrtt = 3;
            v.minrtt = rtt;
            v.cong_avoid(&mut sk, 0, 0, 50, true);
            assert_eq!(v.ssthresh(&sk), cut, "RTT {rtt}");
        }
        // Congested: the first full window adds one, the second none.
        let mut v = Veno::default();
        let mut sk = Sock { snd_cwnd: 5, snd_ssthresh: 2, snd_cwnd_clamp: 1000, ..Default::default() };
        v.init(&mut sk);
        v.basertt = 100_000;
        v.cntrtt = 3;
        let mut grown = vec![];
        for _ in 0..12 {
            v.minrtt = 200_000;
            v.cong_avoid(&mut sk, 0, 0, 100, true);
            grown.push(sk.snd_cwnd);
        }
        assert_eq!(grown, vec![5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6]);
    }
}
