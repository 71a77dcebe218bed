#!/usr/bin/env python3
"""The full TCP against ns-3.37 on a grid of dumbbells, every congestion
control both simulators have (issue 17, item 6).

    python benches/full_tcp_grid_vs_ns3.py [--ccs newreno,cubic] [--points "4 100 50 DropTail" ...]
        [--grid SUBSET] [--time 10] [--ns3 BINARY] [--json FILE]

A point is "N C_Mbps RTT_ms DropTail|RED": N bulk flows (flow i from
0.05 i s) from their own senders through one bottleneck of C Mb/s to one
receiver, every flow with the base RTT given; benches/ns3/tcp-grid.cc has
the topology, the queue (a BDP of packets, at least 10; RED 0.2-0.6 of it,
drops; for DCTCP a step marker at K = BDP / 6) and the TCP settings
(ns-3.37's defaults: SACK, PRR, timestamps, delayed ACKs of 2; MSS 1448),
which Dumbbell's side builds the same way from `dumbbell.Simulation`.
BINARY is that program (default: built into target/bench/ by
benches/ns3/build.sh).  Without --points the grid is --grid's (see GRIDS).

Printed: a Markdown table, one row per point and congestion control:
aggregate goodput (payload Mb/s over each flow's lifetime), Jain's
fairness index over the flows, the mean over flows of the time-weighted
mean cwnd (segments; without the time it holds an underflowed value,
whose occurrences are counted: "wraps"), fast recoveries / timeouts (sums over the flows) of
both, the differences of goodput and mean cwnd (`*`: above 5%), and the
wall time of each run (ns-3's process; Dumbbell's `Simulation.run`, which
runs in a forked child, so its CPU time is not the caller's).  A comparison, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

import dumbbell as db  # noqa: E402

#: Dumbbell's name -> ns-3.37's TypeId suffix (ns3::Tcp<X>).
NS3_NAMES = {"newreno": "NewReno", "scalable": "Scalable", "vegas": "Vegas", "veno": "Veno", "yeah": "Yeah",
             "cubic": "Cubic", "bic": "Bic", "highspeed": "HighSpeed", "htcp": "Htcp", "hybla": "Hybla",
             "illinois": "Illinois", "westwood": "Westwood", "lp": "Lp", "dctcp": "Dctcp", "bbr": "Bbr"}

MSS = 1448
#: A window of 2^31 bytes or more is an unsigned underflow (ns-3.37's TcpYeah and TcpBbr, kept
#: here): left out of the cwnd statistics on both sides and counted.
WRAP = 2**31
INITIAL_CWND = 10
TRACE = ("cwnd", "cong_state")

#: Named subsets of the grid (N C RTT queue).  "small": every algorithm at a
#: few cheap points; "wide": more flows, rates and delays.
GRIDS = {
    "small": ["1 10 50 DropTail", "4 10 10 DropTail", "2 100 200 DropTail", "4 10 10 RED", "16 10 50 RED",
              "16 10 200 DropTail", "4 100 10 DropTail"],
    "wide": ["1 10 10 DropTail", "1 10 200 RED", "2 10 50 RED", "4 100 10 DropTail", "4 100 200 RED",
             "16 10 50 DropTail", "16 100 50 DropTail", "2 1000 10 DropTail"],
}


def shape(n: int, bw_mbps: float, rtt_ms: float) -> dict:
    """The derived sizes, as tcp-grid.cc computes them."""
    bdp = bw_mbps * 1e6 * rtt_ms / 1000.0 / (8.0 * 1502)
    limit = max(math.ceil(bdp), 10)
    k = max(math.ceil(bdp / 6.0), 4)
    buf = max(math.ceil(4 * bdp + 2 * limit) * MSS, 1 << 20)
    return {"limit": limit, "k": k, "buf": buf, "btl_delay_s": (rtt_ms / 2.0 - 2.0) / 1000.0}


def dumbbell_point(cc: str, n: int, bw_mbps: float, rtt_ms: float, queue: str, until: float, seed: int = 1,
                   vars_out: list | None = None) -> dict:
    """Dumbbell's run of a point; `vars_out`, if given, receives the run's traced variables."""
    s = shape(n, bw_mbps, rtt_ms)
    sim = db.Simulation(seed=seed)
    r1, r2, d = sim.nodes(3)
    senders = sim.nodes(n) if n > 1 else [sim.node()]
    c = bw_mbps * 1e6
    # ns-3's one-packet device queue under a queue disc of L is a queue of L + 2 here
    # (docs/full-tcp.md, "On the wire")
    if queue == "DropTail":
        q = {"queue": "DropTail"}
    elif cc == "dctcp":
        q = {"queue": "StepMark", "queue_params": {"thresh": s["k"]}}
    else:
        q = {"queue": "RED", "queue_params": {"thresh": 0.2 * s["limit"], "maxthresh": 0.6 * s["limit"],
                                              "q_weight": 0.002, "linterm": 10, "gentle": True, "wait": True,
                                              "mean_pktsize": 1502, "setbit": False,
                                              # ns-3's RED here counts packets (ns-2's default: bytes)
                                              "bytes": False, "queue_in_bytes": False, "use_mark_p": False}}
    sim.link(r1, r2, c, s["btl_delay_s"], queue_limit=s["limit"] + 2, **q)
    sim.link(r2, d, 10 * c, 0.001, queue_limit=10000)
    for i, snd in enumerate(senders):
        sim.link(snd, r1, 10 * c, 0.001, queue_limit=10000)
    for i, snd in enumerate(senders):
        sim.tcp(snd, d, stack="full", cc=cc, start=0.05 * i, snd_buf=s["buf"], rcv_buf=s["buf"],
                trace_vars=TRACE)
    t0 = time.perf_counter()
    res = sim.run(until=until)
    wall = time.perf_counter() - t0
    ft = res.full_tcp
    v = res.vars
    if vars_out is not None:
        vars_out.append(v)
    flows = []
    for i in range(n):
        start = 0.05 * i
        rows = v.filter((v["flow"] == i) & (v["var"] == "cwnd_"))
        last_t, last_c, area, span, top, wraps = start, float(INITIAL_CWND), 0.0, 0.0, float(INITIAL_CWND), 0
        for t, x in zip(rows["time"].to_list() + [until], rows["value"].to_list() + [None]):
            if x == 0 and t <= start + 1e-9:  # the window before the connection: ns-3's side starts at 10
                continue
            if last_c * MSS < WRAP:
                area += (t - last_t) * last_c
                span += t - last_t
            if x is None:
                break
            last_t, last_c = t, x
            if x * MSS >= WRAP:
                wraps += 1
            else:
                top = max(top, x)
        # entries into recovery (3) and loss (4), as tcp-grid.cc counts them from ns-3's CongState
        # (the socket's own `timeouts` counts every expiry, backed-off ones in loss too)
        states = v.filter((v["flow"] == i) & (v["var"] == "cong_state_"))["value"].to_list()
        entries = {3: 0, 4: 0}
        for prev, cur in zip([0.0] + states, states):
            if cur != prev and cur in entries:
                entries[int(cur)] += 1
        r = ft.row(i, named=True)
        flows.append({"goodput_mbps": r["bytes_received"] * 8.0 / (until - start) / 1e6,
                      "cwnd_mean": area / span if span > 0 else 0.0, "cwnd_max": top, "cwnd_wraps": wraps,
                      "fast_recoveries": entries[3], "timeouts": entries[4]})
    return {"sim": "dumbbell", "wall_s": wall, "flows": flows}


def ns3_point(binary: str, cc: str, n: int, bw_mbps: float, rtt_ms: float, queue: str, until: float,
              seed: int = 1) -> dict:
    cmd = [binary, f"--cc={NS3_NAMES[cc]}", f"--n={n}", f"--bw={bw_mbps:g}", f"--rtt={rtt_ms:g}",
           f"--queue={queue}", f"--time={until:g}", f"--seed={seed}"]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        return {"error": f"exit {r.returncode}: {r.stderr.strip()[-200:]}"}
    return {**json.loads(r.stdout), "wall_s": wall}


def summary_of(p: dict) -> dict:
    g = [f["goodput_mbps"] for f in p["flows"]]
    return {"goodput": sum(g), "jain": sum(g) ** 2 / (len(g) * sum(x * x for x in g)) if any(g) else 0.0,
            "cwnd": sum(f["cwnd_mean"] for f in p["flows"]) / len(g),
            "wraps": sum(f["cwnd_wraps"] for f in p["flows"]),
            "fr": sum(f["fast_recoveries"] for f in p["flows"]), "rto": sum(f["timeouts"] for f in p["flows"]),
            "wall": p["wall_s"]}


def summary(runs: list[dict]) -> dict:
    """The mean over runs (seeds) of each run's summary."""
    each = [summary_of(p) for p in runs]
    return {k: sum(e[k] for e in each) / len(each) for k in each[0]}


