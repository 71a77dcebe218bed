//! Sending: `TcpAgent::output` (one segment), `send_much` (the sending
//! loop, bounded by the window and `maxburst_`), the usable window, and
//! the retransmission and delayed-send timers.

use super::*;

impl Sender {
    /// `TcpAgent::output`: build and send the segment `seqno`.
    /// Vegas and RFC793edu have their own (`vegas::output`,
    /// `rfc793edu::output`); `send_much_with` and `tcp_eln`, the callers
    /// they share, take it from `Virtuals`.
    #[inline(never)]
    pub(super) fn output(&mut self, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32) {
        self.output_inline::<true>(b, sim, seqno, reason, None)
    }

    /// `output` itself, inlined into the sending loop (`send_much_tcp`),
    /// which sends nearly every packet: one call less per packet.  The
    /// segment goes in `spare` (see `send_much_ack`) if given, else in a
    /// new packet.  `QS`: mark the segment as Quick-Start's while an
    /// approved window is sent; the sending loop, which never runs then
    /// (`send_much_qs` does), leaves the test out.
    #[inline(always)]
    pub(super) fn output_inline<const QS: bool>(&mut self, b: &mut AgentBase, sim: &mut Sim, seqno: i32, reason: i32, spare: Option<PktId>) {
        let mut force_set_rtx_timer = false;
        let now = sim.w.s.now;
        let is_retransmit = seqno < self.maxseq;
        // (ns-2 allocates the packet first; nothing here sees the order.)
        if self.bugfix_ts || !self.tss.is_empty() {
            self.note_send_time(b, &mut sim.w, seqno, now);
        }
        let p = match spare {
            Some(p) => {
                b.initpkt(sim, p);
                p
            }
            None => b.allocpkt(sim),
        };
        // `allocpkt` sets the size to packetSize_.
        let mut databytes = b.size;
        {
            debug_assert_eq!(
                self.last_rtt_ms,
                (self.t_rtt as f64 * self.tcp_tick * 1000.0) as i32,
                "t_rtt or tcp_tick set without seti / set_tcp_tick"
            );
            let last_rtt = self.last_rtt_ms;
            // Written right after `allocpkt`'s zeroes, which the compiler
            // then need not store.
            let pk = sim.w.pool.get_mut(p);
            pk.seqno = seqno;
            pk.ts = now;
            pk.ts_echo = self.ts_peer;
            pk.reason = reason;
            pk.last_rtt = last_rtt;
            if self.ecn {
                pk.ecn_capable = true;
            }
            // a segment of the Quick-Start window (for queue monitors)
            if QS && self.qs.approved {
                pk.qs = true;
            }
            if self.cong_action && (!is_retransmit || self.set_cwr_on_retransmit) {
                pk.cong_action = true;
                self.cong_action = false;
            }
        }
        if self.out_extra {
            self.output_extra(b, sim, p);
        }
        if seqno == 0 {
            if self.syn {
                databytes = 0;
                if self.maxseq == -1 {
                    self.inc(b, &mut sim.w, Tv::Curseq, 1);
                }
                sim.w.pool.get_mut(p).size = self.tcpip_base_hdr_size;
                self.syn_connects += 1;
                if self.max_connects > 0 && self.syn_connects > self.max_connects {
                    // Abort the connection (ns-2 leaks the packet here).
                    self.seti(b, &mut sim.w, Tv::Curseq, 0);
                    sim.w.s.timer_resched(self.rtx_timer, 10000.0);
                    self.rtx_pending = true;
                    sim.w.pool.free(p);
                    return;
                }
            }
            if self.ecn {
                let pk = sim.w.pool.get_mut(p);
                pk.ecn = true;
                pk.ecn_capable = false;
            }
            if self.qs.qs_enabled {
                self.qs_request(b, &mut sim.w, p);
            }
        } else if self.use_headers {
            let h = self.headersize(b, &mut sim.w);
            sim.w.pool.get_mut(p).size += h;
        }
        if self.highest_ack == self.maxseq {
            force_set_rtx_timer = true;
        }
        self.inc(b, &mut sim.w, Tv::Ndatapack, 1);
        self.inc(b, &mut sim.w, Tv::Ndatabytes, databytes);
        self.sent(b, sim, p, seqno, databytes, force_set_rtx_timer);
    }

