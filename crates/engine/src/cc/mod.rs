//! Congestion control behind one seam, shaped like Linux's
//! `tcp_congestion_ops` (include/net/tcp.h; ns-2 2.35 copies the Linux
//! 2.6.2x modules into tcp/linux/src/ and drives them from
//! tcp/tcp-linux.cc).  A congestion control is a type implementing
//! [`CongestionOps`] in a file of its own, and one line in the [`ccs!`]
//! list at the end of this file, which makes the [`Cc`] enum (static
//! dispatch: no trait objects, one `match` per hook).
//!
//! What an algorithm sees of the connection is [`Sock`], a small view
//! shaped like Linux's `struct tcp_sock` as ns-2's copy declares it
//! (tcp/linux/ns-linux-util.h): windows counted in segments, sequence
//! numbers in bytes, time in jiffies (1 ms) and nanoseconds.  It holds no
//! simulator type.  The sender that owns it loads its own state into the
//! view before a hook runs and reads the window back after it:
//!
//! * ns-2's `Agent/TCP/Linux` (`tcp/linux.rs`) counts packets: it sets
//!   `mss_cache` to `packetSize_` and keeps `snd_una`/`snd_nxt` as packet
//!   numbers times `mss_cache`, as tcp-linux.cc does.
//! * A byte-based TCP (an ns-3-style full TCP) keeps `snd_cwnd` in segments
//!   of its MSS: before a hook it sets `snd_cwnd = cWnd / mss` and
//!   `snd_ssthresh = ssThresh / mss`, `snd_una`/`snd_nxt` to its byte
//!   sequence numbers, `bytes_acked` to the bytes the ACK covers (RFC 3465
//!   counting), `now_jiffies`/`now_ns` from the simulation clock, and calls
//!   `pkts_acked(segments acked, send time of the newest acked segment in
//!   ns, 0 when unknown)` then `cong_avoid(ack in bytes, rtt, in-flight
//!   segments, good)`; after it, `cWnd = snd_cwnd * mss` (plus
//!   `snd_cwnd_cnt * mss / snd_cwnd` if it keeps a fractional window, as
//!   ns-3's does).  On loss it calls `ssthresh()` and sets the window
//!   itself, and `set_state` on each state change (Open, Disorder, CWR,
//!   Recovery, Loss: [`CaState`]).
//!
//! ## The ns-3 dialect
//!
//! The full TCP (`crate::socket`, after ns-3.37's TcpSocketBase) counts its
//! window in bytes and calls the `ns3_*` hooks of [`CongestionOps`], shaped
//! like ns-3.37's `TcpCongestionOps` (`GetSsThresh`, `IncreaseWindow`,
//! `PktsAcked`, `CongestionStateSet`, `CwndEvent`), at the places
//! TcpSocketBase calls them.  It keeps `cwnd_bytes` / `ssthresh_bytes`
//! (`m_cWnd`, `m_ssThresh`), `snd_nxt` (`m_nextTxSequence`), `snd_una`
//! (`m_lastAckedSeq`: the last ACK's number), `mss_cache`
//! (`m_segmentSize`) and the clock in [`Sock`].  An algorithm whose ns-3.37
//! port differs from the Linux module overrides these hooks in its own file
//! (`NS3_NATIVE`, with its ns-3 attributes as `NS3_PARAMS`): NewReno (the
//! `reno` entry), Scalable, Vegas, Veno, YeAH, Hybla, CUBIC, BIC, HighSpeed,
//! H-TCP, Illinois, Westwood, TCP-LP, DCTCP and LEDBAT (the full TCP's
//! only: `LINUX_DIALECT` false, ns-2 has no module of it).  The others (Compound,
//! which ns-3.37 lacks) run their Linux module through the defaults below, which adapt bytes to
//! segments (`snd_cwnd = cWnd / MSS` before a hook, `cWnd = snd_cwnd * MSS`
//! after it when the hook changed it).  ns-2's `Agent/TCP/Linux` calls only
//! the Linux hooks, so the dialects never meet.
//!
//! Where ns-2 would divide by zero (a parameter or a packet size of 0:
//! SIGFPE) the quotient is taken as 0 instead.
//!
//! Integer widths are those of ns-2's build on a 64-bit machine, where its
//! `u32` is `unsigned long` (64 bits) and its `u16` `unsigned int`: the
//! same arithmetic overflows later than in a kernel.  Where ns-3.37's port
//! of an algorithm differs from this (Linux 2.6 as ns-2 has it), the
//! algorithm's file says so in its header, for a later dialect switch.
//!
//! | hook | Linux | when the sender calls it |
//! |---|---|---|
//! | [`CongestionOps::init`] | `init` | first ACK of the connection (ns-2: first ACK after `select_ca`) |
//! | [`CongestionOps::ssthresh`] | `ssthresh` | a loss is detected (fast retransmit or timeout) |
//! | [`CongestionOps::min_cwnd`] | `min_cwnd` | the window after fast retransmit (none: `ssthresh`) |
//! | [`CongestionOps::cong_avoid`] | `cong_avoid` | an ACK that may raise the window |
//! | [`CongestionOps::rtt_sample`] | `rtt_sample` | each RTT sample, in microseconds |
//! | [`CongestionOps::set_state`] | `set_state` | before the congestion state changes |
//! | [`CongestionOps::cwnd_event`] | `cwnd_event` | the events of [`CaEvent`] |
//! | [`CongestionOps::undo_cwnd`] | `undo_cwnd` | a spurious loss is undone (not by ns-2's sender) |
//! | [`CongestionOps::pkts_acked`] | `pkts_acked` | an ACK acknowledging new data |
//! | [`CongestionOps::in_ack_event`] | `in_ack_event` | every ACK, before `pkts_acked`, with [`CA_ACK_ECE`] if it echoes CE |
//!
//! An algorithm that needs ECN (Linux's `TCP_CONG_NEEDS_ECN`: DCTCP,
//! Prague) says so in `NEEDS_ECN`; the sender then turns ECN on, its
//! receiver echoes CE exactly (RFC 8257 section 3.2, not RFC 3168's latch
//! until CWR), an ECN echo alone enters CWR (once per window, as Linux)
//! rather than Recovery, and a loss calls `set_state(Recovery)` before the
//! window is cut, as Linux's order is.  `ECT1` marks its packets ECT(1)
//! (L4S, RFC 9331) rather than ECT(0).
//!
//! Module parameters (`module_param`: CUBIC's `beta`, Vegas's `alpha`
//! ...) are declared once per algorithm, as [`Param`]s in its `PARAMS`;
//! the sender hands their current values to the hooks in `Sock::p`
//! (ns-2's `set_ca_default_param` changes a default for every sender,
//! `set_ca_param` one sender's value).

