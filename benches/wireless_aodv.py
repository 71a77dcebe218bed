#!/usr/bin/env python3
"""Benchmark: AODV over 802.11 with random-waypoint movement (issue 20).

    python benches/wireless_aodv.py [--nodes 10 25 50 100] [--seconds 100] [--ns /usr/bin/ns]

Runs tests/ns2/scripts/wireless-rwp.tcl (N mobile nodes by random waypoint, 10
CBR/UDP flows, agent and routing traces in use-newtrace's format) under
`dumbbell run` and under the real ns-2, each as a process of its own in a
fresh directory, and reports both wall times, their ratio, the trace's
lines and whether the two traces are identical byte for byte.  A
benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "ns2" / "scripts" / "wireless-rwp.tcl"


def timed(cmd: list[str], cwd: Path) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr.decode()[-2000:]}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, nargs="+", default=[10, 25, 50, 100])
    ap.add_argument("--seconds", type=float, default=100.0)
    ap.add_argument("--ns", default="/usr/bin/ns")
    a = ap.parse_args()
    print(f"{'nodes':>5} {'dumbbell s':>10} {'ns-2 s':>8} {'ratio':>6} {'lines':>8}  same")
    for n in a.nodes:
        with tempfile.TemporaryDirectory() as tmp:
            ours, theirs = Path(tmp, "dumbbell"), Path(tmp, "ns2")
            for d in (ours, theirs):
                d.mkdir()
                shutil.copy(SCRIPT, d / SCRIPT.name)
            args = [SCRIPT.name, str(n), str(a.seconds)]
            t_db = timed([sys.executable, "-m", "dumbbell.cli", "run", *args], ours)
            t_ns = timed([a.ns, *args], theirs)
            tr = ours / "rwp.tr"
            lines = sum(1 for _ in tr.open("rb"))
            same = filecmp.cmp(tr, theirs / "rwp.tr", shallow=False)
            print(f"{n:>5} {t_db:>10.2f} {t_ns:>8.2f} {t_ns / t_db:>5.1f}x {lines:>8}  {'yes' if same else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
