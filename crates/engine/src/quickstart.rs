//! Quick-Start (RFC 4782) as ns-2 2.35 models it: a sender asks for a
//! rate in an option of its first segment; each router on the path that
//! takes part approves the rate (or a lower one) from what its outgoing
//! link has spare, and counts down the option's TTL, so that the receiver
//! and the sender can tell whether every hop approved; the receiver echoes
//! the approved rate; the sender turns it into an initial window, paced
//! over one round trip.
//!
//! Here: the option (`QsOption`, carried beside the packet, `PacketPool`),
//! the rate encodings (`RateCode`), the router's approval and its rate
//! accounting (`Router`), and the utilization a queue keeps for it
//! (`UtilMeter`: a decaying average and the peaks of recent intervals).
//! The sender's side is in `tcp/quickstart.rs`, the receiver's in the
//! sink.

use crate::packet::PktId;
use crate::sched::ObjId;
use crate::sim::Obj;

/// What an option says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QsKind {
    /// No request (a packet without the option reads so).
    #[default]
    Off,
    /// A rate request, on its way to the receiver.
    Request,
    /// The receiver's echo of the approved rate.
    Response,
}

/// The Quick-Start option of a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QsOption {
    pub kind: QsKind,
    /// The TTL the routers count down (independent of the IP TTL).
    pub ttl: i32,
    /// The rate, encoded (`RateCode`).
    pub rate: i32,
}

/// How a rate is encoded in the option: in units of 10 KB/s, or as a
/// power of two times 5000 bytes/s.  One encoding holds for the whole
/// simulation (ns-2 keeps it in a class-wide variable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RateCode {
    #[default]
    Linear,
    Exponential,
}

impl RateCode {
    /// ns-2's numbering (`rate_function_`): 2 is exponential, anything
    /// else linear.
    pub fn from_number(n: i32) -> RateCode {
        if n == 2 {
            RateCode::Exponential
        } else {
            RateCode::Linear
        }
    }

    pub fn number(self) -> i32 {
        match self {
            RateCode::Linear => 1,
            RateCode::Exponential => 2,
        }
    }

    /// The rate `code` stands for, in bytes per second.
    pub fn to_bps(self, code: i32) -> f64 {
        if code == 0 {
            return 0.0;
        }
        match self {
            RateCode::Linear => code.wrapping_mul(10240) as f64,
            RateCode::Exponential => 2f64.powi(code) * 5000.0,
        }
    }

    /// The code for `bps` bytes per second, rounding down (the
    /// exponential code rounds up a value within 1e-6 below an integer,
    /// and is 0 below 10000 bytes/s).
    pub fn from_bps(self, bps: f64) -> i32 {
        if bps == 0.0 {
            return 0;
        }
        match self {
            RateCode::Linear => crate::num::c_int(bps) / 10240,
            RateCode::Exponential => {
                let f = (bps / 5000.0).ln() / 2f64.ln();
                let whole = crate::num::c_int(f);
                let code = if f - whole as f32 as f64 >= 1.0 - 0.000001 { crate::num::c_int(f + 0.5) } else { whole };
                if code >= 1 {
                    code
                } else {
                    0
                }
            }
        }
    }
}

/// Which utilization an approval rule reads from the outgoing queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UtilKind {
    /// The decaying average.
    Average,
    /// The highest of the recent intervals' averages.
    Peak,
}

/// A router's Quick-Start agent: it sees every packet entering its node
/// and approves the requests bound elsewhere against the link the packet
/// leaves by.
#[derive(Clone, Debug)]
pub struct Router {
    /// Takes part (else requests pass unchanged).
    pub enabled: bool,
    /// The approval rule: 1 spare bandwidth (the average utilization),
    /// 2 a share of the link below a utilization threshold, 3 (RFC 4782's
    /// recommendation) the share left by the peak utilization and the
    /// recent approvals, 4 approve everything; anything else refuses.
    pub algorithm: i32,
    /// How long an approval counts against later requests (two periods).
    pub state_delay: f64,
    /// The share of the link Quick-Start may hand out.
    pub alloc_rate: f64,
    /// Rules 2 and 3: approve only while the utilization (with recent
    /// approvals) is below this share of the link.
    pub threshold: f64,
    /// Rule 1: the highest rate approved, in KB/s.
    pub max_rate: i32,
    /// Bound for scripts; no rule reads it.
    pub mss: i32,
    /// Where packets go on: the node's classifier.
    pub next: ObjId,
    /// The node it serves (its id) and its address.
    pub node: i32,
    pub addr: i32,
    /// Approved in the current and the previous period, bytes/s.
    aggr_approval: f64,
    prev_int_aggr: f64,
    /// When the current period ends (NaN until the period length is first
    /// set: the first period runs from then).
    period_end: f64,
}

