"""DiffServ (ns-2 2.35's Queue/dsRED/edge and /core) through the Python
API: an edge marking two flows' packets with policies, a core queue
with per-precedence RED and a scheduler over two physical queues; the
same trace and counters as the API's `to_tcl()` script under `dumbbell
run` and under the real ns-2.  Bad parameters are errors."""

from __future__ import annotations

import pytest

import dumbbell as db
from test_builder_exact import same_as_ns2_layer

RED = [(0, 0, 10, 20, 0.05), (0, 1, 4, 10, 0.2, 0.01), (1, 0, 8, 16, 0.1), (1, 1, 3, 8, 0.3)]
PHB = [(10, 0, 0), (11, 0, 1), (20, 1, 0), (21, 1, 1)]


def _diffserv(policies, policers, scheduler="RR", mode="RIO-C", ecn=False):
    """Sources -> R1 =edge=> R2 =core=> sink (simplex, DropTail back)."""
    sim = db.Simulation(seed=3)
    R1, R2, D = sim.nodes(3)
    S = sim.nodes(3)
    for i, s in enumerate(S):
        sim.link(s, R1, "10Mb", f"{2 + i}ms")
    core = dict(num_queues=2, num_prec=2, ecn=ecn, scheduler=scheduler, mred_mode=mode, weights={0: 3, 1: 1},
                rates={0: 1_000_000}, phb=PHB, red=RED)
    sim.link(R1, R2, "4Mb", "5ms", queue="dsRED/edge", duplex=False, queue_params=dict(core, policies=policies(S, D),
                                                                                         policers=policers))
    sim.link(R2, R1, "4Mb", "5ms", duplex=False)
    bott = sim.link(R2, D, "1.5Mb", "10ms", queue="dsRED/core", duplex=False, queue_limit=30, queue_params=core)
    sim.link(D, R2, "1.5Mb", "10ms", duplex=False)
    return sim, S, D, bott


@pytest.mark.parametrize("policies, policers, scheduler, mode, ecn", [
    (lambda S, D: [(S[0], D, "TokenBucket", 10, 600_000, 5000), (None, None, "TSW2CM", 20, 500_000)],
     [("TokenBucket", 10, 11), ("TSW2CM", 20, 21)], "RR", "RIO-C", False),
    (lambda S, D: [(S[0], D, "srTCM", 10, 400_000, 3000, 6000), (S[1], D, "trTCM", 10, 300_000, 2000, 700_000, 4000),
                   (None, D, "TSW3CM", 10, 200_000, 600_000)],
     [("srTCM", 10, 11, 21), ("trTCM", 10, 11, 21), ("TSW3CM", 10, 20, 21)], "WRR", "RIO-D", True),
    (lambda S, D: [(None, None, "Null", 20)], [("Null", 20)], "PRI", "WRED", False),
])
def test_api_is_the_script_and_ns2(tmp_path, policies, policers, scheduler, mode, ecn):
    sim, S, D, bott = _diffserv(policies, policers, scheduler, mode, ecn)
    sim.tcp(S[0], D, variant="newreno", window=40, ecn=ecn)
    sim.tcp(S[1], D, variant="sack", window=40, start=0.2, ecn=ecn)
    sim.udp(S[2], D, traffic="cbr", rate="900Kb", packet_size=500, start=0.1)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    q = res.queues.filter(src=bott.src.id, dst=bott.dst.id).row(0, named=True)
    assert q["drops_pkts"] > 0 or ecn
    # the core's per-code-point counters add up to what its queue monitor saw
    per = res.diffserv[(bott.src.id, bott.dst.id)]
    assert set(per) == {cp for cp, _, _ in PHB}
    assert sum(c["pkts"] for c in per.values()) == q["arrivals_pkts"]
    assert sum(c["drops"] + c["edrops"] for c in per.values()) == q["drops_pkts"]
    assert all(c["accepted"] == c["pkts"] - c["drops"] - c["edrops"] for c in per.values())
    # the edge marked some packets out of profile (none with the Null policy)
    edge = res.diffserv[(bott.src.id - 1, bott.src.id)]
    assert (edge[11]["pkts"] + edge[21]["pkts"] > 0) == (policers[0][0] != "Null")
    tcl = sim.to_tcl(4)
    assert "5ms dsRED/edge\n" in tcl and "addPHBEntry 21 1 1" in tcl and f"setSchedularMode {scheduler}" in tcl


@pytest.mark.parametrize("edge, core, message", [
    ({"num_queues": 9}, {}, "numQueues_ must be 1 to 8"),
    ({"red": [(0, 3, 5, 10, 0.1)]}, {}, "configQ's precedence must be 0 to 2, got 3"),
    ({"policies": [(0, 2, "Leaky", 10)]}, {}, "no policy \"Leaky\""),
    ({"phb": [(10, 0)]}, {}, "phb[0] must be a tuple of 3 values"),
    ({"colour": 1}, {}, "unknown dsRED/edge parameter(s) 'colour'"),
    ({}, {"policers": [("Null", 10)]}, "policies and policers are an edge's"),
    ({"policies": [("a", 2, "Null", 10)]}, {}, "expected a Node, a node id or None"),
])
def test_bad_parameters_are_errors(edge, core, message):
    with pytest.raises((ValueError, db.api.SimulationError)) as e:
        sim = db.Simulation()
        a, b, c = sim.nodes(3)
        sim.link(a, b, queue="dsRED/edge", duplex=False, queue_params=edge)
        sim.link(b, c, queue="dsRED/core", duplex=False, queue_params=core)
        sim.link(b, a, duplex=False)
        sim.link(c, b, duplex=False)
        sim.tcp(a, c)
        sim.run(until=1)
    assert message in str(e.value)
