//! `Queue/FQ` (queue/fq.cc `FQ`): fair queueing by finish times over
//! per-flow DropTail, RED, SFQ or DRR queues (qdisc/finish_fq.rs), the queue of
//! ns-2's `FQLink`.  The flow queues are not objects here: `FQLink`
//! (link.tcl) gives the queue the kind and capacity a new flow queue has
//! (`flow-queue`, from `FQLink`'s `queueManagement_` and the class defaults
//! of `Queue/DropTail`, `Queue/RED`, `Queue/SFQ` or `Queue/DRR`, kept
//! current as they change).

use super::queue::{queue, RED, RED_QUEUE};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::finish_fq::FlowSpec;
use crate::qdisc::subqueue::SubQueue as FlowQueue;
use crate::qdisc::{Capacity, FinishFq, Red};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn fq(o: &mut Obj) -> Option<&mut FinishFq> {
    queue(o)?.disc.get_mut::<FinishFq>()
}

/// `secsPerByte_`: the link's time per byte (FQLink sets it from the
/// link's bandwidth), which a packet's finish time grows by per byte.
pub static FQ: Table<FinishFq> = Table {
    class: "Queue/FQ",
    part: fq,
    vars: &[
        within(var("secsPerByte_", Real, "0", |q, _| real(q.secs_per_byte), |q, v, _| non_negative_real("secsPerByte_", v).map(|x| q.secs_per_byte = x)),
            Range::NonNegative, "a packet's length in the finish times is its size times this"),
    ],
    after_set: None,
};

fn non_negative_real(name: &str, v: &str) -> Result<f64, String> {
    let x = parse_real(v);
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("{name} must be {}, got \"{v}\"", Range::NonNegative.describe()))
    }
}

impl Sim {
    /// Is `id` an FQ queue?
    pub(crate) fn is_finish_fq(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<FinishFq>().is_some())
    }

    /// `flow-queue LIMIT IN_BYTES DROP_FRONT MEAN_PKTSIZE`: the flow queues
    /// made from now on are DropTail ones of this capacity.
    /// `flow-queue RED VAR VALUE ...`: they are RED ones with these
    /// variables (Queue/RED's bound variables and their class defaults;
    /// those RED does not read are ignored).  `flow-queue KIND VAR VALUE
    /// ...` (KIND one of [`MADE_KINDS`]): ones of that kind with these
    /// (its class defaults), made as `new Queue/KIND` makes them.
    pub(crate) fn finish_fq_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        match (argv[0], argv.len()) {
            ("flow-queue", 5) => {
                let limit = parse_int(argv[1]);
                let mean = parse_int(argv[4]);
                if mean <= 0 {
                    return Err(format!("Queue/FQ: a flow queue's mean_pktsize_ must be a positive number of bytes, got \"{}\"", argv[4]));
                }
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                let d = q.disc.get_mut::<FinishFq>().expect("FQ queue");
                d.flow_cap = Capacity { limit, in_bytes: parse_bool(argv[2]), drop_front: parse_bool(argv[3]), mean_pktsize: mean };
                d.flow_spec = FlowSpec::DropTail;
                Ok(String::new())
            }
            ("flow-queue", n) if n % 2 == 0 && argv[1] == "RED" => {
                let (cap, red) = self.red_flow_queue(&argv[2..])?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                let d = q.disc.get_mut::<FinishFq>().expect("FQ queue");
                d.flow_cap = cap;
                d.flow_spec = FlowSpec::Red(Box::new(red));
                Ok(String::new())
            }
            ("flow-queue", n) if n % 2 == 0 && MADE_KINDS.contains(&argv[1]) => {
                let spec = self.made_flow_queue(argv[1], &argv[2..])?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                let d = q.disc.get_mut::<FinishFq>().expect("FQ queue");
                d.flow_cap = spec.1;
                d.flow_spec = FlowSpec::Made(Box::new(spec.0));
                Ok(String::new())
            }
            // `flow-drop-target OBJ`: where the flow queues' drops go (FQLink's
            // `$q drop-target $drpT_`), the queue's early-drop target
            ("flow-drop-target", 2) => {
                let o = self.lookup(argv[1]).ok_or_else(|| format!("no object {}", argv[1]))?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.early_drop_target = o;
                Ok(String::new())
            }
            ("install", 3) => Err("Queue/FQ install: Dumbbell's FQ makes its flow queues itself (FQLink); \
                                   a queue object cannot be installed as a flow's".into()),
            (cmd, _) => Err(format!("unknown command \"{cmd}\"")),
        }
    }
}

