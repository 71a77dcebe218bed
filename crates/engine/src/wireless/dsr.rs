//! DSR's routing agent as ns-2 2.35 builds it (dsr/dsragent.cc with its
//! compiled-in switches: the tap, snooping, salvaging with the cache,
//! gratuitous replies and errors, replies from the cache, the ring-zero
//! search and flow state all on).  The agent is the node's entry
//! (ns-mobilenode.tcl's SRNodeNew): every packet the node gets, from its
//! agents or from its link layer, comes to [`Dsr::recv`]; its parts are
//! the route cache (dsr_cache.rs), the request table and send buffer
//! (dsr_request.rs), the source-route header (dsr_header.rs) and the flow
//! state (dsr_flow.rs).  What it does with a packet follows dsragent.cc
//! function by function, in its order (each random draw, each new
//! packet's uid, each trace line where ns-2 makes it).
//!
//! Where 2.35 reads memory it never wrote (`processUnknownFlowError` for
//! an unknown default flow looks the flow up by an uninitialised id),
//! the agent takes the flow as not found.

use super::dsr_cache::{MobiCache, Route, MAX_SR_LEN};
use super::dsr_flow::FlowTable;
use super::dsr_header::{FlowError, LinkDown, SrHeader, MAX_ROUTE_ERRORS};
use super::dsr_request::{back_off_allows, route_found, LastType, RequestTable, SendBuffer, ARP_TIMEOUT, SALVAGE_MAX_REQUESTS, SEND_BUF_SIZE, SEND_TIMEOUT};

/// The routing agents' port (`RT_PORT`).
pub const PORT: i32 = 255;
/// The IP header's bytes, which the agent adds to its packets' size.
pub const IP_HDR_LEN: i32 = 20;
/// ns-2's `PT_DSR`, as `SSendFailure` prints a packet type.
pub const PT_DSR: i32 = 37;
const BUFFER_CHECK: f64 = 0.03;
const RREQ_JITTER: f64 = 0.010;
const HOLD_SIZE: usize = 10;
const GRAT_HOLD_DOWN: f64 = 1.0;
const MAX_ERR_HOLD: f64 = 1.0;
const SALVAGE_MAX_ATTEMPTS: i32 = 15;
const END_TO_END_COUNT: i32 = 2;
const MIN_ADV_INTERVAL: f64 = 5.0;
const DEFAULT_FLOW_TIMEOUT: u32 = 60;
const TAP_CACHE: usize = 1024;
/// The broadcast address (IP and MAC).
const BROADCAST: i32 = -1;

/// A source route and the place in it of the node at hand (path.cc's
/// `Path`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Path {
    pub addrs: [i32; MAX_SR_LEN],
    pub len: usize,
    pub cur: usize,
}

impl Path {
    fn of(a: &[i32]) -> Path {
        let mut p = Path::default();
        p.addrs[..a.len()].copy_from_slice(a);
        p.len = a.len();
        p
    }

    /// The route a header carries, at its current place.
    fn from_sr(h: &SrHeader) -> Path {
        if !h.valid {
            return Path::default();
        }
        let mut p = Path::of(h.route());
        p.cur = h.cur_addr;
        p
    }

    pub fn slice(&self) -> &[i32] {
        &self.addrs[..self.len]
    }

    fn full(&self) -> bool {
        self.len >= MAX_SR_LEN
    }

    fn push(&mut self, a: i32) {
        self.addrs[self.len] = a;
        self.len += 1;
    }

    fn member(&self, a: i32) -> bool {
        self.slice().contains(&a)
    }

    /// Same nodes (ns-2's `==` ignores the place).
    fn same(&self, o: &Path) -> bool {
        self.slice() == o.slice()
    }

    fn reverse(&mut self) {
        if self.len == 0 {
            return;
        }
        self.addrs[..self.len].reverse();
        self.cur = (self.len - 1).wrapping_sub(self.cur);
    }

    fn append(&mut self, o: &Path) {
        for &a in o.slice() {
            if self.len == MAX_SR_LEN {
                return;
            }
            self.push(a);
        }
    }

    fn remove_section(&mut self, from: usize, to: usize) {
        if to <= from {
            return;
        }
        if self.cur > from {
            self.cur -= to - from;
        }
        let n = self.len;
        self.addrs.copy_within(to..n, from);
        self.len = from + (n - to);
    }

    fn fill_sr(&self, h: &mut SrHeader) {
        h.addrs[..self.len].copy_from_slice(self.slice());
        h.num_addrs = self.len;
        h.cur_addr = self.cur;
    }
}

/// path.cc's `compressPath`: cuts out the loops of a route.
fn compress(p: &mut Path) {
    let mut fp = 0;
    while fp < p.len {
        let mut bp = p.len - 1;
        while bp != fp {
            if p.addrs[fp] == p.addrs[bp] {
                let n = p.len;
                p.addrs.copy_within(bp..n, fp);
                p.len = fp + (n - bp);
                break;
            }
            bp -= 1;
        }
        fp += 1;
    }
}

/// Which of the agent's call-backs the link layer calls when it gives up
/// on a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Callback {
    #[default]
    None,
    /// `XmitFailureCallback`: the packet carries its source route.
    Route,
    /// `XmitFlowFailureCallback`: it travels by flow id.
    Flow,
}

/// A packet's headers as the agent reads and writes them (common and IP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ip {
    pub uid: i32,
    /// One of the agent's own packets (`PT_DSR`), else an agent's.
    pub dsr: bool,
    /// ns-2's packet type number (for `SSendFailure`).
    pub ptype: i32,
    pub size: i32,
    pub src: i32,
    pub sport: i32,
    pub dst: i32,
    pub dport: i32,
    pub ttl: i32,
    /// The next hop the agent set; `link`: it is a MAC address (the
    /// broadcast of a request).
    pub next_hop: i32,
    pub next_hop_set: bool,
    pub link: bool,
    /// Going down (not up from the link layer).
    pub down: bool,
    pub callback: Callback,
    pub forwards: i32,
}

