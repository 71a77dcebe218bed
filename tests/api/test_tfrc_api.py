"""TFRC flows from the Python API (`Simulation.tfrc`, `Result.rate_flows`):
the same packets as ns-2 2.35 for a corpus scenario, the exported script
agreeing with the engine's numbers, and bad input refused by name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dumbbell as db

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_scenarios import fixture_bytes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DUMBBELL = ROOT / ".venv" / "bin" / "dumbbell"


def tfrc_basic() -> db.Simulation:
    """tests/ns2/scripts/tfrc.tcl, mode basic: two TFRC flows over a
    DropTail bottleneck, the second started at 3 s and stopped at 9 s."""
    sim = db.Simulation()
    s1, s2, r1, r2, d1, d2 = sim.nodes(6)
    sim.link(s1, r1, "10Mb", "2ms")
    sim.link(s2, r1, "10Mb", "3ms")
    sim.link(r1, r2, "1.5Mb", "20ms")
    sim.queue_limit(r1, r2, 20)
    sim.link(r2, d1, "10Mb", "4ms")
    sim.link(r2, d2, "10Mb", "5ms")
    sim.tfrc(s1, d1, flow_id=1)
    sim.tfrc(s2, d2, start=3.0, stop=9.0, flow_id=2)
    return sim


def test_packets_are_ns2s(tmp_path):
    path = tmp_path / "out.tr"
    res = tfrc_basic().run(12, trace_packets=True, trace_file=path, monitor_queues=False)
    assert path.read_bytes() == fixture_bytes("tfrc_basic", "out.tr")
    rf = res.rate_flows
    assert rf.height == 2 and rf["fid"].to_list() == [1, 2]
    # the fixture's last report line: "11 t1 1291 1291000 ..." at 11 s; at
    # 12 s the first flow has sent more, the second stopped at 9 s
    assert rf["ndatapack"][0] > 1291 and rf["ndatabytes"][0] == 1000 * rf["ndatapack"][0]
    assert (rf["rate"] > 0).all() and ((rf["true_loss_rate"] >= 0) & (rf["true_loss_rate"] <= 1)).all()
    # every byte received was sent (1032 bytes a packet on the wire)
    assert (rf["bytes_received"] <= rf["ndatapack"] * 1032).all()
    assert (rf["bytes_received"] > 0).all()


def test_exported_script_gives_the_same_numbers(tmp_path):
    sim = db.Simulation()
    a, b, r1, r2 = sim.nodes(4)
    sim.link(a, r1, "10Mb", "2ms")
    sim.link(r1, r2, "1.5Mb", "20ms", queue_limit=10)
    sim.link(r2, b, "10Mb", "4ms")
    sim.tfrc(a, b, stop=8, ca=0, df=0.25, sink_params={"algo": 2, "NumFeedback_": 2})
    sim.tcp(a, b, start=1.0)
    res = sim.run(10, monitor_queues=False)
    (tmp_path / "s.tcl").write_text(sim.to_tcl(10))
    out = subprocess.run([str(DUMBBELL), "run", "s.tcl"], cwd=tmp_path, capture_output=True, text=True, check=True)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("tfrc 0 "))
    w = line.split()
    got = dict(zip(w[2::2], w[3::2]))
    r = res.rate_flows.row(0, named=True)
    assert int(got["ndatapack_"]) == r["ndatapack"] and int(got["bytes_"]) == r["bytes_received"]
    assert float(got["rate_"]) == r["rate"]
    assert "$tfrc(0) set ca_ 0" in sim.to_tcl(10) and "$tsink(0) set algo_ 2" in sim.to_tcl(10)


@pytest.mark.parametrize("call, words", [
    (lambda s, a, b: s.tfrc(a, a), "same node"),
    (lambda s, a, b: s.tfrc(a, b, start=2, stop=1), "later than start"),
    (lambda s, a, b: s.tfrc(a, b, packet_size=0), "packet_size"),
    (lambda s, a, b: s.tfrc(a, b, no_such_thing=1), "no_such_thing"),
    (lambda s, a, b: s.tfrc(a, b, SndrType=1), "SndrType_"),
    (lambda s, a, b: s.tfrc(a, b, sink_params={"agent_port_": 3}), "agent_port_"),
    (lambda s, a, b: s.tfrc(a, b, sink_params=[1]), "sink_params"),
])
def test_bad_input_is_refused_by_name(call, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match=words):
        call(sim, a, b)


@pytest.mark.parametrize("params, sink_params, words", [
    ({}, {"algo": 7}, "algo_"),
    ({"rate_init_option": 3}, {}, "rate_init_option_"),
    ({}, {"InitHistorySize": 0}, "InitHistorySize_"),
    ({"InitRate": 0}, {}, "initial rate is 0"),
])
def test_values_the_engine_refuses(params, sink_params, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    sim.tfrc(a, b, sink_params=sink_params, **params)
    with pytest.raises(db.SimulationError, match=words):
        sim.run(1)


def tfrc_mixed() -> db.Simulation:
    """The scenario of the corpus's api_tfrc.tcl (the script `to_tcl` writes
    for it; its trace is ns-2's)."""
    sim = db.Simulation()
    a, b, r1, r2, c = sim.nodes(5)
    sim.link(a, r1, "10Mb", "2ms")
    sim.link(c, r1, "10Mb", "3ms")
    sim.link(r1, r2, "1.5Mb", "20ms", queue="RED", queue_limit=25)
    sim.link(r2, b, "10Mb", "4ms")
    sim.tfrc(a, b, flow_id=1)
    sim.tfrc(c, b, start=1.0, stop=7.0, flow_id=2, packet_size=500, ca=0, sink_params={"algo": 2})
    sim.tfrc(a, b, start=2.0, flow_id=3, conservative=True, sink_params={"discount": 0, "NumFeedback": 2})
    sim.tcp(c, b, variant="sack", sink="sack", start=0.5, flow_id=4)
    return sim


def test_the_equivalent_ns2_script_writes_the_same_trace(tmp_path):
    script = ROOT / "tests" / "ns2" / "scripts" / "api_tfrc.tcl"
    assert tfrc_mixed().to_tcl(10, trace_packets=True, trace_file="out.tr") == script.read_text()
    path = tmp_path / "out.tr"
    res = tfrc_mixed().run(10, trace_packets=True, trace_file=path, monitor_queues=False)
    assert path.read_bytes() == fixture_bytes("api_tfrc", "out.tr")
    printed = [ln.split() for ln in (ROOT / "tests" / "ns2" / "fixtures" / "api_tfrc" / "stdout").read_text().splitlines()
               if ln.startswith("tfrc ")]
    rf = res.rate_flows
    for w, row in zip(printed, rf.iter_rows(named=True)):
        got = dict(zip(w[2::2], w[3::2]))
        assert row["ndatapack"] == int(got["ndatapack_"]) and row["bytes_received"] == int(got["bytes_"])
        assert row["rate"] == float(got["rate_"])
