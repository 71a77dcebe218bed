//! Address resolution as ns-2 2.35's ARP table does it (mac/arp.cc): one
//! entry per IP address, each holding at most one packet while its request
//! is out; a second packet for the same address replaces the first (which
//! is dropped: the trace's `IFQ ARP` drops); after three requests without
//! an answer the next packet gives up, dropping both (or handing them to
//! the link-layer failure call-back when they have one, which the caller
//! decides).  Any ARP packet heard teaches the table its sender.
//!
//! Generic over the packet handle `P`; the caller makes and sends the ARP
//! packets (28 bytes, sent after the link layer's delay).

/// Requests sent for one address before the next packet gives up.
pub const MAX_REQUESTS: u32 = 3;

#[derive(Clone, Debug, PartialEq)]
struct Entry<P> {
    ip: i32,
    mac: i32,
    up: bool,
    held: Option<P>,
    requests: u32,
}

/// What to do with a packet for an IP address.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolve<P> {
    /// Send it to this MAC address.
    Known(i32),
    /// It is held; send an ARP request.  A packet held before for the
    /// address, if any, is dropped.
    Request { dropped: Option<P> },
    /// Too many requests unanswered: the packet held before (if any), then
    /// this one, fail; the entry starts counting again.
    GiveUp { held: Option<P>, this: P },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArpTable<P> {
    entries: Vec<Entry<P>>,
}

impl<P> Default for ArpTable<P> {
    fn default() -> Self {
        ArpTable { entries: Vec::new() }
    }
}

impl<P> ArpTable<P> {
    fn entry(&mut self, ip: i32) -> &mut Entry<P> {
        match self.entries.iter().position(|e| e.ip == ip) {
            Some(i) => &mut self.entries[i],
            None => {
                self.entries.push(Entry { ip, mac: 0, up: false, held: None, requests: 0 });
                self.entries.last_mut().unwrap()
            }
        }
    }

    /// The MAC address of `ip`, if known.
    pub fn lookup(&self, ip: i32) -> Option<i32> {
        self.entries.iter().find(|e| e.ip == ip && e.up).map(|e| e.mac)
    }

    /// A packet `p` for `ip` (ns-2's `arpresolve`).
    pub fn resolve(&mut self, ip: i32, p: P) -> Resolve<P> {
        let e = self.entry(ip);
        if e.up {
            return Resolve::Known(e.mac);
        }
        if e.requests >= MAX_REQUESTS {
            e.requests = 0;
            return Resolve::GiveUp { held: e.held.take(), this: p };
        }
        e.requests += 1;
        let dropped = e.held.replace(p);
        Resolve::Request { dropped }
    }

    /// An ARP packet from `ip` at `mac` was heard (ns-2's `arpinput`): the
    /// packet held for it, to send now, if any.  (The caller answers a
    /// request for its own address.)
    pub fn learn(&mut self, ip: i32, mac: i32) -> Option<P> {
        let e = self.entry(ip);
        e.mac = mac;
        e.up = true;
        e.held.take()
    }

    /// Takes every held packet, the newest entry's first (ns-2 keeps its
    /// entries in a list it inserts at the head of): a reset's drops.
    pub fn take_held_newest_first(&mut self) -> Vec<P> {
        self.entries.iter_mut().rev().filter_map(|e| e.held.take()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_held_then_sent_when_learnt() {
        let mut t = ArpTable::default();
        assert_eq!(t.lookup(5), None);
        assert_eq!(t.resolve(5, "a"), Resolve::Request { dropped: None });
        // a second packet replaces the first
        assert_eq!(t.resolve(5, "b"), Resolve::Request { dropped: Some("a") });
        assert_eq!(t.learn(5, 5), Some("b"));
        assert_eq!(t.lookup(5), Some(5));
        assert_eq!(t.resolve(5, "c"), Resolve::Known(5));
        // learning from a node never asked about holds nothing
        assert_eq!(t.learn(7, 70), None);
        assert_eq!(t.resolve(7, "d"), Resolve::Known(70));
    }

    #[test]
    fn three_requests_then_the_next_packet_gives_up() {
        let mut t = ArpTable::default();
        assert_eq!(t.resolve(1, 10), Resolve::Request { dropped: None });
        assert_eq!(t.resolve(1, 11), Resolve::Request { dropped: Some(10) });
        assert_eq!(t.resolve(1, 12), Resolve::Request { dropped: Some(11) });
        assert_eq!(t.resolve(1, 13), Resolve::GiveUp { held: Some(12), this: 13 });
        // counting again from zero, nothing held
        assert_eq!(t.resolve(1, 14), Resolve::Request { dropped: None });
        assert_eq!(t.resolve(1, 15), Resolve::Request { dropped: Some(14) });
        assert_eq!(t.resolve(1, 16), Resolve::Request { dropped: Some(15) });
        assert_eq!(t.resolve(1, 17), Resolve::GiveUp { held: Some(16), this: 17 });
    }

    #[test]
    fn a_reset_takes_the_held_packets_newest_entry_first() {
        let mut t: ArpTable<i32> = ArpTable::default();
        assert!(matches!(t.resolve(1, 10), Resolve::Request { .. }));
        assert!(matches!(t.resolve(2, 20), Resolve::Request { .. }));
        assert!(matches!(t.resolve(3, 30), Resolve::Request { .. }));
        assert_eq!(t.learn(2, 7), Some(20));
        assert_eq!(t.take_held_newest_first(), vec![30, 10]);
        assert_eq!(t.take_held_newest_first(), Vec::<i32>::new());
    }
}
