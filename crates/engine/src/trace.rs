//! What the engine's trace points see, handed to a front end's writer.
//!
//! The engine decides *when* something is traced (a packet passing a trace
//! point, a traced variable changing, a monitor counting); a [`Tracer`]
//! decides what text that becomes.  The ns-2 layer installs one that writes
//! ns-2's trace, nam and variable-trace formats; without one nothing is
//! written as text.  Packet events of a channel can instead be recorded as
//! typed columns (`Outputs::set_recorded`), which needs no tracer.
//!
//! A tracer is called through a `dyn` pointer, once per line written: a
//! simulation that traces nothing never calls it, and one that does spends
//! far more formatting the line than calling.

use crate::agent::AgentBase;
use crate::objs::{QueueMonitor, Trace};
use crate::sched::ObjId;
use crate::tcp::{Sender, Tv};
use crate::packet::Packet;
use crate::qdisc::Red;
use crate::sim::Outputs;
use std::any::Any;
use std::collections::HashMap;

/// A traced variable of a RED queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedVar {
    /// The average queue size.
    Average,
    /// The drop probability before the count correction.
    Prob1,
    /// The instantaneous queue size.
    CurrentQueue,
    /// The adaptive maximum drop probability.
    CurMaxP,
}

/// A traced variable of a PI queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PiVar {
    /// The queue an arrival saw, or the queue after a departure.
    CurrentQueue,
    /// The drop probability.
    Prob,
}

/// An event of a TCP sender that event traces record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpEvent {
    /// A timeout started slow start again.
    SlowStart,
    /// The retransmission timer expired.
    Timeout,
    /// Tahoe's fast retransmit.
    FastRetx,
    /// SACK's fast recovery.
    FastRecovery,
    /// Reno's fast retransmit.
    RenoFastRetx,
    /// NewReno's fast retransmit.
    NewRenoFastRetx,
    /// NewReno's partial-ACK recovery.
    NewRenoFastRecovery,
}

/// Writes trace records as text, into the channels of `Outputs`.
pub trait Tracer: Any {
    /// A packet passed trace point `t` at `now`.  `primary` is the trace
    /// point's channel unless that channel records columns (then `None`;
    /// the engine recorded the event); the trace point may also name a
    /// second channel for another format (`t.nam`).
    fn packet(&mut self, out: &mut Outputs, t: &Trace, primary: Option<u32>, now: f64, pkt: &Packet);

    /// A traced variable of a RED queue changed (or began to be traced).
    fn red_var(&mut self, out: &mut Outputs, ch: u32, now: f64, red: &Red, var: RedVar);

    /// A traced variable of a PI queue changed (or began to be traced) to `v`.
    fn pi_var(&mut self, out: &mut Outputs, ch: u32, now: f64, var: PiVar, v: f64);
    /// An integer traced variable of a queue (a virtual queue's `curq_`)
    /// changed, or began to be traced: its tag letter and value.
    fn queue_int_var(&mut self, _out: &mut Outputs, _ch: u32, _now: f64, _tag: u8, _v: i64) {}

    /// A packet or frame passed a trace point of a mobile node's stack
    /// (wireless/net.rs): its line on `trace`, its records on `nam`.
    fn wireless(&mut self, _out: &mut Outputs, _trace: Option<u32>, _nam: Option<u32>, _pt: &crate::wireless::net::Point, _what: &crate::wireless::net::Traced) {}

    /// What the radio stack prints on stdout, into `stdout`.
    fn radio_notice(&mut self, _stdout: &mut Vec<u8>, _n: &crate::wireless::net::RadioNotice) {}
    /// A line a DSR agent writes into the trace-all file `ch` of its own.
    fn dsr_note(&mut self, _out: &mut Outputs, _ch: u32, _now: f64, _node: i32, _n: &crate::wireless::dsr::Note) {}
    /// A double traced variable of a queue (REM's probability) changed, or
    /// began to be traced: its tag letter and value.
    fn queue_real_var(&mut self, _out: &mut Outputs, _ch: u32, _now: f64, _tag: u8, _v: f64) {}

    /// An XCP end system's variable `var` took value `v` (its trace
    /// channel is `ch`).
    fn xcp_var(&mut self, _out: &mut Outputs, _ch: u32, _now: f64, _var: XcpVar, _v: f64) {}

    /// An XCP router's trace line: `var` (of flow `fid` for the per-flow
    /// ones) had value `v` at `now`.
    fn xcp_queue_var(&mut self, _out: &mut Outputs, _ch: u32, _now: f64, _var: XcpQueueVar, _fid: i32, _v: f64) {}

    /// A queue monitor with a channel counted an event.
    fn queue_stats(&mut self, out: &mut Outputs, ch: u32, now: f64, mon: &QueueMonitor);

    /// Traced variable `var` of the TCP sender `s` (agent `a`, whose trace
    /// channel is `ch`) changed, or began to be traced; `started`: the
    /// run has begun.
    fn tcp_var(&mut self, out: &mut Outputs, ch: u32, now: f64, started: bool, a: &AgentBase, s: &Sender, var: Tv);

    /// The TCP sender `s` (agent `a`) had event `ev`, for the event trace
    /// `trace` it was given.
    fn tcp_event(&mut self, out: &mut Outputs, now: f64, trace: ObjId, a: &AgentBase, s: &Sender, ev: TcpEvent);

    /// The tracer itself, for its front end to reach its own state.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// What an XCP sender traces: the feedback an ACK brought and the router
/// that set it, the window it makes, and the throughput each data packet
/// claims (window over RTT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XcpVar {
    ReverseFeedback,
    ControllingHop,
    Cwnd,
    Throughput,
}

