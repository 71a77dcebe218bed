//! Hybla (Caini, Firrincieli, "TCP Hybla: a TCP enhancement for
//! heterogeneous networks", IJSCN 2004), as Linux 2.6.2x's tcp_hybla.c
//! (ns-2's copy tcp/linux/src/tcp_hybla.c): the window grows as a
//! connection with reference RTT `rtt0` (25 ms) would: rho = srtt/rtt0
//! (at least 1, in 1/8), slow start by 2^rho - 1 per ACK, congestion
//! avoidance by rho^2/cwnd, with the fractions of a segment kept in 1/128
//! (`snd_cwnd_cents`).  The window starts at rho segments; its clamp is
//! 65535.
//!
//! The ns-3 dialect is ns-3.37's TcpHybla (tcp-hybla.cc): rho =
//! max(minRtt in whole ms / RRTT in ms, 1) as a double, RRTT 50 ms
//! [RRTT] (Linux: 25), worked out again whenever the RTT passed to
//! PktsAcked equals the socket's least RTT (`m_minRtt`, the least SRTT);
//! NewReno's IncreaseWindow with Hybla's steps: slow start adds (uint)((2^rho
//! - 1) * MSS) bytes for an ACK, at most up to ssthresh; congestion
//! avoidance adds rho²/segCwnd per segment acknowledged to a fractional
//! counter and its whole part in segments to the window.  The loss response
//! is NewReno's.

use super::{reno, CaEvent, CaState, CongestionOps, Param, Sock};

pub const RTT0: usize = 0;

#[derive(Clone, Debug, Default)]
pub struct Hybla {
    pub hybla_en: bool,
    /// The fractional window, in 1/128 segment.
    pub snd_cwnd_cents: u64,
    /// rho, and rho << 3, rho^2 and rho^2 << 7 (from `rho_3ls`).
    pub rho: u64,
    pub rho2: u64,
    pub rho_3ls: u64,
    pub rho2_7ls: u64,
    /// The least srtt seen (ticks << 3).
    pub minrtt: u64,
    /// The ns-3 dialect's `m_rho` and `m_cWndCnt`.
    pub ns3: Ns3Hybla,
}

#[derive(Clone, Debug)]
pub struct Ns3Hybla {
    pub rho: f64,
    pub cwnd_cnt: f64,
}

impl Default for Ns3Hybla {
    fn default() -> Self {
        Ns3Hybla { rho: 1.0, cwnd_cnt: 0.0 }
    }
}

impl Hybla {
    fn recalc_param(&mut self, sk: &Sock) {
        let rtt0 = sk.p[RTT0] as i64 as u64;
        self.rho_3ls = sk.srtt.checked_div(rtt0).unwrap_or(0).max(8);
        self.rho = self.rho_3ls >> 3;
        self.rho2_7ls = self.rho_3ls.wrapping_mul(self.rho_3ls) << 1;
        self.rho2 = self.rho2_7ls >> 7;
    }
}

/// `hybla_fraction`: 128 * 2^(i/8) for the eighths of rho.
fn fraction(odds: u64) -> u64 {
    const F: [u64; 8] = [128, 139, 152, 165, 181, 197, 215, 234];
    if odds < 8 {
        F[odds as usize]
    } else {
        128
    }
}

impl CongestionOps for Hybla {
    const NAME: &'static str = "hybla";
    const PARAMS: &'static [Param] = &[Param { name: "rtt0", default: 25, about: "reference rout trip time (ms)" }];
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[Param { name: "rrtt_ms", default: 50, about: "Reference RTT in ms [RRTT]" }];

