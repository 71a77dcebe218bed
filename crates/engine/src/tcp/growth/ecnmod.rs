//! ECN-mod: the "gently greedy" window control of Misra and Ott, "Jointly
//! coordinating ECN and TCP for rapid adaptation to varying bandwidth"
//! (2001; seed 003).  A member of the polynomial class of eq. (5):
//!
//! * an ACK of an unmarked packet adds incr(w) = c1 w^alpha (in congestion
//!   avoidance; slow start stays the sender's);
//! * an ACK of a marked packet takes decr(w) = c2 w^beta off, for *every*
//!   marked packet, not once per window as RFC 3168's response does.
//!
//! The paper's settings are alpha = 0, beta = 1, c2 = 2^-3 and c1 in
//! {2^-2, 2^-3, 2^-4} (section IV.A; 2^-4 did best, and is the default
//! here).  Under a constant marking probability p the window centres on
//! w(p) = ((c1/c2)(1-p)/p)^(1/(beta-alpha)) (eq. 7), so p w(p) is about
//! c1/c2 for small p: 2, 1 and 1/2 for the three c1.
//!
//! Losses are NewReno's (the flavour's fast retransmit and recovery):
//! the per-mark cut does not touch `recover_` or `last_cwnd_action_`.
//! The paper leaves slow start aside; here a mark also ends it (ssthresh_
//! becomes the cut window), since the per-mark cut alone would leave the
//! sender doubling below an initial ssthresh_.  The window never falls
//! below one packet.  The receiver must echo each mark on its own ACK
//! (`ecnmod_` on the sink), not until the sender's CWR.
//!
//! The router's side, the marking function p_mod of eq. (11), is RED's
//! (`qdisc/red.rs`, `pmod`).

use super::{Acked, Rule, Switches};
use crate::sim::World;

/// The rule's parameters (eq. 5), and the `windowOption_` it stands in
/// for (read back as set).
#[derive(Clone, Debug)]
pub struct EcnMod {
    /// c1: the increase per unmarked ACK at w = 1.
    pub c1: f64,
    /// alpha: the exponent of the increase.
    pub alpha: f64,
    /// c2: the decrease per marked ACK at w = 1.
    pub c2: f64,
    /// beta: the exponent of the decrease.
    pub beta: f64,
    /// `windowOption_` as set while ECN-mod is on.
    pub option: i32,
}

impl Default for EcnMod {
    /// The paper's best setting: c1 = 2^-4, alpha = 0, c2 = 2^-3, beta = 1.
    fn default() -> Self {
        EcnMod { c1: 0.0625, alpha: 0.0, c2: 0.125, beta: 1.0, option: 1 }
    }
}

impl EcnMod {
    /// incr(w) = c1 w^alpha (eq. 5).
    #[inline]
    pub fn incr(&self, w: f64) -> f64 {
        self.c1 * w.powf(self.alpha)
    }

    /// decr(w) = c2 w^beta (eq. 5).
    #[inline]
    pub fn decr(&self, w: f64) -> f64 {
        self.c2 * w.powf(self.beta)
    }

    /// The centre of the window under a constant marking probability p,
    /// eq. (7): ((c1/c2)(1-p)/p)^(1/(beta-alpha)).
    pub fn centre(&self, p: f64) -> f64 {
        (self.c1 / self.c2 * (1.0 - p) / p).powf(1.0 / (self.beta - self.alpha))
    }
}

impl Rule for EcnMod {
    /// `ecnmod_` on, whatever `windowOption_` (first in the list).
    fn selects(_option: i32, sw: Switches) -> bool {
        sw.ecnmod
    }

    fn select(&mut self, option: i32) {
        self.option = option;
    }

    fn option(&self) -> i32 {
        self.option
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        Some(a.cwnd + self.incr(a.cwnd))
    }

    /// Every marked ACK: w - c2 w^beta, at least one packet.
    fn mark_response(&self, cwnd: f64) -> Option<f64> {
        Some((cwnd - self.decr(cwnd)).max(1.0))
    }

    /// ECN-mod opens on ACKs of unmarked packets only.
    fn opens_in_ecn_burst(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_settings() {
        let r = EcnMod::default();
        assert_eq!((r.c1, r.alpha, r.c2, r.beta), (1.0 / 16.0, 0.0, 1.0 / 8.0, 1.0));
        // alpha 0: a fixed c1 per ACK; beta 1: c2 of the window per mark.
        assert_eq!(r.incr(40.0), 0.0625);
        assert_eq!(r.decr(40.0), 5.0);
        assert_eq!(r.mark_response(40.0), Some(35.0));
        assert_eq!(r.mark_response(1.05), Some(1.0), "never below one packet");
    }

    /// Eq. (7): at the centre the drift of eq. (1) is zero, and p w(p) is
    /// about c1/c2 for small p (2, 1, 1/2 for the paper's three c1).
    #[test]
    fn centre_has_zero_drift() {
        for (c1, pw) in [(0.25, 2.0), (0.125, 1.0), (0.0625, 0.5)] {
            let r = EcnMod { c1, ..EcnMod::default() };
            for p in [0.001, 0.01, 0.1] {
                let w = r.centre(p);
                let drift = (1.0 - p) * r.incr(w) - p * r.decr(w);
                assert!(drift.abs() < 1e-12, "c1 {c1} p {p}: drift {drift}");
            }
            assert!((0.001 * r.centre(0.001) - pw).abs() < 0.01 * pw);
        }
        // Other exponents: alpha = -1 (TCP's increase), beta = 1.
        let r = EcnMod { c1: 1.0, alpha: -1.0, c2: 0.5, beta: 1.0, option: 1 };
        let w = r.centre(0.01);
        assert!(((1.0 - 0.01) * r.incr(w) - 0.01 * r.decr(w)).abs() < 1e-12);
    }

    /// A window driven by independent marks with probability p settles
    /// around eq. (7)'s centre (the mean over a long run, within 5%).
    #[test]
    fn window_settles_at_the_centre() {
        let r = EcnMod::default();
        let p = 0.02;
        let mut rng = crate::rng::RngPackage::new().new_rng();
        let mut w = 1.0;
        let (mut sum, mut n) = (0.0, 0u32);
        for i in 0..2_000_000 {
            if rng.uniform_double() < p {
                w = r.mark_response(w).unwrap();
            } else {
                w += r.incr(w);
            }
            if i > 100_000 {
                sum += w;
                n += 1;
            }
        }
        let mean = sum / n as f64;
        let centre = r.centre(p);
        assert!((mean - centre).abs() < 0.05 * centre, "mean {mean}, eq. 7: {centre}");
    }
}
