//! Per-flow delay, loss and bottleneck at a node (ns-2 2.35's DelayBox,
//! delaybox/delaybox.cc): a classifier in front of a node's own, which
//! holds each TCP flow's packets for a delay drawn when the flow starts,
//! drops them with a loss rate drawn then too, and lets them out no faster
//! than a link speed drawn then too.
//!
//! Rules are set per (source, destination) node pair, as random variables
//! for the delay (ms), the loss rate and the speed (Mb/s).  A flow is a
//! (source, destination, flow id) triple, begun by a packet that looks like
//! a SYN (40 bytes, sequence number 0, TCP data) and, when the box is
//! symmetric, also by the SYN's answer (an ACK of 40 bytes, number 0),
//! which takes the values drawn for the forward direction.  A flow ends
//! when its FIN leaves the box.  Packets of no flow pass straight on.
//!
//! Each flow's packets wait in their own queue with one timer; `delta` is a
//! packet's send time after the previous one's, so the timer is set to the
//! head's.  As in ns-2, every packet of a flow draws from the default
//! random stream to decide its loss, whatever the loss rate.

use std::collections::BTreeMap;

use crate::packet::{PacketType, PktId};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};

/// TCP header flags the box reads.
const FIN: i32 = 0x01;

/// A rule: random variables (objects) for the delay in ms, the loss rate
/// and the speed in Mb/s.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub delay: ObjId,
    pub loss: Option<ObjId>,
    pub speed: Option<ObjId>,
}

/// A flow's drawn values, its queue and its timer.
#[derive(Clone, Debug)]
struct Flow {
    /// Seconds.
    delay: f64,
    loss: f64,
    /// Bytes per second (0: no limit).
    speed: f64,
    /// Packets with their send time after the previous one's.
    queue: std::collections::VecDeque<(PktId, f64)>,
    /// The send time of the last packet queued (0 when empty).
    deltasum: f64,
    timer: u32,
}

impl Flow {
    /// `DelayBoxQueue::add`: queue `p` (of `size` bytes, the previous one
    /// of `prev_size`) to leave at `at` or when the previous one has gone
    /// out at the flow's speed; returns its delta.
    fn add(&mut self, p: PktId, at: f64, prev_size: Option<i32>) -> f64 {
        let process = match prev_size {
            Some(s) if self.speed > 0.0 => s as f64 / self.speed,
            _ => 0.0,
        };
        let delta = if at < self.deltasum + process { process } else { at - self.deltasum };
        self.deltasum += delta;
        self.queue.push_back((p, delta));
        delta
    }

    /// `DelayBoxQueue::dequeue`: the head, and the delay to the next.
    fn dequeue(&mut self) -> Option<(PktId, f64)> {
        let (p, head_delta) = self.queue.pop_front()?;
        match self.queue.front_mut() {
            None => {
                self.deltasum = 0.0;
                Some((p, 0.0))
            }
            Some(next) => {
                let resched = next.1;
                next.1 += head_delta;
                Some((p, resched))
            }
        }
    }
}

/// The box: its rules, its flows, where packets go on (the node's own
/// classifier) and whether the answer of a flow takes the flow's values.
#[derive(Clone, Debug)]
pub struct FlowDelay {
    pub target: ObjId,
    pub symmetric: bool,
    pub rules: BTreeMap<(i32, i32), Rule>,
    flows: BTreeMap<(i32, i32, i32), Flow>,
    /// Timers of ended flows, for the next ones.
    spare_timers: Vec<u32>,
}

impl Default for FlowDelay {
    fn default() -> Self {
        FlowDelay { target: NONE, symmetric: true, rules: BTreeMap::new(), flows: BTreeMap::new(), spare_timers: Vec::new() }
    }
}

impl FlowDelay {
    /// The flows, in (source, destination, flow id) order, with their
    /// delay (s), loss rate and speed (bytes/s).
    pub fn flows(&self) -> impl Iterator<Item = ((i32, i32, i32), f64, f64, f64)> + '_ {
        self.flows.iter().map(|(k, f)| (*k, f.delay, f.loss, f.speed))
    }
}

impl Sim {
    fn flowdelay(&mut self, id: ObjId) -> &mut FlowDelay {
        match &mut self.objs[id as usize] {
            Obj::FlowDelay(d) => d,
            _ => unreachable!("not a flow delay box"),
        }
    }

    fn draw(&mut self, rv: ObjId) -> f64 {
        match self.objs.get(rv as usize) {
            Some(Obj::RanVar(r)) => r.value(&mut self.w),
            _ => 0.0,
        }
    }

    /// A new flow `key` with these values: its timer is a spare one or new.
    fn flowdelay_open(&mut self, id: ObjId, key: (i32, i32, i32), delay: f64, loss: f64, speed: f64) {
        let timer = match self.flowdelay(id).spare_timers.pop() {
            Some(t) => t,
            None => self.w.s.new_timer(id, 0),
        };
        let flow = Flow { delay, loss, speed, queue: Default::default(), deltasum: 0.0, timer };
        self.flowdelay(id).flows.insert(key, flow);
    }

