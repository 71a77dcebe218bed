"""Run an ns-2 script: Tcl (from Python's standard library) with Dumbbell's
OTcl implementation and ns-2 library, bound to the Rust engine.

The engine never calls Python per packet.  Tcl talks to it through a few
commands (``::dumbbell::be::*``); the engine runs until a Tcl callback is
due, then Python evaluates it and resumes the engine.  Output the engine
produces for a Tcl channel (packet and variable traces) is buffered in the
engine and written into the channel before any Tcl code runs, so it
interleaves with the script's own ``puts`` exactly as in ns-2.
"""

# No `from __future__ import annotations` on the `dumbbell run` path: importing
# __future__ costs each run ~0.2 ms, and these annotations are valid as they
# are on Python >= 3.10.
import os
import sys
from .._engine import Engine, RunLimitExceeded, TclBackend, TclInterp, atof

# (os.path rather than pathlib: `dumbbell run` should not pay for importing it)
HERE = os.path.dirname(os.path.realpath(__file__))
TCL_DIR = os.path.join(HERE, "tcl")
LIB_DIR = os.path.join(HERE, "lib")

# Dumbbell's ns-2 library (files of LIB_DIR), in the order every interpreter
# loads it, after otcl.tcl and tclobject.tcl.  Only the files' top-level code
# runs as they load (their methods call one another once a script runs), so
# what orders them is which classes each makes and adds to: classes.tcl makes
# the engine's classes, which every other file gives methods; simulator.tcl
# makes the Simulator, which the next five add methods to; link.tcl makes
# Link and SimpleLink, dynamics.tcl adds to SimpleLink; nam.tcl adds to
# classes of all of these; defaults.tcl, last, sets class defaults.  Among
# trace.tcl to agent.tcl, this order makes the library's classes in the
# order `Class info instances` listed them when the library was one file
# (but ErrorModel/Uniform, now made with the links).
LIB_FILES = ("classes.tcl", "simulator.tcl", "trace.tcl", "node.tcl", "link.tcl",
             "dynamics.tcl", "rtproto.tcl", "agent.tcl", "wireless.tcl", "lan.tcl", "quickstart.tcl", "nam.tcl", "cbq.tcl",
             "address.tcl", "defaults.tcl")

FALLBACKS = ("tkinter", "pycommands")
# Output the engine may buffer before it hands it to its Tcl channels in the
# middle of an event (it yields to drain at 4 MB between events).
SPILL = 16 << 20

# The body of our `exit`: it flushes every channel and ends the process.
# How the runner starts the script (ns-2's main sources it the same way).
SOURCE_SCRIPT = "source.orig $::dumbbell::script_path"

# Tcl's exit takes an integer in Tcl's syntax (0x7f, 010 octal) and refuses
# anything else ("exit abc" is an error, exit status 1, as in ns-2).
EXIT_BODY = (' if {![string is integer -strict $code]} {'
             ' return -code error "expected integer but got \\"$code\\"" };'
             ' ::dumbbell::be::exit [expr {$code}] ')


def forced_fallbacks() -> frozenset[str]:
    """The fallbacks the environment variable DUMBBELL_TCL forces (words
    separated by commas or spaces): "tkinter", tkinter.Tcl() as the
    interpreter even where our binding can load libtcl 8.6; "pycommands",
    the backend commands in Python instead of the engine's Tcl commands.
    They are what a run does where libtcl8.6.so cannot be opened, or where
    the interpreter's stub table is not Tcl 8.6's; for the tests, and to tell
    a problem of the binding from one of the engine."""
    words = frozenset(os.environ.get("DUMBBELL_TCL", "").replace(",", " ").split())
    unknown = words.difference(FALLBACKS)
    if unknown:
        raise ValueError(f"DUMBBELL_TCL: unknown fallback {' '.join(sorted(unknown))} (known: {' '.join(FALLBACKS)})")
    return words