    /// Keep `out_extra` after `ect1` or `xcp` changed.
    pub fn set_out_extra(&mut self) {
        self.out_extra = self.ect1 || self.xcp.is_some();
    }

    /// What `output` adds to some senders' packets: ECT(1) (L4S senders),
    /// the XCP header (XCP's `output_helper`, which reads nothing `output`
    /// changes after this point).
    #[cold]
    #[inline(never)]
    fn output_extra(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        if self.ect1 {
            sim.w.pool.set_ect1(p);
        }
        if self.xcp.is_some() {
            self.xcp_output(b, &mut sim.w, p);
        }
    }

    /// `output`'s timestamp table (`bugFix_ts_`): make it, grow it when
    /// the window outgrows it, and note when `seqno` is sent.
    #[inline(never)]
    pub(super) fn note_send_time(&mut self, b: &AgentBase, w: &mut World, seqno: i32, now: f64) {
        if self.bugfix_ts && self.tss.is_empty() {
            self.tss = vec![0.0; self.tss_size as usize];
        }
        if self.bugfix_ts && (seqno - self.highest_ack) as f64 > self.tss_size as f64 * 0.9 {
            let old = std::mem::take(&mut self.tss);
            let n = (self.tss_size * 2) as usize;
            let mut ntss = vec![0.0; n];
            for i in 0..self.tss_size {
                let from = (self.highest_ack + i).rem_euclid(self.tss_size) as usize;
                let to = (self.highest_ack + i).rem_euclid(self.tss_size * 2) as usize;
                ntss[to] = old[from];
            }
            self.tss_size *= 2;
            self.tss = ntss;
            // TcpAgent::output's `printf("%p resizing timestamp table\n",
            // this)`: C stdio's line, with the agent's address; ours is
            // made from its id, the same in every run (ns-2's differs
            // from run to run)
            let line = format!("0x{:x} resizing timestamp table\n", 0x5555_0000_0000u64 + u64::from(b.id) * 0x1000);
            w.c_stdout.extend_from_slice(line.as_bytes());
        }
        if !self.tss.is_empty() {
            let i = seqno.rem_euclid(self.tss_size) as usize;
            self.tss[i] = now;
        }
    }

    /// The end of `output` (shared with Vegas's and RFC793edu's): send
    /// segment `seqno` (`p`, `databytes` of data), then note a new highest
    /// sequence number (and start timing it) or count a retransmission, and
    /// arm the retransmission timer if it is not pending or `force_rtx`.
    #[inline(always)]
    pub(super) fn sent(&mut self, b: &mut AgentBase, sim: &mut Sim, p: PktId, seqno: i32, databytes: i32, force_rtx: bool) {
        b.send(sim, p);
        if seqno == self.curseq && seqno > self.maxseq {
            b.idle(sim);
        }
        if seqno > self.maxseq {
            self.seti(b, &mut sim.w, Tv::Maxseq, seqno);
            if !self.rtt_active {
                self.rtt_active = true;
                if seqno > self.rtt_seq {
                    self.rtt_seq = seqno;
                    self.rtt_ts = sim.w.s.now;
                }
            }
        } else {
            self.inc(b, &mut sim.w, Tv::Nrexmitpack, 1);
            self.inc(b, &mut sim.w, Tv::Nrexmitbytes, databytes);
        }
        debug_assert_eq!(self.rtx_pending, sim.w.s.timer_status(self.rtx_timer) == TimerStatus::Pending);
        if !self.rtx_pending || force_rtx {
            self.set_rtx_timer(&mut sim.w);
        }
    }

