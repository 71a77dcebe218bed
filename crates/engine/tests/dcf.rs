//! A mobile node's stack below its routing agent (wireless/stack.rs: the
//! link layer with its ARP table, the routing-first interface queue, and
//! the 802.11 MAC, wireless/dcf.rs) run in ad hoc networks, static and
//! moving, and compared, line for line, with the trace the real ns-2 2.35
//! writes for the same network (tests/wireless/dcf/dcf.tcl and spec.tcl;
//! `sh tests/wireless/dcf/regen.sh` regenerates the fixtures with
//! /usr/bin/ns).
//!
//! Around the stacks, as ns-2 has them for `-adhocRouting DumbAgent`
//! (every destination one hop away): CBR sources over UDP and the routing
//! agent passing packets straight down (their trace lines), the air
//! between the radios (wireless/medium.rs: who hears a frame, in the
//! channel's order, after which delay, at which power, positions brought
//! up to date as ns-2 does for moving nodes), and a scheduler that breaks
//! ties in scheduling order, as ns-2's.  The
//! MAC trace is on in the scripts, so the fixtures hold every RTS, CTS,
//! data frame and ACK, every collision and retry drop, every queue and
//! ARP drop.  The random draws (the backoffs') come from ns-2's default
//! generator, in the order the MAC makes them.

use dumbbell_engine::ns2::cmutrace::{push_line, Body, Event, IpFields, MacFields, Op, Upper};
use dumbbell_engine::random::RngSet;
use dumbbell_engine::wireless::dcf::{Dcf, Failure, Frame, Kind, Timer, Why};
use dumbbell_engine::wireless::stack::{Arp, Env, EtherType, QueueDrop, Stack, ARP_LEN};
use dumbbell_engine::wireless::mac80211::Mib;
use dumbbell_engine::wireless::phy::{Antenna, Radio, Reception};
use dumbbell_engine::wireless::medium::{Arrival, Medium, Station};
use dumbbell_engine::wireless::propagation::Model;
use dumbbell_engine::wireless::{FlatGrid, Mobility};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Read;

const Y: f64 = 100.0;
/// The next hop DumbAgent leaves in its packets (ns-2's default).
const NO_NEXT_HOP: i32 = -2;

#[derive(Clone, Copy, Debug)]
enum Content {
    Cbr { seqno: i32, src: i32, sport: i32, dst: i32, dport: i32 },
    Arp { request: bool, sha: i32, spa: i32, tha: i32, tpa: i32 },
}

/// A packet above the MAC (the MAC's frame holds its index).
#[derive(Clone, Copy, Debug)]
struct Pkt {
    content: Content,
    uid: i32,
    /// Bytes, as the layers above the MAC see it.
    size: u32,
    forwards: i32,
    /// The MAC header as the link layer (and, once sent, the MAC) left it.
    mac: MacFields,
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    Timer { node: usize, t: Timer, gen: u64 },
    Arrive { node: usize, from: usize, frame: Frame<usize> },
    /// A packet reaches the interface queue (after the link layer's or the
    /// ARP table's delay).
    Queue { node: usize, pkt: usize },
    /// A packet reaches the agent (after the link layer's delay).
    Agent { node: usize, pkt: usize },
    Cbr { flow: usize },
    SetDest { node: usize, x: f64, y: f64, speed: f64 },
}

struct Flow {
    src: usize,
    dst: usize,
    sport: i32,
    dport: i32,
    interval: f64,
    stop: f64,
    seqno: i32,
}

struct Side {
    gens: [u64; 6],
}

struct World {
    now: f64,
    seq: u64,
    heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
    evs: Vec<Ev>,
    rngs: RngSet,
    pkts: Vec<Pkt>,
    sides: Vec<Side>,
    flows: Vec<Flow>,
    air: Medium,
    uid: i32,
    out: Vec<u8>,
    newtrace: bool,
    reached: Vec<Arrival>,
}

fn timer_index(t: Timer) -> usize {
    match t {
        Timer::Defer => 0,
        Timer::Backoff => 1,
        Timer::Nav => 2,
        Timer::Recv => 3,
        Timer::Send => 4,
        Timer::Interface => 5,
        // (these networks have no access point and scan for none)
        Timer::Beacon | Timer::Probe => unreachable!("infrastructure mode's timers"),
    }
}

