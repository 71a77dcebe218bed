"""RED, ECN and SACK through the Python API."""

import polars as pl
import pytest

import dumbbell as db


def build(queue_params, ecn=True):
    sim = db.Simulation()
    r, d = sim.nodes(2)
    sim.link(r, d, "1.5Mb", "20ms", queue="RED", queue_limit=25, queue_params=queue_params)
    for i, v in enumerate(["reno", "sack", "newreno"]):
        s = sim.node()
        sim.link(s, r, "10Mb", f"{2 + 3 * i}ms")
        sim.tcp(s, d, variant=v, sink="sack" if v == "sack" else "ack-every", window=30, ecn=ecn, start=0.3 * i)
    return sim.run(until=10, trace_packets=True)


RED = {"thresh": 5, "maxthresh": 15, "bytes": False, "queue_in_bytes": False}


def test_red_marks_ecn_flows_and_sack_recovers():
    res = build({**RED, "setbit": True})
    ev = res.events
    marked = ev.filter(pl.col("flags").cast(pl.String).str.contains("E"))
    assert marked.height > 0, "RED marks"
    assert marked.filter(~pl.col("flags").cast(pl.String).str.contains("N")).height == 0, "only ECN-capable packets are marked"
    assert res.flows.filter(pl.col("variant") == "sack")["goodput_pkts"][0] > 0


def test_without_setbit_red_drops_instead_of_marking():
    res = build(RED)
    ev = res.events
    assert ev.filter(pl.col("flags").cast(pl.String).str.contains("E")).height == 0
    assert ev.filter(pl.col("event").cast(pl.String) == "d").height > 0


def test_queue_params_are_checked():
    sim = db.Simulation()
    a, b = sim.nodes(2)
    with pytest.raises(ValueError, match="maxthresh"):
        sim.link(a, b, queue="RED", queue_params={"maxtresh": 15})
    with pytest.raises(ValueError, match="setbit"):
        sim.link(a, b, queue="RED", queue_params={"setbit": "maybe"})


def test_new_ecn_through_the_api():
    # docs/python-api.md: New-ECN is windowOption=8, newecn=True, ecn=True with
    # the New-ECN receiver; its window slope (slope_window_) then moves.
    def run(newecn):
        sim = db.Simulation()
        s, r, d = sim.nodes(3)
        sim.link(s, r, "10Mb", "14ms")
        sim.link(r, d, "5Mb", "1ms", queue="RED", queue_limit=500,
                 queue_params={**RED, "thresh": 10, "maxthresh": 20, "setbit": True, "gentle": False})
        kw = dict(windowOption=8, newecn=True, sink_params={"windowOptionS": 8}) if newecn else {}
        sim.tcp(s, d, window=128, packet_size=512, ecn=True, trace_vars=("cwnd_",), **kw)
        return sim.run(until=20)

    ne, ecn = run(True), run(False)
    # New-ECN cuts cwnd to 0.9x on a mark instead of halving it: the smallest
    # window after slow start stays higher than ECN's.
    def min_cwnd(res):
        v = res.vars.filter((pl.col("var").cast(pl.String) == "cwnd_") & (pl.col("time") > 5))
        return v["value"].min()
    assert min_cwnd(ne) > min_cwnd(ecn)
    assert ne.flows["goodput_pkts"][0] > ecn.flows["goodput_pkts"][0]