pub mod bbr;
pub mod bic;
pub mod compound;
pub mod cubic;
pub mod dctcp;
pub mod highspeed;
pub mod htcp;
pub mod hybla;
pub mod illinois;
pub mod ledbat;
pub mod lp;
pub mod naive_reno;
pub mod prague;
pub mod reno;
pub mod scalable;
pub mod vegas;
pub mod veno;
pub mod westwood;
pub mod yeah;

/// Linux's congestion-avoidance states (`enum tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CaState {
    Open = 0,
    Disorder = 1,
    Cwr = 2,
    Recovery = 3,
    Loss = 4,
}

/// Linux's `enum tcp_ca_event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaEvent {
    /// First transmit when no packets are in flight.
    TxStart,
    /// Congestion window restart after idle.
    CwndRestart,
    /// End of congestion recovery.
    CompleteCwr,
    /// F-RTO timeout.
    Frto,
    /// Retransmission timeout.
    Loss,
    /// An in-sequence ACK in the Open state.
    FastAck,
    /// Any other ACK.
    SlowAck,
    /// The receiver delays an ACK / sends one at once (ns-3's
    /// `CA_EVENT_DELAYED_ACK`, `CA_EVENT_NON_DELAYED_ACK`; later Linux).
    DelayedAck,
    NonDelayedAck,
    /// The receiver got a segment marked CE / an ECN-capable one not
    /// marked (ns-3's `CA_EVENT_ECN_IS_CE`, `CA_EVENT_ECN_NO_CE`; Linux's
    /// `CA_EVENT_ECN_IS_CE`/`ECN_NO_CE`), with `Sock::rcv_nxt` current.
    EcnIsCe,
    EcnNoCe,
}

/// What a receiver-side event asks of the socket (`Sock::ack_request`,
/// ns-3's `m_sendEmptyPacketCallback` from TcpDctcp's CE state machine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AckRequest {
    #[default]
    None,
    /// Send a pure ACK for `seq` now (then go on with the current one),
    /// with ECE or without.
    Ack { seq: u64, ece: bool },
}

/// `in_ack_event`'s flags (Linux's `enum tcp_ca_ack_event_flags`).
pub const CA_ACK_SLOWPATH: u32 = 1;
pub const CA_ACK_WIN_UPDATE: u32 = 2;
/// The ACK echoes CE (ECE).
pub const CA_ACK_ECE: u32 = 4;

/// Most module parameters (or ns-3 attributes: ns-3.37's TcpCubic has
/// 12, and the full TCP's CUBIC adds `tcp_friendliness`) of one algorithm.
pub const MAX_PARAMS: usize = 14;

/// A module parameter (`module_param` + `MODULE_PARM_DESC`).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub about: &'static str,
}

