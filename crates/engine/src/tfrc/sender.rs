//! The TFRC sender (RFC 5348 section 4, as ns-2's `TfrcAgent` models it).
//!
//! Two timers: the send timer paces packets at the current rate (each
//! gap `size / rate`, optionally dithered), the no-feedback timer halves
//! the rate when reports stop (section 4.4).  A report moves the rate:
//! in slow start it doubles once a round trip up to twice the receive rate
//! (section 4.3 step 4); after the first loss it follows the equation,
//! rising by at most a packet per round trip and falling at once.

use crate::agent::AgentBase;
use crate::packet::PktId;
use crate::sim::Sim;
use crate::tfrc::tcp_rate;

/// ns-2's "infinite" amount of data: an application sending without end.
pub const MAXSEQ: i32 = 1 << 30;
const SMALL: f64 = 0.0000001;

/// Timer kinds.
pub const SEND_TIMER: u8 = 0;
pub const NO_FEEDBACK_TIMER: u8 = 1;

/// What the last rate change was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    SlowStart,
    CongAvoid,
    Decrease,
    LeftSlowStart,
}

/// The sender's parameters and state.
#[derive(Clone, Debug)]
pub struct Sender {
    // ---- parameters
    /// Rate at start (bytes/s) until the first report.
    pub init_rate: i32,
    /// Weight of the old value in the RTT averages.
    pub df: f64,
    /// Slow start's factor per round trip.
    pub ssmult: f64,
    /// The equation's b.
    pub bval: i32,
    /// Each gap dithered by up to +-this fraction.
    pub overhead: f64,
    /// Data packets are ECN-capable.
    pub ecn: bool,
    /// Floor of the equation's t_RTO.
    pub minrto: f64,
    /// Initial rate in packets per round trip (with `rate_init_option` 1).
    pub rate_init: f64,
    /// 0: always has data (`start`/`stop`); 1: sends what an application gives.
    pub sndr_type: i32,
    /// 1: `rate_init`; 2: RFC 3390's initial window.
    pub rate_init_option: i32,
    /// In slow start, spread each increase over the round trip.
    pub slow_increase: bool,
    /// Old data-limited behaviour: wait for the timer, always halve.
    pub old_code: bool,
    /// Rounds the rate may stay above twice the receive rate.
    pub max_heavy_rounds: i32,
    /// Add `headersize` to every data packet's size.
    pub use_headers: bool,
    /// Keep an idle or data-limited sender at its initial rate.
    pub idle_fix: bool,
    /// Limit the rate by the receive rate after a loss (oscillation
    /// prevention for heavy congestion).
    pub conservative: bool,
    /// The limit's factor without loss in the last round trip.
    pub scmult: f64,
    /// VoIP mode (RFC 4828): the equation for `fsize` packets, headers counted.
    pub voip: bool,
    pub voip_max_pkt_rate: i32,
    pub fsize: i32,
    pub headersize: i32,
    /// Scale the gap by sqrt(RTT sample) / average sqrt(RTT).
    pub ca: i32,
    /// RFC 6298 estimator granularity and initial values (in ticks).
    pub tcp_tick: f64,
    pub srtt_init: i32,
    pub rttvar_init: i32,
    pub rtxcur_init: f64,
    pub rttvar_exp: i32,
    pub srtt_bits: i32,
    pub rttvar_bits: i32,
    /// Most packets the application may queue.
    pub maxqueue: i32,
    // ---- state
    pub rate: f64,
    pub oldrate: f64,
    pub delta: f64,
    pub phase: Phase,
    pub last_change: f64,
    /// The equation's rate for the last report.
    pub rcvrate: f64,
    /// Ceiling from the receive rate, and slow start's.
    pub maxrate: f64,
    pub ss_maxrate: f64,
    pub rtt: f64,
    pub rttcur: f64,
    pub sqrtrtt: f64,
    pub tzero: f64,
    t_srtt: i32,
    t_rttvar: i32,
    pub t_rtxcur: f64,
    pub ndatapack: i32,
    pub ndatabytes: i32,
    pub true_loss_rate: f64,
    pub active: bool,
    pub round_id: i32,
    pub first_report: bool,
    pub urgent: bool,
    pub all_idle: bool,
    pub datalimited: bool,
    pub lastlimited: f64,
    pub last_pkt_time: f64,
    pub heavyrounds: i32,
    /// Next sequence number to send (-1 before the first start).
    pub seqno: i32,
    /// Highest the application has produced.
    pub maxseq: i32,
    pub send_timer: u32,
    pub nofeedback_timer: u32,
}

