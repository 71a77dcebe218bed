#!/usr/bin/env python3
"""LEDBAT on the full TCP and on ns-3.37 (TcpLedbat) side by side, where its
delay control acts: seed 004's 6 Mb/s dumbbell with a deep drop-tail queue
(the queuing delay can exceed LEDBAT's 100 ms target), slow start up to the
first loss (initial ssthresh 100,000 segments), 400 s; alone, and as flow 0
against a NewReno flow 1 that starts at 10 s.  (Seed 004's own path, where
LEDBAT sits at 16 segments, is in full_tcp_cc_vs_ns3.py.)

    python benches/full_tcp_ledbat_vs_ns3.py [--ns3 BINARY] [--queues 200,100] [--delays 50,100]

BINARY is ../shared/oracle/ns3's `tcp-wns3-2016` (its build.sh).  Per flow:
goodput (Mb/s, over the whole run), fast recoveries / timeouts.  A comparison, not a test: it asserts nothing.
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

SSTHRESH_SEG = 100_000


def dumbbell_point(ccs: list[str], delay_ms: int, queue: int, until: float = 400.0) -> list[dict]:
    sim = db.Simulation(seed=1)
    r1, r2 = sim.nodes(2)
    q = queue + 2  # ns-3 holds `queue` in its disc, one in the device, one on the wire
    sim.link(r1, r2, "6Mb", f"{delay_ms}ms", queue_limit=q)
    for i, cc in enumerate(ccs):
        s, d = sim.nodes(2)
        sim.link(s, r1, "10Mb", "0ms", queue_limit=q)
        sim.link(r2, d, "10Mb", "0ms", queue_limit=q)
        sim.tcp(s, d, stack="full", cc=cc, initial_cwnd=15, initial_ssthresh=SSTHRESH_SEG * 1448,
                snd_buf="16MiB", rcv_buf="16MiB", sack=False, recovery="classic", start=0.0 if i == 0 else 10.0)
    res = sim.run(until=until).full_tcp
    out = []
    for i in range(len(ccs)):
        row = res.row(i, named=True)
        out.append({"goodput": row["goodput_bps"] / 1e6, "fr": row["fast_recoveries"], "rto": row["timeouts"]})
    return out


def ns3_point(binary: str, ccs: list[str], delay_ms: int, queue: int, until: float = 400.0) -> list[dict]:
    names = {"ledbat": "Ledbat", "newreno": "NewReno"}
    args = [binary, f"--tcp={names[ccs[0]]}", "--btlBw=6Mbps", f"--btlDelay={delay_ms}", f"--simTime={until}",
            f"--queuePkts={queue}", f"--initSsthresh={SSTHRESH_SEG}"]
    if len(ccs) > 1:
        args += [f"--tcp2={names[ccs[1]]}", "--nFlows=2"]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        if not line.startswith("RESULT"):
            continue
        f = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
        rows.append({"goodput": float(f["goodputMbps"]), "fr": int(f["fastRecoveries"]), "rto": int(f["rtoEvents"])})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ns3", help="ns-3.37 program (../shared/oracle/ns3/tcp-wns3-2016)")
    ap.add_argument("--delays", default="50,100")
    ap.add_argument("--queues", default="200,100")
    args = ap.parse_args()
    print(f"{'flows':16} {'delay':>5} {'queue':>5} {'flow':>4}  {'ns-3.37 Mb/s (fr/rto)':>22}  "
          f"{'Dumbbell Mb/s (fr/rto)':>23}  diff")
    for ccs in (["ledbat"], ["ledbat", "newreno"]):
        for d in (int(x) for x in args.delays.split(",")):
            for q in (int(x) for x in args.queues.split(",")):
                ours = dumbbell_point(ccs, d, q)
                theirs = ns3_point(args.ns3, ccs, d, q) if args.ns3 else []
                for i, o in enumerate(ours):
                    t = theirs[i] if i < len(theirs) else None
                    ts = f"{t['goodput']:.3f} ({t['fr']}/{t['rto']})" if t else "-"
                    diff = f"{(o['goodput'] / t['goodput'] - 1) * 100:+.1f}%" if t and t["goodput"] > 0 else ""
                    print(f"{'+'.join(ccs):16} {d:>5} {q:>5} {i:>4}  {ts:>22}  "
                          f"{o['goodput']:>10.3f} ({o['fr']}/{o['rto']}){'':>5}  {diff}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
