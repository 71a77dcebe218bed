//! Packets and the packet pool.
//!
//! A packet carries the union of the ns-2 headers the engine models (common,
//! IP, flags, TCP).  Packets live in a pool and are referred to by index, so
//! the hot loop never allocates once the pool has grown to the number of
//! packets simultaneously alive.

/// A packet of the [`PacketPool`].  Only the pool makes them (`alloc`), and
/// its table never shrinks, so every `PktId` indexes a slot that exists:
/// the pool's accessors, on the per-packet path, skip the bounds check.
/// (A freed packet's id stays a valid index; the slot is reused.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PktId(u32);

impl PktId {
    /// No packet: a placeholder that no pool accessor but `prefetch` takes.
    pub const NONE: PktId = PktId(u32::MAX);

    /// The packet's index (for messages and tests).
    pub fn index(self) -> u32 {
        self.0
    }

    /// An id that no pool made, for tests of code that only carries ids
    /// (the scheduler's); never given to a pool accessor.
    #[cfg(test)]
    pub(crate) fn test(i: u32) -> PktId {
        PktId(i)
    }
}

/// ns-2 packet types that the engine produces (`packet_t`, common/packet.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketType {
    Tcp = 0,
    Udp = 1,
    Cbr = 2,
    Ack = 5,
    Pareto = 28,
    Exp = 29,
    /// TFRC data (RFC 5348).
    Tfrc = 42,
    /// TFRC feedback.
    TfrcAck = 43,
    Ping = 44,
    /// `Agent/PBC`'s broadcasts and unicasts (`PT_PBC`).
    Pbc = 45,
    /// A distance-vector routing update (`rtmsg.rs`).
    RouteDv = 16,
    /// An XCP sender's packets (`PT_XCP`; its sink's ACKs are `ack`).
    Xcp = 58,
}

impl PacketType {
    /// The name ns-2 prints in traces (`packet_info.name`).
    pub fn name(self) -> &'static str {
        match self {
            PacketType::Tcp => "tcp",
            PacketType::Udp => "udp",
            PacketType::Cbr => "cbr",
            PacketType::Ack => "ack",
            PacketType::Pareto => "pareto",
            PacketType::Exp => "exp",
            PacketType::Tfrc => "tcpFriend",
            PacketType::TfrcAck => "tcpFriendCtl",
            PacketType::Ping => "ping",
            PacketType::Pbc => "PBC",
            PacketType::RouteDv => "rtProtoDV",
            PacketType::Xcp => "xcp",
        }
    }
}

/// The ns-2 header fields a packet carries.
///
/// Flag names follow ns-2's `hdr_flags` storage: `ecn` is the ECN-Echo bit
/// (`ecnecho()`, printed as `C`), `ecn_to_echo` is CE (`ce()`, printed `E`),
/// `ecn_capable` is ECT (printed `N`), `cong_action` is CWR (printed `A`).
/// Which ECT codepoint an ECN-capable packet carries, ECT(0) or ECT(1)
/// (RFC 8311, L4S), is kept beside the pool (`PacketPool::set_ect1`):
/// both lines are full, and only L4S senders and queues ask.
///
/// Layout: two cache lines.  The first holds what every hop reads (TTL,
/// addresses, size) and what a TCP sender or sink reads of each packet it
/// receives (sequence number, flags, `ts`, `ts_echo`), so a packet's
/// arrival costs one cache line; the second what only traces, queue
/// monitors, RED and SACK read.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Packet {
    // first line: what hops and agents read (forwarding, trace, the TCP
    // times both ends of a connection read on every packet)
    pub ts: f64,
    pub ts_echo: f64,
    pub ttl: i32,
    pub daddr: i32,
    pub dport: i32,
    pub size: i32,
    pub saddr: i32,
    pub sport: i32,
    pub fid: i32,
    pub uid: i32,
    pub seqno: i32,
    pub ptype: PacketType,
    // hdr_flags
    pub ecn: bool,
    pub ecn_to_echo: bool,
    pub eln: bool,
    pub fs: bool,
    pub no_ts: bool,
    pub pri: bool,
    pub ecn_capable: bool,
    pub cong_action: bool,
    pub qs: bool,
    /// SACK blocks `[left, right)` (`sa_left`/`sa_right`), `sa_len` in use.
    pub sa_len: u8,
    /// `seqno` is an RTP header's (a UDP agent's packet) rather than a TCP
    /// header's.  ns-2 keeps the two apart and a trace line shows the one
    /// of the packet's type: a TCP agent whose packets an on/off source
    /// typed `exp` or `pareto` sends packets whose RTP seqno is 0.
    pub rtp: bool,
    // second line: hdr_cmn's timestamp, fields only traces and RED read,
    // and the SACK blocks
    pub timestamp: f64,
    pub ackno: i32,
    pub prio: i32,
    pub tcp_flags: i32,
    pub hlen: i32,
    pub reason: i32,
    pub last_rtt: i32,
    pub sa: [(i32, i32); 4],
}

