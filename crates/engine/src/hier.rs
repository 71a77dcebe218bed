//! Hierarchical addresses (domain.cluster.node) and the static routes ns-2
//! computes for them (routing/route.cc, `hier_insert` and
//! `hier_compute_routes`).
//!
//! A hierarchical address does not change how a packet is forwarded here:
//! packets still carry node ids, and a node's next hop towards every other
//! node is looked up in one table, as with flat addresses (so the wired
//! path costs nothing more).  What changes is how that table is made.  ns-2
//! does not route from node to node: each cluster sees a small graph of its
//! own nodes, the other clusters of its domain and the other domains, and a
//! packet goes towards the destination's domain when it is in another
//! domain, towards its cluster when it is in another cluster of the same
//! domain, and towards the node itself only inside its own cluster.  Those
//! graphs are abstractions (a cluster or domain is one vertex, whatever
//! links join it), so the routes can differ from the shortest paths between
//! nodes; they are the routes ns-2 installs.
//!
//! The graphs are built from the links in the order they are given (ns-2
//! walks its link array): a later link between the same two clusters or
//! domains sets their cost again, and a node's way into a cluster or domain
//! is the far end of the last link it has into it.  Costs are whole numbers
//! (ns-2 reads them with `atoi`: a LAN's half-cost links count 0).

use std::collections::HashMap;

/// An address: domain, cluster and node, each from 0.
pub type Addr = [i32; 3];

/// ns-2's "no route" cost (routing/route.h).
const INF: i32 = 0x3fff;

/// The hierarchy, the nodes' addresses and the links given for routing.
#[derive(Debug, Default, Clone)]
pub struct Hier {
    /// Address of each node, by node id (`None`: a node without one).
    pub addrs: Vec<Option<Addr>>,
    /// Clusters in each domain.
    pub clusters: Vec<i32>,
    /// Nodes in each cluster, by domain then cluster.
    pub sizes: Vec<Vec<i32>>,
    /// Links as given: (from, to, Some(cost)) for a link that is up,
    /// (from, to, None) for one that is down.
    links: Vec<(Addr, Addr, Option<i32>)>,
    /// Each cluster's graph and routes, by (domain, cluster) from 1, made by
    /// `compute`.
    graphs: HashMap<(i32, i32), Graph>,
    /// Where each level's field sits in the packed number a script sees
    /// (shift, mask), domain first.
    pub fields: [(u32, i32); 3],
    /// Base stations (mobile nodes with wired routing, by node id, and
    /// their objects): a packet such a node's wired routes do not place
    /// goes to its radio's routing agent, as ns-2's classifier passes it
    /// to its default target.
    pub bases: Vec<(i32, u32)>,
}

/// One cluster's view (ns-2's `hadj_[i]`, `hroute_[i]`, `hconnect_[i]`):
/// vertices from 1, first the cluster's nodes (`a` of them), then the
/// domain's clusters, then the domains; `n` = a + clusters + 1 + domains + 1
/// (ns-2's row length, one vertex more than used).
#[derive(Debug, Clone)]
struct Graph {
    a: i32,
    b: i32,
    n: i32,
    adj: Vec<i32>,
    route: Vec<i32>,
    /// (node vertex, cluster or domain vertex) -> the far end of the link
    /// that node has into it.
    connect: HashMap<(i32, i32), Addr>,
}

impl Graph {
    fn new(a: i32, clusters: i32, domains: i32) -> Graph {
        let n = a + clusters + 1 + domains + 1;
        Graph { a, b: clusters + 1, n, adj: vec![INF; (n * n) as usize], route: Vec::new(), connect: HashMap::new() }
    }
    fn set(&mut self, i: i32, j: i32, cost: i32) {
        if i < self.n && j < self.n {
            self.adj[(i * self.n + j) as usize] = cost;
        }
    }
    /// The vertex of node `z`, cluster `y` or domain `x` (from 1).
    fn node(&self, z: i32) -> i32 {
        z
    }
    fn cluster(&self, y: i32) -> i32 {
        self.a + y
    }
    fn domain(&self, x: i32) -> i32 {
        self.a + (self.b - 1) + x
    }