impl Sender {
    pub fn new(send_timer: u32, nofeedback_timer: u32) -> Sender {
        Sender {
            init_rate: 300,
            df: 0.95,
            ssmult: 2.0,
            bval: 1,
            overhead: 0.0,
            ecn: false,
            minrto: 0.0,
            rate_init: 2.0,
            sndr_type: 0,
            rate_init_option: 2,
            slow_increase: true,
            old_code: false,
            max_heavy_rounds: 1,
            use_headers: true,
            idle_fix: true,
            conservative: false,
            scmult: 1.5,
            voip: false,
            voip_max_pkt_rate: 100,
            fsize: 1460,
            headersize: 32,
            ca: 1,
            tcp_tick: 0.1,
            srtt_init: 0,
            rttvar_init: 12,
            rtxcur_init: 6.0,
            rttvar_exp: 2,
            srtt_bits: 3,
            rttvar_bits: 2,
            maxqueue: MAXSEQ,
            rate: 0.0,
            oldrate: 0.0,
            delta: 0.0,
            phase: Phase::SlowStart,
            last_change: 0.0,
            rcvrate: 0.0,
            maxrate: 0.0,
            ss_maxrate: 0.0,
            rtt: 0.0,
            rttcur: 1.0,
            sqrtrtt: 1.0,
            tzero: 0.0,
            t_srtt: 0,
            t_rttvar: 0,
            t_rtxcur: 0.0,
            ndatapack: 0,
            ndatabytes: 0,
            true_loss_rate: 0.0,
            active: false,
            round_id: 0,
            first_report: false,
            urgent: false,
            all_idle: false,
            datalimited: false,
            lastlimited: 0.0,
            last_pkt_time: 0.0,
            heavyrounds: 0,
            seqno: -1,
            maxseq: 0,
            send_timer,
            nofeedback_timer,
        }
    }

    /// `size / rtt`: one packet per round trip, in bytes/s.
    fn one_per_rtt(&self, b: &AgentBase) -> f64 {
        b.size as f64 / self.rtt
    }

    /// Application data of `nbytes` (-1: without end), rounded up to whole
    /// packets (`TfrcAgent::sendmsg`).
    pub fn sendmsg(&mut self, b: &AgentBase, sim: &mut Sim, nbytes: i32) {
        if nbytes == -1 && self.maxseq < MAXSEQ {
            self.advanceby(b, sim, MAXSEQ - self.maxseq);
        } else if b.size > 0 {
            let npkts = nbytes / b.size + (nbytes % b.size != 0) as i32;
            if self.maxseq - self.seqno < self.maxqueue {
                self.advanceby(b, sim, npkts);
            }
        }
    }

    /// `advance N`: produce up to packet N.
    pub fn advance(&mut self, b: &AgentBase, sim: &mut Sim, newseq: i32) {
        if newseq > self.maxseq {
            self.advanceby(b, sim, newseq - self.maxseq);
        }
    }

