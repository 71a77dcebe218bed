//! Quick-Start's router side (quickstart/qsagent.cc `QSAgent`,
//! classifier/classifier-qs.cc `Classifier/QS`); the TCP's and the sink's
//! variables are in tcp.rs.

use crate::agent::{Agent, AgentBase, AgentKind};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::packet::PacketType;
use crate::quickstart::{RateCode, Router};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn router(o: &mut Obj) -> Option<&mut Router> {
    match o {
        Obj::Agent(a) => match &mut a.kind {
            AgentKind::QsRouter(r) => Some(r),
            _ => None,
        },
        _ => None,
    }
}

/// `QSAgent`'s (`QSAgent::QSAgent`, ns-default.tcl's defaults).
/// `rate_function_` is one for the simulation (a C++ static there too):
/// each agent made, or a setting on any one, sets it for all.
/// `old_classifier_` holds a name for Tcl; the library tells the engine
/// where packets go on (`dumbbell-old-classifier`).
pub static QSAGENT: Table<Router> = Table {
    class: "Agent/QSAgent",
    part: router,
    vars: &[
        var("qs_enabled_", Int, "1", |r, _| int(r.enabled as i32), |r, v, _| Ok(r.enabled = parse_int(v) != 0)),
        script_var("old_classifier_", "0"),
        within(var("state_delay_", Real, "0.2", |r, _| real(r.state_delay), |r, v, w| Ok(r.set_state_delay(parse_real(v), w.s.now))),
            Range::Positive, "the length of the period whose approvals a router remembers (`QSAgent::aggr_approval_`): 0 makes ns-2 restart the period for ever at one instant (a hang), a negative one crashes it"),
        within(var("alloc_rate_", Real, "0.85", |r, _| real(r.alloc_rate), |r, v, _| Ok(r.alloc_rate = parse_real(v))),
            Range::NotNan, "the share of the link a router may approve: NaN makes ns-2 die of a floating-point exception at the first request (any other value, infinite ones too, runs as in ns-2)"),
        within(var("threshold_", Real, "0.85", |r, _| real(r.threshold), |r, v, _| Ok(r.threshold = parse_real(v))),
            Range::NotNan, "the utilization above which a router refuses: NaN makes ns-2 die of a floating-point exception at the first request"),
        var("max_rate_", Int, "256", |r, _| int(r.max_rate), |r, v, _| Ok(r.max_rate = parse_int(v))),
        var("mss_", Int, "1000", |r, _| int(r.mss), |r, v, _| Ok(r.mss = parse_int(v))),
        var("rate_function_", Int, "2", |_, w| int(w.qs_rate_code.number()), |_, v, w| Ok(w.qs_rate_code = RateCode::from_number(parse_int(v)))),
        var("algorithm_", Int, "3", |r, _| int(r.algorithm), |r, v, _| Ok(r.algorithm = parse_int(v))),
    ],
    after_set: None,
};

/// A node's Quick-Start classifier, the node's entry: everything goes
/// through its agent (slot 0, `install 0 $agent`).
pub fn make_qs_classifier(_: &mut Sim, _: ObjId) -> Obj {
    Obj::QsEntry(crate::sim::NONE)
}

/// A Quick-Start router (ns-2's agent sends `tcp` packets, though it sends
/// none).  From now on every queue keeps its utilization.
pub fn make_qs_agent(sim: &mut Sim, id: ObjId) -> Obj {
    sim.meter_all_queues();
    Obj::Agent(Box::new(Agent { base: AgentBase::new(id, PacketType::Tcp), kind: AgentKind::QsRouter(Box::default()) }))
}
