//! The packet traces: `Trace` and its kinds `Trace/Enque`, `/Deque`,
//! `/Drop`, `/Recv`, `/Hop` (trace/trace.cc), and `BaseTrace/Event`
//! (trace/basetrace.cc).

use crate::ns2::bind::*;
use crate::objs::Trace;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::ns2::tclcl::VarType::*;

fn trace(o: &mut Obj) -> Option<&mut Trace> {
    match o {
        Obj::Trace(t) => Some(t),
        _ => None,
    }
}

/// `Trace`'s (trace/trace.cc `Trace::Trace`).  A trace writes its lines to
/// its channel only: `callback_` (lines handed to `$trace handle`) is
/// accepted with a warning, and `show_sctphdr_` (SCTP's header columns)
/// has nothing to show.
pub static TRACE: Table<Trace> = Table {
    class: "Trace",
    part: trace,
    vars: &[
        var("src_", Int, "-1", |t, _| int(t.src), |t, v, _| Ok(t.src = parse_int(v))),
        var("dst_", Int, "-1", |t, _| int(t.dst), |t, v, _| Ok(t.dst = parse_int(v))),
        var("callback_", Int, "0", |_, _| int(0), |_, v, w| {
            if parse_int(v) != 0 {
                w.warn_once("Trace callback_ is not supported; trace lines are written to the file only".into());
            }
            Ok(())
        }),
        var("show_tcphdr_", Int, "0", |t, _| int(t.show_tcphdr as i32), |t, v, _| Ok(t.show_tcphdr = parse_int(v) != 0)),
        var("show_sctphdr_", Int, "0", |_, _| int(0), |_, _, _| Ok(())),
        debug(),
    ],
    after_set: None,
};

/// `BaseTrace/Event`'s `debug_` (`BaseTrace::BaseTrace`), with no class
/// default (`Trace`'s do not reach it: it is below `BaseTrace`).
pub static EVENT_TRACE: Table<Trace> = Table {
    class: "BaseTrace/Event",
    part: trace,
    vars: &[var_unset("debug_", Bool, |_, _| boolean(false), |_, _, _| Ok(()))],
    after_set: None,
};

/// A trace of kind `kind`, the character its lines start with (`v`: a plain
/// `Trace`, `E`: events).
fn make(kind: u8) -> Obj {
    Obj::Trace(Trace::new(kind))
}

pub fn make_trace(_: &mut Sim, _: ObjId) -> Obj {
    make(b'v')
}

pub fn make_enque(_: &mut Sim, _: ObjId) -> Obj {
    make(b'+')
}

pub fn make_deque(_: &mut Sim, _: ObjId) -> Obj {
    make(b'-')
}

pub fn make_drop(_: &mut Sim, _: ObjId) -> Obj {
    make(b'd')
}

pub fn make_recv(_: &mut Sim, _: ObjId) -> Obj {
    make(b'r')
}

pub fn make_hop(_: &mut Sim, _: ObjId) -> Obj {
    make(b'h')
}

pub fn make_event(_: &mut Sim, _: ObjId) -> Obj {
    make(b'E')
}
