//! Python binding of the engine's typed builder (`dumbbell_engine::ns2::build`):
//! `dumbbell._engine.Builder`, which `dumbbell.Simulation` drives.  One call
//! per object built; the run is the engine's loop, with the scenario's
//! scheduled actions (application start/stop, halt) served in Rust, so no
//! Python runs per event and no Tcl interpreter is involved.  Errors are
//! `ValueError`; a Rust panic surfaces as pyo3's `PanicException`.

use dumbbell_engine::ns2::build::{
    self as b, Action, AgentId, AgentKind, AppId, AppSpec, Bandwidth, Bytes, ClassDefaults, ErrorModelSpec, ErrorPattern,
    ErrorPlace, ErrorUnit, LinkId, MonitorId, NodeId, FullVariant, QueueSpec, Seconds, SinkKind, Step, TcpFlavor,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

/// A parameter of a queue's dict (the API checked it).
fn get<'py>(d: &Bound<'py, PyDict>, k: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(k)?.ok_or_else(|| PyValueError::new_err(format!("Builder.link(): the queue's parameters lack {k:?}")))
}

/// FQ-CoDel's parameters from the API's checked dict.
fn fq_codel_spec(d: &Bound<'_, PyDict>) -> PyResult<b::FqCoDel> {
    Ok(b::FqCoDel {
        limit: None,
        target: Seconds(get(d, "target")?.extract()?),
        interval: Seconds(get(d, "interval")?.extract()?),
        use_ecn: get(d, "use_ecn")?.extract()?,
        ce_threshold: get(d, "ce_threshold")?.extract::<Option<f64>>()?.map(Seconds),
        use_l4s: get(d, "use_l4s")?.extract()?,
        flows: get(d, "flows")?.extract()?,
        quantum: Bytes(get(d, "quantum")?.extract()?),
        drop_batch_size: get(d, "drop_batch_size")?.extract()?,
        perturbation: get(d, "perturbation")?.extract()?,
        set_associative_hash: get(d, "enable_set_associative_hash")?.extract()?,
        set_ways: get(d, "set_ways")?.extract()?,
    })
}

/// PIE's parameters from the API's checked dict.
fn pie_spec(d: &Bound<'_, PyDict>) -> PyResult<b::Pie> {
    Ok(b::Pie {
        limit: None,
        bytes: get(d, "bytes")?.extract()?,
        mean_pkt_size: Bytes(get(d, "mean_pkt_size")?.extract()?),
        a: get(d, "a")?.extract()?,
        b: get(d, "b")?.extract()?,
        t_update: Seconds(get(d, "t_update")?.extract()?),
        queue_delay_reference: Seconds(get(d, "queue_delay_reference")?.extract()?),
        max_burst_allowance: Seconds(get(d, "max_burst_allowance")?.extract()?),
        dequeue_threshold: Bytes(get(d, "dequeue_threshold")?.extract()?),
        use_dequeue_rate_estimator: get(d, "use_dequeue_rate_estimator")?.extract()?,
        use_cap_drop_adjustment: get(d, "use_cap_drop_adjustment")?.extract()?,
        use_ecn: get(d, "use_ecn")?.extract()?,
        mark_ecn_threshold: get(d, "mark_ecn_threshold")?.extract()?,
        use_derandomization: get(d, "use_derandomization")?.extract()?,
        active_threshold: get(d, "active_threshold")?.extract::<Option<f64>>()?.map(Seconds),
        ce_threshold: get(d, "ce_threshold")?.extract::<Option<f64>>()?.map(Seconds),
        use_l4s: get(d, "use_l4s")?.extract()?,
    })
}

/// SCFQ's set-up from the API's checked dict: `classes`, a list of (id,
/// weight, queue class, [(var, value)]); `classify`, a list of (flow id,
/// class id); `default_class`, a class id or None.
fn scfq_spec(d: &Bound<'_, PyDict>) -> PyResult<b::Scfq> {
    let classes: Vec<(i32, f64, String, Vec<(String, String)>)> = get(d, "classes")?.extract()?;
    Ok(b::Scfq {
        classes: classes.into_iter().map(|(id, weight, queue, params)| b::ScfqClass { id, weight, queue, params }).collect(),
        classify: get(d, "classify")?.extract()?,
        default_class: get(d, "default_class")?.extract()?,
    })
}

fn verr(e: b::BuildError) -> PyErr {
    PyValueError::new_err(e.0)
}

type Pairs = Vec<(String, String)>;

