//! ns-2's schedulers and AQMs beside RED: `Queue/DRR` (queue/drr.cc),
//! `Queue/SFQ` (queue/sfq.cc), `Queue/Vq` (queue/vq.cc), `Queue/GK`
//! (queue/gk.cc).  Their commands
//! (`blimit`, `buckets`, `quantum`, `mask`, `limit`; `link`, `attach`,
//! `trace`) are in ns2/fairq.rs.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{Drr, Gk, Sfq, Vq};
use crate::sim::Obj;

fn drr(o: &mut Obj) -> Option<&mut Drr> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Drr>(),
        _ => None,
    }
}

fn sfq(o: &mut Obj) -> Option<&mut Sfq> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Sfq>(),
        _ => None,
    }
}

/// An `int` above zero, for the commands that set what the variables do
/// (`$q buckets N`): refused as the declared range `Range::PositiveInt`.
pub(crate) fn above_zero(name: &str, v: &str) -> Result<i32, String> {
    Range::PositiveInt.check(name, v).map(|_| parse_int(v))
}

/// An `int` of zero or more (`$q blimit N`), as `Range::NonNegativeInt`.
pub(crate) fn zero_or_more(name: &str, v: &str) -> Result<i32, String> {
    Range::NonNegativeInt.check(name, v).map(|_| parse_int(v))
}

/// `Queue/DRR`: ns-default.tcl's defaults.  `buckets_` takes effect when
/// the flow table is made (the first arrival) or remade (`$q buckets N`).
pub static DRR: Table<Drr> = Table {
    class: "Queue/DRR",
    part: drr,
    vars: &[
        within(var("buckets_", Int, "10", |d, _| int(d.buckets), |d, v, _| Ok(d.buckets = parse_int(v))),
            Range::PositiveInt, "the flow table's size: ns-2 hashes modulo it (0: a division by zero)"),
        within(var("blimit_", Int, "25000", |d, _| int(d.blimit), |d, v, _| Ok(d.blimit = parse_int(v))),
            Range::NonNegativeInt, "the shared buffer in bytes: a negative one crashes ns-2's DRR (it drops from an empty queue)"),
        within(var("quantum_", Int, "250", |d, _| int(d.quantum), |d, v, _| Ok(d.quantum = parse_int(v))),
            Range::PositiveInt, "a flow's credit per round: with 0 or less ns-2's dequeue loops for ever"),
        var("mask_", Int, "0", |d, _| int(d.mask), |d, v, _| Ok(d.mask = parse_int(v))),
    ],
    after_set: None,
};

/// `Queue/SFQ`: at most `maxqueue_` packets (the queue's `limit_` is not
/// used) in `buckets_` buckets, both taking effect when the buckets are
/// made (the first packet event).
pub static SFQ: Table<Sfq> = Table {
    class: "Queue/SFQ",
    part: sfq,
    vars: &[
        var("maxqueue_", Int, "40", |s, _| int(s.maxqueue), |s, v, _| Ok(s.maxqueue = parse_int(v))),
        within(var("buckets_", Int, "16", |s, _| int(s.buckets), |s, v, _| Ok(s.buckets = parse_int(v))),
            Range::PositiveInt, "the number of buckets: ns-2 hashes modulo it (0: a division by zero)"),
    ],
    after_set: None,
};

fn vq(o: &mut Obj) -> Option<&mut Vq> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Vq>(),
        _ => None,
    }
}

/// `Queue/Vq` (queue/vq.cc): ns-default.tcl's defaults (lengths in bytes).
/// `curq_` is the real queue's length after the last packet event.
pub static VQ: Table<Vq> = Table {
    class: "Queue/Vq",
    part: vq,
    vars: &[
        var("drop_front_", Bool, "0", |v, _| boolean(v.drop_front), |v, x, _| Ok(v.drop_front = parse_bool(x))),
        within(var("ecnlim_", Real, "0.8", |v, _| real(v.ecnlim), |v, x, _| Ok(v.ecnlim = parse_real(x))),
            Range::Finite, "a share of the virtual capacity: infinite or NaN makes the virtual queue's bound NaN"),
        within(var("buflim_", Real, "1.0", |v, _| real(v.buflim), |v, x, _| Ok(v.buflim = parse_real(x))),
            Range::Finite, "a share of the buffer: infinite or NaN makes the virtual queue's bound NaN"),
        var("queue_in_bytes_", Bool, "true", |v, _| boolean(v.in_bytes), |v, x, _| Ok(v.in_bytes = parse_bool(x))),
        within(var("gamma_", Real, "0.98", |v, _| real(v.gamma), |v, x, _| Ok(v.gamma = parse_real(x))),
            Range::Finite, "the virtual link's share of the real one: infinite or NaN makes the virtual capacity NaN"),
        var("markpkts_", Bool, "false", |v, _| boolean(v.markpkts), |v, x, _| Ok(v.markpkts = parse_bool(x))),
        var("markfront_", Bool, "0", |v, _| boolean(v.markfront), |v, x, _| Ok(v.markfront = parse_bool(x))),
        within(var("mean_pktsize_", Int, "1000", |v, _| int(v.mean_pktsize), |v, x, _| Ok(v.mean_pktsize = parse_int(x))),
            Range::PositiveInt, "the packet mode divides the link rate by it"),
        var("curq_", Int, "0", |v, _| int(v.curq), |_, _, _| Ok(())),
    ],
    after_set: None,
};

fn gk(o: &mut Obj) -> Option<&mut Gk> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Gk>(),
        _ => None,
    }
}

/// `Queue/GK` (queue/gk.cc): ns-default.tcl's defaults.  `mean_pktsize_`
/// counts the link rate in packets when the queue learns of its link;
/// `curq_` is the real queue's length after the last arrival.
pub static GK: Table<Gk> = Table {
    class: "Queue/GK",
    part: gk,
    vars: &[
        var("drop_front_", Bool, "0", |g, _| boolean(g.drop_front), |g, x, _| Ok(g.drop_front = parse_bool(x))),
        within(var("ecnlim_", Real, "0.95", |g, _| real(g.ecnlim), |g, x, _| Ok(g.ecnlim = parse_real(x))),
            Range::Finite, "a share of the link's capacity: infinite or NaN makes the marking threshold NaN"),
        within(var("mean_pktsize_", Int, "1000", |g, _| int(g.mean_pktsize), |g, x, _| Ok(g.mean_pktsize = parse_int(x))),
            Range::PositiveInt, "the link rate is counted in packets of this size (a division)"),
        var("curq_", Int, "0", |g, _| int(g.curq), |_, _, _| Ok(())),
    ],
    after_set: None,
};
