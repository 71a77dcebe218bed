//! The snoop link layer (ns-2 2.35's `LL/LLSnoop` and its `Snoop`
//! agents, tcp/snoop.cc and tcl/lan/ns-ll.tcl): a link layer at the base
//! station between a wired network and a lossy last hop that watches the
//! TCP connections crossing it.  Per connection (one agent for both
//! directions, made at its first packet) it keeps a copy of each data
//! segment it sends down towards the lossy side, retransmits a segment
//! locally when a duplicate acknowledgement or its own timer says it was
//! lost there, and holds back the duplicate acknowledgements that its
//! retransmission answers, so that the sender's congestion control is left
//! alone.  Data coming up from the lossy side is only noted (for the
//! explicit loss notification, `eln`, of the acknowledgements going back
//! down).
//!
//! Branch for branch as snoop.cc has them, its quirks included: the
//! duplicate-ACK threshold counter shared by all the agents (ns-2's
//! function-static `thresh`), the buffer flag set by `|= ~FULL` when a
//! full cache makes room (which sets the `CLOSED` flag with it: acks are
//! then passed on untouched), the timer re-armed on the same segment.
//! Its timeout is `max(srtt + 4 rttvar, snoopTick)`.
//!
//! The agents' logic is [`Conn`] over a [`SnoopHost`] (the packets, the
//! link layer, the connection's timer); `Sim::snoop_recv` is the link
//! layer's entry.  Not modelled: `integrate_` (the loss recovery shared
//! across an LL's connections, off by default), which is refused.

use crate::packet::{Direction, PacketType, PktId};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim};

use super::Part;

const ALIVE: u16 = 0x20;
const WL_ALIVE: i32 = 0x40;
const WL_EMPTY: i32 = 0x80;
const FULL: u16 = 0x08;
const CLOSED: u16 = 0x02;
const NOACK: u16 = 0x04;
/// The cache's size when `maxbufs_` is 0.
pub const MAX_WINDOW: i32 = 100;
/// The ring of runs of data seen from the lossy side.
const WL_SEQS: i32 = 8;
const MAX_RXMIT: i32 = 10;
const RTX_THRESH: i32 = 1;

/// Pass the packet on, or hold it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Propagate,
    Suppress,
}

/// Where a segment went in the cache: at the tail (out of order or
/// retransmitted by the sender), or elsewhere.
const TAIL: i32 = 1;

/// The snoop agents' parameters (`Snoop`'s class variables).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub srtt: f64,
    pub rttvar: f64,
    pub g: f64,
    pub snoop_tick: f64,
    pub maxbufs: i32,
    pub lru: bool,
}

impl Default for Params {
    fn default() -> Params {
        Params { srtt: 0.1, rttvar: 0.25, g: 0.125, snoop_tick: 0.1, maxbufs: 0, lru: false }
    }
}

/// A cached segment and snoop's header on it.
#[derive(Clone, Copy, Debug)]
struct Cached<P> {
    pkt: P,
    seqno: i32,
    num_rxmit: i32,
    sender_rxmit: bool,
    snd_time: f64,
}

/// What an agent needs of the simulation.
pub trait SnoopHost<P> {
    fn now(&self) -> f64;
    /// The TCP sequence number (an acknowledgement's: the number acked).
    fn seqno(&self, p: P) -> i32;
    fn copy(&mut self, p: P) -> P;
    fn free(&mut self, p: P);
    /// Down through the link layer (a local retransmission).
    fn send_down(&mut self, p: P);
    /// Has the interface queue room (fewer than `limit - 1` packets)?
    fn queue_has_room(&self) -> bool;
    /// Set the packet's explicit loss notification flag.
    fn set_eln(&mut self, p: P);
    /// (Re)arm or stop the connection's retransmission timer.
    fn arm(&mut self, delay: f64);
    fn disarm(&mut self);
    /// The function-static count of duplicate ACKs under the threshold
    /// (shared by every agent of the run).
    fn thresh(&mut self) -> &mut i32;
    /// snoop.cc's `printf("snoop full, making room\n")`.
    fn say_full(&mut self);
    /// The cache freed the segment its pending timer is scheduled on
    /// (ns-2 schedules the timer on the cached packet itself and frees
    /// it while it is pending: its run goes astray, "scheduler going
    /// backwards in time").
    fn freed_pending_timer(&mut self);
}

