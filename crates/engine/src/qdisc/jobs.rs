//! Joint buffer management and scheduling for four service classes
//! (Christin and Liebeherr's JoBS, "A QoS architecture for quantitative
//! service differentiation", 2002), as ns-2 2.35 models it
//! (queue/jobs.cc), step for step.
//!
//! Each arrival (its class is the IP priority an edge marker set,
//! `classmark.rs`) is timestamped and queued in its class; the queue then
//! keeps per-class curves of bits arrived, admitted and served, and
//! moves the classes' service rates:
//!
//! * work conservation: when a class becomes backlogged or empties, the
//!   link rate is shared equally among the backlogged classes;
//! * absolute constraints (a delay bound `adc`, a rate `arc`): when the
//!   rates no longer meet them, service moves from classes with some to
//!   spare to those short of it, and if that is not enough, packets of the
//!   short classes are dropped (within their loss bounds `alc`);
//! * relative delay constraints (`rdc`): every `sampling_period` arrivals a
//!   proportional controller moves rates so that the classes' delays,
//!   weighted by the products of the others' ratios, approach their mean;
//! * buffer overflow (the per-class share of the limit, or with a shared
//!   buffer the whole limit): the class dropped is the one furthest below
//!   its relative loss target (`rlc`), within the loss bounds.
//!
//! Dequeue serves the backlogged class furthest behind its service curve.
//! Every half second of arrivals the queue can write a line of per-class
//! statistics (loss rate, mean delay, service rate, backlog) to its trace
//! file.  The arithmetic follows jobs.cc's order of operations, so that
//! the rates and the drops, and the trace, come out bit for bit.

use super::{Capacity, Discipline, Drops, Fifo, Verdict};
use crate::packet::PktId;
use crate::sim::World;
use std::io::Write;

/// Classes (1 to 4; index 0 unused, as in ns-2).
pub const CLASSES: usize = 4;
const PRECISION_ERROR: f64 = 1.0e-10;
/// The statistics window, seconds.
const MON_WINDOW_SIZE: f64 = 0.5;
/// `adc_resolution_type_`: drop only from the classes short of service,
/// or from all classes (`SHARED_PAIN`).
const SHARED_PAIN: i32 = 1;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Resolve {
    Overflow,
    Adc,
}

/// C's `max` and `min` macros (their choice on NaN kept).
#[inline]
fn cmax(x: f64, y: f64) -> f64 {
    if x >= y {
        x
    } else {
        y
    }
}

#[inline]
fn cmin(x: f64, y: f64) -> f64 {
    if x < y {
        x
    } else {
        y
    }
}

type PerClass<T> = [T; CLASSES + 1];

/// The JoBS queue.
#[derive(Debug)]
pub struct Jobs {
    cls: [Fifo; CLASSES + 1],

    // ---- parameters ---------------------------------------------------------
    /// Drop from the head of a class rather than its tail.
    pub drop_front: bool,
    /// Write the statistics lines.
    pub trace_hop: bool,
    /// Mean packet size, bytes (the controller's gain divides by it).
    pub mean_pkt_size: f64,
    /// How drops for the delay bounds are spread (0: the short classes
    /// only; 1: all classes by their loss targets).
    pub adc_resolution_type: i32,
    /// One buffer for all classes rather than a quarter each.
    pub shared_buffer: bool,
    /// Arrivals between two runs of the delay controller.
    pub sampling_period: i32,
    /// The link's rate, bits per second (`link`).
    pub bandwidth: f64,
    /// The queue's number in the warnings (`id`).
    pub link_id: i32,
    /// Where the statistics go (`trace-file`), opened by `initialize`.
    pub file_name: Option<String>,
    trace: Option<std::fs::File>,
    concerned_rdc: PerClass<bool>,
    concerned_rlc: PerClass<bool>,
    concerned_adc: PerClass<bool>,
    concerned_alc: PerClass<bool>,
    concerned_arc: PerClass<bool>,
    rdc: PerClass<f64>,
    rlc: PerClass<f64>,
    adc: PerClass<f64>,
    alc: PerClass<f64>,
    arc: PerClass<f64>,
    loss_prod_others: PerClass<f64>,
    prod_others: PerClass<f64>,

    // ---- state --------------------------------------------------------------
    total_backlog_pkts: i64,
    total_backlog_bits: i64,
    service_rate: PerClass<f64>,
    current_loss: PerClass<f64>,
    rin: PerClass<f64>,
    rout: PerClass<f64>,
    rout_th: PerClass<f64>,
    arrival: PerClass<f64>,
    last_rate_update: PerClass<f64>,
    idle: bool,
    pkt_count: i32,
    min_share: f64,
    last_arrival: f64,
    sliding_inter: f64,
    sliding_avg_pkt_size: f64,
    sliding_arv_pkts: f64,
    sliding_arv_pkts_c: PerClass<f64>,
    sliding_serviced_pkts: PerClass<f64>,
    sliding_serviced_bits: PerClass<f64>,
    sliding_class_service_rate: PerClass<f64>,
    sliding_class_delay: PerClass<f64>,
    backlog_bits: PerClass<i64>,
    backlog_pkts: PerClass<i64>,
    error: PerClass<f64>,
    min_rate: PerClass<f64>,
    min_drop: PerClass<f64>,
    max_drop: PerClass<f64>,
    rout_last_up: PerClass<f64>,
    util: f64,
    kp_static: f64,
    kp_dynamic: f64,
    abs_present: bool,
    monitoring_window: f64,
    last_monitor_update: f64,
}