impl Default for Router {
    fn default() -> Self {
        Router {
            enabled: true,
            algorithm: 3,
            state_delay: 0.2,
            alloc_rate: 0.85,
            threshold: 0.85,
            max_rate: 256,
            mss: 1000,
            next: crate::sim::NONE,
            node: -1,
            addr: -1,
            aggr_approval: 0.0,
            prev_int_aggr: 0.0,
            period_end: f64::NAN,
        }
    }
}

impl Router {
    /// Set the period length; the first setting (at creation) starts the
    /// first period at `now`, as ns-2's agent schedules its timer when it
    /// is made.
    pub fn set_state_delay(&mut self, v: f64, now: f64) {
        if self.period_end.is_nan() {
            self.period_end = now + v;
        }
        self.state_delay = v;
    }

    /// End the periods that are over by `now`: the approvals of the one
    /// that ended become the previous period's.
    fn roll(&mut self, now: f64) {
        while self.period_end <= now {
            self.prev_int_aggr = self.aggr_approval;
            self.aggr_approval = 0.0;
            self.period_end += self.state_delay;
            if !(self.state_delay > 0.0) {
                // a period of no length would never end the loop: ns-2's
                // timer fires at the same instant forever
                self.period_end = f64::INFINITY;
            }
        }
    }

    /// The utilization the rule reads, if any.
    pub fn reads(&self) -> Option<UtilKind> {
        match self.algorithm {
            1 | 2 => Some(UtilKind::Average),
            3 => Some(UtilKind::Peak),
            _ => None,
        }
    }

    /// The rate approved for a request of `ratereq` bytes/s over a link of
    /// `bandwidth` bits/s whose utilization (as `reads` asked) is `util`;
    /// the approval counts against later requests.
    pub fn approve(&mut self, now: f64, util: f64, bandwidth: f64, ratereq: f64) -> f64 {
        self.roll(now);
        let link = bandwidth / 8.0;
        let recent = self.prev_int_aggr + self.aggr_approval;
        let app = match self.algorithm {
            1 => {
                let avail = (link * (1.0 - util) - recent) * self.alloc_rate;
                let mut app = if avail < ratereq { crate::num::c_int(avail) as f64 } else { ratereq };
                let cap = self.max_rate.wrapping_mul(1024) as f64;
                if app >= cap {
                    app = cap;
                }
                if app > 0.0 {
                    self.aggr_approval += app;
                }
                return app;
            }
            2 => {
                let used = link * util + recent;
                if used < self.threshold * link {
                    let app = self.alloc_rate * link;
                    if ratereq < app {
                        ratereq
                    } else {
                        app
                    }
                } else {
                    0.0
                }
            }
            3 => {
                let used = link * util + recent;
                if used < self.threshold * link {
                    let mut app = self.alloc_rate * link - used;
                    if ratereq < app {
                        app = ratereq;
                    }
                    if app < 0.0 {
                        app = 0.0;
                    }
                    app
                } else {
                    0.0
                }
            }
            4 => return ratereq,
            _ => return 0.0,
        };
        self.aggr_approval += app;
        app
    }
}

/// A queue's link utilization, as ns-2's `Queue` keeps it for Quick-Start:
/// an exponentially decaying average of the busy (1) and idle (0) times,
/// and the averages of the last few intervals of fixed length.
#[derive(Clone, Debug)]
pub struct UtilMeter {
    /// When the link last changed state (or was measured).
    pub last_change: f64,
    avg: f64,
    period_begin: f64,
    cur: f64,
    slot: usize,
    recent: Vec<f64>,
}

impl UtilMeter {
    /// A meter keeping `records` recent intervals (none: the peak is the
    /// average).
    pub fn new(records: i32) -> UtilMeter {
        UtilMeter { last_change: 0.0, avg: 0.0, period_begin: 0.0, cur: 0.0, slot: 0, recent: vec![0.0; records.max(0) as usize] }
    }

