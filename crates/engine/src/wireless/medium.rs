//! The air between the radios of one wireless channel, as ns-2 2.35's
//! `Channel/WirelessChannel` and `Phy/WirelessPhy` make a transmission
//! reach the other nodes (mac/channel.cc, mac/wireless-phy.cc,
//! common/mobilenode.cc): which nodes it reaches and in which order (the
//! channel's X-sorted list, channel.rs), after which propagation delay,
//! and how each radio judges it (the propagation model's received power
//! against its thresholds, phy.rs).  Positions are brought up to date
//! where ns-2 brings them (mobility.rs's lazy arithmetic, so the same
//! updates give the same numbers): every moving node not updated for a
//! second, in list order, when a transmission starts; the sender's and
//! then each receiver's for the propagation delay; the receiver's and
//! then the sender's for the received power.  A node whose X changes
//! takes its new place in the list at once.
//!
//! Nodes are slots `0..n` in the order they joined the channel.

use super::channel::NodeList;
use super::mobility::{Mobility, Move, OutsideArea};
use super::phy::{Antenna, Radio, Reception};
use super::propagation::{Model, Path, SPEED_OF_LIGHT};
use crate::random::RngSet;
use super::topography::FlatGrid;

/// How far beyond the carrier-sense range the channel looks (ns-2's
/// "safety" margin, metres).
const SAFETY: f64 = 5.0;

/// A moving node's position is refreshed when a transmission starts if it
/// was last updated longer ago than this (seconds).
const REFRESH_INTERVAL: f64 = 1.0;

/// One node's place on the channel.
#[derive(Clone, Debug)]
pub struct Station {
    pub pos: Mobility,
    pub radio: Radio,
    pub antenna: Antenna,
}

/// The carrier-sense range, computed at the channel's first transmission.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// The highest antenna of the channel (m) and the distance beyond
    /// which nothing is heard (m).  ns-2 prints both on stdout.
    pub highest_antenna: f64,
    pub carrier_sense: f64,
}

/// A transmission's arrival at one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    pub node: usize,
    /// Seconds after the transmission starts.
    pub delay: f64,
}

/// ns-2's `GridKeeper` (mobile/gridkeeper.cc) as the channel sees it:
/// with one, a transmission reaches only the nodes the keeper holds that
/// are within the sender's `radius` (metres, strictly), found cell by
/// cell of its 1 m grid (X, then Y, ascending; in a cell, the node that
/// came last first), instead of every node within the carrier-sense
/// range in the X-sorted list's order.
#[derive(Clone, Debug, Default)]
pub struct Keeper {
    /// The grid's size in cells (`$gk dimension X Y`).
    pub dim_x: i32,
    pub dim_y: i32,
    /// The slots it holds, in the order they were added (`addnode`).
    pub members: Vec<usize>,
}

/// ns-2's `aligngrid`: a coordinate's cell (the grid's far edge belongs to
/// the last cell).  (Outside the grid, where ns-2 would read out of its
/// array, the nearest cell.)
fn align(a: f64, dim: i32) -> i32 {
    let c = a as i32;
    if c == dim { dim - 1 } else { c.clamp(0, dim - 1) }
}

#[derive(Clone, Debug)]
pub struct Medium {
    pub stations: Vec<Station>,
    list: NodeList,
    pub model: Model,
    range: Option<Range>,
    order: Vec<usize>,
    reached: Vec<usize>,
    /// The grid keeper, if one holds nodes of this channel, and each
    /// slot's `radius` (ns-2's MobileNode `radius_`, 0 until set).
    pub keeper: Option<Keeper>,
    pub radius: Vec<f64>,
    /// (the keeper's candidates: cell X, cell Y, order in the cell, slot)
    cells: Vec<(i32, i32, usize, usize)>,
}

impl Medium {
    pub fn new(model: Model) -> Medium {
        Medium {
            stations: Vec::new(),
            list: NodeList::default(),
            model,
            range: None,
            order: Vec::new(),
            reached: Vec::new(),
            keeper: None,
            radius: Vec::new(),
            cells: Vec::new(),
        }
    }