/// Which constraint an `init-*` command sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// Relative delay (ratios).
    Rdc,
    /// Relative loss (ratios).
    Rlc,
    /// Absolute delay, seconds.
    Adc,
    /// Absolute loss, a fraction.
    Alc,
    /// Absolute rate, bits per second.
    Arc,
}

impl Default for Jobs {
    fn default() -> Self {
        Self::new()
    }
}

impl Jobs {
    /// ns-2's constructor values.
    pub fn new() -> Jobs {
        let mut rdc = [0.0; CLASSES + 1];
        let mut rlc = [0.0; CLASSES + 1];
        for i in 1..=CLASSES {
            rdc[i] = i as f64;
            rlc[i] = i as f64;
        }
        Jobs {
            cls: Default::default(),
            drop_front: false,
            trace_hop: false,
            mean_pkt_size: 4000.0,
            adc_resolution_type: 0,
            shared_buffer: false,
            sampling_period: 0,
            bandwidth: 0.0,
            link_id: 0,
            file_name: None,
            trace: None,
            concerned_rdc: [false; CLASSES + 1],
            concerned_rlc: [false; CLASSES + 1],
            concerned_adc: [false; CLASSES + 1],
            concerned_alc: [false; CLASSES + 1],
            concerned_arc: [false; CLASSES + 1],
            rdc,
            rlc,
            adc: [f64::INFINITY; CLASSES + 1],
            alc: [f64::INFINITY; CLASSES + 1],
            arc: [0.0; CLASSES + 1],
            loss_prod_others: [0.0; CLASSES + 1],
            prod_others: [0.0; CLASSES + 1],
            total_backlog_pkts: 0,
            total_backlog_bits: 0,
            service_rate: [0.0; CLASSES + 1],
            current_loss: [0.0; CLASSES + 1],
            rin: [0.0; CLASSES + 1],
            rout: [0.0; CLASSES + 1],
            rout_th: [0.0; CLASSES + 1],
            arrival: [0.0; CLASSES + 1],
            last_rate_update: [0.0; CLASSES + 1],
            idle: true,
            pkt_count: 0,
            min_share: 0.0,
            last_arrival: 0.0,
            sliding_inter: 0.0,
            sliding_avg_pkt_size: 0.0,
            sliding_arv_pkts: 0.0,
            sliding_arv_pkts_c: [0.0; CLASSES + 1],
            sliding_serviced_pkts: [0.0; CLASSES + 1],
            sliding_serviced_bits: [0.0; CLASSES + 1],
            sliding_class_service_rate: [0.0; CLASSES + 1],
            sliding_class_delay: [0.0; CLASSES + 1],
            backlog_bits: [0; CLASSES + 1],
            backlog_pkts: [0; CLASSES + 1],
            error: [0.0; CLASSES + 1],
            min_rate: [0.0; CLASSES + 1],
            min_drop: [0.0; CLASSES + 1],
            max_drop: [1.0; CLASSES + 1],
            rout_last_up: [0.0; CLASSES + 1],
            util: 0.0,
            kp_static: 0.0,
            kp_dynamic: 0.0,
            abs_present: false,
            monitoring_window: 0.0,
            last_monitor_update: 0.0,
        }
    }