/// The connection as an algorithm sees it (Linux's `struct tcp_sock`,
/// the members ns-2's copy keeps).  See the module header for the widths
/// and for how a sender fills it.
#[derive(Clone, Debug)]
pub struct Sock {
    /// Next sequence number to send, in bytes.
    pub snd_nxt: u64,
    /// First unacknowledged byte.
    pub snd_una: u64,
    /// The segment size.
    pub mss_cache: u64,
    /// Smoothed RTT in the sender's ticks, times 8 (Linux's `srtt`).
    pub srtt: u64,
    /// The last ACK's timestamp echo and value, in jiffies, when it had
    /// them (`rx_opt`).
    pub rcv_tsecr: u64,
    pub rcv_tsval: u64,
    pub saw_tstamp: bool,
    pub snd_ssthresh: u64,
    /// The congestion window in segments.
    pub snd_cwnd: u64,
    /// Linear-increase counter (an `unsigned int`).
    pub snd_cwnd_cnt: u32,
    /// The window may not grow beyond this (an `unsigned int`).
    pub snd_cwnd_clamp: u32,
    /// `tcp_time_stamp` when the window last changed.
    pub snd_cwnd_stamp: u64,
    /// Bytes acknowledged since the last increase (RFC 3465).
    pub bytes_acked: u64,
    pub ca_state: CaState,
    /// `tcp_time_stamp`: now in jiffies (ms).
    pub now_jiffies: u64,
    /// `ktime_get_real`: now in ns.
    pub now_ns: i64,
    /// `sysctl_tcp_abc`: 0 counts ACKs, 1 bytes (RFC 3465), 2 also lets
    /// slow start grow by two for an ACK of two segments.
    pub abc: i32,
    /// `sysctl_tcp_max_ssthresh` (RFC 3742 limited slow start; 0: off).
    pub max_ssthresh: i32,
    /// The algorithm's module parameters, in the order of its `PARAMS`.
    pub p: [i32; MAX_PARAMS],
    /// ns-2's `debug_level` (the "linux" module's): at 1 or below
    /// `pr_debug` prints (TCP-LP's per-ACK line).
    pub debug_level: i32,
    /// What the algorithm printed (C's stdout in ns-2), for the sender to
    /// pass on.
    pub log: Vec<u8>,
    /// The ns-3 dialect's window and threshold in bytes (`m_cWnd`,
    /// `m_ssThresh`); see the module header.
    pub cwnd_bytes: u32,
    pub ssthresh_bytes: u32,
    /// The ns-3 dialect's `m_minRtt` (the least SRTT so far), ns.
    pub min_rtt_ns: i64,
    /// The full TCP's Prague, in `pkts_acked` only: when the newest
    /// segment the ACK covers was sent (s; -1: none or retransmitted),
    /// for an RTT sample to the microsecond against `now_ns`.
    pub ack_sent: f64,
    /// ns-3 dialect, ECN (DCTCP's): the sender's ECN state is
    /// `ECN_ECE_RCVD` (read by `PktsAcked`); the receiver's next expected
    /// byte (`NextRxSequence`, for `EcnIsCe`/`EcnNoCe`); what such an
    /// event asks the socket to send; and whether it takes the receiver's
    /// ECN state back to idle (`CeState1to0`).
    pub ece_rcvd: bool,
    /// The ns-3 dialect's `m_highTxMark` (bytes; CUBIC's HyStart round).
    pub high_tx: u64,
    pub rcv_nxt: u64,
    pub ack_request: AckRequest,
    pub ecn_idle: bool,
    /// Linux's `tcp_is_cwnd_limited` as the full TCP's socket tracks it
    /// (`Socket::cwnd_validate`), set before a per-ACK `ns3_cong_control`
    /// (Prague's `cwnd_limited` gate); true elsewhere.
    pub cwnd_limited: bool,
}

impl Default for Sock {
    fn default() -> Self {
        Sock {
            snd_nxt: 0,
            snd_una: 0,
            mss_cache: 1000,
            srtt: 0,
            rcv_tsecr: 0,
            rcv_tsval: 0,
            saw_tstamp: false,
            snd_ssthresh: 0,
            snd_cwnd: 2,
            snd_cwnd_cnt: 0,
            snd_cwnd_clamp: u32::MAX,
            snd_cwnd_stamp: 0,
            bytes_acked: 0,
            ca_state: CaState::Open,
            now_jiffies: 0,
            now_ns: 0,
            abc: 1,
            max_ssthresh: 0,
            p: [0; MAX_PARAMS],
            debug_level: 1,
            log: Vec::new(),
            cwnd_bytes: 0,
            ssthresh_bytes: 0,
            min_rtt_ns: i64::MAX,
            ack_sent: -1.0,
            ece_rcvd: false,
            high_tx: 0,
            rcv_nxt: 0,
            ack_request: AckRequest::None,
            ecn_idle: false,
            cwnd_limited: true,
        }
    }
}

/// Linux's `HZ` as ns-2 sets it: jiffies are milliseconds.
pub const HZ: u64 = 1000;

impl Sock {
    /// `tcp_is_cwnd_limited` as ns-2's copy has it.
    #[inline]
    pub fn is_cwnd_limited(&self, in_flight: u64) -> bool {
        in_flight >= self.snd_cwnd
    }

    /// `tcp_slow_start` (net/ipv4/tcp_cong.c, Linux 2.6.2x): grow by one
    /// segment per `snd_cwnd` counted (RFC 3465 with `abc`: only once a
    /// full segment's bytes are acknowledged; RFC 3742 with
    /// `max_ssthresh`).
    pub fn slow_start(&mut self) {
        if self.abc != 0 && self.bytes_acked < self.mss_cache {
            return;
        }
        let mut cnt: i64 = if self.max_ssthresh > 0 && self.snd_cwnd > self.max_ssthresh as u64 {
            (self.max_ssthresh >> 1) as i64
        } else {
            self.snd_cwnd as i64
        };
        if self.abc > 1 && self.bytes_acked >= 2 * self.mss_cache {
            cnt <<= 1;
        }
        self.bytes_acked = 0;
        self.snd_cwnd_cnt = self.snd_cwnd_cnt.wrapping_add(cnt as u32);
        while self.snd_cwnd_cnt as u64 >= self.snd_cwnd {
            self.snd_cwnd_cnt = (self.snd_cwnd_cnt as u64).wrapping_sub(self.snd_cwnd) as u32;
            if self.snd_cwnd < self.snd_cwnd_clamp as u64 {
                self.snd_cwnd += 1;
            }
        }
    }

