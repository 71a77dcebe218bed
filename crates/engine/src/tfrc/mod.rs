//! TCP-friendly rate control (RFC 5348; the model is ns-2 2.35's, from the
//! TFRC papers: tcp/tfrc.cc, tcp/tfrc-sink.cc, tcp/formula.h).
//!
//! The sender ([`sender::Sender`]) sends at a rate it sets from the
//! receiver's reports: slow start doubling per round trip up to twice the
//! receive rate, then the TCP throughput equation ([`tcp_rate`]) for the
//! reported loss event rate, halving when reports stop coming.  The
//! receiver ([`receiver::Receiver`]) keeps the packet history, groups
//! losses into loss events (at most one per round trip) and estimates the
//! loss event rate by the average loss interval (RFC 5348 section 5) or
//! one of the alternatives the papers compare.  Their headers are
//! [`crate::packet::RateHdr`].

pub mod receiver;
pub mod sender;

/// formula.h's ceiling on the equation's rate (bytes/s).
const MAX_RATE: f64 = 25_000_000.0;
/// formula.h's "small": a round trip term below it means no limit.
const SMALL: f64 = 0.0000001;

/// The TCP throughput equation (RFC 5348 section 3.1, ns-2's `p_to_b`):
/// the rate in bytes/s of a TCP flow with packets of `psize` bytes, round
/// trip `rtt`, retransmission timeout `tzero`, loss event rate `p`, and
/// `bval` packets acknowledged per ACK:
///
/// `X = s / (R*sqrt(2*b*p/3) + min(1, 3*sqrt(3*b*p/8)) * t_RTO * p * (1 + 32*p^2))`
///
/// The second term's factor is capped at one as the equation's original
/// (Padhye et al.) has it; the result is at most 25 Mbytes/s, and a
/// negative `p` or `rtt` gives that ceiling.
pub fn tcp_rate(p: f64, rtt: f64, tzero: f64, psize: i32, bval: i32) -> f64 {
    if p < 0.0 || rtt < 0.0 {
        return MAX_RATE;
    }
    let b = bval as f64;
    let mut denom = rtt * (2.0 * b * p / 3.0).sqrt();
    let factor = (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0);
    denom += factor * (tzero * p * (1.0 + 32.0 * p * p));
    let x = if denom < SMALL { MAX_RATE } else { psize as f64 / denom };
    x.min(MAX_RATE)
}