    /// `init-rdcs` ... `init-arcs`: one value per class, -1 for none.
    /// Returns the lines ns-2 prints for it.
    pub fn set_constraints(&mut self, which: Constraint, v: [f64; CLASSES]) -> String {
        let mut out = String::new();
        match which {
            Constraint::Rdc | Constraint::Rlc => {
                let (vals, concerned) = match which {
                    Constraint::Rdc => (&mut self.rdc, &mut self.concerned_rdc),
                    _ => (&mut self.rlc, &mut self.concerned_rlc),
                };
                vals[0] = -1.0;
                for i in 1..=CLASSES {
                    vals[i] = v[i - 1];
                    concerned[i] = vals[i] != -1.0;
                }
                let mut tmp = [0.0; CLASSES + 1];
                for i in 1..=CLASSES {
                    tmp[i] = 1.0;
                    for j in 1..i {
                        if concerned[j] {
                            tmp[i] *= vals[j];
                        }
                    }
                }
                let mut prod = [0.0; CLASSES + 1];
                for i in 1..=CLASSES {
                    prod[i] = 1.0;
                    for j in 1..=CLASSES {
                        if j != i && concerned[j] {
                            prod[i] *= tmp[j];
                        }
                    }
                }
                let name = if which == Constraint::Rdc { "RDC" } else { "RLC" };
                out.push_str(&format!("\nConfigured {name}, with:\n"));
                for i in 1..=CLASSES {
                    out.push_str(&format!("\tClass {i}: "));
                    if concerned[i] {
                        out.push_str(&format!("\t{:.6}\t({:.6})\n", vals[i], prod[i]));
                    } else {
                        out.push_str("\tNot concerned\n");
                    }
                }
                if which == Constraint::Rdc {
                    self.prod_others = prod;
                } else {
                    self.loss_prod_others = prod;
                }
            }
            Constraint::Adc | Constraint::Alc | Constraint::Arc => {
                let (vals, concerned, none, name, unit) = match which {
                    Constraint::Adc => (&mut self.adc, &mut self.concerned_adc, f64::INFINITY, "ADC", " secs"),
                    Constraint::Alc => (&mut self.alc, &mut self.concerned_alc, f64::INFINITY, "ALC", ""),
                    _ => (&mut self.arc, &mut self.concerned_arc, 0.0, "ARC", ""),
                };
                vals[0] = -1.0;
                for i in 1..=CLASSES {
                    vals[i] = v[i - 1];
                    if vals[i] == -1.0 {
                        concerned[i] = false;
                        vals[i] = none;
                    } else {
                        concerned[i] = true;
                        if which != Constraint::Alc {
                            self.abs_present = true;
                        }
                    }
                }
                out.push_str(&format!("\nConfigured {name}, with:\n"));
                for i in 1..=CLASSES {
                    out.push_str(&format!("\tClass {i}: "));
                    if concerned[i] {
                        out.push_str(&format!("\t{:.6}{unit}\n", vals[i]));
                    } else {
                        out.push_str("\tNot concerned\n");
                    }
                }
            }
        }
        out
    }

    /// `initialize`: the controller's static gain, and the trace file
    /// opened (emptied).
    pub fn initialize(&mut self) -> Result<(), String> {
        let mut my_max_pi = 0.0;
        for i in 1..=CLASSES {
            if self.prod_others[i] > my_max_pi {
                my_max_pi = self.prod_others[i];
            }
        }
        self.kp_static = -2.0 / (my_max_pi * self.mean_pkt_size * self.sampling_period as f64);
        if self.trace_hop {
            let name = self.file_name.clone().unwrap_or_default();
            match std::fs::File::create(&name) {
                Ok(f) => self.trace = Some(f),
                Err(e) => return Err(format!("Problem with opening the per-hop trace file: {name} ({e})")),
            }
        }
        Ok(())
    }

    /// `trace-file NAME` (`null`: none).
    pub fn set_trace_file(&mut self, name: &str) {
        self.trace_hop = name != "null";
        self.file_name = Some(name.to_string());
    }

    fn head(&self, i: usize) -> Option<PktId> {
        self.cls[i].get(0)
    }

    fn tail(&self, i: usize) -> Option<PktId> {
        let n = self.cls[i].len();
        if n == 0 {
            None
        } else {
            self.cls[i].get(n - 1)
        }
    }

    fn backlogged(&self, i: usize) -> bool {
        !self.cls[i].is_empty()
    }

    fn size_bits(w: &World, p: PktId) -> i64 {
        8 * w.pool.get(p).size as i64
    }

    // ---- enqueue ------------------------------------------------------------

