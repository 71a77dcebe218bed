#!/usr/bin/env python3
"""The fluid mode against the packet level on a few dumbbells: per-class
throughput and mean bottleneck queue, fluid vs packet, and the wall time of
each (sim.run(T, mode="fluid") vs sim.run(T)).

    .venv/bin/python examples/fluid_vs_packet.py [--T 60] [--quick] [--write]

Scenario: two classes of n Reno flows (RTT 40 and 120 ms plus queueing),
100 Mb/s access links, a bottleneck of `bw` with a 5 ms delay and a
limit of 4x RED's max_th; RED with min_th/max_th 10/30 packets (scaled
with the bandwidth), q_weight 0.002, packet mode; DropTail with the same
limit.  A point is "within 10%" when both classes' throughput and the
mean queue are.  Averages are over [0, T] in both modes.
"""

from __future__ import annotations

import argparse
import time

import polars as pl

import dumbbell as db


def build(queue: str, ecn: bool, n: int, bw_mb: float, rtts=(0.04, 0.12)):
    scale = max(1.0, bw_mb / 10)
    th = (10 * scale, 30 * scale)
    limit = int(4 * th[1])
    sim = db.Simulation()
    L, R = sim.nodes(2)
    qp = {"thresh": th[0], "maxthresh": th[1], "q_weight": 0.002, "bytes": False, "queue_in_bytes": False,
          "setbit": ecn} if queue == "RED" else None
    sim.link(L, R, bandwidth=f"{bw_mb}Mb", delay="5ms", queue=queue, queue_limit=limit, queue_params=qp)
    for rtt in rtts:
        for _ in range(n):
            s, d = sim.nodes(2)
            sim.link(s, L, bandwidth="1000Mb", delay=(rtt - 0.01) / 4)
            sim.link(R, d, bandwidth="1000Mb", delay=(rtt - 0.01) / 4)
            sim.tcp(s, d, variant="reno", window=10000, ecn=ecn)
    return sim


def point(queue, ecn, n, bw, T):
    sim = build(queue, ecn, n, bw)
    t0 = time.perf_counter()
    fr = sim.run(T, mode="fluid")
    tf = time.perf_counter() - t0
    t0 = time.perf_counter()
    pr = sim.run(T)
    tp = time.perf_counter() - t0
    cls = fr.flows["class"]
    pk = pr.flows.with_columns(cls=cls).group_by("cls").agg(pl.col("ack").sum()).sort("cls")["ack"].to_list()
    fl = fr.flows.group_by("class").agg(pl.col("goodput_pkts").sum()).sort("class")["goodput_pkts"].to_list()
    qp = pr.queues.filter((pl.col("src") == 0) & (pl.col("dst") == 1))["mean_queue_pkts"][0]
    qf = fr.time_average_queue()
    err = [f / p - 1 for f, p in zip(fl, pk)] + [qf / qp - 1 if qp > 0 else float("inf")]
    return {"queue": queue + ("/ECN" if ecn else ""), "flows": 2 * n, "bw_Mb": bw,
            "thr0_fluid": fl[0] / T, "thr0_packet": pk[0] / T, "thr1_fluid": fl[1] / T, "thr1_packet": pk[1] / T,
            "q_fluid": qf, "q_packet": qp, "within10": all(abs(e) <= 0.10 for e in err),
            "t_fluid_s": tf, "t_packet_s": tp}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--T", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="fewer points")
    ap.add_argument("--write", action="store_true", help="write the table into docs/fluid.md")
    a = ap.parse_args(argv)
    grid = [("RED", False), ("RED", True), ("DropTail", False)]
    sizes = [(10, 10), (50, 100)] if a.quick else [(5, 10), (10, 10), (50, 10), (50, 100), (250, 100)]
    rows = [point(q, e, n, bw, a.T) for q, e in grid for n, bw in sizes]
    lines = ["| queue | flows | Mb/s | class 0 fl / pk | class 1 fl / pk | mean queue fl / pk | within 10% "
             "| fluid s | packet s |", "|---|---:|---:|---|---|---|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['queue']} | {r['flows']} | {r['bw_Mb']:g} | {r['thr0_fluid']:.0f} / {r['thr0_packet']:.0f} "
                     f"| {r['thr1_fluid']:.0f} / {r['thr1_packet']:.0f} | {r['q_fluid']:.1f} / {r['q_packet']:.1f} "
                     f"| {'yes' if r['within10'] else 'no'} | {r['t_fluid_s']:.3f} | {r['t_packet_s']:.2f} |")
    text = "\n".join(lines) + "\n"
    if a.write:
        import re
        from pathlib import Path

        md = Path(__file__).resolve().parents[1] / "docs" / "fluid.md"
        s = md.read_text()
        s2, k = re.subn(r"<!-- vs:start -->.*?<!-- vs:end -->", lambda _: f"<!-- vs:start -->\n{text}<!-- vs:end -->",
                        s, flags=re.S)
        if k != 1:
            raise SystemExit("docs/fluid.md has no vs markers")
        md.write_text(s2)
    print(f"fluid vs packet, T = {a.T:g} s; throughput in packets/s per class (RTT 40 / 120 ms), queue in packets")
    print(text)


if __name__ == "__main__":
    main()
