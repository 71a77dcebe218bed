//! A full, two-way TCP: both ends of a connection as real endpoints, with
//! ns-3.37's `TcpSocketBase` as the reference (tcp-socket-base.cc; the
//! function each part follows is named in its comment).
//!
//! Three-way handshake, byte sequence numbers, MSS-sized segments,
//! delayed ACKs (count and timeout), timestamps (RFC 7323, ms ticks as
//! ns-3 keeps them) and window scaling, RFC 6298 RTO with ns-3's defaults,
//! SACK (RFC 2018, `sack.rs`) with RFC 6675 loss recovery on ns-3's
//! scoreboard (`scoreboard.rs`), or without SACK its Reno-SACK emulation;
//! the window in recovery set by classic NewReno (RFC 6582 as ns-3's
//! `TcpClassicRecovery`) or PRR (RFC 6937, `prr.rs`); limited transmit, send and receive
//! buffers, a bulk-send application on the sending end and a packet sink on
//! the receiving end.  Congestion control goes through `cc.rs`, the full
//! TCP's side of the shared seam (`crate::cc`).  The deliberate
//! differences from ns-3.37 are in docs/full-tcp.md.
//!
//! Packets are the engine's: `seqno`/`ackno` carry the low 32 bits of the
//! byte sequence numbers (unwrapped on receipt against the expected value),
//! `ts`/`ts_echo` the timestamp option's TSval/TSecr (whole ms), `tcp_flags`
//! the TCP flags, `hlen` the TCP header's length, `last_rtt` the window
//! field, `size` the bytes on the wire (payload, TCP and IP headers, the
//! link's framing).  Nothing is allocated per packet: the scoreboard,
//! the RTT history and the reassembly keep their capacity.

pub mod accecn;
pub mod cc;
pub mod ecn;
pub mod pacing;
pub mod prr;
pub mod rate;
pub mod rtt;
pub mod rx;
pub mod sack;
pub mod scoreboard;

use crate::agent::AgentBase;
use crate::ring::Ring;
use crate::cc::AckRequest;
use crate::packet::{PacketType, PktId};
use crate::sched::TimerStatus;
use crate::sim::Sim;
use cc::{CaEvent, Cc, CongState, Window, WindowOwner};
use accecn::IpEcn;
use ecn::{Ecn, UseEcn, CWR, ECE};
use crate::packet::AccEcnOption;
use prr::{Prr, ReductionBound};
use rtt::{to_ns, to_s, RttEstimator, SECOND};
use rx::Reassembly;
use scoreboard::Scoreboard;

/// TCP header flags.
pub const FIN: i32 = 0x01;
pub const SYN: i32 = 0x02;
pub const RST: i32 = 0x04;
pub const ACK: i32 = 0x10;

/// Timer kinds of a socket.
pub const RETX_TIMER: u8 = 0;
pub const DELACK_TIMER: u8 = 1;
pub const SEND_TIMER: u8 = 2;
pub const PACING_TIMER: u8 = 3;

const MS: i64 = 1_000_000;
const IP_HEADER: u32 = 20;
const TCP_HEADER: u32 = 20;

/// How the window is set in loss recovery [TcpL4Protocol::RecoveryType].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// RFC 6582 NewReno as ns-3's `TcpClassicRecovery`: cwnd = ssthresh on
    /// entry; the pipe falls with each dupack (Reno SACK) or SACK.
    Classic,
    /// RFC 6937 as ns-3's `TcpPrrRecovery` (its default), with the
    /// reduction bound [TcpPrrRecovery::ReductionBound].
    Prr(ReductionBound),
}

/// The SACK-permitted option on a SYN travels as this bit of the packet's
/// `reason` (beside the window-scale shift in the low bits).
const SACK_PERMITTED: i32 = 0x100;

/// The parameters of a connection (ns-3's attribute names in brackets).
#[derive(Clone, Debug)]
pub struct Config {
    /// Payload bytes per segment [TcpSocket::SegmentSize].
    pub mss: u32,
    /// Segments to wait before an ACK [TcpSocket::DelAckCount].
    pub delack_count: u32,
    /// [TcpSocket::DelAckTimeout], s.
    pub delack_timeout: f64,
    /// [TcpSocketBase::Timestamp].
    pub timestamps: bool,
    /// [TcpSocketBase::WindowScaling].
    pub window_scaling: bool,
    /// [TcpSocketBase::Sack]: offered on the SYN, used if both ends do.
    pub sack: bool,
    pub recovery: Recovery,
    /// [TcpSocketBase::UseEcn].
    pub ecn: UseEcn,
    /// [TcpSocketBase::LimitedTransmit].
    pub limited_transmit: bool,
    /// [TcpSocket::InitialCwnd], segments.
    pub initial_cwnd: u32,
    /// [TcpSocket::InitialSlowStartThreshold], bytes.
    pub initial_ssthresh: u32,
    /// [TcpSocket::SndBufSize], [TcpSocket::RcvBufSize], bytes.
    pub snd_buf: u32,
    pub rcv_buf: u32,
    /// [TcpSocketBase::MinRto], [RttEstimator::InitialEstimation],
    /// [TcpSocketBase::ClockGranularity], [TcpSocket::ConnTimeout], s.
    pub min_rto: f64,
    pub initial_rtt: f64,
    pub clock_granularity: f64,
    pub conn_timeout: f64,
    /// [TcpSocket::ConnCount], [TcpSocket::DataRetries].
    pub syn_retries: u32,
    pub data_retries: u32,
    /// [TcpSocketBase::ReTxThreshold].
    pub retx_thresh: u32,
    /// [TcpSocketBase::MaxWindowSize].
    pub max_win: u32,
    /// Bytes of framing each packet carries on the wire below IP (ns-3's
    /// point-to-point device adds a 2-byte PPP header).
    pub link_overhead: u32,
    /// The bulk-send application: bytes to send (0: without end)
    /// [BulkSendApplication::MaxBytes] and per write [SendSize].
    pub max_bytes: u64,
    pub send_size: u32,
    /// ns-3's `SendSize` as its rate sampler sees it (0: `send_size`).
    /// ns-3's BulkSend writes this many bytes per `Send`, and each `Send`
    /// runs `CalculateAppLimited`: with 512, its first write on an empty
    /// buffer leaves less than a segment unsent and marks the connection
    /// application-limited, so BBR's first flight gives app-limited rate
    /// samples.  The data still goes into the buffer `send_size` bytes at a
    /// time (whole segments); the test is made where ns-3 first makes it in
    /// each write, after its first `app_write` bytes.
    pub app_write: u32,
    /// Attributes of the congestion control's ns-3 dialect, by name
    /// (Vegas's `alpha`, ...; `crate::cc`, each algorithm's `NS3_PARAMS`).
    pub cc_params: Vec<(String, i32)>,
    /// Pacing (`pacing.rs`) [TcpSocketState::EnablePacing, MaxPacingRate
    /// (bit/s), PacingSsRatio, PacingCaRatio (percent), PaceInitialWindow].
    pub pacing: pacing::Config,
}

impl Default for Config {
    /// ns-3.37's defaults (SACK, PRR with the SSRB bound), but the MSS of
    /// a 1500-byte MTU with timestamps (1448).
    fn default() -> Config {
        Config {
            mss: 1448,
            delack_count: 2,
            delack_timeout: 0.2,
            timestamps: true,
            window_scaling: true,
            sack: true,
            recovery: Recovery::Prr(ReductionBound::Ssrb),
            ecn: UseEcn::Off,
            limited_transmit: true,
            initial_cwnd: 10,
            initial_ssthresh: u32::MAX,
            snd_buf: 131072,
            rcv_buf: 131072,
            min_rto: 1.0,
            initial_rtt: 1.0,
            clock_granularity: 0.001,
            conn_timeout: 3.0,
            syn_retries: 6,
            data_retries: 6,
            retx_thresh: 3,
            max_win: 65535,
            link_overhead: 2,
            max_bytes: 0,
            send_size: 1448,
            app_write: 0,
            cc_params: Vec::new(),
            pacing: pacing::Config::default(),
        }
    }
}

impl Config {
    /// The MSS of an MTU: the MTU less the IP and TCP headers and, with
    /// timestamps, the option's 12 bytes (10, padded).
    pub fn mss_for_mtu(mtu: u32, timestamps: bool) -> Option<u32> {
        let over = IP_HEADER + TCP_HEADER + if timestamps { 12 } else { 0 };
        mtu.checked_sub(over).filter(|&m| m > 0)
    }

    /// Check the values; the message names the parameter.
    pub fn check(&self) -> Result<(), String> {
        let pos = |v: f64, name: &str| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{name} must be a positive number of seconds, got {v}"))
            }
        };
        if self.mss == 0 || self.mss > 65_000 {
            return Err(format!("mss must be 1 to 65000 bytes, got {}", self.mss));
        }
        if self.delack_count == 0 {
            return Err("delack_count must be at least 1".into());
        }
        pos(self.delack_timeout, "delack_timeout")?;
        pos(self.min_rto, "min_rto")?;
        pos(self.initial_rtt, "initial_rtt")?;
        pos(self.clock_granularity, "clock_granularity")?;
        pos(self.conn_timeout, "conn_timeout")?;
        if self.initial_cwnd == 0 {
            return Err("initial_cwnd must be at least 1 segment".into());
        }
        if self.snd_buf < self.mss || self.rcv_buf < self.mss {
            return Err(format!("snd_buf and rcv_buf must hold at least one segment ({} bytes)", self.mss));
        }
        if self.send_size == 0 {
            return Err("send_size must be at least 1 byte".into());
        }
        if self.retx_thresh == 0 {
            return Err("retx_thresh must be at least 1".into());
        }
        self.pacing.check()
    }

    fn tcp_header(&self, syn: bool, sack_perm: bool) -> u32 {
        self.tcp_header_sack(syn, sack_perm, 0)
    }

    /// The TCP header's length with `blocks` SACK blocks too.
    fn tcp_header_sack(&self, syn: bool, sack_perm: bool, blocks: usize) -> u32 {
        self.tcp_header_opts(syn, sack_perm, blocks, 0)
    }

    /// ... and `extra` bytes of other options (AccECN's).
    fn tcp_header_opts(&self, syn: bool, sack_perm: bool, blocks: usize, extra: u32) -> u32 {
        let mut opt = sack::option_len(blocks) + extra;
        if self.timestamps {
            opt += 10;
        }
        if syn && self.window_scaling {
            opt += 3;
        }
        if syn && sack_perm {
            opt += 2;
        }
        TCP_HEADER + (opt + 3) / 4 * 4
    }
}

