"""Every congestion control of the engine's cc/ seam on the full TCP
(`tcp(stack="full", cc=...)`, ns-3 dialect), and their attributes."""

from __future__ import annotations

import pytest

import dumbbell as db
from dumbbell.api._fulltcp import FULL_CC_PARAMS, FULL_CCS

ALL = ("newreno", "scalable", "vegas", "veno", "yeah", "cubic", "bic", "highspeed", "htcp", "hybla", "illinois",
       "westwood", "lp", "compound", "dctcp", "prague")


def run(cc, until=60.0, **kw):
    """Seed 004's 4.5 path at 50 ms (6 Mb/s, queues of 52)."""
    sim = db.Simulation(seed=1)
    s, r1, r2, d = sim.nodes(4)
    sim.link(s, r1, "10Mb", "0ms", queue_limit=52)
    sim.link(r1, r2, "6Mb", "50ms", queue_limit=52)
    sim.link(r2, d, "10Mb", "0ms", queue_limit=52)
    f = sim.tcp(s, d, stack="full", cc=cc, initial_cwnd=15, initial_ssthresh=15 * 1448, snd_buf="16MiB",
                rcv_buf="16MiB", sack=False, recovery="classic", trace_vars=("cwnd",), **kw)
    res = sim.run(until=until)
    return res.full_tcp.row(0, named=True), res.var("cwnd", f)["value"].to_list()


def test_every_algorithm_is_offered():
    # (and BBR, outside the seam: tests/api/test_full_tcp_bbr.py)
    assert set(FULL_CCS) == set(ALL) | {"bbr", "ledbat"}  # (LEDBAT: test_full_tcp_ledbat.py)
    assert FULL_CC_PARAMS["bbr"]["high_gain_permille"] == 2890 and FULL_CC_PARAMS["bbr"]["stream"] == 4
    assert FULL_CC_PARAMS["vegas"] == {"alpha": 2, "beta": 4, "gamma": 1}
    assert FULL_CC_PARAMS["veno"] == {"beta": 3}
    assert FULL_CC_PARAMS["scalable"] == {"ai_factor": 50}
    assert FULL_CC_PARAMS["hybla"] == {"rrtt_ms": 50}
    assert FULL_CC_PARAMS["dctcp"] == {"shift_g": 4, "alpha_on_init": 1024, "use_ect0": 1}
    assert FULL_CC_PARAMS["prague"] == {"shift_g": 4, "rtt_scaling": 1, "rtt_target_us": 25000, "rtt_transition": 500,
                                      "classic_ecn_fallback": 1, "cwnd_limited": 0}
    assert FULL_CC_PARAMS["yeah"]["stcp_ai_factor"] == 100 and FULL_CC_PARAMS["yeah"]["phy"] == 8


@pytest.mark.parametrize("cc", ALL)
def test_each_runs_and_moves_its_window(cc):
    row, cwnd = run(cc)
    assert row["cc"] == cc
    # ns-3.37's TcpLp declares early congestion from the first RTT (its
    # one-way delay includes the delayed-ACK wait) and holds 2-3 segments
    assert (row["goodput_bps"] > 1e6) if cc != "lp" else (1e5 < row["goodput_bps"] < 5e5), row
    assert len(set(cwnd)) > 5 and max(cwnd) > 15


#: ns-3.37 (../shared/oracle/ns3's tcp-wns3-2016, seed 004's 4.5 path, 400 s):
#: goodput Mb/s, fast recoveries, timeouts at 50, 100 and 200 ms
#: (docs/full-tcp.md, "The other congestion controls").
NS3_37 = {
    "cubic": [(5.763, 79, 0), (2.854, 75, 50), (2.854, 51, 34)],
    "bic": [(3.238, 161, 81), (2.956, 74, 37), (3.175, 30, 15)],
    "highspeed": [(5.761, 98, 0), (5.693, 39, 0), (4.925, 8, 8)],
    "htcp": [(5.737, 58, 0), (2.751, 40, 20), (2.338, 24, 12)],
    "illinois": [(5.744, 0, 0), (5.642, 0, 0), (5.332, 0, 0)],
    "westwood": [(5.708, 21, 0), (5.528, 5, 0), (4.691, 0, 0)],
    "lp": [(0.221, 0, 0), (0.119, 0, 0), (0.067, 0, 0)],
}


