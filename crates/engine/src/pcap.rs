//! Packet captures: the packets a link's ends see, as pcap files that
//! tcpdump, Wireshark/tshark and tcptrace read.
//!
//! A simulated packet has no bytes, only header fields; a capture makes a
//! real IPv4 datagram of it (docs/outputs.md has the mapping):
//!
//! * addresses: node `n` is `10.0.0.0 + n + 1` (node 0 is 10.0.0.1, node
//!   255 is 10.0.1.0); the broadcast address (-1) is 255.255.255.255;
//! * ports: an agent's port `p` is TCP/UDP port `1024 + p` (port 0 is
//!   reserved on the wire);
//! * TCP (a packet with a TCP header: types `tcp`, `ack`, and a TCP agent's
//!   packets typed by its application): the packet's size is the IP
//!   datagram's (as the 40 bytes of `tcpip_base_hdr_size_` say), so the
//!   payload is `size - 40` (an ACK's SACK blocks, which the sink counts
//!   in its size, excepted); data packet n (ns-2's seqno) holds bytes from
//!   `1 + (n - 1) * payload` (`1 + n * payload` without a SYN), its ACK
//!   number is 1; an ACK's sequence number is 1 and its ACK number the
//!   byte after the packet it acknowledges, with the payload of the data
//!   packets of its connection seen so far (1000 bytes, ns-2's default,
//!   if none was); every segment carries the timestamp option
//!   (TSval and TSecr: the header's `ts` and `ts_echo` in microseconds),
//!   an ACK with SACK blocks the SACK option (block edges the same way);
//!   ECN-Echo and CWR are the TCP flags ECE and CWR (CWR only on an
//!   ECN-capable packet: ns-2 sets it at every cut of the window);
//!   ns-2's `syn_` (2.35's default): packet 0, header only, is a SYN, and
//!   the sink's first ACK of it a SYN-ACK;
//! * UDP (a UDP agent's packets): the size is the datagram's;
//! * ping: an ICMP echo request (reply for a returning ping), identifier
//!   the agent's port (mapped as above), sequence number the ping's;
//! * ECN-capable (ECT) is ECT(0) in the IP header, CE is CE.
//!
//! The payload is zeros, written in full (checksums are over it) unless a
//! snapshot length cuts the records (as `tcpdump -s`).
//!
//! Where: one file per end of a traced link, as a capture on a device
//! sees it: the end at node A of the link between A and B holds the
//! packets A sends on it, when their transmission starts (its dequeue
//! trace point, `-`), and the packets it receives from B, when they have
//! arrived (the receive trace point, `r`, of the link from B to A).
//! Packets dropped at a queue are not on the wire and are not captured.
//!
//! Timestamps are nanoseconds of simulated time (the nanosecond pcap
//! format): back-to-back packets on a fast link are less than a
//! microsecond apart.

use crate::packet::{Packet, PacketType};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// pcap's LINKTYPE_RAW: each record is an IP datagram, no link header.
const LINKTYPE_RAW: u32 = 101;
/// The largest datagram written (IPv4's limit).
const SNAPLEN: u32 = 65535;
/// The TCP/UDP port of agent port 0.
pub const PORT_BASE: i32 = 1024;
/// The bytes of IP and TCP header a packet's size counts
/// (`tcpip_base_hdr_size_`'s default).
const TCPIP_HDR: i32 = 40;
/// The payload assumed for an ACK whose connection's data was not seen.
const DEFAULT_PAYLOAD: u32 = 1000;

/// The IPv4 address of node `n`.
pub fn ip_of(n: i32) -> [u8; 4] {
    if n < 0 {
        return [255; 4];
    }
    let a = 0x0a00_0000u32.wrapping_add(n as u32 + 1);
    a.to_be_bytes()
}

fn port_of(p: i32) -> u16 {
    (PORT_BASE + p) as u16
}