    /// `advanceby N`: N more packets; the first data starts the flow, data
    /// after a data-limited spell is sent at once (unless `old_code`).
    pub fn advanceby(&mut self, b: &AgentBase, sim: &mut Sim, delta: i32) {
        self.maxseq = self.maxseq.wrapping_add(delta);
        if self.seqno == -1 {
            self.start(b, sim);
        } else if self.datalimited && self.maxseq > self.seqno {
            self.datalimited = false;
            self.lastlimited = sim.w.s.now;
            self.all_idle = false;
            if !self.old_code {
                self.sendpkt(b, sim);
            }
        }
    }

    /// Start (or restart) the flow: everything back to its initial value,
    /// one packet now, the next after `size / InitRate`, and the
    /// no-feedback timer at two such gaps (RFC 5348 section 4.2).
    pub fn start(&mut self, b: &AgentBase, sim: &mut Sim) {
        self.seqno = 0;
        self.rate = self.init_rate as f64;
        self.delta = 0.0;
        self.oldrate = self.rate;
        self.phase = Phase::SlowStart;
        self.urgent = true;
        self.rtt = 0.0;
        self.sqrtrtt = 1.0;
        self.rttcur = 1.0;
        self.tzero = 0.0;
        self.last_change = 0.0;
        self.maxrate = 0.0;
        self.ss_maxrate = 0.0;
        self.ndatapack = 0;
        self.ndatabytes = 0;
        self.true_loss_rate = 0.0;
        self.active = true;
        self.round_id = 0;
        self.heavyrounds = 0;
        self.t_srtt = ((self.srtt_init as f64 / self.tcp_tick) as i32) << self.srtt_bits;
        self.t_rttvar = ((self.rttvar_init as f64 / self.tcp_tick) as i32) << self.rttvar_bits;
        self.t_rtxcur = self.rtxcur_init;
        self.rcvrate = 0.0;
        self.all_idle = false;
        self.first_report = false;
        if self.rate == 0.0 {
            // ns-2 divides the packet size by it below (a trap)
            sim.w.abort(crate::notice::Abort::RateDivision { agent: b.id, what: crate::notice::RateDivisor::InitialRate });
            return;
        }
        self.sendpkt(b, sim);
        let size = b.size as f64;
        sim.w.s.timer_resched(self.send_timer, size / self.rate);
        sim.w.s.timer_resched(self.nofeedback_timer, 2.0 * size / self.rate);
    }

    /// Stop sending (the no-feedback timer keeps running, as in ns-2).
    pub fn stop(&mut self, sim: &mut Sim) {
        self.active = false;
        if self.idle_fix {
            self.datalimited = true;
        }
        sim.w.s.timer_cancel(self.send_timer);
    }

    /// A timer expired.
    pub fn timeout(&mut self, b: &AgentBase, sim: &mut Sim, kind: u8) {
        match kind {
            SEND_TIMER => self.nextpkt(b, sim),
            _ => self.no_feedback(b, sim),
        }
    }

    /// The send timer: send if there is data, then set the next gap
    /// (`TfrcAgent::nextpkt`).
    pub fn nextpkt(&mut self, b: &AgentBase, sim: &mut Sim) {
        if self.sndr_type == 0 || self.maxseq > self.seqno {
            self.sendpkt(b, sim);
        } else {
            self.datalimited = true;
        }
        let xrate = if self.slow_increase
            && self.round_id > 2
            && self.phase == Phase::SlowStart
            && self.oldrate + SMALL < self.rate
        {
            // The slow-start increase spread over the round trip.
            self.oldrate += self.delta;
            self.oldrate
        } else if self.ca != 0 {
            // Delay-based congestion avoidance: slower when this round
            // trip is longer than the average.
            self.rate * self.sqrtrtt / self.rttcur.sqrt()
        } else {
            self.rate
        };
        if xrate > SMALL {
            let mut next = b.size as f64 / xrate;
            if self.voip {
                let min_interval = 1.0 / self.voip_max_pkt_rate as f64;
                if next < min_interval {
                    next = min_interval;
                }
            }
            // Dithered by up to +-overhead (the draw is made even at 0).
            let u = sim.w.rng.default_stream().uniform_double();
            next *= 2.0 * self.overhead * u - self.overhead + 1.0;
            sim.w.s.timer_resched(self.send_timer, if next > SMALL { next } else { SMALL });
        }
    }

