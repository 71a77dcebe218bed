//! DSR's route cache as ns-2 2.35 builds it by default: `MobiCache`
//! (dsr/mobicache.cc, with routecache.cc's checks before adding), a
//! primary cache of 30 routes the node found or was told by a reply, and a
//! secondary cache of 64 routes it overheard (the tap, forwarded packets),
//! each route a path from this node.  What decides behaviour is kept, in
//! ns-2's order; the links' timestamps and tested/untested marks, which
//! only its statistics read (compiled out in 2.35), are not.
//!
//! * Adding a route to a cache: the lines are scanned in order; the first
//!   line that is a prefix of the new route (an empty line is one) is
//!   extended to it; failing that, the first line the new route is a prefix
//!   of keeps it as it is; failing that (no empty line either), the next
//!   victim in round-robin order is replaced.  So a route can be held
//!   twice (an empty line before a line holding it).
//! * Finding a route: every primary line, then every secondary line, in
//!   order, is searched for the destination (its first place in the
//!   line); the shortest wins, the first found among equals, a primary one
//!   over a secondary one of the same length.  A secondary route found
//!   for the node's own use is promoted: added to the primary cache (the
//!   whole line) and its secondary line emptied.  The route returned stops
//!   at the destination.
//! * A dead link `from -> to` cuts every line holding it after `from`
//!   (a line starting with it is emptied).
//!
//! Routes are held by value in fixed arrays (no allocation after the
//! cache is made).

/// The longest source route (hdr_sr.h's `MAX_SR_LEN`).
pub const MAX_SR_LEN: usize = 16;

/// Lines of the primary and secondary caches.
pub const PRIMARY_LINES: usize = 30;
pub const SECONDARY_LINES: usize = 64;

/// A path of node addresses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Route {
    addrs: [i32; MAX_SR_LEN],
    len: u8,
}

impl Default for Route {
    fn default() -> Self {
        Route { addrs: [0; MAX_SR_LEN], len: 0 }
    }
}

impl std::fmt::Debug for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Route {
    /// The route through `addrs` (at most `MAX_SR_LEN` of them: ns-2
    /// asserts it).
    pub fn of(addrs: &[i32]) -> Route {
        assert!(addrs.len() <= MAX_SR_LEN, "a source route of {} hops", addrs.len());
        let mut r = Route::default();
        r.addrs[..addrs.len()].copy_from_slice(addrs);
        r.len = addrs.len() as u8;
        r
    }

    pub fn as_slice(&self) -> &[i32] {
        &self.addrs[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len() >= MAX_SR_LEN
    }

    pub fn push(&mut self, a: i32) {
        assert!(!self.is_full(), "a source route longer than {MAX_SR_LEN}");
        self.addrs[self.len()] = a;
        self.len += 1;
    }

    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len as u8);
    }
}

/// One of the two caches: its lines and the next victim.
#[derive(Clone, Debug)]
struct Cache {
    lines: Box<[Route]>,
    victim: usize,
}

impl Cache {
    fn new(size: usize) -> Cache {
        Cache { lines: vec![Route::default(); size].into_boxed_slice(), victim: 0 }
    }

    /// From line `*index` on, the first line holding `dest`: the line and
    /// `dest`'s place in it (`searchRoute`).
    fn search(&self, dest: i32, index: &mut usize) -> Option<usize> {
        while *index < self.lines.len() {
            if let Some(n) = self.lines[*index].as_slice().iter().position(|&a| a == dest) {
                return Some(n);
            }
            *index += 1;
        }
        None
    }

    /// Adds `path`; returns the line that holds it and the length of the
    /// common prefix with what the line held (0 for a victim's line).
    fn add(&mut self, path: &Route) -> (usize, usize) {
        let p = path.as_slice();
        for (i, line) in self.lines.iter_mut().enumerate() {
            let l = line.as_slice();
            let n = l.iter().zip(p).take_while(|(a, b)| a == b).count();
            if n == l.len() {
                // (the line is a prefix of the path, or empty)
                for &a in &p[n..] {
                    line.push(a);
                }
                return (i, n);
            }
            if n == p.len() {
                return (i, n);
            }
        }
        let v = self.pick_victim();
        self.lines[v] = *path;
        (v, 0)
    }

