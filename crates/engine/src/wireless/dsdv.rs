//! The DSDV routing agent as ns-2 2.35 has it (dsdv/dsdv.cc, rtable.cc)
//! with the settings of tcl/mobility/dsdv.tcl: full updates every 15 s
//! (times 0.75 to 1, jittered), the first within 2 s of the start,
//! triggered updates of changed routes at most once a second, each
//! update broadcast after up to 10 ms; routes advertised only after twice
//! their weighted settling time; a neighbour silent for three periods
//! taken to be gone (its routes marked broken, sequence number odd,
//! advertised at once); up to five packets held per destination without
//! a route; `use_mac_` off (a packet the link layer gives up is dropped).
//!
//! The table is kept sorted by destination (ns-2's array), which decides
//! the order of an update's entries.  Entries refer to their pending
//! timers by an event object id, as ns-2's entries hold `Event` pointers:
//! copying an entry copies the reference, and a rescheduled event keeps
//! its id.
//!
//! ns-2's quirks, kept: an update advertises the sender with metric 0 and
//! each neighbour adds one; a triggered update clears an entry's "new
//! sequence number" flag but not its "new metric" flag, so the entry goes
//! out again in the next triggered update; held packets, once a route
//! comes, go through the agent again as if just sent (the IP header
//! counted a second time: 552-byte CBR packets in ns-2's traces); after
//! that the entry is rewritten from the update's candidate even if the
//! update was not taken.
//!
//! The node is the caller's, through [`Host`]; generic over the packet
//! handle.

use std::collections::VecDeque;

/// ns-2's "infinite" metric.
pub const BIG: u32 = 250;
/// The port routing messages use.
pub const PORT: i32 = 255;
pub const BROADCAST: i32 = -1;
/// The IP header's size and the TTL set on a packet the node originates.
pub const IP_HEADER: u32 = 20;
pub const DEFAULT_TTL: i32 = 32;
/// Packets held per destination without a route.
pub const MAX_QUEUE: usize = 5;
/// One entry's bytes in an update (as ns-2 counts the size).
pub const ENTRY_LEN: u32 = 12;
/// At most 255 entries in an update (a byte counts them).
pub const MAX_ENTRIES: usize = 255;

const STARTUP_JITTER: f64 = 2.0;
const BROADCAST_JITTER: f64 = 0.01;
const MIN_TRIGGER_PERIOD: f64 = 1.0;
/// "Check back next week."
const NEXT_WEEK: f64 = 604800.0;

/// The bound variables (tcl/mobility/dsdv.tcl's values by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub wst0: f64,
    pub period: f64,
    pub alpha: f64,
    pub min_update_periods: u32,
    pub be_random: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params { wst0: 6.0, period: 15.0, alpha: 0.875, min_update_periods: 3, be_random: true }
    }
}

/// One advertised route: destination, metric, sequence number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Advert {
    pub dst: i32,
    pub metric: u8,
    pub seqno: u32,
}

/// An update's entries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Update {
    pub count: u8,
    pub adverts: [Advert; MAX_ENTRIES],
}

impl Default for Update {
    fn default() -> Self {
        Update { count: 0, adverts: [Advert::default(); MAX_ENTRIES] }
    }
}

impl Update {
    pub fn entries(&self) -> &[Advert] {
        &self.adverts[..self.count as usize]
    }
}

/// The common and IP header fields the agent reads and sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub src: i32,
    pub dst: i32,
    pub dport: i32,
    pub ttl: i32,
    pub size: u32,
    pub forwards: i32,
    pub next_hop: i32,
    /// Whether the link layer resolves the next hop (`NS_AF_INET`).
    pub next_hop_set: bool,
    pub failure_callback: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    /// The link layer gave it up (`CBK`).
    LinkFailed,
    /// A destination's queue overflowed (`IFQ`).
    QueueFull,
    Loop,
    Ttl,
}

/// Which of ns-2's two handlers an event object is scheduled on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handler {
    /// The periodic update and the neighbours' timeouts.
    Helper,
    /// Triggered updates.
    Trigger,
}

