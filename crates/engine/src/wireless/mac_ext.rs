//! 802.11a's timing as ns-2 2.35's `Mac/802_11Ext` computes it
//! (mac/mac-802_11Ext.cc, its PHY and MAC MIBs): OFDM frames of whole
//! symbols after a fixed preamble and PLCP header, each frame's
//! modulation setting its bits per symbol, control frames and headers at
//! the basic modulation.  The control frames are the DCF's (mac80211.rs:
//! RTS 20 bytes, CTS and ACK 14); the data header has three addresses,
//! not four (28 bytes with its checksum); the interframe spaces derive
//! from `SIFS_` and `SlotTime_`.
//!
//! Beside the timing, the MAC's channel-state and backoff managers
//! ([`Access`]): physical and virtual carrier sense combined with the
//! interframe wait, and the backoff counted in slots, paused while the
//! channel is busy.  And the MAC itself ([`MacExt`]): the transmission
//! coordinator (RTS, data, their time-outs and retries, the backoff after
//! each frame) and the reception coordinator (CTS and ACK after a SIFS,
//! the duplicate memory), handler for handler as mac-802_11Ext.cc has
//! them.  The radio below it is phy_ext.rs; the node joins the two
//! (stack.rs).

use super::dcf::{Frame, Kind, Outgoing, Why, BROADCAST};
use super::mac80211::{sec, usec, ACK_FRAME as ACK_LEN, CTS_FRAME as CTS_LEN, RTS_FRAME as RTS_LEN};

/// The data frame's header and checksum (hdr_mac802_11 of
/// mac-802_11Ext.h up to its body, and the FCS).
pub const DATA_HDR_LEN: u32 = 2 + 2 + 3 * 6 + 2 + 4;

/// Data bits per OFDM symbol of each modulation (BPSK, QPSK, QAM16,
/// QAM64 at ns-2's coding rates).
pub const BITS_PER_SYMBOL: [u32; 4] = [24, 48, 96, 192];

/// `Mac/802_11Ext`'s timing parameters (bound variables; defaults
/// ns-default.tcl's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// `SlotTime_`, `SIFS_` (s).
    pub slot: f64,
    pub sifs: f64,
    /// `HeaderDuration_` (preamble and PLCP header), `SymbolDuration_` (s).
    pub header_duration: f64,
    pub symbol_duration: f64,
    /// `BasicModulationScheme_`: control frames' modulation.
    pub basic: u8,
    /// `use_802_11a_flag_`: 22 bits (SERVICE and tail) before the padding.
    pub ofdm_bits: bool,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing { slot: 0.000009, sifs: 0.000016, header_duration: 0.000020, symbol_duration: 0.000004, basic: 0, ofdm_bits: true }
    }
}

impl Timing {
    /// The air time of a frame of `bytes` at modulation `m`: the header,
    /// then the bits (with 16 service and 6 tail bits in 802.11a) padded
    /// to whole symbols.
    pub fn txtime(&self, bytes: u32, m: u8) -> f64 {
        let mut bits = (bytes as i32) << 3;
        if self.ofdm_bits {
            bits += 16 + 6;
        }
        let symbols = (bits as f64 / BITS_PER_SYMBOL[m as usize] as f64).ceil() as i32;
        self.header_duration + symbols as f64 * self.symbol_duration
    }

    /// DIFS, EIFS (SIFS, DIFS and an ACK at the basic modulation), PIFS.
    pub fn difs(&self) -> f64 {
        self.sifs + 2.0 * self.slot
    }

    pub fn eifs(&self) -> f64 {
        self.sifs + self.difs() + self.txtime(ACK_LEN, self.basic)
    }

    pub fn pifs(&self) -> f64 {
        self.sifs + self.slot
    }

    /// A data frame's air time: its payload and the 802.11 header.
    pub fn data_txtime(&self, payload: u32, m: u8) -> f64 {
        self.txtime(payload + DATA_HDR_LEN, m)
    }

    /// A data frame's duration field (us): an ACK after a SIFS for a
    /// unicast, 0 for a broadcast.
    pub fn data_duration(&self, broadcast: bool) -> u16 {
        if broadcast {
            0
        } else {
            usec(self.txtime(ACK_LEN, self.basic) + self.sifs)
        }
    }

    /// An RTS's duration field (us) for a data frame of air time `data`:
    /// CTS, data and ACK, each after a SIFS.
    pub fn rts_duration(&self, data: f64) -> u16 {
        usec(self.sifs + self.txtime(CTS_LEN, self.basic) + self.sifs + data + self.sifs + self.txtime(ACK_LEN, self.basic))
    }

    /// The CTS's duration field (us) answering an RTS of duration `rts` us.
    pub fn cts_duration(&self, rts: u16) -> u16 {
        usec(rts as f64 * 1.0e-6 - self.sifs - self.txtime(CTS_LEN, self.basic))
    }

    /// An RTS's air time (at the basic modulation).
    pub fn rts_txtime(&self) -> f64 {
        self.txtime(RTS_LEN, self.basic)
    }
}

/// The channel as the MAC sees it (ns-2's `ChannelState`): carrier
/// sensed or not, a NAV set or not, or waiting an interframe space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// `noCSnoNAV`: free.
    Free,
    /// `noCSNAV`, `CSnoNAV`, `CSNAV`.
    Nav,
    Sensed,
    SensedNav,
    /// `WIFS`: free again, waiting DIFS or EIFS.
    Waiting,
}

/// The backoff manager's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backoff {
    None,
    Paused,
    Running,
}

/// The access managers' timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessTimer {
    Ifs,
    Nav,
    Backoff,
}

/// What the access managers need of the MAC.
pub trait AccessHost {
    fn now(&self) -> f64;
    /// Start timer `t` to fire in `delay` seconds (it is not running).
    fn start(&mut self, t: AccessTimer, delay: f64);
    /// Stop timer `t` (it is running).
    fn stop(&mut self, t: AccessTimer);
    /// `Random::integer(k)`: a draw in 0..k from the default stream.
    fn integer(&mut self, k: i32) -> i32;
    /// The backoff is over (`BKDone`: the transmission coordinator's turn).
    fn backoff_done(&mut self);
}

