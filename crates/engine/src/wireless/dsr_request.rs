//! DSR's route discovery state as ns-2 2.35 keeps it (dsr/requesttable.cc
//! and dsragent.cc's `BackOffTest`, `getRouteForPacket`, send buffer):
//!
//! * the request table: 128 entries in a ring (the oldest place reused),
//!   one per node heard of, keyed by its address: the last request id
//!   processed from it (requests it sent), and, as a destination of this
//!   node's requests, how many are outstanding, when the last one went and
//!   whether it was the ring-zero search;
//! * the back-off between request cycles for a destination: 0.5 s times
//!   4^outstanding, at most 10 s;
//! * a packet without a route: a new cycle when the back-off allows it
//!   (the ring-zero search, which neighbours answer from their caches but
//!   do not pass on), else a propagating request once the ring-zero search
//!   has gone 30 ms unanswered (for the node's own packets; a salvaged
//!   packet's cycle is not widened, and after more than one cycle it is
//!   dropped), the packet waiting in the send buffer meanwhile;
//! * the send buffer: 64 places, a packet put in the first free one or,
//!   none free, in place of the one waiting longest (dropped); a packet
//!   waiting more than 30 s is dropped when the buffer is checked.
//!
//! Generic over the packet handle `P`; fixed arrays (no allocation after
//! the agent is made).

/// The request table's size (`request_table(128)`).
pub const TABLE_SIZE: usize = 128;
/// The send buffer's (`SEND_BUF_SIZE`).
pub const SEND_BUF_SIZE: usize = 64;
/// How long a packet may wait for a route (`SEND_TIMEOUT`, s).
pub const SEND_TIMEOUT: f64 = 30.0;
/// One back-off period and the longest back-off (`rt_rq_period`,
/// `rt_rq_max_period`, s).
pub const RT_RQ_PERIOD: f64 = 0.5;
pub const RT_RQ_MAX_PERIOD: f64 = 10.0;
/// How long the ring-zero search is given (`arp_timeout`, s).
pub const ARP_TIMEOUT: f64 = 30.0e-3;
/// Request cycles a salvaging node may start for a packet
/// (`dsr_salvage_max_requests`).
pub const SALVAGE_MAX_REQUESTS: u32 = 1;

/// Whether the last request to a destination was the ring-zero search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LastType {
    /// (ns-2 leaves an entry's type unset until its first request; fresh
    /// memory holds the first value, `LIMIT0`.)
    #[default]
    Limit0,
    Unlimited,
}

/// One node's entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub node: i32,
    pub req_num: i32,
    pub last_arp: f64,
    pub outstanding: u32,
    pub last_rt_req: f64,
    pub last_type: LastType,
}

impl Entry {
    fn new(node: i32, req_num: i32) -> Entry {
        Entry { node, req_num, last_arp: 0.0, outstanding: 0, last_rt_req: -(RT_RQ_PERIOD + 1.0), last_type: LastType::Limit0 }
    }
}

#[derive(Clone, Debug)]
pub struct RequestTable {
    entries: [Option<Entry>; TABLE_SIZE],
    ptr: usize,
}

impl Default for RequestTable {
    fn default() -> Self {
        RequestTable { entries: [None; TABLE_SIZE], ptr: 0 }
    }
}

impl RequestTable {
    fn find(&self, node: i32) -> Option<usize> {
        self.entries.iter().position(|e| e.is_some_and(|e| e.node == node))
    }

    fn place(&mut self, e: Entry) -> usize {
        let i = self.ptr;
        self.entries[i] = Some(e);
        self.ptr = (self.ptr + 1) % TABLE_SIZE;
        i
    }

    /// The last request id processed from `node` (0: none).
    pub fn get(&self, node: i32) -> i32 {
        self.find(node).map_or(0, |i| self.entries[i].unwrap().req_num)
    }

    /// `node`'s entry, made (in the ring's next place) if there is none.
    pub fn entry(&mut self, node: i32) -> &mut Entry {
        let i = match self.find(node) {
            Some(i) => i,
            None => self.place(Entry::new(node, 0)),
        };
        self.entries[i].as_mut().unwrap()
    }

