//! New-ECN (Hamann, UCB/ERL M99/35, 1999; seed 000 section 3.1 and the
//! ns-2 patch of its Appendix B).
//!
//! An ECN sender whose congestion-avoidance increase is `slope/cwnd` per
//! ACK instead of `1/cwnd` (eq. 3.1).  The slope S starts at 1 and, once the
//! flow has seen its first mark, grows by `beta * sRTT^2` once per RTT
//! (eq. 3.2).  A mark (at most one response per window, as ECN) multiplies
//! cwnd and ssthresh by `alpha_wnd` (eq. 3.3, 3.4) and S by `alpha_slp`
//! (eq. 3.5); a fast retransmit also multiplies S by `alpha_slp`, a timeout
//! halves S when it is above 1 (as the patch does).  Every window cut
//! restarts the once-per-RTT slope clock.  The receiver (`windowOptionS_
//! 8`) echoes a CE mark on the ACK of that packet only, instead of until the
//! sender's CWR (`sink.rs`).
//!
//! The sender's side of it, as `Rule` hooks: `increase`
//! (opencwnd), `ecn_factor` (`ecn()` cuts with the patch's
//! `CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW`, which `slowdown` applies),
//! `after_cut` (slope and clock at the end of `slowdown`), `reset`, and no
//! opening during an ECN burst with `old_ecn_` (`opens_in_ecn_burst`).
//! Its window cuts otherwise are those of `windowOption_ 8` in ns-2 2.35,
//! HighSpeed's above `low_window_` (`decreased_window`).
//!
//! Switch it on with `windowOption_ 8` plus `newecn_ true` on the sender
//! (in ns-2 2.35 `windowOption_ 8` alone is HighSpeed TCP), or run the
//! paper's own scripts unchanged: setting `windowOptionS_ 8` on a sink,
//! which only the New-ECN patch has, makes `windowOption_ 8` mean New-ECN
//! for the whole script.  Parameters: `newecn_alpha_wnd_` (0.9),
//! `newecn_alpha_slp_` (0.9), `newecn_beta_` (16), the values of the
//! paper's ns-2 experiments (section 4.1; its Matlab model used
//! alpha_slp 0.7).  Tcl-visible state: `slope_window_`, `first_time_`,
//! `last_time_` here, and the sender's `mark_` (the last ACK's ECN-Echo,
//! kept by every ECN sender).

use super::highspeed::HighSpeed;
use super::{Acked, Cut, Member, Rule, Rules, Switches};
use crate::sim::World;
use crate::tcp::{CLOSE_CWND_HALF, CLOSE_CWND_INIT, CLOSE_CWND_ONE, CLOSE_CWND_RESTART};

/// `CLOSE_CWND_NEW`: cwnd *= alpha_wnd (the patch's 0x80; a bit of its own
/// here because 2.35 uses 0x80 and 0x100 for other rules).
pub const CLOSE_CWND_NEW: u32 = 0x1_0000;
/// `CLOSE_SSTHRESH_NEW`: ssthresh *= alpha_wnd.
pub const CLOSE_SSTHRESH_NEW: u32 = 0x2_0000;

/// New-ECN's parameters and state.
#[derive(Clone, Debug)]
pub struct NewEcn {
    /// `newecn_alpha_wnd_`, `newecn_alpha_slp_`, `newecn_beta_`.
    pub alpha_wnd: f64,
    pub alpha_slp: f64,
    pub beta: f64,
    /// `slope_window_`: S.
    pub slope: f64,
    /// `last_time_`: when S last grew, or the last cut.
    pub last_time: f64,
    /// `first_time_`: the flow has responded to a mark.
    pub first_time: i32,
}

impl Default for NewEcn {
    fn default() -> Self {
        NewEcn { alpha_wnd: 0.9, alpha_slp: 0.9, beta: 16.0, slope: 1.0, last_time: 0.0, first_time: 0 }
    }
}

impl NewEcn {
    /// The patch's additions to `TcpAgent::reset`.
    pub fn reset(&mut self) {
        self.last_time = 0.0;
        self.slope = 1.0;
        self.first_time = 0;
    }

    /// cwnd_ after one ACK in congestion avoidance (eq. 3.1, 3.2), `srtt`
    /// the smoothed RTT in seconds, at time `now`.
    #[inline]
    pub fn increase(&mut self, cwnd: f64, srtt: f64, now: f64) -> f64 {
        if now - srtt >= self.last_time && self.first_time != 0 {
            self.slope += self.beta * srtt * srtt;
            self.last_time = now;
        }
        cwnd + (1.0 / cwnd) * self.slope
    }

