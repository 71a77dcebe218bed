//! The random number generators of one simulation: ns-2's package state,
//! its default RNG (`$defaultRNG`, used by `Random::uniform` in the C++
//! code) and every RNG object a script creates with `new RNG`.

use crate::rng::{c_atoi, Ns2Rngs, RngPackage, SeedError, SeedSource};
use crate::fmt;

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

    /// The Tcl commands of an RNG object (tools/rng.cc `RNG::command`).
    pub fn command(&mut self, r: u32, argv: &[&str]) -> Result<String, String> {
        let n = argv.len();
        let cmd = argv[0];
        let (streams, pkg) = (&mut self.streams, &mut self.package);
        let s = &mut streams[r as usize];
        match (cmd, n) {
            ("seed", 1) => Ok(s.seed().to_string()),
            ("seed", 2) => {
                s.seed_command(pkg, c_atoi(argv[1])).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            ("seed", 3) => {
                let v = c_atoi(argv[2]);
                let src = match argv[1] {
                    "raw" => SeedSource::Raw,
                    "predef" => SeedSource::Predef,
                    "heuristic" => SeedSource::Heuristic,
                    _ => return Ok(String::new()),
                };
                s.set_seed(pkg, src, v).map_err(|e| e.to_string())?;
                Ok(String::new())
            }
            ("next-random", 1) => Ok((s.uniform_positive_int() as u32).to_string()),
            // `RNGTest::verbose_mil`: the text ns-2 writes to temp.rands
            // (the Tcl library writes the file).
            ("test-output", 1) => self_test(pkg).map_err(|e| e.to_string()),
            ("next-substream", 1) => {
                s.reset_next_substream();
                Ok(String::new())
            }
            ("reset-start-substream", 1) => {
                s.reset_start_substream();
                Ok(String::new())
            }
            ("all-seeds", 1) => {
                let a = s.all_seeds();
                Ok(format!("{} {} {} {} {} {}", a[0], a[1], a[2], a[3], a[4], a[5]))
            }
            ("default", 1) => {
                self.default_idx = r;
                Ok(String::new())
            }
            ("testint", 2) => Ok(s.uniform_int(c_atoi(argv[1])).to_string()),
            ("testdouble", 2) => {
                let d = crate::vars::parse_real(argv[1]);
                let v = s.uniform(d);
                let mut b = Vec::new();
                fmt::push_e(&mut b, v, 6, 0, false);
                Ok(String::from_utf8(b).unwrap_or_default())
            }
            ("normal", 3) => {
                let v = s.normal(pkg, crate::vars::parse_real(argv[1]), crate::vars::parse_real(argv[2]));
                Ok(fmt::format_g(v, 6))
            }
            ("lognormal", 3) => {
                let v = s.lognormal(pkg, crate::vars::parse_real(argv[1]), crate::vars::parse_real(argv[2]));
                Ok(fmt::format_g(v, 6))
            }
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }
}

/// ns-2's RNG self-test (`$rng test`, tools/rng.cc `RNGTest::verbose_mil`):
/// a generator seeded with raw seed 188312339, then one seeded with
/// predefined seed 1; of each, the first 100 of five million draws and then
/// every millionth, `%10lu ` each, a line per generator.  Seeding sets the
/// package seed as ns-2's does, so later `new RNG`s derive from the last.
pub fn self_test(pkg: &mut RngPackage) -> Result<String, SeedError> {
    use std::fmt::Write;
    let mut out = String::with_capacity(2300);
    for (label, source, seed) in [("default: ", SeedSource::Raw, 188312339), ("predef source  1: ", SeedSource::Predef, 1)] {
        // (the state is replaced by the seeding, which initialises it from
        // the package as ns-2's constructor does)
        let mut g = Rng::from_state([12345; 6])?;
        g.set_seed(pkg, source, seed)?;
        out.push_str(label);
        for i in 0..5_000_000 {
            let r = g.uniform_positive_int();
            if i < 100 || i % 1_000_000 == 0 {
                let _ = write!(out, "{:>10} ", r as u32);
            }
        }
        out.push('\n');
    }
    Ok(out)
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
