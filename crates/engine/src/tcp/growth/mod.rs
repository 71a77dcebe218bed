//! Window growth: how cwnd_ grows per ACK in congestion avoidance (cwnd_
//! at or above ssthresh_), ns-2's `windowOption_` in `TcpAgent::opencwnd`
//! (tcp/tcp.cc), and what a rule adds to the sender's window cuts
//! (`slowdown`), its `reset` and its response to ECN.  Slow start is the
//! sender's and common to all.
//!
//! Each rule is a variant of [`Growth`] that owns the rule's state and
//! parameters, one file per rule:
//!
//! | `windowOption_` | variant | file |
//! |---|---|---|
//! | 0 | `PerWindow`: one packet per cwnd_ ACKs | `aimd.rs` |
//! | 1 | `Standard`: increase_num_/cwnd_ per ACK | `aimd.rs` |
//! | 2-5 | `Scaled`: about wnd_const_ times RTT^2, awnd_^2, awnd_ or RTT packets per RTT | `scaled.rs` |
//! | 6 | `Binomial`: binomial controls (k, l) | `binomial.rs` |
//! | 8 | `HighSpeed`: HighSpeed TCP, RFC 3649 | `highspeed.rs` |
//! | 8 with New-ECN | `NewEcn` | `newecn.rs` |
//! | any other | `Undefined`: ns-2 aborts when opencwnd runs | |
//!
//! The sender calls a rule through the hooks below, each a `match` over
//! the variants (static dispatch; no rule is a trait object).  As with
//! Linux's `tcp_congestion_ops` or ns-3's `TcpCongestionOps`, a hook a rule
//! does not need does what ns-2 does without it:
//!
//! | hook | ns-2 | rules with their own |
//! |---|---|---|
//! | `Sender::growth_increase` | opencwnd's congestion-avoidance step | all |
//! | `Growth::decreased_window` | slowdown's `decreasewin` (`decrease_num_` of the window) | Binomial, HighSpeed, New-ECN |
//! | `Growth::reset` | what `TcpAgent::reset` sets up for the rule | HighSpeed, New-ECN |
//! | `Growth::after_cut` | the end of `slowdown` (`fcnt_ = count_ = 0`) | PerWindow, Scaled, New-ECN |
//! | `Growth::ecn_factor` | `ecn()`'s cut: halving, or the rule's own factor | New-ECN |
//! | `Growth::opens_in_ecn_burst` | recv_newack_helper's `old_ecn_` opening | New-ECN (never) |
//!
//! The `windowOption_` integer lives only in the ns-2 binding (`ns2/class/tcp.rs`):
//! [`Growth::select`] makes the rule from it and [`Growth::option`] gives
//! it back.  ns-2 keeps every rule's members (count_, fcnt_, hstcp_,
//! the parameters) whatever `windowOption_` says, so a script may switch
//! rules and back at any time and find them as it left them (less what a
//! window cut or `reset` did to them meanwhile): the state of the rules not
//! in use is kept in [`Parked`] and handed back when one is selected again.

pub mod aimd;
pub mod binomial;
pub mod highspeed;
pub mod newecn;
pub mod scaled;

use std::mem;

use super::Sender;
use crate::sim::World;

use aimd::PerWindow;
use binomial::Binomial;
use highspeed::HighSpeed;
use newecn::NewEcn;
use scaled::{By, Scaled};

/// The congestion-avoidance window growth rule of a sender.
#[derive(Clone, Debug)]
pub enum Growth {
    /// `windowOption_ 0`: one packet per cwnd_ ACKs (`aimd.rs`).
    PerWindow(PerWindow),
    /// `windowOption_ 1`: increase_num_/cwnd_ per ACK, with limited slow
    /// start (`aimd.rs`).
    Standard,
    /// `windowOption_ 2` to `5`: experimental rules that add a packet once
    /// their accumulator `fcnt_` passes cwnd_ (`scaled.rs`).
    Scaled(By, Scaled),
    /// `windowOption_ 6`: binomial congestion control (`binomial.rs`).
    Binomial(Binomial),
    /// `windowOption_ 8`: HighSpeed TCP (`highspeed.rs`).
    HighSpeed(HighSpeed),
    /// `windowOption_ 8` with New-ECN on (`newecn.rs`); its window cuts
    /// above `low_window_` are HighSpeed's, as the option's are in ns-2
    /// 2.35, so it holds HighSpeed's state too.
    NewEcn(NewEcn, HighSpeed),
    /// A `windowOption_` ns-2's opencwnd does not define: kept as set
    /// (Tcl reads it back), and the run stops when opencwnd reaches it.
    Undefined(i32),
}

