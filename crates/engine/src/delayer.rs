//! `Delayer` (ns-2 2.35 queue/delayer.cc): a one-packet gate between a
//! link's queue and its delay line, inserted with `$ns insert-delayer`.
//! It holds back the packet the queue hands it while the link is busy,
//! while it is blocked (`block`/`unblock`, or random delay spikes) or
//! while a channel is being allocated after an idle period (`alloc`).
//!
//! How it meets the queue matters for exactness.  The queue hands a packet
//! to the delayer with its "resume" handler.  The delayer gives the link
//! its own handler instead, and calls the queue's back **synchronously**
//! whenever it has let a packet go to the link: the queue then hands over
//! its next packet at once (which the delayer keeps while the link sends)
//! or, empty, unblocks.  So a queue behind a delayer sees its resumes at
//! the moments its packets *start* their transmission, never through the
//! scheduler: its own (lazy) resume slot is never set, and its `blocked`
//! flag is exactly ns-2's `blocked_`.  The delayer's handler, by contrast,
//! is a real event whenever the link (or an error model) schedules it, as
//! its firing may call the queue back with nothing to send, which a RED
//! queue notices (it starts an idle period then).
//!
//! The delayer's resume slot and timers are its own; links without a
//! delayer pay nothing for any of this (the delayer is reached only through
//! `recv`'s out-of-line kinds, a resume slot whose owner is not a queue, or
//! a timer owned by a delayer).

use crate::packet::PktId;
use crate::sched::{ObjId, ResumeId};
use crate::sim::{Obj, Sim, NONE};

/// Timer kinds of a delayer (`AllocTimer`, `SpikeTimer`).
pub const ALLOC_TIMER: u8 = 0;
pub const SPIKE_TIMER: u8 = 1;

/// A `Delayer`'s state; field names follow delayer.h.
#[derive(Debug)]
pub struct Delayer {
    pub target: ObjId,
    pub drop_target: ObjId,
    /// The resume slot handed to the target (`th_`, the `TargetHandler`).
    pub(crate) slot: ResumeId,
    /// When a packet last left for the link.
    pub last_sent: f64,
    /// `alloc_int`, `alloc_len`: time a channel is kept without data, and
    /// the delay to allocate a new one (random variables, by object).
    pub alloc: Option<(ObjId, ObjId)>,
    pub alloc_free: bool,
    pub alloc_timer: u32,
    /// `spike_int`, `spike_len`: interval between delay spikes and their
    /// length.
    pub spike: Option<(ObjId, ObjId)>,
    pub spike_free: bool,
    pub spike_timer: u32,
    pub target_free: bool,
    /// The handler the last packet came with (a queue's resume slot, or
    /// another delayer's), called back once a packet has gone on.
    pub(crate) prev_h: Option<ResumeId>,
    /// The packet held.
    pub pkt: Option<PktId>,
    /// `debug_`: each attempt to send prints the state (C's stdout).
    pub debug: bool,
    /// True while the packet held is being handed to the target.
    sending: bool,
}

impl Delayer {
    pub(crate) fn new(slot: ResumeId, alloc_timer: u32, spike_timer: u32) -> Delayer {
        Delayer {
            target: NONE,
            drop_target: NONE,
            slot,
            last_sent: -100000.0,
            alloc: None,
            alloc_free: true,
            alloc_timer,
            spike: None,
            spike_free: true,
            spike_timer,
            target_free: true,
            prev_h: None,
            pkt: None,
            debug: false,
            sending: false,
        }
    }
}

impl Sim {
    #[inline]
    fn delayer(&mut self, id: ObjId) -> &mut Delayer {
        match &mut self.objs[id as usize] {
            Obj::Delayer(d) => d,
            _ => unreachable!("not a delayer"),
        }
    }

    /// A value of random variable `rv` (0 if it no longer exists).
    fn ranvar_draw(&mut self, rv: ObjId) -> f64 {
        match self.objs.get(rv as usize) {
            Some(Obj::RanVar(r)) => r.value(&mut self.w),
            _ => 0.0,
        }
    }

    /// `Delayer::recv`: keep `p` (and the sender's handler `h`); after an
    /// idle period longer than a draw of `alloc_int` a channel is first
    /// allocated (a draw of `alloc_len`); else try to send.
    pub(crate) fn delayer_recv(&mut self, id: ObjId, p: PktId, h: Option<ResumeId>) {
        let now = self.w.s.now;
        let d = self.delayer(id);
        if d.pkt.is_some() {
            // Only a sender that does not wait for the handler (not a
            // queue) can do this; ns-2 prints this and exits with 1.
            self.w.pool.free(p);
            self.w.abort(crate::notice::Abort::DelayerNotEmpty { delayer: id });
            return;
        }
        d.prev_h = h;
        d.pkt = Some(p);
        if let Some((int, len)) = d.alloc {
            let last_sent = d.last_sent;
            if now - last_sent > self.ranvar_draw(int) {
                let delay = self.ranvar_draw(len);
                let d = self.delayer(id);
                d.alloc_free = false;
                let t = d.alloc_timer;
                self.w.s.timer_resched(t, delay);
                return;
            }
        }
        self.delayer_try_send(id);
    }

