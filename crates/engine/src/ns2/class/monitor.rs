//! The monitors: `QueueMonitor` (tools/queue-monitor.cc), its early-drop
//! kind `QueueMonitor/ED`, the flow monitor `QueueMonitor/ED/Flowmon` and
//! its flows `QueueMonitor/ED/Flow` (tools/flowmon.cc), the snoops that
//! feed them, `SnoopQueue/In`, `/Out`, `/Drop`, `/EDrop`
//! (tools/queue-monitor.h), and `Integrator` and `Samples`
//! (tools/integrator.cc).

use crate::ns2::bind::*;
use crate::objs::{FlowKey, FlowMon, HistogramError, Integrator, QueueMonitor, Samples, Snoop, SnoopKind};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, World, NONE};
use crate::ns2::tclcl::parse_bool_int;
use crate::ns2::tclcl::VarType::*;

fn qmon(o: &mut Obj) -> Option<&mut QueueMonitor> {
    match o {
        Obj::QueueMonitor(q) => Some(q),
        _ => None,
    }
}

fn flowmon(o: &mut Obj) -> Option<&mut FlowMon> {
    qmon(o)?.flowmon.as_deref_mut()
}

fn flow(o: &mut Obj) -> Option<&mut FlowKey> {
    qmon(o)?.flow.as_mut()
}

fn integrator(o: &mut Obj) -> Option<&mut Integrator> {
    match o {
        Obj::Integrator(n) => Some(n),
        _ => None,
    }
}

/// Set one of the rate estimate's and histograms' settings
/// (`estimate_rate_`, `keepRTTstats_`, `maxRTT_`, `binsPerSec_`,
/// `keepSeqnoStats_`, `maxSeqno_`, `SeqnoBinSize_`).
/// A queue monitor's unusable distribution settings, in ns-2's names.
pub fn histogram_error(e: HistogramError) -> String {
    match e {
        HistogramError::BinsPerSec(v) => format!(
            "QueueMonitor binsPerSec_ must be between 1 and 1000 while keepRTTstats_ is on (bins are 1000/binsPerSec_ whole ms), got {v}"
        ),
        HistogramError::MaxRtt(v) => format!(
            "QueueMonitor maxRTT_ must be a positive number of seconds (maxRTT_ * binsPerSec_ bins) while keepRTTstats_ is on, got {v}"
        ),
        HistogramError::SeqnoBinSize(v) => format!("QueueMonitor SeqnoBinSize_ must be positive while keepSeqnoStats_ is on, got {v}"),
        HistogramError::TooManyBins(n) => format!(
            "QueueMonitor: maxRTT_ * binsPerSec_ or maxSeqno_ / SeqnoBinSize_ asks for {n} bins, more than {} \
             (ns-2 would allocate them all at once)",
            crate::objs::MAX_BINS
        ),
        HistogramError::MaxSeqno { bin_size, max } => format!(
            "QueueMonitor maxSeqno_ must be at least SeqnoBinSize_ ({bin_size}) while keepSeqnoStats_ is on (maxSeqno_ / SeqnoBinSize_ bins), got {max}"
        ),
    }
}

fn dist_setting(q: &mut QueueMonitor, w: &World, var: &str, v: &str) -> Result<(), String> {
    let iv = parse_int(v);
    // the histograms' settings as this leaves them
    let (mut rtt, mut seqno) = (q.rtt.set, q.seqno.set);
    match var {
        "keepRTTstats_" => rtt.keep = parse_bool_int(v),
        "maxRTT_" => rtt.max = iv,
        "binsPerSec_" => rtt.per = iv,
        "keepSeqnoStats_" => seqno.keep = parse_bool_int(v),
        "maxSeqno_" => seqno.max = iv,
        "SeqnoBinSize_" => seqno.per = iv,
        _ => {}
    }
    // ns-2 takes any value and divides by zero (or writes outside its
    // bins) at the next sample.  Settings may pass through unusable values
    // before `$ns run` (`check_monitors` judges them there); during the run
    // an unusable one is refused, the monitor left unchanged.
    if w.started {
        QueueMonitor::check_dist_settings(rtt, seqno).map_err(histogram_error)?;
    }
    if var == "estimate_rate_" {
        q.estimate_rate = parse_bool_int(v);
    }
    (q.rtt.set, q.seqno.set) = (rtt, seqno);
    q.refresh_plain();
    Ok(())
}

