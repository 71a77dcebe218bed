//! A LAN interface's MAC: the plain MAC (mac/mac.cc), which holds its
//! sender for a frame's time and passes up the frames addressed to it, and
//! IEEE 802.3's CSMA/CD (mac/mac-802_3.cc): carrier sense, collisions seen
//! at the receivers, a jam and an interframe space, binary exponential
//! backoff with ns-2's random draws in its order, up to 16 attempts.
//!
//! 802.3's four handlers are scheduler timers owned by the MAC (kinds
//! `RECV`, `RETX`, `IFS`, `SEND`); each keeps ns-2's busy flag, which
//! decides what the MAC does (the retransmission handler's `cancel` leaves
//! it set, as ns-2's does).

use crate::packet::{Direction, PktId};
use crate::sched::{Ev, ObjId, ResumeId};
use crate::sim::{Sim, NONE};

use super::ll::BROADCAST;
use super::Part;

/// The end of a reception.
pub const RECV: u8 = 0;
/// A retransmission after backoff.
pub const RETX: u8 = 1;
/// The end of an interframe space (or of a jam and one).
pub const IFS: u8 = 2;
/// The end of a transmission.
pub const SEND: u8 = 3;

/// Ethernet's header: two addresses and a type.
pub const ETHER_HDR_LEN: i32 = 14;
/// The plain MAC's header, in its transmission time.
pub const MAC_HDR_LEN: i32 = 64;
const SLOT_BITS: f64 = 512.0;
const IFS_BITS: f64 = 96.0;
const JAM_BITS: f64 = 32.0;
const ATTEMPT_LIMIT: i32 = 16;
const BACKOFF_LIMIT: i32 = 10;
const MAX_FRAME: i32 = 1518;
const MIN_FRAME: i32 = 64;
/// What ns-2 takes as the controller's clock resolution.
const EPS: f64 = 1.0e-15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacKind {
    /// The plain MAC; `abstract` for the abstract LAN's (no sender held,
    /// frames for others freed rather than dropped).
    Plain { abstract_lan: bool },
    /// IEEE 802.3.
    Ether,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Idle,
    Send,
    Recv,
}

/// One of 802.3's handlers: a timer and ns-2's busy flag.
#[derive(Debug, Clone, Copy)]
pub struct Handler {
    pub timer: u32,
    pub busy: bool,
    /// When it expires (the interframe space's is read).
    pub expire: f64,
}

impl Handler {
    fn new() -> Handler {
        Handler { timer: u32::MAX, busy: false, expire: 0.0 }
    }
}

#[derive(Debug, Clone)]
pub struct Mac {
    pub kind: MacKind,
    /// Its address (ns-2's MAC index, from one count over all MACs).
    pub addr: i32,
    pub state: State,
    /// The plain MAC's bandwidth (b/s): its frame time.
    pub bandwidth: f64,
    /// The plain MAC's delay up.
    pub delay: f64,
    /// 802.3: collisions dropped (traced) rather than freed.
    pub trace: bool,
    /// Its interface (the PHY), whose bandwidth times frames.
    pub phy: ObjId,
    pub up_target: ObjId,
    pub down_target: ObjId,
    pub drop_target: ObjId,
    /// The queue to call back when the MAC can take the next packet.
    pub callback: Option<ResumeId>,
    pub recv: Handler,
    pub recv_pkt: Option<PktId>,
    pub retx: Handler,
    /// The frame kept for retransmissions.
    pub retx_pkt: Option<PktId>,
    /// The transmission attempt (from 1).
    pub attempt: i32,
    pub ifs: Handler,
    pub send: Handler,
    pub send_pkt: Option<PktId>,
}