/// The channel-state manager and the backoff manager of one MAC.  A
/// signal in a state where ns-2 finds a logic error (and exits) is an
/// error here.
#[derive(Clone, Debug)]
pub struct Access {
    pub channel: Channel,
    pub backoff: Backoff,
    /// The interframe space waited after the channel frees (EIFS at
    /// first, then as the MAC sets it).
    ifs: f64,
    ifs_pending: bool,
    nav_pending: bool,
    nav_end: f64,
    slot: f64,
    /// Slots left, and when the running count started (-1: not running).
    slots: i32,
    counting_since: f64,
    backoff_pending: bool,
}

impl Access {
    pub fn new(t: &Timing) -> Access {
        Access {
            channel: Channel::Free,
            backoff: Backoff::None,
            ifs: t.eifs(),
            ifs_pending: false,
            nav_pending: false,
            nav_end: 0.0,
            slot: t.slot,
            slots: -1,
            counting_since: -1.0,
            backoff_pending: false,
        }
    }

    /// The slots the backoff has left (-1 when none is drawn).
    pub fn slots(&self) -> i32 {
        self.slots
    }

    /// `setIFS`: the space to wait from now on; a wait under way starts
    /// again with it.
    pub fn set_ifs<H: AccessHost>(&mut self, h: &mut H, ifs: f64) {
        self.ifs = ifs;
        if self.ifs_pending {
            h.stop(AccessTimer::Ifs);
            h.start(AccessTimer::Ifs, ifs);
        }
    }

    fn start<H: AccessHost>(&mut self, h: &mut H, t: AccessTimer, delay: f64) {
        match t {
            AccessTimer::Ifs => self.ifs_pending = true,
            AccessTimer::Nav => {
                self.nav_pending = true;
                self.nav_end = delay + h.now();
            }
            AccessTimer::Backoff => self.backoff_pending = true,
        }
        h.start(t, delay);
    }

    fn stop<H: AccessHost>(&mut self, h: &mut H, t: AccessTimer) {
        let pending = match t {
            AccessTimer::Ifs => &mut self.ifs_pending,
            AccessTimer::Nav => &mut self.nav_pending,
            AccessTimer::Backoff => &mut self.backoff_pending,
        };
        if *pending {
            *pending = false;
            h.stop(t);
        }
    }

    /// The radio senses the medium busy.
    pub fn busy<H: AccessHost>(&mut self, h: &mut H) -> Result<(), String> {
        match self.channel {
            Channel::Free => {
                self.pause(h)?;
                self.channel = Channel::Sensed;
            }
            Channel::Nav => self.channel = Channel::SensedNav,
            Channel::Waiting => {
                self.stop(h, AccessTimer::Ifs);
                self.channel = Channel::Sensed;
            }
            Channel::Sensed | Channel::SensedNav => {}
        }
        Ok(())
    }

    /// The radio senses the medium idle.
    pub fn idle<H: AccessHost>(&mut self, h: &mut H) {
        match self.channel {
            Channel::Sensed => {
                let ifs = self.ifs;
                self.start(h, AccessTimer::Ifs, ifs);
                self.channel = Channel::Waiting;
            }
            Channel::SensedNav => self.channel = Channel::Nav,
            _ => {}
        }
    }

    /// A frame's duration sets the NAV `t` seconds from now (only
    /// lengthened once set).
    pub fn set_nav<H: AccessHost>(&mut self, h: &mut H, t: f64) -> Result<(), String> {
        match self.channel {
            Channel::Free => {
                self.start(h, AccessTimer::Nav, t);
                self.pause(h)?;
                self.channel = Channel::Nav;
            }
            Channel::Sensed => {
                self.start(h, AccessTimer::Nav, t);
                self.channel = Channel::SensedNav;
            }
            Channel::Nav | Channel::SensedNav => {
                if t > self.nav_end - h.now() {
                    self.stop(h, AccessTimer::Nav);
                    self.start(h, AccessTimer::Nav, t);
                }
            }
            Channel::Waiting => {
                self.start(h, AccessTimer::Nav, t);
                self.stop(h, AccessTimer::Ifs);
                self.channel = Channel::Nav;
            }
        }
        Ok(())
    }

    /// Start a backoff of a window of `cw` (a draw in 0..=cw slots): at
    /// once when the channel is free, paused until it frees otherwise; a
    /// backoff under way is left alone.
    pub fn start_backoff<H: AccessHost>(&mut self, h: &mut H, cw: i32) {
        if self.backoff != Backoff::None {
            return;
        }
        self.slots = h.integer(cw + 1);
        self.counting_since = -1.0;
        if self.channel == Channel::Free {
            if self.slots == 0 {
                h.backoff_done();
            } else {
                self.backoff = Backoff::Running;
                self.run(h);
            }
        } else {
            self.backoff = Backoff::Paused;
        }
    }

    /// Count the slots left (a count of none ends the backoff at once).
    fn run<H: AccessHost>(&mut self, h: &mut H) {
        if self.slots == 0 {
            self.slots = -1;
            self.backoff = Backoff::None;
            h.backoff_done();
        } else {
            self.counting_since = h.now();
            let d = self.slots as f64 * self.slot;
            self.start(h, AccessTimer::Backoff, d);
        }
    }

    /// The channel turned busy: a running backoff keeps the whole slots
    /// it has left.
    fn pause<H: AccessHost>(&mut self, h: &mut H) -> Result<(), String> {
        if self.backoff != Backoff::Running {
            return Ok(());
        }
        if self.counting_since == -1.0 {
            return Err("Mac/802_11Ext: a backoff paused that was not counting (ns-2: logic error at BackoffTimer_t, event pause)".into());
        }
        self.backoff = Backoff::Paused;
        self.slots -= ((h.now() - self.counting_since) / self.slot).floor() as i32;
        self.stop(h, AccessTimer::Backoff);
        self.counting_since = -1.0;
        Ok(())
    }

