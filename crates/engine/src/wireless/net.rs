//! The radio stack joined to a run: the stacks of one channel's nodes
//! (stack.rs: link layer, ARP table, interface queue, 802.11 MAC) and the
//! air between them (medium.rs), over the simulation's scheduler, packet
//! pool and trace writer.  crates/engine/tests/dcf.rs, which runs the same
//! stacks against ns-2's traces, is the model; here:
//!
//! * the MAC's eight timers per node (two for infrastructure mode) are scheduler timers owned by the node
//!   (`Fired::Timer` of a `Node` comes to [`Sim::wireless_timeout`]);
//! * the link layer's and ARP's delays, the agents' delivery and a frame's
//!   arrival at a radio are one-off deliveries of a pool packet to the
//!   node's entry object (`Part::Entry`); what the delivery is for is in
//!   the packet's wireless header ([`WlHdr`], kept beside the pool as
//!   TFRC's headers are), and a control frame (RTS, CTS, ACK) travels as a
//!   pool packet of its own;
//! * the agents attached to a mobile node send to its routing agent
//!   (`Part::Router`), an enum of the protocols joined so far: DumbAgent,
//!   which passes packets straight down (and, on the way up, the link
//!   layer hands them to the node's port demuxer);
//! * the trace points (agent, routing, interface queue, MAC) hand typed
//!   events to the front end's `Tracer`, which writes them.
//!
//! Positions: the node keeps its `Mobility` (scripts read and set it, and
//! `setdest` changes it); the channel's medium works on its own copies,
//! taken before each of the channel's events and given back after, so the
//! lazy updates the medium makes are the node's.

use super::aodv::{self, Aodv, Carries, Header, Message};
use super::cmu_ifq::Band;
use super::dcf::{Ds, Failure, Frame, InfraNotice, Kind, Scan, Timer, Why};
use super::dsdv::{self, Dsdv, Update};
use super::dsr::{self, Dsr};
use super::dsr_header::SrHeader;
use super::ifq::InterfaceQueue;
use super::dup::{UnknownSenderWarnings, Warning};
use super::energy::{Energy, Level};
use super::medium::{Arrival, Medium, Range};
use super::phy::Reception;
use super::propagation::Model;
use super::stack::{Arp, Env, EtherType, QueueDrop, Stack, ARP_LEN};
use super::tdma::{Complaint, Schedule};
use super::Part;
use crate::packet::{Packet, PacketType, PktId};
use crate::sched::{Ev, ObjId};
use crate::sim::{Obj, Sim};

/// What a scheduled delivery to a node's entry is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// To the interface queue (after the link layer's or ARP's delay).
    #[default]
    Queue,
    /// Up to the node's agents (after the link layer's delay).
    Agents,
    /// The first bit of a frame reaches the radio (`WlHdr::frame`).
    Arrive,
    /// The routing agent's packet, after the agent's delay: the routing
    /// trace point, then the link layer.
    Down,
    /// The routing agent starts (ns-2's `$ns at 0.0 "$ragent start"`);
    /// one of its timers falls due.  (The packet is only a token.)
    Start,
    AodvTimer(aodv::Timer),
    /// One of the DSDV agent's event objects falls due on its handler
    /// (unless rescheduled or cancelled since: `gen`).
    DsdvEvent { ev: u32, handler: dsdv::Handler, gen: u32 },
    /// A DSR agent's packet back to the agent itself (a target's reply,
    /// after its jitter); its send buffer's check.
    DsrSelf,
    DsrCheck,
    /// The radio's account of its sleep (WirelessPhy's sleep timer: at
    /// 1 s, then every 10 s), on a node with a TDMA MAC and an energy
    /// model (no other MAC puts the radio to sleep).
    SleepTick,
}

/// What a packet carries above IP, as far as the node cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Carried {
    /// An agent's packet (its type says which).
    #[default]
    Agent,
    /// An AODV message (`Net`'s message table holds it).
    Aodv,
    /// A DSDV update (ns-2's `message` type; `Net`'s update table).
    Dsdv,
    /// One of a DSR agent's own packets (type `DSR`: requests, replies,
    /// errors; its header in `Net`'s source-route table).
    Dsr,
}

/// A packet's wireless headers (802.11's, ARP's, the next hop and the
/// forward count of the common header), beside the pool.
#[derive(Clone, Copy, Debug, Default)]
pub struct WlHdr {
    /// The MAC header as the link layer (and, once sent, the MAC) left it.
    pub duration: u32,
    pub ra: u32,
    pub ta: u32,
    /// 0x800 IP, 0x806 ARP; 0 before the link layer sets it.
    pub ether_type: u32,
    /// The next hop a routing agent set (-2: none, DumbAgent's).
    pub next_hop: i32,
    /// Whether the link layer resolves `next_hop` (a routing agent set
    /// it) rather than the IP destination.
    pub next_hop_set: bool,
    /// Whether `next_hop` is the MAC address itself (ns-2's `NS_AF_ILINK`
    /// address type: the link layer neither resolves nor asks ARP).
    pub link_addressed: bool,
    /// ns-2's `num_forwards`: MAC receptions so far.
    pub forwards: i32,
    /// ns-2's `opt_num_forwards`: the observer's hop count from source to
    /// destination, stamped on a data packet at its agent's send trace.
    pub opt_forwards: i32,
    /// Whether the packet came up from the link layer (its direction).
    pub up: bool,
    /// Whether the link layer's failure call-back is the routing agent's.
    pub callback: bool,
    pub carried: Carried,
    /// An ARP packet's fields.
    pub arp: Option<Arp>,
    /// A scheduled delivery's purpose, and for an arrival the frame and
    /// its sender's slot on the channel.
    pub stage: Stage,
    pub frame: Option<Frame<PktId>>,
    pub from: u32,
    /// The modulation its body is sent at (the common header's
    /// `mod_scheme_`: 0 BPSK, 1 QPSK, 2 QAM16, 3 QAM64), which a PBC agent
    /// sets and only the extended MAC and radio read.
    pub modulation: u8,
    /// The uid of the packet when a base station passed it from its radio
    /// to the wired network: its MAC and common header fields travel with
    /// it there, as ns-2's do (a wired agent's new packet has them clear).
    pub wired_uid: Option<i32>,
    /// Whether the packet carries a DSR source-route header (`Net`'s
    /// source-route table holds it, by pool slot), and whether its failure
    /// call-back is DSR's for packets sent by flow id.
    pub sr: bool,
    pub flow_callback: bool,
    /// Infrastructure mode's addresses and distribution-system bits
    /// (dcf/infra.rs).
    pub ds: Ds,
    /// Mobile IP (mip_agent.rs): a registration agent's message; a
    /// tunnelled packet's inner header; whether the agent's send keeps
    /// these headers (a message it reuses, or made with its header); the
    /// uid of the packet when the node's agent receive trace passed it.
    pub mip: Option<super::mip::Message>,
    pub inner: Option<super::mip::Ip>,
    pub keep: bool,
    pub agent_traced: Option<i32>,
}

/// No next hop set (ns-2's default in the common header).
pub const NO_NEXT_HOP: i32 = -2;

/// The routing agent of a mobile node (ns-2's `-adhocRouting`).
#[derive(Clone, Debug)]
pub enum Routing {
    /// Passes packets straight down and up; every destination one hop away.
    Dumb,
    /// AODV (aodv.rs).
    Aodv(Box<Aodv<PktId>>),
    /// DSDV (dsdv.rs).
    Dsdv(Box<DsdvAgent>),
    /// DSR (dsr.rs): the node's entry.
    Dsr(Box<Dsr<PktId>>),
    /// The agent, taken out of its place while it runs.
    Busy,
}

/// A DSDV agent and the generations of its event objects (a scheduled
/// event whose generation has moved on was cancelled).
#[derive(Clone, Debug)]
pub struct DsdvAgent {
    pub agent: Dsdv<PktId>,
    gens: Vec<u32>,
}

impl DsdvAgent {
    pub fn new(agent: Dsdv<PktId>) -> DsdvAgent {
        DsdvAgent { agent, gens: Vec::new() }
    }
}

/// What a trace point saw happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceOp {
    Send,
    Recv,
    /// Sent on by a node that is not the packet's source (`f`).
    Forward,
    Drop,
    /// The MAC's end of a transmission (`-eotTrace ON`: `x`).
    Eot,
}

/// Which trace point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Agent,
    Router,
    Queue,
    Mac,
    /// The radio (`-phyTrace ON`: an extended radio's sends and drops).
    Phy,
}

/// Why a packet was dropped (`None` for sends and receptions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropWhy {
    None,
    /// The interface queue was full.
    QueueFull,
    /// A `CMUPriQueue`'s band was full (ns-2's reason `IFQ`).
    BandFull,
    /// The ARP table replaced it, or gave up.
    Arp,
    /// The node was reset (the end of the simulation).
    End,
    Mac(Why),
    /// The AODV agent's reasons, and DSDV's.
    Aodv(aodv::Drop),
    Dsdv(dsdv::Drop),
    Dsr(dsr::Drop),
    /// The extended radio's reasons (`TXB`, `SXB`, ...).
    Phy(super::phy_ext::Discard),
}

/// A trace point's event: where and when.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub op: TraceOp,
    pub layer: Layer,
    pub why: DropWhy,
    pub time: f64,
    /// The node's address, its position (brought up to date for the new
    /// format) and the packet's next hop.
    pub node: i32,
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub newtrace: bool,
    /// The tagged format (`use-taggedtrace`), which wins over the new.
    pub tagged: bool,
    /// The node's energy, when it has an energy model, and nam's colour
    /// change to write before the event's record, if any.
    pub energy: Option<Energy>,
    pub color: Option<Level>,
    /// The packet's next hop is a link-layer address no node has (nam's
    /// record then shows -1, as ns-2 finds no node for it).
    pub nobody: bool,
}

/// What passed the trace point.
#[derive(Clone, Copy, Debug)]
pub enum Traced<'a> {
    /// A packet (an IP packet or an ARP packet) and its wireless headers;
    /// `size` is the size the trace shows.
    /// `msg` is the AODV message it carries, if any.
    /// `nam_hop`: the next hop's node id for nam, when the trace shows
    /// another number (hierarchical addresses: ns-2's trace prints the
    /// packed address, nam the node it names).
    /// `sr`: its DSR source-route header, if it has one.
    Packet { pkt: &'a Packet, hdr: &'a WlHdr, size: u32, msg: Option<&'a Message>, nam_hop: Option<i32>, sr: Option<&'a SrHeader> },
    /// A control frame of the MAC's own.
    Control { kind: Kind, size: u32, duration: u32, ra: u32, ta: u32 },
    /// No packet: the node's energy left, logged by its radio after each
    /// frame it hears and when it dies (ns-2's `log_energy`).
    Energy,
}

