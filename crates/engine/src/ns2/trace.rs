//! ns-2's text formats of the engine's trace records: packet traces
//! (trace/trace.cc `Trace::format`, positional and tagged), nam's packet
//! events, RED's variable traces (queue/red.cc `REDQueue::trace`), the
//! queue monitor's nam `q` lines, TCP's variable traces (tcp/tcp.cc
//! `TcpAgent::traceVar`, `traceAll`, nam's `f` lines) and TCP's event-trace
//! lines (`TcpAgent::trace_event`).  The ns-2 layer's `Tracer`, which also
//! keeps what nam's agent and event traces need.

use crate::agent::AgentBase;
use crate::ns2::printf as fmt;
use crate::objs::{Histogram, QueueMonitor, Trace};
use crate::sched::ObjId;
use crate::tcp::{Sender, Tv};
use crate::trace::TcpEvent;
use crate::ns2::class::tcp::tv_name;
use std::collections::HashMap;
use crate::packet::Packet;
use crate::qdisc::Red;
use crate::sim::Outputs;
use crate::trace::{flag_chars, round6, PiVar, RedVar, Tracer};
use std::any::Any;

/// Writes ns-2's formats.
#[derive(Debug, Default)]
pub struct Ns2Tracer {
    /// Channels of event-trace objects (`BaseTrace/Event`), by object id.
    pub etrace: HashMap<ObjId, u32>,
    /// nam channels of event-trace objects (`namattach`), by object id.
    pub nam_etrace: HashMap<ObjId, u32>,
    /// Agents traced for nam (`add-agent-trace`), by agent id.
    pub nam_agents: HashMap<ObjId, NamAgent>,
    /// Hierarchical addresses (`domain.cluster.node`) by node id, as the
    /// traces print them; `None` with flat addresses.
    pub hier_names: Option<Vec<Vec<u8>>>,
}

/// An agent's nam trace: its name in nam (ns-2's `traceName_`) and the
/// last value written of each of its variables (nam's `-o`).
#[derive(Default, Debug)]
pub struct NamAgent {
    pub name: Option<String>,
    pub old: Vec<(Tv, String)>,
}

/// ns-2's name of a TCP event in event traces.
pub fn tcp_event_name(ev: TcpEvent) -> &'static str {
    match ev {
        TcpEvent::SlowStart => "SLOW_START",
        TcpEvent::Timeout => "TIMEOUT",
        TcpEvent::FastRetx => "FAST_RETX",
        TcpEvent::FastRecovery => "FAST_RECOVERY",
        TcpEvent::RenoFastRetx => "RENO_FAST_RETX",
        TcpEvent::NewRenoFastRetx => "NEWRENO_FAST_RETX",
        TcpEvent::NewRenoFastRecovery => "NEWRENO_FAST_RECOVERY",
    }
}

impl Tracer for Ns2Tracer {
    /// A mobile node's trace point (ns2/wjoin.rs).
    fn wireless(&mut self, out: &mut Outputs, trace: Option<u32>, nam: Option<u32>, pt: &crate::wireless::net::Point, what: &crate::wireless::net::Traced) {
        crate::ns2::wjoin::write_wireless(out, trace, nam, pt, what);
    }

    fn radio_notice(&mut self, stdout: &mut Vec<u8>, n: &crate::wireless::net::RadioNotice) {
        crate::ns2::wjoin::write_radio_notice(stdout, n);
    }

    fn dsr_note(&mut self, out: &mut Outputs, ch: u32, now: f64, node: i32, n: &crate::wireless::dsr::Note) {
        crate::ns2::wjoin::write_dsr_note(out, ch, now, node, n);
    }

