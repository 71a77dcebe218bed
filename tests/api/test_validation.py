"""Bad input fails at once with a ValueError that names the parameter and
the value; nothing reaches the ns-2 layer."""

from __future__ import annotations

import pytest

import dumbbell as db


@pytest.fixture
def sim2():
    sim = db.Simulation()
    A, B = sim.nodes(2)
    return sim, A, B


@pytest.mark.parametrize("bw, msg", [
    ("-10Mb", r"bandwidth must be positive, got '-10Mb'"),
    (-5, r"bandwidth must be a positive number of bits/s, got -5"),
    (0, r"bandwidth must be a positive number of bits/s, got 0"),
    ("10Xb", r"bandwidth .* got '10Xb'"),
    ("10 Mb", r"bandwidth .* got '10 Mb'"),
    ("fast", r"bandwidth .* got 'fast'"),
    (True, r"bandwidth .* got True"),
    (None, r"bandwidth .* got None"),
    (float("inf"), r"bandwidth .* got inf"),
])
def test_bad_bandwidth(sim2, bw, msg):
    sim, A, B = sim2
    with pytest.raises(ValueError, match=r"link\(\): " + msg):
        sim.link(A, B, bandwidth=bw)


@pytest.mark.parametrize("delay, msg", [
    ("-1ms", r"delay must not be negative, got '-1ms'"),
    (-0.1, r"delay must be a non-negative number of seconds, got -0.1"),
    ("3 parsecs", r"delay .* got '3 parsecs'"),
    ("10min", r"delay .* got '10min'"),
])
def test_bad_delay(sim2, delay, msg):
    sim, A, B = sim2
    with pytest.raises(ValueError, match=r"link\(\): " + msg):
        sim.link(A, B, delay=delay)


@pytest.mark.parametrize("bw, delay, bps, secs", [
    ("10Mb", "10ms", 10e6, 0.01), ("800Kb", "50ms", 800e3, 0.05), ("1.5Mbps", "2us", 1.5e6, 2e-6),
    ("1MB", "1sec", 8e6, 1.0), (2_000_000, 0.25, 2e6, 0.25), ("1e6", "0", 1e6, 0.0),
])
def test_good_units(sim2, bw, delay, bps, secs):
    sim, A, B = sim2
    lk = sim.link(A, B, bandwidth=bw, delay=delay)
    assert lk.bandwidth == pytest.approx(bps) and lk.delay == pytest.approx(secs)
    assert lk.reverse.src is B and lk.reverse.reverse is lk


def test_link_errors(sim2):
    sim, A, B = sim2
    with pytest.raises(ValueError, match=r"link\(\): unknown or unsupported queue 'NoSuchQueue'; supported: DropTail"):
        sim.link(A, B, queue="NoSuchQueue")
    for bad in (0, -1, 2.5, "7"):
        with pytest.raises(ValueError, match=rf"link\(\): queue_limit must be a positive integer \(packets\), got {bad!r}"):
            sim.link(A, B, queue_limit=bad)
    with pytest.raises(ValueError, match=r"link\(\): a and b are the same node"):
        sim.link(A, A)
    with pytest.raises(ValueError, match=r"link\(\): b must be a Node of this Simulation, got 1"):
        sim.link(A, 1)
    other = db.Simulation().node()
    with pytest.raises(ValueError, match=r"link\(\): b: Node\(0\) belongs to another Simulation"):
        sim.link(A, other)
    sim.link(A, B)
    with pytest.raises(ValueError, match=r"link\(\): there is already a link 1->0"):
        sim.link(B, A)
    with pytest.raises(ValueError, match=r"queue_limit\(\): there is no link"):
        sim.queue_limit(A, sim.node(), 5)


