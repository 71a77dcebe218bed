//! 802.11's distributed coordination function, the MAC's transmit and
//! receive state machine, as ns-2 2.35's `Mac/802_11` runs it in ad hoc
//! mode (mac/mac-802_11.cc, mac/mac-timers.cc): carrier sense (the
//! receiver's and transmitter's states and the NAV), the defer and backoff
//! timers with ns-2's random draws in its order, RTS/CTS/DATA/ACK,
//! retries, capture and collision, duplicate detection and the link-layer
//! failure call-back.  Handler for handler, branch for branch, as ns-2
//! has them (its quirks included: the CTS timeout's guess, the broadcast's
//! backoff after its own transmission, the queue's call-back run before
//! the transmitter is marked idle).  Infrastructure mode (access points,
//! beacons, scanning, authentication and association) is in infra.rs,
//! joined through `Dcf::infra` (`None`: the ad hoc path alone).
//!
//! Time and the rest of the node are the caller's, through [`Host`]: the
//! machine tells it which of its six timers to start or stop, hands it the
//! frames to put on the air, the frames received for the link layer, the
//! control frames to log and the drops; the caller runs the timers through
//! its scheduler and calls [`Dcf::expired`] when one fires, and
//! [`Dcf::arrive`] when the first bit of a frame reaches the radio.
//! Static dispatch (generic over the host), no allocation: the frames it
//! holds (ns-2's `pktTx_`, `pktRTS_`, `pktCTRL_`, `pktRx_`) are values.

use super::backoff::{Backoff, Window};
use super::dup::{Heard, Numbering, Seen};
use super::mac80211::{sec, usec, Mib};
use super::retry::{Retry, RetryCounts};

mod infra;
pub use infra::{Ds, Infra, InfraMib, InfraNotice, Scan};

/// The broadcast MAC address (all ones).
pub const BROADCAST: u32 = u32::MAX;

/// The longest propagation delay the timeouts allow for (2 us).
const MAX_PROPAGATION_DELAY: f64 = 0.000002;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Rts,
    Cts,
    Ack,
    Data,
    /// Infrastructure mode's management frames (infra.rs).
    Beacon,
    ProbeReq,
    ProbeRep,
    Auth,
    AssocReq,
    AssocRep,
}

/// A frame: its 802.11 header fields, its size and transmission time, and
/// the packet it carries (data frames).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame<P> {
    pub kind: Kind,
    /// Receiver and transmitter addresses (a CTS's and an ACK's
    /// transmitter address is 0, as ns-2 leaves it).
    pub ra: u32,
    pub ta: u32,
    /// The duration field, microseconds.
    pub duration: u16,
    /// Bytes: with the MAC header and the PLCP while the MAC holds it; a
    /// data frame's is cut to the payload's when received, and when given
    /// up after its retries.
    pub size: u32,
    /// Seconds on the air.
    pub txtime: f64,
    pub retry: bool,
    /// The sequence number of a data frame.
    pub seq: u16,
    /// Received in error (too weak, or while this station transmitted).
    pub error: bool,
    /// The received power (W), stamped by the radio on arrival.
    pub rx_power: f64,
    pub payload: Option<P>,
}

impl<P> Frame<P> {
    fn control(kind: Kind, ra: u32, ta: u32, size: u32, txtime: f64, duration: u16) -> Frame<P> {
        Frame { kind, ra, ta, duration, size, txtime, retry: false, seq: 0, error: false, rx_power: 0.0, payload: None }
    }
}

/// The machine's timers (ns-2's `mhDefer_`, `mhBackoff_`, `mhNav_`,
/// `mhRecv_`, `mhSend_`, `mhIF_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    Defer,
    Backoff,
    Nav,
    Recv,
    Send,
    Interface,
    /// Infrastructure mode's (infra.rs): an access point's beacons, a
    /// station's scan.
    Beacon,
    Probe,
}

/// Why a frame is dropped (the trace shows each as a code of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Collision,
    Duplicate,
    RetryExceeded,
    InvalidState,
    Busy,
    /// Not for this station (ns-2 traces nothing for these, but the rule
    /// of what `discard` drops is the same).
    NotForUs,
}

/// Why a frame was given up (the link-layer failure call-back's reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    Rts,
    Ack,
}

/// What the transmitter or receiver is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Idle,
    Recv,
    Coll,
    Rts,
    Cts,
    Send,
    Ack,
    /// A management frame or a beacon sent (ns-2's `MAC_MGMT`, `MAC_BCN`).
    Mgmt,
    Bcn,
}

/// A packet handed to the MAC from above: its size (bytes, without the MAC
/// header), its receiver and transmitter addresses as the link layer set
/// them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outgoing<P> {
    pub payload: P,
    pub size: u32,
    pub ra: u32,
    pub ta: u32,
}

