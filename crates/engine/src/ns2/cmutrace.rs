//! ns-2's wireless trace lines (trace/cmu-trace.cc): the old CMU format
//! and the `use-newtrace` format of a packet seen by a trace point of a
//! mobile node's stack (agent AGT, routing RTR, interface queue IFQ, MAC),
//! and the nam records of the same event.  A line is made from a typed
//! [`Event`] (what the trace point knows of the packet); the stack fills
//! it in (docs/wireless.md: the stack is not built yet, so nothing writes
//! these lines in a run so far).  The formats are ns-2 2.35's, byte for
//! byte (crates/engine/tests/cmutrace.rs checks every line of seed 002's
//! traces).

use crate::ns2::printf::{push_f, push_int};

/// What happened to the packet at the trace point: ns-2's `s`, `r`, `f`
/// (a routing agent sends a packet it did not make) and `D` (dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Send,
    Recv,
    Forward,
    Drop,
}

/// The 802.11 header's fields a line shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MacFields {
    /// Duration (the NAV value, microseconds).
    pub duration: u32,
    /// Receiver and transmitter addresses (broadcast: all ones).
    pub ra: u32,
    pub ta: u32,
    /// The ether type of the payload (0x800 IP, 0x806 ARP; 0 before the
    /// link layer has set it).
    pub ether_type: u32,
}

/// The IP header's fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IpFields {
    pub src: i32,
    pub sport: i32,
    pub dst: i32,
    pub dport: i32,
    pub flow: i32,
    pub ttl: i32,
}

/// An AODV message (aodv/aodv_packet.h) as the trace shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aodv {
    Request { kind: u8, hops: i32, bcast_id: i32, dst: i32, dst_seqno: i32, src: i32, src_seqno: i32 },
    /// A reply, an error or a hello (told apart by `kind`: 0x4 reply, 0x8
    /// error, else hello).
    Reply { kind: u8, hops: i32, dst: i32, dst_seqno: i32, lifetime: f64 },
}

/// What follows the IP header.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Upper {
    /// Nothing (a routing message without a format of its own, `message`).
    Nothing,
    Cbr { seqno: i32, forwards: i32, opt_forwards: i32 },
    Tcp { seqno: i32, ackno: i32, forwards: i32, opt_forwards: i32 },
    Aodv(Aodv),
}

/// The packet's headers past the MAC's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Body {
    /// A MAC frame of its own (RTS, CTS, ACK): nothing more.
    Mac,
    Arp { request: bool, sender_mac: i32, sender: i32, target_mac: i32, target: i32 },
    Ip(IpFields, Upper),
}

/// A packet at a trace point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event<'a> {
    pub op: Op,
    pub time: f64,
    /// The node of the trace point and the packet's next hop.
    pub node: i32,
    pub next_hop: i32,
    /// The node's position when the packet passes.
    pub x: f64,
    pub y: f64,
    pub z: f64,
    /// The layer ("AGT", "RTR", "IFQ", "MAC") and the reason ("---",
    /// "CBK", "NRTE", "TTL", "ARP", ...).
    pub layer: &'a str,
    pub why: &'a str,
    pub uid: i32,
    /// The packet type's name ("cbr", "AODV", "tcp", "message", ...; for a
    /// MAC frame in the old format, "RTS", "CTS" or "ACK").
    pub ptype: &'a str,
    pub size: i32,
    pub mac: MacFields,
    pub body: Body,
}

fn s(b: &mut Vec<u8>, t: &str) {
    b.extend_from_slice(t.as_bytes());
}

fn d(b: &mut Vec<u8>, v: i32) {
    push_int(b, v as i64, 0, false);
}

fn x(b: &mut Vec<u8>, v: u32) {
    use std::io::Write;
    let _ = write!(b, "{v:x}");
}

/// `%Ns`: right-aligned in `n` columns.
fn padded(b: &mut Vec<u8>, t: &str, n: usize) {
    for _ in t.len()..n {
        b.push(b' ');
    }
    s(b, t);
}

