//! ns-2's text formats of the engine's trace records: packet traces
//! (trace/trace.cc `Trace::format`, positional and tagged), nam's packet
//! events, RED's variable traces (queue/red.cc `REDQueue::trace`) and the
//! queue monitor's nam `q` lines.  The ns-2 layer's `Tracer`.

use crate::fmt;
use crate::objs::{QueueMonitor, Trace};
use crate::packet::Packet;
use crate::qdisc::Red;
use crate::sim::Outputs;
use crate::trace::{flag_chars, round6, RedVar, Tracer};
use std::any::Any;

/// Writes ns-2's formats.
#[derive(Debug, Default)]
pub struct Ns2Tracer {}

impl Tracer for Ns2Tracer {
    /// One packet event line (the wired format of `Trace::format`, with
    /// the `show_tcphdr_` extension when enabled, or its tagged format),
    /// then its nam form if the trace is attached to a nam file.
    #[inline]
    fn packet(&mut self, out: &mut Outputs, t: &Trace, primary: Option<u32>, now: f64, pk: &Packet) {
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

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The event in the tagged trace format on channel `tagged` (if given)
/// and in nam's form on the nam channel (if attached).  A dequeue trace
/// (ns-2's `DequeTrace::recv`) adds an `h` (hop) line with sequence
/// number -1 to both, in ns-2's order, which shows when both are the
/// same channel: the tagged `-`, the nam `-`, the nam `h`, the tagged
/// `h`.
#[inline(never)]
fn write_tagged(out: &mut Outputs, t: &Trace, now: f64, pk: &Packet, tagged: Option<u32>) {
    let seqno = pk.trace_seqno();
    let hop = t.kind == b'-';
    let line = |buf: &mut Vec<u8>, nam: bool, kind: u8, seqno: i32| write_tagged_line(buf, nam, kind, now, t.src, t.dst, pk, seqno);
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
    fmt::push_int(buf, pk.saddr as i64, 0, false);
    buf.push(b'.');
    fmt::push_int(buf, pk.sport as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, pk.daddr as i64, 0, false);
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
    fmt::push_int(buf, pk.saddr as i64, 0, false);
    buf.push(b'.');
    fmt::push_int(buf, pk.sport as i64, 0, false);
    buf.push(b' ');
    fmt::push_int(buf, pk.daddr as i64, 0, false);
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
        fmt::push_int(buf, 0, 0, false);
    }
    buf.push(b'\n');
}