    /// `Delayer::try_send`: if the link is free and no allocation delay or
    /// spike is under way, hand the packet held (if any) to the target,
    /// then call the sender's handler back (its next packet comes in at
    /// once).
    pub(crate) fn delayer_try_send(&mut self, id: ObjId) {
        let d = self.delayer(id);
        if d.debug {
            let n = crate::notice::Notice::DelayerState {
                delayer: id,
                last_sent: d.last_sent,
                alloc_free: d.alloc_free,
                target_free: d.target_free,
                spike_free: d.spike_free,
            };
            self.w.notify(n);
        }
        let d = self.delayer(id);
        if !d.target_free || !d.alloc_free || !d.spike_free {
            return;
        }
        if let (Some(p), true) = (d.pkt, d.target != NONE) {
            if d.sending {
                // Called back by its own target (another delayer behind
                // it) before it let go of the packet: ns-2 hands the same
                // packet on a second time and aborts when the link
                // schedules it again.
                self.w.abort(crate::notice::Abort::DelayerCalledBack { delayer: id });
                return;
            }
            d.sending = true;
            let (target, slot) = (d.target, d.slot);
            self.recv(target, p, Some(slot));
            // Whatever the target scheduled on the handler (the link's end
            // of transmission) must really happen.
            self.w.s.need_resume(slot);
            let now = self.w.s.now;
            let d = self.delayer(id);
            d.sending = false;
            d.last_sent = now;
            d.target_free = false;
            d.pkt = None;
        }
        if let Some(h) = self.delayer(id).prev_h {
            self.resume(h);
        }
    }

    /// `TargetHandler::handle`: the link finished sending.
    pub(crate) fn delayer_target_free(&mut self, id: ObjId) {
        self.delayer(id).target_free = true;
        self.delayer_try_send(id);
    }

    /// A delayer's timer expired (`AllocTimer`, `SpikeTimer`).
    pub(crate) fn delayer_timeout(&mut self, id: ObjId, kind: u8) {
        if kind == ALLOC_TIMER {
            self.delayer(id).alloc_free = true;
            return self.delayer_try_send(id);
        }
        let d = self.delayer(id);
        let Some((int, len)) = d.spike else { return };
        let (t, free) = (d.spike_timer, d.spike_free);
        if free {
            // A spike starts.
            d.spike_free = false;
            let l = self.ranvar_draw(len);
            self.w.s.timer_resched(t, l);
            return;
        }
        d.spike_free = true;
        let i = self.ranvar_draw(int);
        self.w.s.timer_resched(t, i);
        self.delayer_try_send(id);
    }

    /// The commands of a `Delayer` (ns-2's `Delayer::command`); `target`
    /// and `drop-target` are the connectors' and answered before.
    pub(crate) fn delayer_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let d = self.delayer(id);
        match (cmd, n) {
            // A script's own blocking is refused once spikes are set
            // (ns-2 passes the command on, which knows no `block`).
            ("block", 1) if d.spike.is_none() => {
                d.spike_free = false;
                Ok(String::new())
            }
            ("unblock", 1) => {
                d.spike_free = true;
                self.delayer_try_send(id);
                Ok(String::new())
            }
            ("alloc", 3) => {
                let (int, len) = (self.ranvar_arg(id, cmd, argv[1])?, self.ranvar_arg(id, cmd, argv[2])?);
                self.delayer(id).alloc = Some((int, len));
                Ok(String::new())
            }
            ("spike", 3) => {
                let (int, len) = (self.ranvar_arg(id, cmd, argv[1])?, self.ranvar_arg(id, cmd, argv[2])?);
                let t = self.delayer(id).spike_timer;
                if self.w.s.timer_status(t) != crate::sched::TimerStatus::Idle {
                    // ns-2 aborts ("Couldn't schedule timer").
                    return Err(format!("{} spike: delay spikes are already set (ns-2 aborts here)", self.name(id)));
                }
                self.delayer(id).spike = Some((int, len));
                let i = self.ranvar_draw(int);
                self.w.s.timer_resched(t, i);
                Ok(String::new())
            }
            // NsObject's and Connector's commands that have no effect here.
            ("reset", 1) | ("isDynamic", 1) => Ok(String::new()),
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }

    /// A random variable named as an argument of `cmd`.
    fn ranvar_arg(&self, id: ObjId, cmd: &str, name: &str) -> Result<ObjId, String> {
        match self.lookup(name) {
            Some(o) if matches!(self.objs[o as usize], Obj::RanVar(_)) => Ok(o),
            _ => Err(format!("{} {cmd}: \"{name}\" is not a RandomVariable", self.name(id))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::Ev;
    use crate::sim::Yield;

    /// queue -> delayer -> dequeue trace -> link (8 Mb/s, no delay: 1 ms per
    /// 1000-byte packet) -> arrival trace.  Returns (sim, queue, delayer).
    fn line(qkind: &str) -> (Sim, ObjId, ObjId) {
        let mut sim = Sim::ns2();
        let q = sim.create("q", qkind).unwrap();
        let d = sim.create("d", "Delayer").unwrap();
        let deq = sim.create("deq", "Trace/Deque").unwrap();
        let link = sim.create("link", "DelayLink").unwrap();
        let rcv = sim.create("rcv", "Trace/Recv").unwrap();
        sim.set_var(q, "limit_", "10").unwrap();
        sim.set_var(link, "bandwidth_", "8Mb").unwrap();
        sim.set_var(link, "delay_", "0").unwrap();
        for (a, b) in [("q", "d"), ("d", "deq"), ("deq", "link"), ("link", "rcv")] {
            let id = sim.lookup(a).unwrap();
            sim.command(id, &["target", b]).unwrap();
        }
        sim.command(deq, &["attach", "deq"]).unwrap();
        sim.command(rcv, &["attach", "rcv"]).unwrap();
        (sim, q, d)
    }

    fn packet(sim: &mut Sim) -> PktId {
        let p = sim.w.pool.alloc();
        sim.w.pool.get_mut(p).size = 1000;
        p
    }

    /// A packet reaches the queue `at` seconds from now.
    fn arrive_at(sim: &mut Sim, q: ObjId, at: f64) {
        let p = packet(sim);
        sim.w.s.schedule(at, Ev::Deliver(q, p));
    }

    /// Times of the lines written to channel `ch` so far, in ms.
    fn times(sim: &mut Sim, ch: &str) -> Vec<f64> {
        let mut v = Vec::new();
        for (name, data) in sim.w.out.drain() {
            if name == ch {
                for l in String::from_utf8(data).unwrap().lines() {
                    let t: f64 = l.split(' ').nth(1).unwrap().parse().unwrap();
                    v.push((t * 1e6).round() / 1e3);
                }
            }
        }
        v
    }

    fn queue(sim: &Sim, q: ObjId) -> &crate::qdisc::Queue {
        match &sim.objs[q as usize] {
            Obj::Queue(q) => q,
            _ => unreachable!(),
        }
    }

    fn constant(sim: &mut Sim, name: &str, v: &str) {
        let id = sim.create(name, "RandomVariable/Constant").unwrap();
        sim.set_var(id, "val_", v).unwrap();
    }

    /// The delayer keeps one packet while the link sends and calls the
    /// queue back as each packet starts: the queue unblocks at once when it
    /// has nothing more, and holds one packet fewer than without a delayer.
    #[test]
    fn holds_one_packet_and_calls_the_queue_back_at_each_send() {
        let (mut sim, q, d) = line("Queue/DropTail");
        let p = packet(&mut sim);
        sim.recv(q, p, None);
        assert!(!queue(&sim, q).blocked, "called back at once, found nothing");
        assert!(!sim.delayer(d).target_free && sim.delayer(d).pkt.is_none());
        let p = packet(&mut sim);
        sim.recv(q, p, None);
        assert!(queue(&sim, q).blocked && queue(&sim, q).is_empty(), "the delayer holds the second");
        assert!(sim.delayer(d).pkt.is_some());
        for _ in 0..2 {
            let p = packet(&mut sim);
            sim.recv(q, p, None);
        }
        assert_eq!(queue(&sim, q).len(), 2);
        assert_eq!(sim.run(), Yield::Done);
        assert_eq!(times(&mut sim, "deq"), vec![0.0, 1.0, 2.0, 3.0]);
        assert!(!queue(&sim, q).blocked);
        assert!(sim.delayer(d).target_free);
        assert_eq!(sim.live_packets(), 0);
    }

    /// A RED queue behind a delayer goes idle when the delayer calls it
    /// back with nothing to send: at the first packet's start, then again
    /// when the link's handler fires with nothing waiting (a real event,
    /// not a lazy resume).
    #[test]
    fn red_idle_periods_start_at_the_delayers_calls() {
        let (mut sim, q, _) = line("Queue/RED");
        arrive_at(&mut sim, q, 0.25);
        sim.w.s.schedule_tcl(0.2505);
        assert!(matches!(sim.run(), Yield::Tcl(_)));
        let red = queue(&sim, q).disc.get::<crate::qdisc::Red>().unwrap();
        assert!(red.idle);
        assert_eq!(red.idletime, 0.25, "idle from the packet's start");
        assert_eq!(sim.run(), Yield::Done);
        let red = queue(&sim, q).disc.get::<crate::qdisc::Red>().unwrap();
        assert_eq!(red.idletime, 0.251, "idle again when the link finished");
    }

    /// `block` keeps the packet held (the queue stays blocked and fills);
    /// `unblock` sends it at once and the queue drains behind it.
    #[test]
    fn block_holds_packets_until_unblock() {
        let (mut sim, q, d) = line("Queue/DropTail");
        sim.command(d, &["block"]).unwrap();
        for _ in 0..3 {
            arrive_at(&mut sim, q, 0.0);
        }
        sim.w.s.schedule_tcl(0.5);
        assert!(matches!(sim.run(), Yield::Tcl(_)));
        assert!(queue(&sim, q).blocked);
        assert_eq!(queue(&sim, q).len(), 2);
        assert!(times(&mut sim, "deq").is_empty());
        sim.command(d, &["unblock"]).unwrap();
        assert_eq!(sim.run(), Yield::Done);
        assert_eq!(times(&mut sim, "deq"), vec![500.0, 501.0, 502.0]);
    }

    /// After an idle time longer than a draw of `alloc_int`, a packet
    /// waits a draw of `alloc_len` (a channel is allocated).
    #[test]
    fn channel_allocation_after_idle_periods() {
        let (mut sim, q, d) = line("Queue/DropTail");
        constant(&mut sim, "int", "0.1");
        constant(&mut sim, "len", "0.05");
        sim.command(d, &["alloc", "int", "len"]).unwrap();
        for at in [0.0, 0.06, 0.5] {
            arrive_at(&mut sim, q, at);
        }
        assert_eq!(sim.run(), Yield::Done);
        assert_eq!(times(&mut sim, "deq"), vec![50.0, 60.0, 550.0]);
    }

    /// Spikes alternate: a draw of `spike_int` free, a draw of `spike_len`
    /// blocked; a packet arriving in a spike leaves at its end.
    #[test]
    fn delay_spikes_block_for_their_length() {
        let (mut sim, q, d) = line("Queue/DropTail");
        constant(&mut sim, "int", "0.3");
        constant(&mut sim, "len", "0.1");
        sim.command(d, &["spike", "int", "len"]).unwrap();
        for at in [0.1, 0.35, 0.36, 0.5, 0.75] {
            arrive_at(&mut sim, q, at);
        }
        // the spikes go on forever: stop after the last packet
        sim.w.s.schedule_tcl(1.0);
        assert!(matches!(sim.run(), Yield::Tcl(_)));
        assert_eq!(times(&mut sim, "deq"), vec![100.0, 400.0, 401.0, 500.0, 800.0]);
    }

    /// Two delayers chained: the second calls the first back while the
    /// first is still handing it the packet.  ns-2 then sends that packet
    /// twice and aborts; here the second send is refused and the run stops
    /// with ns-2's message.
    #[test]
    fn a_delayer_called_back_while_sending_stops_the_run() {
        let (mut sim, q, _) = line("Queue/DropTail");
        let d2 = sim.create("d2", "Delayer").unwrap();
        sim.command(d2, &["target", "deq"]).unwrap();
        sim.command(sim.lookup("d").unwrap(), &["target", "d2"]).unwrap();
        let p = packet(&mut sim);
        sim.recv(q, p, None);
        let d = sim.lookup("d").unwrap();
        assert_eq!(sim.w.take_notices(), vec![crate::notice::Notice::Abort(crate::notice::Abort::DelayerCalledBack { delayer: d })]);
        assert_eq!(times(&mut sim, "deq"), vec![0.0], "sent once");
    }

    /// Commands ns-2 refuses or would crash on are errors.
    #[test]
    fn bad_commands_are_errors() {
        let (mut sim, _, d) = line("Queue/DropTail");
        constant(&mut sim, "c", "1");
        assert!(sim.command(d, &["alloc", "c", "q"]).unwrap_err().contains("\"q\" is not a RandomVariable"));
        assert!(sim.command(d, &["spike", "nosuch", "c"]).is_err());
        sim.command(d, &["spike", "c", "c"]).unwrap();
        assert!(sim.command(d, &["spike", "c", "c"]).unwrap_err().contains("already set"));
        assert!(sim.command(d, &["block"]).unwrap_err().starts_with("unknown command"));
        sim.command(d, &["unblock"]).unwrap();
        sim.command(d, &["reset"]).unwrap();
        assert_eq!(sim.command(d, &["target"]).unwrap(), "deq");
    }
}