/// One connection's snoop agent.
#[derive(Clone, Debug)]
pub struct Conn<P> {
    pub params: Params,
    fstate: u16,
    last_seen: i32,
    last_ack: i32,
    exp_next_ack: i32,
    exp_dupacks: i32,
    srtt: f64,
    rttvar: f64,
    pub tail_time: f64,
    buf_head: i32,
    buf_tail: i32,
    tout_pending: bool,
    /// The cached packet ns-2's pending timer event is.
    timer_pkt: Option<P>,
    pkts: Vec<Option<Cached<P>>>,
    wl_state: i32,
    wl_last_seen: i32,
    wl_last_ack: i32,
    wl_head: i32,
    wl_tail: i32,
    wl_seqs: [(i32, i32); WL_SEQS as usize],
    maxbufs: i32,
}

impl<P: Copy + PartialEq> Conn<P> {
    pub fn new(params: Params) -> Conn<P> {
        let maxbufs = if params.maxbufs == 0 { MAX_WINDOW } else { params.maxbufs };
        Conn {
            params,
            fstate: 0,
            last_seen: -1,
            last_ack: -1,
            exp_next_ack: 0,
            exp_dupacks: 0,
            srtt: params.srtt,
            rttvar: params.rttvar,
            tail_time: 0.0,
            buf_head: 0,
            buf_tail: 0,
            tout_pending: false,
            timer_pkt: None,
            pkts: vec![None; maxbufs.max(MAX_WINDOW) as usize],
            wl_state: WL_EMPTY,
            wl_last_seen: -1,
            wl_last_ack: -1,
            wl_head: 0,
            wl_tail: 0,
            wl_seqs: [(0, 0); WL_SEQS as usize],
            maxbufs,
        }
    }

    fn next(&self, i: i32) -> i32 {
        (i + 1) % self.maxbufs
    }

    fn prev(&self, i: i32) -> i32 {
        if i == 0 {
            self.maxbufs - 1
        } else {
            i - 1
        }
    }

    fn wl_next(i: i32) -> i32 {
        (i + 1) % WL_SEQS
    }

    fn wl_prev(i: i32) -> i32 {
        if i == 0 {
            WL_SEQS - 1
        } else {
            i - 1
        }
    }

    fn empty(&self) -> bool {
        self.buf_head == self.buf_tail && self.fstate & FULL == 0
    }

    fn timeout(&self) -> f64 {
        (self.srtt + 4.0 * self.rttvar).max(self.params.snoop_tick)
    }

    fn slot(&self, i: i32) -> Option<Cached<P>> {
        self.pkts[i as usize]
    }

    fn slot_mut(&mut self, i: i32) -> &mut Option<Cached<P>> {
        &mut self.pkts[i as usize]
    }

    fn reset<H: SnoopHost<P>>(&mut self, h: &mut H) {
        self.fstate = 0;
        self.last_seen = -1;
        self.last_ack = -1;
        self.exp_next_ack = 0;
        self.exp_dupacks = 0;
        self.buf_head = 0;
        self.buf_tail = 0;
        if self.tout_pending {
            h.disarm();
            self.tout_pending = false;
        }
        for i in 0..self.pkts.len() {
            if let Some(c) = self.pkts[i].take() {
                h.free(c.pkt);
            }
        }
    }

    fn wl_reset(&mut self) {
        self.wl_state = WL_EMPTY;
        self.wl_head = 0;
        self.wl_tail = 0;
        self.wl_seqs = [(0, 0); WL_SEQS as usize];
    }

    fn arm<H: SnoopHost<P>>(&mut self, h: &mut H) {
        self.tout_pending = true;
        self.timer_pkt = self.slot(self.buf_tail).map(|c| c.pkt);
        let t = self.timeout();
        h.arm(t);
    }

    /// A packet going down towards the lossy side: a data segment is
    /// cached, an acknowledgement noted; then it goes on down.
    pub fn down<H: SnoopHost<P>>(&mut self, h: &mut H, p: P, ptype: PacketType) {
        match ptype {
            PacketType::Tcp => self.data(h, p),
            PacketType::Ack => self.wired_ack(h, p),
            _ => {}
        }
        h.send_down(p);
    }

    /// A packet coming up from the lossy side: whether it goes on up.
    pub fn up<H: SnoopHost<P>>(&mut self, h: &mut H, p: P, ptype: PacketType) -> Verdict {
        match ptype {
            PacketType::Ack => self.ack(h, p),
            PacketType::Tcp => {
                self.wless_data(h, p);
                Verdict::Propagate
            }
            _ => Verdict::Propagate,
        }
    }

