"""L4S and DCTCP from Python: `queue="DualPI2"` and `queue="StepMark"`
with their bound variables as `queue_params` (checked by the class's
table), `cc="dctcp"` and `cc="prague"` of Agent/TCP/Linux with their
sinks' exact CE echo, the same run through the API and through
`to_tcl()` under `dumbbell run`, and what each does on a bottleneck."""

from __future__ import annotations

import re

import polars as pl
import pytest

import dumbbell as db
from test_builder_exact import _dumbbell, same_as_ns2_layer


def test_api_run_is_the_ns2_layers(tmp_path):
    sim, S, D, _ = _dumbbell(3, queue="DualPI2", queue_params={"target": "10ms", "step_thresh": "2ms"}, limit=60)
    for i, cc in enumerate(("prague", "cubic", "dctcp")):
        sim.tcp(S[i], D[i], variant="linux", cc=cc, window=100, start=0.2 * i, sink="sack")
    res = same_as_ns2_layer(sim, 5, tmp_path)
    assert res.queues.filter(src=0, dst=1)["departures_pkts"][0] > 300
    tcl = sim.to_tcl(5)
    assert "DualPI2" in tcl and "select_ca prague" in tcl and "dctcp_ true" in tcl


def test_step_mark_api_run_is_the_ns2_layers(tmp_path):
    sim, S, D, _ = _dumbbell(2, queue="StepMark", queue_params={"thresh": 5}, limit=40)
    for i in range(2):
        sim.tcp(S[i], D[i], variant="linux", cc="dctcp", window=100, start=0.1 * i)
    same_as_ns2_layer(sim, 4, tmp_path)


@pytest.mark.parametrize("queue,params,msg", [
    ("DualPI2", {"tupdate": 0}, r"tupdate_ must be a time of 1 ns or more"),
    ("DualPI2", {"coupling_factor": 0}, r"coupling_factor_ must be a number above 0"),
    ("DualPI2", {"alpha": -1}, r"alpha_ must be a number of zero or more"),
    ("DualPI2", {"prob": 2}, r"prob_ must be a number from 0 to 1"),
    ("DualPI2", {"step_min_bytes": -3}, r"step_min_bytes_ must be zero or a positive integer"),
    ("DualPI2", {"nonsense": 1}, r"nonsense"),
    ("StepMark", {"thresh": -1}, r"thresh_ must be zero or a positive integer"),
])
def test_bad_parameters_are_errors(queue, params, msg):
    sim = db.Simulation()
    A, B = sim.nodes(2)
    with pytest.raises((ValueError, db.SimulationError), match=msg):
        sim.link(A, B, queue=queue, queue_params=params)
        sim.tcp(A, B)
        sim.run(until=1)


def _step_run(cc, **kw):
    sim = db.Simulation(seed=3)
    R1, R2 = sim.nodes(2)
    S, D = sim.nodes(2), sim.nodes(2)
    for i in range(2):
        sim.link(S[i], R1, "100Mb", "2ms")
        sim.link(R2, D[i], "100Mb", "2ms")
    bott = sim.link(R1, R2, "10Mb", "10ms", queue="StepMark", queue_limit=200, queue_params={"thresh": 10})
    for i in range(2):
        sim.tcp(S[i], D[i], variant="linux", cc=cc, window=500, start=0.1 * i, **kw)
    res = sim.run(10, trace_packets=[bott])
    q = res.queues.filter(src=R1.id, dst=R2.id).row(0, named=True)
    dm = res.drops_and_marks((2, 10), link=bott)
    gp = res.goodput((2, 10), link=bott)["goodput_bps"].sum() / 1e6
    return q, int(dm["drops"].sum()), int(dm["marks"].sum()), gp, res, D


def test_dctcp_holds_the_queue_at_k_without_loss():
    """Two DCTCP flows on a 10 Mb/s step-marking queue (K = 10 packets, a
    28 ms RTT, a BDP of about 35 packets): no loss, the link full, the
    queue near K.  Reno with classic ECN on the same queue halves at each
    mark: it empties the queue and loses throughput."""
    q, drops, marks, gp, _, _ = _step_run("dctcp")
    assert drops == 0 and marks > 50
    assert gp > 9.5, gp
    assert 5 < q["mean_queue_pkts"] < 16, q
    qr, dropsr, _, gpr, _, _ = _step_run("reno", ecn=1)
    assert dropsr == 0
    assert qr["mean_queue_pkts"] < q["mean_queue_pkts"] / 2 and gpr < gp


def _echo_pairs(res, dst):
    """(data seqno, data carried CE, its ACK echoes CE) for each in-order
    data packet that reached `dst` and the ACK the sink sent for it;
    packet 0 aside (ns-2's ECN sender sets ECE on it and its ACK echoes
    that: the connection's ECN negotiation)."""
    ev = res.events
    data = (ev.filter((pl.col("event") == "r") & (pl.col("to_node") == dst.id) & (pl.col("ptype") == "tcp"))
            .unique("seqno", keep="first").select("seqno", ce=pl.col("flags").cast(pl.String).str.contains("E")))
    acks = (ev.filter((pl.col("event") == "+") & (pl.col("from_node") == dst.id) & (pl.col("ptype") == "ack"))
            .unique("seqno", keep="first").select("seqno", ece=pl.col("flags").cast(pl.String).str.contains("C")))
    return data.join(acks, on="seqno").filter(pl.col("seqno") > 0)


