//! Mobile IP's agents in a run: the rules of mip.rs on a node's packets,
//! timers and random draws.  A base station's registration agent and a
//! mobile host's sit at port 0 of their node (`REGAGENT_PORT`), the tunnel's
//! end at port 1 of a base station (`DECAP_PORT`); the tunnel's entry is a
//! check of the base station's bindings where its classifier would find a
//! route (net.rs `wireless_from_wired`).
//!
//! The rules work with the addresses a script sees (packed hierarchical
//! ones); packets carry node ids, translated at the edges.  The Mobile IP
//! header and a tunnelled packet's inner header travel beside the packet
//! (`WlHdr::mip`, `WlHdr::inner`).

use super::mip::{self, Dest, Ip, Message, Then, Timer};
use super::net::{WlHdr, NO_NEXT_HOP};
use crate::agent::{AgentBase, AgentKind};
use crate::packet::PktId;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};

/// Which agent, with its timers (the engine's timer handles).
#[derive(Clone, Debug)]
pub enum Role {
    /// A base station's agent: its advertisement timer, one expiry timer
    /// per binding (in the order of `Station::bindings`).
    Station { core: mip::Station, beacon: u32, expiries: Vec<u32> },
    /// A mobile host's agent: its registration and agent-list timers.
    Host { core: mip::Host, rtx: u32, list: u32 },
    /// The tunnel's end (`MIPDecapsulator`).
    Tunnel,
}

/// A Mobile IP agent and the node it is on (`NONE` until told).
#[derive(Clone, Debug)]
pub struct MipAgent {
    pub role: Role,
    pub node: ObjId,
}

/// Timer kinds: 0 the advertisement or registration timer, 1 the agent
/// list's, 2 and up a binding's expiry.
const BEACON: u8 = 0;
const LIST: u8 = 1;
const EXPIRY: u8 = 2;

impl MipAgent {
    pub fn station(sim: &mut Sim, id: ObjId) -> MipAgent {
        let beacon = sim.w.s.new_timer(id, BEACON);
        MipAgent { role: Role::Station { core: mip::Station::new(-1, -1, 0), beacon, expiries: Vec::new() }, node: NONE }
    }

    pub fn host(sim: &mut Sim, id: ObjId) -> MipAgent {
        let rtx = sim.w.s.new_timer(id, BEACON);
        let list = sim.w.s.new_timer(id, LIST);
        MipAgent { role: Role::Host { core: mip::Host::new(-1), rtx, list }, node: NONE }
    }

    pub fn tunnel() -> MipAgent {
        MipAgent { role: Role::Tunnel, node: NONE }
    }

    /// The agent's own addresses, now that it is attached (packed).
    fn place(&mut self, b: &AgentBase, sim: &Sim) {
        let addr = sim.w.routing.addr_out(b.addr);
        match &mut self.role {
            Role::Station { core, .. } => {
                core.node = addr;
                core.addr = addr;
                core.port = b.port;
            }
            Role::Host { core, .. } => core.node = addr,
            Role::Tunnel => {}
        }
    }

    /// `beacon-period P`.
    pub fn set_beacon(&mut self, b: &AgentBase, sim: &mut Sim, period: f64) {
        let id = b.id;
        match &mut self.role {
            Role::Station { core, beacon, expiries } => {
                let mut env = Env { sim, b, id, node: self.node, beacon: *beacon, list: NONE, expiries, bindings: &core.bindings.clone() };
                core.set_beacon(&mut env, period);
            }
            Role::Host { core, rtx, list } => {
                let mut env = Env { sim, b, id, node: self.node, beacon: *rtx, list: *list, expiries: &mut Vec::new(), bindings: &[] };
                core.set_beacon(&mut env, period);
            }
            Role::Tunnel => {}
        }
    }

    /// The host's home agent (`home_agent_`, packed).
    pub fn home_agent(&self) -> i32 {
        match &self.role {
            Role::Host { core, .. } => core.home_agent,
            _ => 0,
        }
    }

    pub fn set_home_agent(&mut self, v: i32) {
        if let Role::Host { core, .. } = &mut self.role {
            core.home_agent = v;
        }
    }

