//! The ns-2 classes the engine implements: one line each, with the tables
//! of its bound variables (own and inherited, in the order a new object
//! gets its class defaults) and the engine object it makes.
//!
//! Everything the ns-2 layer knows of a class follows from here: the class
//! list the Tcl library registers, each class's bound variables and types,
//! the class defaults it starts with, and `new`.

use super::bind::{Bindings, ClassDefault};
use super::class::queue;
use crate::qdisc::{Qdisc, Queue};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::vars::VarType;

/// An ns-2 class the engine implements.
pub struct Class {
    /// Its ns-2 name (`Queue/RED`).
    pub name: &'static str,
    /// Its bound variables, table by table.
    pub tables: &'static [&'static dyn Bindings],
    /// Make its engine object, which will have id `id`.
    pub make: fn(&mut Sim, ObjId) -> Obj,
}

fn make_queue(sim: &mut Sim, id: ObjId, disc: Qdisc) -> Obj {
    let slot = sim.w.s.new_resume(id);
    Obj::Queue(Box::new(Queue::new(disc, slot)))
}

/// The classes, one line each.
pub static CLASSES: &[Class] = &[
    Class { name: "Queue/DropTail", tables: &[&queue::QUEUE, &queue::DROPTAIL], make: |s, id| make_queue(s, id, Qdisc::DropTail(Default::default())) },
    Class { name: "Queue/RED", tables: &[&queue::QUEUE, &queue::RED_QUEUE, &queue::RED], make: |s, id| make_queue(s, id, Qdisc::red()) },
    Class { name: "Queue/CoDel", tables: &[&queue::QUEUE, &queue::CODEL_QUEUE, &queue::CODEL], make: |s, id| make_queue(s, id, Qdisc::codel()) },
];

/// The class named `name`.
pub fn find(name: &str) -> Option<(u16, &'static Class)> {
    CLASSES.iter().enumerate().find(|(_, c)| c.name == name).map(|(i, c)| (i as u16, c))
}

impl Class {
    /// Its variables the engine binds, in order: (name, type).
    pub fn bound(&self) -> Vec<(&'static str, VarType)> {
        let mut v = Vec::new();
        for t in self.tables {
            t.each(&mut |name, ty, _, bound| {
                if bound && !v.iter().any(|(n, _)| *n == name) {
                    v.push((name, ty));
                }
            });
        }
        v
    }

    /// Read `var` of object `obj` (made by this class).
    pub fn get(&self, obj: &mut Obj, w: &mut crate::sim::World, var: &str) -> Option<String> {
        self.tables.iter().rev().find_map(|t| t.get(obj, w, var))
    }

    /// Write `var` of object `obj`; `None` if the class binds no such variable.
    pub fn set(&self, obj: &mut Obj, w: &mut crate::sim::World, var: &str, value: &str) -> Option<Result<(), String>> {
        self.tables.iter().rev().find_map(|t| t.set(obj, w, var, value))
    }
}

/// The class defaults of every table, as the Tcl the library evaluates at
/// start-up: `::dumbbell::class_vars CLASS {var value ...}` per table, in
/// the registry's order (a table several classes share, once), and `CLASS
/// set var [OTHER set var]` for a default that is another's.
pub fn defaults_tcl() -> String {
    let mut seen: Vec<*const ()> = Vec::new();
    let mut out = String::new();
    for c in CLASSES {
        for t in c.tables {
            let key = *t as *const dyn Bindings as *const ();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let mut pairs = String::new();
            let mut same = String::new();
            t.each(&mut |name, _, default, _| match default {
                ClassDefault::None => {}
                ClassDefault::Text(v) => pairs.push_str(&format!("    {name} {v}\n")),
                ClassDefault::SameAs(cls, var) => same.push_str(&format!("{} set {name} [{cls} set {var}]\n", t.class())),
            });
            if !pairs.is_empty() {
                out.push_str(&format!("::dumbbell::class_vars {} {{\n{pairs}}}\n", t.class()));
            }
            out.push_str(&same);
        }
    }
    out
}
