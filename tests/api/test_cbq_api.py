"""`queue="CBQ"` and `"CBQ/WRR"` (ns-2 2.35's class-based queueing) through
the Python API: classes with allotments, priorities, borrowing and bounds,
flows bound to leaf classes; the same trace and counters as the API's
`to_tcl()` script (CBQClass, setparams, install-queue, insert, bind) under
`dumbbell run` and under the real ns-2; bad parameters are clear errors."""

from __future__ import annotations

import pytest

import dumbbell as db
from dumbbell.api._sim import _cbq_automaxidle
from test_builder_exact import _dumbbell, same_as_ns2_layer


def _classes(borrow: bool, **top):
    # a root, an inner agency class, and three leaves of two priorities
    return [
        {"name": "root", "allot": 0.98, "borrow": False, **top},
        {"name": "agency", "parent": "root", "allot": 0.5, "borrow": True},
        {"name": "audio", "parent": "agency", "allot": 0.1, "priority": 1, "borrow": borrow, "limit": 10,
         "flows": [3]},
        {"name": "bulk", "parent": "agency", "allot": 0.3, "priority": 2, "borrow": borrow, "flows": [0, 1]},
        {"name": "other", "parent": "root", "allot": 0.4, "priority": 2, "maxidle": 0.01, "limit": 20,
         "flows": 2},
    ]


@pytest.mark.parametrize("queue, params", [
    ("CBQ", {"classes": _classes(True)}),
    ("CBQ", {"classes": _classes(False), "algorithm": "formal"}),
    ("CBQ", {"classes": _classes(True), "algorithm": "top-level", "maxpkt": 1000}),
    ("CBQ/WRR", {"classes": _classes(True)}),
    ("CBQ/WRR", {"classes": _classes(False), "algorithm": 2}),
])
def test_api_is_the_script_and_ns2(tmp_path, queue, params):
    sim, S, D, bott = _dumbbell(4, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="400Kb", packet_size=200, start=0.3)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    script = sim.to_tcl(4)
    assert f"1.5Mb 20ms {queue}\n" in script and "install-queue" in script
    # each flow's share follows its class
    got = {r["flow"]: r["bytes_received"] for r in res.flows.iter_rows(named=True)}
    assert all(v > 0 for v in got.values())


def test_classes_decide_the_shares():
    """A bounded class (no borrowing) stays under its allotment (ns-2's
    regulation keeps this one TCP flow at about 5% of the link, the real
    ns-2 giving the same bytes); borrowing from the root, it takes what the
    idle class leaves."""
    def run(borrow):
        sim, S, D, _ = _dumbbell(2, queue="CBQ", limit=50, queue_params={"classes": [
            {"name": "root", "allot": 1.0, "borrow": False},
            {"name": "small", "parent": "root", "allot": 0.2, "borrow": borrow, "flows": [0]},
            {"name": "idle", "parent": "root", "allot": 0.8, "flows": [1]},
        ]})
        sim.tcp(S[0], D[0], variant="newreno", window=60)
        res = sim.run(until=10)
        return res.flows.row(0, named=True)["bytes_received"] * 8 / 10 / 1.5e6
    bounded, borrowing = run(False), run(True)
    assert 0.02 < bounded < 0.2
    assert borrowing > 0.9


def test_automaxidle_is_cbq_tcl():
    # lib/cbq.tcl: max((1/a - 1)(1 - g^n)/g^n, 1 - g) transmission times of maxpkt
    g = 0.9375
    assert _cbq_automaxidle(0.3, 0, 1.5e6, 1024) == (1024 * 8.0 / 1.5e6) * (1 - g)
    gn = g ** 16
    assert _cbq_automaxidle(0.1, 2, 1.5e6, 1024) == (1024 * 8.0 / 1.5e6) * (((1 / 0.1) - 1) * (1 - gn) / gn)
    assert _cbq_automaxidle(0.0, 1, 1.5e6, 1024) == 0.0


def test_a_flow_bound_to_no_class_is_an_error():
    # ns-2's CBQ link stops at the flow's first packet (its classifier's
    # unknown-flow); the API's run stops there too, naming the flow
    sim, S, D, _ = _dumbbell(2, queue="CBQ", queue_params={"classes": [
        {"name": "root", "allot": 1.0, "borrow": False},
        {"name": "a", "parent": "root", "allot": 0.5, "flows": [0]},
    ]})
    sim.tcp(S[0], D[0])
    sim.tcp(S[1], D[1])
    with pytest.raises((ValueError, db.api.SimulationError)) as e:
        sim.run(until=2)
    assert "a packet of flow 1 reached a CBQ queue none of whose classes has that flow" in str(e.value)