    /// One packet event line (the wired format of `Trace::format`, with
    /// the `show_tcphdr_` extension when enabled, or its tagged format),
    /// then its nam form if the trace is attached to a nam file.
    #[inline]
    fn packet(&mut self, out: &mut Outputs, t: &Trace, primary: Option<u32>, now: f64, pk: &Packet) {
        if let Some(names) = &self.hier_names {
            return write_hier(out, t, primary, now, pk, names);
        }
        if let Some(ch) = primary {
            if t.tagged {
                write_tagged(out, t, now, pk, Some(ch));
                return;
            }
            out.append(ch, |buf| write_event_line(buf, t.kind, now, t.src, t.dst, pk, t.show_tcphdr));
        }
        if t.nam.is_some() {
            write_tagged(out, t, now, pk, None);
        }
    }

    /// `REDQueue::trace`: `Q <time> <curq>` or `<a|p|c> <time> <value>`,
    /// times and values with `%g`.
    fn red_var(&mut self, out: &mut Outputs, ch: u32, now: f64, red: &Red, var: RedVar) {
        let (tag, val) = match var {
            RedVar::CurrentQueue => (b'Q', None),
            RedVar::Average => (b'a', Some(red.v_ave)),
            RedVar::Prob1 => (b'p', Some(red.v_prob1)),
            RedVar::CurMaxP => (b'c', Some(red.cur_max_p)),
        };
        out.append(ch, |buf| {
            buf.push(tag);
            buf.push(b' ');
            fmt::push_g(buf, now, 6);
            buf.push(b' ');
            match val {
                None => fmt::push_int(buf, red.curq as i64, 0, false),
                Some(v) => fmt::push_g(buf, v, 6),
            }
            buf.push(b'\n');
        });
    }

    /// `PIQueue::trace`: `Q time curq` or `p time prob`.
    fn pi_var(&mut self, out: &mut Outputs, ch: u32, now: f64, var: PiVar, v: f64) {
        out.append(ch, |buf| {
            buf.push(if var == PiVar::CurrentQueue { b'Q' } else { b'p' });
            buf.push(b' ');
            fmt::push_g(buf, now, 6);
            buf.push(b' ');
            if var == PiVar::CurrentQueue {
                fmt::push_int(buf, v as i64, 0, false);
            } else {
                fmt::push_g(buf, v, 6);
            }
            buf.push(b'\n');
        });
    }

    /// `Vq::trace`: `Q <time> <curq>`, the time with `%g`.
    /// `XcpEndsys::trace_var`: `%g x x x x NAME %g`.
    fn xcp_var(&mut self, out: &mut Outputs, ch: u32, now: f64, var: crate::trace::XcpVar, v: f64) {
        use crate::trace::XcpVar;
        let name: &[u8] = match var {
            XcpVar::ReverseFeedback => b"reverse_feedback_",
            XcpVar::ControllingHop => b"controlling_hop_",
            XcpVar::Cwnd => b"cwnd",
            XcpVar::Throughput => b"throughput",
        };
        out.append(ch, |buf| {
            fmt::push_g(buf, now, 6);
            buf.extend_from_slice(b" x x x x ");
            buf.extend_from_slice(name);
            buf.push(b' ');
            fmt::push_g(buf, v, 6);
            buf.push(b'\n');
        });
    }

    /// `XCPQueue::trace_var`: `<name> <time> <value>`, both with `%g`;
    /// a flow's `x` is named `X<flow id>`.
    fn xcp_queue_var(&mut self, out: &mut Outputs, ch: u32, now: f64, var: crate::trace::XcpQueueVar, fid: i32, v: f64) {
        use crate::trace::XcpQueueVar as V;
        let name: &[u8] = match var {
            V::PosFbk => b"pos_fbk",
            V::NegFbk => b"neg_fbk",
            V::DeltaThroughput => b"delta_throughput",
            V::FlowX => b"X",
            V::Tq => b"Tq_",
            V::QueueBytes => b"queue_bytes_",
            V::RouterIdAtTq => b"routerId_",
            V::ResiduePosLeft => b"residue_pos_fbk_not_allocated",
            V::ResidueNegLeft => b"residue_neg_fbk_not_allocated",
            V::InputBytes => b"input_traffic_bytes_",
            V::AvgRtt => b"avg_rtt_",
            V::ResiduePos => b"residue_pos_fbk_",
            V::ResidueNeg => b"residue_neg_fbk_",
            V::QueueLength => b"Qsize",
            V::MinQueue => b"min_queue_ci_",
            V::MaxQueue => b"max_queue_ci_",
            V::RouterId => b"routerId",
            V::Drops => b"d",
            V::QueueSample => b"q",
            V::Util => b"u",
            V::UtilElephants => b"u_elep",
            V::UtilMice => b"u_mice",
        };
        out.append(ch, |buf| {
            buf.extend_from_slice(name);
            if var == V::FlowX {
                fmt::push_int(buf, fid as i64, 0, false);
            }
            buf.push(b' ');
            fmt::push_g(buf, now, 6);
            buf.push(b' ');
            fmt::push_g(buf, v, 6);
            buf.push(b'\n');
        });
    }

