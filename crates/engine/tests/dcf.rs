//! The 802.11 DCF state machine (wireless/dcf.rs) run in static ad hoc
//! networks and compared, line for line, with the trace the real ns-2 2.35
//! writes for the same network (tests/wireless/dcf/dcf.tcl; `sh
//! tests/wireless/dcf/regen.sh` regenerates the fixtures with /usr/bin/ns).
//!
//! The rest of each node is built here around the machine, as ns-2 has it
//! for `-adhocRouting DumbAgent` (every destination one hop away): CBR
//! sources over UDP, the routing agent passing packets straight down, the
//! link layer with its 25 us delay and the ARP table (requests and replies
//! 5 us after), the routing-first interface queue (wireless/ifq.rs), the
//! radio's thresholds with two-ray ground propagation (wireless/phy.rs,
//! propagation.rs), and the channel's sorted node list deciding who hears a
//! frame and in which order (wireless/channel.rs), with a scheduler that
//! breaks ties in scheduling order, as ns-2's.  Only the MAC trace lines
//! and the agents' are written; the MAC trace is on in the scripts, so the
//! fixtures hold every RTS, CTS, data frame and ACK, every collision drop,
//! every queue and ARP drop.  The random draws (the backoffs') come from
//! ns-2's default generator, in the order the machine makes them.

use dumbbell_engine::ns2::cmutrace::{push_line, Body, Event, IpFields, MacFields, Op, Upper};
use dumbbell_engine::random::RngSet;
use dumbbell_engine::wireless::arp::{ArpTable, Resolve};
use dumbbell_engine::wireless::channel::NodeList;
use dumbbell_engine::wireless::dcf::{Dcf, Failure, Frame, Host, Kind, Outgoing, Timer, Why, BROADCAST};
use dumbbell_engine::wireless::ifq::InterfaceQueue;
use dumbbell_engine::wireless::mac80211::Mib;
use dumbbell_engine::wireless::phy::{Radio, Reception};
use dumbbell_engine::wireless::propagation::{Model, Path};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::Read;

const LL_DELAY: f64 = 25e-6;
const ARP_DELAY: f64 = 5e-6;
const SPEED_OF_LIGHT: f64 = 300000000.0;
const ANTENNA_Z: f64 = 1.5;
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
    x: f64,
    ifq: InterfaceQueue<usize>,
    arp: ArpTable<usize>,
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
    list: NodeList,
    sorted: bool,
    dist_cst: f64,
    radio: Radio,
    model: Model,
    uid: i32,
    out: Vec<u8>,
    newtrace: bool,
    reached: Vec<usize>,
}

