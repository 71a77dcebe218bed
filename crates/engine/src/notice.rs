//! What the engine tells its front end: typed notices instead of scripts.
//!
//! The engine never calls out in the middle of an event.  What needs the
//! front end (an application's call-back, a packet no node can place, an
//! error that ends the run) is queued as a [`Notice`]; the run yields after
//! the event and the front end acts on each, in order: the ns-2 layer by
//! evaluating what ns-2's C++ would have evaluated in Tcl, the Python API in
//! its own way.  Warnings (a setting accepted but not modelled, an input
//! that a real implementation would have refused) are kept apart: they do not
//! stop the run, and the front end reports each once.

use crate::packet::PktId;
use crate::sched::ObjId;

/// Something the front end must act on after the current event.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Stop the run with an error where ns-2 exits or aborts (exit status 1).
    Abort(Abort),
    /// Node `node` has no target for packet `uid`: no agent at port `port`
    /// of the node (`local`), or no route to node `dest` (ns-2's classifier
    /// `no-slot`, which reports and exits).
    NoSlot { node: i32, local: bool, port: i32, dest: i32, uid: i32 },
    /// Hash classifier `classifier` has no slot for this flow (ns-2 calls
    /// `unknown-flow` and looks again).  It holds packet `pkt` (`PktId::NONE`:
    /// it dropped it) until the front end places or drops it
    /// (`Sim::hash_place`).
    UnknownFlow { classifier: ObjId, src: i32, dst: i32, fid: i32, pkt: PktId },
    /// Hash classifier `classifier` has no object at slot `slot` (-1: no
    /// entry) for packet `pkt` of flow (`src`, `dst`, `fid`), which it holds
    /// like `UnknownFlow`'s (ns-2 calls `no-slot`, for -1 looks once more,
    /// and drops the packet).
    ClassifierNoSlot { classifier: ObjId, slot: i64, src: i32, dst: i32, fid: i32, pkt: PktId },
    /// The flow classifier `classifier` of a flow monitor made the flow
    /// object `flow` for a packet of a flow it had not seen.
    NewFlow { classifier: ObjId, flow: ObjId },
    /// Agent `agent` delivered `bytes` in order to its application `app`.
    AppRecv { app: ObjId, bytes: i32 },
    /// Agent `agent` has sent everything its application `app` gave it.
    AppResume { app: ObjId },
    /// TCP sender `agent` has had everything it sent acknowledged, with
    /// nothing left to send (ns-2's `done`).
    SenderDone { agent: ObjId },
    /// Two-way TCP agent `agent`, asked to signal it, has sent all the
    /// data its application gave it (ns-2's `done_data`).
    SendBufferEmpty { agent: ObjId },
    /// Loss monitor `agent` saw a gap in the sequence numbers it receives.
    Loss { agent: ObjId },
    /// A ping agent got the reply to its request (or, one-way, the request
    /// of another agent).
    PingReply { agent: ObjId, from: i32, times: PingTimes },
    /// A ping agent got a broadcast ping (`reply`: the answer to its own)
    /// from port `sport` of node `from` (ns-2 prints a line).
    PingBroadcast { agent: ObjId, reply: bool, from: i32, sport: i32 },
    /// A routing agent got message `msg` from node address `from`
    /// (`rtmsg.rs`).
    RouteMsg { agent: ObjId, from: i32, msg: u32 },
    /// A TFRC receiver with loss printing on estimated its loss event rate
    /// (`rate`: the newest interval's packets and the average interval) or
    /// made up its history after slow start: its newest five loss
    /// intervals, and with the short-interval variants their losses,
    /// shortness and round trips.
    LossHistory { agent: ObjId, rate: Option<(i32, f64)>, intervals: [i32; 5], short: Option<[[i32; 5]; 3]> },
    /// A delayer with debugging on is about to try to send: its state.
    DelayerState { delayer: ObjId, last_sent: f64, alloc_free: bool, target_free: bool, spike_free: bool },
}

/// The times a ping reply reports, milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PingTimes {
    /// The round trip.
    RoundTrip(f64),
    /// One-way pings: the sequence number and the two halves of the trip.
    OneWay { seq: i32, there: f64, back: f64 },
}

/// What a TFRC sender divides by when it is zero (`Abort::RateDivision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateDivisor {
    InitialRate,
    NoRtt,
}

