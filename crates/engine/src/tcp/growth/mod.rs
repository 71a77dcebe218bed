//! Window growth: how cwnd_ grows per ACK in congestion avoidance (cwnd_
//! at or above ssthresh_), ns-2's `windowOption_` in `TcpAgent::opencwnd`
//! (tcp/tcp.cc), and what a rule adds to the sender's window cuts
//! (`slowdown`), its `reset` and its response to ECN.  Slow start is the
//! sender's and common to all.
//!
//! A rule is a type implementing [`Rule`] in a file of its own, and one
//! line in the [`rules!`] list at the end of this file:
//!
//! | `windowOption_` | rule | file |
//! |---|---|---|
//! | 0 | `PerWindow`: one packet per cwnd_ ACKs | `aimd.rs` |
//! | 1 | `Standard`: increase_num_/cwnd_ per ACK | `aimd.rs` |
//! | 2-5 | `Scaled`: about wnd_const_ times RTT^2, awnd_^2, awnd_ or RTT packets per RTT | `scaled.rs` |
//! | 6 | `Binomial`: binomial controls (k, l) | `binomial.rs` |
//! | 8 with New-ECN | `NewEcn` | `newecn.rs` |
//! | 8 | `HighSpeed`: HighSpeed TCP, RFC 3649 | `highspeed.rs` |
//! | any other | `Undefined`: ns-2 aborts when opencwnd runs | `undefined.rs` |
//! | any, with `ecnmod_` | `EcnMod`: ECN-mod's c1 w^alpha per ACK, c2 w^beta per mark (seed 003) | `ecnmod.rs` |
//!
//! ns-2 keeps every rule's members (count_, fcnt_, hstcp_, the
//! parameters) in the agent whatever `windowOption_` says, so a script may
//! switch rules and back at any time and find them as it left them (less
//! what a window cut or `reset` did to them meanwhile).  So does the
//! sender: [`Rules`] holds every rule's state, and [`Growth`] says which
//! rule is in use.  `windowOption_` selects the first rule of the list
//! whose [`Rule::selects`] takes it.
//!
//! The hooks, each a `match` over the rules that the list generates
//! (static dispatch; no rule is a trait object).  As with Linux's
//! `tcp_congestion_ops` or ns-3's `TcpCongestionOps`, a hook a rule does
//! not implement does what ns-2 does without it:
//!
//! | hook | ns-2 | called on | rules with their own |
//! |---|---|---|---|
//! | [`Rule::increase`] | opencwnd's congestion-avoidance step | the rule in use | all |
//! | [`Rule::decreased_window`] | slowdown's `decreasewin` (`decrease_num_` of the window) | the rule in use | Binomial, HighSpeed, New-ECN |
//! | [`Rule::reset`] | what `TcpAgent::reset` sets up | every rule | HighSpeed, New-ECN |
//! | [`Rule::after_cut`] | the end of `slowdown` (`fcnt_ = count_ = 0`) | every rule | PerWindow, Scaled, New-ECN |
//! | [`Rule::ecn_factor`] | `ecn()`'s cut: halving, or the rule's own factor | the rule in use | New-ECN |
//! | [`Rule::opens_in_ecn_burst`] | recv_newack_helper's `old_ecn_` opening | the rule in use | New-ECN, ECN-mod (never) |
//! | [`Rule::mark_response`] | (none: `ecn()` cuts once per window) | the rule in use | ECN-mod (every marked ACK) |
//!
//! The `windowOption_` integer lives only in the ns-2 binding
//! (`ns2/class/tcp.rs`), which reads and writes a rule's parameters
//! through [`Growth::get`] / [`Growth::get_mut`].

pub mod aimd;
pub mod binomial;
pub mod ecnmod;
pub mod highspeed;
pub mod newecn;
pub mod scaled;
pub mod undefined;

use std::fmt;

use super::Sender;
use crate::sim::World;