/// The node around the agent.
pub trait Host<P> {
    fn now(&self) -> f64;
    /// `Random::uniform(max)`.
    fn uniform(&mut self, max: f64) -> f64;
    /// Schedule event object `ev` on `handler` after `delay` (a pending
    /// one is cancelled first by the agent); the host calls
    /// [`Dsdv::fire`] when it falls due unless cancelled.
    fn schedule(&mut self, ev: u32, handler: Handler, delay: f64);
    fn cancel(&mut self, ev: u32);
    /// Hand `p` down: at once (the routing trace point, then the link
    /// layer) or, with a delay, as an event.
    fn send(&mut self, p: P, delay: Option<f64>);
    fn deliver(&mut self, p: P);
    fn drop(&mut self, p: P, why: Drop);
    fn free(&mut self, p: P);
    fn header(&self, p: P) -> Header;
    fn set_header(&mut self, p: P, h: Header);
    fn update(&self, p: P) -> Update;
    /// A new packet from the agent (ns-2's `allocpkt`: the next uid, the
    /// agent's address and port as source, TTL 32).
    fn new_packet(&mut self) -> P;
    fn set_update(&mut self, p: P, u: Update);
    /// A packet for another subnet found no route to the base station
    /// and was freed (ns-2 warns on stderr).
    fn no_base_station(&mut self) {}
    /// The packets node `node` held for `dst` would go round for ever
    /// (see `process_update`): the run is to stop after this event.
    fn held_loop(&mut self, _node: i32, _dst: i32) {}
}

/// A route table entry (ns-2's `rtable_ent`).
#[derive(Debug, PartialEq)]
pub struct Entry<P> {
    pub dst: i32,
    pub hop: i32,
    pub metric: u32,
    pub seqno: u32,
    pub advertise_ok_at: f64,
    pub advert_seqno: bool,
    pub advert_metric: bool,
    pub trigger: Option<u32>,
    pub last_advertised_metric: u32,
    pub changed_at: f64,
    pub new_seqno_at: f64,
    pub wst: f64,
    pub timeout: Option<u32>,
    /// Packets held for a route (ns-2 shares the queue between copies of
    /// an entry; here the table's entry owns it).
    pub queue: Option<VecDeque<P>>,
}

impl<P> Entry<P> {
    fn zero(dst: i32) -> Entry<P> {
        Entry {
            dst,
            hop: 0,
            metric: 0,
            seqno: 0,
            advertise_ok_at: 0.0,
            advert_seqno: false,
            advert_metric: false,
            trigger: None,
            last_advertised_metric: 0,
            changed_at: 0.0,
            new_seqno_at: 0.0,
            wst: 0.0,
            timeout: None,
            queue: None,
        }
    }

    /// A copy sharing the entry's references but not its queue.
    fn candidate(&self) -> Entry<P> {
        Entry { queue: None, ..*self }
    }
}

impl<P> Clone for Entry<P>
where
    P: Clone,
{
    fn clone(&self) -> Self {
        Entry { queue: self.queue.clone(), ..*self }
    }
}

/// The agent of one node.
#[derive(Clone, Debug)]
pub struct Dsdv<P> {
    pub addr: i32,
    pub params: Params,
    pub seqno: u32,
    /// Sorted by destination.
    pub table: Vec<Entry<P>>,
    last_triggered: f64,
    periodic: Option<u32>,
    /// Event objects: when each is due (or was last due).
    due: Vec<f64>,
    /// With hierarchical addresses: the bits of an address that name its
    /// subnet (domain and cluster; 0 with flat addresses, ns-2's NULL
    /// subnet), and the node's base station (`$node base-station A`).
    pub subnet_mask: i32,
    pub base_station: Option<i32>,
}

impl<P: Copy + PartialEq> Dsdv<P> {
    pub fn new(addr: i32, params: Params) -> Dsdv<P> {
        Dsdv { addr, params, seqno: 0, table: Vec::new(), last_triggered: -10.0, periodic: None, due: Vec::new(), subnet_mask: 0, base_station: None }
    }

    fn find(&self, dst: i32) -> Option<usize> {
        self.table.binary_search_by(|e| e.dst.cmp(&dst)).ok()
    }

    /// ns-2's `AddEntry`: replace the entry for the same destination, or
    /// insert in order.
    fn add(&mut self, e: Entry<P>) {
        match self.table.binary_search_by(|x| x.dst.cmp(&e.dst)) {
            Ok(i) => self.table[i] = e,
            Err(i) => self.table.insert(i, e),
        }
    }

    fn new_event(&mut self) -> u32 {
        self.due.push(0.0);
        (self.due.len() - 1) as u32
    }

    fn schedule<H: Host<P>>(&mut self, h: &mut H, ev: u32, handler: Handler, delay: f64) {
        self.due[ev as usize] = h.now() + delay;
        h.schedule(ev, handler, delay);
    }

    fn jitter<H: Host<P>>(&self, h: &mut H, max: f64) -> f64 {
        if self.params.be_random {
            h.uniform(max)
        } else {
            0.0
        }
    }

    /// ns-2's `start-dsdv`: the node's own entry, and the first periodic
    /// update within 2 s.
    pub fn start<H: Host<P>>(&mut self, h: &mut H) {
        let now = h.now();
        let mut e = Entry::zero(self.addr);
        e.hop = self.addr;
        e.seqno = self.seqno;
        self.seqno += 2;
        e.advert_seqno = true;
        e.advert_metric = true;
        e.changed_at = now;
        e.new_seqno_at = now;
        self.add(e);
        let ev = self.new_event();
        self.periodic = Some(ev);
        let j = self.jitter(h, STARTUP_JITTER);
        self.schedule(h, ev, Handler::Helper, j);
    }

