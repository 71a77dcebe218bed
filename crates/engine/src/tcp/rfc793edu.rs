//! `Agent/TCP/RFC793edu` (tcp/tcp-rfc793edu.cc): the educational TCP of
//! RFC 793 to which the later algorithms can be added one by one with the
//! `add793*_` switches: Karn's exponential backoff and RTT sampling,
//! Jacobson/Karels RTO, fast retransmit (Tahoe's `dupack_action`), slow
//! start, additive or multiplicative increase.  Without them the window is
//! `window_` at once and the RTO is twice the smoothed RTT.
//!
//! It is a Tahoe sender with its own `recv`, `output`, `newack`,
//! `recv_newack_helper`, `opencwnd`, `rtt_update`, `rtt_backoff` and
//! `reset`; timeouts, `send_much`, `slowdown` and the retransmit timer are
//! the shared ones.  Those differ from the shared code in small ways ns-2's
//! traces show (no header bytes are added to data packets, a SYN is never
//! counted off `curseq_`, ACKs of an earlier incarnation are not filtered,
//! the RTO has no floor but the shared `rtt_timeout`'s), so they are written
//! out here rather than bent into the shared versions with flags.

use super::*;
use growth::InUse;

/// The variant's switches (as tclcl's bound bools keep them: the integer
/// set, nonzero meaning on, "3" reading back as 3) and its RTO in ticks
/// (`rto_`).
#[derive(Clone, Debug, Default)]
pub struct Rfc793State {
    pub expbackoff: i32,
    pub jacobsonrtt: i32,
    pub fastrtx: i32,
    pub slowstart: i32,
    pub additiveinc: i32,
    pub karnrtt: i32,
    pub exponinc: i32,
    /// The current retransmission timeout in ticks (a double in ns-2).
    pub rto: f64,
}


/// `RFC793eduTcpAgent`'s overrides of `TcpAgent`'s virtual functions
/// that shared code calls.
impl Virtuals for Rfc793State {
    /// `output` may time a retransmission (without Karn's rule).
    const OUTPUT_KEEPS_WINDOW: bool = false;

    fn output(&mut self, t: &mut Sender, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        debug_assert!(spare.is_none());
        output(t, self, b, sim, seqno, reason)
    }

    fn rtt_backoff(&mut self, t: &mut Sender, b: &AgentBase, w: &mut World) {
        rtt_backoff(t, self, b, w)
    }
}

/// The part of `RFC793eduTcpAgent::reset` before `TcpAgent::reset`.
pub(super) fn reset(t: &Sender, st: &mut Rfc793State) {
    st.rto = t.rtxcur_init / t.tcp_tick;
}

/// `RFC793eduTcpAgent::recv`.  Cold and out of line: the common receive
/// path inlines the other flavours' `recv`, and this arm of the dispatch
/// must not change how that code is laid out (docs/performance.md).
#[cold]
#[inline(never)]
pub(super) fn recv(t: &mut Sender, st: &mut Rfc793State, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    t.inc(b, &mut sim.w, Tv::Nackpack, 1);
    t.ts_peer = ack.ts;
    if ack.ecnecho && t.ecn {
        t.ecn_response(st, b, &mut sim.w, ack.seqno);
    }
    if ack.seqno > t.last_ack {
        recv_newack_helper(t, st, b, sim, ack);
        t.first_ack_window(b, &mut sim.w);
    } else if ack.seqno == t.last_ack {
        if t.eln_dupack(st, b, sim, ack, p) {
            return;
        }
        t.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if t.dupacks == t.numdupacks && st.fastrtx != 0 {
            tahoe::dupack_action(t, b, sim);
        }
    }
    sim.w.pool.free(p);
    let mb = t.maxburst;
    send_much(t, st, b, sim, false, 0, mb);
}

/// `TcpAgent::send_much` with this sender's `output`.
#[inline(never)]
pub(super) fn send_much(
    t: &mut Sender,
    st: &mut Rfc793State,
    b: &mut AgentBase,
    sim: &mut Sim,
    force: bool,
    reason: i32,
    maxburst: i32,
) {
    t.send_much_with(st, b, sim, force, reason, maxburst, None)
}