    pub(super) fn force_wnd(&self, num: i32) -> i32 {
        self.recover + num - self.highest_ack
    }

    /// Set `window_` (and `wnd_int`).
    pub fn set_wnd(&mut self, v: f64) {
        self.wnd = v;
        self.wnd_int = v as i32;
    }

    /// The usable window in packets (`window()`, virtual in ns-2:
    /// `TcpAgent`'s, or `RenoTcpAgent`'s with `reno_window`).
    pub fn window(&self) -> i32 {
        debug_assert_eq!(self.wnd_int, self.wnd as i32, "wnd set without set_wnd");
        if self.reno_window {
            let mut win = (self.cwnd as i32 as u32).wrapping_add(self.dupwnd) as i32;
            if self.frto.frto == 2 {
                win = self.force_wnd(2);
            }
            if win > self.wnd_int {
                win = self.wnd_int;
            }
            win
        } else if self.frto.frto == 2 {
            let f = self.force_wnd(2);
            if (f as f64) < self.wnd {
                f
            } else {
                self.wnd_int
            }
        } else if self.cwnd < self.wnd {
            self.cwnd as i32
        } else {
            self.wnd_int
        }
    }

    /// `windowd()`: the window as a double (`TcpAgent`'s, or
    /// `RenoTcpAgent`'s with `reno_window`).
    pub(super) fn windowd(&self) -> f64 {
        if self.reno_window {
            let win = self.cwnd + self.dupwnd as f64;
            if win > self.wnd {
                self.wnd
            } else {
                win
            }
        } else if self.cwnd < self.wnd {
            self.cwnd
        } else {
            self.wnd
        }
    }

    /// `TcpAgent::send_much` of the senders that use `TcpAgent::output`.
    #[inline]
    pub(super) fn send_much_tcp(&mut self, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32, maxburst: i32) {
        self.send_much_with(&mut Base, b, sim, force, reason, maxburst, None)
    }

    /// `send_much(0, 0, maxburst)` at the end of Tahoe's, Reno's and
    /// NewReno's `recv`, which ns-2 calls right after freeing the ACK
    /// `ack_pkt`: the ACK's packet is handed to the loop instead, which
    /// writes the first segment it sends into it (as `allocpkt` would
    /// have: the pool hands out the slot freed last, and `initpkt` draws
    /// the uid as `allocpkt` does) or frees it if it sends nothing.  One
    /// free and one allocation less per ACK.
    #[inline]
    pub(super) fn send_much_ack(&mut self, b: &mut AgentBase, sim: &mut Sim, ack_pkt: PktId, maxburst: i32) {
        self.send_much_with(&mut Base, b, sim, false, 0, maxburst, Some(ack_pkt))
    }

