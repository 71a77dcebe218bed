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
//! The ns-3 dialect is ns-3.37's TcpYeah (tcp-yeah.cc): the same constants
//! as attributes ([Alpha] 80, [Gamma] 1, [Delta] 3, [Epsilon] 1, [Phy] 8,
//! [Rho] 16, [Zeta] 50, [StcpAiFactor] 100), byte windows, the RTTs being
//! SRTT (what ns-3.37 passes), fast mode by a TcpScalable of its own
//! (segment counting, AI factor 100), the round ending when the last ACK
//! reaches the `m_nextTxSequence` saved at its start.  Its slow-mode test
//! is `queue > alpha || L > (1 / phy)` with `1 / phy` an integer division
//! (0 for phy 8): any queueing delay at all (minRtt > baseRtt) puts it in
//! slow (NewReno) mode, which is why ns-3.37's YeAH runs as NewReno in
//! seed 004.  GetSsThresh keeps `lastQ` (at least flight/8, at most
//! flight/2) off the flight in fast mode (fewer than rho slow rounds), half
//! otherwise, at least 2 MSS; it also halves `m_renoCount`.

use super::{reno, scalable::Scalable, vegas, vegas::Vegas, CaEvent, CaState, CongestionOps, Param, Sock};

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
    /// The ns-3 dialect's state.
    pub ns3: Ns3Yeah,
}

/// ns-3.37 TcpYeah's members (times in ns; `Time::Max()` is `i64::MAX`).
#[derive(Clone, Debug)]
pub struct Ns3Yeah {
    pub base_rtt: i64,
    pub min_rtt: i64,
    pub cnt_rtt: u32,
    pub doing_yeah_now: bool,
    pub beg_snd_nxt: u64,
    pub last_q: u32,
    pub doing_reno_now: u32,
    pub reno_count: u32,
    pub fast_count: u32,
    pub stcp: Scalable,
}

impl Default for Ns3Yeah {
    fn default() -> Self {
        Ns3Yeah {
            base_rtt: i64::MAX,
            min_rtt: i64::MAX,
            cnt_rtt: 0,
            doing_yeah_now: true,
            beg_snd_nxt: 0,
            last_q: 0,
            doing_reno_now: 0,
            reno_count: 2,
            fast_count: 0,
            stcp: Scalable::default(),
        }
    }
}

/// Indices of the ns-3 attributes in `Sock::p`.
pub mod ns3p {
    pub const ALPHA: usize = 0;
    pub const GAMMA: usize = 1;
    pub const DELTA: usize = 2;
    pub const EPSILON: usize = 3;
    pub const PHY: usize = 4;
    pub const RHO: usize = 5;
    pub const ZETA: usize = 6;
    pub const STCP_AI: usize = 7;
}

