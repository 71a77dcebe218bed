//! TCP-LP (Kuzmanovic, Knightly, "TCP-LP: low-priority service via
//! end-point congestion control", ToN 2006), as Linux 2.6.2x's tcp_lp.c
//! (ns-2's copy tcp/linux/src/tcp_lp.c): one-way delays from TCP
//! timestamps (the remote clock's rate estimated), smoothed; a delay
//! beyond 15% of the way from the least to the largest is early
//! congestion: halve the window (to 1 within an inference period after
//! the last such cut), and no increase within it.  Reno otherwise.
//!
//! Without timestamps (ns-2's default) no delay is ever valid: the
//! smoothed delay stays 0, always below the threshold, and TCP-LP is
//! Reno.
//!
//! The ns-3 dialect is ns-3.37's TcpLp (tcp-lp.cc), which differs from the
//! module: the one-way delay is |TSval - TSecr| of the ACK in ms, as 32-bit
//! unsigned arithmetic (no remote clock rate estimated: both ends tick in
//! ms), the smoothed delay and its bounds are 32-bit; the inference period
//! is 3 x (now - TSecr ms) in simulated time; the delay is within the
//! threshold at `<=` (Linux: `<`); the window is cut in bytes (halved, at
//! least one MSS, or one MSS within the inference period).  Its other
//! hooks are NewReno's, congestion avoidance skipped within the inference
//! period.  With ns-3's delayed ACKs the TSecr echoed is that of the first
//! segment an ACK covers, so the "one-way delay" includes the receiver's
//! wait: this is what holds ns-3's window near 2.5 segments on seed 004's
//! path (docs/full-tcp.md).  No attributes.

use super::{reno, CaEvent, CaState, CongestionOps, Sock, HZ};

pub const LP_RESOL: u64 = 1000;
pub const LP_VALID_RHZ: u64 = 1 << 0;
pub const LP_VALID_OWD: u64 = 1 << 1;
pub const LP_WITHIN_THR: u64 = 1 << 3;
pub const LP_WITHIN_INF: u64 = 1 << 4;

#[derive(Clone, Debug, Default)]
pub struct Lp {
    pub flag: u64,
    /// Smoothed one-way delay, << 3.
    pub sowd: u64,
    pub owd_min: u64,
    pub owd_max: u64,
    pub owd_max_rsv: u64,
    pub remote_hz: u64,
    pub remote_ref_time: u64,
    pub local_ref_time: u64,
    pub last_drop: u64,
    pub inference: u64,
    /// The ns-3 dialect's state.
    pub ns3: Ns3Lp,
}

/// ns-3.37's TcpLp members: `m_flag`, `m_sOwd` (<< 3), `m_owdMin`,
/// `m_owdMax`, `m_owdMaxRsv` (all 32-bit), `m_lastDrop` and `m_inference`
/// (times, ns).
#[derive(Clone, Debug)]
pub struct Ns3Lp {
    pub flag: u32,
    pub sowd: u32,
    pub owd_min: u32,
    pub owd_max: u32,
    pub owd_max_rsv: u32,
    pub last_drop_ns: i64,
    pub inference_ns: i64,
}

impl Default for Ns3Lp {
    fn default() -> Self {
        Ns3Lp { flag: 0, sowd: 0, owd_min: 0xffff_ffff, owd_max: 0, owd_max_rsv: 0, last_drop_ns: 0, inference_ns: 0 }
    }
}

impl Ns3Lp {
    /// `OwdCalculator`: |TSval - TSecr|, the difference taken in 32 bits.
    fn owd(&mut self, sk: &Sock) -> u32 {
        let mut owd = (sk.rcv_tsval as u32).wrapping_sub(sk.rcv_tsecr as u32) as i64;
        if owd < 0 {
            owd = -owd;
        }
        if owd > 0 {
            self.flag |= LP_VALID_OWD as u32;
        } else {
            self.flag &= !(LP_VALID_OWD as u32);
        }
        owd as u32
    }

    /// `RttSample`.
    fn rtt_sample(&mut self, sk: &Sock) {
        let mut mowd = self.owd(sk);
        if self.flag & LP_VALID_OWD as u32 == 0 {
            return;
        }
        if mowd < self.owd_min {
            self.owd_min = mowd;
        }
        if mowd > self.owd_max {
            if mowd > self.owd_max_rsv {
                self.owd_max = if self.owd_max_rsv == 0 { mowd } else { self.owd_max_rsv };
                self.owd_max_rsv = mowd;
            } else {
                self.owd_max = mowd;
            }
        }
        if self.sowd != 0 {
            mowd = mowd.wrapping_sub(self.sowd >> 3);
            self.sowd = self.sowd.wrapping_add(mowd);
        } else {
            self.sowd = mowd << 3;
        }
    }

