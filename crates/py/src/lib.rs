//! Python bindings of the engine: one `Engine` object per simulation.
//!
//! The Tcl compatibility layer and the Python API call these methods to build
//! a scenario, then `run()` until the engine yields (a Tcl callback is due,
//! output must be drained, the run halted or finished).  No per-packet calls
//! cross this boundary.  A Rust panic surfaces as a Python exception.

use dumbbell_engine::ns2::objects;
use dumbbell_engine::ns2::tclcl::VarType;
use dumbbell_engine::{Sim, Yield};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod build;
mod fluid;
mod interrupt;
mod tcl;

#[pyclass(unsendable)]
struct Engine {
    sim: Sim,
    /// Limits on the run (`set_limits`).
    limits: interrupt::Limits,
    /// What the spill (`set_spill`) raised, for `run` to raise.
    spill_err: SpillError,
}

/// An exception a spill met inside the engine, kept until the engine's
/// caller can raise it.
type SpillError = std::rc::Rc<std::cell::RefCell<Option<PyErr>>>;

/// An output spill (`Outputs::set_spill`) that calls `f(channel, bytes)`,
/// as the front end writes what it drains; what it raises goes to `err`
/// (the engine cannot raise in the middle of an event) and the bytes stay
/// buffered.
fn py_spill(f: Py<PyAny>, err: SpillError) -> dumbbell_engine::sim::Spill {
    Box::new(move |name, data| {
        Python::attach(|py| match f.call1(py, (name, PyBytes::new(py, data))) {
            Ok(_) => true,
            Err(e) => {
                err.borrow_mut().get_or_insert(e);
                false
            }
        })
    })
}

/// The exception a spill kept, if any.
fn spill_result(err: &SpillError) -> PyResult<()> {
    match err.borrow_mut().take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn type_name(t: VarType) -> &'static str {
    match t {
        VarType::Int => "int",
        VarType::Bool => "bool",
        VarType::Real => "real",
        VarType::Bandwidth => "bandwidth",
        VarType::Time => "time",
        VarType::TracedInt => "traced-int",
        VarType::TracedReal => "traced-real",
    }
}

#[pymethods]
impl Engine {
    #[new]
    fn new() -> Self {
        Engine { sim: Sim::ns2(), limits: Default::default(), spill_err: Default::default() }
    }

