//! ns-2's XCP classes (xcp/xcp.cc, xcp/xcp-end-sys.cc): `Queue/XCP`, the
//! sender `Agent/TCP/Reno/XCP` (Reno's bindings, with timestamps on, as
//! ns-default.tcl sets them) and the receiver `Agent/TCPSink/XCPSink`.

use super::tcp::{make_sink, make_tcp};
use crate::agent::AgentKind;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::packet::PacketType;
use crate::qdisc::xcp::Xcp;
use crate::qdisc::Qdisc;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tcp::{Flavor, Sender};

fn sender(o: &mut Obj) -> Option<(&mut crate::agent::AgentBase, &mut Sender)> {
    match agent_parts(o)? {
        (base, AgentKind::Tcp(t)) => Some((base, &mut t.sender)),
        _ => None,
    }
}

/// `Agent/TCP/Reno/XCP set timestamps_ true` (ns-default.tcl).
pub static RENO_XCP: Table2<crate::agent::AgentBase, Sender> = Table2 {
    class: "Agent/TCP/Reno/XCP",
    part: sender,
    vars: &[var2("timestamps_", Bool, "true", |_, s, _| boolean(s.ts_option), |_, s, v, _| Ok(s.ts_option = parse_bool(v)))],
};

/// `Agent/TCP/FullTcp/Newreno/XCP set timestamps_ true` (ns-default.tcl).
pub static FULL_XCP: Table2<crate::agent::AgentBase, Sender> = Table2 {
    class: "Agent/TCP/FullTcp/Newreno/XCP",
    part: sender,
    vars: &[var2("timestamps_", Bool, "true", |_, s, _| boolean(s.ts_option), |_, s, v, _| Ok(s.ts_option = parse_bool(v)))],
};

fn xcp(o: &mut Obj) -> Option<&mut Xcp> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Xcp>(),
        _ => None,
    }
}

/// `Queue/XCP set tcp_xcp_on_ 0`: with 1, XCP traffic gets half the link
/// capacity it is given (ns-2 reads the class variable when the queue is
/// made; here the queue's own value when the capacity is set).
pub static XCP: Table<Xcp> = Table {
    class: "Queue/XCP",
    part: xcp,
    vars: &[var("tcp_xcp_on_", Bool, "0", |x, _| boolean(x.tcp_xcp_on), |x, v, _| Ok(x.tcp_xcp_on = parse_bool(v)))],
    after_set: None,
};

/// `new Queue/XCP`: routers are numbered from 0 in the order they are
/// made, and each draws its three timers' first expiries from the default
/// stream (`setupTimers`: `Tq`, `Te`, then the sampling timer).
pub fn make_queue(sim: &mut Sim, id: ObjId) -> Obj {
    let router = sim.objs.iter().filter(|o| matches!(o, Obj::Queue(q) if q.disc.get::<Xcp>().is_some())).count() as u32;
    let now = sim.w.s.now;
    let mut draw = |t: f64| {
        let rs = &mut sim.w.rng;
        let v = rs.streams[rs.default_idx as usize].normal(&mut rs.package, t, 0.2 * t);
        now + if 0.004 > v { 0.004 } else { v }
    };
    let tq = draw(crate::qdisc::xcp::INITIAL_TE);
    let te = draw(crate::qdisc::xcp::INITIAL_TE);
    let tr = draw(0.1);
    let slot = sim.w.s.new_resume(id);
    Obj::Queue(Box::new(crate::qdisc::Queue::new(Qdisc::boxed(Xcp::new(router, tq, te, tr)), slot)))
}

/// `new Agent/TCP/Reno/XCP`: Reno's agent, its packets of type `xcp`
/// (`XcpRenoTcpAgent`'s constructor).
pub fn make_reno(sim: &mut Sim, id: ObjId) -> Obj {
    let mut o = make_tcp(sim, id, Flavor::Xcp);
    if let Obj::Agent(a) = &mut o {
        a.base.ptype = PacketType::Xcp;
    }
    o
}

/// `new Agent/TCP/FullTcp/Newreno/XCP`: the two-way NewReno agent with
/// XCP's end system (both ends send and take feedback), its packets of
/// type `xcp` (`listen` makes a passive end's `ack`, as for every FullTcp).
pub fn make_full(sim: &mut Sim, id: ObjId) -> Obj {
    let mut o = super::fulltcp::make_full(sim, id, crate::tcp::full::Variant::NewReno);
    if let Obj::Agent(a) = &mut o {
        a.base.ptype = PacketType::Xcp;
    }
    if let Some((_, AgentKind::Tcp(t))) = agent_parts(&mut o) {
        t.sender.xcp = Some(Box::default());
        t.sender.set_out_extra();
    }
    o
}

/// `new Agent/TCPSink/XCPSink` (its headers carry id 0xffff).
pub fn make_sink_xcp(sim: &mut Sim, id: ObjId) -> Obj {
    let mut o = make_sink(sim, id, false, false);
    if let Some((_, AgentKind::Sink(s))) = agent_parts(&mut o) {
        s.xcp = Some(Box::new(crate::tcp::xcp::XcpEnd { id: 0xffff, ..Default::default() }));
        s.set_ack_extra();
    }
    o
}
