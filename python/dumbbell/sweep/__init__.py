"""Parameter sweeps: many runs of one scenario, in parallel, cached, in one table.

A *plan* names what to run (an ns-2 script, or a Python function), the
parameters with their values (lists, ranges, linspaces; a cartesian product,
optionally with zipped groups), a number of seeds, and the metrics to keep.

    plan = Plan(script="basic2.tcl",
                args=["{delayB}", "0", "0.8", "300"],
                params={"delayB": {"start": 0, "stop": 400, "step": 1}},
                metrics={"columns": ["_", "_", "recv0", "recv1", "rttratio",
                                     "rttratio2", "actualratio", "ratio1", "ratio2"]})
    df = run_sweep(plan, out="basic2.parquet")

or, from the shell, `dumbbell sweep plan.toml` (docs/sweeps.md).

Every run is its own process in its own temporary directory.  A finished run
is stored at once in the cache (one JSON file per run, keyed by a hash of
everything the run depends on), so a sweep that is interrupted resumes where
it stopped and a repeated sweep runs nothing.  The same plan runs on a Dask
cluster with `dask="tcp://host:port"`.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

from .cache import CACHE_FORMAT, Cache, build_id, cache_dir_for, partition  # noqa: F401
from .worker import execute
from .executors import default_jobs, run_dask, run_local
from .metrics import MetricError, Metrics, convert  # noqa: F401
from .params import NAME, RESERVED, PlanError, expand  # noqa: F401
from .plan import Plan, Run, load_plan
from .plot import draw_plots, plot_sweep
from .progress import Progress
from .stats import summarise, t_quantile
from .table import assemble, failure_lines, write_table

__all__ = ["Plan", "PlanError", "run_sweep", "summarise", "t_quantile", "plot_sweep", "load_plan", "execute",
           "cli_main"]


# ---- running a sweep ------------------------------------------------------------------------------

class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a sweep: the children are killed, finished
    runs are in the cache; running the same sweep again resumes."""


class SweepReport:
    """What the last `run_sweep` did (also printed by the command line)."""

    def __init__(self):
        self.total = self.cached = self.ran = self.failed = 0
        self.wall = 0.0
        self.jobs = 0
        self.failures: list[str] = []

    def __repr__(self):
        return (f"SweepReport(total={self.total}, cached={self.cached}, ran={self.ran}, failed={self.failed}, "
                f"wall={self.wall:.2f})")


#: The report of the most recent run_sweep in this process.
last_report = SweepReport()


def _as_plan(plan) -> Plan:
    if isinstance(plan, Plan):
        return plan
    if isinstance(plan, (str, os.PathLike)):
        return load_plan(plan)
    if isinstance(plan, dict):
        return Plan(**plan)
    raise TypeError(f"run_sweep: expected a Plan, a plan file or a dict; got {type(plan).__name__}")


def run_sweep(plan, out=None, *, jobs: int | None = None, cache_dir=None, dask=None, progress: bool = True,
              retry_failed: bool = False):
    """Run every run of `plan` not already in the cache; return the table.

    plan         -- a Plan, a path to a TOML plan, or a dict of Plan's keywords
    out          -- write the table here (.parquet, or .csv); default the
                    plan's `out`, else PLAN.parquet beside a plan file; a
                    Plan built in Python without `out` writes nothing
    jobs         -- parallel runs (default: all cores available to us)
    cache_dir    -- the cache directory (default the plan's `cache`, else
                    .dumbbell-cache beside the plan); False for no cache
    dask         -- a Dask scheduler address ("tcp://host:port") or a
                    distributed.Client: runs go to its workers
    progress     -- a progress bar on stderr
    retry_failed -- run again the runs whose failure is in the cache

    Rows are in plan order (see Plan.points), then seed: the table does not
    depend on the order runs finish in, nor on what came from the cache.
    Ctrl-C raises SweepInterrupted after killing the running children.
    """
    global last_report
    plan = _as_plan(plan)
    t0 = time.monotonic()
    rep = SweepReport()
    last_report = rep
    cache = Cache(cache_dir_for(plan, cache_dir) or None)
    runs = plan.runs()
    records, todo = partition(runs, cache, retry_failed)
    pending = {r.key: r.task for r in todo}
    rep.total, rep.cached = len(runs), len(records)
    jobs = max(1, int(jobs or default_jobs()))
    rep.jobs = jobs
    bar = Progress(len(records) + len(pending), len(records), enabled=progress)

    def done(rec):
        staged, blobs = rec.pop("_staged", None), rec.pop("_blobs", None)
        transient = rec.pop("transient", False)
        if rec["status"] == "cancelled":
            if staged:
                shutil.rmtree(staged, ignore_errors=True)
            return
        if not transient:
            cache.put(rec, staged=staged, blobs=blobs)
        elif staged:
            shutil.rmtree(staged, ignore_errors=True)
        records[rec["key"]] = rec
        rep.ran += 1
        bar.update(rec["status"] != "ok")

    for t in pending.values():
        t["stage"] = str(cache.root / "files") if (cache.root and t["outputs"] and dask is None) else None
    try:
        if pending:
            if dask is not None:
                run_dask(list(pending.values()), dask, done)
            else:
                run_local(list(pending.values()), jobs, done)
    except KeyboardInterrupt:
        bar.close()
        rep.wall = time.monotonic() - t0
        raise SweepInterrupted(f"interrupted: {len(records)} of {len(pending) + rep.cached} runs finished and "
                               "cached; run the same sweep again to resume") from None
    bar.close()
    df = assemble(plan, runs, records, cache)
    rep.failed = int((df["status"] != "ok").sum())
    rep.failures = failure_lines(plan, df)
    out = Path(out) if out else plan.default_out
    if out is not None:
        write_table(df, out)
        draw_plots(plan, df, out)
    rep.wall = time.monotonic() - t0
    return df


