//! `Queue/RED/RIO` (queue/rio.cc `RIOQueue`): RED with In and Out bands
//! (qdisc/rio.rs).  RED's variables are inherited (the `Queue/RED` tables
//! reach the RED inside); ns-default.tcl gives the class its own defaults
//! for many of them (`gentle_ false`, `q_weight_ 0.002`, ...), set here on
//! `Queue/RED/RIO`.  The band thresholds (`in_thresh_`, `in_maxthresh_`,
//! `out_thresh_`, `out_maxthresh_`) are in packets until a reset scales
//! them to bytes in byte mode (as ns-2 does, in place); `in_linterm_` is
//! the In band's 1/max_p, the Out band's is RED's `linterm_`
//! (`out_linterm_` is a class variable ns-2 binds to nothing).

use super::queue::queue;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::Rio;
use crate::sim::Obj;

fn rio(o: &mut Obj) -> Option<&mut Rio> {
    queue(o)?.disc.get_mut::<Rio>()
}

/// A traced double as tclcl reads it back (`%g`).
fn traced(v: f64) -> String {
    crate::ns2::printf::format_g(v, 6)
}

/// RIO's own variables, and its class defaults for RED's (those read and
/// written through RED's tables).
pub static RIO: Table<Rio> = Table {
    class: "Queue/RED/RIO",
    part: rio,
    vars: &[
        script_var("bytes_", "false"),
        script_var("queue_in_bytes_", "false"),
        script_var("thresh_", "5"),
        script_var("maxthresh_", "15"),
        var("in_thresh_", Real, "15", |r, _| real(r.in_band.th_min), |r, v, _| Ok(r.in_band.th_min = parse_real(v))),
        var("in_maxthresh_", Real, "30", |r, _| real(r.in_band.th_max), |r, v, _| Ok(r.in_band.th_max = parse_real(v))),
        var("out_thresh_", Real, "5", |r, _| real(r.out_band.th_min), |r, v, _| Ok(r.out_band.th_min = parse_real(v))),
        var("out_maxthresh_", Real, "15", |r, _| real(r.out_band.th_max), |r, v, _| Ok(r.out_band.th_max = parse_real(v))),
        script_var("mean_pktsize_", "500"),
        script_var("q_weight_", "0.002"),
        script_var("wait_", "true"),
        script_var("linterm_", "10"),
        var("in_linterm_", Real, "50", |r, _| real(r.in_band.max_p_inv), |r, v, _| Ok(r.in_band.max_p_inv = parse_real(v))),
        script_var("out_linterm_", "5"),
        script_var("setbit_", "false"),
        script_var("gentle_", "false"),
        var("in_gentle_", Bool, "false", |r, _| boolean(r.in_band.gentle), |r, v, _| Ok(r.in_band.gentle = parse_bool(v))),
        var("out_gentle_", Bool, "false", |r, _| boolean(r.out_band.gentle), |r, v, _| Ok(r.out_band.gentle = parse_bool(v))),
        script_var("drop_tail_", "true"),
        script_var("drop_front_", "false"),
        script_var("drop_rand_", "false"),
        script_var("doubleq_", "false"),
        script_var("ns1_compat_", "false"),
        script_var("dqthresh_", "50"),
        script_var("ave_", "0.0"),
        var("in_ave_", Real, "0.0", |r, _| traced(r.in_band.v_ave), |r, v, _| Ok(r.in_band.v_ave = parse_real(v))),
        var("out_ave_", Real, "0.0", |r, _| traced(r.out_band.v_ave), |r, v, _| Ok(r.out_band.v_ave = parse_real(v))),
        script_var("prob1_", "0.0"),
        var("in_prob1_", Real, "0.0", |r, _| traced(r.in_band.v_prob1), |r, v, _| Ok(r.in_band.v_prob1 = parse_real(v))),
        var("out_prob1_", Real, "0.0", |r, _| traced(r.out_band.v_prob1), |r, v, _| Ok(r.out_band.v_prob1 = parse_real(v))),
        script_var("curq_", "0"),
        var("priority_method_", Int, "0", |r, _| int(r.priority_method), |r, v, _| Ok(r.priority_method = parse_int(v))),
    ],
    after_set: None,
};

/// Before a reset: each band's thresholds must differ (ns-2 divides by
/// their difference and crashes with a floating-point exception).
pub fn check_bands(r: &Rio) -> Result<(), String> {
    for (lo, hi, b) in [("in_thresh_", "in_maxthresh_", &r.in_band), ("out_thresh_", "out_maxthresh_", &r.out_band)] {
        if b.th_max == b.th_min {
            return Err(format!("Queue/RED/RIO: {hi} ({}) equals {lo}: the band's drop curve would divide by zero \
                                (ns-2 crashes); make {hi} the larger", fmt_real(b.th_max)));
        }
    }
    Ok(())
}
