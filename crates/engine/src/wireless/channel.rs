//! Which nodes a transmission reaches: ns-2 2.35's wireless channel keeps
//! its nodes in a list sorted by X (mac/channel.cc, "list-based
//! improvement") and hands a transmission to the nodes in the square of
//! side `2 (distCST + 5)` around the sender, in the order its walk of the
//! list meets them: first from the sender towards smaller X, then from the
//! sender's successor towards larger X.  That order is the order their
//! reception events are scheduled in, so it decides ties; it is kept here
//! step for step, pointer for pointer: the list, the bubble sort made at
//! the first transmission (or the first move), and the update of a node's
//! place when it moves.
//!
//! Nodes are slots `0..n` (in the order they were added); positions come
//! from the caller.

/// A slot, or none.
type Link = Option<usize>;

/// The X-sorted node list.
#[derive(Clone, Debug, Default)]
pub struct NodeList {
    head: Link,
    next: Vec<Link>,
    prev: Vec<Link>,
    sorted: bool,
}

/// What a move of a node did to the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Update {
    /// The list was not sorted yet: it has been sorted now (ns-2 prints
    /// "SORTING LISTS ...DONE!" on stderr).
    Sorted,
    /// The node was put in its new place (possibly the same).
    Placed,
}

impl NodeList {
    /// Add node `i` at the end (ns-2's `add-node`, at interface creation;
    /// its first call prints "INITIALIZE THE LIST xListHead" on stderr).
    pub fn add(&mut self, i: usize) {
        if self.next.len() <= i {
            self.next.resize(i + 1, None);
            self.prev.resize(i + 1, None);
        }
        match self.head {
            None => {
                self.head = Some(i);
                self.next[i] = None;
                self.prev[i] = None;
            }
            Some(h) => {
                let mut t = h;
                while let Some(n) = self.next[t] {
                    t = n;
                }
                self.next[t] = Some(i);
                self.prev[i] = Some(t);
                self.next[i] = None;
            }
        }
    }

    pub fn is_sorted(&self) -> bool {
        self.sorted
    }

    /// The nodes in list order.
    pub fn order(&self) -> Vec<usize> {
        let mut v = Vec::new();
        self.order_into(&mut v);
        v
    }

    /// The nodes in list order, into `out` (emptied first).
    pub fn order_into(&self, out: &mut Vec<usize>) {
        out.clear();
        let mut t = self.head;
        while let Some(i) = t {
            out.push(i);
            t = self.next[i];
        }
    }

    /// ns-2's bubble sort by X (swapping neighbours while one is strictly
    /// greater), done once.
    pub fn sort(&mut self, x: &impl Fn(usize) -> f64) {
        self.sorted = true;
        let mut swapped = true;
        while swapped {
            swapped = false;
            let mut m = self.head;
            while let Some(mi) = m {
                if let Some(q) = self.next[mi] {
                    if x(mi) > x(q) {
                        swapped = true;
                        // take q out after m, put it back before m
                        self.next[mi] = self.next[q];
                        if let Some(qn) = self.next[q] {
                            self.prev[qn] = Some(mi);
                        }
                        self.next[q] = Some(mi);
                        self.prev[q] = self.prev[mi];
                        self.prev[mi] = Some(q);
                        if let Some(qp) = self.prev[q] {
                            self.next[qp] = Some(q);
                        }
                        if self.head == Some(mi) {
                            self.head = self.prev[mi];
                        }
                    }
                }
                m = self.next[mi];
            }
        }
    }