    /// `TcpSocketState::GetCwndInSegments`: the byte window in whole
    /// segments (ns-3 dialect).
    #[inline]
    pub fn cwnd_segments(&self) -> u32 {
        if self.mss_cache == 0 {
            0
        } else {
            (self.cwnd_bytes as u64 / self.mss_cache) as u32
        }
    }

    /// The Linux view of a byte window (the ns-3 dialect's adapter for an
    /// algorithm without an ns-3 port of its own): `snd_cwnd` and
    /// `snd_ssthresh` in segments.
    pub fn load_segments(&mut self) {
        let m = self.mss_cache.max(1);
        self.snd_cwnd = (self.cwnd_bytes as u64 / m).max(1);
        self.snd_ssthresh = self.ssthresh_bytes as u64 / m;
        self.now_jiffies = (self.now_ns.max(0) as u64) / 1_000_000;
    }

    /// Back to bytes after a Linux hook ran on the segment view: a window
    /// or threshold the hook changed becomes segments * MSS (an unchanged
    /// one keeps its bytes).
    pub fn store_segments(&mut self, cwnd: u64, ssthresh: u64) {
        let m = self.mss_cache.max(1);
        if self.snd_cwnd != cwnd {
            self.cwnd_bytes = (self.snd_cwnd * m).min(u32::MAX as u64) as u32;
        }
        if self.snd_ssthresh != ssthresh {
            self.ssthresh_bytes = (self.snd_ssthresh * m).min(u32::MAX as u64) as u32;
        }
    }

    /// Additive increase by one segment per window (`tcp_reno_cong_avoid`'s
    /// congestion-avoidance step without `abc`).
    #[inline]
    pub fn cong_avoid_ai(&mut self, w: u64) {
        if self.snd_cwnd_cnt as u64 >= w {
            if self.snd_cwnd < self.snd_cwnd_clamp as u64 {
                self.snd_cwnd += 1;
            }
            self.snd_cwnd_cnt = 0;
        } else {
            self.snd_cwnd_cnt = self.snd_cwnd_cnt.wrapping_add(1);
        }
    }
}

/// An algorithm (Linux's `struct tcp_congestion_ops`).  `ssthresh` and
/// `cong_avoid` are required; every other hook, when an algorithm has
/// none, does what Linux does without it.
pub trait CongestionOps: Default + Clone + std::fmt::Debug {
    /// Its name for `select_ca` / `cc=`.
    const NAME: &'static str;
    /// Its module parameters.
    const PARAMS: &'static [Param] = &[];
    /// `TCP_CONG_RTT_STAMP`, or an `rtt_sample` hook: the sender must keep
    /// each segment's send time for exact RTT samples.
    const RTT_STAMP: bool = false;
    /// Whether `min_cwnd` is a hook of its own (else the window after
    /// fast retransmit is `ssthresh`).
    const HAS_MIN_CWND: bool = false;
    /// Whether `rtt_sample` is a hook of its own.
    const HAS_RTT_SAMPLE: bool = false;
    /// `TCP_CONG_NEEDS_ECN` (see the module header).
    const NEEDS_ECN: bool = false;
    /// Its packets carry ECT(1) (an L4S congestion control).
    const ECT1: bool = false;
    /// Whether ns-2's `Agent/TCP/Linux` offers it (`select_ca`): false for
    /// an algorithm ns-2 2.35 has no module of and whose Linux hooks are
    /// only a fallback (LEDBAT).
    const LINUX_DIALECT: bool = true;

