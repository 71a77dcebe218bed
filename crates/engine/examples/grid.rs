//! Engine-only benchmark: the dumbbell grid of `benches/dumbbell-ns2.tcl`
//! built directly through the engine's Tcl-facing API (no Tcl, no Python),
//! with the same objects and wiring the ns-2 library creates.
//!
//!     cargo run --release -p dumbbell-engine --example grid -- N C_Mbps T
//!
//! Prints the bottleneck counters (which must equal the `RESULT` line of the
//! Tcl script for the same parameters) and the run's wall time.  With
//! `GRID_QUEUE` set (e.g. `GRID_QUEUE=Queue/FQ_CoDel`) the bottleneck's
//! queue is of that class, its other variables at their defaults.

use dumbbell_engine::sim::Yield;

#[path = "support/builder.rs"]
mod builder;
use builder::Builder as B;

impl B {
    fn node(&mut self, id: i32) -> String {
        let n = self.mk("Node", &[]);
        self.cmd(&n, &["nodeid", &id.to_string()]);
        self.cmd(&n, &["addr", &id.to_string()]);
        n
    }
    /// SimpleLink: head -> queue -> link -> ttl -> node, drops -> drophead -> null.
    fn link(&mut self, a: i32, b: i32, nodes: &[String], bw: &str, delay: &str, limit: &str) -> (String, String) {
        self.link_with(a, b, nodes, bw, delay, limit, "Queue/DropTail")
    }
    fn link_with(&mut self, a: i32, b: i32, nodes: &[String], bw: &str, delay: &str, limit: &str, queue: &str) -> (String, String) {
        let drophead = self.mk("Connector", &[]);
        self.cmd(&drophead, &["target", "null"]);
        let head = self.mk("Connector", &[]);
        let q = self.mk(queue, &[("limit_", "1000")]);
        self.set(&q, "limit_", limit);
        self.cmd(&head, &["target", &q]);
        let l = self.mk("DelayLink", &[]);
        self.set(&l, "bandwidth_", bw);
        self.set(&l, "delay_", delay);
        self.cmd(&q, &["target", &l]);
        self.cmd(&q, &["drop-target", &drophead]);
        let ttl = self.mk("TTLChecker", &[]);
        self.cmd(&ttl, &["target", &nodes[b as usize]]);
        self.cmd(&ttl, &["drop-target", &drophead]);
        self.cmd(&l, &["target", &ttl]);
        let hid = self.sim.lookup(&head).unwrap();
        self.sim.routing_mut().add_link(a, b, hid);
        (head, q)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(16);
    let cmbps: f64 = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(100.0);
    let t_end: f64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(100.0);
    let pkt = 1000.0;
    let c = cmbps * 1e6;
    let bneck = c * 0.100 / (8.0 * pkt);
    let buf = bneck.ceil() as i64;
    let w = (c * 0.112 / (8.0 * pkt)).ceil() as i64 + buf;
    let fast = format!("{}Mb", 100.0 * cmbps);

    let t0 = std::time::Instant::now();
    let mut b = B::new();
    let null = b.sim.create("null", "Agent/Null").unwrap();
    b.sim.init_defaults(null, &[]).unwrap();
    let mut nodes = Vec::new();
    for i in 0..3 {
        nodes.push(b.node(i));
    }
    let bufs = buf.to_string();
    let cmb = format!("{}Mb", cmbps);
    let bottleneck = std::env::var("GRID_QUEUE").unwrap_or_else(|_| "Queue/DropTail".into());
    let (h12, q12) = b.link_with(0, 1, &nodes, &cmb, "5ms", &bufs, &bottleneck);
    b.link(1, 0, &nodes, &cmb, "5ms", &bufs);
    b.link(1, 2, &nodes, &fast, "1ms", "1000");
    b.link(2, 1, &nodes, &fast, "1ms", "1000");
    // Queue monitor on the bottleneck, as attach-monitors wires it.
    let qmon = b.mk("QueueMonitor", &[]);
    let sin = b.mk("SnoopQueue/In", &[]);
    let sout = b.mk("SnoopQueue/Out", &[]);
    let sdrop = b.mk("SnoopQueue/Drop", &[]);
    let t = b.cmd(&h12, &["target"]);
    b.cmd(&sin, &["target", &t]);
    b.cmd(&h12, &["target", &sin]);
    let t = b.cmd(&q12, &["target"]);
    b.cmd(&sout, &["target", &t]);
    b.cmd(&q12, &["target", &sout]);
    let dh = b.cmd(&q12, &["drop-target"]);
    let t = b.cmd(&dh, &["target"]);
    b.cmd(&sdrop, &["target", &t]);
    b.cmd(&dh, &["target", &sdrop]);
    for s in [&sin, &sout, &sdrop] {
        b.cmd(s, &["set-monitor", &qmon]);
    }
    let mut tcps = Vec::new();
    let mut starts = Vec::new();
    let ws = w.to_string();
    for i in 0..n {
        let id = 3 + i as i32;
        nodes.push(b.node(id));
        let di = if n > 1 { 1.0 + 49.0 * i as f64 / (n - 1) as f64 } else { 1.0 };
        let d = format!("{}ms", di);
        b.link(id, 0, &nodes, &fast, &d, "1000");
        b.link(0, id, &nodes, &fast, &d, "1000");
        let tcp = b.mk(
            "Agent/TCP/Newreno",
            &[("packetSize_", "1000"), ("window_", &ws), ("windowInit_", "10"), ("minrto_", "0.2"), ("tcpTick_", "0.001")],
        );
        b.set(&tcp, "fid_", &i.to_string());
        let sink = b.mk("Agent/TCPSink", &[]);
        for (node, ag, nid) in [(id, &tcp, id), (2, &sink, 2)] {
            let port = b.cmd(&nodes[node as usize], &["alloc-port", "null"]);
            b.set(ag, "agent_addr_", &nid.to_string());
            b.set(ag, "agent_port_", &port);
            b.cmd(&nodes[node as usize].clone(), &["install", &port, ag]);
            b.cmd(ag, &["target", &nodes[node as usize].clone()]);
        }
        let (sa, sp) = (b.sim.get_var(b.sim.lookup(&sink).unwrap(), "agent_addr_").unwrap(), b.sim.get_var(b.sim.lookup(&sink).unwrap(), "agent_port_").unwrap());
        b.set(&tcp, "dst_addr_", &sa);
        b.set(&tcp, "dst_port_", &sp);
        b.set(&sink, "dst_addr_", &id.to_string());
        b.set(&sink, "dst_port_", "0");
        tcps.push(tcp);
        starts.push(((i + 1) as f64 * 0.6180339887498949) % 1.0);
    }
    b.sim.routing_mut().enabled = true;
    let setup = t0.elapsed();
    let t1 = std::time::Instant::now();
    let mut uids = Vec::new();
    for &s in &starts {
        uids.push(b.sim.schedule_tcl(s));
    }
    let end = b.sim.schedule_tcl(t_end);
    loop {
        match b.sim.run() {
            Yield::Tcl(u) if u == end => break,
            Yield::Tcl(u) => {
                let i = uids.iter().position(|&x| x == u).unwrap();
                let tcp = tcps[i].clone();
                b.cmd(&tcp, &["send", "-1"]);
            }
            Yield::Service => {
                b.sim.out_mut().drain();
                b.sim.take_notices();
            }
            _ => break,
        }
    }
    let run = t1.elapsed();
    let qm = b.sim.lookup(&qmon).unwrap();
    let dep = b.sim.get_var(qm, "pdepartures_").unwrap();
    let drops = b.sim.get_var(qm, "pdrops_").unwrap();
    let mut good = 0i64;
    for tcp in &tcps {
        let id = b.sim.lookup(tcp).unwrap();
        good += b.sim.get_var(id, "ack_").unwrap().parse::<i64>().unwrap() + 1;
    }
    println!(
        "bneck_pkts={dep} drops={drops} goodput_pkts={good} events={} setup_s={:.3} run_s={:.3} ns/event={:.1}",
        b.sim.world().sched().dispatched(),
        setup.as_secs_f64(),
        run.as_secs_f64(),
        run.as_secs_f64() * 1e9 / b.sim.world().sched().dispatched() as f64
    );
}