/// What the radio stack prints on stdout (ns-2's C `printf`s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RadioNotice {
    /// The channel's first transmission fixed the carrier-sense range.
    Range(Range),
    /// A unicast data frame from a sender beyond GOD's count.
    UnknownSender { warning: Warning, src: u32, dst: u32, nodes: u32 },
    /// A reception under the free-space model (which reports each one):
    /// when, over which distance (m), at which power (W).
    Reception { now: f64, distance: f64, power: f64 },
    /// A TDMA MAC's complaint (mac-tdma.cc's printfs), with its address.
    Tdma { complaint: Complaint, addr: u32, now: f64 },
    /// Infrastructure mode's printfs (handoffs, no access point).
    Infra(InfraNotice),
}

/// How a node's trace points are set up (ns-2 fixes them when it makes
/// the node).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceSetup {
    /// The trace-all channel and nam's, if any.
    pub trace: Option<u32>,
    pub nam: Option<u32>,
    pub agent: bool,
    pub router: bool,
    pub mac: bool,
    pub newtrace: bool,
    /// `$ns use-taggedtrace` was on when the node was made.
    pub tagged: bool,
    /// `-eotTrace ON`: the MAC traces the end of each transmission.
    pub eot: bool,
    /// `-phyTrace ON`: the radio's sends and drops (an extended radio's).
    pub phy: bool,
}

/// One node of a channel.
#[derive(Clone, Debug)]
pub struct Member {
    pub node: ObjId,
    pub addr: i32,
    /// Its entry (scheduled deliveries) and its routing agent.
    pub entry: ObjId,
    pub router: ObjId,
    pub routing: Routing,
    /// The MAC's timers (scheduler timers owned by the node), by
    /// `timer_index`.
    pub timers: [u32; 8],
    pub trace: TraceSetup,
    /// Its energy model, if any (`Sim::wireless_energy`).
    pub battery: Option<Box<Battery>>,
    /// A base station (`-wiredRouting ON`): what comes up from the radio
    /// for a node its wired routes reach goes to them.
    pub wired: bool,
    /// Its MAC is a TDMA MAC (whose header's type field the trace reads
    /// as 0: ns-2's link layer writes the type where a TDMA header does
    /// not keep it).
    pub tdma: bool,
}

/// A node's energy model and, per trace point, the colour nam last showed
/// for it (ns-2 keeps one such memory in each trace object; an agent's
/// trace points are its own, told apart by its port).
#[derive(Clone, Debug)]
pub struct Battery {
    pub energy: Energy,
    colors: [Level; TRACE_POINTS],
    agent_colors: Vec<(usize, i32, Level)>,
}

impl Battery {
    fn color(&mut self, k: usize, port: i32) -> &mut Level {
        if k > 1 {
            return &mut self.colors[k];
        }
        let i = match self.agent_colors.iter().position(|&(j, q, _)| j == k && q == port) {
            Some(i) => i,
            None => {
                self.agent_colors.push((k, port, Level::Full));
                self.agent_colors.len() - 1
            }
        };
        &mut self.agent_colors[i].2
    }
}

/// A node's trace objects (ns-2 makes one per layer and direction, two
/// dropping ones at the interface queue: the ARP table's and the queue's,
/// and two receiving ones at the MAC: its log of control frames and the
/// one data frames go up through).
const TRACE_POINTS: usize = 11;

fn trace_point(op: TraceOp, layer: Layer, why: DropWhy, data: bool) -> usize {
    match (layer, op) {
        (Layer::Agent, TraceOp::Recv) => 1,
        (Layer::Agent, _) => 0,
        (Layer::Router, TraceOp::Recv) => 3,
        (Layer::Router, TraceOp::Drop) => 4,
        (Layer::Router, _) => 2,
        (Layer::Queue, _) if why == DropWhy::Arp => 5,
        (Layer::Queue, _) => 6,
        (Layer::Mac, TraceOp::Recv) if data => 10,
        (Layer::Mac, TraceOp::Recv) => 8,
        (Layer::Mac, TraceOp::Drop) => 9,
        (Layer::Mac, _) => 7,
        // (no energy model with the extended radio)
        (Layer::Phy, _) => 7,
    }
}

/// The nodes of one channel and the air between them.
#[derive(Debug)]
pub struct Net {
    pub stacks: Vec<Stack<PktId>>,
    pub core: NetCore,
}

/// A channel's state other than its nodes' stacks.
#[derive(Debug)]
pub struct NetCore {
    pub air: Medium,
    pub members: Vec<Member>,
    reached: Vec<Arrival>,
    warnings: UnknownSenderWarnings,
    /// AODV messages by pool slot (written before read, as `WlHdr`s).
    msgs: Vec<Message>,
    /// DSDV updates by pool slot, the same way.
    updates: Vec<Update>,
    /// DSR source-route headers by pool slot (`WlHdr::sr` says whether
    /// a packet's is current).
    srs: Vec<SrHeader>,
    /// Packets for the nodes' agents, handed to them once the stack's
    /// event is over: the agent (none: the no-slot report, with the
    /// node's id), the packet, the node's id.
    up: Vec<(Option<ObjId>, PktId, i32)>,
    /// The slots whose node's position the script may have changed since
    /// the channel's last event (`Sim::wireless_touch`), and a flag per
    /// slot.
    touched: Vec<u32>,
    touched_flag: Vec<bool>,
    /// GOD's count of nodes (the MACs' duplicate memories have a place for
    /// each).
    pub god_nodes: u32,
    /// The observer (a `Part::Observer`) whose hop counts stamp data
    /// packets at their agents' send trace.
    pub god: Option<ObjId>,
    /// The schedule the channel's TDMA MACs share.
    pub tdma: Schedule,
}

impl Net {
    pub fn new(air: Medium) -> Net {
        Net { stacks: Vec::new(), core: NetCore { air, members: Vec::new(), reached: Vec::new(), warnings: UnknownSenderWarnings::default(), msgs: Vec::new(), updates: Vec::new(), srs: Vec::new(), up: Vec::new(), touched: Vec::new(), touched_flag: Vec::new(), god_nodes: 0, god: None, tdma: Schedule::default() } }
    }
}

fn timer_index(t: Timer) -> usize {
    match t {
        Timer::Defer => 0,
        Timer::Backoff => 1,
        Timer::Nav => 2,
        Timer::Recv => 3,
        Timer::Send => 4,
        Timer::Interface => 5,
        Timer::Beacon => 6,
        Timer::Probe => 7,
    }
}

/// The timer of a scheduler timer's kind (`timer_index`'s inverse).
/// The first timer kind of an extended MAC and radio (after the DCF's).
const EXT_TIMER_BASE: u8 = 8;

pub fn timer_of(kind: u8) -> Timer {
    match kind {
        0 => Timer::Defer,
        1 => Timer::Backoff,
        2 => Timer::Nav,
        3 => Timer::Recv,
        4 => Timer::Send,
        6 => Timer::Beacon,
        7 => Timer::Probe,
        _ => Timer::Interface,
    }
}

/// The stack's view of the simulation, for node `slot` of a channel.
struct Ctx<'a> {
    sim: &'a mut Sim,
    net: &'a mut NetCore,
    slot: usize,
}

