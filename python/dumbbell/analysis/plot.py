"""One-call plots of simulation results (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _finish(fig, ax, path, title, legend: bool):
    """Common finishing of a figure: title, legend, grid, layout, save."""
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    _save(fig, path)
    return fig


def plot_cwnd(vartrace: pl.DataFrame, path: str | Path | None = None, title: str | None = None, var: str = "cwnd_"):
    """cwnd (or another traced variable) against time, one line per flow.

    `vartrace` is a frame from `read_vartrace` or `Result.vars`.  Saves to
    `path` (PNG/PDF/SVG by extension) when given; returns the figure.
    """
    plt = _plt()
    d = vartrace.filter(pl.col("var") == var)
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    # A flow is its sender (src node.port); records written before the
    # agent was connected carry destination -1 and belong to the same flow.
    for key, g in d.group_by(["src_node", "src_port"], maintain_order=True):
        ax.step(g["time"].to_numpy(), g["value"].to_numpy(), where="post", lw=0.8,
                label=f"sender {key[0]}.{key[1]}")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(var.rstrip("_") + " (packets)")
    several = d.select(pl.struct(["src_node", "src_port"]).n_unique()).item() > 1
    return _finish(fig, ax, path, title, legend=several)


def plot_seqno(events: pl.DataFrame, path: str | Path | None = None, node: int | None = None, title: str | None = None):
    """Sequence-number plot: data packets received (r) at their destination
    node, and drops (d), against time, per flow id."""
    plt = _plt()
    data = events.filter(pl.col("ptype") == "tcp")
    rcv = data.filter((pl.col("event") == "r") & (pl.col("to_node") == pl.col("dst_node")))
    if node is not None:
        rcv = rcv.filter(pl.col("to_node") == node)
    drp = data.filter(pl.col("event") == "d")
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    for (fid,), g in rcv.group_by(["fid"], maintain_order=True):
        ax.plot(g["time"].to_numpy(), g["seqno"].to_numpy(), ".", ms=1.5, label=f"flow {fid} received")
    if drp.height:
        ax.plot(drp["time"].to_numpy(), drp["seqno"].to_numpy(), "x", ms=3, color="red", label="dropped")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (packets)")
    return _finish(fig, ax, path, title, legend=True)


# ---- plots built on dumbbell.metrics ---------------------------------------------------------


def _check_path(path, fn: str = "plot"):
    """The extension of `path` (.png, .pdf or .svg), checked before any drawing."""
    if path is None:
        return None
    ext = Path(path).suffix.lower()
    if ext not in (".png", ".pdf", ".svg"):
        raise ValueError(f"{fn}(): path must end in .png, .pdf or .svg, got {str(path)!r}")
    return ext


def _save(fig, path):
    """Save by the extension of `path` (PNG at 200 dpi, PDF or SVG)."""
    ext = _check_path(path)
    if ext is not None:
        fig.savefig(path, dpi=200 if ext == ".png" else None)


def _label(keys: list[str], row: tuple) -> str:
    if keys == ["flow"]:
        return f"flow {row[0]}"
    if keys == ["fid"]:
        return f"fid {row[0]}"
    if len(keys) == 2:
        return f"sender {row[0]}.{row[1]}"
    return f"{row[0]}.{row[1]} \u2192 {row[2]}.{row[3]}"


def _rate_unit(values_bps) -> tuple[float, str]:
    """A unit (b/s, kb/s, Mb/s, Gb/s) suited to the largest value."""
    top = max((float(v) for v in values_bps), default=0.0)
    for scale, unit in ((1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s")):
        if top >= scale:
            return scale, unit
    return 1.0, "b/s"


def ack_source(events: pl.DataFrame, vars: pl.DataFrame) -> pl.DataFrame:
    """What an ACK plot draws from: the ACK events when there are any, else
    the ``ack_`` records (a trace of the bottleneck only has no ACKs
    arriving at the senders)."""
    from . import metrics as m

    if events.height and "ptype" in events.columns and events.filter(m._is_ack(events)).height:
        return events
    return vars


def plot_ack_seqno(data, path: str | Path | None = None, title: str | None = None, *, by=None, flows=None):
    """ACK sequence-number plot (seed 000, Fig 4.2): the cumulative ACK
    number arriving at each sender against time, one line per flow; equal
    slopes mean equal rates.

    `data` is an events frame (ACKs received, ``r`` of ptype ack at their
    destination, i.e. the sender), or a vars frame with ``ack_`` records;
    a `Result` or trace file uses its events, else its ack_ records.  `flows`
    restricts the plot to some flow keys.  Saves to `path` (PNG/PDF/SVG) when
    given; returns the figure.
    """
    from . import metrics as m

    fn = "plot_ack_seqno"
    _check_path(path, fn)
    if m._is_result(data):
        data = ack_source(data.events, data.vars)
    elif not isinstance(data, pl.DataFrame):
        from .trace import read_trace_all

        data = ack_source(*read_trace_all(m._path(data, fn, "data")))
    if "var" in data.columns:
        df, _ = m._vars(data, fn, "data")
        keys = m._keys(df, by, fn, vars_frame=True)
        d = df.filter(m._match(df, "var", lambda c: c == "ack_")).select(*keys, "time", seqno="value")
        source = "ack_ records"
    else:
        df, _ = m._events(data, fn, ("to_node", "ptype", "seqno", *m._CONN), "data")
        keys = m._keys(df, by, fn)
        d = df.filter(m._ev(df, "r"), m._is_ack(df), pl.col("to_node") == pl.col("dst_node"))
        d = m._as_data_conn(d, keys).select(*keys, "time", "seqno")
        source = "ACKs received"
    if flows is not None:
        ids = m._check_groups({"flows": flows}, keys, fn)["flows"]
        d = d.filter(pl.col(keys[0]).is_in(ids))
    if d.height == 0:
        raise ValueError(f"{fn}(): no {source} to plot")
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    for key, g in d.sort([*keys, "time"], maintain_order=True).group_by(keys, maintain_order=True):
        ax.step(g["time"].to_numpy(), g["seqno"].to_numpy(), where="post", lw=1.0, label=_label(keys, key))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("ACK sequence number (packets)")
    ax.set_xlim(left=0)
    several = d.select(pl.struct(keys).n_unique()).item() > 1
    fig = _finish(fig, ax, path, title, legend=several)
    return fig


def plot_queue(events, link, path: str | Path | None = None, title: str | None = None, *, unit: str = "packets",
               window=None, average: bool = True, queue_limit: int | None = None):
    """Queue length of one link direction against time (a step line), with
    its drops (red x) and ECN marks (orange o) at the queue length they
    happened at, and the time average over the window as a dashed line.

    `events` is an events frame, a `Result` or a trace file; `link` a
    (from_node, to_node) pair or a `Link`.  `unit`: "packets" or "bytes".
    `window` limits the time axis and the average; `queue_limit` draws the
    limit (ns-2's limit counts the packet being transmitted, which the queue
    length here does not: a DropTail queue with limit L peaks at L and drops
    leave it at L - 1).  Saves to `path` (PNG/PDF/SVG) when given; returns
    the figure.
    """
    from . import metrics as m

    fn = "plot_queue"
    _check_path(path, fn)
    if unit not in ("packets", "bytes"):
        raise ValueError(f"{fn}(): unit must be 'packets' or 'bytes', got {unit!r}")
    df, end = m._events(events, fn, ("from_node", "to_node", "size", "flags", "uid"))
    a, b = m._link(link, df, fn)
    t0, t1, closed = m._window(window, df, end, fn)
    q = m.queue_length(df, (a, b))
    t = q["time"].to_numpy()
    v = q[unit].to_numpy()
    at = (pl.col("from_node") == a) & (pl.col("to_node") == b)
    drops = df.filter(at, m._ev(df, "d"), m._in_window(t0, t1, closed))["time"].to_numpy()
    marks = m._first_marks(df).filter(at, m._in_window(t0, t1, closed))["time"].to_numpy()

    def level(times):
        """Queue length just after the events at each of `times`."""
        if v.size == 0:
            return np.zeros(len(times))
        i = np.searchsorted(t, times, side="right") - 1
        return np.where(i >= 0, v[np.maximum(i, 0)], 0)

    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    inside = (t > t0) & (t < t1)
    ts = np.concatenate(([t0], t[inside], [t1]))
    vs = np.concatenate((level([t0]), v[inside], level([t1])))
    ax.step(ts, vs, where="post", lw=0.8, color="C0", label=f"queue {a}\u2192{b}")
    if drops.size:
        ax.plot(drops, level(drops), "x", ms=4, color="red", label=f"drops ({drops.size})")
    if marks.size:
        ax.plot(marks, level(marks), "o", ms=3, mfc="none", color="darkorange", label=f"ECN marks ({marks.size})")
    if average:
        avg = m._step_average(t, v.astype(float), t0, t1)
        ax.axhline(avg, ls="--", lw=1.0, color="0.3", label=f"time average {avg:.2f}")
    if queue_limit is not None:
        ax.axhline(queue_limit, ls=":", lw=1.0, color="0.5", label=f"limit {queue_limit}")
    ax.set_xlim(t0, t1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"queue length ({unit})")
    fig = _finish(fig, ax, path, title, legend=True)
    return fig


def plot_goodput_groups(events, groups, path: str | Path | None = None, title: str | None = None, *,
                        bin: float = 1.0, window=None, by=None, per_flow: bool = True):
    """Goodput of groups of flows against time (seed 001, Fig 4.16): for each
    group, the distinct data its flows deliver in each `bin` seconds, as a
    rate; per flow of the group (the group's mean, default) or in total.

    `groups` maps a name to flow keys (``{"fragile": [0, 1, 2], ...}``; flow
    ids of a Result, or fids of a trace with ``by="fid"``).  Saves to `path`
    (PNG/PDF/SVG) when given; returns the figure.
    """
    from . import metrics as m

    _check_path(path, "plot_goodput_groups")
    s = m.goodput_series(events, bin, window, by=by, groups=groups)
    col = "goodput_bps_per_flow" if per_flow else "goodput_bps"
    scale, unit = _rate_unit(s[col].to_list())
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=120)
    for (name,), g in s.group_by(["group"], maintain_order=True):
        mid = (g["time"] + g["duration"] / 2).to_numpy()
        n = g["flows"][0]
        ax.plot(mid, g[col].to_numpy() / scale, marker="o", ms=3, lw=1.2, label=f"{name} ({n} flow{'s' * (n != 1)})")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"goodput {'per flow ' if per_flow else ''}({unit})")
    ax.set_ylim(bottom=0)
    fig = _finish(fig, ax, path, title, legend=True)
    return fig