/// The rest of the node, and time.
pub trait Host<P> {
    fn now(&self) -> f64;
    /// The next of the default generator's `random()` draws.
    fn random(&mut self) -> i32;
    /// Start timer `t` to fire in `delay` seconds (it is not running).
    fn start(&mut self, t: Timer, delay: f64);
    /// Stop timer `t` (it is running).
    fn stop(&mut self, t: Timer);
    /// Put a copy of the frame on the air (the send trace, then the radio).
    fn transmit(&mut self, f: &Frame<P>);
    /// ns-2's end-of-transmission target: a copy of the frame as it goes
    /// on the air (`None`: the node traces no ends), given back to
    /// `end_of_transmission` when the transmission is over.
    fn eot_copy(&mut self, f: &Frame<P>) -> Option<Frame<P>> {
        let _ = f;
        None
    }
    fn end_of_transmission(&mut self, f: Frame<P>) {
        let _ = f;
    }
    /// A data frame received for this station, its size cut to the
    /// payload's: to the link layer (the receive trace first).
    fn up(&mut self, f: Frame<P>);
    /// A control frame received and acted on (the receive trace).
    fn log(&mut self, f: Frame<P>);
    /// A frame dropped (the drop trace).
    fn drop(&mut self, f: Frame<P>, why: Why);
    /// A frame let go without a trace.
    fn free(&mut self, f: Frame<P>);
    /// Whether the packet of a data frame carries a failure call-back (set
    /// by the routing agent that sent it).
    fn has_failure_callback(&self, f: &Frame<P>) -> bool;
    /// A data frame whose packet has a failure call-back is given up
    /// after its retries, before it is dropped: the call-back gets a copy
    /// (its size already cut to the payload's).
    fn failed(&mut self, f: &Frame<P>, why: Failure);
    /// A unicast data frame from a sender the duplicate memory has no
    /// place for (ns-2 warns on stdout).
    fn unknown_sender(&mut self, src: u32, dst: u32);
    /// The MAC is done with the packet it was handed: the interface
    /// queue's call-back, which may hand it the next one at once.
    fn resume(&mut self) -> Option<Outgoing<P>>;
    /// A data frame received whole, whoever it is for, shown to the tap
    /// (when [`Dcf::tap`] is on) before the MAC filters it by address.
    fn tap(&mut self, f: &Frame<P>) {
        let _ = f;
    }
    /// A data frame's infrastructure addressing, kept with its packet.
    fn ds(&self, p: P) -> Ds {
        let _ = p;
        Ds::default()
    }
    fn set_ds(&mut self, p: P, d: Ds) {
        let _ = (p, d);
    }
    /// An access point passes a frame it received back down to `to` (the
    /// receive trace, then the link layer, which sends it to the MAC
    /// address `to`); `copy_up`: a copy goes up first (a broadcast).
    fn relay(&mut self, f: Frame<P>, to: u32, copy_up: bool) {
        let _ = (to, copy_up);
        self.up(f)
    }
    /// What infrastructure mode prints on stdout.
    fn infra_notice(&mut self, n: InfraNotice) {
        let _ = n;
    }
}

/// A timer's bookkeeping (busy, started when, for how long), the host
/// doing the scheduling.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    busy: bool,
    stime: f64,
    rtime: f64,
}

/// One station's MAC.
#[derive(Clone, Debug)]
pub struct Dcf<P> {
    pub mib: Mib,
    pub addr: u32,
    /// The capture threshold of the station's radio (a frame being
    /// received survives one this many times weaker).
    pub capture_threshold: f64,
    /// ns-2's `bugFix_timer_` (true by default): a frame sent without
    /// RTS/CTS counts its backoff with the backoff timer rather than as
    /// one deferral.
    pub bugfix_timer: bool,
    /// Whether a routing agent taps the MAC (ns-2's `installTap`, which
    /// DSR makes): it is shown every data frame received whole.
    pub tap: bool,
    tx_state: State,
    rx_state: State,
    tx_active: bool,
    nav: f64,
    window: Window,
    retries: RetryCounts,
    numbering: Numbering,
    seen: Seen,
    backoff: Backoff,
    defer: Clock,
    nav_timer: Clock,
    recv: Clock,
    send: Clock,
    interface: Clock,
    callback: bool,
    pkt_tx: Option<Frame<P>>,
    pkt_rts: Option<Frame<P>>,
    pkt_ctrl: Option<Frame<P>>,
    pkt_rx: Option<Frame<P>>,
    /// The copy of the frame on the air, for the end-of-transmission
    /// trace (ns-2's `eotPacket_`).
    eot: Option<Frame<P>>,
    /// Infrastructure mode's state (infra.rs), made when the MAC is made
    /// an access point, told to scan, or hears a beacon.
    pub infra: Option<Box<Infra<P>>>,
    /// The variables infrastructure mode reads.
    pub infra_mib: InfraMib,
}

#[derive(Clone, Copy)]
enum Slot {
    Ctrl,
    Rts,
    Tx,
}

impl<P: Copy> Dcf<P> {
    /// A station with address `addr`, remembering sequence numbers of
    /// `nodes` senders (GOD's count).
    pub fn new(mib: Mib, addr: u32, nodes: u32, capture_threshold: f64) -> Dcf<P> {
        Dcf {
            mib,
            addr,
            capture_threshold,
            bugfix_timer: true,
            tap: false,
            tx_state: State::Idle,
            rx_state: State::Idle,
            tx_active: false,
            nav: 0.0,
            window: Window::new(mib.cw_min, mib.cw_max),
            retries: RetryCounts::new(mib.short_retry_limit, mib.long_retry_limit),
            numbering: Numbering::default(),
            seen: Seen::new(nodes),
            backoff: Backoff::default(),
            defer: Clock::default(),
            nav_timer: Clock::default(),
            recv: Clock::default(),
            send: Clock::default(),
            interface: Clock::default(),
            callback: false,
            pkt_tx: None,
            pkt_rts: None,
            pkt_ctrl: None,
            pkt_rx: None,
            eot: None,
            infra: None,
            infra_mib: InfraMib::default(),
        }
    }

    pub fn tx_state(&self) -> State {
        self.tx_state
    }

    pub fn rx_state(&self) -> State {
        self.rx_state
    }

    /// Whether the MAC holds a packet from above (the queue is blocked).
    pub fn holds_packet(&self) -> bool {
        self.pkt_tx.is_some()
    }

