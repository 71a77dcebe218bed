//! A dynamic link going down and up, driven through the engine's Tcl-facing
//! API as the ns-2 library drives it (`SimpleLink dynamic`, `Link down`
//! with `all-connectors reset`, `Link up`): while down the DynamicLink gate
//! refuses packets, and the reset drops what the queue holds and what is in
//! flight on the delay line, through the link's drop head.

use dumbbell_engine::sim::Yield;

#[path = "../examples/support/builder.rs"]
mod builder;
use builder::Builder as B;

struct Net {
    b: B,
    queue: String,
    link: String,
    gate: String,
    lm: String,
    cbr: String,
}

/// Node 0 -> node 1 over 1 Mb/s, 50 ms (queue limit 5), a CBR of 1000-byte
/// packets at 2 Mb/s into it (the queue fills), drops traced on "drops".
fn net(dynamic: bool) -> Net {
    let mut b = B::new();
    let null = b.sim.create("null", "Agent/Null").unwrap();
    b.sim.init_defaults(null, &[]).unwrap();
    let mut nodes = Vec::new();
    for i in 0..2 {
        let n = b.mk("Node", &[]);
        b.cmd(&n, &["nodeid", &i.to_string()]);
        b.cmd(&n, &["addr", &i.to_string()]);
        nodes.push(n);
    }
    let drophead = b.mk("Connector", &[]);
    let dtrace = b.mk("Trace/Drop", &[]);
    b.cmd(&dtrace, &["attach", "drops"]);
    b.set(&dtrace, "src_", "0");
    b.set(&dtrace, "dst_", "1");
    b.cmd(&dtrace, &["target", "null"]);
    b.cmd(&drophead, &["target", &dtrace]);
    let head = b.mk("Connector", &[]);
    let q = b.mk("Queue/DropTail", &[]);
    b.set(&q, "limit_", "5");
    b.cmd(&head, &["target", &q]);
    let l = b.mk("DelayLink", &[]);
    b.set(&l, "bandwidth_", "1Mb");
    b.set(&l, "delay_", "50ms");
    b.cmd(&q, &["target", &l]);
    b.cmd(&q, &["drop-target", &drophead]);
    let ttl = b.mk("TTLChecker", &[]);
    b.cmd(&ttl, &["target", &nodes[1]]);
    b.cmd(&ttl, &["drop-target", &drophead]);
    b.cmd(&l, &["target", &ttl]);
    let hid = b.sim.lookup(&head).unwrap();
    b.sim.routing_mut().add_link(0, 1, hid);
    let gate = b.mk("DynamicLink", &[]);
    if dynamic {
        // SimpleLink dynamic: the gate right after the head, the delay
        // line's drops to the drop head, isDynamic on the delay line.
        let t = b.cmd(&head, &["target"]);
        b.cmd(&gate, &["target", &t]);
        b.cmd(&head, &["target", &gate]);
        b.cmd(&l, &["drop-target", &drophead]);
        b.cmd(&l, &["isDynamic"]);
    }
    let udp = b.mk("Agent/UDP", &[]);
    let lm = b.mk("Agent/LossMonitor", &[]);
    for (node, ag) in [(0usize, &udp), (1, &lm)] {
        let port = b.cmd(&nodes[node], &["alloc-port", "null"]);
        b.set(ag, "agent_addr_", &node.to_string());
        b.set(ag, "agent_port_", &port);
        b.cmd(&nodes[node].clone(), &["install", &port, ag]);
        b.cmd(ag, &["target", &nodes[node].clone()]);
    }
    b.set(&udp, "dst_addr_", "1");
    b.set(&udp, "dst_port_", "0");
    let cbr = b.mk("Application/Traffic/CBR", &[]);
    b.set(&cbr, "rate_", "2Mb");
    b.set(&cbr, "packetSize_", "1000");
    b.cmd(&cbr, &["attach-agent", &udp]);
    b.sim.routing_mut().enabled = true;
    Net { b, queue: q, link: l, gate, lm, cbr }
}