    /// A data packet with the TFRC header (RFC 5348 section 3.2.1).
    pub fn sendpkt(&mut self, b: &AgentBase, sim: &mut Sim) {
        if !self.active {
            return;
        }
        let now = sim.w.s.now;
        let p = b.allocpkt(sim);
        let seqno = self.seqno;
        self.seqno += 1;
        {
            let pk = sim.w.pool.get_mut(p);
            pk.ecn_capable = self.ecn;
            pk.seqno = seqno;
            if self.use_headers {
                pk.size += self.headersize;
            }
        }
        *sim.w.pool.rate_hdr_mut(p) = crate::packet::RateHdr {
            timestamp: now,
            rtt: self.rtt,
            tzero: self.tzero,
            rate: self.rate,
            psize: b.size,
            fsize: self.fsize,
            urgent: self.urgent,
            round_id: self.round_id,
            ..Default::default()
        };
        self.ndatapack += 1;
        self.ndatabytes = self.ndatabytes.wrapping_add(b.size);
        self.last_pkt_time = now;
        b.send(sim, p);
    }

    /// RTT estimation from a report's echoed timestamp
    /// (`TfrcAgent::update_rtt`): RFC 6298's coarse estimator in ticks for
    /// t_RTO (with ns-2 TCP's fixed-point arithmetic, the difference held
    /// in 16 bits), and EWMAs of the RTT and of its square root, weight
    /// `df` on the old value (RFC 5348 section 4.3 step 2).
    fn update_rtt(&mut self, tao: f64, now: f64) {
        let mut t_rtt = ((now - tao) / self.tcp_tick + 0.5) as i32;
        if t_rtt == 0 {
            t_rtt = 1;
        }
        if self.t_srtt != 0 {
            let mut d = t_rtt.wrapping_sub(self.t_srtt >> self.srtt_bits) as i16;
            self.t_srtt = self.t_srtt.wrapping_add(d as i32);
            if self.t_srtt <= 0 {
                self.t_srtt = 1;
            }
            if d < 0 {
                d = d.wrapping_neg();
            }
            d = (d as i32).wrapping_sub(self.t_rttvar >> self.rttvar_bits) as i16;
            self.t_rttvar = self.t_rttvar.wrapping_add(d as i32);
            if self.t_rttvar <= 0 {
                self.t_rttvar = 1;
            }
        } else {
            self.t_srtt = t_rtt << self.srtt_bits;
            self.t_rttvar = t_rtt << (self.rttvar_bits - 1);
        }
        let shift = self.rttvar_exp + (self.srtt_bits - self.rttvar_bits);
        self.t_rtxcur = (((self.t_rttvar << shift) + self.t_srtt) >> self.srtt_bits) as f64 * self.tcp_tick;
        self.tzero = self.t_rtxcur;
        if self.tzero < self.minrto {
            self.tzero = self.minrto;
        }
        let sample = now - tao;
        if self.rtt > 0.0 {
            self.rtt = self.df * self.rtt + (1.0 - self.df) * sample;
            self.sqrtrtt = self.df * self.sqrtrtt + (1.0 - self.df) * sample.sqrt();
        } else {
            self.rtt = sample;
            self.sqrtrtt = sample.sqrt();
        }
        self.rttcur = sample;
    }