/// `QueueMonitor`'s (tools/queue-monitor.h `QueueMonitor::QueueMonitor`,
/// with the RTT and sequence-number distributions of ns-2.35's
/// queue-monitor.cc).  `estimate_rate_` and the `keep...` switches keep the
/// integer they are given, as tclcl's bool does.
pub static QUEUE_MONITOR: Table<QueueMonitor> = Table {
    class: "QueueMonitor",
    part: qmon,
    vars: &[
        var("size_", Int, "0", |q, _| int(q.size), |q, v, _| Ok(q.size = parse_int(v))),
        var("pkts_", Int, "0", |q, _| int(q.pkts), |q, v, _| Ok(q.pkts = parse_int(v))),
        var("parrivals_", Int, "0", |q, _| int(q.parrivals), |q, v, _| Ok(q.parrivals = parse_int(v))),
        var("barrivals_", Int, "0", |q, _| int(q.barrivals), |q, v, _| Ok(q.barrivals = parse_int(v))),
        var("pdepartures_", Int, "0", |q, _| int(q.pdepartures), |q, v, _| Ok(q.pdepartures = parse_int(v))),
        var("bdepartures_", Int, "0", |q, _| int(q.bdepartures), |q, v, _| Ok(q.bdepartures = parse_int(v))),
        var("pdrops_", Int, "0", |q, _| int(q.pdrops), |q, v, _| Ok(q.pdrops = parse_int(v))),
        var("pmarks_", Int, "0", |q, _| int(q.pmarks), |q, v, _| Ok(q.pmarks = parse_int(v))),
        var("bdrops_", Int, "0", |q, _| int(q.bdrops), |q, v, _| Ok(q.bdrops = parse_int(v))),
        var("qs_pkts_", Int, "0", |q, _| int(q.qs_pkts), |q, v, _| Ok(q.qs_pkts = parse_int(v))),
        var("qs_bytes_", Int, "0", |q, _| int(q.qs_bytes), |q, v, _| Ok(q.qs_bytes = parse_int(v))),
        var("qs_drops_", Int, "0", |q, _| int(q.qs_drops), |q, v, _| Ok(q.qs_drops = parse_int(v))),
        var("first_pkt_", Real, "0", |q, _| real(q.first_pkt), |q, v, _| Ok(q.first_pkt = parse_real(v))),
        var("last_pkt_", Real, "0", |q, _| real(q.last_pkt), |q, v, _| Ok(q.last_pkt = parse_real(v))),
        var("k_", Real, "0.1", |q, _| real(q.k), |q, v, _| Ok(q.k = parse_real(v))),
        var("prevTime_", Real, "0", |q, _| real(q.prev_time), |q, v, _| Ok(q.prev_time = parse_real(v))),
        var("startTime_", Real, "0", |q, _| real(q.start_time), |q, v, _| Ok(q.start_time = parse_real(v))),
        var("estRate_", Real, "0", |q, _| real(q.est_rate), |q, v, _| Ok(q.est_rate = parse_real(v))),
        var("estimate_rate_", Bool, "0", |q, _| int(q.estimate_rate), |q, v, w| dist_setting(q, w, "estimate_rate_", v)),
        var("keepRTTstats_", Bool, "0", |q, _| int(q.rtt.set.keep), |q, v, w| dist_setting(q, w, "keepRTTstats_", v)),
        var("maxRTT_", Int, "5", |q, _| int(q.rtt.set.max), |q, v, w| dist_setting(q, w, "maxRTT_", v)),
        var("binsPerSec_", Int, "100", |q, _| int(q.rtt.set.per), |q, v, w| dist_setting(q, w, "binsPerSec_", v)),
        var("keepSeqnoStats_", Bool, "0", |q, _| int(q.seqno.set.keep), |q, v, w| dist_setting(q, w, "keepSeqnoStats_", v)),
        var("maxSeqno_", Int, "1000", |q, _| int(q.seqno.set.max), |q, v, w| dist_setting(q, w, "maxSeqno_", v)),
        var("SeqnoBinSize_", Int, "10", |q, _| int(q.seqno.set.per), |q, v, w| dist_setting(q, w, "SeqnoBinSize_", v)),
    ],
    after_set: None,
};

/// `QueueMonitor/ED`'s early drops (`EDQueueMonitor::EDQueueMonitor`).
pub static ED: Table<QueueMonitor> = Table {
    class: "QueueMonitor/ED",
    part: qmon,
    vars: &[
        var("ebdrops_", Int, "0", |q, _| int(q.ebdrops), |q, v, _| Ok(q.ebdrops = parse_int(v))),
        var("epdrops_", Int, "0", |q, _| int(q.epdrops), |q, v, _| Ok(q.epdrops = parse_int(v))),
        var("mon_ebdrops_", Int, "0", |q, _| int(q.mon_ebdrops), |q, v, _| Ok(q.mon_ebdrops = parse_int(v))),
        var("mon_epdrops_", Int, "0", |q, _| int(q.mon_epdrops), |q, v, _| Ok(q.mon_epdrops = parse_int(v))),
    ],
    after_set: None,
};

