#!/usr/bin/env python3
"""Benchmark: memory stays flat over a long run (issue 22: 10^9 events).

    python benches/endurance.py [--events 1e7 1e8 1e9] [--trace]

Runs benches/endurance.tcl (8 TCP flows and 2 CBR flows through a RED
bottleneck, without end) under `dumbbell run --max-events N` for each N, as
a process of its own, and reports the wall time, the events per second, the
simulated time reached, the peak resident memory of that process (its
rusage) and its resident memory sampled every second while it ran (the
first and last samples, and the largest).  Flat memory means the peak does
not grow with N.  `--trace` also formats every packet event as ns-2's trace
and writes it to /dev/null.  A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benches" / "endurance.tcl"


def rss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def one(events: int, trace: bool) -> dict:
    cmd = [sys.executable, "-m", "dumbbell.cli", "run", "--max-events", str(events), str(SCRIPT)]
    if trace:
        cmd.append("trace")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    samples = []
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        r = rss_kb(p.pid)
        if r is not None:
            samples.append((time.monotonic() - t0, r))
        time.sleep(1.0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    m = re.search(r"\((\d+) dispatched\) at simulated time ([0-9.e+-]+)", err)
    if os.waitstatus_to_exitcode(status) != 124 or not m:
        raise SystemExit(f"endurance: the run did not stop at its limit as expected:\n{err}")
    return {"events": int(m.group(1)), "sim_time": float(m.group(2)), "wall": wall, "peak_kb": ru.ru_maxrss,
            "samples": samples}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", nargs="+", type=float, default=[1e7, 1e8, 1e9])
    ap.add_argument("--trace", action="store_true", help="write the packet trace to /dev/null too")
    a = ap.parse_args(argv)
    print(f"{'events':>14} {'sim time (s)':>14} {'wall (s)':>9} {'Mev/s':>7} {'peak RSS':>9} "
          f"{'RSS first/last/max sample':>26}")
    for n in a.events:
        r = one(int(n), a.trace)
        s = [kb for _, kb in r["samples"]] or [0]
        print(f"{r['events']:>14,} {r['sim_time']:>14.1f} {r['wall']:>9.1f} {r['events'] / r['wall'] / 1e6:>7.2f} "
              f"{r['peak_kb'] / 1024:>7.1f}MB {s[0] / 1024:>8.1f}/{s[-1] / 1024:.1f}/{max(s) / 1024:.1f} MB",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