    /// One of the managers' timers fired.
    pub fn timeout<H: AccessHost>(&mut self, h: &mut H, t: AccessTimer) -> Result<(), String> {
        match t {
            AccessTimer::Ifs => {
                self.ifs_pending = false;
                if self.channel != Channel::Waiting {
                    return Err(format!("Mac/802_11Ext: the interframe wait ended with the channel {:?} (ns-2: logic error at ChannelStateMgr)", self.channel));
                }
                self.channel = Channel::Free;
                match self.backoff {
                    Backoff::Paused => {
                        self.backoff = Backoff::Running;
                        self.run(h);
                    }
                    Backoff::None => {}
                    Backoff::Running => return Err("Mac/802_11Ext: the channel freed during a running backoff (ns-2: logic error at BackoffMgr)".into()),
                }
            }
            AccessTimer::Nav => {
                self.nav_pending = false;
                match self.channel {
                    Channel::Nav => {
                        let ifs = self.ifs;
                        self.start(h, AccessTimer::Ifs, ifs);
                        self.channel = Channel::Waiting;
                    }
                    Channel::SensedNav => self.channel = Channel::Sensed,
                    c => return Err(format!("Mac/802_11Ext: the NAV ended with the channel {c:?} (ns-2: logic error at ChannelStateMgr)")),
                }
            }
            AccessTimer::Backoff => {
                self.backoff_pending = false;
                self.slots = -1;
                if self.backoff != Backoff::Running {
                    return Err("Mac/802_11Ext: a backoff ended that was not running (ns-2: logic error at BackoffMgr)".into());
                }
                self.backoff = Backoff::None;
                h.backoff_done();
            }
        }
        Ok(())
    }
}

/// The longest propagation delay the MAC's time-outs allow for
/// (mac-802_11Ext.h's `DSSS_MaxPropagationDelay`, 10 us).
pub const MAX_PROPAGATION_DELAY: f64 = 0.000010;

/// The MAC's timers: the access managers', the transmission
/// coordinator's (CTS and ACK time-outs, the SIFS before the data that
/// follows a CTS), the reception coordinator's SIFS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtTimer {
    Access(AccessTimer),
    Cts,
    TxSifs,
    Ack,
    RxSifs,
}

impl ExtTimer {
    /// The timer's place among the MAC's seven.
    pub fn index(self) -> usize {
        match self {
            ExtTimer::Access(AccessTimer::Ifs) => 0,
            ExtTimer::Access(AccessTimer::Nav) => 1,
            ExtTimer::Access(AccessTimer::Backoff) => 2,
            ExtTimer::Cts => 3,
            ExtTimer::TxSifs => 4,
            ExtTimer::Ack => 5,
            ExtTimer::RxSifs => 6,
        }
    }

    pub fn of(i: usize) -> ExtTimer {
        [
            ExtTimer::Access(AccessTimer::Ifs),
            ExtTimer::Access(AccessTimer::Nav),
            ExtTimer::Access(AccessTimer::Backoff),
            ExtTimer::Cts,
            ExtTimer::TxSifs,
            ExtTimer::Ack,
            ExtTimer::RxSifs,
        ][i]
    }
}

/// The transmission coordinator's states (ns-2's `TXCState`, in its
/// order: the number is what ns-2 prints beside a logic error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Txc {
    Idle,
    WaitRtsSent,
    WaitPduSent,
    RtsPending,
    DataPending,
    WaitCts,
    WaitSifs,
    WaitAck,
}

/// The reception coordinator's states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rxc {
    Idle,
    WaitSifs,
    WaitSent,
}

/// What the MAC needs of its node.
pub trait Host<P> {
    fn now(&self) -> f64;
    /// `Random::integer(k)`: a draw in 0..k from the default stream.
    fn integer(&mut self, k: i32) -> i32;
    /// (Re)start or stop one of the MAC's timers.
    fn start(&mut self, t: ExtTimer, delay: f64);
    fn stop(&mut self, t: ExtTimer);
    /// A copy of `f` goes to the radio (the MAC's send trace first); the
    /// MAC keeps `f`.
    fn transmit(&mut self, f: &Frame<P>);
    /// A data frame received for this node (its size cut to the
    /// payload's): the MAC's receive trace, then the link layer.
    fn up(&mut self, f: Frame<P>);
    /// A control frame received: the MAC's receive trace (its log).
    fn log(&mut self, f: Frame<P>);
    /// A frame dropped (its drop trace), or let go untraced.
    fn drop(&mut self, f: Frame<P>, why: Why);
    fn free(&mut self, f: Frame<P>);
    /// The failure call-back of the packet a data frame carries, if it
    /// has one (it gets a copy).
    fn has_failure_callback(&self, f: &Frame<P>) -> bool;
    fn failed(&mut self, f: &Frame<P>);
    /// The interface queue's next packet, if any (the MAC's call-back).
    fn resume(&mut self) -> Option<Outgoing<P>>;
    /// A data frame received whole, for the tap (DSR's promiscuous mode).
    fn tap(&mut self, f: &Frame<P>) {
        let _ = f;
    }
    /// The modulation a packet asks for (its common header's).
    fn modulation(&self, p: P) -> u8;
    /// What ns-2 prints on stdout where its state machine finds a logic
    /// error it goes on from.
    fn complain(&mut self, text: &str);
}

/// The access managers' view of the MAC's host: their timers and draws
/// go to it; the end of a backoff is noted, for the MAC to act on once
/// the managers are done (they always end with it).
struct Managed<'a, P, H> {
    h: &'a mut H,
    done: bool,
    packet: std::marker::PhantomData<P>,
}

impl<P, H: Host<P>> AccessHost for Managed<'_, P, H> {
    fn now(&self) -> f64 {
        self.h.now()
    }
    fn start(&mut self, t: AccessTimer, delay: f64) {
        self.h.start(ExtTimer::Access(t), delay)
    }
    fn stop(&mut self, t: AccessTimer) {
        self.h.stop(ExtTimer::Access(t))
    }
    fn integer(&mut self, k: i32) -> i32 {
        self.h.integer(k)
    }
    fn backoff_done(&mut self) {
        self.done = true;
    }
}

/// `Mac/802_11Ext`'s parameters beside the timing (its MAC MIB).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub cw_min: u32,
    pub cw_max: u32,
    pub rts_threshold: u32,
    pub short_retry_limit: u32,
    pub long_retry_limit: u32,
}

impl Default for Params {
    /// ns-default.tcl's.
    fn default() -> Params {
        Params { cw_min: 15, cw_max: 1023, rts_threshold: 3000, short_retry_limit: 7, long_retry_limit: 4 }
    }
}

