"""Replications of one seed (`Simulation(seed=S, run=R)`), which
tests/api/test_rng_run.py runs against the real ns-2: the trace and printed
counters of the `to_tcl()` script under /usr/bin/ns for runs 0, 1 and 3,
stored in tests/api/rngrun/NAME.tr.gz and NAME.out
(`python3 tests/api/rngrun_scenarios.py` regenerates those with
/usr/bin/ns)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "rngrun"
SEED = 5
RUNS = (0, 1, 3)
UNTIL = 8


def mixed(run: int | None, seed: int | None = SEED):
    """Every use of the default RNG the API makes in one scenario: TCP
    senders' clock phase and `overhead` send delays, RED's early drops, a
    uniform error model's losses and an exponential on/off source, on a
    1.5 Mb/s RED bottleneck.  `run=None`: no `run` argument at all."""
    import dumbbell as db

    sim = db.Simulation(seed=seed) if run is None else db.Simulation(seed=seed, run=run)
    s1, s2, s3, r1, r2, d = sim.nodes(6)
    sim.link(s1, r1, "10Mb", "2ms")
    sim.link(s2, r1, "10Mb", "7ms")
    sim.link(s3, r1, "10Mb", "3ms")
    sim.link(r1, r2, "1.5Mb", "20ms", queue="RED", queue_limit=25,
             queue_params={"thresh": 3, "maxthresh": 12, "q_weight": 0.01})
    sim.link(r2, d, "10Mb", "2ms")
    sim.tcp(s1, d, variant="newreno", window=40, overhead=0.001, flow_id=1)
    sim.tcp(s2, d, variant="sack", sink="sack", window=40, overhead=0.002, flow_id=2, start=0.3)
    sim.udp(s3, d, traffic="exponential", rate="300kb", flow_id=3, start=0.1)
    sim.error_model(r2, d, rate=0.01)
    return sim


SCENARIOS = {f"mixed_run{r}": (lambda r=r: mixed(r)) for r in RUNS}


def main() -> int:
    from queue_scenarios import write_fixtures

    return write_fixtures({name: (lambda f=f: (f(), UNTIL)) for name, f in SCENARIOS.items()}, FIX, sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
