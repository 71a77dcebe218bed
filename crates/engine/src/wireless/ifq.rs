//! The interface queue between a wireless node's link layer and its MAC, as
//! ns-2 2.35's routing-first drop-tail queue keeps it (queue/priqueue.cc on
//! queue/drop-tail.cc and queue/queue.cc).  Its rules, quirks included:
//!
//! * The queue is "blocked" while the MAC holds a packet from it.  A packet
//!   arriving while it is not blocked goes straight on (the queue is then
//!   always empty) and blocks it; when the MAC is done, the next packet goes
//!   on, or, none waiting, the queue unblocks.
//! * An ordinary packet is refused (dropped) when the queue holds
//!   `limit - 1` packets: at most `limit - 1` ever wait.  This holds even
//!   when the queue is not blocked, so with a limit of 1 every ordinary
//!   packet is dropped.
//! * A routing packet (when routing is preferred, the default) goes to the
//!   head of the queue; if the queue then holds `limit` packets or more,
//!   the packet at its tail is dropped (with a limit of 1, the routing
//!   packet itself).
//! * A drop comes before the packet sent on, in both cases.
//!
//! Generic over the packet handle `P`; the caller says which packets are
//! routing packets (ns-2: DSR, TORA, AODV, AOMDV, M-DART and its `message`
//! type) and sends on and drops what it is told to.
//!
//! A node whose `-ifqType` is `CMUPriQueue` has that queue instead
//! (cmu_ifq.rs: bands by packet type, 50 packets each); the same handle
//! holds either, so that the stack and the routing agents need not know
//! which ([`InterfaceQueue::cmu`]).

use super::cmu_ifq::{Band, CmuQueue};
use std::collections::VecDeque;

/// What an arriving packet caused, in ns-2's order: `dropped` first, then
/// `send`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrival<P> {
    /// A packet dropped (the arriving one or, for a routing packet, the
    /// one at the tail).
    pub dropped: Option<P>,
    /// A packet to hand to the MAC now (the queue is now blocked).
    pub send: Option<P>,
}

/// Packets an interface queue makes room for when it is made.
const INITIAL_ROOM: usize = 64;

#[derive(Clone, Debug)]
pub struct InterfaceQueue<P> {
    queue: VecDeque<P>,
    limit: usize,
    prefer_routing: bool,
    blocked: bool,
    /// ns-2's `CMUPriQueue` in place of the above, if the node has one.
    bands: Option<Box<CmuQueue<P>>>,
}

impl<P> InterfaceQueue<P> {
    /// A queue of `limit` packets (ns-2's `qlim_`, node-config's
    /// `-ifqLen`); `prefer_routing` is ns-2's `Prefer_Routing_Protocols`.
    pub fn new(limit: usize, prefer_routing: bool) -> Self {
        // (room for the usual limits at once; a larger limit, up to
        // 2^32 - 1 as ns-2 takes it, grows the queue as packets come)
        InterfaceQueue { queue: VecDeque::with_capacity(limit.min(INITIAL_ROOM)), limit, prefer_routing, blocked: false, bands: None }
    }

    /// ns-2's `CMUPriQueue` (cmu_ifq.rs): four bands of 50 packets, whatever
    /// `-ifqLen` says.  Packets arrive through [`InterfaceQueue::arrive_in`].
    pub fn cmu() -> Self {
        InterfaceQueue { queue: VecDeque::new(), limit: 0, prefer_routing: true, blocked: false, bands: Some(Box::default()) }
    }

    /// Whether this is a `CMUPriQueue` (whose packets arrive by band).
    pub fn is_cmu(&self) -> bool {
        self.bands.is_some()
    }

