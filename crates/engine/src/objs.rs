//! Network objects other than agents: connectors, TTL checkers, packet
//! traces, queues, delay links, nodes, queue monitors.
//!
//! Each mirrors the ns-2 2.35 C++ class of the same role; the doc comments
//! name the file whose behaviour is reproduced.

use crate::fmt;
use crate::packet::{Packet, PacketPool, PktId};
use crate::sched::ObjId;
use crate::sim::{Outputs, Sim, World, NONE};
use crate::ring::Ring;

/// A plain connector: passes packets to its target (common/connector.cc).
#[derive(Clone, Debug)]
pub struct Connector {
    pub target: ObjId,
    pub drop_target: ObjId,
}

impl Default for Connector {
    fn default() -> Self {
        Connector { target: NONE, drop_target: NONE }
    }
}

/// Decrements the IP TTL and drops packets that reach zero (common/ttl.cc).
#[derive(Clone, Debug)]
pub struct TtlChecker {
    pub target: ObjId,
    pub drop_target: ObjId,
    pub tick: i32,
}

impl Default for TtlChecker {
    fn default() -> Self {
        TtlChecker { target: NONE, drop_target: NONE, tick: 1 }
    }
}

/// A packet trace point (trace/trace.cc).  `kind` is the event letter:
/// `+` enqueue, `-` dequeue, `d` drop, `r` receive, `h` hop.
#[derive(Clone, Debug)]
pub struct Trace {
    pub kind: u8,
    pub src: i32,
    pub dst: i32,
    pub target: ObjId,
    pub drop_target: ObjId,
    pub channel: Option<u32>,
    pub show_tcphdr: bool,
    /// The nam channel (`namattach`): nam's `-t -s -d ...` form of each
    /// event is written there too.
    pub nam: Option<u32>,
}

/// ns-2's trace time rounding (`BaseTrace::round`, 6 decimals).
#[inline]
pub fn round6(x: f64) -> f64 {
    (x * 1.0e6 + 0.5).floor() / 1.0e6
}

/// The 7 ECN/priority flag characters of a trace line (trace.cc `format`).
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

impl Trace {
    pub fn new(kind: u8) -> Trace {
        Trace { kind, src: -1, dst: -1, target: NONE, drop_target: NONE, channel: None, show_tcphdr: false, nam: None }
    }

    /// Write one packet event line (the non-tagged wired format of
    /// `Trace::format`, with `show_tcphdr_` extension when enabled), then
    /// its nam form if the trace is attached to a nam file.
    #[inline]
    pub fn write(&self, w: &mut World, p: PktId) {
        if let Some(ch) = self.channel {
            let now = w.s.now;
            let pk = w.pool.get(p);
            if w.out.is_recorded(ch) {
                record_event(&mut w.out.events, self.kind, now, self.src, self.dst, pk);
            } else {
                let buf = w.out.buf(ch);
                let start = buf.len();
                write_event_line(buf, self.kind, now, self.src, self.dst, pk, self.show_tcphdr);
                let n = buf.len() - start;
                w.out.wrote(n);
            }
        }
        if let Some(ch) = self.nam {
            self.write_nam(w, p, ch);
        }
    }

    /// The nam line of the event; a dequeue trace (ns-2's `DequeTrace`)
    /// follows it with an `h` (hop) line whose sequence number is -1.
    #[inline(never)]
    fn write_nam(&self, w: &mut World, p: PktId, ch: u32) {
        let now = w.s.now;
        let pk = w.pool.get(p);
        let buf = w.out.buf(ch);
        let start = buf.len();
        write_nam_line(buf, self.kind, now, self.src, self.dst, pk, pk.trace_seqno() as i64);
        if self.kind == b'-' {
            write_nam_line(buf, b'h', now, self.src, self.dst, pk, -1);
        }
        let n = buf.len() - start;
        w.out.wrote(n);
    }
}

