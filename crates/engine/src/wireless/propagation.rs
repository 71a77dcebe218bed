//! Radio propagation: the power a receiver gets from a transmission, and
//! its inverse, the distance at which the power falls to a threshold.  Three
//! models, as ns-2 2.35 computes them (mobile/propagation.cc,
//! mobile/tworayground.cc, mobile/shadowing.cc), operation for operation:
//!
//! * free space (Friis): `Pr = Pt Gt Gr (lambda / (4 pi d))^2 / L`;
//! * two-ray ground reflection: Friis up to the crossover distance
//!   `4 pi ht hr / lambda`, beyond it `Pr = Pt Gt Gr ht^2 hr^2 / (d^4 L)`;
//! * log-normal shadowing: Friis at a reference distance `d0`, less
//!   `10 beta log10(d / d0)` dB beyond it, plus a normal draw of deviation
//!   `sigma` dB from the model's own random stream, one per reception.  It
//!   has no inverse: every node is in carrier-sense range (the distance is
//!   the largest double).
//! * Nakagami (mobile/nakagami.cc): Friis at 1 m, less a path loss whose
//!   exponent changes at two distances, and, when switched on, a
//!   Nakagami-m fading drawn around that mean (an Erlang draw when `m` is
//!   whole, else a Gamma draw) from the run's default stream, as ns-2's
//!   temporary random variables draw.  No inverse either.
//!
//! ns-2's constants are kept, not the exact ones: pi is 3.1415926535897
//! and the speed of light 3e8 m/s (propagation.h), which the wavelength
//! and the propagation delay use.

use crate::random::RngSet;
use crate::rng::{ErlangRv, GammaRv};

/// pi as ns-2 defines it (propagation.h).
pub const PI: f64 = 3.1415926535897;
/// The speed of light as ns-2 takes it, m/s.
pub const SPEED_OF_LIGHT: f64 = 300000000.0;

/// The wavelength of frequency `freq` (Hz), in metres.
pub fn wavelength(freq: f64) -> f64 {
    SPEED_OF_LIGHT / freq
}

/// Free-space power at distance `d` (at distance 0, all of `pt`).
pub fn friis(pt: f64, gt: f64, gr: f64, lambda: f64, loss: f64, d: f64) -> f64 {
    if d == 0.0 {
        return pt;
    }
    let m = lambda / (4.0 * PI * d);
    (pt * gt * gr * (m * m)) / loss
}

/// Two-ray ground reflection power at distance `d`, antennas at heights
/// `ht` (transmitter) and `hr` (receiver).
pub fn two_ray(pt: f64, gt: f64, gr: f64, ht: f64, hr: f64, loss: f64, d: f64) -> f64 {
    pt * gt * gr * (hr * hr * ht * ht) / (d * d * d * d * loss)
}

/// A propagation model.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    FreeSpace,
    /// Keeps the crossover distance of the last antenna heights it saw, as
    /// ns-2 does (the same value recomputed would be the same anyway).
    TwoRayGround { last_hr: f64, last_ht: f64, crossover: f64 },
    Shadowing(Shadowing),
    /// (boxed: its parameters would make every object larger)
    Nakagami(Box<Nakagami>),
}

/// The Nakagami model's parameters (ns-2's bound variables, same names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nakagami {
    /// Path-loss exponents up to `d0_gamma`, up to `d1_gamma`, beyond.
    pub gamma: [f64; 3],
    pub d0_gamma: f64,
    pub d1_gamma: f64,
    /// Whether the fading is drawn (else the mean power is returned).
    pub fading: bool,
    /// Fading shapes up to `d0_m`, up to `d1_m`, beyond.
    pub m: [f64; 3],
    pub d0_m: f64,
    pub d1_m: f64,
}

impl Default for Nakagami {
    /// ns-2 2.35's class defaults (ns-default.tcl).
    fn default() -> Nakagami {
        Nakagami { gamma: [1.9, 3.8, 3.8], d0_gamma: 200.0, d1_gamma: 500.0, fading: false, m: [1.5, 0.75, 0.75], d0_m: 80.0, d1_m: 200.0 }
    }
}

