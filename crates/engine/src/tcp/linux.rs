//! ns-2's `Agent/TCP/Linux` (tcp/tcp-linux.cc, by David X. Wei): a
//! one-way, packet-counting sender that runs Linux 2.6's congestion
//! control modules (here the algorithms of `crate::cc`) with Linux's
//! loss-recovery state machine as ns-2 simplifies it.
//!
//! It replaces `TcpAgent`'s `recv`, `timeout`, `send_much`, `window()` and
//! RTT update and shares the rest (`output`, the RTT estimator's state,
//! the retransmission timer):
//!
//! * every ACK is Linux's `tcp_ack`: new data acknowledged (`bytes_acked`
//!   counts bytes), the SACK scoreboard (`ScoreBoard1`, FACK loss marking)
//!   updated, RTT sampled, the module's `pkts_acked` and `cwnd_event`
//!   called, then `cong_avoid` on an ACK that may raise the window and
//!   `tcp_fastretrans_alert` on a dubious one (a loss starts Recovery:
//!   ssthresh from the module, the window `min_cwnd` or ssthresh, and
//!   `next_pkts_in_flight_` halving the sending rate as packets leave);
//! * the window is `snd_cwnd` in packets; what the sender may have out is
//!   `packets_in_flight()` (sent, less acknowledged, SACKed and lost)
//!   below max(cwnd, next_pkts_in_flight_); lost packets go first;
//! * a timeout enters Loss: ssthresh from the module, cwnd 1, every packet
//!   not SACKed marked lost;
//! * `cwnd_`/`ssthresh_` (the traced variables) are copied from the
//!   Linux view after every ACK and timeout (`save_from_linux`).
//!
//! Time as the modules see it is ns-2's: `tcp_time_stamp` (jiffies, ms,
//! truncated) and `ktime_get_real` (ns) are globals of the simulation set
//! when any Linux sender takes an ACK (`World::linux`); in a timeout they
//! are as the last ACK left them.  Without `select_ca` the sender runs
//! ns-2's own window opening and closing (`opencwnd`, `slowdown`).

use super::*;
use crate::cc::{CaEvent, CaState, Cc, Kind, Module, Sock, CA_ACK_ECE, LINUX_ABC, LINUX_DEBUG_LEVEL, LINUX_MAX_BURST};
use super::scoreboard1::ScoreBoard1;

pub const FLAG_ECE: u8 = 1;
pub const FLAG_DATA_SACKED: u8 = 2;
pub const FLAG_DATA_ACKED: u8 = 4;
pub const FLAG_DATA_LOST: u8 = 8;
pub const FLAG_UNSURE_TSTAMP: u8 = 16;
const FLAG_CA_ALERT: u8 = FLAG_DATA_SACKED | FLAG_ECE;
const FLAG_NOT_DUP: u8 = FLAG_DATA_ACKED;

/// ns-2's jiffies and microseconds per second.
const JIFFY_RATIO: f64 = 1000.0;
const US_RATIO: f64 = 1_000_000.0;

/// Agent/TCP/Linux's own state.
#[derive(Clone, Debug, Default)]
pub struct LinuxState {
    /// The Linux view of the connection.
    pub sk: Sock,
    /// The congestion control (`select_ca`), if any.
    pub cc: Option<Cc>,
    pub scb: ScoreBoard1,
    /// The module's `init` has run (at the first ACK after `select_ca`).
    pub initialized: bool,
    /// `next_pkts_in_flight_`: rate halving's allowance (bound).
    pub next_pkts_in_flight: i32,
    /// This sender's own parameter values (`set_ca_param`).
    pub local: Vec<(Module, u8, i32)>,
}

impl LinuxState {
    /// `LinuxTcpAgent::reset`'s own part, before `TcpAgent::reset`.
    pub fn reset_own(&mut self) {
        self.scb.clear();
        self.sk.ca_state = CaState::Open;
        self.sk.snd_cwnd_stamp = 0;
        self.sk.snd_cwnd = 2;
        self.sk.bytes_acked = 0;
        self.initialized = false;
    }