    /// Node `mn` moved from X `old_x` to `x(mn)` (ns-2's
    /// `updateNodesList`, called whenever a node's X changes).
    pub fn moved(&mut self, mn: usize, old_x: f64, x: &impl Fn(usize) -> f64) -> Update {
        if !self.sorted {
            self.sort(x);
            return Update::Sorted;
        }
        let xm = x(mn);
        let mut skip = false;
        // take it out, unless it is still in order
        match (self.next[mn], self.prev[mn]) {
            (Some(n), Some(p)) => {
                if x(n) >= xm && x(p) <= xm {
                    skip = true;
                } else {
                    self.prev[n] = Some(p);
                    self.next[p] = Some(n);
                }
            }
            (Some(n), None) => {
                if x(n) >= xm {
                    skip = true;
                } else {
                    self.prev[n] = None;
                    self.head = Some(n);
                }
            }
            (None, Some(p)) => {
                if x(p) <= xm {
                    skip = true;
                } else {
                    self.next[p] = None;
                }
            }
            (None, None) => {}
        }
        if self.prev[mn].is_none() && self.next[mn].is_none() {
            skip = true;
        }
        if skip {
            return Update::Placed;
        }
        // put it back, walking from its old neighbours (its own links still
        // point at them)
        if xm > old_x {
            let mut t = mn;
            while let Some(n) = self.next[t] {
                if x(n) < xm {
                    t = n;
                } else {
                    break;
                }
            }
            match self.next[t] {
                None => {
                    self.next[t] = Some(mn);
                    self.prev[mn] = Some(t);
                    self.next[mn] = None;
                }
                Some(n) => {
                    self.prev[mn] = self.prev[n];
                    self.next[mn] = Some(n);
                    self.prev[n] = Some(mn);
                    self.next[t] = Some(mn);
                }
            }
        } else {
            let mut t = mn;
            while let Some(p) = self.prev[t] {
                if x(p) > xm {
                    t = p;
                } else {
                    break;
                }
            }
            match self.prev[t] {
                None => {
                    self.prev[t] = Some(mn);
                    self.next[mn] = Some(t);
                    self.prev[mn] = None;
                    self.head = Some(mn);
                }
                Some(p) => {
                    self.next[mn] = self.next[p];
                    self.prev[mn] = Some(p);
                    self.next[p] = Some(mn);
                    self.prev[t] = Some(mn);
                }
            }
        }
        Update::Placed
    }

