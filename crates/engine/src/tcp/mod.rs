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
//! `rfc793edu.rs` is ns-2's educational RFC 793 sender; `fack.rs` and
//! `sackrh.rs` are the forward-acknowledgement and rate-halving SACK
//! senders, each with its own scoreboard and sending loop; `rbp.rs`
//! wraps Reno or Vegas with rate-based pacing after idle periods.  Where shared code
//! calls a function a flavour overrides in ns-2 (`output`, `rtt_backoff`) it
//! is generic over `Virtuals`.  How the window grows in congestion
//! avoidance (`windowOption_`: standard, HighSpeed, New-ECN, ...) is the
//! sender's `Growth` rule (`growth/`).
//!
//! The shared sender is this file (its state, `reset`) and, by part of
//! tcp.cc: `output.rs` (`output`, `send_much`, the window, timers),
//! `rtt.rs` (the RTT estimator and RTO), `window.rs` (`opencwnd`,
//! `slowdown`, `newack`, ECN), `recv.rs` (the start of every `recv`, the
//! timeout response), `traced.rs` (traced variables); option groups in
//! `qoption.rs` (`QOption_`) and `frto.rs` (F-RTO).
//!
//! Field names follow ns-2's C++ members so the code can be checked line by
//! line against the original; the Tcl names of bound variables are in
//! the ns-2 layer's `ns2/class/tcp.rs`.

pub mod bay;
pub mod fack;
mod frto;
pub mod full;
pub mod growth;
pub mod linux;
mod newreno;
mod output;
mod qoption;
mod quickstart;
pub mod rbp;
mod recv;
mod reno;
pub mod rfc793edu;
mod rtt;
pub mod sack1;
pub mod sackrh;
pub mod scoreboard1;
mod tahoe;
mod traced;
pub mod vegas;
mod window;
pub mod xcp;

use crate::agent::AgentBase;
use crate::packet::PktId;
use crate::sched::TimerStatus;
use crate::sim::{Sim, World};