@pytest.mark.parametrize("kwargs, msg", [
    (dict(variant="cubic"), r"unknown variant 'cubic'; choose one of tahoe, reno, newreno, sack"),
    (dict(sink="sack-ish"), r"unknown sink 'sack-ish'; choose one of ack-every, delack, sack, sack-delack"),
    (dict(windowInitt=2), r"unknown parameter 'windowInitt' for Agent/TCP/Reno; did you mean windowInit"),
    (dict(variant="tahoe", foo_=1), r"unknown parameter 'foo_' for Agent/TCP\b"),
    (dict(dst_addr=2), r"dst_addr is set by the API"),
    (dict(agent_port_=2), r"agent_port_ is set by the API"),
    (dict(window=10, window_=20), r"window and window_ set the same ns-2 variable window_"),
    (dict(flow_id=1, class_=2), r"flow_id and class_ set the same ns-2 variable fid_"),
    (dict(packet_size=1000, packetSize=500), r"packet_size and packetSize set the same"),
    (dict(window="big"), r"bad value 'big' for window: expected a number"),
    (dict(maxburst=2.5), r"bad value 2.5 for maxburst: expected an integer"),
    (dict(overhead=float("nan")), r"bad value nan for overhead: expected a finite number"),
    (dict(timestamps="maybe"), r"bad value 'maybe' for timestamps: expected True or False"),
    (dict(trace_vars=("foo",)), r"cannot trace 'foo'; traceable variables of Agent/TCP/Reno: ack_"),
    (dict(trace_vars=("window_",)), r"cannot trace 'window_'"),
    (dict(start=-1), r"start must be a non-negative number of seconds, got -1"),
    (dict(start=5, stop=5), r"stop \(5\) must be later than start \(5\)"),
    (dict(packet_size=0), r"packet_size must be a positive number of bytes, got 0"),
    (dict(window=-3), r"window must be positive, got -3"),
    (dict(sink_params={"intervall": "100ms"}), r"sink_params: unknown parameter 'intervall' for Agent/TCPSink"),
    (dict(sink="delack", sink_params={"interval": "soon"}), r"sink_params: interval .* got 'soon'"),
])
def test_tcp_errors(sim2, kwargs, msg):
    sim, A, B = sim2
    with pytest.raises(ValueError, match=r"tcp\(\): " + msg):
        sim.tcp(A, B, **kwargs)
    assert sim.flows == []


def test_tcp_node_errors(sim2):
    sim, A, B = sim2
    with pytest.raises(ValueError, match=r"tcp\(\): src and dst are the same node"):
        sim.tcp(A, A)
    with pytest.raises(ValueError, match=r"tcp\(\): dst: Node\(0\) belongs to another Simulation"):
        sim.tcp(A, db.Simulation().node())


def test_tcp_parameters_reach_the_script(sim2):
    sim, A, B = sim2
    sim.link(A, B)
    sim.tcp(A, B, sink="delack", windowInit=2, overhead_=0.002, maxburst=4, timestamps=True,
            T_SRTT_BITS=3, sink_params={"interval": "50ms"}, trace_vars="cwnd")
    tcl = sim.to_tcl(1)
    for line in ("$tcp(0) set windowInit_ 2", "$tcp(0) set overhead_ 0.002", "$tcp(0) set maxburst_ 4",
                 "$tcp(0) set timestamps_ true", "$tcp(0) set T_SRTT_BITS 3", "$sink(0) set interval_ 50ms",
                 "$tcp(0) tracevar cwnd_", "new Agent/TCPSink/DelAck"):
        assert line in tcl
    sim.run(1)


def test_run_errors(sim2):
    sim, A, B = sim2
    for bad in (0, -1, float("nan"), "soon", None):
        with pytest.raises(ValueError, match=r"run\(\): until must be"):
            sim.run(until=bad)
    sim.tcp(A, B)
    with pytest.raises(ValueError, match=r"flow 0: no route from node 0 to node 1 for its data"):
        sim.run(until=1)
    sim.link(A, B, duplex=False)
    with pytest.raises(ValueError, match=r"flow 0: no route from node 1 to node 0 for its ACKs"):
        sim.run(until=1)
    sim.link(B, A, duplex=False)
    sim.run(until=1)
    with pytest.raises(ValueError, match=r"run\(\): trace_file was given but nothing is traced"):
        sim.run(until=1, trace_file="x.tr")
    with pytest.raises(ValueError, match=r"run\(\): trace_packets: expected a Link or a \(node, node\) pair, got 3"):
        sim.run(until=1, trace_packets=[3])
    with pytest.raises(ValueError, match=r"run\(\): monitor_queues: there is no link 0->2"):
        sim.run(until=1, monitor_queues=[(A, sim.node())])
    lk = db.Simulation()
    a, b = lk.nodes(2)
    foreign = lk.link(a, b)
    with pytest.raises(ValueError, match=r"run\(\): trace_packets: Link\(0->1.*belongs to another Simulation"):
        sim.run(until=1, trace_packets=[foreign])


def test_constructor_errors():
    with pytest.raises(ValueError, match=r"Simulation\(\): seed must be an integer in 1..2147483647, got 0"):
        db.Simulation(seed=0)
    with pytest.raises(ValueError, match=r"seed .* got 'x'"):
        db.Simulation(seed="x")
    with pytest.raises(ValueError, match=r"nodes\(\): n must be a positive integer, got 0"):
        db.Simulation().nodes(0)
    with pytest.raises(ValueError, match=r"node\(\): name must be a string, got 5"):
        db.Simulation().node(5)
