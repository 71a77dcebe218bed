//! `Queue/SCFQ`'s commands (Dumbbell's own class: ns-2 2.35 has no SCFQ).
//! They follow the shape of ns-2's class-based queues, where a class gets
//! a queue object of its own (CBQ's `install-queue`) and flows are mapped
//! to classes by id (DRR's and CBQ's classifiers by `fid_`):
//!
//! ```tcl
//! set q [[$ns link $r1 $r2] queue]       ;# made by simplex-link ... SCFQ
//! $q add-class 0 0.8                     ;# class 0, weight 0.8 (DropTail, the queue's limit_)
//! $q add-class 1 0.2
//! set be [new Queue/RED]                 ;# configure it before handing it over
//! $be set thresh_ 25; $be set maxthresh_ 75; $be set linterm_ 5; $be set limit_ 150
//! $q class-queue 1 $be                   ;# class 1 now queues with this RED
//! $q classify 1 0                        ;# flow id 1 -> class 0
//! $q default-class 1                     ;# other flows -> class 1 (else the first class)
//! $q class-stats 0                       ;# arrivals N departures N drops N ...
//! ```
//!
//! `class-queue` takes over the given `Queue/DropTail` or `Queue/RED`
//! object's discipline and capacity (its `limit_`, `queue_in_bytes_`,
//! `mean_pktsize_`, `drop_front_` and RED's variables as set then); the
//! object is left an empty DropTail and later changes to it do not reach
//! the class.

use crate::qdisc::scfq::{ClassQueue, ClassStats, Occupancy, Scfq};
use crate::qdisc::{DropTail, Qdisc, Red};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

/// An integer argument, strictly.
fn int_arg(what: &str, v: &str) -> Result<i32, String> {
    v.trim().parse::<i32>().map_err(|_| format!("{what} must be an integer, got \"{v}\""))
}

fn weight_arg(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(w) if w > 0.0 && w.is_finite() => Ok(w),
        _ => Err(format!("a class weight must be a positive number, got \"{v}\"")),
    }
}

/// The counters as a Tcl list of names and values (`array set` reads it).
/// With the time-weighted mean length (packets) of the class queue and its
/// coefficient of variation (standard deviation over mean) up to `now`.
pub fn stats_text(st: &ClassStats, occ: &Occupancy, now: f64, queued: usize, queued_bytes: i64) -> String {
    let (mean, sd) = occ.moments(now, queued);
    let cov = if mean > 0.0 { sd / mean } else { 0.0 };
    format!(
        "arrivals {} departures {} drops {} early-drops {} marks {} arrival-bytes {} departure-bytes {} drop-bytes {} queued {} queued-bytes {} mean-queue {} queue-cov {}",
        st.arrivals, st.departures, st.drops, st.early_drops, st.marks, st.arrival_bytes, st.departure_bytes, st.drop_bytes, queued, queued_bytes,
        mean, cov
    )
}