/// Microseconds of a time, as a TCP timestamp.
fn ts_of(t: f64) -> u32 {
    if t.is_finite() && t > 0.0 {
        (t * 1e6).round() as u64 as u32
    } else {
        0
    }
}

/// A TCP connection as its packets showed it.
#[derive(Clone, Copy, Debug)]
struct Conn {
    /// Payload bytes of a data packet.
    payload: u32,
    /// Packet 0 was a SYN (ns-2's `syn_`, true by default in 2.35): data
    /// packet n holds bytes from 1 + (n - 1) * payload.
    syn: bool,
    /// The uid of the sink's first ACK of the SYN, shown as a SYN-ACK.
    synack: Option<i32>,
}

impl Conn {
    const UNSEEN: Conn = Conn { payload: DEFAULT_PAYLOAD, syn: true, synack: None };
}

struct File {
    out: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
    /// The last record written: (uid, time in ns, trace point).
    last: Option<(i32, u64, u8)>,
}

/// The captures of a simulation: a file per link end, made at the first
/// packet it sees.
pub struct Capture {
    dir: PathBuf,
    prefix: String,
    files: BTreeMap<(i32, i32), File>,
    /// What the TCP connections' data packets showed, by (source node,
    /// port, destination node, port) of the data.
    conns: HashMap<(i32, i32, i32, i32), Conn>,
    /// The first error writing (reported by `finish`).
    error: Option<String>,
    /// Bytes of each datagram written (its length is kept in the record).
    snaplen: u32,
    buf: Vec<u8>,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Capture({})", self.dir.display())
    }
}

