//! Agents: the endpoints that create and consume packets (common/agent.cc).

use crate::notice::Notice;
use crate::packet::{PacketType, PktId};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::sink::Sink;
use crate::tcp::Tcp;

/// State every agent has (ns-2 `Agent`).
#[derive(Clone, Debug)]
pub struct AgentBase {
    /// The agent's own id (notices name it).
    pub id: ObjId,
    pub addr: i32,
    pub port: i32,
    pub dst_addr: i32,
    pub dst_port: i32,
    pub fid: i32,
    pub prio: i32,
    pub flags: i32,
    /// `ttl_` (ns-2's `defttl_`).
    pub ttl: i32,
    /// `packetSize_`.
    pub size: i32,
    pub ptype: PacketType,
    pub target: ObjId,
    pub drop_target: ObjId,
    /// Channel for variable traces (`$agent attach $f`).
    pub channel: Option<u32>,
    pub app: ObjId,
    pub debug: bool,
}

impl AgentBase {
    pub fn new(id: ObjId, ptype: PacketType) -> AgentBase {
        AgentBase {
            id,
            addr: -1,
            port: -1,
            dst_addr: -1,
            dst_port: -1,
            fid: 0,
            prio: 0,
            flags: 0,
            ttl: 32,
            size: 0,
            ptype,
            target: NONE,
            drop_target: NONE,
            channel: None,
            app: NONE,
            debug: false,
        }
    }

    /// `Agent::allocpkt`: a new packet with the generic fields filled in and
    /// every other header zeroed, as `Packet::alloc` + `initpkt` do.
    #[inline]
    pub fn allocpkt(&self, sim: &mut Sim) -> PktId {
        // (a stop due while one event sends without end: sim.rs)
        sim.w.out.look_mid_event();
        let id = sim.w.pool.alloc();
        self.initpkt(sim, id);
        id
    }

    /// The `initpkt` half of `allocpkt`, on a packet the caller already
    /// holds: a sink turns the data packet it has finished with into its
    /// ACK this way instead of freeing one packet and allocating another
    /// (which slot a packet occupies is not observable; the new uid is
    /// drawn exactly as `allocpkt` draws it).
    #[inline]
    pub fn initpkt(&self, sim: &mut Sim, id: PktId) {
        let w = &mut sim.w;
        let uid = w.uidcnt;
        w.uidcnt = w.uidcnt.wrapping_add(1);
        let now = w.s.now;
        let p = w.pool.get_mut(id);
        p.uid = uid;
        p.ptype = self.ptype;
        p.size = self.size;
        p.timestamp = now;
        p.saddr = self.addr;
        p.sport = self.port;
        p.daddr = self.dst_addr;
        p.dport = self.dst_port;
        p.fid = self.fid;
        p.prio = self.prio;
        p.ttl = self.ttl;
        p.ecn = false;
        p.ecn_to_echo = false;
        p.eln = false;
        p.fs = false;
        p.no_ts = false;
        p.pri = false;
        p.ecn_capable = false;
        p.cong_action = false;
        p.qs = false;
        // (ns-2 zeroes every header: a trace shows a data packet's SACK
        // block count, 0, in a trace of TCP headers)
        p.sa_len = 0;
        p.seqno = 0;
        p.rtp = false;
        p.ts = 0.0;
        p.ts_echo = 0.0;
        p.reason = 0;
        p.last_rtt = 0;
        p.ackno = 0;
        p.tcp_flags = 0;
        p.hlen = 0;
    }

    /// `Agent::send`: hand a packet to the agent's target (the node entry).
    #[inline(always)]
    pub fn send(&self, sim: &mut Sim, p: PktId) {
        sim.agent_send(self.target, p);
    }

    /// `Agent::idle`: tell the application everything was sent (only if the
    /// script defined a `resume` method for it).
    pub fn idle(&self, sim: &mut Sim) {
        self.app_callback(sim, |app| Notice::AppResume { app }, |a| a.enable_resume);
    }

