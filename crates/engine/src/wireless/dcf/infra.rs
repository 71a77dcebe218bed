//! 802.11's infrastructure mode, as ns-2 2.35's `Mac/802_11` runs it
//! (mac/mac-802_11.cc: `sendBEACON`, `recvBEACON`, `sendPROBE*`,
//! `sendAUTHENTICATE`, `sendASSOC*`, their `check_pkt*` and `recv*`,
//! `ProbeHandler`, `checkAssocAuthStatus`, the client and AP tables and the
//! access point's relaying in `recvDATA` and `hdr_dst`).
//!
//! An access point (`$mac ap ADDR`) sends a beacon every
//! `BeaconInterval_`; its management frames wait in their own slots,
//! sent in the order a small queue of priorities says (probe response 1,
//! beacon 2, authentication 3, association response 4).  A station scans
//! passively (`ScanType PASSIVE`: it listens to beacons for
//! `ChannelTime_`, then authenticates with the strongest) or actively
//! (`ScanType ACTIVE`: after `ProbeDelay_` a broadcast probe request,
//! responses heard for `MinChannelTime_`, then `MaxChannelTime_` if any
//! came), then asks to associate; from then on its data frames go to the
//! access point, which relays them to its clients, or, for a destination
//! that is not its client, broadcasts them to the other access points.
//!
//! The machine is the DCF's: this file adds its management part, joined
//! through `Dcf::infra` (`None` for a station that has neither been made an
//! access point, nor told to scan, nor heard a beacon: ns-2's
//! `infra_mode_ 0`, whose frames take the ad hoc path alone).  ns-2's
//! quirks are kept: a beacon made while one waits replaces it but adds a
//! second entry to the priority queue; the station's handoff after three
//! failed sends, which scans actively again; a probe response, beacon,
//! authentication or association response is sent only when its priority
//! is the queue's first.

use super::{Clock, Dcf, Frame, Host, Kind, State, Timer, Why, BROADCAST, MAX_PROPAGATION_DELAY};
use crate::wireless::mac80211::usec;

/// The frame bodies' sizes (ns-2's structs, without the PLCP header).
const BEACON_LEN: u32 = 48;
const PROBE_REQ_LEN: u32 = 28;
const PROBE_REP_LEN: u32 = 48;
const AUTH_LEN: u32 = 34;
const ASSOC_REQ_LEN: u32 = 28;
const ASSOC_REP_LEN: u32 = 30;

/// A data frame's infrastructure addressing (ns-2's `dh_3a`, `dh_4a` and
/// the frame control's to-DS and from-DS bits), kept with its packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ds {
    pub a3: u32,
    pub a4: u32,
    pub to_ds: bool,
    pub from_ds: bool,
}

/// ns-2's scan types (`ScanType_`: an uninitialised member, 0 in
/// practice, which is `PASSIVE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scan {
    #[default]
    Passive,
    Active,
}

/// What the infrastructure MAC prints on stdout (C's `printf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfraNotice {
    /// `Client %d: Handoff Attempted`
    HandoffAttempted { client: u32 },
    /// `Client %d: Handoff from AP %d to AP %d`
    Handoff { client: u32, from: u32, to: u32 },
    /// `No APs in range`
    NoAps,
    /// `Out of sequence`
    OutOfSequence,
}

/// The variables of `Mac/802_11` infrastructure mode reads (read when the
/// node is made).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InfraMib {
    pub beacon_interval: f64,
    pub probe_delay: f64,
    pub min_channel_time: f64,
    pub max_channel_time: f64,
    pub channel_time: f64,
}

impl Default for InfraMib {
    /// ns-default.tcl's values.
    fn default() -> Self {
        InfraMib { beacon_interval: 0.1, probe_delay: 0.0001, min_channel_time: 0.005, max_channel_time: 0.011, channel_time: 0.12 }
    }
}

#[derive(Clone, Copy, Debug)]
struct Client {
    id: u32,
}

#[derive(Clone, Copy, Debug)]
struct ApEntry {
    id: u32,
    power: f64,
}

/// One MAC's infrastructure state (ns-2's members of the same names).
#[derive(Clone, Debug)]
pub struct Infra<P> {
    pub mib: InfraMib,
    /// This MAC's address when it is an access point, else -1.
    pub ap_addr: i64,
    /// The BSS it belongs to (`BROADCAST`: none, ns-2's `IBSS_ID`).
    pub bss_id: u32,
    pub scan: Scan,
    probe_delay: bool,
    on_min: bool,
    on_max: bool,
    recv_busy: bool,
    handoff: bool,
    associated: bool,
    authenticated: bool,
    tx_mgmt: u8,
    associating: u32,
    authenticating: u32,
    /// The access point's clients, newest last (ns-2 pushes to the front;
    /// only membership is asked).
    clients: Vec<Client>,
    /// The access points heard, newest last (searched newest first).
    aps: Vec<ApEntry>,
    /// The priorities of the access point's waiting frames, first first
    /// (ns-2's linked list; 0 at its head: empty).
    prio: Vec<u8>,
    pub(super) beacon: Clock,
    pub(super) probe: Clock,
    pkt_beacon: Option<Frame<P>>,
    pkt_probe_req: Option<Frame<P>>,
    pkt_probe_rep: Option<Frame<P>>,
    pkt_auth: Option<Frame<P>>,
    pkt_assoc_req: Option<Frame<P>>,
    pkt_assoc_rep: Option<Frame<P>>,
}

