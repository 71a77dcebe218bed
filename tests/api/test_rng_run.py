"""`Simulation(seed=S, run=R)`: replication R of seed S draws from substream R
of the default RNG (R x `$defaultRNG next-substream` after the seed, the ns-2
manual's replications).  The API's run equals its `to_tcl()` script under the
real ns-2 (stored: tests/api/rngrun, made by `python3
tests/api/rngrun_scenarios.py`) and under `dumbbell run` for runs 0, 1 and 3;
run 0 is exactly the scenario without `run`; runs of one seed are
uncorrelated where seeds 1, 2, ... are not; bad run numbers are refused."""

from __future__ import annotations

import gzip
import math
import shutil
import subprocess

import polars as pl
import pytest

import dumbbell as db
from dumbbell.api._values import MAX_RUN
import rngrun_scenarios as scenarios
from test_builder_exact import _api_lines, _printed, same_as_ns2_layer
from test_timed_queue_api import first_difference


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_api_gives_ns2s_trace_and_counters(name, tmp_path):
    sim = scenarios.SCENARIOS[name]()
    res = sim.run(until=scenarios.UNTIL, trace_packets=True, trace_file=tmp_path / "api.tr")
    want = gzip.decompress((scenarios.FIX / f"{name}.tr.gz").read_bytes())
    got = (tmp_path / "api.tr").read_bytes()
    assert got == want, first_difference(want, got)
    out = (scenarios.FIX / f"{name}.out").read_text()
    assert _printed(out) == _api_lines(res)
    assert got.count(b"\n") > 5000


@pytest.mark.parametrize("run", scenarios.RUNS)
def test_api_is_its_script_under_dumbbell_run(run, tmp_path):
    same_as_ns2_layer(scenarios.mixed(run), scenarios.UNTIL, tmp_path)


def test_result_parameters_name_the_run():
    sim = db.Simulation(seed=4, run=3)
    a, b = sim.nodes(2)
    sim.link(a, b)
    sim.udp(a, b, rate="100kb")
    p = sim.run(until=1).parameters()
    assert (p["seed"], p["run"]) == (4, 3)
    assert db.Simulation(seed=4).run_number == 0


def test_the_stored_runs_differ():
    """Each replication is a different sample path (so the fixtures above
    test three RNG states, not one)."""
    traces = {r: gzip.decompress((scenarios.FIX / f"mixed_run{r}.tr.gz").read_bytes()) for r in scenarios.RUNS}
    assert len(set(traces.values())) == len(scenarios.RUNS)


def test_run_0_is_the_seed_alone(tmp_path):
    """Run 0 is byte for byte the scenario without `run`: the same script
    (no substream jump in it) and the trace ns-2 wrote for run 0."""
    assert db.Simulation(seed=scenarios.SEED).run_number == 0
    script = scenarios.mixed(None).to_tcl(scenarios.UNTIL, trace_packets=True)
    assert "next-substream" not in script
    assert scenarios.mixed(0).to_tcl(scenarios.UNTIL, trace_packets=True) == script
    scenarios.mixed(None).run(until=scenarios.UNTIL, trace_packets=True, trace_file=tmp_path / "api.tr")
    assert (tmp_path / "api.tr").read_bytes() == gzip.decompress((scenarios.FIX / "mixed_run0.tr.gz").read_bytes())
    three = scenarios.mixed(3).to_tcl(scenarios.UNTIL, trace_packets=True)
    assert "$defaultRNG seed 5\nfor {set rep 0} {$rep < 3} {incr rep} {$defaultRNG next-substream}\n" in three


def _drops(seed: int, run: int, n: int = 4000) -> list[int]:
    """Whether each of `n` CBR packets was lost by a uniform error model of
    rate 1/4: one default-RNG draw u per packet, lost when u < 1/4.  Nothing
    else draws and the CBR source does not react, so packet i's outcome is a
    function of draw i alone."""
    sim = db.Simulation(seed=seed, run=run)
    a, b = sim.nodes(2)
    sim.link(a, b, "10Mb", "1ms", queue_limit=n)
    sim.udp(a, b, traffic="cbr", rate="1Mb", packet_size=125, maxpkts=n)
    sim.error_model(a, b, rate=0.25, where="queue")
    res = sim.run(until=n * 0.001 + 1, trace_packets=True)
    ev = res.events.filter(pl.col("from_node") == 0)
    lost = set(ev.filter(pl.col("event") == "d")["seqno"].to_list())
    seqs = sorted(set(ev["seqno"].to_list()))
    assert seqs == list(range(n))
    return [int(s in lost) for s in seqs]


