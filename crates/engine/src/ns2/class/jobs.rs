//! ns-2's JoBS queue and its edge queues (queue/jobs.cc `Queue/JoBS`,
//! marker.cc `Queue/Marker`, demarker.cc `Queue/Demarker`): their bound
//! variables (ns-default.tcl gives them none: these defaults are the
//! values the JoBS examples set) and their commands.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::ns2::tclcl::{atoi, parse_real};
use crate::qdisc::jobs::Constraint;
use crate::qdisc::{ClassCounter, ClassMarker, Jobs, Qdisc, Queue};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn jobs(o: &mut Obj) -> Option<&mut Jobs> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<Jobs>(),
        _ => None,
    }
}

fn marker(o: &mut Obj) -> Option<&mut ClassMarker> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<ClassMarker>(),
        _ => None,
    }
}

fn demarker(o: &mut Obj) -> Option<&mut ClassCounter> {
    match o {
        Obj::Queue(q) => q.disc.get_mut::<ClassCounter>(),
        _ => None,
    }
}

/// `JoBS`'s.
pub static JOBS: Table<Jobs> = Table {
    class: "Queue/JoBS",
    part: jobs,
    vars: &[
        var("drop_front_", Bool, "false", |j, _| boolean(j.drop_front), |j, v, _| Ok(j.drop_front = parse_bool(v))),
        var("trace_hop_", Bool, "false", |j, _| boolean(j.trace_hop), |j, v, _| Ok(j.trace_hop = parse_bool(v))),
        within(var("mean_pkt_size_", Real, "4000", |j, _| real(j.mean_pkt_size), |j, v, _| Ok(j.mean_pkt_size = parse_real(v))),
            Range::Positive, "the delay controller's gain divides by it"),
        within(var("adc_resolution_type_", Int, "0", |j, _| int(j.adc_resolution_type), |j, v, _| Ok(j.adc_resolution_type = parse_int(v))),
            Range::OneOf(&[0, 1], "0 (drop from the classes short of service) or 1 (from all classes)"),
            "how drops for the delay bounds are spread"),
        var("shared_buffer_", Bool, "false", |j, _| boolean(j.shared_buffer), |j, v, _| Ok(j.shared_buffer = parse_bool(v))),
    ],
    after_set: None,
};

/// `Marker`'s per-class arrival counts.
pub static MARKER: Table<ClassMarker> = Table {
    class: "Queue/Marker",
    part: marker,
    vars: &[
        var("marker_arrvs1_", Real, "0", |m, _| real(m.arrivals[1]), |m, v, _| Ok(m.arrivals[1] = parse_real(v))),
        var("marker_arrvs2_", Real, "0", |m, _| real(m.arrivals[2]), |m, v, _| Ok(m.arrivals[2] = parse_real(v))),
        var("marker_arrvs3_", Real, "0", |m, _| real(m.arrivals[3]), |m, v, _| Ok(m.arrivals[3] = parse_real(v))),
        var("marker_arrvs4_", Real, "0", |m, _| real(m.arrivals[4]), |m, v, _| Ok(m.arrivals[4] = parse_real(v))),
    ],
    after_set: None,
};

/// `Demarker`'s per-class departure counts.
pub static DEMARKER: Table<ClassCounter> = Table {
    class: "Queue/Demarker",
    part: demarker,
    vars: &[
        var("demarker_arrvs1_", Real, "0", |m, _| real(m.departures[1]), |m, v, _| Ok(m.departures[1] = parse_real(v))),
        var("demarker_arrvs2_", Real, "0", |m, _| real(m.departures[2]), |m, v, _| Ok(m.departures[2] = parse_real(v))),
        var("demarker_arrvs3_", Real, "0", |m, _| real(m.departures[3]), |m, v, _| Ok(m.departures[3] = parse_real(v))),
        var("demarker_arrvs4_", Real, "0", |m, _| real(m.departures[4]), |m, v, _| Ok(m.departures[4] = parse_real(v))),
    ],
    after_set: None,
};

fn make(sim: &mut Sim, id: ObjId, disc: Qdisc) -> Obj {
    let slot = sim.w.s.new_resume(id);
    Obj::Queue(Box::new(Queue::new(disc, slot)))
}

pub fn make_jobs(sim: &mut Sim, id: ObjId) -> Obj {
    make(sim, id, Qdisc::boxed(Jobs::new()))
}

pub fn make_marker(sim: &mut Sim, id: ObjId) -> Obj {
    make(sim, id, Qdisc::boxed(ClassMarker::default()))
}

pub fn make_demarker(sim: &mut Sim, id: ObjId) -> Obj {
    make(sim, id, Qdisc::boxed(ClassCounter::default()))
}

/// Is `id` one of these queues?
pub fn is_jobs_family(sim: &Sim, id: ObjId) -> bool {
    matches!(&sim.objs[id as usize], Obj::Queue(q)
        if q.disc.get::<Jobs>().is_some() || q.disc.get::<ClassMarker>().is_some() || q.disc.get::<ClassCounter>().is_some())
}