@pytest.mark.parametrize("cc", sorted(NS3_37))
def test_ns3_models_agree_with_ns3(cc):
    """ns-3.37's own models (each cc file's ns-3 dialect): the same
    recoveries and timeouts as ns-3.37 and its goodput within 0.2%."""
    for (goodput, fr, rto), delay in zip(NS3_37[cc], (50, 100, 200)):
        sim = db.Simulation(seed=1)
        r1, r2, s, d = sim.nodes(4)
        q = max(1, round(6e6 * 2.0 * (delay + 0.2) / 1000.0 / 8 / 1500)) + 2
        sim.link(r1, r2, "6Mb", f"{delay}ms", queue_limit=q)
        sim.link(s, r1, "10Mb", "0ms", queue_limit=q)
        sim.link(r2, d, "10Mb", "0ms", queue_limit=q)
        sim.tcp(s, d, stack="full", cc=cc, initial_cwnd=15, initial_ssthresh=15 * 1448, snd_buf="16MiB",
                rcv_buf="16MiB", sack=False, recovery="classic")
        row = sim.run(until=400.0).full_tcp.row(0, named=True)
        assert (row["fast_recoveries"], row["timeouts"]) == (fr, rto), (cc, delay, row)
        assert row["goodput_bps"] / 1e6 == pytest.approx(goodput, rel=2e-3, abs=5e-4), (cc, delay)


def test_ns3_attributes_are_offered():
    assert FULL_CC_PARAMS["htcp"] == {"default_backoff_pct": 50, "throughput_ratio_pct": 20, "delta_l_ms": 1000}
    assert FULL_CC_PARAMS["westwood"] == {"protocol_type": 0, "filter_type": 1}
    assert FULL_CC_PARAMS["bic"]["beta_pct"] == 80 and FULL_CC_PARAMS["bic"]["smooth_part"] == 5
    assert FULL_CC_PARAMS["cubic"]["beta_pct"] == 70 and FULL_CC_PARAMS["cubic"]["hystart"] == 1
    # ns-3.37's 12 attributes and two of ours, off: the Reno-friendly
    # region and Linux's slow-start bound
    assert len(FULL_CC_PARAMS["cubic"]) == 14 and FULL_CC_PARAMS["cubic"]["tcp_friendliness"] == 0
    assert FULL_CC_PARAMS["cubic"]["slow_start_cap"] == 0
    assert FULL_CC_PARAMS["illinois"]["alpha_max_milli"] == 10000
    assert FULL_CC_PARAMS["highspeed"] == {} and FULL_CC_PARAMS["lp"] == {}
    # Westwood+ (ns-3's ProtocolType) and a CUBIC beta of 0.5 change the run
    a, _ = run("westwood", until=30)
    b, _ = run("westwood", until=30, cc_params={"protocol_type": 1})
    assert a["bytes_received"] != b["bytes_received"]
    a, _ = run("cubic", until=30)
    b, _ = run("cubic", until=30, cc_params={"beta_pct": 50})
    assert a["bytes_received"] != b["bytes_received"]
    with pytest.raises(ValueError, match="default_backoff_pct must be 0 to 100, got 200"):
        run("htcp", until=1, cc_params={"default_backoff_pct": 200})