    fn enque(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) {
        let prio = w.pool.get(p).prio;
        let cur_time = w.s.now;
        if !(1..=CLASSES as i32).contains(&prio) {
            w.c_stdout.extend_from_slice(b"Bad priority value\n");
            w.abort(crate::notice::Abort::ServiceClass { class: prio, at_exit: false });
            drops.push(p);
            return;
        }
        let prio = prio as usize;
        w.pool.get_mut(p).timestamp = cur_time;
        self.cls[prio].push(&w.pool, p);
        self.monitoring_window -= cur_time - self.last_monitor_update;
        self.last_monitor_update = cur_time;
        if self.monitoring_window <= 0.0 {
            self.update_stats(w, p, true);
            self.monitoring_window = MON_WINDOW_SIZE;
        } else {
            self.update_stats(w, p, false);
        }
        if self.idle {
            for i in 1..=CLASSES {
                self.arrival[i] = 0.0;
                self.rin[i] = 0.0;
                self.rout[i] = 0.0;
                self.rout_th[i] = 0.0;
                self.last_rate_update[i] = 0.0;
                self.rout_last_up[i] = cur_time;
                self.idle = false;
            }
        }
        self.arv_accounting(w, p);
        let qlim = cap.limit as i64;
        if !self.shared_buffer && self.backlog_pkts[prio] > qlim / CLASSES as i64 {
            self.drop_class(w, prio, drops);
        } else if self.total_backlog_pkts > qlim {
            if !self.concerned_rlc[prio] {
                if !self.concerned_alc[prio] {
                    self.drop_class(w, prio, drops);
                } else {
                    let size = Self::size_bits(w, p) as f64;
                    if self.current_loss[prio] + size / self.arrival[prio] <= self.alc[prio] {
                        self.drop_class(w, prio, drops);
                    } else {
                        let c = self.pick_dropped_rlc(w, Resolve::Overflow);
                        self.drop_class(w, c, drops);
                    }
                }
            } else {
                let c = self.pick_dropped_rlc(w, Resolve::Overflow);
                self.drop_class(w, c, drops);
            }
        }
        self.pkt_count += 1;
        self.enforce_wc();
        if self.abs_present && !self.min_rates_needed(w) {
            let d = self.assign_rate_drops_adc(w, drops);
            for i in 1..=CLASSES {
                self.service_rate[i] += d[i];
            }
            let d = self.adjust_rates_rdc(w);
            for i in 1..=CLASSES {
                self.service_rate[i] += d[i];
            }
            self.pkt_count = 0;
        } else if self.pkt_count >= self.sampling_period {
            let d = self.adjust_rates_rdc(w);
            for i in 1..=CLASSES {
                self.service_rate[i] += d[i];
            }
            self.pkt_count = 0;
        }
    }

    /// `dropFront` or `dropTail` of class `prio`, with the loss update.
    fn drop_class(&mut self, w: &mut World, prio: usize, drops: &mut Drops) {
        let p = if self.drop_front { self.head(prio) } else { self.tail(prio) };
        let Some(p) = p else { return };
        let bits = Self::size_bits(w, p);
        self.total_backlog_pkts -= 1;
        self.total_backlog_bits -= bits;
        self.backlog_pkts[prio] -= 1;
        self.backlog_bits[prio] -= bits;
        self.rin[prio] -= bits as f64;
        for i in 1..=CLASSES {
            self.current_loss[i] = self.min_drop[i];
        }
        self.current_loss[prio] += bits as f64 / self.arrival[prio];
        let f = &mut self.cls[prio];
        let q = if self.drop_front { f.pop(&w.pool) } else { f.pop_back(&w.pool) };
        debug_assert_eq!(q, Some(p));
        drops.push(p);
    }

    /// `enforceWC`: share the link equally when a class has entered or
    /// left the backlog.
    fn enforce_wc(&mut self) -> bool {
        let mut active = 0;
        let mut updated = false;
        for i in 1..=CLASSES {
            let b = self.backlogged(i);
            if b {
                active += 1;
            }
            if (b && self.service_rate[i] <= PRECISION_ERROR) || (!b && self.service_rate[i] > 0.0) {
                updated = true;
            }
        }
        if updated {
            for i in 1..=CLASSES {
                self.service_rate[i] = if !self.backlogged(i) {
                    0.0
                } else if active > 0 {
                    self.bandwidth / active as f64
                } else {
                    0.0
                };
            }
        }
        updated
    }

    /// `adjustRatesRDC`: the proportional controller's rate changes.
    fn adjust_rates_rdc(&mut self, w: &mut World) -> PerClass<f64> {
        let mut active = 0;
        let mut upper_bound = self.bandwidth;
        for i in 1..=CLASSES {
            if self.backlogged(i) {
                active += 1;
                if !self.concerned_rdc[i] {
                    upper_bound -= self.service_rate[i];
                }
            }
        }
        let mut result = [0.0; CLASSES + 1];
        if upper_bound < PRECISION_ERROR || active == 0 {
            return result;
        }
        let mut lower_bound = 0.0;
        self.update_error(w);
        self.min_share = 1.0;
        let mut bk = 0.0;
        for i in 1..=CLASSES {
            if self.concerned_rdc[i] {
                bk += self.rin[i];
            }
        }
        for i in 1..=CLASSES {
            if self.rin[i] / bk < self.min_share {
                self.min_share = self.rin[i] / bk;
            }
        }
        self.kp_dynamic = self.kp_static * (upper_bound * upper_bound) * self.min_share * self.util * cmax(self.util, 1.0);
        let mut credit = 0.0;
        for i in 1..=CLASSES {
            if self.backlogged(i) && self.concerned_rdc[i] {
                result[i] = self.kp_dynamic * self.error[i];
            }
        }
        for i in 1..=CLASSES {
            if self.backlogged(i) && self.concerned_rdc[i] {
                lower_bound += cmax(0.0, self.min_rate[i]);
            }
        }
        for i in 1..=CLASSES {
            if self.concerned_rdc[i] && result[i] + self.service_rate[i] > upper_bound {
                for j in 1..=CLASSES {
                    if self.concerned_rdc[j] {
                        if j == i {
                            result[j] = (upper_bound - self.service_rate[j]) + self.min_rate[j] - lower_bound;
                        } else {
                            result[j] = -self.service_rate[j] + self.min_rate[j];
                        }
                    }
                }
                return result;
            }
            if self.concerned_rdc[i] && result[i] + self.service_rate[i] < self.min_rate[i] {
                credit += self.service_rate[i] + result[i] - self.min_rate[i];
                result[i] = -self.service_rate[i] + self.min_rate[i];
            }
        }
        let mut i = CLASSES;
        while i > 0 && credit < 0.0 {
            if self.backlogged(i) && self.concerned_rdc[i] {
                let available = result[i] + self.service_rate[i] - self.min_rate[i];
                if available >= -credit {
                    result[i] += credit;
                    credit = 0.0;
                } else {
                    result[i] -= available;
                    credit += available;
                }
            }
            i -= 1;
        }
        result
    }

