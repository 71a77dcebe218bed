//! RTT estimation and the retransmission timeout (RFC 6298), as ns-3.37's
//! `RttMeanDeviation` computes it: SRTT and RTTVAR in integer nanoseconds
//! (ns-3's `Time` resolution), updated with the Jacobson/Karels shifts
//! (alpha 1/8, beta 1/4: `IntegerUpdate`), the first sample setting SRTT to
//! the sample and RTTVAR to half of it.

/// One second in nanoseconds.
pub const SECOND: i64 = 1_000_000_000;

/// Seconds (the engine's clock) to whole nanoseconds (ns-3's `Time`):
/// `(t * 1e9).round() as i64` (halves away from zero), without the call to
/// the library's `round` (a software routine on the baseline x86-64 target,
/// called several times a segment).  Below 2^52 in magnitude, `x - trunc(x)`
/// is exact, so comparing it with one half rounds as `round` does; from 2^52
/// on every f64 is a whole number (and NaN and the infinities convert as
/// `round`'s result does).
#[inline]
pub fn to_ns(t: f64) -> i64 {
    let x = t * 1e9;
    if x.abs() < 4_503_599_627_370_496.0 {
        let i = x as i64;
        let f = x - i as f64;
        if f >= 0.5 {
            i + 1
        } else if f <= -0.5 {
            i - 1
        } else {
            i
        }
    } else {
        x as i64
    }
}

/// Nanoseconds to seconds, for scheduling.
#[inline]
pub fn to_s(ns: i64) -> f64 {
    ns as f64 * 1e-9
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    /// SRTT (ns); before any sample, the initial estimate.
    pub srtt: i64,
    /// RTTVAR (ns).
    pub rttvar: i64,
    /// Samples taken.
    pub samples: u32,
}

impl RttEstimator {
    /// ns-3's `RttEstimator::InitialEstimation` is 1 s, the variation 0.
    pub fn new(initial: i64) -> RttEstimator {
        RttEstimator { srtt: initial, rttvar: 0, samples: 0 }
    }

    /// `RttMeanDeviation::Measurement`.
    pub fn measurement(&mut self, m: i64) {
        if self.samples > 0 {
            // IntegerUpdate(m, 3, 2)
            let mut delta = m - self.srtt;
            let srtt = (self.srtt << 3) + delta;
            self.srtt = srtt >> 3;
            if delta < 0 {
                delta = -delta;
            }
            delta -= self.rttvar;
            let rttvar = (self.rttvar << 2) + delta;
            self.rttvar = rttvar >> 2;
        } else {
            self.srtt = m;
            self.rttvar = m / 2;
        }
        self.samples += 1;
    }

    /// RFC 6298 (2.2)-(2.4) with ns-3's floor: max(SRTT + max(G, 4 RTTVAR), min RTO).
    pub fn rto(&self, granularity: i64, min_rto: i64) -> i64 {
        (self.srtt + granularity.max(4 * self.rttvar)).max(min_rto)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: i64 = 1_000_000;

    #[test]
    fn first_sample_then_integer_ewma() {
        let mut r = RttEstimator::new(SECOND);
        r.measurement(200 * MS);
        assert_eq!((r.srtt, r.rttvar), (200 * MS, 100 * MS));
        // 1 s floor: 200 + 4*100 = 600 ms < 1 s
        assert_eq!(r.rto(MS, SECOND), SECOND);
        r.measurement(280 * MS);
        // srtt = (8*200 + 80)/8 = 210 ms; rttvar = (4*100 + (80 - 100))/4 = 95 ms
        assert_eq!((r.srtt, r.rttvar), (210 * MS, 95 * MS));
        assert_eq!(r.rto(MS, 0), 210 * MS + 4 * 95 * MS);
    }

    #[test]
    fn to_ns_rounds_as_round_does() {
        let mut v = vec![
            0.0, -0.0, 0.5e-9, -0.5e-9, 1.5e-9, 2.5e-9, -2.5e-9, 0.49999999999999994e-9, 1e-9, 0.2, 0.1 + 0.2, 1.0 / 3.0,
            4_503_599_627_370_495.5e-9, 4_503_599_627_370_496.0e-9, 9.3e9, -9.3e9, 1e300, -1e300, f64::INFINITY,
            f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE, 123.456789012345,
        ];
        // the clock's values: sums of link delays and transmission times,
        // and a spread of magnitudes with fractions near one half
        let mut x = 0.0f64;
        for k in 0..200_000u64 {
            x += 0.000_800_1 + (k % 7) as f64 * 1.3e-6;
            v.push(x);
            v.push(-x);
            v.push((k as f64 + 0.5) * 1e-9);
            v.push(f64::from_bits(0x3e10_0000_0000_0000 + k * 0x1_0000_0001));
        }
        for t in v {
            assert_eq!(to_ns(t), (t * 1e9).round() as i64, "t = {t:e}");
        }
    }

    #[test]
    fn shifts_truncate_like_ns3() {
        let mut r = RttEstimator::new(SECOND);
        r.measurement(3);
        r.measurement(10);
        // delta 9 (srtt 3 -> (24 + 7) >> 3 = 3; rttvar 1 -> (4 + 7 - 1) >> 2 = 2)
        assert_eq!((r.srtt, r.rttvar), (3, 2));
    }
}
