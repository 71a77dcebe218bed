"""The fork server that sweeps start ns-2 runs from (dumbbell._forkserver):
a forked run is byte for byte what `dumbbell run` gives, sees its own
environment, and the sweep survives the server dying."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl

from dumbbell import _forkserver
from dumbbell.sweep import Plan, run_sweep

from conftest import BASIC2_COLUMNS, ROOT

DUMBBELL = [sys.executable, "-m", "dumbbell.cli", "run"]
ENV_TCL = 'puts "A=$env(SWEEP_A) B=[info exists env(SWEEP_B)] [lsort [array names env SWEEP_*]]"\n'


def test_forked_run_is_identical_to_dumbbell_run(tmp_path):
    """Same stdout, same trace file, same exit code; the script's own exit
    code comes back."""
    script = ROOT / "examples" / "seed002" / "basic2.tcl"
    args = ["23", "0.002", "0.8", "20", "20", "0", "t.tr"]
    ref = tmp_path / "ref"
    ref.mkdir()
    p = subprocess.run(DUMBBELL + [str(script), *args], cwd=ref, capture_output=True)
    assert p.returncode == 0, p.stderr
    fs = _forkserver.ForkServer()
    try:
        for i in range(2):  # the second fork starts from the same pristine state
            run = tmp_path / f"run{i}"
            run.mkdir()
            fs.start(script, args, run, dict(os.environ), run / "out", run / "err")
            assert fs.wait(60) == 0
            assert (run / "out").read_bytes() == p.stdout
            assert (run / "t.tr").read_bytes() == (ref / "t.tr").read_bytes()
            assert (run / "t.tr").stat().st_size > 100_000
        bad = tmp_path / "bad.tcl"
        bad.write_text("puts hello\nexit 3\n")
        fs.start(bad, [], tmp_path, dict(os.environ), tmp_path / "o", tmp_path / "e")
        assert fs.wait(30) == 3 and (tmp_path / "o").read_text() == "hello\n"
    finally:
        fs.close()


def test_forked_run_sees_its_own_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SWEEP_B", "in the server only")
    (tmp_path / "env.tcl").write_text(ENV_TCL)
    fs = _forkserver.ForkServer()
    try:
        env = {k: v for k, v in os.environ.items() if k != "SWEEP_B"}
        env["SWEEP_A"] = "run"
        fs.start(tmp_path / "env.tcl", [], tmp_path, env, tmp_path / "o", tmp_path / "e")
        assert fs.wait(30) == 0, (tmp_path / "e").read_text()
        assert (tmp_path / "o").read_text() == "A=run B=0 SWEEP_A\n"
    finally:
        fs.close()


def test_timeout_kills_the_forked_run(tmp_path):
    (tmp_path / "slow.tcl").write_text("after 20000\nputs done\n")
    fs = _forkserver.ForkServer()
    try:
        pid = fs.start(tmp_path / "slow.tcl", [], tmp_path, dict(os.environ), tmp_path / "o", tmp_path / "e")
        assert fs.wait(0.3) is None
        os.killpg(pid, signal.SIGKILL)
        assert fs.wait(10) == -signal.SIGKILL
        # the server goes on serving
        (tmp_path / "ok.tcl").write_text("puts ok\n")
        fs.start(tmp_path / "ok.tcl", [], tmp_path, dict(os.environ), tmp_path / "o", tmp_path / "e")
        assert fs.wait(30) == 0 and (tmp_path / "o").read_text() == "ok\n"
    finally:
        fs.close()


def _basic2_plan(plandir):
    return Plan(script="basic2.tcl", args=["{delayB}", "0.002", "0.8", "20", "20"],
                params={"delayB": [0, 5, 23, 36]}, metrics={"columns": BASIC2_COLUMNS}, base_dir=plandir)


def test_sweep_same_table_with_and_without_fork_server(plandir, monkeypatch):
    a = run_sweep(_basic2_plan(plandir), cache_dir=False, progress=False, jobs=2)
    monkeypatch.setenv("DUMBBELL_SWEEP_FORK", "0")
    b = run_sweep(_basic2_plan(plandir), cache_dir=False, progress=False, jobs=2)
    cols = ["delayB", "recv0", "recv1", "ratio1", "status"]
    assert a.select(cols).equals(b.select(cols))
    assert a["status"].to_list() == ["ok"] * 4


def test_sweep_survives_the_fork_server_dying(plandir):
    """A server that dies while a run is handed to it: that run goes on as
    its own process, the next ones get a new server."""
    calls = []
    orig = _forkserver.ForkServer.start

    def flaky(self, *a, **k):
        calls.append(self)
        if len(calls) == 1:
            self.proc.kill()
            self.proc.wait()
        return orig(self, *a, **k)

    _forkserver.ForkServer.start = flaky
    try:
        df = run_sweep(_basic2_plan(plandir), cache_dir=False, progress=False, jobs=1)
    finally:
        _forkserver.ForkServer.start = orig
    assert df["status"].to_list() == ["ok"] * 4
    assert df.filter(pl.col("delayB") == 36)["recv1"].item() > 0
    # three runs went to a second, new server
    assert len(calls) == 4 and calls[1] is not calls[0] and calls[1] is calls[3]


def test_stray_output_of_the_server_does_not_disturb_its_answers(tmp_path, monkeypatch):
    """The server answers on a pipe of its own: a line printed on its stdout
    (here by a sitecustomize module) is not taken for an answer."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("print('hello from sitecustomize')\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    (tmp_path / "ok.tcl").write_text("puts ok\n")
    fs = _forkserver.ForkServer()
    try:
        for i in range(3):
            fs.start(tmp_path / "ok.tcl", [], tmp_path, dict(os.environ), tmp_path / "o", tmp_path / "e")
            assert fs.wait(30) == 0 and (tmp_path / "o").read_text() == "ok\n"
    finally:
        fs.close()


def test_a_run_can_be_killed_as_soon_as_it_is_started(tmp_path):
    """The run's process group exists when its pid is answered (no race with
    the child setting it up)."""
    (tmp_path / "slow.tcl").write_text("after 20000\n")
    fs = _forkserver.ForkServer()
    try:
        for _ in range(10):
            pid = fs.start(tmp_path / "slow.tcl", [], tmp_path, dict(os.environ), tmp_path / "o", tmp_path / "e")
            os.killpg(pid, signal.SIGKILL)
            assert fs.wait(10) == -signal.SIGKILL
    finally:
        fs.close()


def test_errors_before_the_script_go_to_the_runs_stderr(tmp_path):
    fs = _forkserver.ForkServer()
    try:
        fs.start(tmp_path / "x.tcl", [], tmp_path / "missing-dir", dict(os.environ), tmp_path / "o", tmp_path / "e")
        assert fs.wait(30) == 1
        assert "missing-dir" in (tmp_path / "e").read_text()
    finally:
        fs.close()


def test_a_sweep_stops_its_fork_servers(plandir, monkeypatch):
    started = []
    orig = _forkserver.ForkServer.__init__

    def init(self):
        orig(self)
        started.append(self)

    monkeypatch.setattr(_forkserver.ForkServer, "__init__", init)
    df = run_sweep(_basic2_plan(plandir), cache_dir=False, progress=False, jobs=2)
    assert df["status"].to_list() == ["ok"] * 4
    assert started and _forkserver._servers == []
    assert all(fs.proc.poll() is not None for fs in started)
