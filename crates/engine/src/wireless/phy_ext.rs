//! The extended radio (ns-2 2.35's `Phy/WirelessPhyExt`,
//! mac/wireless-phyExt.cc): reception judged by the signal to
//! interference-and-noise ratio rather than by fixed thresholds.
//!
//! A power monitor keeps every signal the radio hears above its monitor
//! threshold (its own transmissions included) until the signal ends; the
//! power level is their sum over the noise floor, and the medium is busy
//! while it is at or above the carrier-sense threshold.  The radio is in
//! one of four states:
//!
//! * searching: a frame whose SINR reaches the basic modulation's
//!   threshold (BPSK) is locked onto for its preamble and PLCP header
//!   (`HeaderDuration_`), else discarded (`SXB`);
//! * pre-receiving (the header): a later frame is discarded (`PXB`) if the
//!   current one's SINR still reaches the basic threshold; else the
//!   current one is lost, and with preamble capture on the later one is
//!   locked onto when its SINR reaches `SINR_PreambleCapture_`;
//! * receiving (the body): a later frame is discarded (`RXB`) while the
//!   current one's SINR reaches its modulation's threshold; else the
//!   current one is marked in error, and with data capture on the later
//!   one replaces it when its SINR reaches `SINR_DataCapture_`;
//! * transmitting: what arrives is discarded (`TXB`); a transmission
//!   started while receiving discards the frame being received (`INT`).
//!
//! A discarded frame too weak to have been decoded even alone is traced
//! `DND` (below its modulation's threshold times the noise floor) or `PND`
//! (below the basic modulation's), as ns-2 renames it.  The host does the
//! scheduling, the tracing and the talking to the MAC ([`Host`]); nothing
//! here allocates per frame but the monitor's list, which holds the
//! signals in the air (a handful) and keeps its capacity.

/// The four modulations of 802.11a (at coding rate 1/2 for BPSK and QPSK,
/// 3/4 for the QAMs): ns-2's name and the SINR a frame needs (ratio).
pub const MODULATIONS: [(&str, f64); 4] = [("BPSK", 3.1623), ("QPSK", 6.3096), ("QAM16", 31.6228), ("QAM64", 316.2278)];

/// The SINR threshold of modulation `m` (0 BPSK to 3 QAM64).
pub fn threshold(m: u8) -> f64 {
    MODULATIONS[m as usize].1
}

/// The radio's parameters (ns-2's bound variables; defaults ns-default.tcl's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// `CSThresh_`, `noise_floor_`, `PowerMonitorThresh_` (W).
    pub carrier_sense: f64,
    pub noise_floor: f64,
    pub monitor_threshold: f64,
    /// `HeaderDuration_`: preamble and PLCP header (s).
    pub header_duration: f64,
    /// `BasicModulationScheme_`.
    pub basic: u8,
    /// `PreambleCaptureSwitch_`, `DataCaptureSwitch_`.
    pub preamble_capture: bool,
    pub data_capture: bool,
    /// `SINR_PreambleCapture_`, `SINR_DataCapture_` (ratios).
    pub sinr_preamble_capture: f64,
    pub sinr_data_capture: f64,
    /// `trace_dist_`: a discarded frame from this far or farther is freed
    /// without a trace (m).
    pub trace_distance: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            carrier_sense: 6.30957e-12,
            noise_floor: 7.96159e-14,
            monitor_threshold: 2.653e-14,
            header_duration: 0.000020,
            basic: 0,
            preamble_capture: true,
            data_capture: false,
            sinr_preamble_capture: 3.1623,
            sinr_data_capture: 10.0,
            trace_distance: 1e6,
        }
    }
}

/// One signal in the air: its power and when it ends.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Signal {
    power: f64,
    end: f64,
}

/// The power monitor (ns-2's `PowerMonitor`): the signals heard, by end
/// time, and their summed power.  Its thresholds are fixed when the radio
/// is made.
#[derive(Clone, Debug)]
pub struct Monitor {
    level: f64,
    noise_floor: f64,
    carrier_sense: f64,
    threshold: f64,
    signals: Vec<Signal>,
}

