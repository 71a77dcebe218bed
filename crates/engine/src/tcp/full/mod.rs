//! Two-way TCP as ns-2 2.35 models it (tcp/tcp-full.cc, `FullTcpAgent`
//! and its Tahoe and NewReno variants): one agent at each end, byte
//! sequence numbers, the SYN and FIN exchanges of RFC 793's state
//! machine (without TIME_WAIT and RST), data in both directions with ACKs
//! carried on data, delayed ACKs on a periodic timer, Nagle's sender-side
//! silly-window avoidance, and ECN negotiated on the SYN.
//!
//! ns-2's FullTcpAgent derives from TcpAgent and uses its RTT estimator,
//! retransmission timer, `opencwnd`, `slowdown`, `ecn` and initial window:
//! here it is a flavour of `Tcp` (`Flavor::Full`), so those are the shared
//! `Sender`'s, in packets of `maxseg` bytes, as ns-2 counts its window.
//! This module holds what FullTcpAgent adds and overrides: the connection
//! state, the receive side (`rq.rs`, the reassembly queue), the sending
//! loop (`send_much`, `foutput`, `sendpacket`), `recv`, the timers and
//! the loss responses of each variant (`dupack_action`, `pack_action`,
//! `ack_action`, `timeout_action`).
//!
//! Field and function names follow ns-2's C++ members so that the code can
//! be checked line by line against tcp-full.cc; the Tcl names of the bound
//! variables are in the ns-2 layer (`ns2/class/fulltcp.rs`).

pub mod rq;

use super::*;
use crate::notice::Notice;
use rq::Reassembly;

/// The delayed-ACK timer (`TCP_TIMER_DELACK`).
pub const TIMER_DELACK: u8 = 3;

/// `PF_TIMEOUT`: the reason a timeout's sends carry (equal to the SACK
/// hole-fill reason, so ns-2 counts them as retransmissions).
const PF_TIMEOUT: i32 = 0x04;
const REASON_NORMAL: i32 = 0;
const REASON_SACK: i32 = 4;

// TCP header flags.
pub const TH_FIN: i32 = 0x01;
pub const TH_SYN: i32 = 0x02;
pub const TH_PUSH: i32 = 0x08;
pub const TH_ACK: i32 = 0x10;
pub const TH_ECE: i32 = 0x40;
pub const TH_CWR: i32 = 0x80;

// Internal flags (`flags_`).
const TF_ACKNOW: i32 = 0x0001;
const TF_DELACK: i32 = 0x0002;
const TF_NEEDFIN: i32 = 0x0010;
const TF_RCVD_TSTMP: i32 = 0x0100;
const TF_NEEDCLOSE: i32 = 0x10000;

/// The connection's state (RFC 793; TIME_WAIT is not modelled: an active
/// closer goes from FIN_WAIT_2 straight to CLOSED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum State {
    Closed = 0,
    Listen = 1,
    SynSent = 2,
    SynReceived = 3,
    Established = 4,
    CloseWait = 5,
    FinWait1 = 6,
    Closing = 7,
    LastAck = 8,
    FinWait2 = 9,
}

impl State {
    /// `TCPS_HAVERCVDFIN`.
    fn have_received_fin(self) -> bool {
        matches!(self, State::Closing | State::Closed | State::CloseWait)
    }

    /// `TCPS_HAVERCVDSYN`.
    fn have_received_syn(self) -> bool {
        self >= State::SynReceived
    }

    /// The header flags the state puts on every segment (`tcp_outflags`).
    fn outflags(self) -> i32 {
        match self {
            State::Closed => TH_ACK,
            State::Listen => 0,
            State::SynSent => TH_SYN,
            State::SynReceived => TH_SYN | TH_ACK,
            State::Established | State::CloseWait | State::FinWait2 => TH_ACK,
            State::FinWait1 | State::Closing | State::LastAck => TH_FIN | TH_ACK,
        }
    }
}

/// The loss-recovery variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Reno-style fast recovery (window inflation on further duplicates).
    Reno,
    /// Slow start from one segment after a fast retransmit.
    Tahoe,
    /// Partial ACKs retransmit and keep recovery going, with the burst
    /// limited to `recov_maxburst` meanwhile.
    NewReno,
    /// SACK: the receive side reports its out-of-order ranges, the sender
    /// keeps them in a scoreboard and fills the holes in recovery under
    /// pipe control.
    Sack,
}

/// The SACK variant's parameters and sender scoreboard.
#[derive(Clone, Debug)]
pub struct SackState {
    /// Clear the scoreboard on a retransmission timeout.
    pub clear_on_timeout: bool,
    /// Header bytes of the SACK option, and of each block in it.
    pub sack_option_size: i32,
    pub sack_block_size: i32,
    /// SACK blocks sent at most.
    pub max_sack_blocks: i32,
    /// Hole-fill thresholds: ranges above the hole, and their bytes, and
    /// which of the two count (0: none, 1: ranges, 2: bytes, 3: either,
    /// 4: both).
    pub sack_rtx_cthresh: i32,
    pub sack_rtx_bthresh: i32,
    pub sack_rtx_threshmode: i32,
    /// The scoreboard: the ranges the peer reported.
    pub sq: Reassembly,
    /// Its lowest byte (the scoreboard's "next expected").
    pub sack_min: i32,
    /// The next hole to fill.
    pub h_seqno: i32,
}

impl Default for SackState {
    /// ns-2's constructor values.
    fn default() -> Self {
        SackState {
            clear_on_timeout: true,
            sack_option_size: 2,
            sack_block_size: 8,
            max_sack_blocks: 3,
            sack_rtx_cthresh: 1,
            sack_rtx_bthresh: 1,
            sack_rtx_threshmode: 1,
            sq: Reassembly::default(),
            sack_min: -1,
            h_seqno: -1,
        }
    }
}

/// What the two-way TCP adds to the shared sender: parameters, connection
/// state, the receive side and the delayed-ACK timer.
#[derive(Clone, Debug)]
pub struct FullState {
    pub variant: Variant,
    pub delack_timer: u32,

    // ---- parameters ---------------------------------------------------------
    /// ACK every this many full segments received.
    pub segs_per_ack: i32,
    /// Below this many bytes received, ACK every segment.
    pub spa_thresh: i32,
    /// Maximum segment size, bytes (the packet size is this plus headers).
    pub maxseg: i32,
    /// Duplicate ACKs that start a fast retransmit.
    pub tcprexmtthresh: i32,
    /// Initial send sequence number.
    pub iss: i32,
    /// No Nagle: send a short segment at once.
    pub nodelay: bool,
    pub data_on_syn: bool,
    /// A duplicate data segment's ACK does not count as a duplicate ACK.
    pub dupseg_fix: bool,
    /// An ACK with data below the highest ACK leaves fast recovery.
    pub dupack_reset: bool,
    /// Send a FIN once the application's data has all been sent.
    pub close_on_empty: bool,
    /// Tell the front end when the send buffer empties.
    pub signal_on_empty: bool,
    /// The delayed-ACK timer's period, seconds.
    pub delack_interval: f64,
    /// Header bytes of the timestamp option (its own, not the one-way
    /// sender's).
    pub ts_option_size: i32,
    /// Inflate the window by one segment per further duplicate ACK.
    pub reno_fastrecov: bool,
    /// Send what the pipe estimate allows rather than the window.
    pub pipectrl: bool,
    /// Open the window on a partial ACK.
    pub open_cwnd_on_pack: bool,
    /// Allow half-closed connections (no close after the peer's FIN).
    pub halfclose: bool,
    /// No header prediction.
    pub nopredict: bool,
    pub ecn_syn: bool,
    pub ecn_syn_wait: i32,
    pub debug: bool,
    /// NewReno: the burst limit during recovery.
    pub recov_maxburst: i32,

    // ---- state --------------------------------------------------------------
    pub state: State,
    pub last_state: State,
    pub flags: i32,
    pub closed: i32,
    pub pipe: i32,
    pub rtxbytes: i32,
    pub fastrecov: bool,
    pub last_send_time: f64,
    pub infinite_send: bool,
    pub irs: i32,
    pub recent_ce: bool,
    pub rcv_nxt: i32,
    pub rq: Reassembly,
    pub last_ack_sent: i32,
    pub recent: f64,
    pub recent_age: f64,
    pub ecn_syn_next: bool,
    /// NewReno: `maxburst` saved during recovery (-1: not in recovery).
    pub save_maxburst: i32,
    /// The SACK variant's own (its scoreboard).
    pub sack: Option<Box<SackState>>,
}