    fn queue_int_var(&mut self, out: &mut Outputs, ch: u32, now: f64, tag: u8, v: i64) {
        out.append(ch, |buf| {
            buf.push(tag);
            buf.push(b' ');
            fmt::push_g(buf, now, 6);
            buf.push(b' ');
            fmt::push_int(buf, v, 0, false);
            buf.push(b'\n');
        });
    }

    /// `REMQueue::trace` of a double: `<tag> <time> <value>`, both `%g`.
    fn queue_real_var(&mut self, out: &mut Outputs, ch: u32, now: f64, tag: u8, v: f64) {
        out.append(ch, |buf| {
            buf.push(tag);
            buf.push(b' ');
            fmt::push_g(buf, now, 6);
            buf.push(b' ');
            fmt::push_g(buf, v, 6);
            buf.push(b'\n');
        });
    }

    /// A queue monitor's nam line (`QueueMonitor::printStats`):
    /// `q -t time -s src -d dst -l bytes -p packets`.
    fn queue_stats(&mut self, out: &mut Outputs, ch: u32, now: f64, m: &QueueMonitor) {
        out.append(ch, |buf| {
            buf.extend_from_slice(b"q -t ");
            fmt::push_g(buf, now, 15);
            buf.extend_from_slice(b" -s ");
            fmt::push_int(buf, m.src_id as i64, 0, false);
            buf.extend_from_slice(b" -d ");
            fmt::push_int(buf, m.dst_id as i64, 0, false);
            buf.extend_from_slice(b" -l ");
            fmt::push_int(buf, m.size as i64, 0, false);
            buf.extend_from_slice(b" -p ");
            fmt::push_int(buf, m.pkts as i64, 0, false);
            buf.push(b'\n');
        });
    }

    /// One variable-trace line (`TcpAgent::traceVar`, or `traceAll` with
    /// `trace_all_oneline_`), or nam's form of it with `nam_tracevar_`.
    fn tcp_var(&mut self, out: &mut Outputs, ch: u32, now: f64, started: bool, b: &AgentBase, s: &Sender, tv: Tv) {
        if s.nam_tracevar {
            self.tcp_var_nam(out, ch, now, started, b, s, tv);
            return;
        }
        out.append(ch, |buf| {
            if s.trace_all_oneline {
                write_trace_all(buf, b, s, now);
                return;
            }
            fmt::push_f(buf, now, 5, 8, true);
            buf.push(b' ');
            fmt::push_int(buf, b.addr as i64, 2, true);
            buf.push(b' ');
            fmt::push_int(buf, b.port as i64, 2, true);
            buf.push(b' ');
            fmt::push_int(buf, b.dst_addr as i64, 2, true);
            buf.push(b' ');
            fmt::push_int(buf, b.dst_port as i64, 2, true);
            buf.push(b' ');
            buf.extend_from_slice(tv_name(tv).as_bytes());
            buf.push(b' ');
            match tv {
                Tv::Cwnd => fmt::push_f(buf, s.cwnd, 3, 6, true),
                Tv::Rtt => fmt::push_f(buf, s.t_rtt() as f64 * s.tcp_tick(), 3, 6, true),
                Tv::Srtt => fmt::push_f(buf, (s.t_srtt >> s.t_srtt_bits) as f64 * s.tcp_tick(), 3, 6, true),
                Tv::Rttvar => fmt::push_f(buf, s.t_rttvar as f64 * s.tcp_tick() / 4.0, 3, 6, true),
                _ => fmt::push_int(buf, s.traced_int(tv) as i64, 0, false),
            }
            buf.push(b'\n');
        });
    }

