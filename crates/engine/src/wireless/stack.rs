//! A mobile node's stack below its routing agent, as ns-2 2.35 builds it
//! for ad hoc routing: the link layer (mac/ll.cc) with its ARP table
//! (mac/arp.cc), the interface queue (queue/priqueue.cc) and the 802.11
//! MAC (dcf.rs).  What the link layer does, in ns-2's order:
//!
//! * down (a packet from the routing agent): the MAC header's source and
//!   type are set; a broadcast goes to the broadcast MAC address; a unicast
//!   packet asks the ARP table, and goes to the queue after the link
//!   layer's delay once the address is known; otherwise the packet is held
//!   (a packet held before for the same address is dropped) and an ARP
//!   request goes to the queue after the ARP table's delay; after three
//!   requests unanswered, the held packet and the new one are given up
//!   (dropped, or handed to their failure call-back);
//! * up (a frame the MAC passes up): an ARP packet teaches the table its
//!   sender (the packet held for it goes to the queue after the ARP delay)
//!   and a request for this node is answered (the same packet made a reply,
//!   after the ARP delay); any other packet goes to the agents after the
//!   link layer's delay.
//!
//! The queue hands the MAC one packet at a time; the MAC's call-back when
//! it is done takes the next.
//!
//! The simulation around it (time, timers, the radio channel, packets'
//! headers, trace points) is the caller's, through [`Env`].  Generic over
//! the packet handle; no allocation.

use super::arp::{ArpTable, Resolve};
use super::dcf::{Dcf, Ds, Failure, Frame, Host, InfraNotice, Outgoing, Scan, Timer, Why, BROADCAST};
use super::cmu_ifq::Band;
use super::ifq::InterfaceQueue;
use super::tdma::{Complaint, Schedule, Tdma, TdmaHost};
use super::mac_ext::{self, ExtTimer, MacExt};
use super::phy_ext::{self, Discard, Heard, PhyExt};

/// An ARP packet's fields (hardware and protocol addresses of its sender
/// and target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arp {
    pub request: bool,
    pub sender_mac: i32,
    pub sender: i32,
    pub target_mac: i32,
    pub target: i32,
}

/// What the MAC header says the payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EtherType {
    Ip,
    Arp,
}

/// Why the link layer or the queue dropped a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueDrop {
    /// The queue was full.
    Full,
    /// A `CMUPriQueue`'s band was full (ns-2 gives the reason `IFQ`).
    BandFull,
    /// Replaced while its ARP request was out, or given up after three.
    Arp,
}

