"""The capabilities the API gained with the engine's builder give exactly
the results of the equivalent ns-2 script (`to_tcl()`) under `dumbbell
run`: the same trace bytes and the same final counters of every flow and
datagram source.  Also: the builder's class defaults and reset order are
the ns-2 layer's."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dumbbell as db
from dumbbell.api import SimulationError
from api_scenarios import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
FLOW_VARS = ("ack_", "maxseq_", "cwnd_", "ssthresh_", "ndatapack_", "nrexmitpack_")


def _api_lines(res):
    out = []
    for r in res.flows.iter_rows(named=True):
        out.append((r["flow"], r["ack"], r["maxseq"], float(r["cwnd"]), r["ssthresh"], r["ndatapack"],
                    r["nrexmitpack"], r["bytes_received"]))
    src = [(r["source"], r["received_pkts"], r["received_bytes"], r["lost_pkts"], r["last_arrival"])
           for r in res.sources.iter_rows(named=True) if r["sink"] == "loss-monitor"]
    return out, src


def _printed(stdout: str):
    flows, srcs = [], []
    for line in stdout.splitlines():
        w = line.split()
        if line.startswith("flow "):
            d = dict(zip(w[2::2], w[3::2]))
            flows.append((int(w[1]), int(d["ack_"]), int(d["maxseq_"]), float(d["cwnd_"]), int(d["ssthresh_"]),
                          int(d["ndatapack_"]), int(d["nrexmitpack_"]), int(d["bytes_"])))
        elif line.startswith("source "):
            d = dict(zip(w[2::2], w[3::2]))
            srcs.append((int(w[1]), int(d["npkts_"]), int(d["bytes_"]), int(d["nlost_"]), float(d["lastPktTime_"])))
    return flows, srcs


def same_as_ns2_layer(sim, until, tmp_path: Path, trace_packets=True, ns2=False):
    """Run `sim` with the API and its `to_tcl()` script with `dumbbell run`
    (and /usr/bin/ns with `ns2`): equal traces and counters."""
    res = sim.run(until=until, trace_packets=trace_packets, trace_file=tmp_path / "api.tr")
    (tmp_path / "exp.tcl").write_text(sim.to_tcl(until, trace_packets=trace_packets, trace_file="exp.tr"))
    cmds = [[sys.executable, "-m", "dumbbell.cli", "run", "exp.tcl"]]
    if ns2 and shutil.which("ns"):
        cmds.append(["ns", "exp.tcl"])
    for cmd in cmds:
        r = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=300)
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "exp.tr").read_bytes() == (tmp_path / "api.tr").read_bytes(), cmd
        assert _printed(r.stdout) == _api_lines(res), cmd
    return res


def _dumbbell(n_src=3, queue="DropTail", queue_params=None, bw="1.5Mb", limit=15):
    sim = db.Simulation(seed=11)
    R1, R2 = sim.nodes(2)
    srcs = sim.nodes(n_src)
    dsts = sim.nodes(n_src)
    for i, (s, d) in enumerate(zip(srcs, dsts)):
        sim.link(s, R1, "10Mb", f"{2 + 3 * i}ms")
        sim.link(R2, d, "10Mb", "2ms")
    bott = sim.link(R1, R2, bw, "20ms", queue=queue, queue_limit=limit, queue_params=queue_params)
    return sim, srcs, dsts, bott


# ---- every TCP flavour and sink -------------------------------------------------------------

def test_every_tcp_flavour_and_sink(tmp_path):
    sim, S, D, _ = _dumbbell(6)
    combos = [("vegas", "ack-every"), ("sack", "sack"), ("rfc793edu", "ack-every"), ("tahoe", "sack-delack"),
              ("newreno", "delack"), ("reno", "ack-every")]
    for i, (v, k) in enumerate(combos):
        sim.tcp(S[i], D[i], variant=v, sink=k, window=40, start=0.1 * i,
                trace_vars=("cwnd_", "ssthresh_", "ack_") if i % 2 == 0 else ())
    res = same_as_ns2_layer(sim, 6, tmp_path, ns2=True)
    assert res.flows["variant"].to_list() == [c[0] for c in combos]
    assert all(a > 20 for a in res.flows["ack"].to_list()), res.flows["ack"].to_list()


# ---- datagram traffic ---------------------------------------------------------------------------

def test_udp_cbr_and_on_off_sources_with_tcp(tmp_path):
    sim, S, D, _ = _dumbbell(4)
    sim.tcp(S[0], D[0], variant="newreno", window=30)
    sim.udp(S[1], D[1], traffic="cbr", rate="400Kb", packet_size=500, start=0.5, stop=4)
    sim.udp(S[2], D[2], traffic="exponential", rate="600Kb", burst_time="200ms", idle_time=0.3, start=0.2)
    sim.udp(S[3], D[3], traffic="pareto", sink="null", rate="500Kb", shape=1.4, packet_size=300)
    sim.udp(S[1], D[2], traffic="cbr", random=1, rate=100e3, agent_params={"ttl": 20})
    res = same_as_ns2_layer(sim, 5, tmp_path)
    src = res.sources
    assert src["traffic"].to_list() == ["cbr", "exponential", "pareto", "cbr"]
    assert src["received_pkts"][0] > 100 and src["received_pkts"][2] is None
    assert src["fid"].to_list() == [1, 2, 3, 4]


def test_telnet_over_tcp(tmp_path):
    sim, S, D, _ = _dumbbell(2)
    sim.tcp(S[0], D[0], app="telnet", app_params={"interval": 0.05}, trace_vars=("ack_",))
    sim.tcp(S[1], D[1], variant="newreno", app="telnet", start=1.0, stop=3.0)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    assert 20 < res.flows["ack"][0] < 200


# ---- error models -------------------------------------------------------------------------------

def test_error_models(tmp_path):
    sim, S, D, bott = _dumbbell(3)
    sim.tcp(S[0], D[0], window=30)
    sim.tcp(S[1], D[1], variant="newreno", window=30, ecn=True)
    sim.udp(S[2], D[2], rate="300Kb")
    R1, R2 = bott.src, bott.dst
    sim.error_model(R1, R2, rate=0.02)                               # uniform drops after the link
    sim.error_model(S[0], R1, kind="periodic", period=50, offset=10, where="queue")
    sim.error_model(R2, D[2], kind="list", drops=[3, 5, 40, 41])
    sim.error_model(R2, R1, rate=0.01, unit="byte", where="queue")  # on the ACKs
    sim.error_model(R1, R2, rate=0.05, mark_ecn=True, where="queue")
    res = same_as_ns2_layer(sim, 5, tmp_path)
    assert res.sources["lost_pkts"][0] >= 4
    assert res.flows["nrexmitpack"].sum() > 0


# ---- RED and its options ------------------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {"thresh": 3, "maxthresh": 10, "setbit": True},
    {"thresh": 3, "maxthresh": 10, "setbit": True, "ecnm": True},
    {"thresh": 3, "maxthresh": 10, "setbit": True, "mark_front": True},
    {"thresh": 3, "maxthresh": 10, "setbit": True, "aecn": True, "aecn_a": 1.25, "aecn_b": 1.25},
    {"thresh": 2, "maxthresh": 8, "gentle": False, "q_weight": 0.01, "linterm": 5, "wait": False},
    {"bytes": False, "queue_in_bytes": False, "drop_front": True, "thresh": 4, "maxthresh": 12},
    {"adaptive": 1, "thresh": 0, "maxthresh": 0},
])
def test_red_options(tmp_path, params):
    sim, S, D, _ = _dumbbell(3, queue="RED", queue_params=params, limit=25)
    for i in range(3):
        sim.tcp(S[i], D[i], variant=("reno", "newreno", "sack")[i], sink="sack" if i == 2 else "ack-every",
                window=50, ecn=bool(params.get("setbit")), start=0.3 * i)
    res = same_as_ns2_layer(sim, 5, tmp_path)
    assert res.queues.filter(src=0, dst=1)["departures_pkts"][0] > 500


def test_droptail_options(tmp_path):
    sim, S, D, _ = _dumbbell(2, queue_params={"drop_front": True}, limit=10)
    sim.queue_limit(D[0], sim.node_list[1], 3)
    for i in range(2):
        sim.tcp(S[i], D[i], window=40)
    same_as_ns2_layer(sim, 4, tmp_path)
    sim, S, D, _ = _dumbbell(2, queue_params={"queue_in_bytes": True, "mean_pktsize": 1000}, limit=12)
    for i in range(2):
        sim.tcp(S[i], D[i], window=40, packet_size=500)
    same_as_ns2_layer(sim, 4, tmp_path)


# ---- CoDel --------------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {},
    {"target": "2ms", "interval": "50ms", "min_bytes": 0},
    {"use_ecn": True, "ce_threshold": "10ms"},
])
def test_codel_is_the_ns2_layers(tmp_path, params):
    """CoDel through the API and through its `to_tcl()` script (Dumbbell's
    `Queue/CoDel`) under `dumbbell run`: the same trace and counters."""
    sim, S, D, _ = _dumbbell(3, queue="CoDel", queue_params=params, limit=100)
    for i in range(3):
        sim.tcp(S[i], D[i], window=100, ecn=bool(params.get("use_ecn")), start=0.2 * i)
    res = same_as_ns2_layer(sim, 5, tmp_path)
    assert res.queues.filter(src=0, dst=1)["drops_pkts"][0] > 0 or params.get("use_ecn")


def test_codel_that_never_acts_is_droptail(tmp_path):
    """A CoDel queue whose target is never exceeded drops only when full,
    exactly as the DropTail queue of the capacity.  (The capacities are
    counted as their models count them: CoDel's, ns-3's MaxSize, is the
    packets it holds; ns-2's limit_ of a DropTail queue counts the packet
    being sent too, so DropTail 21 holds what CoDel 20 holds.)"""
    def sim_with(queue, qp=None, limit=20):
        sim, S, D, _ = _dumbbell(3, queue=queue, queue_params=qp, limit=limit)
        for i in range(3):
            sim.tcp(S[i], D[i], window=60, start=0.2 * i, trace_vars=("cwnd_",))
        return sim

    codel = sim_with("CoDel", {"target": 1000, "interval": 1000}).run(until=5, trace_packets=True)
    drop = same_as_ns2_layer(sim_with("DropTail", limit=21), 5, tmp_path)
    assert codel.flows.equals(drop.flows)
    assert codel.events.equals(drop.events)
    assert codel.vars.equals(drop.vars)


def test_codel_controls_the_queue():
    def run(queue, qp=None):
        sim, S, D, _ = _dumbbell(3, queue=queue, queue_params=qp, limit=200)
        for i in range(3):
            sim.tcp(S[i], D[i], window=200)
        return sim.run(until=8).queues.filter(src=0, dst=1).row(0, named=True)

    dt, cd = run("DropTail"), run("CoDel")
    ecn = run("CoDel", {"target": "2ms", "interval": "50ms", "min_bytes": 0, "use_ecn": False})
    assert cd["mean_queue_pkts"] < dt["mean_queue_pkts"] / 3
    assert ecn["mean_queue_pkts"] < cd["mean_queue_pkts"]
    assert cd["drops_pkts"] > 0
    assert "$n(1) 1.5Mb 20ms CoDel\n" in _dumbbell(1, queue="CoDel")[0].to_tcl(1)


# ---- PIE ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {},
    {"t_update": "30ms", "queue_delay_reference": "5ms", "max_burst_allowance": 0.05, "a": 0.25, "b": 2.5},
    {"use_ecn": True, "mark_ecn_threshold": 0.3, "use_derandomization": True},
    {"bytes": True, "mean_pkt_size": 1000, "use_dequeue_rate_estimator": True, "dequeue_threshold": 5000,
     "use_cap_drop_adjustment": False, "active_threshold": "2ms"},
])
def test_pie_is_the_ns2_layers(tmp_path, params):
    """PIE through the API and through its `to_tcl()` script (Dumbbell's
    `Queue/PIE`) under `dumbbell run`: the same trace and counters, its
    random draws included (ns-2's default stream in both)."""
    sim, S, D, _ = _dumbbell(3, queue="PIE", queue_params=params, limit=100)
    for i in range(3):
        sim.tcp(S[i], D[i], window=100, ecn=bool(params.get("use_ecn")), start=0.2 * i)
    res = same_as_ns2_layer(sim, 5, tmp_path)
    q = res.queues.filter(src=0, dst=1).row(0, named=True)
    assert q["drops_pkts"] > 0 or params.get("use_ecn")


def test_pie_that_never_acts_is_droptail(tmp_path):
    """A PIE queue whose reference delay is never exceeded (and whose draws
    never come) drops only when full, exactly as the DropTail queue of the
    capacity (DropTail 21 holds what PIE 20 holds, as for CoDel)."""
    def sim_with(queue, qp=None, limit=20):
        sim, S, D, _ = _dumbbell(3, queue=queue, queue_params=qp, limit=limit)
        for i in range(3):
            sim.tcp(S[i], D[i], window=60, start=0.2 * i, trace_vars=("cwnd_",))
        return sim

    pie = sim_with("PIE", {"queue_delay_reference": 1000}).run(until=5, trace_packets=True)
    drop = same_as_ns2_layer(sim_with("DropTail", limit=21), 5, tmp_path)
    assert pie.flows.equals(drop.flows)
    assert pie.events.equals(drop.events)
    assert pie.vars.equals(drop.vars)


def test_pie_controls_the_queue():
    def run(queue, qp=None):
        sim, S, D, _ = _dumbbell(3, queue=queue, queue_params=qp, limit=200)
        for i in range(3):
            sim.tcp(S[i], D[i], window=200)
        return sim.run(until=8).queues.filter(src=0, dst=1).row(0, named=True)

    dt, pie = run("DropTail"), run("PIE")
    low = run("PIE", {"queue_delay_reference": "3ms"})
    assert pie["mean_queue_pkts"] < dt["mean_queue_pkts"] / 3
    assert low["mean_queue_pkts"] < pie["mean_queue_pkts"]
    assert pie["drops_pkts"] > 0
    assert "$n(1) 1.5Mb 20ms PIE\n" in _dumbbell(1, queue="PIE")[0].to_tcl(1)
    assert db.api.PIE_DEFAULTS["t_update"] == 0.015


# ---- FQ-CoDel -----------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {},
    {"target": "2ms", "interval": "50ms", "use_ecn": False, "quantum": 300, "drop_batch_size": 8},
    {"ce_threshold": "1ms", "flows": 16, "set_ways": 4, "enable_set_associative_hash": True, "perturbation": 77},
])
def test_fq_codel_is_the_ns2_layers(tmp_path, params):
    """FQ-CoDel through the API and through its `to_tcl()` script
    (Dumbbell's `Queue/FQ_CoDel`) under `dumbbell run`: the same trace and
    counters."""
    sim, S, D, _ = _dumbbell(3, queue="FQ_CoDel", queue_params=params, limit=40)
    for i in range(3):
        sim.tcp(S[i], D[i], window=100, ecn=i != 1, start=0.2 * i)
    res = same_as_ns2_layer(sim, 5, tmp_path)
    assert res.queues.filter(src=0, dst=1)["departures_pkts"][0] > 500


