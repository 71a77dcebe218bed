//! Building a simulation through the engine's Tcl-facing API, by object
//! names, as the ns-2 library does from Tcl: shared by the engine-only
//! benchmark (`examples/grid.rs`) and the engine's integration tests
//! (included with `#[path]`; not an example of its own).
#![allow(dead_code)]

use dumbbell_engine::sim::Sim;

pub struct Builder {
    pub sim: Sim,
    n: usize,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { sim: Sim::ns2(), n: 0 }
    }

    /// A new object of class `kind` (named `_oN`) with class defaults `defaults`.
    pub fn mk(&mut self, kind: &str, defaults: &[(&str, &str)]) -> String {
        self.n += 1;
        let name = format!("_o{}", self.n);
        let id = self.sim.create(&name, kind).unwrap();
        let d: Vec<(String, String)> = defaults.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        self.sim.init_defaults(id, &d).unwrap();
        name
    }

    pub fn cmd(&mut self, obj: &str, argv: &[&str]) -> String {
        let id = self.sim.lookup(obj).unwrap();
        self.sim.command(id, argv).unwrap()
    }

    pub fn set(&mut self, obj: &str, var: &str, v: &str) {
        let id = self.sim.lookup(obj).unwrap();
        self.sim.set_var(id, var, v).unwrap();
    }

    pub fn get(&mut self, obj: &str, var: &str) -> String {
        let id = self.sim.lookup(obj).unwrap();
        self.sim.get_var(id, var).unwrap()
    }
}