const _: () = assert!(std::mem::size_of::<Packet>() == 128);

impl Packet {
    /// The sequence number a trace line shows (ns-2's trace.cc picks the
    /// RTP or the TCP header's by the packet's type).
    #[inline]
    pub fn trace_seqno(&self) -> i32 {
        match self.ptype {
            PacketType::Udp | PacketType::Cbr | PacketType::Exp | PacketType::Pareto if !self.rtp => 0,
            // trace.cc's get_seqno knows no sequence number of these.
            PacketType::Ping | PacketType::RouteDv | PacketType::Pbc => -1,
            _ => self.seqno,
        }
    }

    pub(crate) fn blank() -> Packet {
        Packet {
            uid: 0,
            ptype: PacketType::Tcp,
            size: 0,
            timestamp: 0.0,
            saddr: 0,
            sport: 0,
            daddr: 0,
            dport: 0,
            fid: 0,
            prio: 0,
            ttl: 0,
            ecn: false,
            ecn_to_echo: false,
            eln: false,
            fs: false,
            no_ts: false,
            pri: false,
            ecn_capable: false,
            cong_action: false,
            qs: false,
            seqno: 0,
            ts: 0.0,
            ts_echo: 0.0,
            reason: 0,
            last_rtt: 0,
            ackno: 0,
            tcp_flags: 0,
            hlen: 0,
            sa_len: 0,
            rtp: false,
            sa: [(0, 0); 4],
        }
    }
}

/// The TFRC headers (RFC 5348 section 3.2.1's data header and section
/// 6.2's feedback), one struct for both: a packet carries one or the
/// other.  Both sequence numbers (the data packet's, the highest one a
/// report covers) travel in the packet's `seqno`, which traces print.
/// They live beside the pool's packets (`PacketPool::rate_hdr`), not in
/// them: only TFRC agents touch them, and the packet stays two cache lines.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateHdr {
    // data packet
    /// When the sender sent it.
    pub timestamp: f64,
    /// The sender's RTT estimate.
    pub rtt: f64,
    /// The sender's RTO (the equation's t_RTO).
    pub tzero: f64,
    /// The sender's current rate (bytes/s).
    pub rate: f64,
    /// The sender's packet size and the size the equation is computed for.
    pub psize: i32,
    pub fsize: i32,
    /// Asks the receiver for a report at once.
    pub urgent: bool,
    /// The sender's feedback round.
    pub round_id: i32,
    // feedback
    /// Time between the arrival of the last data packet and this report.
    pub ts_offset: f64,
    /// The last data packet's `timestamp`.
    pub ts_echo: f64,
    /// The loss event rate p.
    pub flost: f64,
    /// The receive rate since the last report (packets/s).
    pub recv_rate: f64,
    /// Packets lost since the last report.
    pub losses: i32,
    /// Lost / (received + dropped) so far (statistics).
    pub true_loss: f64,
}