fn why_code(w: Why) -> &'static str {
    match w {
        Why::Collision => "COL",
        Why::Duplicate => "DUP",
        Why::RetryExceeded => "RET",
        Why::InvalidState => "STA",
        Why::Busy => "BSY",
        Why::NotForUs => "---",
    }
}

impl World {
    fn schedule(&mut self, delay: f64, ev: Ev) {
        let t = self.now + delay;
        self.evs.push(ev);
        self.heap.push(Reverse((t.to_bits(), self.seq, self.evs.len() - 1)));
        self.seq += 1;
    }

    fn body(&self, p: &Pkt) -> (Body, &'static str) {
        match p.content {
            Content::Cbr { seqno, src, sport, dst, dport } => {
                let ip = IpFields { src, sport, dst, dport, flow: 0, ttl: 32 };
                (Body::Ip(ip, Upper::Cbr { seqno, forwards: p.forwards, opt_forwards: 0 }), "cbr")
            }
            Content::Arp { request, sha, spa, tha, tpa } => (Body::Arp { request, sender_mac: sha, sender: spa, target_mac: tha, target: tpa }, "ARP"),
        }
    }

    fn trace_pkt(&mut self, op: Op, node: usize, layer: &str, why: &str, pkt: usize, size: u32) {
        if self.newtrace {
            // (the new format's position is the node's, brought up to date)
            self.update_position(node);
        }
        let p = self.pkts[pkt];
        let (body, ptype) = self.body(&p);
        let e = Event { op, time: self.now, node: node as i32, next_hop: NO_NEXT_HOP, x: self.air.stations[node].pos.x, y: self.air.stations[node].pos.y, z: 0.0, layer, why, uid: p.uid, ptype, size: size as i32, mac: p.mac, body };
        push_line(&mut self.out, &e, self.newtrace);
    }

    fn trace_frame(&mut self, op: Op, node: usize, why: &str, f: &Frame<usize>) {
        match f.payload {
            Some(pkt) => {
                let mut p = self.pkts[pkt];
                p.mac.duration = f.duration as u32;
                p.mac.ra = f.ra;
                p.mac.ta = f.ta;
                self.pkts[pkt] = p;
                self.trace_pkt(op, node, "MAC", why, pkt, f.size)
            }
            None => {
                if self.newtrace {
                    self.update_position(node);
                }
                let ptype = match f.kind {
                    Kind::Rts => "RTS",
                    Kind::Cts => "CTS",
                    Kind::Ack => "ACK",
                    Kind::Data => unreachable!(),
                    _ => unreachable!("infrastructure mode's management frames"),
                };
                let mac = MacFields { duration: f.duration as u32, ra: f.ra, ta: f.ta, ether_type: 0 };
                let e = Event { op, time: self.now, node: node as i32, next_hop: NO_NEXT_HOP, x: self.air.stations[node].pos.x, y: self.air.stations[node].pos.y, z: 0.0, layer: "MAC", why, uid: 0, ptype, size: f.size as i32, mac, body: Body::Mac };
                push_line(&mut self.out, &e, self.newtrace);
            }
        }
    }

    fn copy(&mut self, pkt: usize) -> usize {
        self.pkts.push(self.pkts[pkt]);
        self.pkts.len() - 1
    }

    /// The channel: a copy of the frame reaches each node in range, in
    /// the sorted list's order, after the propagation delay.
    fn channel(&mut self, node: usize, f: &Frame<usize>) {
        let mut reached = std::mem::take(&mut self.reached);
        self.air.transmit(node, self.now, &mut reached);
        for a in &reached {
            let mut g = *f;
            if let Some(p) = f.payload {
                g.payload = Some(self.copy(p));
            }
            self.schedule(a.delay, Ev::Arrive { node: a.node, from: node, frame: g });
        }
        self.reached = reached;
    }

    fn update_position(&mut self, node: usize) {
        self.air.update_position(node, self.now);
    }

    /// `$node setdest X Y SPEED`: the movement line on the trace.
    fn setdest(&mut self, node: usize, x: f64, y: f64, speed: f64) {
        let area = FlatGrid::new(1000, 1000, 1);
        self.air.set_destination(node, self.now, x, y, speed, &area).expect("inside the area");
        let p = &self.air.stations[node].pos;
        let line = format!("M {:.5} {node} ({:.2}, {:.2}, {:.2}), ({:.2}, {:.2}), {:.2}\n", self.now, p.x, p.y, p.z, p.dest_x, p.dest_y, p.speed);
        self.out.extend_from_slice(line.as_bytes());
    }