/// One node's `Mac/802_11Ext`.
#[derive(Clone, Debug)]
pub struct MacExt<P> {
    pub timing: Timing,
    pub params: Params,
    pub access: Access,
    pub addr: u32,
    cw: u32,
    /// The next data frame's sequence number.
    seqno: u16,
    /// The last sequence number heard from each sender (0: none), one
    /// place per GOD node.
    cache: Vec<u16>,
    pub txc: Txc,
    rts: Option<Frame<P>>,
    data: Option<Frame<P>>,
    short_retries: u32,
    long_retries: u32,
    pub rxc: Rxc,
    ctrl: Option<Frame<P>>,
    /// Whose transmission is on the air (the confirmation goes to it).
    rxc_sending: bool,
}

impl<P: Copy> MacExt<P> {
    /// A MAC with address `addr` and a duplicate memory for `nodes`
    /// senders (`$mac nodes [$god num_nodes]`).
    pub fn new(timing: Timing, params: Params, addr: u32, nodes: u32) -> MacExt<P> {
        MacExt {
            access: Access::new(&timing),
            timing,
            params,
            addr,
            cw: params.cw_min,
            seqno: 1,
            cache: vec![0; nodes as usize],
            txc: Txc::Idle,
            rts: None,
            data: None,
            short_retries: 0,
            long_retries: 0,
            rxc: Rxc::Idle,
            ctrl: None,
            rxc_sending: false,
        }
    }

    fn inc_cw(&mut self) {
        self.cw = (self.cw << 1) + 1;
        if self.cw > self.params.cw_max {
            self.cw = self.params.cw_max;
        }
    }

    /// Run an access manager's step, then the end of a backoff it
    /// signalled.
    fn managed<H: Host<P>>(&mut self, h: &mut H, f: impl FnOnce(&mut Access, &mut Managed<'_, P, H>) -> Result<(), String>) -> Result<(), String> {
        let mut m = Managed { h: &mut *h, done: false, packet: std::marker::PhantomData };
        f(&mut self.access, &mut m)?;
        if m.done {
            self.backoff_done(h);
        }
        Ok(())
    }

    fn start_backoff<H: Host<P>>(&mut self, h: &mut H) {
        let cw = self.cw as i32;
        let _ = self.managed(h, |a, m| {
            a.start_backoff(m, cw);
            Ok(())
        });
    }

    fn send<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>, rxc: bool) {
        self.rxc_sending = rxc;
        h.transmit(&f);
    }

    /// A packet from the interface queue (`TXC::handleMsgFromUp`): made
    /// a data frame, with an RTS before it when it is a unicast above
    /// the threshold; sent at once on a free channel with no backoff, else
    /// after one.
    pub fn send_down<H: Host<P>>(&mut self, h: &mut H, o: Outgoing<P>) {
        let size = o.size + DATA_HDR_LEN;
        let m = h.modulation(o.payload);
        let broadcast = o.ra == BROADCAST;
        let seq = self.seqno;
        self.seqno = self.seqno.wrapping_add(1);
        let data = Frame {
            kind: Kind::Data,
            ra: o.ra,
            ta: o.ta,
            duration: self.timing.data_duration(broadcast),
            size,
            txtime: self.timing.txtime(size, m),
            retry: false,
            seq,
            error: false,
            rx_power: 0.0,
            payload: Some(o.payload),
        };
        self.data = Some(data);
        if !broadcast && size > self.params.rts_threshold {
            self.make_rts();
        }
        if self.access.backoff == Backoff::None {
            if self.access.channel == Channel::Free {
                self.send_first(h);
            } else {
                self.txc = if self.rts.is_some() { Txc::RtsPending } else { Txc::DataPending };
                self.start_backoff(h);
            }
        } else {
            self.txc = if self.rts.is_some() { Txc::RtsPending } else { Txc::DataPending };
        }
    }

    /// Send the RTS if there is one, else the data.
    fn send_first<H: Host<P>>(&mut self, h: &mut H) {
        if let Some(r) = self.rts {
            self.send(h, r, false);
            self.txc = Txc::WaitRtsSent;
        } else {
            let d = self.data.expect("a data frame to send");
            self.send(h, d, false);
            self.txc = Txc::WaitPduSent;
        }
    }

    fn make_rts(&mut self) {
        let d = self.data.expect("a data frame for the RTS");
        let t = &self.timing;
        self.rts = Some(Frame {
            kind: Kind::Rts,
            ra: d.ra,
            ta: self.addr,
            duration: t.rts_duration(d.txtime),
            size: RTS_LEN,
            txtime: t.rts_txtime(),
            retry: false,
            seq: 0,
            error: false,
            rx_power: 0.0,
            payload: None,
        });
    }

    fn control(&self, kind: Kind, ra: u32, duration: u16) -> Frame<P> {
        let size = if kind == Kind::Cts { CTS_LEN } else { ACK_LEN };
        Frame { kind, ra, ta: 0, duration, size, txtime: self.timing.txtime(size, self.timing.basic), retry: false, seq: 0, error: false, rx_power: 0.0, payload: None }
    }

    /// The backoff is over (`TXC::handleBKDone`).
    fn backoff_done<H: Host<P>>(&mut self, h: &mut H) {
        match self.txc {
            Txc::RtsPending => {
                let r = self.rts.expect("an RTS pending");
                self.send(h, r, false);
                self.txc = Txc::WaitRtsSent;
            }
            Txc::DataPending => {
                let d = self.data.expect("a data frame pending");
                self.send(h, d, false);
                self.txc = Txc::WaitPduSent;
            }
            Txc::Idle | Txc::WaitCts | Txc::WaitAck => {}
            s => h.complain(&format!("{}\nlogic error at TXC handling BKDone\n", s as u8)),
        }
    }

    /// The interface queue's next packet, if any (`TXC::checkQueue`).
    fn check_queue<H: Host<P>>(&mut self, h: &mut H) {
        self.txc = Txc::Idle;
        if let Some(o) = h.resume() {
            self.send_down(h, o);
        }
    }

    /// ns-2's `discard`: a frame this node sent or that was for it is
    /// dropped (traced); any other is let go.
    fn discard<H: Host<P>>(&self, h: &mut H, f: Frame<P>, why: Why) {
        let ours = match f.kind {
            Kind::Rts => f.ta == self.addr || f.ra == self.addr,
            Kind::Cts | Kind::Ack => f.ra == self.addr,
            Kind::Data => f.ra == self.addr || f.ta == self.addr || f.ra == BROADCAST,
            // (802.11's infrastructure frames, heard from a Mac/802_11
            // sharing the channel: this MAC has no management frames)
            Kind::Beacon | Kind::ProbeReq | Kind::ProbeRep | Kind::Auth | Kind::AssocReq | Kind::AssocRep => false,
        };
        if ours {
            h.drop(f, why)
        } else {
            h.free(f)
        }
    }

