//! The AODV routing agent as ns-2 2.35 has it (aodv/aodv.cc), with the
//! options 2.35 compiles in: link-layer failure detection (no HELLO
//! messages, no neighbour timers), local repair, the link-layer metric.
//! Route requests, replies and errors, sequence numbers, the request's
//! TTL and retries, the 10 ms jitter of broadcast messages, the route
//! purge every 0.5 s and the request-id purge every 6 s, the buffer of
//! packets waiting for a route (aodv_buffer.rs), the routing table
//! (aodv_table.rs).
//!
//! ns-2's behaviour is kept where it surprises, since traces show it:
//!
//! * A new table entry's last hop count is 255 ("unknown"), so the first
//!   request for a destination already goes network-wide (TTL 30) and
//!   counts as a retry; the expanding ring (TTL 5, +2) is reached only
//!   after a route with a known length went down.
//! * A local repair's timer is set to the request's timeout, which is an
//!   absolute time, as a delay (so it falls due about twice as late).
//! * A reply's lifetime is a double-to-unsigned conversion of what is
//!   left of the route's life (a negative value wraps, as on x86-64).
//! * An error message's header read as a reply (which is how ns-2's
//!   trace shows it) is [`Unreachable::as_reply`].
//!
//! The node around the agent (time, random draws, timers, the way down to
//! the link layer, the port demultiplexer, the trace points, the
//! interface queue's next-hop filter, packet headers) is the caller's,
//! through [`Host`]; generic over the packet handle, no allocation but
//! the table's and the buffers'.

use super::aodv_buffer::{Pushed, RouteBuffer};
use super::aodv_table::{EntryId, RouteTable, State, HISTORY, INFINITY};

/// The IP broadcast address.
pub const BROADCAST: i32 = -1;
/// The port routing messages go to and come from.
pub const PORT: i32 = 255;
/// The IP header's size, added to a packet the node originates.
pub const IP_HEADER: u32 = 20;

/// ns-2's constants (aodv.h), in seconds unless said.
pub const MY_ROUTE_TIMEOUT: u32 = 10;
pub const ACTIVE_ROUTE_TIMEOUT: f64 = 10.0;
pub const REV_ROUTE_LIFE: f64 = 6.0;
pub const BCAST_ID_SAVE: f64 = 6.0;
pub const RREQ_RETRIES: u8 = 3;
pub const MAX_RREQ_TIMEOUT: f64 = 10.0;
pub const TTL_START: i32 = 5;
pub const TTL_THRESHOLD: i32 = 7;
pub const TTL_INCREMENT: i32 = 2;
pub const NODE_TRAVERSAL_TIME: f64 = 0.03;
pub const NETWORK_DIAMETER: i32 = 30;
/// The spacing of buffered packets sent together once a route is known.
pub const ARP_DELAY: f64 = 0.01;
/// The route purge's period.
pub const PURGE_PERIOD: f64 = 0.5;
/// The most destinations one error message lists (AODV_MAX_ERRORS).
pub const MAX_ERRORS: usize = 100;

/// The sizes of the messages (their headers past the IP header).
pub const REQUEST_LEN: u32 = 28;
pub const REPLY_LEN: u32 = 24;

/// Message types (the first byte of each message).
pub const TYPE_REQUEST: u8 = 0x02;
pub const TYPE_REPLY: u8 = 0x04;
pub const TYPE_ERROR: u8 = 0x08;

/// A route error's list: destinations and their sequence numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unreachable {
    pub count: u8,
    pub dst: [i32; MAX_ERRORS],
    pub seqno: [u32; MAX_ERRORS],
}

impl Default for Unreachable {
    fn default() -> Self {
        Unreachable { count: 0, dst: [0; MAX_ERRORS], seqno: [0; MAX_ERRORS] }
    }
}

impl Unreachable {
    fn push(&mut self, dst: i32, seqno: u32) {
        let i = self.count as usize;
        self.dst[i] = dst;
        self.seqno[i] = seqno;
        self.count += 1;
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The message's size past the IP header.
    pub fn size(&self) -> u32 {
        (self.count as u32 * 2 + 1) * 4
    }

    /// The reply fields ns-2's trace reads from an error's bytes: the
    /// count where a reply has its hop count, the first destination, the
    /// second (as a sequence number), and the fourth and fifth
    /// destinations' bytes as the lifetime (a double, little-endian).
    pub fn as_reply(&self) -> (u8, i32, u32, f64) {
        let bits = (self.dst[4] as u32 as u64) << 32 | self.dst[3] as u32 as u64;
        (self.count, self.dst[0], self.dst[1] as u32, f64::from_bits(bits))
    }
}

/// An AODV message.  (An error's list is held in place, at ns-2's
/// fixed size, so that a message is a plain value the packet's header
/// store can keep without allocating.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Message {
    Request { hops: u8, bcast_id: u32, dst: i32, dst_seqno: u32, src: i32, src_seqno: u32, timestamp: f64 },
    Reply { hops: u8, dst: i32, dst_seqno: u32, src: i32, lifetime: f64, timestamp: f64 },
    Error(Unreachable),
    /// A HELLO (never sent: 2.35 detects links by the link layer).
    Hello,
}

impl Message {
    /// The message's type byte.
    pub fn kind(&self) -> u8 {
        match self {
            Message::Request { .. } => TYPE_REQUEST,
            Message::Reply { .. } => TYPE_REPLY,
            Message::Error(_) => TYPE_ERROR,
            Message::Hello => 0x10,
        }
    }
}

/// What a packet carries, as far as the agent cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carries {
    /// An AODV message.
    Routing,
    /// TCP segments and acknowledgements: data whose size counts the IP
    /// header already.
    Tcp,
    /// Other data (CBR, audio, video, telnet...: ns-2's DATA_PACKET).
    Data,
    /// Anything else (not data: given up at once when a link fails).
    Other,
}

