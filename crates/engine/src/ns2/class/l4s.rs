//! The bound variables of Dumbbell's L4S and DCTCP queues (ns-2 2.35 has
//! neither): `Queue/DualPI2`, RFC 9332's DualQ Coupled PI2
//! (qdisc/dualpi2.rs) with its defaults, and `Queue/StepMark`, DCTCP's
//! step-marking FIFO (qdisc/step.rs).  For DualPI2:  Times in ns-2's time syntax; the names follow the other AQM
//! classes' (`target_` as CoDel's and PIE's, `tupdate_` as PIE's) and RFC
//! 9332's parameters otherwise.  The statistics at the end are read-only
//! (a write is ignored, as `curq_`'s).

use super::aqm::BYTE_CAPACITY;
use super::queue::{non_negative, non_negative_time, probability, queue, secs};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{DualPi2, Queue, StepMark};
use crate::sim::Obj;

fn dualpi2(o: &mut Obj) -> Option<&mut DualPi2> {
    queue(o)?.disc.get_mut::<DualPi2>()
}

fn step_mark(o: &mut Obj) -> Option<&mut StepMark> {
    queue(o)?.disc.get_mut::<StepMark>()
}

/// A time of 1 ns or more.
fn positive_ns(name: &str, v: &str) -> Result<i64, String> {
    match non_negative_time(name, v)? {
        0 => Err(format!("{name} must be a time of 1 ns or more, got \"{v}\"")),
        t => Ok(t),
    }
}

/// A gain: finite, zero or more.
fn gain(name: &str, v: &str) -> Result<f64, String> {
    let x = finite(name, v)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("{name} must be a number of zero or more, got \"{v}\""))
    }
}