    fn data<H: SnoopHost<P>>(&mut self, h: &mut H, p: P) {
        let seq = h.seqno(p);
        if self.fstate & ALIVE != 0 && seq == 0 {
            self.reset(h);
        }
        self.fstate |= ALIVE;
        if self.fstate & FULL != 0 && !self.params.lru {
            if seq > self.last_seen {
                self.last_seen = seq;
            }
            return;
        }
        let mut reset_pending = 0;
        if h.queue_has_room() {
            reset_pending = self.insert(h, p);
        }
        if self.tout_pending && reset_pending == TAIL {
            h.disarm();
            self.tout_pending = false;
        }
        if !self.tout_pending && !self.empty() {
            self.arm(h);
        }
    }

    fn insert<H: SnoopHost<P>>(&mut self, h: &mut H, p: P) -> i32 {
        let seq = h.seqno(p);
        if seq <= self.last_ack {
            return 0;
        }
        if self.fstate & FULL != 0 {
            // (snoop.cc: "snoop full, making room"; its flag is set with
            // `|= ~FULL`, every other flag with it)
            h.say_full();
            if let Some(c) = self.slot_mut(self.buf_tail).take() {
                if self.tout_pending && self.timer_pkt == Some(c.pkt) {
                    h.freed_pending_timer();
                }
                h.free(c.pkt);
            }
            self.buf_tail = self.next(self.buf_tail);
            self.fstate |= !FULL;
        }
        let i;
        if seq > self.last_seen || self.slot(self.buf_tail).is_none() {
            i = self.buf_head;
            self.buf_head = self.next(self.buf_head);
        } else if seq < self.slot(self.buf_tail).map_or(0, |c| c.seqno) {
            self.buf_tail = self.prev(self.buf_tail);
            i = self.buf_tail;
        } else {
            let mut k = self.buf_tail;
            while k != self.buf_head {
                let c = self.slot(k).expect("a cached segment between tail and head");
                if c.seqno == seq {
                    // cached before: a retransmission by the sender
                    let now = h.now();
                    let c = self.slot_mut(k).as_mut().unwrap();
                    c.num_rxmit = 0;
                    c.sender_rxmit = true;
                    c.snd_time = now;
                    return TAIL;
                } else if c.seqno > seq {
                    // (snoop.cc shifts the segments before it back by one
                    // and puts the one before the tail in the hole)
                    let temp = self.slot(self.prev(self.buf_tail));
                    let mut j = self.buf_tail;
                    while j != k {
                        let pj = self.prev(j);
                        self.pkts[pj as usize] = self.pkts[j as usize];
                        j = self.next(j);
                    }
                    k = self.prev(k);
                    self.pkts[k as usize] = temp;
                    self.buf_tail = self.prev(self.buf_tail);
                    break;
                }
                k = self.next(k);
            }
            if k == self.buf_head {
                self.buf_head = self.next(self.buf_head);
            }
            i = k;
        }
        // save a copy
        let copy = h.copy(p);
        let now = h.now();
        // (a segment still in that place is forgotten, not freed, as in
        // ns-2)
        *self.slot_mut(i) = Some(Cached { pkt: copy, seqno: seq, num_rxmit: 0, sender_rxmit: false, snd_time: now });
        if self.buf_head == self.buf_tail {
            self.fstate |= FULL;
        }
        if seq < self.last_seen {
            if self.buf_tail == i {
                let c = self.slot_mut(i).as_mut().unwrap();
                c.sender_rxmit = true;
                c.num_rxmit = 0;
            }
            self.exp_next_ack = self.buf_tail;
            TAIL
        } else {
            self.last_seen = seq;
            0
        }
    }

