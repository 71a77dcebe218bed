//! TCP Prague: the L4S scalable congestion control (RFC 9331's "Prague L4S
//! requirements", section 4.3; after Linux's out-of-tree `tcp_prague` of
//! the L4S team, simplified).  ns-2 2.35 has none.
//!
//! What it does here:
//!
//! * **ECT(1)** on its packets (`ECT1`), so an L4S queue (DualPI2) takes
//!   them; the receiver echoes CE exactly, as DCTCP's (the sender asks for
//!   it: `NEEDS_ECN`).  AccECN is not modelled: the echo is DCTCP's.
//! * **A scalable response**: alpha, the fraction of bytes marked, is an
//!   EWMA with g = 1/16 over each observation window (about one RTT, from
//!   one `snd_nxt` to the ACK covering it), as DCTCP's; on an ECN echo,
//!   once per window, the window becomes `cwnd * (1 - alpha / 2)`, kept
//!   with its fraction (tcp_prague keeps a fractional window too) so that
//!   small alphas still add up to cuts; at least 2.
//! * **Reno-like growth**: slow start as Reno's; in congestion avoidance
//!   one segment per window of bytes acknowledged, times the RTT-independence
//!   factor.
//! * **RTT independence** (optional, `rtt_scaling` 1; off by default): below
//!   `rtt_target_us` (25 ms, tcp_prague's target) the additive increase is
//!   scaled by (srtt / target)^2, so that the rate grows per unit of time as
//!   a flow of the target RTT's would, whatever the RTT (tcp_prague's
//!   "rate" RTT control).  Off by default: RFC 9332's coupling balances a
//!   Prague flow with a Reno-like classic flow of the same RTT when both
//!   grow by one segment per RTT, and tcp_prague's default scaling would
//!   slow a short-RTT Prague flow below such a classic flow.
//! * **Classic ECN fallback** (RFC 9331 section 4.3, item 3): a bottleneck
//!   that marks like an RFC 3168 AQM sits on a large queue, where an L4S
//!   queue keeps about 1 ms.  The flow estimates the queuing delay as the
//!   RTT less the smallest RTT seen, smoothed (gain 1/8); above
//!   `classic_qdelay_us` (5 ms) it takes the bottleneck for classic and
//!   answers an ECN echo as Reno does (halve), back to the scalable
//!   response once the estimate falls below half that.  This is a simple
//!   delay-based detector of our own, not tcp_prague's.
//! * A loss halves the window (Reno), as DCTCP's.
//!
//! Needs RTT samples (`rtt_sample`, in microseconds), so the sender keeps
//! send times.
//!
//! ## The full TCP's Prague (`cc="prague"`, the ns-3 dialect's hooks)
//!
//! ns-3.37 has no Prague; on the full TCP it follows the L4S team's Linux
//! `tcp_prague` (v0.6, the module with AccECN) more closely than the ns-2
//! version above, fed by AccECN (`socket/accecn.rs`, which the socket
//! negotiates for it):
//!
//! * **Per-ACK window** (`cong_control`): every ACK's delivered bytes less
//!   its CE-marked bytes (AccECN's option, or its CE packet count) grow
//!   the window: slow start by a segment per segment below ssthresh, then
//!   `ai / cwnd` segments per segment, kept in a fractional count, in Open
//!   and in CWR alike (tcp_prague's "unsaturated" additive increase, whose
//!   growth per RTT is (1 - p) segments under marking probability p).
//! * **ECN reduction**: entering CWR (the socket's once-a-window answer to
//!   AccECN's CE feedback) takes `alpha * cwnd / 2` off the fractional
//!   count; the count then moves the window by at most one segment per
//!   ACK, down or up, and a step down sets ssthresh to the window.
//! * **alpha**: once per round (the ACK passing `snd_nxt` of the round's
//!   start), after the first CE mark, `alpha = (1 - g) alpha + g F` with
//!   F the CE-marked share of the bytes delivered in the round (AccECN's
//!   byte counts; tcp_prague counts packets: the same with full segments),
//!   g = 1/2^`shift_g` (1/16); alpha starts at 1.
//! * **RTT independence** (`rtt_scaling` 1, tcp_prague's default
//!   `RTT_CONTROL_RATE`): after `rtt_transition` rounds out of slow start
//!   (500), below `rtt_target_us` (25 ms) the additive increase is scaled
//!   by (srtt / target)^2, alpha is updated and the window reduced at most
//!   once per target RTT.  0 turns it off; tcp_prague's other heuristics:
//!   2 `RTT_CONTROL_SCALABLE` (more than RATE's increase at small RTTs,
//!   more than 1 above about 16 ms, `update_ai`), 3
//!   `RTT_CONTROL_ADDITIVE` (RATE's with a target of `rtt_target_us` plus
//!   SRTT, the once-per-target updates too).
//! * **Loss**: the socket's recovery (PRR) with ssthresh half the window,
//!   as Reno (tcp_prague halves through its fractional count instead); the
//!   count is cleared and does not move the window until Open again.
//! * **Pacing**: the socket paces Prague's segments (`socket/pacing.rs`,
//!   the timer BBR's pacing uses) at tcp_prague's rate,
//!   `prague_update_pacing_rate`'s (`pacing::Rule::Prague`), set after
//!   this window on every ACK; on by default from Python, as tcp_prague
//!   always paces.  Its TSO burst bound has nothing to bound here (each
//!   segment is a packet).
//! * **Classic-ECN detection and fall-back** (`classic_ecn_fallback`, on
//!   by default here, off in the module): the section "Classic-ECN
//!   bottleneck detection" below, [`ClassicEcn`].
//! * **Growth only while cwnd-limited** (`cwnd_limited` 1; off by
//!   default, as the L4S team's module of March 2020): v0.6's
//!   `tcp_is_cwnd_limited` gate in `prague_update_cwnd`, the socket
//!   keeping Linux 6.x's record of window use for it.

use super::reno;
use super::{CaEvent, CaState, CongestionOps, Param, Sock, CA_ACK_ECE};

const SHIFT_G: usize = 0;
const RTT_SCALING: usize = 1;
const RTT_TARGET_US: usize = 2;
const CLASSIC_QDELAY_US: usize = 3;
/// The full TCP's attribute `rtt_transition` (its fourth).
const RTT_TRANSITION: usize = 3;
/// The full TCP's attribute `classic_ecn_fallback` (its fifth): 0 none,
/// 1 detection and fall-back, 2 detection only (tcp_prague's
/// `prague_ecn_fallback`).
const CLASSIC_ECN_FALLBACK: usize = 4;
/// The full TCP's attribute `cwnd_limited` (its sixth): 1 grows the window
/// only while `tcp_is_cwnd_limited` (tcp_prague v0.6's gate), 0 always.
pub(crate) const CWND_LIMITED: usize = 5;
/// tcp_prague's `MAX_SCALED_RTT`: no scaling above 100 ms.
const MAX_SCALED_RTT_NS: f64 = 100e6;
/// tcp_prague's RTT heuristics (`rtt_scaling`): 1 `RTT_CONTROL_RATE`,
/// 2 `RTT_CONTROL_SCALABLE`, 3 `RTT_CONTROL_ADDITIVE` (0: none).
const RTT_CONTROL_SCALABLE: i32 = 2;
const RTT_CONTROL_ADDITIVE: i32 = 3;
/// `prague_scalable_ai_ack_increase`'s R0 (2^14 us) and R1 (2^10 + 2^9 us).
const SCALABLE_R0_US: u64 = 16_384;
const SCALABLE_R1_US: u64 = 1_536;