/// The rest of the simulation, as the stack sees it.
pub trait Env<P> {
    fn now(&self) -> f64;
    /// The next of the default generator's `random()` draws.
    fn random(&mut self) -> i32;
    /// Start or stop one of the MAC's timers (dcf.rs's [`Host`]).
    fn start(&mut self, t: Timer, delay: f64);
    fn stop(&mut self, t: Timer);
    /// A frame goes on the air (the MAC's send trace, then the radio).
    fn transmit(&mut self, f: &Frame<P>);
    /// A frame received: a control frame the MAC acted on, or a data
    /// frame it passes up (its packet's size already cut to the
    /// payload's).  The MAC's receive trace; a data frame's header fields
    /// stay with its packet, whose forward count (ns-2's `num_forwards`)
    /// goes up by one.
    fn received(&mut self, f: &Frame<P>);
    /// Does a data frame the MAC received go on up?  (Not on a node whose
    /// receive trace stops it: a node out of energy.)
    fn passes_up(&mut self) -> bool {
        true
    }
    /// The end-of-transmission trace (`-eotTrace ON`): a copy of a frame
    /// as it goes on the air (its packet copied), if the node traces
    /// them, and the trace of that copy when the transmission ends.
    fn eot_copy(&mut self, f: &Frame<P>) -> Option<Frame<P>> {
        let _ = f;
        None
    }
    fn end_of_transmission(&mut self, f: Frame<P>) {
        let _ = f;
    }
    /// A frame dropped by the MAC (its drop trace; the packet it carries,
    /// if any, is gone).
    fn mac_dropped(&mut self, f: Frame<P>, why: Why);
    /// A packet let go without a trace.
    fn release(&mut self, p: P);
    /// A packet dropped by the link layer or the queue (their drop trace).
    fn dropped(&mut self, p: P, why: QueueDrop);
    /// Whether `p` carries a failure call-back (set by its routing agent),
    /// and the call-back itself: with the MAC's reason, it gets a copy of
    /// `p` (the frame is dropped next, `p` with it); without (the ARP
    /// table gave up), `p` itself.
    fn has_failure_callback(&self, p: P) -> bool;
    fn failed(&mut self, p: P, why: Option<Failure>);
    /// The same with the frame the MAC gave up (whose header fields,
    /// the duration among them, the copy carries) and the interface queue
    /// at hand, which is what the link layer calls: a routing agent takes
    /// out of the queue the packets waiting for the neighbour it lost
    /// (AODV's `ifqueue->filter`).  By default [`Env::failed`].
    fn failed_with_queue(&mut self, p: P, why: Option<(Failure, &Frame<P>)>, queue: &mut InterfaceQueue<P>) {
        let _ = queue;
        self.failed(p, why.map(|w| w.0))
    }
    /// A unicast data frame from a sender beyond GOD's count.
    fn unknown_sender(&mut self, src: u32, dst: u32);
    /// Hand `p` back to this node's stack after `delay`: to its queue
    /// ([`Stack::enqueue`]) or to its agents.
    fn to_queue(&mut self, p: P, delay: f64);
    fn to_agents(&mut self, p: P, delay: f64);
    /// Whether the queue puts `p` first (a routing protocol's packet).
    fn is_routing(&self, p: P) -> bool;
    /// A data frame the MAC received whole, whoever it is for, when its
    /// tap is on (`Dcf::tap`: DSR's promiscuous listening).
    fn tap(&mut self, f: &Frame<P>) {
        let _ = f;
    }
    /// `p`'s band in a `CMUPriQueue` (by default: routing or the rest).
    fn band(&self, p: P) -> Band {
        if self.is_routing(p) { Band::Routing } else { Band::Normal }
    }
    /// Packet headers: the address the link layer resolves (the next hop
    /// the routing agent set, or for an agent that sets none, the IP
    /// destination), the size (bytes), the MAC header's addresses and
    /// type, the ARP fields of an ARP packet.
    fn destination(&self, p: P) -> i32;
    /// The MAC address a packet names itself (ns-2's `NS_AF_ILINK`), if
    /// it does: the link layer takes it without ARP.
    fn link_destination(&self, _p: P) -> Option<u32> {
        None
    }
    fn size(&self, p: P) -> u32;
    fn set_size(&mut self, p: P, size: u32);
    fn mac_addresses(&self, p: P) -> (u32, u32);
    fn set_mac(&mut self, p: P, ra: Option<u32>, ta: u32, ether: EtherType);
    fn arp(&self, p: P) -> Option<Arp>;
    fn set_arp(&mut self, p: P, a: Arp);
    /// A new ARP packet (28 bytes) with these fields.
    fn new_arp(&mut self, a: Arp) -> P;
    /// A TDMA MAC turns its radio on or off (the radio's sleep, which
    /// only an energy model sees).
    fn radio(&mut self, on: bool) {
        let _ = on;
    }
    /// The schedule a TDMA MAC shares with the others of its channel.
    fn tdma_schedule(&mut self) -> &mut Schedule {
        unreachable!("a TDMA MAC in an environment without a schedule")
    }
    /// A TDMA MAC's complaint of what should not happen (ns-2's stdout).
    fn complain(&mut self, c: Complaint) {
        let _ = c;
    }
    /// For `Mac/802_11Ext` over `Phy/WirelessPhyExt` ([`Ext`]): (re)start
    /// (`Some` delay) or stop scheduler timer `id`;
    fn ext_timer(&mut self, id: u32, delay: Option<f64>) {
        let _ = (id, delay);
    }
    /// the MAC's send trace of a frame it sends;
    fn ext_mac_sent(&mut self, f: &Frame<P>) {
        let _ = f;
    }
    /// the radio's send trace, then the channel;
    fn ext_air(&mut self, f: &Frame<P>) {
        let _ = f;
    }
    /// the radio's drop trace of a frame (its packet still held);
    fn phy_dropped(&mut self, f: &Frame<P>, why: Discard) {
        let _ = (f, why);
    }
    /// a copy of a frame (its packet copied);
    fn copy_frame(&mut self, f: &Frame<P>) -> Frame<P>
    where
        P: Copy,
    {
        *f
    }
    /// the distance between the antennas of this node and node `from`
    /// of its channel, their positions brought up to date (this node's
    /// first);
    fn ext_distance(&mut self, from: u32) -> f64 {
        let _ = from;
        0.0
    }
    /// the modulation a packet asks for (0: BPSK);
    fn modulation(&self, p: P) -> u8 {
        let _ = p;
        0
    }
    /// what ns-2 prints where the MAC finds a logic error and goes on;
    fn ext_complain(&mut self, text: &str) {
        let _ = text;
    }
    /// and where ns-2 exits (the run stops).
    fn ext_fatal(&mut self, what: String) {
        let _ = what;
    }
    /// Infrastructure mode's addressing of a data frame (dcf/infra.rs),
    /// kept with its packet.
    fn ds(&self, p: P) -> Ds {
        let _ = p;
        Ds::default()
    }
    fn set_ds(&mut self, p: P, d: Ds) {
        let _ = (p, d);
    }
    /// A copy of packet `p` (an access point relaying a broadcast sends
    /// one up).
    fn copy_packet(&mut self, p: P) -> P {
        let _ = p;
        unreachable!("an environment without access points copies no packet")
    }
    /// Set the MAC header's receiver address alone.
    fn set_receiver(&mut self, p: P, ra: u32) {
        let _ = (p, ra);
    }
    /// An access point relays `p`: its next hop is the MAC address `to`
    /// (ns-2's `NS_AF_ILINK`), its direction down.
    fn set_relay(&mut self, p: P, to: u32) {
        let _ = (p, to);
    }
    /// What infrastructure mode prints on stdout.
    fn infra_notice(&mut self, n: InfraNotice) {
        let _ = n;
    }
}

