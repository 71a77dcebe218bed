//! Mobile IP (ns-2 2.35's mobile/mip-reg.cc and mip.cc, with the
//! registration book-keeping of tcl/lib/ns-mip.tcl), as rules over
//! messages and addresses: no packets, no clock of its own.  The caller
//! (the node's stack) gives the time, the random draws and the timers, and
//! carries out what a rule returns.
//!
//! * A base station's agent (`Station`: a home agent for its own mobile
//!   hosts, a foreign agent for visitors) advertises itself to everyone
//!   every beacon period (the first advertisement at a uniform draw within
//!   the period, drawn when the period is set, that is when the node is
//!   made), answers a solicitation with an advertisement to the host that
//!   asked, relays a registration request meant for another home agent to
//!   it, and, as the home agent, records where its host is (its care-of
//!   address: the tunnel's exit) for the request's lifetime, or forgets it
//!   when the host is back home, and answers with a reply.  A reply that
//!   reaches the foreign agent opens its decapsulator and goes on to the
//!   host through the routing agent.
//! * A mobile host's agent (`Host`) keeps a list of the agents it has heard
//!   (most recent first, each forgotten a beacon period after its last
//!   advertisement), registers with the first it hears (and again after
//!   each advertisement of its current agent), retransmits an unanswered
//!   request every `reg_rtx` seconds, and solicits advertisements when it
//!   knows no agent.
//! * The tunnel: the home agent encapsulates a packet for a registered
//!   host away from home (the inner header kept, the outer one from the
//!   home agent's tunnel port to the care-of address's, 20 bytes more); the
//!   foreign agent takes the outer header off again.
//!
//! Addresses are whatever the caller's addresses are (ns-2's
//! `get_nodeaddr` values), compared for equality only.

/// ns-2's IP header size, which the tunnel adds (mip.cc `IP_HEADER_SIZE`).
pub const TUNNEL_OVERHEAD: i32 = 20;

/// The broadcast address as an IP header holds it (`IP_BROADCAST`).
pub const BROADCAST: i32 = -1;

/// The port of the registration agents (`REGAGENT_PORT`) and of the
/// decapsulator, the tunnel's end (`DECAP_PORT`).
pub const AGENT_PORT: i32 = 0;
pub const TUNNEL_PORT: i32 = 1;

/// What a Mobile IP message is (`MipRegType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Request,
    Reply,
    Advert,
    Solicit,
}

/// The Mobile IP header (`hdr_mip`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Message {
    /// The mobile host's home address (-1 in an advertisement).
    pub home: i32,
    /// Its home agent (-1 in an advertisement).
    pub home_agent: i32,
    /// The care-of address: the advertising or registering foreign agent
    /// (-1 in a solicitation).
    pub care_of: i32,
    pub kind: Kind,
    /// Seconds: an advertisement's or a registration's lifetime.
    pub lifetime: f64,
    pub seqno: i32,
}

/// The IP addresses and ports of a packet, and its TTL (`hdr_ip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ip {
    pub src: i32,
    pub sport: i32,
    pub dst: i32,
    pub dport: i32,
    pub ttl: i32,
}

/// Where a message a rule made goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// To every node (IP and link-layer broadcast, port 0).
    Broadcast,
    /// To this address's agent port.
    To(i32),
}

/// What to do with a message an agent received (its headers already
/// changed by the rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// Send it on from the agent (its send trace, then the node's entry),
    /// with the forward count cleared.
    Send,
    /// Hand it to the node's routing agent (no agent trace).
    ToRouting,
    /// Free it.
    Free,
}

/// A timer of an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// A base station's advertisements; a host's registration
    /// (retransmission) timer.
    Beacon,
    /// A host's sweep of the agents it has heard (every beacon period).
    AgentList,
    /// The end of home address `home`'s registration at its home agent;
    /// `gen` tells a stale one (rescheduled or cancelled since) apart.
    Binding { home: i32, gen: u32 },
}

