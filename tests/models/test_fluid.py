"""The fluid mode: the model's equations (Misra-Gong-Towsley 2000, Hollot et
al. 2001), its invariants, its linear analysis, the API entry point, and a
cross-check against a packet-level run of the same scenario."""

import dataclasses
import math

import numpy as np
import polars as pl
import pytest

import dumbbell as db
from dumbbell.models import fluid, linear
from dumbbell.models.fluid import Bottleneck, FlowClass, integrate

C10 = 10e6 / 8 / 1040      # 10 Mb/s in 1040-byte packets


def red(**kw):
    p = dict(c=C10, buffer=100, queue="red", min_th=10, max_th=30, max_p=0.1, w_q=0.002)
    p.update(kw)
    return Bottleneck(**p)


def test_red_profile_is_hollot_eq_3():
    b = red(gentle=False)
    assert fluid.red_profile(5, b) == 0
    assert math.isclose(fluid.red_profile(20, b), 0.05)
    assert fluid.red_profile(30, b) == 1.0
    g = red()
    assert math.isclose(fluid.red_profile(45, g), 0.1 + 0.9 * 15 / 30)
    assert math.isclose(fluid.red_profile(20, red(spacing="wait")), 2 * 0.05 / 3)
    assert math.isclose(fluid.red_profile(20, red(spacing="uniform")), 2 * 0.05 / 1.05)


@pytest.mark.parametrize("b", [red(), red(ecn=True), Bottleneck(c=C10, buffer=60)])
def test_invariants(b):
    cl = [FlowClass(n=5, tp=0.03, w_max=200), FlowClass(n=7, tp=0.15, w_max=200)]
    r = integrate(cl, b, 30.0)
    assert (r.w >= 1 - 1e-12).all() and (r.w <= 200 + 1e-9).all()
    assert (r.q >= 0).all() and (r.q <= b.buffer + 1e-9).all()
    assert ((r.p >= 0) & (r.p <= 1)).all() and (r.d <= r.p + 1e-12).all()
    # no more than the capacity gets through, and a loaded link is used fully
    sel = r.t > 10
    assert r.goodput[sel].sum(axis=1).max() <= b.c * (1 + 1e-6) + 1e-9 or b.queue == "droptail"
    assert r.delivered.sum() <= b.c * 30 + b.buffer + 1e-6
    assert r.delivered.sum() > 0.9 * b.c * 30 * (20 / 30)


def test_red_equilibrium_matches_the_operating_point():
    # One class: the fluid run settles where dW/dt = 0 and dq/dt = 0, i.e.
    # Hollot eq. 4: W0 = R0 C/N, p0 = 2/W0^2, p0 = p(q0).  With ECN, so that
    # no signalled packet is lost (Hollot's queue equation has no (1 - p)).
    b = red(w_q=0.01, max_th=40, ecn=True)
    n, tp = 20, 0.05
    r = integrate([FlowClass(n=n, tp=tp, slow_start=False, w0=2)], b, 60.0)
    op = linear.operating_point(n, b.c, tp, b)
    tail = r.t > 40
    assert math.isclose(r.q[tail].mean(), op.q0, rel_tol=0.02)
    assert math.isclose(r.w[tail, 0].mean(), op.w0, rel_tol=0.02)
    assert r.q[tail].std() < 0.05 * op.q0     # the linear analysis says it is stable here
    m = linear.margins(n, b.c, op.r0, b)
    assert m["phase_margin_deg"] > 0 and m["gain_margin_db"] > 0


def test_an_unstable_design_oscillates():
    # Many fewer flows and a long RTT: Hollot's condition fails, the loop
    # has negative margins, and the fluid run does not settle.
    b = red(max_p=0.5, min_th=5, max_th=15, w_q=0.02, buffer=400)
    n, tp = 3, 0.25
    st = linear.red_stability(n, tp + 0.01, b.c, b)
    assert not st["stable"]
    op = linear.operating_point(n, b.c, tp, b)
    m = linear.margins(n, b.c, op.r0, b)
    assert m["gain_margin_db"] is not None and m["gain_margin_db"] < 0
    r = integrate([FlowClass(n=n, tp=tp, slow_start=False, w0=2, w_max=1000)], b, 80.0)
    tail = r.t > 40
    assert r.q[tail].std() > 0.2 * r.q[tail].mean()