fn queue_disc(sim: &mut Sim, id: ObjId) -> &mut Qdisc {
    match &mut sim.objs[id as usize] {
        Obj::Queue(q) => &mut q.disc,
        _ => unreachable!("not a queue"),
    }
}

/// The commands of the three: JoBS's `init-rdcs`, `init-rlcs`,
/// `init-adcs`, `init-alcs`, `init-arcs` (four values, -1 for none),
/// `link`, `sampling-period`, `id`, `trace-file`, `initialize`,
/// `copyright-info`; the marker's `marker_type`, `marker_class`; the
/// demarker's `trace-file`, `id`.  `None`: not one of theirs.
pub fn command(sim: &mut Sim, id: ObjId, argv: &[&str]) -> Option<Result<String, String>> {
    let (cmd, n) = (argv[0], argv.len());
    let disc = queue_disc(sim, id);
    if disc.get::<Jobs>().is_some() {
        let which = match cmd {
            "init-rdcs" => Some(Constraint::Rdc),
            "init-rlcs" => Some(Constraint::Rlc),
            "init-adcs" => Some(Constraint::Adc),
            "init-alcs" => Some(Constraint::Alc),
            "init-arcs" => Some(Constraint::Arc),
            _ => None,
        };
        if let Some(which) = which {
            if n < 5 {
                return Some(Err(format!("{cmd}: one value per class expected (four; -1 for none), got {}", n - 1)));
            }
            let v = [parse_real(argv[1]), parse_real(argv[2]), parse_real(argv[3]), parse_real(argv[4])];
            let text = disc.get_mut::<Jobs>().unwrap().set_constraints(which, v);
            if n == 5 {
                sim.w.c_stdout.extend_from_slice(text.as_bytes());
            }
            return Some(Ok(String::new()));
        }
        let r = match (cmd, n) {
            ("link", 2) => {
                let bw = match sim.lookup(argv[1]).map(|l| &sim.objs[l as usize]) {
                    Some(Obj::Link(dl)) => dl.bandwidth,
                    _ => return Some(Err(format!("JoBS: no LinkDelay object {}", argv[1]))),
                };
                queue_disc(sim, id).get_mut::<Jobs>().unwrap().bandwidth = bw;
                Ok(String::new())
            }
            ("sampling-period", 2) => {
                let s = atoi(argv[1]);
                if s < 0 {
                    Err(format!("sampling-period {}: JoBS: sampling period must be positive (ns-2 aborts)", argv[1]))
                } else {
                    disc.get_mut::<Jobs>().unwrap().sampling_period = s;
                    Ok(String::new())
                }
            }
            ("id", 2) => {
                disc.get_mut::<Jobs>().unwrap().link_id = parse_real(argv[1]) as i32;
                Ok(String::new())
            }
            ("trace-file", 2) => {
                disc.get_mut::<Jobs>().unwrap().set_trace_file(argv[1]);
                Ok(String::new())
            }
            ("initialize", 1) => disc.get_mut::<Jobs>().unwrap().initialize().map(|_| String::new()),
            ("copyright-info", 1) => {
                sim.w.c_stdout.extend_from_slice(
                    b"\n----------------------------------------------------------\n\n\
                      JoBS scheduler/dropper [prototype ns-2 implementation]\n\
                      (Dumbbell's model of ns-2 2.35's queue/jobs.cc, by Nicolas Christin; JoBS by Nicolas Christin and Jorg Liebeherr)\n\
                      ----------------------------------------------------------\n\n",
                );
                Ok(String::new())
            }
            _ => return None,
        };
        return Some(r);
    }
    if let Some(m) = disc.get_mut::<ClassMarker>() {
        let r = match (cmd, n) {
            ("marker_type", 2) => match atoi(argv[1]) {
                1 => {
                    m.kind = 1;
                    Ok(String::new())
                }
                2 => Err("marker_type 2 (random class marking, drand48) is not supported yet; 1 marks every packet with marker_class".into()),
                t => Err(format!("marker_type {t}: Wrong Marker Type (1: every packet marker_class; ns-2 aborts)")),
            },
            ("marker_class", 2) => {
                let c = atoi(argv[1]);
                if !(1..=4).contains(&c) {
                    Err(format!("marker_class {}: Wrong Marker Class (the classes are 1 to 4; ns-2 aborts)", argv[1]))
                } else {
                    m.class = c;
                    Ok(String::new())
                }
            }
            ("init-seed", 2) | ("marker_frc", 5) => Err(format!("{cmd}: random class marking (marker_type 2) is not supported yet")),
            _ => return None,
        };
        return Some(r);
    }
    if let Some(m) = disc.get_mut::<ClassCounter>() {
        let r = match (cmd, n) {
            ("trace-file", 2) if argv[1] == "null" => {
                m.kind = 2;
                Ok(String::new())
            }
            ("trace-file", 2) => Err(format!(
                "trace-file {}: Queue/Demarker's per-class delay files are not supported yet (trace-file null is)",
                argv[1]
            )),
            ("id", 2) => Ok(String::new()),
            _ => return None,
        };
        return Some(r);
    }
    None
}