    /// route.cc's `hier_compute_routes`, for the cluster's own nodes (the
    /// only sources ever looked up): a search from each, settling the
    /// nearest unsettled vertex (ties to the lowest), a vertex reached more
    /// cheaply taking the first hop of the one it was reached through.
    fn compute(&mut self) {
        let n = self.n as usize;
        let adj = |i: usize, j: usize| self.adj[i * n + j] as f64;
        let mut route = vec![0i32; n * n];
        let mut hop = vec![0f64; n];
        let mut parent = vec![0usize; n];
        for k in 1..=(self.a as usize).min(n - 1) {
            for (v, p) in parent.iter_mut().enumerate() {
                *p = v;
            }
            for v in 1..n {
                if parent[v] != k {
                    hop[v] = adj(k, v);
                    if hop[v] != INF as f64 {
                        route[k * n + v] = v as i32;
                    }
                }
            }
            for _ in 1..n {
                let mut o = 0;
                hop[0] = INF as f64;
                for w in 1..n {
                    if parent[w] != k && hop[w] < hop[o] {
                        o = w;
                    }
                }
                parent[o] = k;
                if o == 0 {
                    continue;
                }
                for w in 1..n {
                    if parent[w] != k && hop[o] + adj(o, w) < hop[w] {
                        route[k * n + w] = route[k * n + o];
                        hop[w] = hop[o] + adj(o, w);
                    }
                }
            }
            route[k * n + k] = k as i32;
        }
        self.route = route;
    }
}

/// The most vertices a cluster's route tables may have (nodes, the
/// domain's clusters, the domains): two tables of 8192 x 8192 entries take
/// 512 MiB.
pub const MAX_VERTICES: i64 = 8192;

/// Why the routes cannot be computed: a node's address outside the
/// hierarchy given (node id, its address).
#[derive(Debug, Clone, PartialEq)]
pub struct OutOfRange {
    pub node: i32,
    pub addr: Addr,
}

impl Hier {
    /// The hierarchy: clusters per domain, nodes per cluster (domain by
    /// domain).  Forgets the links given before; the routes computed from
    /// them stay until `compute`.
    pub fn set_topology(&mut self, clusters: Vec<i32>, nodes: &[i32]) -> Result<(), String> {
        let total: i32 = clusters.iter().sum();
        if nodes.len() as i32 != total {
            return Err(format!("{} cluster sizes for {} clusters", nodes.len(), total));
        }
        // Each cluster's route tables are n x n (route.cc's
        // hier_compute_routes: n = its nodes + the domain's clusters + the
        // domains + 2), two of them here; ns-2 sizes them with int
        // arithmetic and aborts where n x n overflows or cannot be had
        // (std::bad_array_new_length, std::bad_alloc).
        if let Some(&c) = clusters.iter().find(|&&c| c < 0) {
            return Err(format!("a domain of {c} clusters (clusters_num_ must be 0 or more)"));
        }
        if let Some(&a) = nodes.iter().find(|&&a| a < 0) {
            return Err(format!("a cluster of {a} nodes (nodes_num_ must be 0 or more)"));
        }
        let domains = clusters.len() as i64;
        let mut it = nodes.iter();
        for &c in &clusters {
            for _ in 0..c {
                let a = *it.next().unwrap() as i64;
                let n = a + c as i64 + 1 + domains + 1;
                if n > MAX_VERTICES {
                    return Err(format!(
                        "a cluster of {a} nodes in a domain of {c} clusters, with {domains} domains: its route tables would be \
                         {n} x {n} entries (at most {MAX_VERTICES} x {MAX_VERTICES} here, {} bytes; ns-2 aborts on tables it cannot allocate)",
                        MAX_VERTICES * MAX_VERTICES * 8
                    ));
                }
            }
        }
        let mut it = nodes.iter();
        self.sizes = clusters.iter().map(|&c| (0..c).map(|_| *it.next().unwrap()).collect()).collect();
        self.clusters = clusters;
        self.links.clear();
        Ok(())
    }

    pub fn set_addr(&mut self, node: i32, addr: Addr) {
        if node < 0 {
            return;
        }
        let i = node as usize;
        if self.addrs.len() <= i {
            self.addrs.resize(i + 1, None);
        }
        self.addrs[i] = Some(addr);
    }

    pub fn addr(&self, node: i32) -> Option<Addr> {
        self.addrs.get(node as usize).copied().flatten()
    }

