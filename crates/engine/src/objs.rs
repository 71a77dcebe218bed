//! Network objects other than agents: connectors, TTL checkers, packet
//! traces, queues, delay links, nodes, queue monitors.
//!
//! Each mirrors the ns-2 2.35 C++ class of the same role; the doc comments
//! name the file whose behaviour is reproduced.

use crate::packet::{Packet, PktId};
use crate::sched::{ObjId, PipeId};
use crate::sim::{Outputs, World, NONE};

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
    /// The tagged format (`$trace tagged 1`, from `$ns use-taggedtrace`).
    pub tagged: bool,
    /// The nam channel (`namattach`): nam's `-t -s -d ...` form of each
    /// event is written there too.
    pub nam: Option<u32>,
}

impl Trace {
    pub fn new(kind: u8) -> Trace {
        Trace {
            kind,
            src: -1,
            dst: -1,
            target: NONE,
            drop_target: NONE,
            channel: None,
            show_tcphdr: false,
            tagged: false,
            nam: None,
        }
    }

    /// The packet `p` passed this trace point: the tracer writes it (or
    /// records it, for a channel that records columns).
    #[inline]
    pub fn write(&self, w: &mut World, p: PktId) {
        if let Some(cap) = w.out.pcap.as_deref_mut() {
            cap.packet(self.kind, self.src, self.dst, w.s.now, w.pool.get(p), w.pool.is_ect1(p));
        }
        if self.channel.is_none() && self.nam.is_none() {
            return;
        }
        let now = w.s.now;
        let pk = w.pool.get(p);
        let primary = self.channel.filter(|&ch| !w.out.is_recorded(ch));
        if let (Some(ch), None) = (self.channel, primary) {
            w.out.record(self.kind, now, self.src, self.dst, ch, pk);
        }
        w.out.with_tracer(|t, out| t.packet(out, self, primary, now, pk));
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
    pub(crate) pipe: PipeId,
    pub debug: bool,
    /// Made dynamic (`isDynamic`, by `$link dynamic`): `reset` drops the
    /// packets in flight, and `avoidReordering_` no longer applies.
    pub dynamic: bool,
    /// A `Queue/CBQ` was told this is its link (`$cbq link`): it keeps the
    /// rate for its estimator, so a change of `bandwidth_` is passed on to
    /// it (ns2/cbq.rs `cbq_link_rate_changed`).
    pub rate_watched: bool,
    /// The last (size, transmission time) computed: packets on a link come
    /// in few sizes, and a division is the costliest step of a hop.
    txt_cache: (i32, f64),
}

impl DelayLink {
    pub(crate) fn new(pipe: PipeId) -> DelayLink {
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
            rate_watched: false,
            txt_cache: (i32::MIN, 0.0),
        }
    }

    /// `LinkDelay::txtime`: `8. * size / bandwidth_` (the same division,
    /// remembered for the last size seen).  A packet of negative size (a
    /// TCP's `packetSize_` or `segsize_` below minus its header) would end
    /// its transmission before it began: ns-2 schedules the link's resume
    /// with that negative delay and aborts ("scheduler going backwards");
    /// the scheduler is told (`Sched::went_backwards`) and the link uses 0.
    #[inline]
    pub fn txtime(&mut self, size: i32, s: &mut crate::sched::Scheduler) -> f64 {
        if self.txt_cache.0 != size {
            self.txtime_miss(size, s);
        }
        self.txt_cache.1
    }

    /// `txtime` for a size not seen last.
    #[cold]
    #[inline(never)]
    fn txtime_miss(&mut self, size: i32, s: &mut crate::sched::Scheduler) {
        let mut txt = 8.0 * size as f64 / self.bandwidth;
        if !(txt >= 0.0) {
            txt = s.went_backwards(txt);
        }
        self.txt_cache = (size, txt);
    }

