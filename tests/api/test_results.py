"""Result frames: schemas, consistency between them, plots, determinism."""

from __future__ import annotations

import polars as pl
import pytest

import dumbbell as db
from dumbbell.results import EVENTS_SCHEMA, FLOWS_SCHEMA, QUEUES_SCHEMA, VARS_SCHEMA
from api_scenarios import basic1, basic2_sim

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def b1():
    return basic1(trace_packets=True)


def _check_schema(df: pl.DataFrame, schema: dict):
    assert df.columns == list(schema)
    for name, dtype in schema.items():
        if isinstance(dtype, pl.Enum):
            assert isinstance(df.schema[name], pl.Enum), name
        else:
            assert df.schema[name] == dtype, name


def test_schemas(b1):
    _, res = b1
    _check_schema(res.flows, FLOWS_SCHEMA)
    _check_schema(res.vars, VARS_SCHEMA)
    _check_schema(res.events, EVENTS_SCHEMA)
    _check_schema(res.queues, QUEUES_SCHEMA)
    assert res.flows.height == 1 and res.queues.height == 4
    assert res.events.height == 10057 and res.vars.height == 2285


def test_schemas_when_nothing_is_traced():
    sim = db.Simulation()
    A, B = sim.nodes(2)
    sim.link(A, B)
    res = sim.run(until=1, monitor_queues=False)
    for df, schema in ((res.flows, FLOWS_SCHEMA), (res.vars, VARS_SCHEMA), (res.events, EVENTS_SCHEMA),
                       (res.queues, QUEUES_SCHEMA)):
        _check_schema(df, schema)
        assert df.height == 0
    assert res.trace_file is None and not res.packets_traced


def test_flow_row_and_var_helpers(b1):
    sim, res = b1
    flow = sim.flows[0]
    row = res.flow(flow)
    assert row == res.flow(0)
    assert row["variant"] == "reno" and row["sink"] == "ack-every" and (row["src"], row["dst"]) == (0, 2)
    assert row["goodput_pkts"] == round(row["bytes_received"] / 1000)
    cwnd = res.var("cwnd", flow)
    assert cwnd.columns == ["time", "flow", "value"]
    assert cwnd.equals(res.var("cwnd_"))
    assert cwnd["value"].max() == 29.0
    with pytest.raises(ValueError, match=r"flow\(\): no flow 3"):
        res.flow(3)
    assert "1 flow," in repr(res)


def test_queue_counters_agree_with_packet_events(b1):
    _, res = b1
    for q in res.queues.iter_rows(named=True):
        ev = res.events.filter((pl.col("from_node") == q["src"]) & (pl.col("to_node") == q["dst"]))
        count = dict(ev.group_by("event").len().iter_rows())
        assert q["arrivals_pkts"] == count.get("+", 0)
        assert q["departures_pkts"] == count.get("-", 0)
        assert q["drops_pkts"] == count.get("d", 0)
        size = dict(ev.group_by("event").agg(pl.col("size").sum()).iter_rows())
        assert q["arrivals_bytes"] == size.get("+", 0)
        assert q["drops_bytes"] == size.get("d", 0)
        # conservation: every arrival left, was dropped or is still queued
        assert q["arrivals_pkts"] == q["departures_pkts"] + q["drops_pkts"] + q["queue_pkts"]
        assert q["arrivals_bytes"] == q["departures_bytes"] + q["drops_bytes"] + q["queue_bytes"]
        assert 0 <= q["mean_queue_pkts"] <= q["queue_limit"]
    bottleneck = res.queues.filter(src=1, dst=2).row(0, named=True)
    assert (bottleneck["bandwidth"], bottleneck["delay"], bottleneck["queue_limit"]) == (800000.0, 0.05, 7)
    assert bottleneck["drops_pkts"] == 14 and bottleneck["mean_queue_pkts"] > 1


def test_events_and_vars_name_their_flow():
    sim = basic2_sim(36, trace_vars=("cwnd_",))
    res = sim.run(until=20, trace_packets=True)
    assert res.events["flow"].null_count() == 0
    # data from each sender and ACKs from each sink belong to that flow
    for f in sim.flows:
        mine = res.events.filter(pl.col("flow") == f.id)
        assert set(mine["fid"].unique()) == {f.fid}
        data = mine.filter(pl.col("ptype") == "tcp")
        assert set(data["src_node"].unique()) == {f.src.id}
    assert res.vars["flow"].unique().sort().to_list() == [0, 1]


def test_trace_packets_subset_and_monitor_subset():
    sim = basic2_sim(0)
    R, D = sim.node_list[2], sim.node_list[3]
    lk = [x for x in sim.links if (x.src, x.dst) == (R, D)][0]
    res = sim.run(until=5, trace_packets=[lk, (D, R)], monitor_queues=[lk])
    pairs = set(res.events.select("from_node", "to_node").unique().iter_rows())
    assert pairs == {(2, 3), (3, 2)}
    assert res.queues.select("src", "dst").rows() == [(2, 3)]
    assert res.vars.height == 0