impl Ctx<'_> {
    fn member(&self) -> &Member {
        &self.net.members[self.slot]
    }

    /// Is node `slot`'s trace point on?  (The routing agent's drop point
    /// is always on, whatever the routing trace switch says.)
    fn point_on(&self, layer: Layer, op: TraceOp) -> bool {
        let t = self.member().trace;
        match layer {
            Layer::Agent => t.agent,
            // (the routing agent's drops are traced whatever the switch
            // says, when there is a trace file: ns-2's agenttrace)
            Layer::Router if op == TraceOp::Drop => t.trace.is_some(),
            Layer::Router => t.router,
            Layer::Mac if op == TraceOp::Eot => t.eot,
            Layer::Mac => t.mac,
            Layer::Phy => t.phy,
            Layer::Queue => true,
        }
    }

    /// Does node `slot`'s trace point at `layer` stop the packets passing
    /// it?  A dead node's trace points do (ns-2's CMUTrace frees a packet
    /// when its node's energy is gone).
    fn swallows(&self, layer: Layer, op: TraceOp) -> bool {
        match &self.member().battery {
            Some(b) => !b.energy.alive() && self.point_on(layer, op),
            None => false,
        }
    }

    /// The event at node `slot`'s trace point, if that point is on (and
    /// its node alive); `dst` is the packet's IP destination (nam writes
    /// nothing for the routing layer's receipt of a unicast packet).
    /// `port` is the agent's, at an agent's trace point; `data`: a packet
    /// (not a MAC control frame).
    fn point(&mut self, op: TraceOp, layer: Layer, why: DropWhy, dst: i32, port: i32, data: bool) -> Option<Point> {
        let m = &self.net.members[self.slot];
        let (t, addr) = (m.trace, m.addr);
        if !self.point_on(layer, op) || (t.trace.is_none() && t.nam.is_none()) {
            return None;
        }
        let (mut energy, mut color) = (None, None);
        if let Some(b) = &mut self.net.members[self.slot].battery {
            let e = &b.energy;
            if !e.alive() {
                return None;
            }
            energy = Some(*e);
            let level = e.level();
            let k = trace_point(op, layer, why, data);
            if t.nam.is_some() && !(layer == Layer::Router && op == TraceOp::Recv && dst != -1) {
                let c = b.color(k, port);
                if *c != level {
                    *c = level;
                    color = Some(level);
                }
            }
        }
        let now = self.sim.w.now();
        if t.newtrace || t.tagged {
            // (the new and tagged formats show the position, brought up
            // to date)
            self.net.air.update_position(self.slot, now);
        }
        let p = &self.net.air.stations[self.slot].pos;
        Some(Point { op, layer, why, time: now, node: addr, x: p.x, y: p.y, z: p.z, newtrace: t.newtrace, tagged: t.tagged, energy, color, nobody: false })
    }

    /// Trace packet `p` at a trace point; false when the point swallows
    /// it (its node is dead: the caller frees it).
    fn trace_pkt(&mut self, op: TraceOp, layer: Layer, why: DropWhy, p: PktId, size: u32) -> bool {
        if self.swallows(layer, op) {
            return false;
        }
        let k = self.sim.w.pool.get(p);
        let dst = match self.sim.w.pool.wl_hdr(p).arp {
            Some(_) => 0,
            None => k.daddr,
        };
        let port = if op == TraceOp::Recv { k.dport } else { k.sport };
        let Some(mut pt) = self.point(op, layer, why, dst, port, true) else { return true };
        let h = self.sim.w.pool.wl_hdr(p);
        if h.link_addressed {
            let a = h.next_hop;
            pt.nobody = !self.sim.objs.iter().any(|o| matches!(o, Obj::Node(n) if n.addr == a));
        }
        let t = self.net.members[self.slot].trace;
        let w = &mut self.sim.w;
        let pkt = w.pool.get(p);
        let hdr = w.pool.wl_hdr(p);
        let msg = match hdr.carried {
            Carried::Aodv => self.net.msgs.get(p.index() as usize),
            Carried::Agent | Carried::Dsdv | Carried::Dsr => None,
        };
        let sr = if hdr.sr { self.net.srs.get(p.index() as usize) } else { None };
        if let Some(h) = w.routing.hier.as_deref() {
            // (ns-2 prints the packed numbers of hierarchical addresses)
            let nam_hop = Some(hdr.next_hop);
            let (pkt, hdr) = hier_view(h, pkt, &hdr);
            let what = Traced::Packet { pkt: &pkt, hdr: &hdr, size, msg, nam_hop, sr };
            w.out.with_tracer(|tr, out| tr.wireless(out, t.trace, t.nam, &pt, &what));
            return true;
        }
        let what = Traced::Packet { pkt, hdr: &hdr, size, msg, nam_hop: None, sr };
        w.out.with_tracer(|tr, out| tr.wireless(out, t.trace, t.nam, &pt, &what));
        true
    }

    /// The node's energy to the trace-all file (its radio's log).
    fn log_energy(&mut self) {
        let m = &self.net.members[self.slot];
        let (Some(b), Some(ch)) = (&m.battery, m.trace.trace) else { return };
        let p = &self.net.air.stations[self.slot].pos;
        let pt = Point { op: TraceOp::Recv, layer: Layer::Mac, why: DropWhy::None, time: self.sim.w.now(), node: m.addr, x: p.x, y: p.y, z: p.z, newtrace: m.trace.newtrace, tagged: m.trace.tagged, energy: Some(b.energy), color: None, nobody: false };
        self.sim.w.out.with_tracer(|tr, out| tr.wireless(out, Some(ch), None, &pt, &Traced::Energy));
    }

    fn trace_frame(&mut self, op: TraceOp, why: DropWhy, f: &Frame<PktId>) {
        self.trace_frame_at(Layer::Mac, op, why, f)
    }

    fn trace_frame_at(&mut self, layer: Layer, op: TraceOp, why: DropWhy, f: &Frame<PktId>) {
        match f.payload {
            Some(p) => {
                let h = self.sim.w.pool.wl_hdr_mut(p);
                h.duration = f.duration as u32;
                h.ra = f.ra;
                h.ta = f.ta;
                self.trace_pkt(op, layer, why, p, f.size);
            }
            None => {
                let Some(pt) = self.point(op, layer, why, 0, -1, false) else { return };
                let t = self.net.members[self.slot].trace;
                let what = Traced::Control { kind: f.kind, size: f.size, duration: f.duration as u32, ra: f.ra, ta: f.ta };
                self.sim.w.out.with_tracer(|tr, out| tr.wireless(out, t.trace, t.nam, &pt, &what));
            }
        }
    }

    /// A frame goes on the air: a copy to each node the channel reaches,
    /// arriving after its propagation delay.
    fn on_air(&mut self, f: &Frame<PktId>) {
        let now = self.sim.w.now();
        let mut reached = std::mem::take(&mut self.net.reached);
        if let Some(r) = self.net.air.transmit(self.slot, now, &mut reached) {
            self.notice(RadioNotice::Range(r));
        }
        let from = self.slot as u32;
        for a in &reached {
            let q = match f.payload {
                Some(p) => self.copy(p),
                None => {
                    let q = self.sim.w.pool.alloc();
                    *self.sim.w.pool.get_mut(q) = Packet::blank();
                    q
                }
            };
            let mut g = *f;
            if g.payload.is_some() {
                g.payload = Some(q);
            }
            let h = self.sim.w.pool.wl_hdr_mut(q);
            h.frame = Some(g);
            h.from = from;
            h.stage = Stage::Arrive;
            let entry = self.net.members[a.node].entry;
            self.sim.w.s.schedule(a.delay, Ev::Deliver(entry, q));
        }
        self.net.reached = reached;
    }

    fn notice(&mut self, n: RadioNotice) {
        let w = &mut self.sim.w;
        let mut buf = std::mem::take(&mut w.c_stdout);
        w.out.with_tracer(|tr, _| tr.radio_notice(&mut buf, &n));
        w.c_stdout = buf;
    }

    /// Deliver `p` to this node's entry after `delay`, for `stage`.
    fn deliver(&mut self, p: PktId, delay: f64, stage: Stage) {
        self.sim.w.pool.wl_hdr_mut(p).stage = stage;
        let entry = self.member().entry;
        self.sim.w.s.schedule(delay, Ev::Deliver(entry, p));
    }

    /// A copy of packet `p` (ns-2's `Packet::copy`: the same uid).
    fn copy(&mut self, p: PktId) -> PktId {
        let pool = &mut self.sim.w.pool;
        let q = pool.alloc();
        let pk = pool.get(p).clone();
        *pool.get_mut(q) = pk;
        let h = pool.wl_hdr(p);
        *pool.wl_hdr_mut(q) = h;
        match h.carried {
            Carried::Aodv => {
                let m = self.net.msgs[p.index() as usize];
                self.set_msg(q, m);
            }
            Carried::Dsdv => {
                let u = self.net.updates[p.index() as usize];
                self.set_update(q, u);
            }
            Carried::Agent | Carried::Dsr => {}
        }
        if h.sr {
            let s = self.net.srs[p.index() as usize];
            self.set_sr(q, s);
        }
        q
    }

    fn set_sr(&mut self, p: PktId, h: SrHeader) {
        let i = p.index() as usize;
        if i >= self.net.srs.len() {
            self.net.srs.resize(i + 1, SrHeader::default());
        }
        self.net.srs[i] = h;
        self.sim.w.pool.wl_hdr_mut(p).sr = true;
    }

    /// Run the node's DSR agent (if it has one) with the node as its
    /// host; `queue`: the interface queue, when at hand.
    fn with_dsr(&mut self, queue: Option<&mut InterfaceQueue<PktId>>, f: impl FnOnce(&mut Dsr<PktId>, &mut DsrHost)) {
        let slot = self.slot;
        let mut r = std::mem::replace(&mut self.net.members[slot].routing, Routing::Busy);
        if let Routing::Dsr(a) = &mut r {
            f(a, &mut DsrHost { cx: self, queue });
        }
        self.net.members[slot].routing = r;
    }

    fn set_update(&mut self, p: PktId, u: Update) {
        let i = p.index() as usize;
        if i >= self.net.updates.len() {
            self.net.updates.resize(i + 1, Update::default());
        }
        self.net.updates[i] = u;
        self.sim.w.pool.wl_hdr_mut(p).carried = Carried::Dsdv;
    }

    /// Run the node's DSDV agent (if it has one) with the node as its
    /// host.
    fn with_dsdv(&mut self, st: &mut Stack<PktId>, f: impl FnOnce(&mut Dsdv<PktId>, &mut DsdvHost)) {
        let slot = self.slot;
        let mut r = std::mem::replace(&mut self.net.members[slot].routing, Routing::Busy);
        if let Routing::Dsdv(d) = &mut r {
            let DsdvAgent { agent, gens } = &mut **d;
            f(agent, &mut DsdvHost { cx: self, stack: Some(st), gens: Some(gens) });
        }
        self.net.members[slot].routing = r;
    }

    /// The routing trace point of a packet going down (`f` when this node
    /// is not its source).
    fn trace_down(&mut self, p: PktId) -> bool {
        let k = self.sim.w.pool.get(p);
        // (ns-2 compares the node's id with the source's address: with
        // hierarchical addresses a node's own packets are forwards too)
        let op = if self.sim.w.routing.addr_out(k.saddr) == self.member().addr { TraceOp::Send } else { TraceOp::Forward };
        let size = k.size as u32;
        self.trace_pkt(op, Layer::Router, DropWhy::None, p, size)
    }

    fn set_msg(&mut self, p: PktId, m: Message) {
        let i = p.index() as usize;
        if i >= self.net.msgs.len() {
            self.net.msgs.resize(i + 1, Message::Hello);
        }
        self.net.msgs[i] = m;
        self.sim.w.pool.wl_hdr_mut(p).carried = Carried::Aodv;
    }

    /// A token packet delivered to this node's entry after `delay`, for
    /// `stage` (the routing agent's start and timers).
    fn token(&mut self, delay: f64, stage: Stage) {
        let q = self.sim.w.pool.alloc();
        *self.sim.w.pool.get_mut(q) = Packet::blank();
        *self.sim.w.pool.wl_hdr_mut(q) = WlHdr::default();
        self.deliver(q, delay, stage);
    }

    /// Run the node's AODV agent (if it has one) with the node as its host.
    fn with_aodv(&mut self, queue: &mut InterfaceQueue<PktId>, f: impl FnOnce(&mut Aodv<PktId>, &mut AodvHost)) {
        let slot = self.slot;
        let mut r = std::mem::replace(&mut self.net.members[slot].routing, Routing::Busy);
        if let Routing::Aodv(a) = &mut r {
            f(a, &mut AodvHost { cx: self, queue });
        }
        self.net.members[slot].routing = r;
    }
}

/// The DSDV agent's view of its node: it sends at once through the link
/// layer, so it holds the node's stack (none, nor its event objects, when
/// the link layer itself calls back: DSDV then only drops the packet).
struct DsdvHost<'a, 'b> {
    cx: &'a mut Ctx<'b>,
    stack: Option<&'a mut Stack<PktId>>,
    gens: Option<&'a mut Vec<u32>>,
}

impl dsdv::Host<PktId> for DsdvHost<'_, '_> {
    fn now(&self) -> f64 {
        self.cx.sim.w.now()
    }

    fn held_loop(&mut self, node: i32, dst: i32) {
        self.cx.sim.w.abort(crate::notice::Abort::DsdvHeldLoop { node, dst });
    }

    fn uniform(&mut self, max: f64) -> f64 {
        self.cx.sim.w.rng.default_stream().uniform(max)
    }

    fn schedule(&mut self, ev: u32, handler: dsdv::Handler, delay: f64) {
        let gens = self.gens.as_mut().expect("the agent's event objects");
        let i = ev as usize;
        if i >= gens.len() {
            gens.resize(i + 1, 0);
        }
        gens[i] = gens[i].wrapping_add(1);
        let gen = gens[i];
        self.cx.token(delay, Stage::DsdvEvent { ev, handler, gen });
    }

    fn cancel(&mut self, ev: u32) {
        let gens = self.gens.as_mut().expect("the agent's event objects");
        if let Some(g) = gens.get_mut(ev as usize) {
            *g = g.wrapping_add(1);
        }
    }

    fn send(&mut self, p: PktId, delay: Option<f64>) {
        match delay {
            Some(d) => self.cx.deliver(p, d, Stage::Down),
            None => {
                if !self.cx.trace_down(p) {
                    return self.cx.sim.w.pool.free(p);
                }
                let st = self.stack.as_mut().expect("the node's stack");
                st.send_down(self.cx, p);
            }
        }
    }

