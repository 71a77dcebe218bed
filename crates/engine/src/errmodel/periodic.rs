//! `ErrorModel/Periodic` (queue/errmodel.cc `PeriodicErrorModel::corrupt`):
//! the unit `offset_` units in, then every `period_`-th, with bursts of
//! `burstlen_`; with `default_drop_` the pattern is inverted (everything
//! dropped but one unit per period).  Counted in time, the first unit at or
//! after `offset_` seconds and then one every `period_` seconds.

use super::Unit;

/// A periodic pattern's parameters and state.
#[derive(Clone, Debug)]
pub struct Periodic {
    /// Units counted since the last drop (`cnt_`).
    pub cnt: i32,
    pub period: f64,
    pub offset: f64,
    pub burstlen: f64,
    pub last_time: f64,
    /// When the pattern started (`first_time_`; negative before).
    pub first_time: f64,
    pub default_drop: i32,
}

impl Default for Periodic {
    fn default() -> Self {
        Periodic { cnt: 0, period: 1.0, offset: 0.0, burstlen: 0.0, last_time: 0.0, first_time: -1.0, default_drop: 0 }
    }
}

impl Periodic {
    /// Is this unit (a packet of `size` bytes at `now`) corrupted?
    pub fn corrupt(&mut self, unit: Unit, size: i32, now: f64) -> bool {
        if unit == Unit::Time {
            if self.first_time < 0.0 {
                if now >= self.offset {
                    self.first_time = now;
                    self.last_time = now;
                    return true;
                }
            } else {
                if now - self.last_time > self.period {
                    self.last_time = now;
                    return true;
                }
                if now - self.last_time < self.burstlen {
                    return true;
                }
            }
            return false;
        }
        self.cnt = self.cnt.wrapping_add(if unit == Unit::Pkt { 1 } else { size });
        let started = (self.first_time as i32) >= 0;
        if self.default_drop != 0 {
            if !started {
                if self.cnt >= self.offset as i32 {
                    self.last_time = 1.0;
                    self.first_time = 1.0;
                    self.cnt = 0;
                }
                return false;
            }
            if self.cnt >= self.period as i32 {
                self.cnt = 0;
                return false;
            }
            true
        } else {
            if !started {
                if self.cnt >= self.offset as i32 {
                    self.last_time = 1.0;
                    self.first_time = 1.0;
                    self.cnt = 0;
                    return true;
                }
                return false;
            }
            if self.cnt >= self.period as i32 {
                self.cnt = 0;
                return true;
            }
            (self.cnt as f64) < self.burstlen
        }
    }
}
