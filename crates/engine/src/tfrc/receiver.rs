//! The TFRC receiver (RFC 5348 sections 5 and 6, as ns-2's
//! `TfrcSinkAgent` models it): the packet history, loss events, the loss
//! event rate and the reports.
//!
//! Every data packet is recorded in a ring of `hsz` slots (status, arrival
//! time, send timestamp).  A gap in the sequence numbers is examined once
//! `num_pkts` later packets or a round trip's worth of them have arrived:
//! a lost packet starts a new loss event if it was sent more than a round
//! trip after the start of the last one (section 5.2; with `precise_loss`
//! also only in a later feedback round), its send time interpolated
//! between its neighbours'.  The loss event rate is estimated by one of
//! four methods (`algo`): the weighted average of the last loss intervals
//! (section 5.4, with history discounting of section 5.5 and the
//! "smooth" variant), an EWMA of the intervals, or the fraction of loss
//! events in a window of packets sized from the equation (fixed or
//! extended).

use crate::agent::AgentBase;
use crate::packet::{PktId, RateHdr};
use crate::sim::Sim;
use crate::tfrc::{loss_for_rate, tcp_rate};

const SMALL: f64 = 0.0000001;
/// The default number of loss intervals averaged (RFC 5348's n = 8).
const DEFAULT_NUMSAMPLES: i32 = 8;

/// A packet's place in the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    Unknown,
    Received,
    /// Lost, the first of a loss event.
    Lost,
    /// Lost, within an earlier loss event.
    NotReceived,
    /// Marked CE, the first of a loss event.
    EcnLost,
    /// Marked CE, within an earlier loss event.
    EcnReceived,
}

/// The loss event rate estimators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Weighted average loss intervals (RFC 5348 section 5.4).
    Wali = 1,
    /// Exponentially weighted moving average of the intervals.
    Ewma = 2,
    /// Loss events in a window sized from the sender's rate.
    Rbph = 3,
    /// Loss events in the whole history, back to `minlc` of them.
    Ebph = 4,
}

impl Algo {
    pub fn from_int(v: i32) -> Option<Algo> {
        Some(match v {
            1 => Algo::Wali,
            2 => Algo::Ewma,
            3 => Algo::Rbph,
            4 => Algo::Ebph,
            _ => return None,
        })
    }
}

/// The loss intervals of the weighted average, newest first: index 0 is
/// the open interval since the last loss event.
#[derive(Clone, Debug, Default)]
pub struct Intervals {
    /// Packets in each interval.
    pub sample: Vec<i32>,
    pub weights: Vec<f64>,
    /// Each interval's discount factor (section 5.5).
    pub mult: Vec<f64>,
    /// Losses in each interval, whether it is short, its round trips
    /// (the `ShortIntervals` variants for small-packet flows).
    pub losses: Vec<i32>,
    pub count_losses: Vec<i32>,
    pub num_rtts: Vec<i32>,
}