    /// `assignRateDropsADC`: move service to the classes short of their
    /// delay or rate bounds, and drop from them if that is not enough.
    fn assign_rate_drops_adc(&mut self, w: &mut World, drops: &mut Drops) -> PerClass<f64> {
        let cur_time = w.s.now;
        let mut x = [0.0; CLASSES + 1];
        let mut c = [0.0; CLASSES + 1];
        let mut n = [0.0; CLASSES + 1];
        let mut k = [0.0; CLASSES + 1];
        let mut available = [0.0; CLASSES + 1];
        let mut keep_going = true;
        for i in 1..=CLASSES {
            if let Some(p) = self.head(i) {
                let ts = w.pool.get(p).timestamp;
                n[i] = self.service_rate[i];
                k[i] = self.backlog_bits[i] as f64;
                available[i] = self.service_rate[i];
                if self.concerned_adc[i] {
                    c[i] = cmax(self.adc[i] - (cur_time - ts), 1e-10);
                    let target = k[i] / c[i];
                    available[i] = -(target - n[i]);
                }
                if self.concerned_arc[i] && n[i] - self.arc[i] < available[i] {
                    available[i] = n[i] - self.arc[i];
                }
            } else {
                available[i] = self.service_rate[i];
                n[i] = 0.0;
                k[i] = 0.0;
                c[i] = 0.0;
            }
        }
        // Step 1: adjust the rates.
        let mut highest = 1;
        let mut lowest = CLASSES;
        while highest < CLASSES + 1 && available[highest] >= 0.0 {
            highest += 1;
        }
        while lowest > 0 && available[lowest] <= 0.0 {
            lowest -= 1;
        }
        while highest != CLASSES + 1 && lowest != 0 {
            let sum = available[lowest] + available[highest];
            if sum > 0.0 {
                n[lowest] -= -available[highest];
                n[highest] += -available[highest];
                available[lowest] -= -available[highest];
                available[highest] = 0.0;
                while highest < CLASSES + 1 && available[highest] >= 0.0 {
                    highest += 1;
                }
            } else if sum == 0.0 {
                n[lowest] -= -available[highest];
                n[highest] += -available[highest];
                available[highest] = 0.0;
                available[lowest] = 0.0;
                while highest < CLASSES + 1 && available[highest] >= 0.0 {
                    highest += 1;
                }
                while lowest > 0 && available[lowest] <= 0.0 {
                    lowest -= 1;
                }
            } else if sum < 0.0 {
                n[lowest] -= available[lowest];
                n[highest] += available[lowest];
                available[highest] += available[lowest];
                available[lowest] = 0.0;
                while lowest > 0 && available[lowest] <= 0.0 {
                    lowest -= 1;
                }
            } else {
                // NaN: ns-2 would loop for ever here.
                break;
            }
        }
        for i in 1..=CLASSES {
            x[i] = if self.backlogged(i) { n[i] - self.service_rate[i] } else { -self.service_rate[i] };
        }
        // Step 2: adjust the drops.
        if highest != CLASSES + 1 {
            if self.adc_resolution_type == SHARED_PAIN {
                let mut to_drop = 0.0;
                for i in 1..=CLASSES {
                    if available[i] < 0.0 && self.concerned_adc[i] && self.backlogged(i) {
                        to_drop += k[i] - c[i] * n[i];
                    }
                }
                while to_drop > 0.0 && keep_going {
                    let victim = self.pick_dropped_rlc(w, Resolve::Adc);
                    let p = if self.drop_front { self.head(victim) } else { self.tail(victim) };
                    let Some(p) = p else { break };
                    let bits = Self::size_bits(w, p) as f64;
                    if self.current_loss[victim] + bits / self.arrival[victim] > self.alc[victim] {
                        keep_going = false;
                    } else {
                        to_drop -= bits;
                        self.drop_class(w, victim, drops);
                    }
                }
            } else {
                for i in 1..=CLASSES {
                    if available[i] < 0.0 && self.backlogged(i) {
                        k[i] = c[i] * n[i];
                        while (self.backlog_bits[i] as f64) > k[i] && keep_going {
                            let p = if self.drop_front { self.head(i) } else { self.tail(i) };
                            let Some(p) = p else { break };
                            let bits = Self::size_bits(w, p) as f64;
                            if self.current_loss[i] + bits / self.arrival[i] > self.alc[i] {
                                keep_going = false;
                            } else {
                                self.drop_class(w, i, drops);
                            }
                        }
                        k[i] = self.backlog_bits[i] as f64;
                    }
                }
            }
        }
        for i in 1..=CLASSES {
            self.min_rate[i] = if self.backlogged(i) && self.concerned_adc[i] {
                if c[i] > 0.0 {
                    if self.concerned_adc[i] && !self.concerned_arc[i] {
                        k[i] / c[i]
                    } else {
                        n[i]
                    }
                } else {
                    f64::INFINITY
                }
            } else if self.backlogged(i) && self.concerned_arc[i] {
                n[i]
            } else {
                0.0
            };
        }
        x
    }

