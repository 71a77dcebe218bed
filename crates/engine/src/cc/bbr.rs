//! BBR v1 as ns-3.37's `TcpBbr` (src/internet/model/tcp-bbr.cc; Cardwell
//! et al., "BBR: Congestion-Based Congestion Control", ACM Queue 2016, and
//! Linux's tcp_bbr.c it follows): a model of the path (the bottleneck
//! bandwidth as the windowed maximum of the delivery rate over
//! `bw_window_length` round trips, the round-trip propagation time as the
//! minimum RTT over `rtt_window_length`) and a state machine (STARTUP at
//! 2.89x, DRAIN, PROBE_BW cycling its pacing gain 5/4, 3/4, 1 x 6 from a
//! random phase, PROBE_RTT at four segments for 200 ms) that set the
//! pacing rate and the window from it, once per ACK, from a rate sample
//! (`socket/rate.rs`).
//!
//! Only the full TCP runs it (ns-2 has no BBR): not a `CongestionOps` of
//! the shared seam, whose Linux 2.6 hooks have no rate samples, but a type
//! of its own that `socket/cc.rs` calls where ns-3's TcpSocketBase calls
//! `TcpBbr`: `CongControl` after each ACK (`HasCongControl`: the socket's
//! recovery algorithm and its own pacing-rate update stand aside),
//! `CongestionStateSet`, `CwndEvent`, `GetSsThresh`; its `IncreaseWindow`
//! and `PktsAcked` do nothing.  It reads and sets ns-3's `TcpSocketState`
//! fields in [`Window`]: cwnd, ssthresh, `m_pacing` (it turns pacing on),
//! `m_pacingRate`.
//!
//! ns-3.37's arithmetic is kept: rates are whole bit/s (`DataRate`,
//! truncated from doubles), byte counts `uint32_t`, times integer ns; the
//! bandwidth filter is its `WindowedFilter` with `MaxFilter` (a sample of
//! 0 compares as never better), started at the nominal bandwidth
//! cwnd/RTT, which then counts as its empty value; the ACK-aggregation
//! epoch's length is truncated to whole seconds (ns-3 keeps it in a
//! `uint32_t`); PROBE_BW's first phase is drawn from ns-3's random stream
//! `stream` (seed 1, run 1: ns-3's defaults, so every flow draws alike, as
//! in ns-3).

use crate::cc::Param;
use crate::rng::{ns3_stream, Rng};
use crate::socket::cc::{CaEvent, CongState, Window};
use crate::socket::rate::{Connection, Sample};
use crate::socket::rtt::to_ns;

/// ns-3's attributes, as whole numbers (`cc_params`).
pub const PARAMS: &[Param] = &[
    Param { name: "high_gain_permille", default: 2890, about: "[HighGain] in thousandths: STARTUP's pacing and cwnd gain, DRAIN's inverse" },
    Param { name: "bw_window_length", default: 10, about: "[BwWindowLength]: round trips of the max-bandwidth filter" },
    Param { name: "rtt_window_length_ms", default: 10_000, about: "[RttWindowLength]: ms of the min-RTT filter" },
    Param { name: "probe_rtt_duration_ms", default: 200, about: "[ProbeRttDuration]: ms spent in PROBE_RTT" },
    Param { name: "extra_acked_rtt_window_length", default: 5, about: "[ExtraAckedRttWindowLength]: round trips of the extra-acked window" },
    Param { name: "ack_epoch_acked_reset_thresh", default: 1 << 12, about: "[AckEpochAckedResetThresh]: bytes after which the ACK epoch restarts" },
    Param { name: "stream", default: 4, about: "[Stream]: ns-3 random stream of PROBE_BW's first phase" },
];

/// The values each attribute takes.
pub fn param_range(name: &str) -> Option<(i32, i32)> {
    match name {
        "high_gain_permille" | "bw_window_length" => Some((1, i32::MAX)),
        _ => Some((0, i32::MAX)),
    }
}