    /// The parameters the hooks see: the algorithm's and the sender's.
    fn load_params(&mut self, w: &World) {
        let sh = &w.linux;
        if let Some(cc) = &self.cc {
            self.sk.p = sh.effective(Module::Cc(cc.kind()), &self.local);
        }
        let lp = sh.effective(Module::Linux, &self.local);
        // `sysctl_tcp_abc` is an unsigned char in ns-2.
        self.sk.abc = lp[LINUX_ABC] as u8 as i32;
        self.sk.debug_level = lp[LINUX_DEBUG_LEVEL] as u8 as i32;
    }

    fn max_burst(&self, w: &World) -> i32 {
        w.linux.effective(Module::Linux, &self.local)[LINUX_MAX_BURST] as u8 as i32
    }

    fn set_ca_state(&mut self, st: CaState) {
        if let Some(cc) = &mut self.cc {
            cc.set_state(&mut self.sk, st);
        }
        self.sk.ca_state = st;
    }

    fn ca_event(&mut self, ev: CaEvent) {
        if let Some(cc) = &mut self.cc {
            cc.cwnd_event(&mut self.sk, ev);
        }
    }

    fn touch_cwnd(&mut self, w: &World) {
        self.sk.snd_cwnd_stamp = w.linux.tcp_time_stamp;
    }

    /// `select_ca NAME`: install the algorithm `kind` (false: unknown).
    pub fn install(&mut self, t: &mut Sender, b: &AgentBase, w: &mut World, kind: Kind) {
        if self.cc.as_ref().map(|c| c.kind()) == Some(kind) {
            return;
        }
        if self.cc.is_some() {
            save_from_linux(t, self, b, w);
        } else {
            load_to_linux_once(t, self, b);
            load_to_linux(t, self);
            t.set_tcp_tick(1.0 / JIFFY_RATIO);
        }
        let mut cc = kind.make();
        if self.initialized {
            // A change in mid-connection: the new module starts at once,
            // with the parameters' defaults (ns-2 loads a sender's own
            // values only while it takes an ACK or a timeout).
            self.sk.p = w.linux.effective(Module::Cc(kind), &[]);
            self.sk.now_jiffies = w.linux.tcp_time_stamp;
            self.sk.now_ns = w.linux.ktime_get_real;
            cc.init(&mut self.sk);
        }
        self.cc = Some(cc);
        if kind.rtt_stamp() {
            t.bugfix_ts = true;
        }
        // An algorithm that needs ECN (DCTCP, Prague: Linux's
        // TCP_CONG_NEEDS_ECN) turns it on; Prague's packets are ECT(1).
        if kind.needs_ecn() {
            t.ecn = true;
        }
        t.ect1 = kind.ect1();
        t.set_out_extra();
        save_from_linux(t, self, b, w);
    }

    /// Sender packets in flight (`packets_in_flight()`).
    fn pif(&self, t: &Sender) -> i32 {
        self.scb.packets_in_flight(t.highest_ack + 1, t.t_seqno)
    }
}

/// `load_to_linux_once`: the clamp, ssthresh and MSS from the sender.
fn load_to_linux_once(t: &Sender, s: &mut LinuxState, b: &AgentBase) {
    s.sk.snd_cwnd_clamp = t.wnd().round() as i64 as u32;
    s.sk.snd_ssthresh = s.sk.snd_cwnd_clamp as u64;
    s.sk.mss_cache = b.size as i64 as u64;
}

/// `load_to_linux`: ssthresh and the window from ns-2's `ssthresh_` and
/// `cwnd_` (the window only when not halving the rate).
fn load_to_linux(t: &Sender, s: &mut LinuxState) {
    s.sk.snd_ssthresh = t.ssthresh as i64 as u64;
    let cwnd_int = s.sk.snd_cwnd as i32;
    if s.next_pkts_in_flight > cwnd_int && t.cwnd >= cwnd_int as f64 {
        s.next_pkts_in_flight = t.cwnd.trunc() as i32;
    } else {
        s.sk.snd_cwnd = t.cwnd.trunc() as i32 as i64 as u64;
    }
    s.sk.snd_cwnd_clamp = t.wnd() as i32 as u32;
}