class ScriptExit(BaseException):
    """The script's `exit` in a runner that must not end the process
    (`exit_process=False`): `run` returns the code."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


class Ns2Runner:
    """One ns-2 interpreter bound to one engine.  With `exit_process` (as
    `dumbbell run`), the script's `exit` ends the process, as ns-2's does;
    without (`dumbbell.run_tcl`, in a caller's process), it ends the run and
    `run` returns its code."""

    def __init__(self, script: str, argv: list[str], own_tcl: bool = False, exit_process: bool = True,
                 safe: bool = False, pcap: str | None = None, pcap_snaplen: int = 65535):
        self.script = script
        self.exit_process = exit_process
        self.safe = safe
        self.tcl = None
        self.fallbacks = forced_fallbacks()
        if own_tcl and "tkinter" not in self.fallbacks:
            # Our own binding of the system's libtcl: set up as tkinter.Tcl()
            # would be, without loading tkinter and Tk (a third of the
            # start-up).  Errors are dumbbell._engine.TclError.
            prog = sys.executable  # what tkinter gives Tcl_FindExecutable
            self.tcl = TclInterp.create(prog)
        if self.tcl is not None:
            from .._engine import TclError
        else:
            import tkinter
            from tkinter import TclError

            # Strings in, strings out: ns-2 semantics depend on Tcl's exact
            # string forms, so tkinter must not convert values to Python numbers.
            tkinter.wantobjects = 0
            self.tcl = tkinter.Tcl()
        self.TclError = TclError
        self.eng = Engine()
        # One event can write without end (a CBR burst of 2^31 bytes): past
        # SPILL bytes the engine hands its output over in mid-event.
        # Our binding writes it without Python code in between, so that a
        # Ctrl-C or a run limit meanwhile cannot fail a write that was made
        # (it would be made twice) nor leave the rest of the event in
        # memory; `dumbbell run` stops there (`_stop_in_event`).
        if isinstance(self.tcl, TclInterp):
            self.eng.set_spill(self.tcl.spill_write, SPILL)
            if exit_process:
                self.tcl.set_stop_hook(self._stop_in_event)
                # and while one event makes packets without end (a UDP
                # agent sending 2^31 bytes at once), writing little
                self.eng.set_stop_probe(self.tcl)
        else:
            self.eng.set_spill(self._spill, SPILL)
        if pcap is not None:
            # packet captures of the traced links (crate::pcap; docs/outputs.md)
            self.eng.pcap_start(pcap, "", pcap_snaplen)
        self.at_scripts: dict[int, str] = {}
        self.kinds = set(Engine.kinds())
        self.rng_bind: str | None = None
        self.kind_cache: dict[tuple, str] = {}
        self.callback_error: tuple[str, str, str] | None = None
        self._panic: BaseException | None = None
        self.backend = None
        self.defaults_cache: dict[tuple, int] = {}
        self.warned: set[str] = set()
        self.exit_code: int | None = None
        self.halted = False
        self._register()
        self._load_library()
        self.set_args(script, argv)

    def set_limits(self, max_events: int | None = None, max_wall: float | None = None) -> None:
        """`--max-events`, `--max-wall`: limits on the engine's run and (the
        wall clock) on the script's own Tcl loops."""
        if max_events is None and max_wall is None:
            return
        self.eng.set_limits(max_events, max_wall)
        if max_wall is not None and isinstance(self.tcl, TclInterp):
            self.tcl.set_limits(max_wall)

    def set_args(self, script: str, argv: list[str]) -> None:
        """The script to run and its argv (argv0, argv, argc), as ns-2 sets
        them.  A fork server prepares a runner once and sets these per run."""
        self.script = script
        t = self.tcl
        t.setvar("argv0", script)
        t.call("set", "argv", t.call("list", *argv) if argv else "")
        t.setvar("argc", str(len(argv)))

    # ---- setup -----------------------------------------------------------

    def _register(self):
        """Bind the backend commands.

        tkinter drops the message of an exception raised inside a Tcl
        callback, so each Python function is wrapped: it returns its error as
        a marked string, and a one-line Tcl proc turns that into a real Tcl
        error (catchable by scripts, with its message intact).  The procs use
        fully qualified commands because ::dumbbell::be has a `set` of its own.
        """
        t = self.tcl
        t.eval("namespace eval ::dumbbell::be {}; namespace eval ::dumbbell::py {}")
        reg = {
            "shadow": self.be_shadow,
            "boundvars": self.be_boundvars,
            "kinds": self.be_kinds,
            "adopt": self.be_adopt,
            "get": self.be_get,
            "set": self.be_set,
            "cmd": self.be_cmd,
            "delete": self.be_delete,
            "sim": self.be_sim,
            "drain": self.drain,
            "warn": self.warn,
            "exit": self.be_exit,
        }
        # The commands scripts call most (shadow, get, set, cmd, ...) are
        # the engine's own Tcl commands, which call the engine without
        # Python in between; they call after_engine when the engine has
        # output, warnings or Tcl to run.  The others (and all of them
        # where the engine's cannot be installed) are Python's, made only
        # where the engine has none (making them first cost ~0.13 M
        # instructions per run).
        t.createcommand("::dumbbell::py::after_engine", self._guard(self.after_engine))
        have = ()
        if "pycommands" not in self.fallbacks:
            # (None if the interpreter's stub table is not Tcl 8.6's.)
            self.backend = TclBackend.install(getattr(t, "tk", t), self.eng)
            if self.backend is not None:
                have = t.splitlist(t.eval("info commands ::dumbbell::be::*"))
        for name, fn in reg.items():
            if f"::dumbbell::be::{name}" in have:
                continue
            t.createcommand(f"::dumbbell::py::{name}", self._guard(fn))
            t.eval(
                f"proc ::dumbbell::be::{name} args {{"
                f" ::set r [::dumbbell::py::{name} {{*}}$args];"
                " ::if {[::string index $r 0] eq \"\\x01\"} {"
                " ::if {[::string index $r 1] eq \"\\x02\"} {::return -code error -errorcode {DUMBBELL VALUE} [::string range $r 2 end]};"
                " ::return -code error [::string range $r 1 end]};"
                " ::return $r }"
            )

    ERR = "\x01"
    # After ERR: the error is a refused value (error code DUMBBELL VALUE, as
    # the engine's own commands give it).
    VALUE = "\x02"

    @property
    def panic(self) -> BaseException | None:
        """An engine panic raised inside a backend command, if any."""
        if self._panic is None and self.backend is not None:
            return self.backend.panic()
        return self._panic

    @panic.setter
    def panic(self, e: BaseException | None) -> None:
        self._panic = e

    def after_engine(self, run_calls: str) -> str:
        """After an engine call made by a backend command: write its output,
        print its warnings and, for commands, run the Tcl it asked for."""
        self._service()
        if run_calls == "1":
            self._run_engine_tcl_calls()
        return ""

    def _set_rng_bind(self, kind: str | None) -> None:
        self.rng_bind = kind
        if self.backend is not None:
            self.backend.set_rng_bind(kind)

    def _guard(self, fn):
        def call(*args):
            try:
                r = fn(*args)
            except self.TclError as e:
                return self.ERR + str(e)
            except (ValueError, KeyError) as e:
                return self.ERR + str(e.args[0] if e.args else e)
            except BaseException as e:
                if type(e).__name__ != "PanicException":
                    raise
                self.panic = e
                return self.ERR + f"internal error in the engine: {e}"
            return "" if r is None else r

        return call

    def _load_library(self):
        t = self.tcl
        # Scripts call helpers as "exec $PERL ...", like ns-2's autoconf sets.
        t.setvar("PERL", "perl")
        # ns-2 prints every double with 17 significant digits (its start-up
        # sets tcl_precision 17; checked against /usr/bin/ns).
        t.setvar("tcl_precision", "17")
        # Python's Tcl has no `exit` (tkinter removes it); ours flushes every
        # channel, as Tcl's exit would, and ends the process with the code.
        t.eval(f"proc exit {{{{code 0}}}} {{{EXIT_BODY}}}")
        # Flushing every channel, and asking whether one is a command
        # pipeline, in procs of their own: a loop at global level would use
        # (and clobber) a script's variable `c`.
        t.eval("proc ::dumbbell::flush_channels {} { foreach c [file channels] { catch {flush $c} } }")
        t.eval("proc ::dumbbell::pipelines {} { foreach c [file channels] { if {[llength [pid $c]]} { return 1 } }; return 0 }")
        # The library's files are evaluated command by command (Tcl_EvalEx),
        # not sourced: `source` compiles a whole file to bytecode first,
        # which costs more than running its commands once.  (ASCII files;
        # `info script` is empty while they run: tclobject.tcl asks for it
        # only where ::Object does not exist, which it does here.)  Read as
        # bytes and decoded by bytes.decode, whose ASCII decoder is built in:
        # a text file opened with encoding="ascii" imports encodings.ascii
        # (~1 M instructions).  Read with os.open and os.read, their path
        # joined with os.sep: per file, a file object of open(path, "rb")
        # (FileIO, a BufferedReader and its isatty check) costs ~14 k
        # instructions more, os.path.join ~7 k.
        def load(directory: str, name: str) -> None:
            fd = os.open(directory + os.sep + name, os.O_RDONLY)
            try:
                data = b""
                while chunk := os.read(fd, 1 << 17):
                    data += chunk
            finally:
                os.close(fd)
            t.eval(data.decode("ascii"))
        load(TCL_DIR, "otcl.tcl")
        # The library's methods get their procs when first looked up (their
        # argument lists need no check at definition).
        t.eval("set ::otcl::_::deferprocs 1")
        load(TCL_DIR, "tclobject.tcl")
        for f in LIB_FILES:
            if f == "defaults.tcl":
                # the engine's classes' defaults, from its class registry
                t.eval(Engine.class_defaults_tcl())
            load(LIB_DIR, f)
        t.eval("set ::otcl::_::deferprocs 0")
        # The RNGs ns-2 creates at start-up, bound to the engine's streams.
        self._set_rng_bind("RNG/default")
        t.eval("set defaultRNG [new RNG]")
        self._set_rng_bind("RNG/rtglib")
        t.eval("set rtglibRNG [new RNG]")
        self._set_rng_bind(None)

    # ---- backend commands ----------------------------------------------------

    def warn(self, msg: str):
        if msg not in self.warned:
            self.warned.add(msg)
            self.drain()
            sys.stderr.write(f"dumbbell: warning: {msg}\n")
            sys.stderr.flush()
        return ""

    def _service(self):
        """Write engine output into Tcl channels; print engine warnings."""
        for w in self.eng.take_warnings():
            self.warn(w)
        if self.eng.pending_output():
            self.drain()

    def drain(self, *args):
        for chan, data in self.eng.drain():
            self.tcl.call("::puts", "-nonewline", chan, data.decode("latin-1"))
        return ""

    def _spill(self, chan: str, data: bytes) -> None:
        """Output the engine hands over in the middle of an event (SPILL):
        written as `drain` writes it; it must not call the engine."""
        self.tcl.call("::puts", "-nonewline", chan, data.decode("latin-1"))

    def _kind_of(self, cls: str, epoch: str) -> str | None:
        """The engine class of an OTcl class: the first one in its heritage
        (cached until the class hierarchy or class variables change)."""
        kind = self.kind_cache.get((cls, epoch))
        if kind is None:
            heritage = [cls, *self.tcl.splitlist(self.tcl.call("::otcl::api::heritage", cls))]
            kind = next((c for c in heritage if c in self.kinds), "")
            self.kind_cache[(cls, epoch)] = kind
        return kind or None

    def be_adopt(self, placeholder):
        """The next split object created takes over the flow `placeholder`
        (made by the engine for a flow monitor) instead of creating one."""
        self.adopt_next = placeholder
        return ""

    def _defaults_handle(self, kind: str, cls: str, epoch: str) -> int:
        """The engine's handle for the class defaults of `cls` (engine class
        `kind`).  They change only when a class variable is set; the Tcl
        layer counts those changes in ::dumbbell::defaults_epoch."""
        key = (kind, cls, epoch)
        handle = self.defaults_cache.get(key)
        if handle is None:
            d = self.tcl.splitlist(self.tcl.call("::dumbbell::class_defaults", kind, cls))
            handle = self.eng.register_defaults([(d[i], d[i + 1]) for i in range(0, len(d), 2)])
            self.defaults_cache[key] = handle
        return handle

    def be_shadow(self, obj, cls, *args):
        epoch = self.tcl.getvar("::dumbbell::defaults_epoch")
        kind = self._kind_of(cls, epoch)
        if kind is None:
            raise self.TclError(f"no engine class in the heritage of {cls}")
        if getattr(self, "adopt_next", None):
            placeholder, self.adopt_next = self.adopt_next, None
            try:
                self.eng.adopt_flow(placeholder, obj, self._defaults_handle(kind, cls, epoch))
            except (KeyError, ValueError) as e:
                raise self.TclError(str(e))
            return kind
        eng_kind = kind
        if kind == "RNG" and self.rng_bind:
            eng_kind = self.rng_bind
        oid = self.eng.create(obj, eng_kind)
        handle = self._defaults_handle(kind, cls, epoch)
        try:
            self.eng.init_defaults_ref(oid, handle)
        except (KeyError, ValueError) as e:
            # A class default the engine refuses (`Queue/RED set
            # mean_pktsize_ 0`): an error of the script, not a class
            # without a shadow (for which `new` returns "").
            # (marked for the error code DUMBBELL VALUE: `_register`)
            return self.ERR + self.VALUE + f"{cls}: {e}"
        self._service()
        return kind

    def be_kinds(self):
        """The engine's classes, which the library registers (classes.tcl)."""
        return tuple(Engine.kinds())

    def be_boundvars(self, kind):
        v = Engine.bound_vars(kind) or []
        return tuple(n for n, _ in v)

    def _id(self, obj):
        oid = self.eng.lookup(obj)
        if oid is None:
            raise self.TclError(f"{obj} has no engine part")
        return oid

    def be_get(self, obj, var):
        v = self.eng.get_var(self._id(obj), var)
        if v is None:
            raise self.TclError(f"{obj}: no bound variable {var}")
        return v

    def be_set(self, obj, var, val):
        r = self.eng.set_var(self._id(obj), var, val)
        self._service()
        return r

    def be_cmd(self, obj, *argv):
        r = self.eng.command(self._id(obj), list(argv))
        self._service()
        self._run_engine_tcl_calls()
        return r

    def be_delete(self, obj):
        return ""

    def be_exit(self, code="0"):
        try:
            c = int(code)
        except ValueError:  # the exit proc checked it: not reached from a script
            c = 1
        if self.panic is not None:  # an engine error the script caught: still Dumbbell's bug
            c = self.report_panic(self.panic)
        self.drain()
        self.exit_code = c
        self.flush_channels()
        self.flush_c_stdout()
        # Our binding holds the Python exceptions of commands whose errors
        # the script caught until the evaluation ends, which it will not.
        if isinstance(self.tcl, TclInterp):
            self.tcl.report_pending()
        if os.environ.get("DUMBBELL_STATS"):
            sys.stderr.write(f"dumbbell: {self.eng.events_dispatched()} events dispatched, "
                             f"{self.eng.live_packets()} packets alive at exit\n")
        sys.stdout.flush()
        sys.stderr.flush()
        if not self.exit_process:
            raise ScriptExit(c & 0xFF)
        if os.environ.get("LLVM_PROFILE_FILE"):
            # A profile-collecting build (make build's PGO training): C's
            # exit() runs the atexit hook that writes the profile, which
            # os._exit skips.
            import ctypes
            ctypes.CDLL(None).exit(c & 0xFF)
        os._exit(c & 0xFF)

    def be_sim(self, op, *args):
        e = self.eng
        if op == "now":
            return e.now_str()
        if op == "at":
            t = atof(args[0])
            try:
                uid = e.at(t)
            except ValueError as err:
                raise self.TclError(str(err))
            self.at_scripts[uid] = args[1]
            return str(uid)
        if op == "at-now":
            uid = e.at_now()
            self.at_scripts[uid] = args[0]
            return str(uid)
        if op == "cancel":
            # STRTOUID: C's atoll, so a word is uid 0, which no event has
            uid = _atoll(args[0])
            if e.cancel(uid):
                self.at_scripts.pop(uid, None)
            return ""
        if op == "halt":
            e.halt()
            return ""
        if op == "run":
            self.run_loop()
            return ""
        if op == "add-link":
            e.add_link(int(args[0]), int(args[1]), self._id(args[2]))
            return ""
        if op == "set-cost":
            e.set_cost(int(args[0]), int(args[1]), atof(args[2]))
            return ""
        if op == "enable-routing":
            e.enable_routing()
            return ""
        if op == "started":
            try:
                e.set_started()
            except ValueError as err:
                raise self.TclError(str(err))
            return ""
        if op == "debug-panic":  # for the tests of the panic path
            e.debug_panic()
        if op == "route-lookup":
            try:
                return str(e.route_lookup(int(args[0]), int(args[1])))
            except (ValueError, OverflowError, IndexError):
                raise self.TclError("node out of range") from None
        raise self.TclError(f"dumbbell: unknown simulator operation {op}")

    def _run_engine_tcl_calls(self):
        calls = self.eng.take_tcl_calls()
        for c in calls:
            self.eval_callback(c)

    # tclcl's Tcl::eval shows at most this much of a failed script.
    MAX_CODE_TO_DUMP = 8 * 1024

    def _global_eval(self, script) -> tuple[bool, str]:
        """Evaluate `script` (a string, or a list of words) at global level
        as tclcl's Tcl::eval does: (failed, result), where any code but
        TCL_OK is a failure (`return`, `break` too), which tkinter's call
        would take for success: hence the `catch`.  The result is read only
        for a failure (the callers need no other)."""
        code = self.tcl.call("catch", ["uplevel", "#0", script], "::dumbbell::eval_result")
        if code == "0":
            return False, ""
        return True, self.tcl.getvar("::dumbbell::eval_result")

    def eval_callback(self, script: str) -> None:
        """Evaluate Tcl the engine asked for (a `$ns at` callback, an agent's
        `done`) as ns-2's Tcl::eval does: at global level, and on error call
        `tkerror {ns: <script>}`, which prints the error on stdout and exits 1
        (after our own report on stderr).  Like Tcl::eval, it takes any code
        but TCL_OK for a failure (`return` or `break` in a callback too;
        `_global_eval`)."""
        failed, result = self._global_eval(script)
        if failed:
            err = self.TclError(result)
            if self.panic is not None:
                raise err
            # errorInfo as Tcl_GlobalEval would leave it: without the frames
            # our `uplevel #0` added.
            import re

            info = re.sub(r'\n    \("uplevel" body line \d+\)\n    invoked from within\n"uplevel #0 .*\Z', "",
                          self._errinfo(), flags=re.S)
            self.tcl.call("::set", "::errorInfo", info)
            self.callback_error = (self.eng.now_str(), script, info)
            self.report_error(str(err), info)
            shown = script if len("ns") + len(script) <= self.MAX_CODE_TO_DUMP else "\n[code omitted because of length]\n"
            self.drain()
            if self._global_eval(["tkerror", f"ns: {shown}"])[0]:
                sys.stderr.write(f"ns: tcl error on eval of: {shown}\n")
                self.be_exit("1")
            # tkerror was redefined not to exit: carry on as ns-2 does.

    def run_loop(self):
        e = self.eng
        e.reset_clock()
        if self.halted:
            # ns-2's Scheduler::run loops `while (!halted_ ...)` and nothing
            # clears halted_: after `$ns halt`, `$ns run` dispatches nothing.
            return
        while True:
            why, uid = e.run()
            self._service()
            self._run_engine_tcl_calls()
            self._write_c_blocks()
            if why == "tcl":
                script = self.at_scripts.pop(uid, None)
                if script is not None:
                    self.eval_callback(script)
            elif why == "service":
                continue
            else:
                self.halted = why == "halted"
                break
        self._service()

    # ---- running ---------------------------------------------------------------

    def run(self) -> int:
        path = self.script
        # The path reaches Tcl as a variable's value, never as script text:
        # a file name with braces, brackets or semicolons is a name.
        self.tcl.call("set", "::dumbbell::script_path", path)
        if self.safe:
            if not isinstance(self.tcl, TclInterp):
                sys.stderr.write("dumbbell: error: --safe needs Dumbbell's own Tcl binding (DUMBBELL_TCL=tkinter is set)\n")
                return 2
            # Reading: the script's directory, the output directory (the
            # current one), Tcl's and the ns-2 library's own files; writing:
            # the output directory only.  docs/reliability.md.
            script_dir = os.path.dirname(os.path.abspath(path)) if os.path.exists(path) else os.getcwd()
            reads = [script_dir, self.tcl.eval("info library"), HERE]
            self.tcl.sandbox([d for d in reads if os.path.isdir(d)], os.getcwd())
        try:
            self.tcl.eval(SOURCE_SCRIPT)
        except self.TclError as err:
            if self.panic is not None:
                return self.report_panic(self.panic)
            self.drain()
            # The script's own traceback: without the frame of our `source.orig`.
            info = self._errinfo()
            for ours in (f'\n    invoked from within\n"{SOURCE_SCRIPT}"', f'\n    while executing\n"{SOURCE_SCRIPT}"'):
                if info.endswith(ours):
                    info = info[: -len(ours)]
            self.report_error(str(err), info)
            return self._end(1)
        except ScriptExit as e:
            return e.code
        except KeyboardInterrupt:
            return self._stopped("interrupted", 130)
        except RunLimitExceeded as err:
            return self._stopped(f"stopped: {err}", 124)
        except BaseException as err:  # an engine panic outside a Tcl call
            if type(err).__name__ == "PanicException":
                return self.report_panic(err)
            if not isinstance(err, Exception):
                raise
            # A bug of the runner itself: Dumbbell's, reported as such.
            import traceback

            self.drain()
            sys.stderr.write(
                f"dumbbell: internal error: {type(err).__name__}: {err}\n"
                "This is a bug in Dumbbell, not in your script; please report it with the script.\n")
            if os.environ.get("DUMBBELL_DEBUG"):
                traceback.print_exc()
            return 70
        if self.panic is not None:  # the script caught the engine's error and carried on
            return self.report_panic(self.panic)
        self.drain()
        return self._end(0)

    def _stopped(self, why: str, code: int) -> int:
        """Ctrl-C (exit status 130, as a shell reports SIGINT) or a run
        limit (124, as timeout(1)): what was written so far is flushed and
        kept, and one line says where the run stopped.  A second Ctrl-C
        while flushing ends the process at once."""
        import signal

        signal.signal(signal.SIGINT, signal.SIG_DFL)
        # no limit may stop the flushing below
        self.eng.set_limits(None, None)
        if isinstance(self.tcl, TclInterp):
            self.tcl.set_limits(None)
        try:
            now = self.eng.now_str()
        except Exception:
            now = "?"
        try:
            self.drain()
            self.tcl.eval("::dumbbell::flush_channels")
            self.flush_c_stdout()
        except (self.TclError, OSError):
            pass
        sys.stdout.flush()
        sys.stderr.write(f"dumbbell: {why} at simulated time {now}; the output written so far is kept\n")
        return code

    def _stop_in_event(self, why: str, code: int) -> None:
        """Ctrl-C or a run limit while one event writes without end (the
        spill, TclInterp.spill_write): the run cannot return before the
        event ends, so the process ends here, as `_stopped` ends it, with
        what the channels were given flushed (the engine, in the middle of
        its event, cannot be asked for more; nothing of the trace is
        waiting there, the spill has just taken it all)."""
        import signal

        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            self.tcl.eval("::dumbbell::flush_channels")
        except (self.TclError, OSError):
            pass
        sys.stdout.flush()
        sys.stderr.write(f"dumbbell: {why} in the middle of an event that runs without end; "
                         "the output written so far is kept\n")
        sys.stderr.flush()
        os._exit(code)

    def _end(self, code: int) -> int:
        """The end of a script that did not call `exit`: the exit command
        as Tcl's main loop invokes it, then every channel flushed and the
        engine's C-level output after Tcl's.  Returns the exit code."""
        self.script_exit(code)
        if self.panic is not None:
            return self.report_panic(self.panic)
        self.drain()
        self.flush_channels()
        self.flush_c_stdout()
        return code

    def script_exit(self, code: int) -> None:
        """What Tcl's main loop (and so ns-2) does when a script ends without
        `exit`: it invokes the `exit` command, so that a script that
        redefined it has its own run (its errors are ignored).  Our own
        `exit` is not invoked here: it would end the process, as the
        caller's return does."""
        try:
            if self.tcl.eval("info procs ::exit") and self.tcl.eval("info body ::exit") == EXIT_BODY:
                return
            self.tcl.call("uplevel", "#0", f"exit {code}")
        except self.TclError:
            pass

    def report_panic(self, err) -> int:
        """An engine panic: report it as Dumbbell's bug, exit code 70."""
        self.flush_channels()
        self.finish_pcap()
        sys.stderr.write(
            f"dumbbell: internal error in the engine: {err}\n"
            "This is a bug in Dumbbell, not in your script; please report it with the script.\n"
        )
        return 70

    def _write_c_blocks(self) -> None:
        """Write the engine's C-level output as ns-2's stdio buffer would by
        now: each full 4096-byte block when the next byte comes (the rest
        at exit, `flush_c_stdout`).  Tcl's stdout has had its lines by then."""
        data = self.eng.take_c_stdout_blocks()
        if data:
            sys.stdout.flush()
            os.write(1, data)

    def flush_c_stdout(self) -> None:
        """Write what the engine printed with C's printf, after Tcl's output
        (ns-2's stdio buffer is flushed by exit() after Tcl's channels)."""
        data = self.eng.take_c_stdout()
        if data:
            os.write(1, data)
        # Every way out of a run passes here: the packet captures too.
        self.finish_pcap()

    def finish_pcap(self) -> None:
        """Write out the packet captures of `--pcap` (crate::pcap)."""
        try:
            self.eng.pcap_finish()
        except OSError as e:
            sys.stderr.write(f"dumbbell: error: --pcap: {e}\n")

    def close(self) -> None:
        """Free the interpreter and the engine.  tkinter's Python commands
        keep a reference to their interpreter, so they are deleted here."""
        if self.tcl is None:
            return
        tk = getattr(self.tcl, "tk", self.tcl)
        for name in self.tcl.splitlist(self.tcl.eval("info commands ::dumbbell::py::*")):
            try:
                tk.deletecommand(name)
            except self.TclError:
                pass
        self.tcl = None
        self.eng = None

    def _errinfo(self) -> str:
        # (read directly: the script may have redefined `set` or `if`)
        try:
            return self.tcl.getvar("::errorInfo")
        except self.TclError:
            return ""

    def flush_channels(self) -> None:
        """Flush every Tcl channel, as Tcl's exit would.  A script that
        redefined the commands this uses (`foreach`, `catch`, `flush`,
        `file`) keeps what it has not flushed; it gets no traceback."""
        try:
            self.tcl.eval("::dumbbell::flush_channels")
        except self.TclError:
            pass

    def report_error(self, msg: str, info: str) -> None:
        """Print a script error as `dumbbell: error: message` and where it
        happened in the script's own files: `  at FILE:LINE: command` (the
        innermost line, inside loop and `if` bodies and the script's procs),
        then `  from FILE:LINE: command` for each call that led there (a
        proc's caller, a `source`).  No frames of Dumbbell's own Tcl; Tcl's
        whole traceback only with DUMBBELL_DEBUG=1."""
        first = msg.strip().splitlines()[0] if msg.strip() else "error"
        # tclcl's `unknown` words an engine command's failure as "error when
        # calling class C: args"; the engine's reason is the trace's first line.
        cause = info.strip().splitlines()[0].strip() if info.strip() else ""
        if first.startswith("error when calling class ") and cause and cause != first:
            first = f"{first}: {cause}"
        import re

        if "::otcl::E::e" in first:
            # an OTcl method's dispatcher in "wrong # args" (the object and
            # the method are what the script wrote)
            first = re.sub(r"::otcl::E::e\d+ ", "", first)
        # `new C` wraps a constructor's error as "class C: constructor
        # failed: why" (tclcl's words); where `why` names the class already,
        # the wrapper says nothing more.
        cm = re.match(r"class (\S+): constructor failed: (.*)", first)
        if cm and cm.group(1) in cm.group(2):
            first = cm.group(2)
        elif cm:
            # the constructor called with arguments its init does not take:
            # worded as the script wrote it (`new C`), not as the internal
            # `_o12 init` call
            wm = re.match(r'wrong # args: should be "_o\d+ init( [^"]*)?"$', cm.group(2))
            if wm:
                first = f'class {cm.group(1)}: constructor failed: wrong # args: should be "new {cm.group(1)}{wm.group(1) or ""}"'
        out = [f"dumbbell: error: {first}"]
        if self.callback_error is not None:
            now, script, cinfo = self.callback_error
            out.append(f"  in the Tcl callback run at time {now}: {script.strip()}")
            info = cinfo
        # a callback's procs are the script's: look for them in its file
        out.extend(script_locations(info, [self.script] if self.callback_error is not None else []))
        if os.environ.get("DUMBBELL_DEBUG") and info.strip() != msg.strip():
            out.append("Tcl traceback (DUMBBELL_DEBUG):")
            out.extend("    " + l for l in info.splitlines())
        sys.stderr.write("\n".join(out) + "\n")