/// A node's `Mac/802_11Ext` over its `Phy/WirelessPhyExt`: the radio's
/// indications (busy, idle, a reception or a transmission over) reach
/// the MAC once the radio's step is done, in the order given (the only
/// one the MAC's own step can cause, busy when it sends, changes nothing
/// the rest of that step reads).
#[derive(Clone, Debug)]
pub struct Ext<P> {
    pub mac: MacExt<P>,
    pub phy: PhyExt<Frame<P>>,
    /// The radio's transmit power (W).
    pub pt: f64,
    /// Scheduler timers: the MAC's seven ([`ExtTimer::index`]), then the
    /// radio's four ([`PHY_TIMERS`]).
    pub timers: [u32; 11],
    ind: Vec<Indication<P>>,
}

/// The radio's timers after the MAC's, in order.
pub const PHY_TIMERS: [phy_ext::Timer; 4] = [phy_ext::Timer::Tx, phy_ext::Timer::PreRx, phy_ext::Timer::Rx, phy_ext::Timer::Monitor];

#[derive(Clone, Copy, Debug)]
enum Indication<P> {
    Busy,
    Idle,
    RxEnd(Option<Frame<P>>),
    TxEnd,
}

impl<P> Ext<P> {
    pub fn new(mac: MacExt<P>, phy: PhyExt<Frame<P>>, pt: f64) -> Ext<P> {
        Ext { mac, phy, pt, timers: [0; 11], ind: Vec::with_capacity(8) }
    }
}

fn phy_timer_index(t: phy_ext::Timer) -> usize {
    7 + PHY_TIMERS.iter().position(|&u| u == t).unwrap_or(0)
}

/// The radio's view of the node.  `arriving` is the packet of the frame
/// being heard, which the caller frees (a copy is what the radio keeps).
struct RadioHost<'a, P, E> {
    env: &'a mut E,
    timers: &'a [u32; 11],
    ind: &'a mut Vec<Indication<P>>,
    arriving: Option<P>,
}

