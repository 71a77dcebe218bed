"""SACK and PRR on the full TCP from Python: ns-3.37's defaults (SACK on,
PRR with the SSRB bound), seed 004's config B against ns-3.37's figures,
and the choices refused by name (docs/full-tcp.md)."""

import pytest

import dumbbell as db


def path(delay="100ms", qlim=102):
    sim = db.Simulation(seed=1)
    s, r1, r2, d = sim.nodes(4)
    sim.link(s, r1, "10Mb", "0.1ms", queue_limit=qlim)
    sim.link(r1, r2, "6Mb", delay, queue_limit=qlim)
    sim.link(r2, d, "10Mb", "0.1ms", queue_limit=qlim)
    return sim, s, d


SEED = dict(initial_cwnd=15, initial_ssthresh=15 * 1448, snd_buf="16MiB", rcv_buf="16MiB")


def test_defaults_are_ns3s_sack_and_prr():
    sim, s, d = path()
    f = sim.tcp(s, d, stack="full")
    assert f.params["sack"] is True
    assert f.params["recovery"] == "prr" and f.params["reduction_bound"] == "ssrb"
    g = sim.tcp(s, d, stack="full", sack=False, recovery="classic")
    assert g.params["sack"] is False and g.params["recovery"] == "classic" and "reduction_bound" not in g.params
    h = sim.tcp(s, d, stack="full", recovery="PRR", reduction_bound="CRB")
    assert h.params["reduction_bound"] == "crb"


def test_config_b_newreno_pair_matches_ns3():
    # ns-3.37, sections 4.3/4.4 with --sack=1 --recovery=prr: 2.923 : 2.775 Mb/s
    # over each flow's own period, 9 : 9 fast recoveries, no timeouts
    # (config A gives 2.994 : 2.703)
    sim, s, d = path()
    sim.tcp(s, d, stack="full", **SEED)
    sim.tcp(s, d, stack="full", start=10.0, **SEED)
    res = sim.run(until=400)
    rows = res.full_tcp.sort("flow").to_dicts()
    for row, (gp, fr) in zip(rows, [(2.923, 9), (2.775, 9)]):
        own = row["bytes_received"] * 8 / (400 - row["start"]) / 1e6
        assert own == pytest.approx(gp, rel=0.003)
        assert (row["fast_recoveries"], row["timeouts"]) == (fr, 0)


def test_prr_keeps_the_inflated_window_at_or_below_cwnd_classic_inflates_it():
    def infl_above_cwnd(**p):
        sim, s, d = path("50ms", 52)
        f = sim.tcp(s, d, stack="full", trace_vars=("cwnd_bytes", "cwnd_inflated_bytes", "cong_state"), **SEED, **p)
        v = sim.run(until=60).vars
        last = {}
        above = 0
        rows = list(zip(v["time"], v["var"], v["value"]))
        for i, (t, name, x) in enumerate(rows):
            last[name] = x
            end_of_event = i + 1 == len(rows) or rows[i + 1][0] != t
            if end_of_event and last.get("cong_state_") == 3 and last["cwnd_inflated_bytes_"] > last["cwnd_bytes_"]:
                above += 1
        return above
    assert infl_above_cwnd() == 0
    assert infl_above_cwnd(recovery="classic") > 10


@pytest.mark.parametrize("kw, words", [
    ({"sack": "on"}, "sack must be True or False, got 'on'"),
    ({"recovery": 3}, "unknown recovery 3; choose classic, prr"),
    ({"recovery": "classic", "reduction_bound": "ssrb"}, "reduction_bound is PRR's"),
    ({"reduction_bound": 1}, "unknown reduction_bound 1; choose ssrb, crb"),
])
def test_bad_choices_are_refused_by_name(kw, words):
    sim, s, d = path()
    with pytest.raises(ValueError) as e:
        sim.tcp(s, d, stack="full", **kw)
    assert words in str(e.value)


def test_ecn_through_red_marks_instead_of_dropping():
    # RED with setbit marks the ECN-capable data of a flow with ecn=True:
    # its window falls on the echoes (once a window), nothing is dropped
    # or resent; the same queue drops the data of a flow without ECN
    def run(**p):
        sim = db.Simulation(seed=1)
        s, r1, r2, d = sim.nodes(4)
        sim.link(s, r1, "10Mb", "0.1ms", queue_limit=100)
        sim.link(r1, r2, "6Mb", "20ms", queue="RED", queue_limit=62,
                 queue_params={"thresh": 5, "maxthresh": 15, "setbit": True})
        sim.link(r2, d, "10Mb", "0.1ms", queue_limit=100)
        f = sim.tcp(s, d, stack="full", **SEED, **p)
        return f, sim.run(until=60).full_tcp.row(0, named=True)
    f, row = run(ecn=True)
    assert f.params["ecn"] == "on"
    assert row["ecn_reductions"] > 20
    assert (row["retransmissions"], row["fast_recoveries"], row["timeouts"]) == (0, 0, 0)
    f, row = run()
    assert f.params["ecn"] == "off" and row["ecn_reductions"] == 0
    assert row["retransmissions"] > 10 and row["fast_recoveries"] > 10
    # accepting only, at both ends: nobody asks
    f, row = run(ecn="accept_only")
    assert row["ecn_reductions"] == 0 and row["retransmissions"] > 10


def test_bad_ecn_is_refused():
    sim, s, d = path()
    with pytest.raises(ValueError, match=r"ecn must be True, False, 'on', 'off', 'accept_only' \(ns-3's UseEcn\) or 'accecn' \(Accurate ECN, RFC 9768\), got 'yes'"):
        sim.tcp(s, d, stack="full", ecn="yes")
