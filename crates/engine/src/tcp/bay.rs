//! Bay Networks' two-way TCP as ns-2 2.35 models it (baytcp/tcp-full-bay.cc,
//! `BayFullTcpAgent`): an older, simpler relative of `full/` written for
//! web-like request/response traffic.  Byte sequence numbers, the SYN and
//! FIN exchanges (no TIME_WAIT), Reno loss recovery (fast retransmit and
//! window inflation, a timeout's restart), delayed ACKs on a periodic
//! timer, Nagle, and ACK-every-segment for the first 16 KB of a transfer
//! (and again after each out-of-order arrival).
//!
//! Where it differs from `full/`: the RTT sample is taken on every
//! advancing ACK from the peer's timestamp (`now - ts`, the peer's send
//! time), a FIN goes out with the last data when the application asked for
//! a close on empty, a server (close on empty) goes back to LISTEN once its
//! connection has closed, and the application is called back in the middle
//! of `recv`: when a segment with PUSH arrives (a request, or the end of a
//! response) and when the connection closes.  The applications it calls
//! are `crate::fetch`'s client and server.
//!
//! Like `full/`, it is a flavour of `Tcp` (`Flavor::Bay`), sharing the
//! one-way `Sender`'s RTT estimator, retransmission timer, `opencwnd`,
//! `slowdown` and window, in packets of `maxseg` bytes.  Field and function
//! names follow ns-2's C++ members; the Tcl names are in the ns-2 layer
//! (`ns2/class/bay.rs`).

use super::full::{State, TH_ACK, TH_FIN, TH_PUSH, TH_SYN};
use super::*;
use crate::sched::ObjId;
use crate::sim::NONE;

/// The delayed-ACK timer.
pub const TIMER_DELACK: u8 = 3;

const REASON_NORMAL: i32 = 0;
/// `PF_TIMEOUT`: what the delayed-send timer's sends carry.
const PF_TIMEOUT: i32 = 0x04;

// Internal flags (`flags_`).
const TF_ACKNOW: i32 = 0x0001;
const TF_DELACK: i32 = 0x0002;
const TF_SENTFIN: i32 = 0x0010;
const TF_SENTSYN: i32 = 0x0020;

/// The IP and TCP header bytes of every segment (no options).
const HEADER_SIZE: i32 = 40;
/// Bytes acknowledged one segment at a time after the SYN or a loss.
const ACK_EVERY_SEGMENT_BYTES: i32 = 16 * 1024;

/// What the application is told (`DATA_PUSH`, `CONNECTION_END`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upcall {
    /// A segment with PUSH arrived: a request, or the end of a response.
    DataPush,
    /// The connection has closed.
    ConnectionEnd,
}

/// Out-of-order segments held by the receive side (`BayReassemblyQueue`):
/// unlike `full/rq.rs`'s, segments are kept as they came, not merged, and
/// a hole-fill releases the run of segments that follow without a gap.
#[derive(Clone, Debug, Default)]
pub struct Reassembly {
    /// (start, end, flags), in the order ns-2's list holds them.
    segs: Vec<(i32, i32, i32)>,
}

impl Reassembly {
    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    pub fn clear(&mut self) {
        self.segs.clear();
    }

    /// `add`: queue `[start, end)` with `flags`; if the head now starts at
    /// or below `rcv_nxt`, release the in-sequence run, moving `rcv_nxt` to
    /// the end of each segment released, and return the OR of their flags
    /// (0 when still waiting for a hole to fill).
    pub fn add(&mut self, start: i32, end: i32, flags: i32, rcv_nxt: &mut i32) -> i32 {
        let at = match self.segs.last() {
            Some(&(_, tail_end, _)) if tail_end > start => {
                // Before the first segment that starts at or after our end.
                self.segs.iter().position(|&(s, _, _)| end <= s).unwrap_or(self.segs.len())
            }
            _ => self.segs.len(),
        };
        self.segs.insert(at, (start, end, flags));
        if self.segs[0].0 > *rcv_nxt {
            return 0;
        }
        let mut tiflags = 0;
        let mut n = 0;
        while n < self.segs.len() {
            let (_, e, f) = self.segs[n];
            *rcv_nxt = e;
            tiflags |= f;
            n += 1;
            if n < self.segs.len() && e < self.segs[n].0 {
                break;
            }
        }
        self.segs.drain(..n);
        tiflags
    }
}

