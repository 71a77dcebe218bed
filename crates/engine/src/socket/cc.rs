//! The congestion-control interface of the full TCP, and ns-3's NewReno.
//!
//! Deliberately narrow, so that the shared congestion-control seam
//! (`crates/engine/src/cc/`, Linux `tcp_congestion_ops`-shaped) can take it
//! over: the socket calls these hooks exactly where ns-3.37's
//! `TcpSocketBase` calls `TcpCongestionOps` (`GetSsThresh`,
//! `IncreaseWindow`, `PktsAcked`, `CongestionStateSet`, `CwndEvent`).  What
//! a controller reads and writes is `Window` (cwnd and ssthresh in bytes,
//! the segment size, the congestion state, the last RTT estimate); it gets
//! segments acked and RTT samples through the hooks' arguments.  `ssthresh`
//! returns a value and must not set it (the socket stores it), as in Linux.
//! Dispatch is a `match` on `Cc`.

/// ns-3's `TcpSocketState::TcpCongState_t` (Linux's `tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CongState {
    Open = 0,
    Disorder = 1,
    Cwr = 2,
    Recovery = 3,
    Loss = 4,
}

impl CongState {
    pub fn name(self) -> &'static str {
        match self {
            CongState::Open => "open",
            CongState::Disorder => "disorder",
            CongState::Cwr => "cwr",
            CongState::Recovery => "recovery",
            CongState::Loss => "loss",
        }
    }
}

/// ns-3's `TcpCAEvent_t` (Linux's `tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaEvent {
    TxStart,
    Loss,
    CompleteCwr,
    DelayedAck,
    NonDelayedAck,
}

/// What a controller sees of the connection (ns-3's `TcpSocketState`, the
/// part congestion control uses).
#[derive(Clone, Debug)]
pub struct Window {
    /// Congestion window (bytes).
    pub cwnd: u32,
    /// Slow-start threshold (bytes).
    pub ssthresh: u32,
    /// Sender MSS (bytes).
    pub mss: u32,
    pub state: CongState,
    /// The RTT estimate passed to `pkts_acked` (ns-3.37 passes SRTT, not the
    /// raw sample: `m_lastRtt = m_rtt->GetEstimate()`), ns.
    pub last_rtt: i64,
    /// Smallest `last_rtt` seen, ns.
    pub min_rtt: i64,
}

/// The congestion controls the full TCP can run.
#[derive(Clone, Debug)]
pub enum Cc {
    NewReno(NewReno),
}

impl Cc {
    /// By name ("newreno"); `None` if unknown.
    pub fn by_name(name: &str) -> Option<Cc> {
        match name {
            "newreno" => Some(Cc::NewReno(NewReno)),
            _ => None,
        }
    }

    pub const NAMES: &'static [&'static str] = &["newreno"];

    /// `GetSsThresh`: the new ssthresh after a loss, given the bytes in flight.
    #[inline]
    pub fn ssthresh(&mut self, w: &Window, bytes_in_flight: u32) -> u32 {
        match self {
            Cc::NewReno(c) => c.ssthresh(w, bytes_in_flight),
        }
    }

    /// `IncreaseWindow`: an ACK advanced the window by `segments_acked`.
    #[inline]
    pub fn increase_window(&mut self, w: &mut Window, segments_acked: u32) {
        match self {
            Cc::NewReno(c) => c.increase_window(w, segments_acked),
        }
    }

    /// `PktsAcked`: segments acknowledged and the RTT estimate (ns).
    #[inline]
    pub fn pkts_acked(&mut self, _w: &Window, _segments_acked: u32, _rtt: i64) {
        match self {
            Cc::NewReno(_) => {}
        }
    }

    /// `CongestionStateSet`: called before the socket changes state.
    #[inline]
    pub fn state_set(&mut self, _w: &mut Window, _new: CongState) {
        match self {
            Cc::NewReno(_) => {}
        }
    }

    /// `CwndEvent`.
    #[inline]
    pub fn cwnd_event(&mut self, _w: &mut Window, _ev: CaEvent) {
        match self {
            Cc::NewReno(_) => {}
        }
    }
}

/// ns-3.37's `TcpNewReno` (tcp-congestion-ops.cc), byte arithmetic included:
/// slow start adds one MSS per ACK however many segments it acks; congestion
/// avoidance adds max(1, MSS*MSS/cwnd) bytes per ACK that acks anything, so
/// with delayed ACKs cwnd grows about half an MSS per RTT.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewReno;

impl NewReno {
    fn slow_start(&self, w: &mut Window, segments_acked: u32) -> u32 {
        if segments_acked >= 1 {
            w.cwnd += w.mss;
            return segments_acked - 1;
        }
        0
    }

    fn congestion_avoidance(&self, w: &mut Window, segments_acked: u32) {
        if segments_acked > 0 {
            let adder = (w.mss as f64 * w.mss as f64) / w.cwnd as f64;
            let adder = adder.max(1.0);
            w.cwnd += adder as u32;
        }
    }

    pub fn increase_window(&self, w: &mut Window, mut segments_acked: u32) {
        if w.cwnd < w.ssthresh {
            segments_acked = self.slow_start(w, segments_acked);
        }
        if w.cwnd >= w.ssthresh {
            self.congestion_avoidance(w, segments_acked);
        }
    }

    pub fn ssthresh(&self, w: &Window, bytes_in_flight: u32) -> u32 {
        (2 * w.mss).max(bytes_in_flight / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(cwnd: u32, ssthresh: u32) -> Window {
        Window { cwnd, ssthresh, mss: 1448, state: CongState::Open, last_rtt: 0, min_rtt: i64::MAX }
    }

    #[test]
    fn slow_start_adds_one_mss_per_ack() {
        let mut cc = Cc::by_name("newreno").unwrap();
        let mut w = win(2 * 1448, u32::MAX);
        // a delayed ACK for 2 segments: one MSS, not two (ns-3 ignores the rest)
        cc.increase_window(&mut w, 2);
        assert_eq!(w.cwnd, 3 * 1448);
    }

    #[test]
    fn congestion_avoidance_is_mss_squared_over_cwnd_per_ack() {
        let mut cc = Cc::by_name("newreno").unwrap();
        let mut w = win(15 * 1448, 15 * 1448);
        // 1448^2 / 21720 = 96.53 -> 96 bytes, whether the ACK covers 1 or 2 segments
        cc.increase_window(&mut w, 2);
        assert_eq!(w.cwnd, 21720 + 96);
        cc.increase_window(&mut w, 0);
        assert_eq!(w.cwnd, 21720 + 96);
        // a huge window still grows by at least one byte
        let mut w = win(3_000_000, 1);
        cc.increase_window(&mut w, 1);
        assert_eq!(w.cwnd, 3_000_001);
    }

    #[test]
    fn ssthresh_is_half_the_flight_at_least_two_mss() {
        let mut cc = Cc::by_name("newreno").unwrap();
        let w = win(10 * 1448, 0);
        assert_eq!(cc.ssthresh(&w, 20 * 1448), 10 * 1448);
        assert_eq!(cc.ssthresh(&w, 1448), 2 * 1448);
        assert!(Cc::by_name("cubic").is_none());
    }
}