# ---- the command line ------------------------------------------------------------------------------

def _parse_set(items) -> dict:
    out = {}
    for it in items or []:
        name, eq, value = it.partition("=")
        if not eq or not NAME.match(name.strip()):
            raise PlanError(f"--set {it!r}: expected NAME=VALUE (a TOML value, e.g. 20, [1, 2] or "
                            "{start = 0, stop = 10, step = 1})")
        try:
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover
                import tomli as tomllib
            v = tomllib.loads(f"v = {value}")["v"]
        except Exception:  # noqa: BLE001 - a bare word is a string
            v = value
        out[name.strip()] = v
    return out


def cli_main(argv: list[str]) -> int:
    """`dumbbell sweep PLAN.toml [options]`."""
    import argparse

    ap = argparse.ArgumentParser(prog="dumbbell sweep",
                                 description="Run a parameter sweep (docs/sweeps.md): in parallel, each run cached, "
                                             "resumable; results in one table.")
    ap.add_argument("plan", help="the plan (TOML)")
    ap.add_argument("-j", "--jobs", type=int, default=None, help="parallel runs (default: all cores)")
    ap.add_argument("-o", "--out", default=None, help="the table (.parquet or .csv; default: the plan's `out`, "
                                                      "else PLAN.parquet beside the plan)")
    ap.add_argument("--cache", default=None, help="cache directory (default: the plan's `cache`, else "
                                                  ".dumbbell-cache beside the plan)")
    ap.add_argument("--no-cache", action="store_true", help="run everything, store nothing")
    ap.add_argument("--dask", metavar="ADDR", default=None, help="run on a Dask cluster (tcp://host:port)")
    ap.add_argument("--retry-failed", action="store_true", help="run again the runs the cache records as failed")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("--dry-run", action="store_true", help="show the plan and what would run; run nothing")
    ap.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a parameter (TOML value)")
    a = ap.parse_args(argv)
    try:
        plan = load_plan(a.plan, _parse_set(a.set))
    except PlanError as e:
        sys.stderr.write(f"dumbbell sweep: {e}\n")
        return 2
    out = Path(a.out) if a.out else plan.default_out
    cache_dir = False if a.no_cache else (a.cache or None)
    if a.dry_run:
        return _dry_run(plan, cache_dir, a.retry_failed, out)

    def term(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, term)
    try:
        df = run_sweep(plan, out, jobs=a.jobs, cache_dir=cache_dir, dask=a.dask, progress=not a.no_progress,
                       retry_failed=a.retry_failed)
    except SweepInterrupted as e:
        sys.stderr.write(f"\ndumbbell sweep: {e}\n")
        return 130
    except (PlanError, RuntimeError, OSError) as e:
        sys.stderr.write(f"dumbbell sweep: {e}\n")
        return 2
    finally:
        signal.signal(signal.SIGTERM, old)
    r = last_report
    where = f"on {a.dask}" if a.dask else f"{r.jobs} jobs"
    sys.stderr.write(f"sweep {plan.name}: {r.total} runs, {r.total - r.failed} ok, {r.failed} failed; "
                     f"{r.ran} run now, {r.cached} from the cache; {r.wall:.1f} s ({where})\n"
                     f"table: {out} ({len(df)} rows x {len(df.columns)} columns)\n")
    for ln in r.failures:
        sys.stderr.write(f"  failed: {ln}\n")
    if r.failed > len(r.failures):
        sys.stderr.write(f"  ... and {r.failed - len(r.failures)} more (see the table's error column)\n")
    if r.failed:
        sys.stderr.write("  (failures are cached; --retry-failed runs them again)\n")
    return 1 if r.failed else 0


def _dry_run(plan, cache_dir, retry_failed, out) -> int:
    cache_dir = cache_dir_for(plan, cache_dir)
    cache = Cache(cache_dir or None, create=False)
    records, todo = partition(plan.runs(), cache, retry_failed)
    cached = len(records)
    failed = sum(rec["status"] != "ok" for rec in records.values())
    print(plan.describe())
    print(f"  cache {cache_dir or '(none)'}: {cached} runs done ({failed} failed), {len(todo)} to run")
    print(f"  table {out}")
    for r in todo[:5]:
        print(f"  would run: {plan.command(r)}")
    if len(todo) > 5:
        print(f"  ... and {len(todo) - 5} more")
    return 0
