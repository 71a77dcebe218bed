"""TCP Prague's classic-ECN bottleneck detection (`cc_params`
`classic_ecn_fallback`: 1 detect and fall back, the default; 2 detect
only; 0 none; cc/prague.rs, `ClassicEcn`): a Prague flow sharing an RFC
3168 ECN AQM (RED, PIE) with a classic flow takes its marks for a classic
bottleneck by their delay variation and cuts as a Reno-friendly flow
would, instead of starving the classic flow; behind DualPI2 it is not
misled (its run is the same with and without the detection), and behind
FQ-CoDel the flow queues keep the two apart either way."""

from __future__ import annotations

import pytest

import dumbbell as db


def _run(queue, fallback, rate=50, rtt=10, classic="cubic", seed=1, duration=30.0):
    """Prague and a classic ECN flow (CUBIC or NewReno, `ecn=True`) over a
    bottleneck of `rate` Mb/s, `rtt` ms base RTT: their goodputs (Mb/s)
    over the second half."""
    sim = db.Simulation(seed=seed)
    s_l, s_c, r1, r2, dst = sim.nodes(5)
    for s in (s_l, s_c):
        sim.link(s, r1, "1Gb", 0.001, queue_limit=10_000)
    params = {"setbit": True} if queue == "RED" else {"use_ecn": True} if queue in ("FQ_CoDel", "PIE") else {}
    limit = max(int(rate * 1e6 * 0.25 / 8 / 1500), 20)
    one_way = rtt / 2000 - 0.002
    bott = sim.link(r1, r2, rate * 1e6, one_way, queue=queue, duplex=False, queue_limit=limit, queue_params=params)
    sim.link(r2, r1, rate * 1e6, one_way, duplex=False, queue_limit=10_000)
    sim.link(r2, dst, "1Gb", 0.001, queue_limit=10_000)
    buf = max(4 * int(rate * 1e6 * rtt / 8000), 1 << 20)
    common = dict(stack="full", sack=True, snd_buf=buf, rcv_buf=buf)
    fl = sim.tcp(s_l, dst, cc="prague", cc_params={"classic_ecn_fallback": fallback}, flow_id=0, **common)
    fc = sim.tcp(s_c, dst, cc=classic, ecn=True, flow_id=1, start=0.01, **common)
    res = sim.run(duration, trace_packets=[bott], monitor_queues=False)
    gp = res.goodput((duration / 2, duration), link=bott, by="flow")
    rates = {row["flow"]: row["goodput_bps"] / 1e6 for row in gp.iter_rows(named=True)}
    return rates.get(fl.id, 0.0), rates.get(fc.id, 0.0)


@pytest.mark.parametrize("queue,classic,rate,rtt,off_above,on_below", [
    # measured (seed 1, 30 s): 22.3 -> 1.89; 14.7 -> 1.46; 21.5 -> 1.95
    ("RED", "cubic", 50, 10, 10.0, 3.0),
    ("RED", "newreno", 10, 50, 10.0, 2.0),
    ("PIE", "newreno", 50, 10, 10.0, 2.5),
])
def test_prague_falls_back_on_a_classic_ecn_aqm(queue, classic, rate, rtt, off_above, on_below):
    """Without the detection Prague answers each classic mark by alpha/2
    (a few per cent of its window) while the classic flow cuts by 30-50%:
    the classic flow is starved (10-25 times less).  With it, the queue's
    delay variation (several ms, against the 750 us reference) drives the
    score past 9 within a few rounds and each CWR cuts by at least 5/16 of
    the window: within 2-3x of the classic flow (ns-3.37's CUBIC, which has
    no Reno-friendly region, stays below a Reno-like flow at this BDP)."""
    p0, c0 = _run(queue, 0, rate, rtt, classic)
    p1, c1 = _run(queue, 1, rate, rtt, classic)
    assert p0 / c0 > off_above, (p0, c0)
    assert p1 / c1 < on_below, (p1, c1)
    assert p1 + c1 > 0.9 * rate, (p1, c1)
    # detection alone (2) changes nothing in the response
    assert _run(queue, 2, rate, rtt, classic) == (p0, c0)


def test_fq_codel_keeps_them_apart_either_way():
    """FQ-CoDel gives each flow its own queue: about 1:1 with or without
    the detection (measured 1.00 and 0.99)."""
    for fallback in (0, 1):
        p, c = _run("FQ_CoDel", fallback)
        assert 0.8 < p / c < 1.25, (fallback, p, c)


@pytest.mark.parametrize("rate,rtt", [(10, 100), (100, 10)])
def test_dualpi2_is_not_taken_for_classic(rate, rtt):
    """Behind DualPI2 (the L4S queue holds about 1 ms, its variation well
    under 750 us) the score stays at or below 8: the run is the same with
    the detection on and off, including at a low rate and a long RTT,
    where the design's authors report false detections."""
    assert _run("DualPI2", 1, rate, rtt, duration=20) == _run("DualPI2", 0, rate, rtt, duration=20)


def test_parameter_is_checked_and_listed():
    from dumbbell.api._fulltcp import FULL_CC_PARAMS
    assert FULL_CC_PARAMS["prague"]["classic_ecn_fallback"] == 1
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match=r"classic_ecn_fallback must be 0 to 2, got 3"):
        sim.tcp(a, b, stack="full", cc="prague", cc_params={"classic_ecn_fallback": 3})