/// What an XCP router's trace file records (qdisc/xcp.rs): a leaving
/// packet's feedback (positive, negative, the result, and its flow's `x`),
/// the persistent queue at each queue-estimation timeout, the controllers'
/// state at each control interval (the budgets left before it, then the
/// input, average RTT, new budgets, queue length and its extremes, the
/// router), and the periodic samples (drops, queue, utilisation of all,
/// of the large-id and of the small-id flows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XcpQueueVar {
    PosFbk,
    NegFbk,
    DeltaThroughput,
    FlowX,
    Tq,
    QueueBytes,
    RouterIdAtTq,
    ResiduePosLeft,
    ResidueNegLeft,
    InputBytes,
    AvgRtt,
    ResiduePos,
    ResidueNeg,
    QueueLength,
    MinQueue,
    MaxQueue,
    RouterId,
    Drops,
    QueueSample,
    Util,
    UtilElephants,
    UtilMice,
}

/// The tracer of a simulation without a front end's formats: writes nothing.
#[derive(Debug, Default)]
pub struct NullTracer;

impl Tracer for NullTracer {
    fn packet(&mut self, _: &mut Outputs, _: &Trace, _: Option<u32>, _: f64, _: &Packet) {}
    fn red_var(&mut self, _: &mut Outputs, _: u32, _: f64, _: &Red, _: RedVar) {}
    fn pi_var(&mut self, _: &mut Outputs, _: u32, _: f64, _: PiVar, _: f64) {}
    fn queue_stats(&mut self, _: &mut Outputs, _: u32, _: f64, _: &QueueMonitor) {}
    fn tcp_var(&mut self, _: &mut Outputs, _: u32, _: f64, _: bool, _: &AgentBase, _: &Sender, _: Tv) {}
    fn tcp_event(&mut self, _: &mut Outputs, _: f64, _: ObjId, _: &AgentBase, _: &Sender, _: TcpEvent) {}
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Trace times as trace files give them: rounded to microseconds (ns-2's
/// `BaseTrace::round`), which the recorded columns follow so that they
/// equal a trace file read back.
#[inline]
pub fn round6(x: f64) -> f64 {
    (x * 1.0e6 + 0.5).floor() / 1.0e6
}

/// A packet's flags as trace files show them, one character each: ECN-echo
/// `C`, priority `P`, `-`, CWR `A`, CE `E`, fast start `F`, ECT `N`, or `-`.
#[inline]
pub fn flag_chars(p: &Packet) -> [u8; 7] {
    [
        if p.ecn { b'C' } else { b'-' },
        if p.pri { b'P' } else { b'-' },
        b'-',
        if p.cong_action { b'A' } else { b'-' },
        if p.ecn_to_echo { b'E' } else { b'-' },
        if p.fs { b'F' } else { b'-' },
        if p.ecn_capable { b'N' } else { b'-' },
    ]
}

impl Outputs {
    /// Record a packet event of trace point (`kind`, `src`, `dst`) as
    /// columns: the values a trace reader finds on the event's line.
    pub fn record(&mut self, kind: u8, now: f64, src: i32, dst: i32, _ch: u32, pk: &Packet) {
        let e = &mut self.events;
        e.event.push(kind);
        e.time.push(round6(now));
        e.from_node.push(src);
        e.to_node.push(dst);
        e.ptype.push(pk.ptype.name().as_bytes());
        e.size.push(pk.size);
        e.flags.push(&flag_chars(pk));
        e.fid.push(pk.fid);
        e.src_node.push(pk.saddr);
        e.src_port.push(pk.sport);
        e.dst_node.push(pk.daddr);
        e.dst_port.push(pk.dport);
        e.seqno.push(pk.trace_seqno() as i64);
        e.uid.push(pk.uid as i64);
    }
}

// ---- recorded columns ----------------------------------------------------------

/// Dictionary-encoded string column.
#[derive(Default, Debug)]
pub struct Categories {
    pub codes: Vec<u32>,
    pub names: Vec<String>,
    index: HashMap<Vec<u8>, u32>,
}

impl Categories {
    #[inline]
    pub fn push(&mut self, s: &[u8]) {
        // Traces repeat a handful of values: try the previous one first.
        if let Some(&last) = self.codes.last() {
            if self.names[last as usize].as_bytes() == s {
                self.codes.push(last);
                return;
            }
        }
        let code = match self.index.get(s) {
            Some(&c) => c,
            None => {
                let c = self.names.len() as u32;
                self.names.push(String::from_utf8_lossy(s).into_owned());
                self.index.insert(s.to_vec(), c);
                c
            }
        };
        self.codes.push(code);
    }
}

/// Packet event records.
#[derive(Default, Debug)]
pub struct Events {
    pub event: Vec<u8>,
    pub time: Vec<f64>,
    pub from_node: Vec<i32>,
    pub to_node: Vec<i32>,
    pub ptype: Categories,
    pub size: Vec<i32>,
    pub flags: Categories,
    pub fid: Vec<i32>,
    pub src_node: Vec<i32>,
    pub src_port: Vec<i32>,
    pub dst_node: Vec<i32>,
    pub dst_port: Vec<i32>,
    pub seqno: Vec<i64>,
    pub uid: Vec<i64>,
}

impl Categories {
    /// Append another column, remapping its codes into this dictionary.
    pub fn extend(&mut self, other: Categories) {
        let map: Vec<u32> = other
            .names
            .iter()
            .map(|n| match self.index.get(n.as_bytes()) {
                Some(&c) => c,
                None => {
                    let c = self.names.len() as u32;
                    self.names.push(n.clone());
                    self.index.insert(n.as_bytes().to_vec(), c);
                    c
                }
            })
            .collect();
        self.codes.extend(other.codes.into_iter().map(|c| map[c as usize]));
    }
}