/// The receiver's parameters and state.
#[derive(Clone, Debug)]
pub struct Receiver {
    // ---- parameters
    /// History size in packets.
    pub hsz: i32,
    /// Reports per round trip.
    pub num_feedback: f64,
    /// Make up a loss history after slow start (section 6.3.1).
    pub adjust_history_after_ss: i32,
    pub print_loss: i32,
    pub algo: i32,
    pub precise_loss: i32,
    /// Later packets seen before a gap counts as lost.
    pub num_pkts: i32,
    /// Floor of the discount factor.
    pub min_discount_ratio: f64,
    /// Loss intervals averaged (-1: the default 8).
    pub numsamples: i32,
    /// History discounting on.
    pub discount: i32,
    /// The smoother average (weights shifted by one).
    pub smooth: i32,
    pub short_intervals: i32,
    pub short_rtts: i32,
    /// EWMA's weight of the old average.
    pub history: f64,
    /// The window methods' minimum number of loss events.
    pub minlc: i32,
    /// Bytes received (statistics).
    pub bytes: i32,
    // ---- state
    pub psize: i32,
    pub fsize: i32,
    /// The reports' size (`packetSize_`), as of the last report.
    pub ack_size: i32,
    pub rtt: f64,
    pub tzero: f64,
    pub sendrate: f64,
    pub total_received: i32,
    pub total_losses: i32,
    pub total_dropped: i32,
    pub last_report_sent: f64,
    pub rcvd_since_last_report: i32,
    pub losses_since_last_report: i32,
    pub maxseq: i32,
    pub maxseq_list: i32,
    pub num_pkts_so_far: i32,
    pub last_timestamp: f64,
    pub last_arrival: f64,
    pub lossvec: Vec<Status>,
    pub rtvec: Vec<f64>,
    pub tsvec: Vec<f64>,
    pub lastloss_round_id: i32,
    pub round_id: i32,
    pub lastloss: f64,
    pub iv: Intervals,
    pub mult_factor: f64,
    pub sample_count: i32,
    pub last_sample: i32,
    pub wali_ready: bool,
    pub loss_seen_yet: bool,
    pub false_sample: i32,
    pub avg_loss_int: f64,
    pub loss_int: i32,
    pub timer: u32,
    /// The agent's own id (notices name it).
    pub agent: crate::sched::ObjId,
}

impl Receiver {
    pub fn new(agent: crate::sched::ObjId, timer: u32) -> Receiver {
        Receiver {
            hsz: 100000,
            num_feedback: 1.0,
            adjust_history_after_ss: 1,
            print_loss: 0,
            algo: 1,
            precise_loss: 1,
            num_pkts: 3,
            min_discount_ratio: 0.5,
            numsamples: -1,
            discount: 1,
            smooth: 1,
            short_intervals: 0,
            short_rtts: 2,
            history: 0.75,
            minlc: 4,
            bytes: 0,
            psize: 0,
            fsize: 0,
            ack_size: 40,
            rtt: 0.0,
            tzero: 0.0,
            sendrate: 0.0,
            total_received: 0,
            total_losses: 0,
            total_dropped: 0,
            last_report_sent: 0.0,
            rcvd_since_last_report: 0,
            losses_since_last_report: 0,
            maxseq: -1,
            maxseq_list: -1,
            num_pkts_so_far: 0,
            last_timestamp: 0.0,
            last_arrival: 0.0,
            lossvec: Vec::new(),
            rtvec: Vec::new(),
            tsvec: Vec::new(),
            lastloss_round_id: -1,
            round_id: 0,
            lastloss: 0.0,
            iv: Intervals::default(),
            mult_factor: 1.0,
            sample_count: 1,
            last_sample: 0,
            wali_ready: false,
            loss_seen_yet: false,
            false_sample: 0,
            avg_loss_int: -1.0,
            loss_int: 0,
            timer,
            agent,
        }
    }

    fn wali(&self) -> bool {
        self.algo == Algo::Wali as i32
    }

    /// The ring slot of packet `i`.
    #[inline]
    fn at(&self, i: i32) -> usize {
        i.rem_euclid(self.hsz) as usize
    }

    /// Set up the loss intervals and their weights (`init_WALI`): weights
    /// 1 for the newer half, then falling linearly (RFC 5348 section 5.4's
    /// 1,1,1,1,0.8,0.6,0.4,0.2 for n = 8); the smooth variant keeps one
    /// more interval and shifts the weights by one.
    pub fn init_wali(&mut self) {
        if self.numsamples < 0 {
            self.numsamples = DEFAULT_NUMSAMPLES;
        }
        if self.smooth == 1 {
            self.numsamples += 1;
        }
        let n = (self.numsamples + 1) as usize;
        let mid = self.numsamples / 2;
        let lower = if self.smooth == 1 { 0 } else { 1 };
        let weights = (0..=self.numsamples)
            .map(|i| if i < mid { 1.0 } else { 1.0 - (i + lower - mid) as f64 / (mid as f64 + 1.0) })
            .collect();
        // (ns-2 leaves the loss counts uninitialised here; they are
        // written before they are read, but for the intervals never
        // reached, which weigh nothing.)
        self.iv = Intervals {
            sample: vec![0; n],
            weights,
            mult: vec![1.0; n],
            losses: vec![0; n],
            count_losses: vec![0; n],
            num_rtts: vec![0; n],
        };
        self.wali_ready = true;
    }

