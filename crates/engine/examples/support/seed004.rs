//! Seed 004's dumbbell (WNS3 2016 sections 4.2-4.5 as rerun on ns-3.37,
//! ../shared/oracle/ns3/seed004-results.md) on the full TCP: sender i -
//! R1 - R2 - receiver i, access links 10 Mb/s 0.1 ms, a bottleneck of
//! `btl_mbps` and `delay_ms`, drop-tail queues of the BDP in 1500-byte
//! packets (see below for the limit),
//! optional packet error rate on the bottleneck's data direction.  ns-3
//! holds L packets in its queue disc and one in the device queue while one
//! is on the wire; ns-2's (and our) DropTail with limit `limit_` holds
//! `limit_` - 1 waiting: the limit is L + 2.
//! Shared by the examples `full_dumbbell` and `full_grid` and the tests in
//! tests/full_tcp.rs; `grid` is ../shared/bench/dumbbell-ns3.cc's workload.

use dumbbell_engine::ns2::build::*;
use dumbbell_engine::socket::prr::ReductionBound;
use dumbbell_engine::socket::ecn::UseEcn;
use dumbbell_engine::socket::{Config, Recovery};

pub struct Scenario {
    pub flows: usize,
    pub btl_mbps: f64,
    pub access_mbps: f64,
    pub delay_ms: f64,
    pub sim_time: f64,
    pub per: f64,
    pub seed: u64,
    /// Start of flow i > 0 (flow 0 starts at 0).
    pub start2: f64,
    pub cfg: Config,
    pub record: bool,
    /// Queue limit override (packets in the queue disc; 0: the BDP).
    pub queue: u32,
    /// A RED bottleneck (min, max thresholds in packets) marking
    /// ECN-capable packets (`setbit_`) instead of the drop-tail queue.
    pub red_ecn: Option<(f64, f64)>,
    /// The congestion control of every flow (the full TCP's name).
    pub cc: String,
}

impl Scenario {
    /// Section 4.3/4.4's setting: 6 Mb/s, 100 ms, 400 s, two flows, the
    /// second from 10 s; ns-3 cfg A (no SACK, classic recovery), initial
    /// cwnd and ssthresh 15 segments, 16 MiB buffers.
    pub fn seed004(flows: usize, btl_mbps: f64, delay_ms: f64, sim_time: f64) -> Scenario {
        let cfg = Config {
            initial_cwnd: 15,
            initial_ssthresh: 15 * 1448,
            snd_buf: 1 << 24,
            rcv_buf: 1 << 24,
            sack: false,
            recovery: Recovery::Classic,
            ..Config::default()
        };
        Scenario { flows, btl_mbps, access_mbps: 10.0, delay_ms, sim_time, per: 0.0, seed: 1, start2: 10.0, cfg, record: false, queue: 0, red_ecn: None, cc: "newreno".into() }
    }

    /// ns-3's config B (the seed program's `--sack=1 --recovery=prr`): SACK
    /// and PRR with its default bound.
    pub fn config_b(mut self) -> Scenario {
        self.cfg.sack = true;
        self.cfg.recovery = Recovery::Prr(ReductionBound::Ssrb);
        self
    }

    pub fn queue_pkts(&self) -> u32 {
        if self.queue > 0 {
            return self.queue;
        }
        let rtt = 2.0 * (self.delay_ms + 2.0 * 0.1) / 1000.0;
        let bdp = self.btl_mbps * 1e6 * rtt / 8.0;
        ((bdp / 1500.0).round() as u32).max(1)
    }
}

pub struct Outcome {
    pub b: Builder,
    pub senders: Vec<AgentId>,
    pub receivers: Vec<AgentId>,
    pub bottleneck: MonitorId,
    pub starts: Vec<f64>,
}

impl Outcome {
    /// Goodput of flow i: payload bytes delivered / (end - own start), Mb/s.
    pub fn goodput_mbps(&self, i: usize, end: f64) -> f64 {
        let r = self.b.sim().socket(self.receivers[i].0).unwrap();
        r.stats.bytes_received as f64 * 8.0 / (end - self.starts[i]) / 1e6
    }
}

