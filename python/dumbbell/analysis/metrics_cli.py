"""`dumbbell plot` and `dumbbell metrics`: plots and metric tables of ns-2
trace files on the command line (the functions of dumbbell.plot and
dumbbell.metrics).  `add_commands` registers both subcommands with the
`dumbbell` parser; polars and matplotlib are imported only when they run."""

from __future__ import annotations

import argparse
import json
from .._words import count
import math
import sys

PLOT_KINDS = ("cwnd", "seqno", "ack", "queue", "goodput")


def add_commands(sub) -> None:
    """Add the `plot` and `metrics` subcommands to an argparse subparsers object."""
    from ..cli import doc_path, help_formatter

    p = sub.add_parser(
        "plot", formatter_class=help_formatter(), help="plot a trace file: cwnd, seqno, ack, queue or goodput",
        description="Plot an ns-2 trace file to PNG, PDF or SVG (by the extension of -o).  "
                    "cwnd: a traced variable per sender; seqno: data packets arriving and drops; "
                    "ack: ACK numbers arriving at each sender (seed 000 Fig 4.2); queue: queue length "
                    "of --link with drops and ECN marks; goodput: goodput per group of flows over time "
                    "(seed 001 Fig 4.16).")
    p.add_argument("kind", choices=PLOT_KINDS, help="what to plot: " + ", ".join(PLOT_KINDS))
    p.add_argument("trace", help="ns-2 trace file")
    p.add_argument("-o", "--output", required=True, help="output file: .png (200 dpi), .pdf or .svg")
    p.add_argument("--title", help="the figure's title (default: none)")
    p.add_argument("--label", action="append", default=[], metavar="KEY=TEXT",
                   help="a legend text (repeat): KEY is a line's flow key (cwnd: sender node.port; seqno, ack, "
                        "goodput: fid or group name; queue: queue, drops, marks, average, limit, RED average) "
                        "or its default text")
    p.add_argument("--link", nargs=2, type=int, metavar=("FROM", "TO"), help="queue: the link direction")
    p.add_argument("--var", default="cwnd_", help="cwnd: the traced variable (default cwnd_)")
    p.add_argument("--node", type=int, help="seqno: only packets arriving at this node")
    p.add_argument("--by", choices=("fid", "conn"), default="fid",
                   help="ack: what a flow is (default: fid; goodput groups are always fids)")
    p.add_argument("--group", action="append", default=[], metavar="NAME=FID,FID,...",
                   help="goodput: a group of flows (repeat; default: one group per fid)")
    p.add_argument("--bin", type=float, default=1.0, help="goodput: bin width in seconds (default 1)")
    p.add_argument("--total", action="store_true", help="goodput: group totals instead of means per flow")
    p.add_argument("--window", nargs=2, type=float, metavar=("T0", "T1"), help="time window (queue, goodput)")
    p.add_argument("--unit", choices=("packets", "bytes"), default="packets", help="queue: unit")
    p.add_argument("--queue-limit", type=int, help="queue: draw the queue limit")
    p.add_argument("--markers", choices=("auto", "all", "none"), default="auto",
                   help="queue: drop and mark markers: auto draws at most --max-markers of each (every k-th, said "
                        "in the legend; default), all every one, none none")
    p.add_argument("--max-markers", type=int, default=300, help="queue: markers of each kind with --markers auto "
                                                                 "(default 300)")
    p.add_argument("--red-trace", metavar="FILE",
                   help="queue: a RED queue trace (`$redq trace ave_; $redq attach $f`) whose ave_ is drawn as "
                        "RED's average queue")
    p.set_defaults(fn=cmd_plot)

    m = sub.add_parser(
        "metrics", formatter_class=help_formatter(), help="per-flow metrics of a trace file (throughput, goodput, drops, marks, Jain, ...)",
        description="Print per-flow throughput, goodput, drops, ECN marks and one-way delay of an ns-2 "
                    "trace file, Jain's index of the goodputs, and with --link the link's time-averaged "
                    "queue, mean wait and (with --bandwidth) utilisation; cwnd_ records give loss "
                    f"responses (teeth).  Columns: thr_* count every data packet delivered (retransmissions "
                    f"too), distinct_pkts and goodput_mbps each packet once, at its first arrival, in order or "
                    f"not (Result.flows's goodput_pkts counts the sink's in-order bytes: fewer when the run ends "
                    f"with a hole).  Definitions: {doc_path('metrics.md')}.")
    m.add_argument("trace", help="ns-2 trace file")
    m.add_argument("--window", nargs=2, type=float, metavar=("T0", "T1"), help="time window (default: whole trace)")
    m.add_argument("--by", choices=("fid", "conn"), default="fid", help="what a flow is (default: fid)")
    m.add_argument("--link", nargs=2, type=int, metavar=("FROM", "TO"), help="a link direction to report on")
    m.add_argument("--bandwidth", help="the link's bandwidth (bits/s or '800Kb') for its utilisation")
    m.add_argument("--period", type=float, help="lockout: seconds without progress that count as locked out")
    m.add_argument("--granularity", type=float, help="teeth: cluster granularity in seconds")
    m.add_argument("--start", type=float, default=0.0, help="teeth: ignore loss responses before this time")
    m.add_argument("--format", choices=("table", "csv", "json"), default="table",
                   help="output: an aligned table (default), CSV of the per-flow rows, or JSON of everything")
    m.set_defaults(fn=cmd_metrics)