def test_heterogeneous_rtts_share_by_one_over_rtt():
    # MGT with a common p: equal windows at equilibrium, so rates go as 1/R.
    r = integrate([FlowClass(n=10, tp=0.04), FlowClass(n=10, tp=0.12)], red(), 60.0)
    tail = r.t > 30
    w = r.w[tail].mean(axis=0)
    assert math.isclose(w[0], w[1], rel_tol=0.02)
    rate = r.rate[tail].mean(axis=0)
    R = r.rtt[tail].mean(axis=0)
    assert math.isclose(rate[0] / rate[1], R[1] / R[0], rel_tol=0.02)


def test_step_halving_converges():
    cl = [FlowClass(n=10, tp=0.04), FlowClass(n=10, tp=0.12)]
    a = integrate(cl, red(), 30.0)
    b = integrate(cl, red(), 30.0, h=a.h / 2)
    assert math.isclose(a.mean_queue, b.mean_queue, rel_tol=0.01)
    assert np.allclose(a.delivered, b.delivered, rtol=0.01)


def test_designs():
    d = linear.red_design(60, 0.246, 3750)
    b = red(c=3750, buffer=800, min_th=50, max_th=50 + 0.1 / (d["L_red_max"] * 0.99), w_q=d["w_q"], gentle=False)
    assert linear.red_stability(60, 0.246, 3750, b)["stable"]
    pi = linear.pi_design(60, 0.246, 3750)
    m = linear.margins(60, 3750, 0.246, pi=(pi["K_pi"], pi["z"]))
    assert math.isclose(m["gain_crossover"], pi["w_g"], rel_tol=1e-3)
    assert m["phase_margin_deg"] > 45


def scenario(queue="RED", ecn=False, n=10, bw="10Mb", rtts=(0.04, 0.12), limit=100, qp=None):
    sim = db.Simulation()
    L, R = sim.nodes(2)
    if queue == "RED" and qp is None:
        qp = {"thresh": 10, "maxthresh": 30, "q_weight": 0.002, "bytes": False, "queue_in_bytes": False,
              "setbit": ecn}
    sim.link(L, R, bandwidth=bw, delay="5ms", queue=queue, queue_limit=limit, queue_params=qp)
    for rtt in rtts:
        for _ in range(n):
            s, d = sim.nodes(2)
            sim.link(s, L, bandwidth="100Mb", delay=(rtt - 0.01) / 4)
            sim.link(R, d, bandwidth="100Mb", delay=(rtt - 0.01) / 4)
            sim.tcp(s, d, variant="reno", window=1000, ecn=ecn)
    return sim


def test_api_entry_point_and_frames():
    sim = scenario()
    fr = sim.run(20, mode="fluid")
    assert fr.mode == "fluid" and len(fr.classes) == 2 and [c.n for c in fr.classes] == [10, 10]
    assert fr.flows.height == 20 and set(fr.flows["class"]) == {0, 1}
    assert fr.series.columns == ["time", "class", "cwnd", "rate_pkts", "goodput_pkts", "rtt"]
    assert fr.queue_series.columns == ["time", "queue_pkts", "avg_queue_pkts", "p_signal", "p_drop"]
    assert fr.queues.row(0, named=True)["src"] == 0 and fr.queues.row(0, named=True)["dst"] == 1
    # RED's parameters come from the scenario
    assert (fr.bottleneck.min_th, fr.bottleneck.max_th, fr.bottleneck.w_q) == (10, 30, 0.002)
    assert fr.bottleneck.spacing == "wait" and not fr.bottleneck.ecn
    with pytest.raises(ValueError, match="mode must be"):
        sim.run(20, mode="fluids")
    with pytest.raises(ValueError, match="no packets to trace"):
        sim.run(20, mode="fluid", trace_packets=True)