impl Monitor {
    pub fn new(p: &Params) -> Monitor {
        Monitor { level: p.noise_floor, noise_floor: p.noise_floor, carrier_sense: p.carrier_sense, threshold: p.monitor_threshold, signals: Vec::new() }
    }

    /// The power level (W): the sum of the signals and the noise floor,
    /// never below the floor.
    pub fn level(&self) -> f64 {
        if self.level > self.noise_floor {
            self.level
        } else {
            self.noise_floor
        }
    }

    /// The SINR of a signal of power `pr` among the rest (0 when the level
    /// does not exceed it).
    pub fn sinr(&self, pr: f64) -> f64 {
        let l = self.level();
        if l - pr <= 0.0 {
            return 0.0;
        }
        pr / (l - pr)
    }

    pub fn busy(&self) -> bool {
        self.level >= self.carrier_sense
    }

    /// A signal of power `power` heard at `now` for `duration`: `None`
    /// when it is below the monitor's threshold (ignored), else the delay
    /// to (re)start the monitor's timer with (the earliest end).  A signal
    /// ends after those that end at the same time or before.
    pub fn record(&mut self, now: f64, power: f64, duration: f64) -> Option<f64> {
        if power < self.threshold {
            return None;
        }
        let s = Signal { power, end: now + duration };
        let at = self.signals.iter().position(|o| o.end > s.end).unwrap_or(self.signals.len());
        self.signals.insert(at, s);
        self.level += power;
        Some(self.signals[0].end - now)
    }

    /// The monitor's timer at `now`: the signals ended by then leave the
    /// level; the delay to the next end, if any.
    pub fn expire(&mut self, now: f64) -> Option<f64> {
        let n = self.signals.iter().take_while(|s| s.end <= now).count();
        for s in self.signals.drain(..n) {
            self.level -= s.power;
        }
        self.signals.first().map(|s| s.end - now)
    }
}

/// The radio's state (ns-2's `PhyState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Searching,
    PreRx,
    Rx,
    Tx,
}

/// The radio's timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The end of a transmission.
    Tx,
    /// The end of the preamble and PLCP header of the frame locked onto.
    PreRx,
    /// The end of that frame's body.
    Rx,
    /// The power monitor's next signal end.
    Monitor,
}

/// Why a frame was discarded (the drop trace's reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discard {
    /// Arrived while transmitting.
    Tx,
    /// Too weak to lock onto while searching.
    Search,
    /// Lost during a preamble and header.
    Preamble,
    /// Lost during a body, or in error at its end.
    Body,
    /// Cut short by a transmission of this radio.
    Interrupted,
    /// Too weak to decode even alone at its modulation (`DND`), or at the
    /// basic one (`PND`).
    DataNoDecode,
    PreambleNoDecode,
}

impl Discard {
    /// ns-2's three letters.
    pub fn code(self) -> &'static str {
        match self {
            Discard::Tx => "TXB",
            Discard::Search => "SXB",
            Discard::Preamble => "PXB",
            Discard::Body => "RXB",
            Discard::Interrupted => "INT",
            Discard::DataNoDecode => "DND",
            Discard::PreambleNoDecode => "PND",
        }
    }
}

/// A frame heard: the host's handle on it, its modulation (the body's),
/// its whole air time, how far it came from and from which node (the
/// host's number for it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heard<P> {
    pub pkt: P,
    pub modulation: u8,
    pub txtime: f64,
    pub distance: f64,
    pub from: u32,
}

