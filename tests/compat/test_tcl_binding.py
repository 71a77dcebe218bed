"""Our binding of libtcl 8.6 (crates/py/src/tcl.rs): the interpreter
`dumbbell run` uses (`TclInterp`) and the engine's Tcl commands
(`TclBackend`, also installed in tkinter's interpreter by the Python API).

What must hold: no Rust panic crosses into C (that would abort the process);
a Python exception raised in a Tcl command reaches Python as itself, or is
reported, never lost nor raised later from an unrelated call; the backend
cannot be pointed at an arbitrary address; a command Tcl refuses to create is
an error; strings round-trip between Python and Tcl's own string form.

Tests that could abort or crash the process without the property they check
run in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tkinter
from pathlib import Path

import pytest

from dumbbell._engine import Engine, TclBackend, TclError, TclInterp

ROOT = Path(__file__).resolve().parents[2]


def child(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run Python `code` in a child process (the test's assertions are on its
    exit status and output: an abort is a failure, not a crash of pytest)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python"), **env},
    )


def interp() -> TclInterp:
    t = TclInterp.create(sys.executable)
    assert t is not None, "libtcl8.6 could not be loaded"
    return t


@pytest.fixture
def unraisable(monkeypatch):
    """The exceptions reported through sys.unraisablehook."""
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u))
    return seen


# ---- 1. no panic crosses into C ---------------------------------------------------


def test_backend_commands_freed_at_python_shutdown_do_not_abort():
    # A tkinter interpreter holding the engine's commands and freed while
    # Python shuts down: the command's delete callback cannot attach to
    # Python any more.  It used to panic there, and a panic in a C callback
    # aborts the process.
    r = child("""
        import tkinter
        from dumbbell._engine import Engine, TclBackend
        t = tkinter.Tcl()
        b = TclBackend.install(t.tk, Engine())
        print(t.eval("info commands ::dumbbell::be::*") != "")
    """)
    assert (r.returncode, r.stdout) == (0, "True\n"), r.stderr
    assert "panicked" not in r.stderr


def test_panic_in_a_python_command_is_a_tcl_error_then_a_panic_exception():
    r = child("""
        import sys
        from dumbbell._engine import TclInterp, _tcl_fault
        t = TclInterp.create(sys.executable)
        t.createcommand("f", lambda: "fine")
        _tcl_fault("py_command")
        try:
            t.eval("set ::caught [catch f ::msg]")
        except BaseException as e:
            print("raised", type(e).__name__, e)
        print(t.eval("list $::caught $::msg"))
        print(t.eval("f"))
    """)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("raised PanicException deliberate panic at py_command"), r.stdout
    assert lines[1].startswith("1 {internal error in Dumbbell's Tcl binding: deliberate panic at py_command")
    assert lines[2] == "fine", "the fault fires once; the interpreter still works"


@pytest.mark.parametrize("own_tcl", [True, False], ids=["libtcl", "tkinter"])
def test_panic_in_an_engine_command_is_reported_as_dumbbells_bug(tmp_path, own_tcl):
    # A panic anywhere in an engine command (here before it reads its
    # arguments) is a Tcl error the script sees, and the run ends with 70.
    (tmp_path / "s.tcl").write_text(
        'if {[catch {::dumbbell::be::boundvars Queue/DropTail} m]} {puts "caught: $m"}\n'
        'puts "still running"\n'
        "exit 0\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from dumbbell._engine import _tcl_fault
            from dumbbell.ns2.runner import Ns2Runner
            r = Ns2Runner("s.tcl", [], own_tcl={own_tcl})
            _tcl_fault("command")
            sys.exit(r.run())
        """)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT / "python")},
    )
    assert r.returncode == 70, r.stderr
    assert r.stdout == "caught: internal error in the engine: deliberate panic at command (requested by a test)\nstill running\n"
    assert "This is a bug in Dumbbell" in r.stderr