impl<P: Copy + PartialEq, E: Env<P>> phy_ext::Host<Frame<P>> for RadioHost<'_, P, E> {
    fn now(&self) -> f64 {
        self.env.now()
    }
    fn start(&mut self, t: phy_ext::Timer, delay: f64) {
        self.env.ext_timer(self.timers[phy_timer_index(t)], Some(delay))
    }
    fn stop(&mut self, t: phy_ext::Timer) {
        self.env.ext_timer(self.timers[phy_timer_index(t)], None)
    }
    fn copy(&mut self, f: Frame<P>) -> Frame<P> {
        self.env.copy_frame(&f)
    }
    fn discard(&mut self, f: Frame<P>, why: Discard) {
        self.env.phy_dropped(&f, why);
        self.free(f);
    }
    fn free(&mut self, f: Frame<P>) {
        if let Some(p) = f.payload {
            if Some(p) != self.arriving {
                self.env.release(p);
            }
        }
    }
    fn distance(&mut self, f: &Heard<Frame<P>>) -> f64 {
        self.env.ext_distance(f.from)
    }
    fn busy(&mut self) {
        self.ind.push(Indication::Busy)
    }
    fn idle(&mut self) {
        self.ind.push(Indication::Idle)
    }
    fn rx_start(&mut self) {}
    fn rx_end(&mut self, f: Option<Frame<P>>) {
        self.ind.push(Indication::RxEnd(f))
    }
    fn tx_end(&mut self) {
        self.ind.push(Indication::TxEnd)
    }
}

/// The extended MAC's view of the node: the link layer and queue (as the
/// DCF's), and the radio it sends through.
struct MacHost<'a, 'b, P, E> {
    g: Glue<'b, P, E>,
    phy: &'a mut PhyExt<Frame<P>>,
    pt: f64,
    timers: &'a [u32; 11],
    ind: &'a mut Vec<Indication<P>>,
}

impl<P: Copy + PartialEq, E: Env<P>> mac_ext::Host<P> for MacHost<'_, '_, P, E> {
    fn now(&self) -> f64 {
        self.g.env.now()
    }
    fn integer(&mut self, k: i32) -> i32 {
        // (ns-2's Random::integer: random() % k)
        (self.g.env.random() as u32 % k.max(1) as u32) as i32
    }
    fn start(&mut self, t: ExtTimer, delay: f64) {
        self.g.env.ext_timer(self.timers[t.index()], Some(delay))
    }
    fn stop(&mut self, t: ExtTimer) {
        self.g.env.ext_timer(self.timers[t.index()], None)
    }
    fn transmit(&mut self, f: &Frame<P>) {
        self.g.env.ext_mac_sent(f);
        let mut r = RadioHost { env: &mut *self.g.env, timers: self.timers, ind: &mut *self.ind, arriving: None };
        if let Err(e) = self.phy.send(&mut r, self.pt, f.txtime) {
            // (ns-2: "wrong in MAC logic case 1", and exits)
            self.g.env.ext_complain("wrong in MAC logic case 1\n");
            return self.g.env.ext_fatal(e.to_string());
        }
        self.g.env.ext_air(f);
    }
    fn up(&mut self, f: Frame<P>) {
        Host::up(&mut self.g, f)
    }
    fn log(&mut self, f: Frame<P>) {
        self.g.env.received(&f)
    }
    fn drop(&mut self, f: Frame<P>, why: Why) {
        self.g.env.mac_dropped(f, why)
    }
    fn free(&mut self, f: Frame<P>) {
        Host::free(&mut self.g, f)
    }
    fn has_failure_callback(&self, f: &Frame<P>) -> bool {
        Host::has_failure_callback(&self.g, f)
    }
    fn failed(&mut self, f: &Frame<P>) {
        // (the call-back gets a copy, made by the environment; the reason
        // is XMIT_REASON_RTS whatever failed, as mac-802_11Ext.cc says)
        Host::failed(&mut self.g, f, Failure::Rts)
    }
    fn resume(&mut self) -> Option<Outgoing<P>> {
        Host::resume(&mut self.g)
    }
    fn tap(&mut self, f: &Frame<P>) {
        self.g.env.tap(f)
    }
    fn modulation(&self, p: P) -> u8 {
        self.g.env.modulation(p)
    }
    fn complain(&mut self, text: &str) {
        self.g.env.ext_complain(text)
    }
}

