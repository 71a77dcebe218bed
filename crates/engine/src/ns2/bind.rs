//! Bound variables: each ns-2 class's table of the variables a script reads
//! and writes with `$obj set var value`, each declared once with its
//! tclcl type, its ns-2 default and how it reaches the engine object.
//!
//! tclcl binds a C++ member to a Tcl name per class (`bind("limit_",
//! &qlim_)`), and ns-default.tcl gives its class default (`Queue set
//! limit_ 50`).  Here one [`Var`] holds both: the registry (registry.rs)
//! lists a class's tables, from which the class's bound variables, their
//! order (the order a new object gets its class defaults in), the
//! defaults the Tcl library starts with, and `get`/`set` all follow.

use crate::sim::{Obj, World};
use crate::ns2::tclcl::VarType;

/// A bound variable of objects whose engine part is a `T`.
pub struct Var<T: 'static> {
    /// The Tcl name (`limit_`).
    pub name: &'static str,
    pub ty: VarType,
    /// The class default ns-default.tcl sets, as its text.
    pub default: ClassDefault,
    /// How the engine object holds it; `None`: the engine does not bind it
    /// (ns-2 does, but nothing here reads it), so it is a plain OTcl
    /// variable with its class default.
    pub access: Option<Access<T>>,
    /// The values it takes (`Range::Any`: whatever tclcl reads), checked
    /// before its setter runs, and why (`within`).
    pub range: Range,
    pub why: &'static str,
}

/// The declared range of a bound variable: outside it the simulation
/// crashes, hangs or can only mean nothing, so a value outside is refused
/// where it is set ("NAME must be DESCRIBE, got "VALUE"").  Each is read as
/// its variable's type reads it (tclcl's conversions), so ns-2's own
/// spellings of a number keep working.  docs/reliability.md's table of
/// declared ranges is made from these (`registry::declared_ranges`, checked
/// by crates/engine/tests/ranges.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// Whatever tclcl reads.
    Any,
    /// A number that is not NaN (the infinities work as ns-2 runs them).
    NotNan,
    /// A finite number.
    Finite,
    /// A finite number above 0.
    Positive,
    /// A number above 0 and at most this.
    PositiveAtMost(u32),
    /// A finite number of 0 or more.
    NonNegative,
    /// An integer above 0.
    PositiveInt,
    /// An integer above 0, a number of bytes.
    PositiveBytes,
    /// An integer of 0 or more.
    NonNegativeInt,
    /// An integer no larger than this.
    IntAtMost(i32),
    /// One of these integers; the text says what each means ("1 (WALI),
    /// 2 (EWMA) ...").
    OneOf(&'static [i32], &'static str),
    /// A finite time above 0 (ns-2's time units: `5ms`).
    PositiveTime,
    /// A finite time of 0 or more.
    NonNegativeTime,
    /// A time that is at least 1 ns once rounded to whole nanoseconds (an
    /// engine counting in nanoseconds needs one to step).
    AtLeastNanosecond,
    /// A bandwidth above 0 whose bit time is finite (ns-2's bandwidth
    /// units: `10Mb`; `1e999Mb` is infinite, and at `1e-320Mb` a packet
    /// takes forever).
    Bandwidth,
    /// A number from 0 to 1.
    Probability,
    /// A number above 0 and below 1.
    OpenUnit,
}

impl Range {
    /// What the values are, as the refusal says it.
    pub fn describe(self) -> String {
        match self {
            Range::Any => "anything".into(),
            Range::NotNan => "a number (not NaN)".into(),
            Range::Finite => "a finite number".into(),
            Range::Positive => "a number above 0".into(),
            Range::PositiveAtMost(hi) => format!("a number above 0 and at most {hi}"),
            Range::NonNegative => "a number of zero or more".into(),
            Range::PositiveInt => "a positive integer".into(),
            Range::PositiveBytes => "a positive number of bytes".into(),
            Range::NonNegativeInt => "zero or a positive integer".into(),
            Range::IntAtMost(hi) => format!("an integer of at most {hi}"),
            Range::OneOf(_, text) => text.into(),
            Range::PositiveTime => "a positive time".into(),
            Range::NonNegativeTime => "a time of zero or more".into(),
            Range::AtLeastNanosecond => "a time of 1 ns or more".into(),
            Range::Bandwidth => "a positive bandwidth whose bit time is finite".into(),
            Range::Probability => "a number from 0 to 1".into(),
            Range::OpenUnit => "a number above 0 and below 1".into(),
        }
    }