    fn ack<H: SnoopHost<P>>(&mut self, h: &mut H, p: P) -> Verdict {
        let ack = h.seqno(p);
        if self.fstate & CLOSED != 0 || self.last_ack > ack {
            return Verdict::Propagate;
        }
        if self.last_ack == ack {
            let Some(c) = self.slot(self.buf_tail) else { return Verdict::Propagate };
            if c.seqno > ack + 1 {
                return Verdict::Propagate;
            }
            if self.exp_dupacks == 0 {
                let thresh = h.thresh();
                let t = *thresh;
                *thresh += 1;
                if t < RTX_THRESH {
                    return Verdict::Propagate;
                }
                *thresh = 0;
                if c.sender_rxmit {
                    return Verdict::Propagate;
                }
                let mut e = self.buf_head - self.exp_next_ack;
                if e < 0 {
                    e += MAX_WINDOW;
                }
                self.exp_dupacks = (e - (RTX_THRESH + 1)) as i16 as i32;
                self.exp_next_ack = self.next(self.buf_tail);
                if c.num_rxmit == 0 {
                    return self.rxmit(h, self.buf_tail);
                }
            } else if self.exp_dupacks > 0 {
                self.exp_dupacks -= 1;
                return Verdict::Suppress;
            } else if self.exp_dupacks == -1 {
                if c.num_rxmit < 2 {
                    return self.rxmit(h, self.buf_tail);
                }
            } else {
                return Verdict::Propagate;
            }
        } else {
            self.fstate &= !NOACK;
            let snd_time = self.clean_bufs(h, ack);
            if snd_time != -1.0 {
                self.rtt(h, snd_time);
            }
            self.exp_dupacks = 0;
            self.exp_next_ack = self.buf_tail;
            self.last_ack = ack;
        }
        Verdict::Propagate
    }

    fn wless_data<H: SnoopHost<P>>(&mut self, h: &mut H, p: P) {
        let seq = h.seqno(p);
        if self.wl_state & WL_ALIVE != 0 && seq == 0 {
            self.wl_reset();
        }
        self.wl_state |= WL_ALIVE;
        if self.wl_state & WL_EMPTY != 0 && seq >= self.wl_last_ack {
            self.wl_seqs[self.wl_head as usize] = (seq, 1);
            self.wl_tail = self.wl_head;
            self.wl_head = Self::wl_next(self.wl_head);
            self.wl_last_seen = seq;
            self.wl_state &= !WL_EMPTY;
            return;
        }
        let i;
        if seq >= self.wl_last_seen {
            self.wl_last_seen = seq;
            let k = Self::wl_prev(self.wl_head);
            let (s, n) = self.wl_seqs[k as usize];
            if s + n == seq {
                self.wl_seqs[k as usize].1 += 1;
                return;
            }
            i = self.wl_head;
            self.wl_head = Self::wl_next(self.wl_head);
        } else if seq == self.wl_seqs[self.wl_tail as usize].0 - 1 {
            i = self.wl_tail;
        } else {
            return;
        }
        self.wl_seqs[i as usize].0 = seq;
        self.wl_seqs[i as usize].1 += 1;
    }

    fn wired_ack<H: SnoopHost<P>>(&mut self, h: &mut H, p: P) {
        let ack = h.seqno(p);
        if ack == self.wl_last_ack && self.wless_loss(ack) {
            h.set_eln(p);
        } else if ack > self.wl_last_ack {
            let mut i = self.wl_tail;
            while i != self.wl_head {
                let (s, n) = self.wl_seqs[i as usize];
                if s + n - 1 <= ack {
                    self.wl_seqs[i as usize] = (0, 0);
                } else if ack < s {
                    break;
                } else if ack < s + n - 1 {
                    self.wl_seqs[i as usize] = (ack + 1, n - (ack - s + 1));
                    break;
                }
                i = Self::wl_next(i);
            }
            self.wl_tail = i;
            if self.wl_tail == self.wl_head {
                self.wl_state |= WL_EMPTY;
            }
            self.wl_last_ack = ack;
            if self.wl_head != self.wl_tail && self.wless_loss(ack) {
                h.set_eln(p);
            }
        }
    }

    fn wless_loss(&self, ack: i32) -> bool {
        self.wl_head == self.wl_tail || self.wl_seqs[self.wl_tail as usize].0 > ack + 1
    }

    fn clean_bufs<H: SnoopHost<P>>(&mut self, h: &mut H, ack: i32) -> f64 {
        let mut snd_time = -1.0;
        if self.tout_pending {
            h.disarm();
            self.tout_pending = false;
        }
        if self.empty() {
            return snd_time;
        }
        let mut i = self.buf_tail;
        loop {
            let Some(c) = self.slot(i) else { break };
            if c.seqno <= ack {
                snd_time = c.snd_time;
                h.free(c.pkt);
                *self.slot_mut(i) = None;
                self.fstate &= !FULL;
            } else {
                break;
            }
            i = self.next(i);
            if i == self.buf_head {
                break;
            }
        }
        if i != self.buf_tail || self.buf_head != self.buf_tail {
            self.fstate &= !FULL;
            self.buf_tail = i;
        }
        if !self.empty() {
            self.arm(h);
            if let Some(c) = self.slot(self.buf_tail) {
                self.tail_time = c.snd_time;
            }
        }
        snd_time
    }

