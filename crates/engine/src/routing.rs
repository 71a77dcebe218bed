//! Static unicast routing, computed lazily.
//!
//! ns-2 computes all-pairs routes when `$ns run` starts (routing/route.cc
//! `RouteLogic::compute_routes`, an O(n^3) loop, then one Tcl `add-route` per
//! node pair).  That is why its set-up time grows with the square of the
//! number of nodes.  Here a node's next hops are computed the first time the
//! node forwards a packet, with the same algorithm and the same tie-breaking,
//! so the chosen paths are identical:
//!
//! * from source `k`, every direct neighbour `v` starts with distance
//!   `cost(k, v)` and next hop `v`;
//! * repeatedly the unsettled node with the smallest distance is settled,
//!   ties going to the smallest node id; its neighbours `w` whose distance
//!   strictly improves through it inherit its next hop;
//! * "no link" is ns-2's `INFINITY` (0x3fff), so distances are compared
//!   with the same arithmetic.
//!
//! A node with a single outgoing link needs no search at all: every
//! reachable destination goes through that link (`Heads::Stub`).
//!
//! The tables hold each link head resolved through the plain connectors
//! that start it (a link's `head_` connector, which leads to its queue or to
//! what was inserted in front of it): the object a packet really enters.
//! They are resolved when filled, and again whenever a connector's target
//! changes (`retarget`), from the table of connector targets (`conn`).  In
//! the benchmark over half the events are packets leaving a node over a
//! link, and the step from the head to the queue cost each of them a walk
//! of two table reads.  A target change re-resolves every filled table
//! (nodes x destinations): nothing while a script sets up (tables fill at
//! the first packets, or at `compute`), rare during a run.

use crate::sched::ObjId;
use crate::sim::NOT_CONNECTOR;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// ns-2's "no route" cost (routing/route.h).
pub const NS_INFINITY: f64 = 16383.0;

#[derive(Clone, Debug)]
pub struct LinkEntry {
    pub head: ObjId,
    pub cost: f64,
    pub up: bool,
}

#[derive(Default, Debug)]
pub struct Routing {
    /// Links by (from, to) node id; a later link between the same nodes
    /// replaces the earlier one, as ns-2's `link_(from:to)` array does.
    pub links: HashMap<(i32, i32), LinkEntry>,
    /// Nodes known to routing (ids 0..n).
    pub nnodes: i32,
    adj: Vec<Vec<(i32, f64)>>,
    adj_valid: bool,
    next: HashMap<i32, Vec<i32>>,
    /// Per source node, how to find the outgoing link head for a
    /// destination, filled on first use.
    heads: Vec<Option<Heads>>,
    /// Nodes reachable from a given node (shared by the stub nodes around it).
    reach: HashMap<i32, std::rc::Rc<Vec<bool>>>,
    /// Routes are installed only once the simulation has started.
    pub enabled: bool,
    /// Routes were recomputed while the simulation ran (`recompute`): every
    /// node's table is materialised and changes only at the next
    /// `recompute`, as ns-2's classifiers change only when routes are
    /// computed again.
    frozen: bool,
    /// Link states handed over for the next `compute` (`set_state`).
    pending: Vec<(i32, i32, bool, Option<f64>)>,
    /// Per object: a plain connector's target, `NOT_CONNECTOR` for any
    /// other object, kept by `Sim::add` and `Sim::connector_target_set`
    /// (with `retarget`).  What heads are resolved with; also the hop
    /// path's dense copy of a connector's target for a node's port (one
    /// small array instead of the connector's own cache line).
    pub(crate) conn: Vec<ObjId>,
    /// Hierarchical addresses (`hier.rs`): when set, a node's next hops
    /// are the ones its domain/cluster graph gives, not the shortest paths.
    pub hier: Option<Box<crate::hier::Hier>>,
}

const NO_HEAD: ObjId = ObjId::MAX;

/// A resolved head's "no route": unlike `NO_HEAD` it cannot be a head
/// resolved to `NONE` (a connector with no target, whose packets `recv`
/// frees), nor any object.
const NO_ROUTE: ObjId = ObjId::MAX - 2;

