//! The full TCP on seed 004's dumbbell (support/seed004.rs), for runs
//! against ns-3.37 and for timing:
//!
//!     cargo run --release -p dumbbell-engine --example full_dumbbell -- \
//!         FLOWS BTL_MBPS DELAY_MS SIM_TIME [PER] [SEED] [ACCESS_MBPS] [QUEUE] [SSTHRESH_SEG]
//!
//! Prints one `RESULT` line per flow (goodput over its own period, fast
//! recoveries, timeouts, mean cwnd in segments sampled every 0.1 s) and a
//! `RUN` line with events dispatched and wall time.  With `CWND_PREFIX`
//! set in the environment, writes `<prefix>-flow<i>-cwnd.csv` (cwnd in
//! segments every 0.1 s from 0, the ns-3 program's format).  With `CONFIG=B`,
//! ns-3's config B (SACK and PRR) instead of config A (neither).  With
//! `PACING=1`, pacing on (ns-3's `TcpSocketState::EnablePacing`); with
//! `CC=name`, that congestion control instead of NewReno.

#[path = "support/seed004.rs"]
#[allow(dead_code)]
mod seed004;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: f64| a.get(i).map(|s| s.parse::<f64>().expect("a number")).unwrap_or(d);
    let mut sc = seed004::Scenario::seed004(arg(1, 1.0) as usize, arg(2, 6.0), arg(3, 100.0), arg(4, 400.0));
    sc.per = arg(5, 0.0);
    sc.seed = arg(6, 1.0) as u64;
    sc.access_mbps = arg(7, 10.0);
    sc.queue = arg(8, 0.0) as u32;
    let ssthresh = arg(9, 15.0) as u64;
    sc.cfg.initial_ssthresh = (ssthresh * 1448).min(u32::MAX as u64) as u32;
    sc.record = true;
    if std::env::var("CONFIG").is_ok_and(|c| c == "B") {
        sc = sc.config_b();
    }
    if std::env::var("PACING").is_ok_and(|c| c == "1") {
        sc.cfg.pacing.enabled = true;
    }
    if let Ok(cc) = std::env::var("CC") {
        sc.cc = cc;
    }
    let t0 = std::time::Instant::now();
    let out = seed004::run(&sc);
    let wall = t0.elapsed().as_secs_f64();
    for i in 0..sc.flows {
        let s = out.b.sim().socket(out.senders[i].0).unwrap();
        let rec = s.rec.as_ref().unwrap();
        // cwnd sampled every 0.1 s from t = 1 s, as the ns-3 program samples it
        let mut cw = 0.0;
        let (mut sum, mut n) = (0.0, 0);
        let mut k = 0;
        let mut t = 1.0;
        if let Ok(prefix) = std::env::var("CWND_PREFIX") {
            let mut csv = String::from("t_s,cwnd_seg\n");
            let (mut c, mut j) = (0.0, 0);
            for step in 0..(sc.sim_time * 10.0).round() as usize {
                let ts = step as f64 * 0.1;
                while j < rec.rows.len() && rec.rows[j].time <= ts + 1e-9 {
                    if rec.rows[j].var == dumbbell_engine::socket::TraceVar::Cwnd {
                        c = rec.rows[j].value;
                    }
                    j += 1;
                }
                let shown = if ts < out.starts[i] { 0.0 } else { c / 1448.0 };
                csv.push_str(&format!("{:.1},{:.2}\n", ts, shown));
            }
            std::fs::write(format!("{prefix}-flow{i}-cwnd.csv"), csv).expect("write the cwnd series");
        }
        while t < sc.sim_time {
            while k < rec.rows.len() && rec.rows[k].time <= t {
                if rec.rows[k].var == dumbbell_engine::socket::TraceVar::Cwnd {
                    cw = rec.rows[k].value;
                }
                k += 1;
            }
            if t >= out.starts[i] {
                sum += cw / 1448.0;
                n += 1;
            }
            t += 0.1;
        }
        println!(
            "RESULT flow={i} goodputMbps={:.4} fastRecoveries={} rtos={} retransmissions={} cwndMeanSeg={:.1} srtt={:.4}",
            out.goodput_mbps(i, sc.sim_time),
            s.stats.fast_recoveries,
            s.stats.timeouts,
            s.stats.retransmissions,
            sum / n.max(1) as f64,
            s.srtt()
        );
    }
    let m = out.b.sim().world().sched().dispatched();
    let mut b = out.b;
    let q = b.monitor_stats(out.bottleneck);
    println!(
        "RUN btlDepartures={} btlDrops={} events={m} wall={wall:.3} events_per_s={:.0}",
        q.pdepartures,
        q.pdrops,
        m as f64 / wall
    );
}
