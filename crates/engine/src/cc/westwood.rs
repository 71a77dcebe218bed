//! Westwood+ (Mascolo et al., "TCP Westwood: bandwidth estimation for
//! enhanced transport over wireless links", MobiCom 2001; Grieco, Mascolo,
//! "Performance evaluation and comparison of Westwood+, New Reno, and
//! Vegas TCP congestion control", CCR 2004), as Linux 2.6.2x's
//! tcp_westwood.c (ns-2's copy tcp/linux/src/tcp_westwood.c): the bytes
//! acknowledged per RTT (at least 50 ms) are low-pass filtered (7/8) into
//! a bandwidth estimate, and after a loss the window is the estimated
//! bandwidth times the least RTT (`min_cwnd`), Reno otherwise.  It
//! counts ACKs in `cwnd_event` (fast and slow ACKs).
//!
//! ns-3.37's TcpWestwood (Westwood+ mode) samples the bandwidth per ACK
//! with an exponential filter over simulator time and sets ssthresh (not
//! only cwnd) from it.

use super::{reno, CaEvent, CongestionOps, Sock, HZ};

/// `TCP_WESTWOOD_RTT_MIN`: the least bandwidth sampling interval, jiffies.
pub const RTT_MIN: u64 = HZ / 20;
/// `TCP_WESTWOOD_INIT_RTT`.
pub const INIT_RTT: u64 = 20 * HZ;

#[derive(Clone, Debug, Default)]
pub struct Westwood {
    pub bw_ns_est: u64,
    pub bw_est: u64,
    pub rtt_win_sx: u64,
    pub bk: u64,
    pub snd_una: u64,
    pub cumul_ack: u64,
    pub accounted: u64,
    pub rtt: u64,
    pub rtt_min: u64,
    pub first_ack: bool,
    pub reset_rtt_min: bool,
}

fn do_filter(a: u64, b: u64) -> u64 {
    (7u64.wrapping_mul(a).wrapping_add(b)) >> 3
}

impl Westwood {
    fn filter(&mut self, delta: u64) {
        if self.bw_ns_est == 0 && self.bw_est == 0 {
            self.bw_ns_est = self.bk / delta;
            self.bw_est = self.bw_ns_est;
        } else {
            self.bw_ns_est = do_filter(self.bw_ns_est, self.bk / delta);
            self.bw_est = do_filter(self.bw_est, self.bw_ns_est);
        }
    }

    fn update_window(&mut self, sk: &Sock) {
        let delta = sk.now_jiffies.wrapping_sub(self.rtt_win_sx) as i64;
        if self.first_ack {
            self.snd_una = sk.snd_una;
            self.first_ack = false;
        }
        if self.rtt != 0 && delta as u64 > self.rtt.max(RTT_MIN) {
            self.filter(delta as u64);
            self.bk = 0;
            self.rtt_win_sx = sk.now_jiffies;
        }
    }

    fn update_rtt_min(&mut self) {
        if self.reset_rtt_min {
            self.rtt_min = self.rtt;
            self.reset_rtt_min = false;
        } else {
            self.rtt_min = self.rtt.min(self.rtt_min);
        }
    }

    fn acked_count(&mut self, sk: &Sock) -> u64 {
        self.cumul_ack = sk.snd_una.wrapping_sub(self.snd_una);
        if self.cumul_ack == 0 {
            self.accounted = self.accounted.wrapping_add(sk.mss_cache);
            self.cumul_ack = sk.mss_cache;
        }
        if self.cumul_ack > sk.mss_cache {
            if self.accounted >= self.cumul_ack {
                self.accounted -= self.cumul_ack;
                self.cumul_ack = sk.mss_cache;
            } else {
                self.cumul_ack -= self.accounted;
                self.accounted = 0;
            }
        }
        self.snd_una = sk.snd_una;
        self.cumul_ack
    }

    /// `tcp_westwood_bw_rttmin`: the window the estimated bandwidth fills
    /// in the least RTT, at least 2.
    fn bw_rttmin(&self, sk: &Sock) -> u64 {
        self.bw_est.wrapping_mul(self.rtt_min).checked_div(sk.mss_cache).unwrap_or(0).max(2)
    }
}

impl CongestionOps for Westwood {
    const NAME: &'static str = "westwood";
    const HAS_MIN_CWND: bool = true;

    fn init(&mut self, sk: &mut Sock) {
        self.bk = 0;
        self.bw_ns_est = 0;
        self.bw_est = 0;
        self.accounted = 0;
        self.cumul_ack = 0;
        self.reset_rtt_min = true;
        self.rtt = INIT_RTT;
        self.rtt_min = INIT_RTT;
        self.rtt_win_sx = sk.now_jiffies;
        self.snd_una = sk.snd_una;
        self.first_ack = true;
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        self.bw_rttmin(sk)
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        reno::cong_avoid(sk, in_flight)
    }

    fn pkts_acked(&mut self, sk: &mut Sock, cnt: u64, _last: i64) {
        if cnt > 0 {
            self.rtt = sk.srtt >> 3;
        }
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        match ev {
            CaEvent::FastAck => {
                self.update_window(sk);
                self.bk = self.bk.wrapping_add(sk.snd_una.wrapping_sub(self.snd_una));
                self.snd_una = sk.snd_una;
                self.update_rtt_min();
            }
            CaEvent::CompleteCwr => {
                let w = self.bw_rttmin(sk);
                sk.snd_cwnd = w;
                sk.snd_ssthresh = w;
            }
            CaEvent::Frto => {
                sk.snd_ssthresh = self.bw_rttmin(sk);
                self.reset_rtt_min = true;
            }
            CaEvent::SlowAck => {
                self.update_window(sk);
                let a = self.acked_count(sk);
                self.bk = self.bk.wrapping_add(a);
                self.update_rtt_min();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 100 segments of 1000 bytes acknowledged within a sampling window
    /// that closes 101 ms after it opened: the first sample is the
    /// estimate, 100000/101 = 990 bytes per ms; with a least RTT of 60 ms
    /// the window after a loss is 990*60/1000 = 59.
    #[test]
    fn bandwidth_times_min_rtt() {
        let mut w = Westwood::default();
        let mut sk = Sock { mss_cache: 1000, ..Default::default() };
        sk.now_jiffies = 1000;
        w.init(&mut sk);
        sk.srtt = 60 << 3;
        w.pkts_acked(&mut sk, 1, 0);
        w.cwnd_event(&mut sk, CaEvent::FastAck);
        sk.snd_una = 100_000;
        sk.now_jiffies = 1050;
        w.cwnd_event(&mut sk, CaEvent::FastAck);
        assert_eq!((w.bk, w.bw_est), (100_000, 0), "50 ms: the window is still open");
        sk.now_jiffies = 1101;
        w.cwnd_event(&mut sk, CaEvent::FastAck);
        assert_eq!(w.bw_est, 990);
        assert_eq!(w.rtt_min, 60);
        assert_eq!(w.min_cwnd(&sk), 59);
    }
}
