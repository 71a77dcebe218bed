"""A queue's variables changed during the run (`Simulation.set_queue`,
`queue_limit(..., at=)`), ns-2's RED-PD with its flow monitor
(`queue="RED/PD"`, `Simulation.redpd_flow`), FQ's per-flow limit
(`queue_params={"flow_limit": n}`) and JoBS with its service objectives
and edge queues (`queue="JoBS"`, `"Marker"`, `"Demarker"`) through the
Python API: the trace and
counters of the API's run are those of its `to_tcl()` script under
`dumbbell run` and of the real ns-2 (stored: tests/api/queues, made by
`python3 tests/api/queue_scenarios.py`); each does what it says; bad input
is a ValueError naming the parameter and the value."""

from __future__ import annotations

import gzip

import polars as pl
import pytest

import dumbbell as db
import queue_scenarios as scenarios
from test_builder_exact import _api_lines, _dumbbell, _printed, same_as_ns2_layer


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2: {x.decode()}\n  API:  {y.decode()}"
    return f"ns-2 wrote {len(a)} lines, the API {len(b)}"


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_api_gives_ns2s_trace_and_counters(name, tmp_path):
    sim, until = scenarios.SCENARIOS[name]()
    res = sim.run(until=until, trace_packets=True, trace_file=tmp_path / "api.tr")
    want = gzip.decompress((scenarios.FIX / f"{name}.tr.gz").read_bytes())
    got = (tmp_path / "api.tr").read_bytes()
    assert got == want, first_difference(want, got)
    out = (scenarios.FIX / f"{name}.out").read_text()
    assert _printed(out) == _api_lines(res)
    assert got.count(b"\n") > 5000


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_api_is_its_script_under_dumbbell_run(name, tmp_path):
    sim, until = scenarios.SCENARIOS[name]()
    same_as_ns2_layer(sim, until, tmp_path)


# ---- what each does --------------------------------------------------------------------------

def _bottleneck(res, t0, t1, fid, event):
    ev = res.events.filter(pl.col("from_node") == 2, pl.col("to_node") == 3, pl.col("time") >= t0,
                           pl.col("time") < t1, pl.col("fid") == fid)
    return ev.filter(pl.col("event") == event).height


def test_redpd_drops_the_monitored_flow_harder():
    """Monitored from 4 s and unresponsive (penalty 3) from 8 s, the CBR
    loses far more of its packets at the RED-PD queue than unmonitored in
    the same scenario, and the TCP flows get the room."""
    runs = {}
    for actions in (False, True):
        sim, until = scenarios.redpd_unresponsive(actions)
        runs[actions] = sim.run(until=until, trace_packets=True)
    plain, policed = runs[False], runs[True]
    before = [_bottleneck(r, 1, 4, 3, "d") for r in (plain, policed)]
    assert before[0] == before[1] > 0            # the same run until the first action
    late_plain, late_policed = (_bottleneck(r, 8, 12, 3, "d") for r in (plain, policed))
    sent = [_bottleneck(r, 8, 12, 3, "-") for r in (plain, policed)]
    assert late_policed > 1.5 * late_plain, (late_plain, late_policed)
    assert sent[1] < 0.8 * sent[0], sent
    assert policed.sources["received_pkts"][0] < plain.sources["received_pkts"][0]
    assert policed.flows["bytes_received"].sum() > plain.flows["bytes_received"].sum()


def test_redpd_fixed_drop_probability_hits_every_flow():
    """P_testFRp_ 0.1 drops about a tenth of each flow's arrivals before
    RED sees them."""
    sim, until = scenarios.redpd_frp()
    res = sim.run(until=until, trace_packets=True)
    for fid in (1, 2):
        arr = _bottleneck(res, 0, until, fid, "+")
        drops = _bottleneck(res, 0, until, fid, "d")
        assert 0.05 < drops / arr < 0.3, (fid, drops, arr)


