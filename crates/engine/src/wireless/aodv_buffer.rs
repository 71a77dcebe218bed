//! AODV's buffer of packets waiting for a route, as ns-2 2.35 keeps it
//! (aodv/aodv_rqueue.cc): first in, first out, at most 64 packets, each
//! kept at most 30 s.  Its quirks, kept:
//!
//! * Packets that waited too long are taken out whenever a packet is put
//!   in or taken out (not when the buffer is only searched), and simply
//!   vanish: ns-2 unlinks them without dropping or freeing them, so no
//!   trace line shows them (the caller frees them, untraced).
//! * "Too long" is strictly after the deadline (`deadline < now`).
//! * A packet put into a full buffer pushes out the oldest; that one is
//!   dropped (at the routing agent's drop target, which ns-2 gives the
//!   buffer too) as "queue full" (traced `IFQ`) if its deadline is still
//!   ahead, else as "timed out" (`TOUT`; possible only when it falls due
//!   at this very instant).
//!
//! Generic over the packet handle; the caller gives each packet's IP
//! destination.

use std::collections::VecDeque;

/// ns-2's AODV_RTQ_MAX_LEN and AODV_RTQ_TIMEOUT.
pub const LIMIT: usize = 64;
pub const TIMEOUT: f64 = 30.0;

/// Why the buffer pushed a packet out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    Full,
    TimedOut,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Held<P> {
    p: P,
    dst: i32,
    deadline: f64,
}

#[derive(Clone, Debug)]
pub struct RouteBuffer<P> {
    held: VecDeque<Held<P>>,
    limit: usize,
    timeout: f64,
}

impl<P: Copy> Default for RouteBuffer<P> {
    fn default() -> Self {
        RouteBuffer { held: VecDeque::new(), limit: LIMIT, timeout: TIMEOUT }
    }
}

impl<P: Copy> RouteBuffer<P> {
    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Take out the packets whose deadline has passed (each, then the
    /// next, from the head: ns-2's `purge`), handing them to `expired`.
    fn purge(&mut self, now: f64, expired: &mut impl FnMut(P)) {
        while let Some(i) = self.held.iter().position(|h| h.deadline < now) {
            let h = self.held.remove(i).expect("found");
            expired(h.p);
        }
    }

    /// Hold packet `p` for `dst` (ns-2's `enque`): the packets that
    /// waited too long go to `expired`; if the buffer is full, the oldest
    /// is returned, with why.
    pub fn put(&mut self, p: P, dst: i32, now: f64, expired: &mut impl FnMut(P)) -> Option<(P, Pushed)> {
        self.purge(now, expired);
        let mut out = None;
        if self.held.len() == self.limit {
            let h = self.held.pop_front().expect("a full buffer has a head");
            out = Some((h.p, if h.deadline > now { Pushed::Full } else { Pushed::TimedOut }));
        }
        self.held.push_back(Held { p, dst, deadline: now + self.timeout });
        out
    }

    /// The oldest packet (ns-2's `deque()`), after the purge.
    pub fn take(&mut self, now: f64, expired: &mut impl FnMut(P)) -> Option<P> {
        self.purge(now, expired);
        self.held.pop_front().map(|h| h.p)
    }

    /// The oldest packet for `dst` (ns-2's `deque(dst)`), after the purge.
    pub fn take_for(&mut self, dst: i32, now: f64, expired: &mut impl FnMut(P)) -> Option<P> {
        self.purge(now, expired);
        let i = self.held.iter().position(|h| h.dst == dst)?;
        self.held.remove(i).map(|h| h.p)
    }

    /// Whether a packet for `dst` waits (ns-2's `find`: no purge, so a
    /// packet past its deadline still counts).
    pub fn holds_for(&self, dst: i32) -> bool {
        self.held.iter().any(|h| h.dst == dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: u32) {
        panic!("nothing expires here");
    }

    #[test]
    fn first_in_first_out_and_by_destination() {
        let mut b = RouteBuffer::default();
        for (p, dst) in [(1, 5), (2, 6), (3, 5)] {
            assert_eq!(b.put(p, dst, 1.0, &mut none), None);
        }
        assert!(b.holds_for(5) && !b.holds_for(7));
        assert_eq!(b.take_for(5, 2.0, &mut none), Some(1));
        assert_eq!(b.take_for(5, 2.0, &mut none), Some(3));
        assert_eq!(b.take_for(5, 2.0, &mut none), None);
        assert_eq!(b.take(2.0, &mut none), Some(2));
        assert!(b.is_empty());
    }

    #[test]
    fn packets_past_their_deadline_vanish_on_put_and_take_only() {
        let mut b = RouteBuffer::default();
        b.put(1, 5, 0.0, &mut none);
        b.put(2, 6, 10.0, &mut none);
        // at the deadline exactly, still held
        let mut gone = Vec::new();
        assert_eq!(b.take_for(9, 30.0, &mut |p| gone.push(p)), None);
        assert!(gone.is_empty());
        // after it, found by a search, taken out by the next put
        assert!(b.holds_for(5));
        b.put(3, 7, 30.5, &mut |p| gone.push(p));
        assert_eq!(gone, [1]);
        assert!(!b.holds_for(5));
        assert_eq!(b.len(), 2);
        assert_eq!(b.take(41.0, &mut |p| gone.push(p)), Some(3));
        assert_eq!(gone, [1, 2]);
    }

    #[test]
    fn a_full_buffer_pushes_out_its_oldest() {
        let mut b = RouteBuffer::default();
        for p in 0..LIMIT as u32 {
            assert_eq!(b.put(p, 1, p as f64 * 0.01, &mut none), None);
        }
        assert_eq!(b.put(100, 2, 1.0, &mut none), Some((0, Pushed::Full)));
        assert_eq!(b.len(), LIMIT);
        // the oldest falls due at this very instant: "timed out" (the
        // purge takes only packets strictly past their deadline)
        let due = 0.01 + TIMEOUT;
        assert_eq!(b.put(101, 2, due, &mut none), Some((1, Pushed::TimedOut)));
    }
}
