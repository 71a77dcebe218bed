//! Replays the oracle scripts of `testdata/rng/` against
//! `dumbbell_engine::rng` and checks every printed value, bit for bit.
//!
//! The `.out` files were produced by the real ns-2 2.35 (`/usr/bin/ns`)
//! running the `.tcl` scripts next to them, and by `rngstream_extra.cc`
//! (ns-2's own tools/rng.cc compiled stand-alone) for features Tcl cannot
//! reach; see `testdata/rng/regen.sh`.  Doubles were printed with `%.17g`,
//! which identifies a double exactly, so string equality here means
//! bit-identical results.  Each test performs the same operations in the
//! same order as its script.

use dumbbell_engine::ns2::printf::{format_g, push_e};
use dumbbell_engine::rng::*;

fn g17(x: f64) -> String {
    format_g(x, 17)
}

/// An oracle output: lines of "<tag> <values...>" consumed in order.
struct Oracle {
    name: &'static str,
    lines: Vec<(String, Vec<String>)>,
    pos: usize,
    values: usize,
}

impl Oracle {
    fn new(name: &'static str, text: &str) -> Oracle {
        let lines = text
            .lines()
            .map(|l| {
                let mut it = l.split(' ');
                let tag = it.next().unwrap().to_string();
                (tag, it.map(str::to_string).collect())
            })
            .collect();
        Oracle {
            name,
            lines,
            pos: 0,
            values: 0,
        }
    }

    /// The next line, which must have tag `tag`.
    fn next(&mut self, tag: &str) -> Vec<String> {
        let (t, v) = self
            .lines
            .get(self.pos)
            .unwrap_or_else(|| panic!("{}: output ended, expected {tag}", self.name))
            .clone();
        assert_eq!(
            t,
            tag,
            "{}: line {} has tag {t}, expected {tag}",
            self.name,
            self.pos + 1
        );
        self.pos += 1;
        v
    }

    /// Checks one line: `tag` followed by exactly `want`.
    fn line(&mut self, tag: &str, want: &[String]) {
        let line_no = self.pos + 1;
        let got = self.next(tag);
        assert_eq!(got, want, "{}: line {line_no} ({tag})", self.name);
        self.values += want.len();
    }

    /// Checks a stream state line.
    fn state(&mut self, tag: &str, s: [u64; 6]) {
        let want: Vec<String> = s.iter().map(u64::to_string).collect();
        self.line(tag, &want);
    }

    /// Checks `n` values printed ten per line by the scripts' `draw` proc.
    fn draw(&mut self, tag: &str, n: usize, mut f: impl FnMut() -> String) {
        let mut left = n;
        while left > 0 {
            let k = left.min(10);
            let line_no = self.pos + 1;
            let got = self.next(tag);
            assert_eq!(
                got.len(),
                k,
                "{}: line {line_no} ({tag}) has {} values",
                self.name,
                got.len()
            );
            for (j, g) in got.iter().enumerate() {
                let w = f();
                assert_eq!(
                    *g, w,
                    "{}: line {line_no} ({tag}) value {j}: ns-2 printed {g}, we made {w}",
                    self.name
                );
            }
            self.values += k;
            left -= k;
        }
    }

    fn finish(&self) -> usize {
        assert_eq!(
            self.pos,
            self.lines.len(),
            "{}: {} lines left unchecked",
            self.name,
            self.lines.len() - self.pos
        );
        eprintln!("{}: {} values checked", self.name, self.values);
        self.values
    }
}

fn startup() -> (RngPackage, Rng, Rng) {
    let Ns2Rngs {
        package,
        default_rng,
        rtglib_rng,
    } = RngPackage::ns2_startup();
    (package, default_rng, rtglib_rng)
}

/// `$rng seed` prints `RNG::seed()` (a long) with `%u`: its low 32 bits.
fn seed_u(r: &Rng) -> String {
    (r.seed() as u32).to_string()
}