/// The ARP packet's size (bytes).
pub const ARP_LEN: u32 = 28;

/// The IP broadcast address.
pub const IP_BROADCAST: i32 = -1;

/// One node's link layer, ARP table, interface queue and MAC.
#[derive(Clone, Debug)]
pub struct Stack<P> {
    pub mac: Dcf<P>,
    /// A TDMA MAC in the 802.11 MAC's place (`Mac/Tdma`): when there is
    /// one, the queue hands it the packets, and the radio and the MAC's
    /// timers are its (`mac` is left idle).
    pub tdma: Option<Box<Tdma<P>>>,
    /// `Mac/802_11Ext` over `Phy/WirelessPhyExt` in the 802.11 MAC's
    /// place (its radio in the ordinary radio's): when there is one, the
    /// queue hands it the packets and the channel's frames reach its
    /// radio (`mac` is left idle).
    pub ext: Option<Box<Ext<P>>>,
    pub queue: InterfaceQueue<P>,
    pub arp: ArpTable<P>,
    /// The node's IP address.
    pub ip: i32,
    /// The link layer's delay and the ARP table's (ns-2: 25 us, 5 us).
    pub ll_delay: f64,
    pub arp_delay: f64,
}

/// The MAC's view of the node: the environment, plus the link layer and
/// the queue the MAC calls into.
struct Glue<'a, P, E> {
    env: &'a mut E,
    queue: &'a mut InterfaceQueue<P>,
    arp: &'a mut ArpTable<P>,
    ip: i32,
    mac_addr: u32,
    ll_delay: f64,
    arp_delay: f64,
}

impl<P: Copy, E: Env<P>> Host<P> for Glue<'_, P, E> {
    fn now(&self) -> f64 {
        self.env.now()
    }

    fn random(&mut self) -> i32 {
        self.env.random()
    }

    fn start(&mut self, t: Timer, delay: f64) {
        self.env.start(t, delay)
    }

    fn stop(&mut self, t: Timer) {
        self.env.stop(t)
    }

    fn transmit(&mut self, f: &Frame<P>) {
        self.env.transmit(f)
    }

    fn eot_copy(&mut self, f: &Frame<P>) -> Option<Frame<P>> {
        self.env.eot_copy(f)
    }

    fn end_of_transmission(&mut self, f: Frame<P>) {
        self.env.end_of_transmission(f)
    }

    fn up(&mut self, f: Frame<P>) {
        let p = f.payload.expect("a data frame carries a packet");
        if !self.env.passes_up() {
            return self.env.release(p);
        }
        self.env.set_size(p, f.size);
        self.env.received(&f);
        match self.env.arp(p) {
            Some(a) => self.arp_input(p, a),
            // (the link layer lets a garbled frame go; ARP reads any: only
            // a TDMA MAC passes garbled frames up)
            None if f.error => self.env.release(p),
            None => self.env.to_agents(p, self.ll_delay),
        }
    }

    fn log(&mut self, f: Frame<P>) {
        self.env.received(&f);
    }

    fn drop(&mut self, f: Frame<P>, why: Why) {
        self.env.mac_dropped(f, why)
    }

    fn free(&mut self, f: Frame<P>) {
        if let Some(p) = f.payload {
            self.env.release(p);
        }
    }

    fn has_failure_callback(&self, f: &Frame<P>) -> bool {
        f.payload.is_some_and(|p| self.env.has_failure_callback(p))
    }

    fn failed(&mut self, f: &Frame<P>, why: Failure) {
        let p = f.payload.expect("a data frame carries a packet");
        self.env.set_size(p, f.size);
        self.env.failed_with_queue(p, Some((why, f)), self.queue)
    }

    fn unknown_sender(&mut self, src: u32, dst: u32) {
        self.env.unknown_sender(src, dst)
    }

    fn resume(&mut self) -> Option<Outgoing<P>> {
        let p = self.queue.resume()?;
        Some(outgoing(self.env, p))
    }

    fn tap(&mut self, f: &Frame<P>) {
        self.env.tap(f)
    }

    fn ds(&self, p: P) -> Ds {
        self.env.ds(p)
    }

    fn set_ds(&mut self, p: P, d: Ds) {
        self.env.set_ds(p, d)
    }

    /// ns-2's recvDATA at an access point: the packet goes back to the
    /// link layer (through the MAC's receive trace), direction down, to
    /// the MAC address `to`, after a copy of a broadcast went up.
    fn relay(&mut self, f: Frame<P>, to: u32, copy_up: bool) {
        let p = f.payload.expect("a data frame carries a packet");
        if copy_up {
            let q = self.env.copy_packet(p);
            self.up(Frame { payload: Some(q), ..f });
        }
        if !self.env.passes_up() {
            return self.env.release(p);
        }
        self.env.set_relay(p, to);
        self.env.set_size(p, f.size);
        self.env.received(&f);
        self.env.set_mac(p, Some(to), self.mac_addr, EtherType::Ip);
        self.env.to_queue(p, self.ll_delay);
    }

    fn infra_notice(&mut self, n: InfraNotice) {
        self.env.infra_notice(n)
    }
}

