//! TCP receivers (tcp/tcp-sink.cc): `Agent/TCPSink` ACKs every packet,
//! `Agent/TCPSink/DelAck` delays in-order ACKs by `interval_`
//! (`delack.rs`), the SACK sinks add blocks (`sack.rs`); all keep the
//! receive state in an `Acker` (`acker.rs`).

mod acker;
mod delack;
mod sack;

pub use acker::Acker;
pub use sack::{Sacker, NSA};

use crate::agent::AgentBase;
use crate::packet::PktId;
use crate::sched::TimerStatus;
use crate::sim::Sim;

/// What an ACK copies from the packet it acknowledges.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    seqno: i32,
    ts: f64,
    fid: i32,
    cong_action: bool,
    ect: bool,
    ce: bool,
    ecnecho: bool,
}

impl Seen {
    #[inline]
    fn of(pk: &crate::packet::Packet) -> Seen {
        Seen {
            seqno: pk.seqno,
            ts: pk.ts,
            fid: pk.fid,
            cong_action: pk.cong_action,
            ect: pk.ecn_capable,
            ce: pk.ecn_to_echo,
            ecnecho: pk.ecn,
        }
    }
}

/// The Quick-Start option of the ACK of `o` (in packet `p`): the echo of a
/// request on the first segment, with the hops that approved it taken off
/// the IP TTL's count (`quickstart.rs`).
#[cold]
#[inline(never)]
fn qs_echo(sim: &Sim, p: PktId, o: &Seen) -> crate::quickstart::QsOption {
    use crate::quickstart::{QsKind, QsOption};
    let req = sim.w.pool.qs_option(p);
    if o.seqno == 0 && req.kind == QsKind::Request {
        let ttl = sim.w.pool.get(p).ttl;
        QsOption { kind: QsKind::Response, ttl: (ttl - req.ttl) % 256, rate: req.rate }
    } else {
        QsOption::default()
    }
}

impl Sink {
    /// The echo for the ACK about to be written into `np` (unless a saved
    /// packet's is waiting), read from the packet it acknowledges.
    #[inline(always)]
    fn qs_capture(&mut self, sim: &Sim, np: PktId, o: &Seen) {
        if self.save_qs.is_none() {
            self.save_qs = Some(qs_echo(sim, np, o));
        }
    }

    /// What an ACK takes from the packet it acknowledges (`np`, still
    /// that packet) besides the common fields: the Quick-Start echo, an
    /// XCP receiver's feedback (XCP's `recv`, before the sink's: nothing
    /// between reads or changes it).
    #[cold]
    #[inline(never)]
    fn extra_capture(&mut self, sim: &Sim, np: PktId, o: &Seen) {
        if self.qs_enabled {
            self.qs_capture(sim, np, o);
        }
        if self.xcp.is_some() {
            self.xcp_recv(sim, np);
        }
    }

    /// The ACK's options: the Quick-Start echo, the XCP header.
    #[cold]
    #[inline(never)]
    fn extra_emit(&mut self, sim: &mut Sim, np: PktId) {
        if self.qs_enabled {
            self.qs_emit(sim, np);
        }
        if self.xcp.is_some() {
            self.xcp_ack(sim, np);
        }
    }

    /// Keep `ack_extra` after `qs_enabled` or `xcp` changed.
    pub fn set_ack_extra(&mut self) {
        self.ack_extra = self.qs_enabled || self.xcp.is_some();
    }

    /// An XCP receiver's `recv`: keep the packet's feedback.
    #[cold]
    #[inline(never)]
    fn xcp_recv(&mut self, sim: &Sim, p: PktId) {
        let h = sim.w.pool.xcp_hdr(p);
        if let Some(x) = self.xcp.as_mut() {
            x.take_feedback(&h);
        }
    }

    /// An XCP receiver's `add_to_ack`: the feedback goes back.
    #[cold]
    #[inline(never)]
    fn xcp_ack(&mut self, sim: &mut Sim, np: PktId) {
        if let Some(x) = self.xcp.as_mut() {
            let h = x.ack_header();
            sim.w.pool.set_xcp_hdr(np, h);
        }
    }

    /// Put the echo on the ACK.
    #[inline(always)]
    fn qs_emit(&mut self, sim: &mut Sim, np: PktId) {
        if let Some(opt) = self.save_qs.take() {
            sim.w.pool.set_qs_option(np, opt);
        }
    }
}

