//! 802.11's backoff counter and contention window as ns-2 2.35 keeps them
//! (mac/mac-timers.cc's BackoffTimer, mac/mac-802_11.h's `inc_cw`,
//! `rst_cw`): a random whole number of slots drawn from the window, counted
//! down only while the medium is idle, after a DIFS each time the medium
//! becomes idle; a pause keeps the slots not yet counted (a slot partly
//! counted is lost: ns-2 truncates).  Time is the caller's: `start` and
//! `resume` return the delay after which the counter expires, and the
//! caller schedules it (and cancels it on `pause`).

/// The contention window, in slots minus one (ns-2's `cw_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub cw: u32,
    pub min: u32,
    pub max: u32,
}

impl Window {
    pub fn new(min: u32, max: u32) -> Window {
        Window { cw: min, min, max }
    }

    /// After a failed attempt: doubled plus one, at most the maximum.
    pub fn widen(&mut self) {
        self.cw = (self.cw << 1) + 1;
        if self.cw > self.max {
            self.cw = self.max;
        }
    }

    /// After a success or a dropped frame.
    pub fn reset(&mut self) {
        self.cw = self.min;
    }
}

/// The backoff counter.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backoff {
    busy: bool,
    paused: bool,
    /// When it last started counting.
    started: f64,
    /// The backoff left, seconds.
    remaining: f64,
    /// The idle time it waits before counting.
    difs_wait: f64,
}

impl Backoff {
    pub fn busy(&self) -> bool {
        self.busy
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Start a backoff of `draw % cw` slots (`draw` being the next of the
    /// default RNG's `Random::random()`, which ns-2 takes here, even when
    /// the medium is busy).  If the medium is idle, it counts from now
    /// after `difs` and the delay to its expiry is returned; if not, it is
    /// paused until `resume`.
    pub fn start(&mut self, now: f64, draw: i32, cw: u32, slot: f64, idle: bool, difs: f64) -> Option<f64> {
        debug_assert!(!self.busy);
        self.busy = true;
        self.paused = false;
        self.started = now;
        self.remaining = (draw % cw as i32) as f64 * slot;
        self.difs_wait = difs;
        if idle {
            Some(self.remaining + self.difs_wait)
        } else {
            self.paused = true;
            None
        }
    }

    /// The medium became busy at `now`: keep the whole slots not counted.
    pub fn pause(&mut self, now: f64, slot: f64) {
        debug_assert!(self.busy && !self.paused);
        let counting_since = self.started + self.difs_wait;
        let counted = now - counting_since;
        let mut slots = (counted / slot) as i32;
        if slots < 0 {
            slots = 0;
        }
        self.paused = true;
        self.remaining -= slots as f64 * slot;
        self.difs_wait = 0.0;
    }

    /// The medium is idle again at `now`: count the rest after `difs`;
    /// the delay to the expiry.
    pub fn resume(&mut self, now: f64, difs: f64) -> f64 {
        debug_assert!(self.busy && self.paused);
        self.paused = false;
        self.started = now;
        self.difs_wait = difs;
        self.remaining + self.difs_wait
    }

    /// The counter expired (or is given up).
    pub fn clear(&mut self) {
        *self = Backoff::default();
    }

    /// The backoff left (seconds).
    pub fn remaining(&self) -> f64 {
        self.remaining
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOT: f64 = 0.000020;
    const DIFS: f64 = 0.000050;

    #[test]
    fn the_window_doubles_to_its_maximum_and_resets() {
        let mut w = Window::new(31, 1023);
        let mut seen = vec![w.cw];
        for _ in 0..7 {
            w.widen();
            seen.push(w.cw);
        }
        assert_eq!(seen, vec![31, 63, 127, 255, 511, 1023, 1023, 1023]);
        w.reset();
        assert_eq!(w.cw, 31);
    }

    #[test]
    fn an_idle_medium_counts_after_difs() {
        let mut b = Backoff::default();
        // 1000 % 31 = 8 slots
        assert_eq!(b.start(1.0, 1000, 31, SLOT, true, DIFS), Some(8.0 * SLOT + DIFS));
        assert!(b.busy() && !b.paused());
        b.clear();
        assert!(!b.busy());
    }

    #[test]
    fn a_pause_keeps_the_slots_not_counted_and_loses_a_partial_one() {
        let mut b = Backoff::default();
        b.start(0.0, 10, 31, SLOT, true, DIFS);
        // 75 us after the DIFS: 3 whole slots counted (the 4th, half
        // counted, is not)
        b.pause(DIFS + 0.000075, SLOT);
        assert_eq!(b.remaining(), 10.0 * SLOT - 3.0 * SLOT);
        // resumed: the rest after a new DIFS
        assert_eq!(b.resume(1.0, DIFS), 10.0 * SLOT - 3.0 * SLOT + DIFS);
        // paused again during that DIFS: nothing counted
        b.pause(1.0 + 0.000010, SLOT);
        assert_eq!(b.remaining(), 10.0 * SLOT - 3.0 * SLOT);
    }

    /// Seed 002's first frame (ns-2's MAC trace): the routing agent sends
    /// its request at 0, the link layer hands it on 25 us later, and the
    /// idle MAC defers a DIFS plus a random number of slots from the
    /// window, drawn from ns-2's default RNG, whose first draw it is (23
    /// slots): the frame leaves at 0.000535.
    #[test]
    fn seed_002s_first_frame_leaves_after_difs_and_23_slots() {
        let mut rngs = crate::random::RngSet::new_ns2_default();
        let w = Window::new(31, 1023);
        let draw = rngs.default_stream().uniform_positive_int();
        let slots = draw % w.cw as i32;
        assert_eq!(slots, 23);
        let m = super::super::mac80211::Mib::default();
        let t = 0.000025 + m.difs() + slots as f64 * m.slot_time;
        assert_eq!(format!("{t:.9}"), "0.000535000");
    }

    #[test]
    fn a_busy_medium_starts_paused() {
        let mut b = Backoff::default();
        assert_eq!(b.start(0.0, 5, 31, SLOT, false, DIFS), None);
        assert!(b.paused());
        assert_eq!(b.remaining(), 5.0 * SLOT);
        assert_eq!(b.resume(2.0, DIFS), 5.0 * SLOT + DIFS);
    }
}
