"""Scenarios of the Python API's timed queue actions and of the queues that
need more than a class name (RED-PD with its flow monitor, FQ's per-flow
limit), which tests/api/test_timed_queue_api.py runs three ways: built by
the API, as the `to_tcl()` script under `dumbbell run`, and against the real
ns-2's trace and printed counters stored in tests/api/queues/NAME.tr.gz and
NAME.out (`python3 tests/api/queue_scenarios.py` regenerates those with
/usr/bin/ns)."""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE / "queues"


def _redpd_net(queue_params=None):
    """test-suite-red-pd.tcl's net2: two senders, a 0.5 Mb/s RED-PD
    bottleneck r1 -> r2 (DropTail back), two receivers; the suite's RED
    settings."""
    import dumbbell as db

    sim = db.Simulation(seed=3)
    s1, s2, r1, r2, s3, s4 = sim.nodes(6)
    sim.link(s1, r1, "10Mb", "2ms")
    sim.link(s2, r1, "10Mb", "3ms")
    qp = {"thresh": 5, "maxthresh": 15, "q_weight": 0.002, "gentle": True, "bytes": False, "queue_in_bytes": False}
    sim.link(r1, r2, "0.5Mb", "20ms", queue="RED/PD", duplex=False, queue_limit=100, queue_params={**qp, **(queue_params or {})})
    sim.link(r2, r1, "0.5Mb", "20ms", duplex=False, queue_limit=100)
    sim.link(s3, r2, "10Mb", "4ms")
    sim.link(s4, r2, "10Mb", "5ms")
    sim.tcp(s1, s3, variant="sack", sink="sack", window=50, flow_id=1)
    sim.tcp(s2, s3, variant="sack", sink="sack", window=50, flow_id=2, start=1.0)
    return sim, (s1, s2, r1, r2, s3, s4)


def redpd_unresponsive(actions=True):
    """The suite's `unresponsive` test, shortened: a 0.5 Mb/s CBR (flow 3)
    beside the two SACK flows; RED-PD monitors it from 4 s with
    probability 0.1 and declares it unresponsive at 8 s with penalty 3."""
    sim, (s1, s2, r1, r2, s3, s4) = _redpd_net()
    sim.udp(s1, s4, traffic="cbr", rate="0.5Mb", flow_id=3, start=1.0)
    if actions:
        sim.redpd_flow(r1, r2, 4.0, 3, "monitor", prob=0.1)
        sim.redpd_flow(r1, r2, 8.0, 3, "unresponsive", penalty=3)
    return sim, 12


def redpd_simple():
    """The suite's `simple` test, shortened: flow 1 monitored from 3 s with
    probability 0.1, unmonitored at 6 s; flow 2 aimed at a target rate
    from 4 s (`monitor-flow $flow $target $current`)."""
    sim, (s1, s2, r1, r2, s3, s4) = _redpd_net()
    sim.redpd_flow(r1, r2, 3.0, 1, "monitor", prob=0.1)
    sim.redpd_flow(r1, r2, 4.0, 2, "monitor", target=0.5, current=1)
    sim.redpd_flow(r1, r2, 6.0, 1, "unmonitor")
    return sim, 9


def redpd_frp():
    """The suite's `frp` test, shortened: every flow dropped with the fixed
    probability P_testFRp_ 0.1; flows told apart by flow id only."""
    sim, _ = _redpd_net({"P_testFRp": 0.1, "flow_classifier": "Fid"})
    return sim, 8


def red_change():
    """RED changed during the run: its averaging weight at 2 s, its
    thresholds and max_p (with a reset, which ns-2's RED needs to take
    them) at 3 s, its limit at 4 s."""
    import dumbbell as db
    sys.path.insert(0, str(HERE))
    from test_builder_exact import _dumbbell

    sim, S, D, bott = _dumbbell(3, queue="RED", limit=40, queue_params={"thresh": 5, "maxthresh": 15})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=60, start=0.1 * i)
    R1, R2 = bott.src, bott.dst
    sim.set_queue(R1, R2, 2.0, {"q_weight": 0.02})
    sim.set_queue(R1, R2, 3.0, {"thresh": 2, "maxthresh": 6, "linterm": 5}, reset=True)
    sim.queue_limit(R1, R2, 10, at=4)
    assert isinstance(sim, db.Simulation)
    return sim, 6