/// RFC 793 states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TcpState {
    Closed,
    Listen,
    SynSent,
    SynRcvd,
    Established,
    CloseWait,
    LastAck,
    FinWait1,
    FinWait2,
    Closing,
    TimeWait,
}

/// What happened over the connection's life.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub data_segments: u64,
    pub retransmissions: u64,
    pub fast_recoveries: u64,
    pub timeouts: u64,
    /// Window reductions for an ECN echo (entries into CWR).
    pub ecn_reductions: u64,
    /// AccECN's feedback to this end as Data Sender: CE-marked packets
    /// (s.cep's increase) and payload bytes (s.ceb's, from the option).
    pub ce_packets: u64,
    pub ce_bytes: u64,
    pub acks_sent: u64,
    /// Payload bytes delivered in order to the sink.
    pub bytes_received: u64,
    /// Time the connection was established (s), or -1.
    pub established_at: f64,
}

/// One change of a traced value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceRow {
    pub time: f64,
    pub var: TraceVar,
    pub value: f64,
}

/// The traced values (ns-3's trace sources: CongestionWindow,
/// CongestionWindowInflated, SlowStartThreshold, RTT, BytesInFlight,
/// CongState).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TraceVar {
    Cwnd = 0,
    CwndInflated = 1,
    Ssthresh = 2,
    Rtt = 3,
    BytesInFlight = 4,
    CongState = 5,
}

impl TraceVar {
    pub const ALL: [TraceVar; 6] = [TraceVar::Cwnd, TraceVar::CwndInflated, TraceVar::Ssthresh, TraceVar::Rtt, TraceVar::BytesInFlight, TraceVar::CongState];

    pub fn name(self) -> &'static str {
        match self {
            TraceVar::Cwnd => "cwnd",
            TraceVar::CwndInflated => "cwnd_inflated",
            TraceVar::Ssthresh => "ssthresh",
            TraceVar::Rtt => "rtt",
            TraceVar::BytesInFlight => "bytes_in_flight",
            TraceVar::CongState => "cong_state",
        }
    }
}

/// The values of a socket's traces, recorded when they change (their value
/// at the end of each event: several changes inside one event show as one).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub rows: Vec<TraceRow>,
    last: [f64; 6],
    started: bool,
}

#[derive(Clone, Copy, Debug)]
struct Hist {
    seq: u64,
    count: u32,
    time: f64,
    retx: bool,
}

/// One end of a connection.
pub struct Socket {
    pub cfg: Config,
    pub state: TcpState,
    retx_timer: u32,
    delack_timer: u32,
    send_timer: u32,
    /// The retransmission timer resends these flags (SYN, SYN+ACK, FIN)
    /// instead of running the data timeout.
    retx_flags: i32,
    pacing: pacing::Pacer,
    // ---- congestion control (ns-3's TcpSocketState)
    pub win: Window,
    pub cwnd_infl: u32,
    /// Linux's cwnd-use tracking (`tcp_cwnd_validate`): whether the window
    /// limited sending in the current window of data, the most segments
    /// outstanding in it, and where that window ends (`is_cwnd_limited`,
    /// `max_packets_out`, `cwnd_usage_seq`).
    cwnd_limited: bool,
    max_packets_out: u32,
    cwnd_usage_seq: u64,
    /// Whether to track it at all (only Prague's `cwnd_limited` reads it).
    track_cwnd_use: bool,
    cc: Cc,
    rtt: RttEstimator,
    rto: i64,
    /// The estimator's RTO (`rtt.rto` with the clock granularity and the
    /// minimum): what `SendEmptyPacket`, `NewAck` and each sample set the
    /// RTO to, kept from the estimator's last change instead of worked out
    /// (two conversions to ns) on every ACK sent and received.
    rto_est: i64,
    /// `cfg.clock_granularity` and `cfg.min_rto` in ns (what `rtt.rto` takes).
    granularity_ns: i64,
    min_rto_ns: i64,
    /// The TCP header's length on a segment without SYN, SACK blocks or
    /// AccECN's option (`cfg.tcp_header(false, false)`).
    hdr: u32,
    // ---- sending
    /// Next sequence to send (`m_nextTxSequence`), the highest sent
    /// (`m_highTxMark`), and the first unacknowledged (the buffer's head).
    next_tx: u64,
    high_tx: u64,
    una: u64,
    sb: Scoreboard,
    /// The rate sampler (`rate.rs`), kept only for a congestion control
    /// that reads rate samples (BBR: `WindowOwner::Always`).
    rate: Option<Box<rate::RateOps>>,
    /// End of the data the application has written (a sequence number).
    app_end: u64,
    app_written: u64,
    app_active: bool,
    rwnd: u32,
    snd_shift: u8,
    rcv_shift: u8,
    dupacks: u32,
    /// SACK in use (offered by both ends' SYNs).
    sack: bool,
    /// The SACK blocks of the ACK being processed (unwrapped).
    rx_blocks: [(u64, u64); sack::MAX_BLOCKS],
    rx_nblocks: usize,
    prr: Prr,
    /// `m_isRetransDataAcked`: this ACK covers a retransmission.
    retrans_acked: bool,
    ecn: Ecn,
    /// Who sets the window, state by state (`Cc::owns_window`: BBR
    /// always, Prague in Open and CWR, else the socket).
    owner: WindowOwner,
    /// The flags of the segment being processed.
    rx_flags: i32,
    /// The AccECN option of the segment being processed.
    rx_acc_opt: Option<AccEcnOption>,
    recover: u64,
    recover_active: bool,
    first_partial_ack: bool,
    acked_not_processed: u32,
    high_rx_ack: u64,
    high_rx_mark: u64,
    data_retr_count: u32,
    syn_count: u32,
    history: Ring<Hist>,
    close_on_empty: bool,
    // ---- timestamps
    ts_to_echo: u32,
    rcv_ts_value: u32,
    high_tx_ack: u64,
    // ---- receiving
    rx: Reassembly,
    rx_fin: Option<u64>,
    delack_pending: u32,
    pub stats: Stats,
    pub rec: Option<Box<Recorder>>,
}

/// `seq`'s full value from its low 32 bits, nearest to `reference`.
#[inline]
fn unwrap(reference: u64, wire: i32) -> u64 {
    let d = (wire as u32).wrapping_sub(reference as u32) as i32 as i64;
    (reference as i64 + d).max(0) as u64
}

#[inline]
fn ts_now(sim: &Sim) -> u32 {
    (to_ns(sim.w.s.now) / MS) as u32
}

impl Socket {
    /// A closed socket; `timers` are its retransmission, delayed-ACK, send
    /// and pacing timers (kinds `RETX_TIMER`, `DELACK_TIMER`, `SEND_TIMER`,
    /// `PACING_TIMER`).
    pub fn new(cfg: Config, cc: Cc, timers: [u32; 4]) -> Socket {
        let mss = cfg.mss;
        let rtt = RttEstimator::new(to_ns(cfg.initial_rtt));
        let rto = to_ns(cfg.conn_timeout);
        let rto_est = rtt.rto(to_ns(cfg.clock_granularity), to_ns(cfg.min_rto));
        // DCTCP turns ECN on in its own mode (`TcpDctcp::Init`)
        let mut ecn = Ecn::new(if cc.needs_accecn() { UseEcn::AccEcn } else if cc.dctcp_ecn() { UseEcn::On } else { cfg.ecn });
        let owner = cc.owns_window();
        let rate = if owner == WindowOwner::Always { Some(Box::default()) } else { None };
        ecn.dctcp = cc.dctcp_ecn();
        ecn.ect1 = cc.ect1();
        Socket {
            state: TcpState::Closed,
            retx_timer: timers[0],
            delack_timer: timers[1],
            send_timer: timers[2],
            retx_flags: 0,
            pacing: pacing::Pacer::new(&cfg.pacing, timers[3]).with_rule(if owner == WindowOwner::OpenAndCwr {
                // tcp_prague's rate: the packet's size is the MSS and what
                // `tcp_mss_to_mtu` adds (IP, TCP, the timestamp option)
                pacing::Rule::Prague { overhead: IP_HEADER + TCP_HEADER + if cfg.timestamps { 12 } else { 0 } }
            } else {
                pacing::Rule::Ns3
            }),
            // zero until a SYN arrives, as ns-3's TcpSocketState starts
            // (its traces show 0 before the handshake)
            win: Window {
                initial_cwnd: cfg.initial_cwnd,
                initial_ssthresh: cfg.initial_ssthresh,
                pacing: cfg.pacing.enabled,
                pacing_rate: cfg.pacing.max_rate,
                max_pacing_rate: cfg.pacing.max_rate,
                ..Window::new(0, 0, mss)
            },
            cwnd_infl: 0,
            cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            track_cwnd_use: cc.wants_cwnd_limited(),
            cc,
            rtt,
            rto,
            rto_est,
            granularity_ns: to_ns(cfg.clock_granularity),
            min_rto_ns: to_ns(cfg.min_rto),
            hdr: cfg.tcp_header(false, false),
            next_tx: 0,
            high_tx: 0,
            una: 0,
            sb: Scoreboard::new(),
            rate,
            app_end: 0,
            app_written: 0,
            app_active: false,
            rwnd: 0,
            snd_shift: 0,
            rcv_shift: 0,
            dupacks: 0,
            sack: cfg.sack,
            rx_blocks: [(0, 0); sack::MAX_BLOCKS],
            rx_nblocks: 0,
            prr: Prr::default(),
            retrans_acked: false,
            ecn,
            owner,
            rx_flags: 0,
            rx_acc_opt: None,
            recover: 0,
            recover_active: false,
            first_partial_ack: true,
            acked_not_processed: 0,
            high_rx_ack: 0,
            high_rx_mark: 0,
            data_retr_count: cfg.data_retries,
            syn_count: cfg.syn_retries,
            history: Ring::new(),
            close_on_empty: false,
            ts_to_echo: 0,
            rcv_ts_value: 0,
            high_tx_ack: 0,
            rx: Reassembly::new(0),
            rx_fin: None,
            delack_pending: 0,
            stats: Stats { established_at: -1.0, ..Stats::default() },
            rec: None,
            cfg,
        }
    }

    /// The bytes in flight (RFC 6675 pipe, as ns-3 counts it).
    pub fn bytes_in_flight(&self) -> u32 {
        self.sb.bytes_in_flight()
    }