/// The equation inverted (ns-2's `b_to_p`): the loss event rate at which
/// [`tcp_rate`] gives `b`, by bisection from 0.5 until within 5% (at most
/// 31 steps).  The receiver uses it to make up a loss history after slow
/// start (RFC 5348 section 6.3.1).
pub fn loss_for_rate(b: f64, rtt: f64, tzero: f64, psize: i32, bval: i32) -> f64 {
    let (mut p, mut step) = (0.5, 0.25);
    let mut n = 0;
    loop {
        let x = tcp_rate(p, rtt, tzero, psize, bval);
        if x > 0.95 * b && x < 1.05 * b {
            return p;
        }
        if x > b {
            p += step;
        } else {
            p -= step;
        }
        step /= 2.0;
        n += 1;
        if n > 30 {
            return p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equation_matches_rfc5348_by_hand() {
        // s = 1000 bytes, R = 0.1 s, t_RTO = 0.4 s, p = 0.01, b = 1.
        let p: f64 = 0.01;
        let denom = 0.1 * (2.0 * p / 3.0).sqrt() + (3.0 * (3.0 * p / 8.0).sqrt()) * 0.4 * p * (1.0 + 32.0 * p * p);
        assert!((tcp_rate(p, 0.1, 0.4, 1000, 1) - 1000.0 / denom).abs() < 1e-9);
        // No loss: the ceiling; the rate falls as p grows.
        assert_eq!(tcp_rate(0.0, 0.1, 0.4, 1000, 1), MAX_RATE);
        assert_eq!(tcp_rate(-1.0, 0.1, 0.4, 1000, 1), MAX_RATE);
        let mut last = f64::INFINITY;
        for i in 1..100 {
            let x = tcp_rate(i as f64 / 100.0, 0.1, 0.4, 1000, 1);
            assert!(x > 0.0 && x < last);
            last = x;
        }
    }

    #[test]
    fn inverse_lands_within_five_percent() {
        for &p in &[0.001, 0.01, 0.05, 0.2] {
            let b = tcp_rate(p, 0.08, 0.3, 1000, 1);
            let q = loss_for_rate(b, 0.08, 0.3, 1000, 1);
            let x = tcp_rate(q, 0.08, 0.3, 1000, 1);
            assert!(x > 0.95 * b && x < 1.05 * b, "p {p}: got {q}");
            assert!((0.0..=1.0).contains(&q));
        }
    }

    /// Invariants of whole runs, driven through the builder: two flows
    /// (one with a listed loss pattern) share a DropTail bottleneck, both
    /// stopped before the end so nothing is left in flight.
    mod runs {
        use crate::agent::AgentKind as Kind;
        use crate::ns2::build::*;
        use crate::sim::Obj;
        use crate::tfrc::receiver::Receiver;
        use crate::tfrc::sender::Sender;

        const DEFAULTS: &str = include_str!("../../../../python/dumbbell/ns2/lib/defaults.tcl");

        fn sender(b: &Builder, a: AgentId) -> &Sender {
            match &b.sim().objs[a.0 as usize] {
                Obj::Agent(x) => match &x.kind {
                    Kind::TfrcSender(s) => s,
                    _ => panic!("not a TFRC sender"),
                },
                _ => panic!("not an agent"),
            }
        }

        fn receiver(b: &Builder, a: AgentId) -> Receiver {
            match &b.sim().objs[a.0 as usize] {
                Obj::Agent(x) => match &x.kind {
                    Kind::TfrcReceiver(r) => (**r).clone(),
                    _ => panic!("not a TFRC receiver"),
                },
                _ => panic!("not an agent"),
            }
        }

        /// Runs the scenario, checking every 50 ms that each started
        /// sender's rate is positive and finite and that each receiver's
        /// loss event rate, by every method, is in [0, 1].  Returns the
        /// packets sent, received and dropped at the bottleneck.
        fn run(sink_params: &[(&str, &str)], ecn: bool) -> (i64, i64, i64, i64) {
            let mut b = Builder::new(ClassDefaults::parse(&(crate::ns2::registry::defaults_tcl() + DEFAULTS)).unwrap()).unwrap();
            let r1 = b.node().unwrap();
            let r2 = b.node().unwrap();
            let queue = if ecn {
                QueueSpec::Red(Red { limit: Some(15), ..Default::default() })
            } else {
                QueueSpec::DropTail(DropTail { limit: Some(8), ..Default::default() })
            };
            let (bott, _) = b.duplex_link(r1, r2, Bandwidth::mbps(1.5), Seconds::ms(20.0), &queue).unwrap();
            if ecn {
                b.set_queue_var(bott, "setbit_", "true").unwrap();
            }
            let mut flows = Vec::new();
            for i in 0..2 {
                let s = b.node().unwrap();
                let d = b.node().unwrap();
                b.duplex_link(s, r1, Bandwidth::mbps(10.0), Seconds::ms(2.0 + i as f64), &QueueSpec::default()).unwrap();
                b.duplex_link(r2, d, Bandwidth::mbps(10.0), Seconds::ms(4.0), &QueueSpec::default()).unwrap();
                let params: Vec<(String, String)> = if ecn { vec![("ecn_".into(), "1".into())] } else { vec![] };
                let t = b.agent(AgentKind::Tfrc, &params).unwrap();
                b.attach(s, t).unwrap();
                let mut sp: Vec<(String, String)> = vec![("InitHistorySize_".into(), "4000".into())];
                sp.extend(sink_params.iter().map(|(k, v)| (k.to_string(), v.to_string())));
                let k = b.agent(AgentKind::TfrcSink, &sp).unwrap();
                b.attach(d, k).unwrap();
                b.connect(t, k).unwrap();
                b.at(Seconds(i as f64 * 2.0), Action::StartAgent(t)).unwrap();
                b.at(Seconds(12.0 + i as f64), Action::StopAgent(t)).unwrap();
                flows.push((t, k));
            }
            let m = b.monitor_queue(bott).unwrap();
            let mut t = 0.0;
            while t < 16.0 {
                t += 0.05;
                b.run_until(Seconds(t)).unwrap();
                for &(s, k) in &flows {
                    let snd = sender(&b, s);
                    if snd.seqno >= 0 {
                        assert!(snd.rate > 0.0 && snd.rate.is_finite(), "rate {} at {t}", snd.rate);
                        assert!((0.0..=1.0).contains(&snd.true_loss_rate), "true loss {} at {t}", snd.true_loss_rate);
                    }
                    let r = receiver(&b, k);
                    if r.maxseq < 0 {
                        continue;
                    }
                    for algo in 1..=4 {
                        let mut r = r.clone();
                        r.algo = algo;
                        let p = r.est_loss(b.sim_mut());
                        assert!((0.0..=1.0).contains(&p), "algo {algo}: loss event rate {p} at {t}");
                    }
                }
            }
            let sent: i64 = flows.iter().map(|&(s, _)| sender(&b, s).ndatapack as i64).sum();
            let received: i64 = flows.iter().map(|&(_, k)| receiver(&b, k).total_received as i64).sum();
            let st = b.monitor_stats(m);
            let qmon = b.monitor_objs(m).qmon;
            let marks = b.get_var(qmon, "pmarks_").unwrap().parse().unwrap();
            (sent, received, st.pdrops, marks)
        }

        #[test]
        fn sent_is_received_plus_dropped() {
            for sink in [&[][..], &[("smooth_", "0"), ("discount_", "0")][..], &[("algo_", "2")][..], &[("ShortIntervals_", "3")][..]] {
                let (sent, received, dropped, _) = run(sink, false);
                assert!(dropped > 10, "the scenario must lose packets: {dropped}");
                assert!(received > 1000, "{received}");
                assert_eq!(sent, received + dropped, "sink {sink:?}");
            }
        }

        #[test]
        fn ecn_marks_instead_of_drops() {
            let (sent, received, dropped, marked) = run(&[], true);
            assert_eq!(sent, received + dropped);
            assert!(received > 1000 && marked > 10, "{received} received, {marked} marked");
        }
    }
}
