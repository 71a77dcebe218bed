"""Issue 18's schedulers and AQMs from Python that had no API test of their
own: ns-2's `Queue/DropTail/PriQueue` on a wired link, `FQ`, `SRR` (with
its rates and flow-to-queue map) and `PI`, each the same trace and counters as the API's
`to_tcl()` script under `dumbbell run` and under the real ns-2; and the
per-class plots (`Result.class_series`, `Result.plot_classes`) on a
three-class CBQ link and an SCFQ link."""

from __future__ import annotations

import shutil
import signal
import subprocess

import polars as pl
import pytest

import dumbbell as db
from test_builder_exact import _dumbbell, same_as_ns2_layer


@pytest.mark.parametrize("queue, params", [
    ("DropTail/PriQueue", {}),
    ("PriQueue", {"drop_front": True}),
    ("FQ", {}),
    ("FQ", {"flow_queue": "SFQ", "flow_params": {"maxqueue": 12, "buckets": 4}}),
    ("FQ", {"flow_queue": "drr", "flow_params": {"blimit": 4000, "quantum": 600}}),
    ("FQ", {"flow_queue": "SFQ"}),
    ("SRR", {}),
    ("SRR", {"granularity": 1000, "mtu": 1000, "blimit": 20000, "rates": {0: 600000, 1: 300000, 2: 100000},
             "classify": {1: 1, 2: 2, 3: 1}}),
    ("PI", {"qref": 8, "w": 200}),
])
def test_api_is_the_script_and_ns2(tmp_path, queue, params):
    sim, S, D, bott = _dumbbell(4, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="700Kb", packet_size=700, random=1, start=0.3)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    q = res.queues.filter(src=bott.src.id, dst=bott.dst.id).row(0, named=True)
    assert q["drops_pkts"] > 0
    name = "DropTail/PriQueue" if queue == "PriQueue" else queue
    assert f"1.5Mb 20ms {name}\n" in sim.to_tcl(4)


def test_priqueue_on_a_wired_link_is_droptail():
    """ns-2's PriQueue moves only routing-protocol packets (DSR, Message,
    TORA, AODV...) to the head; a wired link here carries none, so its
    trace is DropTail's."""
    traces = []
    for queue in ("DropTail", "DropTail/PriQueue"):
        sim, S, D, _ = _dumbbell(3, queue=queue)
        for i in range(3):
            sim.tcp(S[i], D[i], variant="reno", window=30, start=0.05 * i)
        res = sim.run(until=3, trace_packets=True)
        traces.append(res.events.drop("flow", strict=False))
    assert traces[0].equals(traces[1])
    assert traces[0].filter(pl.col("event") == "d").height > 0


def _cbq_three_classes(tmp_path=None):
    sim, S, D, bott = _dumbbell(5, queue="CBQ", limit=10, queue_params={"classes": [
        {"name": "root", "allot": 1.0, "borrow": False},
        {"name": "voice", "parent": "root", "allot": 0.2, "priority": 1, "flows": [4]},
        {"name": "web", "parent": "root", "allot": 0.3, "priority": 2, "flows": [0]},
        {"name": "bulk", "parent": "root", "allot": 0.5, "priority": 3, "flows": [1, 2, 3]},
    ]})
    for i in range(4):
        sim.tcp(S[i], D[i], variant="newreno", window=60, start=0.1 * i)
    sim.udp(S[4], D[4], traffic="cbr", rate="200Kb", packet_size=200, start=0.5)
    return sim, bott