def test_plots_write_png(b1, tmp_path):
    _, res = b1
    fig = res.plot_cwnd(tmp_path / "cwnd.png", title="basic1")
    assert (tmp_path / "cwnd.png").read_bytes()[:8] == PNG
    assert fig.axes[0].get_title() == "basic1"
    res.plot_seqno(tmp_path / "seq.png")
    assert (tmp_path / "seq.png").read_bytes()[:8] == PNG
    res.plot_cwnd(tmp_path / "ack.svg", var="ack")
    assert b"<svg" in (tmp_path / "ack.svg").read_bytes()[:500]
    assert res.plot_cwnd() is not None          # no path: just the figure


def test_plot_two_flows_and_missing_data(tmp_path):
    sim = basic2_sim(0, trace_vars=("cwnd_",))
    res = sim.run(until=10)
    fig = res.plot_cwnd(tmp_path / "b2.png")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["flow 0: reno 0->3", "flow 1: reno 1->3"]
    res.plot_cwnd(tmp_path / "one.png", flows=[sim.flows[1]])
    with pytest.raises(ValueError, match=r"plot_seqno\(\): no packet events .* trace_packets=True"):
        res.plot_seqno(tmp_path / "x.png")
    with pytest.raises(ValueError, match=r"plot_cwnd\(\): no ssthresh_ records .* trace_vars=\('ssthresh_',\)"):
        res.plot_cwnd(tmp_path / "x.png", var="ssthresh")


def test_determinism():
    """Two runs of one Simulation, and two equal Simulations, give equal
    frames; with random send jitter (overhead) too."""
    def frames(res):
        return (res.flows, res.vars, res.events, res.queues)

    for overhead in (0.0, 0.01):
        sim = basic2_sim(25, overhead=overhead, trace_vars=("cwnd_", "ack_"))
        a = sim.run(until=20, trace_packets=True)
        b = sim.run(until=20, trace_packets=True)
        c = basic2_sim(25, overhead=overhead, trace_vars=("cwnd_", "ack_")).run(until=20, trace_packets=True)
        for x, y, z in zip(frames(a), frames(b), frames(c)):
            assert x.equals(y) and x.equals(z)
        assert a.script == b.script == c.script


def test_seed_makes_randomised_runs_repeatable():
    def run(seed, overhead):
        sim = db.Simulation(seed=seed)
        A, B, R, D = sim.nodes(4)
        sim.link(A, R, "8Mb", "10ms")
        sim.link(B, R, "8Mb", "46ms")
        sim.link(R, D, "0.8Mb", "100ms", queue_limit=20)
        sim.tcp(A, D, window=65000, packet_size=960, overhead=overhead)
        sim.tcp(B, D, window=65000, packet_size=960, overhead=overhead)
        return sim.run(until=60).flows

    assert run(1, 0.01).equals(run(1, 0.01))
    assert not run(1, 0.01).equals(run(2, 0.01))


def test_simulation_is_a_reusable_description():
    sim = db.Simulation()
    A, B = sim.nodes(2)
    sim.link(A, B, "1Mb", "10ms")
    f = sim.tcp(A, B, stop=2.0)
    short = sim.run(until=1)
    long = sim.run(until=3)
    assert short.flow(f)["ack"] < long.flow(f)["ack"]
    assert sim.run(until=1).flows.equals(short.flows)
    assert "1 flow)" in repr(sim) and repr(f) == "Flow(0, reno, 0->1, fid=0)"


def test_trace_packets_accepts_links_and_pairs():
    sim = basic2_sim(0)
    A, B, R, D = sim.node_list
    rd = [x for x in sim.links if (x.src, x.dst) == (R, D)][0]
    by_pair = sim.run(until=2, trace_packets=(R, D), monitor_queues=False)
    by_links = sim.run(until=2, trace_packets=(rd, rd.reverse), monitor_queues=False)
    assert set(by_pair.events.select("from_node", "to_node").unique().iter_rows()) == {(2, 3)}
    assert set(by_links.events.select("from_node", "to_node").unique().iter_rows()) == {(2, 3), (3, 2)}


def test_import_dumbbell_stays_light():
    """`dumbbell run` imports the package: the API and polars load on first use."""
    import subprocess
    import sys

    code = "import sys, dumbbell; print('polars' in sys.modules, 'dumbbell.api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_run_pauses_the_cyclic_collector_and_restores_it(monkeypatch):
    """`run()` makes no cycles, so it keeps Python's collector from walking
    the scenario's objects while it builds and reads back (set-up per flow
    stays flat), and leaves the collector as it found it, also when the run
    fails."""
    import gc

    from dumbbell.api import _sim

    enabled_while = []

    def spy(name):
        real = getattr(_sim.Simulation, name)

        def wrapped(self, *args, **kwargs):
            enabled_while.append((name, gc.isenabled()))
            return real(self, *args, **kwargs)

        monkeypatch.setattr(_sim.Simulation, name, wrapped)

    spy("_build")
    spy("_prepare")
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b, "10Mb", "10ms")
    sim.tcp(a, b, variant="newreno")
    try:
        sim.run(until=1.0)
        assert enabled_while == [("_prepare", False), ("_build", False)]
        assert gc.isenabled()
        gc.disable()
        sim.run(until=0.1)
        assert not gc.isenabled(), "a collector the caller turned off stays off"
        gc.enable()
        with pytest.raises(ValueError):
            sim.run(until=-1)
        assert gc.isenabled()
    finally:
        gc.enable()
