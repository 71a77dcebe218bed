//! The commands of `Queue/XCP` (ns-2's `XCPWrapQ::command` and the
//! `queue-limit`, `link` and `reset` instprocs of ns-queue.tcl):
//! `$q set-link-capacity BPS`, `$q queue-limit N`, `$q set-tcpQ RED`,
//! `$q set-otherQ RED`, `$q link LINK`, `$q reset`, and the queue's own
//! trace file: `$q attach CHANNEL`, `$q queue-sample-everyrtt PERIOD`,
//! `$q num-mice N`, `$q queue-read-drops`.

use crate::qdisc::xcp::{Xcp, XcpVq};
use crate::qdisc::{Qdisc, Red};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

impl Sim {
    /// Is `id` a `Queue/XCP`?
    pub(crate) fn is_xcp(&self, id: ObjId) -> bool {
        matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<Xcp>().is_some())
    }

    /// `$q reset` of a `Queue/XCP` (`Queue/XCP instproc reset`): its
    /// virtual queues reset in turn; what they held is dropped.
    pub(crate) fn xcp_reset(&mut self, id: ObjId) {
        let Obj::Queue(q) = &self.objs[id as usize] else { unreachable!("not a queue") };
        let link = q.disc.get::<Xcp>().expect("an XCP queue").red_link();
        let link_bw = match self.objs.get(link as usize) {
            Some(Obj::Link(l)) => Some(l.bandwidth),
            _ => None,
        };
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        let drop_target = q.drop_target;
        let out = q.drain_with(&mut self.w, |disc, w| disc.get_mut::<Xcp>().expect("an XCP queue").reset(w, link_bw));
        for p in out {
            self.drop_to(drop_target, p);
        }
    }

    /// If `id` is a `Queue/RED` an XCP queue took as a virtual queue: run
    /// `f` (a command or a bound variable of the object) with the RED lent
    /// back to the object, then give it back to the XCP queue.  `None`
    /// for any other object.
    pub(crate) fn with_xcp_vq<R>(&mut self, id: ObjId, f: impl FnOnce(&mut Sim) -> R) -> Option<R> {
        let (parent, which) = self.xcp_vq_lend(id)?;
        let r = f(self);
        self.xcp_vq_return(id, parent, which);
        Some(r)
    }

    /// Lend the RED of virtual queue object `id` back to it (with its
    /// capacity and packets); `xcp_vq_return` takes it back.
    fn xcp_vq_lend(&mut self, id: ObjId) -> Option<(ObjId, usize)> {
        let (parent, which) = match self.objs.get(id as usize) {
            Some(Obj::Queue(q)) => {
                let v = q.disc.get::<XcpVq>()?;
                (v.parent, v.which)
            }
            _ => return None,
        };
        let Obj::Queue(pq) = &mut self.objs[parent as usize] else { return None };
        let x = pq.disc.get_mut::<Xcp>()?;
        let red = std::mem::take(&mut *x.red[which - 1]);
        let cap = x.caps[which];
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        q.cap = cap;
        q.replace_disc(Qdisc::boxed(red));
        Some((parent, which))
    }

    /// The XCP queue takes its lent RED back (as the object left it).
    fn xcp_vq_return(&mut self, id: ObjId, parent: ObjId, which: usize) {
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        let cap = q.cap;
        let mut d = q.replace_disc(Qdisc::boxed(XcpVq { parent, which }));
        let red = std::mem::take(d.get_mut::<Red>().expect("the lent RED"));
        let Obj::Queue(pq) = &mut self.objs[parent as usize] else { unreachable!() };
        let x = pq.disc.get_mut::<Xcp>().expect("an XCP queue");
        *x.red[which - 1] = red;
        x.caps[which] = cap;
    }

    /// `set-tcpQ QUEUE` / `set-otherQ QUEUE`: the virtual queue takes over
    /// the `Queue/RED` object's discipline and capacity; the object keeps
    /// a reference (`XcpVq`), and its commands and bound variables reach
    /// the RED in the XCP queue (`with_xcp_vq`), as in ns-2 where the
    /// object is the virtual queue.
    fn xcp_take_red(&mut self, id: ObjId, which: usize, name: &str) -> Result<(), String> {
        let me = self.name(id).to_string();
        let src = self.lookup(name).ok_or_else(|| format!("{me}: Wrong virtual queue {name} (no such object)"))?;
        if src == id {
            return Err(format!("{me}: a Queue/XCP cannot be its own virtual queue"));
        }
        let (red, cap) = match &mut self.objs[src as usize] {
            Obj::Queue(q) if q.len() > 0 => return Err(format!("{me}: virtual queue {name} holds packets")),
            Obj::Queue(q) => match q.disc.get_mut::<Red>() {
                Some(r) => {
                    let taken = std::mem::take(r);
                    let cap = q.cap;
                    q.replace_disc(Qdisc::boxed(XcpVq { parent: id, which }));
                    (taken, cap)
                }
                _ => return Err(format!("{me}: virtual queue {name} is not a Queue/RED (Dumbbell's Queue/XCP queues TCP and other packets in RED, as ns-2's does)")),
            },
            _ => return Err(format!("{me}: Wrong virtual queue {name} (not a queue)")),
        };
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
        q.disc.get_mut::<Xcp>().expect("an XCP queue").set_red(which, red, cap);
        Ok(())
    }

    /// A command of a `Queue/XCP`.
    pub(crate) fn xcp_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        match (argv[0], argv.len()) {
            ("set-tcpQ", 2) => return self.xcp_take_red(id, 1, argv[1]).map(|_| String::new()),
            ("set-otherQ", 2) => return self.xcp_take_red(id, 2, argv[1]).map(|_| String::new()),
            ("attach", 2) => {
                let ch = self.w.out.channel(argv[1]);
                let Obj::Queue(q) = &self.objs[id as usize] else { unreachable!() };
                let timer = match q.disc.get::<Xcp>().expect("an XCP queue").timer {
                    Some(t) => t,
                    None => self.w.s.new_timer(id, 0),
                };
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.disc.get_mut::<Xcp>().expect("an XCP queue").attach(&mut self.w, ch, timer);
                return Ok(String::new());
            }
            ("link", 2) => {
                let (l, bw, delay) = match self.lookup(argv[1]).map(|l| (l, &self.objs[l as usize])) {
                    Some((l, Obj::Link(dl))) => (l, dl.bandwidth, dl.delay),
                    _ => return Err(format!("RED: no LinkDelay object {}", argv[1])),
                };
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.disc.get_mut::<Xcp>().expect("an XCP queue").set_link(l, bw, delay);
                return Ok(String::new());
            }
            _ => {}
        }
        let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!("not a queue") };
        let x = q.disc.get_mut::<Xcp>().expect("an XCP queue");
        match (argv[0], argv.len()) {
            ("set-link-capacity", 2) => {
                let bps: f64 = argv[1]
                    .parse()
                    .map_err(|_| format!("Queue/XCP set-link-capacity {}: expected a bandwidth in bits per second", argv[1]))?;
                if bps < 0.0 || !bps.is_finite() {
                    return Err(format!("Queue/XCP set-link-capacity {}: the capacity must be a non-negative number", argv[1]));
                }
                x.set_link_capacity(bps);
            }
            ("queue-limit", 2) => {
                let n: i32 = argv[1]
                    .parse()
                    .map_err(|_| format!("Queue/XCP queue-limit {}: expected a number of packets", argv[1]))?;
                x.set_limit(n);
            }
            // (the library's `Queue/XCP instproc init`: ns-2 makes the
            // virtual queues with `new`, so they start with the class
            // defaults of the moment -- `Queue set limit_` for all three,
            // Queue/DropTail's for the XCP packets' Queue/DropTail/XCPQ)
            ("xcpq-defaults", 5) => {
                let limit = crate::ns2::tclcl::atoi(argv[1]);
                x.set_limit(limit);
                x.set_xcpq_droptail(
                    crate::ns2::tclcl::parse_bool(argv[2]),
                    crate::ns2::tclcl::parse_bool(argv[3]),
                    crate::ns2::tclcl::atoi(argv[4]),
                );
            }
            ("queue-read-drops", 1) => {
                return Ok(crate::ns2::printf::format_g(x.ctl.total_drops as f64, 6));
            }
            ("num-mice", 2) => x.ctl.num_mice = crate::ns2::tclcl::atoi(argv[1]),
            ("queue-sample-everyrtt", 2) => {
                // (ns-2 reads it with strtod)
                let rtt = crate::ns2::tclcl::parse_real(argv[1]);
                if !(rtt > 0.0) || !rtt.is_finite() {
                    return Err(format!("Queue/XCP queue-sample-everyrtt {}: expected a period in seconds, more than 0", argv[1]));
                }
                x.sample_every(&mut self.w, rtt);
            }
            _ => return Err(format!("unknown command \"{}\"", argv[0])),
        }
        Ok(String::new())
    }
}
