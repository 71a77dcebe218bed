//! What every flavour's `recv` and `timeout` call: the common start of
//! an ACK's processing and the retransmission timeout's response.

use super::*;

impl Sender {
    /// Common start of `recv` in every flavour: stale-incarnation check,
    /// counters, ECN response.  Returns false if the packet was discarded.
    /// Inlined: it runs on every ACK and is mostly tests of flags that are
    /// off, cheaper than the call.
    #[inline(always)]
    pub(super) fn recv_prologue(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) -> bool {
        if ack.ts < self.lastreset {
            sim.w.pool.free(p);
            return false;
        }
        self.inc(b, &mut sim.w, Tv::Nackpack, 1);
        self.ts_peer = ack.ts;
        if ack.ecnecho && self.ecn {
            self.ecn_response(&mut Base, b, &mut sim.w, ack.seqno);
        }
        if self.ecn {
            self.mark = if ack.ecnecho { 1.0 } else { 0.0 };
        }
        self.recv_frto_helper(b, &mut sim.w, ack);
        true
    }

    /// `TcpAgent::timeout`, with the flavour's `output` and `rtt_backoff`
    /// (`Tcp::timeout` has cleared `rtx_pending` for `TIMER_RTX`).
    pub(super) fn timeout_with<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
        match tno {
            TIMER_RTX => {
                self.rtx_timeout(v, b, sim);
                let mb = self.maxburst;
                self.send_much_with(v, b, sim, false, REASON_TIMEOUT, mb, None);
            }
            TIMER_DELSND => {
                let mb = self.maxburst;
                self.send_much_with(v, b, sim, true, REASON_TIMEOUT, mb, None);
            }
            _ => {}
        }
    }

    /// `TcpAgent::timeout(TCP_TIMER_RTX)` but for its last step, sending
    /// (`send_much(0, TCP_REASON_TIMEOUT, maxburst_)`), which the caller
    /// does with its flavour's sending loop.
    pub(super) fn rtx_timeout<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim) {
        let w = &mut sim.w;
        self.trace_event(b, w, crate::trace::TcpEvent::Timeout);
        self.frto.frto = 0;
        self.frto.pipe_prev = if self.window() > self.ssthresh { self.window() } else { self.ssthresh };
        if self.cwnd < 1.0 {
            self.set_cwnd(b, w, 1.0);
        }
        self.qs.approved = false;
        if self.highest_ack == self.maxseq && !self.slow_start_restart {
            // No outstanding data and no slow-start restart: nothing to do.
        } else {
            self.recover = self.maxseq;
            if self.highest_ack == -1 && self.wnd_init_option == 2 {
                self.wnd_init_option = 1;
            } else if self.highest_ack == -1 && self.wnd_init_option == 1 && self.wnd_init > 1.0 && self.bugfix_ss {
                self.wnd_init = 1.0;
            }
            if self.highest_ack == self.maxseq && self.restart_bugfix {
                self.slowdown(b, w, CLOSE_CWND_ONE | NO_OUTSTANDING_DATA);
            } else if self.highest_ack < self.recover && self.last_cwnd_action == CWND_ACTION_ECN {
                self.slowdown(b, w, CLOSE_CWND_ONE);
                if self.frto.frto_enabled || self.frto.sfrto_enabled {
                    self.frto.frto = 1;
                }
            } else {
                self.inc(b, w, Tv::Nrexmit, 1);
                self.last_cwnd_action = CWND_ACTION_TIMEOUT;
                self.slowdown(b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART);
                if self.frto.frto_enabled || self.frto.sfrto_enabled {
                    self.frto.frto = 1;
                }
            }
        }
        if self.highest_ack == self.maxseq && self.restart_bugfix {
            self.reset_rtx_timer(b, w, false, false);
        } else {
            // `reset_rtx_timer(0, 1)`, backing off as the flavour does.
            v.rtt_backoff(self, b, w);
            self.reset_rtx_timer(b, w, false, false);
        }
        self.last_cwnd_action = CWND_ACTION_TIMEOUT;
    }
}
