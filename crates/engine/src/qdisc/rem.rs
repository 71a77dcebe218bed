//! Random Exponential Marking (Athuraliya, Low, Li and Yin, "REM: active
//! queue management", IEEE Network 2001), as ns-2 2.35 models it
//! (queue/rem.cc `REMQueue`), step for step.
//!
//! Every `updtime` seconds the link price moves by
//! `gamma (in_avg + 0.1 (backlog - bo) - c)`, floored at 0, where `in_avg`
//! is the arrivals of the last period filtered with weight `inw`, the
//! backlog the packets queued (bytes over `pktsize` in byte mode) and `c`
//! the packets the link sends in a period; the marking probability is
//! `1 - phi^-price`.  Without `markpkts` each arrival is dropped with that
//! probability (scaled by its size over `pktsize` in byte mode); with it,
//! each dequeue draws and marks the departing packet, if ECN-capable.  An
//! arrival that brings the queue to its limit is dropped.
//!
//! Details kept from ns-2: the update runs from a timer (the owner
//! schedules it: [`Rem::timer`], re-armed by [`Rem::timeout`] and
//! [`Rem::reset`]), which reset re-arms without draining the queue; a
//! dequeue with marking draws even when it finds the queue empty, so with
//! marking every dequeue the link's resume would make happens (see
//! `Qdisc::deques_when_empty`); the queue holds at most `limit - 1`
//! packets (the arrival is counted before the test); drops, early or not,
//! go to the drop target; the packet size is a double.

use super::{Capacity, Discipline, Drops, Fifo, Qdisc, Verdict};
use crate::packet::PktId;
use crate::sim::World;

/// REM's parameters and state.
#[derive(Debug, Clone)]
pub struct Rem {
    pub fifo: Fifo,
    /// The price's step size.
    pub gamma: f64,
    /// The base of the marking probability (above 1).
    pub phi: f64,
    /// The weight of the last period's arrivals in the filtered rate.
    pub inw: f64,
    /// The packet size the byte mode counts in.
    pub pktsize: f64,
    /// Seconds between price updates.
    pub updtime: f64,
    /// The backlog the price aims at (packets).
    pub bo: f64,
    /// Packets per second the link sends (from its bandwidth and `pktsize`).
    pub ptc: f64,
    /// The link's bandwidth, once known (bits per second).
    pub link_bw: Option<f64>,
    /// The link price, the marking probability, the filtered arrival rate
    /// and the arrivals (packets, or bytes) since the last update.
    pub price: f64,
    pub prob: f64,
    pub in_avg: f64,
    pub count: f64,
    /// Mark at dequeue instead of dropping at arrival.
    pub markpkts: bool,
    /// Count in bytes.
    pub qib: bool,
    /// Bytes queued.
    pub bcount: i32,
    /// Packets marked.
    pub pmark: f64,
    /// The queue after the last arrival or departure (traced).
    pub curq: i32,
    /// The owner's timer for the updates (a scheduler timer id).
    pub timer: u32,
    /// The time of the next update, for a REM with no timer of its own (a
    /// CBQ class's or an FQ flow's queue: [`Rem::start_lazy`]).
    pub next_update: Option<f64>,
    /// Where traced variables go (`attach`), and which are traced.
    pub channel: Option<u32>,
    pub trace_curq: bool,
    pub trace_prob: bool,
}

impl Default for Rem {
    fn default() -> Self {
        Rem::new()
    }
}

impl Rem {
    /// ns-default.tcl's defaults.
    pub fn new() -> Rem {
        Rem {
            fifo: Fifo::default(),
            gamma: 0.001,
            phi: 1.001,
            inw: 1.0,
            pktsize: 1000.0,
            updtime: 0.002,
            bo: 20.0,
            ptc: 0.0,
            link_bw: None,
            price: 0.0,
            prob: 0.0,
            in_avg: 0.0,
            count: 0.0,
            markpkts: false,
            qib: false,
            bcount: 0,
            pmark: 0.0,
            curq: 0,
            timer: u32::MAX,
            next_update: None,
            channel: None,
            trace_curq: false,
            trace_prob: false,
        }
    }