/// The sender's switches that select a rule beside `windowOption_`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    /// New-ECN for `windowOption_ 8` (the sender's `newecn_`, or a script's
    /// `windowOptionS_ 8` on a sink).
    pub newecn: bool,
    /// ECN-mod whatever `windowOption_` says (the sender's `ecnmod_`).
    pub ecnmod: bool,
}

/// What a rule's congestion-avoidance step may read of the sender.
#[derive(Clone, Copy, Debug)]
pub struct Acked {
    /// `cwnd_` before this ACK.
    pub cwnd: f64,
    /// `increase_num_`.
    pub increase_num: f64,
    /// `last_cwnd_action_`.
    pub last_cwnd_action: i32,
    /// `max_ssthresh_` (RFC 3742's limited slow start).
    pub max_ssthresh: i32,
    /// `awnd_`, the average window (`windowThresh_`).
    pub awnd: f64,
    /// `t_srtt_`, `T_SRTT_BITS` and `tcp_tick_`: see [`Acked::srtt`].
    t_srtt: i32,
    t_srtt_bits: i32,
    tcp_tick: f64,
}

impl Acked {
    /// The smoothed RTT in seconds, `(t_srtt_ >> T_SRTT_BITS) * tcp_tick_`
    /// as opencwnd computes it.
    #[inline]
    pub fn srtt(&self) -> f64 {
        (self.t_srtt >> self.t_srtt_bits) as f64 * self.tcp_tick
    }

    /// A sender's view for tests.
    #[cfg(test)]
    pub fn for_tests(cwnd: f64, srtt_ticks: i32, tcp_tick: f64) -> Acked {
        Acked {
            cwnd,
            increase_num: 1.0,
            last_cwnd_action: 0,
            max_ssthresh: 0,
            awnd: 0.0,
            t_srtt: srtt_ticks << 3,
            t_srtt_bits: 3,
            tcp_tick,
        }
    }
}

/// The window a cut starts from (`slowdown`'s `windowd()` and `window()`)
/// and whether `precision_reduce_` keeps it a double.
#[derive(Clone, Copy, Debug)]
pub struct Cut {
    /// `cwnd_`.
    pub cwnd: f64,
    /// `windowd()`.
    pub windowd: f64,
    /// `window()`.
    pub window: i32,
    /// `precision_reduce_`.
    pub precise: bool,
}

impl Cut {
    /// slowdown's default `decreasewin`: `decrease_num_` of the window, as a
    /// double from `windowd` with `precision_reduce_`, else truncated, from
    /// `window`.
    #[inline]
    pub fn standard(&self, decrease_num: f64) -> f64 {
        if self.precise {
            decrease_num * self.windowd
        } else {
            (decrease_num * self.window as f64) as i32 as f64
        }
    }
}

/// A window-growth rule: its state and parameters are the type's fields;
/// its hooks are these methods.  See the module doc.
pub trait Rule: Clone + fmt::Debug + Default {
    /// Does `windowOption_` `option` select this rule, given the sender's
    /// switches?  The first rule of the list that takes it is chosen.
    fn selects(option: i32, sw: Switches) -> bool;

    /// This rule has been selected for `option` (a rule that covers several
    /// options records which).
    fn select(&mut self, _option: i32) {}

    /// The `windowOption_` this rule answers to while in use.
    fn option(&self) -> i32;

    /// opencwnd's congestion-avoidance step: cwnd_ after one ACK, or None
    /// if it does not change.
    fn increase(&mut self, a: &Acked, w: &mut World) -> Option<f64>;

    /// slowdown's `decreasewin`, the window after a multiplicative cut; it
    /// may set `decrease_num` to its own factor first (`all`: every rule's
    /// state, for rules that cut as another does).
    fn decreased_window(&self, _all: &Rules, cut: &Cut, decrease_num: &mut f64) -> f64 {
        cut.standard(*decrease_num)
    }

