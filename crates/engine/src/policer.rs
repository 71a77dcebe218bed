//! DiffServ edge marking: meters and policers that choose each packet's
//! code point from its flow's profile, as ns-2 2.35 models them
//! (diffserv/dsPolicy.cc), draw for draw.
//!
//! A [`Marker`] holds two tables.  A profile (ns-2's policy table entry)
//! matches packets by source and destination address (either may be
//! [`ANY`]) and carries the meter's rates, buckets and state; the first
//! profile that matches a packet meters it.  A downgrade rule (a policer
//! table entry) says, for one meter kind and initial code point, which code
//! point an out-of-profile packet gets (yellow), and for the three-colour
//! meters which one a far out-of-profile packet gets (red).
//!
//! The meters:
//! * time sliding window, two colours (Clark and Fang 1998, section 3.3):
//!   the rate averaged over a window; above the committed rate a packet is
//!   downgraded with probability 1 - CIR / rate;
//! * time sliding window, three colours: a draw `rate * (1 - u)` above the
//!   peak rate is red, above the committed rate yellow, else green;
//! * token bucket: a packet its committed bucket covers is green (and
//!   takes its size from the bucket), else yellow;
//! * single-rate three colour marker (RFC 2697): the committed bucket, and
//!   an excess bucket that fills with what overflows it;
//! * two-rate three colour marker (RFC 2698): committed and peak buckets.
//!
//! Rates are kept in bytes per second, buckets in bytes.

use crate::rng::Rng;

/// A profile's source or destination that matches any address.
pub const ANY: i32 = -1;
/// At most this many profiles, and this many downgrade rules.
pub const MAX_PROFILES: usize = 20;
pub const MAX_RULES: usize = 40;

/// The meter of a profile, and the kind a downgrade rule applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeterKind {
    /// No meter: every packet keeps the initial code point.
    Null,
    /// Time sliding window, two colours.
    Tsw2,
    /// Time sliding window, three colours.
    Tsw3,
    TokenBucket,
    /// Single-rate three colour marker.
    SrTcm,
    /// Two-rate three colour marker.
    TrTcm,
}

impl MeterKind {
    /// Does its rule name a red code point too?
    pub fn three_colour(self) -> bool {
        matches!(self, MeterKind::Tsw3 | MeterKind::SrTcm | MeterKind::TrTcm)
    }
}

/// A flow aggregate's profile and its meter's state.
#[derive(Clone, Debug)]
pub struct Profile {
    pub src: i32,
    pub dst: i32,
    pub kind: MeterKind,
    /// The code point of an in-profile packet.
    pub code_point: i32,
    /// Committed and peak rates (bytes/s).
    pub cir: f64,
    pub pir: f64,
    /// Committed, excess and peak burst sizes (bytes), and their buckets.
    pub cbs: f64,
    pub ebs: f64,
    pub pbs: f64,
    pub c_bucket: f64,
    pub e_bucket: f64,
    pub p_bucket: f64,
    /// The time sliding window's average rate (bytes/s), its length (s),
    /// and the last arrival (the buckets' last fill, too).
    pub avg_rate: f64,
    pub win_len: f64,
    pub arrival: f64,
}

impl Profile {
    /// A profile for packets from `src` to `dst` (or [`ANY`]); rates in
    /// bits per second, sizes in bytes (unused ones 0).  The window starts
    /// one second long with the committed rate as its average; the
    /// buckets start full.
    pub fn new(src: i32, dst: i32, kind: MeterKind, code_point: i32, cir_bps: f64, pir_bps: f64, cbs: f64, ebs: f64, pbs: f64) -> Profile {
        let cir = cir_bps / 8.0;
        Profile {
            src,
            dst,
            kind,
            code_point,
            cir,
            pir: pir_bps / 8.0,
            cbs,
            ebs,
            pbs,
            c_bucket: cbs,
            e_bucket: ebs,
            p_bucket: pbs,
            avg_rate: cir,
            win_len: 1.0,
            arrival: 0.0,
        }
    }

    fn matches(&self, src: i32, dst: i32) -> bool {
        (self.src == src || self.src == ANY) && (self.dst == dst || self.dst == ANY)
    }