/// `RFC793eduTcpAgent::recv_newack_helper`.
fn recv_newack_helper(t: &mut Sender, st: &mut Rfc793State, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
    newack(t, st, b, &mut sim.w, ack);
    if !t.ect || !ack.ecnecho || (t.old_ecn && t.ecn_burst) {
        opencwnd(t, st, b, &mut sim.w);
    }
    if t.ect {
        if !ack.ecnecho {
            t.ecn_backoff = false;
        }
        if !t.ecn_burst && ack.ecnecho {
            t.ecn_burst = true;
        } else if t.ecn_burst && !ack.ecnecho {
            t.ecn_burst = false;
        }
    }
    if !t.ect && ack.ecnecho && !ack.cong_action {
        t.ect = true;
    }
    if t.highest_ack >= t.curseq - 1 && !t.closed {
        t.closed = true;
        t.finish(b, sim);
    }
}

/// `RFC793eduTcpAgent::newack`: the timer is always set before the RTT is
/// updated, and `prev_highest_ack_` is left alone.
fn newack(t: &mut Sender, st: &mut Rfc793State, b: &AgentBase, w: &mut World, ack: &AckInfo) {
    let now = w.s.now;
    t.newtimer(w, ack);
    t.seti(b, w, Tv::Dupacks, 0);
    t.last_ack = ack.seqno;
    let la = t.last_ack;
    t.seti(b, w, Tv::Ack, la);
    if t.t_seqno < la + 1 {
        t.seti(b, w, Tv::TSeqno, la + 1);
    }
    if !ack.no_ts {
        if t.ts_option {
            rtt_update(t, st, b, w, now - ack.ts_echo);
        }
        if t.rtt_active && ack.seqno >= t.rtt_seq {
            if !t.ect || !t.ecn_backoff || !ack.ecnecho {
                t.seti(b, w, Tv::Backoff, 1);
                t.ecn_backoff = false;
            }
            t.rtt_active = false;
            if !t.ts_option {
                let tao = now - t.rtt_ts;
                rtt_update(t, st, b, w, tao);
            }
        }
    }
    t.awnd *= 1.0 - t.wnd_th;
    t.awnd += t.wnd_th * t.cwnd;
}

/// `RFC793eduTcpAgent::rtt_update`: the shared estimator of srtt and
/// rttvar; the RTO is srtt + 4 rttvar with `add793jacobsonrtt_`, else
/// RFC 793's 2 srtt, and has no lower bound of its own.
fn rtt_update(t: &mut Sender, st: &mut Rfc793State, b: &AgentBase, w: &mut World, tao: f64) {
    t.rtt_sample(b, w, tao);
    let rto = if st.jacobsonrtt != 0 {
        t.jacobson_rto_ticks() as f64
    } else {
        (t.t_srtt >> (t.t_srtt_bits - 1)) as f64
    };
    st.rto = rto;
    t.t_rtxcur = rto * t.tcp_tick;
}

/// `RFC793eduTcpAgent::rtt_backoff`: Tahoe's doubling (without RFC 2988's
/// cap) with `add793expbackoff_`, else no backoff at all.
fn rtt_backoff(t: &mut Sender, st: &Rfc793State, b: &AgentBase, w: &mut World) {
    if st.expbackoff != 0 {
        if t.t_backoff < 64 {
            let v = t.t_backoff << 1;
            t.seti(b, w, Tv::Backoff, v);
        }
        if t.t_backoff > 8 {
            let v = t.t_rttvar + (t.t_srtt >> t.t_srtt_bits);
            t.seti(b, w, Tv::Rttvar, v);
            t.seti(b, w, Tv::Srtt, 0);
        }
    } else {
        t.seti(b, w, Tv::Backoff, 1);
    }
}

