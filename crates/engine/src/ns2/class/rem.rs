//! `Queue/REM` (queue/rem.cc `REMQueue`): Random Exponential Marking
//! (qdisc/rem.rs).  Its variables (REM binds `mean_pktsize_`, a double, and
//! `qib_` itself, not the queue's), its commands (`link`, `attach`,
//! `trace curq_|prob_`; `reset` re-arms the update timer without draining
//! the queue, as ns-2's, in ns2/commands.rs), and the update timer the
//! queue owns from its creation (ns-2's constructor arms it).

use super::queue::queue;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::qdisc::{Qdisc, Queue, Rem};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

fn rem(o: &mut Obj) -> Option<&mut Rem> {
    queue(o)?.disc.get_mut::<Rem>()
}

/// A REM queue, its update timer armed (`REMQueue::REMQueue` calls reset).
pub fn make_rem(sim: &mut Sim, id: ObjId) -> Obj {
    let slot = sim.w.s.new_resume(id);
    let mut r = Rem::new();
    r.timer = sim.w.s.new_timer(id, 0);
    r.reset(&mut sim.w);
    Obj::Queue(Box::new(Queue::new(Qdisc::boxed(r), slot)))
}

/// REM's variables, with ns-default.tcl's defaults.  The probability and
/// the traced queue length read back as of the last update or packet.
pub static REM: Table<Rem> = Table {
    class: "Queue/REM",
    part: rem,
    vars: &[
        var("gamma_", Real, "0.001", |r, _| real(r.gamma), |r, v, _| finite("gamma_", v).map(|x| r.gamma = x)),
        var("phi_", Real, "1.001", |r, _| real(r.phi), |r, v, _| finite("phi_", v).map(|x| r.phi = x)),
        var("inw_", Real, "1", |r, _| real(r.inw), |r, v, _| finite("inw_", v).map(|x| r.inw = x)),
        // REM divides the link rate and byte counts by it
        var("mean_pktsize_", Real, "1000", |r, _| real(r.pktsize), |r, v, _| positive("mean_pktsize_", v).map(|x| r.pktsize = x)),
        // the update timer's period: 0 would re-arm it forever at one instant
        var("pupdtime_", Real, "0.002", |r, _| real(r.updtime), |r, v, _| positive("pupdtime_", v).map(|x| r.updtime = x)),
        var("pbo_", Real, "20.0", |r, _| real(r.bo), |r, v, _| finite("pbo_", v).map(|x| r.bo = x)),
        var("prob_", TracedReal, "0.0", |r, _| real(r.prob), |r, v, w| finite("prob_", v).map(|x| r.set_prob(w, x))),
        var("curq_", TracedInt, "0.0", |r, _| int(r.curq), |r, v, _| Ok(r.curq = parse_int(v))),
        var("pmark_", Real, "0.0", |r, _| real(r.pmark), |r, v, _| Ok(r.pmark = parse_real(v))),
        var("markpkts_", Bool, "false", |r, _| boolean(r.markpkts), |r, v, _| Ok(r.markpkts = parse_bool(v))),
        var("qib_", Bool, "false", |r, _| boolean(r.qib), |r, v, _| Ok(r.qib = parse_bool(v))),
    ],
    after_set: None,
};

impl Sim {
    /// Is `id` a REM queue?
    pub(crate) fn is_rem(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Rem>().is_some())
    }

    fn rem_mut(&mut self, id: ObjId) -> &mut Rem {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<Rem>().expect("a REM queue"),
            _ => unreachable!("not a queue"),
        }
    }

    /// `REMQueue::reset`: REM's state and timer (the queue is not drained).
    pub(crate) fn rem_reset(&mut self, id: ObjId) {
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!("not a queue") };
        q.disc.get_mut::<Rem>().expect("a REM queue").reset(&mut self.w);
    }

    /// `REMQueue::command`.
    pub(crate) fn rem_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        match (cmd, n) {
            ("link", 2) => {
                let bw = match self.lookup(argv[1]).map(|l| &self.objs[l as usize]) {
                    Some(Obj::Link(dl)) => dl.bandwidth,
                    _ => return Err(format!("REM: no LinkDelay object {}", argv[1])),
                };
                self.rem_mut(id).set_link(bw);
            }
            ("attach", 2) => {
                let ch = self.w.out.channel(argv[1]);
                self.rem_mut(id).channel = Some(ch);
            }
            ("trace", 2) | ("trace", 3) => {
                if n == 3 && argv[2] != self.name(id) {
                    return Err("trace with a separate tracer object is not supported yet".into());
                }
                let curq = match argv[1] {
                    "curq_" => true,
                    "prob_" => false,
                    v => return Err(format!("trace: {v} is not a TracedVar of Queue/REM (it has curq_ and prob_)")),
                };
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.disc.get_mut::<Rem>().expect("a REM queue").trace(&mut self.w, curq);
            }
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }
}