    /// The radio judges a frame whose first bit arrives.
    fn phy_up(&mut self, node: usize, from: usize, mut f: Frame<usize>) -> Option<Frame<usize>> {
        let (pr, judged) = self.air.receive(node, from, self.now);
        match judged {
            Reception::Unheard => return None,
            Reception::Garbled => f.error = true,
            Reception::Clear => {}
        }
        f.rx_power = pr;
        Some(f)
    }

    /// A CBR source's packet through its agent and DumbAgent (which
    /// passes it straight down): the node and the packet for the link
    /// layer.
    fn cbr(&mut self, flow: usize) -> Option<(usize, usize)> {
        let f = &mut self.flows[flow];
        if self.now >= f.stop {
            return None;
        }
        let (node, interval) = (f.src, f.interval);
        let content = Content::Cbr { seqno: f.seqno, src: f.src as i32, sport: f.sport, dst: f.dst as i32, dport: f.dport };
        f.seqno += 1;
        self.pkts.push(Pkt { content, uid: self.uid, size: 512, forwards: 0, mac: MacFields::default() });
        self.uid += 1;
        let pkt = self.pkts.len() - 1;
        self.trace_pkt(Op::Send, node, "AGT", "---", pkt, 512);
        self.trace_pkt(Op::Recv, node, "RTR", "---", pkt, 512);
        self.trace_pkt(Op::Send, node, "RTR", "---", pkt, 512);
        self.schedule(interval, Ev::Cbr { flow });
        Some((node, pkt))
    }
}

struct Ctx<'a> {
    w: &'a mut World,
    node: usize,
}

impl Env<usize> for Ctx<'_> {
    fn now(&self) -> f64 {
        self.w.now
    }

    fn random(&mut self) -> i32 {
        self.w.rngs.default_stream().uniform_positive_int()
    }

    fn start(&mut self, t: Timer, delay: f64) {
        let node = self.node;
        let g = &mut self.w.sides[node].gens[timer_index(t)];
        *g += 1;
        let gen = *g;
        self.w.schedule(delay, Ev::Timer { node, t, gen });
    }

    fn stop(&mut self, t: Timer) {
        self.w.sides[self.node].gens[timer_index(t)] += 1;
    }

    fn transmit(&mut self, f: &Frame<usize>) {
        self.w.trace_frame(Op::Send, self.node, "---", f);
        self.w.channel(self.node, f);
    }

    fn received(&mut self, f: &Frame<usize>) {
        if let Some(p) = f.payload {
            self.w.pkts[p].forwards += 1;
        }
        self.w.trace_frame(Op::Recv, self.node, "---", f);
    }

    fn mac_dropped(&mut self, f: Frame<usize>, why: Why) {
        self.w.trace_frame(Op::Drop, self.node, why_code(why), &f);
    }

    fn release(&mut self, _: usize) {}

    fn dropped(&mut self, p: usize, why: QueueDrop) {
        let size = self.w.pkts[p].size;
        let why = match why {
            QueueDrop::Full => "---",
            QueueDrop::BandFull => "IFQ",
            QueueDrop::Arp => "ARP",
        };
        self.w.trace_pkt(Op::Drop, self.node, "IFQ", why, p, size);
    }

    fn has_failure_callback(&self, _: usize) -> bool {
        // DumbAgent sets none
        false
    }

    fn failed(&mut self, _: usize, _: Option<Failure>) {
        unreachable!("no failure call-back")
    }

    fn unknown_sender(&mut self, src: u32, dst: u32) {
        panic!("no sender beyond GOD's count here ({src} to {dst})");
    }

    fn to_queue(&mut self, pkt: usize, delay: f64) {
        let node = self.node;
        self.w.schedule(delay, Ev::Queue { node, pkt });
    }

    fn to_agents(&mut self, pkt: usize, delay: f64) {
        let node = self.node;
        self.w.schedule(delay, Ev::Agent { node, pkt });
    }

    fn is_routing(&self, _: usize) -> bool {
        false
    }

    fn destination(&self, p: usize) -> i32 {
        match self.w.pkts[p].content {
            Content::Cbr { dst, .. } => dst,
            Content::Arp { .. } => unreachable!("ARP packets are not sent down"),
        }
    }

    fn size(&self, p: usize) -> u32 {
        self.w.pkts[p].size
    }

    fn set_size(&mut self, p: usize, size: u32) {
        self.w.pkts[p].size = size;
    }

    fn mac_addresses(&self, p: usize) -> (u32, u32) {
        let m = self.w.pkts[p].mac;
        (m.ra, m.ta)
    }

    fn set_mac(&mut self, p: usize, ra: Option<u32>, ta: u32, ether: EtherType) {
        let m = &mut self.w.pkts[p].mac;
        if let Some(ra) = ra {
            m.ra = ra;
        }
        m.ta = ta;
        m.ether_type = match ether {
            EtherType::Ip => 0x800,
            EtherType::Arp => 0x806,
        };
    }

    fn arp(&self, p: usize) -> Option<Arp> {
        match self.w.pkts[p].content {
            Content::Arp { request, sha, spa, tha, tpa } => Some(Arp { request, sender_mac: sha, sender: spa, target_mac: tha, target: tpa }),
            Content::Cbr { .. } => None,
        }
    }

    fn set_arp(&mut self, p: usize, a: Arp) {
        self.w.pkts[p].content = Content::Arp { request: a.request, sha: a.sender_mac, spa: a.sender, tha: a.target_mac, tpa: a.target };
    }

    fn new_arp(&mut self, a: Arp) -> usize {
        let content = Content::Arp { request: a.request, sha: a.sender_mac, spa: a.sender, tha: a.target_mac, tpa: a.target };
        self.w.pkts.push(Pkt { content, uid: 0, size: ARP_LEN, forwards: 0, mac: MacFields::default() });
        self.w.pkts.len() - 1
    }
}