    /// `DelayBoxClassifier::recv`.
    #[cold]
    #[inline(never)]
    pub(crate) fn flowdelay_recv(&mut self, id: ObjId, p: PktId) {
        let pk = self.w.pool.get(p);
        let key = (pk.saddr, pk.daddr, pk.fid);
        let (size, seqno, ptype) = (pk.size, pk.seqno, pk.ptype);
        let d = self.flowdelay(id);
        if !d.flows.contains_key(&key) {
            let (src, dst, _) = key;
            let opens = size == 40 && seqno == 0;
            if d.symmetric && opens && ptype == PacketType::Ack {
                // the answer to a SYN: the values of its flow
                let Some(fwd) = d.flows.get(&(dst, src, key.2)) else {
                    return self.flowdelay_forward(id, p);
                };
                let (delay, loss, speed) = (fwd.delay, fwd.loss, fwd.speed);
                self.flowdelay_open(id, key, delay, loss, speed);
            } else if opens && ptype == PacketType::Tcp {
                // a SYN: values drawn from the pair's rule (or, symmetric,
                // the reverse pair's)
                let rule = match d.rules.get(&(src, dst)) {
                    Some(r) => *r,
                    None => match d.rules.get(&(dst, src)) {
                        Some(r) if d.symmetric => *r,
                        _ => return self.flowdelay_forward(id, p),
                    },
                };
                let delay = self.draw(rule.delay) / 1000.0;
                let loss = match rule.loss {
                    Some(rv) => self.draw(rv),
                    None => 0.0,
                };
                let speed = match rule.speed {
                    Some(rv) => self.draw(rv) * 125000.0,
                    None => 0.0,
                };
                self.flowdelay_open(id, key, delay, loss, speed);
            } else {
                return self.flowdelay_forward(id, p);
            }
        }
        let num = self.w.rng.default_stream().uniform_range(0.0, 1.0);
        let now = self.w.s.now;
        let prev_size = {
            let d = self.flowdelay(id);
            d.flows[&key].queue.back().map(|&(q, _)| q)
        };
        let prev_size = prev_size.map(|q| self.w.pool.get(q).size);
        let flow = self.flowdelay(id).flows.get_mut(&key).expect("flow just found or opened");
        if flow.loss > 0.0 && num <= flow.loss {
            self.w.pool.free(p);
            return;
        }
        let at = now + flow.delay;
        let when = flow.add(p, at, prev_size);
        if flow.queue.len() == 1 {
            let t = flow.timer;
            self.w.s.timer_resched(t, when - now);
        }
    }

    /// `DelayBoxClassifier::forward_packet`: on to the node's classifier.
    fn flowdelay_forward(&mut self, id: ObjId, p: PktId) {
        let target = self.flowdelay(id).target;
        self.recv(target, p, None);
    }

    /// A flow's timer: its head packet goes on; a FIN ends the flow.
    #[cold]
    #[inline(never)]
    pub(crate) fn flowdelay_timeout(&mut self, id: ObjId, timer: u32) {
        let d = self.flowdelay(id);
        let Some((&key, _)) = d.flows.iter().find(|(_, f)| f.timer == timer) else { return };
        let flow = d.flows.get_mut(&key).expect("found");
        let Some((p, next)) = flow.dequeue() else { return };
        if self.w.pool.get(p).tcp_flags & FIN != 0 {
            let d = self.flowdelay(id);
            if let Some(f) = d.flows.remove(&key) {
                d.spare_timers.push(f.timer);
                self.w.s.timer_cancel(f.timer);
                for (q, _) in f.queue {
                    self.w.pool.free(q);
                }
            }
            return self.flowdelay_forward(id, p);
        }
        if !self.flowdelay(id).flows[&key].queue.is_empty() {
            self.w.s.timer_resched(timer, next);
        }
        self.flowdelay_forward(id, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_spaces_packets_at_the_speed() {
        let mut sim = Sim::ns2();
        let mut pkt = || sim.w.pool.alloc();
        let (a, b, c) = (pkt(), pkt(), pkt());
        let mut f = Flow { delay: 0.01, loss: 0.0, speed: 1000.0, queue: Default::default(), deltasum: 0.0, timer: 0 };
        // first packet: ready at 1.01, no previous
        assert_eq!(f.add(a, 1.01, None), 1.01);
        // second at the same time, behind 100 bytes at 1000 B/s: 0.1 later
        assert!((f.add(b, 1.01, Some(100)) - 0.1).abs() < 1e-12);
        // a third ready long after: its own time
        assert!((f.add(c, 2.0, Some(100)) - (2.0 - 1.11)).abs() < 1e-12);
        let (p, next) = f.dequeue().unwrap();
        assert_eq!(p, a);
        assert!((next - 0.1).abs() < 1e-12);
        let (_, next) = f.dequeue().unwrap();
        assert!((next - (2.0 - 1.11)).abs() < 1e-12);
        let (_, next) = f.dequeue().unwrap();
        assert_eq!(next, 0.0);
        assert_eq!(f.deltasum, 0.0);
        assert!(f.dequeue().is_none());
    }
}
