//! A typed builder for scenarios: nodes, links, queues, agents, sources,
//! error models, monitors and traces, built without a Tcl interpreter.
//!
//! Results must be those of the equivalent ns-2 script run by the ns-2
//! layer (python/dumbbell/ns2/lib/*.tcl), so the builder makes the same
//! engine objects, in the same order, wired by the same engine commands,
//! with the same class defaults: object creation and resets draw from the
//! default RNG (a TCP sender's boot time), packets draw uids when they are
//! made, and events at equal times run in the order they were scheduled.
//! Each method below says which procedure of the ns-2 library it mirrors.
//!
//! Parameters that are ns-2 bound variables are set by name through the
//! engine's setters (`Sim::store_var`), so the builder's vocabulary is the
//! engine's bound-variable tables; the typed specs below are conveniences
//! that translate into those names.
//!
//! Set-up is flat per object: nothing here looks through all nodes, links
//! or agents to add one (ports are allocated from a per-node count, links
//! found through a hash map).

use crate::errmodel::Pattern;
use crate::ns2::objects;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, Yield, NONE};
use std::collections::HashMap;
use std::fmt;

// ---- units -------------------------------------------------------------------

/// A bandwidth in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Bandwidth(pub f64);

impl Bandwidth {
    pub fn bps(x: f64) -> Self {
        Bandwidth(x)
    }
    pub fn kbps(x: f64) -> Self {
        Bandwidth(x * 1e3)
    }
    pub fn mbps(x: f64) -> Self {
        Bandwidth(x * 1e6)
    }
    pub fn gbps(x: f64) -> Self {
        Bandwidth(x * 1e9)
    }
}

/// A time or a duration in seconds (simulated time is a double, as in ns-2).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Seconds(pub f64);

impl Seconds {
    pub fn ms(x: f64) -> Self {
        Seconds(x * 1e-3)
    }
    pub fn us(x: f64) -> Self {
        Seconds(x * 1e-6)
    }
}

/// A size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u32);

// ---- handles ---------------------------------------------------------------------

/// A node: its ns-2 node number (0, 1, ... in creation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(pub u32);

/// One direction of a link (index in creation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LinkId(pub u32);

/// An agent (TCP sender, sink, UDP, LossMonitor, Null): its engine object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgentId(pub ObjId);

/// An application (FTP, CBR, on/off, Telnet): its engine object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AppId(pub ObjId);

/// A queue monitor on a link direction (index in creation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MonitorId(pub u32);

/// An error model (its engine object).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErrorModelId(pub ObjId);

/// What went wrong while building or running.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildError(pub String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

impl From<String> for BuildError {
    fn from(s: String) -> Self {
        BuildError(s)
    }
}

pub type Result<T> = std::result::Result<T, BuildError>;

pub(super) fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(BuildError(msg.into()))
}

/// A number as Tcl text that the engine's parsers read back exactly
/// (Rust's shortest round-trip form).
pub(super) fn num(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:?}")
    }
}

fn flag(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

// ---- specifications ------------------------------------------------------------------

/// Bound variables set by name, in order (`("thresh_", "5")`).
pub type Params = Vec<(String, String)>;

/// A link's queue.  The typed fields are applied right after the class
/// defaults, as if the script had set them as class defaults before making
/// the link (`Queue/RED set thresh_ 5`); `params` (by name) follow.
#[derive(Clone, Debug)]
pub enum QueueSpec {
    DropTail(DropTail),
    Red(Red),
    CoDel(CoDel),
    Pie(Pie),
    FqCoDel(FqCoDel),
    Scfq(Scfq),
    Pi(Pi),
    /// A queue class set through its bound variables alone
    /// (`Builder::set_queue_var`): `Queue/COBALT`, `Queue/FQ_PIE`,
    /// `Queue/FQ_COBALT`, and ns-2's `Queue/DRR`, `Queue/SFQ`, `Queue/Vq`,
    /// `Queue/GK`.
    Class(&'static str),
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec::DropTail(DropTail::default())
    }
}

/// ns-2's Queue/DropTail.
#[derive(Clone, Debug, Default)]
pub struct DropTail {
    /// Packets (or bytes, with `bytes`); ns-2's default is 50 packets.
    pub limit: Option<u32>,
    /// Drop from the front of the queue when full (`drop_front_`).
    pub drop_front: bool,
    /// Count the limit in bytes (`queue_in_bytes_`, with `mean_pktsize_`).
    pub bytes: bool,
    pub mean_pktsize: Option<Bytes>,
    pub params: Params,
}

/// ns-2's Queue/PI (the engine's `qdisc::Pi`); its controller's
/// variables (`a_`, `b_`, `w_`, `qref_`, `setbit_`, ...) by name.
#[derive(Clone, Debug, Default)]
pub struct Pi {
    pub limit: Option<u32>,
    pub params: Params,
}

/// The seeds' RED variants (seed 001).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum RedVariant {
    /// ns-2's RED (with ECN marking when `ecn`).
    #[default]
    Plain,
    /// ECN marking with a mark threshold (`ecnm_`).
    Ecnm,
    /// Mark the packet at the front of the queue (`mark_front_`).
    MarkFront,
    /// Adaptive ECN (`aecn_` and its thresholds).
    Aecn { robust_min: Option<f64>, robust_max: Option<f64>, fragile_min: Option<f64>, a: Option<f64>, b: Option<f64> },
}

/// ns-2's Queue/RED (thresholds in packets unless `bytes`).
#[derive(Clone, Debug, Default)]
pub struct Red {
    pub limit: Option<u32>,
    pub thresh: Option<f64>,
    pub maxthresh: Option<f64>,
    /// Weight of the average (`q_weight_`; ns-2's -1 means automatic).
    pub q_weight: Option<f64>,
    /// 1/max_p (`linterm_`).
    pub linterm: Option<f64>,
    pub mark_p: Option<f64>,
    /// Mark ECN-capable packets instead of dropping them (`setbit_`).
    pub ecn: bool,
    pub gentle: Option<bool>,
    pub wait: Option<bool>,
    pub drop_front: Option<bool>,
    pub drop_tail: Option<bool>,
    pub drop_rand: Option<bool>,
    /// Byte mode (`bytes_` and `queue_in_bytes_`).
    pub bytes: Option<bool>,
    pub mean_pktsize: Option<Bytes>,
    pub adaptive: Option<bool>,
    pub variant: RedVariant,
    pub params: Params,
}

/// CoDel (the engine's `qdisc::CoDel`, ns-3.37's CoDelQueueDisc).
#[derive(Clone, Debug)]
pub struct CoDel {
    /// Capacity in packets (or bytes with `bytes`); ns-2's queue default 50.
    pub limit: Option<u32>,
    pub bytes: bool,
    pub target: Seconds,
    pub interval: Seconds,
    pub min_bytes: Bytes,
    pub use_ecn: bool,
    pub ce_threshold: Option<Seconds>,
    /// `UseL4s` (false): ECT(1) and CE packets only CE-marked past `ce_threshold`.
    pub use_l4s: bool,
}

impl Default for CoDel {
    fn default() -> Self {
        let c = crate::qdisc::codel::CoDel::new();
        CoDel {
            limit: None,
            bytes: false,
            target: Seconds(c.target),
            interval: Seconds(c.interval),
            min_bytes: Bytes(c.min_bytes),
            use_ecn: c.use_ecn,
            ce_threshold: c.ce_threshold.map(Seconds),
            use_l4s: c.use_l4s,
        }
    }
}

/// PIE (the engine's `qdisc::Pie`, ns-3.37's PieQueueDisc; ns-3's attribute
/// in each field's comment).  Times are rounded to whole nanoseconds.
#[derive(Clone, Debug)]
pub struct Pie {
    /// Capacity in packets (or, with `bytes`, `limit` packets of
    /// `mean_pkt_size` bytes); ns-2's queue default 50.
    pub limit: Option<u32>,
    /// The limit in bytes, and the probability scaled by packet size
    /// (`MaxSize` in bytes).
    pub bytes: bool,
    /// `MeanPktSize` (1000 bytes).
    pub mean_pkt_size: Bytes,
    /// `A`, `B`: the controller's weights (0.125, 1.25).
    pub a: f64,
    pub b: f64,
    /// `Tupdate` (15 ms).
    pub t_update: Seconds,
    /// `QueueDelayReference` (15 ms).
    pub queue_delay_reference: Seconds,
    /// `MaxBurstAllowance` (150 ms).
    pub max_burst_allowance: Seconds,
    /// `DequeueThreshold` (16384 bytes).
    pub dequeue_threshold: Bytes,
    /// `UseDequeueRateEstimator` (false).
    pub use_dequeue_rate_estimator: bool,
    /// `UseCapDropAdjustment` (true).
    pub use_cap_drop_adjustment: bool,
    /// `UseEcn` (false).
    pub use_ecn: bool,
    /// `MarkEcnThreshold` (0.1).
    pub mark_ecn_threshold: f64,
    /// `UseDerandomization` (false).
    pub use_derandomization: bool,
    /// `ActiveThreshold` (None: PIE always active).
    pub active_threshold: Option<Seconds>,
    /// `CeThreshold` (None: off) and `UseL4s` (false).
    pub ce_threshold: Option<Seconds>,
    pub use_l4s: bool,
}

impl Default for Pie {
    fn default() -> Self {
        let p = crate::qdisc::pie::Pie::new();
        let s = |ns: i64| Seconds(ns as f64 / 1e9);
        Pie {
            limit: None,
            bytes: false,
            mean_pkt_size: Bytes(1000),
            a: p.a,
            b: p.b,
            t_update: s(p.t_update),
            queue_delay_reference: s(p.qdelay_ref),
            max_burst_allowance: s(p.max_burst),
            dequeue_threshold: Bytes(p.dq_threshold),
            use_dequeue_rate_estimator: p.use_dq_rate_estimator,
            use_cap_drop_adjustment: p.cap_drop_adjustment,
            use_ecn: p.use_ecn,
            mark_ecn_threshold: p.mark_ecn_th,
            use_derandomization: p.use_derandomization,
            active_threshold: p.active_threshold.map(s),
            ce_threshold: p.ce_threshold.map(s),
            use_l4s: p.use_l4s,
        }
    }
}

/// SCFQ (Dumbbell's `Queue/SCFQ`, qdisc/scfq.rs): its classes in order,
/// flow ids to classes, and the default class (else the first).
#[derive(Clone, Debug, Default)]
pub struct Scfq {
    pub classes: Vec<ScfqClass>,
    /// (flow id, class id)
    pub classify: Vec<(i32, i32)>,
    pub default_class: Option<i32>,
}

/// One SCFQ class: its id, weight, and its queue: an engine class
/// ("Queue/DropTail" or "Queue/RED") with its bound variables, made and
/// handed over with `$q class-queue`.
#[derive(Clone, Debug)]
pub struct ScfqClass {
    pub id: i32,
    pub weight: f64,
    pub queue: String,
    pub params: Params,
}

/// FQ-CoDel (the engine's `qdisc::FqCoDel`, ns-3.37's FqCoDelQueueDisc;
/// ns-3's attribute in each field's comment).
#[derive(Clone, Debug)]
pub struct FqCoDel {
    /// Capacity in packets over all flow queues; ns-2's queue default 50.
    pub limit: Option<u32>,
    /// `Target` (5 ms), `Interval` (100 ms) of each flow queue's CoDel.
    pub target: Seconds,
    pub interval: Seconds,
    /// `UseEcn` (true).
    pub use_ecn: bool,
    /// `CeThreshold` (None: off).
    pub ce_threshold: Option<Seconds>,
    /// `UseL4s` (false).
    pub use_l4s: bool,
    /// `Flows` (1024).
    pub flows: u32,
    /// The quantum (ns-3: the device MTU; 1500).
    pub quantum: Bytes,
    /// `DropBatchSize` (64).
    pub drop_batch_size: u32,
    /// `Perturbation` (0).
    pub perturbation: u32,
    /// `EnableSetAssociativeHash` (false), `SetWays` (8).
    pub set_associative_hash: bool,
    pub set_ways: u32,
}