fn agent_kind(class: &str) -> PyResult<AgentKind> {
    Ok(match class {
        "Agent/TCP" => AgentKind::Tcp(TcpFlavor::Tahoe),
        "Agent/TCP/Reno" => AgentKind::Tcp(TcpFlavor::Reno),
        "Agent/TCP/Newreno" => AgentKind::Tcp(TcpFlavor::NewReno),
        "Agent/TCP/Sack1" => AgentKind::Tcp(TcpFlavor::Sack1),
        "Agent/TCP/Vegas" => AgentKind::Tcp(TcpFlavor::Vegas),
        "Agent/TCP/RFC793edu" => AgentKind::Tcp(TcpFlavor::Rfc793edu),
        "Agent/TCP/Linux" => AgentKind::Tcp(TcpFlavor::Linux),
        "Agent/TCP/Fack" => AgentKind::Tcp(TcpFlavor::Fack),
        "Agent/TCP/SackRH" => AgentKind::Tcp(TcpFlavor::SackRh),
        "Agent/TCP/FullTcp" => AgentKind::FullTcp(FullVariant::Reno),
        "Agent/TCP/FullTcp/Tahoe" => AgentKind::FullTcp(FullVariant::Tahoe),
        "Agent/TCP/FullTcp/Newreno" => AgentKind::FullTcp(FullVariant::NewReno),
        "Agent/TCP/FullTcp/Sack" => AgentKind::FullTcp(FullVariant::Sack),
        "Agent/TCPSink" => AgentKind::Sink(SinkKind::AckEvery),
        "Agent/TCPSink/DelAck" => AgentKind::Sink(SinkKind::DelAck),
        "Agent/TCPSink/Sack1" => AgentKind::Sink(SinkKind::Sack1),
        "Agent/TCPSink/Sack1/DelAck" => AgentKind::Sink(SinkKind::Sack1DelAck),
        "Agent/UDP" => AgentKind::Udp,
        "Agent/LossMonitor" => AgentKind::LossMonitor,
        "Agent/Null" => AgentKind::Null,
        "Agent/TFRC" => AgentKind::Tfrc,
        "Agent/TFRCSink" => AgentKind::TfrcSink,
        other => return Err(PyValueError::new_err(format!("Builder.agent(): no agent class {other:?}"))),
    })
}

/// A scenario being built in an engine, then run.
#[pyclass(unsendable, module = "dumbbell._engine")]
pub struct Builder {
    b: b::Builder,
    /// Limits on the run (`set_limits`).
    limits: crate::interrupt::Limits,
    /// What the spill (`set_spill`) raised, for `run` to raise.
    spill_err: crate::SpillError,
}

#[pymethods]
impl Builder {
    /// A new scenario with the class defaults of the ns-2 library's
    /// defaults file (its text).
    #[new]
    fn new(defaults_text: &str) -> PyResult<Self> {
        let d = ClassDefaults::parse(defaults_text).map_err(verr)?;
        Ok(Builder { b: b::Builder::new(d).map_err(verr)?, limits: Default::default(), spill_err: Default::default() })
    }

    /// The class defaults a new object of OTcl class `cls` (engine class
    /// `kind`) gets, as (variable, value) pairs.
    #[staticmethod]
    fn class_defaults(defaults_text: &str, kind: &str, cls: &str) -> PyResult<Pairs> {
        Ok(ClassDefaults::parse(defaults_text).map_err(verr)?.for_class(kind, cls))
    }

    /// Tcl 8.6's `array names` order of an array whose keys were set in
    /// this order.
    #[staticmethod]
    fn tcl_array_order(keys: Vec<String>) -> Vec<usize> {
        b::tcl_array_order(&keys)
    }

    fn seed(&mut self, seed: u64) -> PyResult<()> {
        self.b.seed(seed).map_err(verr)
    }

    /// `$defaultRNG next-substream`, `n` times.
    fn next_substream(&mut self, n: u64) -> PyResult<()> {
        for _ in 0..n {
            self.b.next_substream().map_err(verr)?;
        }
        Ok(())
    }

    /// Nodes made from now on get a Quick-Start router with these
    /// (variable, value) settings.
    fn quickstart(&mut self, params: Vec<(String, String)>) -> PyResult<()> {
        self.b.quickstart(&params).map_err(verr)
    }

    fn node(&mut self) -> PyResult<u32> {
        Ok(self.b.node().map_err(verr)?.0)
    }

    /// Nodes `n` at once; returns the first id.
    fn nodes(&mut self, n: u32) -> PyResult<u32> {
        let first = self.b.num_nodes() as u32;
        for _ in 0..n {
            self.b.node().map_err(verr)?;
        }
        Ok(first)
    }

