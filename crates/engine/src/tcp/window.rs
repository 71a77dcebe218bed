//! Window dynamics: `opencwnd` (slow start, then the growth rule of
//! `growth/`), `slowdown` (the cuts after a loss or a mark), `newack`,
//! the ECN response (RFC 3168's once-per-window cut) and ELN.

use super::*;

impl Sender {
    /// `TcpAgent::opencwnd`: slow start or congestion avoidance.  Inlined
    /// into its callers (every one-way ACK's, Linux TCP's, two-way TCP's).
    #[inline(always)]
    pub(super) fn opencwnd(&mut self, b: &AgentBase, w: &mut World) {
        if self.cwnd < self.ssthresh as f64 {
            let c = self.cwnd + 1.0;
            self.set_cwnd(b, w, c);
        } else if let Some(c) = self.growth_increase(w) {
            self.set_cwnd(b, w, c);
        }
        if self.maxcwnd != 0 {
            self.cap_cwnd(b, w);
        }
    }

    /// The end of `opencwnd`: `maxcwnd_`, when set, caps cwnd_.  Out of
    /// line: rarely set, and inlined, the compiler works out the cast on
    /// every ACK.
    #[cold]
    #[inline(never)]
    pub(super) fn cap_cwnd(&mut self, b: &AgentBase, w: &mut World) {
        if (self.cwnd as i32) > self.maxcwnd {
            let c = self.maxcwnd as f64;
            self.set_cwnd(b, w, c);
        }
    }

    /// `TcpAgent::slowdown`: reduce ssthresh and/or cwnd (with the growth
    /// rule's decrease, and New-ECN's cut by its own factor).
    pub(super) fn slowdown(&mut self, b: &AgentBase, w: &mut World, how: u32) {
        let (windowd, window) = (self.windowd(), self.window());
        self.slowdown_with(b, w, how, windowd, window)
    }