impl Sim {
    fn scfq_mut(&mut self, id: ObjId) -> &mut Scfq {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<Scfq>().expect("an SCFQ queue"),
            _ => unreachable!("not a queue"),
        }
    }

    /// Is `id` a `Queue/SCFQ`?
    pub(crate) fn is_scfq(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Scfq>().is_some())
    }

    /// `$q reset` of an SCFQ queue: its RED classes reset as a standalone
    /// RED does (before the queue drains).
    pub(crate) fn scfq_reset(&mut self, id: ObjId) {
        let Obj::Queue(q) = &self.objs[id as usize] else { return };
        let Some(s) = q.disc.get::<Scfq>() else { return };
        // the link's bandwidth now, as a standalone RED reads it at reset
        let bw = match self.objs.get(s.link as usize) {
            Some(Obj::Link(l)) => Some(l.bandwidth),
            _ => None,
        };
        let Obj::Queue(q) = &mut self.objs[id as usize] else { return };
        let s = q.disc.get_mut::<Scfq>().expect("an SCFQ queue");
        if let Some(bw) = bw {
            s.link_bw = bw;
        }
        s.reset_red(&mut self.w);
    }

    /// The commands of `Queue/SCFQ`.
    pub(crate) fn scfq_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let me = self.name(id).to_string();
        let usage = |u: &str| Err(format!("{me} {cmd}: usage: $q {u}"));
        match cmd {
            "add-class" => {
                if n != 3 {
                    return usage("add-class ID WEIGHT");
                }
                let cid = int_arg("add-class: the class id", argv[1])?;
                let w = weight_arg(argv[2]).map_err(|e| format!("{me} add-class {cid}: {e}"))?;
                let cap = match &self.objs[id as usize] {
                    Obj::Queue(q) => q.cap,
                    _ => unreachable!(),
                };
                self.scfq_mut(id).add_class(cid, w, cap).map_err(|e| format!("{me} add-class: {e}"))?;
            }
            "class-queue" => {
                if n != 3 {
                    return usage("class-queue ID QUEUE");
                }
                let cid = int_arg("class-queue: the class id", argv[1])?;
                if self.scfq_mut(id).index_of(cid).is_none() {
                    return Err(format!("{me} class-queue: no class {cid} (add-class it first)"));
                }
                let src = self.lookup(argv[2]).ok_or_else(|| format!("{me} class-queue: no object named \"{}\"", argv[2]))?;
                if src == id {
                    return Err(format!("{me} class-queue: a queue cannot be a class of itself"));
                }
                let (queue, cap) = match &mut self.objs[src as usize] {
                    Obj::Queue(q) if q.len() > 0 => return Err(format!("{me} class-queue: {} holds packets", argv[2])),
                    Obj::Queue(q) => {
                        let cap = q.cap;
                        let taken = if matches!(q.disc, Qdisc::DropTail(_)) {
                            ClassQueue::DropTail(DropTail::default())
                        } else if let Some(r) = q.disc.get_mut::<Red>() {
                            ClassQueue::Red(Box::new(std::mem::take(r)))
                        } else {
                            return Err(format!("{me} class-queue: {} is not a Queue/DropTail or Queue/RED (a class queues with one of those)", argv[2]));
                        };
                        q.disc = Qdisc::DropTail(DropTail::default());
                        q.refresh_plain();
                        (taken, cap)
                    }
                    _ => return Err(format!("{me} class-queue: {} is not a queue", argv[2])),
                };
                self.scfq_mut(id).set_class_queue(cid, queue, cap).map_err(|e| format!("{me} class-queue: {e}"))?;
            }
            "classify" => {
                if n != 3 {
                    return usage("classify FID ID");
                }
                let fid = int_arg("classify: the flow id", argv[1])?;
                let cid = int_arg("classify: the class id", argv[2])?;
                self.scfq_mut(id).classify(fid, cid).map_err(|e| format!("{me} classify {fid}: {e}"))?;
            }
            "default-class" => match n {
                1 => return Ok(self.scfq_mut(id).default_class().map_or(String::new(), |c| c.to_string())),
                2 => {
                    let cid = int_arg("default-class: the class id", argv[1])?;
                    self.scfq_mut(id).set_default_class(cid).map_err(|e| format!("{me} default-class: {e}"))?;
                }
                _ => return usage("default-class [ID]"),
            },
            "weight" => {
                let cid = match n {
                    2 | 3 => int_arg("weight: the class id", argv[1])?,
                    _ => return usage("weight ID [WEIGHT]"),
                };
                let s = self.scfq_mut(id);
                if n == 2 {
                    return s.class(cid).map(|c| crate::ns2::printf::format_g(c.weight, 6)).ok_or_else(|| format!("{me} weight: no class {cid}"));
                }
                let w = weight_arg(argv[2]).map_err(|e| format!("{me} weight {cid}: {e}"))?;
                s.set_weight(cid, w).map_err(|e| format!("{me} weight: {e}"))?;
            }
            "classes" => {
                let s = self.scfq_mut(id);
                return Ok(s.classes.iter().map(|c| c.id.to_string()).collect::<Vec<_>>().join(" "));
            }
            "class-stats" => {
                if n != 2 {
                    return usage("class-stats ID");
                }
                let cid = int_arg("class-stats: the class id", argv[1])?;
                let now = self.w.s.now;
                let s = self.scfq_mut(id);
                let c = s.class(cid).ok_or_else(|| format!("{me} class-stats: no class {cid}"))?;
                return Ok(stats_text(&c.stats, &c.occupancy, now, c.len(), c.bytes()));
            }
            "unclassified-drops" => return Ok(self.scfq_mut(id).unclassified_drops.to_string()),
            "link" if n == 2 => {
                let (l, bw, delay) = match self.lookup(argv[1]).map(|l| (l, &self.objs[l as usize])) {
                    Some((l, Obj::Link(dl))) => (l, dl.bandwidth, dl.delay),
                    _ => return Err(format!("SCFQ: no LinkDelay object {}", argv[1])),
                };
                self.scfq_mut(id).set_link(l, bw, delay);
            }
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }
}
