//! The commands of `Queue/CBQ` and `Queue/CBQ/WRR` (queue/cbq.cc).
//!
//! ns-2's own: `link`, `algorithm`.  ns-2's `insert-class` reads the
//! `CBQClass` object's fields; here the class is an object of the Tcl
//! library (lib/cbq.tcl), whose `insert-class` hands its parameters to
//! these, each class named by the index `cbq-class` returned:
//!
//! * `cbq-class LENDER ALLOT MAXIDLE PRIO LEVEL XDELAY OKBORROW QUEUE`: add
//!   a class (`LENDER` an index or -1; `QUEUE` a `Queue/DropTail`,
//!   `Queue/RED`, `Queue/SFQ`, `Queue/DRR`, `Queue/PI`, `Queue/REM`,
//!   `Queue/Vq`, `Queue/GK`, `Queue/SRR` or `Queue/RED/RIO` object, whose discipline, state and capacity the class
//!   takes over, or "" for an inner class); returns its index;
//! * `cbq-lender CLASS LENDER`: set a class's lender (a parent inserted
//!   after its child);
//! * `cbq-bind CLASS FID`: flow `FID` goes to the class;
//! * `cbq-newallot CLASS BW`: ns-2's `newallot`.

use crate::ns2::tclcl::{parse_bool, parse_int, parse_real};
use crate::qdisc::cbq::{ClassSpec, Sharing};
use crate::qdisc::cbq::Leaf;
use crate::qdisc::{Capacity, Cbq, DropTail, Qdisc};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

/// An integer argument, strictly.
fn int_arg(what: &str, v: &str) -> Result<i64, String> {
    v.trim().parse::<i64>().map_err(|_| format!("{what} must be an integer, got \"{v}\""))
}

