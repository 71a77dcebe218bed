//! The full TCP's side of the shared congestion-control seam
//! (`crate::cc`, Linux `tcp_congestion_ops`-shaped, with an ns-3 dialect).
//!
//! The socket calls these hooks exactly where ns-3.37's `TcpSocketBase`
//! calls `TcpCongestionOps` (`GetSsThresh`, `IncreaseWindow`, `PktsAcked`,
//! `CongestionStateSet`, `CwndEvent`), with `Window` (cwnd and ssthresh in
//! bytes, the segment size, the congestion state, the RTT estimate, the
//! sequence numbers and the clock an algorithm reads).  `Cc` holds the
//! algorithm (the shared [`crate::cc::Cc`] enum, dispatched by `match`) and
//! the [`Sock`] view it works on: before a hook the window is loaded into
//! the view, after it the view's window is written back.  Every algorithm
//! of `crate::cc` runs here through its ns-3 dialect (the `ns3_*` hooks):
//! every algorithm ns-3.37 has as its own port (NewReno, Scalable, Vegas,
//! Veno, YeAH, Hybla, CUBIC, BIC, HighSpeed, H-TCP, Illinois, Westwood,
//! TCP-LP, DCTCP, LEDBAT), Compound as its Linux module on a byte window
//! (cc/mod.rs's header).  Who sets the window in which state is one
//! mechanism, [`WindowOwner`] (`Cc::owns_window`): the socket, Prague in
//! Open and CWR, BBR always.
//! `ssthresh` returns a value and must not set it (the socket stores it).

use crate::cc::bbr::Bbr;
use crate::cc::{self, AckRequest, CaState, Kind, Param, Sock};
use crate::socket::rate::{Connection, Sample};

/// ns-3's `TcpSocketState::TcpCongState_t` (Linux's `tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CongState {
    Open = 0,
    Disorder = 1,
    Cwr = 2,
    Recovery = 3,
    Loss = 4,
}

impl CongState {
    pub fn name(self) -> &'static str {
        match self {
            CongState::Open => "open",
            CongState::Disorder => "disorder",
            CongState::Cwr => "cwr",
            CongState::Recovery => "recovery",
            CongState::Loss => "loss",
        }
    }

    fn ca(self) -> CaState {
        match self {
            CongState::Open => CaState::Open,
            CongState::Disorder => CaState::Disorder,
            CongState::Cwr => CaState::Cwr,
            CongState::Recovery => CaState::Recovery,
            CongState::Loss => CaState::Loss,
        }
    }
}

/// ns-3's `TcpCAEvent_t` (Linux's `tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaEvent {
    TxStart,
    Loss,
    CompleteCwr,
    DelayedAck,
    NonDelayedAck,
}

impl CaEvent {
    fn ca(self) -> cc::CaEvent {
        match self {
            CaEvent::TxStart => cc::CaEvent::TxStart,
            CaEvent::Loss => cc::CaEvent::Loss,
            CaEvent::CompleteCwr => cc::CaEvent::CompleteCwr,
            CaEvent::DelayedAck => cc::CaEvent::DelayedAck,
            CaEvent::NonDelayedAck => cc::CaEvent::NonDelayedAck,
        }
    }
}