fn timer_index(t: Timer) -> usize {
    match t {
        Timer::Defer => 0,
        Timer::Backoff => 1,
        Timer::Nav => 2,
        Timer::Recv => 3,
        Timer::Send => 4,
        Timer::Interface => 5,
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
        let p = self.pkts[pkt];
        let (body, ptype) = self.body(&p);
        let e = Event { op, time: self.now, node: node as i32, next_hop: NO_NEXT_HOP, x: self.sides[node].x, y: Y, z: 0.0, layer, why, uid: p.uid, ptype, size: size as i32, mac: p.mac, body };
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
                let ptype = match f.kind {
                    Kind::Rts => "RTS",
                    Kind::Cts => "CTS",
                    Kind::Ack => "ACK",
                    Kind::Data => unreachable!(),
                };
                let mac = MacFields { duration: f.duration as u32, ra: f.ra, ta: f.ta, ether_type: 0 };
                let e = Event { op, time: self.now, node: node as i32, next_hop: NO_NEXT_HOP, x: self.sides[node].x, y: Y, z: 0.0, layer: "MAC", why, uid: 0, ptype, size: f.size as i32, mac, body: Body::Mac };
                push_line(&mut self.out, &e, self.newtrace);
            }
        }
    }

    fn copy(&mut self, pkt: usize) -> usize {
        self.pkts.push(self.pkts[pkt]);
        self.pkts.len() - 1
    }

    /// The link layer sends a packet down (ns-2's LL::sendDown with its
    /// ARP table).
    fn ll_down(&mut self, node: usize, pkt: usize) {
        self.pkts[pkt].mac.ta = node as u32;
        self.pkts[pkt].mac.ether_type = 0x800;
        let dst = match self.pkts[pkt].content {
            Content::Cbr { dst, .. } => dst,
            Content::Arp { .. } => unreachable!(),
        };
        match self.sides[node].arp.resolve(dst, pkt) {
            Resolve::Known(mac) => {
                self.pkts[pkt].mac.ra = mac as u32;
                self.schedule(LL_DELAY, Ev::Queue { node, pkt });
            }
            Resolve::Request { dropped } => {
                if let Some(old) = dropped {
                    let size = self.pkts[old].size;
                    self.trace_pkt(Op::Drop, node, "IFQ", "ARP", old, size);
                }
                self.pkts.push(Pkt {
                    content: Content::Arp { request: true, sha: node as i32, spa: node as i32, tha: 0, tpa: dst },
                    uid: 0,
                    size: 28,
                    forwards: 0,
                    mac: MacFields { duration: 0, ra: BROADCAST, ta: node as u32, ether_type: 0x806 },
                });
                let arp = self.pkts.len() - 1;
                self.schedule(ARP_DELAY, Ev::Queue { node, pkt: arp });
            }
            Resolve::GiveUp { held, this } => {
                for p in held.into_iter().chain([this]) {
                    let size = self.pkts[p].size;
                    self.trace_pkt(Op::Drop, node, "IFQ", "ARP", p, size);
                }
            }
        }
    }

    fn ll_up(&mut self, node: usize, pkt: usize) {
        match self.pkts[pkt].content {
            Content::Arp { request, sha, spa, tpa, .. } => {
                if let Some(held) = self.sides[node].arp.learn(spa, sha) {
                    self.pkts[held].mac.ra = sha as u32;
                    self.schedule(ARP_DELAY, Ev::Queue { node, pkt: held });
                }
                if request && tpa == node as i32 {
                    let p = &mut self.pkts[pkt];
                    p.size = 28;
                    p.mac = MacFields { duration: p.mac.duration, ra: sha as u32, ta: node as u32, ether_type: 0x806 };
                    p.content = Content::Arp { request: false, sha: node as i32, spa: tpa, tha: sha, tpa: spa };
                    self.schedule(ARP_DELAY, Ev::Queue { node, pkt });
                }
            }
            Content::Cbr { .. } => self.schedule(LL_DELAY, Ev::Agent { node, pkt }),
        }
    }

    /// The channel: a copy of the frame reaches each node in range, in
    /// the sorted list's order, after the propagation delay.
    fn channel(&mut self, node: usize, f: &Frame<usize>) {
        let xs: Vec<f64> = self.sides.iter().map(|s| s.x).collect();
        let x = |i: usize| xs[i];
        let y = |_: usize| Y;
        if !self.sorted {
            self.list.sort(&x);
            self.sorted = true;
        }
        let mut reached = std::mem::take(&mut self.reached);
        self.list.affected(node, self.dist_cst + 5.0, &x, &y, &mut reached);
        for &r in &reached {
            if r == node {
                continue;
            }
            let mut g = *f;
            if let Some(p) = f.payload {
                g.payload = Some(self.copy(p));
            }
            let dx = xs[r] - xs[node];
            let d = (dx * dx + 0.0 * 0.0 + 0.0 * 0.0).sqrt();
            self.schedule(d / SPEED_OF_LIGHT, Ev::Arrive { node: r, from: node, frame: g });
        }
        self.reached = reached;
    }

    /// The radio judges a frame whose first bit arrives.
    fn phy_up(&mut self, node: usize, src_x: f64, mut f: Frame<usize>) -> Option<Frame<usize>> {
        let dx = self.sides[node].x - src_x;
        let d = (dx * dx).sqrt();
        let r = self.radio;
        let pr = self.model.received_power(&Path { pt: r.pt, gt: 1.0, gr: 1.0, lambda: r.lambda, loss: r.loss, d, ht: ANTENNA_Z, hr: ANTENNA_Z });
        match r.judge(pr) {
            Reception::Unheard => return None,
            Reception::Garbled => f.error = true,
            Reception::Clear => {}
        }
        f.rx_power = pr;
        Some(f)
    }

    fn cbr(&mut self, flow: usize) {
        let f = &mut self.flows[flow];
        if self.now >= f.stop {
            return;
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
        self.ll_down(node, pkt);
        self.schedule(interval, Ev::Cbr { flow });
    }
}

struct Ctx<'a> {
    w: &'a mut World,
    node: usize,
}