@pytest.mark.parametrize("point,delete", [
    ("delete", 'rename ::dumbbell::be::get {}'),
    ("py_delete", 'rename ::f {}'),
])
def test_panic_in_a_delete_callback_is_contained(point, delete):
    r = child(f"""
        import sys
        from dumbbell._engine import Engine, TclBackend, TclInterp, _tcl_fault
        t = TclInterp.create(sys.executable)
        b = TclBackend.install(t, Engine())
        t.createcommand("f", lambda: "")
        _tcl_fault({point!r})
        t.eval({delete!r})
        print(repr(t.eval("info commands ::dumbbell::be::get")), repr(t.eval("info commands ::f")))
        print(t.eval("::dumbbell::be::boundvars Queue/DropTail") != "")
    """)
    assert r.returncode == 0, r.stderr
    gone = {"delete": "'' '::f'", "py_delete": "'::dumbbell::be::get' ''"}[point]
    assert r.stdout == gone + "\nTrue\n"
    assert f"deliberate panic at {point}" in r.stderr


def test_fault_points_are_checked():
    from dumbbell._engine import _tcl_fault

    with pytest.raises(ValueError):
        _tcl_fault("nowhere")
    _tcl_fault(None)


# ---- 2. Python exceptions raised in Tcl commands -----------------------------------


class Boom(Exception):
    pass


def raiser(raised: list, exc=Boom):
    def f(*args):
        e = exc(*args) if args else exc()
        raised.append(e)
        raise e

    return f