impl Default for FqCoDel {
    fn default() -> Self {
        let q = crate::qdisc::fq_codel::FqCoDel::new();
        FqCoDel {
            limit: None,
            target: Seconds(q.aqm.target),
            interval: Seconds(q.aqm.interval),
            use_ecn: q.aqm.use_ecn,
            ce_threshold: q.aqm.ce_threshold.map(Seconds),
            use_l4s: q.aqm.use_l4s,
            flows: q.flows,
            quantum: Bytes(q.quantum),
            drop_batch_size: q.drop_batch_size,
            perturbation: q.perturbation,
            set_associative_hash: q.set_associative_hash,
            set_ways: q.set_ways,
        }
    }
}

impl QueueSpec {
    /// The engine class of the queue object.
    pub fn kind(&self) -> &'static str {
        match self {
            QueueSpec::DropTail(_) => "Queue/DropTail",
            QueueSpec::Red(_) => "Queue/RED",
            QueueSpec::CoDel(_) => "Queue/CoDel",
            QueueSpec::Pie(_) => "Queue/PIE",
            QueueSpec::FqCoDel(_) => "Queue/FQ_CoDel",
            QueueSpec::Scfq(_) => "Queue/SCFQ",
            QueueSpec::Pi(_) => "Queue/PI",
            QueueSpec::Class(c) => c,
        }
    }

    fn is_red(&self) -> bool {
        matches!(self, QueueSpec::Red(_))
    }

    /// The typed fields as bound variables, in a fixed order.
    fn vars(&self) -> Params {
        let mut v: Params = Vec::new();
        let mut put = |k: &str, val: String| v.push((k.to_string(), val));
        match self {
            QueueSpec::DropTail(d) => {
                if let Some(l) = d.limit {
                    put("limit_", l.to_string());
                }
                if d.drop_front {
                    put("drop_front_", "true".into());
                }
                if d.bytes {
                    put("queue_in_bytes_", "true".into());
                }
                if let Some(m) = d.mean_pktsize {
                    put("mean_pktsize_", m.0.to_string());
                }
                for (k, val) in &d.params {
                    put(k, val.clone());
                }
            }
            QueueSpec::Red(r) => {
                if let Some(l) = r.limit {
                    put("limit_", l.to_string());
                }
                if let Some(b) = r.bytes {
                    put("bytes_", flag(b).into());
                    put("queue_in_bytes_", flag(b).into());
                }
                if let Some(m) = r.mean_pktsize {
                    put("mean_pktsize_", m.0.to_string());
                }
                for (k, x) in [("thresh_", r.thresh), ("maxthresh_", r.maxthresh), ("q_weight_", r.q_weight), ("linterm_", r.linterm), ("mark_p_", r.mark_p)] {
                    if let Some(x) = x {
                        put(k, num(x));
                    }
                }
                if r.ecn {
                    put("setbit_", "true".into());
                }
                for (k, b) in [
                    ("gentle_", r.gentle),
                    ("wait_", r.wait),
                    ("drop_front_", r.drop_front),
                    ("drop_tail_", r.drop_tail),
                    ("drop_rand_", r.drop_rand),
                ] {
                    if let Some(b) = b {
                        put(k, flag(b).into());
                    }
                }
                if let Some(a) = r.adaptive {
                    put("adaptive_", if a { "1" } else { "0" }.into());
                }
                match &r.variant {
                    RedVariant::Plain => {}
                    RedVariant::Ecnm => put("ecnm_", "true".into()),
                    RedVariant::MarkFront => put("mark_front_", "true".into()),
                    RedVariant::Aecn { robust_min, robust_max, fragile_min, a, b } => {
                        put("aecn_", "true".into());
                        for (k, x) in [
                            ("aecn_robust_min_", robust_min),
                            ("aecn_robust_max_", robust_max),
                            ("aecn_fragile_min_", fragile_min),
                            ("aecn_a_", a),
                            ("aecn_b_", b),
                        ] {
                            if let Some(x) = x {
                                put(k, num(*x));
                            }
                        }
                    }
                }
                for (k, val) in &r.params {
                    put(k, val.clone());
                }
            }
            QueueSpec::CoDel(c) => {
                if let Some(l) = c.limit {
                    put("limit_", l.to_string());
                }
                if c.bytes {
                    put("queue_in_bytes_", "true".into());
                }
                put("target_", c.target.0.to_string());
                put("interval_", c.interval.0.to_string());
                put("minbytes_", c.min_bytes.0.to_string());
                put("setbit_", if c.use_ecn { "true" } else { "false" }.into());
                put("ce_threshold_", c.ce_threshold.map_or("-1".into(), |s| s.0.to_string()));
                put("use_l4s_", flag(c.use_l4s).into());
            }
            QueueSpec::Pie(p) => {
                if let Some(l) = p.limit {
                    put("limit_", l.to_string());
                }
                put("queue_in_bytes_", flag(p.bytes).into());
                put("mean_pktsize_", p.mean_pkt_size.0.to_string());
                put("a_", p.a.to_string());
                put("b_", p.b.to_string());
                put("tUpdate_", p.t_update.0.to_string());
                put("qdelay_ref_", p.queue_delay_reference.0.to_string());
                put("burst_allowance_", p.max_burst_allowance.0.to_string());
                put("dq_threshold_", p.dequeue_threshold.0.to_string());
                put("use_dq_rate_estimator_", flag(p.use_dequeue_rate_estimator).into());
                put("cap_drop_adjustment_", flag(p.use_cap_drop_adjustment).into());
                put("setbit_", flag(p.use_ecn).into());
                put("mark_p_", p.mark_ecn_threshold.to_string());
                put("derandomize_", flag(p.use_derandomization).into());
                put("active_threshold_", p.active_threshold.map_or("-1".into(), |s| s.0.to_string()));
                put("ce_threshold_", p.ce_threshold.map_or("-1".into(), |s| s.0.to_string()));
                put("use_l4s_", flag(p.use_l4s).into());
            }
            QueueSpec::FqCoDel(q) => {
                if let Some(l) = q.limit {
                    put("limit_", l.to_string());
                }
                put("target_", q.target.0.to_string());
                put("interval_", q.interval.0.to_string());
                put("setbit_", flag(q.use_ecn).into());
                put("ce_threshold_", q.ce_threshold.map_or("-1".into(), |s| s.0.to_string()));
                put("use_l4s_", flag(q.use_l4s).into());
                // the ways before the switch, the flows before both (each setter checks that they divide)
                put("flows_", q.flows.to_string());
                put("set_ways_", q.set_ways.to_string());
                put("set_associative_hash_", flag(q.set_associative_hash).into());
                put("quantum_", q.quantum.0.to_string());
                put("drop_batch_size_", q.drop_batch_size.to_string());
                put("perturbation_", q.perturbation.to_string());
            }
            QueueSpec::Pi(p) => {
                if let Some(l) = p.limit {
                    put("limit_", l.to_string());
                }
                for (k, val) in &p.params {
                    put(k, val.clone());
                }
            }
            QueueSpec::Scfq(_) | QueueSpec::Class(_) => {}
        }
        v
    }
}

/// TCP senders (ns-2's one-way agents).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TcpFlavor {
    Tahoe,
    Reno,
    NewReno,
    Sack1,
    Vegas,
    Rfc793edu,
    /// Agent/TCP/Linux (its congestion control by `select_ca`).
    Linux,
    Fack,
    SackRh,
}

impl TcpFlavor {
    pub fn class(self) -> &'static str {
        match self {
            TcpFlavor::Tahoe => "Agent/TCP",
            TcpFlavor::Reno => "Agent/TCP/Reno",
            TcpFlavor::NewReno => "Agent/TCP/Newreno",
            TcpFlavor::Sack1 => "Agent/TCP/Sack1",
            TcpFlavor::Vegas => "Agent/TCP/Vegas",
            TcpFlavor::Rfc793edu => "Agent/TCP/RFC793edu",
            TcpFlavor::Linux => "Agent/TCP/Linux",
            TcpFlavor::Fack => "Agent/TCP/Fack",
            TcpFlavor::SackRh => "Agent/TCP/SackRH",
        }
    }
}

/// Two-way TCP agents (ns-2's FullTcp family): one at each end, the far
/// one listening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FullVariant {
    Reno,
    Tahoe,
    NewReno,
    Sack,
}

impl FullVariant {
    pub fn class(self) -> &'static str {
        match self {
            FullVariant::Reno => "Agent/TCP/FullTcp",
            FullVariant::Tahoe => "Agent/TCP/FullTcp/Tahoe",
            FullVariant::NewReno => "Agent/TCP/FullTcp/Newreno",
            FullVariant::Sack => "Agent/TCP/FullTcp/Sack",
        }
    }

    /// What each variant's Tcl `init` sets (ns-default.tcl), before the
    /// caller's settings.
    fn init_vars(self) -> &'static [(&'static str, &'static str)] {
        match self {
            FullVariant::Reno => &[],
            FullVariant::Tahoe => &[("reno_fastrecov_", "false")],
            FullVariant::NewReno => &[("open_cwnd_on_pack_", "false")],
            FullVariant::Sack => &[("reno_fastrecov_", "false"), ("open_cwnd_on_pack_", "false")],
        }
    }
}

/// TCP sinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SinkKind {
    AckEvery,
    DelAck,
    Sack1,
    Sack1DelAck,
}

impl SinkKind {
    pub fn class(self) -> &'static str {
        match self {
            SinkKind::AckEvery => "Agent/TCPSink",
            SinkKind::DelAck => "Agent/TCPSink/DelAck",
            SinkKind::Sack1 => "Agent/TCPSink/Sack1",
            SinkKind::Sack1DelAck => "Agent/TCPSink/Sack1/DelAck",
        }
    }
}

/// Other agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AgentKind {
    Tcp(TcpFlavor),
    Sink(SinkKind),
    /// A two-way TCP agent (`listen` it with `command` at the far end).
    FullTcp(FullVariant),
    Udp,
    LossMonitor,
    Null,
    /// Agent/TFRC (started and stopped itself: `Action::StartAgent`).
    Tfrc,
    /// Agent/TFRCSink.
    TfrcSink,
}

impl AgentKind {
    pub fn class(self) -> &'static str {
        match self {
            AgentKind::Tcp(f) => f.class(),
            AgentKind::Sink(s) => s.class(),
            AgentKind::FullTcp(v) => v.class(),
            AgentKind::Udp => "Agent/UDP",
            AgentKind::LossMonitor => "Agent/LossMonitor",
            AgentKind::Null => "Agent/Null",
            AgentKind::Tfrc => "Agent/TFRC",
            AgentKind::TfrcSink => "Agent/TFRCSink",
        }
    }
}

/// Applications.  `None` fields keep ns-2's class defaults.
#[derive(Clone, Debug)]
pub enum AppSpec {
    /// Application/FTP: bulk data (`send -1` at start).
    Ftp,
    /// Application/Traffic/CBR.
    Cbr { rate: Option<Bandwidth>, packet_size: Option<Bytes>, random: Option<bool>, maxpkts: Option<u32> },
    /// Application/Traffic/Exponential (on/off, exponential periods).
    Exponential { burst_time: Option<Seconds>, idle_time: Option<Seconds>, rate: Option<Bandwidth>, packet_size: Option<Bytes> },
    /// Application/Traffic/Pareto (on/off, Pareto periods).
    Pareto { burst_time: Option<Seconds>, idle_time: Option<Seconds>, rate: Option<Bandwidth>, packet_size: Option<Bytes>, shape: Option<f64> },
    /// Application/Telnet over a TCP agent (`interval_` between sends).
    Telnet { interval: Option<Seconds> },
    /// Dumbbell's Application/Traffic/VoIPCalls (voip.rs); its parameters
    /// are set by name (`lambda_`, `holding_`, ...).
    VoipCalls,
}