def test_fq_codel_shares_the_link():
    """Three flows of different RTTs: FQ-CoDel shares the bottleneck more
    evenly than DropTail, with a smaller queue."""
    def run(queue):
        sim, S, D, _ = _dumbbell(3, queue=queue, limit=200)
        for i in range(3):
            sim.tcp(S[i], D[i], window=200)
        res = sim.run(until=10)
        got = sorted(res.flows["bytes_received"].to_list())
        return got[0] / got[-1], res.queues.filter(src=0, dst=1).row(0, named=True)

    (fair_dt, dt), (fair_fq, fq) = run("DropTail"), run("FQ_CoDel")
    assert fair_fq > fair_dt and fair_fq > 0.8
    assert fq["mean_queue_pkts"] < dt["mean_queue_pkts"] / 3
    assert "$n(1) 1.5Mb 20ms FQ_CoDel\n" in _dumbbell(1, queue="FQ_CoDel")[0].to_tcl(1)
    assert db.api.FQ_CODEL_DEFAULTS["use_ecn"] is True


# ---- the builder is the ns-2 layer's --------------------------------------------------------------

def test_class_defaults_are_the_ns2_layers():
    from dumbbell._engine import Builder, Engine
    from dumbbell.api._sim import _defaults_text
    from dumbbell.ns2.runner import Ns2Runner

    r = Ns2Runner("<test>", [])
    text = _defaults_text()
    classes = [(k, k) for k in Engine.kinds() if k not in ("RNG/default", "RNG/rtglib")]
    classes += [("Application", "Application/FTP"), ("ErrorModel", "ErrorModel/Uniform")]
    for kind, cls in classes:
        d = r.tcl.splitlist(r.tcl.call("::dumbbell::class_defaults", kind, cls))
        want = [(d[i], d[i + 1]) for i in range(0, len(d), 2)]
        assert Builder.class_defaults(text, kind, cls) == want, cls