def _corr(x: list[int], y: list[int]) -> float:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy)


def test_runs_are_uncorrelated_where_seeds_are_not():
    """ns-2 puts seed s in all six words of MRG32k3a's state, so seed 2's
    draws are frac(2u) of seed 1's draws u: u < 1/4 and frac(2u) < 1/4
    together have probability 1/8, a correlation of 1/3 between the loss
    indicators.  Runs 0..3 of seed 1 (substreams 2^76 draws apart) are
    independent: |corr| within a few standard errors (1/sqrt(4000) = 0.016)
    of 0."""
    n = 4000
    seeds = {s: _drops(s, 0, n) for s in (1, 2, 4)}
    for x in seeds.values():
        assert abs(sum(x) / n - 0.25) < 0.03
    assert _corr(seeds[1], seeds[2]) > 0.25
    assert _corr(seeds[2], seeds[4]) > 0.25
    runs = {r: _drops(1, r, n) for r in range(4)}
    assert runs[0] == seeds[1]
    for x in runs.values():
        assert abs(sum(x) / n - 0.25) < 0.03
    for i in range(4):
        for j in range(i + 1, 4):
            c = _corr(runs[i], runs[j])
            assert abs(c) < 0.07, (i, j, c)


def test_run_without_seed_moves_the_default_stream():
    base = _drops_counts(None, 0)
    assert _drops_counts(None, 1) != base


def _drops_counts(seed, run):
    sim = db.Simulation(seed=seed, run=run)
    a, b = sim.nodes(2)
    sim.link(a, b, "10Mb", "1ms", queue_limit=500)
    sim.udp(a, b, traffic="cbr", rate="1Mb", packet_size=125, maxpkts=500)
    sim.error_model(a, b, rate=0.25, where="queue")
    res = sim.run(until=2, trace_packets=True)
    return res.events.filter(pl.col("event") == "d")["seqno"].to_list()


@pytest.mark.parametrize("bad", [-1, 1.0, "1", True, None, MAX_RUN + 1, 2**64])
def test_bad_run_is_refused(bad):
    with pytest.raises(ValueError, match=r"Simulation\(\): run must be an integer in 0\.\.1000000, got"):
        db.Simulation(seed=1, run=bad)


def test_largest_run_is_accepted():
    sim = db.Simulation(seed=1, run=MAX_RUN)
    assert sim.run_number == 1_000_000


def _wireless(run):
    kw = {} if run is None else {"run": run}
    w = db.WirelessSimulation(600, 600, routing="AODV", seed=11, range=200, basic_rate="2Mb", data_rate="2Mb", **kw)
    n = [w.node(100 + 90 * k, 300 + (40 if k % 2 else -40)) for k in range(5)]
    w.random_waypoint(15, nodes=n[1:4], speed=(2, 10), seed=5)
    w.tcp(n[0], n[4], variant="reno", window=10, start=0.2)
    w.cbr(n[4], n[0], rate="16kb", start=1)
    return w


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (/usr/bin/ns) is not installed")
def test_wireless_run_under_real_ns2_gives_the_apis_trace(tmp_path):
    """`WirelessSimulation(run=2)`: the same jump in the script and the
    build (as test_wireless_api's run-0 test: ns-2 live, no fixture)."""
    w = _wireless(2)
    w.run(until=15, trace_file=tmp_path / "api.tr")
    tcl = w.to_tcl(15, trace_file="exp.tr")
    assert "{$rep < 2} {incr rep} {$defaultRNG next-substream}" in tcl
    (tmp_path / "exp.tcl").write_text(tcl)
    r = subprocess.run(["ns", "exp.tcl"], cwd=tmp_path, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    want, got = (tmp_path / "exp.tr").read_bytes(), (tmp_path / "api.tr").read_bytes()
    assert got == want, first_difference(want, got)
    _wireless(0).run(until=15, trace_file=tmp_path / "run0.tr")
    assert (tmp_path / "run0.tr").read_bytes() != got
    assert _wireless(0).to_tcl(15) == _wireless(None).to_tcl(15)


def test_wireless_bad_run_is_refused():
    with pytest.raises(ValueError, match=r"WirelessSimulation\(\): run must be an integer in 0\.\.1000000, got -2"):
        db.WirelessSimulation(100, 100, seed=1, run=-2)