    /// An `E` line of the event trace (`TcpAgent::trace_event`): time,
    /// node, destination, event, flow, next sequence number and cwnd; and
    /// nam's form when the event trace is attached to a nam file too.
    fn tcp_event(&mut self, out: &mut Outputs, now: f64, et: ObjId, b: &AgentBase, s: &Sender, ev: TcpEvent) {
        let t = (now * 1e6 + 0.5).floor() / 1e6;
        let name = tcp_event_name(ev);
        if let Some(&ch) = self.etrace.get(&et) {
            let line = format!(" {} {} TCP {} {} {} {}\n", b.addr, b.dst_addr, name, b.fid, s.t_seqno, s.cwnd as i32);
            out.append(ch, |buf| {
                buf.extend_from_slice(b"E ");
                fmt::push_g(buf, t, 15);
                buf.extend_from_slice(line.as_bytes());
            });
        }
        if let Some(&ch) = self.nam_etrace.get(&et) {
            let line = format!(" -o TCP -e {} -s {}.{} -d {}.{}\n", name, b.addr, b.port, b.dst_addr, b.dst_port);
            out.append(ch, |buf| {
                buf.extend_from_slice(b"E -t ");
                fmt::push_g(buf, t, 15);
                buf.extend_from_slice(line.as_bytes());
            });
        }
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Ns2Tracer {
    /// A variable's change in nam's form (ns-2's `Agent::trace`, used
    /// with `nam_tracevar_`): `f -t time -s addr -d daddr -n var -a name
    /// -v value [-o previous value] -T v`, nothing before `$ns run`.  The
    /// value is the variable as ns-2 stores it (`%g` of cwnd_, the raw
    /// integer of the others: rtt_ in ticks, srtt_ scaled).
    #[allow(clippy::too_many_arguments)]
    fn tcp_var_nam(&mut self, out: &mut Outputs, ch: u32, now: f64, started: bool, b: &AgentBase, s: &Sender, tv: Tv) {
        if !started {
            return;
        }
        let mut value = Vec::new();
        match tv {
            Tv::Cwnd => fmt::push_g(&mut value, s.cwnd, 6),
            _ => fmt::push_int(&mut value, s.traced_int(tv) as i64, 0, false),
        }
        let value = String::from_utf8(value).expect("ascii");
        let agent = self.nam_agents.entry(b.id).or_default();
        let tname = agent.name.clone().unwrap_or_else(|| "(null)".to_string());
        let old = match agent.old.iter_mut().find(|(n, _)| *n == tv) {
            Some((_, v)) => Some(std::mem::replace(v, value.clone())),
            None => {
                agent.old.push((tv, value.clone()));
                None
            }
        };
        let mut rest = format!(" -s {} -d {} -n {} -a {} -v {}", b.addr, b.dst_addr, tv_name(tv), tname, value);
        if let Some(o) = old {
            rest.push_str(" -o ");
            rest.push_str(&o);
        }
        rest.push_str(" -T v\n");
        out.append(ch, |buf| {
            buf.extend_from_slice(b"f -t ");
            fmt::push_g(buf, now, 15);
            buf.extend_from_slice(rest.as_bytes());
        });
    }
}

/// `TcpAgent::traceAll`'s one line of every variable.
fn write_trace_all(buf: &mut Vec<u8>, b: &AgentBase, s: &Sender, now: f64) {
    buf.extend_from_slice(b"time: ");
    fmt::push_f(buf, now, 5, 8, true);
    buf.extend_from_slice(b" saddr: ");
    fmt::push_int(buf, b.addr as i64, 2, true);
    buf.extend_from_slice(b" sport: ");
    fmt::push_int(buf, b.port as i64, 2, true);
    buf.extend_from_slice(b" daddr: ");
    fmt::push_int(buf, b.dst_addr as i64, 2, true);
    buf.extend_from_slice(b" dport: ");
    fmt::push_int(buf, b.dst_port as i64, 2, true);
    buf.extend_from_slice(b" maxseq: ");
    fmt::push_int(buf, s.maxseq as i64, 4, true);
    buf.extend_from_slice(b" hiack: ");
    fmt::push_int(buf, s.highest_ack as i64, 4, true);
    buf.extend_from_slice(b" seqno: ");
    fmt::push_int(buf, s.t_seqno as i64, 4, true);
    buf.extend_from_slice(b" cwnd: ");
    fmt::push_f(buf, s.cwnd, 3, 6, true);
    buf.extend_from_slice(b" ssthresh: ");
    fmt::push_int(buf, s.ssthresh as i64, 3, true);
    buf.extend_from_slice(b" dupacks: ");
    fmt::push_int(buf, s.dupacks as i64, 2, true);
    buf.extend_from_slice(b" rtt: ");
    fmt::push_f(buf, s.t_rtt() as f64 * s.tcp_tick(), 3, 6, true);
    buf.extend_from_slice(b" srtt: ");
    fmt::push_f(buf, (s.t_srtt >> s.t_srtt_bits) as f64 * s.tcp_tick(), 3, 6, true);
    buf.extend_from_slice(b" rttvar: ");
    fmt::push_f(buf, s.t_rttvar as f64 * s.tcp_tick() / 4.0, 3, 6, true);
    buf.extend_from_slice(b" bkoff: ");
    fmt::push_int(buf, s.t_backoff as i64, 0, true);
    buf.push(b'\n');
}

/// The event in the tagged trace format on channel `tagged` (if given)
/// and in nam's form on the nam channel (if attached).  A dequeue trace
/// (ns-2's `DequeTrace::recv`) adds an `h` (hop) line with sequence
/// number -1 to both, in ns-2's order, which shows when both are the
/// same channel: the tagged `-`, the nam `-`, the nam `h`, the tagged
/// `h`.
#[inline(never)]
fn write_tagged(out: &mut Outputs, t: &Trace, now: f64, pk: &Packet, tagged: Option<u32>) {
    write_tagged_with(out, t, now, pk, tagged, push_flat_addr)
}

/// `packet` with hierarchical addresses (off the flat path).
#[cold]
#[inline(never)]
fn write_hier(out: &mut Outputs, t: &Trace, primary: Option<u32>, now: f64, pk: &Packet, names: &[Vec<u8>]) {
    let addr = |buf: &mut Vec<u8>, a: i32| push_hier_addr(names, buf, a);
    if let Some(ch) = primary {
        if t.tagged {
            write_tagged_with(out, t, now, pk, Some(ch), addr);
            return;
        }
        out.append(ch, |buf| write_event_line_with(buf, t.kind, now, t.src, t.dst, pk, t.show_tcphdr, addr));
    }
    if t.nam.is_some() {
        write_tagged_with(out, t, now, pk, None, addr);
    }
}

#[inline(always)]
fn write_tagged_with(out: &mut Outputs, t: &Trace, now: f64, pk: &Packet, tagged: Option<u32>, addr: impl Fn(&mut Vec<u8>, i32) + Copy) {
    let seqno = pk.trace_seqno();
    let hop = t.kind == b'-';
    let line = |buf: &mut Vec<u8>, nam: bool, kind: u8, seqno: i32| write_tagged_line_with(buf, nam, kind, now, t.src, t.dst, pk, seqno, addr);
    if let Some(ch) = tagged {
        out.append(ch, |buf| line(buf, false, t.kind, seqno));
    }
    if let Some(ch) = t.nam {
        out.append(ch, |buf| {
            line(buf, true, t.kind, seqno);
            if hop {
                line(buf, true, b'h', -1);
            }
        });
    }
    if let (Some(ch), true) = (tagged, hop) {
        out.append(ch, |buf| line(buf, false, b'h', -1));
    }
}

/// The tagged format of `Trace::format` (`$ns use-taggedtrace`):
/// `kind time -s src -d dst -p type -e size -c fid -i uid -a fid
/// -x {saddr.sport daddr.dport seqno flags null}`, and with `nam` nam's
/// packet event, the same with `-t` before the time.  The time is not
/// rounded to microseconds (ns-2 prints it with `%.15g`), and
/// `show_tcphdr_` does not apply.  The last field is an SRM message name,
/// "null" for every packet Dumbbell makes.
#[allow(clippy::too_many_arguments)]
pub fn write_tagged_line(buf: &mut Vec<u8>, nam: bool, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet, seqno: i32) {
    write_tagged_line_with(buf, nam, kind, now, src, dst, pk, seqno, push_flat_addr)
}

/// `write_tagged_line` with the addresses written by `addr`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn write_tagged_line_with(buf: &mut Vec<u8>, nam: bool, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet, seqno: i32,
                          addr: impl Fn(&mut Vec<u8>, i32)) {
    buf.push(kind);
    buf.extend_from_slice(if nam { b" -t " } else { b" " });
    fmt::push_g(buf, now, 15);
    buf.extend_from_slice(b" -s ");
    fmt::push_int(buf, src as i64, 0, false);
    buf.extend_from_slice(b" -d ");
    fmt::push_int(buf, dst as i64, 0, false);
    buf.extend_from_slice(b" -p ");
    buf.extend_from_slice(pk.ptype.name().as_bytes());
    buf.extend_from_slice(b" -e ");
    fmt::push_int(buf, pk.size as i64, 0, false);
    buf.extend_from_slice(b" -c ");
    fmt::push_int(buf, pk.fid as i64, 0, false);
    buf.extend_from_slice(b" -i ");
    fmt::push_int(buf, pk.uid as i64, 0, false);
    buf.extend_from_slice(b" -a ");
    fmt::push_int(buf, pk.fid as i64, 0, false);
    buf.extend_from_slice(b" -x {");
    addr(buf, pk.saddr);
    buf.push(b'.');
    fmt::push_int(buf, pk.sport as i64, 0, false);
    buf.push(b' ');
    addr(buf, pk.daddr);
    buf.push(b'.');
    fmt::push_int(buf, pk.dport as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, seqno as i64, 0, false);
    buf.push(b' ');
    buf.extend_from_slice(&flag_chars(pk));
    buf.extend_from_slice(b" null}\n");
}


/// Format `kind time src dst type size flags fid saddr.sport daddr.dport seq uid`.
#[inline]
pub fn write_event_line(buf: &mut Vec<u8>, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet, tcphdr: bool) {
    write_event_line_with(buf, kind, now, src, dst, pk, tcphdr, push_flat_addr)
}

/// A flat address: the node id.
#[inline(always)]
fn push_flat_addr(buf: &mut Vec<u8>, a: i32) {
    fmt::push_int(buf, a as i64, 0, false);
}

/// A hierarchical address as ns-2's `Address::print_nodeaddr` prints it
/// (`domain.cluster.node`): the node's name in `names`, by node id; an
/// address that is no node's (broadcast, -1) as a number.
fn push_hier_addr(names: &[Vec<u8>], buf: &mut Vec<u8>, a: i32) {
    match names.get(a as usize) {
        Some(n) if a >= 0 && !n.is_empty() => buf.extend_from_slice(n),
        _ => fmt::push_int(buf, a as i64, 0, false),
    }
}

/// `write_event_line` with the addresses written by `addr`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn write_event_line_with(buf: &mut Vec<u8>, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet, tcphdr: bool,
                         addr: impl Fn(&mut Vec<u8>, i32)) {
    buf.push(kind);
    buf.push(b' ');
    fmt::push_g(buf, round6(now), 15);
    buf.push(b' ');
    fmt::push_int(buf, src as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, dst as i64, 0, false);
    buf.push(b' ');
    buf.extend_from_slice(pk.ptype.name().as_bytes());
    buf.push(b' ');
    fmt::push_int(buf, pk.size as i64, 0, false);
    buf.push(b' ');
    buf.extend_from_slice(&flag_chars(pk));
    buf.push(b' ');
    fmt::push_int(buf, pk.fid as i64, 0, false);
    buf.push(b' ');
    addr(buf, pk.saddr);
    buf.push(b'.');
    fmt::push_int(buf, pk.sport as i64, 0, false);
    buf.push(b' ');
    addr(buf, pk.daddr);
    buf.push(b'.');
    fmt::push_int(buf, pk.dport as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, pk.trace_seqno() as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, pk.uid as i64, 0, false);
    if tcphdr {
        buf.push(b' ');
        fmt::push_int(buf, pk.ackno as i64, 0, false);
        buf.extend_from_slice(b" 0x");
        let hex = format!("{:x}", pk.tcp_flags);
        buf.extend_from_slice(hex.as_bytes());
        buf.push(b' ');
        fmt::push_int(buf, pk.hlen as i64, 0, false);
        buf.push(b' ');
        fmt::push_int(buf, pk.sa_len as i64, 0, false);
    }
    buf.push(b'\n');
}