/// What a controller sees of the connection (ns-3's `TcpSocketState`, the
/// part congestion control uses).
#[derive(Clone, Debug)]
pub struct Window {
    /// Congestion window (bytes).
    pub cwnd: u32,
    /// Slow-start threshold (bytes).
    pub ssthresh: u32,
    /// Sender MSS (bytes).
    pub mss: u32,
    pub state: CongState,
    /// The RTT estimate passed to `pkts_acked` (ns-3.37 passes SRTT, not the
    /// raw sample: `m_lastRtt = m_rtt->GetEstimate()`), ns.
    pub last_rtt: i64,
    /// Smallest `last_rtt` seen, ns.
    pub min_rtt: i64,
    /// Prague only (the window's owner in Open and CWR): when the newest
    /// segment the ACK being processed covers was sent (s); -1 when it
    /// covers none or a retransmitted one (Karn).  Passed to `pkts_acked`
    /// as `Sock::ack_sent`, for its RTT to the microsecond (no timestamp
    /// option's ms; Prague's classic-ECN detection).
    pub ack_sent: f64,
    /// `m_nextTxSequence` and `m_lastAckedSeq` (the last ACK's number),
    /// bytes; the socket keeps them current before the hooks that read them.
    pub next_tx: u64,
    pub last_acked: u64,
    /// The simulation clock, s (what the socket's event runs at).
    pub now: f64,
    /// The sender's ECN state is `ECN_ECE_RCVD` (the ACK being processed
    /// carried a new ECE).
    pub ece_rcvd: bool,
    /// `m_bytesInFlight`: the pipe when ns-3 last computed it (before an
    /// ACK's processing, and at each segment sent, before it counts); kept
    /// only while pacing (the pacing rate and BBR read it).
    pub bytes_in_flight: u32,
    /// `m_lastAckedSackedBytes`: what the ACK being processed delivered
    /// (kept for BBR only).
    pub last_acked_sacked: u32,
    /// `m_initialCWnd` (segments), `m_initialSsThresh` (bytes).
    pub initial_cwnd: u32,
    pub initial_ssthresh: u32,
    /// `m_pacing`, `m_pacingRate` and `m_maxPacingRate` (bit/s;
    /// `socket/pacing.rs`).
    pub pacing: bool,
    pub pacing_rate: u64,
    pub max_pacing_rate: u64,
    /// `m_rcvTimestampValue` and `m_rcvTimestampEchoReply`: the last
    /// timestamp option taken (ms ticks; TCP-LP's one-way delay).
    pub ts_value: u32,
    pub ts_echo: u32,
    /// `m_highTxMark`, bytes (kept current like `next_tx`).
    pub high_tx: u64,
}

impl Window {
    pub fn new(cwnd: u32, ssthresh: u32, mss: u32) -> Window {
        Window {
            cwnd,
            ssthresh,
            mss,
            state: CongState::Open,
            last_rtt: 0,
            min_rtt: i64::MAX,
            ack_sent: -1.0,
            next_tx: 0,
            last_acked: 0,
            now: 0.0,
            ece_rcvd: false,
            bytes_in_flight: 0,
            last_acked_sacked: 0,
            initial_cwnd: 10,
            initial_ssthresh: u32::MAX,
            pacing: false,
            pacing_rate: 0,
            max_pacing_rate: 0,
            ts_value: 0,
            ts_echo: 0,
            high_tx: 0,
        }
    }
}

/// Who sets the window, state by state: the one mechanism by which a
/// congestion control takes the window from the socket (ns-3's
/// `HasCongControl`, Linux's `cong_control`).  Where the controller owns
/// it the socket neither grows it (`IncreaseWindow`) nor runs its recovery
/// algorithm (PRR, NewReno's inflation) on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowOwner {
    /// The socket, in every state (every algorithm of the shared seam but
    /// Prague).
    Socket,
    /// The controller in Open, Disorder and CWR, per ACK from AccECN's
    /// feedback (`ce_cong_control`), told of CWR's start and end through
    /// `state_set` as Linux does; a loss's recovery stays the socket's
    /// (PRR): Prague.
    OpenAndCwr,
    /// The controller in every state, from rate samples (`cong_control`;
    /// the socket keeps the rate sampler for it and leaves the pacing rate
    /// to it): ns-3.37's BBR, which like TcpSocketBase changes CWR without
    /// telling the controller.
    Always,
}

impl WindowOwner {
    /// Whether the controller sets the window in state `s`.
    #[inline]
    pub fn owns_in(self, s: CongState) -> bool {
        match self {
            WindowOwner::Socket => false,
            WindowOwner::OpenAndCwr => matches!(s, CongState::Open | CongState::Disorder | CongState::Cwr),
            WindowOwner::Always => true,
        }
    }
}

/// A congestion control of the full TCP: an algorithm of `crate::cc` and
/// its view of the connection.
#[derive(Clone, Debug)]
pub struct Cc {
    alg: cc::Cc,
    sk: Sock,
    inited: bool,
    /// `Kind::ns3_ack_events`: else the receiver's per-segment ACK events
    /// are not passed on.
    ack_events: bool,
    /// `Kind::ns3_native`: an ns-3 port does not read Linux's srtt, so
    /// it is not converted for it.
    native: bool,
    /// `Kind::ns3_pkts_acked`: else `pkts_acked` is skipped.
    pkts: bool,
    /// BBR (`crate::cc::bbr`, the full TCP's only algorithm outside the
    /// shared seam): when set, the hooks go to it and `alg` is unused.
    bbr: Option<Box<Bbr>>,
    /// `Kind::ns3_clock`: it reads the clock (`Simulator::Now()`): a Linux
    /// module, or the ns-3 ports of TCP-LP, H-TCP, Westwood, CUBIC and
    /// LEDBAT.
    clock: bool,
}

