//! NewReno loss recovery (tcp/tcp-newreno.cc, RFC 2582): a partial ACK
//! during fast recovery retransmits the next hole instead of leaving
//! recovery.

use super::*;

/// NewReno's extra state and parameters.
#[derive(Clone, Debug, Default)]
pub struct NewRenoState {
    pub newreno_changes: i32,
    pub newreno_changes1: i32,
    pub partial_window_deflation: i32,
    pub exit_recovery_fix: i32,
    pub acked: i32,
    pub new_ssthresh: i32,
    pub ack2: f64,
    pub ack3: f64,
    pub basertt: f64,
    pub firstpartial: i32,
}

/// `NewRenoTcpAgent::recv`.
pub(super) fn recv(t: &mut Sender, s: &mut NewRenoState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let now = sim.w.s.now;
    let size = b.size as f64;
    let mut new_ss = None;
    // Only the first three ACKs count (ns-2's counter goes on, but nothing
    // reads it past 3): the counter stops there, so that every later ACK
    // costs one test (docs/performance.md).
    if s.acked < 3 {
        s.acked += 1;
        if s.acked == 1 {
            s.basertt = now - t.firstsent;
        } else if s.acked == 2 {
            s.ack2 = now;
        } else {
            s.ack3 = now;
            s.new_ssthresh = ((s.basertt * (size / (s.ack3 - s.ack2))) / size) as i32;
            if s.newreno_changes > 0 && s.new_ssthresh < t.ssthresh {
                new_ss = Some(s.new_ssthresh);
            }
        }
    }
    if let Some(v) = new_ss {
        t.seti(b, &mut sim.w, Tv::Ssthresh, v);
    }
    if !t.recv_prologue(b, sim, p, ack) {
        return;
    }
    if ack.seqno > t.last_ack {
        if ack.seqno >= t.recover || t.last_cwnd_action != CWND_ACTION_DUPACK {
            if t.dupwnd > 0 {
                t.dupwnd = 0;
                if t.last_cwnd_action == CWND_ACTION_DUPACK {
                    t.last_cwnd_action = CWND_ACTION_EXITED;
                }
                if s.exit_recovery_fix != 0 {
                    let outstanding = t.maxseq - ack.seqno + 1;
                    let c = if t.ssthresh < outstanding { t.ssthresh } else { outstanding };
                    t.set_cwnd(b, &mut sim.w, c as f64);
                }
            }
            s.firstpartial = 0;
            t.recv_newack_helper(b, sim, ack);
            t.first_ack_window(b, &mut sim.w);
        } else {
            if s.partial_window_deflation == 0 {
                t.dupwnd = 0;
            }
            partialnewack_helper(t, s, b, sim, ack);
        }
    } else if ack.seqno == t.last_ack {
        if t.eln_dupack(&mut Base, b, sim, ack, p) {
            return;
        }
        t.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if t.dupacks == t.numdupacks {
            dupack_action(t, b, sim);
            if !t.exit_fast_retrans {
                t.dupwnd = t.numdupacks as u32;
            }
        } else if t.dupacks > t.numdupacks
            && (!t.exit_fast_retrans || t.last_cwnd_action == CWND_ACTION_DUPACK)
        {
            t.trace_event(b, &mut sim.w, crate::trace::TcpEvent::NewRenoFastRecovery);
            t.dupwnd = t.dupwnd.wrapping_add(1);
            if s.newreno_changes > 0 && t.dupacks % 2 == 1 {
                let seqno = t.t_seqno;
                t.seti(b, &mut sim.w, Tv::TSeqno, seqno + 1);
                t.output(b, sim, seqno, 0);
            }
        } else if t.dupacks < t.numdupacks && t.singledup != 0 {
            t.send_one(b, sim);
        }
    }
    // ns-2 frees the ACK here; `send_much_ack` sends in it or frees it.
    let valid_ack = ack.seqno >= t.last_ack;
    if valid_ack || t.aggressive_maxburst {
        if t.dupacks == 0 {
            let mb = t.maxburst;
            return t.send_much_ack(b, sim, p, mb);
        } else if t.dupacks > t.numdupacks - 1 && s.newreno_changes == 0 {
            return t.send_much_ack(b, sim, p, 2);
        }
    }
    sim.w.pool.free(p);
}