    /// Bring the meter up to `now` with a packet of `size` bytes.
    fn meter(&mut self, now: f64, size: i32) {
        match self.kind {
            MeterKind::Null => {}
            MeterKind::Tsw2 | MeterKind::Tsw3 => {
                let bytes = self.avg_rate * self.win_len + size as f64;
                self.avg_rate = bytes / (now - self.arrival + self.win_len);
            }
            MeterKind::TokenBucket => {
                let tokens = self.cir * (now - self.arrival);
                self.c_bucket = fill(self.c_bucket, tokens, self.cbs);
            }
            MeterKind::SrTcm => {
                let tokens = self.cir * (now - self.arrival);
                if self.c_bucket + tokens <= self.cbs {
                    self.c_bucket += tokens;
                } else {
                    let over = tokens - (self.cbs - self.c_bucket);
                    self.c_bucket = self.cbs;
                    self.e_bucket = fill(self.e_bucket, over, self.ebs);
                }
            }
            MeterKind::TrTcm => {
                let dt = now - self.arrival;
                self.c_bucket = fill(self.c_bucket, self.cir * dt, self.cbs);
                self.p_bucket = fill(self.p_bucket, self.pir * dt, self.pbs);
            }
        }
        self.arrival = now;
    }

    /// The colour of a packet of `size` bytes just metered (taking its
    /// bytes from the buckets that cover it).
    fn colour(&mut self, size: i32, rng: &mut Rng) -> Colour {
        let size = size as f64;
        match self.kind {
            MeterKind::Null => Colour::Green,
            MeterKind::Tsw2 => {
                if self.avg_rate > self.cir && rng.uniform_double() <= 1.0 - self.cir / self.avg_rate {
                    Colour::Yellow
                } else {
                    Colour::Green
                }
            }
            MeterKind::Tsw3 => {
                let r = self.avg_rate * (1.0 - rng.uniform_double());
                if r > self.pir {
                    Colour::Red
                } else if r > self.cir {
                    Colour::Yellow
                } else {
                    Colour::Green
                }
            }
            MeterKind::TokenBucket => {
                if self.c_bucket - size >= 0.0 {
                    self.c_bucket -= size;
                    Colour::Green
                } else {
                    Colour::Yellow
                }
            }
            MeterKind::SrTcm => {
                if self.c_bucket - size >= 0.0 {
                    self.c_bucket -= size;
                    Colour::Green
                } else if self.e_bucket - size >= 0.0 {
                    self.e_bucket -= size;
                    Colour::Yellow
                } else {
                    Colour::Red
                }
            }
            MeterKind::TrTcm => {
                if self.p_bucket - size < 0.0 {
                    Colour::Red
                } else if self.c_bucket - size < 0.0 {
                    self.p_bucket -= size;
                    Colour::Yellow
                } else {
                    self.c_bucket -= size;
                    self.p_bucket -= size;
                    Colour::Green
                }
            }
        }
    }
}

/// A bucket holding `b` after `tokens` more, capped at `depth`.
#[inline]
fn fill(b: f64, tokens: f64, depth: f64) -> f64 {
    if b + tokens <= depth {
        b + tokens
    } else {
        depth
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Green,
    Yellow,
    Red,
}

/// Which code points a meter kind's packets of one initial code point get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub kind: MeterKind,
    pub initial: i32,
    pub yellow: i32,
    /// Three-colour kinds only (0 for the others).
    pub red: i32,
}

/// Why a packet could not be marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unmarked {
    /// No profile matches the packet's source and destination.
    NoProfile { src: i32, dst: i32 },
    /// No rule for the matching profile's meter kind and code point.
    NoRule { kind: MeterKind, code_point: i32 },
}

/// An edge's profiles and downgrade rules.
#[derive(Clone, Debug, Default)]
pub struct Marker {
    pub profiles: Vec<Profile>,
    pub rules: Vec<Rule>,
}