    /// The link was busy (`busy`) from `last_change` to `now`; `weight` is
    /// the decay per second, `interval` the length of the recent
    /// intervals.
    pub fn advance(&mut self, now: f64, busy: bool, weight: f64, interval: f64) {
        let state = busy as i32 as f64;
        let begin = self.last_change;
        let decay = (-weight * (now - begin)).exp();
        self.avg = state + (self.avg - state) * decay;
        self.last_change = now;
        let n = self.recent.len();
        if n == 0 {
            return;
        }
        let mut intv = now - begin;
        let tot = begin - self.period_begin;
        if intv != 0.0 || tot != 0.0 {
            self.cur = (state * intv + self.cur * tot) / (intv + tot);
            let mut guard = 0;
            while tot + intv > interval && guard < n {
                guard += 1;
                self.period_begin = now;
                self.recent[self.slot] = self.cur;
                self.slot = (self.slot + 1) % n;
                self.cur = state;
                intv -= interval;
            }
        }
    }

    /// Nothing measured yet.
    pub fn is_fresh(&self) -> bool {
        self.last_change == 0.0 && self.avg == 0.0 && self.cur == 0.0 && self.slot == 0
    }

    /// The decaying average (after `advance` to now).
    pub fn average(&self) -> f64 {
        self.avg
    }

    /// The highest recent interval's average, or the average if no
    /// intervals are kept (after `advance` to now).
    pub fn peak(&self) -> f64 {
        if self.recent.is_empty() {
            return self.avg;
        }
        self.recent.iter().fold(0.0, |m, &u| if u > m { u } else { m })
    }
}

impl crate::sim::Sim {
    /// A packet enters the node of router `r` (address `addr`): a request
    /// bound elsewhere is approved against the link it leaves by (its TTL
    /// counted down and its rate replaced by the approved one) or refused
    /// (the option switched off); then the node takes the packet.
    pub(crate) fn qs_router_recv(&mut self, r: &mut Router, addr: i32, p: PktId) {
        self.qs_approve(r, addr, p);
        self.recv(r.next, p, None)
    }

    /// A packet enters a node through its Quick-Start entry, whose router
    /// agent is `router`: the approval, then where the packet goes on.  The
    /// agent stays in the table (a sink's ACK sent back through the same
    /// entry while its packet is delivered finds it there).
    pub(crate) fn qs_entry(&mut self, router: ObjId, p: PktId) -> Option<ObjId> {
        let (mut r, addr) = match self.objs.get_mut(router as usize) {
            Some(Obj::Agent(a)) => match &mut a.kind {
                crate::agent::AgentKind::QsRouter(r) => (std::mem::take(&mut **r), a.base.addr),
                _ => return None,
            },
            _ => {
                // no router installed: ns-2's classifier has an empty slot
                self.w.pool.free(p);
                return None;
            }
        };
        self.qs_approve(&mut r, addr, p);
        let next = r.next;
        if let Some(Obj::Agent(a)) = self.objs.get_mut(router as usize) {
            if let crate::agent::AgentKind::QsRouter(slot) = &mut a.kind {
                **slot = r;
            }
        }
        Some(next)
    }

    /// The router's part: approve or refuse a request bound elsewhere.
    fn qs_approve(&mut self, r: &mut Router, addr: i32, p: PktId) {
        if r.enabled {
            let opt = self.w.pool.qs_option(p);
            let daddr = self.w.pool.get(p).daddr;
            if opt.kind == QsKind::Request && opt.rate > 0 && daddr != addr {
                if let Some((q, bandwidth)) = self.out_link(addr, daddr) {
                    let util = match r.reads() {
                        Some(kind) => match &mut self.objs[q as usize] {
                            Obj::Queue(queue) => queue.utilization(&mut self.w, kind == UtilKind::Peak).unwrap_or(0.0),
                            _ => 0.0,
                        },
                        None => 0.0,
                    };
                    let code = self.w.qs_rate_code;
                    let app = r.approve(self.w.s.now, util, bandwidth, code.to_bps(opt.rate));
                    let mut o = opt;
                    if app > 0.0 {
                        o.ttl -= 1;
                        o.rate = code.from_bps(app);
                    } else {
                        o.rate = 0;
                        o.kind = QsKind::Off;
                    }
                    self.w.pool.set_qs_option(p, o);
                }
            }
        }
    }