def test_dctcp_sink_echoes_ce_exactly():
    """RFC 8257 section 3.2 (and ns-3.37's tcp-dctcp-test "ECE should only
    be sent by receiver when it receives CE"): each ACK echoes the CE of
    the packet it acknowledges, not RFC 3168's latch until CWR."""
    sim = db.Simulation(seed=3)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "2ms")
    sim.link(R2, D, "100Mb", "2ms")
    sim.link(R1, R2, "10Mb", "10ms", queue="StepMark", queue_limit=200, queue_params={"thresh": 5})
    sim.tcp(S, D, variant="linux", cc="dctcp", window=300)
    res = sim.run(5, trace_packets=True)
    pairs = _echo_pairs(res, D)
    assert pairs.height > 1000 and pairs["ce"].sum() > 20
    assert (pairs["ce"] == pairs["ece"]).all()
    # the RFC 3168 sink (dctcp_ off) keeps echoing after the mark
    sim = db.Simulation(seed=3)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "2ms")
    sim.link(R2, D, "100Mb", "2ms")
    sim.link(R1, R2, "10Mb", "10ms", queue="StepMark", queue_limit=200, queue_params={"thresh": 5})
    sim.tcp(S, D, variant="linux", cc="dctcp", window=300, sink_params={"dctcp": False})
    pairs = _echo_pairs(sim.run(5, trace_packets=True), D)
    assert (pairs["ece"] & ~pairs["ce"]).sum() > 0


def test_prague_packets_are_ect1_and_take_the_l4s_queue():
    """Prague's packets are ECT(1): DualPI2 queues them in its L4S queue,
    which its 1 ms step keeps short, while CUBIC's (Not-ECT) wait in the
    classic queue near the 15 ms target.  DCTCP's are ECT(0): classic."""
    sim = db.Simulation(seed=1)
    R1, R2 = sim.nodes(2)
    S, D = sim.nodes(3), sim.nodes(3)
    for i in range(3):
        sim.link(S[i], R1, "1Gb", "1ms")
        sim.link(R2, D[i], "1Gb", "1ms")
    bott = sim.link(R1, R2, "20Mb", "8ms", queue="DualPI2", queue_limit=500, duplex=False)
    sim.link(R2, R1, "20Mb", "8ms", queue_limit=500, duplex=False)
    flows = [sim.tcp(S[i], D[i], variant="linux", cc=cc, window=400, sink="sack")
             for i, cc in enumerate(("prague", "cubic", "dctcp"))]
    res = sim.run(15, trace_packets=[bott])
    qd = {r["flow"]: r["mean"] * 1000 for r in res.queue_delay(bott, (5, 15), by="flow").iter_rows(named=True)}
    assert qd[flows[0].id] < 2, qd
    assert qd[flows[1].id] > 8 and qd[flows[2].id] > 8, qd


def test_dctcp_delayed_ack_sink_splits_acks_at_ce_changes():
    """RFC 8257 section 3.2's two-state machine with delayed ACKs: when CE
    starts or stops, the ACK being delayed is sent at once with the old
    state, so every ACK covers packets of one CE state and echoes it.
    Without it (dctcp_ off, New-ECN's echo of each mark) an ACK covering a
    marked and an unmarked packet happens."""
    def acks_and_data(dctcp):
        sim = db.Simulation(seed=3)
        R1, R2, S, D = sim.nodes(4)
        sim.link(S, R1, "100Mb", "2ms")
        sim.link(R2, D, "100Mb", "2ms")
        sim.link(R1, R2, "10Mb", "10ms", queue="StepMark", queue_limit=200, queue_params={"thresh": 5})
        sim.tcp(S, D, variant="linux", cc="dctcp", window=300, sink="delack",
                sink_params={"dctcp": dctcp, "windowOptionS": 1 if dctcp else 8})
        ev = sim.run(5, trace_packets=True).events
        data = (ev.filter((pl.col("event") == "r") & (pl.col("to_node") == D.id) & (pl.col("ptype") == "tcp"))
                .unique("seqno", keep="first").sort("seqno"))
        ce = dict(zip(data["seqno"].to_list(), data["flags"].cast(pl.String).str.contains("E").to_list()))
        acks = ev.filter((pl.col("event") == "+") & (pl.col("from_node") == D.id) & (pl.col("ptype") == "ack")).sort("time")
        return ce, list(zip(acks["seqno"].to_list(), acks["flags"].cast(pl.String).str.contains("C").to_list()))

    def mixed(ce, acks):
        bad, prev, covering_two = 0, 0, 0
        for n, ece in acks:
            if n > prev and prev > 0:
                states = {ce[s] for s in range(prev + 1, n + 1) if s in ce}
                covering_two += n - prev > 1
                bad += states != {ece}
            prev = max(prev, n)
        return bad, covering_two

    ce, acks = acks_and_data(True)
    bad, two = mixed(ce, acks)
    assert bad == 0 and two > 500 and sum(ce.values()) > 20
    bad_off, _ = mixed(*acks_and_data(False))
    assert bad_off > 0