    fn deliver(&mut self, p: PktId) {
        to_port(self.cx, p);
    }

    fn drop(&mut self, p: PktId, why: dsdv::Drop) {
        let size = self.cx.sim.w.pool.get(p).size as u32;
        self.cx.trace_pkt(TraceOp::Drop, Layer::Router, DropWhy::Dsdv(why), p, size);
        self.cx.sim.w.pool.free(p);
    }

    fn free(&mut self, p: PktId) {
        self.cx.sim.w.pool.free(p);
    }

    fn header(&self, p: PktId) -> dsdv::Header {
        let k = self.cx.sim.w.pool.get(p);
        let h = self.cx.sim.w.pool.wl_hdr(p);
        // (the agent works with the addresses a script sees: packed
        // numbers when they are hierarchical, which order its table as
        // ns-2's; node ids inside the engine)
        let r = &self.cx.sim.w.routing;
        let (src, dst, next_hop) = (r.addr_out(k.saddr), r.addr_out(k.daddr), r.addr_out(h.next_hop));
        dsdv::Header { src, dst, dport: k.dport, ttl: k.ttl, size: k.size as u32, forwards: h.forwards, next_hop, next_hop_set: h.next_hop_set, failure_callback: h.callback }
    }

    fn set_header(&mut self, p: PktId, mut h: dsdv::Header) {
        let r = &self.cx.sim.w.routing;
        (h.src, h.dst, h.next_hop) = (r.addr_in(h.src), r.addr_in(h.dst), r.addr_in(h.next_hop));
        let k = self.cx.sim.w.pool.get_mut(p);
        k.saddr = h.src;
        k.daddr = h.dst;
        k.dport = h.dport;
        k.ttl = h.ttl;
        k.size = h.size as i32;
        let w = self.cx.sim.w.pool.wl_hdr_mut(p);
        w.forwards = h.forwards;
        w.next_hop = h.next_hop;
        w.next_hop_set = h.next_hop_set;
        w.callback = h.failure_callback;
    }

    fn update(&self, p: PktId) -> Update {
        self.cx.net.updates[p.index() as usize]
    }

    fn new_packet(&mut self) -> PktId {
        let addr = self.cx.member().addr;
        let w = &mut self.cx.sim.w;
        let q = w.pool.alloc();
        let mut k = Packet::blank();
        k.uid = w.uidcnt;
        w.uidcnt = w.uidcnt.wrapping_add(1);
        k.ptype = PacketType::Udp;
        k.saddr = addr;
        k.sport = dsdv::PORT;
        k.ttl = dsdv::DEFAULT_TTL;
        *w.pool.get_mut(q) = k;
        *w.pool.wl_hdr_mut(q) = WlHdr { next_hop: NO_NEXT_HOP, ..WlHdr::default() };
        self.cx.set_update(q, Update::default());
        q
    }

    fn set_update(&mut self, p: PktId, u: Update) {
        self.cx.set_update(p, u);
    }

    fn no_base_station(&mut self) {
        eprintln!("warning: Route to base_stn not known: dropping pkt");
    }
}

/// The AODV agent's view of its node.
struct AodvHost<'a, 'b> {
    cx: &'a mut Ctx<'b>,
    queue: &'a mut InterfaceQueue<PktId>,
}

impl aodv::Host<PktId> for AodvHost<'_, '_> {
    fn now(&self) -> f64 {
        self.cx.sim.w.now()
    }

    fn uniform(&mut self) -> f64 {
        self.cx.sim.w.rng.default_stream().uniform_double()
    }

    fn start(&mut self, t: aodv::Timer, delay: f64) {
        self.cx.token(delay, Stage::AodvTimer(t));
    }

    fn send(&mut self, p: PktId, delay: f64) {
        self.cx.deliver(p, delay, Stage::Down);
    }

    fn deliver(&mut self, p: PktId) {
        to_port(self.cx, p);
    }

    fn drop(&mut self, p: PktId, why: aodv::Drop) {
        let size = self.cx.sim.w.pool.get(p).size as u32;
        self.cx.trace_pkt(TraceOp::Drop, Layer::Router, DropWhy::Aodv(why), p, size);
        self.cx.sim.w.pool.free(p);
    }

    fn free(&mut self, p: PktId) {
        self.cx.sim.w.pool.free(p);
    }

    fn filter(&mut self, next_hop: i32) -> Option<PktId> {
        let pool = &self.cx.sim.w.pool;
        self.queue.take_first(|&q| pool.wl_hdr(q).next_hop == next_hop)
    }

    fn header(&self, p: PktId) -> Header {
        let k = self.cx.sim.w.pool.get(p);
        let h = self.cx.sim.w.pool.wl_hdr(p);
        let carries = match h.carried {
            Carried::Aodv => Carries::Routing,
            Carried::Dsdv | Carried::Dsr => Carries::Other,
            // (ns-2's DATA_PACKET: TCP and its acknowledgements count
            // the IP header already)
            Carried::Agent => match k.ptype {
                PacketType::Tcp | PacketType::Ack => Carries::Tcp,
                PacketType::Cbr => Carries::Data,
                _ => Carries::Other,
            },
        };
        Header { carries, src: k.saddr, dst: k.daddr, ttl: k.ttl, size: k.size as u32, forwards: h.forwards, next_hop: h.next_hop, next_hop_set: h.next_hop_set, up: h.up, failure_callback: h.callback }
    }

    fn set_header(&mut self, p: PktId, h: Header) {
        let k = self.cx.sim.w.pool.get_mut(p);
        k.saddr = h.src;
        k.daddr = h.dst;
        k.ttl = h.ttl;
        k.size = h.size as i32;
        let w = self.cx.sim.w.pool.wl_hdr_mut(p);
        w.forwards = h.forwards;
        w.next_hop = h.next_hop;
        w.next_hop_set = h.next_hop_set;
        w.up = h.up;
        w.callback = h.failure_callback;
    }

    fn message(&self, p: PktId) -> Message {
        self.cx.net.msgs[p.index() as usize]
    }

    fn set_message(&mut self, p: PktId, m: Message) {
        self.cx.set_msg(p, m);
    }

    fn new_message(&mut self, m: Message, h: Header) -> PktId {
        let pool = &mut self.cx.sim.w.pool;
        let q = pool.alloc();
        let mut k = Packet::blank();
        k.ptype = PacketType::Udp;
        k.saddr = h.src;
        k.daddr = h.dst;
        k.sport = aodv::PORT;
        k.dport = aodv::PORT;
        k.ttl = h.ttl;
        k.size = h.size as i32;
        *pool.get_mut(q) = k;
        *pool.wl_hdr_mut(q) = WlHdr { next_hop: h.next_hop, next_hop_set: h.next_hop_set, forwards: h.forwards, up: h.up, callback: h.failure_callback, ..WlHdr::default() };
        self.cx.set_msg(q, m);
        q
    }
}

/// The DSR agent's view of its node (the interface queue is at hand when
/// the link layer calls the agent back, not when the MAC's tap does).
struct DsrHost<'a, 'b> {
    cx: &'a mut Ctx<'b>,
    queue: Option<&'a mut InterfaceQueue<PktId>>,
}

impl dsr::Host<PktId> for DsrHost<'_, '_> {
    fn now(&self) -> f64 {
        self.cx.sim.w.now()
    }

    fn uniform(&mut self, max: f64) -> f64 {
        self.cx.sim.w.rng.default_stream().uniform(max)
    }

    fn new_packet(&mut self) -> PktId {
        let addr = self.cx.member().addr;
        let w = &mut self.cx.sim.w;
        let q = w.pool.alloc();
        let mut k = Packet::blank();
        k.uid = w.uidcnt;
        w.uidcnt = w.uidcnt.wrapping_add(1);
        k.ptype = PacketType::Udp;
        k.saddr = addr;
        k.sport = dsr::PORT;
        k.ttl = 32;
        *w.pool.get_mut(q) = k;
        *w.pool.wl_hdr_mut(q) = WlHdr { next_hop: NO_NEXT_HOP, carried: Carried::Dsr, ..WlHdr::default() };
        self.cx.set_sr(q, SrHeader::default());
        q
    }

    fn new_uid(&mut self) -> i32 {
        let w = &mut self.cx.sim.w;
        let u = w.uidcnt;
        w.uidcnt = w.uidcnt.wrapping_add(1);
        u
    }

    fn ip(&self, p: PktId) -> dsr::Ip {
        let k = self.cx.sim.w.pool.get(p);
        let h = self.cx.sim.w.pool.wl_hdr(p);
        let is_dsr = h.carried == Carried::Dsr;
        let callback = match (h.callback, h.flow_callback) {
            (false, _) => dsr::Callback::None,
            (true, false) => dsr::Callback::Route,
            (true, true) => dsr::Callback::Flow,
        };
        dsr::Ip {
            uid: k.uid,
            dsr: is_dsr,
            ptype: if is_dsr { dsr::PT_DSR } else { k.ptype as i32 },
            size: k.size,
            src: k.saddr,
            sport: k.sport,
            dst: k.daddr,
            dport: k.dport,
            ttl: k.ttl,
            next_hop: h.next_hop,
            next_hop_set: h.next_hop_set,
            link: h.link_addressed,
            down: !h.up,
            callback,
            forwards: h.forwards,
        }
    }

    fn set_ip(&mut self, p: PktId, ip: dsr::Ip) {
        let k = self.cx.sim.w.pool.get_mut(p);
        k.uid = ip.uid;
        k.size = ip.size;
        k.saddr = ip.src;
        k.sport = ip.sport;
        k.daddr = ip.dst;
        k.dport = ip.dport;
        k.ttl = ip.ttl;
        let h = self.cx.sim.w.pool.wl_hdr_mut(p);
        if ip.dsr {
            h.carried = Carried::Dsr;
        }
        h.next_hop = ip.next_hop;
        h.next_hop_set = ip.next_hop_set;
        h.link_addressed = ip.link;
        h.up = !ip.down;
        h.callback = ip.callback != dsr::Callback::None;
        h.flow_callback = ip.callback == dsr::Callback::Flow;
        h.forwards = ip.forwards;
    }

    fn sr(&self, p: PktId) -> SrHeader {
        if self.cx.sim.w.pool.wl_hdr(p).sr {
            self.cx.net.srs[p.index() as usize]
        } else {
            SrHeader::default()
        }
    }

    fn set_sr(&mut self, p: PktId, h: SrHeader) {
        self.cx.set_sr(p, h);
    }

    fn copy(&mut self, p: PktId) -> PktId {
        self.cx.copy(p)
    }

    fn send(&mut self, p: PktId, delay: f64) {
        self.cx.deliver(p, delay, Stage::Down);
    }

    fn to_self(&mut self, p: PktId, delay: f64) {
        self.cx.deliver(p, delay, Stage::DsrSelf);
    }

