"""The full TCP from Python (`Simulation.tcp(stack="full")`): seed 004's
single flow against ns-3.37's figures, parameters and their errors, traces
as frames, metrics on its packets (docs/full-tcp.md)."""

import pytest

import dumbbell as db


def dumbbell(delay="50ms", qlim=52, **params):
    """Seed 004's path (4.5): 10 Mb/s access, 6 Mb/s bottleneck, queues of
    the BDP + 2 (ns-3 holds L in its queue disc and 1 in the device queue;
    a DropTail of limit L holds L - 1 waiting)."""
    sim = db.Simulation(seed=1)
    s, r1, r2, d = sim.nodes(4)
    sim.link(s, r1, "10Mb", "0.1ms", queue_limit=qlim)
    sim.link(r1, r2, "6Mb", delay, queue_limit=qlim)
    sim.link(r2, d, "10Mb", "0.1ms", queue_limit=qlim)
    # seed 004's config A: no SACK, classic recovery (ns-3's defaults are SACK and PRR)
    p = dict(initial_cwnd=15, initial_ssthresh=15 * 1448, snd_buf="16MiB", rcv_buf="16MiB", sack=False,
             recovery="classic")
    p.update(params)
    f = sim.tcp(s, d, stack="full", **p)
    return sim, f, (s, r1, r2, d)


def test_seed004_section_4_5_at_50ms_matches_ns3():
    # ns-3.37 (cfg A): 5.73 Mb/s of payload over 400 s, 22 fast recoveries, no timeouts
    sim, f, _ = dumbbell(trace_vars=("cwnd", "cong_state"))
    res = sim.run(until=400)
    row = res.full_tcp.row(0, named=True)
    assert row["goodput_bps"] / 1e6 == pytest.approx(5.73, rel=0.01)
    assert row["fast_recoveries"] == 22
    assert row["timeouts"] == 0
    assert row["cc"] == "newreno" and row["mss"] == 1448
    assert row["state"] == "Established" and row["receiver_state"] == "Established"
    # the flows frame carries it too (bytes for ack/maxseq, segments for cwnd)
    fr = res.flow(f)
    assert fr["variant"] == "full-newreno" and fr["sink"] == "packet-sink"
    assert fr["bytes_received"] == row["bytes_received"]
    assert fr["cwnd"] == pytest.approx(row["cwnd_bytes"] / 1448)
    # cwnd in segments; the congestion state passes through recovery (3) 22 times
    cw = res.var("cwnd", f)
    assert cw.height > 1000 and 15 <= cw["value"].max() <= 110
    st = res.var("cong_state", f)["value"].to_list()
    assert set(st) <= {0.0, 1.0, 3.0}
    assert sum(1 for a, b in zip(st, st[1:]) if b == 3.0 and a != 3.0) == 22


def test_traces_plot_and_metrics_on_the_packets(tmp_path):
    sim, f, (s, r1, r2, d) = dumbbell(trace_vars=("cwnd", "ssthresh_bytes", "srtt", "bytes_in_flight"))
    g = sim.tcp(s, d, variant="newreno", window=100, packet_size=1448, start=1.0)
    res = sim.run(until=30, trace_packets=True)
    names = set(res.vars.filter(res.vars["flow"] == f.id)["var"].to_list())
    assert names == {"cwnd_", "ssthresh_bytes_", "srtt_", "bytes_in_flight_"}
    srtt = res.var("srtt", f)["value"]
    assert 0.1 <= srtt.filter(srtt > 0).min() and srtt.max() < 0.3
    fig = res.plot_cwnd(tmp_path / "cwnd.png")
    assert fig is not None and (tmp_path / "cwnd.png").stat().st_size > 0
    # goodput from the packet events counts wire bytes (1502 per 1448 of payload)
    gp = res.goodput().filter(res.goodput()["flow"] == f.id).row(0, named=True)
    payload = res.full_tcp.row(0, named=True)["bytes_received"]
    assert gp["bytes"] == pytest.approx(payload * 1502 / 1448, rel=0.002)
    # both kinds of flow side by side, each with its own id
    assert res.flows["variant"].to_list() == ["full-newreno", "newreno"]
    assert res.goodput()["flow"].to_list() == [0, 1]