    /// A timer of the agent.
    pub fn timeout(&mut self, b: &AgentBase, sim: &mut Sim, kind: u8) {
        let id = b.id;
        self.place(b, sim);
        match &mut self.role {
            Role::Station { core, beacon, expiries } => {
                let bindings = core.bindings.clone();
                let mut env = Env { sim, b, id, node: self.node, beacon: *beacon, list: NONE, expiries, bindings: &bindings };
                if kind == BEACON {
                    core.beacon_timeout(&mut env);
                } else if let Some(bd) = bindings.get((kind - EXPIRY) as usize) {
                    core.binding_timeout(&mut env, bd.home, bd.gen);
                }
            }
            Role::Host { core, rtx, list } => {
                let mut env = Env { sim, b, id, node: self.node, beacon: *rtx, list: *list, expiries: &mut Vec::new(), bindings: &[] };
                if kind == BEACON {
                    core.beacon_timeout(&mut env);
                } else {
                    core.list_timeout(&mut env);
                }
            }
            Role::Tunnel => {}
        }
    }

    /// A packet for the agent.
    pub fn recv(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        let id = b.id;
        self.place(b, sim);
        let node = self.node;
        let uid = sim.w.pool.get(p).uid;
        let h = sim.w.pool.wl_hdr(p);
        match &mut self.role {
            Role::Tunnel => {
                let Some(inner) = h.inner else { return sim.w.pool.free(p) };
                let open = station_of(sim, node).is_some_and(|s| s.decap_open);
                let mut ip = Ip { src: 0, sport: 0, dst: 0, dport: 0, ttl: 0 };
                let mut size = sim.w.pool.get(p).size;
                let ok = mip::decapsulate(&mut ip, &mut size, inner, open);
                if !ok {
                    return sim.w.pool.free(p);
                }
                let pk = sim.w.pool.get_mut(p);
                (pk.saddr, pk.sport, pk.daddr, pk.dport, pk.ttl, pk.size) = (ip.src, ip.sport, ip.dst, ip.dport, ip.ttl, size);
                sim.w.pool.wl_hdr_mut(p).inner = None;
                sim.wireless_to_routing(node, p);
            }
            Role::Host { core, rtx, list } => {
                let m = h.mip;
                if let Some(m) = m {
                    let mut env = Env { sim, b, id, node, beacon: *rtx, list: *list, expiries: &mut Vec::new(), bindings: &[] };
                    core.recv(&mut env, &m);
                }
                sim.w.pool.free(p);
            }
            Role::Station { core, beacon, expiries } => {
                if h.agent_traced != Some(uid) {
                    // (from the wire: ns-2's entry passes it to the port
                    // demultiplexer through the agent's receive trace)
                    if h.wired_uid != Some(uid) {
                        *sim.w.pool.wl_hdr_mut(p) = WlHdr { next_hop: NO_NEXT_HOP, ..WlHdr::default() };
                    }
                    if !sim.wireless_agent_recv_trace(node, p) {
                        return sim.w.pool.free(p);
                    }
                }
                let Some(mut m) = sim.w.pool.wl_hdr(p).mip else { return sim.w.pool.free(p) };
                let r = &sim.w.routing;
                let pk = sim.w.pool.get(p);
                let mut ip = Ip { src: r.addr_out(pk.saddr), sport: pk.sport, dst: r.addr_out(pk.daddr), dport: pk.dport, ttl: pk.ttl };
                let bindings = core.bindings.clone();
                let then = {
                    let mut env = Env { sim, b, id, node, beacon: *beacon, list: NONE, expiries, bindings: &bindings };
                    core.recv(&mut env, &mut m, &mut ip)
                };
                // (a binding made now gets its timer: see Env::resched)
                let r = &sim.w.routing;
                let (src, dst) = (r.addr_in(ip.src), r.addr_in(ip.dst));
                let pk = sim.w.pool.get_mut(p);
                (pk.saddr, pk.sport, pk.daddr, pk.dport, pk.ttl) = (src, ip.sport, dst, ip.dport, ip.ttl);
                let h = sim.w.pool.wl_hdr_mut(p);
                h.mip = Some(m);
                // (traced in here; where it goes next traces it again)
                h.agent_traced = None;
                match then {
                    Then::Send => {
                        h.forwards = 0;
                        h.keep = true;
                        b.send(sim, p);
                    }
                    Then::ToRouting => sim.wireless_to_routing(node, p),
                    Then::Free => sim.w.pool.free(p),
                }
            }
        }
    }
}