impl AppSpec {
    pub fn class(&self) -> &'static str {
        match self {
            AppSpec::Ftp => "Application",
            AppSpec::Cbr { .. } => "Application/Traffic/CBR",
            AppSpec::Exponential { .. } => "Application/Traffic/Exponential",
            AppSpec::Pareto { .. } => "Application/Traffic/Pareto",
            AppSpec::Telnet { .. } => "Application/Telnet",
            AppSpec::VoipCalls => "Application/Traffic/VoIPCalls",
        }
    }

    fn vars(&self) -> Params {
        let mut v: Params = Vec::new();
        let mut put = |k: &str, val: String| v.push((k.to_string(), val));
        match self {
            AppSpec::Ftp | AppSpec::VoipCalls => {}
            AppSpec::Cbr { rate, packet_size, random, maxpkts } => {
                if let Some(r) = rate {
                    put("rate_", num(r.0));
                }
                if let Some(p) = packet_size {
                    put("packetSize_", p.0.to_string());
                }
                if let Some(r) = random {
                    put("random_", if *r { "1" } else { "0" }.into());
                }
                if let Some(m) = maxpkts {
                    put("maxpkts_", m.to_string());
                }
            }
            AppSpec::Exponential { burst_time, idle_time, rate, packet_size } | AppSpec::Pareto { burst_time, idle_time, rate, packet_size, .. } => {
                if let Some(t) = burst_time {
                    put("burst_time_", num(t.0));
                }
                if let Some(t) = idle_time {
                    put("idle_time_", num(t.0));
                }
                if let Some(r) = rate {
                    put("rate_", num(r.0));
                }
                if let Some(p) = packet_size {
                    put("packetSize_", p.0.to_string());
                }
                if let AppSpec::Pareto { shape: Some(s), .. } = self {
                    put("shape_", num(*s));
                }
            }
            AppSpec::Telnet { interval } => {
                if let Some(t) = interval {
                    put("interval_", num(t.0));
                }
            }
        }
        v
    }
}

/// What an error model counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorUnit {
    Packet,
    Byte,
}

/// Which packets an error model hits.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorPattern {
    /// Each unit with probability `rate` (ErrorModel; default RNG).
    Uniform { rate: f64 },
    /// ErrorModel/Periodic: every `period` units after `offset`, for `burstlen`.
    Periodic { period: f64, offset: f64, burstlen: f64 },
    /// ErrorModel/List: these packet (or byte) numbers.
    List(Vec<i64>),
}

/// Where an error model sits on its link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorPlace {
    /// At the head of the link, before the queue (ns-2's `$ns lossmodel`).
    BeforeQueue,
    /// After the delay line, before the next node (`$ns link-lossmodel`).
    AfterLink,
}

/// An error model on a link direction.
#[derive(Clone, Debug)]
pub struct ErrorModelSpec {
    pub pattern: ErrorPattern,
    pub unit: ErrorUnit,
    /// Mark ECN-capable packets instead of dropping them (`markecn_`).
    pub mark_ecn: bool,
    pub place: ErrorPlace,
    pub params: Params,
}

/// What a scheduled event does (ns-2's `$ns at t "..."` of the script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `$app start` (FTP: `send -1`; others: Application's `start`).
    Start(AppId),
    /// `$app stop` (FTP: `advance 0` then `close`).
    Stop(AppId),
    /// `$agent start` (a TFRC sender with `SndrType_` 0).
    StartAgent(AgentId),
    /// `$agent stop`.
    StopAgent(AgentId),
    /// A full-TCP connection's bulk sender connects (its application starts).
    Connect(AgentId),
    /// A full-TCP connection's bulk sender stops writing and closes.
    Close(AgentId),
    /// `$ns halt`.
    Halt,
    /// A mobile node's `setdest` (the builder's list of moves, by index:
    /// build_wireless.rs).
    Setdest(u32),
    /// Commands on objects (`at_script`'s list, by index).
    Script(u32),
}

/// One step of a scheduled script (`Builder::at_script`): what a script's
/// `$ns at t "..."` does to a queue or its flows.
#[derive(Clone, Debug, PartialEq)]
pub enum TimedCmd {
    /// `$obj set var value`.
    Set { obj: ObjId, var: String, value: String },
    /// `$obj argv...`.
    Command { obj: ObjId, argv: Vec<String> },
    /// For each flow of flow monitor `monitor` whose `flowid_` is `fid`, in
    /// the order of `$monitor flows`: `$obj argv[0] $flow argv[1..]`
    /// (test-suite-red-pd.tcl's `monitorFlow`, `unmonitorFlow`,
    /// `unresponsiveFlow` on a RED-PD queue).  No such flow yet: nothing.
    EachFlow { monitor: ObjId, obj: ObjId, fid: i32, argv: Vec<String> },
}

/// Why `run` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Output is waiting (`Sim::out_mut().drain()`); call `run` again.
    Output,
    /// `$ns halt` ran.
    Halted,
    /// No events left.
    Done,
    /// An `Interrupter` stopped the run between two events; call `run`
    /// again to go on.
    Interrupted,
}

/// The counters of a queue monitor and its two integrators.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MonitorStats {
    pub parrivals: i64,
    pub pdepartures: i64,
    pub pdrops: i64,
    pub barrivals: i64,
    pub bdepartures: i64,
    pub bdrops: i64,
    pub pkts: i64,
    pub size: i64,
    /// (lastx, lasty, sum) of the packets and bytes integrators.
    pub pkts_integral: (f64, f64, f64),
    pub bytes_integral: (f64, f64, f64),
}

// ---- class defaults ----------------------------------------------------------------

/// Class-level defaults as the ns-2 library sets them (defaults.tcl):
/// class -> variable -> value.  A new object gets, for each bound variable
/// of its engine class, the value of the first class in its heritage that
/// sets it (tclobject.tcl's `class_defaults`).
#[derive(Clone, Debug, Default)]
pub struct ClassDefaults {
    classes: HashMap<String, HashMap<String, String>>,
}

impl ClassDefaults {
    /// Read the library's defaults file: `::dumbbell::class_vars Cls {var
    /// value ...}`, `Cls set var value` and `Cls set var [Other set var]`;
    /// comments and other lines are skipped.
    pub fn parse(text: &str) -> Result<ClassDefaults> {
        let mut d = ClassDefaults::default();
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            if let Some(rest) = l.strip_prefix("::dumbbell::class_vars ") {
                let cls = rest.trim_end_matches('{').trim().to_string();
                let mut words: Vec<String> = Vec::new();
                for body in lines.by_ref() {
                    let b = body.trim();
                    if b == "}" {
                        break;
                    }
                    words.extend(b.split_whitespace().map(str::to_string));
                }
                if words.len() % 2 != 0 {
                    return err(format!("class defaults of {cls}: odd list"));
                }
                for p in words.chunks(2) {
                    d.set(&cls, &p[0], &p[1]);
                }
            } else {
                let w: Vec<&str> = l.split_whitespace().collect();
                if w.len() >= 4 && w[1] == "set" {
                    let value = if w[3].starts_with('[') {
                        // `[Other set var]`
                        let inner: Vec<&str> = l[l.find('[').unwrap() + 1..l.rfind(']').unwrap_or(l.len())].split_whitespace().collect();
                        if inner.len() != 3 || inner[1] != "set" {
                            return err(format!("class defaults: cannot read {l:?}"));
                        }
                        d.get(inner[0], inner[2]).ok_or_else(|| BuildError(format!("class defaults: {l:?} reads an unset variable")))?.to_string()
                    } else if w.len() == 4 {
                        w[3].to_string()
                    } else {
                        return err(format!("class defaults: cannot read {l:?}"));
                    };
                    d.set(w[0], w[2], &value);
                }
            }
        }
        Ok(d)
    }

    pub fn set(&mut self, class: &str, var: &str, value: &str) {
        self.classes.entry(class.to_string()).or_default().insert(var.to_string(), value.to_string());
    }

    pub fn get(&self, class: &str, var: &str) -> Option<&str> {
        self.classes.get(class).and_then(|m| m.get(var)).map(|s| s.as_str())
    }

    /// The defaults a new object of OTcl class `class` (engine class
    /// `kind`) gets, in the order of the kind's bound variables.  The
    /// heritage of the engine's classes is their name path
    /// (Agent/TCP/Reno, Agent/TCP, Agent), as the ns-2 layer registers them.
    pub fn for_class(&self, kind: &str, class: &str) -> Params {
        let mut heritage: Vec<&str> = Vec::new();
        let mut c = class;
        loop {
            heritage.push(c);
            match c.rfind('/') {
                Some(i) => c = &c[..i],
                None => break,
            }
        }
        if kind != class && !heritage.contains(&kind) {
            let mut c = kind;
            loop {
                heritage.push(c);
                match c.rfind('/') {
                    Some(i) => c = &c[..i],
                    None => break,
                }
            }
        }
        let mut out = Vec::new();
        for (v, _) in objects::bound_vars(kind).unwrap_or_default() {
            if let Some(val) = heritage.iter().find_map(|c| self.get(c, v)) {
                out.push((v.to_string(), val.to_string()));
            }
        }
        out
    }
}

// ---- Tcl's array order -------------------------------------------------------------

/// The order in which Tcl 8.6's `array names` lists an array whose keys
/// were set in the order given (no key twice, none unset): the order of its
/// hash table's buckets, each chain newest first, with the table's rebuilds
/// (4 buckets, x4 whenever it holds 3 entries per bucket) and its string
/// hash (`h = h*9 + c`).  `$ns run` resets nodes and queues in this order
/// (the Simulator's `Node_` and `link_` arrays), which orders the boot-time
/// draws of the TCP senders.
pub fn tcl_array_order<S: AsRef<[u8]>>(keys: &[S]) -> Vec<usize> {
    fn hash(s: &[u8]) -> u32 {
        let mut h: u32 = 0;
        for (i, &c) in s.iter().enumerate() {
            h = if i == 0 { c as u32 } else { h.wrapping_add(h << 3).wrapping_add(c as u32) };
        }
        h
    }
    // chains as singly linked lists over the entries: head per bucket
    const END: usize = usize::MAX;
    let hashes: Vec<u32> = keys.iter().map(|k| hash(k.as_ref())).collect();
    let mut next = vec![END; keys.len()];
    let mut buckets = vec![END; 4];
    let mut mask: u32 = 3;
    let mut rebuild = 12usize;
    for i in 0..keys.len() {
        let b = (hashes[i] & mask) as usize;
        next[i] = buckets[b];
        buckets[b] = i;
        if i + 1 >= rebuild {
            let old = std::mem::replace(&mut buckets, vec![END; (mask as usize + 1) * 4]);
            mask = (mask << 2) | 3;
            rebuild *= 4;
            for &head in &old {
                let mut e = head;
                while e != END {
                    let nx = next[e];
                    let b = (hashes[e] & mask) as usize;
                    next[e] = buckets[b];
                    buckets[b] = e;
                    e = nx;
                }
            }
        }
    }
    let mut out = Vec::with_capacity(keys.len());
    for &head in &buckets {
        let mut e = head;
        while e != END {
            out.push(e);
            e = next[e];
        }
    }
    out
}

// ---- the builder ----------------------------------------------------------------------

/// One direction of a link: ns-2's SimpleLink and its objects.
#[derive(Clone, Debug)]
pub struct LinkObjs {
    pub src: u32,
    pub dst: u32,
    pub head: ObjId,
    pub queue: ObjId,
    pub link: ObjId,
    pub ttl: ObjId,
    pub drophead: ObjId,
    /// A RED queue (or RED-PD's): RED's `attach-traces` gives its early
    /// drops a trace.
    pub red: bool,
    /// A RED-PD queue: its `attach-traces` gives its monitored drops a
    /// trace too (ns-queue.tcl's `Queue/RED/PD attach-traces`).
    pub redpd: bool,
    /// The error model at the head (`errormodule`), if any.
    pub head_errmodel: ObjId,
    /// The error model after the link (`insert-linkloss`), if any.
    pub link_errmodel: ObjId,
    pub traced: bool,
}