    /// `updateError`: each delay class's distance from the weighted mean.
    fn update_error(&mut self, w: &World) {
        let mut mean = 0.0;
        let mut active = 0;
        for i in 1..=CLASSES {
            if self.backlogged(i) && self.concerned_rdc[i] {
                mean += self.prod_others[i] * self.proj_delay(w, i);
                active += 1;
            }
        }
        if active > 0 {
            mean /= active as f64;
        }
        for i in 1..=CLASSES {
            self.error[i] = if self.backlogged(i) && self.concerned_rdc[i] {
                mean - self.prod_others[i] * self.proj_delay(w, i)
            } else {
                0.0
            };
        }
    }

    /// `minRatesNeeded`: the rates the delay and rate bounds need (into
    /// `min_rate`); false if a class gets less.
    fn min_rates_needed(&mut self, w: &World) -> bool {
        let cur_time = w.s.now;
        let mut result = true;
        for i in 1..=CLASSES {
            match self.head(i) {
                Some(p) if self.concerned_adc[i] || self.concerned_arc[i] => {
                    let ts = w.pool.get(p).timestamp;
                    if self.concerned_adc[i] {
                        if self.adc[i] - (cur_time - ts) > 0.0 {
                            self.min_rate[i] = self.backlog_bits[i] as f64 / (self.adc[i] - (cur_time - ts));
                            if self.concerned_arc[i] && self.arc[i] > self.min_rate[i] {
                                self.min_rate[i] = self.arc[i];
                            }
                        } else {
                            self.min_rate[i] = f64::INFINITY;
                        }
                    } else if self.concerned_arc[i] {
                        self.min_rate[i] = self.arc[i];
                    }
                    if self.min_rate[i] > self.service_rate[i] {
                        result = false;
                    }
                }
                _ => self.min_rate[i] = 0.0,
            }
        }
        result
    }

    /// `projDelay`: how long class `i`'s head has waited.
    fn proj_delay(&self, w: &World, i: usize) -> f64 {
        match self.head(i) {
            Some(p) => w.s.now - w.pool.get(p).timestamp,
            None => 0.0,
        }
    }

    /// `pickDroppedRLC`: the class to drop from: the one furthest below
    /// its relative loss target, or, when that would break its loss bound
    /// (or no class has a target), the last backlogged class.
    fn pick_dropped_rlc(&mut self, w: &mut World, _mode: Resolve) -> usize {
        let none = CLASSES + 1;
        let mut class_dropped: Option<usize> = None;
        let mut max_error = 0.0;
        let mut mean = 0.0;
        let mut active = 0;
        for i in 1..=CLASSES {
            if self.backlogged(i) && self.concerned_rlc[i] {
                mean += self.loss_prod_others[i] * self.current_loss[i];
                active += 1;
            }
        }
        if active > 0 {
            mean /= active as f64;
        }
        if active == 0 {
            class_dropped = Some(none);
        } else {
            let mut loss_error = [0.0; CLASSES + 1];
            for i in 1..=CLASSES {
                loss_error[i] = if self.backlogged(i) && self.concerned_rlc[i] {
                    self.loss_prod_others[i] * self.current_loss[i] - mean
                } else {
                    f64::INFINITY
                };
            }
            for i in 1..=CLASSES {
                if self.backlogged(i) && loss_error[i] <= max_error {
                    max_error = loss_error[i];
                    class_dropped = Some(i);
                }
            }
            match class_dropped {
                Some(c) => {
                    let p = if self.drop_front { self.head(c) } else { self.tail(c) }.expect("backlogged");
                    let bits = Self::size_bits(w, p) as f64;
                    if self.current_loss[c] + bits / self.arrival[c] > self.alc[c] {
                        class_dropped = Some(none);
                    }
                }
                None => class_dropped = Some(none),
            }
        }
        let mut c = class_dropped.unwrap_or(none);
        if c == none {
            // (ns-2 means the class furthest from its loss bound, but
            // takes the last backlogged one)
            for i in 1..=CLASSES {
                if self.backlogged(i) {
                    c = i;
                }
            }
        }
        c
    }

