//! `windowOption_ 8`: HighSpeed TCP (Floyd, RFC 3649), as ns-2 2.35 has it
//! (tcp/tcp.cc: the `hstcp` struct, `TcpAgent::increase_param`,
//! `decrease_param`, their set-up in `reset` and their use in `opencwnd`
//! and `slowdown`).
//!
//! Up to `low_window_` (38) the sender is standard TCP.  Above it the
//! response function is a line on a log-log scale through (low_window_,
//! p = 1.5 / low_window_^2) and (high_window_, high_p_) (RFC 3649 section
//! 5), and the decrease factor b(w) falls linearly in log(w) from 0.5 at
//! low_window_ to high_decrease_ at high_window_; the increase per RTT is
//! then a(w) = w^2 p(w) 2 b(w) / (2 - b(w)) (RFC 3649 section 5, ns-2's
//! form `w^2 p / (1/b - 0.5)`).  `reset` works out the two lines'
//! coefficients (`hstcp_`), only if the option is 8 at that moment (a
//! sender switched to 8 later keeps whatever it had); `cwnd_range_` lets
//! an increase be reused while cwnd_ stays within that many packets above
//! the window it was worked out for.

use super::aimd::limit_increment;
use super::{Acked, Cut, Rule, Rules, Switches};
use crate::sim::World;

/// ns-2's `struct hstcp` (`hstcp_`): the lines' coefficients and the last
/// increase worked out.
#[derive(Clone, Debug, Default)]
pub struct HsTcp {
    pub low_p: f64,
    pub dec1: f64,
    pub dec2: f64,
    pub p1: f64,
    pub p2: f64,
    pub cwnd_last: f64,
    pub increase_last: f64,
}

/// HighSpeed's parameters (bound variables) and `hstcp_`.
#[derive(Clone, Debug)]
pub struct HighSpeed {
    /// `low_window_`: standard TCP up to this window.
    pub low_window: i32,
    /// `high_window_`, `high_p_`: the response function's upper point.
    pub high_window: i32,
    pub high_p: f64,
    /// `high_decrease_`: the decrease factor at `high_window_`.
    pub high_decrease: f64,
    /// `cwnd_range_`: reuse an increase within this many packets (0: never).
    pub cwnd_range: i32,
    pub hstcp: HsTcp,
}

impl Default for HighSpeed {
    /// ns-2's constructor values (RFC 3649's).
    fn default() -> Self {
        HighSpeed {
            low_window: 38,
            high_window: 83000,
            high_p: 0.0000001,
            high_decrease: 0.1,
            cwnd_range: 0,
            hstcp: HsTcp::default(),
        }
    }
}

impl HighSpeed {
    /// `TcpAgent::reset`'s part for `windowOption_ 8`: the coefficients of
    /// log p(w) and b(w) as linear functions of log w.
    pub fn reset(&mut self) {
        let low_window = self.low_window as f64;
        let h = &mut self.hstcp;
        h.low_p = 1.5 / (low_window * low_window);
        let high_low_win = (self.high_window as f64).ln() - low_window.ln();
        let high_low_p = self.high_p.ln() - h.low_p.ln();
        h.dec1 = 0.5 - low_window.ln() * (self.high_decrease - 0.5) / high_low_win;
        h.dec2 = (self.high_decrease - 0.5) / high_low_win;
        h.p1 = h.low_p.ln() - low_window.ln() * high_low_p / high_low_win;
        h.p2 = high_low_p / high_low_win;
    }

    /// `decrease_param`: b(cwnd).
    pub fn decrease_param(&self, cwnd: f64) -> f64 {
        self.hstcp.dec1 + cwnd.ln() * self.hstcp.dec2
    }

    /// `increase_param`: the increase per ACK, a(cwnd) / cwnd (1 / cwnd up
    /// to `low_window_`).  Without the coefficients (the option set to 8
    /// after `reset`) b is 0: ns-2, which traps floating-point division by
    /// zero, dies of SIGFPE at `1 / b`; Dumbbell carries on with no
    /// increase, as at ns-2's other floating-point traps.
    pub fn increase_param(&mut self, cwnd: f64) -> f64 {
        if cwnd <= self.low_window as f64 {
            return 1.0 / cwnd;
        }
        let h = &self.hstcp;
        if cwnd >= h.cwnd_last && cwnd < h.cwnd_last + self.cwnd_range as f64 {
            return h.increase_last / cwnd;
        }
        let p = (h.p1 + cwnd.ln() * h.p2).exp();
        let decrease = self.decrease_param(cwnd);
        let increase = cwnd * cwnd * p / (1.0 / decrease - 0.5);
        let answer = increase / cwnd;
        self.hstcp.cwnd_last = cwnd;
        self.hstcp.increase_last = increase;
        answer
    }

    /// `opencwnd`'s case 8: cwnd_ after one ACK in congestion avoidance
    /// (with limited slow start as option 1 has it).
    #[inline]
    pub fn increase(&mut self, cwnd: f64, last_cwnd_action: i32, max_ssthresh: i32) -> f64 {
        let increment = self.increase_param(cwnd);
        cwnd + limit_increment(increment, cwnd, last_cwnd_action, max_ssthresh)
    }
}