/// A queue monitor and its integrators (SimpleLink's `init-monitor`;
/// `NONE` for a monitor of counters only).
#[derive(Clone, Copy, Debug)]
pub struct MonitorObjs {
    pub link: LinkId,
    pub qmon: ObjId,
    pub bytes_int: ObjId,
    pub pkts_int: ObjId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AppKind {
    Ftp,
    Other,
}

/// Builds a scenario in an engine and runs it.
pub struct Builder {
    sim: Sim,
    defaults: ClassDefaults,
    /// Registered class defaults per OTcl class.
    handles: HashMap<&'static str, u32>,
    next_handle_name: u64,
    default_rng: ObjId,
    null: ObjId,
    nodes: Vec<ObjId>,
    /// Agents attached to each node, in attach order (Node's `agents_`).
    node_agents: Vec<Vec<ObjId>>,
    links: Vec<LinkObjs>,
    link_index: HashMap<(u32, u32), u32>,
    monitors: Vec<MonitorObjs>,
    apps: HashMap<ObjId, AppKind>,
    actions: HashMap<u64, Action>,
    /// The steps of each `Action::Script`.
    scripts: Vec<Vec<TimedCmd>>,
    trace_all: Option<String>,
    started: bool,
    route_logic: ObjId,
    /// Nodes made from now on get a Quick-Start router (`quickstart`).
    qs: bool,
    /// Each node's entry: the node, or its Quick-Start classifier (a
    /// mobile node's: its routing agent).
    entries: Vec<ObjId>,
    /// The wireless scenario's parts, once made (build_wireless.rs).
    pub(super) wireless: Option<Box<crate::ns2::build_wireless::WirelessState>>,
}

impl Builder {
    /// A new scenario: an engine with the default and routing RNGs and the
    /// Simulator's null agent (ns-2's start-up and `new Simulator`).
    pub fn new(defaults: ClassDefaults) -> Result<Builder> {
        let mut b = Builder {
            sim: Sim::ns2(),
            defaults,
            handles: HashMap::new(),
            next_handle_name: 0,
            default_rng: NONE,
            null: NONE,
            nodes: Vec::new(),
            node_agents: Vec::new(),
            links: Vec::new(),
            link_index: HashMap::new(),
            monitors: Vec::new(),
            apps: HashMap::new(),
            actions: HashMap::new(),
            scripts: Vec::new(),
            trace_all: None,
            started: false,
            route_logic: NONE,
            qs: false,
            entries: Vec::new(),
            wireless: None,
        };
        // ns-random.tcl's defaultRNG and route-proto.tcl's rtglibRNG
        b.default_rng = b.new_obj_as("RNG/default", "RNG", "RNG")?;
        b.new_obj_as("RNG/rtglib", "RNG", "RNG")?;
        // Simulator init: the null agent
        b.null = b.new_obj("Agent/Null")?;
        Ok(b)
    }

    /// The engine (to read variables, drain output, take recorded events).
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    pub fn sim_mut(&mut self) -> &mut Sim {
        &mut self.sim
    }

    pub fn into_sim(self) -> Sim {
        self.sim
    }

    pub fn null_agent(&self) -> AgentId {
        AgentId(self.null)
    }

    pub fn link_objs(&self, l: LinkId) -> &LinkObjs {
        &self.links[l.0 as usize]
    }

    pub fn monitor_objs(&self, m: MonitorId) -> &MonitorObjs {
        &self.monitors[m.0 as usize]
    }

    pub fn node_obj(&self, n: NodeId) -> ObjId {
        self.nodes[n.0 as usize]
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The link direction a -> b.
    pub fn link_between(&self, a: NodeId, b: NodeId) -> Option<LinkId> {
        self.link_index.get(&(a.0, b.0)).map(|&i| LinkId(i))
    }

    // ---- objects -----------------------------------------------------------------

    fn fresh_name(&mut self) -> String {
        self.next_handle_name += 1;
        format!("_b{}", self.next_handle_name)
    }

    /// `new <class>` of an engine class: the object and its class defaults
    /// (tclobject.tcl's `new` and the runner's `be_shadow`).
    pub(super) fn new_obj(&mut self, class: &'static str) -> Result<ObjId> {
        self.new_obj_as(class, class, class)
    }

    /// `new <class>` where the engine object is made as `eng_kind` with the
    /// defaults of `class` (an OTcl class whose engine class is `kind`).
    fn new_obj_as(&mut self, eng_kind: &'static str, kind: &'static str, class: &'static str) -> Result<ObjId> {
        let name = self.fresh_name();
        let id = self.sim.create(&name, eng_kind)?;
        let h = self.class_handle(kind, class);
        self.sim.init_defaults_ref(id, h).map_err(|e| BuildError(format!("{class}: {e}")))?;
        Ok(id)
    }

    /// The registered class defaults of OTcl class `class` (engine class
    /// `kind`), registered the first time.
    fn class_handle(&mut self, kind: &'static str, class: &'static str) -> u32 {
        match self.handles.get(class) {
            Some(&h) => h,
            None => {
                let d = self.defaults.for_class(kind, class);
                let h = self.sim.register_defaults(d);
                self.handles.insert(class, h);
                h
            }
        }
    }

    pub(super) fn cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String> {
        self.sim.command(id, argv).map_err(BuildError)
    }

    pub(super) fn defaults_ref(&self) -> &ClassDefaults {
        &self.defaults
    }

    pub(super) fn defaults_mut(&mut self) -> &mut ClassDefaults {
        &mut self.defaults
    }

    /// A node made (its engine object), with no agents yet.
    pub(super) fn push_node(&mut self, id: ObjId) {
        self.nodes.push(id);
        self.node_agents.push(Vec::new());
        self.entries.push(id);
    }

    /// What node `n`'s agents send to.
    pub(super) fn set_entry(&mut self, n: u32, to: ObjId) {
        self.entries[n as usize] = to;
    }

    fn name(&self, id: ObjId) -> String {
        self.sim.name(id).to_string()
    }

    /// `$obj target $t` (or `drop-target`).
    fn target(&mut self, id: ObjId, t: ObjId) -> Result<()> {
        let n = self.name(t);
        self.cmd(id, &["target", &n]).map(drop)
    }

    fn drop_target(&mut self, id: ObjId, t: ObjId) -> Result<()> {
        let n = self.name(t);
        self.cmd(id, &["drop-target", &n]).map(drop)
    }

    /// `[$obj target]`.
    fn target_of(&mut self, id: ObjId) -> Result<ObjId> {
        let n = self.cmd(id, &["target"])?;
        Ok(self.sim.lookup(&n).unwrap_or(NONE))
    }

    /// Set a bound variable by name (`$obj set var value`).
    pub fn set_var(&mut self, id: ObjId, var: &str, value: &str) -> Result<()> {
        self.sim.store_var(id, var, value).map_err(BuildError)
    }

    pub fn get_var(&mut self, id: ObjId, var: &str) -> Option<String> {
        self.sim.get_var(id, var)
    }

    fn set_all(&mut self, id: ObjId, vars: &[(String, String)]) -> Result<()> {
        for (k, v) in vars {
            self.set_var(id, k, v)?;
        }
        Ok(())
    }

    fn check_node(&self, n: NodeId, what: &str) -> Result<ObjId> {
        match self.nodes.get(n.0 as usize) {
            Some(&o) => Ok(o),
            None => err(format!("{what}: no node {}", n.0)),
        }
    }

    fn check_link(&self, l: LinkId) -> Result<()> {
        if (l.0 as usize) < self.links.len() {
            Ok(())
        } else {
            err(format!("no link {}", l.0))
        }
    }

    pub(super) fn before_start(&self, what: &str) -> Result<()> {
        if self.started {
            return err(format!("{what}: the simulation has started"));
        }
        Ok(())
    }

    // ---- nodes -------------------------------------------------------------------------

    /// `$ns node` (node.tcl's `Simulator node` and `Node init`).
    pub fn node(&mut self) -> Result<NodeId> {
        self.before_start("node")?;
        let id = self.new_obj("Node")?;
        let n = self.nodes.len() as u32;
        let s = n.to_string();
        self.cmd(id, &["nodeid", &s])?;
        self.cmd(id, &["addr", &s])?;
        self.nodes.push(id);
        self.node_agents.push(Vec::new());
        self.entries.push(id);
        if self.qs {
            // quickstart.tcl's `dumbbell-qs-register`: the classifier
            // becomes the node's entry and hands everything to the agent,
            // attached at the node's next port, which hands it to the node
            let cl = self.new_obj("Classifier/QS")?;
            let agent = self.new_obj("Agent/QSAgent")?;
            let an = self.name(agent);
            self.cmd(cl, &["install", "0", &an])?;
            self.entries[n as usize] = cl;
            self.attach(NodeId(n), AgentId(agent))?;
            let nn = self.name(id);
            self.cmd(agent, &["dumbbell-old-classifier", &nn])?;
        }
        Ok(NodeId(n))
    }

    /// Nodes made from now on get a Quick-Start router (ns-2's
    /// `$ns node-config -QS ON`), with `params` as Agent/QSAgent's class
    /// defaults (as a script sets them before its nodes: the period starts
    /// when a router is made).  Before the first router is made.
    pub fn quickstart(&mut self, params: &[(String, String)]) -> Result<()> {
        self.before_start("quickstart")?;
        if self.handles.contains_key("Agent/QSAgent") {
            return err("quickstart: Quick-Start routers already exist; their settings are fixed");
        }
        for (var, value) in params {
            self.defaults.set("Agent/QSAgent", var, value);
        }
        self.qs = true;
        Ok(())
    }

    /// `$defaultRNG seed n`.
    pub fn seed(&mut self, seed: u64) -> Result<()> {
        let s = seed.to_string();
        self.cmd(self.default_rng, &["seed", &s]).map(drop)
    }

    /// `$defaultRNG next-substream`: the default RNG jumps to the start of
    /// its next substream (2^76 draws on; tools/rng.cc
    /// `RNG::reset_next_substream`), how the ns-2 manual's RNG chapter
    /// makes independent replications of one seed.
    pub fn next_substream(&mut self) -> Result<()> {
        self.cmd(self.default_rng, &["next-substream"]).map(drop)
    }

    // ---- links -------------------------------------------------------------------------

    /// `$ns simplex-link a b bw delay queue` (link.tcl's `simplex-link` and
    /// `SimpleLink init`): head -> queue -> delay line -> TTL checker -> b,
    /// drops to the drop head and on to the null agent.
    pub fn simplex_link(&mut self, a: NodeId, b: NodeId, bw: Bandwidth, delay: Seconds, queue: &QueueSpec) -> Result<LinkId> {
        self.before_start("simplex_link")?;
        let na = self.check_node(a, "simplex_link")?;
        self.check_node(b, "simplex_link")?;
        if a == b {
            return err(format!("simplex_link: a and b are the same node ({})", a.0));
        }
        if self.link_index.contains_key(&(a.0, b.0)) {
            return err(format!("simplex_link: there is already a link {}->{}", a.0, b.0));
        }
        if !(bw.0 > 0.0) || !bw.0.is_finite() {
            return err(format!("simplex_link: bandwidth must be a positive number of bits/s, got {}", bw.0));
        }
        if !(delay.0 >= 0.0) || !delay.0.is_finite() {
            return err(format!("simplex_link: delay must be a non-negative number of seconds, got {}", delay.0));
        }
        let q = self.new_obj(queue.kind())?;
        let vars = queue.vars();
        self.set_all(q, &vars)?;
        let drophead = self.new_obj("Connector")?;
        self.target(drophead, self.null)?;
        let head = self.new_obj("Connector")?;
        self.target(head, q)?;
        let link = self.new_obj("DelayLink")?;
        if let Obj::Link(l) = &mut self.sim.objs[link as usize] {
            l.set_bandwidth(bw.0);
            l.delay = delay.0;
        }
        self.target(q, link)?;
        let entry = self.entries[b.0 as usize];
        self.target(link, entry)?;
        self.drop_target(q, drophead)?;
        let ttl = self.new_obj("TTLChecker")?;
        self.target(ttl, entry)?;
        self.drop_target(ttl, drophead)?;
        self.target(link, ttl)?;
        let _ = na;
        // active queues learn the link (ns-lib.tcl's simplex-link)
        let redpd = matches!(queue, QueueSpec::Class("Queue/RED/PD"));
        if queue.is_red() || redpd || matches!(queue, QueueSpec::Scfq(_) | QueueSpec::Class("Queue/Vq" | "Queue/GK" | "Queue/RED/RIO" | "Queue/REM" | "Queue/dsRED/edge" | "Queue/dsRED/core" | "Queue/CBQ" | "Queue/CBQ/WRR")) {
            let ln = self.name(link);
            self.cmd(q, &["link", &ln])?;
        }
        if let QueueSpec::Scfq(s) = queue {
            self.scfq_classes(q, s)?;
        }
        self.sim.routing_mut().add_link(a.0 as i32, b.0 as i32, head);
        let lid = LinkId(self.links.len() as u32);
        self.links.push(LinkObjs {
            src: a.0,
            dst: b.0,
            head,
            queue: q,
            link,
            ttl,
            drophead,
            red: queue.is_red() || redpd,
            redpd,
            head_errmodel: NONE,
            link_errmodel: NONE,
            traced: false,
        });
        self.link_index.insert((a.0, b.0), lid.0);
        if let Some(ch) = self.trace_all.clone() {
            self.trace_queue(lid, &ch)?;
        }
        Ok(lid)
    }

    /// An SCFQ queue's classes, as a script sets them up: `add-class`,
    /// `new Queue/...` with its variables and `class-queue` per class, then
    /// `classify` and `default-class`.
    fn scfq_classes(&mut self, q: ObjId, s: &Scfq) -> Result<()> {
        for c in &s.classes {
            let kind: &'static str = match c.queue.as_str() {
                "Queue/DropTail" => "Queue/DropTail",
                "Queue/RED" => "Queue/RED",
                other => return err(format!("SCFQ class {}: a class queue is Queue/DropTail or Queue/RED, not {other}", c.id)),
            };
            let (id, w) = (c.id.to_string(), num(c.weight));
            self.cmd(q, &["add-class", &id, &w])?;
            let child = self.new_obj(kind)?;
            self.set_all(child, &c.params)?;
            let cn = self.name(child);
            self.cmd(q, &["class-queue", &id, &cn])?;
        }
        for &(fid, id) in &s.classify {
            self.cmd(q, &["classify", &fid.to_string(), &id.to_string()])?;
        }
        if let Some(d) = s.default_class {
            self.cmd(q, &["default-class", &d.to_string()])?;
        }
        Ok(())
    }