impl FullState {
    /// ns-2's constructor values; the class defaults are set on top.
    pub fn new(variant: Variant, sim: &mut Sim, owner: u32) -> FullState {
        FullState {
            variant,
            delack_timer: sim.w.s.new_timer(owner, TIMER_DELACK),
            segs_per_ack: 1,
            spa_thresh: 0,
            maxseg: 536,
            tcprexmtthresh: 3,
            iss: 0,
            nodelay: false,
            data_on_syn: false,
            dupseg_fix: true,
            dupack_reset: false,
            close_on_empty: false,
            signal_on_empty: false,
            delack_interval: 0.1,
            ts_option_size: 10,
            reno_fastrecov: true,
            pipectrl: false,
            open_cwnd_on_pack: true,
            halfclose: false,
            nopredict: false,
            ecn_syn: false,
            ecn_syn_wait: 0,
            debug: false,
            recov_maxburst: 2,
            state: State::Closed,
            last_state: State::Closed,
            flags: 0,
            closed: 0,
            pipe: -1,
            rtxbytes: 0,
            fastrecov: false,
            last_send_time: -1.0,
            infinite_send: false,
            irs: -1,
            recent_ce: false,
            rcv_nxt: 0,
            rq: Reassembly::default(),
            last_ack_sent: -1,
            recent: 0.0,
            recent_age: 0.0,
            ecn_syn_next: false,
            save_maxburst: -1,
            sack: if variant == Variant::Sack { Some(Box::default()) } else { None },
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
    ts_echo: f64,
    no_ts: bool,
    ecnecho: bool,
    ce: bool,
    ect: bool,
    cwr: bool,
    sa_len: u8,
    sa: [(i32, i32); 4],
    fid: i32,
}

impl Seg {
    fn of(sim: &Sim, p: PktId) -> Seg {
        let pk = sim.w.pool.get(p);
        Seg {
            seqno: pk.seqno,
            ackno: pk.ackno,
            flags: pk.tcp_flags,
            size: pk.size,
            hlen: pk.hlen,
            ts: pk.ts,
            ts_echo: pk.ts_echo,
            no_ts: pk.no_ts,
            ecnecho: pk.ecn,
            ce: pk.ecn_to_echo,
            ect: pk.ecn_capable,
            cwr: pk.cong_action,
            sa_len: pk.sa_len,
            sa: pk.sa,
            fid: pk.fid,
        }
    }
}

/// One agent's two halves, borrowed apart.
pub struct Full<'a> {
    pub t: &'a mut Sender,
    pub f: &'a mut FullState,
    pub b: &'a mut AgentBase,
}

impl Full<'_> {
    fn now(sim: &Sim) -> f64 {
        sim.w.s.now
    }

    fn set_state(&mut self, s: State) {
        self.f.state = s;
    }

    // ---- user interface ---------------------------------------------------

    /// `advanceby(np)`: `np` segments more to send.
    pub fn advanceby(&mut self, sim: &mut Sim, mut np: i32) {
        if np >= 0x10000000 {
            np /= self.f.maxseg;
        }
        let nb = np.wrapping_mul(self.f.maxseg);
        self.advance_bytes(sim, nb);
    }

    /// `advance_bytes(nb)`: `nb` bytes more to send; opens the connection
    /// if it is closed or listening.
    pub fn advance_bytes(&mut self, sim: &mut Sim, nb: i32) {
        match self.f.state {
            State::Closed | State::Listen => {
                self.reset(sim);
                let c = self.f.iss + nb;
                self.t.seti(self.b, &mut sim.w, Tv::Curseq, c);
                self.connect(sim);
            }
            State::Established | State::SynSent | State::SynReceived => {
                if self.t.curseq < self.f.iss {
                    let c = self.f.iss;
                    self.t.seti(self.b, &mut sim.w, Tv::Curseq, c);
                }
                self.t.inc(self.b, &mut sim.w, Tv::Curseq, nb);
            }
            _ => {}
        }
        if self.f.state == State::Established {
            let mb = self.t.maxburst;
            self.send_much(sim, false, REASON_NORMAL, mb);
        }
    }

    /// `sendmsg(nbytes, flags)`: -1 sends forever; `eof` closes once the
    /// data is sent, `signal` tells the front end when it is.
    pub fn sendmsg(&mut self, sim: &mut Sim, nbytes: i32, eof: bool, signal: bool) {
        if eof {
            self.f.close_on_empty = true;
        }
        if signal {
            self.f.signal_on_empty = true;
        }
        if nbytes == -1 {
            self.f.infinite_send = true;
            self.advance_bytes(sim, 0);
        } else {
            self.advance_bytes(sim, nbytes);
        }
    }

    /// Active open.
    fn connect(&mut self, sim: &mut Sim) {
        self.set_state(State::SynSent);
        let iss = self.f.iss;
        let n = self.foutput(sim, iss, REASON_NORMAL);
        self.sent(sim, iss, n);
    }

    /// Passive open: wait for a SYN; this end's packets are typed as ACKs.
    pub fn listen(&mut self, ack_type: crate::packet::PacketType) {
        self.set_state(State::Listen);
        self.b.ptype = ack_type;
    }

    /// `usrclosed`: the application closes.
    pub fn usrclosed(&mut self, sim: &mut Sim) {
        let c = self.t.maxseq - 1;
        self.t.seti(self.b, &mut sim.w, Tv::Curseq, c);
        self.f.infinite_send = false;
        let mb = self.t.maxburst;
        match self.f.state {
            State::Closed | State::Listen => {
                self.cancel_timers(&mut sim.w);
                self.set_state(State::Closed);
                self.finish(sim);
            }
            State::SynSent | State::LastAck => {
                if self.f.state == State::SynSent {
                    self.set_state(State::Closed);
                }
                self.f.flags |= TF_NEEDFIN;
                self.send_much(sim, true, REASON_NORMAL, mb);
            }
            State::SynReceived | State::Established => {
                self.set_state(State::FinWait1);
                self.f.flags |= TF_NEEDFIN;
                self.send_much(sim, true, REASON_NORMAL, mb);
            }
            State::CloseWait => {
                self.set_state(State::LastAck);
                self.f.flags |= TF_NEEDFIN;
                self.send_much(sim, true, REASON_NORMAL, mb);
            }
            State::FinWait1 | State::FinWait2 | State::Closing => {}
        }
    }

    fn finish(&mut self, sim: &mut Sim) {
        sim.w.notify(Notice::SenderDone { agent: self.b.id });
    }

    fn bufferempty(&mut self, sim: &mut Sim) {
        self.f.signal_on_empty = false;
        sim.w.notify(Notice::SendBufferEmpty { agent: self.b.id });
    }

    fn cancel_timers(&mut self, w: &mut World) {
        self.t.cancel_timers(w);
        w.s.timer_cancel(self.f.delack_timer);
    }

    /// `reset`: back to a known point (the state stays: a listener
    /// listens on).
    pub fn reset(&mut self, sim: &mut Sim) {
        if let Some(k) = self.f.sack.as_mut() {
            k.sq.clear();
            k.sack_min = -1;
            k.h_seqno = -1;
        }
        self.cancel_timers(&mut sim.w);
        // Two-way TCP always models the SYN exchange (its
        // `set_initial_window`).
        self.t.syn = true;
        self.t.reset(self.b, sim);
        let f = &mut *self.f;
        f.rq.clear();
        let w = &mut sim.w;
        self.t.rtt_init(self.b, w);
        f.last_ack_sent = -1;
        f.rcv_nxt = -1;
        f.pipe = 0;
        f.rtxbytes = 0;
        f.flags = 0;
        self.t.seti(self.b, w, Tv::TSeqno, f.iss);
        self.t.seti(self.b, w, Tv::Maxseq, -1);
        f.irs = -1;
        f.last_send_time = -1.0;
        if self.t.ts_option {
            f.recent = 0.0;
            f.recent_age = 0.0;
        } else {
            f.recent = -1.0;
            f.recent_age = -1.0;
        }
        f.fastrecov = false;
        f.closed = 0;
        f.close_on_empty = false;
        f.ecn_syn_next = f.ecn_syn;
    }

