"""Running sweeps: the table, the cache (a repeated sweep runs nothing),
failed runs, timeouts, kept output files, input files, Python functions,
and resuming after the sweep was killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import polars as pl
import pytest

from conftest import BASIC2_COLUMNS, ROOT
from dumbbell import sweep
from dumbbell.sweep import Plan, run_sweep

DUMBBELL = [sys.executable, "-m", "dumbbell.cli"]


def _basic2_plan(plandir, **kw):
    args = dict(script="basic2.tcl", args=["{delayB}", "{overhead}", "0.8", "{endtime}", "20", "{seed}"],
                params={"delayB": [0, 5, 36], "overhead": 0.01, "endtime": 8}, seeds=2,
                metrics={"columns": BASIC2_COLUMNS}, base_dir=plandir)
    args.update(kw)
    return Plan(**args)


def test_basic2_sweep_table(plandir):
    df = run_sweep(_basic2_plan(plandir), out=plandir / "t.parquet", jobs=2, progress=False)
    assert df.columns == ["delayB", "overhead", "endtime", "seed", "recv0", "recv1", "rttratio", "rttratio2",
                          "actualratio", "ratio1", "ratio2", "status", "error", "elapsed", "key"]
    assert df["delayB"].to_list() == [0, 0, 5, 5, 36, 36] and df["seed"].to_list() == [1, 2] * 3
    assert df["status"].to_list() == ["ok"] * 6 and df["error"].null_count() == 6
    assert df.schema["recv0"] == pl.Int64 and df.schema["ratio1"] == pl.Float64 and df.schema["delayB"] == pl.Int64
    assert (df["elapsed"] > 0).all() and df["key"].n_unique() == 6
    # the numbers are the script's own under `dumbbell run`
    r = subprocess.run(DUMBBELL + ["run", "basic2.tcl", "36", "0.01", "0.8", "8", "20", "2"], cwd=plandir,
                       capture_output=True, text=True, check=True)
    last = r.stdout.split("\n")[-2].split()
    row = df.row(5, named=True)
    assert (row["recv0"], row["recv1"], row["ratio2"]) == (int(last[2]), int(last[3]), float(last[8]))
    # seeds differ (overhead draws from the seeded RNG)
    assert df["recv0"][4] != df["recv0"][5]
    # Parquet round trip
    back = pl.read_parquet(plandir / "t.parquet")
    assert back.equals(df)


def test_repeated_sweep_runs_nothing(plandir, runlog):
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": {"start": 1, "stop": 6, "step": 1}},
                metrics={"columns": ["double", "triple"]}, base_dir=plandir)
    df1 = run_sweep(plan, jobs=2, progress=False)
    assert sorted(runlog.lines()) == ["1", "2", "3", "4", "5", "6"]
    assert sweep.last_report.ran == 6 and sweep.last_report.cached == 0
    runlog.clear()
    df2 = run_sweep(plan, jobs=2, progress=False)
    assert runlog.lines() == [] and sweep.last_report.ran == 0 and sweep.last_report.cached == 6
    assert df2.equals(df1)  # elapsed too: it is the run's, from the cache
    assert df1["double"].to_list() == [2, 4, 6, 8, 10, 12]
    # another metrics spec re-reads the cached stdout: still nothing runs
    plan2 = Plan(script="count.tcl", args=["{x}"], params={"x": {"start": 1, "stop": 6, "step": 1}},
                 metrics={"regex": r"sq=(?P<sq>\d+)"}, base_dir=plandir)
    df3 = run_sweep(plan2, jobs=2, progress=False)
    assert runlog.lines() == [] and df3["sq"].to_list() == [1, 4, 9, 16, 25, 36]
    # a new point runs alone
    plan3 = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2, 3, 4, 5, 6, 7]},
                 metrics={"columns": ["double", "triple"]}, base_dir=plandir)
    df4 = run_sweep(plan3, jobs=2, progress=False)
    assert runlog.lines() == ["7"] and df4["triple"].to_list()[-1] == 21
    # --no-cache style: cache_dir=False runs everything and stores nothing
    runlog.clear()
    run_sweep(plan, jobs=2, progress=False, cache_dir=False)
    assert len(runlog.lines()) == 6


def test_failed_run_does_not_stop_the_others(plandir, runlog):
    plan = Plan(script="count.tcl", args=["{x}", "0", "3"], params={"x": [1, 2, 3, 4]},
                metrics={"columns": ["double", "triple"]}, base_dir=plandir)
    df = run_sweep(plan, jobs=2, progress=False)
    assert df["status"].to_list() == ["ok", "ok", "failed", "ok"]
    err = df["error"][2]
    assert err.startswith("exit code 1") and "count.tcl: x = 3 is refused" in err
    assert df["double"].to_list() == [2, 4, None, 8]
    assert sweep.last_report.failed == 1 and "x=3 seed=1: exit code 1" in sweep.last_report.failures[0]
    # failures are cached: a repeat reports them without running ...
    runlog.clear()
    df2 = run_sweep(plan, jobs=2, progress=False)
    assert runlog.lines() == [] and df2["status"].to_list() == df["status"].to_list()
    # ... unless asked to retry them
    run_sweep(plan, jobs=2, progress=False, retry_failed=True)
    assert runlog.lines() == ["3"]


def test_metric_errors_fail_the_row_not_the_sweep(plandir):
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2]}, metrics={"columns": ["a", "b", "c"]},
                base_dir=plandir)
    df = run_sweep(plan, progress=False)
    assert df["status"].to_list() == ["failed", "failed"]
    assert df["error"][0].startswith("metrics: metrics.columns names 3 fields, the line has 2")


def test_timeout(plandir):
    plan = Plan(script="count.tcl", args=["{x}", "{ms}"], params={"x": [1, 2], "ms": 0}, zip=(),
                timeout=1.0, base_dir=plandir)
    slow = Plan(script="count.tcl", args=["{x}", "{ms}"], params={"x": [1], "ms": [5000]}, timeout=0.5,
                base_dir=plandir)
    t0 = time.monotonic()
    df = run_sweep(slow, progress=False)
    assert time.monotonic() - t0 < 4
    assert df["status"][0] == "failed" and df["error"][0].startswith("timed out after 0.5 s")
    assert run_sweep(plan, progress=False)["status"].to_list() == ["ok", "ok"]


def test_outputs_kept_and_inputs_copied(plandir):
    # a script that sources a file from its parent directory, as the examples
    # source ../old-defaults.tcl, and writes a trace
    (plandir / "lib").mkdir()
    (plandir / "lib" / "defaults.tcl").write_text("set qsize 20\n")
    (plandir / "exp").mkdir()
    (plandir / "exp" / "b2.tcl").write_text(
        "source [file join [file dirname [info script]] .. lib defaults.tcl]\n"
        + (plandir / "basic2.tcl").read_text().replace("set queuesize 20", "set queuesize $qsize"))
    plan = Plan(script="exp/b2.tcl", inputs=["lib/defaults.tcl"], outputs=["out.tr"],
                args=["{delayB}", "0", "0.8", "3", "20", "0", "out.tr"], params={"delayB": [0, 10]},
                metrics={"columns": BASIC2_COLUMNS, "function": "sweepfns:trace_counts"}, base_dir=plandir)
    df = run_sweep(plan, jobs=2, progress=False)
    assert df["status"].to_list() == ["ok", "ok"], df["error"].to_list()
    assert df.columns[-1] == "files" and "enq" in df.columns and "drops" in df.columns
    assert df["delay_seen"].to_list() == [0, 10]
    for row in df.iter_rows(named=True):
        tr = (plandir / ".dumbbell-cache" / "files" / row["key"] / "out.tr")
        assert row["files"] == str(tr.parent)
        assert sum(ln.startswith("+ ") for ln in tr.read_text().splitlines()) == row["enq"] > 0
    # the cached run keeps its files: a repeat finds them
    df2 = run_sweep(plan, jobs=2, progress=False)
    assert sweep.last_report.ran == 0 and df2.equals(df)
    # a declared output that is not written fails the run
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1]}, outputs=["nothing.tr"], base_dir=plandir)
    df = run_sweep(plan, progress=False)
    assert df["status"][0] == "failed" and "declared output 'nothing.tr' was not written" in df["error"][0]


def test_python_function_plans(plandir, runlog):
    plan = Plan(function="sweepfns:poly", params={"x": [1, 2, 3], "y": [10]}, seeds=2,
                metrics={"keep": ["zs", "z"]}, base_dir=plandir)
    df = run_sweep(plan, jobs=2, progress=False)
    assert df.columns == ["x", "y", "seed", "zs", "z", "status", "error", "elapsed", "key"]
    assert df["z"].to_list() == [11, 11, 14, 14, 19, 19]
    assert df["zs"].to_list() == [11.1, 11.2, 14.1, 14.2, 19.1, 19.2]
    assert len(runlog.lines("poly")) == 6
    runlog.clear()
    assert run_sweep(plan, jobs=2, progress=False).equals(df) and runlog.lines("poly") == []
    # errors in the function fail their run only, with the traceback
    df = run_sweep(Plan(function="sweepfns:broken", params={"x": [1, 2, 3]}, base_dir=plandir), progress=False)
    assert df["status"].to_list() == ["ok", "failed", "ok"]
    assert "ValueError: x = 2 is not allowed" in df["error"][1]
    df = run_sweep(Plan(function="sweepfns:not_a_dict", params={"x": [1]}, base_dir=plandir), progress=False)
    assert "returned list, not a dict of metrics" in df["error"][0]


def test_python_api_simulation_plan(plandir):
    import sweepfns

    plan = Plan(function=sweepfns.basic2, params={"delayB": [0, 36], "overhead": 0.01, "endtime": 6.0}, seeds=2,
                base_dir=plandir)
    df = run_sweep(plan, jobs=2, progress=False)
    assert df["status"].to_list() == ["ok"] * 4
    direct = sweepfns.basic2(36, 0.01, 6.0, seed=2)
    assert df.filter((pl.col("delayB") == 36) & (pl.col("seed") == 2))["recv0"].item() == direct["recv0"]


MAIN_SCRIPT = """
import sys
from dumbbell.sweep import Plan, run_sweep