def _tcl_frames(info: str) -> list[tuple[str, str]]:
    """(command, location) pairs of a Tcl errorInfo, innermost first: the
    first line of each quoted command and the `(...)` line under it."""
    frames = []
    cmd = None
    for line in info.splitlines():
        if line.startswith('"') and cmd is None:
            cmd = line[1:]
            if cmd.endswith('"'):
                cmd = cmd[:-1]
        elif line.startswith("    (") and line.endswith(")") and cmd is not None:
            frames.append((cmd.strip(), line.strip()[1:-1]))
            cmd = None
        elif line.strip() in ("invoked from within", "while executing"):
            cmd = None
    return frames


def _body_start(lines: list[str], at: int, else_: bool) -> int:
    """The line (0-based) where a command's body starts, the command
    starting at line `at` of `lines`: its own line, or for an `else` body
    the line of the `{` after the `else` word at the command's level."""
    if not else_:
        return at
    depth = 0
    for i in range(at, min(len(lines), at + 5000)):
        text = lines[i]
        j = 0
        while j < len(text):
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif depth == 0 and text.startswith("else", j):
                return i
            j += 1
    return at


_BODY = {'"foreach" body': False, '"while" body': False, '"for" body': False, '"if" then script': False,
         '"if" else script': True, '"switch" arm': False, '"catch" body': False, '"uplevel" body': False,
         '"eval" body': False, '"time" body': False, '"dict for" body': False, '"lmap" body': False}