    /// `weights N+w1+w2...`: the number of intervals averaged (the
    /// weights themselves are replaced when the intervals are set up, as
    /// in ns-2).
    pub fn set_weights(&mut self, spec: &str) -> Result<(), String> {
        let mut parts = spec.split('+');
        let n: i32 = parts.next().and_then(|s| s.trim().parse().ok()).ok_or_else(|| format!("weights: expected N+w1+...+wN, got \"{spec}\""))?;
        let w: Vec<&str> = parts.collect();
        if n < 0 || (w.len() as i32) < n {
            return Err(format!("weights: expected {n} weights after the count, got \"{spec}\""));
        }
        self.numsamples = n;
        Ok(())
    }

    /// Is a loss at packet `i`, sent at `tstamp`, the start of a new loss
    /// event (RFC 5348 section 5.2)?  Records it as the last one if so.
    fn new_loss(&mut self, i: i32, tstamp: f64) -> bool {
        let since = self.tsvec[self.at(i)] - self.lastloss;
        if since > self.rtt && (self.precise_loss == 0 || self.round_id > self.lastloss_round_id) {
            self.lastloss = tstamp;
            self.lastloss_round_id = self.round_id;
            if self.wali() {
                if since < self.short_rtts as f64 * self.rtt {
                    self.iv.count_losses[0] = 1;
                }
                if self.rtt > 0.0 {
                    self.iv.num_rtts[0] = ((since / self.rtt).ceil() as i32).max(1);
                }
            }
            true
        } else {
            false
        }
    }

    /// Send time of lost packet `i` interpolated between packets `before`
    /// and `after` (section 5.1).
    fn estimate_tstamp(&self, before: i32, after: i32, i: i32) -> f64 {
        let tb = self.tsvec[self.at(before)];
        let delta = (self.tsvec[self.at(after)] - tb) / (after - before) as f64;
        tb + (i - before) as f64 * delta
    }