pub fn defaults() -> ClassDefaults {
    const DEFAULTS: &str = include_str!("../../../../python/dumbbell/ns2/lib/defaults.tcl");
    ClassDefaults::parse(&(dumbbell_engine::ns2::registry::defaults_tcl() + DEFAULTS)).unwrap()
}

pub fn run(sc: &Scenario) -> Outcome {
    let mut b = Builder::new(defaults()).unwrap();
    b.seed(sc.seed).unwrap();
    let r1 = b.node().unwrap();
    let r2 = b.node().unwrap();
    let q = sc.queue_pkts() + 2;
    let dt = |limit: u32| QueueSpec::DropTail(DropTail { limit: Some(limit), ..Default::default() });
    let btl_q = match sc.red_ecn {
        Some((lo, hi)) => QueueSpec::Red(Red { limit: Some(q), thresh: Some(lo), maxthresh: Some(hi), ecn: true, ..Default::default() }),
        None => dt(q),
    };
    let (btl, _) = b.duplex_link(r1, r2, Bandwidth::mbps(sc.btl_mbps), Seconds::ms(sc.delay_ms), &btl_q).unwrap();
    let mut senders = Vec::new();
    let mut receivers = Vec::new();
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    for _ in 0..sc.flows {
        let s = b.node().unwrap();
        let d = b.node().unwrap();
        b.duplex_link(s, r1, Bandwidth::mbps(sc.access_mbps), Seconds::ms(0.1), &dt(q)).unwrap();
        b.duplex_link(r2, d, Bandwidth::mbps(sc.access_mbps), Seconds::ms(0.1), &dt(q)).unwrap();
        ends.push((s, d));
    }
    if sc.per > 0.0 {
        let spec = ErrorModelSpec {
            pattern: ErrorPattern::Uniform { rate: sc.per },
            unit: ErrorUnit::Packet,
            mark_ecn: false,
            place: ErrorPlace::AfterLink,
            params: Vec::new(),
        };
        b.error_model(btl, &spec).unwrap();
    }
    for (i, (s, d)) in ends.into_iter().enumerate() {
        let (a, k) = b.full_tcp(s, d, sc.cfg.clone(), &sc.cc, i as i32, sc.record).unwrap();
        let start = if i == 0 { 0.0 } else { sc.start2 };
        b.at(Seconds(start), Action::Connect(a)).unwrap();
        senders.push(a);
        receivers.push(k);
        starts.push(start);
    }
    let bottleneck = b.monitor_queue(btl).unwrap();
    b.run_until(Seconds(sc.sim_time)).unwrap();
    Outcome { b, senders, receivers, bottleneck, starts }
}

/// ../shared/bench/dumbbell-ns3.cc's grid point (N senders, access links of
/// 100 C with delays 1..50 ms, a bottleneck of C and 5 ms with a drop-tail
/// queue of 100 ms, one destination; MSS 1000, an ACK per segment, initial
/// cwnd 10, buffers of the window cap W, no SACK, no timestamps, min RTO
/// 200 ms) on the full TCP.
pub struct Grid {
    pub buf: u32,
    pub w: u32,
    pub bneck_pkts: i64,
    pub drops: i64,
    pub goodput_pkts: u64,
    pub events: u64,
    pub setup_s: f64,
    pub run_s: f64,
}

pub fn grid(n: usize, bw: f64, t_end: f64) -> Grid {
    grid_queue(n, bw, t_end, false)
}