    /// The first byte not yet acknowledged (SND.UNA) and the highest sent
    /// plus one (SND.MAX): byte sequence numbers, the SYN being 0.
    pub fn snd_una(&self) -> u64 {
        self.una
    }

    pub fn snd_max(&self) -> u64 {
        self.high_tx
    }

    /// The connection's AccECN counters, once AccECN is negotiated.
    pub fn accecn(&self) -> Option<&accecn::AccEcn> {
        self.ecn.acc.on.then_some(&self.ecn.acc)
    }

    /// The congestion control.
    pub fn congestion_control(&self) -> &Cc {
        &self.cc
    }

    /// SRTT (s), or the initial estimate before a sample.
    pub fn srtt(&self) -> f64 {
        to_s(self.rtt.srtt)
    }

    /// The current RTO (s).
    pub fn rto(&self) -> f64 {
        to_s(self.rto)
    }

    /// Record changed traced values (called at the end of each event).
    #[inline]
    fn note(&mut self, sim: &Sim) {
        if self.rec.is_some() {
            self.note_rec(sim.w.s.now);
        }
    }

    #[cold]
    fn note_rec(&mut self, now: f64) {
        let vals = [
            self.win.cwnd as f64,
            self.cwnd_infl as f64,
            self.win.ssthresh as f64,
            if self.rtt.samples > 0 { to_s(self.win.last_rtt) } else { 0.0 },
            self.sb.bytes_in_flight() as f64,
            self.win.state as u8 as f64,
        ];
        let r = self.rec.as_mut().unwrap();
        for (i, v) in vals.iter().enumerate() {
            if !r.started || r.last[i] != *v {
                r.last[i] = *v;
                r.rows.push(TraceRow { time: now, var: TraceVar::ALL[i], value: *v });
            }
        }
        r.started = true;
    }

    /// `IsPacingEnabled`: pacing is on and, unless the initial window is
    /// paced too, more than the initial window has been sent.
    #[inline]
    fn pacing_enabled(&self) -> bool {
        self.win.pacing && (self.pacing.initial_window || self.high_tx > self.cfg.initial_cwnd as u64 * self.win.mss as u64)
    }

    /// `UpdatePacingRate` (nothing when the congestion control paces;
    /// Prague's equation with its rule, `pacing::Rule::Prague`).
    #[inline]
    fn update_pacing_rate(&mut self) {
        if self.win.pacing && self.owner != WindowOwner::Always {
            self.pacing.update(&mut self.win);
        }
    }

    /// The congestion control (BBR's state: `cc().bbr()`).
    pub fn cc(&self) -> &Cc {
        &self.cc
    }

    /// The rate sampler's connection counters and last sample (a congestion
    /// control that reads them only).
    pub fn rate(&self) -> Option<(&rate::Connection, &rate::Sample)> {
        self.rate.as_deref().map(|r| (&r.conn, &r.sample))
    }

    /// The pacing rate (bit/s): the maximum until pacing sets it.
    pub fn pacing_rate(&self) -> u64 {
        self.win.pacing_rate
    }

    fn set_state(&mut self, s: CongState) {
        self.win.next_tx = self.next_tx;
        self.win.high_tx = self.high_tx;
        self.cc.state_set(&mut self.win, s);
        self.win.state = s;
    }

    // ---- the application ----------------------------------------------------------

    /// `Listen` (the packet sink's socket).
    pub fn listen(&mut self) {
        self.state = TcpState::Listen;
    }

    /// `Connect` (the bulk-send application starts): send a SYN.
    pub fn connect(&mut self, b: &AgentBase, sim: &mut Sim) {
        if matches!(self.state, TcpState::Closed | TcpState::Listen) {
            self.app_active = true;
            // `DoConnect`: ECN asked for with ECE and CWR on the SYN
            self.ecn.state = ecn::EcnState::Disabled;
            let f = SYN | self.ecn.syn_flags();
            self.send_empty(b, sim, f);
            self.state = TcpState::SynSent;
        }
        self.note(sim);
    }

    /// The application stops (`BulkSendApplication::StopApplication`:
    /// `Close`): no more data is written; a FIN follows what was.
    pub fn close(&mut self, b: &AgentBase, sim: &mut Sim) {
        self.app_active = false;
        match self.state {
            TcpState::Established | TcpState::CloseWait => {
                if self.app_end > self.una {
                    self.close_on_empty = true;
                } else {
                    self.send_fin(b, sim);
                }
            }
            TcpState::SynSent | TcpState::Listen => self.state = TcpState::Closed,
            _ => {}
        }
        self.note(sim);
    }

    /// The bulk-send application writes while the buffer has room
    /// (`BulkSendApplication::SendData`).
    fn app_fill(&mut self) {
        if !self.app_active || !matches!(self.state, TcpState::Established | TcpState::CloseWait) {
            return;
        }
        let max = self.cfg.max_bytes;
        loop {
            if max != 0 && self.app_written >= max {
                break;
            }
            let mut n = self.cfg.send_size as u64;
            if max != 0 {
                n = n.min(max - self.app_written);
            }
            let size = self.app_end - self.una;
            if size + n > self.cfg.snd_buf as u64 {
                break;
            }
            // `Send`'s `CalculateAppLimited`, after ns-3's first write of
            // `app_write` bytes (`Config::app_write`)
            let first = if self.cfg.app_write == 0 { n } else { n.min(self.cfg.app_write as u64) };
            let unsent = (self.app_end + first).saturating_sub(self.next_tx);
            self.app_end += n;
            self.app_written += n;
            if let Some(r) = self.rate.as_deref_mut() {
                r.app_limited(self.win.cwnd, self.win.bytes_in_flight, self.win.mss, unsent, self.sb.lost, self.sb.retrans);
            }
        }
        if max != 0 && self.app_written >= max {
            self.app_active = false;
            self.close_on_empty = true;
        }
    }

    // ---- timers -------------------------------------------------------------------

    fn retx_running(&self, sim: &Sim) -> bool {
        sim.w.s.timer_status(self.retx_timer) == TimerStatus::Pending
    }

    pub fn timeout(&mut self, b: &AgentBase, sim: &mut Sim, kind: u8) {
        if self.rate.is_some() {
            self.win.now = sim.w.s.now;
        }
        match kind {
            RETX_TIMER => {
                if self.retx_flags != 0 {
                    let f = self.retx_flags;
                    self.retx_flags = 0;
                    self.send_empty(b, sim, f);
                } else {
                    self.retx_timeout(b, sim);
                }
            }
            DELACK_TIMER => {
                // `DelAckTimeout`
                self.delack_pending = 0;
                self.cc.cwnd_event(&mut self.win, CaEvent::DelayedAck);
                self.send_ack(b, sim);
            }
            SEND_TIMER | PACING_TIMER => self.send_pending(b, sim, true),
            _ => {}
        }
        self.note(sim);
    }

    /// `ReTxTimeout`.
    fn retx_timeout(&mut self, b: &AgentBase, sim: &mut Sim) {
        if matches!(self.state, TcpState::Closed | TcpState::TimeWait) {
            return;
        }
        if self.app_end == self.una {
            if matches!(self.state, TcpState::FinWait1 | TcpState::Closing) {
                self.send_empty(b, sim, FIN);
            }
            return;
        }
        if self.data_retr_count == 0 {
            // no more retries: the connection is dropped
            self.state = TcpState::Closed;
            sim.w.s.timer_cancel(self.delack_timer);
            return;
        }
        self.data_retr_count -= 1;
        let in_flight = self.sb.bytes_in_flight();
        self.dupacks = 0;
        // SACK information is kept over a timeout (RFC 6675 5.1, errata
        // 1610); without SACK the guessed marks go
        if !self.sack {
            self.sb.reset_reno_sack();
        }
        self.sb.set_all_lost(!self.sack);
        self.recover = self.high_tx;
        self.recover_active = true;
        self.rto = (self.rto * 2).min(60 * SECOND);
        self.history.clear();
        self.win.now = sim.w.s.now;
        if self.win.state != CongState::Loss || !self.sb.head_retransmitted() {
            self.win.ssthresh = self.cc.ssthresh(&self.win, in_flight);
        }
        self.cc.cwnd_event(&mut self.win, CaEvent::Loss);
        self.set_state(CongState::Loss);
        self.win.cwnd = self.win.mss;
        self.cwnd_infl = self.win.cwnd;
        self.stats.timeouts += 1;
        // ns-3's `ReTxTimeout` cancels the pacing timer: the retransmission
        // is not held for the last segment's pacing time
        self.pacing.cancel(sim);
        self.send_pending(b, sim, true);
    }

    // ---- sending ------------------------------------------------------------------

    fn adv_window(&self, scale: bool) -> u32 {
        // The sink reads at once: the advertised window is the whole buffer
        // (`MaxRxSequence - NextRxSequence`).
        let mut w = self.cfg.rcv_buf;
        if scale {
            w >>= self.rcv_shift;
        }
        w.min(self.cfg.max_win)
    }

    fn wscale(&self) -> u8 {
        // `CalculateWScale`
        let mut space = self.cfg.rcv_buf;
        let mut s = 0u8;
        while space > self.cfg.max_win {
            space >>= 1;
            s += 1;
        }
        s.min(14)
    }

    /// A packet with the common fields of a segment.
    fn segment(&self, b: &AgentBase, sim: &mut Sim, seq: u64, flags: i32, payload: u32, hdr: u32, window: u32) -> PktId {
        let ts = if self.cfg.timestamps { ts_now(sim) } else { 0 };
        let p = b.allocpkt(sim);
        let pk = sim.w.pool.get_mut(p);
        pk.ptype = if payload > 0 || flags & (SYN | FIN) != 0 { PacketType::Tcp } else { PacketType::Ack };
        pk.seqno = seq as u32 as i32;
        pk.ackno = self.rx.next as u32 as i32;
        pk.tcp_flags = flags;
        pk.hlen = hdr as i32;
        pk.last_rtt = window as i32;
        if self.cfg.timestamps {
            pk.ts = ts as f64;
            pk.ts_echo = self.ts_to_echo as f64;
        } else {
            pk.no_ts = true;
        }
        pk.size = (payload + hdr + IP_HEADER + self.cfg.link_overhead) as i32;
        p
    }

