//! The bound variables of Dumbbell's modern AQM classes (ns-2 2.35 has
//! none of them): `Queue/COBALT`, `Queue/FQ_CoDel`, `Queue/FQ_PIE`,
//! `Queue/FQ_COBALT`.  Names
//! follow the other AQM classes' (`Queue/CoDel`, `Queue/PIE`,
//! `Queue/FQ_CoDel`: `target_`, `interval_`, `setbit_` for `UseEcn`,
//! `ce_threshold_` off when negative, PIE's ns-2.36 names), ns-3's other
//! attributes in ns-2 style.  An FQ class's flow-queue parameters are those
//! every new flow queue starts with (ns-3 sets them when it makes the
//! queue): set them before traffic starts.

use super::queue::{non_negative, non_negative_time, positive_int, positive_time, probability, queue, secs, ways_divide};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{Cobalt, FqCoDel, FqCobalt, FqPie, Queue};
use crate::sim::Obj;

fn cobalt(o: &mut Obj) -> Option<&mut Cobalt> {
    queue(o)?.disc.get_mut::<Cobalt>()
}

fn fq_codel(o: &mut Obj) -> Option<&mut FqCoDel> {
    queue(o)?.disc.get_mut::<FqCoDel>()
}

fn fq_pie(o: &mut Obj) -> Option<&mut FqPie> {
    queue(o)?.disc.get_mut::<FqPie>()
}

fn fq_cobalt(o: &mut Obj) -> Option<&mut FqCobalt> {
    queue(o)?.disc.get_mut::<FqCobalt>()
}

/// A time of 1 ns or more.
fn positive_ns(name: &str, v: &str) -> Result<i64, String> {
    match non_negative_time(name, v)? {
        0 => Err(format!("{name} must be a time of 1 ns or more, got \"{v}\"")),
        t => Ok(t),
    }
}

/// A time, or off (`None`) when negative.
fn time_or_off(name: &str, v: &str) -> Result<Option<i64>, String> {
    if crate::ns2::tclcl::parse_time(v) < 0.0 {
        Ok(None)
    } else {
        non_negative_time(name, v).map(Some)
    }
}

fn off_or_secs(t: Option<i64>) -> String {
    real(t.map_or(-1.0, secs))
}

/// The capacity variables of the ns-3-style queues (COBALT, DualPI2,
/// StepMark): `queue_in_bytes_`, and `mean_pktsize_` (1500), the bytes a
/// packet of `limit_` counts for in byte mode.
pub(super) static BYTE_CAPACITY: [Var<Queue>; 2] = [
    var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
    within(var("mean_pktsize_", Int, "1500", |q, _| int(q.cap.mean_pktsize), |q, v, _| positive_int("mean_pktsize_", v).map(|m| q.cap.mean_pktsize = m)),
        Range::PositiveInt, "a byte capacity is counted in it"),
];

