"""A sweep's table: one row per run in plan order, and writing it.

`assemble` builds the polars table from the runs and their records
(parameters, seed, the metrics read from each run's stdout and from its
record, status, error, elapsed, key, kept files); `write_table` writes it;
`failure_lines` names the failed runs for the report.  Relies on params
(RESERVED, is_num), metrics (MetricError; the plan's Metrics read each
run's stdout), and plan and cache for the types of its arguments.
"""

from __future__ import annotations

import os
from pathlib import Path

from .cache import Cache
from .metrics import MetricError
from .params import RESERVED, is_num
from .plan import Plan, Run


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


def assemble(plan: Plan, runs: list[Run], records: dict, cache: Cache):
    import polars as pl

    fixed = set(plan.param_names) | set(RESERVED)
    rows_metrics, status, error, elapsed = [], [], [], []
    names: list[str] = list(plan.metrics.static)
    for r in runs:
        rec = records.get(r.key)
        m: dict = {}
        err = None
        st = "failed"
        if rec is None:
            err = "not run"
        elif rec["status"] != "ok":
            err = rec.get("error") or "failed"
            if rec["status"] == "stopped":  # by a run limit (max_events, max_wall)
                st = "stopped"
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
        status.append("ok" if err is None else st)
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


def failure_lines(plan, df, limit=10) -> list[str]:
    bad = df.filter(df["status"] != "ok")
    lines = []
    for row in bad.head(limit).iter_rows(named=True):
        what = " ".join(f"{p}={row[p]}" for p in plan.param_names) + f" seed={row['seed']}"
        first = (row["error"] or "").strip().splitlines()
        lines.append(f"{row['status']}: {what}: {first[0] if first else 'failed'}" + (" ..." if len(first) > 1 else ""))
    return lines