    /// The link's bandwidth (bits per second): the packet time constant.
    pub fn set_link(&mut self, bw: f64) {
        self.link_bw = Some(bw);
        self.ptc = bw / (8.0 * self.pktsize);
    }

    /// `REMQueue::reset`: the state back to zero (the queue kept), the
    /// update timer re-armed one period from now.
    pub fn reset(&mut self, w: &mut World) {
        if let Some(bw) = self.link_bw {
            self.ptc = bw / (8.0 * self.pktsize);
        }
        self.price = 0.0;
        self.set_prob(w, 0.0);
        self.in_avg = 0.0;
        self.count = 0.0;
        self.pmark = 0.0;
        self.bcount = 0;
        self.arm(w);
    }

    fn arm(&self, w: &mut World) {
        if self.timer != u32::MAX {
            w.s.timer_resched(self.timer, self.updtime);
        }
    }

    /// REM as a queue held by a scheduler, made now: `reset`'s zeroed state,
    /// and the updates its timer would run (`REMTimer`, one period after
    /// the constructor's `reset`, then one period after each update) run
    /// instead when the queue next sees a packet, each at its own time
    /// ([`Rem::catch_up`]), as PI's (qdisc/pi.rs): an update reads only the
    /// arrivals counted and the queue, which change at packet events only.
    /// The owner's timer, if any, is dropped.
    pub fn start_lazy(&mut self, w: &mut World) {
        self.timer = u32::MAX;
        self.reset(w);
        self.next_update = Some(w.s.now + self.updtime);
    }

    /// Run the updates due by now (those at now included, as a timer set
    /// one period earlier runs before the packet event).
    #[inline]
    fn catch_up(&mut self, w: &mut World) {
        let now = w.s.now;
        while let Some(t) = self.next_update {
            if t > now {
                break;
            }
            self.update(w);
            self.next_update = Some(t + self.updtime);
        }
    }

    /// The timer fired: update the price, re-arm.
    pub fn timeout(&mut self, w: &mut World) {
        self.update(w);
        self.arm(w);
    }

    /// `run_updaterule`: the price and the probability.
    pub fn update(&mut self, w: &mut World) {
        let mut in_avg = self.in_avg * (1.0 - self.inw);
        let nqueued = if self.qib {
            in_avg += self.inw * self.count / self.pktsize;
            self.bcount as f64 / self.pktsize
        } else {
            in_avg += self.inw * self.count;
            self.fifo.len() as f64
        };
        let c = self.updtime * self.ptc;
        let mut price = self.price + self.gamma * (in_avg + 0.1 * (nqueued - self.bo) - c);
        if price < 0.0 {
            price = 0.0;
        }
        let prob = 1.0 - self.phi.powf(-price);
        self.count = 0.0;
        self.in_avg = in_avg;
        self.price = price;
        self.set_prob(w, prob);
    }

    /// The probability for a packet of `size` bytes.
    fn prob_for(&self, size: i32) -> f64 {
        if self.qib {
            self.prob * size as f64 / self.pktsize
        } else {
            self.prob
        }
    }

    fn qlen(&self) -> i32 {
        if self.qib {
            self.bcount
        } else {
            self.fifo.len() as i32
        }
    }

    /// `REMQueue::enque`.
    pub(crate) fn enque(&mut self, cap: &Capacity, w: &mut World, p: PktId) -> Verdict {
        let size = w.pool.get(p).size;
        self.count += if self.qib { size as f64 } else { 1.0 };
        let qlim = if self.qib { cap.limit as f64 * self.pktsize } else { cap.limit as f64 };
        self.fifo.push(&w.pool, p);
        self.bcount = self.bcount.wrapping_add(size);
        let mut v = Verdict::Queued;
        if self.qlen() as f64 >= qlim {
            v = Verdict::Dropped(p);
        } else if !self.markpkts {
            let u = w.rng.default_stream().uniform_double();
            if u <= self.prob_for(size) {
                v = Verdict::Dropped(p);
            }
        }
        if v != Verdict::Queued {
            // the arrival is the last packet queued
            self.fifo.pop_back(&w.pool);
            self.bcount = self.bcount.wrapping_sub(size);
        }
        self.set_curq(w);
        v
    }