    /// Does the text `v` read as a value in the range?
    pub fn holds(self, v: &str) -> bool {
        match self {
            Range::Any => true,
            Range::NotNan => !parse_real(v).is_nan(),
            Range::Finite => parse_real(v).is_finite(),
            Range::Positive => {
                let x = parse_real(v);
                x.is_finite() && x > 0.0
            }
            Range::PositiveAtMost(hi) => {
                let x = parse_real(v);
                x > 0.0 && x <= hi as f64
            }
            Range::NonNegative => {
                let x = parse_real(v);
                x.is_finite() && x >= 0.0
            }
            Range::PositiveInt | Range::PositiveBytes => parse_int(v) > 0,
            Range::NonNegativeInt => parse_int(v) >= 0,
            Range::IntAtMost(hi) => parse_int(v) <= hi,
            Range::OneOf(set, _) => set.contains(&parse_int(v)),
            Range::PositiveTime => {
                let t = parse_time(v);
                t.is_finite() && t > 0.0
            }
            Range::NonNegativeTime => {
                let t = parse_time(v);
                t.is_finite() && t >= 0.0
            }
            Range::AtLeastNanosecond => {
                let ns = (parse_time(v) * 1e9).round();
                ns.is_finite() && ns >= 1.0
            }
            Range::Bandwidth => {
                let bw = parse_bw(v);
                bw.is_finite() && bw > 0.0 && (8.0 / bw).is_finite()
            }
            Range::Probability => (0.0..=1.0).contains(&parse_real(v)),
            Range::OpenUnit => {
                let x = parse_real(v);
                x > 0.0 && x < 1.0
            }
        }
    }

    /// `Ok` if `v` is in the range, else the refusal for variable `name`.
    pub fn check(self, name: &str, v: &str) -> Result<(), String> {
        if self.holds(v) {
            Ok(())
        } else {
            Err(format!("{name} must be {}, got \"{v}\"", self.describe()))
        }
    }

    /// Values just outside the range and at its edges inside, for the
    /// tests (and the docs' examples).
    pub fn probes(self) -> (Vec<String>, Vec<String>) {
        fn texts(v: &[&str]) -> Vec<String> {
            v.iter().map(|s| s.to_string()).collect()
        }
        let (outside, inside): (Vec<String>, Vec<String>) = match self {
            Range::Any => (vec![], texts(&["0"])),
            Range::NotNan => (texts(&["NaN", "nan"]), texts(&["-Inf", "0", "1e300", "Inf"])),
            Range::Finite => (texts(&["NaN", "Inf", "-Inf", "1e999"]), texts(&["-1e300", "0", "1e300"])),
            Range::Positive => (texts(&["0", "-1", "NaN", "Inf"]), texts(&["1e-300", "1e300"])),
            Range::PositiveAtMost(hi) => (
                vec!["0".into(), "-1".into(), "NaN".into(), (hi as u64 + 1).to_string()],
                vec!["1e-300".into(), hi.to_string()],
            ),
            Range::NonNegative => (texts(&["-1e-300", "-1", "NaN", "Inf"]), texts(&["0", "1e300"])),
            Range::PositiveInt | Range::PositiveBytes => (texts(&["0", "-1"]), texts(&["1", "2147483647"])),
            Range::NonNegativeInt => (texts(&["-1", "-2147483648"]), texts(&["0", "2147483647"])),
            Range::IntAtMost(hi) => (vec![(hi as i64 + 1).to_string()], vec![hi.to_string(), "0".into(), "-1".into()]),
            Range::OneOf(set, _) => {
                let lo = *set.iter().min().unwrap_or(&0) as i64;
                let hi = *set.iter().max().unwrap_or(&0) as i64;
                let mut out = vec![(lo - 1).to_string(), (hi + 1).to_string()];
                out.extend((lo..hi).filter(|n| !set.contains(&(*n as i32))).map(|n| n.to_string()));
                (out, set.iter().map(|n| n.to_string()).collect())
            }
            Range::PositiveTime => (texts(&["0", "-1ms", "NaN", "Inf"]), texts(&["1ns", "0.000001", "3600"])),
            Range::NonNegativeTime => (texts(&["-1ns", "-1", "1e999", "1e999ms"]), texts(&["0", "1ms", "3600"])),
            Range::AtLeastNanosecond => (texts(&["0", "0.4ns", "-1ms", "NaN", "Inf"]), texts(&["1ns", "0.5ns", "3600"])),
            Range::Bandwidth => (
                texts(&["0", "-1Mb", "NaN", "Inf", "1e999Mb", "1e-320Mb"]),
                texts(&["1e-300", "1", "100Gb", "1e300"]),
            ),
            Range::Probability => (texts(&["-0.000001", "1.000001", "NaN"]), texts(&["0", "0.5", "1"])),
            Range::OpenUnit => (texts(&["0", "1", "NaN"]), texts(&["0.000001", "0.999999"])),
        };
        (outside, inside)
    }
}

/// A class default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassDefault {
    /// Not set at class level.
    None,
    /// This text.
    Text(&'static str),
    /// The value another class's default has (`[Queue set limit_]`).
    SameAs(&'static str, &'static str),
}

