//! DualPI2, the coupled dual-queue AQM of L4S (RFC 9332, its Appendix A:
//! "DualQ Coupled PI2").
//!
//! Two FIFOs share one buffer: the L4S queue takes the packets whose ECN
//! field is ECT(1) or CE, the classic queue every other (Not-ECT and
//! ECT(0)).  One PI controller, run every `t_update` on the classic queue's
//! delay (the sojourn time of its head packet), moves the base probability
//! p':
//!
//! ```text
//!     p' <- p' + alpha * (curq - target) + beta * (curq - prevq)    (clamped to [0, 1])
//! ```
//!
//! and the two queues use it differently (the coupling):
//!
//! * a classic packet is dropped, or marked CE if ECN-capable, with
//!   probability p_C = p'^2, drawn as `p' > max(u1, u2)` (two uniform
//!   draws: the "squared" drop that suits Reno/CUBIC's 1/sqrt(p) response);
//! * an L4S packet is marked with probability p_L = max(p'_L, p_CL), where
//!   p_CL = min(k * p', 1) is the coupled probability (k = 2) and p'_L is the
//!   L4S queue's own (native) AQM: a step at `step_thresh` of sojourn time
//!   (1 ms), applied only while the L4S queue holds more than
//!   `step_min_bytes` after the packet left (RFC 9332's T_len, two MTUs), or,
//!   with `ramp_range` > 0, a ramp from 0 at `step_thresh` to 1 at
//!   `step_thresh + ramp_range` (Appendix A.2's `laqm`), or, with
//!   `step_packets` > 0, a step on the L4S queue's length in packets after
//!   the packet left, as Linux sch_dualpi2 offers (`step_thresh` in packets).
//!   With `min_qlen_step` >= 0 the gate is Linux sch_dualpi2's instead of
//!   T_len: the step (or ramp) applies to an L4S packet that found at
//!   least `min_qlen_step` packets in the L4S queue when it arrived
//!   (`skb_apply_step`, decided at enqueue; Linux's default 0 applies it
//!   to every L4S packet, also one that leaves the queue empty).
//!
//! Marking and dropping happen at dequeue, as in the RFC's pseudocode; a
//! packet dropped there is an early drop and the next packet is taken.
//! Overload is k * p' >= 1 (the L4S probability saturated, p_C at p_Cmax
//! = 1/k^2: RFC 9332 A.1).  There, with `drop_on_overload` (the default),
//! ECN-capable packets of both queues meet Classic drop, as RFC 9332
//! section 4.2.3 requires of overload (Classic drop for both kinds of
//! ECN-capable traffic until it subsides) and Linux sch_dualpi2 does by default
//! (`drop_overload`; `dualpi2_scalable_marking`): a classic packet drawn
//! with p'^2 is dropped whatever its ECN field, an L4S one drawn with
//! p'^2 is dropped and every other L4S packet marked.  Without it, Linux's
//! `overflow` mode: the PI update caps p' at 1/k (`calculate_probability`),
//! so overload never comes, ECN-capable packets are only marked and the
//! buffer's tail drop is left to hold the queue.
//!
//! The scheduler between the two queues is, by default, Linux
//! sch_dualpi2's weighted round robin with classic protection (`pick`: the
//! classic queue gets `c_protection` percent, 10, of the bytes sent while
//! both are backlogged; as Linux's `__dualpi2_qdisc_dequeue`, a packet
//! the AQM drops moves no credit), or with `tsfifo` the time-shifted FIFO of RFC 9332
//! section 4.2.2: it serves the L4S queue unless the classic head has
//! waited more than `tshift` (50 ms) longer than the L4S head.  As Linux's,
//! the PI reads the larger of the two heads' sojourns (`pi_max`), and no
//! coupled mark or classic drop happens below `min_bytes` (two MTUs)
//! queued (`must_drop`).  With the RFC's choices (TS-FIFO, the classic
//! delay alone, no threshold) unpaced L4S bursts made p' swing and the
//! squared classic probability bite (docs/aqm.md).
//!
//! The buffer is the queue's capacity, shared: an arrival that finds
//! `limit` packets held (or, counted in bytes, no room for it) is dropped,
//! whichever queue it is for.
//!
//! Defaults are RFC 9332's and Linux's `sch_dualpi2`: target 15 ms, tupdate
//! 16 ms, alpha 0.16 Hz, beta 3.2 Hz, k 2, step 1 ms.  As PIE here
//! (`pie.rs`), the periodic update has no timer event: the updates due by a
//! packet's arrival or departure are run, in order, when the queue sees it
//! (nothing else reads p' in between, and the queues' heads cannot have
//! changed since the last packet event, so the classic head's sojourn at an
//! update time is exact).  Updates fall at multiples of `t_update` from
//! time 0.
//!
//! Random numbers: ns-2's `Random::uniform()`, the default stream, as
//! RED's and PIE's; a draw is made only where a probability is strictly
//! between 0 and 1 (a draw could not change the answer otherwise), so an
//! idle AQM takes nothing from the stream.  The unit tests feed their own
//! draws (`do_dequeue`'s closure).

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::{PacketPool, PktId};
use crate::ring::Ring;
use crate::sim::World;

/// The MTU of Linux's credit arithmetic (bytes).
const MTU: i64 = 1500;

/// A time in seconds as whole nanoseconds (to the nearest).
#[inline]
fn nanos(seconds: f64) -> i64 {
    (seconds * 1e9).round() as i64
}