    /// `TcpAgent::send_much`, the sending loop, with the flavour's
    /// `output` (`v`) chosen at compile time, so no loop tests the flavour
    /// per packet.  `spare`, a packet to send the first segment in
    /// (`send_much_ack`; `Base` only), is freed if none is sent.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn send_much_with<V: Virtuals>(
        &mut self,
        v: &mut V,
        b: &mut AgentBase,
        sim: &mut Sim,
        force: bool,
        reason: i32,
        maxburst: i32,
        mut spare: Option<PktId>,
    ) {
        debug_assert!(V::OUTPUT_KEEPS_WINDOW || spare.is_none());
        let mut win = self.window();
        let mut npackets = 0;
        // (an approved Quick-Start window is paced by the delayed-send
        // timer, so `delsnd_used` is set with the approval: one test for
        // both here)
        if self.delsnd_used && self.delsnd_or_qs(b, sim, force, reason) {
            Self::free_spare(sim, spare);
            return;
        }
        if self.t_seqno == 0 {
            self.firstsent = sim.w.s.now;
        }
        // (ns-2 returns here too if `burstsnd_timer_` is pending; it never
        // is, see `burstsnd_timer`.)
        while self.t_seqno <= self.highest_ack + win && self.t_seqno < self.curseq {
            if self.overhead == 0.0 || force {
                let s = self.t_seqno;
                v.output(self, b, sim, s, reason, spare.take());
                npackets += 1;
                if self.qopt.qoption != 0 {
                    self.process_qoption_after_send(b, &mut sim.w);
                }
                self.inc(b, &mut sim.w, Tv::TSeqno, 1);
            } else if !self.delsnd_pending(&sim.w) {
                self.delsnd_resched(&mut sim.w);
                Self::free_spare(sim, spare);
                return;
            }
            // TcpAgent's `output` changes nothing `window()` reads, and
            // nothing the packet meets on its way can (this sender is
            // borrowed here; Tcl callbacks run after the event): only the
            // `QOption_` work (`slowdown`) and Vegas's and RFC793edu's
            // `output` may, so only they need it worked out again.
            if !V::OUTPUT_KEEPS_WINDOW || self.qopt.qoption != 0 {
                win = self.window();
            }
            debug_assert_eq!(win, self.window());
            if maxburst != 0 && npackets == maxburst {
                break;
            }
        }
        Self::free_spare(sim, spare);
    }

    /// The sending loop's start once the delayed-send timer has been used:
    /// true if the loop is done, because the timer is pending (and the
    /// call not forced) or because an approved Quick-Start window is being
    /// sent (`send_much_qs` sent instead).  Only senders with TcpAgent's
    /// `output` ask for Quick-Start (Vegas's and RFC793edu's do not, as in
    /// ns-2), so the approved window is sent with it.
    #[cold]
    #[inline(never)]
    fn delsnd_or_qs(&mut self, b: &mut AgentBase, sim: &mut Sim, force: bool, reason: i32) -> bool {
        if !force && self.delsnd_pending(&sim.w) {
            return true;
        }
        if self.qs.approved {
            self.send_much_qs(&mut Base, b, sim, reason);
            return true;
        }
        false
    }

    /// Free the sending loop's spare packet if it was not used.
    #[inline(always)]
    pub(super) fn free_spare(sim: &mut Sim, spare: Option<PktId>) {
        if let Some(p) = spare {
            sim.w.pool.free(p);
        }
    }

    /// Is the delayed-send timer (`overhead_`) pending?
    #[inline(always)]
    pub(super) fn delsnd_pending(&self, w: &World) -> bool {
        self.delsnd_used && w.s.timer_status(self.delsnd_timer) == TimerStatus::Pending
    }

    /// Schedule the delayed-send timer `Random::uniform(overhead_)` ahead.
    pub(super) fn delsnd_resched(&mut self, w: &mut World) {
        self.delsnd_used = true;
        let d = w.rng.default_stream().uniform(self.overhead);
        w.s.timer_resched(self.delsnd_timer, d);
    }

    pub(super) fn set_rtx_timer(&mut self, w: &mut World) {
        let t = self.rtt_timeout_cached();
        w.s.timer_resched(self.rtx_timer, t);
        self.rtx_pending = true;
    }

    pub(super) fn reset_rtx_timer(&mut self, b: &AgentBase, w: &mut World, mild: bool, backoff: bool) {
        if backoff {
            self.rtt_backoff(b, w);
        }
        self.set_rtx_timer(w);
        if !mild {
            let s = self.highest_ack + 1;
            self.seti(b, w, Tv::TSeqno, s);
        }
        self.rtt_active = false;
    }

    pub(super) fn cancel_rtx_timer(&mut self, w: &mut World) {
        w.s.timer_cancel(self.rtx_timer);
        self.rtx_pending = false;
    }

    /// `TcpAgent::newtimer`.  Inlined: every new ACK calls it.
    #[inline(always)]
    pub(super) fn newtimer(&mut self, w: &mut World, ack: &AckInfo) {
        if self.t_seqno > ack.seqno || ack.seqno < self.maxseq || self.cwnd < 1.0 {
            self.set_rtx_timer(w);
        } else {
            self.cancel_rtx_timer(w);
        }
    }
}