/// Why the run stops where ns-2 would exit or abort.
#[derive(Clone, Debug, PartialEq)]
pub enum Abort {
    /// A DSR agent reached a part of DSR not built (dsr.rs), or a link
    /// failed under DSR with an interface queue other than `CMUPriQueue`
    /// (ns-2 2.35 crashes there).
    Dsr(crate::wireless::dsr::Unbuilt),
    /// A TCP sender's window-growth option `option` is one no rule is
    /// defined for (`defined` lists those that are), found when the sender
    /// first grew its window.
    UndefinedWindowRule { option: i32, defined: &'static str },
    /// A delayer was handed a packet while it held one: its sender was not
    /// a queue that waits to be called back (ns-2 prints `delayer not
    /// empty!` and exits).
    DelayerNotEmpty { delayer: ObjId },
    /// A delayer was called back by its own target (a second delayer
    /// chained behind it) while handing it a packet: ns-2 sends the packet
    /// twice and aborts.
    DelayerCalledBack { delayer: ObjId },
    /// A Vegas sender's window cannot size its send-time table: below one
    /// (ns-2 crashes) or too large to allocate (`megabytes`).
    VegasWindow { agent: ObjId, window: f64, megabytes: Option<i64> },
    /// A trace-driven source was started without a trace (or with an
    /// empty one): ns-2 reads through a null pointer.
    NoTrace { agent: ObjId },
    /// A rate-based pacing sender was to pace with a window-estimation
    /// algorithm it does not have (ns-2 calls `abort()`).
    PacingAlgorithm { agent: ObjId, algorithm: i32 },
    /// An event was scheduled `delay` seconds (negative or NaN) after
    /// `at`: time would go backwards (ns-2 warns, then aborts).
    NegativeDelay { at: f64, delay: f64 },
    /// RED's count of packet times its link was idle (link rate over the
    /// mean packet size, times the idle time) is `periods`, more than a C
    /// `int` holds: ns-2 traps the conversion (a floating-point exception).
    RedIdlePeriods { periods: f64 },
    /// RED's average queue overflowed (a `q_weight_` below 0 or above 2
    /// makes it grow without bound: `q_weight_` -1 in a flow queue of an
    /// FQ link, which ns-2 never resets): ns-2 traps the overflow (a
    /// floating-point exception).
    RedAverageOverflow { q_w: f64 },
    /// A TCP sender's window limit is no `int` (NaN, or beyond +-2^31)
    /// when it is reset: ns-2 traps the conversion (a floating-point
    /// exception).
    WindowNotAnInt { agent: ObjId, window: f64 },
    /// An XCP sender whose window is below one packet (0 as an `int`)
    /// sends a data packet: its `x` is the RTT over that window, a division
    /// by zero that ns-2 traps (a floating-point exception).
    XcpZeroWindow { agent: ObjId, cwnd: f64 },
    /// A traffic source started with a rate that gives no time between
    /// packets (zero, infinite or NaN): ns-2 divides by it and crashes.
    SourceRate { agent: ObjId, rate: f64 },
    /// A TCP sender was asked to send `bytes` with a packet size of 0 (or
    /// -1 for the most negative count): ns-2 divides by it, a
    /// floating-point exception.
    PacketSizeDivision { agent: ObjId, bytes: i32, size: i32 },
    /// A TFRC sender divides by zero (`what`: its initial rate, or its
    /// round-trip time before any report came back): ns-2 traps it (a
    /// floating-point exception).
    RateDivision { agent: ObjId, what: RateDivisor },
    /// A DiffServ queue met a packet it cannot place: no per-hop
    /// behaviour for its code point, or (at an edge) no profile or no
    /// downgrade rule for it (ns-2 asserts or crashes).
    DiffServ(crate::qdisc::dsred::Fault),
    /// A file-fetch client's connection ended while it had no request
    /// pending (`fetch.rs`): ns-2 cancels the client's idle timer, which
    /// aborts ("Attempting to cancel timer ... which is not scheduled").
    IdleTimerCancelled { agent: ObjId },
    /// A packet of service class `class` (its IP priority) reached a
    /// class-based queue (`qdisc/jobs.rs`; `at_exit`: the exit edge's
    /// counter, `classmark.rs`) whose classes are 1 to 4: ns-2 aborts.
    ServiceClass { class: i32, at_exit: bool },
    /// A packet of flow `fid` reached a CBQ queue none of whose classes the
    /// flow is bound to (a queue the Python API built: a script's CBQ link
    /// classifies first, and ns-2's classifier stops at the flow, its
    /// `unknown-flow`).
    CbqUnboundFlow { fid: i32 },
    /// An error model met a value ns-2 traps on where it uses it (a
    /// floating-point exception): `what` says which, in plain words
    /// (`ErrorModel::trap`, `Sim::errmodel_recv`).
    ErrorModel { model: ObjId, what: crate::errmodel::Trap },
    /// A DSDV node (address `node`) re-sent the packets it held for `dst`
    /// while its table still had no route there: a packet it sent itself
    /// went back to the end of the queue with a new TTL, for ever (ns-2
    /// 2.35 loops inside the event: dsdv.cc's processUpdate).
    DsdvHeldLoop { node: i32, dst: i32 },
    /// An abort of the front end's own, in its words.
    Front(String),
}

/// A setting or input the engine accepted but that a user should know
/// about.  Each is reported once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Warning {
    /// A sender or source with a packet size of zero or less sends nothing.
    PacketSizeNotPositive { agent: ObjId },
    /// A sender's header size leaves no room (ns-2 prints this too).
    HeaderTooSmall { agent: ObjId, bytes: i32 },
    /// A sender's initial-window option is not one defined (ns-2 aborts).
    InitialWindowOption { agent: ObjId, option: i32 },
    /// An error model's pattern cannot work in its unit: it corrupts no
    /// packet.
    ErrorModel { model: ObjId, problem: crate::errmodel::Unmodelled },
    /// A warning of the front end's own, in its words.
    Front(String),
}