    /// A node joins the channel; its slot.
    pub fn add(&mut self, s: Station) -> usize {
        let i = self.stations.len();
        self.stations.push(s);
        self.radius.push(0.0);
        self.list.add(i);
        i
    }

    /// The carrier-sense range, once the first transmission has fixed it.
    pub fn range(&self) -> Option<Range> {
        self.range
    }

    /// Bring node `i`'s position up to date at `now` (ns-2's
    /// `update_position`), and its place in the list.
    pub fn update_position(&mut self, i: usize, now: f64) {
        let old = self.stations[i].pos.x;
        self.stations[i].pos.update(now);
        if self.stations[i].pos.x != old {
            let st = &self.stations;
            self.list.moved(i, old, &|j| st[j].pos.x);
        }
    }

    /// Node `i`'s position as its owner keeps it between the channel's
    /// events (a `setdest`, a script's `X_`): taken over, and its place in
    /// the list too once the list is sorted, as an update would.
    pub fn place(&mut self, i: usize, pos: &Mobility) {
        let old = self.stations[i].pos.x;
        self.stations[i].pos = pos.clone();
        if pos.x != old && self.list.is_sorted() {
            let st = &self.stations;
            self.list.moved(i, old, &|j| st[j].pos.x);
        }
    }

    /// `setdest`: node `i` heads for (`x`, `y`) at `speed` from `now`.
    pub fn set_destination(&mut self, i: usize, now: f64, x: f64, y: f64, speed: f64, area: &FlatGrid) -> Result<Move, OutsideArea> {
        if area.strictly_inside(x, y) {
            self.update_position(i, now);
        }
        self.stations[i].pos.set_destination(now, x, y, speed, area)
    }

    /// Node `i` starts a transmission at `now`: where it arrives, in the
    /// channel's order, into `out`.  The first transmission of the channel
    /// fixes the carrier-sense range (returned then, for ns-2's stdout
    /// lines) and sorts the list.
    pub fn transmit(&mut self, i: usize, now: f64, out: &mut Vec<Arrival>) -> Option<Range> {
        out.clear();
        let first = if self.range.is_none() {
            let highest = self.stations.iter().map(|s| s.antenna.z).fold(0.0, |h: f64, z| if z > h { z } else { h });
            let r = &self.stations[i].radio;
            let range = Range { highest_antenna: highest, carrier_sense: r.carrier_sense_range(&self.model, highest) };
            self.range = Some(range);
            Some(range)
        } else {
            None
        };
        if self.keeper.is_some() {
            self.transmit_kept(i, now, out);
            return first;
        }
        if !self.list.is_sorted() {
            let st = &self.stations;
            self.list.sort(&|j| st[j].pos.x);
        }
        let mut order = std::mem::take(&mut self.order);
        self.list.order_into(&mut order);
        for &j in &order {
            let p = &self.stations[j].pos;
            if p.speed != 0.0 && now - p.updated_at > REFRESH_INTERVAL {
                self.update_position(j, now);
            }
        }
        self.order = order;
        let radius = self.range.map_or(f64::MAX, |r| r.carrier_sense) + SAFETY;
        let mut reached = std::mem::take(&mut self.reached);
        {
            let st = &self.stations;
            self.list.affected(i, radius, &|j| st[j].pos.x, &|j| st[j].pos.y, &mut reached);
        }
        for &r in &reached {
            if r == i {
                continue;
            }
            self.update_position(i, now);
            self.update_position(r, now);
            let (t, m) = (&self.stations[i].pos, &self.stations[r].pos);
            let (dx, dy, dz) = (t.x - m.x, t.y - m.y, t.z - m.z);
            let d = (dx * dx + dy * dy + dz * dz).sqrt();
            out.push(Arrival { node: r, delay: d / SPEED_OF_LIGHT });
        }
        self.reached = reached;
        first
    }

