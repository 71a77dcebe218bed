"""The figures of docs/gallery.md, one command each:

    .venv/bin/python examples/gallery.py [FIGURE ...] [--out docs/gallery]

FIGURE: seed000-ack, seed000-cwnd, seed001-goodput, seed002-cwnd,
seed002-queue, seed002-wireless, seed003-marks, red-queue (default: all).  Each runs its scenario (the
seeds' scripts unchanged, or the Python API) in a scratch directory and
draws with the one-call plots of dumbbell.plot / Result; nothing is cached.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dumbbell as db
from dumbbell import plot as dp

ROOT = Path(__file__).resolve().parents[1]


def dumbbell_run(script: Path, args: list[str], cwd: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", str(script), *args], cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{script.name} {' '.join(args)}: exit {r.returncode}\n{r.stderr}")


def seed000(tmp: Path, out: Path, what: str) -> Path:
    """Seed 000 (New-ECN), section 4.2.1: four New-ECN flows with access
    delays 1, 14, 34 and 94 ms through one RED gateway that marks; Fig 4.2's
    ACK sequence numbers (equal slopes: equal rates) or their windows."""
    dumbbell_run(ROOT / "examples" / "seed000" / "newecn_4flows.tcl", ["option=8", "T=60"], tmp)
    # the four flows' variable traces, read as one
    (tmp / "all.tr").write_bytes(b"".join((tmp / f"tcp{i}.tr").read_bytes() for i in range(1, 5)))
    vars_ = db.read_vartrace(tmp / "all.tr")
    labels = [f"S{i} (access {d} ms), New-ECN" for i, d in zip(range(1, 5), (1, 14, 34, 94))]
    if what == "ack":
        path = out / "seed000-ack.png"
        dp.plot_ack_seqno(vars_, path, "Seed 000, Fig 4.2: four New-ECN flows, RED marking at 10 Mb/s",
                          labels=labels)
    else:
        path = out / "seed000-cwnd.png"
        dp.plot_cwnd(vars_, path, "Seed 000: New-ECN windows (4 flows, RED marking at 10 Mb/s)", labels=labels)
    return path


def seed001(tmp: Path, out: Path) -> Path:
    """Seed 001 (ECN with heterogeneous flows), Fig 4.16's kind: goodput per
    flow of the fragile (long RTT), average and robust groups through one
    RED/ECN gateway, in 1 s bins."""
    sim = db.Simulation()
    d = sim.node()
    r = sim.node()
    bott = sim.link(r, d, "10Mb", "5ms", queue="RED", queue_limit=120,
                    queue_params={"setbit_": True, "thresh_": 10, "maxthresh_": 30, "linterm_": 10})
    groups = {}
    for name, delay in (("fragile", "145ms"), ("average", "45ms"), ("robust", "5ms")):
        flows = []
        for _ in range(5):
            s = sim.node()
            sim.link(s, r, "100Mb", delay)
            flows.append(sim.tcp(s, d, window=64, packet_size=1000, ecn_=1))
        groups[name] = flows
    res = sim.run(until=60, trace_packets=[bott])
    path = out / "seed001-goodput.png"
    res.plot_goodput_groups(groups, path, "Seed 001: goodput per flow of three RTT groups (15 ECN flows, RED, 10 Mb/s)",
                            bin=2.0)
    return path


def seed002(tmp: Path, out: Path, what: str) -> Path:
    """Seed 002 (Dordal's ns-2 chapter), 31.2: basic1's cwnd teeth, or its
    bottleneck queue with the drops."""
    dumbbell_run(ROOT / "examples" / "basic1.tcl", [], tmp)
    if what == "cwnd":
        path = out / "seed002-cwnd.png"
        dp.plot_cwnd(db.read_vartrace(tmp / "basic1.tr"), path, "Seed 002, Dordal 31.2: basic1's cwnd (TCP Reno)")
    else:
        path = out / "seed002-queue.png"
        dp.plot_queue(tmp / "basic1.tr", (1, 2), path, "Seed 002, Dordal 31.2: basic1's bottleneck queue",
                      queue_limit=7)
    return path


def red_queue(tmp: Path, out: Path) -> Path:
    """RED, as the gateway of seeds 000 and 001: the instantaneous queue
    with its drops and marks, and RED's average ave_ from the queue's own
    trace (tests/ns2/scripts/red.tcl, written for ns-2)."""
    dumbbell_run(ROOT / "tests" / "ns2" / "scripts" / "red.tcl",
                 ["30", "ecn=1", "setbit_=true", "bytes_=false", "queue_in_bytes_=false", "thresh_=5",
                  "maxthresh_=15", "q_weight_=0.002"], tmp)
    path = out / "red-queue.png"
    dp.plot_queue(tmp / "red.tr", (0, 1), path, "RED with ECN (packet mode, thresholds 5/15): queue and ave_",
                  red_average=tmp / "red-q.tr", queue_limit=25)
    return path


def seed003(tmp: Path, out: Path) -> Path:
    """ECN-mod against ECN NewReno under varying VoIP load: Figure 3's
    best-effort marking rate and queue CoV over lambda, from
    examples/seed003_ecnmod.py (shorter runs than its defaults: 200 s, 2
    seeds)."""
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "seed003_ecnmod.py"), "--duration", "200",
                        "--seeds", "2", "--plot", str(tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"seed003_ecnmod.py: exit {r.returncode}\n{r.stderr}")
    path = out / "seed003-marks.png"
    path.write_bytes((tmp / "fig3.png").read_bytes())
    return path


def seed002_wireless(tmp: Path, out: Path) -> Path:
    """Dordal 31.6 from Python (examples/seed002_wireless.py's scenario,
    AODV): node positions, radio ranges and the CBR flow's route at four
    times, as the mover leaves the row behind."""
    sys.path.insert(0, str(ROOT / "examples"))
    import seed002_wireless

    res = seed002_wireless.scenario("AODV").run(until=100)
    path = out / "seed002-wireless.png"
    dp.plot_wireless(res, path, at=[10, 35, 60, 85],
                     title="Seed 002, Dordal 31.6: CBR to a moving node over AODV, route by route")
    return path


FIGURES = {
    "seed000-ack": lambda t, o: seed000(t, o, "ack"),
    "seed000-cwnd": lambda t, o: seed000(t, o, "cwnd"),
    "seed001-goodput": seed001,
    "seed002-cwnd": lambda t, o: seed002(t, o, "cwnd"),
    "seed002-queue": lambda t, o: seed002(t, o, "queue"),
    "seed002-wireless": seed002_wireless,
    "seed003-marks": seed003,
    "red-queue": red_queue,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*", choices=[[], *FIGURES], metavar="FIGURE",
                    help=f"figures to make (default: all): {', '.join(FIGURES)}")
    ap.add_argument("--out", default=str(ROOT / "docs" / "gallery"), help="directory of the PNGs (default docs/gallery)")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in a.figures or FIGURES:
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="dumbbell-gallery-") as tmp:
            path = FIGURES[name](Path(tmp), out)
        print(f"{name}: {path} ({path.stat().st_size // 1024} kB, {time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
