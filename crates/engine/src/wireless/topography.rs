//! The area wireless nodes move in: a flat rectangle from the origin, as
//! ns-2's `Topography` with `load_flatgrid` (mobile/topography.cc), which
//! has no elevation grid (height 0 everywhere).

/// A flat area `[0, width] x [0, height]` in metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlatGrid {
    /// The size given, in grid cells, and the size of a cell in metres.
    /// ns-2 takes all three as integers (`atoi`) and keeps them as doubles.
    pub cells_x: f64,
    pub cells_y: f64,
    pub resolution: f64,
}

impl FlatGrid {
    /// `cells_x` by `cells_y` cells of `resolution` metres.
    pub fn new(cells_x: i32, cells_y: i32, resolution: i32) -> FlatGrid {
        FlatGrid { cells_x: cells_x as f64, cells_y: cells_y as f64, resolution: resolution as f64 }
    }

    /// The far edges, in metres (ns-2's `upperX()`, `upperY()`; the near
    /// edges are 0).  An area never loaded is 0 by 0.
    pub fn upper_x(&self) -> f64 {
        self.cells_x * self.resolution
    }

    pub fn upper_y(&self) -> f64 {
        self.cells_y * self.resolution
    }

    /// Is (x, y) strictly inside?  ns-2 refuses a destination on an edge.
    pub fn strictly_inside(&self, x: f64, y: f64) -> bool {
        x > 0.0 && x < self.upper_x() && y > 0.0 && y < self.upper_y()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_scale_with_the_resolution_and_are_excluded() {
        let g = FlatGrid::new(801, 300, 1);
        assert_eq!((g.upper_x(), g.upper_y()), (801.0, 300.0));
        assert!(g.strictly_inside(800.0, 200.0));
        assert!(!g.strictly_inside(801.0, 200.0));
        assert!(!g.strictly_inside(0.0, 200.0));
        assert!(!g.strictly_inside(10.0, 300.0));
        let g = FlatGrid::new(10, 20, 5);
        assert_eq!((g.upper_x(), g.upper_y()), (50.0, 100.0));
        assert!(!FlatGrid::default().strictly_inside(0.5, 0.5));
    }
}
