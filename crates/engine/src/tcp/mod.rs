//! One-way TCP senders as ns-2 2.35 models them (tcp/tcp.cc, tcp-reno.cc,
//! tcp-newreno.cc): sequence numbers count packets, the receiver is a
//! separate sink agent, and congestion control is expressed in packets.
//!
//! A sender (`Tcp`) is its loss-recovery flavour (`Flavor`), which owns the
//! flavour's state, and the state every flavour shares (`Sender`: the
//! sending loop, RTT estimation, retransmit timer, window opening and
//! closing).  Loss recovery lives in one file per flavour (`tahoe.rs`,
//! `reno.rs`, `newreno.rs`, `sack1.rs`), whose code receives the shared
//! sender and its own state as separate borrows.  Vegas (`vegas.rs`)
//! replaces `recv`, `timeout` and `output` as ns-2's does and shares the
//! rest (sending loop, coarse RTT estimator and timer, window closing);
//! `rfc793edu.rs` is ns-2's educational RFC 793 sender.  Where shared code
//! calls a function a flavour overrides in ns-2 (`output`, `rtt_backoff`) it
//! is generic over `Virtuals`.  How the window grows in congestion
//! avoidance (`windowOption_`: standard, HighSpeed, New-ECN, ...) is the
//! sender's `Growth` rule (`growth/`).
//!
//! Field names follow ns-2's C++ members so the code can be checked line by
//! line against the original; the Tcl names of bound variables are in
//! the ns-2 layer's `ns2/class/tcp.rs`.

mod frto;
pub mod growth;
mod newreno;
mod qoption;
mod reno;
pub mod rfc793edu;
pub mod sack1;
mod tahoe;
pub mod vegas;

use crate::agent::AgentBase;
use crate::packet::PktId;
use crate::sched::TimerStatus;
use crate::sim::{Sim, World};

pub use growth::newecn::{CLOSE_CWND_NEW, CLOSE_SSTHRESH_NEW};
pub use frto::Frto;
pub use growth::Growth;
pub use newreno::NewRenoState;
pub use qoption::QOption;

/// Retransmission timer (`TCP_TIMER_RTX`).
pub const TIMER_RTX: u8 = 0;
/// Delayed-send timer (`TCP_TIMER_DELSND`, used with `overhead_`).
pub const TIMER_DELSND: u8 = 1;
/// Burst-send timer (`TCP_TIMER_BURSTSND`).
pub const TIMER_BURSTSND: u8 = 2;

pub const REASON_TIMEOUT: i32 = 0x01;
pub const REASON_DUPACK: i32 = 0x02;

pub const CWND_ACTION_DUPACK: i32 = 1;
pub const CWND_ACTION_TIMEOUT: i32 = 2;
pub const CWND_ACTION_ECN: i32 = 3;
pub const CWND_ACTION_EXITED: i32 = 4;

pub const CLOSE_SSTHRESH_HALF: u32 = 0x1;
pub const CLOSE_CWND_HALF: u32 = 0x2;
pub const CLOSE_CWND_RESTART: u32 = 0x4;
pub const CLOSE_CWND_INIT: u32 = 0x8;
pub const CLOSE_CWND_ONE: u32 = 0x10;
pub const THREE_QUARTER_SSTHRESH: u32 = 0x80;
pub const CLOSE_CWND_HALF_WAY: u32 = 0x100;
pub const CWND_HALF_WITH_MIN: u32 = 0x200;
pub const TCP_IDLE: u32 = 0x400;
pub const NO_OUTSTANDING_DATA: u32 = 0x800;

/// `TCP_MAXSEQ`: what "send forever" sets `curseq_` to.
pub const TCP_MAXSEQ: i32 = 1073741824;

/// Loss-recovery flavour.
#[derive(Clone, Debug)]
pub enum Flavor {
    /// `Agent/TCP`: Tahoe (slow start after every loss).
    Tahoe,
    /// `Agent/TCP/Reno`: fast recovery with window inflation.
    Reno,
    /// `Agent/TCP/Newreno`: stays in fast recovery until all data
    /// outstanding at the loss is acknowledged.
    NewReno(NewRenoState),
    /// `Agent/TCP/Sack1`: fast recovery driven by the receiver's SACK blocks.
    Sack1(Box<sack1::Sack1State>),
    /// `Agent/TCP/RFC793edu`: RFC 793 with switchable later algorithms
    /// (loss recovery, when switched on, is Tahoe's).
    Rfc793edu(Box<rfc793edu::Rfc793State>),
    /// `Agent/TCP/Vegas`: delay-based window control with its own
    /// fine-grained RTT measurement and retransmission (`vegas.rs`).
    Vegas(Box<vegas::VegasState>),
}

/// A value given to a traced variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TracedValue {
    Int(i32),
    Real(f64),
}

/// Traced variables, in the order of their bit in `Tcp::traced`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tv {
    TSeqno,
    Dupacks,
    Curseq,
    Ack,
    Cwnd,
    Ssthresh,
    Maxseq,
    Rtt,
    Srtt,
    Rttvar,
    Backoff,
    Ndatapack,
    Ndatabytes,
    Nackpack,
    Nrexmit,
    Nrexmitpack,
    Nrexmitbytes,
    Necnresponses,
    Ncwndcuts,
    Ncwndcuts1,
    Singledup,
}

impl Tv {
    pub const ALL: [Tv; 21] = [
        Tv::TSeqno,
        Tv::Dupacks,
        Tv::Curseq,
        Tv::Ack,
        Tv::Cwnd,
        Tv::Ssthresh,
        Tv::Maxseq,
        Tv::Rtt,
        Tv::Srtt,
        Tv::Rttvar,
        Tv::Backoff,
        Tv::Ndatapack,
        Tv::Ndatabytes,
        Tv::Nackpack,
        Tv::Nrexmit,
        Tv::Nrexmitpack,
        Tv::Nrexmitbytes,
        Tv::Necnresponses,
        Tv::Ncwndcuts,
        Tv::Ncwndcuts1,
        Tv::Singledup,
    ];