def _red_run(change: dict | None, reset: bool, limit_at=None):
    sim, S, D, bott = _dumbbell(3, queue="RED", limit=60, queue_params={"thresh": 10, "maxthresh": 30})
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=80, start=0.1 * i)
    if change:
        sim.set_queue(bott.src, bott.dst, 3.0, change, reset=reset)
    if limit_at:
        sim.queue_limit(bott.src, bott.dst, limit_at, at=3.0)
    res = sim.run(until=8, trace_packets=[bott])
    q = res.events.filter(pl.col("time") >= 4)
    return res, q


def test_red_thresholds_changed_with_a_reset_hold_a_shorter_queue():
    _, base = _red_run(None, False)
    _, low = _red_run({"thresh": 2, "maxthresh": 6}, True)
    # the packets queued after 4 s: enqueued minus dequeued, sampled at each event
    def mean_backlog(ev):
        step = ev.with_columns(pl.when(pl.col("event") == "+").then(1).when(pl.col("event").is_in(["-", "d"]))
                               .then(-1).otherwise(0).alias("s"))
        return step["s"].cum_sum().mean()
    assert low.filter(pl.col("event") == "d").height > base.filter(pl.col("event") == "d").height
    assert mean_backlog(low) < mean_backlog(base)


def test_red_thresholds_without_a_reset_are_refused():
    sim, S, D, bott = _dumbbell(1, queue="RED")
    with pytest.raises(ValueError, match=r"reads thresh_, maxthresh_ only when it is reset .*reset=True"):
        sim.set_queue(bott.src, bott.dst, 2, {"thresh": 2, "maxthresh": 6})


def test_queue_limit_at_a_time_caps_the_queue_from_then_on():
    res, after = _red_run(None, False, limit_at=4)
    # RED drops arrivals when the queue holds limit_ packets (one being sent)
    ev = res.events.sort("time", maintain_order=True)
    s = ev.with_columns(pl.when(pl.col("event") == "+").then(1).when(pl.col("event").is_in(["-", "d"])).then(-1)
                        .otherwise(0).cum_sum().alias("queued"))
    assert s.filter(pl.col("time") < 3)["queued"].max() > 8
    assert s.filter(pl.col("time") >= 3.5)["queued"].max() <= 4


def test_fq_flow_limit_bounds_each_flow_queue():
    drops = {}
    for lim in (None, 3):
        sim, S, D, bott = _dumbbell(3, queue="FQ", queue_params={"flow_limit": lim} if lim else None)
        for i in range(3):
            sim.tcp(S[i], D[i], variant="newreno", window=40, start=0.1 * i)
        res = sim.run(until=5)
        drops[lim] = res.queues.filter(src=bott.src.id, dst=bott.dst.id)["drops_pkts"][0]
        if lim:
            assert "Queue/DropTail set limit_ 3\n" in sim.to_tcl(5)
    assert drops[3] > drops[None]


def test_jobs_gives_each_class_its_rate():
    """Four 5 Mb/s CBRs into 10 Mb/s with JoBS's absolute rate guarantees
    4, 3, 2 and 1 Mb/s: each class gets its own."""
    sim, until = scenarios.jobs_rate()
    res = sim.run(until=until)
    got = [b * 8 / until for b in res.sources["received_bytes"].to_list()]
    for want, x in zip((4e6, 3e6, 2e6, 1e6), got):
        assert abs(x - want) < 0.03 * want, got


