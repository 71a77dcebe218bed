//! A mobile node's position and straight-line movement, as ns-2 2.35's
//! `MobileNode` computes them (common/mobilenode.cc): a node moves towards
//! its destination at constant speed; its position is brought up to date
//! only when something asks for it (`update`), by the time elapsed since
//! the last update, and is clamped at the destination.  The same
//! floating-point operations in the same order give the same positions.

use super::topography::FlatGrid;

/// Where a node is and where it is going.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mobility {
    /// Position in metres (z is the height, fixed: nodes do not fly).
    pub x: f64,
    pub y: f64,
    pub z: f64,
    /// Speed in metres per second.
    pub speed: f64,
    /// Direction of movement: a unit vector, or (0, 0) when the destination
    /// was the position itself (then the difference, which is 0).
    pub dir_x: f64,
    pub dir_y: f64,
    pub dest_x: f64,
    pub dest_y: f64,
    /// When the position was last brought up to date.
    pub updated_at: f64,
}

/// A movement just begun: what ns-2 logs of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// Distance to the destination, in metres (0 when already there).
    pub distance: f64,
    /// Speed along the path: `speed * |direction|`.
    pub velocity: f64,
}

impl Move {
    /// Seconds to reach the destination (0 when not moving), as ns-2's nam
    /// record gives it.
    pub fn duration(&self) -> f64 {
        if self.velocity != 0.0 {
            self.distance / self.velocity
        } else {
            0.0
        }
    }
}

/// A destination ns-2 refuses: on or outside the area's edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutsideArea {
    pub upper_x: f64,
    pub upper_y: f64,
}

impl Mobility {
    /// Bring the position up to date at time `now`.  (As ns-2: nothing is
    /// done at the same instant twice, except at time 0, and a position
    /// past the destination on an axis is set back to it.)
    pub fn update(&mut self, now: f64) {
        let interval = now - self.updated_at;
        if interval == 0.0 && self.updated_at != 0.0 {
            return;
        }
        self.x += self.dir_x * (self.speed * interval);
        self.y += self.dir_y * (self.speed * interval);
        if (self.dir_x > 0.0 && self.x > self.dest_x) || (self.dir_x < 0.0 && self.x < self.dest_x) {
            self.x = self.dest_x;
        }
        if (self.dir_y > 0.0 && self.y > self.dest_y) || (self.dir_y < 0.0 && self.y < self.dest_y) {
            self.y = self.dest_y;
        }
        self.updated_at = now;
    }

    /// Head for (`x`, `y`) at `speed` from time `now` (ns-2's `setdest`).
    /// The destination must lie strictly inside `area`.
    pub fn set_destination(&mut self, now: f64, x: f64, y: f64, speed: f64, area: &FlatGrid) -> Result<Move, OutsideArea> {
        if !area.strictly_inside(x, y) {
            return Err(OutsideArea { upper_x: area.upper_x(), upper_y: area.upper_y() });
        }
        self.update(now);
        self.dest_x = x;
        self.dest_y = y;
        self.speed = speed;
        self.dir_x = self.dest_x - self.x;
        self.dir_y = self.dest_y - self.y;
        let mut distance = 0.0;
        if self.dest_x != self.x || self.dest_y != self.y {
            distance = (self.dir_x * self.dir_x + self.dir_y * self.dir_y).sqrt();
            self.dir_x /= distance;
            self.dir_y /= distance;
        }
        self.updated_at = now;
        let velocity = self.speed * (self.dir_x * self.dir_x + self.dir_y * self.dir_y).sqrt();
        Ok(Move { distance, velocity })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area() -> FlatGrid {
        FlatGrid::new(801, 300, 1)
    }

    #[test]
    fn moves_in_a_straight_line_and_stops_at_the_destination() {
        let mut m = Mobility { y: 200.0, ..Default::default() };
        let mv = m.set_destination(0.0, 800.0, 200.0, 8.01, &area()).unwrap();
        assert_eq!(mv.distance, 800.0);
        assert_eq!(mv.velocity, 8.01);
        assert_eq!(format!("{:.6}", mv.duration()), "99.875156");
        m.update(0.0014085);
        assert_eq!(m.x, 1.0 * (8.01 * 0.0014085));
        m.update(50.0);
        assert_eq!(m.x, 0.0 + 1.0 * (8.01 * 0.0014085) + 1.0 * (8.01 * (50.0 - 0.0014085)));
        m.update(200.0);
        assert_eq!((m.x, m.y), (800.0, 200.0));
    }

    #[test]
    fn updates_accumulate_from_the_last_update_not_the_start() {
        // Summing the steps is not the same in floating point as one step
        // from the start: ns-2 sums them.
        let mut a = Mobility::default();
        a.set_destination(0.0, 300.0, 100.0, 3.3, &area()).unwrap();
        let mut b = a.clone();
        for t in [0.1, 0.2, 0.3, 0.7, 1.1] {
            a.update(t);
        }
        b.update(1.1);
        assert_ne!(a.x, b.x);
        let mut c = Mobility::default();
        c.set_destination(0.0, 300.0, 100.0, 3.3, &area()).unwrap();
        let mut x = 0.0;
        let mut last = 0.0;
        for t in [0.1, 0.2, 0.3, 0.7, 1.1] {
            x += c.dir_x * (3.3 * (t - last));
            last = t;
        }
        assert_eq!(a.x, x);
    }

    #[test]
    fn a_destination_on_or_beyond_the_edge_is_refused_and_changes_nothing() {
        let mut m = Mobility { x: 5.0, y: 5.0, ..Default::default() };
        let before = m.clone();
        assert_eq!(m.set_destination(1.0, 801.0, 5.0, 1.0, &area()), Err(OutsideArea { upper_x: 801.0, upper_y: 300.0 }));
        assert!(m.set_destination(1.0, 5.0, 0.0, 1.0, &area()).is_err());
        assert_eq!(m, before);
    }

    #[test]
    fn a_destination_equal_to_the_position_is_no_movement() {
        let mut m = Mobility { x: 5.0, y: 7.0, ..Default::default() };
        let mv = m.set_destination(2.0, 5.0, 7.0, 4.0, &area()).unwrap();
        assert_eq!(mv, Move { distance: 0.0, velocity: 0.0 });
        assert_eq!(mv.duration(), 0.0);
        m.update(9.0);
        assert_eq!((m.x, m.y), (5.0, 7.0));
    }

    #[test]
    fn a_new_destination_starts_from_the_current_position() {
        let mut m = Mobility::default();
        m.set_destination(0.0, 100.0, 1.0, 10.0, &area()).unwrap();
        let mv = m.set_destination(5.0, 10.0, 10.0, 2.0, &area()).unwrap();
        assert!(m.x > 49.0 && m.x < 51.0, "{}", m.x);
        assert!(mv.distance > 40.0);
        assert!(m.dir_x < 0.0 && m.dir_y > 0.0);
        // Overshoot on both axes is clamped at the destination.
        m.update(1000.0);
        assert_eq!((m.x, m.y), (10.0, 10.0));
    }

    #[test]
    fn time_zero_is_updated_again_but_other_instants_once() {
        let mut m = Mobility { speed: 1.0, dir_x: 1.0, dest_x: 100.0, ..Default::default() };
        m.update(0.0);
        m.update(0.0);
        assert_eq!(m.x, 0.0);
        m.update(2.0);
        m.speed = 50.0;
        m.update(2.0);
        assert_eq!(m.x, 2.0);
    }
}