fn outgoing<P: Copy, E: Env<P>>(env: &E, p: P) -> Outgoing<P> {
    let (ra, ta) = env.mac_addresses(p);
    Outgoing { payload: p, size: env.size(p), ra, ta }
}

impl<P: Copy, E: Env<P>> TdmaHost<P> for Glue<'_, P, E> {
    fn radio(&mut self, on: bool) {
        self.env.radio(on)
    }

    fn schedule(&mut self) -> &mut Schedule {
        self.env.tdma_schedule()
    }

    fn complain(&mut self, c: Complaint) {
        self.env.complain(c)
    }
}

impl<P: Copy, E: Env<P>> Glue<'_, P, E> {
    /// ns-2's `arpinput`: learn the sender; send what was held for it;
    /// answer a request for this node with the same packet.
    fn arp_input(&mut self, p: P, a: Arp) {
        if let Some(held) = self.arp.learn(a.sender, a.sender_mac) {
            self.env.set_mac(held, Some(a.sender_mac as u32), self.mac_addr, EtherType::Ip);
            self.env.to_queue(held, self.arp_delay);
        }
        if a.request && a.target == self.ip {
            self.env.set_size(p, ARP_LEN);
            self.env.set_mac(p, Some(a.sender_mac as u32), self.mac_addr, EtherType::Arp);
            let reply = Arp { request: false, sender_mac: self.mac_addr as i32, sender: a.target, target_mac: a.sender_mac, target: a.sender };
            self.env.set_arp(p, reply);
            self.env.to_queue(p, self.arp_delay);
        } else {
            self.env.release(p);
        }
    }

    /// A packet given up by the ARP table: its failure call-back, if it
    /// has one, else dropped.
    fn arp_failed(&mut self, p: P) {
        if self.env.has_failure_callback(p) {
            self.env.failed_with_queue(p, None, self.queue);
        } else {
            self.env.dropped(p, QueueDrop::Arp);
        }
    }

    /// ns-2's `LL::sendDown`.
    fn send_down(&mut self, p: P) {
        self.env.set_mac(p, None, self.mac_addr, EtherType::Ip);
        if let Some(mac) = self.env.link_destination(p) {
            self.env.set_mac(p, Some(mac), self.mac_addr, EtherType::Ip);
            self.env.to_queue(p, self.ll_delay);
            return;
        }
        let dst = self.env.destination(p);
        if dst == IP_BROADCAST {
            self.env.set_mac(p, Some(BROADCAST), self.mac_addr, EtherType::Ip);
            self.env.to_queue(p, self.ll_delay);
            return;
        }
        match self.arp.resolve(dst, p) {
            Resolve::Known(mac) => {
                self.env.set_mac(p, Some(mac as u32), self.mac_addr, EtherType::Ip);
                self.env.to_queue(p, self.ll_delay);
            }
            Resolve::Request { dropped } => {
                if let Some(old) = dropped {
                    self.env.dropped(old, QueueDrop::Arp);
                }
                let request = Arp { request: true, sender_mac: self.mac_addr as i32, sender: self.ip, target_mac: 0, target: dst };
                let q = self.env.new_arp(request);
                self.env.set_mac(q, Some(BROADCAST), self.mac_addr, EtherType::Arp);
                self.env.to_queue(q, self.arp_delay);
            }
            Resolve::GiveUp { held, this } => {
                if let Some(h) = held {
                    self.arp_failed(h);
                }
                self.arp_failed(this);
            }
        }
    }
}

