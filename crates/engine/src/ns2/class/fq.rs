//! `Queue/FQ` (queue/fq.cc `FQ`): fair queueing by finish times over
//! per-flow DropTail queues (qdisc/finish_fq.rs), the queue of ns-2's
//! `FQLink`.  The flow queues are not objects here: `FQLink` (link.tcl)
//! gives the queue the capacity a new flow queue has (`flow-queue`, from
//! `Queue/DropTail`'s class defaults, kept current as they change).

use super::queue::queue;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::FinishFq;
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

    /// `flow-queue LIMIT IN_BYTES DROP_FRONT MEAN_PKTSIZE`: the DropTail
    /// capacity of the flow queues made from now on.
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
                d.flow_cap = crate::qdisc::Capacity { limit, in_bytes: parse_bool(argv[2]), drop_front: parse_bool(argv[3]), mean_pktsize: mean };
                Ok(String::new())
            }
            ("install", 3) => Err("Queue/FQ install: Dumbbell's FQ makes its flow queues itself (FQLink); \
                                   a queue object cannot be installed as a flow's".into()),
            (cmd, _) => Err(format!("unknown command \"{cmd}\"")),
        }
    }
}