/// What an XCP header says about its packet (`xcp_enabled_`): a packet
/// without one is `Disabled`, as ns-2's zeroed header is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XcpKind {
    #[default]
    Disabled,
    /// An XCP sender's data packet: routers estimate from it and write
    /// feedback into it.
    Enabled,
    /// An XCP receiver's ACK, carrying the feedback back.
    Ack,
}

/// The XCP congestion header (Katabi, Handley and Rohrs, SIGCOMM 2002;
/// ns-2's `hdr_xcp`), beside the pool as the Quick-Start option is: only
/// XCP end systems and XCP queues touch it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct XcpHdr {
    pub kind: XcpKind,
    /// The sender's RTT over its window: the idealised time between its
    /// packets (`x_`, seconds per packet).
    pub x: f64,
    /// The sender's smoothed RTT (0: none yet).
    pub rtt: f64,
    /// The sender's window (for traces).
    pub cwnd: f64,
    /// The feedback the receiver returns (bytes/s).
    pub reverse_feedback: f64,
    /// The throughput change asked for, lowered by each router on the path
    /// (bytes/s).
    pub delta_throughput: f64,
    /// The router that set `delta_throughput` last.
    pub controlling_hop: u32,
    /// The sender's XCP id.
    pub id: i32,
}

/// Free-list pool of packets.
///
/// `alloc` returns a packet whose fields are whatever the previous user left
/// (as ns-2's `Packet::alloc` does for headers it does not clear); agents
/// initialise every field they rely on.
pub(crate) struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PktId>,
    live: usize,
    /// TFRC headers by slot, grown to the pool's size when first used.
    rate_hdrs: Vec<RateHdr>,
    /// ECT(1) by slot: the uid of the packet in the slot that an L4S
    /// sender sent as ECT(1) (`i64::MIN`: none).  A packet is ECT(1) when
    /// its slot holds its own uid, so no one clears an entry: a packet that
    /// reuses the slot has another uid (`initpkt` draws a new one).  Grown
    /// when an L4S sender first writes one; nothing on the common path
    /// reads or writes it.
    ect1: Vec<i64>,
    /// Quick-Start options by slot, each with the uid of the packet that
    /// carries it (a slot's next packet has none until one is written),
    /// grown when first written.
    qs_opts: Vec<(i32, crate::quickstart::QsOption)>,
    /// XCP headers by slot, each with the uid of the packet that carries
    /// it, as `qs_opts`.
    xcp_hdrs: Vec<(i32, XcpHdr)>,
    /// Wireless headers (802.11, ARP, next hop) by slot, grown when a
    /// mobile node's stack first writes one; the stack writes a packet's
    /// before it reads it (wireless/net.rs).
    wl_hdrs: Vec<crate::wireless::net::WlHdr>,
    /// LAN link-layer headers (the MAC header and the common header's
    /// direction) by slot, each with the uid of the packet that carries it,
    /// as `qs_opts`; written only by the objects of a LAN (lan/).
    lan_hdrs: Vec<(i32, LanHdr)>,
    /// AccECN options by slot, each with the uid of the packet that
    /// carries it, as `qs_opts` (only AccECN connections write them).
    accecn_opts: Vec<(i32, AccEcnOption)>,
}

/// Which way a packet goes through a LAN's stack (ns-2's
/// `hdr_cmn::direction()`): an agent's packet has none; the link layer
/// sends it `Down`; the channel hands each receiver an `Up` copy; a LAN
/// interface clears it on the way to the node.  The abstract LAN has no
/// interface, so a packet that left one still says `Up` (and bounces once
/// off the next LAN's link layer, as in ns-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Direction {
    #[default]
    None,
    Down,
    Up,
}

/// The parts of ns-2's MAC header (`hdr_mac`) a wired LAN reads, and the
/// direction, kept beside the pool (`PacketPool::lan_hdr`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LanHdr {
    /// Destination MAC address (`macDA_`; -1 is broadcast).
    pub da: i32,
    /// Source MAC address (`macSA_`).
    pub sa: i32,
    /// Bytes of padding the MAC added up to the minimum frame.
    pub padding: i32,
    pub dir: Direction,
}