#[test]
fn startup_and_default_stream() {
    let mut o = Oracle::new("startup", include_str!("../testdata/rng/startup.out"));
    let (mut pkg, mut def, mut rt) = startup();
    o.state("default", def.all_seeds());
    o.state("rtglib", rt.all_seeds());
    o.line("defseed", &[seed_u(&def)]);
    let mut r1 = pkg.new_rng();
    o.state("new1", r1.all_seeds());
    let mut r2 = pkg.new_rng();
    o.state("new2", r2.all_seeds());
    o.draw("nr", 5000, || def.uniform_positive_int().to_string());
    o.draw("r1", 2000, || r1.uniform_positive_int().to_string());
    o.draw("r2", 1000, || r2.uniform_positive_int().to_string());
    o.draw("rt", 1000, || rt.uniform_positive_int().to_string());
    o.state("default", def.all_seeds());
    o.line("defseed", &[seed_u(&def)]);
    o.finish();
}

#[test]
fn streams_substreams_and_seeding() {
    let mut o = Oracle::new("streams", include_str!("../testdata/rng/streams.out"));
    let (mut pkg, _def, _rt) = startup();
    let mut r = pkg.new_rng();
    o.state("init", r.all_seeds());
    o.draw("nr", 3000, || r.uniform_positive_int().to_string());
    o.state("state", r.all_seeds());
    r.reset_next_substream();
    o.state("sub1", r.all_seeds());
    o.draw("nr", 1000, || r.uniform_positive_int().to_string());
    r.reset_start_substream();
    o.state("reset", r.all_seeds());
    o.draw("nr", 500, || r.uniform_positive_int().to_string());
    for _ in 0..5 {
        r.reset_next_substream();
        o.state("sub", r.all_seeds());
        o.draw("nr", 20, || r.uniform_positive_int().to_string());
    }
    r.reset_start_substream();
    o.state("reset", r.all_seeds());
    for s in [
        "1",
        "2",
        "7",
        "12345",
        "2147483646",
        "999999999",
        "65536",
        "4294967297",
        "12abc",
    ] {
        r.seed_command(&mut pkg, c_atoi(s)).unwrap();
        let mut want = vec![s.to_string()];
        want.extend(r.all_seeds().iter().map(u64::to_string));
        o.line("raw", &want);
        let mut n = pkg.new_rng();
        o.state("rawnew", n.all_seeds());
        o.draw("nr", 300, || r.uniform_positive_int().to_string());
        o.draw("nn", 30, || n.uniform_positive_int().to_string());
        o.line("seed", &[seed_u(&r)]);
    }
    for i in 0..64 {
        r.set_seed(&mut pkg, SeedSource::Predef, i).unwrap();
        let mut want = vec![i.to_string()];
        want.extend(r.all_seeds().iter().map(u64::to_string));
        o.line("predef", &want);
        assert_eq!(r.all_seeds(), [PREDEF_SEEDS[i as usize] as u64; 6]);
        o.draw("nr", 5, || r.uniform_positive_int().to_string());
    }
    o.state("pkg", pkg.new_rng().all_seeds());
    r.set_seed(&mut pkg, SeedSource::Raw, 77).unwrap();
    o.state("raw77", r.all_seeds());
    for s in ["-5", "2147483647", "-2147483648"] {
        let before = r.clone();
        assert!(r.seed_command(&mut pkg, c_atoi(s)).is_err());
        assert_eq!(r, before);
        // tclcl's SplitObject unknown wraps the C++ error like this.
        let msg = format!("{s} error when calling class RNG: seed {s}");
        let want: Vec<String> = msg.split(' ').map(str::to_string).collect();
        o.line("err", &want);
        o.state("errstate", r.all_seeds());
    }
    o.draw("ti", 2000, || r.uniform_int(1000).to_string());
    o.draw("ti7", 1000, || r.uniform_int(7).to_string());
    o.draw("tin", 200, || r.uniform_int(-5).to_string());
    // testdouble prints "%6e", turned into %.17g by the shim.
    o.draw("td", 1000, || g17(r.uniform(3.5)));
    o.state("final", r.all_seeds());
    o.state("pkg", pkg.new_rng().all_seeds());
    o.finish();
}