    /// A request `req_num` from `node` is being processed.
    pub fn insert(&mut self, node: i32, req_num: i32) {
        match self.find(node) {
            Some(i) => self.entries[i].as_mut().unwrap().req_num = req_num,
            None => {
                self.place(Entry::new(node, req_num));
            }
        }
    }
}

/// Whether a new request cycle may start for entry `e` at `now`
/// (`BackOffTest`); if so the entry counts it.
pub fn back_off_allows(e: &mut Entry, now: f64) -> bool {
    let next = ((1u64 << (e.outstanding * 2)) as f64 * RT_RQ_PERIOD).min(RT_RQ_MAX_PERIOD);
    if next + e.last_rt_req > now {
        return false;
    }
    if e.outstanding < 15 {
        e.outstanding += 1;
    }
    e.last_rt_req = now;
    true
}

/// What to do for a packet without a route (`getRouteForPacket`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discovery {
    /// Send the ring-zero search (a request that goes no further than the
    /// neighbours).
    RingZero,
    /// Send a propagating request.
    Propagating,
    /// Send nothing now.
    Wait,
    /// Drop the (salvaged) packet: its cycles are spent (`NRTE`).
    Drop,
}

/// The decision for a packet to `dest` at `now`; `own` when this node is
/// the packet's source (else it is salvaging it).  The caller makes the
/// request (taking a request id only when it sends one) and, unless this
/// is a retry from the send buffer or the packet is dropped, buffers it.
pub fn discover(table: &mut RequestTable, dest: i32, own: bool, now: f64) -> Discovery {
    let e = table.entry(dest);
    if back_off_allows(e, now) {
        if !own && e.outstanding > SALVAGE_MAX_REQUESTS {
            return Discovery::Drop;
        }
        e.last_type = LastType::Limit0;
        e.last_arp = now;
        return Discovery::RingZero;
    }
    if e.last_type == LastType::Limit0 && own && now - e.last_arp > ARP_TIMEOUT {
        e.last_type = LastType::Unlimited;
        return Discovery::Propagating;
    }
    Discovery::Wait
}

/// A reply brought a route to `dest`: its back-off starts again.
pub fn route_found(table: &mut RequestTable, dest: i32) {
    let e = table.entry(dest);
    e.outstanding = 0;
    e.last_rt_req = 0.0;
}

/// The send buffer: each place a packet and when it was put there.
#[derive(Clone, Debug)]
pub struct SendBuffer<P> {
    slots: [Option<(P, f64)>; SEND_BUF_SIZE],
}

impl<P: Copy> Default for SendBuffer<P> {
    fn default() -> Self {
        SendBuffer { slots: [None; SEND_BUF_SIZE] }
    }
}

impl<P: Copy> SendBuffer<P> {
    /// Puts `p` in at `now`; returns the packet it pushed out (the one
    /// waiting longest, the first of equals), which the caller drops
    /// (`Ssb`, then a `TOUT` drop).
    pub fn stick(&mut self, p: P, now: f64) -> Option<P> {
        let mut oldest = 0;
        let mut min = f64::MAX;
        for (c, s) in self.slots.iter().enumerate() {
            match s {
                None => {
                    self.slots[c] = Some((p, now));
                    return None;
                }
                Some((_, t)) if *t < min => {
                    min = *t;
                    oldest = c;
                }
                Some(_) => {}
            }
        }
        let out = self.slots[oldest].map(|(q, _)| q);
        self.slots[oldest] = Some((p, now));
        out
    }

    /// The packet at place `c` and when it was put there.
    pub fn get(&self, c: usize) -> Option<(P, f64)> {
        self.slots[c]
    }

    /// Takes the packet at place `c` out (sent, or dropped).
    pub fn take(&mut self, c: usize) -> Option<P> {
        self.slots[c].take().map(|(p, _)| p)
    }