    /// The end of `slowdown(how)` at `now`: the slope's reductions, the
    /// slope clock's restart, and, after the cut of New-ECN's own response
    /// (`CLOSE_CWND_NEW`, see `ecn_factor`), the mark that starts the slope
    /// growing (`first_time_`).
    pub fn after_cut(&mut self, how: u32, now: f64) {
        if how & (CLOSE_CWND_HALF | CLOSE_CWND_NEW) != 0 && self.first_time != 0 {
            self.slope *= self.alpha_slp;
        }
        if how & (CLOSE_CWND_INIT | CLOSE_CWND_RESTART | CLOSE_CWND_ONE) != 0 && self.first_time != 0 && self.slope > 1.0 {
            self.slope *= 0.5;
        }
        self.last_time = now;
        if how & CLOSE_CWND_NEW != 0 {
            self.first_time = 1;
        }
    }
}

impl Rule for NewEcn {
    /// 8 with New-ECN on (before HighSpeed in the list).
    fn selects(option: i32, sw: Switches) -> bool {
        option == 8 && sw.newecn
    }

    fn option(&self) -> i32 {
        8
    }

    #[inline]
    fn increase(&mut self, a: &Acked, w: &mut World) -> Option<f64> {
        Some(NewEcn::increase(self, a.cwnd, a.srtt(), w.s.now))
    }

    /// The option's cuts above `low_window_` are HighSpeed's, as they are
    /// for `windowOption_ 8` in ns-2 2.35, with HighSpeed's parameters.
    fn decreased_window(&self, all: &Rules, cut: &Cut, decrease_num: &mut f64) -> f64 {
        HighSpeed::of(all).cut(cut, decrease_num)
    }

    /// `TcpAgent::reset` restarts the slope whatever the option.
    fn reset(&mut self, _option: i32, _active: bool) {
        NewEcn::reset(self);
    }

    fn after_cut(&mut self, active: bool, how: u32, now: f64) {
        if active {
            NewEcn::after_cut(self, how, now);
        }
    }

    fn ecn_factor(&self) -> Option<f64> {
        Some(self.alpha_wnd)
    }

    /// New-ECN opens on ACKs without ECN-Echo only.
    fn opens_in_ecn_burst(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_ns_parameters() {
        let n = NewEcn::default();
        assert_eq!((n.alpha_wnd, n.alpha_slp, n.beta, n.slope), (0.9, 0.9, 16.0, 1.0));
    }

    /// Eq. 3.1 and 3.2: slope/cwnd per ACK; the slope grows by beta sRTT^2
    /// at most once per sRTT, and only after the first mark.
    #[test]
    fn slope_grows_once_per_rtt_after_the_first_mark() {
        let mut n = NewEcn::default();
        let srtt = 0.25;
        assert_eq!(n.increase(10.0, srtt, 5.0), 10.0 + 0.1, "slope 1 before any mark");
        assert_eq!(n.slope, 1.0);
        n.after_cut(CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW, 5.0);
        assert_eq!((n.first_time, n.slope, n.last_time), (1, 1.0, 5.0), "the first cut starts it, unchanged");
        assert_eq!(n.increase(10.0, srtt, 5.1), 10.0 + 0.1, "within an sRTT of the cut");
        assert_eq!(n.increase(10.0, srtt, 5.25), 10.0 + 0.1 * 2.0, "1 + 16 * 0.25^2 = 2");
        assert_eq!((n.slope, n.last_time), (2.0, 5.25));
        assert_eq!(n.increase(10.0, srtt, 5.4), 10.0 + 0.1 * 2.0);
        assert_eq!(n.increase(10.0, srtt, 5.5), 10.0 + 0.1 * 3.0);
    }

    /// Eq. 3.5 and the patch: a mark or a fast retransmit multiplies the
    /// slope by alpha_slp; a timeout halves it while above 1.
    #[test]
    fn cuts_reduce_the_slope() {
        let mut n = NewEcn { first_time: 1, slope: 4.0, ..Default::default() };
        n.after_cut(CLOSE_CWND_NEW, 1.0);
        assert_eq!(n.slope, 4.0 * 0.9);
        n.after_cut(CLOSE_CWND_HALF, 2.0);
        assert_eq!(n.slope, 4.0 * 0.9 * 0.9);
        n.slope = 1.5;
        n.after_cut(CLOSE_CWND_RESTART, 3.0);
        assert_eq!(n.slope, 0.75);
        n.after_cut(CLOSE_CWND_ONE, 4.0);
        assert_eq!(n.slope, 0.75, "not below 1");
        assert_eq!(n.last_time, 4.0);
        n.reset();
        assert_eq!((n.slope, n.first_time, n.last_time), (1.0, 0, 0.0));
    }
}