/// Why the agent drops a packet (ns-2's reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    /// Timed out of, or pushed out of, the send buffer (`TOUT`).
    Timeout,
    NoRoute,
    Ttl,
    Loop,
    /// Salvaged too often (`SAL`).
    Salvage,
    /// A reply over the broken link, nothing else in it (`CBK`).
    Callback,
    /// The node was reset (`END`).
    End,
}

/// A line the agent writes to the trace-all file of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Note {
    /// The switches and the cache's kind, by the node whose address is 1.
    Config,
    SendBufferDrop { src: i32, dst: i32 },
    FlowSend { uid: i32, src: i32, dst: i32, flow: i32, flow_header: i32, next_hop: i32, route: Option<Path> },
    FlowForward { uid: i32, src: i32, dst: i32, flow: i32, next_hop: i32 },
    Salvaging { src: i32, dst: i32, uid: i32, route: Path },
    SalvageToBuffer { uid: i32, src: i32, dst: i32, salvaged: i32 },
    SendFailure { uid: i32, ptype: i32, src: i32, sport: i32, dst: i32, dport: i32, from: i32, to: i32, hops: [i32; 3], route: Path },
    /// A forwarder reports a flow it does not know (`SFErr`).
    FlowError { src: i32, dst: i32, flow: i32 },
    /// The source hears of it (`SFEr`): the flow's destination and id (-1
    /// for a default flow), the flow's count after (-1: not found).
    FlowErrorHeard { from: i32, dst: i32, flow: i32, count: i32 },
    /// A flow error nested too deep is dropped (`SYFU`).
    FlowErrorDumped { src: i32, dst: i32 },
    /// A route error nested too deep is dropped (`SDFU ... dumping
    /// maximally nested error`).
    ErrorDumped { tell: i32, from: i32, to: i32 },
    /// One of the agent's fixed complaints (`SDFU: ...`), as ns-2 writes it.
    Dfu(&'static str),
}

/// What stops a run: a part of DSR not built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unbuilt {
    /// A fourth unknown-flow error nested in one packet (ns-2 writes past
    /// its array).
    FlowError,
    /// A link failed on a node whose interface queue is not a
    /// `CMUPriQueue` (ns-2 2.35 crashes there).
    QueueKind,
}

/// The agent's view of its node.
pub trait Host<P: Copy> {
    fn now(&self) -> f64;
    fn uniform(&mut self, max: f64) -> f64;
    /// A new packet of the agent's (`allocpkt`: the next uid, the node's
    /// address and the routing port, TTL 32, type DSR, size 0).
    fn new_packet(&mut self) -> P;
    fn new_uid(&mut self) -> i32;
    fn ip(&self, p: P) -> Ip;
    fn set_ip(&mut self, p: P, ip: Ip);
    /// The source-route header (`valid` false when the packet has none).
    fn sr(&self, p: P) -> SrHeader;
    fn set_sr(&mut self, p: P, h: SrHeader);
    fn copy(&mut self, p: P) -> P;
    /// To the routing send trace and the link layer after `delay`.
    fn send(&mut self, p: P, delay: f64);
    /// Back to the agent itself after `delay`.
    fn to_self(&mut self, p: P, delay: f64);
    /// To the node's port demultiplexer.
    fn deliver(&mut self, p: P);
    fn drop(&mut self, p: P, why: Drop);
    fn free(&mut self, p: P);
    /// The send buffer's check after `delay`.
    fn check_in(&mut self, delay: f64);
    fn note(&mut self, n: Note);
    /// The first packet in the interface queue for `next_hop`, taken out
    /// (`prq_get_nexthop`); Err if the queue is not a CMUPriQueue.
    fn take_queued(&mut self, next_hop: i32) -> Result<Option<P>, Unbuilt>;
    /// GOD's hop count between two nodes.
    fn hops(&self, a: i32, b: i32) -> i32;
    fn unbuilt(&mut self, what: Unbuilt);
}

/// A packet with the addresses and route the agent works with
/// (srpacket.h's `SRPacket`).
#[derive(Clone, Copy, Debug)]
pub struct SrPacket<P> {
    pub pkt: P,
    pub src: i32,
    pub dest: i32,
    pub route: Path,
}

/// One node's DSR agent.
#[derive(Clone, Debug)]
pub struct Dsr<P: Copy> {
    me: i32,
    cache: MobiCache,
    requests: RequestTable,
    buffer: SendBuffer<SrPacket<P>>,
    req_num: i32,
    grat: [(f64, Path); HOLD_SIZE],
    grat_victim: usize,
    flows: FlowTable,
    error_held: bool,
    err_from: i32,
    err_to: i32,
    err_time: f64,
    tap_uids: Box<[i32; TAP_CACHE]>,
}

impl<P: Copy + std::fmt::Debug> Dsr<P> {
    pub fn new(me: i32) -> Dsr<P> {
        Dsr {
            me,
            cache: MobiCache::new(me),
            requests: RequestTable::default(),
            buffer: SendBuffer::default(),
            req_num: 1,
            grat: [(0.0, Path::default()); HOLD_SIZE],
            grat_victim: 0,
            flows: FlowTable::default(),
            error_held: false,
            err_from: 0,
            err_to: 0,
            err_time: 0.0,
            tap_uids: Box::new([0; TAP_CACHE]),
        }
    }

    /// `startdsr`: the configuration lines (node 1), then the send
    /// buffer's first check.
    pub fn start(&mut self, h: &mut impl Host<P>) {
        if self.me == 1 {
            h.note(Note::Config);
        }
        let d = BUFFER_CHECK + BUFFER_CHECK * h.uniform(1.0);
        h.check_in(d);
    }

