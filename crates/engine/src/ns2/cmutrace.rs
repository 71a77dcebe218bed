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
use crate::wireless::dsr_header::SrHeader;

/// What happened to the packet at the trace point: ns-2's `s`, `r`, `f`
/// (a routing agent sends a packet it did not make) and `D` (dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Send,
    Recv,
    Forward,
    Drop,
    /// The end of a frame's transmission (`-eotTrace ON`, `x`).
    Eot,
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

/// A DSR source-route header (dsr/hdr_sr.h) as the trace shows it: the
/// source route's length, the route request (flag and id), the route
/// reply (flag, length, first and last address), the route error (flag,
/// count, and the last one's node to tell and broken link).  ns-2 prints
/// the request's id again in the reply's place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dsr {
    pub addrs: i32,
    pub request: i32,
    pub seq: i32,
    pub reply: i32,
    pub reply_len: i32,
    pub reply_first: i32,
    pub reply_last: i32,
    pub error: i32,
    pub errors: i32,
    pub err_tell: i32,
    pub err_from: i32,
    pub err_to: i32,
}

/// The fields of DSR header `h` the trace shows (cmu-trace.cc's
/// `format_dsr`: the reply's first and last address, the last broken
/// link).
pub fn dsr_fields(h: &SrHeader) -> Dsr {
    let last_reply = if h.reply_len > 1 { h.reply_len - 1 } else { 0 };
    let last_err = if h.num_errors > 1 { h.num_errors - 1 } else { 0 };
    let e = h.errors[last_err];
    Dsr {
        addrs: h.num_addrs as i32,
        request: h.request as i32,
        seq: h.req_id,
        reply: h.reply as i32,
        reply_len: h.reply_len as i32,
        reply_first: h.reply_addrs[0],
        reply_last: h.reply_addrs[last_reply],
        error: h.error as i32,
        errors: h.num_errors as i32,
        err_tell: e.tell,
        err_from: e.from,
        err_to: e.to,
    }
}

/// What follows the IP header.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Upper {
    /// Nothing (a routing message without a format of its own, `message`).
    Nothing,
    Cbr { seqno: i32, forwards: i32, opt_forwards: i32 },
    Tcp { seqno: i32, ackno: i32, forwards: i32, opt_forwards: i32 },
    Aodv(Aodv),
    /// A DSR packet of its own (ptype `DSR`: requests, replies, errors).
    /// (An agent's packet carrying a source route shows its own fields.)
    Dsr(Dsr),
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
        Op::Eot => b'x',
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
                Upper::Dsr(r) => {
                    s(b, "-P dsr -Ph ");
                    d(b, r.addrs);
                    s(b, " -Pq ");
                    d(b, r.request);
                    s(b, " -Ps ");
                    d(b, r.seq);
                    s(b, " -Pp ");
                    d(b, r.reply);
                    s(b, " -Pn ");
                    d(b, r.seq);
                    s(b, " -Pl ");
                    d(b, r.reply_len);
                    s(b, " -Pe ");
                    d(b, r.reply_first);
                    s(b, "->");
                    d(b, r.reply_last);
                    s(b, " -Pw ");
                    d(b, r.error);
                    s(b, " -Pm ");
                    d(b, r.errors);
                    s(b, " -Pc ");
                    d(b, r.err_tell);
                    s(b, " -Pb ");
                    d(b, r.err_from);
                    s(b, "->");
                    d(b, r.err_to);
                    b.push(b' ');
                }
            }
        }
    }
}