/// Next-hop link heads of one node, each with the object it resolves to
/// (`resolve`).
///
/// An explicit tag: `Option<Heads>` then tells `Table` by one byte compare,
/// cheaper per lookup than the niche in `to`'s capacity.
#[derive(Debug, Clone)]
#[repr(u8)]
enum Heads {
    /// Head per destination (`NO_HEAD` = no route) and its resolution
    /// (`NO_ROUTE` = no route).
    Table { to: Vec<ObjId>, head: Vec<ObjId> },
    /// A node with one outgoing link: every reachable destination uses it.
    Stub { me: i32, to: ObjId, head: ObjId, reach: std::rc::Rc<Vec<bool>> },
}

/// The object a packet sent to `head` enters: the end of the chain of plain
/// connectors from `head` (`conn`: each object's connector target, or
/// `NOT_CONNECTOR`).  A chain that loops is left at `head`: `recv` follows
/// it as before, when a packet takes it.
fn resolve(conn: &[ObjId], head: ObjId) -> ObjId {
    if head == NO_HEAD {
        return NO_ROUTE;
    }
    let mut to = head;
    for _ in 0..=conn.len() {
        match conn.get(to as usize) {
            Some(&t) if t != NOT_CONNECTOR => to = t,
            _ => return to,
        }
    }
    head
}

impl Heads {
    fn table(head: Vec<ObjId>, conn: &[ObjId]) -> Heads {
        let to = head.iter().map(|&h| resolve(conn, h)).collect();
        Heads::Table { to, head }
    }
}

#[derive(PartialEq)]
struct Cand {
    dist: f64,
    node: i32,
}

impl Eq for Cand {}