    #[inline]
    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A TCP sender agent (ns-2's `TcpAgent` and its subclasses): its
/// loss-recovery flavour, which owns the flavour's state, and the state
/// every flavour shares.  The flavour is chosen when the agent is made and
/// never changes.
#[derive(Clone, Debug)]
pub struct Tcp {
    pub flavor: Flavor,
    pub sender: Sender,
}

/// What every TCP sender has (ns-2's `TcpAgent` members): the sending
/// loop, RTT estimation, the retransmission timer, window opening and
/// closing.  A flavour's code receives it beside its own state.
#[derive(Clone, Debug)]
pub struct Sender {
    /// `window()` and `windowd()` are `RenoTcpAgent`'s (Reno, NewReno:
    /// cwnd_ plus the fast-recovery inflation `dupwnd_`), not
    /// `TcpAgent`'s; set from the flavour when the agent is made.
    reno_window: bool,
    pub rtx_timer: u32,
    /// The retransmission timer is pending (its scheduler status is
    /// `Pending`), kept here so that `sent`, on every packet, need not look
    /// it up: set where it is rescheduled, cleared where it is cancelled and
    /// when it fires (`timeout`).
    rtx_pending: bool,
    pub delsnd_timer: u32,
    /// The delayed-send timer has been scheduled at least once (sticky):
    /// until then it cannot be pending, and the sending loop, which asks on
    /// every call, need not look it up.
    pub delsnd_used: bool,
    /// `burstsnd_timer_`: allocated as ns-2's TcpAgent has one, but only
    /// ns-2's TCP session agent (not modelled) ever schedules it, so it is
    /// never pending.
    pub burstsnd_timer: u32,
    /// Bit set of traced variables (`$tcp trace var`).
    pub traced: u32,

    // ---- traced state --------------------------------------------------
    pub t_seqno: i32,
    pub dupacks: i32,
    pub curseq: i32,
    pub highest_ack: i32,
    pub cwnd: f64,
    pub ssthresh: i32,
    pub maxseq: i32,
    /// `t_rtt_`; set it with `seti`, which keeps `last_rtt_ms` with it.
    t_rtt: i32,
    pub t_srtt: i32,
    pub t_rttvar: i32,
    pub t_backoff: i32,
    pub ndatapack: i32,
    pub ndatabytes: i32,
    pub nackpack: i32,
    pub nrexmit: i32,
    pub nrexmitpack: i32,
    pub nrexmitbytes: i32,
    pub necnresponses: i32,
    pub ncwndcuts: i32,
    pub ncwndcuts1: i32,
    pub singledup: i32,

    // ---- other dynamic state --------------------------------------------
    pub last_ack: i32,
    pub recover: i32,
    pub last_cwnd_action: i32,
    pub rtt_active: bool,
    pub rtt_seq: i32,
    pub rtt_ts: f64,
    pub firstsent: f64,
    pub lastreset: f64,
    pub closed: bool,
    pub t_rtxcur: f64,
    pub boot_time: f64,
    pub wnd_restart: f64,
    pub first_decrease: bool,
    pub cong_action: bool,
    pub ecn_burst: bool,
    pub ecn_backoff: bool,
    pub ect: bool,
    /// `mark_` (New-ECN patch): the last ACK's ECN-Echo, 1 or 0, kept by
    /// every sender with `ecn_` on; only Tcl reads it.
    pub mark: f64,
    /// `use_rtt_`: never set (see `rto`).
    use_rtt: bool,
    pub syn_connects: i32,
    pub eln_last_rxmit: i32,
    pub prev_highest_ack: i32,
    pub ts_peer: f64,
    pub ts_echo: f64,
    pub tss: Vec<f64>,
    pub tss_size: i32,
    /// TCP quiescence (`QOption_`; `qoption.rs`).
    pub qopt: QOption,
    /// F-RTO (`frto_enabled_`, `sfrto_enabled_`; `frto.rs`).
    pub frto: Frto,
    /// Reno/NewReno window inflation during fast recovery (`dupwnd_`,
    /// an unsigned int in ns-2).
    pub dupwnd: u32,

    // ---- parameters (bound variables) ------------------------------------
    /// `window_`; set it with `set_wnd`, which keeps `wnd_int` with it.
    wnd: f64,
    /// `(int)window_`, which `window()` needs on every ACK: kept beside
    /// `wnd` rather than converted (a saturating cast) each time.
    wnd_int: i32,
    pub wnd_init: f64,
    pub wnd_init_option: i32,
    pub syn: bool,
    pub max_connects: i32,
    /// Congestion-avoidance window growth (`windowOption_`; `growth/`).
    pub growth: Growth,
    /// The state of the growth rules not in use (see `growth::Parked`).
    pub parked: growth::Parked,
    /// `newecn_`: `windowOption_ 8` means New-ECN rather than HighSpeed
    /// TCP (`select_growth`).
    pub newecn: bool,
    /// Event trace object (`$tcp eventtrace $et`, from `$ns eventtrace-all`).
    pub et: u32,
    pub wnd_th: f64,
    pub delay_growth: bool,
    pub overhead: f64,
    /// `tcpTick_`; set it with `set_tcp_tick`, which keeps `last_rtt_ms`
    /// with it.
    tcp_tick: f64,
    /// `t_rtt_ * tcp_tick_ * 1000` as an int, which `output` stamps on
    /// every packet (`last_rtt`): kept beside `t_rtt` and `tcp_tick`,
    /// which change about once a round trip, rather than worked out (two
    /// multiplies and a saturating cast) per packet.
    last_rtt_ms: i32,
    pub ecn: bool,
    pub set_cwr_on_retransmit: bool,
    pub old_ecn: bool,
    pub bugfix_ss: bool,
    pub eln: i32,
    pub eln_rxmit_thresh: i32,
    pub tcpip_base_hdr_size: i32,
    pub ts_option_size: i32,
    pub bug_fix: bool,
    pub bugfix_ack: bool,
    pub bugfix_ts: bool,
    pub less_careful: bool,
    pub ts_option: bool,
    pub ts_reset_rto: bool,
    pub slow_start_restart: bool,
    pub restart_bugfix: bool,
    pub maxburst: i32,
    pub aggressive_maxburst: bool,
    pub maxcwnd: i32,
    pub numdupacks: i32,
    pub numdupacks_frac: i32,
    pub exit_fast_retrans: bool,
    /// `maxrto_`, `minrto_`: set through `set_maxrto`/`set_minrto`, which work out `rto`
    /// again.
    maxrto: f64,
    minrto: f64,
    pub srtt_init: i32,
    pub rttvar_init: i32,
    pub rtxcur_init: f64,
    pub t_srtt_bits: i32,
    pub t_rttvar_bits: i32,
    pub rttvar_exp: i32,
    pub awnd: f64,
    pub decrease_num: f64,
    pub increase_num: f64,
    pub trace_all_oneline: bool,
    pub nam_tracevar: bool,
    pub control_increase: i32,
    pub no_fast_retrans: bool,
    pub precision_reduce: bool,
    pub old_code: bool,
    pub use_headers: bool,
    pub max_ssthresh: i32,
    pub timerfix: bool,
    /// `rfc2988_`: set through `set_rfc2988`, which works out `rto` again.
    rfc2988: bool,
    pub lim_transmit_fix: bool,
    /// Quick-Start's parameters (bound, not modelled).
    pub qs: QuickStart,
    /// `rtt_timeout()` for the `t_rtxcur_` (its bits) and `t_backoff_` in
    /// `rto_key`, and the current `minrto_`, `maxrto_`, `rfc2988_` and
    /// `tcpTick_`, whose setters work it out again (`note_rto`): every new
    /// ACK rearms the retransmission timer, while the estimate and the
    /// backoff change about once a round trip.  `use_rtt_`, the one other
    /// input, is false throughout: nothing in the engine sets it.
    rto: f64,
    rto_key: (u64, i32),
}

/// Quick-Start's parameters (RFC 4782; ns-2's `rate_request_`,
/// `qs_enabled_`, ...): bound so scripts can set and read them, but
/// Quick-Start is not modelled (`reset` warns when it is switched on).
#[derive(Clone, Debug)]
pub struct QuickStart {
    pub rate_request: i32,
    pub qs_enabled: bool,
    pub tcp_qs_recovery: bool,
    pub qs_request_mode: i32,
    pub qs_thresh: i32,
    pub qs_rtt: i32,
    pub print_request: bool,
}

impl Default for QuickStart {
    /// ns-2's constructor values.
    fn default() -> Self {
        QuickStart {
            rate_request: 0,
            qs_enabled: false,
            tcp_qs_recovery: true,
            qs_request_mode: 1,
            qs_thresh: 4,
            qs_rtt: 50,
            print_request: false,
        }
    }
}

/// What `recv` needs from an ACK.
#[derive(Clone, Copy, Debug)]
pub struct AckInfo {
    pub seqno: i32,
    pub ts: f64,
    pub ts_echo: f64,
    pub ecnecho: bool,
    pub cong_action: bool,
    pub no_ts: bool,
    pub eln: bool,
}

impl AckInfo {
    fn of(sim: &Sim, p: PktId) -> AckInfo {
        let pk = sim.w.pool.get(p);
        AckInfo {
            seqno: pk.seqno,
            ts: pk.ts,
            ts_echo: pk.ts_echo,
            ecnecho: pk.ecn,
            cong_action: pk.cong_action,
            no_ts: pk.no_ts,
            eln: pk.eln,
        }
    }
}

impl Tcp {
    /// A sender with ns-2's C++ constructor values; the Tcl class defaults
    /// (ns-default.tcl) are applied on top by the compatibility layer, then
    /// `reset` runs, as `delay_bind_init_all` does.
    pub fn new(flavor: Flavor, sim: &mut Sim, owner: u32) -> Tcp {
        let reno_window = matches!(flavor, Flavor::Reno | Flavor::NewReno(_));
        Tcp { flavor, sender: Sender::new(reno_window, sim, owner) }
    }

    /// `TcpAgent::reset` with the flavour's additions before it, run at
    /// creation and by `$ns run` for every agent.
    pub fn reset(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Sack1(s) => s.scb.clear(),
            Flavor::Rfc793edu(s) => rfc793edu::reset(t, s),
            Flavor::Vegas(v) => v.reset(),
            Flavor::Tahoe | Flavor::Reno | Flavor::NewReno(_) => {}
        }
        t.reset(b, sim);
    }

    /// An ACK arrived: the flavour's `recv`.
    pub fn recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        let ack = AckInfo::of(sim, p);
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Tahoe => tahoe::recv(t, b, sim, p, &ack),
            Flavor::Reno => reno::recv(t, b, sim, p, &ack),
            Flavor::NewReno(s) => newreno::recv(t, s, b, sim, p, &ack),
            Flavor::Sack1(s) => sack1::recv(t, s, b, sim, p, &ack),
            Flavor::Rfc793edu(s) => rfc793edu::recv(t, s, b, sim, p, &ack),
            Flavor::Vegas(s) => vegas::recv(t, s, b, sim, p, &ack),
        }
    }

    /// A timer expired: the flavour's `timeout`.
    pub fn timeout(&mut self, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
        let Tcp { flavor, sender: t } = self;
        if tno == TIMER_RTX {
            // The scheduler has made it `Handling`: no longer pending.
            t.rtx_pending = false;
        }
        match flavor {
            Flavor::Tahoe => t.timeout_with(&mut Base, b, sim, tno),
            Flavor::Reno | Flavor::NewReno(_) => reno::timeout(t, b, sim, tno),
            Flavor::Sack1(s) => sack1::timeout(t, s, b, sim, tno),
            Flavor::Rfc793edu(s) => t.timeout_with(&mut **s, b, sim, tno),
            Flavor::Vegas(s) => vegas::timeout(t, s, b, sim, tno),
        }
    }

    /// `send_much`: send as much as the window allows, with the flavour's
    /// sending loop (SACK's own) or `output` (Vegas's, RFC793edu's).  (A
    /// flavour's own code, which knows which it is, calls its loop
    /// directly.)
    pub fn send_much(&mut self, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32, maxburst: i32) {
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Tahoe | Flavor::Reno | Flavor::NewReno(_) => t.send_much_tcp(b, sim, force, reason, maxburst),
            Flavor::Sack1(s) => sack1::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Rfc793edu(s) => rfc793edu::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Vegas(s) => vegas::send_much(t, s, b, sim, force, reason, maxburst),
        }
    }

    /// `TcpAgent::sendmsg`: the application hands over `nbytes` (-1 = forever).
    pub fn sendmsg(&mut self, b: &mut AgentBase, sim: &mut Sim, nbytes: i32) {
        let t = &mut self.sender;
        if nbytes == -1 && t.curseq <= TCP_MAXSEQ {
            t.seti(b, &mut sim.w, Tv::Curseq, TCP_MAXSEQ);
        } else {
            let size = b.size;
            let add = nbytes / size + if nbytes % size != 0 { 1 } else { 0 };
            t.inc(b, &mut sim.w, Tv::Curseq, add);
        }
        let mb = t.maxburst;
        self.send_much(b, sim, false, 0, mb);
    }

    /// `TcpAgent::advanceby`.
    pub fn advanceby(&mut self, b: &mut AgentBase, sim: &mut Sim, delta: i32) {
        let t = &mut self.sender;
        t.inc(b, &mut sim.w, Tv::Curseq, delta);
        if delta > 0 {
            t.closed = false;
        }
        let mb = t.maxburst;
        self.send_much(b, sim, false, 0, mb);
    }

    /// `$tcp advance n`.
    pub fn advance(&mut self, b: &mut AgentBase, sim: &mut Sim, newseq: i32) {
        let t = &self.sender;
        let d = if newseq > t.maxseq { newseq - t.curseq } else { t.maxseq - t.curseq };
        self.advanceby(b, sim, d);
    }

    /// Start tracing a variable (`$tcp trace var`).
    pub fn trace(&mut self, tv: Tv) {
        self.sender.traced |= tv.bit();
    }
}