    /// A data packet.
    pub fn recv(&mut self, b: &AgentBase, sim: &mut Sim, p: PktId) {
        let now = sim.w.s.now;
        let h: RateHdr = sim.w.pool.rate_hdr(p);
        let (seqno, size, ect, ce) = {
            let pk = sim.w.pool.get(p);
            (pk.seqno, pk.size, pk.ecn_capable, pk.ecn_to_echo)
        };
        sim.w.pool.free(p);
        let mut flost = -1.0;
        let mut ecn_event = false;
        let mut congestion_event = false;
        if self.wali() && !self.wali_ready {
            self.init_wali();
        }
        self.rcvd_since_last_report += 1;
        self.total_received += 1;
        self.bytes = self.bytes.wrapping_add(size);
        if self.maxseq < 0 {
            // The first data packet: the history begins just before it.
            self.maxseq = seqno - 1;
            self.maxseq_list = seqno;
            let n = self.hsz.max(1) as usize;
            self.lossvec = vec![Status::Unknown; n];
            self.rtvec = vec![-1.0; n];
            self.tsvec = vec![-1.0; n];
        }
        self.fsize = h.fsize;
        let oldmaxseq = self.maxseq;
        let mut urgent = false;
        let slot = self.at(seqno);
        if seqno > self.maxseq || (seqno > self.maxseq_list && self.lossvec[slot] == Status::Unknown) {
            if seqno > self.maxseq_list + 1 {
                self.num_pkts_so_far += 1;
            }
            urgent = h.urgent;
            self.round_id = h.round_id;
            self.rtt = h.rtt;
            self.tzero = h.tzero;
            self.psize = h.psize;
            self.sendrate = h.rate;
            self.last_arrival = now;
            self.last_timestamp = h.timestamp;
            self.rtvec[slot] = now;
            self.tsvec[slot] = h.timestamp;
            if ect && ce {
                // A CE mark: a loss for the loss event rate (section 9).
                self.lossvec[slot] = Status::EcnReceived;
                self.total_losses += 1;
                self.losses_since_last_report += 1;
                if self.new_loss(seqno, self.tsvec[slot]) {
                    ecn_event = true;
                    self.lossvec[slot] = Status::EcnLost;
                }
                if self.wali() {
                    self.iv.losses[0] += 1;
                }
            } else {
                self.lossvec[slot] = Status::Received;
            }
        }
        if seqno > self.maxseq {
            for i in self.maxseq + 1..seqno {
                let s = self.at(i);
                self.lossvec[s] = Status::Unknown;
                self.total_losses += 1;
                self.total_dropped += 1;
            }
        }
        if seqno > self.maxseq_list
            && (ecn_event
                || self.num_pkts_so_far >= self.num_pkts
                || self.tsvec[slot] - self.tsvec[self.at(self.maxseq_list)] > self.rtt)
        {
            // Enough later packets: the gaps up to here are losses.
            for i in self.maxseq_list..seqno {
                let s = self.at(i);
                if self.lossvec[s] == Status::Unknown {
                    self.rtvec[s] = now;
                    self.tsvec[s] = self.estimate_tstamp(oldmaxseq, seqno, i);
                    if self.new_loss(i, self.tsvec[s]) {
                        congestion_event = true;
                        self.lossvec[s] = Status::Lost;
                    } else {
                        self.lossvec[s] = Status::NotReceived;
                    }
                    if self.wali() {
                        self.iv.losses[0] += 1;
                    }
                    self.losses_since_last_report += 1;
                }
            }
            self.maxseq_list = seqno;
            self.num_pkts_so_far = 0;
        } else if seqno == self.maxseq_list + 1 {
            self.maxseq_list = seqno;
            self.num_pkts_so_far = 0;
        }
        if seqno > self.maxseq {
            self.maxseq = seqno;
            // The first loss ends slow start: report it at once, with a
            // made-up history (section 6.3.1).
            if self.wali() && !self.loss_seen_yet && (seqno - oldmaxseq > 1 || ecn_event) {
                urgent = true;
                self.loss_seen_yet = true;
                if self.adjust_history_after_ss != 0 {
                    flost = self.adjust_history(sim, h.timestamp);
                }
            }
            if self.rtt > SMALL && now - self.last_report_sent >= self.rtt / self.num_feedback {
                urgent = true;
            }
        }
        if urgent || ecn_event || congestion_event {
            self.nextpkt(b, sim, flost);
        }
    }

    /// The feedback timer: a report, as if due.
    pub fn timeout(&mut self, b: &AgentBase, sim: &mut Sim) {
        self.nextpkt(b, sim, -1.0);
    }

    /// A report, and the next one in 1.5 round trips / `num_feedback`.
    fn nextpkt(&mut self, b: &AgentBase, sim: &mut Sim, flost: f64) {
        self.sendpkt(b, sim, flost);
        if self.rtt > 0.0 && self.num_feedback > 0.0 {
            sim.w.s.timer_resched(self.timer, 1.5 * self.rtt / self.num_feedback);
        }
    }

    /// The report (RFC 5348 section 6.2), if data arrived since the last.
    fn sendpkt(&mut self, b: &AgentBase, sim: &mut Sim, flost: f64) {
        let now = sim.w.s.now;
        if self.last_arrival < self.last_report_sent {
            return;
        }
        self.ack_size = b.size;
        let flost = if flost < 0.0 { self.est_loss(sim) } else { flost };
        let recv_rate = self.est_thput(now);
        let true_loss = if self.total_received <= 0 {
            0.0
        } else {
            self.total_losses as f64 / (self.total_received + self.total_dropped) as f64
        };
        let p = b.allocpkt(sim);
        sim.w.pool.get_mut(p).seqno = self.maxseq;
        *sim.w.pool.rate_hdr_mut(p) = RateHdr {
            ts_echo: self.last_timestamp,
            ts_offset: now - self.last_arrival,
            flost,
            recv_rate,
            losses: self.losses_since_last_report,
            true_loss,
            ..Default::default()
        };
        self.last_report_sent = now;
        self.rcvd_since_last_report = 0;
        self.losses_since_last_report = 0;
        b.send(sim, p);
    }

