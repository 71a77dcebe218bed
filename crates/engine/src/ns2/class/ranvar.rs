//! The random variables `RandomVariable/*` (tools/ranvar.cc; the
//! distributions are rng.rs's, `$rv value` and the rest ranvar.rs's) and
//! `RNG` (tools/rng.cc).

use crate::ns2::bind::*;
use crate::ranvar::RanVar;
use crate::rng::*;
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};
use crate::ns2::tclcl::VarType::*;

fn ranvar(o: &mut Obj) -> Option<&mut RanVar> {
    match o {
        Obj::RanVar(r) => Some(r),
        _ => None,
    }
}

/// The part of a random variable of one distribution: its parameters.
macro_rules! dist {
    ($name:ident, $variant:ident, $ty:ty) => {
        fn $name(o: &mut Obj) -> Option<&mut $ty> {
            match &mut ranvar(o)?.rv {
                RandomVariable::$variant(v) => Some(v),
                _ => None,
            }
        }
    };
}

dist!(uniform, Uniform, UniformRv);
dist!(exponential, Exponential, ExponentialRv);
dist!(erlang, Erlang, ErlangRv);
dist!(gamma, Gamma, GammaRv);
dist!(pareto, Pareto, ParetoRv);
dist!(pareto2, ParetoII, ParetoIIRv);
dist!(normal, Normal, NormalRv);
dist!(lognormal, LogNormal, LogNormalRv);
dist!(constant, Constant, ConstantRv);
dist!(hyperexp, HyperExponential, HyperExponentialRv);
dist!(weibull, Weibull, WeibullRv);
dist!(empirical, Empirical, EmpiricalRv);

/// A `double` parameter (`bind("avg_", &avg_)`).
macro_rules! param {
    ($name:literal, $default:literal, $f:ident) => {
        var($name, Real, $default, |v, _| real(v.$f), |v, s, _| Ok(v.$f = parse_real(s)))
    };
    ($name:literal, $default:literal, $f:ident, $range:expr, $why:expr) => {
        within(param!($name, $default, $f), $range, $why)
    };
}

/// Why a parameter must be finite: an infinite or NaN one makes every draw
/// infinite or NaN (ns-2, trapping floating-point errors, crashes on most).
const FINITE: &str = "a parameter of the distribution: an infinite or NaN one makes the draws infinite or NaN (ns-2: a floating-point exception on most)";

/// A table of one class's parameters.
macro_rules! table {
    ($static:ident, $class:literal, $part:ident, $ty:ty, [$($var:expr),* $(,)?]) => {
        pub static $static: Table<$ty> = Table { class: $class, part: $part, vars: &[$($var),*], after_set: None };
    };
}

// ranvar.cc's constructors, each binding its distribution's parameters.
table!(UNIFORM, "RandomVariable/Uniform", uniform, UniformRv, [param!("min_", "0.0", min, Range::Finite, FINITE), param!("max_", "1.0", max, Range::Finite, FINITE)]);
table!(EXPONENTIAL, "RandomVariable/Exponential", exponential, ExponentialRv, [param!("avg_", "1.0", avg, Range::Finite, FINITE)]);
table!(ERLANG, "RandomVariable/Erlang", erlang, ErlangRv, [
    param!("lambda_", "1.0", lambda, Range::Finite, FINITE),
    var("k_", Int, "1.0", |v, _| int(v.k), |v, s, _| Ok(v.k = parse_int(s))),
]);
table!(GAMMA, "RandomVariable/Gamma", gamma, GammaRv, [
    // a shape that is not a finite number: the sampler's rejection loop
    // never ends (ns-2 gets a floating-point exception first); one of 0 or
    // less is no Gamma distribution, and below 1 the sampler recurses once
    // per unit of it (-2^31: ns-2 and Dumbbell both overflowed the stack)
    within(var("alpha_", Real, "1.0", |v, _| real(v.alpha), |v, s, _| Ok(v.alpha = parse_real(s))),
        Range::Positive, "the shape of a Gamma distribution: 0 or less is none (ns-2 draws nonsense, and overflows its stack on a large negative one)"),
    param!("beta_", "1.0", beta, Range::Finite, FINITE),
]);
table!(PARETO, "RandomVariable/Pareto", pareto, ParetoRv, [
    param!("avg_", "1.0", avg, Range::Finite, FINITE),
    param!("shape_", "1.5", shape, Range::Positive, "ns-2 divides by the shape (0: a floating-point exception); below 0 the draws are no Pareto distribution (they fall below its scale)"),
]);
table!(PARETO_II, "RandomVariable/ParetoII", pareto2, ParetoIIRv, [
    param!("avg_", "10.0", avg, Range::Finite, FINITE),
    param!("shape_", "1.2", shape, Range::Positive, "ns-2 divides by the shape (0: a floating-point exception); below 0 the draws are no Pareto distribution"),
]);
table!(NORMAL, "RandomVariable/Normal", normal, NormalRv, [param!("avg_", "0.0", avg, Range::Finite, FINITE), param!("std_", "1.0", std, Range::Finite, FINITE)]);
table!(LOGNORMAL, "RandomVariable/LogNormal", lognormal, LogNormalRv, [param!("avg_", "1.0", avg, Range::Finite, FINITE), param!("std_", "1.0", std, Range::Finite, FINITE)]);
table!(CONSTANT, "RandomVariable/Constant", constant, ConstantRv, [param!("val_", "1.0", val, Range::Finite, "the value drawn: an infinite or NaN one is no number of packets, bytes or seconds")]);
table!(HYPEREXPONENTIAL, "RandomVariable/HyperExponential", hyperexp, HyperExponentialRv, [
    param!("avg_", "1.0", avg, Range::Finite, FINITE),
    param!("cov_", "4.0", cov, Range::Finite, FINITE),
]);
table!(WEIBULL, "RandomVariable/Weibull", weibull, WeibullRv, [
    // (ns-2 passes the two to rweibull swapped: scale_ is the exponent's
    // divisor, shape_ the factor)
    param!("shape_", "1.0", shape, Range::Finite, FINITE),
    param!("scale_", "1.0", scale, Range::Positive, "ns-2 divides by scale_ (it passes it to rweibull as the shape; 0: a floating-point exception); below 0 the draws are no Weibull distribution"),
]);