/// `save_from_linux`: `cwnd_` and `ssthresh_` from the Linux view.
fn save_from_linux(t: &mut Sender, s: &LinuxState, b: &AgentBase, w: &mut World) {
    let c = if s.next_pkts_in_flight > s.sk.snd_cwnd as i32 { s.next_pkts_in_flight as f64 } else { s.sk.snd_cwnd as f64 };
    t.set_cwnd(b, w, c);
    t.seti(b, w, Tv::Ssthresh, s.sk.snd_ssthresh as i32);
    t.last_ack = t.highest_ack;
}

#[inline(never)]
pub fn reset(t: &mut Sender, s: &mut LinuxState, b: &mut AgentBase, sim: &mut Sim) {
    s.reset_own();
    t.reset(b, sim);
    load_to_linux_once(t, s, b);
    load_to_linux(t, s);
}

/// `window()`: the Linux window.
fn window(s: &LinuxState) -> i32 {
    s.sk.snd_cwnd as i32
}

/// `LinuxTcpAgent::rtt_update`: TcpAgent's estimator (without its
/// rttvar floor), the module's `rtt_sample` in microseconds, and
/// Linux's `srtt`.
fn rtt_update(t: &mut Sender, s: &mut LinuxState, b: &AgentBase, w: &mut World, tao: f64, seq: i32) {
    let now = w.s.now;
    let rtt = if t.ts_option {
        (tao / t.tcp_tick + 0.5) as i32
    } else {
        let sendtime = now - tao + t.boot_time;
        let tickoff = sendtime % t.tcp_tick;
        ((tao + tickoff) / t.tcp_tick) as i32
    };
    t.seti(b, w, Tv::Rtt, rtt);
    if let Some(cc) = &mut s.cc {
        if cc.kind().has_rtt_sample() {
            let us = if t.bugfix_ts && seq != 0 && !t.tss.is_empty() {
                ((now - t.tss[seq.rem_euclid(t.tss_size) as usize]) * US_RATIO).round() as u64
            } else {
                (tao * US_RATIO).round() as u64
            };
            cc.rtt_sample(&mut s.sk, us);
        }
    }
    if t.t_rtt < 1 {
        t.seti(b, w, Tv::Rtt, 1);
    }
    if t.t_srtt != 0 {
        let mut delta: i16 = (t.t_rtt - (t.t_srtt >> t.t_srtt_bits)) as i16;
        let v = t.t_srtt + delta as i32;
        t.seti(b, w, Tv::Srtt, v);
        if t.t_srtt <= 0 {
            t.seti(b, w, Tv::Srtt, 1);
        }
        if delta < 0 {
            delta = delta.wrapping_neg();
            delta = delta.wrapping_sub((t.t_rttvar >> t.t_rttvar_bits) as i16);
            if delta > 0 {
                delta >>= t.t_srtt_bits;
            }
        } else {
            delta = delta.wrapping_sub((t.t_rttvar >> t.t_rttvar_bits) as i16);
        }
        let v = t.t_rttvar + delta as i32;
        t.seti(b, w, Tv::Rttvar, v);
    } else {
        let v = t.t_rtt << t.t_srtt_bits;
        t.seti(b, w, Tv::Srtt, v);
        let v = t.t_rtt << (t.t_rttvar_bits - 1);
        t.seti(b, w, Tv::Rttvar, v);
    }
    t.t_rtxcur = t.jacobson_rto_ticks() as f64 * t.tcp_tick;
    s.sk.srtt = t.t_srtt as i64 as u64;
}

/// `renew_timer`.
fn renew_timer(t: &mut Sender, s: &LinuxState, w: &mut World) {
    if t.t_seqno > t.highest_ack || t.highest_ack < t.maxseq || s.sk.snd_cwnd < 1 {
        t.set_rtx_timer(w);
    } else {
        t.cancel_rtx_timer(w);
    }
}

