//! Loss injection (queue/errmodel.cc) and the hash classifiers it routes
//! flows with (classifier/classifier-hash.cc).
//!
//! * [`ErrorModel`]: a loss [`Pattern`]: the base model's uniform loss
//!   rate per packet or byte, drawn from the default RNG (here),
//!   `ErrorModel/Periodic` (every period_-th unit after offset_, with
//!   bursts; `periodic.rs`) and `ErrorModel/List` (the listed packet or
//!   byte numbers; `list.rs`).  A corrupted packet goes to the drop target,
//!   is CE-marked (`markecn_`) or delayed (`delay_pkt_`).
//! * [`HashClassifier`] (`hash.rs`).
//! * An `ErrorModule` is a connector whose packets go through its classifier
//!   (the Tcl side builds the plumbing as ns-2's library does).

mod hash;
mod list;
mod periodic;

pub use hash::{HashClassifier, HashKey, HashStep, Place};
pub use list::List;
pub use periodic::Periodic;

use crate::sched::ObjId;
use crate::sim::NONE;

/// What an error model counts (`$em unit pkt|byte|bit|time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Time,
    Byte,
    Bit,
    Pkt,
}

impl Unit {
    /// ns-2's `STR2EU`: anything unrecognised counts packets.
    pub fn parse(s: &str) -> Unit {
        match s {
            "time" => Unit::Time,
            "byte" => Unit::Byte,
            "bit" => Unit::Bit,
            _ => Unit::Pkt,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Unit::Time => "time",
            Unit::Byte => "byte",
            Unit::Bit => "bit",
            Unit::Pkt => "pkt",
        }
    }
}

/// The loss pattern of an error model, one file per pattern but the base
/// model's uniform rate.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Base `ErrorModel`: each unit lost with probability `rate_`.
    Uniform,
    /// `ErrorModel/Periodic` (`periodic.rs`).
    Periodic(Periodic),
    /// `ErrorModel/List` (`list.rs`).
    List(List),
}

/// An error model (a connector that corrupts some packets).
#[derive(Clone, Debug)]
pub struct ErrorModel {
    pub pattern: Pattern,
    pub unit: Unit,
    pub enable: i32,
    pub rate: f64,
    pub delay: f64,
    pub bandwidth: f64,
    pub markecn: bool,
    pub delay_pkt: bool,
    pub target: ObjId,
    pub drop_target: ObjId,
    /// The random variable the draws come from (`ranvar`), or NONE for the
    /// default RNG.
    pub ranvar: ObjId,
    /// Time of the queue resume this model last scheduled itself (ns-2's
    /// `intr_` event), when it dropped a packet a queue had sent.
    pub intr_until: Option<crate::sched::Key>,
}

/// A value an error model meets where ns-2 traps on it (a floating-point
/// exception, or a delay into the past): the run stops there.
#[derive(Clone, Debug, PartialEq)]
pub enum Trap {
    /// The period (packets or bytes) does not fit a C int.
    Period(f64),
    /// The offset before the first period does not fit a C int.
    Offset(f64),
    /// A loss rate per byte whose packet loss probability, 1 - (1 - rate)^size, overflows.
    ByteRate { rate: f64, size: i32 },
    /// A bandwidth that gives a dropped packet no transmission time.
    Bandwidth(f64),
    /// An infinite delay for the packets it delays.
    InfiniteDelay,
}

impl std::fmt::Display for Trap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trap::Period(v) => write!(f, "period {} is not a whole number of packets or bytes a C int holds", num(*v)),
            Trap::Offset(v) => write!(f, "offset {} is not a whole number of packets or bytes a C int holds", num(*v)),
            Trap::ByteRate { rate, size } => write!(f, "loss rate {} per byte overflows the loss probability of a {size}-byte packet", num(*rate)),
            Trap::Bandwidth(b) => write!(f, "bandwidth {} gives no transmission time for a dropped packet", num(*b)),
            Trap::InfiniteDelay => write!(f, "delay is infinite: a packet it delays would never arrive"),
        }
    }
}

impl ErrorModel {
    pub fn new(pattern: Pattern) -> ErrorModel {
        ErrorModel {
            pattern,
            unit: Unit::Pkt,
            enable: 1,
            rate: 0.0,
            delay: 0.0,
            bandwidth: 2e6,
            markecn: false,
            delay_pkt: false,
            target: NONE,
            drop_target: NONE,
            ranvar: NONE,
            intr_until: None,
        }
    }

    pub fn periodic() -> ErrorModel {
        ErrorModel::new(Pattern::Periodic(Periodic::default()))
    }

    pub fn list() -> ErrorModel {
        ErrorModel::new(Pattern::List(List::default()))
    }

    /// Decide whether this packet (of `size` bytes, at time `now`) is
    /// corrupted.  `uniform` draws from the default RNG when the pattern
    /// needs it.  `Err`: the pattern cannot corrupt in this unit (ns-2 does
    /// not support it either), nothing is corrupted (a one-time warning).
    pub fn corrupt(&mut self, size: i32, now: f64, uniform: &mut dyn FnMut() -> f64) -> Result<bool, Unmodelled> {
        if self.enable == 0 {
            return Ok(false);
        }
        let unit = self.unit;
        match &mut self.pattern {
            Pattern::Uniform => match unit {
                Unit::Pkt => Ok(uniform() < self.rate),
                Unit::Byte => {
                    let per = 1.0 - (1.0 - self.rate).powf(size as f64);
                    Ok(uniform() < per)
                }
                Unit::Time => Err(Unmodelled::UniformInTime),
                // (not modelled: `unit bit` warned when it was set)
                Unit::Bit => Ok(false),
            },
            Pattern::Periodic(p) => Ok(p.corrupt(unit, size, now)),
            Pattern::List(l) => l.corrupt(unit, size),
        }
    }

