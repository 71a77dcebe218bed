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
//! sender's CWR.
//!
//! Switch it on with `windowOption_ 8` plus `newecn_ true` on the sender
//! (in ns-2 2.35 `windowOption_ 8` alone is HighSpeed TCP), or run the
//! paper's own scripts unchanged: setting `windowOptionS_ 8` on a sink,
//! which only the New-ECN patch has, makes `windowOption_ 8` mean New-ECN
//! for the whole script.  Parameters: `newecn_alpha_wnd_` (0.9),
//! `newecn_alpha_slp_` (0.9), `newecn_beta_` (16), the values of the
//! paper's ns-2 experiments (section 4.1; its Matlab model used
//! alpha_slp 0.7).  Traced state: `slope_window_`, `first_time_`,
//! `last_time_`, `mark_` as in the patch.

use super::*;

/// `CLOSE_CWND_NEW`: cwnd *= alpha_wnd (the patch's 0x80; a bit of its own
/// here because 2.35 uses 0x80 and 0x100 for other rules).
pub const CLOSE_CWND_NEW: u32 = 0x1_0000;
/// `CLOSE_SSTHRESH_NEW`: ssthresh *= alpha_wnd.
pub const CLOSE_SSTHRESH_NEW: u32 = 0x2_0000;

/// New-ECN's per-sender state and parameters.
#[derive(Clone, Debug)]
pub struct NewEcn {
    /// `newecn_`: `windowOption_ 8` means New-ECN rather than HighSpeed TCP.
    pub enabled: bool,
    pub slope: f64,
    pub last_time: f64,
    pub first_time: i32,
    pub mark: f64,
    pub alpha_wnd: f64,
    pub alpha_slp: f64,
    pub beta: f64,
}

impl Default for NewEcn {
    fn default() -> Self {
        NewEcn {
            enabled: false,
            slope: 1.0,
            last_time: 0.0,
            first_time: 0,
            mark: 0.0,
            alpha_wnd: 0.9,
            alpha_slp: 0.9,
            beta: 16.0,
        }
    }
}

impl NewEcn {
    /// `TcpAgent::reset` additions.
    pub fn reset(&mut self) {
        self.last_time = 0.0;
        self.slope = 1.0;
        self.first_time = 0;
        self.mark = 0.0;
    }
}

impl Sender {
    /// Does this sender follow New-ECN?
    #[inline]
    pub(super) fn newecn_on(&self, w: &World) -> bool {
        self.wnd_option == 8 && (self.newecn.enabled || w.newecn_compat)
    }
}

/// Congestion-avoidance increase (eq. 3.1, 3.2).
pub(super) fn increase(t: &mut Sender, w: &World) -> f64 {
    let now = w.s.now;
    let f = (t.t_srtt >> t.t_srtt_bits) as f64 * t.tcp_tick;
    let n = &mut t.newecn;
    if now - f >= n.last_time && n.first_time != 0 {
        n.slope += n.beta * f * f;
        n.last_time = now;
    }
    t.cwnd + (1.0 / t.cwnd) * t.newecn.slope
}

/// The extra rules of `slowdown`: `smallwin` is `int(window() * alpha_wnd)`
/// taken before anything changed.  Returns the cwnd to set, if the
/// `CLOSE_CWND_NEW` branch applies.
pub(super) fn smallwin(t: &Sender) -> i32 {
    (t.window() as f64 * t.newecn.alpha_wnd) as i32
}

/// Slope reductions and the slope clock restart at the end of `slowdown`.
pub(super) fn after_slowdown(t: &mut Sender, w: &World, how: u32) {
    let n = &mut t.newecn;
    if how & (CLOSE_CWND_HALF | CLOSE_CWND_NEW) != 0 && n.first_time != 0 {
        n.slope *= n.alpha_slp;
    }
    if how & (CLOSE_CWND_INIT | CLOSE_CWND_RESTART | CLOSE_CWND_ONE) != 0 && n.first_time != 0 && n.slope > 1.0 {
        n.slope *= 0.5;
    }
    n.last_time = w.s.now;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_ns_parameters() {
        let n = NewEcn::default();
        assert_eq!((n.alpha_wnd, n.alpha_slp, n.beta, n.slope), (0.9, 0.9, 16.0, 1.0));
    }
}