    /// The radio's transmission is over (`handleTXEndIndication`).
    pub fn tx_end<H: Host<P>>(&mut self, h: &mut H) {
        if self.rxc_sending {
            // (`RXC::handleTXConfirm`)
            self.ctrl = None;
            self.rxc = Rxc::Idle;
            return;
        }
        let t = self.timing;
        match self.txc {
            Txc::WaitPduSent => {
                let d = self.data.expect("a data frame sent");
                if d.ra != BROADCAST {
                    h.start(ExtTimer::Ack, self.params_sifs() + t.txtime(ACK_LEN, t.basic) + MAX_PROPAGATION_DELAY);
                    self.txc = Txc::WaitAck;
                } else {
                    self.data = None;
                    h.free(d);
                    self.start_backoff(h);
                    self.check_queue(h);
                }
            }
            Txc::WaitRtsSent => {
                h.start(ExtTimer::Cts, self.params_sifs() + t.txtime(CTS_LEN, t.basic) + MAX_PROPAGATION_DELAY);
                self.txc = Txc::WaitCts;
            }
            _ => h.complain("logic error at TXC handling txconfirm\n"),
        }
    }

    fn params_sifs(&self) -> f64 {
        self.timing.sifs
    }

    /// A frame given up after its retries: the RET drop, the call-back
    /// first; the counters and the window back to the start, a backoff,
    /// the next packet.
    fn give_up<H: Host<P>>(&mut self, h: &mut H) {
        let d = self.data.take().expect("a data frame to give up");
        if h.has_failure_callback(&d) {
            h.failed(&d);
        }
        self.discard(h, d, Why::RetryExceeded);
        self.short_retries = 0;
        self.long_retries = 0;
        self.cw = self.params.cw_min;
        self.start_backoff(h);
        self.check_queue(h);
    }

    /// One of the MAC's timers fired.
    pub fn expired<H: Host<P>>(&mut self, h: &mut H, t: ExtTimer) -> Result<(), String> {
        match t {
            ExtTimer::Access(a) => return self.managed(h, |acc, m| acc.timeout(m, a)),
            ExtTimer::Cts => {
                if self.txc != Txc::WaitCts {
                    h.complain("logic error at TXC handleTCTS timeout\n");
                    return Ok(());
                }
                self.short_retries += 1;
                self.inc_cw();
                if self.short_retries >= self.params.short_retry_limit {
                    let r = self.rts.take().expect("an RTS sent");
                    self.discard(h, r, Why::RetryExceeded);
                    self.give_up(h);
                } else {
                    self.txc = Txc::RtsPending;
                    self.start_backoff(h);
                }
            }
            ExtTimer::TxSifs => {
                if self.txc != Txc::WaitSifs {
                    h.complain("logic error at TXC handling SIFS timeout\n");
                    return Ok(());
                }
                let d = self.data.expect("a data frame after the CTS");
                self.send(h, d, false);
                self.txc = Txc::WaitPduSent;
            }
            ExtTimer::Ack => {
                if self.txc != Txc::WaitAck {
                    h.complain("logic error at TXC handling TACK timeout\n");
                    return Ok(());
                }
                let d = self.data.expect("a data frame sent");
                let long = d.size > self.params.rts_threshold;
                let (count, limit) = if long {
                    self.long_retries += 1;
                    (self.long_retries, self.params.long_retry_limit)
                } else {
                    self.short_retries += 1;
                    (self.short_retries, self.params.short_retry_limit)
                };
                self.inc_cw();
                if count >= limit {
                    self.give_up(h);
                } else {
                    if d.ra != BROADCAST && long {
                        self.make_rts();
                        self.txc = Txc::RtsPending;
                    } else {
                        self.txc = Txc::DataPending;
                    }
                    self.start_backoff(h);
                }
            }
            ExtTimer::RxSifs => {
                if let Some(c) = self.ctrl {
                    self.send(h, c, true);
                }
                self.rxc = Rxc::WaitSent;
            }
        }
        Ok(())
    }

    /// The radio senses the medium busy or idle.
    pub fn busy<H: Host<P>>(&mut self, h: &mut H) -> Result<(), String> {
        self.managed(h, |a, m| a.busy(m))
    }

    pub fn idle<H: Host<P>>(&mut self, h: &mut H) -> Result<(), String> {
        self.managed(h, |a, m| {
            a.idle(m);
            Ok(())
        })
    }

    /// The radio's reception is over (`handleRXEndIndication`): `None`
    /// for a frame in error (EIFS from now on), else the frame (DIFS),
    /// handled when it is for this node, else its duration sets the NAV.
    pub fn rx_end<H: Host<P>>(&mut self, h: &mut H, f: Option<Frame<P>>) -> Result<(), String> {
        let difs = self.timing.difs();
        let Some(f) = f else {
            let eifs = self.timing.eifs();
            return self.managed(h, |a, m| {
                a.set_ifs(m, eifs);
                Ok(())
            });
        };
        self.managed(h, |a, m| {
            a.set_ifs(m, difs);
            Ok(())
        })?;
        if f.kind == Kind::Data {
            h.tap(&f);
        }
        if f.ra == self.addr || f.ra == BROADCAST {
            self.from_below(h, f);
            Ok(())
        } else {
            let nav = sec(f.duration as f64);
            self.managed(h, |a, m| a.set_nav(m, nav))?;
            self.discard(h, f, Why::NotForUs);
            Ok(())
        }
    }