    /// `PktsAcked`.
    fn pkts_acked(&mut self, sk: &mut Sock, rtt_ns: i64) {
        if rtt_ns != 0 {
            self.rtt_sample(sk);
        }
        let now = sk.now_ns;
        let echo = sk.rcv_tsecr as u32 as i64;
        if now / 1_000_000 > echo {
            self.inference_ns = 3 * (now - echo * 1_000_000);
        }
        if self.last_drop_ns != 0 && now - self.last_drop_ns < self.inference_ns {
            self.flag |= LP_WITHIN_INF as u32;
        } else {
            self.flag &= !(LP_WITHIN_INF as u32);
        }
        let thr = self.owd_min.wrapping_add(15u32.wrapping_mul(self.owd_max.wrapping_sub(self.owd_min)) / 100);
        if self.sowd >> 3 <= thr {
            self.flag |= LP_WITHIN_THR as u32;
            return;
        }
        self.flag &= !(LP_WITHIN_THR as u32);
        self.owd_min = self.sowd >> 3;
        self.owd_max = self.sowd >> 2;
        self.owd_max_rsv = self.sowd >> 2;
        let m = sk.mss_cache as u32;
        sk.cwnd_bytes = if self.flag & LP_WITHIN_INF as u32 != 0 { m } else { (sk.cwnd_bytes >> 1).max(m) };
        self.last_drop_ns = now;
    }
}

impl Lp {
    fn remote_hz_estimator(&mut self, sk: &Sock) -> u64 {
        let mut rhz: i64 = (self.remote_hz << 6) as i64;
        let mut m: i64;
        if !(self.remote_ref_time == 0 || self.local_ref_time == 0)
            && !(sk.rcv_tsval == self.remote_ref_time || sk.rcv_tsecr == self.local_ref_time)
        {
            m = (HZ.wrapping_mul(sk.rcv_tsval.wrapping_sub(self.remote_ref_time))
                / sk.rcv_tsecr.wrapping_sub(self.local_ref_time)) as i64;
            if m < 0 {
                m = -m;
            }
            if rhz > 0 {
                m -= rhz >> 6;
                rhz += m;
            } else {
                rhz = m << 6;
            }
        }
        if (rhz >> 6) > 0 {
            self.flag |= LP_VALID_RHZ;
        } else {
            self.flag &= !LP_VALID_RHZ;
        }
        self.remote_ref_time = sk.rcv_tsval;
        self.local_ref_time = sk.rcv_tsecr;
        (rhz >> 6) as u64
    }

    fn owd_calculator(&mut self, sk: &Sock) -> u64 {
        let mut owd: i64 = 0;
        self.remote_hz = self.remote_hz_estimator(sk);
        if self.flag & LP_VALID_RHZ != 0 {
            owd = (sk.rcv_tsval.wrapping_mul(LP_RESOL / self.remote_hz)).wrapping_sub(sk.rcv_tsecr.wrapping_mul(LP_RESOL / HZ))
                as i64;
            if owd < 0 {
                owd = -owd;
            }
        }
        if owd > 0 {
            self.flag |= LP_VALID_OWD;
        } else {
            self.flag &= !LP_VALID_OWD;
        }
        owd as u64
    }

    fn rtt_sample(&mut self, sk: &Sock) {
        let mut mowd = self.owd_calculator(sk) as i64;
        if self.flag & LP_VALID_RHZ == 0 || self.flag & LP_VALID_OWD == 0 {
            return;
        }
        if mowd < self.owd_min as i64 {
            self.owd_min = mowd as u64;
        }
        if mowd > self.owd_max as i64 {
            if mowd > self.owd_max_rsv as i64 {
                if self.owd_max_rsv == 0 {
                    self.owd_max = mowd as u64;
                } else {
                    self.owd_max = self.owd_max_rsv;
                }
                self.owd_max_rsv = mowd as u64;
            } else {
                self.owd_max = mowd as u64;
            }
        }
        if self.sowd != 0 {
            mowd -= (self.sowd >> 3) as i64;
            self.sowd = self.sowd.wrapping_add(mowd as u64);
        } else {
            self.sowd = (mowd as u64) << 3;
        }
    }
}