/// `grid` with the bottleneck that program's `--queue=RED` sets up when
/// `red`: RED of the same limit, thresholds 0.1 and 0.3 of the 100 ms
/// buffer, weight 0.002, max_p 0.1, gentle, wait, ECN marks (the TCP's ECN
/// on), 1000-byte mean packets.
pub fn grid_queue(n: usize, bw: f64, t_end: f64, red: bool) -> Grid {
    let pkt = 1000u32;
    let c = bw * 1e6;
    let buf = (c * 0.100 / (8.0 * pkt as f64)).ceil() as u32;
    let w = (c * 0.112 / (8.0 * pkt as f64)).ceil() as u32 + buf;
    let t0 = std::time::Instant::now();
    let mut b = Builder::new(defaults()).unwrap();
    let r1 = b.node().unwrap();
    let r2 = b.node().unwrap();
    let dst = b.node().unwrap();
    let dt = |limit: u32| QueueSpec::DropTail(DropTail { limit: Some(limit), ..Default::default() });
    // ns-3: a FIFO queue disc of `buf` packets over a 1-packet device
    // queue; a DropTail of limit L holds L - 1 waiting (ns-2's rule)
    let b_pkts = c * 0.100 / (8.0 * pkt as f64);
    let btl_q = if red {
        QueueSpec::Red(Red {
            limit: Some(buf + 2),
            thresh: Some(0.1 * b_pkts),
            maxthresh: Some(0.3 * b_pkts),
            q_weight: Some(0.002),
            linterm: Some(10.0),
            ecn: true,
            gentle: Some(true),
            wait: Some(true),
            mean_pktsize: Some(Bytes(pkt)),
            // ns-3's RED as the bench sets it: thresholds and limit in
            // packets (ns-2's default is byte mode), and ECN-capable
            // packets marked up to twice max_th (ns-2's default
            // `use_mark_p_` drops them once the curve reaches `mark_p_`,
            // that is, from max_th on)
            bytes: Some(false),
            params: vec![("use_mark_p_".into(), "false".into())],
            ..Default::default()
        })
    } else {
        dt(buf + 2)
    };
    let (btl, _) = b.duplex_link(r1, r2, Bandwidth::mbps(bw), Seconds::ms(5.0), &btl_q).unwrap();
    // ns-3's access devices: a 1000-packet device queue, no queue disc
    b.duplex_link(r2, dst, Bandwidth::mbps(100.0 * bw), Seconds::ms(1.0), &dt(1001)).unwrap();
    let cfg = Config {
        mss: pkt,
        send_size: pkt,
        delack_count: 1,
        initial_cwnd: 10,
        snd_buf: w * pkt,
        rcv_buf: w * pkt,
        data_retries: 1_000_000,
        timestamps: false,
        min_rto: 0.2,
        sack: false,
        recovery: Recovery::Classic,
        ecn: if red { UseEcn::On } else { UseEcn::Off },
        ..Config::default()
    };
    let mut sinks = Vec::new();
    for i in 0..n {
        let s = b.node().unwrap();
        let di = if n > 1 { 1.0 + 49.0 * i as f64 / (n - 1) as f64 } else { 1.0 };
        let di = (di * 1000.0).round() / 1000.0;
        b.duplex_link(s, r1, Bandwidth::mbps(100.0 * bw), Seconds::ms(di), &dt(1001)).unwrap();
        let (snd, rcv) = b.full_tcp(s, dst, cfg.clone(), "newreno", i as i32, false).unwrap();
        let start = ((i + 1) as f64 * 0.6180339887498949) % 1.0;
        b.at(Seconds(start), Action::Connect(snd)).unwrap();
        sinks.push(rcv);
    }
    // the counters only, as ns-3's side reads its queue disc's `Stats`
    let m = b.monitor_queue_counts(btl).unwrap();
    let t1 = std::time::Instant::now();
    b.run_until(Seconds(t_end)).unwrap();
    let t2 = std::time::Instant::now();
    let q = b.monitor_stats(m);
    let rx: u64 = sinks.iter().map(|k| b.sim().socket(k.0).unwrap().stats.bytes_received).sum();
    Grid {
        buf,
        w,
        bneck_pkts: q.pdepartures,
        drops: q.pdrops,
        goodput_pkts: rx / pkt as u64,
        events: b.sim().world().sched().dispatched(),
        setup_s: (t1 - t0).as_secs_f64(),
        run_s: (t2 - t1).as_secs_f64(),
    }
}