/// An AODV message kind's name.
fn aodv_name(kind: u8) -> &'static str {
    match kind {
        0x4 => "REPLY",
        0x8 => "ERROR",
        _ => "HELLO",
    }
}

/// Append event `e`'s trace line (with its newline): the new format if
/// `newtrace`, else the old one.
pub fn push_line(b: &mut Vec<u8>, e: &Event, newtrace: bool) {
    push_line_energy(b, e, newtrace, None);
}

/// A node's energy as its trace lines show it (the new format's `-Ne`,
/// the old format's `[energy .. ei .. es .. et .. er ..]`), when it has an
/// energy model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnergyFields {
    pub energy: f64,
    pub idle: f64,
    pub sleep: f64,
    pub tx: f64,
    pub rx: f64,
}

/// `push_line` for a node with (`Some`) or without an energy model.
pub fn push_line_energy(b: &mut Vec<u8>, e: &Event, newtrace: bool, energy: Option<&EnergyFields>) {
    if newtrace {
        push_new(b, e, energy);
    } else {
        push_old(b, e, energy);
    }
    b.push(b'\n');
}

fn push_new(b: &mut Vec<u8>, e: &Event, energy: Option<&EnergyFields>) {
    b.push(match e.op {
        Op::Send => b's',
        Op::Recv => b'r',
        Op::Forward => b'f',
        Op::Drop => b'd',
    });
    s(b, " -t ");
    push_f(b, e.time, 9, 0, false);
    s(b, " -Hs ");
    d(b, e.node);
    s(b, " -Hd ");
    d(b, e.next_hop);
    s(b, " -Ni ");
    d(b, e.node);
    s(b, " -Nx ");
    push_f(b, e.x, 2, 0, false);
    s(b, " -Ny ");
    push_f(b, e.y, 2, 0, false);
    s(b, " -Nz ");
    push_f(b, e.z, 2, 0, false);
    // (the energy: -1 without an energy model)
    s(b, " -Ne ");
    push_f(b, energy.map_or(-1.0, |en| en.energy), 6, 0, false);
    s(b, " -Nl ");
    padded(b, e.layer, 3);
    s(b, " -Nw ");
    s(b, e.why);
    s(b, " -Ma ");
    x(b, e.mac.duration);
    s(b, " -Md ");
    x(b, e.mac.ra);
    s(b, " -Ms ");
    x(b, e.mac.ta);
    s(b, " -Mt ");
    x(b, e.mac.ether_type);
    b.push(b' ');
    match e.body {
        Body::Mac => {}
        Body::Arp { request, sender_mac, sender, target_mac, target } => {
            s(b, "-P arp -Po ");
            s(b, if request { "REQUEST" } else { "REPLY" });
            s(b, " -Pms ");
            d(b, sender_mac);
            s(b, " -Ps ");
            d(b, sender);
            s(b, " -Pmd ");
            d(b, target_mac);
            s(b, " -Pd ");
            d(b, target);
            b.push(b' ');
        }
        Body::Ip(ip, upper) => {
            s(b, "-Is ");
            d(b, ip.src);
            b.push(b'.');
            d(b, ip.sport);
            s(b, " -Id ");
            d(b, ip.dst);
            b.push(b'.');
            d(b, ip.dport);
            s(b, " -It ");
            s(b, e.ptype);
            s(b, " -Il ");
            d(b, e.size);
            s(b, " -If ");
            d(b, ip.flow);
            s(b, " -Ii ");
            d(b, e.uid);
            s(b, " -Iv ");
            d(b, ip.ttl);
            b.push(b' ');
            match upper {
                Upper::Nothing => {}
                Upper::Cbr { seqno, forwards, opt_forwards } => {
                    s(b, "-Pn cbr -Pi ");
                    d(b, seqno);
                    s(b, " -Pf ");
                    d(b, forwards);
                    s(b, " -Po ");
                    d(b, opt_forwards);
                    b.push(b' ');
                }
                Upper::Tcp { seqno, ackno, forwards, opt_forwards } => {
                    s(b, "-Pn tcp -Ps ");
                    d(b, seqno);
                    s(b, " -Pa ");
                    d(b, ackno);
                    s(b, " -Pf ");
                    d(b, forwards);
                    s(b, " -Po ");
                    d(b, opt_forwards);
                    b.push(b' ');
                }
                Upper::Aodv(Aodv::Request { kind, hops, bcast_id, dst, dst_seqno, src, src_seqno }) => {
                    s(b, "-P aodv -Pt 0x");
                    x(b, kind as u32);
                    s(b, " -Ph ");
                    d(b, hops);
                    s(b, " -Pb ");
                    d(b, bcast_id);
                    s(b, " -Pd ");
                    d(b, dst);
                    s(b, " -Pds ");
                    d(b, dst_seqno);
                    s(b, " -Ps ");
                    d(b, src);
                    s(b, " -Pss ");
                    d(b, src_seqno);
                    s(b, " -Pc REQUEST ");
                }
                Upper::Aodv(Aodv::Reply { kind, hops, dst, dst_seqno, lifetime }) => {
                    s(b, "-P aodv -Pt 0x");
                    x(b, kind as u32);
                    s(b, " -Ph ");
                    d(b, hops);
                    s(b, " -Pd ");
                    d(b, dst);
                    s(b, " -Pds ");
                    d(b, dst_seqno);
                    s(b, " -Pl ");
                    push_f(b, lifetime, 6, 0, false);
                    s(b, " -Pc ");
                    s(b, aodv_name(kind));
                    b.push(b' ');
                }
            }
        }
    }
}