def test_same_run_same_traces():
    a = dumbbell(trace_vars=("cwnd",))[0].run(until=20).vars
    b = dumbbell(trace_vars=("cwnd",))[0].run(until=20).vars
    assert a.equals(b) and a.height > 100


def test_mtu_gives_the_mss_and_max_bytes_a_finite_transfer():
    sim, f, _ = dumbbell(mtu=9000, max_bytes="1MB")
    res = sim.run(until=20)
    row = res.full_tcp.row(0, named=True)
    assert row["mss"] == 9000 - 52 and f.params["mss"] == 8948
    assert row["bytes_received"] == 1_000_000
    sim, f, _ = dumbbell(mtu=1500, timestamps=False)
    assert f.params["mss"] == 1460


@pytest.mark.parametrize("kw, words", [
    ({"cc": "bbr2"}, "unknown cc 'bbr2'"),
    ({"cc": "dctcp", "cc_params": {"g": 1}}, "dctcp has no parameter 'g'; its parameters: shift_g, alpha_on_init, use_ect0"),
    ({"cc": "reno"}, "unknown cc 'reno'; the full TCP has newreno, "),
    ({"sack": 1}, "sack must be True or False, got 1"),
    ({"recovery": "rack"}, "unknown recovery 'rack'; choose classic, prr"),
    ({"recovery": "classic", "reduction_bound": "crb"}, "reduction_bound is PRR's; it needs recovery='prr'"),
    ({"reduction_bound": "fast"}, "unknown reduction_bound 'fast'; choose ssrb, crb"),
    ({"mss": 0}, "mss must be a whole number from 1"),
    ({"mss": 1000, "mtu": 1500}, "mss or mtu, not both"),
    ({"delack_count": 0}, "delack_count must be a whole number from 1"),
    ({"delack_timeout": "-5ms"}, "delack_timeout"),
    ({"min_rto": 0}, "min_rto must be positive"),
    ({"snd_buf": "16 parsecs"}, "snd_buf must be a whole number of bytes"),
    ({"rcv_buf": 100}, "rcv_buf must be 1448 to"),
    ({"initial_cwnd": 1.5}, "initial_cwnd must be a whole number"),
    ({"send_size": 0}, "send_size must be a whole number from 1 to"),
    ({"send_size": "512"}, "send_size must be a whole number from 1 to"),
    ({"timestamps": "yes"}, "timestamps must be True or False"),
    ({"windowInit": 2}, "unknown parameter 'windowInit'"),
    ({"packet_size": 1000}, "packet_size is an ns-2 TCP parameter; the full TCP takes mss= or mtu="),
    ({"window": 100}, "window is an ns-2 TCP parameter"),
    ({"sink": "delack"}, "sink is an ns-2 TCP parameter"),
    ({"trace_vars": ("ack_",)}, "cannot trace 'ack_'"),
    ({"stack": "linux"}, "unknown stack 'linux'"),
])
def test_bad_values_are_refused_by_name(kw, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    kw = dict(kw)
    stack = kw.pop("stack", "full")
    with pytest.raises(ValueError) as e:
        sim.tcp(a, b, stack=stack, **kw)
    assert words in str(e.value)
    assert "Traceback" not in str(e.value)


def test_cc_reaches_the_full_tcp():
    # tcp()'s cc= (also ns-2's Linux TCP's select_ca) is the full TCP's
    # congestion control when stack="full": named, it is what the flow runs.
    sim, f, _ = dumbbell(cc="NewReno")
    assert f.params["cc"] == "newreno" and f.variant == "full-newreno"


def test_no_ns2_script_and_no_fluid_model():
    sim, f, _ = dumbbell()
    with pytest.raises(ValueError, match=r"flow 0 uses the full TCP \(stack='full'\), which has no ns-2"):
        sim.to_tcl(until=10)
    with pytest.raises(ValueError, match="full-newreno senders are not covered"):
        sim.run(until=10, mode="fluid")