    fn rtt<H: SnoopHost<P>>(&mut self, h: &mut H, snd_time: f64) {
        let rtt = h.now() - snd_time;
        if rtt > 0.0 {
            let g = self.params.g;
            self.srtt = g * self.srtt + (1.0 - g) * rtt;
            let delta = (rtt - self.srtt).abs();
            if self.rttvar != 0.0 {
                self.rttvar = g * delta + (1.0 - g) * self.rttvar;
            } else {
                self.rttvar = delta;
            }
        }
    }

    /// Retransmit the segment in cache place `i` (a copy goes down).
    fn rxmit<H: SnoopHost<P>>(&mut self, h: &mut H, i: i32) -> Verdict {
        let Some(c) = self.slot(i) else { return Verdict::Propagate };
        if c.num_rxmit >= MAX_RXMIT {
            return Verdict::Propagate;
        }
        let now = h.now();
        let c = self.slot_mut(i).as_mut().unwrap();
        c.snd_time = now;
        c.num_rxmit += 1;
        let pkt = c.pkt;
        let q = h.copy(pkt);
        h.send_down(q);
        if self.tout_pending {
            h.disarm();
        }
        self.arm(h);
        Verdict::Suppress
    }

    /// The retransmission timer fired.
    pub fn timed_out<H: SnoopHost<P>>(&mut self, h: &mut H) {
        self.tout_pending = false;
        let Some(c) = self.slot(self.buf_tail) else { return };
        if c.seqno != self.last_ack + 1 {
            return;
        }
        if (self.buf_head != self.buf_tail || self.fstate & FULL != 0) && self.rxmit(h, self.buf_tail) == Verdict::Suppress {
            self.exp_next_ack = self.next(self.buf_tail);
        }
    }
}

/// An LL/LLSnoop's agents, one per connection (by the addresses of its
/// wired end and its other end), in the order they were made.
#[derive(Clone, Debug, Default)]
pub struct Snoops {
    pub params: Params,
    pub conns: Vec<((i32, i32), Conn<PktId>, u32)>,
}

/// The agents' host: the simulation, the link layer `ll`, connection
/// `k`'s timer.
struct Glue<'a> {
    sim: &'a mut Sim,
    ll: ObjId,
    timer: u32,
}

impl SnoopHost<PktId> for Glue<'_> {
    fn now(&self) -> f64 {
        self.sim.w.now()
    }

    fn seqno(&self, p: PktId) -> i32 {
        self.sim.w.pool.get(p).seqno
    }

    fn copy(&mut self, p: PktId) -> PktId {
        self.sim.w.pool.copy(p)
    }

    fn free(&mut self, p: PktId) {
        self.sim.w.pool.free(p)
    }

    fn send_down(&mut self, p: PktId) {
        let mut hd = self.sim.w.pool.lan_hdr(p);
        hd.dir = Direction::Down;
        self.sim.w.pool.set_lan_hdr(p, hd);
        self.sim.ll_send_down(self.ll, p);
    }

    fn queue_has_room(&self) -> bool {
        let Some(Obj::Lan(part)) = self.sim.objs.get(self.ll as usize) else { return false };
        let Part::Ll(l) = &**part else { return false };
        match self.sim.objs.get(l.ifq as usize) {
            Some(Obj::Queue(q)) => (q.len() as i64) < q.cap.limit as i64 - 1,
            // (no queue given: nothing to count)
            _ => true,
        }
    }

    fn set_eln(&mut self, p: PktId) {
        self.sim.w.pool.get_mut(p).eln = true;
    }

    fn arm(&mut self, delay: f64) {
        self.sim.w.s.timer_resched(self.timer, delay);
    }

    fn disarm(&mut self) {
        self.sim.w.s.timer_cancel(self.timer);
    }

    fn thresh(&mut self) -> &mut i32 {
        &mut self.sim.w.snoop_thresh
    }

    fn say_full(&mut self) {
        self.sim.w.c_stdout.extend_from_slice(b"snoop full, making room\n");
    }

    fn freed_pending_timer(&mut self) {
        let why = "a full snoop cache that makes room (least recently used) freed the segment its retransmission timer is scheduled on, as ns-2 2.35 does: ns-2's run goes astray there (\"scheduler going backwards in time\"); the run stops";
        self.sim.w.abort(crate::notice::Abort::Front(why.into()));
    }
}