/// What an agent needs of the node it runs on.
pub trait Env {
    fn now(&self) -> f64;
    /// `Random::uniform(0, max)` from the run's default stream.
    fn uniform(&mut self, max: f64) -> f64;
    /// Start (or restart) a timer `delay` seconds from now.
    fn resched(&mut self, t: Timer, delay: f64);
    fn cancel(&mut self, t: Timer);
    /// Send a new message of the agent's size from the agent's address
    /// and port.
    fn send(&mut self, m: Message, to: Dest);
    /// The host's care-of agent changed (mobilenode.cc `set_base_stn`):
    /// where its routing agent sends what leaves its subnet.
    fn base_station(&mut self, addr: i32) {
        let _ = addr;
    }
}

/// A home agent's record of one of its hosts away (ns-mip.tcl's
/// `TunnelExit_` and `RegTimer_`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Binding {
    pub home: i32,
    /// The care-of address, the tunnel's exit.
    pub exit: i32,
    /// Whether packets for `home` go into the tunnel (the route ns-2's
    /// `encap-route` installs and `clear-reg` removes).
    pub routed: bool,
    /// The generation of its expiry timer.
    pub gen: u32,
}

/// A base station's registration agent (`MIPBSAgent`).
#[derive(Clone, Debug)]
pub struct Station {
    /// The node's address (the care-of address it advertises) and the
    /// agent's full address and port (the source of what it relays).
    pub node: i32,
    pub addr: i32,
    pub port: i32,
    /// `beacon-period` (s).
    pub beacon: f64,
    /// `ad_lifetime_` (s).
    pub ad_lifetime: f64,
    /// The last advertisement's number (-1: none yet).
    pub seqno: i32,
    /// Hosts registered here as their home agent.
    pub bindings: Vec<Binding>,
    /// Whether a registration reply has opened the decapsulator (a
    /// foreign agent's, whose default target becomes the routing agent).
    pub decap_open: bool,
}

impl Station {
    /// A base station agent with ns-2's defaults (`ad_lifetime_ 2`).
    pub fn new(node: i32, addr: i32, port: i32) -> Station {
        Station { node, addr, port, beacon: 1.0, ad_lifetime: 2.0, seqno: -1, bindings: Vec::new(), decap_open: false }
    }

    /// `beacon-period P` (ns-mip.tcl sets 1 when the agent is made): the
    /// next advertisement at a uniform draw within the period.
    pub fn set_beacon(&mut self, env: &mut impl Env, period: f64) {
        self.beacon = period;
        let d = env.uniform(period);
        env.resched(Timer::Beacon, d);
    }

    /// The advertisement timer: advertise to everyone, again a period on.
    pub fn beacon_timeout(&mut self, env: &mut impl Env) {
        self.advertise(env, Dest::Broadcast);
        env.resched(Timer::Beacon, self.beacon);
    }

    fn advertise(&mut self, env: &mut impl Env, to: Dest) {
        self.seqno += 1;
        let m = Message { home: -1, home_agent: -1, care_of: self.node, kind: Kind::Advert, lifetime: self.ad_lifetime, seqno: self.seqno };
        env.send(m, to);
    }

    /// A message for the agent.
    pub fn recv(&mut self, env: &mut impl Env, m: &mut Message, ip: &mut Ip) -> Then {
        match m.kind {
            Kind::Request => {
                if m.home_agent == self.node {
                    if m.home_agent == m.care_of {
                        self.clear(env, m.home);
                    } else {
                        self.bind(env, m.home, m.care_of, m.lifetime);
                    }
                    ip.dst = ip.src;
                    m.kind = Kind::Reply;
                } else {
                    // (a foreign agent relays it to the home agent)
                    ip.dst = m.home_agent;
                    ip.dport = AGENT_PORT;
                }
                ip.src = self.addr;
                ip.sport = self.port;
                Then::Send
            }
            Kind::Reply => {
                // (ns-2 asserts that the reply is for this care-of agent;
                // one that is not goes on the same way)
                self.decap_open = true;
                ip.src = ip.dst;
                ip.dst = m.home;
                ip.dport = AGENT_PORT;
                Then::ToRouting
            }
            Kind::Solicit => {
                self.advertise(env, Dest::To(m.home));
                Then::Free
            }
            Kind::Advert => Then::Free,
        }
    }

