//! The workload of ../shared/bench/dumbbell-ns3.cc (ns-3.37's NewReno on a
//! dumbbell: N bulk senders, access links of 100 C with delays 1..50 ms, a
//! bottleneck of C and 5 ms with a drop-tail queue of 100 ms, one
//! destination) on the full TCP, with that program's TCP settings: MSS
//! 1000, an ACK per segment, initial cwnd 10, buffers of the window cap W,
//! no SACK, no timestamps, min RTO 200 ms, classic recovery.  Prints the same
//! `RESULT` fields.  `benches/full_tcp_vs_ns3.py` runs both side by side.
//!
//!     cargo run --release -p dumbbell-engine --example full_grid -- N C_Mbps T

#[path = "support/seed004.rs"]
#[allow(dead_code)]
mod seed004;

use dumbbell_engine::ns2::build::*;
use dumbbell_engine::socket::Config;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: f64| a.get(i).map(|s| s.parse::<f64>().expect("a number")).unwrap_or(d);
    let n = arg(1, 16.0) as usize;
    let bw = arg(2, 10.0);
    let t_end = arg(3, 100.0);
    let pkt = 1000u32;
    let c = bw * 1e6;
    let buf = (c * 0.100 / (8.0 * pkt as f64)).ceil() as u32;
    let w = (c * 0.112 / (8.0 * pkt as f64)).ceil() as u32 + buf;
    let t0 = std::time::Instant::now();
    let mut b = Builder::new(seed004::defaults()).unwrap();
    let r1 = b.node().unwrap();
    let r2 = b.node().unwrap();
    let dst = b.node().unwrap();
    let dt = |limit: u32| QueueSpec::DropTail(DropTail { limit: Some(limit), ..Default::default() });
    // ns-3: a FIFO queue disc of `buf` packets over a 1-packet device
    // queue; a DropTail of limit L holds L - 1 waiting (ns-2's rule)
    let (btl, _) = b.duplex_link(r1, r2, Bandwidth::mbps(bw), Seconds::ms(5.0), &dt(buf + 2)).unwrap();
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
    let m = b.monitor_queue(btl).unwrap();
    let t1 = std::time::Instant::now();
    b.run_until(Seconds(t_end)).unwrap();
    let t2 = std::time::Instant::now();
    let q = b.monitor_stats(m);
    let rx: u64 = sinks.iter().map(|k| b.sim().socket(k.0).unwrap().stats.bytes_received).sum();
    let events = b.sim().world().sched().dispatched();
    println!(
        "RESULT sim=dumbbell-full n={n} bw_mbps={bw} queue=DropTail T={t_end} buf={buf} W={w} bneck_pkts={} drops={} goodput_pkts={} events={events} setup_s={:.3} run_s={:.3} events_per_s={:.0}",
        q.pdepartures,
        q.pdrops,
        rx / pkt as u64,
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        events as f64 / (t2 - t1).as_secs_f64()
    );
}
