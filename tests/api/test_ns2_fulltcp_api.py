"""ns-2's two-way TCP (FullTcp and its Tahoe, NewReno and SACK variants)
and the FACK and rate-halving SACK senders from the Python API
(`Simulation.tcp(variant="fulltcp-...")`): the script `to_tcl` writes is
the corpus's `api_fulltcp.tcl`, whose trace the real ns-2 wrote, and the
Python run gives that trace byte for byte."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import dumbbell as db

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_scenarios import fixture_bytes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "ns2" / "scripts" / "api_fulltcp.tcl"


def scenario() -> db.Simulation:
    sim = db.Simulation()
    a, r, b, c = sim.nodes(4)
    sim.link(a, r, "10Mb", "2ms")
    sim.link(c, r, "10Mb", "3ms")
    sim.link(r, b, "1.5Mb", "20ms", queue_limit=12)
    sim.tcp(a, b, variant="fulltcp", window=30, segsize=960, trace_vars=["cwnd"])
    sim.tcp(c, b, variant="fulltcp-newreno", start=0.2, segsize=960)
    sim.tcp(a, b, variant="fulltcp-sack", start=0.4, stop=6.0)
    sim.tcp(c, b, variant="fulltcp-tahoe", start=0.6, window=12)
    sim.tcp(a, b, variant="fack", sink="sack", start=1.0, rampdown=True)
    sim.tcp(c, b, variant="sack-rh", sink="sack", start=1.5)
    return sim


def test_the_exported_script_is_the_corpus_case():
    assert scenario().to_tcl(8, trace_packets=True, trace_file="out.tr") == SCRIPT.read_text()


def test_packets_are_ns2s(tmp_path):
    path = tmp_path / "out.tr"
    res = scenario().run(8, trace_packets=True, trace_file=path, monitor_queues=False)
    assert path.read_bytes() == fixture_bytes("api_fulltcp", "out.tr")
    # what the script printed under ns-2 (the corpus's stdout)
    printed = {}
    for line in (ROOT / "tests" / "ns2" / "fixtures" / "api_fulltcp" / "stdout").read_text().splitlines():
        w = line.split()
        printed[int(w[1])] = dict(zip(w[2::2], w[3::2]))
    fl = res.flows
    assert fl["variant"].to_list() == ["fulltcp", "fulltcp-newreno", "fulltcp-sack", "fulltcp-tahoe", "fack", "sack-rh"]
    assert fl["sink"].to_list() == ["fulltcp"] * 4 + ["sack"] * 2
    for row in fl.iter_rows(named=True):
        p = printed[row["flow"]]
        assert row["ack"] == int(p["ack_"]) and row["ndatapack"] == int(p["ndatapack_"])
        if row["sink"] == "fulltcp":
            # data bytes acknowledged, in segsize_ payloads
            assert row["bytes_received"] == int(p["ack_"]) - 1
            assert row["goodput_pkts"] == round(row["bytes_received"] / int(p["segsize_"]))
        else:
            assert row["bytes_received"] == int(p["bytes_"])


@pytest.mark.parametrize("kwargs, words", [
    ({"variant": "fulltcp", "sink": "sack"}, "receiver is its own kind"),
    ({"variant": "reno", "sink": "fulltcp"}, "two-way variants"),
    ({"variant": "fulltcp-vegas"}, "unknown variant"),
    ({"variant": "fulltcp-sack", "segsize": "big"}, "segsize"),
])
def test_bad_input_is_refused_by_name(kwargs, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match=words):
        sim.tcp(a, b, **kwargs)
