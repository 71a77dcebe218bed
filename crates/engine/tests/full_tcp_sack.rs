//! The full TCP with SACK and PRR (ns-3.37's defaults, seed 004's config
//! B) against ns-3.37 itself, and the invariants of loss recovery under
//! heavy loss.  ns-3.37's figures: `RESULT` lines of
//! ../shared/oracle/ns3/tcp-wns3-2016.cc run with `--sack=1 --recovery=prr`
//! (testdata/full_tcp/ns3-results-B.txt; cwnd series beside it, commands in
//! that directory's README).

#[path = "../examples/support/seed004.rs"]
#[allow(dead_code)]
mod seed004;
#[path = "common/ns3_series.rs"]
mod ns3_series;


use dumbbell_engine::socket::prr::ReductionBound;
use dumbbell_engine::socket::{Recovery, TcpState, TraceVar};
use ns3_series::{ns3_cwnd, our_cwnd};
use seed004::{run, Scenario};

/// The window cuts: samples more than 20% below the one before, a cut over
/// two samples (PRR lowers the window over the recovery) counted once.
fn cuts(x: &[f64], from: f64) -> Vec<f64> {
    let cut = |i: usize| i >= 1 && x[i] < 0.8 * x[i - 1];
    (1..x.len()).filter(|&i| cut(i) && !cut(i - 1)).map(|i| from + i as f64 / 10.0).collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn within(x: f64, want: f64, rel: f64) -> bool {
    (x - want).abs() <= rel * want
}

fn config_b(sc: Scenario) -> Scenario {
    sc.config_b()
}

/// Sections 4.3/4.4's NewReno pair with SACK and PRR: ns-3.37 gives 2.923 :
/// 2.775 Mb/s, 9 : 9 fast recoveries, 21 bottleneck drops, mean cwnd 84.44
/// : 80.49 segments; its cwnd series, cut for cut.
#[test]
fn config_b_newreno_pair_matches_ns3() {
    let mut sc = config_b(Scenario::seed004(2, 6.0, 100.0, 400.0));
    sc.record = true;
    let out = run(&sc);
    let ns3 = [(2.923, 9), (2.775, 9)];
    for (i, (name, from)) in [("s44-NewReno-B-flow0", 0.0), ("s44-NewReno-B-flow1", 10.0)].into_iter().enumerate() {
        let s = out.b.sim().socket(out.senders[i].0).unwrap();
        let g = out.goodput_mbps(i, 400.0);
        assert!(within(g, ns3[i].0, 0.003), "flow {i}: {g:.4} Mb/s, ns-3 {}", ns3[i].0);
        assert_eq!((s.stats.fast_recoveries, s.stats.timeouts), (ns3[i].1, 0), "flow {i}");
        let theirs = ns3_cwnd(name);
        let ours = our_cwnd(&s.rec.as_ref().unwrap().rows, from, theirs.len());
        let (a, b) = (cuts(&theirs, from), cuts(&ours, from));
        // every cut of ours at a cut of ns-3's (the same sample or the next)
        let matched = b.iter().filter(|y| a.iter().any(|x| (*x - **y).abs() <= 0.1 + 1e-9)).count();
        assert!(matched == b.len() && a.len() <= b.len() + 1, "flow {i}: ns-3 cuts {a:?}\nours {b:?}");
        let d: Vec<f64> = theirs.iter().zip(&ours).skip(2).map(|(x, y)| (x - y).abs()).collect();
        assert!(mean(&d) < 0.3, "flow {i}: mean |difference| {} segments", mean(&d));
        assert!(within(mean(&ours[10..]), mean(&theirs[10..]), 0.005), "flow {i}: mean cwnd {} vs {}", mean(&ours[10..]), mean(&theirs[10..]));
    }
}

/// Section 4.5 at 50 ms with SACK and PRR: ns-3.37 5.729 Mb/s, 22 fast
/// recoveries, no timeout; the cuts as in config A (docs/full-tcp.md: the
/// first overflow one packet later here).
#[test]
fn config_b_section_4_5_at_50ms_matches_ns3() {
    let mut sc = config_b(Scenario::seed004(1, 6.0, 50.0, 400.0));
    sc.record = true;
    let out = run(&sc);
    let s = out.b.sim().socket(out.senders[0].0).unwrap();
    let g = out.goodput_mbps(0, 400.0);
    assert!(within(g, 5.729, 0.002), "{g}");
    assert_eq!((s.stats.fast_recoveries, s.stats.timeouts), (22, 0));
    let theirs = ns3_cwnd("s45-50-NewReno-B-flow0");
    let ours = our_cwnd(&s.rec.as_ref().unwrap().rows, 0.0, theirs.len());
    assert_eq!((cuts(&theirs, 0.0).len(), cuts(&ours, 0.0).len()), (22, 22));
    assert!(within(mean(&ours[10..]), mean(&theirs[10..]), 0.015));    // PRR sets the window itself in recovery (cwnd = pipe + sndcnt), so the
    // inflated window ns-3 traces is the window (less the bytes of a
    // partial ACK, which ns-3 subtracts whatever the recovery); classic
    // recovery inflates it by an MSS a duplicate ACK
    let rows = &s.rec.as_ref().unwrap().rows;
    let (mut cwnd, mut infl, mut state, mut seen) = (0.0, 0.0, 0.0, 0);
    for (i, r) in rows.iter().enumerate() {
        match r.var {
            TraceVar::Cwnd => cwnd = r.value,
            TraceVar::CwndInflated => infl = r.value,
            TraceVar::CongState => state = r.value,
            _ => {}
        }
        // the values at the end of each event
        let last_of_event = rows.get(i + 1).map_or(true, |n| n.time != r.time);
        if last_of_event && state == 3.0 {
            assert!(infl <= cwnd, "at {}: inflated {infl} above cwnd {cwnd}", r.time);
            seen += 1;
        }
    }
    assert!(seen > 100);
}

/// Section 4.2 (10 Mb/s, 100 ms, packet error rate 10⁻³, 200 s) with SACK
/// and PRR: ns-3.37's runs 1-5 give 1.560, 1.763, 1.512, 1.459, 1.257 Mb/s
/// (mean 1.510); the losses are drawn by another generator here, so the
/// mean is compared, within the runs' range widened by 10%.
#[test]
fn config_b_random_loss_mean_in_ns3_range() {
    let mut sum = 0.0;
    for seed in 1..=5 {
        let mut sc = config_b(Scenario::seed004(1, 10.0, 100.0, 200.0));
        sc.per = 0.001;
        sc.seed = seed;
        let g = run(&sc).goodput_mbps(0, 200.0);
        assert!((1.257 * 0.9..=1.763 * 1.1).contains(&g), "seed {seed}: {g:.3}");
        sum += g;
    }
    assert!((1.257 * 0.9..=1.763 * 1.1).contains(&(sum / 5.0)));
}

/// The invariants under heavy loss (5% of data packets lost, several per
/// window), for each recovery: a finite transfer reaches the sink whole,
/// each byte once (duplicates arrive but are not delivered again), the
/// connection closes, the window never falls below one MSS once set, the
/// bytes in flight never exceed what is outstanding, and the segments sent
/// are those delivered plus those lost.
#[test]
fn heavy_loss_invariants_for_each_recovery() {
    for (sack, rec) in [(true, Recovery::Prr(ReductionBound::Ssrb)), (true, Recovery::Prr(ReductionBound::Crb)), (true, Recovery::Classic), (false, Recovery::Prr(ReductionBound::Ssrb)), (false, Recovery::Classic)] {
        let mut sc = Scenario::seed004(1, 6.0, 20.0, 200.0);
        sc.cfg.sack = sack;
        sc.cfg.recovery = rec;
        sc.cfg.max_bytes = 2_000_000;
        sc.per = 0.05;
        sc.record = true;
        let mut out = run(&sc);
        let m = out.b.monitor_stats(out.bottleneck);
        let k = out.b.sim().socket(out.receivers[0].0).unwrap();
        let s = out.b.sim().socket(out.senders[0].0).unwrap();
        let what = format!("sack {sack}, {rec:?}");
        assert_eq!(k.stats.bytes_received, 2_000_000, "{what}");
        assert!(s.stats.retransmissions > 50 && s.stats.fast_recoveries > 10, "{what}: {:?}", s.stats);
        assert!(matches!(s.state, TcpState::TimeWait | TcpState::FinWait2), "{what}: sender {:?}", s.state);
        assert_eq!(k.state, TcpState::Closed, "{what}");
        let rows = &s.rec.as_ref().unwrap().rows;
        let mut started = false;
        for r in rows {
            if r.var == TraceVar::Cwnd && r.value > 0.0 {
                started = true;
            }
            if started && r.var == TraceVar::Cwnd {
                assert!(r.value >= 1448.0, "{what}: cwnd {} at {}", r.value, r.time);
            }
            assert!(r.var != TraceVar::BytesInFlight || r.value <= 2_000_000.0, "{what}");
        }
        // conservation at the bottleneck: what entered left or was dropped
        assert_eq!(m.parrivals, m.pdepartures + m.pdrops + m.pkts, "{what}");
    }
}

/// Heavier random loss (10 Mb/s, 100 ms, 1% of data packets, 100 s), both
/// configurations, runs 1-5.  ns-3.37 (`--per=0.01 --simTime=100
/// --run=1..5`): config A 0.390, 0.416, 0.471, 0.359, 0.387 Mb/s (mean
/// 0.405), config B 0.375, 0.400, 0.457, 0.350, 0.373 (mean 0.391): with
/// windows of a few segments PRR sends less in recovery than classic
/// recovery's cwnd = ssthresh, and SACK has little to add, so B is 3.4%
/// below A.  The means here within ns-3's runs' range and B below A.
#[test]
fn heavier_random_loss_configs_a_and_b_as_in_ns3() {
    let go = |b: bool| {
        let mut sum = 0.0;
        for seed in 1..=5 {
            let mut sc = Scenario::seed004(1, 10.0, 100.0, 100.0);
            if b {
                sc = sc.config_b();
            }
            sc.per = 0.01;
            sc.seed = seed;
            sum += run(&sc).goodput_mbps(0, 100.0);
        }
        sum / 5.0
    };
    let (a, b) = (go(false), go(true));
    assert!((0.359..=0.471).contains(&a), "config A mean {a:.4}");
    assert!((0.350..=0.457).contains(&b), "config B mean {b:.4}");
    assert!(b < a && b > 0.9 * a, "B {b:.4} against A {a:.4}");
}

/// ECN (RFC 3168) through a RED bottleneck that marks instead of dropping
/// (`setbit_`): with `UseEcn` On at both ends the flow's data is marked,
/// not dropped, and each mark reduces the window once (ECE until the CWR),
/// never twice within a window; with ECN off (or asked by one end only)
/// the same queue drops instead, as RED marks only ECN-capable packets.
#[test]
fn ecn_marks_instead_of_drops_once_per_window() {
    use dumbbell_engine::socket::ecn::UseEcn;
    let go = |snd: UseEcn, rcv_accepts: bool| {
        let mut sc = Scenario::seed004(1, 6.0, 20.0, 60.0);
        sc.queue = 60;
        sc.red_ecn = Some((5.0, 15.0));
        sc.cfg.ecn = snd;
        if !rcv_accepts {
            // both ends share one configuration: an end that neither asks
            // nor accepts
            sc.cfg.ecn = UseEcn::Off;
        }
        sc.record = true;
        let mut out = run(&sc);
        let m = out.b.monitor_stats(out.bottleneck);
        let s = out.b.sim().socket(out.senders[0].0).unwrap();
        let cwr_times: Vec<f64> = {
            let rows = &s.rec.as_ref().unwrap().rows;
            let mut prev = 0.0;
            let mut v = Vec::new();
            for r in rows.iter().filter(|r| r.var == TraceVar::CongState) {
                if r.value == 2.0 && prev != 2.0 {
                    v.push(r.time);
                }
                prev = r.value;
            }
            v
        };
        (s.stats.clone(), m.pdrops, cwr_times, s.srtt(), out.goodput_mbps(0, 60.0))
    };
    let (st, drops, cwr, srtt, g) = go(UseEcn::On, true);
    assert!(st.ecn_reductions > 20, "{st:?}");
    assert_eq!(st.ecn_reductions as usize, cwr.len());
    assert_eq!((drops, st.retransmissions, st.fast_recoveries, st.timeouts), (0, 0, 0, 0), "{st:?}");
    // at most one reduction a round trip (the next needs an ACK past the
    // recovery point, a window later)
    for w in cwr.windows(2) {
        assert!(w[1] - w[0] >= srtt * 0.5, "reductions at {} and {} s (srtt {srtt})", w[0], w[1]);
    }
    assert!(g > 5.0, "{g}");
    // ECN off: the same RED queue drops (RED marks ECN-capable packets only)
    let (st, drops, _, _, _) = go(UseEcn::Off, false);
    assert_eq!(st.ecn_reductions, 0);
    assert!(drops > 10 && st.fast_recoveries > 10, "{drops} drops, {st:?}");
    // accepting only, at both ends: nobody asks, so no ECN
    let (st, drops, _, _, _) = go(UseEcn::AcceptOnly, true);
    assert_eq!(st.ecn_reductions, 0);
    assert!(drops > 10);
}