def test_jobs_holds_the_relative_delays():
    """With relative delay ratios of 4 between classes and class 1's delay
    under 5 ms, each class waits about four times as long as the one
    before it at the JoBS link (once the queue has built up)."""
    sim, until = scenarios.jobs_lossdel()
    res = sim.run(until=until, trace_packets=True)
    ev = res.events.filter(pl.col("from_node") == 0, pl.col("to_node") == 1)
    enq = ev.filter(pl.col("event") == "+").select("uid", pl.col("time").alias("t0"), "fid")
    deq = ev.filter(pl.col("event") == "-").select("uid", pl.col("time").alias("t1"))
    d = (enq.join(deq, on="uid").filter(pl.col("t0") > 0.75).group_by("fid")
         .agg((pl.col("t1") - pl.col("t0")).mean().alias("d")).sort("fid")["d"].to_list())
    assert d[0] < 0.005, d
    for a, b in zip(d, d[1:]):
        assert 3 < b / a < 5.5, d


# ---- bad input ---------------------------------------------------------------------------------

def _net(queue="RED", **kw):
    sim, S, D, bott = _dumbbell(2, queue=queue, **kw)
    return sim, bott.src, bott.dst


@pytest.mark.parametrize("call, message", [
    (lambda s, a, b: s.set_queue(a, b, 1, {"thresholds": 3}), "unknown parameter 'thresholds' for Queue/RED"),
    (lambda s, a, b: s.set_queue(a, b, 1, {"q_weight": 2}), "bad value 2 for q_weight: q_weight must be > 0 and <= 1"),
    (lambda s, a, b: s.set_queue(a, b, 1, {"limit": -3}), "bad value -3 for limit: limit must be >= 0"),
    (lambda s, a, b: s.set_queue(a, b, 1, {"gentle": "maybe"}), "bad value 'maybe' for gentle: expected True or False"),
    (lambda s, a, b: s.set_queue(a, b, -1, {"limit": 3}), "at must be a non-negative number of seconds"),
    (lambda s, a, b: s.set_queue(a, b, 1, {}), "params must be a non-empty dict"),
    (lambda s, a, b: s.set_queue(a, b, 1, {"limit": 3}, reset="yes"), "reset must be True or False"),
    (lambda s, a, b: s.set_queue(b, a, 1, {"limit": 3}) and s.set_queue(a, a, 1, {}), "there is no link"),
    (lambda s, a, b: s.queue_limit(a, b, 0, at=2), "queue_limit(): limit must be a positive integer"),
    (lambda s, a, b: s.queue_limit(a, b, 5, at="soon"), "queue_limit(): at must be a non-negative number"),
    (lambda s, a, b: s.redpd_flow(a, b, 1, 3, prob=0.1), "has a RED queue, not RED/PD"),
])
def test_bad_timed_changes_are_errors(call, message):
    sim, a, b = _net()
    with pytest.raises(ValueError) as e:
        call(sim, a, b)
    assert message in str(e.value)


@pytest.mark.parametrize("kw, message", [
    (dict(prob=1.5), "prob must be a number from 0 to 1, got 1.5"),
    (dict(prob=0.1, target=1, current=2), "give prob, or target and current, not both"),
    (dict(target=1), "monitor needs prob (0..1), or target and current"),
    (dict(action="forget"), "action must be one of monitor, unmonitor, unresponsive, got 'forget'"),
    (dict(action="unmonitor", prob=0.2), "prob do(es) not apply to action 'unmonitor'"),
    (dict(action="unresponsive", penalty=0), "penalty must be a positive number, got 0"),
    (dict(flow_id=-1, prob=0.1), "flow_id must be an integer from 0"),
])
def test_bad_redpd_actions_are_errors(kw, message):
    sim, a, b = _net("RED/PD")
    args = {"flow_id": 3, **kw}
    with pytest.raises(ValueError) as e:
        sim.redpd_flow(a, b, 1.0, **args)
    assert message in str(e.value)