/// An ACK (`LinuxTcpAgent::recv`, Linux's `tcp_ack`).  Out of line, as
/// the other Linux entry points: the common senders' dispatch stays small.
#[inline(never)]
pub fn recv(t: &mut Sender, s: &mut LinuxState, b: &mut AgentBase, sim: &mut Sim, p: PktId, ack: &AckInfo) {
    let now = sim.w.s.now;
    sim.w.linux.tcp_time_stamp = (now * JIFFY_RATIO).trunc() as u64;
    sim.w.linux.ktime_get_real = (now * 1_000_000_000.0).trunc() as i64;
    t.inc(b, &mut sim.w, Tv::Nackpack, 1);
    let prior_snd_una = (t.highest_ack + 1) as i64 as u64;
    let ackno = (ack.seqno + 1) as i64 as u64;
    if ackno > t.t_seqno as i64 as u64 || ackno < prior_snd_una {
        sim.w.pool.free(p);
        return;
    }
    s.load_params(&sim.w);
    s.sk.now_jiffies = sim.w.linux.tcp_time_stamp;
    s.sk.now_ns = sim.w.linux.ktime_get_real;
    let mut flag = 0u8;
    if ack.ecnecho && t.ecn && ackno > 1 {
        flag |= FLAG_ECE;
    }
    let prior_in_flight = s.pif(t);
    if ackno > prior_snd_una {
        s.sk.bytes_acked = s.sk.bytes_acked.wrapping_add((ackno - prior_snd_una) * s.sk.mss_cache);
        flag |= FLAG_DATA_ACKED;
    }
    // ack_processing
    let w = &mut sim.w;
    if flag & FLAG_DATA_ACKED != 0 {
        t.seti(b, w, Tv::Ack, ack.seqno);
        s.sk.snd_una = ((t.highest_ack + 1) as i64 as u64).wrapping_mul(s.sk.mss_cache);
        let m = t.maxseq.max(t.highest_ack);
        t.seti(b, w, Tv::Maxseq, m);
        if t.t_seqno < t.highest_ack + 1 {
            let v = t.highest_ack + 1;
            t.seti(b, w, Tv::TSeqno, v);
            s.sk.snd_nxt = (t.t_seqno as i64 as u64).wrapping_mul(s.sk.mss_cache);
        }
    } else {
        flag |= FLAG_UNSURE_TSTAMP;
    }
    // The scoreboard (ns-2's test `FLAG_DATA_ACKED && ...` is of the
    // constant, always true: any ACK with a non-empty board updates it).
    let (sa_len, sa) = {
        let pk = w.pool.get(p);
        (pk.sa_len as usize, pk.sa)
    };
    let n = sa_len.min(sa.len());
    if n > 0 || !s.scb.is_empty() {
        flag |= s.scb.update(t.highest_ack, &sa[..n], 3);
    }
    // time_processing
    if !t.timerfix {
        renew_timer(t, s, w);
    }
    t.ts_peer = ack.ts;
    s.sk.saw_tstamp = false;
    let mut seq_rtt: u64 = 0;
    if !ack.no_ts && t.ts_option {
        t.ts_echo = ack.ts_echo;
        s.sk.saw_tstamp = true;
        s.sk.rcv_tsecr = (t.ts_echo * JIFFY_RATIO).round() as i64 as u64;
        s.sk.rcv_tsval = (ack.ts * JIFFY_RATIO).round() as i64 as u64;
        let seq = if flag & FLAG_UNSURE_TSTAMP != 0 { 0 } else { ack.seqno };
        rtt_update(t, s, b, w, now - ack.ts_echo, seq);
        seq_rtt = ((now - ack.ts_echo) * JIFFY_RATIO).round() as i64 as u64;
        if t.ts_reset_rto {
            t.seti(b, w, Tv::Backoff, 1);
            if !t.ect || !t.ecn_backoff || !ack.ecnecho {
                t.ecn_backoff = false;
            }
        }
    }
    if t.rtt_active && ack.seqno >= t.rtt_seq {
        if !t.ect || !t.ecn_backoff || !ack.ecnecho {
            t.seti(b, w, Tv::Backoff, 1);
            t.ecn_backoff = false;
        }
        t.rtt_active = false;
        if !s.sk.saw_tstamp {
            let tao = now - t.rtt_ts;
            rtt_update(t, s, b, w, tao, 0);
        }
    }
    if t.timerfix {
        renew_timer(t, s, w);
    }
    t.awnd *= 1.0 - t.wnd_th;
    t.awnd += t.wnd_th * t.cwnd;
    if t.highest_ack >= t.curseq - 1 && !t.closed {
        t.closed = true;
        t.finish(b, sim);
    }
    let w = &mut sim.w;
    if let Some(cc) = &mut s.cc {
        if !s.initialized {
            cc.init(&mut s.sk);
            s.initialized = true;
        }
        cc.in_ack_event(&mut s.sk, if flag & FLAG_ECE != 0 { CA_ACK_ECE } else { 0 });
        if flag & FLAG_NOT_DUP != 0 {
            let last = if flag & FLAG_UNSURE_TSTAMP != 0 || !t.bugfix_ts {
                0
            } else if t.tss.is_empty() {
                // A module that times packets chosen while packets were in
                // flight: ns-2 reads its send-time table before the next
                // packet sent makes it, and crashes (SIGSEGV).
                if cc.kind().rtt_stamp() && !cc.kind().has_rtt_sample() {
                    w.warn_once(format!(
                        "Agent/TCP/Linux {}: select_ca {} with packets in flight; ns-2 2.35 crashes at the next ACK \
                         (its send-time table does not exist yet); Dumbbell goes on without that RTT sample",
                        b.id,
                        cc.kind().name()
                    ));
                }
                0
            } else {
                (t.tss[ack.seqno.rem_euclid(t.tss_size) as usize] * 1_000_000_000.0).trunc() as i64
            };
            cc.pkts_acked(&mut s.sk, ackno - prior_snd_una, last);
        }
        if s.sk.ca_state == CaState::Open && flag & FLAG_CA_ALERT == 0 && flag & FLAG_NOT_DUP != 0 {
            s.ca_event(CaEvent::FastAck);
        } else {
            s.ca_event(CaEvent::SlowAck);
        }
    }
    if !s.sk.log.is_empty() {
        w.c_stdout.append(&mut s.sk.log);
    }
    let dubious = flag & FLAG_NOT_DUP == 0 || flag & FLAG_CA_ALERT != 0 || s.sk.ca_state != CaState::Open;
    if dubious {
        let may_raise = (flag & FLAG_ECE == 0 || s.sk.snd_cwnd < s.sk.snd_ssthresh)
            && !matches!(s.sk.ca_state, CaState::Recovery | CaState::Cwr);
        if flag & FLAG_DATA_ACKED != 0 && may_raise {
            cong_avoid(t, s, b, w, ackno, seq_rtt, prior_in_flight, false);
        }
        fastretrans_alert(t, s, b, w, flag);
    } else if flag & FLAG_DATA_ACKED != 0 {
        t.prev_highest_ack = t.highest_ack;
        cong_avoid(t, s, b, w, ackno, seq_rtt, prior_in_flight, true);
    }
    if s.cc.is_some() {
        save_from_linux(t, s, b, w);
    }
    sim.w.pool.free(p);
    let mb = t.maxburst;
    send_much(t, s, b, sim, false, 0, mb);
}