/// `NewRenoTcpAgent::partialnewack`.
fn partialnewack(t: &mut Sender, s: &NewRenoState, b: &AgentBase, w: &mut World, ack: &AckInfo) {
    if s.partial_window_deflation != 0 {
        let mut deflate: u32 = 0;
        if ack.seqno > t.last_ack {
            deflate = (ack.seqno - t.last_ack) as u32;
        }
        if t.dupwnd > deflate {
            t.dupwnd -= deflate.wrapping_sub(1);
        } else {
            // `cwnd_ -= (deflate - dupwnd_)` is unsigned arithmetic in ns-2.
            let d = deflate.wrapping_sub(t.dupwnd) as f64;
            let c = t.cwnd - d;
            t.set_cwnd(b, w, c);
            t.dupwnd = 1;
        }
        if t.cwnd < 1.0 {
            t.set_cwnd(b, w, 1.0);
        }
    }
    t.last_ack = ack.seqno;
    let la = t.last_ack;
    t.seti(b, w, Tv::Ack, la);
    if t.t_seqno < la + 1 {
        t.seti(b, w, Tv::TSeqno, la + 1);
    }
    if t.rtt_active && ack.seqno >= t.rtt_seq {
        t.rtt_active = false;
        t.seti(b, w, Tv::Backoff, 1);
    }
}

/// `NewRenoTcpAgent::partialnewack_helper`.
fn partialnewack_helper(t: &mut Sender, s: &mut NewRenoState, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
    if s.newreno_changes1 == 0 || s.firstpartial == 0 {
        s.firstpartial = 1;
        t.newtimer(&mut sim.w, ack);
    }
    partialnewack(t, s, b, &mut sim.w, ack);
    let seqno = t.last_ack + 1;
    t.output(b, sim, seqno, 0);
}

/// `NewRenoTcpAgent::dupack_action`.
fn dupack_action(t: &mut Sender, b: &mut AgentBase, sim: &mut Sim) {
    let recovered = t.highest_ack > t.recover;
    let recovered1 = t.highest_ack == t.recover;
    if recovered || (!t.bug_fix && !t.ecn) || (t.bugfix_ss && t.highest_ack == 0) {
        // reno_action
    } else if t.bug_fix && t.less_careful && recovered1 {
        // reno_action (Less Careful variant)
    } else if t.ecn && t.last_cwnd_action == CWND_ACTION_ECN {
        t.last_cwnd_action = CWND_ACTION_DUPACK;
        t.reset_rtx_timer(b, &mut sim.w, true, false);
        let s = t.last_ack + 1;
        t.output(b, sim, s, REASON_DUPACK);
        t.dupwnd = t.numdupacks as u32;
        return;
    } else if t.bug_fix {
        let ts_hit = t.bugfix_ts
            && !t.tss.is_empty()
            && t.tss[t.highest_ack.rem_euclid(t.tss_size) as usize] == t.ts_echo;
        let ack_hit =
            t.bugfix_ack && t.cwnd > 1.0 && t.highest_ack - t.prev_highest_ack <= t.numdupacks;
        if !(ts_hit || ack_hit) {
            return;
        }
    }
    t.recover = t.maxseq;
    t.reset_rtx_timer(b, &mut sim.w, true, false);
    if t.qs.window != 0 && t.qs_loss(b, sim) {
        return;
    }
    t.trace_event(b, &mut sim.w, crate::trace::TcpEvent::NewRenoFastRetx);
    t.last_cwnd_action = CWND_ACTION_DUPACK;
    t.slowdown(b, &mut sim.w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF);
    let s = t.last_ack + 1;
    t.output(b, sim, s, REASON_DUPACK);
    t.dupwnd = t.numdupacks as u32;
}