impl Sim {
    fn snoops(&mut self, ll: ObjId) -> Option<&mut Snoops> {
        match self.lan_part(ll) {
            Some(Part::Ll(l)) => l.snoop.as_deref_mut(),
            _ => None,
        }
    }

    /// `LLSnoop::recv`: the connection's agent (made at its first packet)
    /// sees the packet; going down it goes on through the link layer,
    /// going up after the link layer's delay unless the agent holds it
    /// back.
    #[cold]
    #[inline(never)]
    pub(crate) fn snoop_recv(&mut self, ll: ObjId, p: PktId) {
        let hd = self.w.pool.lan_hdr(p);
        let k = self.w.pool.get(p);
        let (ptype, up) = (k.ptype, hd.dir == Direction::Up);
        let key = if up { (k.daddr, k.saddr) } else { (k.saddr, k.daddr) };
        let Some(s) = self.snoops(ll) else { unreachable!("a snoop link layer") };
        let found = s.conns.iter().position(|c| c.0 == key);
        let (i, params) = (found, s.params);
        let i = match i {
            Some(i) => i,
            None => {
                let n = self.snoops(ll).unwrap().conns.len();
                if n > u8::MAX as usize {
                    // (the timers' kinds are bytes)
                    self.w.pool.free(p);
                    let why = format!("more than {} TCP connections through one snoop link layer are not supported by Dumbbell", u8::MAX as usize + 1);
                    return self.w.abort(crate::notice::Abort::Front(why));
                }
                let t = self.w.s.new_timer(ll, n as u8);
                self.snoops(ll).unwrap().conns.push((key, Conn::new(params), t));
                n
            }
        };
        let (_, mut conn, timer) = std::mem::replace(&mut self.snoops(ll).unwrap().conns[i], (key, Conn::new(params), 0));
        let delay = match self.lan_part(ll) {
            Some(Part::Ll(l)) => l.delay,
            _ => 0.0,
        };
        let up_target = match self.lan_part(ll) {
            Some(Part::Ll(l)) => l.up_target,
            _ => crate::sim::NONE,
        };
        {
            let mut g = Glue { sim: self, ll, timer };
            if up {
                if conn.up(&mut g, p, ptype) == Verdict::Propagate {
                    g.sim.w.s.schedule(delay, crate::sched::Ev::Deliver(up_target, p));
                } else {
                    g.sim.w.pool.free(p);
                }
            } else {
                conn.down(&mut g, p, ptype);
            }
        }
        self.snoops(ll).unwrap().conns[i] = (key, conn, timer);
    }