    /// Engine class names (`Agent/TCP/Reno`, `Queue/DropTail`, ...).
    #[staticmethod]
    fn kinds() -> Vec<&'static str> {
        objects::kinds()
    }

    /// The class defaults of the registry's classes, as the Tcl the ns-2
    /// library evaluates at start-up.
    #[staticmethod]
    fn class_defaults_tcl() -> String {
        dumbbell_engine::ns2::registry::defaults_tcl()
    }

    /// Bound variables of an engine class as (name, type) pairs.
    #[staticmethod]
    fn bound_vars(kind: &str) -> Option<Vec<(&'static str, &'static str)>> {
        objects::bound_vars(kind).map(|v| v.into_iter().map(|(n, t)| (n, type_name(t))).collect())
    }

    fn create(&mut self, name: &str, kind: &str) -> PyResult<u32> {
        self.sim.create(name, kind).map_err(PyValueError::new_err)
    }

    fn init_defaults(&mut self, id: u32, defaults: Vec<(String, String)>) -> PyResult<()> {
        self.sim.init_defaults(id, &defaults).map_err(PyValueError::new_err)
    }

    /// The Tcl side adopting, as `name`, a flow the engine made: it starts
    /// afresh with the class defaults registered as `handle`.
    fn adopt_flow(&mut self, placeholder: &str, name: &str, handle: u32) -> PyResult<u32> {
        self.sim.adopt_flow(placeholder, name, handle).map_err(PyValueError::new_err)
    }

    fn register_defaults(&mut self, defaults: Vec<(String, String)>) -> u32 {
        self.sim.register_defaults(defaults)
    }

    fn init_defaults_ref(&mut self, id: u32, handle: u32) -> PyResult<()> {
        self.sim.init_defaults_ref(id, handle).map_err(PyValueError::new_err)
    }

    fn lookup(&self, name: &str) -> Option<u32> {
        self.sim.lookup(name)
    }

    fn get_var(&mut self, id: u32, var: &str) -> Option<String> {
        self.sim.get_var(id, var)
    }

    fn set_var(&mut self, id: u32, var: &str, value: &str) -> PyResult<String> {
        self.sim.set_var(id, var, value).map_err(PyKeyError::new_err)
    }

    fn command(&mut self, id: u32, argv: Vec<String>) -> PyResult<String> {
        let a: Vec<&str> = argv.iter().map(|s| s.as_str()).collect();
        self.sim.command(id, &a).map_err(PyValueError::new_err)
    }

    /// Schedule a Tcl callback at absolute time `t` (ns-2 `$ns at`: a
    /// negative `t` means "after -t"); returns its uid.
    fn at(&mut self, t: f64) -> PyResult<u64> {
        let now = self.sim.world().now();
        let delay = if t < 0.0 { -t } else { t - now };
        if delay < 0.0 || delay.is_nan() {
            return Err(PyValueError::new_err("can't schedule command in past"));
        }
        if delay.is_infinite() {
            // ns-2 crashes here (a floating-point exception)
            return Err(PyValueError::new_err(format!("can't schedule command at time {t}: the time must be finite")));
        }
        Ok(self.sim.schedule_tcl(delay))
    }

    /// `$ns at-now`: a callback at the current time.
    fn at_now(&mut self) -> u64 {
        self.sim.schedule_tcl(0.0)
    }

    fn cancel(&mut self, uid: u64) -> bool {
        self.sim.cancel_tcl(uid)
    }

    fn now(&self) -> f64 {
        self.sim.world().now()
    }

    fn now_str(&self) -> String {
        self.sim.now_string()
    }

    /// Run until the engine yields: ("tcl", uid), ("service", 0),
    /// ("halted", 0) or ("done", 0).  Raises KeyboardInterrupt on Ctrl-C
    /// and RunLimitExceeded past the limits (interrupt.rs).
    fn run(&mut self, py: Python<'_>) -> PyResult<(&'static str, u64)> {
        let y = interrupt::run_sim(py, &mut self.sim, &self.limits);
        spill_result(&self.spill_err)?;
        Ok(match y? {
            Yield::Tcl(u) => ("tcl", u),
            Yield::Service => ("service", 0),
            Yield::Halted => ("halted", 0),
            Yield::Done | Yield::Interrupted => ("done", 0),
        })
    }

    /// Limit the run (from now on) to `max_events` events dispatched in
    /// all and `max_wall` seconds of wall-clock time from this call; None:
    /// no limit.
    #[pyo3(signature = (max_events=None, max_wall=None))]
    fn set_limits(&mut self, max_events: Option<u64>, max_wall: Option<f64>) -> PyResult<()> {
        self.limits = interrupt::Limits::new(max_events, max_wall)?;
        Ok(())
    }

    fn halt(&mut self) {
        self.sim.halt();
    }

    /// Reset the clock to zero (`Scheduler run` does this before running).
    fn reset_clock(&mut self) {
        self.sim.reset_clock();
    }

    /// Output buffered for Tcl channels: [(channel, bytes)].
    fn drain<'py>(&mut self, py: Python<'py>) -> Vec<(String, Bound<'py, PyBytes>)> {
        self.sim.out_mut().drain().into_iter().map(|(n, b)| (n, PyBytes::new(py, &b))).collect()
    }

    /// From now on, whenever more than `limit` bytes of output are
    /// buffered, even in the middle of an event, hand them to
    /// `f(channel, bytes)` (as `drain` would give them) at once; what `f`
    /// raises, the next `run` raises.
    fn set_spill(&mut self, f: Py<PyAny>, limit: usize) -> PyResult<()> {
        if limit == 0 {
            return Err(PyValueError::new_err("the spill limit must be at least 1 byte"));
        }
        let s = py_spill(f, self.spill_err.clone());
        self.sim.out_mut().set_spill(s, limit);
        Ok(())
    }

    /// Let `interp`'s stop hook (`TclInterp.set_stop_hook`) end the run in
    /// the middle of an event that makes packets without end, when a
    /// Ctrl-C comes or its wall-clock limit passes (what was buffered is
    /// spilled first: `set_spill`).
    fn set_stop_probe(&mut self, interp: &Bound<'_, tcl::TclInterp>) {
        self.sim.out_mut().set_mid_event(tcl::TclInterp::mid_event_probe(interp));
    }

    fn pending_output(&self) -> usize {
        self.sim.world().out.pending
    }

    /// From now on keep the packet events written to channel `name` as
    /// columns (`take_events`) instead of trace lines.
    /// Capture the packets of the traced links into pcap files in
    /// `dir` (`{prefix}A-B.pcap`, one per link end; crate::pcap), each
    /// record cut to `snaplen` bytes.
    #[pyo3(signature = (dir, prefix, snaplen=65535))]
    fn pcap_start(&mut self, dir: &str, prefix: &str, snaplen: u32) -> PyResult<()> {
        if !(1..=65535).contains(&snaplen) {
            return Err(PyValueError::new_err(format!("the pcap snapshot length must be 1 to 65535 bytes, got {snaplen}")));
        }
        let cap = dumbbell_engine::pcap::Capture::new(std::path::Path::new(dir), prefix, snaplen).map_err(pyo3::exceptions::PyOSError::new_err)?;
        self.sim.out_mut().pcap = Some(Box::new(cap));
        Ok(())
    }

    /// Write out the captures; the paths of the files written.
    fn pcap_finish(&mut self) -> PyResult<Vec<String>> {
        match self.sim.out_mut().pcap.as_deref_mut() {
            None => Ok(Vec::new()),
            Some(c) => c
                .finish()
                .map(|v| v.into_iter().map(|p| p.display().to_string()).collect())
                .map_err(pyo3::exceptions::PyOSError::new_err),
        }
    }

    fn set_recorded(&mut self, name: &str) {
        self.sim.out_mut().set_recorded(name);
    }

    /// The recorded packet events so far, as the event columns of
    /// `read_trace_columns`; the record starts afresh.
    fn take_events<'py>(&mut self, py: Python<'py>) -> Vec<Column<'py>> {
        let e = std::mem::take(&mut self.sim.out_mut().events);
        event_columns(py, &e)
    }

    fn take_tcl_calls(&mut self) -> Vec<String> {
        self.sim.tcl_calls()
    }

    /// Text the engine printed to C's stdout (written at exit, after Tcl's
    /// channels, as in ns-2).
    fn take_c_stdout<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let b = self.sim.take_c_stdout();
        PyBytes::new(py, &b)
    }

    /// The full 4096-byte blocks of the engine's C stdout that ns-2's
    /// stdio buffer (to a file or pipe) would have written so far.
    fn take_c_stdout_blocks<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let b = self.sim.take_c_stdout_blocks(4096);
        PyBytes::new(py, &b)
    }

    fn take_warnings(&mut self) -> Vec<String> {
        self.sim.warning_texts()
    }

    // ---- topology for routing -------------------------------------------

    fn add_link(&mut self, from: i32, to: i32, head: u32) {
        self.sim.routing_mut().add_link(from, to, head);
    }

    fn set_cost(&mut self, from: i32, to: i32, cost: f64) {
        self.sim.routing_mut().set_cost(from, to, cost);
    }

    fn enable_routing(&mut self) {
        self.sim.routing_mut().enabled = true;
    }

    /// `$ns run` began (ns-2's `is-started`), before the agents are reset;
    /// an error if a queue monitor's distribution settings are unusable.
    fn set_started(&mut self) -> PyResult<()> {
        self.sim.check_monitors().map_err(|e| PyValueError::new_err(dumbbell_engine::ns2::class::monitor::histogram_error(e)))?;
        self.sim.set_started();
        dumbbell_engine::ns2::class::tcp::warn_newecn_compat(&mut self.sim);
        Ok(())
    }

    fn route_lookup(&mut self, src: i32, dst: i32) -> i32 {
        if src == dst {
            return src;
        }
        self.sim.routing_mut().next_hop(src, dst).unwrap_or(-1)
    }

    // ---- inspection ---------------------------------------------------------

    fn live_packets(&self) -> usize {
        self.sim.live_packets()
    }

    fn events_dispatched(&self) -> u64 {
        self.sim.world().sched().dispatched()
    }

    /// Panic inside the engine (for tests: a panic must reach Python as an
    /// exception, never abort the process).
    fn debug_panic(&self) {
        panic!("deliberate panic requested by a test");
    }

    fn set_flush_threshold(&mut self, bytes: usize) {
        self.sim.out_mut().set_flush_at(bytes);
    }
}