impl<P> Infra<P> {
    pub fn new(mib: InfraMib) -> Infra<P> {
        Infra {
            mib,
            ap_addr: -1,
            bss_id: BROADCAST,
            scan: Scan::Passive,
            probe_delay: false,
            on_min: false,
            on_max: false,
            recv_busy: false,
            handoff: false,
            associated: false,
            authenticated: false,
            tx_mgmt: 0,
            associating: 0,
            authenticating: 0,
            clients: Vec::new(),
            aps: Vec::new(),
            prio: Vec::new(),
            beacon: Clock::default(),
            probe: Clock::default(),
            pkt_beacon: None,
            pkt_probe_req: None,
            pkt_probe_rep: None,
            pkt_auth: None,
            pkt_assoc_req: None,
            pkt_assoc_rep: None,
        }
    }

    fn find_client(&self, id: u32) -> bool {
        self.clients.iter().any(|c| c.id == id)
    }

    fn update_client(&mut self, id: u32) {
        // (ns-2 keeps the authentication and association states, which
        // nothing reads back)
        if !self.find_client(id) {
            self.clients.push(Client { id });
        }
    }

    /// `find_ap`: whether the table has `id` (its power updated).
    fn find_ap(&mut self, id: u32, power: f64) -> bool {
        match self.aps.iter_mut().rev().find(|a| a.id == id) {
            Some(a) => {
                a.power = power;
                true
            }
            None => false,
        }
    }

    /// `strongest_ap`: the first, newest first, of the strongest (-1 when
    /// the table is empty; an access point heard at no power at all is
    /// never chosen, and then ns-2 returns an unset value: taken as -1).
    fn strongest_ap(&self) -> i64 {
        let mut max = 0.0;
        let mut ap = -1;
        for a in self.aps.iter().rev() {
            if a.power > max {
                max = a.power;
                ap = a.id as i64;
            }
        }
        ap
    }

    fn head(&self) -> u8 {
        self.prio.first().copied().unwrap_or(0)
    }

    /// `add_priority_queue`.
    fn push_priority(&mut self, n: u8) {
        if self.prio.len() == 1 && self.prio[0] == 0 {
            self.prio[0] = n;
        } else {
            self.prio.push(n);
        }
    }

    /// `shift_priority_queue`: the head leaves (a last one leaves a 0).
    fn shift_priority(&mut self) {
        match self.prio.len() {
            0 => {}
            1 => self.prio[0] = 0,
            _ => {
                self.prio.remove(0);
            }
        }
    }

}

impl<P: Copy> Dcf<P> {
    /// The infrastructure state, made on first need (ns-2's
    /// `infra_mode_ = 1`).
    fn infra_mut(&mut self) -> &mut Infra<P> {
        let mib = self.infra_mib;
        self.infra.get_or_insert_with(|| Box::new(Infra::new(mib)))
    }

    /// The BSS this MAC belongs to (`BROADCAST`: none).
    pub fn bss_id(&self) -> u32 {
        self.infra.as_ref().map_or(BROADCAST, |i| i.bss_id)
    }

    /// `$mac ap ADDR`: this MAC becomes an access point; its first beacon
    /// after a random number of slots.
    pub fn make_ap<H: Host<P>>(&mut self, h: &mut H) {
        let addr = self.addr;
        let cw = self.window.cw as i32;
        let slot = self.mib.slot_time;
        let inf = self.infra_mut();
        inf.ap_addr = addr as i64;
        inf.bss_id = addr;
        let d = (h.random() % cw) as f64 * slot;
        self.start_infra_timer(h, Timer::Beacon, d);
    }

    /// `$mac ScanType ACTIVE|PASSIVE`.
    pub fn scan_type<H: Host<P>>(&mut self, h: &mut H, s: Scan) {
        let inf = self.infra_mut();
        inf.scan = s;
        let d = match s {
            Scan::Active => {
                inf.probe_delay = true;
                inf.mib.probe_delay
            }
            Scan::Passive => inf.mib.channel_time,
        };
        self.start_infra_timer(h, Timer::Probe, d);
    }

    fn start_infra_timer<H: Host<P>>(&mut self, h: &mut H, t: Timer, d: f64) {
        let now = h.now();
        let inf = self.infra.as_deref_mut().expect("infrastructure state");
        let c = if t == Timer::Beacon { &mut inf.beacon } else { &mut inf.probe };
        if c.busy {
            // (ns-2 asserts the timer idle)
            h.stop(t);
        }
        *c = Clock { busy: true, stime: now, rtime: d };
        h.start(t, d);
    }

