//! AODV's routing table as ns-2 2.35 keeps it (aodv/aodv_rtable.cc,
//! aodv_rtable.h): one entry per destination, with its sequence number,
//! hop count, next hop, expiry, state (down, up, in repair), the
//! precursors (neighbours that route through this node to the
//! destination) and the route request bookkeeping.  The order of the
//! lists is ns-2's, since AODV walks them and acts in that order (purging
//! routes, reporting broken ones): a new entry, precursor or neighbour
//! goes to the head of its list.
//!
//! Entries are named by a stable [`EntryId`] (ns-2's pointer), valid
//! until the entry is deleted.

/// ns-2's INFINITY2: no hop count known.
pub const INFINITY: u16 = 0xff;

/// How many route discovery latencies an entry remembers (MAX_HISTORY).
pub const HISTORY: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Down,
    Up,
    InRepair,
}

/// A route table entry (ns-2's `aodv_rt_entry`).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub dst: i32,
    pub seqno: u32,
    pub hops: u16,
    /// The last valid hop count.
    pub last_hop_count: i32,
    pub next_hop: i32,
    /// Head first.
    pub precursors: Vec<i32>,
    pub expire: f64,
    pub state: State,
    pub disc_latency: [f64; HISTORY],
    pub hist_index: usize,
    /// The TTL of the last request, when another may be sent, and how
    /// many were sent.
    pub req_last_ttl: i32,
    pub req_timeout: f64,
    pub req_count: u8,
    /// Neighbours using this route, head first.
    pub neighbours: Vec<i32>,
}

impl Entry {
    fn new(dst: i32) -> Entry {
        Entry {
            dst,
            seqno: 0,
            hops: INFINITY,
            last_hop_count: INFINITY as i32,
            next_hop: 0,
            precursors: Vec::new(),
            expire: 0.0,
            state: State::Down,
            disc_latency: [0.0; HISTORY],
            hist_index: 0,
            req_last_ttl: 0,
            req_timeout: 0.0,
            req_count: 0,
            neighbours: Vec::new(),
        }
    }

    /// Add a precursor unless it is one already (at the head).
    pub fn add_precursor(&mut self, id: i32) {
        if !self.precursors.contains(&id) {
            self.precursors.insert(0, id);
        }
    }

    pub fn remove_precursor(&mut self, id: i32) {
        if let Some(i) = self.precursors.iter().position(|&p| p == id) {
            self.precursors.remove(i);
        }
    }

    /// Add a neighbour (at the head; ns-2 does not look for it first).
    pub fn add_neighbour(&mut self, id: i32) {
        self.neighbours.insert(0, id);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EntryId(u32);

/// The table: entries in a slab, their list order beside it.
#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    slots: Vec<Option<Entry>>,
    free: Vec<u32>,
    /// Head first.
    order: Vec<u32>,
}

impl RouteTable {
    /// The entry for `dst` (ns-2's `rt_lookup`).
    pub fn lookup(&self, dst: i32) -> Option<EntryId> {
        self.order.iter().copied().find(|&i| self.slots[i as usize].as_ref().is_some_and(|e| e.dst == dst)).map(EntryId)
    }

    /// A new, down entry for `dst`, at the head of the list (ns-2's
    /// `rt_add`; there must be none for `dst`).
    pub fn add(&mut self, dst: i32) -> EntryId {
        debug_assert!(self.lookup(dst).is_none());
        let e = Entry::new(dst);
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Some(e);
                i
            }
            None => {
                self.slots.push(Some(e));
                (self.slots.len() - 1) as u32
            }
        };
        self.order.insert(0, i);
        EntryId(i)
    }

    /// Remove the entry for `dst`, if any (ns-2's `rt_delete`).
    pub fn delete(&mut self, dst: i32) {
        if let Some(EntryId(i)) = self.lookup(dst) {
            self.slots[i as usize] = None;
            self.free.push(i);
            self.order.retain(|&j| j != i);
        }
    }

    pub fn get(&self, id: EntryId) -> &Entry {
        self.slots[id.0 as usize].as_ref().expect("a live entry")
    }

    pub fn get_mut(&mut self, id: EntryId) -> &mut Entry {
        self.slots[id.0 as usize].as_mut().expect("a live entry")
    }

    /// The entries in list order (head first), as ids: a walk may change
    /// the entries it visits.
    pub fn ids(&self) -> impl Iterator<Item = EntryId> + '_ {
        self.order.iter().map(|&i| EntryId(i))
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_entries_go_first_and_start_down_with_no_hop_count() {
        let mut t = RouteTable::default();
        let a = t.add(3);
        t.add(7);
        t.add(5);
        let dsts: Vec<i32> = t.ids().map(|i| t.get(i).dst).collect();
        assert_eq!(dsts, [5, 7, 3]);
        let e = t.get(a);
        assert_eq!((e.state, e.hops, e.last_hop_count, e.seqno, e.expire), (State::Down, 255, 255, 0, 0.0));
        assert_eq!(t.lookup(7).map(|i| t.get(i).dst), Some(7));
        assert_eq!(t.lookup(9), None);
    }

    #[test]
    fn ids_stay_valid_across_deletes_and_reuse() {
        let mut t = RouteTable::default();
        let a = t.add(1);
        let b = t.add(2);
        t.get_mut(a).next_hop = 4;
        t.delete(2);
        t.delete(2);
        assert_eq!(t.len(), 1);
        assert_eq!(t.get(a).next_hop, 4);
        // the freed slot is reused; the new entry is first
        let c = t.add(9);
        assert_eq!(c, b);
        assert_eq!(t.ids().map(|i| t.get(i).dst).collect::<Vec<_>>(), [9, 1]);
    }

    #[test]
    fn precursors_once_each_head_first() {
        let mut t = RouteTable::default();
        let a = t.add(1);
        let e = t.get_mut(a);
        e.add_precursor(4);
        e.add_precursor(6);
        e.add_precursor(4);
        assert_eq!(e.precursors, [6, 4]);
        e.remove_precursor(6);
        e.remove_precursor(8);
        assert_eq!(e.precursors, [4]);
        e.add_neighbour(2);
        e.add_neighbour(2);
        assert_eq!(e.neighbours, [2, 2]);
    }
}
