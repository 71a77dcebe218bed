//! The commands of `Queue/DRR`, `Queue/SFQ`, `Queue/Vq` and `Queue/GK` (ns-2's
//! `DRR::command`, `SFQ::command`, `Vq::command`, `GK::command`): `$q blimit N`, `$q
//! buckets N`, `$q quantum N`, `$q mask N` for DRR; `$q limit N`, `$q
//! buckets N` for SFQ; `$q link $delay`, `$q attach $chan`, `$q trace
//! curq_` for Vq and GK.  Values ns-2 would crash or hang on are errors naming the
//! command and the value.

use crate::ns2::class::fairq::{above_zero, zero_or_more};
use crate::qdisc::{Drr, Gk, Sfq, Vq};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

impl Sim {
    /// Is `id` a DRR or SFQ queue?
    pub(crate) fn is_fairq(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Drr>().is_some() || q.disc.get::<Sfq>().is_some() || q.disc.get::<Vq>().is_some() || q.disc.get::<Gk>().is_some())
    }

    /// The commands of the virtual-queue AQMs (Vq, GK).
    fn vq_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let class = if self.vq_mut(id).is_some() { "Queue/Vq" } else { "Queue/GK" };
        match (cmd, n) {
            ("link", 2) => {
                let bw = match self.lookup(argv[1]).map(|l| &self.objs[l as usize]) {
                    Some(Obj::Link(dl)) => dl.bandwidth,
                    _ => return Err(format!("{class}: no LinkDelay object {}", argv[1])),
                };
                match self.vq_mut(id) {
                    Some(v) => v.set_link(bw),
                    None => self.gk_mut(id).set_link(bw),
                }
            }
            ("attach", 2) => {
                let ch = Some(self.w.out.channel(argv[1]));
                match self.vq_mut(id) {
                    Some(v) => v.channel = ch,
                    None => self.gk_mut(id).channel = ch,
                }
            }
            ("trace", 2) if argv[1] == "curq_" => {
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                match q.disc.get_mut::<Vq>() {
                    Some(v) => v.trace(&mut self.w),
                    None => q.disc.get_mut::<Gk>().expect("a GK queue").trace(&mut self.w),
                }
            }
            ("trace", 2) => return Err(format!("trace: {} is not a TracedVar of {class} (curq_ is)", argv[1])),
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }

    fn gk_mut(&mut self, id: ObjId) -> &mut Gk {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<Gk>().expect("a GK queue"),
            _ => unreachable!("not a queue"),
        }
    }

    fn vq_mut(&mut self, id: ObjId) -> Option<&mut Vq> {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<Vq>(),
            _ => None,
        }
    }

    /// A command of a DRR or SFQ queue.
    pub(crate) fn fairq_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        if matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Vq>().is_some() || q.disc.get::<Gk>().is_some()) {
            return self.vq_command(id, argv);
        }
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!("not a queue") };
        let (cmd, n) = (argv[0], argv.len());
        if let Some(d) = q.disc.get_mut::<Drr>() {
            match (cmd, n) {
                ("blimit", 2) => {
                    let b = zero_or_more("blimit", argv[1])?;
                    if (crate::qdisc::Discipline::bytes(d)) > b as i64 {
                        return Err(format!("blimit {b}: the DRR queue holds {} bytes, more than the new limit", crate::qdisc::Discipline::bytes(d)));
                    }
                    d.blimit = b;
                }
                ("buckets", 2) => {
                    let b = above_zero("buckets", argv[1])?;
                    d.clear()?;
                    d.buckets = b;
                }
                ("quantum", 2) => d.quantum = above_zero("quantum", argv[1])?,
                ("mask", 2) => d.mask = crate::ns2::tclcl::parse_int(argv[1]),
                _ => return Err(format!("unknown command \"{cmd}\"")),
            }
            return Ok(String::new());
        }
        let s = q.disc.get_mut::<Sfq>().expect("an SFQ queue");
        match (cmd, n) {
            ("limit", 2) => s.set_limit(crate::ns2::tclcl::parse_int(argv[1]))?,
            ("buckets", 2) => {
                let b = above_zero("buckets", argv[1])?;
                if s.started() {
                    // ns-2 2.35's SFQ::clear never returns here
                    return Err("buckets: an SFQ queue's buckets cannot change once it has seen a packet".into());
                }
                s.buckets = b;
            }
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }
}
