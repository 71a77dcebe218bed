//! The applications: `Application` (apps/app.cc), the traffic generators
//! `Application/Traffic/CBR` (tools/cbr_traffic.cc), `/Exponential`
//! (tools/expoo.cc) and `/Pareto` (tools/pareto.cc),
//! `Application/Telnet` (apps/telnet.cc), and Dumbbell's own
//! `Application/Traffic/VoIPCalls` (voip.rs).

use crate::ns2::bind::*;
use crate::objs::{App, Source};
use crate::onoff::{Dist, OnOff};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::telnet::Telnet;
use crate::udp::Cbr;
use crate::voip::VoipCalls;
use crate::ns2::tclcl::VarType::*;

fn source(o: &mut Obj) -> Option<&mut Source> {
    match o {
        Obj::App(app) => app.source.as_mut(),
        _ => None,
    }
}

fn cbr(o: &mut Obj) -> Option<&mut Cbr> {
    match source(o)? {
        Source::Cbr(c) => Some(c),
        _ => None,
    }
}

fn onoff(o: &mut Obj) -> Option<&mut OnOff> {
    match source(o)? {
        Source::OnOff(s) => Some(s),
        _ => None,
    }
}

fn pareto_shape(o: &mut Obj) -> Option<&mut f64> {
    match &mut onoff(o)?.dist {
        Dist::Pareto { shape, .. } => Some(shape),
        _ => None,
    }
}

fn voip(o: &mut Obj) -> Option<&mut VoipCalls> {
    match source(o)? {
        Source::VoipCalls(v) => Some(v),
        _ => None,
    }
}

fn telnet(o: &mut Obj) -> Option<&mut Telnet> {
    match source(o)? {
        Source::Telnet(t) => Some(t),
        _ => None,
    }
}

/// `Application/Traffic/CBR`'s (tools/cbr_traffic.cc
/// `CBR_Traffic::CBR_Traffic`).
pub static CBR: Table<Cbr> = Table {
    class: "Application/Traffic/CBR",
    part: cbr,
    vars: &[
        var("rate_", Bandwidth, "448Kb", |c, _| real(c.rate), |c, v, _| Ok(c.rate = parse_bw(v))),
        var("random_", Real, "0", |c, _| real(c.random), |c, v, _| Ok(c.random = parse_real(v))),
        var("packetSize_", Int, "210", |c, _| int(c.size), |c, v, _| Ok(c.size = parse_int(v))),
        var("maxpkts_", Int, "268435456", |c, _| int(c.maxpkts), |c, v, _| Ok(c.maxpkts = parse_int(v))),
    ],
    after_set: None,
};

/// The on/off variables, each of the two generators binding its own with
/// its own defaults (expoo.cc, pareto.cc).
const fn burst_time(default: &'static str) -> Var<OnOff> {
    var("burst_time_", Time, default, |o, _| real(o.ontime), |o, v, _| Ok(o.ontime = parse_time(v)))
}

const fn idle_time(default: &'static str) -> Var<OnOff> {
    within(var("idle_time_", Time, default, |o, _| real(o.offtime), |o, v, _| Ok(o.offtime = parse_time(v))),
        Range::NonNegativeTime, "the mean off period: ns-2 draws negative delays from a negative one and aborts (scheduler going backwards)")
}

const fn rate(default: &'static str) -> Var<OnOff> {
    within(var("rate_", Bandwidth, default, |o, _| real(o.rate), |o, v, _| Ok(o.rate = parse_bw(v))),
        Range::Bandwidth, "the rate during a burst: ns-2 divides the packet size by it (0: a floating-point exception; infinite: every packet at one instant)")
}

const fn packet_size(default: &'static str) -> Var<OnOff> {
    var("packetSize_", Int, default, |o, _| int(o.size), |o, v, _| Ok(o.size = parse_int(v)))
}

/// `Application/Traffic/Exponential`'s (tools/expoo.cc
/// `EXPOO_Traffic::EXPOO_Traffic`).
pub static EXPONENTIAL: Table<OnOff> = Table {
    class: "Application/Traffic/Exponential",
    part: onoff,
    vars: &[burst_time(".5"), idle_time(".5"), rate("64Kb"), packet_size("210")],
    after_set: None,
};

/// `Application/Traffic/Pareto`'s (tools/pareto.cc `POO_Traffic::POO_Traffic`);
/// its `shape_` is [`PARETO_SHAPE`].
pub static PARETO: Table<OnOff> = Table {
    class: "Application/Traffic/Pareto",
    part: onoff,
    vars: &[burst_time("500ms"), idle_time("500ms"), rate("64Kb"), packet_size("210")],
    after_set: None,
};

pub static PARETO_SHAPE: Table<f64> = Table {
    class: "Application/Traffic/Pareto",
    part: pareto_shape,
    vars: &[within(var("shape_", Real, "1.5", |s, _| real(*s), |s, v, _| Ok(*s = parse_real(v))),
        Range::Positive, "the Pareto shape of the burst and idle lengths: ns-2 divides by it (0: a floating-point exception); below 0 they are no Pareto distribution")],
    after_set: None,
};