/// The state of the `windowOption_` rules not in use (see the module
/// doc): each rule's is either in the `Growth` variant or here.
#[derive(Clone, Debug, Default)]
pub struct Parked {
    per_window: PerWindow,
    scaled: Scaled,
    binomial: Binomial,
    highspeed: HighSpeed,
    newecn: NewEcn,
}

impl Growth {
    /// Select the rule `windowOption_` `option` names (New-ECN rather than
    /// HighSpeed for 8 if `newecn`): the rule in use is parked, the new
    /// one takes its state from `parked`.  Any value is accepted, as ns-2
    /// does; an undefined one stops the run only when opencwnd reaches it.
    pub fn select(&mut self, parked: &mut Parked, option: i32, newecn: bool) {
        match mem::replace(self, Growth::Standard) {
            Growth::PerWindow(r) => parked.per_window = r,
            Growth::Standard | Growth::Undefined(_) => {}
            Growth::Scaled(_, r) => parked.scaled = r,
            Growth::Binomial(r) => parked.binomial = r,
            Growth::HighSpeed(r) => parked.highspeed = r,
            Growth::NewEcn(r, hs) => {
                parked.newecn = r;
                parked.highspeed = hs;
            }
        }
        *self = match option {
            0 => Growth::PerWindow(mem::take(&mut parked.per_window)),
            1 => Growth::Standard,
            6 => Growth::Binomial(mem::take(&mut parked.binomial)),
            8 if newecn => Growth::NewEcn(mem::take(&mut parked.newecn), mem::take(&mut parked.highspeed)),
            8 => Growth::HighSpeed(mem::take(&mut parked.highspeed)),
            other => match By::of(other) {
                Some(by) => Growth::Scaled(by, mem::take(&mut parked.scaled)),
                None => Growth::Undefined(other),
            },
        };
    }

    /// The `windowOption_` this rule is.
    pub fn option(&self) -> i32 {
        match self {
            Growth::PerWindow(_) => 0,
            Growth::Standard => 1,
            Growth::Scaled(by, _) => *by as i32,
            Growth::Binomial(_) => 6,
            Growth::HighSpeed(_) | Growth::NewEcn(..) => 8,
            Growth::Undefined(option) => *option,
        }
    }

    /// Is this New-ECN?
    #[inline]
    pub fn is_newecn(&self) -> bool {
        matches!(self, Growth::NewEcn(..))
    }

    /// `slowdown`'s `decreasewin`, the window after a multiplicative
    /// decrease: as a double from `windowd` with `precision_reduce_`, else
    /// truncated, from `window` (HighSpeed's from `windowd` either way, as
    /// ns-2 has it).  By default `decrease_num_` of the window; HighSpeed
    /// (and New-ECN, see `Growth::NewEcn`) above `low_window_` sets
    /// `decrease_num_` to its own factor first.
    pub fn decreased_window(&self, cwnd: f64, windowd: f64, window: i32, precise: bool, decrease_num: &mut f64) -> f64 {
        match self {
            Growth::Binomial(r) => {
                if precise {
                    r.decreased_window(windowd, *decrease_num)
                } else {
                    r.decreased_window(window as f64, *decrease_num) as i32 as f64
                }
            }
            Growth::HighSpeed(hs) | Growth::NewEcn(_, hs) if cwnd > hs.low_window as f64 => {
                let decrease = hs.decrease_param(cwnd);
                *decrease_num = decrease;
                let win = windowd - decrease * windowd;
                if precise {
                    win
                } else {
                    win as i32 as f64
                }
            }
            _ => {
                if precise {
                    *decrease_num * windowd
                } else {
                    (*decrease_num * window as f64) as i32 as f64
                }
            }
        }
    }

    /// What `TcpAgent::reset` sets up for the rule: HighSpeed's parameters
    /// (computed only if the rule is HighSpeed or New-ECN at that moment, as
    /// ns-2 does for `windowOption_ 8`), New-ECN's state (in use or not).
    pub fn reset(&mut self, parked: &mut Parked) {
        parked.newecn.reset();
        match self {
            Growth::HighSpeed(hs) => hs.reset(),
            Growth::NewEcn(r, hs) => {
                r.reset();
                hs.reset();
            }
            _ => {}
        }
    }

    /// The end of `slowdown(how)` at time `now`: ns-2 clears the
    /// accumulators `count_` and `fcnt_` (whichever rule is in use); New-ECN
    /// adjusts its slope.
    pub fn after_cut(&mut self, parked: &mut Parked, how: u32, now: f64) {
        parked.per_window.count = 0;
        parked.scaled.fcnt = 0.0;
        match self {
            Growth::PerWindow(r) => r.count = 0,
            Growth::Scaled(_, r) => r.fcnt = 0.0,
            Growth::NewEcn(r, _) => r.after_cut(how, now),
            _ => {}
        }
    }