fn heuristic(name: &'static str, text: &str, sec: i64, usec: i64) {
    let mut o = Oracle::new(name, text);
    let (mut pkg, mut def, _rt) = startup();
    pkg.set_clock(std::sync::Arc::new(move || (sec, usec)));
    let mut r = pkg.new_rng();
    r.seed_command(&mut pkg, 0).unwrap();
    o.state("h1", r.all_seeds());
    o.draw("nr", 10, || r.uniform_positive_int().to_string());
    o.state("pkg", pkg.new_rng().all_seeds());
    r.set_seed(&mut pkg, SeedSource::Heuristic, 5).unwrap();
    o.state("h2", r.all_seeds());
    let mut q = pkg.new_rng();
    q.seed_command(&mut pkg, 0).unwrap();
    o.state("h3", q.all_seeds());
    // ns-random 0: Random::seed_heuristically() returns (int) seed().
    def.set_seed(&mut pkg, SeedSource::Heuristic, 0).unwrap();
    o.line("nsr", &[(def.seed() as i32).to_string()]);
    o.state("def", def.all_seeds());
    o.draw("nr", 10, || def.uniform_positive_int().to_string());
    o.state("pkg", pkg.new_rng().all_seeds());
    o.finish();
}

#[test]
fn heuristic_seeds() {
    heuristic(
        "heuristic",
        include_str!("../testdata/rng/heuristic.out"),
        1700000000,
        123456,
    );
}

#[test]
fn heuristic_seed_zero_recurses() {
    // (379 ^ 123 ^ (1 << 8)) & 0x7fffffff == 0.
    heuristic(
        "heuristic0",
        include_str!("../testdata/rng/heuristic0.out"),
        379,
        123,
    );
}

#[test]
fn tcl_procs_ns_random_normal() {
    let mut o = Oracle::new("tclprocs", include_str!("../testdata/rng/tclprocs.out"));
    let (mut pkg, mut def, _rt) = startup();
    o.draw("gu", 2000, || g17(def.tcl_uniform(0.0, 10.0)));
    o.draw("gu2", 1000, || g17(def.tcl_uniform(-3.5, 1e6)));
    o.draw("gi", 2000, || def.tcl_integer(1000).unwrap().to_string());
    o.draw("gi2", 500, || def.tcl_integer(-7).unwrap().to_string());
    o.draw("ge", 2000, || g17(def.tcl_exponential(1.0)));
    o.draw("ge2", 1000, || g17(def.tcl_exponential(2.5)));
    let mut r = pkg.new_rng();
    r.reset_next_substream();
    o.draw("ru", 1000, || g17(r.tcl_uniform(1.0, 2.0)));
    o.draw("ri", 1000, || r.tcl_integer(33).unwrap().to_string());
    o.draw("re", 1000, || g17(r.tcl_exponential(0.1)));
    o.draw("ns", 3000, || def.uniform_positive_int().to_string());
    // ns-random 7 = Random::seed(7) = default RNG set_seed(RAW, 7).
    def.set_seed(&mut pkg, SeedSource::Raw, 7).unwrap();
    o.line("nsr", &["7".to_string()]);
    o.state("def", def.all_seeds());
    o.draw("ns", 1000, || def.uniform_positive_int().to_string());
    o.state("pkg", pkg.new_rng().all_seeds());
    // normal/lognormal print "%g", turned into %.17g by the shim.  The
    // polar cache crosses from one RNG to the other here (odd counts).
    o.draw("nrm", 2001, || g17(def.normal(&mut pkg, 0.0, 1.0)));
    o.draw("nrm2", 1000, || g17(r.normal(&mut pkg, 5.0, 2.0)));
    o.draw("nrm3", 999, || g17(def.normal(&mut pkg, 1.0, 0.25)));
    o.draw("lnm", 2000, || g17(r.lognormal(&mut pkg, 1.0, 1.0)));
    o.draw("lnm2", 1000, || g17(def.lognormal(&mut pkg, 0.0, 0.5)));
    o.state("def", def.all_seeds());
    o.state("r", r.all_seeds());
    o.finish();
}

