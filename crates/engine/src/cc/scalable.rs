//! Scalable TCP (Kelly, "Scalable TCP: improving performance in highspeed
//! wide area networks", CCR 2003), as Linux 2.6.2x's tcp_scalable.c (ns-2's
//! copy tcp/linux/src/tcp_scalable.c): above ssthresh one segment per
//! min(cwnd, 50) ACKs (a = 0.01 per ACK), a cut by 1/8 (b = 0.125).
//!
//! ns-3.37's TcpScalable counts `segmentsAcked` rather than ACKs and its
//! cut is `max(cwnd * (1 - 0.125), 2)` of the bytes in flight.

use super::{reno, CongestionOps, Sock};

/// `TCP_SCALABLE_AI_CNT`: ACKs per one-segment increase at most.
pub const AI_CNT: u64 = 50;
/// `TCP_SCALABLE_MD_SCALE`: the cut is cwnd >> 3.
pub const MD_SCALE: u32 = 3;

#[derive(Clone, Debug, Default)]
pub struct Scalable;

impl CongestionOps for Scalable {
    const NAME: &'static str = "scalable";
    const HAS_MIN_CWND: bool = true;

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        (sk.snd_cwnd - (sk.snd_cwnd >> MD_SCALE)).max(2)
    }
    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }
    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            sk.slow_start();
        } else {
            sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(1);
            if sk.snd_cwnd_cnt as u64 > sk.snd_cwnd.min(AI_CNT) {
                if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                    sk.snd_cwnd += 1;
                }
                sk.snd_cwnd_cnt = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 100 > 50: one segment every 51 ACKs (cnt must exceed 50); the
    /// cut keeps 100 - 100/8 = 88; the window after fast retransmit is
    /// Reno's ssthresh/2 = 44.
    #[test]
    fn fixed_increase_and_eighth_cut() {
        let mut c = Scalable;
        let mut sk = Sock { snd_cwnd: 100, snd_ssthresh: 10, snd_cwnd_clamp: 1000, ..Default::default() };
        for _ in 0..50 {
            c.cong_avoid(&mut sk, 0, 0, 100, true);
        }
        assert_eq!(sk.snd_cwnd, 100);
        c.cong_avoid(&mut sk, 0, 0, 100, true);
        assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (101, 0));
        sk.snd_cwnd = 100;
        sk.snd_ssthresh = c.ssthresh(&sk);
        assert_eq!(sk.snd_ssthresh, 88);
        assert_eq!(c.min_cwnd(&sk), 44);
        // A small window: one segment every cwnd+1 ACKs (cwnd 8: 9 ACKs).
        let mut sk = Sock { snd_cwnd: 8, snd_ssthresh: 2, snd_cwnd_clamp: 1000, ..Default::default() };
        for _ in 0..9 {
            c.cong_avoid(&mut sk, 0, 0, 8, true);
        }
        assert_eq!(sk.snd_cwnd, 9);
    }
}
