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
//! The ns-3 dialect is ns-3.37's TcpVegas (tcp-vegas.cc): the same
//! algorithm on a byte window with attributes alpha 2, beta 4, gamma 1 in
//! whole segments ([Alpha], [Beta], [Gamma]); the RTT it gets is the
//! socket's SRTT (ns-3.37 passes `m_lastRtt`, the estimate), kept in ns.
//! Once per round (the last ACK at or past the round's `m_nextTxSequence`)
//! with more than two samples: target = (uint) (segCwnd * baseRtt /
//! minRtt) of the current window (not the round's first), diff = segCwnd -
//! target; in slow start with diff > gamma: cwnd = min(segCwnd, target + 1)
//! segments and ssthresh = GetSsThresh; else slow start; in congestion
//! avoidance -1 segment (and ssthresh = GetSsThresh) when diff > beta, +1
//! when diff < alpha; then ssthresh = max(ssthresh, 3/4 cwnd).  With too
//! few samples NewReno's IncreaseWindow; within a round NewReno's slow
//! start only.  GetSsThresh = max(min(ssthresh, cwnd - MSS), 2 MSS).

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
    /// The ns-3 dialect's state.
    pub ns3: Ns3Vegas,
}

/// ns-3.37 TcpVegas's members (times in ns; `Time::Max()` is `i64::MAX`).
#[derive(Clone, Debug)]
pub struct Ns3Vegas {
    pub base_rtt: i64,
    pub min_rtt: i64,
    pub cnt_rtt: u32,
    pub doing_vegas_now: bool,
    pub beg_snd_nxt: u64,
}

impl Default for Ns3Vegas {
    fn default() -> Self {
        Ns3Vegas { base_rtt: i64::MAX, min_rtt: i64::MAX, cnt_rtt: 0, doing_vegas_now: true, beg_snd_nxt: 0 }
    }
}

/// ns-3's `Time::GetSeconds` of a time in ns.
#[inline]
pub fn seconds(ns: i64) -> f64 {
    ns as f64 / 1e9
}

/// ns-3's `PktsAcked` of Vegas, Veno and YeAH: the least RTT of the round
/// and ever, and the count of samples (a zero RTT is no sample).
#[inline]
pub fn ns3_sample(rtt_ns: i64, min_rtt: &mut i64, base_rtt: &mut i64, cnt_rtt: &mut u32) {
    if rtt_ns == 0 {
        return;
    }
    *min_rtt = (*min_rtt).min(rtt_ns);
    *base_rtt = (*base_rtt).min(rtt_ns);
    *cnt_rtt = cnt_rtt.wrapping_add(1);
}

