"""DCTCP on the full TCP (`tcp(stack="full", cc="dctcp")`, ns-3.37's
TcpDctcp with its DctcpEcn mode; docs/full-tcp.md): the ECN code points of
ns-3.37's tcp-dctcp-test.cc, ECT(1) with `use_ect0=0`, and the behaviour on
a step-marking queue (RFC 8257: the link full, the queue near K, no loss)."""

import polars as pl
import pytest

import dumbbell as db


def _path(queue="StepMark", queue_params=None, rate="10Mb", limit=200):
    sim = db.Simulation(seed=3)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "2ms")
    sim.link(R2, D, "100Mb", "2ms")
    bott = sim.link(R1, R2, rate, "10ms", queue=queue, queue_limit=limit,
                    queue_params=queue_params if queue_params is not None else {"thresh": 10})
    return sim, (R1, R2, S, D), bott


def _sent(cc, **params):
    """The packets each end put on its access link: (syn, syn_ack, pure
    ACKs, data), each a list of trace flags."""
    sim, (R1, R2, S, D), _ = _path(queue_params={"thresh": 5})
    sim.tcp(S, D, stack="full", cc=cc, **params)
    ev = sim.run(2, trace_packets=True).events.filter(pl.col("event") == "+").sort("time")
    snd = ev.filter(pl.col("from_node") == S.id)
    rcv = ev.filter(pl.col("from_node") == D.id)
    flags = lambda f: f["flags"].cast(pl.String).to_list()
    syn, syn_ack = flags(snd.head(1)), flags(rcv.head(1))
    acks = flags(rcv.filter(pl.col("ptype") == "ack"))
    data = flags(snd.filter((pl.col("ptype") == "tcp") & (pl.col("size") > 100)))
    return syn, syn_ack, acks, data


def test_ect_on_every_packet_for_dctcp_on_data_only_for_classic_ecn():
    """ns-3.37 tcp-dctcp-test.cc, code point cases 1 and 2: DCTCP marks
    its SYN, the SYN+ACK, pure ACKs and data ECN-capable (`DctcpEcn`
    mode); an ECN-enabled NewReno only its data (`ClassicEcn`)."""
    syn, syn_ack, acks, data = _sent("dctcp")
    assert len(acks) > 100 and len(data) > 100
    assert all("N" in f for f in syn + syn_ack + acks + data), (syn, syn_ack, set(acks), set(data))
    syn, syn_ack, acks, data = _sent("newreno", ecn=True)
    assert not any("N" in f for f in syn + syn_ack + acks), (syn, syn_ack, set(acks))
    assert all("N" in f for f in data)
    # ECN off: nothing is ECN-capable; DCTCP turns ECN on whatever `ecn` says
    assert not any("N" in f for f in sum(_sent("newreno"), []))
    assert all("N" in f for f in sum(_sent("dctcp", ecn=False), []))


def test_use_ect0_0_sends_ect1_into_dualpi2s_l4s_queue():
    """`use_ect0=0` (ns-3's UseEct0 false, test case 1's ECT(1)): DualPI2
    puts the packets in its L4S queue, whose 1 ms step keeps them short;
    with ECT(0) (the default) they wait in the classic queue near its
    15 ms target."""
    def delay(**params):
        sim, (R1, R2, S, D), bott = _path("DualPI2", {}, rate="20Mb", limit=500)
        sim.tcp(S, D, stack="full", cc="dctcp", **params)
        res = sim.run(10, trace_packets=[bott])
        return res.queue_delay(bott, (4, 10))["mean"][0] * 1000
    ect1, ect0 = delay(cc_params={"use_ect0": 0}), delay()
    assert ect1 < 2 and ect0 > 8, (ect1, ect0)


def _step(cc, **params):
    sim, (R1, R2, S, D), bott = _path()
    f = sim.tcp(S, D, stack="full", cc=cc, **params)
    g = sim.tcp(S, D, stack="full", cc=cc, start=0.5, **params)
    res = sim.run(12, trace_packets=[bott])
    q = res.queues.filter(src=R1.id, dst=R2.id).row(0, named=True)
    dm = res.drops_and_marks((3, 12), link=bott)
    gp = res.goodput((3, 12), link=bott)["goodput_bps"].sum() / 1e6
    return q, int(dm["drops"].sum()), int(dm["marks"].sum()), gp, res.full_tcp