    fn deliver(&mut self, p: PktId) {
        if self.cx.sim.w.pool.wl_hdr(p).carried == Carried::Dsr {
            // (the routing port's agent is ns-2's null agent)
            return self.cx.sim.w.pool.free(p);
        }
        to_port(self.cx, p);
    }

    fn drop(&mut self, p: PktId, why: dsr::Drop) {
        let size = self.cx.sim.w.pool.get(p).size as u32;
        self.cx.trace_pkt(TraceOp::Drop, Layer::Router, DropWhy::Dsr(why), p, size);
        self.cx.sim.w.pool.free(p);
    }

    fn free(&mut self, p: PktId) {
        self.cx.sim.w.pool.free(p);
    }

    fn check_in(&mut self, delay: f64) {
        self.cx.token(delay, Stage::DsrCheck);
    }

    fn note(&mut self, n: dsr::Note) {
        let m = self.cx.member();
        let (Some(ch), node) = (m.trace.trace, m.addr) else { return };
        let now = self.cx.sim.w.now();
        self.cx.sim.w.out.with_tracer(|tr, out| tr.dsr_note(out, ch, now, node, &n));
    }

    fn take_queued(&mut self, next_hop: i32) -> Result<Option<PktId>, dsr::Unbuilt> {
        let Some(q) = self.queue.as_mut() else { return Ok(None) };
        if !q.is_cmu() {
            return Err(dsr::Unbuilt::QueueKind);
        }
        let pool = &self.cx.sim.w.pool;
        Ok(q.take_first(|&r| pool.wl_hdr(r).next_hop == next_hop))
    }

    fn hops(&self, a: i32, b: i32) -> i32 {
        let Some(god) = self.cx.net.god else { return 0 };
        let Obj::Wireless(Part::Observer { nodes, hops }) = &self.cx.sim.objs[god as usize] else { return 0 };
        let n = *nodes as i64;
        let (a, b) = (a as i64, b as i64);
        if a < 0 || b < 0 || a >= n || b >= n {
            return 0;
        }
        hops.get((a * n + b) as usize).copied().unwrap_or(0)
    }

    fn unbuilt(&mut self, what: dsr::Unbuilt) {
        self.cx.sim.w.abort(crate::notice::Abort::Dsr(what));
    }
}

impl Env<PktId> for Ctx<'_> {
    fn now(&self) -> f64 {
        self.sim.w.now()
    }

    fn random(&mut self) -> i32 {
        self.sim.w.rng.default_stream().uniform_positive_int()
    }

    fn start(&mut self, t: Timer, delay: f64) {
        let id = self.member().timers[timer_index(t)];
        self.sim.w.s.timer_resched(id, delay);
    }

    fn stop(&mut self, t: Timer) {
        let id = self.member().timers[timer_index(t)];
        self.sim.w.s.timer_cancel(id);
    }

    fn transmit(&mut self, f: &Frame<PktId>) {
        if self.swallows(Layer::Mac, TraceOp::Send) {
            return;
        }
        self.trace_frame(TraceOp::Send, DropWhy::None, f);
        let now = self.sim.w.now();
        if let Some(b) = &mut self.net.members[self.slot].battery {
            // (the radio's energy: a dead radio sends nothing)
            if !b.energy.send(now, f.txtime) {
                return;
            }
            if !b.energy.alive() {
                self.log_energy();
            }
        }
        self.on_air(f);
    }

    fn passes_up(&mut self) -> bool {
        !self.swallows(Layer::Mac, TraceOp::Recv)
    }

    fn eot_copy(&mut self, f: &Frame<PktId>) -> Option<Frame<PktId>> {
        if !self.member().trace.eot {
            return None;
        }
        // (ns-2 keeps a copy of the packet as it goes on the air)
        let mut g = *f;
        g.payload = f.payload.map(|p| self.copy(p));
        Some(g)
    }

    fn end_of_transmission(&mut self, f: Frame<PktId>) {
        self.trace_frame(TraceOp::Eot, DropWhy::None, &f);
        if let Some(p) = f.payload {
            self.sim.w.pool.free(p);
        }
    }

    fn received(&mut self, f: &Frame<PktId>) {
        if let Some(p) = f.payload {
            self.sim.w.pool.wl_hdr_mut(p).forwards += 1;
        }
        self.trace_frame(TraceOp::Recv, DropWhy::None, f);
    }

    fn mac_dropped(&mut self, f: Frame<PktId>, why: Why) {
        // (a data frame is dropped busy or duplicate only by the MAC's
        // recvDATA, which has counted the reception already, as it cut
        // the size: ns-2 traces `num_forwards` one up)
        if let (Kind::Data, Why::Busy | Why::Duplicate, Some(p)) = (f.kind, why, f.payload) {
            self.sim.w.pool.wl_hdr_mut(p).forwards += 1;
        }
        self.trace_frame(TraceOp::Drop, DropWhy::Mac(why), &f);
        if let Some(p) = f.payload {
            self.sim.w.pool.free(p);
        }
    }

    fn release(&mut self, p: PktId) {
        self.sim.w.pool.free(p);
    }

    fn dropped(&mut self, p: PktId, why: QueueDrop) {
        let size = self.sim.w.pool.get(p).size as u32;
        let why = match why {
            QueueDrop::Full => DropWhy::QueueFull,
            QueueDrop::BandFull => DropWhy::BandFull,
            QueueDrop::Arp => DropWhy::Arp,
        };
        self.trace_pkt(TraceOp::Drop, Layer::Queue, why, p, size);
        self.sim.w.pool.free(p);
    }

    fn has_failure_callback(&self, p: PktId) -> bool {
        // (DumbAgent sets none)
        self.sim.w.pool.wl_hdr(p).callback
    }

    fn failed(&mut self, p: PktId, _: Option<Failure>) {
        self.sim.w.pool.free(p);
    }

    fn failed_with_queue(&mut self, p: PktId, why: Option<(Failure, &Frame<PktId>)>, queue: &mut InterfaceQueue<PktId>) {
        if matches!(self.member().routing, Routing::Dumb) {
            // (DumbAgent sets no call-back)
            self.sim.w.pool.free(p);
            return;
        }
        // the MAC hands the agent a copy carrying the frame's header (and
        // drops its own); ARP the packet itself
        let p = match why {
            Some((_, f)) => {
                let h = self.sim.w.pool.wl_hdr_mut(p);
                h.duration = f.duration as u32;
                h.ra = f.ra;
                h.ta = f.ta;
                self.copy(p)
            }
            None => p,
        };
        match self.member().routing {
            Routing::Aodv(_) => self.with_aodv(queue, |a, h| a.link_failed(h, p)),
            Routing::Dsr(_) => self.with_dsr(Some(queue), |d, h| d.failed(h, p)),
            // (DSDV drops it, whether or not the agent is the one sending:
            // only its own immediate sends find it busy)
            _ => dsdv::Dsdv::link_failed(&mut DsdvHost { cx: self, stack: None, gens: None }, p),
        }
    }

    fn tap(&mut self, f: &Frame<PktId>) {
        if let (Routing::Dsr(_), Some(p)) = (&self.member().routing, f.payload) {
            self.with_dsr(None, |d, h| d.tap(h, p));
        }
    }

    fn unknown_sender(&mut self, src: u32, dst: u32) {
        let warning = self.net.warnings.note();
        let nodes = self.net.god_nodes;
        self.notice(RadioNotice::UnknownSender { warning, src, dst, nodes });
    }

    fn to_queue(&mut self, p: PktId, delay: f64) {
        self.deliver(p, delay, Stage::Queue);
    }

    fn to_agents(&mut self, p: PktId, delay: f64) {
        self.deliver(p, delay, Stage::Agents);
    }

    fn is_routing(&self, p: PktId) -> bool {
        self.sim.w.pool.wl_hdr(p).carried != Carried::Agent
    }

    fn ds(&self, p: PktId) -> Ds {
        self.sim.w.pool.wl_hdr(p).ds
    }

    fn set_ds(&mut self, p: PktId, d: Ds) {
        self.sim.w.pool.wl_hdr_mut(p).ds = d;
    }

    fn copy_packet(&mut self, p: PktId) -> PktId {
        self.copy(p)
    }

    fn set_receiver(&mut self, p: PktId, ra: u32) {
        self.sim.w.pool.wl_hdr_mut(p).ra = ra;
    }

    fn set_relay(&mut self, p: PktId, to: u32) {
        let h = self.sim.w.pool.wl_hdr_mut(p);
        h.next_hop = to as i32;
        h.link_addressed = true;
        h.up = false;
    }

    fn infra_notice(&mut self, n: InfraNotice) {
        self.notice(RadioNotice::Infra(n));
    }

    fn link_destination(&self, p: PktId) -> Option<u32> {
        let h = self.sim.w.pool.wl_hdr(p);
        if h.link_addressed {
            Some(h.next_hop as u32)
        } else {
            None
        }
    }

    fn band(&self, p: PktId) -> Band {
        // (dsr-priqueue.cc's prq_assign_queue: the routing protocols'
        // packets, then audio and video, which Dumbbell has not, then
        // TCP's acknowledgements, then the rest, ARP's among them)
        if self.is_routing(p) {
            return Band::Routing;
        }
        match self.sim.w.pool.get(p).ptype {
            PacketType::Ack if self.sim.w.pool.wl_hdr(p).arp.is_none() => Band::LowDelay,
            _ => Band::Normal,
        }
    }

    fn destination(&self, p: PktId) -> i32 {
        let h = self.sim.w.pool.wl_hdr(p);
        if h.next_hop_set {
            h.next_hop
        } else {
            self.sim.w.pool.get(p).daddr
        }
    }

    fn size(&self, p: PktId) -> u32 {
        self.sim.w.pool.get(p).size as u32
    }

    fn set_size(&mut self, p: PktId, size: u32) {
        self.sim.w.pool.get_mut(p).size = size as i32;
    }

    fn mac_addresses(&self, p: PktId) -> (u32, u32) {
        let h = self.sim.w.pool.wl_hdr(p);
        (h.ra, h.ta)
    }

    fn set_mac(&mut self, p: PktId, ra: Option<u32>, ta: u32, ether: EtherType) {
        let h = self.sim.w.pool.wl_hdr_mut(p);
        if let Some(ra) = ra {
            h.ra = ra;
        }
        h.ta = ta;
        h.ether_type = match ether {
            _ if self.net.members[self.slot].tdma => 0,
            EtherType::Ip => 0x800,
            EtherType::Arp => 0x806,
        };
    }

    fn arp(&self, p: PktId) -> Option<Arp> {
        self.sim.w.pool.wl_hdr(p).arp
    }

    fn set_arp(&mut self, p: PktId, a: Arp) {
        self.sim.w.pool.wl_hdr_mut(p).arp = Some(a);
    }

    fn new_arp(&mut self, a: Arp) -> PktId {
        let pool = &mut self.sim.w.pool;
        let q = pool.alloc();
        let mut pk = Packet::blank();
        pk.size = ARP_LEN as i32;
        *pool.get_mut(q) = pk;
        *pool.wl_hdr_mut(q) = WlHdr { next_hop: NO_NEXT_HOP, arp: Some(a), ..WlHdr::default() };
        q
    }

    fn radio(&mut self, on: bool) {
        let now = self.sim.w.now();
        let Some(b) = &mut self.net.members[self.slot].battery else { return };
        let changed = if on { b.energy.wake_up(now) } else { b.energy.go_to_sleep(now) };
        if changed {
            self.log_energy();
        }
    }

    fn ext_timer(&mut self, id: u32, delay: Option<f64>) {
        match delay {
            Some(d) => self.sim.w.s.timer_resched(id, d),
            None => self.sim.w.s.timer_cancel(id),
        }
    }

    fn ext_mac_sent(&mut self, f: &Frame<PktId>) {
        self.trace_frame(TraceOp::Send, DropWhy::None, f);
    }

    fn ext_air(&mut self, f: &Frame<PktId>) {
        self.trace_frame_at(Layer::Phy, TraceOp::Send, DropWhy::None, f);
        self.on_air(f);
    }

    fn phy_dropped(&mut self, f: &Frame<PktId>, why: super::phy_ext::Discard) {
        self.trace_frame_at(Layer::Phy, TraceOp::Drop, DropWhy::Phy(why), f);
    }

    fn copy_frame(&mut self, f: &Frame<PktId>) -> Frame<PktId> {
        let mut g = *f;
        g.payload = f.payload.map(|p| self.copy(p));
        g
    }

    fn ext_distance(&mut self, from: u32) -> f64 {
        // (WirelessPhyExt::discard: getLoc of each node, antennas added)
        let now = self.sim.w.now();
        let air = &mut self.net.air;
        air.update_position(self.slot, now);
        air.update_position(from as usize, now);
        let (r, t) = (&air.stations[self.slot], &air.stations[from as usize]);
        let dx = (t.pos.x + t.antenna.x) - (r.pos.x + r.antenna.x);
        let dy = (t.pos.y + t.antenna.y) - (r.pos.y + r.antenna.y);
        let dz = (t.pos.z + t.antenna.z) - (r.pos.z + r.antenna.z);
        (dx * dx + dy * dy + dz * dz).sqrt()
    }

    fn modulation(&self, p: PktId) -> u8 {
        self.sim.w.pool.wl_hdr(p).modulation
    }

    fn ext_complain(&mut self, text: &str) {
        self.sim.w.c_stdout.extend_from_slice(text.as_bytes());
    }

    fn ext_fatal(&mut self, what: String) {
        self.sim.w.abort(crate::notice::Abort::Front(what));
    }

    fn tdma_schedule(&mut self) -> &mut Schedule {
        &mut self.net.tdma
    }

    fn complain(&mut self, complaint: Complaint) {
        let (addr, now) = (self.member().addr as u32, self.sim.w.now());
        self.notice(RadioNotice::Tdma { complaint, addr, now });
    }
}