/// The AccECN TCP option (RFC 9768, draft-ietf-tcpm-accurate-ecn section
/// 3.2.3): the 24-bit EE0B, ECEB and EE1B fields, `fields` of them present
/// (0-3) in the order `order1` names (order 0: EE0B, ECEB, EE1B; order 1:
/// EE1B, ECEB, EE0B).  Kept beside the pool: the packet is two full lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccEcnOption {
    pub e0b: u32,
    pub ceb: u32,
    pub e1b: u32,
    pub fields: u8,
    pub order1: bool,
}

impl Default for PacketPool {
    fn default() -> Self {
        Self::new()
    }
}

impl PacketPool {
    pub fn new() -> Self {
        PacketPool { slots: Vec::new(), free: Vec::new(), live: 0, rate_hdrs: Vec::new(), ect1: Vec::new(), qs_opts: Vec::new(), xcp_hdrs: Vec::new(), wl_hdrs: Vec::new(), lan_hdrs: Vec::new(), accecn_opts: Vec::new() }
    }

    /// Take a packet from the pool, growing it if needed.
    #[inline]
    pub fn alloc(&mut self) -> PktId {
        self.live += 1;
        if let Some(id) = self.free.pop() {
            id
        } else {
            self.slots.push(Packet::blank());
            PktId((self.slots.len() - 1) as u32)
        }
    }

    /// Return a packet to the pool.
    #[inline]
    pub fn free(&mut self, id: PktId) {
        debug_assert!(self.live > 0);
        self.live -= 1;
        self.free.push(id);
    }

    /// Number of packets currently allocated (for conservation checks).
    pub fn live(&self) -> usize {
        self.live
    }

