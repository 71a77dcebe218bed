//! RED with Preferential Dropping (Mahajan and Floyd, "Controlling
//! high-bandwidth flows at the congested router", ICNP 2001), as ns-2 2.35
//! models it (queue/red-pd.cc `RedPDQueue`).
//!
//! A RED queue with a filter in front: the packets of the flows an
//! identification engine chose to monitor are dropped, before RED sees
//! them, with a probability of their own, 1 - target/current (the share of
//! the flow's rate above its target), spread over the flow's arrivals as
//! RED spreads its drops (`spread_p`).  A responsive flow's packet is
//! dropped only while RED's average is at or above its minimum threshold
//! and more than one packet is queued; an unresponsive flow's probability
//! is multiplied by a penalty, and its packets are dropped whatever RED's
//! average (with `noidle`, not when the queue holds one packet or none).
//! The packets that pass, and those of unmonitored flows, go to RED.
//!
//! Which flow a packet belongs to, and each flow's target, are the flow
//! monitor's (`FlowPolicy` on its flows): the simulation finds the flow and
//! asks `police`.  A test mode drops every arrival with one fixed
//! probability before RED (`test_frp`, ns-2's `P_testFRp_`), and the
//! monitored flows' drops then happen whatever the queue.

use super::red::spread_p;
use super::{Capacity, Discipline, Drops, Red, Verdict};
use crate::packet::PktId;
use crate::sched::ObjId;
use crate::sim::{World, NONE};

/// A flow's policing state, kept on the flow monitor's flow
/// (`RedPDFlow`).  The switches are C ints (tclcl bools keep any integer).
#[derive(Debug, Clone, Copy, Default)]
pub struct FlowPolicy {
    /// The rate the flow is held to, and its current rate (any unit: only
    /// their ratio matters; bits/s from bandwidth strings).
    pub target_bw: f64,
    pub current_bw: f64,
    pub monitored: i32,
    pub unresponsive: i32,
    pub monitor_start: f64,
    pub unresponsive_start: f64,
    /// When the flow's rate last exceeded its target at an arrival.
    pub last_drop: f64,
    /// Arrivals since the flow's last drop (the spreading's count).
    pub count: i32,
    /// Read the current rate from the flow's rate estimate.
    pub auto: i32,
}

/// The drop probability of a flow at `current` held to `target`: the
/// share above the target, none at or below it.
#[inline]
pub fn excess_p(current: f64, target: f64) -> f64 {
    if current <= 0.0 || current < target {
        0.0
    } else {
        1.0 - target / current
    }
}

#[derive(Debug, Clone)]
pub struct RedPd {
    pub red: Red,
    /// The flow monitor whose flows are policed (`attach-flowmon`).
    pub flowmon: ObjId,
    /// A trace that sees the monitored flows' drops, and its type.
    pub drop_trace: ObjId,
    pub drop_trace_type: String,
    /// Flows read their current rate from the rate estimate when monitored.
    pub auto: bool,
    /// Every monitored flow is held to `target_bw`, not its own target.
    pub global_target: bool,
    pub target_bw: f64,
    /// Flows being monitored.
    pub monitored: i32,
    /// Factor on an unresponsive flow's probability.
    pub penalty: f64,
    /// Test mode: every arrival is dropped with this probability before
    /// RED (-1: off).
    pub test_frp: f64,
    /// An unresponsive flow's packet is not dropped when the queue holds
    /// at most one packet (the link would go idle).
    pub noidle: bool,
    /// The arrival being enqueued has passed the filter (else the enqueue
    /// asks for it: `Verdict::Police`).
    pub judged: bool,
}

impl Default for RedPd {
    fn default() -> Self {
        Self::new()
    }
}

impl RedPd {
    pub fn new() -> RedPd {
        RedPd {
            red: Red::new(),
            flowmon: NONE,
            drop_trace: NONE,
            drop_trace_type: "Drop".into(),
            auto: false,
            global_target: false,
            target_bw: 0.0,
            monitored: 0,
            penalty: 1.0,
            test_frp: -1.0,
            noidle: false,
            judged: false,
        }
    }