    /// The receive rate in packets/s: over the time since the last report
    /// if that is at least a round trip, else the packets received in the
    /// last round trip (`est_thput`); 1 when there is nothing to go by.
    pub fn est_thput(&self, now: f64) -> f64 {
        let mut thput = 1.0;
        if self.rtt > 0.0 && now - self.last_report_sent >= self.rtt {
            let span = now - self.last_report_sent;
            if self.rcvd_since_last_report > 0 {
                thput = self.rcvd_since_last_report as f64 / span;
            }
        } else if self.rtt > 0.0 {
            let last = self.rtvec[self.at(self.maxseq)];
            let mut rcvd = 0;
            let mut i = self.maxseq;
            while i > 0 {
                let s = self.at(i);
                if self.lossvec[s] == Status::Received {
                    if self.rtvec[s] + self.rtt > last {
                        rcvd += 1;
                    } else {
                        break;
                    }
                }
                i -= 1;
            }
            if rcvd > 0 {
                thput = rcvd as f64 / self.rtt;
            }
        }
        thput
    }

    /// The loss event rate by the chosen method.
    pub(crate) fn est_loss(&mut self, sim: &mut Sim) -> f64 {
        match Algo::from_int(self.algo) {
            Some(Algo::Wali) => self.est_loss_wali(sim),
            Some(Algo::Ewma) => self.est_loss_ewma(),
            Some(Algo::Rbph) => self.est_loss_window(true),
            Some(Algo::Ebph) => self.est_loss_window(false),
            // (Refused when set; ns-2 aborts.)
            None => 0.0,
        }
    }

    /// Weighted average loss intervals (RFC 5348 sections 5.4, 5.5): the
    /// packets since the last estimate extend the open interval, each loss
    /// event closes it; the average with and without the open interval,
    /// the larger wins (unless the open one is short and the short-interval
    /// variant says to leave it out).  With `discount`, a long open
    /// interval discounts the older ones, by at least `min_discount_ratio`.
    pub fn est_loss_wali(&mut self, sim: &mut Sim) -> f64 {
        let now = sim.w.s.now;
        if !self.wali_ready {
            self.init_wali();
        }
        let n = (self.numsamples + 1) as usize;
        for i in self.last_sample..=self.maxseq {
            self.iv.sample[0] += 1;
            let st = self.lossvec[self.at(i)];
            if st == Status::Lost || st == Status::EcnLost {
                self.sample_count += 1;
                let iv = &mut self.iv;
                shift(&mut iv.sample, 0);
                shift(&mut iv.losses, 1);
                shift(&mut iv.count_losses, 1);
                shift(&mut iv.num_rtts, 0);
                for m in &mut iv.mult[1..n] {
                    *m *= self.mult_factor;
                }
                shift(&mut iv.mult, 1.0);
                self.mult_factor = 1.0;
            }
        }
        self.last_sample = self.maxseq + 1;
        if self.short_intervals > 0 && now - self.lastloss > self.short_rtts as f64 * self.rtt {
            self.iv.count_losses[0] = 0;
        }
        if self.short_intervals > 0 && self.rtt > 0.0 {
            self.iv.num_rtts[0] = (((now - self.lastloss) / self.rtt).ceil() as i32).max(1);
        }
        let ds = if self.sample_count > self.numsamples + 1 { self.numsamples + 1 } else { self.sample_count };
        if self.sample_count == 1 && self.false_sample == 0 {
            return 0.0;
        }
        if self.sample_count > 1 && self.discount != 0 && self.iv.sample[0] > 0 {
            let ave = self.weighted_average(1, ds, 1.0);
            let ratio = (2.0 * ave) / self.iv.sample[0] as f64;
            if ratio < 1.0 {
                self.mult_factor = ratio.max(self.min_discount_ratio);
            }
        }
        let mut ave1 = self.weighted_average(0, ds, self.mult_factor);
        let ave2 = self.weighted_average(1, ds, self.mult_factor);
        if ave2 > ave1
            || (self.short_intervals > 1 && self.short_intervals < 10 && self.iv.count_losses[0] == 1)
        {
            ave1 = ave2;
        }
        if ave1 > 0.0 {
            if self.print_loss > 0 {
                self.print_history(sim, Some((self.iv.sample[0], ave1)));
            }
            1.0 / ave1
        } else {
            999.0
        }
    }