impl HighSpeed {
    /// slowdown's cut for `windowOption_ 8` (HighSpeed's, and New-ECN's):
    /// above `low_window_`, `decrease_num_` becomes b(cwnd_) and the window
    /// is cut by it from `windowd` (truncated without `precision_reduce_`,
    /// but from `windowd` either way, as ns-2 has it); at or below, the
    /// standard cut.
    pub fn cut(&self, cut: &Cut, decrease_num: &mut f64) -> f64 {
        if cut.cwnd > self.low_window as f64 {
            let decrease = self.decrease_param(cut.cwnd);
            *decrease_num = decrease;
            let win = cut.windowd - decrease * cut.windowd;
            if cut.precise {
                win
            } else {
                win as i32 as f64
            }
        } else {
            cut.standard(*decrease_num)
        }
    }
}

impl Rule for HighSpeed {
    /// 8 (New-ECN, before it in the list, takes 8 when New-ECN is on).
    fn selects(option: i32, _sw: Switches) -> bool {
        option == 8
    }

    fn option(&self) -> i32 {
        8
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        Some(HighSpeed::increase(self, a.cwnd, a.last_cwnd_action, a.max_ssthresh))
    }

    fn decreased_window(&self, _all: &Rules, cut: &Cut, decrease_num: &mut f64) -> f64 {
        self.cut(cut, decrease_num)
    }

    /// `TcpAgent::reset` computes the parameters for `windowOption_ 8`
    /// only (HighSpeed's or New-ECN's).
    fn reset(&mut self, option: i32, _active: bool) {
        if option == 8 {
            HighSpeed::reset(self);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reset() -> HighSpeed {
        let mut hs = HighSpeed::default();
        hs.reset();
        hs
    }

    /// RFC 3649's table (Appendix B): at w, the increase a(w) (packets per
    /// RTT, the table's integer part) and the decrease b(w).
    #[test]
    fn rfc3649_table() {
        let table = [
            (38, 1, 0.50),
            (118, 2, 0.44),
            (221, 3, 0.41),
            (347, 4, 0.38),
            (495, 5, 0.37),
            (663, 6, 0.35),
            (851, 7, 0.34),
            (1058, 8, 0.33),
            (1284, 9, 0.32),
            (1529, 10, 0.31),
            (1793, 11, 0.30),
            (2076, 12, 0.29),
            (5036, 20, 0.25),
            (83000, 72, 0.10),
        ];
        for (w, a, b) in table {
            let mut hs = reset();
            let w = w as f64;
            let per_rtt = hs.increase_param(w) * w;
            assert_eq!((per_rtt + 1e-9).floor(), a as f64, "a({w}) = {per_rtt}");
            let dec = hs.decrease_param(w);
            assert!((dec - b).abs() < 0.005, "b({w}) = {dec}, RFC 3649: {b}");
        }
    }

    #[test]
    fn standard_up_to_low_window() {
        let mut hs = reset();
        assert_eq!(hs.increase_param(20.0), 1.0 / 20.0);
        assert_eq!(hs.increase_param(38.0), 1.0 / 38.0);
        assert!((hs.decrease_param(38.0) - 0.5).abs() < 1e-12);
        assert_eq!(hs.hstcp.cwnd_last, 0.0, "nothing remembered below low_window_");
    }

    #[test]
    fn cwnd_range_reuses_the_last_increase() {
        let mut hs = reset();
        hs.cwnd_range = 10;
        let at_1000 = hs.increase_param(1000.0) * 1000.0;
        assert_eq!(hs.hstcp.cwnd_last, 1000.0);
        // within range: a(1000) reused
        assert_eq!(hs.increase_param(1005.0) * 1005.0, at_1000);
        // out of range: worked out again
        assert!(hs.increase_param(1010.0) * 1010.0 > at_1000);
        assert_eq!(hs.hstcp.cwnd_last, 1010.0);
        // (without cwnd_range_ never reused)
        let mut hs = reset();
        hs.increase_param(1000.0);
        assert!(hs.increase_param(1000.5) * 1000.5 > at_1000);
    }

    #[test]
    fn not_reset_is_not_set_up() {
        // A sender switched to HighSpeed after its reset has no
        // coefficients: b = 0, p = 1, and no increase above low_window_.
        let mut hs = HighSpeed::default();
        assert_eq!(hs.decrease_param(100.0), 0.0);
        assert_eq!(hs.increase_param(100.0), 0.0);
    }

    #[test]
    fn limited_slow_start_applies_as_for_option_1() {
        let mut hs = reset();
        // max_ssthresh_ 20 at cwnd 20: at least 1/int(20 / 10) per ACK.
        assert_eq!(hs.increase(20.0, 0, 20), 20.5);
        assert_eq!(hs.increase(20.0, 1, 20), 20.0 + 1.0 / 20.0, "not after a fast retransmit");
    }
}