    /// `SendEmptyPacket`: a segment without data (SYN, SYN+ACK, ACK, FIN).
    fn send_empty(&mut self, b: &AgentBase, sim: &mut Sim, mut flags: i32) {
        let mut s = self.next_tx;
        if flags & FIN != 0 {
            flags |= ACK;
        } else if matches!(self.state, TcpState::FinWait1 | TcpState::LastAck | TcpState::Closing) {
            s += 1;
        }
        self.rto = self.rto_est;
        let mut window = self.adv_window(true);
        let has_syn = flags & SYN != 0;
        let has_fin = flags & FIN != 0;
        if has_syn {
            if self.cfg.window_scaling {
                self.rcv_shift = self.wscale();
            }
            if self.syn_count == 0 {
                self.state = TcpState::Closed;
                return;
            }
            let backoff = 1i64 << (self.cfg.syn_retries - self.syn_count);
            self.rto = to_ns(self.cfg.conn_timeout) * backoff;
            self.syn_count -= 1;
            let first = self.cfg.syn_retries - 1 == self.syn_count;
            self.rtt_history(s, 0, !first, sim.w.s.now);
            window = self.adv_window(false);
        }
        if flags & ACK != 0 {
            sim.w.s.timer_cancel(self.delack_timer);
            self.delack_pending = 0;
            if self.high_tx_ack < self.rx.next {
                self.high_tx_ack = self.rx.next;
            }
            self.stats.acks_sent += 1;
        }
        // `AddOptionSack`: on an ACK, the receiver's blocks that fit
        let nsack = if flags & ACK != 0 && self.sack && !self.rx.sacks.is_empty() {
            self.rx.sacks.allowed(if self.cfg.timestamps { 10 } else { 0 })
        } else {
            0
        };
        // AccECN (SYN=0): ACE on every segment, and the option in the
        // room the timestamps and SACK blocks leave (RFC 9768 3.2.3.3)
        let p = if self.ecn.acc.on && !has_syn {
            self.accecn_segment(b, sim, s, flags, nsack, window)
        } else {
            let hdr = if has_syn || nsack > 0 { self.cfg.tcp_header_sack(has_syn, has_syn && self.sack, nsack) } else { self.hdr };
            self.segment(b, sim, s, flags, 0, hdr, window)
        };
        if self.ecn.ect_empty() {
            self.mark_ect(sim, p);
        }
        if has_syn {
            // the window-scale option's shift count and SACK-permitted
            // travel in `reason`
            let mut r = if self.cfg.window_scaling { self.rcv_shift as i32 } else { 0 };
            if self.sack {
                r |= SACK_PERMITTED;
            }
            sim.w.pool.get_mut(p).reason = r;
        }
        if nsack > 0 {
            let pk = sim.w.pool.get_mut(p);
            for (k, &(a, z)) in self.rx.sacks.blocks()[..nsack].iter().enumerate() {
                pk.sa[k] = (a as u32 as i32, z as u32 as i32);
            }
            pk.sa_len = nsack as u8;
        }
        b.send(sim, p);
        if !self.retx_running(sim) && (has_syn || has_fin) && flags != ACK {
            self.retx_flags = flags;
            sim.w.s.timer_resched(self.retx_timer, to_s(self.rto));
        }
    }

    /// A segment without data in AccECN mode (SYN=0): ACE in its flags,
    /// and the option in the room the timestamps and SACK blocks leave
    /// (RFC 9768 section 3.2.3.3), its bytes in the header.
    #[cold]
    #[inline(never)]
    fn accecn_segment(&mut self, b: &AgentBase, sim: &mut Sim, seq: u64, flags: i32, nsack: usize, window: u32) -> PktId {
        let flags = flags & !(accecn::AE | CWR | ECE) | self.ecn.acc.ack_flags(nsack == 0);
        let mut acc_opt = None;
        if flags & ACK != 0 {
            let used = sack::option_len(nsack) + if self.cfg.timestamps { 10 } else { 0 };
            acc_opt = self.ecn.acc.option(40u32.saturating_sub(used));
        }
        let hdr = self.cfg.tcp_header_opts(false, false, nsack, acc_opt.map_or(0, |(_, n)| n));
        let p = self.segment(b, sim, seq, flags, 0, hdr, window);
        if let Some((o, _)) = acc_opt {
            sim.w.pool.set_accecn_option(p, o);
        }
        p
    }

    /// ECT(0), or ECT(1) when the congestion control asks for it.
    #[inline]
    fn mark_ect(&self, sim: &mut Sim, p: PktId) {
        sim.w.pool.get_mut(p).ecn_capable = true;
        if self.ecn.ect1 {
            sim.w.pool.set_ect1(p);
        }
    }

    fn send_fin(&mut self, b: &AgentBase, sim: &mut Sim) {
        self.send_empty(b, sim, FIN);
        self.state = match self.state {
            TcpState::CloseWait => TcpState::LastAck,
            _ => TcpState::FinWait1,
        };
    }

    /// `AddRttHistory`: a new segment's entry, or a retransmission marks
    /// the entry holding it (out of line: rarer, and a search).
    #[inline]
    fn rtt_history(&mut self, seq: u64, count: u32, retx: bool, now: f64) {
        if !retx {
            self.history.push_back(Hist { seq, count, time: now, retx: false });
        } else {
            self.rtt_history_retx(seq, count);
        }
    }

    #[inline(never)]
    fn rtt_history_retx(&mut self, seq: u64, count: u32) {
        // the entry holding `seq` (entries are in sequence order)
        let i = self.history.partition_point(|h| h.seq + h.count as u64 <= seq);
        if let Some(h) = self.history.get_mut(i) {
            if seq >= h.seq && seq < h.seq + h.count as u64 {
                h.retx = true;
                h.count = (seq + count as u64 - h.seq) as u32;
            }
        }
    }

    /// `Window`/`AvailableWindow`.
    #[inline]
    fn available_window(&self) -> u32 {
        let win = self.rwnd.min(self.win.cwnd);
        let inflight = self.sb.bytes_in_flight();
        win.saturating_sub(inflight)
    }

    /// RFC 6675's `NextSeg` as ns-3's `TcpTxBuffer::NextSeg`: (1) the first
    /// lost segment neither SACKed nor resent, else (2) new data within the
    /// receiver's window, else with `rule3` (SACK, in recovery) (3) the
    /// first segment neither SACKed nor resent.  Returns (seq, max length,
    /// index in the scoreboard or None for new data).
    #[inline(always)]
    fn next_seg(&mut self, rule3: bool) -> Option<(u64, u32, Option<usize>)> {
        if let Some(i) = self.sb.first_lost() {
            return Some((self.una + i as u64 * self.win.mss as u64, self.sb.seg_len(i), Some(i)));
        }
        let new = self.una + self.sb.sent as u64;
        if self.app_end > new {
            // (ns-3 tests `m_sentSize <= rWnd` and may then offer an empty
            // range; an empty range is no segment)
            if self.sb.sent < self.rwnd {
                let room = (self.rwnd - self.sb.sent).min(self.win.mss);
                return Some((new, room, None));
            }
            return None;
        }
        if rule3 {
            if let Some(i) = self.sb.first_unsacked_unsent() {
                return Some((self.una + i as u64 * self.win.mss as u64, self.sb.seg_len(i), Some(i)));
            }
        }
        None
    }

    /// `SendPendingData`.  Its first test is inlined where it is called
    /// (after every ACK: at a receiving end there is nothing to send).
    #[inline(always)]
    fn send_pending(&mut self, b: &AgentBase, sim: &mut Sim, with_ack: bool) {
        if self.app_end == self.una || !matches!(self.state, TcpState::Established | TcpState::CloseWait | TcpState::FinWait1 | TcpState::LastAck | TcpState::Closing) {
            return;
        }
        self.send_pending_data(b, sim, with_ack);
    }

    /// `send_pending` with data to send.
    #[inline(never)]
    fn send_pending_data(&mut self, b: &AgentBase, sim: &mut Sim, with_ack: bool) {
        let mut avail = self.available_window();
        let mut sent = false;
        while avail > 0 {
            if self.pacing_enabled() && self.pacing.running(sim) {
                break;
            }
            if self.win.state == CongState::Open && self.state == TcpState::FinWait1 {
                break;
            }
            let rule3 = self.sack && self.win.state == CongState::Recovery;
            let Some((next, seg_max, idx)) = self.next_seg(rule3) else { break };
            let data = (self.app_end - next) as u32;
            if data < avail {
                self.app_fill();
            }
            let data = (self.app_end - next).min(u32::MAX as u64) as u32;
            if avail < self.win.mss && data > avail {
                break;
            }
            let s = avail.min(self.win.mss).min(seg_max);
            if s == 0 {
                break;
            }
            self.next_tx = next;
            if self.sb.bytes_in_flight() == 0 {
                self.cc.cwnd_event(&mut self.win, CaEvent::TxStart);
            }
            let sz = self.send_data(b, sim, next, s, idx, with_ack);
            self.next_tx += sz as u64;
            sent = true;
            // (`SendDataPacket` has started the pacing timer if it was
            // idle: the loop stops at its next turn)
            avail = self.available_window();
        }
        if self.track_cwnd_use {
            // `tcp_write_xmit`'s end: window-limited when no full segment
            // fits in the congestion window (Linux: packets in flight >= cwnd)
            let limited = self.sb.bytes_in_flight() as u64 + self.win.mss as u64 > self.win.cwnd as u64;
            if sent || limited {
                self.cwnd_validate(limited);
            }
        }
    }

    /// Linux's `tcp_cwnd_validate`, its tracking part (Linux 6.x): a new
    /// window of data (snd_una past the last one's end), a window-limited
    /// send, or more outstanding than seen in a window not yet
    /// window-limited starts the record again.
    #[inline]
    fn cwnd_validate(&mut self, limited: bool) {
        let mss = self.win.mss.max(1);
        let packets_out = self.sb.sent.div_ceil(mss);
        if self.una >= self.cwnd_usage_seq || limited || (!self.cwnd_limited && packets_out > self.max_packets_out) {
            self.cwnd_limited = limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.una + self.sb.sent as u64;
        }
    }

    /// Linux 6.x's `tcp_is_cwnd_limited`: window-limited in the current
    /// window of data, or in slow start with the window under twice the
    /// most segments outstanding.
    #[inline]
    fn is_cwnd_limited(&self) -> bool {
        self.cwnd_limited || (self.win.cwnd < self.win.ssthresh && (self.win.cwnd as u64) < 2 * self.max_packets_out as u64 * self.win.mss as u64)
    }