    /// The send buffer's timer expired.
    pub fn check(&mut self, h: &mut impl Host<P>) {
        let now = h.now();
        for c in 0..SEND_BUF_SIZE {
            let Some((sp, t)) = self.buffer.get(c) else { continue };
            if now - t > SEND_TIMEOUT {
                self.buffer.take(c);
                self.drop_send_buff(h, sp);
                continue;
            }
            if self.handle_without_sr(h, sp, true) {
                self.buffer.take(c);
            }
        }
        let d = BUFFER_CHECK + BUFFER_CHECK * h.uniform(1.0);
        h.check_in(d);
    }

    /// The node is reset: what waits in the send buffer is dropped.
    pub fn terminate(&mut self, h: &mut impl Host<P>) {
        for c in 0..SEND_BUF_SIZE {
            if let Some(sp) = self.buffer.take(c) {
                h.drop(sp.pkt, Drop::End);
            }
        }
    }

    fn drop_send_buff(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>) {
        h.note(Note::SendBufferDrop { src: sp.src, dst: sp.dest });
        h.drop(sp.pkt, Drop::Timeout);
    }

    fn stick(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>) {
        let now = h.now();
        if let Some(out) = self.buffer.stick(sp, now) {
            self.drop_send_buff(h, out);
        }
    }

    /// A packet for the node (`DSRAgent::recv`).
    pub fn recv(&mut self, h: &mut impl Host<P>, p: P) {
        let mut ip = h.ip(p);
        let mut sr = h.sr(p);
        let mut sp = SrPacket { pkt: p, src: ip.src, dest: ip.dst, route: Path::from_sr(&sr) };
        if !sr.valid {
            if ip.next_hop == BROADCAST && ip.next_hop_set {
                if sp.src == self.me {
                    ip.down = true;
                    h.set_ip(p, ip);
                    h.send(p, 0.0);
                } else {
                    h.deliver(p);
                }
                return;
            }
            sr.init();
            h.set_sr(p, sr);
            ip.size += IP_HDR_LEN;
            h.set_ip(p, ip);
            sp.route = Path::default();
            self.handle_without_sr(h, sp, false);
            return;
        }
        if sp.dest == self.me || sp.dest == BROADCAST {
            self.handle_receipt(h, sp);
            return;
        }
        if sr.error {
            self.process_broken_route_error(h, &sp);
        }
        if sr.request {
            self.handle_route_request(h, sp);
        } else {
            self.handle_forwarding(h, sp);
        }
    }

    /// `handlePktWithoutSR`; true when the packet was taken (sent,
    /// buffered or dropped).
    fn handle_without_sr(&mut self, h: &mut impl Host<P>, mut sp: SrPacket<P>, retry: bool) -> bool {
        if sp.dest == self.me {
            self.handle_receipt(h, sp);
            return true;
        }
        match self.cache.find_route(sp.dest, true) {
            Some(r) => {
                sp.route = Path::of(r.as_slice());
                self.send_out(h, sp, true, 0.0);
                true
            }
            None => self.get_route_for_packet(h, sp, retry),
        }
    }

    fn handle_receipt(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>) {
        let sr = h.sr(sp.pkt);
        if sr.reply {
            self.accept_route_reply(h, &sp);
        }
        if sr.request {
            self.requests.insert(sp.src, sr.req_id);
            self.return_src_route(h, &sp);
        }
        if sr.error {
            self.process_broken_route_error(h, &sp);
        }
        if sr.flow_unknown > 0 {
            self.process_unknown_flow_error(h, &sp, false);
        }
        if sr.default_unknown > 0 {
            self.process_unknown_flow_error(h, &sp, true);
        }
        let mut sr = h.sr(sp.pkt);
        let mut ip = h.ip(sp.pkt);
        ip.size -= sr.size() as i32;
        sr.valid = false;
        ip.size -= IP_HDR_LEN;
        h.set_sr(sp.pkt, sr);
        h.set_ip(sp.pkt, ip);
        h.deliver(sp.pkt);
    }

    fn handle_default_forwarding(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>) {
        let ip = h.ip(sp.pkt);
        let Some(fid) = self.flows.default_flow(sp.src, sp.dest) else {
            return self.send_unknown_flow(h, sp, true, 0);
        };
        let Some(i) = self.flows.find(sp.src, sp.dest, fid) else {
            return self.send_unknown_flow(h, sp, false, fid);
        };
        if ip.ttl != self.flows.get(i).expected_ttl {
            return self.send_unknown_flow(h, sp, true, 0);
        }
        self.flow_forward(h, sp, i);
    }

    /// The IP header of one of the agent's own packets (an error it sends
    /// about a packet it got) to `dst`: from this node's DSR port to the
    /// other's, a fresh uid, nothing forwarded yet (dsragent.cc's
    /// `sendUnknownFlow` and `xmitFailed` write the same fields).
    fn own_header(&self, h: &mut impl Host<P>, ip: &mut Ip, dst: i32) {
        ip.dst = dst;
        ip.dport = PORT;
        ip.src = self.me;
        ip.sport = PORT;
        ip.ttl = 255;
        ip.dsr = true;
        ip.ptype = PT_DSR;
        ip.size = IP_HDR_LEN;
        ip.forwards = 0;
        ip.uid = h.new_uid();
    }