fn push_old(b: &mut Vec<u8>, e: &Event, energy: Option<&EnergyFields>) {
    b.push(match e.op {
        Op::Send => b's',
        Op::Recv => b'r',
        Op::Forward => b'f',
        Op::Drop => b'D',
    });
    b.push(b' ');
    push_f(b, e.time, 9, 0, false);
    s(b, " _");
    d(b, e.node);
    s(b, "_ ");
    padded(b, e.layer, 3);
    b.push(b' ');
    padded(b, e.why, 4);
    b.push(b' ');
    d(b, e.uid);
    b.push(b' ');
    s(b, e.ptype);
    b.push(b' ');
    d(b, e.size);
    s(b, " [");
    x(b, e.mac.duration);
    b.push(b' ');
    x(b, e.mac.ra);
    b.push(b' ');
    x(b, e.mac.ta);
    b.push(b' ');
    x(b, e.mac.ether_type);
    s(b, "] ");
    if let Some(en) = energy {
        s(b, "[energy ");
        push_f(b, en.energy, 6, 0, false);
        for (name, v) in [(" ei ", en.idle), (" es ", en.sleep), (" et ", en.tx), (" er ", en.rx)] {
            s(b, name);
            push_f(b, v, 3, 0, false);
        }
        s(b, "] ");
    }
    match e.body {
        Body::Mac => {}
        Body::Arp { request, sender_mac, sender, target_mac, target } => {
            s(b, "------- [");
            s(b, if request { "REQUEST" } else { "REPLY" });
            b.push(b' ');
            d(b, sender_mac);
            b.push(b'/');
            d(b, sender);
            b.push(b' ');
            d(b, target_mac);
            b.push(b'/');
            d(b, target);
            b.push(b']');
        }
        Body::Ip(ip, upper) => {
            s(b, "------- [");
            d(b, ip.src);
            b.push(b':');
            d(b, ip.sport);
            b.push(b' ');
            d(b, ip.dst);
            b.push(b':');
            d(b, ip.dport);
            b.push(b' ');
            d(b, ip.ttl);
            b.push(b' ');
            d(b, if e.next_hop < 0 { 0 } else { e.next_hop });
            s(b, "] ");
            match upper {
                Upper::Nothing => {}
                Upper::Cbr { seqno, forwards, opt_forwards } => {
                    b.push(b'[');
                    d(b, seqno);
                    s(b, "] ");
                    d(b, forwards);
                    b.push(b' ');
                    d(b, opt_forwards);
                }
                Upper::Tcp { seqno, ackno, forwards, opt_forwards } => {
                    b.push(b'[');
                    d(b, seqno);
                    b.push(b' ');
                    d(b, ackno);
                    s(b, "] ");
                    d(b, forwards);
                    b.push(b' ');
                    d(b, opt_forwards);
                }
                Upper::Aodv(Aodv::Request { kind, hops, bcast_id, dst, dst_seqno, src, src_seqno }) => {
                    s(b, "[0x");
                    x(b, kind as u32);
                    b.push(b' ');
                    d(b, hops);
                    b.push(b' ');
                    d(b, bcast_id);
                    s(b, " [");
                    d(b, dst);
                    b.push(b' ');
                    d(b, dst_seqno);
                    s(b, "] [");
                    d(b, src);
                    b.push(b' ');
                    d(b, src_seqno);
                    s(b, "]] (REQUEST)");
                }
                Upper::Aodv(Aodv::Reply { kind, hops, dst, dst_seqno, lifetime }) => {
                    s(b, "[0x");
                    x(b, kind as u32);
                    b.push(b' ');
                    d(b, hops);
                    s(b, " [");
                    d(b, dst);
                    b.push(b' ');
                    d(b, dst_seqno);
                    s(b, "] ");
                    push_f(b, lifetime, 6, 0, false);
                    s(b, "] (");
                    s(b, aodv_name(kind));
                    b.push(b')');
                }
            }
        }
    }
}