/// A node's place on a channel: the channel object and its slot.
fn place_of(sim: &Sim, id: ObjId) -> Option<(ObjId, usize)> {
    match sim.objs.get(id as usize) {
        Some(Obj::Wireless(Part::Router { net, slot })) | Some(Obj::Wireless(Part::Entry { net, slot })) => Some((*net, *slot as usize)),
        Some(Obj::Node(n)) => n.mobile.as_deref().and_then(|m| m.net).map(|(c, s)| (c, s as usize)),
        _ => None,
    }
}

impl Sim {
    /// Run `f` on node `slot`'s stack of channel `net`, with the nodes'
    /// positions lent to the medium meanwhile.
    fn with_net<R>(&mut self, net: ObjId, slot: usize, f: impl FnOnce(&mut Stack<PktId>, &mut Ctx) -> R) -> R {
        let r = self.with_net_only(net, slot, f);
        // then what came up for the node's agents
        let mut up = match &mut self.objs[net as usize] {
            Obj::Wireless(Part::Channel(n)) => std::mem::take(&mut n.core.up),
            _ => unreachable!("a wireless node's channel"),
        };
        for &(agent, p, nid) in &up {
            match agent {
                Some(a) => self.recv(a, p, None),
                None => self.no_slot(p, nid, true),
            }
        }
        up.clear();
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[net as usize] {
            if n.core.up.is_empty() {
                n.core.up = up;
            }
        }
        r
    }

    fn with_net_only<R>(&mut self, net: ObjId, slot: usize, f: impl FnOnce(&mut Stack<PktId>, &mut Ctx) -> R) -> R {
        let mut o = self.take(net);
        let Obj::Wireless(Part::Channel(n)) = &mut o else { unreachable!("a wireless node's channel") };
        // (the positions the script may have changed since)
        for k in 0..n.core.touched.len() {
            let i = n.core.touched[k] as usize;
            n.core.touched_flag[i] = false;
            if let Obj::Node(node) = &self.objs[n.core.members[i].node as usize] {
                if let Some(mn) = node.mobile.as_deref() {
                    n.core.air.place(i, &mn.pos);
                }
            }
        }
        n.core.touched.clear();
        let Net { stacks, core } = &mut **n;
        let r = {
            let mut ctx = Ctx { sim: self, net: core, slot };
            f(&mut stacks[slot], &mut ctx)
        };
        self.put(net, o);
        r
    }