    /// Change the bandwidth (forgets the cached transmission time).
    pub fn set_bandwidth(&mut self, bw: f64) {
        self.bandwidth = bw;
        self.txt_cache = (i32::MIN, 0.0);
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
    /// Ports below this are not handed out by `alloc-port` (ns-2's
    /// `Classifier/Port/Reserve`, a Mobile IP node's: 0 and 1).
    pub reserved: i32,
    /// A wireless node's position and movement (wireless/).
    pub mobile: Option<Box<crate::wireless::MobileNode>>,
}

impl Node {
    pub fn new(id: i32) -> Node {
        Node { id, addr: id, ports: Vec::new(), null_agent: NONE, reserved: 0, mobile: None }
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
        for (i, &a) in self.ports.iter().enumerate().skip(self.reserved.max(0) as usize) {
            if a == NONE || a == self.null_agent {
                return i as i32;
            }
        }
        (self.ports.len() as i32).max(self.reserved)
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
    /// `estimate_rate_` (a tclcl bool: any integer, kept as set).
    pub estimate_rate: i32,
    pub k: f64,
    pub est_rate: f64,
    /// Bits of arrivals at the instant of the last estimate, not yet in it.
    pub temp_size: i32,
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
    /// A flow's token bucket, which tags the packets it covers In as a
    /// tagger's flow sees them arrive.
    pub tb: Option<Box<crate::tagger::TokenBucket>>,
    /// A flow's policing by a RED-PD queue (its target and state).
    pub policy: Option<Box<crate::qdisc::redpd::FlowPolicy>>,
    /// Distribution of the RTTs departing TCP packets carry.
    pub rtt: Histogram,
    /// Distribution of the sequence numbers of departing TCP packets.
    pub seqno: Histogram,
    /// Channel `printRTTs` and `printSeqnos` write to (`traceDist`).
    pub dist_channel: Option<u32>,
    /// A flow the engine made that the Tcl side has not adopted yet: the
    /// snoops it saw, counted again once it is adopted with its class
    /// defaults (`Sim::adopt_flow`, `Sim::settle_flow`).
    pub pending: Option<Box<PendingFlow>>,
    /// Nothing but counters to update (no integrators, delay samples, flows,
    /// distributions or rate estimate): `Sim::snoop` then updates the
    /// monitor inline.  Kept by `refresh_plain`.
    plain: bool,
}

/// A flow the engine made, waiting for the Tcl side to adopt it (right
/// after the event that revealed it): that event's key and the snoops the
/// flow saw in it.  Later events add nothing, so a failed adoption (a
/// script whose `tkerror` lets the run go on) leaves it at that.
#[derive(Clone, Debug)]
pub struct PendingFlow {
    pub event: crate::sched::Key,
    pub snoops: Vec<PendingSnoop>,
}

/// A snoop a flow saw before its adoption: the kind, the time, the packet's
/// id and the packet as it was then.
#[derive(Clone, Debug)]
pub struct PendingSnoop {
    pub kind: SnoopKind,
    pub now: f64,
    pub id: PktId,
    pub pkt: Packet,
}

/// A histogram of one quantity of departing TCP packets
/// (`keepRTTstats_`/`keepSeqnoStats_` and their bin settings, `set`).
/// Values past the last bin count in the last bin.
#[derive(Clone, Debug, Default)]
pub struct Histogram {
    pub set: HistogramSettings,
    /// Samples per bin; allocated at the first sample with the number of
    /// bins the settings give then.
    pub bins: Vec<i32>,
    /// Number of samples.
    pub num: i32,
}

/// A histogram's settings.  For RTTs, `max` is `maxRTT_` (seconds) and
/// `per` is `binsPerSec_`: there are `max * per` bins of `1000 / per` ms.
/// For sequence numbers, `max` is `maxSeqno_` and `per` is
/// `SeqnoBinSize_`: there are `max / per` bins of `per` numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistogramSettings {
    /// The `keep..._` switch (a tclcl bool: any integer, kept as set).
    pub keep: i32,
    pub max: i32,
    pub per: i32,
}

impl Histogram {
    /// Count one sample in bin `j` of `top` (clamped to the range).
    fn add(&mut self, j: i32, top: i32) {
        let j = j.clamp(0, top - 1) as usize;
        if self.bins.len() <= j {
            // ns-2 sizes the bins once, at the first sample; settings that
            // grow them later write past its array (undefined there).
            self.bins.resize(top as usize, 0);
        }
        self.bins[j] += 1;
        self.num += 1;
    }