/// What the Bay TCP adds to the shared sender.
#[derive(Clone, Debug)]
pub struct BayState {
    pub delack_timer: u32,

    // ---- parameters ---------------------------------------------------------
    /// ACK every this many full segments (past the first 16 KB).
    pub segs_per_ack: i32,
    /// Maximum segment size, bytes.
    pub maxseg: i32,
    /// Duplicate ACKs that start a fast retransmit.
    pub tcprexmtthresh: i32,
    /// Initial send sequence number.
    pub iss: i32,
    /// No Nagle: send a short last segment at once.
    pub nodelay: bool,
    pub data_on_syn: bool,
    /// A duplicate data segment's ACK does not count as a duplicate ACK.
    pub dupseg_fix: bool,
    /// A segment with data below the highest ACK ends the duplicate run.
    pub dupack_reset: bool,
    /// The delayed-ACK timer's period, seconds.
    pub delack_interval: f64,

    // ---- state --------------------------------------------------------------
    pub state: State,
    pub flags: i32,
    pub rcv_nxt: i32,
    pub rq: Reassembly,
    pub last_ack_sent: i32,
    /// Send a FIN with the last byte, and listen again once closed.
    pub close_on_empty: bool,
    /// The application called back (`crate::fetch`), or `NONE`.
    pub app: ObjId,
    /// Below this byte, ACK every segment.
    pub switch_spa_thresh: i32,
    /// Data has arrived: from now on new ACKs open the window.
    pub first_data: bool,
    /// Why the current recovery began (a timeout or duplicate ACKs).
    pub recover_cause: i32,
}

impl BayState {
    /// ns-2's constructor values; the class defaults are set on top.
    pub fn new(sim: &mut Sim, owner: u32) -> BayState {
        BayState {
            delack_timer: sim.w.s.new_timer(owner, TIMER_DELACK),
            segs_per_ack: 1,
            maxseg: 536,
            tcprexmtthresh: 3,
            iss: 0,
            nodelay: false,
            data_on_syn: false,
            dupseg_fix: true,
            dupack_reset: false,
            delack_interval: 0.1,
            state: State::Closed,
            flags: 0,
            rcv_nxt: 0,
            rq: Reassembly::default(),
            last_ack_sent: 0,
            close_on_empty: false,
            app: NONE,
            switch_spa_thresh: 0,
            first_data: false,
            recover_cause: 0,
        }
    }
}

/// What `recv` reads of an arriving segment.
struct Seg {
    seqno: i32,
    ackno: i32,
    flags: i32,
    size: i32,
    hlen: i32,
    ts: f64,
}

/// One agent's parts, borrowed apart.
pub struct Bay<'a> {
    pub t: &'a mut Sender,
    pub f: &'a mut BayState,
    pub b: &'a mut AgentBase,
}