    fn init(&mut self, _sk: &mut Sock) {}
    fn ssthresh(&mut self, sk: &Sock) -> u64;
    fn min_cwnd(&self, sk: &Sock) -> u64 {
        sk.snd_ssthresh
    }
    fn cong_avoid(&mut self, sk: &mut Sock, ack: u64, rtt: u64, in_flight: u64, good: bool);
    fn rtt_sample(&mut self, _sk: &mut Sock, _usrtt: u64) {}
    fn set_state(&mut self, _sk: &mut Sock, _new: CaState) {}
    fn cwnd_event(&mut self, _sk: &mut Sock, _ev: CaEvent) {}
    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        sk.snd_cwnd.max(sk.snd_ssthresh << 1)
    }
    fn pkts_acked(&mut self, _sk: &mut Sock, _num_acked: u64, _last_ns: i64) {}
    /// Every ACK (`CA_ACK_*` flags), after `snd_una` moved.
    fn in_ack_event(&mut self, _sk: &mut Sock, _flags: u32) {}

    // ---- the ns-3 dialect (module header); the defaults adapt the Linux
    // ---- hooks above to a byte window

    /// Whether the `ns3_*` hooks are the algorithm's own ns-3.37 port.
    const NS3_NATIVE: bool = false;
    /// The ns-3 attributes of that port (default: the module parameters).
    const NS3_PARAMS: &'static [Param] = Self::PARAMS;
    /// Whether `ns3_cwnd_event` wants the receiver's events: `DelayedAck` /
    /// `NonDelayedAck` (one per data segment received) and `EcnIsCe` /
    /// `EcnNoCe` (one per ECN-capable segment): DCTCP's receiver echoes CE
    /// from them.  For the others the socket skips them.
    const NS3_ACK_EVENTS: bool = false;
    /// Whether `ns3_pkts_acked` does anything (NewReno's and Scalable's do
    /// not: the socket skips the call).
    const NS3_PKTS_ACKED: bool = true;
    /// Whether the ns-3 dialect sets the window on every ACK itself
    /// (`ns3_cong_control`, Linux's `cong_control`) in Open and CWR, from
    /// AccECN's feedback (Prague): the socket then asks for AccECN, skips
    /// `ns3_increase_window` and PRR there, and leaves the ECN reduction to
    /// `ns3_state_set(Cwr)`.
    const NS3_CONG_CONTROL: bool = false;
    /// Whether its ns-3 dialect reads the clock (`Simulator::Now()`,
    /// `Sock::now_ns`): every Linux module (`now_jiffies`) and the ns-3
    /// ports that say so; for the others the socket leaves it stale.
    const NS3_CLOCK: bool = !Self::NS3_NATIVE;

    /// `Init`, at the first ACK (ns-2's moment for a Linux module; ns-3
    /// calls it when the socket is made, which its own ports do not need).
    fn ns3_init(&mut self, sk: &mut Sock) {
        sk.load_segments();
        self.init(sk);
    }
    /// `GetSsThresh`: the new ssthresh in bytes (the socket sets it).
    fn ns3_ssthresh(&mut self, sk: &mut Sock, _bytes_in_flight: u32) -> u32 {
        sk.load_segments();
        let ss = self.ssthresh(sk).max(2);
        (ss * sk.mss_cache.max(1)).min(u32::MAX as u64) as u32
    }
    /// `IncreaseWindow`: an ACK of `segments_acked` segments in Open or Loss.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        if sk.ca_state == CaState::Open {
            self.cwnd_event(sk, CaEvent::FastAck);
        }
        sk.bytes_acked += segments_acked as u64 * sk.mss_cache;
        let (ack, flight) = (sk.snd_una, sk.snd_cwnd);
        self.cong_avoid(sk, ack, 0, flight, true);
        sk.store_segments(c, s);
    }
    /// `PktsAcked`: segments acknowledged and the RTT estimate (ns; 0
    /// before the first sample).
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, segments_acked: u32, rtt_ns: i64) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        if rtt_ns > 0 {
            if Self::HAS_RTT_SAMPLE {
                self.rtt_sample(sk, (rtt_ns / 1000) as u64);
            }
        }
        let sent = if rtt_ns > 0 { sk.now_ns - rtt_ns } else { 0 };
        self.pkts_acked(sk, segments_acked as u64, sent);
        sk.store_segments(c, s);
    }
    /// `CongestionStateSet`: before the state changes.
    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        self.set_state(sk, new);
        sk.store_segments(c, s);
    }
    /// Every ACK that delivered data, for a `NS3_CONG_CONTROL` algorithm:
    /// `delivered` bytes (acknowledged or SACKed), `ce` of them CE-marked.
    fn ns3_cong_control(&mut self, _sk: &mut Sock, _delivered: u64, _ce: u64) {}
    /// `CwndEvent`.
    fn ns3_cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        self.cwnd_event(sk, ev);
        sk.store_segments(c, s);
    }
}

/// C++'s `static_cast<uint32_t>` of a double as gcc compiles it on x86-64
/// (ns-3's ports): a 64-bit conversion, its low 32 bits; infinity, NaN and
/// magnitudes from 2^63 give 0.
#[inline]
pub fn cast_u32(x: f64) -> u32 {
    if x.is_finite() && x.abs() < 9.223_372_036_854_775_807e18 {
        x as i64 as u32
    } else {
        0
    }
}