    /// The script is about to read or change mobile node `id`'s position
    /// (its variables, `setdest`, `log-movement`): while the node is on a
    /// channel, the channel's copy is the one the run keeps up to date, so
    /// the node's is brought from it now, and given back to the channel
    /// before its next event.
    #[cold]
    #[inline(never)]
    pub fn wireless_touch(&mut self, id: ObjId) {
        let Some(Obj::Node(node)) = self.objs.get(id as usize) else { return };
        let Some((chan, slot)) = node.mobile.as_deref().and_then(|m| m.net) else { return };
        let slot = slot as usize;
        let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] else { return };
        if n.core.touched_flag[slot] {
            // (touched since the channel's last event: the node's copy is
            // the newer)
            return;
        }
        n.core.touched_flag[slot] = true;
        n.core.touched.push(slot as u32);
        let pos = n.core.air.stations[slot].pos.clone();
        if let Obj::Node(node) = &mut self.objs[id as usize] {
            if let Some(mn) = node.mobile.as_deref_mut() {
                mn.pos = pos;
            }
        }
    }

    /// A packet reaches a mobile node's routing agent (from one of its
    /// agents) or its entry (a scheduled delivery).
    #[cold]
    #[inline(never)]
    pub(crate) fn wireless_recv(&mut self, to: ObjId, p: PktId) {
        let router = matches!(self.objs[to as usize], Obj::Wireless(Part::Router { .. }));
        let Some((net, slot)) = place_of(self, to) else {
            self.w.pool.free(p);
            return;
        };
        self.with_net(net, slot, |st, cx| {
            if router {
                from_agent(st, cx, p)
            } else {
                at_entry(st, cx, p)
            }
        });
    }

    /// A packet a base station's wired routes do not place (ns-2's
    /// classifier's default target): the routing trace point, then the
    /// node's routing agent.
    #[cold]
    #[inline(never)]
    pub(crate) fn wireless_from_wired(&mut self, node: ObjId, p: PktId) {
        let Some((net, slot)) = place_of(self, node) else {
            self.w.pool.free(p);
            return;
        };
        // (a Mobile IP home agent's binding: the tunnel first)
        if super::mip_agent::tunnel(self, node, p) {
            return;
        }
        let uid = self.w.pool.get(p).uid;
        let h = self.w.pool.wl_hdr_mut(p);
        if h.wired_uid != Some(uid) {
            // (a wired agent's packet: ns-2's new packet, headers clear)
            *h = WlHdr { next_hop: NO_NEXT_HOP, ..WlHdr::default() };
        }
        self.with_net(net, slot, |st, cx| {
            let size = cx.sim.w.pool.get(p).size as u32;
            if !cx.trace_pkt(TraceOp::Recv, Layer::Router, DropWhy::None, p, size) {
                return cx.sim.w.pool.free(p);
            }
            match cx.member().routing {
                Routing::Aodv(_) => cx.with_aodv(&mut st.queue, |a, h| a.recv(h, p)),
                Routing::Dsdv(_) => cx.with_dsdv(st, |d, h| d.recv(h, p)),
                _ => {
                    if !cx.trace_pkt(TraceOp::Send, Layer::Router, DropWhy::None, p, size) {
                        return cx.sim.w.pool.free(p);
                    }
                    st.send_down(cx, p);
                }
            }
        });
    }

    /// A packet from the wire reaches an agent of base station `node`:
    /// the node's agent receive trace (false: the trace point stopped it).
    #[cold]
    #[inline(never)]
    pub(crate) fn wireless_agent_recv_trace(&mut self, node: ObjId, p: PktId) -> bool {
        let Some((net, slot)) = place_of(self, node) else { return true };
        self.with_net(net, slot, |_, cx| {
            let size = cx.sim.w.pool.get(p).size as u32;
            cx.trace_pkt(TraceOp::Recv, Layer::Agent, DropWhy::None, p, size)
        })
    }

    /// Hand a packet to mobile node `node`'s routing agent directly (a
    /// Mobile IP agent's reply, a decapsulated packet: no trace).
    #[cold]
    #[inline(never)]
    pub(crate) fn wireless_to_routing(&mut self, node: ObjId, p: PktId) {
        let Some((net, slot)) = place_of(self, node) else {
            self.w.pool.free(p);
            return;
        };
        self.with_net(net, slot, |st, cx| match cx.member().routing {
            Routing::Aodv(_) => cx.with_aodv(&mut st.queue, |a, h| a.recv(h, p)),
            Routing::Dsdv(_) => cx.with_dsdv(st, |d, h| d.recv(h, p)),
            _ => st.send_down(cx, p),
        });
    }

    /// Make mobile node `node` (on a channel) a base station: wired
    /// routes first for what comes up from its radio, its radio for what
    /// the wired routes do not place.
    pub fn wireless_base(&mut self, node: ObjId) -> Result<(), String> {
        let Some((chan, slot)) = place_of(self, node) else {
            return Err(format!("{} is not on a wireless channel", self.name(node)));
        };
        let nid = match &self.objs[node as usize] {
            Obj::Node(n) => n.id,
            _ => unreachable!(),
        };
        let Some(h) = self.w.routing.hier.as_deref_mut() else {
            return Err("node-config -wiredRouting ON: base stations need hierarchical addresses (node-config -addressType hierarchical)".into());
        };
        h.bases.push((nid, node));
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] {
            n.core.members[slot].wired = true;
        }
        Ok(())
    }

    /// Mobile node `node`'s base station (`$node base-station ADDR`, the
    /// packed address), which its DSDV agent sends to what it has no
    /// route for outside its subnet.
    pub fn wireless_base_station(&mut self, node: ObjId, addr: i32) -> Result<(), String> {
        let Some((chan, slot)) = place_of(self, node) else {
            return Err(format!("{} is not on a wireless channel", self.name(node)));
        };
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] {
            if let Routing::Dsdv(d) = &mut n.core.members[slot].routing {
                d.agent.base_station = Some(addr);
            }
        }
        Ok(())
    }

    /// A mobile node's `reset` (at the end of a run): its interface queue
    /// drops what it holds, head first, then its ARP table the packets held
    /// for an address, the newest entry's first (ns-2 lists them so), each
    /// traced as the end of the simulation's drop.
    #[cold]
    #[inline(never)]
    pub fn wireless_reset(&mut self, node: ObjId) {
        let Some((net, slot)) = place_of(self, node) else { return };
        self.with_net(net, slot, |st, cx| {
            let queued: Vec<PktId> = st.queue.purge().collect();
            let held = st.arp.take_held_newest_first();
            for p in queued.into_iter().chain(held) {
                let size = cx.sim.w.pool.get(p).size as u32;
                cx.trace_pkt(TraceOp::Drop, Layer::Queue, DropWhy::End, p, size);
                cx.sim.w.pool.free(p);
            }
            // (then DSR's send buffer: SRNodeNew's reset)
            cx.with_dsr(None, |d, h| d.terminate(h));
        });
    }

    /// One of a mobile node's MAC timers fired.
    #[cold]
    #[inline(never)]
    pub(crate) fn wireless_timeout(&mut self, node: ObjId, kind: u8) {
        let Some((net, slot)) = place_of(self, node) else { return };
        if kind >= EXT_TIMER_BASE {
            // (an extended MAC's and radio's: kinds 8 to 18)
            return self.with_net(net, slot, |st, cx| st.ext_expired(cx, (kind - EXT_TIMER_BASE) as usize));
        }
        self.with_net(net, slot, |st, cx| st.expired(cx, timer_of(kind)));
    }

    /// `$mac ap ADDR` on mobile node `node`'s MAC (an access point), or
    /// `$mac ScanType S` (`Some(S)`).
    pub fn wireless_infra(&mut self, node: ObjId, scan: Option<Scan>) -> Result<(), String> {
        let Some((net, slot)) = place_of(self, node) else {
            return Err(format!("{} has no radio stack (only nodes with an 802.11 MAC have access points and scans)", self.name(node)));
        };
        let name = self.name(node).to_string();
        self.with_net(net, slot, |st, cx| {
            if st.tdma.is_some() {
                let what = if scan.is_some() { "ScanType" } else { "ap" };
                return Err(format!("{name}'s MAC is a Mac/Tdma: $mac {what} is 802.11's infrastructure mode (node-config -macType Mac/802_11)"));
            }
            match scan {
                None => st.make_ap(cx),
                Some(s) => st.scan_type(cx, s),
            }
            Ok(())
        })
    }

    /// `$mac set RTSThreshold_ V` on mobile node `node`'s MAC.
    pub fn wireless_rts_threshold(&mut self, node: ObjId, v: u32) -> Result<(), String> {
        let Some((net, slot)) = place_of(self, node) else {
            return Err(format!("{} has no radio stack", self.name(node)));
        };
        self.with_net(net, slot, |st, _| st.mac.mib.rts_threshold = v);
        Ok(())
    }

    /// Put mobile node `node` on channel `chan` (a `Part::Channel`) with
    /// stack `stack` and routing agent `routing`; `entry` and `router` are
    /// its two new objects (`Part::Entry`, `Part::Router`), made by the
    /// caller with the names it wants and completed here.
    pub fn wireless_join(&mut self, node: ObjId, chan: ObjId, station: super::medium::Station, stack: Stack<PktId>, routing: Routing, trace: TraceSetup, entry: ObjId, router: ObjId) -> Result<(), String> {
        let addr = match &self.objs[node as usize] {
            Obj::Node(n) if n.mobile.is_some() => n.addr,
            _ => return Err(format!("{} is not a mobile node", self.name(node))),
        };
        // the DCF's eight timers are kinds 0 to 7 (`timer_of`); an
        // extended MAC's and radio's come after them
        let timers = [0u8, 1, 2, 3, 4, 5, 6, 7].map(|k| self.w.s.new_timer(node, k));
        let mut stack = stack;
        if let Some(x) = stack.ext.as_deref_mut() {
            for (k, t) in x.timers.iter_mut().enumerate() {
                *t = self.w.s.new_timer(node, EXT_TIMER_BASE + k as u8);
            }
        }
        let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] else {
            return Err(format!("{} is not a wireless channel", self.name(chan)));
        };
        let slot = n.core.air.add(station);
        let tdma_mac = stack.tdma.is_some();
        n.stacks.push(stack);
        let starts = matches!(routing, Routing::Aodv(_) | Routing::Dsdv(_) | Routing::Dsr(_));
        // (the node's position goes to the channel before its first event)
        n.core.touched_flag.push(true);
        n.core.touched.push(slot as u32);
        // (the extended MAC's header keeps the type where the trace does
        // not read it, as a TDMA MAC's does)
        let type_zero = tdma_mac || n.stacks.last().is_some_and(|s| s.ext.is_some());
        n.core.members.push(Member { node, addr, entry, router, routing, timers, trace, battery: None, wired: false, tdma: type_zero });
        let s = slot as u32;
        self.objs[entry as usize] = Obj::Wireless(Part::Entry { net: chan, slot: s });
        self.objs[router as usize] = Obj::Wireless(Part::Router { net: chan, slot: s });
        if let Obj::Node(nd) = &mut self.objs[node as usize] {
            nd.mobile.as_deref_mut().unwrap().net = Some((chan, s));
        }
        if tdma_mac {
            // (a TDMA MAC starts its slot timer when it is made)
            self.w.s.timer_resched(timers[0], 0.0);
        }
        if starts {
            // ns-2's `$ns at 0.0 "$ragent start"`, when the node is made
            let q = self.w.pool.alloc();
            *self.w.pool.get_mut(q) = Packet::blank();
            *self.w.pool.wl_hdr_mut(q) = WlHdr { stage: Stage::Start, ..WlHdr::default() };
            self.w.s.schedule(0.0, Ev::Deliver(entry, q));
        }
        Ok(())
    }

    /// Give mobile node `node` (on a channel) an energy model.
    pub fn wireless_energy(&mut self, node: ObjId, energy: Energy) -> Result<(), String> {
        let Some((chan, slot)) = place_of(self, node) else {
            return Err(format!("{} is not on a wireless channel", self.name(node)));
        };
        let mut entry = None;
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] {
            let m = &mut n.core.members[slot];
            m.battery = Some(Box::new(Battery { energy, colors: [Level::Full; TRACE_POINTS], agent_colors: Vec::new() }));
            if m.tdma {
                entry = Some(m.entry);
            }
        }
        if let Some(entry) = entry {
            // (the radio's sleep timer, first at 1 s)
            self.sleep_tick(entry, 1.0);
        }
        Ok(())
    }

    fn sleep_tick(&mut self, entry: ObjId, delay: f64) {
        let q = self.w.pool.alloc();
        *self.w.pool.get_mut(q) = Packet::blank();
        *self.w.pool.wl_hdr_mut(q) = WlHdr { stage: Stage::SleepTick, ..WlHdr::default() };
        self.w.s.schedule(delay, Ev::Deliver(entry, q));
    }

    /// A TDMA MAC for the next node of channel `chan`: its slot in the
    /// channel's schedule (`max_nodes`, `slot_bytes`: the MAC's
    /// `max_node_num_` and `slot_packet_len_`).
    /// `Err(Some(n))`: `n` stations, more than `max_nodes`.
    pub fn wireless_tdma_slot(&mut self, chan: ObjId, max_nodes: u32, slot_bytes: u32, bandwidth: f64) -> Result<u32, Option<u32>> {
        match &mut self.objs[chan as usize] {
            Obj::Wireless(Part::Channel(n)) => n.core.tdma.join(max_nodes, slot_bytes, bandwidth).map_err(Some),
            _ => Err(None),
        }
    }

    /// GOD's count of nodes, for the MACs of channel `chan` made from now.
    pub fn wireless_god_nodes(&mut self, chan: ObjId, nodes: u32, god: Option<ObjId>) {
        if let Obj::Wireless(Part::Channel(n)) = &mut self.objs[chan as usize] {
            n.core.god_nodes = nodes;
            n.core.god = god;
        }
    }
}

/// The agent's send trace stamps a data packet with the observer's hop
/// count from its source to its destination (0 until a scenario sets it),
/// as ns-2's does (god.cc `stampPacket`: a destination beyond the count is
/// left alone, a broadcast one of -1 reads the entry before the source's
/// row, as its arithmetic does).
fn stamp_hops(cx: &mut Ctx, p: PktId) {
    let Some(god) = cx.net.god else { return };
    let pk = cx.sim.w.pool.get(p);
    if !matches!(pk.ptype, PacketType::Tcp | PacketType::Cbr | PacketType::Ack) {
        return;
    }
    // (GOD indexes by address: the packed numbers when hierarchical)
    let r = &cx.sim.w.routing;
    let (src, dst) = (r.addr_out(pk.saddr) as i64, r.addr_out(pk.daddr) as i64);
    let Obj::Wireless(Part::Observer { nodes, hops }) = &cx.sim.objs[god as usize] else { return };
    let n = *nodes as i64;
    if dst > n || src > n {
        return;
    }
    let i = src * n + dst;
    if let Some(&h) = usize::try_from(i).ok().and_then(|i| hops.get(i)) {
        cx.sim.w.pool.wl_hdr_mut(p).opt_forwards = h;
    }
}

/// The wireless headers of an agent's new packet: no next hop, but a
/// PBC agent's packets name theirs (the broadcast address, or the
/// link-layer address it unicasts to, which the link layer takes as is).
fn agent_header(pk: &crate::packet::Packet) -> WlHdr {
    if pk.ptype == crate::packet::PacketType::Pbc {
        return WlHdr { next_hop: pk.daddr, link_addressed: pk.daddr != -1, ..WlHdr::default() };
    }
    WlHdr { next_hop: NO_NEXT_HOP, ..WlHdr::default() }
}