/// Run a network of nodes at `xs` (on a line) with CBR flows
/// `(src, dst, rate b/s, start, stop)` of 512-byte packets until `end`;
/// the trace in ns-2's old wireless format.
fn run(xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    run_with(Radio::default(), Mib::default(), false, xs, flows, end)
}

/// Nodes on the line Y = 100.
fn line(xs: &[f64]) -> Vec<(f64, f64)> {
    xs.iter().map(|&x| (x, Y)).collect()
}

/// The same with carrier sense only as far as reception reaches
/// (`CSThresh_` set to `RXThresh_`: 250 m), so that nodes more than 250 m
/// apart do not hear each other at all.
fn run_short_sense(xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    let r = Radio::default();
    run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, Mib::default(), false, xs, flows, end)
}

fn run_with(radio: Radio, mib: Mib, newtrace: bool, xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    run_at(radio, mib, newtrace, &line(xs), flows, &[], end)
}

fn run_at(radio: Radio, mib: Mib, newtrace: bool, at: &[(f64, f64)], flows: &[(usize, usize, f64, f64, f64)], moves: &[(usize, f64, f64, f64, f64)], end: f64) -> String {
    run_full(radio, mib, true, newtrace, at, flows, moves, end)
}

/// `bugfix`: ns-2's `bugFix_timer_`.
#[allow(clippy::too_many_arguments)]
fn run_full(radio: Radio, mib: Mib, bugfix: bool, newtrace: bool, at: &[(f64, f64)], flows: &[(usize, usize, f64, f64, f64)], moves: &[(usize, f64, f64, f64, f64)], end: f64) -> String {
    let n = at.len();
    let mut air = Medium::new(Model::two_ray_ground());
    for &(x, y) in at {
        air.add(Station { pos: Mobility { x, y, ..Mobility::default() }, radio, antenna: Antenna::default() });
    }
    let mut w = World {
        now: 0.0,
        seq: 0,
        heap: BinaryHeap::new(),
        evs: Vec::new(),
        rngs: RngSet::new_ns2_default(),
        pkts: Vec::new(),
        sides: (0..n).map(|_| Side { gens: [0; 6] }).collect(),
        flows: Vec::new(),
        air,
        uid: 0,
        out: Vec::new(),
        newtrace,
        reached: Vec::new(),
    };
    let mut stacks: Vec<Stack<usize>> = (0..n).map(|i| Stack::new(Dcf::new(mib, i as u32, n as u32, radio.capture_threshold), i as i32, 50)).collect();
    for st in &mut stacks {
        st.mac.bugfix_timer = bugfix;
    }
    // (spec.tcl schedules the movements before the flows)
    for &(node, t, x, y, speed) in moves {
        w.schedule(t, Ev::SetDest { node, x, y, speed });
    }
    // ports in attach order, per node
    let mut ports = vec![0; n];
    for &(src, dst, rate, start, stop) in flows {
        let sport = ports[src];
        ports[src] += 1;
        let dport = ports[dst];
        ports[dst] += 1;
        w.flows.push(Flow { src, dst, sport, dport, interval: (512 * 8) as f64 / rate, stop, seqno: 0 });
        let flow = w.flows.len() - 1;
        w.schedule(start, Ev::Cbr { flow });
    }
    while let Some(Reverse((t, _, i))) = w.heap.pop() {
        let t = f64::from_bits(t);
        if t > end {
            break;
        }
        w.now = t;
        match w.evs[i] {
            Ev::Timer { node, t, gen } => {
                if w.sides[node].gens[timer_index(t)] == gen {
                    stacks[node].expired(&mut Ctx { w: &mut w, node }, t);
                }
            }
            Ev::Arrive { node, from, frame } => {
                if let Some(f) = w.phy_up(node, from, frame) {
                    stacks[node].arrive(&mut Ctx { w: &mut w, node }, f);
                }
            }
            Ev::Queue { node, pkt } => stacks[node].enqueue(&mut Ctx { w: &mut w, node }, pkt),
            Ev::Agent { node, pkt } => {
                let size = w.pkts[pkt].size;
                w.trace_pkt(Op::Recv, node, "AGT", "---", pkt, size);
            }
            Ev::SetDest { node, x, y, speed } => w.setdest(node, x, y, speed),
            Ev::Cbr { flow } => {
                if let Some((node, pkt)) = w.cbr(flow) {
                    stacks[node].send_down(&mut Ctx { w: &mut w, node }, pkt);
                }
            }
        }
    }
    String::from_utf8(w.out).unwrap()
}