/// What the radio needs of its node.
pub trait Host<P> {
    fn now(&self) -> f64;
    /// (Re)start timer `t` to fire in `delay` seconds (a running one is
    /// cancelled first: ns-2's `resched`).
    fn start(&mut self, t: Timer, delay: f64);
    fn stop(&mut self, t: Timer);
    /// A copy of a frame heard, for the radio to keep.
    fn copy(&mut self, p: P) -> P;
    /// Drop a frame with the reason (traced, then freed); `free` lets one
    /// go untraced.
    fn discard(&mut self, p: P, why: Discard);
    fn free(&mut self, p: P);
    /// The distance to the sender of a frame about to be discarded (ns-2
    /// measures it then, bringing both nodes' positions up to date: the
    /// receiver's, then the sender's); by default the one it came from.
    fn distance(&mut self, f: &Heard<P>) -> f64 {
        f.distance
    }
    /// The MAC's indications: the medium busy or idle, a frame's header
    /// received, a frame received (`None`: in error), a transmission over.
    fn busy(&mut self);
    fn idle(&mut self);
    fn rx_start(&mut self);
    fn rx_end(&mut self, p: Option<P>);
    fn tx_end(&mut self);
}

/// The frame locked onto, with its power.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Locked<P> {
    frame: Heard<P>,
    power: f64,
    error: bool,
}

/// The extended radio of one node.
#[derive(Clone, Debug)]
pub struct PhyExt<P> {
    pub params: Params,
    pub monitor: Monitor,
    pub state: State,
    locked: Option<Locked<P>>,
    /// The threshold of the body being received.
    rx_threshold: f64,
}

impl<P: Copy> PhyExt<P> {
    pub fn new(params: Params) -> PhyExt<P> {
        PhyExt { monitor: Monitor::new(&params), params, state: State::Searching, locked: None, rx_threshold: 0.0 }
    }

    /// A state change: leaving searching signals busy, coming back idle,
    /// unless the power level already says so (`setState`).
    fn set_state<H: Host<P>>(&mut self, h: &mut H, s: State) {
        let below = self.monitor.level() < self.params.carrier_sense;
        if self.state == State::Searching && s != State::Searching {
            if below {
                h.busy();
            }
        } else if self.state != State::Searching && s == State::Searching && below {
            h.idle();
        }
        self.state = s;
    }

    fn record<H: Host<P>>(&mut self, h: &mut H, power: f64, duration: f64) {
        if let Some(d) = self.monitor.record(h.now(), power, duration) {
            h.start(Timer::Monitor, d);
            if self.state == State::Searching && self.monitor.busy() {
                h.busy();
            }
        }
    }

    /// Drop a frame, renamed when it was too weak to decode alone; from
    /// `trace_dist_` or farther, freed untraced (`discard`).
    fn discard<H: Host<P>>(&self, h: &mut H, f: &Heard<P>, power: f64, why: Discard) {
        if h.distance(f) >= self.params.trace_distance {
            return h.free(f.pkt);
        }
        let floor = self.params.noise_floor;
        let mut why = why;
        if power < threshold(f.modulation) * floor {
            why = Discard::DataNoDecode;
        }
        if power < threshold(self.params.basic) * floor {
            why = Discard::PreambleNoDecode;
        }
        h.discard(f.pkt, why);
    }

    /// Lock onto a copy of frame `f` for its preamble and header.
    fn lock<H: Host<P>>(&mut self, h: &mut H, f: &Heard<P>, power: f64) {
        let pkt = h.copy(f.pkt);
        self.locked = Some(Locked { frame: Heard { pkt, ..*f }, power, error: false });
        self.set_state(h, State::PreRx);
        h.start(Timer::PreRx, self.params.header_duration);
    }