    /// `TcpAgent::reset`, called on every rule (in use or not): `option` is
    /// the `windowOption_` in force, `active` whether this rule is in use.
    fn reset(&mut self, _option: i32, _active: bool) {}

    /// The end of `slowdown(how)` at time `now`, called on every rule.
    fn after_cut(&mut self, _active: bool, _how: u32, _now: f64) {}

    /// The factor of the rule's own response to ECN-Echo (`ecn()` cuts
    /// with `CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW`, slowdown multiplies by
    /// it), or None for ns-2's halving.
    fn ecn_factor(&self) -> Option<f64> {
        None
    }

    /// Does `old_ecn_` open the window on an ACK with ECN-Echo during an
    /// ECN burst (`recv_newack_helper`)?
    fn opens_in_ecn_burst(&self) -> bool {
        true
    }

    /// The rule's own response to every ACK with ECN-Echo: cwnd_ after it,
    /// taking the place of ns-2's once-per-window cut (`ecn()`), or None
    /// for that cut.
    fn mark_response(&self, _cwnd: f64) -> Option<f64> {
        None
    }
}

/// A rule's place in [`Rules`] (generated for each rule by [`rules!`]).
pub trait Member: Rule {
    /// The rule's tag in [`Growth`].
    const IN_USE: InUse;
    fn of(all: &Rules) -> &Self;
    fn of_mut(all: &mut Rules) -> &mut Self;
}

/// The list: each rule's tag (`InUse`), its field of `Rules` and its type.
/// Generates the state of every rule, the tag of the one in use, the
/// hooks' dispatch and the accessors.
macro_rules! rules {
    ($($tag:ident: $field:ident: $ty:ty,)*) => {
        /// Every rule's state (see the module doc: ns-2 keeps them all).
        #[derive(Clone, Debug, Default)]
        pub struct Rules {
            $(pub $field: $ty,)*
        }

        /// Which rule is in use.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum InUse {
            $($tag,)*
        }

        $(impl Member for $ty {
            const IN_USE: InUse = InUse::$tag;
            #[inline(always)]
            fn of(all: &Rules) -> &Self {
                &all.$field
            }
            #[inline(always)]
            fn of_mut(all: &mut Rules) -> &mut Self {
                &mut all.$field
            }
        })*

        impl Growth {
            /// Select the rule `windowOption_` `option` names: the first in
            /// the list that takes it.  Any value is accepted, as ns-2 does
            /// (an undefined one stops the run only when opencwnd reaches
            /// it).
            pub fn select(&mut self, option: i32, sw: Switches) {
                $(if <$ty as Rule>::selects(option, sw) {
                    self.in_use = InUse::$tag;
                    <$ty as Rule>::select(&mut self.rules.$field, option);
                    return;
                })*
                unreachable!("the last rule of the list takes every option");
            }

            /// The `windowOption_` the rule in use answers to.
            pub fn option(&self) -> i32 {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::option(&self.rules.$field),)*
                }
            }

            /// [`Rule::increase`] of the rule in use.  The sender's view is
            /// made inside each arm, so that a rule's step reads only the
            /// sender's variables it uses (it is on every ACK's path).
            #[inline(always)]
            pub fn increase(&mut self, a: impl FnOnce() -> Acked, w: &mut World) -> Option<f64> {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::increase(&mut self.rules.$field, &a(), w),)*
                }
            }

            /// [`Rule::decreased_window`] of the rule in use.
            pub fn decreased_window(&self, cut: &Cut, decrease_num: &mut f64) -> f64 {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::decreased_window(&self.rules.$field, &self.rules, cut, decrease_num),)*
                }
            }

            /// [`Rule::reset`] of every rule.
            pub fn reset(&mut self) {
                let option = self.option();
                $(<$ty as Rule>::reset(&mut self.rules.$field, option, self.in_use == InUse::$tag);)*
            }

            /// [`Rule::after_cut`] of every rule.
            pub fn after_cut(&mut self, how: u32, now: f64) {
                $(<$ty as Rule>::after_cut(&mut self.rules.$field, self.in_use == InUse::$tag, how, now);)*
            }

            /// [`Rule::ecn_factor`] of the rule in use.
            #[inline]
            pub fn ecn_factor(&self) -> Option<f64> {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::ecn_factor(&self.rules.$field),)*
                }
            }

            /// [`Rule::mark_response`] of the rule in use.
            #[inline]
            pub fn mark_response(&self, cwnd: f64) -> Option<f64> {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::mark_response(&self.rules.$field, cwnd),)*
                }
            }

            /// [`Rule::opens_in_ecn_burst`] of the rule in use.
            #[inline]
            pub fn opens_in_ecn_burst(&self) -> bool {
                match self.in_use {
                    $(InUse::$tag => <$ty as Rule>::opens_in_ecn_burst(&self.rules.$field),)*
                }
            }
        }
    };
}