/// DualPI2's parameters and state, and the packets of its two queues.
#[derive(Debug, Clone)]
pub struct DualPi2 {
    /// The L4S queue (ECT(1), CE) and when each packet arrived (ns).
    pub lq: Fifo,
    l_stamps: Ring<i64>,
    /// Whether each L4S packet may take the step (Linux's `apply_step`,
    /// set at its arrival; used with `min_qlen_step` >= 0).
    l_apply_step: Ring<bool>,
    /// The classic queue (Not-ECT, ECT(0)) and its arrival times.
    pub cq: Fifo,
    c_stamps: Ring<i64>,
    // ---- parameters (times in nanoseconds) ----
    /// The classic queue's delay target (15 ms).
    pub target: i64,
    /// Period of the PI update (16 ms).
    pub t_update: i64,
    /// Integral gain, per second (0.16).
    pub alpha: f64,
    /// Proportional gain, per second (3.2).
    pub beta: f64,
    /// Coupling factor k (2): p_CL = k * p'.
    pub k: f64,
    /// The L4S queue's step threshold on sojourn time (1 ms); with a ramp,
    /// where the ramp starts.
    pub step_thresh: i64,
    /// The native L4S AQM marks only while the L4S queue holds more than
    /// this many bytes after the packet left (T_len: 2 MTUs, 3000).
    pub step_min_bytes: i64,
    /// Width of the ramp above `step_thresh` (0: a step).
    pub ramp_range: i64,
    /// The step in packets (Linux sch_dualpi2's `step_thresh` given in
    /// packets): an L4S packet is marked when more than this many packets
    /// stay in the L4S queue after it left, whatever its sojourn; 0: the
    /// step is on sojourn time (`step_thresh`).
    pub step_packets: u32,
    /// Linux sch_dualpi2's `min_qlen_step` (packets): when 0 or more, the
    /// native AQM applies to an L4S packet that found at least this many
    /// packets in the L4S queue at its arrival (`skb_apply_step`), and
    /// `step_min_bytes` (T_len) is unused; -1 (the default): RFC 9332's
    /// T_len rule.  Linux's default is 0: every L4S packet.
    pub min_qlen_step: i64,
    /// The time shift of the TS-FIFO scheduler (50 ms), used with `tsfifo`.
    pub tshift: i64,
    /// The scheduler is RFC 9332's time-shifted FIFO (else, the default,
    /// Linux sch_dualpi2's weighted round robin with classic protection).
    pub tsfifo: bool,
    /// The classic queue's weight in the round robin, percent (10: while
    /// both queues hold packets the classic one gets a tenth of the bytes).
    pub c_protection: i64,
    /// No coupled mark and no classic drop or mark while the two queues
    /// hold fewer than this many bytes after the packet left (Linux's
    /// `must_drop`: two MTUs, 3000).
    pub min_bytes: i64,
    /// The PI core reads the larger of the two heads' sojourn times (Linux
    /// sch_dualpi2), else the classic head's alone.
    pub pi_max: bool,
    /// On overload (k p' >= 1) ECN-capable packets of both queues meet
    /// Classic drop, p'^2 (RFC 9332 section 4.2.3; Linux's `drop_overload`,
    /// its default); off: Linux's `overflow`, p' capped at 1/k.
    pub drop_on_overload: bool,
    // ---- state ----
    /// The round robin's credit (bytes times weight; <= 0: L4S's turn).
    credit: i64,
    /// The base probability p'.
    pub p: f64,
    /// The classic head's sojourn at the last update (`prevq`, ns).
    prevq: i64,
    /// When the next update is due (ns).
    next_update: i64,
    // ---- statistics ----
    /// Packets that arrived for each queue (dropped at arrival or not).
    pub l_arrivals: u64,
    pub c_arrivals: u64,
    /// Packets each queue sent on.
    pub l_departures: u64,
    pub c_departures: u64,
    /// Sum of the sojourn times of the packets each queue sent (seconds).
    pub l_sojourn_sum: f64,
    pub c_sojourn_sum: f64,
    /// CE marks given: L4S by the native AQM, L4S by the coupling, classic.
    pub l_native_marks: u64,
    pub l_coupled_marks: u64,
    pub c_marks: u64,
    /// Classic packets dropped by the AQM at dequeue.
    pub c_aqm_drops: u64,
    /// L4S packets dropped by the AQM at dequeue (overload only).
    pub l_aqm_drops: u64,
    /// Arrivals dropped because the shared buffer was full.
    pub overflows: u64,
}

impl Default for DualPi2 {
    fn default() -> Self {
        DualPi2::new()
    }
}

/// Which queue a dequeue takes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    L4s,
    Classic,
}

impl DualPi2 {
    pub fn new() -> DualPi2 {
        DualPi2 {
            lq: Fifo::default(),
            l_stamps: Ring::default(),
            l_apply_step: Ring::default(),
            cq: Fifo::default(),
            c_stamps: Ring::default(),
            target: 15_000_000,
            t_update: 16_000_000,
            alpha: 0.16,
            beta: 3.2,
            k: 2.0,
            step_thresh: 1_000_000,
            step_min_bytes: 3000,
            ramp_range: 0,
            step_packets: 0,
            min_qlen_step: -1,
            tshift: 50_000_000,
            tsfifo: false,
            c_protection: 10,
            min_bytes: 3000,
            pi_max: true,
            drop_on_overload: true,
            credit: Self::credit_init(10),
            p: 0.0,
            prevq: 0,
            next_update: 16_000_000,
            l_arrivals: 0,
            c_arrivals: 0,
            l_departures: 0,
            c_departures: 0,
            l_sojourn_sum: 0.0,
            c_sojourn_sum: 0.0,
            l_native_marks: 0,
            l_coupled_marks: 0,
            c_marks: 0,
            c_aqm_drops: 0,
            l_aqm_drops: 0,
            overflows: 0,
        }
    }

    /// The round robin's credit when it restarts (Linux: an MTU times
    /// wc - wl, so the L4S queue goes first when its weight is larger).
    fn credit_init(wc: i64) -> i64 {
        MTU * (2 * wc - 100)
    }

    /// Set the classic weight (percent) and restart the round robin.
    pub fn set_c_protection(&mut self, wc: i64) {
        self.c_protection = wc.clamp(0, 100);
        self.credit = Self::credit_init(self.c_protection);
    }

    /// Set the update period, the next update falling at its next multiple
    /// after `now` (ns).
    pub fn set_t_update(&mut self, t: i64, now: i64) {
        self.t_update = t.max(1);
        self.next_update = (now / self.t_update + 1) * self.t_update;
    }

    /// The coupled L4S probability p_CL = min(k p', 1).
    #[inline]
    pub fn p_cl(&self) -> f64 {
        (self.k * self.p).min(1.0)
    }

    /// The classic probability p_C = p'^2.
    #[inline]
    pub fn p_c(&self) -> f64 {
        self.p * self.p
    }

    /// The sojourn time at `now` of a queue's head (0 when empty).
    #[inline]
    fn head_sojourn(stamps: &Ring<i64>, now: i64) -> i64 {
        stamps.front().map_or(0, |&t| now - t)
    }

    /// One PI update at `at` (RFC 9332 A.1's `dualpi2_update`): the classic
    /// head's sojourn moves p' by alpha times its distance from the target
    /// plus beta times its change since the last update; p' stays in [0, 1],
    /// and without `drop_on_overload` in [0, 1/k] (Linux's
    /// `calculate_probability` in its `overflow` mode).
    pub fn update(&mut self, at: i64) {
        let mut curq = Self::head_sojourn(&self.c_stamps, at);
        if self.pi_max {
            curq = curq.max(Self::head_sojourn(&self.l_stamps, at));
        }
        let secs = |ns: i64| ns as f64 * 1e-9;
        let p = self.p + self.alpha * secs(curq - self.target) + self.beta * secs(curq - self.prevq);
        self.p = p.clamp(0.0, 1.0);
        if !self.drop_on_overload {
            self.p = self.p.min(1.0 / self.k);
        }
        self.prevq = curq;
    }

