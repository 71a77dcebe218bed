//! The round-robin schedulers' classes: `Queue/DRR` (queue/drr.cc) and
//! `Queue/SFQ` (queue/sfq.cc).  Their commands (`blimit`, `buckets`,
//! `quantum`, `mask`, `limit`) are in ns2/fairq.rs.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{Drr, Sfq};
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

/// An `int` above zero (a bucket count of zero divides by zero in ns-2, a
/// quantum of zero or less makes its dequeue loop for ever).
pub(crate) fn above_zero(name: &str, v: &str) -> Result<i32, String> {
    let n = parse_int(v);
    if n > 0 {
        Ok(n)
    } else {
        Err(format!("{name} must be a positive integer, got \"{v}\""))
    }
}

/// An `int` of zero or more (a negative byte limit crashes ns-2's DRR).
pub(crate) fn zero_or_more(name: &str, v: &str) -> Result<i32, String> {
    let n = parse_int(v);
    if n >= 0 {
        Ok(n)
    } else {
        Err(format!("{name} must be zero or a positive integer, got \"{v}\""))
    }
}

/// `Queue/DRR`: ns-default.tcl's defaults.  `buckets_` takes effect when
/// the flow table is made (the first arrival) or remade (`$q buckets N`).
pub static DRR: Table<Drr> = Table {
    class: "Queue/DRR",
    part: drr,
    vars: &[
        var("buckets_", Int, "10", |d, _| int(d.buckets), |d, v, _| above_zero("buckets_", v).map(|n| d.buckets = n)),
        var("blimit_", Int, "25000", |d, _| int(d.blimit), |d, v, _| zero_or_more("blimit_", v).map(|n| d.blimit = n)),
        var("quantum_", Int, "250", |d, _| int(d.quantum), |d, v, _| above_zero("quantum_", v).map(|n| d.quantum = n)),
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
        var("buckets_", Int, "16", |s, _| int(s.buckets), |s, v, _| above_zero("buckets_", v).map(|n| s.buckets = n)),
    ],
    after_set: None,
};
