//! The XCP router (Katabi, Handley and Rohrs, "Congestion control for high
//! bandwidth-delay product networks", SIGCOMM 2002), as ns-2 2.35 models
//! it (xcp/xcp.cc, xcp/xcpq.cc), step for step.
//!
//! The queue holds three virtual queues served round robin: XCP packets
//! (data and ACKs of XCP flows), other TCP packets, everything else.  The
//! XCP one is a drop-tail FIFO with the controllers:
//!
//! * the efficiency controller, every control interval `te` (the flows'
//!   average RTT), wants the aggregate rate to change by
//!   `phi = ALPHA (capacity - input rate) - BETA queue / avg_rtt` bytes/s,
//!   where `queue` is the persistent queue: the smallest queue seen in the
//!   last `tq` (half the RTT less the queue's own delay);
//! * the fairness controller shuffles `GAMMA` of the input rate besides;
//! * each XCP data packet leaving takes its share: positive feedback in
//!   proportion to its `x` (RTT over window: the same per flow per RTT
//!   whatever its rate), negative in proportion to its size, each capped by
//!   what is left of the interval's budget (`residue_pos`, `residue_neg`),
//!   and the packet's `delta_throughput` is lowered to it.
//!
//! The three timers run when the queue next sees a packet (or finds the
//! link idle): nothing reads the state in between, so the result is the
//! timers'.  Their first expiries are drawn at creation from ns-2's default
//! stream, `max(0.004, normal(T, 0.2 T))` each, as `setupTimers` draws them.
//!
//! Kept from ns-2: an empty dequeue that falls on the XCP queue (the one
//! that ends each busy period, `link_idle`) lowers the running minimum to
//! 0; the round robin moves on at every dequeue; estimates count ACK bytes
//! in the input but only data packets in the sums; `max`/`min` are C's
//! `a > b ? a : b`, NaN included.
//!
//! The queue's own trace file (`attach`) records what `XCPQueue::trace_var`
//! writes: each XCP data packet's feedback as it leaves, the persistent
//! queue at each `tq`, the controllers' state at each `te`, and drops,
//! queue length and utilisation every `tr` (`everyRTT`: the flows' largest
//! RTT seen, or `queue-sample-everyrtt`'s period).  While a file is
//! attached the timers also run as a scheduler timer of their own, so that
//! their lines are written when they fall due, not at the queue's next
//! packet; the controllers' results are the same either way.
//!
//! The other two virtual queues are RED queues, as ns-queue.tcl's
//! `create-vqueues` makes them (`new Queue/RED` each, so with Queue/RED's
//! class defaults of that moment): the ns-2 layer hands two RED
//! disciplines over (`set-tcpQ`, `set-otherQ`), the link's bandwidth and
//! delay reach them through `Queue/XCP instproc link`, and `reset` resets
//! the three in turn (`Queue/XCP instproc reset`).  A RED queue's empty
//! dequeue (the round robin landing on it when all three are empty) starts
//! its idle time, as `REDQueue::deque` does.

use super::{Capacity, Discipline, Drops, Verdict};
use crate::packet::{PacketType, PktId, XcpHdr, XcpKind};
use crate::qdisc::droptail::DropTail;
use crate::qdisc::red::Red;
use crate::sched::ObjId;
use crate::sim::World;
use crate::trace::XcpQueueVar;

/// The efficiency controller's gains (stable for any delay: the paper's
/// section 4) and the fairness controller's shuffle.
pub const ALPHA: f64 = 0.4;
pub const BETA: f64 = 0.226;
pub const GAMMA: f64 = 0.1;
/// RTTs above this count as this in the average (`XCP_MAX_INTERVAL`).
pub const MAX_INTERVAL: f64 = 1.0;
/// The shortest control interval (`XCP_MIN_INTERVAL`).
pub const MIN_INTERVAL: f64 = 0.001;
/// The control interval before any RTT is known (`INITIAL_Te_VALUE`).
pub const INITIAL_TE: f64 = 0.05;

/// The virtual queues, in round-robin order.
const XCPQ: usize = 0;
const TCPQ: usize = 1;
const OTHERQ: usize = 2;

/// The code points the queue writes in a packet's IP priority.
pub const CP_XCP: i32 = 10;
pub const CP_TCP: i32 = 20;
pub const CP_OTHER: i32 = 30;