fn raw<'py, T: Copy>(py: Python<'py>, v: &[T]) -> Bound<'py, PyBytes> {
    // SAFETY: T is a plain numeric type; we copy its bytes out.
    let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) };
    PyBytes::new(py, bytes)
}

type Column<'py> = (&'static str, &'static str, Bound<'py, PyBytes>, Option<Vec<String>>);

fn event_columns<'py>(py: Python<'py>, e: &dumbbell_engine::ns2::tracefile::Events) -> Vec<Column<'py>> {
    vec![
        ("event", "u1", raw(py, &e.event), None),
        ("time", "f8", raw(py, &e.time), None),
        ("from_node", "i4", raw(py, &e.from_node), None),
        ("to_node", "i4", raw(py, &e.to_node), None),
        ("ptype", "u4", raw(py, &e.ptype.codes), Some(e.ptype.names.clone())),
        ("size", "i4", raw(py, &e.size), None),
        ("flags", "u4", raw(py, &e.flags.codes), Some(e.flags.names.clone())),
        ("fid", "i4", raw(py, &e.fid), None),
        ("src_node", "i4", raw(py, &e.src_node), None),
        ("src_port", "i4", raw(py, &e.src_port), None),
        ("dst_node", "i4", raw(py, &e.dst_node), None),
        ("dst_port", "i4", raw(py, &e.dst_port), None),
        ("seqno", "i8", raw(py, &e.seqno), None),
        ("uid", "i8", raw(py, &e.uid), None),
    ]
}

