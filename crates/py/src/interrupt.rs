//! Ctrl-C and run limits for simulations run from Python.
//!
//! While the engine runs, Python cannot: its SIGINT handler only sets a
//! flag, which Python looks at between bytecodes.  So a watchdog thread
//! interrupts every registered run every `TICK` (`Sim::interrupter`: two
//! atomic stores; the run returns `Interrupted` between two events, which
//! changes nothing about the simulation), and the binding then lets
//! Python act on a pending signal (`check_signals` raises
//! `KeyboardInterrupt`) and checks the run's limits before it runs on.
//! A run therefore answers Ctrl-C within a tick plus one event.

use dumbbell_engine::sim::{Interrupter, Sim, Yield};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pyo3::create_exception!(
    _engine,
    RunLimitExceeded,
    PyRuntimeError,
    "A run went past its limit of events or wall-clock time (max_events, max_wall)."
);

/// How often a running simulation is interrupted to look for signals.
const TICK: Duration = Duration::from_millis(20);

/// The runs in progress (a token each) and the process the watchdog
/// thread was started in (threads do not survive `fork`: the sweep's
/// workers are forked).
struct Registry {
    runs: Vec<(u64, Interrupter)>,
    /// Tcl interpreters' async handlers (tcl.rs), each with its wall-clock
    /// deadline: marked at a tick when there is something to act on (a
    /// Ctrl-C seen, the deadline passed), and only then.
    tcl: Vec<TclWatch>,
    next: u64,
    watchdog_pid: Option<u32>,
}

struct TclWatch {
    token: u64,
    handler: usize,
    mark: unsafe extern "C" fn(*mut std::ffi::c_void),
    /// The interpreter's limits, shared with its async handler (which
    /// checks them when marked): one value, set by `TclLimits::set`.
    limits: TclLimits,
}

/// The wall-clock limit of a watched Tcl interpreter, held once for the
/// watchdog (which marks the interpreter's handler past the deadline) and
/// the handler (which reports it).
#[derive(Clone, Default)]
pub struct TclLimits(std::sync::Arc<Mutex<Limits>>);

impl TclLimits {
    pub fn set(&self, l: Limits) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = l;
    }

    pub fn get(&self) -> Limits {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { runs: Vec::new(), tcl: Vec::new(), next: 0, watchdog_pid: None });

/// A SIGINT arrived since Tcl last looked (set by `on_sigint`).
static SIGINT_SEEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The SIGINT disposition `on_sigint` replaced (Python's handler), called
/// after it.
static PREVIOUS: Mutex<Option<libc::sigaction>> = Mutex::new(None);

extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    SIGINT_SEEN.store(true, std::sync::atomic::Ordering::Relaxed);
    // (try_lock: a signal handler must not wait; the slot is written once,
    // before the handler is installed)
    if let Ok(prev) = PREVIOUS.try_lock() {
        if let Some(p) = *prev {
            unsafe {
                if p.sa_flags & libc::SA_SIGINFO != 0 {
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) = std::mem::transmute(p.sa_sigaction);
                    f(sig, info, ctx);
                } else if p.sa_sigaction != libc::SIG_DFL && p.sa_sigaction != libc::SIG_IGN {
                    let f: extern "C" fn(libc::c_int) = std::mem::transmute(p.sa_sigaction);
                    f(sig);
                }
            }
        }
    }
}

/// Note SIGINTs for Tcl (`SIGINT_SEEN`), then pass them on to the handler
/// already there (Python's, which raises KeyboardInterrupt).  Once per
/// process; a handler Python installs later replaces this one, and Ctrl-C
/// then reaches the engine's runs only.
fn hook_sigint() {
    let mut prev = PREVIOUS.lock().unwrap_or_else(|e| e.into_inner());
    if prev.is_some() {
        return;
    }
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
            return; // (a background job: SIGINT ignored, leave it so)
        }
        *prev = Some(old);
        drop(prev);
        let mut new: libc::sigaction = std::mem::zeroed();
        new.sa_sigaction = on_sigint as *const () as usize;
        new.sa_flags = libc::SA_SIGINFO | (old.sa_flags & libc::SA_RESTART);
        libc::sigemptyset(&mut new.sa_mask);
        libc::sigaction(libc::SIGINT, &new, std::ptr::null_mut());
    }
}

/// Has a SIGINT come that Tcl has not yet answered?  (Without taking it.)
pub fn sigint_seen() -> bool {
    SIGINT_SEEN.load(std::sync::atomic::Ordering::Relaxed)
}