fn fixture(name: &str) -> String {
    let path = format!("{}/../../tests/wireless/dcf/{name}.tr.gz", env!("CARGO_MANIFEST_DIR"));
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = String::new();
    flate2::read::GzDecoder::new(f).read_to_string(&mut s).unwrap();
    s
}

/// Compare line by line, naming the first difference.
fn same(name: &str, ours: &str) {
    let theirs = fixture(name);
    for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
        assert_eq!(a, b, "{name}.tr line {}: ours, then ns-2's", i + 1);
    }
    assert_eq!(ours.lines().count(), theirs.lines().count(), "{name}.tr: line counts");
    assert_eq!(ours, theirs);
}

#[test]
fn two_nodes_one_flow() {
    same("pair", &run(&[100.0, 200.0], &[(0, 1, 200e3, 1.0, 2.0)], 2.5));
}

/// Two senders to one receiver, all in range of each other: contention,
/// the NAV set by frames for others, RTS collisions at the receiver (both
/// frames dropped, the first when the second arrives), retries with the
/// window doubled, the interface queue's drops.
#[test]
fn three_nodes_two_senders() {
    same("three", &run(&[0.0, 100.0, 200.0], &[(0, 1, 400e3, 1.0, 2.0), (2, 1, 400e3, 1.003, 2.0)], 2.5));
}

/// The same with the senders 400 m apart: each hears the other's frames
/// above the carrier-sense threshold but below the receive threshold
/// (garbled: not decoded, the medium busy, then an EIFS).
#[test]
fn three_nodes_garbled_between_the_senders() {
    same("garbled", &run(&[0.0, 200.0, 400.0], &[(0, 1, 400e3, 1.0, 2.0), (2, 1, 400e3, 1.003, 2.0)], 2.5));
}

/// Four nodes, four flows in both directions: ARP requests crossing,
/// packets replaced while their ARP request is out, receivers that are
/// also senders (CTS and ACK frames waiting behind their own traffic).
#[test]
fn four_nodes_four_flows() {
    same("busy", &run(&[0.0, 50.0, 100.0, 150.0], &[(0, 1, 600e3, 1.0, 1.5), (2, 1, 600e3, 1.0011, 1.5), (3, 0, 600e3, 1.0023, 1.5), (1, 3, 300e3, 1.0037, 1.5)], 2.5));
}