def test_tcl_array_order_is_tcls():
    import tkinter

    from dumbbell._engine import Builder

    t = tkinter.Tcl()
    rnd = random.Random(5)
    for n in (1, 4, 11, 12, 13, 47, 48, 49, 200, 3000):
        for keys in ([str(i) for i in range(n)], [f"{rnd.randrange(n)}:{rnd.randrange(n)}" for _ in range(n)]):
            keys = list(dict.fromkeys(keys))
            t.eval("array unset a")
            for k in keys:
                t.call("set", f"a({k})", "1")
            assert [keys[i] for i in Builder.tcl_array_order(keys)] == list(t.splitlist(t.eval("array names a")))


# ---- errors -----------------------------------------------------------------------------------------

def test_engine_errors_and_panics_become_simulation_errors(monkeypatch):
    sim = db.Simulation()
    A, B = sim.nodes(2)
    sim.link(A, B)
    sim.tcp(A, B)
    real = db.Simulation._build

    def panics(self, b, *a):
        b.debug_panic()

    monkeypatch.setattr(db.Simulation, "_build", panics)
    with pytest.raises(SimulationError, match=r"internal error in the engine \(a bug in Dumbbell\).*deliberate"):
        sim.run(until=1)

    def refused(self, b, *a):
        objs = real(self, b, *a)
        b.set_var(objs["tcps"][0], "no_such_var_", "1")
        return objs

    monkeypatch.setattr(db.Simulation, "_build", refused)
    with pytest.raises(SimulationError, match=r"the engine refused the scenario: .*no_such_var_"):
        sim.run(until=1)
    monkeypatch.undo()
    assert sim.run(until=1).flows.height == 1