    /// Is `a` inside the hierarchy?
    pub fn contains(&self, a: Addr) -> bool {
        a.iter().all(|&x| x >= 0)
            && (a[0] as usize) < self.clusters.len()
            && a[1] < self.clusters[a[0] as usize]
            && a[2] < self.sizes[a[0] as usize][a[1] as usize]
    }

    /// The first node outside the hierarchy that has a link, if any (the
    /// routes are computed from the links; a node with none, such as a
    /// Mobile IP host numbered past its cluster's count, as WLtutorial's
    /// wireless3 numbers 1.0.2 in a cluster of 2, is not in them, as in
    /// ns-2).
    pub fn check(&self) -> Result<(), OutOfRange> {
        for (i, a) in self.addrs.iter().enumerate() {
            if let Some(a) = a {
                let linked = self.links.iter().any(|(x, y, _)| x == a || y == a);
                if linked && !self.contains(*a) {
                    return Err(OutOfRange { node: i as i32, addr: *a });
                }
            }
        }
        Ok(())
    }

    /// A link between two nodes, up (`Some(cost)`) or down (`None`), in the
    /// order ns-2 would insert it.
    pub fn link(&mut self, from: i32, to: i32, cost: Option<i32>) {
        if let (Some(a), Some(b)) = (self.addr(from), self.addr(to)) {
            self.links.push((a, b, cost));
        }
    }

    fn graph(&mut self, d: i32, c: i32) -> &mut Graph {
        let domains = self.clusters.len() as i32;
        let clusters = self.clusters[(d - 1) as usize];
        let a = self.sizes[(d - 1) as usize][(c - 1) as usize];
        self.graphs.entry((d, c)).or_insert_with(|| Graph::new(a, clusters, domains))
    }

    /// route.cc's `hier_insert` (cost) and `hier_reset` (`None`), on
    /// addresses from 1.
    fn insert(&mut self, s: [i32; 3], t: [i32; 3], cost: Option<i32>) {
        let c = cost.unwrap_or(INF);
        let (x1, y1, z1) = (s[0], s[1], s[2]);
        let (x2, y2) = (t[0], t[1]);
        if x1 == x2 {
            if y1 == y2 {
                let g = self.graph(x1, y1);
                let (i, j) = (g.node(z1), g.node(t[2]));
                g.set(i, j, c);
            } else {
                for y in 1..=self.clusters[(x1 - 1) as usize] {
                    if cost.is_none() && !self.graphs.contains_key(&(x1, y)) {
                        continue;
                    }
                    let g = self.graph(x1, y);
                    let (i, j) = (g.cluster(y1), g.cluster(y2));
                    g.set(i, j, c);
                    if y == y1 {
                        let (i, j) = (g.node(z1), g.cluster(y2));
                        g.set(i, j, c);
                        if cost.is_some() {
                            g.connect.insert((i, j), [t[0] - 1, t[1] - 1, t[2] - 1]);
                        }
                    }
                }
            }
        } else {
            for x in 1..=self.clusters.len() as i32 {
                for y in 1..=self.clusters[(x - 1) as usize] {
                    if cost.is_none() && !self.graphs.contains_key(&(x, y)) {
                        continue;
                    }
                    let g = self.graph(x, y);
                    let (i, j) = (g.domain(x1), g.domain(x2));
                    g.set(i, j, c);
                    if cost.is_none() && x == x1 {
                        let (i, j) = (g.cluster(y1), g.domain(x2));
                        g.set(i, j, c);
                        if y == y1 {
                            let (i, j) = (g.node(z1), g.domain(x2));
                            g.set(i, j, c);
                        }
                    }
                }
            }
            if cost.is_some() {
                for y in 1..=self.clusters[(x1 - 1) as usize] {
                    let g = self.graph(x1, y);
                    let (i, j) = (g.cluster(y1), g.domain(x2));
                    g.set(i, j, c);
                }
                let g = self.graph(x1, y1);
                let (i, j) = (g.node(z1), g.domain(x2));
                g.set(i, j, c);
                g.connect.insert((i, j), [t[0] - 1, t[1] - 1, t[2] - 1]);
            }
        }
    }