/// C's `a > b ? a : b` (a NaN `b` wins).
fn cmax(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// C's `a < b ? a : b`.
fn cmin(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The controllers' state (ns-2's `XCPQueue` less its FIFO).
#[derive(Debug, Clone)]
pub struct Controller {
    /// Link capacity, bytes per second (`set-link-capacity` / 8).
    pub capacity: f64,
    /// This router's id (ns-2 numbers every `Queue/XCP` from 0).
    pub router_id: u32,
    pub te: f64,
    pub tq: f64,
    pub tr: f64,
    pub avg_rtt: f64,
    pub cp: f64,
    pub cn: f64,
    pub residue_pos: f64,
    pub residue_neg: f64,
    /// The persistent queue (bytes): the last `tq`'s minimum.
    pub queue_bytes: f64,
    pub input_bytes: f64,
    pub sum_rtt_by_x: f64,
    pub sum_x: f64,
    pub running_min_queue: f64,
    pub num_cc_packets: u32,
    /// When the timers expire next.
    pub tq_at: f64,
    pub te_at: f64,
    pub tr_at: f64,
    // ---- the queue's trace file (`attach`) and what only it reads ----
    /// Its channel.
    pub trace: Option<u32>,
    /// Lines not yet written: time, variable, flow id (`X<fid>`), value.
    pub records: Vec<(f64, XcpQueueVar, i32, f64)>,
    /// The largest RTT an XCP packet carried (`high_rtt_`: only while a
    /// file is attached, as in ns-2), and `queue-sample-everyrtt`'s period.
    pub high_rtt: f64,
    pub effective_rtt: f64,
    /// Bytes of XCP data that left since the last sample, and since the
    /// start by flows below (`mice`) and from (`elephants`) `num_mice`.
    pub total_thruput: f64,
    pub thruput_elephants: f64,
    pub thruput_mice: f64,
    pub num_mice: i32,
    /// XCP packets dropped since the last sample, and in all.
    pub drops: u64,
    pub total_drops: u64,
    /// The XCP queue's shortest and longest length (packets) in this
    /// control interval.
    pub min_queue_ci: usize,
    pub max_queue_ci: usize,
}

impl Controller {
    /// `init_vars`, with the timers' first expiries `tq_at`, `te_at`, `tr_at`.
    pub fn new(router_id: u32, tq_at: f64, te_at: f64, tr_at: f64) -> Controller {
        Controller {
            capacity: 0.0,
            router_id,
            te: INITIAL_TE,
            tq: INITIAL_TE,
            tr: 0.1,
            avg_rtt: INITIAL_TE,
            cp: 0.0,
            cn: 0.0,
            residue_pos: 0.0,
            residue_neg: 0.0,
            queue_bytes: 0.0,
            input_bytes: 0.0,
            sum_rtt_by_x: 0.0,
            sum_x: 0.0,
            running_min_queue: 0.0,
            num_cc_packets: 0,
            tq_at,
            te_at,
            tr_at,
            trace: None,
            records: Vec::new(),
            high_rtt: 0.0,
            effective_rtt: 0.0,
            total_thruput: 0.0,
            thruput_elephants: 0.0,
            thruput_mice: 0.0,
            num_mice: 0,
            drops: 0,
            total_drops: 0,
            min_queue_ci: 0,
            max_queue_ci: 0,
        }
    }

    /// `trace_var`: a line for the trace file, if one is attached.
    #[inline]
    fn rec(&mut self, t: f64, var: XcpQueueVar, v: f64) {
        if self.trace.is_some() {
            self.records.push((t, var, 0, v));
        }
    }

    /// The queue length (packets) seen at an arrival or a departure.
    #[inline]
    pub fn saw_length(&mut self, len: usize) {
        self.max_queue_ci = self.max_queue_ci.max(len);
        self.min_queue_ci = self.min_queue_ci.min(len);
    }

    /// The trace lines of an XCP data packet of flow `fid` leaving at `now`
    /// with `pos`/`neg` feedback (`do_before_packet_departure`'s tail).
    pub fn traced_departure(&mut self, now: f64, fid: i32, size: f64, pos: f64, neg: f64, h: &XcpHdr) {
        self.rec(now, XcpQueueVar::PosFbk, pos);
        self.rec(now, XcpQueueVar::NegFbk, neg);
        self.rec(now, XcpQueueVar::DeltaThroughput, h.delta_throughput);
        if self.trace.is_some() {
            self.records.push((now, XcpQueueVar::FlowX, fid, h.x));
        }
        if h.rtt > self.high_rtt {
            self.high_rtt = h.rtt;
        }
        self.total_thruput += size;
        if self.num_mice != 0 {
            if fid >= self.num_mice {
                self.thruput_elephants += size;
            } else {
                self.thruput_mice += size;
            }
        }
    }

    /// When the next timer falls due.
    pub fn next_timer(&self) -> f64 {
        self.tq_at.min(self.te_at).min(self.tr_at)
    }

    /// `do_on_packet_arrival`: every packet counts in the input; XCP data
    /// packets with an RTT in the sums.
    pub fn on_arrival(&mut self, size: f64, h: &XcpHdr) {
        self.input_bytes += size;
        if h.kind != XcpKind::Enabled {
            return;
        }
        self.num_cc_packets += 1;
        if h.rtt != 0.0 {
            self.sum_x += h.x;
            let rtt = if h.rtt < MAX_INTERVAL { h.rtt } else { MAX_INTERVAL };
            self.sum_rtt_by_x += rtt * h.x;
        }
    }

    /// `do_before_packet_departure`: the packet's share of the feedback;
    /// the positive and negative parts given, if it was given any.
    pub fn on_departure(&mut self, size: f64, h: &mut XcpHdr) -> Option<(f64, f64)> {
        if h.kind != XcpKind::Enabled {
            return None;
        }
        if h.rtt == 0.0 {
            h.delta_throughput = 0.0;
            return None;
        }
        let mut pos = cmin(self.residue_pos, self.cp * h.x);
        let mut neg = cmin(self.residue_neg, self.cn * size);
        let feedback = pos - neg;
        if h.delta_throughput >= feedback {
            h.delta_throughput = feedback;
            h.controlling_hop = self.router_id;
        } else {
            // A router upstream asked for less: give out only that much,
            // taking more from the negative budget.
            neg = cmin(self.residue_neg, neg + (feedback - h.delta_throughput));
            pos = h.delta_throughput + neg;
        }
        self.residue_pos = cmax(0.0, self.residue_pos - pos);
        self.residue_neg = cmax(0.0, self.residue_neg - neg);
        if self.residue_pos == 0.0 {
            self.cp = 0.0;
        }
        if self.residue_neg == 0.0 {
            self.cn = 0.0;
        }
        Some((pos, neg))
    }

    /// `Tq_timeout`, with `inst_queue` bytes queued: the persistent queue
    /// is the minimum since the last one.
    pub fn tq_timeout(&mut self, inst_queue: f64) {
        let t = self.tq_at;
        self.queue_bytes = self.running_min_queue;
        self.running_min_queue = inst_queue;
        self.tq = cmax(0.002, (self.avg_rtt - inst_queue / self.capacity) / 2.0);
        self.tq_at += self.tq;
        self.rec(t, XcpQueueVar::Tq, self.tq);
        self.rec(t, XcpQueueVar::QueueBytes, self.queue_bytes);
        self.rec(t, XcpQueueVar::RouterIdAtTq, self.router_id as f64);
    }

    /// `Te_timeout`: the end of a control interval, with `inst_len`
    /// packets in the XCP queue.
    pub fn te_timeout(&mut self, inst_len: usize) {
        let t = self.te_at;
        self.rec(t, XcpQueueVar::ResiduePosLeft, self.residue_pos);
        self.rec(t, XcpQueueVar::ResidueNegLeft, self.residue_neg);
        let input_bw = self.input_bytes / self.te;
        let mut phi = 0.0;
        let mut shuffled = 0.0;
        self.avg_rtt = if self.sum_x != 0.0 { self.sum_rtt_by_x / self.sum_x } else { INITIAL_TE };
        if self.input_bytes > 0.0 {
            phi = ALPHA * (self.capacity - input_bw) - BETA * self.queue_bytes / self.avg_rtt;
            shuffled = GAMMA * input_bw;
            shuffled = if shuffled > phi.abs() { shuffled - phi.abs() } else { 0.0 };
        }
        self.residue_pos = cmax(0.0, phi) + shuffled;
        self.residue_neg = cmax(0.0, -phi) + shuffled;
        if self.sum_x == 0.0 {
            self.sum_x = 1.0;
        }
        if self.input_bytes > 0.0 {
            self.cp = self.residue_pos / self.sum_x;
            self.cn = self.residue_neg / self.input_bytes;
        } else {
            self.cp = 0.0;
            self.cn = 0.0;
        }
        if self.trace.is_some() {
            self.rec(t, XcpQueueVar::InputBytes, self.input_bytes);
            self.rec(t, XcpQueueVar::AvgRtt, self.avg_rtt);
            self.rec(t, XcpQueueVar::ResiduePos, self.residue_pos);
            self.rec(t, XcpQueueVar::ResidueNeg, self.residue_neg);
            self.rec(t, XcpQueueVar::QueueLength, inst_len as f64);
            self.rec(t, XcpQueueVar::MinQueue, self.min_queue_ci as f64);
            self.rec(t, XcpQueueVar::MaxQueue, self.max_queue_ci as f64);
            self.rec(t, XcpQueueVar::RouterId, self.router_id as f64);
        }
        self.num_cc_packets = 0;
        self.input_bytes = 0.0;
        self.sum_x = 0.0;
        self.sum_rtt_by_x = 0.0;
        self.te = cmax(self.avg_rtt, MIN_INTERVAL);
        self.te_at += self.te;
        self.min_queue_ci = inst_len;
        self.max_queue_ci = inst_len;
    }

    /// `everyRTT`, with `inst_len` packets in the XCP queue: the samples
    /// of the trace file (drops, queue, utilisation; ns-2 never clears the
    /// elephants' and mice's sums), every `queue-sample-everyrtt` period,
    /// else every largest RTT seen, else every 0.1 s.
    fn tr_timeout(&mut self, inst_len: usize) {
        let t = self.tr_at;
        if self.effective_rtt != 0.0 {
            self.tr = self.effective_rtt;
        } else if self.high_rtt != 0.0 {
            self.tr = self.high_rtt;
        }
        if self.trace.is_some() {
            let per = self.tr * self.capacity;
            self.rec(t, XcpQueueVar::Drops, self.drops as f64);
            self.rec(t, XcpQueueVar::QueueSample, inst_len as f64);
            self.rec(t, XcpQueueVar::Util, self.total_thruput / per);
            self.rec(t, XcpQueueVar::UtilElephants, self.thruput_elephants / per);
            self.rec(t, XcpQueueVar::UtilMice, self.thruput_mice / per);
        }
        self.drops = 0;
        self.total_thruput = 0.0;
        self.tr_at += self.tr;
    }

    /// `queue-sample-everyrtt RTT`: the samples' period, from now.
    pub fn set_effective_rtt(&mut self, now: f64, rtt: f64) {
        self.effective_rtt = rtt;
        self.tr_at = now + rtt;
    }

    /// Run the timers due at or before `now`, in time order (`tq`, `te`,
    /// then `tr` on a tie), with `inst_queue` bytes (`inst_len` packets)
    /// in the XCP queue.
    pub fn catch_up(&mut self, now: f64, inst_queue: f64, inst_len: usize) {
        loop {
            let t = self.tq_at.min(self.te_at).min(self.tr_at);
            if !(t <= now) {
                return;
            }
            if self.tq_at == t {
                self.tq_timeout(inst_queue);
            } else if self.te_at == t {
                self.te_timeout(inst_len);
            } else {
                self.tr_timeout(inst_len);
            }
        }
    }
}

/// What is left of a `Queue/RED` object that a `Queue/XCP` took as its
/// TCP (`which` 1) or other (2) virtual queue: the RED itself lives in the
/// XCP queue, which lends it back while a command or a bound variable of
/// the object runs (ns-2's scripts trace it through `[$q set vq_(1)]`).
/// Never on a link: it holds nothing.
#[derive(Debug)]
pub struct XcpVq {
    pub parent: ObjId,
    pub which: usize,
}

impl Discipline for XcpVq {
    fn enqueue(&mut self, _cap: &Capacity, _w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        Verdict::Dropped(p)
    }

    fn dequeue(&mut self, _w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        None
    }

    fn len(&self) -> usize {
        0
    }

    fn bytes(&self) -> i64 {
        0
    }
}

/// `Queue/XCP`: the controllers and the three virtual queues.
#[derive(Debug)]
pub struct Xcp {
    pub ctl: Controller,
    /// The XCP packets' virtual queue (`Queue/DropTail/XCPQ`).
    pub xcpq: DropTail,
    /// The TCP packets' and the other packets' virtual queues (`vq_(1)`,
    /// `vq_(2)`: two `Queue/RED`).
    pub red: [Box<Red>; 2],
    /// The three virtual queues' capacities (`queue-limit` sets all three
    /// limits; `Queue set limit_`'s value when the queue was made until
    /// then).
    pub caps: [Capacity; 3],
    /// The queue served last (`qToDq_`).
    cur: usize,
    /// `tcp_xcp_on_`: XCP gets half the link (`set-link-capacity`).
    pub tcp_xcp_on: bool,
    /// The scheduler timer that runs the controllers' timers when they
    /// fall due while a trace file is attached.
    pub timer: Option<u32>,
}

impl Xcp {
    /// A queue with router id `router_id` whose timers first expire at
    /// `tq_at`, `te_at`, `tr_at`.
    pub fn new(router_id: u32, tq_at: f64, te_at: f64, tr_at: f64) -> Xcp {
        let cap = Capacity { limit: 50, ..Capacity::default() };
        Xcp {
            ctl: Controller::new(router_id, tq_at, te_at, tr_at),
            xcpq: DropTail::default(),
            red: [Box::default(), Box::default()],
            caps: [cap, cap, cap],
            cur: XCPQ,
            tcp_xcp_on: false,
            timer: None,
        }
    }

    /// `set-link-capacity BITS_PER_SECOND`.
    pub fn set_link_capacity(&mut self, bps: f64) {
        let bps = if self.tcp_xcp_on { bps * 0.5 } else { bps };
        if bps / 8.0 > 0.0 {
            self.ctl.capacity = bps / 8.0;
        }
    }

    /// `queue-limit N`: every virtual queue's limit.
    pub fn set_limit(&mut self, limit: i32) {
        for c in &mut self.caps {
            c.limit = limit;
        }
    }

    /// The XCP packets' virtual queue (a `Queue/DropTail/XCPQ`):
    /// Queue/DropTail's `drop_front_`, `queue_in_bytes_`, `mean_pktsize_`.
    pub fn set_xcpq_droptail(&mut self, drop_front: bool, in_bytes: bool, mean_pktsize: i32) {
        let c = &mut self.caps[XCPQ];
        c.drop_front = drop_front;
        c.in_bytes = in_bytes;
        c.mean_pktsize = mean_pktsize;
    }

    /// `set-tcpQ` / `set-otherQ`: the TCP packets' (`which` 1) or the
    /// other packets' (2) virtual queue becomes this RED, with its
    /// capacity (its `limit_`, `queue_in_bytes_`, `mean_pktsize_`...).
    pub fn set_red(&mut self, which: usize, red: Red, cap: Capacity) {
        assert!(which == TCPQ || which == OTHERQ, "XCP's RED queues are 1 and 2");
        *self.red[which - 1] = red;
        self.caps[which] = cap;
    }

    /// `Queue/XCP instproc link`: the RED queues learn the link.
    pub fn set_link(&mut self, link: ObjId, bw: f64, delay: f64) {
        for (i, r) in self.red.iter_mut().enumerate() {
            r.set_link(link, bw, delay, self.caps[i + 1].mean_pktsize);
        }
    }

    /// The link the RED queues know (`NONE` until `set_link`).
    pub fn red_link(&self) -> ObjId {
        self.red[0].link
    }

    /// `Queue/XCP instproc reset`: each virtual queue's `reset` in turn
    /// (XCP's, then the two REDs', which first recompute their automatic
    /// parameters from `link_bw`); each drains its packets, head first, and
    /// ends with a dequeue that finds it empty.  The round robin's place
    /// is untouched.  Returns the packets drained, for the caller to drop.
    pub fn reset(&mut self, w: &mut World, link_bw: Option<f64>) -> Vec<PktId> {
        let mut out = Vec::new();
        self.catch_up(w.s.now);
        while let Some(p) = self.xcpq_deque(w) {
            out.push(p);
            // (`XCPQueue::drop` counts them)
            self.ctl.drops += 1;
            self.ctl.total_drops += 1;
        }
        self.flush(w);
        for (i, r) in self.red.iter_mut().enumerate() {
            let cap = &self.caps[i + 1];
            r.reset(w, link_bw, cap.in_bytes, cap.mean_pktsize);
            while let Some(p) = r.deque(&w.pool, w.s.now) {
                out.push(p);
            }
        }
        out
    }

    fn xcp_bytes(&self) -> f64 {
        self.xcpq.fifo.bytes() as f64
    }

    /// The controllers' timers due by `now`.
    fn catch_up(&mut self, now: f64) {
        let (bytes, len) = (self.xcp_bytes(), self.xcpq.fifo.len());
        self.ctl.catch_up(now, bytes, len);
    }

    /// `attach`: the trace file, from now on; its timer is `timer` (made
    /// the first time), armed for the next expiry.
    pub fn attach(&mut self, w: &mut World, ch: u32, timer: u32) {
        self.catch_up(w.s.now);
        self.flush(w);
        self.ctl.trace = Some(ch);
        self.timer = Some(timer);
        self.arm(w);
    }

    /// `queue-sample-everyrtt RTT`.
    pub fn sample_every(&mut self, w: &mut World, rtt: f64) {
        self.catch_up(w.s.now);
        self.ctl.set_effective_rtt(w.s.now, rtt);
        self.flush(w);
        self.arm(w);
    }

    /// Arm the timer for the next expiry (while a file is attached).
    fn arm(&mut self, w: &mut World) {
        if let Some(t) = self.timer {
            let delay = self.ctl.next_timer() - w.s.now;
            w.s.timer_resched(t, if delay > 0.0 { delay } else { 0.0 });
        }
    }

    /// The timer fired: run what is due, write it, wait for the next.
    pub fn timeout(&mut self, w: &mut World) {
        self.catch_up(w.s.now);
        self.flush(w);
        self.arm(w);
    }

    /// Write the trace lines kept so far, in order.
    #[inline]
    fn flush(&mut self, w: &mut World) {
        if self.ctl.records.is_empty() {
            return;
        }
        self.flush_records(w);
    }

    #[inline(never)]
    fn flush_records(&mut self, w: &mut World) {
        if let Some(ch) = self.ctl.trace {
            let recs = &self.ctl.records;
            w.out.with_tracer(|t, out| {
                for &(time, var, fid, v) in recs {
                    t.xcp_queue_var(out, ch, time, var, fid, v);
                }
            });
        }
        self.ctl.records.clear();
    }

    fn sub_len(&self, n: usize) -> usize {
        if n == XCPQ {
            self.xcpq.fifo.len()
        } else {
            self.red[n - 1].fifo.len()
        }
    }

    /// `XCPQueue::deque`: the running minimum of the queue first, then the
    /// head; an XCP data packet leaving takes its feedback.
    fn xcpq_deque(&mut self, w: &mut World) -> Option<PktId> {
        let inst = self.xcp_bytes();
        if inst < self.ctl.running_min_queue {
            self.ctl.running_min_queue = inst;
        }
        let p = self.xcpq.fifo.pop(&w.pool);
        self.ctl.saw_length(self.xcpq.fifo.len());
        let p = p?;
        let mut h = w.pool.xcp_hdr(p);
        if h.kind == XcpKind::Enabled {
            let pk = w.pool.get(p);
            let (size, fid) = (pk.size as f64, pk.fid);
            if let Some((pos, neg)) = self.ctl.on_departure(size, &mut h) {
                if self.ctl.trace.is_some() {
                    self.ctl.traced_departure(w.s.now, fid, size, pos, neg, &h);
                }
            }
            w.pool.set_xcp_hdr(p, h);
        }
        Some(p)
    }

    /// `queueToDeque`: the next queue in turn that holds a packet (with
    /// weights of one half, the round robin moves on at every call).
    fn next_queue(&mut self) -> usize {
        self.cur = (self.cur + 1) % 3;
        let mut i = 0;
        while i < 3 && self.sub_len(self.cur) == 0 {
            self.cur = (self.cur + 1) % 3;
            i += 1;
        }
        self.cur
    }
}

impl Discipline for Xcp {
    fn enqueue(&mut self, _cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        self.catch_up(w.s.now);
        self.flush(w);
        let h = w.pool.xcp_hdr(p);
        // `mark`: classify by the code point, writing it if none is set.
        let pk = w.pool.get_mut(p);
        let cp = if pk.prio > 0 {
            pk.prio
        } else {
            let cp = if h.kind != XcpKind::Disabled {
                CP_XCP
            } else if matches!(pk.ptype, PacketType::Tcp | PacketType::Ack) {
                CP_TCP
            } else {
                CP_OTHER
            };
            pk.prio = cp;
            cp
        };
        let n = match cp {
            CP_XCP => XCPQ,
            CP_TCP => TCPQ,
            // (ns-2 exits on any other code point)
            _ => OTHERQ,
        };
        if n == XCPQ {
            let size = pk.size as f64;
            self.ctl.saw_length(self.xcpq.fifo.len());
            self.ctl.on_arrival(size, &h);
            let v = self.xcpq.enqueue(&self.caps[XCPQ], &w.pool, p);
            if matches!(v, Verdict::Dropped(_)) {
                // (`XCPQueue::drop` counts them)
                self.ctl.drops += 1;
                self.ctl.total_drops += 1;
            }
            return v;
        }
        self.red[n - 1].enque(&self.caps[n], w, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.catch_up(w.s.now);
        let p = match self.next_queue() {
            XCPQ => self.xcpq_deque(w),
            n => self.red[n - 1].deque(&w.pool, w.s.now),
        };
        self.flush(w);
        p
    }

    fn link_idle(&mut self, now: f64) {
        // The dequeue that found every virtual queue empty: the queue it
        // fell on learns it (XCP's running minimum, RED's idle time).
        self.ctl.catch_up(now, 0.0, 0);
        match self.next_queue() {
            XCPQ => {
                if 0.0 < self.ctl.running_min_queue {
                    self.ctl.running_min_queue = 0.0;
                }
                self.ctl.saw_length(0);
            }
            n => self.red[n - 1].dequeued(false, now),
        }
    }

    fn len(&self) -> usize {
        self.xcpq.fifo.len() + self.red.iter().map(|r| r.fifo.len()).sum::<usize>()
    }

    fn bytes(&self) -> i64 {
        self.xcpq.fifo.bytes() + self.red.iter().map(|r| r.fifo.bytes()).sum::<i64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(rtt: f64, x: f64, delta: f64) -> XcpHdr {
        XcpHdr { kind: XcpKind::Enabled, rtt, x, delta_throughput: delta, ..XcpHdr::default() }
    }

    fn pkt(w: &mut World, ptype: PacketType, size: i32) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.ptype = ptype;
        pk.size = size;
        p
    }

    /// A RED with fixed thresholds 5 and 6 (weight 1: the average is the
    /// queue; gentle off), as a `Queue/RED` handed over by `set-tcpQ` would be.
    fn red() -> Red {
        let mut r = Red::new();
        r.th_min_pkts = 5.0;
        r.th_max_pkts = 6.0;
        r.max_p_inv = 1.0;
        r.q_w = 1.0;
        r.ptc = 1000.0;
        r
    }

    /// TCP and other packets go to the two RED virtual queues, classified
    /// by the code point the queue writes (ns-2's `mark`), and RED, not a
    /// drop-tail limit, decides their fate: the arrivals that find 6
    /// queued (the average at RED's maximum threshold, gentle off) are
    /// forced drops although the queue is far below its limit of 50.
    #[test]
    fn tcp_and_other_packets_queue_in_red() {
        let mut w = World::new_for_tests();
        let mut x = Xcp::new(0, 1e9, 1e9, 1e9);
        let cap = Capacity { limit: 50, ..Capacity::default() };
        x.set_red(TCPQ, red(), cap);
        x.set_red(OTHERQ, red(), cap);
        x.reset(&mut w, None);
        let mut drops = Drops::default();
        let u = pkt(&mut w, PacketType::Cbr, 500);
        assert_eq!(x.enqueue(&cap, &mut w, u, &mut drops), Verdict::Queued);
        assert_eq!(w.pool.get(u).prio, CP_OTHER);
        let mut verdicts = Vec::new();
        for _ in 0..8 {
            let p = pkt(&mut w, PacketType::Tcp, 1000);
            verdicts.push(x.enqueue(&cap, &mut w, p, &mut drops));
            assert_eq!(w.pool.get(p).prio, CP_TCP);
        }
        assert!(verdicts[..6].iter().all(|v| *v == Verdict::Queued), "{verdicts:?}");
        assert!(matches!(verdicts[6], Verdict::Dropped(_)) && matches!(verdicts[7], Verdict::Dropped(_)), "{verdicts:?}");
        assert_eq!((x.red[0].fifo.len(), x.red[1].fifo.len()), (6, 1));
        assert_eq!(x.len(), 7);
    }

    /// `reset` drains XCP's queue, then TCP's, then the others', and leaves
    /// the round robin where it was; the RED queues are idle from then on.
    /// An empty dequeue that falls on a RED queue starts its idle time
    /// (`REDQueue::deque`).
    #[test]
    fn reset_drains_in_turn_and_empty_dequeues_reach_red() {
        let mut w = World::new_for_tests();
        let mut x = Xcp::new(0, 1e9, 1e9, 1e9);
        let cap = Capacity { limit: 50, ..Capacity::default() };
        x.set_red(TCPQ, red(), cap);
        x.set_red(OTHERQ, red(), cap);
        let mut drops = Drops::default();
        let o = pkt(&mut w, PacketType::Cbr, 200);
        let t = pkt(&mut w, PacketType::Tcp, 1000);
        let xp = pkt(&mut w, PacketType::Xcp, 1000);
        w.pool.set_xcp_hdr(xp, data(0.1, 0.01, 1e24));
        for p in [o, t, xp] {
            x.enqueue(&cap, &mut w, p, &mut drops);
        }
        // one dequeue: the round robin moves from XCP's to TCP's queue
        assert_eq!(x.dequeue(&mut w, &mut drops), Some(t));
        let t2 = pkt(&mut w, PacketType::Tcp, 1000);
        x.enqueue(&cap, &mut w, t2, &mut drops);
        assert_eq!(x.reset(&mut w, None), vec![xp, t2, o]);
        assert_eq!(x.len(), 0);
        assert!(x.red[0].idle && x.red[1].idle);
        // the next turn is the other packets' queue, then XCP's
        assert_eq!(x.cur, TCPQ);
        w.s.now = 2.0;
        x.red[1].idle = false;
        x.link_idle(2.0);
        assert!(x.red[1].idle);
        assert_eq!(x.red[1].idletime, 2.0);
    }

    /// One control interval on a 1 Mbyte/s link, worked out by hand.
    ///
    /// Two flows, RTT 0.1 s: A with a window of 10 packets (x = 0.01 s),
    /// B with 5 (x = 0.02 s); in the 0.05 s interval A sends 4 packets and
    /// B 2 of 1000 bytes (6000 bytes: 120,000 bytes/s), plus 2 ACKs of 40.
    /// sum_x = 4 * 0.01 + 2 * 0.02 = 0.08, sum_rtt_by_x = 0.1 * 0.08, so
    /// avg_rtt = 0.1.  Input 6080 bytes: 121,600 bytes/s.  No persistent
    /// queue: phi = 0.4 * (1,000,000 - 121,600) = 351,360; shuffled =
    /// 12,160 < |phi|, so 0.  residue_pos = 351,360, residue_neg = 0;
    /// Cp = 351,360 / 0.08 = 4,392,000, Cn = 0.
    #[test]
    fn efficiency_controller_hands_out_the_spare_bandwidth() {
        let mut c = Controller::new(0, 1e9, 0.05, 1e9);
        c.capacity = 1_000_000.0;
        for _ in 0..4 {
            c.on_arrival(1000.0, &data(0.1, 0.01, 1e24));
        }
        for _ in 0..2 {
            c.on_arrival(1000.0, &data(0.1, 0.02, 1e24));
            c.on_arrival(40.0, &XcpHdr { kind: XcpKind::Ack, ..XcpHdr::default() });
        }
        assert_eq!(c.num_cc_packets, 6);
        c.catch_up(0.05, 0.0, 0);
        assert!((c.avg_rtt - 0.1).abs() < 1e-12);
        assert!((c.residue_pos - 351_360.0).abs() < 1e-6);
        assert_eq!(c.residue_neg, 0.0);
        assert!((c.cp - 4_392_000.0).abs() < 1e-3);
        assert_eq!(c.cn, 0.0);
        // The next interval is the average RTT long, and the sums restart.
        assert!((c.te_at - 0.15).abs() < 1e-12);
        assert_eq!((c.input_bytes, c.sum_x), (0.0, 0.0));

        // A's packet leaving: Cp x = 43,920 bytes/s, within the budget, and
        // below what A asked for, so this router controls it.
        let mut h = data(0.1, 0.01, 1e24);
        c.on_departure(1000.0, &mut h);
        assert!((h.delta_throughput - 43_920.0).abs() < 1e-6);
        assert_eq!(h.controlling_hop, 0);
        assert!((c.residue_pos - 307_440.0).abs() < 1e-6);
        // Per RTT each flow gets Cp x per packet times window packets:
        // 43,920 * 10 = 87,840 * 5: the same for both, whatever their rates.
        let mut hb = data(0.1, 0.02, 1e24);
        c.on_departure(1000.0, &mut hb);
        assert!((hb.delta_throughput * 5.0 - h.delta_throughput * 10.0).abs() < 1e-6);
    }

    /// An upstream router asked for less than this one would give: the
    /// packet keeps the smaller value, this router spends only that much
    /// of its positive budget (and as much negative as it had to take).
    ///
    /// Cp = 100, Cn = 1 on a 1000-byte packet with x = 1: pos = 100,
    /// neg = 1000 (budgets 5000 each), feedback = -900.  Upstream asked for
    /// -2000 < -900: neg = min(5000, 1000 + (-900 + 2000)) = 2100, pos =
    /// -2000 + 2100 = 100.  Budgets left: 4900 and 2900.
    #[test]
    fn upstream_feedback_smaller_is_kept() {
        let mut c = Controller::new(3, 1e9, 1e9, 1e9);
        c.cp = 100.0;
        c.cn = 1.0;
        c.residue_pos = 5000.0;
        c.residue_neg = 5000.0;
        let mut h = data(0.1, 1.0, -2000.0);
        h.controlling_hop = 7;
        c.on_departure(1000.0, &mut h);
        assert_eq!(h.delta_throughput, -2000.0);
        assert_eq!(h.controlling_hop, 7);
        assert_eq!((c.residue_pos, c.residue_neg), (4900.0, 2900.0));
        // A packet without an RTT gets no feedback.
        let mut z = data(0.0, 1.0, 1e24);
        c.on_departure(1000.0, &mut z);
        assert_eq!(z.delta_throughput, 0.0);
    }

    /// An exhausted budget turns its coefficient off; a standing queue
    /// makes phi negative.  Capacity 100,000 bytes/s, an interval of 0.05 s
    /// with 5000 bytes in (100,000 bytes/s, the link full), a persistent
    /// queue of 4520 bytes, avg_rtt 0.05 (the default: no RTTs seen):
    /// phi = 0 - 0.226 * 4520 / 0.05 = -20,430.4; shuffled 10,000 <
    /// |phi|: 0.  residue_neg = 20,430.4, Cn = 20,430.4 / 5000 = 4.08608.
    #[test]
    fn standing_queue_gives_negative_feedback() {
        let mut c = Controller::new(0, 0.01, 0.05, 1e9);
        c.capacity = 100_000.0;
        c.running_min_queue = 4520.0;
        c.on_arrival(5000.0, &XcpHdr { kind: XcpKind::Enabled, ..XcpHdr::default() });
        c.catch_up(0.05, 4520.0, 5);
        // Tq ran first (0.01, 0.035, ...): the persistent queue is 4520,
        // and Tq = (0.05 - 4520 / 100,000) / 2 = 0.0024.
        assert_eq!(c.queue_bytes, 4520.0);
        assert!((c.tq - 0.0024).abs() < 1e-12);
        assert!((c.residue_neg - 20_430.4).abs() < 1e-6);
        assert_eq!(c.residue_pos, 0.0);
        assert!((c.cn - 4.08608).abs() < 1e-9);
        let mut h = data(0.05, 0.01, 1e24);
        c.cp = 0.0;
        c.on_departure(1000.0, &mut h);
        assert!((h.delta_throughput + 4086.08).abs() < 1e-6);
    }
}
