//! 802.11's retry counters and its network allocation vector (NAV), as ns-2
//! 2.35's Mac/802_11 keeps them (mac/mac-802_11.cc, mac-802_11.h).
//!
//! Retries: a station counts failed RTS frames, and failed data frames no
//! longer than `RTSThreshold_`, on its short count; failed longer data
//! frames on its long count.  The count reaching its limit
//! (`ShortRetryLimit_ 7`, `LongRetryLimit_ 4`: "greater than or equal", so
//! 7 RTS attempts in all) gives the frame up, and the count starts again
//! from 0; otherwise the frame goes again after a wider backoff.  A CTS
//! received clears the short count (not the window); an ACK clears the
//! count the acknowledged frame's size chose.  Broadcast frames are never
//! retried (the caller does not ask).  Giving up after the RTS limit
//! leaves the long count as it was (ns-2 clears only the short one), so
//! the next frame starts with it.  ns-2's hand-off attempt after three
//! failures happens only outside ad hoc mode and is not modelled.
//!
//! NAV: a frame heard for another station, a garbled one or a captured one
//! reserves the medium until `now + duration`; a reservation ending before
//! the one held changes nothing.  The medium is not idle while `now` is
//! before the reservation's end.

/// What a failure leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// Send again (the frame's retry bit set, the window widened, a
    /// backoff started).
    Again,
    /// Give the frame up (dropped as `RET`, the link-layer failure
    /// call-back told); the count is back to 0 and the window reset.
    GiveUp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryCounts {
    pub short: u32,
    pub long: u32,
    pub short_limit: u32,
    pub long_limit: u32,
}

impl Default for RetryCounts {
    /// ns-2's defaults: `ShortRetryLimit_ 7`, `LongRetryLimit_ 4`.
    fn default() -> Self {
        RetryCounts::new(7, 4)
    }
}

fn count(n: &mut u32, limit: u32) -> Retry {
    *n += 1;
    if *n >= limit {
        *n = 0;
        Retry::GiveUp
    } else {
        Retry::Again
    }
}

impl RetryCounts {
    pub fn new(short_limit: u32, long_limit: u32) -> Self {
        RetryCounts { short: 0, long: 0, short_limit, long_limit }
    }

    /// No CTS came for an RTS.
    pub fn rts_failed(&mut self) -> Retry {
        count(&mut self.short, self.short_limit)
    }

    /// No ACK came for a unicast data frame of `size` bytes (its size as
    /// the MAC sent it, header included).
    pub fn data_failed(&mut self, size: u32, rts_threshold: u32) -> Retry {
        if size <= rts_threshold {
            count(&mut self.short, self.short_limit)
        } else {
            count(&mut self.long, self.long_limit)
        }
    }

    /// A CTS answered the RTS.
    pub fn cts_received(&mut self) {
        self.short = 0;
    }

    /// An ACK answered a data frame of `size` bytes.
    pub fn ack_received(&mut self, size: u32, rts_threshold: u32) {
        if size <= rts_threshold {
            self.short = 0;
        } else {
            self.long = 0;
        }
    }
}

/// The time until which the medium is reserved.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Nav {
    pub until: f64,
}

impl Nav {
    /// A reservation of `us` microseconds heard at `now`: if it ends later
    /// than the one held, it replaces it and the NAV timer is (re)started
    /// for the returned time, in seconds.
    pub fn set(&mut self, now: f64, us: u16) -> Option<f64> {
        let t = us as f64 * 1e-6;
        if now + t > self.until {
            self.until = now + t;
            Some(t)
        } else {
            None
        }
    }

    /// Whether the medium is reserved at `now`.
    pub fn reserved(&self, now: f64) -> bool {
        self.until > now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_rts_attempts_then_give_up() {
        let mut r = RetryCounts::default();
        for n in 1..7 {
            assert_eq!(r.rts_failed(), Retry::Again);
            assert_eq!(r.short, n);
        }
        assert_eq!(r.rts_failed(), Retry::GiveUp);
        assert_eq!(r.short, 0);
        assert_eq!(r.rts_failed(), Retry::Again);
    }

    #[test]
    fn data_frames_count_by_size_against_the_rts_threshold() {
        // RTSThreshold_ 0 (ns-2's default): every data frame is "long"
        let mut r = RetryCounts::default();
        for _ in 0..3 {
            assert_eq!(r.data_failed(1, 0), Retry::Again);
        }
        assert_eq!(r.long, 3);
        assert_eq!(r.short, 0);
        assert_eq!(r.data_failed(1, 0), Retry::GiveUp);
        assert_eq!(r.long, 0);
        // a frame no longer than the threshold counts on the short count,
        // shared with the RTS failures
        let mut r = RetryCounts::default();
        r.rts_failed();
        r.rts_failed();
        assert_eq!(r.data_failed(1500, 1500), Retry::Again);
        assert_eq!(r.short, 3);
        for _ in 0..3 {
            assert_eq!(r.data_failed(100, 1500), Retry::Again);
        }
        assert_eq!(r.data_failed(100, 1500), Retry::GiveUp);
        assert_eq!(r.short, 0);
    }

    #[test]
    fn a_cts_clears_the_short_count_an_ack_the_frames_count() {
        let mut r = RetryCounts::default();
        r.rts_failed();
        r.data_failed(600, 0);
        r.data_failed(600, 0);
        assert_eq!((r.short, r.long), (1, 2));
        r.cts_received();
        assert_eq!((r.short, r.long), (0, 2));
        r.rts_failed();
        r.ack_received(600, 3000);
        assert_eq!((r.short, r.long), (0, 2));
        r.ack_received(600, 0);
        assert_eq!((r.short, r.long), (0, 0));
    }

    #[test]
    fn seed_002_dsdv_node_0s_first_retry_drop() {
        // ns-2's MAC trace of seed 002's script with DSDV (-macTrace ON):
        // node 0's RTS for CBR packet 1244 at 24.965575 is answered (CTS
        // at 24.966242667), the data frame (590 bytes) is not acknowledged,
        // then seven RTS frames go unanswered (24.972922333 ... 25.023185837)
        // and both are dropped as RET at 25.023855837.
        let mut r = RetryCounts::default();
        r.cts_received();
        assert_eq!(r.data_failed(590, 0), Retry::Again);
        let mut sent = 1;
        while r.rts_failed() == Retry::Again {
            sent += 1;
        }
        assert_eq!(sent, 7);
        assert_eq!((r.short, r.long), (0, 1));
    }

    #[test]
    fn the_nav_only_grows() {
        let mut nav = Nav::default();
        assert!(!nav.reserved(0.0));
        // a CTS's duration field of seed 002's first exchange, 0x13a = 314 us
        assert_eq!(nav.set(1.0, 0x13a), Some(314.0 * 1e-6));
        assert_eq!(nav.until, 1.0 + 314.0 * 1e-6);
        assert!(nav.reserved(1.0003));
        assert!(!nav.reserved(nav.until));
        // ending earlier: nothing changes, the timer runs on
        assert_eq!(nav.set(1.0001, 100), None);
        assert_eq!(nav.until, 1.0 + 314.0 * 1e-6);
        // ending later: replaced, the timer restarted for the whole span
        assert_eq!(nav.set(1.0002, 0x3f4), Some(1012.0 * 1e-6));
        assert_eq!(nav.until, 1.0002 + 1012.0 * 1e-6);
    }
}