def test_dctcp_fills_the_link_with_the_queue_near_k_and_no_loss():
    """Two DCTCP flows on a 10 Mb/s step-marking queue (K = 10 packets, a
    28 ms RTT, a BDP of about 23 packets): no loss, no retransmission, the
    link full, the queue near K (RFC 8257 section 3).  NewReno with classic
    ECN on the same queue halves at each mark: a shorter queue, less
    goodput."""
    q, drops, marks, gp, ft = _step("dctcp")
    assert drops == 0 and marks > 50, (drops, marks)
    assert (ft["retransmissions"] == 0).all() and (ft["timeouts"] == 0).all()
    assert (ft["ecn_reductions"] > 20).all()
    assert gp > 9.5, gp
    assert 6 < q["mean_queue_pkts"] < 14, q
    qr, dropsr, _, gpr, _ = _step("newreno", ecn=True)
    assert dropsr == 0
    assert qr["mean_queue_pkts"] < q["mean_queue_pkts"] / 2 and gpr < gp, (qr, gpr)


def test_dctcp_alpha_on_init_and_g_change_the_run():
    """alpha starts at 1 (ns-3's DctcpAlphaOnInit): the first marks halve
    the window.  With alpha_on_init 0 the first cuts are small, so the
    flows keep more in the queue early on; the run differs, determinism
    holds."""
    a = _step("dctcp")[4]
    b = _step("dctcp", cc_params={"alpha_on_init": 0, "shift_g": 2})[4]
    assert a.equals(_step("dctcp")[4])
    assert not a.equals(b)


@pytest.mark.parametrize("ccp, words", [
    ({"use_ect0": 2}, "dctcp's parameter use_ect0 must be 0 to 1, got 2"),
    ({"alpha_on_init": 1025}, "dctcp's parameter alpha_on_init must be 0 to 1024, got 1025"),
    ({"g": 1}, "dctcp has no parameter 'g'; its parameters: shift_g, alpha_on_init, use_ect0"),
])
def test_bad_dctcp_parameters_are_clear_errors(ccp, words):
    sim, (R1, R2, S, D), _ = _path()
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        sim.tcp(S, D, stack="full", cc="dctcp", cc_params=ccp)
        sim.run(1)


def _against_ns3(cc, **params):
    """crates/engine/testdata/full_tcp/dctcp-step.cc's scenario: 100 Mb/s,
    2 ms access links, a 10 Mb/s, 10 ms step-marking bottleneck (K = 10,
    200 packets), two flows, the second from 0.5 s, 12 s.  Returns the
    payload goodput and the time-weighted mean of the waiting queue over
    3-12 s, the marks and drops, and each flow's entries into CWR."""
    sim = db.Simulation(seed=3)
    S, R1, R2, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "2ms", queue_limit=1000)
    bott = sim.link(R1, R2, "10Mb", "10ms", queue="StepMark", queue_limit=201, queue_params={"thresh": 10})
    sim.link(R2, D, "100Mb", "2ms", queue_limit=1000)
    for i in range(2):
        sim.tcp(S, D, stack="full", cc=cc, start=0.5 * i, **params)
    res = sim.run(12, trace_packets=[bott])
    ev = res.events
    rx = ev.filter((pl.col("event") == "r") & (pl.col("time") >= 3) & (pl.col("ptype") == "tcp"))
    payload = (rx["size"] - 54).clip(0).sum() * 8 / 9 / 1e6
    q, last, area = 0, 0.0, 0.0
    e = ev.filter(pl.col("event").cast(pl.String).is_in(["+", "-", "d"])).sort("time")
    for t, k in zip(e["time"].to_list(), e["event"].cast(pl.String).to_list()):
        if t >= 3:
            area += q * (t - max(last, 3))
        last = t
        q += 1 if k == "+" else -1
    area += q * (12 - last)
    dm = res.drops_and_marks((0, 12), link=bott)
    return payload, area / 9, int(dm["marks"].sum()), int(dm["drops"].sum()), res.full_tcp["ecn_reductions"].to_list()


def test_step_marking_run_against_ns3():
    """ns-3.37 on the same dumbbell (testdata/full_tcp/ns3-results-dctcp.txt):
    DCTCP 9.638 Mb/s of payload (the link full), a mean queue of 8.42
    packets, 2420 marks, no drops, 90 and 92 entries into CWR; NewReno
    with ECN 8.056 Mb/s, 2.40 packets, 348 marks, 21 and 20.  Dumbbell:
    9.640, 8.64, 2267, 0, 98 and 88; 7.737, 2.85, 340, 0, 22 and 19
    (ns-3's mean queue is of its queue disc, sampled, beside a one-packet
    device queue; ours the waiting packets, time-weighted)."""
    gp, q, marks, drops, cwr = _against_ns3("dctcp")
    assert gp > 9.6 and drops == 0
    assert abs(q - 8.42) < 0.15 * 8.42, q
    assert abs(marks - 2420) < 0.1 * 2420, marks
    assert all(abs(c - 91) < 0.12 * 91 for c in cwr), cwr
    gp, q, marks, drops, cwr = _against_ns3("newreno", ecn=True)
    assert abs(gp - 8.056) < 0.05 * 8.056 and drops == 0, gp
    assert abs(marks - 348) < 0.1 * 348, marks
    assert all(abs(c - 20.5) < 3 for c in cwr), cwr
