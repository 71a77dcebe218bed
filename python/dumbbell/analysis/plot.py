"""One-call plots of simulation results (matplotlib, no display needed).

Every plot is drawn the same way, ready for a paper: a 7 x 3.5 inch figure,
PNG saved at `DPI` (PDF and SVG are vector), units on both axes, the legend
outside the data (right of the axes) when there is more than one line,
`title=` and `labels=` (legend texts) settable.  `labels` is a list (one text
per line, in the order drawn) or a mapping from a line's flow key (flow id,
fid, sender "node.port", group name) or its default text to the new text.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import polars as pl


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


#: Resolution of saved PNGs (every plot of the package, Result's too).
DPI = 200
#: Size of every figure, inches.
FIGSIZE = (7, 3.5)


def _figure():
    """A new figure and axes of the package's size."""
    return _plt().subplots(figsize=FIGSIZE, dpi=100)


def _label(labels, i: int, key, default: str) -> str:
    """The legend text of the `i`-th line drawn (flow key `key`): from
    `labels` (a list, or a mapping by key or by default text), else
    `default`."""
    if labels is None:
        return default
    if isinstance(labels, Mapping):
        for k in (key, str(key), default):
            try:
                if k in labels:
                    return str(labels[k])
            except TypeError:  # an unhashable key
                pass
        return default
    labels = list(labels)
    return str(labels[i]) if i < len(labels) else default


