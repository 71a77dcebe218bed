//! `Classifier/DelayBox`'s commands (delaybox/delaybox.cc; the core's box is
//! `flowdelay.rs`).  ns-2 gives them to the node (`Node/DelayBox`), whose
//! Tcl side (the library's delaybox.tcl) passes them to its classifier:
//!
//! ```tcl
//! set db [$ns DelayBox]
//! $db add-rule [$n(0) id] [$n(1) id] $delay_ms $loss_rate $speed_mbps   ;# loss and speed optional
//! $db set-asymmetric            ;# a flow's answer takes no values of its own
//! ```

use crate::flowdelay::Rule;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

impl Sim {
    fn delaybox_ranvar(&self, id: ObjId, what: &str, name: &str) -> Result<ObjId, String> {
        match self.lookup(name) {
            Some(o) if matches!(self.objs[o as usize], Obj::RanVar(_)) => Ok(o),
            _ => Err(format!("{} add-rule: the {what} \"{name}\" is not a RandomVariable", self.name(id))),
        }
    }

    pub(crate) fn delaybox_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        match (argv[0], argv.len()) {
            ("add-rule", 4..=6) => {
                let node = |s: &str| {
                    s.trim().parse::<i32>().map_err(|_| {
                        format!("{} add-rule: a node id must be an integer, got \"{s}\"", self.name(id))
                    })
                };
                let (src, dst) = (node(argv[1])?, node(argv[2])?);
                let delay = self.delaybox_ranvar(id, "delay", argv[3])?;
                let loss = match argv.get(4) {
                    Some(n) => Some(self.delaybox_ranvar(id, "loss rate", n)?),
                    None => None,
                };
                let speed = match argv.get(5) {
                    Some(n) => Some(self.delaybox_ranvar(id, "link speed", n)?),
                    None => None,
                };
                if let Obj::FlowDelay(d) = &mut self.objs[id as usize] {
                    d.rules.insert((src, dst), Rule { delay, loss, speed });
                }
                Ok(String::new())
            }
            ("add-rule", _) => Err(format!(
                "{} add-rule: expected SRC DST DELAY [LOSS [SPEED]] (node ids and RandomVariables), got {} arguments",
                self.name(id),
                argv.len() - 1
            )),
            ("set-asymmetric", 1) => {
                if let Obj::FlowDelay(d) = &mut self.objs[id as usize] {
                    d.symmetric = false;
                }
                Ok(String::new())
            }
            ("reset", 1) => Ok(String::new()),
            _ => Err(format!("unknown command \"{}\"", argv[0])),
        }
    }
}