    /// `sendUnknownFlow`: the packet, salvaged if it can be, turns into
    /// an error to its source.
    fn send_unknown_flow(&mut self, h: &mut impl Host<P>, mut sp: SrPacket<P>, as_default: bool, flow: u16) {
        if sp.src == self.me {
            h.free(sp.pkt);
            return;
        }
        self.undeliverable(h, sp.pkt, false);
        let mut sr = h.sr(sp.pkt);
        let mut ip = h.ip(sp.pkt);
        let fe = if as_default {
            if sr.default_unknown == 0 {
                sr.default_unknown = 1;
                Some(0)
            } else if sr.default_unknown < MAX_ROUTE_ERRORS {
                sr.default_unknown += 1;
                Some(sr.default_unknown - 1)
            } else {
                None
            }
        } else if sr.flow_unknown == 0 {
            sr.flow_unknown = 1;
            Some(0)
        } else if sr.default_unknown < MAX_ROUTE_ERRORS {
            // (2.35 checks the other count here)
            if sr.flow_unknown >= MAX_ROUTE_ERRORS {
                h.unbuilt(Unbuilt::FlowError);
                h.free(sp.pkt);
                return;
            }
            sr.flow_unknown += 1;
            Some(sr.flow_unknown - 1)
        } else {
            None
        };
        let Some(fe) = fe else {
            h.note(Note::FlowErrorDumped { src: sp.src, dst: sp.dest });
            h.free(sp.pkt);
            return;
        };
        h.note(Note::FlowError { src: sp.src, dst: sp.dest, flow: flow as i32 });
        sr.reply = false;
        sr.request = false;
        sr.flow_header = false;
        sr.flow_timeout = false;
        let e = FlowError { src: sp.src, dst: sp.dest, id: flow };
        if as_default {
            sr.unknown_defaults[fe] = e;
        } else {
            sr.unknown_flows[fe] = e;
        }
        self.own_header(h, &mut ip, sp.src);
        h.set_sr(sp.pkt, sr);
        h.set_ip(sp.pkt, ip);
        sp.dest = ip.dst;
        sp.src = self.me;
        self.handle_without_sr(h, sp, false);
    }

    /// `processUnknownFlowError`: this node hears that a forwarder did not
    /// know a flow.
    fn process_unknown_flow_error(&mut self, h: &mut impl Host<P>, sp: &SrPacket<P>, as_default: bool) {
        let sr = h.sr(sp.pkt);
        let n = if as_default { sr.default_unknown } else { sr.flow_unknown };
        let all = if as_default { sr.unknown_defaults } else { sr.unknown_flows };
        let fe = all[n - 1];
        let mut idx = None;
        let skip = !as_default && self.flows.default_flow(fe.src, fe.dst).is_none();
        if !skip {
            if fe.src != self.me {
                return;
            }
            // (for a default flow 2.35 looks up an id it never set)
            idx = if as_default { None } else { self.flows.find(fe.src, fe.dst, fe.id) };
            if let Some(i) = idx {
                self.flows.get_mut(i).count = 0;
            }
        }
        let count = idx.map_or(-1, |i| self.flows.get(i).count);
        h.note(Note::FlowErrorHeard { from: sp.src, dst: fe.dst, flow: if as_default { -1 } else { fe.id as i32 }, count });
        if n == 1 {
            return;
        }
        let q = h.copy(sp.pkt);
        let mut s2 = sr;
        if as_default {
            s2.default_unknown -= 1;
        } else {
            s2.flow_unknown -= 1;
        }
        let dest = all[n - 2].src;
        let mut qi = h.ip(q);
        qi.dst = dest;
        qi.dport = PORT;
        qi.src = self.me;
        qi.sport = PORT;
        qi.ttl = 255;
        s2.flow_header = false;
        s2.flow_timeout = false;
        h.set_sr(q, s2);
        h.set_ip(q, qi);
        self.handle_without_sr(h, SrPacket { pkt: q, src: self.me, dest, route: sp.route }, false);
    }

    /// `handleFlowForwarding(p, flowidx)`.
    fn flow_forward(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>, i: usize) {
        let mut ip = h.ip(sp.pkt);
        let now = h.now();
        let f = *self.flows.get(i);
        ip.next_hop = f.next_hop;
        ip.next_hop_set = true;
        ip.link = false;
        ip.callback = Callback::Flow;
        let ttl = ip.ttl;
        ip.ttl -= 1;
        if ttl == 0 {
            h.set_ip(sp.pkt, ip);
            h.drop(sp.pkt, Drop::Ttl);
            return;
        }
        h.note(Note::FlowForward { uid: ip.uid, src: sp.src, dst: sp.dest, flow: f.id as i32, next_hop: f.next_hop });
        // (automatic route shortening by flow state: 2.35 asks it only of
        // a packet whose route's place is past the hops saved, which a
        // packet travelling by flow id, place 0, never is)
        self.flows.get_mut(i).timeout = now + DEFAULT_FLOW_TIMEOUT as f64;
        ip.down = true;
        h.set_ip(sp.pkt, ip);
        h.send(sp.pkt, 0.0);
    }

    /// `handleFlowForwarding(p)`: a packet with a flow header.
    fn flow_header_forward(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>) {
        let mut sr = h.sr(sp.pkt);
        let ip = h.ip(sp.pkt);
        let idx = self.flows.find(sp.src, sp.dest, sr.flow_id);
        if sr.num_addrs > 0 {
            if idx.is_none() {
                let i = self.flows.create(sp.src, sp.dest, sr.flow_id).expect("a new flow");
                let now = h.now();
                let f = self.flows.get_mut(i);
                f.timeout = now + sr.timeout as f64;
                f.hop_count = sr.hop_count;
                f.expected_ttl = ip.ttl;
                f.route = Route::of(sp.route.slice());
                f.next_hop = sr.addrs[sr.cur_addr + 1];
                f.count = 0;
                f.allow_default = false;
            }
            sr.hop_count += 1;
            h.set_sr(sp.pkt, sr);
            return;
        }
        let Some(i) = idx else {
            return self.send_unknown_flow(h, sp, false, sr.flow_id);
        };
        sr.hop_count += 1;
        h.set_sr(sp.pkt, sr);
        self.flow_forward(h, sp, i);
    }

    fn handle_forwarding(&mut self, h: &mut impl Host<P>, mut sp: SrPacket<P>) {
        let sr = h.sr(sp.pkt);
        let flow_only = sr.num_addrs == 0;
        if sr.flow_header {
            self.flow_header_forward(h, sp);
        } else if flow_only {
            self.handle_default_forwarding(h, sp);
        }
        if flow_only {
            return;
        }
        if sp.route.cur >= sp.route.len {
            // (ns-2's format ends in a newline of its own)
            h.note(Note::Dfu("SDFU:  ran off the end of a source route\n"));
            h.drop(sp.pkt, Drop::Loop);
            return;
        }
        self.cache.notice_route_used(sp.route.slice(), sp.route.cur);
        let sr = h.sr(sp.pkt);
        let mut ip = h.ip(sp.pkt);
        ip.size -= sr.size() as i32;
        let ttl = ip.ttl;
        ip.ttl -= 1;
        h.set_ip(sp.pkt, ip);
        if ttl == 0 {
            h.drop(sp.pkt, Drop::Ttl);
            return;
        }
        sp.route = Path::from_sr(&sr);
        self.send_out(h, sp, false, 0.0);
    }