/// The station agent at port 0 of `node`, if there is one (and it is not
/// running).
fn station_of(sim: &Sim, node: ObjId) -> Option<&mip::Station> {
    let Some(Obj::Node(n)) = sim.objs.get(node as usize) else { return None };
    let a = n.port_target(mip::AGENT_PORT)?;
    match sim.objs.get(a as usize) {
        Some(Obj::Agent(a)) => match &a.kind {
            AgentKind::Mip(m) => match &m.role {
                Role::Station { core, .. } => Some(core),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The tunnel's entry at base station `node`: a packet for a host its
/// agent has registered away goes into the tunnel (its header inside,
/// one from the station's tunnel port to the care-of address outside)
/// and back to the node's entry.  `false`: not for the tunnel.
pub fn tunnel(sim: &mut Sim, node: ObjId, p: PktId) -> bool {
    let Some(s) = station_of(sim, node) else { return false };
    let r = &sim.w.routing;
    let pk = sim.w.pool.get(p);
    let Some(exit) = s.tunnel_exit(r.addr_out(pk.daddr)) else { return false };
    // (mobilenode's encapsulator: the station's address with its domain
    // cleared, port 1)
    let Some(h) = r.hier.as_deref() else { return false };
    let (shift, mask) = h.fields[0];
    let here = r.addr_in(s.node & !(mask << shift));
    let mut ip = Ip { src: pk.saddr, sport: pk.sport, dst: pk.daddr, dport: pk.dport, ttl: pk.ttl };
    let mut size = pk.size;
    let uid = pk.uid;
    let exit = r.addr_in(exit);
    match mip::encapsulate(&mut ip, &mut size, (here, mip::TUNNEL_PORT), exit, 32) {
        None => sim.w.pool.free(p),
        Some(inner) => {
            let pk = sim.w.pool.get_mut(p);
            (pk.saddr, pk.sport, pk.daddr, pk.dport, pk.ttl, pk.size) = (ip.src, ip.sport, ip.dst, ip.dport, ip.ttl, size);
            let h = sim.w.pool.wl_hdr_mut(p);
            // (a Mobile IP message keeps its header through the tunnel: a
            // foreign agent's advertisement to a host registered with it
            // crosses to the home agent and back; the rest of the headers
            // start clear, as a wired agent's packet's)
            let mip = if h.wired_uid == Some(uid) { h.mip } else { None };
            *h = WlHdr { next_hop: NO_NEXT_HOP, inner: Some(inner), wired_uid: Some(uid), mip, ..WlHdr::default() };
            sim.recv(node, p, None);
        }
    }
    true
}

/// The node's side of an agent, for the rules.
struct Env<'a> {
    sim: &'a mut Sim,
    b: &'a AgentBase,
    id: ObjId,
    node: ObjId,
    beacon: u32,
    list: u32,
    expiries: &'a mut Vec<u32>,
    bindings: &'a [mip::Binding],
}

impl Env<'_> {
    fn timer(&mut self, t: Timer) -> u32 {
        match t {
            Timer::Beacon => self.beacon,
            Timer::AgentList => self.list,
            Timer::Binding { home, .. } => {
                // (a binding's place in the station's list, which only
                // grows: its timer, made when first needed)
                let i = self.bindings.iter().position(|b| b.home == home).unwrap_or(self.bindings.len());
                while self.expiries.len() <= i {
                    let k = EXPIRY as usize + self.expiries.len();
                    let t = self.sim.w.s.new_timer(self.id, k.min(255) as u8);
                    self.expiries.push(t);
                }
                self.expiries[i]
            }
        }
    }
}

impl mip::Env for Env<'_> {
    fn now(&self) -> f64 {
        self.sim.w.now()
    }

    fn uniform(&mut self, max: f64) -> f64 {
        self.sim.w.rng.default_stream().uniform_range(0.0, max)
    }

    fn resched(&mut self, t: Timer, delay: f64) {
        let h = self.timer(t);
        self.sim.w.s.timer_resched(h, delay);
    }

    fn cancel(&mut self, t: Timer) {
        let h = self.timer(t);
        self.sim.w.s.timer_cancel(h);
    }

    fn send(&mut self, m: Message, to: Dest) {
        let p = self.b.allocpkt(self.sim);
        let (dst, next_hop) = match to {
            Dest::Broadcast => (mip::BROADCAST, mip::BROADCAST),
            Dest::To(a) => (self.sim.w.routing.addr_in(a), NO_NEXT_HOP),
        };
        let pk = self.sim.w.pool.get_mut(p);
        pk.daddr = dst;
        pk.dport = mip::AGENT_PORT;
        *self.sim.w.pool.wl_hdr_mut(p) = WlHdr { next_hop, mip: Some(m), keep: true, ..WlHdr::default() };
        self.b.send(self.sim, p);
    }

    fn base_station(&mut self, addr: i32) {
        if self.node != NONE {
            let _ = self.sim.wireless_base_station(self.node, addr);
        }
    }
}
