//! The plumbing classes: `Connector` (common/connector.cc), `TTLChecker`
//! (common/ttl.cc), `Classifier` (classifier/classifier.cc), `Node`
//! (tcl/lib/ns-node.tcl over common/node.cc), `RouteLogic`
//! (routing/route.cc) and `Delayer` (queue/delayer.cc).

use crate::delayer::{Delayer, ALLOC_TIMER, SPIKE_TIMER};
use crate::ns2::bind::*;
use crate::objs::{Connector, Node, TtlChecker};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::ns2::tclcl::VarType::*;

/// `Connector`'s (`NsObject::NsObject`: `debug_`).
pub static CONNECTOR: Table<Obj> = debug_only("Connector");

/// `TTLChecker`'s (a connector's `debug_`).
pub static TTL_CHECKER: Table<Obj> = debug_only("TTLChecker");

/// `Classifier`'s `debug_`.  Its other variables, `offset_`, `shift_` and
/// `mask_`, only the hash classifiers bind here (errmodel.rs
/// `CLASSIFIER_FIELDS`, whose defaults are set on `Classifier` too).
pub static CLASSIFIER: Table<Obj> = debug_only("Classifier");

/// `Node`: ns-node.tcl's class variables, the node counter and the
/// multipath switch (OTcl only: the engine's node binds nothing).
pub static NODE: Table<Obj> = Table {
    class: "Node",
    part: whole,
    vars: &[script_var("nn_", "0"), script_var("multiPath_", "0")],
    after_set: None,
};

fn delayer(o: &mut Obj) -> Option<&mut Delayer> {
    match o {
        Obj::Delayer(d) => Some(d),
        _ => None,
    }
}

/// `Delayer`'s (queue/delayer.cc `Delayer::Delayer`: `debug_`, which, unlike
/// other classes' here, is read: it prints the delayer's decisions).
pub static DELAYER: Table<Delayer> = Table {
    class: "Delayer",
    part: delayer,
    vars: &[var("debug_", Bool, "false", |d, _| boolean(d.debug), |d, v, _| Ok(d.debug = parse_bool(v)))],
    after_set: None,
};

pub fn make_connector(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Connector(Connector::default())
}

pub fn make_ttl_checker(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Ttl(TtlChecker::default())
}

/// A classifier the library builds inside a node: only a name for Tcl,
/// forwarding what it is sent.
pub fn make_classifier(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Proxy(NONE)
}

pub fn make_node(_: &mut Sim, _: ObjId) -> Obj {
    Obj::Node(Node::new(-1))
}

pub fn make_route_logic(_: &mut Sim, _: ObjId) -> Obj {
    Obj::RouteLogic
}

/// Its resume slot, then its allocation and spike timers.
pub fn make_delayer(sim: &mut Sim, id: ObjId) -> Obj {
    let slot = sim.w.s.new_resume(id);
    let alloc = sim.w.s.new_timer(id, ALLOC_TIMER);
    let spike = sim.w.s.new_timer(id, SPIKE_TIMER);
    Obj::Delayer(Box::new(Delayer::new(slot, alloc, spike)))
}

/// `Classifier/DelayBox` (delaybox/delaybox.cc): per-flow delay, loss and
/// speed in front of a node (`crate::flowdelay`); its commands are in
/// `ns2/delaybox.rs`.
pub fn make_delaybox(_sim: &mut Sim, _id: ObjId) -> Obj {
    Obj::FlowDelay(Box::default())
}