    /// A simplex or duplex link with a DropTail, RED, PI, CoDel, PIE, FQ-CoDel, DRR, SFQ, Vq, GK,
    /// COBALT, FQ-PIE, FQ-COBALT (their bound variables set after) or SCFQ queue (SCFQ's classes in `scfq`: see `scfq_spec`; CoDel's parameters in `codel`: target, interval, min_bytes,
    /// use_ecn, ce_threshold, use_l4s; PIE's in `pie` and FQ-CoDel's in `fq_codel`,
    /// dicts by the names of `build::Pie`'s and `build::FqCoDel`'s fields,
    /// each present).  Returns the link ids (a->b, b->a or None).
    #[pyo3(signature = (a, b, bandwidth, delay, queue="DropTail", duplex=true, codel=None, pie=None, fq_codel=None, scfq=None))]
    fn link(
        &mut self,
        a: u32,
        b: u32,
        bandwidth: f64,
        delay: f64,
        queue: &str,
        duplex: bool,
        codel: Option<(f64, f64, u32, bool, Option<f64>, bool)>,
        pie: Option<&Bound<'_, PyDict>>,
        fq_codel: Option<&Bound<'_, PyDict>>,
        scfq: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<(u32, Option<u32>)> {
        let spec = match queue {
            "DropTail" => QueueSpec::DropTail(Default::default()),
            "RED" => QueueSpec::Red(Default::default()),
            "PI" => QueueSpec::Pi(Default::default()),
            "CoDel" => {
                let mut c = b::CoDel::default();
                if let Some((target, interval, min_bytes, use_ecn, ce, l4s)) = codel {
                    c.target = Seconds(target);
                    c.interval = Seconds(interval);
                    c.min_bytes = Bytes(min_bytes);
                    c.use_ecn = use_ecn;
                    c.ce_threshold = ce.map(Seconds);
                    c.use_l4s = l4s;
                }
                QueueSpec::CoDel(c)
            }
            "PIE" => QueueSpec::Pie(match pie {
                Some(d) => pie_spec(d)?,
                None => b::Pie::default(),
            }),
            "FQ_CoDel" => QueueSpec::FqCoDel(match fq_codel {
                Some(d) => fq_codel_spec(d)?,
                None => b::FqCoDel::default(),
            }),
            "SCFQ" => QueueSpec::Scfq(match scfq {
                Some(d) => scfq_spec(d)?,
                None => b::Scfq::default(),
            }),
            "DRR" => QueueSpec::Class("Queue/DRR"),
            "SFQ" => QueueSpec::Class("Queue/SFQ"),
            "Vq" => QueueSpec::Class("Queue/Vq"),
            "GK" => QueueSpec::Class("Queue/GK"),
            "RED/RIO" => QueueSpec::Class("Queue/RED/RIO"),
            "RED/PD" => QueueSpec::Class("Queue/RED/PD"),
            "JoBS" => QueueSpec::Class("Queue/JoBS"),
            "Marker" => QueueSpec::Class("Queue/Marker"),
            "Demarker" => QueueSpec::Class("Queue/Demarker"),
            "REM" => QueueSpec::Class("Queue/REM"),
            "dsRED/edge" => QueueSpec::Class("Queue/dsRED/edge"),
            "dsRED/core" => QueueSpec::Class("Queue/dsRED/core"),
            "COBALT" => QueueSpec::Class("Queue/COBALT"),
            "FQ_PIE" => QueueSpec::Class("Queue/FQ_PIE"),
            "FQ_COBALT" => QueueSpec::Class("Queue/FQ_COBALT"),
            "DualPI2" => QueueSpec::Class("Queue/DualPI2"),
            "CBQ" => QueueSpec::Class("Queue/CBQ"),
            "CBQ/WRR" => QueueSpec::Class("Queue/CBQ/WRR"),
            "StepMark" => QueueSpec::Class("Queue/StepMark"),
            "DropTail/PriQueue" => QueueSpec::Class("Queue/DropTail/PriQueue"),
            "FQ" => QueueSpec::Class("Queue/FQ"),
            "SRR" => QueueSpec::Class("Queue/SRR"),
            other => return Err(PyValueError::new_err(format!("Builder.link(): unknown queue {other:?}"))),
        };
        let (a, bb, bw, d) = (NodeId(a), NodeId(b), Bandwidth(bandwidth), Seconds(delay));
        if duplex {
            let (f, r) = self.b.duplex_link(a, bb, bw, d, &spec).map_err(verr)?;
            Ok((f.0, Some(r.0)))
        } else {
            Ok((self.b.simplex_link(a, bb, bw, d, &spec).map_err(verr)?.0, None))
        }
    }

    /// `new Queue/DropTail` with its variables set (a CBQ class's queue);
    /// returns (object, name).
    fn droptail_queue(&mut self, params: Pairs) -> PyResult<(u32, String)> {
        self.b.droptail_queue(&params).map_err(verr)
    }

    /// `new Queue/DropTail` or `new Queue/RED` with its variables set for a
    /// class of CBQ link `link` (a RED one linked and reset); returns
    /// (object, name).
    fn class_queue(&mut self, kind: &str, params: Pairs, link: u32) -> PyResult<(u32, String)> {
        self.b.class_queue(kind, &params, LinkId(link)).map_err(verr)
    }

    fn queue_limit(&mut self, link: u32, limit: u32) -> PyResult<()> {
        self.b.queue_limit(LinkId(link), limit).map_err(verr)
    }

    fn set_queue_var(&mut self, link: u32, var: &str, value: &str) -> PyResult<()> {
        self.b.set_queue_var(LinkId(link), var, value).map_err(verr)
    }

    /// Engine objects of a link direction: (head, queue, delay line, ttl, drophead).
    fn link_objs(&self, link: u32) -> (u32, u32, u32, u32, u32) {
        let l = self.b.link_objs(LinkId(link));
        (l.head, l.queue, l.link, l.ttl, l.drophead)
    }

    fn trace_all(&mut self, channel: &str) {
        self.b.trace_all(channel);
    }

    fn trace_queue(&mut self, link: u32, channel: &str) -> PyResult<()> {
        self.b.trace_queue(LinkId(link), channel).map_err(verr)
    }

    fn monitor_queue(&mut self, link: u32) -> PyResult<u32> {
        Ok(self.b.monitor_queue(LinkId(link)).map_err(verr)?.0)
    }

    /// ([parrivals, pdepartures, pdrops, barrivals, bdepartures, bdrops,
    /// pkts, size], [pkts lastx, lasty, sum, bytes lastx, lasty, sum]).
    fn monitor_stats(&mut self, m: u32) -> (Vec<i64>, Vec<f64>) {
        let s = self.b.monitor_stats(MonitorId(m));
        (
            vec![s.parrivals, s.pdepartures, s.pdrops, s.barrivals, s.bdepartures, s.bdrops, s.pkts, s.size],
            vec![s.pkts_integral.0, s.pkts_integral.1, s.pkts_integral.2, s.bytes_integral.0, s.bytes_integral.1, s.bytes_integral.2],
        )
    }

    /// An agent of ns-2 class `cls` with bound variables set in order.
    #[pyo3(signature = (cls, params=Vec::new()))]
    fn agent(&mut self, cls: &str, params: Pairs) -> PyResult<u32> {
        let k = agent_kind(cls)?;
        Ok(self.b.agent(k, &params).map_err(verr)?.0)
    }

    fn attach(&mut self, node: u32, agent: u32) -> PyResult<()> {
        self.b.attach(NodeId(node), AgentId(agent)).map_err(verr)
    }

    fn connect(&mut self, src: u32, dst: u32) -> PyResult<()> {
        self.b.connect(AgentId(src), AgentId(dst)).map_err(verr)
    }

    /// A TCP connection in one call: sender (class, variables) at `src`,
    /// sink at `dst`, connected, with an FTP application started at
    /// `start` (and stopped at `stop`); `trace` (channel, variables) traces
    /// sender variables.  Returns (sender, sink, ftp).  The order of calls
    /// is the API's script's: sender, its attach and traces, sink, connect,
    /// FTP, `$ns at` start then stop.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (src, dst, cls, params, sink_cls, sink_params, start, stop=None, trace=None))]
    fn tcp_flow(
        &mut self,
        src: u32,
        dst: u32,
        cls: &str,
        params: Pairs,
        sink_cls: &str,
        sink_params: Pairs,
        start: f64,
        stop: Option<f64>,
        trace: Option<(String, Vec<String>)>,
    ) -> PyResult<(u32, u32, u32)> {
        let k = agent_kind(cls)?;
        let t = self.b.agent(k, &params).map_err(verr)?;
        self.b.attach(NodeId(src), t).map_err(verr)?;
        if let Some((ch, vars)) = &trace {
            if !vars.is_empty() {
                self.b.trace_vars(t, vars, ch).map_err(verr)?;
            }
        }
        let sk = self.b.agent(agent_kind(sink_cls)?, &sink_params).map_err(verr)?;
        self.b.attach(NodeId(dst), sk).map_err(verr)?;
        self.b.connect(t, sk).map_err(verr)?;
        let f = self.b.app(&AppSpec::Ftp, t, &[]).map_err(verr)?;
        self.b.at(Seconds(start), Action::Start(f)).map_err(verr)?;
        if let Some(s) = stop {
            self.b.at(Seconds(s), Action::Stop(f)).map_err(verr)?;
        }
        Ok((t.0, sk.0, f.0))
    }

    /// A full, two-way TCP connection (`dumbbell_engine::socket`) from
    /// `src` to `dst`: a bulk sender connecting at `start` (closing at
    /// `stop`) and a packet sink.  `params`: (name, number) pairs of
    /// `socket::Config` fields (the API checked names and values); `record`
    /// keeps both ends' traces.  Returns (sender, receiver).
    #[pyo3(signature = (src, dst, params, cc, fid, record, start, stop=None))]
    #[allow(clippy::too_many_arguments)]
    fn full_tcp(&mut self, src: u32, dst: u32, params: Vec<(String, f64)>, cc: &str, fid: i32, record: bool, start: f64, stop: Option<f64>) -> PyResult<(u32, u32)> {
        use dumbbell_engine::socket::Config;
        let mut c = Config::default();
        for (k, v) in params {
            let u = |x: f64| x as u32;
            match k.as_str() {
                "mss" => c.mss = u(v),
                "delack_count" => c.delack_count = u(v),
                "delack_timeout" => c.delack_timeout = v,
                "timestamps" => c.timestamps = v != 0.0,
                "window_scaling" => c.window_scaling = v != 0.0,
                "sack" => c.sack = v != 0.0,
                "ecn" => {
                    use dumbbell_engine::socket::ecn::UseEcn;
                    c.ecn = match v as u32 {
                        0 => UseEcn::Off,
                        1 => UseEcn::On,
                        2 => UseEcn::AcceptOnly,
                        3 => UseEcn::AccEcn,
                        _ => return Err(PyValueError::new_err(format!("Builder.full_tcp(): ecn code {v} is not 0, 1, 2 or 3"))),
                    }
                }
                "recovery" => {
                    use dumbbell_engine::socket::{prr::ReductionBound, Recovery};
                    c.recovery = match v as u32 {
                        0 => Recovery::Classic,
                        1 => Recovery::Prr(ReductionBound::Ssrb),
                        2 => Recovery::Prr(ReductionBound::Crb),
                        _ => return Err(PyValueError::new_err(format!("Builder.full_tcp(): recovery code {v} is not 0, 1 or 2"))),
                    }
                }
                "limited_transmit" => c.limited_transmit = v != 0.0,
                "initial_cwnd" => c.initial_cwnd = u(v),
                "initial_ssthresh" => c.initial_ssthresh = if v >= u32::MAX as f64 { u32::MAX } else { u(v) },
                "snd_buf" => c.snd_buf = u(v),
                "rcv_buf" => c.rcv_buf = u(v),
                "min_rto" => c.min_rto = v,
                "initial_rtt" => c.initial_rtt = v,
                "clock_granularity" => c.clock_granularity = v,
                "conn_timeout" => c.conn_timeout = v,
                "data_retries" => c.data_retries = u(v),
                "syn_retries" => c.syn_retries = u(v),
                "retx_thresh" => c.retx_thresh = u(v),
                "link_overhead" => c.link_overhead = u(v),
                "max_bytes" => c.max_bytes = v as u64,
                "send_size" => c.send_size = u(v),
                "app_write" => c.app_write = u(v),
                "pacing" => c.pacing.enabled = v != 0.0,
                "max_pacing_rate" => c.pacing.max_rate = v as u64,
                "pacing_ss_ratio" => c.pacing.ss_ratio = v as u16,
                "pacing_ca_ratio" => c.pacing.ca_ratio = v as u16,
                "pace_initial_window" => c.pacing.initial_window = v != 0.0,
                cc if cc.starts_with("cc.") => c.cc_params.push((cc[3..].to_string(), v as i32)),
                other => return Err(PyValueError::new_err(format!("Builder.full_tcp(): unknown parameter {other:?}"))),
            }
        }
        let (a, k) = self.b.full_tcp(NodeId(src), NodeId(dst), c, cc, fid, record).map_err(verr)?;
        self.b.at(Seconds(start), Action::Connect(a)).map_err(verr)?;
        if let Some(t) = stop {
            self.b.at(Seconds(t), Action::Close(a)).map_err(verr)?;
        }
        Ok((a.0, k.0))
    }

    /// A full-TCP end's counters: (data segments, retransmissions, fast
    /// recoveries, timeouts, ACKs sent, bytes received, established at,
    /// cwnd, ssthresh, srtt, rto, bytes in flight, mss, SND.UNA, SND.MAX,
    /// port, ECN window reductions; state name).
    fn full_tcp_stats(&self, agent: u32) -> PyResult<(Vec<f64>, String)> {
        let s = self.b.sim().socket(agent).ok_or_else(|| PyValueError::new_err(format!("no full-TCP end {agent}")))?;
        let t = &s.stats;
        Ok((
            vec![
                t.data_segments as f64,
                t.retransmissions as f64,
                t.fast_recoveries as f64,
                t.timeouts as f64,
                t.acks_sent as f64,
                t.bytes_received as f64,
                t.established_at,
                s.win.cwnd as f64,
                s.win.ssthresh as f64,
                s.srtt(),
                s.rto(),
                s.bytes_in_flight() as f64,
                s.cfg.mss as f64,
                s.snd_una() as f64,
                s.snd_max() as f64,
                self.b.sim().agent_base(agent).map_or(-1.0, |b| b.port as f64),
                t.ecn_reductions as f64,
            ],
            format!("{:?}", s.state),
        ))
    }

    /// A full-TCP end's recorded traces as columns (time, variable code,
    /// value); the codes index `socket::TraceVar::ALL`.
    fn full_tcp_trace(&self, agent: u32) -> PyResult<(Vec<f64>, Vec<u8>, Vec<f64>)> {
        let s = self.b.sim().socket(agent).ok_or_else(|| PyValueError::new_err(format!("no full-TCP end {agent}")))?;
        let rows = s.rec.as_ref().map(|r| r.rows.as_slice()).unwrap_or(&[]);
        Ok((rows.iter().map(|r| r.time).collect(), rows.iter().map(|r| r.var as u8).collect(), rows.iter().map(|r| r.value).collect()))
    }

    /// An application ("ftp", "cbr", "exponential", "pareto", "telnet") on
    /// `agent`, its bound variables set in order.
    #[pyo3(signature = (kind, agent, params=Vec::new()))]
    fn app(&mut self, kind: &str, agent: u32, params: Pairs) -> PyResult<u32> {
        let spec = match kind {
            "ftp" => AppSpec::Ftp,
            "cbr" => AppSpec::Cbr { rate: None, packet_size: None, random: None, maxpkts: None },
            "exponential" => AppSpec::Exponential { burst_time: None, idle_time: None, rate: None, packet_size: None },
            "pareto" => AppSpec::Pareto { burst_time: None, idle_time: None, rate: None, packet_size: None, shape: None },
            "telnet" => AppSpec::Telnet { interval: None },
            "voip" => AppSpec::VoipCalls,
            other => return Err(PyValueError::new_err(format!("Builder.app(): unknown application {other:?}"))),
        };
        Ok(self.b.app(&spec, AgentId(agent), &params).map_err(verr)?.0)
    }

    /// Schedule "start" / "stop" of an application, "start-agent" /
    /// "stop-agent" of an agent (a TFRC sender), or "halt".
    #[pyo3(signature = (t, action, app=None))]
    fn at(&mut self, t: f64, action: &str, app: Option<u32>) -> PyResult<u64> {
        let a = match (action, app) {
            ("halt", _) => Action::Halt,
            ("start", Some(x)) => Action::Start(AppId(x)),
            ("stop", Some(x)) => Action::Stop(AppId(x)),
            ("start-agent", Some(x)) => Action::StartAgent(AgentId(x)),
            ("stop-agent", Some(x)) => Action::StopAgent(AgentId(x)),
            _ => return Err(PyValueError::new_err(format!("Builder.at(): bad action {action:?}"))),
        };
        self.b.at(Seconds(t), a).map_err(verr)
    }

    /// `$ns at t "..."` of commands on objects, each step one of
    /// ("set", obj, var, value), ("cmd", obj, [argv...]) or ("flows",
    /// monitor, obj, fid, [argv...]): `b::TimedCmd`.
    fn at_script(&mut self, t: f64, steps: &Bound<'_, pyo3::types::PyList>) -> PyResult<u64> {
        let mut out = Vec::new();
        for st in steps.iter() {
            let kind: String = st.get_item(0)?.extract()?;
            out.push(match kind.as_str() {
                "set" => b::TimedCmd::Set { obj: st.get_item(1)?.extract()?, var: st.get_item(2)?.extract()?, value: st.get_item(3)?.extract()? },
                "cmd" => b::TimedCmd::Command { obj: st.get_item(1)?.extract()?, argv: st.get_item(2)?.extract()? },
                "flows" => {
                    let argv: Vec<String> = st.get_item(4)?.extract()?;
                    if argv.is_empty() {
                        return Err(PyValueError::new_err("Builder.at_script(): a \"flows\" step needs a command"));
                    }
                    b::TimedCmd::EachFlow { monitor: st.get_item(1)?.extract()?, obj: st.get_item(2)?.extract()?, fid: st.get_item(3)?.extract()?, argv }
                }
                other => return Err(PyValueError::new_err(format!("Builder.at_script(): bad step {other:?}"))),
            });
        }
        self.b.at_script(Seconds(t), out).map_err(verr)
    }

    /// The name of engine object `obj` (what a script's command names it by).
    fn obj_name(&self, obj: u32) -> PyResult<String> {
        let name = self.b.sim().name(obj).to_string();
        match self.b.sim().lookup(&name) {
            Some(id) if id == obj => Ok(name),
            _ => Err(PyValueError::new_err(format!("Builder.obj_name(): no object {obj}"))),
        }
    }

    /// A RED-PD queue's flow monitor on `link` (`makeflowmon link cltype`);
    /// returns the monitor.
    fn redpd_flowmon(&mut self, link: u32, cltype: &str) -> PyResult<u32> {
        self.b.redpd_flowmon(LinkId(link), cltype).map_err(verr)
    }

    /// A wireless scenario's shared parts (build_wireless.rs): the
    /// topography (whole metres), GOD's count of nodes, the channel, the
    /// radio and MAC settings (None: ns-2's default; rates as ns-2 text,
    /// "11Mb"), the interface queue's limit, the traces' channels.
    #[pyo3(signature = (width, height, nodes, routing, mac="802.11", data_rate=None, basic_rate=None, rts_threshold=None,
                        short_retry_limit=None, long_retry_limit=None, slot_bytes=None, max_nodes=None, tx_power=None,
                        rx_threshold=None, cs_threshold=None, ifq_len=50, mac_trace=false, trace=None, nam=None))]
    fn wireless(
        &mut self,
        width: u32,
        height: u32,
        nodes: u32,
        routing: &str,
        mac: &str,
        data_rate: Option<&str>,
        basic_rate: Option<&str>,
        rts_threshold: Option<u32>,
        short_retry_limit: Option<u32>,
        long_retry_limit: Option<u32>,
        slot_bytes: Option<u32>,
        max_nodes: Option<u32>,
        tx_power: Option<f64>,
        rx_threshold: Option<f64>,
        cs_threshold: Option<f64>,
        ifq_len: u32,
        mac_trace: bool,
        trace: Option<String>,
        nam: Option<String>,
    ) -> PyResult<()> {
        use dumbbell_engine::ns2::build_wireless::{AdHocRouting, WirelessMac, WirelessSpec};
        let routing = match routing {
            "AODV" => AdHocRouting::Aodv,
            "DSDV" => AdHocRouting::Dsdv,
            "DSR" => AdHocRouting::Dsr,
            "DumbAgent" => AdHocRouting::Dumb,
            other => return Err(PyValueError::new_err(format!("Builder.wireless(): routing must be AODV, DSDV, DSR or DumbAgent, got {other:?}"))),
        };
        let rate = |r: Option<&str>| r.map(|s| Bandwidth(dumbbell_engine::ns2::tclcl::parse_bw(s)));
        let mac = match mac {
            "802.11" => WirelessMac::Dot11 { data_rate: rate(data_rate), basic_rate: rate(basic_rate), rts_threshold, short_retry_limit, long_retry_limit },
            "tdma" => WirelessMac::Tdma { slot_bytes, max_nodes },
            other => return Err(PyValueError::new_err(format!("Builder.wireless(): mac must be '802.11' or 'tdma', got {other:?}"))),
        };
        let mut spec = WirelessSpec::new(width, height, nodes, routing);
        spec.mac = mac;
        spec.tx_power = tx_power;
        spec.rx_threshold = rx_threshold;
        spec.cs_threshold = cs_threshold;
        spec.ifq_len = ifq_len;
        spec.mac_trace = mac_trace;
        spec.trace = trace;
        spec.nam = nam;
        self.b.wireless(spec).map_err(verr)
    }

    /// A mobile node at (x, y, z) m; returns its id.
    #[pyo3(signature = (x, y, z=0.0))]
    fn mobile_node(&mut self, x: f64, y: f64, z: f64) -> PyResult<u32> {
        Ok(self.b.mobile_node(x, y, z).map_err(verr)?.0)
    }

    /// At `t`, mobile node `node` heads for (x, y) at `speed` m/s.
    fn setdest(&mut self, node: u32, t: f64, x: f64, y: f64, speed: f64) -> PyResult<u64> {
        self.b.setdest(NodeId(node), Seconds(t), x, y, speed).map_err(verr)
    }

    /// What ns-2 prints on C's stdout so far (GOD's count, the channel's
    /// notices), taken.
    fn take_stdout<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.b.take_stdout())
    }

    /// `$agent attach $chan` and `$agent tracevar v` for each of `vars`.
    fn trace_vars(&mut self, agent: u32, vars: Vec<String>, channel: &str) -> PyResult<()> {
        self.b.trace_vars(AgentId(agent), &vars, channel).map_err(verr)
    }

    /// Engine objects of a queue monitor: (monitor, bytes integrator,
    /// packets integrator).
    fn monitor_objs(&self, m: u32) -> (u32, u32, u32) {
        let o = self.b.monitor_objs(MonitorId(m));
        (o.qmon, o.bytes_int, o.pkts_int)
    }

    /// An error model on a link direction.  `pattern`: ("uniform", rate),
    /// ("periodic", period, offset, burstlen) or ("list", [numbers]);
    /// `place`: "queue" (before it) or "link" (after it).
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (link, kind, rate=0.0, period=1.0, offset=0.0, burstlen=0.0, drops=Vec::new(), unit="pkt", mark_ecn=false, place="link", params=Vec::new()))]
    fn error_model(
        &mut self,
        link: u32,
        kind: &str,
        rate: f64,
        period: f64,
        offset: f64,
        burstlen: f64,
        drops: Vec<i64>,
        unit: &str,
        mark_ecn: bool,
        place: &str,
        params: Pairs,
    ) -> PyResult<u32> {
        let pattern = match kind {
            "uniform" => ErrorPattern::Uniform { rate },
            "periodic" => ErrorPattern::Periodic { period, offset, burstlen },
            "list" => ErrorPattern::List(drops),
            other => return Err(PyValueError::new_err(format!("Builder.error_model(): unknown kind {other:?}"))),
        };
        let unit = match unit {
            "pkt" => ErrorUnit::Packet,
            "byte" => ErrorUnit::Byte,
            other => return Err(PyValueError::new_err(format!("Builder.error_model(): unknown unit {other:?}"))),
        };
        let place = match place {
            "queue" => ErrorPlace::BeforeQueue,
            "link" => ErrorPlace::AfterLink,
            other => return Err(PyValueError::new_err(format!("Builder.error_model(): unknown place {other:?}"))),
        };
        let spec = ErrorModelSpec { pattern, unit, mark_ecn, place, params };
        Ok(self.b.error_model(LinkId(link), &spec).map_err(verr)?.0)
    }

    fn set_var(&mut self, obj: u32, var: &str, value: &str) -> PyResult<()> {
        self.b.set_var(obj, var, value).map_err(verr)
    }

    fn get_var(&mut self, obj: u32, var: &str) -> Option<String> {
        self.b.get_var(obj, var)
    }

    /// The values of `vars` of each object, one list per object.
    fn get_vars(&mut self, objs: Vec<u32>, vars: Vec<String>) -> Vec<Vec<Option<String>>> {
        objs.iter().map(|&o| vars.iter().map(|v| self.b.get_var(o, v)).collect()).collect()
    }

    /// A command of an engine object (`$obj cmd args`); its result text.
    fn command(&mut self, obj: u32, argv: Vec<String>) -> PyResult<String> {
        let a: Vec<&str> = argv.iter().map(|s| s.as_str()).collect();
        self.b.command(obj, &a).map_err(verr)
    }

    /// `$ns run`'s set-up (routes, resets), once.
    fn start(&mut self) -> PyResult<()> {
        self.b.start().map_err(verr)
    }

    /// Run until output waits ("output": drain it), `$ns halt` ("halted")
    /// or the end of the events ("done").
    /// Raises KeyboardInterrupt on Ctrl-C and RunLimitExceeded past the
    /// limits (interrupt.rs).
    fn run(&mut self, py: Python<'_>) -> PyResult<&'static str> {
        let limits = self.limits;
        let step = crate::interrupt::run(py, &mut self.b, |b| b.sim(), |b| b.sim_mut(), &limits, |b| b.run(), |s| matches!(s, Ok(Step::Interrupted)));
        crate::spill_result(&self.spill_err)?;
        Ok(match step?.map_err(verr)? {
            Step::Output => "output",
            Step::Halted => "halted",
            Step::Done | Step::Interrupted => "done",
        })
    }

    /// Limit the run (from now on) to `max_events` events dispatched in
    /// all and `max_wall` seconds of wall-clock time from this call; None:
    /// no limit.
    #[pyo3(signature = (max_events=None, max_wall=None))]
    fn set_limits(&mut self, max_events: Option<u64>, max_wall: Option<f64>) -> PyResult<()> {
        self.limits = crate::interrupt::Limits::new(max_events, max_wall)?;
        Ok(())
    }

    fn now(&self) -> f64 {
        self.b.sim().world().now()
    }

    /// Whenever more than `limit` bytes of output are buffered, even in
    /// the middle of an event, hand them to `f(channel, bytes)` at once
    /// (Engine.set_spill).
    fn set_spill(&mut self, f: Py<PyAny>, limit: usize) -> PyResult<()> {
        if limit == 0 {
            return Err(PyValueError::new_err("the spill limit must be at least 1 byte"));
        }
        let s = crate::py_spill(f, self.spill_err.clone());
        self.b.sim_mut().out_mut().set_spill(s, limit);
        Ok(())
    }

    /// Output buffered for channels: [(channel, bytes)].
    fn drain<'py>(&mut self, py: Python<'py>) -> Vec<(String, Bound<'py, PyBytes>)> {
        self.b.sim_mut().out_mut().drain().into_iter().map(|(n, d)| (n, PyBytes::new(py, &d))).collect()
    }

    /// Keep the packet events written to channel `name` as columns.
    /// Capture the packets of the traced links into pcap files in
    /// `dir` (`{prefix}A-B.pcap`, one per link end; crate::pcap), each
    /// record cut to `snaplen` bytes.
    #[pyo3(signature = (dir, prefix, snaplen=65535))]
    fn pcap_start(&mut self, dir: &str, prefix: &str, snaplen: u32) -> PyResult<()> {
        if !(1..=65535).contains(&snaplen) {
            return Err(PyValueError::new_err(format!("the pcap snapshot length must be 1 to 65535 bytes, got {snaplen}")));
        }
        let cap = dumbbell_engine::pcap::Capture::new(std::path::Path::new(dir), prefix, snaplen).map_err(pyo3::exceptions::PyOSError::new_err)?;
        self.b.sim_mut().out_mut().pcap = Some(Box::new(cap));
        Ok(())
    }

    /// Write out the captures; the paths of the files written.
    fn pcap_finish(&mut self) -> PyResult<Vec<String>> {
        match self.b.sim_mut().out_mut().pcap.as_deref_mut() {
            None => Ok(Vec::new()),
            Some(c) => c
                .finish()
                .map(|v| v.into_iter().map(|p| p.display().to_string()).collect())
                .map_err(pyo3::exceptions::PyOSError::new_err),
        }
    }

    fn set_recorded(&mut self, name: &str) {
        self.b.sim_mut().out_mut().set_recorded(name);
    }

    fn take_events<'py>(&mut self, py: Python<'py>) -> Vec<crate::Column<'py>> {
        let e = std::mem::take(&mut self.b.sim_mut().out_mut().events);
        crate::event_columns(py, &e)
    }

    fn take_warnings(&mut self) -> Vec<String> {
        self.b.sim_mut().warning_texts()
    }

    fn live_packets(&self) -> usize {
        self.b.sim().live_packets()
    }

    fn events_dispatched(&self) -> u64 {
        self.b.sim().world().sched().dispatched()
    }

    /// Panic inside the engine (for tests: it must reach Python as an
    /// exception).
    fn debug_panic(&self) {
        panic!("deliberate panic requested by a test");
    }
}

/// ns-2's bandwidth parser as the engine applies it to a link's
/// `bandwidth_` ("10Mb" -> 1e7), and its time parser ("10ms" -> 0.01).
#[pyfunction]
pub fn parse_bw(s: &str) -> f64 {
    dumbbell_engine::ns2::tclcl::parse_bw(s)
}

#[pyfunction]
pub fn parse_time(s: &str) -> f64 {
    dumbbell_engine::ns2::tclcl::parse_time(s)
}
