"""Functions the sweep tests run as Python plans and as metrics functions
(imported by name in the runs' own processes)."""

from __future__ import annotations

import os
from pathlib import Path

RTTNL = 220


def poly(x, y=0, seed=1):
    """A fast, deterministic function of its parameters and seed."""
    log = os.environ.get("SWEEP_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"poly {x} {y} {seed}\n")
    print(f"poly x={x} y={y}")
    return {"z": x * x + y, "zs": x * x + y + seed / 10, "label": f"p{x}"}


def broken(x):
    if x == 2:
        raise ValueError("x = 2 is not allowed")
    return {"z": x}


def not_a_dict(x):
    return [x]


def basic2(delayB, overhead=0.0, endtime=10.0, seed=None):
    """Dordal's basic2 with the Python API (examples/api_basic2.py), short."""
    import dumbbell as db

    sim = db.Simulation(seed=seed)
    A, B, R, D = sim.nodes(4)
    sim.link(A, R, "8Mb", "10ms")
    sim.link(B, R, "8Mb", f"{10 + delayB}ms")
    sim.link(R, D, "0.8Mb", "100ms", queue_limit=20)
    opts = dict(variant="reno", window=65000, packet_size=960, overhead=overhead)
    sim.tcp(A, D, flow_id=0, **opts)
    sim.tcp(B, D, flow_id=1, **opts)
    res = sim.run(until=endtime, monitor_queues=False)
    recv0, recv1 = res.flows["goodput_pkts"]
    rttratio = (2.0 * delayB + RTTNL) / RTTNL
    return {"recv0": recv0, "recv1": recv1, "ratio1": recv0 / recv1 / rttratio}


def trace_counts(run_dir, params):
    """A metrics function: event counts of the run's ns-2 trace."""
    counts = {"enq": 0, "drops": 0}
    with open(Path(run_dir) / "out.tr") as f:
        for line in f:
            if line.startswith("+ "):
                counts["enq"] += 1
            elif line.startswith("d "):
                counts["drops"] += 1
    counts["delay_seen"] = params["delayB"]
    return counts


def runaway(events):
    """A TCP flow for 10^5 simulated seconds, stopped by its own limit."""
    import dumbbell

    sim = dumbbell.Simulation()
    a, b = sim.node(), sim.node()
    sim.link(a, b, "100Mb", "10ms", queue_limit=100)
    sim.tcp(a, b, variant="newreno", start=0.0)
    sim.run(100000, max_events=events)
    return {"done": 1}
