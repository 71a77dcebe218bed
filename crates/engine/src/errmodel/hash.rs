//! The hash classifiers an `ErrorModule` routes flows with
//! (classifier/classifier-hash.cc): `Classifier/Hash/{Fid,Dest,SrcDest,
//! SrcDestFid}`, slots filled with `installNext`/`install`, flows bound with
//! `set-hash`, a `default_` slot for everything else.

use crate::sched::ObjId;
use crate::sim::NONE;
use std::collections::HashMap;

/// Which header fields a hash classifier keys on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashKey {
    Fid,
    Dest,
    SrcDest,
    SrcDestFid,
}

/// `Classifier/Hash/*`.
#[derive(Clone, Debug)]
pub struct HashClassifier {
    pub key: HashKey,
    table: HashMap<(i32, i32, i32), i64>,
    pub slots: Vec<ObjId>,
    pub maxslot: i32,
    /// `default_`: slot for packets of unknown flows (-1: none).
    pub default_slot: i32,
    pub default_target: ObjId,
    /// A flow monitor's classifier: unknown flows get a new flow object.
    pub auto_flow: bool,
    /// Those flows carry a policing state (a RED-PD queue's flow monitor).
    pub auto_policed: bool,
}

impl HashClassifier {
    pub fn new(key: HashKey) -> HashClassifier {
        HashClassifier {
            key,
            table: HashMap::new(),
            slots: Vec::new(),
            maxslot: -1,
            default_slot: -1,
            default_target: NONE,
            auto_flow: false,
            auto_policed: false,
        }
    }

    fn hkey(&self, src: i32, dst: i32, fid: i32) -> (i32, i32, i32) {
        match self.key {
            HashKey::Fid => (0, 0, fid),
            HashKey::Dest => (0, dst, 0),
            HashKey::SrcDest => (src, dst, 0),
            HashKey::SrcDestFid => (src, dst, fid),
        }
    }

    pub fn set_hash(&mut self, src: i32, dst: i32, fid: i32, slot: i64) {
        let k = self.hkey(src, dst, fid);
        self.table.insert(k, slot);
    }

    pub fn del_hash(&mut self, src: i32, dst: i32, fid: i32) -> Option<i64> {
        let k = self.hkey(src, dst, fid);
        self.table.remove(&k)
    }

    pub fn get_hash(&self, src: i32, dst: i32, fid: i32) -> i64 {
        self.table.get(&self.hkey(src, dst, fid)).copied().unwrap_or(-1)
    }

    /// `Classifier::install`.
    pub fn install(&mut self, slot: usize, obj: ObjId) {
        if slot >= self.slots.len() {
            self.slots.resize(slot + 1, NONE);
        }
        self.slots[slot] = obj;
        if slot as i32 >= self.maxslot {
            self.maxslot = slot as i32;
        }
    }

    /// `Classifier::install_next`: the slot after the highest one used.
    pub fn install_next(&mut self, obj: ObjId) -> usize {
        let slot = (self.maxslot + 1) as usize;
        self.install(slot, obj);
        slot
    }

    pub fn clear(&mut self, slot: usize) {
        if slot < self.slots.len() {
            self.slots[slot] = NONE;
        }
        if slot as i32 == self.maxslot {
            self.maxslot -= 1;
            while self.maxslot >= 0 && self.slots[self.maxslot as usize] == NONE {
                self.maxslot -= 1;
            }
        }
    }

    pub fn slot(&self, slot: i64) -> ObjId {
        if slot >= 0 && (slot as usize) < self.slots.len() {
            self.slots[slot as usize]
        } else {
            NONE
        }
    }

    pub fn find_slot(&self, obj: ObjId) -> i64 {
        self.slots.iter().position(|&o| o == obj && o != NONE).map(|i| i as i64).unwrap_or(-1)
    }

    /// The target for a packet: its flow's slot, else the default slot,
    /// else the default target; `None` for an unknown flow.
    pub fn classify(&self, src: i32, dst: i32, fid: i32) -> Option<ObjId> {
        let s = self.get_hash(src, dst, fid);
        let slot = if s >= 0 && s <= self.maxslot as i64 {
            s
        } else if self.default_slot >= 0 {
            self.default_slot as i64
        } else {
            -1
        };
        let t = self.slot(slot);
        if t != NONE {
            Some(t)
        } else if self.default_target != NONE {
            Some(self.default_target)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_classifier_routes_known_flows_and_defaults() {
        let mut c = HashClassifier::new(HashKey::Fid);
        let a = c.install_next(10);
        let b = c.install_next(11);
        assert_eq!((a, b), (0, 1));
        c.set_hash(0, 0, 7, b as i64);
        assert_eq!(c.classify(1, 2, 7), Some(11));
        assert_eq!(c.classify(1, 2, 8), None);
        c.default_slot = 0;
        assert_eq!(c.classify(1, 2, 8), Some(10));
        assert_eq!(c.find_slot(11), 1);
        let mut s = HashClassifier::new(HashKey::SrcDest);
        s.install_next(5);
        s.set_hash(1, 2, 99, 0);
        assert_eq!(s.classify(1, 2, 3), Some(5), "fid is not part of a SrcDest key");
    }
}