impl CongestionOps for Lp {
    const NS3_CLOCK: bool = true;
    const NAME: &'static str = "lp";
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        reno::ns3_ssthresh(sk, bytes_in_flight)
    }
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        let within = self.ns3.flag & LP_WITHIN_INF as u32 != 0;
        reno::ns3_increase_with(sk, segments_acked, |sk, n| {
            if !within {
                reno::ns3_congestion_avoidance(sk, n)
            }
        });
    }
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        self.ns3.pkts_acked(sk, rtt_ns);
    }
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn init(&mut self, _sk: &mut Sock) {
        *self = Lp { owd_min: 0xffff_ffff, ..Lp::default() };
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if self.flag & LP_WITHIN_INF == 0 {
            reno::cong_avoid(sk, in_flight);
        }
    }

    fn pkts_acked(&mut self, sk: &mut Sock, _num_acked: u64, last: i64) {
        let now = sk.now_jiffies;
        if last != 0 {
            self.rtt_sample(sk);
        }
        if now > sk.rcv_tsecr {
            self.inference = 3 * (now - sk.rcv_tsecr);
        }
        if self.last_drop != 0 && now.wrapping_sub(self.last_drop) < self.inference {
            self.flag |= LP_WITHIN_INF;
        } else {
            self.flag &= !LP_WITHIN_INF;
        }
        let thr = self.owd_min.wrapping_add(15u64.wrapping_mul(self.owd_max.wrapping_sub(self.owd_min)) / 100);
        if self.sowd >> 3 < thr {
            self.flag |= LP_WITHIN_THR;
        } else {
            self.flag &= !LP_WITHIN_THR;
        }
        if sk.debug_level <= 1 {
            // ns-2's `pr_debug` prints at debug_level 1 (its default).
            use std::io::Write;
            let _ = writeln!(
                sk.log,
                "TCP-LP: {:05o}|{:5}|{:5}|{:15}|{:15}|{:15}",
                self.flag,
                sk.snd_cwnd,
                self.remote_hz,
                self.owd_min,
                self.owd_max,
                self.sowd >> 3
            );
        }
        if self.flag & LP_WITHIN_THR != 0 {
            return;
        }
        self.owd_min = self.sowd >> 3;
        self.owd_max = self.sowd >> 2;
        self.owd_max_rsv = self.sowd >> 2;
        if self.flag & LP_WITHIN_INF != 0 {
            sk.snd_cwnd = 1;
        } else {
            sk.snd_cwnd = (sk.snd_cwnd >> 1).max(1);
        }
        self.last_drop = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without timestamps the smoothed delay (0) is below the threshold
    /// (owd_min 2^32 - 1 plus 15% of the wrapped 0 - (2^32 - 1)): no early
    /// congestion, the window grows as Reno's.
    #[test]
    fn without_timestamps_it_is_reno() {
        let mut c = Lp::default();
        let mut sk = Sock { snd_cwnd: 40, snd_ssthresh: 100, snd_cwnd_clamp: 1000, bytes_acked: 1000, ..Default::default() };
        c.init(&mut sk);
        sk.now_jiffies = 500;
        c.pkts_acked(&mut sk, 1, 499_000_000);
        assert_eq!((sk.snd_cwnd, c.last_drop, c.inference), (40, 0, 1500));
        assert!(c.flag & LP_WITHIN_THR != 0);
        // ns-2's debug line, as printf's "%05lo|%5lu|%5lu|%15lu|%15lu|%15lu".
        assert_eq!(String::from_utf8(std::mem::take(&mut sk.log)).unwrap(),
                   "TCP-LP: 00010|   40|    0|     4294967295|              0|              0\n");
        c.cong_avoid(&mut sk, 0, 0, 40, true);
        assert_eq!(sk.snd_cwnd, 41, "slow start");
    }

    /// A smoothed one-way delay beyond 15% of the way from the least to
    /// the largest (10 + 15% of 90 = 23.5 < 30) halves the window; another
    /// within the inference period (3 x (now - echoed time)) sets it to 1
    /// and stops growth.
    #[test]
    fn early_congestion_cuts() {
        let mut c = Lp::default();
        let mut sk = Sock { snd_cwnd: 40, snd_ssthresh: 100, snd_cwnd_clamp: 1000, ..Default::default() };
        c.init(&mut sk);
        c.owd_min = 10;
        c.owd_max = 100;
        c.sowd = 30 << 3;
        sk.now_jiffies = 500;
        sk.rcv_tsecr = 400;
        c.pkts_acked(&mut sk, 1, 0);
        assert_eq!((sk.snd_cwnd, c.last_drop, c.inference), (20, 500, 300));
        c.owd_min = 10;
        c.owd_max = 100;
        sk.now_jiffies = 600;
        c.pkts_acked(&mut sk, 1, 0);
        assert_eq!(sk.snd_cwnd, 1);
        assert!(c.flag & LP_WITHIN_INF != 0);
        c.cong_avoid(&mut sk, 0, 0, 1, true);
        assert_eq!(sk.snd_cwnd, 1, "no increase within the inference period");
    }

    /// ns-3.37's tcp-lp-test.cc, cwnd of 1446-byte segments, PktsAcked(2,
    /// 100 ms) at time 0:
    /// * TcpLpToNewReno: TSval 2, TSecr 1: owd 1 is the first sample (min =
    ///   max = 1, smoothed 1): within the threshold, no cut; then
    ///   IncreaseWindow(2) from 4 MSS with ssthresh 2 MSS is NewReno's
    ///   1446² / 5784 = 361.5 -> 361 bytes: 6145.
    /// * TcpLpInferenceTest1: then TSval 14, TSecr 4: owd 10, max 1 (the
    ///   reserve's), reserve 10, smoothed (8 + 9) = 17 >> 3 = 2 > 1 + 15% of
    ///   0: early congestion, outside an inference period: 2892 / 2 = 1446.
    /// * TcpLpInferenceTest2: then TSval 25, TSecr 15: owd 10, min 2, max
    ///   4, smoothed 17 + 8 = 25 >> 3 = 3 > 2 + 15% of 2 (0): cut again to
    ///   1 MSS (the last drop was at time 0, which ns-3 reads as none, so
    ///   halving, floored at 1 MSS).
    #[test]
    fn ns3_lp_test_suite() {
        let mss = 1446u32;
        let mut c = Lp::default();
        let mut sk = Sock { cwnd_bytes: 4 * mss, ssthresh_bytes: 2 * mss, mss_cache: mss as u64, rcv_tsval: 2, rcv_tsecr: 1, ..Default::default() };
        c.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        c.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 6145);

        let mut c = Lp::default();
        let mut sk = Sock { cwnd_bytes: 2 * mss, mss_cache: mss as u64, rcv_tsval: 2, rcv_tsecr: 1, ..Default::default() };
        c.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        assert_eq!((c.ns3.owd_min, c.ns3.owd_max, c.ns3.sowd, sk.cwnd_bytes), (1, 1, 8, 2 * mss));
        (sk.rcv_tsval, sk.rcv_tsecr) = (14, 4);
        c.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        assert_eq!(sk.cwnd_bytes, mss, "TcpLpInferenceTest1");
        assert_eq!((c.ns3.owd_min, c.ns3.owd_max, c.ns3.sowd), (2, 4, 17));
        (sk.rcv_tsval, sk.rcv_tsecr) = (25, 15);
        c.ns3_pkts_acked(&mut sk, 2, 100_000_000);
        assert_eq!(sk.cwnd_bytes, mss, "TcpLpInferenceTest2");
        assert_eq!((c.ns3.owd_min, c.ns3.owd_max, c.ns3.sowd), (3, 6, 25));
    }

    /// ns-3's inference period in simulated time: a cut at 1 s with TSecr
    /// 900 ms sets it to 3 x 100 ms; a second early congestion 200 ms
    /// later is within it: the window goes to one MSS and congestion
    /// avoidance stops; slow start still runs (NewReno's, not skipped).
    #[test]
    fn ns3_inference_period() {
        let mut c = Lp::default();
        let mut sk = Sock { cwnd_bytes: 40 * 1000, ssthresh_bytes: 10_000, mss_cache: 1000, now_ns: 1_000_000_000, rcv_tsval: 950, rcv_tsecr: 900, ..Default::default() };
        c.ns3.owd_min = 10;
        c.ns3.owd_max = 100;
        c.ns3.sowd = 30 << 3;
        c.ns3_pkts_acked(&mut sk, 1, 0);
        assert_eq!((sk.cwnd_bytes, c.ns3.last_drop_ns, c.ns3.inference_ns), (20_000, 1_000_000_000, 300_000_000));
        (c.ns3.owd_min, c.ns3.owd_max) = (10, 100);
        sk.now_ns = 1_200_000_000;
        sk.rcv_tsecr = 1100;
        c.ns3_pkts_acked(&mut sk, 1, 0);
        assert_eq!(sk.cwnd_bytes, 1000);
        sk.cwnd_bytes = 20_000;
        c.ns3_increase_window(&mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 20_000, "no congestion avoidance within the inference period");
        sk.ssthresh_bytes = 30_000;
        c.ns3_increase_window(&mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 21_000, "slow start");
    }
}
