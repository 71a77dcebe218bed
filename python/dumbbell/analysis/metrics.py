"""Metrics of congestion-control experiments, computed from packet traces.

Every function here is a pure function of polars frames:

* an *events* frame: the packet events of an ns-2 trace, as returned by
  `dumbbell.read_trace` or `Result.events` (columns event, time, from_node,
  to_node, ptype, size, flags, fid, src_node, src_port, dst_node, dst_port,
  seqno, uid, and in `Result.events` also flow);
* a *vars* frame: variable-trace records, from `dumbbell.read_vartrace`
  (time, src_node, src_port, dst_node, dst_port, var, value) or
  `Result.vars` (time, flow, var, value).

Where it makes sense a function also takes a `Result` (its frames, and its
`until` as the end of the run) or the path of a trace file.  The
definitions, with their formulas and sources, are in docs/metrics.md.

Conventions shared by all functions:

* **window** ``(t0, t1)`` covers ``t0 <= t < t1``; rates divide by
  ``t1 - t0``.  Without a window everything from 0 to the end of the run
  counts, ends included: the end is `Result.until`, or for a frame or trace
  file the time of its last event.
* **by** selects what a "flow" is: ``"flow"`` (the API's flow id, the
  `flow` column of `Result.events`), ``"fid"`` (ns-2's flow id, column 8 of
  the trace) or ``"conn"`` (the connection: src_node, src_port, dst_node,
  dst_port of its data packets; for a vars frame the sender src_node,
  src_port).  The default is ``"flow"`` when the frame has that column, else
  ``"fid"`` for events and ``"conn"`` for vars.
* **data packets** are all packets whose ptype is not ``ack``; a packet is
  *delivered* when an ``r`` event shows it arriving at its destination node
  (to_node == dst_node).
* Per-flow results list every flow that has a data packet anywhere in the
  frame, with zeros where it has nothing in the window, sorted by the key.

Wrong input raises `ValueError` naming the function and the argument.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import polars as pl

__all__ = [
    "throughput", "goodput", "goodput_series", "jain", "one_way_delay", "queue_delay", "queue_length",
    "time_average_queue", "drops_and_marks", "lockout", "teeth", "loss_clusters",
    "tcp_friendly_rate", "link_utilisation", "ack_progress", "class_series",
]

_EVENTS_DOC = "a polars DataFrame from dumbbell.read_trace or Result.events, a Result, or a trace file path"
_VARS_DOC = "a polars DataFrame from dumbbell.read_vartrace or Result.vars, a Result, or a trace file path"
_CONN = ["src_node", "src_port", "dst_node", "dst_port"]
_SENDER = ["src_node", "src_port"]
_FLOOR_EPS = 1e-9


# ---- inputs ---------------------------------------------------------------------------


def _is_result(x) -> bool:
    return hasattr(x, "events") and hasattr(x, "vars") and hasattr(x, "until")


def _path(x, fn: str, arg: str) -> Path:
    p = Path(x)
    if not p.is_file():
        raise ValueError(f"{fn}(): {arg}: trace file {str(p)!r} does not exist")
    return p


def _need(df: pl.DataFrame, cols, fn: str, arg: str, what: str):
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise ValueError(f"{fn}(): {arg} lacks column(s) {', '.join(repr(c) for c in missing)}; expected {what}")


def _frame_of(data, fn: str, arg: str, kind: str) -> tuple[pl.DataFrame, float | None]:
    """The events (`kind` "events") or vars frame of `data` -- a trace file,
    a frame or a Result -- and the run's end time when known."""
    if isinstance(data, (str, os.PathLike)):
        from .trace import read_trace, read_vartrace

        read = read_trace if kind == "events" else read_vartrace
        return read(_path(data, fn, arg)), None
    if isinstance(data, pl.DataFrame):
        return data, None
    if _is_result(data):
        df = data.events if kind == "events" else data.vars
        # No events from a run that traced packets: none happened.
        if df.height == 0 and not (kind == "events" and getattr(data, "packets_traced", False)):
            how = ("run with sim.run(..., trace_packets=True)" if kind == "events"
                   else "trace them with sim.tcp(..., trace_vars=('cwnd_', 'ack_'))")
            what = "packet events" if kind == "events" else "variable records"
            raise ValueError(f"{fn}(): {arg}: the Result has no {what}; {how}")
        return df, float(data.until)
    doc = _EVENTS_DOC if kind == "events" else _VARS_DOC
    raise ValueError(f"{fn}(): {arg} must be {doc}, got {type(data).__name__}")


def _events(data, fn: str, cols=(), arg: str = "events") -> tuple[pl.DataFrame, float | None]:
    """The events frame of `data` and the run's end time when known."""
    df, end = _frame_of(data, fn, arg, "events")
    _need(df, ("event", "time", *cols), fn, arg, "the columns of dumbbell.read_trace")
    return df, end


def _vars(data, fn: str, arg: str = "vars") -> tuple[pl.DataFrame, float | None]:
    df, end = _frame_of(data, fn, arg, "vars")
    _need(df, ("time", "var", "value"), fn, arg, "the columns of dumbbell.read_vartrace or Result.vars")
    if "flow" not in df.columns:
        _need(df, _SENDER, fn, arg, "a flow column or the sender columns src_node, src_port")
        # ns-2 writes a traced variable's initial value with address -1 when
        # the agent is not attached yet (`attach` + `trace` before
        # `attach-agent`): those records belong to no sender.
        df = df.filter(pl.col("src_node") >= 0)
    return df, end


def _kind(data, fn: str, prefer: str | None, var: str) -> tuple[str, object]:
    """Whether `data` is read as packet events or as variable records:
    ("events" | "vars", the data, with a trace file read once).  A frame is
    what its columns say; a Result or a trace file gives `prefer` when it
    has that kind, else whichever it has (events first)."""
    if prefer not in (None, "events", "vars"):
        raise ValueError(f"{fn}(): source must be 'events' or 'vars', got {prefer!r}")
    if isinstance(data, pl.DataFrame):
        kind = "vars" if "var" in data.columns else "events"
        if prefer is not None and prefer != kind:
            raise ValueError(f"{fn}(): data is a {kind} frame, but source={prefer!r} was asked for")
        return kind, data
    if isinstance(data, (str, os.PathLike)):
        from .trace import read_trace_all

        ev, vr = read_trace_all(_path(data, fn, "data"))
        has_vars = vr.height > 0 and vr.filter(_match(vr, "var", lambda c: c == var)).height > 0
        if prefer == "vars" or (prefer is None and ev.height == 0 and has_vars):
            return "vars", vr
        return "events", ev
    if _is_result(data):
        if prefer == "vars" or (prefer is None and data.events.height == 0):
            return "vars", data
        return "events", data
    raise ValueError(f"{fn}(): data must be {_EVENTS_DOC} (or a vars frame), got {type(data).__name__}")