impl Mac {
    pub fn new(kind: MacKind, addr: i32) -> Mac {
        Mac {
            kind,
            addr,
            state: State::Idle,
            bandwidth: 2e6,
            delay: 0.0,
            trace: false,
            phy: NONE,
            up_target: NONE,
            down_target: NONE,
            drop_target: NONE,
            callback: None,
            recv: Handler::new(),
            recv_pkt: None,
            retx: Handler::new(),
            retx_pkt: None,
            attempt: 1,
            ifs: Handler::new(),
            send: Handler::new(),
            send_pkt: None,
        }
    }
}

/// Make 802.3's four timers for MAC `m`, which will be object `id`.
pub fn timers(sim: &mut Sim, id: ObjId, m: &mut Mac) {
    m.recv.timer = sim.w.s.new_timer(id, RECV);
    m.retx.timer = sim.w.s.new_timer(id, RETX);
    m.ifs.timer = sim.w.s.new_timer(id, IFS);
    m.send.timer = sim.w.s.new_timer(id, SEND);
}

impl Sim {
    fn mac(&mut self, id: ObjId) -> &mut Mac {
        match self.lan_part(id) {
            Some(Part::Mac(m)) => m,
            _ => unreachable!("not a MAC"),
        }
    }

    /// The transmission time of `bytes` on MAC `id`'s interface.
    fn phy_txtime(&mut self, id: ObjId, bytes: i32) -> f64 {
        let phy = self.mac(id).phy;
        let bw = match self.lan_part(phy) {
            Some(Part::Phy(p)) => p.bandwidth,
            _ => 0.0,
        };
        8.0 * bytes as f64 / bw
    }

    fn handler(&mut self, id: ObjId, kind: u8) -> &mut Handler {
        let m = self.mac(id);
        match kind {
            RECV => &mut m.recv,
            RETX => &mut m.retx,
            IFS => &mut m.ifs,
            _ => &mut m.send,
        }
    }

    fn mac_schedule(&mut self, id: ObjId, kind: u8, delay: f64) {
        let now = self.w.s.now;
        let h = self.handler(id, kind);
        h.busy = true;
        h.expire = now + delay;
        let t = h.timer;
        self.w.s.timer_resched(t, delay);
    }

    /// ns-2's `cancel` of a handler's event (the busy flag is the caller's).
    fn mac_cancel(&mut self, id: ObjId, kind: u8) {
        let t = self.handler(id, kind).timer;
        self.w.s.timer_cancel(t);
    }

    /// A packet reaches the MAC: from the channel (up) or from its queue
    /// (down, with the queue's resume slot `h`).
    pub(crate) fn mac_recv(&mut self, id: ObjId, p: PktId, h: Option<ResumeId>) {
        let up = self.w.pool.lan_hdr(p).dir != Direction::Down;
        match self.mac(id).kind {
            MacKind::Plain { .. } => {
                if up {
                    self.plain_send_up(id, p)
                } else {
                    self.plain_send_down(id, p, h)
                }
            }
            MacKind::Ether => {
                if up {
                    self.ether_send_up(id, p)
                } else {
                    self.ether_send_down(id, p, h)
                }
            }
        }
    }

    // ---- the plain MAC ---------------------------------------------------

    fn plain_send_down(&mut self, id: ObjId, p: PktId, h: Option<ResumeId>) {
        let m = self.mac(id);
        m.callback = h;
        m.state = State::Send;
        let (sa, bw, target, kind) = (m.addr, m.bandwidth, m.down_target, m.kind);
        let mut hd = self.w.pool.lan_hdr(p);
        hd.sa = sa;
        self.w.pool.set_lan_hdr(p, hd);
        let size = self.w.pool.get(p).size;
        let txt = 8.0 * (MAC_HDR_LEN + size) as f64 / bw;
        self.recv(target, p, None);
        if kind == (MacKind::Plain { abstract_lan: false }) {
            // ns-2's resume handler calls the queue back after the frame.
            if let Some(slot) = self.mac(id).callback {
                self.w.s.set_resume(slot, txt);
                self.w.s.need_resume(slot);
            }
        }
    }

