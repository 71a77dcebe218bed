"""Sweep plots: a metric against a parameter, with a confidence band over seeds.

`plot_sweep` draws from a sweep's table; `draw_plots` draws the plan's
`plots` beside the table.  Relies on stats (summarise, param_columns) and
on dumbbell.plot (matplotlib set-up and saving), imported when drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .stats import param_columns, summarise


# Units read off a column's name (its last word): what the axis says when
# no xlabel/ylabel is given.
_UNITS = {"bps": "b/s", "kbps": "kb/s", "mbps": "Mb/s", "gbps": "Gb/s", "pps": "packets/s", "pkts": "packets",
          "packets": "packets", "bytes": "bytes", "s": "s", "sec": "s", "ms": "ms", "us": "\u00b5s",
          "ratio": "ratio", "jain": "index, 0-1", "fraction": "fraction", "pct": "%", "percent": "%"}


def axis_label(names: list[str], given: str | None = None) -> str:
    """An axis label for columns `names`: `given` if any, else the names
    and the unit their last word implies ("goodput_mbps" -> "goodput_mbps
    (Mb/s)"); "(unit not known: pass xlabel/ylabel)" where none does."""
    if given:
        return given
    units = {_UNITS.get(n.lower().rsplit("_", 1)[-1]) or _UNITS.get(n.lower().rstrip("0123456789")) for n in names}
    text = ", ".join(names)
    if len(units) == 1 and None not in units:
        return f"{text} ({units.pop()})"
    return f"{text} (unit not known: pass xlabel/ylabel)" if None in units else text


def plot_sweep(df, x: str, y, hue: str | None = None, path=None, *, level: float = 0.95, title: str | None = None,
               ax=None, logx: bool = False, logy: bool = False, xlabel: str | None = None, ylabel: str | None = None,
               labels=None):
    """A metric against a parameter: the mean over seeds as a line, its
    confidence interval as a band (none with one seed); one line per value of
    `hue` and per metric when `y` is a list.  Every other parameter must be
    constant (filter the table first).  `xlabel`/`ylabel` name the axes with
    their units (default: the column names, with the unit their suffix says:
    ``_mbps``, ``_pkts``, ``_s``, ...); `labels` the lines (a list, or a
    mapping by default text).  Saves to `path` (PNG/PDF/SVG by extension)
    when given; returns the figure."""
    from ..analysis.plot import _check_labels, _check_path, _figure, _finish, _label

    _check_path(path, "plot_sweep")
    _check_labels(labels, "plot_sweep")
    ys = [y] if isinstance(y, str) else list(y)
    for c in [x] + ys + ([hue] if hue else []):
        if c not in df.columns:
            raise ValueError(f"plot_sweep: no column {c!r} (columns: {', '.join(df.columns)})")
    params = param_columns(df) if "seed" in df.columns else []
    varying = [c for c in params if c not in (x, hue) and df[c].n_unique() > 1]
    if varying:
        raise ValueError(f"plot_sweep: {varying[0]!r} varies ({df[varying[0]].n_unique()} values) but is neither x "
                         f"nor hue; filter the table to one value or pass hue={varying[0]!r}")
    by = [x] + ([hue] if hue else [])
    s = summarise(df, ys, by=by, level=level).sort(by)
    if ax is None:
        fig, ax = _figure()
    else:
        fig = ax.figure
    groups = s.partition_by(hue, maintain_order=True) if hue else [s]
    lines = 0
    for g in groups:
        for m in ys:
            label_parts = ([m] if len(ys) > 1 else []) + ([f"{hue}={g[hue][0]}"] if hue else [])
            xs = g[x].to_numpy()
            mean = g[f"{m}_mean"].to_numpy()
            default = ", ".join(label_parts) or m
            (ln,) = ax.plot(xs, mean, lw=1.0, label=_label(labels, lines, default, default))
            lo, hi = g[f"{m}_ci_lo"], g[f"{m}_ci_hi"]
            if lo.null_count() < len(lo):
                ax.fill_between(xs, lo.fill_null(float("nan")).to_numpy(), hi.fill_null(float("nan")).to_numpy(),
                                color=ln.get_color(), alpha=0.2, lw=0)
            lines += 1
    ax.set_xlabel(axis_label([x], xlabel))
    ax.set_ylabel(axis_label(ys, ylabel))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    n_seeds = int(s[f"{ys[0]}_n"].max() or 0) if len(s) else 0
    if title is None and n_seeds > 1:
        title = f"mean over {n_seeds} seeds, {level:.0%} confidence band"  # (n_seeds > 1)
    if title:
        ax.set_title(title, fontsize=9)
    return _finish(fig, ax, path, None, legend=lines > 1)


def draw_plots(plan, df, out: Path):
    """The plan's `plots`, saved beside the table `out` unless they name a
    path; one that cannot be drawn is reported on stderr, not raised."""
    for p in plan.plots:
        path = p.get("path") or out.with_name(f"{out.stem}-{'-'.join(p['y'])}-vs-{p['x']}.png")
        try:
            fig = plot_sweep(df, p["x"], p["y"], hue=p.get("hue"), path=path, title=p.get("title"),
                             xlabel=p.get("xlabel"), ylabel=p.get("ylabel"))
            from ..analysis.plot import _plt

            _plt().close(fig)
        except (ValueError, KeyError) as e:
            sys.stderr.write(f"sweep: plot {p['y']} vs {p['x']} not drawn: {e}\n")