    /// The MAC sends a frame of `txtime` s at power `pt`: what was being
    /// received is lost (`INT`).  Sending while sending is the MAC's bug
    /// (ns-2 exits): an error.
    pub fn send<H: Host<P>>(&mut self, h: &mut H, pt: f64, txtime: f64) -> Result<(), &'static str> {
        match self.state {
            State::Tx => return Err("Phy/WirelessPhyExt: the MAC sent while the radio was sending"),
            State::Rx | State::PreRx => {
                h.stop(if self.state == State::Rx { Timer::Rx } else { Timer::PreRx });
                if let Some(l) = self.locked.take() {
                    self.discard(h, &l.frame, l.power, Discard::Interrupted);
                }
            }
            State::Searching => {}
        }
        self.set_state(h, State::Tx);
        h.start(Timer::Tx, txtime);
        self.record(h, pt, txtime);
        Ok(())
    }

    /// Frame `f` arrives at power `pr` (the propagation model's): judged
    /// by the state (`sendUp`).  The caller keeps `f.pkt` and frees it
    /// after; the radio keeps a copy of what it locks onto.
    pub fn arrive<H: Host<P>>(&mut self, h: &mut H, f: &Heard<P>, pr: f64) {
        self.record(h, pr, f.txtime);
        let basic = threshold(self.params.basic);
        match self.state {
            State::Tx => self.discard(h, f, pr, Discard::Tx),
            State::Searching => {
                if self.monitor.sinr(pr) >= basic {
                    self.lock(h, f, pr);
                } else {
                    self.discard(h, f, pr, Discard::Search);
                }
            }
            State::PreRx => {
                let l = self.locked.expect("a frame is locked onto while pre-receiving");
                if self.monitor.sinr(l.power) >= basic {
                    return self.discard(h, f, pr, Discard::Preamble);
                }
                self.discard(h, &l.frame, l.power, Discard::Preamble);
                self.locked = None;
                h.stop(Timer::PreRx);
                if self.params.preamble_capture && self.monitor.sinr(pr) >= self.params.sinr_preamble_capture {
                    // (already out of searching: no indication)
                    let pkt = h.copy(f.pkt);
                    self.locked = Some(Locked { frame: Heard { pkt, ..*f }, power: pr, error: false });
                    h.start(Timer::PreRx, self.params.header_duration);
                } else {
                    self.discard(h, f, pr, Discard::Preamble);
                    self.set_state(h, State::Searching);
                }
            }
            State::Rx => {
                let mut l = self.locked.expect("a frame is locked onto while receiving");
                if self.monitor.sinr(l.power) >= self.rx_threshold {
                    return self.discard(h, f, pr, Discard::Body);
                }
                l.error = true;
                self.locked = Some(l);
                if self.params.data_capture && self.monitor.sinr(pr) >= self.params.sinr_data_capture {
                    h.stop(Timer::Rx);
                    self.discard(h, &l.frame, l.power, Discard::Body);
                    let pkt = h.copy(f.pkt);
                    self.locked = Some(Locked { frame: Heard { pkt, ..*f }, power: pr, error: false });
                    self.set_state(h, State::PreRx);
                    h.start(Timer::PreRx, self.params.header_duration);
                } else {
                    self.discard(h, f, pr, Discard::Body);
                }
            }
        }
    }

    /// A timer of the radio's fired.
    pub fn timeout<H: Host<P>>(&mut self, h: &mut H, t: Timer) {
        match t {
            Timer::Tx => {
                h.tx_end();
                self.set_state(h, State::Searching);
            }
            Timer::PreRx => {
                let mut l = self.locked.expect("a frame is locked onto at the end of its header");
                self.rx_threshold = threshold(l.frame.modulation);
                if self.monitor.sinr(l.power) < self.rx_threshold {
                    l.error = true;
                }
                self.locked = Some(l);
                self.set_state(h, State::Rx);
                h.start(Timer::Rx, l.frame.txtime - self.params.header_duration);
                h.rx_start();
            }
            Timer::Rx => {
                self.set_state(h, State::Searching);
                let l = self.locked.take().expect("a frame is locked onto at the end of its body");
                if l.error {
                    self.discard(h, &l.frame, l.power, Discard::Body);
                    h.rx_end(None);
                } else {
                    h.rx_end(Some(l.frame.pkt));
                }
            }
            Timer::Monitor => {
                let now = h.now();
                if let Some(d) = self.monitor.expire(now) {
                    h.start(Timer::Monitor, d);
                }
                if self.state == State::Searching && !self.monitor.busy() {
                    h.idle();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host that logs what the radio asks, frames numbered (copies get
    /// the number plus 100).
    #[derive(Default)]
    struct Log {
        now: f64,
        events: Vec<String>,
    }

    impl Host<u32> for Log {
        fn now(&self) -> f64 {
            self.now
        }
        fn start(&mut self, t: Timer, delay: f64) {
            self.events.push(format!("start {t:?} {:.1}us", delay * 1e6));
        }
        fn stop(&mut self, t: Timer) {
            self.events.push(format!("stop {t:?}"));
        }
        fn copy(&mut self, p: u32) -> u32 {
            p + 100
        }
        fn discard(&mut self, p: u32, why: Discard) {
            self.events.push(format!("drop {p} {}", why.code()));
        }
        fn free(&mut self, p: u32) {
            self.events.push(format!("free {p}"));
        }
        fn busy(&mut self) {
            self.events.push("busy".into());
        }
        fn idle(&mut self) {
            self.events.push("idle".into());
        }
        fn rx_start(&mut self) {
            self.events.push("rx_start".into());
        }
        fn rx_end(&mut self, p: Option<u32>) {
            self.events.push(format!("rx_end {p:?}"));
        }
        fn tx_end(&mut self) {
            self.events.push("tx_end".into());
        }
    }

    // The suite's radio: noise floor 2.51189e-13, carrier sense 6.30957e-13,
    // preamble capture at 2.5118, no data capture, monitor threshold 0.
    fn suite() -> Params {
        Params { carrier_sense: 6.30957e-13, noise_floor: 2.51189e-13, monitor_threshold: 0.0, sinr_preamble_capture: 2.5118, sinr_data_capture: 100.0, ..Params::default() }
    }

    fn frame(pkt: u32, modulation: u8) -> Heard<u32> {
        Heard { pkt, modulation, txtime: 0.001, distance: 10.0, from: 0 }
    }

    fn take(h: &mut Log) -> Vec<String> {
        std::mem::take(&mut h.events)
    }

    #[test]
    fn the_monitor_sums_signals_and_drops_them_as_they_end() {
        let p = Params { monitor_threshold: 1e-14, ..suite() };
        let mut m = Monitor::new(&p);
        assert_eq!(m.level(), 2.51189e-13);
        assert_eq!(m.record(0.0, 1e-15, 1.0), None); // below the threshold
        assert_eq!(m.record(0.0, 1e-12, 2.0), Some(2.0));
        assert_eq!(m.record(0.5, 2e-12, 0.5), Some(0.5)); // ends first
        assert_eq!(m.record(0.5, 4e-12, 0.5), Some(0.5)); // after an equal end
        assert!((m.level() - (2.51189e-13 + 7e-12)).abs() < 1e-25);
        assert!(m.busy());
        // at 1.0 the two short ones end, the long one is left
        assert_eq!(m.expire(1.0), Some(1.0));
        assert!((m.level() - (2.51189e-13 + 1e-12)).abs() < 1e-25);
        assert_eq!(m.expire(2.0), None);
        assert!((m.level() - 2.51189e-13).abs() < 1e-25);
        // SINR: the signal over the rest; 0 when nothing else is there
        let mut m = Monitor::new(&suite());
        m.record(0.0, 1e-12, 1.0);
        let s = m.sinr(1e-12);
        assert!((s - 1e-12 / 2.51189e-13).abs() < 1e-9, "{s}");
        let empty = Monitor::new(&Params { noise_floor: 0.0, ..suite() });
        assert_eq!(empty.sinr(1e-12), 0.0);
    }

    #[test]
    fn a_clean_frame_is_locked_onto_then_received() {
        let mut h = Log::default();
        let mut r: PhyExt<u32> = PhyExt::new(suite());
        r.arrive(&mut h, &frame(1, 0), 1e-10);
        assert_eq!(take(&mut h), ["start Monitor 1000.0us", "busy", "start PreRx 20.0us"]);
        assert_eq!(r.state, State::PreRx);
        h.now = 20e-6;
        r.timeout(&mut h, Timer::PreRx);
        assert_eq!(take(&mut h), ["start Rx 980.0us", "rx_start"]);
        h.now = 0.001;
        r.timeout(&mut h, Timer::Rx);
        assert_eq!(take(&mut h), ["rx_end Some(101)"]);
        assert_eq!(r.state, State::Searching);
        r.timeout(&mut h, Timer::Monitor);
        assert_eq!(take(&mut h), ["idle"]);
    }

    #[test]
    fn weak_frames_are_dropped_with_ns2s_reasons() {
        let mut h = Log::default();
        let mut r: PhyExt<u32> = PhyExt::new(suite());
        // SINR 2 < 3.1623 while searching: SXB, but under BPSK's threshold
        // times the floor it is PND; a QAM64 frame a little stronger, DND.
        let floor = 2.51189e-13;
        r.arrive(&mut h, &frame(1, 0), 2.0 * floor);
        assert_eq!(take(&mut h), ["start Monitor 1000.0us", "busy", "drop 1 PND"]);
        // a QAM64 frame at ten times the floor, which the monitor ignores
        // (its threshold above it): SINR 0 while searching, SXB, renamed
        // DND (below 316 times the floor, above BPSK's 3.16)
        let mut r: PhyExt<u32> = PhyExt::new(Params { monitor_threshold: 1.0, ..suite() });
        r.arrive(&mut h, &frame(2, 3), 10.0 * floor);
        assert_eq!(take(&mut h), ["drop 2 DND"]);
        // beyond trace_dist_, freed without a trace
        let mut r: PhyExt<u32> = PhyExt::new(Params { trace_distance: 5.0, ..suite() });
        r.arrive(&mut h, &frame(3, 0), floor);
        assert_eq!(take(&mut h), ["start Monitor 1000.0us", "free 3"]);
    }

    #[test]
    fn a_stronger_preamble_captures_and_a_weaker_one_is_dropped() {
        let mut h = Log::default();
        let mut r: PhyExt<u32> = PhyExt::new(suite());
        r.arrive(&mut h, &frame(1, 0), 1e-11);
        take(&mut h);
        // a weak one: the first keeps SINR 1e-11/(floor + 1e-12) >= 3.16
        h.now = 5e-6;
        r.arrive(&mut h, &frame(2, 0), 1e-12);
        assert_eq!(take(&mut h), ["start Monitor 995.0us", "drop 2 PXB"]);
        // a much stronger one: the first falls under 3.16 and is lost, the
        // new one's SINR reaches 2.5118: captured, the header timer again
        h.now = 10e-6;
        r.arrive(&mut h, &frame(3, 0), 1e-9);
        assert_eq!(take(&mut h), ["start Monitor 990.0us", "drop 101 PXB", "stop PreRx", "start PreRx 20.0us"]);
        assert_eq!(r.state, State::PreRx);
        h.now = 30e-6;
        r.timeout(&mut h, Timer::PreRx);
        take(&mut h);
        // during the body, an equal one garbles it (no data capture): both
        // dropped, the body's at its end
        h.now = 40e-6;
        r.arrive(&mut h, &frame(4, 0), 1e-9);
        assert_eq!(take(&mut h), ["start Monitor 960.0us", "drop 4 RXB"]);
        h.now = 0.00101;
        r.timeout(&mut h, Timer::Rx);
        assert_eq!(take(&mut h), ["drop 103 RXB", "rx_end None"]);
    }

    #[test]
    fn sending_cuts_a_reception_and_deafens_the_radio() {
        let mut h = Log::default();
        let mut r: PhyExt<u32> = PhyExt::new(suite());
        r.arrive(&mut h, &frame(1, 0), 1e-10);
        take(&mut h);
        r.send(&mut h, 0.001, 0.0005).unwrap();
        assert_eq!(take(&mut h), ["stop PreRx", "drop 101 INT", "start Tx 500.0us", "start Monitor 500.0us"]);
        assert_eq!(r.state, State::Tx);
        r.arrive(&mut h, &frame(2, 0), 1e-10);
        assert_eq!(take(&mut h), ["start Monitor 500.0us", "drop 2 TXB"]);
        assert!(r.send(&mut h, 0.001, 0.0005).is_err());
        h.now = 0.0005;
        r.timeout(&mut h, Timer::Tx);
        // the medium is still busy by power: no idle indication
        assert_eq!(take(&mut h), ["tx_end"]);
        assert_eq!(r.state, State::Searching);
    }
}
