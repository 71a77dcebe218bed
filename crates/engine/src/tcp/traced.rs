//! The sender's traced variables (tclcl's `TracedInt`/`TracedDouble`
//! members of `TcpAgent`): assignments that write a trace line when the
//! variable is traced and its value changed, and their values by name.

use super::*;

impl Sender {
    /// Set a traced integer; write a trace line if it changed and is traced
    /// (tclcl `TracedInt::assign` traces only changes).
    #[inline]
    pub(super) fn seti(&mut self, b: &AgentBase, w: &mut World, tv: Tv, v: i32) {
        let f = self.int_field(tv);
        if *f == v {
            return;
        }
        *f = v;
        if tv == Tv::Rtt {
            self.note_last_rtt();
        }
        if self.traced & tv.bit() != 0 {
            self.trace_var(b, w, tv);
        }
    }

    /// Set `tcpTick_` (and `last_rtt_ms`, `rto`).
    pub fn set_tcp_tick(&mut self, v: f64) {
        self.tcp_tick = v;
        self.note_last_rtt();
        self.note_rto();
    }

    /// Work out `last_rtt_ms` again after `t_rtt_` or `tcpTick_` changed.
    pub(super) fn note_last_rtt(&mut self) {
        self.last_rtt_ms = (self.t_rtt as f64 * self.tcp_tick * 1000.0) as i32;
    }

    #[inline]
    pub(super) fn set_cwnd(&mut self, b: &AgentBase, w: &mut World, v: f64) {
        if self.cwnd == v {
            return;
        }
        self.cwnd = v;
        if self.traced & Tv::Cwnd.bit() != 0 {
            self.trace_var(b, w, Tv::Cwnd);
        }
    }

    #[inline]
    pub(super) fn inc(&mut self, b: &AgentBase, w: &mut World, tv: Tv, by: i32) {
        let v = *self.int_field(tv) + by;
        self.seti(b, w, tv, v);
    }

    pub fn int_field(&mut self, tv: Tv) -> &mut i32 {
        match tv {
            Tv::TSeqno => &mut self.t_seqno,
            Tv::Dupacks => &mut self.dupacks,
            Tv::Curseq => &mut self.curseq,
            Tv::Ack => &mut self.highest_ack,
            Tv::Ssthresh => &mut self.ssthresh,
            Tv::Maxseq => &mut self.maxseq,
            Tv::Rtt => &mut self.t_rtt,
            Tv::Srtt => &mut self.t_srtt,
            Tv::Rttvar => &mut self.t_rttvar,
            Tv::Backoff => &mut self.t_backoff,
            Tv::Ndatapack => &mut self.ndatapack,
            Tv::Ndatabytes => &mut self.ndatabytes,
            Tv::Nackpack => &mut self.nackpack,
            Tv::Nrexmit => &mut self.nrexmit,
            Tv::Nrexmitpack => &mut self.nrexmitpack,
            Tv::Nrexmitbytes => &mut self.nrexmitbytes,
            Tv::Necnresponses => &mut self.necnresponses,
            Tv::Ncwndcuts => &mut self.ncwndcuts,
            Tv::Ncwndcuts1 => &mut self.ncwndcuts1,
            Tv::Singledup => &mut self.singledup,
            Tv::Cwnd => unreachable!("cwnd is a double"),
        }
    }

    /// Write one variable-trace line (`TcpAgent::traceVar` / `traceAll`)
    /// with the tracer.
    pub fn trace_var(&self, b: &AgentBase, w: &mut World, tv: Tv) {
        let Some(ch) = b.channel else { return };
        let (now, started) = (w.s.now, w.started);
        w.out.with_tracer(|t, out| t.tcp_var(out, ch, now, started, b, self, tv));
    }

    /// `t_rtt_`, in ticks.
    pub fn t_rtt(&self) -> i32 {
        self.t_rtt
    }

    /// `tcpTick_`, seconds.
    pub fn tcp_tick(&self) -> f64 {
        self.tcp_tick
    }

    /// `window_`: the most packets outstanding the receiver allows.
    pub fn wnd(&self) -> f64 {
        self.wnd
    }

    /// `maxrto_`, `minrto_` (seconds) and `rfc2988_`: the bounds and the
    /// rule of the retransmission timeout; set them with the setters
    /// below, which keep the timeout worked out from them.
    pub fn maxrto(&self) -> f64 {
        self.maxrto
    }

    pub fn minrto(&self) -> f64 {
        self.minrto
    }

    pub fn rfc2988(&self) -> bool {
        self.rfc2988
    }

    pub fn set_maxrto(&mut self, v: f64) {
        self.maxrto = v;
        self.note_rto();
    }

    pub fn set_minrto(&mut self, v: f64) {
        self.minrto = v;
        self.note_rto();
    }

    pub fn set_rfc2988(&mut self, v: bool) {
        self.rfc2988 = v;
        self.note_rto();
    }

    /// Set traced variable `tv` as an assignment from outside (a script)
    /// does: it traces like the sender's own assignments.  `cwnd_` takes
    /// the real value, the integers `v` truncated as C truncates.
    pub fn set_traced(&mut self, b: &AgentBase, w: &mut World, tv: Tv, v: TracedValue) {
        match (tv, v) {
            (Tv::Cwnd, TracedValue::Real(v)) => self.set_cwnd(b, w, v),
            (Tv::Cwnd, TracedValue::Int(v)) => self.set_cwnd(b, w, v as f64),
            (_, TracedValue::Int(v)) => self.seti(b, w, tv, v),
            (_, TracedValue::Real(v)) => self.seti(b, w, tv, crate::num::c_int(v)),
        }
    }

    /// Current numeric value of a traced integer.
    pub fn traced_int(&self, tv: Tv) -> i32 {
        match tv {
            Tv::TSeqno => self.t_seqno,
            Tv::Dupacks => self.dupacks,
            Tv::Curseq => self.curseq,
            Tv::Ack => self.highest_ack,
            Tv::Ssthresh => self.ssthresh,
            Tv::Maxseq => self.maxseq,
            Tv::Rtt => self.t_rtt,
            Tv::Srtt => self.t_srtt,
            Tv::Rttvar => self.t_rttvar,
            Tv::Backoff => self.t_backoff,
            Tv::Ndatapack => self.ndatapack,
            Tv::Ndatabytes => self.ndatabytes,
            Tv::Nackpack => self.nackpack,
            Tv::Nrexmit => self.nrexmit,
            Tv::Nrexmitpack => self.nrexmitpack,
            Tv::Nrexmitbytes => self.nrexmitbytes,
            Tv::Necnresponses => self.necnresponses,
            Tv::Ncwndcuts => self.ncwndcuts,
            Tv::Ncwndcuts1 => self.ncwndcuts1,
            Tv::Singledup => self.singledup,
            Tv::Cwnd => self.cwnd as i32,
        }
    }
}