impl Nakagami {
    /// The mean received power at distance `d` (nakagami.cc's path loss
    /// from the power at 1 m, operation for operation).
    pub fn mean_power(&self, p: &Path) -> f64 {
        let pr0 = friis(p.pt, p.gt, p.gr, p.lambda, p.loss, 1.0);
        let [g0, g1, g2] = self.gamma;
        let d = p.d;
        let mut loss_db = 0.0;
        if d > 0.0 && d <= self.d0_gamma {
            loss_db = 10.0 * g0 * (d / 1.0).log10();
        }
        if d > self.d0_gamma && d <= self.d1_gamma {
            loss_db = 10.0 * g0 * (self.d0_gamma / 1.0).log10() + 10.0 * g1 * (d / self.d0_gamma).log10();
        }
        if d > self.d1_gamma {
            loss_db = 10.0 * g0 * (self.d0_gamma / 1.0).log10()
                + 10.0 * g1 * (self.d1_gamma / self.d0_gamma).log10()
                + 10.0 * g2 * (d / self.d1_gamma).log10();
        }
        pr0 * 10f64.powf(-loss_db / 10.0)
    }

    /// The received power: the mean, or a draw of the fading around it
    /// from `rngs`' default stream.
    pub fn power(&self, rngs: &mut RngSet, p: &Path) -> f64 {
        let pr = self.mean_power(p);
        if !self.fading {
            return pr;
        }
        let m = if p.d <= self.d0_m {
            self.m[0]
        } else if p.d <= self.d1_m {
            self.m[1]
        } else {
            self.m[2]
        };
        // (ns-2 compares `(unsigned int) floor(m)` with m)
        let whole = m.floor() as u32;
        if whole as f64 == m {
            ErlangRv { lambda: pr / m, k: whole as i32 }.value(rngs.default_stream())
        } else {
            let idx = rngs.default_idx as usize;
            let RngSet { package, streams, .. } = rngs;
            GammaRv { alpha: m, beta: pr / m }.value(&mut streams[idx], package)
        }
    }
}

/// The log-normal shadowing model's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shadowing {
    /// The path-loss exponent (beta; 2 is free space).
    pub pathloss_exp: f64,
    /// The deviation of the shadowing, in dB (sigma).
    pub std_db: f64,
    /// The reference distance (m), within which there is no path loss
    /// beyond Friis's at that distance.
    pub dist0: f64,
    /// The model's random stream (an index into the run's [`RngSet`]).
    pub stream: u32,
    /// The predefined-seed index the stream starts from when the model is
    /// made (0..=63).
    pub seed: i32,
}

impl Default for Shadowing {
    /// ns-2 2.35's class defaults (ns-default.tcl), on stream 0.
    fn default() -> Shadowing {
        Shadowing { pathloss_exp: 2.0, std_db: 4.0, dist0: 1.0, stream: 0, seed: 0 }
    }
}

/// What a reception is computed from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Path {
    /// Transmit power (W), antenna gains.
    pub pt: f64,
    pub gt: f64,
    pub gr: f64,
    /// Wavelength (m) and system loss (>= 1).
    pub lambda: f64,
    pub loss: f64,
    /// Distance between the antennas (m) and their heights above ground.
    pub d: f64,
    pub ht: f64,
    pub hr: f64,
}

impl Model {
    pub fn two_ray_ground() -> Model {
        Model::TwoRayGround { last_hr: 0.0, last_ht: 0.0, crossover: 0.0 }
    }

    /// The received power (W).  Shadowing draws from its stream in `rngs`
    /// (and the normal cache the run's streams share, as ns-2's do).
    pub fn received_power(&mut self, rngs: &mut RngSet, p: &Path) -> f64 {
        match self {
            Model::FreeSpace => friis(p.pt, p.gt, p.gr, p.lambda, p.loss, p.d),
            Model::Shadowing(s) => {
                let pr0 = friis(p.pt, p.gt, p.gr, p.lambda, p.loss, s.dist0);
                let avg_db = if p.d > s.dist0 { -10.0 * s.pathloss_exp * (p.d / s.dist0).log10() } else { 0.0 };
                let RngSet { package, streams, .. } = rngs;
                let loss_db = avg_db + streams[s.stream as usize].normal(package, 0.0, s.std_db);
                pr0 * 10f64.powf(loss_db / 10.0)
            }
            Model::Nakagami(n) => n.power(rngs, p),
            Model::TwoRayGround { last_hr, last_ht, crossover } => {
                if p.hr != *last_hr || p.ht != *last_ht {
                    *crossover = (4.0 * PI * p.ht * p.hr) / p.lambda;
                    *last_hr = p.hr;
                    *last_ht = p.ht;
                }
                if p.d <= *crossover {
                    friis(p.pt, p.gt, p.gr, p.lambda, p.loss, p.d)
                } else {
                    two_ray(p.pt, p.gt, p.gr, p.ht, p.hr, p.loss, p.d)
                }
            }
        }
    }