impl Sim {
    /// A RED flow queue as `new Queue/RED` makes it: every variable red.cc
    /// binds set from `pairs` (name, value, ...), nothing else (ns-2 never
    /// resets a flow queue nor gives it the link: qdisc/finish_fq.rs).
    fn red_flow_queue(&mut self, pairs: &[&str]) -> Result<(Capacity, Red), String> {
        let mut cap = Capacity { limit: 50, in_bytes: true, drop_front: false, mean_pktsize: 500 };
        let mut red = Red::new();
        for kv in pairs.chunks(2) {
            let (name, value) = (kv[0], kv[1]);
            let bad = |e: String| format!("Queue/FQ: a RED flow queue (FQLink set queueManagement_ RED) takes Queue/RED's class defaults: {e}");
            if let Some(v) = RED.vars.iter().find(|v| v.name == name) {
                if let Some(a) = &v.access {
                    v.range.check(name, value).map_err(bad)?;
                    (a.set)(&mut red, value, &mut self.w).map_err(bad)?;
                }
                continue;
            }
            if let Some(v) = RED_QUEUE.vars.iter().find(|v| v.name == name) {
                v.range.check(name, value).map_err(bad)?;
            }
            match name {
                "limit_" => cap.limit = parse_int(value),
                "queue_in_bytes_" => cap.in_bytes = parse_bool(value),
                "drop_front_" => cap.drop_front = parse_bool(value),
                "mean_pktsize_" => cap.mean_pktsize = parse_int(value),
                _ => {}
            }
        }
        Ok((cap, red))
    }
}

/// The flow queue kinds made as `new Queue/KIND` objects are (FQLink's
/// `queueManagement_` names them without `Queue/`).
pub(crate) const MADE_KINDS: &[&str] = &["SFQ", "DRR", "PI", "REM", "Vq", "GK", "SRR", "RED/RIO", "DropTail/PriQueue"];

impl Sim {
    /// An SFQ, DRR, PI, REM, Vq, GK, SRR, RIO or PriQueue flow queue's kind (`kind`,
    /// one of [`MADE_KINDS`]) and capacity, as `new Queue/KIND` makes it:
    /// an object of that class made with the variables its classes bind
    /// set from `pairs` (name, value, ...: their class defaults), whose
    /// discipline is taken (the object is left an empty DropTail).  Each
    /// new flow gets a copy, whose constructor runs then
    /// (qdisc/finish_fq.rs).
    fn made_flow_queue(&mut self, kind: &str, pairs: &[&str]) -> Result<(FlowQueue, Capacity), String> {
        // "an SFQ", "an SRR" (said letter by letter), "a DRR", "a PI", ...
        let a = if kind.starts_with('S') { "an" } else { "a" };
        let bad = |e: String| format!("Queue/FQ: {a} {kind} flow queue (FQLink set queueManagement_ {kind}) takes Queue/{kind}'s class defaults: {e}");
        let n = self.objs.len();
        let id = self.create(&format!("_fq_flow_queue{n}"), &format!("Queue/{kind}"))?;
        let defaults: Vec<(String, String)> = pairs.chunks(2).map(|kv| (kv[0].to_string(), kv[1].to_string())).collect();
        self.init_defaults(id, &defaults).map_err(bad)?;
        self.take_sub_queue(id).ok_or_else(|| format!("Queue/FQ: Queue/{kind} cannot be a flow queue"))
    }
}
