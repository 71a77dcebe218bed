//! An RNG object's commands (tools/rng.cc `RNG::command`) and ns-2's RNG
//! self-test output, over the core's generators (rng.rs, random.rs).

use crate::ns2::printf as fmt;
use crate::ns2::tclcl::parse_real;
use crate::random::RngSet;
use crate::rng::{c_atoi, Rng, RngPackage, SeedError, SeedSource};

/// The Tcl commands of an RNG object (tools/rng.cc `RNG::command`).
pub fn command(set: &mut RngSet, r: u32, argv: &[&str]) -> Result<String, String> {
    let n = argv.len();
    let cmd = argv[0];
    let (streams, pkg) = (&mut set.streams, &mut set.package);
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
            set.default_idx = r;
            Ok(String::new())
        }
        ("testint", 2) => Ok(s.uniform_int(c_atoi(argv[1])).to_string()),
        ("testdouble", 2) => {
            let d = parse_real(argv[1]);
            let v = s.uniform(d);
            let mut b = Vec::new();
            fmt::push_e(&mut b, v, 6, 0, false);
            Ok(String::from_utf8(b).unwrap_or_default())
        }
        ("normal", 3) => {
            let v = s.normal(pkg, parse_real(argv[1]), parse_real(argv[2]));
            Ok(fmt::format_g(v, 6))
        }
        ("lognormal", 3) => {
            let v = s.lognormal(pkg, parse_real(argv[1]), parse_real(argv[2]));
            Ok(fmt::format_g(v, 6))
        }
        _ => Err(format!("unknown command \"{cmd}\"")),
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
