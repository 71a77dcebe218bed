//! Tahoe loss recovery (`TcpAgent::recv` and `TcpAgent::dupack_action`,
//! tcp/tcp.cc): after three duplicate ACKs, retransmit and slow start from
//! a window of one.

use super::*;

/// `TcpAgent::recv`.
pub(super) fn recv(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    if !t.recv_prologue(b, sim, p, ack) {
        return;
    }
    if ack.seqno > t.last_ack {
        t.recv_newack_helper(b, sim, ack);
        t.first_ack_window(b, &mut sim.w);
    } else if ack.seqno == t.last_ack {
        if t.eln_dupack(&mut Base, b, sim, ack, p) {
            return;
        }
        t.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if t.dupacks == t.numdupacks && !t.no_fast_retrans {
            dupack_action(t, b, sim);
        } else if t.dupacks < t.numdupacks && t.singledup != 0 {
            t.send_one(b, sim);
        }
    }
    if t.qopt.qoption != 0 && t.qopt.enbl_rtt_ctr != 0 {
        t.process_qoption_after_ack(ack.seqno);
    }
    // ns-2 frees the ACK here; `send_much_ack` sends in it or frees it.
    let valid_ack = ack.seqno >= t.last_ack;
    if valid_ack || t.aggressive_maxburst {
        let mb = t.maxburst;
        return t.send_much_ack(b, sim, p, mb);
    }
    sim.w.pool.free(p);
}

/// `TcpAgent::dupack_action`.
pub(super) fn dupack_action(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim) {
    let w = &mut sim.w;
    let recovered = t.highest_ack > t.recover;
    if recovered || (!t.bug_fix && !t.ecn) || (t.bugfix_ss && t.highest_ack == 0) {
        // tahoe_action
    } else if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
        t.last_cwnd_action = CWND_ACTION_DUPACK;
        t.slowdown(b, w, CLOSE_CWND_ONE);
        t.reset_rtx_timer(b, w, false, false);
        return;
    } else if t.bug_fix {
        return;
    }
    t.recover = t.maxseq;
    if !(t.qs.window != 0 && t.qs_loss(b, sim)) {
        let w = &mut sim.w;
        t.trace_event(b, w, crate::trace::TcpEvent::FastRetx);
        t.last_cwnd_action = CWND_ACTION_DUPACK;
        t.slowdown(b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE);
    }
    t.reset_rtx_timer(b, &mut sim.w, false, false);
}
