//! F-RTO (Sarolahti and Kojo, RFC 4138; tcp/tcp.cc `recv_frto_helper`,
//! `spurious_timeout`, the F-RTO steps of `recv_newack_helper` and
//! `timeout`; SACK's variant in `sack1.rs`): after a retransmission
//! timeout the sender sends new data on the first new ACK instead of
//! retransmitting; if the second ACK is new too, the timeout was spurious
//! and the window is restored (`spurious_response_`), while a duplicate
//! ACK falls back to the usual recovery.

use super::*;

/// F-RTO's switches and state.
#[derive(Clone, Debug)]
pub struct Frto {
    /// `frto_enabled_`, `sfrto_enabled_` (SACK-based).
    pub frto_enabled: bool,
    pub sfrto_enabled: bool,
    /// `spurious_response_`: the window after a spurious timeout (1: what
    /// was sent since, 2: ssthresh_, 3: one packet).
    pub spurious_response: i32,
    /// `frto_`: 0 off; 1 after a timeout, waiting for the first new ACK;
    /// 2 waiting for the second (`window()` is then forced to 2 packets
    /// past `recover_`).  A duplicate ACK sets cwnd_ to it.
    pub frto: i32,
    /// `pipe_prev_`: the window when the timeout struck.
    pub pipe_prev: i32,
}

impl Default for Frto {
    /// ns-2's constructor values.
    fn default() -> Self {
        Frto { frto_enabled: false, sfrto_enabled: false, spurious_response: 1, frto: 0, pipe_prev: 0 }
    }
}

impl Sender {
    /// The F-RTO steps at the end of `TcpAgent::recv_newack_helper`: the
    /// first new ACK after a timeout sends new data (unless the timeout's
    /// retransmission covered the window), the second declares it spurious.
    #[inline(always)]
    pub(super) fn frto_newack(&mut self, b: &AgentBase, w: &mut World) {
        if self.frto.frto == 1 {
            if self.recover + 1 >= self.highest_ack + self.wnd as i32 || self.recover + 1 >= self.curseq {
                self.frto.frto = 0;
            } else if self.highest_ack == self.recover {
                self.frto.frto = 0;
            } else {
                let s = self.recover + 1;
                self.seti(b, w, Tv::TSeqno, s);
                self.frto.frto = 2;
            }
        } else if self.frto.frto == 2 {
            self.spurious_timeout(b, w);
        }
    }

    /// `TcpAgent::spurious_timeout`.
    pub(super) fn spurious_timeout(&mut self, b: &AgentBase, w: &mut World) {
        self.frto.frto = 0;
        match self.frto.spurious_response {
            2 => {
                let c = self.ssthresh as f64;
                self.set_cwnd(b, w, c);
            }
            3 => self.set_cwnd(b, w, 1.0),
            _ => {
                let c = (self.t_seqno - self.prev_highest_ack) as f64;
                self.set_cwnd(b, w, c);
            }
        }
        let pp = self.frto.pipe_prev;
        self.seti(b, w, Tv::Ssthresh, pp);
        self.recover = self.highest_ack - 1;
    }

    /// `TcpAgent::recv_frto_helper`.  Inlined (every ACK passes here, and
    /// F-RTO is rarely on), the work out of line.
    #[inline(always)]
    pub(super) fn recv_frto_helper(&mut self, b: &AgentBase, w: &mut World, ack: &AckInfo) {
        if self.frto.frto != 0 && ack.seqno == self.last_ack {
            self.frto_dupack(b, w);
        }
    }

    /// A duplicate ACK after an F-RTO timeout: go back to sending from the
    /// highest ACK with cwnd_ = frto_.
    #[cold]
    #[inline(never)]
    fn frto_dupack(&mut self, b: &AgentBase, w: &mut World) {
        let s = self.highest_ack + 1;
        self.seti(b, w, Tv::TSeqno, s);
        let c = self.frto.frto as f64;
        self.set_cwnd(b, w, c);
        self.frto.frto = 0;
        self.seti(b, w, Tv::Dupacks, -1);
    }
}