    /// A receiver report (RFC 5348 section 4.3).
    pub fn recv(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        let now = sim.w.s.now;
        let h = sim.w.pool.rate_hdr(p);
        sim.w.pool.free(p);
        // (ns-2 adds the receiver's hold time to the echoed timestamp.)
        let ts = h.ts_echo + h.ts_offset;
        let x_recv = h.recv_rate;
        let flost = h.flost;
        self.true_loss_rate = h.true_loss;
        self.round_id += 1;
        self.urgent = false;
        let size = b.size as f64;
        if self.round_id > 1 && x_recv > 0.0 {
            self.ss_maxrate = 2.0 * x_recv * size;
            self.maxrate = if !self.conservative {
                2.0 * x_recv * size
            } else if h.losses >= 1 {
                // A loss in the last round trip: no more than received.
                x_recv * size
            } else {
                self.scmult * x_recv * size
            };
        } else {
            self.ss_maxrate = 0.0;
            self.maxrate = 0.0;
        }
        self.update_rtt(ts, now);
        if !self.voip {
            self.fsize = b.size;
        }
        self.rcvrate = tcp_rate(flost, self.rtt, self.tzero, self.fsize, self.bval);
        if self.voip {
            // RFC 4828: the header bytes come out of the equation's rate.
            self.rcvrate *= size / (1.0 * self.headersize as f64 + size);
        }
        self.resched_nofeedback(b, sim);
        if !self.first_report {
            self.first_report = true;
            self.slowstart(b, now);
            self.nextpkt(b, sim);
        } else if self.phase == Phase::SlowStart {
            if flost > 0.0 {
                self.phase = Phase::LeftSlowStart;
                self.rate = self.rcvrate;
                self.oldrate = self.rate;
            } else {
                self.slowstart(b, now);
                self.nextpkt(b, sim);
            }
        } else if self.rcvrate > self.rate {
            self.increase_rate(b, now);
        } else {
            self.decrease_rate(b, now);
        }
    }

    /// The no-feedback timer: four round trips (two with ns-2's
    /// `2*rtt`), at least two packet gaps.
    fn resched_nofeedback(&mut self, b: &AgentBase, sim: &mut Sim) {
        let mut t = 2.0 * self.rtt;
        let gaps = (2 * b.size) as f64 / self.rate;
        if t < gaps {
            t = gaps;
        }
        sim.w.s.timer_resched(self.nofeedback_timer, t);
    }

    /// The initial rate in packets per round trip: `rate_init`, or RFC
    /// 3390's window for the packet size (`TfrcAgent::initial_rate`).
    fn initial_rate(&self, b: &AgentBase) -> f64 {
        match self.rate_init_option {
            1 => self.rate_init,
            _ => rfc3390(b.size),
        }
    }

    /// Slow start on a report (`TfrcAgent::slowstart`).
    fn slowstart(&mut self, b: &AgentBase, now: f64) {
        let size = b.size as f64;
        let initrate = self.initial_rate(b) * size / self.rtt;
        let spread = |s: &Sender| (s.rate - s.oldrate) / (s.rate * s.rtt / size);
        if self.round_id <= 1 || (self.round_id == 2 && self.initial_rate(b) > 1.0) {
            // No receive rate yet: at least the initial rate.
            self.oldrate = self.rate;
            if self.rate < initrate {
                self.rate = initrate;
            }
            self.delta = spread(self);
            self.last_change = now;
        } else if self.ss_maxrate > 0.0 {
            if self.idle_fix
                && (self.datalimited || self.lastlimited > now - 1.5 * self.rtt)
                && self.ss_maxrate < initrate
            {
                // Recently data-limited: the receive rate says little.
                self.oldrate = self.rate;
                if self.rate < initrate {
                    self.rate = initrate;
                }
                self.delta = spread(self);
                self.last_change = now;
            } else if self.rate < self.ss_maxrate && now - self.last_change > self.rtt {
                // Once a round trip: times ssmult, at most twice the
                // receive rate (RFC 5348 section 4.3 step 4).
                self.oldrate = self.rate;
                self.rate = if self.ssmult * self.rate > self.ss_maxrate {
                    self.ss_maxrate
                } else {
                    self.ssmult * self.rate
                };
                if self.rate < self.one_per_rtt(b) {
                    self.rate = self.one_per_rtt(b);
                }
                self.delta = spread(self);
                self.last_change = now;
            } else if self.rate > self.ss_maxrate {
                self.rate = self.ss_maxrate / 2.0;
                self.oldrate = self.rate;
                self.delta = 0.0;
                self.last_change = now;
            }
        } else {
            // Nothing received: one packet per round trip.
            self.oldrate = self.rate;
            self.rate = self.one_per_rtt(b);
            self.delta = 0.0;
            self.last_change = now;
        }
    }