    fn ignore_request(&self, sp: &SrPacket<P>, sr: &SrHeader) -> bool {
        self.requests.get(sp.src) >= sr.req_id || sp.route.member(self.me) || sp.route.full()
    }

    fn handle_route_request(&mut self, h: &mut impl Host<P>, mut sp: SrPacket<P>) {
        let sr = h.sr(sp.pkt);
        if self.ignore_request(&sp, &sr) {
            h.free(sp.pkt);
            return;
        }
        self.requests.insert(sp.src, sr.req_id);
        if self.reply_from_cache(h, &sp) {
            return;
        }
        if sp.route.len as i32 > sr.max_prop || sp.route.full() {
            h.free(sp.pkt);
            return;
        }
        sp.route.push(self.me);
        self.send_out(h, sp, false, 0.0);
    }

    /// `replyFromRouteCache`: true when it answered (and took the packet).
    fn reply_from_cache(&mut self, h: &mut impl Host<P>, sp: &SrPacket<P>) -> bool {
        let Some(rest) = self.cache.find_route(sp.dest, false) else { return false };
        if rest.len() + sp.route.len > MAX_SR_LEN {
            return false;
        }
        let mut complete = sp.route;
        complete.append(&Path::of(rest.as_slice()));
        compress(&mut complete);
        if !complete.member(self.me) {
            return false;
        }
        let mut sr = h.sr(sp.pkt);
        let ip = h.ip(sp.pkt);
        let seq = sr.req_id;
        let carries = !ip.dsr || sr.reply || (sr.error && sr.errors[sr.num_errors - 1].tell != 0);
        if carries {
            sr.request = false;
            h.set_sr(sp.pkt, sr);
            let mut copy = *sp;
            copy.route = complete;
            copy.route.cur = sp.route.len;
            self.send_out(h, copy, false, 0.0);
        } else {
            h.free(sp.pkt);
        }
        let mut route = sp.route;
        route.push(self.me);
        route.reverse();
        self.cache.add_route(route.slice());
        let q = h.new_packet();
        let mut qi = h.ip(q);
        qi.src = self.me;
        qi.sport = PORT;
        qi.dst = sp.src;
        qi.dport = PORT;
        qi.ttl = 255;
        qi.dsr = true;
        qi.size = IP_HDR_LEN;
        h.set_ip(q, qi);
        let mut rs = SrHeader::default();
        rs.init();
        rs.reply_addrs[..complete.len].copy_from_slice(complete.slice());
        rs.reply_len = complete.len;
        rs.reply = true;
        rs.req_id = seq;
        h.set_sr(q, rs);
        self.send_out(h, SrPacket { pkt: q, src: self.me, dest: sp.src, route }, true, 0.0);
        true
    }

    /// `sendOutPacketWithRoute`.
    fn send_out(&mut self, h: &mut impl Host<P>, mut sp: SrPacket<P>, fresh: bool, delay: f64) {
        if sp.dest == self.me {
            self.recv(h, sp.pkt);
            return;
        }
        let mut sr = h.sr(sp.pkt);
        let mut ip = h.ip(sp.pkt);
        if fresh {
            sp.route.cur = 0;
        }
        sp.route.fill_sr(&mut sr);
        ip.down = true;
        if sp.src == self.me && !sr.request && sr.cur_addr == 0 && !sr.error && !sr.reply {
            let now = h.now();
            if let Some(fid) = self.flows.default_flow(sp.src, sp.dest) {
                if let Some(i) = self.flows.find(sp.src, sp.dest, fid) {
                    let f = self.flows.get(i);
                    if f.timeout >= now && f.route.len() <= sp.route.len && f.route.as_slice() != sp.route.slice() {
                        sp.route = Path::of(f.route.as_slice());
                        sp.route.fill_sr(&mut sr);
                    }
                }
            }
            let i = match self.flows.find_route(sp.src, sp.dest, sp.route.slice()) {
                Some(i) if self.flows.get(i).timeout >= now => {
                    let f = self.flows.get_mut(i);
                    if f.count <= END_TO_END_COUNT || f.last_adv < now - MIN_ADV_INTERVAL {
                        if f.expected_ttl != ip.ttl {
                            f.allow_default = false;
                        }
                        f.count += 1;
                        f.last_adv = now;
                        sr.flow_timeout = true;
                        sr.timeout = DEFAULT_FLOW_TIMEOUT;
                        sr.cur_addr += 1;
                    } else {
                        sr.flow_timeout = false;
                        sr.cur_addr = 0;
                        sr.num_addrs = 0;
                    }
                    i
                }
                _ => {
                    let id = self.flows.next_id(true);
                    let i = self.flows.create(sp.src, sp.dest, id).expect("a new flow");
                    let f = self.flows.get_mut(i);
                    f.count = 1;
                    f.last_adv = now;
                    f.timeout = now + DEFAULT_FLOW_TIMEOUT as f64;
                    f.hop_count = 0;
                    f.expected_ttl = ip.ttl;
                    f.allow_default = true;
                    f.route = Route::of(sp.route.slice());
                    f.next_hop = sr.addrs[sr.cur_addr + 1];
                    sr.flow_timeout = true;
                    sr.timeout = DEFAULT_FLOW_TIMEOUT;
                    sr.cur_addr += 1;
                    i
                }
            };
            let f = self.flows.get_mut(i);
            f.timeout = now + DEFAULT_FLOW_TIMEOUT as f64;
            let f = *f;
            ip.next_hop = f.next_hop;
            ip.next_hop_set = true;
            ip.link = false;
            let default = self.flows.default_flow(sp.src, sp.dest);
            if !(default == Some(f.id) && sr.num_addrs == 0 && ip.ttl == f.expected_ttl && f.allow_default) {
                sr.flow_header = true;
                sr.flow_id = f.id;
                sr.hop_count = 1;
            }
            let route = if sr.num_addrs > 0 {
                let mut r = Path::of(sr.route());
                r.cur = sr.cur_addr;
                Some(r)
            } else {
                None
            };
            h.note(Note::FlowSend { uid: ip.uid, src: sp.src, dst: sp.dest, flow: f.id as i32, flow_header: sr.flow_header as i32, next_hop: f.next_hop, route });
            ip.size += sr.size() as i32;
            ip.callback = if sr.num_addrs > 0 { Callback::Route } else { Callback::Flow };
        } else {
            ip.size += sr.size() as i32;
            if sr.request {
                ip.callback = Callback::None;
                ip.next_hop = BROADCAST;
                ip.next_hop_set = true;
                ip.link = true;
            } else {
                ip.callback = Callback::Route;
                ip.next_hop = sr.addrs[sr.cur_addr + 1];
                ip.next_hop_set = true;
                ip.link = false;
                sr.cur_addr += 1;
            }
        }
        h.set_sr(sp.pkt, sr);
        h.set_ip(sp.pkt, ip);
        if sr.request {
            let d = h.uniform(RREQ_JITTER) + delay;
            h.send(sp.pkt, d);
        } else {
            h.send(sp.pkt, delay);
        }
    }