    /// `REMQueue::deque`.
    pub(crate) fn deque(&mut self, w: &mut World) -> Option<PktId> {
        let p = self.fifo.pop(&w.pool);
        if let Some(p) = p {
            self.bcount = self.bcount.wrapping_sub(w.pool.get(p).size);
        }
        if self.markpkts {
            let u = w.rng.default_stream().uniform_double();
            if let Some(p) = p {
                let pro = self.prob_for(w.pool.get(p).size);
                let pk = w.pool.get_mut(p);
                if u <= pro && pk.ecn_capable {
                    pk.ecn_to_echo = true;
                    self.pmark += 1.0;
                }
            }
        }
        self.set_curq(w);
        p
    }

    // ---- traced variables ----------------------------------------------

    /// `$q trace curq_` (true) or `$q trace prob_` (false): trace it and
    /// write its value now.
    pub fn trace(&mut self, w: &mut World, curq: bool) {
        if curq {
            self.trace_curq = true;
        } else {
            self.trace_prob = true;
        }
        self.write_trace(w, curq);
    }

    fn write_trace(&self, w: &mut World, curq: bool) {
        let Some(ch) = self.channel else { return };
        let now = w.s.now;
        if curq {
            let v = self.curq as i64;
            w.out.with_tracer(|t, out| t.queue_int_var(out, ch, now, b'Q', v));
        } else {
            let v = self.prob;
            w.out.with_tracer(|t, out| t.queue_real_var(out, ch, now, b'p', v));
        }
    }

    /// Assign the traced `curq` (only a change is traced).
    fn set_curq(&mut self, w: &mut World) {
        let v = self.qlen();
        if v != self.curq {
            self.curq = v;
            if self.trace_curq {
                self.write_trace(w, true);
            }
        }
    }

    /// Assign the traced probability (only a change is traced).
    pub fn set_prob(&mut self, w: &mut World, v: f64) {
        if v != self.prob {
            self.prob = v;
            if self.trace_prob {
                self.write_trace(w, false);
            }
        }
    }
}

impl Discipline for Rem {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, _drops: &mut Drops) -> Verdict {
        if self.next_update.is_some() {
            self.catch_up(w);
        }
        self.enque(cap, w, p)
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        if self.next_update.is_some() {
            self.catch_up(w);
        }
        self.deque(w)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn bytes(&self) -> i64 {
        self.fifo.bytes()
    }
}

impl super::Boxed {
    /// `Qdisc::deques_when_empty` of a discipline other than DropTail.
    #[inline(never)]
    fn deques_when_empty(&self) -> bool {
        match self {
            super::Boxed::Rem(r) => r.markpkts,
            super::Boxed::FinishFq(f) => f.deques_when_empty,
            // DiffServ's schedulers move on at every dequeue
            super::Boxed::DsRed(_) => true,
            _ => false,
        }
    }
}