@pytest.mark.parametrize("params, message", [
    ({}, "CBQ 'classes' must be a non-empty list"),
    ({"classes": [{"name": "a", "allot": 1.5}]}, "allot must be a share of the link from 0 to 1, got 1.5"),
    ({"classes": [{"name": "a", "allot": 0.5, "parent": "b"}]}, "parent 'b' must be the name of a class listed before"),
    ({"classes": [{"name": "a", "allot": 0.5}, {"name": "a", "allot": 0.2}]}, "class name 'a' is given twice"),
    ({"classes": [{"name": "a", "allot": 0.5, "flows": [1]}, {"name": "b", "parent": "a", "allot": 0.2}]},
     "class 'a' is a parent (inner class): it has no queue"),
    ({"classes": [{"name": "a", "allot": 0.5, "priority": 10}]}, "priority must be an integer from 0"),
    ({"classes": [{"name": "a", "allot": 0.5, "maxidle": "soon"}]}, "maxidle must be 'auto' or a number"),
    ({"classes": [{"name": "a", "allot": 0.5, "flows": [1]}, {"name": "b", "allot": 0.5, "flows": [1]}]},
     "flow 1 is bound to class 'a' already"),
    ({"classes": [{"name": "a", "allot": 0.5, "colour": 1}]}, "unknown key(s) 'colour'"),
    ({"classes": [{"name": "a", "allot": 0.5}], "algorithm": "fastest"}, "CBQ algorithm must be"),
    ({"classes": [{"name": "a", "allot": 0.5}], "maxpkt": 0}, "CBQ maxpkt must be a positive integer"),
    ({"classes": [{"name": "a", "allot": 0.5, "level": 0}]}, "level must be an integer from 1 to 32"),
])
def test_bad_parameters_are_errors(params, message):
    with pytest.raises(ValueError) as e:
        _dumbbell(1, queue="CBQ", queue_params=params)
    assert message in str(e.value)


@pytest.mark.parametrize("queue", ["CBQ", "CBQ/WRR"])
def test_priority_class_goes_first(queue):
    """A CBR source in a priority-1 class loses nothing beside four TCP
    flows filling a priority-2 class; with the priorities swapped it loses
    packets."""
    def lost(cbr_prio, tcp_prio):
        sim, S, D, _ = _dumbbell(5, queue=queue, limit=10, queue_params={"classes": [
            {"name": "root", "allot": 1.0, "borrow": False},
            {"name": "voice", "parent": "root", "allot": 0.3, "priority": cbr_prio, "flows": [4]},
            {"name": "data", "parent": "root", "allot": 0.7, "priority": tcp_prio, "flows": [0, 1, 2, 3]},
        ]})
        for i in range(4):
            sim.tcp(S[i], D[i], variant="newreno", window=60)
        sim.udp(S[4], D[4], traffic="cbr", rate="300Kb", packet_size=500, start=0.5, sink="loss-monitor")
        res = sim.run(until=10)
        r = res.sources.row(0, named=True)
        return r["lost_pkts"], r["received_pkts"]
    first, last = lost(1, 2), lost(2, 1)
    assert first[0] == 0 and first[1] > 700
    assert last[0] > 0


# ---- RED class queues ---------------------------------------------------------------------

def _red_classes(**red):
    # a RED leaf with the given variables, a RED leaf with Queue/RED's
    # defaults and a DropTail leaf
    return [
        {"name": "root", "allot": 0.98, "borrow": False},
        {"name": "red", "parent": "root", "allot": 0.4, "priority": 1, "queue": "RED", "limit": 25,
         "params": red, "flows": [0, 1]},
        {"name": "plain_red", "parent": "root", "allot": 0.3, "priority": 1, "queue": "red", "flows": [2]},
        {"name": "tail", "parent": "root", "allot": 0.28, "priority": 2, "limit": 10, "flows": [3]},
    ]