/// Append event `e`'s line (with its newline) in the tagged format
/// (`$ns use-taggedtrace` before the node is made: cmu-trace.cc's
/// `pt_->tagged()` branches), which ns-2 checks before the new format.
/// The event's `next_hop` is the next hop's node id, or negative when no
/// node has that address (ns-2 looks the node up and prints -1); the
/// layer's reason is not shown; a MAC frame of the MAC's own is `MAC`.
pub fn push_tagged(b: &mut Vec<u8>, e: &Event, energy: Option<&EnergyFields>) {
    b.push(match e.op {
        Op::Send => b'+',
        Op::Recv => b'r',
        Op::Forward => b'h',
        Op::Drop => b'd',
        Op::Eot => b'x',
    });
    b.push(b' ');
    crate::ns2::printf::push_g(b, e.time, 15);
    s(b, " -s ");
    d(b, e.node);
    s(b, " -d ");
    d(b, if e.next_hop < 0 { -1 } else { e.next_hop });
    s(b, " -p ");
    s(b, if matches!(e.body, Body::Mac) { "MAC" } else { e.ptype });
    s(b, " -k ");
    padded(b, e.layer, 3);
    s(b, " -i ");
    d(b, e.uid);
    s(b, " -N:loc {");
    push_f(b, e.x, 2, 0, false);
    b.push(b' ');
    push_f(b, e.y, 2, 0, false);
    b.push(b' ');
    push_f(b, e.z, 2, 0, false);
    s(b, "} -N:en ");
    push_f(b, energy.map_or(-1.0, |en| en.energy), 6, 0, false);
    s(b, " -M:dur ");
    x(b, e.mac.duration);
    s(b, " -M:s ");
    x(b, e.mac.ra);
    s(b, " -M:d ");
    x(b, e.mac.ta);
    s(b, " -M:t ");
    x(b, e.mac.ether_type);
    b.push(b' ');
    match e.body {
        Body::Mac => {}
        Body::Arp { request, sender_mac, sender, target_mac, target } => {
            s(b, "-arp:op ");
            s(b, if request { "REQUEST" } else { "REPLY" });
            s(b, " -arp:ms ");
            d(b, sender_mac);
            s(b, " -arp:s ");
            d(b, sender);
            s(b, " -arp:md ");
            d(b, target_mac);
            s(b, " -arp:d ");
            d(b, target);
            b.push(b' ');
        }
        Body::Ip(ip, upper) => {
            s(b, "-IP:s ");
            d(b, ip.src);
            s(b, " -IP:sp ");
            d(b, ip.sport);
            s(b, " -IP:d ");
            d(b, ip.dst);
            s(b, " -IP:dp ");
            d(b, ip.dport);
            s(b, " -p ");
            s(b, e.ptype);
            s(b, " -e ");
            d(b, e.size);
            s(b, " -c ");
            d(b, ip.flow);
            s(b, " -i ");
            d(b, e.uid);
            s(b, " -IP:ttl ");
            d(b, ip.ttl);
            b.push(b' ');
            match upper {
                Upper::Nothing => {}
                Upper::Cbr { seqno, forwards, opt_forwards } => {
                    s(b, "-cbr:s ");
                    d(b, seqno);
                    s(b, " -cbr:f ");
                    d(b, forwards);
                    s(b, " -cbr:o ");
                    d(b, opt_forwards);
                    b.push(b' ');
                }
                Upper::Tcp { seqno, ackno, forwards, opt_forwards } => {
                    s(b, "-tcp:s ");
                    d(b, seqno);
                    s(b, " -tcp:a ");
                    d(b, ackno);
                    s(b, " -tcp:f ");
                    d(b, forwards);
                    s(b, " -tcp:o ");
                    d(b, opt_forwards);
                    b.push(b' ');
                }
                Upper::Aodv(Aodv::Request { kind, hops, bcast_id, dst, dst_seqno, src, src_seqno }) => {
                    s(b, "-aodv:t ");
                    x(b, kind as u32);
                    s(b, " -aodv:h ");
                    d(b, hops);
                    s(b, " -aodv:b ");
                    d(b, bcast_id);
                    s(b, " -aodv:d ");
                    d(b, dst);
                    s(b, " -aodv:ds ");
                    d(b, dst_seqno);
                    s(b, " -aodv:s ");
                    d(b, src);
                    s(b, " -aodv:ss ");
                    d(b, src_seqno);
                    s(b, " -aodv:c REQUEST ");
                }
                Upper::Aodv(Aodv::Reply { kind, hops, dst, dst_seqno, lifetime }) => {
                    s(b, "-aodv:t ");
                    x(b, kind as u32);
                    s(b, " -aodv:h ");
                    d(b, hops);
                    s(b, " -aodv:d ");
                    d(b, dst);
                    // (ns-2 spells this tag "adov")
                    s(b, " -adov:ds ");
                    d(b, dst_seqno);
                    s(b, " -aodv:l ");
                    push_f(b, lifetime, 6, 0, false);
                    s(b, " -aodv:c ");
                    s(b, aodv_name(kind));
                    b.push(b' ');
                }
                Upper::Dsr(r) => {
                    s(b, "-dsr:h ");
                    d(b, r.addrs);
                    s(b, " -dsr:q ");
                    d(b, r.request);
                    s(b, " -dsr:s ");
                    d(b, r.seq);
                    s(b, " -dsr:p ");
                    d(b, r.reply);
                    s(b, " -dsr:n ");
                    d(b, r.seq);
                    s(b, " -dsr:l ");
                    d(b, r.reply_len);
                    s(b, " -dsr:e {");
                    d(b, r.reply_first);
                    b.push(b' ');
                    d(b, r.reply_last);
                    s(b, "} -dsr:w ");
                    d(b, r.error);
                    s(b, " -dsr:m ");
                    d(b, r.errors);
                    s(b, " -dsr:c ");
                    d(b, r.err_tell);
                    s(b, " -dsr:b {");
                    d(b, r.err_from);
                    b.push(b' ');
                    d(b, r.err_to);
                    s(b, "} ");
                }
            }
        }
    }
    b.push(b'\n');
}