/// The common and IP header fields the agent reads and sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub carries: Carries,
    pub src: i32,
    pub dst: i32,
    pub ttl: i32,
    /// Bytes.
    pub size: u32,
    /// How many times the packet was received (ns-2's `num_forwards`).
    pub forwards: i32,
    /// The next hop (ns-2 starts packets at -2), and whether the link
    /// layer resolves it (`NS_AF_INET`) rather than the IP destination.
    pub next_hop: i32,
    pub next_hop_set: bool,
    /// Whether the packet came up from the link layer (its direction).
    pub up: bool,
    /// Whether the link layer's failure call-back is this agent's.
    pub failure_callback: bool,
}

/// Why the agent dropped a packet (ns-2's trace reasons in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    /// The link layer could not deliver it (`CBK`).
    LinkFailed,
    /// No route (`NRTE`).
    NoRoute,
    /// A packet this node sent came back (`LOOP`).
    Loop,
    /// Its TTL ran out (`TTL`).
    Ttl,
    /// Pushed out of the full buffer (`IFQ`), or out at its deadline
    /// (`TOUT`).
    BufferFull,
    BufferTimeout,
}

/// The agent's timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Forget old request ids (every 6 s).
    Ids,
    /// The route purge (every 0.5 s).
    Purge,
    /// A local repair of the route to `dst` times out.
    Repair { dst: i32 },
}

/// The node around the agent.
pub trait Host<P> {
    fn now(&self) -> f64;
    /// One draw of the default generator's `Random::uniform()`, in (0, 1).
    fn uniform(&mut self) -> f64;
    /// Start one of the agent's timers; each start is a separate event
    /// (a repair timer may be pending several times).
    fn start(&mut self, t: Timer, delay: f64);
    /// Hand `p` down after `delay` (an event even when 0): the routing
    /// trace point, then the link layer.
    fn send(&mut self, p: P, delay: f64);
    /// `p` is for this node: to its port demultiplexer, now.
    fn deliver(&mut self, p: P);
    /// Dropped (the routing drop trace).
    fn drop(&mut self, p: P, why: Drop);
    /// Let go without a trace.
    fn free(&mut self, p: P);
    /// Take out of the interface queue the first waiting packet whose
    /// next hop is `next_hop`.
    fn filter(&mut self, next_hop: i32) -> Option<P>;
    fn header(&self, p: P) -> Header;
    fn set_header(&mut self, p: P, h: Header);
    /// The message an AODV packet carries.
    fn message(&self, p: P) -> Message;
    fn set_message(&mut self, p: P, m: Message);
    /// A new packet (uid 0, next hop -2) carrying `m`, with this header.
    fn new_message(&mut self, m: Message, h: Header) -> P;
}

/// One remembered request: its source and id, until when.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    src: i32,
    id: u32,
    expire: f64,
}

/// The agent of one node.
#[derive(Clone, Debug)]
pub struct Aodv<P> {
    /// The node's address.
    pub index: i32,
    pub seqno: u32,
    /// The next request's id.
    pub bcast_id: u32,
    pub table: RouteTable,
    pub buffer: RouteBuffer<P>,
    /// Requests seen, newest first.
    seen: Vec<Seen>,
}

impl<P: Copy> Aodv<P> {
    pub fn new(index: i32) -> Aodv<P> {
        Aodv { index, seqno: 2, bcast_id: 1, table: RouteTable::default(), buffer: RouteBuffer::default(), seen: Vec::new() }
    }

    /// ns-2's `start`: the id purge and the route purge run now, then
    /// periodically.
    pub fn start<H: Host<P>>(&mut self, h: &mut H) {
        self.expired(h, Timer::Ids);
        self.expired(h, Timer::Purge);
    }

    pub fn expired<H: Host<P>>(&mut self, h: &mut H, t: Timer) {
        match t {
            Timer::Ids => {
                let now = h.now();
                self.seen.retain(|s| s.expire > now);
                h.start(Timer::Ids, BCAST_ID_SAVE);
            }
            Timer::Purge => {
                self.purge(h);
                h.start(Timer::Purge, PURGE_PERIOD);
            }
            Timer::Repair { dst } => {
                if let Some(rt) = self.table.lookup(dst) {
                    if self.table.get(rt).state != State::Up {
                        self.down(rt);
                    }
                }
            }
        }
    }