impl Qdisc {
    /// Does every dequeue matter, even one that finds the queue empty?
    /// REM's marking draws a random number at each, and DiffServ's
    /// schedulers move on at each (so the link's resume must happen when
    /// the queue empties, not be skipped as usual).
    #[inline]
    pub(crate) fn deques_when_empty(&self) -> bool {
        match self {
            Qdisc::Boxed(b) => b.deques_when_empty(),
            Qdisc::DropTail(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(w: &mut World, size: i32, ect: bool) -> PktId {
        let p = w.pool.alloc();
        let pk = w.pool.get_mut(p);
        pk.size = size;
        pk.ecn_capable = ect;
        p
    }

    /// The price update, by hand: 30 arrivals in a period of a link that
    /// sends 25, 22 queued against a target of 20.
    #[test]
    fn price_and_probability() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 100, ..Capacity::default() };
        let mut r = Rem { phi: 5.0, ..Rem::new() };
        r.set_link(8e6 * 1.25 / 0.1); // 12500 packets/s: 25 per 2 ms
        assert_eq!(r.updtime * r.ptc, 25.0);
        for _ in 0..30 {
            let p = pkt(&mut w, 1000, false);
            assert_eq!(r.enque(&cap, &mut w, p), Verdict::Queued, "probability 0 drops nothing");
        }
        for _ in 0..8 {
            r.deque(&mut w);
        }
        r.update(&mut w);
        let price = 0.001 * (30.0 + 0.1 * (22.0 - 20.0) - 25.0);
        assert_eq!((r.in_avg, r.price, r.count), (30.0, price, 0.0));
        assert_eq!(r.prob, 1.0 - 5f64.powf(-price));
        // a link that sends more than arrives lowers the price to 0, not below
        r.update(&mut w);
        assert_eq!((r.price, r.prob), (0.0, 0.0));
    }

    /// The arrival that brings the queue to its limit is dropped: REM holds
    /// `limit - 1` packets.
    #[test]
    fn holds_one_less_than_the_limit() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 5, ..Capacity::default() };
        let mut r = Rem::new();
        let vs: Vec<Verdict> = (0..6).map(|_| { let p = pkt(&mut w, 500, false); r.enque(&cap, &mut w, p) }).collect();
        assert_eq!(&vs[..4], &[Verdict::Queued; 4]);
        assert!(matches!(vs[4], Verdict::Dropped(_)) && matches!(vs[5], Verdict::Dropped(_)));
        assert_eq!((r.fifo.len(), r.bcount, r.curq, r.count), (4, 2000, 4, 6.0));
    }

    /// With marking, each dequeue draws (an empty one too) and marks
    /// ECN-capable packets with the probability; arrivals are not dropped.
    #[test]
    fn marking_at_dequeue_draws_every_time() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 100, ..Capacity::default() };
        let mut r = Rem { markpkts: true, prob: 1.0, ..Rem::new() };
        let a = pkt(&mut w, 1000, true);
        let b = pkt(&mut w, 1000, false);
        assert_eq!(r.enque(&cap, &mut w, a), Verdict::Queued);
        assert_eq!(r.enque(&cap, &mut w, b), Verdict::Queued);
        let mut twin = World::new_for_tests();
        assert_eq!(r.deque(&mut w), Some(a));
        assert_eq!(r.deque(&mut w), Some(b));
        assert_eq!(r.deque(&mut w), None);
        assert!(w.pool.get(a).ecn_to_echo && !w.pool.get(b).ecn_to_echo);
        assert_eq!(r.pmark, 1.0);
        // three draws were taken from the default stream
        for _ in 0..3 {
            twin.rng.default_stream().uniform_double();
        }
        assert_eq!(w.rng.default_stream().uniform_double(), twin.rng.default_stream().uniform_double());
    }

    /// A REM held by a scheduler ([`Rem::start_lazy`]) runs the updates its
    /// timer would have run, each at its own time, when it next sees a
    /// packet: the same price as updates run one by one at those times.
    #[test]
    fn lazy_updates_are_the_timers() {
        let mut w = World::new_for_tests();
        let cap = Capacity { limit: 100, ..Capacity::default() };
        let mut lazy = Rem { gamma: 0.01, ..Rem::new() };
        w.s.now = 0.5;
        lazy.start_lazy(&mut w);
        assert_eq!(lazy.next_update, Some(0.5 + 0.002));
        let mut by_hand = lazy.clone();
        let mut drops = Drops::default();
        let mut due = 0.5 + 0.002;
        for k in 0..40 {
            // arrivals every 0.7 ms, none taken out: the backlog grows
            w.s.now = 0.5 + 0.0007 * (k + 1) as f64;
            while due <= w.s.now {
                by_hand.update(&mut w);
                due += 0.002;
            }
            let (p, q) = (pkt(&mut w, 1000, false), pkt(&mut w, 1000, false));
            let v = Discipline::enqueue(&mut lazy, &cap, &mut w, p, &mut drops);
            assert_eq!(v, by_hand.enque(&cap, &mut w, q));
            assert_eq!((lazy.price, lazy.in_avg, lazy.count), (by_hand.price, by_hand.in_avg, by_hand.count), "arrival {k}");
        }
        assert!(lazy.price > 0.0);
        assert_eq!(lazy.next_update, Some(due));
    }
}