/// A sender's window growth: every rule's state and which is in use.
#[derive(Clone, Debug)]
pub struct Growth {
    in_use: InUse,
    pub rules: Rules,
}

impl Default for Growth {
    /// `windowOption_ 1`, ns-2's default.
    fn default() -> Self {
        let mut g = Growth { in_use: InUse::Standard, rules: Rules::default() };
        g.select(1, Switches::default());
        g
    }
}

impl Growth {
    /// The rule in use.
    #[inline]
    pub fn in_use(&self) -> InUse {
        self.in_use
    }

    /// Is rule `R` in use?
    #[inline]
    pub fn is<R: Member>(&self) -> bool {
        self.in_use == R::IN_USE
    }

    /// Rule `R`'s state and parameters, in use or not.
    #[inline]
    pub fn get<R: Member>(&self) -> &R {
        R::of(&self.rules)
    }

    #[inline]
    pub fn get_mut<R: Member>(&mut self) -> &mut R {
        R::of_mut(&mut self.rules)
    }
}

rules! {
    EcnMod: ecnmod: ecnmod::EcnMod,
    PerWindow: per_window: aimd::PerWindow,
    Standard: standard: aimd::Standard,
    Scaled: scaled: scaled::Scaled,
    Binomial: binomial: binomial::Binomial,
    NewEcn: newecn: newecn::NewEcn,
    HighSpeed: highspeed: highspeed::HighSpeed,
    Undefined: undefined: undefined::Undefined,
}

impl Sender {
    /// `opencwnd`'s congestion-avoidance step: the new cwnd_ after one ACK,
    /// or None if it does not change.  Inlined: it is on every ACK's path
    /// in congestion avoidance (RFC793edu's `opencwnd` calls it too).
    #[inline(always)]
    pub(crate) fn growth_increase(&mut self, w: &mut World) -> Option<f64> {
        let a = || Acked {
            cwnd: self.cwnd,
            increase_num: self.increase_num,
            last_cwnd_action: self.last_cwnd_action,
            max_ssthresh: self.max_ssthresh,
            awnd: self.awnd,
            t_srtt: self.t_srtt,
            t_srtt_bits: self.t_srtt_bits,
            tcp_tick: self.tcp_tick,
        };
        self.growth.increase(a, w)
    }

    /// Select the rule for `windowOption_` `option` (the binding's setter;
    /// New-ECN for 8 with `newecn_` or a script's `windowOptionS_ 8`).
    pub fn select_growth(&mut self, option: i32, w: &World) {
        let sw = Switches { newecn: self.newecn || w.newecn_compat, ecnmod: self.ecnmod };
        self.growth.select(option, sw);
    }