/// Format nam's packet event
/// `kind -t time -s src -d dst -p type -e size -c fid -i uid -a fid -x {saddr.sport daddr.dport seq flags null}`
/// (the time unrounded, as ns-2 prints it with `%.15g`).
pub fn write_nam_line(buf: &mut Vec<u8>, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet, seqno: i64) {
    buf.push(kind);
    buf.extend_from_slice(b" -t ");
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
    fmt::push_int(buf, seqno, 0, false);
    buf.push(b' ');
    buf.extend_from_slice(&flag_chars(pk));
    buf.extend_from_slice(b" null}\n");
}

/// Append one packet event to columns: the values of the trace line
/// `write_event_line` would write, as a trace reader would parse them (the
/// time rounded to microseconds as ns-2 prints it).
pub fn record_event(e: &mut crate::tracefile::Events, kind: u8, now: f64, src: i32, dst: i32, pk: &Packet) {
    e.event.push(kind);
    e.time.push(round6(now));
    e.from_node.push(src);
    e.to_node.push(dst);
    e.ptype.push(pk.ptype.name().as_bytes());
    e.size.push(pk.size as i32);
    e.flags.push(&flag_chars(pk));
    e.fid.push(pk.fid as i32);
    e.src_node.push(pk.saddr as i32);
    e.src_port.push(pk.sport as i32);
    e.dst_node.push(pk.daddr as i32);
    e.dst_port.push(pk.dport as i32);
    e.seqno.push(pk.trace_seqno() as i64);
    e.uid.push(pk.uid as i64);
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

/// Queue disciplines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueKind {
    DropTail,
    Red,
}

/// A queue in front of a link (queue/queue.cc, queue/drop-tail.cc).
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Queue {
    // first cache line: what every packet's enque/deque reads
    pub q: Ring<PktId>,
    pub bytes: i64,
    /// `limit_` in packets (or in units of `mean_pktsize_` bytes).
    pub limit: i32,
    pub target: ObjId,
    pub drop_target: ObjId,
    /// Resume slot (the link's "transmission finished" event).
    pub resume: u32,
    pub kind: QueueKind,
    /// True while the link is sending a packet from this queue.
    pub blocked: bool,
    pub unblock_on_resume: bool,
    pub drop_front: bool,
    pub summarystats: bool,
    pub queue_in_bytes: bool,
    pub debug: bool,
    /// A DropTail queue of packets, limit above one, without summary
    /// statistics: the kind `pass_through` may apply to (`refresh_plain`
    /// keeps it in step with the fields it depends on).
    plain: bool,
    // the rest
    pub mean_pktsize: i32,
    pub util_weight: f64,
    pub util_check_intv: f64,
    pub util_records: i32,
    // summary statistics (`summarystats_`)
    pub true_ave: f64,
    pub total_time: f64,
    /// RED's parameters and state (`Queue/RED`).
    pub red: Option<Box<crate::red::Red>>,
}

const _: () = assert!(std::mem::offset_of!(Queue, debug) < 64);

impl Queue {
    pub fn new(kind: QueueKind, resume: u32) -> Queue {
        let mut q = Queue {
            kind,
            q: Ring::new(),
            bytes: 0,
            limit: 50,
            drop_front: false,
            summarystats: false,
            queue_in_bytes: false,
            mean_pktsize: 500,
            blocked: false,
            unblock_on_resume: true,
            util_weight: 0.8,
            util_check_intv: 0.2,
            util_records: 5,
            debug: false,
            target: NONE,
            drop_target: NONE,
            resume,
            true_ave: 0.0,
            total_time: 0.0,
            red: if kind == QueueKind::Red { Some(Box::new(crate::red::Red::new())) } else { None },
            plain: false,
        };
        q.refresh_plain();
        q
    }