    /// `SendDataPacket`: send `len` bytes at `seq` (a retransmission of
    /// scoreboard entry `idx`, or new data).
    fn send_data(&mut self, b: &AgentBase, sim: &mut Sim, seq: u64, max: u32, idx: Option<usize>, with_ack: bool) -> u32 {
        if self.win.pacing {
            self.win.bytes_in_flight = self.sb.bytes_in_flight();
        }
        if let Some(r) = self.rate.as_deref_mut() {
            // `SkbSent`
            r.sent(idx, self.sb.bytes_in_flight() == 0, to_ns(sim.w.s.now));
        }
        let (len, retx) = match idx {
            Some(i) => {
                let len = self.sb.seg_len(i).min(max);
                self.sb.retransmitted(i);
                (len, true)
            }
            None => {
                let len = ((self.app_end - seq) as u32).min(max);
                self.sb.push_new(len);
                (len, false)
            }
        };
        if self.pacing_enabled() {
            self.pacing.start(sim, len, self.win.pacing_rate);
        }
        let mut flags = if with_ack { ACK } else { 0 };
        if with_ack {
            sim.w.s.timer_cancel(self.delack_timer);
            self.delack_pending = 0;
        }
        let remaining = self.app_end - (seq + len as u64);
        if self.close_on_empty && remaining == 0 && !self.app_active {
            flags |= FIN;
            self.state = match self.state {
                TcpState::CloseWait => TcpState::LastAck,
                TcpState::Established => TcpState::FinWait1,
                s => s,
            };
        }
        flags |= self.ecn.data_flags(seq, retx);
        let window = self.adv_window(true);
        let p = self.segment(b, sim, seq, flags, len, self.hdr, window);
        if self.ecn.ect() {
            self.mark_ect(sim, p);
        }
        if !self.retx_running(sim) {
            self.retx_flags = 0;
            sim.w.s.timer_resched(self.retx_timer, to_s(self.rto));
        }
        b.send(sim, p);
        self.rtt_history(seq, len, retx, sim.w.s.now);
        // `UpdateBytesSent` (PRR's prrOut)
        if matches!(self.win.state, CongState::Recovery | CongState::Cwr) {
            self.prr.sent(len);
        }
        self.stats.data_segments += 1;
        if retx {
            self.stats.retransmissions += 1;
        }
        self.high_tx = self.high_tx.max(seq + len as u64);
        len
    }

    /// `DoRetransmit`: send what `NextSeg` (without rule 3) gives: the
    /// first lost segment (without SACK, the head), or new data; if
    /// nothing, the head again.
    fn do_retransmit(&mut self, b: &AgentBase, sim: &mut Sim) {
        if self.sb.is_empty() {
            return;
        }
        let (seq, max, idx) = match self.next_seg(false) {
            Some(x) => x,
            None => (self.una, self.win.mss, Some(0)),
        };
        self.next_tx = seq;
        self.send_data(b, sim, seq, max, idx, true);
    }

    // ---- receiving ----------------------------------------------------------------