    /// The factor of the rule's own response to ECN-Echo (`ecn()` cuts
    /// with `CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW`, `slowdown` multiplies by
    /// it), or None for ns-2's halving (`CLOSE_CWND_HALF |
    /// CLOSE_SSTHRESH_HALF`).
    #[inline]
    pub fn ecn_factor(&self) -> Option<f64> {
        match self {
            Growth::NewEcn(r, _) => Some(r.alpha_wnd),
            _ => None,
        }
    }

    /// Does `old_ecn_` open the window on an ACK with ECN-Echo during an
    /// ECN burst (`recv_newack_helper`)?  Not for New-ECN, which opens on
    /// every ACK without ECN-Echo only.
    #[inline]
    pub fn opens_in_ecn_burst(&self) -> bool {
        !self.is_newecn()
    }
}

impl Sender {
    /// `opencwnd`'s congestion-avoidance step: the new cwnd_ after one ACK,
    /// or None if it does not change.  Inlined: it is on every ACK's path
    /// in congestion avoidance (RFC793edu's `opencwnd` calls it too).
    #[inline(always)]
    pub(crate) fn growth_increase(&mut self, w: &mut World) -> Option<f64> {
        let cwnd = self.cwnd;
        match &mut self.growth {
            Growth::PerWindow(r) => r.increase(cwnd),
            Growth::Standard => {
                Some(aimd::standard_increase(cwnd, self.increase_num, self.last_cwnd_action, self.max_ssthresh))
            }
            Growth::Scaled(by, r) => {
                let srtt = (self.t_srtt >> self.t_srtt_bits) as f64 * self.tcp_tick;
                r.increase(*by, cwnd, srtt, self.awnd)
            }
            Growth::Binomial(r) => Some(r.increase(cwnd, self.increase_num)),
            Growth::HighSpeed(hs) => Some(hs.increase(cwnd, self.last_cwnd_action, self.max_ssthresh)),
            Growth::NewEcn(r, _) => {
                let srtt = (self.t_srtt >> self.t_srtt_bits) as f64 * self.tcp_tick;
                Some(r.increase(cwnd, srtt, w.s.now))
            }
            Growth::Undefined(option) => {
                undefined_window_option(w, *option, "0-6 and 8");
                None
            }
        }
    }

    /// Select the rule for `windowOption_` `option` (the binding's setter;
    /// New-ECN for 8 with `newecn_` or a script's `windowOptionS_ 8`).
    pub fn select_growth(&mut self, option: i32, w: &World) {
        let newecn = self.newecn || w.newecn_compat;
        self.growth.select(&mut self.parked, option, newecn);
    }

    /// A sink's `windowOptionS_ 8` has made `windowOption_ 8` mean New-ECN
    /// for the whole script: select this sender's rule again.
    pub fn newecn_compat_set(&mut self) {
        let option = self.growth.option();
        self.growth.select(&mut self.parked, option, true);
    }

    /// The binding's view of each rule's bound parameters and Tcl-visible
    /// state, whether the rule is in use or parked.
    pub fn scaled(&self) -> &Scaled {
        match &self.growth {
            Growth::Scaled(_, r) => r,
            _ => &self.parked.scaled,
        }
    }

    pub fn scaled_mut(&mut self) -> &mut Scaled {
        match &mut self.growth {
            Growth::Scaled(_, r) => r,
            _ => &mut self.parked.scaled,
        }
    }

    pub fn binomial(&self) -> &Binomial {
        match &self.growth {
            Growth::Binomial(r) => r,
            _ => &self.parked.binomial,
        }
    }

    pub fn binomial_mut(&mut self) -> &mut Binomial {
        match &mut self.growth {
            Growth::Binomial(r) => r,
            _ => &mut self.parked.binomial,
        }
    }

    pub fn highspeed(&self) -> &HighSpeed {
        match &self.growth {
            Growth::HighSpeed(r) | Growth::NewEcn(_, r) => r,
            _ => &self.parked.highspeed,
        }
    }

    pub fn highspeed_mut(&mut self) -> &mut HighSpeed {
        match &mut self.growth {
            Growth::HighSpeed(r) | Growth::NewEcn(_, r) => r,
            _ => &mut self.parked.highspeed,
        }
    }

    pub fn newecn_rule(&self) -> &NewEcn {
        match &self.growth {
            Growth::NewEcn(r, _) => r,
            _ => &self.parked.newecn,
        }
    }

    pub fn newecn_rule_mut(&mut self) -> &mut NewEcn {
        match &mut self.growth {
            Growth::NewEcn(r, _) => r,
            _ => &mut self.parked.newecn,
        }
    }
}