    /// Recompute `plain` (after `kind`, `limit`, `summarystats` or
    /// `queue_in_bytes` changed).
    pub(crate) fn refresh_plain(&mut self) {
        self.plain = self.kind == QueueKind::DropTail && !self.summarystats && !self.queue_in_bytes && self.limit > 1;
    }

    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Is the link still sending?  (A resume whose time has passed with an
    /// empty queue unblocked the queue at that time.)
    #[inline]
    fn is_blocked(&mut self, w: &mut World) -> bool {
        if self.blocked {
            if let Some(t) = w.s.resume_lapsed(self.resume) {
                // The link finished at `t` and found nothing to send.
                self.blocked = !self.unblock_on_resume;
                self.red_dequed(false, t);
            }
        }
        self.blocked
    }

    pub(crate) fn update_stats(&mut self, now: f64) {
        let queuesize = if self.queue_in_bytes { self.bytes as f64 } else { self.q.len() as f64 };
        let newtime = now - self.total_time;
        if newtime > 0.0 {
            let oldave = self.true_ave;
            let oldtime = self.total_time;
            self.true_ave = (oldtime * oldave + newtime * queuesize) / now;
            self.total_time = now;
        }
    }

    /// DropTail's `enque`: queue `p`, unless the queue would reach
    /// `limit_`; returns the packet to drop then (`p`, or with `drop_front_`
    /// the head, `p` taking its place at the tail).
    #[inline(always)]
    pub(crate) fn droptail_enque(&mut self, w: &World, p: PktId) -> Option<PktId> {
        if self.summarystats {
            self.update_stats(w.s.now);
        }
        let full = if !self.queue_in_bytes {
            (self.q.len() as i64 + 1) >= self.limit as i64
        } else {
            let qlim_bytes = (self.limit as u32).wrapping_mul(self.mean_pktsize as u32) as i64;
            (self.bytes + w.pool.get(p).size as i64) >= qlim_bytes
        };
        if !full {
            self.push(&w.pool, p);
            None
        } else if self.drop_front {
            self.push(&w.pool, p);
            Some(self.pop(&w.pool).expect("queue not empty"))
        } else {
            Some(p)
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, pool: &PacketPool, p: PktId) {
        self.bytes += pool.get(p).size as i64;
        self.q.push_back(p);
    }

    #[inline]
    fn pop(&mut self, pool: &PacketPool) -> Option<PktId> {
        let p = self.q.pop_front()?;
        self.bytes -= pool.get(p).size as i64;
        Some(p)
    }

    /// Remove the packet at position `i` (`PacketQueue::remove`).
    pub(crate) fn remove_at(&mut self, sim: &Sim, i: usize) -> PktId {
        let p = self.q.remove(i).expect("victim in queue");
        self.bytes -= sim.w.pool.get(p).size as i64;
        p
    }

    #[inline(always)]
    fn deque(&mut self, w: &World) -> Option<PktId> {
        if self.summarystats {
            self.update_stats(w.s.now);
        }
        let p = self.pop(&w.pool);
        if self.kind == QueueKind::Red {
            self.red_dequed(p.is_some(), w.s.now);
        }
        p
    }

    /// `Queue::recv`'s steps when they let the arriving packet straight
    /// through: a DropTail queue that is empty, below its limit even with
    /// the packet, without statistics to update, whose link is idle; enque
    /// then deque would hand back the packet itself.  Marks the link busy
    /// and returns true; false (nothing changed) in any other case.
    #[inline(always)]
    pub(crate) fn pass_through(&mut self, w: &mut World) -> bool {
        if !self.plain || !self.q.is_empty() {
            return false;
        }
        debug_assert!(self.kind == QueueKind::DropTail && !self.summarystats && !self.queue_in_bytes && self.limit > 1);
        if self.is_blocked(w) {
            return false;
        }
        self.blocked = true;
        true
    }

    /// The second step of `Queue::recv` (after `enque`): if the link is
    /// free, the next packet to hand to it (the link is busy from then on).
    #[inline(always)]
    pub(crate) fn send_next(&mut self, w: &mut World) -> Option<PktId> {
        if self.is_blocked(w) {
            return None;
        }
        let p = self.deque(w)?;
        self.blocked = true;
        Some(p)
    }

    /// `Queue::resume`: the link finished a packet; the next one to hand
    /// it, if any (else the queue unblocks, `unblock_on_resume_`).
    #[inline(always)]
    pub(crate) fn resume_next(&mut self, w: &World) -> Option<PktId> {
        let p = self.deque(w);
        if p.is_none() {
            self.blocked = !self.unblock_on_resume;
        }
        p
    }

    /// RED's `Queue::recv` first step: settle a finished transmission
    /// (RED's enque needs to know since when the queue has been idle),
    /// then enque.
    pub(crate) fn red_recv_enque(&mut self, sim: &mut Sim, p: PktId) {
        self.is_blocked(&mut sim.w);
        self.red_enque(sim, p);
    }

    /// The resume must really happen when a packet waits while the link is
    /// busy, or when summary statistics are on: ns-2's `deque()` updates
    /// them even when it finds the queue empty.
    #[inline]
    pub(crate) fn settle(&self, w: &mut World) {
        if self.needs_resume() {
            w.s.need_resume(self.resume);
        }
    }

    #[inline(always)]
    pub(crate) fn needs_resume(&self) -> bool {
        self.blocked && (!self.q.is_empty() || self.summarystats)
    }

    /// `Queue::reset`: drop everything queued.
    pub fn reset(&mut self, sim: &mut Sim) {
        self.total_time = 0.0;
        self.true_ave = 0.0;
        while let Some(p) = self.deque(&sim.w) {
            sim.drop_to(self.drop_target, p);
        }
    }

    /// DropTail `shrink-queue`: drop packets over the (possibly lowered) limit.
    pub fn shrink(&mut self, sim: &mut Sim) {
        let qlim_bytes = (self.limit as u32).wrapping_mul(self.mean_pktsize as u32) as i64;
        loop {
            let over = if !self.queue_in_bytes {
                self.q.len() as i64 > self.limit as i64
            } else {
                self.bytes > qlim_bytes
            };
            if !over {
                break;
            }
            let pp = if self.drop_front {
                self.pop(&sim.w.pool)
            } else {
                let p = self.q.pop_back();
                if let Some(p) = p {
                    self.bytes -= sim.w.pool.get(p).size as i64;
                }
                p
            };
            match pp {
                Some(pp) => sim.drop_to(self.drop_target, pp),
                None => break,
            }
        }
    }

    /// Blocked state as `$q set blocked_` reads it.
    pub fn blocked_now(&mut self, w: &mut World) -> bool {
        self.is_blocked(w)
    }
}

/// Transmission + propagation (link/delay.cc `LinkDelay`).
#[derive(Clone, Debug)]
pub struct DelayLink {
    pub bandwidth: f64,
    pub delay: f64,
    pub avoid_reordering: bool,
    pub latest_time: f64,
    pub target: ObjId,
    pub drop_target: ObjId,
    pub pipe: u32,
    pub debug: bool,
    /// Made dynamic (`isDynamic`, by `$link dynamic`): `reset` drops the
    /// packets in flight, and `avoidReordering_` no longer applies.
    pub dynamic: bool,
    /// The last (size, transmission time) computed: packets on a link come
    /// in few sizes, and a division is the costliest step of a hop.
    txt_cache: (i32, f64),
}

impl DelayLink {
    pub fn new(pipe: u32) -> DelayLink {
        DelayLink {
            bandwidth: 1.5e6,
            delay: 0.1,
            avoid_reordering: false,
            latest_time: 0.0,
            target: NONE,
            drop_target: NONE,
            pipe,
            debug: false,
            dynamic: false,
            txt_cache: (-1, 0.0),
        }
    }

    /// `LinkDelay::txtime`: `8. * size / bandwidth_` (the same division,
    /// remembered for the last size seen).
    #[inline]
    pub fn txtime(&mut self, size: i32) -> f64 {
        if self.txt_cache.0 != size {
            self.txt_cache = (size, 8.0 * size as f64 / self.bandwidth);
        }
        self.txt_cache.1
    }

    /// Change the bandwidth (forgets the cached transmission time).
    pub fn set_bandwidth(&mut self, bw: f64) {
        self.bandwidth = bw;
        self.txt_cache = (-1, 0.0);
    }
}

/// The gate a dynamic link puts at its head (link/dynalink.cc
/// `DynamicLink`): passes packets while the link is up, drops them (to its
/// drop target, else silently) while it is down.  Only links made dynamic
/// have one, so other links pay nothing for link dynamics.
#[derive(Clone, Debug)]
pub struct DynLink {
    pub target: ObjId,
    pub drop_target: ObjId,
    /// `status_`: nonzero while up.
    pub status: i32,
}

impl Default for DynLink {
    fn default() -> Self {
        DynLink { target: NONE, drop_target: NONE, status: 1 }
    }
}

/// A node: its address classifier and port demultiplexer (ns-2's Node with
/// its base routing module: `Classifier/Hash/Dest` + `Classifier/Port`).
#[derive(Clone, Debug)]
pub struct Node {
    pub id: i32,
    pub addr: i32,
    /// Agents by port.
    pub ports: Vec<ObjId>,
    pub null_agent: ObjId,
}

impl Node {
    pub fn new(id: i32) -> Node {
        Node { id, addr: id, ports: Vec::new(), null_agent: NONE }
    }

    #[inline]
    pub fn port_target(&self, port: i32) -> Option<ObjId> {
        if port < 0 {
            return None;
        }
        match self.ports.get(port as usize) {
            Some(&a) if a != NONE => Some(a),
            _ => None,
        }
    }

    /// `Classifier alloc-port`: the first free slot (or one holding the
    /// null agent, as after a detach).
    pub fn alloc_port(&mut self) -> i32 {
        for (i, &a) in self.ports.iter().enumerate() {
            if a == NONE || a == self.null_agent {
                return i as i32;
            }
        }
        self.ports.len() as i32
    }

    pub fn install(&mut self, port: i32, agent: ObjId) {
        let port = port as usize;
        if self.ports.len() <= port {
            self.ports.resize(port + 1, NONE);
        }
        self.ports[port] = agent;
    }
}

/// Which side of a queue a snoop watches (tools/queue-monitor.h SnoopQueue*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnoopKind {
    In,
    Out,
    Drop,
    /// `SnoopQueue/EDrop`: RED's early drops (with an early-drop target).
    EDrop,
}

#[derive(Clone, Debug)]
pub struct Snoop {
    pub kind: SnoopKind,
    pub target: ObjId,
    pub monitor: ObjId,
}

/// Time integral of a piecewise-constant value (tools/integrator.cc).
#[derive(Clone, Debug, Default)]
pub struct Integrator {
    pub lastx: f64,
    pub lasty: f64,
    pub sum: f64,
}

impl Integrator {
    #[inline]
    pub fn new_point(&mut self, x: f64, y: f64) {
        self.sum += (x - self.lastx) * self.lasty;
        self.lastx = x;
        self.lasty = y;
    }
}

/// Queue monitor counters (tools/queue-monitor.cc `QueueMonitor`).
#[derive(Clone, Debug, Default)]
pub struct QueueMonitor {
    pub size: i32,
    pub pkts: i32,
    pub parrivals: i32,
    pub barrivals: i32,
    pub pdepartures: i32,
    pub bdepartures: i32,
    pub pdrops: i32,
    pub pmarks: i32,
    pub bdrops: i32,
    pub qs_pkts: i32,
    pub qs_bytes: i32,
    pub qs_drops: i32,
    pub first_pkt: f64,
    pub last_pkt: f64,
    pub prev_time: f64,
    pub start_time: f64,
    pub estimate_rate: bool,
    pub k: f64,
    pub est_rate: f64,
    /// Integrator objects fed with the byte and packet counts.
    pub bytes_int_obj: ObjId,
    pub pkts_int_obj: ObjId,
    pub channel: Option<u32>,
    pub src_id: i32,
    pub dst_id: i32,
    // `QueueMonitor/ED`: early drops
    pub epdrops: i32,
    pub ebdrops: i32,
    pub mon_epdrops: i32,
    pub mon_ebdrops: i32,
    /// `Samples` object fed with each departing packet's delay.
    pub delay_samp: ObjId,
    /// `Some` for `QueueMonitor/ED/Flowmon`.
    pub flowmon: Option<Box<FlowMon>>,
    /// `Some` for `QueueMonitor/ED/Flow`: the flow's identity.
    pub flow: Option<FlowKey>,
}

/// What a flow monitor adds to a queue monitor (tools/flowmon.cc `FlowMon`):
/// the classifier that finds (or creates) each packet's flow, the channel
/// `dump` writes to, and which events reach the flows.
#[derive(Clone, Debug)]
pub struct FlowMon {
    pub classifier: ObjId,
    pub channel: Option<u32>,
    pub enable_in: bool,
    pub enable_out: bool,
    pub enable_drop: bool,
    pub enable_edrop: bool,
}

impl Default for FlowMon {
    fn default() -> Self {
        FlowMon { classifier: NONE, channel: None, enable_in: true, enable_out: true, enable_drop: true, enable_edrop: true }
    }
}

/// A flow's identity, set from each packet (`Flow::setfields`).
#[derive(Clone, Copy, Debug)]
pub struct FlowKey {
    pub src: i32,
    pub dst: i32,
    pub fid: i32,
    pub ptype: i32,
}

impl Default for FlowKey {
    fn default() -> Self {
        FlowKey { src: -1, dst: -1, fid: -1, ptype: -1 }
    }
}

/// `Samples`: count, sum and sum of squares of a series.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub cnt: i32,
    pub sum: f64,
    pub sqsum: f64,
}