    pub fn len(&self) -> usize {
        match &self.bands {
            Some(b) => b.len(),
            None => self.queue.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the MAC holds a packet from this queue.
    pub fn blocked(&self) -> bool {
        match &self.bands {
            Some(b) => b.blocked(),
            None => self.blocked,
        }
    }

    /// A packet from the link layer to a `CMUPriQueue`, in band `band`
    /// (a drop-tail queue takes it as [`InterfaceQueue::arrive`] does,
    /// routing first).
    pub fn arrive_in(&mut self, p: P, band: Band) -> Arrival<P> {
        match &mut self.bands {
            Some(b) => b.arrive(p, band),
            None => self.arrive(p, band == Band::Routing),
        }
    }

    /// A packet from the link layer; `routing` says whether it is a routing
    /// protocol's.
    pub fn arrive(&mut self, p: P, routing: bool) -> Arrival<P> {
        if let Some(b) = &mut self.bands {
            return b.arrive(p, if routing { Band::Routing } else { Band::Normal });
        }
        let dropped = if routing && self.prefer_routing {
            self.queue.push_front(p);
            if self.queue.len() >= self.limit { self.queue.pop_back() } else { None }
        } else if self.queue.len() + 1 >= self.limit {
            Some(p)
        } else {
            self.queue.push_back(p);
            None
        };
        let mut send = None;
        if !self.blocked {
            send = self.queue.pop_front();
            if send.is_some() {
                self.blocked = true;
            }
        }
        Arrival { dropped, send }
    }

    /// The MAC is done with the packet it held: the next one to hand it,
    /// if any; if none, the queue unblocks (ns-2's `unblock_on_resume_`
    /// is true by default).
    pub fn resume(&mut self) -> Option<P> {
        if let Some(b) = &mut self.bands {
            return b.resume();
        }
        let next = self.queue.pop_front();
        if next.is_none() {
            self.blocked = false;
        }
        next
    }

    /// Takes out the first waiting packet (from the head) that `matches`
    /// (ns-2's `filter(next_hop)`, which a routing agent calls, once per
    /// packet, when a link breaks).
    pub fn take_first(&mut self, mut matches: impl FnMut(&P) -> bool) -> Option<P> {
        if let Some(b) = &mut self.bands {
            return b.take_first(matches);
        }
        let i = self.queue.iter().position(|p| matches(p))?;
        self.queue.remove(i)
    }

    /// Empties the queue, head first (ns-2's `reset`, whose packets are
    /// dropped as "end of simulation"; a `CMUPriQueue`'s in the order it
    /// would have sent them).
    pub fn purge(&mut self) -> impl Iterator<Item = P> + '_ {
        std::iter::from_fn(move || match &mut self.bands {
            Some(b) => b.purge().next(),
            None => self.queue.pop_front(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(dropped: Option<u32>, send: Option<u32>) -> Arrival<u32> {
        Arrival { dropped, send }
    }

    /// `-ifqLen 2147483648` (ns-2 runs with it): the queue does not ask
    /// for room for all of them at once (it asked for 8 GB and aborted;
    /// found by the fuzzer, seed 3105).
    #[test]
    fn a_huge_limit_reserves_little() {
        let mut q = InterfaceQueue::<u32>::new(2147483648, true);
        assert!(q.queue.capacity() <= INITIAL_ROOM);
        assert_eq!(q.arrive(1, false), arr(None, Some(1)));
        for p in 2..200 {
            assert_eq!(q.arrive(p, false), arr(None, None));
        }
        assert_eq!(q.len(), 198);
    }

    #[test]
    fn first_packet_goes_straight_on_and_blocks() {
        let mut q = InterfaceQueue::new(50, true);
        assert_eq!(q.arrive(1, false), arr(None, Some(1)));
        assert!(q.blocked());
        assert!(q.is_empty());
        assert_eq!(q.arrive(2, false), arr(None, None));
        assert_eq!(q.arrive(3, false), arr(None, None));
        assert_eq!(q.len(), 2);
        assert_eq!(q.resume(), Some(2));
        assert!(q.blocked());
        assert_eq!(q.resume(), Some(3));
        assert_eq!(q.resume(), None);
        assert!(!q.blocked());
        // unblocked again: the next packet goes straight on
        assert_eq!(q.arrive(4, false), arr(None, Some(4)));
    }

    #[test]
    fn at_most_limit_minus_one_ordinary_packets_wait() {
        let mut q = InterfaceQueue::new(4, true);
        assert_eq!(q.arrive(0, false).send, Some(0));
        for p in 1..4 {
            assert_eq!(q.arrive(p, false), arr(None, None));
        }
        assert_eq!(q.len(), 3);
        // the fourth waiting packet would make 4 = limit: refused
        assert_eq!(q.arrive(4, false), arr(Some(4), None));
        assert_eq!(q.len(), 3);
    }

    #[test]
    fn routing_packets_go_first_and_push_out_the_tail() {
        let mut q = InterfaceQueue::new(4, true);
        q.arrive(0, false);
        q.arrive(1, false);
        q.arrive(2, false);
        // 2 waiting; a routing packet at the head makes 3 < 4: nothing dropped
        assert_eq!(q.arrive(10, true), arr(None, None));
        // now 4 >= 4: the tail (2) goes
        assert_eq!(q.arrive(11, true), arr(Some(2), None));
        let order: Vec<u32> = std::iter::from_fn(|| q.resume()).collect();
        assert_eq!(order, vec![11, 10, 1]);
        assert!(!q.blocked());
    }

    #[test]
    fn routing_not_preferred_is_ordinary() {
        let mut q = InterfaceQueue::new(4, false);
        q.arrive(0, false);
        q.arrive(1, false);
        assert_eq!(q.arrive(10, true), arr(None, None));
        q.arrive(2, false);
        assert_eq!(q.arrive(11, true), arr(Some(11), None));
        let order: Vec<u32> = std::iter::from_fn(|| q.resume()).collect();
        assert_eq!(order, vec![1, 10, 2]);
    }

    #[test]
    fn limit_of_one() {
        // ns-2's quirk: an ordinary packet is refused even by an idle queue,
        // a routing packet drops itself.
        let mut q = InterfaceQueue::new(1, true);
        assert_eq!(q.arrive(1, false), arr(Some(1), None));
        assert!(!q.blocked());
        assert_eq!(q.arrive(2, true), arr(Some(2), None));
        assert!(!q.blocked());
    }

    #[test]
    fn routing_packet_to_an_idle_queue_goes_straight_on() {
        let mut q = InterfaceQueue::new(50, true);
        assert_eq!(q.arrive(7, true), arr(None, Some(7)));
        assert!(q.blocked());
    }

    #[test]
    fn take_first_match_and_purge() {
        let mut q = InterfaceQueue::new(50, true);
        // (id, next hop)
        q.arrive((0, 1), false);
        for p in [(1, 2), (2, 3), (3, 2), (4, 5)] {
            q.arrive(p, false);
        }
        assert_eq!(q.take_first(|p| p.1 == 2), Some((1, 2)));
        assert_eq!(q.take_first(|p| p.1 == 2), Some((3, 2)));
        assert_eq!(q.take_first(|p| p.1 == 2), None);
        assert_eq!(q.purge().collect::<Vec<_>>(), vec![(2, 3), (4, 5)]);
        assert!(q.is_empty());
        // the MAC still holds packet 0
        assert!(q.blocked());
    }

    #[test]
    fn cmu_handle_takes_packets_by_band() {
        let mut q = InterfaceQueue::cmu();
        assert!(q.is_cmu());
        assert_eq!(q.arrive_in(0, Band::Normal), arr(None, Some(0)));
        assert!(q.blocked());
        q.arrive_in(1, Band::Normal);
        q.arrive_in(2, Band::LowDelay);
        // (a routing packet given as such goes to the routing band, after
        // the routing packets before it, not at the head)
        q.arrive_in(3, Band::Routing);
        q.arrive(4, true);
        assert_eq!(q.len(), 4);
        assert_eq!(q.take_first(|&p| p == 2), Some(2));
        assert_eq!(q.resume(), Some(3));
        // fifty wait in a band whatever the limit elsewhere
        for p in 10..59 {
            assert_eq!(q.arrive_in(p, Band::Normal), arr(None, None));
        }
        assert_eq!(q.arrive_in(99, Band::Normal), arr(Some(99), None));
        assert_eq!(q.purge().take(3).collect::<Vec<_>>(), vec![4, 1, 10]);
        assert_eq!(q.len(), 48);
        assert!(q.blocked());
    }
}