def spread(x, seed):
    return {"v": x * 100 + seed}

if __name__ == "__main__":
    df = run_sweep(Plan(function=spread, params={"x": [1, 2]}, seeds=2), out=sys.argv[1], progress=False)
    print(df["v"].to_list())
"""


def test_function_defined_in_the_main_script(plandir):
    # the usual way: a script defines the function and sweeps it
    (plandir / "mysweep.py").write_text(MAIN_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    r = subprocess.run([sys.executable, "mysweep.py", "t.parquet"], cwd=plandir, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[101, 102, 201, 202]"
    assert (plandir / ".dumbbell-cache").is_dir() and (plandir / "t.parquet").exists()


def test_csv_output(plandir):
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2]}, metrics={"columns": ["a", "b"]},
                base_dir=plandir)
    df = run_sweep(plan, out=plandir / "t.csv", progress=False)
    assert pl.read_csv(plandir / "t.csv")["a"].to_list() == df["a"].to_list() == [2, 4]


# ---- interrupting and resuming ----------------------------------------------------------------------

# The first runs are short; the later ones (those in flight when a test
# interrupts the sweep after five records) take long enough that none can
# end by itself while the interruption reaches it.
RESUME_MS = [250 + i for i in range(5)] + [700 + i for i in range(11)]  # (a parameter takes distinct values)
RESUME_TOML = f"""
script = "count.tcl"
args = ["{{x}}", "{{ms}}"]
out = "resume.parquet"
zip = [["x", "ms"]]
[params]
x = {{start = 1, stop = 16, step = 1}}
ms = {RESUME_MS}
[metrics]
columns = ["double", "triple"]
"""


def _records(cache):
    return sorted(p.stem for p in (cache / "runs").rglob("*.json")) if (cache / "runs").exists() else []


def _start(plandir, log, *extra):
    env = {**os.environ, "SWEEP_LOG": str(log), "PYTHONPATH": str(ROOT / "python")}
    return subprocess.Popen(DUMBBELL + ["sweep", "plan.toml", "-j", "2", *extra], cwd=plandir, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_records(cache, n, proc, limit=60):
    t0 = time.monotonic()
    while len(_records(cache)) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < limit
        time.sleep(0.02)


def _wait_gone(pids, limit):
    """Wait until none of `pids` runs any more (a zombie counts as gone)."""
    t0 = time.monotonic()
    for pid in pids:
        while True:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                break
            if state in ("Z", "X"):
                break
            assert time.monotonic() - t0 < limit, f"run process {pid} still alive {limit} s after the sweep was killed"
            time.sleep(0.01)


def test_resume_after_kill_9(plandir, runlog):
    (plandir / "plan.toml").write_text(RESUME_TOML)
    cache = plandir / ".dumbbell-cache"
    p = _start(plandir, runlog.path, "--no-progress")
    _wait_records(cache, 5, p)
    p.send_signal(signal.SIGKILL)  # the sweep only: its children must die with it
    p.communicate()
    # The kill reaches a run through its fork server (two parent-death
    # signals): every run process goes, and none of the long runs then in
    # flight finishes (a survivor would log "done" before it is gone).
    _wait_gone([int(x) for x in runlog.lines("pid")], limit=5.0)
    assert len(runlog.lines("done")) == len(_records(cache))
    finished = _records(cache)
    assert 5 <= len(finished) < 16
    started_before = runlog.lines("start")
    assert not (plandir / "resume.parquet").exists()
    runlog.clear()
    p = _start(plandir, runlog.path)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert f"{16 - len(finished)} run now, {len(finished)} from the cache" in err
    rerun = runlog.lines("start")
    assert len(rerun) == 16 - len(finished)
    # no finished run ran again
    keys = {r.params["x"]: r.key for r in Plan(script="count.tcl", args=["{x}", "{ms}"], base_dir=plandir,
                                               params={"x": list(range(1, 17)), "ms": RESUME_MS},
                                               zip=[["x", "ms"]]).runs()}
    assert not {str(x) for x, k in keys.items() if k in finished} & set(rerun)
    assert len(started_before) >= len(finished)
    df = pl.read_parquet(plandir / "resume.parquet")
    # the same table as an uninterrupted sweep (elapsed aside)
    whole = run_sweep(plandir / "plan.toml", out=plandir / "whole.parquet", cache_dir=plandir / "fresh",
                      progress=False)
    assert df.drop("elapsed").equals(whole.drop("elapsed"))
    assert df["double"].to_list() == [2 * x for x in range(1, 17)]


def test_ctrl_c_stops_cleanly_and_resumes(plandir, runlog):
    (plandir / "plan.toml").write_text(RESUME_TOML)
    cache = plandir / ".dumbbell-cache"
    p = _start(plandir, runlog.path)
    _wait_records(cache, 5, p)  # the short runs are done: those in flight are long
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert "run the same sweep again to resume" in err
    finished = _records(cache)
    _wait_gone([int(x) for x in runlog.lines("pid")], limit=5.0)  # the children were killed ...
    assert len(runlog.lines("done")) == len(finished)  # ... before they could finish
    p = _start(plandir, runlog.path, "--no-progress")
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    assert f"{len(finished)} from the cache" in err
    assert len(pl.read_parquet(plandir / "resume.parquet")) == 16


def test_shared_cache_keeps_the_first_stored_outputs(tmp_path):
    """Two sweeps sharing a cache may store the same run's outputs: the
    second store keeps the first (outputs are deterministic) instead of
    failing."""
    cache = sweep.Cache(tmp_path / "c")
    rec = {"format": sweep.CACHE_FORMAT, "key": "ab" * 32, "status": "ok", "files": ["out.tr"]}
    cache.put(dict(rec), blobs={"out.tr": b"first"})
    cache.put(dict(rec), blobs={"out.tr": b"second"})
    assert (cache.files_dir(rec["key"]) / "out.tr").read_bytes() == b"first"
    assert not list((tmp_path / "c" / "files").glob(".staging-*"))
    assert cache.get(rec["key"])["status"] == "ok"


def test_build_id_covers_every_module(tmp_path):
    """A changed metrics module (which a metrics.function may call) is a
    different build, so cached results are not reused."""
    import shutil

    pkg = ROOT / "python" / "dumbbell"
    copy = tmp_path / "dumbbell"
    shutil.copytree(pkg, copy, ignore=shutil.ignore_patterns("__pycache__"))
    code = "import dumbbell.sweep as s; print(s.build_id())"
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def bid():
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              cwd=tmp_path, check=True).stdout.strip()

    before = bid()
    (copy / "metrics.py").write_text((copy / "metrics.py").read_text() + "\n# changed\n")
    assert bid() != before


def test_dry_run_creates_no_cache(plandir, capsys):
    (plandir / "p.toml").write_text('script = "count.tcl"\n[params]\nx = [1, 2]\n')
    assert sweep.cli_main([str(plandir / "p.toml"), "--dry-run"]) == 0
    assert "2 to run" in capsys.readouterr().out
    assert not (plandir / ".dumbbell-cache").exists()


def test_cli_exit_code_and_report_with_a_failed_run(plandir):
    # A sweep whose runs all ran but one failed exits 1 and names the run;
    # a bad plan exits 2.
    (plandir / "plan.toml").write_text('script = "count.tcl"\nargs = ["{x}", "0", "3"]\n[params]\nx = [1, 3, 5]\n'
                                       '[metrics]\ncolumns = ["double", "triple"]\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    r = subprocess.run([*DUMBBELL, "sweep", "plan.toml", "--no-progress"], cwd=plandir, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "3 runs, 2 ok, 1 failed" in r.stderr
    assert "failed: x=3 seed=1: exit code 1" in r.stderr and "--retry-failed" in r.stderr
    assert pl.read_parquet(plandir / "plan.parquet")["status"].to_list() == ["ok", "failed", "ok"]
    (plandir / "bad.toml").write_text('script = "count.tcl"\nbogus = 1\n[params]\nx = [1]\n')
    r = subprocess.run([*DUMBBELL, "sweep", "bad.toml"], cwd=plandir, env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("dumbbell sweep: ") and "bogus" in r.stderr


def test_progress_lines_in_a_log():
    # Not on a terminal: a line at the start, then at most one every 30 s,
    # and the last one when every run is done, with cached and failed counts.
    import io

    out = io.StringIO()
    p = sweep.Progress(total=4, cached=1, stream=out)
    p.update(failed=False)
    p.update(failed=True)
    assert out.getvalue().count("\n") == 1  # only the first line so far
    p.update(failed=False)
    p.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("sweep 1/4  25% |######..................|") and "(1 cached)" in lines[0]
    assert lines[1].startswith("sweep 4/4 100% |########################|")
    assert lines[1].endswith("ETA 0:00:00 (1 cached, 1 failed)")
    assert "\r" not in out.getvalue()
    quiet = io.StringIO()
    q = sweep.Progress(total=2, cached=0, enabled=False, stream=quiet)
    q.update(failed=False)
    q.close()
    assert quiet.getvalue() == ""


def test_python_path_is_searched_before_sys_path(plandir, tmp_path, monkeypatch):
    # A plan's python_path comes first: its module shadows one of the same
    # name elsewhere on sys.path (in the runs' own processes too).
    mine, other = tmp_path / "mine", tmp_path / "other"
    for d, v in ((mine, 1), (other, 2)):
        d.mkdir()
        (d / "shadowfn.py").write_text(f"def f(x):\n    return {{'v': {v} * 100 + x}}\n")
    monkeypatch.syspath_prepend(str(other))
    plan = Plan(function="shadowfn:f", params={"x": [1, 2]}, python_path=[str(mine)], base_dir=plandir)
    df = run_sweep(plan, jobs=1, cache_dir=False, progress=False)
    assert df["v"].to_list() == [101, 102]
    plan = Plan(function="shadowfn:f", params={"x": [1]}, base_dir=plandir)  # default: the plan's directory
    df = run_sweep(plan, jobs=1, cache_dir=False, progress=False)
    assert df["v"].to_list() == [201]
    # Reading a plan leaves this process's sys.path and modules alone.
    assert str(mine) not in sys.path and "shadowfn" not in sys.modules
    import shadowfn  # from `other`, as this process's own path says

    assert shadowfn.f(0) == {"v": 200}
    plan = Plan(function="shadowfn:f", params={"x": [3]}, python_path=[str(mine)], base_dir=plandir)
    assert run_sweep(plan, jobs=1, cache_dir=False, progress=False)["v"].to_list() == [103]
    assert sys.modules["shadowfn"] is shadowfn


def test_a_plan_sees_the_module_file_as_it_is_now(plandir, tmp_path, monkeypatch):
    # A module this process imported and whose file was edited since (a
    # notebook's usual course): the plan is checked against the file as the
    # runs will import it, not against the function in memory.  (So reading
    # a plan imports the module afresh, even when it is already loaded.)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "editedfn.py").write_text("def f(x):\n    return {'v': x}\n")
    monkeypatch.syspath_prepend(str(mine))
    import editedfn

    (mine / "editedfn.py").write_text("def f(x, y):\n    return {'v': x * y}\n")
    plan = Plan(function="editedfn:f", params={"x": [2], "y": [5]}, python_path=[str(mine)], base_dir=plandir)
    assert sys.modules["editedfn"] is editedfn
    assert run_sweep(plan, jobs=1, cache_dir=False, progress=False)["v"].to_list() == [10]


def test_plots_named_after_the_table(plandir):
    # A [[plots]] entry without a path is drawn beside the table as
    # TABLE-Y-vs-X.png; with a path, there.
    plan = Plan(script="count.tcl", args=["{x}"], params={"x": [1, 2, 3]}, metrics={"columns": ["double", "triple"]},
                plots=[{"x": "x", "y": "double"}, {"x": "x", "y": ["double", "triple"], "path": "both.svg"}],
                base_dir=plandir)
    run_sweep(plan, plandir / "t.parquet", cache_dir=False, progress=False)
    assert (plandir / "t-double-vs-x.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (plandir / "both.svg").read_bytes()[:500]