    /// `Agent::recvBytes`: bytes delivered in order to the application.
    /// Inlined: a sink calls it for nearly every packet, and nearly always
    /// has no application.
    #[inline(always)]
    pub fn recv_bytes(&self, sim: &mut Sim, nbytes: i32) {
        if self.app != NONE {
            self.recv_bytes_app(sim, nbytes);
        }
    }

    #[cold]
    #[inline(never)]
    fn recv_bytes_app(&self, sim: &mut Sim, nbytes: i32) {
        self.app_callback(sim, |app| Notice::AppRecv { app, bytes: nbytes }, |a| a.enable_recv);
    }

    fn app_callback(&self, sim: &mut Sim, notice: impl Fn(ObjId) -> Notice, enabled: impl Fn(&crate::objs::App) -> bool) {
        if self.app == NONE {
            return;
        }
        if let Obj::App(a) = &sim.objs[self.app as usize] {
            if enabled(a) {
                sim.w.notify(notice(self.app));
            }
        }
    }
}

/// The agent kinds the engine implements.
pub enum AgentKind {
    /// `Agent/Null`: frees what it receives.
    Null,
    /// The one-way TCP senders (Tahoe, Reno, NewReno).
    Tcp(Box<Tcp>),
    /// `Agent/TCPSink` and `/DelAck`.
    Sink(Box<Sink>),
    /// `Agent/UDP`.
    Udp(crate::udp::Udp),
    /// `Agent/LossMonitor`.
    LossMonitor(crate::udp::LossMonitor),
    /// `Agent/Ping`.
    Ping(crate::ping::Ping),
    /// `Agent/PBC` (wireless broadcasts).
    Pbc(Box<crate::pbc::Pbc>),
    /// Mobile IP's registration agents and tunnel end (wireless/mip_agent.rs).
    Mip(Box<crate::wireless::mip_agent::MipAgent>),
    /// A routing protocol's message agent (`rtmsg.rs`).
    RouteMsg,
    /// The TFRC sender.
    TfrcSender(Box<crate::tfrc::sender::Sender>),
    /// The TFRC receiver.
    TfrcReceiver(Box<crate::tfrc::receiver::Receiver>),
    /// An end of a full, two-way TCP connection (`socket/`).
    Socket(Box<crate::socket::Socket>),
    /// A Quick-Start router in front of its node (`quickstart.rs`).
    QsRouter(Box<crate::quickstart::Router>),
    /// A file-fetch client or server over the Bay TCP (`fetch.rs`): no
    /// node, called back by its TCP.
    Fetch(Box<crate::fetch::Fetch>),
}

pub struct Agent {
    pub base: AgentBase,
    pub kind: AgentKind,
}

impl Agent {
    /// ns-2's virtual `Agent::size()`: the packet size, but a two-way TCP
    /// agent's segment size (what an application like Telnet hands over
    /// per message).
    pub fn size(&self) -> i32 {
        match &self.kind {
            AgentKind::Tcp(t) => match &t.flavor {
                crate::tcp::Flavor::Full(f) => f.maxseg,
                _ => self.base.size,
            },
            _ => self.base.size,
        }
    }

    /// Receive a packet addressed to this agent.
    pub fn recv(&mut self, sim: &mut Sim, _id: ObjId, p: PktId) {
        match &mut self.kind {
            AgentKind::Null => {
                // `Agent::recv`: report the bytes to an application, free.
                let size = sim.w.pool.get(p).size;
                self.base.recv_bytes(sim, size);
                sim.w.pool.free(p);
            }
            AgentKind::Tcp(t) => t.recv(&mut self.base, sim, p),
            AgentKind::Sink(s) => s.recv(&mut self.base, sim, p),
            AgentKind::Udp(u) => u.recv(sim, p),
            AgentKind::LossMonitor(m) => m.recv(&self.base, sim, p),
            AgentKind::Ping(g) => g.recv(&self.base, sim, p),
            AgentKind::RouteMsg => crate::rtmsg::recv(&self.base, sim, p),
            AgentKind::TfrcSender(_) | AgentKind::TfrcReceiver(_) => self.recv_rate_controlled(sim, p),
            AgentKind::Socket(_) => self.recv_socket(sim, p),
            AgentKind::QsRouter(_) => self.recv_qs_router(sim, p),
            AgentKind::Fetch(_) | AgentKind::Pbc(_) => sim.w.pool.free(p),
            AgentKind::Mip(_) => self.recv_mip(sim, p),
        }
    }