#[derive(Clone, Debug, Default)]
pub struct Prague {
    /// The fraction of marked bytes (0..1).
    pub alpha: f64,
    prior_snd_una: u64,
    next_seq: u64,
    acked_bytes_total: u64,
    acked_bytes_ecn: u64,
    /// The window's fraction of a segment (cuts and scaled increases).
    pub frac: f64,
    /// Smoothed RTT (µs, gain 1/8; 0 before a sample) and the least seen.
    pub srtt_us: f64,
    pub min_rtt_us: f64,
    /// Smoothed queuing delay estimate (µs).
    pub qdelay_us: f64,
    /// The bottleneck is taken for a classic ECN AQM.
    pub classic: bool,
    loss_cwnd: u64,
    /// The full TCP's state (the ns-3 dialect's hooks).
    pub full: FullPrague,
}

/// tcp_prague's state on the full TCP (module header), in its fixed
/// point: windows and increases in 2^-20 segments (`CWND_UNIT`), alpha in
/// 2^-20 kept upscaled by 1/g so that its remainder carries over.
#[derive(Clone, Debug, Default)]
pub struct FullPrague {
    /// alpha * 2^20 / g (`upscaled_alpha`).
    pub upscaled_alpha: u64,
    /// The window's fractional count (`cwnd_cnt`, 2^-20 segments;
    /// negative: reductions to apply).
    pub cwnd_cnt: i64,
    /// Additive increase per acknowledged unmarked segment, before the
    /// division by cwnd (`ai_ack_increase`, 2^-20 segments).
    pub ai: u64,
    pub in_loss: bool,
    /// A CE mark was seen (alpha is updated only after one).
    pub saw_ce: bool,
    next_seq: u64,
    /// Rounds since slow start ended.
    pub round: u32,
    /// Bytes delivered and CE-marked, in all and at the round's start;
    /// unmarked bytes short of a segment.
    delivered: u64,
    delivered_ce: u64,
    old_delivered: u64,
    old_delivered_ce: u64,
    carry: u64,
    /// SRTT (ns) and the times of the last alpha update and CWR entry.
    srtt_ns: i64,
    alpha_stamp: i64,
    cwr_stamp: i64,
    /// The classic-ECN bottleneck detector.
    pub classic: ClassicEcn,
}

/// `CWND_UNIT` and `PRAGUE_ALPHA_BITS`: 2^20 is one.
const ONE: i64 = 1 << 20;

impl FullPrague {
    fn shift_g(sk: &Sock) -> u32 {
        sk.p[SHIFT_G].clamp(0, 20) as u32
    }

    /// alpha (0..1).
    pub fn alpha(&self, sk: &Sock) -> f64 {
        (self.upscaled_alpha >> Self::shift_g(sk)) as f64 / ONE as f64
    }

    /// The target RTT (us): `rtt_target_us`, plus SRTT with the ADDITIVE
    /// heuristic (`prague_target_rtt`, `prague_dynamic_rtt_target`).
    fn target_us(&self, sk: &Sock) -> u64 {
        let t = sk.p[RTT_TARGET_US].max(1) as u64;
        if sk.p[RTT_SCALING] == RTT_CONTROL_ADDITIVE {
            t + (self.srtt_ns.max(0) / 1000) as u64
        } else {
            t
        }
    }

    /// `prague_is_rtt_indep`.
    fn rtt_indep(&self, sk: &Sock) -> bool {
        sk.p[RTT_SCALING] != 0 && sk.snd_cwnd >= sk.snd_ssthresh && self.round >= sk.p[RTT_TRANSITION].max(0) as u32
    }

    /// `prague_ai_ack_increase`: 1 (2^20) before the transition rounds,
    /// without an RTT or above 100 ms; else by the heuristic
    /// (`rtt_scaling`): RATE and ADDITIVE (`prague_rate_scaled_ai_ack_increase`)
    /// (srtt / target)^2 below the target, rounded, ADDITIVE's target being
    /// `rtt_target_us` + srtt; SCALABLE (`prague_scalable_ai_ack_increase`)
    /// (R0 / 8 + min(max(srtt - R1, 0), R0)) srtt / R0^2, R0 16384 us and
    /// R1 1536 us (tcp_prague: "a floor on the amount of marks/RTT"),
    /// rounded.
    fn update_ai(&mut self, sk: &Sock) {
        let rtt = (self.srtt_ns.max(0) / 1000) as u64;
        let heuristic = sk.p[RTT_SCALING];
        self.ai = if heuristic == 0 || self.round < sk.p[RTT_TRANSITION].max(0) as u32 || rtt == 0 || rtt as f64 * 1000.0 > MAX_SCALED_RTT_NS {
            ONE as u64
        } else if heuristic == RTT_CONTROL_SCALABLE {
            let (r0, r1) = (SCALABLE_R0_US, SCALABLE_R1_US);
            let inc = ((ONE as u64 >> 3) * r0 + (ONE as u64) * rtt.saturating_sub(r1).min(r0)) * rtt;
            let div = r0 * r0;
            (inc + div / 2) / div
        } else {
            let target = self.target_us(sk);
            if rtt >= target {
                ONE as u64
            } else {
                let div = target * target;
                ((rtt << 20) * rtt + div / 2) / div
            }
        };
    }

    /// `prague_new_round`.
    fn new_round(&mut self, sk: &Sock) {
        self.next_seq = sk.snd_nxt;
        self.old_delivered = self.delivered;
        self.old_delivered_ce = self.delivered_ce;
        if sk.snd_cwnd >= sk.snd_ssthresh {
            self.round = self.round.saturating_add(1);
        }
        self.update_ai(sk);
    }

    fn init(&mut self, sk: &Sock) {
        *self = FullPrague { upscaled_alpha: (ONE as u64) << Self::shift_g(sk), ai: ONE as u64, alpha_stamp: sk.now_ns, srtt_ns: self.srtt_ns, classic: ClassicEcn::new(), ..FullPrague::default() };
        self.new_round(sk);
    }