def test_class_series_counts_every_dequeue_of_each_class():
    sim, bott = _cbq_three_classes()
    res = sim.run(until=8, trace_packets=True)
    s = res.class_series(bott, bin=1.0)
    assert s["class"].unique(maintain_order=True).to_list() == ["voice", "web", "bulk"]
    assert s.height == 3 * 8
    at = res.events.filter(pl.col("from_node") == bott.src.id, pl.col("to_node") == bott.dst.id)
    fids = {"voice": [4], "web": [0], "bulk": [1, 2, 3]}
    for name, f in fids.items():
        c = s.filter(pl.col("class") == name)
        deq = at.filter(pl.col("event") == "-", pl.col("fid").is_in(f))
        assert c["packets"].sum() == deq.height > 0, name
        assert c["bytes"].sum() == deq["size"].sum(), name
        assert c["drops"].sum() == at.filter(pl.col("event") == "d", pl.col("fid").is_in(f)).height, name
        # throughput is the bytes of each 1 s bin
        assert c["throughput_bps"].to_list() == [b * 8.0 for b in c["bytes"].to_list()]
    per = s.group_by("class").agg(pl.col("bytes").sum(), pl.col("mean_delay").mean(), pl.col("drops").sum())
    row = {r["class"]: r for r in per.iter_rows(named=True)}
    # the priority-1 voice class waits least and loses nothing; bulk waits most
    assert row["voice"]["drops"] == 0 and row["bulk"]["drops"] > 0
    assert row["voice"]["mean_delay"] < row["web"]["mean_delay"] < row["bulk"]["mean_delay"]
    # the CBR's 200 kb/s get through whole after its start
    assert abs(s.filter(pl.col("class") == "voice", pl.col("time") >= 1)["throughput_bps"].mean() - 200e3) < 10e3
    # a delay is a dequeue time minus the enqueue time of the same packet
    v = s.filter(pl.col("class") == "voice", pl.col("packets") > 0)
    assert (v["max_delay"] >= v["mean_delay"]).all() and (v["mean_delay"] > 0).all()


def test_plot_classes_of_a_cbq_link(tmp_path):
    sim, bott = _cbq_three_classes()
    res = sim.run(until=6, trace_packets=True)
    fig = res.plot_classes(bott, tmp_path / "classes.png")
    assert (tmp_path / "classes.png").stat().st_size > 10_000
    top, bottom = fig.axes[:2]
    assert [t.get_text().split(" (")[0] for t in top.get_legend().get_texts()] == ["voice", "web", "bulk"]
    assert len(bottom.get_lines()) == 3 and bottom.get_ylabel() == "mean queue delay (ms)"


def test_scfq_classes_by_default():
    sim, S, D, bott = _dumbbell(4, queue="SCFQ", limit=30, queue_params={
        "classes": [{"id": 0, "weight": 0.5}, {"id": 1, "weight": 0.3}, {"id": 2, "weight": 0.2}],
        "classify": {0: 0, 1: 1}, "default_class": 2})
    for i in range(4):
        sim.tcp(S[i], D[i], variant="newreno", window=60)
    res = sim.run(until=6, trace_packets=True)
    s = res.class_series(bott, window=(2, 6))
    share = s.group_by("class", maintain_order=True).agg(pl.col("bytes").sum())
    got = dict(zip(share["class"], share["bytes"]))
    assert list(got) == ["class 0", "class 1", "class 2"]
    total = sum(got.values())
    # the weights 0.5 / 0.3 / 0.2 (class 2 holds fids 2 and 3)
    assert [round(got[k] / total, 1) for k in got] == [0.5, 0.3, 0.2]


def test_bad_class_arguments_are_errors():
    sim, bott = _cbq_three_classes()
    res = sim.run(until=1, trace_packets=True)
    with pytest.raises(ValueError, match="more than one class"):
        res.class_series(bott, {"a": [0, 1], "b": [1]})
    with pytest.raises(ValueError, match="groups must be a non-empty mapping"):
        res.class_series(bott, {})
    with pytest.raises(ValueError, match="delay_unit"):
        res.plot_classes(bott, delay_unit="us")
    sim2, S, D, b2 = _dumbbell(1)
    sim2.tcp(S[0], D[0])
    res2 = sim2.run(until=1, trace_packets=True)
    with pytest.raises(ValueError, match="has no classes of its own"):
        res2.plot_classes(b2)


@pytest.mark.parametrize("queue, needs", [("XCP", "XCP agents"), ("dsRED", "dsRED/edge or dsRED/core")])
def test_script_only_queues_say_why_at_link(queue, needs):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    with pytest.raises(ValueError, match=f"reachable from ns-2 scripts only: .*{needs}"):
        sim.link(a, b, queue=queue)


def test_red_nonlinear_from_python_is_the_script(tmp_path):
    """RED's `nonlinear_` (ns-3's NLRED, not in ns-2 2.35) from queue_params:
    the API's run is its to_tcl() script's under `dumbbell run`, and the
    quadratic curve drops fewer packets early than the linear one."""
    early = {}
    for nl in (False, True):
        sim, S, D, bott = _dumbbell(4, queue="RED", limit=60, queue_params={
            "thresh": 5, "maxthresh": 40, "linterm": 2, "q_weight": 0.02, "nonlinear": nl})
        for i in range(4):
            sim.tcp(S[i], D[i], variant="newreno", window=80, start=0.1 * i)
        res = same_as_ns2_layer(sim, 6, tmp_path)
        at = res.events.filter(pl.col("from_node") == bott.src.id, pl.col("to_node") == bott.dst.id)
        early[nl] = at.filter(pl.col("event") == "d").height
        assert ("set nonlinear_ true" in sim.to_tcl(6)) == nl
    assert 0 < early[True] < early[False], early