@pytest.mark.parametrize("call, msg", [
    (lambda s, A, B: s.udp(A, B, traffic="video"), r"udp\(\): unknown traffic 'video'"),
    (lambda s, A, B: s.udp(A, B, sink="bucket"), r"udp\(\): unknown sink 'bucket'"),
    (lambda s, A, B: s.udp(A, B, rate="fast"), r"udp\(\): rate must be .* got 'fast'"),
    (lambda s, A, B: s.udp(A, B, burst_time=1), r"udp\(\): unknown parameter 'burst_time' for Application/Traffic/CBR"),
    (lambda s, A, B: s.udp(A, B, start=2, stop=1), r"udp\(\): stop \(1\) must be later than start \(2\)"),
    (lambda s, A, B: s.udp(A, B, agent_params={"dst_port": 3}), r"udp\(\): agent_params: dst_port is set by the API"),
    (lambda s, A, B: s.error_model(A, B, rate=1.5), r"error_model\(\): rate must be a number in \[0.0, 1.0\], got 1.5"),
    (lambda s, A, B: s.error_model(A, B), r"error_model\(\): a uniform error model needs a rate"),
    (lambda s, A, B: s.error_model(A, B, kind="periodic"), r"error_model\(\): a periodic error model needs a period"),
    (lambda s, A, B: s.error_model(A, B, kind="list", drops=[1, 1]), r"error_model\(\): drops lists a packet twice"),
    (lambda s, A, B: s.error_model(A, B, rate=0.1, where="middle"), r"error_model\(\): where must be 'link'"),
    (lambda s, A, B: s.error_model(B, A, rate=0.1, unit="bit"), r"error_model\(\): unit must be 'pkt' or 'byte', got 'bit'"),
    (lambda s, A, B: s.tcp(A, B, app="http"), r"tcp\(\): unknown app 'http'"),
    (lambda s, A, B: s.tcp(A, B, app="telnet", app_params={"rate": 3}), r"tcp\(\): app_params: unknown parameter 'rate' for Application/Telnet"),
    (lambda s, A, B: s.tcp(A, B, variant="cubic"), r"tcp\(\): unknown variant 'cubic'"),
    (lambda s, A, B: s.link(A, B, queue="CoDel", queue_params={"target": -1}), r"link\(\): queue_params: target must be"),
    (lambda s, A, B: s.link(A, B, queue="CoDel", queue_params={"quantum": 1}), r"link\(\): queue_params: unknown parameter 'quantum' for CoDel"),
    (lambda s, A, B: s.link(A, B, queue="CoDel", queue_params={"use_ecn": "yes"}), r"link\(\): queue_params: use_ecn must be True or False, got 'yes'"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"t_update": 0}), r"link\(\): queue_params: t_update must be a time of 1 ns or more \(below 9e9 s\), got 0"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"target": "5ms"}), r"link\(\): queue_params: unknown parameter 'target' for PIE; known: a, b, t_update"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"mark_ecn_threshold": 1.5}), r"link\(\): queue_params: mark_ecn_threshold must be a number from 0 to 1, got 1.5"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"mean_pkt_size": 0}), r"link\(\): queue_params: mean_pkt_size must be an integer from 1 to 2\*\*31-1 \(bytes\), got 0"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"a": float("nan")}), r"link\(\): queue_params: a must be a finite number, got nan"),
    (lambda s, A, B: s.link(A, B, queue="PIE", queue_params={"use_ecn": 1}), r"link\(\): queue_params: use_ecn must be True or False, got 1"),
    (lambda s, A, B: s.link(A, B, queue="FQ_CoDel", queue_params={"flows": 0}), r"link\(\): queue_params: flows must be an integer from 1 to 2\*\*31-1, got 0"),
    (lambda s, A, B: s.link(A, B, queue="FQ_CoDel", queue_params={"enable_set_associative_hash": True, "set_ways": 3}), r"link\(\): queue_params: with enable_set_associative_hash, flows \(1024\) must be a multiple of set_ways \(3\)"),
    (lambda s, A, B: s.link(A, B, queue="FQ_CoDel", queue_params={"target": "0ms"}), r"link\(\): queue_params: target must be positive, got '0ms'"),
    (lambda s, A, B: s.link(A, B, queue="FQ_CoDel", queue_params={"min_bytes": 1}), r"link\(\): queue_params: unknown parameter 'min_bytes' for FQ_CoDel; known: target"),
    (lambda s, A, B: s.link(A, B, queue="FQ_CoDel", queue_params={"ce_threshold": -1}), r"link\(\): queue_params: ce_threshold must be a non-negative number of seconds, got -1"),
])
def test_new_calls_check_their_input(call, msg):
    sim = db.Simulation()
    A, B, C = sim.nodes(3)
    sim.link(A, C)
    if "link(" not in msg:
        sim.link(A, B)
    with pytest.raises(ValueError, match=msg):
        call(sim, A, B)


def test_error_model_needs_a_link_and_one_per_place():
    sim = db.Simulation()
    A, B = sim.nodes(2)
    with pytest.raises(ValueError, match=r"error_model\(\): there is no link 0->1"):
        sim.error_model(A, B, rate=0.1)
    sim.link(A, B)
    sim.error_model(A, B, rate=0.1)
    with pytest.raises(ValueError, match=r"error_model\(\): link 0->1 has an error model at 'link' already"):
        sim.error_model(A, B, rate=0.2)
    sim.error_model(A, B, rate=0.2, where="queue")


def test_udp_needs_a_route():
    sim = db.Simulation()
    A, B = sim.nodes(2)
    sim.link(A, B, duplex=False)
    sim.udp(B, A)
    with pytest.raises(ValueError, match=r"source 0: no route from node 1 to node 0 for its data"):
        sim.run(until=1)
