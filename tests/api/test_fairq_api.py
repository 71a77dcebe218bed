"""`queue="DRR"`, `"SFQ"`, `"Vq"` and `"GK"` (ns-2 2.35's deficit round
robin, stochastic fair queueing, adaptive virtual queue and Gibbens-Kelly
marking) through the Python API: the same trace and counters as the API's
`to_tcl()` script under `dumbbell run` and under the real ns-2; their
parameters are checked (names and values)."""

from __future__ import annotations

import pytest

import dumbbell as db
from test_builder_exact import _dumbbell, same_as_ns2_layer


@pytest.mark.parametrize("queue, params", [
    ("DRR", {}),
    ("DRR", {"blimit": 8000, "quantum": 400, "buckets": 3}),
    ("SFQ", {}),
    ("SFQ", {"maxqueue": 12, "buckets": 4}),
    ("Vq", {}),
    ("Vq", {"buflim": 0.5, "queue_in_bytes": False, "drop_front": True}),
    ("GK", {"ecnlim": 0.5}),
])
def test_api_is_the_script_and_ns2(tmp_path, queue, params):
    sim, S, D, bott = _dumbbell(4, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="700Kb", packet_size=700, random=1, start=0.3)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    q = res.queues.filter(src=bott.src.id, dst=bott.dst.id).row(0, named=True)
    assert q["drops_pkts"] > 0 or queue == "GK"
    assert f"1.5Mb 20ms {queue}\n" in sim.to_tcl(4)


@pytest.mark.parametrize("queue, params, message", [
    ("DRR", {"quantum": 0}, "quantum_ must be a positive integer"),
    ("DRR", {"blimit": -5}, "blimit_ must be zero or a positive integer"),
    ("DRR", {"flows": 3}, "flows"),
    ("SFQ", {"buckets": 0}, "buckets_ must be a positive integer"),
    ("SFQ", {"maxqueue": "many"}, "maxqueue"),
])
def test_bad_parameters_are_errors(queue, params, message):
    with pytest.raises((ValueError, db.api.SimulationError)) as e:
        sim, S, D, _ = _dumbbell(1, queue=queue, queue_params=params)
        sim.tcp(S[0], D[0])
        sim.run(until=1)
    assert message in str(e.value)