impl Samples {
    pub fn new_point(&mut self, v: f64) {
        self.cnt += 1;
        self.sum += v;
        self.sqsum += v * v;
    }

    pub fn mean(&self) -> f64 {
        if self.cnt != 0 {
            self.sum / self.cnt as f64
        } else {
            self.sum
        }
    }

    pub fn variance(&self) -> f64 {
        if self.cnt > 1 {
            (self.sqsum - self.mean() * self.sum) / (self.cnt - 1) as f64
        } else {
            0.0
        }
    }
}

impl QueueMonitor {
    pub fn new() -> QueueMonitor {
        QueueMonitor { bytes_int_obj: NONE, pkts_int_obj: NONE, delay_samp: NONE, k: 0.1, ..Default::default() }
    }

    #[inline(always)]
    fn print_stats(&self, now: f64, out: &mut Outputs) {
        if let Some(ch) = self.channel {
            self.write_stats(ch, now, out);
        }
    }

    #[cold]
    #[inline(never)]
    fn write_stats(&self, ch: u32, now: f64, out: &mut Outputs) {
        let buf = out.buf(ch);
        let start = buf.len();
        buf.extend_from_slice(b"q -t ");
        fmt::push_g(buf, now, 15);
        buf.extend_from_slice(b" -s ");
        fmt::push_int(buf, self.src_id as i64, 0, false);
        buf.extend_from_slice(b" -d ");
        fmt::push_int(buf, self.dst_id as i64, 0, false);
        buf.extend_from_slice(b" -l ");
        fmt::push_int(buf, self.size as i64, 0, false);
        buf.extend_from_slice(b" -p ");
        fmt::push_int(buf, self.pkts as i64, 0, false);
        buf.push(b'\n');
        let n = buf.len() - start;
        out.wrote(n);
    }