    /// `new Queue/DropTail` with `vars` set: a queue another discipline
    /// takes over (a CBQ class's, by `cbq-class`).  Returns it and its name.
    pub fn droptail_queue(&mut self, vars: &[(String, String)]) -> Result<(ObjId, String)> {
        let q = self.new_obj("Queue/DropTail")?;
        self.set_all(q, vars)?;
        Ok((q, self.name(q)))
    }

    /// `new Queue/KIND` (KIND one of ns2/cbq.rs `LEAF_KINDS`) with `vars`
    /// set, for a CBQ class (`cbq-class` takes it over); a RED, RIO, REM, Vq
    /// or GK one then told the rate of link `link` (`$q link [$l link]`),
    /// RED and RIO also reset, which their automatic settings need and
    /// ns-2's CBQ link never does for a class's queue.  Returns it and its
    /// name.
    pub fn class_queue(&mut self, kind: &str, vars: &[(String, String)], link: LinkId) -> Result<(ObjId, String)> {
        // (the list's own &'static str: objects keep their class name)
        let Some(&kind) = crate::ns2::cbq::LEAF_KINDS.iter().find(|&&k| k == kind) else {
            return err(format!("a CBQ class queues with {}, not {kind}", crate::ns2::cbq::leaf_kinds()));
        };
        self.check_link(link)?;
        let q = self.new_obj(kind)?;
        self.set_all(q, vars)?;
        // the link's rate, which a queue of these kinds reads from it (RED
        // and RIO at their reset), as a link's own queue of the kind gets
        // it: the API's to_tcl() does the same (ns-2's CBQ link does not)
        if matches!(kind, "Queue/RED" | "Queue/RED/RIO" | "Queue/REM" | "Queue/Vq" | "Queue/GK") {
            let dl = self.name(self.links[link.0 as usize].link).to_string();
            self.cmd(q, &["link", &dl])?;
        }
        if matches!(kind, "Queue/RED" | "Queue/RED/RIO") {
            self.cmd(q, &["reset"])?;
        }
        Ok((q, self.name(q)))
    }

    /// A command of an engine object (`$obj cmd args`), e.g. an SCFQ
    /// queue's `class-stats`.
    pub fn command(&mut self, id: ObjId, argv: &[&str]) -> Result<String> {
        self.cmd(id, argv)
    }

    /// `$ns duplex-link a b bw delay queue`: a->b, then b->a.
    pub fn duplex_link(&mut self, a: NodeId, b: NodeId, bw: Bandwidth, delay: Seconds, queue: &QueueSpec) -> Result<(LinkId, LinkId)> {
        if self.link_index.contains_key(&(b.0, a.0)) {
            return err(format!("duplex_link: there is already a link {}->{}", b.0, a.0));
        }
        let f = self.simplex_link(a, b, bw, delay, queue)?;
        let r = self.simplex_link(b, a, bw, delay, queue)?;
        Ok((f, r))
    }

    /// `$ns queue-limit a b n`.
    pub fn queue_limit(&mut self, l: LinkId, limit: u32) -> Result<()> {
        self.check_link(l)?;
        let q = self.links[l.0 as usize].queue;
        self.set_var(q, "limit_", &limit.to_string())
    }

    /// `[[$ns link a b] queue] set var value`.
    pub fn set_queue_var(&mut self, l: LinkId, var: &str, value: &str) -> Result<()> {
        self.check_link(l)?;
        let q = self.links[l.0 as usize].queue;
        self.set_var(q, var, value)
    }

    /// `$ns cost a b c`.
    pub fn cost(&mut self, l: LinkId, cost: f64) -> Result<()> {
        self.check_link(l)?;
        let (s, d) = (self.links[l.0 as usize].src, self.links[l.0 as usize].dst);
        self.sim.routing_mut().set_cost(s as i32, d as i32, cost);
        Ok(())
    }

    // ---- traces ---------------------------------------------------------------------------

    /// `$ns trace-all $chan`: links made from now on are traced.
    pub fn trace_all(&mut self, channel: &str) {
        self.trace_all = Some(channel.to_string());
    }

    /// `$ns create-trace type chan src dst` (trace.tcl).
    fn create_trace(&mut self, kind: &'static str, channel: &str, src: u32, dst: u32) -> Result<ObjId> {
        let t = self.new_obj(kind)?;
        self.set_var(t, "src_", &src.to_string())?;
        self.set_var(t, "dst_", &dst.to_string())?;
        self.cmd(t, &["attach", channel])?;
        Ok(t)
    }

    /// `$ns trace-queue a b $chan` (trace.tcl; SimpleLink's `trace`, then
    /// the queue's `attach-traces`, RED's giving its early drops a trace).
    pub fn trace_queue(&mut self, l: LinkId, channel: &str) -> Result<()> {
        self.check_link(l)?;
        let lk = self.links[l.0 as usize].clone();
        let (s, d) = (lk.src, lk.dst);
        let enq = self.create_trace("Trace/Enque", channel, s, d)?;
        let deq = self.create_trace("Trace/Deque", channel, s, d)?;
        let drp = self.create_trace("Trace/Drop", channel, s, d)?;
        let rcv = self.create_trace("Trace/Recv", channel, s, d)?;
        let nxt = self.target_of(lk.drophead)?;
        self.target(lk.drophead, drp)?;
        self.target(drp, nxt)?;
        self.drop_target(lk.queue, lk.drophead)?;
        let qt = self.target_of(lk.queue)?;
        self.target(deq, qt)?;
        self.target(lk.queue, deq)?;
        self.add_to_head(lk.head, enq)?;
        let tt = self.target_of(lk.ttl)?;
        self.target(rcv, tt)?;
        self.target(lk.ttl, rcv)?;
        if lk.red {
            // Queue/RED's attach-traces
            let ty = self.cmd(lk.queue, &["trace-type"])?;
            self.chain_trace(lk.queue, &ty, "edrop-trace", channel, s, d)?;
            if lk.redpd {
                // Queue/RED/PD's: its monitored drops too
                let ty = self.cmd(lk.queue, &["mon-trace-type"])?;
                self.chain_trace(lk.queue, &ty, "mon-edrop-trace", channel, s, d)?;
            }
        } else {
            let (a, b) = (self.name(self.nodes[s as usize]), self.name(self.nodes[d as usize]));
            self.cmd(lk.queue, &["attach-traces", &a, &b, channel])?;
        }
        self.links[l.0 as usize].traced = true;
        Ok(())
    }

    /// A trace of type `ty` put in front of queue `q`'s trace `which`
    /// (`edrop-trace`, `mon-edrop-trace`): the old one, or the null agent,
    /// its target (ns-queue.tcl's `attach-traces` of RED and RED-PD).
    fn chain_trace(&mut self, q: ObjId, ty: &str, which: &str, channel: &str, s: u32, d: u32) -> Result<()> {
        let kind: &'static str = match ty {
            "Drop" => "Trace/Drop",
            "Enque" => "Trace/Enque",
            "Deque" => "Trace/Deque",
            "Recv" => "Trace/Recv",
            "Hop" => "Trace/Hop",
            other => return err(format!("{which}: trace type {other:?}")),
        };
        let nt = self.create_trace(kind, channel, s, d)?;
        let old = self.cmd(q, &[which])?;
        let old = if old == "0" { NONE } else { self.sim.lookup(&old).unwrap_or(NONE) };
        let tgt = if old != NONE { old } else { self.null };
        self.target(nt, tgt)?;
        let ntn = self.name(nt);
        self.cmd(q, &[which, &ntn]).map(drop)
    }