impl Sim {
    /// Is `id` a `Queue/CBQ` (or `Queue/CBQ/WRR`)?
    pub(crate) fn is_cbq(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Cbq>().is_some())
    }

    fn cbq_mut(&mut self, id: ObjId) -> &mut Cbq {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.get_mut::<Cbq>().expect("a CBQ queue"),
            _ => unreachable!("not a queue"),
        }
    }

    /// The scheduler's link's rate now, read into it.
    fn cbq_refresh_bw(&mut self, id: ObjId) {
        let link = self.cbq_mut(id).link;
        if let Some(Obj::Link(l)) = self.objs.get(link as usize) {
            let bw = l.bandwidth;
            self.cbq_mut(id).link_bw = bw;
        }
    }

    /// Link `link`'s `bandwidth_` changed: every CBQ queue on it reads the
    /// new rate.  ns-2's `CBQClass::update` takes each packet's
    /// transmission time from the link as it is then (`LinkDelay::txtime`),
    /// while the classes' `maxrate_` stay what `insert_class` (or a later
    /// `newallot`) computed from the rate of that time.
    pub(crate) fn cbq_link_rate_changed(&mut self, link: ObjId) {
        let bw = match self.objs.get(link as usize) {
            Some(Obj::Link(l)) => l.bandwidth,
            _ => return,
        };
        for o in &mut self.objs {
            if let Obj::Queue(q) = o {
                if let Some(c) = q.disc.get_mut::<Cbq>() {
                    if c.link == link {
                        c.link_bw = bw;
                    }
                }
            }
        }
    }

    /// A class index argument of queue `id`.
    fn cbq_class_arg(&mut self, id: ObjId, v: &str) -> Result<usize, String> {
        let n = self.cbq_mut(id).classes.len();
        match int_arg("a class index", v)? {
            i if i >= 0 && (i as usize) < n => Ok(i as usize),
            i => Err(format!("no class {i} (the queue has {n})")),
        }
    }

    /// The commands of `Queue/CBQ`.
    pub(crate) fn cbq_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        match (cmd, n) {
            ("link", 2) => {
                let link = match self.lookup(argv[1]) {
                    Some(l) if matches!(self.objs[l as usize], Obj::Link(_)) => l,
                    _ => return Err(format!("CBQ: no LinkDelay object {}", argv[1])),
                };
                self.cbq_mut(id).link = link;
                if let Obj::Link(l) = &mut self.objs[link as usize] {
                    l.rate_watched = true;
                }
                self.cbq_refresh_bw(id);
            }
            ("algorithm", 2) => {
                if argv[1] == "old-formal" || argv[1].starts_with('3') {
                    return Err("CBQ: old-formal link-sharing is not supported (ns-2 2.35 has none either)".into());
                }
                let s = Sharing::parse(argv[1]).ok_or_else(|| {
                    format!("CBQ: unknown link-sharing algorithm \"{}\" (expected ancestor-only, top-level or formal, or 0, 1, 2)", argv[1])
                })?;
                self.cbq_mut(id).sharing = s;
            }
            ("cbq-class", 9) => {
                let lender = match int_arg("the lender's index", argv[1])? {
                    -1 => None,
                    _ => Some(self.cbq_class_arg(id, argv[1])?),
                };
                let maxidle = parse_real(argv[3]);
                if maxidle < 0.0 {
                    return Err(format!("invalid maxidle value {} (must be non-negative)", argv[3]));
                }
                let spec = ClassSpec {
                    allotment: parse_real(argv[2]),
                    maxidle,
                    priority: parse_int(argv[4]),
                    level: parse_int(argv[5]),
                    extradelay: parse_real(argv[6]),
                    borrow: parse_bool(argv[7]),
                };
                let queue = match argv[8] {
                    "" => None,
                    qname => Some(self.cbq_take_queue(id, qname)?),
                };
                self.cbq_refresh_bw(id);
                let i = self.cbq_mut(id).add_class(spec, lender, queue)?;
                return Ok(i.to_string());
            }
            ("cbq-lender", 3) => {
                let c = self.cbq_class_arg(id, argv[1])?;
                let l = match int_arg("the lender's index", argv[2])? {
                    -1 => None,
                    _ => Some(self.cbq_class_arg(id, argv[2])?),
                };
                self.cbq_mut(id).set_lender(c, l)?;
            }
            ("cbq-bind", 3) => {
                let c = self.cbq_class_arg(id, argv[1])?;
                let fid = i32::try_from(int_arg("a flow id", argv[2])?).map_err(|_| format!("flow id {} out of range", argv[2]))?;
                self.cbq_mut(id).bind(fid, c)?;
            }
            ("cbq-newallot", 3) => {
                let c = self.cbq_class_arg(id, argv[1])?;
                let bw = parse_real(argv[2]);
                if bw < 0.0 || bw.is_nan() {
                    return Err(format!("newallot: the allotment must be zero or more, got \"{}\"", argv[2]));
                }
                self.cbq_refresh_bw(id);
                self.cbq_mut(id).set_allotment(c, bw);
            }
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }

    /// Take over queue object `qname`'s discipline and capacity for a class
    /// of CBQ queue `id`: a DropTail, or a RED, SFQ, DRR, PI, REM, Vq, GK,
    /// SRR or RIO with the state the script left it in (the object is left
    /// an empty DropTail).  ns-2 takes any queue object; Dumbbell's classes
    /// queue with these kinds.  PI's and REM's update timers run from here
    /// ([`Leaf::made`]: ns-2's start at `new Queue/PI`, which a script
    /// calls just before `install-queue`).
    fn cbq_take_queue(&mut self, id: ObjId, qname: &str) -> Result<(Leaf, Capacity), String> {
        let src = self.lookup(qname).ok_or_else(|| format!("couldn't find object {qname}"))?;
        if src == id {
            return Err("a CBQ queue cannot be a class's queue of itself".into());
        }
        match &self.objs[src as usize] {
            Obj::Queue(q) if q.len() > 0 => return Err(format!("{qname} holds packets")),
            Obj::Queue(_) => {}
            _ => return Err(format!("{qname} is not a queue")),
        }
        let (mut leaf, cap) = self.take_sub_queue(src).ok_or_else(|| format!("{qname} is not a {}", leaf_kinds()))?;
        leaf.made(&cap, &mut self.w);
        Ok((leaf, cap))
    }

    /// Take queue object `src`'s discipline and capacity, as a queue a
    /// scheduler holds (qdisc/subqueue.rs), if it is of a kind that runs
    /// as one; the object is left an empty DropTail.
    pub(crate) fn take_sub_queue(&mut self, src: ObjId) -> Option<(Leaf, Capacity)> {
        let Obj::Queue(q) = &mut self.objs[src as usize] else { return None };
        let cap = q.cap;
        let disc = std::mem::replace(&mut q.disc, Qdisc::DropTail(DropTail::default()));
        match Leaf::of(disc) {
            Ok(leaf) => {
                q.refresh_plain();
                Some((leaf, cap))
            }
            Err(disc) => {
                q.disc = disc;
                None
            }
        }
    }
}

/// The queue classes a CBQ class queues with here: those whose discipline
/// runs as a scheduler's sub-queue (qdisc/subqueue.rs `SubQueue::of`).
pub(crate) const LEAF_KINDS: [&str; 10] = [
    "Queue/DropTail", "Queue/RED", "Queue/SFQ", "Queue/DRR", "Queue/PI", "Queue/REM", "Queue/Vq", "Queue/GK",
    "Queue/SRR", "Queue/RED/RIO",
];

/// [`LEAF_KINDS`] in words: "Queue/DropTail, Queue/RED, ... or Queue/RED/RIO".
pub(crate) fn leaf_kinds() -> String {
    let (last, rest) = LEAF_KINDS.split_last().expect("kinds");
    format!("{} or {last}", rest.join(", "))
}
