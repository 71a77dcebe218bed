"""The API gives exactly the results of the equivalent ns-2 script: the
corpus fixtures (written by ns-2 2.35) for basic1, basic2 and the TCP
variants, rebuilt with the API, and the API's own exported script run by
`dumbbell run` and, when installed, by /usr/bin/ns."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import polars as pl
import pytest

import dumbbell as db
from dumbbell.trace import read_trace, read_vartrace
from api_scenarios import (CASES, ROOT, basic1, basic2_lines, basic2_sim, fixture_bytes, fixture_stdout,
                           variants_sim)

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}


# ---- basic1 (Dordal 31.2) -------------------------------------------------------------

def test_basic1_book_numbers():
    _, res = basic1()
    row = res.flows.row(0, named=True)
    assert (row["ack"], row["maxseq"]) == (808, 829)   # the book: ack_ 808, maxseq_ 829
    assert row["bytes_received"] == 808040
    acks = res.var("ack_")
    assert acks.row(-1) == (9.98029, 0, 808.0)           # "9.98029 0 0 2 0 ack_ 808"
    assert res.var("maxseq").row(-1) == (9.99029, 0, 829.0)


def test_basic1_trace_is_byte_identical_to_ns2(tmp_path):
    """Packet tracing plus the same variable traces: the trace text is the
    basic1.tr ns-2 wrote (queue monitors on every link do not change it)."""
    out = tmp_path / "api.tr"
    _, res = basic1(trace_packets=True, trace_file=out)
    assert res.trace_file == out
    assert out.read_bytes() == fixture_bytes("basic1_10", "basic1.tr")


def test_basic1_frames_equal_read_trace_of_ns2_file(tmp_path):
    ref = tmp_path / "ref.tr"
    ref.write_bytes(fixture_bytes("basic1_10", "basic1.tr"))
    _, res = basic1(trace_packets=True)
    assert res.trace_file is None
    assert res.events.drop("flow").equals(read_trace(ref))
    assert res.events["flow"].null_count() == 0
    want_vars = read_vartrace(ref)
    assert res.vars["time"].to_list() == want_vars["time"].to_list()
    assert res.vars["var"].to_list() == want_vars["var"].cast(pl.String).to_list()
    assert res.vars["value"].to_list() == want_vars["value"].to_list()
    drops = res.events.filter(pl.col("event") == "d")
    assert drops.row(0, named=True)["time"] == 0.58616    # the book's first drop: Data[28] at 0.58616
    assert drops.row(0, named=True)["seqno"] == 28


# ---- basic2 (Dordal 31.3) ---------------------------------------------------------------

BASIC2 = sorted((c for c in CASES.values() if c["script"] == "basic2.tcl" and len(c["args"]) <= 3),
                key=lambda c: c["id"])


@pytest.mark.parametrize("case", BASIC2, ids=[c["id"] for c in BASIC2])
def test_basic2_matches_ns2_stdout(case):
    args = case["args"]
    delayB = int(args[0])
    endtime = float(args[1]) if len(args) > 1 else 300.0
    overhead = float(args[2]) if len(args) > 2 else 0.0
    res = basic2_sim(delayB, overhead).run(until=endtime)
    want = fixture_stdout(case["id"])
    assert basic2_lines(res, delayB, overhead) == want[1:3]


@pytest.mark.parametrize("case", ["basic2_trace_d0", "rng_basic2_oh01_trace"])
def test_basic2_trace_is_byte_identical_to_ns2(case, tmp_path):
    delayB, endtime, overhead, _ = CASES[case]["args"]
    delayB, overhead = int(delayB), float(overhead)
    sim = basic2_sim(delayB, overhead, trace_vars=("cwnd_", "ack_"))
    res = sim.run(until=float(endtime), trace_packets=True, trace_file=tmp_path / "b2.tr")
    assert (tmp_path / "b2.tr").read_bytes() == fixture_bytes(case, "basic2.tr")
    assert basic2_lines(res, delayB, overhead) == fixture_stdout(case)[1:3]
    # variable records are attributed to the right flow
    assert res.vars["flow"].unique().sort().to_list() == [0, 1]
    assert res.vars["flow"].null_count() == 0


# ---- Tahoe / Reno / NewReno with both sinks ----------------------------------------------

VARIANTS = [(v, s) for v in ("tahoe", "reno", "newreno") for s in ("sink", "delack")]


@pytest.mark.parametrize("variant,sink", VARIANTS, ids=[f"{v}_{s}" for v, s in VARIANTS])
def test_variants_match_ns2(variant, sink, tmp_path):
    case = f"{variant}_{sink}"
    sim = variants_sim(variant, "ack-every" if sink == "sink" else "delack")
    res = sim.run(until=20.0, trace_packets=True)
    lines = []
    for name, row in zip(("flow1", "flow2"), res.flows.iter_rows(named=True)):
        lines.append("%s ack=%d maxseq=%d cwnd=%.3f ssthresh=%d ndatapack=%d nrexmitpack=%d sinkbytes=%d" % (
            name, row["ack"], row["maxseq"], row["cwnd"], row["ssthresh"], row["ndatapack"],
            row["nrexmitpack"], row["bytes_received"]))
    assert lines == fixture_stdout(case)[1:3]
    (tmp_path / "out.tr").write_bytes(fixture_bytes(case, "out.tr"))
    (tmp_path / "vars.tr").write_bytes(fixture_bytes(case, "vars.tr"))
    assert res.events.drop("flow").equals(read_trace(tmp_path / "out.tr"))
    # ns-2 traced these after `connect` into a file of their own; the values
    # and times are the same
    want = read_vartrace(tmp_path / "vars.tr")
    got = res.vars.filter(pl.col("flow") == 0)
    assert got["time"].to_list() == want["time"].to_list()
    assert got["var"].to_list() == want["var"].cast(pl.String).to_list()
    assert got["value"].to_list() == want["value"].to_list()


# ---- the exported script ---------------------------------------------------------------------

def _mixed_sim():
    sim = db.Simulation(seed=7)
    A, B, R, D = sim.nodes(4)
    sim.link(A, R, 10e6, 0.005)
    sim.link(B, R, "10Mb", "17ms")
    sim.link(R, D, "1.5Mbps", "30ms", queue_limit=12)
    sim.queue_limit(D, R, 5)
    sim.tcp(A, D, variant="tahoe", trace_vars=("cwnd", "ack"), windowInit=2, overhead=0.002)
    sim.tcp(B, D, variant="newreno", sink="delack", start=0.5, stop=6, packet_size=1460, window=30,
            trace_vars=("cwnd_",), maxburst=4)
    sim.tcp(A, D, variant="reno", start=2.0, flow_id=9)
    return sim


def _flow_lines(res):
    return [
        f"flow {r['flow']} ack_ {r['ack']} maxseq_ {r['maxseq']}" for r in res.flows.iter_rows(named=True)
    ]


def _parse_printed(stdout: str):
    out = []
    for line in stdout.splitlines():
        if line.startswith("flow "):
            w = line.split()
            out.append(f"flow {w[1]} ack_ {w[3]} maxseq_ {w[5]}")
    return out


def test_to_tcl_under_dumbbell_run_gives_the_same_trace(tmp_path):
    sim = _mixed_sim()
    res = sim.run(until=8, trace_packets=True, trace_file=tmp_path / "api.tr")
    (tmp_path / "exp.tcl").write_text(sim.to_tcl(8, trace_packets=True, trace_file="exp.tr", monitor_queues=True))
    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "exp.tcl"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "exp.tr").read_bytes() == (tmp_path / "api.tr").read_bytes()
    assert _parse_printed(r.stdout) == _flow_lines(res)


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (/usr/bin/ns) is not installed")
def test_to_tcl_under_real_ns2_gives_the_same_trace(tmp_path):
    sim = _mixed_sim()
    res = sim.run(until=8, trace_packets=True, trace_file=tmp_path / "api.tr")
    (tmp_path / "exp.tcl").write_text(sim.to_tcl(8, trace_packets=True, trace_file="exp.tr", monitor_queues=True))
    r = subprocess.run(["ns", "exp.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "exp.tr").read_bytes() == (tmp_path / "api.tr").read_bytes()
    assert _parse_printed(r.stdout) == _flow_lines(res)


def test_trace_queue_subset_matches_full_trace():
    sim, full = basic1(trace_packets=True)
    R, B = sim.node_list[1], sim.node_list[2]
    part = sim.run(until=10, trace_packets=[(R, B)])
    want = full.events.filter((pl.col("from_node") == 1) & (pl.col("to_node") == 2))
    assert part.events.height == want.height > 0
    assert part.events.select("event", "time", "seqno", "uid").equals(want.select("event", "time", "seqno", "uid"))
    assert part.flows.equals(full.flows)