    /// `getRouteForPacket`; true when the packet was taken.
    fn get_route_for_packet(&mut self, h: &mut impl Host<P>, sp: SrPacket<P>, retry: bool) -> bool {
        let now = h.now();
        let q = h.new_packet();
        let mut qi = h.ip(q);
        qi.src = self.me;
        qi.sport = PORT;
        qi.dst = sp.dest;
        qi.dport = PORT;
        qi.dsr = true;
        qi.size = IP_HDR_LEN;
        qi.forwards = 0;
        h.set_ip(q, qi);
        let mut rs = SrHeader::default();
        rs.init();
        h.set_sr(q, rs);
        let rrp = SrPacket { pkt: q, src: self.me, dest: sp.dest, route: Path::default() };
        let e = self.requests.entry(sp.dest);
        if back_off_allows(e, now) {
            if sp.src != self.me && e.outstanding > SALVAGE_MAX_REQUESTS {
                h.drop(sp.pkt, Drop::NoRoute);
                h.free(q);
                return true;
            }
            e.last_type = LastType::Limit0;
            e.last_arp = now;
            self.send_out_request(h, rrp, 0);
        } else if e.last_type == LastType::Limit0 && sp.src == self.me && now - e.last_arp > ARP_TIMEOUT {
            e.last_type = LastType::Unlimited;
            self.send_out_request(h, rrp, MAX_SR_LEN as i32);
        } else {
            h.free(q);
        }
        if !retry {
            self.stick(h, sp);
            return true;
        }
        false
    }

    fn send_out_request(&mut self, h: &mut impl Host<P>, mut rrp: SrPacket<P>, max_prop: i32) {
        let mut sr = h.sr(rrp.pkt);
        sr.request = true;
        sr.req_id = self.req_num;
        self.req_num += 1;
        sr.max_prop = max_prop;
        rrp.route = Path::default();
        rrp.route.push(self.me);
        if self.error_held && h.now() - self.err_time < MAX_ERR_HOLD {
            assert!(sr.num_errors < MAX_ROUTE_ERRORS);
            sr.error = true;
            sr.errors[sr.num_errors] = LinkDown { tell: 0, from: self.err_from, to: self.err_to };
            sr.num_errors += 1;
            if max_prop > 0 {
                self.error_held = false;
            }
        }
        h.set_sr(rrp.pkt, sr);
        self.send_out(h, rrp, false, 0.0);
    }

    /// `returnSrcRouteToRequestor`: the target's reply.
    fn return_src_route(&mut self, h: &mut impl Host<P>, sp: &SrPacket<P>) {
        if sp.route.full() {
            return;
        }
        let old = h.sr(sp.pkt);
        let q = h.new_packet();
        let mut route = sp.route;
        route.push(self.me);
        let mut qi = h.ip(q);
        qi.dst = sp.src;
        qi.dport = PORT;
        qi.src = self.me;
        qi.sport = PORT;
        qi.ttl = 255;
        qi.dsr = true;
        qi.size = IP_HDR_LEN;
        let mut rs = SrHeader::default();
        rs.init();
        rs.reply_addrs[..route.len].copy_from_slice(route.slice());
        rs.reply_len = route.len;
        rs.reply = true;
        rs.req_id = old.req_id;
        route.reverse();
        self.cache.add_route(route.slice());
        route.cur = 0;
        route.fill_sr(&mut rs);
        qi.size += rs.size() as i32;
        h.set_sr(q, rs);
        h.set_ip(q, qi);
        let d = h.uniform(RREQ_JITTER);
        h.to_self(q, d);
    }

    fn accept_route_reply(&mut self, h: &mut impl Host<P>, sp: &SrPacket<P>) {
        let sr = h.sr(sp.pkt);
        let reply = &sr.reply_addrs[..sr.reply_len];
        self.cache.add_route(reply);
        route_found(&mut self.requests, reply[reply.len() - 1]);
        let mut delay = 0.0;
        for c in 0..SEND_BUF_SIZE {
            let Some((mut b, _)) = self.buffer.get(c) else { continue };
            if let Some(r) = self.cache.find_route(b.dest, true) {
                b.route = Path::of(r.as_slice());
                self.buffer.take(c);
                self.send_out(h, b, true, delay);
                delay += ARP_TIMEOUT;
            }
        }
    }

