//! The sender's RTT estimator and retransmission timeout, as
//! `TcpAgent::rtt_init`, `rtt_update`, `rtt_timeout` and `rtt_backoff`
//! (tcp/tcp.cc) compute them: Jacobson and Karels' smoothed RTT and mean
//! deviation in `tcpTick_` units with fixed-point shifts, RFC 2988's
//! bounds when `rfc2988_` is set, exponential backoff.

use super::*;

impl Sender {
    pub(super) fn rtt_init(&mut self, b: &AgentBase, w: &mut World) {
        self.seti(b, w, Tv::Rtt, 0);
        let s = ((self.srtt_init as f64 / self.tcp_tick) as i32) << self.t_srtt_bits;
        self.seti(b, w, Tv::Srtt, s);
        let v = ((self.rttvar_init as f64 / self.tcp_tick) as i32) << self.t_rttvar_bits;
        self.seti(b, w, Tv::Rttvar, v);
        self.t_rtxcur = self.rtxcur_init;
        self.seti(b, w, Tv::Backoff, 1);
    }

    /// `rtt_timeout()` as `set_rtx_timer` needs it: worked out again only
    /// when `t_rtxcur_` or `t_backoff_` changed since (see `rto`).
    #[inline(always)]
    pub(super) fn rtt_timeout_cached(&mut self) -> f64 {
        if self.rto_key != (self.t_rtxcur.to_bits(), self.t_backoff) {
            self.note_rto();
        }
        debug_assert!(!self.use_rtt);
        debug_assert_eq!(self.rto.to_bits(), self.rtt_timeout_of().to_bits(), "RTO parameter set without note_rto");
        self.rto
    }

    /// Work out `rto` again (see there).
    pub fn note_rto(&mut self) {
        self.rto = self.rtt_timeout_of();
        self.rto_key = (self.t_rtxcur.to_bits(), self.t_backoff);
    }

    pub(super) fn rtt_timeout(&mut self) -> f64 {
        let timeout = self.rtt_timeout_of();
        self.use_rtt = false;
        timeout
    }

    /// `TcpAgent::rtt_timeout` but for clearing `use_rtt_`.
    pub(super) fn rtt_timeout_of(&self) -> f64 {
        let mut timeout;
        if self.rfc2988 {
            if self.t_rtxcur < self.minrto && !self.use_rtt {
                timeout = self.minrto * self.t_backoff as f64;
            } else {
                timeout = self.t_rtxcur * self.t_backoff as f64;
            }
        } else {
            timeout = self.t_rtxcur * self.t_backoff as f64;
            if timeout < self.minrto {
                timeout = self.minrto;
            }
        }
        if timeout > self.maxrto {
            timeout = self.maxrto;
        }
        if timeout < 2.0 * self.tcp_tick {
            if timeout < 0.0 {
                // ns-2 prints "TcpAgent: negative RTO!" and exits.
                timeout = 2.0 * self.tcp_tick;
            } else if self.use_rtt && timeout < self.tcp_tick {
                timeout = self.tcp_tick;
            } else {
                timeout = 2.0 * self.tcp_tick;
            }
        }
        timeout
    }

    /// `TcpAgent::rtt_update`: Jacobson's estimator in ticks, with the
    /// send time offset by the agent's random boot time.
    pub(super) fn rtt_update(&mut self, b: &AgentBase, w: &mut World, tao: f64) {
        self.rtt_sample(b, w, tao);
        self.t_rtxcur = self.jacobson_rto_ticks() as f64 * self.tcp_tick;
    }

    /// The sample and smoothing of `rtt_update` (RFC793edu's too): the RTT
    /// `tao` in ticks (from the send time offset by the random boot time,
    /// or rounded with timestamps), at least 1, into `t_rtt_`, then folded
    /// into `t_srtt_` and `t_rttvar_`.
    pub(super) fn rtt_sample(&mut self, b: &AgentBase, w: &mut World, tao: f64) {
        let now = w.s.now;
        let rtt = if self.ts_option {
            (tao / self.tcp_tick + 0.5) as i32
        } else {
            let mut sendtime = now - tao;
            sendtime += self.boot_time;
            let tickoff = sendtime % self.tcp_tick;
            ((tao + tickoff) / self.tcp_tick) as i32
        };
        self.seti(b, w, Tv::Rtt, rtt);
        if self.t_rtt < 1 {
            self.seti(b, w, Tv::Rtt, 1);
        }
        self.smooth_rtt(b, w);
    }

    /// Jacobson's RTO in ticks: srtt + 2^rttvar_exp rttvar (fixed point).
    pub(super) fn jacobson_rto_ticks(&self) -> i32 {
        ((self.t_rttvar << (self.rttvar_exp + (self.t_srtt_bits - self.t_rttvar_bits))) + self.t_srtt) >> self.t_srtt_bits
    }

    /// The smoothing step of `rtt_update`: fold the sample `t_rtt_` into
    /// `t_srtt_` and `t_rttvar_` (fixed point, `T_SRTT_BITS` and
    /// `T_RTTVAR_BITS` fraction bits).
    #[inline(always)]
    pub(super) fn smooth_rtt(&mut self, b: &AgentBase, w: &mut World) {
        if self.t_srtt != 0 {
            // `register short delta` in ns-2.
            let mut delta: i16 = (self.t_rtt - (self.t_srtt >> self.t_srtt_bits)) as i16;
            let s = self.t_srtt + delta as i32;
            self.seti(b, w, Tv::Srtt, s);
            if self.t_srtt <= 0 {
                self.seti(b, w, Tv::Srtt, 1);
            }
            if delta < 0 {
                delta = delta.wrapping_neg();
            }
            delta = delta.wrapping_sub((self.t_rttvar >> self.t_rttvar_bits) as i16);
            let v = self.t_rttvar + delta as i32;
            self.seti(b, w, Tv::Rttvar, v);
            if self.t_rttvar <= 0 {
                self.seti(b, w, Tv::Rttvar, 1);
            }
        } else {
            let s = self.t_rtt << self.t_srtt_bits;
            self.seti(b, w, Tv::Srtt, s);
            let v = self.t_rtt << (self.t_rttvar_bits - 1);
            self.seti(b, w, Tv::Rttvar, v);
        }
    }

    /// `TcpAgent::rtt_backoff` (RFC793edu has its own: `Virtuals`).
    pub(super) fn rtt_backoff(&mut self, b: &AgentBase, w: &mut World) {
        if self.t_backoff < 64 || (self.rfc2988 && self.rtt_timeout() < self.maxrto) {
            let v = self.t_backoff << 1;
            self.seti(b, w, Tv::Backoff, v);
        }
        if self.t_backoff > 8 {
            let v = self.t_rttvar + (self.t_srtt >> self.t_srtt_bits);
            self.seti(b, w, Tv::Rttvar, v);
            self.seti(b, w, Tv::Srtt, 0);
        }
    }
}