/// Has a SIGINT come since the last call?  (Tcl's async handler asks.)
pub fn take_sigint() -> bool {
    SIGINT_SEEN.swap(false, std::sync::atomic::Ordering::Relaxed)
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn watchdog() {
    // For the fork test only (tests/badinput/test_runaway.py): keep the
    // registry locked this long at every tick, so that a fork without the
    // at-fork handlers would catch it locked.
    let hold = std::env::var("DUMBBELL_TEST_WATCHDOG_HOLD_MS").ok().and_then(|v| v.parse::<u64>().ok()).map(Duration::from_millis);
    loop {
        std::thread::sleep(TICK);
        let r = registry();
        if let Some(h) = hold {
            std::thread::sleep(h);
        }
        for (_, i) in &r.runs {
            // SAFETY: a run is in the registry only while `run` below holds
            // its `Sim` borrowed (it unregisters under this lock before it
            // returns), so the `Sim` is neither moved nor dropped.
            unsafe { i.interrupt() };
        }
        let sigint = SIGINT_SEEN.load(std::sync::atomic::Ordering::Relaxed);
        let now = Instant::now();
        for w in &r.tcl {
            if sigint || w.limits.get().deadline().is_some_and(|d| now >= d) {
                // SAFETY: Tcl_AsyncMark may be called from any thread; the
                // handler is deleted only after `unwatch_tcl` (under this lock).
                unsafe { (w.mark)(w.handler as *mut std::ffi::c_void) };
            }
        }
    }
}

/// Limits on one run (none by default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after this many events dispatched (checked every tick: the run
    /// stops at the first check past it).
    pub max_events: Option<u64>,
    /// Stop when the wall clock passes this instant.
    pub deadline: Option<Instant>,
    /// The wall-clock limit as given, for the message.
    pub max_wall: Option<f64>,
}

impl Limits {
    pub fn new(max_events: Option<u64>, max_wall: Option<f64>) -> PyResult<Limits> {
        if let Some(w) = max_wall {
            if !(w > 0.0 && w.is_finite()) {
                return Err(pyo3::exceptions::PyValueError::new_err(format!("max_wall must be a positive number of seconds, got {w}")));
            }
        }
        if max_events == Some(0) {
            return Err(pyo3::exceptions::PyValueError::new_err("max_events must be at least 1, got 0"));
        }
        Ok(Limits { max_events, deadline: max_wall.map(|w| Instant::now() + Duration::from_secs_f64(w)), max_wall })
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The wall-clock limit alone (for Tcl, which has no events; `events`
    /// names what the engine had dispatched, when known).
    pub fn check_wall(&self) -> PyResult<()> {
        self.wall(None)
    }

    fn wall(&self, events: Option<u64>) -> PyResult<()> {
        if let (Some(d), Some(w)) = (self.deadline, self.max_wall) {
            if Instant::now() >= d {
                let n = events.map(|e| format!(" ({e} events dispatched)")).unwrap_or_default();
                return Err(RunLimitExceeded::new_err(format!("the run passed its limit of {w} s of wall-clock time{n}")));
            }
        }
        Ok(())
    }

    fn check(&self, sim: &Sim) -> PyResult<()> {
        let events = sim.world().sched().dispatched();
        if let Some(m) = self.max_events {
            if events >= m {
                return Err(RunLimitExceeded::new_err(format!("the run passed its limit of {m} events ({events} dispatched)")));
            }
        }
        self.wall(Some(events))
    }
}

/// Run `owner` (which holds a `Sim`: `sim_of`, `sim_mut`) through `step`
/// (which calls `Sim::run` or a wrapper of it) until it yields something
/// other than an interruption, answering signals and `limits` at each tick,
/// and, in the middle of an event that makes packets without end, through
/// `StopInEvent` (unless the front end set its own `MidEvent`: `dumbbell
/// run` ends the process there).
pub fn run<O, T>(
    py: Python<'_>,
    owner: &mut O,
    sim_of: fn(&O) -> &Sim,
    sim_mut: fn(&mut O) -> &mut Sim,
    limits: &Limits,
    mut step: impl FnMut(&mut O) -> T,
    interrupted: impl Fn(&T) -> bool,
) -> PyResult<T> {
    if sim_of(owner).world().out.stopped_in_event() {
        return Err(PyRuntimeError::new_err(
            "this simulation was stopped in the middle of an event (Ctrl-C or its max_wall limit): \
             its state is not one a whole event leaves, so it cannot run on; build it again",
        ));
    }
    // A signal that arrived between runs: answer it before running.
    py.check_signals()?;
    limits.check(sim_of(owner))?;
    let token = {
        let mut r = registry();
        start_watchdog(&mut r).map_err(|e| PyRuntimeError::new_err(format!("cannot start the watchdog thread: {e}")))?;
        let t = r.next;
        r.next += 1;
        r.runs.push((t, sim_of(owner).interrupter()));
        t
    };
    let own_stop = !sim_of(owner).world().out.has_mid_event();
    if own_stop {
        sim_mut(owner).out_mut().set_mid_event(Box::new(StopInEvent { limits: *limits }));
    }
    let end = |owner: &mut O| {
        registry().runs.retain(|(t, _)| *t != token);
        if own_stop {
            sim_mut(owner).out_mut().clear_mid_event();
        }
    };
    loop {
        let y = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| step(owner))) {
            Ok(y) => y,
            Err(payload) => {
                end(owner);
                match payload.downcast::<Stopped>() {
                    Ok(stopped) => {
                        sim_mut(owner).out_mut().set_stopped_in_event();
                        return Err(stopped.0);
                    }
                    Err(other) => std::panic::resume_unwind(other),
                }
            }
        };
        if !interrupted(&y) {
            end(owner);
            return Ok(y);
        }
        if let Err(e) = py.check_signals().and_then(|_| limits.check(sim_of(owner))) {
            end(owner);
            return Err(e);
        }
    }
}