/// `RandomVariable/Empirical`'s (`EmpiricalRandomVariable::
/// EmpiricalRandomVariable`): the CDF's range and how values between its
/// points are taken (0 discrete, 1 continuous, 2 integral); `maxEntry_`,
/// the table's initial size, is [`EMPIRICAL_SIZE`].
pub static EMPIRICAL: Table<EmpiricalRv> = Table {
    class: "RandomVariable/Empirical",
    part: empirical,
    vars: &[
        param!("minCDF_", "0", min_cdf, Range::Finite, "a bound of the CDF drawn from: an infinite or NaN one makes the draws NaN"),
        param!("maxCDF_", "1", max_cdf, Range::Finite, "a bound of the CDF drawn from: an infinite or NaN one makes the draws NaN"),
        var(
            "interpolation_",
            Int,
            "0",
            |v, _| {
                int(match v.interpolation {
                    Interpolation::Discrete => 0,
                    Interpolation::Continuous => 1,
                    Interpolation::Integral => 2,
                })
            },
            |v, s, _| Ok(v.interpolation = Interpolation::from_code(parse_int(s))),
        ),
    ],
    after_set: None,
};

/// `maxEntry_` (only the initial size of ns-2's table: kept, not used).
pub static EMPIRICAL_SIZE: Table<RanVar> = Table {
    class: "RandomVariable/Empirical",
    part: ranvar,
    vars: &[var("maxEntry_", Int, "32", |r, _| int(r.max_entry), |r, v, _| Ok(r.max_entry = parse_int(v)))],
    after_set: None,
};

/// A random variable drawing from the RNG that is the default now, with
/// ns-2's C++ initial values.
fn make(sim: &mut Sim, rv: RandomVariable) -> Obj {
    let stream = sim.w.rng.default_idx;
    Obj::RanVar(Box::new(RanVar { rv, stream, max_entry: 32 }))
}

pub fn make_uniform(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Uniform(UniformRv { min: 0.0, max: 1.0 }))
}

pub fn make_exponential(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Exponential(ExponentialRv { avg: 1.0 }))
}

pub fn make_erlang(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Erlang(ErlangRv { lambda: 1.0, k: 1 }))
}

pub fn make_gamma(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Gamma(GammaRv { alpha: 1.0, beta: 1.0 }))
}

pub fn make_pareto(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Pareto(ParetoRv { avg: 1.0, shape: 1.5 }))
}

pub fn make_pareto2(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::ParetoII(ParetoIIRv { avg: 10.0, shape: 1.2 }))
}

pub fn make_normal(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Normal(NormalRv { avg: 0.0, std: 1.0 }))
}

pub fn make_lognormal(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::LogNormal(LogNormalRv { avg: 1.0, std: 1.0 }))
}

pub fn make_constant(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Constant(ConstantRv { val: 1.0 }))
}

pub fn make_hyperexp(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::HyperExponential(HyperExponentialRv { avg: 1.0, cov: 4.0 }))
}

pub fn make_weibull(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Weibull(WeibullRv { shape: 1.0, scale: 1.0 }))
}

pub fn make_empirical(s: &mut Sim, _: ObjId) -> Obj {
    make(s, RandomVariable::Empirical(EmpiricalRv::from_pairs(&[])))
}

/// A new RNG stream (`new RNG`: tools/rng.cc, seeded as ns-2 seeds it).
pub fn make_rng(s: &mut Sim, _: ObjId) -> Obj {
    Obj::Rng(s.w.rng.new_stream())
}