/// `TcpVegas::GetSsThresh`.
pub fn ns3_ssthresh(sk: &Sock) -> u32 {
    let m = sk.mss_cache as u32;
    sk.ssthresh_bytes.min(sk.cwnd_bytes.wrapping_sub(m)).max(2 * m)
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
    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "alpha", default: 2, about: "Lower bound of packets in network [Alpha]" },
        Param { name: "beta", default: 4, about: "Upper bound of packets in network [Beta]" },
        Param { name: "gamma", default: 1, about: "Limit on increase [Gamma]" },
    ];

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

    fn ns3_init(&mut self, _sk: &mut Sock) {}

    fn ns3_ssthresh(&mut self, sk: &mut Sock, _bytes_in_flight: u32) -> u32 {
        ns3_ssthresh(sk)
    }

    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        let v = &mut self.ns3;
        ns3_sample(rtt_ns, &mut v.min_rtt, &mut v.base_rtt, &mut v.cnt_rtt);
    }

    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        let v = &mut self.ns3;
        if new == CaState::Open {
            // `EnableVegas`
            v.doing_vegas_now = true;
            v.beg_snd_nxt = sk.snd_nxt;
            v.cnt_rtt = 0;
            v.min_rtt = i64::MAX;
        } else {
            v.doing_vegas_now = false;
        }
    }

    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let (alpha, beta, gamma) = (sk.p[ALPHA] as u32, sk.p[BETA] as u32, sk.p[GAMMA] as u32);
        let v = &mut self.ns3;
        if !v.doing_vegas_now {
            return reno::ns3_increase_window(sk, segments_acked);
        }
        let m = sk.mss_cache as u32;
        if sk.snd_una >= v.beg_snd_nxt {
            // a round is over
            v.beg_snd_nxt = sk.snd_nxt;
            if v.cnt_rtt <= 2 {
                reno::ns3_increase_window(sk, segments_acked);
            } else {
                let mut seg_cwnd = sk.cwnd_segments();
                let target = (seg_cwnd as f64 * (seconds(v.base_rtt) / seconds(v.min_rtt))) as u32;
                let diff = seg_cwnd.wrapping_sub(target);
                if diff > gamma && sk.cwnd_bytes < sk.ssthresh_bytes {
                    seg_cwnd = seg_cwnd.min(target + 1);
                    sk.cwnd_bytes = seg_cwnd.wrapping_mul(m);
                    sk.ssthresh_bytes = ns3_ssthresh(sk);
                } else if sk.cwnd_bytes < sk.ssthresh_bytes {
                    reno::ns3_slow_start(sk, segments_acked);
                } else if diff > beta {
                    seg_cwnd = seg_cwnd.wrapping_sub(1);
                    sk.cwnd_bytes = seg_cwnd.wrapping_mul(m);
                    sk.ssthresh_bytes = ns3_ssthresh(sk);
                } else if diff < alpha {
                    seg_cwnd += 1;
                    sk.cwnd_bytes = seg_cwnd.wrapping_mul(m);
                }
                sk.ssthresh_bytes = sk.ssthresh_bytes.max(3u32.wrapping_mul(sk.cwnd_bytes) / 4);
            }
            v.cnt_rtt = 0;
            v.min_rtt = i64::MAX;
        } else if sk.cwnd_bytes < sk.ssthresh_bytes {
            reno::ns3_slow_start(sk, segments_acked);
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

    // ---- ns-3.37's tcp-vegas-test.cc, and the ns-3 dialect

    fn ns3_sock(cwnd_segs: u32, ssthresh: u32, mss: u32) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd_segs * mss, ssthresh_bytes: ssthresh, mss_cache: mss as u64, ..Default::default() };
        for (i, p) in Vegas::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// ns-3.37 tcp-vegas-test.cc's `TcpVegasTest::DoRun`: PktsAcked(100 ms)
    /// (baseRtt), CongestionStateSet(Open) (the round's edge is
    /// m_nextTxSequence), PktsAcked(rtt) three times (cntRtt 3 > 2), then
    /// IncreaseWindow with m_lastAckedSeq past the edge.
    fn ns3_vegas_case(cwnd: u32, mss: u32, ssthresh: u32, rtt_ms: i64, next_tx: u64, last_acked: u64) -> (u32, u32) {
        let mut v = Vegas::default();
        let mut sk = ns3_sock(cwnd / mss, ssthresh, mss);
        sk.cwnd_bytes = cwnd;
        sk.snd_nxt = next_tx;
        sk.snd_una = last_acked;
        v.ns3_pkts_acked(&mut sk, 1, 100 * 1_000_000);
        v.ns3_state_set(&mut sk, CaState::Open);
        for _ in 0..3 {
            v.ns3_pkts_acked(&mut sk, 1, rtt_ms * 1_000_000);
        }
        v.ns3_increase_window(&mut sk, 1);
        (sk.cwnd_bytes, sk.ssthresh_bytes)
    }

    /// ns-3.37's TcpVegasTestSuite, its five cases, with the values its
    /// `IncreaseWindow`/`GetSsThresh` mirror works out (target = (uint)
    /// (segCwnd * 100 / rtt), diff = segCwnd - target):
    /// * slow start, diff > gamma: 38 seg of 1446, ssthresh 40 seg, rtt
    ///   106: target 35, diff 3 > 1: cwnd min(38, 36) = 36 seg = 52056;
    ///   ssthresh max(min(57840, 36 seg - 1 seg = 50610), 2892) = 50610;
    ///   max(50610, 3/4 cwnd = 39042) = 50610.
    /// * slow start, diff < gamma: 5 seg of 536, ssthresh 10 seg, rtt 118:
    ///   target 4, diff 1: slow start +1 MSS = 3216; ssthresh
    ///   max(5360, 2412) = 5360.
    /// * diff > beta: 60 seg of 346, ssthresh 40 seg, rtt 206: target 29,
    ///   diff 31 > 4: 59 seg = 20414; ssthresh max(min(13840, 20068), 692)
    ///   = 13840, then max(13840, 61242 / 4 = 15310) = 15310.
    /// * diff < alpha: 15 seg of 1446, ssthresh 10 seg, rtt 106: target
    ///   14, diff 1 < 2: 16 seg = 23136; ssthresh max(14460, 17352).
    /// * alpha <= diff <= beta: 20 seg of 746, ssthresh 10 seg, rtt 109:
    ///   target 18, diff 2: cwnd stays 14920; ssthresh max(7460, 11190).
    #[test]
    fn ns3_vegas_test_suite() {
        assert_eq!(ns3_vegas_case(38 * 1446, 1446, 40 * 1446, 106, 2893, 5785), (52056, 50610));
        assert_eq!(ns3_vegas_case(5 * 536, 536, 10 * 536, 118, 3216, 3753), (3216, 5360));
        assert_eq!(ns3_vegas_case(60 * 346, 346, 40 * 346, 206, 20761, 21107), (20414, 15310));
        assert_eq!(ns3_vegas_case(15 * 1446, 1446, 10 * 1446, 106, 21691, 24583), (23136, 17352));
        assert_eq!(ns3_vegas_case(20 * 746, 746, 10 * 746, 109, 14921, 15667), (14920, 11190));
    }

    /// The ns-3 dialect outside a round's end, and with too few samples:
    /// within a round only slow start grows the window (congestion
    /// avoidance waits for the round's end); at the end with two samples,
    /// NewReno (96 bytes at 15 segments of 1448).
    #[test]
    fn ns3_between_rounds_and_few_samples() {
        let mut v = Vegas::default();
        let mut sk = ns3_sock(15, 15 * 1448, 1448);
        sk.snd_nxt = 10_000;
        v.ns3_state_set(&mut sk, CaState::Open);
        sk.snd_una = 5_000;
        v.ns3_pkts_acked(&mut sk, 2, 100 * 1_000_000);
        v.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 15 * 1448, "mid-round, in CA: unchanged");
        v.ns3_pkts_acked(&mut sk, 2, 100 * 1_000_000);
        sk.snd_una = 10_000;
        v.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 15 * 1448 + 96);
        assert_eq!((v.ns3.cnt_rtt, v.ns3.beg_snd_nxt), (0, 10_000));
        // Recovery disables it: NewReno on every ACK
        v.ns3_state_set(&mut sk, CaState::Recovery);
        sk.snd_una = 10_100;
        v.ns3_increase_window(&mut sk, 1);
        assert!(sk.cwnd_bytes > 15 * 1448 + 96);
    }
}