    /// The loss history for printing (`printLoss`): the newest five
    /// intervals, and the short-interval variants' counts.
    fn print_history(&self, sim: &mut Sim, rate: Option<(i32, f64)>) {
        let five = |v: &[i32]| std::array::from_fn(|i| v.get(i).copied().unwrap_or(0));
        let iv = &self.iv;
        let short = (self.short_intervals > 0).then(|| [five(&iv.losses), five(&iv.count_losses), five(&iv.num_rtts)]);
        sim.w.notify(crate::notice::Notice::LossHistory { agent: self.agent, rate, intervals: five(&iv.sample), short });
    }

    /// The intervals `start..end` averaged, the older ones (index > 0)
    /// discounted by `factor` and each by its own `mult`
    /// (`weighted_average1`).  In the smooth variant the open interval
    /// takes the first weight and the array's last interval is left out.
    fn weighted_average(&self, start: i32, end: i32, factor: f64) -> f64 {
        let iv = &self.iv;
        let smooth = self.smooth == 1 && start == 0;
        let end = if smooth && end == self.numsamples + 1 { end - 1 } else { end };
        let off = smooth as usize;
        let scale = |i: usize| if i == 0 { iv.mult[i] } else { factor * iv.mult[i] };
        let mut wsum = 0.0;
        for i in start as usize..end.max(start) as usize {
            wsum += scale(i) * iv.weights[i + off];
        }
        let mut answer = 0.0;
        for i in start as usize..end.max(start) as usize {
            let this = self.interval_length(i, smooth);
            answer += scale(i) * iv.weights[i + off] * this as f64 / wsum;
        }
        answer
    }

    /// Interval `i`'s length for the average: its packets, or for a short
    /// interval in the `ShortIntervals` variants its packets per loss.
    fn interval_length(&self, i: usize, smooth: bool) -> i32 {
        let iv = &self.iv;
        let s = iv.sample[i];
        if iv.count_losses[i] != 1 {
            return s;
        }
        match self.short_intervals % 10 {
            1 => per_loss(s, iv.losses[i]),
            2 if smooth => {
                // (ns-2 divides by the receiver's own packet size here.)
                let cap = self.fsize / if self.ack_size != 0 { self.ack_size } else { 1 };
                per_loss(s, iv.losses[i].min(cap))
            }
            2 => per_loss(s, 7),
            3 => {
                if iv.losses[i] == 0 {
                    return s;
                }
                let fraction = if self.short_rtts != 0 {
                    (self.short_rtts as f64 + 1.0 - iv.num_rtts[i] as f64) / self.short_rtts as f64
                } else {
                    1.0
                };
                per_loss(s, (fraction * iv.losses[i] as f64).floor() as i32)
            }
            _ => s,
        }
    }