    /// The distance at which the power falls to `pr` (ns-2's `getDist`;
    /// the two-ray model's ignores the crossover and the loss).
    pub fn distance(&self, pr: f64, pt: f64, gt: f64, gr: f64, hr: f64, ht: f64, loss: f64, lambda: f64) -> f64 {
        match self {
            Model::FreeSpace => ((pt * gt * gr * lambda * lambda) / (loss * pr)).sqrt() / (4.0 * PI),
            Model::TwoRayGround { .. } => (pt * gt * gr * (hr * hr * ht * ht) / pr).sqrt().sqrt(),
            Model::Shadowing(_) | Model::Nakagami(_) => f64::MAX,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // ns-2 2.35's defaults: Phy/WirelessPhy Pt_ 0.28183815, freq_ 914e+6,
    // L_ 1.0, RXThresh_ 3.652e-10, CSThresh_ 1.559e-11; the omni antenna
    // 1.5 m above the node, gains 1.
    const PT: f64 = 0.28183815;
    const RX: f64 = 3.652e-10;
    const CS: f64 = 1.559e-11;

    fn path(d: f64) -> Path {
        Path { pt: PT, gt: 1.0, gr: 1.0, lambda: wavelength(914e6), loss: 1.0, d, ht: 1.5, hr: 1.5 }
    }

    #[test]
    fn the_default_thresholds_are_250_and_550_metres_with_two_ray_ground() {
        let mut m = Model::two_ray_ground();
        // Receiving threshold at 250 m, carrier sense at 550 m: the
        // defaults were chosen so (ns-2 prints "distCST_ = 550.0").
        assert_eq!(format!("{:.1}", m.distance(CS, PT, 1.0, 1.0, 1.5, 1.5, 1.0, wavelength(914e6))), "550.0");
        assert_eq!(format!("{:.1}", m.distance(RX, PT, 1.0, 1.0, 1.5, 1.5, 1.0, wavelength(914e6))), "250.0");
        assert!(m.received_power(&mut RngSet::new_ns2_default(), &path(249.9)) >= RX);
        assert!(m.received_power(&mut RngSet::new_ns2_default(), &path(250.1)) < RX);
        assert!(m.received_power(&mut RngSet::new_ns2_default(), &path(549.9)) >= CS);
        assert!(m.received_power(&mut RngSet::new_ns2_default(), &path(550.1)) < CS);
    }

    #[test]
    fn two_ray_ground_is_friis_up_to_the_crossover_distance() {
        let lambda = wavelength(914e6);
        // 4 pi 1.5 1.5 / (3e8 / 914e6) = 86.14 m
        let crossover = 4.0 * PI * 1.5 * 1.5 / lambda;
        assert!((crossover - 86.14).abs() < 0.01, "{crossover}");
        let mut m = Model::two_ray_ground();
        for d in [1.0, 10.0, 86.0] {
            assert_eq!(m.received_power(&mut RngSet::new_ns2_default(), &path(d)), friis(PT, 1.0, 1.0, lambda, 1.0, d));
        }
        for d in [86.2, 150.0, 250.0] {
            assert_eq!(m.received_power(&mut RngSet::new_ns2_default(), &path(d)), two_ray(PT, 1.0, 1.0, 1.5, 1.5, 1.0, d));
        }
        // At the crossover the two agree (to rounding).
        let a = friis(PT, 1.0, 1.0, lambda, 1.0, crossover);
        let b = two_ray(PT, 1.0, 1.0, 1.5, 1.5, 1.0, crossover);
        assert!((a - b).abs() / a < 1e-12);
        // Worked by hand: 0.28183815 * 1.5^4 / 250^4 = 3.65262...e-10.
        assert_eq!(format!("{:.5e}", m.received_power(&mut RngSet::new_ns2_default(), &path(250.0))), "3.65262e-10");
        // The crossover follows the antenna heights.
        let high = Path { ht: 10.0, hr: 10.0, ..path(150.0) };
        assert_eq!(m.received_power(&mut RngSet::new_ns2_default(), &high), friis(PT, 1.0, 1.0, lambda, 1.0, 150.0));
    }

    #[test]
    fn free_space_by_hand_and_its_inverse() {
        let lambda = wavelength(914e6);
        // (0.328227/(4 pi 100))^2 * 0.28183815 = 1.92278...e-8
        let m = Model::FreeSpace;
        let mut m2 = m.clone();
        let pr = m2.received_power(&mut RngSet::new_ns2_default(), &path(100.0));
        assert_eq!(format!("{:.4e}", pr), "1.9228e-8");
        let d = m.distance(pr, PT, 1.0, 1.0, 1.5, 1.5, 1.0, lambda);
        assert!((d - 100.0).abs() < 1e-9, "{d}");
        assert_eq!(m2.received_power(&mut RngSet::new_ns2_default(), &path(0.0)), PT);
        // The loss divides the power.
        assert_eq!(m2.received_power(&mut RngSet::new_ns2_default(), &Path { loss: 2.0, ..path(100.0) }), pr / 2.0);
    }

    #[test]
    fn shadowing_without_deviation_is_a_path_loss_exponent_from_the_reference() {
        let lambda = wavelength(914e6);
        let mut rngs = RngSet::new_ns2_default();
        let mut m = Model::Shadowing(Shadowing { pathloss_exp: 2.0, std_db: 0.0, dist0: 1.0, stream: 0, seed: 0 });
        // Exponent 2 from 1 m is Friis (to rounding), and draws nothing.
        let before = rngs.streams[0].all_seeds();
        for d in [10.0, 100.0, 250.0] {
            let pr = m.received_power(&mut rngs, &path(d));
            let f = friis(PT, 1.0, 1.0, lambda, 1.0, d);
            assert!((pr - f).abs() / f < 1e-12, "{d}: {pr} {f}");
        }
        assert_eq!(rngs.streams[0].all_seeds(), before);
        // Exponent 4 from 10 m: 100 m is 40 dB below the power at 10 m;
        // within the reference distance, the power at the reference.
        let mut m = Model::Shadowing(Shadowing { pathloss_exp: 4.0, std_db: 0.0, dist0: 10.0, stream: 0, seed: 0 });
        let at10 = friis(PT, 1.0, 1.0, lambda, 1.0, 10.0);
        let pr = m.received_power(&mut rngs, &path(100.0));
        assert!((pr / at10 - 1e-4).abs() < 1e-16, "{pr}");
        assert_eq!(m.received_power(&mut rngs, &path(3.0)), at10 * 1.0);
        // No inverse: the carrier-sense range is the largest double.
        assert_eq!(m.distance(CS, PT, 1.0, 1.0, 1.5, 1.5, 1.0, lambda), f64::MAX);
    }

    #[test]
    fn shadowing_draws_one_normal_per_reception_from_its_own_stream() {
        let mut rngs = RngSet::new_ns2_default();
        let s = rngs.new_stream();
        let mut m = Model::Shadowing(Shadowing { pathloss_exp: 2.0, std_db: 4.0, dist0: 1.0, stream: s, seed: 0 });
        let default_before = rngs.streams[0].all_seeds();
        let mut twin = rngs.streams[s as usize].clone();
        let mut pkg = rngs.package.clone();
        // 100 m from 1 m with exponent 2: -40 dB, plus the draw.
        let pr0 = friis(PT, 1.0, 1.0, wavelength(914e6), 1.0, 1.0);
        for _ in 0..3 {
            let want = pr0 * 10f64.powf((-40.0 + twin.normal(&mut pkg, 0.0, 4.0)) / 10.0);
            let pr = m.received_power(&mut rngs, &path(100.0));
            assert!((pr - want).abs() / want < 1e-12, "{pr} {want}");
        }
        // The default stream is untouched; the normal cache is the
        // package's (shared by every stream, as ns-2's static is).
        assert_eq!(rngs.streams[0].all_seeds(), default_before);
        assert!(rngs.package.normal_pending());
        // Powers vary around the mean: not all three equal.
        let a = m.received_power(&mut rngs, &path(100.0));
        let b = m.received_power(&mut rngs, &path(100.0));
        assert_ne!(a, b);
    }

    fn naka(fading: bool, m: [f64; 3]) -> Model {
        Model::Nakagami(Box::new(Nakagami { fading, m, ..Nakagami::default() }))
    }

    #[test]
    fn nakagami_mean_power_follows_its_three_exponents() {
        let lambda = wavelength(914e6);
        let pr1 = friis(PT, 1.0, 1.0, lambda, 1.0, 1.0);
        let mut rngs = RngSet::new_ns2_default();
        let before = rngs.default_stream().all_seeds();
        let mut m = naka(false, [1.0; 3]);
        // 1.9 up to 200 m: 100 m is 38 dB below the power at 1 m.
        let pr = m.received_power(&mut rngs, &path(100.0));
        assert!((pr / pr1 - 10f64.powf(-3.8)).abs() < 1e-15, "{pr}");
        // 3.8 from 200 to 500 m: 400 m is 43.72 + 11.44 dB down.
        let pr = m.received_power(&mut rngs, &path(400.0));
        let want = 10f64.powf(-(19.0 * 200f64.log10() + 38.0 * 2f64.log10()) / 10.0);
        assert!((pr / pr1 - want).abs() / want < 1e-12, "{pr}");
        // beyond 500 m, the third exponent (3.8 too by default)
        let pr = m.received_power(&mut rngs, &path(1000.0));
        let want = 10f64.powf(-(19.0 * 200f64.log10() + 38.0 * 2.5f64.log10() + 38.0 * 2f64.log10()) / 10.0);
        assert!((pr / pr1 - want).abs() / want < 1e-12, "{pr}");
        // at 0 m, all of the power at 1 m; without fading, no draw
        assert_eq!(m.received_power(&mut rngs, &path(0.0)), pr1);
        assert_eq!(rngs.default_stream().all_seeds(), before);
        // no inverse: every node senses every frame
        assert_eq!(m.distance(CS, PT, 1.0, 1.0, 1.5, 1.5, 1.0, lambda), f64::MAX);
    }

    #[test]
    fn nakagami_fading_draws_from_the_default_stream() {
        let mean = match naka(false, [1.0; 3]) {
            Model::Nakagami(n) => n.mean_power(&path(50.0)),
            _ => unreachable!(),
        };
        // m 1 (within 80 m): one exponential draw of that mean (Erlang k 1)
        let mut rngs = RngSet::new_ns2_default();
        let mut twin = rngs.default_stream().clone();
        let mut m = naka(true, [1.0, 2.0, 1.5]);
        let pr = m.received_power(&mut rngs, &path(50.0));
        assert_eq!(pr, twin.exponential_mean(mean));
        // m 2 (80 to 200 m): two draws of half the mean each
        let mean150 = match &m {
            Model::Nakagami(n) => n.mean_power(&path(150.0)),
            _ => unreachable!(),
        };
        let pr = m.received_power(&mut rngs, &path(150.0));
        let a = twin.exponential_mean(mean150 / 2.0);
        let b = twin.exponential_mean(mean150 / 2.0);
        assert_eq!(pr, a + b);
        // m 1.5 (beyond 200 m): a Gamma draw, shape 1.5, scale mean / 1.5
        let mean300 = match &m {
            Model::Nakagami(n) => n.mean_power(&path(300.0)),
            _ => unreachable!(),
        };
        let mut pkg = rngs.package.clone();
        let want = GammaRv { alpha: 1.5, beta: mean300 / 1.5 }.value(&mut twin, &mut pkg);
        assert_eq!(m.received_power(&mut rngs, &path(300.0)), want);
        assert_eq!(rngs.default_stream().all_seeds(), twin.all_seeds());
    }
}