    /// `arvAccounting`: the curves and loss rates after an arrival.
    fn arv_accounting(&mut self, w: &World, p: PktId) {
        let cur_time = w.s.now;
        let pk = w.pool.get(p);
        let prio = pk.prio as usize;
        let bits = 8 * pk.size as i64;
        self.arrival[prio] += bits as f64;
        self.rin[prio] += bits as f64;
        if self.last_rate_update[prio] == 0.0 {
            self.last_rate_update[prio] = cur_time;
        } else {
            self.rout_th[prio] += (cur_time - self.last_rate_update[prio]) * self.service_rate[prio];
            self.last_rate_update[prio] = cur_time;
        }
        self.backlog_pkts[prio] += 1;
        self.backlog_bits[prio] += bits;
        self.total_backlog_bits += bits;
        self.total_backlog_pkts += 1;
        for i in 1..=CLASSES {
            if self.arrival[i] > 0.0 {
                self.current_loss[i] = (self.arrival[i] - self.rin[i]) / self.arrival[i];
                self.min_drop[i] = cmax(0.0, 1.0 - self.rin[i] / self.arrival[i]);
                self.max_drop[i] = cmin(1.0, 1.0 - self.rout[i] / self.arrival[i]);
            } else {
                self.current_loss[i] = 0.0;
                self.min_drop[i] = 0.0;
                self.max_drop[i] = 0.0;
            }
        }
    }

    /// `updateStats`: the sliding averages; at a window's start, the
    /// statistics line of the window that ended.
    fn update_stats(&mut self, w: &World, p: PktId, reset: bool) {
        let cur_time = w.s.now;
        let pk = w.pool.get(p);
        let prio = pk.prio as usize;
        let bits = (8 * pk.size) as f64;
        if !reset {
            self.sliding_arv_pkts += 1.0;
            self.sliding_arv_pkts_c[prio] += 1.0;
            self.sliding_inter = (cur_time - self.last_arrival + self.sliding_inter * (self.sliding_arv_pkts - 1.0)) / self.sliding_arv_pkts;
            self.sliding_avg_pkt_size = (self.sliding_avg_pkt_size * (self.sliding_arv_pkts - 1.0) + bits) / self.sliding_arv_pkts;
            self.last_arrival = cur_time;
        } else {
            if self.trace_hop {
                let mut line = format!("{cur_time:.6}\t");
                for i in 1..=CLASSES {
                    line.push_str(&format!("{:.8}\t", cmax(self.current_loss[i], 0.00000001)));
                }
                for i in 1..=CLASSES {
                    line.push_str(&format!("{:.8}\t", cmax(self.sliding_class_delay[i], 0.00000001)));
                }
                for i in 1..=CLASSES {
                    self.sliding_class_service_rate[i] = self.sliding_serviced_bits[i] / MON_WINDOW_SIZE;
                    line.push_str(&format!("{:.0}\t", cmax(self.sliding_class_service_rate[i], 1.0)));
                    self.sliding_serviced_pkts[i] = 0.0;
                    self.sliding_serviced_bits[i] = 0.0;
                    self.sliding_class_delay[i] = 0.0;
                    self.sliding_class_service_rate[i] = 0.0;
                }
                for i in 1..=CLASSES {
                    line.push_str(&format!("{:.0}\t", self.cls[i].len() as f64));
                }
                line.push('\n');
                if let Some(f) = self.trace.as_mut() {
                    let _ = f.write_all(line.as_bytes());
                }
            }
            self.sliding_arv_pkts = 1.0;
            self.sliding_arv_pkts_c[prio] = 1.0;
            self.sliding_inter = cur_time - self.last_arrival;
            self.sliding_avg_pkt_size = bits;
            self.last_arrival = cur_time;
        }
        self.util = self.sliding_avg_pkt_size / (self.sliding_inter * self.bandwidth);
    }

    // ---- dequeue ------------------------------------------------------------

    fn deque(&mut self, w: &mut World) -> Option<PktId> {
        let cur_time = w.s.now;
        let mut max_error = f64::NEG_INFINITY;
        let mut svc_class = 0;
        for i in 1..=CLASSES {
            if self.backlogged(i) {
                let error = self.rout_th[i] - self.rout[i];
                if error > max_error {
                    max_error = error;
                    svc_class = i;
                }
            }
        }
        if svc_class == 0 {
            self.idle = true;
            return None;
        }
        self.idle = false;
        let p = self.cls[svc_class].pop(&w.pool)?;
        let pk = w.pool.get(p);
        let bits = 8 * pk.size as i64;
        let ts = pk.timestamp;
        let c = svc_class;
        self.total_backlog_pkts -= 1;
        self.total_backlog_bits -= bits;
        self.backlog_pkts[c] -= 1;
        self.backlog_bits[c] -= bits;
        self.rout[c] += bits as f64;
        self.rout_last_up[c] = cur_time;
        self.sliding_serviced_pkts[c] += 1.0;
        self.sliding_serviced_bits[c] += bits as f64;
        self.sliding_class_delay[c] =
            ((self.sliding_serviced_pkts[c] - 1.0) * self.sliding_class_delay[c] + (cur_time - ts)) / self.sliding_serviced_pkts[c];
        Some(p)
    }
}