    /// The first loss after slow start: forget the loss events so far and
    /// make up one interval as long as the equation gives for the rate
    /// received (RFC 5348 section 6.3.1); returns that interval's loss
    /// event rate, which the report carries.
    fn adjust_history(&mut self, sim: &mut Sim, ts: f64) -> f64 {
        let now = sim.w.s.now;
        let mut i = self.maxseq;
        while i >= 0 {
            let s = self.at(i);
            if matches!(self.lossvec[s], Status::Lost | Status::EcnLost) {
                self.lossvec[s] = Status::NotReceived;
            }
            i -= 1;
        }
        self.lastloss = ts;
        self.lastloss_round_id = self.round_id;
        let p = loss_for_rate(self.est_thput(now) * self.psize as f64, self.rtt, self.tzero, self.fsize, 1);
        self.false_sample = (1.0 / p) as i32;
        let iv = &mut self.iv;
        iv.sample[1] = self.false_sample;
        iv.sample[0] = 0;
        iv.losses[1] = 0;
        iv.losses[0] = 1;
        iv.count_losses[1] = 0;
        iv.count_losses[0] = 0;
        iv.num_rtts[0] = 0;
        iv.num_rtts[1] = 0;
        self.sample_count += 1;
        if self.print_loss != 0 {
            self.print_history(sim, None);
        }
        self.false_sample = -1;
        p
    }

    /// EWMA of the loss intervals, the open one counted only if it lowers
    /// the rate.
    fn est_loss_ewma(&mut self) -> f64 {
        for i in self.last_sample..=self.maxseq {
            self.loss_int += 1;
            let st = self.lossvec[self.at(i)];
            if st == Status::Lost || st == Status::EcnLost {
                self.avg_loss_int = if self.avg_loss_int < 0.0 {
                    self.loss_int as f64
                } else {
                    self.history * self.avg_loss_int + (1.0 - self.history) * self.loss_int as f64
                };
                self.loss_int = 0;
            }
        }
        self.last_sample = self.maxseq + 1;
        let p1 = if self.avg_loss_int < 0.0 { 0.0 } else { 1.0 / self.avg_loss_int };
        let p2 = if self.loss_int == 0 || self.avg_loss_int < 0.0 {
            p1
        } else {
            1.0 / (self.history * self.avg_loss_int + (1.0 - self.history) * self.loss_int as f64)
        };
        p1.min(p2)
    }

    /// Loss events over a window of packets: with `sized`, as many packets
    /// as `minlc` loss intervals at the rate the equation inverts the
    /// sender's rate to, extended until `minlc` loss events (or the
    /// history) are covered; without, the extension alone.
    fn est_loss_window(&mut self, sized: bool) -> f64 {
        let hsz = self.hsz as f64;
        let mut numpkts = hsz;
        let (mut lc, mut pc) = (0, 0);
        let mut i = self.maxseq;
        let is_event = |r: &Receiver, i: i32| matches!(r.lossvec[r.at(i)], Status::Lost | Status::EcnLost);
        if sized {
            if self.sendrate > 0.0 && self.rtt > 0.0 {
                let x = loss_for_rate(self.sendrate, self.rtt, self.tzero, self.psize, 1);
                numpkts = if x > 0.0 { self.minlc as f64 / x } else { hsz };
            }
            numpkts = numpkts.min(self.maxseq as f64).min(hsz);
            while (pc as f64) < numpkts {
                pc += 1;
                if is_event(self, i) {
                    lc += 1;
                }
                i -= 1;
            }
        }
        if !sized || lc < self.minlc {
            numpkts = (self.maxseq as f64).min(hsz);
            while lc < self.minlc && (pc as f64) < numpkts {
                pc += 1;
                if is_event(self, i) {
                    lc += 1;
                }
                i -= 1;
            }
        }
        if pc == 0 {
            0.0
        } else {
            lc as f64 / pc as f64
        }
    }

    /// Reports (via the equation) and losses so far, for tests.
    pub fn equation_rate(&self, p: f64) -> f64 {
        tcp_rate(p, self.rtt, self.tzero, self.psize, 1)
    }
}

/// Move every element one place older, the newest becoming `fill`.
fn shift<T: Copy>(a: &mut [T], fill: T) {
    for i in (1..a.len()).rev() {
        a[i] = a[i - 1];
    }
    if let Some(f) = a.first_mut() {
        *f = fill;
    }
}