const PACING_GAIN_CYCLE: [f64; 8] = [5.0 / 4.0, 3.0 / 4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
const GAIN_CYCLE_LENGTH: u32 = 8;
const TIME_MAX: i64 = i64::MAX;

/// `BbrMode_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup = 0,
    Drain = 1,
    ProbeBw = 2,
    ProbeRtt = 3,
}

/// ns-3's `WindowedFilter<DataRate, MaxFilter, uint32_t, uint32_t>` (Kathleen
/// Nichols' windowed max: the best, second and third best samples of the
/// window, times in round trips).
#[derive(Clone, Copy, Debug, Default)]
struct MaxFilter {
    window: u32,
    zero: u64,
    s: [(u64, u32); 3],
}

impl MaxFilter {
    fn new(window: u32, zero: u64, time: u32) -> MaxFilter {
        MaxFilter { window, zero, s: [(zero, time); 3] }
    }

    /// `MaxFilter`'s comparison: a 0 on either side is never better.
    fn better(a: u64, b: u64) -> bool {
        a != 0 && b != 0 && a >= b
    }

    fn best(&self) -> u64 {
        self.s[0].0
    }

    fn update(&mut self, v: u64, t: u32) {
        let w = self.window;
        if self.s[0].0 == self.zero || Self::better(v, self.s[0].0) || t.wrapping_sub(self.s[2].1) > w {
            self.s = [(v, t); 3];
            return;
        }
        if Self::better(v, self.s[1].0) {
            self.s[1] = (v, t);
            self.s[2] = self.s[1];
        } else if Self::better(v, self.s[2].0) {
            self.s[2] = (v, t);
        }
        if t.wrapping_sub(self.s[0].1) > w {
            self.s[0] = self.s[1];
            self.s[1] = self.s[2];
            self.s[2] = (v, t);
            if t.wrapping_sub(self.s[0].1) > w {
                self.s[0] = self.s[1];
                self.s[1] = self.s[2];
            }
            return;
        }
        if self.s[1].0 == self.s[0].0 && t.wrapping_sub(self.s[1].1) > w >> 2 {
            self.s[1] = (v, t);
            self.s[2] = (v, t);
            return;
        }
        if self.s[2].0 == self.s[1].0 && t.wrapping_sub(self.s[2].1) > w >> 1 {
            self.s[2] = (v, t);
        }
    }
}

/// `TcpBbr`'s state.
#[derive(Clone, Debug)]
pub struct Bbr {
    // attributes
    high_gain: f64,
    bw_window_length: u32,
    rt_prop_filter_len: i64,
    probe_rtt_duration: i64,
    extra_acked_win_rtt_length: u32,
    ack_epoch_acked_reset_thresh: u32,
    uv: Rng,
    // state
    pub mode: Mode,
    max_bw: MaxFilter,
    pub pacing_gain: f64,
    pub cwnd_gain: f64,
    is_pipe_filled: bool,
    min_pipe_cwnd: u32,
    round_count: u32,
    round_start: bool,
    next_round_delivered: u32,
    probe_rtt_done_stamp: i64,
    probe_rtt_round_done: bool,
    packet_conservation: bool,
    prior_cwnd: u32,
    idle_restart: bool,
    target_cwnd: u32,
    full_bandwidth: u64,
    full_bandwidth_count: u32,
    rt_prop: i64,
    send_quantum: u32,
    cycle_stamp: i64,
    cycle_index: u32,
    rt_prop_expired: bool,
    rt_prop_stamp: i64,
    is_initialized: bool,
    delivered: u64,
    app_limited: u32,
    extra_acked_gain: u32,
    extra_acked: [u32; 2],
    extra_acked_win_rtt: u32,
    extra_acked_idx: usize,
    ack_epoch_time: i64,
    ack_epoch_acked: u32,
    has_seen_rtt: bool,
}