/// The stop `run` gives a simulation run from Python, in the middle of an
/// event (`MidEvent`): a Ctrl-C (Python's pending KeyboardInterrupt) or the
/// wall-clock limit unwinds the event to `run`, which raises it and marks
/// the simulation as one that cannot run on.  The unwinding is
/// `resume_unwind`, which does not call the panic hook (nothing printed).
struct StopInEvent {
    limits: Limits,
}

/// What `StopInEvent` unwinds with: the exception `run` raises.
struct Stopped(PyErr);

impl dumbbell_engine::sim::MidEvent for StopInEvent {
    fn due(&mut self) -> bool {
        // (GIL held: the engine runs inside a Python call; a pending
        // signal's check is one load when none is pending)
        Python::attach(|_| unsafe { pyo3::ffi::PyErr_CheckSignals() } != 0)
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn stop(&mut self) {
        let err = Python::attach(|py| match PyErr::take(py) {
            Some(e) => e,
            None => {
                let w = self.limits.max_wall.unwrap_or(0.0);
                RunLimitExceeded::new_err(format!("the run passed its limit of {w} s of wall-clock time in the middle of an event"))
            }
        });
        std::panic::resume_unwind(Box::new(Stopped(err)));
    }
}

thread_local! {
    /// The registry's lock, held by a thread that is forking (`fork_prepare`
    /// to `fork_parent`/`fork_child`).
    static FORKING: std::cell::RefCell<Option<std::sync::MutexGuard<'static, Registry>>> = const { std::cell::RefCell::new(None) };
}

/// Before `fork` (the sweep's fork servers fork): wait until the watchdog
/// is outside the registry, and hold it there.  Else a child forked while
/// the watchdog held the registry's lock (or Tcl's async lock, taken inside
/// it by Tcl_AsyncMark) would find it locked for ever: the watchdog thread
/// does not exist in the child to release it.
extern "C" fn fork_prepare() {
    let g = registry();
    FORKING.with(|f| *f.borrow_mut() = Some(g));
}

/// After `fork`, in the parent and in the child (the forking thread is the
/// child's one thread, with the same thread-local storage): release it.
extern "C" fn fork_release() {
    FORKING.with(|f| drop(f.borrow_mut().take()));
}

/// The watchdog thread, started once per process (threads do not survive
/// `fork`).
fn start_watchdog(r: &mut Registry) -> std::io::Result<()> {
    static AT_FORK: std::sync::Once = std::sync::Once::new();
    // SAFETY: the handlers only lock and unlock the registry, from the
    // forking thread.
    AT_FORK.call_once(|| unsafe {
        libc::pthread_atfork(Some(fork_prepare), Some(fork_release), Some(fork_release));
    });
    let pid = std::process::id();
    if r.watchdog_pid != Some(pid) {
        std::thread::Builder::new().name("dumbbell-watchdog".into()).spawn(watchdog)?;
        r.watchdog_pid = Some(pid);
    }
    Ok(())
}

/// Have the watchdog mark a Tcl async handler every tick (`mark` is the
/// interpreter's Tcl_AsyncMark) when a Ctrl-C came or `limits`' deadline
/// passed; returns the token `unwatch_tcl` takes.
pub fn watch_tcl(handler: usize, mark: unsafe extern "C" fn(*mut std::ffi::c_void), limits: TclLimits) -> u64 {
    let mut r = registry();
    // Without the thread there is no Ctrl-C in pure Tcl loops, nothing worse.
    let _ = start_watchdog(&mut r);
    let t = r.next;
    r.next += 1;
    r.tcl.push(TclWatch { token: t, handler, mark, limits });
    drop(r);
    hook_sigint();
    t
}

pub fn unwatch_tcl(token: u64) {
    registry().tcl.retain(|w| w.token != token);
}

/// Start this process's watchdog thread if it has none: a process forked
/// after the interpreter was watched (a sweep's fork server) has the
/// registry but not the thread, which a wall-clock limit on Tcl needs.
pub fn ensure_watchdog() {
    let _ = start_watchdog(&mut registry());
}

/// `run` for a plain `Sim::run`.
pub fn run_sim(py: Python<'_>, sim: &mut Sim, limits: &Limits) -> PyResult<Yield> {
    run(py, sim, |s| s, |s| s, limits, |s| s.run(), |y| *y == Yield::Interrupted)
}