    fn ns3_init(&mut self, _sk: &mut Sock) {}
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        reno::ns3_ssthresh(sk, bytes_in_flight)
    }
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        if rtt_ns == sk.min_rtt_ns {
            // `RecalcParam`: whole milliseconds (`GetMilliSeconds`)
            let rrtt = sk.p[0] as f64;
            self.ns3.rho = ((sk.min_rtt_ns / 1_000_000) as f64 / rrtt).max(1.0);
        }
    }
    fn ns3_increase_window(&mut self, sk: &mut Sock, mut segments_acked: u32) {
        let m = sk.mss_cache as u32;
        if sk.cwnd_bytes < sk.ssthresh_bytes {
            // `TcpHybla::SlowStart`
            if segments_acked >= 1 {
                let incr = ((2f64.powf(self.ns3.rho) - 1.0) * m as f64) as u32;
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(incr).min(sk.ssthresh_bytes);
                segments_acked -= 1;
            } else {
                segments_acked = 0;
            }
        }
        if sk.cwnd_bytes >= sk.ssthresh_bytes {
            // `TcpHybla::CongestionAvoidance`
            while segments_acked > 0 {
                let seg = sk.cwnd_segments();
                self.ns3.cwnd_cnt += self.ns3.rho.powi(2) / seg as f64;
                segments_acked -= 1;
            }
            if self.ns3.cwnd_cnt >= 1.0 {
                let inc = self.ns3.cwnd_cnt as u32;
                self.ns3.cwnd_cnt -= inc as f64;
                sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(inc.wrapping_mul(m));
            }
        }
    }
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}

    fn init(&mut self, sk: &mut Sock) {
        self.rho = 0;
        self.rho2 = 0;
        self.rho_3ls = 0;
        self.rho2_7ls = 0;
        self.snd_cwnd_cents = 0;
        self.hybla_en = true;
        sk.snd_cwnd = 2;
        sk.snd_cwnd_clamp = 65535;
        self.recalc_param(sk);
        self.minrtt = sk.srtt;
        sk.snd_cwnd = self.rho;
    }

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        reno::ssthresh(sk)
    }

    fn min_cwnd(&self, sk: &Sock) -> u64 {
        reno::min_cwnd(sk)
    }

    fn set_state(&mut self, _sk: &mut Sock, new: CaState) {
        self.hybla_en = new == CaState::Open;
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if sk.srtt < self.minrtt {
            self.recalc_param(sk);
            self.minrtt = sk.srtt;
        }
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if !self.hybla_en {
            return reno::cong_avoid(sk, in_flight);
        }
        if self.rho == 0 {
            self.recalc_param(sk);
        }
        let rho_fractions = self.rho_3ls.wrapping_sub(self.rho << 3);
        let is_slowstart = sk.snd_cwnd < sk.snd_ssthresh;
        let increment = if is_slowstart {
            // `1 << rho` is an int shift in ns-2 (x86 masks the count).
            ((1i32.wrapping_shl(self.rho as u32)) as i64 as u64).wrapping_mul(fraction(rho_fractions)).wrapping_sub(128)
        } else {
            let inc = self.rho2_7ls.checked_div(sk.snd_cwnd).unwrap_or(0);
            if inc < 128 {
                sk.snd_cwnd_cnt = sk.snd_cwnd_cnt.wrapping_add(1);
            }
            inc
        };
        let odd = increment % 128;
        sk.snd_cwnd = sk.snd_cwnd.wrapping_add(increment >> 7);
        self.snd_cwnd_cents += odd;
        while self.snd_cwnd_cents >= 128 {
            sk.snd_cwnd += 1;
            self.snd_cwnd_cents -= 128;
            sk.snd_cwnd_cnt = 0;
        }
        if is_slowstart {
            sk.snd_cwnd = sk.snd_cwnd.min(sk.snd_ssthresh);
        }
        sk.snd_cwnd = sk.snd_cwnd.min(sk.snd_cwnd_clamp as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// srtt 100 ms (ticks of 1 ms, << 3: 800) over rtt0 25: rho_3ls 32,
    /// rho 4: the window starts at 4; slow start adds (2^4 * 128 - 128)/128
    /// = 15 segments per ACK; congestion avoidance rho^2/cwnd = 16/32 per
    /// ACK: 64/128, a segment every two ACKs.
    #[test]
    fn rho_scales_growth() {
        let mut h = Hybla::default();
        let mut sk = Sock { srtt: 800, snd_ssthresh: 1000, ..Default::default() };
        sk.p[RTT0] = 25;
        h.init(&mut sk);
        assert_eq!((h.rho, h.rho2, sk.snd_cwnd, sk.snd_cwnd_clamp), (4, 16, 4, 65535));
        h.cong_avoid(&mut sk, 0, 0, 4, true);
        assert_eq!(sk.snd_cwnd, 19);
        sk.snd_cwnd = 32;
        sk.snd_ssthresh = 20;
        h.cong_avoid(&mut sk, 0, 0, 32, true);
        assert_eq!((sk.snd_cwnd, h.snd_cwnd_cents), (32, 64));
        h.cong_avoid(&mut sk, 0, 0, 32, true);
        assert_eq!((sk.snd_cwnd, h.snd_cwnd_cents), (33, 0));
    }

    /// ns-3.37's tcp-hybla-test.cc (TcpHyblaIncrementTest): cwnd 1000
    /// bytes of 500-byte segments, PktsAcked(1, rtt) with m_minRtt = rtt
    /// (rho = max(rtt / 50 ms, 1)), then IncreaseWindow(1):
    /// * slow start (ssthresh 0xFFFFFFFF): rtt 55 ms, rho 1.1: + (uint)
    ///   ((2^1.1 - 1) * 500 = 571.7) = 1571; 100 ms, rho 2: + 3 * 500 =
    ///   2500; 750 ms, rho 15: + 32767 * 500 = 16384500.
    /// * congestion avoidance (ssthresh 500): 550 ms, rho 11: 121 / 2
    ///   segments = 60.5, the whole 60 segments added: 31000 (ns-3's test
    ///   only bounds it by 1000 + 60.5 * 500 = 31250); 100 ms, rho 2: 4 / 2 =
    ///   2 segments: 2000; 750 ms, rho 15: 225 / 2 = 112.5: 57000.
    #[test]
    fn ns3_hybla_test_suite() {
        for (ssthresh, rtt_ms, want, rho) in [
            (u32::MAX, 55i64, 1571u32, 1.1f64),
            (u32::MAX, 100, 2500, 2.0),
            (u32::MAX, 750, 16_384_500, 15.0),
            (500, 550, 31000, 11.0),
            (500, 100, 2000, 2.0),
            (500, 750, 57000, 15.0),
        ] {
            let mut h = Hybla::default();
            let mut sk = Sock { cwnd_bytes: 1000, ssthresh_bytes: ssthresh, mss_cache: 500, min_rtt_ns: rtt_ms * 1_000_000, ..Default::default() };
            sk.p[0] = 50;
            h.ns3_pkts_acked(&mut sk, 1, rtt_ms * 1_000_000);
            assert!((h.ns3.rho - rho).abs() < 1e-9, "rho {} for {rtt_ms} ms", h.ns3.rho);
            h.ns3_increase_window(&mut sk, 1);
            assert_eq!(sk.cwnd_bytes, want, "rtt {rtt_ms} ms, ssthresh {ssthresh}");
        }
        // rho is worked out only when the RTT is the least seen
        let mut h = Hybla::default();
        let mut sk = Sock { min_rtt_ns: 100_000_000, ..Default::default() };
        sk.p[0] = 50;
        h.ns3_pkts_acked(&mut sk, 1, 300_000_000);
        assert_eq!(h.ns3.rho, 1.0);
    }
}
