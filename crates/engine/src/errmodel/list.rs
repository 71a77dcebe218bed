//! `ErrorModel/List` (queue/errmodel.cc `ListErrorModel::corrupt`): the
//! packets, or the packets covering the bytes, whose numbers are listed.

use super::{Unit, Unmodelled};

/// A list pattern: the sorted drop list, the index of its next entry, the
/// units seen.
#[derive(Clone, Debug, Default)]
pub struct List {
    pub cnt: i32,
    pub droplist: Vec<i32>,
    pub cur: usize,
}

impl List {
    /// Is this unit (a packet of `size` bytes) corrupted?  `Err` where ns-2
    /// corrupts nothing (counted in time, or an empty list).
    pub fn corrupt(&mut self, unit: Unit, size: i32) -> Result<bool, Unmodelled> {
        if unit == Unit::Time {
            return Err(Unmodelled::ListInTime);
        }
        if self.droplist.is_empty() {
            return Err(Unmodelled::EmptyList);
        }
        let mut hit = false;
        if unit == Unit::Pkt {
            if self.cur < self.droplist.len() && self.droplist[self.cur] == self.cnt {
                hit = true;
                self.cur += 1;
            }
            self.cnt = self.cnt.wrapping_add(1);
        } else {
            if self.cur < self.droplist.len() && self.cnt.wrapping_add(size) >= self.droplist[self.cur] {
                hit = true;
                self.cur += 1;
            }
            self.cnt = self.cnt.wrapping_add(size);
        }
        Ok(hit)
    }
}