/// The full TCP's name for a `crate::cc` algorithm ("newreno" for the
/// `reno` entry, whose ns-3 dialect is TcpNewReno); None for one it does
/// not offer: ns-2's naive_reno test module (see [`refusal`]).
pub fn full_name(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Reno => Some("newreno"),
        Kind::NaiveReno => None,
        k => Some(k.name()),
    }
}

/// Why the full TCP refuses an algorithm `crate::cc` has, by name.
pub fn refusal(name: &str) -> Option<&'static str> {
    match name {
        "naive_reno" => Some("naive_reno is a test module of ns-2's Linux TCP, not offered on the full TCP"),
        _ => None,
    }
}

/// The full TCP's congestion controls and their ns-3 attributes: the shared
/// seam's (`full_name`) and BBR.
pub fn full_ccs() -> Vec<(&'static str, &'static [Param])> {
    let mut v: Vec<(&'static str, &'static [Param])> = Kind::ALL.iter().filter_map(|k| full_name(*k).map(|n| (n, k.ns3_params()))).collect();
    v.push(("bbr", crate::cc::bbr::PARAMS));
    v
}

/// BBR with its attributes set by name.
fn bbr_with_params(params: &[(String, i32)]) -> Result<Cc, String> {
    let ps = crate::cc::bbr::PARAMS;
    let mut p: Vec<i32> = ps.iter().map(|p| p.default).collect();
    for (n, v) in params {
        let Some(i) = ps.iter().position(|p| p.name == n) else {
            let known: Vec<&str> = ps.iter().map(|p| p.name).collect();
            return Err(format!("bbr has no parameter {n:?}; its parameters: {}", known.join(", ")));
        };
        if let Some((lo, hi)) = crate::cc::bbr::param_range(n) {
            if !(lo..=hi).contains(v) {
                return Err(format!("bbr's parameter {n} must be {lo} to {hi}, got {v}"));
            }
        }
        p[i] = *v;
    }
    Ok(Cc {
        alg: Kind::Reno.make(),
        sk: Sock::default(),
        inited: true,
        ack_events: false,
        native: true,
        pkts: false,
        bbr: Some(Box::new(Bbr::new(&p))),
        // BBR reads the window's time itself, not the shared `Sock`'s
        clock: false,
    })
}

/// The values an attribute takes when not every whole number does.
fn param_range(kind: Kind, name: &str) -> Option<(i32, i32)> {
    match (kind, name) {
        (Kind::Dctcp, "shift_g") => Some((0, 10)),
        (Kind::Dctcp, "alpha_on_init") => Some((0, 1024)),
        (Kind::Dctcp, "use_ect0") => Some((0, 1)),
        (Kind::Prague, "shift_g") => Some((0, 10)),
        (Kind::Prague, "rtt_scaling") => Some((0, 3)),
        (Kind::Prague, "rtt_target_us") => Some((1, 10_000_000)),
        (Kind::Prague, "rtt_transition") => Some((0, 1_000_000)),
        (Kind::Prague, "classic_ecn_fallback") => Some((0, 2)),
        (Kind::Prague, "cwnd_limited") => Some((0, 1)),
        (Kind::Htcp, "default_backoff_pct") => Some((0, 100)),
        (Kind::Cubic, "hystart_detect") => Some((1, 3)),
        (Kind::Cubic | Kind::Bic, "fast_convergence") | (Kind::Cubic, "hystart") => Some((0, 1)),
        (Kind::Cubic, "cnt_clamp" | "hystart_min_samples") => Some((0, 255)),
        (Kind::Cubic, "tcp_friendliness") => Some((0, 2)),
        // ns-3's checkers: BinarySearchCoefficient a uint8 of at least 2,
        // MaxIncr and SmoothPart at least 1 (else a division by zero)
        (Kind::Bic, "b") => Some((2, 255)),
        (Kind::Bic, "max_incr" | "smooth_part") => Some((1, i32::MAX)),
        (Kind::Westwood, "protocol_type" | "filter_type") => Some((0, 1)),
        (Kind::Ledbat, n) => crate::cc::ledbat::param_range(n),
        _ => None,
    }
}

