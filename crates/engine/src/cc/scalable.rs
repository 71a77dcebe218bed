//! Scalable TCP (Kelly, "Scalable TCP: improving performance in highspeed
//! wide area networks", CCR 2003), as Linux 2.6.2x's tcp_scalable.c (ns-2's
//! copy tcp/linux/src/tcp_scalable.c): above ssthresh one segment per
//! min(cwnd, 50) ACKs (a = 0.01 per ACK), a cut by 1/8 (b = 0.125).
//!
//! The ns-3 dialect is ns-3.37's TcpScalable (tcp-scalable.cc): NewReno's
//! slow start, then a counter of `segmentsAcked` (not ACKs) that adds one
//! segment per min(cwnd, ai_factor) counted (several at once when one ACK
//! covers more), the window rounded down to whole segments when it grows;
//! on loss ssthresh = max(2, (flight in whole segments) * (1 - 0.125))
//! segments.  Attribute `ai_factor` [AIFactor] (50); [MDFactor] is 0.125.

use super::{reno, CaEvent, CaState, CongestionOps, Param, Sock};

/// `TCP_SCALABLE_AI_CNT`: ACKs per one-segment increase at most.
pub const AI_CNT: u64 = 50;
/// `TCP_SCALABLE_MD_SCALE`: the cut is cwnd >> 3.
pub const MD_SCALE: u32 = 3;

/// ns-3's [MDFactor].
pub const NS3_MD_FACTOR: f64 = 0.125;

#[derive(Clone, Debug, Default)]
pub struct Scalable {
    /// ns-3 dialect: segments counted towards the next increase (`m_ackCnt`).
    pub ack_cnt: u32,
}

impl Scalable {
    /// `TcpScalable::CongestionAvoidance` with an additive-increase factor
    /// (YeAH's fast mode runs it with 100).
    pub fn ns3_congestion_avoidance(&mut self, sk: &mut Sock, segments_acked: u32, ai_factor: u32) {
        let mut seg_cwnd = sk.cwnd_segments();
        let old = seg_cwnd;
        let w = seg_cwnd.min(ai_factor);
        if self.ack_cnt >= w {
            self.ack_cnt = 0;
            seg_cwnd += 1;
        }
        self.ack_cnt += segments_acked;
        if self.ack_cnt >= w {
            // w is 0 only for a window under one segment (ns-3 asserts)
            let delta = if w == 0 { 0 } else { self.ack_cnt / w };
            self.ack_cnt = 0;
            seg_cwnd += delta;
        }
        if seg_cwnd != old {
            sk.cwnd_bytes = seg_cwnd.wrapping_mul(sk.mss_cache as u32);
        }
    }

    /// `TcpScalable::IncreaseWindow` (TcpNewReno's, with the above).
    pub fn ns3_increase(&mut self, sk: &mut Sock, segments_acked: u32, ai_factor: u32) {
        reno::ns3_increase_with(sk, segments_acked, |sk, n| self.ns3_congestion_avoidance(sk, n, ai_factor))
    }
}

impl CongestionOps for Scalable {
    const NAME: &'static str = "scalable";
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;
    const NS3_PKTS_ACKED: bool = false;
    const NS3_PARAMS: &'static [Param] = &[Param { name: "ai_factor", default: 50, about: "Additive Increase Factor [AIFactor]" }];

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

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        let seg = bytes_in_flight / sk.mss_cache.max(1) as u32;
        let ss = (seg as f64 * (1.0 - NS3_MD_FACTOR)).max(2.0) as u32;
        ss.wrapping_mul(sk.mss_cache as u32)
    }
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let ai = sk.p[0].max(0) as u32;
        self.ns3_increase(sk, segments_acked, ai)
    }
    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, _rtt_ns: i64) {}
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 100 > 50: one segment every 51 ACKs (cnt must exceed 50); the
    /// cut keeps 100 - 100/8 = 88; the window after fast retransmit is
    /// Reno's ssthresh/2 = 44.
    #[test]
    fn fixed_increase_and_eighth_cut() {
        let mut c = Scalable::default();
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

    /// ns-3.37's tcp-scalable-test.cc, TcpScalableIncrementTest: from
    /// ssthresh 0 (CA at once) and a fresh counter, one IncreaseWindow of
    /// `acked` segments adds (acked / min(segCwnd, 50)) segments:
    /// 38 seg, 38 acked: w = 38, +1;  38 seg of 1 byte, 100 acked: w = 38,
    /// +2;  53 seg of 1446, 50 acked: w = 50, +1.
    #[test]
    fn ns3_increment_tests() {
        for (cwnd, mss, acked, grown) in [(38 * 536, 536, 38, 1), (38, 1, 100, 2), (53 * 1446, 1446, 50, 1)] {
            let mut c = Scalable::default();
            let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: 0, mss_cache: mss, ..Default::default() };
            sk.p[0] = 50;
            c.ns3_increase_window(&mut sk, acked);
            assert_eq!(sk.cwnd_bytes, cwnd + grown * mss as u32, "cwnd {cwnd} mss {mss} acked {acked}");
        }
    }

    /// ns-3.37's TcpScalableDecrementTest: GetSsThresh(cwnd as the flight)
    /// = max(2, segCwnd * 0.875) segments: 38 -> 33 (33.25), 100 -> 87
    /// (87.5), 40 -> 35.
    #[test]
    fn ns3_decrement_tests() {
        for (cwnd, mss, want) in [(38u32, 1u64, 33u32), (100 * 536, 536, 87), (40 * 1446, 1446, 35)] {
            let mut c = Scalable::default();
            let mut sk = Sock { cwnd_bytes: cwnd, mss_cache: mss, ..Default::default() };
            assert_eq!(c.ns3_ssthresh(&mut sk, cwnd) / mss as u32, want);
        }
        // a tiny flight keeps two segments
        let mut sk = Sock { mss_cache: 1448, ..Default::default() };
        assert_eq!(Scalable::default().ns3_ssthresh(&mut sk, 1448), 2 * 1448);
    }

    /// ns-3 dialect, the counter across ACKs: cwnd 10 segments (w = 10),
    /// delayed ACKs of 2: the fifth ACK brings the count to 10 -> +1 and 0;
    /// an ACK of 25 segments at 11 (w 11) adds 25/11 = 2 at once.
    #[test]
    fn ns3_counts_segments_not_acks() {
        let mut c = Scalable::default();
        let mut sk = Sock { cwnd_bytes: 10 * 1448, ssthresh_bytes: 2 * 1448, mss_cache: 1448, ..Default::default() };
        sk.p[0] = 50;
        for _ in 0..4 {
            c.ns3_increase_window(&mut sk, 2);
        }
        assert_eq!((sk.cwnd_bytes, c.ack_cnt), (10 * 1448, 8));
        c.ns3_increase_window(&mut sk, 2);
        assert_eq!((sk.cwnd_bytes, c.ack_cnt), (11 * 1448, 0));
        c.ns3_increase_window(&mut sk, 25);
        assert_eq!((sk.cwnd_bytes, c.ack_cnt), (13 * 1448, 0));
    }
}