    pub fn contention_window(&self) -> u32 {
        self.window.cw
    }

    // ---- timers -------------------------------------------------------

    fn clock(&mut self, t: Timer) -> &mut Clock {
        match t {
            Timer::Defer => &mut self.defer,
            Timer::Nav => &mut self.nav_timer,
            Timer::Recv => &mut self.recv,
            Timer::Send => &mut self.send,
            Timer::Interface => &mut self.interface,
            Timer::Beacon => &mut self.infra.as_deref_mut().expect("infrastructure state").beacon,
            Timer::Probe => &mut self.infra.as_deref_mut().expect("infrastructure state").probe,
            Timer::Backoff => unreachable!("the backoff timer keeps its own state"),
        }
    }

    fn start_timer<H: Host<P>>(&mut self, h: &mut H, t: Timer, delay: f64) {
        let now = h.now();
        let c = self.clock(t);
        debug_assert!(!c.busy);
        *c = Clock { busy: true, stime: now, rtime: delay };
        h.start(t, delay);
    }

    fn stop_timer<H: Host<P>>(&mut self, h: &mut H, t: Timer) {
        let c = self.clock(t);
        debug_assert!(c.busy);
        *c = Clock::default();
        h.stop(t);
    }

    /// A backoff of a fresh draw from the window, counting after `difs`
    /// if the medium is idle (ns-2's `mhBackoff_.start(cw_, is_idle(),
    /// difs)`).
    fn start_backoff<H: Host<P>>(&mut self, h: &mut H, difs: f64) {
        let now = h.now();
        let idle = self.is_idle(now);
        let draw = h.random();
        if let Some(d) = self.backoff.start(now, draw, self.window.cw, self.mib.slot_time, idle, difs) {
            h.start(Timer::Backoff, d);
        }
    }

    /// Timer `t` fired.
    pub fn expired<H: Host<P>>(&mut self, h: &mut H, t: Timer) {
        match t {
            Timer::Backoff => {
                self.backoff.clear();
                self.backoff_handler(h);
            }
            _ => {
                *self.clock(t) = Clock::default();
                match t {
                    Timer::Defer => self.defer_handler(h),
                    Timer::Nav => {
                        let now = h.now();
                        if self.is_idle(now) && self.backoff.paused() {
                            let d = self.backoff.resume(now, self.mib.difs());
                            h.start(Timer::Backoff, d);
                        }
                    }
                    Timer::Recv => self.recv_timer(h),
                    Timer::Send => self.send_timer(h),
                    Timer::Interface => {
                        // (ns-2's txHandler: the end-of-transmission
                        // trace, then the transmitter is free)
                        if let Some(f) = self.eot.take() {
                            h.end_of_transmission(f);
                        }
                        self.tx_active = false;
                    }
                    Timer::Beacon => self.beacon_handler(h),
                    Timer::Probe => self.probe_handler(h),
                    Timer::Backoff => unreachable!(),
                }
            }
        }
    }

    // ---- carrier sense ------------------------------------------------

    pub fn is_idle(&self, now: f64) -> bool {
        self.rx_state == State::Idle && self.tx_state == State::Idle && self.nav <= now
    }

    fn check_backoff<H: Host<P>>(&mut self, h: &mut H) {
        let now = h.now();
        let idle = self.is_idle(now);
        if idle && self.backoff.paused() {
            let d = self.backoff.resume(now, self.mib.difs());
            h.start(Timer::Backoff, d);
        }
        if !idle && self.backoff.busy() && !self.backoff.paused() {
            self.backoff.pause(now, self.mib.slot_time);
            h.stop(Timer::Backoff);
        }
    }

    fn set_rx_state<H: Host<P>>(&mut self, h: &mut H, s: State) {
        self.rx_state = s;
        self.check_backoff(h);
    }

    fn set_tx_state<H: Host<P>>(&mut self, h: &mut H, s: State) {
        self.tx_state = s;
        self.check_backoff(h);
    }

    fn set_nav<H: Host<P>>(&mut self, h: &mut H, us: u16) {
        let now = h.now();
        let t = us as f64 * 1e-6;
        if now + t > self.nav {
            self.nav = now + t;
            if self.nav_timer.busy {
                self.stop_timer(h, Timer::Nav);
            }
            self.start_timer(h, Timer::Nav, t);
        }
    }

    fn txtime(&self, len: u32, rate: f64) -> f64 {
        self.mib.txtime(len as f64, rate)
    }

    // ---- dropping -----------------------------------------------------

    /// ns-2's `discard`: a frame in error goes silently; otherwise it is
    /// dropped (traced) if it concerned this station, else let go.
    fn discard<H: Host<P>>(&self, h: &mut H, f: Frame<P>, why: Why) {
        if f.error {
            h.free(f);
            return;
        }
        let ours = match f.kind {
            Kind::Rts => f.ta == self.addr || f.ra == self.addr,
            Kind::Cts | Kind::Ack => f.ra == self.addr,
            // (ad hoc: never to the distribution system; a broadcast an
            // access point relays to the others, to-DS set, is not ours)
            Kind::Data => f.ra == self.addr || f.ta == self.addr || (f.ra == BROADCAST && !f.payload.is_some_and(|p| h.ds(p).to_ds)),
            _ => self.mgmt_ours(&f),
        };
        if ours {
            h.drop(f, why);
        } else {
            h.free(f);
        }
    }

    // ---- sending ------------------------------------------------------

