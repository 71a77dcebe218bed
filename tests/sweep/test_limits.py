"""Run limits and --safe in sweeps: a plan's `max_events`, `max_wall` and
`safe` reach every run (forked by the fork server or started as a process),
and a run a limit stopped is recorded as "stopped", not as a failure."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dumbbell import sweep
from dumbbell.sweep import Plan, run_sweep
from dumbbell.sweep.params import PlanError

# basic2 (examples/seed002) for 10^5 simulated seconds: seconds of work.
LONG_ARGS = ["{delayB}", "0.01", "0.8", "100000", "20", "1"]
COLUMNS = ["_", "_", "recv0", "recv1", "rttratio", "rttratio2", "actualratio", "ratio1", "ratio2"]

SPIN_TCL = "puts started\nwhile 1 {}\n"
EXEC_TCL = "puts [exec echo from-a-program]\nputs \"0 0\"\n"


@pytest.fixture(params=["fork", "spawn"])
def how(request, monkeypatch):
    """Runs forked by the fork server, and started as processes."""
    monkeypatch.setenv("DUMBBELL_SWEEP_FORK", "1" if request.param == "fork" else "0")
    return request.param


def test_max_events_stops_a_run_and_it_is_recorded_as_stopped(plandir, how):
    plan = Plan(script="basic2.tcl", args=LONG_ARGS, params={"delayB": [0, 5]}, max_events=20000,
                metrics={"columns": COLUMNS}, base_dir=plandir)
    df = run_sweep(plan, jobs=2, progress=False)
    assert df["status"].to_list() == ["stopped", "stopped"]
    for err in df["error"]:
        assert err.startswith("stopped: the run passed its limit of 20000 events"), err
    assert (df["elapsed"] < 30).all()
    assert sweep.last_report.stopped == 2 and sweep.last_report.failed == 0
    assert sweep.last_report.failures[0].startswith("stopped: delayB=0 seed=1: stopped: the run passed")


def test_max_wall_stops_a_script_looping_in_tcl(plandir, how):
    (plandir / "spin.tcl").write_text(SPIN_TCL)
    plan = Plan(script="spin.tcl", args=[], params={"x": [1]}, max_wall=0.5, timeout=60,
                metrics={"columns": ["word"]}, base_dir=plandir)
    df = run_sweep(plan, jobs=1, progress=False)
    assert df["status"].to_list() == ["stopped"]
    assert "limit of 0.5 s of wall-clock time" in df["error"][0]
    assert df["elapsed"][0] < 20


def test_safe_reaches_every_run(plandir, how):
    (plandir / "ex.tcl").write_text(EXEC_TCL)
    free = Plan(script="ex.tcl", args=[], params={"x": [1]}, metrics={"columns": ["a", "b"]}, base_dir=plandir)
    assert run_sweep(free, jobs=1, progress=False)["status"].to_list() == ["ok"]
    safe = Plan(script="ex.tcl", args=[], params={"x": [1]}, safe=True, metrics={"columns": ["a", "b"]},
                base_dir=plandir)
    assert safe.runs()[0].key != free.runs()[0].key, "--safe is part of the cache key"
    df = run_sweep(safe, jobs=1, progress=False)
    assert df["status"].to_list() == ["failed"]
    assert "exec is not allowed with --safe" in df["error"][0]


def test_a_stopped_run_is_cached_under_its_limits_only(plandir):
    def plan(n):
        return Plan(script="basic2.tcl", args=LONG_ARGS, params={"delayB": [0]}, max_events=n,
                    metrics={"columns": COLUMNS}, base_dir=plandir)

    run_sweep(plan(20000), jobs=1, progress=False)
    assert sweep.last_report.ran == 1
    df = run_sweep(plan(20000), jobs=1, progress=False)
    assert sweep.last_report.ran == 0 and df["status"][0] == "stopped"
    # the same key (a limit cannot change a run that finishes), but other
    # limits: the stopped run runs again
    assert plan(20000).runs()[0].key == plan(30000).runs()[0].key
    df = run_sweep(plan(30000), jobs=1, progress=False)
    assert sweep.last_report.ran == 1 and "limit of 30000 events" in df["error"][0]


def test_a_function_stopped_by_its_own_limit_is_stopped(plandir):
    plan = Plan(function="sweepfns:runaway", params={"events": [50000]}, base_dir=plandir,
                python_path=[str(plandir), str(__import__("pathlib").Path(__file__).parent)])
    df = run_sweep(plan, jobs=1, progress=False, cache_dir=False)
    assert df["status"].to_list() == ["stopped"]
    assert df["error"][0].startswith("stopped: the run passed its limit of 50000 events"), df["error"][0]


@pytest.mark.parametrize("kw,needle", [
    ({"max_events": 0}, "max_events: expected a whole number of events >= 1; got 0"),
    ({"max_events": 1.5}, "max_events: expected a whole number"),
    ({"max_wall": -1}, "max_wall: expected seconds > 0; got -1"),
    ({"max_wall": float("inf")}, "max_wall: expected seconds > 0"),
    ({"safe": "yes"}, "safe: expected true or false; got 'yes'"),
])
def test_bad_run_options_are_refused(plandir, kw, needle):
    with pytest.raises(PlanError, match=needle.replace("(", r"\(").replace("[", r"\[")):
        Plan(script="count.tcl", params={"x": [1]}, base_dir=plandir, **kw)


def test_run_options_are_for_scripts(plandir):
    with pytest.raises(PlanError, match="safe: only for scripts"):
        Plan(function="sweepfns:poly", params={"x": [1]}, safe=True, base_dir=plandir)


def test_plan_file_and_dry_run_show_the_options(plandir):
    (plandir / "p.toml").write_text('script = "count.tcl"\nsafe = true\nmax_events = 1000\nmax_wall = 2.5\n'
                                    '[params]\nx = [1]\n')
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "sweep", "p.toml", "--dry-run"], cwd=plandir,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "would run: dumbbell run --safe --max-events 1000 --max-wall 2.5 count.tcl 1" in r.stdout, r.stdout