@pytest.mark.parametrize("queue, params, ecn", [
    ("CBQ", {"classes": _red_classes()}, False),
    ("CBQ", {"classes": _red_classes(thresh=3, maxthresh=9, q_weight=0.02, queue_in_bytes=False),
             "algorithm": "formal"}, False),
    ("CBQ/WRR", {"classes": _red_classes(setbit=True, thresh=2, maxthresh=8, q_weight=0.05, linterm=4)}, True),
    ("CBQ/WRR", {"classes": _red_classes(bytes=True, mean_pktsize=1000, thresh=4, maxthresh=12, gentle=False),
                 "algorithm": "top-level", "maxpkt": 1000}, False),
])
def test_red_class_queues_are_the_script_and_ns2(tmp_path, queue, params, ecn):
    """RED class queues (each linked to the CBQ link and reset, as a link's
    own RED queue is): the API's run, its to_tcl() script under `dumbbell
    run` and under ns-2 write the same trace; RED's early drops and ECN
    marks are in it."""
    sim, S, D, bott = _dumbbell(4, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i, **({"ecn_": True} if ecn else {}))
    sim.udp(S[3], D[3], traffic="cbr", rate="500Kb", packet_size=500, start=0.3)
    same_as_ns2_layer(sim, 5, tmp_path, ns2=True)
    script = sim.to_tcl(5)
    assert "set cbq_q [new Queue/RED]" in script and "$cbq_q reset" in script
    assert "set cbq_q [new Queue/DropTail]" in script
    trace = [ln.split() for ln in (tmp_path / "api.tr").read_text().splitlines()]
    # drops at the bottleneck (node 0 -> 1) of the RED class's flows while
    # its queue held fewer than its limit: RED's, not overflow
    held, early = 0, 0
    for f in trace:
        if f[2:4] != ["0", "1"] or f[7] not in ("0", "1"):
            continue
        held += {"+": 1, "-": -1, "d": -1}.get(f[0], 0)
        early += f[0] == "d" and held < 24
    assert early > 0
    marks = sum(1 for f in trace if f[0] == "r" and "E" in f[6])
    assert (marks > 0) == ecn


@pytest.mark.parametrize("cls, message", [
    ({"queue": "FQ_CoDel"}, "queue must be 'DropTail', 'RED', 'SFQ', 'DRR', 'PI', 'REM', 'Vq', 'GK', 'SRR' or 'RIO', "
                            "got 'FQ_CoDel' (ns-2 takes any queue object as a class's queue"),
    ({"queue": 3}, "queue must be 'DropTail', 'RED', 'SFQ', 'DRR', 'PI', 'REM', 'Vq', 'GK', 'SRR' or 'RIO', got 3"),
    ({"queue": "SFQ", "limit": 20}, "an SFQ queue does not read limit_: give its room as params' maxqueue (packets)"),
    ({"queue": "DRR", "limit": 20}, "an DRR queue does not read limit_: give its room as params' blimit (bytes)"),
    ({"queue": "DRR", "params": {"limit": 20}}, "params: an DRR queue does not read limit_"),
    ({"queue": "DRR", "params": {"quantum": 0}}, "params: quantum_ must be a positive integer, got 0"),
    ({"queue": "DRR", "params": {"blimit": -1}}, "params: blimit_ must be zero or a positive integer, got -1"),
    ({"queue": "SFQ", "params": {"buckets": -1}}, "params: buckets_ must be a positive integer, got -1"),
    ({"queue": "SFQ", "params": {"blimit": 100}}, "unknown parameter 'blimit' for Queue/SFQ"),
    ({"queue": "RED", "params": {"thresh": 9, "maxthresh": 3}}, "thresh (9) must not be above maxthresh (3)"),
    ({"queue": "RED", "params": {"colour": 1}}, "colour"),
    ({"queue": "RED", "params": {"limit": 7}}, "give the queue's limit as the class's 'limit'"),
    ({"queue": "RED", "params": [1]}, "params must be a dict of Queue/RED variables"),
])
def test_bad_class_queues_are_errors(cls, message):
    with pytest.raises(ValueError) as e:
        _dumbbell(1, queue="CBQ", queue_params={"classes": [{"name": "a", "allot": 0.5, "flows": [0], **cls}]})
    assert message in str(e.value)


def test_an_inner_class_has_no_queue_kind():
    with pytest.raises(ValueError) as e:
        _dumbbell(1, queue="CBQ", queue_params={"classes": [
            {"name": "a", "allot": 0.5, "queue": "RED"}, {"name": "b", "parent": "a", "allot": 0.2}]})
    assert "class 'a' is a parent (inner class): it has no queue, so no flows, queue, limit or params" in str(e.value)


# ---- SFQ and DRR class queues -------------------------------------------------------------

