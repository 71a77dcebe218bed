//! `Agent/TCPSink/DelAck` (tcp/tcp-sink.cc `DelAckSink`): in-order
//! packets are ACKed after `interval_` unless another arrives first.

use super::*;

impl Sink {
    /// `DelAckSink::recv` after the `Acker`'s update: ACK now, or save the
    /// packet's details and start the delayed-ACK timer.  Out of line: a
    /// plain sink's path is the inlined one.
    #[inline(never)]
    pub(super) fn delack_recv(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId, t: u32) {
        let seen = Seen::of(sim.w.pool.get(p));
        let seq = seen.seqno;
        if self.dctcp {
            self.dctcp_flush(b, sim, &seen, t);
        }
        if sim.w.s.timer_status(t) != TimerStatus::Pending && seq == self.acker.seqno() {
            let immediate = (self.rfc2581_immediate_ack && seq < self.acker.maxseen)
                || (self.syn_immediate_ack && seq == 0);
            if !immediate {
                self.save = Some(seen);
                // (ns-2 keeps the packet: its ACK's Quick-Start echo is
                // the saved packet's)
                self.save_qs = if self.qs_enabled { Some(qs_echo(sim, p, &seen)) } else { None };
                sim.w.s.timer_resched(t, self.interval);
                sim.w.pool.free(p);
                return;
            }
        }
        if sim.w.s.timer_status(t) == TimerStatus::Pending {
            sim.w.s.timer_cancel(t);
        }
        let sf = self.save;
        self.save_qs = None;
        self.delack_ack(b, sim, p, &seen, sf);
        self.save = None;
    }

    /// `ack` for the delayed-ACK sink, kept out of line: a plain sink's
    /// path is the inlined one.
    #[inline(never)]
    pub(super) fn delack_ack(&mut self, b: &mut AgentBase, sim: &mut Sim, np: PktId, o: &Seen, sf: Option<Seen>) {
        let seqno = self.acker.seqno();
        self.ack(b, sim, np, o, sf, seqno)
    }

    /// RFC 8257 section 3.2's state machine: a packet whose CE differs
    /// from that of the packet whose ACK is being delayed makes the sink
    /// ACK the delayed one at once, with its own (old) CE state and its
    /// own cumulative ACK, before it handles the new packet.
    fn dctcp_flush(&mut self, b: &mut AgentBase, sim: &mut Sim, seen: &Seen, t: u32) {
        let Some(s) = self.save else { return };
        if (s.ect && s.ce) == (seen.ect && seen.ce) || sim.w.s.timer_status(t) != TimerStatus::Pending {
            return;
        }
        sim.w.s.timer_cancel(t);
        self.save = None;
        let np = sim.w.pool.alloc();
        self.ack(b, sim, np, &s, Some(s), s.seqno);
    }

    /// `DelAckSink::timeout`: ACK the saved packet.
    pub fn timeout(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        if let Some(s) = self.save {
            // ns-2 calls ack(save_) with save_ still set, so the saved packet
            // is both "o" and "sf".
            let np = sim.w.pool.alloc();
            self.delack_ack(b, sim, np, &s, Some(s));
            self.save = None;
        }
    }
}