    /// `slowdown` with the flavour's `windowd()` and `window()` (Linux's
    /// are its own window, `linux.rs`).
    pub(super) fn slowdown_with(&mut self, b: &AgentBase, w: &mut World, how: u32, windowd: f64, window: i32) {
        let mut slowstart = false;
        self.inc(b, w, Tv::Ncwndcuts, 1);
        if how & TCP_IDLE == 0 && how & NO_OUTSTANDING_DATA == 0 {
            self.inc(b, w, Tv::Ncwndcuts1, 1);
        }
        if self.cwnd < self.ssthresh as f64 {
            slowstart = true;
        }
        let halfwin = if self.precision_reduce { windowd / 2.0 } else { (window / 2) as f64 };
        let decreasewin =
            self.growth.decreased_window(
                &growth::Cut { cwnd: self.cwnd, windowd, window, precise: self.precision_reduce },
                &mut self.decrease_num,
            );
        let win = if self.precision_reduce { windowd } else { window as f64 };
        if how & CLOSE_SSTHRESH_HALF != 0 {
            if self.first_decrease || slowstart || self.last_cwnd_action == CWND_ACTION_TIMEOUT {
                self.seti(b, w, Tv::Ssthresh, halfwin as i32);
            } else {
                self.seti(b, w, Tv::Ssthresh, decreasewin as i32);
            }
        } else if how & THREE_QUARTER_SSTHRESH != 0 && (self.ssthresh as f64) < 3.0 * self.cwnd / 4.0 {
            self.seti(b, w, Tv::Ssthresh, (3.0 * self.cwnd / 4.0) as i32);
        }
        if how & CLOSE_SSTHRESH_NEW != 0 {
            if let Some(factor) = self.growth.ecn_factor() {
                let s = (self.ssthresh as f64 * factor) as i32;
                self.seti(b, w, Tv::Ssthresh, s);
            }
        }
        if how & CLOSE_CWND_HALF != 0 {
            if self.first_decrease || slowstart || self.decrease_num == 0.5 {
                self.set_cwnd(b, w, halfwin);
            } else {
                self.set_cwnd(b, w, decreasewin);
            }
        } else if how & CWND_HALF_WITH_MIN != 0 {
            self.set_cwnd(b, w, decreasewin);
            if self.cwnd < 1.0 {
                self.set_cwnd(b, w, 1.0);
            }
        } else if how & CLOSE_CWND_RESTART != 0 {
            let c = self.wnd_restart as i32 as f64;
            self.set_cwnd(b, w, c);
        } else if how & CLOSE_CWND_INIT != 0 {
            let c = self.wnd_init as i32 as f64;
            self.set_cwnd(b, w, c);
        } else if how & CLOSE_CWND_ONE != 0 {
            self.set_cwnd(b, w, 1.0);
        } else if how & CLOSE_CWND_HALF_WAY != 0 {
            let c = self.qopt.w_used as f64 + self.decrease_num * (win - self.qopt.w_used as f64);
            self.set_cwnd(b, w, c);
            if self.cwnd < 1.0 {
                self.set_cwnd(b, w, 1.0);
            }
        } else if how & CLOSE_CWND_NEW != 0 {
            if let Some(factor) = self.growth.ecn_factor() {
                // (the window before the cut: nothing above changed it)
                let smallwin = (window as f64 * factor) as i32;
                if smallwin >= 0 {
                    self.set_cwnd(b, w, smallwin as f64);
                }
            }
        }
        if self.ssthresh < 2 {
            self.seti(b, w, Tv::Ssthresh, 2);
        }
        if how & (CLOSE_CWND_HALF | CLOSE_CWND_RESTART | CLOSE_CWND_INIT | CLOSE_CWND_ONE | CLOSE_CWND_NEW) != 0 {
            self.cong_action = true;
        }
        // (ns-2's `fcnt_ = count_ = 0`; New-ECN's slope)
        self.growth.after_cut(how, w.s.now);
        if self.first_decrease {
            self.first_decrease = false;
        }
        if self.cwnd == 1.0 || slowstart {
            self.trace_event(b, w, crate::trace::TcpEvent::SlowStart);
        }
    }

    /// `TcpAgent::newack`: an ACK for new data.  (SACK's and Vegas's
    /// callers; `recv_newack_helper` has it inlined.)
    #[inline(never)]
    pub(super) fn newack(&mut self, b: &AgentBase, w: &mut World, ack: &AckInfo) {
        self.newack_inline(b, w, ack)
    }

    /// `newack` itself, inlined into `recv_newack_helper`, through which
    /// nearly every new ACK comes: one call less per ACK.
    #[inline(always)]
    pub(super) fn newack_inline(&mut self, b: &AgentBase, w: &mut World, ack: &AckInfo) {
        let now = w.s.now;
        if !self.timerfix {
            self.newtimer(w, ack);
        }
        self.seti(b, w, Tv::Dupacks, 0);
        self.last_ack = ack.seqno;
        self.prev_highest_ack = self.highest_ack;
        let la = self.last_ack;
        self.seti(b, w, Tv::Ack, la);
        if self.t_seqno < self.last_ack + 1 {
            self.seti(b, w, Tv::TSeqno, la + 1);
        }
        if !ack.no_ts {
            if self.ts_option {
                self.ts_echo = ack.ts_echo;
                self.rtt_update(b, w, now - ack.ts_echo);
                if self.ts_reset_rto && (!self.ect || !self.ecn_backoff || !ack.ecnecho) {
                    self.seti(b, w, Tv::Backoff, 1);
                    self.ecn_backoff = false;
                }
            }
            if self.rtt_active && ack.seqno >= self.rtt_seq {
                if !self.ect || !self.ecn_backoff || !ack.ecnecho {
                    self.seti(b, w, Tv::Backoff, 1);
                    self.ecn_backoff = false;
                }
                self.rtt_active = false;
                if !self.ts_option {
                    let tao = now - self.rtt_ts;
                    self.rtt_update(b, w, tao);
                }
            }
        }
        if self.timerfix {
            self.newtimer(w, ack);
        }
        self.awnd *= 1.0 - self.wnd_th;
        self.awnd += self.wnd_th * self.cwnd;
    }

