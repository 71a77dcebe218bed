//! `windowOption_ 6`: binomial congestion control (Bansal and Balakrishnan,
//! "Binomial congestion control algorithms", INFOCOM 2001), as
//! `TcpAgent::opencwnd` and `slowdown` (tcp/tcp.cc) have it.  Per RTT the
//! window grows by `increase_num_ / w^k` (per ACK: `increase_num_ / (w *
//! w^k)`) and a cut takes `(1 - decrease_num_) * w^l` off it.  k = 0, l = 1
//! is AIMD; k = 1, l = 0 IIAD; k = l = 0.5 SQRT.  (`increase_num_` and
//! `decrease_num_` are the sender's, shared with the other rules.)

use super::{Acked, Cut, Rule, Rules, Switches};
use crate::sim::World;

/// The rule's parameters.
#[derive(Clone, Debug)]
pub struct Binomial {
    /// `k_parameter_`.
    pub k_parameter: f64,
    /// `l_parameter_`.
    pub l_parameter: f64,
}

impl Default for Binomial {
    /// ns-2's constructor values (AIMD).
    fn default() -> Self {
        Binomial { k_parameter: 0.0, l_parameter: 1.0 }
    }
}

impl Binomial {
    /// cwnd_ after one ACK in congestion avoidance.
    #[inline]
    pub fn increase(&self, cwnd: f64, increase_num: f64) -> f64 {
        cwnd + increase_num / (cwnd * cwnd.powf(self.k_parameter))
    }

    /// The window `win` after a cut (`slowdown`'s `decreasewin`).
    pub fn decreased_window(&self, win: f64, decrease_num: f64) -> f64 {
        win - (1.0 - decrease_num) * win.powf(self.l_parameter)
    }
}

impl Rule for Binomial {
    fn selects(option: i32, _sw: Switches) -> bool {
        option == 6
    }

    fn option(&self) -> i32 {
        6
    }

    #[inline]
    fn increase(&mut self, a: &Acked, _w: &mut World) -> Option<f64> {
        Some(Binomial::increase(self, a.cwnd, a.increase_num))
    }

    /// As a double from `windowd` with `precision_reduce_`, else truncated,
    /// from `window`.
    fn decreased_window(&self, _all: &Rules, cut: &Cut, decrease_num: &mut f64) -> f64 {
        if cut.precise {
            Binomial::decreased_window(self, cut.windowd, *decrease_num)
        } else {
            Binomial::decreased_window(self, cut.window as f64, *decrease_num) as i32 as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aimd_by_default() {
        let r = Binomial::default();
        assert_eq!(r.increase(8.0, 1.0), 8.125);
        assert_eq!(r.decreased_window(8.0, 0.5), 4.0);
    }

    #[test]
    fn sqrt_and_iiad() {
        // SQRT (k = l = 1/2): w = 16 grows by 1/(16*4) per ACK, i.e. 1/4 per
        // RTT, and a cut with decrease_num_ 0.5 takes 0.5*4 = 2 off.
        let sqrt = Binomial { k_parameter: 0.5, l_parameter: 0.5 };
        assert_eq!(sqrt.increase(16.0, 1.0), 16.0 + 1.0 / 64.0);
        assert_eq!(sqrt.decreased_window(16.0, 0.5), 14.0);
        // IIAD (k = 1, l = 0): 1/w^2 per ACK; a cut takes a constant 1 - 0.5.
        let iiad = Binomial { k_parameter: 1.0, l_parameter: 0.0 };
        assert_eq!(iiad.increase(4.0, 1.0), 4.0625);
        assert_eq!(iiad.decreased_window(30.0, 0.5), 29.5);
    }
}
