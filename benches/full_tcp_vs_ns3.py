#!/usr/bin/env python3
"""Benchmark: the full TCP against ns-3.37's own TCP on the same workload.

    python benches/full_tcp_vs_ns3.py [--reps 3] [--points "16 10 100" "16 10 100 RED" ...] [--ns3 BINARY]
                                      [--before BINARY]

Each grid point "N C_Mbps T [DropTail|RED]" runs ../shared/bench/dumbbell-ns3.cc's
dumbbell (ns-3.37's NewReno, classic recovery, no SACK, no
timestamps, an ACK per segment; DropTail unless the point says RED: RED
marking, ECN on) and the same workload on Dumbbell's full
TCP (`crates/engine/examples/full_grid.rs`, built here with cargo), `reps`
times each, alternating, as separate processes.  Reported per point: the
RESULT figures of both (bottleneck packets, drops, goodput: two
implementations of the same TCP, close but not equal), the median CPU time
(user + system: the machine is shared, so wall time is noisy) and wall time
of the simulation loop's process, events per CPU second, and the ratio
ns-3 / Dumbbell.  A benchmark, not a test: it asserts nothing.

With --before BINARY (another build of full_grid, e.g. of an earlier
commit), that build runs too, in the same turns, and its CPU time and
ratio are reported beside (its RESULT fields are not shown: a change for
speed keeps them; compare them by hand otherwise).

ns-3's program: --ns3 BINARY, or built into target/bench/ with
../shared/bench/build-ns3.sh (without ../shared: the same g++ command on
benches/dumbbell-ns3.cc) when libns3-dev is installed.  ns-3.37 as
Debian ships it crashes on some points (TcpRateLinux::SkbSent, e.g.
16 flows at 100 Mb/s); such a run is reported as failed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "bench"
DEFAULT_POINTS = ["2 10 100", "16 10 100", "128 10 100", "16 100 10", "16 1000 1"]


def cpu_of(cmd: list[str]) -> tuple[dict | None, float, float]:
    """Run `cmd`: its RESULT fields, CPU seconds (user + system, from
    getrusage: microseconds, where os.times counts 10 ms ticks), wall s."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT")), None)
    if r.returncode != 0 or line is None:
        return None, cpu, wall
    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv), cpu, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--points", nargs="*", default=DEFAULT_POINTS)
    ap.add_argument("--ns3", help="the dumbbell-ns3 program (default: build it)")
    ap.add_argument("--before", help="another full_grid build to time beside (e.g. of an earlier commit)")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "dumbbell-engine", "--example", "full_grid"],
                   cwd=ROOT, check=True)
    ours = ROOT / "target" / "release" / "examples" / "full_grid"
    ns3 = a.ns3
    if ns3 is None:
        out = ROOT / "target" / "bench" / "dumbbell-ns3"
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            if (SHARED / "build-ns3.sh").exists():
                env = dict(os.environ, OUT=str(out))
                subprocess.run(["sh", str(SHARED / "build-ns3.sh")], env=env, check=True)
            else:  # the same command as build-ns3.sh, on this repository's copy
                libs = [f"-lns3-{m}" for m in ("applications", "traffic-control", "point-to-point", "internet",
                                               "bridge", "network", "stats", "core")]
                subprocess.run(["g++", "-O2", "-std=c++17", str(ROOT / "benches" / "dumbbell-ns3.cc"), "-o", str(out),
                                *libs], check=True)
        ns3 = str(out)
    if a.before and not Path(a.before).is_file():
        ap.error(f"--before: {a.before!r}: no such program")
    extra = " before CPU s | ns-3/before (CPU) |" if a.before else ""
    print("| N | C Mb/s | T s | queue | bottleneck pkts ns-3 / ours | drops | goodput pkts | ns-3 CPU s | ours CPU s "
          "| ns-3/ours (CPU) | ns-3 / ours wall s | events/CPU s ns-3 / ours |" + extra)
    print("|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if a.before else ""))
    for pt in a.points:
        n, c, t, *q = pt.split()
        queue = q[0] if q else "DropTail"
        if queue not in ("DropTail", "RED") or len(q) > 1:
            ap.error(f"--points: {pt!r}: expected \"N C_Mbps T [DropTail|RED]\"")
        rows = {"ns3": [], "ours": []}
        if a.before:
            rows["before"] = []
        for _ in range(a.reps):
            rows["ours"].append(cpu_of([str(ours), n, c, t, queue]))
            if a.before:
                rows["before"].append(cpu_of([a.before, n, c, t, queue]))
            rows["ns3"].append(cpu_of([ns3, f"--n={n}", f"--bw={c}", f"--queue={queue}", f"--time={t}"]))
        med = {k: (statistics.median(r[1] for r in v), statistics.median(r[2] for r in v)) for k, v in rows.items()}
        res = {k: next((r[0] for r in v if r[0] is not None), None) for k, v in rows.items()}
        before = ""
        if a.before:
            before = f" {med['before'][0]:.3f} |"
            before += f" {med['ns3'][0] / med['before'][0]:.0f}x |" if res["ns3"] is not None else " |"
        if res["ns3"] is None:
            print(f"| {n} | {c} | {t} | {queue} | ns-3 failed | | | | {med['ours'][0]:.3f} | | | |" + before)
            continue
        f = lambda k: f"{res['ns3'][k]} / {res['ours'][k]}"
        ev = lambda k: float(res[k]["events"]) / med[k][0] if med[k][0] > 0 else float("nan")
        print(f"| {n} | {c} | {t} | {queue} | {f('bneck_pkts')} | {f('drops')} | {f('goodput_pkts')} | {med['ns3'][0]:.2f} "
              f"| {med['ours'][0]:.3f} | {med['ns3'][0] / med['ours'][0]:.0f}x | {med['ns3'][1]:.2f} / {med['ours'][1]:.3f} "
              f"| {ev('ns3') / 1e6:.2f}M / {ev('ours') / 1e6:.2f}M |" + before, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
