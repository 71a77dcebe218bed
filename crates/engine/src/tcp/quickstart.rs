//! The sender's side of Quick-Start (`quickstart.rs` has the option and
//! the routers; tcp/tcp.cc `output`'s request, `processQuickStart`,
//! `endQuickStart`, `lossQuickStart`, `send_much`'s pacing): the first
//! segment asks for a rate; an approval echoed in the first ACK becomes
//! the initial window (rate times the measured round trip, in segments),
//! sent paced over a round trip, each segment marked as Quick-Start's;
//! the next new ACK ends the phase and brings the window down to what was
//! used; a loss among the Quick-Start segments (with `tcp_qs_recovery`)
//! restarts slow start from the initial window instead of a fast
//! retransmit.  Everything here is off the per-packet path: the sender
//! calls in only while a request or an approval is outstanding.

use super::*;
use crate::quickstart::{QsKind, QsOption};

/// Quick-Start's parameters (ns-2's `rate_request_`, `qs_enabled_`, ...)
/// and the sender's state.
#[derive(Clone, Debug)]
pub struct QuickStart {
    /// The rate to ask for, KB/s.
    pub rate_request: i32,
    pub qs_enabled: bool,
    /// A loss among the Quick-Start segments restarts slow start.
    pub tcp_qs_recovery: bool,
    /// 1: ask for no more than the data waiting can use in `qs_rtt` ms,
    /// and not at all with fewer than `qs_thresh` segments waiting.
    pub qs_request_mode: i32,
    pub qs_thresh: i32,
    pub qs_rtt: i32,
    /// Print the requests and the windows they give.
    pub print_request: bool,
    /// A request is out (its answer is read from the next ACK).
    pub requested: bool,
    /// The approved window is being sent.
    pub approved: bool,
    /// The Quick-Start phase's highest segment until it is all acked (a
    /// loss before then is a Quick-Start loss); 0: none.
    pub window: i32,
    /// The approved initial window, segments (0: none).
    pub cwnd: i32,
    /// The IP TTL less the option's, as sent: the echo must match it.
    pub ttl_diff: i32,
    /// A request, an approval or a Quick-Start phase is outstanding: the
    /// one test on an ACK's path (`qs_on_ack`).
    pub armed: bool,
}

impl Default for QuickStart {
    /// ns-2's constructor values.
    fn default() -> Self {
        QuickStart {
            rate_request: 0,
            qs_enabled: false,
            tcp_qs_recovery: true,
            qs_request_mode: 1,
            qs_thresh: 4,
            qs_rtt: 50,
            print_request: false,
            requested: false,
            approved: false,
            window: 0,
            cwnd: 0,
            ttl_diff: 0,
            armed: false,
        }
    }
}

impl Sender {
    /// `output` of segment 0 with Quick-Start on: the request, if there is
    /// enough data waiting to ask for one.
    #[cold]
    #[inline(never)]
    pub(super) fn qs_request(&mut self, b: &AgentBase, w: &mut World, p: PktId) {
        let hs = self.headersize(b, w);
        // kilobytes waiting to be sent
        let waiting = self.curseq.wrapping_sub(self.maxseq).wrapping_sub(1);
        let dataout = waiting.wrapping_mul(b.size.wrapping_add(hs)) / 1024;
        let mut rr = self.qs.rate_request;
        if self.qs.qs_request_mode == 1 && self.qs.qs_rtt > 0 {
            let fits = dataout.wrapping_mul(1000) / self.qs.qs_rtt;
            if fits < rr {
                rr = fits;
            }
            if waiting < self.qs.qs_thresh {
                rr = 0;
            }
        }
        if rr > 0 {
            if self.qs.print_request {
                w.c_stdout.extend_from_slice(format!("QS request (before encoding): {rr} KBps\n").as_bytes());
            }
            let ttl = w.rng.default_stream().uniform_int(256);
            self.qs.ttl_diff = (b.ttl - ttl) % 256;
            let rate = w.qs_rate_code.from_bps(rr.wrapping_mul(1024) as f64);
            w.pool.set_qs_option(p, QsOption { kind: QsKind::Request, ttl, rate });
            self.qs.requested = true;
            self.qs.armed = true;
        }
    }

    /// The start of `recv` (Tahoe, Reno, NewReno, SACK) while a request,
    /// an approval or a phase is outstanding: the phase is over once all
    /// its segments are acked (ns-2 tests this after each new ACK's
    /// `newack`; nothing reads it before the next ACK, so here); a new ACK
    /// ends the approved window; the answer to a request is read.
    #[cold]
    #[inline(never)]
    pub(super) fn qs_on_ack(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId, seqno: i32, ts_echo: f64) {
        if self.qs.window != 0 && self.highest_ack >= self.qs.window {
            self.qs.window = 0;
        }
        if self.qs.approved && seqno > self.last_ack {
            self.qs_end(b, &mut sim.w);
        }
        if self.qs.requested {
            self.qs_answer(b, &mut sim.w, p, ts_echo);
        }
        self.qs.armed = self.qs.requested || self.qs.approved || self.qs.window != 0;
    }