/// `Application/Telnet`'s (apps/telnet.cc `TelnetApp::TelnetApp`: the mean
/// time between packets, 0 for tcplib's distribution).
pub static TELNET: Table<Telnet> = Table {
    class: "Application/Telnet",
    part: telnet,
    vars: &[var("interval_", Real, "1.0", |t, _| real(t.interval), |t, v, _| Ok(t.interval = parse_real(v)))],
    after_set: None,
};

/// `Application/Traffic/VoIPCalls` (Dumbbell's own class; voip.rs): VoIP
/// calls as a birth-death process over one agent, with seed 003's
/// defaults (lambda 2 calls/s, mean holding 100 s, P.59 talk spurts of
/// 1.008 s and silences of 1.587 s, 120 B every 10 ms).  `mu_` is
/// 1/`holding_` (setting either sets both).  The counters are read-only:
/// `calls_started_`, `calls_ended_`, `calls_blocked_`, `calls_` (up
/// now), `pkts_sent_`, `mean_calls_` (time-average since start).
pub static VOIP_CALLS: Table<VoipCalls> = Table {
    class: "Application/Traffic/VoIPCalls",
    part: voip,
    vars: &[
        within(var("lambda_", Real, "2", |v, _| real(v.lambda), |v, x, _| Ok(v.lambda = parse_real(x))),
            Range::NonNegative, "calls arriving per second (0: none)"),
        within(var("holding_", Time, "100", |v, _| real(v.holding), |v, x, _| Ok(v.holding = parse_time(x))),
            Range::PositiveTime, "the mean length of a call: the calls' departure rate is its inverse"),
        within(var("mu_", Real, "0.01", |v, _| real(1.0 / v.holding), |v, x, _| Ok(v.holding = 1.0 / parse_real(x))),
            Range::Positive, "the calls' departure rate, 1/holding_: 0 or less is no mean holding time"),
        within(var("burst_time_", Time, "1.008", |v, _| real(v.ontime), |v, x, _| Ok(v.ontime = parse_time(x))),
            Range::PositiveTime, "the mean talk spurt: 0 sends nothing, less is no length of time"),
        within(var("idle_time_", Time, "1.587", |v, _| real(v.offtime), |v, x, _| Ok(v.offtime = parse_time(x))),
            Range::NonNegativeTime, "the mean silence: a negative one schedules into the past"),
        within(var("packetSize_", Int, "120", |v, _| int(v.size), |v, x, _| Ok(v.size = parse_int(x))),
            Range::PositiveBytes, "the size of a voice packet"),
        within(var("interval_", Time, "0.01", |v, _| real(v.interval), |v, x, _| Ok(v.interval = parse_time(x))),
            Range::PositiveTime, "the time between a spurt's packets: 0 sends without end at one instant"),
        var("stationary_start_", Bool, "true", |v, _| boolean(v.stationary_start), |v, x, _| Ok(v.stationary_start = parse_bool(x))),
        within(var("max_calls_", Int, "100000", |v, _| int(v.max_calls as i32), |v, x, _| Ok(v.max_calls = parse_int(x) as u32)),
            Range::PositiveInt, "the most calls up at once (beyond it, calls are blocked)"),
        var("calls_started_", Real, "0", |v, _| real(v.stats.started as f64), |_, _, _| Ok(())),
        var("calls_ended_", Real, "0", |v, _| real(v.stats.ended as f64), |_, _, _| Ok(())),
        var("calls_blocked_", Real, "0", |v, _| real(v.stats.blocked as f64), |_, _, _| Ok(())),
        var("calls_", Int, "0", |v, _| int(v.stats.active as i32), |_, _, _| Ok(())),
        var("pkts_sent_", Real, "0", |v, _| real(v.stats.packets as f64), |_, _, _| Ok(())),
        var("mean_calls_", Real, "0", |v, w| real(v.stats_at(w.s.now).mean_calls()), |_, _, _| Ok(())),
    ],
    after_set: None,
};

fn app(source: Source) -> Obj {
    Obj::App(App { source: Some(source), ..App::default() })
}

/// An application whose behaviour is in the Tcl library (FTP's).
pub fn make_application(_: &mut Sim, _: ObjId) -> Obj {
    Obj::App(App::default())
}

/// Its timer, on the RNG that is the default now.
pub fn make_exponential(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    let stream = sim.w.rng.default_idx;
    app(Source::OnOff(Box::new(OnOff::exponential(timer, stream))))
}

/// Its timer, on the RNG that is the default now.
pub fn make_voip_calls(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    let stream = sim.w.rng.default_idx;
    app(Source::VoipCalls(Box::new(VoipCalls::new(timer, stream))))
}

pub fn make_pareto(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    app(Source::OnOff(Box::new(OnOff::pareto(timer))))
}

pub fn make_cbr(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    app(Source::Cbr(Box::new(Cbr::new(timer))))
}

pub fn make_telnet(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    app(Source::Telnet(Box::new(Telnet::new(timer))))
}