/// `RFC793eduTcpAgent::opencwnd`.
fn opencwnd(t: &mut Sender, st: &Rfc793State, b: &AgentBase, w: &mut World) {
    let (slowstart, exponinc, additiveinc) = (st.slowstart != 0, st.exponinc != 0, st.additiveinc != 0);
    let ssthresh = t.ssthresh as f64;
    if !(slowstart || exponinc || additiveinc) {
        // Plain RFC 793: the whole receiver window at once.
        let c = t.wnd;
        t.set_cwnd(b, w, c);
    } else if (t.cwnd < ssthresh && !additiveinc) || exponinc {
        let c = if exponinc && t.cwnd < ssthresh { ssthresh } else { t.cwnd + 1.0 };
        t.set_cwnd(b, w, c);
    } else if additiveinc && t.cwnd < ssthresh {
        t.set_cwnd(b, w, ssthresh);
    } else {
        let new = match t.growth.in_use() {
            // The standard rule, without `increase_num_` or limited slow start.
            InUse::Standard => Some(t.cwnd + 1.0 / t.cwnd),
            InUse::PerWindow | InUse::Scaled => t.growth_increase(w),
            _ => {
                growth::undefined_window_option(w, t.growth.option(), "0-5");
                None
            }
        };
        if let Some(c) = new {
            t.set_cwnd(b, w, c);
        }
    }
    if t.maxcwnd != 0 && (t.cwnd as i32) > t.maxcwnd {
        let c = t.maxcwnd as f64;
        t.set_cwnd(b, w, c);
    }
}