    /// Whether the packet at place `c` has waited too long at `now` (the
    /// periodic check drops it).
    pub fn expired(&self, c: usize, now: f64) -> bool {
        self.slots[c].is_some_and(|(_, t)| now - t > SEND_TIMEOUT)
    }

    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_packet_starts_the_ring_zero_search_then_a_propagating_request() {
        let mut t = RequestTable::default();
        assert_eq!(discover(&mut t, 3, true, 1.0), Discovery::RingZero);
        assert_eq!(t.entry(3).outstanding, 1);
        // (the buffer checked 20 ms later: the search still has time)
        assert_eq!(discover(&mut t, 3, true, 1.02), Discovery::Wait);
        // after 30 ms, one propagating request, then nothing until the
        // back-off (2 s after one outstanding cycle) is over
        assert_eq!(discover(&mut t, 3, true, 1.0400001), Discovery::Propagating);
        assert_eq!(discover(&mut t, 3, true, 1.08), Discovery::Wait);
        assert_eq!(discover(&mut t, 3, true, 2.99), Discovery::Wait);
        assert_eq!(discover(&mut t, 3, true, 3.0), Discovery::RingZero);
        assert_eq!(t.entry(3).outstanding, 2);
        // then 8 s, then at most 10 s
        assert_eq!(discover(&mut t, 3, true, 10.99), Discovery::Propagating);
        assert_eq!(discover(&mut t, 3, true, 10.999), Discovery::Wait);
        assert_eq!(discover(&mut t, 3, true, 11.0), Discovery::RingZero);
        assert_eq!(discover(&mut t, 3, true, 21.0), Discovery::RingZero);
        assert_eq!(t.entry(3).outstanding, 4);
        // a reply: the back-off starts again (from time 0)
        route_found(&mut t, 3);
        assert_eq!(discover(&mut t, 3, true, 21.5), Discovery::RingZero);
    }

    #[test]
    fn back_off_periods() {
        let mut e = Entry::new(1, 0);
        let mut when = vec![];
        let mut now = 0.0;
        while when.len() < 6 {
            if back_off_allows(&mut e, now) {
                when.push(now);
            }
            now += 0.25;
        }
        // (a fresh entry's last request is 1.5 s before time 0: the first
        // cycle may start at once, the next 0.5 * 4 s later, then 8 s,
        // then 10 s at most)
        assert_eq!(when, vec![0.0, 2.0, 10.0, 20.0, 30.0, 40.0]);
    }

    #[test]
    fn a_salvaged_packet_gets_one_cycle_and_no_propagating_request() {
        let mut t = RequestTable::default();
        assert_eq!(discover(&mut t, 5, false, 1.0), Discovery::RingZero);
        assert_eq!(discover(&mut t, 5, false, 1.1), Discovery::Wait);
        assert_eq!(discover(&mut t, 5, false, 3.0), Discovery::Drop);
        // (the dropped packet's cycle was counted)
        assert_eq!(t.entry(5).outstanding, 2);
    }

    #[test]
    fn request_ids_and_the_ring() {
        let mut t = RequestTable::default();
        assert_eq!(t.get(7), 0);
        t.insert(7, 4);
        assert_eq!(t.get(7), 4);
        t.insert(7, 9);
        assert_eq!(t.get(7), 9);
        // an entry made for a destination keeps its place when a request
        // from that node comes
        t.entry(8);
        t.insert(8, 2);
        assert_eq!(t.get(8), 2);
        // 128 more nodes: the ring comes round and reuses 7's place, then
        // 8's
        for n in 100..228 {
            t.insert(n, 1);
        }
        assert_eq!(t.get(7), 0);
        assert_eq!(t.get(8), 0);
        assert_eq!(t.get(227), 1);
        assert_eq!(t.get(102), 1);
    }

    #[test]
    fn send_buffer_pushes_out_the_longest_waiting() {
        let mut b = SendBuffer::default();
        for k in 0..SEND_BUF_SIZE as u32 {
            assert_eq!(b.stick(k, 1.0 + k as f64 * 0.01), None);
        }
        assert_eq!(b.len(), SEND_BUF_SIZE);
        // full: packet 0 (the oldest) goes, the new one takes its place
        assert_eq!(b.stick(100, 2.0), Some(0));
        assert_eq!(b.get(0), Some((100, 2.0)));
        assert_eq!(b.stick(101, 2.0), Some(1));
        // a freed place is taken first
        assert_eq!(b.take(5), Some(5));
        assert_eq!(b.stick(102, 2.5), None);
        assert_eq!(b.get(5), Some((102, 2.5)));
        // (packet 2 went in at 1.02 s)
        assert!(!b.expired(2, 31.0));
        assert!(b.expired(2, 31.03));
        assert!(!b.expired(0, 32.0));
    }
}