/// The virtual functions of ns-2's `TcpAgent` that shared code calls and
/// a flavour overrides: `output` (Vegas, RFC793edu) and `rtt_backoff`
/// (RFC793edu).  The shared code that calls them (the sending loop,
/// `timeout`, `ecn`, `tcp_eln`) is generic over them, so each flavour gets
/// its own copy, statically dispatched; a flavour's state implements them,
/// and `Base` stands for `TcpAgent`'s own.
pub(crate) trait Virtuals {
    /// `output` never changes what `window()` reads (`TcpAgent::output`),
    /// so the sending loop need not work the window out again per packet.
    const OUTPUT_KEEPS_WINDOW: bool;

    /// `output(seqno, reason)`; the segment goes in `spare` if given (see
    /// `Sender::send_much_ack`: `Base` only).
    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>);

    /// `rtt_backoff()`.
    fn rtt_backoff(&mut self, t: &mut Sender, b: &AgentBase, w: &mut World) {
        t.rtt_backoff(b, w)
    }
}

/// `TcpAgent`'s own virtual functions (Tahoe, Reno, NewReno, SACK; and
/// Vegas's `rtt_backoff`, which it does not override).
pub(crate) struct Base;

impl Virtuals for Base {
    const OUTPUT_KEEPS_WINDOW: bool = true;

    #[inline(always)]
    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        t.output_inline(b, sim, seqno, reason, spare)
    }
}

impl Sender {
    fn new(reno_window: bool, sim: &mut Sim, owner: u32) -> Sender {
        let rtx_timer = sim.w.s.new_timer(owner, TIMER_RTX);
        let delsnd_timer = sim.w.s.new_timer(owner, TIMER_DELSND);
        let burstsnd_timer = sim.w.s.new_timer(owner, TIMER_BURSTSND);
        let mut t = Sender {
            reno_window,
            rtx_timer,
            rtx_pending: false,
            delsnd_timer,
            delsnd_used: false,
            burstsnd_timer,
            traced: 0,
            t_seqno: 0,
            dupacks: 0,
            curseq: 0,
            highest_ack: 0,
            cwnd: 0.0,
            ssthresh: 0,
            maxseq: 0,
            t_rtt: 0,
            t_srtt: 0,
            t_rttvar: 0,
            t_backoff: 0,
            ndatapack: 0,
            ndatabytes: 0,
            nackpack: 0,
            nrexmit: 0,
            nrexmitpack: 0,
            nrexmitbytes: 0,
            necnresponses: 0,
            ncwndcuts: 0,
            ncwndcuts1: 0,
            singledup: 1,
            last_ack: -1,
            recover: 0,
            last_cwnd_action: 0,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: 0.0,
            firstsent: 0.0,
            lastreset: 0.0,
            closed: false,
            t_rtxcur: 3.0,
            boot_time: 0.0,
            wnd_restart: 1.0,
            first_decrease: true,
            cong_action: false,
            ecn_burst: false,
            ecn_backoff: false,
            ect: false,
            mark: 0.0,
            use_rtt: false,
            syn_connects: 0,
            eln_last_rxmit: 0,
            prev_highest_ack: 0,
            ts_peer: 0.0,
            ts_echo: 0.0,
            tss: Vec::new(),
            tss_size: 100,
            qopt: QOption::default(),
            frto: Frto::default(),
            dupwnd: 0,
            wnd: 20.0,
            wnd_int: 20,
            wnd_init: 2.0,
            wnd_init_option: 1,
            syn: true,
            max_connects: -1,
            growth: Growth::Standard,
            parked: growth::Parked::default(),
            newecn: false,
            et: crate::sim::NONE,
            wnd_th: 0.002,
            delay_growth: true,
            overhead: 0.0,
            tcp_tick: 0.01,
            last_rtt_ms: 0,
            ecn: false,
            set_cwr_on_retransmit: true,
            old_ecn: false,
            bugfix_ss: true,
            eln: 0,
            eln_rxmit_thresh: 1,
            tcpip_base_hdr_size: 40,
            ts_option_size: 10,
            bug_fix: true,
            bugfix_ack: false,
            bugfix_ts: false,
            less_careful: false,
            ts_option: false,
            ts_reset_rto: false,
            slow_start_restart: true,
            restart_bugfix: true,
            maxburst: 0,
            aggressive_maxburst: true,
            maxcwnd: 0,
            numdupacks: 3,
            numdupacks_frac: -1,
            exit_fast_retrans: true,
            maxrto: 60.0,
            minrto: 0.2,
            srtt_init: 0,
            rttvar_init: 12,
            rtxcur_init: 3.0,
            t_srtt_bits: 3,
            t_rttvar_bits: 2,
            rttvar_exp: 2,
            awnd: 0.0,
            decrease_num: 0.5,
            increase_num: 1.0,
            trace_all_oneline: false,
            nam_tracevar: false,
            control_increase: 0,
            no_fast_retrans: false,
            precision_reduce: true,
            old_code: false,
            use_headers: true,
            max_ssthresh: 0,
            timerfix: true,
            rfc2988: true,
            lim_transmit_fix: false,
            qs: QuickStart::default(),
            rto: 0.0,
            rto_key: (0, 0),
        };
        t.note_rto();
        t
    }

    // ---- traced variables ------------------------------------------------

    /// Set a traced integer; write a trace line if it changed and is traced
    /// (tclcl `TracedInt::assign` traces only changes).
    #[inline]
    fn seti(&mut self, b: &AgentBase, w: &mut World, tv: Tv, v: i32) {
        let f = self.int_field(tv);
        if *f == v {
            return;
        }
        *f = v;
        if tv == Tv::Rtt {
            self.note_last_rtt();
        }
        if self.traced & tv.bit() != 0 {
            self.trace_var(b, w, tv);
        }
    }

    /// Set `tcpTick_` (and `last_rtt_ms`, `rto`).
    pub fn set_tcp_tick(&mut self, v: f64) {
        self.tcp_tick = v;
        self.note_last_rtt();
        self.note_rto();
    }

    /// Work out `last_rtt_ms` again after `t_rtt_` or `tcpTick_` changed.
    fn note_last_rtt(&mut self) {
        self.last_rtt_ms = (self.t_rtt as f64 * self.tcp_tick * 1000.0) as i32;
    }

    #[inline]
    fn set_cwnd(&mut self, b: &AgentBase, w: &mut World, v: f64) {
        if self.cwnd == v {
            return;
        }
        self.cwnd = v;
        if self.traced & Tv::Cwnd.bit() != 0 {
            self.trace_var(b, w, Tv::Cwnd);
        }
    }

    #[inline]
    fn inc(&mut self, b: &AgentBase, w: &mut World, tv: Tv, by: i32) {
        let v = *self.int_field(tv) + by;
        self.seti(b, w, tv, v);
    }

    pub fn int_field(&mut self, tv: Tv) -> &mut i32 {
        match tv {
            Tv::TSeqno => &mut self.t_seqno,
            Tv::Dupacks => &mut self.dupacks,
            Tv::Curseq => &mut self.curseq,
            Tv::Ack => &mut self.highest_ack,
            Tv::Ssthresh => &mut self.ssthresh,
            Tv::Maxseq => &mut self.maxseq,
            Tv::Rtt => &mut self.t_rtt,
            Tv::Srtt => &mut self.t_srtt,
            Tv::Rttvar => &mut self.t_rttvar,
            Tv::Backoff => &mut self.t_backoff,
            Tv::Ndatapack => &mut self.ndatapack,
            Tv::Ndatabytes => &mut self.ndatabytes,
            Tv::Nackpack => &mut self.nackpack,
            Tv::Nrexmit => &mut self.nrexmit,
            Tv::Nrexmitpack => &mut self.nrexmitpack,
            Tv::Nrexmitbytes => &mut self.nrexmitbytes,
            Tv::Necnresponses => &mut self.necnresponses,
            Tv::Ncwndcuts => &mut self.ncwndcuts,
            Tv::Ncwndcuts1 => &mut self.ncwndcuts1,
            Tv::Singledup => &mut self.singledup,
            Tv::Cwnd => unreachable!("cwnd is a double"),
        }
    }

    /// Write one variable-trace line (`TcpAgent::traceVar` / `traceAll`)
    /// with the tracer.
    pub fn trace_var(&self, b: &AgentBase, w: &mut World, tv: Tv) {
        let Some(ch) = b.channel else { return };
        let (now, started) = (w.s.now, w.started);
        w.out.with_tracer(|t, out| t.tcp_var(out, ch, now, started, b, self, tv));
    }

    /// `t_rtt_`, in ticks.
    pub fn t_rtt(&self) -> i32 {
        self.t_rtt
    }

    /// `tcpTick_`, seconds.
    pub fn tcp_tick(&self) -> f64 {
        self.tcp_tick
    }

    /// `window_`: the most packets outstanding the receiver allows.
    pub fn wnd(&self) -> f64 {
        self.wnd
    }

