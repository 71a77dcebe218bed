//! `RandomVariable/*` objects for Tcl (tools/ranvar.cc): the distributions
//! themselves are in rng.rs (checked draw for draw against ns-2); this is
//! what their commands do (`value`, `use-rng`, `loadCDF`).  Their classes
//! and bound variables are ns2/class/ranvar.rs's.

use crate::rng::*;
use crate::sim::World;

/// A random variable and the RNG stream it draws from (the default RNG when
/// it was created, or the one given with `use-rng`).
#[derive(Clone, Debug)]
pub struct RanVar {
    pub rv: RandomVariable,
    pub stream: u32,
    /// `maxEntry_` of an empirical variable (only the initial table size in ns-2).
    pub max_entry: i32,
}

impl RanVar {
    /// One draw (`$rv value`).
    pub fn value(&self, w: &mut World) -> f64 {
        let set = &mut w.rng;
        let own = self.stream as usize;
        let def = set.default_idx as usize;
        if own == def {
            self.rv.value(&mut set.streams[own], None, &mut set.package)
        } else {
            // two distinct streams: split the vector to borrow both
            let (lo, hi) = set.streams.split_at_mut(own.max(def));
            let (a, b) = if own < def { (&mut lo[own], &mut hi[0]) } else { (&mut hi[0], &mut lo[def]) };
            self.rv.value(a, Some(b), &mut set.package)
        }
    }

    /// Load an empirical CDF table, "value count cdf" per line (ns-2's
    /// `loadCDF`): the number of entries, or None if this is not an
    /// empirical variable.
    pub fn load_cdf(&mut self, text: &str) -> Option<usize> {
        match &mut self.rv {
            RandomVariable::Empirical(e) => {
                let pairs = EmpiricalRv::parse_cdf(text);
                let n = pairs.len();
                let keep = (e.min_cdf, e.max_cdf, e.interpolation);
                *e = EmpiricalRv::from_pairs(&pairs);
                e.min_cdf = keep.0;
                e.max_cdf = keep.1;
                e.interpolation = keep.2;
                Some(n)
            }
            _ => None,
        }
    }
}