    /// Does this monitor only count (no integrators, delay samples or
    /// flows)?  Its snoops then update it inline (`Sim::snoop`); a new kind
    /// of monitor state must be added here.
    #[inline(always)]
    pub fn counts_only(&self) -> bool {
        self.bytes_int_obj == NONE && self.pkts_int_obj == NONE && self.delay_samp == NONE && self.flowmon.is_none()
    }

    /// Count packet `p` as a snoop of `kind` saw it.
    #[inline(always)]
    pub fn count(&mut self, kind: SnoopKind, now: f64, p: &Packet, out: &mut Outputs) {
        match kind {
            SnoopKind::In => self.arrive(now, p, out),
            SnoopKind::Out => self.depart(now, p, out),
            SnoopKind::Drop => self.dropped(now, p, out),
            SnoopKind::EDrop => self.edropped(now, p, out),
        }
    }

    #[inline]
    pub fn arrive(&mut self, now: f64, p: &Packet, out: &mut Outputs) {
        let sz = p.size;
        self.last_pkt = now;
        if self.parrivals == 0 {
            self.first_pkt = self.last_pkt;
        }
        if p.qs {
            self.qs_pkts += 1;
            self.qs_bytes += sz;
        }
        self.prev_time = now;
        self.barrivals += sz;
        self.parrivals += 1;
        self.size += sz;
        self.pkts += 1;
        self.print_stats(now, out);
    }

