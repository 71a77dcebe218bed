//! DSR's flow state as ns-2 2.35 keeps it (dsr/flowstruct.cc; on by
//! default in 2.35's agent): the flow table (source, destination and flow
//! id; the next hop, the route, time-out, hop count, expected TTL, whether
//! the flow may serve as the default flow), the default-flow table (per
//! source and destination, the newest odd flow id), and the small table of
//! automatic route shortening.  Their rules, ns-2's quirks included:
//!
//! * flow ids come from one 16-bit counter per node, odd for flows that
//!   may be default flows, even for the others (the counter skips one to
//!   get the parity right);
//! * the flow table is searched newest first; an entry is never removed
//!   (`cleanup` returns at once in 2.35), at most 3,000 (ns-2 asserts);
//! * a default-flow entry keeps the newer of two ids in 16-bit serial
//!   arithmetic; flushing one moves the last entry into its place;
//! * a dead link `from -> to` ends, at once, the unexpired flows this node
//!   is the source of whose route holds it (time-out set a second before
//!   now);
//! * automatic route shortening remembers five packets at most (uid, flow,
//!   hops saved), the oldest place reused when full.

use super::dsr_cache::Route;

/// Most flow-table entries (`FLOW_TABLE_SIZE`).
pub const FLOW_TABLE_SIZE: usize = 3000;
/// Places in the route-shortening table (`ARS_TABLE_SIZE`).
pub const ARS_TABLE_SIZE: usize = 5;

/// One flow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flow {
    pub src: i32,
    pub dst: i32,
    pub id: u16,
    /// Packets seen towards "established end to end" (ns-2's `count`).
    pub count: i32,
    pub next_hop: i32,
    pub last_adv: f64,
    pub timeout: f64,
    pub hop_count: i32,
    pub expected_ttl: i32,
    pub allow_default: bool,
    pub route: Route,
}

/// The flow table and its default-flow table.
#[derive(Clone, Debug, Default)]
pub struct FlowTable {
    flows: Vec<Flow>,
    counter: u16,
    defaults: Vec<(i32, i32, u16)>,
}

impl FlowTable {
    pub fn get(&self, i: usize) -> &Flow {
        &self.flows[i]
    }

    pub fn get_mut(&mut self, i: usize) -> &mut Flow {
        &mut self.flows[i]
    }

    pub fn len(&self) -> usize {
        self.flows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.flows.is_empty()
    }

    /// The newest entry of flow `id` from `src` to `dst`.
    pub fn find(&self, src: i32, dst: i32, id: u16) -> Option<usize> {
        self.flows.iter().rposition(|f| f.src == src && f.dst == dst && f.id == id)
    }

    /// The newest entry from `src` to `dst` over `route`.
    pub fn find_route(&self, src: i32, dst: i32, route: &[i32]) -> Option<usize> {
        self.flows.iter().rposition(|f| f.src == src && f.dst == dst && f.route.as_slice() == route)
    }

    /// The next flow id (`generateNextFlowId`): odd if `allow_default`.
    pub fn next_id(&mut self, allow_default: bool) -> u16 {
        if (self.counter & 1 == 1) != allow_default {
            self.counter = self.counter.wrapping_add(1);
        }
        let id = self.counter;
        self.counter = self.counter.wrapping_add(1);
        id
    }

    /// A new entry (`createEntry`), its other fields zero; None if the flow
    /// is there already.  An odd id becomes the pair's default flow if it
    /// is newer than the one held.
    pub fn create(&mut self, src: i32, dst: i32, id: u16) -> Option<usize> {
        if self.find(src, dst, id).is_some() {
            return None;
        }
        assert!(self.flows.len() < FLOW_TABLE_SIZE, "DSR's flow table is full ({FLOW_TABLE_SIZE} flows)");
        self.flows.push(Flow { src, dst, id, count: 0, next_hop: 0, last_adv: 0.0, timeout: 0.0, hop_count: 0, expected_ttl: 0, allow_default: false, route: Route::default() });
        if id & 1 == 1 {
            self.insert_default(src, dst, id);
        }
        Some(self.flows.len() - 1)
    }

    fn insert_default(&mut self, src: i32, dst: i32, id: u16) {
        match self.defaults.iter_mut().find(|d| d.0 == src && d.1 == dst) {
            Some(d) => {
                if (id.wrapping_sub(d.2) as i16) > 0 {
                    d.2 = id;
                }
            }
            None => self.defaults.push((src, dst, id)),
        }
    }

    /// The default flow from `src` to `dst`, if any (`defaultFlow`).
    pub fn default_flow(&self, src: i32, dst: i32) -> Option<u16> {
        self.defaults.iter().find(|d| d.0 == src && d.1 == dst).map(|d| d.2)
    }

    /// Forgets the default flow from `src` to `dst` (`DRTable::flush`).
    pub fn flush_default(&mut self, src: i32, dst: i32) {
        let i = self.defaults.iter().position(|d| d.0 == src && d.1 == dst).expect("a default flow to flush");
        self.defaults.swap_remove(i);
    }

    /// The link `from -> to` is broken (`noticeDeadLink`): node `me`'s
    /// flows over it, unexpired at `now`, expire.
    pub fn dead_link(&mut self, me: i32, from: i32, to: i32, now: f64) {
        for f in self.flows.iter_mut() {
            if f.timeout >= now && f.src == me && f.route.as_slice().windows(2).any(|w| w[0] == from && w[1] == to) {
                f.timeout = now - 1.0;
            }
        }
    }
}