/// `TcpSink` and `DelAckSink`.
#[derive(Clone, Debug)]
pub struct Sink {
    pub acker: Acker,
    pub bytes: i32,
    pub lastreset: f64,
    pub ts_echo_bugfix: bool,
    pub ts_echo_rfc1323: bool,
    pub generate_dsacks: bool,
    pub qs_enabled: bool,
    pub rfc2581_immediate_ack: bool,
    pub syn_immediate_ack: bool,
    pub ecn_syn: bool,
    pub max_sack_blocks: i32,
    /// `Some` for `Agent/TCPSink/DelAck`: its delayed-ACK timer.
    pub delack_timer: Option<u32>,
    pub interval: f64,
    /// `Some` for the SACK sinks.
    pub sacker: Option<Sacker>,
    /// `windowOptionS_` (New-ECN patch): 8 echoes each CE mark once.
    pub window_option_s: i32,
    /// `ecnmod_` (ECN-mod, seed 003): echo each CE mark once.
    pub ecnmod: bool,
    /// Echo each CE mark on the ACK of its packet only, not until the
    /// sender's CWR: `windowOptionS_ 8` or `ecnmod_` (kept by their
    /// setters, `set_echo_each_mark`).
    echo_each_mark: bool,
    /// `dctcp_` (DCTCP, Prague; RFC 8257 section 3.2): an ACK's ECE says
    /// whether the packets it acknowledges carried CE, nothing else (no
    /// latch until CWR); a delayed-ACK sink sends the ACK it holds at once
    /// when CE starts or stops, so each ACK covers packets of one state.
    pub dctcp: bool,
    /// The packet whose ACK is being delayed (`save_`).
    save: Option<Seen>,
    /// The Quick-Start echo of the saved packet (`qs_enabled`), for its
    /// delayed ACK; taken by the ACK sent for it.
    save_qs: Option<crate::quickstart::QsOption>,
    /// An XCP receiver's state (`Agent/TCPSink/XCPSink`): the feedback to
    /// return.
    pub xcp: Option<Box<crate::tcp::xcp::XcpEnd>>,
    /// `qs_enabled` or `xcp`: the ACK carries an option (`set_ack_extra`).
    ack_extra: bool,
}

impl Sink {
    /// Keep `echo_each_mark` after `windowOptionS_` or `ecnmod_` changed.
    pub fn set_echo_each_mark(&mut self) {
        self.echo_each_mark = self.window_option_s == 8 || self.ecnmod;
    }

    pub fn new(delack_timer: Option<u32>) -> Sink {
        Sink {
            acker: Acker::default(),
            bytes: 0,
            lastreset: 0.0,
            ts_echo_bugfix: true,
            ts_echo_rfc1323: false,
            generate_dsacks: false,
            qs_enabled: false,
            rfc2581_immediate_ack: true,
            syn_immediate_ack: true,
            ecn_syn: false,
            max_sack_blocks: 3,
            delack_timer,
            interval: 0.1,
            sacker: None,
            window_option_s: 1,
            ecnmod: false,
            echo_each_mark: false,
            dctcp: false,
            save: None,
            save_qs: None,
            xcp: None,
            ack_extra: false,
        }
    }

    pub fn reset(&mut self, sim: &mut Sim) {
        if let Some(t) = self.delack_timer {
            if sim.w.s.timer_status(t) == TimerStatus::Pending {
                sim.w.s.timer_cancel(t);
            }
        }
        if let Some(sk) = self.sacker.as_mut() {
            sk.reset();
        }
        self.acker.reset();
        self.save = None;
        self.lastreset = sim.w.s.now;
    }