@pytest.mark.parametrize("flow_queue, flow_params", [
    ("SFQ", {"maxqueue": 10, "buckets": 3}),
    ("DRR", {"blimit": 3000, "quantum": 500, "buckets": 4}),
])
def test_fq_sfq_and_drr_flow_queues_are_the_script_and_ns2(tmp_path, flow_queue, flow_params):
    """An FQ link with SFQ or DRR flow queues (ns-2's FQLink
    queueManagement_): flows of one id from several sources share a flow
    queue, which schedules them by its own hash; the API's run, its
    to_tcl() script and ns-2 write the same trace, with drops."""
    sim, S, D, bott = _dumbbell(5, queue="FQ", queue_params={"flow_queue": flow_queue, "flow_params": flow_params})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i, flow_id=1, packet_size=500 + 500 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="500Kb", packet_size=100, random=1, start=0.3, flow_id=1)
    sim.udp(S[4], D[4], traffic="cbr", rate="700Kb", packet_size=700, random=1, start=0.2, flow_id=2)
    same_as_ns2_layer(sim, 5, tmp_path, ns2=True)
    script = sim.to_tcl(5)
    assert f"FQLink set queueManagement_ {flow_queue}\n" in script
    trace = [ln.split() for ln in (tmp_path / "api.tr").read_text().splitlines()]
    assert sum(1 for f in trace if f[0] == "d" and f[2:4] == [str(bott.src.id), str(bott.dst.id)]) > 0


@pytest.mark.parametrize("params, message", [
    ({"flow_queue": "Marker"}, "FQ flow_queue must be 'DropTail', 'RED', 'SFQ', 'DRR', 'PI', 'REM', 'Vq', 'GK', 'SRR', 'RIO' or 'PriQueue', got 'Marker'"),
    ({"flow_queue": "SFQ", "flow_params": [1]}, "FQ flow_params must be a dict of Queue/SFQ variables"),
    ({"flow_params": {"maxqueue": 3}}, "FQ flow_params are for flow queues other than DropTail"),
    ({"flow_queue": "RED", "flow_params": {"thresh": 9, "maxthresh": 3}}, "thresh (9) must not be above maxthresh (3)"),
    ({"flow_queue": "PI", "flow_params": {"blimit": 3}}, "unknown parameter 'blimit' for Queue/PI"),
    ({"flow_queue": "DRR", "flow_params": {"quantum": 0}}, "FQ flow_params: quantum_ must be a positive integer, got 0"),
    ({"flow_queue": "SFQ", "flow_params": {"buckets": 0}}, "FQ flow_params: buckets_ must be a positive integer, got 0"),
    ({"flow_queue": "DRR", "flow_params": {"limit": 10}}, "Queue/DRR's limit_ is not read by an DRR flow queue"),
    ({"flow_queue": "SFQ", "flow_params": {"blimit": 10}}, "unknown parameter 'blimit' for Queue/SFQ"),
])
def test_bad_fq_flow_queues_are_errors(params, message):
    with pytest.raises(ValueError) as e:
        _dumbbell(1, queue="FQ", queue_params=params)
    assert message in str(e.value)


def test_fq_flow_queues_are_one_kind_per_scenario():
    sim, S, D, bott = _dumbbell(1, queue="FQ", queue_params={"flow_queue": "DRR"})
    with pytest.raises(ValueError) as e:
        sim.link(D[0], S[0], "1Mb", "5ms", queue="FQ", queue_params={"flow_queue": "SFQ"}, duplex=False)
    assert "FQ flow_queue SFQ with flow_params {} differs from that of the FQ link(s) made before (DRR {})" in str(e.value)