    /// The count of bin `i` (0 beyond the last).
    pub fn bin(&self, i: i32) -> i32 {
        self.bins.get(i as usize).copied().unwrap_or(0)
    }
}

/// Why a distribution's settings are unusable: ns-2 would divide by zero
/// or write outside its array (tools/queue-monitor.cc `QueueMonitor::
/// printRTTs`, `printSeqnos`, and where it counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistogramError {
    /// RTT bins per second outside 1..=1000 (a bin is a whole number of ms).
    BinsPerSec(i32),
    /// The RTT range is not a positive number of seconds (or its bins
    /// overflow).
    MaxRtt(i32),
    /// The sequence-number bin size is not positive.
    SeqnoBinSize(i32),
    /// The sequence-number range is smaller than one bin.
    MaxSeqno { bin_size: i32, max: i32 },
    /// More bins than `MAX_BINS` (ns-2 allocates them all at once: tens of
    /// gigabytes, where it does not fail).
    TooManyBins(i64),
}

/// The most bins a histogram may have (2^24: 128 MB of counters).
pub const MAX_BINS: i64 = 1 << 24;

impl HistogramSettings {
    /// RTT bins: their number and width in ms, or why the settings are
    /// unusable.
    pub fn rtt_geometry(&self) -> Result<(i32, i32), HistogramError> {
        if self.per < 1 || self.per > 1000 {
            return Err(HistogramError::BinsPerSec(self.per));
        }
        match self.max.checked_mul(self.per) {
            Some(top) if self.max >= 1 && top as i64 > MAX_BINS => Err(HistogramError::TooManyBins(top as i64)),
            Some(top) if self.max >= 1 => Ok((top, 1000 / self.per)),
            _ => Err(HistogramError::MaxRtt(self.max)),
        }
    }

    /// Seqno bins: their number, or why the settings are unusable.
    pub fn seqno_geometry(&self) -> Result<i32, HistogramError> {
        if self.per < 1 {
            return Err(HistogramError::SeqnoBinSize(self.per));
        }
        if self.max < self.per {
            return Err(HistogramError::MaxSeqno { bin_size: self.per, max: self.max });
        }
        let bins = self.max / self.per;
        if bins as i64 > MAX_BINS {
            return Err(HistogramError::TooManyBins(bins as i64));
        }
        Ok(bins)
    }
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
    /// A tagger's (its flows are token buckets; see `tagger.rs`).
    pub tagger: bool,
}

