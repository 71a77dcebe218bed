"""AccECN (`ecn="accecn"`, RFC 9768) and TCP Prague (`cc="prague"`, the L4S
team's tcp_prague) on the full TCP (`tcp(stack="full")`): negotiation seen
on the wire, Prague's ECT(1) in DualPI2's L4S queue, and bad values refused
by name."""

import polars as pl
import pytest

import dumbbell as db


def _path(queue="DualPI2", queue_params=None, rate="20Mb", limit=500):
    sim = db.Simulation(seed=3)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "2ms")
    sim.link(R2, D, "100Mb", "2ms")
    bott = sim.link(R1, R2, rate, "10ms", queue=queue, queue_limit=limit, queue_params=queue_params or {})
    return sim, (R1, R2, S, D), bott


def test_prague_holds_the_l4s_queue_near_1ms_and_fills_the_link():
    """RFC 9331/9332's claim for one L4S flow: DualPI2's L4S queue (ECT(1),
    its 1 ms step) stays about 1 ms deep while Prague keeps the 20 Mb/s
    link busy, without a loss; NewReno with classic ECN sits in the
    classic queue near the 15 ms target."""
    def run(**kw):
        sim, (R1, R2, S, D), bott = _path()
        f = sim.tcp(S, D, stack="full", **kw)
        res = sim.run(20, trace_packets=[bott])
        qd = res.queue_delay(bott, (10, 20))["mean"][0] * 1000
        gp = res.goodput((10, 20), link=bott)["goodput_bps"][0] / 1e6
        drops = res.events.filter(pl.col("event") == "d").height
        return qd, gp, drops
    qd, gp, drops = run(cc="prague")
    assert qd < 2.0, f"L4S queue {qd:.2f} ms"
    assert gp > 18.0, f"{gp:.2f} Mb/s"
    assert drops == 0
    qd_c, gp_c, _ = run(cc="newreno", ecn="accecn")
    assert qd_c > 5.0, f"classic queue {qd_c:.2f} ms"
    assert gp_c > 18.0


def test_accecn_on_the_wire():
    """The SYN asks with AE, CWR and ECE; the SYN/ACK of an AccECN peer
    feeds back the SYN's Not-ECT as (AE,CWR,ECE) = (0,1,0) (RFC 9768
    Table 2): the trace shows CWR (`A`) and no ECE (`C`) on it; data is
    ECN-capable (`N`)."""
    sim, (R1, R2, S, D), _ = _path("DropTail", {})
    sim.tcp(S, D, stack="full", cc="newreno", ecn="accecn")
    ev = sim.run(1, trace_packets=True).events.filter(pl.col("event") == "+").sort("time")
    snd = ev.filter(pl.col("from_node") == S.id)
    rcv = ev.filter(pl.col("from_node") == D.id)
    data = snd.filter((pl.col("ptype") == "tcp") & (pl.col("size") > 100))["flags"].cast(pl.String).to_list()
    assert data and all("N" in f for f in data)
    syn_ack = rcv["flags"].cast(pl.String).to_list()[0]
    assert "C" not in syn_ack, syn_ack


@pytest.mark.parametrize("kw, words", [
    ({"ecn": "accurate"}, "'accecn' (Accurate ECN, RFC 9768)"),
    ({"cc": "prague", "cc_params": {"rtt_scaling": 4}}, "prague's parameter rtt_scaling must be 0 to 3, got 4"),
    ({"cc": "prague", "cc_params": {"classic_qdelay_us": 1}}, "prague has no parameter 'classic_qdelay_us'"),
    ({"cc": "prague", "cc_params": {"cwnd_limited": 2}}, "prague's parameter cwnd_limited must be 0 to 1, got 2"),
])
def test_bad_values_are_refused_by_name(kw, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError) as e:
        sim.tcp(a, b, stack="full", **kw)
    assert words in str(e.value)


def _send_gaps(paced):
    """Prague alone on the 20 Mb/s DualPI2 path (100 Mb/s access links):
    the times between its data segments' departures over 10-20 s (s), the
    goodput (Mb/s) and the L4S queue's mean delay (ms)."""
    sim, (R1, R2, S, D), bott = _path()
    sim.tcp(S, D, stack="full", cc="prague", pacing=paced)
    res = sim.run(20, trace_packets=True)
    ev = res.events.filter((pl.col("event") == "+") & (pl.col("from_node") == S.id) & (pl.col("ptype") == "tcp")
                           & (pl.col("size") > 100) & (pl.col("time") >= 10)).sort("time")
    gaps = ev["time"].diff().drop_nulls()
    gp = res.goodput((10, 20), link=bott)["goodput_bps"][0] / 1e6
    qd = res.queue_delay(bott, (10, 20))["mean"][0] * 1000
    return gaps, gp, qd