    /// A packet for this socket (`DoForwardUp`).
    pub fn recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        if self.rate.is_some() {
            self.win.now = sim.w.s.now;
        }
        let pk = sim.w.pool.get(p);
        let flags = pk.tcp_flags;
        let seq = unwrap(self.rx.next, pk.seqno);
        let ack = unwrap(self.una, pk.ackno);
        let has_ts = !pk.no_ts;
        let (tsval, tsecr) = (pk.ts as u32, pk.ts_echo as u32);
        let window = pk.last_rtt as u32;
        let hlen = pk.hlen as u32;
        let payload = (pk.size as u32).saturating_sub(hlen + IP_HEADER + self.cfg.link_overhead);
        let (src, sport) = (pk.saddr, pk.sport);
        let peer_shift = (pk.reason & 0xff).clamp(0, 14) as u8;
        let peer_sack = pk.reason & SACK_PERMITTED != 0;
        let (ce, ect) = (pk.ecn_to_echo, pk.ecn_capable);
        // (the IP-ECN field matters to AccECN and to a SYN's answer only)
        let ip = if ect && (flags & SYN != 0 || self.ecn.acc.on) { IpEcn::of(ect, sim.w.pool.is_ect1(p), ce) } else { IpEcn::of(ect, false, ce) };
        if self.ecn.acc.on {
            self.rx_acc_opt = sim.w.pool.accecn_option(p);
        }
        self.rx_flags = flags;
        self.rx_nblocks = 0;
        if self.sack && pk.sa_len > 0 && flags & (ACK | SYN) == ACK {
            let n = (pk.sa_len as usize).min(sack::MAX_BLOCKS);
            for k in 0..n {
                let (a, z) = pk.sa[k];
                self.rx_blocks[k] = (unwrap(self.una, a), unwrap(self.una, z));
            }
            self.rx_nblocks = n;
        }
        sim.w.pool.free(p);
        // `ForwardUp`: a CE mark on a segment newer than the last one
        // marked; the congestion control hears of it, and of an ECN-capable
        // segment without one (DCTCP's receiver may send an ACK at once)
        if self.ecn.acc.on {
            // AccECN's Data Receiver counts every segment (SYN=0) by its
            // IP-ECN field (RFC 9768 section 3.2)
            if flags & SYN == 0 {
                self.ecn.acc.received(ip, payload as u64);
            }
        } else if ce && self.ecn.ce_received(seq) {
            self.ecn_event(b, sim, true);
        } else if (ce || ect) && self.ecn.state != ecn::EcnState::Disabled {
            self.ecn_event(b, sim, false);
        }
        // `DoForwardUp`: the sender reacted to our echo
        if flags & CWR != 0 && !self.ecn.acc.on && self.state == TcpState::Established && flags & RST == 0 {
            self.ecn.cwr_received();
        }
        if flags & SYN != 0 {
            // RFC 7323: a SYN's window is never scaled
            self.rwnd = window;
            // `ProcessOptionWScale` (the peer offers scaling when we do: both
            // ends of a connection are configured alike)
            if self.cfg.window_scaling {
                self.snd_shift = peer_shift;
            }
            // `ProcessOptionSackPermitted`: SACK only if both ends offer it
            self.sack = self.sack && peer_sack;
            if has_ts && self.cfg.timestamps {
                self.process_ts(tsval, tsecr, seq);
            }
            self.win.cwnd = self.cfg.initial_cwnd * self.win.mss;
            self.cwnd_infl = self.win.cwnd;
            self.win.ssthresh = self.cfg.initial_ssthresh;
            if flags & ACK != 0 {
                self.estimate_rtt(sim, ack, has_ts, tsecr);
                self.high_rx_ack = ack;
            }
        } else if flags & ACK != 0 {
            if self.cfg.timestamps {
                if !has_ts {
                    return;
                }
                self.process_ts(tsval, tsecr, seq);
            }
            self.estimate_rtt(sim, ack, has_ts, tsecr);
            self.update_window(window, ack, seq);
        }
        match self.state {
            TcpState::Established => self.process_established(b, sim, flags, seq, ack, payload),
            TcpState::Listen => {
                if flags & (SYN | ACK | FIN | RST) == SYN {
                    // `ProcessListen` + `CompleteFork` (done at once, not a
                    // zero-delay event later)
                    b.dst_addr = src;
                    b.dst_port = sport;
                    self.state = TcpState::SynRcvd;
                    self.syn_count = self.cfg.syn_retries;
                    self.data_retr_count = self.cfg.data_retries;
                    self.rx = Reassembly::new(seq + 1).with_sacks(self.sack);
                    let e = self.ecn.syn_received(flags, ip);
                    self.send_empty(b, sim, SYN | ACK | e);
                }
            }
            TcpState::SynSent => self.process_syn_sent(b, sim, flags, seq, ack, ip),
            TcpState::SynRcvd => self.process_syn_rcvd(b, sim, flags, seq, ack, payload),
            TcpState::FinWait1 | TcpState::FinWait2 | TcpState::CloseWait | TcpState::Closing | TcpState::LastAck => {
                self.process_wait(b, sim, flags, seq, ack, payload)
            }
            TcpState::Closed | TcpState::TimeWait => {}
        }
        self.note(sim);
    }

    /// `CA_EVENT_ECN_IS_CE` / `CA_EVENT_ECN_NO_CE`: the congestion control
    /// may ask for an ACK of earlier data now (DCTCP's `CeState0to1`,
    /// `CeState1to0`, sent as `SendEmptyPacket` with `NextRxSequence` set
    /// back for it) and stop the echo.
    fn ecn_event(&mut self, b: &AgentBase, sim: &mut Sim, ce: bool) {
        if !self.cc.ack_events() {
            return;
        }
        let (req, idle) = self.cc.ecn_event(&mut self.win, ce, self.rx.next);
        if let AckRequest::Ack { seq, ece } = req {
            let next = self.rx.next;
            self.rx.next = seq;
            self.send_empty(b, sim, if ece { ACK | ECE } else { ACK });
            self.rx.next = next;
        }
        if idle {
            self.ecn.echo_stopped();
        }
    }

    /// `ProcessOptionTimestamp`.
    fn process_ts(&mut self, tsval: u32, tsecr: u32, seq: u64) {
        if self.rcv_ts_value > tsval {
            return;
        }
        self.rcv_ts_value = tsval;
        (self.win.ts_value, self.win.ts_echo) = (tsval, tsecr);
        if seq == self.rx.next && seq <= self.high_tx_ack {
            self.ts_to_echo = tsval;
        }
    }

    /// `EstimateRtt`.
    fn estimate_rtt(&mut self, sim: &Sim, ack: u64, has_ts: bool, tsecr: u32) {
        let now = sim.w.s.now;
        let mut m = 0i64;
        if let Some(h) = self.history.front() {
            if !h.retx && ack >= h.seq + h.count as u64 {
                if self.cfg.timestamps && has_ts {
                    // `ElapsedTimeFromTsValue`: whole ms, zero -> 1 us
                    let now32 = ts_now(sim);
                    m = if now32 > tsecr { (now32 - tsecr) as i64 * MS } else { 0 };
                    if m == 0 {
                        m = 1000;
                    }
                } else {
                    m = to_ns(now) - to_ns(h.time);
                }
            }
        }
        if self.owner == WindowOwner::OpenAndCwr {
            // Prague: when the newest segment this ACK covers was sent, if
            // never retransmitted (-1: none), for its RTT to the
            // microsecond (Linux's `ca_rtt_us`, what tcp_prague's
            // classic-ECN detection reads); kept off the others' path
            let mut sent = -1.0;
            while let Some(h) = self.history.front() {
                if h.seq + h.count as u64 > ack {
                    break;
                }
                sent = if h.retx { -1.0 } else { h.time };
                self.history.pop_front();
            }
            self.win.ack_sent = sent;
            return self.rtt_measured(m);
        }
        while let Some(h) = self.history.front() {
            if h.seq + h.count as u64 > ack {
                break;
            }
            self.history.pop_front();
        }
        self.rtt_measured(m);
    }

    #[inline]
    fn rtt_measured(&mut self, m: i64) {
        if m != 0 {
            self.rtt.measurement(m);
            self.rto_est = self.rtt.rto(self.granularity_ns, self.min_rto_ns);
            self.rto = self.rto_est;
            self.win.last_rtt = self.rtt.srtt;
            self.win.min_rtt = self.win.min_rtt.min(self.win.last_rtt);
        }
    }

    /// `UpdateWindowSize`.
    fn update_window(&mut self, window: u32, ack: u64, seq: u64) {
        let w = window << self.snd_shift;
        if self.state < TcpState::Established {
            self.rwnd = w;
            return;
        }
        let mut update = false;
        if ack == self.high_rx_ack && w > self.rwnd {
            update = true;
        }
        if ack > self.high_rx_ack {
            self.high_rx_ack = ack;
            update = true;
        }
        if seq > self.high_rx_mark {
            self.high_rx_mark = seq;
            update = true;
        }
        if update {
            self.rwnd = w;
        }
    }

    /// `ProcessSynSent`.
    fn process_syn_sent(&mut self, b: &AgentBase, sim: &mut Sim, flags: i32, seq: u64, ack: u64, ip: IpEcn) {
        if flags & SYN != 0 && flags & ACK != 0 && self.next_tx + 1 == ack {
            self.set_state(CongState::Open);
            self.state = TcpState::Established;
            self.stats.established_at = sim.w.s.now;
            sim.w.s.timer_cancel(self.retx_timer);
            self.retx_flags = 0;
            self.rx = Reassembly::new(seq + 1).with_sacks(self.sack);
            self.next_tx += 1;
            self.high_tx = self.next_tx;
            self.una = self.next_tx;
            self.app_end = self.una;
            self.update_pacing_rate();
            // ECN if the SYN+ACK has ECE (and not CWR); AccECN by RFC
            // 9768's Table 2 (before the ACK, which feeds back the
            // SYN/ACK's IP-ECN field in AccECN mode)
            self.ecn.syn_ack_received(flags, ip);
            self.send_empty(b, sim, ACK);
            // `ConnectionSucceeded` runs as a zero-delay event and the
            // application's first `Send` schedules `SendPendingData` one
            // time step (1 ns) later.
            self.app_fill();
            sim.w.s.timer_resched(self.send_timer, 1e-9);
            self.delack_pending = self.cfg.delack_count;
        } else if flags & (SYN | ACK) == SYN {
            // simultaneous open
            self.state = TcpState::SynRcvd;
            self.syn_count = self.cfg.syn_retries;
            self.rx = Reassembly::new(seq + 1).with_sacks(self.sack);
            let e = self.ecn.syn_received(flags, ip);
            self.send_empty(b, sim, SYN | ACK | e);
        } else if flags & ACK != 0 && flags & SYN == 0 {
            // ignored
        } else {
            self.state = TcpState::Closed;
        }
    }

    /// `ProcessSynRcvd`.
    fn process_syn_rcvd(&mut self, b: &AgentBase, sim: &mut Sim, flags: i32, seq: u64, ack: u64, payload: u32) {
        let f = flags & (SYN | ACK | FIN | RST);
        if f == 0 || (f == ACK && self.next_tx + 1 == ack) {
            self.set_state(CongState::Open);
            self.state = TcpState::Established;
            self.stats.established_at = sim.w.s.now;
            sim.w.s.timer_cancel(self.retx_timer);
            self.retx_flags = 0;
            self.next_tx += 1;
            self.high_tx = self.next_tx;
            self.una = self.next_tx;
            self.app_end = self.una;
            self.delack_pending = self.cfg.delack_count;
            if self.ecn.acc.on {
                // RFC 9768 section 3.2.2.1, Table 4 (a CE fed back here is
                // counted, not answered: the window has not grown yet)
                self.ecn.acc.handshake_ack(flags);
            }
            self.received_ack(b, sim, ack, seq, payload);
            self.update_pacing_rate();
        } else if f == SYN {
            self.rx = Reassembly::new(seq + 1).with_sacks(self.sack);
            let e = self.ecn.syn_received(flags, IpEcn::NotEct);
            self.send_empty(b, sim, SYN | ACK | e);
        }
    }

    /// `ProcessEstablished`.
    fn process_established(&mut self, b: &mut AgentBase, sim: &mut Sim, flags: i32, seq: u64, ack: u64, payload: u32) {
        let f = flags & (SYN | ACK | FIN | RST);
        if f == ACK {
            if ack < self.una {
                // an old ACK: ignored
            } else if ack > self.high_tx {
                self.send_ack(b, sim);
            } else {
                self.received_ack(b, sim, ack, seq, payload);
            }
        } else if f == FIN || f == FIN | ACK {
            self.peer_close(b, sim, flags, seq, ack, payload);
        } else if f == 0 {
            self.received_data(b, sim, seq, payload, false);
        } else if f & SYN != 0 {
            // a duplicate SYN or SYN+ACK: nothing to do
        } else {
            self.state = TcpState::Closed;
        }
    }

    /// `ProcessWait` etc.: the closing states, reduced to what a bulk
    /// transfer needs (ACKs of data and FIN, the peer's FIN).
    fn process_wait(&mut self, b: &mut AgentBase, sim: &mut Sim, flags: i32, seq: u64, ack: u64, payload: u32) {
        // (ns-3's ProcessWait passes every ACK on: one acknowledging our FIN
        // is one past the highest data sent)
        if flags & ACK != 0 && ack >= self.una && ack <= self.high_tx + 1 {
            self.received_ack(b, sim, ack, seq, payload);
        } else if payload > 0 {
            self.received_data(b, sim, seq, payload, false);
        }
        let fin_acked = flags & ACK != 0 && self.app_end == self.una && ack > self.app_end;
        match self.state {
            TcpState::FinWait1 if fin_acked => self.state = TcpState::FinWait2,
            TcpState::Closing if fin_acked => self.state = TcpState::TimeWait,
            TcpState::LastAck if fin_acked => {
                self.state = TcpState::Closed;
                sim.w.s.timer_cancel(self.retx_timer);
            }
            _ => {}
        }
        if flags & FIN != 0 && matches!(self.state, TcpState::FinWait1 | TcpState::FinWait2) {
            self.rx_fin = Some(seq + payload as u64);
            if self.rx.next == seq + payload as u64 {
                self.rx.next += 1;
                self.send_empty(b, sim, ACK);
                self.state = if self.state == TcpState::FinWait1 { TcpState::Closing } else { TcpState::TimeWait };
                if self.state == TcpState::TimeWait {
                    sim.w.s.timer_cancel(self.retx_timer);
                }
            }
        }
    }

    /// `PeerClose`/`DoPeerClose`: the sink's application closes at once.
    fn peer_close(&mut self, b: &mut AgentBase, sim: &mut Sim, flags: i32, seq: u64, ack: u64, payload: u32) {
        if payload > 0 || flags & ACK != 0 {
            if flags & ACK != 0 && ack >= self.una && ack <= self.high_tx {
                self.received_ack(b, sim, ack, seq, payload);
            } else if payload > 0 {
                self.received_data(b, sim, seq, payload, false);
            }
        }
        let fin_seq = seq + payload as u64;
        if self.rx.next != fin_seq {
            // a FIN beyond a hole: wait for the data (it comes again)
            self.rx_fin = Some(fin_seq);
            return;
        }
        self.rx.next = fin_seq + 1;
        self.state = TcpState::CloseWait;
        // `DoPeerClose`: ACK the FIN; the PacketSink closes its socket,
        // which sends our FIN (LAST_ACK)
        self.send_empty(b, sim, ACK);
        self.send_fin(b, sim);
    }

    /// `ReceivedData`.
    fn received_data(&mut self, b: &AgentBase, sim: &mut Sim, seq: u64, len: u32, _: bool) {
        let expected = self.rx.next;
        let Some(delivered) = self.rx.add(seq, len as u64, self.cfg.rcv_buf as u64) else {
            self.send_ack(b, sim);
            return;
        };
        if delivered > 0 {
            self.stats.bytes_received += delivered;
        }
        if self.rx.has_holes() || self.rx.next > expected + len as u64 || self.ecn.acc.ack_now() {
            // a gap exists, or one was filled: ACK at once
            self.cc.cwnd_event(&mut self.win, CaEvent::NonDelayedAck);
            self.send_ack(b, sim);
        } else {
            self.delack_pending += 1;
            if self.delack_pending >= self.cfg.delack_count {
                sim.w.s.timer_cancel(self.delack_timer);
                self.delack_pending = 0;
                self.cc.cwnd_event(&mut self.win, CaEvent::NonDelayedAck);
                self.send_ack(b, sim);
            } else {
                self.cc.cwnd_event(&mut self.win, CaEvent::DelayedAck);
                if sim.w.s.timer_status(self.delack_timer) != TimerStatus::Pending {
                    sim.w.s.timer_resched(self.delack_timer, self.cfg.delack_timeout);
                }
            }
        }
    }

    /// A pure ACK after data, with ECE while the receiver echoes a CE mark.
    fn send_ack(&mut self, b: &AgentBase, sim: &mut Sim) {
        let f = ACK | self.ecn.ack_flags();
        self.send_empty(b, sim, f);
    }

    /// AccECN's Data Sender: the CE packets and bytes this ACK feeds back;
    /// any is an ECN echo (RFC 9768 section 3.2.2.2), answered once per
    /// window (CWR) as RFC 3168's ECE.
    #[cold]
    #[inline(never)]
    fn accecn_ack(&mut self, ack: u64, old_head: u64, bytes_sacked: u32, delivered: u32) -> accecn::Feedback {
        let newly = (ack - old_head) + bytes_sacked as u64;
        let fb = self.ecn.acc.ack_received(self.rx_flags, ack, newly, self.rx_acc_opt.take(), self.win.mss);
        self.stats.ce_packets += fb.ce_packets;
        self.stats.ce_bytes += fb.ce_bytes;
        let ece = fb.ce_packets > 0;
        if ece && matches!(self.win.state, CongState::Open | CongState::Disorder) {
            self.enter_cwr(delivered);
        }
        self.win.ece_rcvd = ece;
        if self.cc.ack_events() {
            self.win.next_tx = self.next_tx;
        }
        fb
    }

    /// A per-ACK controller (Prague, `cong_control`) in Open, Disorder or
    /// CWR: the bytes delivered and those of them CE-marked (the option's
    /// count, else CE packets of an MSS).
    #[cold]
    #[inline(never)]
    fn ce_cong_control(&mut self, fb: accecn::Feedback, delivered: u32) {
        if !self.owner.owns_in(self.win.state) {
            return;
        }
        let ce = if fb.option { fb.ce_bytes } else { fb.ce_packets * self.win.mss as u64 };
        self.win.next_tx = self.next_tx;
        // (read only by Prague's `cwnd_limited` gate, which turns the tracking on)
        let limited = self.track_cwnd_use && self.is_cwnd_limited();
        self.cc.ce_cong_control(&mut self.win, delivered as u64, ce.min(delivered as u64), limited);
        self.cwnd_infl = self.win.cwnd;
    }

    /// `EnterCwr`: an ECN echo reduces the window once per window of data,
    /// through the recovery algorithm, without retransmitting.
    fn enter_cwr(&mut self, delivered: u32) {
        if self.owner == WindowOwner::OpenAndCwr {
            // the controller takes its reduction from here (tcp_prague's
            // `set_state(CWR)`); no PRR
            self.stats.ecn_reductions += 1;
            self.recover = self.high_tx;
            self.set_state(CongState::Cwr);
            return;
        }
        let bif = self.sb.bytes_in_flight();
        self.win.ssthresh = self.cc.ssthresh(&self.win, bif);
        self.cwnd_infl = self.win.ssthresh;
        // (ns-3 sets the state without telling the congestion control)
        self.win.state = CongState::Cwr;
        self.stats.ecn_reductions += 1;
        self.recover = self.high_tx;
        if self.owner.owns_in(CongState::Cwr) {
            return;
        }
        match self.cfg.recovery {
            Recovery::Classic => {
                self.win.cwnd = self.win.ssthresh;
                self.cwnd_infl = self.win.ssthresh + self.dupacks * self.win.mss;
            }
            Recovery::Prr(_) => {
                self.prr.enter((self.high_tx - self.una) as u32);
                self.recovery_do(delivered, bif);
            }
        }
    }

    /// `ReceivedAck`.
    fn received_ack(&mut self, b: &AgentBase, sim: &mut Sim, ack: u64, seq: u64, payload: u32) {
        if ack == self.una && ack == self.high_tx && self.rx_nblocks == 0 && self.win.state == CongState::Open && self.rate.is_none() && !self.ecn.acc.on {
            // nothing outstanding and nothing new acknowledged: the
            // receiving end of a bulk transfer, on each data segment
            self.ack_of_nothing(sim, ack);
        } else if !self.ack_of_data(b, sim, ack) {
            // an old ACK
            if payload > 0 {
                self.received_data(b, sim, seq, payload, false);
            }
            return;
        }
        if payload > 0 {
            self.received_data(b, sim, seq, payload, false);
        }
        if self.close_on_empty && !self.app_active && self.app_end == self.una && self.state == TcpState::Established {
            self.close_on_empty = false;
            self.send_fin(b, sim);
        }
        self.send_pending(b, sim, true);
    }

    /// `ReceivedAck`'s reading of an ACK that acknowledges nothing new at
    /// an end with nothing outstanding (`ack` = SND.UNA = SND.MAX), in the
    /// Open state, without SACK blocks, a rate sampler or AccECN: what the
    /// general path (`ack_of_data`) does with such an ACK, without its
    /// searches and tests that cannot apply.  The scoreboard is empty and
    /// nothing is discarded; RFC 3168's ECE reading runs (it can only leave
    /// `EceRcvd`: `ack` is not above SND.UNA); `ProcessAck` records the ACK
    /// for the congestion control and returns (no duplicate: nothing is
    /// outstanding); Prague's pacing rate is set as after any ACK.
    #[inline]
    fn ack_of_nothing(&mut self, sim: &Sim, ack: u64) {
        if self.ecn.state != ecn::EcnState::Disabled {
            if self.ecn.ack_received(ack, ack, self.rx_flags, false) {
                self.enter_cwr(0);
            }
            self.win.ece_rcvd = self.ecn.state == ecn::EcnState::EceRcvd;
            if self.cc.ack_events() {
                self.win.next_tx = self.next_tx;
            }
        }
        if self.win.pacing {
            self.win.bytes_in_flight = self.sb.bytes_in_flight();
        }
        self.win.last_acked = ack;
        self.win.high_tx = self.high_tx;
        self.win.now = sim.w.s.now;
        if self.owner == WindowOwner::OpenAndCwr {
            self.update_pacing_rate();
        }
        self.retrans_acked = false;
    }

    /// `ReceivedAck` up to the data: the SACK blocks, the cumulative ACK,
    /// ECN's echo, `ProcessAck` and a rate-sampling congestion control's
    /// `CongControl`.  False for an ACK below SND.UNA (nothing done but
    /// the SACK blocks' update).
    fn ack_of_data(&mut self, b: &AgentBase, sim: &mut Sim, ack: u64) -> bool {
        let old_head = self.una;
        // (for a rate-sampling congestion control: the lost bytes, the pipe
        // and the delivered count before the ACK)
        let prior = self.rate.as_deref().map(|r| (self.sb.lost, self.sb.bytes_in_flight(), r.conn.delivered));
        // `ReadOptions`: RFC 6675's Update() with the ACK's SACK blocks
        let (mut bytes_sacked, mut delivered) = (0, 0);
        if self.rx_nblocks > 0 {
            let n = self.rx_nblocks;
            self.rx_nblocks = 0;
            let blocks = self.rx_blocks;
            (bytes_sacked, delivered) = match self.rate.as_deref_mut() {
                None => self.sb.update(&blocks[..n], self.una, self.win.mss, self.cfg.retx_thresh),
                Some(r) => {
                    let now_ns = to_ns(sim.w.s.now);
                    self.sb.update_with(&blocks[..n], self.una, self.win.mss, self.cfg.retx_thresh, |i, len| r.delivered(i, len, now_ns))
                }
            };
        }
        if ack < old_head {
            return false;
        }
        // `DiscardUpTo`: whole segments only (the grid is fixed); an ACK of
        // our FIN is one past the data.
        let data_ack = ack.min(self.una + self.sb.sent as u64);
        let mut n = 0;
        let mut upto = self.una;
        while n < self.sb.len() && upto + self.sb.seg_len(n) as u64 <= data_ack {
            upto += self.sb.seg_len(n) as u64;
            n += 1;
        }
        // (only PRR's slow-start bound reads it)
        if self.win.state == CongState::Recovery && self.cfg.recovery == Recovery::Prr(ReductionBound::Ssrb) && ack > old_head && ack < self.recover {
            self.retrans_acked = self.sb.retransmission_in(n);
        }
        if n > 0 {
            if let Some(r) = self.rate.as_deref_mut() {
                let now_ns = to_ns(sim.w.s.now);
                for i in 0..n {
                    r.delivered(i, self.sb.seg_len(i), now_ns);
                }
                r.discard(n);
            }
            delivered += self.sb.discard(n);
            self.una = upto;
        }
        if let (Some(r), Some((_, _, prior_delivered))) = (self.rate.as_deref(), prior) {
            self.win.last_acked_sacked = (r.conn.delivered - prior_delivered) as u32;
        }
        if self.win.state == CongState::Cwr && ack > self.recover {
            // the reduction's window is over (a new ECE may start another)
            if self.owner == WindowOwner::OpenAndCwr {
                self.set_state(CongState::Open);
                self.cc.cwnd_event(&mut self.win, CaEvent::CompleteCwr);
            } else {
                self.win.state = CongState::Open;
                if !self.owner.owns_in(CongState::Open) {
                    self.win.cwnd = self.win.ssthresh;
                    self.cwnd_infl = self.win.cwnd;
                    self.cc.cwnd_event(&mut self.win, CaEvent::CompleteCwr);
                }
            }
        }
        let mut fb = accecn::Feedback::default();
        if self.ecn.acc.on {
            fb = self.accecn_ack(ack, old_head, bytes_sacked, delivered);
        } else if self.ecn.state != ecn::EcnState::Disabled {
            let in_cwr = self.win.state == CongState::Cwr;
            if self.ecn.ack_received(ack, old_head, self.rx_flags, in_cwr) {
                self.enter_cwr(delivered);
            }
            // what DCTCP's `PktsAcked` reads (`m_ecnState`, `m_nextTxSequence`)
            self.win.ece_rcvd = self.ecn.state == ecn::EcnState::EceRcvd;
            if self.cc.ack_events() {
                self.win.next_tx = self.next_tx;
            }
        }
        if self.win.pacing {
            self.win.bytes_in_flight = self.sb.bytes_in_flight();
        }
        self.process_ack(b, sim, ack, old_head, bytes_sacked > 0, delivered);
        if self.owner == WindowOwner::OpenAndCwr {
            if delivered > 0 {
                self.ce_cong_control(fb, delivered);
            }
            // tcp_prague sets its pacing rate after the window, on every
            // ACK whatever the state (`prague_cong_control`)
            self.update_pacing_rate();
        }
        self.retrans_acked = false;
        if let Some(p) = prior {
            self.cong_control(p);
        }
        true
    }

    /// `GenerateSample` and `CongControl` after an ACK (a rate-sampling
    /// congestion control only), with the lost bytes, the pipe and the
    /// delivered count from before it; ns-3 counts the change in lost bytes
    /// either way.
    #[cold]
    #[inline(never)]
    fn cong_control(&mut self, (prior_lost, prior_in_flight, prior_delivered): (u32, u32, u64)) {
        let Some(r) = self.rate.as_deref_mut() else { return };
        let lost = self.sb.lost.abs_diff(prior_lost);
        let current = (r.conn.delivered - prior_delivered) as u32;
        let rs = *r.generate(current, lost, prior_in_flight, self.win.min_rtt);
        let rc = r.conn;
        self.cc.cong_control(&mut self.win, &rc, &rs);
    }

    /// `ProcessAck`: `sacked` if the ACK's SACK blocks marked something
    /// new, `delivered` the bytes it delivered (SACKed or acknowledged).
    fn process_ack(&mut self, b: &AgentBase, sim: &mut Sim, ack: u64, old_head: u64, sacked: bool, delivered: u32) {
        let mss = self.win.mss;
        // what congestion control reads (`m_lastAckedSeq`, the clock)
        self.win.last_acked = ack;
        self.win.high_tx = self.high_tx;
        self.win.now = sim.w.s.now;
        let mut exited_fast_recovery = false;
        let old_dupacks = self.dupacks;
        // ns-3's `m_bytesInFlight` as computed before the ACK's processing
        // (read by the recovery algorithm in recovery and CWR only)
        let bif_before = if matches!(self.win.state, CongState::Recovery | CongState::Cwr) { self.sb.bytes_in_flight() } else { 0 };
        // RFC 6675's duplicate ACK with SACK: one that SACKs something new
        let is_dupack = if self.sack { sacked } else { ack == old_head && ack < self.high_tx };
        if is_dupack {
            self.dup_ack(b, sim, delivered, bif_before);
        }
        if ack == old_head && ack == self.high_tx {
            return;
        } else if ack == old_head && ack > self.high_tx {
            self.next_tx = ack;
        } else if ack == old_head {
            let rtt = self.win.last_rtt;
            self.cc.pkts_acked(&mut self.win, 1, rtt);
        } else if ack > old_head {
            let mut bytes_acked = (ack - old_head) as u32;
            let mut segs = bytes_acked / mss;
            self.acked_not_processed += bytes_acked % mss;
            bytes_acked -= bytes_acked % mss;
            if self.acked_not_processed >= mss {
                segs += 1;
                bytes_acked += mss;
                self.acked_not_processed -= mss;
            }
            if !is_dupack {
                self.dupacks = 0;
            }
            let rtt = self.win.last_rtt;
            if ack < self.recover && self.win.state == CongState::Recovery {
                // a partial ACK (RFC 6582 step 3): resend the next hole
                if !self.sack {
                    self.sb.mark_head_lost();
                }
                if segs >= 1 && !self.owner.owns_in(CongState::Recovery) {
                    self.recovery_do(delivered, bif_before);
                }
                if !self.sb.retransmitted_unsacked(0) {
                    self.do_retransmit(b, sim);
                    self.cwnd_infl = self.cwnd_infl.saturating_sub(bytes_acked);
                }
                self.cc.pkts_acked(&mut self.win, 1, rtt);
                let first = self.first_partial_ack;
                self.new_ack(b, sim, ack, first);
                self.first_partial_ack = false;
            } else if ack < self.recover && self.win.state == CongState::Loss {
                self.cc.pkts_acked(&mut self.win, segs, rtt);
                self.win.next_tx = self.next_tx;
                self.cc.increase_window(&mut self.win, segs);
                self.new_ack(b, sim, ack, true);
            } else if self.win.state == CongState::Cwr {
                // ECN's reduction in progress: the recovery algorithm sets the window
                self.cc.pkts_acked(&mut self.win, segs, rtt);
                if segs >= 1 && !self.owner.owns_in(CongState::Cwr) {
                    self.recovery_do(delivered, bif_before);
                }
                self.new_ack(b, sim, ack, true);
            } else {
                match self.win.state {
                    CongState::Open => self.cc.pkts_acked(&mut self.win, segs, rtt),
                    CongState::Disorder => {
                        if segs >= old_dupacks {
                            self.cc.pkts_acked(&mut self.win, segs - old_dupacks, rtt);
                        }
                        if !is_dupack {
                            self.set_state(CongState::Open);
                        }
                    }
                    CongState::Recovery => {
                        self.first_partial_ack = true;
                        segs = ((ack - old_head) / mss as u64) as u32;
                        self.cc.pkts_acked(&mut self.win, segs, rtt);
                        self.cc.cwnd_event(&mut self.win, CaEvent::CompleteCwr);
                        self.set_state(CongState::Open);
                        exited_fast_recovery = true;
                        self.dupacks = 0;
                    }
                    CongState::Loss => {
                        self.first_partial_ack = true;
                        segs = ((ack - self.recover) / mss as u64) as u32;
                        self.cc.pkts_acked(&mut self.win, segs, rtt);
                        self.set_state(CongState::Open);
                    }
                    CongState::Cwr => {}
                }
                if ack >= self.recover {
                    self.recover_active = false;
                }
                if exited_fast_recovery {
                    self.new_ack(b, sim, ack, true);
                    self.win.cwnd = self.win.ssthresh;
                    // `ExitRecovery` (classic and PRR alike: the inflated
                    // window is the window)
                    self.cwnd_infl = self.win.cwnd;
                }
                if self.win.state == CongState::Open {
                    self.win.next_tx = self.next_tx;
                    if !self.owner.owns_in(CongState::Open) {
                        self.cc.increase_window(&mut self.win, segs);
                    }
                    self.cwnd_infl = self.win.cwnd;
                    self.new_ack(b, sim, ack, true);
                }
            }
        }
        if self.owner != WindowOwner::OpenAndCwr {
            // (Prague's is set after its window: `received_ack`)
            self.update_pacing_rate();
        }
    }

    /// `DupAck`.
    fn dup_ack(&mut self, b: &AgentBase, sim: &mut Sim, delivered: u32, bif_before: u32) {
        if self.win.state == CongState::Loss {
            return;
        }
        if self.win.state != CongState::Recovery {
            self.dupacks += 1;
        }
        if self.win.state == CongState::Open {
            self.set_state(CongState::Disorder);
        }
        if self.win.state == CongState::Recovery {
            if !self.sack {
                self.sb.add_reno_sack();
            }
            // (PRR reads the pipe as computed before this ACK's Reno SACK)
            if !self.owner.owns_in(CongState::Recovery) {
                self.recovery_do(delivered, bif_before);
            }
        } else if self.win.state == CongState::Disorder {
            if self.dupacks == self.cfg.retx_thresh && (self.high_rx_ack >= self.recover || !self.recover_active) {
                self.enter_recovery(b, sim, delivered);
            } else if self.sb.is_lost(1) {
                self.enter_recovery(b, sim, delivered);
            } else if !self.sack && self.cfg.limited_transmit {
                self.sb.add_reno_sack();
            }
        }
    }

    /// The recovery algorithm's `DoRecovery` on an ACK in recovery;
    /// `bytes_in_flight` is ns-3's last computed pipe.
    fn recovery_do(&mut self, delivered: u32, bytes_in_flight: u32) {
        match self.cfg.recovery {
            // `TcpClassicRecovery::DoRecovery`
            Recovery::Classic => self.cwnd_infl += self.win.mss,
            Recovery::Prr(bound) => {
                let w = self.prr.do_recovery(bound, self.win.ssthresh, bytes_in_flight, self.win.mss, delivered, self.retrans_acked);
                self.win.cwnd = w;
                self.cwnd_infl = w;
            }
        }
    }

    /// `EnterRecovery`.
    fn enter_recovery(&mut self, b: &AgentBase, sim: &mut Sim, delivered: u32) {
        if !self.sack {
            self.sb.add_reno_sack();
            self.sb.mark_head_lost();
        } else if !self.sb.is_lost(0) {
            // three dupacks, but fewer than three SACKed segments above the head
            self.sb.mark_head_lost();
        }
        self.recover = self.high_tx;
        self.recover_active = true;
        self.set_state(CongState::Recovery);
        // "still consider the head as in flight" without SACK (ns-3's note)
        let bif = self.sb.bytes_in_flight();
        let in_flight = if self.sack { bif } else { bif + self.win.mss };
        self.win.ssthresh = self.cc.ssthresh(&self.win, in_flight);
        match self.cfg.recovery {
            _ if self.owner.owns_in(CongState::Recovery) => {}
            // `TcpClassicRecovery::EnterRecovery`
            Recovery::Classic => {
                self.win.cwnd = self.win.ssthresh;
                self.cwnd_infl = self.win.ssthresh + self.dupacks * self.win.mss;
            }
            // `TcpPrrRecovery::EnterRecovery`: RecoverFS = the data outstanding
            Recovery::Prr(_) => {
                self.prr.enter((self.high_tx - self.una) as u32);
                self.recovery_do(delivered, bif);
            }
        }
        self.stats.fast_recoveries += 1;
        self.do_retransmit(b, sim);
    }

    /// `NewAck`.
    fn new_ack(&mut self, _b: &AgentBase, sim: &mut Sim, ack: u64, reset_rto: bool) {
        self.data_retr_count = self.cfg.data_retries;
        if self.state != TcpState::SynRcvd && reset_rto {
            self.rto = self.rto_est;
            self.retx_flags = 0;
            sim.w.s.timer_resched(self.retx_timer, to_s(self.rto));
        }
        self.app_fill();
        if ack > self.next_tx {
            self.next_tx = ack;
        }
        if self.app_end == self.una && self.state != TcpState::FinWait1 && self.state != TcpState::Closing {
            sim.w.s.timer_cancel(self.retx_timer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwrap_takes_the_nearest() {
        assert_eq!(unwrap(0, 5), 5);
        assert_eq!(unwrap(1 << 32, 3), (1 << 32) + 3);
        assert_eq!(unwrap((1 << 32) - 2, 1), (1 << 32) + 1);
        assert_eq!(unwrap(100, 90), 90);
        assert_eq!(unwrap(3, -10i32), 0);
    }

    #[test]
    fn header_sizes() {
        let c = Config::default();
        // 20 + timestamps 10 -> 32; the SYN adds window scale: 20 + 13 -> 36
        assert_eq!(c.tcp_header(false, false), 32);
        assert_eq!(c.tcp_header(true, false), 36);
        // SACK blocks after the timestamps: 10 + 2 + 8n, padded to 4
        assert_eq!(c.tcp_header_sack(false, false, 1), 40);
        assert_eq!(c.tcp_header_sack(false, false, 3), 56);
        // SACK-permitted on a SYN: 10 + 3 + 2 = 15 -> 16
        assert_eq!(c.tcp_header(true, true), 36);
        assert_eq!(Config::mss_for_mtu(1500, true), Some(1448));
        assert_eq!(Config::mss_for_mtu(1500, false), Some(1460));
        assert_eq!(Config::mss_for_mtu(40, false), None);
    }

    #[test]
    fn check_names_the_parameter() {
        let mut c = Config::default();
        c.delack_timeout = -1.0;
        assert!(c.check().unwrap_err().contains("delack_timeout"));
        let mut c = Config::default();
        c.retx_thresh = 0;
        assert!(c.check().unwrap_err().contains("retx_thresh"));
    }
}