/// The flow monitor's switches (tools/flowmon.cc `FlowMon::FlowMon`): which
/// events reach its flows.
pub static FLOWMON: Table<FlowMon> = Table {
    class: "QueueMonitor/ED/Flowmon",
    part: flowmon,
    vars: &[
        var("enable_in_", Bool, "true", |f, _| boolean(f.enable_in), |f, v, _| Ok(f.enable_in = parse_bool(v))),
        var("enable_out_", Bool, "true", |f, _| boolean(f.enable_out), |f, v, _| Ok(f.enable_out = parse_bool(v))),
        var("enable_drop_", Bool, "true", |f, _| boolean(f.enable_drop), |f, v, _| Ok(f.enable_drop = parse_bool(v))),
        var("enable_edrop_", Bool, "true", |f, _| boolean(f.enable_edrop), |f, v, _| Ok(f.enable_edrop = parse_bool(v))),
    ],
    after_set: None,
};

/// A flow's identity (tools/flowmon.cc `Flow::Flow`).
pub static FLOW: Table<FlowKey> = Table {
    class: "QueueMonitor/ED/Flow",
    part: flow,
    vars: &[
        var("src_", Int, "-1", |f, _| int(f.src), |f, v, _| Ok(f.src = parse_int(v))),
        var("dst_", Int, "-1", |f, _| int(f.dst), |f, v, _| Ok(f.dst = parse_int(v))),
        var("flowid_", Int, "-1", |f, _| int(f.fid), |f, v, _| Ok(f.fid = parse_int(v))),
    ],
    after_set: None,
};

/// The snoops' (a connector's `debug_`).
pub static SNOOP_IN: Table<Obj> = debug_only("SnoopQueue/In");
pub static SNOOP_OUT: Table<Obj> = debug_only("SnoopQueue/Out");
pub static SNOOP_DROP: Table<Obj> = debug_only("SnoopQueue/Drop");
pub static SNOOP_EDROP: Table<Obj> = debug_only("SnoopQueue/EDrop");

/// `Integrator`'s (tools/integrator.cc `Integrator::Integrator`).
pub static INTEGRATOR: Table<Integrator> = Table {
    class: "Integrator",
    part: integrator,
    vars: &[
        var("lastx_", Real, "0.0", |n, _| real(n.lastx), |n, v, _| Ok(n.lastx = parse_real(v))),
        var("lasty_", Real, "0.0", |n, _| real(n.lasty), |n, v, _| Ok(n.lasty = parse_real(v))),
        var("sum_", Real, "0.0", |n, _| real(n.sum), |n, v, _| Ok(n.sum = parse_real(v))),
    ],
    after_set: None,
};

/// A monitor starts its rate estimate when made (`created` again once the
/// class defaults are in: `Sim::init_defaults`).
pub fn make_queue_monitor(sim: &mut Sim, _: ObjId) -> Obj {
    Obj::QueueMonitor(Box::new(QueueMonitor::new(sim.w.s.now)))
}

pub fn make_flowmon(sim: &mut Sim, _: ObjId) -> Obj {
    let mut q = QueueMonitor::new(sim.w.s.now);
    q.flowmon = Some(Box::default());
    q.refresh_plain();
    Obj::QueueMonitor(Box::new(q))
}

pub fn make_flow(sim: &mut Sim, _: ObjId) -> Obj {
    Obj::QueueMonitor(Box::new(QueueMonitor::new_flow(sim.w.s.now)))
}

fn snoop(kind: SnoopKind) -> Obj {
    Obj::Snoop(Snoop { kind, target: NONE, monitor: NONE })
}

pub fn make_snoop_in(_: &mut Sim, _: ObjId) -> Obj {
    snoop(SnoopKind::In)
}

pub fn make_snoop_out(_: &mut Sim, _: ObjId) -> Obj {
    snoop(SnoopKind::Out)
}

pub fn make_snoop_drop(_: &mut Sim, _: ObjId) -> Obj {
    snoop(SnoopKind::Drop)
}

pub fn make_snoop_edrop(_: &mut Sim, _: ObjId) -> Obj {
    snoop(SnoopKind::EDrop)
}

pub fn make_integrator(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Integrator(Integrator::default())
}

pub fn make_samples(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Samples(Samples::default())
}