    /// `TcpAgent::ecn`: respond to ECN-Echo at most once per window (with
    /// the flavour's `rtt_backoff`).
    pub(super) fn ecn_response<V: Virtuals>(&mut self, v: &mut V, b: &AgentBase, w: &mut World, seqno: i32) {
        if let Some(c) = self.growth.mark_response(self.cwnd) {
            self.mark_cut(b, w, c);
            return;
        }
        if seqno > self.recover || self.last_cwnd_action == CWND_ACTION_TIMEOUT {
            self.recover = self.maxseq;
            self.last_cwnd_action = CWND_ACTION_ECN;
            if self.cwnd <= 1.0 {
                if self.ecn_backoff {
                    v.rtt_backoff(self, b, w);
                } else {
                    self.ecn_backoff = true;
                }
            } else {
                self.ecn_backoff = false;
            }
            let (windowd, window) = (self.windowd(), v.window(self));
            if self.growth.ecn_factor().is_some() {
                // The rule's own cut (New-ECN's alpha_wnd).
                self.slowdown_with(b, w, CLOSE_CWND_NEW | CLOSE_SSTHRESH_NEW, windowd, window);
            } else {
                self.slowdown_with(b, w, CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF, windowd, window);
            }
            self.inc(b, w, Tv::Necnresponses, 1);
        }
    }

    /// A growth rule's own response to one ECN-Echo (ECN-mod's per-mark
    /// cut to `c`): a mark also ends slow start (ssthresh_ becomes the cut
    /// window, at least 2), and the next packet carries CWR (RFC 3168,
    /// 6.1.2).  Loss recovery's state (`recover_`, `last_cwnd_action_`) is
    /// left alone: losses are the flavour's.
    #[cold]
    fn mark_cut(&mut self, b: &AgentBase, w: &mut World, c: f64) {
        self.set_cwnd(b, w, c);
        if self.cwnd < self.ssthresh as f64 {
            self.seti(b, w, Tv::Ssthresh, (self.cwnd as i32).max(2));
        }
        self.cong_action = true;
        self.inc(b, w, Tv::Necnresponses, 1);
    }

    pub(super) fn network_limited(&self) -> bool {
        self.t_seqno > self.prev_highest_ack + self.window()
    }

    /// `TcpAgent::recv_newack_helper`.
    pub(super) fn recv_newack_helper(&mut self, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
        self.newack_inline(b, &mut sim.w, ack);
        // (New-ECN opens the window on every ACK without ECN-Echo; old_ecn_
        // does not apply to it.)
        let open = !self.ect || !ack.ecnecho || (self.old_ecn && self.ecn_burst && self.growth.opens_in_ecn_burst());
        if open {
            if self.control_increase == 0 || self.network_limited() {
                self.opencwnd(b, &mut sim.w);
            }
        }
        self.recv_newack_tail(b, sim, ack)
    }

    /// The end of `recv_newack_helper`, after the window opened (XCP's,
    /// which never opens it, calls it too).
    #[inline(always)]
    pub(super) fn recv_newack_tail(&mut self, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
        if self.ect {
            if !ack.ecnecho {
                self.ecn_backoff = false;
            }
            if !self.ecn_burst && ack.ecnecho {
                self.ecn_burst = true;
            } else if self.ecn_burst && !ack.ecnecho {
                self.ecn_burst = false;
            }
        }
        if !self.ect && ack.ecnecho && !ack.cong_action {
            self.ect = true;
        }
        if self.highest_ack >= self.curseq - 1 && !self.closed {
            self.closed = true;
            self.finish(b, sim);
        }
        if self.qopt.qoption != 0 && self.curseq == self.highest_ack + 1 {
            self.cancel_rtx_timer(&mut sim.w);
        }
        self.frto_newack(b, &mut sim.w);
    }

