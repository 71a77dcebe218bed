//! The workload of ../shared/bench/dumbbell-ns3.cc (ns-3.37's NewReno on a
//! dumbbell: N bulk senders, access links of 100 C with delays 1..50 ms, a
//! bottleneck of C and 5 ms with a drop-tail queue of 100 ms, one
//! destination) on the full TCP, with that program's TCP settings: MSS
//! 1000, an ACK per segment, initial cwnd 10, buffers of the window cap W,
//! no SACK, no timestamps, min RTO 200 ms, classic recovery.  Prints the same
//! `RESULT` fields.  `benches/full_tcp_vs_ns3.py` runs both side by side.
//!
//!     cargo run --release -p dumbbell-engine --example full_grid -- N C_Mbps T [DropTail|RED]
//!
//! RED: that program's `--queue=RED` (RED with ECN marks, the TCP's ECN on), set up
//! as ns-3's RedQueueDisc there: packet mode, marks up to twice max_th.

#[path = "support/seed004.rs"]
#[allow(dead_code)]
mod seed004;


fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: f64| a.get(i).map(|s| s.parse::<f64>().expect("a number")).unwrap_or(d);
    let (n, bw, t_end) = (arg(1, 16.0) as usize, arg(2, 10.0), arg(3, 100.0));
    let red = match a.get(4).map(String::as_str) {
        None | Some("DropTail") => false,
        Some("RED") => true,
        Some(q) => {
            eprintln!("full_grid: queue {q:?}: expected DropTail or RED");
            std::process::exit(2);
        }
    };
    let g = seed004::grid_queue(n, bw, t_end, red);
    println!(
        "RESULT sim=dumbbell-full n={n} bw_mbps={bw} queue={} T={t_end} buf={} W={} bneck_pkts={} drops={} goodput_pkts={} events={} setup_s={:.3} run_s={:.3} events_per_s={:.0}",
        if red { "RED" } else { "DropTail" }, g.buf, g.w, g.bneck_pkts, g.drops, g.goodput_pkts, g.events, g.setup_s, g.run_s, g.events as f64 / g.run_s
    );
}