def _fair_classes(sfq: dict, drr: dict):
    # an SFQ leaf and a DRR leaf, each with flows from several sources, and
    # a DropTail leaf
    return [
        {"name": "root", "allot": 0.98, "borrow": False},
        {"name": "sfq", "parent": "root", "allot": 0.4, "priority": 1, "queue": "SFQ", "params": sfq, "flows": [1]},
        {"name": "drr", "parent": "root", "allot": 0.3, "priority": 1, "queue": "drr", "params": drr, "flows": [2]},
        {"name": "tail", "parent": "root", "allot": 0.28, "priority": 2, "limit": 10, "flows": [3]},
    ]


@pytest.mark.parametrize("queue, params", [
    ("CBQ", {"classes": _fair_classes({}, {})}),
    ("CBQ", {"classes": _fair_classes({"maxqueue": 12, "buckets": 4}, {"blimit": 5000, "quantum": 700, "buckets": 5}),
             "algorithm": "formal"}),
    ("CBQ/WRR", {"classes": _fair_classes({"maxqueue": 9}, {"blimit": 3000, "quantum": 1500, "mask": 1}),
                 "algorithm": "top-level", "maxpkt": 1000}),
])
def test_sfq_and_drr_class_queues_are_the_script_and_ns2(tmp_path, queue, params):
    """SFQ and DRR class queues: the API's run, its to_tcl() script under
    `dumbbell run` and under ns-2 write the same trace; each leaf serves
    flows of one id from three sources, and both drop."""
    sim, S, D, bott = _dumbbell(6, queue=queue, queue_params=params)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i, flow_id=1, packet_size=500 + 500 * i)
    sim.udp(S[3], D[3], traffic="cbr", rate="400Kb", packet_size=1000, random=1, start=0.3, flow_id=2)
    sim.udp(S[4], D[4], traffic="cbr", rate="300Kb", packet_size=100, random=1, start=0.2, flow_id=2)
    sim.udp(S[5], D[5], traffic="cbr", rate="300Kb", packet_size=300, random=1, start=0.5, flow_id=3)
    same_as_ns2_layer(sim, 5, tmp_path, ns2=True)
    script = sim.to_tcl(5)
    assert "set cbq_q [new Queue/SFQ]" in script and "set cbq_q [new Queue/DRR]" in script
    # SFQ and DRR do not read limit_: the API gives them none (the DropTail
    # leaves of both directions have one)
    assert script.count("$cbq_q set limit_") == script.count("set cbq_q [new Queue/DropTail]") == 2
    trace = [ln.split() for ln in (tmp_path / "api.tr").read_text().splitlines()]
    drops = {fid: sum(1 for f in trace if f[0] == "d" and f[7] == fid) for fid in ("1", "2")}
    assert drops["1"] > 0 and drops["2"] > 0, drops


@pytest.mark.parametrize("kinds", [
    (("PI", {"qref": 3, "a": 0.01, "b": 0.0099}), ("REM", {"pbo": 4, "gamma": 0.005}),
     ("Vq", {"queue_in_bytes": False, "mean_pktsize": 400})),
    (("GK", {"ecnlim": 0.4}), ("SRR", {}),
     ("RIO", {"q_weight": 0.02, "thresh": 2, "maxthresh": 6, "out_thresh": 2, "out_maxthresh": 6})),
])
def test_aqm_leaves_are_the_script_and_ns2(tmp_path, kinds):
    """CBQ leaves queueing with PI, REM, Vq, GK, SRR or RIO (RED and RIO
    linked and reset, REM, Vq and GK linked, in to_tcl() too): the API's
    run, its script and ns-2 write the same trace, with drops."""
    classes = [{"name": "root", "allot": 0.98, "borrow": False}]
    for i, (kind, params) in enumerate(kinds):
        classes.append({"name": kind, "parent": "root", "allot": 0.3, "priority": i % 2, "limit": 12,
                        "queue": kind, "params": params, "flows": [i]})
    sim, S, D, bott = _dumbbell(3, queue="CBQ", queue_params={"classes": classes, "algorithm": "formal"})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i, flow_id=i)
    res = same_as_ns2_layer(sim, 4, tmp_path, ns2=True)
    script = sim.to_tcl(4)
    for kind, _ in kinds:
        assert f"[new Queue/{'RED/RIO' if kind == 'RIO' else kind}]" in script
    assert sum(res.queues["drops_pkts"].to_list()) > 0