    fn plain_send_up(&mut self, id: ObjId, p: PktId) {
        let m = self.mac(id);
        m.state = State::Idle;
        let (addr, kind, delay, up, drop) = (m.addr, m.kind, m.delay, m.up_target, m.drop_target);
        let da = self.w.pool.lan_hdr(p).da;
        if da != BROADCAST && da != addr {
            if kind == (MacKind::Plain { abstract_lan: true }) {
                self.w.pool.free(p);
            } else {
                self.drop_to(drop, p);
            }
            return;
        }
        self.w.s.schedule(delay, Ev::Deliver(up, p));
    }

    // ---- 802.3 -------------------------------------------------------------

    fn ether_send_down(&mut self, id: ObjId, p: PktId, h: Option<ResumeId>) {
        let pk = self.w.pool.get_mut(p);
        pk.size += ETHER_HDR_LEN;
        let mut size = pk.size;
        let mut hd = self.w.pool.lan_hdr(p);
        hd.padding = 0;
        if size < MIN_FRAME {
            hd.padding = MIN_FRAME - size;
            size += hd.padding;
            self.w.pool.get_mut(p).size = size;
        }
        // (ns-2 warns once on stderr of a frame above MAX_FRAME and sends it.)
        let _ = MAX_FRAME;
        self.w.pool.set_lan_hdr(p, hd);
        let m = self.mac(id);
        m.callback = h;
        m.retx_pkt = Some(p);
        self.ether_transmit(id, p);
    }

    fn ether_transmit(&mut self, id: ObjId, p: PktId) {
        let m = self.mac(id);
        if m.send_pkt.is_some() {
            // ns-2 prints the handlers' state and exits; the MAC cannot
            // be handed a second frame while it sends one.
            return;
        }
        if m.ifs.busy || m.state != State::Idle {
            // tried again when idle (`resume`)
            return;
        }
        let size = self.w.pool.get(p).size;
        let txtime = self.phy_txtime(id, size);
        self.mac_schedule(id, SEND, txtime);
        self.mac(id).send_pkt = Some(p);
        let newp = self.w.pool.copy(p);
        let mut hd = self.w.pool.lan_hdr(newp);
        hd.dir = Direction::Down;
        self.w.pool.set_lan_hdr(newp, hd);
        let target = self.mac(id).down_target;
        self.recv(target, newp, None);
        self.mac(id).state = State::Send;
    }

    fn ether_send_up(&mut self, id: ObjId, p: PktId) {
        let now = self.w.s.now;
        let m = self.mac(id);
        if m.state != State::Idle && m.ifs.busy {
            if m.ifs.expire - now > EPS {
                self.w.pool.free(p);
                return;
            }
            m.ifs.busy = false;
            self.mac_cancel(id, IFS);
            self.ether_resume(id);
        }
        if self.mac(id).state == State::Idle {
            self.mac(id).state = State::Recv;
            let size = self.w.pool.get(p).size;
            let t = self.phy_txtime(id, size);
            self.mac_schedule(id, RECV, t);
            self.mac(id).recv_pkt = Some(p);
        } else {
            self.ether_collision(id, p);
        }
    }