    /// Hold `p` for a route, dropping what the full buffer pushes out.
    fn hold<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let dst = h.header(p).dst;
        let now = h.now();
        let mut gone = Vec::new();
        let out = self.buffer.put(p, dst, now, &mut |q| gone.push(q));
        for q in gone {
            h.free(q);
        }
        if let Some((q, why)) = out {
            h.drop(q, if why == Pushed::Full { Drop::BufferFull } else { Drop::BufferTimeout });
        }
    }

    /// The oldest packet held for `dst`.
    fn take_for<H: Host<P>>(&mut self, h: &mut H, dst: i32) -> Option<P> {
        let now = h.now();
        let mut gone = Vec::new();
        let p = self.buffer.take_for(dst, now, &mut |q| gone.push(q));
        for q in gone {
            h.free(q);
        }
        p
    }

    fn down(&mut self, rt: EntryId) {
        let e = self.table.get_mut(rt);
        if e.state == State::Down {
            return;
        }
        e.last_hop_count = e.hops as i32;
        e.hops = INFINITY;
        e.state = State::Down;
        e.next_hop = 0;
        e.expire = 0.0;
    }

    fn update(&mut self, rt: EntryId, seqno: u32, hops: u16, next_hop: i32, expire: f64) {
        let e = self.table.get_mut(rt);
        e.seqno = seqno;
        e.hops = hops;
        e.state = State::Up;
        e.next_hop = next_hop;
        e.expire = expire;
    }

    fn lookup_or_add(&mut self, dst: i32) -> EntryId {
        match self.table.lookup(dst) {
            Some(rt) => rt,
            None => self.table.add(dst),
        }
    }

    /// The mean per-hop discovery latency the entry remembers.
    fn per_hop_time(&self, rt: EntryId) -> f64 {
        let e = self.table.get(rt);
        let (mut n, mut total) = (0, 0.0);
        for &l in &e.disc_latency[..HISTORY] {
            if l > 0.0 {
                n += 1;
                total += l;
            }
        }
        if n > 0 {
            total / n as f64
        } else {
            NODE_TRAVERSAL_TIME
        }
    }

    /// A packet reaching the agent: from one of the node's agents, or
    /// from the link layer (an AODV message, or a packet to forward).
    pub fn recv<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let mut hd = h.header(p);
        if hd.carries == Carries::Routing {
            hd.ttl -= 1;
            h.set_header(p, hd);
            self.recv_message(h, p);
            return;
        }
        if hd.src == self.index && hd.forwards == 0 {
            if hd.carries != Carries::Tcp {
                hd.size += IP_HEADER;
            }
            if hd.dst != BROADCAST {
                hd.ttl = NETWORK_DIAMETER;
            }
        } else if hd.src == self.index {
            h.drop(p, Drop::Loop);
            return;
        } else {
            hd.ttl -= 1;
            if hd.ttl == 0 {
                h.set_header(p, hd);
                h.drop(p, Drop::Ttl);
                return;
            }
        }
        h.set_header(p, hd);
        if hd.dst != BROADCAST {
            self.resolve(h, p);
        } else {
            self.forward(h, None, p, None);
        }
    }

    /// ns-2's `rt_resolve`: forward, hold and ask, or give up with an
    /// error.
    fn resolve<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let mut hd = h.header(p);
        hd.failure_callback = true;
        h.set_header(p, hd);
        let rt = self.lookup_or_add(hd.dst);
        let state = self.table.get(rt).state;
        if state == State::Up {
            self.forward(h, Some(rt), p, None);
        } else if hd.src == self.index {
            self.hold(h, p);
            self.send_request(h, hd.dst);
        } else if state == State::InRepair {
            self.hold(h, p);
        } else {
            let e = self.table.get(rt);
            let mut u = Unreachable::default();
            u.push(e.dst, e.seqno);
            self.send_error(h, u, false);
            h.drop(p, Drop::NoRoute);
        }
    }

    /// ns-2's `rt_purge`: routes past their life go down (their packets
    /// dropped), packets held for live routes go, and a request goes out
    /// for held packets without one.
    fn purge<H: Host<P>>(&mut self, h: &mut H) {
        let now = h.now();
        let mut delay = 0.0;
        let ids: Vec<EntryId> = self.table.ids().collect();
        for rt in ids {
            let e = self.table.get(rt);
            let dst = e.dst;
            if e.state == State::Up && e.expire < now {
                while let Some(p) = self.take_for(h, dst) {
                    h.drop(p, Drop::NoRoute);
                }
                self.table.get_mut(rt).seqno += 1;
                self.down(rt);
            } else if e.state == State::Up {
                while let Some(p) = self.take_for(h, dst) {
                    self.forward(h, Some(rt), p, Some(delay));
                    delay += ARP_DELAY;
                }
            } else if self.buffer.holds_for(dst) {
                self.send_request(h, dst);
            }
        }
    }

    fn recv_message<H: Host<P>>(&mut self, h: &mut H, p: P) {
        match h.message(p) {
            Message::Request { .. } => self.recv_request(h, p),
            Message::Reply { .. } => self.recv_reply(h, p),
            Message::Error(_) => self.recv_error(h, p),
            Message::Hello => h.free(p),
        }
    }

    fn recv_request<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let Message::Request { hops, bcast_id, dst, dst_seqno, src, src_seqno, timestamp } = h.message(p) else { unreachable!() };
        let now = h.now();
        if src == self.index || self.seen.iter().any(|s| s.src == src && s.id == bcast_id) {
            h.free(p);
            return;
        }
        self.seen.insert(0, Seen { src, id: bcast_id, expire: now + BCAST_ID_SAVE });
        // the reverse route
        let rt0 = self.lookup_or_add(src);
        {
            let e = self.table.get_mut(rt0);
            e.expire = e.expire.max(now + REV_ROUTE_LIFE);
        }
        let e = self.table.get(rt0);
        if src_seqno > e.seqno || (src_seqno == e.seqno && (hops as u16) < e.hops) {
            let expire = e.expire.max(now + REV_ROUTE_LIFE);
            let from = h.header(p).src;
            self.update(rt0, src_seqno, hops as u16, from, expire);
            let e = self.table.get_mut(rt0);
            if e.req_timeout > 0.0 {
                e.req_count = 0;
                e.req_timeout = 0.0;
                e.req_last_ttl = hops as i32;
                e.expire = now + ACTIVE_ROUTE_TIMEOUT;
            }
            while let Some(b) = self.take_for(h, src) {
                if self.table.get(rt0).state == State::Up {
                    self.forward(h, Some(rt0), b, None);
                }
            }
        }
        let rt = self.table.lookup(dst);
        if dst == self.index {
            self.seqno = self.seqno.max(dst_seqno).wrapping_add(1);
            if self.seqno % 2 == 1 {
                self.seqno = self.seqno.wrapping_add(1);
            }
            self.send_reply(h, src, 1, self.index, self.seqno, MY_ROUTE_TIMEOUT, timestamp);
            h.free(p);
        } else if let Some(rt) = rt.filter(|&rt| {
            let e = self.table.get(rt);
            e.hops != INFINITY && e.seqno >= dst_seqno
        }) {
            let e = self.table.get(rt);
            let (rhops, rseq, life) = (e.hops as u32 + 1, e.seqno, lifetime(e.expire - now));
            self.send_reply(h, src, rhops, dst, rseq, life, timestamp);
            let to_src = self.table.get(rt0).next_hop;
            let to_dst = self.table.get(rt).next_hop;
            self.table.get_mut(rt).add_precursor(to_src);
            self.table.get_mut(rt0).add_precursor(to_dst);
            h.free(p);
        } else {
            let mut hd = h.header(p);
            hd.src = self.index;
            hd.dst = BROADCAST;
            h.set_header(p, hd);
            let dst_seqno = match rt {
                Some(rt) => self.table.get(rt).seqno.max(dst_seqno),
                None => dst_seqno,
            };
            h.set_message(p, Message::Request { hops: hops.wrapping_add(1), bcast_id, dst, dst_seqno, src, src_seqno, timestamp });
            self.forward(h, None, p, Some(1.0));
        }
    }

    fn recv_reply<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let Message::Reply { hops, dst, dst_seqno, src, lifetime, timestamp } = h.message(p) else { unreachable!() };
        let now = h.now();
        let hd = h.header(p);
        let rt = self.lookup_or_add(dst);
        let e = self.table.get(rt);
        let mut suppress = false;
        if e.seqno < dst_seqno || (e.seqno == dst_seqno && e.hops > hops as u16) {
            self.update(rt, dst_seqno, hops as u16, src, now + lifetime);
            let e = self.table.get_mut(rt);
            e.req_count = 0;
            e.req_timeout = 0.0;
            e.req_last_ttl = hops as i32;
            if hd.dst == self.index {
                e.disc_latency[e.hist_index] = (now - timestamp) / hops as f64;
                e.hist_index = (e.hist_index + 1) % HISTORY;
            }
            let mut delay = 0.0;
            while let Some(b) = self.take_for(h, dst) {
                if self.table.get(rt).hops != INFINITY {
                    self.forward(h, Some(rt), b, Some(delay));
                    delay += ARP_DELAY;
                }
            }
        } else {
            suppress = true;
        }
        if hd.dst == self.index || suppress {
            h.free(p);
            return;
        }
        match self.table.lookup(hd.dst).filter(|&r| self.table.get(r).hops != INFINITY) {
            Some(rt0) => {
                h.set_message(p, Message::Reply { hops: hops.wrapping_add(1), dst, dst_seqno, src: self.index, lifetime, timestamp });
                self.forward(h, Some(rt0), p, None);
                let nh = self.table.get(rt0).next_hop;
                self.table.get_mut(rt).add_precursor(nh);
            }
            None => h.drop(p, Drop::NoRoute),
        }
    }

    fn recv_error<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let Message::Error(u) = h.message(p) else { unreachable!() };
        let from = h.header(p).src;
        let mut out = Unreachable::default();
        for i in 0..u.len() {
            let Some(rt) = self.table.lookup(u.dst[i]) else { continue };
            let e = self.table.get(rt);
            if e.hops != INFINITY && e.next_hop == from && e.seqno <= u.seqno[i] {
                self.table.get_mut(rt).seqno = u.seqno[i];
                self.down(rt);
                while let Some(q) = h.filter(from) {
                    h.drop(q, Drop::LinkFailed);
                }
                let e = self.table.get_mut(rt);
                if !e.precursors.is_empty() {
                    out.push(e.dst, e.seqno);
                    e.precursors.clear();
                }
            }
        }
        if !out.is_empty() {
            self.send_error(h, out, true);
        }
        h.free(p);
    }

    /// ns-2's `forward`: `delay` None is its NO_DELAY, Some(d) a delay
    /// (for a broadcast message, any delay means the jitter).
    fn forward<H: Host<P>>(&mut self, h: &mut H, rt: Option<EntryId>, p: P, delay: Option<f64>) {
        let mut hd = h.header(p);
        if hd.ttl == 0 {
            h.drop(p, Drop::Ttl);
            return;
        }
        if (hd.carries != Carries::Routing && hd.up && hd.dst == BROADCAST) || hd.dst == self.index {
            h.deliver(p);
            return;
        }
        match rt {
            Some(rt) => {
                let now = h.now();
                let e = self.table.get_mut(rt);
                e.expire = now + ACTIVE_ROUTE_TIMEOUT;
                hd.next_hop = e.next_hop;
                hd.next_hop_set = true;
            }
            None => hd.next_hop_set = false,
        }
        hd.up = false;
        h.set_header(p, hd);
        if hd.dst == BROADCAST {
            if hd.carries == Carries::Routing {
                let j = 0.01 * h.uniform();
                h.send(p, j);
            } else {
                h.send(p, 0.0);
            }
        } else {
            match delay {
                Some(d) if d > 0.0 => h.send(p, d),
                _ => h.send(p, 0.0),
            }
        }
    }

    /// A route request for `dst` (whose entry exists), unless one is out
    /// or the route is up; after the retries, the held packets are
    /// dropped and requests wait 10 s.
    pub fn send_request<H: Host<P>>(&mut self, h: &mut H, dst: i32) {
        let now = h.now();
        let Some(rt) = self.table.lookup(dst) else { return };
        let per_hop = self.per_hop_time(rt);
        let e = self.table.get_mut(rt);
        if e.state == State::Up || e.req_timeout > now {
            return;
        }
        if e.req_count > RREQ_RETRIES {
            e.req_timeout = now + MAX_RREQ_TIMEOUT;
            e.req_count = 0;
            while let Some(b) = self.take_for(h, dst) {
                h.drop(b, Drop::NoRoute);
            }
            return;
        }
        e.req_last_ttl = e.req_last_ttl.max(e.last_hop_count);
        let ttl = if e.req_last_ttl == 0 {
            TTL_START
        } else if e.req_last_ttl < TTL_THRESHOLD {
            e.req_last_ttl + TTL_INCREMENT
        } else {
            e.req_count += 1;
            NETWORK_DIAMETER
        };
        e.req_last_ttl = ttl;
        let mut timeout = 2.0 * ttl as f64 * per_hop;
        if e.req_count > 0 {
            timeout *= e.req_count as f64;
        }
        timeout += now;
        if timeout > now + MAX_RREQ_TIMEOUT {
            timeout = now + MAX_RREQ_TIMEOUT;
        }
        e.req_timeout = timeout;
        e.expire = 0.0;
        let dst_seqno = e.seqno;
        let bcast_id = self.bcast_id;
        self.bcast_id = self.bcast_id.wrapping_add(1);
        self.seqno = self.seqno.wrapping_add(2);
        let m = Message::Request { hops: 1, bcast_id, dst, dst_seqno, src: self.index, src_seqno: self.seqno, timestamp: now };
        let hd = self.header(IP_HEADER + REQUEST_LEN, BROADCAST, ttl, -2, false);
        let p = h.new_message(m, hd);
        h.send(p, 0.0);
    }

    fn header(&self, size: u32, dst: i32, ttl: i32, next_hop: i32, next_hop_set: bool) -> Header {
        Header { carries: Carries::Routing, src: self.index, dst, ttl, size, forwards: 0, next_hop, next_hop_set, up: false, failure_callback: false }
    }

    #[allow(clippy::too_many_arguments)]
    fn send_reply<H: Host<P>>(&mut self, h: &mut H, to: i32, hops: u32, dst: i32, dst_seqno: u32, lifetime: u32, timestamp: f64) {
        let rt = self.table.lookup(to).expect("a route back to the requester");
        let next_hop = self.table.get(rt).next_hop;
        let m = Message::Reply { hops: hops as u8, dst, dst_seqno, src: self.index, lifetime: lifetime as f64, timestamp };
        let hd = self.header(IP_HEADER + REPLY_LEN, to, NETWORK_DIAMETER, next_hop, true);
        let p = h.new_message(m, hd);
        h.send(p, 0.0);
    }

    fn send_error<H: Host<P>>(&mut self, h: &mut H, u: Unreachable, jitter: bool) {
        let hd = self.header(IP_HEADER + u.size(), BROADCAST, 1, 0, false);
        let p = h.new_message(Message::Error(u), hd);
        let delay = if jitter { 0.01 * h.uniform() } else { 0.0 };
        h.send(p, delay);
    }

    /// The link layer's failure call-back: `p` (a copy of the frame the
    /// MAC gave up, or the packet ARP gave up) could not reach its next
    /// hop.  A data packet past the middle of its route is held for a
    /// local repair; otherwise it is dropped, with the packets waiting in
    /// the interface queue for the same neighbour, and the routes through
    /// it go down (an error message lists them).
    pub fn link_failed<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let hd = h.header(p);
        let data = matches!(hd.carries, Carries::Data | Carries::Tcp);
        if !data || hd.dst == BROADCAST {
            h.drop(p, Drop::LinkFailed);
            return;
        }
        let Some(rt) = self.table.lookup(hd.dst) else {
            h.drop(p, Drop::LinkFailed);
            return;
        };
        if hd.forwards > self.table.get(rt).hops as i32 {
            self.repair(h, rt, p);
            return;
        }
        h.drop(p, Drop::LinkFailed);
        while let Some(q) = h.filter(hd.next_hop) {
            h.drop(q, Drop::LinkFailed);
        }
        self.seqno = self.seqno.wrapping_add(2);
        self.lost_neighbour(h, hd.next_hop);
    }

    /// ns-2's `handle_link_failure`: the routes through `id` go down.
    fn lost_neighbour<H: Host<P>>(&mut self, h: &mut H, id: i32) {
        let mut u = Unreachable::default();
        let ids: Vec<EntryId> = self.table.ids().collect();
        for rt in ids {
            let e = self.table.get_mut(rt);
            if e.hops != INFINITY && e.next_hop == id {
                e.seqno = e.seqno.wrapping_add(1);
                u.push(e.dst, e.seqno);
                self.down(rt);
            }
            self.table.get_mut(rt).remove_precursor(id);
        }
        if !u.is_empty() {
            self.send_error(h, u, false);
        }
    }

    /// ns-2's `local_rt_repair`.
    fn repair<H: Host<P>>(&mut self, h: &mut H, rt: EntryId, p: P) {
        self.hold(h, p);
        self.table.get_mut(rt).state = State::InRepair;
        let dst = self.table.get(rt).dst;
        self.send_request(h, dst);
        // (the request's timeout, an absolute time, as the delay)
        h.start(Timer::Repair { dst }, self.table.get(rt).req_timeout);
    }
}

