//! The agents: the variables of `Agent` every agent has (common/agent.cc),
//! and `Agent/Null`, `Agent/UDP` (apps/udp.cc), `Agent/LossMonitor`
//! (tools/loss-monitor.cc), `Agent/Ping` (apps/ping.cc) and `Agent/PBC`
//! (apps/pbc.cc).  [`AGENT`] is
//! the TCP senders' and sinks' too (their own tables are in tcp.rs).

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::ns2::bind::*;
use crate::packet::PacketType;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::udp::LossMonitor;
use crate::ns2::tclcl::VarType::*;

/// The part of any agent that `Agent`'s variables live in.
pub fn base(o: &mut Obj) -> Option<&mut AgentBase> {
    match o {
        Obj::Agent(a) => Some(&mut a.base),
        _ => None,
    }
}

fn loss_monitor(o: &mut Obj) -> Option<&mut LossMonitor> {
    match o {
        Obj::Agent(a) => match &mut a.kind {
            AgentKind::LossMonitor(m) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

/// `Agent`'s (common/agent.cc `Agent::Agent` and `delay_bind_dispatch`):
/// the addresses, the flow id (`class_` is its old name: both are `fid_`),
/// priority, flags and TTL of the packets it sends.  Every agent class's
/// first table.
pub static AGENT: Table<AgentBase> = Table {
    class: "Agent",
    part: base,
    vars: &[
        // (addresses are node ids inside the engine; a script sees and
        // gives ns-2's packed hierarchical addresses when they are on)
        var("agent_addr_", Int, "-1", |a, w| int(w.routing.addr_out(a.addr)), |a, v, w| Ok(a.addr = w.routing.addr_in(parse_int(v)))),
        var("agent_port_", Int, "-1", |a, _| int(a.port), |a, v, _| Ok(a.port = parse_int(v))),
        var("dst_addr_", Int, "-1", |a, w| int(w.routing.addr_out(a.dst_addr)), |a, v, w| Ok(a.dst_addr = w.routing.addr_in(parse_int(v)))),
        var("dst_port_", Int, "-1", |a, _| int(a.dst_port), |a, v, _| Ok(a.dst_port = parse_int(v))),
        var("fid_", Int, "0", |a, _| int(a.fid), |a, v, _| Ok(a.fid = parse_int(v))),
        var("prio_", Int, "0", |a, _| int(a.prio), |a, v, _| Ok(a.prio = parse_int(v))),
        var("flags_", Int, "0", |a, _| int(a.flags), |a, v, _| Ok(a.flags = parse_int(v))),
        var("ttl_", Int, "32", |a, _| int(a.ttl), |a, v, _| Ok(a.ttl = parse_int(v))),
        var("class_", Int, "0", |a, _| int(a.fid), |a, v, _| Ok(a.fid = parse_int(v))),
        debug(),
    ],
    after_set: None,
};

/// `Agent/Null`'s class variables of ns-default.tcl, the ports of the
/// old-style `Agent/Null` (OTcl only).
pub static NULL: Table<Obj> = Table {
    class: "Agent/Null",
    part: whole,
    vars: &[script_var("sport_", "0"), script_var("dport_", "0")],
    after_set: None,
};

/// `Agent/UDP`'s (apps/udp.cc `UdpAgent::UdpAgent`: `packetSize_`, the
/// largest datagram it sends whole).
pub static UDP: Table<AgentBase> = Table {
    class: "Agent/UDP",
    part: base,
    vars: &[var("packetSize_", Int, "1000", |a, _| int(a.size), |a, v, _| Ok(a.size = parse_int(v)))],
    after_set: None,
};

/// `Agent/Ping`'s (apps/ping.cc `PingAgent::PingAgent`: `packetSize_`).
pub static PING: Table<AgentBase> = Table {
    class: "Agent/Ping",
    part: base,
    vars: &[var("packetSize_", Int, "64", |a, _| int(a.size), |a, v, _| Ok(a.size = parse_int(v)))],
    after_set: None,
};

fn pbc(o: &mut Obj) -> Option<&mut crate::pbc::Pbc> {
    match o {
        Obj::Agent(a) => match &mut a.kind {
            AgentKind::Pbc(g) => Some(g),
            _ => None,
        },
        _ => None,
    }
}

/// `Agent/PBC`'s (apps/pbc.cc `PBCAgent::PBCAgent`, ns-default.tcl's
/// defaults).  The interval and variance are read when periodic
/// broadcasting starts.
pub static PBC: Table<crate::pbc::Pbc> = Table {
    class: "Agent/PBC",
    part: pbc,
    vars: &[
        var("payloadSize", Int, "200", |g, _| int(g.payload), |g, v, _| Ok(g.payload = parse_int(v))),
        var("periodicBroadcastVariance", Real, "0.1", |g, _| real(g.variance), |g, v, _| Ok(g.variance = parse_real(v))),
        var("periodicBroadcastInterval", Real, "1", |g, _| real(g.interval), |g, v, _| Ok(g.interval = parse_real(v))),
        var("modulationScheme", Int, "0", |g, _| int(g.modulation), |g, v, _| Ok(g.modulation = parse_int(v))),
    ],
    after_set: None,
};

fn mip(o: &mut Obj) -> Option<&mut crate::wireless::mip_agent::MipAgent> {
    match o {
        Obj::Agent(a) => match &mut a.kind {
            AgentKind::Mip(m) => Some(m),
            _ => None,
        },
        _ => None,
    }
}

fn mip_station(o: &mut Obj) -> Option<&mut crate::wireless::mip::Station> {
    use crate::wireless::mip_agent::Role;
    match &mut mip(o)?.role {
        Role::Station { core, .. } => Some(core),
        _ => None,
    }
}

fn mip_host(o: &mut Obj) -> Option<&mut crate::wireless::mip::Host> {
    use crate::wireless::mip_agent::Role;
    match &mut mip(o)?.role {
        Role::Host { core, .. } => Some(core),
        _ => None,
    }
}

/// `Agent/MIPBS`'s (mobile/mip-reg.cc `MIPBSAgent::MIPBSAgent`,
/// ns-default.tcl): the advertisement's size and lifetime; `shift_` and
/// `mask_` are the script's (2.35 reads them no more).
pub static MIPBS_SIZE: Table<AgentBase> = Table {
    class: "Agent/MIPBS",
    part: base,
    vars: &[var("adSize_", Int, "48", |a, _| int(a.size), |a, v, _| Ok(a.size = parse_int(v)))],
    after_set: None,
};

pub static MIPBS: Table<crate::wireless::mip::Station> = Table {
    class: "Agent/MIPBS",
    part: mip_station,
    vars: &[
        var("ad_lifetime_", Real, "2", |s, _| real(s.ad_lifetime), |s, v, _| Ok(s.ad_lifetime = parse_real(v))),
        script_var("shift_", "0"),
        script_var("mask_", "0x7fffffff"),
    ],
    after_set: None,
};

/// `Agent/MIPMH`'s (`MIPMHAgent::MIPMHAgent`): the request's size, the
/// home agent (a packed address), the retransmission interval and the
/// registration's lifetime.
pub static MIPMH_SIZE: Table<AgentBase> = Table {
    class: "Agent/MIPMH",
    part: base,
    vars: &[var("rreqSize_", Int, "52", |a, _| int(a.size), |a, v, _| Ok(a.size = parse_int(v)))],
    after_set: None,
};

pub static MIPMH: Table<crate::wireless::mip::Host> = Table {
    class: "Agent/MIPMH",
    part: mip_host,
    vars: &[
        var("home_agent_", Int, "0", |h, _| int(h.home_agent), |h, v, _| Ok(h.home_agent = parse_int(v))),
        var("reg_rtx_", Real, "0.5", |h, _| real(h.reg_rtx), |h, v, _| Ok(h.reg_rtx = parse_real(v))),
        var("reg_lifetime_", Real, "2", |h, _| real(h.reg_lifetime), |h, v, _| Ok(h.reg_lifetime = parse_real(v))),
        script_var("shift_", "0"),
        script_var("mask_", "0x7fffffff"),
    ],
    after_set: None,
};

/// `new Agent/MIPBS`: its packets `udp`, 48 bytes.
pub fn make_mipbs(sim: &mut Sim, id: ObjId) -> Obj {
    let mut base = AgentBase::new(id, PacketType::Udp);
    base.size = 48;
    agent(base, AgentKind::Mip(Box::new(crate::wireless::mip_agent::MipAgent::station(sim, id))))
}

/// `new Agent/MIPMH`: its packets `udp`, 52 bytes.
pub fn make_mipmh(sim: &mut Sim, id: ObjId) -> Obj {
    let mut base = AgentBase::new(id, PacketType::Udp);
    base.size = 52;
    agent(base, AgentKind::Mip(Box::new(crate::wireless::mip_agent::MipAgent::host(sim, id))))
}

/// `new Classifier/Addr/MIPDecapsulator`: the tunnel's end.
pub fn make_mip_decap(_: &mut Sim, id: ObjId) -> Obj {
    agent(AgentBase::new(id, PacketType::Udp), AgentKind::Mip(Box::new(crate::wireless::mip_agent::MipAgent::tunnel())))
}

/// `Agent/LossMonitor`'s (tools/loss-monitor.cc `LossMonitor::LossMonitor`).
pub static LOSS_MONITOR: Table<LossMonitor> = Table {
    class: "Agent/LossMonitor",
    part: loss_monitor,
    vars: &[
        var("nlost_", Int, "0", |m, _| int(m.nlost), |m, v, _| Ok(m.nlost = parse_int(v))),
        var("npkts_", Int, "0", |m, _| int(m.npkts), |m, v, _| Ok(m.npkts = parse_int(v))),
        var("bytes_", Int, "0", |m, _| int(m.bytes), |m, v, _| Ok(m.bytes = parse_int(v))),
        var("lastPktTime_", Real, "0", |m, _| real(m.last_packet_time), |m, v, _| Ok(m.last_packet_time = parse_real(v))),
        var("expected_", Int, "0", |m, _| int(m.expected), |m, v, _| Ok(m.expected = parse_int(v))),
    ],
    after_set: None,
};

fn agent(base: AgentBase, kind: AgentKind) -> Obj {
    Obj::Agent(Box::new(Agent { base, kind }))
}

pub fn make_null(_: &mut Sim, id: ObjId) -> Obj {
    agent(AgentBase::new(id, PacketType::Udp), AgentKind::Null)
}

pub fn make_udp(_: &mut Sim, id: ObjId) -> Obj {
    let mut base = AgentBase::new(id, PacketType::Udp);
    base.size = 1000;
    agent(base, AgentKind::Udp(Default::default()))
}

pub fn make_ping(_: &mut Sim, id: ObjId) -> Obj {
    let mut base = AgentBase::new(id, PacketType::Ping);
    base.size = 64;
    agent(base, AgentKind::Ping(Default::default()))
}

/// `new Agent/PBC`: its packets are `PBC`, its timer the agent's.
pub fn make_pbc(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    agent(AgentBase::new(id, PacketType::Pbc), AgentKind::Pbc(Box::new(crate::pbc::Pbc::new(timer))))
}

/// `Agent/rtProto/DV` (routing/rtProtoDV.cc): the distance-vector
/// protocol's message agent; the protocol is the library's
/// (python/dumbbell/ns2/lib/rtproto.tcl).
pub fn make_rtproto_dv(_: &mut Sim, id: ObjId) -> Obj {
    agent(AgentBase::new(id, PacketType::RouteDv), AgentKind::RouteMsg)
}

pub fn make_loss_monitor(_: &mut Sim, id: ObjId) -> Obj {
    agent(AgentBase::new(id, PacketType::Udp), AgentKind::LossMonitor(Default::default()))
}