/// `fls`: the position of the highest set bit (1-based), 0 for 0.
#[inline]
pub fn fls(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// `fls64`.
#[inline]
pub fn fls64(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// `div64_64` as ns-2's ns-linux-c.c has it: the divisor is shifted into
/// 32 bits first (with the dividend), then `do_div` divides by a 32-bit
/// base.
pub fn div64_64(mut dividend: u64, divisor: u64) -> u64 {
    let high = (divisor >> 32) as u32;
    let d: u32 = if high != 0 {
        let shift = fls(high);
        dividend >>= shift;
        (divisor >> shift) as u32
    } else {
        divisor as u32
    };
    dividend / d as u64
}

macro_rules! ccs {
    ($($variant:ident($ty:ty),)*) => {
        /// Every algorithm, by value (see the module header).
        #[derive(Clone, Debug)]
        pub enum Cc {
            $($variant($ty),)*
        }

        /// Which algorithm (an index into the list).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Kind {
            $($variant,)*
        }

        impl Kind {
            pub const ALL: &'static [Kind] = &[$(Kind::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Kind::$variant => <$ty>::NAME,)* }
            }

            pub fn by_name(name: &str) -> Option<Kind> {
                Kind::ALL.iter().copied().find(|k| k.name() == name)
            }

            pub fn params(self) -> &'static [Param] {
                match self { $(Kind::$variant => <$ty>::PARAMS,)* }
            }

            pub fn rtt_stamp(self) -> bool {
                match self { $(Kind::$variant => <$ty>::RTT_STAMP || <$ty>::HAS_RTT_SAMPLE,)* }
            }

            pub fn has_rtt_sample(self) -> bool {
                match self { $(Kind::$variant => <$ty>::HAS_RTT_SAMPLE,)* }
            }

            pub fn needs_ecn(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NEEDS_ECN,)* }
            }

            pub fn ect1(self) -> bool {
                match self { $(Kind::$variant => <$ty>::ECT1,)* }
            }

            /// The attributes of its ns-3 dialect.
            pub fn ns3_params(self) -> &'static [Param] {
                match self { $(Kind::$variant => <$ty>::NS3_PARAMS,)* }
            }

            /// Whether its ns-3 dialect is a port of ns-3.37's (else the
            /// Linux module adapted to bytes).
            pub fn ns3_native(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NS3_NATIVE,)* }
            }

            /// Whether its ns-3 dialect takes the receiver's delayed /
            /// non-delayed ACK events.
            pub fn ns3_ack_events(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NS3_ACK_EVENTS,)* }
            }

            /// Whether its ns-3 dialect's `PktsAcked` does anything.
            pub fn ns3_pkts_acked(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NS3_PKTS_ACKED,)* }
            }

            /// Whether its ns-3 dialect sets the window per ACK itself.
            pub fn ns3_cong_control(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NS3_CONG_CONTROL,)* }
            }

            /// Whether its ns-3 dialect reads the clock.
            pub fn ns3_clock(self) -> bool {
                match self { $(Kind::$variant => <$ty>::NS3_CLOCK,)* }
            }

            /// Whether ns-2's `Agent/TCP/Linux` offers it.
            pub fn linux_dialect(self) -> bool {
                match self { $(Kind::$variant => <$ty>::LINUX_DIALECT,)* }
            }

            /// A new instance (its private state as `init` will find it).
            pub fn make(self) -> Cc {
                match self { $(Kind::$variant => Cc::$variant(<$ty>::default()),)* }
            }
        }

        impl Cc {
            pub fn kind(&self) -> Kind {
                match self { $(Cc::$variant(_) => Kind::$variant,)* }
            }
            pub fn init(&mut self, sk: &mut Sock) {
                match self { $(Cc::$variant(c) => c.init(sk),)* }
            }
            pub fn ssthresh(&mut self, sk: &Sock) -> u64 {
                match self { $(Cc::$variant(c) => c.ssthresh(sk),)* }
            }
            /// The window after fast retransmit: `min_cwnd`, or `ssthresh`
            /// for an algorithm without it.
            pub fn min_cwnd(&self, sk: &Sock) -> u64 {
                match self { $(Cc::$variant(c) => if <$ty>::HAS_MIN_CWND { c.min_cwnd(sk) } else { sk.snd_ssthresh },)* }
            }
            pub fn cong_avoid(&mut self, sk: &mut Sock, ack: u64, rtt: u64, in_flight: u64, good: bool) {
                match self { $(Cc::$variant(c) => c.cong_avoid(sk, ack, rtt, in_flight, good),)* }
            }
            pub fn rtt_sample(&mut self, sk: &mut Sock, usrtt: u64) {
                match self { $(Cc::$variant(c) => c.rtt_sample(sk, usrtt),)* }
            }
            pub fn set_state(&mut self, sk: &mut Sock, new: CaState) {
                match self { $(Cc::$variant(c) => c.set_state(sk, new),)* }
            }
            pub fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
                match self { $(Cc::$variant(c) => c.cwnd_event(sk, ev),)* }
            }
            pub fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
                match self { $(Cc::$variant(c) => c.undo_cwnd(sk),)* }
            }
            pub fn pkts_acked(&mut self, sk: &mut Sock, num_acked: u64, last_ns: i64) {
                match self { $(Cc::$variant(c) => c.pkts_acked(sk, num_acked, last_ns),)* }
            }
            pub fn in_ack_event(&mut self, sk: &mut Sock, flags: u32) {
                match self { $(Cc::$variant(c) => c.in_ack_event(sk, flags),)* }
            }
            pub fn ns3_init(&mut self, sk: &mut Sock) {
                match self { $(Cc::$variant(c) => c.ns3_init(sk),)* }
            }
            pub fn ns3_ssthresh(&mut self, sk: &mut Sock, bytes_in_flight: u32) -> u32 {
                match self { $(Cc::$variant(c) => c.ns3_ssthresh(sk, bytes_in_flight),)* }
            }
            pub fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
                match self { $(Cc::$variant(c) => c.ns3_increase_window(sk, segments_acked),)* }
            }
            pub fn ns3_pkts_acked(&mut self, sk: &mut Sock, segments_acked: u32, rtt_ns: i64) {
                match self { $(Cc::$variant(c) => c.ns3_pkts_acked(sk, segments_acked, rtt_ns),)* }
            }
            pub fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
                match self { $(Cc::$variant(c) => c.ns3_state_set(sk, new),)* }
            }
            pub fn ns3_cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
                match self { $(Cc::$variant(c) => c.ns3_cwnd_event(sk, ev),)* }
            }
            pub fn ns3_cong_control(&mut self, sk: &mut Sock, delivered: u64, ce: u64) {
                match self { $(Cc::$variant(c) => c.ns3_cong_control(sk, delivered, ce),)* }
            }
        }
    };
}

