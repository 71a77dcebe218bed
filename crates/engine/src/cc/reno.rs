//! Reno: RFC 5681's slow start and congestion avoidance with RFC 3465's
//! byte counting, as Linux 2.6.2x's built-in `tcp_reno` has it
//! (net/ipv4/tcp_cong.c `tcp_reno_cong_avoid`, `tcp_reno_ssthresh`,
//! `tcp_reno_min_cwnd`; ns-2's copy tcp/linux/src/tcp_cong.c).
//!
//! `min_cwnd` is ssthresh/2: the window after fast retransmit is a
//! quarter of the window before it (Linux 2.6's rate halving reached
//! ssthresh gradually; ns-2's sender sets the window at once and lets
//! `next_pkts_in_flight_` do the halving).
//!
//! ns-3.37 (`TcpLinuxReno`) keeps cwnd in bytes and grows it by
//! `segmentsAcked` per ACK in slow start (no byte counting), and its loss
//! response is TcpSocketBase's (cwnd = ssthresh), not min_cwnd.

use super::{CongestionOps, Sock};

#[derive(Clone, Debug, Default)]
pub struct Reno;

/// `tcp_reno_cong_avoid`: other algorithms fall back on it.
pub fn cong_avoid(sk: &mut Sock, in_flight: u64) {
    if !sk.is_cwnd_limited(in_flight) {
        return;
    }
    if sk.snd_cwnd <= sk.snd_ssthresh {
        sk.slow_start();
    } else if sk.abc != 0 {
        // RFC 3465: one segment per full window of bytes acknowledged.
        if sk.bytes_acked >= sk.snd_cwnd * sk.mss_cache {
            sk.bytes_acked -= sk.snd_cwnd * sk.mss_cache;
            if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd += 1;
            }
        }
    } else {
        let w = sk.snd_cwnd;
        sk.cong_avoid_ai(w);
    }
}

/// `tcp_reno_ssthresh`: half the window, at least 2.
pub fn ssthresh(sk: &Sock) -> u64 {
    (sk.snd_cwnd >> 1).max(2)
}

/// `tcp_reno_min_cwnd`: half of ssthresh.
pub fn min_cwnd(sk: &Sock) -> u64 {
    sk.snd_ssthresh / 2
}

impl CongestionOps for Reno {
    const NAME: &'static str = "reno";
    const HAS_MIN_CWND: bool = true;

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        ssthresh(sk)
    }
    fn min_cwnd(&self, sk: &Sock) -> u64 {
        min_cwnd(sk)
    }
    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        cong_avoid(sk, in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Congestion avoidance with byte counting: cwnd 10 above ssthresh 5
    /// grows by one once 10 segments' bytes (10 * 1000) are acknowledged,
    /// keeping the excess; not while the sender is not cwnd-limited.
    #[test]
    fn one_segment_per_window_of_bytes() {
        let mut r = Reno;
        let mut sk = Sock { snd_cwnd: 10, snd_ssthresh: 5, mss_cache: 1000, snd_cwnd_clamp: 100, ..Default::default() };
        sk.bytes_acked = 10_500;
        r.cong_avoid(&mut sk, 0, 0, 9, true);
        assert_eq!(sk.snd_cwnd, 10, "in flight 9 < cwnd 10: not limited");
        r.cong_avoid(&mut sk, 0, 0, 10, true);
        assert_eq!((sk.snd_cwnd, sk.bytes_acked), (11, 500));
        // Loss: ssthresh = 11/2 = 5; the window after fast retransmit 5/2 = 2.
        let ss = r.ssthresh(&sk);
        assert_eq!(ss, 5);
        sk.snd_ssthresh = ss;
        assert_eq!(r.min_cwnd(&sk), 2);
        sk.snd_cwnd = 3;
        assert_eq!(r.ssthresh(&sk), 2, "at least 2");
    }
}