    /// Build every cluster's graph from the links given and compute its
    /// routes (`hier_compute`).
    pub fn compute(&mut self) {
        self.graphs.clear();
        for (s, t, cost) in self.links.clone() {
            self.insert([s[0] + 1, s[1] + 1, s[2] + 1], [t[0] + 1, t[1] + 1, t[2] + 1], cost);
        }
        for g in self.graphs.values_mut() {
            g.compute();
        }
    }

    /// The next hop's address from `s` towards `t` (route.cc's
    /// `lookup_hier`): towards `t`'s domain, else its cluster, else `t`.
    pub fn lookup(&self, s: Addr, t: Addr) -> Option<Addr> {
        let g = self.graphs.get(&(s[0] + 1, s[1] + 1))?;
        let k = g.node(s[2] + 1);
        let v = if s[0] != t[0] {
            g.domain(t[0] + 1)
        } else if s[1] != t[1] {
            g.cluster(t[1] + 1)
        } else {
            g.node(t[2] + 1)
        };
        if k >= g.n || v >= g.n || g.route.is_empty() {
            return None;
        }
        let nh = g.route[(k * g.n + v) as usize];
        if nh <= 0 {
            None
        } else if nh <= g.a {
            Some([s[0], s[1], nh - 1])
        } else {
            g.connect.get(&(k, nh)).copied()
        }
    }

    /// The packed number of node `id`'s address (ns-2's `str2addr`).
    pub fn pack(&self, id: i32) -> Option<i32> {
        let a = self.addr(id)?;
        Some((0..3).fold(0, |v, i| v | ((a[i] & self.fields[i].1) << self.fields[i].0)))
    }

    /// The bits of a packed address that name its subnet (domain and
    /// cluster: ns-2's `get_subnetaddr`).
    pub fn subnet_mask(&self) -> i32 {
        (0..2).fold(0, |m, i| m | (self.fields[i].1 << self.fields[i].0))
    }

    /// The node whose packed address is `v`.
    pub fn unpack(&self, v: i32) -> Option<i32> {
        if v < 0 {
            return None;
        }
        let a = [0, 1, 2].map(|i| (v >> self.fields[i].0) & self.fields[i].1);
        self.node_of(a)
    }

    /// The lowest node id with address `a`.
    pub fn node_of(&self, a: Addr) -> Option<i32> {
        self.addrs.iter().position(|&x| x == Some(a)).map(|i| i as i32)
    }

    /// Next-hop node ids from `src` to each of the `n` nodes (-1: none),
    /// as ns-2's classifiers hold them after `compute`.
    pub fn next_hops(&self, src: i32, n: usize) -> Vec<i32> {
        let mut route = vec![-1i32; n];
        let Some(s) = self.addr(src) else { return route };
        // The next hop per destination element (ns-2 installs one route
        // per domain, cluster or node), then per destination node.
        let mut by_addr: HashMap<Addr, i32> = HashMap::new();
        for (d, r) in route.iter_mut().enumerate() {
            let Some(t) = self.addr(d as i32) else { continue };
            if d as i32 == src || t == s {
                *r = src;
                continue;
            }
            let key = if s[0] != t[0] {
                [t[0], -1, -1]
            } else if s[1] != t[1] {
                [t[0], t[1], -1]
            } else {
                t
            };
            let nh = *by_addr.entry(key).or_insert_with(|| {
                self.lookup(s, t).and_then(|a| self.node_of(a)).unwrap_or(-1)
            });
            *r = nh;
        }
        route
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// test-suite-hier-routing.tcl's ten nodes: two domains of two
    /// clusters (2, 3 | 2, 3 nodes), a chain 0-1-5-6-7-8-9 with 2-3, 2-4
    /// hanging off 1.
    fn suite() -> Hier {
        let mut h = Hier::default();
        h.set_topology(vec![2, 2], &[2, 3, 2, 3]).unwrap();
        let addrs = [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1], [1, 1, 2]];
        for (i, a) in addrs.iter().enumerate() {
            h.set_addr(i as i32, *a);
        }
        for (a, b) in [(0, 1), (1, 2), (2, 3), (2, 4), (1, 5), (5, 6), (6, 7), (7, 8), (8, 9)] {
            h.link(a, b, Some(1));
            h.link(b, a, Some(1));
        }
        h.compute();
        h
    }