    /// `encap-route`: packets for `home` into the tunnel to `exit`, until
    /// `lifetime` seconds from now (a new registration restarts it).
    fn bind(&mut self, env: &mut impl Env, home: i32, exit: i32, lifetime: f64) {
        let i = match self.bindings.iter().position(|b| b.home == home) {
            Some(i) => i,
            None => {
                self.bindings.push(Binding { home, exit, routed: false, gen: 0 });
                self.bindings.len() - 1
            }
        };
        let b = &mut self.bindings[i];
        env.cancel(Timer::Binding { home, gen: b.gen });
        b.gen = b.gen.wrapping_add(1);
        b.exit = exit;
        b.routed = true;
        env.resched(Timer::Binding { home, gen: b.gen }, lifetime);
    }

    /// `clear-reg`: the route into the tunnel removed, the expiry
    /// cancelled (the tunnel's exit is remembered, as ns-2's `TunnelExit_`
    /// is).
    fn clear(&mut self, env: &mut impl Env, home: i32) {
        if let Some(b) = self.bindings.iter_mut().find(|b| b.home == home) {
            b.routed = false;
            env.cancel(Timer::Binding { home, gen: b.gen });
            b.gen = b.gen.wrapping_add(1);
        }
    }

    /// A registration's expiry timer.
    pub fn binding_timeout(&mut self, env: &mut impl Env, home: i32, gen: u32) {
        if self.bindings.iter().any(|b| b.home == home && b.gen == gen) {
            self.clear(env, home);
        }
    }

    /// The tunnel's exit for a packet to `home`, if the home agent routes
    /// it into the tunnel.
    pub fn tunnel_exit(&self, home: i32) -> Option<i32> {
        self.bindings.iter().find(|b| b.home == home && b.routed).map(|b| b.exit)
    }
}

/// An agent a host has heard (`AgentList`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heard {
    pub agent: i32,
    /// When it is forgotten unless it advertises again.
    pub expires: f64,
    pub lifetime: f64,
}

/// A mobile host's registration agent (`MIPMHAgent`).
#[derive(Clone, Debug)]
pub struct Host {
    /// The host's (home) address.
    pub node: i32,
    /// `home_agent_`.
    pub home_agent: i32,
    /// The agent it registers with (-1: none).
    pub care_of: i32,
    /// `reg_rtx_`, `reg_lifetime_`, `beacon-period` (s).
    pub reg_rtx: f64,
    pub reg_lifetime: f64,
    pub beacon: f64,
    /// The current agent's advertised lifetime.
    pub ad_lifetime: f64,
    pub seqno: i32,
    /// The agents heard, most recent first.
    pub agents: Vec<Heard>,
}

impl Host {
    /// A host agent with ns-2's defaults (`home_agent_ 0`, `reg_rtx_ 0.5`,
    /// `reg_lifetime_ 2`).
    pub fn new(node: i32) -> Host {
        Host { node, home_agent: 0, care_of: -1, reg_rtx: 0.5, reg_lifetime: 2.0, beacon: 1.0, ad_lifetime: 0.0, seqno: -1, agents: Vec::new() }
    }

    /// `beacon-period P` (ns-mip.tcl sets 1 when the agent is made): sweep
    /// the agent list now and every period, and register (or solicit)
    /// after a uniform draw within the period.
    pub fn set_beacon(&mut self, env: &mut impl Env, period: f64) {
        self.beacon = period;
        self.sweep(env);
        env.resched(Timer::AgentList, self.beacon);
        let d = env.uniform(self.beacon);
        env.resched(Timer::Beacon, d);
    }

    /// The retransmission timer.
    pub fn beacon_timeout(&mut self, env: &mut impl Env) {
        self.register(env);
    }

    /// The agent list's timer.
    pub fn list_timeout(&mut self, env: &mut impl Env) {
        self.sweep(env);
    }

    /// Forget the agents not heard for a period; register anew if the
    /// current one was among them.
    fn sweep(&mut self, env: &mut impl Env) {
        let now = env.now();
        let mut lost = false;
        let care_of = self.care_of;
        self.agents.retain(|a| {
            if a.expires < now {
                lost |= a.agent == care_of;
                false
            } else {
                true
            }
        });
        if lost {
            self.care_of = -1;
        }
        env.resched(Timer::AgentList, self.beacon);
        if lost {
            self.seqno += 1;
            self.register(env);
        }
    }