    /// `maxrto_`, `minrto_` (seconds) and `rfc2988_`: the bounds and the
    /// rule of the retransmission timeout; set them with the setters
    /// below, which keep the timeout worked out from them.
    pub fn maxrto(&self) -> f64 {
        self.maxrto
    }

    pub fn minrto(&self) -> f64 {
        self.minrto
    }

    pub fn rfc2988(&self) -> bool {
        self.rfc2988
    }

    pub fn set_maxrto(&mut self, v: f64) {
        self.maxrto = v;
        self.note_rto();
    }

    pub fn set_minrto(&mut self, v: f64) {
        self.minrto = v;
        self.note_rto();
    }

    pub fn set_rfc2988(&mut self, v: bool) {
        self.rfc2988 = v;
        self.note_rto();
    }

    // ---- initialisation ---------------------------------------------------

    fn set_initial_window(&mut self, b: &AgentBase, w: &mut World) {
        if self.syn && self.delay_growth {
            self.set_cwnd(b, w, 1.0);
            self.syn_connects = 0;
        } else {
            let iw = self.initial_window(b, w);
            self.set_cwnd(b, w, iw);
        }
    }

    /// `TcpAgent::reset` (see `Tcp::reset`).
    fn reset(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        self.mark = 0.0;
        let w = &mut sim.w;
        self.rtt_init(b, w);
        self.rtt_seq = -1;
        self.seti(b, w, Tv::Dupacks, 0);
        self.seti(b, w, Tv::Curseq, 0);
        self.set_initial_window(b, w);
        self.seti(b, w, Tv::TSeqno, 0);
        self.seti(b, w, Tv::Maxseq, -1);
        self.last_ack = -1;
        self.seti(b, w, Tv::Ack, -1);
        let mut ss = self.wnd as i32;
        self.seti(b, w, Tv::Ssthresh, ss);
        if self.max_ssthresh > 0 && self.max_ssthresh < self.ssthresh {
            ss = self.max_ssthresh;
            self.seti(b, w, Tv::Ssthresh, ss);
        }
        self.wnd_restart = 1.0;
        self.awnd = self.wnd_init / 2.0;
        self.recover = 0;
        self.closed = false;
        self.last_cwnd_action = 0;
        self.boot_time = w.rng.default_stream().uniform(self.tcp_tick);
        self.first_decrease = true;
        self.lastreset = w.s.now;
        for tv in [
            Tv::Ndatapack,
            Tv::Ndatabytes,
            Tv::Nackpack,
            Tv::Nrexmitbytes,
            Tv::Nrexmit,
            Tv::Nrexmitpack,
            Tv::Necnresponses,
            Tv::Ncwndcuts,
            Tv::Ncwndcuts1,
        ] {
            self.seti(b, w, tv, 0);
        }
        self.cancel_timers(w);
        if self.control_increase != 0 {
            self.prev_highest_ack = self.highest_ack;
        }
        // (HighSpeed's parameters for `windowOption_ 8`, New-ECN's state)
        self.growth.reset(&mut self.parked);
        if self.qopt.qoption != 0 {
            self.reset_qoption_state(w);
        }
        if self.qs.qs_enabled {
            w.warn(crate::notice::Warning::QuickStartIgnored { agent: b.id });
        }
    }

    fn cancel_timers(&mut self, w: &mut World) {
        w.s.timer_cancel(self.rtx_timer);
        self.rtx_pending = false;
        w.s.timer_cancel(self.burstsnd_timer);
        w.s.timer_cancel(self.delsnd_timer);
    }

    fn rtt_init(&mut self, b: &AgentBase, w: &mut World) {
        self.seti(b, w, Tv::Rtt, 0);
        let s = ((self.srtt_init as f64 / self.tcp_tick) as i32) << self.t_srtt_bits;
        self.seti(b, w, Tv::Srtt, s);
        let v = ((self.rttvar_init as f64 / self.tcp_tick) as i32) << self.t_rttvar_bits;
        self.seti(b, w, Tv::Rttvar, v);
        self.t_rtxcur = self.rtxcur_init;
        self.seti(b, w, Tv::Backoff, 1);
    }

    /// `rtt_timeout()` as `set_rtx_timer` needs it: worked out again only
    /// when `t_rtxcur_` or `t_backoff_` changed since (see `rto`).
    #[inline(always)]
    fn rtt_timeout_cached(&mut self) -> f64 {
        if self.rto_key != (self.t_rtxcur.to_bits(), self.t_backoff) {
            self.note_rto();
        }
        debug_assert!(!self.use_rtt);
        debug_assert_eq!(self.rto.to_bits(), self.rtt_timeout_of().to_bits(), "RTO parameter set without note_rto");
        self.rto
    }

    /// Work out `rto` again (see there).
    pub fn note_rto(&mut self) {
        self.rto = self.rtt_timeout_of();
        self.rto_key = (self.t_rtxcur.to_bits(), self.t_backoff);
    }

    fn rtt_timeout(&mut self) -> f64 {
        let timeout = self.rtt_timeout_of();
        self.use_rtt = false;
        timeout
    }

    /// `TcpAgent::rtt_timeout` but for clearing `use_rtt_`.
    fn rtt_timeout_of(&self) -> f64 {
        let mut timeout;
        if self.rfc2988 {
            if self.t_rtxcur < self.minrto && !self.use_rtt {
                timeout = self.minrto * self.t_backoff as f64;
            } else {
                timeout = self.t_rtxcur * self.t_backoff as f64;
            }
        } else {
            timeout = self.t_rtxcur * self.t_backoff as f64;
            if timeout < self.minrto {
                timeout = self.minrto;
            }
        }
        if timeout > self.maxrto {
            timeout = self.maxrto;
        }
        if timeout < 2.0 * self.tcp_tick {
            if timeout < 0.0 {
                // ns-2 prints "TcpAgent: negative RTO!" and exits.
                timeout = 2.0 * self.tcp_tick;
            } else if self.use_rtt && timeout < self.tcp_tick {
                timeout = self.tcp_tick;
            } else {
                timeout = 2.0 * self.tcp_tick;
            }
        }
        timeout
    }

    /// `TcpAgent::rtt_update`: Jacobson's estimator in ticks, with the
    /// send time offset by the agent's random boot time.
    fn rtt_update(&mut self, b: &AgentBase, w: &mut World, tao: f64) {
        self.rtt_sample(b, w, tao);
        self.t_rtxcur = self.jacobson_rto_ticks() as f64 * self.tcp_tick;
    }

    /// The sample and smoothing of `rtt_update` (RFC793edu's too): the RTT
    /// `tao` in ticks (from the send time offset by the random boot time,
    /// or rounded with timestamps), at least 1, into `t_rtt_`, then folded
    /// into `t_srtt_` and `t_rttvar_`.
    pub(super) fn rtt_sample(&mut self, b: &AgentBase, w: &mut World, tao: f64) {
        let now = w.s.now;
        let rtt = if self.ts_option {
            (tao / self.tcp_tick + 0.5) as i32
        } else {
            let mut sendtime = now - tao;
            sendtime += self.boot_time;
            let tickoff = sendtime % self.tcp_tick;
            ((tao + tickoff) / self.tcp_tick) as i32
        };
        self.seti(b, w, Tv::Rtt, rtt);
        if self.t_rtt < 1 {
            self.seti(b, w, Tv::Rtt, 1);
        }
        self.smooth_rtt(b, w);
    }

    /// Jacobson's RTO in ticks: srtt + 2^rttvar_exp rttvar (fixed point).
    pub(super) fn jacobson_rto_ticks(&self) -> i32 {
        ((self.t_rttvar << (self.rttvar_exp + (self.t_srtt_bits - self.t_rttvar_bits))) + self.t_srtt) >> self.t_srtt_bits
    }

    /// The smoothing step of `rtt_update`: fold the sample `t_rtt_` into
    /// `t_srtt_` and `t_rttvar_` (fixed point, `T_SRTT_BITS` and
    /// `T_RTTVAR_BITS` fraction bits).
    #[inline(always)]
    fn smooth_rtt(&mut self, b: &AgentBase, w: &mut World) {
        if self.t_srtt != 0 {
            // `register short delta` in ns-2.
            let mut delta: i16 = (self.t_rtt - (self.t_srtt >> self.t_srtt_bits)) as i16;
            let s = self.t_srtt + delta as i32;
            self.seti(b, w, Tv::Srtt, s);
            if self.t_srtt <= 0 {
                self.seti(b, w, Tv::Srtt, 1);
            }
            if delta < 0 {
                delta = delta.wrapping_neg();
            }
            delta = delta.wrapping_sub((self.t_rttvar >> self.t_rttvar_bits) as i16);
            let v = self.t_rttvar + delta as i32;
            self.seti(b, w, Tv::Rttvar, v);
            if self.t_rttvar <= 0 {
                self.seti(b, w, Tv::Rttvar, 1);
            }
        } else {
            let s = self.t_rtt << self.t_srtt_bits;
            self.seti(b, w, Tv::Srtt, s);
            let v = self.t_rtt << (self.t_rttvar_bits - 1);
            self.seti(b, w, Tv::Rttvar, v);
        }
    }

    /// `TcpAgent::rtt_backoff` (RFC793edu has its own: `Virtuals`).
    fn rtt_backoff(&mut self, b: &AgentBase, w: &mut World) {
        if self.t_backoff < 64 || (self.rfc2988 && self.rtt_timeout() < self.maxrto) {
            let v = self.t_backoff << 1;
            self.seti(b, w, Tv::Backoff, v);
        }
        if self.t_backoff > 8 {
            let v = self.t_rttvar + (self.t_srtt >> self.t_srtt_bits);
            self.seti(b, w, Tv::Rttvar, v);
            self.seti(b, w, Tv::Srtt, 0);
        }
    }

