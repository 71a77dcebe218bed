//! The error models: `ErrorModule` (queue/errmodel.cc), `ErrorModel`,
//! `ErrorModel/Periodic` and `ErrorModel/List` (queue/errmodel.cc), and the
//! hash classifiers an error module sorts packets with,
//! `Classifier/Hash/Fid`, `/Dest`, `/SrcDest`, `/SrcDestFid`
//! (classifier/classifier-hash.cc).

use crate::errmodel::{ErrorModel, HashClassifier, HashKey, Pattern, Periodic};
use crate::ns2::bind::*;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::ns2::tclcl::VarType::*;

fn model(o: &mut Obj) -> Option<&mut ErrorModel> {
    match o {
        Obj::ErrModel(em) => Some(em),
        _ => None,
    }
}

/// A periodic model's pattern.
fn periodic(o: &mut Obj) -> Option<&mut Periodic> {
    match &mut model(o)?.pattern {
        Pattern::Periodic(p) => Some(p),
        _ => None,
    }
}

fn hash(o: &mut Obj) -> Option<&mut HashClassifier> {
    match o {
        Obj::HashClassifier(c) => Some(c),
        _ => None,
    }
}

/// `ErrorModule`'s (a connector's `debug_`).
pub static ERROR_MODULE: Table<Obj> = debug_only("ErrorModule");

/// `ErrorModel`'s (queue/errmodel.cc `ErrorModel::ErrorModel`).
pub static ERROR_MODEL: Table<ErrorModel> = Table {
    class: "ErrorModel",
    part: model,
    vars: &[
        var("enable_", Int, "1", |e, _| int(e.enable), |e, v, _| Ok(e.enable = parse_int(v))),
        // Run side by side with ns-2 (0, -1, NaN, Inf, -Inf, 1e300, 2^31,
        // abc, 0.5, 1.5; pkt, byte and time units; the model before the
        // queue, after the link, and between the queue and the link):
        // identical traces where ns-2 runs; refused where it crashes.
        within(var("rate_", Real, "0", |e, _| real(e.rate), |e, v, _| Ok(e.rate = parse_real(v))),
            Range::NotNan, "the loss rate a draw is compared with: ns-2 compares a NaN one and dies of a floating-point exception (any other value runs: 0 or less drops nothing, 1 or more everything)"),
        within(var("delay_", Real, "0", |e, _| real(e.delay), |e, v, _| Ok(e.delay = parse_real(v))),
            Range::NotNan, "how long a corrupted packet is held (delay_pkt_): ns-2 schedules it NaN seconds on and dies of a floating-point exception (a negative or infinite delay is refused when a packet is delayed, where ns-2 fails)"),
        // Refused where it is used (a packet dropped after a queue): unused,
        // ns-2 runs with any value.
        var("bandwidth_", Bandwidth, "2Mb", |e, _| real(e.bandwidth), |e, v, _| Ok(e.bandwidth = parse_bw(v))),
        var("markecn_", Bool, "false", |e, _| boolean(e.markecn), |e, v, _| Ok(e.markecn = parse_bool(v))),
        var("delay_pkt_", Bool, "false", |e, _| boolean(e.delay_pkt), |e, v, _| Ok(e.delay_pkt = parse_bool(v))),
        debug(),
    ],
    after_set: None,
};


/// `ErrorModel/Periodic`'s (queue/errmodel.cc
/// `PeriodicErrorModel::PeriodicErrorModel`).
pub static PERIODIC: Table<Periodic> = Table {
    class: "ErrorModel/Periodic",
    part: periodic,
    vars: &[
        within(var("period_", Real, "1.0", |p, _| real(p.period), |p, v, _| Ok(p.period = parse_real(v))),
            Range::NotNan, "the length of a period, in the model's unit: ns-2 compares a NaN one (a floating-point exception); in packets or bytes it must also be a C int (checked when it is used)"),
        within(var("offset_", Real, "0.0", |p, _| real(p.offset), |p, v, _| Ok(p.offset = parse_real(v))),
            Range::NotNan, "where the first period starts, in the model's unit: ns-2 compares a NaN one (a floating-point exception); in packets or bytes it must also be a C int (checked when it is used)"),
        within(var("burstlen_", Real, "0.0", |p, _| real(p.burstlen), |p, v, _| Ok(p.burstlen = parse_real(v))),
            Range::NotNan, "the length of a loss burst: ns-2 compares a NaN one (a floating-point exception)"),
        var("default_drop_", Int, "0", |p, _| int(p.default_drop), |p, v, _| {
            Ok(p.default_drop = parse_int(v))
        }),
    ],
    after_set: None,
};

/// A field of the packet address the hash ignores: it keys on whole
/// addresses, so only the default (0) goes without a warning.
fn ignored_field(name: &str, v: &str, w: &mut crate::sim::World) -> Result<(), String> {
    if parse_int(v) != 0 {
        w.warn_once(format!("hash classifiers ignore {name} (Dumbbell keys on the whole address)"));
    }
    Ok(())
}

/// `Classifier`'s address fields (classifier/classifier.cc
/// `Classifier::Classifier`), defaults set on `Classifier`: only the hash
/// classifiers bind them here (misc.rs `CLASSIFIER` is `Classifier`'s
/// `debug_`).
pub static CLASSIFIER_FIELDS: Table<HashClassifier> = Table {
    class: "Classifier",
    part: hash,
    vars: &[
        var("offset_", Int, "0", |_, _| int(0), |_, v, w| ignored_field("offset_", v, w)),
        var("shift_", Int, "0", |c, _| int(c.shift), |c, v, _| Ok(c.shift = parse_int(v))),
        var("mask_", Int, "0xffffffff", |c, _| int(c.mask), |c, v, _| Ok(c.mask = parse_int(v))),
    ],
    after_set: None,
};

/// `Classifier/Hash`'s (classifier/classifier-hash.cc
/// `HashClassifier::HashClassifier`: `default_`, the slot of packets no
/// entry matches).
pub static HASH: Table<HashClassifier> = Table {
    class: "Classifier/Hash",
    part: hash,
    vars: &[var("default_", Int, "-1", |c, _| int(c.default_slot), |c, v, _| Ok(c.default_slot = parse_int(v)))],
    after_set: None,
};

pub fn make_error_module(_: &mut Sim, _: ObjId) -> Obj {
    Obj::ErrModule { classifier: NONE, target: NONE, drop_target: NONE }
}

pub fn make_error_model(_: &mut Sim, _: ObjId) -> Obj {
    Obj::ErrModel(Box::new(ErrorModel::new(Pattern::Uniform)))
}

pub fn make_periodic(_: &mut Sim, _: ObjId) -> Obj {
    Obj::ErrModel(Box::new(ErrorModel::periodic()))
}

pub fn make_list(_: &mut Sim, _: ObjId) -> Obj {
    Obj::ErrModel(Box::new(ErrorModel::list()))
}

fn hash_classifier(key: HashKey) -> Obj {
    Obj::HashClassifier(Box::new(HashClassifier::new(key)))
}

pub fn make_hash_fid(_: &mut Sim, _: ObjId) -> Obj {
    hash_classifier(HashKey::Fid)
}

pub fn make_hash_dest(_: &mut Sim, _: ObjId) -> Obj {
    hash_classifier(HashKey::Dest)
}

pub fn make_hash_src_dest(_: &mut Sim, _: ObjId) -> Obj {
    hash_classifier(HashKey::SrcDest)
}

pub fn make_hash_src_dest_fid(_: &mut Sim, _: ObjId) -> Obj {
    hash_classifier(HashKey::SrcDestFid)
}
