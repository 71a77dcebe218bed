//! Reno loss recovery (tcp/tcp-reno.cc): fast retransmit halves the window
//! and inflates it by one packet per further duplicate ACK (`dupwnd_`)
//! until new data is acknowledged.

use super::*;

/// `RenoTcpAgent::recv`.
pub(super) fn recv(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    if !t.recv_prologue(b, sim, p, ack) {
        return;
    }
    if ack.seqno > t.last_ack {
        if t.last_cwnd_action == CWND_ACTION_DUPACK {
            t.last_cwnd_action = CWND_ACTION_EXITED;
        }
        t.dupwnd = 0;
        t.recv_newack_helper(b, sim, ack);
        t.first_ack_window(b, &mut sim.w);
    } else if ack.seqno == t.last_ack {
        if t.eln_dupack(&mut Base, b, sim, ack, p) {
            return;
        }
        t.inc(b, &mut sim.w, Tv::Dupacks, 1);
        // Reno compares with numdupacks_ itself, not numdupacks(cwnd).
        if t.dupacks == t.numdupacks {
            dupack_action(t, b, sim, true);
            if !t.exit_fast_retrans {
                t.dupwnd = t.numdupacks as u32;
            }
        } else if t.dupacks > t.numdupacks
            && (!t.exit_fast_retrans || t.last_cwnd_action == CWND_ACTION_DUPACK)
        {
            t.dupwnd = t.dupwnd.wrapping_add(1);
        } else if t.dupacks < t.numdupacks && t.singledup != 0 {
            t.send_one(b, sim);
        }
    }
    // ns-2 frees the ACK here; `send_much_ack` sends in it or frees it.
    let valid_ack = ack.seqno >= t.last_ack;
    if (valid_ack || t.aggressive_maxburst) && (t.dupacks == 0 || t.dupacks > t.numdupacks - 1) {
        let mb = t.maxburst;
        return t.send_much_ack(b, sim, p, mb);
    }
    sim.w.pool.free(p);
}

/// `RenoTcpAgent::dupack_action` (`allow_fast` is Reno's
/// `allow_fast_retransmit`: true for Reno, false for NewReno).
pub(super) fn dupack_action(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, allow_fast: bool) {
    let recovered = t.highest_ack > t.recover;
    let allow = allow_fast && t.last_cwnd_action == CWND_ACTION_DUPACK;
    if recovered || (!t.bug_fix && !t.ecn) || allow || (t.bugfix_ss && t.highest_ack == 0) {
        // reno_action
    } else if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
        t.last_cwnd_action = CWND_ACTION_DUPACK;
        t.reset_rtx_timer(b, &mut sim.w, true, false);
        let s = t.last_ack + 1;
        t.output(b, sim, s, REASON_DUPACK);
        t.dupwnd = t.numdupacks as u32;
        return;
    } else if t.bug_fix {
        return;
    }
    t.trace_event(b, &mut sim.w, crate::trace::TcpEvent::RenoFastRetx);
    t.recover = t.maxseq;
    t.last_cwnd_action = CWND_ACTION_DUPACK;
    t.slowdown(b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
    t.reset_rtx_timer(b, &mut sim.w, true, false);
    let s = t.last_ack + 1;
    t.output(b, sim, s, REASON_DUPACK);
    t.dupwnd = t.numdupacks as u32;
}

/// `RenoTcpAgent::timeout` (NewReno's too): leave fast recovery, then
/// `TcpAgent::timeout`.
pub(super) fn timeout(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_RTX {
        t.dupwnd = 0;
        t.seti(b, &mut sim.w, Tv::Dupacks, 0);
        if t.bug_fix {
            t.recover = t.maxseq;
        }
    }
    t.timeout_with(&mut Base, b, sim, tno)
}