impl<P: Copy + PartialEq> Stack<P> {
    /// A stack with ns-2's delays, its MAC given, its queue of `limit`
    /// packets putting routing packets first.
    pub fn new(mac: Dcf<P>, ip: i32, limit: usize) -> Stack<P> {
        Stack { mac, tdma: None, ext: None, queue: InterfaceQueue::new(limit, true), arp: ArpTable::default(), ip, ll_delay: 25e-6, arp_delay: 5e-6 }
    }

    fn split<'a, E: Env<P>>(&'a mut self, env: &'a mut E) -> (&'a mut Dcf<P>, Glue<'a, P, E>) {
        let mac_addr = self.mac.addr;
        let glue = Glue { env, queue: &mut self.queue, arp: &mut self.arp, ip: self.ip, mac_addr, ll_delay: self.ll_delay, arp_delay: self.arp_delay };
        (&mut self.mac, glue)
    }

    /// The TDMA MAC, if the node has one, and its view of the node.
    fn split_tdma<'a, E: Env<P>>(&'a mut self, env: &'a mut E) -> Option<(&'a mut Tdma<P>, Glue<'a, P, E>)> {
        let t = self.tdma.as_deref_mut()?;
        let glue = Glue { env, queue: &mut self.queue, arp: &mut self.arp, ip: self.ip, mac_addr: t.addr, ll_delay: self.ll_delay, arp_delay: self.arp_delay };
        Some((t, glue))
    }

    /// A packet from the routing agent, down through the link layer.
    pub fn send_down<E: Env<P>>(&mut self, env: &mut E, p: P) {
        let (_, mut g) = self.split(env);
        g.send_down(p);
    }

    /// A packet reaching the interface queue (after its delay).
    pub fn enqueue<E: Env<P>>(&mut self, env: &mut E, p: P) {
        if self.mac.infra.is_some() {
            // (ns-2's link layer asks the 802.11 MAC's hdr_dst as it hands
            // the packet to the queue: infrastructure mode's addressing)
            let (ra, _) = env.mac_addresses(p);
            let (mac, mut g) = self.split(env);
            let ra = mac.hdr_dst(&mut g, p, ra);
            env.set_receiver(p, ra);
        }
        let a = if self.queue.is_cmu() {
            self.queue.arrive_in(p, env.band(p))
        } else {
            let routing = env.is_routing(p);
            self.queue.arrive(p, routing)
        };
        if let Some(d) = a.dropped {
            env.dropped(d, if self.queue.is_cmu() { QueueDrop::BandFull } else { QueueDrop::Full });
        }
        if let Some(s) = a.send {
            let o = outgoing(env, s);
            if self.ext.is_some() {
                return self.with_ext_mac(env, |m, h| {
                    m.send_down(h, o);
                    Ok(())
                });
            }
            if let Some((t, mut g)) = self.split_tdma(env) {
                return t.send(&mut g, o);
            }
            let (mac, mut g) = self.split(env);
            mac.send(&mut g, o);
        }
    }

    /// The first bit of a frame reaches the radio, judged and stamped.
    pub fn arrive<E: Env<P>>(&mut self, env: &mut E, f: Frame<P>) {
        if let Some((t, mut g)) = self.split_tdma(env) {
            return t.arrive(&mut g, f);
        }
        let (mac, mut g) = self.split(env);
        mac.arrive(&mut g, f);
    }

    /// `$mac ap ADDR`: the MAC becomes an access point (dcf/infra.rs).
    pub fn make_ap<E: Env<P>>(&mut self, env: &mut E) {
        let (mac, mut g) = self.split(env);
        mac.make_ap(&mut g);
    }

    /// `$mac ScanType ACTIVE|PASSIVE`.
    pub fn scan_type<E: Env<P>>(&mut self, env: &mut E, s: Scan) {
        let (mac, mut g) = self.split(env);
        mac.scan_type(&mut g, s);
    }

    /// One of the MAC's timers fired.
    pub fn expired<E: Env<P>>(&mut self, env: &mut E, t: Timer) {
        if let Some((m, mut g)) = self.split_tdma(env) {
            return m.expired(&mut g, t);
        }
        let (mac, mut g) = self.split(env);
        mac.expired(&mut g, t);
    }
}

