//! The engine objects' commands as ns-2 scripts call them (`$obj cmd
//! args`): each class's C++ `command()` method, over the core's typed
//! operations.

use crate::agent::{Agent, AgentKind};
use crate::errmodel::Unit;
use crate::objs::*;
use crate::qdisc::Queue;
use crate::trace::{PiVar, RedVar};
use crate::sched::ObjId;
use crate::sim::{Obj, Sim, NONE};
use crate::ns2::tclcl::{self as vars, fmt_int, parse_bool, parse_real};
use super::objects::delay_bound;

impl Sim {
    /// Run a C++-style command of object `id` (`$obj cmd args`).
    /// `Err` carries the message; an unknown command yields an error that
    /// starts with "unknown command".
    pub fn command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        if let Some(r) = self.with_xcp_vq(id, |s| s.command(id, argv)) {
            return r;
        }
        let cmd = *argv.first().ok_or("missing command")?;
        let n = argv.len();
        // Commands every connector-like object has.
        if (cmd == "target" || cmd == "drop-target") && !matches!(self.objs[id as usize], Obj::Lan(_)) {
            return self.target_cmd(id, cmd == "drop-target", if n > 1 { Some(argv[1]) } else { None });
        }
        match &mut self.objs[id as usize] {
            Obj::Trace(_) => match cmd {
                "attach" if n == 2 => {
                    let ch = self.w.out.channel(argv[1]);
                    if let Obj::Trace(t) = &mut self.objs[id as usize] {
                        t.channel = Some(ch);
                        if t.kind == b'E' {
                            self.ns2_tracer().etrace.insert(id, ch);
                        }
                    }
                    Ok(String::new())
                }
                "detach" => {
                    if let Obj::Trace(t) = &mut self.objs[id as usize] {
                        t.channel = None;
                        t.nam = None;
                    }
                    let t = self.ns2_tracer();
                    t.etrace.remove(&id);
                    t.nam_etrace.remove(&id);
                    Ok(String::new())
                }
                // ns-2 flushes the trace channel, then the nam channel
                // (Tcl_Flush); the engine names them for the library's
                // `Trace instproc flush` (none after `detach`).
                "flush" => {
                    let mut r = String::new();
                    if let Obj::Trace(t) = &self.objs[id as usize] {
                        for ch in [t.channel, t.nam].into_iter().flatten() {
                            if !r.is_empty() {
                                r.push(' ');
                            }
                            r.push_str(self.w.out.name(ch));
                        }
                    }
                    Ok(r)
                }
                "namattach" if n == 2 => {
                    let ch = self.w.out.channel(argv[1]);
                    if let Obj::Trace(t) = &mut self.objs[id as usize] {
                        t.nam = Some(ch);
                        if t.kind == b'E' {
                            self.ns2_tracer().nam_etrace.insert(id, ch);
                        }
                    }
                    Ok(String::new())
                }
                // A line written as is to the nam channel, if any.
                "ntrace" if n == 2 => {
                    if let Obj::Trace(t) = &self.objs[id as usize] {
                        if let Some(ch) = t.nam {
                            self.w.out.append(ch, |buf| {
                                buf.extend_from_slice(argv[1].as_bytes());
                                buf.push(b'\n');
                            });
                        }
                    }
                    Ok(String::new())
                }
                "tagged" => {
                    let Obj::Trace(t) = &mut self.objs[id as usize] else { unreachable!() };
                    if n == 1 {
                        return Ok(fmt_int(t.tagged as i64));
                    }
                    t.tagged = crate::ns2::tclcl::tcl_get_boolean(argv[1])?;
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Ttl(t) => match cmd {
                "tick" if n == 2 => {
                    let v = vars::atoi(argv[1]);
                    if v <= 0 {
                        return Err(format!("TTL must be positive (specified = {v})"));
                    }
                    t.tick = v;
                    Ok(String::new())
                }
                "warning" => Ok(String::new()),
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Queue(_) => match cmd {
                "reset" if self.is_rem(id) => {
                    self.rem_reset(id);
                    Ok(String::new())
                }
                // CBQueue::reset does nothing (its queues are the classes')
                "reset" if self.is_cbq(id) => Ok(String::new()),
                "reset" if self.is_xcp(id) => {
                    self.xcp_reset(id);
                    Ok(String::new())
                }
                "reset" => {
                    let Obj::Queue(q) = &self.objs[id as usize] else { unreachable!() };
                    let link_bw = match q.disc.red().map(|r| self.objs.get(r.link as usize)) {
                        Some(Some(Obj::Link(l))) => Some(l.bandwidth),
                        _ => None,
                    };
                    let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                    let (qib, mean) = (q.cap.in_bytes, q.cap.mean_pktsize);
                    if let Some(rio) = q.disc.get_mut::<crate::qdisc::Rio>() {
                        crate::ns2::class::rio::check_bands(rio)?;
                        rio.reset(&mut self.w, link_bw, qib, mean);
                    } else if let Some(red) = q.disc.red_mut() {
                        red.reset(&mut self.w, link_bw, qib, mean);
                    }
                    if let Some(pi) = q.disc.get_mut::<crate::qdisc::Pi>() {
                        pi.reset(&q.cap, &mut self.w);
                    }
                    self.scfq_reset(id);
                    self.dsred_reset(id);
                    let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                    let (dropped, drop_target) = (q.reset(&mut self.w), q.drop_target);
                    for p in dropped {
                        self.drop_to(drop_target, p);
                    }
                    Ok(String::new())
                }
                "shrink-queue" => {
                    let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                    let (over, drop_target) = (q.over_limit(&self.w), q.drop_target);
                    for p in over {
                        self.drop_to(drop_target, p);
                    }
                    Ok(String::new())
                }
                "printstats" => {
                    // DropTail::print_summarystats uses printf: C's stdout.
                    if let Obj::Queue(q) = &self.objs[id as usize] {
                        let mut s = format!("True average queue: {}", crate::ns2::printf::format_f(q.true_ave, 3));
                        if q.cap.in_bytes {
                            s.push_str(" (in bytes)");
                        }
                        s.push_str(&format!(" time: {}\n", crate::ns2::printf::format_f(q.total_time, 3)));
                        self.w.c_stdout.extend_from_slice(s.as_bytes());
                    }
                    Ok(String::new())
                }
                "length" => {
                    if let Obj::Queue(q) = &self.objs[id as usize] {
                        return Ok(q.len().to_string());
                    }
                    Ok(String::new())
                }
                "byteLength" => {
                    if let Obj::Queue(q) = &self.objs[id as usize] {
                        return Ok(q.bytes().to_string());
                    }
                    Ok(String::new())
                }
                "attach-traces" | "attach-nam-traces" => Ok(String::new()),
                _ if crate::ns2::class::jobs::is_jobs_family(self, id) => match crate::ns2::class::jobs::command(self, id, argv) {
                    Some(r) => r,
                    None => Err(format!("unknown command \"{cmd}\"")),
                },
                _ if self.is_xcp(id) => self.xcp_command(id, argv),
                _ if self.is_scfq(id) => self.scfq_command(id, argv),
                _ if self.is_cbq(id) => self.cbq_command(id, argv),
                _ if matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.get::<crate::qdisc::Pi>().is_some()) => self.pi_command(id, argv),
                _ if self.is_fairq(id) => self.fairq_command(id, argv),
                _ if self.is_rem(id) => self.rem_command(id, argv),
                _ if self.is_dsred(id) => self.dsred_command(id, argv),
                _ if self.is_redpd(id) => self.redpd_command(id, argv),
                _ if self.is_finish_fq(id) => self.finish_fq_command(id, argv),
                _ if self.is_srr(id) => self.srr_command(id, argv),
                _ => self.red_command(id, argv),
            },
            Obj::ErrModel(_) => self.errmodel_cmd(id, argv),
            Obj::RanVar(_) => self.ranvar_cmd(id, argv),
            Obj::Samples(smp) => match (cmd, n) {
                ("mean", 1) if smp.cnt > 0 => Ok(crate::ns2::printf::format_g(smp.mean(), 6)),
                ("mean", 1) => Err("tried to take mean with no sample points".into()),
                ("cnt", 1) => Ok((smp.cnt as u32).to_string()),
                ("variance", 1) if smp.cnt == 1 => Ok("0.0".into()),
                ("variance", 1) if smp.cnt > 2 => Ok(crate::ns2::printf::format_g(smp.variance(), 6)),
                ("variance", 1) => Err("variance needs more sample points".into()),
                ("reset", 1) => {
                    *smp = Samples::default();
                    Ok(String::new())
                }
                ("newpoint", 2) => {
                    smp.new_point(parse_real(argv[1]));
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::HashClassifier(_) => self.hash_cmd(id, argv),
            Obj::ErrModule { .. } => match (cmd, n) {
                ("classifier", 1) => {
                    let Obj::ErrModule { classifier, .. } = &self.objs[id as usize] else { unreachable!() };
                    Ok(self.name(*classifier).to_string())
                }
                ("classifier", 2) => {
                    let c = self.lookup(argv[1]).ok_or_else(|| format!("Couldn't look up classifier {}", argv[1]))?;
                    if let Obj::ErrModule { classifier, .. } = &mut self.objs[id as usize] {
                        *classifier = c;
                    }
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Link(l) => match cmd {
                "isDynamic" if n == 1 => {
                    // Packets already in flight keep their own arrivals
                    // (see `Scheduler::pipe_detach`).
                    if !l.dynamic {
                        l.dynamic = true;
                        let pipe = l.pipe;
                        self.w.s.pipe_detach(pipe);
                    }
                    Ok(String::new())
                }
                "reset" if n == 1 => {
                    // `LinkDelay::reset`: a dynamic link drops what it has
                    // in flight (its arrivals are cancelled), oldest first.
                    if l.dynamic {
                        let (pipe, dt) = (l.pipe, l.drop_target);
                        for p in self.w.s.pipe_drain(pipe) {
                            self.drop_to(dt, p);
                        }
                    }
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Dynamic(d) => match cmd {
                "status?" if n == 1 => Ok(if d.status != 0 { "up" } else { "down" }.into()),
                "reset" => Ok(String::new()),
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::RouteLogic => self.routelogic_cmd(argv),
            Obj::Node(node) => match cmd {
                "nodeid" if n == 2 => {
                    node.id = vars::atoi(argv[1]);
                    let nid = node.id;
                    self.w.routing.add_node(nid);
                    Ok(String::new())
                }
                "addr" if n == 2 => {
                    node.addr = vars::atoi(argv[1]);
                    Ok(String::new())
                }
                "addr" | "address?" => Ok(node.addr.to_string()),
                "id" => Ok(node.id.to_string()),
                "alloc-port" => {
                    let null = self.obj_arg(argv.get(1).copied().unwrap_or(""))?;
                    if let Obj::Node(node) = &mut self.objs[id as usize] {
                        node.null_agent = null;
                        return Ok(node.alloc_port().to_string());
                    }
                    Ok(String::new())
                }
                // (Dumbbell's own: ns-2's `Classifier/Port/Reserve`'s
                // `reserve-port N`, on the node's port demultiplexer)
                "reserve-port" if n == 2 => {
                    let k = vars::atoi(argv[1]);
                    if let Obj::Node(node) = &mut self.objs[id as usize] {
                        node.reserved = k;
                    }
                    Ok(String::new())
                }
                "install" if n == 3 => {
                    let port = vars::atoi(argv[1]);
                    let a = self.obj_arg(argv[2])?;
                    if let Obj::Node(node) = &mut self.objs[id as usize] {
                        node.install(port, a);
                    }
                    Ok(String::new())
                }
                "port-slot" if n == 2 => {
                    let port = vars::atoi(argv[1]);
                    let t = node.port_target(port).unwrap_or(NONE);
                    Ok(self.name(t).to_string())
                }
                _ => self.mobile_command(id, argv).unwrap_or_else(|| Err(format!("unknown command \"{cmd}\""))),
            },
            Obj::Snoop(s) => match cmd {
                "set-monitor" if n == 2 => {
                    let m = self.obj_arg(argv[1])?;
                    if let Obj::Snoop(s) = &mut self.objs[id as usize] {
                        s.monitor = m;
                    }
                    Ok(String::new())
                }
                _ => {
                    let _ = s;
                    Err(format!("unknown command \"{cmd}\""))
                }
            },
            Obj::QueueMonitor(_) => self.qmon_cmd(id, argv),
            Obj::Integrator(it) => match cmd {
                "newpoint" if n == 3 => {
                    it.new_point(parse_real(argv[1]), parse_real(argv[2]));
                    Ok(String::new())
                }
                "reset" => {
                    *it = Integrator::default();
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::App(app) => match cmd {
                "attach-agent" if n == 2 => {
                    let a = self.obj_arg(argv[1])?;
                    if let Obj::App(app) = &mut self.objs[id as usize] {
                        app.agent = a;
                    }
                    if let Some(ag) = self.agent_mut(a) {
                        ag.base.app = id;
                    }
                    Ok(String::new())
                }
                "agent" => {
                    let a = app.agent;
                    Ok(self.name(a).to_string())
                }
                // `start` as the C++ Application sees it: the Tcl layer tells
                // whether the script defined recv/resume callbacks.
                "start-flags" if n == 3 => {
                    app.enable_recv = parse_bool(argv[1]);
                    app.enable_resume = parse_bool(argv[2]);
                    self.app_start_stop(id, true)
                }
                "attach-tracefile" if n == 2 => self.attach_tracefile(id, argv[1]),
                "start" => self.app_start_stop(id, true),
                "stop" => self.app_start_stop(id, false),
                "send" if n == 2 => {
                    let a = app.agent;
                    self.agent_command(a, &["send", argv[1]])
                }
                "use-rng" if n == 2 && matches!(app.source, Some(Source::OnOff(_) | Source::VoipCalls(_))) => {
                    let stream = match self.lookup(argv[1]).map(|o| &self.objs[o as usize]) {
                        Some(Obj::Rng(s)) => *s,
                        _ => return Err(format!("no such RNG {}", argv[1])),
                    };
                    if let Obj::App(app) = &mut self.objs[id as usize] {
                        match app.source.as_mut() {
                            Some(Source::OnOff(o)) => o.use_rng(stream),
                            Some(Source::VoipCalls(v)) => v.stream = stream,
                            _ => {}
                        }
                    }
                    Ok(String::new())
                }
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Rng(_) => self.rng_command(id, argv),
            Obj::Delayer(_) => self.delayer_cmd(id, argv),
            Obj::FlowDelay(_) => self.delaybox_cmd(id, argv),
            Obj::Records(_) => self.tracefile_cmd(id, argv),
            Obj::Agent(_) => self.agent_command(id, argv),
            Obj::Wireless(_) => self.wireless_command(id, argv),
            Obj::Lan(_) => self.lan_command(id, argv),
            Obj::QsEntry(_) => match cmd {
                // `install 0 $agent`: the Quick-Start agent (its only slot)
                "install" if argv.len() == 3 && argv[1] == "0" => {
                    let a = self.obj_arg(argv[2])?;
                    if let Obj::QsEntry(r) = &mut self.objs[id as usize] {
                        *r = a;
                    }
                    Ok(String::new())
                }
                "reset" => Ok(String::new()),
                _ => Err(format!("unknown command \"{cmd}\" (a Quick-Start classifier takes \"install 0 agent\")")),
            },
            Obj::Proxy(_) | Obj::Connector(_) => match cmd {
                "reset" => Ok(String::new()),
                _ => Err(format!("unknown command \"{cmd}\"")),
            },
            Obj::Empty | Obj::Taken => Err("object was deleted".into()),
        }
    }

    fn target_cmd(&mut self, id: ObjId, drop: bool, arg: Option<&str>) -> Result<String, String> {
        let newt = match arg {
            Some(s) => Some(self.obj_arg(s)?),
            None => None,
        };
        let slot: Option<&mut ObjId> = match &mut self.objs[id as usize] {
            Obj::Connector(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Ttl(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Trace(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Queue(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Link(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Dynamic(c) => Some(if drop { &mut c.drop_target } else { &mut c.target }),
            Obj::Agent(a) => Some(if drop { &mut a.base.drop_target } else { &mut a.base.target }),
            Obj::Snoop(s) if !drop => Some(&mut s.target),
            Obj::Proxy(t) if !drop => Some(t),
            Obj::ErrModel(e) => Some(if drop { &mut e.drop_target } else { &mut e.target }),
            Obj::ErrModule { target, drop_target, .. } => Some(if drop { drop_target } else { target }),
            Obj::Delayer(d) => Some(if drop { &mut d.drop_target } else { &mut d.target }),
            Obj::FlowDelay(d) if !drop => Some(&mut d.target),
            _ => None,
        };
        match slot {
            None => Err(format!("{} has no {}", self.name(id), if drop { "drop-target" } else { "target" })),
            Some(s) => match newt {
                Some(t) => {
                    *s = t;
                    if !drop {
                        self.connector_target_set(id);
                    }
                    Ok(String::new())
                }
                None => {
                    let t = *s;
                    Ok(self.name(t).to_string())
                }
            },
        }
    }

    /// `RouteLogic` commands (routing/route.cc), on the world's routing,
    /// for links that can go down (link dynamics): `insert src dst ?cost?` /
    /// `reset src dst` (the link is up / down for routing) then `compute`.
    /// (`lookup` is answered by the library's `RouteLogic lookup`, through
    /// the runner's `route-lookup`.)  Once routing is enabled, `compute` computes
    /// routes again at once: new routes replace the old ones where a route
    /// exists; where none does, the old one stays, as ns-2 fills its
    /// classifiers.
    fn routelogic_cmd(&mut self, argv: &[&str]) -> Result<String, String> {
        let n = argv.len();
        let node = |s: &str| -> Result<i32, String> {
            let v = vars::atoi(s);
            if v < 0 {
                return Err("negative node number".into());
            }
            Ok(v)
        };
        match (argv[0], n) {
            ("insert", 3) | ("insert", 4) => {
                let (a, b) = (node(argv[1])?, node(argv[2])?);
                let cost = if n == 4 { parse_real(argv[3]) } else { 1.0 };
                self.w.routing.set_state(a, b, true, Some(cost));
                Ok(String::new())
            }
            ("reset", 3) => {
                let (a, b) = (node(argv[1])?, node(argv[2])?);
                self.w.routing.set_state(a, b, false, None);
                Ok(String::new())
            }
            ("compute", 1) => {
                self.w.routing.compute();
                Ok(String::new())
            }
            // Hierarchical routing (the library's compute-routes, as ns-2's
            // compute-hier-routes): `hier-topo {CLUSTERS} {NODES}`, then
            // `hier-insert src dst cost` / `hier-reset src dst` for every
            // link in ns-2's order (node ids; the cost read as ns-2's atoi
            // reads it), then `hier-compute`.
            // A node's hierarchical address (`$ns node D.C.N`, a LAN's
            // `-address`): routes and traces use it.
            ("hier-addr", 3) => {
                let id = node(argv[1])?;
                let parts: Vec<&str> = argv[2].split('.').collect();
                let nums: Vec<i32> = parts.iter().filter_map(|p| p.parse::<i32>().ok().filter(|v| *v >= 0)).collect();
                if parts.len() != 3 || nums.len() != 3 {
                    return Err(format!(
                        "hierarchical address \"{}\": expected three whole numbers from 0, domain.cluster.node (Dumbbell routes over three levels, as ns-2 does)",
                        argv[2]));
                }
                self.w.routing.hier.get_or_insert_with(Default::default).set_addr(id, [nums[0], nums[1], nums[2]]);
                self.w.routing.add_node(id);
                let names = self.ns2_tracer().hier_names.get_or_insert_with(Vec::new);
                if names.len() <= id as usize {
                    names.resize(id as usize + 1, Vec::new());
                }
                names[id as usize] = format!("{}.{}.{}", nums[0], nums[1], nums[2]).into_bytes();
                Ok(String::new())
            }
            // The packed number's fields (set-address-format hierarchical):
            // `hier-format SHIFT MASK SHIFT MASK SHIFT MASK`, domain first.
            ("hier-format", 7) => {
                let v: Vec<i32> = argv[1..].iter().map(|s| vars::atoi(s)).collect();
                let h = self.w.routing.hier.get_or_insert_with(Default::default);
                h.fields = [(v[0] as u32, v[1]), (v[2] as u32, v[3]), (v[4] as u32, v[5])];
                Ok(String::new())
            }
            ("hier-topo", 3) => {
                let ints = |s: &str| -> Vec<i32> { s.split_whitespace().map(vars::atoi).collect() };
                let h = self.w.routing.hier.get_or_insert_with(Default::default);
                h.set_topology(ints(argv[1]), &ints(argv[2]))?;
                Ok(String::new())
            }
            ("hier-insert", 4) | ("hier-reset", 3) => {
                let (a, b) = (node(argv[1])?, node(argv[2])?);
                let cost = if n == 4 { Some(vars::atoi(argv[3])) } else { None };
                let Some(h) = self.w.routing.hier.as_mut() else { return Err("Required Hier_data not sent".into()) };
                h.link(a, b, cost);
                Ok(String::new())
            }
            ("hier-compute", 1) => {
                let Some(h) = self.w.routing.hier.as_mut() else { return Err("Required Hier_data not sent".into()) };
                if let Err(e) = h.check() {
                    let [d, c, x] = e.addr;
                    let size = h.sizes.get(d as usize).and_then(|v| v.get(c as usize)).copied();
                    return Err(format!(
                        "node {} has address {d}.{c}.{x}, outside the hierarchy (AddrParams: {} domains, clusters {:?}, {}); \
                         expected each part of the address below the count AddrParams gives that level",
                        e.node, h.clusters.len(), h.clusters,
                        match size { Some(s) => format!("cluster {d}.{c} holds {s} nodes"), None => "no such cluster".into() }));
                }
                // During the run (links changed, Session routing) the routes
                // in use are kept first, so that a destination with no new
                // route keeps its old one, as ns-2 fills its classifiers
                // only with the routes it finds (routing.rs `recompute`).
                self.w.routing.freeze();
                if let Some(h) = self.w.routing.hier.as_mut() {
                    h.compute();
                }
                self.w.routing.compute();
                Ok(String::new())
            }
            // (Dumbbell's own: a dynamic protocol's route, as ns-2's
            // `$node add-route DST TARGET` installs it in the node's
            // classifier: a link's head, or the null agent)
            ("dumbbell-route", 4) => {
                let (a, b) = (node(argv[1])?, node(argv[2])?);
                let target = self.lookup(argv[3]).ok_or_else(|| format!("no object named \"{}\"", argv[3]))?;
                self.w.routing.set_route(a, b, target);
                Ok(String::new())
            }
            _ => Err(format!("unknown command \"{}\"", argv[0])),
        }
    }

    fn qmon_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let cmd = argv[0];
        let n = argv.len();
        match cmd {
            "set-bytes-integrator" | "set-pkts-integrator" if n == 2 => {
                let it = self.obj_arg(argv[1])?;
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    if cmd == "set-bytes-integrator" {
                        q.bytes_int_obj = it;
                    } else {
                        q.pkts_int_obj = it;
                    }
                    q.refresh_plain();
                }
                Ok(String::new())
            }
            "get-bytes-integrator" | "get-pkts-integrator" => {
                if let Obj::QueueMonitor(q) = &self.objs[id as usize] {
                    let it = if cmd == "get-bytes-integrator" { q.bytes_int_obj } else { q.pkts_int_obj };
                    return Ok(self.name(it).to_string());
                }
                Ok(String::new())
            }
            "set-delay-samples" if n == 2 => {
                let smp = self.obj_arg(argv[1])?;
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    q.delay_samp = smp;
                    q.refresh_plain();
                }
                Ok(String::new())
            }
            "get-delay-samples" => {
                if let Obj::QueueMonitor(q) = &self.objs[id as usize] {
                    let d = q.delay_samp;
                    return Ok(self.name(d).to_string());
                }
                Ok(String::new())
            }
            "classifier" | "attach" | "dump" | "flows" if matches!(&self.objs[id as usize], Obj::QueueMonitor(q) if q.flowmon.is_some()) => {
                self.flowmon_cmd(id, argv)
            }
            "set-src-dst" if n == 3 => {
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    q.src_id = vars::atoi(argv[1]);
                    q.dst_id = vars::atoi(argv[2]);
                }
                Ok(String::new())
            }
            "trace" | "traceDist" if n == 2 => {
                let ch = self.w.out.channel(argv[1]);
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    if cmd == "trace" {
                        q.channel = Some(ch);
                    } else {
                        q.dist_channel = Some(ch);
                    }
                }
                Ok(String::new())
            }
            // the end of the Tcl side's adopting a flow the engine made
            "settle" if n == 1 => {
                self.settle_flow(id)?;
                Ok(String::new())
            }
            "printRTTs" | "printSeqnos" if n == 1 => {
                let now = self.w.s.now;
                let mut text = Vec::new();
                let ch = match &self.objs[id as usize] {
                    Obj::QueueMonitor(q) => {
                        // nothing unless the distribution is kept and traceDist set
                        match q.dist_channel {
                            Some(ch) if cmd == "printRTTs" && q.rtt.set.keep != 0 => {
                                super::trace::print_rtts(q, now, &mut text)?;
                                ch
                            }
                            Some(ch) if cmd == "printSeqnos" && q.seqno.set.keep != 0 => {
                                super::trace::print_seqnos(q, now, &mut text)?;
                                ch
                            }
                            _ => return Ok(String::new()),
                        }
                    }
                    _ => unreachable!(),
                };
                self.write_line(ch, &text);
                Ok(String::new())
            }
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }

    /// Commands only `Queue/RED` has (queue/red.cc `REDQueue::command`).
    pub(crate) fn red_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        if !matches!(&self.objs[id as usize], Obj::Queue(q) if q.disc.red().is_some()) {
            return Err(format!("unknown command \"{cmd}\""));
        }
        let name_or = |sim: &Sim, o: ObjId, none: &str| if o == NONE { none.to_string() } else { sim.name(o).to_string() };
        match (cmd, n) {
            ("link", 2) => {
                let (l, bw, delay) = match self.lookup(argv[1]).map(|l| (l, &self.objs[l as usize])) {
                    Some((l, Obj::Link(dl))) => (l, dl.bandwidth, dl.delay),
                    _ => return Err(format!("RED: no LinkDelay object {}", argv[1])),
                };
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                let mean = q.cap.mean_pktsize;
                q.disc.red_mut().unwrap().set_link(l, bw, delay, mean);
            }
            ("attach", 2) => {
                let ch = self.w.out.channel(argv[1]);
                self.red_mut(id).channel = Some(ch);
            }
            ("trace", 2) | ("trace", 3) => {
                if n == 3 && argv[2] != self.name(id) {
                    return Err("trace with a separate tracer object is not supported yet".into());
                }
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                let var = match argv[1] {
                    "ave_" => RedVar::Average,
                    "prob1_" => RedVar::Prob1,
                    "curq_" => RedVar::CurrentQueue,
                    "cur_max_p_" => RedVar::CurMaxP,
                    v => return Err(format!("trace: {v} is not a TracedVar of Queue/RED")),
                };
                q.disc.red_mut().unwrap().trace(&mut self.w, var);
            }
            ("early-drop-target", 1) => return Ok(name_or(self, self.queue_ref(id).early_drop_target, "")),
            ("edrop-trace", 1) => return Ok(name_or(self, self.queue_ref(id).early_drop_trace, "0")),
            ("early-drop-target", 2) | ("edrop-trace", 2) => {
                let o = self.lookup(argv[1]).ok_or_else(|| format!("no object {}", argv[1]))?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                if cmd == "edrop-trace" {
                    q.early_drop_trace = o;
                } else {
                    q.early_drop_target = o;
                }
            }
            ("trace-type", 1) => return Ok(self.red_ref(id).trace_type.clone()),
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }

    /// Commands only `Queue/PI` has (queue/pi.cc `PIQueue::command`).
    fn pi_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let name_or = |sim: &Sim, o: ObjId, none: &str| if o == NONE { none.to_string() } else { sim.name(o).to_string() };
        fn pi(sim: &mut Sim, id: ObjId) -> &mut crate::qdisc::Pi {
            let Obj::Queue(q) = &mut sim.objs[id as usize] else { unreachable!() };
            q.disc.get_mut::<crate::qdisc::Pi>().unwrap()
        }
        match (cmd, n) {
            // PI keeps the link but reads nothing of it
            ("link", 2) => match self.lookup(argv[1]).map(|l| &self.objs[l as usize]) {
                Some(Obj::Link(_)) => {}
                _ => return Err(format!("PI: no LinkDelay object {}", argv[1])),
            },
            ("attach", 2) => {
                let ch = self.w.out.channel(argv[1]);
                pi(self, id).channel = Some(ch);
            }
            ("trace", 2) | ("trace", 3) => {
                if n == 3 && argv[2] != self.name(id) {
                    return Err("trace with a separate tracer object is not supported yet".into());
                }
                let var = match argv[1] {
                    "curq_" => PiVar::CurrentQueue,
                    "prob_" => PiVar::Prob,
                    v => return Err(format!("trace: {v} is not a TracedVar of Queue/PI (it has curq_ and prob_)")),
                };
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                q.disc.get_mut::<crate::qdisc::Pi>().unwrap().trace(&mut self.w, var);
            }
            ("early-drop-target", 1) => return Ok(name_or(self, self.queue_ref(id).early_drop_target, "")),
            ("edrop-trace", 1) => return Ok(name_or(self, self.queue_ref(id).early_drop_trace, "0")),
            ("early-drop-target", 2) | ("edrop-trace", 2) => {
                let o = self.lookup(argv[1]).ok_or_else(|| format!("no object {}", argv[1]))?;
                let Obj::Queue(q) = &mut self.objs[id as usize] else { unreachable!() };
                if cmd == "edrop-trace" {
                    q.early_drop_trace = o;
                } else {
                    q.early_drop_target = o;
                }
            }
            ("trace-type", 1) => return Ok(pi(self, id).trace_type.clone()),
            _ => return Err(format!("unknown command \"{cmd}\"")),
        }
        Ok(String::new())
    }

    /// Commands of error models (`ErrorModel::command`, `ListErrorModel`).
    fn errmodel_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let Obj::ErrModel(em) = &mut self.objs[id as usize] else { unreachable!() };
        match (cmd, n) {
            ("unit", 1) => Ok(em.unit.name().to_string()),
            ("unit", 2) => {
                em.unit = Unit::parse(argv[1]);
                if em.unit == Unit::Bit {
                    self.w.warn_once("ErrorModel unit bit is not modelled yet: no packet will be corrupted".into());
                }
                Ok(String::new())
            }
            ("droplist", _) => set_droplist(em, &argv[1..]).map(|c| c.to_string()),
            ("ranvar", 1) => {
                let rv = em.ranvar;
                Ok(if rv == NONE { String::new() } else { self.name(rv).to_string() })
            }
            ("ranvar", 2) => {
                let rv = self.lookup(argv[1]).ok_or_else(|| format!("no object named \"{}\"", argv[1]))?;
                if !matches!(self.objs[rv as usize], Obj::RanVar(_)) {
                    return Err(format!("ErrorModel ranvar: {} is not a RandomVariable", argv[1]));
                }
                if let Obj::ErrModel(em) = &mut self.objs[id as usize] {
                    em.ranvar = rv;
                }
                Ok(String::new())
            }
            ("FECstrength", _) | ("datapktsize", _) | ("cntrlpktsize", _) => {
                Err(format!("ErrorModel {cmd} is not supported by Dumbbell yet"))
            }
            ("eventtrace", 2) => Ok(String::new()),
            ("reset", 1) => Ok(String::new()),
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }

    /// Commands of hash classifiers (`HashClassifier` and `Classifier`).
    fn hash_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let arg_obj = |sim: &Sim, s: &str| sim.lookup(s).ok_or_else(|| format!("no object named \"{s}\""));
        let obj = match (cmd, n) {
            ("installNext", 2) | ("findslot", 2) | ("defaulttarget", 2) => Some(arg_obj(self, argv[1])?),
            ("install", 3) => Some(arg_obj(self, argv[2])?),
            _ => None,
        };
        // The ns-2 library's steps after a miss (classifier.tcl):
        // `dumbbell-place STEP PKT SRC DST FID` places or drops a held packet
        // (-1: none held) and says where it went ("" for a target), or the
        // slot ns-2's no-slot call names, or "unknown".
        if let ("dumbbell-place", 6) = (cmd, n) {
            use crate::errmodel::{HashStep, Place};
            let step = match argv[1] {
                "after-unknown" => HashStep::AfterUnknown,
                "again" => HashStep::Again,
                "last" => HashStep::Last,
                "drop" => HashStep::Drop,
                s => return Err(format!("dumbbell-place: unknown step {s}")),
            };
            let pkt = match vars::atoi(argv[2]) {
                i if i < 0 => None,
                i => Some(i as u32),
            };
            let a = |i: usize| vars::atoi(argv[i]);
            return Ok(match self.hash_place(id, pkt, (a(3), a(4), a(5)), step)? {
                Place::Target(_) => String::new(),
                Place::Unknown => "unknown".into(),
                Place::NoSlot(slot) => (slot as u32).to_string(),
            });
        }
        let Obj::HashClassifier(c) = &mut self.objs[id as usize] else { unreachable!() };
        let a = |i: usize| vars::atoi(argv[i]);
        let r = match (cmd, n) {
            ("installNext", 2) => c.install_next(obj.unwrap()).to_string(),
            ("install", 3) => {
                let slot = a(1);
                if slot < 0 {
                    return Err(format!("install: bad slot {}", argv[1]));
                }
                c.install(slot as usize, obj.unwrap());
                String::new()
            }
            ("findslot", 2) => c.find_slot(obj.unwrap()).to_string(),
            ("clear", 2) => {
                c.clear(a(1).max(0) as usize);
                String::new()
            }
            ("defaulttarget", 2) => {
                c.default_target = obj.unwrap();
                String::new()
            }
            ("defaulttarget", 1) => {
                let t = c.default_target;
                return Ok(self.name(t).to_string());
            }
            ("slot", 2) => {
                let t = c.slot(a(1) as i64);
                if t == NONE {
                    return Err(format!("Classifier: no object at slot {}", a(1)));
                }
                return Ok(self.name(t).to_string());
            }
            // $c set-hash bucket src dst fid slot
            ("set-hash", 6) => {
                c.set_hash(a(2), a(3), a(4), a(5) as i64);
                String::new()
            }
            // $c lookup bucket src dst fid
            ("lookup", 5) => {
                let s = c.get_hash(a(2), a(3), a(4));
                if s >= 0 && s <= c.maxslot as i64 {
                    let t = c.slot(s);
                    return Ok(self.name(t).to_string());
                }
                String::new()
            }
            // the slots the ns-2 library's `dump` lists: "slot object ..."
            ("dumbbell-slots", 1) => {
                let slots: Vec<(usize, ObjId)> = c.slots.iter().copied().enumerate().filter(|&(_, o)| o != NONE).collect();
                let words: Vec<String> = slots.into_iter().flat_map(|(i, o)| [i.to_string(), self.name(o).to_string()]).collect();
                return Ok(words.join(" "));
            }
            ("auto-flows", 1) => {
                c.auto_flow = true;
                String::new()
            }
            // a RED-PD queue's flow monitor makes RED-PD flows
            ("auto-flows", 2) if argv[1] == "policed" => {
                c.auto_flow = true;
                c.auto_policed = true;
                String::new()
            }
            ("del-hash", 4) => match c.del_hash(a(1), a(2), a(3)) {
                Some(s) => s.to_string(),
                None => return Err(format!("del-hash: no flow {} {} {}", argv[1], argv[2], argv[3])),
            },
            _ => return Err(format!("unknown command \"{cmd}\"")),
        };
        Ok(r)
    }

    /// `Application::start` / `stop` of a traffic source.  A source with
    /// no agent attached cannot start (ns-2 crashes there).
    fn app_start_stop(&mut self, id: ObjId, start: bool) -> Result<String, String> {
        if start {
            if let Obj::App(app) = &self.objs[id as usize] {
                if app.source.is_some() && self.agent_mut(app.agent).is_none() {
                    return Err(format!("{}: no agent attached (attach-agent) to start", self.name(id)));
                }
            }
        }
        let mut o = self.take(id);
        if let Obj::App(app) = &mut o {
            let agent = app.agent;
            if let Some(src) = app.source.as_mut() {
                if start {
                    src.start(self, agent);
                } else {
                    src.stop(self);
                }
            }
        }
        self.put(id, o);
        Ok(String::new())
    }

    /// Commands of `QueueMonitor/ED/Flowmon` (tools/flowmon.cc).
    fn flowmon_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        let cl = match &self.objs[id as usize] {
            Obj::QueueMonitor(q) => q.flowmon.as_ref().map(|f| f.classifier).unwrap_or(NONE),
            _ => NONE,
        };
        match (cmd, n) {
            ("classifier", 1) => Ok(self.name(cl).to_string()),
            ("classifier", 2) => {
                let c = self.lookup(argv[1]).ok_or_else(|| format!("no object named \"{}\"", argv[1]))?;
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    q.flowmon.as_mut().unwrap().classifier = c;
                }
                Ok(String::new())
            }
            ("attach", 2) => {
                let ch = self.w.out.channel(argv[1]);
                if let Obj::QueueMonitor(q) = &mut self.objs[id as usize] {
                    q.flowmon.as_mut().unwrap().channel = Some(ch);
                }
                Ok(String::new())
            }
            ("flows", 1) => Ok(self.flow_objs(cl).iter().map(|&f| self.name(f).to_string()).collect::<Vec<_>>().join(" ")),
            ("dump", 1) => {
                let flows = self.flow_objs(cl);
                let now = self.w.s.now;
                let (ch, agg, tagger) = match &self.objs[id as usize] {
                    Obj::QueueMonitor(q) => {
                        let fm = q.flowmon.as_ref().unwrap();
                        // a tagger's line ends with its own marks (`Tagger::fformat`)
                        (fm.channel, (q.parrivals, q.barrivals, q.epdrops, q.ebdrops, q.pdrops, q.bdrops), fm.tagger.then_some(q.pmarks))
                    }
                    _ => unreachable!(),
                };
                let Some(ch) = ch else { return Ok(String::new()) };
                let mut text = Vec::new();
                for f in flows {
                    if let Obj::QueueMonitor(fq) = &self.objs[f as usize] {
                        let k = fq.flow.unwrap_or_default();
                        crate::ns2::printf::push_f(&mut text, now, 3, 8, false);
                        let tail = match tagger {
                            Some(marks) => format!("{marks}\n"),
                            None => format!("{} {} {}\n", fq.qs_pkts, fq.qs_bytes, fq.qs_drops),
                        };
                        let rest = format!(
                            " {} 0 {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} ",
                            k.fid, k.ptype, k.fid, k.src, k.dst, fq.parrivals, fq.barrivals, fq.epdrops, fq.ebdrops,
                            agg.0, agg.1, agg.2, agg.3, agg.4, agg.5, fq.pdrops, fq.bdrops
                        );
                        text.extend_from_slice(rest.as_bytes());
                        text.extend_from_slice(tail.as_bytes());
                    }
                }
                self.write_line(ch, &text);
                Ok(String::new())
            }
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }

    /// The flows a flow monitor's classifier holds, in slot order.
    fn flow_objs(&self, cl: ObjId) -> Vec<ObjId> {
        match self.objs.get(cl as usize) {
            Some(Obj::HashClassifier(c)) => (0..=c.maxslot as i64).map(|i| c.slot(i)).filter(|&o| o != NONE).collect(),
            _ => Vec::new(),
        }
    }

    /// Commands of `RandomVariable/*` (`RandomVariable::command`).
    fn ranvar_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let (cmd, n) = (argv[0], argv.len());
        match (cmd, n) {
            ("value", 1) => {
                let v = match &self.objs[id as usize] {
                    Obj::RanVar(rv) => rv.value(&mut self.w),
                    _ => unreachable!(),
                };
                let mut b = Vec::new();
                crate::ns2::printf::push_e(&mut b, v, 6, 0, false);
                Ok(String::from_utf8(b).unwrap_or_default())
            }
            ("use-rng", 2) => {
                let stream = match self.lookup(argv[1]).map(|o| &self.objs[o as usize]) {
                    Some(Obj::Rng(s)) => *s,
                    _ => return Err(format!("no such RNG {}", argv[1])),
                };
                if let Obj::RanVar(rv) = &mut self.objs[id as usize] {
                    rv.stream = stream;
                }
                Ok(String::new())
            }
            ("loadCDF", 2) => {
                let text = std::fs::read_to_string(argv[1])
                    .map_err(|e| format!("{} loadCDF {}: invalid file ({e})", self.name(id), argv[1]))?;
                if let Obj::RanVar(rv) = &mut self.objs[id as usize] {
                    let n = rv.load_cdf(&text).ok_or("loadCDF is a command of RandomVariable/Empirical")?;
                    if n == 0 {
                        return Err(format!("{} loadCDF {}: invalid file", self.name(id), argv[1]));
                    }
                }
                Ok(String::new())
            }
            _ => Err(format!("unknown command \"{cmd}\"")),
        }
    }

    fn red_mut(&mut self, id: ObjId) -> &mut crate::qdisc::Red {
        match &mut self.objs[id as usize] {
            Obj::Queue(q) => q.disc.red_mut().expect("RED queue"),
            _ => unreachable!("not a queue"),
        }
    }

    fn red_ref(&self, id: ObjId) -> &crate::qdisc::Red {
        self.queue_ref(id).disc.red().expect("RED queue")
    }

    fn queue_ref(&self, id: ObjId) -> &Queue {
        match &self.objs[id as usize] {
            Obj::Queue(q) => q,
            _ => unreachable!("not a queue"),
        }
    }

    fn agent_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let cmd = argv[0];
        let n = argv.len();
        match cmd {
            "attach" if n == 2 => {
                let ch = self.w.out.channel(argv[1]);
                if let Some(a) = self.agent_mut(id) {
                    a.base.channel = Some(ch);
                }
                return Ok(String::new());
            }
            "reset" => {
                self.reset_agent(id);
                return Ok(String::new());
            }
            "close" | "listen"
                if !crate::ns2::class::fulltcp::is_full(&self.objs[id as usize])
                    && !crate::ns2::class::bay::is_bay(&self.objs[id as usize]) =>
            {
                return Ok(String::new())
            }
            "add-agent-trace" | "show-monitor" | "delete-agent-trace" | "dump-namtracedvars" => {
                return self.agent_nam_cmd(id, argv);
            }
            "trace" | "tracevar" if n >= 2 => {
                if n > 2 && argv[2] != self.name(id) {
                    return Err(format!("{cmd} with a separate tracer object is not supported yet"));
                }
                return self.trace_var(id, argv[1]);
            }
            _ => {}
        }
        if let Some(r) = self.linux_tcp_command(id, argv) {
            return r;
        }
        let mut o = self.take(id);
        let r = match &mut o {
            Obj::Agent(a) => {
                let Agent { base, kind } = &mut **a;
                match kind {
                    AgentKind::Tcp(t) => match crate::ns2::class::fulltcp::command(t, base, self, argv)
                        .or_else(|| crate::ns2::class::bay::command(t, base, self, argv))
                    {
                        Some(r) => r,
                        None => match cmd {
                        "send" if n == 2 => {
                            t.sendmsg(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "advance" if n == 2 => {
                            t.advance(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "advanceby" if n == 2 => {
                            t.advanceby(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "persist" => Err("persist is not supported yet".into()),
                        "eventtrace" if n == 2 => match self.lookup(argv[1]) {
                            Some(et) => {
                                t.sender.et = et;
                                Ok(String::new())
                            }
                            None => Err(format!("no object named \"{}\"", argv[1])),
                        },
                        _ => Err(format!("unknown command \"{cmd}\"")),
                        },
                    },
                    AgentKind::Sink(_) => match cmd {
                        "resize_buffers" => Ok(String::new()),
                        "send" => Ok(String::new()),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::Null => match cmd {
                        "send" => Ok(String::new()),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::Fetch(f) => match crate::ns2::class::bay::fetch_command(f, self, argv) {
                        Some(r) => r,
                        None => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::Socket(_) => Err(format!("unknown command \"{cmd}\" (a full-TCP end takes no ns-2 commands)")),
                    // (Dumbbell's own: `old_classifier_`, where packets go
                    // on, is an object reference, set from the library)
                    AgentKind::QsRouter(r) => match cmd {
                        "dumbbell-old-classifier" if n == 2 => match self.lookup(argv[1]) {
                            Some(o) => {
                                r.next = o;
                                Ok(String::new())
                            }
                            None => Err(format!("no object named \"{}\"", argv[1])),
                        },
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::Udp(u) => match cmd {
                        "send" if n == 2 => {
                            u.sendmsg(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "send" | "sendmsg" => Err("UDP messages with application data are not supported yet".into()),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    // routing/rtProtoDV.cc: `send-update ADDR PORT MSG SIZE`
                    AgentKind::RouteMsg => match cmd {
                        "send-update" if n == 5 => {
                            let (addr, port) = (vars::atoi(argv[1]), vars::atoi(argv[2]));
                            let (msg, size) = (vars::atoi(argv[3]) as u32, vars::atoi(argv[4]));
                            crate::rtmsg::send(base, self, addr, port, msg, size);
                            Ok(String::new())
                        }
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::Ping(g) => match cmd {
                        "send" if n == 1 => {
                            g.send(base, self);
                            Ok(String::new())
                        }
                        "oneway" if n == 1 => {
                            g.oneway = true;
                            Ok(String::new())
                        }
                        "start-WL-brdcast" if n == 1 => {
                            g.broadcast(base, self);
                            Ok(String::new())
                        }
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    // mobile/mip-reg.cc's commands (`bcast-target` is
                    // for wired nodes, which Dumbbell's Mobile IP has not)
                    AgentKind::Mip(m) => match cmd {
                        "beacon-period" if n == 2 => match argv[1].trim().parse::<f64>() {
                            Ok(v) if v.is_finite() && v > 0.0 => {
                                m.set_beacon(base, self, v);
                                Ok(String::new())
                            }
                            _ => Err("expected a period in seconds, a number above 0".to_string()),
                        },
                        "node" if n == 2 => match self.lookup(argv[1]) {
                            Some(id) if matches!(self.objs.get(id as usize), Some(Obj::Node(_))) => {
                                m.node = id;
                                Ok(String::new())
                            }
                            _ => Err(format!("node {}: expected a mobile node", argv[1])),
                        },
                        "ragent" if n == 2 => Ok(String::new()),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    // apps/pbc.cc's commands
                    AgentKind::Pbc(g) => match cmd {
                        "singleBroadcast" if n == 1 => {
                            g.broadcast(base, self);
                            Ok(String::new())
                        }
                        "unicast" if n == 2 => match argv[1].trim().parse::<i32>() {
                            Ok(addr) => {
                                g.unicast(base, self, addr);
                                Ok(String::new())
                            }
                            Err(_) => Err(format!("Agent/PBC unicast {}: expected a node's (link-layer) address, an integer", argv[1])),
                        },
                        "PeriodicBroadcast" if n == 2 && argv[1] == "ON" => {
                            g.start(self);
                            Ok(String::new())
                        }
                        "PeriodicBroadcast" if n == 2 && argv[1] == "OFF" => {
                            g.stop(self, false);
                            Ok(String::new())
                        }
                        "PeriodicBroadcast" => Err(format!("Agent/PBC PeriodicBroadcast {}: expected ON or OFF", argv[1..].join(" "))),
                        "stop" if n == 1 => {
                            let periodic = g.periodic;
                            g.stop(self, periodic);
                            Ok(String::new())
                        }
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::TfrcSender(t) => match cmd {
                        "start" if n == 1 && t.sndr_type == 0 => {
                            t.start(base, self);
                            Ok(String::new())
                        }
                        "stop" if n == 1 => {
                            t.stop(self);
                            Ok(String::new())
                        }
                        "advance" if n == 2 && t.sndr_type == 1 => {
                            t.advance(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "advanceby" if n == 2 && t.sndr_type == 1 => {
                            t.advanceby(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "send" if n == 2 => {
                            t.sendmsg(base, self, vars::atoi(argv[1]));
                            Ok(String::new())
                        }
                        "start" | "advance" | "advanceby" => Err(format!(
                            "Agent/TFRC {cmd}: with SndrType_ {} the agent takes {}",
                            t.sndr_type,
                            if t.sndr_type == 0 { "start and stop (SndrType_ 1 for an application's data)" } else { "its data from an application (SndrType_ 0 for start)" }
                        )),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::TfrcReceiver(r) => match cmd {
                        "weights" if n == 2 => r.set_weights(argv[1]).map(|_| String::new()),
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                    AgentKind::LossMonitor(m) => match cmd {
                        "clear" => {
                            m.expected = -1;
                            Ok(String::new())
                        }
                        _ => Err(format!("unknown command \"{cmd}\"")),
                    },
                }
            }
            _ => Err("not an agent".into()),
        };
        self.put(id, o);
        r
    }

    /// nam's agent traces (common/agent.cc): `add-agent-trace NAME` writes
    /// an `a` line and names the agent for its variable traces,
    /// `show-monitor` a `monitor_agent` line, `delete-agent-trace` forgets
    /// the name; `dump-namtracedvars` writes nothing (ns-2 walks the
    /// variables bound at creation, and TCP's traced variables are bound
    /// later, so it finds none).
    fn agent_nam_cmd(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let Some(a) = self.agent_mut(id) else { return Err("not an agent".into()) };
        let (ch, addr, daddr) = (a.base.channel, a.base.addr, a.base.dst_addr);
        let name = self.name(id).to_string();
        let now = self.w.s.now;
        let mut line = Vec::new();
        match argv {
            ["add-agent-trace", tname] => {
                let Some(ch) = ch else { return Ok(format!("agent {name}: no trace file attached")) };
                line.extend_from_slice(b"a -t ");
                crate::ns2::printf::push_g(&mut line, now, 15);
                line.extend_from_slice(format!(" -s {addr} -d {daddr} -n {tname}\n").as_bytes());
                self.ns2_tracer().nam_agents.entry(id).or_default().name = Some(tname.to_string());
                self.write_line(ch, &line);
            }
            ["show-monitor"] => {
                let tname = self.ns2_tracer().nam_agents.get(&id).and_then(|a| a.name.clone());
                if let (Some(ch), Some(tname)) = (ch, tname) {
                    line.extend_from_slice(b"v -t ");
                    crate::ns2::printf::push_g(&mut line, now, 15);
                    line.extend_from_slice(format!(" -e monitor_agent {addr} {tname}\n").as_bytes());
                    self.write_line(ch, &line);
                }
            }
            ["delete-agent-trace"] => {
                if ch.is_some() {
                    if let Some(a) = self.ns2_tracer().nam_agents.get_mut(&id) {
                        a.name = None;
                    }
                }
            }
            ["dump-namtracedvars"] => {}
            _ => return Err(format!("unknown command \"{}\"", argv[0])),
        }
        Ok(String::new())
    }

    /// Append `line` (a whole line, or several) to channel `ch`.
    fn write_line(&mut self, ch: u32, line: &[u8]) {
        self.w.out.append(ch, |buf| buf.extend_from_slice(line));
    }

    /// `$agent trace var`: start tracing and write the current value now,
    /// as tclcl's `TclObject::traceVar` does.
    fn trace_var(&mut self, id: ObjId, var: &str) -> Result<String, String> {
        let tv = crate::ns2::class::tcp::tv_from_name(var);
        let class = self.class(id);
        let w = &mut self.w;
        match &mut self.objs[id as usize] {
            Obj::Agent(a) => {
                let Agent { base, kind } = &mut **a;
                match (kind, tv) {
                    (AgentKind::Tcp(t), Some(tv)) => {
                        t.trace(tv);
                        t.sender.trace_var(base, w, tv);
                        Ok(String::new())
                    }
                    (kind, _) if class.is_some_and(|c| delay_bound(c, kind, var)) => {
                        // tclcl's `not_a_TracedVar`: ns-2 reports, flushes
                        // its traces and exits with 1, whether or not the
                        // command was caught.  The abort runs as soon as
                        // this command returns.
                        w.abort(crate::notice::Abort::Front(format!("TclObject: {var} is not a TracedVar.")));
                        Ok(String::new())
                    }
                    (AgentKind::Tcp(_), None) if class.is_some_and(|c| !c.bound().iter().any(|(n, _)| *n == var)) => {
                        // A variable the C++ agent does not bind (an OTcl
                        // instance variable, set or not): tclcl writes one
                        // line with the value 0 in the agent's format (its
                        // later lines show no value: ns-2 prints whatever
                        // its memory holds; none are written here).
                        if let Some(ch) = base.channel {
                            let now = w.s.now;
                            let (a, p, da, dp) = (base.addr, base.port, base.dst_addr, base.dst_port);
                            w.out.append(ch, |buf| {
                                use crate::ns2::printf as fmt;
                                fmt::push_f(buf, now, 5, 8, true);
                                for v in [a, p, da, dp] {
                                    buf.push(b' ');
                                    fmt::push_int(buf, v as i64, 2, true);
                                }
                                buf.push(b' ');
                                buf.extend_from_slice(var.as_bytes());
                                buf.extend_from_slice(b" 0\n");
                            });
                        }
                        Ok(String::new())
                    }
                    _ => Err(format!("trace: {var} is not a TracedVar")),
                }
            }
            _ => Err(format!("trace: {var} is not a TracedVar")),
        }
    }

    fn rng_command(&mut self, id: ObjId, argv: &[&str]) -> Result<String, String> {
        let r = match &self.objs[id as usize] {
            Obj::Rng(r) => *r,
            _ => return Err("not an RNG".into()),
        };
        super::rng::command(&mut self.w.rng, r, argv)
    }
}

/// `$em droplist ...` (ErrorModel/List): numbers separated by white space
/// in any number of arguments, sorted; a number twice is an error.
/// Returns the count.
fn set_droplist(em: &mut crate::errmodel::ErrorModel, args: &[&str]) -> Result<usize, String> {
    let mut v = Vec::new();
    for a in args {
        for tok in a.split_whitespace() {
            if !tok.as_bytes()[0].is_ascii_digit() {
                return Err(format!("ErrorModel/List droplist: expected packet or byte numbers, got \"{tok}\""));
            }
            v.push(vars::atoi(tok));
        }
    }
    v.sort_unstable();
    if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("ErrorModel/List droplist: {} is listed twice", w[0]));
    }
    let n = v.len();
    if !em.set_drop_list(v) {
        return Err("droplist is a command of ErrorModel/List".into());
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::set_droplist;
    use crate::errmodel::ErrorModel;

    #[test]
    fn a_droplist_is_numbers_in_any_order_and_arguments() {
        let mut em = ErrorModel::list();
        assert_eq!(set_droplist(&mut em, &["7 2", "4"]).unwrap(), 3);
        assert!(set_droplist(&mut em, &["3 3"]).unwrap_err().contains("listed twice"));
        assert!(set_droplist(&mut em, &["x"]).unwrap_err().contains("expected packet or byte numbers"));
    }
}
