"""Quick-Start from the Python API (`Simulation.quickstart`, `tcp(...,
quickstart=True, rate_request=...)`): the packets of the API's run equal
those of its exported script under `dumbbell run` and, when installed, the
real ns-2's; the approved window shows in the trace (paced segments a
fraction of a round trip apart instead of slow start's pairs); bad input is
refused by name."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import dumbbell as db


def qs_sim(algorithm=3, quickstart=True, rate_request=40) -> db.Simulation:
    """ns-2's quickstart suite's net3: a 100 Mb/s, 500 ms RED bottleneck."""
    sim = db.Simulation()
    sim.quickstart(algorithm=algorithm, alloc_rate=0.5, threshold=0.5, state_delay=0.35)
    s1, s2, r1, r2, s3, s4 = sim.nodes(6)
    sim.link(s1, r1, "1000Mb", "2ms")
    sim.link(s2, r1, "1000Mb", "3ms")
    sim.link(r1, r2, "100Mb", "500ms", queue="RED", queue_limit=100)
    sim.link(s3, r2, "1000Mb", "4ms")
    sim.link(s4, r2, "1000Mb", "5ms")
    sim.tcp(s1, s3, variant="newreno", window=8, flow_id=0)
    if quickstart:
        sim.tcp(s2, s4, variant="sack", sink="sack", window=1000, flow_id=1, start=2.0, quickstart=True,
                rate_request=rate_request)
    else:
        sim.tcp(s2, s4, variant="sack", sink="sack", window=1000, flow_id=1, start=2.0)
    return sim


def _data_times(trace: bytes, fid: int) -> list[float]:
    """When the flow's data segments enter the bottleneck's queue."""
    out = []
    for ln in trace.decode().splitlines():
        w = ln.split()
        if w[0] == "+" and w[2] == "2" and w[3] == "3" and w[4] == "tcp" and w[7] == str(fid) and w[5] != "40":
            out.append(float(w[1]))
    return out


def test_approved_window_is_paced(tmp_path):
    qs = tmp_path / "qs.tr"
    plain = tmp_path / "plain.tr"
    qs_sim().run(4, trace_packets=True, trace_file=qs, monitor_queues=False)
    qs_sim(quickstart=False).run(4, trace_packets=True, trace_file=plain, monitor_queues=False)
    tq, tp = _data_times(qs.read_bytes(), 1), _data_times(plain.read_bytes(), 1)
    # slow start: the first window is two segments at once; Quick-Start:
    # the approved window, each segment a fraction of the round trip after
    # the last
    assert tp[1] - tp[0] < 1e-3
    first = [t for t in tq if t < tq[0] + 0.9]
    assert len(first) > 10
    gaps = [b - a for a, b in zip(first, first[1:])]
    assert min(gaps) > 0.01 and max(gaps) - min(gaps) < 1e-5  # (trace times have 6 decimals)


def test_refused_requests_change_nothing(tmp_path):
    """A request too small to encode (1 KB/s is below the exponential
    code's 10,000 bytes/s) is refused: the same data segments as without
    Quick-Start."""
    a, b = tmp_path / "a.tr", tmp_path / "b.tr"
    qs_sim(rate_request=1).run(4, trace_packets=True, trace_file=a, monitor_queues=False)
    qs_sim(quickstart=False).run(4, trace_packets=True, trace_file=b, monitor_queues=False)
    # the request rides on the first segment only; the rest is identical
    # but for the ports (every node's Quick-Start agent takes port 0)
    assert _data_times(a.read_bytes(), 1) == _data_times(b.read_bytes(), 1)


def _run_script(cmd, tmp_path, sim):
    (tmp_path / "exp.tcl").write_text(sim.to_tcl(4, trace_packets=True, trace_file="exp.tr"))
    r = subprocess.run(cmd + ["exp.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return (tmp_path / "exp.tr").read_bytes()


def test_exported_script_under_dumbbell_run_gives_the_same_trace(tmp_path):
    sim = qs_sim()
    sim.run(4, trace_packets=True, trace_file=tmp_path / "api.tr", monitor_queues=False)
    assert "$ns node-config -QS ON" in sim.to_tcl(4)
    got = _run_script([sys.executable, "-m", "dumbbell.cli", "run"], tmp_path, sim)
    assert got == (tmp_path / "api.tr").read_bytes()


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (/usr/bin/ns) is not installed")
@pytest.mark.parametrize("algorithm", [1, 2, 3, 4])
def test_exported_script_under_real_ns2_gives_the_same_trace(tmp_path, algorithm):
    sim = qs_sim(algorithm=algorithm)
    sim.run(4, trace_packets=True, trace_file=tmp_path / "api.tr", monitor_queues=False)
    got = _run_script(["ns"], tmp_path, sim)
    assert got == (tmp_path / "api.tr").read_bytes()


@pytest.mark.parametrize("kwargs, words", [
    ({"algorithm": 5}, "algorithm must be 1, 2, 3 or 4"),
    ({"algorithm": True}, "algorithm"),
    ({"alloc_rate": 0}, "alloc_rate must be a share"),
    ({"threshold": 1.5}, "threshold must be a share"),
    ({"state_delay": -1}, "state_delay must be a positive"),
    ({"rate_encoding": "log"}, "rate_encoding"),
    ({"max_rate": 0}, "max_rate"),
])
def test_bad_router_settings_are_refused_by_name(kwargs, words):
    with pytest.raises(ValueError, match=words):
        db.Simulation().quickstart(**kwargs)


def test_routers_come_before_nodes_and_once():
    sim = db.Simulation()
    sim.node()
    with pytest.raises(ValueError, match="before making nodes"):
        sim.quickstart()
    sim = db.Simulation()
    sim.quickstart()
    with pytest.raises(ValueError, match="already on"):
        sim.quickstart()


@pytest.mark.parametrize("kwargs, words", [
    ({"quickstart": True}, "needs rate_request"),
    ({"quickstart": True, "rate_request": 0}, "needs rate_request"),
    ({"quickstart": True, "rate_request": 20, "variant": "vegas"}, "makes no Quick-Start requests"),
    ({"quickstart": "yes", "rate_request": 20}, "quickstart must be True or False"),
    ({"quickstart": True, "rate_request": 20, "qs_enabled": True}, "set the same ns-2 variable"),
])
def test_bad_flow_settings_are_refused_by_name(kwargs, words):
    sim = db.Simulation()
    sim.quickstart()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match=words):
        sim.tcp(a, b, **kwargs)


def test_quickstart_flow_needs_routers():
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match="needs Quick-Start routers"):
        sim.tcp(a, b, quickstart=True, rate_request=20)