    /// `TcpSink::ack`: build and send the ACK for packet `o`; `sf` is the
    /// saved delayed packet (`save_`), if any.  The ACK is written into
    /// packet `np`, which `initpkt` makes a fresh packet of this agent;
    /// it acknowledges `seqno` (the `Acker`'s cumulative ACK but for a
    /// DCTCP receiver's early ACK of its saved packet).
    ///
    /// Inlined so that a plain `TcpSink`'s call, where `sf` is a constant
    /// `None`, drops every test of the saved packet.
    #[inline(always)]
    fn ack(&mut self, b: &mut AgentBase, sim: &mut Sim, np: PktId, o: &Seen, sf: Option<Seen>, seqno: i32) {
        // (`np` still holds the packet acknowledged, but for a delayed
        // ACK's timeout, whose echo was worked out when it was saved)
        if self.ack_extra {
            self.extra_capture(sim, np, o);
        }
        b.initpkt(sim, np);
        if self.ack_extra {
            self.extra_emit(sim, np);
        }
        let now = sim.w.s.now;
        if sf.map_or(false, |s| s.cong_action) || o.cong_action {
            self.acker.ecn_unacked = false;
        }
        if sf.map_or(false, |s| s.ect && s.ce) || (o.ect && o.ce) {
            self.acker.ecn_unacked = true;
        }
        let ts_echo = if self.ts_echo_bugfix { self.acker.ts_to_echo } else { o.ts };
        {
            let pk = sim.w.pool.get_mut(np);
            pk.seqno = seqno;
            pk.ts = now;
            pk.ts_echo = ts_echo;
            pk.fid = o.fid;
            if self.dctcp {
                // RFC 8257 section 3.2: the CE state of the packets acked
                // (the saved one and `o` share it: see `delack_recv`).
                pk.ecn = o.ect && o.ce;
            } else if self.echo_each_mark {
                // New-ECN, ECN-mod: echo the mark of this packet (or the
                // delayed one) only, not until the sender's CWR.
                if sf.map_or(false, |s| s.ce) || (o.ect && o.ce) {
                    pk.ecn = true;
                }
            } else if sf.map_or(false, |s| s.ect) || o.ect {
                pk.ecn = self.acker.ecn_unacked;
            }
            if (!o.ect && o.ecnecho) || sf.map_or(false, |s| !s.ect && s.ecnecho) {
                pk.ecn = true;
                if self.ecn_syn {
                    pk.ecn_capable = true;
                }
            }
        }
        let nb = match self.sacker.as_mut() {
            Some(sk) => {
                let (blocks, nb) = sk.blocks(&self.acker, o.seqno, self.generate_dsacks, &mut sim.w.c_stdout);
                let pk = sim.w.pool.get_mut(np);
                if nb > 0 {
                    pk.sa = blocks;
                    pk.size += 8 * nb as i32;
                }
                nb
            }
            None => 0,
        };
        sim.w.pool.get_mut(np).sa_len = nb as u8;
        self.acker.last_ack_sent = seqno;
        b.send(sim, np);
    }

    /// `TcpSink::recv` / `DelAckSink::recv`.  Kept out of line: inlined
    /// into the agents' shared `recv`, its registers and stack cost the
    /// TCP sender's path as well (docs/performance.md).
    #[inline(never)]
    pub fn recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId) {
        let (num_bytes, seq, ts) = {
            let pk = sim.w.pool.get(p);
            (pk.size, pk.seqno, pk.ts)
        };
        if ts < self.lastreset {
            if self.xcp.is_some() {
                // (XCP's `recv` runs before the sink's)
                self.xcp_recv(sim, p);
            }
            sim.w.pool.free(p);
            return;
        }
        self.acker.update_ts(seq, ts, self.ts_echo_rfc1323);
        let n = self.acker.update(seq, num_bytes);
        if self.acker.size_errors > 0 {
            self.acker.size_errors = 0;
            sim.w.c_stdout.extend_from_slice(b"Error, received TCP packet size <= 0\n");
        }
        if n != 0 {
            self.bytes = self.bytes.wrapping_add(n);
            b.recv_bytes(sim, n);
        }
        // ns-2 allocates the ACK, sends it, then frees `p`; the ACK is
        // written into `p` instead (see `AgentBase::initpkt`).  What the
        // ACK copies from `p` is read only now (nothing above changes `p`):
        // a plain sink's path then keeps none of it across the calls above,
        // and the delayed-ACK sink's path reads its own.
        match self.delack_timer {
            None => {
                let seen = Seen::of(sim.w.pool.get(p));
                let seqno = self.acker.seqno();
                self.ack(b, sim, p, &seen, None, seqno)
            }
            Some(t) => self.delack_recv(b, sim, p, t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acker_delivers_in_order_and_buffers_holes() {
        let mut a = Acker::default();
        assert_eq!(a.update(0, 40), 40);
        assert_eq!(a.seqno(), 0);
        assert_eq!(a.update(2, 1000), 0, "hole at 1");
        assert_eq!(a.seqno(), 0);
        assert_eq!(a.update(1, 1000), 2000);
        assert_eq!(a.seqno(), 2);
        assert_eq!(a.update(1, 1000), 0, "duplicate delivers nothing");
    }

    #[test]
    fn acker_grows_its_window() {
        let mut a = Acker::default();
        a.update(0, 1);
        assert_eq!(a.update(200, 1), 0);
        assert!(a.wndmask >= 255);
        let mut total = 0;
        for s in 1..200 {
            total += a.update(s, 1);
        }
        assert_eq!(total, 200);
        assert_eq!(a.seqno(), 200);
    }
}
