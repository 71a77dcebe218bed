//! Loss injection (queue/errmodel.cc) and the hash classifiers it routes
//! flows with (classifier/classifier-hash.cc).
//!
//! * [`ErrorModel`]: `ErrorModel` (uniform loss rate per packet or byte,
//!   drawn from the default RNG), `ErrorModel/Periodic` (every period_-th
//!   unit after offset_, with bursts) and `ErrorModel/List` (the listed
//!   packet or byte numbers).  A corrupted packet goes to the drop target,
//!   is CE-marked (`markecn_`) or delayed (`delay_pkt_`).
//! * [`HashClassifier`]: `Classifier/Hash/{Fid,Dest,SrcDest,SrcDestFid}`,
//!   slots filled with `installNext`/`install`, flows bound with `set-hash`,
//!   a `default_` slot for everything else.
//! * An `ErrorModule` is a connector whose packets go through its classifier
//!   (the Tcl side builds the plumbing as ns-2's library does).

use crate::sched::ObjId;
use crate::sim::NONE;
use std::collections::HashMap;

/// What an error model counts (`$em unit pkt|byte|bit|time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Time,
    Byte,
    Bit,
    Pkt,
}

impl Unit {
    /// ns-2's `STR2EU`: anything unrecognised counts packets.
    pub fn parse(s: &str) -> Unit {
        match s {
            "time" => Unit::Time,
            "byte" => Unit::Byte,
            "bit" => Unit::Bit,
            _ => Unit::Pkt,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Unit::Time => "time",
            Unit::Byte => "byte",
            Unit::Bit => "bit",
            Unit::Pkt => "pkt",
        }
    }
}

/// The loss pattern of an error model.
#[derive(Clone, Debug)]
pub enum Pattern {
    /// Base `ErrorModel`: each unit lost with probability `rate_`.
    Uniform,
    /// `ErrorModel/Periodic`.
    Periodic { cnt: i32, period: f64, offset: f64, burstlen: f64, last_time: f64, first_time: f64, default_drop: i32 },
    /// `ErrorModel/List`: sorted drop list, index of the next entry, units seen.
    List { cnt: i32, droplist: Vec<i32>, cur: usize },
}

/// An error model (a connector that corrupts some packets).
#[derive(Clone, Debug)]
pub struct ErrorModel {
    pub pattern: Pattern,
    pub unit: Unit,
    pub enable: i32,
    pub rate: f64,
    pub delay: f64,
    pub bandwidth: f64,
    pub markecn: bool,
    pub delay_pkt: bool,
    pub target: ObjId,
    pub drop_target: ObjId,
    /// The random variable the draws come from (`ranvar`), or NONE for the
    /// default RNG.
    pub ranvar: ObjId,
    /// Time of the queue resume this model last scheduled itself (ns-2's
    /// `intr_` event), when it dropped a packet a queue had sent.
    pub intr_until: Option<crate::sched::Key>,
}

impl ErrorModel {
    pub fn new(pattern: Pattern) -> ErrorModel {
        ErrorModel {
            pattern,
            unit: Unit::Pkt,
            enable: 1,
            rate: 0.0,
            delay: 0.0,
            bandwidth: 2e6,
            markecn: false,
            delay_pkt: false,
            target: NONE,
            drop_target: NONE,
            ranvar: NONE,
            intr_until: None,
        }
    }

    pub fn periodic() -> ErrorModel {
        ErrorModel::new(Pattern::Periodic {
            cnt: 0,
            period: 1.0,
            offset: 0.0,
            burstlen: 0.0,
            last_time: 0.0,
            first_time: -1.0,
            default_drop: 0,
        })
    }

    pub fn list() -> ErrorModel {
        ErrorModel::new(Pattern::List { cnt: 0, droplist: Vec::new(), cur: 0 })
    }

