//! The interface queue ns-2 2.35's DSR agent works with: `CMUPriQueue`
//! (queue/dsr-priqueue.cc), four separate FIFO queues by priority rather
//! than priqueue.cc's one drop-tail queue with routing packets put first.
//! Its rules:
//!
//! * A packet goes to its band's queue (routing protocols' packets: DSR,
//!   AODV, TORA, IMEP and DSDV's `message`; then audio and video; then
//!   TCP's acknowledgements, ns-2's `ack` type; then everything else), and
//!   is dropped if that queue holds 50 packets already (`IFQ_MAXLEN`,
//!   whatever `-ifqLen` says; the bands do not share room).
//! * The queue is "blocked" while the MAC holds a packet from it.  A packet
//!   arriving while it is not blocked is queued, then the head of the
//!   highest band not empty (that same packet: the queue was empty) goes
//!   on and blocks it; when the MAC is done, the head of the highest band
//!   not empty goes on, or, none waiting, the queue unblocks.
//! * A routing agent takes out, when a link breaks, the first packet for
//!   a next hop, searching the bands from the highest
//!   (`prq_get_nexthop`); it does not count as a drop.
//!
//! Generic over the packet handle `P`, as ifq.rs's queue; the caller says
//! each packet's band and sends on and drops what it is told to.

use super::ifq::Arrival;
use std::collections::VecDeque;

/// A packet's band, highest priority first (ns-2's `IFQ_RTPROTO`,
/// `IFQ_REALTIME`, `IFQ_LOWDELAY`, `IFQ_NORMAL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    Routing,
    Realtime,
    LowDelay,
    Normal,
}

/// Room in each band's queue (ns-2's `IFQ_MAXLEN`).
pub const BAND_LIMIT: usize = 50;

#[derive(Clone, Debug)]
pub struct CmuQueue<P> {
    bands: [VecDeque<P>; 4],
    blocked: bool,
}

impl<P> Default for CmuQueue<P> {
    fn default() -> Self {
        CmuQueue { bands: [VecDeque::new(), VecDeque::new(), VecDeque::new(), VecDeque::new()], blocked: false }
    }
}

impl<P> CmuQueue<P> {
    /// The packets waiting, all bands together (`prq_length`).
    pub fn len(&self) -> usize {
        self.bands.iter().map(VecDeque::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the MAC holds a packet from this queue.
    pub fn blocked(&self) -> bool {
        self.blocked
    }

    /// Whether band `b`'s queue is full (`prq_isfull`).
    pub fn is_full(&self, b: Band) -> bool {
        self.bands[b as usize].len() >= BAND_LIMIT
    }

    fn next(&mut self) -> Option<P> {
        self.bands.iter_mut().find_map(VecDeque::pop_front)
    }

    /// A packet from the link layer, of band `b`.
    pub fn arrive(&mut self, p: P, b: Band) -> Arrival<P> {
        if self.is_full(b) {
            return Arrival { dropped: Some(p), send: None };
        }
        self.bands[b as usize].push_back(p);
        let mut send = None;
        if !self.blocked {
            send = self.next();
            self.blocked = true;
        }
        Arrival { dropped: None, send }
    }

    /// The MAC is done with the packet it held: the next one to hand it,
    /// if any; if none, the queue unblocks.
    pub fn resume(&mut self) -> Option<P> {
        let next = self.next();
        if next.is_none() {
            self.blocked = false;
        }
        next
    }

    /// Takes out the first waiting packet that `matches` (its next hop is
    /// the broken link's far end), the bands searched from the highest,
    /// each from its head (`prq_get_nexthop`).
    pub fn take_first(&mut self, mut matches: impl FnMut(&P) -> bool) -> Option<P> {
        for q in &mut self.bands {
            if let Some(i) = q.iter().position(&mut matches) {
                return q.remove(i);
            }
        }
        None
    }

    /// Empties the queue in the order it would have sent the packets
    /// (ns-2's `reset`, whose packets are dropped as "end of simulation").
    pub fn purge(&mut self) -> impl Iterator<Item = P> + '_ {
        std::iter::from_fn(move || self.next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(dropped: Option<u32>, send: Option<u32>) -> Arrival<u32> {
        Arrival { dropped, send }
    }

    #[test]
    fn first_packet_goes_straight_on_and_blocks() {
        let mut q = CmuQueue::default();
        assert_eq!(q.arrive(1, Band::Normal), arr(None, Some(1)));
        assert!(q.blocked());
        assert!(q.is_empty());
        assert_eq!(q.arrive(2, Band::Normal), arr(None, None));
        assert_eq!(q.arrive(3, Band::Normal), arr(None, None));
        assert_eq!(q.len(), 2);
        assert_eq!(q.resume(), Some(2));
        assert!(q.blocked());
        assert_eq!(q.resume(), Some(3));
        assert_eq!(q.resume(), None);
        assert!(!q.blocked());
        assert_eq!(q.arrive(4, Band::Routing), arr(None, Some(4)));
    }

    #[test]
    fn bands_in_priority_order_each_first_in_first_out() {
        let mut q = CmuQueue::default();
        q.arrive(0, Band::Normal);
        q.arrive(1, Band::Normal);
        q.arrive(2, Band::LowDelay);
        q.arrive(3, Band::Routing);
        q.arrive(4, Band::Realtime);
        q.arrive(5, Band::Routing);
        q.arrive(6, Band::LowDelay);
        let order: Vec<u32> = std::iter::from_fn(|| q.resume()).collect();
        // (unlike priqueue.cc, routing packets keep their order of arrival)
        assert_eq!(order, vec![3, 5, 4, 2, 6, 1]);
        assert!(!q.blocked());
    }

    #[test]
    fn each_band_holds_fifty_whatever_the_others_hold() {
        let mut q = CmuQueue::default();
        // the first goes straight on, then 50 wait
        assert_eq!(q.arrive(0, Band::Normal).send, Some(0));
        for p in 1..=50 {
            assert_eq!(q.arrive(p, Band::Normal), arr(None, None));
        }
        assert!(q.is_full(Band::Normal));
        assert_eq!(q.arrive(51, Band::Normal), arr(Some(51), None));
        // a routing packet still finds room, and is sent next
        assert!(!q.is_full(Band::Routing));
        assert_eq!(q.arrive(100, Band::Routing), arr(None, None));
        assert_eq!(q.len(), 51);
        assert_eq!(q.resume(), Some(100));
        assert_eq!(q.resume(), Some(1));
        // room again
        assert_eq!(q.arrive(52, Band::Normal), arr(None, None));
    }

    #[test]
    fn take_first_searches_the_bands_in_order_and_purge() {
        let mut q = CmuQueue::default();
        // (id, next hop)
        q.arrive((0, 1), Band::Normal);
        for (p, b) in [((1, 2), Band::Normal), ((2, 3), Band::Normal), ((3, 2), Band::Routing), ((4, 2), Band::LowDelay), ((5, 5), Band::Routing)] {
            q.arrive(p, b);
        }
        assert_eq!(q.take_first(|p| p.1 == 2), Some((3, 2)));
        assert_eq!(q.take_first(|p| p.1 == 2), Some((4, 2)));
        assert_eq!(q.take_first(|p| p.1 == 2), Some((1, 2)));
        assert_eq!(q.take_first(|p| p.1 == 2), None);
        assert_eq!(q.purge().collect::<Vec<_>>(), vec![(5, 5), (2, 3)]);
        assert!(q.is_empty());
        // the MAC still holds packet 0
        assert!(q.blocked());
    }
}