    // ---- sending ------------------------------------------------------------

    fn headersize(&self, w: &mut World) -> i32 {
        let mut total = self.t.tcpip_base_hdr_size;
        if total < 1 {
            w.warn(crate::notice::Warning::HeaderTooSmall { agent: self.b.id, bytes: total });
        }
        if self.t.ts_option {
            total += self.f.ts_option_size;
        }
        total
    }

    fn outflags(&self) -> i32 {
        self.f.state.outflags()
    }

    /// `sent(seq, amt)`.
    fn sent(&mut self, sim: &mut Sim, seq: i32, amt: i32) {
        if let Some(k) = self.f.sack.as_mut() {
            if seq == k.h_seqno {
                k.h_seqno += amt;
            }
        }
        if seq == self.t.t_seqno {
            self.t.inc(self.b, &mut sim.w, Tv::TSeqno, amt);
        }
        self.f.pipe += amt;
        if seq < self.t.maxseq {
            self.f.rtxbytes += amt;
        }
    }

    /// `send_allowed(seq)`: is `seq` inside the window?
    fn send_allowed(&self, seq: i32) -> bool {
        if self.f.sack.is_some() && self.f.pipectrl {
            // SACK under pipe control: the advertised window, no data past
            // what the application gave outside ESTABLISHED, and the pipe.
            let topawin = self.t.highest_ack + self.t.wnd as i32 * self.f.maxseg;
            if seq >= topawin {
                return false;
            }
            if self.f.state != State::Established && seq > self.t.curseq {
                return false;
            }
            let cwin = self.t.cwnd as i32 * self.f.maxseg;
            return self.f.pipe < cwin;
        }
        let win = self.t.window() * self.f.maxseg;
        let mut topwin = self.t.curseq;
        if topwin > self.t.highest_ack + win || self.f.infinite_send {
            topwin = self.t.highest_ack + win;
        }
        seq < topwin
    }

    /// `send_much`: send what the window allows (`force`: at least one
    /// segment, an ACK if nothing else).
    pub fn send_much(&mut self, sim: &mut Sim, mut force: bool, reason: i32, maxburst: i32) {
        let mut npackets = 0;
        if !force && self.t.delsnd_pending(&sim.w) {
            return;
        }
        loop {
            let seq = self.nxt_tseq();
            if !force && !self.send_allowed(seq) {
                break;
            }
            if !force && self.t.overhead != 0.0 && !self.t.delsnd_pending(&sim.w) {
                self.t.delsnd_resched(&mut sim.w);
                return;
            }
            let mut amt = self.foutput(sim, seq, reason);
            if amt <= 0 {
                break;
            }
            if self.outflags() & TH_FIN != 0 {
                amt -= 1;
            }
            self.sent(sim, seq, amt);
            force = false;
            if self.outflags() & (TH_SYN | TH_FIN) != 0 {
                break;
            }
            if maxburst != 0 {
                npackets += 1;
                if npackets >= maxburst {
                    break;
                }
            }
        }
    }

    /// `nxt_tseq`: the next segment to send; in SACK recovery the next
    /// hole the thresholds allow filling.
    fn nxt_tseq(&mut self) -> i32 {
        let t_seqno = self.t.t_seqno;
        let in_recovery = self.t.highest_ack < self.t.recover;
        let maxseg = self.f.maxseg;
        let Some(k) = self.f.sack.as_mut() else { return t_seqno };
        if !in_recovery {
            return t_seqno;
        }
        let mut seq = k.h_seqno;
        loop {
            let (hole, fcnt, fbytes) = k.sq.next_hole(seq);
            seq = hole;
            if seq <= 0 {
                break;
            }
            let (c, b) = (fcnt >= k.sack_rtx_cthresh, fbytes >= k.sack_rtx_bthresh);
            let fill = match k.sack_rtx_threshmode {
                0 => true,
                1 => c,
                2 => b,
                3 => c || b,
                4 => c && b,
                _ => false,
            };
            if fill {
                if seq > k.h_seqno {
                    k.h_seqno = seq;
                }
                return seq;
            } else if fcnt <= 0 {
                break;
            } else {
                seq += maxseg;
            }
        }
        t_seqno
    }

    /// `idle_restart`: idle for longer than the RTO since the last data sent?
    fn idle_restart(&self, now: f64) -> bool {
        if self.f.last_send_time < 0.0 {
            return false;
        }
        let mut tao = now - self.f.last_send_time;
        if !self.t.ts_option {
            let tick = self.t.tcp_tick;
            let tickoff = (self.f.last_send_time + self.t.boot_time) % tick;
            tao = ((tao + tickoff) / tick) as i32 as f64 * tick;
        }
        tao > self.t.t_rtxcur
    }

    /// `need_send`: owe the peer an ACK?
    fn need_send(&self) -> bool {
        if self.f.flags & TF_ACKNOW != 0 {
            return true;
        }
        let spa = if self.f.spa_thresh > 0 && (self.f.rcv_nxt - self.f.irs) < self.f.spa_thresh { 1 } else { self.f.segs_per_ack };
        (self.f.rcv_nxt - self.f.last_ack_sent) >= spa * self.f.maxseg
    }

    /// `foutput(seqno, reason)`: send the segment at `seqno` if there is a
    /// reason to (data the window and Nagle allow, an ACK owed, a SYN or
    /// FIN); returns the sequence space it used (data, SYN, FIN).
    fn foutput(&mut self, sim: &mut Sim, seqno: i32, reason: i32) -> i32 {
        let hs = self.headersize(&mut sim.w);
        if self.f.maxseg == 0 {
            self.f.maxseg = self.b.size - hs;
        } else {
            self.b.size = self.f.maxseg + hs;
        }
        let maxseg = self.f.maxseg;
        let is_retransmit = seqno < self.t.maxseq;
        let quiet = self.t.highest_ack == self.t.maxseq;
        let mut pflags = self.outflags();
        let mut syn = seqno == self.f.iss;
        let mut emptying_buffer = false;
        let mut buffered_bytes = if self.f.infinite_send { TCP_MAXSEQ } else { self.t.curseq - self.t.highest_ack + 1 };
        let win = self.t.window() * maxseg;
        let mut off = seqno - self.t.highest_ack;
        if self.t.highest_ack < 0 {
            if !self.f.infinite_send {
                buffered_bytes = self.t.curseq - self.f.iss;
            }
            off = seqno - self.f.iss;
        }
        let mut datalen = if syn && !self.f.data_on_syn {
            0
        } else if self.f.pipectrl {
            buffered_bytes - off
        } else {
            buffered_bytes.min(win) - off
        };
        if self.f.signal_on_empty && buffered_bytes == 0 && !syn {
            self.bufferempty(sim);
        }
        if datalen < 0 {
            datalen = 0;
        } else if datalen > maxseg {
            datalen = maxseg;
        }
        if self.t.slow_start_restart && quiet && datalen > 0 && self.idle_restart(Self::now(sim)) {
            self.t.slowdown(self.b, &mut sim.w, CLOSE_CWND_INIT);
        }
        if !self.f.infinite_send && (seqno + datalen > self.t.curseq || (syn && datalen == 0)) {
            emptying_buffer = true;
            if !syn {
                self.b.idle(sim);
                if self.f.close_on_empty && quiet {
                    self.f.flags |= TF_NEEDCLOSE;
                }
            }
            pflags |= TH_PUSH;
        } else {
            // Not emptying the buffer, so no FIN.
            pflags &= !TH_FIN;
        }
        if self.f.infinite_send && syn && datalen == 0 {
            pflags |= TH_PUSH;
        }
        // Sender silly-window avoidance (Nagle), then the other reasons to
        // send.
        let send = (datalen > 0
            && (datalen == maxseg
                || ((quiet || self.f.nodelay) && emptying_buffer)
                || is_retransmit
                || datalen as f64 >= (self.t.wnd * maxseg as f64) / 2.0))
            || self.need_send()
            || self.f.flags & (TF_ACKNOW | TF_NEEDCLOSE) != 0
            || pflags & (TH_SYN | TH_FIN) != 0;
        if !send {
            return 0;
        }
        syn = pflags & TH_SYN != 0;
        let mut fin = pflags & TH_FIN != 0;
        let ecn = self.t.ecn;
        if ecn && syn && pflags & TH_ACK == 0 {
            pflags |= TH_ECE | TH_CWR;
        }
        if ecn && syn && pflags & TH_ACK != 0 {
            pflags |= TH_ECE;
            pflags &= !TH_CWR;
        } else if ecn && self.t.ect && self.t.cong_action && (!is_retransmit || self.t.set_cwr_on_retransmit) {
            pflags |= TH_CWR;
            self.t.cong_action = false;
        }
        if datalen > 0 && self.t.cong_action && !is_retransmit {
            pflags |= TH_CWR;
        }
        if ecn && self.t.ect && self.f.recent_ce {
            pflags |= TH_ECE;
        }
        // A FIN on the last data segment when closing on empty.
        if self.f.flags & TF_NEEDCLOSE != 0 {
            self.f.flags &= !TF_NEEDCLOSE;
            if self.f.state <= State::Established && self.f.state != State::Closed {
                pflags |= TH_FIN;
                fin = true;
                self.set_state(State::FinWait1);
            }
        }
        let rcv_nxt = self.f.rcv_nxt;
        self.sendpacket(sim, seqno, rcv_nxt, pflags, datalen, reason);
        self.f.flags &= !(TF_ACKNOW | TF_DELACK);
        let reliable = datalen + syn as i32 + fin as i32;
        if self.t.cong_action && reliable > 0 && !is_retransmit {
            self.t.cong_action = false;
        }
        let highest = seqno + reliable;
        if highest > self.t.maxseq {
            self.t.seti(self.b, &mut sim.w, Tv::Maxseq, highest);
            if !self.t.ts_option && !self.t.rtt_active {
                self.t.rtt_active = true;
                self.t.rtt_seq = seqno;
                self.t.rtt_ts = Self::now(sim);
            }
        }
        if !self.t.rtx_pending && reliable != 0 {
            self.t.set_rtx_timer(&mut sim.w);
        }
        reliable
    }

