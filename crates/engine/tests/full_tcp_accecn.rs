//! AccECN (RFC 9768, `socket/accecn.rs`) and TCP Prague on the full TCP,
//! end to end through a RED bottleneck that marks ECN-capable packets
//! (`setbit_`): the feedback arrives whole (the sender's counters end
//! equal to the receiver's), classic congestion controls answer it once
//! per window as RFC 3168's ECE, Prague answers in proportion to the
//! marks.

#[path = "../examples/support/seed004.rs"]
#[allow(dead_code)]
mod seed004;

use dumbbell_engine::socket::ecn::UseEcn;
use dumbbell_engine::socket::TcpState;
use seed004::{run, Outcome, Scenario};

/// A finite transfer of 20 MB through RED (5/15 packets, 60 packet
/// buffer) at 6 Mb/s, 20 ms.
fn transfer(cc: &'static str, ecn: UseEcn) -> Outcome {
    let mut sc = Scenario::seed004(1, 6.0, 20.0, 120.0);
    sc.queue = 60;
    sc.red_ecn = Some((5.0, 15.0));
    sc.cfg.ecn = ecn;
    sc.cfg.max_bytes = 20_000_000;
    sc.cc = cc.to_string();
    run(&sc)
}

/// NewReno with `ecn=accecn` at both ends: AccECN is negotiated, every CE
/// mark and every marked byte reaches the sender (s.cep = r.cep and s.ceb
/// = r.ceb once the transfer is over: ACE mod 8 and the option's 24-bit
/// counters decoded without loss), the data went ECT(0) (EE0B counts it
/// all), and the echo reduces the window once per window as classic ECN
/// does: no drops, and as many reductions as with RFC 3168 ECN within a
/// third.
#[test]
fn accecn_feedback_is_exact_and_newreno_answers_once_per_window() {
    let mut out = transfer("newreno", UseEcn::AccEcn);
    let m = out.b.monitor_stats(out.bottleneck);
    let s = out.b.sim().socket(out.senders[0].0).unwrap();
    let k = out.b.sim().socket(out.receivers[0].0).unwrap();
    assert_eq!(k.stats.bytes_received, 20_000_000);
    assert_eq!(k.state, TcpState::Closed);
    let (sa, ka) = (s.accecn().expect("sender in AccECN mode"), k.accecn().expect("receiver in AccECN mode"));
    let marks = ka.r_cep - 5;
    assert!(marks > 10, "{marks} CE marks");
    assert_eq!(sa.s_cep, ka.r_cep, "CE packets fed back");
    assert_eq!(sa.s_ceb, ka.r_ceb, "CE bytes fed back");
    assert_eq!(sa.s_e0b, ka.r_e0b, "ECT(0) bytes fed back");
    assert_eq!(ka.r_e1b, 1, "no ECT(1)");
    // every byte received arrived ECT(0) or CE (retransmissions count again)
    assert!(ka.r_e0b - 1 + ka.r_ceb >= 20_000_000);
    assert_eq!((s.stats.ce_packets, s.stats.ce_bytes), (marks, ka.r_ceb));
    assert_eq!(m.pdrops, 0);
    assert_eq!(s.stats.retransmissions, 0);
    assert!(s.stats.ecn_reductions > 10 && s.stats.ecn_reductions <= marks, "{} reductions for {marks} marks", s.stats.ecn_reductions);
    let classic = transfer("newreno", UseEcn::On);
    let c = classic.b.sim().socket(classic.senders[0].0).unwrap();
    let (a, b) = (s.stats.ecn_reductions as f64, c.stats.ecn_reductions as f64);
    assert!(a > 0.67 * b && a < 1.5 * b, "AccECN {a} reductions, classic ECN {b}");
    // classic ECN leaves the AccECN counters off
    assert!(c.accecn().is_none());
}

/// Prague on the full TCP: it negotiates AccECN by itself (the
/// configuration's `ecn` off), sends ECT(1) (EE1B counts its data), and
/// answers the marks in proportion: its alpha (the marked share) well
/// below 1, no drops, no retransmissions, and over a longer run the link
/// kept busy (goodput above 90% of 6 Mb/s).
#[test]
fn prague_uses_accecn_and_ect1() {
    let mut out = transfer("prague", UseEcn::Off);
    let m = out.b.monitor_stats(out.bottleneck);
    let s = out.b.sim().socket(out.senders[0].0).unwrap();
    let k = out.b.sim().socket(out.receivers[0].0).unwrap();
    assert_eq!(k.stats.bytes_received, 20_000_000);
    let (sa, ka) = (s.accecn().expect("Prague asks for AccECN"), k.accecn().unwrap());
    assert_eq!((sa.s_cep, sa.s_ceb, sa.s_e1b), (ka.r_cep, ka.r_ceb, ka.r_e1b));
    assert_eq!(ka.r_e0b, 1, "Prague's data is ECT(1)");
    assert!(ka.r_e1b - 1 + ka.r_ceb >= 20_000_000);
    assert_eq!((m.pdrops, s.stats.retransmissions), (0, 0));
    let marks = ka.r_cep - 5;
    assert!(marks > 50, "{marks} marks");
    let alpha = s.congestion_control().prague_alpha().expect("Prague");
    assert!(alpha > 0.0 && alpha < 0.5, "alpha {alpha}");
    assert_eq!(k.state, TcpState::Closed);
    let mut sc = Scenario::seed004(1, 6.0, 20.0, 30.0);
    sc.queue = 60;
    sc.red_ecn = Some((5.0, 15.0));
    sc.cc = "prague".to_string();
    let out = run(&sc);
    let g = out.goodput_mbps(0, 30.0);
    assert!(g > 5.4, "goodput {g} Mb/s");
}
