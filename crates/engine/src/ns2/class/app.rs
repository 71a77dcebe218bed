//! The applications: `Application` (apps/app.cc), the traffic generators
//! `Application/Traffic/CBR` (tools/cbr_traffic.cc), `/Exponential`
//! (tools/expoo.cc) and `/Pareto` (tools/pareto.cc), and
//! `Application/Telnet` (apps/telnet.cc).

use crate::ns2::bind::*;
use crate::objs::{App, Source};
use crate::onoff::{Dist, OnOff};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::telnet::Telnet;
use crate::udp::Cbr;
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
    var("idle_time_", Time, default, |o, _| real(o.offtime), |o, v, _| Ok(o.offtime = parse_time(v)))
}

const fn rate(default: &'static str) -> Var<OnOff> {
    var("rate_", Bandwidth, default, |o, _| real(o.rate), |o, v, _| Ok(o.rate = parse_bw(v)))
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
    vars: &[var("shape_", Real, "1.5", |s, _| real(*s), |s, v, _| Ok(*s = parse_real(v)))],
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