// ---- a queue monitor's distributions (QueueMonitor::printRTTs, printSeqnos) ----

/// The rest of a distribution's printout after its heading: the time, a
/// line `LO to HI UNIT frac F num N time T` per non-empty bin (`range`
/// gives a bin's LO and HI), and, when the last bin is not empty, that it
/// may also hold larger values (`last`: what they are, the line's end).
fn print_bins(d: &Histogram, top: i32, now: f64, out: &mut Vec<u8>, range: impl Fn(i64) -> (i64, i64), unit: &[u8], last: (&[u8], &[u8])) {
    fmt::push_f(out, now, 2, 4, false);
    out.push(b'\n');
    for i in 0..top {
        let n = d.bin(i);
        if n > 0 {
            let (lo, hi) = range(i as i64);
            fmt::push_int(out, lo, 0, false);
            out.extend_from_slice(b" to ");
            fmt::push_int(out, hi, 0, false);
            out.extend_from_slice(unit);
            fmt::push_f(out, n as f64 / d.num as f64, 3, 5, false);
            out.extend_from_slice(b" num ");
            fmt::push_int(out, n as i64, 0, false);
            out.extend_from_slice(b" time ");
            fmt::push_f(out, now, 2, 4, false);
            out.push(b'\n');
        }
    }
    if d.bin(top - 1) > 0 {
        out.extend_from_slice(b"The last bin might also contain ");
        out.extend_from_slice(last.0);
        out.extend_from_slice(b" >= ");
        fmt::push_int(out, range(top as i64).0, 0, false);
        out.extend_from_slice(last.1);
    }
}

