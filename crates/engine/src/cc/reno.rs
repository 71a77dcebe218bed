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
//!
//! The ns-3 dialect (the full TCP's `cc="newreno"`) is ns-3.37's
//! `TcpNewReno` (tcp-congestion-ops.cc), byte arithmetic included: slow
//! start adds one MSS per ACK however many segments it acks; congestion
//! avoidance adds max(1, MSS*MSS/cwnd) bytes (truncated) per ACK that acks
//! anything, so with delayed ACKs cwnd grows about half an MSS per RTT;
//! ssthresh is max(2 MSS, flight / 2).  [`ns3_slow_start`],
//! [`ns3_congestion_avoidance`] and [`ns3_increase_window`] are the pieces
//! ns-3's other ports inherit from it.

use super::{CaEvent, CaState, CongestionOps, Sock};

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

/// `TcpNewReno::SlowStart`: one MSS for an ACK of at least one segment;
/// returns the segments left over (ns-3 drops them unless the window
/// crossed ssthresh).
pub fn ns3_slow_start(sk: &mut Sock, segments_acked: u32) -> u32 {
    if segments_acked >= 1 {
        sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(sk.mss_cache as u32);
        return segments_acked - 1;
    }
    0
}

/// `TcpNewReno::CongestionAvoidance`: max(1, MSS²/cwnd) bytes per ACK
/// (the square in 32 bits, as ns-3 computes it, then a double).
pub fn ns3_congestion_avoidance(sk: &mut Sock, segments_acked: u32) {
    if segments_acked > 0 {
        let m = sk.mss_cache as u32;
        let adder = (m.wrapping_mul(m) as f64 / sk.cwnd_bytes as f64).max(1.0);
        sk.cwnd_bytes = sk.cwnd_bytes.wrapping_add(adder as u32);
    }
}

/// `TcpNewReno::IncreaseWindow`, with the congestion-avoidance step given
/// (ns-3's virtual `CongestionAvoidance`, which Scalable overrides).
pub fn ns3_increase_with(sk: &mut Sock, mut segments_acked: u32, ca: impl FnOnce(&mut Sock, u32)) {
    if sk.cwnd_bytes < sk.ssthresh_bytes {
        segments_acked = ns3_slow_start(sk, segments_acked);
    }
    if sk.cwnd_bytes >= sk.ssthresh_bytes {
        ca(sk, segments_acked);
    }
}

/// `TcpNewReno::IncreaseWindow`.
pub fn ns3_increase_window(sk: &mut Sock, segments_acked: u32) {
    ns3_increase_with(sk, segments_acked, ns3_congestion_avoidance)
}

/// `TcpNewReno::GetSsThresh`: half the bytes in flight, at least 2 MSS.
pub fn ns3_ssthresh(sk: &Sock, bytes_in_flight: u32) -> u32 {
    (2 * sk.mss_cache as u32).max(bytes_in_flight / 2)
}

impl CongestionOps for Reno {
    const NAME: &'static str = "reno";
    const HAS_MIN_CWND: bool = true;
    const NS3_NATIVE: bool = true;
    const NS3_PKTS_ACKED: bool = false;

    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        ssthresh(sk)
    }
    fn min_cwnd(&self, sk: &Sock) -> u64 {
        min_cwnd(sk)
    }
    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        cong_avoid(sk, in_flight)
    }
    fn ns3_init(&mut self, _sk: &mut Sock) {}
    fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
        ns3_ssthresh(sk, bytes_in_flight)
    }
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        ns3_increase_window(sk, segments_acked)
    }
    fn ns3_pkts_acked(&mut self, _sk: &mut Sock, _segments_acked: u32, _rtt_ns: i64) {}
    fn ns3_state_set(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}
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

    fn ns3(cwnd: u32, ssthresh: u32) -> Sock {
        Sock { cwnd_bytes: cwnd, ssthresh_bytes: ssthresh, mss_cache: 1448, ..Default::default() }
    }

    /// ns-3 dialect, slow start: a delayed ACK for 2 segments adds one MSS,
    /// not two (ns-3 drops the other).
    #[test]
    fn ns3_slow_start_adds_one_mss_per_ack() {
        let mut r = Reno;
        let mut sk = ns3(2 * 1448, u32::MAX);
        r.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 3 * 1448);
        // crossing ssthresh: 14 MSS + 1 MSS reaches 15 MSS = ssthresh, and
        // the leftover segment goes to congestion avoidance:
        // 1448² / 21720 = 96.53 -> 96 bytes
        let mut sk = ns3(14 * 1448, 15 * 1448);
        r.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 15 * 1448 + 96);
    }

    /// ns-3 dialect, congestion avoidance: max(1, MSS²/cwnd) bytes per ACK
    /// whatever it acks, nothing for an ACK of no segment.
    #[test]
    fn ns3_congestion_avoidance_per_ack() {
        let mut r = Reno;
        let mut sk = ns3(15 * 1448, 15 * 1448);
        r.ns3_increase_window(&mut sk, 2);
        assert_eq!(sk.cwnd_bytes, 21720 + 96);
        r.ns3_increase_window(&mut sk, 0);
        assert_eq!(sk.cwnd_bytes, 21720 + 96);
        // a huge window still grows by one byte
        let mut sk = ns3(3_000_000, 1);
        r.ns3_increase_window(&mut sk, 1);
        assert_eq!(sk.cwnd_bytes, 3_000_001);
    }

    /// ns-3 dialect, loss: half the bytes in flight, at least 2 MSS.
    #[test]
    fn ns3_ssthresh_is_half_the_flight() {
        let mut r = Reno;
        let mut sk = ns3(10 * 1448, 0);
        assert_eq!(r.ns3_ssthresh(&mut sk, 20 * 1448), 10 * 1448);
        assert_eq!(r.ns3_ssthresh(&mut sk, 1448), 2 * 1448);
    }
}