    /// `RXC::handleMsgFromBelow`.
    fn from_below<H: Host<P>>(&mut self, h: &mut H, f: Frame<P>) {
        match f.kind {
            Kind::Ack => {
                if self.txc == Txc::WaitAck {
                    h.stop(ExtTimer::Ack);
                    self.short_retries = 0;
                    self.long_retries = 0;
                    if let Some(d) = self.data.take() {
                        h.free(d);
                    }
                    self.cw = self.params.cw_min;
                    self.start_backoff(h);
                    self.check_queue(h);
                } else {
                    h.complain(&format!("logic error at TXC handling ACKIndication\n{}\n", self.txc as u8));
                }
                h.log(f);
                self.rxc = Rxc::Idle;
            }
            Kind::Rts => {
                if matches!(self.access.channel, Channel::SensedNav | Channel::Nav) {
                    self.rxc = Rxc::Idle;
                    h.log(f);
                } else {
                    let d = self.timing.cts_duration(f.duration);
                    self.ctrl = Some(self.control(Kind::Cts, f.ta, d));
                    h.log(f);
                    h.start(ExtTimer::RxSifs, self.timing.sifs);
                    self.rxc = Rxc::WaitSifs;
                }
            }
            Kind::Cts => {
                if self.txc == Txc::WaitCts {
                    self.rts = None;
                    h.stop(ExtTimer::Cts);
                    self.short_retries = 0;
                    self.txc = Txc::WaitSifs;
                    h.start(ExtTimer::TxSifs, self.timing.sifs);
                } else {
                    h.complain(&format!("txc_state_{}\nlogic error at TXC handling CTS indication\n", self.txc as u8));
                }
                h.log(f);
                self.rxc = Rxc::Idle;
            }
            Kind::Data => {
                if f.ra == self.addr {
                    self.ctrl = Some(self.control(Kind::Ack, f.ta, 0));
                    h.start(ExtTimer::RxSifs, self.timing.sifs);
                    self.recv_data(h, f);
                    self.rxc = Rxc::WaitSifs;
                } else {
                    self.recv_data(h, f);
                    self.rxc = Rxc::Idle;
                }
            }
            // a Mac/802_11's management frame on a shared channel: not
            // this MAC's kind of frame
            Kind::Beacon | Kind::ProbeReq | Kind::ProbeRep | Kind::Auth | Kind::AssocReq | Kind::AssocRep => {
                h.free(f);
                self.rxc = Rxc::Idle;
            }
        }
    }