def fq_flow_limit():
    """ns-2's FQ with flow queues of 6 packets (the class limit of
    Queue/DropTail when they are made), three TCP flows and a CBR."""
    sys.path.insert(0, str(HERE))
    from test_builder_exact import _dumbbell

    sim, S, D, bott = _dumbbell(4, queue="FQ", queue_params={"flow_limit": 6})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="700Kb", packet_size=700, random=1, start=0.3)
    return sim, 5


def _jobs_net(objectives: dict, rate: str, **jobs_params):
    """test-suite-jobs.tcl's topology: two core nodes joined by a 10 Mb/s
    JoBS link (both ways), four sources and four sinks; source i's access
    link marks its packets class i (Queue/Marker), the links out of the
    core count them (Queue/Demarker); a CBR of `rate` from each source."""
    import dumbbell as db

    sim = db.Simulation()
    c1, c2 = sim.nodes(2)
    srcs, sinks = [], []
    for _ in range(4):
        srcs.append(sim.node())
        sinks.append(sim.node())
    sim.link(c1, c2, "10Mb", "1ms", queue="JoBS", queue_limit=800, queue_params={**objectives, **jobs_params})
    sim.queue_limit(c2, c1, 800)
    for i, (s, d) in enumerate(zip(srcs, sinks)):
        sim.link(s, c1, "10Mb", "1ms", queue="Marker", duplex=False, queue_limit=800, queue_params={"marker_class": i + 1})
        sim.link(c1, s, "10Mb", "1ms", queue="Demarker", duplex=False, queue_limit=800)
        sim.link(c2, d, "10Mb", "1ms", queue="Demarker", duplex=False, queue_limit=800)
        sim.link(d, c2, "10Mb", "1ms", queue="Marker", duplex=False, queue_limit=800, queue_params={"marker_class": i + 1})
    for s, d in zip(srcs, sinks):
        sim.udp(s, d, traffic="cbr", rate=rate, packet_size=500, agent_params={"packetSize": 500})
    return sim


def jobs_rate():
    """The jobs suite's `jobs-rate` test, shortened: four 5 Mb/s CBRs into
    10 Mb/s, absolute rate guarantees of 4, 3, 2 and 1 Mb/s."""
    return _jobs_net({"arc": [4e6, 3e6, 2e6, 1e6]}, "5000000.0", sampling_period=1, id=1), 1.5


def jobs_lossdel():
    """The jobs suite's `jobs-lossdel` objectives, shortened: relative
    delay and loss ratios 4 and 2 between classes, class 1's loss under 1%
    and delay under 5 ms; one buffer for all classes."""
    obj = {"rdc": [None, 4, 4, 4], "rlc": [None, 2, 2, 2], "alc": [0.01, None, None, None],
           "adc": [0.005, None, None, None]}
    return _jobs_net(obj, "2600000.0", sampling_period=1, id=1, shared_buffer=True), 1.5


SCENARIOS = {"redpd_unresponsive": redpd_unresponsive, "redpd_simple": redpd_simple, "redpd_frp": redpd_frp,
             "red_change": red_change, "fq_flow_limit": fq_flow_limit, "jobs_rate": jobs_rate,
             "jobs_lossdel": jobs_lossdel}


def write_fixtures(scenarios: dict, fix: Path, names: list[str]) -> int:
    """Run each named scenario's `to_tcl()` script (a callable giving
    (sim, until)) under /usr/bin/ns and store its trace and stdout in `fix`
    (every scenario when `names` is empty)."""
    sys.path.insert(0, str(HERE.parents[1] / "python"))
    fix.mkdir(exist_ok=True)
    for name in names or scenarios:
        sim, until = scenarios[name]()
        script = sim.to_tcl(until, trace_packets=True, trace_file="exp.tr")
        with tempfile.TemporaryDirectory() as d:
            Path(d, "exp.tcl").write_text(script)
            r = subprocess.run(["/usr/bin/ns", "exp.tcl"], cwd=d, capture_output=True, timeout=600)
            assert r.returncode == 0, r.stderr
            data = Path(d, "exp.tr").read_bytes()
            (fix / f"{name}.tr.gz").write_bytes(gzip.compress(data, 9, mtime=0))
            (fix / f"{name}.out").write_bytes(r.stdout)
        print(f"{name}: {len(data)} trace bytes")
    return 0


def main() -> int:
    return write_fixtures(SCENARIOS, FIX, sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