def num(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.1f}"


def pct(a: float, b: float) -> str:
    if b == 0:
        return "n/a"
    d = (a / b - 1) * 100
    return f"{d:+.1f}%{'*' if abs(d) > 5 else ''}"


def parse_point(text: str) -> tuple[int, float, float, str]:
    parts = text.split()
    if len(parts) != 4 or parts[3] not in ("DropTail", "RED"):
        raise ValueError(f"--points: {text!r}: expected \"N C_Mbps RTT_ms DropTail|RED\"")
    n, c, rtt = int(parts[0]), float(parts[1]), float(parts[2])
    if not (1 <= n <= 64 and c > 0 and rtt >= 5):
        raise ValueError(f"--points: {text!r}: expected 1 <= N <= 64, C > 0, RTT >= 5 ms")
    return n, c, rtt, parts[3]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ns3", help="benches/ns3/tcp-grid (default: build it into target/bench/)")
    ap.add_argument("--ccs", default=",".join(NS3_NAMES))
    ap.add_argument("--grid", default="small", choices=sorted(GRIDS))
    ap.add_argument("--points", nargs="*")
    ap.add_argument("--time", type=float, default=10.0, help="simulated seconds (default 10)")
    ap.add_argument("--seeds", type=int, default=1,
                    help="RED points: the mean over seeds (ns-3's run number, Dumbbell's seed) 1..SEEDS; "
                         "drop-tail points are deterministic and run seed 1 only")
    ap.add_argument("--json", help="also write every run's figures here, one JSON object a line")
    args = ap.parse_args()
    ccs = [c.strip() for c in args.ccs.split(",") if c.strip()]
    for c in ccs:
        if c not in NS3_NAMES:
            ap.error(f"--ccs: {c!r} is not in both simulators; choose from {', '.join(NS3_NAMES)}")
    try:
        points = [parse_point(p) for p in (args.points or GRIDS[args.grid])]
    except ValueError as e:
        ap.error(str(e))
    if args.seeds < 1:
        ap.error(f"--seeds: {args.seeds}: expected at least 1")
    if args.time <= 1:
        ap.error(f"--time: {args.time}: expected more than 1 s")
    ns3 = args.ns3
    if ns3 is None:
        ns3 = str(ROOT / "target" / "bench" / "tcp-grid")
        if not Path(ns3).exists():
            subprocess.run(["sh", str(ROOT / "benches" / "ns3" / "build.sh")], check=True)
    out = open(args.json, "w") if args.json else None
    print("| point | cc | goodput ns-3 / ours Mb/s | diff | Jain ns-3 / ours | mean cwnd ns-3 / ours | diff | cwnd wraps ns-3 / ours "
          "| FR ns-3 / ours | RTO ns-3 / ours | wall s ns-3 / ours |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, c, rtt, queue in points:
        for cc in ccs:
            seeds = range(1, (args.seeds if queue == "RED" else 1) + 1)
            label = f"{n} x {c:g} Mb/s {rtt:g} ms {'RED' if queue == 'RED' else 'DT'}"
            if len(seeds) > 1:
                label += f" ({len(seeds)} seeds)"
            theirs, ours = [], []
            for seed in seeds:
                theirs.append(ns3_point(ns3, cc, n, c, rtt, queue, args.time, seed))
                ours.append(dumbbell_point(cc, n, c, rtt, queue, args.time, seed))
                if out:
                    for p in (theirs[-1], ours[-1]):
                        out.write(json.dumps({"point": label, "cc": cc, "seed": seed, **p}) + "\n")
                    out.flush()
            failed = [p["error"] for p in theirs if "error" in p]
            if failed:
                print(f"| {label} | {cc} | ns-3 failed ({failed[0]}) | | | | | | | | |", flush=True)
                continue
            a, b = summary(theirs), summary(ours)
            print(f"| {label} | {cc} | {a['goodput']:.2f} / {b['goodput']:.2f} | {pct(b['goodput'], a['goodput'])} "
                  f"| {a['jain']:.2f} / {b['jain']:.2f} | {a['cwnd']:.1f} / {b['cwnd']:.1f} | {pct(b['cwnd'], a['cwnd'])} "
                  f"| {num(a['wraps'])} / {num(b['wraps'])} | {num(a['fr'])} / {num(b['fr'])} | {num(a['rto'])} / {num(b['rto'])} "
                  f"| {a['wall']:.2f} / {b['wall']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