    fn ether_collision(&mut self, id: ObjId, p: PktId) {
        if self.mac(id).ifs.busy {
            self.mac(id).ifs.busy = false;
            self.mac_cancel(id, IFS);
        }
        let ifstime = self.phy_txtime(id, ((JAM_BITS + IFS_BITS) / 8.0) as i32);
        self.mac_schedule(id, IFS, ifstime);
        let m = self.mac(id);
        match m.state {
            State::Send => {
                let (trace, drop) = (m.trace, m.drop_target);
                if trace {
                    self.drop_to(drop, p);
                } else {
                    self.w.pool.free(p);
                }
                if self.mac(id).send.busy {
                    let m = self.mac(id);
                    m.send.busy = false;
                    m.send_pkt = None;
                    self.mac_cancel(id, SEND);
                }
                if !self.mac(id).retx.busy && !self.retx_schedule(id, ifstime) {
                    // backed off too far: the frame is dropped
                    if let Some(q) = self.mac(id).retx_pkt {
                        let pad = self.w.pool.lan_hdr(q).padding;
                        self.w.pool.get_mut(q).size -= ETHER_HDR_LEN + pad;
                        self.drop_to(drop, q);
                    }
                    self.retx_reset(id);
                }
            }
            State::Recv => {
                self.w.pool.free(p);
                if self.mac(id).recv.busy {
                    let m = self.mac(id);
                    m.recv.busy = false;
                    let q = m.recv_pkt.take();
                    self.mac_cancel(id, RECV);
                    if let Some(q) = q {
                        self.w.pool.free(q);
                    }
                }
            }
            State::Idle => unreachable!("a collision while idle"),
        }
    }

    /// Schedule a retransmission after a random number of slots (and
    /// `delta`), unless the attempts are used up (false).
    fn retx_schedule(&mut self, id: ObjId, delta: f64) -> bool {
        let attempt = self.mac(id).attempt;
        if attempt >= ATTEMPT_LIMIT {
            return false;
        }
        let k = attempt.min(BACKOFF_LIMIT);
        let r = self.w.rng.default_stream().uniform_int(1 << k);
        let slot = self.phy_txtime(id, (SLOT_BITS / 8.0) as i32);
        self.mac_schedule(id, RETX, r as f64 * slot + delta);
        true
    }

    fn retx_reset(&mut self, id: ObjId) {
        if self.mac(id).retx.busy {
            // ns-2's cancel of this handler leaves it busy.
            self.mac_cancel(id, RETX);
        }
        let m = self.mac(id);
        m.attempt = 1;
        m.retx_pkt = None;
    }

    fn ether_recv_complete(&mut self, id: ObjId, p: PktId) {
        let hd = self.w.pool.lan_hdr(p);
        let m = self.mac(id);
        let (addr, up) = (m.addr, m.up_target);
        if hd.da != BROADCAST && hd.da != addr {
            self.w.pool.free(p);
        } else {
            self.w.pool.get_mut(p).size -= ETHER_HDR_LEN + hd.padding;
            self.recv(up, p, None);
        }
        let t = self.phy_txtime(id, (IFS_BITS / 8.0) as i32);
        self.mac_schedule(id, IFS, t);
    }

    fn ether_resume(&mut self, id: ObjId) {
        let m = self.mac(id);
        m.state = State::Idle;
        if let Some(p) = m.retx_pkt {
            if !m.retx.busy {
                self.ether_transmit(id, p);
            }
        } else if !m.retx.busy {
            if let Some(slot) = m.callback.take() {
                self.resume(slot);
            }
        }
    }

    /// One of MAC `id`'s handlers runs.
    pub(crate) fn mac_timeout(&mut self, id: ObjId, kind: u8) {
        match kind {
            SEND => {
                let m = self.mac(id);
                m.send.busy = false;
                m.send_pkt = None;
                if let Some(p) = m.retx_pkt.take() {
                    self.w.pool.free(p);
                }
                self.retx_reset(id);
                let t = self.phy_txtime(id, (IFS_BITS / 8.0) as i32);
                self.mac_schedule(id, IFS, t);
            }
            RECV => {
                let m = self.mac(id);
                m.recv.busy = false;
                if let Some(p) = m.recv_pkt.take() {
                    self.ether_recv_complete(id, p);
                }
            }
            RETX => {
                let m = self.mac(id);
                m.retx.busy = false;
                m.attempt += 1;
                if let Some(p) = m.retx_pkt {
                    self.ether_transmit(id, p);
                }
            }
            _ => {
                self.mac(id).ifs.busy = false;
                self.ether_resume(id);
            }
        }
    }
}