/// `tcp_cong_avoid`: the module's, or ns-2's `opencwnd` without one.
#[allow(clippy::too_many_arguments)]
fn cong_avoid(t: &mut Sender, s: &mut LinuxState, b: &AgentBase, w: &mut World, ackno: u64, rtt: u64, in_flight: i32, good: bool) {
    if let Some(cc) = &mut s.cc {
        let ack = ackno.wrapping_mul(s.sk.mss_cache);
        cc.cong_avoid(&mut s.sk, ack, rtt, in_flight as i64 as u64, good);
    } else {
        t.opencwnd(b, w);
        load_to_linux(t, s);
    }
    s.touch_cwnd(w);
}

/// `tcp_moderate_cwnd`: at most `tcp_max_burst` beyond what is in flight.
fn moderate_cwnd(t: &Sender, s: &mut LinuxState, w: &World) {
    let c = (s.sk.snd_cwnd as i32).min(s.pif(t) + s.max_burst(w));
    s.sk.snd_cwnd = c as i64 as u64;
    s.touch_cwnd(w);
}

/// `tcp_fastretrans_alert` as ns-2 simplifies it: leave Recovery or Loss
/// once everything outstanding at the loss is acknowledged; enter
/// Recovery on a newly lost packet or an ECN echo.
fn fastretrans_alert(t: &mut Sender, s: &mut LinuxState, b: &AgentBase, w: &mut World, flag: u8) {
    if s.sk.ca_state != CaState::Open && t.highest_ack >= t.recover {
        s.scb.clear();
        if s.cc.is_none() {
            load_to_linux(t, s);
        }
        if s.sk.snd_cwnd < s.sk.snd_ssthresh {
            s.sk.snd_cwnd = s.sk.snd_ssthresh;
            moderate_cwnd(t, s, w);
        }
        s.set_ca_state(CaState::Open);
        s.next_pkts_in_flight = 0;
        return;
    }
    if s.sk.ca_state == CaState::Recovery {
        return;
    }
    if s.cc.as_ref().map_or(false, |c| c.kind().needs_ecn()) {
        return ecn_native_alert(t, s, b, w, flag);
    }
    if flag & (FLAG_DATA_LOST | FLAG_ECE) != 0 {
        t.recover = t.maxseq;
        t.last_cwnd_action = CWND_ACTION_DUPACK;
        s.touch_cwnd(w);
        s.next_pkts_in_flight = s.sk.snd_cwnd as i32;
        if let Some(cc) = &mut s.cc {
            s.sk.snd_ssthresh = cc.ssthresh(&s.sk);
            s.sk.snd_cwnd_cnt = 0;
            s.sk.bytes_acked = 0;
            s.sk.snd_cwnd = cc.min_cwnd(&s.sk);
            t.inc(b, w, Tv::Ncwndcuts, 1);
            t.cong_action = true;
        } else {
            let win = window(s);
            t.slowdown_with(b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF, win as f64, win);
            load_to_linux(t, s);
        }
        if flag & FLAG_ECE != 0 {
            t.inc(b, w, Tv::Necnresponses, 1);
        }
        s.set_ca_state(CaState::Recovery);
    }
}