    /// `transmit` with a grid keeper (channel.cc's sendUp, gridkeeper.cc's
    /// get_neighbors): the sender's position brought up to date, then
    /// that of each node the keeper holds in the cells within its radius
    /// (cell by cell), and those strictly within the radius reached.  A
    /// node's cell is the one its position lies in (ns-2 moves it from
    /// cell to cell by events at each crossing).
    fn transmit_kept(&mut self, i: usize, now: f64, out: &mut Vec<Arrival>) {
        let Some(k) = self.keeper.take() else { return };
        self.update_position(i, now);
        let (sx, sy) = (self.stations[i].pos.x, self.stations[i].pos.y);
        let r = self.radius[i];
        let adj = r.ceil() as i32;
        let (gx, gy) = (align(sx, k.dim_x), align(sy, k.dim_y));
        let (lox, hix) = ((gx - adj).max(0), (gx + adj).min(k.dim_x - 1));
        let (loy, hiy) = ((gy - adj).max(0), (gy + adj).min(k.dim_y - 1));
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        for (rank, &j) in k.members.iter().enumerate() {
            if j == i {
                continue;
            }
            let mut p = self.stations[j].pos.clone();
            p.update(now);
            let (cx, cy) = (align(p.x, k.dim_x), align(p.y, k.dim_y));
            if (lox..=hix).contains(&cx) && (loy..=hiy).contains(&cy) {
                cells.push((cx, cy, usize::MAX - rank, j));
            }
        }
        cells.sort_unstable();
        for &(_, _, _, j) in &cells {
            self.update_position(j, now);
            let m = &self.stations[j].pos;
            let (dx, dy) = (m.x - sx, m.y - sy);
            if dx * dx + dy * dy < r * r {
                let t = &self.stations[i].pos;
                let (dx, dy, dz) = (t.x - m.x, t.y - m.y, t.z - m.z);
                let d = (dx * dx + dy * dy + dz * dz).sqrt();
                out.push(Arrival { node: j, delay: d / SPEED_OF_LIGHT });
            }
        }
        self.cells = cells;
        self.keeper = Some(k);
    }

    /// A transmission of node `from` reaches node `i` at `now`: its power
    /// at `i`'s antenna and how `i`'s radio judges it, with a model that
    /// draws nothing (the tests' harnesses; a run uses [`Medium::receive_in`]).
    pub fn receive(&mut self, i: usize, from: usize, now: f64) -> (f64, Reception) {
        let (pr, judged, _) = self.receive_in(i, from, now, &mut RngSet::new_ns2_default());
        (pr, judged)
    }