    /// The queue of the link node `node` sends packets for `daddr` by, and
    /// the link's bandwidth (bits/s).
    fn out_link(&mut self, node: i32, daddr: i32) -> Option<(ObjId, f64)> {
        let next = self.w.routing.next_hop(node, daddr)?;
        let head = self.w.routing.links.get(&(node, next))?.head;
        let mut queue = None;
        let mut at = head;
        for _ in 0..64 {
            let to = match self.objs.get(at as usize)? {
                Obj::Connector(c) => c.target,
                Obj::Trace(t) => t.target,
                Obj::Snoop(s) => s.target,
                Obj::Proxy(t) => *t,
                Obj::QsEntry(_) => return None,
                Obj::Dynamic(d) => d.target,
                // an error module at the head: its models pass packets on
                // to its target
                Obj::ErrModule { target, .. } => *target,
                Obj::ErrModel(e) => e.target,
                Obj::Queue(q) => {
                    queue.get_or_insert(at);
                    q.target
                }
                Obj::Link(l) => return queue.map(|q| (q, l.bandwidth)),
                _ => return None,
            };
            at = to;
        }
        None
    }

    /// Keep the utilization of every queue (a Quick-Start router was made:
    /// it may ask any of them).
    pub(crate) fn meter_all_queues(&mut self) {
        self.w.qs_meters = true;
        for o in self.objs.iter_mut() {
            if let Obj::Queue(q) = o {
                q.meter_on();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_code_is_ten_kilobyte_units_rounded_down() {
        let c = RateCode::Linear;
        assert_eq!(c.from_bps(20.0 * 1024.0), 2);
        assert_eq!(c.from_bps(10239.0), 0);
        assert_eq!(c.to_bps(2), 20480.0);
        assert_eq!(c.to_bps(0), 0.0);
    }

    #[test]
    fn exponential_code_rounds_down_but_forgives_a_hair() {
        let c = RateCode::Exponential;
        // 20 KB/s = 20480 B/s: log2(4.096) = 2.03 -> 2
        assert_eq!(c.from_bps(20480.0), 2);
        assert_eq!(c.to_bps(2), 20000.0);
        // exactly 2^3 * 5000, and a hair below it, are 3
        assert_eq!(c.from_bps(40000.0), 3);
        assert_eq!(c.from_bps(39999.99999), 3);
        assert_eq!(c.from_bps(39000.0), 2);
        // below 10000 B/s nothing
        assert_eq!(c.from_bps(9000.0), 0);
    }

    #[test]
    fn rule_three_hands_out_what_the_peak_leaves_and_remembers_it() {
        let mut r = Router { algorithm: 3, alloc_rate: 0.5, threshold: 0.5, ..Router::default() };
        r.set_state_delay(0.35, 0.0);
        // 1 Mb/s = 125000 B/s; half of it, less 20% used, is 100000 B/s
        let a = r.approve(0.1, 0.2, 1e6, 1e9);
        assert!((a - 37500.0).abs() < 1e-9, "{a}");
        // the approval counts: the next request gets less, or nothing
        let b = r.approve(0.2, 0.2, 1e6, 1e9);
        assert_eq!(b, 0.0, "used 25000 + 37500 = 62500 is not below the threshold");
        // two periods later it has been forgotten
        let c = r.approve(0.75, 0.2, 1e6, 1e9);
        assert!((c - 37500.0).abs() < 1e-9, "{c}");
    }

    #[test]
    fn rule_one_caps_at_max_rate_and_four_approves_anything() {
        let mut r = Router { algorithm: 1, alloc_rate: 1.0, max_rate: 10, ..Router::default() };
        r.set_state_delay(1.0, 0.0);
        assert_eq!(r.approve(0.0, 0.0, 1e9, 1e9), 10240.0);
        r.algorithm = 4;
        assert_eq!(r.approve(0.0, 1.0, 1.0, 123.0), 123.0);
        r.algorithm = 7;
        assert_eq!(r.approve(0.0, 0.0, 1e9, 1e9), 0.0);
    }

    #[test]
    fn meter_decays_towards_the_link_state_and_keeps_interval_peaks() {
        let mut m = UtilMeter::new(5);
        m.advance(1.0, true, 2.0, 0.2);
        assert!((m.average() - (1.0 - (-2.0f64).exp())).abs() < 1e-12);
        assert_eq!(m.peak(), 1.0, "busy throughout: every interval was busy");
        m.advance(1.1, false, 2.0, 0.2);
        assert!(m.average() < 1.0 - (-2.0f64).exp());
        assert_eq!(m.peak(), 1.0, "the busy intervals are still the recent ones");
        // a long idle time fills every slot with idle intervals
        m.advance(3.0, false, 2.0, 0.2);
        assert_eq!(m.peak(), 0.0);
        let mut none = UtilMeter::new(0);
        none.advance(1.0, true, 2.0, 0.2);
        assert_eq!(none.peak(), none.average());
    }
}