pub use growth::newecn::{CLOSE_CWND_NEW, CLOSE_SSTHRESH_NEW};
pub use frto::Frto;
pub use growth::Growth;
pub use newreno::NewRenoState;
pub use qoption::QOption;
pub use quickstart::QuickStart;

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
    /// `Agent/TCP/Fack`: SACK recovery counting what is in flight from
    /// the forward-most SACKed packet (`fack.rs`).
    Fack(Box<fack::FackState>),
    /// `Agent/TCP/SackRH`: SACK with rate halving (`sackrh.rs`).
    SackRh(Box<sackrh::SackRhState>),
    /// `Agent/TCP/RFC793edu`: RFC 793 with switchable later algorithms
    /// (loss recovery, when switched on, is Tahoe's).
    Rfc793edu(Box<rfc793edu::Rfc793State>),
    /// `Agent/TCP/Vegas`: delay-based window control with its own
    /// fine-grained RTT measurement and retransmission (`vegas.rs`).
    Vegas(Box<vegas::VegasState>),
    /// `Agent/TCP/Linux`: Linux's congestion control modules (`crate::cc`)
    /// with its own ACK processing and SACK scoreboard (`linux.rs`).
    Linux(Box<linux::LinuxState>),
    /// Two-way TCP (`full/`): connection set-up and tear-down, byte
    /// sequence numbers, its own receive side and sending loop.
    Full(Box<full::FullState>),
    /// `Agent/TCP/BayFullTcp`: Bay Networks' two-way TCP, with its
    /// request/response applications called back from `recv` (`bay.rs`).
    Bay(Box<bay::BayState>),
    /// `Agent/TCP/Reno/RBP`, `Agent/TCP/Vegas/RBP`: Reno or Vegas pacing
    /// its window out after an idle period (`rbp.rs`).
    Rbp(Box<rbp::RbpState>),
    /// `Agent/TCP/Reno/XCP`: Reno whose window only the XCP routers'
    /// feedback moves (`xcp.rs`; its state is the sender's `xcp`).
    Xcp,
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
    /// `newecn_`: `windowOption_ 8` means New-ECN rather than HighSpeed
    /// TCP (`select_growth`).
    pub newecn: bool,
    /// `ecnmod_`: the ECN-mod rule (`growth/ecnmod.rs`) whatever
    /// `windowOption_` says (`select_growth`).
    pub ecnmod: bool,
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
    /// With `ecn`: send ECT(1) rather than ECT(0) (an L4S congestion
    /// control, Agent/TCP/Linux's `select_ca prague`).
    pub ect1: bool,
    /// `ect1` or `xcp`: `output` marks or stamps its packets
    /// (`set_out_extra`).
    out_extra: bool,
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
    /// An XCP sender's end-system state (`Flavor::Xcp`; `xcp.rs`).
    pub xcp: Option<Box<xcp::XcpEnd>>,
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
    /// Quick-Start's parameters and state (`quickstart.rs`).
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
        let reno_window = match &flavor {
            Flavor::Reno | Flavor::NewReno(_) | Flavor::Xcp => true,
            Flavor::Rbp(r) => matches!(r.paced, rbp::Paced::Reno),
            _ => false,
        };
        let mut flavor = flavor;
        let mut sender = Sender::new(reno_window, sim, owner);
        if matches!(flavor, Flavor::Xcp) {
            sender.xcp = Some(Box::default());
            sender.set_out_extra();
        }
        if let Flavor::Rbp(r) = &mut flavor {
            r.timer = sim.w.s.new_timer(owner, rbp::TIMER_PACE);
        }
        Tcp { flavor, sender }
    }

    /// `TcpAgent::reset` with the flavour's additions before it, run at
    /// creation and by `$ns run` for every agent.
    pub fn reset(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Sack1(s) => s.scb.clear(),
            Flavor::Fack(s) => s.scb.clear(),
            Flavor::SackRh(_) => {}
            Flavor::Rfc793edu(s) => rfc793edu::reset(t, s),
            Flavor::Vegas(v) => v.reset(),
            Flavor::Rbp(r) => {
                if let rbp::Paced::Vegas(v) = &mut r.paced {
                    v.reset();
                }
            }
            Flavor::Linux(s) => return linux::reset(t, s, b, sim),
            Flavor::Full(f) => {
                // `XcpEndsys::rtt_init` for the two-way XCP agent
                if let Some(x) = t.xcp.as_mut() {
                    x.srtt_estimate = 0.0;
                }
                return full::Full { t, f, b }.reset(sim);
            }
            Flavor::Bay(f) => return bay::Bay { t, f, b }.reset(sim),
            Flavor::Xcp => {
                // `XcpEndsys::rtt_init`
                if let Some(x) = t.xcp.as_mut() {
                    x.srtt_estimate = 0.0;
                }
            }
            Flavor::Tahoe | Flavor::Reno | Flavor::NewReno(_) => {}
        }
        t.reset(b, sim);
    }

    /// An ACK arrived: the flavour's `recv`.
    pub fn recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        // Quick-Start first, as TcpAgent's, Reno's, NewReno's and SACK's
        // `recv` begin (`quickstart.rs`)
        if self.sender.qs.armed {
            self.qs_ack(b, sim, p);
        }
        let ack = AckInfo::of(sim, p);
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Tahoe => tahoe::recv(t, b, sim, p, &ack),
            Flavor::Reno => reno::recv(t, b, sim, p, &ack),
            Flavor::NewReno(s) => newreno::recv(t, s, b, sim, p, &ack),
            Flavor::Sack1(s) => sack1::recv(t, s, b, sim, p, &ack),
            Flavor::Fack(_) | Flavor::SackRh(_) | Flavor::Rbp(_) => Self::recv_rare(flavor, t, b, sim, p, &ack),
            Flavor::Rfc793edu(s) => rfc793edu::recv(t, s, b, sim, p, &ack),
            Flavor::Vegas(_) => Self::recv_rare(flavor, t, b, sim, p, &ack),
            Flavor::Linux(s) => linux::recv(t, s, b, sim, p, &ack),
            Flavor::Full(f) => Self::recv_full(t, f, b, sim, p),
            Flavor::Bay(f) => Self::recv_bay(t, f, b, sim, p),
            Flavor::Xcp => xcp::recv(t, b, sim, p, &ack),
        }
    }

    /// The start of `recv` while Quick-Start is armed, for the flavours
    /// whose `recv` looks (the others never ask: their `output` is their
    /// own).
    #[cold]
    #[inline(never)]
    fn qs_ack(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        if matches!(self.flavor, Flavor::Tahoe | Flavor::Reno | Flavor::NewReno(_) | Flavor::Sack1(_)) {
            let pk = sim.w.pool.get(p);
            let (seqno, ts_echo) = (pk.seqno, pk.ts_echo);
            self.sender.qs_on_ack(b, sim, p, seqno, ts_echo);
        }
    }

    /// The `recv` of FACK, SackRH, the pacing senders and Vegas: out of
    /// line, so that their code stays out of the common flavours' path.
    #[cold]
    #[inline(never)]
    fn recv_rare(flavor: &mut Flavor, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
        match flavor {
            Flavor::Fack(s) => fack::recv(t, s, b, sim, p, ack),
            Flavor::SackRh(s) => sackrh::recv(t, s, b, sim, p, ack),
            Flavor::Rbp(s) => rbp::recv(t, s, b, sim, p, ack),
            Flavor::Vegas(s) => vegas::recv(t, s, b, sim, p, ack),
            _ => unreachable!("a rare flavour"),
        }
    }

    /// Two-way TCP's `recv`, out of line: kept out of the one-way
    /// senders' per-ACK path (`Sim::agent_recv` inlines `recv`).
    #[cold]
    #[inline(never)]
    fn recv_full(t: &mut Sender, f: &mut full::FullState, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        full::Full { t, f, b }.recv(sim, p)
    }

    /// The Bay TCP's `recv`, out of line for the same reason.
    #[cold]
    #[inline(never)]
    fn recv_bay(t: &mut Sender, f: &mut bay::BayState, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        bay::Bay { t, f, b }.recv(sim, p)
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
            Flavor::Reno | Flavor::NewReno(_) | Flavor::Xcp => reno::timeout(t, b, sim, tno),
            Flavor::Sack1(s) => sack1::timeout(t, s, b, sim, tno),
            Flavor::Fack(s) => fack::timeout(t, s, b, sim, tno),
            Flavor::SackRh(s) => sackrh::timeout(t, s, b, sim, tno),
            Flavor::Rbp(s) => rbp::timeout(t, s, b, sim, tno),
            Flavor::Rfc793edu(s) => t.timeout_with(&mut **s, b, sim, tno),
            Flavor::Vegas(s) => vegas::timeout(t, s, b, sim, tno),
            Flavor::Linux(s) => linux::timeout(t, s, b, sim, tno),
            Flavor::Full(f) => full::Full { t, f, b }.timeout(sim, tno),
            Flavor::Bay(f) => bay::Bay { t, f, b }.timeout(sim, tno),
        }
    }

    /// `send_much`: send as much as the window allows, with the flavour's
    /// sending loop (SACK's own) or `output` (Vegas's, RFC793edu's).  (A
    /// flavour's own code, which knows which it is, calls its loop
    /// directly.)
    pub fn send_much(&mut self, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32, maxburst: i32) {
        let Tcp { flavor, sender: t } = self;
        match flavor {
            Flavor::Tahoe | Flavor::Reno | Flavor::NewReno(_) | Flavor::Xcp => t.send_much_tcp(b, sim, force, reason, maxburst),
            Flavor::Sack1(s) => sack1::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Fack(s) => fack::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::SackRh(s) => sackrh::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Rbp(s) => rbp::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Rfc793edu(s) => rfc793edu::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Vegas(s) => vegas::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Linux(s) => linux::send_much(t, s, b, sim, force, reason, maxburst),
            Flavor::Full(f) => full::Full { t, f, b }.send_much(sim, force, reason, maxburst),
            Flavor::Bay(f) => bay::Bay { t, f, b }.send_much(sim, force, reason, maxburst),
        }
    }

    /// `TcpAgent::sendmsg`: the application hands over `nbytes` (-1 = forever).
    pub fn sendmsg(&mut self, b: &mut AgentBase, sim: &mut Sim, nbytes: i32) {
        if let Flavor::Full(f) = &mut self.flavor {
            return full::Full { t: &mut self.sender, f, b }.sendmsg(sim, nbytes, false, false);
        }
        let t = &mut self.sender;
        if nbytes == -1 && t.curseq <= TCP_MAXSEQ {
            t.seti(b, &mut sim.w, Tv::Curseq, TCP_MAXSEQ);
        } else {
            let size = b.size;
            if size == 0 || (size == -1 && nbytes == i32::MIN) {
                // C's division traps here (ns-2: SIGFPE)
                sim.w.abort(crate::notice::Abort::PacketSizeDivision { agent: b.id, bytes: nbytes, size });
                return;
            }
            let add = nbytes / size + if nbytes % size != 0 { 1 } else { 0 };
            t.inc(b, &mut sim.w, Tv::Curseq, add);
        }
        let mb = t.maxburst;
        self.send_much(b, sim, false, 0, mb);
    }

    /// `TcpAgent::advanceby`.
    pub fn advanceby(&mut self, b: &mut AgentBase, sim: &mut Sim, delta: i32) {
        if let Flavor::Full(f) = &mut self.flavor {
            return full::Full { t: &mut self.sender, f, b }.advanceby(sim, delta);
        }
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
        if let Flavor::Full(f) = &mut self.flavor {
            // Two-way TCP's `advance` is its `advanceby`.
            return full::Full { t: &mut self.sender, f, b }.advanceby(sim, newseq);
        }
        if let Flavor::Bay(f) = &mut self.flavor {
            // The Bay TCP's `advance` counts segments on from `curseq_`.
            return bay::Bay { t: &mut self.sender, f, b }.advance(sim, newseq);
        }
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
/// a flavour overrides: `output` (Vegas, RFC793edu), `rtt_backoff`
/// (RFC793edu) and `window` (FACK).  The shared code that calls them (the sending loop,
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

    /// `output` in the Quick-Start sending loop (`send_much_qs`), which
    /// marks the segments of the approved window.
    fn output_qs(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
        self.output(t, b, sim, seqno, reason, None)
    }

    /// `rtt_backoff()`.
    fn rtt_backoff(&mut self, t: &mut Sender, b: &AgentBase, w: &mut World) {
        t.rtt_backoff(b, w)
    }

    /// `window()`, as `slowdown` reads it in the ECN response (FACK's
    /// adds its ramp-down).
    #[inline(always)]
    fn window(&self, t: &Sender) -> i32 {
        t.window()
    }
}

