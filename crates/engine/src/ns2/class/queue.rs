//! The queue classes: `Queue` (queue/queue.cc), `Queue/DropTail`
//! (queue/drop-tail.cc), `Queue/RED` (queue/red.cc), `Queue/CoDel`,
//! `Queue/PIE`, `Queue/SCFQ` (`Queue/FQ_CoDel` is with the other FQ classes
//! in aqm.rs).

use crate::ns2::bind::*;
use crate::qdisc::{CoDel, Pie, Queue, Red};
use crate::sim::Obj;
use crate::ns2::tclcl::VarType::*;

pub(super) fn queue(o: &mut Obj) -> Option<&mut Queue> {
    match o {
        Obj::Queue(q) => Some(q),
        _ => None,
    }
}

/// The RED of a `Queue/RED` or of a `Queue/RED/RIO` (which inherits RED's
/// variables).
fn red(o: &mut Obj) -> Option<&mut Red> {
    queue(o)?.disc.red_mut()
}

fn codel(o: &mut Obj) -> Option<&mut CoDel> {
    queue(o)?.disc.get_mut::<CoDel>()
}

fn pie(o: &mut Obj) -> Option<&mut Pie> {
    queue(o)?.disc.get_mut::<Pie>()
}

/// `Queue`'s own (queue/queue.cc `Queue::Queue`).  Changing any of the
/// capacity's or statistics' variables may change whether packets can
/// pass an empty queue without entering it (`Queue::refresh_plain`).
pub static QUEUE: Table<Queue> = Table {
    class: "Queue",
    part: queue,
    vars: &[
        var("limit_", Int, "50", |q, _| int(q.cap.limit), |q, v, _| Ok(q.cap.limit = parse_int(v))),
        var("blocked_", Bool, "false", |q, w| boolean(q.blocked_now(w)), |q, v, _| Ok(q.blocked = parse_bool(v))),
        var("unblock_on_resume_", Bool, "true", |q, _| boolean(q.unblock_on_resume), |q, v, _| Ok(q.unblock_on_resume = parse_bool(v))),
        script_var("interleave_", "false"),
        script_var("acksfirst_", "false"),
        script_var("ackfromfront_", "false"),
        var("debug_", Bool, "false", |_, _| boolean(false), |_, _, _| Ok(())),
        var("util_weight_", Real, "0.8", |q, _| real(q.util_weight), |q, v, _| Ok(q.util_weight = parse_real(v))),
        var("util_check_intv_", Real, "0.2", |q, _| real(q.util_check_intv), |q, v, _| Ok(q.util_check_intv = parse_real(v))),
        var("util_records_", Int, "5", |q, _| int(q.util_records), |q, v, _| Ok(q.set_util_records(parse_int(v)))),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// DropTail's (`drop_front_`, `summarystats_`, `queue_in_bytes_`,
/// `mean_pktsize_`).
pub static DROPTAIL: Table<Queue> = Table {
    class: "Queue/DropTail",
    part: queue,
    vars: &[
        var("drop_front_", Bool, "false", |q, _| boolean(q.cap.drop_front), |q, v, _| Ok(q.cap.drop_front = parse_bool(v))),
        var("summarystats_", Bool, "false", |q, _| boolean(q.summarystats), |q, v, _| Ok(q.summarystats = parse_bool(v))),
        var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        var("mean_pktsize_", Int, "500", |q, _| int(q.cap.mean_pktsize), |q, v, _| Ok(q.cap.mean_pktsize = parse_int(v))),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// RED's variables over the queue (its capacity, drop-front and summary
/// statistics, with RED's own defaults).
pub static RED_QUEUE: Table<Queue> = Table {
    class: "Queue/RED",
    part: queue,
    vars: &[
        var("queue_in_bytes_", Bool, "true", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        within(var("mean_pktsize_", Int, "500", |q, _| int(q.cap.mean_pktsize), |q, v, _| Ok(q.cap.mean_pktsize = parse_int(v))),
            Range::PositiveBytes, "RED divides by it: ns-2 crashes on 0 (floating-point exception)"),
        var("drop_front_", Bool, "false", |q, _| boolean(q.cap.drop_front), |q, v, _| Ok(q.cap.drop_front = parse_bool(v))),
        var("summarystats_", Bool, "false", |q, _| boolean(q.summarystats), |q, v, _| Ok(q.summarystats = parse_bool(v))),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/SCFQ` (Dumbbell's own class: ns-2 2.35 has no SCFQ): the
/// queue's `limit_` (with `queue_in_bytes_` and `mean_pktsize_`) is the
/// capacity a class made by `add-class` starts with, a DropTail queue;
/// `$q class-queue ID $queue` gives a class another queue.  Commands in
/// ns2/commands.rs (`scfq_command`).
pub static SCFQ_QUEUE: Table<Queue> = Table {
    class: "Queue/SCFQ",
    part: queue,
    vars: &[
        var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        within(var("mean_pktsize_", Int, "500", |q, _| int(q.cap.mean_pktsize), |q, v, _| positive_int("mean_pktsize_", v).map(|m| q.cap.mean_pktsize = m)),
            Range::PositiveInt, "a class's byte capacity is counted in it (Dumbbell's own class)"),
        var("summarystats_", Bool, "false", |q, _| boolean(q.summarystats), |q, v, _| Ok(q.summarystats = parse_bool(v))),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// A traced double as tclcl reads it back (`TracedDouble::value`, `%g`).
fn traced(v: f64) -> String {
    crate::ns2::printf::format_g(v, 6)
}

/// RED's own (queue/red.cc `REDQueue::REDQueue`, ns-default.tcl), and the
/// seeds' variants (seed 001: ECNM, mark-front, AECN).  The traced
/// variables (`ave_`, `prob1_`, `curq_`, `cur_max_p_`) trace a change made
/// from Tcl as a change made by the queue.
pub static RED: Table<Red> = Table {
    class: "Queue/RED",
    part: red,
    vars: &[
        var("bytes_", Bool, "true", |r, _| boolean(r.bytes), |r, v, _| Ok(r.bytes = parse_bool(v))),
        var("thresh_", Real, "0", |r, _| real(r.th_min_pkts), |r, v, _| Ok(r.th_min_pkts = parse_real(v))),
        var("maxthresh_", Real, "0", |r, _| real(r.th_max_pkts), |r, v, _| Ok(r.th_max_pkts = parse_real(v))),
        Var {
            name: "thresh_queue_",
            ty: Real,
            default: ClassDefault::SameAs("Queue", "limit_"),
            access: Some(Access { get: |r, _| real(r.th_min), set: |r, v, _| Ok(r.th_min = parse_real(v)) }),
            range: Range::Any,
            why: "",
        },
        Var {
            name: "maxthresh_queue_",
            ty: Real,
            default: ClassDefault::SameAs("Queue", "limit_"),
            access: Some(Access { get: |r, _| real(r.th_max), set: |r, v, _| Ok(r.th_max = parse_real(v)) }),
            range: Range::Any,
            why: "",
        },
        var("idle_pktsize_", Int, "100", |r, _| int(r.idle_pktsize), |r, v, _| Ok(r.idle_pktsize = parse_int(v))),
        var("q_weight_", Real, "-1", |r, _| real(r.q_w), |r, v, _| Ok(r.q_w = parse_real(v))),
        var("wait_", Bool, "true", |r, _| boolean(r.wait), |r, v, _| Ok(r.wait = parse_bool(v))),
        within(var("linterm_", Real, "10", |r, _| real(r.max_p_inv), |r, v, _| Ok(r.max_p_inv = parse_real(v))),
            Range::Positive, "1/max_p: ns-2 divides by it when the queue is reset (0: a floating-point exception); below 0 the early-drop probability is negative"),
        var("mark_p_", Real, "0.1", |r, _| real(r.mark_p), |r, v, _| Ok(r.mark_p = parse_real(v))),
        var("use_mark_p_", Bool, "true", |r, _| boolean(r.use_mark_p), |r, v, _| Ok(r.use_mark_p = parse_bool(v))),
        var("setbit_", Bool, "false", |r, _| boolean(r.setbit), |r, v, _| Ok(r.setbit = parse_bool(v))),
        var("gentle_", Bool, "true", |r, _| boolean(r.gentle), |r, v, _| Ok(r.gentle = parse_bool(v))),
        var("drop_tail_", Bool, "true", |r, _| boolean(r.drop_tail), |r, v, _| Ok(r.drop_tail = parse_bool(v))),
        var("drop_rand_", Bool, "false", |r, _| boolean(r.drop_rand), |r, v, _| Ok(r.drop_rand = parse_bool(v))),
        script_var("doubleq_", "false"),
        var("ns1_compat_", Bool, "false", |r, _| boolean(r.ns1_compat), |r, v, _| Ok(r.ns1_compat = parse_bool(v))),
        script_var("dqthresh_", "50"),
        var("ave_", TracedReal, "0.0", |r, _| traced(r.v_ave), |r, v, w| Ok(r.set_ave(w, parse_real(v)))),
        var("prob1_", TracedReal, "0.0", |r, _| traced(r.v_prob1), |r, v, w| Ok(r.set_prob1(w, parse_real(v)))),
        var("curq_", TracedInt, "0", |r, _| int(r.curq), |r, v, w| Ok(r.set_curq(w, parse_int(v)))),
        var("cur_max_p_", TracedReal, "0", |r, _| traced(r.cur_max_p), |r, v, w| Ok(r.set_cur_max_p(w, parse_real(v)))),
        var("alpha_", Real, "0.01", |r, _| real(r.alpha), |r, v, _| Ok(r.alpha = parse_real(v))),
        var("beta_", Real, "0.9", |r, _| real(r.beta), |r, v, _| Ok(r.beta = parse_real(v))),
        var("adaptive_", Int, "0", |r, _| int(r.adaptive), |r, v, _| Ok(r.adaptive = parse_int(v))),
        var("interval_", Real, "0.5", |r, _| real(r.interval), |r, v, _| Ok(r.interval = parse_real(v))),
        var("targetdelay_", Real, "0.005", |r, _| real(r.targetdelay), |r, v, _| Ok(r.targetdelay = parse_real(v))),
        var("top_", Real, "0.5", |r, _| real(r.top), |r, v, _| Ok(r.top = parse_real(v))),
        var("bottom_", Real, "0", |r, _| real(r.bottom), |r, v, _| Ok(r.bottom = parse_real(v))),
        var("cautious_", Int, "0", |r, _| int(r.cautious), |r, v, _| Ok(r.cautious = parse_int(v))),
        var("feng_adaptive_", Int, "0", |r, _| int(r.feng_adaptive), |r, v, _| Ok(r.feng_adaptive = parse_int(v))),
        var("ecnm_", Bool, "false", |r, _| boolean(r.ecnm), |r, v, _| Ok(r.ecnm = parse_bool(v))),
        var("mark_front_", Bool, "false", |r, _| boolean(r.mark_front), |r, v, _| Ok(r.mark_front = parse_bool(v))),
        var("aecn_", Bool, "false", |r, _| boolean(r.aecn), |r, v, _| Ok(r.aecn = parse_bool(v))),
        var("aecn_robust_min_", Real, "0.5", |r, _| real(r.aecn_robust_min), |r, v, _| Ok(r.aecn_robust_min = parse_real(v))),
        var("aecn_robust_max_", Real, "75", |r, _| real(r.aecn_robust_max), |r, v, _| Ok(r.aecn_robust_max = parse_real(v))),
        var("aecn_fragile_min_", Real, "150", |r, _| real(r.aecn_fragile_min), |r, v, _| Ok(r.aecn_fragile_min = parse_real(v))),
        var("aecn_a_", Real, "2", |r, _| real(r.aecn_a), |r, v, _| Ok(r.aecn_a = parse_real(v))),
        var("aecn_b_", Real, "2", |r, _| real(r.aecn_b), |r, v, _| Ok(r.aecn_b = parse_real(v))),
        // Dumbbell's own (seed 003): geometric drop-biasing, and p_mod's
        // marking of ECN-capable arrivals for ECN-mod senders (c1, c2).
        var("geometric_", Bool, "false", |r, _| boolean(r.geometric), |r, v, _| Ok(r.geometric = parse_bool(v))),
        var("nonlinear_", Bool, "false", |r, _| boolean(r.nonlinear), |r, v, _| Ok(r.nonlinear = parse_bool(v))),
        var("pmod_", Bool, "false", |r, _| boolean(r.pmod), |r, v, _| Ok(r.pmod = parse_bool(v))),
        within(var("pmod_c1_", Real, "0.0625", |r, _| real(r.pmod_c1), |r, v, _| Ok(r.pmod_c1 = positive("pmod_c1_", v)?)),
            Range::Positive, "a coefficient of seed 003's marking probability (p_mod): 0 or less marks nothing or everything"),
        within(var("pmod_c2_", Real, "0.125", |r, _| real(r.pmod_c2), |r, v, _| Ok(r.pmod_c2 = positive("pmod_c2_", v)?)),
            Range::Positive, "a coefficient of seed 003's marking probability (p_mod): 0 or less marks nothing or everything"),
        // p_mod's input with uniform drop-biasing: 2 p(Q) as the paper's
        // footnote 1 says, instead of the spreading's actual rate.
        var("pmod_2p_", Bool, "false", |r, _| boolean(r.pmod_2p), |r, v, _| Ok(r.pmod_2p = parse_bool(v))),
    ],
    after_set: None,
};

/// CoDel's capacity in bytes, as DropTail's (`limit_` packets of
/// `mean_pktsize_` bytes when `queue_in_bytes_`; ns-3's `MaxSize` in bytes).
pub static CODEL_QUEUE: Table<Queue> = Table {
    class: "Queue/CoDel",
    part: queue,
    vars: &[
        var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        var("mean_pktsize_", Int, "500", |q, _| int(q.cap.mean_pktsize), |q, v, _| Ok(q.cap.mean_pktsize = parse_int(v))),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/CoDel`: CoDel as ns-3.37's `CoDelQueueDisc` (qdisc/codel.rs).
/// ns-2 2.35 has no CoDel; the names are those of the later ns-2 CoDel
/// (queue/codel.cc of 2.36: `target_`, `interval_`, and the traced
/// `curq_`, bytes left after the last dequeue, and `d_exp_`, the last
/// packet's sojourn), with its defaults; the capacity is the queue's
/// `limit_` in packets as there.  ns-3's other attributes take ns-2-style
/// names: `minbytes_` (`MinBytes`), `setbit_` (`UseEcn`, as RED names its
/// ECN switch), `ce_threshold_` (`CeThreshold`, off when negative) and
/// `use_l4s_` (`UseL4s`).
pub static CODEL: Table<CoDel> = Table {
    class: "Queue/CoDel",
    part: codel,
    vars: &[
        within(var("interval_", Time, "0.1", |c, _| real(c.interval), |c, v, _| positive_time("interval_", v).map(|t| c.interval = t)),
            Range::PositiveTime, "CoDel's control law divides by its square root; 0 makes every packet late at once"),
        within(var("target_", Time, ".005", |c, _| real(c.target), |c, v, _| positive_time("target_", v).map(|t| c.target = t)),
            Range::PositiveTime, "a target of 0 or less marks every packet late (RFC 8289)"),
        var("curq_", Int, "0", |c, _| int(c.fifo.bytes() as i32), |_, _, _| Ok(())),
        var("d_exp_", Real, "0.0", |c, _| real(c.last_sojourn), |c, v, _| Ok(c.last_sojourn = parse_real(v))),
        within(var("minbytes_", Int, "1500", |c, _| int(c.min_bytes as i32), |c, v, _| non_negative("minbytes_", v).map(|b| c.min_bytes = b)),
            Range::NonNegativeInt, "a number of bytes (below it, no packet is late)"),
        var("setbit_", Bool, "false", |c, _| boolean(c.use_ecn), |c, v, _| Ok(c.use_ecn = parse_bool(v))),
        var(
            "ce_threshold_",
            Time,
            "-1",
            |c, _| real(c.ce_threshold.unwrap_or(-1.0)),
            |c, v, _| Ok(c.ce_threshold = Some(parse_time(v)).filter(|t| *t >= 0.0)),
        ),
        var("use_l4s_", Bool, "false", |c, _| boolean(c.use_l4s), |c, v, _| Ok(c.use_l4s = parse_bool(v))),
    ],
    after_set: None,
};

/// PIE's capacity in bytes as DropTail's (`limit_` packets of
/// `mean_pktsize_` bytes when `queue_in_bytes_`); `mean_pktsize_` is also
/// PIE's `MeanPktSize` (the size a packet's probability is scaled against
/// in bytes), with ns-3's default 1000, as in ns-2.36's PIE.
pub static PIE_QUEUE: Table<Queue> = Table {
    class: "Queue/PIE",
    part: queue,
    vars: &[
        var("queue_in_bytes_", Bool, "false", |q, _| boolean(q.cap.in_bytes), |q, v, _| Ok(q.cap.in_bytes = parse_bool(v))),
        within(var("mean_pktsize_", Int, "1000", |q, _| int(q.cap.mean_pktsize), |q, v, _| positive_int("mean_pktsize_", v).map(|m| q.cap.mean_pktsize = m)),
            Range::PositiveInt, "PIE's byte mode divides by it"),
    ],
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/PIE`: PIE as ns-3.37's `PieQueueDisc` (qdisc/pie.rs), with ns-3's
/// defaults.  ns-2 2.35 has no PIE; the names are those of ns-2.36's PIE
/// (queue/pie.cc: `a_`, `b_`, `tUpdate_`, `sUpdate_`, `qdelay_ref_`,
/// `burst_allowance_`, `dq_threshold_`, `mark_p_`, `setbit_`, `prob_`,
/// `curq_`), the capacity is the queue's `limit_`; ns-3's other attributes
/// take ns-2-style names: `use_dq_rate_estimator_`
/// (`UseDequeueRateEstimator`), `cap_drop_adjustment_`
/// (`UseCapDropAdjustment`), `derandomize_` (`UseDerandomization`),
/// `active_threshold_` (`ActiveThreshold`, off when negative),
/// `ce_threshold_` (`CeThreshold`, off when negative) and `use_l4s_`
/// (`UseL4s`).  `sUpdate_`
/// is accepted and, as in ns-3.37, has no effect.  `prob_` and `qdelay_`
/// are as of the queue's last packet event (updates are run then).
pub static PIE: Table<Pie> = Table {
    class: "Queue/PIE",
    part: pie,
    vars: &[
        within(var("a_", Real, "0.125", |q, _| real(q.a), |q, v, _| finite("a_", v).map(|x| q.a = x)),
            Range::Finite, "an infinite or NaN gain makes the drop probability NaN (RFC 8033)"),
        within(var("b_", Real, "1.25", |q, _| real(q.b), |q, v, _| finite("b_", v).map(|x| q.b = x)),
            Range::Finite, "an infinite or NaN gain makes the drop probability NaN (RFC 8033)"),
        within(var("tUpdate_", Time, "0.015", |q, _| real(secs(q.t_update)), |q, v, _| {
            q.t_update = non_negative_time("tUpdate_", v).and_then(|t| if t >= 1 { Ok(t) } else { Err(format!("tUpdate_ must be a time of 1 ns or more, got \"{v}\"")) })?;
            Ok(())
        }),
            Range::AtLeastNanosecond, "the time between updates of the drop probability: 0 updates without end at one instant"),
        within(var("sUpdate_", Time, "0", |q, _| real(secs(q.s_update)), |q, v, _| non_negative_time("sUpdate_", v).map(|t| q.s_update = t)),
            Range::NonNegativeTime, "the time of the first update: a negative one is before the run"),
        within(var("qdelay_ref_", Time, "0.015", |q, _| real(secs(q.qdelay_ref)), |q, v, _| non_negative_time("qdelay_ref_", v).map(|t| q.qdelay_ref = t)),
            Range::NonNegativeTime, "the queueing delay PIE steers to (RFC 8033): a negative one is no delay"),
        within(var("burst_allowance_", Time, "0.15", |q, _| real(secs(q.max_burst)), |q, v, _| non_negative_time("burst_allowance_", v).map(|t| q.max_burst = t)),
            Range::NonNegativeTime, "a length of time (RFC 8033)"),
        within(var("dq_threshold_", Int, "16384", |q, _| int(q.dq_threshold as i32), |q, v, _| non_negative("dq_threshold_", v).map(|n| q.dq_threshold = n)),
            Range::NonNegativeInt, "a number of bytes (the departure-rate estimator's sample)"),
        var("use_dq_rate_estimator_", Bool, "false", |q, _| boolean(q.use_dq_rate_estimator), |q, v, _| Ok(q.use_dq_rate_estimator = parse_bool(v))),
        var("cap_drop_adjustment_", Bool, "true", |q, _| boolean(q.cap_drop_adjustment), |q, v, _| Ok(q.cap_drop_adjustment = parse_bool(v))),
        var("setbit_", Bool, "false", |q, _| boolean(q.use_ecn), |q, v, _| Ok(q.use_ecn = parse_bool(v))),
        within(var("mark_p_", Real, "0.1", |q, _| real(q.mark_ecn_th), |q, v, _| probability("mark_p_", v).map(|x| q.mark_ecn_th = x)),
            Range::Probability, "a probability"),
        var("derandomize_", Bool, "false", |q, _| boolean(q.use_derandomization), |q, v, _| Ok(q.use_derandomization = parse_bool(v))),
        var(
            "active_threshold_",
            Time,
            "-1",
            |q, _| real(q.active_threshold.map_or(-1.0, secs)),
            |q, v, _| {
                let t = parse_time(v);
                q.active_threshold = if t < 0.0 { None } else { Some(nanos("active_threshold_", v, t)?) };
                Ok(())
            },
        ),
        var(
            "ce_threshold_",
            Time,
            "-1",
            |q, _| real(q.ce_threshold.map_or(-1.0, secs)),
            |q, v, _| {
                let t = parse_time(v);
                q.ce_threshold = if t < 0.0 { None } else { Some(nanos("ce_threshold_", v, t)?) };
                Ok(())
            },
        ),
        var("use_l4s_", Bool, "false", |q, _| boolean(q.use_l4s), |q, v, _| Ok(q.use_l4s = parse_bool(v))),
        within(var("prob_", Real, "0", |q, _| real(q.drop_prob), |q, v, _| probability("prob_", v).map(|x| q.drop_prob = x)),
            Range::Probability, "a probability"),
        var("curq_", Int, "0", |q, _| int(q.fifo.bytes() as i32), |_, _, _| Ok(())),
        var("qdelay_", Time, "0", |q, _| real(secs(q.qdelay)), |_, _, _| Ok(())),
    ],
    after_set: None,
};

/// The set-associative hash needs whole sets: `flows_` a multiple of
/// `set_ways_` (ns-3's `CheckConfig`).
pub(super) fn ways_divide(on: bool, flows: u32, ways: u32, name: &str, v: &str) -> Result<(), String> {
    if on && flows % ways != 0 {
        Err(format!("{name} {v}: with set_associative_hash_, flows_ ({flows}) must be a multiple of set_ways_ ({ways})"))
    } else {
        Ok(())
    }
}

/// Nanoseconds as seconds.
pub(super) fn secs(ns: i64) -> f64 {
    ns as f64 / 1e9
}

/// Seconds `t` (from the text `v` of variable `name`) as whole nanoseconds.
pub(super) fn nanos(name: &str, v: &str, t: f64) -> Result<i64, String> {
    let ns = (t * 1e9).round();
    if ns.is_finite() && ns.abs() < 9.2e18 {
        Ok(ns as i64)
    } else {
        Err(format!("{name} must be a time below 292 years, got \"{v}\""))
    }
}

pub(super) fn non_negative_time(name: &str, v: &str) -> Result<i64, String> {
    let t = parse_time(v);
    if t >= 0.0 {
        nanos(name, v, t)
    } else {
        Err(format!("{name} must be a time of zero or more, got \"{v}\""))
    }
}

pub(super) fn probability(name: &str, v: &str) -> Result<f64, String> {
    let x = parse_real(v);
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{name} must be a number from 0 to 1, got \"{v}\""))
    }
}

pub(super) fn positive_int(name: &str, v: &str) -> Result<i32, String> {
    let n = parse_int(v);
    if n > 0 {
        Ok(n)
    } else {
        Err(format!("{name} must be a positive integer, got \"{v}\""))
    }
}

/// A time that must be above zero (a CoDel target or interval of zero or
/// less would make every packet late, or none).
pub(super) fn positive_time(name: &str, v: &str) -> Result<f64, String> {
    let t = parse_time(v);
    if t > 0.0 && t.is_finite() {
        Ok(t)
    } else {
        Err(format!("{name} must be a positive time, got \"{v}\""))
    }
}

pub(super) fn non_negative(name: &str, v: &str) -> Result<u32, String> {
    let n = parse_int(v);
    if n >= 0 {
        Ok(n as u32)
    } else {
        Err(format!("{name} must not be negative, got \"{v}\""))
    }
}