def _check_labels(labels, fn: str):
    if labels is not None and (isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__")):
        raise ValueError(f"{fn}(): labels must be a list of legend texts or a mapping flow key -> text, "
                         f"got {labels!r}")


def _finish(fig, ax, path, title, legend: bool):
    """Common finishing of a figure: title, legend outside the axes (right
    of them, so that it never hides data), grid, layout, save."""
    if title:
        ax.set_title(title, fontsize=10)
    if legend:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    _save(fig, path)
    return fig


def _var_unit(var: str) -> str:
    """The axis label of a traced TCP variable, with its unit."""
    units = {"cwnd_": "packets", "ssthresh_": "packets", "ack_": "packets", "maxseq_": "packets", "t_seqno_": "packets",
             "rtt_": "ticks (tcpTick_)", "srtt_": "ticks/8 (tcpTick_)", "rttvar_": "ticks/4 (tcpTick_)",
             "backoff_": "factor", "dupacks_": "ACKs", "ave_": "packets", "curq_": "packets", "prob1_": "probability"}
    return f"{var.rstrip('_')} ({units.get(var, 'as traced')})"


def plot_cwnd(vartrace: pl.DataFrame, path: str | Path | None = None, title: str | None = None, var: str = "cwnd_",
              *, labels=None):
    """cwnd (or another traced variable) against time, one line per flow.

    `vartrace` is a frame from `read_vartrace` or `Result.vars`.  `labels`:
    legend texts (a list, or a mapping by sender "node.port").  Saves to
    `path` (PNG/PDF/SVG by extension) when given; returns the figure.
    """
    _check_path(path, "plot_cwnd")
    _check_labels(labels, "plot_cwnd")
    d = vartrace.filter(pl.col("var") == var)
    fig, ax = _figure()
    # A flow is its sender (src node.port); records written before the
    # agent was connected carry destination -1 and belong to the same flow.
    for i, (key, g) in enumerate(d.group_by(["src_node", "src_port"], maintain_order=True)):
        ax.step(g["time"].to_numpy(), g["value"].to_numpy(), where="post", lw=0.8,
                label=_label(labels, i, f"{key[0]}.{key[1]}", f"sender {key[0]}.{key[1]}"))
    ax.set_xlabel("time (s)")
    ax.set_ylabel(_var_unit(var))
    several = d.select(pl.struct(["src_node", "src_port"]).n_unique()).item() > 1
    return _finish(fig, ax, path, title, legend=several)


def plot_seqno(events: pl.DataFrame, path: str | Path | None = None, node: int | None = None, title: str | None = None,
               *, labels=None):
    """Sequence-number plot: data packets received (r) at their destination
    node, and drops (d), against time, per flow id (`labels`: legend texts,
    a list or a mapping by fid)."""
    _check_path(path, "plot_seqno")
    _check_labels(labels, "plot_seqno")
    data = events.filter(pl.col("ptype") == "tcp")
    rcv = data.filter((pl.col("event") == "r") & (pl.col("to_node") == pl.col("dst_node")))
    if node is not None:
        rcv = rcv.filter(pl.col("to_node") == node)
    drp = data.filter(pl.col("event") == "d")
    fig, ax = _figure()
    for i, ((fid,), g) in enumerate(rcv.group_by(["fid"], maintain_order=True)):
        ax.plot(g["time"].to_numpy(), g["seqno"].to_numpy(), ".", ms=1.5,
                label=_label(labels, i, fid, f"flow {fid} received"))
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
    """Save by the extension of `path` (PNG at `DPI`, PDF or SVG), the
    legend outside the axes included."""
    ext = _check_path(path)
    if ext is not None:
        fig.savefig(path, dpi=DPI if ext == ".png" else None, bbox_inches="tight", pad_inches=0.05)


def _key_label(keys: list[str], row: tuple) -> str:
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


def plot_ack_seqno(data, path: str | Path | None = None, title: str | None = None, *, by=None, flows=None,
                   labels=None):
    """ACK sequence-number plot (seed 000, Fig 4.2): the cumulative ACK
    number arriving at each sender against time, one line per flow; equal
    slopes mean equal rates.

    `data` is an events frame (ACKs received, ``r`` of ptype ack at their
    destination, i.e. the sender), or a vars frame with ``ack_`` records;
    a `Result` or trace file uses its events, else its ack_ records.  `flows`
    restricts the plot to some flow keys; `labels` sets the legend texts (a
    list, or a mapping by flow key).  Saves to `path` (PNG/PDF/SVG) when
    given; returns the figure.
    """
    from . import metrics as m

    fn = "plot_ack_seqno"
    _check_path(path, fn)
    _check_labels(labels, fn)
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
    fig, ax = _figure()
    for i, (key, g) in enumerate(d.sort([*keys, "time"], maintain_order=True).group_by(keys, maintain_order=True)):
        ax.step(g["time"].to_numpy(), g["seqno"].to_numpy(), where="post", lw=1.0,
                label=_label(labels, i, key[0] if len(key) == 1 else ".".join(map(str, key)), _key_label(keys, key)))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("ACK sequence number (packets)")
    ax.set_xlim(left=0)
    several = d.select(pl.struct(keys).n_unique()).item() > 1
    fig = _finish(fig, ax, path, title, legend=several)
    return fig


def read_red_trace(path) -> pl.DataFrame:
    """A RED queue's variable trace (`$redq trace ave_` ... `$redq attach
    $file` in ns-2): one row per line, columns ``var`` (ns-2's letter: ``a``
    ave_, ``Q`` curq_, ``p`` prob1_, ``c`` cur_max_p_), ``time``, ``value``."""
    rows = {"var": [], "time": [], "value": []}
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            f = line.split()
            if not f:
                continue
            try:
                if len(f) != 3:
                    raise ValueError
                t, v = float(f[1]), float(f[2])
            except ValueError:
                raise ValueError(f"{path}:{n}: not a RED queue trace line (VAR TIME VALUE): {line.strip()!r}") from None
            rows["var"].append(f[0])
            rows["time"].append(t)
            rows["value"].append(v)
    return pl.DataFrame(rows, schema={"var": pl.String, "time": pl.Float64, "value": pl.Float64})


def _thin(times, limit: int | None):
    """At most `limit` of `times`, evenly spread (every k-th); k."""
    if limit is None or times.size <= limit:
        return times, 1
    k = -(-times.size // limit)
    return times[::k], k


def plot_queue(events, link, path: str | Path | None = None, title: str | None = None, *, unit: str = "packets",
               window=None, average: bool = True, queue_limit: int | None = None, markers="auto",
               max_markers: int = 300, red_average=None, labels=None):
    """Queue length of one link direction against time (a step line), with
    its drops (red x) and ECN marks (orange o) at the queue length they
    happened at, and the time average over the window as a dashed line.

    `events` is an events frame, a `Result` or a trace file; `link` a
    (from_node, to_node) pair or a `Link`.  `unit`: "packets" or "bytes".
    `window` limits the time axis and the average; `queue_limit` draws the
    limit (ns-2's limit counts the packet being transmitted, which the queue
    length here does not: a DropTail queue with limit L peaks at L and drops
    leave it at L - 1).  `markers`: "auto" (default) draws at most
    `max_markers` drops and as many marks (every k-th beyond that, said in
    the legend), "all" every one, "none" none (the counts stay in the
    legend).  `red_average`: a RED queue trace (a file or a frame of
    `read_red_trace`) whose ``ave_`` records are drawn as RED's average
    queue.  `labels`: legend texts by default text ("queue", "drops",
    "marks", "average", "limit", "RED average") or a list in that order.
    Saves to `path` (PNG/PDF/SVG) when given; returns the figure.
    """
    from . import metrics as m

    fn = "plot_queue"
    _check_path(path, fn)
    _check_labels(labels, fn)
    if unit not in ("packets", "bytes"):
        raise ValueError(f"{fn}(): unit must be 'packets' or 'bytes', got {unit!r}")
    if markers is True:
        markers = "all"
    elif markers is False:
        markers = "none"
    if markers not in ("auto", "all", "none"):
        raise ValueError(f"{fn}(): markers must be 'auto', 'all' or 'none', got {markers!r}")
    if isinstance(max_markers, bool) or not isinstance(max_markers, int) or max_markers < 1:
        raise ValueError(f"{fn}(): max_markers must be a positive integer, got {max_markers!r}")
    red = None
    if red_average is not None:
        red = red_average if isinstance(red_average, pl.DataFrame) else read_red_trace(red_average)
        red = red.filter(pl.col("var") == "a")
        if red.height == 0:
            raise ValueError(f"{fn}(): red_average has no ave_ records (trace ave_ on the RED queue)")
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

    fig, ax = _figure()
    inside = (t > t0) & (t < t1)
    ts = np.concatenate(([t0], t[inside], [t1]))
    vs = np.concatenate((level([t0]), v[inside], level([t1])))
    n = [0]

    def lab(key, default):
        n[0] += 1
        return _label(labels, n[0] - 1, key, default)

    ax.step(ts, vs, where="post", lw=0.8, color="C0", label=lab("queue", f"queue {a}\u2192{b}"))
    limit = None if markers == "all" else (0 if markers == "none" else max_markers)
    for times, what, style in ((drops, "drops", dict(marker="x", ms=4, color="red")),
                               (marks, "marks", dict(marker="o", ms=3, mfc="none", color="darkorange"))):
        if not times.size:
            continue
        name = "drops" if what == "drops" else "ECN marks"
        if limit == 0:  # no markers: the count in the legend only
            ax.plot([], [], ls="none", label=lab(what, f"{name} ({times.size}, not drawn)"), **style)
            continue
        shown, k = _thin(times, limit)
        every = f", 1 in {k} drawn" if k > 1 else ""
        ax.plot(shown, level(shown), ls="none", label=lab(what, f"{name} ({times.size}{every})"), **style)
    if average:
        avg = m._step_average(t, v.astype(float), t0, t1)
        ax.axhline(avg, ls="--", lw=1.0, color="0.3", label=lab("average", f"time average {avg:.2f}"))
    if queue_limit is not None:
        ax.axhline(queue_limit, ls=":", lw=1.0, color="0.5", label=lab("limit", f"limit {queue_limit}"))
    if red is not None:
        r = red.filter((pl.col("time") >= t0) & (pl.col("time") <= t1))
        ax.step(r["time"].to_numpy(), r["value"].to_numpy(), where="post", lw=1.0, color="C2",
                label=lab("RED average", "RED average queue (ave_)"))
    ax.set_xlim(t0, t1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"queue length ({unit})")
    fig = _finish(fig, ax, path, title, legend=True)
    return fig


def plot_goodput_groups(events, groups, path: str | Path | None = None, title: str | None = None, *,
                        bin: float = 1.0, window=None, by=None, per_flow: bool = True, labels=None):
    """Goodput of groups of flows against time (seed 001, Fig 4.16): for each
    group, the distinct data its flows deliver in each `bin` seconds, as a
    rate; per flow of the group (the group's mean, default) or in total.

    `groups` maps a name to flow keys (``{"fragile": [0, 1, 2], ...}``; flow
    ids of a Result, or fids of a trace with ``by="fid"``).  Saves to `path`
    (PNG/PDF/SVG) when given; returns the figure.  `labels`: legend texts
    (a list, or a mapping by group name).
    """
    from . import metrics as m

    _check_path(path, "plot_goodput_groups")
    _check_labels(labels, "plot_goodput_groups")
    s = m.goodput_series(events, bin, window, by=by, groups=groups)
    col = "goodput_bps_per_flow" if per_flow else "goodput_bps"
    scale, unit = _rate_unit(s[col].to_list())
    fig, ax = _figure()
    for i, ((name,), g) in enumerate(s.group_by(["group"], maintain_order=True)):
        mid = (g["time"] + g["duration"] / 2).to_numpy()
        n = g["flows"][0]
        ax.plot(mid, g[col].to_numpy() / scale, marker="o", ms=3, lw=1.2,
                label=_label(labels, i, name, f"{name} ({n} flow{'s' * (n != 1)})"))
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"goodput {'per flow ' if per_flow else ''}({unit})")
    ax.set_ylim(bottom=0)
    fig = _finish(fig, ax, path, title, legend=True)
    return fig


def plot_classes(events, link, classes, path: str | Path | None = None, title: str | None = None, *,
                 bin: float = 1.0, window=None, by="fid", labels=None, delay_unit: str = "ms"):
    """Per-class throughput (top) and mean queueing delay (bottom) at one
    link direction's queue against time, one line per class of a
    scheduler (`dumbbell.metrics.class_series`: `classes` maps a class
    name to fids, or flow ids with ``by="flow"``).  Saves to `path`
    (PNG/PDF/SVG) when given; returns the figure.  `labels`: legend texts
    (a list, or a mapping by class name); `delay_unit` "ms" or "s"."""
    from . import metrics as m

    _check_path(path, "plot_classes")
    _check_labels(labels, "plot_classes")
    if delay_unit not in ("ms", "s"):
        raise ValueError(f"plot_classes(): delay_unit must be 'ms' or 's', got {delay_unit!r}")
    s = m.class_series(events, link, classes, bin, window, by=by)
    scale, unit = _rate_unit(s["throughput_bps"].to_list())
    dscale = 1e3 if delay_unit == "ms" else 1.0
    fig, (top, bottom) = _plt().subplots(2, 1, figsize=(FIGSIZE[0], FIGSIZE[1] * 1.6), dpi=100, sharex=True)
    for i, ((name,), g) in enumerate(s.group_by(["class"], maintain_order=True)):
        mid = (g["time"] + g["duration"] / 2).to_numpy()
        text = _label(labels, i, name, f"{name} ({g['packets'].sum()} pkts, {g['drops'].sum()} drops)")
        top.plot(mid, g["throughput_bps"].to_numpy() / scale, marker="o", ms=3, lw=1.2, color=f"C{i % 10}",
                 label=text)
        d = g["mean_delay"].cast(pl.Float64).fill_null(float("nan")).to_numpy() * dscale
        bottom.plot(mid, d, marker="o", ms=3, lw=1.2, color=f"C{i % 10}")
    top.set_ylabel(f"throughput ({unit})")
    top.set_ylim(bottom=0)
    bottom.set_ylabel(f"mean queue delay ({delay_unit})")
    bottom.set_xlabel("time (s)")
    bottom.set_ylim(bottom=0)
    bottom.grid(alpha=0.3)
    a, b = (getattr(x, "id", x) for x in (getattr(link, "src", None), getattr(link, "dst", None))) \
        if hasattr(link, "src") else tuple(getattr(x, "id", x) for x in link)
    if title is None:
        title = f"classes at the queue {a}->{b}"
    return _finish(fig, top, path, title, legend=True)


# ---- wireless ------------------------------------------------------------------------------


def plot_wireless(result, path: str | Path | None = None, *, at=None, title: str | None = None,
                  show_range: bool = True, tracks: bool = True, labels=None, columns: int | None = None,
                  within: float | None = 2.0):
    """Node positions and routes of a wireless run (`WirelessResult`), as
    small multiples, one panel per time in `at` (default: four times spread
    over the run): each node where it is then (its id beside it), its
    whole track faint (`tracks`), the radio range around it dashed
    (`show_range`: the distance at which the run's receive threshold is
    met), and for each flow the route its last packet delivered by then
    took, hop by hop (arrows, one colour per flow; none when nothing of
    the flow arrived in the `within` seconds before, None: ever; `labels`
    renames flows by id).  Axes in metres, equal scale, the topography's extent.  Saves
    to `path` (PNG/PDF/SVG) when given; returns the figure."""
    from ..api._wireless import WirelessResult, _range_of

    _check_path(path, "plot_wireless")
    _check_labels(labels, "plot_wireless")
    if not isinstance(result, WirelessResult):
        raise ValueError(f"plot_wireless(): expected the WirelessResult of a WirelessSimulation's run(), "
                         f"got {type(result).__name__}")
    sim = result.sim
    if at is None:
        at = [round(result.until * k / 4, 6) for k in (1, 2, 3, 4)]
    elif isinstance(at, (int, float)) and not isinstance(at, bool):
        at = [at]
    times = []
    for t in at:
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t <= result.until:
            raise ValueError(f"plot_wireless(): at must be times within the run (0 to {result.until:g} s), "
                             f"got {t!r}")
        times.append(float(t))
    if not times:
        raise ValueError("plot_wireless(): at is empty")
    aspect = sim.height / sim.width
    if columns is None:
        # (a wide topography: two panels a row, so that each stays legible)
        columns = min(len(times), 4 if aspect >= 0.75 else 2)
    if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
        raise ValueError(f"plot_wireless(): columns must be a whole number of 1 or more, got {columns!r}")
    rows = -(-len(times) // columns)
    plt = _plt()
    w = FIGSIZE[0]
    h = max(2.0, min(9.0, rows * (w / columns) * aspect * 0.85 + 0.6 * rows + 0.5))
    fig, axes = plt.subplots(rows, columns, figsize=(w, h), dpi=100, squeeze=False)
    radius = _range_of(sim)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    nodes = sim.nodes
    track_t = np.linspace(0.0, result.until, 200)
    track = {n.id: np.array([sim.position(n, t) for t in track_t]) for n in nodes} if tracks else {}
    handles = {}
    for k, t in enumerate(times):
        ax = axes[k // columns][k % columns]
        for n in nodes:
            if tracks:
                ax.plot(track[n.id][:, 0], track[n.id][:, 1], color="0.8", lw=0.6, zorder=1)
        pos = {n.id: sim.position(n, t) for n in nodes}
        for n in nodes:
            x, y = pos[n.id]
            if show_range and radius is not None:
                ax.add_patch(plt.Circle((x, y), radius, fill=False, ls=(0, (2, 2)), lw=0.4, color="0.6", zorder=1))
            ax.plot([x], [y], "o", ms=4, color="black", zorder=3)
            ax.annotate(str(n.id), (x, y), xytext=(3, 3), textcoords="offset points", fontsize=6, zorder=4)
        for i, f in enumerate(sim.flows):
            c = colours[i % len(colours)]
            route = result.route(f, t, within=within)
            name = _label(labels, i, f.id, f"flow {f.id} ({f.kind} {f.src.id}\u2192{f.dst.id})")
            if name not in handles:
                handles[name] = plt.Line2D([], [], color=c, lw=1.2)
            if not route:
                continue
            for a, b in zip(route, route[1:]):
                (x0, y0), (x1, y1) = pos[a], pos[b]
                ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=2,
                            arrowprops={"arrowstyle": "->", "color": c, "lw": 1.2, "shrinkA": 3, "shrinkB": 3})
        ax.set_xlim(0, sim.width)
        ax.set_ylim(0, sim.height)
        ax.set_aspect("equal")
        ax.set_title(f"t = {t:g} s", fontsize=8)
        ax.tick_params(labelsize=6)
        ax.grid(alpha=0.2)
        if k % columns == 0:
            ax.set_ylabel("y (m)", fontsize=7)
        if k // columns == rows - 1:
            ax.set_xlabel("x (m)", fontsize=7)
    for k in range(len(times), rows * columns):
        axes[k // columns][k % columns].set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    if handles:
        fig.legend(list(handles.values()), list(handles.keys()), fontsize=7, loc="lower center",
                   ncol=min(len(handles), 3), frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.06 if handles else 0, 1, 1))
    _save(fig, path)
    return fig