    /// Run the updates due by `now` (those at `now` included), in order.
    /// With both queues empty and p' at 0 an update changes nothing but
    /// `prevq` (0 already): the rest of such a run is skipped.
    pub fn catch_up(&mut self, now: i64) {
        while self.next_update <= now {
            let at = self.next_update;
            self.update(at);
            self.next_update += self.t_update;
            if self.p == 0.0 && self.prevq == 0 && self.c_stamps.is_empty() && (!self.pi_max || self.l_stamps.is_empty()) && self.next_update <= now {
                let skip = (now - self.next_update) / self.t_update + 1;
                self.next_update += skip * self.t_update;
            }
        }
    }

    /// The scheduler's choice and the change to the credit if the packet
    /// it takes is sent: the time-shifted FIFO's (no credit), or the round
    /// robin's (Linux's `dequeue_packet`: the L4S queue while the classic
    /// one is empty or the credit is not positive; an L4S packet sent
    /// while classic ones wait adds wc times its bytes to the credit, a
    /// classic one sent while L4S ones wait takes wl = 100 - wc times its
    /// bytes; both empty: the credit restarts).  The caller adds the change
    /// only for a packet it sends (`__dualpi2_qdisc_dequeue`: none for a
    /// packet the AQM drops).
    #[inline]
    pub(crate) fn pick(&mut self, pool: &PacketPool, now: i64) -> Option<(Which, i64)> {
        if self.tsfifo {
            return self.schedule(now).map(|w| (w, 0));
        }
        let (l, c) = (self.lq.get(0), self.cq.get(0));
        match (l, c) {
            (None, None) => {
                self.credit = Self::credit_init(self.c_protection);
                None
            }
            (Some(p), c) if c.is_none() || self.credit <= 0 => {
                let change = if c.is_some() { self.c_protection * pool.get(p).size as i64 } else { 0 };
                Some((Which::L4s, change))
            }
            (l, Some(p)) => {
                let change = if l.is_some() { -(100 - self.c_protection) * pool.get(p).size as i64 } else { 0 };
                Some((Which::Classic, change))
            }
            (Some(_), None) => unreachable!(),
        }
    }

    /// The time-shifted FIFO's choice with both queues' heads at hand.
    #[inline]
    pub fn schedule(&self, now: i64) -> Option<Which> {
        match (self.l_stamps.front(), self.c_stamps.front()) {
            (None, None) => None,
            (Some(_), None) => Some(Which::L4s),
            (None, Some(_)) => Some(Which::Classic),
            (Some(&tl), Some(&tc)) => {
                if (now - tl) + self.tshift >= now - tc {
                    Some(Which::L4s)
                } else {
                    Some(Which::Classic)
                }
            }
        }
    }

    /// The native L4S AQM's probability for a packet of sojourn `qdelay`,
    /// the L4S queue then holding `l_bytes`: the step (0 or 1), or the ramp.
    #[inline]
    pub fn native_l4s(&self, qdelay: i64, l_bytes: i64) -> f64 {
        if l_bytes <= self.step_min_bytes {
            return 0.0;
        }
        self.native_on_delay(qdelay)
    }

    /// The step (0 or 1) or the ramp for a sojourn of `qdelay`, ungated.
    #[inline]
    fn native_on_delay(&self, qdelay: i64) -> f64 {
        if self.ramp_range <= 0 {
            if qdelay > self.step_thresh {
                1.0
            } else {
                0.0
            }
        } else if qdelay >= self.step_thresh + self.ramp_range {
            1.0
        } else if qdelay > self.step_thresh {
            (qdelay - self.step_thresh) as f64 / self.ramp_range as f64
        } else {
            0.0
        }
    }

    /// The packet step's probability (0 or 1) for a packet that leaves
    /// `l_len` packets (`l_bytes` bytes) in the L4S queue: marked when more
    /// than `step_packets` are left (Linux's `do_step_aqm` in packets, the
    /// queue's length read after the dequeue), and, as the time step, only
    /// above T_len bytes.
    #[inline]
    pub fn native_l4s_packets(&self, l_len: usize, l_bytes: i64) -> f64 {
        if l_bytes > self.step_min_bytes && l_len > self.step_packets as usize {
            1.0
        } else {
            0.0
        }
    }

    /// Classify and queue `p` (RFC 9332 A.1's `dualpi2_enqueue`), or drop
    /// it if the shared buffer is full.
    pub(crate) fn do_enqueue(&mut self, cap: &Capacity, pool: &PacketPool, now: i64, p: PktId) -> Verdict {
        let l4s = pool.is_ect1(p) || pool.get(p).ecn_to_echo;
        if l4s {
            self.l_arrivals += 1;
        } else {
            self.c_arrivals += 1;
        }
        let full = if cap.in_bytes {
            self.lq.bytes() + self.cq.bytes() + pool.get(p).size as i64 > cap.limit_bytes()
        } else {
            (self.lq.len() + self.cq.len()) as i64 >= cap.limit as i64
        };
        if full {
            self.overflows += 1;
            return Verdict::Dropped(p);
        }
        if l4s {
            // Linux's `skb_apply_step`: the L4S queue's length before
            // this packet joins it, against `min_qlen_step`
            self.l_apply_step.push_back(self.min_qlen_step >= 0 && self.lq.len() as i64 >= self.min_qlen_step);
            self.lq.push(pool, p);
            self.l_stamps.push_back(now);
        } else {
            self.cq.push(pool, p);
            self.c_stamps.push_back(now);
        }
        Verdict::Queued
    }

