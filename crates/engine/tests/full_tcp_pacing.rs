//! Pacing on the full TCP (`socket/pacing.rs`, ns-3.37's `m_pacing`) on
//! seed 004's dumbbell: against ns-3.37 itself (its `RESULT` lines from
//! ../shared/oracle/ns3/tcp-wns3-2016.cc run with
//! `--ns3::TcpSocketState::EnablePacing=true`), and what pacing does to the
//! sender's departures.

#[path = "../examples/support/seed004.rs"]
#[allow(dead_code)]
mod seed004;

use dumbbell_engine::socket::pacing::tx_time_ns;
use dumbbell_engine::socket::TraceVar;
use seed004::{run, Scenario};

fn within(x: f64, want: f64, rel: f64) -> bool {
    (x - want).abs() <= rel * want
}

/// NewReno, config A, one flow on 6 Mb/s, 100 s, pacing on.  ns-3.37:
///
///     tcp-wns3-2016 --tcp=NewReno --btlBw=6Mbps --btlDelay=50 --simTime=100 \
///         --ns3::TcpSocketState::EnablePacing=true
///
/// gives goodput 5.557 Mb/s with 5 fast recoveries (5.584 without pacing),
/// and at 100 ms 4.794 Mb/s, none (4.804 without).
#[test]
fn paced_newreno_matches_ns3() {
    for (delay, goodput, recoveries) in [(50.0, 5.557, 5), (100.0, 4.794, 0)] {
        let mut sc = Scenario::seed004(1, 6.0, delay, 100.0);
        sc.cfg.pacing.enabled = true;
        let out = run(&sc);
        let g = out.goodput_mbps(0, 100.0);
        let s = out.b.sim().socket(out.senders[0].0).unwrap();
        assert!(within(g, goodput, 0.003), "{delay} ms: goodput {g:.4} Mb/s, ns-3.37 {goodput}");
        assert_eq!(s.stats.fast_recoveries, recoveries, "{delay} ms");
        assert_eq!(s.stats.timeouts, 0);
    }
}

/// Each event of the sender's: how much its bytes in flight rose, and when.
fn rises(sc: &Scenario) -> (Vec<(f64, f64)>, u64) {
    let out = run(sc);
    let s = out.b.sim().socket(out.senders[0].0).unwrap();
    let mut last = 0.0;
    let mut v = Vec::new();
    for r in s.rec.as_ref().unwrap().rows.iter().filter(|r| r.var == TraceVar::BytesInFlight) {
        v.push((r.time, r.value - last));
        last = r.value;
    }
    (v, s.pacing_rate())
}

/// Without pacing, each ACK of two segments lets two or three out in the
/// same event (the bytes in flight fall and rise in one event: no row or a
/// rise of one segment); with pacing, after the initial window (ns-3 paces
/// it only with PaceInitialWindow), each segment leaves in an event of its
/// own (the pacing timer's, or an ACK's when the timer is idle), so there
/// are about twice as many rising events, no event sends more than one
/// segment, and sends are at least one segment's time at the pacing rate
/// apart.  The rate ends below the maximum (4 Gb/s), set from cwnd and SRTT.
#[test]
fn pacing_spaces_the_departures() {
    let mss = 1448.0;
    let mut sc = Scenario::seed004(1, 6.0, 50.0, 20.0);
    sc.record = true;
    let (plain, rate) = rises(&sc);
    assert_eq!(rate, 4_000_000_000);
    let plain_sends = plain.iter().skip(2).filter(|(_, d)| *d > 0.0).count();
    sc.cfg.pacing.enabled = true;
    let (paced, rate) = rises(&sc);
    assert!(rate < 20_000_000, "{rate}");
    let after_iw: Vec<&(f64, f64)> = paced.iter().skip(2).collect();
    assert!(after_iw.iter().all(|(_, d)| *d <= mss), "{:?}", after_iw.iter().find(|(_, d)| *d > mss));
    let sends: Vec<f64> = after_iw.iter().filter(|(_, d)| *d > 0.0).map(|(t, _)| *t).collect();
    assert!(sends.len() as f64 > 1.8 * plain_sends as f64, "{} paced, {plain_sends} unpaced", sends.len());
    // the highest rate cwnd/SRTT gives here (about 105 segments over
    // 100 ms or more at 120%) is below 15 Mb/s: consecutive sends are never
    // closer than one segment's time at 15 Mb/s
    let gap = tx_time_ns(1448, 15_000_000) as f64 * 1e-9;
    let closest = sends.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min);
    assert!(closest >= gap - 1e-12, "{closest} s");
    // the initial window is paced too with PaceInitialWindow
    assert!(paced.iter().any(|(_, d)| *d > mss));
    sc.cfg.pacing.initial_window = true;
    let (iw, _) = rises(&sc);
    assert!(iw.iter().all(|(_, d)| *d <= mss));
}