/// DualPI2's capacity: the shared buffer, `limit_` packets, or, with
/// `queue_in_bytes_`, `limit_` packets of `mean_pktsize_` bytes.
pub static DUALPI2_QUEUE: Table<Queue> = Table {
    class: "Queue/DualPI2",
    part: queue,
    vars: &BYTE_CAPACITY,
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/DualPI2`: `target_` (15 ms), `tupdate_` (16 ms), `alpha_` (0.16)
/// and `beta_` (3.2) of the PI core, `coupling_factor_` (k, 2),
/// `step_thresh_` (1 ms), `step_min_bytes_` (T_len, 3000), `ramp_range_`
/// (0: a step), `step_packets_` (0; N > 0: the step marks while more than N
/// packets stay in the L4S queue, Linux's step in packets, `step_thresh_`
/// then unused; no ramp with it), `min_qlen_step_` (-1; N >= 0: Linux's
/// gate instead of T_len, the step applying to an L4S packet that found at
/// least N packets in the L4S queue on arrival; Linux's default 0), `tshift_` (50 ms, with `tsfifo_` true: the time-shifted
/// FIFO; by default the round robin of Linux sch_dualpi2 with
/// `c_protection_` percent for the classic queue, 10), `min_bytes_` (no
/// coupled mark or classic drop below it, 3000), `pi_max_` (the PI reads
/// the larger head delay of the two queues, true), `drop_on_overload_`
/// (true: on overload, k p' >= 1, Classic drop p'^2 for the ECN-capable
/// packets of both queues, RFC 9332 section 4.2.3 and Linux's default;
/// false: Linux's `overflow`, p' capped at 1/k), `prob_` (p'); statistics `l_delay_` and
/// `c_delay_` (mean sojourn of the packets each queue sent, s), `l_pkts_`,
/// `c_pkts_` (packets sent), `l_marks_`, `c_marks_`, `c_drops_` (the AQM's
/// classic drops), `l_drops_` (its L4S drops, on overload).
pub static DUALPI2: Table<DualPi2> = Table {
    class: "Queue/DualPI2",
    part: dualpi2,
    vars: &[
        within(var("target_", Time, "0.015", |q, _| real(secs(q.target)), |q, v, _| non_negative_time("target_", v).map(|t| q.target = t)),
            Range::NonNegativeTime, "the queueing delay the PI core steers to (RFC 9332): a negative one is no delay"),
        within(var("tupdate_", Time, "0.016", |q, _| real(secs(q.t_update)), |q, v, w| {
            let t = positive_ns("tupdate_", v)?;
            q.set_t_update(t, (w.s.now * 1e9).round() as i64);
            Ok(())
        }),
            Range::AtLeastNanosecond, "the time between updates of the PI core: 0 updates without end at one instant"),
        within(var("alpha_", Real, "0.16", |q, _| real(q.alpha), |q, v, _| gain("alpha_", v).map(|x| q.alpha = x)),
            Range::NonNegative, "a gain of the PI core (RFC 9332): a negative one steers away from the target, an infinite or NaN one makes the probability NaN"),
        within(var("beta_", Real, "3.2", |q, _| real(q.beta), |q, v, _| gain("beta_", v).map(|x| q.beta = x)),
            Range::NonNegative, "a gain of the PI core (RFC 9332): a negative one steers away from the target, an infinite or NaN one makes the probability NaN"),
        within(var("coupling_factor_", Real, "2", |q, _| real(q.k), |q, v, _| positive("coupling_factor_", v).map(|x| q.k = x)),
            Range::Positive, "k, the coupling of the L4S marking to the classic one (RFC 9332): 0 or less couples nothing"),
        within(var("step_thresh_", Time, "0.001", |q, _| real(secs(q.step_thresh)), |q, v, _| non_negative_time("step_thresh_", v).map(|t| q.step_thresh = t)),
            Range::NonNegativeTime, "a queueing delay (RFC 9332)"),
        within(var("step_min_bytes_", Int, "3000", |q, _| int(q.step_min_bytes as i32), |q, v, _| non_negative("step_min_bytes_", v).map(|n| q.step_min_bytes = n as i64)),
            Range::NonNegativeInt, "a number of bytes (RFC 9332's T_len)"),
        within(var("ramp_range_", Time, "0", |q, _| real(secs(q.ramp_range)), |q, v, _| {
            let t = non_negative_time("ramp_range_", v)?;
            if t > 0 && q.step_packets > 0 {
                return Err(format!("ramp_range_ \"{v}\" needs the step on time, but step_packets_ is {} (a step in packets has no ramp); set step_packets_ 0 first", q.step_packets));
            }
            q.ramp_range = t;
            Ok(())
        }),
            Range::NonNegativeTime, "a length of time (0: a step)"),
        within(var("step_packets_", Int, "0", |q, _| int(q.step_packets as i32), |q, v, _| {
            let n = non_negative("step_packets_", v)?;
            if n > 0 && q.ramp_range > 0 {
                return Err(format!("step_packets_ \"{v}\" makes the step one in packets, which has no ramp, but ramp_range_ is {}s; set ramp_range_ 0 first", secs(q.ramp_range)));
            }
            q.step_packets = n;
            Ok(())
        }),
            Range::NonNegativeInt, "a number of packets (0: the step is on sojourn time, step_thresh_)"),
        var("min_qlen_step_", Int, "-1", |q, _| int(q.min_qlen_step as i32), |q, v, _| {
            let n = parse_int(v);
            if n < -1 {
                return Err(format!("min_qlen_step_ must be -1 (off: RFC 9332's T_len, step_min_bytes_, gates the step) or a number of packets (Linux sch_dualpi2's min_qlen_step; 0 applies the step to every L4S packet), got \"{v}\""));
            }
            q.min_qlen_step = n as i64;
            Ok(())
        }),
        within(var("tshift_", Time, "0.05", |q, _| real(secs(q.tshift)), |q, v, _| non_negative_time("tshift_", v).map(|t| q.tshift = t)),
            Range::NonNegativeTime, "a length of time (RFC 9332's time shift)"),
        var("tsfifo_", Bool, "false", |q, _| boolean(q.tsfifo), |q, v, _| Ok(q.tsfifo = parse_bool(v))),
        var("c_protection_", Int, "10", |q, _| int(q.c_protection as i32), |q, v, _| {
            let n = non_negative("c_protection_", v)?;
            if n > 100 {
                return Err(format!("c_protection_ must be a percentage from 0 to 100, got \"{v}\""));
            }
            q.set_c_protection(n as i64);
            Ok(())
        }),
        var("min_bytes_", Int, "3000", |q, _| int(q.min_bytes as i32), |q, v, _| non_negative("min_bytes_", v).map(|n| q.min_bytes = n as i64)),
        var("pi_max_", Bool, "true", |q, _| boolean(q.pi_max), |q, v, _| Ok(q.pi_max = parse_bool(v))),
        var("drop_on_overload_", Bool, "true", |q, _| boolean(q.drop_on_overload), |q, v, _| Ok(q.drop_on_overload = parse_bool(v))),
        within(var("prob_", Real, "0", |q, _| real(q.p), |q, v, _| probability("prob_", v).map(|x| q.p = x)),
            Range::Probability, "a probability"),
        var("l_delay_", Real, "0", |q, _| real(q.l_mean_delay()), |_, _, _| Ok(())),
        var("c_delay_", Real, "0", |q, _| real(q.c_mean_delay()), |_, _, _| Ok(())),
        var("l_pkts_", Int, "0", |q, _| int(q.l_departures as i32), |_, _, _| Ok(())),
        var("c_pkts_", Int, "0", |q, _| int(q.c_departures as i32), |_, _, _| Ok(())),
        var("l_marks_", Int, "0", |q, _| int((q.l_native_marks + q.l_coupled_marks) as i32), |_, _, _| Ok(())),
        var("c_marks_", Int, "0", |q, _| int(q.c_marks as i32), |_, _, _| Ok(())),
        var("c_drops_", Int, "0", |q, _| int(q.c_aqm_drops as i32), |_, _, _| Ok(())),
        var("l_drops_", Int, "0", |q, _| int(q.l_aqm_drops as i32), |_, _, _| Ok(())),
    ],
    after_set: None,
};

/// StepMark's capacity: `limit_` packets, or, with `queue_in_bytes_`,
/// `limit_` packets of `mean_pktsize_` bytes (and K in the same unit).
pub static STEP_MARK_QUEUE: Table<Queue> = Table {
    class: "Queue/StepMark",
    part: queue,
    vars: &BYTE_CAPACITY,
    after_set: Some(Queue::refresh_plain),
};

/// `Queue/StepMark`: `thresh_` (K, packets: an ECN-capable arrival that
/// makes the queue longer than K is marked; 20), `marks_` (read-only).
pub static STEP_MARK: Table<StepMark> = Table {
    class: "Queue/StepMark",
    part: step_mark,
    vars: &[
        within(var("thresh_", Int, "20", |q, _| int(q.thresh), |q, v, _| non_negative("thresh_", v).map(|n| q.thresh = n as i32)),
            Range::NonNegativeInt, "K, a queue length"),
        var("marks_", Int, "0", |q, _| int(q.marks as i32), |_, _, _| Ok(())),
    ],
    after_set: None,
};
