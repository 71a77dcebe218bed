"""Running a sweep: `run_sweep`, what it reports, and Ctrl-C.

`run_sweep` expands a plan into runs, takes what the cache has, hands the
rest to an executor, stores each record as it comes, then builds, writes
and plots the table.  `last_report` is rebound by every sweep (read it as
`dumbbell.sweep.last_report`).  Relies on plan, cache, executors, progress,
table and plot.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from .cache import Cache, cache_dir_for, partition
from .executors import default_jobs, run_dask, run_local
from .plan import Plan, load_plan
from .plot import draw_plots
from .progress import Progress
from .table import assemble, failure_lines, write_table


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a sweep: the children are killed, finished
    runs are in the cache; running the same sweep again resumes."""


class SweepReport:
    """What the last `run_sweep` did (also printed by the command line)."""

    def __init__(self):
        self.total = self.cached = self.ran = self.failed = self.stopped = 0
        self.wall = 0.0
        self.jobs = 0
        self.failures: list[str] = []

    def __repr__(self):
        return (f"SweepReport(total={self.total}, cached={self.cached}, ran={self.ran}, failed={self.failed}, "
                f"stopped={self.stopped}, "
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
    rep.failed = int((df["status"] == "failed").sum())
    rep.stopped = int((df["status"] == "stopped").sum())
    rep.failures = failure_lines(plan, df)
    out = Path(out) if out else plan.default_out
    if out is not None:
        write_table(df, out)
        draw_plots(plan, df, out)
    rep.wall = time.monotonic() - t0
    return df