/// Automatic route shortening's table (`ARSTable`).
#[derive(Clone, Debug, Default)]
pub struct ArsTable {
    /// (uid, flow id, hops early; 0 for a free place)
    places: [(i32, u16, i32); ARS_TABLE_SIZE],
    victim: usize,
}

impl ArsTable {
    /// Packet `uid` of flow `fid` could have skipped `hops_early` hops.
    pub fn insert(&mut self, uid: i32, fid: u16, hops_early: i32) {
        assert!(hops_early != 0, "a route shortened by no hops");
        let mut i = self.victim;
        loop {
            if self.places[i].2 == 0 {
                break;
            }
            i = (i + 1) % ARS_TABLE_SIZE;
            if i == self.victim {
                break;
            }
        }
        if self.places[i].2 != 0 {
            self.victim = (self.victim + 1) % ARS_TABLE_SIZE;
        }
        self.places[i] = (uid, fid, hops_early);
    }

    /// The hops packet `uid` of flow `fid` could skip, the place freed
    /// (`findAndClear`); 0 if none, or if the packet's place was for
    /// another flow (freed too).
    pub fn find_and_clear(&mut self, uid: i32, fid: u16) -> i32 {
        for p in self.places.iter_mut() {
            if p.2 != 0 && p.0 == uid {
                let hops = if p.1 == fid { p.2 } else { 0 };
                p.2 = 0;
                return hops;
            }
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_ids_odd_for_default_flows() {
        let mut t = FlowTable::default();
        assert_eq!(t.next_id(true), 1);
        assert_eq!(t.next_id(true), 3);
        assert_eq!(t.next_id(false), 4);
        assert_eq!(t.next_id(false), 6);
        assert_eq!(t.next_id(true), 7);
        // (16 bits: the counter wraps)
        t.counter = u16::MAX;
        assert_eq!(t.next_id(true), u16::MAX);
        assert_eq!(t.next_id(false), 0);
    }

    #[test]
    fn entries_newest_first_and_default_flows() {
        let mut t = FlowTable::default();
        assert_eq!(t.create(0, 3, 1), Some(0));
        assert_eq!(t.create(0, 3, 1), None);
        assert_eq!(t.create(0, 3, 2), Some(1));
        assert_eq!(t.default_flow(0, 3), Some(1));
        t.get_mut(0).route = Route::of(&[0, 1, 3]);
        t.get_mut(1).route = Route::of(&[0, 1, 3]);
        assert_eq!(t.find_route(0, 3, &[0, 1, 3]), Some(1));
        // a newer odd id replaces the default; an older one does not
        t.create(0, 3, 5);
        assert_eq!(t.default_flow(0, 3), Some(5));
        t.create(0, 3, 3);
        assert_eq!(t.default_flow(0, 3), Some(5));
        // serial arithmetic: 1 is newer than 65533
        t.create(4, 5, 65533);
        t.create(4, 5, 1);
        assert_eq!(t.default_flow(4, 5), Some(1));
        // flushing moves the last pair into the freed place
        t.flush_default(0, 3);
        assert_eq!(t.default_flow(0, 3), None);
        assert_eq!(t.default_flow(4, 5), Some(1));
        assert_eq!(t.find(0, 3, 3), Some(3));
        assert_eq!(t.find(9, 3, 3), None);
    }

    #[test]
    fn a_dead_link_expires_this_nodes_live_flows_over_it() {
        let mut t = FlowTable::default();
        for (src, id, route, timeout) in [(0, 1, [0, 1, 2], 70.0), (0, 2, [0, 4, 2], 70.0), (9, 3, [9, 1, 2], 70.0), (0, 5, [0, 1, 2], 5.0)] {
            let i = t.create(src, 2, id).unwrap();
            t.get_mut(i).route = Route::of(&route);
            t.get_mut(i).timeout = timeout;
        }
        t.dead_link(0, 1, 2, 10.0);
        let timeouts: Vec<f64> = (0..t.len()).map(|i| t.get(i).timeout).collect();
        assert_eq!(timeouts, vec![9.0, 70.0, 70.0, 5.0]);
    }

    #[test]
    fn route_shortening_table() {
        let mut a = ArsTable::default();
        a.insert(10, 1, 2);
        a.insert(11, 1, 1);
        assert_eq!(a.find_and_clear(10, 1), 2);
        assert_eq!(a.find_and_clear(10, 1), 0);
        // the packet seen for another flow: its place freed, nothing saved
        assert_eq!(a.find_and_clear(11, 3), 0);
        assert_eq!(a.find_and_clear(11, 1), 0);
        // full: the victim's place is reused, and the victim moves on
        for uid in 20..25 {
            a.insert(uid, 1, 1);
        }
        a.insert(30, 1, 3);
        assert_eq!(a.find_and_clear(20, 1), 0);
        assert_eq!(a.find_and_clear(30, 1), 3);
        assert_eq!(a.find_and_clear(21, 1), 1);
        // (the search for a free place starts at the victim, now place 1:
        // 31 takes place 1, 32 wraps round to place 0)
        a.insert(31, 1, 2);
        a.insert(32, 1, 2);
        // full again: the victim's place (1) is reused
        a.insert(33, 1, 4);
        assert_eq!(a.find_and_clear(31, 1), 0);
        assert_eq!(a.find_and_clear(32, 1), 2);
        assert_eq!(a.find_and_clear(33, 1), 4);
        assert_eq!(a.find_and_clear(22, 1), 1);
    }
}