def test_refuses_what_it_does_not_cover():
    sim = scenario()
    sim.udp(sim.node_list[2], sim.node_list[3])
    with pytest.raises(ValueError, match="datagram sources"):
        sim.run(10, mode="fluid")
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b, queue="CoDel")
    sim.tcp(a, b)
    with pytest.raises(ValueError, match="CoDel queue is not covered"):
        sim.run(10, mode="fluid")
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    sim.tcp(a, b, variant="vegas")
    with pytest.raises(ValueError, match="vegas senders are not covered"):
        sim.run(10, mode="fluid")
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b, queue="PI")
    sim.tcp(a, b, variant="reno", sink="delack")
    with pytest.raises(ValueError, match="delayed-ACK sinks"):
        sim.run(10, mode="fluid")


def parking_lot(n=5, queue="RED"):
    # two 10 Mb/s RED links in tandem; class "long" crosses both, each
    # "short" class one of them; 100 Mb/s access links
    sim = db.Simulation()
    r0, r1, r2 = sim.nodes(3)
    qp = {"thresh": 10, "maxthresh": 30, "q_weight": 0.002, "bytes": False, "queue_in_bytes": False}
    l1 = sim.link(r0, r1, bandwidth="10Mb", delay="5ms", queue=queue, queue_limit=100, queue_params=qp)
    l2 = sim.link(r1, r2, bandwidth="10Mb", delay="5ms", queue=queue, queue_limit=100, queue_params=qp)
    for first, last in ((r0, r2), (r0, r1), (r1, r2)):
        s, d = sim.nodes(2)
        sim.link(s, first, bandwidth="100Mb", delay="5ms")
        sim.link(last, d, bandwidth="100Mb", delay="5ms")
        for _ in range(n):
            sim.tcp(s, d, variant="reno", window=1000)
    return sim, l1, l2


def test_parking_lot_in_both_modes():
    sim, l1, l2 = parking_lot()
    T = 60
    fr = sim.run(T, mode="fluid")
    assert fr.links == [l1, l2] and fr.queues.height == 2
    assert sorted(c.route for c in fr.classes) == [(0,), (0, 1), (1,)]
    assert fr.queue_series.columns[:3] == ["time", "queue", "queue_pkts"]
    pr = sim.run(T)
    cls = fr.flows["class"]
    pk = pr.flows.with_columns(cls=cls).group_by("cls").agg(pl.col("ack").sum()).sort("cls")["ack"].to_numpy()
    fl = fr.flows.group_by("class").agg(pl.col("goodput_pkts").sum()).sort("class")["goodput_pkts"].to_numpy()
    long_ = [i for i, c in enumerate(fr.classes) if len(c.route) == 2][0]
    # the long flows get less than either short class, in both modes
    assert all(fl[long_] < 0.7 * fl[i] and pk[long_] < 0.7 * pk[i] for i in range(3) if i != long_)
    np.testing.assert_allclose(fl, pk, rtol=0.15)
    for q in (0, 1):
        qp = pr.queues.filter((pl.col("src") == fr.links[q].src.id) & (pl.col("dst") == fr.links[q].dst.id))
        assert 0.5 * qp["mean_queue_pkts"][0] < fr.time_average_queue(queue=q) < 2 * qp["mean_queue_pkts"][0]


@pytest.mark.parametrize("ecn", [False, True])
def test_cross_check_red_against_the_packet_level(ecn):
    # 2 x 10 Reno flows, RTT 40/120 ms, 10 Mb/s RED: per-class throughput
    # within 10% of the packet run's (the mean queue is not: see
    # docs/fluid.md's validity table).
    sim = scenario(ecn=ecn)
    T = 60
    fr = sim.run(T, mode="fluid")
    pr = sim.run(T)
    cls = fr.flows["class"]
    pk = pr.flows.with_columns(cls=cls).group_by("cls").agg(pl.col("ack").sum()).sort("cls")["ack"].to_numpy()
    fl = fr.flows.group_by("class").agg(pl.col("goodput_pkts").sum()).sort("class")["goodput_pkts"].to_numpy()
    np.testing.assert_allclose(fl, pk, rtol=0.10)
    q_pk = pr.queues.filter((pl.col("src") == 0) & (pl.col("dst") == 1))["mean_queue_pkts"][0]
    assert 0.5 * q_pk < fr.time_average_queue() < 2 * q_pk