def test_algorithms_differ_where_ns3s_do():
    # 60 s at 50 ms: Scalable cuts by 1/8 and grows per segment acked, so it
    # cuts far more often than NewReno; Vegas holds a small window (ns-3.37:
    # 1.99 Mb/s over 400 s) and never overflows the queue
    nr, _ = run("newreno")
    sc, _ = run("scalable")
    vg, vcw = run("vegas")
    assert sc["fast_recoveries"] > 3 * max(nr["fast_recoveries"], 1)
    assert vg["fast_recoveries"] == 0 and max(vcw) < 30
    # ns-3.37's Veno and YeAH grow as NewReno on a clean path (their
    # documented quirks): the same window, cut for cut
    for cc in ("veno", "yeah"):
        r, _ = run(cc)
        assert r["fast_recoveries"] == nr["fast_recoveries"]
    # ns-3.37's Hybla (RRTT 50 ms: rho 2 at this RTT) grows faster than
    # NewReno and cuts more often (ns-3.37 over 400 s: 47 against 22)
    hy, _ = run("hybla")
    assert hy["fast_recoveries"] > nr["fast_recoveries"]


def test_cc_params_reach_the_algorithm():
    # Vegas-1,3 settles lower than Vegas-2,4 (alpha 1: it adds a segment only
    # when no packet at all waits)
    _, a = run("vegas", until=30)
    _, b = run("vegas", until=30, cc_params={"alpha": 1, "beta": 3})
    assert max(b) < max(a)


@pytest.mark.parametrize("kw, words", [
    ({"cc": "reno"}, "unknown cc 'reno'"),
    ({"cc": "vegas", "cc_params": {"delta": 1}}, "vegas has no parameter 'delta'; its parameters: alpha, beta, gamma"),
    ({"cc": "newreno", "cc_params": {"alpha": 1}}, "its parameters: none"),
    ({"cc": "vegas", "cc_params": {"alpha": -1}}, "cc_params['alpha'] must be a whole number"),
    ({"cc": "vegas", "cc_params": {"alpha": 1.5}}, "cc_params['alpha'] must be a whole number"),
    ({"cc": "vegas", "cc_params": [("alpha", 1)]}, "cc_params must be a dict"),
])
def test_bad_cc_and_params_are_refused_by_name(kw, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError) as e:
        sim.tcp(a, b, stack="full", **kw)
    assert words in str(e.value)


def _small_bdp_cubic(mode):
    """10 Mb/s, 10 ms base RTT, a 20-packet queue: a BDP of about 8
    packets, where ns-3.37's CUBIC (no Reno-friendly region) grows slower
    than Reno after each cut."""
    sim = db.Simulation(seed=1)
    s, r1, r2, d = sim.nodes(4)
    sim.link(s, r1, "100Mb", "0ms", queue_limit=100)
    sim.link(r1, r2, "10Mb", "5ms", queue_limit=20)
    sim.link(r2, d, "100Mb", "0ms", queue_limit=100)
    sim.tcp(s, d, stack="full", cc="cubic", snd_buf="16MiB", rcv_buf="16MiB", cc_params={"tcp_friendliness": mode})
    return sim.run(until=60).full_tcp.row(0, named=True)


def test_cubic_reno_friendly_region():
    # RFC 9438 section 4.3 (cc/cubic.rs): W_est grows by alpha_cubic
    # (0.53) or 1 segment per window, so the window refills after a cut
    # faster than the cubic does at this BDP and the queue overflows far
    # more often (measured: 40 fast recoveries off, 116 with either rule);
    # the link is full either way
    off, rfc, linux = (_small_bdp_cubic(m) for m in (0, 1, 2))
    assert off["fast_recoveries"] > 10, off
    for on in (rfc, linux):
        assert on["fast_recoveries"] > 2 * off["fast_recoveries"], (off, on)
        assert on["bytes_received"] >= 0.99 * off["bytes_received"], (off, on)
    with pytest.raises(ValueError, match="tcp_friendliness must be 0 to 2, got 3"):
        run("cubic", until=1, cc_params={"tcp_friendliness": 3})