    /// An empty line, else the round-robin victim (`pickVictim`).
    fn pick_victim(&mut self) -> usize {
        if let Some(i) = self.lines.iter().position(Route::is_empty) {
            return i;
        }
        let v = self.victim;
        self.victim = if v + 1 == self.lines.len() { 0 } else { v + 1 };
        v
    }

    fn dead_link(&mut self, from: i32, to: i32) {
        for line in self.lines.iter_mut() {
            let l = line.as_slice();
            if let Some(n) = l.windows(2).position(|w| w[0] == from && w[1] == to) {
                if n == 0 {
                    *line = Route::default();
                } else {
                    line.truncate(n + 1);
                }
            }
        }
    }
}

/// A node's route cache.
#[derive(Clone, Debug)]
pub struct MobiCache {
    me: i32,
    primary: Cache,
    secondary: Cache,
}

impl MobiCache {
    /// The cache of the node whose address is `me`.
    pub fn new(me: i32) -> MobiCache {
        MobiCache { me, primary: Cache::new(PRIMARY_LINES), secondary: Cache::new(SECONDARY_LINES) }
    }

    /// A route this node found or was given (`addRoute`): to the primary
    /// cache.  A route shorter than two nodes, or not starting at this
    /// node, is ignored (ns-2 says so on stderr for the second).
    pub fn add_route(&mut self, route: &[i32]) {
        if route.len() < 2 || route[0] != self.me {
            return;
        }
        self.primary.add(&Route::of(route));
    }

    /// A route this node saw in use (`noticeRouteUsed`), `index` being the
    /// place in it of the node that sent the packet on (the source route's
    /// current index): to the secondary cache, from this node on.  If the
    /// node is on the route, the part from it; if not, a route from it to
    /// the sender and on, unless the packet is a route request (`index`
    /// 0); a route holding only this node at its end adds nothing.
    pub fn notice_route_used(&mut self, p: &[i32], index: usize) {
        if p.len() < 2 {
            return;
        }
        let c = p.iter().position(|&a| a == self.me).unwrap_or(p.len());
        if c == p.len() - 1 {
            return;
        }
        let stub = if c == p.len() {
            if index == 0 {
                return;
            }
            let mut stub = Route::default();
            stub.push(self.me);
            for &a in &p[index - 1..] {
                if stub.is_full() {
                    break;
                }
                stub.push(a);
            }
            stub
        } else {
            Route::of(&p[c..])
        };
        self.secondary.add(&stub);
    }

    /// The link `from -> to` is broken (`noticeDeadLink`).
    pub fn dead_link(&mut self, from: i32, to: i32) {
        self.primary.dead_link(from, to);
        self.secondary.dead_link(from, to);
    }

    /// The shortest cached route to `dest` (`findRoute`); `for_me` when
    /// this node will use it (a secondary route is then promoted).
    pub fn find_route(&mut self, dest: i32, for_me: bool) -> Option<Route> {
        let mut best: Option<(Route, usize)> = None;
        let mut from_secondary = None;
        for (cache, secondary) in [(&self.primary, false), (&self.secondary, true)] {
            let mut i = 0;
            while let Some(n) = cache.search(dest, &mut i) {
                if best.map_or(true, |(_, len)| n < len) {
                    best = Some((cache.lines[i], n));
                    from_secondary = secondary.then_some(i);
                }
                i += 1;
            }
        }
        let (mut route, len) = best?;
        if let (Some(i), true) = (from_secondary, for_me) {
            let line = self.secondary.lines[i];
            self.primary.add(&line);
            self.secondary.lines[i] = Route::default();
        }
        route.truncate(len + 1);
        Some(route)
    }

