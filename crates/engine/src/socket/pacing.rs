//! Pacing as ns-3.37's TcpSocketBase has it: while pacing is enabled, a
//! data segment leaves only when the pacing timer is idle, and each one
//! sent with the timer idle starts it for the segment's payload at the
//! pacing rate (`SendDataPacket`, `SendPendingData`,
//! `NotifyPacingPerformed`).  The rate is set after each ACK from the
//! window and the RTT estimate (`UpdatePacingRate`), unless the congestion
//! control sets it itself (BBR, `HasCongControl`).  Off by default, as in
//! ns-3.
//!
//! Prague's rate follows Linux tcp_prague's `prague_update_pacing_rate`
//! instead ([`Rule::Prague`]): the same timer, the same per-segment wait,
//! only the rate's equation differs (its ratios, the packet's size on the
//! wire rather than the payload, whole segments, Linux's integer steps).
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

/// Which equation sets the rate after an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// ns-3.37's `UpdatePacingRate`: the window in bytes over SRTT, times
    /// `PacingSsRatio` or `PacingCaRatio`.
    Ns3,
    /// Linux tcp_prague's `prague_update_pacing_rate` (v0.6, the module
    /// with AccECN): `max(cwnd, packets in flight)` segments of
    /// `mss + overhead` bytes (`tcp_mss_to_mtu`: the IP and TCP headers and
    /// the TCP options other than AccECN's) per SRTT, doubled while cwnd is
    /// below half of ssthresh (200% in slow start, 100% after: its ratios,
    /// not the sysctls').
    Prague { overhead: u32 },
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
    pub rule: Rule,
}

impl Pacer {
    pub fn new(cfg: &Config, timer: u32) -> Pacer {
        Pacer { ss_ratio: cfg.ss_ratio, ca_ratio: cfg.ca_ratio, initial_window: cfg.initial_window, timer, rule: Rule::Ns3 }
    }

    pub fn with_rule(self, rule: Rule) -> Pacer {
        Pacer { rule, ..self }
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
    /// With [`Rule::Prague`], [`prague_rate`].
    pub fn update(&self, w: &mut Window) {
        if let Rule::Prague { overhead } = self.rule {
            w.pacing_rate = prague_rate(w, overhead);
            return;
        }
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

/// tcp_prague's rate (bit/s), in its integer steps: Linux keeps SRTT in
/// eighths of a microsecond (`srtt_us`), so `8e6 * mtu` (bytes/s for one
/// packet per eighth of a microsecond), doubled while cwnd < ssthresh / 2
/// (whole segments, the halving truncated), divided by SRTT in eighths of a
/// microsecond (truncated; not at all before an estimate, which leaves it
/// far above any link), times `max(cwnd, packets in flight)`; then in bits
/// and at most the maximum.  The packets in flight are the pipe in
/// segments, rounded up (Linux counts packets).  max(cwnd, in flight) is
/// the L4S team's module of March 2020 (the copy in their
/// l4steam.github.io repository, `rtt-independence/experiments/modules`);
/// v0.6 paces on its fractional window instead (docs/full-tcp.md, "L4S
/// rate balance").
pub fn prague_rate(w: &Window, overhead: u32) -> u64 {
    let mss = w.mss.max(1) as u64;
    let cwnd = w.cwnd as u64 / mss;
    let in_flight = (w.bytes_in_flight as u64).div_ceil(mss);
    let mut rate = 8_000_000 * (mss + overhead as u64);
    if cwnd < (w.ssthresh as u64 / mss) / 2 {
        rate <<= 1;
    }
    let srtt8 = w.last_rtt.max(0) as u64 * 8 / 1000;
    if srtt8 > 0 {
        rate /= srtt8;
    }
    rate.saturating_mul(cwnd.max(in_flight)).saturating_mul(8).min(w.max_pacing_rate)
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

    /// tcp_prague's rate, worked from its equation: MSS 1448 with the
    /// 52 bytes of IP, TCP and timestamp headers (a 1500-byte packet), SRTT
    /// 10 ms (80000 eighths of a us): 8e6 * 1500 / 80000 = 150000 bytes/s a
    /// segment.  20 segments past slow start (100%): 3 MB/s, 24 Mb/s (ns-3's
    /// rule gives 28960 * 8 * 1.2 / 0.01 = 27.8016 Mb/s there); 10 in slow
    /// start (ssthresh unbounded, 200%) as much.  The halving is of whole
    /// segments: ssthresh 21 segments gives 10, not above cwnd 10: 100%; 22
    /// gives 11: 200%.  30000 bytes in flight are 21 segments (rounded
    /// up), above cwnd 10: 21 * 150000 * 8 = 25.2 Mb/s.  SRTT 7 ms: 12e9 /
    /// 56000 = 214285 (truncated), times 10 segments, 8 bits: 17142800.
    /// No SRTT yet, or a higher rate than the maximum: the maximum.
    #[test]
    fn prague_rate_from_its_equation() {
        let p = Pacer::new(&Config { enabled: true, ..Config::default() }, 0).with_rule(Rule::Prague { overhead: 52 });
        let mut w = Window::new(0, 0, 1448);
        w.max_pacing_rate = 4_000_000_000;
        let mut rate = |cwnd: u32, ssthresh: u32, bif: u32, rtt: i64| {
            (w.cwnd, w.ssthresh, w.bytes_in_flight, w.last_rtt) = (cwnd * 1448, ssthresh.saturating_mul(1448), bif, rtt);
            p.update(&mut w);
            w.pacing_rate
        };
        assert_eq!(rate(20, 10, 0, 10_000_000), 24_000_000);
        assert_eq!(rate(10, u32::MAX, 0, 10_000_000), 24_000_000);
        assert_eq!(rate(10, 21, 0, 10_000_000), 12_000_000);
        assert_eq!(rate(10, 22, 0, 10_000_000), 24_000_000);
        assert_eq!(rate(10, 20, 30_000, 10_000_000), 25_200_000);
        assert_eq!(rate(10, 20, 0, 7_000_000), 17_142_800);
        assert_eq!(rate(10, 20, 0, 0), 4_000_000_000);
        assert_eq!(rate(10_000, 20, 0, 1_000_000), 4_000_000_000);
        // the same window by ns-3's rule
        let ns3 = Pacer::new(&Config { enabled: true, ..Config::default() }, 0);
        (w.cwnd, w.ssthresh, w.bytes_in_flight, w.last_rtt) = (20 * 1448, 10 * 1448, 0, 10_000_000);
        ns3.update(&mut w);
        assert_eq!(w.pacing_rate, 27_801_600);
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