    /// The tail every management send shares with `send`: wait a DIFS
    /// and a backoff when the medium is idle, else back off.
    pub(super) fn kick<H: Host<P>>(&mut self, h: &mut H) {
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

    fn mgmt_frame(&self, kind: Kind, ra: u32, body: u32, duration: u16) -> Frame<P> {
        let size = self.mib.plcp_len() + body;
        let txtime = self.txtime(size, self.mib.basic_rate);
        Frame { kind, ra, ta: self.addr, duration, size, txtime, retry: false, seq: 0, error: false, rx_power: 0.0, payload: None }
    }

    fn ack_time(&self) -> f64 {
        self.txtime(self.mib.ack_len(), self.mib.basic_rate)
    }

    // ---- the timers ----------------------------------------------------------

    pub(super) fn beacon_handler<H: Host<P>>(&mut self, h: &mut H) {
        let interval = self.infra.as_ref().map_or(0.1, |i| i.mib.beacon_interval);
        self.start_infra_timer(h, Timer::Beacon, interval);
        let f = self.mgmt_frame(Kind::Beacon, BROADCAST, BEACON_LEN, 0);
        let inf = self.infra_mut();
        inf.pkt_beacon = Some(f);
        inf.push_priority(2);
        self.kick(h);
    }

    pub(super) fn probe_handler<H: Host<P>>(&mut self, h: &mut H) {
        let inf = self.infra.as_deref_mut().expect("infrastructure state");
        let max = inf.mib.max_channel_time;
        if inf.scan == Scan::Active {
            if (inf.bss_id == BROADCAST || inf.handoff) && !inf.on_min && !inf.recv_busy && !inf.on_max {
                if inf.probe_delay {
                    inf.probe_delay = false;
                    self.send_probe_req(h);
                } else {
                    self.check_assoc_auth(h);
                }
                return;
            } else if inf.on_min && inf.recv_busy && !inf.on_max {
                inf.on_min = false;
                inf.on_max = true;
                self.start_infra_timer(h, Timer::Probe, max);
                return;
            } else if !inf.on_min && inf.recv_busy && inf.on_max {
                inf.on_max = false;
                inf.recv_busy = false;
                if inf.strongest_ap() > -1 {
                    self.active_scan(h);
                } else {
                    h.infra_notice(InfraNotice::NoAps);
                }
                return;
            } else if inf.on_min && !inf.recv_busy && !inf.on_max {
                inf.on_min = false;
                return;
            }
        } else if inf.bss_id == BROADCAST {
            self.passive_scan(h);
            return;
        }
        let inf = self.infra.as_deref().expect("infrastructure state");
        if inf.bss_id != BROADCAST && !inf.probe.busy {
            self.check_assoc_auth(h);
        }
    }

    fn passive_scan<H: Host<P>>(&mut self, h: &mut H) {
        let addr = self.addr as i64;
        let inf = self.infra.as_deref().expect("infrastructure state");
        if addr != inf.ap_addr && inf.scan == Scan::Passive && !inf.authenticated && !inf.associated {
            let ap = inf.strongest_ap();
            if inf.pkt_auth.is_none() {
                self.send_auth(h, ap as u32);
            }
        }
    }

    fn active_scan<H: Host<P>>(&mut self, h: &mut H) {
        let addr = self.addr as i64;
        let inf = self.infra.as_deref().expect("infrastructure state");
        if addr != inf.ap_addr && inf.scan == Scan::Active && !inf.authenticated && !inf.associated {
            let ap = inf.strongest_ap();
            self.send_auth(h, ap as u32);
        }
    }

    /// `checkAssocAuthStatus`.
    fn check_assoc_auth<H: Host<P>>(&mut self, h: &mut H) {
        let inf = self.infra.as_deref().expect("infrastructure state");
        if self.addr == inf.bss_id {
            return;
        }
        if !inf.authenticated && !inf.associated {
            let ap = inf.strongest_ap();
            self.send_auth(h, ap as u32);
        }
        let inf = self.infra.as_deref().expect("infrastructure state");
        if inf.authenticated && !inf.associated {
            let bss = inf.bss_id;
            self.send_assoc_req(h, bss);
        }
    }

    // ---- making the frames ---------------------------------------------------

    fn send_probe_req<H: Host<P>>(&mut self, h: &mut H) {
        let f = self.mgmt_frame(Kind::ProbeReq, BROADCAST, PROBE_REQ_LEN, 0);
        self.infra_mut().pkt_probe_req = Some(f);
        self.kick(h);
    }

    fn send_probe_rep<H: Host<P>>(&mut self, h: &mut H, dst: u32) {
        let f = self.mgmt_frame(Kind::ProbeRep, dst, PROBE_REP_LEN, 0);
        let inf = self.infra_mut();
        inf.pkt_probe_rep = Some(f);
        inf.push_priority(1);
        self.kick(h);
    }

    fn send_auth<H: Host<P>>(&mut self, h: &mut H, dst: u32) {
        let ap = self.addr == self.bss_id();
        let duration = if ap { usec(self.ack_time() + self.mib.sifs) } else { 0 };
        let mut f = self.mgmt_frame(Kind::Auth, dst, AUTH_LEN, duration);
        // (the authentication's sequence number: 1 asks, 2 answers)
        f.seq = if ap { 2 } else { 1 };
        let inf = self.infra_mut();
        inf.pkt_auth = Some(f);
        if ap {
            inf.push_priority(3);
        }
        self.kick(h);
    }

    fn send_assoc_req<H: Host<P>>(&mut self, h: &mut H, dst: u32) {
        let f = self.mgmt_frame(Kind::AssocReq, dst, ASSOC_REQ_LEN, 0);
        self.infra_mut().pkt_assoc_req = Some(f);
        self.kick(h);
    }

    fn send_assoc_rep<H: Host<P>>(&mut self, h: &mut H, dst: u32) {
        let f = self.mgmt_frame(Kind::AssocRep, dst, ASSOC_REP_LEN, 0);
        let inf = self.infra_mut();
        inf.pkt_assoc_rep = Some(f);
        inf.push_priority(4);
        self.kick(h);
    }

    // ---- sending them (the check_pkt* routines) --------------------------------

    fn transmit_mgmt<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>, timeout: f64) {
        self.tx_active = true;
        if self.rx_state != State::Idle {
            if let Some(rx) = self.pkt_rx.as_mut() {
                rx.error = true;
            }
        }
        if let Some(c) = h.eot_copy(&f) {
            self.eot = Some(c);
        }
        h.transmit(&f);
        self.start_timer(h, Timer::Send, timeout);
        self.start_timer(h, Timer::Interface, f.txtime);
    }