    /// Decide whether this packet (of `size` bytes, at time `now`) is
    /// corrupted.  `uniform` draws from the default RNG when the pattern
    /// needs it.  `Err`: the pattern cannot corrupt in this unit (ns-2 does
    /// not support it either), nothing is corrupted (a one-time warning).
    pub fn corrupt(&mut self, size: i32, now: f64, uniform: &mut dyn FnMut() -> f64) -> Result<bool, Unmodelled> {
        if self.enable == 0 {
            return Ok(false);
        }
        let unit = self.unit;
        match &mut self.pattern {
            Pattern::Uniform => match unit {
                Unit::Pkt => Ok(uniform() < self.rate),
                Unit::Byte => {
                    let per = 1.0 - (1.0 - self.rate).powf(size as f64);
                    Ok(uniform() < per)
                }
                Unit::Time => Err(Unmodelled::UniformInTime),
                // (not modelled: `unit bit` warned when it was set)
                Unit::Bit => Ok(false),
            },
            Pattern::Periodic { cnt, period, offset, burstlen, last_time, first_time, default_drop } => {
                if unit == Unit::Time {
                    if *first_time < 0.0 {
                        if now >= *offset {
                            *first_time = now;
                            *last_time = now;
                            return Ok(true);
                        }
                    } else {
                        if now - *last_time > *period {
                            *last_time = now;
                            return Ok(true);
                        }
                        if now - *last_time < *burstlen {
                            return Ok(true);
                        }
                    }
                    return Ok(false);
                }
                *cnt = cnt.wrapping_add(if unit == Unit::Pkt { 1 } else { size });
                let started = (*first_time as i32) >= 0;
                if *default_drop != 0 {
                    if !started {
                        if *cnt >= *offset as i32 {
                            *last_time = 1.0;
                            *first_time = 1.0;
                            *cnt = 0;
                        }
                        return Ok(false);
                    }
                    if *cnt >= *period as i32 {
                        *cnt = 0;
                        return Ok(false);
                    }
                    Ok(true)
                } else {
                    if !started {
                        if *cnt >= *offset as i32 {
                            *last_time = 1.0;
                            *first_time = 1.0;
                            *cnt = 0;
                            return Ok(true);
                        }
                        return Ok(false);
                    }
                    if *cnt >= *period as i32 {
                        *cnt = 0;
                        return Ok(true);
                    }
                    Ok((*cnt as f64) < *burstlen)
                }
            }
            Pattern::List { cnt, droplist, cur } => {
                if unit == Unit::Time {
                    return Err(Unmodelled::ListInTime);
                }
                if droplist.is_empty() {
                    return Err(Unmodelled::EmptyList);
                }
                let mut hit = false;
                if unit == Unit::Pkt {
                    if *cur < droplist.len() && droplist[*cur] == *cnt {
                        hit = true;
                        *cur += 1;
                    }
                    *cnt = cnt.wrapping_add(1);
                } else {
                    if *cur < droplist.len() && cnt.wrapping_add(size) >= droplist[*cur] {
                        hit = true;
                        *cur += 1;
                    }
                    *cnt = cnt.wrapping_add(size);
                }
                Ok(hit)
            }
        }
    }

    /// A list model's drop list: the numbers of the packets (or bytes) to
    /// drop, sorted with no number twice.  False if the model is not a list.
    pub fn set_drop_list(&mut self, sorted: Vec<i32>) -> bool {
        debug_assert!(sorted.windows(2).all(|w| w[0] < w[1]));
        match &mut self.pattern {
            Pattern::List { droplist, .. } => {
                *droplist = sorted;
                true
            }
            _ => false,
        }
    }
}

/// A pattern that cannot corrupt packets in the unit it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unmodelled {
    /// A uniform rate counted in time (ns-2 corrupts nothing).
    UniformInTime,
    /// A drop list counted in time (ns-2 reports an error, corrupts nothing).
    ListInTime,
    /// A drop list with nothing in it.
    EmptyList,
}

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

    fn hits(em: &mut ErrorModel, n: usize, size: i32) -> Vec<usize> {
        let mut u = || 0.5;
        (0..n).filter(|_| em.corrupt(size, 0.0, &mut u).unwrap()).collect()
    }

    #[test]
    fn periodic_drops_offset_then_every_period() {
        let mut em = ErrorModel::periodic();
        if let Pattern::Periodic { period, offset, .. } = &mut em.pattern {
            *period = 5.0;
            *offset = 3.0;
        }
        // Units are counted from 1: the 3rd packet, then every 5th after it.
        assert_eq!(hits(&mut em, 20, 1000), vec![2, 7, 12, 17]);
    }

    #[test]
    fn periodic_default_drop_passes_one_per_period() {
        let mut em = ErrorModel::periodic();
        if let Pattern::Periodic { period, offset, default_drop, .. } = &mut em.pattern {
            *period = 3.0;
            *offset = 2.0;
            *default_drop = 1;
        }
        assert_eq!(hits(&mut em, 9, 1000), vec![2, 3, 5, 6, 8]);
    }

    #[test]
    fn list_drops_listed_packets() {
        let mut em = ErrorModel::list();
        assert!(em.set_drop_list(vec![2, 4, 7]));
        assert_eq!(hits(&mut em, 10, 1000), vec![2, 4, 7]);
        assert!(!ErrorModel::new(Pattern::Uniform).set_drop_list(vec![1]), "only a list model has a list");
    }

    #[test]
    fn list_in_bytes_drops_the_packet_covering_the_byte() {
        let mut em = ErrorModel::list();
        em.unit = Unit::Byte;
        assert!(em.set_drop_list(vec![2500]));
        // bytes 0..1000, 1000..2000, 2000..3000: the third packet reaches 2500.
        assert_eq!(hits(&mut em, 5, 1000), vec![2]);
    }

    #[test]
    fn uniform_rate_compares_the_draw() {
        let mut em = ErrorModel::new(Pattern::Uniform);
        em.rate = 0.6;
        let mut draws = [0.7, 0.5].into_iter();
        let mut u = || draws.next().unwrap();
        assert!(!em.corrupt(100, 0.0, &mut u).unwrap());
        assert!(em.corrupt(100, 0.0, &mut u).unwrap());
    }

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