impl Bbr {
    /// With ns-3's attributes `p` (in the order of [`PARAMS`]).
    pub fn new(p: &[i32]) -> Bbr {
        let ms = 1_000_000i64;
        Bbr {
            high_gain: p[0] as f64 / 1000.0,
            bw_window_length: p[1] as u32,
            rt_prop_filter_len: p[2] as i64 * ms,
            probe_rtt_duration: p[3] as i64 * ms,
            extra_acked_win_rtt_length: p[4] as u32,
            ack_epoch_acked_reset_thresh: p[5] as u32,
            uv: ns3_stream(1, (1 << 63) + p[6] as u64, 1),
            mode: Mode::Startup,
            max_bw: MaxFilter::default(),
            pacing_gain: 0.0,
            cwnd_gain: 0.0,
            is_pipe_filled: false,
            min_pipe_cwnd: 0,
            round_count: 0,
            round_start: false,
            next_round_delivered: 0,
            probe_rtt_done_stamp: 0,
            probe_rtt_round_done: false,
            packet_conservation: false,
            prior_cwnd: 0,
            idle_restart: false,
            target_cwnd: 0,
            full_bandwidth: 0,
            full_bandwidth_count: 0,
            rt_prop: TIME_MAX,
            send_quantum: 0,
            cycle_stamp: 0,
            cycle_index: 0,
            rt_prop_expired: false,
            rt_prop_stamp: 0,
            is_initialized: false,
            delivered: 0,
            app_limited: 0,
            extra_acked_gain: 1,
            extra_acked: [0, 0],
            extra_acked_win_rtt: 0,
            extra_acked_idx: 0,
            ack_epoch_time: 0,
            ack_epoch_acked: 0,
            has_seen_rtt: false,
        }
    }

    /// The bottleneck bandwidth estimate (bit/s) and the propagation-time
    /// estimate (ns).
    pub fn btl_bw(&self) -> u64 {
        self.max_bw.best()
    }

    pub fn rt_prop(&self) -> i64 {
        self.rt_prop
    }

    pub fn is_pipe_filled(&self) -> bool {
        self.is_pipe_filled
    }

    fn init_round_counting(&mut self) {
        self.next_round_delivered = 0;
        self.round_start = false;
        self.round_count = 0;
    }

    fn init_full_pipe(&mut self) {
        self.is_pipe_filled = false;
        self.full_bandwidth = 0;
        self.full_bandwidth_count = 0;
    }

    /// `InitPacingRate`: pacing on; the rate cwnd/minRTT (at least 1 ms, in
    /// whole ms) times the gain; the filter starts from that bandwidth.
    fn init_pacing_rate(&mut self, w: &mut Window) {
        w.pacing = true;
        let rtt_ms = if w.min_rtt != TIME_MAX {
            self.has_seen_rtt = true;
            (w.min_rtt / 1_000_000).max(1)
        } else {
            1
        };
        let rtt_s = rtt_ms as f64 / 1000.0;
        let nominal = (w.cwnd.wrapping_mul(8) as f64 / rtt_s) as u64;
        w.pacing_rate = (self.pacing_gain * nominal as f64) as u64;
        self.max_bw = MaxFilter::new(self.bw_window_length, nominal, 0);
    }

    pub fn enter_startup(&mut self) {
        self.mode = Mode::Startup;
        self.pacing_gain = self.high_gain;
        self.cwnd_gain = self.high_gain;
    }

    fn set_pacing_rate(&mut self, w: &mut Window, gain: f64) {
        let rate = ((gain * self.max_bw.best() as f64) as u64).min(w.max_pacing_rate);
        if !self.has_seen_rtt && w.min_rtt != TIME_MAX {
            self.init_pacing_rate(w);
        }
        if self.is_pipe_filled || rate > w.pacing_rate {
            w.pacing_rate = rate;
        }
    }