    /// Connection `k`'s retransmission timer at snoop link layer `ll`.
    pub(crate) fn snoop_timeout(&mut self, ll: ObjId, k: u8) {
        let Some(s) = self.snoops(ll) else { return };
        let Some(&(key, _, timer)) = s.conns.get(k as usize) else { return };
        let params = s.params;
        let (_, mut conn, _) = std::mem::replace(&mut self.snoops(ll).unwrap().conns[k as usize], (key, Conn::new(params), 0));
        conn.timed_out(&mut Glue { sim: self, ll, timer });
        self.snoops(ll).unwrap().conns[k as usize] = (key, conn, timer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A host that records what the agent does; packets are numbers whose
    /// sequence numbers the test sets.
    #[derive(Default)]
    struct Rec {
        now: f64,
        seqs: Vec<i32>,
        down: Vec<(u32, i32)>,
        timer: Option<f64>,
        eln: Vec<u32>,
        thresh: i32,
        full: bool,
    }

    impl SnoopHost<u32> for Rec {
        fn now(&self) -> f64 {
            self.now
        }
        fn seqno(&self, p: u32) -> i32 {
            self.seqs[p as usize]
        }
        fn copy(&mut self, p: u32) -> u32 {
            let s = self.seqs[p as usize];
            self.seqs.push(s);
            (self.seqs.len() - 1) as u32
        }
        fn free(&mut self, _: u32) {}
        fn send_down(&mut self, p: u32) {
            self.down.push((p, self.seqs[p as usize]));
        }
        fn queue_has_room(&self) -> bool {
            !self.full
        }
        fn set_eln(&mut self, p: u32) {
            self.eln.push(p);
        }
        fn arm(&mut self, d: f64) {
            self.timer = Some(self.now + d);
        }
        fn disarm(&mut self) {
            self.timer = None;
        }
        fn thresh(&mut self) -> &mut i32 {
            &mut self.thresh
        }
        fn say_full(&mut self) {}
        fn freed_pending_timer(&mut self) {}
    }

    impl Rec {
        fn pkt(&mut self, seq: i32) -> u32 {
            self.seqs.push(seq);
            (self.seqs.len() - 1) as u32
        }
    }

    #[test]
    fn a_lost_segment_is_sent_again_when_its_timer_fires() {
        // (the snoop suite: the first segment is lost beyond the base
        // station; 1.1 s later, max(0.1 + 4 x 0.25, 0.1), snoop sends its
        // copy)
        let mut h = Rec::default();
        let mut c: Conn<u32> = Conn::new(Params::default());
        h.now = 0.105032;
        let p = h.pkt(0);
        c.down(&mut h, p, PacketType::Tcp);
        assert_eq!(h.down, [(p, 0)]);
        assert_eq!(h.timer, Some(0.105032 + 1.1));
        // (the timer fires on the tail segment, next after the last ack)
        h.now = 1.205032;
        h.timer = None;
        c.timed_out(&mut h);
        // (bufhead != buftail: the copy goes down again, the timer re-armed)
        assert_eq!(h.down.len(), 2);
        assert_eq!(h.down[1].1, 0);
        assert_eq!(h.timer, Some(1.205032 + 1.1));
    }

    #[test]
    fn duplicate_acks_trigger_a_local_retransmission_and_are_held_back() {
        let mut h = Rec::default();
        let mut c: Conn<u32> = Conn::new(Params::default());
        for s in 0..5 {
            let p = h.pkt(s);
            c.down(&mut h, p, PacketType::Tcp);
        }
        assert_eq!(h.down.len(), 5);
        h.now = 0.5;
        // a new ack for 0 frees segment 0 and measures the round trip
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate);
        // the first duplicate goes through (under the threshold), the
        // second retransmits segment 1 locally and is held back
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate);
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Suppress);
        assert_eq!(h.down.last().unwrap().1, 1);
        // the duplicates still to come for the segments sent after it
        // (5 - 1 - 2 = 2) are held back too, then passed on
        for _ in 0..2 {
            let a = h.pkt(0);
            assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Suppress);
        }
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate);
    }

    #[test]
    fn a_sender_retransmission_is_marked_and_its_dupacks_pass() {
        // (as the dupack test, but the sender itself sent segment 1 again
        // before the duplicates came: they pass)
        let mut h = Rec::default();
        let mut c: Conn<u32> = Conn::new(Params::default());
        for s in 0..3 {
            let p = h.pkt(s);
            c.down(&mut h, p, PacketType::Tcp);
        }
        let p = h.pkt(1);
        c.down(&mut h, p, PacketType::Tcp);
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate);
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate);
        let a = h.pkt(0);
        assert_eq!(c.up(&mut h, a, PacketType::Ack), Verdict::Propagate, "a sender retransmission's dupacks pass");
        assert_eq!(h.down.len(), 4, "no local retransmission");
    }

    #[test]
    fn no_caching_when_the_queue_is_nearly_full() {
        let mut h = Rec { full: true, ..Rec::default() };
        let mut c: Conn<u32> = Conn::new(Params::default());
        let p = h.pkt(0);
        c.down(&mut h, p, PacketType::Tcp);
        assert_eq!(h.down.len(), 1);
        assert_eq!(h.timer, None, "nothing cached, no timer");
    }

    #[test]
    fn data_from_the_lossy_side_marks_acks_going_back() {
        let mut h = Rec::default();
        let mut c: Conn<u32> = Conn::new(Params::default());
        // segments 0, 1 and 3 come up (2 lost on the lossy side)
        for s in [0, 1, 3] {
            let p = h.pkt(s);
            assert_eq!(c.up(&mut h, p, PacketType::Tcp), Verdict::Propagate);
        }
        // the wired end acks 1: the next run starts at 3, beyond 2: a
        // wireless loss, flagged
        let a = h.pkt(1);
        c.down(&mut h, a, PacketType::Ack);
        assert_eq!(h.eln, [a]);
    }
}