fn parsed_columns<'py>(
    py: Python<'py>,
    p: &dumbbell_engine::ns2::tracefile::Parsed,
) -> (Vec<Column<'py>>, Vec<Column<'py>>, u64) {
    let v = &p.vars;
    let vr = vec![
        ("time", "f8", raw(py, &v.time), None),
        ("src_node", "i4", raw(py, &v.src_node), None),
        ("src_port", "i4", raw(py, &v.src_port), None),
        ("dst_node", "i4", raw(py, &v.dst_node), None),
        ("dst_port", "i4", raw(py, &v.dst_port), None),
        ("var", "u4", raw(py, &v.var.codes), Some(v.var.names.clone())),
        ("value", "f8", raw(py, &v.value), None),
    ];
    (event_columns(py, &p.events), vr, p.other_lines)
}

/// Parse an ns-2 trace file into columns: (events, variable records,
/// other-line count).  Each column is (name, numpy dtype, raw bytes,
/// category names or None).
#[pyfunction]
fn read_trace_columns<'py>(py: Python<'py>, path: &str) -> PyResult<(Vec<Column<'py>>, Vec<Column<'py>>, u64)> {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(8);
    let p = py
        .detach(|| dumbbell_engine::ns2::tracefile::parse_file(std::path::Path::new(path), threads))
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{path}: {e}")))?;
    Ok(parsed_columns(py, &p))
}

/// The congestion controls of Agent/TCP/Linux (`select_ca` names), in
/// the engine's order (not LEDBAT, the full TCP's only).
#[pyfunction]
fn congestion_controls() -> Vec<&'static str> {
    dumbbell_engine::cc::Kind::ALL.iter().filter(|k| k.linux_dialect()).map(|k| k.name()).collect()
}

/// The full TCP's check of a congestion control and its attributes
/// (`socket::cc::Cc::with_params`): the error, or None.
#[pyfunction]
fn full_congestion_control_error(name: &str, params: Vec<(String, i32)>) -> Option<String> {
    dumbbell_engine::socket::cc::Cc::with_params(name, &params).err()
}

