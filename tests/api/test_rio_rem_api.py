"""`queue="RIO"` and `"REM"` (ns-2 2.35's Queue/RED/RIO and Queue/REM)
through the Python API: the same trace and counters as the API's
`to_tcl()` script under `dumbbell run` and under the real ns-2; their
parameters are checked."""

from __future__ import annotations

import pytest

import dumbbell as db
from test_builder_exact import _dumbbell, same_as_ns2_layer


@pytest.mark.parametrize("queue, params, name", [
    ("RIO", {}, "RED/RIO"),
    ("RIO", {"priority_method": 1, "in_thresh": 3, "in_maxthresh": 15, "out_thresh": 3,
             "out_maxthresh": 9, "in_linterm": 3, "linterm": 12}, "RED/RIO"),
    ("REM", {}, "REM"),
    ("REM", {"phi": 5, "markpkts": True}, "REM"),
])
def test_api_is_the_script_and_ns2(tmp_path, queue, params, name):
    sim, S, D, bott = _dumbbell(4, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i, ecn=queue == "REM")
    sim.udp(S[3], D[3], traffic="cbr", rate="700Kb", packet_size=700, random=1, start=0.3)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    q = res.queues.filter(src=bott.src.id, dst=bott.dst.id).row(0, named=True)
    assert q["drops_pkts"] > 0 or params.get("markpkts")
    assert f"1.5Mb 20ms {name}\n" in sim.to_tcl(4)


@pytest.mark.parametrize("queue, params, message", [
    ("REM", {"pupdtime": 0}, "pupdtime_ must be a number above 0"),
    ("REM", {"mean_pktsize": -1}, "mean_pktsize must be > 0"),
    ("RIO", {"in_maxthresh": 15}, "in_maxthresh_ (15) equals in_thresh_"),
])
def test_bad_parameters_are_errors(queue, params, message):
    with pytest.raises((ValueError, db.api.SimulationError)) as e:
        sim, S, D, _ = _dumbbell(1, queue=queue, queue_params=params)
        sim.tcp(S[0], D[0])
        sim.run(until=1)
    assert message in str(e.value)