def script_locations(info: str, files: list[str] = ()) -> list[str]:
    """Where in the script's own files an error happened, from Tcl's
    errorInfo: `  at FILE:LINE: command` for the innermost line, and
    `  from FILE:LINE: command` for each call on the way (a proc of the
    script, a sourced file).  Loop and `if` bodies count from the line their
    command starts on (`foreach x $l {`, as scripts write them); a proc's
    lines from the line of its `proc NAME` in the script's files (those of
    the traceback, then `files`: the script, for a callback's error)."""
    import re

    texts: dict[str, list[str]] = {}

    def text(f):
        if f not in texts:
            try:
                with open(f, encoding="utf-8", errors="replace") as fh:
                    texts[f] = fh.read().splitlines()
            except OSError:
                texts[f] = []
        return texts[f]

    found = []  # (file, line, command, is a call site), outermost first
    cur = None  # (file, 0-based line of the current command's start)
    for cmd, loc in reversed(_tcl_frames(info)):
        fm = re.fullmatch(r'file "(.*)" line (\d+)', loc)
        pm = re.fullmatch(r'procedure "(.*)" line (\d+)', loc)
        bm = re.fullmatch(r'(".*) line (\d+)', loc)
        if fm:
            cur = (fm.group(1), int(fm.group(2)) - 1)
        elif pm and (cur is not None or files):
            # a proc of the script: its `proc NAME` line in a file seen so far
            name = pm.group(1).lstrip(":")
            cur, seen = None, [f for f, *_ in found] + list(files)
            for f in dict.fromkeys(seen):
                for i, ln in enumerate(text(f)):
                    if re.match(r"\s*proc\s+(::)?" + re.escape(name) + r"\s", ln):
                        cur = (f, i + int(pm.group(2)) - 1)
                        break
                if cur is not None:
                    break
        elif bm and cur is not None and bm.group(1) in _BODY:
            lines = text(cur[0])
            cur = (cur[0], _body_start(lines, cur[1], _BODY[bm.group(1)]) + int(bm.group(2)) - 1)
        else:
            cur = None  # Dumbbell's own Tcl (the ns-2 library), or not known
        if cur is not None:
            found.append((cur[0], cur[1] + 1, cmd, bool(fm or pm)))
    if not found:
        return []
    f, n, cmd, _ = found[-1]
    out = [f"  at {f}:{n}: {cmd}"]
    # the calls that led there: the frame just outside each proc body or
    # sourced file
    for k in range(len(found) - 2, -1, -1):
        if found[k + 1][3]:
            f, n, cmd, _ = found[k]
            out.append(f"  from {f}:{n}: {cmd}")
    return out


