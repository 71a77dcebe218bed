#!/usr/bin/env python3
"""Seed 002's wireless section (Dordal, "An Introduction to Computer
Networks", 31.6) from Python: five fixed nodes in a row 200 m apart at
height 50 m, a mover crossing above them at 200 m, CBR (512-byte packets
at 200 kb/s) from the first fixed node to the mover for 100 s, routed by
AODV (or DSDV).  As the mover leaves a fixed node's radio range the route
grows by a hop.

    .venv/bin/python examples/seed002_wireless.py [--routing AODV|DSDV|DSR] [--out DIR]

The trace is the one ns-2 2.35 writes for the book's script
(../shared/oracle/scripts/wireless.tcl; tests/api/test_wireless_api.py
checks it byte for byte against ns-2's).  Prints the flow's delivery and
delay, the routing overhead per node and the route every 10 s; saves the
trace and a plot of positions and routes to DIR (demo-output/seed002).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import dumbbell as db

ROW, SPACING, MOVER_Y, ROW_Y, FINISH = 5, 200, 150, 50, 100


def scenario(routing: str = "AODV") -> db.WirelessSimulation:
    """The book's scenario: the script's `opt` values."""
    width = (ROW - 1) * SPACING + 1
    w = db.WirelessSimulation(width, 300, routing=routing)
    row = [w.node(i * SPACING, ROW_Y) for i in range(ROW)]
    mover = w.node(0, MOVER_Y + ROW_Y, name="mover")
    mover.move(at=0, x=width - 1, y=MOVER_Y + ROW_Y, speed=1.0 * width / FINISH)
    w.cbr(row[0], mover, rate="200kb", packet_size=512, start=0, stop=FINISH)
    return w


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--routing", default="AODV", choices=["AODV", "DSDV", "DSR"])
    ap.add_argument("--out", default="demo-output/seed002")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    w = scenario(a.routing)
    res = w.run(until=FINISH, trace_file=out / f"wireless-{a.routing.lower()}.tr")
    f = res.flows.row(0, named=True)
    print(f"{a.routing}: {f['sent']} packets sent, {f['received']} delivered "
          f"({100 * f['delivery_ratio']:.1f}%), goodput {f['goodput_bps'] / 1e3:.1f} kb/s, "
          f"mean delay {1e3 * f['delay_mean']:.1f} ms")
    print(f"routing packets sent: {int(res.routing['routing_packets'].sum())} "
          f"({res.routing_load:.3f} per delivered packet)")
    print(res.routing)
    for t in range(10, FINISH + 1, 10):
        r = res.route(0, t)
        print(f"t = {t:3d} s: route {' -> '.join(map(str, r)) if r else '(none yet)'}")
    png = out / f"wireless-{a.routing.lower()}.png"
    db.plot.plot_wireless(res, png, at=[10, 35, 60, 85], title=f"Dordal 31.6 over {a.routing}")
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
