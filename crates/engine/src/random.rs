//! The random number generators of one simulation: ns-2's package state,
//! its default RNG (`$defaultRNG`, used by `Random::uniform` in the C++
//! code) and every RNG object a script creates with `new RNG`.

use crate::rng::{Ns2Rngs, RngPackage};

pub use crate::rng::Rng;

pub struct RngSet {
    pub package: RngPackage,
    /// Streams: 0 is `$defaultRNG`, 1 is `$rtglibRNG`, then `new RNG`s.
    pub streams: Vec<Rng>,
    /// Which stream `Random::*` uses (`$rng default` changes it).
    pub default_idx: u32,
}

impl RngSet {
    /// The state of a fresh ns-2 process after its Tcl library loaded.
    pub fn new_ns2_default() -> RngSet {
        let Ns2Rngs { package, default_rng, rtglib_rng } = RngPackage::ns2_startup();
        RngSet { package, streams: vec![default_rng, rtglib_rng], default_idx: 0 }
    }

    /// The default stream (`RNG::defaultrng()`).
    #[inline]
    pub fn default_stream(&mut self) -> &mut Rng {
        &mut self.streams[self.default_idx as usize]
    }

    /// `new RNG`: the next stream of the package.
    pub fn new_stream(&mut self) -> u32 {
        let r = self.package.new_rng();
        self.streams.push(r);
        (self.streams.len() - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_stream_starts_at_seed_one() {
        let mut r = RngSet::new_ns2_default();
        assert_eq!(r.default_stream().all_seeds(), [1, 1, 1, 1, 1, 1]);
        let a = r.new_stream();
        let b = r.new_stream();
        assert_ne!(r.streams[a as usize].all_seeds(), r.streams[b as usize].all_seeds());
    }
}