def test_exception_reaches_python_as_itself_and_tcl_sees_its_message(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    with pytest.raises(Boom) as info:
        t.eval("boom {bad value}")
    assert info.value is raised[-1]
    # Through procs and a call: still the same exception.
    t.eval("proc p {} { boom deeper }")
    with pytest.raises(Boom) as info:
        t.call("p")
    assert info.value is raised[-1]
    assert not unraisable


def test_exception_the_script_catches_is_reported_not_raised_later(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    assert t.eval("catch {boom {bad value}} m; set m") == "bad value"
    assert [u.exc_value for u in unraisable] == [raised[0]]
    assert "boom" in str(unraisable[0].object)
    # Nothing is left pending for the calls that follow.
    assert t.eval("set x 1") == "1"
    assert t.call("set", "y", "2") == "2"
    assert t.getvar("x") == "1"
    assert len(unraisable) == 1


def test_a_different_tcl_error_after_a_caught_exception_is_a_tcl_error(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    with pytest.raises(TclError) as info:
        t.eval("catch {boom first}; error second")
    assert str(info.value) == "second"
    assert [u.exc_value for u in unraisable] == raised


def test_exception_in_a_variable_trace_is_not_left_pending(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    t.eval("set v 1; trace add variable v read {boom traced ;#}")
    with pytest.raises(TclError) as info:
        t.getvar("v")
    assert "traced" in str(info.value)
    assert [u.exc_value for u in unraisable] == raised
    assert t.eval("set w 2") == "2"
    t.eval("trace add variable v write {boom written ;#}")
    with pytest.raises(TclError) as info:
        t.setvar("v", "3")
    assert "written" in str(info.value)
    assert t.eval("set w") == "2"
    assert len(unraisable) == 2


def test_pending_exceptions_belong_to_their_interpreter(unraisable):
    a, b, raised = interp(), interp(), []
    a.createcommand("boom", raiser(raised))
    b.createcommand("ok", lambda: "fine")
    assert a.eval("catch boom") == "1"
    assert b.eval("ok") == "fine"


def test_interrupt_is_not_swallowed_by_a_tcl_catch(unraisable):
    t, raised = interp(), []
    t.createcommand("stop", raiser(raised, KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        t.eval("catch stop; set after 1")
    assert t.getvar("after") == "1"
    assert not unraisable
    # Not even when the evaluation then fails with another command's
    # exception: the interrupt is raised, the other one reported.
    t.createcommand("boom", raiser(raised))
    with pytest.raises(KeyboardInterrupt):
        t.eval("catch stop; boom x")
    assert [type(u.exc_value) for u in unraisable] == [Boom]


def test_exception_from_a_nested_evaluation_propagates_through_python(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    t.createcommand("outer", lambda: t.eval("boom inner"))
    with pytest.raises(Boom) as info:
        t.eval("outer")
    assert info.value is raised[0]
    # The outer command may handle it in Python.
    def handled():
        try:
            t.eval("boom again")
        except Boom:
            return "handled"
    t.createcommand("outer2", handled)
    assert t.eval("outer2") == "handled"
    assert not unraisable


def test_exception_without_a_message_gives_tcl_its_type_name(unraisable):
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    with pytest.raises(Boom) as info:
        t.eval("catch boom m; set ::m $m; boom")
    assert t.getvar("m") == "Boom"
    assert info.value is raised[1]
    assert [u.exc_value for u in unraisable] == raised[:1]


def test_pending_exceptions_can_be_reported_before_the_process_ends(unraisable):
    # The runner's `exit` ends the process inside the evaluation of the
    # script: what is still waiting is reported then.
    t, raised = interp(), []
    t.createcommand("boom", raiser(raised))
    t.createcommand("finish", lambda: t.report_pending())
    assert t.eval("catch {boom early}; finish; set x 1") == "1"
    assert [u.exc_value for u in unraisable] == raised
    # An evaluation started after the report still gets its own exception.
    t.createcommand("outer", lambda: t.eval("finish; boom late"))
    with pytest.raises(Boom) as info:
        t.eval("catch {boom a}; catch {boom b}; outer")
    assert info.value is raised[-1] and str(info.value) == "late"
    assert [u.exc_value for u in unraisable] == raised[:-1]


# ---- 3. the backend is given an interpreter, not an address --------------------------


@pytest.mark.parametrize("arg", ["0", "12345", "object()", "'x'"])
def test_backend_install_refuses_anything_but_an_interpreter(arg):
    r = child(f"""
        from dumbbell._engine import Engine, TclBackend
        try:
            TclBackend.install({arg}, Engine())
        except TypeError as e:
            print("TypeError", e)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("TypeError"), r.stdout


def test_backend_installs_in_our_interpreter_and_tkinters():
    t = interp()
    assert TclBackend.install(t, Engine()) is not None
    assert t.eval("::dumbbell::be::boundvars Queue/DropTail") != ""
    tk = tkinter.Tcl()
    assert TclBackend.install(tk.tk, Engine()) is not None
    assert tk.eval("::dumbbell::be::boundvars Queue/DropTail") != ""


# ---- 4. a command Tcl refuses to create ------------------------------------------------


# A child's preamble: `t`, an interpreter being deleted (Tcl refuses new
# commands once deletion has begun; Tcl_Preserve keeps it alive to reach that
# state).  The child must end with os._exit: the interpreter is deleted under
# TclInterp's feet.
DELETED_INTERP = """
        import ctypes, os, sys
        from dumbbell._engine import TclInterp, TclError
        lib = ctypes.CDLL("libtcl8.6.so")
        t = TclInterp.create(sys.executable)
        p = ctypes.c_void_p(t.interpaddr())
        lib.Tcl_Preserve(p)
        lib.Tcl_DeleteInterp(p)
"""


def test_createcommand_in_an_interpreter_being_deleted_is_an_error():
    # The command's Python function must not be kept either.
    r = child(DELETED_INTERP + """
        f = lambda: ""
        before = sys.getrefcount(f)
        try:
            t.createcommand("f", f)
            print("created")
        except TclError as e:
            print("TclError", e)
        print(sys.getrefcount(f) - before)
        sys.stdout.flush()
        os._exit(0)  # the interpreter is deleted under TclInterp's feet
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "TclError can't create Tcl command \"f\"\n0\n"


def test_backend_install_in_an_interpreter_being_deleted_is_an_error():
    # The same refusal for the engine's commands: TclBackend.install fails.
    r = child(DELETED_INTERP + """
        from dumbbell._engine import Engine, TclBackend
        try:
            TclBackend.install(t, Engine())
            print("installed")
        except TclError as e:
            print("TclError", e)
        sys.stdout.flush()
        os._exit(0)
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("TclError can't create Tcl command \"::dumbbell::be::"), r.stdout


# ---- 5. strings -------------------------------------------------------------------------


ROUND_TRIP = ["", "plain", "café", "Grüße €", "a\0b", "\0", "😀 x", "\udce9", "x\udce9\udcffy", "x\ud83dy"]


@pytest.mark.parametrize("s", ROUND_TRIP, ids=ascii)
def test_strings_round_trip(s):
    t = interp()
    t.setvar("v", s)
    assert t.getvar("v") == s
    assert t.call("set", "w", s) == s
    assert t.eval("set w") == s
    assert t.call("list", s, s) == t.call("list", t.getvar("v"), t.getvar("w"))
    got = []
    t.createcommand("echo", lambda *a: (got.append(a), a[0])[1])
    assert t.call("echo", s) == s
    assert got == [(s,)]
    assert t.splitlist(t.call("list", s, "y")) == (s, "y")
    # A command's result may be nested tuples and lists: a Tcl list of lists.
    t.createcommand("nested", lambda: ("a", (s, "d"), ["e"]))
    assert t.eval("llength [nested]") == "3"
    assert t.eval("lindex [nested] 1 0") == s


def test_nul_is_given_to_tcl_in_tcls_own_form():
    t = interp()
    t.call("set", "v", "a\0b")
    assert t.eval('string equal $v "a\\u0000b"') == "1"
    assert t.eval("string bytelength $v") == "4"  # 0xC0 0x80 (tkinter gives a raw NUL byte)


@pytest.mark.parametrize("s", ["café", "😀", "\udce9"], ids=ascii)
def test_strings_are_what_tkinter_gives(s):
    tkinter.wantobjects = 0
    tk = tkinter.Tcl()
    t = interp()
    for i in (t, tk):
        i.call("set", "v", s)
    for script in ("string length $v", "string bytelength $v", "set v"):
        assert t.eval(script) == tk.eval(script), script


@pytest.mark.parametrize("hexbytes,want", [
    ("41e942", "A\udce9B"),         # not UTF-8: each such byte as Python's surrogateescape
    ("41c08042", "A\0B"),           # Tcl's two-byte NUL
    ("eda0bdedb880", "😀"),         # a surrogate pair, one UTF-8 sequence per half
    ("eda0bd", "\ud83d"),           # an unpaired surrogate
    ("f09f9880", "😀"),
])
def test_tcl_internal_strings_read_back(hexbytes, want):
    t = interp()
    # `encoding convertfrom identity` puts the bytes unchanged into a string.
    got = t.eval(f"set v [encoding convertfrom identity [binary decode hex {hexbytes}]]")
    assert got == want
    # Given back to Tcl it is the same string (a character beyond U+FFFF
    # goes back as one UTF-8 sequence, as tkinter gives it).
    t.call("set", "w", got)
    assert t.eval("string length $v") == t.eval("string length $w")
    assert t.eval("string equal $v $w") == "1"
    assert t.eval("set w") == want


def test_engine_commands_read_and_give_back_the_same_strings():
    t = interp()
    TclBackend.install(t, Engine())
    for s in ("naïve", "a\0b", "😀"):
        t.call("set", "name", s)
        msg = t.eval("catch {::dumbbell::be::get $name x} m; set m")
        assert msg == f"{s} has no engine part"
        assert t.eval("string equal $m \"$name has no engine part\"") == "1"


@pytest.mark.parametrize("hexbytes,want", [
    ("41e942", "AéB"),      # a byte that is not UTF-8 is, for Tcl, that Latin-1 character
    ("eda0bdedb880", "😀"),  # a surrogate pair, one UTF-8 sequence per half
])
def test_engine_commands_read_strings_as_tcl_does(hexbytes, want):
    t = interp()
    TclBackend.install(t, Engine())
    msg = t.eval(f"catch {{::dumbbell::be::get [encoding convertfrom identity [binary decode hex {hexbytes}]] x}} m; set m")
    assert msg == f"{want} has no engine part"


# ---- 6. the fallbacks: tkinter's interpreter, the backend commands in Python ------------

MODES = ["", "tkinter", "pycommands", "tkinter,pycommands"]


@pytest.mark.parametrize("mode", MODES)
def test_dumbbell_tcl_selects_the_fallbacks(monkeypatch, mode):
    from dumbbell.ns2.runner import Ns2Runner

    monkeypatch.setenv("DUMBBELL_TCL", mode)
    r = Ns2Runner("x.tcl", [], own_tcl=True)
    try:
        assert isinstance(r.tcl, tkinter.Tk if "tkinter" in mode else TclInterp)
        assert (r.backend is None) == ("pycommands" in mode)
        python_procs = r.tcl.eval("info procs ::dumbbell::be::shadow") != ""
        assert python_procs == ("pycommands" in mode)
        assert r.tcl.eval("set ns [new Simulator]; $ns node") == "_o10"  # ns-2 2.35 names it so
    finally:
        r.close()


def test_unknown_fallback_is_refused(monkeypatch):
    from dumbbell.ns2.runner import Ns2Runner

    monkeypatch.setenv("DUMBBELL_TCL", "tkinter,bogus")
    with pytest.raises(ValueError, match="bogus"):
        Ns2Runner("x.tcl", [], own_tcl=True)


def test_unknown_fallback_from_the_command_line(tmp_path):
    (tmp_path / "s.tcl").write_text("puts hi\n")
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "s.tcl"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python"), "DUMBBELL_TCL": "bogus"})
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "dumbbell: error: DUMBBELL_TCL: unknown fallback bogus (known: tkinter pycommands)\n"


def run_mode(tmp_path: Path, mode: str, body: bytes) -> tuple:
    d = tmp_path / (mode.replace(",", "+") or "default")
    d.mkdir()
    (d / "s.tcl").write_bytes(body)
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "s.tcl", "a1"], cwd=d, capture_output=True,
                       timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT / "python"), "DUMBBELL_TCL": mode})
    files = {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.name != "s.tcl"}
    return r.returncode, r.stdout, r.stderr.decode(errors="replace"), files


SCRIPTS = {
    "flows-traces-monitors": b"""set ns [new Simulator]
set tf [open out.tr w]; $ns trace-all $tf
set a [$ns node]; set b [$ns node]; set c [$ns node]
$ns duplex-link $a $b 10Mb 5ms DropTail
$ns duplex-link $b $c 1Mb 20ms RED
$ns queue-limit $b $c 10
set fm [$ns makeflowmon Fid]; $ns attach-fmon [$ns link $b $c] $fm
for {set i 0} {$i < 3} {incr i} {
    set tcp($i) [$ns create-connection TCP/Sack1 $a TCPSink/Sack1 $c $i]
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr 0.1 * $i] "$ftp($i) start"
}
set rv [new RandomVariable/Exponential]; $rv set avg_ 2
puts "argv=$argv draw=[format %.6f [$rv value]]"
$ns at 3 {foreach i {0 1 2} { puts "$i [$tcp($i) set ack_] [$tcp($i) set cwnd_]" }; puts [$fm set pdrops_]}
$ns at 3.5 {$ns flush-trace; close $tf; exit 0}
$ns run
""",
    "errors-and-text": """set ns [new Simulator]
set n [$ns node]
puts "caf\\u00e9 \\u20ac nul[string index a\\u0000b 1]x \\U0001F600"
if {[catch {$n set nonexistent_} m]} { puts "caught: $m" }
if {[catch {::dumbbell::be::get nobody x} m]} { puts "caught: $m" }
if {[catch {[new Queue/DropTail] set limit_ banana} m]} { puts "caught: $m" }
Queue/DropTail set limit_ 7
puts [[new Queue/DropTail] set limit_]
$ns at 1 {puts "at 1 caf\\u00e9"; error "boom \\u00e9"}
$ns run
""".encode(),
    "latin-1-source": "set ns [new Simulator]\nputs \"d\u00e9bit \u00e0 10Mb\"\n$ns at 1 {puts \"t\u00e9l\u00e9 [$ns now]\"}\n$ns at 2 {exit 3}\n$ns run\n".encode("latin-1"),
    "engine-error": b"set ns [new Simulator]\nset a [$ns node]\nset b [$ns node]\n$ns duplex-link $a $b -10Mb 10ms DropTail\n",
    "callback-return": b"set ns [new Simulator]\n$ns at 1 {puts one; return}\n$ns at 2 {puts two}\n$ns at 3 {exit 0}\n$ns run\n",
    "callback-break": b"set ns [new Simulator]\n$ns at 1 {puts one; break}\n$ns at 2 {puts two; exit 0}\n$ns run\n",
    "no-exit": b"set ns [new Simulator]\n$ns at 1 {puts [$ns now]}\n$ns at 2 {$ns halt}\n$ns run\nputs done\n",
    # A class default the engine refuses is the script's error at `new`
    # (error code DUMBBELL VALUE), through the engine's `shadow` and the
    # Python one alike, for a library class and a script's subclass.
    "refused-class-default": b"""set ns [new Simulator]
Queue/RED set mean_pktsize_ 0
if {[catch {new Queue/RED} m]} { puts "caught: $m / $::errorCode" }
Class Queue/RED/Mine -superclass Queue/RED
Queue/RED/Mine instproc init args { eval $self next $args }
if {[catch {new Queue/RED/Mine} m]} { puts "caught: $m / $::errorCode" }
Queue/RED set mean_pktsize_ 500
puts [[new Queue/RED] set mean_pktsize_]
puts [[new Queue/RED/Mine] set mean_pktsize_]
if {[catch {new Agent/NoSuchThing} m]} { puts "caught: $m / $::errorCode" }
""",
    "tkerror-break": b"set ns [new Simulator]\nproc tkerror args {puts \"handled: $args\"; return -code break}\n"
                     b"$ns at 1 {puts one; error oops}\n$ns at 2 {puts two}\n$ns at 3 {exit 0}\n$ns run\n",
}

# Exit code and stdout where they are checked too.  ns-2's Tcl::eval takes
# any code but TCL_OK for a failure, of a callback and of tkerror alike;
# tkinter's call takes `return` and `break` for success.  (ns-2 2.35 gives
# the same exit codes and, for tkerror-break, this stdout; after "return: "
# it prints a stale errorInfo left by its own library, which Dumbbell does
# not reproduce.)
EXPECTED = {
    "callback-return": (1, b"one\nns: puts one; return: \n"),
    "tkerror-break": (1, b"one\nhandled: {ns: puts one; error oops}\n"),
}


@pytest.mark.parametrize("name", SCRIPTS)
def test_scripts_behave_the_same_through_the_fallbacks(tmp_path, name):
    got = {mode: run_mode(tmp_path, mode, SCRIPTS[name]) for mode in MODES}
    first = got[""]
    assert first[1] or first[2], "the script prints something"
    if name in EXPECTED:
        assert first[:2] == EXPECTED[name]
    for mode in MODES[1:]:
        assert got[mode] == first, f"DUMBBELL_TCL={mode} differs"


def test_exception_a_script_catches_is_reported_at_exit(tmp_path):
    # A Python backend command failing with an exception (here, called with
    # no arguments) is Dumbbell's bug: if the script catches its error, the
    # exception is still reported when the script exits.
    body = b"catch {::dumbbell::be::get} m\nputs \"caught: $m\"\nexit 0\n"
    rc, out, err, _ = run_mode(tmp_path, "pycommands", body)
    assert (rc, out) == (0, b"caught: Ns2Runner.be_get() missing 2 required positional arguments: 'obj' and 'var'\n")
    assert "Exception ignored in: 'Tcl command ::dumbbell::py::get" in err
    assert "TypeError" in err


# ---- OTcl's instvar rewrite in Rust --------------------------------------------------

REWRITE_PIECES = [
    "$self instvar a b", "  $self instvar x", "\t$self\tinstvar\ty_ z", "$self instvar a; set b 1", "if {$x} {", "}",
    'set a "q {"', "set b \\{", 'puts ""', "switch $x {", "  a {", "foreach v $l {", "$self instvar q(1)",
    "$self next", "# $self instvar c", "list {", "set x [list {a}]", "\u00a0if {", '\\"', '"', "$self instvar \u00e9",
    "eval {", "$self instvar a ;", "$self  instvar  m  ", "\\\\", "catch {", "$self instvar a\r", "\U0001f600 {",
    "\\\U0001f600 {", "} else {", "uplevel 1 {", "proc p {} {",
]


def test_rust_rewrite_is_otcls_rewrite():
    """::dumbbell::be::rewrite (crates/py/src/tcl.rs) gives what
    ::otcl::_::Rewrite gives: for every method body of the library, every
    braced word of the test scripts and examples, and random bodies made of
    the lines that steer the rewrite."""
    import random

    from dumbbell.ns2.runner import Ns2Runner

    r = Ns2Runner("", [], own_tcl=True)
    t = r.tcl
    bodies = [t.call("lindex", t.call("set", f"::otcl::_::lazy({pn})"), "1")
              for pn in t.splitlist(t.call("array", "names", "::otcl::_::lazy"))]
    files = [*ROOT.glob("tests/otcl/cases/*.tcl"), *ROOT.glob("tests/ns2/scripts/*.tcl"), *ROOT.glob("examples/*.tcl")]
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        depth, start, i = 0, 0, 0
        while i < len(text):
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "{":
                if depth == 0:
                    start = i
                depth += 1
            elif ch == "}" and depth:
                depth -= 1
                if depth == 0:
                    bodies.append(text[start + 1:i])
            i += 1
    rng = random.Random(11)
    bodies += ["\n".join(rng.choice(REWRITE_PIECES) for _ in range(rng.randint(1, 8))) for _ in range(5000)]
    assert t.eval("set ::otcl::_::rewritec") == "1"
    rewritten = 0
    for b in bodies:
        want = t.call("::otcl::_::Rewrite", b)
        assert t.call("::dumbbell::be::rewrite", b) == want, b
        rewritten += want != b
    assert rewritten > 1000


def test_a_failing_init_tcl_is_passed_over_and_info_script_restored(tmp_path):
    # Tcl_Init tries $TCL_LIBRARY's init.tcl first; when it fails, Tcl goes on
    # to its own library.  Our `source` for Tcl_Init must leave `info script`
    # as it was after the failure, and keep the error's information (Tcl_Init
    # reports it if every init.tcl fails): here the interpreter ends up with
    # the real library, the failed attempt leaving no trace.
    bad = tmp_path / "tcl8.6"
    bad.mkdir()
    (bad / "init.tcl").write_text("set ::tried_bad 1\nerror boom\n")
    r = child("""
        import sys
        from dumbbell._engine import TclInterp
        t = TclInterp.create(sys.executable)
        print(t.eval("list [info exists ::tried_bad] [info script] [info exists ::auto_path]"))
    """, TCL_LIBRARY=str(bad))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "{}", "1"]
