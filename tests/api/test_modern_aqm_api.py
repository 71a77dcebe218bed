"""COBALT, FQ-PIE and FQ-COBALT from Python: `queue="COBALT"`, `"FQ_PIE"`,
`"FQ_COBALT"` with their bound variables as `queue_params` (checked by the
class's table), the same run through the API and through `to_tcl()` under
`dumbbell run`, and their effect on a shared bottleneck."""

from __future__ import annotations

import pytest

import dumbbell as db
from test_builder_exact import _dumbbell, same_as_ns2_layer


@pytest.mark.parametrize("queue,params", [
    ("COBALT", None),
    ("COBALT", {"setbit": True, "target": "2ms", "blue_threshold": 0.05}),
    ("FQ_PIE", None),
    ("FQ_PIE", {"setbit": False, "qdelay_ref": "5ms", "flows": 64}),
    ("FQ_COBALT", None),
    ("FQ_COBALT", {"interval": "50ms", "ce_threshold": "1ms"}),
])
def test_api_run_is_the_ns2_layers(tmp_path, queue, params):
    sim, S, D, _ = _dumbbell(3, queue=queue, queue_params=params, limit=40)
    for i in range(3):
        sim.tcp(S[i], D[i], window=100, ecn=i != 1, start=0.2 * i)
    res = same_as_ns2_layer(sim, 5, tmp_path)
    # the 1.5 Mb/s bottleneck carries about 600 packets in the 4 s of traffic
    # (fewer under COBALT with a 2 ms target)
    assert res.queues.filter(src=0, dst=1)["departures_pkts"][0] > 300
    assert f"1.5Mb 20ms {queue}\n" in sim.to_tcl(5)


@pytest.mark.parametrize("queue,fairness", [("FQ_PIE", 0.8), ("FQ_COBALT", 0.6)])
def test_flow_queuing_shares_the_link(queue, fairness):
    """Three flows of different RTTs: flow queuing shares the bottleneck
    more evenly than DropTail (its worst/best ratio 0.46), with a smaller
    queue.  FQ-COBALT's CoDel drops from the first packet above target
    (no interval's grace), which costs the longer-RTT flows more: 0.65
    here, FQ-PIE 0.8 and more."""
    def run(q):
        sim, S, D, _ = _dumbbell(3, queue=q, limit=200)
        for i in range(3):
            sim.tcp(S[i], D[i], window=200)
        res = sim.run(until=10)
        got = sorted(res.flows["bytes_received"].to_list())
        return got[0] / got[-1], res.queues.filter(src=0, dst=1).row(0, named=True)

    (fair_dt, dt), (fair_fq, fq) = run("DropTail"), run(queue)
    assert fair_fq > fair_dt + 0.1 and fair_fq > fairness
    assert fq["mean_queue_pkts"] < dt["mean_queue_pkts"] / 3


@pytest.mark.parametrize("queue,params,msg", [
    ("COBALT", {"pdrop": 2}, r"pdrop_ must be a number from 0 to 1"),
    ("COBALT", {"target": 0}, r"target_ must be a time of 1 ns or more"),
    ("FQ_PIE", {"flows": 0}, r"flows_ must be a positive integer"),
    ("FQ_PIE", {"nonsense": 1}, r"nonsense"),
    ("FQ_COBALT", {"set_ways": 3, "set_associative_hash": True}, r"flows_ \(1024\) must be a multiple of set_ways_ \(3\)"),
])
def test_bad_parameters_are_errors(queue, params, msg):
    sim = db.Simulation()
    A, B = sim.nodes(2)
    with pytest.raises((ValueError, db.SimulationError), match=msg):
        sim.link(A, B, queue=queue, queue_params=params)
        sim.tcp(A, B)
        sim.run(until=1)
