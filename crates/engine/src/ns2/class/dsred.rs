//! `Queue/dsRED`, `Queue/dsRED/edge`, `Queue/dsRED/core` (diffserv/dsred.cc,
//! dsEdge.cc, dsCore.cc): the DiffServ queue (qdisc/dsred.rs).  Its two
//! bound variables; everything else is set by commands (ns2/dsred.rs).

use super::queue::queue;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::DsRed;
use crate::sim::Obj;

fn dsred(o: &mut Obj) -> Option<&mut DsRed> {
    queue(o)?.disc.get_mut::<DsRed>()
}

pub static DSRED: Table<DsRed> = Table {
    class: "Queue/dsRED",
    part: dsred,
    vars: &[
        within(var("numQueues_", Int, "4", |d, _| int(d.num_queues), |d, v, _| Ok(d.num_queues = parse_int(v))),
            Range::OneOf(&[1, 2, 3, 4, 5, 6, 7, 8], "1 to 8 (MAX_QUEUES)"),
            "the physical queues in use: ns-2 has 8, and divides by the number (0 crashes it)"),
        var("ecn_", Bool, "0", |d, _| boolean(d.ecn), |d, v, _| Ok(d.ecn = parse_bool(v))),
    ],
    after_set: None,
};