    /// What ns-2 traps on (a floating-point exception) when it decides
    /// about the next packet, of `size` bytes, if anything: a periodic
    /// model counting packets or bytes converts `offset_` (until its first
    /// period starts) or `period_` (after) to a C int; a uniform rate per
    /// byte raises 1 - rate_ to the packet's size, which overflows for a
    /// rate_ above 2 (or below 0) on a large enough packet.
    pub fn trap(&self, size: i32) -> Option<Trap> {
        if self.enable == 0 {
            return None;
        }
        match &self.pattern {
            Pattern::Periodic(p) if self.unit != Unit::Time => {
                let (t, v) = if (p.first_time as i32) >= 0 { (Trap::Period as fn(f64) -> Trap, p.period) } else { (Trap::Offset as fn(f64) -> Trap, p.offset) };
                (!(v > -2147483649.0 && v < 2147483648.0)).then(|| t(v))
            }
            Pattern::Uniform if self.unit == Unit::Byte => {
                let r = self.rate;
                (r.is_finite() && !(1.0 - r).powf(size as f64).is_finite()).then_some(Trap::ByteRate { rate: r, size })
            }
            _ => None,
        }
    }

    /// A list model's drop list: the numbers of the packets (or bytes) to
    /// drop, sorted with no number twice.  False if the model is not a list.
    pub fn set_drop_list(&mut self, sorted: Vec<i32>) -> bool {
        debug_assert!(sorted.windows(2).all(|w| w[0] < w[1]));
        match &mut self.pattern {
            Pattern::List(l) => {
                l.droplist = sorted;
                true
            }
            _ => false,
        }
    }
}

/// A value for a message: short (`1e300`, not three hundred digits).
pub fn num(v: f64) -> String {
    if v.is_finite() && v.abs() >= 1e15 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A pattern that cannot corrupt packets in the unit it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unmodelled {
    /// A uniform rate counted in time (ns-2 corrupts nothing).
    UniformInTime,
    /// A drop list counted in time (ns-2 reports an error, corrupts nothing).
    ListInTime,
    /// A drop list with nothing in it.
    EmptyList,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(em: &mut ErrorModel, n: usize, size: i32) -> Vec<usize> {
        let mut u = || 0.5;
        (0..n).filter(|_| em.corrupt(size, 0.0, &mut u).unwrap()).collect()
    }

    #[test]
    fn periodic_drops_offset_then_every_period() {
        let mut em = ErrorModel::periodic();
        if let Pattern::Periodic(p) = &mut em.pattern {
            p.period = 5.0;
            p.offset = 3.0;
        }
        // Units are counted from 1: the 3rd packet, then every 5th after it.
        assert_eq!(hits(&mut em, 20, 1000), vec![2, 7, 12, 17]);
    }

    #[test]
    fn periodic_default_drop_passes_one_per_period() {
        let mut em = ErrorModel::periodic();
        if let Pattern::Periodic(p) = &mut em.pattern {
            p.period = 3.0;
            p.offset = 2.0;
            p.default_drop = 1;
        }
        assert_eq!(hits(&mut em, 9, 1000), vec![2, 3, 5, 6, 8]);
    }

    #[test]
    fn list_drops_listed_packets() {
        let mut em = ErrorModel::list();
        assert!(em.set_drop_list(vec![2, 4, 7]));
        assert_eq!(hits(&mut em, 10, 1000), vec![2, 4, 7]);
        assert!(!ErrorModel::new(Pattern::Uniform).set_drop_list(vec![1]), "only a list model has a list");
    }

    #[test]
    fn list_in_bytes_drops_the_packet_covering_the_byte() {
        let mut em = ErrorModel::list();
        em.unit = Unit::Byte;
        assert!(em.set_drop_list(vec![2500]));
        // bytes 0..1000, 1000..2000, 2000..3000: the third packet reaches 2500.
        assert_eq!(hits(&mut em, 5, 1000), vec![2]);
    }

    #[test]
    fn traps_where_ns2_converts_or_overflows() {
        let mut em = ErrorModel::periodic();
        if let Pattern::Periodic(p) = &mut em.pattern {
            p.offset = f64::INFINITY;
        }
        assert_eq!(em.trap(1000), Some(Trap::Offset(f64::INFINITY)));
        em.unit = Unit::Time;
        assert_eq!(em.trap(1000), None, "in time units offset_ is compared, not converted");
        let mut u = ErrorModel::new(Pattern::Uniform);
        u.unit = Unit::Byte;
        u.rate = 1e300;
        assert_eq!(u.trap(1000), Some(Trap::ByteRate { rate: 1e300, size: 1000 }));
        u.rate = 0.5;
        assert_eq!(u.trap(1000), None);
        u.rate = f64::INFINITY;
        assert_eq!(u.trap(1000), None, "an infinite operand raises nothing in ns-2");
        u.unit = Unit::Pkt;
        u.rate = 1e300;
        assert_eq!(u.trap(1000), None, "per packet the rate is only compared");
    }

    #[test]
    fn uniform_rate_compares_the_draw() {
        let mut em = ErrorModel::new(Pattern::Uniform);
        em.rate = 0.6;
        let mut draws = [0.7, 0.5].into_iter();
        let mut u = || draws.next().unwrap();
        assert!(!em.corrupt(100, 0.0, &mut u).unwrap());
        assert!(em.corrupt(100, 0.0, &mut u).unwrap());
    }
}