/// `RFC793eduTcpAgent::output`.
fn output(t: &mut Sender, st: &Rfc793State, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
    let p = b.allocpkt(sim);
    let now = sim.w.s.now;
    {
        let pk = sim.w.pool.get_mut(p);
        pk.seqno = seqno;
        pk.ts = now;
        pk.ts_echo = t.ts_peer;
        pk.reason = reason;
        if t.ecn {
            pk.ecn_capable = true;
        }
        if t.cong_action {
            pk.cong_action = true;
            t.cong_action = false;
        }
        if seqno == 0 {
            if t.syn {
                pk.size = t.tcpip_base_hdr_size;
            }
            if t.ecn {
                pk.ecn = true;
                pk.ecn_capable = false;
            }
        }
    }
    let bytes = sim.w.pool.get(p).size;
    let force_set_rtx_timer = t.highest_ack == t.maxseq;
    t.inc(b, &mut sim.w, Tv::Ndatapack, 1);
    t.inc(b, &mut sim.w, Tv::Ndatabytes, bytes);
    if seqno <= t.maxseq && st.karnrtt == 0 {
        // Without Karn's rule a retransmission is timed too (`sent` leaves
        // the RTT timing alone for a retransmission).
        t.rtt_active = true;
        t.rtt_seq = seqno;
        t.rtt_ts = now;
    }
    t.sent(b, sim, p, seqno, bytes, force_set_rtx_timer);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::PacketType;

    /// An RFC793edu sender with the exponential backoff and Karn's rule
    /// on and a 0.1 s tick, changed by `set` before its reset.
    fn sender(sim: &mut Sim, set: impl FnOnce(&mut Sender, &mut Rfc793State, &World)) -> (Tcp, AgentBase) {
        let mut t = Tcp::new(Flavor::Rfc793edu(Box::default()), sim, 0);
        let b = AgentBase::new(0, PacketType::Tcp);
        let (s, st) = parts(&mut t);
        st.expbackoff = 1;
        st.karnrtt = 1;
        s.set_tcp_tick(0.1);
        set(s, st, &sim.w);
        let mut b = b;
        t.reset(&mut b, sim);
        (t, b)
    }

    /// The shared sender and RFC793edu's state of `t`.
    fn parts(t: &mut Tcp) -> (&mut Sender, &mut Rfc793State) {
        match &mut t.flavor {
            Flavor::Rfc793edu(s) => (&mut t.sender, s),
            _ => panic!("made as RFC793edu"),
        }
    }

    fn opened(set: impl FnOnce(&mut Sender, &mut Rfc793State, &World), cwnd: f64, ssthresh: i32) -> f64 {
        let mut sim = Sim::new();
        let (mut t, b) = sender(&mut sim, set);
        let (t, st) = parts(&mut t);
        t.cwnd = cwnd;
        t.ssthresh = ssthresh;
        opencwnd(t, st, &b, &mut sim.w);
        t.cwnd
    }

    #[test]
    fn window_opening_rules() {
        // Plain RFC 793: the receiver's window at once.
        assert_eq!(opened(|s, _, _| s.set_wnd(30.0), 1.0, 8), 30.0);
        // Slow start below ssthresh_, 1/cwnd above.
        assert_eq!(opened(|_, st, _| st.slowstart = 1, 2.0, 8), 3.0);
        assert_eq!(opened(|_, st, _| st.slowstart = 1, 8.0, 8), 8.125);
        // Multiplicative increase: jump to ssthresh_, then one per ACK.
        assert_eq!(opened(|_, st, _| st.exponinc = 1, 2.0, 8), 8.0);
        assert_eq!(opened(|_, st, _| st.exponinc = 1, 8.0, 8), 9.0);
        // Additive increase: jump to ssthresh_, then linear (windowOption_ 0
        // counts ACKs up to cwnd).
        assert_eq!(opened(|_, st, _| st.additiveinc = 1, 2.0, 8), 8.0);
        assert_eq!(opened(|_, st, _| st.additiveinc = 1, 4.0, 4), 4.25);
        let per_window = |s: &mut Sender, st: &mut Rfc793State, w: &World| {
            st.additiveinc = 1;
            s.select_growth(0, w);
        };
        assert_eq!(opened(per_window, 1.0, 1), 2.0);
        // maxcwnd_ caps every rule.
        let capped = |s: &mut Sender, _: &mut Rfc793State, _: &World| {
            s.set_wnd(30.0);
            s.maxcwnd = 12;
        };
        assert_eq!(opened(capped, 1.0, 8), 12.0);
    }

    #[test]
    fn rto_is_two_srtt_or_jacobsons() {
        for (jacobson, rto) in [(false, 10.0), (true, 15.0)] {
            let mut sim = Sim::new();
            let (mut agent, b) = sender(&mut sim, |s, st, _| {
                st.jacobsonrtt = jacobson as i32;
                s.rtxcur_init = 6.0;
            });
            let (t, st) = parts(&mut agent);
            assert_eq!(st.rto, 60.0, "reset: rtxcur_init_ / tcpTick_ ticks");
            t.ts_option = true;
            rtt_update(t, st, &b, &mut sim.w, 0.5); // first sample: 5 ticks
            assert_eq!((t.t_rtt, t.t_srtt, t.t_rttvar), (5, 40, 10));
            assert_eq!(st.rto, rto);
            assert!((t.t_rtxcur - rto * 0.1).abs() < 1e-12);
            assert_eq!(parts(&mut agent).1.rto, if jacobson { 15.0 } else { 10.0 });
        }
    }

    #[test]
    fn backoff_only_with_the_switch() {
        let mut sim = Sim::new();
        let (mut agent, b) = sender(&mut sim, |_, st, _| st.expbackoff = 0);
        let (t, st) = parts(&mut agent);
        t.t_backoff = 4;
        rtt_backoff(t, st, &b, &mut sim.w);
        assert_eq!(t.t_backoff, 1);
        let (mut agent, b) = sender(&mut sim, |_, _, _| {});
        let (t, st) = parts(&mut agent);
        t.t_srtt = 80;
        t.t_rttvar = 4;
        for want in [2, 4, 8, 16, 32, 64, 64] {
            rtt_backoff(t, st, &b, &mut sim.w);
            assert_eq!(t.t_backoff, want);
        }
        // Past 8 the srtt is folded into rttvar and cleared.
        assert_eq!((t.t_srtt, t.t_rttvar), (0, 14));
    }

}
