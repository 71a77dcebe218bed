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
        self.ack(b, sim, np, o, sf)
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