/// Hidden terminals: the two senders, 400 m apart, cannot hear each
/// other; their RTS frames collide at the receiver between them (an ARP
/// request too), each unanswered RTS sent again after a wider backoff.
#[test]
fn hidden_senders() {
    same("hidden", &run_short_sense(&[0.0, 200.0, 400.0], &[(0, 1, 400e3, 1.0, 2.0), (2, 1, 400e3, 1.003, 2.0)], 3.5));
}

/// Hidden senders at 100 m and 180 m from the receiver: the nearer one's
/// frames arrive more than ten times stronger (two-ray ground: (1.8)^4),
/// so a frame of the nearer one being received survives the farther
/// one's (captured: the NAV set for an EIFS and the frame's time), while
/// the other way round both are lost.
#[test]
fn hidden_senders_with_capture() {
    same("capture", &run_short_sense(&[0.0, 100.0, 280.0], &[(0, 1, 400e3, 1.0, 2.0), (2, 1, 400e3, 1.003, 2.0)], 3.5));
}

/// The same in use-newtrace's format (positions, the next hop, the
/// MAC and ARP fields by name).
#[test]
fn four_nodes_four_flows_new_format() {
    let flows = [(0, 1, 600e3, 1.0, 1.5), (2, 1, 600e3, 1.0011, 1.5), (3, 0, 600e3, 1.0023, 1.5), (1, 3, 300e3, 1.0037, 1.5)];
    same("busy-new", &run_with(Radio::default(), Mib::default(), true, &[0.0, 50.0, 100.0, 150.0], &flows, 2.5));
}

/// Four nodes, hidden pairs, five saturating flows for two seconds: the
/// queue full (packets and ARP requests dropped), ARP requests replaced,
/// CTS refused while busy (BSY), RTS and ARP frames colliding, and frames
/// given up after their retries: RTS frames (seven), unacknowledged data
/// frames (four) and an ARP reply (RET, the dropped frame's size cut to
/// its payload's).
#[test]
fn crowded_hidden_network() {
    same("crowd", &run_short_sense(&[0.0, 200.0, 400.0, 210.0], &[(0, 1, 800e3, 1.0, 3.0), (2, 1, 800e3, 1.001, 3.0), (3, 0, 800e3, 1.002, 3.0), (1, 2, 800e3, 1.0027, 3.0), (3, 2, 800e3, 1.0031, 3.0)], 3.5));
}

#[test]
fn crowded_hidden_network_new_format() {
    let r = Radio::default();
    let flows = [(0, 1, 800e3, 1.0, 3.0), (2, 1, 800e3, 1.001, 3.0), (3, 0, 800e3, 1.002, 3.0), (1, 2, 800e3, 1.0027, 3.0), (3, 2, 800e3, 1.0031, 3.0)];
    same("crowd-new", &run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, Mib::default(), true, &[0.0, 200.0, 400.0, 210.0], &flows, 3.5));
}

/// Five nodes on a line, 200 m apart, carrier sense to 250 m: every
/// other node hidden from the next but one, data frames colliding at
/// their receivers (COL on data), unacknowledged data frames sent again
/// after an RTS each time and given up after four attempts.
#[test]
fn chain_of_hidden_neighbours() {
    let flows = [(1, 2, 800e3, 1.0, 3.0), (0, 1, 800e3, 1.0013, 3.0), (3, 2, 800e3, 1.0021, 3.0), (4, 3, 800e3, 1.0032, 3.0), (2, 1, 400e3, 1.0041, 3.0)];
    same("line", &run_short_sense(&[0.0, 200.0, 400.0, 600.0, 800.0], &flows, 3.5));
}

/// The crowded network without RTS/CTS (`RTSThreshold_ 3000`): data
/// frames sent directly after their backoff, colliding, acknowledged
/// without a CTS before them, their failures counted on the short count
/// (seven attempts).
#[test]
fn crowded_hidden_network_without_rts() {
    let r = Radio::default();
    let mib = Mib { rts_threshold: 3000, ..Mib::default() };
    let flows = [(0, 1, 800e3, 1.0, 3.0), (2, 1, 800e3, 1.001, 3.0), (3, 0, 800e3, 1.002, 3.0), (1, 2, 800e3, 1.0027, 3.0), (3, 2, 800e3, 1.0031, 3.0)];
    same("norts", &run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, mib, false, &[0.0, 200.0, 400.0, 210.0], &flows, 3.5));
}