@pytest.mark.parametrize("b", [red(), red(ecn=True, spacing="wait"), red(gentle=False, mark_p=0.05, ecn=True),
                               Bottleneck(c=C10, buffer=60)])
@pytest.mark.parametrize("decrease", fluid.DECREASES)
def test_the_engine_integrator_is_the_python_reference(b, decrease):
    # fluid.rs runs the same equations and steps as integrate_python
    cl = [FlowClass(n=5, tp=0.03, w_max=200), FlowClass(n=7, tp=0.15, w_max=60, start=2.0),
          FlowClass(n=3, tp=0.08, w0=4, slow_start=False)]
    got = integrate(cl, b, 20.0, decrease=decrease)
    ref = fluid.integrate_python(cl, b, 20.0, decrease=decrease)
    for k in ("t", "w", "rate", "goodput", "rtt", "q", "x", "p", "d", "delivered"):
        np.testing.assert_allclose(getattr(got, k), getattr(ref, k), rtol=1e-9, atol=1e-9, err_msg=k)
    assert math.isclose(got.mean_queue, ref.mean_queue, rel_tol=1e-9)


def pi_b(qref=200.0, **kw):
    # Hollot et al.'s PI example (N >= 60, R <= 0.246 s, C = 3750 pkt/s):
    # K_pi = 9.64e-6, z = 0.53, sampled at 160 Hz
    a, b = linear.pi_discrete(9.64e-6, 0.53, 160)
    p = dict(c=3750, buffer=800, queue="pi", pi_a=a, pi_b=b, pi_w=160, qref=qref)
    p.update(kw)
    return Bottleneck(**p)


def test_pi_discrete_is_ns2s_defaults_for_hollots_example():
    a, b = linear.pi_discrete(9.64e-6, 0.53, 160)
    assert (round(a, 8), round(b, 8)) == (1.822e-5, 1.816e-5)
    k, z = linear.pi_continuous(a, b, 160)
    assert math.isclose(k, 9.64e-6) and math.isclose(z, 0.53)
    d = linear.pi_design(60, 0.246, 3750, fs=160)
    assert (d["a"], d["b"]) == linear.pi_discrete(d["K_pi"], d["z"], 160)
    with pytest.raises(ValueError, match="a > b"):
        linear.pi_continuous(1e-5, 2e-5, 160)


@pytest.mark.parametrize("ecn", [False, True])
def test_pi_holds_the_reference_queue(ecn):
    # the integral action: whatever the load, the queue settles at q_ref and
    # the signal probability at the operating point's p0 = 2/W0^2
    n, tp = 60, 0.2
    r = integrate([FlowClass(n=n, tp=tp)], pi_b(ecn=ecn), 200.0)
    tail = r.t > 150
    assert abs(r.q[tail].mean() - 200) < 2
    op = linear.pi_operating_point(n, 3750, tp, 200)
    assert math.isclose(r.p[tail].mean(), op.p0, rel_tol=0.03)
    assert math.isclose(r.w[tail, 0].mean(), op.w0, rel_tol=0.02)
    # RED at the same load holds no fixed queue: its queue follows the load
    r2 = integrate([FlowClass(n=2 * n, tp=tp)], pi_b(ecn=ecn), 200.0)
    assert abs(r2.q[r2.t > 150].mean() - 200) < 2


def test_pi_refuses_bad_parameters():
    with pytest.raises(ValueError, match="PI needs w > 0"):
        integrate([FlowClass(n=1, tp=0.1)], pi_b(pi_w=0), 1.0)
    with pytest.raises(ValueError, match="no PI"):
        fluid.integrate_python([FlowClass(n=1, tp=0.1)], pi_b(), 1.0)