    /// A message for the agent: what it does with it (a host frees all).
    pub fn recv(&mut self, env: &mut impl Env, m: &Message) {
        match m.kind {
            Kind::Reply => {
                if m.care_of == self.care_of {
                    env.cancel(Timer::Beacon);
                }
            }
            Kind::Advert => {
                let expires = self.beacon + env.now();
                if let Some(i) = self.agents.iter().position(|a| a.agent == m.care_of) {
                    let mut a = self.agents.remove(i);
                    a.expires = expires;
                    a.lifetime = m.lifetime;
                    self.agents.insert(0, a);
                    if self.care_of == m.care_of {
                        self.seqno += 1;
                        self.register(env);
                    }
                } else {
                    self.agents.insert(0, Heard { agent: m.care_of, expires, lifetime: m.lifetime });
                    self.care_of = m.care_of;
                    env.base_station(m.care_of);
                    self.ad_lifetime = m.lifetime;
                    self.seqno += 1;
                    self.register(env);
                }
            }
            Kind::Request | Kind::Solicit => {}
        }
    }

    /// `reg`: retransmit in `reg_rtx` unless answered; a request to the
    /// current agent (the first heard if none), or a solicitation to all
    /// when none is known.
    fn register(&mut self, env: &mut impl Env) {
        env.resched(Timer::Beacon, self.reg_rtx);
        let Some(first) = self.agents.first().copied() else {
            let m = Message { home: self.node, home_agent: self.home_agent, care_of: -1, kind: Kind::Solicit, lifetime: self.reg_lifetime, seqno: self.seqno };
            return env.send(m, Dest::Broadcast);
        };
        if self.care_of < 0 {
            self.care_of = first.agent;
            self.ad_lifetime = first.lifetime;
        }
        let lifetime = if self.reg_lifetime < self.ad_lifetime { self.reg_lifetime } else { self.ad_lifetime };
        let m = Message { home: self.node, home_agent: self.home_agent, care_of: self.care_of, kind: Kind::Request, lifetime, seqno: self.seqno };
        env.send(m, Dest::To(self.care_of));
    }
}

/// The tunnel's entry (`MIPEncapsulator`): the packet's TTL goes down by
/// one (at 0 it is dropped, untraced: `None`); its header, so reduced,
/// becomes the inner header, and the outer one goes from `here` (address,
/// port) to `exit`'s tunnel port with TTL `ttl`; the packet grows by an IP
/// header.
pub fn encapsulate(ip: &mut Ip, size: &mut i32, here: (i32, i32), exit: i32, ttl: i32) -> Option<Ip> {
    ip.ttl -= 1;
    if ip.ttl <= 0 {
        return None;
    }
    let inner = *ip;
    *ip = Ip { src: here.0, sport: here.1, dst: exit, dport: TUNNEL_PORT, ttl };
    *size += TUNNEL_OVERHEAD;
    Some(inner)
}