impl Marker {
    /// The code point for a packet of `size` bytes from `src` to `dst`
    /// arriving at `now`: its profile's meter runs, then its rule colours
    /// it.
    pub fn mark(&mut self, now: f64, src: i32, dst: i32, size: i32, rng: &mut Rng) -> Result<i32, Unmarked> {
        let Some(prof) = self.profiles.iter_mut().find(|p| p.matches(src, dst)) else {
            return Err(Unmarked::NoProfile { src, dst });
        };
        let (kind, cp) = (prof.kind, prof.code_point);
        let Some(rule) = self.rules.iter().find(|r| r.kind == kind && r.initial == cp) else {
            return Err(Unmarked::NoRule { kind, code_point: cp });
        };
        prof.meter(now, size);
        Ok(match prof.colour(size, rng) {
            Colour::Green => rule.initial,
            Colour::Yellow => rule.yellow,
            Colour::Red => rule.red,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(p: Profile, yellow: i32, red: i32) -> Marker {
        let kind = p.kind;
        Marker { profiles: vec![p], rules: vec![Rule { kind, initial: 10, yellow, red }] }
    }

    /// A 3000-byte bucket at 8000 B/s: three 1000-byte packets at once are
    /// green, the fourth yellow; an eighth of a second later one more is
    /// covered again.
    #[test]
    fn token_bucket_covers_its_depth_then_its_rate() {
        let mut m = marker(Profile::new(0, 5, MeterKind::TokenBucket, 10, 64000.0, 0.0, 3000.0, 0.0, 0.0), 11, 0);
        let mut set = crate::random::RngSet::new_ns2_default();
        let rng = set.default_stream();
        let cps: Vec<i32> = (0..4).map(|_| m.mark(0.0, 0, 5, 1000, rng).unwrap()).collect();
        assert_eq!(cps, [10, 10, 10, 11]);
        assert_eq!(m.mark(0.125, 0, 5, 1000, rng).unwrap(), 10);
        assert_eq!(m.mark(0.125, 0, 5, 1000, rng).unwrap(), 11);
    }

    /// srTCM: what overflows the committed bucket fills the excess bucket;
    /// trTCM: a packet the peak bucket does not cover is red.
    #[test]
    fn three_colour_markers_spill_and_peak() {
        let mut set = crate::random::RngSet::new_ns2_default();
        let rng = set.default_stream();
        let mut sr = marker(Profile::new(ANY, ANY, MeterKind::SrTcm, 10, 8000.0, 0.0, 1000.0, 1000.0, 0.0), 11, 12);
        let cps: Vec<i32> = (0..3).map(|_| sr.mark(0.0, 3, 4, 1000, rng).unwrap()).collect();
        assert_eq!(cps, [10, 11, 12]);
        // 1.5 s at 1000 B/s: 1000 to the committed bucket, 500 spill over
        sr.mark(1.5, 3, 4, 1, rng).unwrap();
        assert_eq!((sr.profiles[0].c_bucket, sr.profiles[0].e_bucket), (999.0, 500.0));
        let mut tr = marker(Profile::new(0, 1, MeterKind::TrTcm, 10, 8000.0, 16000.0, 1000.0, 0.0, 2000.0), 11, 12);
        let cps: Vec<i32> = (0..3).map(|_| tr.mark(0.0, 0, 1, 1000, rng).unwrap()).collect();
        assert_eq!(cps, [10, 11, 12]);
    }

    /// The TSW2CM window: under the committed rate every packet is green
    /// and no random number is drawn (the window starts at the committed
    /// rate, so the first packet comes a second in, 100 kB/s against 1 MB/s).
    #[test]
    fn tsw_under_its_rate_draws_nothing() {
        let mut m = marker(Profile::new(0, 1, MeterKind::Tsw2, 10, 8.0e6, 0.0, 0.0, 0.0, 0.0), 11, 0);
        let mut set = crate::random::RngSet::new_ns2_default();
        let rng = set.default_stream();
        let mut before = rng.clone();
        for i in 0..10 {
            assert_eq!(m.mark(1.0 + i as f64 * 0.01, 0, 1, 1000, rng).unwrap(), 10);
        }
        assert_eq!(rng.uniform_double(), before.uniform_double());
        assert!(m.profiles[0].avg_rate < 1.0e6);
    }

    #[test]
    fn unmatched_packets_are_refused() {
        let mut m = marker(Profile::new(0, 1, MeterKind::Null, 10, 0.0, 0.0, 0.0, 0.0, 0.0), 10, 0);
        let mut set = crate::random::RngSet::new_ns2_default();
        let rng = set.default_stream();
        assert_eq!(m.mark(0.0, 1, 0, 100, rng), Err(Unmarked::NoProfile { src: 1, dst: 0 }));
        m.profiles[0].code_point = 7;
        assert_eq!(m.mark(0.0, 0, 1, 100, rng), Err(Unmarked::NoRule { kind: MeterKind::Null, code_point: 7 }));
    }
}