    /// A Mobile IP agent's `recv`, out of line (an arm of its own in
    /// `recv` cost the TCP agents' path 0.26%: callgrind's grid).
    #[cold]
    #[inline(never)]
    fn recv_mip(&mut self, sim: &mut Sim, p: PktId) {
        if let AgentKind::Mip(m) = &mut self.kind {
            m.recv(&self.base, sim, p);
        }
    }

    /// A Quick-Start router's `recv`, out of line.
    #[cold]
    #[inline(never)]
    fn recv_qs_router(&mut self, sim: &mut Sim, p: PktId) {
        if let AgentKind::QsRouter(r) = &mut self.kind {
            sim.qs_router_recv(r, self.base.addr, p);
        }
    }

    /// The TFRC agents' `recv`, out of line: kept out of the per-packet
    /// path of the TCP agents (`Sim::agent_recv` inlines `recv`).
    #[cold]
    #[inline(never)]
    fn recv_rate_controlled(&mut self, sim: &mut Sim, p: PktId) {
        match &mut self.kind {
            AgentKind::TfrcSender(t) => t.recv(&self.base, sim, p),
            AgentKind::TfrcReceiver(r) => r.recv(&self.base, sim, p),
            _ => {}
        }
    }

    /// The full TCP's `recv`, out of line for the same reason.
    #[cold]
    #[inline(never)]
    fn recv_socket(&mut self, sim: &mut Sim, p: PktId) {
        if let AgentKind::Socket(s) = &mut self.kind {
            s.recv(&mut self.base, sim, p);
        }
    }

    /// A timer of this agent expired.
    pub fn timeout(&mut self, sim: &mut Sim, _id: ObjId, kind: u8) {
        match &mut self.kind {
            AgentKind::Null | AgentKind::Udp(_) | AgentKind::LossMonitor(_) | AgentKind::Ping(_) | AgentKind::RouteMsg | AgentKind::QsRouter(_) => {}
            AgentKind::Tcp(t) => t.timeout(&mut self.base, sim, kind),
            AgentKind::Sink(s) => s.timeout(&mut self.base, sim),
            AgentKind::TfrcSender(t) => t.timeout(&self.base, sim, kind),
            AgentKind::TfrcReceiver(r) => r.timeout(&self.base, sim),
            AgentKind::Socket(s) => s.timeout(&self.base, sim, kind),
            AgentKind::Fetch(f) => f.timeout(&self.base, sim),
            AgentKind::Pbc(g) => g.timeout(&self.base, sim),
            AgentKind::Mip(m) => m.timeout(&self.base, sim, kind),
        }
    }

    /// `$agent reset`.
    pub fn reset(&mut self, sim: &mut Sim, _id: ObjId) {
        match &mut self.kind {
            AgentKind::Null
            | AgentKind::Udp(_)
            | AgentKind::LossMonitor(_)
            | AgentKind::Ping(_)
            | AgentKind::RouteMsg
            | AgentKind::TfrcSender(_)
            | AgentKind::TfrcReceiver(_)
            | AgentKind::Socket(_)
            | AgentKind::QsRouter(_)
            | AgentKind::Fetch(_)
            | AgentKind::Pbc(_)
            | AgentKind::Mip(_) => {}
            AgentKind::Tcp(t) => t.reset(&mut self.base, sim),
            AgentKind::Sink(s) => s.reset(sim),
        }
    }
}