    /// A packet from above (ns-2's `send`): made a data frame, preceded by
    /// an RTS if it is unicast and not shorter than the RTS threshold,
    /// numbered, and sent after a DIFS and a backoff.
    pub fn send<H: Host<P>>(&mut self, h: &mut H, o: Outgoing<P>) {
        self.callback = true;
        if self.infra.is_some() {
            self.send_data_bits(h, o.payload);
        }
        self.make_data(o);
        let ra = o.ra;
        self.make_rts(ra);
        let seq = self.numbering.take();
        if let Some(tx) = self.pkt_tx.as_mut() {
            tx.seq = seq;
        }
        if !self.backoff.busy() {
            let now = h.now();
            if self.is_idle(now) {
                if !self.defer.busy {
                    if self.bugfix_timer {
                        self.start_backoff(h, self.mib.difs());
                    } else {
                        let r = (h.random() % self.window.cw as i32) as f64 * self.mib.slot_time;
                        self.start_timer(h, Timer::Defer, self.mib.difs() + r);
                    }
                }
            } else {
                self.start_backoff(h, 0.0);
            }
        }
    }

    fn make_data(&mut self, o: Outgoing<P>) {
        debug_assert!(self.pkt_tx.is_none());
        let size = o.size + self.mib.data_overhead();
        let (txtime, duration) = if o.ra != BROADCAST {
            (self.txtime(size, self.mib.data_rate), self.mib.data_duration())
        } else {
            (self.txtime(size, self.mib.basic_rate), 0)
        };
        self.pkt_tx = Some(Frame {
            kind: Kind::Data,
            ra: o.ra,
            ta: o.ta,
            duration,
            size,
            txtime,
            retry: false,
            seq: 0,
            error: false,
            rx_power: 0.0,
            payload: Some(o.payload),
        });
    }

    /// ns-2's `sendRTS`: an RTS for the data frame held, unless it is
    /// broadcast or shorter than the threshold.
    fn make_rts(&mut self, dst: u32) {
        let tx = self.pkt_tx.expect("an RTS is made for the data frame held");
        debug_assert!(self.pkt_rts.is_none());
        if tx.size < self.mib.rts_threshold || dst == BROADCAST {
            return;
        }
        let len = self.mib.rts_len();
        let m = &self.mib;
        let duration = usec(m.sifs + m.txtime(m.cts_len() as f64, m.basic_rate) + m.sifs + tx.txtime + m.sifs + m.txtime(m.ack_len() as f64, m.basic_rate));
        self.pkt_rts = Some(Frame::control(Kind::Rts, dst, self.addr, len, self.txtime(len, self.mib.basic_rate), duration));
    }

    fn make_cts(&mut self, dst: u32, rts_duration: u16) {
        debug_assert!(self.pkt_ctrl.is_none());
        let len = self.mib.cts_len();
        let txtime = self.txtime(len, self.mib.basic_rate);
        let duration = usec(sec(rts_duration as f64) - self.mib.sifs - txtime);
        self.pkt_ctrl = Some(Frame::control(Kind::Cts, dst, 0, len, txtime, duration));
    }

    fn make_ack(&mut self, dst: u32) {
        debug_assert!(self.pkt_ctrl.is_none());
        let len = self.mib.ack_len();
        self.pkt_ctrl = Some(Frame::control(Kind::Ack, dst, 0, len, self.txtime(len, self.mib.basic_rate), 0));
    }

    fn transmit<H: Host<P>>(&mut self, h: &mut H, slot: Slot, timeout: f64) {
        self.tx_active = true;
        if self.rx_state != State::Idle {
            if let Some(rx) = self.pkt_rx.as_mut() {
                rx.error = true;
            }
        }
        let f = match slot {
            Slot::Ctrl => self.pkt_ctrl,
            Slot::Rts => self.pkt_rts,
            Slot::Tx => self.pkt_tx,
        }
        .expect("a frame to transmit");
        if let Some(c) = h.eot_copy(&f) {
            self.eot = Some(c);
        }
        h.transmit(&f);
        self.start_timer(h, Timer::Send, timeout);
        self.start_timer(h, Timer::Interface, f.txtime);
    }

    /// ns-2's `check_pktCTRL`: false when there is no control frame to
    /// send now.
    fn check_ctrl<H: Host<P>>(&mut self, h: &mut H) -> bool {
        let Some(ctrl) = self.pkt_ctrl else { return false };
        if self.tx_state == State::Cts || self.tx_state == State::Ack {
            return false;
        }
        let m = self.mib;
        let timeout = match ctrl.kind {
            Kind::Cts => {
                if !self.is_idle(h.now()) {
                    self.pkt_ctrl = None;
                    self.discard(h, ctrl, Why::Busy);
                    return true;
                }
                self.set_tx_state(h, State::Cts);
                // ns-2's guess: the CTS and the data frame
                m.txtime(m.cts_len() as f64, m.basic_rate) + MAX_PROPAGATION_DELAY + sec(ctrl.duration as f64) + MAX_PROPAGATION_DELAY - m.sifs - m.txtime(m.ack_len() as f64, m.basic_rate)
            }
            Kind::Ack => {
                self.set_tx_state(h, State::Ack);
                m.txtime(m.ack_len() as f64, m.basic_rate)
            }
            _ => unreachable!("only CTS and ACK frames wait in the control slot"),
        };
        self.transmit(h, Slot::Ctrl, timeout);
        true
    }