def test_bad_queue_params_of_redpd_and_fq_are_errors():
    with pytest.raises(ValueError, match="RED/PD flow_classifier must be one of SrcDestFid, Fid, SrcDest, Dest, got 'Port'"):
        _net("RED/PD", queue_params={"flow_classifier": "Port"})
    with pytest.raises(ValueError, match="unknown parameter 'P_test' for Queue/RED/PD"):
        _net("RED/PD", queue_params={"P_test": 0.1})
    with pytest.raises(ValueError, match=r"bad value 1.5 for P_testFRp: P_testFRp must be >= 0 and <= 1 \(or -1\)"):
        _net("RED/PD", queue_params={"P_testFRp": 1.5})
    with pytest.raises(ValueError, match="FQ flow_limit must be a positive integer"):
        _net("FQ", queue_params={"flow_limit": 0})
    sim, S, D, bott = _dumbbell(2, queue="FQ", queue_params={"flow_limit": 5})
    with pytest.raises(ValueError, match="FQ flow_limit 50 differs from that of the FQ link"):
        sim.link(D[0], D[1], queue="FQ")


@pytest.mark.parametrize("queue, params, message", [
    ("JoBS", {"arc": [1e6, 2e6]}, "JoBS arc must be a list of four values"),
    ("JoBS", {"alc": [0.5, 2, None, None]}, "JoBS alc[1] (class 2) must be None (or -1) or from 0 (excluded) to 1, got 2"),
    ("JoBS", {"rdc": [None, 0, 4, 4]}, "JoBS rdc[1] (class 2) must be None (or -1) or a positive number, got 0"),
    ("JoBS", {"sampling_period": 0}, "JoBS sampling_period must be a positive whole number"),
    ("JoBS", {"trace_hop": True}, "unknown JoBS parameter(s) 'trace_hop'"),
    ("JoBS", {"mean_pkt_size": 0}, "bad value 0 for mean_pkt_size"),
    ("Marker", {"marker_class": 5}, "Marker marker_class must be the JoBS class of its packets, 1 to 4, got 5"),
    ("Marker", {}, "Marker marker_class must be"),
    ("Demarker", {"id": 1}, "a Demarker has no parameters"),
])
def test_bad_jobs_parameters_are_errors(queue, params, message):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    with pytest.raises(ValueError) as e:
        sim.link(a, b, queue=queue, queue_params=params)
    assert message in str(e.value)


def test_unmonitoring_a_flow_not_monitored_stops_the_run():
    # ns-2's red-pd.cc refuses it (a Tcl error in the scheduled event, which ends the run)
    sim, (s1, s2, r1, r2, s3, s4) = scenarios._redpd_net()
    sim.redpd_flow(r1, r2, 2.0, 1, "unmonitor")
    with pytest.raises(db.api.SimulationError, match="Cannot unmonitor an unmonitored flow: 1"):
        sim.run(until=3)


def test_scheduler_queues_refuse_timed_changes():
    sim, S, D, bott = _dumbbell(1, queue="SRR")
    with pytest.raises(ValueError, match="takes its classes and their parameters when it is made"):
        sim.set_queue(bott.src, bott.dst, 1, {"limit": 3})


@pytest.mark.parametrize("queue, params", [
    ("CoDel", {"target": "2ms"}), ("PIE", {"qdelay_ref": 0.005}), ("DRR", {"quantum": 500}), ("PI", {"qref": 5}),
    ("REM", {"gamma": 0.01}), ("RED/RIO", {"in_thresh": 2, "in_maxthresh": 4}),
])
def test_set_queue_of_other_queues_is_its_script(tmp_path, queue, params):
    """A change of another queue's variables during the run is its
    `to_tcl()` script's under `dumbbell run` (the ns-2 queues among them
    checked against ns-2 by hand)."""
    sim, S, D, bott = _dumbbell(3, queue=queue, limit=60)
    for i in range(3):
        sim.tcp(S[i], D[i], variant="newreno", window=60, start=0.1 * i)
    sim.set_queue(bott.src, bott.dst, 2.0, params, reset=queue == "RED/RIO")
    same_as_ns2_layer(sim, 4, tmp_path)
    assert '$ns at 2.0 "[[$ns link $n(0) $n(1)] queue] set ' in sim.to_tcl(4)
