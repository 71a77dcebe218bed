//! `Queue/CBQ` and `Queue/CBQ/WRR` (queue/cbq.cc `CBQueue`, `WRR_CBQueue`):
//! class-based queueing, qdisc/cbq.rs.  Their classes (`CBQClass`) are
//! objects of the Tcl library (lib/cbq.tcl), handed to the scheduler when
//! inserted; the commands are in ns2/cbq.rs.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::Cbq;
use crate::sim::Obj;

fn cbq(o: &mut Obj) -> Option<&mut Cbq> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Cbq>(),
        _ => None,
    }
}

/// `maxpkt_`: WRR's bytes per round are counted in it (ns-default.tcl's
/// 1024); it takes effect at the next insertion or allotment change.
pub static CBQ: Table<Cbq> = Table {
    class: "Queue/CBQ",
    part: cbq,
    vars: &[var("maxpkt_", Int, "1024", |c, _| int(c.maxpkt), |c, v, _| Ok(c.maxpkt = parse_int(v)))],
    after_set: None,
};
