//! `Queue/RED/PD` (queue/red-pd.cc `RedPDQueue`): RED with a filter for the
//! flows an identification engine monitors (qdisc/redpd.rs), and its flows,
//! `QueueMonitor/ED/Flow/RedPD` (`RedPDFlow`), which carry each flow's
//! target and state.  RED's variables are inherited (the `Queue/RED`
//! tables reach the RED inside).  The commands are in ns2/redpd.rs.

use super::queue::queue;
use crate::ns2::bind::*;
use crate::ns2::tclcl::parse_bool_int;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::redpd::FlowPolicy;
use crate::qdisc::RedPd;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn redpd(o: &mut Obj) -> Option<&mut RedPd> {
    queue(o)?.disc.get_mut::<RedPd>()
}

fn policy(o: &mut Obj) -> Option<&mut FlowPolicy> {
    match o {
        Obj::QueueMonitor(q) => q.policy.as_deref_mut(),
        _ => None,
    }
}

/// A rate: any finite bandwidth (ns-2's units).
fn rate(name: &str, v: &str) -> Result<f64, String> {
    let bw = parse_bw(v);
    if bw.is_finite() {
        Ok(bw)
    } else {
        Err(format!("{name} must be a finite rate, got \"{v}\""))
    }
}

/// The queue's (`RedPDQueue::RedPDQueue`, ns-default.tcl's defaults).
pub static REDPD: Table<RedPd> = Table {
    class: "Queue/RED/PD",
    part: redpd,
    vars: &[
        var("auto_", Bool, "false", |d, _| boolean(d.auto), |d, v, _| Ok(d.auto = parse_bool(v))),
        var("global_target_", Bool, "false", |d, _| boolean(d.global_target), |d, v, _| Ok(d.global_target = parse_bool(v))),
        var("noidle_", Bool, "false", |d, _| boolean(d.noidle), |d, v, _| Ok(d.noidle = parse_bool(v))),
        var("targetBW_", Bandwidth, "0", |d, _| real(d.target_bw), |d, v, _| rate("targetBW_", v).map(|x| d.target_bw = x)),
        var("noMonitored_", Int, "0", |d, _| int(d.monitored), |d, v, _| Ok(d.monitored = parse_int(v))),
        within(var("unresponsive_penalty_", Real, "1", |d, _| real(d.penalty), |d, v, _| finite("unresponsive_penalty_", v).map(|x| d.penalty = x)),
            Range::Finite, "the factor on an unresponsive flow's drop probability"),
        within(var("P_testFRp_", Real, "-1", |d, _| real(d.test_frp), |d, v, _| finite("P_testFRp_", v).map(|x| d.test_frp = x)),
            Range::Finite, "the test mode's drop probability for every arrival (-1: off)"),
    ],
    after_set: None,
};

/// A flow's target and policing state (`RedPDFlow::RedPDFlow`).  The
/// rates may be in any unit (only their ratio counts): the identification
/// engine of ns-2's examples sets fractions.
pub static REDPD_FLOW: Table<FlowPolicy> = Table {
    class: "QueueMonitor/ED/Flow/RedPD",
    part: policy,
    vars: &[
        var("targetBW_", Bandwidth, "0", |f, _| real(f.target_bw), |f, v, _| rate("targetBW_", v).map(|x| f.target_bw = x)),
        var("currentBW_", Bandwidth, "0", |f, _| real(f.current_bw), |f, v, _| rate("currentBW_", v).map(|x| f.current_bw = x)),
        var("monitored_", Bool, "0", |f, _| int(f.monitored), |f, v, _| Ok(f.monitored = parse_bool_int(v))),
        var("unresponsive_", Bool, "0", |f, _| int(f.unresponsive), |f, v, _| Ok(f.unresponsive = parse_bool_int(v))),
        var("lastDropTime_", Real, "0", |f, _| real(f.last_drop), |f, v, _| Ok(f.last_drop = parse_real(v))),
        var("monitorStartTime_", Real, "0", |f, _| real(f.monitor_start), |f, v, _| Ok(f.monitor_start = parse_real(v))),
        var("unresponsiveStartTime_", Real, "0", |f, _| real(f.unresponsive_start), |f, v, _| Ok(f.unresponsive_start = parse_real(v))),
        var("auto_", Bool, "0", |f, _| int(f.auto), |f, v, _| Ok(f.auto = parse_bool_int(v))),
    ],
    after_set: None,
};

pub fn make_redpd_flow(sim: &mut Sim, _: ObjId) -> Obj {
    let mut f = crate::objs::QueueMonitor::new_flow(sim.w.s.now);
    f.policy = Some(Box::default());
    Obj::QueueMonitor(Box::new(f))
}