    /// `sendpacket`: build the segment and send it.
    fn sendpacket(&mut self, sim: &mut Sim, seqno: i32, ackno: i32, mut pflags: i32, datalen: i32, reason: i32) {
        let p = self.b.allocpkt(sim);
        let now = Self::now(sim);
        let ts_option = self.t.ts_option;
        let mut hlen = self.t.tcpip_base_hdr_size;
        let ecn = self.t.ecn;
        let ect = self.t.ect;
        {
            let pk = sim.w.pool.get_mut(p);
            pk.seqno = seqno;
            pk.ackno = ackno;
            pk.tcp_flags = pflags;
            pk.reason |= reason;
            pk.sa_len = 0;
            if ts_option {
                pk.ts = now;
                pk.ts_echo = self.f.recent;
                hlen += self.f.ts_option_size;
            } else {
                pk.ts = -1.0;
                pk.ts_echo = -1.0;
            }
            if let Some(k) = self.f.sack.as_ref() {
                if !self.f.rq.is_empty() {
                    let max = k.max_sack_blocks.max(0) as usize;
                    let nblk = self.f.rq.sack_blocks(max, &mut pk.sa);
                    pk.sa_len = nblk as u8;
                    hlen += nblk as i32 * k.sack_block_size + k.sack_option_size;
                }
            }
            pk.hlen = hlen;
            pk.ecn_capable = if datalen > 0 && ecn {
                ect
            } else if ecn && self.f.ecn_syn && self.f.ecn_syn_next && pflags & TH_SYN != 0 && pflags & TH_ACK != 0 {
                ect
            } else {
                false
            };
            // (the header's flags were set above: ECE added now reaches
            // only the ECN-Echo bit, as in ns-2)
            if ecn && ect && self.f.recent_ce {
                pflags |= TH_ECE;
            }
            pk.ecn = pflags & TH_ECE != 0;
            pk.cong_action = pflags & TH_CWR != 0;
            pk.size = datalen + hlen;
        }
        let w = &mut sim.w;
        if datalen <= 0 {
            self.t.inc(self.b, w, Tv::Nackpack, 1);
        } else {
            self.t.inc(self.b, w, Tv::Ndatapack, 1);
            self.t.inc(self.b, w, Tv::Ndatabytes, datalen);
            self.f.last_send_time = now;
        }
        if reason == REASON_TIMEOUT || reason == REASON_DUPACK || reason == REASON_SACK {
            self.t.inc(self.b, w, Tv::Nrexmitpack, 1);
            self.t.inc(self.b, w, Tv::Nrexmitbytes, datalen);
        }
        self.f.last_ack_sent = ackno;
        if self.t.xcp.is_some() {
            // (XCP's `sendpacket` writes its header first: nothing above
            // changes what it reads)
            self.t.xcp_send(self.b, &mut sim.w, p, datalen);
        }
        self.b.send(sim, p);
    }

    /// FullTcp's `reset_rtx_timer`: back off unless nothing is
    /// outstanding, rearm, stop timing.
    fn reset_rtx_timer(&mut self, w: &mut World) {
        if !(self.t.highest_ack == self.t.maxseq && self.t.restart_bugfix) {
            self.t.rtt_backoff(self.b, w);
        }
        self.t.set_rtx_timer(w);
        self.t.rtt_active = false;
    }

    // ---- receiving ------------------------------------------------------------

    /// `newack`: an ACK (not necessarily advancing): timers, the highest
    /// ACK, the RTT sample.
    fn newack(&mut self, sim: &mut Sim, s: &Seg) {
        let w = &mut sim.w;
        let ackno = s.ackno;
        let progress = ackno > self.t.highest_ack;
        if ackno == self.t.maxseq {
            self.t.cancel_rtx_timer(w);
        } else if progress {
            self.t.set_rtx_timer(w);
        }
        if progress {
            self.t.seti(self.b, w, Tv::Ack, ackno);
        }
        if self.t.t_seqno < self.t.highest_ack {
            let h = self.t.highest_ack;
            self.t.seti(self.b, w, Tv::TSeqno, h);
        }
        if !s.no_ts {
            let now = w.s.now;
            if self.t.ts_option {
                self.f.recent_age = now;
                self.f.recent = s.ts;
                if self.t.xcp.is_some() {
                    self.t.xcp_rtt_update(now, now - s.ts_echo);
                }
                self.t.rtt_update(self.b, w, now - s.ts_echo);
                if self.t.ts_reset_rto && (!self.t.ect || !self.t.ecn_backoff || !s.ecnecho) {
                    self.t.seti(self.b, w, Tv::Backoff, 1);
                }
            } else if self.t.rtt_active && ackno > self.t.rtt_seq {
                self.t.rtt_active = false;
                let tao = now - self.t.rtt_ts;
                if self.t.xcp.is_some() {
                    self.t.xcp_rtt_update(now, tao);
                }
                self.t.rtt_update(self.b, w, tao);
            }
            if !self.t.ect || !self.t.ecn_backoff || !s.ecnecho {
                self.t.seti(self.b, w, Tv::Backoff, 1);
                self.t.ecn_backoff = false;
            }
        }
    }

    /// `predict_ok`: the header-prediction case (in-order data or a pure
    /// ACK, nothing unusual).
    fn predict_ok(&self, s: &Seg) -> bool {
        let f = &*self.f;
        f.state == State::Established
            && s.flags & (TH_SYN | TH_FIN | TH_ACK) == TH_ACK
            && f.flags & TF_NEEDFIN == 0
            && (!self.t.ts_option || s.no_ts || s.ts >= f.recent)
            && s.seqno == f.rcv_nxt
            && self.t.t_seqno == self.t.maxseq
            && (!self.t.ecn || !s.ecnecho)
            && s.sa_len == 0
    }

    /// `fast_retransmit(seq)`.
    fn fast_retransmit(&mut self, sim: &mut Sim, seq: i32) -> i32 {
        self.t.trace_event(self.b, &mut sim.w, crate::trace::TcpEvent::FastRetx);
        self.t.recover = self.t.maxseq;
        self.t.last_cwnd_action = CWND_ACTION_DUPACK;
        self.foutput(sim, seq, REASON_DUPACK)
    }

