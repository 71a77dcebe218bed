//! The additive-increase rules of `TcpAgent::opencwnd` (tcp/tcp.cc):
//! `windowOption_ 1`, the standard one (RFC 5681's increase of about one
//! packet per RTT, as `increase_num_ / cwnd_` per ACK, with RFC 3742's
//! limited slow start when `max_ssthresh_` is set), and `windowOption_ 0`,
//! which counts ACKs (`count_`) and adds a packet once it has counted
//! cwnd_ of them.  Both cut the window by `decrease_num_` (slowdown's
//! default).

use super::{Acked, Rule, Switches};
use crate::sim::World;
use crate::tcp::CWND_ACTION_TIMEOUT;

/// `windowOption_ 0`: ns-2's `count_`, the ACKs counted since the last
/// packet added (cleared by every window cut).
#[derive(Clone, Debug, Default)]
pub struct PerWindow {
    pub count: i32,
}

impl PerWindow {
    /// One ACK: cwnd_ + 1 once `count_` reaches cwnd_.
    #[inline]
    pub fn increase(&mut self, cwnd: f64) -> Option<f64> {
        self.count += 1;
        if self.count as f64 >= cwnd {
            self.count = 0;
            Some(cwnd + 1.0)
        } else {
            None
        }
    }
}

impl Rule for PerWindow {
    fn selects(option: i32, _sw: Switches) -> bool {
        option == 0
    }

    fn option(&self) -> i32 {
        0
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        self.increase(a.cwnd)
    }

    /// slowdown clears `count_` whichever rule is in use.
    fn after_cut(&mut self, _active: bool, _how: u32, _now: f64) {
        self.count = 0;
    }
}

/// `windowOption_ 1`, ns-2's default: no state of its own.
#[derive(Clone, Debug, Default)]
pub struct Standard;

impl Rule for Standard {
    fn selects(option: i32, _sw: Switches) -> bool {
        option == 1
    }

    fn option(&self) -> i32 {
        1
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        Some(standard_increase(a.cwnd, a.increase_num, a.last_cwnd_action, a.max_ssthresh))
    }
}

/// `windowOption_ 1`: cwnd_ after one ACK, `increase_num_ / cwnd_` more,
/// or more with limited slow start (see `limit_increment`).
#[inline]
pub fn standard_increase(cwnd: f64, increase_num: f64, last_cwnd_action: i32, max_ssthresh: i32) -> f64 {
    let increment = limit_increment(increase_num / cwnd, cwnd, last_cwnd_action, max_ssthresh);
    cwnd + increment
}

/// opencwnd's use of limited slow start (options 1 and 8): with
/// `max_ssthresh_` set, before the first window cut or after a timeout.
#[inline]
pub fn limit_increment(increment: f64, cwnd: f64, last_cwnd_action: i32, max_ssthresh: i32) -> f64 {
    if (last_cwnd_action == 0 || last_cwnd_action == CWND_ACTION_TIMEOUT) && max_ssthresh > 0 {
        limited_slow_start(cwnd, max_ssthresh, increment)
    } else {
        increment
    }
}

/// `TcpAgent::limited_slow_start` (RFC 3742): above `max_ssthresh_ / 2`
/// the increment is at least `1 / round(cwnd / (max_ssthresh_ / 2))`
/// rather than a whole packet per ACK.
pub fn limited_slow_start(cwnd: f64, max_ssthresh: i32, increment: f64) -> f64 {
    if max_ssthresh <= 0 {
        increment
    } else {
        let mut increment1 = 0.0;
        let round = (cwnd / (max_ssthresh as f64 / 2.0)) as i32;
        if round > 0 {
            increment1 = 1.0 / round as f64;
        }
        if increment < increment1 {
            increment1
        } else {
            increment
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_window_adds_one_packet_per_window_of_acks() {
        let mut r = PerWindow::default();
        let mut cwnd = 4.0;
        let mut acks = 0;
        while cwnd < 6.0 {
            acks += 1;
            if let Some(c) = r.increase(cwnd) {
                cwnd = c;
            }
        }
        assert_eq!(acks, 4 + 5);
        assert_eq!(r.count, 0);
    }

    #[test]
    fn standard_is_increase_num_over_cwnd() {
        assert_eq!(standard_increase(8.0, 1.0, 1, 0), 8.125);
        assert_eq!(standard_increase(8.0, 2.0, 1, 0), 8.25);
        // Limited slow start only before a cut or after a timeout.
        assert_eq!(standard_increase(8.0, 1.0, 0, 0), 8.125, "max_ssthresh_ 0: off");
        // cwnd 8, max_ssthresh_ 8: round 2, at least 1/2 a packet.
        assert_eq!(standard_increase(8.0, 1.0, 0, 8), 8.5);
        assert_eq!(standard_increase(8.0, 1.0, CWND_ACTION_TIMEOUT, 8), 8.5);
        assert_eq!(standard_increase(8.0, 1.0, 1, 8), 8.125, "after a fast retransmit: off");
    }

    #[test]
    fn limited_slow_start_follows_rfc3742() {
        // K = int(cwnd / (0.5 max_ssthresh)): 1/K per ACK.
        assert_eq!(limited_slow_start(100.0, 100, 0.01), 0.5);
        assert_eq!(limited_slow_start(150.0, 100, 0.01), 1.0 / 3.0);
        assert_eq!(limited_slow_start(40.0, 100, 0.01), 0.01, "below max_ssthresh_/2: K 0");
        assert_eq!(limited_slow_start(100.0, 100, 0.75), 0.75, "never less than given");
    }
}