    /// `prague_update_cwnd` then `prague_update_alpha`, on segments.  The
    /// `tcp_is_cwnd_limited` gate of v0.6 (`goto adjust` when not
    /// window-limited: no growth, the count still moving the window) with
    /// `cwnd_limited` 1, from the socket's tracking of Linux 6.x's
    /// (`Socket::cwnd_validate`); by default none, as the L4S team's
    /// module of March 2020, which also grew while internally paced with
    /// data to send (a bulk sender always has data; docs/full-tcp.md, "L4S
    /// rate balance").
    fn cong_control(&mut self, sk: &mut Sock, delivered: u64, ce: u64) {
        let mss = sk.mss_cache.max(1);
        let ce = ce.min(delivered);
        self.delivered += delivered;
        self.delivered_ce += ce;
        if ce > 0 {
            self.saw_ce = true;
        }
        // the unmarked segments (tcp_prague: `acked - ece_delta`)
        self.carry += delivered - ce;
        let mut acked = self.carry / mss;
        self.carry %= mss;
        if acked > 0 && !self.in_loss && (sk.p[CWND_LIMITED] == 0 || sk.cwnd_limited) {
            if sk.snd_cwnd < sk.snd_ssthresh {
                // `tcp_slow_start`
                let c = (sk.snd_cwnd + acked).min(sk.snd_ssthresh);
                acked -= c - sk.snd_cwnd;
                sk.snd_cwnd = c;
            }
            if acked > 0 {
                let cwnd = sk.snd_cwnd.max(1);
                let inc = (acked * self.ai + cwnd / 2) / cwnd;
                self.cwnd_cnt += inc.max(acked) as i64;
            }
        }
        if self.cwnd_cnt <= -ONE {
            self.cwnd_cnt += ONE;
            sk.snd_cwnd = sk.snd_cwnd.saturating_sub(1);
            if sk.snd_cwnd < 2 {
                sk.snd_cwnd = 2;
                self.cwnd_cnt = 0;
            }
            sk.snd_ssthresh = sk.snd_cwnd;
            self.update_ai(sk);
        } else if self.cwnd_cnt >= ONE {
            self.cwnd_cnt -= ONE;
            if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd += 1;
            }
            self.update_ai(sk);
        }
        // once per round (and per target RTT when RTT-independent)
        if sk.snd_una >= self.next_seq && (!self.rtt_indep(sk) || (sk.now_ns - self.alpha_stamp).max(0) as u64 >= self.target_us(sk) * 1000) {
            if self.saw_ce {
                if sk.p[CLASSIC_ECN_FALLBACK] > 0 {
                    self.classic.round();
                }
                let d = self.delivered - self.old_delivered;
                let ecn = self.delivered_ce - self.old_delivered_ce;
                let f = if ecn > 0 { (ecn << 20) / d.max(1) } else { 0 };
                let g = Self::shift_g(sk);
                let a = self.upscaled_alpha - (self.upscaled_alpha >> g) + f;
                self.upscaled_alpha = a.min((ONE as u64) << g);
                self.alpha_stamp = sk.now_ns;
            }
            self.new_round(sk);
        }
    }

    /// `prague_enter_cwr`: alpha * cwnd / 2 off the count, rounded.
    fn enter_cwr(&mut self, sk: &Sock) {
        if self.rtt_indep(sk) && ((sk.now_ns - self.cwr_stamp).max(0) as u64) < self.target_us(sk) * 1000 {
            return;
        }
        self.cwr_stamp = sk.now_ns;
        let mut alpha = self.upscaled_alpha >> Self::shift_g(sk);
        if sk.p[CLASSIC_ECN_FALLBACK] == 1 {
            alpha = self.classic.fallback_alpha(alpha);
        }
        let reduction = (alpha * (sk.snd_cwnd << 20) + ONE as u64) >> 21;
        self.cwnd_cnt -= reduction as i64;
    }

    fn enter_loss(&mut self) {
        self.in_loss = true;
        self.cwnd_cnt = 0;
        self.carry = 0;
    }
}

// ---------------------------------------------------------------------
// Classic-ECN bottleneck detection (the full TCP's Prague)
// ---------------------------------------------------------------------

/// The 2^-20 unit of alpha and of the classic-ECN score.
const SCORE_ONE: i64 = ONE;
/// tcp_prague's sticky bounds of the score: at or below `L_STICKY` (8)
/// the response is purely scalable; from there to `CLASSIC_ECN` (9) the
/// fall-back grows linearly; the score saturates at `C_STICKY` (17), so
/// that 8 units of contrary evidence are needed to leave either end
/// (tcp_prague: `L_STICKY`, `CLASSIC_ECN`, `C_STICKY`).
const L_STICKY: i64 = 8 * SCORE_ONE;
const CLASSIC_ECN: i64 = L_STICKY + SCORE_ONE;
const C_STICKY: i64 = CLASSIC_ECN + L_STICKY;
/// The reference delay variation V0 (750 us) and queue depth D0 (2 ms),
/// each term weighted 1/2 (tcp_prague's `V0_LG`, `D0_LG`, `V`, `D`).
const V0_US: f64 = 750.0;
const D0_US: f64 = 2000.0;
const WEIGHT_V: f64 = 0.5;
const WEIGHT_D: f64 = 0.5;
/// The largest gain shift of the low-gain RTT estimator (tcp_prague's
/// `PRAGUE_MAX_SRTT_BITS`; the deviation's is one more).
const MAX_SRTT_SHIFT: u32 = 18;