/// Run until the Tcl event at `t`; returns the drop lines written so far.
fn run_to(n: &mut Net, t: f64, drops: &mut String) {
    let delay = t - n.b.sim.world().now();
    let u = n.b.sim.schedule_tcl(delay);
    loop {
        match n.b.sim.run() {
            Yield::Tcl(x) if x == u => break,
            Yield::Service | Yield::Tcl(_) => {}
            y => panic!("unexpected {y:?}"),
        }
        collect(n, drops);
    }
    collect(n, drops);
}

fn collect(n: &mut Net, drops: &mut String) {
    // (Tcl calls such as the LossMonitor's log-loss have no Tcl to run here.)
    n.b.sim.take_notices();
    for (_, data) in n.b.sim.out_mut().drain() {
        drops.push_str(std::str::from_utf8(&data).unwrap());
    }
}

#[test]
fn a_link_going_down_drops_queued_and_in_flight_packets_then_refuses_new_ones() {
    let mut n = net(true);
    let mut drops = String::new();
    n.b.cmd(&n.cbr.clone(), &["start"]);
    run_to(&mut n, 0.5, &mut drops);
    let before = drops.lines().count();
    let queued: usize = n.b.cmd(&n.queue.clone(), &["length"]).parse().unwrap();
    assert_eq!(queued, 4, "the queue is full (limit 5: at most 4 waiting)");
    let received: i64 = n.b.get(&n.lm.clone(), "npkts_").parse().unwrap();
    // Down at 0.5 s: the gate closes, the queue and the delay line reset.
    n.b.set(&n.gate.clone(), "status_", "0");
    assert_eq!(n.b.cmd(&n.gate.clone(), &["status?"]), "down");
    for o in [n.queue.clone(), n.link.clone()] {
        n.b.cmd(&o, &["reset"]);
    }
    collect(&mut n, &mut drops);
    let at_down: Vec<&str> = drops.lines().skip(before).collect();
    // 4 queued, then what was on the wire: 50 ms of propagation plus the
    // 8 ms transmission = 7 packets of 1000 bytes at 1 Mb/s (one every 8 ms).
    assert_eq!(at_down.len(), 4 + 7, "{at_down:?}");
    assert!(at_down.iter().all(|l| l.starts_with("d 0.5 0 1 cbr 1000 ")));
    // Queued packets first (oldest first), then the ones in flight (oldest first).
    let uids: Vec<i64> = at_down.iter().map(|l| l.rsplit(' ').next().unwrap().parse().unwrap()).collect();
    let (q, w) = uids.split_at(4);
    assert!(q.windows(2).all(|p| p[0] < p[1]) && w.windows(2).all(|p| p[0] < p[1]));
    assert!(w.iter().all(|u| *u < q[0]), "in flight were sent before the queued ones");
    // While down, nothing arrives and nothing more is traced (the gate has
    // no drop target: refused packets are freed silently).
    run_to(&mut n, 1.0, &mut drops);
    assert_eq!(n.b.get(&n.lm.clone(), "npkts_").parse::<i64>().unwrap(), received);
    assert_eq!(drops.lines().count(), before + 11);
    assert!(n.b.sim.live_packets() <= 1, "packets are not leaked: {}", n.b.sim.live_packets());
    // Up again: traffic flows.
    n.b.set(&n.gate.clone(), "status_", "1");
    run_to(&mut n, 1.5, &mut drops);
    let after: i64 = n.b.get(&n.lm.clone(), "npkts_").parse().unwrap();
    assert!(after > received + 50, "{after} vs {received}");
}

#[test]
fn a_static_link_ignores_reset_and_a_gate_passes_packets_while_up() {
    let mut n = net(false);
    let mut drops = String::new();
    n.b.cmd(&n.cbr.clone(), &["start"]);
    run_to(&mut n, 0.5, &mut drops);
    let before = drops.lines().count();
    n.b.cmd(&n.link.clone(), &["reset"]);
    collect(&mut n, &mut drops);
    assert_eq!(drops.lines().count(), before, "not dynamic: nothing in flight is dropped");
    run_to(&mut n, 1.0, &mut drops);
    assert!(n.b.get(&n.lm.clone(), "npkts_").parse::<i64>().unwrap() > 100);
}