    fn check_rts<H: Host<P>>(&mut self, h: &mut H) -> bool {
        if self.pkt_rts.is_none() {
            return false;
        }
        if !self.is_idle(h.now()) {
            self.window.widen();
            self.start_backoff(h, 0.0);
            return true;
        }
        self.set_tx_state(h, State::Rts);
        let m = self.mib;
        let timeout = m.txtime(m.rts_len() as f64, m.basic_rate) + MAX_PROPAGATION_DELAY + m.sifs + m.txtime(m.cts_len() as f64, m.basic_rate) + MAX_PROPAGATION_DELAY;
        self.transmit(h, Slot::Rts, timeout);
        true
    }

    fn check_tx<H: Host<P>>(&mut self, h: &mut H) -> bool {
        let Some(tx) = self.pkt_tx else { return false };
        if self.infra.is_some() {
            self.infra_check_tx(tx.ra);
        }
        if !self.is_idle(h.now()) {
            self.make_rts(tx.ra);
            self.window.widen();
            self.start_backoff(h, 0.0);
            return true;
        }
        self.set_tx_state(h, State::Send);
        let m = self.mib;
        let timeout = if tx.ra != BROADCAST {
            tx.txtime + MAX_PROPAGATION_DELAY + m.sifs + m.txtime(m.ack_len() as f64, m.basic_rate) + MAX_PROPAGATION_DELAY
        } else {
            tx.txtime
        };
        self.transmit(h, Slot::Tx, timeout);
        true
    }

    fn defer_handler<H: Host<P>>(&mut self, h: &mut H) {
        if self.check_ctrl(h) {
            return;
        }
        debug_assert!(!self.backoff.busy());
        if self.check_rts(h) {
            return;
        }
        self.check_tx(h);
    }

    fn backoff_handler<H: Host<P>>(&mut self, h: &mut H) {
        if self.infra.is_some() && self.infra_backoff(h) {
            return;
        }
        if self.pkt_ctrl.is_some() {
            return;
        }
        if self.check_rts(h) {
            return;
        }
        self.check_tx(h);
    }

    /// What to do next after a transmission or reception (ns-2's
    /// `tx_resume`).
    fn tx_resume<H: Host<P>>(&mut self, h: &mut H) {
        debug_assert!(!self.send.busy && !self.defer.busy);
        let m = self.mib;
        if self.pkt_ctrl.is_some() {
            self.start_timer(h, Timer::Defer, m.sifs);
        } else if self.pkt_rts.is_some() {
            if !self.backoff.busy() {
                if self.bugfix_timer {
                    self.start_backoff(h, m.difs());
                } else {
                    let r = (h.random() % self.window.cw as i32) as f64 * m.slot_time;
                    self.start_timer(h, Timer::Defer, m.difs() + r);
                }
            }
        } else if let Some(tx) = self.pkt_tx {
            if !self.backoff.busy() {
                if tx.size < m.rts_threshold || tx.ra == BROADCAST {
                    if self.bugfix_timer {
                        self.start_backoff(h, m.difs());
                    } else {
                        let r = (h.random() % self.window.cw as i32) as f64 * m.slot_time;
                        self.start_timer(h, Timer::Defer, m.difs() + r);
                    }
                } else {
                    self.start_timer(h, Timer::Defer, m.sifs);
                }
            }
        } else if self.callback {
            self.callback = false;
            if let Some(next) = h.resume() {
                self.send(h, next);
            }
        }
        self.set_tx_state(h, State::Idle);
    }

    fn send_timer<H: Host<P>>(&mut self, h: &mut H) {
        match self.tx_state {
            State::Rts => self.retransmit_rts(h),
            State::Cts | State::Ack => {
                let f = self.pkt_ctrl.take().expect("the control frame sent");
                h.free(f);
            }
            State::Send => self.retransmit_data(h),
            State::Idle => {}
            State::Mgmt | State::Bcn => {
                self.infra_send_timer(h);
            }
            State::Recv | State::Coll => unreachable!("not a transmitter state"),
        }
        self.tx_resume(h);
    }

    /// Give the data frame up: if its packet has a failure call-back, its
    /// size is cut to the payload's (so that a packet sent again does not
    /// grow) and the call-back told; then it is dropped (with the size cut
    /// or not, as the trace shows).
    fn give_up<H: Host<P>>(&mut self, h: &mut H, why: Failure) {
        let mut tx = self.pkt_tx.take().expect("the data frame held");
        if h.has_failure_callback(&tx) {
            tx.size -= self.mib.data_overhead();
            h.failed(&tx, why);
        }
        self.discard(h, tx, Why::RetryExceeded);
    }

    fn retransmit_rts<H: Host<P>>(&mut self, h: &mut H) {
        debug_assert!(self.pkt_tx.is_some() && self.pkt_rts.is_some() && !self.backoff.busy());
        match self.retries.rts_failed() {
            Retry::GiveUp => {
                let rts = self.pkt_rts.take().expect("the RTS sent");
                self.discard(h, rts, Why::RetryExceeded);
                self.give_up(h, Failure::Rts);
                self.window.reset();
            }
            Retry::Again => {
                if let Some(rts) = self.pkt_rts.as_mut() {
                    rts.retry = true;
                }
                self.window.widen();
                self.start_backoff(h, 0.0);
            }
        }
    }

    fn retransmit_data<H: Host<P>>(&mut self, h: &mut H) {
        debug_assert!(!self.backoff.busy() && self.pkt_rts.is_none());
        let tx = self.pkt_tx.expect("the data frame sent");
        if tx.ra == BROADCAST {
            self.pkt_tx = None;
            h.free(tx);
            self.window.reset();
            self.start_backoff(h, 0.0);
            return;
        }
        if self.infra.is_some() && self.infra_handoff(h, tx.size) {
            return;
        }
        match self.retries.data_failed(tx.size, self.mib.rts_threshold) {
            Retry::GiveUp => {
                self.give_up(h, Failure::Ack);
                self.window.reset();
            }
            Retry::Again => {
                if let Some(tx) = self.pkt_tx.as_mut() {
                    tx.retry = true;
                }
                self.make_rts(tx.ra);
                self.window.widen();
                self.start_backoff(h, 0.0);
            }
        }
    }