/// `fastretrans_alert`'s entry for an algorithm that needs ECN (DCTCP,
/// Prague; not in ns-2, which has none): as Linux, an ECN echo alone
/// enters CWR, once per window (`tcp_enter_cwr`: ssthresh from the module,
/// the window cut to it), and a loss enters Recovery, the module hearing
/// of the new state before the window is cut (`tcp_enter_recovery`: its
/// `set_state` may set ssthresh, DCTCP's halving on loss).
fn ecn_native_alert(t: &mut Sender, s: &mut LinuxState, b: &AgentBase, w: &mut World, flag: u8) {
    let lost = flag & FLAG_DATA_LOST != 0;
    let ece = flag & FLAG_ECE != 0 && s.sk.ca_state != CaState::Cwr;
    if !lost && !ece {
        return;
    }
    let Some(cc) = &mut s.cc else { return };
    t.recover = t.maxseq;
    t.last_cwnd_action = CWND_ACTION_DUPACK;
    s.sk.snd_cwnd_stamp = w.linux.tcp_time_stamp;
    s.next_pkts_in_flight = s.sk.snd_cwnd as i32;
    s.sk.snd_ssthresh = cc.ssthresh(&s.sk);
    let new = if lost { CaState::Recovery } else { CaState::Cwr };
    cc.set_state(&mut s.sk, new);
    s.sk.ca_state = new;
    s.sk.snd_cwnd_cnt = 0;
    s.sk.bytes_acked = 0;
    s.sk.snd_cwnd = cc.min_cwnd(&s.sk).min(s.sk.snd_cwnd);
    t.inc(b, w, Tv::Ncwndcuts, 1);
    t.cong_action = true;
    if flag & FLAG_ECE != 0 {
        t.inc(b, w, Tv::Necnresponses, 1);
    }
}