impl<P: Copy + PartialEq> Stack<P> {
    /// Run a step of the extended MAC, then hand it the radio's
    /// indications until none are left.
    fn with_ext_mac<E: Env<P>>(&mut self, env: &mut E, f: impl FnOnce(&mut MacExt<P>, &mut MacHost<'_, '_, P, E>) -> Result<(), String>) {
        let x = self.ext.as_deref_mut().expect("an extended MAC");
        let g = Glue { env, queue: &mut self.queue, arp: &mut self.arp, ip: self.ip, mac_addr: x.mac.addr, ll_delay: self.ll_delay, arp_delay: self.arp_delay };
        let mut h = MacHost { g, phy: &mut x.phy, pt: x.pt, timers: &x.timers, ind: &mut x.ind };
        let mut r = f(&mut x.mac, &mut h);
        while r.is_ok() && !h.ind.is_empty() {
            let i = h.ind.remove(0);
            r = match i {
                Indication::Busy => x.mac.busy(&mut h),
                Indication::Idle => x.mac.idle(&mut h),
                Indication::RxEnd(f) => x.mac.rx_end(&mut h, f),
                Indication::TxEnd => {
                    x.mac.tx_end(&mut h);
                    Ok(())
                }
            };
        }
        if let Err(e) = r {
            h.ind.clear();
            h.g.env.ext_fatal(e);
        }
    }

    /// A radio's step, then the MAC's part in what it indicated.
    fn with_ext_radio<E: Env<P>>(&mut self, env: &mut E, arriving: Option<P>, f: impl FnOnce(&mut PhyExt<Frame<P>>, &mut RadioHost<'_, P, E>)) {
        let x = self.ext.as_deref_mut().expect("an extended radio");
        let mut r = RadioHost { env: &mut *env, timers: &x.timers, ind: &mut x.ind, arriving };
        f(&mut x.phy, &mut r);
        if x.ind.is_empty() {
            return;
        }
        self.with_ext_mac(env, |_, _| Ok(()));
    }

    /// The first bit of frame `f` reaches the extended radio at power
    /// `pr` (W), from `distance` m (node `from` of the channel), its body at modulation `modulation`;
    /// its packet is freed after (the radio keeps a copy).
    pub fn ext_arrive<E: Env<P>>(&mut self, env: &mut E, f: Frame<P>, modulation: u8, distance: f64, from: u32, pr: f64) {
        let heard = Heard { pkt: f, modulation, txtime: f.txtime, distance, from };
        self.with_ext_radio(env, f.payload, |phy, r| phy.arrive(r, &heard, pr));
        if let Some(p) = f.payload {
            env.release(p);
        }
    }

    /// Timer `k` of the extended MAC and radio fired (the MAC's seven,
    /// then the radio's four).
    pub fn ext_expired<E: Env<P>>(&mut self, env: &mut E, k: usize) {
        if k < 7 {
            self.with_ext_mac(env, |m, h| m.expired(h, ExtTimer::of(k)));
        } else {
            let t = PHY_TIMERS[(k - 7).min(3)];
            self.with_ext_radio(env, None, |phy, r| phy.timeout(r, t));
        }
    }
}
