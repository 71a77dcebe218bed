//! The simulation: a world (clock, packets, outputs, random numbers) and a
//! table of objects wired together like ns-2's `NsObject` graph.
//!
//! ns-2 moves a packet by calling `target_->recv(p, h)` synchronously from
//! object to object (connector → trace → queue → link ...); only links and
//! timers put time between two objects.  `Sim::recv` does the same with an
//! index-based loop: pass-through objects (connectors, traces, TTL checkers,
//! snoops, node classifiers) are handled in place; agents are taken out of
//! the table while they run so that they can hand packets on to other
//! objects, while a queue's steps are `Queue` methods over the queue and
//! the world (its discipline's verdicts say what to drop) and the queue
//! stays in the table (a packet re-entering it is handled at once, not
//! deferred).  The common shapes (link to node to queue
//! or agent) have a straight-line path (`arrive`, `agent_send`, `at_node`).  Dispatch is a `match` on the object
//! kind: no dynamic dispatch in the hot loop.

use crate::agent::{Agent, AgentKind};
use crate::objs::*;
use crate::packet::{PacketPool, PktId};
use crate::notice::{Notice, Warning};
use crate::qdisc::{Queue, Verdict};
use crate::random::RngSet;
use crate::routing::Routing;
use crate::errmodel::{HashStep, Place};
use crate::sched::{Fired, ObjId, ResumeId, Scheduler};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// "No object" (a null target).
pub const NONE: ObjId = u32::MAX;

/// Output written by the engine for one Tcl channel, buffered until the
/// front end drains it into the channel (keeping ns-2's write order with
/// the script's own `puts`).
///
/// A channel can instead be *recorded*: its packet events are kept as typed
/// columns (`events`) rather than formatted as trace lines, for the Python
/// API's data frames (no text is written or parsed for them).  Anything else
/// written to it (variable traces) stays text.
pub struct Outputs {
    bufs: Vec<Vec<u8>>,
    names: Vec<String>,
    recorded: Vec<bool>,
    /// Packet events of the recorded channels, in order.
    pub events: crate::trace::Events,
    /// Bytes buffered over all channels.
    pub pending: usize,
    /// Yield to the front end when this much output is buffered.
    flush_at: usize,
    /// `flush_at`, or 0 while the world wants attention (a Tcl call or a
    /// halt, `World::attend`): the run loop's one test per event,
    /// `pending >= yield_at`, covers both.  Atomic so that another thread
    /// can stop the run (`Interrupter`); its relaxed loads and stores are
    /// plain moves.
    yield_at: AtomicUsize,
    /// An `Interrupter` asked the run to return (`Yield::Interrupted`).
    interrupted: AtomicBool,
    /// Formats what the trace points see (taken out while it writes).
    tracer: Option<Box<dyn crate::trace::Tracer>>,
    /// Packet captures of the traced links (`crate::pcap`), when asked for.
    pub pcap: Option<Box<crate::pcap::Capture>>,
    /// Where output goes when one event writes more than `spill_limit`
    /// (`set_spill`): the run cannot yield in the middle of an event, so
    /// `append` hands what is buffered to the front end there and then.
    spill: Option<Spill>,
    /// `spill_limit` while a spill is set and has not failed; otherwise
    /// `usize::MAX` (`append`'s one extra compare never passes).
    spill_at: usize,
    spill_limit: usize,
    /// What the front end answers in the middle of an event
    /// (`set_mid_event`, `look_mid_event`).
    mid_event: Option<Box<dyn MidEvent>>,
    /// Calls of `look_mid_event` left before it asks `mid_event`.
    mid_event_in: u32,
    /// `set_stopped_in_event`.
    stopped_in_event: bool,
}

/// How often `Outputs::look_mid_event` asks (packets made): 4,096
/// packets take milliseconds even in a runaway burst, and a run of ordinary
/// scenarios asks a few times a second.
const MID_EVENT_EVERY: u32 = 1 << 12;

/// A front end's answer to a stop that is due in the middle of an event
/// (`Outputs::look_mid_event`): a Ctrl-C or a wall-clock limit while one
/// event sends without end (a UDP agent asked for 2^31 bytes at once
/// makes two million packets before the event returns) cannot wait for
/// the run to yield.
pub trait MidEvent {
    /// Is a stop due now?  Asked every 4,096 packets agents make: it must
    /// be cheap.
    fn due(&mut self) -> bool;
    /// Stop here (what was buffered has just gone to the spill).  It
    /// ends the process, or unwinds (`std::panic::resume_unwind`) to a
    /// front end that then keeps the simulation from running on
    /// (`Outputs::set_stopped_in_event`); if it returns, the event goes on.
    fn stop(&mut self);
}

/// Writes one channel's buffered output (name, bytes) where the front end
/// would have drained it; `false` if it could not (the bytes stay buffered,
/// and the front end's next drain meets the same error).
pub type Spill = Box<dyn FnMut(&str, &[u8]) -> bool>;

impl Default for Outputs {
    fn default() -> Self {
        Outputs {
            bufs: Vec::new(),
            names: Vec::new(),
            recorded: Vec::new(),
            events: Default::default(),
            pending: 0,
            flush_at: 4 << 20,
            yield_at: AtomicUsize::new(4 << 20),
            interrupted: AtomicBool::new(false),
            tracer: Some(Box::new(crate::trace::NullTracer)),
            pcap: None,
            spill: None,
            spill_at: usize::MAX,
            spill_limit: usize::MAX,
            mid_event: None,
            mid_event_in: MID_EVENT_EVERY,
            stopped_in_event: false,
        }
    }
}

impl Outputs {
    /// Let `f` write with the tracer (`Tracer` methods take the outputs).
    #[inline]
    pub fn with_tracer(&mut self, f: impl FnOnce(&mut dyn crate::trace::Tracer, &mut Outputs)) {
        if let Some(mut t) = self.tracer.take() {
            f(&mut *t, self);
            self.tracer = Some(t);
        }
    }

    /// Format traces with `t` from now on.
    pub fn set_tracer(&mut self, t: Box<dyn crate::trace::Tracer>) {
        self.tracer = Some(t);
    }

    /// The tracer, as its own type (for its front end to reach its state).
    pub fn tracer_mut<T: crate::trace::Tracer>(&mut self) -> Option<&mut T> {
        self.tracer.as_mut().and_then(|t| t.as_any_mut().downcast_mut::<T>())
    }