    /// An event object falls due on its handler.
    pub fn fire<H: Host<P>>(&mut self, h: &mut H, ev: u32, handler: Handler) {
        match handler {
            Handler::Trigger => self.triggered(h, ev),
            Handler::Helper => self.helper(h, ev),
        }
    }

    fn triggered<H: Host<P>>(&mut self, h: &mut H, ev: u32) {
        let now = h.now();
        let next_possible = self.last_triggered + MIN_TRIGGER_PERIOD;
        assert!(self.table.iter().any(|e| e.trigger == Some(ev)), "a triggered update's entry");
        if now < next_possible {
            self.schedule(h, ev, Handler::Trigger, next_possible - now);
            self.cancel_triggers_before(h, next_possible);
            return;
        }
        let mut periodic = false;
        if let Some(p) = self.make_update(h, &mut periodic) {
            if periodic {
                let pe = self.periodic.expect("started");
                h.cancel(pe);
                let d = self.params.period * (0.75 + self.jitter(h, 0.25));
                self.schedule(h, pe, Handler::Helper, d);
            }
            let j = self.jitter(h, BROADCAST_JITTER);
            h.send(p, Some(j));
            self.last_triggered = now;
        }
        for e in &mut self.table {
            if e.trigger == Some(ev) {
                e.trigger = None;
            }
        }
    }

    fn cancel_triggers_before<H: Host<P>>(&mut self, h: &mut H, t: f64) {
        for i in 0..self.table.len() {
            if let Some(ev) = self.table[i].trigger {
                if self.due[ev as usize] < t {
                    h.cancel(ev);
                    self.table[i].trigger = None;
                }
            }
        }
    }

    /// ns-2's `needTriggeredUpdate` for the entry of `dst`, at `t`.
    fn need_trigger<H: Host<P>>(&mut self, h: &mut H, dst: i32, t: f64) {
        let now = h.now();
        let i = self.find(dst).expect("an entry");
        let ev = match self.table[i].trigger {
            Some(ev) => {
                h.cancel(ev);
                ev
            }
            None => {
                let ev = self.new_event();
                self.table[i].trigger = Some(ev);
                ev
            }
        };
        self.schedule(h, ev, Handler::Trigger, t - now);
    }

    fn helper<H: Host<P>>(&mut self, h: &mut H, ev: u32) {
        let now = h.now();
        if self.periodic == Some(ev) {
            let mut periodic = true;
            if let Some(p) = self.make_update(h, &mut periodic) {
                let j = self.jitter(h, BROADCAST_JITTER);
                h.send(p, Some(j));
            }
            let d = self.params.period * (0.75 + self.jitter(h, 0.25));
            self.schedule(h, ev, Handler::Helper, d);
            self.last_triggered = now;
            return;
        }
        // a neighbour's timeout: the routes through it are broken
        let i = self.table.iter().position(|e| e.timeout == Some(ev)).expect("a timeout's entry");
        let gone = self.table[i].dst;
        for j in 0..self.table.len() {
            let e = &mut self.table[j];
            if e.hop == gone && e.metric != BIG {
                e.metric = BIG;
                e.advertise_ok_at = now;
                e.advert_metric = true;
                e.advert_seqno = true;
                e.seqno = e.seqno.wrapping_add(1);
                let dst = e.dst;
                self.need_trigger(h, dst, now);
            }
        }
        if let Some(i) = self.table.iter().position(|e| e.timeout == Some(ev)) {
            self.table[i].timeout = None;
        }
    }

    /// ns-2's `makeUpdate`: a full update if `periodic` (or if much of
    /// the table changed, which sets it), else the changed entries; None
    /// if there is nothing to say (the packet was still allocated).
    fn make_update<H: Host<P>>(&mut self, h: &mut H, periodic: &mut bool) -> Option<P> {
        let p = h.new_packet();
        let now = h.now();
        let (mut changes, mut size, mut unadvertisable) = (0usize, 0usize, 0usize);
        for e in &self.table {
            size += 1;
            if (e.advert_seqno || e.advert_metric) && e.advertise_ok_at <= now {
                changes += 1;
            }
            if e.advertise_ok_at > now {
                unadvertisable += 1;
            }
        }
        if changes * 3 > size && changes > 3 {
            *periodic = true;
        }
        if *periodic {
            changes = size - unadvertisable;
            self.seqno += 2;
            let mut e = Entry::zero(self.addr);
            e.hop = h.header(p).src;
            e.seqno = self.seqno;
            e.advert_seqno = true;
            e.changed_at = now;
            e.new_seqno_at = now;
            self.add(e);
        }
        if changes == 0 {
            h.free(p);
            return None;
        }
        let mut hd = h.header(p);
        hd.next_hop = BROADCAST;
        hd.next_hop_set = true;
        hd.dst = BROADCAST;
        hd.dport = PORT;
        hd.size = changes as u32 * ENTRY_LEN + IP_HEADER;
        h.set_header(p, hd);
        let mut u = Update { count: changes as u8, ..Update::default() };
        let mut k = 0;
        for e in &mut self.table {
            if *periodic && e.advertise_ok_at > now {
                continue;
            }
            if *periodic || ((e.advert_seqno || e.advert_metric) && e.advertise_ok_at <= now) {
                if k < MAX_ENTRIES {
                    u.adverts[k] = Advert { dst: e.dst, metric: e.metric as u8, seqno: e.seqno };
                }
                k += 1;
                e.last_advertised_metric = e.metric;
                e.advert_seqno = false;
                if *periodic {
                    e.advert_metric = false;
                }
            }
        }
        h.set_update(p, u);
        Some(p)
    }