    /// A management frame's turn: sent if the medium is idle, else a
    /// wider backoff.  (`state`, the timeout: what it waits for.)
    fn check_mgmt<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>, state: State, tx_mgmt: Option<u8>, timeout: f64) -> bool {
        if !self.is_idle(h.now()) {
            self.window.widen();
            self.start_backoff(h, 0.0);
            return false;
        }
        self.set_tx_state(h, state);
        if let Some(t) = tx_mgmt {
            self.infra.as_deref_mut().expect("infrastructure state").tx_mgmt = t;
        }
        self.transmit_mgmt(h, f, timeout);
        true
    }

    /// The part of `backoffHandler` before the DCF's: true when it is
    /// done.
    pub(super) fn infra_backoff<H: Host<P>>(&mut self, h: &mut H) -> bool {
        let Some(inf) = self.infra.as_deref() else { return false };
        let m = self.mib;
        let prop = MAX_PROPAGATION_DELAY;
        let max_ch = inf.mib.max_channel_time;
        let min_ch = inf.mib.min_channel_time;
        let ack = self.ack_time();
        if self.addr != inf.bss_id {
            if let Some(f) = inf.pkt_probe_req {
                if self.check_mgmt(h, f, State::Mgmt, None, f.txtime + prop) {
                    // (sent: the probe timer waits MinChannelTime)
                    self.start_infra_timer(h, Timer::Probe, min_ch);
                    self.infra.as_deref_mut().expect("infrastructure state").on_min = true;
                }
                return true;
            }
            if let Some(f) = inf.pkt_auth {
                let t = f.txtime + prop + max_ch + f.txtime + prop;
                self.check_mgmt(h, f, State::Mgmt, None, t);
                return true;
            }
            if let Some(f) = inf.pkt_assoc_req {
                let rep = self.txtime(m.plcp_len() + ASSOC_REP_LEN, m.basic_rate);
                self.check_mgmt(h, f, State::Mgmt, None, f.txtime + prop + max_ch + rep + prop);
                return true;
            }
        }
        if self.pkt_ctrl.is_some() {
            return true;
        }
        let inf = self.infra.as_deref().expect("infrastructure state");
        if self.addr == inf.bss_id {
            let head = inf.head();
            let reply = |f: &Frame<P>| f.txtime + prop + m.sifs + ack + prop;
            if let (Some(f), 1) = (inf.pkt_probe_rep, head) {
                self.check_mgmt(h, f, State::Mgmt, Some(1), reply(&f));
                return true;
            } else if let (Some(f), 2) = (inf.pkt_beacon, head) {
                self.check_mgmt(h, f, State::Bcn, None, f.txtime);
                return true;
            } else if let (Some(f), 3) = (inf.pkt_auth, head) {
                self.check_mgmt(h, f, State::Mgmt, Some(3), reply(&f));
                return true;
            } else if let (Some(f), 4) = (inf.pkt_assoc_rep, head) {
                self.check_mgmt(h, f, State::Mgmt, Some(4), reply(&f));
                return true;
            }
        }
        false
    }

    /// `send_timer`'s management and beacon states: the frame's wait is
    /// over.  True when it was one of them.
    pub(super) fn infra_send_timer<H: Host<P>>(&mut self, h: &mut H) -> bool {
        let addr = self.addr;
        match self.tx_state {
            State::Mgmt => {
                let inf = self.infra.as_deref_mut().expect("infrastructure state");
                if inf.pkt_auth.is_some() {
                    if addr == inf.bss_id {
                        if inf.tx_mgmt == 3 {
                            inf.pkt_auth = None;
                            inf.shift_priority();
                            self.start_backoff(h, 0.0);
                            return true;
                        }
                    } else {
                        inf.pkt_auth = None;
                        self.check_assoc_auth(h);
                        return true;
                    }
                }
                let inf = self.infra.as_deref_mut().expect("infrastructure state");
                if inf.pkt_assoc_req.is_some() {
                    inf.pkt_assoc_req = None;
                    self.check_assoc_auth(h);
                    return true;
                }
                if inf.pkt_assoc_rep.is_some() && inf.tx_mgmt == 4 {
                    inf.pkt_assoc_rep = None;
                    inf.shift_priority();
                    let node = inf.associating;
                    inf.update_client(node);
                    self.start_backoff(h, 0.0);
                    return true;
                }
                if inf.pkt_probe_req.is_some() {
                    inf.pkt_probe_req = None;
                    return true;
                }
                if inf.pkt_probe_rep.is_some() && inf.tx_mgmt == 1 {
                    inf.pkt_probe_rep = None;
                    inf.shift_priority();
                    self.start_backoff(h, 0.0);
                    return true;
                }
                // (ns-2 falls through to the beacon's case)
                self.beacon_sent(h);
                true
            }
            State::Bcn => {
                self.beacon_sent(h);
                true
            }
            _ => false,
        }
    }

    fn beacon_sent<H: Host<P>>(&mut self, h: &mut H) {
        let inf = self.infra.as_deref_mut().expect("infrastructure state");
        inf.pkt_beacon = None;
        inf.shift_priority();
        self.start_backoff(h, 0.0);
    }

    /// The first bit of a frame reaches a receiver that was idle: an
    /// active scan's MinChannelTime notes that the medium was busy.
    pub(super) fn infra_arrive(&mut self) {
        if let Some(inf) = self.infra.as_deref_mut() {
            if inf.probe.busy && inf.on_min {
                inf.recv_busy = true;
            }
        }
    }

    /// `RetransmitDATA`'s handoff: a station whose third try has failed
    /// scans again (true: done).
    pub(super) fn infra_handoff<H: Host<P>>(&mut self, h: &mut H, size: u32) -> bool {
        let Some(inf) = self.infra.as_deref() else { return false };
        if inf.bss_id == BROADCAST || inf.handoff {
            return false;
        }
        let short = size <= self.mib.rts_threshold;
        let n = if short { self.retries.short } else { self.retries.long } + 1;
        if n != 3 {
            return false;
        }
        if short {
            self.retries.short = n;
        } else {
            self.retries.long = n;
        }
        h.infra_notice(InfraNotice::HandoffAttempted { client: self.addr });
        let inf = self.infra_mut();
        inf.associated = false;
        inf.authenticated = false;
        inf.handoff = true;
        inf.scan = Scan::Active;
        self.send_probe_req(h);
        true
    }

    // ---- receiving ---------------------------------------------------------------

    /// recv_timer's filters after the address filter (true: let go).
    pub(super) fn infra_filter<H: Host<P>>(&mut self, h: &mut H, f: &Frame<P>) -> bool {
        let bss = self.bss_id();
        if f.kind == Kind::Data && f.ra == BROADCAST {
            if let Some(p) = f.payload {
                let d = h.ds(p);
                if d.to_ds && d.from_ds {
                    if self.addr != bss {
                        return true;
                    }
                    let client = self.infra.as_deref().is_some_and(|i| i.find_client(d.a3));
                    if !client {
                        return true;
                    }
                }
            }
        }
        (self.addr == bss && f.kind == Kind::Beacon) || (self.addr != bss && f.kind == Kind::ProbeReq)
    }

    /// A management frame received for this station.
    pub(super) fn recv_mgmt<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        match f.kind {
            Kind::Beacon => self.recv_beacon(h, f),
            Kind::Auth => self.recv_auth(h, f),
            Kind::AssocReq => self.recv_assoc_req(h, f),
            Kind::AssocRep => self.recv_assoc_rep(h, f),
            Kind::ProbeReq => self.recv_probe_req(h, f),
            Kind::ProbeRep => self.recv_probe_rep(h, f),
            _ => unreachable!("not a management frame"),
        }
    }

    fn recv_beacon<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.tx_state != State::Idle {
            self.discard(h, f, Why::Busy);
            return;
        }
        let addr = self.addr as i64;
        let inf = self.infra_mut();
        if addr != inf.ap_addr && inf.scan == Scan::Passive && !inf.authenticated && !inf.associated && !inf.find_ap(f.ta, f.rx_power) {
            inf.aps.push(ApEntry { id: f.ta, power: f.rx_power });
        }
        h.log(f);
    }

    fn recv_probe_req<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.tx_state != State::Idle {
            self.discard(h, f, Why::Busy);
            return;
        }
        if self.infra_mut().pkt_probe_rep.is_none() {
            self.send_probe_rep(h, f.ta);
        } else {
            self.discard(h, f, Why::Busy);
            return;
        }
        self.tx_resume(h);
        h.log(f);
    }

    fn recv_probe_rep<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        self.infra_mut().aps.push(ApEntry { id: f.ta, power: f.rx_power });
        self.make_ack(f.ta);
        if !self.send.busy {
            self.tx_resume(h);
        }
        h.log(f);
    }

    fn recv_auth<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        let addr = self.addr;
        if addr != self.bss_id() {
            self.infra_mut().pkt_auth = None;
            if self.send.busy {
                self.stop_timer(h, Timer::Send);
            }
        } else if self.tx_state != State::Idle {
            self.discard(h, f, Why::Busy);
            return;
        }
        let src = f.ta;
        let inf = self.infra_mut();
        if addr as i64 == inf.ap_addr {
            if f.seq == 1 {
                if inf.pkt_auth.is_none() {
                    inf.authenticating = src;
                    self.send_auth(h, src);
                } else {
                    self.discard(h, f, Why::Busy);
                    return;
                }
            } else {
                h.infra_notice(InfraNotice::OutOfSequence);
            }
        } else if f.seq == 2 {
            inf.authenticated = true;
            if inf.bss_id != src && inf.handoff {
                h.infra_notice(InfraNotice::Handoff { client: addr, from: inf.bss_id, to: src });
            }
            inf.bss_id = src;
            let max = inf.mib.max_channel_time;
            self.make_ack(src);
            let d = self.mib.sifs + self.ack_time() + max;
            self.start_infra_timer(h, Timer::Probe, d);
        }
        if !self.send.busy {
            self.tx_resume(h);
        }
        h.log(f);
    }

    fn recv_assoc_req<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        if self.tx_state != State::Idle {
            self.discard(h, f, Why::Busy);
            return;
        }
        if self.infra_mut().pkt_assoc_rep.is_none() {
            self.send_assoc_rep(h, f.ta);
            self.infra_mut().associating = f.ta;
        } else {
            self.discard(h, f, Why::Busy);
            return;
        }
        self.tx_resume(h);
        h.log(f);
    }

    fn recv_assoc_rep<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        let inf = self.infra_mut();
        inf.pkt_assoc_req = None;
        // (the status is always 0: associated)
        inf.associated = true;
        inf.aps.clear();
        inf.handoff = false;
        if self.send.busy {
            self.stop_timer(h, Timer::Send);
        }
        self.make_ack(f.ta);
        if !self.send.busy {
            self.tx_resume(h);
        }
        h.log(f);
    }

    /// recvACK in the management state: the access point's frame was
    /// acknowledged (true: handled).
    pub(super) fn infra_ack<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) -> bool {
        if self.tx_state != State::Mgmt {
            return false;
        }
        if self.send.busy {
            self.stop_timer(h, Timer::Send);
        }
        let addr = self.addr;
        let inf = self.infra.as_deref_mut().expect("infrastructure state");
        if addr == inf.bss_id {
            if inf.pkt_assoc_rep.is_some() && inf.tx_mgmt == 4 {
                inf.pkt_assoc_rep = None;
                let n = inf.associating;
                inf.update_client(n);
            }
            if inf.pkt_probe_rep.is_some() && inf.tx_mgmt == 1 {
                inf.pkt_probe_rep = None;
            }
            if inf.pkt_auth.is_some() && inf.tx_mgmt == 3 {
                inf.pkt_auth = None;
                let n = inf.authenticating;
                inf.update_client(n);
            }
            inf.shift_priority();
            self.start_backoff(h, 0.0);
        }
        self.tx_resume(h);
        h.log(f);
        true
    }

    /// The link layer's `hdr_dst`, for a packet to the MAC address
    /// `dst` as it goes to the interface queue: its receiver address, its
    /// third address and bits kept with the packet.
    pub fn hdr_dst<H: Host<P>>(&self, h: &mut H, p: P, dst: u32) -> u32 {
        let Some(inf) = self.infra.as_deref() else { return dst };
        let mut d = h.ds(p);
        let ra = if inf.bss_id == BROADCAST {
            dst
        } else if self.addr == inf.bss_id {
            if inf.find_client(dst) || dst == BROADCAST {
                d.to_ds = false;
                d.from_ds = true;
                dst
            } else {
                d.a3 = dst;
                d.to_ds = true;
                d.from_ds = true;
                BROADCAST
            }
        } else {
            d.a3 = dst;
            inf.bss_id
        };
        h.set_ds(p, d);
        ra
    }

    /// sendDATA's frame-control bits (the MAC takes the packet): a
    /// station of a BSS sends to the distribution system; outside one,
    /// neither bit.
    pub(super) fn send_data_bits<H: Host<P>>(&self, h: &mut H, p: P) {
        let Some(inf) = self.infra.as_deref() else { return };
        let mut d = h.ds(p);
        if inf.bss_id == BROADCAST {
            d.to_ds = false;
            d.from_ds = false;
        } else if self.addr as i64 != inf.ap_addr {
            d.to_ds = true;
            d.from_ds = false;
        }
        h.set_ds(p, d);
    }

    /// check_pktTx's quirk: a station of a BSS, not handing off, takes the
    /// receiver of the data frame it sends for its BSS (a frame addressed
    /// before a handoff takes it back to the old access point).
    pub(super) fn infra_check_tx(&mut self, ra: u32) {
        let addr = self.addr;
        if let Some(inf) = self.infra.as_deref_mut() {
            if addr != inf.bss_id && inf.bss_id != BROADCAST && !inf.handoff {
                inf.bss_id = ra;
            }
        }
    }

    /// recvDATA's relaying by an access point: where a frame it received
    /// goes on to (`None`: up, as any frame).
    pub(super) fn infra_relay<H: Host<P>>(&self, h: &mut H, f: &Frame<P>) -> Option<(u32, bool)> {
        let inf = self.infra.as_deref()?;
        if self.addr != inf.bss_id {
            return None;
        }
        let p = f.payload?;
        let mut d = h.ds(p);
        if f.ra != BROADCAST && d.a3 != self.addr && !d.from_ds {
            let dst = d.a3;
            if inf.find_client(dst) || dst == BROADCAST {
                d.a3 = f.ta;
            } else {
                d.a4 = f.ta;
            }
            h.set_ds(p, d);
            return Some((dst, dst == BROADCAST));
        }
        if d.to_ds && d.from_ds {
            let dst = d.a3;
            d.a3 = d.a4;
            h.set_ds(p, d);
            return Some((dst, false));
        }
        None
    }

    /// The discard rule for a management frame: whether it is traced.
    pub(super) fn mgmt_ours(&self, f: &Frame<P>) -> bool {
        matches!(f.kind, Kind::Auth | Kind::AssocReq | Kind::ProbeReq) && f.ra == self.addr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wireless::dcf::{Failure, Outgoing};
    use crate::wireless::mac80211::Mib;

    /// A station alone: time stands still unless a test moves it, timers
    /// are listed, frames sent are logged, packets are numbers whose
    /// infrastructure addressing the host keeps.
    #[derive(Default)]
    struct Host1 {
        now: f64,
        draw: i32,
        timers: Vec<(Timer, f64)>,
        sent: Vec<Frame<u32>>,
        log: Vec<String>,
        ds: Vec<Ds>,
        notices: Vec<InfraNotice>,
    }

    impl Host<u32> for Host1 {
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
            self.sent.push(*f);
        }
        fn up(&mut self, f: Frame<u32>) {
            self.log.push(format!("up {}", f.payload.unwrap()));
        }
        fn log(&mut self, f: Frame<u32>) {
            self.log.push(format!("got {:?}", f.kind));
        }
        fn drop(&mut self, f: Frame<u32>, why: Why) {
            self.log.push(format!("drop {:?} {why:?}", f.kind));
        }
        fn free(&mut self, _: Frame<u32>) {}
        fn has_failure_callback(&self, _: &Frame<u32>) -> bool {
            false
        }
        fn failed(&mut self, _: &Frame<u32>, _: Failure) {}
        fn unknown_sender(&mut self, _: u32, _: u32) {}
        fn resume(&mut self) -> Option<Outgoing<u32>> {
            None
        }
        fn ds(&self, p: u32) -> Ds {
            self.ds[p as usize]
        }
        fn set_ds(&mut self, p: u32, d: Ds) {
            self.ds[p as usize] = d;
        }
        fn relay(&mut self, f: Frame<u32>, to: u32, copy_up: bool) {
            self.log.push(format!("relay {} to {to:x} copy {copy_up}", f.payload.unwrap()));
        }
        fn infra_notice(&mut self, n: InfraNotice) {
            self.notices.push(n);
        }
    }

    fn due(h: &Host1, t: Timer) -> Option<f64> {
        h.timers.iter().find(|&&(u, _)| u == t).map(|&(_, at)| at)
    }

    /// Run the earliest timer (moving time to it).
    fn step(d: &mut Dcf<u32>, h: &mut Host1) -> Timer {
        let &(t, at) = h.timers.iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("a timer running");
        h.timers.retain(|&(u, _)| u != t);
        h.now = at;
        d.expired(h, t);
        t
    }

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn an_access_point_beacons_every_interval_after_a_random_start() {
        let mut d: Dcf<u32> = Dcf::new(Mib::default(), 9, 10, 10.0);
        d.infra_mib.beacon_interval = 0.2;
        let mut h = Host1 { draw: 40, ..Host1::default() };
        d.make_ap(&mut h);
        assert_eq!(d.bss_id(), 9);
        // (40 % 31 = 9 slots of 20 us)
        assert!(near(due(&h, Timer::Beacon).unwrap(), 9.0 * 20e-6));
        assert_eq!(step(&mut d, &mut h), Timer::Beacon);
        // the next beacon is due an interval on; this one waits a DIFS
        // and a backoff (9 slots again) on an idle medium
        assert!(near(due(&h, Timer::Beacon).unwrap(), h.now + 0.2));
        let t0 = h.now;
        while h.sent.is_empty() {
            step(&mut d, &mut h);
        }
        let b = h.sent[0];
        assert_eq!((b.kind, b.ra, b.ta, b.size, b.duration), (Kind::Beacon, BROADCAST, 9, 72, 0));
        assert!(near(h.now - t0, 50e-6 + 9.0 * 20e-6));
        // 72 bytes at the basic rate, 1 Mb/s, with the 192 us PLCP
        assert!(near(b.txtime, 576e-6));
        assert_eq!(d.tx_state(), State::Bcn);
    }

    #[test]
    fn the_priority_queue_is_first_in_first_out_with_an_empty_head_kept() {
        let mut i: Infra<u32> = Infra::new(InfraMib::default());
        assert_eq!(i.head(), 0);
        i.push_priority(2);
        i.push_priority(1);
        assert_eq!(i.prio, [2, 1]);
        i.shift_priority();
        assert_eq!(i.prio, [1]);
        i.shift_priority();
        // (ns-2 keeps the last node, its priority 0: the next push takes it)
        assert_eq!(i.prio, [0]);
        i.push_priority(3);
        assert_eq!(i.prio, [3]);
        // a beacon made twice before it is sent is queued twice
        i.push_priority(2);
        i.push_priority(2);
        assert_eq!(i.prio, [3, 2, 2]);
    }

    #[test]
    fn the_strongest_access_point_is_the_newest_of_the_strongest() {
        let mut i: Infra<u32> = Infra::new(InfraMib::default());
        assert_eq!(i.strongest_ap(), -1);
        i.aps.push(ApEntry { id: 0, power: 2e-9 });
        i.aps.push(ApEntry { id: 9, power: 2e-9 });
        i.aps.push(ApEntry { id: 5, power: 1e-9 });
        assert_eq!(i.strongest_ap(), 9);
        assert!(i.find_ap(0, 3e-9));
        assert_eq!(i.strongest_ap(), 0);
        assert!(!i.find_ap(7, 1.0));
    }

    #[test]
    fn stations_and_access_points_address_data_frames_as_hdr_dst_does() {
        let mut h = Host1 { ds: vec![Ds::default(); 4], ..Host1::default() };
        // a station of BSS 9 sends everything to its access point, the
        // destination in the third address, to the distribution system
        let mut s: Dcf<u32> = Dcf::new(Mib::default(), 1, 10, 10.0);
        s.infra_mut().bss_id = 9;
        assert_eq!(s.hdr_dst(&mut h, 0, 5), 9);
        assert_eq!(h.ds[0].a3, 5);
        s.send_data_bits(&mut h, 0);
        assert_eq!(h.ds[0], Ds { a3: 5, a4: 0, to_ds: true, from_ds: false });
        assert_eq!(s.hdr_dst(&mut h, 1, BROADCAST), 9);
        assert_eq!(h.ds[1].a3, BROADCAST);
        // an access point: straight to a client, from the distribution
        // system; anything else broadcast to the other access points
        let mut ap: Dcf<u32> = Dcf::new(Mib::default(), 9, 10, 10.0);
        ap.make_ap(&mut h);
        ap.infra_mut().update_client(1);
        assert_eq!(ap.hdr_dst(&mut h, 2, 1), 1);
        assert_eq!((h.ds[2].to_ds, h.ds[2].from_ds), (false, true));
        assert_eq!(ap.hdr_dst(&mut h, 3, 4), BROADCAST);
        assert_eq!(h.ds[3], Ds { a3: 4, a4: 0, to_ds: true, from_ds: true });
        // without infrastructure mode, the link layer's address as it is
        let adhoc: Dcf<u32> = Dcf::new(Mib::default(), 2, 10, 10.0);
        assert_eq!(adhoc.hdr_dst(&mut h, 0, 5), 5);
    }

    #[test]
    fn an_access_point_relays_what_its_stations_send_to_others() {
        let mut h = Host1 { ds: vec![Ds::default(); 3], ..Host1::default() };
        let mut ap: Dcf<u32> = Dcf::new(Mib::default(), 0, 10, 10.0);
        ap.make_ap(&mut h);
        ap.infra_mut().update_client(1);
        let frame = |p: u32, ra: u32, ta: u32| Frame { kind: Kind::Data, ra, ta, duration: 0, size: 100, txtime: 0.0, retry: false, seq: 0, error: false, rx_power: 0.0, payload: Some(p) };
        // from station 1 for station 5 of another BSS: broadcast on to the
        // other access points, the sender kept in the fourth address
        h.ds[0] = Ds { a3: 5, a4: 0, to_ds: true, from_ds: false };
        assert_eq!(ap.infra_relay(&mut h, &frame(0, 0, 1)), Some((5, false)));
        assert_eq!(h.ds[0].a4, 1);
        // from another access point, for client 1: to it, the sender put
        // back in the third address
        h.ds[1] = Ds { a3: 1, a4: 5, to_ds: true, from_ds: true };
        assert_eq!(ap.infra_relay(&mut h, &frame(1, BROADCAST, 9)), Some((1, false)));
        assert_eq!(h.ds[1].a3, 5);
        // a broadcast from a station: relayed, a copy kept
        h.ds[2] = Ds { a3: BROADCAST, a4: 0, to_ds: true, from_ds: false };
        assert_eq!(ap.infra_relay(&mut h, &frame(2, 0, 1)), Some((BROADCAST, true)));
        assert_eq!(h.ds[2].a3, 1);
        // for the access point itself: up
        h.ds[0] = Ds { a3: 0, a4: 0, to_ds: true, from_ds: false };
        assert_eq!(ap.infra_relay(&mut h, &frame(0, 0, 1)), None);
    }

    #[test]
    fn a_passive_station_authenticates_with_the_strongest_beacon_after_its_channel_time() {
        let mut d: Dcf<u32> = Dcf::new(Mib::default(), 3, 10, 10.0);
        let mut h = Host1::default();
        d.scan_type(&mut h, Scan::Passive);
        assert!(near(due(&h, Timer::Probe).unwrap(), 0.12));
        let beacon = |ta: u32, pr: f64| Frame::<u32> { kind: Kind::Beacon, ra: BROADCAST, ta, duration: 0, size: 72, txtime: 576e-6, retry: false, seq: 0, error: false, rx_power: pr, payload: None };
        for (ta, pr) in [(0, 1e-9), (9, 4e-9), (0, 2e-9)] {
            d.arrive(&mut h, beacon(ta, pr));
            while h.timers.iter().any(|&(t, _)| t == Timer::Recv) {
                let at = due(&h, Timer::Recv).unwrap();
                h.timers.retain(|&(u, _)| u != Timer::Recv);
                h.now = at;
                d.expired(&mut h, Timer::Recv);
            }
        }
        assert_eq!(h.log, ["got Beacon"; 3]);
        while h.sent.is_empty() {
            step(&mut d, &mut h);
        }
        let a = h.sent[0];
        // (AP 9 was heard strongest; 0's entry was updated, not added)
        assert_eq!((a.kind, a.ra, a.ta, a.size, a.seq), (Kind::Auth, 9, 3, 58, 1));
        assert_eq!(d.tx_state(), State::Mgmt);
        assert_eq!(d.infra.as_ref().unwrap().aps.len(), 2);
    }
}