    /// `endQuickStart`: the phase is over; the window comes down to what
    /// was sent in it (not below the initial window).
    fn qs_end(&mut self, b: &AgentBase, w: &mut World) {
        self.qs.approved = false;
        self.qs.cwnd = 0;
        self.qs.window = self.maxseq;
        let used = self.maxseq - self.last_ack;
        if used > 1 && (used as f64) < self.cwnd {
            self.set_cwnd(b, w, used as f64);
            let iw = self.initial_window(b, w);
            if self.cwnd < iw {
                self.set_cwnd(b, w, iw);
            }
        }
    }

    /// `processQuickStart`: an answer approving a rate whose window (rate
    /// times the round trip just measured, in packets) beats the initial
    /// window is taken.
    fn qs_answer(&mut self, b: &AgentBase, w: &mut World, p: PktId, ts_echo: f64) {
        self.qs.requested = false;
        self.qs.approved = false;
        let o = w.pool.qs_option(p);
        if o.kind == QsKind::Response && o.ttl == self.qs.ttl_diff && o.rate > 0 {
            let bps = w.qs_rate_code.to_bps(o.rate);
            let rtt = w.s.now - ts_echo;
            let size = b.size + self.headersize(b, w);
            let app_rate = crate::num::c_int((bps * rtt) / size as f64);
            if self.qs.print_request {
                let line = format!(
                    "Quick Start request, rate: {} Bps, encoded rate: {}\nQuick Start request, window {} rtt: {:4.2} pktsize: {}\n",
                    shortest(bps),
                    o.rate,
                    app_rate,
                    rtt,
                    size
                );
                w.c_stdout.extend_from_slice(line.as_bytes());
            }
            if app_rate as f64 > self.initial_window(b, w) {
                self.qs.cwnd = app_rate;
                self.qs.approved = true;
                // (the sending loop looks for the approval only once the
                // delayed-send timer has been used)
                self.delsnd_used = true;
            }
        }
    }

    /// `lossQuickStart`, at a fast retransmit: a loss among the Quick-Start
    /// segments (with `tcp_qs_recovery`) restarts slow start from the
    /// initial window and retransmits; true if it did.
    #[cold]
    #[inline(never)]
    pub(super) fn qs_loss(&mut self, b: &mut AgentBase, sim: &mut Sim) -> bool {
        if self.qs.window != 0 && self.qs.tcp_qs_recovery {
            self.slowdown(b, &mut sim.w, CLOSE_CWND_INIT);
            self.qs.window = 0;
            let s = self.last_ack + 1;
            self.output(b, sim, s, REASON_DUPACK);
            return true;
        }
        false
    }

    /// The sending loop while the approved window is sent (`send_much`
    /// with `qs_approved_`): one segment, then the delayed-send timer a
    /// round trip over the window later (`per`: the window ns-2 divides by,
    /// `window()` for TcpAgent's loop, `cwnd_` for SACK's).
    pub(super) fn qs_pace(&mut self, w: &mut World, per: f64) {
        let delay = self.t_rtt as f64 * self.tcp_tick / per;
        let d = if self.overhead != 0.0 { delay + w.rng.default_stream().uniform(self.overhead) } else { delay };
        self.delsnd_used = true;
        w.s.timer_resched(self.delsnd_timer, d);
    }

    /// `TcpAgent::send_much` while the approved window is sent: the loop
    /// sends regardless of `overhead_`, one segment per call, paced.
    #[cold]
    #[inline(never)]
    pub(super) fn send_much_qs<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, reason: i32) {
        let win = self.window();
        if self.t_seqno == 0 {
            self.firstsent = sim.w.s.now;
        }
        if self.t_seqno <= self.highest_ack + win && self.t_seqno < self.curseq {
            let s = self.t_seqno;
            v.output_qs(self, b, sim, s, reason);
            if self.qopt.qoption != 0 {
                self.process_qoption_after_send(b, &mut sim.w);
            }
            self.inc(b, &mut sim.w, Tv::TSeqno, 1);
            self.qs_pace(&mut sim.w, win as f64);
        }
    }
}

/// C's `%g` for the rates printed (six significant digits, the shorter of
/// fixed and exponent notation, no trailing zeros).
fn shortest(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let e = format!("{:.5e}", x);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", strip(mant), sign, exp.abs())
    } else {
        strip(&format!("{:.*}", (5 - exp) as usize, x))
    }
}

#[cfg(test)]
mod tests {
    use super::shortest;

    #[test]
    fn rates_print_as_c_does_with_percent_g() {
        assert_eq!(shortest(20480.0), "20480");
        assert_eq!(shortest(40000.0), "40000");
        assert_eq!(shortest(1310720.0), "1.31072e+06");
        assert_eq!(shortest(5.0e6), "5e+06");
        assert_eq!(shortest(102400.0), "102400");
        assert_eq!(shortest(0.5), "0.5");
    }
}