    fn process_broken_route_error(&mut self, h: &mut impl Host<P>, sp: &SrPacket<P>) {
        let sr = h.sr(sp.pkt);
        if !sr.error {
            return;
        }
        let now = h.now();
        for e in &sr.errors[..sr.num_errors] {
            self.cache.dead_link(e.from, e.to);
            self.flows.dead_link(self.me, e.from, e.to, now);
        }
        let last = sr.errors[sr.num_errors - 1];
        if last.tell != self.me {
            return;
        }
        self.error_held = true;
        self.err_from = last.from;
        self.err_to = last.to;
        self.err_time = now;
        if sr.num_errors == 1 {
            return;
        }
        let q = h.copy(sp.pkt);
        let mut s2 = sr;
        s2.num_errors -= 1;
        let dest = s2.errors[s2.num_errors - 1].tell;
        let mut qi = h.ip(q);
        qi.dst = dest;
        qi.dport = PORT;
        qi.src = self.me;
        qi.sport = PORT;
        qi.ttl = 255;
        s2.flow_header = false;
        s2.flow_timeout = false;
        h.set_sr(q, s2);
        h.set_ip(q, qi);
        self.handle_without_sr(h, SrPacket { pkt: q, src: self.me, dest, route: sp.route }, false);
    }

    /// The MAC's tap: a data frame the radio heard whole, whoever it was
    /// for (the packet is not to be changed).
    pub fn tap(&mut self, h: &mut impl Host<P>, p: P) {
        let sr = h.sr(p);
        if !sr.valid || sr.num_addrs == 0 {
            // (flow state's route shortening keeps a table no 2.35 path
            // reads back to any effect: handleFlowForwarding)
            return;
        }
        let next = sr.addrs[sr.cur_addr];
        if next == self.me {
            return;
        }
        let ip = h.ip(p);
        let mut sp = SrPacket { pkt: p, src: ip.src, dest: ip.dst, route: Path::from_sr(&sr) };
        if sp.src == self.me {
            return;
        }
        let k = (ip.uid as usize) & (TAP_CACHE - 1);
        if self.tap_uids[k] == ip.uid {
            return;
        }
        self.tap_uids[k] = ip.uid;
        if sr.error {
            self.process_broken_route_error(h, &sp);
        }
        if sr.reply {
            self.cache.notice_route_used(&sr.reply_addrs[..sr.reply_len], 0);
        }
        if sr.request {
            return;
        }
        self.cache.notice_route_used(sp.route.slice(), sp.route.cur);
        if ip.dsr {
            return;
        }
        if sp.route.addrs[sp.route.cur] != self.me {
            let mut i = sp.route.cur + 1;
            while i < sp.route.len {
                if sp.route.addrs[i] == self.me {
                    let at = sp.route.cur;
                    self.send_route_shortening(h, &mut sp, at, i);
                }
                i += 1;
            }
        }
    }

    /// `sendRouteShortening`: a gratuitous reply to the packet's source.
    fn send_route_shortening(&mut self, h: &mut impl Host<P>, sp: &mut SrPacket<P>, heard_at: usize, xmit_at: usize) {
        let now = h.now();
        let g = match self.grat.iter().position(|(_, r)| r.same(&sp.route)) {
            None => {
                self.grat[self.grat_victim].1 = sp.route;
                self.grat_victim = (self.grat_victim + 1) % HOLD_SIZE;
                // (ns-2 then stamps the next place, not the one it filled)
                self.grat_victim
            }
            Some(i) => {
                if now - self.grat[i].0 < GRAT_HOLD_DOWN {
                    return;
                }
                i
            }
        };
        self.grat[g].0 = now;
        let q = h.new_packet();
        let dest = sp.route.addrs[0];
        let mut back = sp.route;
        back.addrs[back.cur] = self.me;
        back.reverse();
        let c = back.cur;
        back.remove_section(0, c);
        let mut qi = h.ip(q);
        qi.dst = dest;
        qi.dport = PORT;
        qi.src = self.me;
        qi.sport = PORT;
        qi.ttl = 255;
        sp.route.remove_section(heard_at, xmit_at);
        let mut rs = SrHeader::default();
        rs.init();
        rs.reply_addrs[..sp.route.len].copy_from_slice(sp.route.slice());
        rs.reply_len = sp.route.len;
        rs.reply = true;
        rs.req_id = 0;
        qi.dsr = true;
        qi.size += IP_HDR_LEN;
        h.set_sr(q, rs);
        h.set_ip(q, qi);
        self.cache.add_route(back.slice());
        self.send_out(h, SrPacket { pkt: q, src: self.me, dest, route: back }, true, 0.0);
    }

    /// `undeliverablePkt`: a packet this node could not send on.
    fn undeliverable(&mut self, h: &mut impl Host<P>, p: P, mine: bool) {
        let ip0 = h.ip(p);
        let sr0 = h.sr(p);
        let mut sp = SrPacket { pkt: p, src: ip0.src, dest: ip0.dst, route: Path::from_sr(&sr0) };
        sp.pkt = if mine { p } else { h.copy(p) };
        let mut sr = h.sr(sp.pkt);
        let mut ip = h.ip(sp.pkt);
        ip.size -= sr.size() as i32;
        sr.flow_timeout = false;
        sr.flow_header = false;
        ip.size += sr.size() as i32;
        if ip.src == self.me {
            ip.size -= sr.size() as i32;
            h.set_sr(sp.pkt, sr);
            h.set_ip(sp.pkt, ip);
            self.handle_without_sr(h, sp, false);
            return;
        }
        if sr.salvaged >= SALVAGE_MAX_ATTEMPTS {
            h.set_sr(sp.pkt, sr);
            h.set_ip(sp.pkt, ip);
            h.drop(sp.pkt, Drop::Salvage);
            return;
        }
        match self.cache.find_route(sp.dest, false) {
            Some(r) => {
                sp.route = Path::of(r.as_slice());
                if sr.reply {
                    let to = sr.addrs[sr.cur_addr + 1];
                    let ra = &sr.reply_addrs[..sr.reply_len];
                    let bad = ra.windows(2).any(|w| (w[0] == self.me && w[1] == to) || (w[0] == to && w[1] == self.me));
                    if bad {
                        sr.reply = false;
                        if ip.dsr && !sr.request && !sr.error {
                            h.set_sr(sp.pkt, sr);
                            h.set_ip(sp.pkt, ip);
                            if mine {
                                h.drop(sp.pkt, Drop::Callback);
                            } else {
                                h.free(sp.pkt);
                            }
                            return;
                        }
                    }
                }
                h.note(Note::Salvaging { src: sp.src, dst: sp.dest, uid: ip.uid, route: sp.route });
                ip.size -= sr.size() as i32;
                sr.salvaged += 1;
                h.set_sr(sp.pkt, sr);
                h.set_ip(sp.pkt, ip);
                self.send_out(h, sp, false, 0.0);
            }
            None => {
                h.note(Note::SalvageToBuffer { uid: ip.uid, src: sp.src, dst: sp.dest, salvaged: sr.salvaged });
                h.set_sr(sp.pkt, sr);
                h.set_ip(sp.pkt, ip);
                self.stick(h, sp);
            }
        }
    }

