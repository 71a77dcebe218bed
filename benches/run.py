#!/usr/bin/env python3
"""Benchmark: the dumbbell grid of ../shared/bench run by Dumbbell and, when
installed, by ns-2 (and ns-3), side by side on this machine.

    python benches/run.py [--reps 3] [--points "128 10 DropTail 100" ...]

For every grid point each simulator runs `reps` times, alternating, as a
separate process.  Reported: median whole-process wall time, peak RSS, the
simulators' RESULT figures (which must agree between Dumbbell and ns-2:
bottleneck packets, drops, goodput), and the ns-2/Dumbbell ratio.
This is a benchmark, not a test: it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benches" / "dumbbell-ns2.tcl"
DEFAULT_POINTS = [
    "2 10 DropTail 100",
    "16 10 DropTail 100",
    "128 10 DropTail 100",
    "16 100 DropTail 100",
    "1024 10 DropTail 100",
]


def run_once(cmd: list[str], cwd: str) -> tuple[float, float, str]:
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    out = p.stdout.read().decode()
    err = p.stderr.read().decode()
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {rc}:\n{err[-2000:]}")
    return wall, ru.ru_maxrss / 1024.0, out


def result_fields(out: str) -> dict[str, str]:
    m = re.search(r"^RESULT (.*)$", out, re.M)
    if not m:
        return {}
    return dict(kv.split("=", 1) for kv in m.group(1).split())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--points", nargs="*", default=DEFAULT_POINTS)
    ap.add_argument("--ns", default=shutil.which("ns") or "", help="ns-2 binary (default: ns on PATH)")
    args = ap.parse_args()

    # Time the `dumbbell` command users run (installed beside this Python by
    # `make build`); `python -m dumbbell.cli` also pays for runpy and for
    # compiling the __main__ module from source on every run (~4.5 ms).
    exe = Path(sys.executable).with_name("dumbbell")
    if exe.exists():
        sims = {"dumbbell": [str(exe), "run", str(SCRIPT)]}
    else:
        sims = {"dumbbell": [sys.executable, "-m", "dumbbell.cli", "run", str(SCRIPT)]}
        print(f"{exe} not found (make build installs it): timing python -m dumbbell.cli", file=sys.stderr)
    if args.ns:
        sims["ns-2"] = [args.ns, str(SCRIPT)]
    else:
        print("ns-2 not found (apt-get install ns2): timing Dumbbell alone", file=sys.stderr)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for point in args.points:
            params = point.split()
            times: dict[str, list[float]] = {s: [] for s in sims}
            rss: dict[str, list[float]] = {s: [] for s in sims}
            results: dict[str, dict[str, str]] = {}
            for rep in range(args.reps):
                # Alternate which simulator goes first, so that neither always
                # runs right after the other.
                order = list(sims.items())
                for name, cmd in order if rep % 2 == 0 else order[::-1]:
                    w, m, out = run_once(cmd + params, tmp)
                    times[name].append(w)
                    rss[name].append(m)
                    results[name] = result_fields(out)
            row = {"point": point}
            for name in sims:
                row[f"{name} s"] = statistics.median(times[name])
                row[f"{name} MB"] = max(rss[name])
                row[f"{name} pkts"] = results[name].get("bneck_pkts", "?")
            if "ns-2" in sims:
                row["ratio"] = row["ns-2 s"] / row["dumbbell s"]
                keys = ("bneck_pkts", "drops", "goodput_pkts")
                same = all(results["ns-2"].get(k) == results["dumbbell"].get(k) for k in keys)
                row["same results"] = "yes" if same else "NO: " + " ".join(
                    f"{k} {results['ns-2'].get(k)}/{results['dumbbell'].get(k)}" for k in keys
                )
            rows.append(row)
            print(" | ".join(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}" for k, v in row.items()), flush=True)

    print()
    cols = list(rows[0].keys())
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.2f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