    #[inline]
    pub fn depart(&mut self, now: f64, p: &Packet, out: &mut Outputs) {
        let sz = p.size;
        if p.ecn_to_echo && p.ecn_capable {
            self.pmarks += 1;
        }
        self.size -= sz;
        self.pkts -= 1;
        self.bdepartures += sz;
        self.pdepartures += 1;
        self.print_stats(now, out);
    }

    #[inline]
    /// `EDQueueMonitor::edrop`.
    pub fn edropped(&mut self, now: f64, p: &Packet, out: &mut Outputs) {
        self.ebdrops += p.size;
        self.epdrops += 1;
        self.dropped(now, p, out);
    }

    pub fn dropped(&mut self, now: f64, p: &Packet, out: &mut Outputs) {
        let sz = p.size;
        self.size -= sz;
        self.pkts -= 1;
        self.bdrops += sz;
        self.pdrops += 1;
        if p.qs {
            self.qs_drops += 1;
        }
        self.print_stats(now, out);
    }
}

/// An application attached to an agent (apps/app.cc).  FTP's behaviour is
/// in the Tcl library; the engine keeps the link to the agent and whether the
/// script defined `recv`/`resume` callbacks.
#[derive(Clone, Debug)]
pub struct App {
    pub agent: ObjId,
    pub enable_recv: bool,
    pub enable_resume: bool,
    /// The traffic source an application drives itself, if any (FTP's
    /// behaviour is in the Tcl library).
    pub source: Option<Source>,
}