    /// `InFlight`: gain x the estimated BDP plus three send quanta (two
    /// segments more in PROBE_BW's first phase); the initial window before
    /// a propagation time is known.
    fn in_flight(&self, w: &Window, gain: f64) -> u32 {
        if self.rt_prop == TIME_MAX {
            return w.initial_cwnd.wrapping_mul(w.mss);
        }
        let quanta = 3.0 * self.send_quantum as f64;
        let bdp = (self.rt_prop as f64 / 1e9) * self.max_bw.best() as f64 / 8.0;
        let mut v = gain * bdp + quanta;
        if self.mode == Mode::ProbeBw && self.cycle_index == 0 {
            v += 2.0 * w.mss as f64;
        }
        v as u32
    }

    fn advance_cycle_phase(&mut self, now: i64) {
        self.cycle_stamp = now;
        self.cycle_index = (self.cycle_index + 1) % GAIN_CYCLE_LENGTH;
        self.pacing_gain = PACING_GAIN_CYCLE[self.cycle_index as usize];
    }

    fn is_next_cycle_phase(&self, w: &Window, rs: &Sample, now: i64) -> bool {
        let full_length = now - self.cycle_stamp > self.rt_prop;
        if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && (rs.bytes_loss > 0 || rs.prior_in_flight >= self.in_flight(w, self.pacing_gain))
        } else {
            full_length || rs.prior_in_flight <= self.in_flight(w, 1.0)
        }
    }

    fn check_full_pipe(&mut self, rs: &Sample) {
        if self.is_pipe_filled || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.max_bw.best() as f64 >= self.full_bandwidth as f64 * 1.25 {
            self.full_bandwidth = self.max_bw.best();
            self.full_bandwidth_count = 0;
            return;
        }
        self.full_bandwidth_count += 1;
        if self.full_bandwidth_count >= 3 {
            self.is_pipe_filled = true;
        }
    }

    pub fn enter_drain(&mut self) {
        self.mode = Mode::Drain;
        self.pacing_gain = 1.0 / self.high_gain;
        self.cwnd_gain = self.high_gain;
    }

    /// `EnterProbeBW`: a random phase other than the 3/4 one, then the next.
    pub fn enter_probe_bw(&mut self, now: i64) {
        self.mode = Mode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 2.0;
        let r = (self.uv.u01() * 6.0) as u32;
        self.cycle_index = GAIN_CYCLE_LENGTH - 1 - r;
        self.advance_cycle_phase(now);
    }

    fn check_drain(&mut self, w: &mut Window, now: i64) {
        if self.mode == Mode::Startup && self.is_pipe_filled {
            self.enter_drain();
            w.ssthresh = self.in_flight(w, 1.0);
        }
        if self.mode == Mode::Drain && w.bytes_in_flight <= self.in_flight(w, 1.0) {
            self.enter_probe_bw(now);
        }
    }

    fn update_rt_prop(&mut self, w: &Window, now: i64) {
        self.rt_prop_expired = now > self.rt_prop_stamp.saturating_add(self.rt_prop_filter_len);
        if w.last_rtt >= 0 && (w.last_rtt <= self.rt_prop || self.rt_prop_expired) {
            self.rt_prop = w.last_rtt;
            self.rt_prop_stamp = now;
        }
    }

    pub fn enter_probe_rtt(&mut self) {
        self.mode = Mode::ProbeRtt;
        self.pacing_gain = 1.0;
        self.cwnd_gain = 1.0;
    }

    fn save_cwnd(&mut self, w: &Window) {
        if w.state != CongState::Recovery && self.mode != Mode::ProbeRtt {
            self.prior_cwnd = w.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
        }
    }

    fn restore_cwnd(&self, w: &mut Window) {
        w.cwnd = self.prior_cwnd.max(w.cwnd);
    }

    fn exit_probe_rtt(&mut self, now: i64) {
        if self.is_pipe_filled {
            self.enter_probe_bw(now);
        } else {
            self.enter_startup();
        }
    }

    fn handle_probe_rtt(&mut self, w: &mut Window, now: i64) {
        // (ns-3 keeps this sum in a uint32_t, `?: 1`)
        let a = (self.delivered as u32).wrapping_add(w.bytes_in_flight);
        self.app_limited = if a != 0 { a } else { 1 };
        if self.probe_rtt_done_stamp == 0 && w.bytes_in_flight <= self.min_pipe_cwnd {
            self.probe_rtt_done_stamp = now + self.probe_rtt_duration;
            self.probe_rtt_round_done = false;
            self.next_round_delivered = self.delivered as u32;
        } else if self.probe_rtt_done_stamp != 0 {
            if self.round_start {
                self.probe_rtt_round_done = true;
            }
            if self.probe_rtt_round_done && now > self.probe_rtt_done_stamp {
                self.rt_prop_stamp = now;
                self.restore_cwnd(w);
                self.exit_probe_rtt(now);
            }
        }
    }

    fn check_probe_rtt(&mut self, w: &mut Window, rs: &Sample, now: i64) {
        if self.mode != Mode::ProbeRtt && self.rt_prop_expired && !self.idle_restart {
            self.enter_probe_rtt();
            self.save_cwnd(w);
            self.probe_rtt_done_stamp = 0;
        }
        if self.mode == Mode::ProbeRtt {
            self.handle_probe_rtt(w, now);
        }
        if rs.delivered != 0 {
            self.idle_restart = false;
        }
    }

    fn ack_aggregation_cwnd(&self) -> u32 {
        if self.extra_acked_gain != 0 && self.is_pipe_filled {
            let max_aggr = (self.max_bw.best() / 80) as u32;
            let aggr = self.extra_acked_gain.wrapping_mul(self.extra_acked[0].max(self.extra_acked[1]));
            aggr.min(max_aggr)
        } else {
            0
        }
    }

    fn update_ack_aggregation(&mut self, w: &Window, rs: &Sample, now: i64) {
        if self.extra_acked_gain == 0 || rs.acked_sacked == 0 || rs.delivered < 0 {
            return;
        }
        if self.round_start {
            self.extra_acked_win_rtt = (self.extra_acked_win_rtt + 1).min(31);
            if self.extra_acked_win_rtt >= self.extra_acked_win_rtt_length {
                self.extra_acked_win_rtt = 0;
                self.extra_acked_idx = if self.extra_acked_idx != 0 { 0 } else { 1 };
                self.extra_acked[self.extra_acked_idx] = 0;
            }
        }
        // (ns-3 keeps the epoch's length in a uint32_t: whole seconds)
        let epoch_prop = (now as f64 / 1e9 - self.ack_epoch_time as f64 / 1e9) as u32;
        let mut expected = (self.max_bw.best().wrapping_mul(epoch_prop as u64) / 8) as u32;
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked.wrapping_add(rs.acked_sacked) >= self.ack_epoch_acked_reset_thresh {
            self.ack_epoch_acked = 0;
            self.ack_epoch_time = now;
            expected = 0;
        }
        self.ack_epoch_acked = self.ack_epoch_acked.wrapping_add(rs.acked_sacked);
        let extra = self.ack_epoch_acked.wrapping_sub(expected).min(w.cwnd);
        if extra > self.extra_acked[self.extra_acked_idx] {
            self.extra_acked[self.extra_acked_idx] = extra;
        }
    }

    /// `SetCwnd`.
    fn set_cwnd(&mut self, w: &mut Window, rs: &Sample) {
        'done: {
            if rs.acked_sacked == 0 {
                break 'done;
            }
            if w.state == CongState::Recovery {
                // `ModulateCwndForRecovery`
                if rs.bytes_loss > 0 {
                    w.cwnd = (w.cwnd as i32).wrapping_sub(rs.bytes_loss as i32).max(w.mss as i32) as u32;
                }
                if self.packet_conservation {
                    w.cwnd = w.cwnd.max(w.bytes_in_flight.wrapping_add(rs.acked_sacked));
                    break 'done;
                }
            }
            self.target_cwnd = self.in_flight(w, self.cwnd_gain).wrapping_add(self.ack_aggregation_cwnd());
            if self.is_pipe_filled {
                w.cwnd = w.cwnd.wrapping_add(rs.acked_sacked).min(self.target_cwnd);
            } else if w.cwnd < self.target_cwnd || self.delivered < w.initial_cwnd as u64 * w.mss as u64 {
                w.cwnd = w.cwnd.wrapping_add(rs.acked_sacked);
            }
            w.cwnd = w.cwnd.max(self.min_pipe_cwnd);
        }
        if self.mode == Mode::ProbeRtt {
            w.cwnd = w.cwnd.min(self.min_pipe_cwnd);
        }
    }

    fn update_round(&mut self, rs: &Sample) {
        if rs.prior_delivered as u32 >= self.next_round_delivered {
            self.next_round_delivered = self.delivered as u32;
            self.round_count += 1;
            self.round_start = true;
            self.packet_conservation = false;
        } else {
            self.round_start = false;
        }
    }

    fn update_btl_bw(&mut self, rs: &Sample) {
        if rs.delivery_rate == 0 {
            return;
        }
        self.update_round(rs);
        if rs.delivery_rate >= self.max_bw.best() || !rs.is_app_limited {
            self.max_bw.update(rs.delivery_rate, self.round_count);
        }
    }

    /// `CongControl`: after each ACK, with the connection's delivery
    /// counters and the ACK's rate sample.
    pub fn cong_control(&mut self, w: &mut Window, rc: &Connection, rs: &Sample) {
        let now = to_ns(w.now);
        self.delivered = rc.delivered;
        // `UpdateModelAndState`
        self.update_btl_bw(rs);
        self.update_ack_aggregation(w, rs, now);
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(w, rs, now) {
            self.advance_cycle_phase(now);
        }
        self.check_full_pipe(rs);
        self.check_drain(w, now);
        self.update_rt_prop(w, now);
        self.check_probe_rtt(w, rs, now);
        // `UpdateControlParameters`
        let g = self.pacing_gain;
        self.set_pacing_rate(w, g);
        self.send_quantum = w.mss;
        self.set_cwnd(w, rs);
    }

    /// `CongestionStateSet`, before the socket's state changes.
    pub fn state_set(&mut self, w: &mut Window, new: CongState) {
        let now = to_ns(w.now);
        match new {
            CongState::Open if !self.is_initialized => {
                // (ns-3 tests `m_lastRtt != Time::Max()`: always true, so
                // rtProp starts at the SRTT, 0 before any sample)
                self.rt_prop = w.last_rtt;
                self.rt_prop_stamp = now;
                self.prior_cwnd = w.cwnd;
                w.ssthresh = w.initial_ssthresh;
                self.target_cwnd = w.cwnd;
                self.min_pipe_cwnd = 4 * w.mss;
                self.send_quantum = w.mss;
                self.init_round_counting();
                self.init_full_pipe();
                self.enter_startup();
                self.init_pacing_rate(w);
                self.ack_epoch_time = now;
                self.extra_acked_win_rtt = 0;
                self.extra_acked_idx = 0;
                self.ack_epoch_acked = 0;
                self.extra_acked = [0, 0];
                self.is_initialized = true;
            }
            CongState::Loss => {
                self.save_cwnd(w);
                self.round_start = true;
            }
            CongState::Recovery => {
                self.save_cwnd(w);
                w.cwnd = w.bytes_in_flight.wrapping_add(w.last_acked_sacked.max(w.mss));
                self.packet_conservation = true;
            }
            _ => {}
        }
    }

    /// `CwndEvent`.
    pub fn cwnd_event(&mut self, w: &mut Window, ev: CaEvent) {
        let now = to_ns(w.now);
        match ev {
            CaEvent::CompleteCwr => {
                self.packet_conservation = false;
                self.restore_cwnd(w);
            }
            CaEvent::TxStart if self.app_limited != 0 => {
                self.idle_restart = true;
                self.ack_epoch_time = now;
                self.ack_epoch_acked = 0;
                if self.mode == Mode::ProbeBw {
                    self.set_pacing_rate(w, 1.0);
                } else if self.mode == Mode::ProbeRtt && self.probe_rtt_round_done && now > self.probe_rtt_done_stamp {
                    self.rt_prop_stamp = now;
                    self.restore_cwnd(w);
                    self.exit_probe_rtt(now);
                }
            }
            _ => {}
        }
    }

    /// `GetSsThresh`: remembers the window; ssthresh stays.
    pub fn ssthresh(&mut self, w: &Window) -> u32 {
        self.save_cwnd(w);
        w.ssthresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Vec<i32> {
        PARAMS.iter().map(|p| p.default).collect()
    }

    fn window() -> Window {
        let mut w = Window::new(10 * 1448, u32::MAX, 1448);
        w.max_pacing_rate = 4_000_000_000;
        w
    }

    /// ns-3.37's tcp-bbr-test.cc, `TcpBbrPacingEnableTest`: BBR turns pacing
    /// on (its CongestionStateSet to OPEN) whether it was on or off.
    #[test]
    fn ns3_pacing_enable() {
        for pacing in [true, false] {
            let mut b = Bbr::new(&defaults());
            let mut w = window();
            w.pacing = pacing;
            b.state_set(&mut w, CongState::Open);
            assert!(w.pacing);
        }
    }

    /// ns-3.37's tcp-bbr-test.cc, `TcpBbrCheckGainValuesTest` with HighGain
    /// 4: STARTUP 4 and 4; DRAIN 1/4 and 4; PROBE_BW 1.25 (stream 4's first
    /// draw, 0.1518, gives phase 7 - 0 = 7, advanced to 0: 5/4) and 2;
    /// PROBE_RTT 1 and 1.
    #[test]
    fn ns3_gain_values() {
        let mut p = defaults();
        p[0] = 4000;
        let mut b = Bbr::new(&p);
        b.enter_startup();
        assert_eq!((b.mode, b.pacing_gain, b.cwnd_gain), (Mode::Startup, 4.0, 4.0));
        b.enter_drain();
        assert_eq!((b.mode, b.pacing_gain, b.cwnd_gain), (Mode::Drain, 0.25, 4.0));
        b.enter_probe_bw(0);
        assert_eq!((b.mode, b.pacing_gain, b.cwnd_gain), (Mode::ProbeBw, 1.25, 2.0));
        b.enter_probe_rtt();
        assert_eq!((b.mode, b.pacing_gain, b.cwnd_gain), (Mode::ProbeRtt, 1.0, 1.0));
        // another stream starts elsewhere in the cycle: stream 5's first
        // draw is not below 1/6
        let mut p = defaults();
        p[6] = 0;
        let draws: Vec<f64> = (0..8u64).map(|s| ns3_stream(1, (1 << 63) + s, 1).u01()).collect();
        let mut b = Bbr::new(&p);
        b.enter_probe_bw(0);
        let want = (GAIN_CYCLE_LENGTH - 1 - (draws[0] * 6.0) as u32 + 1) % GAIN_CYCLE_LENGTH;
        assert_eq!(b.cycle_index, want);
        assert_eq!(b.pacing_gain, PACING_GAIN_CYCLE[want as usize]);
    }

    /// `InitPacingRate` at the handshake: cwnd 10 x 1448 over a minimum RTT
    /// of 100.9 ms taken in whole ms (100): 1158400 bit/s, times the high
    /// gain 2.89 = 3347776 bit/s; ssthresh back to the initial one; the
    /// filter starts at the nominal rate, which counts as empty: the first
    /// sample replaces it even when lower.
    #[test]
    fn startup_from_the_handshake() {
        let mut b = Bbr::new(&defaults());
        let mut w = window();
        w.ssthresh = 5;
        w.min_rtt = 100_900_000;
        w.last_rtt = 100_900_000;
        b.state_set(&mut w, CongState::Open);
        assert_eq!(w.pacing_rate, 3_347_776);
        assert_eq!(w.ssthresh, u32::MAX);
        assert_eq!((b.btl_bw(), b.rt_prop(), b.mode), (1_158_400, 100_900_000, Mode::Startup));
        b.max_bw.update(500_000, 1);
        assert_eq!(b.btl_bw(), 500_000);
        // and a second time does nothing (initialised once)
        w.cwnd = 1448;
        b.state_set(&mut w, CongState::Open);
        assert_eq!(w.pacing_rate, 3_347_776);
    }

    /// The windowed max filter (ns-3's WindowedFilter, window 10 rounds):
    /// a better sample replaces all three; a worse one waits as second (and
    /// third) best, a still worse one only once the third best is older
    /// than half the window; the best expires after the window, the next
    /// best taking over.
    #[test]
    fn max_filter_window() {
        let mut f = MaxFilter::new(10, 0, 0);
        f.update(100, 1);
        assert_eq!(f.s, [(100, 1); 3]);
        f.update(80, 4);
        assert_eq!(f.s, [(100, 1), (80, 4), (80, 4)]);
        f.update(60, 8);
        assert_eq!(f.s, [(100, 1), (80, 4), (80, 4)]);
        f.update(60, 10);
        assert_eq!(f.s, [(100, 1), (80, 4), (60, 10)]);
        f.update(50, 12);
        // 12 - 1 > 10: the best goes, 80 is best
        assert_eq!(f.best(), 80);
        f.update(120, 13);
        assert_eq!(f.s, [(120, 13); 3]);
        // a zero sample is never better; a rate of 0 is not taken as best
        f.update(0, 14);
        assert_eq!(f.best(), 120);
    }

    /// `InFlight` and `SetCwnd`: with 10 Mb/s and 100 ms, the BDP is
    /// 125000 bytes; gain 2 gives 250000 + 3 x 1448 = 254344 (PROBE_BW's
    /// first phase two segments more).  Once the pipe is filled the window
    /// grows by what was acked up to that target; in recovery with packet
    /// conservation it is at least the bytes in flight plus those acked, less
    /// the bytes lost; PROBE_RTT holds it at four segments.
    #[test]
    fn in_flight_and_cwnd() {
        let mut b = Bbr::new(&defaults());
        let mut w = window();
        w.last_rtt = 100_000_000;
        b.state_set(&mut w, CongState::Open);
        b.max_bw = MaxFilter::new(10, 0, 0);
        b.max_bw.update(10_000_000, 1);
        b.rt_prop = 100_000_000;
        assert_eq!(b.in_flight(&w, 2.0), 254_344);
        b.enter_probe_bw(0);
        assert_eq!(b.cycle_index, 0);
        assert_eq!(b.in_flight(&w, 2.0), 254_344 + 2896);
        b.is_pipe_filled = true;
        b.cycle_index = 2;
        let rs = Sample { acked_sacked: 2896, delivered: 2896, ..Sample::default() };
        w.cwnd = 250_000;
        b.set_cwnd(&mut w, &rs);
        // target 254344 + the ACK-aggregation allowance (none measured yet)
        assert_eq!(w.cwnd, 252_896);
        b.set_cwnd(&mut w, &rs);
        b.set_cwnd(&mut w, &rs);
        assert_eq!(w.cwnd, 254_344);
        // recovery: in flight 100000 + acked 2896, less 1448 lost first
        w.state = CongState::Recovery;
        w.bytes_in_flight = 100_000;
        b.packet_conservation = true;
        w.cwnd = 50_000;
        let rs = Sample { acked_sacked: 2896, bytes_loss: 1448, delivered: 2896, ..Sample::default() };
        b.set_cwnd(&mut w, &rs);
        assert_eq!(w.cwnd, 102_896);
        b.enter_probe_rtt();
        b.set_cwnd(&mut w, &rs);
        assert_eq!(w.cwnd, 4 * 1448);
    }
}