    /// A RED-PD queue's flow monitor (ns-queue.tcl's `Queue/RED/PD
    /// makeflowmon link cltype`): a `QueueMonitor/ED/Flowmon` whose hash
    /// classifier (`Classifier/Hash/<cltype>`: "SrcDestFid", "Fid",
    /// "SrcDest" or "Dest") makes a `QueueMonitor/ED/Flow/RedPD` for each
    /// new flow; the queue polices those flows, and the monitor sees the
    /// link's arrivals, departures and drops, RED's early drops through an
    /// early-drop snoop.  Returns the monitor.
    pub fn redpd_flowmon(&mut self, l: LinkId, cltype: &str) -> Result<ObjId> {
        self.check_link(l)?;
        let lk = self.links[l.0 as usize].clone();
        if !lk.redpd {
            return err(format!("redpd_flowmon: link {}->{} has no RED-PD queue", lk.src, lk.dst));
        }
        let class: &'static str = match cltype {
            "SrcDestFid" => "Classifier/Hash/SrcDestFid",
            "Fid" => "Classifier/Hash/Fid",
            "SrcDest" => "Classifier/Hash/SrcDest",
            "Dest" => "Classifier/Hash/Dest",
            other => return err(format!("redpd_flowmon: classifier type {other:?} is not SrcDestFid, Fid, SrcDest or Dest")),
        };
        let fm = self.new_obj("QueueMonitor/ED/Flowmon")?;
        let cl = self.new_obj(class)?;
        // Classifier/Hash's init: the address fields of a flat address
        self.set_var(cl, "shift_", "0")?;
        self.set_var(cl, "mask_", "1073741823")?;
        self.cmd(cl, &["auto-flows", "policed"])?;
        let (fmn, cln) = (self.name(fm), self.name(cl));
        self.cmd(fm, &["classifier", &cln])?;
        self.cmd(lk.queue, &["attach-flowmon", &fmn])?;
        let sin = self.new_obj("SnoopQueue/In")?;
        let sout = self.new_obj("SnoopQueue/Out")?;
        let sdrop = self.new_obj("SnoopQueue/Drop")?;
        let sedrop = self.new_obj("SnoopQueue/EDrop")?;
        self.attach_monitors(&lk, sin, sout, sdrop, fm)?;
        self.cmd(sedrop, &["set-monitor", &fmn])?;
        let en = self.name(sedrop);
        self.cmd(lk.queue, &["early-drop-target", &en])?;
        self.target(sedrop, self.null)?;
        self.drop_target(lk.queue, sdrop)?;
        Ok(fm)
    }

    /// SimpleLink's `attach-monitors`: snoops in (at the head), out (after
    /// the queue) and on drops (after the drop head), all counting for
    /// `qmon`.
    fn attach_monitors(&mut self, lk: &LinkObjs, sin: ObjId, sout: ObjId, sdrop: ObjId, qmon: ObjId) -> Result<()> {
        self.add_to_head(lk.head, sin)?;
        let qt = self.target_of(lk.queue)?;
        self.target(sout, qt)?;
        self.target(lk.queue, sout)?;
        let nxt = self.target_of(lk.drophead)?;
        self.target(lk.drophead, sdrop)?;
        self.target(sdrop, nxt)?;
        let qn = self.name(qmon);
        for s in [sin, sout, sdrop] {
            self.cmd(s, &["set-monitor", &qn])?;
        }
        Ok(())
    }

    /// Link's `add-to-head`.
    fn add_to_head(&mut self, head: ObjId, c: ObjId) -> Result<()> {
        let t = self.target_of(head)?;
        self.target(c, t)?;
        self.target(head, c)
    }

    /// `$ns monitor-queue a b 0` (SimpleLink's `init-monitor` and
    /// `attach-monitors`): snoops in, out and on drops, and the monitor's
    /// byte and packet integrators.
    pub fn monitor_queue(&mut self, l: LinkId) -> Result<MonitorId> {
        self.monitor_queue_with(l, true)
    }

    /// `monitor_queue` without the integrators: the counters only (what
    /// ns-3's `QueueDisc::Stats` keeps), which the snoops update on their
    /// fast path; `MonitorStats`' integrals stay zero.
    pub fn monitor_queue_counts(&mut self, l: LinkId) -> Result<MonitorId> {
        self.monitor_queue_with(l, false)
    }

    fn monitor_queue_with(&mut self, l: LinkId, integrators: bool) -> Result<MonitorId> {
        self.check_link(l)?;
        let lk = self.links[l.0 as usize].clone();
        let qmon = self.new_obj("QueueMonitor")?;
        let sin = self.new_obj("SnoopQueue/In")?;
        let sout = self.new_obj("SnoopQueue/Out")?;
        let sdrop = self.new_obj("SnoopQueue/Drop")?;
        self.attach_monitors(&lk, sin, sout, sdrop, qmon)?;
        let (mut bi, mut pi) = (NONE, NONE);
        if integrators {
            bi = self.new_obj("Integrator")?;
            let bin = self.name(bi);
            self.cmd(qmon, &["set-bytes-integrator", &bin])?;
            pi = self.new_obj("Integrator")?;
            let pin = self.name(pi);
            self.cmd(qmon, &["set-pkts-integrator", &pin])?;
        }
        let m = MonitorId(self.monitors.len() as u32);
        self.monitors.push(MonitorObjs { link: l, qmon, bytes_int: bi, pkts_int: pi });
        Ok(m)
    }

    /// A queue monitor's counters and integrators now.
    pub fn monitor_stats(&mut self, m: MonitorId) -> MonitorStats {
        let mo = self.monitors[m.0 as usize];
        let mut gi = |id: ObjId, v: &str| self.sim.get_var(id, v).map(|s| crate::ns2::tclcl::parse_real(&s)).unwrap_or(0.0);
        let mut st = MonitorStats {
            parrivals: gi(mo.qmon, "parrivals_") as i64,
            pdepartures: gi(mo.qmon, "pdepartures_") as i64,
            pdrops: gi(mo.qmon, "pdrops_") as i64,
            barrivals: gi(mo.qmon, "barrivals_") as i64,
            bdepartures: gi(mo.qmon, "bdepartures_") as i64,
            bdrops: gi(mo.qmon, "bdrops_") as i64,
            pkts: gi(mo.qmon, "pkts_") as i64,
            size: gi(mo.qmon, "size_") as i64,
            ..Default::default()
        };
        if mo.pkts_int != NONE {
            st.pkts_integral = (gi(mo.pkts_int, "lastx_"), gi(mo.pkts_int, "lasty_"), gi(mo.pkts_int, "sum_"));
            st.bytes_integral = (gi(mo.bytes_int, "lastx_"), gi(mo.bytes_int, "lasty_"), gi(mo.bytes_int, "sum_"));
        }
        st
    }

    /// `$agent attach $chan; $agent tracevar var` (a sender's variable
    /// trace).
    pub fn trace_var(&mut self, agent: AgentId, var: &str, channel: &str) -> Result<()> {
        self.trace_vars(agent, &[var], channel)
    }

    /// `$agent attach $chan` then `$agent tracevar v` for each variable.
    pub fn trace_vars<S: AsRef<str>>(&mut self, agent: AgentId, vars: &[S], channel: &str) -> Result<()> {
        self.cmd(agent.0, &["attach", channel])?;
        for v in vars {
            self.cmd(agent.0, &["tracevar", v.as_ref()])?;
        }
        Ok(())
    }

    // ---- error models -------------------------------------------------------------------

    /// An error model on a link direction: `new ErrorModel` (or
    /// ErrorModel/Periodic, ErrorModel/List), its unit, pattern and marking,
    /// then `$ns lossmodel` (before the queue: SimpleLink's `errormodule`)
    /// or `$ns link-lossmodel` (after the link: `insert-linkloss`).
    pub fn error_model(&mut self, l: LinkId, spec: &ErrorModelSpec) -> Result<ErrorModelId> {
        self.before_start("error_model")?;
        self.check_link(l)?;
        let class = match &spec.pattern {
            ErrorPattern::Uniform { .. } => "ErrorModel",
            ErrorPattern::Periodic { .. } => "ErrorModel/Periodic",
            ErrorPattern::List(_) => "ErrorModel/List",
        };
        let lk = self.links[l.0 as usize].clone();
        match spec.place {
            ErrorPlace::BeforeQueue if lk.head_errmodel != NONE => return err(format!("error_model: link {}->{} has an error model before its queue already", lk.src, lk.dst)),
            ErrorPlace::AfterLink if lk.link_errmodel != NONE => return err(format!("error_model: link {}->{} has an error model after it already", lk.src, lk.dst)),
            _ => {}
        }
        let em = self.new_obj(class)?;
        let unit = match spec.unit {
            ErrorUnit::Packet => "pkt",
            ErrorUnit::Byte => "byte",
        };
        self.cmd(em, &["unit", unit])?;
        match &spec.pattern {
            ErrorPattern::Uniform { rate } => self.set_var(em, "rate_", &num(*rate))?,
            ErrorPattern::Periodic { period, offset, burstlen } => {
                self.set_var(em, "period_", &num(*period))?;
                self.set_var(em, "offset_", &num(*offset))?;
                self.set_var(em, "burstlen_", &num(*burstlen))?;
            }
            ErrorPattern::List(v) => {
                let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                let s = s.join(" ");
                self.cmd(em, &["droplist", &s])?;
            }
        }
        if spec.mark_ecn {
            self.set_var(em, "markecn_", "true")?;
        }
        self.set_all(em, &spec.params)?;
        match spec.place {
            ErrorPlace::BeforeQueue => {
                self.add_to_head(lk.head, em)?;
                self.drop_target(em, lk.drophead)?;
                self.links[l.0 as usize].head_errmodel = em;
            }
            ErrorPlace::AfterLink => {
                let t = self.target_of(lk.link)?;
                self.target(em, t)?;
                self.target(lk.link, em)?;
                self.drop_target(em, lk.drophead)?;
                self.links[l.0 as usize].link_errmodel = em;
            }
        }
        if let Obj::ErrModel(e) = &self.sim.objs[em as usize] {
            debug_assert!(matches!((&e.pattern, &spec.pattern), (Pattern::Uniform, ErrorPattern::Uniform { .. }) | (Pattern::Periodic(_), ErrorPattern::Periodic { .. }) | (Pattern::List(_), ErrorPattern::List(_))));
        }
        Ok(ErrorModelId(em))
    }

    // ---- agents and applications -------------------------------------------------------

    /// `new Agent/...` with bound variables set after the class defaults
    /// (`$agent set var value`, in order).  Not attached yet.
    pub fn agent(&mut self, kind: AgentKind, params: &[(String, String)]) -> Result<AgentId> {
        self.before_start("agent")?;
        let id = self.new_obj(kind.class())?;
        if let AgentKind::FullTcp(v) = kind {
            for (k, val) in v.init_vars() {
                self.set_var(id, k, val)?;
            }
        }
        self.set_all(id, params)?;
        Ok(AgentId(id))
    }

    /// `$ns attach-agent node agent` (node.tcl's `Node attach`): the agent's
    /// address, the node's next free port, the port demuxer's slot, the
    /// agent's target.
    pub fn attach(&mut self, node: NodeId, agent: AgentId) -> Result<()> {
        self.before_start("attach")?;
        let nid = self.check_node(node, "attach")?;
        let a = agent.0;
        self.set_var(a, "agent_addr_", &node.0.to_string())?;
        // `alloc-port`: the first free port.  The builder never detaches
        // agents, so ports are taken in order and the next is the count.
        let null = self.null;
        let port = match &mut self.sim.objs[nid as usize] {
            Obj::Node(n) => {
                n.null_agent = null;
                self.node_agents[node.0 as usize].len()
            }
            _ => return err("attach: not a node"),
        };
        let ps = port.to_string();
        self.set_var(a, "agent_port_", &ps)?;
        let an = self.name(a);
        self.cmd(nid, &["install", &ps, &an])?;
        let entry = self.entries[node.0 as usize];
        self.target(a, entry)?;
        self.node_agents[node.0 as usize].push(a);
        Ok(())
    }

    /// `$ns connect src dst`: each agent's destination is the other.
    pub fn connect(&mut self, src: AgentId, dst: AgentId) -> Result<()> {
        for (x, y) in [(src.0, dst.0), (dst.0, src.0)] {
            let addr = self.sim.get_var(y, "agent_addr_").unwrap_or_default();
            let port = self.sim.get_var(y, "agent_port_").unwrap_or_default();
            self.set_var(x, "dst_addr_", &addr)?;
            self.set_var(x, "dst_port_", &port)?;
        }
        Ok(())
    }

    /// A full, two-way TCP connection (`socket/`, not an ns-2 class): a
    /// bulk-send end at `src` and a packet-sink end at `dst`, each attached
    /// at its node's next free port and connected to the other.  Schedule
    /// `Action::Connect(sender)` to start it.  `record` keeps both ends'
    /// traces of cwnd, ssthresh, RTT, bytes in flight and state.
    pub fn full_tcp(&mut self, src: NodeId, dst: NodeId, cfg: crate::socket::Config, cc: &str, fid: i32, record: bool) -> Result<(AgentId, AgentId)> {
        use crate::agent::{Agent, AgentBase, AgentKind as Kind};
        use crate::socket::{cc::Cc, Recorder, Socket, DELACK_TIMER, PACING_TIMER, RETX_TIMER, SEND_TIMER};
        self.before_start("full_tcp")?;
        cfg.check().map_err(|e| BuildError(format!("full_tcp: {e}")))?;
        let cc0 = Cc::with_params(cc, &cfg.cc_params).map_err(|e| BuildError(format!("full_tcp: {e}")))?;
        if src == dst {
            return err("full_tcp: src and dst are the same node");
        }
        let mut ids = [0; 2];
        for (k, node) in [src, dst].into_iter().enumerate() {
            let nid = self.check_node(node, "full_tcp")?;
            let id = self.sim.objs.len() as ObjId;
            let s = &mut self.sim.w.s;
            let timers = [s.new_timer(id, RETX_TIMER), s.new_timer(id, DELACK_TIMER), s.new_timer(id, SEND_TIMER), s.new_timer(id, PACING_TIMER)];
            let mut sock = Socket::new(cfg.clone(), cc0.clone(), timers);
            if record {
                sock.rec = Some(Box::default());
                let _: &Option<Box<Recorder>> = &sock.rec;
            }
            if k == 1 {
                sock.listen();
            }
            let mut base = AgentBase::new(id, crate::packet::PacketType::Tcp);
            let port = self.node_agents[node.0 as usize].len() as i32;
            base.addr = node.0 as i32;
            base.port = port;
            base.fid = fid;
            base.target = nid;
            let name = self.fresh_name();
            let got = self.sim.add(&name, Obj::Agent(Box::new(Agent { base, kind: Kind::Socket(Box::new(sock)) })));
            debug_assert_eq!(got, id);
            let null = self.null;
            if let Obj::Node(n) = &mut self.sim.objs[nid as usize] {
                n.null_agent = null;
                n.install(port, id);
            }
            self.node_agents[node.0 as usize].push(id);
            ids[k] = id;
        }
        let (a, b) = (ids[0], ids[1]);
        for (x, y) in [(a, b), (b, a)] {
            let (addr, port) = match &self.sim.objs[y as usize] {
                Obj::Agent(g) => (g.base.addr, g.base.port),
                _ => unreachable!(),
            };
            if let Obj::Agent(g) = &mut self.sim.objs[x as usize] {
                g.base.dst_addr = addr;
                g.base.dst_port = port;
            }
        }
        Ok((AgentId(a), AgentId(b)))
    }

    /// `new Application/...` (FTP's engine class is Application) with its
    /// settings, then `$app attach-agent $agent`.
    pub fn app(&mut self, spec: &AppSpec, agent: AgentId, params: &[(String, String)]) -> Result<AppId> {
        self.before_start("app")?;
        let class = spec.class();
        let id = self.new_obj(class)?;
        let vars = spec.vars();
        self.set_all(id, &vars)?;
        self.set_all(id, params)?;
        let an = self.name(agent.0);
        self.cmd(id, &["attach-agent", &an])?;
        self.apps.insert(id, if matches!(spec, AppSpec::Ftp) { AppKind::Ftp } else { AppKind::Other });
        Ok(AppId(id))
    }

    /// `$ns at t "..."`: schedule an action (at or after the current time).
    pub fn at(&mut self, t: Seconds, action: Action) -> Result<u64> {
        let now = self.sim.world().now();
        let delay = t.0 - now;
        if !(delay >= 0.0) {
            return err(format!("at: can't schedule an action in the past ({} < {now})", t.0));
        }
        let uid = self.sim.schedule_tcl(delay);
        self.actions.insert(uid, action);
        Ok(uid)
    }

    /// `$ns at t "..."` of commands on objects (`TimedCmd`), run in order
    /// when the event comes.
    pub fn at_script(&mut self, t: Seconds, steps: Vec<TimedCmd>) -> Result<u64> {
        for st in &steps {
            let (TimedCmd::Set { obj, .. } | TimedCmd::Command { obj, .. } | TimedCmd::EachFlow { obj, .. }) = st;
            if *obj as usize >= self.sim.objs.len() {
                return err(format!("at_script: no object {obj}"));
            }
        }
        let k = self.scripts.len() as u32;
        self.scripts.push(steps);
        self.at(t, Action::Script(k))
    }

    fn perform_script(&mut self, k: u32) -> Result<()> {
        let steps = std::mem::take(&mut self.scripts[k as usize]);
        for st in &steps {
            match st {
                TimedCmd::Set { obj, var, value } => self.set_var(*obj, var, value)?,
                TimedCmd::Command { obj, argv } => {
                    let a: Vec<&str> = argv.iter().map(String::as_str).collect();
                    self.cmd(*obj, &a)?;
                }
                TimedCmd::EachFlow { monitor, obj, fid, argv } => {
                    let flows = self.cmd(*monitor, &["flows"])?;
                    for f in flows.split_whitespace() {
                        let id = self.sim.lookup(f).ok_or_else(|| BuildError(format!("no flow {f}")))?;
                        let v = self.get_var(id, "flowid_").unwrap_or_default();
                        if crate::ns2::tclcl::parse_int(&v) != *fid {
                            continue;
                        }
                        let mut a: Vec<&str> = vec![argv[0].as_str(), f];
                        a.extend(argv[1..].iter().map(String::as_str));
                        self.cmd(*obj, &a)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn perform(&mut self, action: Action) -> Result<()> {
        match action {
            Action::Halt => self.sim.halt(),
            Action::Script(k) => self.perform_script(k)?,
            Action::Setdest(k) => self.perform_setdest(k)?,
            Action::StartAgent(a) => {
                self.cmd(a.0, &["start"])?;
            }
            Action::StopAgent(a) => {
                self.cmd(a.0, &["stop"])?;
            }
            Action::Connect(a) | Action::Close(a) => {
                let mut o = self.sim.take(a.0);
                if let Obj::Agent(ag) = &mut o {
                    if let crate::agent::AgentKind::Socket(s) = &mut ag.kind {
                        if matches!(action, Action::Connect(_)) {
                            s.connect(&ag.base, &mut self.sim);
                        } else {
                            s.close(&ag.base, &mut self.sim);
                        }
                    }
                }
                self.sim.put(a.0, o);
            }
            Action::Start(app) | Action::Stop(app) => {
                let start = matches!(action, Action::Start(_));
                let kind = *self.apps.get(&app.0).ok_or_else(|| BuildError(format!("no application {}", app.0)))?;
                let agent = match &self.sim.objs[app.0 as usize] {
                    Obj::App(a) => a.agent,
                    _ => NONE,
                };
                match (kind, start) {
                    // agent.tcl's Application/FTP start / stop
                    (AppKind::Ftp, true) => {
                        self.cmd(agent, &["send", "-1"])?;
                    }
                    (AppKind::Ftp, false) => {
                        self.cmd(agent, &["advance", "0"])?;
                        self.cmd(agent, &["close"])?;
                    }
                    // Application's start (no script callbacks); C++ stop
                    (AppKind::Other, true) => {
                        self.cmd(app.0, &["start-flags", "0", "0"])?;
                    }
                    (AppKind::Other, false) => {
                        self.cmd(app.0, &["stop"])?;
                    }
                }
            }
        }
        Ok(())
    }

    // ---- running ---------------------------------------------------------------------

    /// `$ns run`'s set-up (simulator.tcl's `Simulator run`): routes (static,
    /// computed lazily), the monitors' check, then every node's agents
    /// reset in the order of the Simulator's `Node_` array, every queue in
    /// the order of its `link_` array, and the clock set to zero.
    pub fn start(&mut self) -> Result<()> {
        if self.started {
            return Ok(());
        }
        if self.route_logic == NONE {
            self.route_logic = self.new_obj("RouteLogic")?;
        }
        self.sim.routing_mut().enabled = true;
        self.sim.check_monitors().map_err(|e| BuildError(crate::ns2::class::monitor::histogram_error(e)))?;
        self.sim.set_started();
        crate::ns2::class::tcp::warn_newecn_compat(&mut self.sim);
        self.started = true;
        // (mobile nodes are not in the Simulator's `Node_` array:
        // wireless.tcl's create-wireless-node)
        let wired: Vec<usize> = (0..self.nodes.len()).filter(|&i| !self.is_mobile(i)).collect();
        let keys: Vec<String> = wired.iter().map(|i| i.to_string()).collect();
        for j in tcl_array_order(&keys) {
            let i = wired[j];
            for k in 0..self.node_agents[i].len() {
                let a = self.node_agents[i][k];
                if self.sim.socket(a).is_some() {
                    continue; // a full-TCP end: no ns-2 class, nothing to reset
                }
                self.cmd(a, &["reset"])?;
            }
        }
        let keys: Vec<String> = self.links.iter().map(|l| format!("{}:{}", l.src, l.dst)).collect();
        for i in tcl_array_order(&keys) {
            let q = self.links[i].queue;
            self.cmd(q, &["reset"])?;
        }
        self.wireless_nam_config()?;
        self.sim.reset_clock();
        self.check_tcl_calls()?;
        Ok(())
    }

    /// What the engine noticed: an agent's `done`, a loss monitor's loss,
    /// an application's call-back (empty procedures in the ns-2 library)
    /// are nothing to the builder; an abort (ns-2 exits there) or an
    /// unroutable packet is an error.
    fn check_tcl_calls(&mut self) -> Result<()> {
        use crate::notice::Notice;
        for n in self.sim.take_notices() {
            match n {
                Notice::Abort(why) => return err(why.to_string()),
                Notice::NoSlot { node, local: true, port, .. } => {
                    return err(format!("no agent at port {port} of node {node} (a packet no classifier can place; ns-2 stops here)"))
                }
                Notice::NoSlot { node, dest, .. } => {
                    return err(format!("no route from node {node} to node {dest} (a packet no classifier can place; ns-2 stops here)"))
                }
                // no call-backs here: a hash classifier's miss drops the packet
                Notice::UnknownFlow { .. } | Notice::ClassifierNoSlot { .. } => self.sim.drop_held(),
                Notice::NewFlow { flow, .. } => self.adopt_flow(flow)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// A flow a flow monitor's classifier made for a new flow, given its
    /// class and counted again (what the ns-2 library's `unknown-flow`
    /// does: trace.tcl's `::dumbbell::adopt_flow`): a RED-PD monitor's
    /// flows are `QueueMonitor/ED/Flow/RedPD`, without delay samples;
    /// another's a `QueueMonitor/ED/Flow` with its `Samples`.
    fn adopt_flow(&mut self, flow: ObjId) -> Result<()> {
        let policed = matches!(&self.sim.objs[flow as usize], Obj::QueueMonitor(f) if f.policy.is_some());
        let class: &'static str = if policed { "QueueMonitor/ED/Flow/RedPD" } else { "QueueMonitor/ED/Flow" };
        let h = self.class_handle(class, class);
        let (placeholder, name) = (self.name(flow), self.fresh_name());
        let id = self.sim.adopt_flow(&placeholder, &name, h).map_err(|e| BuildError(format!("{class}: {e}")))?;
        if !policed {
            let smp = self.new_obj("Samples")?;
            let sn = self.name(smp);
            self.cmd(id, &["set-delay-samples", &sn])?;
        }
        self.cmd(id, &["settle"]).map(drop)
    }

    /// Run until output is waiting, `$ns halt` or the end of events
    /// (`start` first if needed).
    pub fn run(&mut self) -> Result<Step> {
        self.start()?;
        loop {
            let y = self.sim.run();
            self.check_tcl_calls()?;
            match y {
                Yield::Tcl(uid) => {
                    if let Some(a) = self.actions.remove(&uid) {
                        self.perform(a)?;
                        self.check_tcl_calls()?;
                    }
                }
                Yield::Service => {
                    if self.sim.world().out.pending > 0 {
                        return Ok(Step::Output);
                    }
                }
                Yield::Halted => return Ok(Step::Halted),
                Yield::Done => return Ok(Step::Done),
                Yield::Interrupted => return Ok(Step::Interrupted),
            }
        }
    }

    /// Schedule `$ns halt` at `t` and run to it, discarding output the
    /// caller has not asked to keep (drain it with `sim_mut().out_mut()`
    /// between `run` calls to keep it).
    pub fn run_until(&mut self, t: Seconds) -> Result<()> {
        self.at(t, Action::Halt)?;
        loop {
            match self.run()? {
                Step::Output => {
                    self.sim.out_mut().drain();
                }
                Step::Interrupted => {}
                Step::Halted | Step::Done => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULTS: &str = include_str!("../../../../python/dumbbell/ns2/lib/defaults.tcl");

    /// The library's defaults as it evaluates them: the registry's, then
    /// defaults.tcl.
    fn defaults() -> ClassDefaults {
        ClassDefaults::parse(&(crate::ns2::registry::defaults_tcl() + DEFAULTS)).unwrap()
    }

    fn builder() -> Builder {
        Builder::new(defaults()).unwrap()
    }

    #[test]
    fn tcl_order_small_tables() {
        // checked against tclsh 8.6: array set a {0 . 1 . ... 12 .}
        let keys: Vec<String> = (0..3).map(|i| i.to_string()).collect();
        assert_eq!(tcl_array_order(&keys), vec![0, 1, 2]);
        let keys: Vec<String> = (0..13).map(|i| i.to_string()).collect();
        let o = tcl_array_order(&keys);
        let names: Vec<&str> = o.iter().map(|&i| keys[i].as_str()).collect();
        assert_eq!(names, ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    }

    #[test]
    fn defaults_parse() {
        let d = defaults();
        assert_eq!(d.get("Agent/TCP", "window_"), Some("20"));
        assert_eq!(d.get("Queue/RED", "thresh_queue_"), Some("50"));
        let tcp = d.for_class("Agent/TCP/Reno", "Agent/TCP/Reno");
        assert!(tcp.iter().any(|(k, v)| k == "window_" && v == "20"));
        assert!(tcp.iter().any(|(k, v)| k == "ttl_" && v == "32"));
        let sink = d.for_class("Agent/TCPSink/Sack1/DelAck", "Agent/TCPSink/Sack1/DelAck");
        assert!(sink.iter().any(|(k, v)| k == "interval_" && v == "100ms"));
    }

    /// A small dumbbell runs, and the same scenario twice gives the same
    /// numbers.
    fn dumbbell(n: usize, flavor: TcpFlavor, until: f64) -> (Vec<String>, MonitorStats) {
        dumbbell_monitored(n, flavor, until, false)
    }

    /// `dumbbell` with its bottleneck monitor of counters only (`counts`).
    fn dumbbell_monitored(n: usize, flavor: TcpFlavor, until: f64, counts: bool) -> (Vec<String>, MonitorStats) {
        let mut b = builder();
        let r1 = b.node().unwrap();
        let r2 = b.node().unwrap();
        let mut flows = Vec::new();
        for _ in 0..n {
            let s = b.node().unwrap();
            let d = b.node().unwrap();
            b.duplex_link(s, r1, Bandwidth::mbps(100.0), Seconds::ms(1.0), &QueueSpec::default()).unwrap();
            b.duplex_link(r2, d, Bandwidth::mbps(100.0), Seconds::ms(1.0), &QueueSpec::default()).unwrap();
            flows.push((s, d));
        }
        let (bott, _) = b.duplex_link(r1, r2, Bandwidth::mbps(10.0), Seconds::ms(10.0), &QueueSpec::DropTail(DropTail { limit: Some(20), ..Default::default() })).unwrap();
        let mut tcps = Vec::new();
        for (s, d) in flows {
            let t = b.agent(AgentKind::Tcp(flavor), &[("window_".into(), "64".into())]).unwrap();
            b.attach(s, t).unwrap();
            let k = b.agent(AgentKind::Sink(SinkKind::AckEvery), &[]).unwrap();
            b.attach(d, k).unwrap();
            b.connect(t, k).unwrap();
            let f = b.app(&AppSpec::Ftp, t, &[]).unwrap();
            b.at(Seconds(0.0), Action::Start(f)).unwrap();
            tcps.push(t);
        }
        let m = if counts { b.monitor_queue_counts(bott).unwrap() } else { b.monitor_queue(bott).unwrap() };
        b.run_until(Seconds(until)).unwrap();
        let acks = tcps.iter().map(|t| b.get_var(t.0, "ack_").unwrap()).collect();
        (acks, b.monitor_stats(m))
    }

    /// `seed` then `next_substream` twice: the default RNG stands at the
    /// start of substream 2 of the raw seed's stream (all six words 5), as
    /// `$defaultRNG seed 5` and two `next-substream`s leave it in ns-2.
    #[test]
    fn seed_then_next_substream_is_substream_two() {
        let mut b = builder();
        b.seed(5).unwrap();
        let mut want = crate::rng::Rng::from_state([5; 6]).unwrap();
        assert_eq!(b.command(b.default_rng, &["all-seeds"]).unwrap(), "5 5 5 5 5 5");
        b.next_substream().unwrap();
        b.next_substream().unwrap();
        want.reset_next_substream();
        want.reset_next_substream();
        let w = want.all_seeds();
        assert_ne!(w, [5; 6]);
        assert_eq!(b.command(b.default_rng, &["all-seeds"]).unwrap(), format!("{} {} {} {} {} {}", w[0], w[1], w[2], w[3], w[4], w[5]));
    }

    #[test]
    fn dumbbell_runs_and_repeats() {
        for flavor in [TcpFlavor::Tahoe, TcpFlavor::Reno, TcpFlavor::NewReno, TcpFlavor::Sack1, TcpFlavor::Vegas, TcpFlavor::Rfc793edu] {
            let (a, m) = dumbbell(4, flavor, 2.0);
            assert!(m.pdepartures > 100, "{flavor:?}: {m:?}");
            assert!(a.iter().all(|x| x.parse::<i64>().unwrap() > 10), "{flavor:?}: {a:?}");
            assert_eq!(dumbbell(4, flavor, 2.0), (a, m));
        }
    }

    /// A monitor of counters only counts what the full one counts (the
    /// snoops' fast path against `monitor_update`) and has no integrals.
    #[test]
    fn counters_only_monitor_counts_alike() {
        let (a, full) = dumbbell_monitored(4, TcpFlavor::NewReno, 2.0, false);
        let (a2, counts) = dumbbell_monitored(4, TcpFlavor::NewReno, 2.0, true);
        assert_eq!(a, a2);
        assert!(full.pdrops > 0 && full.pkts_integral.2 > 0.0 && full.bytes_integral.2 > 0.0, "{full:?}");
        let no_integrals = MonitorStats { pkts_integral: (0.0, 0.0, 0.0), bytes_integral: (0.0, 0.0, 0.0), ..full.clone() };
        assert_eq!(counts, no_integrals);
    }

    /// A RED-PD link's flow monitor makes a RED-PD flow for each new flow
    /// (adopted with its class's defaults), and `at_script`'s `EachFlow`
    /// step monitors only the flows of its flow id, at its time; a
    /// `Set` step changes the queue's variable then.
    #[test]
    fn redpd_flows_are_made_and_monitored_at_their_time() {
        let mut b = builder();
        let (s, r, d) = (b.node().unwrap(), b.node().unwrap(), b.node().unwrap());
        b.duplex_link(s, r, Bandwidth::mbps(10.0), Seconds::ms(2.0), &QueueSpec::default()).unwrap();
        let (l, _) = b.duplex_link(r, d, Bandwidth::mbps(1.0), Seconds::ms(10.0), &QueueSpec::Class("Queue/RED/PD")).unwrap();
        let fm = b.redpd_flowmon(l, "SrcDestFid").unwrap();
        assert!(b.redpd_flowmon(LinkId(0), "SrcDestFid").unwrap_err().to_string().contains("has no RED-PD queue"));
        for fid in [1, 2] {
            let u = b.agent(AgentKind::Udp, &[("fid_".into(), fid.to_string())]).unwrap();
            b.attach(s, u).unwrap();
            let k = b.agent(AgentKind::LossMonitor, &[]).unwrap();
            b.attach(d, k).unwrap();
            b.connect(u, k).unwrap();
            let app = b.app(&AppSpec::Cbr { rate: Some(Bandwidth::kbps(600.0)), packet_size: None, random: None, maxpkts: None }, u, &[]).unwrap();
            b.at(Seconds(0.0), Action::Start(app)).unwrap();
        }
        let q = b.link_objs(l).queue;
        let monitor = TimedCmd::EachFlow { monitor: fm, obj: q, fid: 2, argv: vec!["monitor-flow".into(), "0.25".into()] };
        let limit = TimedCmd::Set { obj: q, var: "limit_".into(), value: "7".into() };
        b.at_script(Seconds(1.0), vec![monitor, limit]).unwrap();
        b.run_until(Seconds(0.9)).unwrap();
        assert_eq!(b.get_var(q, "noMonitored_").as_deref(), Some("0"));
        assert_eq!(b.get_var(q, "limit_").as_deref(), Some("50"));
        b.run_until(Seconds(2.0)).unwrap();
        assert_eq!(b.get_var(q, "noMonitored_").as_deref(), Some("1"));
        assert_eq!(b.get_var(q, "limit_").as_deref(), Some("7"));
        let flows = b.command(fm, &["flows"]).unwrap();
        let names: Vec<&str> = flows.split_whitespace().collect();
        assert_eq!(names.len(), 2, "{flows}");
        for f in names {
            let id = b.sim().lookup(f).unwrap();
            let fid = b.get_var(id, "flowid_").unwrap();
            // the class defaults of QueueMonitor/ED/Flow/RedPD, then its own counts
            assert_eq!(b.get_var(id, "monitored_").as_deref(), Some(if fid == "2" { "1" } else { "0" }), "flow {fid}");
            assert!(b.get_var(id, "parrivals_").unwrap().parse::<i64>().unwrap() > 100);
        }
    }

    #[test]
    fn codel_queue_takes_its_parameters() {
        let mut b = builder();
        let x = b.node().unwrap();
        let y = b.node().unwrap();
        let spec = QueueSpec::CoDel(CoDel { limit: Some(100), target: Seconds::ms(2.0), interval: Seconds::ms(50.0), min_bytes: Bytes(1000), use_ecn: true, ce_threshold: Some(Seconds::ms(1.0)), use_l4s: true, bytes: false });
        let (l, _) = b.duplex_link(x, y, Bandwidth::mbps(1.0), Seconds::ms(5.0), &spec).unwrap();
        let q = b.link_objs(l).queue;
        match &b.sim().objs[q as usize] {
            Obj::Queue(q) => {
                assert_eq!(q.cap.limit, 100);
                let c = q.disc.get::<crate::qdisc::CoDel>().expect("a CoDel queue");
                assert_eq!((c.target, c.interval, c.min_bytes, c.use_ecn, c.ce_threshold, c.use_l4s), (0.002, 0.05, 1000, true, Some(0.001), true));
            }
            _ => panic!("not a queue"),
        }
    }

    #[test]
    fn pie_queue_takes_its_parameters() {
        let mut b = builder();
        let x = b.node().unwrap();
        let y = b.node().unwrap();
        let spec = QueueSpec::Pie(Pie {
            limit: Some(100),
            bytes: true,
            mean_pkt_size: Bytes(1500),
            a: 0.25,
            b: 2.5,
            t_update: Seconds::ms(30.0),
            queue_delay_reference: Seconds::ms(20.0),
            max_burst_allowance: Seconds::ms(100.0),
            dequeue_threshold: Bytes(10000),
            use_dequeue_rate_estimator: true,
            use_cap_drop_adjustment: false,
            use_ecn: true,
            mark_ecn_threshold: 0.3,
            use_derandomization: true,
            active_threshold: Some(Seconds::ms(1.0)),
            ce_threshold: Some(Seconds::ms(2.0)),
            use_l4s: true,
        });
        let (l, _) = b.duplex_link(x, y, Bandwidth::mbps(1.0), Seconds::ms(5.0), &spec).unwrap();
        let q = b.link_objs(l).queue;
        match &b.sim().objs[q as usize] {
            Obj::Queue(q) => {
                assert_eq!((q.cap.limit, q.cap.in_bytes, q.cap.mean_pktsize), (100, true, 1500));
                let p = q.disc.get::<crate::qdisc::Pie>().expect("a PIE queue");
                assert_eq!((p.a, p.b, p.t_update, p.qdelay_ref, p.max_burst, p.dq_threshold), (0.25, 2.5, 30_000_000, 20_000_000, 100_000_000, 10000));
                assert_eq!(
                    (p.use_dq_rate_estimator, p.cap_drop_adjustment, p.use_ecn, p.mark_ecn_th, p.use_derandomization, p.active_threshold),
                    (true, false, true, 0.3, true, Some(1_000_000))
                );
                assert_eq!((p.ce_threshold, p.use_l4s), (Some(2_000_000), true));
            }
            _ => panic!("not a queue"),
        }
        let d = Pie::default();
        assert_eq!((d.t_update.0, d.queue_delay_reference.0, d.max_burst_allowance.0, d.active_threshold), (0.015, 0.015, 0.15, None));
    }

    #[test]
    fn fq_codel_queue_takes_its_parameters() {
        let mut b = builder();
        let x = b.node().unwrap();
        let y = b.node().unwrap();
        let spec = QueueSpec::FqCoDel(FqCoDel {
            limit: Some(300),
            target: Seconds::ms(2.0),
            interval: Seconds::ms(50.0),
            use_ecn: false,
            ce_threshold: Some(Seconds::ms(1.0)),
            use_l4s: true,
            flows: 64,
            quantum: Bytes(300),
            drop_batch_size: 16,
            perturbation: 7,
            set_associative_hash: true,
            set_ways: 16,
        });
        let (l, _) = b.duplex_link(x, y, Bandwidth::mbps(1.0), Seconds::ms(5.0), &spec).unwrap();
        let q = b.link_objs(l).queue;
        match &b.sim().objs[q as usize] {
            Obj::Queue(q) => {
                assert_eq!(q.cap.limit, 300);
                let f = q.disc.get::<crate::qdisc::FqCoDel>().expect("an FQ-CoDel queue");
                assert_eq!((f.aqm.target, f.aqm.interval, f.aqm.use_ecn, f.aqm.ce_threshold, f.aqm.use_l4s), (0.002, 0.05, false, Some(0.001), true));
                assert_eq!((f.flows, f.quantum, f.drop_batch_size, f.perturbation, f.set_associative_hash, f.set_ways), (64, 300, 16, 7, true, 16));
            }
            _ => panic!("not a queue"),
        }
        // 64 flows in sets of 24: not whole sets
        let z = b.node().unwrap();
        let bad = QueueSpec::FqCoDel(FqCoDel { flows: 64, set_ways: 24, set_associative_hash: true, ..FqCoDel::default() });
        assert!(b.duplex_link(x, z, Bandwidth::mbps(1.0), Seconds::ms(5.0), &bad).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut b = builder();
        let x = b.node().unwrap();
        assert!(b.simplex_link(x, x, Bandwidth(1e6), Seconds(0.0), &QueueSpec::default()).is_err());
        assert!(b.simplex_link(x, NodeId(7), Bandwidth(1e6), Seconds(0.0), &QueueSpec::default()).is_err());
        let y = b.node().unwrap();
        assert!(b.simplex_link(x, y, Bandwidth(0.0), Seconds(0.0), &QueueSpec::default()).is_err());
        b.simplex_link(x, y, Bandwidth(1e6), Seconds(0.0), &QueueSpec::default()).unwrap();
        assert!(b.simplex_link(x, y, Bandwidth(1e6), Seconds(0.0), &QueueSpec::default()).is_err());
        let t = b.agent(AgentKind::Tcp(TcpFlavor::Reno), &[]).unwrap();
        assert!(b.set_var(t.0, "no_such_var_", "1").is_err());
    }
}
