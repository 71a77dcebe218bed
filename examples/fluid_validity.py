#!/usr/bin/env python3
"""The fluid mode's validity map: the same dumbbells run in both modes
(sim.run(T, mode="fluid") and sim.run(T)) over a grid of AQM (RED, PI),
number of flows, bottleneck capacity and round trip; per point the mean
queue, each class's throughput, the queue's oscillation and the wall time
of each mode, and whether the fluid model holds (within 10%).

    .venv/bin/python examples/fluid_validity.py [--T 30] [--quick] [--big | --big-only] [--write]

--quick runs a 2x2x2x2 corner of the grid; --big adds the 10,000-flow
points (1 Gb/s, 100 ms; both modes), --big-only runs only those; --write puts the table into
docs/fluid.md between its `validity` markers (else it prints it).

Scenario per point: N flows in two classes of N/2 Reno flows (ECN off),
base round trips r and 2r (propagation; class i's access links carry
delay (r_i - r/2)/4 each way, the bottleneck r/4), access links of 10x the
bottleneck's capacity with room for any burst, 1000-byte packets,
window_ 100000.  The bottleneck's limit is 100 packets per 10 Mb/s.
RED: thresh/maxthresh 10/30 packets per 10 Mb/s, q_weight 0.002 per 10
Mb/s over the capacity (the average's time constant stays 0.4 s),
packet mode, ns-2's other defaults (gentle, wait).  PI: q_ref twice RED's
thresh, and a_, b_ from Hollot et al.'s rule for N flows and the longest
round trip (models.linear.pi_design, zero on the TCP pole, crossover
w_g = 0.5 min(z, 1/R), sampled at w_ = 160 Hz).

Two fluid runs per point: MGT's window decrease (the default of
sim.run(T, mode="fluid"), "MGT") and the per-window decrease ("win",
models/fluid.py).  Measures, over [0, T]: mean queue (packets, time average),
throughput per class (packets/s delivered), oscillation = the queue's
standard deviation over [T/3, T] divided by the link's packets per second
times the round trip r (a swing of one r's worth of queueing delay is 1.0;
from the packet trace of the bottleneck, so it is left out at 1 Gb/s,
where the trace would hold tens of millions of events).  "within 10%": the
mean queue and both classes' throughputs within 10% of the packet run's
(the queue also within 1 packet, for queues of a few packets).  The
times are of sim.run() in each mode (the fluid one with MGT's decrease).
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import time
from pathlib import Path

import numpy as np
import polars as pl

import dumbbell as db
from dumbbell.models import linear
from dumbbell.models.fluid_scenario import run_fluid

ROOT = Path(__file__).resolve().parents[1]
PKT = 1040  # bytes on the wire: 1000 + 40 of headers


def build(queue: str, n: int, bw_mb: float, r: float):
    """(sim, bottleneck link, C packets/s)."""
    scale = bw_mb / 10
    c = bw_mb * 1e6 / 8 / PKT
    th = 10 * scale
    limit = int(round(100 * scale))
    if queue == "RED":
        qp = {"thresh": th, "maxthresh": 3 * th, "q_weight": 0.002 / scale, "bytes": False,
              "queue_in_bytes": False}
    else:
        qref = 2 * th
        r_max = 2 * r + qref / c
        z = 2 * (n / 2) / (r_max ** 2 * c)
        d = linear.pi_design(n / 2, r_max, c, w_g=0.5 * min(z, 1 / r_max), fs=160)
        qp = {"a": d["a"], "b": d["b"], "w": 160, "qref": qref}
    sim = db.Simulation()
    L, R = sim.nodes(2)
    bn = sim.link(L, R, bandwidth=f"{bw_mb}Mb", delay=r / 4, queue=queue, queue_limit=limit, queue_params=qp)
    for rtt in (r, 2 * r):
        s, d_ = sim.nodes(2)
        acc = (rtt - r / 2) / 4
        sim.link(s, L, bandwidth=f"{10 * bw_mb}Mb", delay=acc, queue_limit=1_000_000)
        sim.link(R, d_, bandwidth=f"{10 * bw_mb}Mb", delay=acc, queue_limit=1_000_000)
        for _ in range(n // 2):
            sim.tcp(s, d_, variant="reno", window=100000)
    return sim, bn, c


def packet_queue_sd(events: pl.DataFrame, a: int, b: int, t0: float, t1: float) -> float:
    """Time-weighted standard deviation of the a->b queue over [t0, t1]
    from its '+', '-' and 'd' events."""
    ev = events.filter((pl.col("from_node") == a) & (pl.col("to_node") == b)).select("event", "time")
    step = ev["event"].cast(pl.String).replace_strict({"+": 1, "-": -1, "d": -1}, default=0, return_dtype=pl.Int64)
    t = ev["time"].to_numpy()
    q = np.cumsum(step.to_numpy())
    dt = np.diff(np.append(np.clip(t, t0, t1), t1))
    keep = dt > 0
    if not keep.any():
        return 0.0
    w, q = dt[keep], q[keep].astype(float)
    m = np.average(q, weights=w)
    return float(math.sqrt(np.average((q - m) ** 2, weights=w)))


def fluid_measures(sim, c, r, T, decrease):
    t0 = time.perf_counter()
    fr = run_fluid(sim, T, decrease=decrease)
    elapsed = time.perf_counter() - t0
    res = fr.result
    fl = fr.flows.group_by("class").agg(pl.col("goodput_pkts").sum()).sort("class")["goodput_pkts"].to_list()
    sel = res.t >= T / 3
    return {"q": fr.time_average_queue(), "thr": [x / T for x in fl], "osc": float(res.q[sel].std()) / (c * r),
            "t": elapsed}


def verdict(m, pk) -> tuple[bool, bool]:
    """(throughputs within 10%, mean queue within 10% or 1 packet)."""
    thr = all(abs(f / p - 1) <= 0.10 if p > 0 else False for f, p in zip(m["thr"], pk["thr"]))
    return thr, abs(m["q"] - pk["q"]) <= max(0.10 * pk["q"], 1.0)


def point(queue, n, bw, r, T, trace=True):
    sim, bn, c = build(queue, n, bw, r)
    mgt = fluid_measures(sim, c, r, T, "per-signal")
    win = fluid_measures(sim, c, r, T, "per-window")
    trace = trace and bw < 1000
    t0 = time.perf_counter()
    pr = sim.run(T, trace_packets=[bn] if trace else False, monitor_queues=[bn])
    tp = time.perf_counter() - t0
    cls = [0] * (n // 2) + [1] * (n // 2)
    pk_thr = pr.flows.with_columns(cls=pl.Series(cls)).group_by("cls").agg(pl.col("ack").sum()).sort("cls")["ack"]
    pk = {"q": float(pr.queues["mean_queue_pkts"][0]), "thr": [x / T for x in pk_thr.to_list()],
          "osc": packet_queue_sd(pr.events, 0, 1, T / 3, T) / (c * r) if trace else None, "t": tp}
    return {"queue": queue, "flows": n, "bw_Mb": bw, "rtt_ms": round(1000 * r), "mgt": mgt, "win": win, "pk": pk,
            "ok_mgt": verdict(mgt, pk), "ok_win": verdict(win, pk),
            "packets": int(pr.queues["departures_pkts"][0])}


def why(p) -> str:
    """A short reason where the (per-window) model does not hold."""
    thr_ok, q_ok = p["ok_win"]
    if thr_ok and q_ok:
        return ""
    pk, win = p["pk"], p["win"]
    per_flow = (p["bw_Mb"] * 1e6 / 8 / PKT * p["rtt_ms"] / 1000 * 1.5 + pk["q"]) / p["flows"]
    out = []
    if per_flow < 3:
        out.append(f"windows of {per_flow:.1f} pkts: timeouts")
    if pk["osc"] is not None and pk["osc"] > 2 * max(win["osc"], 0.02):
        out.append("packet queue swings more")
    if pk["q"] < 0.5 * win["q"]:
        out.append("packet queue often empty")
    if not thr_ok and q_ok:
        out.append("RTT split differs")
    if not out and sum(pk["thr"]) < 0.9 * sum(win["thr"]):
        out.append("packet run slower to fill the link")
    if not out and sum(pk["thr"]) > 1.1 * sum(win["thr"]):
        out.append("slow-start overshoot cuts the fluid windows further")
    return "; ".join(out) or "mean queue off"


def ok_text(v) -> str:
    thr, q = v
    return "yes" if thr and q else ("thr" if thr else ("queue" if q else "no"))


def table(points) -> str:
    head = ("| AQM | flows | Mb/s | RTT ms | mean queue MGT / win / pk | class 0 pkt/s MGT / win / pk "
            "| class 1 pkt/s MGT / win / pk | oscillation MGT / win / pk | holds MGT, win | why not (win) "
            "| fluid s | packet s |\n"
            "|---|---:|---:|---:|---|---|---|---|---|---|---:|---:|\n")
    rows = []
    for p in points:
        m, w, k = p["mgt"], p["win"], p["pk"]
        osc = f"{m['osc']:.2f} / {w['osc']:.2f} / " + ("n/a" if k["osc"] is None else f"{k['osc']:.2f}")
        rows.append(f"| {p['queue']} | {p['flows']} | {p['bw_Mb']:g} | {p['rtt_ms']} "
                    f"| {m['q']:.1f} / {w['q']:.1f} / {k['q']:.1f} "
                    f"| {m['thr'][0]:.0f} / {w['thr'][0]:.0f} / {k['thr'][0]:.0f} "
                    f"| {m['thr'][1]:.0f} / {w['thr'][1]:.0f} / {k['thr'][1]:.0f} | {osc} "
                    f"| {ok_text(p['ok_mgt'])}, {ok_text(p['ok_win'])} | {why(p)} "
                    f"| {m['t']:.3f} | {k['t']:.2f} |")
    return head + "\n".join(rows) + "\n"


def summary(points, cmd) -> str:
    n = len(points)
    cnt = {k: (sum(all(p[k]) for p in points), sum(p[k][0] for p in points), sum(p[k][1] for p in points))
           for k in ("ok_mgt", "ok_win")}
    tf = [p["mgt"]["t"] for p in points]
    tp = [p["pk"]["t"] for p in points]
    ratio = [b / a for a, b in zip(tf, tp)]
    return (f"`{cmd}`: {n} points.  The fluid model holds (both classes' throughputs and the mean queue within "
            f"10% of the packet run's) at {cnt['ok_mgt'][0]} with MGT's decrease (throughputs alone at "
            f"{cnt['ok_mgt'][1]}, mean queue alone at {cnt['ok_mgt'][2]}) and at {cnt['ok_win'][0]} with the "
            f"per-window decrease ({cnt['ok_win'][1]}, {cnt['ok_win'][2]}).  Wall time: fluid {min(tf):.3f}.."
            f"{max(tf):.3f} s (median {np.median(tf):.3f}), packet {min(tp):.2f}..{max(tp):.2f} s (median "
            f"{np.median(tp):.2f}); the packet run costs {min(ratio):.0f}x..{max(ratio):.0f}x the fluid run "
            f"(median {np.median(ratio):.0f}x).\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=float, default=30.0, help="seconds simulated per point")
    ap.add_argument("--quick", action="store_true", help="a 2x2x2x2 corner of the grid")
    ap.add_argument("--big", action="store_true", help="add the 10,000-flow points")
    ap.add_argument("--big-only", action="store_true", help="only the 10,000-flow points")
    ap.add_argument("--write", action="store_true", help="write the table into docs/fluid.md")
    a = ap.parse_args()
    if a.quick:
        grid = itertools.product(("RED", "PI"), (10, 100), (10, 100), (0.01, 0.2))
    else:
        grid = itertools.product(("RED", "PI"), (10, 100, 1000), (10, 100, 1000), (0.01, 0.05, 0.2))
    big = [("RED", 10000, 1000, 0.1), ("PI", 10000, 1000, 0.1)]
    grid = big if a.big_only else list(grid) + (big if a.big else [])
    points = []
    for queue, n, bw, r in grid:
        p = point(queue, n, bw, r, a.T)
        points.append(p)
        print(table([p]).splitlines()[-1], flush=True)
    cmd = "examples/fluid_validity.py" + (f" --T {a.T:g}" if a.T != 30 else "") + (" --quick" if a.quick else "") + \
        (" --big" if a.big else "") + (" --big-only" if a.big_only else "")
    text = summary(points, cmd) + "\n" + table(points)
    if a.write:
        md = ROOT / "docs" / "fluid.md"
        s = md.read_text()
        new = f"<!-- validity:start -->\n{text}<!-- validity:end -->"
        s2, k = re.subn(r"<!-- validity:start -->.*?<!-- validity:end -->", lambda _: new, s, flags=re.S)
        if k != 1:
            raise SystemExit("docs/fluid.md has no validity markers")
        md.write_text(s2)
    else:
        print(text)


if __name__ == "__main__":
    main()
