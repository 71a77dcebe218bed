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

The package holds one module per part of the work:

    params     parameter values (expand), RESERVED, PlanError
    metrics    the plan's `metrics` spec and reading stdout (Metrics)
    plan       Plan, Run, load_plan: checking a plan, its runs and their keys
    cache      build_id and the run cache (Cache)
    worker     one run in a temporary directory (execute), its child processes
    executors  the local thread pool and Dask
    progress   the progress bar
    run        run_sweep, SweepReport, SweepInterrupted
    table      the result table (write_table)
    stats      t_quantile and summarise over seeds
    plot       plot_sweep
    cli        `dumbbell sweep` (cli_main)

This module re-exports their public names, so that `from dumbbell.sweep
import X` finds them.
"""

from __future__ import annotations

from . import run as _run
from .cache import CACHE_FORMAT, Cache, build_id  # noqa: F401
from .cli import cli_main
from .worker import execute
from .executors import default_jobs  # noqa: F401
from .metrics import MetricError, Metrics, convert  # noqa: F401
from .params import RESERVED, PlanError, expand  # noqa: F401
from .plan import Plan, Run, load_plan  # noqa: F401
from .plot import plot_sweep
from .progress import Progress  # noqa: F401
from .run import SweepInterrupted, SweepReport, run_sweep  # noqa: F401
from .stats import summarise, t_quantile
from .table import write_table  # noqa: F401

__all__ = ["Plan", "PlanError", "run_sweep", "summarise", "t_quantile", "plot_sweep", "load_plan", "execute",
           "cli_main"]


def __getattr__(name):
    # run_sweep rebinds run.last_report each time: read it there, so that
    # `dumbbell.sweep.last_report` is always the latest sweep's report.
    if name == "last_report":
        return _run.last_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"last_report"})
