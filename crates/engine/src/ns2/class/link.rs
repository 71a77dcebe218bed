//! The links: `DelayLink` (link/delay.cc) and `DynamicLink`
//! (link/dynalink.cc).

use crate::ns2::bind::*;
use crate::objs::{DelayLink, DynLink};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::ns2::tclcl::VarType::*;

fn link(o: &mut Obj) -> Option<&mut DelayLink> {
    match o {
        Obj::Link(l) => Some(l),
        _ => None,
    }
}

fn dynamic(o: &mut Obj) -> Option<&mut DynLink> {
    match o {
        Obj::Dynamic(d) => Some(d),
        _ => None,
    }
}

/// `DelayLink`'s (link/delay.cc `LinkDelay::LinkDelay`), with their
/// declared ranges.
pub static DELAY_LINK: Table<DelayLink> = Table {
    class: "DelayLink",
    part: link,
    vars: &[
        // ns-2 divides the packet's bits by it (LinkDelay::txtime); with
        // floating-point traps on, 0 or an infinite one is a floating-point
        // exception, and a bit time that is infinite never delivers
        within(var("bandwidth_", Bandwidth, "1.5Mb", |l, _| real(l.bandwidth), |l, v, _| Ok(l.set_bandwidth(parse_bw(v)))),
            Range::Bandwidth, "ns-2 divides by it (a floating-point exception on 0 or an infinite one); a bit time that is infinite never delivers a packet"),
        within(var("delay_", Time, "100ms", |l, _| real(l.delay), |l, v, _| Ok(l.delay = parse_time(v))),
            Range::NonNegativeTime, "a packet arrives this long after it is sent: a negative delay schedules into the past, an infinite one is a floating-point exception in ns-2"),
        var("avoidReordering_", Bool, "false", |l, _| boolean(l.avoid_reordering), |l, v, _| {
            Ok(l.avoid_reordering = parse_bool(v))
        }),
        debug(),
    ],
    after_set: None,
};

/// `DynamicLink`'s (link/dynalink.cc `DynamicLink::DynamicLink`: `status_`,
/// nonzero while up).
pub static DYNAMIC_LINK: Table<DynLink> = Table {
    class: "DynamicLink",
    part: dynamic,
    vars: &[var("status_", Int, "1", |d, _| int(d.status), |d, v, _| Ok(d.status = parse_int(v))), debug()],
    after_set: None,
};

/// Its delay line (a pipe of the scheduler).
pub fn make_delay_link(sim: &mut Sim, _: ObjId) -> Obj {
    let pipe = sim.w.s.new_pipe();
    Obj::Link(DelayLink::new(pipe))
}

pub fn make_dynamic_link(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Dynamic(DynLink::default())
}
