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

import math
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
from .params import NAME, RESERVED, PlanError, expand, is_num  # noqa: F401
from .plan import Plan, Run, load_plan
from .progress import Progress

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
    df = _assemble(plan, runs, records, cache)
    rep.failed = int((df["status"] != "ok").sum())
    rep.failures = _failure_lines(plan, df)
    out = Path(out) if out else plan.default_out
    if out is not None:
        write_table(df, out)
        _plots(plan, df, out)
    rep.wall = time.monotonic() - t0
    return df


# ---- the table --------------------------------------------------------------------------------------

def _series(name, values):
    import polars as pl

    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        dtype = pl.Boolean
    elif present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        dtype = pl.Int64
    elif present and all(is_num(v) for v in present):
        dtype = pl.Float64
        values = [None if v is None else float(v) for v in values]
    elif not present:
        dtype = pl.Float64
    else:
        dtype = pl.String
        values = [None if v is None else str(v) for v in values]
    return pl.Series(name, values, dtype=dtype)


def _assemble(plan: Plan, runs: list[Run], records: dict, cache: Cache):
    import polars as pl

    fixed = set(plan.param_names) | set(RESERVED)
    rows_metrics, status, error, elapsed = [], [], [], []
    names: list[str] = list(plan.metrics.static)
    for r in runs:
        rec = records.get(r.key)
        m: dict = {}
        err = None
        if rec is None:
            err = "not run"
        elif rec["status"] != "ok":
            err = rec.get("error") or "failed"
        else:
            try:
                m = plan.metrics.from_stdout(rec.get("stdout", "")) if plan.kind == "tcl" else {}
                for k, v in (rec.get("metrics") or {}).items():
                    if k in m:
                        raise MetricError(f"metric {k!r} comes both from stdout and from metrics.function")
                    m[k] = v
                bad = [k for k in m if k in fixed]
                if bad:
                    raise MetricError(f"metric {bad[0]!r} has the name of a parameter or of a table column; "
                                      "rename it (or use metrics.keyvalue = [keys])")
            except MetricError as e:
                err, m = f"metrics: {e}", {}
        for k in m:
            if k not in names:
                names.append(k)
        rows_metrics.append(m)
        status.append("ok" if err is None else "failed")
        error.append(err)
        elapsed.append(rec.get("elapsed") if rec else None)
    keep = plan.metrics.keep or names
    cols = [_series(p, [r.params[p] for r in runs]) for p in plan.param_names]
    cols.append(pl.Series("seed", [r.seed for r in runs], dtype=pl.Int64))
    cols += [_series(n, [m.get(n) for m in rows_metrics]) for n in keep]
    cols += [pl.Series("status", status, dtype=pl.String), pl.Series("error", error, dtype=pl.String),
             pl.Series("elapsed", elapsed, dtype=pl.Float64),
             pl.Series("key", [r.key for r in runs], dtype=pl.String)]
    if plan.outputs:
        kept = [str(cache.files_dir(r.key)) if (cache.root and records.get(r.key, {}).get("files")) else None
                for r in runs]
        cols.append(pl.Series("files", kept, dtype=pl.String))
    return pl.DataFrame(cols)