/// The congestion controls of the full TCP (`cc=`) with the attributes of
/// their ns-3 dialect and the defaults: [(name, [(attribute, default)])].
#[pyfunction]
fn full_congestion_controls() -> Vec<(&'static str, Vec<(&'static str, i32)>)> {
    dumbbell_engine::socket::cc::full_ccs().into_iter().map(|(n, ps)| (n, ps.iter().map(|p| (p.name, p.default)).collect())).collect()
}

/// C `atof` as ns-2's commands use it (`$ns at`, link costs): the longest
/// numeric prefix, hex included, 0.0 when there is none.
#[pyfunction]
fn atof(s: &str) -> f64 {
    dumbbell_engine::ns2::tclcl::parse_real(s)
}

/// The same for trace text held in memory.
#[pyfunction]
fn parse_trace_bytes<'py>(py: Python<'py>, data: &[u8]) -> PyResult<(Vec<Column<'py>>, Vec<Column<'py>>, u64)> {
    let p = dumbbell_engine::ns2::tracefile::parse(data).map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))?;
    Ok(parsed_columns(py, &p))
}

/// A trace file read strictly, a chunk of lines at a time (`dumbbell
/// convert`): each chunk is (event columns, variable-record columns,
/// lines skipped (`v` lines, blank lines), lines read so far).  A line
/// that is not a trace record raises ValueError "path:line: message".
/// (event columns, variable-record columns, lines skipped, lines read).
type Chunk<'py> = (Vec<Column<'py>>, Vec<Column<'py>>, u64, u64);

#[pyclass]
struct TraceChunks {
    path: String,
    chunks: dumbbell_engine::ns2::tracefile::Chunks<std::io::BufReader<std::fs::File>>,
}

#[pymethods]
impl TraceChunks {
    #[new]
    fn new(path: &str) -> PyResult<Self> {
        let f = std::fs::File::open(path).map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("{path}: {e}")))?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(pyo3::exceptions::PyOSError::new_err(format!("{path}: is a directory")));
        }
        let r = std::io::BufReader::with_capacity(1 << 20, f);
        Ok(TraceChunks { path: path.to_string(), chunks: dumbbell_engine::ns2::tracefile::Chunks::new(r) })
    }

    fn next_chunk<'py>(&mut self, py: Python<'py>, max_lines: usize) -> PyResult<Option<Chunk<'py>>> {
        let chunks = &mut self.chunks;
        let got = py.detach(|| chunks.next_chunk(max_lines.max(1)));
        match got {
            Ok(None) => Ok(None),
            Ok(Some(p)) => {
                let (ev, vr, other) = parsed_columns(py, &p);
                Ok(Some((ev, vr, other, self.chunks.lineno)))
            }
            Err((line, msg)) => Err(PyValueError::new_err(format!("{}:{}: {}", self.path, line, msg))),
        }
    }
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Engine>()?;
    m.add_class::<build::Builder>()?;
    m.add_function(wrap_pyfunction!(build::parse_bw, m)?)?;
    m.add_function(wrap_pyfunction!(build::parse_time, m)?)?;
    m.add_class::<tcl::TclBackend>()?;
    m.add_class::<tcl::TclInterp>()?;
    m.add("TclError", m.py().get_type::<tcl::TclError>())?;
    m.add("RunLimitExceeded", m.py().get_type::<interrupt::RunLimitExceeded>())?;
    m.add_function(wrap_pyfunction!(tcl::tcl_fault, m)?)?;
    m.add_function(wrap_pyfunction!(read_trace_columns, m)?)?;
    m.add_class::<TraceChunks>()?;
    m.add_function(wrap_pyfunction!(parse_trace_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(atof, m)?)?;
    m.add_function(wrap_pyfunction!(fluid::fluid_integrate, m)?)?;
    m.add_function(wrap_pyfunction!(congestion_controls, m)?)?;
    m.add_function(wrap_pyfunction!(full_congestion_controls, m)?)?;
    m.add_function(wrap_pyfunction!(full_congestion_control_error, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