    /// `dooptions`: the peer's timestamp on a SYN.
    fn dooptions(&mut self, sim: &mut Sim, s: &Seg) {
        if self.t.ts_option && !s.no_ts {
            if s.ts < 0.0 {
                // ns-2 warns that the peer does not use timestamps.
            } else if s.flags & TH_SYN != 0 {
                self.f.flags |= TF_RCVD_TSTMP;
                self.f.recent = s.ts;
                self.f.recent_age = Self::now(sim);
            }
        }
    }

    /// `reass`: queue a segment; returns the flags of the data it makes
    /// in order (0 if it fills no hole).
    fn reass(&mut self, seqno: i32, size: i32, hlen: i32, tiflags: i32) -> i32 {
        let start = seqno;
        let end = start + size - hlen;
        let fillshole = start == self.f.rcv_nxt;
        let f = &mut *self.f;
        let mut flags = f.rq.add(start, end, tiflags, &mut f.rcv_nxt);
        if !f.state.have_received_syn() || !fillshole {
            return 0;
        }
        if f.state == State::SynReceived && end > start {
            return 0;
        }
        flags |= f.rq.clear_to(f.rcv_nxt);
        flags
    }

    /// `pack`: a partial ACK during fast recovery?
    fn pack(&self, ackno: i32) -> bool {
        self.f.fastrecov && ackno >= self.t.highest_ack && ackno < self.t.recover
    }

    /// The base `pack_action` (and Reno's `ack_action`): leave fast
    /// recovery, deflating the window.
    fn base_pack_action(&mut self, w: &mut World) {
        if self.f.reno_fastrecov && self.f.fastrecov && self.t.cwnd > self.t.ssthresh as f64 {
            let c = self.t.ssthresh as f64;
            self.t.set_cwnd(self.b, w, c);
        }
        self.f.fastrecov = false;
        self.t.seti(self.b, w, Tv::Dupacks, 0);
    }

    /// SACK: the scoreboard below the highest ACK goes.
    fn sack_clear_acked(&mut self) {
        let h = self.t.highest_ack;
        let k = self.f.sack.as_mut().expect("SACK state");
        if !k.sq.is_empty() && k.sack_min < h {
            k.sack_min = h;
            k.sq.clear_to(h);
        }
    }

    /// SACK: the next hole is at least the highest ACK.
    fn sack_hole_at_least_acked(&mut self) {
        let h = self.t.highest_ack;
        let k = self.f.sack.as_mut().expect("SACK state");
        if k.h_seqno < h {
            k.h_seqno = h;
        }
    }

    fn pack_action(&mut self, sim: &mut Sim) {
        match self.f.variant {
            Variant::Reno | Variant::Tahoe => self.base_pack_action(&mut sim.w),
            Variant::Sack => {
                self.sack_clear_acked();
                self.f.pipe -= self.f.maxseg;
                self.sack_hole_at_least_acked();
            }
            Variant::NewReno => {
                let h = self.t.highest_ack;
                self.fast_retransmit(sim, h);
                let c = self.t.ssthresh as f64;
                self.t.set_cwnd(self.b, &mut sim.w, c);
                if self.f.save_maxburst < 0 {
                    self.f.save_maxburst = self.t.maxburst;
                    self.t.maxburst = self.f.recov_maxburst;
                }
            }
        }
    }

    fn ack_action(&mut self, sim: &mut Sim) {
        if self.f.variant == Variant::Sack {
            self.f.fastrecov = false;
            self.f.pipectrl = false;
            self.sack_clear_acked();
            self.t.seti(self.b, &mut sim.w, Tv::Dupacks, 0);
            self.sack_hole_at_least_acked();
            return;
        }
        if self.f.variant == Variant::NewReno && self.f.save_maxburst >= 0 {
            self.t.maxburst = self.f.save_maxburst;
            self.f.save_maxburst = -1;
        }
        self.base_pack_action(&mut sim.w);
    }