/// The old format's MAC header fields (and the energy, with a model).
fn push_old_mac(b: &mut Vec<u8>, e: &Event, energy: Option<&EnergyFields>) {
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
}

fn push_old(b: &mut Vec<u8>, e: &Event, energy: Option<&EnergyFields>) {
    b.push(match e.op {
        Op::Send => b's',
        Op::Recv => b'r',
        Op::Forward => b'f',
        Op::Drop => b'D',
        Op::Eot => b'x',
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
    if e.layer == "PHY" {
        // (cmu-trace.cc's format_phy: a space in place of the MAC
        // header's fields, and no energy)
        b.push(b' ');
    } else {
        push_old_mac(b, e, energy);
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
                Upper::Dsr(r) => {
                    d(b, r.addrs);
                    s(b, " [");
                    d(b, r.request);
                    b.push(b' ');
                    d(b, r.seq);
                    s(b, "] [");
                    d(b, r.reply);
                    b.push(b' ');
                    d(b, r.seq);
                    b.push(b' ');
                    d(b, r.reply_len);
                    b.push(b' ');
                    d(b, r.reply_first);
                    s(b, "->");
                    d(b, r.reply_last);
                    s(b, "] [");
                    d(b, r.error);
                    b.push(b' ');
                    d(b, r.errors);
                    b.push(b' ');
                    d(b, r.err_tell);
                    b.push(b' ');
                    d(b, r.err_from);
                    s(b, "->");
                    d(b, r.err_to);
                    b.push(b']');
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
        // (ns-2 writes none for the end of a transmission)
        Op::Eot => return,
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

/// A source route as DSR's header prints it (hdr_sr.cc's dump): each
/// address followed by a space, the one at `cur` (the hop the packet is
/// at) marked `|`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SrRoute<'a> {
    pub addrs: &'a [i32],
    pub cur: usize,
}

/// A route as DSR's `Path` prints it (path.cc's dump): the address at
/// `cur` in parentheses; an empty one as `[<empty path>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathDump<'a> {
    pub addrs: &'a [i32],
    pub cur: usize,
}

/// A line the DSR agent writes into the trace-all file of its own
/// (dsragent.cc's `trace` calls that 2.35 compiles in with its default
/// switches, and mobicache.cc's); node ids and addresses are printed as
/// IP addresses (`%d`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DsrNote<'a> {
    /// At `startdsr`, by the node whose address is 1: the agent's fixed
    /// switches (tap, snooping of source routes and errors, salvaging,
    /// gratuitous errors and replies, replies from the cache to
    /// propagating requests, the ring-zero search: all on in 2.35), four
    /// lines.
    Config { time: f64 },
    /// The route cache's kind (`Sconfig ... using MOBICACHE`), at the same
    /// node's start.
    Cache { time: f64 },
    /// A packet timed out of the send buffer (`Ssb`; its `TOUT` drop
    /// follows).
    SendBufferDrop { time: f64, node: i32, src: i32, dst: i32 },
    /// The source sends a packet of flow `flow` (`SFs`; `SFESTs` when it
    /// carries the route that establishes the flow).
    FlowSend { time: f64, node: i32, uid: i32, src: i32, dst: i32, flow: i32, flow_header: i32, next_hop: i32, route: Option<SrRoute<'a>> },
    /// A node forwards a packet of flow `flow` (`SFf`).
    FlowForward { time: f64, node: i32, uid: i32, src: i32, dst: i32, flow: i32, next_hop: i32 },
    /// A node salvages a packet with a route from its cache (`Ssalv ...
    /// salvaging`).
    Salvaging { time: f64, node: i32, src: i32, dst: i32, uid: i32, route: PathDump<'a> },
    /// A packet it cannot salvage goes to its send buffer to await a
    /// route (`Ssalv ... adding to SB`), or is dropped (`... dropping`);
    /// `salvaged` is the times it was salvaged.
    SalvageToBuffer { time: f64, node: i32, uid: i32, src: i32, dst: i32, salvaged: i32 },
    SalvageDrop { time: f64, node: i32, uid: i32, src: i32, dst: i32, salvaged: i32 },
    /// The link layer gave up on a packet (`SSendFailure`): its type
    /// number, IP addresses and ports, the broken link, GOD's hop counts
    /// (the link's, source to destination, link's start to destination)
    /// and the source route.
    SendFailure { time: f64, node: i32, uid: i32, ptype: i32, src: i32, sport: i32, dst: i32, dport: i32, from: i32, to: i32, hops: [i32; 3], route: SrRoute<'a> },
}

fn sr_route(b: &mut Vec<u8>, r: &SrRoute) {
    b.push(b'[');
    for (i, &a) in r.addrs.iter().enumerate() {
        if i == r.cur {
            b.push(b'|');
        }
        d(b, a);
        b.push(b' ');
    }
    b.push(b']');
}

fn path_dump(b: &mut Vec<u8>, r: &PathDump) {
    if r.addrs.is_empty() {
        s(b, "[<empty path>]");
        return;
    }
    b.push(b'[');
    for (i, &a) in r.addrs.iter().enumerate() {
        if i == r.cur {
            b.push(b'(');
            d(b, a);
            b.push(b')');
        } else {
            d(b, a);
        }
        b.push(b' ');
    }
    b.push(b']');
}

/// `_NODE_ `, as the DSR agent's lines show the node.
fn dsr_node(b: &mut Vec<u8>, node: i32) {
    s(b, " _");
    d(b, node);
    s(b, "_ ");
}

/// `SRC -> DST`.
fn arrow(b: &mut Vec<u8>, src: i32, dst: i32) {
    d(b, src);
    s(b, " -> ");
    d(b, dst);
}

/// Append the DSR agent's line(s) for `n`, each with its newline.
pub fn push_dsr_note(b: &mut Vec<u8>, n: &DsrNote) {
    match *n {
        DsrNote::Config { time } => {
            for rest in [" tap: on snoop: rts? on errs? on", " salvage: on !bd replies? on", " grat error: on grat reply: on", " $reply for props: on ring 0 search: on"] {
                s(b, "Sconfig ");
                push_f(b, time, 5, 0, false);
                s(b, rest);
                b.push(b'\n');
            }
            return;
        }
        DsrNote::Cache { time } => {
            s(b, "Sconfig ");
            push_f(b, time, 5, 0, false);
            s(b, " using MOBICACHE");
        }
        DsrNote::SendBufferDrop { time, node, src, dst } => {
            s(b, "Ssb ");
            push_f(b, time, 5, 0, false);
            dsr_node(b, node);
            s(b, "dropped ");
            arrow(b, src, dst);
        }
        DsrNote::FlowSend { time, node, uid, src, dst, flow, flow_header, next_hop, route } => {
            s(b, if route.is_some() { "SFESTs " } else { "SFs " });
            push_f(b, time, 9, 0, false);
            dsr_node(b, node);
            d(b, uid);
            s(b, " [");
            arrow(b, src, dst);
            s(b, "] ");
            d(b, flow);
            b.push(b'(');
            d(b, flow_header);
            s(b, ") to ");
            d(b, next_hop);
            b.push(b' ');
            if let Some(r) = route {
                sr_route(b, &r);
            }
        }
        DsrNote::FlowForward { time, node, uid, src, dst, flow, next_hop } => {
            s(b, "SFf ");
            push_f(b, time, 9, 0, false);
            dsr_node(b, node);
            d(b, uid);
            s(b, " [");
            arrow(b, src, dst);
            s(b, "] ");
            d(b, flow);
            s(b, " to ");
            d(b, next_hop);
        }
        DsrNote::Salvaging { time, node, src, dst, uid, route } => {
            s(b, "Ssalv ");
            push_f(b, time, 5, 0, false);
            dsr_node(b, node);
            s(b, "salvaging ");
            arrow(b, src, dst);
            s(b, " --- ");
            d(b, uid);
            s(b, " with ");
            path_dump(b, &route);
        }
        DsrNote::SalvageToBuffer { time, node, uid, src, dst, salvaged } | DsrNote::SalvageDrop { time, node, uid, src, dst, salvaged } => {
            s(b, "Ssalv ");
            push_f(b, time, 5, 0, false);
            dsr_node(b, node);
            s(b, if matches!(n, DsrNote::SalvageDrop { .. }) { "dropping --- " } else { "adding to SB --- " });
            d(b, uid);
            b.push(b' ');
            arrow(b, src, dst);
            s(b, " [");
            d(b, salvaged);
            b.push(b']');
        }
        DsrNote::SendFailure { time, node, uid, ptype, src, sport, dst, dport, from, to, hops, route } => {
            s(b, "SSendFailure ");
            push_f(b, time, 9, 0, false);
            dsr_node(b, node);
            for v in [uid, ptype] {
                d(b, v);
                b.push(b' ');
            }
            d(b, src);
            b.push(b':');
            d(b, sport);
            b.push(b' ');
            d(b, dst);
            b.push(b':');
            d(b, dport);
            b.push(b' ');
            d(b, from);
            s(b, "->");
            d(b, to);
            for v in hops {
                b.push(b' ');
                d(b, v);
            }
            b.push(b' ');
            d(b, route.addrs.len() as i32);
            b.push(b' ');
            sr_route(b, &route);
        }
    }
    b.push(b'\n');
}