/// The tunnel's exit (`MIPDecapsulator`): the inner header back, the
/// packet an IP header smaller; `false` (drop, untraced) when the inner
/// TTL is spent or the decapsulator has nowhere to send it.
pub fn decapsulate(ip: &mut Ip, size: &mut i32, inner: Ip, open: bool) -> bool {
    *ip = inner;
    if !open || inner.ttl <= 0 {
        return false;
    }
    *size -= TUNNEL_OVERHEAD;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node's side of an agent: a clock, scripted draws, the timers
    /// pending, what was sent and the base station set.
    #[derive(Default)]
    struct Rig {
        now: f64,
        draws: Vec<f64>,
        timers: Vec<(Timer, f64)>,
        sent: Vec<(Message, Dest)>,
        base: Option<i32>,
    }

    impl Env for Rig {
        fn now(&self) -> f64 {
            self.now
        }
        fn uniform(&mut self, max: f64) -> f64 {
            self.draws.remove(0) * max
        }
        fn resched(&mut self, t: Timer, delay: f64) {
            self.cancel(t);
            self.timers.push((t, self.now + delay));
        }
        fn cancel(&mut self, t: Timer) {
            self.timers.retain(|(u, _)| *u != t);
        }
        fn send(&mut self, m: Message, to: Dest) {
            self.sent.push((m, to));
        }
        fn base_station(&mut self, addr: i32) {
            self.base = Some(addr);
        }
    }

    impl Rig {
        fn due(&self, t: Timer) -> Option<f64> {
            self.timers.iter().find(|(u, _)| *u == t).map(|&(_, at)| at)
        }
    }

    const HA: i32 = 4194304; // 1.0.0
    const FA: i32 = 8388608; // 2.0.0
    const MH: i32 = 4194306; // 1.0.2

    fn advert(from: i32, seqno: i32) -> Message {
        Message { home: -1, home_agent: -1, care_of: from, kind: Kind::Advert, lifetime: 2.0, seqno }
    }

    #[test]
    fn a_station_advertises_at_its_draw_then_every_period() {
        // (WLtutorial's wireless3 under ns-2: the home agent's first
        // advertisement at 0.000339577 s, then at 1.000339577, ...)
        let mut rig = Rig { draws: vec![0.000339577], ..Rig::default() };
        let mut s = Station::new(HA, HA, AGENT_PORT);
        s.set_beacon(&mut rig, 1.0);
        assert_eq!(rig.due(Timer::Beacon), Some(0.000339577));
        rig.now = 0.000339577;
        s.beacon_timeout(&mut rig);
        rig.now = rig.due(Timer::Beacon).unwrap();
        assert!((rig.now - 1.000339577).abs() < 1e-12);
        s.beacon_timeout(&mut rig);
        let seqnos: Vec<i32> = rig.sent.iter().map(|(m, _)| m.seqno).collect();
        assert_eq!(seqnos, [0, 1]);
        assert_eq!(rig.sent[0], (advert(HA, 0), Dest::Broadcast));
    }

    #[test]
    fn a_host_registers_with_the_first_agent_it_hears_and_retries() {
        // (wireless3: the ad heard at 0.004153598 s is answered at once,
        // and again 0.5 s later while no reply comes)
        let mut rig = Rig { draws: vec![0.9], ..Rig::default() };
        let mut h = Host::new(MH);
        h.home_agent = HA;
        h.set_beacon(&mut rig, 1.0);
        assert_eq!(rig.due(Timer::Beacon), Some(0.9));
        assert_eq!(rig.due(Timer::AgentList), Some(1.0));
        assert!(rig.sent.is_empty(), "an empty list at start: no solicitation yet");
        rig.now = 0.004153598;
        h.recv(&mut rig, &advert(HA, 0));
        assert_eq!(rig.base, Some(HA));
        let want = Message { home: MH, home_agent: HA, care_of: HA, kind: Kind::Request, lifetime: 2.0, seqno: 0 };
        assert_eq!(rig.sent, [(want, Dest::To(HA))]);
        assert_eq!(rig.due(Timer::Beacon), Some(0.504153598));
        rig.now = 0.504153598;
        h.beacon_timeout(&mut rig);
        assert_eq!(rig.sent.len(), 2);
        assert_eq!(rig.sent[1].0.seqno, 0, "a retransmission keeps its number");
        // a reply for the current agent stops the retransmissions
        let reply = Message { kind: Kind::Reply, ..want };
        h.recv(&mut rig, &reply);
        assert_eq!(rig.due(Timer::Beacon), None);
        // a reply for another care-of address does not
        h.beacon_timeout(&mut rig);
        h.recv(&mut rig, &Message { care_of: FA, ..reply });
        assert!(rig.due(Timer::Beacon).is_some());
    }

    #[test]
    fn each_advert_of_the_current_agent_renews_the_registration() {
        let mut rig = Rig { draws: vec![0.5], ..Rig::default() };
        let mut h = Host::new(MH);
        h.home_agent = HA;
        h.set_beacon(&mut rig, 1.0);
        rig.now = 0.1;
        h.recv(&mut rig, &advert(HA, 0));
        rig.now = 1.1;
        h.recv(&mut rig, &advert(HA, 1));
        // another agent heard: listed first, but the host stays with its own
        rig.now = 1.2;
        h.recv(&mut rig, &advert(FA, 0));
        assert_eq!(h.care_of, FA, "a new agent is taken at once (ns-2's new-ads branch)");
        assert_eq!(rig.base, Some(FA));
        let seqnos: Vec<(i32, i32)> = rig.sent.iter().map(|(m, _)| (m.care_of, m.seqno)).collect();
        assert_eq!(seqnos, [(HA, 0), (HA, 1), (FA, 2)]);
        assert_eq!(h.agents.iter().map(|a| a.agent).collect::<Vec<_>>(), [FA, HA]);
        // the old agent's adverts no longer register
        rig.now = 1.3;
        h.recv(&mut rig, &advert(HA, 2));
        assert_eq!(rig.sent.len(), 3);
        assert_eq!(h.agents[0].agent, HA, "most recently heard first");
    }

    #[test]
    fn a_host_out_of_reach_forgets_its_agent_and_solicits() {
        // (wireless3: from 114 s the host, between the two agents, sends a
        // solicitation every 0.5 s)
        let mut rig = Rig { draws: vec![0.5], ..Rig::default() };
        let mut h = Host::new(MH);
        h.home_agent = HA;
        h.set_beacon(&mut rig, 1.0);
        rig.now = 0.3;
        h.recv(&mut rig, &advert(HA, 0));
        rig.sent.clear();
        // swept at 1.0 (heard until 1.3) and at 2.0: lost
        rig.now = 1.0;
        h.list_timeout(&mut rig);
        assert!(rig.sent.is_empty());
        rig.now = 2.0;
        h.list_timeout(&mut rig);
        assert_eq!(h.care_of, -1);
        assert!(h.agents.is_empty());
        assert_eq!(rig.sent.len(), 1);
        let (m, to) = rig.sent[0];
        assert_eq!((m.kind, m.home, m.care_of, m.seqno, to), (Kind::Solicit, MH, -1, 1, Dest::Broadcast));
        assert_eq!(rig.due(Timer::Beacon), Some(2.5));
        assert_eq!(rig.due(Timer::AgentList), Some(3.0));
        rig.now = 2.5;
        h.beacon_timeout(&mut rig);
        assert_eq!(rig.sent[1].0.kind, Kind::Solicit);
    }

    #[test]
    fn a_host_left_with_another_agent_registers_with_it_without_telling_its_routing() {
        let mut rig = Rig { draws: vec![0.5], ..Rig::default() };
        let mut h = Host::new(MH);
        h.home_agent = HA;
        h.set_beacon(&mut rig, 1.0);
        rig.now = 0.2;
        h.recv(&mut rig, &advert(FA, 0));
        rig.now = 0.9;
        h.recv(&mut rig, &advert(HA, 0));
        h.care_of = FA;
        rig.base = None;
        rig.now = 1.5;
        h.list_timeout(&mut rig); // FA heard at 0.2: expired at 1.2
        assert_eq!(h.care_of, HA);
        assert_eq!(rig.base, None, "ns-2 does not call set_base_stn here");
        assert_eq!(rig.sent.last().unwrap().1, Dest::To(HA));
    }

    #[test]
    fn the_home_agent_binds_renews_and_clears() {
        let mut rig = Rig::default();
        let mut s = Station::new(HA, HA, AGENT_PORT);
        rig.now = 156.569402232;
        // a request relayed by the foreign agent
        let mut m = Message { home: MH, home_agent: HA, care_of: FA, kind: Kind::Request, lifetime: 2.0, seqno: 7 };
        let mut ip = Ip { src: FA, sport: 0, dst: HA, dport: 0, ttl: 30 };
        assert_eq!(s.recv(&mut rig, &mut m, &mut ip), Then::Send);
        assert_eq!(m.kind, Kind::Reply);
        // (the TTL is left as it came: ns-2's trace shows 30 on the reply)
        assert_eq!(ip, Ip { src: HA, sport: 0, dst: FA, dport: 0, ttl: 30 });
        assert_eq!(s.tunnel_exit(MH), Some(FA));
        let gen = s.bindings[0].gen;
        assert_eq!(rig.due(Timer::Binding { home: MH, gen }), Some(158.569402232));
        // renewed a second later: the old expiry is stale
        rig.now = 157.5;
        let mut m2 = Message { kind: Kind::Request, ..m };
        s.recv(&mut rig, &mut m2, &mut ip.clone());
        s.binding_timeout(&mut rig, MH, gen);
        assert_eq!(s.tunnel_exit(MH), Some(FA), "a stale expiry clears nothing");
        let gen2 = s.bindings[0].gen;
        assert_eq!(rig.due(Timer::Binding { home: MH, gen: gen2 }), Some(159.5));
        rig.now = 159.5;
        s.binding_timeout(&mut rig, MH, gen2);
        assert_eq!(s.tunnel_exit(MH), None);
        // back home: a request with care-of = home agent clears at once
        s.recv(&mut rig, &mut Message { kind: Kind::Request, ..m }, &mut ip.clone());
        assert_eq!(s.tunnel_exit(MH), Some(FA));
        let mut home = Message { care_of: HA, kind: Kind::Request, ..m };
        let mut ip3 = Ip { src: MH, sport: 0, dst: HA, dport: 0, ttl: 32 };
        assert_eq!(s.recv(&mut rig, &mut home, &mut ip3), Then::Send);
        assert_eq!(s.tunnel_exit(MH), None);
        assert_eq!((ip3.src, ip3.dst), (HA, MH));
        assert!(rig.timers.is_empty());
    }

    #[test]
    fn a_foreign_agent_relays_requests_and_passes_replies_on() {
        let mut rig = Rig::default();
        let mut s = Station::new(FA, FA, AGENT_PORT);
        let mut m = Message { home: MH, home_agent: HA, care_of: FA, kind: Kind::Request, lifetime: 2.0, seqno: 3 };
        let mut ip = Ip { src: MH, sport: 0, dst: FA, dport: 0, ttl: 32 };
        assert_eq!(s.recv(&mut rig, &mut m, &mut ip), Then::Send);
        assert_eq!(m.kind, Kind::Request);
        assert_eq!(ip, Ip { src: FA, sport: 0, dst: HA, dport: 0, ttl: 32 });
        assert!(s.bindings.is_empty());
        assert!(!s.decap_open);
        let mut reply = Message { kind: Kind::Reply, ..m };
        let mut ip = Ip { src: HA, sport: 0, dst: FA, dport: 0, ttl: 28 };
        assert_eq!(s.recv(&mut rig, &mut reply, &mut ip), Then::ToRouting);
        assert!(s.decap_open);
        // (the source becomes the foreign agent: ns-2 copies the
        // destination into it)
        assert_eq!(ip, Ip { src: FA, sport: 0, dst: MH, dport: 0, ttl: 28 });
        // a solicitation: an advert to the host that asked
        let sol = Message { home: MH, home_agent: HA, care_of: -1, kind: Kind::Solicit, lifetime: 2.0, seqno: 9 };
        assert_eq!(s.recv(&mut rig, &mut sol.clone(), &mut ip), Then::Free);
        assert_eq!(rig.sent, [(advert(FA, 0), Dest::To(MH))]);
    }

    #[test]
    fn the_tunnel_wraps_and_unwraps() {
        // (wireless3: a 1,000-byte TCP segment from 0.0.0 to 1.0.2 crosses
        // the wire to the foreign agent as 1,020 bytes from the home
        // agent's tunnel port, 0.0.0.1, to 2.0.0.1)
        let mut ip = Ip { src: 0, sport: 0, dst: MH, dport: 2, ttl: 30 };
        let mut size = 1000;
        let inner = encapsulate(&mut ip, &mut size, (0, 1), FA, 32).unwrap();
        assert_eq!(ip, Ip { src: 0, sport: 1, dst: FA, dport: TUNNEL_PORT, ttl: 32 });
        assert_eq!(size, 1020);
        assert_eq!(inner.ttl, 29);
        ip.ttl = 30;
        assert!(decapsulate(&mut ip, &mut size, inner, true));
        assert_eq!(ip, Ip { src: 0, sport: 0, dst: MH, dport: 2, ttl: 29 });
        assert_eq!(size, 1000);
        // a spent TTL, a closed decapsulator
        let mut last = Ip { ttl: 1, ..ip };
        assert_eq!(encapsulate(&mut last, &mut size, (0, 1), FA, 32), None);
        assert!(!decapsulate(&mut ip.clone(), &mut size.clone(), inner, false));
        assert!(!decapsulate(&mut ip.clone(), &mut size.clone(), Ip { ttl: 0, ..inner }, true));
    }
}
