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
    /// `shift_` and `mask_`: the part of an address the key takes
    /// (`Classifier::mshift`, `(addr >> shift_) & mask_`).
    pub shift: i32,
    pub mask: i32,
    /// Packets of unknown flows waiting for the front end's `unknown-flow`
    /// (and `no-slot`) call-backs, which ns-2 makes in the middle of the
    /// packet's journey; the front end then places or drops each
    /// (`Sim::hash_place`).
    pub held: Vec<crate::packet::PktId>,
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
            shift: 0,
            mask: -1,
            held: Vec::new(),
            auto_flow: false,
            auto_policed: false,
        }
    }

    /// `Classifier::mshift` (C's `>>` of an int, its count taken mod 32).
    fn mshift(&self, v: i32) -> i32 {
        v.wrapping_shr(self.shift as u32) & self.mask
    }

    /// The key of an entry (`hashkey`, which shifts and masks the addresses).
    fn hkey(&self, src: i32, dst: i32, fid: i32) -> (i32, i32, i32) {
        match self.key {
            HashKey::Fid => (0, 0, fid),
            HashKey::Dest => (0, self.mshift(dst), 0),
            HashKey::SrcDest => (self.mshift(src), self.mshift(dst), 0),
            HashKey::SrcDestFid => (self.mshift(src), self.mshift(dst), fid),
        }
    }

    /// A packet's entry: ns-2's `lookup(Packet*)` shifts and masks the
    /// header's addresses before `get_hash`, whose `hashkey` does it again.
    fn packet_hash(&self, src: i32, dst: i32, fid: i32) -> i64 {
        self.get_hash(self.mshift(src), self.mshift(dst), fid)
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
        let s = self.packet_hash(src, dst, fid);
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

/// Where a packet goes, as ns-2's `Classifier::find` decides it for a hash
/// classifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// To this object.
    Target(ObjId),
    /// No flow, no `default_` slot: ns-2 calls `unknown-flow` and looks the
    /// flow up again (`HashClassifier::unknown`).
    Unknown,
    /// No object at this slot (-1: no flow) and no default target: ns-2 calls
    /// `no-slot` with it (`Classifier::find`).
    NoSlot(i64),
}

/// The front end's steps after a hash classifier's miss (`Sim::hash_place`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashStep {
    AfterUnknown,
    Again,
    Last,
    Drop,
}

impl HashClassifier {
    /// The object at slot `cl`, else (`default_target`) the default target,
    /// else no slot (the end of `Classifier::find`).
    fn at(&self, cl: i64, default_target: bool) -> Place {
        match self.slot(cl) {
            NONE if default_target && self.default_target != NONE => Place::Target(self.default_target),
            NONE => Place::NoSlot(cl),
            t => Place::Target(t),
        }
    }

    /// `Classifier::find` of a packet: `HashClassifier::classify` (the
    /// flow's slot, else `default_`, else `Unknown`; slot -1 for a
    /// `Classifier/Hash/Dest`), then the slot's object
    /// or the default target.  `default_target` is false for the second
    /// look that follows a `no-slot` call for slot -1, which has none.
    pub fn find(&self, src: i32, dst: i32, fid: i32, default_target: bool) -> Place {
        let s = self.packet_hash(src, dst, fid);
        let cl = if s >= 0 && s <= self.maxslot as i64 {
            s
        } else if self.default_slot >= 0 {
            self.default_slot as i64
        } else if self.key == HashKey::Dest {
            // DestHashClassifier::classify asks no call-back
            -1
        } else {
            return Place::Unknown;
        };
        self.at(cl, default_target)
    }

    /// After `unknown-flow`: `HashClassifier::unknown` returns the plain
    /// lookup (any slot the call-back bound, unchecked against `maxslot_`),
    /// which `Classifier::find` then checks.
    pub fn after_unknown(&self, src: i32, dst: i32, fid: i32, default_target: bool) -> Place {
        self.at(self.packet_hash(src, dst, fid), default_target)
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

    #[test]
    fn find_follows_classifier_find() {
        let mut c = HashClassifier::new(HashKey::Fid);
        c.install_next(10);
        c.set_hash(0, 0, 7, 0);
        assert_eq!(c.find(0, 0, 7, true), Place::Target(10));
        // no flow, no default_: ns-2 asks unknown-flow
        assert_eq!(c.find(0, 0, 8, true), Place::Unknown);
        assert_eq!(c.after_unknown(0, 0, 8, true), Place::NoSlot(-1));
        // the call-back bound the flow
        c.set_hash(0, 0, 8, 0);
        assert_eq!(c.after_unknown(0, 0, 8, true), Place::Target(10));
        // a flow bound to an emptied slot (below the highest) meets
        // no-slot, not unknown-flow
        c.install_next(11);
        c.install_next(13);
        c.set_hash(0, 0, 9, 1);
        c.clear(1);
        assert_eq!(c.find(0, 0, 9, true), Place::NoSlot(1));
        // above the highest slot it is no entry (HashClassifier::classify
        // checks maxslot_)
        c.set_hash(0, 0, 6, 3);
        assert_eq!(c.find(0, 0, 6, true), Place::Unknown);
        // ... unless there is a default target (not on the second look)
        c.default_target = 12;
        assert_eq!(c.find(0, 0, 9, true), Place::Target(12));
        assert_eq!(c.find(0, 0, 9, false), Place::NoSlot(1));
        assert_eq!(c.after_unknown(0, 0, 5, true), Place::Target(12));
        // a default_ slot takes every unknown flow
        c.default_slot = 0;
        assert_eq!(c.find(0, 0, 5, false), Place::Target(10));
        // a destination classifier asks no unknown-flow
        let d = HashClassifier::new(HashKey::Dest);
        assert_eq!(d.find(0, 3, 0, true), Place::NoSlot(-1));
    }

    #[test]
    fn packets_are_keyed_on_shifted_masked_addresses_twice() {
        // ns-2's lookup(Packet*) shifts and masks the header's addresses and
        // hashkey() does it again; set-hash from Tcl does it once
        let mut c = HashClassifier::new(HashKey::Dest);
        c.shift = 2;
        c.mask = 0xff;
        c.install_next(10);
        c.set_hash(0, 0b1000_0000, 0, 0); // key 0b10_0000
        assert_eq!(c.get_hash(0, 0b1000_0000, 0), 0);
        assert_eq!(c.classify(0, 0b1000_0000, 0), None, "the packet's key is shifted twice: 0b1000");
        assert_eq!(c.classify(0, 0b10_0000_0000, 0), Some(10));
        // flat addressing (shift 0, mask 2^30 - 1): both the same
        c.shift = 0;
        c.mask = 0x3fff_ffff;
        c.set_hash(0, 7, 0, 0);
        assert_eq!(c.classify(0, 7, 0), Some(10));
    }
}
