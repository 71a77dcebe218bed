//! `Tracefile` and `Application/Traffic/Trace` (trace/traffictrace.cc; the
//! core's source is `tracesrc.rs`):
//!
//! ```tcl
//! set tfile [new Tracefile]
//! $tfile filename example-trace     ;# 8-byte records: gap (us), size (bytes), big-endian
//! set src [new Application/Traffic/Trace]
//! $src attach-tracefile $tfile
//! $src attach-agent $udp
//! ```
//!
//! ns-2 reads the file when a source first starts and prints a message
//! (then reads garbage) if it cannot; here `filename` reads it, and a file
//! that cannot be read, or is not whole records, is an error there.

use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::objs::Source;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tracesrc::{Records, TraceSource};

impl Sim {
    pub(crate) fn tracefile_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        match (argv[0], argv.len()) {
            ("filename", 2) => {
                let path = argv[1];
                let bytes = std::fs::read(path).map_err(|e| format!("{} filename: cannot read trace file \"{path}\": {e}", self.name(id)))?;
                let recs = Records::parse(&bytes).map_err(|e| format!("{} filename: trace file \"{path}\": {e}", self.name(id)))?;
                if let Obj::Records(r) = &mut self.objs[id as usize] {
                    **r = recs;
                }
                Ok(String::new())
            }
            _ => Err(format!("unknown command \"{}\"", argv[0])),
        }
    }

    /// `$src attach-tracefile $tfile`.
    pub(crate) fn attach_tracefile(&mut self, id: ObjId, name: &str) -> Result<String, String> {
        let t = match self.lookup(name) {
            Some(t) if matches!(self.objs[t as usize], Obj::Records(_)) => t,
            // (ns-2's message)
            _ => return Err(format!("no such node {name}")),
        };
        match &mut self.objs[id as usize] {
            Obj::App(app) => match app.source.as_mut() {
                Some(Source::Trace(s)) => {
                    s.records = t;
                    Ok(String::new())
                }
                _ => Err("unknown command \"attach-tracefile\"".into()),
            },
            _ => unreachable!("an application"),
        }
    }
}

/// `Tracefile`'s `debug_` (an `NsObject`'s), with no class default: ns-2
/// warns of it when one is made.
pub static TRACEFILE: Table<Obj> = Table {
    class: "Tracefile",
    part: whole,
    vars: &[var_unset("debug_", Bool, |_, _| boolean(false), |_, _, _| Ok(()))],
    after_set: None,
};

/// A trace-driven source, with its timer.
pub fn make_traffic_trace(sim: &mut Sim, id: ObjId) -> Obj {
    let timer = sim.w.s.new_timer(id, 0);
    Obj::App(crate::objs::App { source: Some(Source::Trace(Box::new(TraceSource::new(timer)))), ..Default::default() })
}

/// A trace file's records (none until `filename`).
pub fn make_tracefile(_sim: &mut Sim, _id: ObjId) -> Obj {
    Obj::Records(Box::default())
}