impl Default for FlowMon {
    fn default() -> Self {
        FlowMon { classifier: NONE, channel: None, enable_in: true, enable_out: true, enable_drop: true, enable_edrop: true, tagger: false }
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
    /// A monitor with ns-2's defaults (ns-default.tcl), created at `now`.
    pub fn new(now: f64) -> QueueMonitor {
        let mut q = QueueMonitor {
            bytes_int_obj: NONE,
            pkts_int_obj: NONE,
            delay_samp: NONE,
            k: 0.1,
            rtt: Histogram { set: HistogramSettings { keep: 0, max: 5, per: 100 }, ..Default::default() },
            seqno: Histogram { set: HistogramSettings { keep: 0, max: 1000, per: 10 }, ..Default::default() },
            ..Default::default()
        };
        q.created(now);
        q.refresh_plain();
        q
    }

    /// A flow monitor's per-flow monitor (`QueueMonitor/ED/Flow`).
    pub fn new_flow(now: f64) -> QueueMonitor {
        let mut q = QueueMonitor::new(now);
        q.flow = Some(FlowKey::default());
        q
    }

    /// The constructor's last step in ns-2: the rate estimate starts now
    /// (after the class defaults are applied, so it overrides them).
    pub fn created(&mut self, now: f64) {
        self.start_time = now;
        self.prev_time = now;
    }

    /// Recompute `plain` after anything it depends on changes.
    pub fn refresh_plain(&mut self) {
        self.plain = self.bytes_int_obj == NONE
            && self.pkts_int_obj == NONE
            && self.delay_samp == NONE
            && self.flowmon.is_none()
            && !self.has_extras();
    }

    /// Does this monitor estimate the arrival rate or keep distributions?
    #[inline(always)]
    pub fn has_extras(&self) -> bool {
        self.estimate_rate != 0 || self.rtt.set.keep != 0 || self.seqno.set.keep != 0
    }

    /// Check the settings of the distributions that are on.
    pub fn check_dists(&self) -> Result<(), HistogramError> {
        QueueMonitor::check_dist_settings(self.rtt.set, self.seqno.set)
    }

    /// Check RTT and seqno histogram settings, of the histograms they
    /// switch on.
    pub fn check_dist_settings(rtt: HistogramSettings, seqno: HistogramSettings) -> Result<(), HistogramError> {
        if rtt.keep != 0 {
            rtt.rtt_geometry()?;
        }
        if seqno.keep != 0 {
            seqno.seqno_geometry()?;
        }
        Ok(())
    }

    /// What a monitor with `has_extras` does for packet `p` besides
    /// counting, before it counts: the rate estimate of arrivals
    /// (`QueueMonitor::estimateRate`) and the distributions of departures.
    pub fn extras(&mut self, kind: SnoopKind, now: f64, p: &Packet) {
        match kind {
            SnoopKind::In if self.estimate_rate != 0 => self.estimate(now, p.size),
            SnoopKind::Out if p.ptype == crate::packet::PacketType::Tcp => {
                if self.rtt.set.keep != 0 {
                    // checked when the settings were made
                    if let Ok((top, ms)) = self.rtt.set.rtt_geometry() {
                        self.rtt.add(p.last_rtt.max(0) / ms, top);
                    }
                }
                if self.seqno.set.keep != 0 {
                    if let Ok(top) = self.seqno.set.seqno_geometry() {
                        self.seqno.add(p.seqno.max(0) / self.seqno.set.per, top);
                    }
                }
            }
            _ => {}
        }
    }

    /// Exponential averaging of the arrival rate in bits/s with time
    /// constant `k_`; arrivals at one instant are summed and enter the
    /// estimate at the next distinct arrival time.
    fn estimate(&mut self, now: f64, size: i32) {
        let mut bits = size.wrapping_mul(8);
        let gap = now - self.prev_time;
        if gap == 0.0 {
            self.temp_size = self.temp_size.wrapping_add(bits);
            return;
        }
        bits = bits.wrapping_add(self.temp_size);
        self.temp_size = 0;
        self.prev_time = now;
        let w = (-gap / self.k).exp();
        self.est_rate = (1.0 - w) * bits as f64 / gap + w * self.est_rate;
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
        out.with_tracer(|t, out| t.queue_stats(out, ch, now, self));
    }

    /// Does this monitor only count (no integrators, delay samples or
    /// flows)?  Its snoops then update it inline (`Sim::snoop`); a new kind
    /// of monitor state must be added here.
    #[inline(always)]
    pub fn counts_only(&self) -> bool {
        debug_assert_eq!(
            self.plain,
            self.bytes_int_obj == NONE
                && self.pkts_int_obj == NONE
                && self.delay_samp == NONE
                && self.flowmon.is_none()
                && !self.has_extras(),
            "QueueMonitor::plain is stale (refresh_plain after changing what it depends on)"
        );
        self.plain
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

    /// `EDQueueMonitor::mon_edrop`'s own counters (what follows is a
    /// drop's: `Sim::mon_edrop`).
    pub fn mon_edropped(&mut self, p: &Packet) {
        self.mon_ebdrops += p.size;
        self.mon_epdrops += 1;
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
    OnOff(Box<crate::onoff::OnOff>),
    VoipCalls(Box<crate::voip::VoipCalls>),
    Trace(Box<crate::tracesrc::TraceSource>),
}

impl Source {
    pub fn start(&mut self, sim: &mut crate::sim::Sim, agent: ObjId) {
        match self {
            Source::Cbr(c) => c.start(sim, agent),
            Source::Telnet(t) => t.start(sim),
            Source::OnOff(o) => o.start(sim, agent),
            Source::VoipCalls(v) => v.start(sim, agent),
            Source::Trace(t) => t.start(sim, agent),
        }
    }

    pub fn stop(&mut self, sim: &mut crate::sim::Sim) {
        match self {
            Source::Cbr(c) => c.stop(sim),
            Source::Telnet(t) => t.stop(),
            Source::OnOff(o) => o.stop(sim),
            Source::VoipCalls(v) => v.stop(sim),
            Source::Trace(t) => t.stop(sim),
        }
    }

    /// The source's timer expired.
    pub fn timeout(&mut self, sim: &mut crate::sim::Sim, agent: ObjId) {
        match self {
            Source::Cbr(c) => c.timeout(sim, agent),
            Source::Telnet(t) => t.timeout(sim, agent),
            Source::OnOff(o) => o.timeout(sim, agent),
            Source::VoipCalls(v) => v.timeout(sim, agent),
            Source::Trace(t) => t.timeout(sim, agent),
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
    use super::*;
    use crate::ns2::trace::write_tagged_line;
    use crate::packet::PacketPool;
    use crate::trace::round6;

    /// A trace point formats nothing by itself: a plain simulation (no
    /// front end's tracer) writes no text, one with the ns-2 layer's
    /// tracer writes ns-2's line for the same event.
    #[test]
    fn trace_text_comes_from_the_tracer() {
        let mut written = Vec::new();
        for mut sim in [crate::sim::Sim::new(), crate::sim::Sim::ns2()] {
            let ch = sim.w.out.channel("f");
            let id = sim.w.pool.alloc();
            *sim.w.pool.get_mut(id) = Packet { ptype: crate::packet::PacketType::Tcp, seqno: 5, ..nam_packet() };
            sim.w.s.now = 0.5;
            let mut t = Trace::new(b'+');
            t.channel = Some(ch);
            t.write(&mut sim.w, id);
            written.push(String::from_utf8(sim.w.out.buf(ch).clone()).unwrap());
        }
        assert_eq!(written[0], "");
        assert!(written[1].starts_with("+ 0.5 "), "{}", written[1]);
    }

    /// The tagged line of `Trace::format`, and the `h` line a tagged
    /// dequeue trace adds (sequence number -1); a tagged trace attached to
    /// a nam file as well writes nam's form there (`-t` before the time).
    #[test]
    fn tagged_trace_lines() {
        let mut sim = crate::sim::Sim::ns2();
        let ch = sim.w.out.channel("f");
        let nam = sim.w.out.channel("nam");
        let id = sim.w.pool.alloc();
        *sim.w.pool.get_mut(id) = Packet { ptype: crate::packet::PacketType::Tcp, seqno: 5, ..nam_packet() };
        sim.w.s.now = 0.1012345678;
        let mut t = Trace::new(b'-');
        t.src = 2;
        t.dst = 3;
        t.channel = Some(ch);
        t.tagged = true;
        t.show_tcphdr = true;
        t.write(&mut sim.w, id);
        let out = String::from_utf8(sim.w.out.buf(ch).clone()).unwrap();
        assert_eq!(
            out,
            "- 0.1012345678 -s 2 -d 3 -p tcp -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 5 ------N null}\n\
             h 0.1012345678 -s 2 -d 3 -p tcp -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 -1 ------N null}\n"
        );
        let once = out.len();
        t.nam = Some(nam);
        t.write(&mut sim.w, id);
        assert_eq!(sim.w.out.buf(ch).len(), 2 * once, "the tagged channel gets the event again");
        let out = String::from_utf8(sim.w.out.buf(nam).clone()).unwrap();
        assert_eq!(
            out,
            "- -t 0.1012345678 -s 2 -d 3 -p tcp -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 5 ------N null}\n\
             h -t 0.1012345678 -s 2 -d 3 -p tcp -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 -1 ------N null}\n"
        );
    }

    /// A tagged trace whose nam channel is its trace channel writes a
    /// dequeue as ns-2's `DequeTrace::recv` does: the tagged `-`, the nam
    /// `-`, the nam `h`, the tagged `h`; other events as the tagged line
    /// then the nam line.  A positional one writes its line, then nam's.
    #[test]
    fn tagged_and_nam_on_one_channel() {
        let mut sim = crate::sim::Sim::ns2();
        let ch = sim.w.out.channel("f");
        let id = sim.w.pool.alloc();
        *sim.w.pool.get_mut(id) = Packet { ptype: crate::packet::PacketType::Tcp, seqno: 5, ..nam_packet() };
        sim.w.s.now = 0.25;
        let x = "-s 2 -d 3 -p tcp -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3";
        for (kind, tagged, want) in [
            (b'-', true, format!("- 0.25 {x} 5 ------N null}}\n- -t 0.25 {x} 5 ------N null}}\nh -t 0.25 {x} -1 ------N null}}\nh 0.25 {x} -1 ------N null}}\n")),
            (b'r', true, format!("r 0.25 {x} 5 ------N null}}\nr -t 0.25 {x} 5 ------N null}}\n")),
            (b'-', false, format!("- 0.25 2 3 tcp 500 ------N 2 1.0 5.3 5 17\n- -t 0.25 {x} 5 ------N null}}\nh -t 0.25 {x} -1 ------N null}}\n")),
        ] {
            let mut t = Trace::new(kind);
            t.src = 2;
            t.dst = 3;
            t.channel = Some(ch);
            t.nam = Some(ch);
            t.tagged = tagged;
            sim.w.out.drain();
            t.write(&mut sim.w, id);
            assert_eq!(String::from_utf8(sim.w.out.buf(ch).clone()).unwrap(), want);
            assert_eq!(sim.w.out.pending, want.len());
        }
    }

    fn departing(pool: &mut PacketPool, ptype: crate::packet::PacketType, last_rtt: i32, seqno: i32) -> PktId {
        let id = pool.alloc();
        let p = pool.get_mut(id);
        p.ptype = ptype;
        p.size = 1000;
        p.last_rtt = last_rtt;
        p.seqno = seqno;
        id
    }

    /// RTT bins of 1000/binsPerSec_ whole ms, values past the last bin in
    /// the last bin, negative ones in the first; only TCP data counts; the
    /// printout is ns-2's, line for line.
    #[test]
    fn rtt_distribution_bins_and_printout() {
        let mut q = QueueMonitor::new(0.0);
        q.rtt.set = HistogramSettings { keep: 1, max: 1, per: 3 };
        let mut pool = PacketPool::new();
        use crate::packet::PacketType::*;
        for (t, rtt) in [(Tcp, 0), (Tcp, 332), (Tcp, 333), (Tcp, 998), (Tcp, 5000), (Tcp, -7), (Ack, 400), (Cbr, 10)] {
            let id = departing(&mut pool, t, rtt, 0);
            q.extras(SnoopKind::Out, 1.0, pool.get(id));
        }
        assert_eq!(q.rtt.bins, vec![3, 1, 2]);
        assert_eq!(q.rtt.num, 6);
        let mut out = Vec::new();
        crate::ns2::trace::print_rtts(&q, 1.234, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Distribution of RTTs, 333 ms bins, time 1.23\n\
             0 to 333 ms: frac 0.500 num 3 time 1.23\n\
             333 to 666 ms: frac 0.167 num 1 time 1.23\n\
             666 to 999 ms: frac 0.333 num 2 time 1.23\n\
             The last bin might also contain RTTs >= 999 ms.\n"
        );
    }

    #[test]
    fn seqno_distribution_bins_and_printout() {
        let mut q = QueueMonitor::new(0.0);
        q.seqno.set = HistogramSettings { keep: 1, max: 100, per: 30 };
        let mut pool = PacketPool::new();
        for s in [0, 29, 30, 89, 90, 1000] {
            let id = departing(&mut pool, crate::packet::PacketType::Tcp, 0, s);
            q.extras(SnoopKind::Out, 0.5, pool.get(id));
            // arrivals and drops do not count
            q.extras(SnoopKind::In, 0.5, pool.get(id));
            q.extras(SnoopKind::Drop, 0.5, pool.get(id));
        }
        assert_eq!(q.seqno.bins, vec![2, 1, 3]);
        let mut out = Vec::new();
        crate::ns2::trace::print_seqnos(&q, 12.0, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Distribution of Seqnos, 30 seqnos per bin, time 12.00\n\
             0 to 29 seqnos: frac 0.333 num 2 time 12.00\n\
             30 to 59 seqnos: frac 0.167 num 1 time 12.00\n\
             60 to 89 seqnos: frac 0.500 num 3 time 12.00\n\
             The last bin might also contain Seqnos >= 90. \n"
        );
        // no samples yet: the heading only (ns-2 reads an unset array there)
        let mut out = Vec::new();
        crate::ns2::trace::print_seqnos(&QueueMonitor::new(0.0), 0.0, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "Distribution of Seqnos, 10 seqnos per bin, time 0.00\n");
    }

    /// Arrivals at one instant enter the estimate together at the next
    /// arrival time; the estimate decays with time constant k_.
    #[test]
    fn rate_estimate_sums_simultaneous_arrivals() {
        let mut q = QueueMonitor::new(1.0);
        q.estimate_rate = 1;
        let mut pool = PacketPool::new();
        let id = departing(&mut pool, crate::packet::PacketType::Udp, 0, 0);
        for t in [1.0, 1.0, 1.5, 1.5, 1.5] {
            q.extras(SnoopKind::In, t, pool.get(id));
            q.prev_time = t; // what counting the arrival does
        }
        // at 1.5 s: the two packets of 1.0 s and the first of 1.5 s; the
        // other two wait for the next arrival time
        let w = (-0.5f64 / 0.1).exp();
        let first = (1.0 - w) * 24000.0 / 0.5;
        assert_eq!(q.est_rate, first);
        assert_eq!(q.temp_size, 16000);
        q.extras(SnoopKind::In, 2.0, pool.get(id));
        assert_eq!(q.est_rate, (1.0 - w) * 24000.0 / 0.5 + w * first);
        assert_eq!(q.temp_size, 0);
        assert_eq!(q.prev_time, 2.0);
    }

    /// `QueueMonitor::plain` (the inline snoop) follows the statistics
    /// switches; settings ns-2 would divide by zero with are judged when the
    /// run starts, and during the run refused while their distribution is
    /// on, and left unchanged.
    #[test]
    fn plain_follows_the_statistics_switches_and_bad_bins_are_refused() {
        let mut sim = crate::sim::Sim::ns2();
        let m = sim.create("m", "QueueMonitor").unwrap();
        let qm = |sim: &crate::sim::Sim| match &sim.objs[m as usize] {
            crate::sim::Obj::QueueMonitor(q) => (q.counts_only(), q.rtt.set.per, q.seqno.set.max),
            _ => unreachable!(),
        };
        assert!(qm(&sim).0);
        for var in ["keepRTTstats_", "keepSeqnoStats_", "estimate_rate_"] {
            assert_eq!(sim.set_var(m, var, "true").unwrap(), "1");
            assert!(!qm(&sim).0, "{var}");
            assert_eq!(sim.set_var(m, var, "0").unwrap(), "0");
            assert!(qm(&sim).0, "{var}");
        }
        // before `$ns run` settings may pass through unusable values; the
        // run's start judges them
        sim.set_var(m, "keepRTTstats_", "1").unwrap();
        sim.set_var(m, "binsPerSec_", "0").unwrap();
        assert_eq!(sim.check_monitors(), Err(HistogramError::BinsPerSec(0)));
        sim.set_var(m, "binsPerSec_", "100").unwrap();
        sim.check_monitors().unwrap();
        sim.set_var(m, "keepRTTstats_", "0").unwrap();
        // during the run an unusable setting is refused at once
        sim.w.started = true;
        // off: anything goes (ns-2 never uses the bins then)
        sim.set_var(m, "binsPerSec_", "0").unwrap();
        assert!(sim.set_var(m, "keepRTTstats_", "1").unwrap_err().contains("binsPerSec_"));
        sim.set_var(m, "binsPerSec_", "100").unwrap();
        assert_eq!(sim.set_var(m, "keepRTTstats_", "3").unwrap(), "3");
        for (var, bad) in [("binsPerSec_", "0"), ("binsPerSec_", "1001"), ("maxRTT_", "0"), ("maxRTT_", "-2")] {
            assert!(sim.set_var(m, var, bad).is_err(), "{var} {bad}");
        }
        assert_eq!(qm(&sim).1, 100);
        sim.set_var(m, "keepSeqnoStats_", "1").unwrap();
        assert!(sim.set_var(m, "maxSeqno_", "5").unwrap_err().contains("SeqnoBinSize_ (10)"));
        assert!(sim.set_var(m, "SeqnoBinSize_", "0").is_err());
        assert_eq!(qm(&sim).2, 1000);
        let mut out = Vec::new();
        let m2 = sim.create("m2", "QueueMonitor").unwrap();
        match &sim.objs[m2 as usize] {
            crate::sim::Obj::QueueMonitor(q) => {
                assert_eq!((q.rtt.set.max, q.rtt.set.per, q.seqno.set.max, q.seqno.set.per), (5, 100, 1000, 10));
                crate::ns2::trace::print_rtts(&q, 0.0, &mut out).unwrap();
            }
            _ => unreachable!(),
        }
        assert_eq!(String::from_utf8(out).unwrap(), "Distribution of RTTs, 10 ms bins, time 0.00\n");
    }

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
        write_tagged_line(&mut buf, true, b'+', 0.1240000001, 1, 2, &pk, 9);
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "+ -t 0.1240000001 -s 1 -d 2 -p cbr -e 500 -c 2 -i 17 -a 2 -x {1.0 5.3 9 ------N null}\n"
        );
    }

    /// A dequeue trace attached to a nam channel writes the `-` line and
    /// an `h` line with seqno -1; the packet trace's own channel is apart.
    #[test]
    fn namattached_traces_write_nam_lines_and_deque_adds_hop() {
        let mut sim = crate::sim::Sim::ns2();
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