ccs! {
    Reno(reno::Reno),
    NaiveReno(naive_reno::NaiveReno),
    Bic(bic::Bic),
    Cubic(cubic::Cubic),
    HighSpeed(highspeed::HighSpeed),
    Scalable(scalable::Scalable),
    Vegas(vegas::Vegas),
    Veno(veno::Veno),
    Yeah(yeah::Yeah),
    Htcp(htcp::Htcp),
    Hybla(hybla::Hybla),
    Illinois(illinois::Illinois),
    Westwood(westwood::Westwood),
    Lp(lp::Lp),
    Compound(compound::Compound),
    Dctcp(dctcp::Dctcp),
    Prague(prague::Prague),
    Ledbat(ledbat::Ledbat),
}

/// The sender-level module parameters of ns-2's TCP-Linux
/// (tcp/linux/ns-linux-param.c, the "linux" module of `set_ca_param`), in
/// their order in memory.  They are `unsigned char`s that ns-2 registers
/// as `int` parameters: setting one writes four bytes, over the next two
/// (`set_ca_default_param linux debug_level 2`, which ns-2's own
/// test-suite-tcpLinux.tcl does, zeroes `tcp_max_burst` and
/// `sysctl_tcp_abc` in ns-2 2.35 as Debian builds it); see
/// `Shared::effective`.
pub const LINUX_PARAMS: &[Param] = &[
    Param { name: "debug_level", default: 1, about: "The debug level: 0: INFO; <=1: NOTICE; <=2: ERROR" },
    Param { name: "tcp_max_burst", default: 3, about: "the maximum burst size of a TCP" },
    Param { name: "sysctl_tcp_abc", default: 1, about: "whether we needs ABC or not" },
];
pub const LINUX_DEBUG_LEVEL: usize = 0;
pub const LINUX_MAX_BURST: usize = 1;
pub const LINUX_ABC: usize = 2;

/// A parameter module: "linux" (the sender's) or an algorithm's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Module {
    Linux,
    Cc(Kind),
}

impl Module {
    pub fn by_name(name: &str) -> Option<Module> {
        if name == "linux" {
            Some(Module::Linux)
        } else {
            Kind::by_name(name).map(Module::Cc)
        }
    }

    pub fn params(self) -> &'static [Param] {
        match self {
            Module::Linux => LINUX_PARAMS,
            Module::Cc(k) => k.params(),
        }
    }

    fn slot(self) -> usize {
        match self {
            Module::Linux => 0,
            Module::Cc(k) => 1 + k as usize,
        }
    }

    pub fn param_index(self, name: &str) -> Option<usize> {
        self.params().iter().position(|p| p.name == name)
    }
}

/// What every Linux-style sender of a simulation shares: ns-2's globals
/// `tcp_time_stamp` and `ktime_get_real` (set when any such sender takes
/// an ACK, read by all, stale in a timeout), and the modules' parameter
/// defaults (`set_ca_default_param` changes them for every sender).
#[derive(Clone, Debug)]
pub struct Shared {
    pub tcp_time_stamp: u64,
    pub ktime_get_real: i64,
    defaults: Vec<[i32; MAX_PARAMS]>,
}

impl Default for Shared {
    fn default() -> Self {
        let mut defaults = vec![[0; MAX_PARAMS]; 1 + Kind::ALL.len()];
        for m in std::iter::once(Module::Linux).chain(Kind::ALL.iter().map(|k| Module::Cc(*k))) {
            for (i, p) in m.params().iter().enumerate() {
                defaults[m.slot()][i] = p.default;
            }
        }
        Shared { tcp_time_stamp: 0, ktime_get_real: 0, defaults }
    }
}