#[test]
fn random_variables() {
    let mut o = Oracle::new("ranvar", include_str!("../testdata/rng/ranvar.out"));
    let (mut pkg, mut def, _rt) = startup();
    const N: usize = 1000;
    let mut r1 = pkg.new_rng();
    let mut r2 = pkg.new_rng();
    r2.reset_next_substream();

    let mut u = UniformRv { min: 0.0, max: 1.0 };
    o.draw("uni0", N, || g17(u.value(&mut def)));
    u = UniformRv {
        min: -5.0,
        max: 10.0,
    };
    o.draw("uni1", N, || g17(u.value(&mut def)));
    u = UniformRv { min: 3.0, max: 3.5 };
    o.draw("uni2", N, || g17(u.value(&mut r1)));
    u = UniformRv {
        min: 1e-3,
        max: 0.0,
    };
    o.draw("uni3", N, || g17(u.value(&mut r1)));

    let mut e = ExponentialRv { avg: 1.0 };
    o.draw("exp0", N, || g17(e.value(&mut def)));
    e.avg = 0.25;
    o.draw("exp1", N, || g17(e.value(&mut def)));
    e.avg = 1000.0;
    o.draw("exp2", N, || g17(e.value(&mut r2)));

    let mut p = ParetoRv {
        avg: 1.0,
        shape: 1.5,
    };
    o.draw("par0", N, || g17(p.value(&mut def)));
    p = ParetoRv {
        avg: 10.0,
        shape: 2.5,
    };
    o.draw("par1", N, || g17(p.value(&mut def)));
    p = ParetoRv {
        avg: 0.5,
        shape: 1.1,
    };
    o.draw("par2", N, || g17(p.value(&mut r1)));

    let mut p2 = ParetoIIRv {
        avg: 10.0,
        shape: 1.2,
    };
    o.draw("pa20", N, || g17(p2.value(&mut def)));
    p2 = ParetoIIRv {
        avg: 5.0,
        shape: 3.0,
    };
    o.draw("pa21", N, || g17(p2.value(&mut def)));
    p2 = ParetoIIRv {
        avg: 1.0,
        shape: 1.5,
    };
    o.draw("pa22", N, || g17(p2.value(&mut r2)));

    let mut n = NormalRv { avg: 0.0, std: 1.0 };
    o.draw("nor0", 1001, || g17(n.value(&mut def, &mut pkg)));
    n = NormalRv { avg: 5.0, std: 2.0 };
    o.draw("nor1", N, || g17(n.value(&mut def, &mut pkg)));
    n.std = 0.0;
    o.draw("nor2", 10, || g17(n.value(&mut def, &mut pkg)));
    n = NormalRv {
        avg: -1.0,
        std: 0.5,
    };
    o.draw("nor3", N, || g17(n.value(&mut r1, &mut pkg)));

    // Shared polar cache: the r2 variable mostly returns values computed
    // from r1's draws.
    let n1 = NormalRv { avg: 0.0, std: 1.0 };
    let n2 = NormalRv {
        avg: 10.0,
        std: 3.0,
    };
    for _ in 0..500 {
        let a = g17(n2.value(&mut r2, &mut pkg));
        let b = g17(n1.value(&mut r1, &mut pkg));
        o.line("nq", &[a, b]);
    }
    o.state("nq-r1", r1.all_seeds());
    o.state("nq-r2", r2.all_seeds());
    o.state("nq-def", def.all_seeds());

    let mut ln = LogNormalRv { avg: 1.0, std: 1.0 };
    o.draw("lno0", N, || g17(ln.value(&mut def, &mut pkg)));
    ln = LogNormalRv { avg: 0.0, std: 0.5 };
    o.draw("lno1", N, || g17(ln.value(&mut def, &mut pkg)));
    ln = LogNormalRv { avg: 2.0, std: 1.5 };
    o.draw("lno2", N, || g17(ln.value(&mut r2, &mut pkg)));

    let mut c = ConstantRv { val: 1.0 };
    o.draw("con0", 20, || g17(c.value()));
    c.val = 3.5;
    o.draw("con1", 20, || g17(c.value()));

    let mut h = HyperExponentialRv { avg: 1.0, cov: 4.0 };
    o.draw("hyp0", N, || g17(h.value(&mut def)));
    h = HyperExponentialRv { avg: 2.0, cov: 1.5 };
    o.draw("hyp1", N, || g17(h.value(&mut def)));
    // use-rng r1 is ignored: the draws come from the default RNG.
    h = HyperExponentialRv {
        avg: 0.5,
        cov: 10.0,
    };
    let hv = RandomVariable::HyperExponential(h);
    o.draw("hyp2", N, || {
        g17(hv.value(&mut r1, Some(&mut def), &mut pkg))
    });
    o.state("hyp-r1", r1.all_seeds());
    o.state("hyp-def", def.all_seeds());

    let mut w = WeibullRv {
        shape: 1.0,
        scale: 1.0,
    };
    o.draw("wei0", N, || g17(w.value(&mut def)));
    w = WeibullRv {
        shape: 2.0,
        scale: 3.0,
    };
    o.draw("wei1", N, || g17(w.value(&mut def)));
    w = WeibullRv {
        shape: 0.5,
        scale: 10.0,
    };
    o.draw("wei2", N, || g17(w.value(&mut r2)));
    // `new RandomVariable/Weibull 2 3` sets scale 2, shape 3.
    w = WeibullRv {
        scale: 2.0,
        shape: 3.0,
    };
    o.draw("wei3", N, || g17(w.value(&mut def)));

    let mut er = ErlangRv { lambda: 1.0, k: 1 };
    o.draw("erl0", N, || g17(er.value(&mut def)));
    er = ErlangRv { lambda: 0.5, k: 3 };
    o.draw("erl1", N, || g17(er.value(&mut def)));
    er = ErlangRv { lambda: 2.0, k: 7 };
    o.draw("erl2", N, || g17(er.value(&mut r1)));

    let mut ga = GammaRv {
        alpha: 1.0,
        beta: 1.0,
    };
    o.draw("gam0", N, || g17(ga.value(&mut def, &mut pkg)));
    ga = GammaRv {
        alpha: 2.5,
        beta: 2.0,
    };
    o.draw("gam1", N, || g17(ga.value(&mut def, &mut pkg)));
    ga = GammaRv {
        alpha: 0.5,
        beta: 1.0,
    };
    o.draw("gam2", N, || g17(ga.value(&mut def, &mut pkg)));
    // alpha < 1 with use-rng r1: u from r1, the Gamma(1 + alpha) part from
    // the default RNG.
    ga = GammaRv {
        alpha: 0.3,
        beta: 2.0,
    };
    o.draw("gam3", N, || {
        g17(ga.value_with_default(&mut r1, Some(&mut def), &mut pkg))
    });
    o.state("gam-r1", r1.all_seeds());
    o.state("gam-def", def.all_seeds());
    ga = GammaRv {
        alpha: 4.0,
        beta: 0.5,
    };
    let gv = RandomVariable::Gamma(ga);
    o.draw("gam4", N, || {
        g17(gv.value(&mut r1, Some(&mut def), &mut pkg))
    });

    let mut em = EmpiricalRv::from_pairs(&EmpiricalRv::parse_cdf(include_str!(
        "../testdata/rng/cdf1.txt"
    )));
    assert_eq!(em.table.len(), 12);
    o.draw("emp0", N, || g17(em.value(&mut def)));
    em.interpolation = Interpolation::from_code(1);
    o.draw("emp1", N, || g17(em.value(&mut def)));
    em.interpolation = Interpolation::from_code(2);
    o.draw("emp2", N, || g17(em.value(&mut def)));
    em.min_cdf = 0.2;
    em.max_cdf = 0.9;
    o.draw("emp3", N, || g17(em.value(&mut r2)));
    let mut em = EmpiricalRv::from_pairs(&EmpiricalRv::parse_cdf(include_str!(
        "../testdata/rng/cdf2.txt"
    )));
    em.interpolation = Interpolation::Continuous;
    o.draw("emp4", N, || g17(em.value(&mut def)));
    em.interpolation = Interpolation::Discrete;
    o.draw("emp5", N, || g17(em.value(&mut def)));
    em.interpolation = Interpolation::Integral;
    o.draw("emp6", N, || g17(em.value(&mut def)));

    o.state("end-def", def.all_seeds());
    o.state("end-r1", r1.all_seeds());
    o.state("end-r2", r2.all_seeds());
    o.finish();
}

