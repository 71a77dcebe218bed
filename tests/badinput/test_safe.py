"""`dumbbell run --safe`: a script cannot run programs, open sockets, load
libraries, read the environment, create interpreters, leave its directories,
or change anything outside the current one; a simulation still runs and
writes its traces; ns-2's suites that use only their own files pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

ATTEMPTS = {
    "exec": ("exec echo pwned", "exec is not allowed with --safe"),
    "pipe": ('open "|echo pwned" r', "command pipelines are not allowed"),
    "socket": ("socket localhost 22", "socket is not allowed"),
    "read-outside": ("open /etc/passwd r", 'reading "/etc/passwd" is outside'),
    "write-outside": ("open {OUTSIDE}/evil.txt w", "writing"),
    "write-parent": ("open ../evil.txt w", "writing"),
    "delete": ("file delete {SCRIPT}", "outside the directory --safe lets a script change"),
    "delete-direct": ("::tcl::file::delete {SCRIPT}", "outside the directory --safe lets a script change"),
    "rename": ("file rename {SCRIPT} {OUTSIDE}/x.tcl", "outside the directory"),
    "mkdir": ("file mkdir {OUTSIDE}/newdir", "outside the directory"),
    "source-outside": ("source /etc/hostname", "source:"),
    "source-in-a-proc": ("proc s {} { source /etc/hostname }; s", "source:"),
    "load": ("load libfoo.so", "load is not allowed"),
    "interp-create": ("interp create x", "only aliases"),
    "invokehidden": ("interp invokehidden {} exec ls", "only aliases"),
    "alias-to-exec": ("interp alias {} myexec {} exec; myexec ls", "exec is not allowed"),
    "renamed-open": ("rename open myopen; myopen /etc/passwd", "outside"),
    "cd": ("cd /", "cd is not allowed"),
    "env": ("set x $::env(HOME)", "env is not available with --safe"),
    "env-names": ("array names ::env", "env is not available with --safe"),
    "glob": ("glob /etc/*", "glob is not allowed"),
    "exists-outside": ("file exists /etc/passwd", "outside"),
}


@pytest.fixture
def dirs(tmp_path):
    scripts, out, outside = tmp_path / "scripts", tmp_path / "out", tmp_path / "outside"
    for d in (scripts, out, outside):
        d.mkdir()
    return scripts, out, outside


def _run(script: Path, cwd: Path, *opts: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", *opts, str(script)], cwd=cwd,
                          capture_output=True, text=True, env=ENV, timeout=120)


@pytest.mark.parametrize("name", list(ATTEMPTS))
def test_safe_refuses(dirs, name):
    scripts, out, outside = dirs
    body, needle = ATTEMPTS[name]
    script = scripts / "evil.tcl"
    body = body.replace("{SCRIPT}", str(script)).replace("{OUTSIDE}", str(outside))
    script.write_text(f"if {{[catch {{{body}}} msg]}} {{ puts \"refused: $msg\" }} else {{ puts ALLOWED }}\n")
    r = _run(script, out, "--safe")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("refused: ") and needle in r.stdout, r.stdout
    assert script.exists() and not list(outside.iterdir()) and not (out.parent / "evil.txt").exists()
    # without --safe the same script is ns-2's: allowed (where the system lets it)
    if name in ("exec", "read-outside", "cd"):
        assert _run(script, out).stdout == "ALLOWED\n"


def test_a_simulation_runs_and_writes_its_trace_under_safe(dirs):
    scripts, out, _ = dirs
    script = scripts / "sim.tcl"
    (scripts / "helper.tcl").write_text("proc helper {} { return 7 }\n")
    script.write_text("""source [file join [file dirname [info script]] helper.tcl]
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 1Mb 10ms DropTail
set tcp [new Agent/TCP]; $ns attach-agent $a $tcp
set sink [new Agent/TCPSink]; $ns attach-agent $b $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]; $ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 2 "close $f; puts [helper]; exit 0"
$ns run
""")
    r = _run(script, out, "--safe")
    assert (r.returncode, r.stdout, r.stderr) == (0, "7\n", "")
    safe_trace = (out / "out.tr").read_bytes()
    assert len(safe_trace) > 10_000
    plain = _run(script, out)
    assert plain.returncode == 0 and (out / "out.tr").read_bytes() == safe_trace, "--safe changes no result"


@pytest.mark.skipif(not Path("/usr/share/doc/ns2/examples/tcl/test").is_dir(), reason="needs ns2-examples")
def test_suites_that_use_only_their_own_files_pass_under_safe():
    sys.path.insert(0, str(ROOT / "tests" / "suites"))
    import run_suites as rs

    ns = [str(ROOT / ".venv" / "bin" / "dumbbell"), "run", "--safe"]
    for suite in ("misc", "rng", "monitor"):
        file, directory, tests = rs.suite_info(suite)
        for t in tests:
            assert rs.run_test(ns, suite, file, directory, t, 300.0)[1] == "PASS", (suite, t)
