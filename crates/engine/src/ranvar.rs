//! `RandomVariable/*` objects for Tcl (tools/ranvar.cc): the distributions
//! themselves are in rng.rs (checked draw for draw against ns-2); this is
//! their bound variables and commands (`value`, `use-rng`, `loadCDF`).

use crate::rng::*;
use crate::sim::World;
use crate::vars::{fmt_int, fmt_real, parse_int, parse_real, VarType};

/// A random variable and the RNG stream it draws from (the default RNG when
/// it was created, or the one given with `use-rng`).
#[derive(Clone, Debug)]
pub struct RanVar {
    pub rv: RandomVariable,
    pub stream: u32,
    /// `maxEntry_` of an empirical variable (only the initial table size in ns-2).
    pub max_entry: i32,
}

/// Create the variable of an ns-2 class name, with ns-2's C++ initial values.
pub fn create(kind: &str, stream: u32) -> Option<RanVar> {
    let rv = match kind {
        "RandomVariable/Uniform" => RandomVariable::Uniform(UniformRv { min: 0.0, max: 1.0 }),
        "RandomVariable/Exponential" => RandomVariable::Exponential(ExponentialRv { avg: 1.0 }),
        "RandomVariable/Erlang" => RandomVariable::Erlang(ErlangRv { lambda: 1.0, k: 1 }),
        "RandomVariable/Gamma" => RandomVariable::Gamma(GammaRv { alpha: 1.0, beta: 1.0 }),
        "RandomVariable/Pareto" => RandomVariable::Pareto(ParetoRv { avg: 1.0, shape: 1.5 }),
        "RandomVariable/ParetoII" => RandomVariable::ParetoII(ParetoIIRv { avg: 10.0, shape: 1.2 }),
        "RandomVariable/Normal" => RandomVariable::Normal(NormalRv { avg: 0.0, std: 1.0 }),
        "RandomVariable/LogNormal" => RandomVariable::LogNormal(LogNormalRv { avg: 1.0, std: 1.0 }),
        "RandomVariable/Constant" => RandomVariable::Constant(ConstantRv { val: 1.0 }),
        "RandomVariable/HyperExponential" => RandomVariable::HyperExponential(HyperExponentialRv { avg: 1.0, cov: 4.0 }),
        "RandomVariable/Weibull" => RandomVariable::Weibull(WeibullRv { shape: 1.0, scale: 1.0 }),
        "RandomVariable/Empirical" => RandomVariable::Empirical(EmpiricalRv::from_pairs(&[])),
        _ => return None,
    };
    Some(RanVar { rv, stream, max_entry: 32 })
}

/// Bound variables of each class.
pub fn vars(kind: &str) -> Option<Vec<(&'static str, VarType)>> {
    let r = VarType::Real;
    Some(match kind {
        "RandomVariable/Uniform" => vec![("min_", r), ("max_", r)],
        "RandomVariable/Exponential" => vec![("avg_", r)],
        "RandomVariable/Erlang" => vec![("lambda_", r), ("k_", VarType::Int)],
        "RandomVariable/Gamma" => vec![("alpha_", r), ("beta_", r)],
        "RandomVariable/Pareto" | "RandomVariable/ParetoII" => vec![("avg_", r), ("shape_", r)],
        "RandomVariable/Normal" | "RandomVariable/LogNormal" => vec![("avg_", r), ("std_", r)],
        "RandomVariable/Constant" => vec![("val_", r)],
        "RandomVariable/HyperExponential" => vec![("avg_", r), ("cov_", r)],
        "RandomVariable/Weibull" => vec![("shape_", r), ("scale_", r)],
        "RandomVariable/Empirical" => {
            vec![("minCDF_", r), ("maxCDF_", r), ("interpolation_", VarType::Int), ("maxEntry_", VarType::Int)]
        }
        _ => return None,
    })
}

impl RanVar {
    /// A pointer to the field bound to `var`.
    fn field(&mut self, var: &str) -> Option<&mut f64> {
        use RandomVariable::*;
        Some(match (&mut self.rv, var) {
            (Uniform(v), "min_") => &mut v.min,
            (Uniform(v), "max_") => &mut v.max,
            (Exponential(v), "avg_") => &mut v.avg,
            (Erlang(v), "lambda_") => &mut v.lambda,
            (Gamma(v), "alpha_") => &mut v.alpha,
            (Gamma(v), "beta_") => &mut v.beta,
            (Pareto(v), "avg_") => &mut v.avg,
            (Pareto(v), "shape_") => &mut v.shape,
            (ParetoII(v), "avg_") => &mut v.avg,
            (ParetoII(v), "shape_") => &mut v.shape,
            (Normal(v), "avg_") => &mut v.avg,
            (Normal(v), "std_") => &mut v.std,
            (LogNormal(v), "avg_") => &mut v.avg,
            (LogNormal(v), "std_") => &mut v.std,
            (Constant(v), "val_") => &mut v.val,
            (HyperExponential(v), "avg_") => &mut v.avg,
            (HyperExponential(v), "cov_") => &mut v.cov,
            (Weibull(v), "shape_") => &mut v.shape,
            (Weibull(v), "scale_") => &mut v.scale,
            (Empirical(v), "minCDF_") => &mut v.min_cdf,
            (Empirical(v), "maxCDF_") => &mut v.max_cdf,
            _ => return None,
        })
    }

    pub fn get(&mut self, var: &str) -> Option<String> {
        match (&self.rv, var) {
            (RandomVariable::Erlang(v), "k_") => return Some(fmt_int(v.k as i64)),
            (RandomVariable::Empirical(v), "interpolation_") => {
                let code = match v.interpolation {
                    Interpolation::Discrete => 0,
                    Interpolation::Continuous => 1,
                    Interpolation::Integral => 2,
                };
                return Some(fmt_int(code));
            }
            (RandomVariable::Empirical(_), "maxEntry_") => return Some(fmt_int(self.max_entry as i64)),
            _ => {}
        }
        self.field(var).map(|f| fmt_real(*f))
    }

    pub fn set(&mut self, var: &str, v: &str) -> bool {
        match (&mut self.rv, var) {
            (RandomVariable::Erlang(e), "k_") => {
                e.k = parse_int(v);
                return true;
            }
            (RandomVariable::Empirical(e), "interpolation_") => {
                e.interpolation = Interpolation::from_code(parse_int(v));
                return true;
            }
            (RandomVariable::Empirical(_), "maxEntry_") => {
                self.max_entry = parse_int(v);
                return true;
            }
            _ => {}
        }
        match self.field(var) {
            Some(f) => {
                *f = parse_real(v);
                true
            }
            None => false,
        }
    }

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

    /// `loadCDF file`: an empirical CDF table, "value count cdf" per line.
    pub fn load_cdf(&mut self, text: &str) -> Result<usize, String> {
        match &mut self.rv {
            RandomVariable::Empirical(e) => {
                let pairs = EmpiricalRv::parse_cdf(text);
                let n = pairs.len();
                let keep = (e.min_cdf, e.max_cdf, e.interpolation);
                *e = EmpiricalRv::from_pairs(&pairs);
                e.min_cdf = keep.0;
                e.max_cdf = keep.1;
                e.interpolation = keep.2;
                Ok(n)
            }
            _ => Err("loadCDF is a command of RandomVariable/Empirical".into()),
        }
    }
}