/// Reading and writing a variable of a `T`.  Values are the text tclcl
/// reads and writes (see tclcl.rs for its conversions).
pub struct Access<T: 'static> {
    pub get: fn(&mut T, &mut World) -> String,
    pub set: fn(&mut T, &str, &mut World) -> Result<(), String>,
}

/// A class's variables over one part of its engine object.
pub struct Table<T: 'static> {
    /// The class the defaults are set on (`Queue` for `limit_`).
    pub class: &'static str,
    /// The part of the engine object the variables live in.
    pub part: fn(&mut Obj) -> Option<&mut T>,
    pub vars: &'static [Var<T>],
    /// What must follow any change (a cached flag recomputed).
    pub after_set: Option<fn(&mut T)>,
}

/// A table whatever its part's type (the registry's lists hold these).
pub trait Bindings: Sync {
    /// The class the defaults are set on.
    fn class(&self) -> &'static str;
    /// The variables: name, type, default, and whether the engine binds it.
    fn each(&self, f: &mut dyn FnMut(&'static str, VarType, ClassDefault, bool));
    /// `Some(value)` if `var` is one of these bound by the engine.
    fn get(&self, obj: &mut Obj, w: &mut World, var: &str) -> Option<String>;
    /// `Some(result)` if `var` is one of these bound by the engine.
    fn set(&self, obj: &mut Obj, w: &mut World, var: &str, value: &str) -> Option<Result<(), String>>;
    /// The declared ranges (`Range`): name, range, why; `Range::Any` ones
    /// too.
    fn ranges(&self, f: &mut dyn FnMut(&'static str, Range, &'static str));
}

impl<T: 'static> Bindings for Table<T> {
    fn class(&self) -> &'static str {
        self.class
    }

    fn each(&self, f: &mut dyn FnMut(&'static str, VarType, ClassDefault, bool)) {
        for v in self.vars {
            f(v.name, v.ty, v.default, v.access.is_some());
        }
    }

    fn get(&self, obj: &mut Obj, w: &mut World, var: &str) -> Option<String> {
        let v = self.vars.iter().find(|v| v.name == var)?;
        let a = v.access.as_ref()?;
        let part = (self.part)(obj)?;
        Some((a.get)(part, w))
    }

    fn set(&self, obj: &mut Obj, w: &mut World, var: &str, value: &str) -> Option<Result<(), String>> {
        let v = self.vars.iter().find(|v| v.name == var)?;
        let a = v.access.as_ref()?;
        let part = (self.part)(obj)?;
        if let Err(e) = v.range.check(v.name, value) {
            return Some(Err(e));
        }
        let r = (a.set)(part, value, w);
        if let Some(after) = self.after_set {
            after(part);
        }
        Some(r)
    }

    fn ranges(&self, f: &mut dyn FnMut(&'static str, Range, &'static str)) {
        for v in self.vars {
            f(v.name, v.range, v.why);
        }
    }
}

// ---- the conversions, for the tables ------------------------------------------------

pub use crate::ns2::tclcl::{fmt_bool, fmt_int, fmt_real, parse_bool, parse_bw, parse_int, parse_real, parse_time};

/// An `int` as tclcl prints it.
pub fn int(v: i32) -> String {
    fmt_int(v as i64)
}

/// A `double` as tclcl prints it (`%.17g`).
pub fn real(v: f64) -> String {
    fmt_real(v)
}

/// A `bool` as tclcl prints it.
pub fn boolean(v: bool) -> String {
    fmt_bool(v)
}

/// A setter's check of a `double` that must be finite: the value, or the
/// error naming variable `name` and the text `v` given.
pub fn finite(name: &str, v: &str) -> Result<f64, String> {
    let x = parse_real(v);
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{name} must be a finite number, got \"{v}\""))
    }
}

/// A setter's check of a `double` that must be finite and above 0.
pub fn positive(name: &str, v: &str) -> Result<f64, String> {
    let x = parse_real(v);
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(format!("{name} must be a number above 0, got \"{v}\""))
    }
}

/// A variable the engine binds, of type `ty`, with this default, read and
/// written by `get` and `set`.
pub const fn var<T>(
    name: &'static str,
    ty: VarType,
    default: &'static str,
    get: fn(&mut T, &mut World) -> String,
    set: fn(&mut T, &str, &mut World) -> Result<(), String>,
) -> Var<T> {
    Var { name, ty, default: ClassDefault::Text(default), access: Some(Access { get, set }), range: Range::Any, why: "" }
}

/// Variable `v` takes only values in `range`; `why`: what ns-2 (or the
/// model) does outside it.
pub const fn within<T>(v: Var<T>, range: Range, why: &'static str) -> Var<T> {
    Var { range, why, ..v }
}

