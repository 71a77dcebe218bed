//! The In/Out tagger of ns-2's RIO set-up (tools/flowmon.cc `Tagger`,
//! `TaggerTBFlow`, tools/queue-monitor.h `SnoopQueueTagger`):
//! `QueueMonitor/ED/Tagger`, a flow monitor whose flows see only arrivals;
//! `QueueMonitor/ED/Flow/TB`, a flow with a token bucket (src/tagger.rs)
//! that tags the packets it covers In; `SnoopQueue/Tagger`, the arrival
//! snoop a link's head gets (`$ns attach-tagger`, in the library's
//! link.tcl, with `$ns maketbtagger`).

use super::monitor::make_flowmon;
use crate::ns2::bind::*;
use crate::ns2::tclcl::VarType::*;
use crate::objs::QueueMonitor;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::tagger::TokenBucket;

fn tb(o: &mut Obj) -> Option<&mut TokenBucket> {
    match o {
        Obj::QueueMonitor(q) => q.tb.as_deref_mut(),
        _ => None,
    }
}

/// A tagger: a flow monitor (its classifier finds each arrival's flow).
pub fn make_tagger(sim: &mut Sim, id: ObjId) -> Obj {
    let mut o = make_flowmon(sim, id);
    if let Obj::QueueMonitor(q) = &mut o {
        if let Some(f) = q.flowmon.as_mut() {
            f.tagger = true;
        }
    }
    o
}

/// A flow with a token bucket.
pub fn make_tb_flow(sim: &mut Sim, _: ObjId) -> Obj {
    let mut q = QueueMonitor::new_flow(sim.w.s.now);
    q.tb = Some(Box::default());
    q.refresh_plain();
    Obj::QueueMonitor(Box::new(q))
}

/// `SnoopQueue/Tagger`: an arrival snoop (`qm_->in(p)`, then on).
pub fn make_snoop_tagger(sim: &mut Sim, id: ObjId) -> Obj {
    super::monitor::make_snoop_in(sim, id)
}

pub static SNOOP_TAGGER: Table<Obj> = debug_only("SnoopQueue/Tagger");

/// The token bucket's (`target_rate_` a bandwidth, bits per second, of
/// which the bucket fills rate / 8 bytes a second; `bucket_depth_` and
/// `tbucket_`, the tokens, in bytes), with ns-default.tcl's defaults.
pub static TB_FLOW: Table<TokenBucket> = Table {
    class: "QueueMonitor/ED/Flow/TB",
    part: tb,
    vars: &[
        var("target_rate_", Bandwidth, "128000", |b, _| real(b.rate), |b, v, _| Ok(b.rate = parse_bw(v))),
        var("bucket_depth_", Real, "10000", |b, _| real(b.depth), |b, v, _| Ok(b.depth = parse_real(v))),
        var("tbucket_", Real, "10000", |b, _| real(b.tokens), |b, v, _| Ok(b.tokens = parse_real(v))),
    ],
    after_set: None,
};
