"""Per-run analyses for examples/seed002_dordal.py.

Each function is a sweep `metrics.function`: it runs in the finished run's
directory (where the script wrote its trace), reads the trace with Dumbbell's
readers and metrics, and returns a small dict for the sweep's table, so the
large traces never leave the run directory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

import dumbbell as db
from dumbbell import metrics, nstrace

STARTPOINT = 3.0    # the book skips slow start: nothing before T = 3 s counts (31.4)


def _senders(vars_df: pl.DataFrame) -> pl.DataFrame:
    # Records written before an agent is attached carry address -1; they are
    # the initial values, not a flow.
    return vars_df.filter(pl.col("src_node") >= 0)


def basic1(run_dir, params) -> dict:
    """31.2.1 / 31.2.4 / "Loss rate versus cwnd: part 1" on basic1.tr."""
    tr = Path(run_dir) / "basic1.tr"
    v = _senders(db.read_vartrace(tr))
    teeth = metrics.teeth(v, start=0.0, per_tooth=True)
    after = teeth.filter(pl.col("time") >= STARTPOINT)
    peaks = after["peak"].to_numpy()
    times = after["time"].to_numpy()
    ack = v.filter(pl.col("var") == "ack_")["value"]
    timeouts = teeth.filter(pl.col("timeout"))["time"]
    out = {
        "peak1": float(peaks[0]), "peak2": float(peaks[1]), "peak3": float(peaks[2]),
        "last_peak": float(peaks[-1]),
        "spacing": float(np.round(np.median(np.diff(times[-20:])), 3)) if times.size > 20 else float("nan"),
        "last_ack": int(ack[-1]),
        "loss_events": int(after.height),
        "first_timeout": float(timeouts[0]) if timeouts.len() else float("nan"),
    }
    if params["endtime"] <= 10:
        out["delivered_twice"] = " ".join(str(s) for s in delivered_twice(tr))
    return out


def delivered_twice(path, dest_node=2, flow=0) -> list[int]:
    """31.2.4 "Packets that are delivered twice", with the book's nstrace
    interface: data packets (>= 1000 bytes) of `flow` received at
    `dest_node` more than once."""
    counts: dict[int, int] = {}
    nstrace.nsopen(str(path))
    while not nstrace.isEOF():
        if nstrace.isEvent():
            (event, _t, _snode, dnode, _p, size, _f, fid, _s, _d, seqno, _u) = nstrace.getEvent()
            if event == "r" and dnode == dest_node and size >= 1000 and fid == flow:
                counts[seqno] = counts.get(seqno, 0) + 1
        else:
            nstrace.skipline()
    nstrace.nsclose()
    return sorted(s for s, c in counts.items() if c > 1)


def queue_average(run_dir, params) -> dict:
    """31.2.6 "Queue utilization": the time-averaged queue at R (node 1)
    towards B, from the trace (the book's + / - / d counting)."""
    tr = Path(run_dir) / "q.tr"
    ev = db.read_trace(tr)
    end = float(params["endtime"])
    return {"avg_queue": metrics.time_average_queue(ev, (1, 2), window=(0.0, end)),
            "utilisation": metrics.link_utilisation(ev, (1, 2), "800Kb", window=(0.0, end))}


def drop_clusters(run_dir, params) -> dict:
    """31.3.2: loss events (clusters of data-packet drops, granularity 1 s,
    after slow start), and how many are one drop from each of the two flows."""
    ev = db.read_trace(Path(run_dir) / "b.tr")
    cl = metrics.loss_clusters(ev, 1.0, start=STARTPOINT, by="fid")
    drops = metrics.drops_and_marks(ev, (STARTPOINT, float(params["endtime"])), by="fid")
    n = dict(zip(drops["fid"].to_list(), drops["drops"].to_list()))
    return {"loss_events": cl.height,
            "one_drop_per_flow": cl.filter((pl.col("events") == 2) & (pl.col("flows") == 2)).height,
            "drops0": n.get(0, 0), "drops1": n.get(1, 0)}


def reno_teeth(run_dir, params) -> dict:
    """31.4.1 / 31.4.2: teeth and coarse timeouts per flow (cwnd_ records,
    after slow start, before the end of the run), and the times of the
    coarse timeouts."""
    v = _senders(db.read_vartrace(Path(run_dir) / "v.tr"))
    end = float(params["endtime"])
    t = metrics.teeth(v, start=STARTPOINT, end=end, per_tooth=True)
    out = {}
    for i in (0, 1):
        f = t.filter(pl.col("src_node") == i)
        out[f"teeth{i}"] = f.height
        out[f"cto{i}"] = int(f["timeout"].sum())
        out[f"cto_times{i}"] = " ".join(f"{x:.0f}" for x in f.filter(pl.col("timeout"))["time"])
    return out


def sack_losses(run_dir, params) -> dict:
    """31.4.2 "Relative loss rates" and 31.4.3 "Loss rate versus cwnd: part 2"
    (SACK): teeth per flow, packets acknowledged, and the loss-response
    clusters (granularity 1 s) shared by both flows or one flow's alone."""
    v = _senders(db.read_vartrace(Path(run_dir) / "v.tr"))
    end = float(params["endtime"])
    out = {}
    t = metrics.teeth(v, start=STARTPOINT, end=end, granularity=1.0).sort("src_node")
    for row in t.iter_rows(named=True):
        i = row["src_node"]
        out[f"teeth{i}"] = row["teeth"]
        out[f"alone{i}"] = row["alone"]
    cl = metrics.loss_clusters(v, 1.0, start=STARTPOINT, end=end)
    out["clusters"] = cl.height
    out["shared"] = int(cl["shared"].sum())
    for row in metrics.ack_progress(v, (0.0, end)).iter_rows(named=True):
        out[f"acked{row['src_node']}"] = int(row["end"])
    return out


def vegas_drops(run_dir, params) -> dict:
    """31.5 exercise 13: drop clusters (granularity 2 s, after slow start) at
    R's queue, for the Reno flow (fid 0) only, the Vegas flow (fid 1) only,
    or both; from the drops-only trace (tracekind "drops")."""
    ev = db.read_trace(Path(run_dir) / "d.tr")
    cl = metrics.loss_clusters(ev, 2.0, start=STARTPOINT, by="fid")
    members = [str(m) for m in cl["members"].to_list()]
    drops = ev.filter(pl.col("event") == "d")
    return {"clusters": cl.height, "shared": int(cl["shared"].sum()),
            "alone0": sum(1 for m, s in zip(members, cl["shared"]) if not s and "0" in m),
            "alone1": sum(1 for m, s in zip(members, cl["shared"]) if not s and "1" in m),
            "drops0": drops.filter(pl.col("fid") == 0).height, "drops1": drops.filter(pl.col("fid") == 1).height}


def vegas_cwnd(run_dir, params) -> dict:
    """31.5's cwnd-versus-time graph: each flow's cwnd_ once a second (the
    last value at or before each whole second) up to 300 s, its mean over
    that time, and the packets each flow had acknowledged at 300 s (ack_)."""
    v = _senders(db.read_vartrace(Path(run_dir) / "v.tr"))
    horizon = min(300.0, float(params["endtime"]))
    grid = np.arange(0.0, horizon + 0.5, 1.0)
    out = {}
    for i in (0, 1):
        f = v.filter(pl.col("src_node") == i)
        for var, key in (("cwnd_", "cwnd"), ("ack_", "ack")):
            g = f.filter(pl.col("var") == var)
            t, x = g["time"].to_numpy(), g["value"].to_numpy()
            idx = np.searchsorted(t, grid, side="right") - 1
            s = np.where(idx >= 0, x[np.maximum(idx, 0)], np.nan)
            if key == "cwnd":
                out[f"cwnd{i}"] = " ".join(f"{c:.2f}" for c in s)
                out[f"mean_cwnd{i}"] = float(np.nanmean(s))
            else:
                out[f"acked300_{i}"] = int(s[-1])
    return out