@pytest.mark.parametrize("flow_queue, flow_params", [
    ("RED", {"q_weight": 0.02, "thresh": 2, "maxthresh": 6, "limit": 15}),
    ("PI", {"qref": 4, "a": 0.01, "b": 0.0099, "limit": 15}),
    ("REM", {"pbo": 3, "gamma": 0.01, "limit": 20}),
    ("Vq", {"queue_in_bytes": False, "mean_pktsize": 500}),
    ("GK", {"ecnlim": 0.3, "limit": 12}),
    ("SRR", {"limit": 10}),
    ("RIO", {"q_weight": 0.02, "thresh": 2, "maxthresh": 6, "out_thresh": 2, "out_maxthresh": 6, "limit": 14}),
])
def test_fq_aqm_flow_queues_are_the_script_and_ns2(tmp_path, flow_queue, flow_params):
    """An FQ link with RED, PI, REM, Vq, GK, SRR or RIO flow queues, each
    made at its flow's first packet with that class's variables (PI's and
    REM's timers starting then): the API's run, its to_tcl() script and
    ns-2 write the same trace, with drops."""
    sim, S, D, bott = _dumbbell(4, queue="FQ", queue_params={"flow_queue": flow_queue, "flow_params": flow_params})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.4 * i, flow_id=i % 2, packet_size=500 + 500 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="600Kb", packet_size=300, random=1, start=0.3, flow_id=2)
    same_as_ns2_layer(sim, 5, tmp_path, ns2=True)
    kind = {"RIO": "RED/RIO"}.get(flow_queue, flow_queue)
    assert f"FQLink set queueManagement_ {kind}\n" in sim.to_tcl(5)
    trace = [ln.split() for ln in (tmp_path / "api.tr").read_text().splitlines()]
    assert sum(1 for f in trace if f[0] == "d" and f[2:4] == [str(bott.src.id), str(bott.dst.id)]) > 0


def test_a_red_flow_queue_with_red_defaults_stops_as_ns2_does(tmp_path):
    """RED's default q_weight_ (-1) is never turned into a weight in a flow
    queue (ns-2 neither resets nor links it): its average doubles at each
    arrival until it overflows, which stops the run with the reason (here
    after 5 s), where ns-2 dies of a floating-point exception."""
    sim, S, D, bott = _dumbbell(2, queue="FQ", queue_params={"flow_queue": "RED"})
    for i in range(2):
        sim.tcp(S[i], D[i], variant="newreno", window=40, flow_id=i)
    assert sim.run(until=5).flows["bytes_received"].min() > 0
    with pytest.raises(db.SimulationError) as e:
        sim.run(until=12)
    assert "average queue overflows: with a queue weight of -1" in str(e.value)
    if shutil.which("ns"):
        # (traced: ns-2's FQLink needs its drop trace)
        (tmp_path / "exp.tcl").write_text(sim.to_tcl(12, trace_packets=True))
        r = subprocess.run(["ns", "exp.tcl"], cwd=tmp_path, capture_output=True, timeout=300)
        assert r.returncode == -signal.SIGFPE or r.returncode == 128 + signal.SIGFPE, r.returncode


def test_set_bandwidth_is_the_script_and_ns2(tmp_path):
    """A link's bandwidth changed mid-run (`$ns at T "[$l link] set
    bandwidth_ BW"`), a DropTail bottleneck and a CBQ one, whose estimator
    reads the new rate as ns-2's CBQ asks the link: the API's run, its
    script and ns-2 agree, and the change shows (fewer bytes through)."""
    got = {}
    for queue, params in (("DropTail", None), ("CBQ", {"classes": [
            {"name": "root", "allot": 0.98, "borrow": False},
            {"name": "a", "parent": "root", "allot": 0.5, "borrow": True, "flows": [0]},
            {"name": "b", "parent": "root", "allot": 0.3, "borrow": False, "flows": [1]}]})):
        for change in (False, True):
            sim, S, D, bott = _dumbbell(2, queue=queue, queue_params=params)
            for i in range(2):
                sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.2 * i, flow_id=i)
            if change:
                assert sim.set_bandwidth(bott.src, bott.dst, 2.0, "500Kb") is bott
                sim.set_bandwidth(bott.src, bott.dst, "3.5s", 2e6)
            d = tmp_path / f"{queue}{change}"
            d.mkdir()
            res = same_as_ns2_layer(sim, 5, d, ns2=True)
            got[queue, change] = sum(res.flows["bytes_received"].to_list())
            if change:
                assert 'set bandwidth_ 500Kb"' in sim.to_tcl(5)
    assert got["DropTail", True] < got["DropTail", False]
    assert got["CBQ", True] < got["CBQ", False]


@pytest.mark.parametrize("bw, message", [(0, "bandwidth must be a positive number"), ("fast", "bandwidth")])
def test_bad_set_bandwidth_is_an_error(bw, message):
    sim, S, D, bott = _dumbbell(1)
    with pytest.raises(ValueError) as e:
        sim.set_bandwidth(bott.src, bott.dst, 1.0, bw)
    assert message in str(e.value)
