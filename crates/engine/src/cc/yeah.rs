//! YeAH-TCP (Baiocchi, Castellani, Vacirca, "YeAH-TCP: Yet Another
//! Highspeed TCP", PFLDnet 2007), as Linux 2.6.2x's tcp_yeah.c (ns-2's
//! copy tcp/linux/src/tcp_yeah.c): a fast mode that grows like Scalable
//! TCP (one segment per min(cwnd, 100) segments acknowledged) while
//! Vegas's estimate of the queue stays below `alpha` (80 packets) and the
//! RTT within `phy` (1/8) of the base RTT, else a slow (Reno) mode that
//! drains the queue (cwnd cut by the queue estimate, at most a half, not
//! below `reno_count`); at a loss ssthresh is cwnd less the last queue
//! estimate (between cwnd/8 and cwnd/2) in fast mode (fewer than `rho`
//! = 16 RTTs of slow mode), half the window otherwise.
//!
//! ns-3.37's TcpYeah has the same constants as attributes and works on
//! byte windows; its fast mode calls TcpScalable's increase.

use super::{reno, vegas::Vegas, CaEvent, CaState, CongestionOps, Sock};

pub const ALPHA: u64 = 80;
pub const GAMMA: u64 = 1;
pub const DELTA: u32 = 3;
pub const EPSILON: u32 = 1;
pub const PHY: u64 = 8;
pub const RHO: u64 = 16;
pub const ZETA: u64 = 50;
/// Scalable TCP's increase in fast mode: one per this many ACKed at most.
pub const SCALABLE_AI_CNT: u64 = 100;

#[derive(Clone, Debug, Default)]
pub struct Yeah {
    pub vegas: Vegas,
    pub last_q: u64,
    /// RTTs in slow (Reno) mode so far (0: fast mode).
    pub doing_reno_now: u64,
    pub reno_count: u64,
    pub fast_count: u64,
    pub pkts_acked: u64,
}

impl CongestionOps for Yeah {
    const NAME: &'static str = "yeah";
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.vegas.init(sk);
        self.doing_reno_now = 0;
        self.last_q = 0;
        self.reno_count = 2;
        sk.snd_cwnd_clamp = (sk.snd_cwnd_clamp as u64).min(0xffff_ffff / 128) as u32;
    }

    fn pkts_acked(&mut self, sk: &mut Sock, pkts_acked: u64, last: i64) {
        if sk.ca_state == CaState::Open {
            self.pkts_acked = pkts_acked;
        }
        self.vegas.pkts_acked(sk, pkts_acked, last);
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        self.vegas.set_state(sk, new);
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        self.vegas.cwnd_event(sk, ev);
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        } else if self.doing_reno_now == 0 {
            // Fast mode: Scalable TCP.
            sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(self.pkts_acked as u32);
            if sk.snd_cwnd_cnt as u64 > sk.snd_cwnd.min(SCALABLE_AI_CNT) {
                if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd += 1;
                }
                sk.snd_cwnd_cnt = 0;
            }
            self.pkts_acked = 1;
        } else {
            // Slow mode: Reno.
            if (sk.snd_cwnd_cnt as u64) < sk.snd_cwnd {
                sk.snd_cwnd_cnt += 1;
            }
            if sk.snd_cwnd_cnt as u64 >= sk.snd_cwnd {
                sk.snd_cwnd += 1;
                sk.snd_cwnd_cnt = 0;
            }
        }
        let v = &mut self.vegas;
        if v.beg_snd_nxt < ack {
            // Once per RTT: the queue estimate.
            if v.cnt_rtt > 2 {
                let rtt = v.min_rtt;
                let mut bw = sk.snd_cwnd.wrapping_mul(rtt.wrapping_sub(v.base_rtt));
                bw /= (rtt as u32) as u64;
                let queue = bw;
                if queue > ALPHA || rtt.wrapping_sub(v.base_rtt) > v.base_rtt / PHY {
                    if queue > ALPHA && sk.snd_cwnd > self.reno_count {
                        let reduction = (queue / GAMMA).min(sk.snd_cwnd >> EPSILON);
                        sk.snd_cwnd -= reduction;
                        sk.snd_cwnd = sk.snd_cwnd.max(self.reno_count);
                        sk.snd_ssthresh = sk.snd_cwnd;
                    }
                    if self.reno_count <= 2 {
                        self.reno_count = (sk.snd_cwnd >> 1).max(2);
                    } else {
                        self.reno_count += 1;
                    }
                    self.doing_reno_now = (self.doing_reno_now + 1).min(0xff_ffff);
                } else {
                    self.fast_count += 1;
                    if self.fast_count > ZETA {
                        self.reno_count = 2;
                        self.fast_count = 0;
                    }
                    self.doing_reno_now = 0;
                }
                self.last_q = queue;
            }
            let v = &mut self.vegas;
            v.beg_snd_una = v.beg_snd_nxt;
            v.beg_snd_nxt = sk.snd_nxt;
            v.beg_snd_cwnd = sk.snd_cwnd;
            v.cnt_rtt = 0;
            v.min_rtt = 0x7fff_ffff;
        }
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        let reduction = if self.doing_reno_now < RHO {
            self.last_q.min((sk.snd_cwnd >> 1).max(2)).max(sk.snd_cwnd >> DELTA)
        } else {
            (sk.snd_cwnd >> 1).max(2)
        };
        self.fast_count = 0;
        self.reno_count = (self.reno_count >> 1).max(2);
        sk.snd_cwnd.wrapping_sub(reduction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 200 over a base RTT of 100 ms with 150 ms measured: queue =
    /// 200 * 50 / 150 = 66 < alpha 80, but the RTT is 50 ms above base,
    /// more than base/8 = 12.5 ms: slow mode, reno_count = 100; no cut
    /// (queue below alpha).  At 250 ms, queue = 200 * 150/250 = 120 > 80:
    /// cut by min(120, 100) to 100 = ssthresh.  A loss in fast mode with
    /// last queue 66 at cwnd 200: ssthresh 200 - max(min(66, 100), 25) = 134.
    #[test]
    fn queue_estimate_drives_modes() {
        for (rtt, cwnd, ss, reno_count) in [(150_000u64, 200u64, 10u64, 100u64), (250_000, 100, 100, 50)] {
            let mut y = Yeah::default();
            let mut sk = Sock { snd_cwnd: 200, snd_ssthresh: 10, snd_cwnd_clamp: 100_000, snd_nxt: 300_000, ..Default::default() };
            y.init(&mut sk);
            y.vegas.base_rtt = 100_000;
            y.vegas.min_rtt = rtt;
            y.vegas.cnt_rtt = 3;
            y.vegas.beg_snd_nxt = 100_000;
            y.pkts_acked = 1;
            y.cong_avoid(&mut sk, 100_001, 0, 200, true);
            assert_eq!((sk.snd_cwnd, sk.snd_ssthresh, y.reno_count, y.doing_reno_now), (cwnd, ss, reno_count, 1), "RTT {rtt}");
        }
        let mut y = Yeah { last_q: 66, reno_count: 2, ..Default::default() };
        let sk = Sock { snd_cwnd: 200, ..Default::default() };
        assert_eq!(y.ssthresh(&sk), 134);
    }
}