def _match(df: pl.DataFrame, col: str, pred) -> pl.Expr:
    """Rows whose string value in `col` satisfies `pred`; for Enum columns the
    test runs once per category, not once per row."""
    dt = df.schema[col]
    if isinstance(dt, pl.Enum):
        codes = [i for i, c in enumerate(dt.categories.to_list()) if pred(c)]
        return pl.col(col).to_physical().is_in(codes) if codes else pl.lit(False)
    values = df.get_column(col).cast(pl.String).unique().drop_nulls().to_list()
    hits = [v for v in values if pred(v)]
    return pl.col(col).cast(pl.String).is_in(hits) if hits else pl.lit(False)


def _ev(df: pl.DataFrame, *letters: str) -> pl.Expr:
    return _match(df, "event", lambda c: c in letters)


def _is_data(df: pl.DataFrame) -> pl.Expr:
    return _match(df, "ptype", lambda c: c != "ack")


def _is_ack(df: pl.DataFrame) -> pl.Expr:
    return _match(df, "ptype", lambda c: c == "ack")


def _as_data_conn(df: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """With connection keys, give ACKs the connection of the data they
    acknowledge (their own addresses reversed); otherwise `df` unchanged."""
    if keys != _CONN:
        return df
    ack = _is_ack(df)
    return df.with_columns(
        src_node=pl.when(ack).then(pl.col("dst_node")).otherwise(pl.col("src_node")),
        src_port=pl.when(ack).then(pl.col("dst_port")).otherwise(pl.col("src_port")),
        dst_node=pl.when(ack).then(pl.col("src_node")).otherwise(pl.col("dst_node")),
        dst_port=pl.when(ack).then(pl.col("src_port")).otherwise(pl.col("dst_port")))


def _first_marks(df: pl.DataFrame) -> pl.DataFrame:
    """Each ECN-marked packet (uid) once, at its first event with the CE flag."""
    return df.filter(_ce(df)).sort("time", maintain_order=True).unique("uid", keep="first", maintain_order=True)


def _ce(df: pl.DataFrame) -> pl.Expr:
    """Congestion Experienced: ns-2 writes 'E' at position 5 of the flags."""
    return _match(df, "flags", lambda c: len(c) > 4 and c[4] == "E")


def _keys(df: pl.DataFrame, by, fn: str, vars_frame: bool = False) -> list[str]:
    if by is None:
        by = "flow" if "flow" in df.columns else ("conn" if vars_frame else "fid")
    if by == "flow":
        if "flow" not in df.columns:
            raise ValueError(f"{fn}(): by='flow' needs the flow column of a Result's frames; "
                             f"for a trace file use by='fid' or by='conn'")
        return ["flow"]
    if by == "fid" and not vars_frame:
        _need(df, ["fid"], fn, "events", "the columns of dumbbell.read_trace")
        return ["fid"]
    if by == "conn":
        cols = _SENDER if vars_frame else _CONN
        _need(df, cols, fn, "vars" if vars_frame else "events", "the columns of dumbbell.read_trace")
        return list(cols)
    allowed = "'flow' or 'conn'" if vars_frame else "'flow', 'fid' or 'conn'"
    raise ValueError(f"{fn}(): by must be {allowed}, got {by!r}")


def _number(x, fn: str, arg: str, positive: bool = False, allow_zero: bool = True) -> float:
    if not isinstance(x, numbers.Real) or isinstance(x, bool) or not math.isfinite(float(x)):
        raise ValueError(f"{fn}(): {arg} must be a finite number, got {x!r}")
    x = float(x)
    if positive and (x < 0 or (x == 0 and not allow_zero)):
        raise ValueError(f"{fn}(): {arg} must be {'positive' if not allow_zero else 'non-negative'}, got {x!r}")
    return x


def _end(df: pl.DataFrame, end: float | None, fn: str, arg: str = "events") -> float:
    if end is not None:
        return end
    if df.height == 0:
        raise ValueError(f"{fn}(): {arg} is empty")
    return float(df.get_column("time").max())


def _window(window, df: pl.DataFrame, end: float | None, fn: str, arg: str = "events") -> tuple[float, float, str]:
    """(t0, t1, closed) of a window argument; `closed` for `is_between`."""
    if window is None:
        t0, t1 = 0.0, None
    else:
        try:
            t0, t1 = window
        except (TypeError, ValueError):
            raise ValueError(f"{fn}(): window must be a pair (t0, t1) of seconds, got {window!r}") from None
    closed = "left"
    if t1 is None:
        t1, closed = _end(df, end, fn, arg), "both"
    t0 = 0.0 if t0 is None else _number(t0, fn, "window start")
    t1 = _number(t1, fn, "window end")
    if not t1 > t0:
        raise ValueError(f"{fn}(): window ({t0:g}, {t1:g}) is empty: its end must be after its start")
    return t0, t1, closed


def _in_window(t0: float, t1: float, closed: str, col: str = "time") -> pl.Expr:
    return pl.col(col).is_between(t0, t1, closed=closed)


def _node_id(x, fn: str, arg: str) -> int:
    x = getattr(x, "id", x)
    if not isinstance(x, numbers.Integral) or isinstance(x, bool):
        raise ValueError(f"{fn}(): {arg} must be a node id (int) or a Node, got {x!r}")
    return int(x)


def _known_links(data) -> dict | tuple:
    """The link directions of a Result's simulation (which may carry no
    packet); nothing is known of a frame or a trace file."""
    return getattr(data, "link_bandwidths", ()) if _is_result(data) else ()


def _link(link, df: pl.DataFrame, fn: str, known=()) -> tuple[int, int]:
    """(from_node, to_node) of a Link or a pair of nodes, checked against the
    trace, or among `known` (a Result's links, which may carry no packet)."""
    if hasattr(link, "src") and hasattr(link, "dst"):
        a, b = link.src, link.dst
    else:
        try:
            a, b = link
        except (TypeError, ValueError):
            raise ValueError(f"{fn}(): link must be a pair (from_node, to_node) or a Link, got {link!r}") from None
    a, b = _node_id(a, fn, "link"), _node_id(b, fn, "link")
    if (a, b) in known or df.select(((pl.col("from_node") == a) & (pl.col("to_node") == b)).any()).item():
        return a, b
    seen = df.select("from_node", "to_node").unique().sort("from_node", "to_node")
    pairs = ", ".join(f"({x}, {y})" for x, y in seen.head(20).iter_rows())
    more = " ..." if seen.height > 20 else ""
    raise ValueError(f"{fn}(): link ({a}, {b}) has no events in the trace; traced links: {pairs or 'none'}{more}")


def _place(df: pl.DataFrame, link, node, fn: str, known=()) -> pl.Expr:
    """Where a packet counts as delivered: its destination node by default,
    the far end of `link`, or `node`."""
    if link is not None and node is not None:
        raise ValueError(f"{fn}(): give link or node, not both")
    if link is not None:
        a, b = _link(link, df, fn, known)
        return (pl.col("from_node") == a) & (pl.col("to_node") == b)
    if node is not None:
        return pl.col("to_node") == _node_id(node, fn, "node")
    return pl.col("to_node") == pl.col("dst_node")


def _universe(data: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    return data.select(keys).unique().drop_nulls().sort(keys)


def _complete(universe: pl.DataFrame, agg: pl.DataFrame, keys: list[str], zeros: Sequence[str]) -> pl.DataFrame:
    out = universe.join(agg, on=keys, how="left", nulls_equal=True)
    return out.with_columns(pl.col(c).fill_null(0).cast(pl.Int64) for c in zeros).sort(keys)


def _deliveries(data: pl.DataFrame, place: pl.Expr, keys: list[str]) -> pl.DataFrame:
    """First arrival of each distinct data packet (connection, seqno) at the
    place of delivery: keys, seqno, time, size."""
    extra = [k for k in keys if k not in _CONN]
    r = data.filter(_ev(data, "r"), place)
    return r.group_by([*_CONN, "seqno"]).agg(
        pl.col("time").min(), pl.col("size").first(), *[pl.col(k).first() for k in extra])


# ---- throughput and goodput ------------------------------------------------------------------


def throughput(events, window=None, *, link=None, node=None, by=None) -> pl.DataFrame:
    """Data packets delivered per flow in the window, retransmissions included.

    A packet counts when an ``r`` event shows it arriving at its destination
    node (or at the far end of `link`, or at `node`).  Columns: the key,
    ``packets``, ``bytes`` (trace sizes, headers included), ``throughput_bps``
    (bits/s) and ``throughput_pps`` (packets/s) over the window.
    """
    df, end = _events(events, "throughput", ("from_node", "to_node", "ptype", "size", "dst_node"))
    keys = _keys(df, by, "throughput")
    t0, t1, closed = _window(window, df, end, "throughput")
    place = _place(df, link, node, "throughput", _known_links(events))
    data = df.filter(_is_data(df))
    sel = data.filter(_ev(data, "r"), place, _in_window(t0, t1, closed))
    agg = sel.group_by(keys).agg(packets=pl.len(), bytes=pl.col("size").cast(pl.Int64).sum())
    out = _complete(_universe(data, keys), agg, keys, ["packets", "bytes"])
    dur = t1 - t0
    return out.with_columns(throughput_bps=pl.col("bytes") * 8.0 / dur, throughput_pps=pl.col("packets") / dur)


def goodput(events, window=None, *, link=None, node=None, by=None) -> pl.DataFrame:
    """Distinct data delivered per flow in the window.

    Each data packet of a connection (its seqno) counts once, at its first
    arrival at the destination (or the far end of `link`, or `node`), and
    only if that first arrival falls in the window: retransmitted duplicates
    count once.  Columns: the key, ``packets``, ``bytes`` (trace sizes,
    headers included), ``goodput_bps``, ``goodput_pps``.
    """
    df, end = _events(events, "goodput", ("from_node", "to_node", "ptype", "size", "seqno", *_CONN))
    keys = _keys(df, by, "goodput")
    t0, t1, closed = _window(window, df, end, "goodput")
    data = df.filter(_is_data(df))
    first = _deliveries(data, _place(df, link, node, "goodput", _known_links(events)), keys)
    sel = first.filter(_in_window(t0, t1, closed))
    agg = sel.group_by(keys).agg(packets=pl.len(), bytes=pl.col("size").cast(pl.Int64).sum())
    out = _complete(_universe(data, keys), agg, keys, ["packets", "bytes"])
    dur = t1 - t0
    return out.with_columns(goodput_bps=pl.col("bytes") * 8.0 / dur, goodput_pps=pl.col("packets") / dur)


def _check_groups(groups, keys: list[str], fn: str) -> dict[str, list]:
    if not isinstance(groups, Mapping) or not groups:
        raise ValueError(f"{fn}(): groups must be a non-empty mapping group name -> list of flow keys, got {groups!r}")
    if len(keys) != 1:
        raise ValueError(f"{fn}(): groups need a one-column flow key; use by='flow' or by='fid'")
    out = {}
    for name, members in groups.items():
        if isinstance(members, (str, bytes)) or not isinstance(members, (Sequence, set, frozenset)):
            members = [members]
        ids = []
        for m in members:
            m = getattr(m, "fid" if keys[0] == "fid" else "id", m)
            if not isinstance(m, numbers.Integral) or isinstance(m, bool):
                raise ValueError(f"{fn}(): groups[{name!r}] must list flow keys ({keys[0]} values), got {m!r}")
            ids.append(int(m))
        if not ids:
            raise ValueError(f"{fn}(): groups[{name!r}] is empty")
        out[str(name)] = ids
    return out


def goodput_series(events, bin: float = 1.0, window=None, *, by=None, groups=None, link=None,
                   node=None) -> pl.DataFrame:
    """Goodput per flow (or per group of flows) in consecutive time bins.

    Bins of `bin` seconds start at the window's start; the last one may be
    shorter and its rate uses its own length.  Columns: ``time`` (bin start),
    ``duration``, the key (or ``group`` and ``flows``, the number of flows in
    the group), ``packets``, ``bytes``, ``goodput_bps`` and, with groups,
    ``goodput_bps_per_flow`` (the group's mean per flow, seed 001's Fig 4.16).
    `groups` maps a name to flow keys: ``{"fragile": [0, 1], "robust": [2, 3]}``.
    """
    fn = "goodput_series"
    df, end = _events(events, fn, ("from_node", "to_node", "ptype", "size", "seqno", *_CONN))
    keys = _keys(df, by, fn)
    bin = _number(bin, fn, "bin", positive=True, allow_zero=False)
    t0, t1, closed = _window(window, df, end, fn)
    grp = _check_groups(groups, keys, fn) if groups is not None else None
    data = df.filter(_is_data(df))
    first = _deliveries(data, _place(df, link, node, fn, _known_links(events)), keys).filter(_in_window(t0, t1, closed))
    nbins = max(1, math.ceil((t1 - t0) / bin - _FLOOR_EPS))
    binned = first.with_columns(
        bin=((pl.col("time") - t0) / bin + _FLOOR_EPS).floor().cast(pl.Int64).clip(0, nbins - 1))
    bins = pl.DataFrame({"bin": np.arange(nbins, dtype=np.int64)}).with_columns(
        time=t0 + pl.col("bin") * bin,
        duration=pl.min_horizontal(t0 + (pl.col("bin") + 1) * bin, pl.lit(t1)) - (t0 + pl.col("bin") * bin))
    if grp is None:
        agg = binned.group_by([*keys, "bin"]).agg(packets=pl.len(), bytes=pl.col("size").cast(pl.Int64).sum())
        grid = _universe(data, keys).join(bins, how="cross")
        out = grid.join(agg, on=[*keys, "bin"], how="left", nulls_equal=True)
        out = out.with_columns(pl.col("packets").fill_null(0).cast(pl.Int64), pl.col("bytes").fill_null(0))
        out = out.with_columns(goodput_bps=pl.col("bytes") * 8.0 / pl.col("duration"))
        return out.sort([*keys, "bin"]).select("time", "duration", *keys, "packets", "bytes", "goodput_bps")
    k = keys[0]
    members = pl.DataFrame({"group": [g for g, ids in grp.items() for _ in ids],
                            k: [i for ids in grp.values() for i in ids]},
                           schema={"group": pl.String, k: df.schema[k]})
    agg = (binned.join(members, on=k, how="inner").group_by(["group", "bin"])
           .agg(packets=pl.len(), bytes=pl.col("size").cast(pl.Int64).sum()))
    names = pl.DataFrame({"group": list(grp), "flows": [len(v) for v in grp.values()], "order": range(len(grp))},
                         schema={"group": pl.String, "flows": pl.Int64, "order": pl.Int64})
    out = names.join(bins, how="cross").join(agg, on=["group", "bin"], how="left")
    out = out.with_columns(pl.col("packets").fill_null(0).cast(pl.Int64), pl.col("bytes").fill_null(0))
    out = out.with_columns(goodput_bps=pl.col("bytes") * 8.0 / pl.col("duration"))
    out = out.with_columns(goodput_bps_per_flow=pl.col("goodput_bps") / pl.col("flows"))
    return out.sort(["order", "bin"]).select("time", "duration", "group", "flows", "packets", "bytes",
                                             "goodput_bps", "goodput_bps_per_flow")


# ---- fairness --------------------------------------------------------------------------


_JAIN_COLUMNS = ("goodput_bps", "throughput_bps", "goodput_pps", "throughput_pps", "packets")


def jain(values, column: str | None = None) -> float:
    """Jain's fairness index (sum x)^2 / (n * sum x^2) of non-negative values.

    `values` is a sequence, numpy array or polars Series, or a DataFrame with
    `column` (default: the first of goodput_bps, throughput_bps, goodput_pps,
    throughput_pps, packets it has), e.g. the frame `goodput()` returns.
    1 when all values are equal, 1/n when one value has everything; NaN when
    all are zero.
    """
    if isinstance(values, pl.DataFrame):
        if column is None:
            column = next((c for c in _JAIN_COLUMNS if c in values.columns), None)
            if column is None:
                raise ValueError(f"jain(): values is a DataFrame without any of the columns "
                                 f"{', '.join(_JAIN_COLUMNS)}; name one with column=")
        elif column not in values.columns:
            raise ValueError(f"jain(): column {column!r} is not in the frame (columns: {', '.join(values.columns)})")
        values = values.get_column(column)
    elif column is not None:
        raise ValueError("jain(): column= applies only when values is a DataFrame")
    try:
        x = np.asarray(values.to_numpy() if isinstance(values, pl.Series) else list(values), dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"jain(): values must be numbers, got {values!r}") from None
    if x.ndim != 1 or x.size == 0:
        raise ValueError("jain(): values must be a non-empty list of numbers")
    if not np.all(np.isfinite(x)) or np.any(x < 0):
        raise ValueError(f"jain(): values must be finite and non-negative, got {x.tolist()!r}")
    sq = float(np.sum(x * x))
    if sq == 0.0:
        return math.nan
    return float(np.sum(x)) ** 2 / (x.size * sq)


# ---- delay -----------------------------------------------------------------------------


def one_way_delay(events, window=None, *, by=None, per_packet: bool = False, acks: bool = False) -> pl.DataFrame:
    """One-way delay of packets from their source to their destination.

    A packet's delay is the time of its ``r`` at its destination node minus
    the time of its first ``+`` (enqueue) at its source node, matched by uid;
    it includes queueing, transmission and propagation delays.  Packets count
    when they arrive in the window; dropped packets have no delay.  Data
    packets, or ACKs with ``acks=True``.  Needs the source's and the
    destination's links in the trace (``trace-all``).

    Per flow (default): the key, ``packets``, ``mean``, ``min``, ``median``,
    ``max`` (seconds).  With ``per_packet=True``: the key, ``uid``,
    ``seqno``, ``sent``, ``received``, ``delay``, in arrival order.
    """
    fn = "one_way_delay"
    df, end = _events(events, fn, ("from_node", "to_node", "ptype", "seqno", "uid", *_CONN))
    keys = _keys(df, by, fn)
    t0, t1, closed = _window(window, df, end, fn)
    pk = df.filter(_is_ack(df) if acks else _is_data(df))
    sent = (pk.filter(_ev(pk, "+"), pl.col("from_node") == pl.col("src_node"))
            .group_by("uid").agg(sent=pl.col("time").min()))
    recv = (_as_data_conn(pk.filter(_ev(pk, "r"), pl.col("to_node") == pl.col("dst_node")), keys)
            .group_by("uid").agg(pl.col("time").min().alias("received"), pl.col("seqno").first(),
                                 *[pl.col(k).first() for k in keys]))
    both = recv.join(sent, on="uid", how="inner")
    if both.height == 0 and recv.height > 0:
        raise ValueError(f"{fn}(): no delivered packet has its enqueue at its source node in the trace; "
                         f"trace the source's link too (trace-all, or run(trace_packets=True))")
    both = both.filter(_in_window(t0, t1, closed, "received")).with_columns(delay=pl.col("received") - pl.col("sent"))
    if per_packet:
        return both.sort("received", "uid").select(*keys, "uid", "seqno", "sent", "received", "delay")
    agg = both.group_by(keys).agg(
        packets=pl.len(), mean=pl.col("delay").mean(), min=pl.col("delay").min(),
        median=pl.col("delay").median(), max=pl.col("delay").max())
    out = _universe(_as_data_conn(pk, keys), keys).join(agg, on=keys, how="left", nulls_equal=True)
    return out.with_columns(pl.col("packets").fill_null(0).cast(pl.Int64)).sort(keys)


# ---- queues ----------------------------------------------------------------------------


def queue_length(events, link) -> pl.DataFrame:
    """Queue length of one link direction over time, as a step series.

    From the events at the link (from_node, to_node): ``+`` adds the packet,
    ``-`` (dequeue, transmission starts) and ``d`` remove it, as in Dordal's
    31.2.6 script.  A ``d`` counts only for a packet that is in the queue
    (enqueued on this link and not yet dequeued), so drops by an error model
    after the queue do not count twice.  The queue is empty before the first
    event.  Columns: ``time``, ``event``, ``packets``, ``bytes`` (the queue
    just after the event), one row per event in trace order.
    """
    fn = "queue_length"
    df, _ = _events(events, fn, ("from_node", "to_node", "size", "uid"))
    a, b = _link(link, df, fn, _known_links(events))
    q = (df.filter(pl.col("from_node") == a, pl.col("to_node") == b, _ev(df, "+", "-", "d"))
         .select("time", pl.col("event").cast(pl.String), "size", "uid").with_row_index("i"))
    enq = q.filter(pl.col("event") == "+").group_by("uid").agg(enq=pl.col("i").min())
    deq = q.filter(pl.col("event") == "-").group_by("uid").agg(deq=pl.col("i").min())
    q = q.join(enq, on="uid", how="left").join(deq, on="uid", how="left")
    queued_drop = ((pl.col("event") == "d") & pl.col("enq").is_not_null() & (pl.col("enq") < pl.col("i"))
                   & (pl.col("deq").is_null() | (pl.col("deq") > pl.col("i"))))
    sign = (pl.when(pl.col("event") == "+").then(1)
            .when(pl.col("event") == "-").then(-1)
            .when(queued_drop).then(-1).otherwise(0))
    q = q.sort("i").with_columns(sign=sign).filter(pl.col("sign") != 0)
    return q.select(
        "time", "event",
        packets=pl.col("sign").cum_sum().cast(pl.Int64),
        bytes=(pl.col("sign") * pl.col("size").cast(pl.Int64)).cum_sum())


def queue_delay(events, link, window=None, *, by=None, per_packet: bool = False) -> pl.DataFrame:
    """Time packets wait in the queue of one link direction: the first ``-``
    (dequeue) of a uid at the link minus its first ``+`` there, for packets
    dequeued in the window (dropped ones never are).  It is what an ns-2
    queue monitor's delay samples (``set-delay-samples``) measure, and the
    queueing part of `one_way_delay`.  All packets of a flow count, data
    and ACKs.  Per flow (every flow with a packet at the link): the key,
    ``packets``, ``mean``, ``min``, ``median``, ``max`` (seconds); with
    ``per_packet=True``: the key, ``uid``, ``enqueued``, ``dequeued``,
    ``delay`` (whose mean is the mean over all flows).
    """
    fn = "queue_delay"
    df, end = _events(events, fn, ("from_node", "to_node", "uid"))
    keys = _keys(df, by, fn)
    a, b = _link(link, df, fn, _known_links(events))
    t0, t1, closed = _window(window, df, end, fn)
    at = _as_data_conn(df.filter(pl.col("from_node") == a, pl.col("to_node") == b), keys)
    enq = at.filter(_ev(at, "+")).group_by("uid").agg(enqueued=pl.col("time").min())
    deq = (at.filter(_ev(at, "-")).group_by("uid")
           .agg(pl.col("time").min().alias("dequeued"), *[pl.col(k).first() for k in keys]))
    both = (deq.join(enq, on="uid", how="inner").filter(_in_window(t0, t1, closed, "dequeued"))
            .with_columns(delay=pl.col("dequeued") - pl.col("enqueued")))
    if per_packet:
        return both.sort("dequeued", "uid").select(*keys, "uid", "enqueued", "dequeued", "delay")
    agg = both.group_by(keys).agg(
        packets=pl.len(), mean=pl.col("delay").mean(), min=pl.col("delay").min(),
        median=pl.col("delay").median(), max=pl.col("delay").max())
    out = _universe(at, keys).join(agg, on=keys, how="left", nulls_equal=True)
    return out.with_columns(pl.col("packets").fill_null(0).cast(pl.Int64)).sort(keys)


def class_series(events, link, classes, bin: float = 1.0, window=None, *, by="fid") -> pl.DataFrame:
    """Per class of a scheduler, in consecutive time bins, at one link
    direction's queue: what left it and how long it waited.

    `classes` maps a class name to flow keys (``{"voice": [3], "bulk": [0,
    1]}``; fids by default, as CBQ, SCFQ and the other schedulers classify
    packets, or flow ids with ``by="flow"``; `Flow` objects give their
    key).  A packet counts in the bin of its first dequeue (``-``) at the
    link; ACKs count with their flow.  Packets of no listed class are left
    out.  Columns: ``time`` (bin start), ``duration``, ``class``,
    ``packets`` and ``bytes`` dequeued, ``throughput_bps`` (bytes x 8 /
    duration), ``mean_delay`` and ``max_delay`` (seconds from the packet's
    first ``+`` at the link to its dequeue; null in a bin without
    packets), and ``drops`` (``d`` events of the class's packets at the
    link in the bin).
    """
    fn = "class_series"
    df, end = _events(events, fn, ("from_node", "to_node", "size", "uid"))
    keys = _keys(df, by, fn)
    bin = _number(bin, fn, "bin", positive=True, allow_zero=False)
    t0, t1, closed = _window(window, df, end, fn)
    grp = _check_groups(classes, keys, fn)
    a, b = _link(link, df, fn, _known_links(events))
    k = keys[0]
    members = pl.DataFrame({"class": [g for g, ids in grp.items() for _ in ids],
                            k: [i for ids in grp.values() for i in ids]},
                           schema={"class": pl.String, k: df.schema[k]})
    if members.select(pl.col(k).is_duplicated().any()).item():
        raise ValueError(f"{fn}(): a {k} is listed in more than one class: {grp!r}")
    at = df.filter(pl.col("from_node") == a, pl.col("to_node") == b).join(members, on=k, how="inner")
    enq = at.filter(_ev(at, "+")).group_by("uid").agg(enqueued=pl.col("time").min())
    deq = (at.filter(_ev(at, "-")).group_by("uid")
           .agg(time=pl.col("time").min(), size=pl.col("size").first(), **{"class": pl.col("class").first()}))
    deq = (deq.join(enq, on="uid", how="left").with_columns(delay=pl.col("time") - pl.col("enqueued"))
           .filter(_in_window(t0, t1, closed)))
    drops = at.filter(_ev(at, "d")).select("time", "class").filter(_in_window(t0, t1, closed))
    nbins = max(1, math.ceil((t1 - t0) / bin - _FLOOR_EPS))

    def binned(x):
        return x.with_columns(bin=((pl.col("time") - t0) / bin + _FLOOR_EPS).floor().cast(pl.Int64).clip(0, nbins - 1))

    agg = binned(deq).group_by(["class", "bin"]).agg(
        packets=pl.len(), bytes=pl.col("size").cast(pl.Int64).sum(),
        mean_delay=pl.col("delay").mean(), max_delay=pl.col("delay").max())
    dagg = binned(drops).group_by(["class", "bin"]).agg(drops=pl.len())
    bins = pl.DataFrame({"bin": np.arange(nbins, dtype=np.int64)}).with_columns(
        time=t0 + pl.col("bin") * bin,
        duration=pl.min_horizontal(t0 + (pl.col("bin") + 1) * bin, pl.lit(t1)) - (t0 + pl.col("bin") * bin))
    names = pl.DataFrame({"class": list(grp), "order": range(len(grp))}, schema={"class": pl.String, "order": pl.Int64})
    out = (names.join(bins, how="cross").join(agg, on=["class", "bin"], how="left")
           .join(dagg, on=["class", "bin"], how="left"))
    out = out.with_columns(pl.col("packets").fill_null(0).cast(pl.Int64), pl.col("bytes").fill_null(0).cast(pl.Int64),
                           pl.col("drops").fill_null(0).cast(pl.Int64))
    out = out.with_columns(throughput_bps=pl.col("bytes") * 8.0 / pl.col("duration"))
    return out.sort(["order", "bin"]).select("time", "duration", "class", "packets", "bytes", "throughput_bps",
                                             "mean_delay", "max_delay", "drops")


def _step_average(t: np.ndarray, v: np.ndarray, t0: float, t1: float) -> float:
    """Time average over [t0, t1] of the step function that is 0 before t[0]
    and v[i] from t[i] until t[i+1] (the last value until t1)."""
    if t.size == 0:
        return 0.0
    ends = np.append(t[1:], np.inf)
    lo = np.maximum(t, t0)
    hi = np.minimum(ends, t1)
    return float(np.sum(v * np.clip(hi - lo, 0.0, None)) / (t1 - t0))


def time_average_queue(events, link, window=None, *, unit: str = "packets") -> float:
    """Time-averaged queue length of a link direction over the window.

    The integral of `queue_length` over the window divided by its length
    (Dordal 31.2.6, "Queue utilization").  `unit` is "packets" or "bytes".
    """
    fn = "time_average_queue"
    if unit not in ("packets", "bytes"):
        raise ValueError(f"{fn}(): unit must be 'packets' or 'bytes', got {unit!r}")
    df, end = _events(events, fn, ("from_node", "to_node", "size", "uid"))
    t0, t1, _ = _window(window, df, end, fn)
    q = queue_length(events if _is_result(events) else df, link)
    return _step_average(q.get_column("time").to_numpy(), q.get_column(unit).to_numpy().astype(float), t0, t1)


def link_utilisation(events, link, bandwidth, window=None) -> float:
    """Fraction of the window during which the link transmits.

    Each ``-`` event on the link starts a transmission of size*8/bandwidth
    seconds; the busy time is the sum of those intervals (a link sends one
    packet at a time, so they do not overlap) clipped to the window, divided
    by the window's length.  `bandwidth` is in bits/s or an ns-2 string ("800Kb", "10Mb").
    """
    fn = "link_utilisation"
    df, end = _events(events, fn, ("from_node", "to_node", "size"))
    bw = _bandwidth(bandwidth, fn)
    a, b = _link(link, df, fn, _known_links(events))
    t0, t1, _ = _window(window, df, end, fn)
    tx = df.filter(pl.col("from_node") == a, pl.col("to_node") == b, _ev(df, "-"))
    start = tx.get_column("time").to_numpy()
    stop = start + tx.get_column("size").to_numpy().astype(float) * 8.0 / bw
    busy = np.clip(np.minimum(stop, t1) - np.maximum(start, t0), 0.0, None)
    return float(busy.sum() / (t1 - t0))


def _bandwidth(bw, fn: str) -> float:
    if isinstance(bw, str):
        from ..api import _parse_bandwidth

        try:
            return _parse_bandwidth(bw, f"{fn}(): bandwidth")[1]
        except ValueError as e:
            raise ValueError(str(e)) from None
    return _number(bw, fn, "bandwidth (bits/s)", positive=True, allow_zero=False)


# ---- drops and marks -------------------------------------------------------------------


def drops_and_marks(events, window=None, *, link=None, by=None) -> pl.DataFrame:
    """Packets dropped and packets ECN-marked, per flow, in the window.

    Drops are ``d`` events.  A packet is marked when it carries the CE flag
    (ns-2 flags "----E--", the fifth letter); each packet (uid) counts once,
    at its first event with the flag, which also tells where it was marked
    (RED marks in the queue, so the first flagged event is its ``-``).  With
    `link`, only drops at that link and packets first seen marked there.
    Data packets and ACKs both count (a flow's ACKs carry its key; with
    by="conn" an ACK counts for the connection whose data it acknowledges).
    Columns: the key, ``drops``, ``drop_bytes``, ``marks``.
    """
    fn = "drops_and_marks"
    df, end = _events(events, fn, ("from_node", "to_node", "ptype", "size", "flags", "uid"))
    keys = _keys(df, by, fn)
    t0, t1, closed = _window(window, df, end, fn)
    at = pl.lit(True)
    if link is not None:
        a, b = _link(link, df, fn, _known_links(events))
        at = (pl.col("from_node") == a) & (pl.col("to_node") == b)
    df = _as_data_conn(df, keys)
    drops = (df.filter(_ev(df, "d"), at, _in_window(t0, t1, closed))
             .group_by(keys).agg(drops=pl.len(), drop_bytes=pl.col("size").cast(pl.Int64).sum()))
    marked = (_first_marks(df).filter(at, _in_window(t0, t1, closed))
              .group_by(keys).agg(marks=pl.len()))
    out = _universe(df, keys).join(drops, on=keys, how="left", nulls_equal=True)
    out = out.join(marked, on=keys, how="left", nulls_equal=True)
    return out.with_columns(pl.col(c).fill_null(0).cast(pl.Int64) for c in ("drops", "drop_bytes", "marks")).sort(keys)


# ---- progress and lockout --------------------------------------------------------------


def ack_progress(vars, window=None, *, by=None, var: str = "ack_") -> pl.DataFrame:
    """Increase of a traced counter (``ack_`` by default) per flow over the
    window: its value at the window's end minus its value at the start
    (the last record at or before each; 0 before the first record).

    With ``ack_`` this is the number of packets acknowledged in the window,
    seed 000's rate measure.  Columns: the key, ``start``, ``end``,
    ``increase``, ``rate`` (increase per second).
    """
    fn = "ack_progress"
    df, end = _vars(vars, fn)
    keys = _keys(df, by, fn, vars_frame=True)
    t0, t1, _ = _window(window, df, end, fn, "vars")
    d = df.filter(_match(df, "var", lambda c: c == var))
    if d.height == 0:
        raise ValueError(f"{fn}(): vars has no {var!r} records")
    d = d.sort("time", maintain_order=True)
    agg = d.group_by(keys).agg(
        start=pl.col("value").filter(pl.col("time") <= t0).last().fill_null(0.0),
        end=pl.col("value").filter(pl.col("time") <= t1).last().fill_null(0.0))
    return agg.with_columns(increase=pl.col("end") - pl.col("start")).with_columns(
        rate=pl.col("increase") / (t1 - t0)).sort(keys)


def lockout(data, period: float = 1.0, window=None, *, by=None, link=None, node=None,
            source: str | None = None) -> pl.DataFrame:
    """Lockout: flows that get nothing through for `period` seconds or more.

    A flow makes progress when a new data packet of it is delivered (the
    first arrival of a (connection, seqno) at its destination, or at the far
    end of `link`, or at `node`); from variable records, when its ``ack_``
    rises above every earlier value.  `data` is an events or vars frame, a
    Result or a trace file; for the last two `source` ("events" or "vars")
    chooses, by default the packet events when there are any.  Per flow over
    the window:

    * ``slots``: the window cut into whole slots of `period` seconds from its
      start; ``locked_slots``: slots without progress (seed 001's
      examples count seconds without ACK progress this way);
      ``locked_seconds`` = locked_slots * period;
    * ``longest_gap``: the longest interval inside the window without
      progress (from the start, between progress events, to the end);
    * ``locked_out``: longest_gap >= period, i.e. the flow got nothing
      through during some interval of length `period`;
    * ``starved``: no progress at all in the window (seed 001's "unable to
      get any data through ... for the duration of the simulation").

    Gaps count from the window's start: a flow that starts late, or stops,
    is locked out while it does not send; choose the window accordingly.
    """
    fn = "lockout"
    period = _number(period, fn, "period", positive=True, allow_zero=False)
    kind, data = _kind(data, fn, source, "ack_")
    if kind == "vars":
        if link is not None or node is not None:
            raise ValueError(f"{fn}(): link and node apply to packet events, not to variable records")
        df, end = _vars(data, fn, "data")
        keys = _keys(df, by, fn, vars_frame=True)
        t0, t1, closed = _window(window, df, end, fn, "data")
        d = df.filter(_match(df, "var", lambda c: c == "ack_")).sort("time", maintain_order=True)
        if d.height == 0:
            raise ValueError(f"{fn}(): data has no 'ack_' records; trace ack_ or pass packet events")
        d = d.with_columns(before=pl.col("value").cum_max().shift(1).over(keys))
        prog = d.filter(pl.col("value") > pl.col("before")).select(*keys, "time")
        universe = _universe(d, keys)
    else:
        df, end = _events(data, fn, ("from_node", "to_node", "ptype", "size", "seqno", *_CONN), "data")
        keys = _keys(df, by, fn)
        t0, t1, closed = _window(window, df, end, fn, "data")
        data_pk = df.filter(_is_data(df))
        prog = _deliveries(data_pk, _place(df, link, node, fn, _known_links(data)), keys).select(*keys, "time")
        universe = _universe(data_pk, keys)
    nslots = int(math.floor((t1 - t0) / period + _FLOOR_EPS))
    if nslots < 1:
        raise ValueError(f"{fn}(): period {period:g} s is longer than the window ({t0:g}, {t1:g})")
    prog = prog.filter(_in_window(t0, t1, closed)).sort([*keys, "time"])
    slots = (prog.with_columns(slot=((pl.col("time") - t0) / period + _FLOOR_EPS).floor().cast(pl.Int64))
             .filter(pl.col("slot") < nslots).group_by(keys).agg(active=pl.col("slot").n_unique()))
    gaps = prog.group_by(keys).agg(
        first=pl.col("time").first(), last=pl.col("time").last(),
        inner=pl.col("time").diff().max())
    out = universe.join(slots, on=keys, how="left", nulls_equal=True).join(gaps, on=keys, how="left",
                                                                            nulls_equal=True)
    out = out.with_columns(
        slots=pl.lit(nslots, pl.Int64),
        locked_slots=(nslots - pl.col("active").fill_null(0)).cast(pl.Int64),
        longest_gap=pl.when(pl.col("first").is_null()).then(t1 - t0).otherwise(
            pl.max_horizontal(pl.col("first") - t0, t1 - pl.col("last"), pl.col("inner").fill_null(0.0))),
        starved=pl.col("first").is_null())
    out = out.with_columns(locked_seconds=pl.col("locked_slots") * period,
                           locked_out=pl.col("longest_gap") >= period)
    return out.select(*keys, "slots", "locked_slots", "locked_seconds", "longest_gap", "locked_out",
                      "starved").sort(keys)


# ---- loss responses (teeth) and clusters -------------------------------------------------


def _cluster_ids(times: np.ndarray, granularity: float) -> np.ndarray:
    """Cluster number of each of the sorted `times` by Dordal's rule (31.4):
    a cluster starting at T takes everything up to T + granularity; the next
    time after that starts the next cluster.  One step per cluster."""
    ids = np.empty(times.size, dtype=np.int64)
    i, c = 0, 0
    while i < times.size:
        j = int(np.searchsorted(times, times[i] + granularity, side="right"))
        ids[i:j] = c
        i, c = j, c + 1
    return ids


def _teeth_rows(df: pl.DataFrame, keys: list[str], var: str, t0: float, t1: float, closed: str,
                timeout_cwnd: float) -> pl.DataFrame:
    d = df.filter(_match(df, "var", lambda c: c == var))
    if d.height == 0:
        raise ValueError(f"teeth(): vars has no {var!r} records; trace the variable (trace_vars=({var!r},))")
    d = d.sort("time", maintain_order=True).with_columns(peak=pl.col("value").shift(1).over(keys))
    return (d.filter(pl.col("value") < pl.col("peak"), _in_window(t0, t1, closed))
            .select(*keys, "time", "peak", "value", timeout=pl.col("value") <= timeout_cwnd))


def teeth(vars, start: float = 0.0, end: float | None = None, *, granularity: float | None = None, by=None,
          var: str = "cwnd_", timeout_cwnd: float = 1.0, per_tooth: bool = False) -> pl.DataFrame:
    """Loss responses ("teeth") of TCP senders from their cwnd_ records.

    A tooth is a record where cwnd_ is smaller than the flow's previous
    record (Dordal 31.4.2, "Counting teeth in Python"); a coarse timeout is a
    tooth that brings cwnd_ to `timeout_cwnd` (1) or below.  Only teeth at
    times start <= t < end count (the book's STARTPOINT skips slow start).

    Per flow: the key, ``teeth``, ``coarse_timeouts``; with `granularity`
    also ``clusters`` (the flow's own teeth grouped by the cluster rule of
    31.4: a cluster starting at T holds every tooth up to T + granularity),
    ``shared`` and ``alone`` (the clusters of all flows' teeth together that
    this flow has a tooth in, with at least one other flow / with no other
    flow).  With ``per_tooth=True`` instead: one row per tooth with the key,
    ``time``, ``peak`` (cwnd_ before), ``value`` (after) and ``timeout``.
    """
    fn = "teeth"
    df, run_end = _vars(vars, fn)
    keys = _keys(df, by, fn, vars_frame=True)
    start = _number(start, fn, "start")
    t0, t1, closed = _window((start, end), df, run_end, fn, "vars")
    timeout_cwnd = _number(timeout_cwnd, fn, "timeout_cwnd")
    rows = _teeth_rows(df, keys, var, t0, t1, closed, timeout_cwnd)
    if per_tooth:
        return rows.sort([*keys, "time"])
    universe = _universe(df.filter(_match(df, "var", lambda c: c == var)), keys)
    agg = rows.group_by(keys).agg(teeth=pl.len().cast(pl.Int64), coarse_timeouts=pl.col("timeout").sum().cast(pl.Int64))
    out = _complete(universe, agg, keys, ["teeth", "coarse_timeouts"])
    if granularity is None:
        return out
    g = _number(granularity, fn, "granularity", positive=True)
    rows = rows.sort("time", maintain_order=True)
    rows = rows.with_columns(cluster=pl.Series(_cluster_ids(rows.get_column("time").to_numpy(), g)))
    nflows = rows.group_by("cluster").agg(n=pl.struct(keys).n_unique())
    per = rows.join(nflows, on="cluster").group_by(keys).agg(
        shared=pl.col("cluster").filter(pl.col("n") > 1).n_unique().cast(pl.Int64),
        alone=pl.col("cluster").filter(pl.col("n") == 1).n_unique().cast(pl.Int64))
    # One step per flow (not per record): each flow's own teeth, clustered.
    own_rows = []
    for part in rows.partition_by(keys, maintain_order=True):
        ids = _cluster_ids(np.sort(part.get_column("time").to_numpy()), g)
        own_rows.append(part.head(1).select(keys).with_columns(clusters=pl.lit(int(ids[-1]) + 1, pl.Int64)))
    own = pl.concat(own_rows) if own_rows else universe.clear().with_columns(clusters=pl.lit(0, pl.Int64))
    out = out.join(own, on=keys, how="left", nulls_equal=True).join(per, on=keys, how="left", nulls_equal=True)
    return out.with_columns(pl.col(c).fill_null(0) for c in ("clusters", "shared", "alone")).sort(keys)


def loss_clusters(data, granularity: float, start: float = 0.0, end: float | None = None, *, by=None,
                  link=None, var: str = "cwnd_", timeout_cwnd: float = 1.0,
                  source: str | None = None) -> pl.DataFrame:
    """Clusters of loss responses (from a vars frame: the teeth of `teeth`)
    or of drops (from an events frame: ``d`` events of data packets, at
    `link` if given), by Dordal's rule (31.4): a cluster starting at T holds
    every tooth/drop up to T + granularity; the next one after that starts
    the next cluster.  Only times start <= t < end count.  `data` is a vars
    or events frame, a Result or a trace file; for the last two `source`
    ("vars" for teeth, "events" for drops) chooses, by default teeth when
    there are `var` records and no packet events, else drops.

    One row per cluster: ``cluster`` (0, 1, ...), ``start``, ``end`` (its
    last member), ``events`` (teeth or drops), ``flows`` (the number of
    distinct flows in it), ``shared`` (flows > 1) and ``members`` (the sorted
    flow keys: the flow or fid; "node.port" for a sender of a vars frame;
    "node.port-node.port" for a connection of an events frame).
    """
    fn = "loss_clusters"
    g = _number(granularity, fn, "granularity", positive=True)
    start = _number(start, fn, "start")
    kind, data = _kind(data, fn, source, var)
    if kind == "vars":
        if link is not None:
            raise ValueError(f"{fn}(): link applies to packet events, not to variable records")
        df, run_end = _vars(data, fn, "data")
        keys = _keys(df, by, fn, vars_frame=True)
        t0, t1, closed = _window((start, end), df, run_end, fn, "data")
        rows = _teeth_rows(df, keys, var, t0, t1, closed, _number(timeout_cwnd, fn, "timeout_cwnd"))
    else:
        df, run_end = _events(data, fn, ("from_node", "to_node", "ptype"), "data")
        keys = _keys(df, by, fn)
        t0, t1, closed = _window((start, end), df, run_end, fn, "data")
        at = pl.lit(True)
        if link is not None:
            a, b = _link(link, df, fn, _known_links(data))
            at = (pl.col("from_node") == a) & (pl.col("to_node") == b)
        rows = df.filter(_ev(df, "d"), _is_data(df), at, _in_window(t0, t1, closed)).select(*keys, "time")
    rows = rows.sort("time", maintain_order=True)
    rows = rows.with_columns(cluster=pl.Series(_cluster_ids(rows.get_column("time").to_numpy(), g)))
    if len(keys) == 1:
        member = pl.col(keys[0])
    else:
        parts = []
        for i in range(0, len(keys), 2):
            parts += [pl.col(keys[i]).cast(pl.String), pl.lit("."), pl.col(keys[i + 1]).cast(pl.String)]
            if i + 2 < len(keys):
                parts.append(pl.lit("-"))
        member = pl.concat_str(parts)
    out = rows.with_columns(member=member).group_by("cluster").agg(
        start=pl.col("time").min(), end=pl.col("time").max(), events=pl.len().cast(pl.Int64),
        members=pl.col("member").unique().sort())
    return out.with_columns(flows=pl.col("members").list.len().cast(pl.Int64)).with_columns(
        shared=pl.col("flows") > 1).sort("cluster").select(
        "cluster", "start", "end", "events", "flows", "shared", "members")


# ---- TCP-friendly rate ----------------------------------------------------------------


def tcp_friendly_rate(packet_size: float, rtt: float, p: float) -> float:
    """Floyd and Fall's bound on the sending rate of a TCP-friendly flow,
    seed 000 eq. 4.4:  T <= 1.5 * sqrt(2/3) * B / (R * sqrt(p)), in bits/s.

    `packet_size` B is in bytes, `rtt` R (the minimum round-trip time) in
    seconds, `p` the packet drop rate (dropped / sent, 0 < p <= 1).  Divide
    by 8 * packet_size for packets/s.
    """
    fn = "tcp_friendly_rate"
    b = _number(packet_size, fn, "packet_size (bytes)", positive=True, allow_zero=False)
    r = _number(rtt, fn, "rtt (seconds)", positive=True, allow_zero=False)
    p = _number(p, fn, "p (drop rate)")
    if not 0.0 < p <= 1.0:
        raise ValueError(f"{fn}(): p (drop rate) must be in (0, 1], got {p!r}")
    return 1.5 * math.sqrt(2.0 / 3.0) * b * 8.0 / (r * math.sqrt(p))