    /// `dupack_action`: the duplicate-ACK threshold reached.
    fn dupack_action(&mut self, sim: &mut Sim) {
        let recovered = self.t.highest_ack > self.t.recover;
        self.f.fastrecov = true;
        self.f.rtxbytes = 0;
        if self.f.variant == Variant::Sack {
            return self.sack_dupack_action(sim, recovered);
        }
        let t = &*self.t;
        if self.f.variant == Variant::Tahoe {
            if !(recovered || (!t.bug_fix && !t.ecn) || t.highest_ack == 0) {
                if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
                    self.t.last_cwnd_action = CWND_ACTION_DUPACK;
                    self.t.slowdown(self.b, &mut sim.w, CLOSE_CWND_ONE);
                    self.t.set_rtx_timer(&mut sim.w);
                    self.t.rtt_active = false;
                    let h = self.t.highest_ack;
                    self.t.seti(self.b, &mut sim.w, Tv::TSeqno, h);
                    return;
                }
                if self.t.bug_fix {
                    return;
                }
            }
            self.t.trace_event(self.b, &mut sim.w, crate::trace::TcpEvent::FastRetx);
            self.t.recover = self.t.maxseq;
            self.t.last_cwnd_action = CWND_ACTION_DUPACK;
            self.t.slowdown(self.b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE);
            self.t.set_rtx_timer(&mut sim.w);
            self.t.rtt_active = false;
            let h = self.t.highest_ack;
            self.t.seti(self.b, &mut sim.w, Tv::TSeqno, h);
            self.send_much(sim, false, REASON_NORMAL, 0);
            return;
        }
        if !(recovered || (!t.bug_fix && !t.ecn) || t.last_cwnd_action == CWND_ACTION_DUPACK || t.highest_ack == 0) {
            if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
                self.t.slowdown(self.b, &mut sim.w, CLOSE_CWND_HALF);
                self.t.cancel_rtx_timer(&mut sim.w);
                self.t.rtt_active = false;
                let h = self.t.highest_ack;
                self.fast_retransmit(sim, h);
                return;
            }
            if self.t.bug_fix {
                return;
            }
        }
        self.t.slowdown(self.b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
        self.t.cancel_rtx_timer(&mut sim.w);
        self.t.rtt_active = false;
        self.t.recover = self.t.maxseq;
        let h = self.t.highest_ack;
        self.fast_retransmit(sim, h);
        let c = self.t.ssthresh as f64 + self.t.dupacks as f64;
        self.t.set_cwnd(self.b, &mut sim.w, c);
    }

    /// SACK's `dupack_action`: fast recovery under pipe control.
    fn sack_dupack_action(&mut self, sim: &mut Sim, recovered: bool) {
        let total = self.f.sack.as_ref().expect("SACK state").sq.total();
        self.f.pipe = self.t.maxseq - self.t.highest_ack - total;
        let mb = self.t.maxburst;
        if !(recovered || (!self.t.bug_fix && !self.t.ecn)) {
            if self.t.ecn && self.t.last_cwnd_action == CWND_ACTION_ECN {
                // An ECN cut already this window: retransmit, no second cut.
                self.t.last_cwnd_action = CWND_ACTION_DUPACK;
                self.t.cancel_rtx_timer(&mut sim.w);
                self.t.rtt_active = false;
                let h = self.t.highest_ack;
                let amt = self.fast_retransmit(sim, h);
                self.f.pipectrl = true;
                self.f.sack.as_mut().expect("SACK state").h_seqno = h + amt;
                self.send_much(sim, false, REASON_DUPACK, mb);
                return;
            }
            if self.t.bug_fix {
                return;
            }
        }
        self.t.trace_event(self.b, &mut sim.w, crate::trace::TcpEvent::FastRecovery);
        self.t.slowdown(self.b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
        self.t.cancel_rtx_timer(&mut sim.w);
        self.t.rtt_active = false;
        self.f.pipectrl = true;
        self.t.recover = self.t.maxseq;
        let h = self.t.highest_ack;
        let amt = self.fast_retransmit(sim, h);
        self.f.sack.as_mut().expect("SACK state").h_seqno = h + amt;
        self.send_much(sim, false, REASON_DUPACK, mb);
    }

    /// SACK's `process_sack`: the peer's blocks into the scoreboard.
    fn process_sack(&mut self, s: &Seg) {
        let Some(k) = self.f.sack.as_mut() else {
            // (ns-2 reports a SACK to an agent without SACK)
            return;
        };
        if k.max_sack_blocks <= 0 {
            return;
        }
        for &(left, right) in s.sa.iter().take(s.sa_len as usize) {
            if s.flags & TH_FIN == 0 && left >= right {
                // (ns-2 reports the illegal block and skips it)
                continue;
            }
            k.sq.add(left, right, 0, &mut k.sack_min);
        }
    }

    /// `timeout_action`: the retransmission timer expired.
    fn timeout_action(&mut self, sim: &mut Sim) {
        let w = &mut sim.w;
        self.t.recover = self.t.maxseq;
        if self.t.cwnd < 1.0 {
            self.t.set_cwnd(self.b, w, 1.0);
        }
        if self.t.last_cwnd_action == CWND_ACTION_ECN {
            self.t.slowdown(self.b, w, CLOSE_CWND_ONE);
        } else {
            self.t.slowdown(self.b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
            self.t.last_cwnd_action = CWND_ACTION_TIMEOUT;
        }
        self.reset_rtx_timer(w);
        let s = if self.t.highest_ack < 0 { self.f.iss } else { self.t.highest_ack };
        self.t.seti(self.b, w, Tv::TSeqno, s);
        self.f.fastrecov = false;
        self.t.seti(self.b, w, Tv::Dupacks, 0);
        let h = self.t.highest_ack;
        if let Some(k) = self.f.sack.as_mut() {
            if k.clear_on_timeout {
                k.sq.clear();
                k.sack_min = h;
            }
        }
    }

    /// A timer expired (`tno`: retransmission, delayed send, delayed ACK).
    pub fn timeout(&mut self, sim: &mut Sim, tno: u8) {
        if self.f.state == State::Listen {
            return;
        }
        let mb = self.t.maxburst;
        match tno {
            TIMER_RTX => {
                self.t.inc(self.b, &mut sim.w, Tv::Nrexmit, 1);
                self.timeout_action(sim);
                self.send_much(sim, true, PF_TIMEOUT, mb);
            }
            TIMER_DELSND => self.send_much(sim, true, PF_TIMEOUT, mb),
            TIMER_DELACK => {
                if self.f.flags & TF_DELACK != 0 {
                    self.f.flags &= !TF_DELACK;
                    self.f.flags |= TF_ACKNOW;
                    self.send_much(sim, true, REASON_NORMAL, 0);
                }
                let d = self.f.delack_interval;
                sim.w.s.timer_resched(self.f.delack_timer, d);
            }
            _ => {}
        }
    }

    /// `recv`: a segment arrived.
    pub fn recv(&mut self, sim: &mut Sim, p: PktId) {
        if self.t.xcp.is_some() {
            // XCP's `recv` comes first: every segment's feedback
            let h = sim.w.pool.xcp_hdr(p);
            self.t.xcp_feedback(self.b, &mut sim.w, &h);
        }
        let s = Seg::of(sim, p);
        sim.w.pool.free(p);
        self.recv_seg(sim, s);
    }

    fn send_reset(&mut self, sim: &mut Sim, tiflags: i32, ackno: i32, seqno: i32, datalen: i32) {
        // ns-2 cannot send an RST: it answers with a plain segment.
        if tiflags & TH_ACK != 0 {
            self.sendpacket(sim, ackno, 0, 0, 0, REASON_NORMAL);
        } else {
            let mut ack = seqno + datalen;
            if tiflags & TH_SYN != 0 {
                ack -= 1;
            }
            self.sendpacket(sim, 0, ack, TH_ACK, 0, REASON_NORMAL);
        }
    }

    fn drop_after_ack(&mut self, sim: &mut Sim) {
        self.f.flags |= TF_ACKNOW;
        let mb = self.t.maxburst;
        self.send_much(sim, true, REASON_NORMAL, mb);
    }

    fn recv_seg(&mut self, sim: &mut Sim, s: Seg) {
        let mut needoutput = false;
        let mut ourfinisacked = false;
        let mut dupseg = false;
        self.f.last_state = self.f.state;
        let mut datalen = s.size - s.hlen;
        let ackno = s.ackno;
        let mut tiflags = s.flags;
        // The header's seqno and size as ns-2 trims them in place.
        let mut seqno = s.seqno;
        let mut size = s.size;
        let now = Self::now(sim);

        if self.f.state == State::Closed {
            if tiflags & TH_FIN != 0 {
                // ACK a passive closer's FIN even when closed.
                return self.drop_after_ack(sim);
            }
            return;
        }
        if self.f.state != State::Listen {
            self.dooptions(sim, &s);
        }
        if self.f.delack_interval > 0.0 && sim.w.s.timer_status(self.f.delack_timer) != TimerStatus::Pending {
            let last = (now / self.f.delack_interval) as i32;
            let d = self.f.delack_interval * (last as f64 + 1.0) - now;
            sim.w.s.timer_resched(self.f.delack_timer, d);
        }

        if !self.f.nopredict && self.predict_ok(&s) {
            if self.t.ts_option && !s.no_ts && s.seqno <= self.f.last_ack_sent {
                self.f.recent_age = now;
                self.f.recent = s.ts;
            }
            if self.t.ecn {
                if s.ce && s.ect {
                    self.f.recent_ce = true;
                } else if s.cwr {
                    self.f.recent_ce = false;
                }
            }
            if datalen == 0 {
                if ackno > self.t.highest_ack && ackno < self.t.maxseq && self.t.cwnd >= self.t.wnd && !self.f.fastrecov {
                    self.newack(sim, &s);
                    let mb = self.t.maxburst;
                    self.send_much(sim, false, REASON_NORMAL, mb);
                    return;
                }
            } else if ackno == self.t.highest_ack && self.f.rq.is_empty() {
                self.f.rcv_nxt += datalen;
                self.f.flags |= TF_DELACK;
                self.b.recv_bytes(sim, datalen);
                if self.need_send() {
                    let mb = self.t.maxburst;
                    self.send_much(sim, true, REASON_NORMAL, mb);
                }
                return;
            }
        }

        // Which part of the processing follows the state's own.
        enum Next {
            Trim,
            ProcessAck,
            Step6,
        }
        let next = match self.f.state {
            State::Listen => {
                if tiflags & TH_ACK != 0 {
                    return self.send_reset(sim, tiflags, ackno, seqno, datalen);
                }
                if tiflags & TH_SYN == 0 {
                    return;
                }
                self.dooptions(sim, &s);
                self.f.irs = s.seqno;
                let iss = self.f.iss;
                self.t.seti(self.b, &mut sim.w, Tv::TSeqno, iss);
                self.f.rcv_nxt = self.f.irs + datalen + 1;
                self.f.flags |= TF_ACKNOW;
                if self.t.ecn && s.ecnecho && s.cwr {
                    self.t.ect = true;
                }
                if self.b.fid == 0 {
                    self.b.fid = s.fid;
                }
                self.set_state(State::SynReceived);
                seqno += 1;
                Next::Step6
            }
            State::SynSent => {
                if tiflags & TH_ACK != 0 && (ackno <= self.f.iss || ackno > self.t.maxseq) {
                    return self.send_reset(sim, tiflags, ackno, seqno, datalen);
                }
                if tiflags & TH_SYN == 0 {
                    return;
                }
                if tiflags & TH_ACK != 0 && self.t.ecn && s.ecnecho && !s.cwr && self.f.ecn_syn_wait == 2 && s.ce {
                    self.t.set_rtx_timer(&mut sim.w);
                    let (ts, rn) = (self.t.t_seqno, self.f.rcv_nxt);
                    self.sendpacket(sim, ts, rn, TH_ACK | TH_ECE, 0, 0);
                    return;
                }
                self.f.irs = s.seqno;
                self.f.rcv_nxt = self.f.irs + datalen + 1;
                if tiflags & TH_ACK != 0 {
                    if self.t.ecn && s.ecnecho && !s.cwr {
                        self.t.ect = true;
                        if s.ce {
                            self.f.recent_ce = true;
                        }
                    }
                    self.t.seti(self.b, &mut sim.w, Tv::Ack, ackno);
                    let iw = self.t.initial_window(self.b, &mut sim.w);
                    self.t.set_cwnd(self.b, &mut sim.w, iw);
                    if datalen > 0 {
                        self.f.flags |= TF_DELACK;
                    } else {
                        self.f.flags |= TF_ACKNOW;
                    }
                    if self.f.flags & TF_NEEDFIN != 0 {
                        self.set_state(State::FinWait1);
                        self.f.flags &= !TF_NEEDFIN;
                        tiflags &= !TH_SYN;
                    } else {
                        self.set_state(State::Established);
                    }
                    let (ts, rn) = (self.t.t_seqno, self.f.rcv_nxt);
                    self.sendpacket(sim, ts, rn, TH_ACK, 0, 0);
                } else {
                    if self.t.ecn && s.ecnecho && s.cwr {
                        self.t.ect = true;
                    }
                    self.f.flags |= TF_ACKNOW;
                    self.t.cancel_rtx_timer(&mut sim.w);
                    self.set_state(State::SynReceived);
                    // A second SYN goes out, as a SYN+ACK.
                    self.t.inc(self.b, &mut sim.w, Tv::TSeqno, -1);
                }
                seqno += 1;
                if tiflags & TH_ACK != 0 {
                    Next::ProcessAck
                } else {
                    Next::Step6
                }
            }
            State::LastAck => {
                if tiflags & TH_FIN != 0 {
                    return;
                }
                Next::Trim
            }
            _ => Next::Trim,
        };

        let mut goto_step6 = matches!(next, Next::Step6);
        let mut goto_process_ack = matches!(next, Next::ProcessAck);

        if matches!(next, Next::Trim) {
            // Timestamps: PAWS.
            if self.t.ts_option && !s.no_ts && self.f.recent != 0.0 && s.ts < self.f.recent {
                if now - self.f.recent_age > (24 * 24 * 60 * 60) as f64 {
                    self.f.recent = 0.0;
                } else {
                    // (ns-2 reports the drop on its standard error)
                    return self.drop_after_ack(sim);
                }
            }
            let mut todrop = self.f.rcv_nxt - seqno;
            if todrop > 0 && (tiflags & TH_SYN != 0 || datalen > 0) {
                if tiflags & TH_SYN != 0 {
                    tiflags &= !TH_SYN;
                    seqno += 1;
                    size -= 1;
                    todrop -= 1;
                }
                if todrop > datalen || (todrop == datalen && tiflags & TH_FIN == 0) {
                    tiflags &= !TH_FIN;
                    self.f.flags |= TF_ACKNOW;
                    todrop = datalen;
                    dupseg = true;
                }
                seqno += todrop;
                size -= todrop;
                datalen -= todrop;
            }
            if self.t.ts_option && !s.no_ts && seqno <= self.f.last_ack_sent {
                self.f.recent_age = now;
                self.f.recent = s.ts;
            }
            if tiflags & TH_SYN != 0 {
                return self.send_reset(sim, tiflags, ackno, seqno, datalen);
            }
            if tiflags & TH_ACK == 0 {
                return;
            }
            // ACK processing.
            if self.f.state == State::SynReceived {
                if ackno < self.t.highest_ack || ackno > self.t.maxseq {
                    return self.send_reset(sim, tiflags, ackno, seqno, datalen);
                }
                if self.t.ecn && self.t.ect && self.f.ecn_syn && s.ecnecho && self.f.ecn_syn_wait == 2 {
                    self.t.cancel_rtx_timer(&mut sim.w);
                    self.f.ecn_syn_next = false;
                    let iss = self.f.iss;
                    self.foutput(sim, iss, REASON_NORMAL);
                    self.t.wnd_init_option = 1;
                    self.t.wnd_init = 1.0;
                    return;
                }
                let c = if self.t.ecn && self.t.ect && self.f.ecn_syn && s.ecnecho && self.f.ecn_syn_wait < 2 {
                    if self.f.ecn_syn_wait == 1 {
                        self.t.use_rtt = true;
                        1.0
                    } else {
                        2.0
                    }
                } else {
                    self.t.initial_window(self.b, &mut sim.w)
                };
                self.t.set_cwnd(self.b, &mut sim.w, c);
                if self.f.flags & TF_NEEDFIN != 0 {
                    self.set_state(State::FinWait1);
                    self.f.flags &= !TF_NEEDFIN;
                } else {
                    self.set_state(State::Established);
                }
            }
            // ESTABLISHED and the closing states.
            // (an ECN-Echo to an agent not doing ECN: ns-2 only reports it
            // on its standard error)
            if self.t.ecn {
                if s.ce && s.ect {
                    self.f.recent_ce = true;
                } else if s.cwr {
                    self.f.recent_ce = false;
                }
            }
            if self.f.state >= State::Established && s.sa_len > 0 {
                self.process_sack(&s);
            }
            if self.f.fastrecov && (datalen == 0 || ackno > self.t.highest_ack) {
                self.f.pipe -= self.f.maxseg;
            }
            if ackno <= self.t.highest_ack {
                if datalen == 0 && (!self.f.dupseg_fix || !dupseg) {
                    if !self.t.rtx_pending || ackno < self.t.highest_ack {
                        // oldack
                        self.t.seti(self.b, &mut sim.w, Tv::Dupacks, 0);
                    } else {
                        self.t.inc(self.b, &mut sim.w, Tv::Dupacks, 1);
                        if self.t.dupacks == self.f.tcprexmtthresh {
                            self.dupack_action(sim);
                            return;
                        } else if self.t.dupacks > self.f.tcprexmtthresh {
                            // extra_ack
                            if self.f.reno_fastrecov {
                                let c = self.t.cwnd + 1.0;
                                self.t.set_cwnd(self.b, &mut sim.w, c);
                            }
                            let mb = self.t.maxburst;
                            self.send_much(sim, false, REASON_DUPACK, mb);
                            return;
                        }
                    }
                } else if self.f.dupack_reset {
                    self.t.seti(self.b, &mut sim.w, Tv::Dupacks, 0);
                    self.f.fastrecov = false;
                }
                goto_step6 = true;
            } else {
                goto_process_ack = true;
            }
        }

        if goto_process_ack && !goto_step6 {
            match self.process_ack(sim, &s, tiflags, &mut needoutput, &mut ourfinisacked) {
                AckOutcome::Step6 => {}
                AckOutcome::Done => return,
            }
        }

        // step6: the segment's data and FIN.
        if (datalen > 0 || tiflags & TH_FIN != 0) && !self.f.state.have_received_fin() {
            if seqno == self.f.rcv_nxt && self.f.rq.is_empty() {
                self.f.flags |= TF_DELACK;
                self.f.rcv_nxt += datalen;
                tiflags = s.flags & TH_FIN;
                if datalen != 0 {
                    self.b.recv_bytes(sim, datalen);
                }
                needoutput = self.need_send();
            } else {
                let old = self.f.rcv_nxt;
                tiflags = self.reass(seqno, size, s.hlen, tiflags);
                if self.f.rcv_nxt > old {
                    self.b.recv_bytes(sim, self.f.rcv_nxt - old);
                }
                self.f.flags |= TF_ACKNOW;
                if tiflags & TH_PUSH != 0 {
                    needoutput = self.need_send();
                }
            }
        } else {
            tiflags &= !TH_FIN;
        }

        if tiflags & TH_FIN != 0 {
            if !self.f.state.have_received_fin() {
                self.f.flags |= TF_ACKNOW;
                self.f.rcv_nxt += 1;
            }
            match self.f.state {
                State::SynReceived | State::Established => self.set_state(State::CloseWait),
                State::FinWait1 => self.set_state(State::Closing),
                State::FinWait2 => {
                    self.set_state(State::Closed);
                    self.cancel_timers(&mut sim.w);
                }
                _ => {}
            }
        }

        let mb = self.t.maxburst;
        if needoutput || self.f.flags & TF_ACKNOW != 0 {
            self.send_much(sim, true, REASON_NORMAL, mb);
        } else if self.t.curseq >= self.t.highest_ack || self.f.infinite_send {
            self.send_much(sim, false, REASON_NORMAL, mb);
        }
        if !self.f.halfclose && self.f.state == State::CloseWait && self.t.highest_ack == self.t.maxseq {
            self.usrclosed(sim);
        }
        if self.f.state == State::Closed {
            self.finish(sim);
        }
    }

    /// The `process_ACK` part of `recv`: an ACK that advances.
    fn process_ack(&mut self, sim: &mut Sim, s: &Seg, tiflags: i32, needoutput: &mut bool, ourfinisacked: &mut bool) -> AckOutcome {
        let ackno = s.ackno;
        if ackno > self.t.maxseq {
            self.drop_after_ack(sim);
            return AckOutcome::Done;
        }
        self.newack(sim, s);
        let partial = self.pack(ackno);
        if partial {
            self.pack_action(sim);
        } else {
            self.ack_action(sim);
        }
        if s.ecnecho && tiflags & TH_SYN == 0 {
            let h = self.t.highest_ack;
            self.t.ecn_response(&mut Base, self.b, &mut sim.w, h);
            if self.t.cwnd < 1.0 {
                self.t.set_rtx_timer(&mut sim.w);
            }
        }
        if ackno == self.t.maxseq {
            *needoutput = true;
        }
        // Only our SYN acknowledged: nothing more to do with the ACK.
        if ackno == self.t.highest_ack + 1 {
            return AckOutcome::Step6;
        }
        if (!self.t.delay_growth || self.f.rcv_nxt > 0)
            && self.f.last_state == State::Established
            && (!partial || self.f.open_cwnd_on_pack)
            && (!self.t.ect || !s.ecnecho)
            // (XCP's `opencwnd` does nothing: the feedback moves the window)
            && self.t.xcp.is_none()
        {
            self.t.opencwnd(self.b, &mut sim.w);
        }
        if self.f.state >= State::FinWait1 && ackno == self.t.maxseq {
            *ourfinisacked = true;
        }
        match self.f.state {
            State::FinWait1 if *ourfinisacked => {
                self.set_state(State::FinWait2);
                self.cancel_timers(&mut sim.w);
                *needoutput = false;
            }
            State::Closing if *ourfinisacked => {
                self.set_state(State::Closed);
                self.cancel_timers(&mut sim.w);
            }
            State::LastAck if *ourfinisacked => {
                self.set_state(State::Closed);
                self.finish(sim);
                self.reset(sim);
                return AckOutcome::Done;
            }
            _ => {}
        }
        AckOutcome::Step6
    }
}

enum AckOutcome {
    Step6,
    Done,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ns2::build::{AgentId, AgentKind, Bandwidth, Builder, ClassDefaults, FullVariant, QueueSpec, Seconds};

    const DEFAULTS: &str = include_str!("../../../../../python/dumbbell/ns2/lib/defaults.tcl");

    /// Two nodes, 1 Mb/s and 10 ms each way; a two-way TCP agent at each,
    /// the second listening.
    fn pair(variant: FullVariant) -> (Builder, AgentId, AgentId) {
        let mut b = Builder::new(ClassDefaults::parse(&(crate::ns2::registry::defaults_tcl() + DEFAULTS)).unwrap()).unwrap();
        let n0 = b.node().unwrap();
        let n1 = b.node().unwrap();
        b.duplex_link(n0, n1, Bandwidth::mbps(1.0), Seconds::ms(10.0), &QueueSpec::default()).unwrap();
        let a = b.agent(AgentKind::FullTcp(variant), &[]).unwrap();
        let z = b.agent(AgentKind::FullTcp(variant), &[]).unwrap();
        b.attach(n0, a).unwrap();
        b.attach(n1, z).unwrap();
        b.connect(a, z).unwrap();
        b.command(z.0, &["listen"]).unwrap();
        (b, a, z)
    }

    fn parts(b: &Builder, a: AgentId) -> (Sender, FullState, crate::packet::PacketType) {
        match &b.sim().objs[a.0 as usize] {
            crate::sim::Obj::Agent(x) => match &x.kind {
                crate::agent::AgentKind::Tcp(t) => match &t.flavor {
                    Flavor::Full(f) => (t.sender.clone(), (**f).clone(), x.base.ptype),
                    _ => panic!("not a two-way TCP"),
                },
                _ => panic!("not a TCP agent"),
            },
            _ => panic!("not an agent"),
        }
    }

    /// SYN, SYN+ACK, ACK: both ends establish, each acknowledging the
    /// other's SYN (one sequence number), and the listener's packets are
    /// ACKs.
    #[test]
    fn three_way_handshake() {
        let (mut b, a, z) = pair(FullVariant::Reno);
        assert_eq!(parts(&b, z).1.state, State::Listen);
        b.start().unwrap();
        b.command(a.0, &["advance-bytes", "1000"]).unwrap();
        b.run_until(Seconds(0.015)).unwrap();
        // The SYN (40 bytes, 10.32 ms) has arrived, the SYN+ACK not yet.
        assert_eq!(parts(&b, a).1.state, State::SynSent);
        let (_, zf, ptype) = parts(&b, z);
        assert_eq!(zf.state, State::SynReceived);
        assert_eq!((zf.irs, zf.rcv_nxt), (0, 1));
        assert_eq!(ptype, crate::packet::PacketType::Ack);
        b.run_until(Seconds(1.0)).unwrap();
        let (at, af, _) = parts(&b, a);
        let (zt, zf, _) = parts(&b, z);
        assert_eq!((af.state, zf.state), (State::Established, State::Established));
        // The SYN takes one number: the 1000 bytes are 1..1001, all acked.
        assert_eq!(at.highest_ack, 1001);
        assert_eq!(at.maxseq, 1001);
        assert_eq!(zf.rcv_nxt, 1001);
        assert_eq!(af.rcv_nxt, 1, "the listener's SYN acknowledged");
        assert_eq!(zt.ndatapack, 0, "the listener sent no data");
        // 1000 bytes: one 536-byte segment and the rest.
        assert_eq!((at.ndatapack, at.ndatabytes), (2, 1000));
    }

    /// The ACK of a segment rides on the receiver's own data when it has
    /// some before its delayed ACK is due: the opener's data is
    /// acknowledged, and the listener sent no ACK of its own but the
    /// SYN+ACK.
    #[test]
    fn an_ack_rides_on_data() {
        let (mut b, a, z) = pair(FullVariant::Reno);
        // The listener ACKs every second segment (or on its 100 ms timer).
        b.set_var(z.0, "segsperack_", "2").unwrap();
        b.start().unwrap();
        b.command(a.0, &["advance-bytes", "536"]).unwrap();
        // SYN+ACK back at ~21 ms, the segment at the listener at ~36 ms.
        b.run_until(Seconds(0.05)).unwrap();
        let (zt, zf, _) = parts(&b, z);
        assert_eq!(zf.rcv_nxt, 537, "the segment has arrived");
        assert_eq!(zt.nackpack, 1, "and is not acknowledged yet");
        b.command(z.0, &["advance-bytes", "100"]).unwrap();
        b.run_until(Seconds(0.08)).unwrap();
        let (at, af, _) = parts(&b, a);
        let (zt, _, _) = parts(&b, z);
        assert_eq!(at.highest_ack, 537, "acknowledged by the listener's data segment");
        assert_eq!(af.rcv_nxt, 101, "which the opener received");
        assert_eq!((zt.ndatapack, zt.nackpack), (1, 1), "no pure ACK for it");
    }

    /// `close` after the data: FIN_WAIT_1, the peer's ACK and FIN (it
    /// closes when its own data is acked), both ends CLOSED; the FINs
    /// take one sequence number each.
    #[test]
    fn close_exchanges_fins() {
        for variant in [FullVariant::Reno, FullVariant::Tahoe, FullVariant::NewReno, FullVariant::Sack] {
            let (mut b, a, z) = pair(variant);
            b.start().unwrap();
            b.command(a.0, &["advance-bytes", "5000"]).unwrap();
            b.run_until(Seconds(1.0)).unwrap();
            assert_eq!(parts(&b, a).0.highest_ack, 5001, "{variant:?}");
            b.command(a.0, &["close"]).unwrap();
            assert_eq!(parts(&b, a).1.state, State::FinWait1, "{variant:?}");
            b.run_until(Seconds(2.0)).unwrap();
            let (at, af, _) = parts(&b, a);
            let (_, zf, _) = parts(&b, z);
            assert_eq!((af.state, zf.state), (State::Closed, State::Closed), "{variant:?}");
            assert_eq!(at.maxseq, 5002, "{variant:?}: the FIN after the data");
            assert_eq!(af.rcv_nxt, 2, "{variant:?}: the peer's FIN acknowledged");
        }
    }
}
