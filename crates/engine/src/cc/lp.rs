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
//! Reno.  ns-3.37's TcpLp uses the timestamp option the same way.

use super::{reno, CongestionOps, Sock, HZ};

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
    const NAME: &'static str = "lp";
    const RTT_STAMP: bool = true;
    const HAS_MIN_CWND: bool = true;

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
}