/// An interval's length per loss (`get_sample`).
fn per_loss(sample: i32, losses: i32) -> i32 {
    if losses == 0 {
        sample
    } else {
        sample / losses
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A receiver whose history holds packets 0..=maxseq, received but for
    /// loss-event starts at `losses`.
    fn history(smooth: i32, discount: i32, losses: &[i32], maxseq: i32) -> Receiver {
        let mut r = Receiver::new(0, 0);
        r.smooth = smooth;
        r.discount = discount;
        r.hsz = 4000;
        r.lossvec = vec![Status::Received; 4000];
        r.rtvec = vec![0.0; 4000];
        r.tsvec = vec![0.0; 4000];
        for &i in losses {
            r.lossvec[i as usize] = Status::Lost;
        }
        r.maxseq = maxseq;
        r
    }

    #[test]
    fn weights_are_rfc5348s() {
        let mut r = Receiver::new(0, 0);
        r.smooth = 0;
        r.init_wali();
        let want = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.0];
        assert_eq!(r.iv.weights.len(), want.len());
        for (w, x) in r.iv.weights.iter().zip(want) {
            assert!((w - x).abs() < 1e-12, "{:?}", r.iv.weights);
        }
        // The smooth variant keeps one more interval, weights shifted.
        let mut r = Receiver::new(0, 0);
        r.init_wali();
        assert_eq!(r.numsamples, 9);
        assert_eq!(r.iv.weights.len(), 10);
        assert_eq!(&r.iv.weights[..4], &[1.0; 4]);
        assert!((r.iv.weights[4] - 1.0).abs() < 1e-12 && (r.iv.weights[5] - (1.0 - 1.0 / 5.0)).abs() < 1e-12);
    }

    #[test]
    fn equal_intervals_give_their_inverse() {
        let mut sim = Sim::new();
        let losses: Vec<i32> = (1..=9).map(|k| k * 100).collect();
        let mut r = history(0, 0, &losses, 950);
        let p = r.est_loss_wali(&mut sim);
        assert!((p - 0.01).abs() < 1e-12, "{p}");
        // No loss at all: zero.
        let mut r = history(0, 0, &[], 950);
        assert_eq!(r.est_loss_wali(&mut sim), 0.0);
    }

    #[test]
    fn a_long_open_interval_discounts_the_history() {
        // RFC 5348 section 5.5: the open interval of 1000 packets is over
        // twice the average of 100, so the older intervals weigh half
        // (min_discount_ratio 0.5; 2*100/1000 would be 0.2).
        let mut sim = Sim::new();
        let losses: Vec<i32> = (1..=9).map(|k| k * 100).collect();
        let mut r = history(0, 1, &losses, 1900);
        let p = r.est_loss_wali(&mut sim);
        let want = (1.0 + 0.5 * 5.0) / (1000.0 + 0.5 * 500.0);
        assert!((p - want).abs() < 1e-12, "{p} vs {want}");
        assert_eq!(r.mult_factor, 0.5);
        // Without discounting the open interval counts with weight 1 only.
        let mut r = history(0, 0, &losses, 1900);
        let p0 = r.est_loss_wali(&mut sim);
        assert!((p0 - 6.0 / (1000.0 + 500.0)).abs() < 1e-12, "{p0}");
        assert!(p < p0);
    }

    #[test]
    fn window_methods_count_loss_events() {
        let mut sim = Sim::new();
        let losses: Vec<i32> = (1..=9).map(|k| k * 100).collect();
        // EBPH: back from packet 950 until 4 loss events: packets 950..=600.
        let mut r = history(0, 0, &losses, 950);
        r.algo = Algo::Ebph as i32;
        assert_eq!(r.est_loss(&mut sim), 4.0 / 351.0);
        // EWMA: intervals of 100 (the first 101); the open one (50) lowers
        // nothing, so 1 / average.
        let mut r = history(0, 0, &losses, 950);
        r.algo = Algo::Ewma as i32;
        let p = r.est_loss(&mut sim);
        assert!(p > 0.0099 && p < 0.01, "{p}");
    }
}