impl Discipline for Jobs {
    fn enqueue(&mut self, cap: &Capacity, w: &mut World, p: PktId, drops: &mut Drops) -> Verdict {
        self.enque(cap, w, p, drops);
        if drops.is_empty() {
            Verdict::Queued
        } else {
            Verdict::Overflow
        }
    }

    fn dequeue(&mut self, w: &mut World, _drops: &mut Drops) -> Option<PktId> {
        self.deque(w)
    }

    /// The link found nothing to send: ns-2's `deque` returning nothing,
    /// which makes the next arrival restart the curves.
    fn link_idle(&mut self, _now: f64) {
        self.idle = true;
    }

    fn len(&self) -> usize {
        self.cls.iter().map(|f| f.len()).sum()
    }

    fn bytes(&self) -> i64 {
        self.cls.iter().map(|f| f.bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Sim;

    fn packet(sim: &mut Sim, class: i32, size: i32) -> PktId {
        let p = sim.w.pool.alloc();
        let pk = sim.w.pool.get_mut(p);
        pk.prio = class;
        pk.size = size;
        p
    }

    /// The relative constraints' weights: each class's product of the
    /// others' cumulative ratios (what ns-2 prints beside each ratio).
    #[test]
    fn relative_weights_are_the_products_of_the_others_ratios() {
        let mut j = Jobs::new();
        let text = j.set_constraints(Constraint::Rdc, [-1.0, 4.0, 4.0, 4.0]);
        assert_eq!(&j.prod_others[1..], &[64.0, 64.0, 16.0, 4.0]);
        assert!(text.contains("\tClass 1: \tNot concerned\n\tClass 2: \t4.000000\t(64.000000)\n"), "{text}");
        j.set_constraints(Constraint::Adc, [0.005, -1.0, -1.0, -1.0]);
        assert!(j.abs_present && j.concerned_adc[1] && !j.concerned_adc[2]);
        assert_eq!(j.adc[2], f64::INFINITY);
    }

    /// Work conservation shares the link equally among the backlogged
    /// classes; the scheduler serves the class furthest behind its curve,
    /// and a class's separate buffer (a quarter of the limit) overflows
    /// into drops of that class.
    #[test]
    fn rates_follow_the_backlog_and_buffers_overflow_per_class() {
        let mut sim = Sim::new();
        let mut j = Jobs::new();
        j.set_constraints(Constraint::Rdc, [-1.0; 4]);
        j.set_constraints(Constraint::Rlc, [-1.0; 4]);
        j.set_constraints(Constraint::Adc, [-1.0; 4]);
        j.set_constraints(Constraint::Alc, [-1.0; 4]);
        j.set_constraints(Constraint::Arc, [-1.0; 4]);
        j.bandwidth = 8e6;
        j.sampling_period = 1;
        j.initialize().unwrap();
        let cap = Capacity { limit: 8, ..Capacity::default() };
        let mut drops = Drops::default();
        sim.w.s.now = 0.0005;
        for class in [1, 3] {
            let p = packet(&mut sim, class, 1000);
            assert_eq!(j.enqueue(&cap, &mut sim.w, p, &mut drops), Verdict::Queued);
        }
        assert_eq!(&j.service_rate[1..], &[4e6, 0.0, 4e6, 0.0]);
        // class 3's buffer holds limit/4 = 2 (it had one: the second
        // arrival now is one too many)
        sim.w.s.now = 0.001;
        let mut verdicts = Vec::new();
        for _ in 0..3 {
            let p = packet(&mut sim, 3, 1000);
            verdicts.push(j.enqueue(&cap, &mut sim.w, p, &mut drops));
        }
        assert_eq!(verdicts, [Verdict::Queued, Verdict::Overflow, Verdict::Overflow]);
        assert_eq!(drops.pkts.len(), 2);
        assert_eq!(j.backlog_pkts[3], 2);
        assert!(j.current_loss[3] > 0.0 && j.current_loss[1] == 0.0);
        // class 3 has been owed service since its first arrival: it goes first
        let p = j.dequeue(&mut sim.w, &mut drops).unwrap();
        assert_eq!(sim.w.pool.get(p).prio, 3);
        assert_eq!(j.len(), 2);
    }
}