impl Ord for Cand {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on (dist, node id).
        other
            .dist
            .partial_cmp(&self.dist)
            .unwrap_or(Ordering::Equal)
            .then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for Cand {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Routing {
    pub fn add_node(&mut self, id: i32) {
        if id + 1 > self.nnodes {
            self.nnodes = id + 1;
        }
        self.invalidate();
    }

    pub fn add_link(&mut self, from: i32, to: i32, head: ObjId) {
        self.links.insert((from, to), LinkEntry { head, cost: 1.0, up: true });
        self.invalidate();
    }

    pub fn set_cost(&mut self, from: i32, to: i32, cost: f64) {
        if let Some(l) = self.links.get_mut(&(from, to)) {
            l.cost = cost;
        }
        self.invalidate();
    }

    /// Forget computed routes (topology or costs changed).  Once routes
    /// have been recomputed during the run, the installed tables stay until
    /// the next `recompute`.
    pub fn invalidate(&mut self) {
        self.adj_valid = false;
        self.next.clear();
        if !self.frozen {
            self.heads.clear();
        }
        self.reach.clear();
    }

    /// ns-2's `RouteLogic insert` / `reset` as `compute-routes` calls them
    /// for every link: the link counts for the next `compute` with `cost`
    /// (up) or not at all (down).  The routes in use are kept until then.
    pub fn set_state(&mut self, from: i32, to: i32, up: bool, cost: Option<f64>) {
        self.pending.push((from, to, up, cost));
    }

    /// ns-2's `RouteLogic compute` followed by the filling of the nodes'
    /// classifiers.  Before routing is enabled (the first computation, at
    /// `$ns run`) the link states are simply taken into account by the
    /// lazy computation; afterwards routes are computed again at once
    /// (`recompute`).
    pub fn compute(&mut self) {
        if self.enabled {
            self.freeze();
        }
        for (from, to, up, cost) in std::mem::take(&mut self.pending) {
            if let Some(l) = self.links.get_mut(&(from, to)) {
                l.up = up;
                if let Some(c) = cost {
                    l.cost = c;
                }
            }
        }
        self.invalidate();
        if self.enabled {
            self.recompute();
        }
    }

    /// Materialise every node's next-hop table from the current topology
    /// (what ns-2 installed when it last computed routes); from then on
    /// tables change only in `recompute`.
    pub(crate) fn freeze(&mut self) {
        if self.frozen || !self.enabled {
            return;
        }
        let n = self.nnodes.max(0) as usize;
        self.heads.resize(n, None);
        for src in 0..n as i32 {
            let t = self.table(src);
            self.heads[src as usize] = Some(Heads::table(t, &self.conn));
        }
        self.frozen = true;
    }

    /// The link head `src` uses for every destination by the current
    /// topology (`NO_HEAD` where there is no route).
    fn table(&mut self, src: i32) -> Vec<ObjId> {
        let n = self.nnodes.max(0) as usize;
        let mut h = vec![NO_HEAD; n];
        for d in 0..n as i32 {
            if let Some(nh) = self.next_hop(src, d) {
                if let Some(l) = self.links.get(&(src, nh)) {
                    h[d as usize] = l.head;
                }
            }
        }
        h
    }

    /// Compute routes again during the run (ns-2's `compute-routes` after
    /// link changes: `RouteLogic compute`, then the classifiers are filled).
    /// A destination reachable now gets its new next hop; one that is not
    /// keeps the route it had (ns-2 installs only the routes it finds).
    /// Called by `compute` once routing is enabled, the tables frozen and
    /// the computed routes forgotten.
    fn recompute(&mut self) {
        let n = self.nnodes.max(0) as usize;
        self.heads.resize(n, None);
        for src in 0..n as i32 {
            let new = self.table(src);
            let slot = &mut self.heads[src as usize];
            match slot {
                Some(Heads::Table { to, head }) => {
                    if head.len() < n {
                        head.resize(n, NO_HEAD);
                        to.resize(n, NO_ROUTE);
                    }
                    for (d, h) in new.into_iter().enumerate() {
                        if h != NO_HEAD {
                            head[d] = h;
                            to[d] = resolve(&self.conn, h);
                        }
                    }
                }
                _ => *slot = Some(Heads::table(new, &self.conn)),
            }
        }
    }

    /// A route set from outside (a dynamic routing protocol's table):
    /// from `src`, packets to `dst` enter `head` (a link's head, or an
    /// object that discards them).  Once one route is set, every table is
    /// materialised and changes only by `set_route` (or `compute`): a
    /// destination without a route set is unreachable, never computed.
    pub fn set_route(&mut self, src: i32, dst: i32, head: ObjId) {
        if src < 0 || dst < 0 {
            return;
        }
        self.enabled = true;
        self.frozen = true;
        let n = self.nnodes.max(src + 1).max(dst + 1) as usize;
        if self.heads.len() < n {
            self.heads.resize(n, None);
        }
        let slot = &mut self.heads[src as usize];
        if !matches!(slot, Some(Heads::Table { .. })) {
            *slot = Some(Heads::Table { to: Vec::new(), head: Vec::new() });
        }
        if let Some(Heads::Table { to, head: heads }) = slot {
            if heads.len() <= dst as usize {
                heads.resize(dst as usize + 1, NO_HEAD);
                to.resize(dst as usize + 1, NO_ROUTE);
            }
            heads[dst as usize] = head;
            to[dst as usize] = resolve(&self.conn, head);
        }
    }

    /// A connector's target changed (in `conn`): resolve every head again.
    pub fn retarget(&mut self) {
        let conn = &self.conn;
        for h in self.heads.iter_mut().flatten() {
            match h {
                Heads::Table { to, head } => {
                    for (t, &h) in to.iter_mut().zip(head.iter()) {
                        *t = resolve(conn, h);
                    }
                }
                Heads::Stub { to, head, .. } => *to = resolve(conn, *head),
            }
        }
    }

    fn build_adj(&mut self) {
        let n = self.nnodes.max(0) as usize;
        self.adj = vec![Vec::new(); n];
        for (&(a, b), l) in &self.links {
            if l.up && (a as usize) < n && (b as usize) < n {
                self.adj[a as usize].push((b, l.cost));
            }
        }
        for v in &mut self.adj {
            v.sort_by_key(|e| e.0);
        }
        self.adj_valid = true;
    }

    /// Next-hop node ids from `src` to every node (-1 = unreachable).
    fn compute_from(&mut self, src: i32) -> Vec<i32> {
        if let Some(h) = &self.hier {
            return h.next_hops(src, self.nnodes as usize);
        }
        if !self.adj_valid {
            self.build_adj();
        }
        let n = self.nnodes as usize;
        let mut route = vec![-1i32; n];
        let out = &self.adj[src as usize];
        let mut dist = vec![NS_INFINITY; n];
        let mut done = vec![false; n];
        done[src as usize] = true;
        let mut heap = BinaryHeap::new();
        for &(v, c) in out {
            if v == src {
                continue;
            }
            dist[v as usize] = c;
            if c != NS_INFINITY {
                route[v as usize] = v;
                heap.push(Cand { dist: c, node: v });
            }
        }
        while let Some(Cand { dist: d, node: o }) = heap.pop() {
            let ou = o as usize;
            if done[ou] || d != dist[ou] {
                continue;
            }
            // ns-2 only settles nodes strictly closer than INFINITY.
            if !(d < NS_INFINITY) {
                break;
            }
            done[ou] = true;
            for &(w, c) in &self.adj[ou] {
                let wu = w as usize;
                if done[wu] {
                    continue;
                }
                let nd = d + c;
                if nd < dist[wu] {
                    dist[wu] = nd;
                    route[wu] = route[ou];
                    heap.push(Cand { dist: nd, node: w });
                }
            }
        }
        route[src as usize] = src;
        route
    }

    fn reachable_from(&self, start: i32) -> Vec<bool> {
        let n = self.nnodes as usize;
        let mut seen = vec![false; n];
        let mut stack = vec![start];
        seen[start as usize] = true;
        while let Some(v) = stack.pop() {
            for &(w, c) in &self.adj[v as usize] {
                if c != NS_INFINITY && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        seen
    }

    /// The number a script sees for the address `id` (a node id inside the
    /// engine): the packed hierarchical address when there is one.
    pub fn addr_out(&self, id: i32) -> i32 {
        match &self.hier {
            Some(h) => h.pack(id).unwrap_or(id),
            None => id,
        }
    }

    /// The engine's address (node id) for a number a script gives: with
    /// hierarchical addresses, the node whose packed address it is.
    pub fn addr_in(&self, v: i32) -> i32 {
        match &self.hier {
            Some(h) => h.unpack(v).unwrap_or(v),
            None => v,
        }
    }

    /// Next-hop node from `src` towards `dst`, if any.
    pub fn next_hop(&mut self, src: i32, dst: i32) -> Option<i32> {
        if !self.enabled || src < 0 || dst < 0 || src >= self.nnodes || dst >= self.nnodes {
            return None;
        }
        if !self.next.contains_key(&src) {
            let r = self.compute_from(src);
            self.next.insert(src, r);
        }
        let nh = self.next[&src][dst as usize];
        if nh < 0 || nh == src {
            None
        } else {
            Some(nh)
        }
    }

    /// The object a packet from `src` towards `dst` enters: the head of the
    /// link it takes, resolved (`resolve`).  The per-packet lookup: one
    /// vector index once the node's routes are known.
    #[inline(always)]
    pub fn next_head(&mut self, src: i32, dst: i32) -> Option<ObjId> {
        if let Some(Some(h)) = self.heads.get(src as usize) {
            let to = match h {
                Heads::Table { to, .. } => to.get(dst as usize).copied(),
                Heads::Stub { me, to, reach, .. } => {
                    if dst != *me && reach.get(dst as usize).copied().unwrap_or(false) {
                        Some(*to)
                    } else {
                        Some(NO_ROUTE)
                    }
                }
            };
            if let Some(to) = to {
                return if to == NO_ROUTE { None } else { Some(to) };
            }
        }
        self.fill_heads(src, dst)
    }

    #[cold]
    fn fill_heads(&mut self, src: i32, dst: i32) -> Option<ObjId> {
        if !self.enabled || src < 0 || dst < 0 || src >= self.nnodes || dst >= self.nnodes {
            return None;
        }
        if self.frozen {
            // A node or destination that appeared after routes were last
            // computed: no route until they are computed again.
            return None;
        }
        if !self.adj_valid {
            self.build_adj();
        }
        let n = self.nnodes as usize;
        if self.heads.len() < n {
            self.heads.resize(n, None);
        }
        let out = &self.adj[src as usize];
        let heads = if out.len() == 1 && out[0].1 != NS_INFINITY && self.hier.is_none() {
            // Same answer as the search (see `compute_from`), in O(1) per node.
            let nh = out[0].0;
            let head = self.links[&(src, nh)].head;
            let reach = match self.reach.get(&nh) {
                Some(r) => r.clone(),
                None => {
                    let r = std::rc::Rc::new(self.reachable_from(nh));
                    self.reach.insert(nh, r.clone());
                    r
                }
            };
            Heads::Stub { me: src, to: resolve(&self.conn, head), head, reach }
        } else {
            Heads::table(self.table(src), &self.conn)
        };
        self.heads[src as usize] = Some(heads);
        self.next_head(src, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2's O(n^3) algorithm, written as route.cc does it, as a reference.
    fn reference(n: usize, links: &[(usize, usize, f64)], k: usize) -> Vec<i32> {
        let mut adj = vec![vec![NS_INFINITY; n + 1]; n + 1];
        for &(a, b, c) in links {
            adj[a + 1][b + 1] = c;
        }
        let nn = n + 1;
        let k = k + 1;
        let mut parent: Vec<usize> = (0..nn).collect();
        let mut hop = vec![0.0; nn];
        let mut route = vec![0i32; nn];
        for v in 1..nn {
            if parent[v] != k {
                hop[v] = adj[k][v];
                if hop[v] != NS_INFINITY {
                    route[v] = v as i32;
                }
            }
        }
        for _ in 1..nn {
            let mut o = 0;
            hop[0] = NS_INFINITY;
            for w in 1..nn {
                if parent[w] != k && hop[w] < hop[o] {
                    o = w;
                }
            }
            parent[o] = k;
            if o == 0 {
                continue;
            }
            for w in 1..nn {
                if parent[w] != k && hop[o] + adj[o][w] < hop[w] {
                    route[w] = route[o];
                    hop[w] = hop[o] + adj[o][w];
                }
            }
        }
        route[k] = k as i32;
        (1..nn).map(|v| route[v] - 1).collect()
    }

    /// A routing table over `n` nodes; link `i` has head object `i`.
    fn build(n: usize, links: &[(usize, usize, f64)]) -> Routing {
        let mut r = Routing::default();
        for i in 0..n {
            r.add_node(i as i32);
        }
        for (i, &(a, b, c)) in links.iter().enumerate() {
            r.add_link(a as i32, b as i32, i as ObjId);
            r.set_cost(a as i32, b as i32, c);
        }
        r.enabled = true;
        r
    }

    fn check(n: usize, links: &[(usize, usize, f64)]) {
        let mut r = build(n, links);
        // The per-packet lookup (a separate table, filled in another order)
        // agrees with the next hops, stubs included.
        let mut r2 = build(n, links);
        for k in 0..n {
            let want = reference(n, links, k);
            for d in 0..n {
                let head = r2.next_head(k as i32, d as i32);
                let expect = if d == k || want[d] < 0 {
                    None
                } else {
                    links.iter().rposition(|&(a, b, _)| a == k && b == want[d] as usize).map(|i| i as ObjId)
                };
                assert_eq!(head, expect, "head from {k} to {d} in {links:?}");
            }
        }
        for k in 0..n {
            let want = reference(n, links, k);
            for d in 0..n {
                let got = if d == k { k as i32 } else { r.next_hop(k as i32, d as i32).unwrap_or(-1) };
                assert_eq!(got, want[d], "from {k} to {d} in {links:?}");
            }
        }
    }

    /// With hierarchical addresses a node's routes are its cluster's
    /// graph's (hier.rs), here not the shortest path: tests/ns2's hier.tcl
    /// mesh, where 0.0.0 reaches 0.1.1 (node 4) over its direct link into
    /// cluster 0.1 (node 3, cost 3 + 1) and not through 0.0.1 (cost 3);
    /// a stub node takes its one link only for what its graph reaches.
    #[test]
    fn hierarchical_routes_replace_shortest_paths() {
        let mesh = [(0, 1, 1.0), (1, 2, 1.0), (0, 3, 3.0), (2, 4, 1.0), (3, 4, 1.0), (5, 6, 1.0), (4, 5, 1.0),
                    (2, 6, 2.0), (6, 7, 1.0), (0, 9, 4.0), (7, 8, 1.0), (8, 10, 1.0), (9, 10, 1.0), (10, 11, 1.0)];
        let mut both = Vec::new();
        for &(a, b, c) in &mesh {
            both.push((a, b, c));
            both.push((b, a, c));
        }
        let mut r = build(12, &both);
        assert_eq!(r.next_hop(0, 4), Some(1), "flat: the shortest path");
        let mut h = crate::hier::Hier::default();
        h.set_topology(vec![3, 2], &[3, 2, 2, 2, 3]).unwrap();
        let addrs = [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 1, 1], [0, 2, 0], [0, 2, 1], [1, 0, 0], [1, 0, 1],
                     [1, 1, 0], [1, 1, 1], [1, 1, 2]];
        for (i, a) in addrs.iter().enumerate() {
            h.set_addr(i as i32, *a);
        }
        for &(a, b, c) in &both {
            h.link(a as i32, b as i32, Some(c as i32));
        }
        h.compute();
        r.hier = Some(Box::new(h));
        r.invalidate();
        assert_eq!(r.next_hop(0, 4), Some(3), "hierarchical: towards cluster 0.1");
        assert_eq!(r.next_head(0, 4), Some(r.links[&(0, 3)].head));
        assert_eq!(r.next_hop(10, 4), Some(8));
        // node 11 has one link; an address nobody has is no route
        assert_eq!(r.next_head(11, 0), Some(r.links[&(11, 10)].head));
        r.add_node(12);
        assert_eq!(r.next_head(11, 12), None);
    }

    #[test]
    fn matches_ns2_on_equal_cost_paths() {
        // A diamond: 0 -> {1,2} -> 3, and a longer alternative.
        let l = [(0, 1, 1.0), (1, 0, 1.0), (0, 2, 1.0), (2, 0, 1.0), (1, 3, 1.0), (3, 1, 1.0), (2, 3, 1.0), (3, 2, 1.0)];
        check(4, &l);
    }

    #[test]
    fn matches_ns2_on_random_graphs() {
        let mut rng = crate::testrng::TestRng(12345);
        let mut rnd = |m: u64| rng.below(m);
        for _ in 0..200 {
            let n = 2 + rnd(9) as usize;
            let mut links = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if a != b && rnd(3) == 0 {
                        links.push((a, b, (1 + rnd(3)) as f64));
                    }
                }
            }
            check(n, &links);
        }
    }

    #[test]
    fn recompute_takes_new_routes_and_keeps_old_ones_where_none_is_found() {
        // 0 -1- 1 -1- 2 and a direct 0 -3- 2 (both directions; link i has head i).
        let l = [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0), (0, 2, 3.0), (2, 0, 3.0)];
        let mut r = build(3, &l);
        assert_eq!(r.next_head(0, 2), Some(0));
        assert_eq!(r.next_head(1, 2), Some(2));
        // The 1-2 link goes down: nothing changes until routes are computed.
        r.set_state(1, 2, false, None);
        r.set_state(2, 1, false, None);
        assert_eq!(r.next_head(0, 2), Some(0));
        assert_eq!(r.next_head(1, 2), Some(2));
        r.compute();
        assert_eq!(r.next_head(0, 2), Some(4));
        assert_eq!(r.next_head(1, 2), Some(1), "1 reaches 2 through 0");
        assert_eq!(r.next_hop(1, 2), Some(0));
        // 0-2 goes down too: 2 is unreachable from 0 and 1; their old routes stay.
        r.set_state(0, 2, false, None);
        r.set_state(2, 0, false, None);
        r.compute();
        assert_eq!(r.next_head(0, 2), Some(4));
        assert_eq!(r.next_head(1, 2), Some(1));
        assert_eq!(r.next_hop(0, 2), None, "route lookup sees the new computation");
        // Back up: the shortest paths again.
        for (a, b) in [(1, 2), (2, 1), (0, 2), (2, 0)] {
            r.set_state(a, b, true, Some(if a + b == 2 { 3.0 } else { 1.0 }));
        }
        r.compute();
        assert_eq!(r.next_head(0, 2), Some(0));
        assert_eq!(r.next_head(1, 2), Some(2));
        assert_eq!(r.next_head(2, 0), Some(3));
    }

    #[test]
    fn link_states_given_before_the_start_count_for_the_first_computation() {
        let l = [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0), (0, 2, 3.0), (2, 0, 3.0)];
        let mut r = build(3, &l);
        r.enabled = false;
        r.set_state(1, 2, false, None);
        r.compute();
        r.enabled = true;
        assert_eq!(r.next_head(0, 2), Some(4));
        assert_eq!(r.next_head(1, 2), Some(1));
        // Not computed again until asked: 1-2 coming back changes nothing yet.
        r.set_state(1, 2, true, Some(1.0));
        assert_eq!(r.next_head(1, 2), Some(1));
        r.compute();
        assert_eq!(r.next_head(1, 2), Some(2));
        assert_eq!(r.next_head(0, 2), Some(0));
    }

    #[test]
    fn recompute_matches_ns2_on_random_failures() {
        let mut rng = crate::testrng::TestRng(99);
        let mut rnd = |m: u64| rng.below(m);
        for _ in 0..100 {
            let n = 2 + rnd(7) as usize;
            let mut links = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if a != b && rnd(3) == 0 {
                        links.push((a, b, (1 + rnd(3)) as f64));
                    }
                }
            }
            let mut r = build(n, &links);
            // What ns-2's classifiers hold: filled at each computation with
            // the routes found, the others left as they were.
            let mut installed = vec![vec![None; n]; n];
            let mut up = vec![true; links.len()];
            for round in 0..4 {
                if round > 0 {
                    for (i, &(a, b, c)) in links.iter().enumerate() {
                        if rnd(3) == 0 {
                            up[i] = !up[i];
                        }
                        r.set_state(a as i32, b as i32, up[i], Some(c));
                    }
                    r.compute();
                }
                let live: Vec<(usize, usize, f64)> =
                    links.iter().zip(&up).filter(|(_, &u)| u).map(|(&l, _)| l).collect();
                for k in 0..n {
                    let want = reference(n, &live, k);
                    for d in 0..n {
                        if d != k && want[d] >= 0 {
                            let i = links.iter().rposition(|&(a, b, _)| a == k && b == want[d] as usize).unwrap();
                            installed[k][d] = Some(i as ObjId);
                        }
                    }
                }
                for k in 0..n {
                    for d in 0..n {
                        if d != k {
                            assert_eq!(r.next_head(k as i32, d as i32), installed[k][d], "round {round} {k}->{d} {links:?} {up:?}");
                        }
                    }
                }
            }
        }
    }

    /// Heads are resolved through plain connectors, again when a
    /// connector's target changes; a head resolving to no object stays a
    /// route, and a looping chain is left at the head.
    #[test]
    fn heads_resolve_through_connectors_and_follow_target_changes() {
        // Links 0->1 (head 0), 1->0 (head 1), 1->2 (head 2); objects 3.. are
        // connectors and queues: 0 -> 3 -> 5 (a queue), 2 -> 4 (a queue).
        let l = [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0)];
        let mut r = build(3, &l);
        r.conn = vec![3, NOT_CONNECTOR, 4, 5, NOT_CONNECTOR, NOT_CONNECTOR];
        assert_eq!(r.next_head(0, 2), Some(5), "stub node 0");
        assert_eq!(r.next_head(1, 2), Some(4));
        assert_eq!(r.next_head(1, 0), Some(1), "not a connector");
        r.conn[3] = 4;
        r.retarget();
        assert_eq!(r.next_head(0, 1), Some(4));
        r.conn[2] = crate::sim::NONE;
        r.retarget();
        assert_eq!(r.next_head(1, 2), Some(crate::sim::NONE), "a route to a null target");
        r.conn[3] = 0;
        r.retarget();
        assert_eq!(r.next_head(0, 1), Some(0), "a loop is left to recv");
        // Frozen tables (routes computed during the run) are resolved too.
        r.conn[3] = 5;
        r.compute();
        assert_eq!(r.next_head(0, 1), Some(5));
        r.conn[2] = 4;
        r.retarget();
        assert_eq!(r.next_head(1, 2), Some(4));
    }

    #[test]
    fn stub_nodes_route_through_their_only_link() {
        let l = [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0), (3, 1, 1.0), (1, 3, 1.0)];
        check(4, &l);
    }

    #[test]
    fn routes_set_from_outside_replace_the_computed_ones() {
        // 0 -1- 1 -1- 2 and a direct 0 -3- 2 (link i has head i).
        let l = [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 1.0), (2, 1, 1.0), (0, 2, 3.0), (2, 0, 3.0)];
        let mut r = build(3, &l);
        r.enabled = false;
        // Set routes only: the computed path (0 -> 1 -> 2) is never used,
        // a destination without a route set has none.
        r.set_route(0, 2, 4);
        r.set_route(0, 1, 99);
        assert_eq!(r.next_head(0, 2), Some(4));
        assert_eq!(r.next_head(0, 1), Some(99));
        assert_eq!(r.next_head(1, 2), None, "no route set at node 1");
        assert_eq!(r.next_head(2, 0), None, "no route set at node 2");
        r.set_route(0, 2, 0);
        assert_eq!(r.next_head(0, 2), Some(0));
        // A topology change forgets nothing that was set.
        r.set_cost(0, 1, 5.0);
        assert_eq!(r.next_head(0, 2), Some(0));
        assert_eq!(r.next_head(0, 1), Some(99));
    }
}