# ns-3.37's UseL4s of each: the Python names of UseEcn and the options
_L4S_QUEUES = {"CoDel": "use_ecn", "FQ_CoDel": "use_ecn", "PIE": "use_ecn", "FQ_PIE": "setbit", "COBALT": "setbit",
               "FQ_COBALT": "setbit"}


def test_l4s_mode_is_the_ns2_layers(tmp_path):
    """`use_l4s` (ns-3.37's UseL4s) of CoDel, FQ-CoDel, PIE, FQ-PIE,
    COBALT and FQ-COBALT through the API and through `to_tcl()` under `dumbbell run`: the same
    trace."""
    for queue, ecn in _L4S_QUEUES.items():
        params = {"use_l4s": True, "ce_threshold": "1ms", ecn: True}
        sim, S, D, _ = _dumbbell(2, queue=queue, queue_params=params, limit=100)
        for i, cc in enumerate(("prague", "cubic")):
            sim.tcp(S[i], D[i], variant="linux", cc=cc, window=100, start=0.2 * i, sink="sack")
        same_as_ns2_layer(sim, 4, tmp_path)
        assert re.search(r"use_l4s_ (true|1)\n", sim.to_tcl(4)), queue


@pytest.mark.parametrize("queue", list(_L4S_QUEUES))
def test_l4s_mode_marks_prague_on_the_ce_threshold_only(queue):
    """A Prague flow (ECT(1)) through the AQM without ECN and a 1 ms CE
    threshold: in L4S mode its packets skip the AQM's drops and are only
    CE-marked past the threshold, so it loses nothing and holds the queue
    near 1 ms; without L4S mode the AQM drops them (UseEcn off)."""
    def run(l4s):
        sim = db.Simulation(seed=1)
        R1, R2, S, D = sim.nodes(4)
        sim.link(S, R1, "100Mb", "1ms")
        sim.link(R2, D, "100Mb", "1ms")
        bott = sim.link(R1, R2, "10Mb", "10ms", queue=queue, queue_limit=500, duplex=False,
                        queue_params={_L4S_QUEUES[queue]: False, "ce_threshold": "1ms", "use_l4s": l4s})
        sim.link(R2, R1, "10Mb", "10ms", queue_limit=500, duplex=False)
        f = sim.tcp(S, D, variant="linux", cc="prague", window=300, sink="sack")
        res = sim.run(10, trace_packets=[bott])
        q = res.queues.filter(src=R1.id, dst=R2.id).row(0, named=True)
        delay = res.queue_delay(bott, (3, 10), by="flow").filter(pl.col("flow") == f.id)["mean"][0]
        return q, delay * 1000

    (q, delay), (q_off, _) = run(True), run(False)
    assert q["drops_pkts"] == 0 and q["departures_pkts"] > 5000, q
    assert delay < 3, delay
    assert q_off["drops_pkts"] > 0, q_off


def _overload_run(**params):
    """A Prague flow (ns-2's Linux TCP, unpaced) through DualPI2 held in
    overload: p' set to 0.8 and kept there (gains 0), k p' = 1.6."""
    sim = db.Simulation(seed=1)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "1ms")
    sim.link(R2, D, "100Mb", "1ms")
    bott = sim.link(R1, R2, "10Mb", "10ms", queue="DualPI2", queue_limit=200, duplex=False,
                    queue_params={"prob": 0.8, "alpha": 0, "beta": 0, **params})
    sim.link(R2, R1, "10Mb", "10ms", queue_limit=200, duplex=False)
    f = sim.tcp(S, D, variant="linux", cc="prague", window=200, sink="sack")
    res = sim.run(5, trace_packets=[bott])
    drops = res.events.filter((pl.col("event") == "d") & (pl.col("flow") == f.id)).height
    marks = int(res.drops_and_marks((0, 5), link=bott)["marks"].sum())
    return drops, marks


def test_overload_drops_l4s_packets_unless_overflow_mode():
    """RFC 9332 section 4.2.3 (and Linux's default `drop_overload`): on
    overload the L4S queue's ECN-capable packets meet Classic drop too, so
    the Prague flow loses packets (p'^2 = 0.64 of those the AQM acts on,
    the rest marked) and backs off to under two MTUs queued, where the AQM
    is quiet.  `drop_on_overload_ false` is Linux's `overflow`: the update
    caps p' at 1/k (0.5 here from the first 16 ms update on), there is no
    overload, and Prague's packets are only marked (p_CL = 1)."""
    drops, marks = _overload_run()
    assert drops >= 5, (drops, marks)
    drops, marks = _overload_run(drop_on_overload=False)
    assert drops == 0 and marks > 500, (drops, marks)
