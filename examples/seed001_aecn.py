#!/usr/bin/env python3
"""Seed 001 (ECN with many heterogeneous flows; ECNM; AECN): RED, ECN, ECNM
and AECN on the thesis' scenarios, run with Dumbbell.

    .venv/bin/python examples/seed001_aecn.py [--T 100] [--quick]

The thesis reports its chapter 4 and 5 results as plots only (and its text
ends before AECN's results), so this prints Dumbbell's figures beside the
thesis' qualitative findings:

Metrics: aggregate goodput, Jain's index, goodput per RTT group, drops,
marks, mean queueing delay at the bottleneck (one-way delay = access delay
+ 5 ms + this + transmission), and lockout as flow-seconds without ACK
progress after 5 s.

* chapter 4 (section 4.3: fragile/average/robust flows with 145/45/5 ms
  access links, 300 Mb/s offered, 10 Mb/s bottleneck, 120 packets):
  RED vs ECN for 15..120 flows -- the thesis finds ECN's goodput above RED's
  in the "unlockout range" and both degrading as flows grow;
* section 4.2.2 / 4.4.5: ECNM vs ECN -- ECNM drops less;
* section 5.4 (95/45/20 ms, 90 Mb/s offered, half of each group starting at
  2 s): ECN vs AECN for 60 flows, max_p 0.5 -- AECN should be fairer across
  the RTT groups with fewer drops.  AECN's divisor a and multiplier b are
  not given in the thesis; they are swept here.

Script: examples/seed001/hetero.tcl (prints per-flow ACKed packets).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from dumbbell import metrics

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "seed001" / "hetero.tcl"


def run(scenario: str, n: int, variant: str, maxp: float, T: float) -> dict:
    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", str(SCRIPT), scenario, str(n), variant, str(maxp), str(T)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    flows, groups, q, locked = [], {}, {}, 0
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == "FLOW":
            flows.append(int(f[3]))
            groups.setdefault(f[2], []).append(int(f[3]))
            locked += int(f[5])
        elif f[0] == "QUEUE":
            q = {f[i]: float(f[i + 1]) for i in range(1, len(f), 2)}
            q = {k: (v if k == "delay_ms" else int(v)) for k, v in q.items()}
    jain = metrics.jain(flows) if any(flows) else 0.0
    return {
        "goodput": sum(flows) * 1000 * 8 / T / 1e6,
        "jain": jain,
        "groups": {g: sum(v) * 8000 / T / 1e6 for g, v in groups.items()},
        "zero": sum(1 for x in flows if x == 0),
        "locked_s": locked,
        **q,
    }


def row(label: str, r: dict) -> str:
    g = r["groups"]
    return (f"  {label:<14} goodput {r['goodput']:5.2f} Mb/s  Jain {r['jain']:.3f}  "
            f"fragile/average/robust {g.get('fragile', 0):4.2f}/{g.get('average', 0):4.2f}/{g.get('robust', 0):4.2f}  "
            f"drops {r['drops']:6d}  marks {r['marks']:6d}  queueing delay {r['delay_ms']:5.1f} ms  "
            f"lockout {r['locked_s']} flow-seconds")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--T", type=float, default=100.0, help="simulated seconds (thesis: 100)")
    ap.add_argument("--quick", action="store_true", help="fewer points")
    a = ap.parse_args()
    T = a.T
    ns = [15, 60] if a.quick else [15, 30, 60, 120, 240, 480, 600]

    print(f"Chapter 4: RED vs ECN, {T:g} s (thesis: ECN's goodput above RED's while flows are few enough;"
          " lockout grows with the number of flows)")
    for maxp in ((0.1,) if a.quick else (0.1, 0.5)):
        for n in ns:
            red, ecn = run("ch4", n, "red", maxp, T), run("ch4", n, "ecn", maxp, T)
            print(f" {n} flows, max_p {maxp}")
            print(row("RED", red))
            print(row("ECN", ecn))
    n = 60
    print(f"\nSection 4.4.5: ECN vs ECNM, {n} flows, max_p 0.1 (thesis: ECNM marks above max_th, drops only on overflow)")
    print(row("ECN", run("ch4", n, "ecn", 0.1, T)))
    print(row("ECNM", run("ch4", n, "ecnm", 0.1, T)))
    print(f"\nSection 5.4: ECN vs AECN, {n} flows, max_p 0.5 (thesis: AECN fairer across RTT groups, fewer drops)")
    print(row("RED", run("ch5", n, "red", 0.5, T)))
    print(row("ECN", run("ch5", n, "ecn", 0.5, T)))
    for ab in ("1", "1.25", "1.5", "2"):
        print(row(f"AECN a=b={ab}", run("ch5", n, f"aecn:{ab}:{ab}", 0.5, T)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