impl Host<usize> for Ctx<'_> {
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

    fn up(&mut self, f: Frame<usize>) {
        let pkt = f.payload.expect("a data frame");
        self.w.pkts[pkt].size = f.size;
        self.w.pkts[pkt].forwards += 1;
        self.w.trace_frame(Op::Recv, self.node, "---", &f);
        self.w.ll_up(self.node, pkt);
    }

    fn log(&mut self, f: Frame<usize>) {
        self.w.trace_frame(Op::Recv, self.node, "---", &f);
    }

    fn drop(&mut self, f: Frame<usize>, why: Why) {
        self.w.trace_frame(Op::Drop, self.node, why_code(why), &f);
    }

    fn free(&mut self, _: Frame<usize>) {}

    fn has_failure_callback(&self, _: &Frame<usize>) -> bool {
        // DumbAgent sets none
        false
    }

    fn failed(&mut self, _: &Frame<usize>, _: Failure) {
        unreachable!("no failure call-back")
    }

    fn unknown_sender(&mut self, src: u32, dst: u32) {
        panic!("no sender beyond GOD's count here ({src} to {dst})");
    }

    fn resume(&mut self) -> Option<Outgoing<usize>> {
        let pkt = self.w.sides[self.node].ifq.resume()?;
        Some(outgoing(&self.w.pkts[pkt], pkt))
    }
}

fn outgoing(p: &Pkt, pkt: usize) -> Outgoing<usize> {
    Outgoing { payload: pkt, size: p.size, ra: p.mac.ra, ta: p.mac.ta }
}

/// Run a network of nodes at `xs` (on a line) with CBR flows
/// `(src, dst, rate b/s, start, stop)` of 512-byte packets until `end`;
/// the trace in ns-2's old wireless format.
fn run(xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    run_with(Radio::default(), false, xs, flows, end)
}

/// The same with carrier sense only as far as reception reaches
/// (`CSThresh_` set to `RXThresh_`: 250 m), so that nodes more than 250 m
/// apart do not hear each other at all.
fn run_short_sense(xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    let r = Radio::default();
    run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, false, xs, flows, end)
}

fn run_with(radio: Radio, newtrace: bool, xs: &[f64], flows: &[(usize, usize, f64, f64, f64)], end: f64) -> String {
    let n = xs.len();
    let model = Model::two_ray_ground();
    let mut w = World {
        now: 0.0,
        seq: 0,
        heap: BinaryHeap::new(),
        evs: Vec::new(),
        rngs: RngSet::new_ns2_default(),
        pkts: Vec::new(),
        sides: xs.iter().map(|&x| Side { x, ifq: InterfaceQueue::new(50, true), arp: ArpTable::default(), gens: [0; 6] }).collect(),
        flows: Vec::new(),
        list: NodeList::default(),
        sorted: false,
        dist_cst: radio.carrier_sense_range(&model, ANTENNA_Z),
        radio,
        model,
        uid: 0,
        out: Vec::new(),
        newtrace,
        reached: Vec::new(),
    };
    for i in 0..n {
        w.list.add(i);
    }
    let mut dcfs: Vec<Dcf<usize>> = (0..n).map(|i| Dcf::new(Mib::default(), i as u32, n as u32, radio.capture_threshold)).collect();
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
                    dcfs[node].expired(&mut Ctx { w: &mut w, node }, t);
                }
            }
            Ev::Arrive { node, from, frame } => {
                let src_x = w.sides[from].x;
                if let Some(f) = w.phy_up(node, src_x, frame) {
                    dcfs[node].arrive(&mut Ctx { w: &mut w, node }, f);
                }
            }
            Ev::Queue { node, pkt } => {
                let a = w.sides[node].ifq.arrive(pkt, false);
                if let Some(d) = a.dropped {
                    let size = w.pkts[d].size;
                    w.trace_pkt(Op::Drop, node, "IFQ", "---", d, size);
                }
                if let Some(p) = a.send {
                    let o = outgoing(&w.pkts[p], p);
                    dcfs[node].send(&mut Ctx { w: &mut w, node }, o);
                }
            }
            Ev::Agent { node, pkt } => {
                let size = w.pkts[pkt].size;
                w.trace_pkt(Op::Recv, node, "AGT", "---", pkt, size);
            }
            Ev::Cbr { flow } => w.cbr(flow),
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
    same("busy-new", &run_with(Radio::default(), true, &[0.0, 50.0, 100.0, 150.0], &flows, 2.5));
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
    same("crowd-new", &run_with(Radio { carrier_sense_threshold: r.receive_threshold, ..r }, true, &[0.0, 200.0, 400.0, 210.0], &flows, 3.5));
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