    /// `TcpAgent::trace_event`: the event trace this sender was given, if
    /// any, records `ev` (an `E` line of `$ns eventtrace-all`).
    pub(super) fn trace_event(&self, b: &AgentBase, w: &mut World, ev: crate::trace::TcpEvent) {
        if self.et == crate::sim::NONE {
            return;
        }
        let now = w.s.now;
        w.out.with_tracer(|t, out| t.tcp_event(out, now, self.et, b, self, ev));
    }

    /// `TcpAgent::finish`: the connection sent all it had; `$agent done`.
    pub(super) fn finish(&mut self, b: &AgentBase, sim: &mut Sim) {
        sim.w.notify(crate::notice::Notice::SenderDone { agent: b.id });
    }

    pub(super) fn initial_window(&self, b: &AgentBase, w: &mut World) -> f64 {
        // an approved Quick-Start window (`tcp/quickstart.rs`)
        if self.qs.cwnd != 0 {
            return self.qs.cwnd as f64;
        }
        if self.wnd_init_option == 1 {
            return self.wnd_init;
        } else if self.wnd_init_option == 2 {
            if b.size <= 1095 {
                return 4.0;
            } else if b.size < 2190 {
                return 3.0;
            } else {
                return 2.0;
            }
        }
        w.warn(crate::notice::Warning::InitialWindowOption { agent: b.id, option: self.wnd_init_option });
        2.0
    }

    /// `TcpAgent::send_one`: limited transmit on the first dup ACKs.
    pub(super) fn send_one(&mut self, b: &mut AgentBase, sim: &mut Sim) {
        if (self.t_seqno as f64) <= self.highest_ack as f64 + self.wnd
            && self.t_seqno < self.curseq
            && (self.t_seqno as f64) <= self.highest_ack as f64 + self.cwnd + self.dupacks as f64
        {
            let s = self.t_seqno;
            self.output(b, sim, s, 0);
            if self.qopt.qoption != 0 {
                self.process_qoption_after_send(b, &mut sim.w);
            }
            self.inc(b, &mut sim.w, Tv::TSeqno, 1);
        }
    }

    /// Every flavour's `recv`, after a new ACK: the first one (`last_ack_`
    /// was 0) opens the window to the initial window when `delay_growth_`
    /// held it back.
    #[inline(always)]
    pub(super) fn first_ack_window(&mut self, b: &AgentBase, w: &mut World) {
        if self.last_ack == 0 && self.delay_growth {
            let iw = self.initial_window(b, w);
            self.set_cwnd(b, w, iw);
        }
    }

    /// Every flavour's `recv`, at a duplicate ACK: one carrying ELN (with
    /// `eln_` on) goes to `tcp_eln` and is freed (true: nothing more to do).
    #[inline(always)]
    pub(super) fn eln_dupack<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo, p: PktId) -> bool {
        if ack.eln && self.eln != 0 {
            self.tcp_eln(v, b, sim, ack);
            sim.w.pool.free(p);
            return true;
        }
        false
    }

    /// `TcpAgent::tcp_eln` (with the flavour's `output`).
    #[cold]
    #[inline(never)]
    pub(super) fn tcp_eln<V: Virtuals>(&mut self, v: &mut V, b: &mut AgentBase, sim: &mut Sim, ack: &AckInfo) {
        self.inc(b, &mut sim.w, Tv::Dupacks, 1);
        if self.dupacks == self.eln_rxmit_thresh && ack.seqno > self.eln_last_rxmit {
            let s = self.last_ack + 1;
            v.output(self, b, sim, s, REASON_DUPACK, None);
            self.eln_last_rxmit = self.last_ack + 1;
        } else {
            let mb = self.maxburst;
            self.send_much_with(v, b, sim, false, 0, mb, None);
        }
    }
}