/// `TcpAgent`'s own virtual functions (Tahoe, Reno, NewReno, SACK; and
/// Vegas's `rtt_backoff`, which it does not override).
pub(crate) struct Base;

impl Virtuals for Base {
    const OUTPUT_KEEPS_WINDOW: bool = true;

    #[inline(always)]
    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        t.output_inline::<false>(b, sim, seqno, reason, spare)
    }

    fn output_qs(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
        t.output(b, sim, seqno, reason)
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
            growth: Growth::default(),
            newecn: false,
            ecnmod: false,
            et: crate::sim::NONE,
            wnd_th: 0.002,
            delay_growth: true,
            overhead: 0.0,
            tcp_tick: 0.01,
            last_rtt_ms: 0,
            ecn: false,
            ect1: false,
            out_extra: false,
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
            xcp: None,
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
        // `ssthresh_ = int(wnd_)`: ns-2 traps a window no int holds (NaN,
        // beyond +-2^31) with a floating-point exception.
        let mut ss = crate::num::c_int(self.wnd);
        if ss == i32::MIN && self.wnd != -2147483648.0 {
            w.abort(crate::notice::Abort::WindowNotAnInt { agent: b.id, window: self.wnd });
        }
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
        self.growth.reset();
        if self.qopt.qoption != 0 {
            self.reset_qoption_state(w);
        }
    }

    fn cancel_timers(&mut self, w: &mut World) {
        w.s.timer_cancel(self.rtx_timer);
        self.rtx_pending = false;
        w.s.timer_cancel(self.burstsnd_timer);
        w.s.timer_cancel(self.delsnd_timer);
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
