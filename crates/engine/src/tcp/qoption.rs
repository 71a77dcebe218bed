//! TCP quiescence (`QOption_`, tcp/tcp.cc `process_qoption_after_send`,
//! `rtt_counting`, `process_qoption_after_ack`, `reset_qoption`): once the
//! sender has been idle for longer than an RTO (with `EnblRTTCtr_`: two
//! RTTs, counted from the ACKs), ssthresh_ is raised to 3/4 of cwnd_ if
//! lower and cwnd_ is cut by `decrease_num_` once per RTO (RTT) so spent;
//! once it has been application-limited that long, cwnd_ comes down
//! `decrease_num_` of the way to the window it used (`CLOSE_CWND_HALF_WAY`).

use super::*;

/// The option's switches and state (ns-2's names: `T_last` is `t_last`,
/// `RTT_count` `rtt_count`, `W_used` `w_used`, ...).
#[derive(Clone, Debug)]
pub struct QOption {
    /// `QOption_`: on.
    pub qoption: i32,
    /// `EnblRTTCtr_`: count idle time in RTTs rather than RTOs.
    pub enbl_rtt_ctr: i32,
    pub t_full: i32,
    pub t_last: i32,
    pub t_prev: i32,
    pub t_start: i32,
    pub rtt_count: i32,
    pub rtt_prev: i32,
    pub rtt_goodcount: i32,
    pub f_counting: i32,
    /// `W_used`: the most packets in flight lately (read by `slowdown`'s
    /// `CLOSE_CWND_HALF_WAY`).
    pub w_used: i32,
    pub w_timed: i32,
    pub f_full: i32,
    pub backoffs: i32,
}

impl Default for QOption {
    /// ns-2's constructor values.
    fn default() -> Self {
        QOption {
            qoption: 0,
            enbl_rtt_ctr: 0,
            t_full: 0,
            t_last: 0,
            t_prev: 0,
            t_start: 0,
            rtt_count: 0,
            rtt_prev: 0,
            rtt_goodcount: 1,
            f_counting: 0,
            w_used: 0,
            w_timed: -1,
            f_full: 0,
            backoffs: 0,
        }
    }
}

impl Sender {
    /// `TcpAgent::reset`'s part with `QOption_` on.
    pub(super) fn reset_qoption_state(&mut self, w: &World) {
        let now = (w.s.now / self.tcp_tick + 0.5) as i32;
        self.qopt.t_last = now;
        self.qopt.t_prev = now;
        self.qopt.w_used = 0;
        if self.qopt.enbl_rtt_ctr != 0 {
            self.reset_qoption(w);
        }
    }

    /// `TcpAgent::reset_qoption`.
    fn reset_qoption(&mut self, w: &World) {
        let now = (w.s.now / self.tcp_tick + 0.5) as i32;
        self.qopt.t_start = now;
        self.qopt.rtt_count = 0;
        self.qopt.rtt_prev = 0;
        self.qopt.rtt_goodcount = 1;
        self.qopt.f_counting = 0;
        self.qopt.w_timed = -1;
        self.qopt.f_full = 0;
        self.qopt.backoffs = 0;
    }

    /// `TcpAgent::process_qoption_after_send`: after a packet is sent.
    pub(super) fn process_qoption_after_send(&mut self, b: &AgentBase, w: &mut World) {
        let tcp_now = (w.s.now / self.tcp_tick + 0.5) as i32;
        let rto = (self.t_rtxcur / self.tcp_tick) as i32;
        if self.qopt.enbl_rtt_ctr == 0 {
            if tcp_now - self.qopt.t_last >= rto {
                self.slowdown(b, w, THREE_QUARTER_SSTHRESH | TCP_IDLE);
                let n = if rto != 0 { (tcp_now - self.qopt.t_last) / rto } else { 0 };
                for _ in 0..n {
                    self.slowdown(b, w, CWND_HALF_WITH_MIN | TCP_IDLE);
                }
                self.qopt.t_prev = tcp_now;
                self.qopt.w_used = 0;
            }
            self.qopt.t_last = tcp_now;
            if self.t_seqno == self.highest_ack + self.window() {
                self.qopt.t_prev = tcp_now;
                self.qopt.w_used = 0;
            } else if self.t_seqno == self.curseq - 1 {
                let tmp = self.t_seqno - self.highest_ack;
                if tmp > self.qopt.w_used {
                    self.qopt.w_used = tmp;
                }
                if tcp_now - self.qopt.t_prev >= rto {
                    self.slowdown(b, w, THREE_QUARTER_SSTHRESH | TCP_IDLE);
                    self.slowdown(b, w, CLOSE_CWND_HALF_WAY | TCP_IDLE);
                    self.qopt.t_prev = tcp_now;
                    self.qopt.w_used = 0;
                }
            }
        } else {
            self.rtt_counting(b, w);
        }
    }