impl Shared {
    /// A parameter's default, as ns-2 reads it (an `int` at its address:
    /// for the "linux" module's bytes, four of them).
    pub fn default_param(&self, m: Module, i: usize) -> i32 {
        match m {
            Module::Linux => {
                let bytes = self.linux_bytes(&[]);
                i32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]])
            }
            _ => self.defaults[m.slot()][i],
        }
    }

    pub fn set_default_param(&mut self, m: Module, i: usize, v: i32) {
        match m {
            Module::Linux => {
                let mut bytes = self.linux_bytes(&[]);
                write_int(&mut bytes, i, v);
                for (j, b) in bytes.iter().take(LINUX_PARAMS.len()).enumerate() {
                    self.defaults[0][j] = *b as i32;
                }
            }
            _ => self.defaults[m.slot()][i] = v,
        }
    }

    /// The "linux" module's bytes in memory (and the padding after them),
    /// with one sender's own values written over them in order.
    fn linux_bytes(&self, local: &[(Module, u8, i32)]) -> [u8; 8] {
        let mut bytes = [0u8; 8];
        for (j, b) in bytes.iter_mut().take(LINUX_PARAMS.len()).enumerate() {
            *b = self.defaults[0][j] as u8;
        }
        for &(lm, i, v) in local {
            if lm == Module::Linux {
                write_int(&mut bytes, i as usize, v);
            }
        }
        bytes
    }

    /// A module's parameters: the defaults, with one sender's own values
    /// (`local`: module, index, value) over them.
    pub fn effective(&self, m: Module, local: &[(Module, u8, i32)]) -> [i32; MAX_PARAMS] {
        let mut p = self.defaults[m.slot()];
        match m {
            Module::Linux => {
                let bytes = self.linux_bytes(local);
                for (j, v) in p.iter_mut().take(LINUX_PARAMS.len()).enumerate() {
                    *v = bytes[j] as i32;
                }
            }
            _ => {
                for &(lm, i, v) in local {
                    if lm == m {
                        p[i as usize] = v;
                    }
                }
            }
        }
        p
    }
}

/// An `int` written at byte `at` of `bytes` (little-endian; what falls
/// beyond them is lost, as ns-2's write there reaches other variables).
fn write_int(bytes: &mut [u8; 8], at: usize, v: i32) {
    for (k, b) in v.to_le_bytes().iter().enumerate() {
        if at + k < bytes.len() {
            bytes[at + k] = *b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2's "linux" parameters are bytes written as ints: setting
    /// debug_level 2 zeroes the two after it (tcp_max_burst,
    /// sysctl_tcp_abc); setting tcp_max_burst 5 zeroes sysctl_tcp_abc.
    #[test]
    fn linux_params_are_bytes_written_as_ints() {
        let mut s = Shared::default();
        let l = Module::Linux;
        assert_eq!(s.effective(l, &[])[..3], [1, 3, 1]);
        assert_eq!(s.default_param(l, LINUX_MAX_BURST), 3 + (1 << 8));
        s.set_default_param(l, 0, 2);
        assert_eq!(s.effective(l, &[])[..3], [2, 0, 0]);
        let s = Shared::default();
        assert_eq!(s.effective(l, &[(l, LINUX_MAX_BURST as u8, 5)])[..3], [1, 5, 0]);
    }

    #[test]
    fn names_are_unique_and_found() {
        for k in Kind::ALL {
            assert_eq!(Kind::by_name(k.name()), Some(*k));
            assert!(k.params().len() <= MAX_PARAMS && k.ns3_params().len() <= MAX_PARAMS);
        }
        assert_eq!(Kind::by_name("nosuch"), None);
    }

    /// RFC 3465 slow start as tcp_slow_start does it with abc 1: nothing
    /// until a full segment is acknowledged, then one segment per ACK
    /// whatever the bytes (cnt = cwnd is added to cwnd_cnt, which wraps
    /// once: +1).
    #[test]
    fn slow_start_counts_bytes() {
        let mut sk = Sock { snd_cwnd: 4, snd_cwnd_clamp: 100, mss_cache: 1000, ..Default::default() };
        sk.bytes_acked = 999;
        sk.slow_start();
        assert_eq!(sk.snd_cwnd, 4);
        sk.bytes_acked = 2000;
        sk.slow_start();
        assert_eq!((sk.snd_cwnd, sk.bytes_acked, sk.snd_cwnd_cnt), (5, 0, 0));
        // abc 2: two segments acked by one ACK count twice: cnt = 2*5 = 10
        // -> cwnd_cnt 10 >= 5: 6 (cnt 5), 5 < 6 stays.
        sk.abc = 2;
        sk.bytes_acked = 2000;
        sk.slow_start();
        assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (6, 5));
        // The clamp holds the window.
        let mut sk = Sock { snd_cwnd: 7, snd_cwnd_clamp: 7, bytes_acked: 1000, ..Default::default() };
        sk.slow_start();
        assert_eq!(sk.snd_cwnd, 7);
    }

    #[test]
    fn bit_helpers() {
        assert_eq!((fls(0), fls(1), fls(0x8000_0000)), (0, 1, 32));
        assert_eq!((fls64(0), fls64(1 << 40)), (0, 41));
        assert_eq!(div64_64(1000, 7), 142);
        // A divisor beyond 32 bits: both shifted right by fls(high) = 1.
        assert_eq!(div64_64(1 << 40, 1 << 32), 256);
    }

    #[test]
    fn local_params_override_defaults() {
        let mut s = Shared::default();
        let m = Module::by_name("vegas").unwrap();
        let a = m.param_index("alpha").unwrap();
        assert_eq!(s.default_param(m, a), 4);
        s.set_default_param(m, a, 6);
        assert_eq!(s.effective(m, &[])[a], 6);
        assert_eq!(s.effective(m, &[(m, a as u8, 9)])[a], 9);
        assert_eq!(s.effective(Module::Linux, &[(m, a as u8, 9)])[LINUX_MAX_BURST], 3);
    }
}