impl Cc {
    /// By name ("newreno", "cubic", ...) with its ns-3 dialect's default
    /// attributes; `None` if unknown.
    pub fn by_name(name: &str) -> Option<Cc> {
        Cc::with_params(name, &[]).ok()
    }

    /// The names the full TCP takes.
    pub fn names() -> Vec<&'static str> {
        full_ccs().into_iter().map(|(n, _)| n).collect()
    }

    /// By name, with attributes of its ns-3 dialect set by name; the error
    /// names the unknown algorithm or attribute.
    pub fn with_params(name: &str, params: &[(String, i32)]) -> Result<Cc, String> {
        if name == "bbr" {
            return bbr_with_params(params);
        }
        let Some(kind) = Kind::ALL.iter().copied().find(|k| full_name(*k) == Some(name)) else {
            if let Some(why) = refusal(name) {
                return Err(why.to_string());
            }
            return Err(format!("unknown congestion control {name:?}; choose one of {}", Cc::names().join(", ")));
        };
        // the module's own parameters, then the ns-3 attributes over them
        let mut sk = Sock { debug_level: 99, snd_cwnd_clamp: u32::MAX, ..Sock::default() };
        for (i, p) in kind.ns3_params().iter().enumerate() {
            sk.p[i] = p.default;
        }
        for (n, v) in params {
            let Some(i) = kind.ns3_params().iter().position(|p| p.name == n) else {
                let known: Vec<&str> = kind.ns3_params().iter().map(|p| p.name).collect();
                return Err(format!(
                    "{name} has no parameter {n:?}; its parameters: {}",
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                ));
            };
            if let Some((lo, hi)) = param_range(kind, n) {
                if !(lo..=hi).contains(v) {
                    return Err(format!("{name}'s parameter {n} must be {lo} to {hi}, got {v}"));
                }
            }
            sk.p[i] = *v;
        }
        let clock = kind.ns3_clock();
        Ok(Cc { alg: kind.make(), sk, inited: false, ack_events: kind.ns3_ack_events(), native: kind.ns3_native(), pkts: kind.ns3_pkts_acked(), bbr: None, clock })
    }

    pub fn kind(&self) -> Kind {
        self.alg.kind()
    }

    /// Who sets the window ([`WindowOwner`]): `Always` for BBR (ns-3's
    /// `HasCongControl`), `OpenAndCwr` for an algorithm whose ns-3 dialect
    /// sets it per ACK (`Kind::ns3_cong_control`: Prague), else `Socket`.
    #[inline]
    pub fn owns_window(&self) -> WindowOwner {
        if self.bbr.is_some() {
            WindowOwner::Always
        } else if self.kind().ns3_cong_control() {
            WindowOwner::OpenAndCwr
        } else {
            WindowOwner::Socket
        }
    }

    /// BBR's state, if it is BBR.
    pub fn bbr(&self) -> Option<&Bbr> {
        self.bbr.as_deref()
    }

    /// `CongControl` after an ACK (only for `WindowOwner::Always`): the
    /// connection's delivery counters and the ACK's rate sample.
    #[inline]
    pub fn cong_control(&mut self, w: &mut Window, rc: &Connection, rs: &Sample) {
        if let Some(b) = self.bbr.as_deref_mut() {
            b.cong_control(w, rc, rs);
        }
    }

    /// ECN is on whatever `UseEcn` says, in ns-3's `DctcpEcn` mode (ECT on
    /// every packet, pure ACKs and SYNs included): what `TcpDctcp::Init`
    /// sets.
    pub fn dctcp_ecn(&self) -> bool {
        self.kind().needs_ecn()
    }

    /// It asks for AccECN, whose feedback sets its window per ACK (Prague:
    /// `WindowOwner::OpenAndCwr`).
    pub fn needs_accecn(&self) -> bool {
        self.owns_window() == WindowOwner::OpenAndCwr
    }

    /// `cong_control`: an ACK delivered `delivered` bytes, `ce` of them
    /// CE-marked (AccECN's feedback); `cwnd_limited`: Linux's
    /// `tcp_is_cwnd_limited` (`Socket::is_cwnd_limited`).
    #[inline]
    pub fn ce_cong_control(&mut self, w: &mut Window, delivered: u64, ce: u64, cwnd_limited: bool) {
        self.load(w);
        self.sk.cwnd_limited = cwnd_limited;
        self.first_ack();
        self.alg.ns3_cong_control(&mut self.sk, delivered, ce);
        self.store(w);
    }

    /// It grows only while cwnd-limited (Prague's `cwnd_limited`): the
    /// socket then tracks Linux's cwnd use (`Socket::cwnd_validate`).
    pub fn wants_cwnd_limited(&self) -> bool {
        matches!(self.alg, cc::Cc::Prague(_)) && self.sk.p[cc::prague::CWND_LIMITED] != 0
    }

    /// Prague's alpha, if it is Prague.
    pub fn prague_alpha(&self) -> Option<f64> {
        match &self.alg {
            cc::Cc::Prague(p) => Some(p.full.alpha(&self.sk)),
            _ => None,
        }
    }

    /// Its packets are ECT(1) rather than ECT(0) (DCTCP's `UseEct0` 0).
    pub fn ect1(&self) -> bool {
        match self.kind() {
            Kind::Dctcp => self.sk.p[cc::dctcp::USE_ECT0] == 0,
            k => k.ect1(),
        }
    }

    /// Whether it takes the receiver's events (`Kind::ns3_ack_events`).
    #[inline]
    pub fn ack_events(&self) -> bool {
        self.ack_events
    }

    /// ns-3's `CA_EVENT_ECN_IS_CE` (`ce`) or `CA_EVENT_ECN_NO_CE` at the
    /// receiver whose next expected byte is `rcv_nxt`: returns the ACK the
    /// algorithm asks to send at once, and whether the receiver's ECN
    /// state goes back to idle.
    #[inline]
    pub fn ecn_event(&mut self, w: &mut Window, ce: bool, rcv_nxt: u64) -> (AckRequest, bool) {
        if !self.ack_events {
            return (AckRequest::None, false);
        }
        self.load(w);
        self.sk.rcv_nxt = rcv_nxt;
        self.alg.ns3_cwnd_event(&mut self.sk, if ce { cc::CaEvent::EcnIsCe } else { cc::CaEvent::EcnNoCe });
        self.store(w);
        let r = (self.sk.ack_request, self.sk.ecn_idle);
        self.sk.ack_request = AckRequest::None;
        self.sk.ecn_idle = false;
        r
    }

    /// The full TCP's name of the algorithm.
    pub fn name(&self) -> &'static str {
        if self.bbr.is_some() {
            return "bbr";
        }
        full_name(self.kind()).unwrap_or("?")
    }

    #[inline]
    fn load(&mut self, w: &Window) {
        let sk = &mut self.sk;
        sk.cwnd_bytes = w.cwnd;
        sk.ssthresh_bytes = w.ssthresh;
        sk.mss_cache = w.mss as u64;
        sk.ca_state = w.state.ca();
        sk.snd_nxt = w.next_tx;
        sk.high_tx = w.high_tx;
        sk.snd_una = w.last_acked;
        sk.min_rtt_ns = w.min_rtt;
        sk.ece_rcvd = w.ece_rcvd;
        sk.rcv_tsval = w.ts_value as u64;
        sk.rcv_tsecr = w.ts_echo as u64;
        if self.clock {
            sk.now_ns = super::rtt::to_ns(w.now);
        }
        if !self.native {
            // Linux's srtt: ms ticks << 3
            sk.srtt = ((w.last_rtt.max(0) / 1_000_000) as u64) << 3;
        }
    }

    /// `Init` at the first ACK, as ns-2 initialises a Linux module (the
    /// SRTT known by then: Hybla's rho, Vegas's and Westwood's RTTs).
    #[inline]
    fn first_ack(&mut self) {
        if !self.inited {
            self.inited = true;
            self.alg.ns3_init(&mut self.sk);
        }
    }

    #[inline]
    fn store(&mut self, w: &mut Window) {
        w.cwnd = self.sk.cwnd_bytes;
        w.ssthresh = self.sk.ssthresh_bytes;
        self.sk.log.clear();
    }

    /// `GetSsThresh`: the new ssthresh after a loss, given the bytes in flight.
    #[inline]
    pub fn ssthresh(&mut self, w: &Window, bytes_in_flight: u32) -> u32 {
        if let Some(b) = self.bbr.as_deref_mut() {
            return b.ssthresh(w);
        }
        self.load(w);
        self.first_ack();
        let ss = self.alg.ns3_ssthresh(&mut self.sk, bytes_in_flight);
        self.sk.log.clear();
        ss
    }

    /// `IncreaseWindow`: an ACK advanced the window by `segments_acked`.
    #[inline]
    pub fn increase_window(&mut self, w: &mut Window, segments_acked: u32) {
        // (BBR's `IncreaseWindow` is TcpCongestionOps's, which does nothing)
        if self.bbr.is_some() {
            return;
        }
        self.load(w);
        self.first_ack();
        self.alg.ns3_increase_window(&mut self.sk, segments_acked);
        self.store(w);
    }

    /// `PktsAcked`: segments acknowledged and the RTT estimate (ns).  It
    /// may set the window (TCP-LP's early-congestion cut).
    #[inline]
    pub fn pkts_acked(&mut self, w: &mut Window, segments_acked: u32, rtt: i64) {
        if !self.pkts {
            return;
        }
        self.load(w);
        self.sk.ack_sent = w.ack_sent;
        self.first_ack();
        self.alg.ns3_pkts_acked(&mut self.sk, segments_acked, rtt);
        self.store(w);
    }

    /// `CongestionStateSet`: called before the socket changes state.
    #[inline]
    pub fn state_set(&mut self, w: &mut Window, new: CongState) {
        if let Some(b) = self.bbr.as_deref_mut() {
            return b.state_set(w, new);
        }
        self.load(w);
        if self.owns_window() == WindowOwner::OpenAndCwr {
            // (its reduction on entering CWR needs its alpha)
            self.first_ack();
        }
        self.alg.ns3_state_set(&mut self.sk, new.ca());
        self.store(w);
    }

    /// `CwndEvent`.
    #[inline]
    pub fn cwnd_event(&mut self, w: &mut Window, ev: CaEvent) {
        if !self.ack_events && matches!(ev, CaEvent::DelayedAck | CaEvent::NonDelayedAck) {
            return;
        }
        if let Some(b) = self.bbr.as_deref_mut() {
            return b.cwnd_event(w, ev);
        }
        self.load(w);
        self.alg.ns3_cwnd_event(&mut self.sk, ev.ca());
        self.store(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(cwnd: u32, ssthresh: u32) -> Window {
        Window::new(cwnd, ssthresh, 1448)
    }

    /// The adapter loads the window, runs ns-3's NewReno (cc/reno.rs's ns-3
    /// dialect) and writes the window back: 15 MSS in CA + 1448²/21720 =
    /// 96 bytes; slow start one MSS per ACK; ssthresh half the flight.
    #[test]
    fn newreno_through_the_seam() {
        let mut cc = Cc::by_name("newreno").unwrap();
        let mut w = win(15 * 1448, 15 * 1448);
        cc.increase_window(&mut w, 2);
        assert_eq!(w.cwnd, 21720 + 96);
        let mut w = win(2 * 1448, u32::MAX);
        cc.increase_window(&mut w, 2);
        assert_eq!(w.cwnd, 3 * 1448);
        assert_eq!(cc.ssthresh(&w, 20 * 1448), 10 * 1448);
        assert_eq!(cc.ssthresh(&w, 1448), 2 * 1448);
    }

    /// Names and attributes: every algorithm but ns-2's naive_reno, "reno"
    /// is "newreno"; unknown names and attributes are refused by name.
    #[test]
    fn names_and_params() {
        let names = Cc::names();
        for n in ["newreno", "scalable", "vegas", "veno", "yeah", "cubic", "bic", "highspeed", "htcp", "hybla", "illinois", "westwood", "lp", "compound", "dctcp"] {
            assert!(names.contains(&n), "{n}");
            assert_eq!(Cc::by_name(n).unwrap().name(), n);
        }
        assert!(Cc::by_name("reno").is_none() && Cc::by_name("naive_reno").is_none());
        // Prague is offered (AccECN, its own window); DCTCP takes ns-3's attributes
        let p = Cc::by_name("prague").unwrap();
        assert!(names.contains(&"prague") && p.needs_accecn() && p.owns_window() == WindowOwner::OpenAndCwr && p.ect1());
        assert_eq!(Cc::by_name("bbr").unwrap().owns_window(), WindowOwner::Always);
        assert_eq!(Cc::by_name("ledbat").unwrap().owns_window(), WindowOwner::Socket);
        let states = [CongState::Open, CongState::Disorder, CongState::Cwr, CongState::Recovery, CongState::Loss];
        let owned = |o: WindowOwner| states.iter().map(|s| o.owns_in(*s)).collect::<Vec<_>>();
        assert_eq!(owned(WindowOwner::Socket), [false; 5]);
        assert_eq!(owned(WindowOwner::OpenAndCwr), [true, true, true, false, false]);
        assert_eq!(owned(WindowOwner::Always), [true; 5]);
        assert!(!Cc::by_name("dctcp").unwrap().needs_accecn());
        let e = Cc::with_params("prague", &[("rtt_scaling".into(), 4)]).unwrap_err();
        assert_eq!(e, "prague's parameter rtt_scaling must be 0 to 3, got 4");
        let d = Cc::with_params("dctcp", &[("use_ect0".into(), 0)]).unwrap();
        assert!(d.dctcp_ecn() && d.ect1() && d.ack_events());
        assert!(!Cc::by_name("dctcp").unwrap().ect1());
        assert!(!Cc::by_name("newreno").unwrap().dctcp_ecn());
        let e = Cc::with_params("dctcp", &[("alpha_on_init".into(), 2048)]).unwrap_err();
        assert_eq!(e, "dctcp's parameter alpha_on_init must be 0 to 1024, got 2048");
        let e = Cc::with_params("htcp", &[("default_backoff_pct".into(), 101)]).unwrap_err();
        assert_eq!(e, "htcp's parameter default_backoff_pct must be 0 to 100, got 101");
        let e = Cc::with_params("bic", &[("b".into(), 1)]).unwrap_err();
        assert_eq!(e, "bic's parameter b must be 2 to 255, got 1");
        assert!(Cc::with_params("bic", &[("max_incr".into(), 0)]).unwrap_err().contains("max_incr must be 1 to"));
        assert!(Cc::with_params("westwood", &[("protocol_type".into(), 2)]).unwrap_err().contains("0 to 1, got 2"));
        assert!(Cc::with_params("cubic", &[("cnt_clamp".into(), 256)]).unwrap_err().contains("0 to 255, got 256"));
        let e = Cc::with_params("cubic", &[("tcp_friendliness".into(), 3)]).unwrap_err();
        assert_eq!(e, "cubic's parameter tcp_friendliness must be 0 to 2, got 3");
        assert!(Cc::with_params("cubic", &[("tcp_friendliness".into(), 2)]).is_ok());
        let e = Cc::with_params("vegas", &[("delta".into(), 1)]).unwrap_err();
        assert!(e.contains("delta") && e.contains("alpha, beta, gamma"), "{e}");
        assert!(Cc::with_params("nosuch", &[]).unwrap_err().contains("newreno"));
        // Vegas-1,3: its window rises below alpha 1 only at diff 0
        let mut v = Cc::with_params("vegas", &[("alpha".into(), 1), ("beta".into(), 3)]).unwrap();
        assert_eq!(v.sk.p[..3], [1, 3, 1]);
        let mut w = win(20 * 1448, 10 * 1448);
        w.next_tx = 1000;
        v.state_set(&mut w, CongState::Open);
        for _ in 0..4 {
            v.pkts_acked(&mut w, 1, 100_000_000);
        }
        w.last_acked = 1000;
        v.increase_window(&mut w, 1);
        assert_eq!(w.cwnd, 21 * 1448);
    }

    /// A Linux-dialect algorithm on bytes (Compound, which ns-3.37 lacks:
    /// the last on the Linux module): Reno's cut of 100 segments comes back
    /// in bytes; slow start grows in whole segments.  CUBIC runs ns-3.37's
    /// TcpCubic: beta 0.7 of 100 segments (Linux 2.6: 819/1024 -> 79).
    #[test]
    fn linux_module_on_a_byte_window() {
        let mut c = Cc::by_name("compound").unwrap();
        let mut w = win(100 * 1448, 50 * 1448);
        w.now = 1.0;
        assert_eq!(c.ssthresh(&w, 100 * 1448), 50 * 1448);
        let mut w = win(10 * 1448, u32::MAX);
        w.now = 1.0;
        c.increase_window(&mut w, 1);
        assert_eq!(w.cwnd, 11 * 1448);
        let mut c = Cc::by_name("cubic").unwrap();
        let w = win(100 * 1448, 50 * 1448);
        assert_eq!(c.ssthresh(&w, 100 * 1448), 70 * 1448);
    }
}