    /// `TcpAgent::rtt_counting` (`EnblRTTCtr_`).
    fn rtt_counting(&mut self, b: &AgentBase, w: &mut World) {
        let tcp_now = (w.s.now / self.tcp_tick + 0.5) as i32;
        let mut rtt = self.t_srtt >> self.t_srtt_bits;
        if rtt < 1 {
            rtt = 1;
        }
        if tcp_now - self.qopt.t_last >= 2 * rtt {
            let mut rtts = (tcp_now - self.qopt.t_last) * self.qopt.rtt_goodcount / (rtt * 2);
            rtts -= self.qopt.backoffs;
            self.qopt.backoffs = 0;
            if rtts > 0 {
                self.slowdown(b, w, THREE_QUARTER_SSTHRESH | TCP_IDLE);
                for _ in 0..rtts {
                    self.slowdown(b, w, CWND_HALF_WITH_MIN | TCP_IDLE);
                    self.qopt.rtt_prev = self.qopt.rtt_count;
                    self.qopt.w_used = 0;
                }
            }
        }
        self.qopt.t_last = tcp_now;
        if tcp_now - self.qopt.t_start >= 2 * rtt {
            if self.qopt.rtt_count > self.qopt.rtt_goodcount || self.qopt.f_full == 1 {
                self.qopt.rtt_goodcount = self.qopt.rtt_count;
                if self.qopt.rtt_goodcount < 1 {
                    self.qopt.rtt_goodcount = 1;
                }
            }
            self.qopt.rtt_prev -= self.qopt.rtt_count;
            self.qopt.rtt_count = 0;
            self.qopt.t_start = tcp_now;
            self.qopt.f_full = 0;
        }
        if self.t_seqno == self.highest_ack + self.window() {
            self.qopt.w_used = 0;
            self.qopt.f_full = 1;
            self.qopt.rtt_prev = self.qopt.rtt_count;
        } else if self.t_seqno == self.curseq - 1 {
            let tmp = self.t_seqno - self.highest_ack;
            if tmp > self.qopt.w_used {
                self.qopt.w_used = tmp;
            }
            if self.qopt.rtt_count - self.qopt.rtt_prev >= 2 {
                self.slowdown(b, w, THREE_QUARTER_SSTHRESH | TCP_IDLE);
                self.slowdown(b, w, CLOSE_CWND_HALF_WAY | TCP_IDLE);
                self.qopt.rtt_prev = self.qopt.rtt_count;
                self.qopt.backoffs += 1;
                self.qopt.w_used = 0;
            }
        }
        if self.qopt.f_counting == 0 {
            self.qopt.w_timed = self.t_seqno;
            self.qopt.f_counting = 1;
        }
    }

    /// `TcpAgent::process_qoption_after_ack` (`EnblRTTCtr_`).
    pub(super) fn process_qoption_after_ack(&mut self, seqno: i32) {
        if self.qopt.f_counting == 1 {
            if seqno >= self.qopt.w_timed {
                self.qopt.rtt_count += 1;
                self.qopt.f_counting = 0;
            } else if self.dupacks == self.numdupacks {
                self.qopt.rtt_count += 1;
            }
        }
    }
}
