"""`dumbbell demo`: run the bundled basic1 example (Dordal, "An Introduction
to Computer Networks", 31.2) unchanged through the ns-2 compatibility layer,
then summarise its trace and plot cwnd."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def main(outdir: str = "demo-output") -> int:
    out = Path(outdir)
    out.mkdir(exist_ok=True)
    shutil.copy(DATA / "basic1.tcl", out / "basic1.tcl")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "basic1.tcl"], cwd=out)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        print(f"basic1.tcl failed with exit code {r.returncode}", file=sys.stderr)
        return r.returncode

    from .analysis.plot import plot_cwnd
    from .analysis.trace import read_trace_all

    tr = out / "basic1.tr"
    ev, vt = read_trace_all(tr)
    import polars as pl

    acks = vt.filter(pl.col("var") == "ack_")
    cwnd = vt.filter(pl.col("var") == "cwnd_")
    drops = ev.filter(pl.col("event") == "d")
    last_ack = int(acks["value"][-1]) if acks.height else -1
    print(f"ran basic1.tcl (examples/basic1.tcl) unchanged in {wall:.2f} s (wall, whole process)")
    print(f"trace: {tr} ({ev.height} packet events, {vt.height} variable records)")
    print(f"packets acknowledged: {last_ack + 1} (book: 809)")
    print(f"drops at the bottleneck: {drops.height}; first at t={drops['time'][0] if drops.height else 'n/a'} (book: 0.58616)")
    steady = cwnd.filter(pl.col("time") > 2.0)["value"]
    print(f"cwnd peak after slow start: {steady.max():.3f} (book: first teeth 20.931, 20.934, 20.934; 20.935 in the long run)")
    png = out / "basic1-cwnd.png"
    plot_cwnd(vt, png, title="basic1: TCP Reno cwnd (Dordal 31.2)")
    print(f"cwnd plot: {png}")
    return 0