impl CongestionOps for Yeah {
    const NAME: &'static str = "yeah";
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "alpha", default: 80, about: "Maximum backlog allowed at the bottleneck queue [Alpha]" },
        Param { name: "gamma", default: 1, about: "Fraction of queue to be removed per RTT [Gamma]" },
        Param { name: "delta", default: 3, about: "Log minimum fraction of cwnd to be removed on loss [Delta]" },
        Param { name: "epsilon", default: 1, about: "Log maximum fraction to be removed on early decongestion [Epsilon]" },
        Param { name: "phy", default: 8, about: "Maximum delta from base [Phy]" },
        Param { name: "rho", default: 16, about: "Minimum # of consecutive RTT to consider competition on loss [Rho]" },
        Param { name: "zeta", default: 50, about: "Minimum # of state switches to reset m_renoCount [Zeta]" },
        Param { name: "stcp_ai_factor", default: 100, about: "STCP additive increase factor [StcpAiFactor]" },
    ];

    fn ns3_init(&mut self, _sk: &mut Sock) {}

    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        let y = &mut self.ns3;
        vegas::ns3_sample(rtt_ns, &mut y.min_rtt, &mut y.base_rtt, &mut y.cnt_rtt);
    }

    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        let y = &mut self.ns3;
        if new == CaState::Open {
            // `EnableYeah`
            y.doing_yeah_now = true;
            y.beg_snd_nxt = sk.snd_nxt;
            y.cnt_rtt = 0;
            y.min_rtt = i64::MAX;
        } else {
            y.doing_yeah_now = false;
        }
    }

    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        use ns3p::*;
        let p = sk.p.map(|v| v as u32);
        let y = &mut self.ns3;
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            reno::ns3_slow_start(sk, segments_acked);
        } else if y.doing_reno_now == 0 {
            y.stcp.ns3_increase(sk, segments_acked, p[STCP_AI]);
        } else {
            reno::ns3_congestion_avoidance(sk, segments_acked);
        }
        if sk.snd_una >= y.beg_snd_nxt {
            if y.cnt_rtt > 2 {
                let mut seg_cwnd = sk.cwnd_segments();
                let rtt_queue = y.min_rtt - y.base_rtt;
                let bw = seg_cwnd as f64 / vegas::seconds(y.min_rtt);
                let queue = (bw * vegas::seconds(rtt_queue)) as u32;
                let l = vegas::seconds(rtt_queue) / vegas::seconds(y.base_rtt);
                // `1 / m_phy`: an integer division
                let inv_phy = 1u32.checked_div(p[PHY]).unwrap_or(0);
                if queue > p[ALPHA] || l > inv_phy as f64 {
                    // slow mode
                    if queue > p[ALPHA] && seg_cwnd > y.reno_count {
                        // precautionary decongestion
                        let reduction = queue.checked_div(p[GAMMA]).unwrap_or(0).min(seg_cwnd.checked_shr(p[EPSILON]).unwrap_or(0));
                        seg_cwnd -= reduction;
                        seg_cwnd = seg_cwnd.max(y.reno_count);
                        sk.cwnd_bytes = seg_cwnd.wrapping_mul(sk.mss_cache as u32);
                        sk.ssthresh_bytes = sk.cwnd_bytes;
                    }
                    if y.reno_count <= 2 {
                        y.reno_count = (seg_cwnd >> 1).max(2);
                    } else {
                        y.reno_count += 1;
                    }
                    y.doing_reno_now = y.doing_reno_now.wrapping_add(1);
                } else {
                    y.fast_count += 1;
                    if y.fast_count > p[ZETA] {
                        y.reno_count = 2;
                        y.fast_count = 0;
                    }
                    y.doing_reno_now = 0;
                }
                y.last_q = queue;
            }
            y.beg_snd_nxt = sk.snd_nxt;
            y.cnt_rtt = 0;
            y.min_rtt = i64::MAX;
        }
    }

    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        use ns3p::*;
        let m = sk.mss_cache as u32;
        let seg = bytes_in_flight / m.max(1);
        let y = &mut self.ns3;
        let reduction = if y.doing_reno_now < sk.p[RHO] as u32 {
            y.last_q.max(seg.checked_shr(sk.p[DELTA] as u32).unwrap_or(0)).min((seg >> 1).max(2))
        } else {
            (seg >> 1).max(2)
        };
        y.fast_count = 0;
        y.reno_count = (y.reno_count >> 1).max(2);
        bytes_in_flight.wrapping_sub(reduction.wrapping_mul(m)).max(2 * m)
    }

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

    fn ns3_sock(cwnd: u32, ssthresh: u32, mss: u32, next_tx: u64, last_acked: u64) -> Sock {
        let mut sk = Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: mss as u64, snd_nxt: next_tx, snd_una: last_acked, ..Default::default() };
        for (i, p) in Yeah::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// ns-3.37 tcp-yeah-test.cc's DoRun: PktsAcked(baseRtt 100 ms), Open
    /// (the round's edge: m_nextTxSequence), PktsAcked(minRtt) three
    /// times, IncreaseWindow(segmentsAcked).
    fn ns3_yeah_round(sk: &mut Sock, y: &mut Yeah, acked: u32, min_rtt_ms: i64) {
        y.ns3_pkts_acked(sk, acked, 100_000_000);
        y.ns3_state_set(sk, CaState::Open);
        for _ in 0..3 {
            y.ns3_pkts_acked(sk, acked, min_rtt_ms * 1_000_000);
        }
        y.ns3_increase_window(sk, acked);
    }

    /// ns-3.37's TcpYeahIncrementTest cases:
    /// * slow start: 20 seg of 1446 < ssthresh 25 seg: +1 MSS = 30366
    ///   (last ACK 1447 < edge 2893: no round end).
    /// * fast mode: 30 seg >= 25 seg, 30 acked: STCP with w = min(30, 100)
    ///   = 30: +30/30 = 1 segment = 44826.
    /// * slow mode without decongestion: 40 seg of 356 (ssthresh 30 seg),
    ///   1 acked, minRtt 120: STCP adds 1/40 = 0; the round ends (21117 >=
    ///   20761): queue = (uint)(40 / 0.12 * 0.02) = 6 <= 80, so no cut:
    ///   14240 (slow mode, since L = 0.2 > 1/8 = 0 in integers).
    /// * slow mode with decongestion: 100 seg of 356 (ssthresh 70 seg),
    ///   minRtt 600: queue = (uint)(100 / 0.6 * 0.5) = 83 > 80 and 100 >
    ///   renoCount 2: reduction min(83, 100 >> 1) = 50: 50 seg = 17800.
    #[test]
    fn ns3_yeah_increment_tests() {
        for (cwnd, ss, mss, next, last, acked, min_ms, want) in [
            (20 * 1446, 25 * 1446, 1446, 2893, 1447, 1, 105, 30366u32),
            (30 * 1446, 25 * 1446, 1446, 2893, 1447, 30, 105, 44826),
            (40 * 356, 30 * 356, 356, 20761, 21117, 1, 120, 14240),
            (100 * 356, 70 * 356, 356, 20761, 21117, 1, 600, 17800),
        ] {
            let mut y = Yeah::default();
            let mut sk = ns3_sock(cwnd, ss, mss, next, last);
            ns3_yeah_round(&mut sk, &mut y, acked, min_ms);
            assert_eq!(sk.cwnd_bytes, want, "cwnd {cwnd} minRtt {min_ms}");
        }
    }

    /// ns-3.37's TcpYeahDecrementTest cases (2 segments acked, round end):
    /// * competing with Reno (rho 0): 40 seg of 1446, minRtt 120: the round
    ///   puts it in slow mode (doingRenoNow 1 >= rho 0): reduction =
    ///   max(40 >> 1, 2) = 20: 57840 - 20 * 1446 = 28920.
    /// * not competing (rho 2): 57 seg, minRtt 200: queue = (uint)(57 / 0.2
    ///   * 0.1) = 28 = lastQ; reduction = min(max(28, 57 >> 3 = 7), 28) =
    ///   28: 82422 - 28 * 1446 = 41934.
    #[test]
    fn ns3_yeah_decrement_tests() {
        for (cwnd, ss, min_ms, rho, want) in [(40 * 1446u32, 30 * 1446u32, 120i64, 0, 28920u32), (57 * 1446, 42 * 1446, 200, 2, 41934)] {
            let mut y = Yeah::default();
            let mut sk = ns3_sock(cwnd, ss, 1446, 2893, 7230);
            sk.p[ns3p::RHO] = rho;
            ns3_yeah_round(&mut sk, &mut y, 2, min_ms);
            assert_eq!(y.ns3_ssthresh(&mut sk, cwnd), want, "cwnd {cwnd}");
            assert_eq!(y.ns3.reno_count, 2.max(y.ns3.reno_count), "renoCount halved, at least 2");
        }
    }

    /// The integer `1 / phy`: with phy 1 (1/1 = 1) a queueing delay of a
    /// fifth of the base RTT is fast mode (L 0.2 <= 1), with phy 8 (1/8 =
    /// 0) slow mode; fast rounds count towards zeta.
    #[test]
    fn ns3_phy_is_an_integer_division() {
        for (phy, reno_rounds, fast) in [(8, 1, 0), (1, 0, 1)] {
            let mut y = Yeah::default();
            let mut sk = ns3_sock(40 * 1446, 30 * 1446, 1446, 2893, 7230);
            sk.p[ns3p::PHY] = phy;
            ns3_yeah_round(&mut sk, &mut y, 2, 120);
            assert_eq!((y.ns3.doing_reno_now, y.ns3.fast_count), (reno_rounds, fast), "phy {phy}");
        }
    }
}
