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