    // ---- receiving ----------------------------------------------------

    /// The first bit of frame `f` reaches the radio (received power
    /// stamped, `error` set if the radio could not decode it).
    pub fn arrive<H: Host<P>>(&mut self, h: &mut H, mut f: Frame<P>) {
        if self.tx_active && !f.error {
            f.error = true;
        }
        if self.rx_state == State::Idle {
            self.set_rx_state(h, State::Recv);
            if self.infra.is_some() {
                self.infra_arrive();
            }
            let t = f.txtime;
            self.pkt_rx = Some(f);
            self.start_timer(h, Timer::Recv, t);
        } else {
            let rx = self.pkt_rx.expect("a frame being received");
            if rx.rx_power / f.rx_power >= self.capture_threshold {
                // captured: the frame being received survives; the NAV
                // keeps carrier sense right
                let m = self.mib;
                self.set_nav(h, usec(m.eifs() + f.txtime));
                h.free(f);
            } else {
                self.collision(h, f);
            }
        }
    }

    fn collision<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.rx_state == State::Recv {
            self.set_rx_state(h, State::Coll);
        }
        debug_assert!(self.rx_state == State::Coll && self.recv.busy);
        let now = h.now();
        let expire = self.recv.stime + self.recv.rtime - now;
        if f.txtime > expire {
            self.stop_timer(h, Timer::Recv);
            let old = self.pkt_rx.take().expect("a frame being received");
            self.discard(h, old, Why::Collision);
            let t = f.txtime;
            self.pkt_rx = Some(f);
            self.start_timer(h, Timer::Recv, t);
        } else {
            self.discard(h, f, Why::Collision);
        }
    }

    fn recv_timer<H: Host<P>>(&mut self, h: &mut H) {
        let f = self.pkt_rx.take().expect("a frame being received");
        debug_assert!(self.rx_state == State::Recv || self.rx_state == State::Coll);
        let eifs = self.mib.eifs();
        if self.tx_active {
            h.free(f);
        } else if self.rx_state == State::Coll {
            self.discard(h, f, Why::Collision);
            self.set_nav(h, usec(eifs));
        } else if f.error {
            h.free(f);
            self.set_nav(h, usec(eifs));
        } else {
            if f.ra != self.addr {
                self.set_nav(h, f.duration);
            }
            // (mac-802_11.cc's recv_timer: the tap sees data frames, ARP's
            // among them, after the NAV and before the address filter)
            if self.tap && f.kind == Kind::Data {
                h.tap(&f);
            }
            if f.ra != self.addr && f.ra != BROADCAST {
                self.discard(h, f, Why::NotForUs);
            } else if (self.infra.is_some() || f.kind != Kind::Data) && self.infra_filter(h, &f) {
                self.discard(h, f, Why::NotForUs);
            } else {
                match f.kind {
                    Kind::Rts => self.recv_rts(h, f),
                    Kind::Cts => self.recv_cts(h, f),
                    Kind::Ack => self.recv_ack(h, f),
                    Kind::Data => self.recv_data(h, f),
                    _ => self.recv_mgmt(h, f),
                }
            }
        }
        self.set_rx_state(h, State::Idle);
    }

    fn recv_rts<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.tx_state != State::Idle || self.pkt_ctrl.is_some() {
            self.discard(h, f, Why::Busy);
            return;
        }
        self.make_cts(f.ta, f.duration);
        if self.defer.busy {
            self.stop_timer(h, Timer::Defer);
        }
        self.tx_resume(h);
        h.log(f);
    }

    fn recv_cts<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.tx_state != State::Rts {
            self.discard(h, f, Why::InvalidState);
            return;
        }
        let rts = self.pkt_rts.take().expect("the RTS sent");
        h.free(rts);
        debug_assert!(self.pkt_tx.is_some());
        self.stop_timer(h, Timer::Send);
        self.retries.cts_received();
        self.tx_resume(h);
        h.log(f);
    }

    fn recv_data<H: Host<P>>(&mut self, h: &mut H, mut f: Frame<P>) {
        let (dst, src, size) = (f.ra, f.ta, f.size);
        f.size -= self.mib.data_overhead();
        if dst != BROADCAST {
            if size >= self.mib.rts_threshold {
                if self.tx_state == State::Cts {
                    let cts = self.pkt_ctrl.take().expect("the CTS sent");
                    h.free(cts);
                    self.stop_timer(h, Timer::Send);
                } else {
                    self.discard(h, f, Why::Busy);
                    return;
                }
                self.make_ack(src);
                self.tx_resume(h);
            } else {
                if self.pkt_ctrl.is_some() {
                    self.discard(h, f, Why::Busy);
                    return;
                }
                self.make_ack(src);
                if !self.send.busy {
                    self.tx_resume(h);
                }
            }
            match self.seen.hear(src, f.seq) {
                Heard::Duplicate => {
                    self.discard(h, f, Why::Duplicate);
                    return;
                }
                Heard::Unknown => h.unknown_sender(src, dst),
                Heard::New => {}
            }
        }
        if self.infra.is_some() {
            if let Some((to, copy_up)) = self.infra_relay(h, &f) {
                return h.relay(f, to, copy_up);
            }
        }
        h.up(f);
    }

    fn recv_ack<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.infra.is_some() && self.infra_ack(h, f) {
            return;
        }
        if self.tx_state != State::Send {
            self.discard(h, f, Why::InvalidState);
            return;
        }
        let tx = self.pkt_tx.take().expect("the data frame sent");
        self.stop_timer(h, Timer::Send);
        self.retries.ack_received(tx.size, self.mib.rts_threshold);
        self.window.reset();
        h.free(tx);
        debug_assert!(!self.backoff.busy());
        self.start_backoff(h, 0.0);
        self.tx_resume(h);
        h.log(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A station alone (nothing on the air unless a test puts it there):
    /// its timers run by the smallest expiry, the calls it makes recorded.
    #[derive(Default)]
    struct Alone {
        now: f64,
        draw: i32,
        timers: Vec<(Timer, f64)>,
        log: Vec<String>,
        callback: bool,
    }

    impl Host<u32> for Alone {
        fn now(&self) -> f64 {
            self.now
        }
        fn random(&mut self) -> i32 {
            self.draw
        }
        fn start(&mut self, t: Timer, delay: f64) {
            self.timers.retain(|&(u, _)| u != t);
            self.timers.push((t, self.now + delay));
        }
        fn stop(&mut self, t: Timer) {
            self.timers.retain(|&(u, _)| u != t);
        }
        fn transmit(&mut self, f: &Frame<u32>) {
            self.log.push(format!("send {:?} {} to {:x}", f.kind, f.size, f.ra));
        }
        fn up(&mut self, f: Frame<u32>) {
            self.log.push(format!("up {} seq {}", f.size, f.seq));
        }
        fn log(&mut self, f: Frame<u32>) {
            self.log.push(format!("got {:?}", f.kind));
        }
        fn drop(&mut self, f: Frame<u32>, why: Why) {
            self.log.push(format!("drop {:?} {} {why:?}", f.kind, f.size));
        }
        fn free(&mut self, _: Frame<u32>) {}
        fn has_failure_callback(&self, _: &Frame<u32>) -> bool {
            self.callback
        }
        fn failed(&mut self, f: &Frame<u32>, why: Failure) {
            self.log.push(format!("failed {} {why:?}", f.size));
        }
        fn unknown_sender(&mut self, src: u32, dst: u32) {
            self.log.push(format!("unknown {src} {dst}"));
        }
        fn resume(&mut self) -> Option<Outgoing<u32>> {
            self.log.push("resume".into());
            None
        }
        fn tap(&mut self, f: &Frame<u32>) {
            self.log.push(format!("tap {:?} {} to {:x}", f.kind, f.size, f.ra));
        }
    }

    impl Alone {
        /// Fire the timers due up to `until`, earliest first.
        fn run(&mut self, d: &mut Dcf<u32>, until: f64) {
            while let Some(&(t, at)) = self.timers.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
                if at > until {
                    break;
                }
                self.timers.retain(|&(u, _)| u != t);
                self.now = at;
                d.expired(self, t);
            }
            self.now = until;
        }
    }

    fn data(from: u32, to: u32, seq: u16, m: &Mib) -> Frame<u32> {
        let size = 100 + m.data_overhead();
        Frame { kind: Kind::Data, ra: to, ta: from, duration: m.data_duration(), size, txtime: m.txtime(size as f64, m.data_rate), retry: false, seq, error: false, rx_power: 1e-9, payload: Some(9) }
    }

    /// A frame arrives at `now` and is received `txtime` later.
    fn hear(h: &mut Alone, d: &mut Dcf<u32>, f: Frame<u32>) {
        d.arrive(h, f);
        let end = h.now + f.txtime;
        h.run(d, end);
    }

    #[test]
    fn a_data_frame_heard_twice_is_acknowledged_twice_and_dropped_as_a_duplicate() {
        // without RTS/CTS (frames shorter than the threshold)
        let m = Mib { rts_threshold: 3000, ..Mib::default() };
        let mut d = Dcf::new(m, 1, 4, 10.0);
        let mut h = Alone::default();
        hear(&mut h, &mut d, data(0, 1, 7, &m));
        h.run(&mut d, 0.01);
        hear(&mut h, &mut d, Frame { retry: true, ..data(0, 1, 7, &m) });
        h.run(&mut d, 0.02);
        // a new number from the same sender is taken again
        hear(&mut h, &mut d, data(0, 1, 8, &m));
        h.run(&mut d, 0.03);
        assert_eq!(h.log, ["up 100 seq 7", "send Ack 38 to 0", "drop Data 100 Duplicate", "send Ack 38 to 0", "up 100 seq 8", "send Ack 38 to 0"]);
    }

    #[test]
    fn with_rts_cts_on_a_data_frame_without_a_cts_before_it_is_refused() {
        let m = Mib::default();
        let mut d = Dcf::new(m, 1, 4, 10.0);
        let mut h = Alone::default();
        hear(&mut h, &mut d, data(0, 1, 7, &m));
        h.run(&mut d, 0.01);
        assert_eq!(h.log, ["drop Data 100 Busy"]);
    }

    #[test]
    fn a_sender_beyond_gods_count_is_told_and_the_frame_taken() {
        let m = Mib { rts_threshold: 3000, ..Mib::default() };
        let mut d = Dcf::new(m, 1, 2, 10.0);
        let mut h = Alone::default();
        hear(&mut h, &mut d, data(5, 1, 7, &m));
        assert_eq!(h.log[..2], ["unknown 5 1", "up 100 seq 7"]);
    }

    #[test]
    fn an_unexpected_ack_or_cts_is_dropped_as_invalid_state() {
        let m = Mib::default();
        let mut d = Dcf::new(m, 1, 4, 10.0);
        let mut h = Alone::default();
        let ack = Frame::control(Kind::Ack, 1, 0, m.ack_len(), m.txtime(m.ack_len() as f64, m.basic_rate), 0);
        hear(&mut h, &mut d, ack);
        let cts = Frame { kind: Kind::Cts, ..ack };
        hear(&mut h, &mut d, cts);
        assert_eq!(h.log, ["drop Ack 38 InvalidState", "drop Cts 38 InvalidState"]);
    }

    /// Seven RTS frames unanswered: the packet's failure call-back gets it
    /// with its size cut to the payload's, the RTS and the data frame are
    /// dropped (the data frame with the cut size), the window is back to
    /// its minimum, and the queue is asked for the next packet.
    #[test]
    fn seven_unanswered_rts_frames_give_the_packet_up() {
        for callback in [true, false] {
            let m = Mib::default();
            let mut d = Dcf::new(m, 0, 4, 10.0);
            let mut h = Alone { draw: 3, callback, ..Alone::default() };
            d.send(&mut h, Outgoing { payload: 9, size: 512, ra: 1, ta: 0 });
            h.run(&mut d, 1.0);
            let sent = h.log.iter().filter(|l| l.starts_with("send Rts")).count();
            assert_eq!(sent, 7);
            let tail: Vec<&str> = h.log[7..].iter().map(|s| s.as_str()).collect();
            if callback {
                assert_eq!(tail, ["drop Rts 44 RetryExceeded", "failed 512 Rts", "drop Data 512 RetryExceeded", "resume"]);
            } else {
                assert_eq!(tail, ["drop Rts 44 RetryExceeded", "drop Data 570 RetryExceeded", "resume"]);
            }
            assert_eq!(d.contention_window(), 31);
            assert!(!d.holds_packet());
        }
    }

    /// A frame arriving while another is received: ten times weaker, it
    /// is captured (the first survives, the NAV covers an EIFS and the
    /// second's time); comparable, both are lost (the longer-lasting one
    /// kept until its end, then dropped too, and the NAV set for an EIFS).
    #[test]
    fn capture_and_collision() {
        let m = Mib { rts_threshold: 3000, ..Mib::default() };
        let mut d = Dcf::new(m, 1, 4, 10.0);
        let mut h = Alone::default();
        let strong = data(0, 1, 7, &m);
        let weak = Frame { rx_power: strong.rx_power / 10.0, ta: 2, ..data(2, 1, 3, &m) };
        d.arrive(&mut h, strong);
        h.now += 0.0001;
        d.arrive(&mut h, weak);
        assert!(h.log.is_empty());
        h.run(&mut d, 0.02);
        assert_eq!(h.log[..2], ["up 100 seq 7", "send Ack 38 to 0"]);
        h.log.clear();
        let near = Frame { rx_power: strong.rx_power / 9.0, ..weak };
        d.arrive(&mut h, Frame { seq: 8, ..strong });
        h.now += 0.0001;
        d.arrive(&mut h, near);
        h.run(&mut d, 0.04);
        assert_eq!(h.log, ["drop Data 158 Collision", "drop Data 158 Collision"]);
        assert_eq!(d.nav, 0.02 + 0.0001 + strong.txtime + usec(m.eifs()) as f64 * 1e-6);
    }

    /// The tap (DSR's promiscuous listening): every data frame received
    /// whole is shown to it before the address filter, the frames for
    /// other stations among them; control frames, garbled and colliding
    /// frames are not; without the tap nothing is shown.
    #[test]
    fn the_tap_sees_every_data_frame_received_whole() {
        let m = Mib { rts_threshold: 3000, ..Mib::default() };
        for tap in [true, false] {
            let mut d = Dcf::new(m, 1, 4, 10.0);
            d.tap = tap;
            let mut h = Alone::default();
            // for another station, for this one, broadcast
            hear(&mut h, &mut d, data(0, 2, 7, &m));
            h.run(&mut d, 0.01);
            hear(&mut h, &mut d, data(0, 1, 8, &m));
            h.run(&mut d, 0.02);
            hear(&mut h, &mut d, data(3, BROADCAST, 9, &m));
            h.run(&mut d, 0.03);
            // a control frame, a garbled data frame, two that collide
            let ack = Frame::control(Kind::Ack, 2, 0, m.ack_len(), m.txtime(m.ack_len() as f64, m.basic_rate), 0);
            hear(&mut h, &mut d, ack);
            h.run(&mut d, 0.04);
            hear(&mut h, &mut d, Frame { error: true, ..data(0, 1, 10, &m) });
            h.run(&mut d, 0.05);
            let a = data(0, 2, 11, &m);
            d.arrive(&mut h, a);
            h.now += 0.0001;
            d.arrive(&mut h, Frame { ta: 3, ..data(3, 2, 12, &m) });
            h.run(&mut d, 0.07);
            let tapped: Vec<&str> = h.log.iter().filter(|l| l.starts_with("tap")).map(|s| s.as_str()).collect();
            if tap {
                assert_eq!(tapped, ["tap Data 158 to 2", "tap Data 158 to 1", "tap Data 158 to ffffffff"]);
                // (shown before the frame goes up)
                assert_eq!(h.log[1..3], ["tap Data 158 to 1", "up 100 seq 8"]);
            } else {
                assert!(tapped.is_empty());
            }
            assert_eq!(h.log.iter().filter(|l| l.starts_with("up")).count(), 2);
        }
    }
}