/// A packet from one of the node's agents: the agent's send trace, then
/// the routing agent.
fn from_agent(st: &mut Stack<PktId>, cx: &mut Ctx, p: PktId) {
    let modulation = match cx.sim.w.pool.get(p).ptype {
        PacketType::Pbc => cx.sim.w.pool.wl_hdr(p).modulation,
        _ => 0,
    };
    let h = cx.sim.w.pool.wl_hdr_mut(p);
    if h.keep {
        // (a Mobile IP agent's message: its headers as the agent left them)
        h.keep = false;
    } else {
        *cx.sim.w.pool.wl_hdr_mut(p) = WlHdr { modulation, ..agent_header(cx.sim.w.pool.get(p)) };
    }
    let size = cx.sim.w.pool.get(p).size as u32;
    let t = cx.member().trace;
    if t.agent && (t.trace.is_some() || t.nam.is_some()) {
        stamp_hops(cx, p);
    }
    if !cx.trace_pkt(TraceOp::Send, Layer::Agent, DropWhy::None, p, size) {
        return cx.sim.w.pool.free(p);
    }
    let pk = cx.sim.w.pool.get(p);
    if pk.daddr == cx.member().addr {
        // (for this node itself: its port demuxer, as ns-2's address
        // classifier does)
        return to_port(cx, p);
    }
    if cx.member().wired {
        // (a base station's agent: its node's entry, the hierarchical
        // classifier, wired routes first; its headers go with it)
        return base_station_entry(cx, p);
    }
    if !cx.trace_pkt(TraceOp::Recv, Layer::Router, DropWhy::None, p, size) {
        return cx.sim.w.pool.free(p);
    }
    match cx.member().routing {
        Routing::Dumb => {
            if !cx.trace_pkt(TraceOp::Send, Layer::Router, DropWhy::None, p, size) {
                return cx.sim.w.pool.free(p);
            }
            st.send_down(cx, p);
        }
        Routing::Aodv(_) => cx.with_aodv(&mut st.queue, |a, h| a.recv(h, p)),
        Routing::Dsdv(_) => cx.with_dsdv(st, |d, h| d.recv(h, p)),
        Routing::Dsr(_) => cx.with_dsr(Some(&mut st.queue), |d, h| d.recv(h, p)),
        Routing::Busy => unreachable!("a routing agent called back into itself"),
    }
}

/// A packet from a base station's agent: to the node's entry once the
/// channel's event is over (what the wired routes do not place comes back
/// through `wireless_from_wired`).
#[cold]
fn base_station_entry(cx: &mut Ctx, p: PktId) {
    let node = cx.member().node;
    let uid = cx.sim.w.pool.get(p).uid;
    cx.sim.w.pool.wl_hdr_mut(p).wired_uid = Some(uid);
    let nid = match &cx.sim.objs[node as usize] {
        Obj::Node(n) => n.id,
        _ => -1,
    };
    cx.net.up.push((Some(node), p, nid));
}

/// The agent at packet `p`'s port, after the agent's receive trace.
fn to_port(cx: &mut Ctx, p: PktId) {
    let node = cx.member().node;
    let dport = cx.sim.w.pool.get(p).dport;
    let (agent, nid) = match &cx.sim.objs[node as usize] {
        Obj::Node(n) => (n.port_target(dport), n.id),
        _ => (None, -1),
    };
    if agent.is_some() {
        let size = cx.sim.w.pool.get(p).size as u32;
        if !cx.trace_pkt(TraceOp::Recv, Layer::Agent, DropWhy::None, p, size) {
            return cx.sim.w.pool.free(p);
        }
        let uid = cx.sim.w.pool.get(p).uid;
        cx.sim.w.pool.wl_hdr_mut(p).agent_traced = Some(uid);
    }
    cx.net.up.push((agent, p, nid));
}

/// A scheduled delivery at the node's entry.
fn at_entry(st: &mut Stack<PktId>, cx: &mut Ctx, p: PktId) {
    let h = cx.sim.w.pool.wl_hdr(p);
    match h.stage {
        Stage::Queue => st.enqueue(cx, p),
        Stage::Agents => {
            if matches!(cx.member().routing, Routing::Dumb) {
                // (what is not for the node's own address, a broadcast,
                // goes through DumbAgent, which hands it to the ports)
                let k = cx.sim.w.pool.get(p);
                if k.daddr != cx.member().addr {
                    let size = k.size as u32;
                    if !cx.trace_pkt(TraceOp::Recv, Layer::Router, DropWhy::None, p, size) {
                        return cx.sim.w.pool.free(p);
                    }
                }
                return to_port(cx, p);
            }
            cx.sim.w.pool.wl_hdr_mut(p).up = true;
            if matches!(cx.member().routing, Routing::Dsr(_)) {
                // (DSR is the node's entry: everything passes the routing
                // receive trace, then the agent)
                let size = cx.sim.w.pool.get(p).size as u32;
                if !cx.trace_pkt(TraceOp::Recv, Layer::Router, DropWhy::None, p, size) {
                    return cx.sim.w.pool.free(p);
                }
                return cx.with_dsr(Some(&mut st.queue), |d, h| d.recv(h, p));
            }
            // the node's entry: a packet for one of its agents to the
            // port demultiplexer, anything else (for another node, or for
            // the routing port) to the routing agent
            let k = cx.sim.w.pool.get(p);
            if k.daddr == cx.member().addr && k.dport != aodv::PORT {
                return to_port(cx, p);
            }
            if cx.member().wired {
                // a base station's classifier: a node its wired routes
                // reach first, its routing agent for the rest
                let (node, daddr, uid) = (cx.member().node, k.daddr, k.uid);
                let nid = match &cx.sim.objs[node as usize] {
                    Obj::Node(n) => n.id,
                    _ => -1,
                };
                if let Some(head) = cx.sim.w.routing.next_head(nid, daddr) {
                    cx.sim.w.pool.wl_hdr_mut(p).wired_uid = Some(uid);
                    cx.net.up.push((Some(head), p, nid));
                    return;
                }
            }
            let size = k.size as u32;
            if !cx.trace_pkt(TraceOp::Recv, Layer::Router, DropWhy::None, p, size) {
                return cx.sim.w.pool.free(p);
            }
            if matches!(cx.member().routing, Routing::Aodv(_)) {
                cx.with_aodv(&mut st.queue, |a, h| a.recv(h, p));
            } else {
                cx.with_dsdv(st, |d, h| d.recv(h, p));
            }
        }
        Stage::Down => {
            if !cx.trace_down(p) {
                return cx.sim.w.pool.free(p);
            }
            st.send_down(cx, p);
        }
        Stage::Start => {
            cx.sim.w.pool.free(p);
            if matches!(cx.member().routing, Routing::Aodv(_)) {
                cx.with_aodv(&mut st.queue, |a, h| a.start(h));
            } else if matches!(cx.member().routing, Routing::Dsr(_)) {
                cx.with_dsr(Some(&mut st.queue), |d, h| d.start(h));
            } else {
                cx.with_dsdv(st, |d, h| d.start(h));
            }
        }
        Stage::DsdvEvent { ev, handler, gen } => {
            cx.sim.w.pool.free(p);
            let live = match &cx.member().routing {
                Routing::Dsdv(d) => d.gens.get(ev as usize) == Some(&gen),
                _ => false,
            };
            if live {
                cx.with_dsdv(st, |d, h| d.fire(h, ev, handler));
            }
        }
        Stage::DsrSelf => cx.with_dsr(Some(&mut st.queue), |d, h| d.recv(h, p)),
        Stage::DsrCheck => {
            cx.sim.w.pool.free(p);
            cx.with_dsr(Some(&mut st.queue), |d, h| d.check(h));
        }
        Stage::AodvTimer(t) => {
            cx.sim.w.pool.free(p);
            cx.with_aodv(&mut st.queue, |a, h| a.expired(h, t));
        }
        Stage::SleepTick => {
            let now = cx.sim.w.now();
            let ticked = match &mut cx.net.members[cx.slot].battery {
                Some(b) => b.energy.sleep_tick(now),
                None => false,
            };
            if ticked {
                cx.log_energy();
            }
            cx.deliver(p, 10.0, Stage::SleepTick);
        }
        Stage::Arrive if st.ext.is_some() => {
            // the extended radio hears every frame the channel brings and
            // judges it by its power among the rest (no energy model)
            let mut f = h.frame.expect("an arriving frame");
            let now = cx.sim.w.now();
            let (pr, _, d) = cx.net.air.receive_in(cx.slot, h.from as usize, now, &mut cx.sim.w.rng);
            if matches!(cx.net.air.model, Model::FreeSpace) {
                cx.notice(RadioNotice::Reception { now, distance: d, power: pr });
            }
            let modulation = match f.payload {
                Some(q) if f.kind == Kind::Data => cx.sim.w.pool.wl_hdr(q).modulation,
                _ => st.ext.as_deref().map_or(0, |x| x.phy.params.basic),
            };
            if f.kind != Kind::Data {
                // (the control frame's carrier)
                cx.sim.w.pool.free(p);
                f.payload = None;
            }
            st.ext_arrive(cx, f, modulation, d, h.from, pr);
        }
        Stage::Arrive => {
            let mut f = h.frame.expect("an arriving frame");
            let now = cx.sim.w.now();
            // (a dead radio hears nothing and draws nothing: ns-2's
            // WirelessPhy::sendUp checks the node's energy before it asks
            // the propagation model)
            // (nor does one asleep)
            let dead = cx.net.members[cx.slot].battery.as_ref().is_some_and(|b| !b.energy.alive() || b.energy.asleep);
            let (pr, judged) = if dead {
                (0.0, Reception::Unheard)
            } else {
                let (pr, judged, d) = cx.net.air.receive_in(cx.slot, h.from as usize, now, &mut cx.sim.w.rng);
                if matches!(cx.net.air.model, Model::FreeSpace) {
                    cx.notice(RadioNotice::Reception { now, distance: d, power: pr });
                }
                (pr, judged)
            };
            if let Some(b) = &mut cx.net.members[cx.slot].battery {
                // (one alive pays for what it hears, and logs the energy left)
                if !dead && judged != Reception::Unheard {
                    b.energy.receive(now, f.txtime);
                    cx.log_energy();
                }
            }
            if f.kind != Kind::Data {
                // (the control frame's carrier)
                cx.sim.w.pool.free(p);
                f.payload = None;
            }
            match judged {
                Reception::Unheard => {
                    if let Some(q) = f.payload {
                        cx.sim.w.pool.free(q);
                    }
                    return;
                }
                Reception::Garbled => f.error = true,
                Reception::Clear => {}
            }
            f.rx_power = pr;
            st.arrive(cx, f);
        }
    }
}

/// A packet's fields as a trace shows them with hierarchical addresses:
/// its IP addresses, next hop and ARP addresses packed; the IP addresses
/// through ns-2's `get_nodeaddr`, which keeps the fields the levels have
/// (the broadcast address -1 becomes 2147483647 with three levels).
#[cold]
fn hier_view(h: &crate::hier::Hier, pkt: &Packet, hdr: &WlHdr) -> (Packet, WlHdr) {
    let out = |v: i32| h.pack(v).unwrap_or(v);
    let node_addr = |v: i32| h.fields.iter().fold(0, |a, &(shift, mask)| a | (((v >> shift) & mask) << shift));
    let mut k = pkt.clone();
    k.saddr = node_addr(out(k.saddr));
    k.daddr = node_addr(out(k.daddr));
    let mut w = *hdr;
    w.next_hop = out(w.next_hop);
    if let Some(a) = &mut w.arp {
        a.sender = out(a.sender);
        a.target = out(a.target);
    }
    (k, w)
}