    /// The next packet (RFC 9332 A.1's `dualpi2_dequeue`): the scheduler
    /// picks a queue; an L4S packet is marked with p_L (on overload, with
    /// `drop_on_overload`, dropped with p'^2 and else marked), a classic
    /// one dropped (Not-ECT, or on overload) or marked with p_C, a dropped
    /// one going to `drops` and the loop taking the next.  `draw` is the
    /// uniform draw.
    pub(crate) fn do_dequeue(&mut self, pool: &mut PacketPool, now: i64, drops: &mut Drops, mut draw: impl FnMut() -> f64) -> Option<PktId> {
        loop {
            let (which, credit_change) = self.pick(pool, now)?;
            match which {
                Which::L4s => {
                    let p = self.lq.pop(pool).expect("L4S queue in step with its stamps");
                    let t = self.l_stamps.pop_front().expect("a stamp per packet");
                    let apply_step = self.l_apply_step.pop_front().expect("a step flag per packet");
                    let qdelay = now - t;
                    if self.drop_on_overload && !self.quiet() && self.overload() {
                        // Classic drop for L4S packets on overload (RFC 9332
                        // section 4.2.3; Linux's `dualpi2_scalable_marking`):
                        // p'^2, the rest marked (p_L saturated at 1)
                        if self.p >= 1.0 || self.p > draw().max(draw()) {
                            self.l_aqm_drops += 1;
                            drops.push(p);
                            continue;
                        }
                    }
                    self.credit += credit_change;
                    self.l_departures += 1;
                    self.l_sojourn_sum += qdelay as f64 * 1e-9;
                    let native = if self.min_qlen_step >= 0 {
                        // Linux's `do_step_aqm`: the flag set at arrival,
                        // then the queue's length left (packets) or the
                        // packet's sojourn against the threshold
                        if !apply_step {
                            0.0
                        } else if self.step_packets > 0 {
                            if self.lq.len() > self.step_packets as usize {
                                1.0
                            } else {
                                0.0
                            }
                        } else {
                            self.native_on_delay(qdelay)
                        }
                    } else if self.step_packets > 0 {
                        self.native_l4s_packets(self.lq.len(), self.lq.bytes())
                    } else {
                        self.native_l4s(qdelay, self.lq.bytes())
                    };
                    let coupled = if self.quiet() { 0.0 } else { self.p_cl() };
                    let pl = native.max(coupled);
                    if pl >= 1.0 || (pl > 0.0 && pl > draw()) {
                        let pk = pool.get_mut(p);
                        if pk.ecn_capable {
                            pk.ecn_to_echo = true;
                        }
                        if native >= coupled {
                            self.l_native_marks += 1;
                        } else {
                            self.l_coupled_marks += 1;
                        }
                    }
                    return Some(p);
                }
                Which::Classic => {
                    let p = self.cq.pop(pool).expect("classic queue in step with its stamps");
                    let t = self.c_stamps.pop_front().expect("a stamp per packet");
                    let qdelay = now - t;
                    if self.p > 0.0 && !self.quiet() && self.p > draw().max(draw()) {
                        let overload = self.overload();
                        let pk = pool.get_mut(p);
                        if !pk.ecn_capable || overload {
                            self.c_aqm_drops += 1;
                            drops.push(p);
                            continue;
                        }
                        pk.ecn_to_echo = true;
                        self.c_marks += 1;
                    }
                    self.credit += credit_change;
                    self.c_departures += 1;
                    self.c_sojourn_sum += qdelay as f64 * 1e-9;
                    return Some(p);
                }
            }
        }
    }

    /// Too little is queued for the PI's marks and drops (`min_bytes`).
    #[inline]
    fn quiet(&self) -> bool {
        self.lq.bytes() + self.cq.bytes() < self.min_bytes
    }

    /// Overload: the coupled L4S probability k p' has reached 1, p_C =
    /// p'^2 its maximum p_Cmax = 1/k^2 (RFC 9332 A.1; Linux tests k p'
    /// strictly above 1 in 32-bit fixed point, the same but at p' = 1/k).
    /// Without `drop_on_overload` the update keeps k p' at or below 1 and
    /// the test is Linux's strict one (p' set by hand above 1/k is
    /// overload until the next update, as in Linux).
    #[inline]
    fn overload(&self) -> bool {
        if self.drop_on_overload {
            self.k * self.p >= 1.0
        } else {
            self.k * self.p > 1.0
        }
    }

    /// Mean sojourn time of the packets the L4S queue sent (seconds).
    pub fn l_mean_delay(&self) -> f64 {
        if self.l_departures == 0 {
            0.0
        } else {
            self.l_sojourn_sum / self.l_departures as f64
        }
    }

    /// Mean sojourn time of the packets the classic queue sent (seconds).
    pub fn c_mean_delay(&self) -> f64 {
        if self.c_departures == 0 {
            0.0
        } else {
            self.c_sojourn_sum / self.c_departures as f64
        }
    }
}