/// nam's records of the event (cmu-trace.cc's nam_format), each with its
/// newline: a send is `+`, `-` and `h` (hop) records; a receive by the
/// routing layer of a packet not broadcast writes nothing; a drop is `d`.
/// `dst` is the IP destination (-1 broadcast).  Packet colour 0, without
/// an energy model.
pub fn push_nam(b: &mut Vec<u8>, e: &Event, dst: i32) {
    push_nam_color(b, e, dst, None);
}

/// `push_nam` with the node's colour change, if any (`-c NEW -o OLD`: the
/// node's energy has crossed a level since this trace point last wrote),
/// written before the event's own record.
pub fn push_nam_color(b: &mut Vec<u8>, e: &Event, dst: i32, color: Option<&str>) {
    let rec = |b: &mut Vec<u8>, op: u8, trailing: bool| {
        b.push(op);
        s(b, " -t ");
        push_f(b, e.time, 9, 0, false);
        s(b, " -s ");
        d(b, e.node);
        // (the next hop's node id; -1 when there is none, as for an
        // agent's packet, whose next hop is not set yet)
        s(b, " -d ");
        d(b, if e.next_hop < 0 { -1 } else { e.next_hop });
        s(b, " -p ");
        s(b, e.ptype);
        s(b, " -e ");
        d(b, e.size);
        s(b, " -c 2 -a 0 -i ");
        d(b, e.uid);
        s(b, " -k ");
        padded(b, e.layer, 3);
        if trailing {
            b.push(b' ');
        }
        b.push(b'\n');
    };
    let op = match e.op {
        Op::Send | Op::Forward => b'h',
        Op::Recv => b'r',
        Op::Drop => b'd',
    };
    if op == b'h' {
        rec(b, b'+', true);
        rec(b, b'-', false);
    }
    if e.layer == "RTR" && e.op == Op::Recv && dst != -1 {
        return;
    }
    if let Some(c) = color {
        s(b, "n -t ");
        push_f(b, e.time, 9, 0, false);
        s(b, " -s ");
        d(b, e.node);
        s(b, " -S COLOR ");
        s(b, c);
        b.push(b'\n');
    }
    rec(b, op, false);
}