impl std::fmt::Display for Abort {
    /// Why the run stopped, in plain words (the ns-2 layer words each as
    /// ns-2 does).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Abort::UndefinedWindowRule { option, defined } => {
                write!(f, "window-growth option {option} is not defined for this sender (defined: {defined})")
            }
            Abort::DelayerNotEmpty { .. } => write!(f, "a delayer was handed a packet while it held one"),
            Abort::DelayerCalledBack { .. } => write!(f, "a delayer was called back by its own target while handing it a packet"),
            Abort::VegasWindow { window, megabytes: None, .. } => write!(f, "a Vegas sender's window {window} is below one packet"),
            Abort::VegasWindow { window, megabytes: Some(mb), .. } => {
                write!(f, "a Vegas sender's window {window} would need a {mb} MB send-time table")
            }
            Abort::NoTrace { .. } => write!(f, "a trace-driven source was started without a trace to read"),
            Abort::DsdvHeldLoop { node, dst } => write!(
                f,
                "the DSDV agent of node {node} re-sent the packets it held for node {dst} before its table had a route there, \
                 and one it sent itself went back to the end of the queue for ever"
            ),
            Abort::Dsr(crate::wireless::dsr::Unbuilt::FlowError) => write!(f, "a DSR node nested a fourth unknown-flow error in one packet (ns-2 writes past its header there)"),
            Abort::Dsr(crate::wireless::dsr::Unbuilt::QueueKind) => write!(f, "a link failed under DSR with an interface queue other than CMUPriQueue"),
            Abort::PacingAlgorithm { algorithm, .. } => {
                write!(f, "a pacing sender's window algorithm {algorithm} is neither 1 (Vegas's rate) nor 2 (cwnd)")
            }
            Abort::NegativeDelay { at, delay } => write!(
                f,
                "an event was scheduled with a negative delay ({delay} s) at time {at}: time would go backwards \
                 (a negative interval, overhead or timer setting, a packet size below minus its header, or a size that overflowed?)"
            ),
            Abort::RedIdlePeriods { periods } => write!(
                f,
                "RED's count of idle packet times ({periods}) overflows: the link is too fast, or the mean packet size too small, for RED's averaging"
            ),
            Abort::RedAverageOverflow { q_w } => {
                write!(f, "RED's average queue overflows: with a queue weight of {q_w} (outside 0 to 2) each arrival scales it by {}", 1.0 - q_w)
            }
            Abort::XcpZeroWindow { cwnd, .. } => {
                write!(f, "an XCP sender sent with a window of 0 packets (cwnd {cwnd}): its x is the RTT over the window, a division by zero")
            }
            Abort::WindowNotAnInt { window, .. } => {
                write!(f, "a TCP sender's window limit {window} is not a whole number of packets a C int holds")
            }
            Abort::SourceRate { rate, .. } => {
                write!(f, "a traffic source's rate of {rate} b/s gives no time between its packets")
            }
            Abort::PacketSizeDivision { bytes, size, .. } => {
                write!(f, "a TCP sender cannot count {bytes} bytes in packets of {size} bytes")
            }
            Abort::RateDivision { what: RateDivisor::InitialRate, .. } => {
                f.write_str("a TFRC sender's initial rate is 0: it gives no time between its packets")
            }
            Abort::RateDivision { what: RateDivisor::NoRtt, .. } => f.write_str(
                "a TFRC sender's no-feedback timer expired while it was data-limited before any report came back: \
                 it divides by a round-trip time of 0",
            ),
            Abort::DiffServ(crate::qdisc::dsred::Fault::NoPhb(cp)) => {
                write!(f, "a DiffServ queue has no per-hop behaviour for code point {cp}")
            }
            Abort::DiffServ(crate::qdisc::dsred::Fault::Unmarked(crate::policer::Unmarked::NoProfile { src, dst })) => {
                write!(f, "a DiffServ edge has no profile for packets from {src} to {dst}")
            }
            Abort::DiffServ(crate::qdisc::dsred::Fault::Unmarked(crate::policer::Unmarked::NoRule { kind, code_point })) => {
                write!(f, "a DiffServ edge has no downgrade rule for its {kind:?} meter and code point {code_point}")
            }
            Abort::IdleTimerCancelled { .. } => {
                f.write_str("a file-fetch client's connection ended while it had no request pending (it cancels an idle timer)")
            }
            Abort::ServiceClass { class, .. } => {
                write!(f, "a packet of service class {class} reached a queue whose classes are 1 to 4")
            }
            Abort::CbqUnboundFlow { fid } => write!(
                f,
                "a packet of flow {fid} reached a CBQ queue none of whose classes has that flow: bind it to a leaf class \
                 (ns-2's CBQ link stops there too: its classifier's unknown-flow)"
            ),
            Abort::ErrorModel { what, .. } => write!(f, "an error model's {what}"),
            Abort::Front(what) => f.write_str(what),
        }
    }
}