/// Classic-ECN bottleneck detection and the fall-back to a Reno-friendly
/// response (RFC 9331 section 4.3, item 3: a scalable congestion control
/// "MUST implement monitoring in order to detect a likely non-L4S but
/// ECN-capable AQM at the bottleneck" and SHOULD then adapt to coexist
/// with Reno).
///
/// Sources, rule by rule: the L4S team's tcp_prague v0.6 (L4STeam/linux,
/// `net/ipv4/tcp_prague.c`: `prague_rtt_estimator`,
/// `prague_update_rtt_scaling`, `prague_classic_ecn_detection`,
/// `prague_classic_ecn_fallback`, under its module parameter
/// `prague_ecn_fallback`, which is 0 there: off) and the design it
/// implements, Briscoe and Ahmed, "TCP Prague Fall-back on Detection of a
/// Classic ECN AQM" (arXiv:1911.00710): a classic AQM is told from an L4S
/// one mainly by the delay variation it lets through (an L4S queue is
/// kept around a millisecond; a classic one lets the queue swing by many).
///
/// 1. **Samples** (`prague_pkts_acked`): each ACK's RTT of the newest
///    segment it covers, to the microsecond (from `Sock::ack_sent`; Linux's
///    `ca_rtt_us`, not the RFC 6298 SRTT, which the delayed ACK and the
///    timestamp option's millisecond blur).
/// 2. **A low-gain estimator** (`prague_rtt_estimator`): srtt moves by
///    1/2^s of each sample's error, the mean deviation by 1/2^(s+1) of
///    the error's size less itself; the first sample sets srtt, and the
///    deviation to 1 us.  Kept upscaled (srtt * 2^s, mdev * 2^(s+1)) as
///    integers, as Linux keeps them.
/// 3. **The gain follows the window** (`prague_update_rtt_scaling`, at
///    each reduction, from the slow-start threshold S in segments before
///    it): s = lg + lg/2 + 1 with lg = floor(log2 S), at most 18, the
///    upscaled values shifted to the new s; s starts at 18.  A larger
///    window has more samples per RTT, so a smaller gain spans about the
///    same number of RTTs.
/// 4. **The score** (`prague_classic_ecn_detection`, once per alpha
///    update, i.e. once a round and only after a CE mark): it gains
///    V log2(mdev / V0), which is negative below V0, and, when srtt
///    exceeds the least sample, D max(log2((srtt - min) / D0), 0): queue
///    depth only pushes toward classic; then it is held to 0 ... 17.
///    tcp_prague takes an integer log2 with a carried remainder; here the
///    logarithm is exact (f64), rounded to the 2^-20 unit.  Its
///    self-limited term is commented out in tcp_prague and not here.
/// 5. **The fall-back** (`prague_classic_ecn_fallback`, entering CWR, mode
///    1 only): above `L_STICKY`, with c = min(score, 9) - 8 (0 ... 1),
///    alpha is used as at least c/2 + c/8 (about 0.6 c), so a fully
///    classic bottleneck cuts the window by at least 31%, about as CUBIC
///    (30%) and Reno (50%) do on a mark, instead of by a fraction of the
///    marked share.  alpha itself is not changed.  Mode 2 keeps the score
///    without acting on it.
#[derive(Clone, Debug)]
pub struct ClassicEcn {
    /// srtt * 2^shift and mdev * 2^(shift + 1), us (0: no sample yet).
    srtt_up: i64,
    mdev_up: i64,
    pub shift: u32,
    /// The least sample seen, us (i64::MAX: none).
    pub min_rtt_us: i64,
    /// The score, in 2^-20: 0 (L4S) ... `C_STICKY`.
    pub score: i64,
}

impl Default for ClassicEcn {
    fn default() -> Self {
        ClassicEcn::new()
    }
}

impl ClassicEcn {
    pub fn new() -> ClassicEcn {
        ClassicEcn { srtt_up: 0, mdev_up: 0, shift: MAX_SRTT_SHIFT, min_rtt_us: i64::MAX, score: 0 }
    }

    /// Rules 1 and 2: one RTT sample (us).
    pub fn sample(&mut self, rtt_us: i64) {
        if rtt_us <= 0 {
            return;
        }
        self.min_rtt_us = self.min_rtt_us.min(rtt_us);
        if self.srtt_up == 0 {
            self.srtt_up = rtt_us << self.shift;
            self.mdev_up = 1 << (self.shift + 1);
            return;
        }
        let err = rtt_us - (self.srtt_up >> self.shift);
        self.srtt_up = (self.srtt_up + err).max(1);
        self.mdev_up += err.abs() - (self.mdev_up >> (self.shift + 1));
    }

    /// The low-gain srtt and mean deviation (us, whole).
    pub fn srtt_us(&self) -> i64 {
        self.srtt_up >> self.shift
    }

    pub fn mdev_us(&self) -> i64 {
        self.mdev_up >> (self.shift + 1)
    }

    /// Rule 3: a reduction, with the slow-start threshold (segments)
    /// before it.
    pub fn set_gain(&mut self, ssthresh_segs: u64) {
        let lg = 63 - ssthresh_segs.max(1).leading_zeros();
        let new = (lg + lg / 2 + 1).min(MAX_SRTT_SHIFT);
        if new > self.shift {
            self.srtt_up <<= new - self.shift;
            self.mdev_up <<= new - self.shift;
        } else {
            self.srtt_up >>= self.shift - new;
            self.mdev_up >>= self.shift - new;
        }
        self.shift = new;
    }

    /// Rule 4: once a round.
    pub fn round(&mut self) {
        if self.srtt_up == 0 {
            return;
        }
        let unit = SCORE_ONE as f64;
        let mdev = (self.mdev_up as f64 / (1u64 << (self.shift + 1)) as f64).max(1.0);
        let mut score = self.score + (WEIGHT_V * (mdev / V0_US).log2() * unit).round() as i64;
        let srtt = self.srtt_up as f64 / (1u64 << self.shift) as f64;
        let depth = srtt - self.min_rtt_us as f64;
        if depth > D0_US {
            score += (WEIGHT_D * (depth / D0_US).log2() * unit).round() as i64;
        }
        self.score = score.clamp(0, C_STICKY);
    }

    /// Rule 5: the alpha a CWR reduction uses (2^-20 units).
    pub fn fallback_alpha(&self, alpha: u64) -> u64 {
        if self.score <= L_STICKY {
            return alpha;
        }
        let c = (self.score.min(CLASSIC_ECN) - L_STICKY) as u64;
        alpha.max((c >> 1) + (c >> 3))
    }

    /// The bottleneck is taken for classic, wholly or in part.
    pub fn is_classic(&self) -> bool {
        self.score > L_STICKY
    }
}

impl Prague {
    fn reset(&mut self, sk: &Sock) {
        self.next_seq = sk.snd_nxt;
        self.acked_bytes_ecn = 0;
        self.acked_bytes_total = 0;
    }

    fn react_to_loss(&mut self, sk: &mut Sock) {
        self.loss_cwnd = sk.snd_cwnd;
        self.frac = 0.0;
        sk.snd_ssthresh = (sk.snd_cwnd >> 1).max(2);
    }

    /// The additive increase's factor: (srtt / target)^2 below the target
    /// with `rtt_scaling`, else 1.
    pub fn ai_factor(&self, sk: &Sock) -> f64 {
        let target = sk.p[RTT_TARGET_US] as f64;
        if sk.p[RTT_SCALING] == 0 || self.srtt_us <= 0.0 || target <= 0.0 || self.srtt_us >= target {
            1.0
        } else {
            let r = self.srtt_us / target;
            r * r
        }
    }
}