    /// The link layer gave up on `p` (its call-back).
    pub fn failed(&mut self, h: &mut impl Host<P>, p: P) {
        match h.ip(p).callback {
            Callback::Flow => self.xmit_flow_failed(h, p),
            _ => self.xmit_failed(h, p),
        }
    }

    fn xmit_flow_failed(&mut self, h: &mut impl Host<P>, p: P) {
        let mut sr = h.sr(p);
        let mut ip = h.ip(p);
        let mut idx = self.flows.find(ip.src, ip.dst, sr.flow_id);
        if !sr.flow_header {
            match self.flows.default_flow(ip.src, ip.dst) {
                None => {
                    let sp = SrPacket { pkt: p, src: ip.src, dest: ip.dst, route: Path::from_sr(&sr) };
                    return self.send_unknown_flow(h, sp, true, 0);
                }
                Some(d) => idx = self.flows.find(ip.src, ip.dst, d),
            }
        }
        let now = h.now();
        let Some(i) = idx.filter(|&i| self.flows.get(i).timeout >= now) else {
            // (ns-2 forgets the packet)
            h.free(p);
            return;
        };
        let f = *self.flows.get(i);
        ip.size -= sr.size() as i32;
        Path::of(f.route.as_slice()).fill_sr(&mut sr);
        sr.cur_addr = f.hop_count as usize;
        ip.size += sr.size() as i32;
        sr.cur_addr += 1;
        h.set_sr(p, sr);
        h.set_ip(p, ip);
        self.xmit_failed(h, p);
    }

    fn xmit_failed(&mut self, h: &mut impl Host<P>, p: P) {
        let mut sr = h.sr(p);
        let mut ip = h.ip(p);
        let cur = sr.cur_addr as i32 - 1;
        if cur >= sr.num_addrs as i32 - 1 {
            h.note(Note::Dfu("SDFU: route error beyond end of source route????"));
            h.free(p);
            return;
        }
        if sr.request {
            h.note(Note::Dfu("SDFU: route error forwarding route request????"));
            h.free(p);
            return;
        }
        let cur = cur as usize;
        sr.cur_addr = cur;
        let (tell, from, to) = (sr.addrs[0], sr.addrs[cur], sr.addrs[cur + 1]);
        let mut route = Path::of(sr.route());
        route.cur = cur;
        let hops = [h.hops(from, to), h.hops(ip.src, ip.dst), h.hops(from, ip.dst)];
        h.note(Note::SendFailure { uid: ip.uid, ptype: ip.ptype, src: ip.src, sport: ip.sport, dst: ip.dst, dport: ip.dport, from, to, hops, route });
        self.cache.dead_link(from, to);
        let now = h.now();
        self.flows.dead_link(self.me, from, to, now);
        h.set_sr(p, sr);
        let c = h.copy(p);
        self.undeliverable(h, c, true);
        let mut queued = Vec::new();
        loop {
            match h.take_queued(to) {
                Ok(Some(r)) => queued.push(r),
                Ok(None) => break,
                Err(e) => {
                    h.unbuilt(e);
                    break;
                }
            }
        }
        for r in queued {
            self.undeliverable(h, r, true);
        }
        if tell == self.me {
            h.free(p);
            return;
        }
        if sr.num_errors >= MAX_ROUTE_ERRORS {
            h.note(Note::ErrorDumped { tell, from, to });
            h.free(p);
            return;
        }
        sr.errors[sr.num_errors] = LinkDown { tell, from, to };
        sr.num_errors += 1;
        sr.error = true;
        sr.reply = false;
        sr.request = false;
        sr.flow_header = false;
        sr.flow_timeout = false;
        self.own_header(h, &mut ip, tell);
        h.set_sr(p, sr);
        h.set_ip(p, ip);
        let mut sp = SrPacket { pkt: p, src: self.me, dest: tell, route: Path::from_sr(&sr) };
        sp.route.len = sp.route.cur + 1;
        sp.route.reverse();
        self.send_out(h, sp, true, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_reverse_compress_and_cut_as_ns2s() {
        let mut p = Path::of(&[0, 1, 2, 3]);
        p.cur = 1;
        p.reverse();
        assert_eq!(p.slice(), &[3, 2, 1, 0]);
        assert_eq!(p.cur, 2);
        let mut q = Path::of(&[0, 1, 2, 1, 4]);
        compress(&mut q);
        assert_eq!(q.slice(), &[0, 1, 4]);
        let mut r = Path::of(&[5, 6, 7, 8, 9]);
        r.cur = 3;
        r.remove_section(1, 3);
        assert_eq!(r.slice(), &[5, 8, 9]);
        assert_eq!(r.cur, 1);
    }
}