/// `enter_loss`: a timeout.
fn enter_loss(t: &mut Sender, s: &mut LinuxState, b: &AgentBase, w: &mut World) {
    s.load_params(w);
    s.touch_cwnd(w);
    if let Some(cc) = &mut s.cc {
        s.sk.snd_ssthresh = cc.ssthresh(&s.sk);
        cc.cwnd_event(&mut s.sk, CaEvent::Loss);
        s.sk.snd_cwnd = 1;
        s.sk.snd_cwnd_cnt = 0;
        s.sk.bytes_acked = 0;
        t.inc(b, w, Tv::Ncwndcuts, 1);
        t.cong_action = true;
    } else {
        let win = window(s);
        t.slowdown_with(b, w, CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART, win as f64, win);
        load_to_linux(t, s);
    }
    t.recover = t.maxseq;
    s.set_ca_state(CaState::Loss);
    s.scb.mark_loss(t.highest_ack + 1, t.t_seqno);
}

/// A timer fired (`LinuxTcpAgent::timeout`).
#[inline(never)]
pub fn timeout(t: &mut Sender, s: &mut LinuxState, b: &mut AgentBase, sim: &mut Sim, tno: u8) {
    if tno == TIMER_RTX {
        if t.highest_ack == t.maxseq && !t.slow_start_restart {
            return;
        }
        let w = &mut sim.w;
        s.sk.now_jiffies = w.linux.tcp_time_stamp;
        s.sk.now_ns = w.linux.ktime_get_real;
        t.last_cwnd_action = CWND_ACTION_TIMEOUT;
        if t.highest_ack == t.maxseq && t.restart_bugfix {
            if s.cc.is_some() {
                save_from_linux(t, s, b, w);
            }
            let win = window(s);
            t.slowdown_with(b, w, CLOSE_CWND_INIT, win as f64, win);
            load_to_linux(t, s);
        } else {
            enter_loss(t, s, b, w);
            t.inc(b, w, Tv::Nrexmit, 1);
        }
        let backoff = t.highest_ack != t.maxseq;
        t.reset_rtx_timer(b, w, true, backoff);
        s.next_pkts_in_flight = 0;
        s.sk.bytes_acked = 0;
        save_from_linux(t, s, b, w);
        send_much(t, s, b, sim, false, REASON_TIMEOUT, 0);
    } else {
        if s.cc.is_some() {
            save_from_linux(t, s, b, &mut sim.w);
        }
        if tno == TIMER_DELSND {
            let mb = t.maxburst;
            send_much(t, s, b, sim, true, REASON_TIMEOUT, mb);
        }
        load_to_linux(t, s);
    }
}

/// `LinuxTcpAgent::send_much`: lost packets first, then new ones, while
/// fewer than max(cwnd, next_pkts_in_flight_) are in flight.
#[inline(never)]
pub fn send_much(t: &mut Sender, s: &mut LinuxState, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32, maxburst: i32) {
    let mut win = window(s);
    if !force && t.delsnd_pending(&sim.w) {
        return;
    }
    let mut npacket = 0;
    s.next_pkts_in_flight = s.next_pkts_in_flight.min(s.pif(t) + 1);
    while s.pif(t) < win.max(s.next_pkts_in_flight) {
        if t.overhead == 0.0 || force {
            let mut xmit = s.scb.next_retran();
            if xmit == -1 {
                if t.t_seqno >= t.curseq {
                    return;
                }
                xmit = t.t_seqno;
                t.inc(b, &mut sim.w, Tv::TSeqno, 1);
            } else {
                s.scb.mark_retran(xmit, t.t_seqno);
                win = window(s);
            }
            t.output(b, sim, xmit, reason);
            s.next_pkts_in_flight = s.next_pkts_in_flight.min((s.pif(t) - 1).max(1));
            if t.t_seqno <= xmit {
                sim.w.c_stdout.extend_from_slice(b"Hit a strange case 2.\n");
                t.seti(b, &mut sim.w, Tv::TSeqno, xmit + 1);
            }
            s.sk.snd_nxt = (t.t_seqno as i64 as u64).wrapping_mul(s.sk.mss_cache);
            npacket += 1;
        } else if !t.delsnd_pending(&sim.w) {
            t.delsnd_resched(&mut sim.w);
            return;
        }
        if maxburst != 0 && npacket >= maxburst {
            break;
        }
    }
}