/// A reply's lifetime from what is left of a route's life: C's
/// conversion of a double to a 32-bit unsigned on x86-64 (through a
/// 64-bit integer, so a negative value wraps).
fn lifetime(left: f64) -> u32 {
    left as i64 as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the agent did, in order.
    #[derive(Clone, Debug, PartialEq)]
    enum Did {
        Send(usize, f64),
        Deliver(usize),
        Drop(usize, Drop),
        Free(usize),
        Timer(Timer, f64),
        Filtered(usize),
    }

    /// A node: packets in a table, a clock, a fixed "random" draw, an
    /// interface queue of (packet, next hop).
    struct Mock {
        now: f64,
        pkts: Vec<(Header, Option<Message>)>,
        did: Vec<Did>,
        queue: Vec<usize>,
    }

    impl Mock {
        fn new() -> Mock {
            Mock { now: 1.0, pkts: Vec::new(), did: Vec::new(), queue: Vec::new() }
        }

        fn data(&mut self, src: i32, dst: i32, ttl: i32, forwards: i32) -> usize {
            let h = Header { carries: Carries::Data, src, dst, ttl, size: 512, forwards, next_hop: -2, next_hop_set: false, up: forwards > 0, failure_callback: false };
            self.pkts.push((h, None));
            self.pkts.len() - 1
        }

        fn msg(&mut self, from: i32, dst: i32, m: Message) -> usize {
            let h = Header { carries: Carries::Routing, src: from, dst, ttl: 30, size: 48, forwards: 1, next_hop: -2, next_hop_set: false, up: true, failure_callback: false };
            self.pkts.push((h, Some(m)));
            self.pkts.len() - 1
        }

        fn sent(&self) -> Vec<(Header, Option<Message>, f64)> {
            self.did.iter().filter_map(|d| if let Did::Send(p, delay) = d { Some((self.pkts[*p].0, self.pkts[*p].1, *delay)) } else { None }).collect()
        }

        fn dropped(&self) -> Vec<(usize, Drop)> {
            self.did.iter().filter_map(|d| if let Did::Drop(p, w) = d { Some((*p, *w)) } else { None }).collect()
        }
    }

    impl Host<usize> for Mock {
        fn now(&self) -> f64 {
            self.now
        }
        fn uniform(&mut self) -> f64 {
            0.5
        }
        fn start(&mut self, t: Timer, delay: f64) {
            self.did.push(Did::Timer(t, delay));
        }
        fn send(&mut self, p: usize, delay: f64) {
            self.did.push(Did::Send(p, delay));
        }
        fn deliver(&mut self, p: usize) {
            self.did.push(Did::Deliver(p));
        }
        fn drop(&mut self, p: usize, why: Drop) {
            self.did.push(Did::Drop(p, why));
        }
        fn free(&mut self, p: usize) {
            self.did.push(Did::Free(p));
        }
        fn filter(&mut self, next_hop: i32) -> Option<usize> {
            let i = self.queue.iter().position(|&p| self.pkts[p].0.next_hop == next_hop)?;
            let p = self.queue.remove(i);
            self.did.push(Did::Filtered(p));
            Some(p)
        }
        fn header(&self, p: usize) -> Header {
            self.pkts[p].0
        }
        fn set_header(&mut self, p: usize, h: Header) {
            self.pkts[p].0 = h;
        }
        fn message(&self, p: usize) -> Message {
            self.pkts[p].1.expect("a message")
        }
        fn set_message(&mut self, p: usize, m: Message) {
            self.pkts[p].1 = Some(m);
        }
        fn new_message(&mut self, m: Message, h: Header) -> usize {
            self.pkts.push((h, Some(m)));
            self.pkts.len() - 1
        }
    }

    /// An up route at `a` to `dst` through `via`.
    fn route(a: &mut Aodv<usize>, dst: i32, via: i32, hops: u16, seqno: u32, expire: f64) -> EntryId {
        let rt = a.lookup_or_add(dst);
        a.update(rt, seqno, hops, via, expire);
        rt
    }

    fn request_ttl(m: &Mock, i: usize) -> i32 {
        m.sent()[i].0.ttl
    }

    #[test]
    fn a_first_request_goes_network_wide_and_counts_as_a_retry() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(0));
        let p = h.data(0, 5, 32, 0);
        a.recv(&mut h, p);
        // the packet waits (its size with the IP header, TTL 30, the
        // call-back set); the request: TTL 30, not 5 (the unknown last
        // hop count is 255)
        assert_eq!(a.buffer.len(), 1);
        assert_eq!((h.pkts[p].0.size, h.pkts[p].0.ttl, h.pkts[p].0.failure_callback), (532, 30, true));
        let sent = h.sent();
        assert_eq!(sent.len(), 1);
        let (hd, m, delay) = sent[0];
        assert_eq!((hd.src, hd.dst, hd.ttl, hd.size, hd.next_hop, hd.next_hop_set, delay), (0, BROADCAST, 30, 48, -2, false, 0.0));
        assert_eq!(m, Some(Message::Request { hops: 1, bcast_id: 1, dst: 5, dst_seqno: 0, src: 0, src_seqno: 4, timestamp: 1.0 }));
        let e = a.table.get(a.table.lookup(5).unwrap());
        assert_eq!((e.req_count, e.req_last_ttl, e.expire), (1, 30, 0.0));
        assert!((e.req_timeout - (1.0 + 2.0 * 30.0 * 0.03)).abs() < 1e-12);
        // a second packet before the timeout asks nothing more
        let q = h.data(0, 5, 32, 0);
        a.recv(&mut h, q);
        assert_eq!(h.sent().len(), 1);
        assert_eq!(a.buffer.len(), 2);
    }

    #[test]
    fn after_a_route_with_a_known_length_the_ring_expands() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(0));
        let rt = route(&mut a, 5, 1, 2, 4, 0.5);
        // the purge finds it expired: down, its sequence number odd
        a.expired(&mut h, Timer::Purge);
        let e = a.table.get(rt);
        assert_eq!((e.state, e.seqno, e.last_hop_count, e.hops), (State::Down, 5, 2, INFINITY));
        assert_eq!(h.did.last(), Some(&Did::Timer(Timer::Purge, PURGE_PERIOD)));
        let p = h.data(0, 5, 32, 0);
        a.recv(&mut h, p);
        // TTL 2 + 2, no retry counted, timeout 2 * 4 * 30 ms
        assert_eq!(request_ttl(&h, 0), 4);
        let e = a.table.get(rt);
        assert_eq!(e.req_count, 0);
        assert!((e.req_timeout - (1.0 + 0.24)).abs() < 1e-12);
        for (i, ttl, count) in [(1, 6, 0), (2, 8, 0), (3, 30, 1), (4, 30, 2), (5, 30, 3), (6, 30, 4)] {
            h.now = a.table.get(rt).req_timeout + 0.001;
            a.send_request(&mut h, 5);
            assert_eq!(request_ttl(&h, i), ttl);
            assert_eq!(a.table.get(rt).req_count, count);
        }
        // the fourth network-wide request waits 4 * 1.8 s; the next
        // attempt gives up: the held packet dropped, 10 s of silence
        let e = a.table.get(rt);
        assert!((e.req_timeout - h.now - 4.0 * 1.8).abs() < 1e-9);
        h.now = e.req_timeout + 0.001;
        a.send_request(&mut h, 5);
        a.send_request(&mut h, 5);
        assert_eq!(h.sent().len(), 7);
        assert_eq!(h.dropped(), [(p, Drop::NoRoute)]);
        assert_eq!(a.table.get(rt).req_count, 0);
        assert!((a.table.get(rt).req_timeout - h.now - MAX_RREQ_TIMEOUT).abs() < 1e-12);
    }

    #[test]
    fn ttl_and_loop_drops() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(2));
        route(&mut a, 5, 3, 1, 4, 100.0);
        // forwarded with one hop left: the TTL runs out here
        let p = h.data(0, 5, 1, 2);
        a.recv(&mut h, p);
        // this node's own packet back again
        let q = h.data(2, 5, 20, 3);
        a.recv(&mut h, q);
        assert_eq!(h.dropped(), [(p, Drop::Ttl), (q, Drop::Loop)]);
        // a packet forwarded on goes to the next hop, the route's life
        // renewed
        let r = h.data(0, 5, 9, 2);
        a.recv(&mut h, r);
        let (hd, _, delay) = h.sent()[0];
        assert_eq!((hd.ttl, hd.next_hop, hd.next_hop_set, delay), (8, 3, true, 0.0));
        assert_eq!(a.table.get(a.table.lookup(5).unwrap()).expire, 1.0 + ACTIVE_ROUTE_TIMEOUT);
    }

    #[test]
    fn requests_heard_again_or_its_own_are_ignored_and_others_rebroadcast_with_jitter() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(1));
        let rq = Message::Request { hops: 1, bcast_id: 7, dst: 9, dst_seqno: 0, src: 0, src_seqno: 4, timestamp: 0.9 };
        let p = h.msg(0, BROADCAST, rq);
        a.recv(&mut h, p);
        let sent = h.sent();
        assert_eq!(sent.len(), 1);
        let (hd, m, delay) = sent[0];
        assert_eq!((hd.src, hd.dst, hd.ttl, delay), (1, BROADCAST, 29, 0.005));
        assert!(matches!(m, Some(Message::Request { hops: 2, bcast_id: 7, .. })));
        // the reverse route, for 6 s
        let e = a.table.get(a.table.lookup(0).unwrap());
        assert_eq!((e.state, e.next_hop, e.hops, e.seqno, e.expire), (State::Up, 0, 1, 4, 7.0));
        let again = h.msg(2, BROADCAST, rq);
        a.recv(&mut h, again);
        let own = h.msg(2, BROADCAST, Message::Request { hops: 1, bcast_id: 8, dst: 9, dst_seqno: 0, src: 1, src_seqno: 6, timestamp: 0.9 });
        a.recv(&mut h, own);
        assert_eq!(h.sent().len(), 1);
        assert_eq!(&h.did[h.did.len() - 2..], [Did::Free(again), Did::Free(own)]);
    }

    #[test]
    fn the_destination_replies_with_an_even_sequence_number() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(5));
        let rq = Message::Request { hops: 3, bcast_id: 1, dst: 5, dst_seqno: 7, src: 0, src_seqno: 4, timestamp: 0.9 };
        let p = h.msg(4, BROADCAST, rq);
        a.recv(&mut h, p);
        assert_eq!(a.seqno, 8);
        let (hd, m, _) = h.sent()[0];
        assert_eq!((hd.dst, hd.next_hop, hd.next_hop_set, hd.size, hd.ttl), (0, 4, true, 44, 30));
        assert_eq!(m, Some(Message::Reply { hops: 1, dst: 5, dst_seqno: 8, src: 5, lifetime: 10.0, timestamp: 0.9 }));
    }

    #[test]
    fn an_intermediate_node_replies_from_its_route_and_records_precursors() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(1));
        let to_dst = route(&mut a, 3, 2, 2, 6, 5.5);
        let rq = Message::Request { hops: 1, bcast_id: 1, dst: 3, dst_seqno: 6, src: 4, src_seqno: 4, timestamp: 0.9 };
        let p = h.msg(4, BROADCAST, rq);
        a.recv(&mut h, p);
        let (_, m, _) = h.sent()[0];
        // hops + 1, the route's sequence number, what is left of its life
        assert_eq!(m, Some(Message::Reply { hops: 3, dst: 3, dst_seqno: 6, src: 1, lifetime: 4.0, timestamp: 0.9 }));
        let back = a.table.lookup(4).unwrap();
        assert_eq!(a.table.get(to_dst).precursors, [4]);
        assert_eq!(a.table.get(back).precursors, [2]);
    }

    #[test]
    fn a_reply_sets_the_route_sends_the_held_packets_apart_and_is_passed_on() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(1));
        // node 1 forwards for source 0; it holds two packets of its own
        route(&mut a, 0, 0, 1, 4, 7.0);
        for _ in 0..2 {
            let p = h.data(1, 3, 32, 0);
            a.recv(&mut h, p);
        }
        let asked = h.sent().len();
        let rp = Message::Reply { hops: 2, dst: 3, dst_seqno: 6, src: 2, lifetime: 10.0, timestamp: 0.9 };
        let p = h.msg(2, 0, rp);
        a.recv(&mut h, p);
        let sent = &h.sent()[asked..];
        assert_eq!(sent.iter().map(|s| (s.0.next_hop, s.2)).collect::<Vec<_>>(), [(2, 0.0), (2, ARP_DELAY), (0, 0.0)]);
        assert_eq!(sent[2].1, Some(Message::Reply { hops: 3, dst: 3, dst_seqno: 6, src: 1, lifetime: 10.0, timestamp: 0.9 }));
        let e = a.table.get(a.table.lookup(3).unwrap());
        assert_eq!((e.state, e.hops, e.next_hop, e.expire, e.req_count), (State::Up, 2, 2, 1.0 + ACTIVE_ROUTE_TIMEOUT, 0));
        assert_eq!(e.precursors, [0]);
        // not the source: no latency recorded
        assert_eq!(e.disc_latency, [0.0; HISTORY]);
        // an older reply is suppressed
        let old = h.msg(2, 0, Message::Reply { hops: 2, dst: 3, dst_seqno: 4, src: 2, lifetime: 10.0, timestamp: 0.9 });
        a.recv(&mut h, old);
        assert_eq!(h.did.last(), Some(&Did::Free(old)));
    }

    #[test]
    fn a_link_failure_near_the_source_drops_the_packets_for_that_neighbour_and_reports_the_routes() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(0));
        route(&mut a, 3, 1, 3, 6, 100.0);
        route(&mut a, 2, 1, 2, 8, 100.0);
        route(&mut a, 4, 7, 1, 2, 100.0);
        let p = h.data(0, 3, 30, 0);
        let q = h.data(0, 2, 30, 0);
        let r = h.data(0, 4, 30, 0);
        for (x, nh) in [(p, 1), (q, 1), (r, 7)] {
            h.pkts[x].0.next_hop = nh;
        }
        h.queue = vec![r, q];
        a.link_failed(&mut h, p);
        assert_eq!(h.dropped(), [(p, Drop::LinkFailed), (q, Drop::LinkFailed)]);
        assert_eq!(h.queue, [r]);
        assert_eq!(a.seqno, 4);
        // both routes through 1 down with odd numbers, listed newest entry
        // first, sent at once
        let (hd, m, delay) = h.sent()[0];
        assert_eq!((hd.dst, hd.ttl, hd.size, hd.next_hop, delay), (BROADCAST, 1, 20 + 20, 0, 0.0));
        let Some(Message::Error(u)) = m else { panic!("an error") };
        assert_eq!((u.len(), &u.dst[..2], &u.seqno[..2]), (2, &[2, 3][..], &[9, 7][..]));
        assert_eq!(a.table.get(a.table.lookup(4).unwrap()).state, State::Up);
    }

    #[test]
    fn a_link_failure_past_the_middle_repairs_locally() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(2));
        let rt = route(&mut a, 3, 3, 1, 6, 100.0);
        let p = h.data(0, 3, 28, 2);
        h.pkts[p].0.next_hop = 3;
        a.link_failed(&mut h, p);
        assert_eq!(a.buffer.len(), 1);
        assert_eq!(a.table.get(rt).state, State::InRepair);
        // a request (an up route is not asked for, an in-repair one is;
        // network-wide, as no route to it went down before) and the
        // repair timer set to the request's timeout as a delay
        let (hd, m, _) = h.sent()[0];
        assert!(matches!(m, Some(Message::Request { dst: 3, dst_seqno: 6, .. })));
        assert_eq!(hd.ttl, 30);
        let timeout = a.table.get(rt).req_timeout;
        assert!(timeout > h.now);
        assert!(h.did.contains(&Did::Timer(Timer::Repair { dst: 3 }, timeout)));
        // packets for it wait meanwhile
        let q = h.data(1, 3, 29, 1);
        a.recv(&mut h, q);
        assert_eq!(a.buffer.len(), 2);
        // unanswered: the route goes down; then a packet to forward gets
        // an error sent back and is dropped
        a.expired(&mut h, Timer::Repair { dst: 3 });
        assert_eq!(a.table.get(rt).state, State::Down);
        let r = h.data(1, 3, 29, 1);
        a.recv(&mut h, r);
        assert_eq!(h.dropped(), [(r, Drop::NoRoute)]);
        let Some(Message::Error(u)) = h.sent().last().unwrap().1 else { panic!("an error") };
        assert_eq!((u.len(), u.dst[0], u.seqno[0]), (1, 3, 6));
    }

    #[test]
    fn an_error_from_the_next_hop_takes_routes_down_and_goes_on_to_precursors() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(1));
        let with = route(&mut a, 3, 2, 2, 6, 100.0);
        a.table.get_mut(with).add_precursor(0);
        let without = route(&mut a, 4, 2, 3, 2, 100.0);
        let other = route(&mut a, 5, 9, 1, 2, 100.0);
        let mut u = Unreachable::default();
        for (d, s) in [(3, 7), (4, 3), (5, 3)] {
            u.push(d, s);
        }
        let queued = h.data(1, 3, 30, 0);
        h.pkts[queued].0.next_hop = 2;
        h.queue = vec![queued];
        let p = h.msg(2, BROADCAST, Message::Error(u));
        a.recv(&mut h, p);
        assert_eq!((a.table.get(with).state, a.table.get(with).seqno), (State::Down, 7));
        assert_eq!(a.table.get(without).state, State::Down);
        assert_eq!(a.table.get(other).state, State::Up);
        assert_eq!(h.dropped(), [(queued, Drop::LinkFailed)]);
        // only the route with precursors is reported on, after a jitter
        let (_, m, delay) = h.sent()[0];
        let Some(Message::Error(out)) = m else { panic!("an error") };
        assert_eq!((out.len(), out.dst[0], out.seqno[0], delay), (1, 3, 7, 0.005));
        assert!(a.table.get(with).precursors.is_empty());
    }

    #[test]
    fn a_full_buffer_drops_its_oldest() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(0));
        let first = h.data(0, 5, 32, 0);
        a.recv(&mut h, first);
        for _ in 1..crate::wireless::aodv_buffer::LIMIT {
            let p = h.data(0, 5, 32, 0);
            a.recv(&mut h, p);
        }
        assert!(h.dropped().is_empty());
        let p = h.data(0, 5, 32, 0);
        a.recv(&mut h, p);
        assert_eq!(h.dropped(), [(first, Drop::BufferFull)]);
    }

    #[test]
    fn non_data_packets_and_unknown_routes_are_given_up_at_once() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(0));
        let rp = h.msg(0, 3, Message::Reply { hops: 1, dst: 0, dst_seqno: 2, src: 0, lifetime: 10.0, timestamp: 0.0 });
        a.link_failed(&mut h, rp);
        let p = h.data(0, 8, 30, 0);
        a.link_failed(&mut h, p);
        assert_eq!(h.dropped(), [(rp, Drop::LinkFailed), (p, Drop::LinkFailed)]);
        assert!(h.sent().is_empty());
    }

    #[test]
    fn a_reply_lifetime_converts_as_c_does_on_x86_64() {
        assert_eq!(lifetime(9.99), 9);
        assert_eq!(lifetime(-0.5), 0);
        assert_eq!(lifetime(-3.2), 4294967293);
    }

    #[test]
    fn an_error_read_as_a_reply() {
        let mut u = Unreachable::default();
        u.push(5, 9);
        assert_eq!(u.as_reply(), (1, 5, 0, 0.0));
        assert_eq!(u.size(), 12);
        for d in [6, 7, 0, 0x4024_0000] {
            u.push(d, 1);
        }
        // the fourth and fifth destinations' bytes: 10.0 as a double
        assert_eq!(u.as_reply(), (5, 5, 6, 10.0));
    }

    #[test]
    fn the_timers_rearm_and_old_request_ids_are_forgotten() {
        let (mut h, mut a) = (Mock::new(), Aodv::new(1));
        a.start(&mut h);
        assert_eq!(h.did, [Did::Timer(Timer::Ids, BCAST_ID_SAVE), Did::Timer(Timer::Purge, PURGE_PERIOD)]);
        let rq = Message::Request { hops: 1, bcast_id: 7, dst: 9, dst_seqno: 0, src: 0, src_seqno: 4, timestamp: 0.9 };
        let p = h.msg(0, BROADCAST, rq);
        a.recv(&mut h, p);
        h.now = 7.0;
        a.expired(&mut h, Timer::Ids);
        let again = h.msg(2, BROADCAST, rq);
        a.recv(&mut h, again);
        assert_eq!(h.sent().len(), 2);
    }
}