    /// `recvDATA`: the size cut to the payload's; a unicast repeating the
    /// sender's last sequence number is a duplicate (`DUP`); the rest go
    /// up.
    fn recv_data<H: Host<P>>(&mut self, h: &mut H, mut f: Frame<P>) {
        f.size -= DATA_HDR_LEN;
        if f.ra != BROADCAST {
            if let Some(last) = self.cache.get_mut(f.ta as usize) {
                if *last != 0 && *last == f.seq {
                    return self.discard(h, f, Why::Duplicate);
                }
                *last = f.seq;
            }
        }
        h.up(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The suite wireless-lan-newnode-80211Ext's unicast test, as ns-2's
    // reference trace shows it (nodes 10 m apart: 33 ns of propagation):
    // a 1000-byte broadcast sent at 0.010025 is received at 0.011421033,
    // an ACK sent at 1.011437033 at 1.011481067, an RTS sent at 3.020025
    // at 3.020077033, a 2500-byte data frame sent at 3.020153067 at
    // 3.023549100; durations [3c ...], RTS [dcc ...], CTS [d90 ...].
    #[test]
    fn air_times_and_durations_are_the_suites() {
        let t = Timing::default();
        let us = |s: f64| (s * 1e6 * 1000.0).round() / 1000.0;
        assert_eq!(us(t.data_txtime(1000, 0)), 1396.0);
        assert_eq!(us(t.txtime(ACK_LEN, 0)), 44.0);
        assert_eq!(us(t.rts_txtime()), 52.0);
        assert_eq!(us(t.txtime(CTS_LEN, 0)), 44.0);
        assert_eq!(us(t.data_txtime(2500, 0)), 3396.0);
        assert_eq!(t.data_duration(false), 0x3c);
        assert_eq!(t.data_duration(true), 0);
        let rts = t.rts_duration(t.data_txtime(2500, 0));
        assert_eq!(rts, 0xdcc);
        assert_eq!(t.cts_duration(rts), 0xd90);
        // (the reference's gaps: 0.011421033 - 0.010025 - 33 ns)
        assert_eq!(us(0.011421033 - 0.010025 - 33e-9), 1396.0);
    }

    #[test]
    fn faster_modulations_pack_more_bits_per_symbol() {
        let t = Timing::default();
        // 1028 bytes = 8224 bits + 22: 344 symbols at BPSK, 172 at QPSK
        // (8246 / 48 = 171.8), 86 at QAM16, 43 at QAM64
        for (m, symbols) in [(0u8, 344.0), (1, 172.0), (2, 86.0), (3, 43.0)] {
            assert!((t.data_txtime(1000, m) - (20e-6 + symbols * 4e-6)).abs() < 1e-12, "{m}");
        }
        // without 802.11a's 22 bits, 8224 / 24 = 342.67: 343 symbols
        let plain = Timing { ofdm_bits: false, ..t };
        assert!((plain.data_txtime(1000, 0) - (20e-6 + 343.0 * 4e-6)).abs() < 1e-12);
        // interframe spaces: DIFS 34 us, PIFS 25, EIFS 16 + 34 + 44 = 94
        assert!((t.difs() - 34e-6).abs() < 1e-12);
        assert!((t.pifs() - 25e-6).abs() < 1e-12);
        assert!((t.eifs() - 94e-6).abs() < 1e-12);
    }

    /// A MAC that logs what the managers ask, with scripted draws.
    #[derive(Default)]
    struct Mac {
        now: f64,
        draws: Vec<i32>,
        log: Vec<String>,
    }

    impl AccessHost for Mac {
        fn now(&self) -> f64 {
            self.now
        }
        fn start(&mut self, t: AccessTimer, delay: f64) {
            self.log.push(format!("start {t:?} {}us", (delay * 1e6).round()));
        }
        fn stop(&mut self, t: AccessTimer) {
            self.log.push(format!("stop {t:?}"));
        }
        fn integer(&mut self, k: i32) -> i32 {
            self.log.push(format!("draw {k}"));
            self.draws.remove(0)
        }
        fn backoff_done(&mut self) {
            self.log.push("done".into());
        }
    }

    fn log(m: &mut Mac) -> Vec<String> {
        std::mem::take(&mut m.log)
    }

    #[test]
    fn a_backoff_counts_slots_and_keeps_the_whole_ones_left_when_paused() {
        let t = Timing::default();
        let mut a = Access::new(&t);
        let mut m = Mac { draws: vec![3, 0], ..Mac::default() };
        // a free channel: 3 of 0..=15 slots, counted at once (27 us)
        a.start_backoff(&mut m, 15);
        assert_eq!(log(&mut m), ["draw 16", "start Backoff 27us"]);
        // busy 10 us in: one whole slot gone, two left, the timer stopped
        m.now = 10e-6;
        a.busy(&mut m).unwrap();
        assert_eq!((a.channel, a.backoff, a.slots()), (Channel::Sensed, Backoff::Paused, 2));
        assert_eq!(log(&mut m), ["stop Backoff"]);
        // a second backoff asked meanwhile is ignored
        a.start_backoff(&mut m, 31);
        assert!(log(&mut m).is_empty());
        // idle: EIFS first (94 us), then the two slots
        m.now = 100e-6;
        a.idle(&mut m);
        assert_eq!(log(&mut m), ["start Ifs 94us"]);
        m.now = 194e-6;
        a.timeout(&mut m, AccessTimer::Ifs).unwrap();
        assert_eq!(log(&mut m), ["start Backoff 18us"]);
        m.now = 212e-6;
        a.timeout(&mut m, AccessTimer::Backoff).unwrap();
        assert_eq!(log(&mut m), ["done"]);
        assert_eq!((a.channel, a.backoff, a.slots()), (Channel::Free, Backoff::None, -1));
        // a draw of 0 on a free channel: done at once
        a.start_backoff(&mut m, 15);
        assert_eq!(log(&mut m), ["draw 16", "done"]);
    }

    #[test]
    fn the_nav_and_the_interframe_space_hold_the_channel() {
        let t = Timing::default();
        let mut a = Access::new(&t);
        let mut m = Mac { draws: vec![5], ..Mac::default() };
        // a NAV on a free channel; a backoff then waits, paused
        a.set_nav(&mut m, 100e-6).unwrap();
        a.start_backoff(&mut m, 7);
        assert_eq!(log(&mut m), ["start Nav 100us", "draw 8"]);
        assert_eq!((a.channel, a.backoff), (Channel::Nav, Backoff::Paused));
        // a shorter NAV leaves it, a longer one restarts it
        m.now = 20e-6;
        a.set_nav(&mut m, 50e-6).unwrap();
        assert!(log(&mut m).is_empty());
        a.set_nav(&mut m, 90e-6).unwrap();
        assert_eq!(log(&mut m), ["stop Nav", "start Nav 90us"]);
        // sensed busy under the NAV, idle again: still the NAV
        a.busy(&mut m).unwrap();
        assert_eq!(a.channel, Channel::SensedNav);
        a.idle(&mut m);
        assert_eq!(a.channel, Channel::Nav);
        // the NAV ends: the interframe wait, set to DIFS meanwhile
        a.set_ifs(&mut m, t.difs());
        m.now = 110e-6;
        a.timeout(&mut m, AccessTimer::Nav).unwrap();
        assert_eq!(log(&mut m), ["start Ifs 34us"]);
        // a new space while waiting restarts the wait with it
        a.set_ifs(&mut m, t.eifs());
        assert_eq!(log(&mut m), ["stop Ifs", "start Ifs 94us"]);
        // busy while waiting: the wait is dropped
        a.busy(&mut m).unwrap();
        assert_eq!(log(&mut m), ["stop Ifs"]);
        assert_eq!(a.channel, Channel::Sensed);
        a.idle(&mut m);
        m.now = 300e-6;
        log(&mut m);
        a.timeout(&mut m, AccessTimer::Ifs).unwrap();
        assert_eq!(log(&mut m), ["start Backoff 45us"]);
        // a NAV while waiting cancels the wait
        let mut b = Access::new(&t);
        b.busy(&mut m).unwrap();
        b.idle(&mut m);
        log(&mut m);
        b.set_nav(&mut m, 10e-6).unwrap();
        assert_eq!(log(&mut m), ["start Nav 10us", "stop Ifs"]);
        assert_eq!(b.channel, Channel::Nav);
        // what ns-2 calls a logic error is an error
        assert!(b.timeout(&mut m, AccessTimer::Ifs).is_err());
        assert!(b.timeout(&mut m, AccessTimer::Backoff).is_err());
    }

    /// A node for the whole MAC: its timers, what it sends and passes up,
    /// its queue (packets numbered), scripted draws.
    #[derive(Default)]
    struct Node {
        now: f64,
        draws: Vec<i32>,
        log: Vec<String>,
        queue: Vec<Outgoing<u32>>,
        callback: bool,
    }

    impl Host<u32> for Node {
        fn now(&self) -> f64 {
            self.now
        }
        fn integer(&mut self, k: i32) -> i32 {
            self.log.push(format!("draw {k}"));
            self.draws.remove(0)
        }
        fn start(&mut self, t: ExtTimer, delay: f64) {
            self.log.push(format!("start {t:?} {}us", (delay * 1e6).round()));
        }
        fn stop(&mut self, t: ExtTimer) {
            self.log.push(format!("stop {t:?}"));
        }
        fn transmit(&mut self, f: &Frame<u32>) {
            self.log.push(format!("send {:?} {:x} {} {} {}", f.kind, f.duration, f.ra, f.size, (f.txtime * 1e6).round()));
        }
        fn up(&mut self, f: Frame<u32>) {
            self.log.push(format!("up {} {}", f.payload.unwrap(), f.size));
        }
        fn log(&mut self, f: Frame<u32>) {
            self.log.push(format!("log {:?}", f.kind));
        }
        fn drop(&mut self, f: Frame<u32>, why: Why) {
            self.log.push(format!("drop {:?} {why:?}", f.kind));
        }
        fn free(&mut self, f: Frame<u32>) {
            self.log.push(format!("free {:?}", f.kind));
        }
        fn has_failure_callback(&self, _: &Frame<u32>) -> bool {
            self.callback
        }
        fn failed(&mut self, f: &Frame<u32>) {
            self.log.push(format!("failed {}", f.payload.unwrap()));
        }
        fn resume(&mut self) -> Option<Outgoing<u32>> {
            self.log.push("resume".into());
            if self.queue.is_empty() { None } else { Some(self.queue.remove(0)) }
        }
        fn modulation(&self, _: u32) -> u8 {
            0
        }
        fn complain(&mut self, text: &str) {
            self.log.push(format!("complain {}", text.trim()));
        }
    }

    fn take(n: &mut Node) -> Vec<String> {
        std::mem::take(&mut n.log)
    }

    fn mac() -> MacExt<u32> {
        let p = Params { rts_threshold: 2000, ..Params::default() };
        MacExt::new(Timing::default(), p, 1, 3)
    }

    fn packet(id: u32, to: u32, size: u32) -> Outgoing<u32> {
        Outgoing { payload: id, size, ra: to, ta: 1 }
    }

    // As the suite's unicast test: a 1000-byte unicast on a free channel
    // goes at once (1,396 us, duration 3c); its end starts the ACK
    // time-out (16 + 44 + 10 us); the ACK ends it, resets the window,
    // starts the post-transmission backoff and takes the next packet.
    #[test]
    fn a_unicast_goes_at_once_and_its_ack_ends_it() {
        let mut m = mac();
        let mut n = Node { draws: vec![4], ..Node::default() };
        m.send_down(&mut n, packet(7, 2, 1000));
        assert_eq!(take(&mut n), ["send Data 3c 2 1028 1396"]);
        assert_eq!(m.txc, Txc::WaitPduSent);
        m.busy(&mut n).unwrap();
        m.tx_end(&mut n);
        assert_eq!(take(&mut n), ["start Ack 70us"]);
        m.idle(&mut n).unwrap();
        assert_eq!(take(&mut n), ["start Access(Ifs) 94us"]);
        let ack = m.control(Kind::Ack, 1, 0);
        m.rx_end(&mut n, Some(ack)).unwrap();
        // (DIFS from now on: the wait under way restarts with it)
        assert_eq!(take(&mut n), ["stop Access(Ifs)", "start Access(Ifs) 34us", "stop Ack", "free Data", "draw 16", "resume", "log Ack"]);
        assert_eq!((m.txc, m.access.backoff, m.access.slots()), (Txc::Idle, Backoff::Paused, 4));
    }

    // Seven unanswered tries of a frame up to the RTS threshold (the
    // short limit), each doubling the window; then the call-back, the RET
    // drop, the window back to 15.
    #[test]
    fn an_unanswered_frame_is_given_up_after_its_retries() {
        let mut m = mac();
        let mut n = Node { draws: vec![0; 8], callback: true, ..Node::default() };
        m.send_down(&mut n, packet(3, 9, 1000));
        take(&mut n);
        let mut windows = Vec::new();
        for _ in 0..6 {
            m.tx_end(&mut n);
            m.expired(&mut n, ExtTimer::Ack).unwrap();
            windows.push(m.cw);
            // (a draw of 0 on a free channel: sent again at once)
            let l = take(&mut n);
            assert_eq!(l[0], "start Ack 70us");
            assert!(l.iter().any(|e| e.starts_with("send Data")), "{l:?}");
        }
        assert_eq!(windows, [31, 63, 127, 255, 511, 1023]);
        m.tx_end(&mut n);
        m.expired(&mut n, ExtTimer::Ack).unwrap();
        assert_eq!(take(&mut n), ["start Ack 70us", "failed 3", "drop Data RetryExceeded", "draw 16", "resume"]);
        assert_eq!((m.cw, m.txc), (15, Txc::Idle));
    }

    // A unicast above the threshold goes after an RTS; the CTS, a SIFS,
    // the data.  On the other side: the RTS answered by a CTS after a
    // SIFS (its duration the RTS's less the SIFS and the CTS), the data
    // passed up with an ACK after a SIFS, a repeat of it dropped (DUP).
    #[test]
    fn rts_cts_data_ack_and_a_duplicate() {
        let mut m = mac();
        let mut n = Node::default();
        m.send_down(&mut n, packet(5, 2, 2500));
        assert_eq!(take(&mut n), ["send Rts dcc 2 20 52"]);
        m.tx_end(&mut n);
        assert_eq!(take(&mut n), ["start Cts 70us"]);
        let cts = m.control(Kind::Cts, 1, 0xd90);
        m.rx_end(&mut n, Some(cts)).unwrap();
        assert_eq!(take(&mut n), ["stop Cts", "start TxSifs 16us", "log Cts"]);
        m.expired(&mut n, ExtTimer::TxSifs).unwrap();
        assert_eq!(take(&mut n), ["send Data 3c 2 2528 3396"]);

        let mut r = MacExt::<u32>::new(Timing::default(), Params::default(), 2, 3);
        let mut rn = Node::default();
        let rts = Frame { kind: Kind::Rts, ra: 2, ta: 1, duration: 0xdcc, size: 20, txtime: 52e-6, retry: false, seq: 0, error: false, rx_power: 0.0, payload: None };
        r.rx_end(&mut rn, Some(rts)).unwrap();
        assert_eq!(take(&mut rn), ["log Rts", "start RxSifs 16us"]);
        r.expired(&mut rn, ExtTimer::RxSifs).unwrap();
        assert_eq!(take(&mut rn), ["send Cts d90 1 14 44"]);
        r.tx_end(&mut rn);
        let data = Frame { kind: Kind::Data, ra: 2, ta: 1, duration: 0x3c, size: 2528, txtime: 3396e-6, retry: false, seq: 1, error: false, rx_power: 0.0, payload: Some(5) };
        r.rx_end(&mut rn, Some(data)).unwrap();
        assert_eq!(take(&mut rn), ["start RxSifs 16us", "up 5 2500"]);
        r.expired(&mut rn, ExtTimer::RxSifs).unwrap();
        assert_eq!(take(&mut rn), ["send Ack 0 1 14 44"]);
        r.tx_end(&mut rn);
        r.rx_end(&mut rn, Some(data)).unwrap();
        assert_eq!(take(&mut rn), ["start RxSifs 16us", "drop Data Duplicate"]);
        // a frame for another node: its duration sets the NAV; an RTS
        // under a NAV is logged and not answered
        r.expired(&mut rn, ExtTimer::RxSifs).unwrap();
        r.tx_end(&mut rn);
        take(&mut rn);
        let other = Frame { ra: 0, ..data };
        r.rx_end(&mut rn, Some(other)).unwrap();
        assert_eq!(take(&mut rn), ["start Access(Nav) 60us", "free Data"]);
        r.rx_end(&mut rn, Some(rts)).unwrap();
        assert_eq!(take(&mut rn), ["log Rts"]);
        // a frame in error: EIFS from now on
        r.rx_end(&mut rn, None).unwrap();
        assert!(take(&mut rn).is_empty());
        r.expired(&mut rn, ExtTimer::Access(AccessTimer::Nav)).unwrap();
        assert_eq!(take(&mut rn), ["start Access(Ifs) 94us"]);
    }
}