impl Bay<'_> {
    fn warn(&self, sim: &mut Sim, what: String) {
        let now = sim.w.s.now;
        sim.w.warn(crate::notice::Warning::Front(format!("{now:.6}: Bay TCP agent {}: {what}", self.b.id)));
    }

    // ---- user interface -----------------------------------------------------

    /// `$tcp advance n`: `n` more segments to send (a huge `n`, "send
    /// forever", counts bytes); opens the connection if closed.
    pub fn advance(&mut self, sim: &mut Sim, mut np: i32) {
        if np >= 0x10000000 {
            np /= self.f.maxseg;
        }
        self.t.inc(self.b, &mut sim.w, Tv::Curseq, np.wrapping_mul(self.f.maxseg));
        match self.f.state {
            State::Closed => self.connect(sim),
            State::Established => self.send_much(sim, false, REASON_NORMAL, 0),
            s if s > State::Established => {
                self.warn(sim, format!("cannot advance while in state {}", s as u8));
            }
            _ => {}
        }
    }

    /// The applications' `advance(n, close_flag)`: `n` more bytes, and
    /// whether to close once they are sent.  A closed connection opens
    /// anew; false (try later) while opening or closing.
    pub fn advance_bytes(&mut self, sim: &mut Sim, n: i32, close: bool) -> bool {
        self.f.close_on_empty = close;
        match self.f.state {
            State::Closed => {
                let c = self.f.iss.wrapping_add(n);
                self.t.seti(self.b, &mut sim.w, Tv::Curseq, c);
                self.reinit(sim);
                self.connect(sim);
                true
            }
            State::Established => {
                self.t.inc(self.b, &mut sim.w, Tv::Curseq, n);
                true
            }
            _ => false,
        }
    }

    /// `$tcp initial-window n`.
    pub fn initial_window(&mut self, sim: &mut Sim, n: i32) {
        self.t.wnd_init = n as f64;
        self.t.set_cwnd(self.b, &mut sim.w, n as f64);
        self.t.awnd = n as f64 / 2.0;
    }

    /// Active open: a SYN (without data unless `data_on_syn`).
    fn connect(&mut self, sim: &mut Sim) {
        self.f.state = State::SynSent;
        let iss = self.f.iss;
        if !self.f.data_on_syn {
            let cur = self.t.curseq;
            self.t.seti(self.b, &mut sim.w, Tv::Curseq, iss);
            self.output(sim, iss, REASON_NORMAL);
            self.t.seti(self.b, &mut sim.w, Tv::Curseq, cur.wrapping_add(1));
            return;
        }
        self.output(sim, iss, REASON_NORMAL);
    }

    /// Passive open (the end's packets stay typed as TCP).
    pub fn listen(&mut self) {
        self.f.state = State::Listen;
        self.b.ptype = crate::packet::PacketType::Tcp;
    }

    /// `usrclosed`: the application closes.
    pub fn usrclosed(&mut self, sim: &mut Sim) {
        match self.f.state {
            State::Closed | State::Listen | State::SynSent => self.f.state = State::Closed,
            State::SynReceived | State::Established => {
                self.f.state = State::FinWait1;
                self.send_much(sim, true, REASON_NORMAL, 0);
            }
            _ => {}
        }
    }

    // ---- (re)starting -------------------------------------------------------

    /// `reset`: the shared sender's, then this end's counters (the state
    /// stays: a listener listens on).
    pub fn reset(&mut self, sim: &mut Sim) {
        self.t.reset(self.b, sim);
        let w = &mut sim.w;
        self.t.seti(self.b, w, Tv::Ack, 0);
        let f = &mut *self.f;
        f.last_ack_sent = 0;
        f.rcv_nxt = 0;
        f.flags = 0;
        self.t.seti(self.b, w, Tv::TSeqno, f.iss);
        f.close_on_empty = false;
        f.switch_spa_thresh = 0;
        f.first_data = false;
    }

    /// `reinit`: ready for a new connection on the same agent.
    fn reinit(&mut self, sim: &mut Sim) {
        let w = &mut sim.w;
        self.t.cancel_rtx_timer(w);
        self.t.rtt_init(self.b, w);
        let wi = self.t.wnd_init;
        self.t.set_cwnd(self.b, w, wi);
        self.t.last_ack = 0;
        self.t.seti(self.b, w, Tv::Ack, 0);
        let ss = self.t.wnd() as i32;
        self.t.seti(self.b, w, Tv::Ssthresh, ss);
        self.t.awnd = wi / 2.0;
        self.t.recover = 0;
        let f = &mut *self.f;
        f.recover_cause = 0;
        f.last_ack_sent = 0;
        f.rcv_nxt = 0;
        f.flags = 0;
        self.t.seti(self.b, w, Tv::TSeqno, f.iss);
        self.t.seti(self.b, w, Tv::Maxseq, f.iss);
        f.switch_spa_thresh = 0;
        f.rq.clear();
        f.first_data = false;
    }

    // ---- sending ------------------------------------------------------------

    /// The header flags the state puts on every segment.
    fn outflags(&self) -> i32 {
        let s = self.f.state;
        let mut flags = 0;
        if s != State::Listen && s != State::SynSent {
            flags |= TH_ACK;
        }
        if s == State::SynSent || s == State::SynReceived {
            flags |= TH_SYN;
        }
        if s == State::FinWait1 || s == State::LastAck {
            flags |= TH_FIN;
        }
        flags
    }

    /// `sendpacket`: build a segment and send it.
    fn sendpacket(&mut self, sim: &mut Sim, seqno: i32, ackno: i32, pflags: i32, datalen: i32, reason: i32) {
        let p = self.b.allocpkt(sim);
        let now = sim.w.s.now;
        {
            let pk = sim.w.pool.get_mut(p);
            pk.seqno = seqno;
            pk.ackno = ackno;
            pk.tcp_flags = pflags;
            pk.hlen = HEADER_SIZE;
            pk.ts = now;
            pk.reason |= reason;
            pk.size = datalen + HEADER_SIZE;
        }
        let w = &mut sim.w;
        if datalen <= 0 {
            self.t.inc(self.b, w, Tv::Nackpack, 1);
        } else {
            self.t.inc(self.b, w, Tv::Ndatapack, 1);
            self.t.inc(self.b, w, Tv::Ndatabytes, datalen);
        }
        if reason == REASON_TIMEOUT || reason == REASON_DUPACK {
            self.t.inc(self.b, w, Tv::Nrexmitpack, 1);
            self.t.inc(self.b, w, Tv::Nrexmitbytes, datalen);
        }
        self.b.send(sim, p);
    }

    /// `need_send`: owe the peer an ACK (one per segment below the
    /// switch point, one per `segs_per_ack` segments above)?
    fn need_send(&self) -> bool {
        let f = &*self.f;
        if f.flags & TF_ACKNOW != 0 {
            return true;
        }
        if f.rcv_nxt < f.switch_spa_thresh {
            return f.rcv_nxt - f.last_ack_sent >= 1;
        }
        f.rcv_nxt - f.last_ack_sent >= f.segs_per_ack * f.maxseg
    }

    /// `output(seqno, reason)`: send the segment at `seqno` if there is a
    /// reason to; true if one was sent.
    fn output(&mut self, sim: &mut Sim, mut seqno: i32, reason: i32) -> bool {
        let maxseg = self.f.maxseg;
        let is_retransmit = seqno < self.t.maxseq;
        let idle = self.t.highest_ack == self.t.maxseq;
        let buffered_bytes = (self.t.curseq + self.f.iss) - seqno;
        let mut datalen = buffered_bytes.min((self.t.highest_ack + self.t.window() * maxseg) - seqno);
        let mut pflags = self.outflags();
        let mut emptying_buffer = false;
        if pflags & TH_SYN != 0 || datalen <= 0 {
            datalen = 0;
        } else if datalen > maxseg {
            datalen = maxseg;
        } else if datalen == buffered_bytes {
            emptying_buffer = true;
            pflags |= TH_PUSH;
            if self.f.close_on_empty {
                pflags |= TH_FIN;
                self.f.state = State::FinWait1;
            }
        }
        if datalen > 0 && !emptying_buffer {
            pflags &= !TH_FIN;
        }
        let send = (datalen > 0
            && (datalen == maxseg
                || ((idle || self.f.nodelay) && emptying_buffer)
                || is_retransmit
                || datalen as f64 >= (self.t.wnd() * maxseg as f64) / 2.0))
            || self.need_send()
            || self.f.flags & TF_ACKNOW != 0
            || pflags & (TH_SYN | TH_FIN | TH_PUSH) != 0;
        if !send {
            return false;
        }
        let w = &mut sim.w;
        if pflags & TH_FIN != 0 {
            if self.f.flags & TF_SENTFIN != 0 {
                // No sequence number past the FIN.
                if seqno >= self.t.maxseq {
                    seqno -= 1;
                }
            } else {
                self.f.flags |= TF_SENTFIN;
                self.t.inc(self.b, w, Tv::TSeqno, 1);
            }
        }
        if pflags & TH_SYN != 0 && self.f.flags & TF_SENTSYN == 0 {
            self.f.flags |= TF_SENTSYN;
            self.t.inc(self.b, w, Tv::TSeqno, 1);
        }
        let rcv_nxt = self.f.rcv_nxt;
        self.sendpacket(sim, seqno, rcv_nxt, pflags, datalen, reason);
        self.f.last_ack_sent = rcv_nxt;
        self.f.flags &= !(TF_ACKNOW | TF_DELACK);
        let w = &mut sim.w;
        self.t.inc(self.b, w, Tv::TSeqno, datalen);
        if self.t.t_seqno > self.t.maxseq {
            let s = self.t.t_seqno;
            self.t.seti(self.b, w, Tv::Maxseq, s);
            if !self.t.rtt_active {
                self.t.rtt_active = true;
                self.t.rtt_seq = seqno;
            }
        }
        if !self.t.rtx_pending && self.t.t_seqno > self.t.highest_ack {
            self.t.set_rtx_timer(w);
        }
        true
    }

    /// `send_much`: send what the window allows (`force`: at least one
    /// segment, an ACK if nothing else).
    pub fn send_much(&mut self, sim: &mut Sim, mut force: bool, reason: i32, maxburst: i32) {
        let win = self.t.window() * self.f.maxseg;
        let mut topwin = self.t.curseq + self.f.iss;
        if topwin > self.t.highest_ack + win {
            topwin = self.t.highest_ack + win;
        }
        if !force && self.t.delsnd_pending(&sim.w) {
            return;
        }
        let mut npackets = 0;
        while force || self.t.t_seqno < topwin {
            if self.t.overhead != 0.0 && !self.t.delsnd_pending(&sim.w) {
                self.t.delsnd_resched(&mut sim.w);
                return;
            }
            let seq = self.t.t_seqno;
            let sent = self.output(sim, seq, reason);
            force = false;
            if self.outflags() & TH_SYN != 0 {
                break;
            }
            if maxburst != 0 {
                npackets += 1;
                if npackets >= maxburst {
                    break;
                }
            }
            if !sent && self.t.t_seqno == seq {
                // Nothing Nagle lets go and nothing moved: ns-2 would
                // spin here for ever.
                break;
            }
        }
    }

    /// `fast_retransmit(seq)`: resend `seq`, then carry on from where the
    /// sender was.
    fn fast_retransmit(&mut self, sim: &mut Sim, seq: i32) {
        self.t.rtt_backoff(self.b, &mut sim.w);
        let onxt = self.t.t_seqno;
        self.t.recover = self.t.maxseq;
        self.f.recover_cause = REASON_DUPACK;
        self.output(sim, seq, REASON_DUPACK);
        self.t.seti(self.b, &mut sim.w, Tv::TSeqno, onxt);
    }

    // ---- timers -------------------------------------------------------------

    /// A timer expired: retransmission, delayed send or delayed ACK.
    pub fn timeout(&mut self, sim: &mut Sim, tno: u8) {
        if self.f.state == State::Closed || self.f.state == State::Listen {
            return;
        }
        match tno {
            TIMER_RTX => {
                let w = &mut sim.w;
                self.t.inc(self.b, w, Tv::Nrexmit, 1);
                self.t.recover = self.t.maxseq;
                self.f.recover_cause = REASON_TIMEOUT;
                self.t.slowdown(self.b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
                // `reset_rtx_timer`: back off, rearm, stop timing.
                self.t.rtt_backoff(self.b, w);
                self.t.set_rtx_timer(w);
                self.t.rtt_active = false;
                let h = self.t.highest_ack;
                self.t.seti(self.b, w, Tv::TSeqno, h);
                self.t.seti(self.b, w, Tv::Dupacks, 0);
                self.send_much(sim, true, REASON_TIMEOUT, 0);
            }
            TIMER_DELSND => self.send_much(sim, true, PF_TIMEOUT, 0),
            TIMER_DELACK => {
                if self.f.flags & TF_DELACK != 0 {
                    self.f.flags &= !TF_DELACK;
                    self.f.flags |= TF_ACKNOW;
                    self.send_much(sim, true, REASON_NORMAL, 0);
                }
                let i = self.f.delack_interval;
                sim.w.s.timer_resched(self.f.delack_timer, i);
            }
            _ => {}
        }
    }

    // ---- receiving ----------------------------------------------------------

    /// `newack`: an ACK for new data (or our SYN): RTT sample, timer,
    /// highest ACK.
    fn newack(&mut self, sim: &mut Sim, s: &Seg) {
        let w = &mut sim.w;
        let ackno = s.ackno;
        if self.t.rtt_active && ackno >= self.t.rtt_seq {
            self.t.rtt_active = false;
            self.t.seti(self.b, w, Tv::Backoff, 1);
        }
        let tao = w.s.now - s.ts;
        self.t.rtt_update(self.b, w, tao);
        if ackno >= self.t.maxseq {
            self.t.cancel_rtx_timer(w);
        } else if ackno > self.t.highest_ack {
            self.t.set_rtx_timer(w);
        }
        if ackno > self.t.highest_ack {
            self.t.seti(self.b, w, Tv::Ack, ackno);
        }
        if self.t.t_seqno < self.t.highest_ack {
            let h = self.t.highest_ack;
            self.t.seti(self.b, w, Tv::TSeqno, h);
        }
    }

    /// Tell the application (`app_->recv`); a server answers at once.
    fn upcall(&mut self, sim: &mut Sim, what: Upcall) {
        if self.f.app == NONE {
            return;
        }
        if let Some(n) = crate::fetch::upcall(sim, self.f.app, what) {
            self.advance_bytes(sim, n, true);
        }
    }

    /// `recv`: a segment arrived.
    pub fn recv(&mut self, sim: &mut Sim, p: PktId) {
        let mut s = {
            let pk = sim.w.pool.get(p);
            Seg { seqno: pk.seqno, ackno: pk.ackno, flags: pk.tcp_flags, size: pk.size, hlen: pk.hlen, ts: pk.ts }
        };
        // The delayed-ACK timer fires on multiples of its interval.
        if sim.w.s.timer_status(self.f.delack_timer) != crate::sched::TimerStatus::Pending {
            let now = sim.w.s.now;
            let last = (now / self.f.delack_interval) as i32;
            let d = self.f.delack_interval * (last as f64 + 1.0) - now;
            sim.w.s.timer_resched(self.f.delack_timer, d);
        }
        self.recv_seg(sim, &mut s);
        sim.w.pool.free(p);
    }

    fn recv_seg(&mut self, sim: &mut Sim, s: &mut Seg) {
        let mut needoutput = false;
        let mut dupseg = false;
        let mut datalen = s.size - s.hlen;
        let ackno = s.ackno;
        let mut tiflags = s.flags;
        let mut step6 = false;
        match self.f.state {
            State::Listen => {
                if tiflags & TH_ACK != 0 {
                    if tiflags & TH_FIN != 0 {
                        self.sendpacket(sim, s.ackno, s.seqno + 1, TH_ACK, 0, REASON_NORMAL);
                    }
                    return;
                }
                if tiflags & TH_SYN == 0 {
                    self.warn(sim, "got a non-SYN while in LISTEN".into());
                    return;
                }
                self.f.flags |= TF_ACKNOW;
                self.f.state = State::SynReceived;
                self.f.rcv_nxt = s.seqno + 1;
                let iss = self.f.iss;
                self.t.seti(self.b, &mut sim.w, Tv::TSeqno, iss);
                self.f.switch_spa_thresh = self.f.rcv_nxt + ACK_EVERY_SEGMENT_BYTES;
                step6 = true;
            }
            State::SynSent => {
                if tiflags & TH_ACK != 0 && ackno > self.t.maxseq {
                    return;
                }
                if tiflags & TH_SYN == 0 {
                    self.warn(sim, format!("no SYN for our SYN({})", self.t.maxseq));
                    return;
                }
                self.f.rcv_nxt = s.seqno + 1;
                self.f.switch_spa_thresh = self.f.rcv_nxt + ACK_EVERY_SEGMENT_BYTES;
                self.t.cancel_rtx_timer(&mut sim.w);
                self.f.flags |= TF_ACKNOW;
                if tiflags & TH_ACK != 0 {
                    self.newack(sim, s);
                    self.f.state = State::Established;
                } else {
                    self.f.state = State::SynReceived;
                }
                step6 = true;
            }
            _ => {}
        }
        if !step6 {
            // Data we have seen already, at the head of the segment.
            let mut todrop = self.f.rcv_nxt - s.seqno;
            if todrop > 0 {
                if tiflags & TH_SYN != 0 {
                    let h = self.t.highest_ack;
                    self.t.seti(self.b, &mut sim.w, Tv::TSeqno, h);
                    if tiflags & TH_ACK == 0 {
                        return self.drop_after_ack(sim);
                    }
                    tiflags &= !TH_SYN;
                }
                if todrop > datalen || (todrop == datalen && tiflags & TH_FIN == 0) {
                    // A duplicate: ACK it to resynchronise, keep the ACK.
                    tiflags &= !TH_FIN;
                    self.f.flags |= TF_ACKNOW;
                    todrop = datalen;
                    dupseg = true;
                }
                s.seqno += todrop;
                datalen -= todrop;
            }
            if tiflags & TH_SYN != 0 {
                self.warn(sim, format!("received unexpected SYN (state:{})", self.f.state as u8));
                return;
            }
            if tiflags & (TH_SYN | TH_ACK) == 0 {
                self.warn(sim, format!("got packet lacking ACK (seq {})", s.seqno));
                return;
            }
            // ACK processing.
            let mut state = self.f.state;
            if state == State::SynReceived {
                if ackno < self.t.highest_ack || ackno > self.t.maxseq {
                    return;
                }
                self.f.state = State::Established;
                state = State::Established;
            }
            if matches!(state, State::Established | State::FinWait1 | State::FinWait2 | State::Closing | State::LastAck) {
                match self.ack_processing(sim, s, datalen, dupseg) {
                    AckOutcome::Drop => return,
                    AckOutcome::DropAfterAck => return self.drop_after_ack(sim),
                    AckOutcome::Continue(n) => needoutput = n,
                }
            }
        }
        // Data processing (step 6).
        if datalen > 0 || tiflags & TH_FIN != 0 {
            self.f.first_data = true;
            if s.seqno == self.f.rcv_nxt && self.f.rq.is_empty() {
                tiflags &= TH_FIN;
                if tiflags != 0 {
                    self.f.rcv_nxt += 1;
                }
                self.f.flags |= TF_DELACK;
                self.f.rcv_nxt += datalen;
                if datalen != 0 && s.flags & TH_PUSH != 0 {
                    self.upcall(sim, Upcall::DataPush);
                }
                needoutput = self.need_send();
            } else {
                let end = s.seqno + s.size - s.hlen;
                let f = &mut *self.f;
                tiflags = f.rq.add(s.seqno, end, s.flags, &mut f.rcv_nxt);
                if tiflags & TH_PUSH != 0 {
                    self.upcall(sim, Upcall::DataPush);
                    needoutput = self.need_send();
                } else {
                    self.f.flags |= TF_ACKNOW;
                }
                self.f.switch_spa_thresh = self.f.rcv_nxt + ACK_EVERY_SEGMENT_BYTES;
            }
        }
        if tiflags & TH_FIN != 0 {
            self.f.flags |= TF_ACKNOW;
            self.f.rq.clear();
            match self.f.state {
                State::SynReceived | State::Established => self.f.state = State::LastAck,
                State::FinWait1 => self.f.state = State::Closing,
                State::FinWait2 => {
                    self.f.state = State::Closed;
                    self.t.cancel_rtx_timer(&mut sim.w);
                }
                _ => {}
            }
        }
        if needoutput || self.f.flags & TF_ACKNOW != 0 {
            self.send_much(sim, true, REASON_NORMAL, 0);
        } else if self.t.curseq + self.f.iss > self.t.highest_ack {
            self.send_much(sim, false, REASON_NORMAL, 0);
        }
        if self.f.state == State::Closed {
            if self.f.close_on_empty {
                // A server: listen for the next connection.
                self.reinit(sim);
                let iss = self.f.iss;
                self.t.seti(self.b, &mut sim.w, Tv::Curseq, iss);
                self.f.state = State::Listen;
            } else {
                self.upcall(sim, Upcall::ConnectionEnd);
            }
        }
    }

    /// `dropafterack`: ACK at once, then drop the segment.
    fn drop_after_ack(&mut self, sim: &mut Sim) {
        self.f.flags |= TF_ACKNOW;
        self.send_much(sim, true, REASON_NORMAL, 0);
    }

    /// The ACK half of `recv` in the synchronised states: duplicate ACKs
    /// (fast retransmit, window inflation), then a new ACK's effects.
    fn ack_processing(&mut self, sim: &mut Sim, s: &Seg, datalen: i32, dupseg: bool) -> AckOutcome {
        let ackno = s.ackno;
        if ackno <= self.t.highest_ack {
            if datalen == 0 && (!self.f.dupseg_fix || !dupseg) {
                let w = &mut sim.w;
                if !self.t.rtx_pending || ackno != self.t.highest_ack {
                    // Not timing, or a reordered ACK.
                    self.t.seti(self.b, w, Tv::Dupacks, 0);
                } else if self.t.bug_fix && self.t.highest_ack == self.t.recover && self.f.recover_cause == REASON_TIMEOUT {
                    // Recovering from a timeout, not by fast retransmit.
                    self.t.seti(self.b, w, Tv::Dupacks, 0);
                } else {
                    let d = self.t.dupacks + 1;
                    self.t.seti(self.b, w, Tv::Dupacks, d);
                    if d == self.f.tcprexmtthresh {
                        self.t.slowdown(self.b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
                        self.t.cancel_rtx_timer(w);
                        self.t.rtt_active = false;
                        self.fast_retransmit(sim, ackno);
                        let c = (self.t.ssthresh + self.t.dupacks) as f64;
                        self.t.set_cwnd(self.b, &mut sim.w, c);
                        return AckOutcome::Drop;
                    } else if d > self.f.tcprexmtthresh {
                        let c = self.t.cwnd + 1.0;
                        self.t.set_cwnd(self.b, w, c);
                        self.send_much(sim, false, REASON_NORMAL, 0);
                        return AckOutcome::Drop;
                    }
                }
            } else if self.f.dupack_reset {
                self.t.seti(self.b, &mut sim.w, Tv::Dupacks, 0);
            }
            return AckOutcome::Continue(false);
        }
        // An ACK for new data ends fast recovery: deflate the window to
        // send at most two segments on it.
        let w = &mut sim.w;
        if self.t.dupacks >= self.f.tcprexmtthresh && self.t.cwnd > self.t.ssthresh as f64 {
            let maxseg = self.f.maxseg;
            let c = ((self.t.maxseq - ackno + maxseg - 1) / maxseg + 2) as f64;
            self.t.set_cwnd(self.b, w, c);
        }
        self.t.seti(self.b, w, Tv::Dupacks, 0);
        if ackno > self.t.maxseq {
            let m = self.t.maxseq;
            self.warn(sim, format!("too-big ACK (ack: {ackno}, maxseq:{m})"));
            return AckOutcome::DropAfterAck;
        }
        self.newack(sim, s);
        let needoutput = self.f.state == State::Established && ackno < self.t.maxseq;
        if self.f.first_data {
            self.t.opencwnd(self.b, &mut sim.w);
        }
        let state = self.f.state;
        let ourfinisacked = matches!(state, State::FinWait1 | State::FinWait2 | State::LastAck | State::Closing)
            && ackno >= self.t.curseq + self.f.iss;
        match state {
            State::FinWait1 if ourfinisacked => self.f.state = State::FinWait2,
            State::Closing if ourfinisacked => self.f.state = State::Closed,
            State::LastAck => {
                if ourfinisacked {
                    self.f.state = State::Closed;
                    return AckOutcome::Drop;
                }
                self.warn(sim, format!("received non-ACK (state:{})", state as u8));
            }
            _ => {}
        }
        AckOutcome::Continue(needoutput)
    }
}

/// How the ACK half of `recv` ends.
enum AckOutcome {
    Drop,
    DropAfterAck,
    /// On to the data, with whether output is needed.
    Continue(bool),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The receive queue releases the run that a hole-fill completes, no
    /// further, and reports the flags of what it released.
    #[test]
    fn reassembly_releases_the_in_sequence_run() {
        let mut rq = Reassembly::default();
        let mut nxt = 1;
        assert_eq!(rq.add(1461, 2921, 0, &mut nxt), 0);
        assert_eq!(rq.add(4381, 5841, TH_PUSH, &mut nxt), 0);
        assert_eq!(nxt, 1);
        // the hole at 1 fills: 1..2921 go, 4381.. waits behind 2921..4381
        assert_eq!(rq.add(1, 1461, TH_ACK, &mut nxt), TH_ACK);
        assert_eq!(nxt, 2921);
        assert_eq!(rq.add(2921, 4381, 0, &mut nxt), TH_PUSH);
        assert_eq!(nxt, 5841);
        assert!(rq.is_empty());
    }

    /// A segment that ends before the tail goes in before the first
    /// segment starting at or after its end.
    #[test]
    fn reassembly_inserts_in_order() {
        let mut rq = Reassembly::default();
        let mut nxt = 0;
        rq.add(300, 400, 0, &mut nxt);
        rq.add(100, 200, 0, &mut nxt);
        rq.add(200, 300, 0, &mut nxt);
        assert_eq!(rq.segs, vec![(100, 200, 0), (200, 300, 0), (300, 400, 0)]);
    }
}