    /// The equation allows more: up by one packet per round trip since the
    /// last change (at most two), capped by the receive rate's limit and
    /// the equation (`TfrcAgent::increase_rate`).
    fn increase_rate(&mut self, b: &AgentBase, now: f64) {
        let size = b.size as f64;
        let mult = ((now - self.last_change) / self.rtt).min(2.0);
        self.rate += (size / self.rtt) * mult;
        let floor = if self.datalimited || self.lastlimited > now - 1.5 * self.rtt {
            self.initial_rate(b) * size / self.rtt
        } else {
            size / self.rtt
        };
        let mut maximum = if self.maxrate > floor { self.maxrate } else { floor };
        if maximum > self.rcvrate {
            maximum = self.rcvrate;
        }
        if self.rate > maximum {
            self.rate = maximum;
        }
        self.phase = Phase::CongAvoid;
        self.last_change = now;
        self.heavyrounds = 0;
    }

    /// The equation allows less: its rate at once, above twice the receive
    /// rate for at most `max_heavy_rounds` reports (`decrease_rate`).
    fn decrease_rate(&mut self, b: &AgentBase, now: f64) {
        self.rate = self.rcvrate;
        let per_rtt = self.one_per_rtt(b);
        let maximum = if self.maxrate > per_rtt { self.maxrate } else { per_rtt };
        if self.rate > maximum {
            self.heavyrounds += 1;
        } else {
            self.heavyrounds = 0;
        }
        if self.heavyrounds > self.max_heavy_rounds && self.rate > maximum {
            self.rate = maximum;
        }
        self.phase = Phase::Decrease;
        self.last_change = now;
    }

    /// No report for the timer's span: halve the rate (RFC 5348 section
    /// 4.4), but an idle or data-limited sender keeps its initial rate
    /// (`reduce_rate_on_no_feedback`); then a packet if one is due.
    fn no_feedback(&mut self, b: &AgentBase, sim: &mut Sim) {
        if self.phase != Phase::SlowStart {
            self.phase = Phase::Decrease;
        }
        let size = b.size as f64;
        if self.old_code || (!self.all_idle && !self.datalimited) {
            self.rate *= 0.5;
        } else if (self.rate_init_option == 1 || self.rate_init_option == 2) && self.rtt == 0.0 {
            // No report yet: ns-2 divides by the round trip of 0 (a trap).
            sim.w.abort(crate::notice::Abort::RateDivision { agent: b.id, what: crate::notice::RateDivisor::NoRtt });
            return;
        } else if self.rate_init_option == 1 {
            if self.rate > 2.0 * self.rate_init * size / self.rtt {
                self.rate *= 0.5;
            }
        } else if self.rate_init_option == 2 {
            let w = rfc3390(b.size);
            if self.rate > 2.0 * w * size / self.rtt {
                self.rate *= 0.5;
            } else if self.rate > w * size / self.rtt {
                self.rate = w * size / self.rtt;
            }
        }
        self.urgent = true;
        self.round_id += 1;
        self.resched_nofeedback(b, sim);
        if self.datalimited {
            self.all_idle = true;
        }
        self.nextpkt(b, sim);
    }
}

/// RFC 3390's initial window in packets for packets of `size` bytes.
pub fn rfc3390(size: i32) -> f64 {
    if size <= 1095 {
        4.0
    } else if size < 2190 {
        3.0
    } else {
        2.0
    }
}
