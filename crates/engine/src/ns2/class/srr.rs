//! `Queue/SRR` (queue/srr.cc `SRR`): smoothed round robin
//! (qdisc/srr.rs), its bound variables and commands (`maxqueuenumber`,
//! `mtu`, `granularity`, `blimit`, `setqueue FLOW QUEUE`, `setrate QUEUE
//! RATE`).  Values ns-2 would exit, loop or divide by zero on are refused,
//! naming the command and the value.

use super::queue::{positive_int, queue};
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::Srr;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn srr(o: &mut Obj) -> Option<&mut Srr> {
    queue(o)?.disc.get_mut::<Srr>()
}

/// ns-default.tcl's defaults.
pub static SRR: Table<Srr> = Table {
    class: "Queue/SRR",
    part: srr,
    vars: &[
        var("maxqueuenumber_", Int, "16", |s, _| int(s.max_queues), |s, v, _| Ok(s.max_queues = parse_int(v))),
        within(var("mtu_", Int, "1000", |s, _| int(s.mtu), |s, v, _| positive_int("mtu_", v).map(|x| s.mtu = x)),
            Range::PositiveInt, "a queue's credit per turn: with 0 or less ns-2's dequeue loops for ever"),
        within(var("granularity_", Int, "1000", |s, _| int(s.granularity), |s, v, _| positive_int("granularity_", v).map(|x| s.granularity = x)),
            Range::PositiveInt, "the rate a weight of one stands for: ns-2 divides by it"),
        var("blimit_", Int, "25000", |s, _| int(s.blimit), |s, v, _| Ok(s.blimit = parse_int(v))),
    ],
    after_set: None,
};

/// A C `sscanf("%d")` of a whole-number argument, or the refusal.
fn number(cmd: &str, what: &str, v: &str) -> Result<i32, String> {
    let t = v.trim_start();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.starts_with(|c: char| c.is_ascii_digit()) {
        Ok(crate::ns2::tclcl::parse_int(t))
    } else {
        Err(format!("{cmd}: the {what} must be a number, got \"{v}\" (ns-2 exits)"))
    }
}

impl Sim {
    /// Is `id` an SRR queue?
    pub(crate) fn is_srr(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Srr>().is_some())
    }

    pub(crate) fn srr_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        let s = q.disc.get_mut::<Srr>().expect("SRR queue");
        match (argv[0], argv.len()) {
            ("blimit", 2) => s.set_blimit(parse_int(argv[1]))?,
            ("maxqueuenumber", 2) => s.max_queues = parse_int(argv[1]),
            ("mtu", 2) => s.mtu = positive_int("mtu", argv[1])?,
            ("granularity", 2) => s.granularity = positive_int("granularity", argv[1])?,
            ("setrate", 3) => {
                let queue = number("setrate", "queue", argv[1])?;
                let rate = number("setrate", "rate", argv[2])?;
                s.set_rate(queue, rate)?
            }
            ("setqueue", 3) => {
                let flow = number("setqueue", "flow", argv[1])?;
                let queue = number("setqueue", "queue", argv[2])?;
                s.set_queue(flow, queue)?
            }
            (cmd, _) => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }
}