    /// The filter for an arrival of a flow with policy `f` (its rate
    /// estimate `est_rate`): true drops it (a monitored drop).  Draws from
    /// the default stream only for a monitored flow above its target.
    pub fn police(&mut self, cap: &Capacity, w: &mut World, f: &mut FlowPolicy, est_rate: f64) -> bool {
        if f.monitored == 0 {
            return false;
        }
        if f.auto != 0 {
            f.current_bw = est_rate;
        }
        let target = if self.global_target { self.target_bw } else { f.target_bw };
        let mut p = excess_p(f.current_bw, target);
        if f.unresponsive != 0 {
            p *= self.penalty;
        }
        if p == 0.0 {
            return false;
        }
        f.last_drop = w.s.now;
        let p = spread_p(p, f.count, 0, false, false, 0, 0);
        let u = w.rng.default_stream().uniform_double();
        let qlen = cap.len_of(&self.red.fifo);
        let drop = if self.test_frp != -1.0 {
            u <= p
        } else {
            u <= p
                && if f.unresponsive == 0 {
                    self.red.v_ave >= self.red.th_min && qlen > 1
                } else {
                    qlen > 1 || !self.noidle
                }
        };
        if drop {
            f.count = 0;
        } else {
            f.count += 1;
        }
        drop
    }
}

impl Discipline for RedPd {
    /// The filter (asked for), the test mode's drop, then RED.
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        if !std::mem::take(&mut self.judged) {
            return Verdict::Police;
        }
        if self.test_frp != -1.0 {
            let mut prob = self.test_frp;
            if self.red.bytes {
                prob = prob * w.pool.get(p).size as f64 / cap.mean_pktsize as f64;
            }
            if w.rng.default_stream().uniform_double() <= prob {
                return Verdict::Dropped(p);
            }
        }
        self.red.enque(cap, w, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.red.deque(&w.pool, w.s.now)
    }

    fn link_idle(&mut self, now: f64) {
        self.red.dequeued(false, now);
    }

    fn len(&self) -> usize {
        self.red.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.red.fifo.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redpd(v_ave: f64, th_min: f64, queued: usize, w: &mut World) -> RedPd {
        let mut d = RedPd::new();
        d.red.v_ave = v_ave;
        d.red.th_min = th_min;
        for _ in 0..queued {
            let p = w.pool.alloc();
            w.pool.get_mut(p).size = 1000;
            d.red.fifo.push(&w.pool, p);
        }
        d
    }

    #[test]
    fn excess_is_the_share_above_the_target() {
        assert_eq!(excess_p(0.0, 0.5), 0.0);
        assert_eq!(excess_p(1.0, 2.0), 0.0);
        assert_eq!(excess_p(1.0, 0.75), 0.25);
        assert_eq!(excess_p(4.0, 1.0), 0.75);
    }

    /// A monitored responsive flow loses packets only while RED's average
    /// is past its minimum threshold and a packet waits; an unmonitored one
    /// never, and it draws nothing.
    #[test]
    fn responsive_flows_are_dropped_only_in_congestion() {
        let mut w = World::new_for_tests();
        let cap = Capacity::default();
        // target 0: drop with probability one
        let mut f = FlowPolicy { monitored: 1, target_bw: 0.0, current_bw: 1.0, ..Default::default() };
        let mut calm = redpd(2.0, 5.0, 3, &mut w);
        assert!(!calm.police(&cap, &mut w, &mut f, 0.0));
        assert_eq!(f.count, 1);
        let mut busy = redpd(6.0, 5.0, 3, &mut w);
        assert!(busy.police(&cap, &mut w, &mut f, 0.0));
        assert_eq!(f.count, 0);
        let mut short = redpd(6.0, 5.0, 1, &mut w);
        assert!(!short.police(&cap, &mut w, &mut f, 0.0));
        let mut off = FlowPolicy { monitored: 0, ..f };
        assert!(!busy.police(&cap, &mut w, &mut off, 0.0));
        assert_eq!(off.last_drop, 0.0);
    }

    /// An unresponsive flow is dropped whatever RED's average; with
    /// `noidle` not when the queue would go empty.
    #[test]
    fn unresponsive_flows_are_dropped_unless_the_link_would_idle() {
        let mut w = World::new_for_tests();
        let cap = Capacity::default();
        let mut f = FlowPolicy { monitored: 1, unresponsive: 1, target_bw: 0.0, current_bw: 1.0, ..Default::default() };
        let mut d = redpd(0.0, 5.0, 1, &mut w);
        assert!(d.police(&cap, &mut w, &mut f, 0.0));
        d.noidle = true;
        assert!(!d.police(&cap, &mut w, &mut f, 0.0));
    }

    /// The penalty scales the probability; a zero penalty never drops.
    #[test]
    fn penalty_scales_an_unresponsive_flows_probability() {
        let mut w = World::new_for_tests();
        let cap = Capacity::default();
        let mut d = redpd(10.0, 5.0, 5, &mut w);
        d.penalty = 0.0;
        let mut f = FlowPolicy { monitored: 1, unresponsive: 1, target_bw: 0.0, current_bw: 1.0, ..Default::default() };
        for _ in 0..50 {
            assert!(!d.police(&cap, &mut w, &mut f, 0.0));
        }
        assert_eq!(f.count, 0, "a zero probability counts nothing");
    }
}