/// Applications with their own timer-driven behaviour in the engine.
#[derive(Clone, Debug)]
pub enum Source {
    Cbr(Box<crate::udp::Cbr>),
    Telnet(Box<crate::telnet::Telnet>),
    Expoo(Box<crate::onoff::Expoo>),
    Pareto(Box<crate::onoff::Poo>),
}

impl Source {
    pub fn start(&mut self, sim: &mut crate::sim::Sim, agent: ObjId) {
        match self {
            Source::Cbr(c) => c.start(sim, agent),
            Source::Telnet(t) => t.start(sim),
            Source::Expoo(e) => e.start(sim, agent),
            Source::Pareto(p) => p.start(sim, agent),
        }
    }

    pub fn stop(&mut self, sim: &mut crate::sim::Sim) {
        match self {
            Source::Cbr(c) => c.stop(sim),
            Source::Telnet(t) => t.stop(),
            Source::Expoo(e) => e.stop(sim),
            Source::Pareto(p) => p.stop(sim),
        }
    }

    /// The source's timer expired.
    pub fn timeout(&mut self, sim: &mut crate::sim::Sim, agent: ObjId) {
        match self {
            Source::Cbr(c) => c.timeout(sim, agent),
            Source::Telnet(t) => t.timeout(sim, agent),
            Source::Expoo(e) => e.timeout(sim, agent),
            Source::Pareto(p) => p.timeout(sim, agent),
        }
    }
}

impl Default for App {
    fn default() -> Self {
        App { agent: NONE, enable_recv: false, enable_resume: false, source: None }
    }
}

#[cfg(test)]
mod tests {
    /// `Queue::plain`, which lets a packet pass an empty DropTail queue
    /// without entering it, follows every variable it depends on.
    #[test]
    fn plain_follows_the_queue_variables() {
        let mut sim = crate::sim::Sim::new();
        let q = sim.create("q", "Queue/DropTail").unwrap();
        let plain = |sim: &crate::sim::Sim| match &sim.objs[q as usize] {
            crate::sim::Obj::Queue(q) => q.plain,
            _ => unreachable!(),
        };
        assert!(plain(&sim));
        for (var, on, off) in [("summarystats_", "true", "false"), ("queue_in_bytes_", "true", "false"), ("limit_", "1", "50")] {
            sim.set_var(q, var, on).unwrap();
            assert!(!plain(&sim), "{var} {on}");
            sim.set_var(q, var, off).unwrap();
            assert!(plain(&sim), "{var} {off}");
        }
        let r = sim.create("r", "Queue/RED").unwrap();
        assert!(matches!(&sim.objs[r as usize], crate::sim::Obj::Queue(q) if !q.plain));
    }