    /// Id of the channel named `name` (a Tcl channel such as `file3`).
    pub fn channel(&mut self, name: &str) -> u32 {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i as u32;
        }
        self.names.push(name.to_string());
        self.bufs.push(Vec::with_capacity(1 << 16));
        self.recorded.push(false);
        (self.names.len() - 1) as u32
    }

    /// Record the packet events of channel `name` as columns from now on.
    pub fn set_recorded(&mut self, name: &str) {
        let id = self.channel(name);
        self.recorded[id as usize] = true;
    }

    #[inline]
    pub fn is_recorded(&self, id: u32) -> bool {
        self.recorded[id as usize]
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// The buffer of channel `id`, for tests to read (writers go through
    /// `append`, which counts what they write).
    #[cfg(test)]
    pub fn buf(&mut self, id: u32) -> &mut Vec<u8> {
        &mut self.bufs[id as usize]
    }

    /// The run yields so that the front end drains what is buffered.
    #[inline(always)]
    pub fn full(&self) -> bool {
        self.pending >= self.flush_at
    }

    /// Yield to the front end once `bytes` are buffered (4 MB unless set).
    pub fn set_flush_at(&mut self, bytes: usize) {
        self.flush_at = bytes;
        if *self.yield_at.get_mut() != 0 {
            *self.yield_at.get_mut() = bytes;
        }
    }

    /// Should the run loop stop to look (output is full, or the world
    /// wants attention)?
    #[inline(always)]
    fn stop(&self) -> bool {
        self.pending >= self.yield_at.load(Relaxed)
    }

    /// Append to channel `id` what `f` writes, and count it (`buf` and
    /// `wrote` in one).  Past the spill limit (within one event: the run
    /// yields to drain long before, at `flush_at`), what is buffered goes
    /// to the spill at once.
    #[inline(always)]
    pub fn append(&mut self, id: u32, f: impl FnOnce(&mut Vec<u8>)) {
        let buf = &mut self.bufs[id as usize];
        let start = buf.len();
        f(buf);
        self.pending += buf.len() - start;
        if self.pending >= self.spill_at {
            self.spill_now();
        }
    }

    /// Hand what is buffered to `spill` whenever more than `limit` bytes
    /// are, even in the middle of an event (ns-2 writes each line to its
    /// Tcl channel as it goes, so one event that writes without end, such
    /// as a CBR burst of 2^31 bytes, must not hold it all in memory).
    /// Channels are written in the order `drain` takes them, so the bytes
    /// reaching each channel are the same.
    pub fn set_spill(&mut self, spill: Spill, limit: usize) {
        self.spill = Some(spill);
        self.spill_limit = limit;
        self.spill_at = limit;
    }

    /// Have `m` answer stops in the middle of events (`look_mid_event`).
    pub fn set_mid_event(&mut self, m: Box<dyn MidEvent>) {
        self.mid_event = Some(m);
    }

    /// Has a front end set a `MidEvent`?
    pub fn has_mid_event(&self) -> bool {
        self.mid_event.is_some()
    }

    /// Remove the `MidEvent`, if any.
    pub fn clear_mid_event(&mut self) {
        self.mid_event = None;
    }

    /// The run was stopped in the middle of an event (a `MidEvent` that
    /// unwound): the simulation's state is one no complete event leaves,
    /// so a front end must not run it on.
    pub fn set_stopped_in_event(&mut self) {
        self.stopped_in_event = true;
    }

    pub fn stopped_in_event(&self) -> bool {
        self.stopped_in_event
    }

    /// Where one event may make packets without end (`AgentBase::allocpkt`):
    /// every `MID_EVENT_EVERY` calls, ask the front end whether a stop is
    /// due (a Ctrl-C, a wall-clock limit), and if so spill what is
    /// buffered and stop.  A count, not the `Interrupter`'s flag: the
    /// event may be running inside a Tcl command (`$cbr start`), outside
    /// any `run`.  Nothing about the simulation changes unless it stops.
    #[inline(always)]
    pub fn look_mid_event(&mut self) {
        self.mid_event_in -= 1;
        if self.mid_event_in == 0 {
            self.mid_event_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn mid_event_now(&mut self) {
        self.mid_event_in = MID_EVENT_EVERY;
        let Some(mut m) = self.mid_event.take() else { return };
        if m.due() {
            self.spill_now();
            m.stop();
        }
        self.mid_event = Some(m);
    }

    #[cold]
    #[inline(never)]
    fn spill_now(&mut self) {
        let Some(f) = self.spill.as_mut() else {
            self.spill_at = usize::MAX;
            return;
        };
        for (i, b) in self.bufs.iter_mut().enumerate() {
            if b.is_empty() {
                continue;
            }
            if !f(&self.names[i], b) {
                // Keep the rest for the front end's drain (which reports
                // the error) and stop spilling until then.
                self.spill_at = usize::MAX;
                *self.yield_at.get_mut() = 0;
                return;
            }
            self.pending -= b.len();
            b.clear();
        }
    }

    /// Take what is buffered for every channel that has output.
    pub fn drain(&mut self) -> Vec<(String, Vec<u8>)> {
        let mut v = Vec::new();
        for (i, b) in self.bufs.iter_mut().enumerate() {
            if !b.is_empty() {
                let data = std::mem::replace(b, Vec::with_capacity(1 << 16));
                v.push((self.names[i].clone(), data));
            }
        }
        self.pending = 0;
        if self.spill.is_some() {
            self.spill_at = self.spill_limit;
        }
        v
    }
}

/// Everything objects share: scheduler, packets, outputs, random numbers.
pub struct World {
    /// Private to the crate, as the simulation's world is (`Sim::w`): the
    /// objects hold ids of the scheduler's tables, which it indexes
    /// unchecked (`PipeId`), so no code outside the crate may replace or
    /// swap it.  `sched` reads it.
    pub(crate) s: Scheduler,
    pub(crate) pool: PacketPool,
    pub out: Outputs,
    /// ns-2's `Agent::uidcnt_`: the next packet uid.
    pub uidcnt: i32,
    pub rng: RngSet,
    /// What the front end must act on after the current event: `notify`
    /// adds, `take_notices` takes.
    notices: Vec<crate::notice::Notice>,
    /// A `NoSlot` is among `notices`: the front end ends the run there
    /// (ns-2's no-slot handler exits), so a burst of packets sent within
    /// the same event to nowhere adds no more (`Sim::no_slot`).
    no_slot_pending: bool,
    /// Warnings for the front end to report (each once).
    pub warnings: Vec<crate::notice::Warning>,
    /// What ns-2's C++ code prints with `printf`: C stdio's buffer, which
    /// reaches stdout after Tcl's own channels are flushed at exit.
    pub c_stdout: Vec<u8>,
    halted: bool,
    pub routing: Routing,
    /// The script was written for ns-2's New-ECN patch (it set a sink's
    /// `windowOptionS_` to 8): `windowOption_ 8` means New-ECN.
    pub newecn_compat: bool,
    /// `$ns run` has started the simulation (ns-2's `is-started`).
    pub started: bool,
    /// What the Linux-style senders share (`cc::Shared`: ns-2's
    /// `tcp_time_stamp`, the modules' parameter defaults).
    pub linux: crate::cc::Shared,
    /// Quick-Start's rate encoding (one for the simulation).
    pub qs_rate_code: crate::quickstart::RateCode,
    /// A Quick-Start router exists: every queue keeps its utilization.
    pub qs_meters: bool,
    /// LAN MACs made so far: the next one's address (lan/).
    pub macs: i32,
    /// The snoop agents' count of duplicate ACKs under their threshold
    /// (snoop.cc's function-static `thresh`, one for the run).
    pub snoop_thresh: i32,
}

impl World {
    /// Tell the front end `n` after the current event (the run yields for
    /// it).
    pub fn notify(&mut self, n: crate::notice::Notice) {
        self.notices.push(n);
        self.attend();
    }

    /// Have the run loop look at `halted` and `notices` after the current
    /// event.  It folds into the loop's test of the output buffer
    /// (`Outputs::yield_at`): one load and compare per event instead of
    /// that and a flag.
    #[inline(always)]
    fn attend(&mut self) {
        *self.out.yield_at.get_mut() = 0;
    }

    /// The run loop stopped to look (`Outputs::stop`): why it must
    /// return, if it must; otherwise the loop's test is re-armed.  Out of
    /// line: it is rare, and the loop keeps its registers.
    #[cold]
    #[inline(never)]
    fn attended(&mut self) -> Option<Yield> {
        if self.halted {
            self.halted = false;
            return Some(Yield::Halted);
        }
        if !self.notices.is_empty() || self.out.full() {
            return Some(Yield::Service);
        }
        if self.out.interrupted.swap(false, Relaxed) {
            return Some(Yield::Interrupted);
        }
        *self.out.yield_at.get_mut() = self.out.flush_at;
        None
    }

    /// An event was scheduled with a negative delay (`Fired::Backwards`).
    #[cold]
    #[inline(never)]
    fn went_backwards(&mut self) {
        let (at, delay) = self.s.backwards().unwrap_or((self.s.now, f64::NAN));
        self.abort(crate::notice::Abort::NegativeDelay { at, delay });
    }

    /// Stop the run after the current event, for the reason `why`, where
    /// ns-2 exits or aborts.
    #[cold]
    pub fn abort(&mut self, why: crate::notice::Abort) {
        self.notify(crate::notice::Notice::Abort(why));
    }

    /// The notices given so far, in order.
    pub fn take_notices(&mut self) -> Vec<crate::notice::Notice> {
        self.no_slot_pending = false;
        std::mem::take(&mut self.notices)
    }

    /// Are notices waiting?
    pub fn has_notices(&self) -> bool {
        !self.notices.is_empty()
    }

    /// Stop the run at the next event (`$ns halt`).
    pub fn halt(&mut self) {
        self.halted = true;
        self.attend();
    }

    fn new() -> World {
        World {
            s: Scheduler::new(),
            pool: PacketPool::new(),
            out: Outputs::default(),
            uidcnt: 0,
            rng: RngSet::new_ns2_default(),
            notices: Vec::new(),
            no_slot_pending: false,
            warnings: Vec::new(),
            c_stdout: Vec::new(),
            halted: false,
            routing: Routing::default(),
            newecn_compat: false,
            qs_rate_code: Default::default(),
            qs_meters: false,
            macs: 0,
            snoop_thresh: 0,
            started: false,
            linux: crate::cc::Shared::default(),
        }
    }

    #[inline]
    /// The scheduler, to read (the clock, events dispatched).
    pub fn sched(&self) -> &Scheduler {
        &self.s
    }

    pub fn now(&self) -> f64 {
        self.s.now
    }

    /// A world with ns-2's start-up state, for unit tests.
    #[cfg(test)]
    pub fn new_for_tests() -> World {
        World::new()
    }

    /// Report `w` (once).
    pub fn warn(&mut self, w: crate::notice::Warning) {
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// A warning of the front end's own, in its words.
    pub fn warn_once(&mut self, msg: String) {
        self.warn(crate::notice::Warning::Front(msg));
    }
}

/// One engine object (one cache line each).
#[repr(align(64))]
pub enum Obj {
    /// Removed (or never created).
    Empty,
    /// Temporarily out of the table while it runs.
    Taken,
    Connector(Connector),
    Ttl(TtlChecker),
    Trace(Trace),
    Queue(Box<Queue>),
    Link(DelayLink),
    Node(Node),
    Snoop(Snoop),
    QueueMonitor(Box<QueueMonitor>),
    Integrator(Integrator),
    Agent(Box<Agent>),
    App(App),
    Rng(u32),
    ErrModel(Box<crate::errmodel::ErrorModel>),
    HashClassifier(Box<crate::errmodel::HashClassifier>),
    /// An `ErrorModule`: packets go to its classifier.
    ErrModule { classifier: ObjId, target: ObjId, drop_target: ObjId },
    Samples(crate::objs::Samples),
    RanVar(Box<crate::ranvar::RanVar>),
    /// A dynamic link's up/down gate (`DynamicLink`).
    Dynamic(DynLink),
    /// The route logic (`RouteLogic`): commands on the world's routing.
    RouteLogic,
    /// An object that exists only so Tcl can hold a name (e.g. a classifier
    /// ns-2 builds inside a node).  Packets sent to it are forwarded.
    Proxy(ObjId),
    /// A `Delayer` between a queue and its link (delayer.rs).
    Delayer(Box<crate::delayer::Delayer>),
    /// A part of the wireless model (wireless/).
    Wireless(crate::wireless::Part),
    /// A node's Quick-Start entry: the packet goes through the router
    /// agent's approval (`quickstart.rs`), then on to its node.
    QsEntry(ObjId),
    /// Per-flow delay, loss and speed in front of a node (flowdelay.rs).
    FlowDelay(Box<crate::flowdelay::FlowDelay>),
    /// A traffic trace's records, which trace-driven sources read
    /// (tracesrc.rs).
    Records(Box<crate::tracesrc::Records>),
    /// A part of a wired LAN (lan/).
    Lan(Box<crate::lan::Part>),
}

const _: () = assert!(std::mem::size_of::<Obj>() == 64);

/// Why `run` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Yield {
    /// A `$ns at` callback is due (its uid).
    Tcl(u64),
    /// The engine queued Tcl calls or output; drain and resume.
    Service,
    /// `$ns halt` was called.
    Halted,
    /// No events left.
    Done,
    /// An `Interrupter` asked the run to return between two events (the
    /// front end checks for a signal or a limit, then may run on: nothing
    /// about the simulation changes).
    Interrupted,
}

/// Stops a running `Sim` between two events, from another thread or a
/// signal handler: its `interrupt` is two atomic stores.  Made by
/// `Sim::interrupter`; it points into the `Sim`, so it may be used only
/// while that `Sim` is neither moved nor dropped (the caller's promise:
/// `interrupt` is `unsafe`).
#[derive(Clone, Copy, Debug)]
pub struct Interrupter {
    yield_at: *const AtomicUsize,
    flag: *const AtomicBool,
}

// SAFETY: it only performs atomic stores, valid under `interrupt`'s contract.
unsafe impl Send for Interrupter {}
unsafe impl Sync for Interrupter {}

impl Interrupter {
    /// Ask the run to return `Yield::Interrupted` after the current event.
    ///
    /// # Safety
    /// The `Sim` it was made from must still be where it was made (not
    /// moved, not dropped).
    pub unsafe fn interrupt(&self) {
        (*self.flag).store(true, Relaxed);
        (*self.yield_at).store(0, Relaxed);
    }
}

/// The simulation.
pub struct Sim {
    /// Private to the crate (see `World::s`); `world` reads it, and the
    /// methods below do what the front ends need of it.
    pub(crate) w: World,
    pub(crate) objs: Vec<Obj>,
    pub names: Vec<String>,
    pub by_name: std::collections::HashMap<String, ObjId>,
    /// Lists of settings a front end registered to give each new object of
    /// a kind (the ns-2 layer: class defaults).
    pub defaults: Vec<Vec<(String, String)>>,
    /// A front end's tag of each object, `u16::MAX` if it gave none (the
    /// ns-2 layer: the object's class in its registry).
    pub tags: Vec<u16>,
}

/// `Routing::conn` of an object that is not a plain connector.
pub(crate) const NOT_CONNECTOR: ObjId = u32::MAX - 1;

impl Default for Sim {
    fn default() -> Self {
        Self::new()
    }
}

impl Sim {
    /// The world, to read.  Code outside the crate cannot change it
    /// wholesale, nor its scheduler (see `PipeId`):
    ///
    /// ```compile_fail
    /// let (mut a, mut b) = (dumbbell_engine::Sim::new(), dumbbell_engine::Sim::new());
    /// std::mem::swap(&mut a.w, &mut b.w);
    /// ```
    ///
    /// ```compile_fail
    /// let mut a = dumbbell_engine::Sim::new();
    /// a.w.s = dumbbell_engine::sched::Scheduler::new();
    /// ```
    pub fn world(&self) -> &World {
        &self.w
    }

    /// The routes (links and costs the front end declares).
    pub fn routing_mut(&mut self) -> &mut Routing {
        &mut self.w.routing
    }

    /// The output channels (drained, recorded, flushed by the front end).
    pub fn out_mut(&mut self) -> &mut Outputs {
        &mut self.w.out
    }

    /// Schedule a Tcl callback `delay` from now; its uid.
    pub fn schedule_tcl(&mut self, delay: f64) -> u64 {
        self.w.s.schedule_tcl(delay)
    }

    /// Cancel a Tcl callback by uid (false if it was unknown).
    pub fn cancel_tcl(&mut self, uid: u64) -> bool {
        self.w.s.cancel_tcl(uid)
    }

    /// Set the clock back to zero (`Scheduler run` does this before running).
    pub fn reset_clock(&mut self) {
        self.w.s.now = 0.0;
    }

    /// `$ns halt`.
    pub fn halt(&mut self) {
        self.w.halt();
    }

    /// `$ns run` has started the simulation.
    pub fn set_started(&mut self) {
        self.w.started = true;
    }

    /// Has the script-wide New-ECN switch (`World::newecn_compat`) made a
    /// sender New-ECN that did not ask for it (growth option 8 without its
    /// own New-ECN flag: HighSpeed otherwise)?  The binding warns then.
    pub fn newecn_compat_overrides_a_sender(&self) -> bool {
        self.w.newecn_compat
            && self.objs.iter().any(|o| matches!(o, Obj::Agent(a)
                if matches!(&a.kind, AgentKind::Tcp(t)
                    if t.sender.growth.is::<crate::tcp::growth::newecn::NewEcn>() && !t.sender.newecn)))
    }

    /// The notices the engine gave since the last call, in order.
    pub fn take_notices(&mut self) -> Vec<crate::notice::Notice> {
        self.w.take_notices()
    }

    /// What the engine printed with C's printf since the last call.
    pub fn take_c_stdout(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.w.c_stdout)
    }

    /// The whole `block`-byte blocks of what the engine printed that a C
    /// stdio buffer of that size would have written by now: a full buffer
    /// is written when the next byte comes, so the bytes beyond the last
    /// block boundary (or a full last block) stay.
    pub fn take_c_stdout_blocks(&mut self, block: usize) -> Vec<u8> {
        let n = self.w.c_stdout.len();
        if block == 0 || n <= block {
            return Vec::new();
        }
        let keep = (n - 1) / block * block;
        let rest = self.w.c_stdout.split_off(keep);
        std::mem::replace(&mut self.w.c_stdout, rest)
    }

    /// The warnings given since the last call.
    pub fn take_warnings(&mut self) -> Vec<crate::notice::Warning> {
        std::mem::take(&mut self.w.warnings)
    }

    pub fn new() -> Sim {
        Sim {
            w: World::new(),
            objs: Vec::new(),
            names: Vec::new(),
            by_name: Default::default(),
            defaults: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// Add an object under a Tcl name.
    pub fn add(&mut self, name: &str, mut obj: Obj) -> ObjId {
        let id = self.objs.len() as ObjId;
        if self.w.qs_meters {
            if let Obj::Queue(q) = &mut obj {
                q.meter_on();
            }
        }
        self.w.routing.conn.push(match &obj {
            Obj::Connector(c) => c.target,
            _ => NOT_CONNECTOR,
        });
        self.objs.push(obj);
        self.tags.push(u16::MAX);
        self.names.push(name.to_string());
        self.by_name.insert(name.to_string(), id);
        id
    }

    /// Give object `old` the name `new` (the Tcl side adopting an object
    /// the engine created, e.g. a flow of a flow monitor).
    pub fn rename(&mut self, old: &str, new: &str) -> Result<ObjId, String> {
        let id = self.by_name.remove(old).ok_or_else(|| format!("no object named \"{old}\""))?;
        self.names[id as usize] = new.to_string();
        self.by_name.insert(new.to_string(), id);
        Ok(id)
    }

    pub fn lookup(&self, name: &str) -> Option<ObjId> {
        self.by_name.get(name).copied()
    }

    pub fn name(&self, id: ObjId) -> &str {
        if id == NONE {
            ""
        } else {
            &self.names[id as usize]
        }
    }

    /// Take an object out of the table to run it.
    #[inline]
    pub fn take(&mut self, id: ObjId) -> Obj {
        std::mem::replace(&mut self.objs[id as usize], Obj::Taken)
    }

    #[inline]
    pub fn put(&mut self, id: ObjId, o: Obj) {
        let slot = &mut self.objs[id as usize];
        debug_assert!(matches!(slot, Obj::Taken));
        // The slot holds `Taken`, which owns nothing: overwrite it without
        // running a destructor.
        // SAFETY: `slot` is a valid, aligned `&mut Obj`.
        unsafe { std::ptr::write(slot, o) };
    }

    /// Hand packet `p` to object `to` (ns-2 `to->recv(p, h)`); `h` is the
    /// resume slot of the queue that sent it, if any.
    ///
    /// The kinds every packet meets (connectors, TTL checkers, nodes,
    /// queues, links, agents, snoops, traces) are handled here; the others
    /// in `recv_other`, kept out of line so that this loop stays small.
    pub fn recv(&mut self, mut to: ObjId, p: PktId, h: Option<ResumeId>) {
        loop {
            let Some(o) = self.objs.get_mut(to as usize) else {
                // NONE: ns-2 would crash on a null target; a trace object
                // with no target frees the packet ("hack" in trace.cc) and so
                // do we.
                self.w.pool.free(p);
                return;
            };
            match o {
                Obj::Connector(c) => {
                    to = c.target;
                }
                Obj::Ttl(t) => {
                    let (tick, target, drop_target) = (t.tick, t.target, t.drop_target);
                    if !self.ttl_pass(tick, drop_target, p) {
                        return;
                    }
                    to = target;
                    // A link's TTL checker feeds the next node: classify the
                    // packet here rather than through another dispatch.
                    if let Some(Obj::Node(_)) = self.objs.get(to as usize) {
                        match self.node_next(to, p, None) {
                            Some(next) => to = next,
                            None => return,
                        }
                    }
                }
                Obj::Node(_) => match self.node_next(to, p, None) {
                    Some(next) => to = next,
                    None => return,
                },
                Obj::Queue(_) => return self.queue_recv(to, p),
                Obj::Link(_) => return self.link_send(to, p, h),
                Obj::Agent(_) => return self.agent_recv(to, p),
                Obj::Snoop(s) => {
                    let (kind, mon, target) = (s.kind, s.monitor, s.target);
                    self.snoop(kind, mon, p);
                    to = target;
                }
                Obj::Trace(t) => {
                    t.write(&mut self.w, p);
                    to = t.target;
                }
                _ => match self.recv_other(to, p, h) {
                    Some(next) => to = next,
                    None => return,
                },
            }
        }
    }

    /// A packet arriving from a link (a pipe's event): the common shape, a
    /// link's TTL checker feeding a node, runs as straight-line code with
    /// predictable branches; anything else goes through `recv`.
    #[inline(always)]
    fn arrive(&mut self, to: ObjId, p: PktId) {
        if let Some(Obj::Ttl(t)) = self.objs.get(to as usize) {
            let (tick, node, drop_target) = (t.tick, t.target, t.drop_target);
            if let Some(Obj::Node(_)) = self.objs.get(node as usize) {
                // The TTL is tested here and stored by `node_next`, after it
                // has read the node and its route: a store to the packet
                // before that made the compiler look the node up again.
                let ttl = self.w.pool.get(p).ttl - tick;
                if ttl <= 0 {
                    self.drop_to(drop_target, p);
                } else {
                    self.at_node(node, p, Some(ttl));
                }
                return;
            }
        }
        self.recv(to, p, None)
    }

    /// `TTLChecker::recv`'s test: take `tick` off the packet's TTL; a packet
    /// left with none is dropped (false).
    #[inline(always)]
    fn ttl_pass(&mut self, tick: i32, drop_target: ObjId, p: PktId) -> bool {
        let pk = self.w.pool.get_mut(p);
        let ttl = pk.ttl - tick;
        if ttl <= 0 {
            self.drop_to(drop_target, p);
            return false;
        }
        pk.ttl = ttl;
        true
    }

    /// An agent's packet enters its node (`Agent::send`), by the same
    /// straight-line path as `arrive` when the agent's target is a node.
    #[inline(always)]
    pub fn agent_send(&mut self, to: ObjId, p: PktId) {
        if let Some(Obj::Node(_)) = self.objs.get(to as usize) {
            return self.at_node(to, p, None);
        }
        self.recv(to, p, None)
    }

    /// Node `node` classifies `p`; the usual next objects, a link's queue
    /// or a local agent, are entered directly.
    #[inline(always)]
    fn at_node(&mut self, node: ObjId, p: PktId, ttl: Option<i32>) {
        let Some(mut next) = self.node_next(node, p, ttl) else { return };
        loop {
            match self.objs.get_mut(next as usize) {
                Some(Obj::Queue(q)) => {
                    if q.pass_through(&mut self.w) {
                        let (target, slot) = (q.target, q.resume);
                        return self.queue_pass(next, target, slot, p);
                    }
                    return self.queue_enque(next, p);
                }
                Some(Obj::Agent(_)) => return self.agent_recv(next, p),
                // A queue monitor's arrival snoop in front of the queue.
                Some(Obj::Snoop(s)) => {
                    let (kind, mon, target) = (s.kind, s.monitor, s.target);
                    self.snoop(kind, mon, p);
                    next = target;
                }
                _ => return self.recv(next, p, None),
            }
        }
    }

    /// `Queue::recv`: enque `p` (or drop it), hand the next packet to the
    /// link if the link is free, and make the link's resume real if a
    /// packet waits (`settle`).
    ///
    /// The queue's own steps are `Queue` methods over the queue and the
    /// world; the packets they let go (drops, departures) go on from here,
    /// so the queue stays in the table.
    #[inline]
    fn queue_recv(&mut self, qid: ObjId, p: PktId) {
        let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
        if q.pass_through(&mut self.w) {
            // The queue is empty: nothing waits behind `p`.
            let (target, slot) = (q.target, q.resume);
            return self.queue_pass(qid, target, slot, p);
        }
        self.queue_enque(qid, p)
    }

    /// `queue_recv` when the packet does not pass straight through: enque
    /// (or drop), then send the head if the link is free.
    #[inline(never)]
    fn queue_enque(&mut self, qid: ObjId, p: PktId) {
        let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
        match q.enqueue(&mut self.w, p) {
            Verdict::Queued | Verdict::Marked => {}
            Verdict::Dropped(d) => {
                let drop_target = q.drop_target;
                self.drop_to(drop_target, d);
            }
            Verdict::EarlyDropped(d) => self.early_drop(qid, d),
            Verdict::Overflow => self.flush_overflow(qid),
            Verdict::Police => return self.queue_enque_policed(qid, p),
        }
        let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
        let next = q.send_next(&mut self.w);
        if q.has_drops() {
            return self.queue_resume_drops(qid, next);
        }
        match next {
            Some(next) => self.queue_send(qid, next),
            None => q.settle(&mut self.w),
        }
    }

    /// `queue_enque` for an arrival the discipline wants judged by its flow
    /// first (RED-PD: `Verdict::Police`, nothing done yet): the filter, then
    /// the discipline's enqueue if the packet passed, then the send.
    #[cold]
    #[inline(never)]
    fn queue_enque_policed(&mut self, qid: ObjId, p: PktId) {
        if !self.police(qid, p) {
            let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
            if let Some(d) = q.disc.get_mut::<crate::qdisc::RedPd>() {
                d.judged = true;
            }
            match q.enqueue(&mut self.w, p) {
                Verdict::Queued | Verdict::Marked | Verdict::Police => {}
                Verdict::Dropped(d) => {
                    let drop_target = q.drop_target;
                    self.drop_to(drop_target, d);
                }
                Verdict::EarlyDropped(d) => self.early_drop(qid, d),
                Verdict::Overflow => self.flush_overflow(qid),
            }
        }
        let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
        let next = q.send_next(&mut self.w);
        if q.has_drops() {
            return self.queue_resume_drops(qid, next);
        }
        match next {
            Some(next) => self.queue_send(qid, next),
            None => q.settle(&mut self.w),
        }
    }

    /// RED-PD's filter in front of queue `qid` (`RedPDQueue::enque`'s first
    /// part): find `p`'s flow in the queue's flow monitor and let the
    /// discipline judge it by the flow's policy.  True when `p` was dropped
    /// (a monitored drop: its trace, the flow monitor's count, then freed);
    /// the queue then goes on as after an enque.
    #[cold]
    #[inline(never)]
    fn police(&mut self, qid: ObjId, p: PktId) -> bool {
        let Obj::Queue(q) = &self.objs[qid as usize] else { unreachable!() };
        let fm = q.disc.get::<crate::qdisc::RedPd>().map_or(NONE, |d| d.flowmon);
        let cl = match self.objs.get(fm as usize) {
            Some(Obj::QueueMonitor(m)) => m.flowmon.as_ref().map_or(NONE, |f| f.classifier),
            _ => NONE,
        };
        let pk = self.w.pool.get(p);
        let flow = match self.objs.get(cl as usize) {
            Some(Obj::HashClassifier(c)) => c.classify(pk.saddr, pk.daddr, pk.fid),
            _ => None,
        };
        let Some(flow) = flow else {
            let msg = if cl == NONE {
                format!("the RED-PD queue {} has no flow monitor (with a classifier) to find a packet's flow in: \
                         give it one with makeflowmon or attach-flowmon before packets arrive (ns-2 aborts)", self.name(qid))
            } else {
                format!("the RED-PD queue {}'s flow monitor has no flow for a packet of flow {} ({} -> {}): \
                         attach the flow monitor to the queue's link (ns-2 aborts)", self.name(qid), pk.fid, pk.saddr, pk.daddr)
            };
            self.w.abort(crate::notice::Abort::Front(msg));
            return false;
        };
        // a flow of another class (or one not yet adopted) is not policed
        let (mut pol, est) = match &self.objs[flow as usize] {
            Obj::QueueMonitor(f) => match f.policy.as_deref() {
                Some(pl) => (*pl, f.est_rate),
                None => return false,
            },
            _ => return false,
        };
        let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
        let cap = q.cap;
        let Some(d) = q.disc.get_mut::<crate::qdisc::RedPd>() else { unreachable!() };
        let dropped = d.police(&cap, &mut self.w, &mut pol, est);
        let trace = d.drop_trace;
        if let Obj::QueueMonitor(f) = &mut self.objs[flow as usize] {
            if let Some(pl) = f.policy.as_deref_mut() {
                *pl = pol;
            }
        }
        if dropped {
            if trace != NONE {
                self.trace_only(trace, p);
            }
            self.mon_edrop(fm, p);
            self.w.pool.free(p);
        }
        dropped
    }

    /// Flow monitor `fm` counts a monitored drop of `p` (ns-2's
    /// `FlowMon::mon_edrop`): its own `mon_` counters then a drop's, and the
    /// same for `p`'s flow (whatever `enable_drop_` says).
    #[cold]
    fn mon_edrop(&mut self, fm: ObjId, p: PktId) {
        let cl = match &mut self.objs[fm as usize] {
            Obj::QueueMonitor(m) => {
                m.mon_edropped(self.w.pool.get(p));
                m.flowmon.as_ref().map_or(NONE, |f| f.classifier)
            }
            _ => return,
        };
        self.monitor_update(SnoopKind::Drop, fm, p);
        if cl == NONE {
            return;
        }
        if let Some(flow) = self.find_flow(cl, p) {
            if let Obj::QueueMonitor(f) = &mut self.objs[flow as usize] {
                f.mon_edropped(self.w.pool.get(p));
            }
            self.monitor_update(SnoopKind::Drop, flow, p);
        }
    }

    /// Send on what queue `qid`'s discipline dropped to make room for an
    /// arrival (`Verdict::Overflow`), in order, to the drop target; an FQ
    /// queue's (a DRR flow queue's drops) to where its flow queues drop,
    /// the early-drop target (FQLink's `$q drop-target $drpT_`).
    #[cold]
    #[inline(never)]
    fn flush_overflow(&mut self, qid: ObjId) {
        let Obj::Queue(q) = &self.objs[qid as usize] else { unreachable!() };
        let fq = q.disc.get::<crate::qdisc::FinishFq>().is_some();
        let mut i = 0;
        loop {
            let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
            let Some(p) = q.nth_drop(i) else { return };
            let drop_target = q.drop_target;
            i += 1;
            if fq {
                self.early_drop(qid, p);
            } else {
                self.drop_to(drop_target, p);
            }
        }
    }

    /// A discipline's early (AQM) drop: to the queue's early-drop target
    /// (through its early-drop trace) when it has one, else to its drop
    /// target (`REDQueue::enque`'s unforced drop).
    #[cold]
    #[inline(never)]
    fn early_drop(&mut self, qid: ObjId, p: PktId) {
        let Obj::Queue(q) = &self.objs[qid as usize] else { unreachable!() };
        let (target, trace, drop_target) = (q.early_drop_target, q.early_drop_trace, q.drop_target);
        if target != NONE {
            if trace != NONE {
                self.trace_only(trace, p);
            }
            self.recv(target, p, None);
        } else {
            self.drop_to(drop_target, p);
        }
    }

    /// The handler of resume slot `slot` runs (its event, or a delayer
    /// calling its queue back synchronously): a queue resumes, a delayer's
    /// target is free again.
    #[inline(always)]
    pub(crate) fn resume(&mut self, slot: ResumeId) {
        let owner = self.w.s.resume_owner(slot);
        self.queue_resume(owner)
    }

    /// `Queue::resume`: the link finished a packet (or, behind a delayer,
    /// the delayer let one go).  Inlined into the run loop, where it is hot.
    #[inline(always)]
    pub(crate) fn queue_resume(&mut self, qid: ObjId) {
        let Some(Obj::Queue(q)) = self.objs.get_mut(qid as usize) else { return self.resume_other(qid) };
        let next = q.resume_next(&mut self.w);
        if q.has_drops() {
            return self.queue_resume_drops(qid, next);
        }
        match next {
            Some(next) => self.queue_send(qid, next),
            None => q.settle(&mut self.w),
        }
    }

    /// `queue_resume` (or `queue_enque`'s send) when the discipline dropped
    /// packets while dequeuing (CoDel): they go on first, then the packet it
    /// returned.
    #[cold]
    #[inline(never)]
    fn queue_resume_drops(&mut self, qid: ObjId, next: Option<PktId>) {
        self.flush_drops(qid);
        match next {
            Some(p) => self.queue_send(qid, p),
            None => self.queue_settle(qid),
        }
    }

    /// Send on what queue `qid`'s discipline dropped in its last dequeue,
    /// in order, as early drops.
    #[cold]
    #[inline(never)]
    fn flush_drops(&mut self, qid: ObjId) {
        let mut i = 0;
        loop {
            let Obj::Queue(q) = &mut self.objs[qid as usize] else { unreachable!() };
            let Some(p) = q.nth_drop(i) else { return };
            i += 1;
            self.early_drop(qid, p);
        }
    }

    /// A resume slot whose owner is not a queue: a delayer's link finished.
    #[cold]
    #[inline(never)]
    fn resume_other(&mut self, owner: ObjId) {
        if let Some(Obj::Delayer(_)) = self.objs.get(owner as usize) {
            self.delayer_target_free(owner);
        }
    }

    /// Queue `qid` hands `p` to its target, then settles its resume.  The
    /// usual targets, its link directly or behind a queue monitor's
    /// departure snoop, are taken without `recv`'s dispatch loop; they leave
    /// the queue as it is, so it is settled from its state before the send.
    #[inline(always)]
    fn queue_send(&mut self, qid: ObjId, p: PktId) {
        let Obj::Queue(q) = &self.objs[qid as usize] else { unreachable!() };
        let (target, slot, waits) = (q.target, q.resume, q.needs_resume());
        if !self.queue_out(target, slot, waits, p) {
            self.queue_settle(qid);
        }
    }

    /// `queue_send` for a packet that passed straight through (the queue is
    /// empty: nothing waits behind it).
    #[inline(always)]
    fn queue_pass(&mut self, qid: ObjId, target: ObjId, slot: ResumeId, p: PktId) {
        if !self.queue_out(target, slot, false, p) {
            self.queue_settle(qid);
        }
    }

    /// Settle queue `qid` after a send through `recv` (its target was not
    /// its link: a trace, an error model, ...).
    fn queue_settle(&mut self, qid: ObjId) {
        if let Some(Obj::Queue(q)) = self.objs.get(qid as usize) {
            q.settle(&mut self.w);
        }
    }

    /// A queue (resume slot `slot`, `waits`: a packet is queued behind
    /// `p`) hands `p` to its `target`.  Its link, directly or behind a
    /// queue monitor's departure snoop, is entered here and the resume
    /// settled (true); any other target goes through `recv` and the caller
    /// settles the queue afterwards (false).
    #[inline(always)]
    fn queue_out(&mut self, target: ObjId, slot: ResumeId, waits: bool, p: PktId) -> bool {
        match self.objs.get_mut(target as usize) {
            Some(Obj::Link(l)) => Self::link_out(l, &mut self.w, p, Some(slot)),
            Some(Obj::Snoop(s)) => {
                let (kind, mon, link) = (s.kind, s.monitor, s.target);
                if !matches!(self.objs.get(link as usize), Some(Obj::Link(_))) {
                    self.recv(target, p, Some(slot));
                    return false;
                }
                self.snoop(kind, mon, p);
                self.link_send(link, p, Some(slot));
            }
            _ => {
                self.recv(target, p, Some(slot));
                return false;
            }
        }
        if waits {
            self.w.s.need_resume(slot);
        }
        true
    }

    /// Run agent `to`'s `recv`, out of the table (`Taken`) meanwhile, as
    /// `take`/`put` would.  Only the box moves: `take` copied the whole
    /// 64-byte `Obj` out and back for each packet an agent receives.
    #[inline(never)]
    fn agent_recv(&mut self, to: ObjId, p: PktId) {
        let slot = &mut self.objs[to as usize];
        let Obj::Agent(b) = slot else { return };
        // SAFETY: the box moves out of the slot, which is then overwritten
        // with `Taken` without a destructor: the box has one owner, `a`.
        let mut a: Box<Agent> = unsafe { std::ptr::read(b) };
        unsafe { std::ptr::write(slot, Obj::Taken) };
        a.recv(self, to, p);
        self.put(to, Obj::Agent(a));
    }

    /// `recv` for the kinds of object a packet rarely meets.  Returns where
    /// the packet goes next, or `None` when it has been dealt with.
    #[cold]
    #[inline(never)]
    fn recv_other(&mut self, to: ObjId, p: PktId, h: Option<ResumeId>) -> Option<ObjId> {
        match &mut self.objs[to as usize] {
            Obj::Proxy(t) => Some(*t),
            Obj::QsEntry(r) => {
                let r = *r;
                self.qs_entry(r, p)
            }
            Obj::Dynamic(d) => {
                if d.status != 0 {
                    Some(d.target)
                } else {
                    let dt = d.drop_target;
                    self.drop_to(dt, p);
                    None
                }
            }
            Obj::ErrModule { classifier, .. } => Some(*classifier),
            Obj::HashClassifier(c) => {
                let pk = self.w.pool.get(p);
                let (src, dst, fid) = (pk.saddr, pk.daddr, pk.fid);
                match c.find(src, dst, fid, true) {
                    Place::Target(t) => Some(t),
                    miss => {
                        self.hash_miss(to, p, h, miss);
                        None
                    }
                }
            }
            Obj::ErrModel(_) => self.errmodel_recv(to, p, h),
            Obj::Delayer(_) => {
                self.delayer_recv(to, p, h);
                None
            }
            Obj::FlowDelay(_) => {
                self.flowdelay_recv(to, p);
                None
            }
            // a mobile node's routing agent or entry (wireless/net.rs)
            Obj::Wireless(_) => {
                self.wireless_recv(to, p);
                None
            }
            Obj::Lan(_) => {
                self.lan_recv(to, p, h);
                None
            }
            Obj::Taken => {
                // Re-entry into an object that is running (an agent sending
                // to itself through its own node): deliver right after it.
                self.w.s.schedule(0.0, crate::sched::Ev::Deliver(to, p));
                None
            }
            Obj::Connector(_)
            | Obj::Ttl(_)
            | Obj::Node(_)
            | Obj::Queue(_)
            | Obj::Link(_)
            | Obj::Agent(_)
            | Obj::Snoop(_)
            | Obj::Trace(_) => unreachable!("handled by recv"),
            Obj::QueueMonitor(_)
            | Obj::Samples(_)
            | Obj::RanVar(_)
            | Obj::Integrator(_)
            | Obj::App(_)
            | Obj::Rng(_)
            | Obj::RouteLogic
            | Obj::Records(_)
            | Obj::Empty => {
                self.w.pool.free(p);
                None
            }
        }
    }

    /// An error model (`ErrorModel::recv`): corrupt the packet or not, then
    /// drop, mark, delay or pass it.  The draws come from the model's
    /// `ranvar` when it has one (`$em ranvar $rv`), else from the default RNG.
    fn errmodel_recv(&mut self, to: ObjId, p: PktId, h: Option<ResumeId>) -> Option<ObjId> {
        let Obj::ErrModel(em) = &self.objs[to as usize] else { unreachable!() };
        let rv_id = em.ranvar;
        // The variable leaves the table while it draws for the model.
        let rv = (rv_id != NONE).then(|| self.take(rv_id));
        let Obj::ErrModel(em) = &mut self.objs[to as usize] else { unreachable!() };
        let size = self.w.pool.get(p).size;
        if let Some(what) = em.trap(size) {
            // (the run ends after this event, as ns-2's ends here)
            self.w.abort(crate::notice::Abort::ErrorModel { model: to, what });
        }
        let now = self.w.s.now;
        let w = &mut self.w;
        let mut draw = || match &rv {
            Some(Obj::RanVar(r)) => r.value(w),
            _ => w.rng.default_stream().uniform_double(),
        };
        let corrupt = em.corrupt(size, now, &mut draw);
        let (target, drop_target, markecn, delay_pkt, delay, bandwidth, intr_until) =
            (em.target, em.drop_target, em.markecn, em.delay_pkt, em.delay, em.bandwidth, em.intr_until);
        if let Some(o) = rv {
            self.put(rv_id, o);
        }
        let error = match corrupt {
            Ok(e) => e,
            Err(problem) => {
                self.w.warn(Warning::ErrorModel { model: to, problem });
                false
            }
        };
        if let Some(slot) = h {
            if !markecn && !delay_pkt && ((error && drop_target != NONE) || target == NONE) {
                // The packet will not reach the link: the model
                // resumes the queue itself after a random time.
                let pending = intr_until.map_or(false, |k| self.w.s.current.before(k));
                if !pending {
                    let t = 8.0 * size as f64 / bandwidth;
                    if !(t >= 0.0 && t.is_finite()) {
                        // ns-2 divides by it here (0: a floating-point
                        // exception; negative: a delay into the past)
                        let what = crate::errmodel::Trap::Bandwidth(bandwidth);
                        self.w.abort(crate::notice::Abort::ErrorModel { model: to, what });
                    }
                    let d = self.w.rng.default_stream().uniform(8.0 * size as f64 / bandwidth);
                    let key = self.w.s.set_resume(slot, d);
                    if let Obj::ErrModel(em) = &mut self.objs[to as usize] {
                        em.intr_until = Some(key);
                    }
                }
            }
        }
        if error {
            if markecn {
                self.w.pool.get_mut(p).ecn_to_echo = true;
            } else if delay_pkt {
                if delay == f64::INFINITY {
                    let what = crate::errmodel::Trap::InfiniteDelay;
                    self.w.abort(crate::notice::Abort::ErrorModel { model: to, what });
                }
                self.w.s.schedule(delay, crate::sched::Ev::Deliver(target, p));
                return None;
            } else if drop_target != NONE {
                self.recv(drop_target, p, None);
                return None;
            }
        }
        Some(target)
    }

    /// A node's classifiers: the agent at the packet's port if the packet
    /// is addressed to this node, else the head of the link its route
    /// takes.  The plain connectors that start a link (its head) are
    /// skipped in the routing table (`Routing::next_head`), those after an
    /// agent's port here.  `None`: no slot (reported to Tcl, packet freed).  `ttl`:
    /// the packet's new TTL, to store (from `arrive`).
    #[inline(always)]
    fn node_next(&mut self, node: ObjId, p: PktId, ttl: Option<i32>) -> Option<ObjId> {
        let Obj::Node(n) = &self.objs[node as usize] else { unreachable!() };
        let pk = self.w.pool.get(p);
        let daddr = pk.daddr;
        let (nid, local) = (n.id, daddr == n.addr);
        let first = if local {
            n.port_target(pk.dport).map(|to| self.conn_walk(to))
        } else {
            // Resolved through the link's head connector already.
            self.w.routing.next_head(nid, daddr)
        };
        // The TTL `arrive` has taken off (see there).
        if let Some(t) = ttl {
            self.w.pool.get_mut(p).ttl = t;
        }
        if first.is_none() {
            self.no_slot(p, nid, local);
        }
        first
    }

    /// The end of the chain of plain connectors from `to`.
    #[inline(always)]
    fn conn_walk(&self, mut to: ObjId) -> ObjId {
        while let Some(&t) = self.w.routing.conn.get(to as usize) {
            if t == NOT_CONNECTOR {
                break;
            }
            to = t;
        }
        to
    }

    /// A connector's target was set: keep `Routing::conn`, and the heads
    /// resolved with it, in step.
    pub(crate) fn connector_target_set(&mut self, id: ObjId) {
        if let Obj::Connector(c) = &self.objs[id as usize] {
            self.w.routing.conn[id as usize] = c.target;
            self.w.routing.retarget();
        }
    }

    /// A delay link takes a packet: it arrives at the link's target after
    /// the transmission and propagation delays; the sending queue (resume
    /// slot `h`) may send again when the transmission is over.
    #[inline(always)]
    fn link_send(&mut self, link: ObjId, p: PktId, h: Option<ResumeId>) {
        let Obj::Link(l) = &mut self.objs[link as usize] else { unreachable!() };
        Self::link_out(l, &mut self.w, p, h)
    }

    /// `link_send` on the link itself.
    #[inline(always)]
    fn link_out(l: &mut DelayLink, w: &mut World, p: PktId, h: Option<ResumeId>) {
        let size = w.pool.get(p).size;
        let txt = l.txtime(size, &mut w.s);
        let target = l.target;
        let delay = l.delay;
        let pipe = l.pipe;
        if l.dynamic {
            w.s.pipe_send_fifo(pipe, txt + delay, p, target);
        } else if l.avoid_reordering {
            let now = w.s.now;
            if txt + delay < l.latest_time - now && l.latest_time > 0.0 {
                l.latest_time += txt;
                let d = l.latest_time - now;
                w.s.pipe_send(pipe, d, p, target);
            } else {
                l.latest_time = now + txt + delay;
                w.s.pipe_send(pipe, txt + delay, p, target);
            }
        } else {
            w.s.pipe_send(pipe, txt + delay, p, target);
        }
        if let Some(slot) = h {
            w.s.set_resume(slot, txt);
        }
    }

    /// Node `nid` has no target for packet `p`: its port demuxer has no
    /// agent at the packet's port (`local`), or its address classifier no
    /// route to the packet's destination.  ns-2 runs the classifier's
    /// `no-slot` handler, which reports, dumps the classifier, flushes the
    /// traces and exits with 1; the Tcl layer does the same right after the
    /// current event.
    #[cold]
    #[inline(never)]
    pub(crate) fn no_slot(&mut self, p: PktId, nid: i32, local: bool) {
        if !local {
            if let Some(node) = self.w.routing.hier.as_ref().and_then(|h| h.bases.iter().find(|b| b.0 == nid)).map(|b| b.1) {
                return self.wireless_from_wired(node, p);
            }
        }
        let pk = self.w.pool.get(p);
        let (uid, dport, daddr) = (pk.uid, pk.dport, pk.daddr);
        self.w.pool.free(p);
        // The first is the one ns-2 reports (it exits there); the rest of
        // a burst sent in the same event (2^31 one-byte packets from one
        // `send`) would only pile up notices, 589 MB for two million.
        if !self.w.no_slot_pending {
            self.w.no_slot_pending = true;
            self.w.notify(Notice::NoSlot { node: nid, local, port: dport, dest: daddr, uid });
        }
    }

    /// A snoop saw packet `p`: update its queue monitor (and, for a flow
    /// monitor, the packet's flow).
    #[inline]
    fn snoop(&mut self, kind: SnoopKind, mon: ObjId, p: PktId) {
        if mon == NONE {
            return;
        }
        // The common monitor (counters only: no integrators, delay samples,
        // flows, distributions or rate estimate) is updated here; the
        // others by `monitor_update`.
        if let Some(Obj::QueueMonitor(q)) = self.objs.get_mut(mon as usize) {
            if q.counts_only() {
                let now = self.w.s.now;
                let pk = self.w.pool.get(p);
                q.count(kind, now, pk, &mut self.w.out);
                return;
            }
        }
        self.snoop_full(kind, mon, p);
    }

    /// `snoop` for monitors with more than counters.
    #[inline(never)]
    fn snoop_full(&mut self, kind: SnoopKind, mon: ObjId, p: PktId) {
        let flowmon = self.monitor_update(kind, mon, p);
        if let Some(cl) = flowmon {
            let found = self.find_flow(cl, p);
            if found.is_none() {
                self.untagged_flow(mon, p);
            }
            if let Some(flow) = found {
                let pk = self.w.pool.get(p);
                let key = crate::objs::FlowKey { src: pk.saddr, dst: pk.daddr, fid: pk.fid, ptype: pk.ptype as i32 };
                let mut tagged = false;
                if let Obj::QueueMonitor(f) = &mut self.objs[flow as usize] {
                    f.flow = Some(key);
                    // a tagger's flow (`Tagger::in`) tags before counting
                    if let (Some(tb), SnoopKind::In) = (f.tb.as_mut(), kind) {
                        tagged = tb.tag(self.w.s.now, pk.size);
                    }
                    if let Some(pend) = f.pending.as_mut() {
                        if pend.event == self.w.s.current {
                            pend.snoops.push(crate::objs::PendingSnoop { kind, now: self.w.s.now, id: p, pkt: pk.clone() });
                        }
                    }
                }
                if tagged {
                    self.w.pool.get_mut(p).pri = true;
                }
                self.monitor_update(kind, flow, p);
            }
        }
    }

    /// A flow monitor found no flow for `p`: a tagger stops the run (ns-2
    /// would give the flow a token bucket with its class's defaults, which
    /// Dumbbell does not yet do), rather than leave the packet untagged.
    #[cold]
    fn untagged_flow(&mut self, mon: ObjId, p: PktId) {
        if matches!(&self.objs[mon as usize], Obj::QueueMonitor(q) if q.flowmon.as_ref().is_some_and(|f| f.tagger)) {
            let fid = self.w.pool.get(p).fid;
            let msg = format!("the tagger {} met a packet of flow {fid}, which has no token bucket: give every flow \
                               through a tagger its bucket before its packets arrive (Dumbbell does not yet make one \
                               with the class defaults, as ns-2 does)", self.name(mon));
            self.w.abort(crate::notice::Abort::Front(msg));
        }
    }

    /// Update one queue monitor; returns its flow classifier if it is a flow
    /// monitor that follows this kind of event.
    fn monitor_update(&mut self, kind: SnoopKind, mon: ObjId, p: PktId) -> Option<ObjId> {
        let now = self.w.s.now;
        let (bi, pi, ds, size, pkts, fm) = match &mut self.objs[mon as usize] {
            Obj::QueueMonitor(q) => {
                let pk = self.w.pool.get(p);
                if q.has_extras() {
                    // before counting: the rate estimate reads prevTime_
                    q.extras(kind, now, pk);
                }
                q.count(kind, now, pk, &mut self.w.out);
                let fm = q.flowmon.as_ref().and_then(|f| {
                    let on = match kind {
                        SnoopKind::In => f.enable_in,
                        SnoopKind::Out => f.enable_out,
                        SnoopKind::Drop => f.enable_drop,
                        SnoopKind::EDrop => f.enable_edrop,
                    };
                    if on && f.classifier != NONE {
                        Some(f.classifier)
                    } else {
                        None
                    }
                });
                (q.bytes_int_obj, q.pkts_int_obj, q.delay_samp, q.size as f64, q.pkts as f64, fm)
            }
            _ => return None,
        };
        // ns-2 updates the integrators before printing; printing does not
        // read them, so the order here is immaterial.
        if bi != NONE {
            if let Obj::Integrator(i) = &mut self.objs[bi as usize] {
                i.new_point(now, size);
            }
        }
        if pi != NONE {
            if let Obj::Integrator(i) = &mut self.objs[pi as usize] {
                i.new_point(now, pkts);
            }
        }
        if ds != NONE {
            // A monitor with delay samples stamps arrivals and samples the
            // time each packet spent until it departs.
            match kind {
                SnoopKind::In => self.w.pool.get_mut(p).timestamp = now,
                SnoopKind::Out => {
                    let delay = now - self.w.pool.get(p).timestamp;
                    if let Obj::Samples(s) = &mut self.objs[ds as usize] {
                        s.new_point(delay);
                    }
                }
                _ => {}
            }
        }
        fm
    }

    /// The flow object of packet `p` in flow classifier `cl`; a flow
    /// monitor's classifier creates flows it has not seen (what
    /// `makeflowmon`'s `unknown-flow` does in ns-2: the Tcl side adopts the
    /// new object right after the event).
    fn find_flow(&mut self, cl: ObjId, p: PktId) -> Option<ObjId> {
        let pk = self.w.pool.get(p);
        let (src, dst, fid) = (pk.saddr, pk.daddr, pk.fid);
        let (found, auto, policed) = match &self.objs[cl as usize] {
            Obj::HashClassifier(c) => (c.classify(src, dst, fid), c.auto_flow, c.auto_policed),
            _ => return None,
        };
        if found.is_some() || !auto {
            return found;
        }
        let n = self.objs.len();
        let mut f = QueueMonitor::new_flow(self.w.s.now);
        if policed {
            f.policy = Some(Box::default());
        }
        f.pending = Some(Box::new(crate::objs::PendingFlow { event: self.w.s.current, snoops: Vec::new() }));
        let flow = self.add(&format!("flow#{n}"), Obj::QueueMonitor(Box::new(f)));
        if let Obj::HashClassifier(c) = &mut self.objs[cl as usize] {
            let slot = c.install_next(flow);
            c.set_hash(src, dst, fid, slot as i64);
        }
        self.w.notify(Notice::NewFlow { classifier: cl, flow });
        Some(flow)
    }

    /// A hash classifier's miss (`Classifier::find` in ns-2): ns-2 calls
    /// the front end (`unknown-flow`, or `no-slot`) in the middle of the
    /// packet's journey and goes on with what it finds then.  The engine
    /// cannot call out mid-event: it holds the packet and notifies; the
    /// front end makes the calls right after the event and then places or
    /// drops the packet (`hash_place`).  A packet handed over by a queue
    /// that waits for it (`h`) is not held (its queue has moved on): it is
    /// dropped, and the notice carries no packet.
    #[cold]
    #[inline(never)]
    fn hash_miss(&mut self, cl: ObjId, p: PktId, h: Option<ResumeId>, miss: Place) {
        let pk = self.w.pool.get(p);
        let (src, dst, fid) = (pk.saddr, pk.daddr, pk.fid);
        let pkt = if h.is_none() {
            if let Obj::HashClassifier(c) = &mut self.objs[cl as usize] {
                c.held.push(p);
            }
            p
        } else {
            self.w.pool.free(p);
            PktId::NONE
        };
        self.w.notify(match miss {
            Place::NoSlot(slot) => Notice::ClassifierNoSlot { classifier: cl, slot, src, dst, fid, pkt },
            _ => Notice::UnknownFlow { classifier: cl, src, dst, fid, pkt },
        });
    }

    /// The front end's step for a packet hash classifier `cl` holds after a
    /// miss (`hash_miss`), as ns-2's `Classifier::find` goes on after each
    /// call-back: `AfterUnknown` (the look `HashClassifier::unknown` makes
    /// after `unknown-flow`, with the default target), `Again` (the second
    /// `classify` after a `no-slot` for slot -1, which may ask
    /// `unknown-flow` once more: `Place::Unknown`), `Last` (the look after
    /// that call), `Drop`.  The packet goes on to a target found (and the
    /// result is that target); otherwise it stays held (`Drop` frees it).
    /// `pkt` is the held packet's index; `None` (a packet not held) only
    /// computes where it would have gone, from `key` (src, dst, fid).
    pub fn hash_place(&mut self, cl: ObjId, pkt: Option<u32>, key: (i32, i32, i32), step: HashStep) -> Result<Place, String> {
        let Some(Obj::HashClassifier(c)) = self.objs.get_mut(cl as usize) else {
            return Err("not a hash classifier".into());
        };
        // only a packet it holds (ids from the front end are checked here)
        let held = match pkt {
            Some(i) => Some(c.held.iter().copied().find(|q| q.index() == i).ok_or_else(|| format!("packet {i} is not held by this classifier"))?),
            None => None,
        };
        let (src, dst, fid) = key;
        let place = match step {
            HashStep::AfterUnknown => c.after_unknown(src, dst, fid, true),
            HashStep::Again => c.find(src, dst, fid, false),
            HashStep::Last => c.after_unknown(src, dst, fid, false),
            HashStep::Drop => Place::NoSlot(-1),
        };
        if let Some(p) = held {
            if matches!(place, Place::Target(_)) || step == HashStep::Drop {
                c.held.retain(|&q| q != p);
                match place {
                    Place::Target(t) => self.recv(t, p, None),
                    _ => self.w.pool.free(p),
                }
            }
        }
        Ok(place)
    }

    /// Free the packets hash classifiers hold for a front end that makes no
    /// call-backs (the builder).
    pub fn drop_held(&mut self) {
        for i in 0..self.objs.len() {
            if let Obj::HashClassifier(c) = &mut self.objs[i] {
                for p in std::mem::take(&mut c.held) {
                    self.w.pool.free(p);
                }
            }
        }
    }

    /// The Tcl side adopting flow `placeholder` (made by `find_flow`) as
    /// split object `name`.  ns-2 makes a flow, with its class defaults,
    /// before counting the packet that revealed it; here the flow counted
    /// its first snoops without them.  Start it afresh (its key and those
    /// snoops kept) with the class defaults registered as `defaults`,
    /// applied as `init_defaults_ref` applies them to any new object;
    /// `settle_flow` then counts the snoops again.
    pub fn adopt_flow(&mut self, placeholder: &str, name: &str, defaults: u32) -> Result<ObjId, String> {
        let flow = self.rename(placeholder, name)?;
        let (pending, key) = match &mut self.objs[flow as usize] {
            Obj::QueueMonitor(f) if f.pending.is_some() => (f.pending.take(), f.flow),
            _ => return Err(format!("{placeholder} is not a flow waiting for adoption")),
        };
        let born = pending.as_ref().and_then(|p| p.snoops.first()).map_or(self.w.s.now, |s| s.now);
        let policed = matches!(&self.objs[flow as usize], Obj::QueueMonitor(f) if f.policy.is_some());
        let mut fresh = QueueMonitor::new(born);
        fresh.flow = key;
        if policed {
            fresh.policy = Some(Box::default());
        }
        self.objs[flow as usize] = Obj::QueueMonitor(Box::new(fresh));
        self.init_defaults_ref(flow, defaults)?;
        if let Obj::QueueMonitor(f) = &mut self.objs[flow as usize] {
            f.created(born);
            f.flow = key;
            f.pending = pending;
            f.refresh_plain();
        }
        Ok(flow)
    }

    /// The end of a flow's adoption (`adopt_flow`), once the Tcl side has
    /// given it its delay samples: count the snoops it saw before, as ns-2
    /// counted them with the flow's class defaults and delay samples.
    pub fn settle_flow(&mut self, flow: ObjId) -> Result<(), String> {
        let (pending, samples) = match &mut self.objs[flow as usize] {
            Obj::QueueMonitor(f) => match f.pending.take() {
                Some(p) => (p.snoops, f.delay_samp),
                None => return Ok(()),
            },
            _ => return Err("not a flow".into()),
        };
        let stamps_on = samples != NONE;
        // arrivals stamped by the flow's delay samples, by packet id
        let mut stamped: Vec<(PktId, f64)> = Vec::new();
        for s in pending.iter() {
            let mut pk = s.pkt.clone();
            if let Some(&(_, t)) = stamped.iter().rev().find(|(id, _)| *id == s.id) {
                pk.timestamp = t;
            }
            if let Obj::QueueMonitor(f) = &mut self.objs[flow as usize] {
                if f.has_extras() {
                    f.extras(s.kind, s.now, &pk);
                }
                f.count(s.kind, s.now, &pk, &mut self.w.out);
            }
            if stamps_on {
                match s.kind {
                    SnoopKind::In => stamped.push((s.id, s.now)),
                    SnoopKind::Out => {
                        if let Obj::Samples(smp) = &mut self.objs[samples as usize] {
                            smp.new_point(s.now - pk.timestamp);
                        }
                    }
                    SnoopKind::Drop | SnoopKind::EDrop => stamped.retain(|(id, _)| *id != s.id),
                }
            }
        }
        // Packets still on their way carry the stamp (a dropped one is gone;
        // its slot may already hold another packet, hence the uid).
        for (id, t) in stamped {
            let uid = pending.iter().rev().find(|s| s.id == id).map(|s| s.pkt.uid);
            let pk = self.w.pool.get_mut(id);
            if t == self.w.s.now && uid == Some(pk.uid) {
                pk.timestamp = t;
            }
        }
        Ok(())
    }

    /// Let a trace object write its line for `p` without passing the packet
    /// on (ns-2's `Trace::recvOnly`); a trace it targets writes too (RED's
    /// early-drop trace for nam is chained to the one for the packet trace).
    pub fn trace_only(&mut self, trace: ObjId, p: PktId) {
        let mut at = trace;
        while let Some(Obj::Trace(t)) = self.objs.get(at as usize) {
            t.write(&mut self.w, p);
            at = t.target;
        }
    }

    /// ns-2 `Connector::drop(p)`: to the drop target, or freed.
    #[inline]
    pub fn drop_to(&mut self, drop_target: ObjId, p: PktId) {
        if drop_target == NONE {
            self.w.pool.free(p);
        } else {
            self.recv(drop_target, p, None);
        }
    }

    /// The distribution settings of every queue monitor are usable (see
    /// `QueueMonitor::check_dists`; checked when `$ns run` starts).
    pub fn check_monitors(&self) -> Result<(), crate::objs::HistogramError> {
        for o in &self.objs {
            if let Obj::QueueMonitor(q) = o {
                q.check_dists()?;
            }
        }
        Ok(())
    }

    /// A handle that stops this run between two events (see `Interrupter`).
    pub fn interrupter(&self) -> Interrupter {
        Interrupter { yield_at: &self.w.out.yield_at, flag: &self.w.out.interrupted }
    }

    /// Run until a Tcl callback is due, output must be drained, the
    /// simulation halts, nothing is left, or an `Interrupter` asks.
    pub fn run(&mut self) -> Yield {
        self.w.started = true;
        loop {
            if self.w.out.stop() {
                if let Some(y) = self.w.attended() {
                    return y;
                }
            }
            let ev = match self.w.s.next() {
                Some(e) => e,
                None => return Yield::Done,
            };
            match ev {
                Fired::Packet(to, p) => {
                    self.w.pool.prefetch(self.w.s.hint);
                    self.arrive(to, p)
                }
                Fired::Resume(owner) => self.queue_resume(owner),
                Fired::Timer(t, owner, kind) => {
                    let mut o = self.take(owner);
                    match &mut o {
                        Obj::Agent(a) => a.timeout(self, owner, kind),
                        Obj::App(app) => {
                            let agent = app.agent;
                            if let Some(src) = app.source.as_mut() {
                                src.timeout(self, agent);
                            }
                        }
                        // a timer the queue's discipline owns (REM's price update)
                        Obj::Queue(q) => q.disc.timeout(&mut self.w),
                        // a mobile node's MAC timer (wireless/net.rs)
                        Obj::Node(_) => {
                            self.put(owner, o);
                            self.wireless_timeout(owner, kind);
                            self.w.s.timer_handled(t);
                            continue;
                        }
                        Obj::Delayer(_) | Obj::FlowDelay(_) | Obj::Lan(_) => {
                            // It must stay in the table while it runs (its
                            // queue calls it back, or a packet it forwards
                            // comes back): run it after `put`.
                            self.put(owner, o);
                            self.forwarder_timeout(owner, t, kind);
                            self.w.s.timer_handled(t);
                            continue;
                        }
                        _ => {}
                    }
                    self.put(owner, o);
                    self.w.s.timer_handled(t);
                }
                Fired::Tcl(uid) => return Yield::Tcl(uid),
                Fired::Backwards => self.w.went_backwards(),
            }
        }
    }

    /// A delayer's, a flow delay box's or a LAN MAC's timer (out of the
    /// run loop).
    #[cold]
    #[inline(never)]
    fn forwarder_timeout(&mut self, owner: ObjId, t: u32, kind: u8) {
        if let Obj::Delayer(_) = self.objs[owner as usize] {
            self.delayer_timeout(owner, kind);
        } else if let Obj::Lan(_) = self.objs[owner as usize] {
            self.lan_timeout(owner, kind);
        } else {
            self.flowdelay_timeout(owner, t);
        }
    }

    /// Mutable access to an agent by id (for Tcl commands).
    pub fn agent_mut(&mut self, id: ObjId) -> Option<&mut Agent> {
        match self.objs.get_mut(id as usize) {
            Some(Obj::Agent(a)) => Some(a),
            _ => None,
        }
    }

    /// Total packets currently alive (for conservation checks).
    pub fn live_packets(&self) -> usize {
        self.w.pool.live()
    }

    /// Reset an agent (ns-2 `$agent reset`).
    pub fn reset_agent(&mut self, id: ObjId) {
        let mut o = self.take(id);
        if let Obj::Agent(a) = &mut o {
            a.reset(self, id);
        }
        self.put(id, o);
    }

    /// The full-TCP end `id`, if it is one.
    pub fn socket(&self, id: ObjId) -> Option<&crate::socket::Socket> {
        match self.objs.get(id as usize) {
            Some(Obj::Agent(a)) => match &a.kind {
                AgentKind::Socket(s) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }

    /// The common fields of agent `id`, if it is one.
    pub fn agent_base(&self, id: ObjId) -> Option<&crate::agent::AgentBase> {
        match self.objs.get(id as usize) {
            Some(Obj::Agent(a)) => Some(&a.base),
            _ => None,
        }
    }

    /// Is the object an agent of the TCP family?
    pub fn is_tcp(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Agent(a) if matches!(a.kind, AgentKind::Tcp(_)))
    }

    /// Is the object a TCP sender whose `delay_bind_init_all` resets it
    /// once more after `TcpAgent`'s (RFC793edu, Vegas, two-way TCP: a
    /// second boot-time draw)?
    pub fn resets_twice(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Agent(a)
            if matches!(&a.kind, AgentKind::Tcp(t)
                if matches!(&t.flavor, crate::tcp::Flavor::Rfc793edu(_) | crate::tcp::Flavor::Vegas(_) | crate::tcp::Flavor::Full(_) | crate::tcp::Flavor::Bay(_))
                    || matches!(&t.flavor, crate::tcp::Flavor::Rbp(r) if matches!(r.paced, crate::tcp::rbp::Paced::Vegas(_)))))
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    /// An `Interrupter` makes the run return between two events, from
    /// another thread too; running on changes nothing; a negative delay
    /// becomes an abort notice.
    #[test]
    fn interrupts_return_between_events_and_change_nothing() {
        let mut sim = Sim::new();
        let uids: Vec<u64> = [1.0, 2.0].iter().map(|&d| sim.w.s.schedule_tcl(d)).collect();
        let i = sim.interrupter();
        // SAFETY: `sim` stays where it is until the thread has joined.
        std::thread::spawn(move || unsafe { i.interrupt() }).join().unwrap();
        assert_eq!(sim.run(), Yield::Interrupted);
        assert_eq!(sim.w.now(), 0.0);
        assert_eq!(sim.run(), Yield::Tcl(uids[0]));
        unsafe { sim.interrupter().interrupt() };
        assert_eq!(sim.run(), Yield::Interrupted);
        assert_eq!(sim.run(), Yield::Tcl(uids[1]));
        assert_eq!(sim.run(), Yield::Done);
        sim.w.s.schedule(-0.25, crate::sched::Ev::Tcl);
        assert_eq!(sim.run(), Yield::Service);
        assert_eq!(sim.w.take_notices(), vec![Notice::Abort(crate::notice::Abort::NegativeDelay { at: 2.0, delay: -0.25 })]);
    }

    /// The run loop's test per event (`Outputs::stop`: attention or output)
    /// still stops for Tcl calls, a halt and a full output buffer,
    /// whenever they come, and lets the run go on once they are served.
    #[test]
    fn run_stops_for_notices_halts_and_output() {
        let mut sim = Sim::new();
        for d in [1.0, 2.0, 3.0] {
            sim.w.s.schedule_tcl(d);
        }
        assert!(matches!(sim.run(), Yield::Tcl(_)));
        sim.w.notify(Notice::SenderDone { agent: 3 });
        assert_eq!(sim.run(), Yield::Service);
        assert_eq!(sim.run(), Yield::Service, "served only when taken");
        assert_eq!(sim.w.take_notices(), vec![Notice::SenderDone { agent: 3 }]);
        sim.w.halt();
        assert_eq!(sim.run(), Yield::Halted);
        assert!(matches!(sim.run(), Yield::Tcl(_)), "the halt is over");
        sim.w.out.set_flush_at(10);
        let ch = sim.w.out.channel("file1");
        sim.w.out.append(ch, |buf| buf.extend_from_slice(b"0123456789"));
        assert_eq!(sim.run(), Yield::Service);
        assert_eq!(sim.w.out.drain().len(), 1);
        assert!(matches!(sim.run(), Yield::Tcl(_)));
        assert_eq!(sim.run(), Yield::Done);
    }

    /// Output written within one event goes to the spill whenever more
    /// than its limit is buffered, in drain order; what reaches each
    /// channel (spilled, then drained) is exactly what was written.  A
    /// spill that fails keeps the rest for the drain and makes the run
    /// yield.
    #[test]
    fn spill_bounds_the_output_of_one_event() {
        use std::cell::RefCell;
        use std::rc::Rc;
        let got: Rc<RefCell<Vec<(String, Vec<u8>)>>> = Default::default();
        let fail = Rc::new(std::cell::Cell::new(false));
        let mut out = Outputs::default();
        let (a, b) = (out.channel("file1"), out.channel("file2"));
        let (g, f) = (got.clone(), fail.clone());
        out.set_spill(Box::new(move |name, data| {
            if f.get() {
                return false;
            }
            g.borrow_mut().push((name.to_string(), data.to_vec()));
            true
        }), 100);
        let mut want: [Vec<u8>; 2] = Default::default();
        let mut most = 0;
        for i in 0..1000 {
            let line = format!("line {i}\n");
            let ch = if i % 3 == 0 { b } else { a };
            want[ch as usize].extend_from_slice(line.as_bytes());
            out.append(ch, |buf| buf.extend_from_slice(line.as_bytes()));
            most = most.max(out.pending);
        }
        assert!(most < 100 + 10, "at most the limit and one line buffered, not {most}");
        assert!(got.borrow().len() > 50);
        let mut seen: [Vec<u8>; 2] = Default::default();
        for (name, data) in got.borrow().iter().cloned().chain(out.drain()) {
            seen[(name == "file2") as usize].extend_from_slice(&data);
        }
        assert_eq!(seen, want);
        // A failing spill: the bytes stay, the run is asked to yield, and
        // nothing more is spilled until the drain.
        fail.set(true);
        got.borrow_mut().clear();
        for _ in 0..30 {
            out.append(a, |buf| buf.extend_from_slice(b"0123456789"));
        }
        assert_eq!(out.pending, 300);
        assert!(out.stop());
        assert_eq!(out.drain(), vec![("file1".to_string(), b"0123456789".repeat(30))]);
        fail.set(false);
        for _ in 0..30 {
            out.append(a, |buf| buf.extend_from_slice(b"0123456789"));
        }
        assert!(out.pending < 100, "spilling again after the drain");
    }

    /// A flow the engine made keeps the snoops of the event that revealed
    /// it, for its adoption right after; if the adoption never comes (the
    /// script's `tkerror` let the run go on), later events add nothing.
    #[test]
    fn unadopted_flow_buffers_only_its_first_event() {
        let mut sim = Sim::new();
        let fm = sim.create("fm", "QueueMonitor/ED/Flowmon").unwrap();
        sim.create("cl", "Classifier/Hash/Fid").unwrap();
        let snoop = sim.create("in", "SnoopQueue/In").unwrap();
        sim.create("null", "Agent/Null").unwrap();
        sim.command(sim.lookup("cl").unwrap(), &["auto-flows"]).unwrap();
        sim.command(fm, &["classifier", "cl"]).unwrap();
        sim.command(snoop, &["set-monitor", "fm"]).unwrap();
        sim.command(snoop, &["target", "null"]).unwrap();
        let send = |sim: &mut Sim, time: f64, seq: u64| {
            sim.w.s.current = crate::sched::Key { time, seq };
            sim.w.s.now = time;
            let p = sim.w.pool.alloc();
            let pk = sim.w.pool.get_mut(p);
            pk.fid = 7;
            pk.size = 100;
            sim.recv(snoop, p, None);
        };
        send(&mut sim, 1.0, 1);
        send(&mut sim, 1.0, 1);
        let flow = sim.objs.iter().position(|o| matches!(o, Obj::QueueMonitor(q) if q.pending.is_some())).unwrap();
        let count = |sim: &Sim| match &sim.objs[flow] {
            Obj::QueueMonitor(q) => q.pending.as_ref().unwrap().snoops.len(),
            _ => unreachable!(),
        };
        assert_eq!(count(&sim), 2, "both snoops of the revealing event are kept");
        assert_eq!(sim.w.take_notices().len(), 1, "one adoption asked for");
        for i in 0..100 {
            send(&mut sim, 2.0 + i as f64, 2 + i);
        }
        assert_eq!(count(&sim), 2, "later events are not buffered");
        assert!(sim.w.take_notices().is_empty(), "the flow is found, not made again");
    }

    /// The hop path's dense table of connector targets stays equal to the
    /// connectors' own targets through `target` and `drop-target` commands.
    #[test]
    fn connector_target_table_follows_target_commands() {
        let mut sim = Sim::new();
        let a = sim.create("a", "Connector").unwrap();
        let b = sim.create("b", "Connector").unwrap();
        let q = sim.create("q", "Queue/DropTail").unwrap();
        let check = |sim: &Sim| {
            for (i, o) in sim.objs.iter().enumerate() {
                let want = match o {
                    Obj::Connector(c) => c.target,
                    _ => NOT_CONNECTOR,
                };
                assert_eq!(sim.w.routing.conn[i], want, "object {i}");
            }
        };
        check(&sim);
        assert_eq!(sim.w.routing.conn[a as usize], NONE);
        sim.command(a, &["target", "b"]).unwrap();
        sim.command(b, &["target", "q"]).unwrap();
        check(&sim);
        assert_eq!(sim.w.routing.conn[a as usize], b);
        sim.command(b, &["drop-target", "a"]).unwrap();
        sim.command(q, &["target", "a"]).unwrap();
        check(&sim);
        assert_eq!(sim.w.routing.conn[b as usize], q);
        sim.command(a, &["target", "q"]).unwrap();
        check(&sim);
        assert_eq!(sim.w.routing.conn[a as usize], q);
    }

    /// The routing tables hold link heads resolved through plain
    /// connectors: a `target` command after they were filled (mid-run: an
    /// error model or a trace put in front of a link's queue, its head
    /// moved) resolves them again, for a stub node's single link and for a
    /// full table, and after a recompute (link dynamics).
    #[test]
    fn link_heads_follow_target_commands_after_routes_are_filled() {
        let mut sim = Sim::new();
        for i in 0..3 {
            let n = sim.create(&format!("n{i}"), "Node").unwrap();
            sim.command(n, &["nodeid", &i.to_string()]).unwrap();
            sim.command(n, &["addr", &i.to_string()]).unwrap();
        }
        let link = |sim: &mut Sim, a: i32, b: i32| {
            let head = sim.create(&format!("h{a}{b}"), "Connector").unwrap();
            let q = sim.create(&format!("q{a}{b}"), "Queue/DropTail").unwrap();
            sim.command(head, &["target", &format!("q{a}{b}")]).unwrap();
            sim.w.routing.add_link(a, b, head);
            (head, q)
        };
        let (h01, q01) = link(&mut sim, 0, 1);
        link(&mut sim, 1, 0);
        let (h12, q12) = link(&mut sim, 1, 2);
        link(&mut sim, 2, 1);
        let em = sim.create("em", "ErrorModel").unwrap();
        let c = sim.create("c", "Connector").unwrap();
        sim.w.routing.enabled = true;
        // Filled by the first lookups: node 0 is a stub, node 1 a table.
        assert_eq!(sim.w.routing.next_head(0, 2), Some(q01));
        assert_eq!(sim.w.routing.next_head(1, 2), Some(q12));
        // An error model in front of the queue, behind a connector.
        sim.command(em, &["target", "q01"]).unwrap();
        sim.command(c, &["target", "em"]).unwrap();
        sim.command(h01, &["target", "c"]).unwrap();
        assert_eq!(sim.w.routing.next_head(0, 2), Some(em), "stub");
        sim.command(h12, &["target", "c"]).unwrap();
        assert_eq!(sim.w.routing.next_head(1, 2), Some(em), "table");
        // A connector further down the chain changes.
        sim.command(c, &["target", "q12"]).unwrap();
        assert_eq!(sim.w.routing.next_head(0, 1), Some(q12));
        assert_eq!(sim.w.routing.next_head(1, 2), Some(q12));
        // A loop is left at the head, for `recv` to follow.
        sim.command(c, &["target", "h01"]).unwrap();
        assert_eq!(sim.w.routing.next_head(0, 1), Some(h01));
        assert_eq!(sim.w.routing.next_head(1, 2), Some(h12));
        // Routes computed during the run (frozen tables), then a change.
        sim.w.routing.compute();
        assert_eq!(sim.w.routing.next_head(1, 2), Some(h12));
        sim.command(c, &["target", "q01"]).unwrap();
        assert_eq!(sim.w.routing.next_head(1, 2), Some(q01));
        assert_eq!(sim.w.routing.next_head(0, 2), Some(q01));
    }
}