/// ns-2's own text (no shim): `%6e` for RandomVariable values and
/// `testdouble`, `%g` for `normal`/`lognormal`.
#[test]
fn plain_ns2_text() {
    let mut o = Oracle::new("plain", include_str!("../testdata/rng/plain.out"));
    let (mut pkg, mut def, _rt) = startup();
    let e6 = |x: f64| {
        let mut v = Vec::new();
        push_e(&mut v, x, 6, 6, false);
        String::from_utf8(v).unwrap()
    };
    let e = ExponentialRv { avg: 1.0 };
    o.draw("e6", 300, || e6(e.value(&mut def)));
    let p = ParetoRv {
        avg: 1.0,
        shape: 1.5,
    };
    o.draw("p6", 300, || e6(p.value(&mut def)));
    let u = UniformRv {
        min: -1e-7,
        max: 1e-7,
    };
    o.draw("u6", 300, || e6(u.value(&mut def)));
    o.draw("ng", 300, || format_g(def.normal(&mut pkg, 0.0, 1.0), 6));
    o.draw("lg", 300, || format_g(def.lognormal(&mut pkg, 3.0, 2.0), 6));
    o.draw("td", 300, || e6(def.uniform(1e9)));
    o.finish();
}

/// Features not reachable from Tcl, against ns-2's tools/rng.cc compiled
/// stand-alone (`rngstream_extra.cc`).
#[test]
fn stream_features_vs_rng_cc() {
    let mut o = Oracle::new(
        "rngstream_extra",
        include_str!("../testdata/rng/rngstream_extra.out"),
    );
    let mut pkg = RngPackage::new();
    let mut a = pkg.new_rng();
    o.state("a", a.all_seeds());
    let mut b = pkg.new_rng();
    o.state("b", b.all_seeds());
    let mut c = pkg.new_rng();
    o.draw("u01", 1000, || g17(c.rand_u01()));
    a.set_antithetic(true);
    o.draw("anti", 3000, || g17(a.rand_u01()));
    o.state("a", a.all_seeds());
    b.set_increased_precision(true);
    o.draw("incp", 3000, || g17(b.rand_u01()));
    o.state("b", b.all_seeds());
    a.set_increased_precision(true);
    o.draw("antiincp", 3000, || g17(a.rand_u01()));
    o.draw("antinext", 1000, || a.next().to_string());
    o.draw("antiexp", 1000, || g17(a.exponential_mean(1.5)));
    b.set_increased_precision(false);
    a.set_antithetic(false);
    a.set_increased_precision(false);
    o.draw("ri1", 1000, || c.rand_int(-10, 10).to_string());
    o.draw("ri2", 1000, || c.rand_int(0, 0).to_string());
    o.draw("ri3", 1000, || c.rand_int(5, 1000000000).to_string());
    o.draw("ri4", 1000, || c.rand_int(-(1 << 40), 1 << 40).to_string());
    o.draw("ri5", 1000, || {
        c.rand_int(-3000000000, -2000000000).to_string()
    });
    o.draw("ri6", 1000, || c.rand_int(0, 4294967295).to_string());
    o.draw("unif", 1000, || c.uniform_int(1000).to_string());
    o.draw("unifneg", 100, || c.uniform_int(-1000).to_string());
    o.draw("par", 1000, || g17(c.pareto(2.0, 1.3)));
    o.draw("par2", 1000, || g17(c.pareto_ii(2.0, 1.3)));
    o.draw("wei", 1000, || g17(c.rweibull(0.7, 2.0)));
    o.draw("qwei", 1, || g17(Rng::qweibull(0.3, 0.7, 2.0)));
    o.draw("ur", 1000, || g17(c.uniform_range(-2.0, 7.0)));
    o.draw("exp", 1000, || g17(c.exponential()));
    o.state("c", c.all_seeds());
    for (e, k) in [
        (0, 1000),
        (0, -1000),
        (10, 5),
        (-5, 3),
        (76, 0),
        (127, -1),
        (0, 0),
        (-40, -7),
        (60, 12345),
    ] {
        c.advance_state(e, k);
        let mut want = vec![e.to_string(), k.to_string()];
        want.extend(c.all_seeds().iter().map(u64::to_string));
        o.line("adv", &want);
    }
    c.reset_start_substream();
    o.state("rss", c.all_seeds());
    c.reset_next_substream();
    c.advance_state(3, 0);
    o.state("rns", c.all_seeds());
    c.reset_start_stream();
    o.state("rst", c.all_seeds());
    pkg.set_package_seed([1, 2, 3, 4, 5, 6]).unwrap();
    let mut d = pkg.new_rng();
    o.state("d", d.all_seeds());
    let e = pkg.new_rng();
    o.state("e", e.all_seeds());
    d.set_stream_seed([
        4294967086, 4294967086, 4294967086, 4294944442, 4294944442, 4294944442,
    ])
    .unwrap();
    o.draw("dmax", 1000, || g17(d.rand_u01()));
    o.state("d", d.all_seeds());
    d.reset_start_stream();
    o.state("d", d.all_seeds());
    o.finish();
}
