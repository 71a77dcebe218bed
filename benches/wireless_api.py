"""Whole-process speed of dumbbell.WirelessSimulation, through the builder
(run(), in process) or through its to_tcl() script (the old path: a child
`dumbbell run`), for docs/performance.md:

    /usr/bin/time -f '%e s, CPU %U+%S s, %M KB' .venv/bin/python benches/wireless_api.py built 50 10 100
    /usr/bin/time -f '%e s, CPU %U+%S s, %M KB' .venv/bin/python benches/wireless_api.py script 50 10 100
    .venv/bin/python benches/wireless_api.py setup 100 1000

The scenario is tests/api/wireless_builder_scenarios.py's `waypoint`: AODV,
random waypoint over 1000 m x 1000 m, NODES nodes, FLOWS CBR flows, UNTIL s.
`setup N ...` times the set-up alone (nodes made, the run not started) per
node, both ways, in CPU time (the script's: `dumbbell run` of the script
halting at once, less the same of a one-node script).  Whole-process
figures: take /usr/bin/time's %U+%S (CPU, the child included), as the
2-core machine is shared."""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "api"))

import wireless_builder_scenarios as scenarios  # noqa: E402


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def script_setup(w) -> float:
    """CPU seconds of `dumbbell run` of the scenario's script halting at
    1 ns (the machine is shared: CPU time, not wall time)."""
    with tempfile.TemporaryDirectory() as d:
        Path(d, "s.tcl").write_text(w.to_tcl(1e-9, trace_file="s.tr"))
        t0 = _children_cpu()
        subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "s.tcl"], cwd=d, check=True, capture_output=True)
        return _children_cpu() - t0


def built_setup(w) -> float:
    from dumbbell._engine import Builder
    from dumbbell.api._sim import _defaults_text

    _defaults_text()
    t0 = time.process_time()
    b = Builder(_defaults_text())
    b.wireless(int(w.width), int(w.height), len(w._nodes), w.routing, trace="t")
    for nd in w._nodes:
        b.mobile_node(nd.x, nd.y)
    b.start()
    return time.process_time() - t0


def main(argv: list[str]) -> int:
    if argv[:1] == ["setup"]:
        w1 = scenarios.waypoint(nodes=1, flows=0, until=1)[0]
        base = script_setup(w1)
        print(f"1 node: builder {built_setup(w1) * 1e3:.1f} ms, "
              f"script {base * 1e3:.1f} ms (the process, Tcl, the library)")
        for n in map(int, argv[1:]):
            w, _ = scenarios.waypoint(nodes=n, flows=0, until=1)
            b = built_setup(w)
            s = script_setup(w) - base
            print(f"{n} nodes: builder {b * 1e3:.1f} ms ({b / n * 1e6:.1f} us/node), "
                  f"script {s * 1e3:.1f} ms beyond a one-node script ({s / n * 1e6:.1f} us/node)")
        return 0
    path, nodes, flows, until = argv[0], int(argv[1]), int(argv[2]), float(argv[3])
    w, _ = scenarios.waypoint(nodes=nodes, flows=flows, until=until)
    if path == "built":
        res = w.run(until)
    else:
        trace, _, stdout = w._run_script(until)
        from dumbbell.api._wireless import WirelessResult
        from dumbbell.analysis.wtrace import parse_wireless_trace

        res = WirelessResult(w, until, parse_wireless_trace(trace.decode()), stdout.decode())
    print(f"{path}: {len(res.trace)} trace events, delivered {int(res.flows['received'].sum())} "
          f"of {int(res.flows['sent'].sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
