//! Pacing as ns-3.37's TcpSocketBase has it: while pacing is enabled, a
//! data segment leaves only when the pacing timer is idle, and each one
//! sent with the timer idle starts it for the segment's payload at the
//! pacing rate (`SendDataPacket`, `SendPendingData`,
//! `NotifyPacingPerformed`).  The rate is set after each ACK from the
//! window and the RTT estimate (`UpdatePacingRate`), unless the congestion
//! control sets it itself (BBR, `HasCongControl`).  Off by default, as in
//! ns-3.
//!
//! Rates are whole bits per second (ns-3's `DataRate`, a `uint64_t`: a rate
//! computed in floating point is truncated); a segment's time on the timer
//! is its payload's bits over the rate, rounded to the nanosecond
//! (`DataRate::CalculateBytesTxTime`).

use super::cc::Window;
use crate::sched::TimerStatus;
use crate::sim::Sim;

/// The pacing attributes (ns-3's names in brackets).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// [TcpSocketState::EnablePacing].
    pub enabled: bool,
    /// [TcpSocketState::MaxPacingRate], bit/s.
    pub max_rate: u64,
    /// [TcpSocketState::PacingSsRatio], [PacingCaRatio]: percent of
    /// cwnd/RTT in (early) slow start and otherwise.
    pub ss_ratio: u16,
    pub ca_ratio: u16,
    /// [TcpSocketState::PaceInitialWindow]: pace the first window too.
    pub initial_window: bool,
}

impl Default for Config {
    /// ns-3.37's defaults: off, 4 Gb/s, 200%, 120%, initial window unpaced.
    fn default() -> Config {
        Config { enabled: false, max_rate: 4_000_000_000, ss_ratio: 200, ca_ratio: 120, initial_window: false }
    }
}

impl Config {
    pub fn check(&self) -> Result<(), String> {
        if self.max_rate == 0 {
            return Err("max_pacing_rate must be at least 1 bit/s".into());
        }
        if self.ss_ratio == 0 || self.ca_ratio == 0 {
            return Err(format!(
                "pacing_ss_ratio and pacing_ca_ratio must be 1 to 65535 percent, got {} and {}",
                self.ss_ratio, self.ca_ratio
            ));
        }
        Ok(())
    }
}

/// `DataRate::CalculateBytesTxTime`: `bytes` at `rate` bit/s, in ns
/// (rounded to the nearest, as `Time` rounds the exact quotient).
#[inline]
pub fn tx_time_ns(bytes: u32, rate: u64) -> i64 {
    let bits = bytes as u128 * 8 * 1_000_000_000;
    let r = rate.max(1) as u128;
    ((bits + r / 2) / r) as i64
}

/// The socket's pacing timer and the attributes that stay put; the pacing
/// state proper (`m_pacing`, `m_pacingRate`, `m_maxPacingRate`) is in the
/// congestion control's view of the socket ([`Window`]), where BBR sets it.
#[derive(Clone, Debug)]
pub struct Pacer {
    ss_ratio: u16,
    ca_ratio: u16,
    pub initial_window: bool,
    timer: u32,
}

impl Pacer {
    pub fn new(cfg: &Config, timer: u32) -> Pacer {
        Pacer { ss_ratio: cfg.ss_ratio, ca_ratio: cfg.ca_ratio, initial_window: cfg.initial_window, timer }
    }

    /// `m_pacingTimer.IsRunning()` (not while its own event runs).
    #[inline]
    pub fn running(&self, sim: &Sim) -> bool {
        sim.w.s.timer_status(self.timer) == TimerStatus::Pending
    }

    /// `m_pacingTimer.Cancel()` (a retransmission timeout sends at once).
    #[inline]
    pub fn cancel(&self, sim: &mut Sim) {
        sim.w.s.timer_cancel(self.timer);
    }

    /// A segment of `payload` bytes was sent: with the timer idle, it runs
    /// for the segment's time at the pacing rate.
    #[inline]
    pub fn start(&mut self, sim: &mut Sim, payload: u32, rate: u64) {
        if !self.running(sim) {
            let ns = tx_time_ns(payload, rate);
            sim.w.s.timer_resched(self.timer, ns as f64 * 1e-9);
        }
    }

    /// `UpdatePacingRate`: (max(cwnd, bytes in flight) * 8 * ratio) / RTT,
    /// at most the maximum; the slow-start ratio while cwnd is below half
    /// of ssthresh.  The RTT is ns-3's `m_lastRtt` (the SRTT); before any
    /// estimate (0) ns-3 divides by zero, which gives the maximum.
    pub fn update(&self, w: &mut Window) {
        let ratio = if w.cwnd < w.ssthresh / 2 { self.ss_ratio } else { self.ca_ratio };
        let factor = ratio as f64 / 100.0;
        let rate = if w.last_rtt > 0 {
            let r = (w.cwnd.max(w.bytes_in_flight).wrapping_mul(8) as f64 * factor) / (w.last_rtt as f64 / 1e9);
            // C's conversion to uint64_t (saturating here)
            r as u64
        } else {
            u64::MAX
        };
        w.pacing_rate = rate.min(w.max_pacing_rate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1448 bytes at 10 Mb/s take 1158.4 us -> 1158400 ns; at 3 bit/s
    /// 8/3 s rounds to the nearest ns.
    #[test]
    fn tx_time_rounds_to_the_ns() {
        assert_eq!(tx_time_ns(1448, 10_000_000), 1_158_400);
        assert_eq!(tx_time_ns(1, 3), 2_666_666_667);
        assert_eq!(tx_time_ns(1448, 4_000_000_000), 2896);
    }

    /// ns-3's `UpdatePacingRate`: cwnd 10 segments, ssthresh unbounded, RTT
    /// 100 ms: slow start's 200% gives 14480*8*2/0.1 = 2316800 bit/s; at
    /// cwnd >= ssthresh/2 (integer halving) the 120% ratio; bytes in flight above cwnd count
    /// instead; the maximum caps it; no RTT yet gives the maximum.
    #[test]
    fn rate_from_window_and_rtt() {
        let p = Pacer::new(&Config { enabled: true, ..Config::default() }, 0);
        let mut w = Window::new(14480, u32::MAX, 1448);
        w.max_pacing_rate = 4_000_000_000;
        let mut rate = |cwnd: u32, ssthresh: u32, bif: u32, rtt: i64| {
            (w.cwnd, w.ssthresh, w.bytes_in_flight, w.last_rtt) = (cwnd, ssthresh, bif, rtt);
            p.update(&mut w);
            w.pacing_rate
        };
        assert_eq!(rate(14480, u32::MAX, 0, 100_000_000), 2_316_800);
        assert_eq!(rate(14480, 28960, 0, 100_000_000), 1_390_080);
        assert_eq!(rate(14480, 28962, 0, 100_000_000), 2_316_800);
        assert_eq!(rate(14480, 28960, 20000, 100_000_000), 1_920_000);
        assert_eq!(rate(14480, u32::MAX, 0, 1000), 4_000_000_000);
        assert_eq!(rate(14480, u32::MAX, 0, 0), 4_000_000_000);
        let c = Config { ss_ratio: 0, ..Config::default() };
        assert!(c.check().unwrap_err().contains("pacing_ss_ratio"));
    }
}