    /// A packet reaching the agent.
    pub fn recv<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let mut hd = h.header(p);
        if hd.src == self.addr && hd.forwards == 0 {
            hd.size += IP_HEADER;
            hd.ttl = DEFAULT_TTL;
        } else if hd.src == self.addr {
            h.drop(p, Drop::Loop);
            return;
        } else {
            hd.ttl -= 1;
            if hd.ttl == 0 {
                h.set_header(p, hd);
                h.drop(p, Drop::Ttl);
                return;
            }
        }
        h.set_header(p, hd);
        if hd.src != self.addr && hd.dport == PORT {
            self.process_update(h, p);
        } else if hd.dst == BROADCAST && hd.dport != PORT {
            if hd.src == self.addr {
                let j = self.jitter(h, BROADCAST_JITTER);
                h.send(p, Some(j));
            } else {
                h.deliver(p);
            }
        } else {
            self.forward(h, p);
        }
    }

    fn forward<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let now = h.now();
        let mut hd = h.header(p);
        let mut dst = hd.dst;
        // (ns-2's diff_subnet: a destination outside this node's domain
        // and cluster goes by its own route if there is one, else to the
        // base station; without a route to that, the packet is freed)
        let m = self.subnet_mask;
        if m != 0 && dst & m != self.addr & m {
            let routed = |d: &Dsdv<P>, a: i32| d.find(a).is_some_and(|i| d.table[i].metric != BIG);
            if !routed(self, dst) {
                match self.base_station {
                    Some(b) if routed(self, b) => dst = b,
                    _ => {
                        h.no_base_station();
                        h.free(p);
                        return;
                    }
                }
            }
        }
        match self.find(dst) {
            Some(i) if self.table[i].metric != BIG => {
                let e = &self.table[i];
                hd.next_hop_set = true;
                hd.failure_callback = true;
                hd.next_hop = if e.metric > 1 { e.hop } else { dst };
                h.set_header(p, hd);
                h.send(p, None);
            }
            Some(i) => {
                let q = self.table[i].queue.get_or_insert_with(VecDeque::new);
                q.push_back(p);
                while self.table[i].queue.as_ref().map_or(0, |q| q.len()) > MAX_QUEUE {
                    let old = self.table[i].queue.as_mut().and_then(|q| q.pop_front()).expect("queued");
                    h.drop(old, Drop::QueueFull);
                }
            }
            None => {
                let mut e = Entry::zero(dst);
                e.hop = dst;
                e.metric = BIG;
                e.advertise_ok_at = now + NEXT_WEEK;
                e.changed_at = now;
                e.new_seqno_at = now;
                e.wst = self.params.wst0;
                e.queue = Some(VecDeque::from([p]));
                self.add(e);
            }
        }
    }

    fn process_update<H: Host<P>>(&mut self, h: &mut H, p: P) {
        let now = h.now();
        let from = h.header(p).src;
        let u = h.update(p);
        for a in u.entries() {
            let dst = a.dst;
            let old = self.find(dst).map(|i| self.table[i].candidate());
            let mut rte = match &old {
                Some(e) => e.candidate(),
                None => Entry::zero(dst),
            };
            rte.dst = dst;
            rte.hop = from;
            rte.metric = a.metric as u32;
            rte.seqno = a.seqno;
            rte.changed_at = now;
            if rte.metric != BIG {
                rte.metric += 1;
            }
            if dst == self.addr {
                if rte.metric == BIG {
                    if let Some(pe) = self.periodic {
                        h.cancel(pe);
                        self.schedule(h, pe, Handler::Helper, 0.0);
                    }
                }
                continue;
            }
            match &old {
                Some(o) if o.seqno != rte.seqno => {
                    rte.wst = self.params.alpha * o.wst + (1.0 - self.params.alpha) * (o.changed_at - o.new_seqno_at);
                    rte.new_seqno_at = now;
                }
                Some(_) => {}
                None => {
                    rte.wst = self.params.wst0;
                    rte.new_seqno_at = now;
                }
            }
            rte.advertise_ok_at = if rte.metric != BIG && old.as_ref().is_none_or(|o| o.metric != BIG) { now + rte.wst * 2.0 } else { now };
            let mut trigger = false;
            match &old {
                None => {
                    if rte.metric < BIG {
                        rte.advert_metric = true;
                        trigger = true;
                    }
                    self.add(rte.candidate());
                }
                Some(o) if o.seqno == rte.seqno => {
                    if rte.metric < o.metric {
                        if rte.metric == o.last_advertised_metric {
                            rte.advert_metric = false;
                        } else {
                            rte.advert_metric = true;
                            trigger = true;
                        }
                        self.replace(rte.candidate());
                    }
                }
                Some(o) if o.seqno < rte.seqno => {
                    rte.advert_seqno = true;
                    rte.advert_metric = rte.metric != o.last_advertised_metric;
                    self.replace(rte.candidate());
                }
                Some(o) => {
                    if rte.metric == BIG && o.metric != BIG {
                        let i = self.find(dst).expect("an entry");
                        self.table[i].advertise_ok_at = now;
                        self.table[i].advert_metric = true;
                        self.need_trigger(h, dst, now);
                    }
                }
            }
            if trigger {
                let i = self.find(dst).expect("an entry");
                let t = self.table[i].advertise_ok_at;
                self.need_trigger(h, dst, t);
            }
            // send what was held for the destination, once it has a route
            let i = self.find(dst).expect("an entry");
            if self.table[i].queue.is_some() && rte.metric != BIG {
                let mut q = self.table[i].queue.take().expect("a queue");
                // (the entry keeps its queue while the packets go)
                while let Some(held) = q.pop_front() {
                    let i = self.find(dst).expect("an entry");
                    self.table[i].queue = Some(std::mem::take(&mut q));
                    self.recv(h, held);
                    let i = self.find(dst).expect("an entry");
                    q = self.table[i].queue.take().unwrap_or_default();
                    // The table still holds the old entry here (dsdv.cc's
                    // processUpdate adds `rte` after this loop, "XXX possible
                    // loop here"): if it has no route, a held packet goes back
                    // to the end of the queue, and one this node sent gets its
                    // TTL renewed each time, so ns-2 2.35 loops for ever inside
                    // the event.  Stop there instead (found by the fuzzer:
                    // `Agent/DSDV set perup_ 5ms`).
                    if q.back() == Some(&held) && h.header(held).src == self.addr {
                        h.held_loop(self.addr, dst);
                        for p in q.drain(..) {
                            h.free(p);
                        }
                        break;
                    }
                }
                self.add(rte);
            }
        }
        // the sender's timeout starts again
        let min = self.params.min_update_periods as f64 * self.params.period;
        match self.find(from) {
            Some(i) => {
                let ev = match self.table[i].timeout {
                    Some(ev) => {
                        h.cancel(ev);
                        ev
                    }
                    None => {
                        let ev = self.new_event();
                        self.table[i].timeout = Some(ev);
                        ev
                    }
                };
                self.schedule(h, ev, Handler::Helper, min);
            }
            None => {
                let mut e = Entry::zero(from);
                e.hop = from;
                e.metric = 1;
                e.advertise_ok_at = now + NEXT_WEEK;
                e.changed_at = now;
                e.new_seqno_at = now;
                e.wst = self.params.wst0;
                let ev = self.new_event();
                e.timeout = Some(ev);
                self.add(e);
                self.schedule(h, ev, Handler::Helper, min);
            }
        }
        h.free(p);
    }

    /// ns-2's `updateRoute` for an existing entry: the table's entry
    /// replaced by the candidate (keeping its held packets, which ns-2's
    /// copy shares).
    fn replace(&mut self, mut e: Entry<P>) {
        let i = self.find(e.dst).expect("an entry");
        e.queue = self.table[i].queue.take();
        self.table[i] = e;
    }

    /// The link layer's call-back (`use_mac_` off): dropped.  (It
    /// needs no agent: the link layer may call it while the agent is
    /// sending.)
    pub fn link_failed<H: Host<P>>(h: &mut H, p: P) {
        h.drop(p, Drop::LinkFailed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    enum Did {
        Schedule(u32, Handler, f64),
        Cancel(u32),
        Send(usize, Option<f64>),
        Deliver(usize),
        Drop(usize, Drop),
        Free(usize),
    }

    /// A node with a clock, "random" draws of half their range, packets
    /// in a table.
    struct Mock {
        now: f64,
        addr: i32,
        pkts: Vec<(Header, Option<Update>)>,
        did: Vec<Did>,
    }

    impl Mock {
        fn new(addr: i32) -> Mock {
            Mock { now: 0.0, addr, pkts: Vec::new(), did: Vec::new() }
        }

        fn data(&mut self, src: i32, dst: i32, forwards: i32) -> usize {
            let h = Header { src, dst, dport: 0, ttl: 32, size: 512, forwards, next_hop: -2, next_hop_set: false, failure_callback: false };
            self.pkts.push((h, None));
            self.pkts.len() - 1
        }

        fn heard(&mut self, from: i32, adverts: &[(i32, u8, u32)]) -> usize {
            let mut u = Update { count: adverts.len() as u8, ..Update::default() };
            for (i, &(dst, metric, seqno)) in adverts.iter().enumerate() {
                u.adverts[i] = Advert { dst, metric, seqno };
            }
            let h = Header { src: from, dst: BROADCAST, dport: PORT, ttl: 32, size: 20 + 12 * adverts.len() as u32, forwards: 1, next_hop: -1, next_hop_set: true, failure_callback: false };
            self.pkts.push((h, Some(u)));
            self.pkts.len() - 1
        }

        fn sent_updates(&self) -> Vec<(Vec<Advert>, u32, Option<f64>)> {
            self.did
                .iter()
                .filter_map(|d| match d {
                    Did::Send(p, delay) => self.pkts[*p].1.map(|u| (u.entries().to_vec(), self.pkts[*p].0.size, *delay)),
                    _ => None,
                })
                .collect()
        }
    }

    impl Host<usize> for Mock {
        fn now(&self) -> f64 {
            self.now
        }
        fn uniform(&mut self, max: f64) -> f64 {
            max / 2.0
        }
        fn schedule(&mut self, ev: u32, handler: Handler, delay: f64) {
            self.did.push(Did::Schedule(ev, handler, delay));
        }
        fn cancel(&mut self, ev: u32) {
            self.did.push(Did::Cancel(ev));
        }
        fn send(&mut self, p: usize, delay: Option<f64>) {
            self.did.push(Did::Send(p, delay));
        }
        fn deliver(&mut self, p: usize) {
            self.did.push(Did::Deliver(p));
        }
        fn drop(&mut self, p: usize, why: Drop) {
            self.did.push(Did::Drop(p, why));
        }
        fn free(&mut self, p: usize) {
            self.did.push(Did::Free(p));
        }
        fn header(&self, p: usize) -> Header {
            self.pkts[p].0
        }
        fn set_header(&mut self, p: usize, h: Header) {
            self.pkts[p].0 = h;
        }
        fn update(&self, p: usize) -> Update {
            self.pkts[p].1.expect("an update")
        }
        fn new_packet(&mut self) -> usize {
            let h = Header { src: self.addr, dst: 0, dport: 0, ttl: 32, size: 0, forwards: 0, next_hop: -2, next_hop_set: false, failure_callback: false };
            self.pkts.push((h, None));
            self.pkts.len() - 1
        }
        fn set_update(&mut self, p: usize, u: Update) {
            self.pkts[p].1 = Some(u);
        }
    }

    fn adv(dst: i32, metric: u8, seqno: u32) -> Advert {
        Advert { dst, metric, seqno }
    }

    fn started(addr: i32) -> (Mock, Dsdv<usize>) {
        let (mut h, mut d) = (Mock::new(addr), Dsdv::new(addr, Params::default()));
        d.start(&mut h);
        (h, d)
    }

    #[test]
    fn the_first_full_update_comes_within_two_seconds_and_the_next_a_period_later() {
        let (mut h, mut d) = started(3);
        assert_eq!(h.did, [Did::Schedule(0, Handler::Helper, 1.0)]);
        assert_eq!((d.seqno, d.table[0].seqno), (2, 0));
        h.now = 1.0;
        d.fire(&mut h, 0, Handler::Helper);
        // itself, metric 0, the sequence number advanced; 10 ms jitter;
        // then 15 s * (0.75 + up to 0.25)
        assert_eq!(h.sent_updates(), [(vec![adv(3, 0, 4)], 32, Some(0.005))]);
        assert_eq!(h.did.last(), Some(&Did::Schedule(0, Handler::Helper, 15.0 * 0.875)));
    }

    #[test]
    fn a_new_neighbour_is_advertised_after_twice_its_settling_time_and_timed_out_after_three_periods() {
        let (mut h, mut d) = started(0);
        h.now = 2.0;
        let p = h.heard(1, &[(1, 0, 4), (2, 1, 6)]);
        d.recv(&mut h, p);
        let e1 = &d.table[d.find(1).unwrap()];
        assert_eq!((e1.hop, e1.metric, e1.seqno, e1.advertise_ok_at, e1.wst, e1.advert_metric), (1, 1, 4, 14.0, 6.0, true));
        let e2 = &d.table[d.find(2).unwrap()];
        assert_eq!((e2.hop, e2.metric), (1, 2));
        // triggered updates at the advertising time; the sender's timeout
        assert!(h.did.contains(&Did::Schedule(1, Handler::Trigger, 12.0)));
        assert!(h.did.contains(&Did::Schedule(2, Handler::Trigger, 12.0)));
        assert_eq!(h.did.last(), Some(&Did::Free(p)));
        assert!(h.did.contains(&Did::Schedule(3, Handler::Helper, 45.0)));
        // silence: the routes through 1 broken, odd numbers, advertised now
        h.now = 47.0;
        d.fire(&mut h, 3, Handler::Helper);
        for (dst, seqno) in [(1, 5), (2, 7)] {
            let e = &d.table[d.find(dst).unwrap()];
            assert_eq!((e.metric, e.seqno, e.advertise_ok_at, e.advert_seqno), (BIG, seqno, 47.0, true));
        }
        assert!(d.table[d.find(1).unwrap()].timeout.is_none());
        // the trigger, at once: both broken routes, and the node itself
        // (whose start flags no full update has cleared yet)
        d.fire(&mut h, 1, Handler::Trigger);
        let ups = h.sent_updates();
        assert_eq!(ups.last().unwrap().0, [adv(0, 0, 0), adv(1, 250, 5), adv(2, 250, 7)]);
        assert_eq!(ups.last().unwrap().1, 56);
    }

    #[test]
    fn triggered_updates_come_at_most_once_a_second() {
        let (mut h, mut d) = started(0);
        h.now = 1.0;
        d.fire(&mut h, 0, Handler::Helper);
        // a neighbour heard at 1.2: its trigger falls due too early
        h.now = 1.2;
        let p = h.heard(1, &[(1, 0, 4)]);
        d.recv(&mut h, p);
        let trig = d.table[d.find(1).unwrap()].trigger.unwrap();
        d.fire(&mut h, trig, Handler::Trigger);
        let want = 2.0 - 1.2;
        assert!(matches!(h.did.last(), Some(&Did::Schedule(ev, Handler::Trigger, t)) if ev == trig && (t - want).abs() < 1e-12));
        assert_eq!(h.sent_updates().len(), 1);
    }

    /// Hierarchical addresses (ns-2's default bits: domain << 22,
    /// cluster << 11): a mobile node at 1.0.1 whose base station is 1.0.0.
    #[test]
    fn a_destination_in_another_subnet_goes_to_the_base_station() {
        let (me, bs, wired, peer) = ((1 << 22) | 1, 1 << 22, 1 << 11, (1 << 22) | 2);
        let (mut h, mut d) = started(me);
        d.subnet_mask = (0x1ff << 22) | (0x7ff << 11);
        d.base_station = Some(bs);
        // no route to the base station yet: freed without a trace
        let p0 = h.data(me, wired, 0);
        d.recv(&mut h, p0);
        assert_eq!(h.did.last(), Some(&Did::Free(p0)));
        assert!(d.find(wired).is_none(), "no entry made for the other subnet");
        // the base station heard, and a peer two hops away through it
        let u = h.heard(bs, &[(bs, 0, 2), (peer, 1, 4)]);
        d.recv(&mut h, u);
        h.did.clear();
        let p1 = h.data(me, wired, 0);
        d.recv(&mut h, p1);
        assert_eq!(h.did, [Did::Send(p1, None)]);
        assert_eq!((h.pkts[p1].0.next_hop, h.pkts[p1].0.dst), (bs, wired), "to the base station, the IP destination kept");
        // a destination of its own subnet is routed as before (held: no
        // route), one of another subnet with a route of its own goes by
        // that route (through the neighbour that advertised it)
        let p2 = h.data(me, peer + 1, 0);
        d.recv(&mut h, p2);
        assert_eq!(d.table[d.find(peer + 1).unwrap()].metric, BIG);
        let (nb, far) = ((1 << 22) | 3, 2 << 22);
        let u = h.heard(nb, &[(nb, 0, 2), (far, 1, 2)]);
        d.recv(&mut h, u);
        let p3 = h.data(me, far, 0);
        d.recv(&mut h, p3);
        assert_eq!(h.pkts[p3].0.next_hop, nb);
        let p5 = h.data(me, peer, 0);
        d.recv(&mut h, p5);
        assert_eq!(h.pkts[p5].0.next_hop, bs, "its own subnet: the route's next hop");
        // without a subnet (flat addresses) nothing of this applies
        let (mut h2, mut d2) = started(1);
        d2.base_station = Some(0);
        let p4 = h2.data(1, 2048, 0);
        d2.recv(&mut h2, p4);
        assert_eq!(d2.table[d2.find(2048).unwrap()].metric, BIG, "held for a route");
    }

    #[test]
    fn packets_wait_five_at_most_and_go_when_a_route_comes() {
        let (mut h, mut d) = started(0);
        let ps: Vec<usize> = (0..7).map(|_| h.data(0, 2, 0)).collect();
        for &p in &ps {
            d.recv(&mut h, p);
        }
        let e = &d.table[d.find(2).unwrap()];
        assert_eq!((e.metric, e.queue.as_ref().unwrap().len()), (BIG, 5));
        let drops: Vec<Did> = h.did.iter().filter(|x| matches!(x, Did::Drop(..))).cloned().collect();
        assert_eq!(drops, [Did::Drop(ps[0], Drop::QueueFull), Did::Drop(ps[1], Drop::QueueFull)]);
        // a route through 1: the five go at once, to the next hop, each
        // with the IP header counted a second time
        let p = h.heard(1, &[(1, 0, 4), (2, 1, 6)]);
        d.recv(&mut h, p);
        let sent: Vec<(usize, u32, i32)> = h.did.iter().filter_map(|x| if let Did::Send(p, None) = x { Some((*p, h.pkts[*p].0.size, h.pkts[*p].0.next_hop)) } else { None }).collect();
        assert_eq!(sent, ps[2..].iter().map(|&p| (p, 552, 1)).collect::<Vec<_>>());
        assert!(d.table[d.find(2).unwrap()].queue.is_none());
        assert!(h.pkts[ps[2]].0.failure_callback);
    }

    #[test]
    fn hearing_itself_called_unreachable_it_updates_at_once() {
        let (mut h, mut d) = started(0);
        let p = h.heard(1, &[(0, 250, 9)]);
        d.recv(&mut h, p);
        assert!(h.did.contains(&Did::Cancel(0)));
        assert!(h.did.contains(&Did::Schedule(0, Handler::Helper, 0.0)));
        assert!(d.find(0).is_some_and(|i| d.table[i].metric == 0));
    }

    #[test]
    fn a_neighbour_with_older_news_of_a_broken_route_is_told() {
        let (mut h, mut d) = started(0);
        let p = h.heard(1, &[(1, 0, 4), (2, 1, 6)]);
        d.recv(&mut h, p);
        h.now = 3.0;
        let q = h.heard(1, &[(2, 250, 5)]);
        d.recv(&mut h, q);
        let e = &d.table[d.find(2).unwrap()];
        assert_eq!((e.metric, e.seqno, e.advertise_ok_at), (2, 6, 3.0));
        let trig = e.trigger.unwrap();
        assert!(h.did.contains(&Did::Cancel(trig)));
        assert_eq!(h.did.iter().filter(|x| matches!(x, Did::Schedule(ev, Handler::Trigger, t) if *ev == trig && *t == 0.0)).count(), 1);
    }

    #[test]
    fn loops_ttl_broadcasts_and_link_failures() {
        let (mut h, mut d) = started(0);
        let looped = h.data(0, 3, 2);
        d.recv(&mut h, looped);
        let old = h.data(4, 3, 2);
        h.pkts[old].0.ttl = 1;
        d.recv(&mut h, old);
        let mine = h.data(0, BROADCAST, 0);
        d.recv(&mut h, mine);
        let theirs = h.data(4, BROADCAST, 1);
        d.recv(&mut h, theirs);
        let lost = h.data(0, 3, 0);
        Dsdv::<usize>::link_failed(&mut h, lost);
        assert_eq!(h.did[1..], [Did::Drop(looped, Drop::Loop), Did::Drop(old, Drop::Ttl), Did::Send(mine, Some(0.005)), Did::Deliver(theirs), Did::Drop(lost, Drop::LinkFailed)]);
    }

    #[test]
    fn many_changes_make_a_full_update() {
        let (mut h, mut d) = started(0);
        h.now = 1.0;
        d.fire(&mut h, 0, Handler::Helper);
        let p = h.heard(1, &[(1, 0, 4), (2, 1, 6), (3, 1, 6), (4, 2, 8)]);
        d.recv(&mut h, p);
        // the triggers fall due when the routes may be advertised
        h.now = 13.0;
        let trig = d.table[d.find(1).unwrap()].trigger.unwrap();
        d.fire(&mut h, trig, Handler::Trigger);
        // four of five entries changed: a full update (its own number
        // advanced), the periodic one moved
        let (adverts, size, _) = h.sent_updates().last().unwrap().clone();
        assert_eq!(adverts, [adv(0, 0, 6), adv(1, 1, 4), adv(2, 2, 6), adv(3, 2, 6), adv(4, 3, 8)]);
        assert_eq!(size, 20 + 5 * 12);
        assert!(h.did.contains(&Did::Cancel(0)));
    }
}