def write_table(df, out) -> None:
    """Write atomically: .csv as CSV, anything else as Parquet."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    if out.suffix.lower() == ".csv":
        df.write_csv(tmp)
    else:
        df.write_parquet(tmp)
    os.replace(tmp, out)


def _failure_lines(plan, df, limit=10) -> list[str]:
    bad = df.filter(df["status"] != "ok")
    lines = []
    for row in bad.head(limit).iter_rows(named=True):
        what = " ".join(f"{p}={row[p]}" for p in plan.param_names) + f" seed={row['seed']}"
        first = (row["error"] or "").strip().splitlines()
        lines.append(f"{what}: {first[0] if first else 'failed'}" + (" ..." if len(first) > 1 else ""))
    return lines


def _plots(plan, df, out: Path):
    for p in plan.plots:
        path = p.get("path") or out.with_name(f"{out.stem}-{'-'.join(p['y'])}-vs-{p['x']}.png")
        try:
            fig = plot_sweep(df, p["x"], p["y"], hue=p.get("hue"), path=path, title=p.get("title"))
            from ..plot import _plt

            _plt().close(fig)
        except (ValueError, KeyError) as e:
            sys.stderr.write(f"sweep: plot {p['y']} vs {p['x']} not drawn: {e}\n")


# ---- statistics over seeds ------------------------------------------------------------------------

def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_tail(t, df):
    """P(T > t) for t >= 0, Student's t with df degrees of freedom."""
    return 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t distribution with df degrees of freedom
    (exact to about 1e-12: closed forms for df 1 and 2, otherwise the
    incomplete beta function inverted by bisection)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1); got {p}")
    if not df > 0:
        raise ValueError(f"df must be > 0; got {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2.0 * p - 1.0) / math.sqrt(2.0 * p * (1.0 - p))
    q = 1.0 - p
    lo, hi = 0.0, 1.0
    while _t_tail(hi, df) > q:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _t_tail(mid, df) > q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 4e-16 * hi:
            break
    return 0.5 * (lo + hi)


def _param_columns(df) -> list[str]:
    """A sweep table's parameter columns: those before `seed`."""
    cols = df.columns
    if "seed" not in cols:
        raise ValueError("not a sweep table: no `seed` column (pass by=[...] explicitly)")
    return cols[: cols.index("seed")]


def summarise(df, metrics, by=None, level: float = 0.95):
    """Mean over seeds with a Student-t confidence interval.

    df      -- a sweep table (only rows with status "ok" count)
    metrics -- a metric name or a list of them
    by      -- the grouping columns (default: every parameter column)
    level   -- the confidence level of the interval

    One row per group, in order of first appearance, with for each metric m:
    m_n (values, nulls excluded), m_mean, m_std (sample, n-1), m_ci_lo and
    m_ci_hi (mean -/+ t_{(1+level)/2, n-1} std/sqrt(n); null when n < 2).
    """
    import polars as pl

    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    by = _param_columns(df) if by is None else ([by] if isinstance(by, str) else list(by))
    for c in by + metrics:
        if c not in df.columns:
            raise ValueError(f"summarise: no column {c!r} (columns: {', '.join(df.columns)})")
    if not 0 < level < 1:
        raise ValueError(f"summarise: level must be in (0, 1); got {level}")
    d = df.filter(pl.col("status") == "ok") if "status" in df.columns else df
    aggs = []
    for m in metrics:
        aggs += [pl.col(m).count().alias(f"{m}_n"), pl.col(m).mean().alias(f"{m}_mean"),
                 pl.col(m).std(ddof=1).alias(f"{m}_std")]
    g = d.group_by(by, maintain_order=True).agg(aggs)
    p = 0.5 + level / 2.0
    for m in metrics:
        ns = g[f"{m}_n"].to_list()
        tq = {n: t_quantile(p, n - 1) for n in set(ns) if n and n > 1}
        half = [None if (n is None or n < 2 or s is None) else tq[n] * s / math.sqrt(n)
                for n, s in zip(ns, g[f"{m}_std"].to_list())]
        h = pl.lit(pl.Series("h", half, dtype=pl.Float64))
        g = g.with_columns((pl.col(f"{m}_mean") - h).alias(f"{m}_ci_lo"), (pl.col(f"{m}_mean") + h).alias(f"{m}_ci_hi"))
    return g


def plot_sweep(df, x: str, y, hue: str | None = None, path=None, *, level: float = 0.95, title: str | None = None,
               ax=None, logx: bool = False, logy: bool = False):
    """A metric against a parameter: the mean over seeds as a line, its
    confidence interval as a band (none with one seed); one line per value of
    `hue` and per metric when `y` is a list.  Every other parameter must be
    constant (filter the table first); saves to `path` (PNG/PDF/SVG by
    extension) when given; returns the figure."""
    from ..plot import _check_path, _finish, _plt

    _check_path(path, "plot_sweep")
    plt = _plt()
    ys = [y] if isinstance(y, str) else list(y)
    for c in [x] + ys + ([hue] if hue else []):
        if c not in df.columns:
            raise ValueError(f"plot_sweep: no column {c!r} (columns: {', '.join(df.columns)})")
    params = _param_columns(df) if "seed" in df.columns else []
    varying = [c for c in params if c not in (x, hue) and df[c].n_unique() > 1]
    if varying:
        raise ValueError(f"plot_sweep: {varying[0]!r} varies ({df[varying[0]].n_unique()} values) but is neither x "
                         f"nor hue; filter the table to one value or pass hue={varying[0]!r}")
    by = [x] + ([hue] if hue else [])
    s = summarise(df, ys, by=by, level=level).sort(by)
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    else:
        fig = ax.figure
    groups = s.partition_by(hue, maintain_order=True) if hue else [s]
    lines = 0
    for g in groups:
        for m in ys:
            label_parts = ([m] if len(ys) > 1 else []) + ([f"{hue}={g[hue][0]}"] if hue else [])
            xs = g[x].to_numpy()
            mean = g[f"{m}_mean"].to_numpy()
            (ln,) = ax.plot(xs, mean, lw=1.0, label=", ".join(label_parts) or m)
            lo, hi = g[f"{m}_ci_lo"], g[f"{m}_ci_hi"]
            if lo.null_count() < len(lo):
                ax.fill_between(xs, lo.fill_null(float("nan")).to_numpy(), hi.fill_null(float("nan")).to_numpy(),
                                color=ln.get_color(), alpha=0.2, lw=0)
            lines += 1
    ax.set_xlabel(x)
    ax.set_ylabel(ys[0] if len(ys) == 1 else "value")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    n_seeds = int(s[f"{ys[0]}_n"].max() or 0) if len(s) else 0
    if title is None and n_seeds > 1:
        title = f"mean over {n_seeds} seeds, {level:.0%} confidence band"
    if title:
        ax.set_title(title, fontsize=9)
    return _finish(fig, ax, path, None, legend=lines > 1)


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