/// A variable ns-2 binds that the engine does not model: only its class
/// default exists (a plain OTcl class variable).
pub const fn script_var<T>(name: &'static str, default: &'static str) -> Var<T> {
    Var { name, ty: VarType::Int, default: ClassDefault::Text(default), access: None, range: Range::Any, why: "" }
}

/// A variable the engine binds that has no class default of its own here:
/// another of the class's tables (an ancestor's) sets it, or ns-2 sets none
/// (`tests/registry.rs` lists which).
pub const fn var_unset<T>(
    name: &'static str,
    ty: VarType,
    get: fn(&mut T, &mut World) -> String,
    set: fn(&mut T, &str, &mut World) -> Result<(), String>,
) -> Var<T> {
    Var { name, ty, default: ClassDefault::None, access: Some(Access { get, set }), range: Range::Any, why: "" }
}

/// An agent's common fields and its kind, if `o` is an agent: what the
/// agent classes' table parts pick their state from.
pub fn agent_parts(o: &mut Obj) -> Option<(&mut crate::agent::AgentBase, &mut crate::agent::AgentKind)> {
    match o {
        Obj::Agent(a) => {
            let crate::agent::Agent { base, kind } = &mut **a;
            Some((base, kind))
        }
        _ => None,
    }
}

/// The part of objects whose tables need none: the whole object.
pub fn whole(o: &mut Obj) -> Option<&mut Obj> {
    Some(o)
}

/// `debug_`, which ns-2 binds in most classes (`bind_bool("debug_",
/// &debug_)`, default false) and the engine ignores: it reads 0 and takes
/// any value.
pub const fn debug<T>() -> Var<T> {
    var("debug_", VarType::Bool, "false", |_, _| boolean(false), |_, _, _| Ok(()))
}

/// The variables of a class whose only bound variable is `debug_`.
pub static DEBUG_ONLY: [Var<Obj>; 1] = [debug()];

/// The table of class `class` whose only bound variable is `debug_`.
pub const fn debug_only(class: &'static str) -> Table<Obj> {
    Table { class, part: whole, vars: &DEBUG_ONLY, after_set: None }
}

/// A class's variables over two parts of its engine object at once (a TCP
/// sender's agent fields and its sender state: `packetSize_` is the
/// agent's, a traced variable's trace line names the agent).
pub struct Table2<A: 'static, B: 'static> {
    pub class: &'static str,
    pub part: for<'a> fn(&'a mut Obj) -> Option<(&'a mut A, &'a mut B)>,
    pub vars: &'static [Var2<A, B>],
}

/// A bound variable over two parts (see `Table2`).
pub struct Var2<A: 'static, B: 'static> {
    pub name: &'static str,
    pub ty: VarType,
    pub default: ClassDefault,
    pub get: fn(&mut A, &mut B, &mut World) -> String,
    pub set: fn(&mut A, &mut B, &str, &mut World) -> Result<(), String>,
    pub range: Range,
    pub why: &'static str,
}

/// `within` for a variable over two parts.
pub const fn within2<A, B>(v: Var2<A, B>, range: Range, why: &'static str) -> Var2<A, B> {
    Var2 { range, why, ..v }
}

impl<A: 'static, B: 'static> Bindings for Table2<A, B> {
    fn class(&self) -> &'static str {
        self.class
    }

    fn each(&self, f: &mut dyn FnMut(&'static str, VarType, ClassDefault, bool)) {
        for v in self.vars {
            f(v.name, v.ty, v.default, true);
        }
    }

    fn get(&self, obj: &mut Obj, w: &mut World, var: &str) -> Option<String> {
        let v = self.vars.iter().find(|v| v.name == var)?;
        let (a, b) = (self.part)(obj)?;
        Some((v.get)(a, b, w))
    }

    fn set(&self, obj: &mut Obj, w: &mut World, var: &str, value: &str) -> Option<Result<(), String>> {
        let v = self.vars.iter().find(|v| v.name == var)?;
        let (a, b) = (self.part)(obj)?;
        if let Err(e) = v.range.check(v.name, value) {
            return Some(Err(e));
        }
        Some((v.set)(a, b, value, w))
    }

    fn ranges(&self, f: &mut dyn FnMut(&'static str, Range, &'static str)) {
        for v in self.vars {
            f(v.name, v.range, v.why);
        }
    }
}

/// A variable over two parts, with this default.
pub const fn var2<A, B>(
    name: &'static str,
    ty: VarType,
    default: &'static str,
    get: fn(&mut A, &mut B, &mut World) -> String,
    set: fn(&mut A, &mut B, &str, &mut World) -> Result<(), String>,
) -> Var2<A, B> {
    Var2 { name, ty, default: ClassDefault::Text(default), get, set, range: Range::Any, why: "" }
}
