//! A `windowOption_` that ns-2's `TcpAgent::opencwnd` (tcp/tcp.cc) does not
//! define.  ns-2 accepts any value and aborts only when opencwnd reaches
//! it in congestion avoidance; the value is kept as set (Tcl reads it
//! back).  Last in the list: it takes every option the others do not.

use super::{undefined_window_option, Acked, Rule, Switches};
use crate::sim::World;

/// The value set.
#[derive(Clone, Debug, Default)]
pub struct Undefined {
    pub option: i32,
}

impl Rule for Undefined {
    fn selects(_option: i32, _sw: Switches) -> bool {
        true
    }

    fn select(&mut self, option: i32) {
        self.option = option;
    }

    fn option(&self) -> i32 {
        self.option
    }

    /// The run stops after the current event (see `undefined_window_option`).
    fn increase(&mut self, _a: &Acked, w: &mut World) -> Option<f64> {
        undefined_window_option(w, self.option, "0-6 and 8");
        None
    }
}