/// COBALT's capacity: the queue's `limit_` in packets, or, with
/// `queue_in_bytes_`, `limit_` packets of `mean_pktsize_` bytes (1500, so
/// that `limit_` 1000 is ns-3's default of 1500000 bytes).
pub static COBALT_QUEUE: Table<Queue> = Table {
    class: "Queue/COBALT",
    part: queue,
    vars: &BYTE_CAPACITY,
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/COBALT`: COBALT as ns-3.37's `CobaltQueueDisc` (qdisc/cobalt.rs),
/// with its defaults: `target_`, `interval_`, `setbit_` (`UseEcn`, off),
/// `ce_threshold_` (off when negative), `use_l4s_` (`UseL4s`), `pdrop_` (`Pdrop`: BLUE's
/// probability, traced), `increment_`, `decrement_`, `blue_threshold_`
/// (`BlueThreshold`, off when negative); `curq_` is the bytes held.
pub static COBALT: Table<Cobalt> = Table {
    class: "Queue/COBALT",
    part: cobalt,
    vars: &[
        within(var("target_", Time, ".005", |q, _| real(secs(q.target)), |q, v, _| positive_ns("target_", v).map(|t| q.target = t)),
            Range::AtLeastNanosecond, "a target of 0 marks every packet late (RFC 8289); an engine that counts time in nanoseconds needs at least one to step"),
        within(var("interval_", Time, "0.1", |q, _| real(secs(q.interval)), |q, v, _| positive_ns("interval_", v).map(|t| q.interval = t)),
            Range::AtLeastNanosecond, "CoDel's control law divides by its square root; an engine that counts time in nanoseconds needs at least one to step"),
        var("setbit_", Bool, "false", |q, _| boolean(q.use_ecn), |q, v, _| Ok(q.use_ecn = parse_bool(v))),
        var("ce_threshold_", Time, "-1", |q, _| off_or_secs(q.ce_threshold), |q, v, _| time_or_off("ce_threshold_", v).map(|t| q.ce_threshold = t)),
        var("use_l4s_", Bool, "false", |q, _| boolean(q.use_l4s), |q, v, _| Ok(q.use_l4s = parse_bool(v))),
        within(var("pdrop_", Real, "0", |q, _| real(q.p_drop), |q, v, _| probability("pdrop_", v).map(|x| q.p_drop = x)),
            Range::Probability, "a probability"),
        within(var("increment_", Real, "0.00390625", |q, _| real(q.increment), |q, v, _| probability("increment_", v).map(|x| q.increment = x)),
            Range::Probability, "a step of a probability"),
        within(var("decrement_", Real, "0.000244140625", |q, _| real(q.decrement), |q, v, _| probability("decrement_", v).map(|x| q.decrement = x)),
            Range::Probability, "a step of a probability"),
        var("blue_threshold_", Time, "0.4", |q, _| off_or_secs(q.blue_threshold), |q, v, _| time_or_off("blue_threshold_", v).map(|t| q.blue_threshold = t)),
        var("curq_", Int, "0", |q, _| int(q.fifo.bytes() as i32), |_, _, _| Ok(())),
    ],
    after_set: None,
};

/// The flow-queue scheduler's variables (FQ-CoDel's names) and `curq_`,
/// the tail of the FQ classes' tables: the same
/// fields of `Fq<A>` whatever the flow queue's AQM.
macro_rules! fq_scheduler_vars {
    ($($aqm:expr),* $(,)?) => {
        &[
            $($aqm,)*
            within(var("flows_", Int, "1024", |q, _| int(q.flows as i32), |q, v, _| {
                let n = positive_int("flows_", v)? as u32;
                ways_divide(q.set_associative_hash, n, q.set_ways, "flows_", v)?;
                q.flows = n;
                Ok(())
            }),
                Range::PositiveInt, "the number of flow queues: packets are hashed modulo it"),
            within(var("quantum_", Int, "1500", |q, _| int(q.quantum as i32), |q, v, _| positive_int("quantum_", v).map(|n| q.quantum = n as u32)),
                Range::PositiveInt, "a flow queue's credit per round (RFC 8290): with none, no flow queue ever gets to send"),
            within(var("drop_batch_size_", Int, "64", |q, _| int(q.drop_batch_size as i32), |q, v, _| positive_int("drop_batch_size_", v).map(|n| q.drop_batch_size = n as u32)),
                Range::PositiveInt, "an overflow must drop at least one packet (RFC 8290)"),
            within(var("perturbation_", Int, "0", |q, _| int(q.perturbation as i32), |q, v, _| non_negative("perturbation_", v).map(|n| q.perturbation = n)),
                Range::NonNegativeInt, "the hash's salt, an unsigned number"),
            var("set_associative_hash_", Bool, "false", |q, _| boolean(q.set_associative_hash), |q, v, _| {
                let on = parse_bool(v);
                ways_divide(on, q.flows, q.set_ways, "set_associative_hash_", v)?;
                q.set_associative_hash = on;
                Ok(())
            }),
            within(var("set_ways_", Int, "8", |q, _| int(q.set_ways as i32), |q, v, _| {
                let n = positive_int("set_ways_", v)? as u32;
                ways_divide(q.set_associative_hash, q.flows, n, "set_ways_", v)?;
                q.set_ways = n;
                Ok(())
            }),
                Range::PositiveInt, "the size of a set of the set-associative hash"),
            var("curq_", Int, "0", |q, _| int(q.bytes() as i32), |_, _, _| Ok(())),
        ]
    };
}

/// `Queue/FQ_CoDel`: FQ-CoDel as ns-3.37's `FqCoDelQueueDisc` (qdisc/fq.rs
/// over qdisc/codel.rs), with ns-3's defaults (ECN on) and a 1500-byte
/// quantum (ns-3's device MTU).  The flow queues' CoDel parameters take
/// `Queue/CoDel`'s names (`target_`, `interval_`, `setbit_` for `UseEcn`,
/// `ce_threshold_`, off when negative, `use_l4s_` for `UseL4s`), the others
/// ns-3's attributes in ns-2 style: `flows_`, `quantum_`,
/// `drop_batch_size_`, `perturbation_`, `set_associative_hash_`
/// (`EnableSetAssociativeHash`), `set_ways_`.  The capacity is the queue's
/// `limit_`, in packets over all flow queues; `curq_` is the bytes held.
pub static FQ_CODEL: Table<FqCoDel> = Table {
    class: "Queue/FQ_CoDel",
    part: fq_codel,
    vars: fq_scheduler_vars![
        within(var("target_", Time, ".005", |q, _| real(q.aqm.target), |q, v, _| positive_time("target_", v).map(|t| q.aqm.target = t)),
            Range::PositiveTime, "a target of 0 or less marks every packet late (RFC 8289)"),
        within(var("interval_", Time, "0.1", |q, _| real(q.aqm.interval), |q, v, _| positive_time("interval_", v).map(|t| q.aqm.interval = t)),
            Range::PositiveTime, "CoDel's control law divides by its square root; 0 makes every packet late at once"),
        var("setbit_", Bool, "true", |q, _| boolean(q.aqm.use_ecn), |q, v, _| Ok(q.aqm.use_ecn = parse_bool(v))),
        var(
            "ce_threshold_",
            Time,
            "-1",
            |q, _| real(q.aqm.ce_threshold.unwrap_or(-1.0)),
            |q, v, _| Ok(q.aqm.ce_threshold = Some(parse_time(v)).filter(|t| *t >= 0.0)),
        ),
        var("use_l4s_", Bool, "false", |q, _| boolean(q.aqm.use_l4s), |q, v, _| Ok(q.aqm.use_l4s = parse_bool(v))),
    ],
    after_set: None,
};

/// `Queue/FQ_PIE`: FQ-PIE as ns-3.37's `FqPieQueueDisc` (qdisc/fq.rs over
/// qdisc/pie.rs), with its defaults (ECN on, a 1500-byte quantum).  The
/// flow queues' PIE takes `Queue/PIE`'s names; `mark_p_` applies to them
/// here (ns-3.37 has the attribute but does not pass it on: its flow
/// queues keep 0.1, the default); `ce_threshold_` and `use_l4s_` (ns-3's
/// `CeThreshold` and `UseL4s`, passed on) as `Queue/PIE`'s.  The
/// scheduler's take `Queue/FQ_CoDel`'s.
/// The capacity is the queue's `limit_`, in packets over all flow queues.
pub static FQ_PIE: Table<FqPie> = Table {
    class: "Queue/FQ_PIE",
    part: fq_pie,
    vars: fq_scheduler_vars![
        within(var("a_", Real, "0.125", |q, _| real(q.aqm.a), |q, v, _| finite("a_", v).map(|x| q.aqm.a = x)),
            Range::Finite, "an infinite or NaN gain makes the drop probability NaN (RFC 8033)"),
        within(var("b_", Real, "1.25", |q, _| real(q.aqm.b), |q, v, _| finite("b_", v).map(|x| q.aqm.b = x)),
            Range::Finite, "an infinite or NaN gain makes the drop probability NaN (RFC 8033)"),
        within(var("tUpdate_", Time, "0.015", |q, _| real(secs(q.aqm.t_update)), |q, v, _| positive_ns("tUpdate_", v).map(|t| q.aqm.t_update = t)),
            Range::AtLeastNanosecond, "the time between updates of the drop probability: 0 updates without end at one instant"),
        within(var("qdelay_ref_", Time, "0.015", |q, _| real(secs(q.aqm.qdelay_ref)), |q, v, _| non_negative_time("qdelay_ref_", v).map(|t| q.aqm.qdelay_ref = t)),
            Range::NonNegativeTime, "the queueing delay PIE steers to (RFC 8033): a negative one is no delay"),
        within(var("burst_allowance_", Time, "0.15", |q, _| real(secs(q.aqm.max_burst)), |q, v, _| non_negative_time("burst_allowance_", v).map(|t| q.aqm.max_burst = t)),
            Range::NonNegativeTime, "a length of time (RFC 8033)"),
        within(var("dq_threshold_", Int, "16384", |q, _| int(q.aqm.dq_threshold as i32), |q, v, _| non_negative("dq_threshold_", v).map(|n| q.aqm.dq_threshold = n)),
            Range::NonNegativeInt, "a number of bytes (the departure-rate estimator's sample)"),
        var("use_dq_rate_estimator_", Bool, "false", |q, _| boolean(q.aqm.use_dq_rate_estimator), |q, v, _| Ok(q.aqm.use_dq_rate_estimator = parse_bool(v))),
        var("cap_drop_adjustment_", Bool, "true", |q, _| boolean(q.aqm.cap_drop_adjustment), |q, v, _| Ok(q.aqm.cap_drop_adjustment = parse_bool(v))),
        var("setbit_", Bool, "true", |q, _| boolean(q.aqm.use_ecn), |q, v, _| Ok(q.aqm.use_ecn = parse_bool(v))),
        within(var("mark_p_", Real, "0.1", |q, _| real(q.aqm.mark_ecn_th), |q, v, _| probability("mark_p_", v).map(|x| q.aqm.mark_ecn_th = x)),
            Range::Probability, "a probability"),
        var("derandomize_", Bool, "false", |q, _| boolean(q.aqm.use_derandomization), |q, v, _| Ok(q.aqm.use_derandomization = parse_bool(v))),
        var("ce_threshold_", Time, "-1", |q, _| off_or_secs(q.aqm.ce_threshold), |q, v, _| time_or_off("ce_threshold_", v).map(|t| q.aqm.ce_threshold = t)),
        var("use_l4s_", Bool, "false", |q, _| boolean(q.aqm.use_l4s), |q, v, _| Ok(q.aqm.use_l4s = parse_bool(v))),
    ],
    after_set: None,
};

/// `Queue/FQ_COBALT`: FQ-COBALT as ns-3.37's `FqCobaltQueueDisc` (qdisc/fq.rs
/// over qdisc/cobalt.rs), with its defaults (ECN on, a 1500-byte quantum).
/// The flow queues' COBALT takes `Queue/COBALT`'s names, the scheduler's
/// `Queue/FQ_CoDel`'s; the capacity is the queue's `limit_`, in packets over
/// all flow queues.
pub static FQ_COBALT: Table<FqCobalt> = Table {
    class: "Queue/FQ_COBALT",
    part: fq_cobalt,
    vars: fq_scheduler_vars![
        within(var("target_", Time, ".005", |q, _| real(secs(q.aqm.target)), |q, v, _| positive_ns("target_", v).map(|t| q.aqm.target = t)),
            Range::AtLeastNanosecond, "a target of 0 marks every packet late (RFC 8289); an engine that counts time in nanoseconds needs at least one to step"),
        within(var("interval_", Time, "0.1", |q, _| real(secs(q.aqm.interval)), |q, v, _| positive_ns("interval_", v).map(|t| q.aqm.interval = t)),
            Range::AtLeastNanosecond, "CoDel's control law divides by its square root; an engine that counts time in nanoseconds needs at least one to step"),
        var("setbit_", Bool, "true", |q, _| boolean(q.aqm.use_ecn), |q, v, _| Ok(q.aqm.use_ecn = parse_bool(v))),
        var("ce_threshold_", Time, "-1", |q, _| off_or_secs(q.aqm.ce_threshold), |q, v, _| time_or_off("ce_threshold_", v).map(|t| q.aqm.ce_threshold = t)),
        var("use_l4s_", Bool, "false", |q, _| boolean(q.aqm.use_l4s), |q, v, _| Ok(q.aqm.use_l4s = parse_bool(v))),
        within(var("pdrop_", Real, "0", |q, _| real(q.aqm.p_drop), |q, v, _| probability("pdrop_", v).map(|x| q.aqm.p_drop = x)),
            Range::Probability, "a probability"),
        within(var("increment_", Real, "0.00390625", |q, _| real(q.aqm.increment), |q, v, _| probability("increment_", v).map(|x| q.aqm.increment = x)),
            Range::Probability, "a step of a probability"),
        within(var("decrement_", Real, "0.000244140625", |q, _| real(q.aqm.decrement), |q, v, _| probability("decrement_", v).map(|x| q.aqm.decrement = x)),
            Range::Probability, "a step of a probability"),
        var("blue_threshold_", Time, "0.4", |q, _| off_or_secs(q.aqm.blue_threshold), |q, v, _| time_or_off("blue_threshold_", v).map(|t| q.aqm.blue_threshold = t)),
    ],
    after_set: None,
};
