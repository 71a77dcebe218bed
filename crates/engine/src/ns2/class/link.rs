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

/// `DelayLink`'s (link/delay.cc `LinkDelay::LinkDelay`).  A bandwidth of
/// zero or less, or a negative delay, is refused (ns-2 would divide by it,
/// or schedule into the past).
pub static DELAY_LINK: Table<DelayLink> = Table {
    class: "DelayLink",
    part: link,
    vars: &[
        var("bandwidth_", Bandwidth, "1.5Mb", |l, _| real(l.bandwidth), |l, v, _| {
            let bw = parse_bw(v);
            // Positive, and a bit takes a finite time to send (1e999Mb is
            // infinite, 1e-320Mb makes every transmission time infinite).
            if !(bw > 0.0 && (8.0 / bw).is_finite() && bw.is_finite()) {
                return Err(format!("bandwidth_ must be a positive, finite number of bits per second whose inverse is finite too, got \"{v}\" ({} b/s)", crate::ns2::printf::format_g(bw, 6)));
            }
            Ok(l.set_bandwidth(bw))
        }),
        var("delay_", Time, "100ms", |l, _| real(l.delay), |l, v, _| {
            let d = parse_time(v);
            if !(d >= 0.0 && d.is_finite()) {
                return Err(format!("delay_ must be a finite, non-negative time, got \"{v}\" ({d} s)"));
            }
            Ok(l.delay = d)
        }),
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