/// A `windowOption_` ns-2's `opencwnd` does not define: ns-2 aborts there
/// (exit status 1, its buffered traces lost).  The run stops after the
/// current event with an error naming the value (traces flushed).
#[cold]
pub(in crate::tcp) fn undefined_window_option(w: &mut World, option: i32, defined: &'static str) {
    w.abort(crate::notice::Abort::UndefinedWindowRule { option, defined });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every defined `windowOption_` makes its rule and reads back; New-ECN
    /// only for 8; anything else is kept as set, undefined.
    #[test]
    fn option_round_trips() {
        let mut parked = Parked::default();
        let mut g = Growth::Standard;
        for option in [0, 1, 2, 3, 4, 5, 6, 8, 7, 9, -1, 42, i32::MIN, i32::MAX] {
            for newecn in [false, true] {
                g.select(&mut parked, option, newecn);
                assert_eq!(g.option(), option);
                assert_eq!(g.is_newecn(), option == 8 && newecn, "{option} {newecn}");
                let undefined = !matches!(option, 0..=6 | 8);
                assert_eq!(matches!(g, Growth::Undefined(_)), undefined, "{option}");
            }
        }
    }

    /// A rule's state survives a switch to another rule and back (ns-2
    /// keeps the members), less what cuts and resets do to it meanwhile.
    #[test]
    fn parked_state_comes_back() {
        let mut parked = Parked::default();
        let mut g = Growth::Standard;
        g.select(&mut parked, 8, false);
        g.reset(&mut parked);
        let Growth::HighSpeed(hs) = &g else { panic!("8 is HighSpeed") };
        let computed = hs.hstcp.clone();
        assert!(computed.p2 != 0.0);
        // 8 -> 1 -> 8: HighSpeed's parameters as reset computed them.
        g.select(&mut parked, 1, false);
        g.reset(&mut parked); // not 8 now: nothing computed, nothing lost
        g.select(&mut parked, 8, false);
        let Growth::HighSpeed(hs) = &g else { panic!("8 is HighSpeed") };
        assert_eq!(format!("{:?}", hs.hstcp), format!("{computed:?}"));
        // HighSpeed -> New-ECN hands the same HighSpeed state over.
        g.select(&mut parked, 8, true);
        let Growth::NewEcn(_, hs) = &g else { panic!("8 with New-ECN") };
        assert_eq!(format!("{:?}", hs.hstcp), format!("{computed:?}"));

        // count_ (0) and fcnt_ (2-5) come back, unless a cut cleared them.
        g.select(&mut parked, 0, false);
        let Growth::PerWindow(r) = &mut g else { panic!("0") };
        r.count = 3;
        g.select(&mut parked, 2, false);
        let Growth::Scaled(_, r) = &mut g else { panic!("2") };
        r.fcnt = 1.5;
        g.select(&mut parked, 3, false);
        let Growth::Scaled(By::AwndSquared, r) = &g else { panic!("3") };
        assert_eq!(r.fcnt, 1.5, "2 and 3 share fcnt_");
        g.select(&mut parked, 0, false);
        let Growth::PerWindow(r) = &g else { panic!("0") };
        assert_eq!(r.count, 3);
        g.after_cut(&mut parked, 0, 0.0);
        g.select(&mut parked, 5, false);
        let Growth::Scaled(_, r) = &g else { panic!("5") };
        assert_eq!(r.fcnt, 0.0, "slowdown clears fcnt_ of a parked rule too");
        g.select(&mut parked, 0, false);
        let Growth::PerWindow(r) = &g else { panic!("0") };
        assert_eq!(r.count, 0);
    }

    /// The default cut is `decrease_num_` of the window; binomial's and
    /// HighSpeed's their own, HighSpeed's only above `low_window_`.
    #[test]
    fn decreased_window_by_rule() {
        let mut parked = Parked::default();
        let mut g = Growth::Standard;
        let mut dn = 0.5;
        assert_eq!(g.decreased_window(10.0, 10.0, 10, true, &mut dn), 5.0);
        assert_eq!(g.decreased_window(10.5, 10.5, 10, false, &mut dn), 5.0);
        g.select(&mut parked, 8, false);
        g.reset(&mut parked);
        assert_eq!(g.decreased_window(38.0, 38.0, 38, true, &mut dn), 19.0);
        assert_eq!(dn, 0.5, "at low_window_ and below: the standard cut");
        let w = g.decreased_window(1058.0, 1058.0, 1058, true, &mut dn);
        assert!((dn - 0.3269).abs() < 1e-4, "RFC 3649's b(1058) = 0.33: {dn}");
        assert_eq!(w, 1058.0 - dn * 1058.0);
        // (truncated, from windowd even without precision_reduce_)
        assert_eq!(g.decreased_window(1058.0, 1058.5, 1058, false, &mut dn), (1058.5 - dn * 1058.5) as i32 as f64);
    }
}