    /// The nodes within `radius` of node `mn` in X and in Y (`mn` itself
    /// included: the channel skips it), in the channel's order, into `out`.
    /// (ns-2 first brings up to date the position of every moving node not
    /// updated for a second, in list order; the caller does that.)
    pub fn affected(&self, mn: usize, radius: f64, x: &impl Fn(usize) -> f64, y: &impl Fn(usize) -> f64, out: &mut Vec<usize>) {
        out.clear();
        let (xmin, xmax) = (x(mn) - radius, x(mn) + radius);
        let (ymin, ymax) = (y(mn) - radius, y(mn) + radius);
        let mut t = Some(mn);
        while let Some(i) = t {
            if x(i) < xmin {
                break;
            }
            if y(i) >= ymin && y(i) <= ymax {
                out.push(i);
            }
            t = self.prev[i];
        }
        let mut t = self.next[mn];
        while let Some(i) = t {
            if x(i) > xmax {
                break;
            }
            if y(i) >= ymin && y(i) <= ymax {
                out.push(i);
            }
            t = self.next[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A list of nodes at these X positions (Y 0), added in order.
    fn list(xs: &[f64]) -> NodeList {
        let mut l = NodeList::default();
        for i in 0..xs.len() {
            l.add(i);
        }
        l
    }

    #[test]
    fn the_sort_is_stable_and_by_x() {
        let xs = [5.0, 1.0, 5.0, 0.0, 3.0, 1.0];
        let mut l = list(&xs);
        assert_eq!(l.order(), vec![0, 1, 2, 3, 4, 5]);
        l.sort(&|i| xs[i]);
        assert_eq!(l.order(), vec![3, 1, 5, 4, 0, 2]);
        assert!(l.is_sorted());
    }

    #[test]
    fn seed_002s_layout_and_who_hears_whom() {
        // five fixed nodes 200 m apart at y 50, the mover at (0, 200)
        // added last; distCST_ 550 + 5.
        let pos = [(0.0, 50.0), (200.0, 50.0), (400.0, 50.0), (600.0, 50.0), (800.0, 50.0), (0.0, 200.0)];
        let x = |i: usize| pos[i].0;
        let y = |i: usize| pos[i].1;
        let mut l = list(&[0.0; 6]);
        l.sort(&x);
        // equal X: the mover stays after node 0
        assert_eq!(l.order(), vec![0, 5, 1, 2, 3, 4]);
        let mut out = Vec::new();
        l.affected(1, 555.0, &x, &y, &mut out);
        assert_eq!(out, vec![1, 5, 0, 2, 3]);
        l.affected(5, 555.0, &x, &y, &mut out);
        assert_eq!(out, vec![5, 0, 1, 2]);
        l.affected(4, 555.0, &x, &y, &mut out);
        assert_eq!(out, vec![4, 3, 2]);
    }

    #[test]
    fn a_mover_takes_its_place_as_it_passes_others() {
        let xs = RefCell::new(vec![0.0, 200.0, 400.0, 0.0]);
        let x = |i: usize| xs.borrow()[i];
        let mut l = list(&[0.0; 4]);
        // the first move sorts the list instead
        assert_eq!(l.moved(3, 0.0, &x), Update::Sorted);
        assert_eq!(l.order(), vec![0, 3, 1, 2]);
        xs.borrow_mut()[3] = 150.0;
        assert_eq!(l.moved(3, 0.0, &x), Update::Placed);
        assert_eq!(l.order(), vec![0, 3, 1, 2]);
        // level with node 1: not past it
        xs.borrow_mut()[3] = 200.0;
        l.moved(3, 150.0, &x);
        assert_eq!(l.order(), vec![0, 3, 1, 2]);
        xs.borrow_mut()[3] = 450.0;
        l.moved(3, 200.0, &x);
        assert_eq!(l.order(), vec![0, 1, 2, 3]);
        // back to the front, level with node 0: after it (moving left, it
        // stops at the first node whose X is not greater)
        xs.borrow_mut()[3] = 0.0;
        l.moved(3, 450.0, &x);
        assert_eq!(l.order(), vec![0, 3, 1, 2]);
        // further left: the new head
        xs.borrow_mut()[3] = -5.0;
        l.moved(3, 0.0, &x);
        assert_eq!(l.order(), vec![3, 0, 1, 2]);
        // the head moving right past two
        xs.borrow_mut()[3] = 300.0;
        l.moved(3, -5.0, &x);
        assert_eq!(l.order(), vec![0, 1, 3, 2]);
        // prev and next are consistent
        let o = l.order();
        for w in o.windows(2) {
            assert_eq!(l.next[w[0]], Some(w[1]));
            assert_eq!(l.prev[w[1]], Some(w[0]));
        }
        assert_eq!(l.prev[o[0]], None);
        assert_eq!(l.next[*o.last().unwrap()], None);
    }

    #[test]
    fn the_square_not_the_circle_and_a_lone_node() {
        let pos = [(0.0, 0.0), (100.0, 100.0), (100.0, 101.0), (-100.0, -100.0)];
        let x = |i: usize| pos[i].0;
        let y = |i: usize| pos[i].1;
        let mut l = list(&[0.0; 4]);
        l.sort(&x);
        let mut out = Vec::new();
        // (100, 100) is 141 m away but inside the square of half-side 100
        l.affected(0, 100.0, &x, &y, &mut out);
        assert_eq!(out, vec![0, 3, 1]);
        let mut one = NodeList::default();
        one.add(0);
        assert_eq!(one.moved(0, 0.0, &x), Update::Sorted);
        assert_eq!(one.moved(0, 0.0, &x), Update::Placed);
        one.affected(0, 10.0, &x, &y, &mut out);
        assert_eq!(out, vec![0]);
    }
}