impl Capture {
    /// Captures into directory `dir` (made if missing), files named
    /// `{prefix}A-B.pcap`, each record cut to its first `snaplen` bytes
    /// (1 to 65535; 65535 keeps every datagram whole, 80 every header).
    pub fn new(dir: &Path, prefix: &str, snaplen: u32) -> Result<Capture, String> {
        if !(1..=SNAPLEN).contains(&snaplen) {
            return Err(format!("the snapshot length must be 1 to {SNAPLEN} bytes, got {snaplen}"));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot make the capture directory: {e}", dir.display()))?;
        Ok(Capture {
            dir: dir.to_path_buf(),
            prefix: prefix.to_string(),
            files: BTreeMap::new(),
            conns: HashMap::new(),
            error: None,
            buf: Vec::with_capacity(2048),
            snaplen,
        })
    }

    /// A packet passed trace point `kind` of the link from `src` to `dst`;
    /// `ect1`: it is ECT(1) rather than ECT(0) (`PacketPool::is_ect1`).
    #[inline]
    pub fn packet(&mut self, kind: u8, src: i32, dst: i32, now: f64, pk: &Packet, ect1: bool) {
        let end = match kind {
            b'-' => (src, dst),
            b'r' => (dst, src),
            _ => return,
        };
        self.write(end, kind, now, pk, ect1);
    }

    #[inline(never)]
    fn write(&mut self, end: (i32, i32), kind: u8, now: f64, pk: &Packet, ect1: bool) {
        if self.error.is_some() {
            return;
        }
        let ns = (now * 1e9).round().max(0.0) as u64;
        // A link traced twice (trace-queue after trace-all, a second nam
        // trace) passes a packet through two trace points of a kind: the
        // device sees it once.
        match self.file(end) {
            Ok(f) if f.last == Some((pk.uid, ns, kind)) => return,
            Ok(f) => f.last = Some((pk.uid, ns, kind)),
            Err(e) => {
                self.error = Some(e);
                return;
            }
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.datagram(&mut buf, pk, ect1);
        let len = buf.len() as u32;
        let incl = len.min(self.snaplen);
        let mut rec = [0u8; 16];
        rec[0..4].copy_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
        rec[4..8].copy_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
        rec[8..12].copy_from_slice(&incl.to_le_bytes());
        rec[12..16].copy_from_slice(&len.to_le_bytes());
        let data = &buf[..incl as usize];
        let r = self.file(end).and_then(|f| f.out.write_all(&rec).and_then(|_| f.out.write_all(data)).map_err(|e| format!("{}: {e}", f.path.display())));
        if let Err(e) = r {
            self.error = Some(e);
        }
        self.buf = buf;
    }

    fn file(&mut self, end: (i32, i32)) -> Result<&mut File, String> {
        if !self.files.contains_key(&end) {
            let path = self.dir.join(format!("{}{}-{}.pcap", self.prefix, end.0, end.1));
            let f = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut out = std::io::BufWriter::with_capacity(1 << 16, f);
            let mut h = Vec::with_capacity(24);
            h.extend_from_slice(&0xa1b2_3c4du32.to_le_bytes()); // nanosecond pcap
            h.extend_from_slice(&2u16.to_le_bytes());
            h.extend_from_slice(&4u16.to_le_bytes());
            h.extend_from_slice(&0i32.to_le_bytes()); // thiszone
            h.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
            h.extend_from_slice(&self.snaplen.to_le_bytes());
            h.extend_from_slice(&LINKTYPE_RAW.to_le_bytes());
            out.write_all(&h).map_err(|e| format!("{}: {e}", path.display()))?;
            self.files.insert(end, File { out, path, last: None });
        }
        Ok(self.files.get_mut(&end).expect("just made"))
    }

    /// Write out what is buffered; the files written so far, in the order
    /// of their link ends, or the first error.
    pub fn finish(&mut self) -> Result<Vec<PathBuf>, String> {
        for f in self.files.values_mut() {
            if let Err(e) = f.out.flush() {
                self.error.get_or_insert(format!("{}: {e}", f.path.display()));
            }
        }
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(self.files.values().map(|f| f.path.clone()).collect()),
        }
    }

    /// The IP datagram of packet `pk`.
    fn datagram(&mut self, b: &mut Vec<u8>, pk: &Packet, ect1: bool) {
        let size = pk.size.clamp(0, SNAPLEN as i32);
        let (proto, start) = (
            match pk.ptype {
                PacketType::Ping => 1u8,
                _ if pk.rtp => 17,
                _ => 6,
            },
            20usize,
        );
        b.resize(20, 0);
        match proto {
            6 => self.tcp(b, pk, size),
            17 => {
                let payload = (size - 28).max(0) as usize;
                let len = (8 + payload) as u16;
                b.extend_from_slice(&port_of(pk.sport).to_be_bytes());
                b.extend_from_slice(&port_of(pk.dport).to_be_bytes());
                b.extend_from_slice(&len.to_be_bytes());
                b.extend_from_slice(&[0, 0]);
                b.resize(b.len() + payload, 0);
            }
            _ => {
                let payload = (size - 28).max(0) as usize;
                let reply = crate::ping::PingHdr::ret(pk);
                b.extend_from_slice(&[if reply { 0 } else { 8 }, 0, 0, 0]);
                b.extend_from_slice(&port_of(pk.sport).to_be_bytes());
                b.extend_from_slice(&(pk.seqno as u16).to_be_bytes());
                b.resize(b.len() + payload, 0);
                let c = fold(sum(&b[start..], 0));
                b[start + 2..start + 4].copy_from_slice(&c.to_be_bytes());
            }
        }
        let total = b.len().min(SNAPLEN as usize) as u16;
        b.truncate(total as usize);
        let (src, dst) = (ip_of(pk.saddr), ip_of(pk.daddr));
        let ecn = match (pk.ecn_capable, pk.ecn_to_echo) {
            (_, true) => 3u8,
            (true, false) if ect1 => 1,
            (true, false) => 2,
            _ => 0,
        };
        b[0] = 0x45;
        b[1] = ecn;
        b[2..4].copy_from_slice(&total.to_be_bytes());
        b[4..6].copy_from_slice(&(pk.uid as u16).to_be_bytes());
        b[6..8].copy_from_slice(&0x4000u16.to_be_bytes()); // don't fragment
        b[8] = pk.ttl.clamp(0, 255) as u8;
        b[9] = proto;
        b[12..16].copy_from_slice(&src);
        b[16..20].copy_from_slice(&dst);
        let c = fold(sum(&b[..20], 0));
        b[10..12].copy_from_slice(&c.to_be_bytes());
        if proto != 1 {
            // TCP's and UDP's checksums cover a pseudo-header.
            let l4 = &b[20..];
            let mut pseudo = [0u8; 12];
            pseudo[0..4].copy_from_slice(&src);
            pseudo[4..8].copy_from_slice(&dst);
            pseudo[9] = proto;
            pseudo[10..12].copy_from_slice(&(l4.len() as u16).to_be_bytes());
            let mut c = fold(sum(l4, sum(&pseudo, 0)));
            if proto == 17 && c == 0 {
                c = 0xffff;
            }
            let at = if proto == 6 { 36 } else { 26 };
            b[at..at + 2].copy_from_slice(&c.to_be_bytes());
        }
    }

    /// The TCP segment of `pk` (after the 20 bytes of IP header in `b`).
    fn tcp(&mut self, b: &mut Vec<u8>, pk: &Packet, size: i32) {
        let is_ack = pk.ptype == PacketType::Ack;
        // (a data packet's SACK blocks are never shown)
        let sack = if is_ack { (pk.sa_len as usize).min(4) } else { 0 };
        // The sink counts 8 bytes per SACK block in an ACK's size.
        let payload = (size - TCPIP_HDR - if is_ack { 8 * sack as i32 } else { 0 }).max(0) as u32;
        let mut flags = 0x10u8; // ACK
        let (seq, ack, mss) = if is_ack {
            let key = (pk.daddr, pk.dport, pk.saddr, pk.sport);
            let c = self.conns.entry(key).or_insert(Conn::UNSEEN);
            let n = pk.seqno as i64;
            let ack = if c.syn {
                if n == 0 && *c.synack.get_or_insert(pk.uid) == pk.uid {
                    flags |= 0x02; // the first ACK of the SYN: SYN-ACK
                }
                if n < 0 { 0 } else { 1 + n as u32 as u64 * c.payload as u64 }
            } else {
                1 + (n + 1).max(0) as u64 * c.payload as u64
            };
            (if flags & 0x02 != 0 { 0 } else { 1 }, ack as u32, c.payload)
        } else {
            let key = (pk.saddr, pk.sport, pk.daddr, pk.dport);
            let c = self.conns.entry(key).or_insert(Conn::UNSEEN);
            if pk.seqno == 0 {
                // ns-2's `syn_`: packet 0 carries no data, a SYN
                c.syn = payload == 0;
            }
            if payload > 0 {
                c.payload = payload;
            }
            let n = pk.seqno as u32 as u64;
            let seq = if !c.syn {
                1 + n * payload as u64
            } else if pk.seqno == 0 {
                flags = 0x02; // SYN
                0
            } else {
                1 + (n - 1) * payload as u64
            };
            (seq as u32, if flags == 0x02 { 0 } else { 1 }, c.payload)
        };
        let sack_edge = |s: i32, c_syn: bool| -> u32 {
            let s = s as u32 as u64;
            (if c_syn { 1 + s.wrapping_sub(1) * mss as u64 } else { 1 + s * mss as u64 }) as u32
        };
        let syn_conn = self.conns.get(&(pk.daddr, pk.dport, pk.saddr, pk.sport)).is_none_or(|c| c.syn);
        let ts = sack < 4;
        let opt_len = if ts { 12 } else { 0 } + if sack > 0 { 4 + 8 * sack } else { 0 };
        let hdr = 20 + opt_len;
        if pk.ecn {
            flags |= 0x40; // ECE
        }
        if pk.cong_action && pk.ecn_capable {
            // ns-2 sets its CWR bit at every cut of the window, ECN or not;
            // on the wire it belongs to ECN-capable connections only.
            flags |= 0x80; // CWR
        }
        b.extend_from_slice(&port_of(pk.sport).to_be_bytes());
        b.extend_from_slice(&port_of(pk.dport).to_be_bytes());
        b.extend_from_slice(&seq.to_be_bytes());
        b.extend_from_slice(&ack.to_be_bytes());
        b.push(((hdr / 4) as u8) << 4);
        b.push(flags);
        b.extend_from_slice(&65535u16.to_be_bytes()); // window
        b.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
        if ts {
            b.extend_from_slice(&[1, 1, 8, 10]);
            b.extend_from_slice(&ts_of(pk.ts).to_be_bytes());
            b.extend_from_slice(&ts_of(pk.ts_echo).to_be_bytes());
        }
        if sack > 0 {
            b.extend_from_slice(&[1, 1, 5, (2 + 8 * sack) as u8]);
            for &(l, r) in &pk.sa[..sack] {
                b.extend_from_slice(&sack_edge(l, syn_conn).to_be_bytes());
                b.extend_from_slice(&sack_edge(r, syn_conn).to_be_bytes());
            }
        }
        b.resize(b.len() + payload as usize, 0);
    }
}

/// The ones'-complement sum of `d` (16-bit big-endian words) added to `acc`.
fn sum(d: &[u8], mut acc: u32) -> u32 {
    let mut ch = d.chunks_exact(2);
    for w in &mut ch {
        acc += u16::from_be_bytes([w[0], w[1]]) as u32;
        acc = (acc & 0xffff) + (acc >> 16);
    }
    if let [last] = ch.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

/// Fold and complement a ones'-complement sum into a checksum.
fn fold(mut acc: u32) -> u16 {
    while acc >> 16 != 0 {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(ptype: PacketType, size: i32, seqno: i32) -> Packet {
        let mut p = Packet::blank();
        p.ptype = ptype;
        p.size = size;
        p.seqno = seqno;
        p.saddr = 0;
        p.sport = 0;
        p.daddr = 2;
        p.dport = 1;
        p.ttl = 32;
        p
    }

    fn one(cap: &mut Capture, p: &Packet) -> Vec<u8> {
        let mut b = Vec::new();
        cap.datagram(&mut b, p, false);
        b
    }

    fn verify(b: &[u8]) {
        assert_eq!(fold(sum(&b[..20], 0)), 0, "IP checksum");
        let mut pseudo = [0u8; 12];
        pseudo[0..8].copy_from_slice(&b[12..20]);
        pseudo[9] = b[9];
        pseudo[10..12].copy_from_slice(&((b.len() - 20) as u16).to_be_bytes());
        if b[9] != 1 {
            assert_eq!(fold(sum(&b[20..], sum(&pseudo, 0))), 0, "TCP/UDP checksum");
        }
    }

    #[test]
    fn addresses_and_ports() {
        assert_eq!(ip_of(0), [10, 0, 0, 1]);
        assert_eq!(ip_of(255), [10, 0, 1, 0]);
        assert_eq!(ip_of(-1), [255, 255, 255, 255]);
        assert_eq!(port_of(3), 1027);
    }

    #[test]
    fn tcp_data_and_ack_numbers_in_bytes() {
        let dir = std::env::temp_dir();
        let mut cap = Capture::new(&dir, "unit", SNAPLEN).unwrap();
        let mut d = pkt(PacketType::Tcp, 1040, 5);
        d.ecn_capable = true;
        d.cong_action = true;
        d.ts = 1.5;
        let b = one(&mut cap, &d);
        verify(&b);
        assert_eq!(b.len(), 20 + 32 + 1000);
        assert_eq!(u16::from_be_bytes([b[2], b[3]]) as usize, b.len());
        assert_eq!(b[1] & 3, 2, "ECT(0)");
        let mut b1 = Vec::new();
        cap.datagram(&mut b1, &d, true);
        verify(&b1);
        assert_eq!(b1[1] & 3, 1, "ECT(1) (an L4S sender's packet)");
        // ns-2's default syn_: packet 0 was a SYN, packet 5 starts at byte 1 + 4 * 1000
        assert_eq!(u32::from_be_bytes(b[24..28].try_into().unwrap()), 1 + 4 * 1000);
        assert_eq!(b[33], 0x10 | 0x80, "ACK and CWR");
        assert_eq!(u32::from_be_bytes(b[44..48].try_into().unwrap()), 1_500_000, "TSval in microseconds");
        // the ACK of packet 5 with a SACK block [7, 9), from the sink
        let mut a = pkt(PacketType::Ack, 48, 5);
        std::mem::swap(&mut a.saddr, &mut a.daddr);
        std::mem::swap(&mut a.sport, &mut a.dport);
        a.sa_len = 1;
        a.sa[0] = (7, 9);
        a.ecn = true;
        a.ecn_to_echo = true;
        let b = one(&mut cap, &a);
        verify(&b);
        assert_eq!(b.len(), 20 + 20 + 12 + 12, "no payload: the sink's 8 SACK bytes are in its size");
        assert_eq!(b[1] & 3, 3, "CE");
        assert_eq!(u32::from_be_bytes(b[28..32].try_into().unwrap()), 1 + 5 * 1000);
        assert_eq!(b[33], 0x10 | 0x40, "ACK and ECE");
        assert_eq!(&b[52..56], &[1, 1, 5, 10]);
        assert_eq!(u32::from_be_bytes(b[56..60].try_into().unwrap()), 6001);
        assert_eq!(u32::from_be_bytes(b[60..64].try_into().unwrap()), 8001);
    }

    fn seq_ack_flags(b: &[u8]) -> (u32, u32, u8) {
        (u32::from_be_bytes(b[24..28].try_into().unwrap()), u32::from_be_bytes(b[28..32].try_into().unwrap()), b[33])
    }

    #[test]
    fn a_syn_and_the_first_ack_of_it_open_the_connection() {
        let mut cap = Capture::new(&std::env::temp_dir(), "unit", SNAPLEN).unwrap();
        let syn = pkt(PacketType::Tcp, 40, 0);
        assert_eq!(seq_ack_flags(&one(&mut cap, &syn)), (0, 0, 0x02));
        let mut a = pkt(PacketType::Ack, 40, 0);
        (a.saddr, a.sport, a.daddr, a.dport, a.uid) = (2, 1, 0, 0, 9);
        assert_eq!(seq_ack_flags(&one(&mut cap, &a)), (0, 1, 0x12), "SYN-ACK");
        assert_eq!(seq_ack_flags(&one(&mut cap, &a)), (0, 1, 0x12), "the same packet at the other end");
        let d = pkt(PacketType::Tcp, 1040, 1);
        assert_eq!(seq_ack_flags(&one(&mut cap, &d)), (1, 1, 0x10));
        a.uid = 10;
        assert_eq!(seq_ack_flags(&one(&mut cap, &a)), (1, 1, 0x10), "a duplicate ACK of the SYN is a plain ACK");
        a.seqno = 1;
        assert_eq!(seq_ack_flags(&one(&mut cap, &a)), (1, 1001, 0x10));
    }

    #[test]
    fn without_syn_packet_0_holds_data() {
        let mut cap = Capture::new(&std::env::temp_dir(), "unit", SNAPLEN).unwrap();
        let d = pkt(PacketType::Tcp, 540, 0);
        assert_eq!(seq_ack_flags(&one(&mut cap, &d)), (1, 1, 0x10));
        let d = pkt(PacketType::Tcp, 540, 3);
        assert_eq!(seq_ack_flags(&one(&mut cap, &d)), (1501, 1, 0x10));
        let mut a = pkt(PacketType::Ack, 40, 3);
        (a.saddr, a.sport, a.daddr, a.dport) = (2, 1, 0, 0);
        assert_eq!(seq_ack_flags(&one(&mut cap, &a)), (1, 2001, 0x10));
    }

    #[test]
    fn stale_fields_of_a_data_packet_are_not_shown() {
        let mut cap = Capture::new(&std::env::temp_dir(), "unit", SNAPLEN).unwrap();
        let mut d = pkt(PacketType::Tcp, 1040, 3);
        d.sa_len = 2; // left by the slot's previous packet, an ACK
        d.cong_action = true; // ns-2's CWR at a cut of the window, without ECN
        let b = one(&mut cap, &d);
        verify(&b);
        assert_eq!(b.len(), 20 + 32 + 1000, "no SACK option on data");
        assert_eq!(b[33], 0x10, "no CWR without ECT");
    }

    #[test]
    fn a_packet_through_two_trace_points_of_a_kind_is_captured_once() {
        let dir = std::env::temp_dir().join(format!("dbpcap{}", std::process::id()));
        let mut cap = Capture::new(&dir, "", SNAPLEN).unwrap();
        let mut d = pkt(PacketType::Tcp, 1040, 1);
        for (uid, t) in [(1, 0.5), (1, 0.5), (2, 0.5), (1, 0.6)] {
            d.uid = uid;
            cap.packet(b'-', 0, 1, t, &d, false);
        }
        cap.packet(b'r', 1, 0, 0.6, &d, false); // node 0 receiving it from node 1: the same file, another record
        cap.packet(b'+', 0, 1, 0.7, &d, false); // not a capture point
        cap.packet(b'd', 0, 1, 0.7, &d, false);
        let files = cap.finish().unwrap();
        let size = |p: &PathBuf| std::fs::metadata(p).unwrap().len();
        assert_eq!(files.len(), 1);
        assert_eq!(size(&files[0]), 24 + 4 * (16 + 1052), "three records sent and one received");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_snapshot_length_cuts_records_not_datagrams() {
        let dir = std::env::temp_dir().join(format!("dbpcapsnap{}", std::process::id()));
        let mut cap = Capture::new(&dir, "", 80).unwrap();
        cap.packet(b'-', 0, 1, 0.5, &pkt(PacketType::Tcp, 1040, 1), false);
        let files = cap.finish().unwrap();
        let b = std::fs::read(&files[0]).unwrap();
        assert_eq!(u32::from_le_bytes(b[16..20].try_into().unwrap()), 80, "the header's snapshot length");
        assert_eq!(u32::from_le_bytes(b[32..36].try_into().unwrap()), 80, "captured");
        assert_eq!(u32::from_le_bytes(b[36..40].try_into().unwrap()), 1052, "on the wire");
        assert_eq!(b.len(), 24 + 16 + 80);
        assert_eq!(u16::from_be_bytes([b[42], b[43]]), 1052, "the IP length is the datagram's");
        std::fs::remove_dir_all(&dir).ok();
        assert!(Capture::new(&dir, "", 0).is_err() && Capture::new(&dir, "", 65536).is_err());
    }

    #[test]
    fn udp_and_ping() {
        let mut cap = Capture::new(&std::env::temp_dir(), "unit", SNAPLEN).unwrap();
        let mut u = pkt(PacketType::Cbr, 210, 3);
        u.rtp = true;
        let b = one(&mut cap, &u);
        verify(&b);
        assert_eq!((b.len(), b[9]), (210, 17));
        let p = pkt(PacketType::Ping, 64, 2);
        let b = one(&mut cap, &p);
        assert_eq!((b.len(), b[9], b[20]), (64, 1, 8));
        assert_eq!(fold(sum(&b[20..], 0)), 0, "ICMP checksum");
    }
}