def _fail(msg: str) -> int:
    print(f"dumbbell: error: {msg}", file=sys.stderr)
    return 2


def _groups(specs: list[str]) -> dict[str, list[int]] | None:
    if not specs:
        return None
    out = {}
    for spec in specs:
        name, sep, ids = spec.partition("=")
        if not sep or not name or not ids:
            raise ValueError(f"--group must look like NAME=1,2,3, got {spec!r}")
        try:
            out[name] = [int(x) for x in ids.split(",") if x.strip()]
        except ValueError:
            raise ValueError(f"--group {spec!r}: flow ids must be integers") from None
    return out


def _labels(specs: list[str]) -> dict | None:
    """--label KEY=TEXT options as plot's `labels` mapping (an integer KEY
    is a fid too)."""
    if not specs:
        return None
    out = {}
    for spec in specs:
        key, sep, text = spec.partition("=")
        if not sep or not key:
            raise ValueError(f"--label must look like KEY=TEXT, got {spec!r}")
        out[key] = text
        if key.lstrip("-").isdigit():
            out[int(key)] = text
    return out


def _traced_links(events, trace) -> str:
    """What `plot queue` can draw: the link directions with queue events."""
    q = events.filter(events["event"].cast(str).is_in(["+", "-", "d"])) if events.height else events
    if q.height == 0:
        return f"{trace} has no queue events (+ - d) to plot"
    pairs = q.select("from_node", "to_node").unique().sort(["from_node", "to_node"]).rows()
    shown = ", ".join(f"--link {a} {b}" for a, b in pairs[:20])
    more = f" (and {len(pairs) - 20} more)" if len(pairs) > 20 else ""
    return f"the links traced in {trace} are: {shown}{more}"


def cmd_plot(args) -> int:
    from pathlib import Path

    from . import plot
    from .trace import read_trace_all

    if Path(args.output).suffix.lower() not in (".png", ".pdf", ".svg"):
        return _fail(f"-o must end in .png, .pdf or .svg, got {args.output!r}")
    if not Path(args.trace).is_file():
        return _fail(f"trace file {args.trace!r} does not exist")
    try:
        labels = _labels(args.label)
        events, vars_ = read_trace_all(args.trace)
        window = tuple(args.window) if args.window else None
        if args.kind == "cwnd":
            if vars_.height == 0:
                return _fail(f"{args.trace} has no variable-trace records (trace cwnd_ into it)")
            if vars_.filter(vars_["var"].cast(str) == args.var).height == 0:
                return _fail(f"{args.trace} has no {args.var} records")
            fig = plot.plot_cwnd(vars_, args.output, title=args.title, var=args.var, labels=labels)
        elif args.kind == "seqno":
            if events.height == 0:
                return _fail(f"{args.trace} has no packet events")
            fig = plot.plot_seqno(events, args.output, node=args.node, title=args.title, labels=labels)
        elif args.kind == "ack":
            data = plot.ack_source(events, vars_)
            # ack_ records have no fid: their flows are the senders
            by = None if "var" in data.columns and args.by == "fid" else args.by
            fig = plot.plot_ack_seqno(data, args.output, args.title, by=by, labels=labels)
        elif args.kind == "queue":
            if args.link is None:
                return _fail("plot queue needs --link FROM TO; " + _traced_links(events, args.trace))
            fig = plot.plot_queue(events, tuple(args.link), args.output, args.title, unit=args.unit,
                                  window=window, queue_limit=args.queue_limit, markers=args.markers,
                                  max_markers=args.max_markers, red_average=args.red_trace, labels=labels)
        else:
            groups = _groups(args.group)
            if groups is None:  # one group per fid of the data packets
                data = events.filter(events["ptype"].cast(str) != "ack")
                groups = {f"fid {k}": [k] for k in sorted(data["fid"].unique().to_list())}
            fig = plot.plot_goodput_groups(events, groups, args.output, args.title, bin=args.bin, window=window,
                                           by="fid", per_flow=not args.total, labels=labels)
    except (ValueError, OSError) as e:
        return _fail(str(e))
    plot._plt().close(fig)
    print(f"wrote {args.output}")
    return 0