def _atoll(s: str) -> int:
    """C's atoll: the leading decimal integer of `s`, 0 if there is none."""
    t = s.lstrip()
    i = 1 if t[:1] in ("+", "-") else 0
    j = i
    while j < len(t) and t[j].isdigit():
        j += 1
    return int(t[:j]) if j > i else 0


def run_script_and_exit(script: str, argv: list[str], max_events: int | None = None,
                        max_wall: float | None = None, safe: bool = False, pcap: str | None = None,
                        pcap_snaplen: int = 65535) -> int:
    """`dumbbell run`: run_script, then end the process without tearing
    down the interpreter and Python (~2 ms; the script's end already flushed
    every Tcl channel and the engine's output), as the script's own `exit`
    and the sweep's fork server do.  Where a Tcl channel is a command
    pipeline the process ends normally: deleting the interpreter closes it
    and waits for its processes."""
    try:
        forced_fallbacks()
    except ValueError as e:  # a bad DUMBBELL_TCL
        sys.stderr.write(f"dumbbell: error: {e}\n")
        return 2
    try:
        runner = Ns2Runner(script, argv, own_tcl=True, safe=safe, pcap=pcap, pcap_snaplen=pcap_snaplen)
    except OSError as e:  # the capture directory
        sys.stderr.write(f"dumbbell run: --pcap: {e}\n")
        return 2
    runner.set_limits(max_events, max_wall)
    code = runner.run()
    t = runner.tcl
    try:
        pipelines = t.eval("::dumbbell::pipelines")
    except runner.TclError:
        # (the interpreter cannot evaluate any more: a script that ran into
        # Tcl's nesting limit leaves it there; its error is reported)
        pipelines = "0"
    if pipelines == "0":
        if isinstance(t, TclInterp):
            t.report_pending()
        sys.stdout.flush()
        sys.stderr.flush()
        if os.environ.get("LLVM_PROFILE_FILE"):  # PGO training: see be_exit
            import ctypes
            ctypes.CDLL(None).exit(code & 0xFF)
        os._exit(code & 0xFF)
    return code


def run_script(script: str, argv: list[str], cwd: str | None = None, exit_process: bool = True,
               max_events: int | None = None, max_wall: float | None = None, safe: bool = False) -> int:
    if cwd:
        os.chdir(cwd)
    try:
        forced_fallbacks()
    except ValueError as e:  # a bad DUMBBELL_TCL
        sys.stderr.write(f"dumbbell: error: {e}\n")
        return 2
    runner = Ns2Runner(script, argv, own_tcl=True, exit_process=exit_process, safe=safe)
    runner.set_limits(max_events, max_wall)
    return runner.run()