    fn headersize(&self, b: &AgentBase, w: &mut World) -> i32 {
        let mut total = self.tcpip_base_hdr_size;
        if total < 1 {
            w.warn(crate::notice::Warning::HeaderTooSmall { agent: b.id, bytes: total });
        }
        if self.ts_option {
            total += self.ts_option_size;
        }
        total
    }

    // ---- sending ----------------------------------------------------------

    /// `TcpAgent::output`: build and send the segment `seqno`.
    /// Vegas and RFC793edu have their own (`vegas::output`,
    /// `rfc793edu::output`); `send_much_with` and `tcp_eln`, the callers
    /// they share, take it from `Virtuals`.
    #[inline(never)]
    fn output(&mut self, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
        self.output_inline(b, sim, seqno, reason, None)
    }

    /// `output` itself, inlined into the sending loop (`send_much_tcp`),
    /// which sends nearly every packet: one call less per packet.  The
    /// segment goes in `spare` (see `send_much_ack`) if given, else in a
    /// new packet.
    #[inline(always)]
    fn output_inline(&mut self, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        let mut force_set_rtx_timer = false;
        let now = sim.w.s.now;
        let is_retransmit = seqno < self.maxseq;
        // (ns-2 allocates the packet first; nothing here sees the order.)
        if self.bugfix_ts || !self.tss.is_empty() {
            self.note_send_time(b, &mut sim.w, seqno, now);
        }
        let p = match spare {
            Some(p) => {
                b.initpkt(sim, p);
                p
            }
            None => b.allocpkt(sim),
        };
        // `allocpkt` sets the size to packetSize_.
        let mut databytes = b.size;
        {
            debug_assert_eq!(
                self.last_rtt_ms,
                (self.t_rtt as f64 * self.tcp_tick * 1000.0) as i32,
                "t_rtt or tcp_tick set without seti / set_tcp_tick"
            );
            let last_rtt = self.last_rtt_ms;
            // Written right after `allocpkt`'s zeroes, which the compiler
            // then need not store.
            let pk = sim.w.pool.get_mut(p);
            pk.seqno = seqno;
            pk.ts = now;
            pk.ts_echo = self.ts_peer;
            pk.reason = reason;
            pk.last_rtt = last_rtt;
            if self.ecn {
                pk.ecn_capable = true;
            }
            if self.cong_action && (!is_retransmit || self.set_cwr_on_retransmit) {
                pk.cong_action = true;
                self.cong_action = false;
            }
        }
        if seqno == 0 {
            if self.syn {
                databytes = 0;
                if self.maxseq == -1 {
                    self.inc(b, &mut sim.w, Tv::Curseq, 1);
                }
                sim.w.pool.get_mut(p).size = self.tcpip_base_hdr_size;
                self.syn_connects += 1;
                if self.max_connects > 0 && self.syn_connects > self.max_connects {
                    // Abort the connection (ns-2 leaks the packet here).
                    self.seti(b, &mut sim.w, Tv::Curseq, 0);
                    sim.w.s.timer_resched(self.rtx_timer, 10000.0);
                    self.rtx_pending = true;
                    sim.w.pool.free(p);
                    return;
                }
            }
            if self.ecn {
                let pk = sim.w.pool.get_mut(p);
                pk.ecn = true;
                pk.ecn_capable = false;
            }
        } else if self.use_headers {
            let h = self.headersize(b, &mut sim.w);
            sim.w.pool.get_mut(p).size += h;
        }
        if self.highest_ack == self.maxseq {
            force_set_rtx_timer = true;
        }
        self.inc(b, &mut sim.w, Tv::Ndatapack, 1);
        self.inc(b, &mut sim.w, Tv::Ndatabytes, databytes);
        self.sent(b, sim, p, seqno, databytes, force_set_rtx_timer);
    }

    /// `output`'s timestamp table (`bugFix_ts_`): make it, grow it when
    /// the window outgrows it, and note when `seqno` is sent.
    #[inline(never)]
    fn note_send_time(&mut self, b: &AgentBase, w: &mut World, seqno: i32, now: f64) {
        if self.bugfix_ts && self.tss.is_empty() {
            self.tss = vec![0.0; self.tss_size as usize];
        }
        if self.bugfix_ts && (seqno - self.highest_ack) as f64 > self.tss_size as f64 * 0.9 {
            let old = std::mem::take(&mut self.tss);
            let n = (self.tss_size * 2) as usize;
            let mut ntss = vec![0.0; n];
            for i in 0..self.tss_size {
                let from = (self.highest_ack + i).rem_euclid(self.tss_size) as usize;
                let to = (self.highest_ack + i).rem_euclid(self.tss_size * 2) as usize;
                ntss[to] = old[from];
            }
            self.tss_size *= 2;
            self.tss = ntss;
            w.warn(crate::notice::Warning::TimestampTableResized { agent: b.id });
        }
        if !self.tss.is_empty() {
            let i = seqno.rem_euclid(self.tss_size) as usize;
            self.tss[i] = now;
        }
    }

    /// The end of `output` (shared with Vegas's and RFC793edu's): send
    /// segment `seqno` (`p`, `databytes` of data), then note a new highest
    /// sequence number (and start timing it) or count a retransmission, and
    /// arm the retransmission timer if it is not pending or `force_rtx`.
    #[inline(always)]
    pub(super) fn sent(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId, seqno: i32, databytes: i32, force_rtx: bool) {
        b.send(sim, p);
        if seqno == self.curseq && seqno > self.maxseq {
            b.idle(sim);
        }
        if seqno > self.maxseq {
            self.seti(b, &mut sim.w, Tv::Maxseq, seqno);
            if !self.rtt_active {
                self.rtt_active = true;
                if seqno > self.rtt_seq {
                    self.rtt_seq = seqno;
                    self.rtt_ts = sim.w.s.now;
                }
            }
        } else {
            self.inc(b, &mut sim.w, Tv::Nrexmitpack, 1);
            self.inc(b, &mut sim.w, Tv::Nrexmitbytes, databytes);
        }
        debug_assert_eq!(self.rtx_pending, sim.w.s.timer_status(self.rtx_timer) == TimerStatus::Pending);
        if !self.rtx_pending || force_rtx {
            self.set_rtx_timer(&mut sim.w);
        }
    }

    fn force_wnd(&self, num: i32) -> i32 {
        self.recover + num - self.highest_ack
    }

    /// Set `window_` (and `wnd_int`).
    pub fn set_wnd(&mut self, v: f64) {
        self.wnd = v;
        self.wnd_int = v as i32;
    }

    /// The usable window in packets (`window()`, virtual in ns-2:
    /// `TcpAgent`'s, or `RenoTcpAgent`'s with `reno_window`).
    pub fn window(&self) -> i32 {
        debug_assert_eq!(self.wnd_int, self.wnd as i32, "wnd set without set_wnd");
        if self.reno_window {
            let mut win = (self.cwnd as i32 as u32).wrapping_add(self.dupwnd) as i32;
            if self.frto.frto == 2 {
                win = self.force_wnd(2);
            }
            if win > self.wnd_int {
                win = self.wnd_int;
            }
            win
        } else if self.frto.frto == 2 {
            let f = self.force_wnd(2);
            if (f as f64) < self.wnd {
                f
            } else {
                self.wnd_int
            }
        } else if self.cwnd < self.wnd {
            self.cwnd as i32
        } else {
            self.wnd_int
        }
    }

    /// `windowd()`: the window as a double (`TcpAgent`'s, or
    /// `RenoTcpAgent`'s with `reno_window`).
    fn windowd(&self) -> f64 {
        if self.reno_window {
            let win = self.cwnd + self.dupwnd as f64;
            if win > self.wnd {
                self.wnd
            } else {
                win
            }
        } else if self.cwnd < self.wnd {
            self.cwnd
        } else {
            self.wnd
        }
    }

    /// `TcpAgent::send_much` of the senders that use `TcpAgent::output`.
    #[inline]
    fn send_much_tcp(&mut self, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32, maxburst: i32) {
        self.send_much_with(&mut Base, b, sim, force, reason, maxburst, None)
    }

    /// `send_much(0, 0, maxburst)` at the end of Tahoe's, Reno's and
    /// NewReno's `recv`, which ns-2 calls right after freeing the ACK
    /// `ack_pkt`: the ACK's packet is handed to the loop instead, which
    /// writes the first segment it sends into it (as `allocpkt` would
    /// have: the pool hands out the slot freed last, and `initpkt` draws
    /// the uid as `allocpkt` does) or frees it if it sends nothing.  One
    /// free and one allocation less per ACK.
    #[inline]
    fn send_much_ack(&mut self, b: &mut AgentBase, sim: &mut Sim, ack_pkt: PktId, maxburst: i32) {
        self.send_much_with(&mut Base, b, sim, false, 0, maxburst, Some(ack_pkt))
    }