def _flow_table(events, args):
    """The per-flow frame of `dumbbell metrics`."""
    import polars as pl

    from . import metrics as m

    window = tuple(args.window) if args.window else None
    by = args.by
    keys = m._keys(events, by, "metrics")
    thr = m.throughput(events, window, by=by).select(*keys, thr_mbps=pl.col("throughput_bps") / 1e6,
                                                    thr_pkts=pl.col("packets"))
    # each data packet once, at its first arrival, in order or not (not
    # Result.flows's goodput_pkts, the sink's in-order count: docs/metrics.md)
    good = m.goodput(events, window, by=by).select(*keys, goodput_mbps=pl.col("goodput_bps") / 1e6,
                                                   distinct_pkts=pl.col("packets"))
    dm = m.drops_and_marks(events, window, by=by).select(*keys, "drops", "marks")
    out = thr.join(good, on=keys, how="left").join(dm, on=keys, how="left")
    try:
        d = m.one_way_delay(events, window, by=by).select(*keys, delay_ms=pl.col("mean") * 1000)
        out = out.join(d, on=keys, how="left")
    except ValueError:
        pass  # the sources' links are not in the trace
    if args.period is not None:
        lo = m.lockout(events, args.period, window, by=by).select(*keys, "locked_seconds", "longest_gap")
        out = out.join(lo, on=keys, how="left")
    return out


def _no_nan(x):
    """JSON has no NaN: undefined values (Jain's index of all-zero goodputs) become null."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_no_nan(v) for v in x]
    return x


def _text_table(df) -> str:
    cols = df.columns
    rows = [[_cell(v) for v in r] for r in df.iter_rows()]
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(cols, widths))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)


def _cell(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.4f}" if abs(v) < 1000 else f"{v:.1f}"
    return str(v)


def cmd_metrics(args) -> int:
    from pathlib import Path

    from . import metrics as m
    from .trace import read_trace_all

    if not Path(args.trace).is_file():
        return _fail(f"trace file {args.trace!r} does not exist")
    window = tuple(args.window) if args.window else None
    summary: dict = {}
    flows = teeth = None
    try:
        events, vars_ = read_trace_all(args.trace)
        if events.height:
            flows = _flow_table(events, args)
            summary["jain_goodput"] = m.jain(flows["goodput_mbps"]) if flows.height else None
            if args.link is not None:
                link = tuple(args.link)
                summary["link"] = list(link)
                q = m.queue_length(events, link)
                t0, t1, _ = m._window(window, events, None, "metrics")
                t = q["time"].to_numpy()
                summary["queue_avg_pkts"] = m._step_average(t, q["packets"].to_numpy().astype(float), t0, t1)
                summary["queue_avg_bytes"] = m._step_average(t, q["bytes"].to_numpy().astype(float), t0, t1)
                waits = m.queue_delay(events, link, window, by=args.by, per_packet=True)["delay"]
                summary["queue_delay_ms"] = float(waits.mean()) * 1000 if waits.len() else None
                if args.bandwidth is not None:
                    summary["utilisation"] = m.link_utilisation(events, link, args.bandwidth, window)
        elif args.link is not None:
            return _fail(f"{args.trace} has no packet events for --link")
        if vars_.height and vars_.filter(m._match(vars_, "var", lambda c: c == "cwnd_")).height:
            t1 = args.window[1] if args.window else None
            start = max(args.start, args.window[0]) if args.window else args.start
            teeth = m.teeth(vars_, start, t1, granularity=args.granularity, by="conn")
        if flows is None and teeth is None:
            return _fail(f"{args.trace} has neither packet events nor cwnd_ records")
    except ValueError as e:
        return _fail(str(e))
    if args.format == "json":
        doc = {"flows": flows.to_dicts() if flows is not None else [], **summary}
        if teeth is not None:
            doc["teeth"] = teeth.to_dicts()
        print(json.dumps(_no_nan(doc), indent=1, allow_nan=False))
    elif args.format == "csv":
        if flows is None:
            return _fail(f"{args.trace} has no packet events")
        sys.stdout.write(flows.write_csv())
    else:
        if flows is not None:
            print(_text_table(flows))
            j = summary["jain_goodput"]
            print(f"Jain's fairness index of goodput: {_cell(j)} over {count(flows.height, 'flow')}")
            if "queue_avg_pkts" in summary:
                a, b = summary["link"]
                print(f"queue {a}->{b}: time average {summary['queue_avg_pkts']:.4f} packets "
                      f"({summary['queue_avg_bytes']:.1f} bytes), mean wait {_cell(summary['queue_delay_ms'])} ms")
            if "utilisation" in summary:
                print(f"link {summary['link'][0]}->{summary['link'][1]}: utilisation "
                      f"{summary['utilisation'] * 100:.2f}%")
        if teeth is not None:
            if flows is not None:
                print()
            print("loss responses (cwnd_ decreases) per sender:")
            print(_text_table(teeth))
    return 0


def main(argv=None) -> int:
    """Stand-alone entry point (``python -m dumbbell.metrics_cli plot ...``)."""
    ap = argparse.ArgumentParser(prog="dumbbell")
    add_commands(ap.add_subparsers(dest="cmd", required=True))
    a = ap.parse_args(argv)
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
