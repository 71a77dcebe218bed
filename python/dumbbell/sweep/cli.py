"""The command line: `dumbbell sweep PLAN.toml [options]` (`cli_main`).

Parses the options and `--set` overrides, runs the sweep (or shows what it
would run: `--dry-run`) and prints the report.  Relies on plan (load_plan),
params (PlanError, NAME), cache (for the dry run) and run (run_sweep and
its report).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from . import run
from .cache import Cache, cache_dir_for, partition
from .params import NAME, PlanError
from .plan import load_plan
from .run import SweepInterrupted, run_sweep


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

    from ..cli import doc_path, help_formatter

    ap = argparse.ArgumentParser(prog="dumbbell sweep", formatter_class=help_formatter(),
                                 description=f"Run a parameter sweep ({doc_path('sweeps.md')}): in parallel, each "
                                             "run cached, resumable; results in one table.")
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
    r = run.last_report  # run_sweep rebinds it
    where = f"on {a.dask}" if a.dask else f"{r.jobs} jobs"
    from .._words import count

    stopped = f", {r.stopped} stopped by a limit" if r.stopped else ""
    sys.stderr.write(f"sweep {plan.name}: {count(r.total, 'run')}, {r.total - r.failed - r.stopped} ok, {r.failed} failed"
                     f"{stopped}; "
                     f"{r.ran} run now, {r.cached} from the cache; {r.wall:.1f} s ({where})\n"
                     f"table: {out} ({len(df)} rows x {len(df.columns)} columns)\n")
    for ln in r.failures:
        sys.stderr.write(f"  {ln}\n")
    bad = r.failed + r.stopped
    if bad > len(r.failures):
        sys.stderr.write(f"  ... and {bad - len(r.failures)} more (see the table's error column)\n")
    if r.failed:
        sys.stderr.write("  (failures are cached; --retry-failed runs them again)\n")
    return 1 if bad else 0


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
