"""Statistics over seeds: the mean with a Student-t confidence interval.

`summarise` groups a sweep's table by its parameters; `t_quantile` is
Student's t quantile from the regularized incomplete beta function, so
SciPy is not needed.  Relies on nothing else of the sweep.
"""

from __future__ import annotations

import math


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


def param_columns(df) -> list[str]:
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
    by = param_columns(df) if by is None else ([by] if isinstance(by, str) else list(by))
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
