//! TCP-friendly rate control (RFC 5348; the model is ns-2 2.35's, from the
//! TFRC papers: tcp/tfrc.cc, tcp/tfrc-sink.cc, tcp/formula.h).
//!
//! The sender ([`sender::Sender`]) sends at a rate it sets from the
//! receiver's reports: slow start doubling per round trip up to twice the
//! receive rate, then the TCP throughput equation ([`tcp_rate`]) for the
//! reported loss event rate, halving when reports stop coming.  The
//! receiver ([`receiver::Receiver`]) keeps the packet history, groups
//! losses into loss events (at most one per round trip) and estimates the
//! loss event rate by the average loss interval (RFC 5348 section 5) or
//! one of the alternatives the papers compare.  Their headers are
//! [`crate::packet::RateHdr`].

pub mod receiver;
pub mod sender;

/// formula.h's ceiling on the equation's rate (bytes/s).
const MAX_RATE: f64 = 25_000_000.0;
/// formula.h's "small": a round trip term below it means no limit.
const SMALL: f64 = 0.0000001;

/// The TCP throughput equation (RFC 5348 section 3.1, ns-2's `p_to_b`):
/// the rate in bytes/s of a TCP flow with packets of `psize` bytes, round
/// trip `rtt`, retransmission timeout `tzero`, loss event rate `p`, and
/// `bval` packets acknowledged per ACK:
///
/// `X = s / (R*sqrt(2*b*p/3) + min(1, 3*sqrt(3*b*p/8)) * t_RTO * p * (1 + 32*p^2))`
///
/// The second term's factor is capped at one as the equation's original
/// (Padhye et al.) has it; the result is at most 25 Mbytes/s, and a
/// negative `p` or `rtt` gives that ceiling.
pub fn tcp_rate(p: f64, rtt: f64, tzero: f64, psize: i32, bval: i32) -> f64 {
    if p < 0.0 || rtt < 0.0 {
        return MAX_RATE;
    }
    let b = bval as f64;
    let mut denom = rtt * (2.0 * b * p / 3.0).sqrt();
    let factor = (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0);
    denom += factor * (tzero * p * (1.0 + 32.0 * p * p));
    let x = if denom < SMALL { MAX_RATE } else { psize as f64 / denom };
    x.min(MAX_RATE)
}

/// The equation inverted (ns-2's `b_to_p`): the loss event rate at which
/// [`tcp_rate`] gives `b`, by bisection from 0.5 until within 5% (at most
/// 31 steps).  The receiver uses it to make up a loss history after slow
/// start (RFC 5348 section 6.3.1).
pub fn loss_for_rate(b: f64, rtt: f64, tzero: f64, psize: i32, bval: i32) -> f64 {
    let (mut p, mut step) = (0.5, 0.25);
    let mut n = 0;
    loop {
        let x = tcp_rate(p, rtt, tzero, psize, bval);
        if x > 0.95 * b && x < 1.05 * b {
            return p;
        }
        if x > b {
            p += step;
        } else {
            p -= step;
        }
        step /= 2.0;
        n += 1;
        if n > 30 {
            return p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equation_matches_rfc5348_by_hand() {
        // s = 1000 bytes, R = 0.1 s, t_RTO = 0.4 s, p = 0.01, b = 1.
        let p: f64 = 0.01;
        let denom = 0.1 * (2.0 * p / 3.0).sqrt() + (3.0 * (3.0 * p / 8.0).sqrt()) * 0.4 * p * (1.0 + 32.0 * p * p);
        assert!((tcp_rate(p, 0.1, 0.4, 1000, 1) - 1000.0 / denom).abs() < 1e-9);
        // No loss: the ceiling; the rate falls as p grows.
        assert_eq!(tcp_rate(0.0, 0.1, 0.4, 1000, 1), MAX_RATE);
        assert_eq!(tcp_rate(-1.0, 0.1, 0.4, 1000, 1), MAX_RATE);
        let mut last = f64::INFINITY;
        for i in 1..100 {
            let x = tcp_rate(i as f64 / 100.0, 0.1, 0.4, 1000, 1);
            assert!(x > 0.0 && x < last);
            last = x;
        }
    }

    #[test]
    fn inverse_lands_within_five_percent() {
        for &p in &[0.001, 0.01, 0.05, 0.2] {
            let b = tcp_rate(p, 0.08, 0.3, 1000, 1);
            let q = loss_for_rate(b, 0.08, 0.3, 1000, 1);
            let x = tcp_rate(q, 0.08, 0.3, 1000, 1);
            assert!(x > 0.95 * b && x < 1.05 * b, "p {p}: got {q}");
            assert!((0.0..=1.0).contains(&q));
        }
    }
}