    /// The lines of the primary and secondary caches (for tests).
    pub fn lines(&self, secondary: bool) -> impl Iterator<Item = &[i32]> + '_ {
        let c = if secondary { &self.secondary } else { &self.primary };
        c.lines.iter().map(Route::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(c: &MobiCache, secondary: bool) -> Vec<Vec<i32>> {
        c.lines(secondary).filter(|l| !l.is_empty()).map(<[i32]>::to_vec).collect()
    }

    #[test]
    fn routes_extend_a_prefix_or_are_kept_by_a_longer_line() {
        let mut c = MobiCache::new(0);
        c.add_route(&[0, 1, 2]);
        // extends the line [0 1 2]
        c.add_route(&[0, 1, 2, 3]);
        // a prefix of it: nothing new
        c.add_route(&[0, 1]);
        // a new branch: the next empty line
        c.add_route(&[0, 4, 3]);
        assert_eq!(held(&c, false), vec![vec![0, 1, 2, 3], vec![0, 4, 3]]);
        // not ours, or too short: ignored
        c.add_route(&[5, 1]);
        c.add_route(&[0]);
        assert_eq!(held(&c, false).len(), 2);
    }

    #[test]
    fn an_empty_line_before_a_holding_one_takes_the_route_again() {
        let mut c = MobiCache::new(0);
        c.add_route(&[0, 1, 2]);
        c.add_route(&[0, 3, 4]);
        // line 0 emptied by a dead link at its start
        c.dead_link(0, 1);
        assert_eq!(c.lines(false).next(), Some(&[][..]));
        // [0 3] would be kept by line 1, but the empty line 0 comes first
        c.add_route(&[0, 3]);
        assert_eq!(held(&c, false), vec![vec![0, 3], vec![0, 3, 4]]);
    }

    #[test]
    fn shortest_route_first_found_primary_before_secondary() {
        let mut c = MobiCache::new(0);
        c.add_route(&[0, 1, 2, 3, 4]);
        c.add_route(&[0, 5, 6, 3]);
        // 3 is at place 3 in the first line, 3 in the second: the first wins
        assert_eq!(c.find_route(3, true).unwrap().as_slice(), &[0, 1, 2, 3]);
        // overheard: [0 7 3] (this node not on [9 7 3], sent on by 7)
        c.notice_route_used(&[9, 7, 3], 2);
        assert_eq!(held(&c, true), vec![vec![0, 7, 3]]);
        // shorter, from the secondary cache: returned, and promoted when
        // the node will use it
        assert_eq!(c.find_route(3, false).unwrap().as_slice(), &[0, 7, 3]);
        assert_eq!(held(&c, true).len(), 1);
        assert_eq!(c.find_route(3, true).unwrap().as_slice(), &[0, 7, 3]);
        assert!(held(&c, true).is_empty());
        assert_eq!(held(&c, false), vec![vec![0, 1, 2, 3, 4], vec![0, 5, 6, 3], vec![0, 7, 3]]);
        // a secondary route of the same length as a primary one loses
        c.notice_route_used(&[8, 5, 6, 3], 1);
        assert_eq!(held(&c, true), vec![vec![0, 8, 5, 6, 3]]);
        assert_eq!(c.find_route(6, true).unwrap().as_slice(), &[0, 5, 6]);
        assert_eq!(c.find_route(8, true).unwrap().as_slice(), &[0, 8]);
        assert_eq!(c.find_route(42, true), None);
    }

    #[test]
    fn noticed_routes_from_this_node_on() {
        let mut c = MobiCache::new(2);
        // on the route: the part from this node
        c.notice_route_used(&[0, 1, 2, 3], 2);
        // a request (index 0) it is not on: nothing
        c.notice_route_used(&[5, 6], 0);
        // only this node at the end: nothing
        c.notice_route_used(&[0, 1, 2], 2);
        assert_eq!(held(&c, true), vec![vec![2, 3]]);
    }

    #[test]
    fn dead_links_cut_lines_in_both_caches() {
        let mut c = MobiCache::new(0);
        c.add_route(&[0, 1, 2, 3]);
        c.add_route(&[0, 4, 2, 3]);
        c.notice_route_used(&[9, 1, 2, 3], 2);
        c.dead_link(2, 3);
        assert_eq!(held(&c, false), vec![vec![0, 1, 2], vec![0, 4, 2]]);
        assert_eq!(held(&c, true), vec![vec![0, 1, 2]]);
        assert_eq!(c.find_route(3, true), None);
    }

    #[test]
    fn a_full_cache_replaces_lines_round_robin() {
        let mut c = MobiCache::new(0);
        for k in 1..=PRIMARY_LINES as i32 {
            c.add_route(&[0, k]);
        }
        c.add_route(&[0, 100]);
        c.add_route(&[0, 101]);
        let lines = held(&c, false);
        assert_eq!(lines[0], vec![0, 100]);
        assert_eq!(lines[1], vec![0, 101]);
        assert_eq!(lines[2], vec![0, 3]);
        // an emptied line is filled before the victim moves on
        c.dead_link(0, 5);
        c.add_route(&[0, 102]);
        assert_eq!(held(&c, false)[4], vec![0, 102]);
        c.add_route(&[0, 103]);
        assert_eq!(held(&c, false)[2], vec![0, 103]);
    }
}
