//! The commands of `Queue/XCP` (ns-2's `XCPWrapQ::command` and the
//! `queue-limit` instproc of ns-queue.tcl): `$q set-link-capacity BPS`,
//! `$q queue-limit N`.  The queue's own trace file
//! (`attach`, `queue-sample-everyrtt`, `num-mice`) is not modelled: those
//! are errors that say so.

use crate::qdisc::xcp::Xcp;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

impl Sim {
    /// Is `id` a `Queue/XCP`?
    pub(crate) fn is_xcp(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Xcp>().is_some())
    }

    /// A command of a `Queue/XCP`.
    pub(crate) fn xcp_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!("not a queue") };
        let x = q.disc.get_mut::<Xcp>().expect("an XCP queue");
        match (argv[0], argv.len()) {
            ("set-link-capacity", 2) => {
                let bps: f64 = argv[1]
                    .parse()
                    .map_err(|_| format!("Queue/XCP set-link-capacity {}: expected a bandwidth in bits per second", argv[1]))?;
                if bps < 0.0 || !bps.is_finite() {
                    return Err(format!("Queue/XCP set-link-capacity {}: the capacity must be a non-negative number", argv[1]));
                }
                x.set_link_capacity(bps);
            }
            ("queue-limit", 2) => {
                let n: i32 = argv[1]
                    .parse()
                    .map_err(|_| format!("Queue/XCP queue-limit {}: expected a number of packets", argv[1]))?;
                x.set_limit(n);
            }
            // (the library's `Queue/XCP instproc init`: ns-2 makes the
            // virtual queues with `new`, so they start with the class
            // defaults of the moment -- `Queue set limit_` for all three,
            // Queue/DropTail's for the XCP packets' Queue/DropTail/XCPQ)
            ("xcpq-defaults", 5) => {
                let limit = crate::ns2::tclcl::atoi(argv[1]);
                x.set_limit(limit);
                x.set_xcpq_droptail(
                    crate::ns2::tclcl::parse_bool(argv[2]),
                    crate::ns2::tclcl::parse_bool(argv[3]),
                    crate::ns2::tclcl::atoi(argv[4]),
                );
            }
            ("attach" | "queue-sample-everyrtt" | "num-mice", 2) | ("queue-read-drops", 1) => {
                return Err(format!("Queue/XCP {}: the XCP queue's own trace file is not supported by Dumbbell", argv[0]))
            }
            _ => return Err(format!("unknown command \"{}\"", argv[0])),
        }
        Ok(String::new())
    }
}