/// `printRTTs`: the RTT distribution, one line per non-empty bin.
pub fn print_rtts(q: &QueueMonitor, now: f64, out: &mut Vec<u8>) -> Result<(), String> {
    let (top, ms) = q.rtt.set.rtt_geometry().map_err(super::class::monitor::histogram_error)?;
    let ms = ms as i64;
    out.extend_from_slice(b"Distribution of RTTs, ");
    fmt::push_int(out, ms, 0, false);
    out.extend_from_slice(b" ms bins, time ");
    print_bins(&q.rtt, top, now, out, |i| (i * ms, (i + 1) * ms), b" ms: frac ", (b"RTTs", b" ms.\n"));
    Ok(())
}

/// `printSeqnos`: the sequence-number distribution.
pub fn print_seqnos(q: &QueueMonitor, now: f64, out: &mut Vec<u8>) -> Result<(), String> {
    let top = q.seqno.set.seqno_geometry().map_err(super::class::monitor::histogram_error)?;
    let per = q.seqno.set.per as i64;
    out.extend_from_slice(b"Distribution of Seqnos, ");
    fmt::push_int(out, per, 0, false);
    out.extend_from_slice(b" seqnos per bin, time ");
    print_bins(&q.seqno, top, now, out, |i| (i * per, (i + 1) * per - 1), b" seqnos: frac ", (b"Seqnos", b". \n"));
    Ok(())
}