    #[test]
    fn routes_follow_the_tree() {
        let h = suite();
        // 0 reaches everything through 1; 1 reaches domain 1 through 5
        // and cluster 0.1 through 2.
        assert_eq!(h.next_hops(0, 10), vec![0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(h.next_hops(1, 10), vec![0, 1, 2, 2, 2, 5, 5, 5, 5, 5]);
        assert_eq!(h.next_hops(9, 10), vec![8, 8, 8, 8, 8, 8, 8, 8, 8, 9]);
        assert_eq!(h.lookup([0, 1, 1], [1, 1, 2]), Some([0, 1, 0]));
    }

    /// A route to another cluster goes to the cluster, not to the node:
    /// in domain 0, node 0.0.0 links to 0.1.0 directly (cost 3) and to
    /// 0.0.1 (cost 1), which links to 0.1.1 (cost 1), two links from 0.1.0
    /// (cost 2).  Flat routing takes the direct link to 0.1.0 (3 against
    /// 4); the cluster's graph sees cluster 0.1 at 3 directly and at 2
    /// through 0.0.1 (its cost to the cluster is its last link's, 1), and
    /// every node of 0.1 goes that way.
    #[test]
    fn clusters_are_one_vertex() {
        let mut h = Hier::default();
        h.set_topology(vec![2], &[2, 2]).unwrap();
        for (i, a) in [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]].iter().enumerate() {
            h.set_addr(i as i32, *a);
        }
        for (a, b, c) in [(0, 2, 3), (0, 1, 1), (1, 3, 1), (2, 3, 2)] {
            h.link(a, b, Some(c));
            h.link(b, a, Some(c));
        }
        h.compute();
        let r = h.next_hops(0, 4);
        assert_eq!(r[2], 1, "0.1.0 through 0.0.1 although the direct link reaches it");
        assert_eq!(r[3], 1);
        // Without the cheap way, the direct link.
        let mut h2 = h.clone();
        h2.links.retain(|l| l.0 != [0, 0, 1] && l.1 != [0, 0, 1]);
        h2.compute();
        assert_eq!(h2.next_hops(0, 4)[3], 2);
        // A link that is down (reset) is no route.
        let mut h3 = h.clone();
        h3.link(0, 1, None);
        h3.compute();
        assert_eq!(h3.next_hops(0, 4), vec![0, -1, 2, 2]);
    }

    /// The numbers a script sees: ns-2's default fields (9, 11 and 11
    /// bits at shifts 22, 11 and 0): 1.1.2 is 4196354.
    #[test]
    fn packed_numbers_are_ns2s() {
        let mut h = suite();
        h.fields = [(22, 511), (11, 2047), (0, 2047)];
        assert_eq!(h.pack(9), Some(4196354));
        assert_eq!(h.pack(3), Some(2049));
        assert_eq!(h.unpack(4196354), Some(9));
        assert_eq!(h.unpack(2049), Some(3));
        assert_eq!(h.unpack(-1), None);
        assert_eq!(h.unpack(5), None);
    }

    #[test]
    fn out_of_range_addresses_are_found() {
        let mut h = suite();
        assert_eq!(h.check(), Ok(()));
        h.set_addr(10, [0, 0, 2]);
        assert_eq!(h.check(), Ok(()), "a node without links is in no route");
        h.link(10, 0, Some(1));
        assert_eq!(h.check(), Err(OutOfRange { node: 10, addr: [0, 0, 2] }));
    }

    #[test]
    fn a_cluster_too_large_for_its_route_tables_is_refused() {
        let mut h = Hier::default();
        // (a fuzzed nodes_num_: ns-2 aborts, bad_array_new_length)
        let e = h.set_topology(vec![1], &[i32::MAX]).unwrap_err();
        assert!(e.contains("route tables"), "{e}");
        assert!(h.set_topology(vec![1], &[-1]).unwrap_err().contains("0 or more"));
        assert!(h.set_topology(vec![-1], &[]).is_err());
        // the largest allowed: 8192 vertices with 1 cluster and 1 domain
        h.set_topology(vec![1], &[(MAX_VERTICES - 4) as i32]).unwrap();
        assert!(h.set_topology(vec![1], &[(MAX_VERTICES - 3) as i32]).is_err());
    }
}