def test_prague_paces_as_tcp_prague():
    """tcp_prague paces every packet (`prague_update_pacing_rate`: cwnd
    1500-byte packets per SRTT, 100% past slow start), and so does the
    full TCP's Prague by default: past slow start its segments leave the
    100 Mb/s access link at least a packet time at about the bottleneck's
    20 Mb/s apart (1448 bytes at cwnd/SRTT, a little above 20 Mb/s: about
    0.55 ms), where unpaced the delayed ACKs release pairs back to back
    (0.12 ms apart at 100 Mb/s).  The link stays full either way."""
    paced, gp_p, qd_p = _send_gaps(True)
    unpaced, gp_u, qd_u = _send_gaps(False)
    assert paced.min() > 0.4e-3, paced.min()
    assert (unpaced < 0.2e-3).mean() > 0.3, (unpaced < 0.2e-3).mean()
    assert gp_p > 18.0 and gp_u > 18.0, (gp_p, gp_u)
    assert qd_p < 2.0 and qd_u < 2.0, (qd_p, qd_u)


@pytest.mark.parametrize("kw, words", [
    ({"pacing_ca_ratio": 120}, "pacing_ca_ratio does not apply to cc 'prague': its rate is tcp_prague's"),
    ({"pacing_ss_ratio": 300}, "pacing_ss_ratio does not apply to cc 'prague'"),
    ({"pacing": False, "max_pacing_rate": "1Gb"}, "max_pacing_rate is a pacing parameter; it needs pacing=True"),
])
def test_prague_pacing_options_refused_by_name(kw, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError) as e:
        sim.tcp(a, b, stack="full", cc="prague", **kw)
    assert words in str(e.value)


def test_dualpi2_step_in_packets_holds_the_l4s_queue_at_n_packets():
    """DualPI2's step in packets (Linux's `step_thresh` in packets,
    `step_packets`): Prague alone on 20 Mb/s (a 1500-byte packet every
    0.6 ms) is marked while more than N packets stay in the L4S queue, so
    its queue settles near N packets whatever their sojourn: about
    20 x 0.6 = 12 ms with N = 20, 5 x 0.6 = 3 ms with N = 5, where the
    default 1 ms step holds it under 1 ms; the link stays full.  That is
    with Prague's classic-ECN detection off: on (its default), a standing
    queue of 3 ms or more is past the detection's 2 ms depth reference,
    Prague takes the bottleneck for a classic one and cuts deeper, so the
    queue stays well below N packets (measured 0.89 and 4.73 ms)."""
    def run(params, fallback=0):
        sim, (R1, R2, S, D), bott = _path(queue_params=params)
        sim.tcp(S, D, stack="full", cc="prague", cc_params={"classic_ecn_fallback": fallback})
        res = sim.run(20, trace_packets=[bott])
        qd = res.queue_delay(bott, (10, 20))["mean"][0] * 1000
        gp = res.goodput((10, 20), link=bott)["goodput_bps"][0] / 1e6
        return qd, gp
    q1, g1 = run({})
    q5, g5 = run({"step_packets": 5})
    q20, g20 = run({"step_packets": 20})
    assert q1 < 1.0, q1
    assert 2.0 < q5 < 4.0, q5
    assert 9.0 < q20 < 14.0, q20
    assert min(g1, g5, g20) > 18.0, (g1, g5, g20)
    q5d, _ = run({"step_packets": 5}, 1)
    q20d, _ = run({"step_packets": 20}, 1)
    assert q5d < 1.5 and q20d < 6.0, (q5d, q20d)


def test_prague_grows_only_while_cwnd_limited_with_v06s_gate():
    """tcp_prague v0.6 grows its window only while `tcp_is_cwnd_limited`
    (`cwnd_limited` 1; the socket keeps Linux 6.x's record of window use).
    A flow held by a 30 KB receive window on an idle 100 Mb/s path (no
    mark, no loss) is never window-limited past slow start: with the gate
    its window stops near twice what it has out (about 59 KB after 10 s),
    without it (the default, the 2020 module's) it grows by itself to
    megabytes; the goodput is the receive window's either way."""
    def run(gate):
        sim, (R1, R2, S, D), _ = _path(rate="100Mb")
        sim.tcp(S, D, stack="full", cc="prague", rcv_buf=30_000, cc_params={"cwnd_limited": gate})
        r = sim.run(10).full_tcp.row(0, named=True)
        return r["cwnd_bytes"], r["goodput_bps"] / 1e6, r["ecn_reductions"], r["retransmissions"]
    gated, free = run(1), run(0)
    assert gated[2:] == (0, 0) and free[2:] == (0, 0)
    assert 30_000 <= gated[0] <= 2 * 30_000 + 2 * 1448, gated
    assert free[0] > 100 * 30_000, free
    assert abs(gated[1] - free[1]) < 0.05 * free[1], (gated, free)