    use super::*;

    #[test]
    fn trace_time_rounds_to_microseconds() {
        assert_eq!(round6(0.0100319999999), 0.010032);
        assert_eq!(round6(1.2345675), 1.234568);
        assert_eq!(round6(0.0), 0.0);
    }

    fn nam_packet() -> Packet {
        let mut pool = PacketPool::new();
        let id = pool.alloc();
        let mut pk = pool.get(id).clone();
        pk.ptype = crate::packet::PacketType::Cbr;
        pk.size = 500;
        pk.fid = 2;
        pk.uid = 17;
        pk.saddr = 1;
        pk.sport = 0;
        pk.daddr = 5;
        pk.dport = 3;
        pk.ecn_capable = true;
        pk
    }

    #[test]
    fn nam_line_has_ns2_fields_and_unrounded_time() {
        let pk = nam_packet();
        let mut buf = Vec::new();
        write_nam_line(&mut buf, b'+', 0.1240000001, 1, 2, &pk, 9);
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "+ -t 0.1240000001 -s 1 -d 2 -p cbr -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 9 ------N null}\n"
        );
    }

    /// A dequeue trace attached to a nam channel writes the `-` line and
    /// an `h` line with seqno -1; the packet trace's own channel is apart.
    #[test]
    fn namattached_traces_write_nam_lines_and_deque_adds_hop() {
        let mut sim = crate::sim::Sim::new();
        let deq = sim.create("deq", "Trace/Deque").unwrap();
        let drp = sim.create("drp", "Trace/Drop").unwrap();
        for (t, s, d) in [(deq, "0", "1"), (drp, "0", "1")] {
            sim.set_var(t, "src_", s).unwrap();
            sim.set_var(t, "dst_", d).unwrap();
        }
        sim.command(deq, &["attach", "tr"]).unwrap();
        sim.command(deq, &["namattach", "nam"]).unwrap();
        sim.command(drp, &["namattach", "nam"]).unwrap();
        let p = sim.w.pool.alloc();
        *sim.w.pool.get_mut(p) = nam_packet();
        sim.trace_only(deq, p);
        sim.trace_only(drp, p);
        sim.command(drp, &["ntrace", "v -t 1 hello"]).unwrap();
        let out: std::collections::HashMap<_, _> = sim.w.out.drain().into_iter().collect();
        assert_eq!(
            String::from_utf8(out["nam"].clone()).unwrap(),
            "- -t 0 -s 0 -d 1 -p cbr -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 0 ------N null}\n\
             h -t 0 -s 0 -d 1 -p cbr -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 -1 ------N null}\n\
             d -t 0 -s 0 -d 1 -p cbr -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 0 ------N null}\n\
             v -t 1 hello\n"
        );
        assert_eq!(String::from_utf8(out["tr"].clone()).unwrap(), "- 0 0 1 cbr 500 ------N 2 1.0 5.3 0 17\n");
        // detach stops both
        sim.command(deq, &["detach"]).unwrap();
        sim.trace_only(deq, p);
        assert!(sim.w.out.drain().is_empty());
    }

    #[test]
    fn integrator_sums_area() {
        let mut i = Integrator::default();
        i.new_point(1.0, 2.0);
        i.new_point(3.0, 5.0);
        i.new_point(4.0, 0.0);
        assert_eq!(i.sum, 2.0 * 2.0 + 5.0);
    }

    #[test]
    fn node_ports_are_allocated_in_order_and_reused_after_detach() {
        let mut n = Node::new(3);
        n.null_agent = 99;
        assert_eq!(n.alloc_port(), 0);
        n.install(0, 10);
        assert_eq!(n.alloc_port(), 1);
        n.install(1, 11);
        n.install(0, 99);
        assert_eq!(n.alloc_port(), 0);
        assert_eq!(n.port_target(1), Some(11));
        assert_eq!(n.port_target(5), None);
    }
}