    /// A sink's `windowOptionS_ 8` has made `windowOption_ 8` mean New-ECN
    /// for the whole script: select this sender's rule again.
    pub fn newecn_compat_set(&mut self) {
        let option = self.growth.option();
        self.growth.select(option, Switches { newecn: true, ecnmod: self.ecnmod });
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
    use binomial::Binomial;
    use highspeed::HighSpeed;
    use scaled::{By, Scaled};

    fn nsw(newecn: bool) -> Switches {
        Switches { newecn, ecnmod: false }
    }

    fn growth(option: i32, newecn: bool) -> Growth {
        let mut g = Growth::default();
        g.select(option, nsw(newecn));
        g
    }

    /// Every defined `windowOption_` makes its rule and reads back; New-ECN
    /// only for 8; anything else is kept as set, undefined.
    #[test]
    fn option_round_trips() {
        let mut g = Growth::default();
        assert_eq!(g.in_use(), InUse::Standard, "ns-2's default is 1");
        for option in [0, 1, 2, 3, 4, 5, 6, 8, 7, 9, -1, 42, i32::MIN, i32::MAX] {
            for newecn in [false, true] {
                g.select(option, nsw(newecn));
                assert_eq!(g.option(), option);
                assert_eq!(g.in_use() == InUse::NewEcn, option == 8 && newecn, "{option} {newecn}");
                let undefined = !matches!(option, 0..=6 | 8);
                assert_eq!(g.in_use() == InUse::Undefined, undefined, "{option}");
            }
        }
        let expect = [
            (0, InUse::PerWindow),
            (1, InUse::Standard),
            (2, InUse::Scaled),
            (5, InUse::Scaled),
            (6, InUse::Binomial),
            (8, InUse::HighSpeed),
            (7, InUse::Undefined),
        ];
        for (option, in_use) in expect {
            assert_eq!(growth(option, false).in_use(), in_use, "{option}");
        }
        assert!(growth(6, false).is::<Binomial>());
        assert!(!growth(6, false).is::<HighSpeed>());
    }

    /// A rule's state survives a switch to another rule and back (ns-2
    /// keeps the members), less what cuts and resets do to it meanwhile.
    #[test]
    fn state_of_rules_not_in_use_is_kept() {
        let mut g = growth(8, false);
        g.reset();
        let computed = g.get::<HighSpeed>().hstcp.clone();
        assert!(computed.p2 != 0.0);
        // 8 -> 1 -> 8: HighSpeed's parameters as reset computed them.
        g.select(1, nsw(false));
        g.get_mut::<HighSpeed>().low_window = 50;
        g.reset(); // not 8 now: nothing computed, nothing lost
        g.select(8, nsw(false));
        assert_eq!(format!("{:?}", g.get::<HighSpeed>().hstcp), format!("{computed:?}"));
        // HighSpeed -> New-ECN: the same HighSpeed state; reset computes it
        // for New-ECN too (ns-2 does for windowOption_ 8).
        g.select(8, nsw(true));
        assert_eq!(format!("{:?}", g.get::<HighSpeed>().hstcp), format!("{computed:?}"));
        g.reset();
        assert!(format!("{:?}", g.get::<HighSpeed>().hstcp) != format!("{computed:?}"), "low_window_ 50 now");

        // count_ (0) and fcnt_ (2-5) come back, unless a cut cleared them.
        g.select(0, nsw(false));
        g.get_mut::<aimd::PerWindow>().count = 3;
        g.select(2, nsw(false));
        g.get_mut::<Scaled>().fcnt = 1.5;
        g.select(3, nsw(false));
        assert_eq!(g.get::<Scaled>().by, By::AwndSquared);
        assert_eq!(g.get::<Scaled>().fcnt, 1.5, "2 and 3 share fcnt_");
        g.select(0, nsw(false));
        assert_eq!(g.get::<aimd::PerWindow>().count, 3);
        g.after_cut(0, 0.0);
        assert_eq!(g.get::<Scaled>().fcnt, 0.0, "slowdown clears fcnt_ of a rule not in use too");
        assert_eq!(g.get::<aimd::PerWindow>().count, 0);
    }

    /// New-ECN's slope is reset whatever the option; its cut adjustments
    /// apply only while it is in use.
    #[test]
    fn new_ecn_state_by_hook() {
        let mut g = growth(1, false);
        g.get_mut::<newecn::NewEcn>().slope = 3.0;
        g.get_mut::<newecn::NewEcn>().first_time = 1;
        g.after_cut(newecn::CLOSE_CWND_NEW, 2.0);
        assert_eq!(g.get::<newecn::NewEcn>().slope, 3.0, "not in use: no slope change");
        g.select(8, nsw(true));
        g.after_cut(newecn::CLOSE_CWND_NEW, 2.0);
        assert_eq!(g.get::<newecn::NewEcn>().slope, 3.0 * 0.9);
        g.select(1, nsw(false));
        g.reset();
        assert_eq!(g.get::<newecn::NewEcn>().slope, 1.0, "reset whatever the option");
    }

    /// The default cut is `decrease_num_` of the window; binomial's and
    /// HighSpeed's (and New-ECN's, HighSpeed's) their own, HighSpeed's only
    /// above `low_window_`.
    #[test]
    fn decreased_window_by_rule() {
        let cut = |cwnd: f64, windowd: f64, window: i32, precise: bool| Cut { cwnd, windowd, window, precise };
        let mut g = Growth::default();
        let mut dn = 0.5;
        assert_eq!(g.decreased_window(&cut(10.0, 10.0, 10, true), &mut dn), 5.0);
        assert_eq!(g.decreased_window(&cut(10.5, 10.5, 10, false), &mut dn), 5.0);
        for newecn in [false, true] {
            g.select(8, nsw(newecn));
            g.reset();
            dn = 0.5;
            assert_eq!(g.decreased_window(&cut(38.0, 38.0, 38, true), &mut dn), 19.0);
            assert_eq!(dn, 0.5, "at low_window_ and below: the standard cut");
            let w = g.decreased_window(&cut(1058.0, 1058.0, 1058, true), &mut dn);
            assert!((dn - 0.3269).abs() < 1e-4, "RFC 3649's b(1058) = 0.33: {dn}");
            assert_eq!(w, 1058.0 - dn * 1058.0);
            // (truncated, from windowd even without precision_reduce_)
            assert_eq!(g.decreased_window(&cut(1058.0, 1058.5, 1058, false), &mut dn), (1058.5 - dn * 1058.5) as i32 as f64);
        }
        g.select(6, nsw(false));
        g.get_mut::<Binomial>().l_parameter = 0.5;
        dn = 0.5;
        assert_eq!(g.decreased_window(&cut(16.0, 16.0, 16, true), &mut dn), 14.0);
        assert_eq!(g.decreased_window(&cut(16.5, 16.5, 16, false), &mut dn), 14.0);
    }

    /// Each rule's congestion-avoidance step through the dispatch.
    #[test]
    fn increase_by_rule() {
        let mut w = World::new_for_tests();
        let a = Acked::for_tests(8.0, 4, 0.125); // srtt 0.5 s
        assert_eq!(a.srtt(), 0.5);
        assert_eq!(growth(1, false).increase(|| a, &mut w), Some(8.125));
        assert_eq!(growth(6, false).increase(|| a, &mut w), Some(8.125));
        let mut g = growth(0, false);
        assert_eq!((0..7).filter_map(|_| g.increase(|| a, &mut w)).count(), 0);
        assert_eq!(g.increase(|| a, &mut w), Some(9.0), "the 8th ACK of a window of 8");
        // 2: 4 * 0.5^2 = 1 per ACK: past cwnd 8 at the 9th.
        let mut g = growth(2, false);
        assert_eq!((0..8).filter_map(|_| g.increase(|| a, &mut w)).count(), 0);
        assert_eq!(g.increase(|| a, &mut w), Some(9.0));
        assert!(!w.has_notices());
        assert_eq!(growth(7, false).increase(|| a, &mut w), None);
        assert!(w.has_notices(), "an undefined option stops the run in opencwnd");
    }
}