    /// `TcpAgent::send_much`, the sending loop, with the flavour's
    /// `output` (`v`) chosen at compile time, so no loop tests the flavour
    /// per packet.  `spare`, a packet to send the first segment in
    /// (`send_much_ack`; `Base` only), is freed if none is sent.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn send_much_with<V: Virtuals>(
        &mut self,
        v: &mut V,
        b: &mut AgentBase,
        sim: &mut Sim,
        force: bool,
        reason: i32,
        maxburst: i32,
        mut spare: Option<PktId>,
    ) {
        debug_assert!(V::OUTPUT_KEEPS_WINDOW || spare.is_none());
        let mut win = self.window();
        let mut npackets = 0;
        if !force && self.delsnd_pending(&sim.w) {
            Self::free_spare(sim, spare);
            return;
        }
        if self.t_seqno == 0 {
            self.firstsent = sim.w.s.now;
        }
        // (ns-2 returns here too if `burstsnd_timer_` is pending; it never
        // is, see `burstsnd_timer`.)
        while self.t_seqno <= self.highest_ack + win && self.t_seqno < self.curseq {
            if self.overhead == 0.0 || force {
                let s = self.t_seqno;
                v.output(self, b, sim, s, reason, spare.take());
                npackets += 1;
                if self.qopt.qoption != 0 {
                    self.process_qoption_after_send(b, &mut sim.w);
                }
                self.inc(b, &mut sim.w, Tv::TSeqno, 1);
            } else if !self.delsnd_pending(&sim.w) {
                self.delsnd_resched(&mut sim.w);
                Self::free_spare(sim, spare);
                return;
            }
            // TcpAgent's `output` changes nothing `window()` reads, and
            // nothing the packet meets on its way can (this sender is
            // borrowed here; Tcl callbacks run after the event): only the
            // `QOption_` work (`slowdown`) and Vegas's and RFC793edu's
            // `output` may, so only they need it worked out again (one
            // saturating cast and a dozen instructions a packet less).
            if !V::OUTPUT_KEEPS_WINDOW || self.qopt.qoption != 0 {
                win = self.window();
            }
            debug_assert_eq!(win, self.window());
            if maxburst != 0 && npackets == maxburst {
                break;
            }
        }
        Self::free_spare(sim, spare);
    }

    /// Free the sending loop's spare packet if it was not used.
    #[inline(always)]
    fn free_spare(sim: &mut Sim, spare: Option<PktId>) {
        if let Some(p) = spare {
            sim.w.pool.free(p);
        }
    }

    /// Is the delayed-send timer (`overhead_`) pending?
    #[inline(always)]
    fn delsnd_pending(&self, w: &World) -> bool {
        self.delsnd_used && w.s.timer_status(self.delsnd_timer) == TimerStatus::Pending
    }

    /// Schedule the delayed-send timer `Random::uniform(overhead_)` ahead.
    fn delsnd_resched(&mut self, w: &mut World) {
        self.delsnd_used = true;
        let d = w.rng.default_stream().uniform(self.overhead);
        w.s.timer_resched(self.delsnd_timer, d);
    }

    fn set_rtx_timer(&mut self, w: &mut World) {
        let t = self.rtt_timeout_cached();
        w.s.timer_resched(self.rtx_timer, t);
        self.rtx_pending = true;
    }

    fn reset_rtx_timer(&mut self, b: &AgentBase, w: &mut World, mild: bool, backoff: bool) {
        if backoff {
            self.rtt_backoff(b, w);
        }
        self.set_rtx_timer(w);
        if !mild {
            let s = self.highest_ack + 1;
            self.seti(b, w, Tv::TSeqno, s);
        }
        self.rtt_active = false;
    }

    fn cancel_rtx_timer(&mut self, w: &mut World) {
        w.s.timer_cancel(self.rtx_timer);
        self.rtx_pending = false;
    }

    /// `TcpAgent::newtimer`.  Inlined: every new ACK calls it.
    #[inline(always)]
    fn newtimer(&mut self, w: &mut World, ack: &AckInfo) {
        if self.t_seqno > ack.seqno || ack.seqno < self.maxseq || self.cwnd < 1.0 {
            self.set_rtx_timer(w);
        } else {
            self.cancel_rtx_timer(w);
        }
    }

    // ---- window dynamics ----------------------------------------------------

    /// `TcpAgent::opencwnd`: slow start or congestion avoidance.
    fn opencwnd(&mut self, b: &AgentBase, w: &mut World) {
        if self.cwnd < self.ssthresh as f64 {
            let c = self.cwnd + 1.0;
            self.set_cwnd(b, w, c);
        } else if let Some(c) = self.growth_increase(w) {
            self.set_cwnd(b, w, c);
        }
        if self.maxcwnd != 0 {
            self.cap_cwnd(b, w);
        }
    }

    /// The end of `opencwnd`: `maxcwnd_`, when set, caps cwnd_.  Out of
    /// line: rarely set, and inlined, the compiler works out the cast on
    /// every ACK.
    #[cold]
    #[inline(never)]
    fn cap_cwnd(&mut self, b: &AgentBase, w: &mut World) {
        if (self.cwnd as i32) > self.maxcwnd {
            let c = self.maxcwnd as f64;
            self.set_cwnd(b, w, c);
        }
    }

    /// `TcpAgent::slowdown`: reduce ssthresh and/or cwnd (with the growth
    /// rule's decrease, and New-ECN's cut by its own factor).
    fn slowdown(&mut self, b: &AgentBase, w: &mut World, how: u32) {
        let mut slowstart = false;
        self.inc(b, w, Tv::Ncwndcuts, 1);
        if how & TCP_IDLE == 0 && how & NO_OUTSTANDING_DATA == 0 {
            self.inc(b, w, Tv::Ncwndcuts1, 1);
        }
        if self.cwnd < self.ssthresh as f64 {
            slowstart = true;
        }
        let (windowd, window) = (self.windowd(), self.window());
        let halfwin = if self.precision_reduce { windowd / 2.0 } else { (window / 2) as f64 };
        let decreasewin =
            self.growth.decreased_window(self.cwnd, windowd, window, self.precision_reduce, &mut self.decrease_num);
        let win = if self.precision_reduce { windowd } else { window as f64 };
        if how & CLOSE_SSTHRESH_HALF != 0 {
            if self.first_decrease || slowstart || self.last_cwnd_action == CWND_ACTION_TIMEOUT {
                self.seti(b, w, Tv::Ssthresh, halfwin as i32);
            } else {
                self.seti(b, w, Tv::Ssthresh, decreasewin as i32);
            }
        } else if how & THREE_QUARTER_SSTHRESH != 0 && (self.ssthresh as f64) < 3.0 * self.cwnd / 4.0 {
            self.seti(b, w, Tv::Ssthresh, (3.0 * self.cwnd / 4.0) as i32);
        }
        if how & CLOSE_SSTHRESH_NEW != 0 {
            if let Some(factor) = self.growth.ecn_factor() {
                let s = (self.ssthresh as f64 * factor) as i32;
                self.seti(b, w, Tv::Ssthresh, s);
            }
        }
        if how & CLOSE_CWND_HALF != 0 {
            if self.first_decrease || slowstart || self.decrease_num == 0.5 {
                self.set_cwnd(b, w, halfwin);
            } else {
                self.set_cwnd(b, w, decreasewin);
            }
        } else if how & CWND_HALF_WITH_MIN != 0 {
            self.set_cwnd(b, w, decreasewin);
            if self.cwnd < 1.0 {
                self.set_cwnd(b, w, 1.0);
            }
        } else if how & CLOSE_CWND_RESTART != 0 {
            let c = self.wnd_restart as i32 as f64;
            self.set_cwnd(b, w, c);
        } else if how & CLOSE_CWND_INIT != 0 {
            let c = self.wnd_init as i32 as f64;
            self.set_cwnd(b, w, c);
        } else if how & CLOSE_CWND_ONE != 0 {
            self.set_cwnd(b, w, 1.0);
        } else if how & CLOSE_CWND_HALF_WAY != 0 {
            let c = self.qopt.w_used as f64 + self.decrease_num * (win - self.qopt.w_used as f64);
            self.set_cwnd(b, w, c);
            if self.cwnd < 1.0 {
                self.set_cwnd(b, w, 1.0);
            }
        } else if how & CLOSE_CWND_NEW != 0 {
            if let Some(factor) = self.growth.ecn_factor() {
                // (the window before the cut: nothing above changed it)
                let smallwin = (window as f64 * factor) as i32;
                if smallwin >= 0 {
                    self.set_cwnd(b, w, smallwin as f64);
                }
            }
        }
        if self.ssthresh < 2 {
            self.seti(b, w, Tv::Ssthresh, 2);
        }
        if how & (CLOSE_CWND_HALF | CLOSE_CWND_RESTART | CLOSE_CWND_INIT | CLOSE_CWND_ONE | CLOSE_CWND_NEW) != 0 {
            self.cong_action = true;
        }
        // (ns-2's `fcnt_ = count_ = 0`; New-ECN's slope)
        self.growth.after_cut(&mut self.parked, how, w.s.now);
        if self.first_decrease {
            self.first_decrease = false;
        }
        if self.cwnd == 1.0 || slowstart {
            self.trace_event(b, w, crate::trace::TcpEvent::SlowStart);
        }
    }

    /// `TcpAgent::newack`: an ACK for new data.  (SACK's and Vegas's
    /// callers; `recv_newack_helper` has it inlined.)
    #[inline(never)]
    fn newack(&mut self, b: &AgentBase, w: &mut World, ack: &AckInfo) {
        self.newack_inline(b, w, ack)
    }

    /// `newack` itself, inlined into `recv_newack_helper`, through which
    /// nearly every new ACK comes: one call less per ACK.
    #[inline(always)]
    fn newack_inline(&mut self, b: &AgentBase, w: &mut World, ack: &AckInfo) {
        let now = w.s.now;
        if !self.timerfix {
            self.newtimer(w, ack);
        }
        self.seti(b, w, Tv::Dupacks, 0);
        self.last_ack = ack.seqno;
        self.prev_highest_ack = self.highest_ack;
        let la = self.last_ack;
        self.seti(b, w, Tv::Ack, la);
        if self.t_seqno < self.last_ack + 1 {
            self.seti(b, w, Tv::TSeqno, la + 1);
        }
        if !ack.no_ts {
            if self.ts_option {
                self.ts_echo = ack.ts_echo;
                self.rtt_update(b, w, now - ack.ts_echo);
                if self.ts_reset_rto && (!self.ect || !self.ecn_backoff || !ack.ecnecho) {
                    self.seti(b, w, Tv::Backoff, 1);
                    self.ecn_backoff = false;
                }
            }
            if self.rtt_active && ack.seqno >= self.rtt_seq {
                if !self.ect || !self.ecn_backoff || !ack.ecnecho {
                    self.seti(b, w, Tv::Backoff, 1);
                    self.ecn_backoff = false;
                }
                self.rtt_active = false;
                if !self.ts_option {
                    let tao = now - self.rtt_ts;
                    self.rtt_update(b, w, tao);
                }
            }
        }
        if self.timerfix {
            self.newtimer(w, ack);
        }
        self.awnd *= 1.0 - self.wnd_th;
        self.awnd += self.wnd_th * self.cwnd;
    }

    /// `TcpAgent::ecn`: respond to ECN-Echo at most once per window (with
    /// the flavour's `rtt_backoff`).
    fn ecn_response<V: Virtuals>(&mut self, v: &mut V, b: &AgentBase, w: &mut World, seqno: i32) {
        if seqno > self.recover || self.last_cwnd_action == CWND_ACTION_TIMEOUT {
            self.recover = self.maxseq;
            self.last_cwnd_action = CWND_ACTION_ECN;
            if self.cwnd <= 1.0 {
                if self.ecn_backoff {
                    v.rtt_backoff(self, b, w);
                } else {
                    self.ecn_backoff = true;
                }
            } else {
                self.ecn_backoff = false;
            }
            if self.growth.ecn_factor().is_some() {
                // The rule's own cut (New-ECN's alpha_wnd).
                self.slowdown(b, w, CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW);
            } else {
                self.slowdown(b, w, CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF);
            }
            self.inc(b, w, Tv::Necnresponses, 1);
        }
    }

    fn network_limited(&self) -> bool {
        self.t_seqno > self.prev_highest_ack + self.window()
    }

    /// `TcpAgent::recv_newack_helper`.
    fn recv_newack_helper(&mut self, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
        self.newack_inline(b, &mut sim.w, ack);
        // (New-ECN opens the window on every ACK without ECN-Echo; old_ecn_
        // does not apply to it.)
        let open = !self.ect || !ack.ecnecho || (self.old_ecn && self.ecn_burst && self.growth.opens_in_ecn_burst());
        if open {
            if self.control_increase == 0 || self.network_limited() {
                self.opencwnd(b, &mut sim.w);
            }
        }
        if self.ect {
            if !ack.ecnecho {
                self.ecn_backoff = false;
            }
            if !self.ecn_burst && ack.ecnecho {
                self.ecn_burst = true;
            } else if self.ecn_burst && !ack.ecnecho {
                self.ecn_burst = false;
            }
        }
        if !self.ect && ack.ecnecho && !ack.cong_action {
            self.ect = true;
        }
        if self.highest_ack >= self.curseq - 1 && !self.closed {
            self.closed = true;
            self.finish(b, sim);
        }
        if self.qopt.qoption != 0 && self.curseq == self.highest_ack + 1 {
            self.cancel_rtx_timer(&mut sim.w);
        }
        self.frto_newack(b, &mut sim.w);
    }

    /// `TcpAgent::trace_event`: the event trace this sender was given, if
    /// any, records `ev` (an `E` line of `$ns eventtrace-all`).
    fn trace_event(&self, b: &AgentBase, w: &mut World, ev: crate::trace::TcpEvent) {
        if self.et == crate::sim::NONE {
            return;
        }
        let now = w.s.now;
        w.out.with_tracer(|t, out| t.tcp_event(out, now, self.et, b, self, ev));
    }

    /// `TcpAgent::finish`: the connection sent all it had; `$agent done`.
    fn finish(&mut self, b: &AgentBase, sim: &mut Sim) {
        sim.w.notify(crate::notice::Notice::SenderDone { agent: b.id });
    }

    fn initial_window(&self, b: &AgentBase, w: &mut World) -> f64 {
        if self.wnd_init_option == 1 {
            return self.wnd_init;
        } else if self.wnd_init_option == 2 {
            if b.size <= 1095 {
                return 4.0;
            } else if b.size < 2190 {
                return 3.0;
            } else {
                return 2.0;
            }
        }
        w.warn(crate::notice::Warning::InitialWindowOption { agent: b.id, option: self.wnd_init_option });
        2.0
    }

    /// `TcpAgent::send_one`: limited transmit on the first dup ACKs.
    fn send_one(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        if (self.t_seqno as f64) <= self.highest_ack as f64 + self.wnd
            && self.t_seqno < self.curseq
            && (self.t_seqno as f64) <= self.highest_ack as f64 + self.cwnd + self.dupacks as f64
        {
            let s = self.t_seqno;
            self.output(b, sim, s, 0);
            if self.qopt.qoption != 0 {
                self.process_qoption_after_send(b, &mut sim.w);
            }
            self.inc(b, &mut sim.w, Tv::TSeqno, 1);
        }
    }

    /// Every flavour's `recv`, after a new ACK: the first one (`last_ack_`
    /// was 0) opens the window to the initial window when `delay_growth_`
    /// held it back.
    #[inline(always)]
    fn first_ack_window(&mut self, b: &AgentBase, w: &mut World) {
        if self.last_ack == 0 && self.delay_growth {
            let iw = self.initial_window(b, w);
            self.set_cwnd(b, w, iw);
        }
    }

    /// Every flavour's `recv`, at a duplicate ACK: one carrying ELN (with
    /// `eln_` on) goes to `tcp_eln` and is freed (true: nothing more to do).
    #[inline(always)]
    fn eln_dupack<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo, p: PktId) -> bool {
        if ack.eln && self.eln != 0 {
            self.tcp_eln(v, b, sim, ack);
            sim.w.pool.free(p);
            return true;
        }
        false
    }

    /// `TcpAgent::tcp_eln` (with the flavour's `output`).
    #[cold]
    #[inline(never)]
    fn tcp_eln<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
        self.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if self.dupacks == self.eln_rxmit_thresh && ack.seqno > self.eln_last_rxmit {
            let s = self.last_ack + 1;
            v.output(self, b, sim, s, REASON_DUPACK, None);
            self.eln_last_rxmit = self.last_ack + 1;
        } else {
            let mb = self.maxburst;
            self.send_much_with(v, b, sim, false, 0, mb, None);
        }
    }

    // ---- receiving and timeouts (the flavour's code calls these) ----------

    /// Common start of `recv` in every flavour: stale-incarnation check,
    /// counters, ECN response.  Returns false if the packet was discarded.
    /// Inlined: it runs on every ACK and is mostly tests of flags that are
    /// off, cheaper than the call.
    #[inline(always)]
    fn recv_prologue(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) -> bool {
        if ack.ts < self.lastreset {
            sim.w.pool.free(p);
            return false;
        }
        self.inc(b, &mut sim.w, Tv::Nackpack, 1);
        self.ts_peer = ack.ts;
        if ack.ecnecho && self.ecn {
            self.ecn_response(&mut Base, b, &mut sim.w, ack.seqno);
        }
        if self.ecn {
            self.mark = if ack.ecnecho { 1.0 } else { 0.0 };
        }
        self.recv_frto_helper(b, &mut sim.w, ack);
        true
    }

    /// `TcpAgent::timeout`, with the flavour's `output` and `rtt_backoff`
    /// (`Tcp::timeout` has cleared `rtx_pending` for `TIMER_RTX`).
    fn timeout_with<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
        match tno {
            TIMER_RTX => {
                self.rtx_timeout(v, b, sim);
                let mb = self.maxburst;
                self.send_much_with(v, b, sim, false, REASON_TIMEOUT, mb, None);
            }
            TIMER_DELSND => {
                let mb = self.maxburst;
                self.send_much_with(v, b, sim, true, REASON_TIMEOUT, mb, None);
            }
            _ => {}
        }
    }

    /// `TcpAgent::timeout(TCP_TIMER_RTX)` but for its last step, sending
    /// (`send_much(0, TCP_REASON_TIMEOUT, maxburst_)`), which the caller
    /// does with its flavour's sending loop.
    fn rtx_timeout<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim) {
        let w = &mut sim.w;
        self.trace_event(b, w, crate::trace::TcpEvent::Timeout);
        self.frto.frto = 0;
        self.frto.pipe_prev = if self.window() > self.ssthresh { self.window() } else { self.ssthresh };
        if self.cwnd < 1.0 {
            self.set_cwnd(b, w, 1.0);
        }
        if self.highest_ack == self.maxseq && !self.slow_start_restart {
            // No outstanding data and no slow-start restart: nothing to do.
        } else {
            self.recover = self.maxseq;
            if self.highest_ack == -1 && self.wnd_init_option == 2 {
                self.wnd_init_option = 1;
            } else if self.highest_ack == -1 && self.wnd_init_option == 1 && self.wnd_init > 1.0 && self.bugfix_ss {
                self.wnd_init = 1.0;
            }
            if self.highest_ack == self.maxseq && self.restart_bugfix {
                self.slowdown(b, w, CLOSE_CWND_ONE | NO_OUTSTANDING_DATA);
            } else if self.highest_ack < self.recover && self.last_cwnd_action == CWND_ACTION_ECN {
                self.slowdown(b, w, CLOSE_CWND_ONE);
                if self.frto.frto_enabled || self.frto.sfrto_enabled {
                    self.frto.frto = 1;
                }
            } else {
                self.inc(b, w, Tv::Nrexmit, 1);
                self.last_cwnd_action = CWND_ACTION_TIMEOUT;
                self.slowdown(b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
                if self.frto.frto_enabled || self.frto.sfrto_enabled {
                    self.frto.frto = 1;
                }
            }
        }
        if self.highest_ack == self.maxseq && self.restart_bugfix {
            self.reset_rtx_timer(b, w, false, false);
        } else {
            // `reset_rtx_timer(0, 1)`, backing off as the flavour does.
            v.rtt_backoff(self, b, w);
            self.reset_rtx_timer(b, w, false, false);
        }
        self.last_cwnd_action = CWND_ACTION_TIMEOUT;
    }

    /// Set traced variable `tv` as an assignment from outside (a script)
    /// does: it traces like the sender's own assignments.  `cwnd_` takes
    /// the real value, the integers `v` truncated as C truncates.
    pub fn set_traced(&mut self, b: &AgentBase, w: &mut World, tv: Tv, v: TracedValue) {
        match (tv, v) {
            (Tv::Cwnd, TracedValue::Real(v)) => self.set_cwnd(b, w, v),
            (Tv::Cwnd, TracedValue::Int(v)) => self.set_cwnd(b, w, v as f64),
            (_, TracedValue::Int(v)) => self.seti(b, w, tv, v),
            (_, TracedValue::Real(v)) => self.seti(b, w, tv, crate::num::c_int(v)),
        }
    }

    /// Current numeric value of a traced integer.
    pub fn traced_int(&self, tv: Tv) -> i32 {
        match tv {
            Tv::TSeqno => self.t_seqno,
            Tv::Dupacks => self.dupacks,
            Tv::Curseq => self.curseq,
            Tv::Ack => self.highest_ack,
            Tv::Ssthresh => self.ssthresh,
            Tv::Maxseq => self.maxseq,
            Tv::Rtt => self.t_rtt,
            Tv::Srtt => self.t_srtt,
            Tv::Rttvar => self.t_rttvar,
            Tv::Backoff => self.t_backoff,
            Tv::Ndatapack => self.ndatapack,
            Tv::Ndatabytes => self.ndatabytes,
            Tv::Nackpack => self.nackpack,
            Tv::Nrexmit => self.nrexmit,
            Tv::Nrexmitpack => self.nrexmitpack,
            Tv::Nrexmitbytes => self.nrexmitbytes,
            Tv::Necnresponses => self.necnresponses,
            Tv::Ncwndcuts => self.ncwndcuts,
            Tv::Ncwndcuts1 => self.ncwndcuts1,
            Tv::Singledup => self.singledup,
            Tv::Cwnd => self.cwnd as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::PacketType;

    #[test]
    fn window_is_capped_by_window_as_set_from_tcl() {
        let mut sim = Sim::new();
        for flavor in [Flavor::Tahoe, Flavor::Reno] {
            let mut agent = Tcp::new(flavor, &mut sim, 0);
            agent.sender.set_wnd(30.5);
            assert_eq!(agent.sender.wnd(), 30.5);
            let t = &mut agent.sender;
            t.cwnd = 100.0;
            assert_eq!(t.window(), 30);
            t.cwnd = 12.5;
            assert_eq!(t.window(), 12);
            t.set_wnd(8.0);
            assert_eq!(t.window(), 8);
        }
    }

    /// `rto`, kept for `set_rtx_timer`, against `rtt_timeout()` worked out
    /// afresh after each of its inputs changes (each change moves it, so a
    /// setter without `note_rto`, or a key missing an input, fails here in
    /// a release build too, where `rtt_timeout_cached`'s check is off).
    #[test]
    fn kept_rto_follows_each_input() {
        let mut sim = Sim::new();
        let mut agent = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        agent.sender.set_rfc2988(true);
        agent.sender.set_minrto(0.2);
        agent.reset(&mut b, &mut sim);
        let mut last = agent.sender.rtt_timeout_cached();
        let mut step = |t: &mut Sender, what: &str, want: f64| {
            let fresh = t.rtt_timeout_of();
            assert_eq!(fresh, want, "{what}: rtt_timeout()");
            assert_ne!(fresh, last, "{what} moves the RTO");
            assert_eq!(t.rtt_timeout_cached().to_bits(), fresh.to_bits(), "{what}: kept RTO");
            last = fresh;
        };
        agent.sender.t_rtxcur = 1.25;
        step(&mut agent.sender, "t_rtxcur_", 1.25);
        agent.sender.seti(&b, &mut sim.w, Tv::Backoff, 4);
        step(&mut agent.sender, "t_backoff_", 5.0);
        agent.sender.set_minrto(2.0);
        step(&mut agent.sender, "minrto_", 8.0);
        agent.sender.set_rfc2988(false);
        step(&mut agent.sender, "rfc2988_", 5.0);
        agent.sender.set_maxrto(3.0);
        step(&mut agent.sender, "maxrto_", 3.0);
        agent.sender.set_tcp_tick(2.0);
        step(&mut agent.sender, "tcpTick_", 4.0);
        // Backing off (as a timeout does) moves it through the key too.
        agent.sender.rtt_backoff(&b, &mut sim.w);
        assert_eq!(agent.sender.t_backoff, 8);
        agent.sender.set_maxrto(100.0);
        step(&mut agent.sender, "backoff, maxrto_", 10.0);
    }

    /// `last_rtt_ms`, which `output` stamps on every packet, after `t_rtt_`
    /// or `tcpTick_` changes.
    #[test]
    fn kept_last_rtt_follows_t_rtt_and_tcp_tick() {
        let mut sim = Sim::new();
        let mut agent = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        agent.sender.set_tcp_tick(0.5);
        agent.reset(&mut b, &mut sim);
        agent.sender.seti(&b, &mut sim.w, Tv::Rtt, 7);
        assert_eq!(agent.sender.last_rtt_ms, 3500);
        agent.sender.set_tcp_tick(0.25);
        assert_eq!(agent.sender.last_rtt_ms, 1750);
        agent.sender.seti(&b, &mut sim.w, Tv::Rtt, 3);
        assert_eq!(agent.sender.last_rtt_ms, 750);
    }

    /// `rtx_pending` against the scheduler's status of the retransmission
    /// timer through setting, cancelling, `reset` and the timer firing.
    #[test]
    fn rtx_pending_follows_the_timer() {
        let mut sim = Sim::new();
        let mut t = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        t.reset(&mut b, &mut sim);
        let check = |t: &Tcp, sim: &Sim, want: bool| {
            assert_eq!(sim.w.s.timer_status(t.sender.rtx_timer) == TimerStatus::Pending, want);
            assert_eq!(t.sender.rtx_pending, want);
        };
        check(&t, &sim, false);
        t.sender.set_rtx_timer(&mut sim.w);
        check(&t, &sim, true);
        t.sender.cancel_rtx_timer(&mut sim.w);
        check(&t, &sim, false);
        t.sender.set_rtx_timer(&mut sim.w);
        t.reset(&mut b, &mut sim);
        check(&t, &sim, false);
        t.sender.set_rtx_timer(&mut sim.w);
        assert!(matches!(sim.w.s.next(), Some(crate::sched::Fired::Timer(..))));
        // Handled now, no longer pending; the sender learns it in `timeout`.
        assert_eq!(sim.w.s.timer_status(t.sender.rtx_timer), TimerStatus::Handling);
        t.timeout(&mut b, &mut sim, TIMER_RTX);
        // Reno's timeout backs off and sets the timer again.
        check(&t, &sim, true);
    }

    /// The ACK's packet handed to the sending loop is freed on each of its
    /// ways out without sending: nothing to send, `overhead_` starting the
    /// delayed-send timer, and that timer already pending.
    #[test]
    fn send_much_ack_frees_the_ack_when_it_sends_nothing() {
        let mut sim = Sim::new();
        let mut agent = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        agent.reset(&mut b, &mut sim);
        let p = sim.w.pool.alloc();
        agent.sender.send_much_ack(&mut b, &mut sim, p, 0);
        assert_eq!(sim.w.pool.live(), 0, "curseq_ 0: nothing to send");
        agent.sender.overhead = 0.5;
        let t = &mut agent.sender;
        t.seti(&b, &mut sim.w, Tv::Curseq, 10);
        let p = sim.w.pool.alloc();
        t.send_much_ack(&mut b, &mut sim, p, 0);
        assert_eq!(sim.w.pool.live(), 0, "overhead_: delayed");
        assert!(t.delsnd_pending(&sim.w));
        let p = sim.w.pool.alloc();
        t.send_much_ack(&mut b, &mut sim, p, 0);
        assert_eq!(sim.w.pool.live(), 0, "delayed-send timer pending");
        assert_eq!(t.t_seqno, 0);
    }

    #[test]
    fn delsnd_timer_is_pending_only_once_scheduled() {
        let mut sim = Sim::new();
        let mut agent = Tcp::new(Flavor::Reno, &mut sim, 0);
        let mut b = AgentBase::new(0, PacketType::Tcp);
        agent.sender.overhead = 0.5;
        agent.reset(&mut b, &mut sim);
        let t = &mut agent.sender;
        assert!(!t.delsnd_used);
        assert!(!t.delsnd_pending(&sim.w));
        t.delsnd_resched(&mut sim.w);
        assert!(t.delsnd_pending(&sim.w));
        assert_eq!(sim.w.s.timer_status(t.delsnd_timer), TimerStatus::Pending);
        // `reset` cancels it; the flag stays, the timer's status decides.
        agent.reset(&mut b, &mut sim);
        let t = &mut agent.sender;
        assert!(t.delsnd_used);
        assert!(!t.delsnd_pending(&sim.w));
    }
}
