//! Hybla (Caini, Firrincieli, "TCP Hybla: a TCP enhancement for
//! heterogeneous networks", IJSCN 2004), as Linux 2.6.2x's tcp_hybla.c
//! (ns-2's copy tcp/linux/src/tcp_hybla.c): the window grows as a
//! connection with reference RTT `rtt0` (25 ms) would: rho = srtt/rtt0
//! (at least 1, in 1/8), slow start by 2^rho - 1 per ACK, congestion
//! avoidance by rho^2/cwnd, with the fractions of a segment kept in 1/128
//! (`snd_cwnd_cents`).  The window starts at rho segments; its clamp is
//! 65535.
//!
//! ns-3.37's TcpHybla works rho out of the minimum RTT as a double and
//! grows a byte window by `segmentsAcked * (2^rho - 1)` in slow start.

use super::{reno, CaState, CongestionOps, Param, Sock};

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
}
