#!/usr/bin/env python3
"""Every congestion control both simulators have, on the full TCP and on
ns-3.37, side by side: seed 004's section-4.5 path (one flow, 10 Mb/s
access links of 0 ms, a 6 Mb/s bottleneck of 50, 100 or 200 ms with a
drop-tail queue of the BDP, initial cwnd and ssthresh 15 segments, 16 MiB
buffers, no SACK, classic recovery), 400 s.

    python benches/full_tcp_cc_vs_ns3.py [--ns3 BINARY] [--delays 50,100,200] [--ccs cubic,bic]

BINARY is ../shared/oracle/ns3's `tcp-wns3-2016` (build it with that
directory's build.sh against libns3-dev); without it only Dumbbell's side
is printed.  Reported per point: goodput (Mb/s, payload over 400 s), fast
recoveries / timeouts of both, and the goodput difference.  A comparison,
not a test: it asserts nothing.  docs/full-tcp.md explains the differences
(which algorithms run ns-3.37's version and which their Linux module).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

import dumbbell as db  # noqa: E402

#: Dumbbell's name -> ns-3.37's TypeId suffix (ns3::Tcp<X>).
NS3_NAMES = {"newreno": "NewReno", "scalable": "Scalable", "vegas": "Vegas", "veno": "Veno", "yeah": "Yeah",
             "cubic": "Cubic", "bic": "Bic", "highspeed": "HighSpeed", "htcp": "Htcp", "hybla": "Hybla",
             "illinois": "Illinois", "westwood": "Westwood", "lp": "Lp", "ledbat": "Ledbat"}


def dumbbell_point(cc: str, delay_ms: int, until: float = 400.0) -> dict:
    sim = db.Simulation(seed=1)
    r1, r2, s, d = sim.nodes(4)
    rtt = 2.0 * (delay_ms + 0.2) / 1000.0
    q = max(1, round(6e6 * rtt / 8 / 1500)) + 2
    sim.link(r1, r2, "6Mb", f"{delay_ms}ms", queue_limit=q)
    # the ns-3 program's access links: MilliSeconds(0.1) is 0 (docs/full-tcp.md)
    sim.link(s, r1, "10Mb", "0ms", queue_limit=q)
    sim.link(r2, d, "10Mb", "0ms", queue_limit=q)
    sim.tcp(s, d, stack="full", cc=cc, initial_cwnd=15, initial_ssthresh=15 * 1448, snd_buf="16MiB",
            rcv_buf="16MiB", sack=False, recovery="classic")
    row = sim.run(until=until).full_tcp.row(0, named=True)
    return {"goodput": row["goodput_bps"] / 1e6, "fr": row["fast_recoveries"], "rto": row["timeouts"]}


def ns3_point(binary: str, cc: str, delay_ms: int, until: float = 400.0) -> dict | None:
    out = subprocess.run([binary, f"--tcp={NS3_NAMES[cc]}", "--btlBw=6Mbps", f"--btlDelay={delay_ms}",
                          f"--simTime={until}"], capture_output=True, text=True).stdout
    m = re.search(r"goodputMbps=([0-9.]+).*fastRecoveries=(\d+) rtoEvents=(\d+)", out)
    if m is None:
        return None
    return {"goodput": float(m.group(1)), "fr": int(m.group(2)), "rto": int(m.group(3))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ns3", help="ns-3.37 program (../shared/oracle/ns3/tcp-wns3-2016)")
    ap.add_argument("--delays", default="50,100,200")
    ap.add_argument("--ccs", default=",".join(NS3_NAMES))
    args = ap.parse_args()
    ccs = [c.strip() for c in args.ccs.split(",") if c.strip()]
    for c in ccs:
        if c not in NS3_NAMES:
            ap.error(f"--ccs: {c!r} is not in both simulators; choose from {', '.join(NS3_NAMES)}")
    delays = [int(x) for x in args.delays.split(",")]
    print(f"{'cc':10} {'delay':>5}  {'ns-3.37 Mb/s (fr/rto)':>22}  {'Dumbbell Mb/s (fr/rto)':>23}  diff")
    for cc in ccs:
        for d in delays:
            ours = dumbbell_point(cc, d)
            theirs = ns3_point(args.ns3, cc, d) if args.ns3 else None
            t = f"{theirs['goodput']:.3f} ({theirs['fr']}/{theirs['rto']})" if theirs else "-"
            diff = f"{(ours['goodput'] / theirs['goodput'] - 1) * 100:+.1f}%" if theirs else ""
            print(f"{cc:10} {d:>5}  {t:>22}  {ours['goodput']:>10.3f} ({ours['fr']}/{ours['rto']}){'':>5}  {diff}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