    /// [`Medium::receive`] with the run's random streams (which the
    /// shadowing model draws from), and the distance between the antennas.
    pub fn receive_in(&mut self, i: usize, from: usize, now: f64, rngs: &mut RngSet) -> (f64, Reception, f64) {
        self.update_position(i, now);
        self.update_position(from, now);
        let (t, r) = (&self.stations[from], &self.stations[i]);
        let (rx, ry) = (r.pos.x + r.antenna.x, r.pos.y + r.antenna.y);
        let (tx, ty) = (t.pos.x + t.antenna.x, t.pos.y + t.antenna.y);
        // (two-ray ground leaves the antennas' heights out of the vertical
        // distance, free space and shadowing count them: as ns-2 does)
        let dz = match self.model {
            Model::TwoRayGround { .. } => r.pos.z - t.pos.z,
            _ => (r.pos.z + r.antenna.z) - (t.pos.z + t.antenna.z),
        };
        let d = ((rx - tx) * (rx - tx) + (ry - ty) * (ry - ty) + dz * dz).sqrt();
        let path = Path {
            pt: t.radio.pt,
            gt: t.antenna.tx_gain,
            gr: r.antenna.rx_gain,
            lambda: r.radio.lambda,
            loss: r.radio.loss,
            d,
            ht: t.pos.z + t.antenna.z,
            hr: r.pos.z + r.antenna.z,
        };
        let pr = self.model.received_power(rngs, &path);
        (pr, r.radio.judge(pr), d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> Station {
        Station { pos: Mobility { x, y, ..Mobility::default() }, radio: Radio::default(), antenna: Antenna::default() }
    }

    #[test]
    fn the_first_transmission_fixes_the_range_and_the_order_is_the_lists() {
        let mut m = Medium::new(Model::two_ray_ground());
        // added out of X order: the list is sorted at the first transmission
        for x in [300.0, 100.0, 900.0, 200.0] {
            m.add(at(x, 100.0));
        }
        let mut out = Vec::new();
        let r = m.transmit(1, 1.0, &mut out).expect("the first transmission");
        // ns-2's stdout: "highestAntennaZ_ = 1.5,  distCST_ = 550.0"
        assert_eq!(format!("{:.1} {:.1}", r.highest_antenna, r.carrier_sense), "1.5 550.0");
        // from the sender towards smaller X (none), then larger: 200, 300;
        // 900 is 800 m away, beyond 555 m
        assert_eq!(out.iter().map(|a| a.node).collect::<Vec<_>>(), [3, 0]);
        assert_eq!(out[0].delay, 100.0 / SPEED_OF_LIGHT);
        assert_eq!(m.transmit(0, 1.1, &mut out), None);
        assert_eq!(out.iter().map(|a| a.node).collect::<Vec<_>>(), [3, 1]);
    }

    #[test]
    fn a_grid_keeper_reaches_its_nodes_within_the_radius_cell_by_cell() {
        let mut m = Medium::new(Model::two_ray_ground());
        // the sender at (100, 100); a node at X 150 below one at X 120 in
        // the list's order but not the grid's (Y first within a column:
        // (120, 130) before (150, 90)); one exactly 60 m away, one 59.9 m
        // away, one the keeper does not hold
        for (x, y) in [(100.0, 100.0), (150.0, 90.0), (120.0, 130.0), (160.0, 100.0), (159.9, 100.0), (110.0, 100.0)] {
            m.add(at(x, y));
        }
        m.keeper = Some(Keeper { dim_x: 200, dim_y: 200, members: vec![0, 1, 2, 3, 4] });
        m.radius[0] = 60.0;
        let mut out = Vec::new();
        m.transmit(0, 1.0, &mut out);
        // (cells X 120, then 150, then 159; the node at exactly 60 m and
        // the one not kept are not reached)
        assert_eq!(out.iter().map(|a| a.node).collect::<Vec<_>>(), [2, 1, 4]);
        // a radius of 0 (the default) reaches nobody
        m.transmit(1, 1.0, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn reception_by_distance() {
        let mut m = Medium::new(Model::two_ray_ground());
        for x in [0.0, 249.0, 251.0, 549.0, 551.0] {
            m.add(at(x, 0.0));
        }
        let judged: Vec<Reception> = (1..5).map(|i| m.receive(i, 0, 0.0).1).collect();
        assert_eq!(judged, [Reception::Clear, Reception::Garbled, Reception::Garbled, Reception::Unheard]);
    }

    #[test]
    fn a_moving_node_is_placed_again_in_the_list() {
        let mut m = Medium::new(Model::two_ray_ground());
        for x in [0.0, 100.0, 200.0] {
            m.add(at(x, 1.0));
        }
        let mut out = Vec::new();
        m.transmit(1, 0.0, &mut out);
        assert_eq!(out.iter().map(|a| a.node).collect::<Vec<_>>(), [0, 2]);
        // node 0 moves past node 2 at 100 m/s
        let area = FlatGrid::new(1000, 1000, 1);
        m.set_destination(0, 0.0, 500.0, 1.0, 100.0, &area).unwrap();
        // 3 s later, refreshed at the transmission (last updated over a
        // second ago): now at X 300, after node 2 in the list
        m.transmit(1, 3.0, &mut out);
        assert_eq!(m.stations[0].pos.x, 300.0);
        assert_eq!(out.iter().map(|a| a.node).collect::<Vec<_>>(), [2, 0]);
        assert_eq!(out[1].delay, 200.0 / SPEED_OF_LIGHT);
    }
}
