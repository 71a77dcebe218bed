"""dumbbell.WirelessSimulation builds its scenario through the engine's
typed builder (crates/engine/src/ns2/build_wireless.rs), in this process,
with no Tcl interpreter and no child process, and gives byte for byte the
trace, nam file and stdout of its `to_tcl()` script under `dumbbell run`
(AODV, DSDV, DSR, DumbAgent; 802.11 and TDMA; CBR and every TCP sender and
sink; fixed, moving and random-waypoint nodes) and, where stored, of the
real ns-2 2.35; the builder refuses bad wireless input with a clear
ValueError."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

import dumbbell as db
from dumbbell._engine import Builder
from dumbbell.api._sim import _defaults_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(HERE))

import seed002_wireless  # noqa: E402
import wireless_builder_scenarios as scenarios  # noqa: E402
import wireless_scenarios  # noqa: E402


def first_difference(what: str, want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"{what}, line {i + 1}:\n  expected: {x.decode()}\n  built:    {y.decode()}"
    return f"{what}: expected {len(a)} lines, built {len(b)}"


def built(w, until):
    return w._run_built(w._until(until)[0], True, None)


CASES = {name: f for name, f in scenarios.SCENARIOS.items()}
CASES["mixed_aodv"] = lambda: (wireless_scenarios.mixed("AODV"), wireless_scenarios.UNTIL["mixed_aodv"])
CASES["mixed_dsdv"] = lambda: (wireless_scenarios.mixed("DSDV"), wireless_scenarios.UNTIL["mixed_dsdv"])
CASES["seed002_dsdv"] = lambda: (seed002_wireless.scenario("DSDV"), 100)
CASES["seed002_dsr"] = lambda: (seed002_wireless.scenario("DSR"), 100)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_builder_gives_the_scripts_trace_nam_and_stdout(name):
    w, until = CASES[name]()
    want = w._run_script(until, nam=True)
    got = built(w, until)
    for what, x, y in zip(("trace", "nam file", "stdout"), want, got):
        assert y == x, first_difference(what, x, y)
    assert got[0].count(b"\n") > 30 and got[1].startswith(b"V -t * -v 1.0a5 -a 0\nW -t * -x ")
    assert got[2].count(b"num_nodes is set ") == 1


@pytest.mark.parametrize("name", scenarios.NS2_FIXTURES)
def test_the_builder_gives_ns2s_trace_nam_and_stdout(name, tmp_path):
    w, until = scenarios.SCENARIOS[name]()
    res = w.run(until, trace_file=tmp_path / "w.tr", nam_file=tmp_path / "w.nam")
    fix = HERE / "wireless"
    for what, ext in (("trace", "tr"), ("nam file", "nam")):
        want = gzip.decompress((fix / f"builder_{name}.{ext}.gz").read_bytes())
        got = (tmp_path / f"w.{ext}").read_bytes()
        assert got == want, first_difference(what, want, got)
    want = (fix / f"builder_{name}.out").read_bytes()
    assert res.stdout.encode() == want, first_difference("stdout", want, res.stdout.encode())
    assert res.flows["received"].min() > 0


def test_run_starts_no_process_and_no_tcl_interpreter(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("WirelessSimulation.run() started a process or a Tcl interpreter")

    import dumbbell.ns2.runner as runner

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setattr(runner.Ns2Runner, "__init__", refuse)
    w, until = scenarios.one_hop()
    res = w.run(until)
    assert res.flows["received"][0] == res.flows["sent"][0] > 0
    assert res.stdout.startswith("num_nodes is set 2\n")


def test_a_run_past_its_timeout_is_stopped_in_process():
    w, _ = scenarios.waypoint(nodes=20, flows=6, until=200)
    with pytest.raises(db.api.SimulationError, match=r"ran longer than timeout=0\.02 s and was stopped"):
        w.run(until=200, timeout=0.02)


def test_set_up_is_independent_of_the_builders_order_of_runs():
    # the same scenario built twice in one process: the same bytes
    w, until = scenarios.busy()
    assert built(w, until) == built(w, until)


# ---- the builder's bad input --------------------------------------------------------


def fresh(**kw) -> Builder:
    b = Builder(_defaults_text())
    args = dict(width=500, height=400, nodes=3, routing="AODV", trace="t")
    args.update(kw)
    b.wireless(**args)
    return b


@pytest.mark.parametrize("kw, msg", [
    (dict(routing="TORA"), 'routing must be AODV, DSDV, DSR or DumbAgent, got "TORA"'),
    (dict(mac="csma"), "mac must be '802.11' or 'tdma', got \"csma\""),
    (dict(width=0), "the topography's width and height must be 1 to 2147483647 m, got 0 x 400"),
    (dict(nodes=0), "GOD's count of nodes must be at least 1, got 0"),
    (dict(ifq_len=0), r"the interface queue's limit \(ifq_len\) must be at least 1 packet, got 0"),
    (dict(rx_threshold=-1.0), "rx_threshold must be a power above 0 W, got -1"),
    (dict(data_rate="0Mb"), "Mac/802_11 dataRate_ must be a rate above 0, got 0"),
])
def test_the_builder_refuses_a_bad_wireless_scenario(kw, msg):
    with pytest.raises(ValueError, match=msg):
        fresh(**kw)


def test_the_builder_refuses_bad_mobile_nodes_and_moves():
    b = Builder(_defaults_text())
    with pytest.raises(ValueError, match=r"mobile_node: no wireless scenario \(Builder::wireless first\)"):
        b.mobile_node(1, 1)
    b = fresh()
    with pytest.raises(ValueError, match="the scenario's wireless parts are already made"):
        b.wireless(500, 400, 3, "AODV")
    with pytest.raises(ValueError, match="mobile_node: x must be a finite coordinate"):
        b.mobile_node(float("nan"), 1)
    a = b.mobile_node(10, 10)
    with pytest.raises(ValueError, match=r"setdest: destination \(600, 10\) of node 0 is not inside the topography, "
                                         r"\(0, 0\) to \(500, 400\) exclusive"):
        b.setdest(a, 1.0, 600, 10, 5)
    with pytest.raises(ValueError, match="setdest: speed of node 0 must be 0 m/s or more, got -1"):
        b.setdest(a, 1.0, 100, 10, -1)
    wired = b.node()
    with pytest.raises(ValueError, match=f"setdest: node {wired} is not a mobile node"):
        b.setdest(wired, 1.0, 100, 10, 1)
    b.setdest(a, 1.0, 100, 10, 1)
    b.at(2.0, "halt")
    assert b.run() in ("halted", "output")
    with pytest.raises(ValueError, match="mobile_node: the simulation has started"):
        b.mobile_node(1, 1)