def test_pi_from_the_api_in_both_modes():
    # queue="PI" with ns-2's variables from the design rule (N >= 10, R <=
    # 0.2 s, crossover 3 rad/s, 160 Hz): the packet level holds its queue
    # near q_ref, as the fluid mode does, which reads the same parameters
    d = linear.pi_design(10, 0.2, C10, w_g=3.0, fs=160)
    sim = scenario(queue="PI", n=5, qp={"a": d["a"], "b": d["b"], "w": 160, "qref": 20})
    fr = sim.run(60, mode="fluid")
    b = fr.bottleneck
    assert (b.queue, b.pi_a, b.pi_b, b.pi_w, b.qref, b.buffer) == ("pi", d["a"], d["b"], 160, 20.0, 100.0)
    pr = sim.run(60)
    q_pk = pr.queues.filter((pl.col("src") == 0) & (pl.col("dst") == 1))["mean_queue_pkts"][0]
    assert 17 < q_pk < 25, q_pk
    assert 19 < fr.time_average_queue((20, 60)) < 21
    assert math.isclose(fr.time_average_queue(), q_pk, rel_tol=0.15)
    with pytest.raises(db.SimulationError, match="w_ must be a number above 0"):
        scenario(queue="PI", qp={"w": 0}).run(1)


def test_per_window_decrease_survives_the_slow_start_overshoot():
    # 10 flows, 200 ms, 100 Mb/s: slow start overshoots the 1000-packet
    # buffer; MGT's per-signal halving collapses the windows to 1 (and they
    # grow back by 1 per round trip), halving per window of signalled data
    # keeps them near the link's share, as TCP does
    cl = [FlowClass(n=10, tp=0.2, w0=2)]
    b = Bottleneck(c=12019, buffer=1000)
    mgt = integrate(cl, b, 20.0)
    win = integrate(cl, b, 20.0, decrease="per-window")
    assert mgt.w[mgt.t > 5, 0].max() < 100
    assert win.w[win.t > 5, 0].min() > 120
    assert win.delivered[0] > 2.5 * mgt.delivered[0]
    with pytest.raises(ValueError, match="decrease must be one of"):
        integrate(cl, b, 1.0, decrease="half")


def test_a_sweep_over_the_fluid_mode(tmp_path):
    # a sweep whose runs are fluid runs: RED's queue grows with the number
    # of flows, PI holds q_ref whatever it is; the table's numbers are the
    # function's own
    from pathlib import Path

    from dumbbell.sweep import Plan, run_sweep

    import fluidfns

    here = Path(__file__).resolve().parent
    plan = Plan(function="fluidfns:dumbbell_fluid", params={"queue": ["RED", "PI"], "n": [5, 20, 60]},
                python_path=[str(here)], base_dir=tmp_path, cache=tmp_path / "cache")
    df = run_sweep(plan, jobs=2, progress=False)
    assert df["status"].to_list() == ["ok"] * 6
    red = df.filter(pl.col("queue") == "RED").sort("n")["mean_queue"].to_list()
    assert red[0] < red[1] < red[2]
    pi = df.filter(pl.col("queue") == "PI")["late_queue"].to_list()
    assert all(abs(q - 20) < 1 for q in pi), pi
    row = df.filter((pl.col("queue") == "PI") & (pl.col("n") == 20)).row(0, named=True)
    assert row["goodput"] == fluidfns.dumbbell_fluid(20, "PI")["goodput"]


def test_the_linear_margins_predict_the_fluid_runs():
    # Hollot et al.'s network (N 60, C 3750 pkt/s, tp 200 ms): RED within
    # Proposition 1 has positive margins and its fluid queue settles; with
    # L_red 80 times larger the margins are negative and the queue
    # oscillates; PI by the rule holds q_ref
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "fluid_bode.py"
    spec = importlib.util.spec_from_file_location("fluid_bode", path)
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    for name, b, pi in ex.designs():
        op = linear.pi_operating_point(ex.N, ex.C, ex.TP, b.qref) if pi else linear.operating_point(ex.N, ex.C,
                                                                                                    ex.TP, b)
        m = linear.margins(ex.N, ex.C, op.r0, **({"pi": pi} if pi else {"b": b}))
        r = integrate([FlowClass(n=ex.N, tp=ex.TP, slow_start=False, w0=op.w0)], b, 200.0)
        sd = r.q[r.t >= 100].std()
        stable = m["phase_margin_deg"] > 0 and m["gain_margin_db"] > 0
        assert stable == (sd < 1.0), (name, m, sd)
        assert stable == ("x 80" not in name)
        if stable:
            assert abs(r.q[r.t >= 100].mean() - op.q0) < 0.02 * op.q0 + 1