/// The same with data at 11 Mb/s (`dataRate_ 11Mb`; ACKs and broadcasts
/// at the basic rate, 1 Mb/s) and flows of 2 Mb/s.
#[test]
fn crowded_hidden_network_at_11_mbps() {
    let r = Radio::default();
    let mib = Mib { rts_threshold: 3000, data_rate: 11e6, ..Mib::default() };
    let flows = [(0, 1, 2e6, 1.0, 1.6), (2, 1, 2e6, 1.001, 1.6), (3, 0, 2e6, 1.002, 1.6), (1, 2, 2e6, 1.0027, 1.6), (3, 2, 2e6, 1.0031, 1.6)];
    same("fast", &run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, mib, false, &[0.0, 200.0, 400.0, 210.0], &flows, 3.5));
}

/// A rate as ns-2 reads it ("800kb", "2Mb").
fn rate(t: &str) -> f64 {
    let (num, mult) = if let Some(v) = t.strip_suffix("Mb") { (v, 1e6) } else if let Some(v) = t.strip_suffix("kb") { (v, 1e3) } else { (t, 1.0) };
    num.parse::<f64>().unwrap() * mult
}

/// The network of a spec (tests/wireless/dcf/spec.tcl says its format).
fn run_spec(spec: &str) -> String {
    let mut at = Vec::new();
    let mut flows = Vec::new();
    let mut moves = Vec::new();
    let (mut radio, mut mib, mut newtrace) = (Radio::default(), Mib::default(), false);
    for line in spec.lines() {
        let mut w = line.split_whitespace();
        match w.next() {
            Some("nodes") => at.extend(w.map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })),
            Some("flows") => flows.extend(w.map(|f| {
                let v: Vec<&str> = f.split(':').collect();
                (v[0].parse().unwrap(), v[1].parse().unwrap(), rate(v[2]), v[3].parse().unwrap(), v[4].parse().unwrap())
            })),
            Some("moves") => moves.extend(w.map(|m| {
                let v: Vec<&str> = m.split(':').collect();
                (v[0].parse().unwrap(), v[1].parse().unwrap(), v[2].parse().unwrap(), v[3].parse().unwrap(), v[4].parse().unwrap())
            })),
            Some("trace") => newtrace = w.next() == Some("new"),
            Some("rts") => mib.rts_threshold = w.next().unwrap().parse().unwrap(),
            Some("cs") => {
                if w.next() == Some("short") {
                    radio.carrier_sense_threshold = radio.receive_threshold;
                }
            }
            Some("rate") => mib.data_rate = w.next().unwrap().parse::<f64>().unwrap() * 1e6,
            _ => panic!("spec line {line}"),
        }
    }
    run_at(radio, mib, newtrace, &at, &flows, &moves, 3.5)
}

/// Random networks (tests/wireless/dcf/random.py: 2 to 6 nodes in a
/// 500 m square, up to five flows, RTS/CTS on or off, carrier sense at
/// its default or cut to 250 m, data at 1 or 11 Mb/s), each compared with
/// ns-2's trace of it.
#[test]
fn random_networks() {
    let dir = format!("{}/../../tests/wireless/dcf/random", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.unwrap().file_name().into_string().ok()).filter(|n| n.ends_with(".spec")).collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let spec = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let stem = name.trim_end_matches(".spec");
        same(&format!("random/{stem}"), &run_spec(&spec));
    }
}

/// The crowded network with `bugFix_timer_` off, with and without
/// RTS/CTS: a frame's first wait, and the wait before an RTS, is one
/// deferral of a DIFS and the drawn slots (not a backoff timer, which a
/// busy medium would pause).
#[test]
fn crowded_hidden_network_with_the_old_timer() {
    let r = Radio::default();
    let short = Radio { carrier_sense_threshold: r.receive_threshold, ..r };
    let at = line(&[0.0, 200.0, 400.0, 210.0]);
    let flows = [(0, 1, 800e3, 1.0, 3.0), (2, 1, 800e3, 1.001, 3.0), (3, 0, 800e3, 1.002, 3.0), (1, 2, 800e3, 1.0027, 3.0), (3, 2, 800e3, 1.0031, 3.0)];
    same("oldtimer", &run_full(short, Mib::default(), false, false, &at, &flows, &[], 3.5));
    let mib = Mib { rts_threshold: 3000, ..Mib::default() };
    same("oldtimer-norts", &run_full(short, mib, false, false, &at, &flows, &[], 3.5));
}