impl Discipline for DualPi2 {
    #[inline]
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        let now = nanos(w.s.now);
        self.catch_up(now);
        self.do_enqueue(cap, &w.pool, now, p)
    }

    #[inline]
    fn dequeue(&mut self, w: &mut World, drops: &mut Drops) -> Option<PktId> {
        let now = nanos(w.s.now);
        self.catch_up(now);
        let World { pool, rng, .. } = w;
        self.do_dequeue(pool, now, drops, || rng.default_stream().uniform_double())
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.lq.len() + self.cq.len()
    }

    #[inline(always)]
    fn bytes(&self) -> i64 {
        self.lq.bytes() + self.cq.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: i64 = 1_000_000;

    /// A pool with packets of 1000 bytes: `kinds` says each one's ECN
    /// field ("n" Not-ECT, "0" ECT(0), "1" ECT(1), "c" CE).
    fn packets(kinds: &str) -> (PacketPool, Vec<PktId>) {
        let mut pool = PacketPool::new();
        let mut ids = Vec::new();
        for (i, k) in kinds.chars().enumerate() {
            let id = pool.alloc();
            let pk = pool.get_mut(id);
            pk.uid = i as i32;
            pk.size = 1000;
            pk.ecn_capable = k != 'n';
            pk.ecn_to_echo = k == 'c';
            if k == '1' {
                pool.set_ect1(id);
            }
            ids.push(id);
        }
        (pool, ids)
    }

    fn cap(limit: i32) -> Capacity {
        Capacity { limit, ..Capacity::default() }
    }

    /// RFC 9332 A.1's classifier: ECT(1) and CE to the L4S queue, Not-ECT
    /// and ECT(0) to the classic queue; the buffer is shared.
    #[test]
    fn classifies_by_ecn_codepoint_into_one_shared_buffer() {
        let (pool, ids) = packets("n01c1");
        let mut q = DualPi2::new();
        for &p in &ids[..4] {
            assert_eq!(q.do_enqueue(&cap(4), &pool, 0, p), Verdict::Queued);
        }
        assert_eq!((q.lq.len(), q.cq.len()), (2, 2), "ECT(1), CE | Not-ECT, ECT(0)");
        // the fifth (ECT(1)) finds 4 of 4 held, whichever queue it is for
        assert_eq!(q.do_enqueue(&cap(4), &pool, 0, ids[4]), Verdict::Dropped(ids[4]));
        assert_eq!((q.l_arrivals, q.c_arrivals, q.overflows), (3, 2, 1));
    }

    /// The PI update, worked by hand (alpha 0.16, beta 3.2, target 15 ms):
    /// a classic head that has waited 25 ms at the first update gives
    /// p' = 0.16 * 0.010 + 3.2 * 0.025 = 0.0016 + 0.08 = 0.0816; p_C = p'^2
    /// = 0.00665856 and p_CL = 2 p' = 0.1632.  At the next update (16 ms
    /// later, the head unchanged: sojourn 41 ms) p' += 0.16 * 0.026 + 3.2 *
    /// 0.016 = 0.00416 + 0.0512: p' = 0.13696.
    #[test]
    fn pi_update_from_the_classic_head() {
        let (pool, ids) = packets("n");
        let mut q = DualPi2::new();
        q.do_enqueue(&cap(10), &pool, -9 * MS, ids[0]);
        q.catch_up(16 * MS);
        assert!((q.p - 0.0816).abs() < 1e-12, "{}", q.p);
        assert!((q.p_c() - 0.00665856).abs() < 1e-12);
        assert!((q.p_cl() - 0.1632).abs() < 1e-12);
        q.catch_up(32 * MS);
        assert!((q.p - 0.13696).abs() < 1e-12, "{}", q.p);
        // The packet leaves at 33 ms (draws 0.9, 0.9: kept); at 48 ms the
        // empty classic queue (curq 0) pulls p' down by 0.16 * 0.015 + 3.2 *
        // 0.041 = 0.0024 + 0.1312 = 0.1336, to 0.13696 - 0.1336 = 0.00336.
        let (mut pool, ids) = (pool, ids);
        let mut drops = Drops::default();
        assert_eq!(q.do_dequeue(&mut pool, 33 * MS, &mut drops, || 0.9), Some(ids[0]));
        q.catch_up(48 * MS);
        assert!((q.p - 0.00336).abs() < 1e-12, "{}", q.p);
        // and at 64 ms by 0.16 * 0.015 = 0.0024 (prevq 0 now): 0.00096; at
        // 80 ms it would go below 0: 0.
        q.catch_up(64 * MS);
        assert!((q.p - 0.00096).abs() < 1e-12, "{}", q.p);
        q.catch_up(80 * MS);
        assert_eq!(q.p, 0.0);
    }

    /// p' never leaves [0, 1]: a huge delay saturates it; k p' is then 2,
    /// and p_CL is capped at 1.
    #[test]
    fn probability_is_clamped() {
        let (pool, ids) = packets("n");
        let mut q = DualPi2::new();
        q.do_enqueue(&cap(10), &pool, -10_000 * MS, ids[0]);
        q.catch_up(16 * MS);
        assert_eq!((q.p, q.p_cl()), (1.0, 1.0));
    }

    /// The step: an L4S packet that waited more than 1 ms is marked, if
    /// the L4S queue still holds more than T_len (3000 bytes) after it;
    /// one that waited 1 ms or less is not (p' = 0: no coupled marks, no
    /// draws).
    #[test]
    fn step_marks_l4s_packets_above_one_ms() {
        let (mut pool, ids) = packets("11111111");
        let mut q = DualPi2::new();
        for (i, &p) in ids.iter().enumerate() {
            q.do_enqueue(&cap(100), &pool, i as i64 * 100_000, p);
        }
        let mut drops = Drops::default();
        let never = || -> f64 { panic!("no draw with p' = 0 and a step") };
        // at 1.0 ms the first (queued at 0) has waited exactly 1 ms: no mark
        let p0 = q.do_dequeue(&mut pool, MS, &mut drops, never).unwrap();
        assert!(!pool.get(p0).ecn_to_echo);
        // at 1.15 ms the second (0.1 ms) has waited 1.05 ms, 6 x 1000 bytes
        // remain: marked
        let p1 = q.do_dequeue(&mut pool, MS + 150_000, &mut drops, never).unwrap();
        assert!(pool.get(p1).ecn_to_echo);
        // at 3 ms: packets 2..4 have waited > 1 ms; after the one at 2 ms
        // (packet 4) leaves, 3 x 1000 = 3000 bytes remain: not > T_len
        for want in [true, true, false] {
            let p = q.do_dequeue(&mut pool, 3 * MS, &mut drops, never).unwrap();
            assert_eq!(pool.get(p).ecn_to_echo, want);
        }
        assert_eq!(q.l_native_marks, 3);
        assert!(drops.is_empty());
    }

    /// The step in packets (Linux's `step_thresh` in packets), 3: eight
    /// ECT(1) packets of 1000 bytes queued at 0 and sent at once (sojourn 0,
    /// which the time step never marks) are marked while more than 3 stay
    /// behind: the first four (leaving 7, 6, 5, 4), not the last four
    /// (3, 2, 1, 0).  Then two that waited 10 ms leave one packet and none
    /// behind them: no mark, whatever the wait.  T_len applies as to the
    /// time step: 4 packets left holding 2000 bytes (under 3000) mark only
    /// with T_len 0.
    #[test]
    fn step_in_packets_reads_the_l4s_queue_length() {
        let (mut pool, ids) = packets("1111111111");
        let mut q = DualPi2::new();
        q.step_packets = 3;
        for &p in &ids[..8] {
            q.do_enqueue(&cap(100), &pool, 0, p);
        }
        let mut drops = Drops::default();
        let never = || -> f64 { panic!("p' = 0 and a step: no draw") };
        let marked: Vec<bool> = (0..8).map(|_| {
            let p = q.do_dequeue(&mut pool, 0, &mut drops, never).unwrap();
            pool.get(p).ecn_to_echo
        }).collect();
        assert_eq!(marked, [true, true, true, true, false, false, false, false]);
        assert_eq!(q.l_native_marks, 4);
        for &p in &ids[8..] {
            q.do_enqueue(&cap(100), &pool, 0, p);
        }
        for _ in 0..2 {
            let p = q.do_dequeue(&mut pool, 10 * MS, &mut drops, never).unwrap();
            assert!(!pool.get(p).ecn_to_echo);
        }
        assert_eq!(q.native_l4s_packets(4, 4000), 1.0);
        assert_eq!(q.native_l4s_packets(4, 2000), 0.0, "T_len still applies");
        q.step_min_bytes = 0;
        assert_eq!(q.native_l4s_packets(4, 2000), 1.0);
        assert_eq!(q.native_l4s_packets(3, 2000), 0.0);
    }

    /// Linux's gate on the step (`min_qlen_step`, decided at arrival by
    /// `skb_apply_step`: the L4S queue's length before the packet joins it,
    /// at least `min_qlen_step`), worked by hand.  Two ECT(1) packets
    /// queued at 0 leave at 1.5 and 2 ms, each after more than 1 ms:
    /// - T_len 3000 (the engine's default, `min_qlen_step` -1): neither is
    ///   marked (1000 and 0 bytes stay behind);
    /// - `step_min_bytes` 0, the example's old stand-in for Linux's rule:
    ///   the first is (1000 bytes behind it), the second, leaving the
    ///   queue empty, is not;
    /// - `min_qlen_step` 0, Linux's default: both are;
    /// - `min_qlen_step` 1: only the second (it found one packet queued;
    ///   the first found none), though it leaves the queue empty.
    /// A packet of 1 ms sojourn or less is never marked by the step.
    #[test]
    fn min_qlen_step_gates_the_step_at_arrival_as_linux() {
        let run = |step_min_bytes: i64, min_qlen_step: i64, leave: [i64; 2]| -> Vec<bool> {
            let (mut pool, ids) = packets("11");
            let mut q = DualPi2::new();
            q.step_min_bytes = step_min_bytes;
            q.min_qlen_step = min_qlen_step;
            for &p in &ids {
                q.do_enqueue(&cap(100), &pool, 0, p);
            }
            let mut drops = Drops::default();
            let never = || -> f64 { panic!("p' = 0 and a step: no draw") };
            let marks = leave.iter().map(|&t| {
                let p = q.do_dequeue(&mut pool, t, &mut drops, never).unwrap();
                pool.get(p).ecn_to_echo
            }).collect();
            assert_eq!(q.l_native_marks as usize, leave.len() - marks_false(&marks));
            marks
        };
        fn marks_false(m: &Vec<bool>) -> usize {
            m.iter().filter(|&&b| !b).count()
        }
        let late = [3 * MS / 2, 2 * MS];
        assert_eq!(run(3000, -1, late), [false, false]);
        assert_eq!(run(0, -1, late), [true, false]);
        assert_eq!(run(3000, 0, late), [true, true], "T_len is unused with min_qlen_step");
        assert_eq!(run(0, 1, late), [false, true]);
        assert_eq!(run(0, 0, [MS, MS]), [false, false], "not above the 1 ms step");
        // the step in packets (N = 1: marked while more than one packet
        // stays behind) takes the same gate: three packets sent at once
        let (mut pool, ids) = packets("111");
        let mut q = DualPi2::new();
        q.min_qlen_step = 1;
        q.step_packets = 1;
        for &p in &ids {
            q.do_enqueue(&cap(100), &pool, 0, p);
        }
        let mut drops = Drops::default();
        let marks: Vec<bool> = (0..3).map(|_| {
            let p = q.do_dequeue(&mut pool, 0, &mut drops, || 1.0).unwrap();
            pool.get(p).ecn_to_echo
        }).collect();
        // first: found 0 queued (gate shut) though 2 stay behind; second:
        // found 1, leaves 1 (not more than 1); third: leaves 0
        assert_eq!(marks, [false, false, false]);
        q.min_qlen_step = 0;
        for &p in &ids {
            pool.get_mut(p).ecn_to_echo = false;
            q.do_enqueue(&cap(100), &pool, 0, p);
        }
        let marks: Vec<bool> = (0..3).map(|_| {
            let p = q.do_dequeue(&mut pool, 0, &mut drops, || 1.0).unwrap();
            pool.get(p).ecn_to_echo
        }).collect();
        assert_eq!(marks, [true, false, false], "2 left behind the first, then 1, then 0");
    }

    /// The ramp (Appendix A.2's laqm): from 0 at step_thresh to 1 at
    /// step_thresh + range; halfway it is 0.5, and a draw below decides.
    #[test]
    fn ramp_is_linear_between_its_thresholds() {
        let mut q = DualPi2::new();
        q.ramp_range = 2 * MS;
        q.step_min_bytes = 0;
        assert_eq!(q.native_l4s(MS, 10_000), 0.0);
        assert_eq!(q.native_l4s(2 * MS, 10_000), 0.5);
        assert_eq!(q.native_l4s(3 * MS, 10_000), 1.0);
        assert_eq!(q.native_l4s(2 * MS, 0), 0.0, "an empty L4S queue is never marked");
    }

    /// The coupling: with p' = 0.2, an L4S packet below the step is marked
    /// with p_CL = 0.4 (a draw of 0.39 marks, 0.41 does not); a classic
    /// ECT(0) packet is marked when p' > max(u1, u2) (0.1 and 0.15: yes;
    /// 0.1 and 0.3: no), and a Not-ECT one is dropped instead, the next
    /// packet then taken.
    #[test]
    fn coupled_and_squared_probabilities() {
        let (mut pool, ids) = packets("1100n0");
        let mut q = DualPi2::new();
        q.tsfifo = true;
        q.min_bytes = 0;
        q.tshift = 0;
        for (i, &p) in ids.iter().enumerate() {
            q.do_enqueue(&cap(100), &pool, i as i64, p);
        }
        q.p = 0.2;
        let mut drops = Drops::default();
        // TS-FIFO with tshift 0: the oldest head first: the L4S ones (0, 1)
        let mut d = [0.39].into_iter();
        let p = q.do_dequeue(&mut pool, 100, &mut drops, || d.next().unwrap()).unwrap();
        assert!(pool.get(p).ecn_to_echo);
        let mut d = [0.41].into_iter();
        let p = q.do_dequeue(&mut pool, 100, &mut drops, || d.next().unwrap()).unwrap();
        assert!(!pool.get(p).ecn_to_echo);
        assert_eq!(q.l_coupled_marks, 1);
        // classic: ECT(0) with draws 0.1, 0.15: 0.2 > 0.15: marked
        let mut d = [0.1, 0.15].into_iter();
        let p = q.do_dequeue(&mut pool, 100, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!(p, ids[2]);
        assert!(pool.get(p).ecn_to_echo);
        // ECT(0) with 0.1, 0.3: not marked
        let mut d = [0.1, 0.3].into_iter();
        let p = q.do_dequeue(&mut pool, 100, &mut drops, || d.next().unwrap()).unwrap();
        assert!(!pool.get(p).ecn_to_echo);
        // Not-ECT with 0.05, 0.1: dropped; then the ECT(0) behind it with
        // 0.9, 0.0: not marked, returned
        let mut d = [0.05, 0.1, 0.9, 0.0].into_iter();
        let p = q.do_dequeue(&mut pool, 100, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!(p, ids[5]);
        assert_eq!(drops.pkts, vec![ids[4]]);
        assert_eq!((q.c_marks, q.c_aqm_drops, q.c_departures), (1, 1, 3));
    }

    /// Overload: with k p' >= 1 (p' = 0.5), an ECN-capable classic packet
    /// that the squared draw selects is dropped, not marked; an L4S packet
    /// then meets the same Classic drop (RFC 9332 section 4.2.3: "Classic
    /// drop to both types of ECN-capable traffic"), p'^2 = 0.25 by two
    /// draws: with 0.3 and 0.6 it is not dropped, and is marked (p_CL = 1).
    #[test]
    fn overload_drops_ecn_capable_classic_packets() {
        let (mut pool, ids) = packets("01");
        let mut q = DualPi2::new();
        q.tsfifo = true;
        q.min_bytes = 0;
        q.tshift = 0;
        q.do_enqueue(&cap(10), &pool, 0, ids[0]);
        q.do_enqueue(&cap(10), &pool, 1, ids[1]);
        q.p = 0.5;
        let mut drops = Drops::default();
        let mut d = [0.1, 0.2, 0.3, 0.6].into_iter();
        let p = q.do_dequeue(&mut pool, 10, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!(drops.pkts, vec![ids[0]]);
        assert_eq!(p, ids[1]);
        assert!(pool.get(p).ecn_to_echo);
        assert_eq!(d.next(), None, "two draws for each queue's squared drop");
        assert_eq!((q.c_aqm_drops, q.l_aqm_drops), (1, 0));
    }

    /// RFC 9332 section 4.2.3 on overload, L4S side (Linux's
    /// `dualpi2_scalable_marking` with `drop_overload`): at p' = 0.6 (k p'
    /// = 1.2) an L4S packet is dropped when p' > max(u1, u2), probability
    /// p'^2 = 0.36: draws (0.5, 0.55) drop it, the next packet's (0.5,
    /// 0.65) keep it, marked.  Below overload (p' = 0.4, k p' = 0.8) there
    /// is no L4S drop whatever the draw, only the coupled mark (0.79: yes,
    /// 0.81: no).  At p' = 1 (p'^2 = 1) every L4S packet is dropped, with
    /// no draw.  And below the 2-MTU threshold (`must_drop`) nothing.
    #[test]
    fn overload_drops_l4s_packets_with_the_classic_probability() {
        let (mut pool, ids) = packets("1111111");
        let mut q = DualPi2::new();
        q.min_bytes = 0;
        for &p in &ids {
            q.do_enqueue(&cap(10), &pool, 0, p);
        }
        let mut drops = Drops::default();
        q.p = 0.6;
        let mut d = [0.5, 0.55, 0.5, 0.65].into_iter();
        let p = q.do_dequeue(&mut pool, 0, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!((drops.pkts.clone(), p), (vec![ids[0]], ids[1]));
        assert!(pool.get(p).ecn_to_echo, "not dropped on overload: marked (p_L = 1)");
        assert_eq!(d.next(), None);
        q.p = 0.4;
        let mut d = [0.79, 0.81].into_iter();
        let p = q.do_dequeue(&mut pool, 0, &mut drops, || d.next().unwrap()).unwrap();
        assert!(pool.get(p).ecn_to_echo);
        let p = q.do_dequeue(&mut pool, 0, &mut drops, || d.next().unwrap()).unwrap();
        assert!(!pool.get(p).ecn_to_echo);
        assert_eq!(drops.pkts.len(), 1);
        q.p = 1.0;
        let never = || -> f64 { panic!("p'^2 = 1: no draw") };
        // with the 2-MTU threshold back (3000), ids[4] leaves 2000 bytes
        // behind it: quiet, sent unmarked (sojourn 0: no step either)
        q.min_bytes = 3000;
        let p = q.do_dequeue(&mut pool, 0, &mut drops, never).unwrap();
        assert_eq!(p, ids[4], "quiet: under 2 MTUs after it left");
        assert!(!pool.get(p).ecn_to_echo);
        q.min_bytes = 0;
        let p = q.do_dequeue(&mut pool, 0, &mut drops, never);
        assert_eq!(p, None, "both remaining dropped at p' = 1");
        assert_eq!(drops.pkts, vec![ids[0], ids[5], ids[6]]);
        assert_eq!((q.l_aqm_drops, q.l_departures), (3, 4));
    }

    /// Linux's `overflow` mode (`drop_on_overload` off): the PI update caps
    /// p' at 1/k (a 10 s classic head would take it to 1), so there is
    /// never overload: an ECN-capable classic packet drawn with p'^2 = 0.25
    /// is marked, not dropped; a Not-ECT one is still dropped.
    #[test]
    fn overflow_mode_caps_p_at_one_over_k() {
        let (mut pool, ids) = packets("0n0");
        let mut q = DualPi2::new();
        q.drop_on_overload = false;
        q.min_bytes = 0;
        for &p in &ids {
            q.do_enqueue(&cap(10), &pool, -10_000 * MS, p);
        }
        q.catch_up(16 * MS);
        assert_eq!(q.p, 0.5);
        assert_eq!(q.p_cl(), 1.0);
        let mut drops = Drops::default();
        let mut d = [0.1, 0.2, 0.1, 0.2, 0.9, 0.0].into_iter();
        let p = q.do_dequeue(&mut pool, 16 * MS, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!(p, ids[0]);
        assert!(pool.get(p).ecn_to_echo, "marked, not dropped: no overload");
        let p = q.do_dequeue(&mut pool, 16 * MS, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!((drops.pkts.clone(), p), (vec![ids[1]], ids[2]));
        let mut r = DualPi2::new();
        r.k = 4.0;
        r.drop_on_overload = false;
        r.do_enqueue(&cap(10), &pool, -10_000 * MS, ids[0]);
        r.catch_up(16 * MS);
        assert_eq!(r.p, 0.25);
    }

    /// Linux's round robin moves the credit only for a packet it sends
    /// (`__dualpi2_qdisc_dequeue` adds `credit_change` after `must_drop`):
    /// a classic packet the PI drops takes nothing from it.  Credit -120000
    /// (wc 10): with the credit set to 1 the classic queue goes; its first
    /// (Not-ECT) packet is dropped (draws 0.1, 0.1 at p' = 0.45), the next
    /// (draws 0.9, 0.9) sent: the credit loses 90 x 1000 once, not twice.
    #[test]
    fn round_robin_credit_moves_only_for_packets_sent() {
        let (mut pool, ids) = packets("nn1");
        let mut q = DualPi2::new();
        q.min_bytes = 0;
        for &p in &ids {
            q.do_enqueue(&cap(10), &pool, 0, p);
        }
        q.credit = 1;
        q.p = 0.45;
        let mut drops = Drops::default();
        let mut d = [0.1, 0.1, 0.9, 0.9].into_iter();
        let p = q.do_dequeue(&mut pool, 0, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!((drops.pkts.clone(), p), (vec![ids[0]], ids[1]));
        assert_eq!(q.credit, 1 - 90_000);
        // an L4S packet sent while no classic one waits adds nothing
        let mut d = [0.95].into_iter();
        let p = q.do_dequeue(&mut pool, 0, &mut drops, || d.next().unwrap()).unwrap();
        assert_eq!(p, ids[2]);
        assert_eq!(q.credit, 1 - 90_000);
    }

    /// TS-FIFO: the L4S head is served unless the classic head has waited
    /// more than tshift (50 ms) longer.
    #[test]
    fn time_shifted_fifo() {
        let (mut pool, ids) = packets("n1n1");
        let mut q = DualPi2::new();
        q.tsfifo = true;
        q.do_enqueue(&cap(10), &pool, 0, ids[0]); // classic at 0
        q.do_enqueue(&cap(10), &pool, 40 * MS, ids[1]); // L4S at 40 ms
        q.do_enqueue(&cap(10), &pool, 45 * MS, ids[2]); // classic at 45 ms
        q.do_enqueue(&cap(10), &pool, 95 * MS, ids[3]); // L4S at 95 ms
        let mut drops = Drops::default();
        let never = || -> f64 { panic!("p' = 0") };
        // at 95 ms: classic head waited 95, L4S head 55: 55 + 50 >= 95: L4S
        assert_eq!(q.do_dequeue(&mut pool, 95 * MS, &mut drops, never), Some(ids[1]));
        // now the L4S head waited 0, classic 95: 0 + 50 < 95: classic
        assert_eq!(q.do_dequeue(&mut pool, 95 * MS, &mut drops, never), Some(ids[0]));
        // classic head (45) waited 50, L4S 0: 0 + 50 >= 50: L4S
        assert_eq!(q.do_dequeue(&mut pool, 95 * MS, &mut drops, never), Some(ids[3]));
        assert_eq!(q.do_dequeue(&mut pool, 95 * MS, &mut drops, never), Some(ids[2]));
        assert_eq!(q.do_dequeue(&mut pool, 95 * MS, &mut drops, never), None);
        assert_eq!((q.l_departures, q.c_departures), (2, 2));
        // mean sojourns: L4S (55 + 0)/2 ms, classic (95 + 50)/2 ms
        assert!((q.l_mean_delay() - 0.0275).abs() < 1e-12);
        assert!((q.c_mean_delay() - 0.0725).abs() < 1e-12);
    }

    /// Linux sch_dualpi2's round robin (the default scheduler), classic
    /// weight 10%: the credit starts at 1500 * (10 - 90) = -120000; each
    /// 1000-byte L4S packet sent while classic ones wait adds 10000, each
    /// classic one sent while L4S ones wait takes 90000; the L4S queue goes
    /// while the credit is not positive.  So 13 L4S packets, a classic
    /// one (credit 10000 -> -80000), 9 L4S, a classic one, ...: the
    /// classic queue gets a tenth of the bytes while both are backlogged.
    #[test]
    fn round_robin_with_classic_protection() {
        let kinds: String = "1".repeat(30) + &"n".repeat(5);
        let (mut pool, ids) = packets(&kinds);
        let mut q = DualPi2::new();
        for &p in &ids {
            q.do_enqueue(&cap(100), &pool, 0, p);
        }
        let mut drops = Drops::default();
        let never = || -> f64 { panic!("p' = 0") };
        let order: Vec<bool> = (0..35).map(|_| {
            let p = q.do_dequeue(&mut pool, 0, &mut drops, never).unwrap();
            !pool.get(p).ecn_capable
        }).collect();
        let classic_at: Vec<usize> = order.iter().enumerate().filter(|(_, c)| **c).map(|(i, _)| i).collect();
        // (the L4S queue empties after 30: the last classic ones go in a row)
        assert_eq!(classic_at, vec![13, 23, 32, 33, 34]);
        // both empty: the credit restarts
        assert_eq!(q.do_dequeue(&mut pool, 0, &mut drops, never), None);
        assert_eq!(q.credit, -120_000);
    }

    /// Linux's `must_drop`: below two MTUs queued (after the packet left)
    /// no coupled mark and no classic drop, even at p' = 1; the PI core
    /// reads the larger head sojourn (an L4S head of 25 ms moves p' as a
    /// classic one would: 0.0816), or with `pi_max` off the classic one.
    #[test]
    fn quiet_below_two_mtus_and_pi_on_the_larger_delay() {
        let (mut pool, ids) = packets("n1n");
        let mut q = DualPi2::new();
        q.tsfifo = true;
        for &p in &ids {
            q.do_enqueue(&cap(10), &pool, 0, p);
        }
        q.p = 1.0;
        let mut drops = Drops::default();
        let never = || -> f64 { panic!("no draw at p' = 1") };
        // 3000 bytes queued: after the first leaves, 2000 < 3000: quiet
        let p = q.do_dequeue(&mut pool, 0, &mut drops, never).unwrap();
        assert!(!pool.get(p).ecn_to_echo && drops.pkts.is_empty());
        let (pool2, ids2) = packets("1");
        let mut q = DualPi2::new();
        q.do_enqueue(&cap(10), &pool2, -9 * MS, ids2[0]);
        let mut r = q.clone();
        q.catch_up(16 * MS);
        assert!((q.p - 0.0816).abs() < 1e-12, "{}", q.p);
        r.pi_max = false;
        r.catch_up(16 * MS);
        assert_eq!(r.p, 0.0);
        let _ = (&mut pool, ids);
    }

    /// The lazy updates equal a timer's: catching up at once over many
    /// periods gives what catching up at every period gives.
    #[test]
    fn catch_up_equals_periodic_updates() {
        let (pool, ids) = packets("nn");
        let mut a = DualPi2::new();
        a.do_enqueue(&cap(10), &pool, 0, ids[0]);
        let mut b = a.clone();
        a.catch_up(200 * MS);
        for t in (0..=200).map(|i| i * MS) {
            b.catch_up(t);
        }
        assert_eq!(a.p, b.p);
        assert!(a.p > 0.0);
        // idle and at 0, a long run is skipped, landing on the grid
        let mut c = DualPi2::new();
        c.catch_up(1_000 * MS + 3);
        assert_eq!(c.next_update, 1_008 * MS);
    }
}