impl CongestionOps for Prague {
    const NAME: &'static str = "prague";
    const PARAMS: &'static [Param] = &[
        Param { name: "shift_g", default: 4, about: "alpha's EWMA gain g = 1/2^shift_g" },
        Param { name: "rtt_scaling", default: 0, about: "1: scale the additive increase by (srtt/rtt_target)^2 below the target" },
        Param { name: "rtt_target_us", default: 25_000, about: "the RTT independence target (us)" },
        Param { name: "classic_qdelay_us", default: 5_000, about: "queuing delay (us) above which the bottleneck is taken for classic ECN (0: never)" },
    ];
    const NEEDS_ECN: bool = true;
    const ECT1: bool = true;
    const HAS_RTT_SAMPLE: bool = true;
    const NS3_PARAMS: &'static [Param] = &[
        Param { name: "shift_g", default: 4, about: "alpha's EWMA gain g = 1/2^shift_g" },
        Param { name: "rtt_scaling", default: 1, about: "RTT independence as tcp_prague's heuristics: 1 RTT_CONTROL_RATE (its default), 2 RTT_CONTROL_SCALABLE, 3 RTT_CONTROL_ADDITIVE; 0: none" },
        Param { name: "rtt_target_us", default: 25_000, about: "the RTT independence target (us)" },
        Param { name: "rtt_transition", default: 500, about: "rounds after slow start before RTT independence starts" },
        Param { name: "classic_ecn_fallback", default: 1, about: "classic-ECN bottleneck detection (tcp_prague's prague_ecn_fallback): 1 detect and fall back to a Reno-friendly cut, 2 detect only, 0 none" },
        Param { name: "cwnd_limited", default: 0, about: "1: grow the window only while cwnd-limited (tcp_prague v0.6's tcp_is_cwnd_limited gate); 0: always (the L4S team's module of March 2020, which also grew while paced)" },
    ];
    const NS3_CONG_CONTROL: bool = true;

    fn ns3_init(&mut self, sk: &mut Sock) {
        sk.load_segments();
        self.full.init(sk);
    }

    /// A loss: half the window (Reno), at least 2 segments.
    fn ns3_ssthresh(&mut self, sk: &mut Sock, _bytes_in_flight: u32) -> u32 {
        sk.load_segments();
        self.full.classic.set_gain(sk.snd_ssthresh);
        ((sk.snd_cwnd / 2).max(2) * sk.mss_cache.max(1)).min(u32::MAX as u64) as u32
    }

    /// Only after a timeout (the Loss state; Open and CWR go through
    /// `ns3_cong_control`): slow start, then a segment per window.
    fn ns3_increase_window(&mut self, sk: &mut Sock, segments_acked: u32) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        for _ in 0..segments_acked {
            if sk.snd_cwnd < sk.snd_ssthresh {
                sk.snd_cwnd += 1;
            } else {
                self.full.cwnd_cnt += ONE / sk.snd_cwnd.max(1) as i64;
                if self.full.cwnd_cnt >= ONE {
                    self.full.cwnd_cnt -= ONE;
                    sk.snd_cwnd += 1;
                }
            }
        }
        sk.store_segments(c, s);
    }

    /// The RTT estimate (SRTT), for the RTT independence.
    fn ns3_pkts_acked(&mut self, sk: &mut Sock, _segments_acked: u32, rtt_ns: i64) {
        if rtt_ns > 0 {
            self.full.srtt_ns = rtt_ns;
        }
        if sk.ack_sent >= 0.0 && sk.p[CLASSIC_ECN_FALLBACK] > 0 {
            let sent_ns = (sk.ack_sent * 1e9).round() as i64;
            self.full.classic.sample((sk.now_ns - sent_ns) / 1000);
        }
    }

    fn ns3_state_set(&mut self, sk: &mut Sock, new: CaState) {
        sk.load_segments();
        match new {
            CaState::Cwr => {
                if sk.ca_state != CaState::Cwr {
                    self.full.classic.set_gain(sk.snd_ssthresh);
                }
                self.full.enter_cwr(sk)
            }
            CaState::Recovery | CaState::Loss => self.full.enter_loss(),
            CaState::Open => self.full.in_loss = false,
            _ => {}
        }
    }

    fn ns3_cwnd_event(&mut self, _sk: &mut Sock, ev: CaEvent) {
        if ev == CaEvent::Loss {
            self.full.enter_loss();
        }
    }

    fn ns3_cong_control(&mut self, sk: &mut Sock, delivered: u64, ce: u64) {
        sk.load_segments();
        let (c, s) = (sk.snd_cwnd, sk.snd_ssthresh);
        self.full.cong_control(sk, delivered, ce);
        sk.store_segments(c, s);
    }

    fn init(&mut self, sk: &mut Sock) {
        self.prior_snd_una = sk.snd_una;
        self.alpha = 1.0;
        self.frac = 0.0;
        self.classic = false;
        self.reset(sk);
    }

    /// Scalable: `(cwnd + frac) * (1 - alpha/2)`; classic: half.
    fn ssthresh(&mut self, sk: &Sock) -> u64 {
        self.loss_cwnd = sk.snd_cwnd;
        if self.classic {
            self.frac = 0.0;
            return (sk.snd_cwnd >> 1).max(2);
        }
        let w = (sk.snd_cwnd as f64 + self.frac) * (1.0 - self.alpha / 2.0);
        if w <= 2.0 {
            self.frac = 0.0;
            return 2;
        }
        let whole = w.floor();
        self.frac = w - whole;
        whole as u64
    }

    fn cong_avoid(&mut self, sk: &mut Sock, _ack: u64, _rtt: u64, in_flight: u64, _good: bool) {
        if !sk.is_cwnd_limited(in_flight) {
            return;
        }
        if sk.snd_cwnd <= sk.snd_ssthresh {
            reno::cong_avoid(sk, in_flight);
            return;
        }
        let wnd_bytes = (sk.snd_cwnd * sk.mss_cache).max(1) as f64;
        self.frac += self.ai_factor(sk) * sk.bytes_acked as f64 / wnd_bytes;
        sk.bytes_acked = 0;
        while self.frac >= 1.0 {
            self.frac -= 1.0;
            if sk.snd_cwnd < sk.snd_cwnd_clamp as u64 {
                sk.snd_cwnd += 1;
            }
        }
    }

    fn rtt_sample(&mut self, sk: &mut Sock, usrtt: u64) {
        let r = usrtt as f64;
        if r <= 0.0 {
            return;
        }
        if self.srtt_us == 0.0 {
            self.srtt_us = r;
            self.min_rtt_us = r;
        } else {
            self.srtt_us += (r - self.srtt_us) / 8.0;
            self.min_rtt_us = self.min_rtt_us.min(r);
        }
        self.qdelay_us += (r - self.min_rtt_us - self.qdelay_us) / 8.0;
        let th = sk.p[CLASSIC_QDELAY_US] as f64;
        if th > 0.0 {
            if !self.classic && self.qdelay_us > th {
                self.classic = true;
            } else if self.classic && self.qdelay_us < th / 2.0 {
                self.classic = false;
            }
        }
    }

    fn set_state(&mut self, sk: &mut Sock, new: CaState) {
        if new == CaState::Recovery && sk.ca_state != CaState::Recovery {
            self.react_to_loss(sk);
        }
    }

    fn cwnd_event(&mut self, sk: &mut Sock, ev: CaEvent) {
        if ev == CaEvent::Loss {
            self.react_to_loss(sk);
        }
    }

    fn undo_cwnd(&mut self, sk: &Sock) -> u64 {
        sk.snd_cwnd.max(self.loss_cwnd)
    }

    fn in_ack_event(&mut self, sk: &mut Sock, flags: u32) {
        let mut acked = sk.snd_una.wrapping_sub(self.prior_snd_una);
        if acked == 0 {
            acked = sk.mss_cache;
        }
        if flags & CA_ACK_ECE != 0 {
            self.acked_bytes_ecn += acked;
        }
        self.acked_bytes_total += acked;
        self.prior_snd_una = sk.snd_una;
        if sk.snd_una >= self.next_seq {
            let g = 1.0 / (1u64 << sk.p[SHIFT_G].clamp(0, 20)) as f64;
            let f = self.acked_bytes_ecn as f64 / self.acked_bytes_total.max(1) as f64;
            self.alpha = (1.0 - g) * self.alpha + g * f;
            self.reset(sk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sock(cwnd: u64) -> Sock {
        let mut sk = Sock { snd_cwnd: cwnd, snd_ssthresh: 2, mss_cache: 1000, snd_cwnd_clamp: 10_000, ..Default::default() };
        for (i, p) in Prague::PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// alpha as DCTCP's, in floating point: from 1, a window with half its
    /// bytes marked gives 15/16 + 0.5/16 = 0.96875; then the cut of a
    /// window of 20: 20 * (1 - 0.484375) = 10.3125: 10, the 0.3125 kept;
    /// the next cut (alpha as it is) from 10 + 0.3125: 10.3125 * 0.515625
    /// = 5.3173828125: 5, the 0.3173828125 kept.
    #[test]
    fn scalable_cut_keeps_the_fraction() {
        let mut c = Prague::default();
        let mut sk = sock(20);
        sk.snd_nxt = 10_000;
        c.init(&mut sk);
        for i in 0..10 {
            sk.snd_una += 1000;
            c.in_ack_event(&mut sk, if i % 2 == 0 { CA_ACK_ECE } else { 0 });
        }
        assert_eq!(c.alpha, 0.96875);
        assert_eq!(c.ssthresh(&sk), 10);
        assert_eq!(c.frac, 0.3125);
        let sk = sock(10);
        assert_eq!(c.ssthresh(&sk), 5);
        assert_eq!(c.frac, 0.3173828125);
        // a small alpha: 0.01 on a window of 100 cuts 0.5 segment: 99 with
        // frac 0.5 kept (DCTCP's integer cut would leave 100)
        c.alpha = 0.01;
        c.frac = 0.0;
        assert_eq!(c.ssthresh(&sock(100)), 99);
        assert!((c.frac - 0.5).abs() < 1e-12);
    }

    /// Congestion avoidance: one segment per window of bytes acknowledged;
    /// with RTT scaling at srtt 10 ms (target 25 ms) the increase is
    /// (10/25)^2 = 0.16 of that: 100 segments' bytes on a window of 100
    /// add 0.16 segment.
    #[test]
    fn additive_increase_with_and_without_rtt_scaling() {
        let mut c = Prague::default();
        let mut sk = sock(100);
        c.init(&mut sk);
        sk.bytes_acked = 100_000;
        c.cong_avoid(&mut sk, 0, 0, 100, true);
        assert_eq!((sk.snd_cwnd, sk.bytes_acked), (101, 0));
        sk.p[RTT_SCALING] = 1;
        c.rtt_sample(&mut sk, 10_000);
        assert!((c.ai_factor(&sk) - 0.16).abs() < 1e-12);
        sk.snd_cwnd = 100;
        c.frac = 0.0;
        sk.bytes_acked = 100_000;
        c.cong_avoid(&mut sk, 0, 0, 100, true);
        assert_eq!(sk.snd_cwnd, 100);
        assert!((c.frac - 0.16).abs() < 1e-12);
        // at or above the target: factor 1
        c.srtt_us = 30_000.0;
        assert_eq!(c.ai_factor(&sk), 1.0);
    }

    /// The classic ECN fallback: RTT samples 10 ms then 30 ms: the
    /// queuing-delay estimate moves 1/8 of the way to 20 ms per sample:
    /// 2.5, 4.6875, 6.6 ms: classic at the third (> 5 ms), where an ECN
    /// echo halves the window whatever alpha; samples back at 10 ms bring
    /// it below 2.5 ms and the scalable response back.
    #[test]
    fn classic_ecn_fallback() {
        let mut c = Prague::default();
        let mut sk = sock(40);
        c.init(&mut sk);
        c.alpha = 0.1;
        c.rtt_sample(&mut sk, 10_000);
        assert_eq!((c.qdelay_us, c.classic), (0.0, false));
        c.rtt_sample(&mut sk, 30_000);
        assert_eq!(c.qdelay_us, 2_500.0);
        c.rtt_sample(&mut sk, 30_000);
        assert_eq!((c.qdelay_us, c.classic), (4_687.5, false));
        c.rtt_sample(&mut sk, 30_000);
        assert!(c.classic);
        assert_eq!(c.ssthresh(&sk), 20, "classic: half");
        for _ in 0..8 {
            c.rtt_sample(&mut sk, 10_000);
        }
        assert!(c.qdelay_us < 2_500.0 && !c.classic);
        // 40 * (1 - 0.05) = 38
        assert_eq!(c.ssthresh(&sk), 38);
    }

    /// A loss halves the window (Reno), and Prague's packets are ECT(1).
    #[test]
    fn loss_halves_and_packets_are_ect1() {
        let mut c = Prague::default();
        let mut sk = sock(30);
        c.init(&mut sk);
        c.set_state(&mut sk, CaState::Recovery);
        assert_eq!(sk.snd_ssthresh, 15);
        assert!(<Prague as CongestionOps>::ECT1 && <Prague as CongestionOps>::NEEDS_ECN);
        assert!(!<super::super::dctcp::Dctcp as CongestionOps>::ECT1);
    }

    fn full_sock(cwnd_segs: u64) -> Sock {
        let mut sk = Sock { mss_cache: 1000, cwnd_bytes: (cwnd_segs * 1000) as u32, ssthresh_bytes: (cwnd_segs * 1000) as u32, snd_cwnd_clamp: u32::MAX, ..Default::default() };
        for (i, p) in Prague::NS3_PARAMS.iter().enumerate() {
            sk.p[i] = p.default;
        }
        sk
    }

    /// The full TCP's per-ACK window (tcp_prague's `prague_update_cwnd`):
    /// at cwnd 10, 10 ACKs of one unmarked segment add 10 * 1/10 = 1
    /// segment; with 2 of 10 segments CE-marked only 8/10 (the unsaturated
    /// increase).  Entering CWR at alpha 1 takes 10/2 = 5 off the count,
    /// which then steps the window down one segment per ACK, ssthresh
    /// following it.
    #[test]
    fn full_tcp_per_ack_window() {
        let mut c = Prague::default();
        let mut sk = full_sock(10);
        c.ns3_init(&mut sk);
        assert_eq!((c.full.alpha(&sk), c.full.ai), (1.0, 1 << 20));
        sk.snd_nxt = 1_000_000;
        // each ACK: (2^20 + 5) / 10 = 104858; ten: 1048580, a segment and 4
        for _ in 0..10 {
            c.ns3_cong_control(&mut sk, 1000, 0);
        }
        assert_eq!((sk.cwnd_bytes, c.full.cwnd_cnt), (11_000, 4));
        let mut c = Prague::default();
        let mut sk = full_sock(10);
        c.ns3_init(&mut sk);
        sk.snd_nxt = 1_000_000;
        for i in 0..10 {
            c.ns3_cong_control(&mut sk, 1000, if i < 2 { 1000 } else { 0 });
        }
        assert_eq!((sk.cwnd_bytes, c.full.cwnd_cnt), (10_000, 8 * 104858));
        assert!(c.full.saw_ce);
        // CWR at alpha 1: (2^20 * 10 * 2^20 + 2^20) >> 21 = 5 * 2^20 off,
        // one segment a step
        c.ns3_state_set(&mut sk, CaState::Cwr);
        assert_eq!(c.full.cwnd_cnt, 8 * 104858 - 5 * (1 << 20));
        for k in 1..=4 {
            c.ns3_cong_control(&mut sk, 1000, 1000);
            assert_eq!((sk.cwnd_bytes, sk.ssthresh_bytes), (10_000 - k * 1000, 10_000 - k * 1000));
        }
        c.ns3_cong_control(&mut sk, 1000, 1000);
        assert_eq!(sk.cwnd_bytes, 6_000, "-0.2 left: no step");
    }

    /// tcp_prague v0.6's gate (`cwnd_limited` 1): ten unmarked ACKs at
    /// cwnd 10 add nothing while the socket reports the window not
    /// limiting (`tcp_is_cwnd_limited` false), a segment and 4 when it
    /// does, as without the gate; a cut still moves the window down.
    #[test]
    fn full_tcp_cwnd_limited_gate() {
        let mut c = Prague::default();
        let mut sk = full_sock(10);
        sk.p[CWND_LIMITED] = 1;
        c.ns3_init(&mut sk);
        sk.snd_nxt = 1_000_000;
        sk.cwnd_limited = false;
        for _ in 0..10 {
            c.ns3_cong_control(&mut sk, 1000, 0);
        }
        assert_eq!((sk.cwnd_bytes, c.full.cwnd_cnt), (10_000, 0));
        c.ns3_state_set(&mut sk, CaState::Cwr);
        c.ns3_cong_control(&mut sk, 1000, 0);
        assert_eq!(sk.cwnd_bytes, 9_000, "the cut's count steps the window down, gate or not");
        let mut c = Prague::default();
        let mut sk = full_sock(10);
        sk.p[CWND_LIMITED] = 1;
        c.ns3_init(&mut sk);
        sk.snd_nxt = 1_000_000;
        sk.cwnd_limited = true;
        for _ in 0..10 {
            c.ns3_cong_control(&mut sk, 1000, 0);
        }
        assert_eq!((sk.cwnd_bytes, c.full.cwnd_cnt), (11_000, 4));
    }

    /// alpha once per round: from 1, a round with a quarter of its bytes
    /// CE-marked gives 15/16 + 0.25/16 = 0.953125; before the first CE mark
    /// it is not updated.  RTT independence (tcp_prague's RATE heuristic)
    /// after the transition rounds: AI (srtt/target)^2 = (10/25)^2 = 0.16.
    #[test]
    fn full_tcp_alpha_and_rtt_scaling() {
        let mut c = Prague::default();
        let mut sk = full_sock(20);
        sk.snd_nxt = 4000;
        c.ns3_init(&mut sk);
        // a round of unmarked data: alpha stays 1 (no CE seen yet)
        sk.snd_una = 4000;
        sk.snd_nxt = 8000;
        c.ns3_cong_control(&mut sk, 4000, 0);
        assert_eq!(c.full.alpha(&sk), 1.0);
        for i in 0..4 {
            sk.snd_una += 1000;
            c.ns3_cong_control(&mut sk, 1000, if i == 0 { 1000 } else { 0 });
        }
        assert_eq!(c.full.alpha(&sk), 0.953125);
        // RTT scaling: srtt 10 ms, past the transition
        sk.p[RTT_TRANSITION] = 0;
        c.ns3_pkts_acked(&mut sk, 1, 10_000_000);
        c.full.update_ai(&sk);
        // 10000^2 * 2^20 / 25000^2 = 167772.16, rounded
        assert_eq!(c.full.ai, 167_772);
        sk.p[RTT_SCALING] = 0;
        c.full.update_ai(&sk);
        assert_eq!(c.full.ai, 1 << 20);
    }

    /// Classic-ECN detection, rules 1-3 (the low-gain estimator), worked
    /// by hand.  set_gain(2): lg 1, s = 1 + 0 + 1 = 2 (srtt gain 1/4,
    /// mdev 1/8).  Sample 10000 us: srtt_up 40000, mdev_up 8 (1 us).
    /// 14000: error 4000, srtt_up 44000 (11000 us), mdev_up 8 + 4000 - 1
    /// = 4007 (500 us).  6000: error -5000, srtt_up 39000 (9750), mdev_up
    /// 4007 + 5000 - 500 = 8507 (1063).  set_gain(100): lg 6, s = 6 + 3 +
    /// 1 = 10, both shifted up by 8 bits: the same srtt and mdev.
    /// set_gain(1000): s = 9 + 4 + 1 = 14; set_gain(10^5): 16 + 8 + 1,
    /// held to 18.
    #[test]
    fn classic_ecn_low_gain_estimator() {
        let mut d = ClassicEcn::new();
        assert_eq!(d.shift, 18);
        d.set_gain(2);
        assert_eq!(d.shift, 2);
        d.sample(10_000);
        assert_eq!((d.srtt_up, d.mdev_up, d.mdev_us()), (40_000, 8, 1));
        d.sample(14_000);
        assert_eq!((d.srtt_up, d.srtt_us(), d.mdev_up, d.mdev_us()), (44_000, 11_000, 4_007, 500));
        d.sample(6_000);
        assert_eq!((d.srtt_up, d.srtt_us(), d.mdev_up, d.mdev_us()), (39_000, 9_750, 8_507, 1_063));
        assert_eq!(d.min_rtt_us, 6_000);
        d.set_gain(100);
        assert_eq!((d.shift, d.srtt_up, d.srtt_us(), d.mdev_us()), (10, 39_000 << 8, 9_750, 1_063));
        d.set_gain(1000);
        assert_eq!(d.shift, 14);
        d.set_gain(100_000);
        assert_eq!((d.shift, d.srtt_us(), d.mdev_us()), (18, 9_750, 1_063));
        // no sample, no score
        let mut e = ClassicEcn::new();
        e.round();
        assert_eq!(e.score, 0);
    }

    /// Rules 4 and 5, worked by hand (the score in units of 2^20).  A delay
    /// variation of 3000 us, 4 V0, with no standing queue: +1/2 log2 4 =
    /// +1 a round; 8 rounds reach L_STICKY (8): still scalable, alpha
    /// untouched; the 9th (9): wholly classic, a CWR's alpha at least
    /// 5/8; the score stops at 17.  A variation of 187.5 us, V0/4: -1 a
    /// round: 8 rounds back to 9 (still classic), the 9th to 8 (scalable
    /// again).  Half way (8.5): c = 0.5, alpha at least 0.25 + 0.0625.  A
    /// standing queue of 8 ms, 4 D0, at a variation of V0: +1 a round; of
    /// 1 ms (below D0): nothing, never a decrease.
    #[test]
    fn classic_ecn_score_and_fallback() {
        let one = SCORE_ONE;
        let at = |srtt_us: i64, min_us: i64, mdev_x8: i64| {
            let mut d = ClassicEcn::new();
            d.set_gain(2);
            d.srtt_up = srtt_us << 2;
            d.mdev_up = mdev_x8;
            d.min_rtt_us = min_us;
            d
        };
        let alpha = 1u64 << 16; // 1/16
        let mut d = at(20_000, 20_000, 3000 * 8);
        for k in 1..=8 {
            d.round();
            assert_eq!(d.score, k * one);
        }
        assert!(!d.is_classic());
        assert_eq!(d.fallback_alpha(alpha), alpha);
        d.round();
        assert_eq!(d.score, 9 * one);
        assert!(d.is_classic());
        assert_eq!(d.fallback_alpha(alpha), 5 << 17, "5/8");
        assert_eq!(d.fallback_alpha(900_000), 900_000, "a larger alpha stays");
        for _ in 0..20 {
            d.round();
        }
        assert_eq!(d.score, 17 * one);
        d.mdev_up = 1500; // 187.5 us
        for k in 1..=8 {
            d.round();
            assert_eq!(d.score, (17 - k) * one);
        }
        assert_eq!(d.fallback_alpha(alpha), 5 << 17);
        d.round();
        assert_eq!((d.score, d.fallback_alpha(alpha)), (8 * one, alpha));
        for _ in 0..20 {
            d.round();
        }
        assert_eq!(d.score, 0, "held at 0");
        d.score = 8 * one + one / 2;
        assert_eq!(d.fallback_alpha(alpha), (1 << 18) + (1 << 16));
        // queue depth: 28 ms against a least RTT of 20 ms, at V0
        let mut d = at(28_000, 20_000, 750 * 8);
        d.round();
        d.round();
        assert_eq!(d.score, 2 * one);
        let mut d = at(21_000, 20_000, 750 * 8);
        d.round();
        assert_eq!(d.score, 0);
    }

    /// The fall-back in the full TCP's CWR (rule 5 in `enter_cwr`), and
    /// the parameter: alpha 1/16 at cwnd 20 takes (2^16 * 20 * 2^20 +
    /// 2^20) >> 21 = 655360 (0.625 segment) off; a wholly classic score
    /// makes it alpha 5/8: 6.25 segments (6553600); with
    /// `classic_ecn_fallback` 2 (detection only) or 0, 0.625 again.  The
    /// samples come from `pkts_acked`'s accurate RTT (us), not its SRTT,
    /// and only while the detection is on.
    #[test]
    fn classic_ecn_fallback_in_cwr() {
        let cut = |mode: i32| {
            let mut c = Prague::default();
            let mut sk = full_sock(20);
            sk.p[CLASSIC_ECN_FALLBACK] = mode;
            c.ns3_init(&mut sk);
            c.full.upscaled_alpha = (1 << 16) << 4;
            c.full.classic.score = C_STICKY;
            c.ns3_state_set(&mut sk, CaState::Cwr);
            -c.full.cwnd_cnt
        };
        assert_eq!(Prague::NS3_PARAMS[CLASSIC_ECN_FALLBACK].default, 1);
        assert_eq!((cut(1), cut(2), cut(0)), (6_553_600, 655_360, 655_360));
        let fed = |mode: i32| {
            let mut c = Prague::default();
            let mut sk = full_sock(20);
            sk.p[CLASSIC_ECN_FALLBACK] = mode;
            c.ns3_init(&mut sk);
            // sent at 1 s, acknowledged at 1.012345678 s: 12345 us
            sk.now_ns = 1_012_345_678;
            sk.ack_sent = 1.0;
            c.ns3_pkts_acked(&mut sk, 1, 30_000_000);
            sk.ack_sent = -1.0;
            c.ns3_pkts_acked(&mut sk, 1, 30_000_000);
            (c.full.classic.srtt_us(), c.full.classic.min_rtt_us)
        };
        assert_eq!(fed(1), (12_345, 12_345));
        assert_eq!(fed(0), (0, i64::MAX));
    }

    /// tcp_prague's other RTT heuristics from their equations.  SCALABLE
    /// (`rtt_scaling` 2), R0 16384 us, R1 1536 us: at srtt 10 ms
    /// (2^17 * 16384 + 2^20 * (10000 - 1536)) * 10000 / 16384^2 =
    /// 410625.0 (0.39 of a segment); at 1 ms the floor 2^17 * 16384 * 1000 /
    /// 16384^2 = 8000; at 30 ms 2160000, above 1 (no cap at the target).
    /// ADDITIVE (3): the target is 25 ms + srtt, so at 10 ms (10/35)^2 *
    /// 2^20 = 85598.04: 85598, and a CWR counts at most once per 35 ms: a
    /// second one 30 ms after the first is ignored, where RATE's 25 ms
    /// takes it (alpha 1, cwnd 20: 10 segments off each time).
    #[test]
    fn full_tcp_scalable_and_additive_rtt_heuristics() {
        let ai = |heuristic: i32, srtt_ms: i64| {
            let mut c = Prague::default();
            let mut sk = full_sock(20);
            sk.p[RTT_SCALING] = heuristic;
            sk.p[RTT_TRANSITION] = 0;
            c.ns3_init(&mut sk);
            c.ns3_pkts_acked(&mut sk, 1, srtt_ms * 1_000_000);
            c.full.update_ai(&sk);
            c.full.ai
        };
        assert_eq!((ai(2, 10), ai(2, 1), ai(2, 30)), (410_625, 8_000, 2_160_000));
        assert_eq!(ai(3, 10), 85_598);
        assert_eq!(ai(1, 10), 167_772);
        let cuts = |heuristic: i32| {
            let mut c = Prague::default();
            let mut sk = full_sock(20);
            sk.p[RTT_SCALING] = heuristic;
            sk.p[RTT_TRANSITION] = 0;
            c.ns3_init(&mut sk);
            c.ns3_pkts_acked(&mut sk, 1, 10_000_000);
            let mut cnt = Vec::new();
            for now_ms in [100, 130] {
                sk.now_ns = now_ms * 1_000_000;
                c.ns3_state_set(&mut sk, CaState::Cwr);
                cnt.push(c.full.cwnd_cnt / ONE);
            }
            cnt
        };
        assert_eq!(cuts(3), [-10, -10], "ADDITIVE: 30 ms < 25 + 10 ms");
        assert_eq!(cuts(1), [-10, -20], "RATE: 30 ms >= 25 ms");
        assert_eq!(cuts(0), [-10, -20], "none: every CWR");
    }
}