    /// Ask the CPU to bring packet `id`'s first cache line in (a hint;
    /// nothing happens for an id outside the pool).
    #[inline(always)]
    pub fn prefetch(&self, id: PktId) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = self.slots.get(id.0 as usize) {
            // SAFETY: a prefetch of a valid address has no effect on memory.
            unsafe { core::arch::x86_64::_mm_prefetch(p as *const Packet as *const i8, core::arch::x86_64::_MM_HINT_T0) }
        }
    }

    #[inline]
    pub fn get(&self, id: PktId) -> &Packet {
        debug_assert!((id.0 as usize) < self.slots.len(), "packet {} not from this pool", id.0);
        // SAFETY: ids come only from `alloc` (`PktId`'s field is private to
        // this module), the table never shrinks, and the pool is private to
        // the crate, where each simulation has one and its packets never
        // reach another's.
        unsafe { self.slots.get_unchecked(id.0 as usize) }
    }

    #[inline]
    pub fn get_mut(&mut self, id: PktId) -> &mut Packet {
        debug_assert!((id.0 as usize) < self.slots.len(), "packet {} not from this pool", id.0);
        // SAFETY: as in `get`.
        unsafe { self.slots.get_unchecked_mut(id.0 as usize) }
    }

    /// Packet `id`'s TFRC header (zero if no TFRC agent wrote one).
    pub fn rate_hdr(&self, id: PktId) -> RateHdr {
        self.rate_hdrs.get(id.0 as usize).copied().unwrap_or_default()
    }

    /// Packet `id`'s TFRC header, to write.
    pub fn rate_hdr_mut(&mut self, id: PktId) -> &mut RateHdr {
        let i = id.0 as usize;
        if i >= self.rate_hdrs.len() {
            self.rate_hdrs.resize(self.slots.len().max(i + 1), RateHdr::default());
        }
        &mut self.rate_hdrs[i]
    }

    /// Make ECN-capable packet `id` ECT(1) rather than ECT(0) (an L4S
    /// sender's packet, RFC 9331): set after its uid, which it keeps to
    /// the end of its life.
    pub fn set_ect1(&mut self, id: PktId) {
        let i = id.0 as usize;
        if i >= self.ect1.len() {
            self.ect1.resize(self.slots.len().max(i + 1), i64::MIN);
        }
        self.ect1[i] = self.get(id).uid as i64;
    }

    /// Whether packet `id` is ECT(1): ECN-capable and sent as ECT(1).  A
    /// CE-marked packet keeps its answer (RFC 9332 classifies CE with
    /// ECT(1) anyway); classic queues never ask and treat ECT(0) and
    /// ECT(1) alike (RFC 8311), so traces show both as `N`.
    #[inline]
    pub fn is_ect1(&self, id: PktId) -> bool {
        let pk = self.get(id);
        pk.ecn_capable && self.ect1.get(id.0 as usize) == Some(&(pk.uid as i64))
    }

    /// Packet `id`'s Quick-Start option (`Off` if none was written for it).
    pub fn qs_option(&self, id: PktId) -> crate::quickstart::QsOption {
        match self.qs_opts.get(id.0 as usize) {
            Some(&(uid, o)) if uid == self.get(id).uid => o,
            _ => Default::default(),
        }
    }

    /// Give packet `id` (with its uid set) Quick-Start option `o`.
    pub fn set_qs_option(&mut self, id: PktId, o: crate::quickstart::QsOption) {
        let i = id.0 as usize;
        if i >= self.qs_opts.len() {
            self.qs_opts.resize(self.slots.len().max(i + 1), (0, Default::default()));
        }
        self.qs_opts[i] = (self.get(id).uid, o);
    }

    /// Packet `id`'s XCP header (`Disabled` and zero if none was written).
    pub fn xcp_hdr(&self, id: PktId) -> XcpHdr {
        match self.xcp_hdrs.get(id.0 as usize) {
            Some(&(uid, h)) if uid == self.get(id).uid => h,
            _ => XcpHdr::default(),
        }
    }

    /// Packet `id`'s wireless headers (as last written in its slot).
    pub fn wl_hdr(&self, id: PktId) -> crate::wireless::net::WlHdr {
        self.wl_hdrs.get(id.0 as usize).copied().unwrap_or_default()
    }

    /// Packet `id`'s wireless headers, to write.
    pub fn wl_hdr_mut(&mut self, id: PktId) -> &mut crate::wireless::net::WlHdr {
        let i = id.0 as usize;
        if i >= self.wl_hdrs.len() {
            self.wl_hdrs.resize(self.slots.len().max(i + 1), Default::default());
        }
        &mut self.wl_hdrs[i]
    }

    /// Give packet `id` (with its uid set) XCP header `h`.
    pub fn set_xcp_hdr(&mut self, id: PktId, h: XcpHdr) {
        let i = id.0 as usize;
        if i >= self.xcp_hdrs.len() {
            self.xcp_hdrs.resize(self.slots.len().max(i + 1), (0, XcpHdr::default()));
        }
        self.xcp_hdrs[i] = (self.get(id).uid, h);
    }

    /// Packet `id`'s LAN header (zero, no direction, if none was written).
    #[inline]
    pub fn lan_hdr(&self, id: PktId) -> LanHdr {
        match self.lan_hdrs.get(id.0 as usize) {
            Some(&(uid, h)) if uid == self.get(id).uid => h,
            _ => LanHdr::default(),
        }
    }

    /// Give packet `id` (with its uid set) LAN header `h`.
    pub fn set_lan_hdr(&mut self, id: PktId, h: LanHdr) {
        let i = id.0 as usize;
        if i >= self.lan_hdrs.len() {
            self.lan_hdrs.resize(self.slots.len().max(i + 1), (0, LanHdr::default()));
        }
        self.lan_hdrs[i] = (self.get(id).uid, h);
    }

    /// A copy of packet `id` (ns-2's `Packet::copy`: every header, the uid
    /// included), with what is kept beside the pool for it.
    pub fn copy(&mut self, id: PktId) -> PktId {
        let n = self.alloc();
        let pk = self.get(id).clone();
        *self.get_mut(n) = pk;
        if (id.0 as usize) < self.rate_hdrs.len() {
            let h = self.rate_hdrs[id.0 as usize];
            *self.rate_hdr_mut(n) = h;
        }
        if self.is_ect1(id) {
            self.set_ect1(n);
        }
        let (qs, xcp, lan) = (self.qs_option(id), self.xcp_hdr(id), self.lan_hdr(id));
        if qs != Default::default() {
            self.set_qs_option(n, qs);
        }
        if xcp != XcpHdr::default() {
            self.set_xcp_hdr(n, xcp);
        }
        if lan != LanHdr::default() {
            self.set_lan_hdr(n, lan);
        }
        if let Some(o) = self.accecn_option(id) {
            self.set_accecn_option(n, o);
        }
        n
    }

    /// Packet `id`'s AccECN option, if one was written for it.
    pub fn accecn_option(&self, id: PktId) -> Option<AccEcnOption> {
        match self.accecn_opts.get(id.0 as usize) {
            Some(&(uid, o)) if uid == self.get(id).uid => Some(o),
            _ => None,
        }
    }

    /// Give packet `id` (with its uid set) AccECN option `o`.
    pub fn set_accecn_option(&mut self, id: PktId, o: AccEcnOption) {
        let i = id.0 as usize;
        if i >= self.accecn_opts.len() {
            self.accecn_opts.resize(self.slots.len().max(i + 1), (i32::MIN, AccEcnOption::default()));
        }
        self.accecn_opts[i] = (self.get(id).uid, o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_reuses_freed_slots_and_counts_live_packets() {
        let mut pool = PacketPool::new();
        let a = pool.alloc();
        let b = pool.alloc();
        assert_ne!(a, b);
        assert_eq!(pool.live(), 2);
        pool.free(a);
        assert_eq!(pool.live(), 1);
        let c = pool.alloc();
        assert_eq!(c, a, "a freed slot is reused before the pool grows");
        pool.get_mut(c).seqno = 7;
        assert_eq!(pool.get(c).seqno, 7);
        assert_eq!(pool.live(), 2);
    }

    /// ECT(1) belongs to the packet (its uid), not to the slot: a packet
    /// that reuses the slot is ECT(0) until its sender says otherwise, and
    /// a packet that is not ECN-capable is never ECT(1).
    #[test]
    fn ect1_follows_the_packet_not_the_slot() {
        let mut pool = PacketPool::new();
        let a = pool.alloc();
        let b = pool.alloc();
        for (id, uid) in [(a, 10), (b, 11)] {
            let pk = pool.get_mut(id);
            pk.uid = uid;
            pk.ecn_capable = true;
        }
        assert!(!pool.is_ect1(a), "no table yet: ECT(0)");
        pool.set_ect1(b);
        assert!(pool.is_ect1(b) && !pool.is_ect1(a));
        pool.free(b);
        let c = pool.alloc();
        assert_eq!(c, b);
        pool.get_mut(c).uid = 12;
        assert!(!pool.is_ect1(c), "the slot's next packet is not ECT(1)");
        pool.set_ect1(c);
        pool.get_mut(c).ecn_capable = false;
        assert!(!pool.is_ect1(c), "Not-ECT is never ECT(1)");
        // a packet of uid 0 in a slot the table never wrote
        let d = pool.alloc();
        pool.get_mut(d).uid = 0;
        pool.get_mut(d).ecn_capable = true;
        pool.set_ect1(a);
        assert!(!pool.is_ect1(d));
    }

    #[test]
    fn type_names_match_ns2() {
        assert_eq!(PacketType::Tcp.name(), "tcp");
        assert_eq!(PacketType::Ack.name(), "ack");
        assert_eq!(PacketType::Cbr.name(), "cbr");
    }
}
