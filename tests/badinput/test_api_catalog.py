"""The API half of the bad-input catalog: calls of the Python API that are
wrong or meaningless, each with the error it must raise (a ValueError
naming the call, the parameter and the value; never a TypeError from
inside the package, never a silently empty result)."""

from __future__ import annotations

import math

import pytest

import dumbbell


def _sim():
    sim = dumbbell.Simulation()
    a, b = sim.node(), sim.node()
    sim.link(a, b, "1Mb", "10ms")
    return sim, a, b


def _red(**qp):
    sim = dumbbell.Simulation()
    a, b = sim.node(), sim.node()
    sim.link(a, b, "1Mb", "10ms", queue="RED", queue_params=qp)


def _tcp(**kw):
    sim, a, b = _sim()
    sim.tcp(a, b, **kw)


def _udp(**kw):
    sim, a, b = _sim()
    sim.udp(a, b, **kw)


def _link(*args, **kw):
    sim = dumbbell.Simulation()
    a, b = sim.node(), sim.node()
    sim.link(a, b, *args, **kw)


def _run(until=1.0, **kw):
    sim, a, b = _sim()
    sim.tcp(a, b)
    return sim.run(until, **kw)


def _var_not_traced():
    sim, a, b = _sim()
    sim.tcp(a, b, trace_vars=("cwnd",))
    sim.run(1.0).var("nosuch")


def _read_trace_of_a_binary():
    dumbbell.read_trace("/bin/ls")


def _error_model(**kw):
    sim, a, b = _sim()
    sim.error_model(a, b, **kw)


# (name, call, the message's text)
CASES = [
    # TCP parameters, numbers and numeric strings alike (the API skipped strings)
    ("tcp-window-negative-string", lambda: _tcp(window="-5"), "window must be > 0"),
    ("tcp-window-negative", lambda: _tcp(window=-5), "window"),
    ("tcp-window-zero", lambda: _tcp(window=0), "window"),
    ("tcp-window-nan", lambda: _tcp(window=math.nan), "finite"),
    ("tcp-window-inf", lambda: _tcp(window=math.inf), "finite"),
    ("tcp-window-too-large", lambda: _tcp(window=2**31), "window"),
    ("tcp-window-word", lambda: _tcp(window="big"), "expected a number"),
    ("tcp-window-list", lambda: _tcp(window=[1]), "expected a number"),
    ("tcp-packet-size-negative-string", lambda: _tcp(packet_size="-1"), "packet_size must be > 0"),
    ("tcp-packet-size-zero", lambda: _tcp(packet_size=0), "packet_size"),
    ("tcp-packet-size-real", lambda: _tcp(packet_size=1000.5), "expected an integer"),
    ("tcp-packet-size-huge", lambda: _tcp(packet_size=2**30), "packet_size must be > 0 and <= 268435456"),
    ("tcp-overhead-negative", lambda: _tcp(overhead=-1), "overhead must be >= 0"),
    ("tcp-overhead-negative-string", lambda: _tcp(overhead="-0.5"), "overhead must be >= 0"),
    ("tcp-tick-zero", lambda: _tcp(tcpTick=0), "tcpTick must be > 0"),
    ("tcp-window-init-zero", lambda: _tcp(windowInit=0), "windowInit must be > 0"),
    ("tcp-maxburst-negative", lambda: _tcp(maxburst=-1), "maxburst must be >= 0"),
    ("tcp-unknown-parameter", lambda: _tcp(windw=5), "unknown parameter 'windw'"),
    ("tcp-unknown-variant", lambda: _tcp(variant="reno2"), "variant"),
    ("tcp-unknown-sink", lambda: _tcp(sink="nosink"), "sink"),
    ("tcp-trace-vars-int", lambda: _tcp(trace_vars=123), "trace_vars must be a variable name or a list"),
    ("tcp-trace-vars-unknown", lambda: _tcp(trace_vars=("nosuch",)), "cannot trace 'nosuch'"),
    ("tcp-trace-vars-not-str", lambda: _tcp(trace_vars=(1,)), "trace_vars must be variable names"),
    ("tcp-stop-before-start", lambda: _tcp(start=2.0, stop=1.0), "must be later than start"),
    ("tcp-start-negative", lambda: _tcp(start=-1), "start"),
    ("tcp-start-unit", lambda: _tcp(start="1parsec"), "start"),
    ("tcp-sink-params-not-dict", lambda: _tcp(sink_params=[1]), "sink_params must be a dict"),
    ("tcp-sink-interval-zero", lambda: _tcp(sink="delack", sink_params={"interval": 0}), "interval must be > 0"),
    ("tcp-unknown-app", lambda: _tcp(app="http"), "unknown app 'http'"),
    ("tcp-wiring-variable", lambda: _tcp(dst_addr=3), "set by the API"),
    # UDP sources
    ("udp-packet-size-negative-string", lambda: _udp(packet_size="-1"), "packet_size must be > 0"),
    ("udp-rate-zero", lambda: _udp(rate=0), "rate"),
    ("udp-rate-negative-string", lambda: _udp(rate="-1Mb"), "rate"),
    ("udp-rate-inf", lambda: _udp(rate=math.inf), "rate"),
    ("udp-unknown-traffic", lambda: _udp(traffic="video"), "traffic"),
    ("udp-exponential-idle-negative", lambda: _udp(traffic="exponential", idle_time=-5), "idle_time must be a non-negative"),
    ("udp-exponential-burst-zero", lambda: _udp(traffic="exponential", burst_time=0), "burst_time must be > 0"),
    ("udp-pareto-shape-zero", lambda: _udp(traffic="pareto", shape=0), "shape must be > 0"),
    ("udp-cbr-interval-is-not-a-parameter", lambda: _udp(interval=0), "unknown parameter 'interval'"),
    ("udp-agent-params-flow-id", lambda: _udp(agent_params={"fid": 3}), "flow_id"),
    # links and queues
    ("link-bandwidth-zero", lambda: _link(0, "10ms"), "bandwidth"),
    ("link-bandwidth-negative-string", lambda: _link("-10Mb", "10ms"), "bandwidth"),
    ("link-bandwidth-unit", lambda: _link("10Xb", "10ms"), "bandwidth"),
    ("link-bandwidth-inf", lambda: _link(math.inf, "10ms"), "bandwidth"),
    ("link-delay-negative", lambda: _link("1Mb", -0.01), "delay"),
    ("link-delay-unit", lambda: _link("1Mb", "10parsecs"), "delay"),
    ("link-delay-nan", lambda: _link("1Mb", math.nan), "delay"),
    ("link-unknown-queue", lambda: _link("1Mb", "10ms", queue="Bogus"), "unknown or unsupported queue"),
    ("link-cbq-no-classes", lambda: _link("1Mb", "10ms", queue="CBQ/WRR"), "CBQ needs a dict with 'classes'"),
    ("link-cbq-parent-later", lambda: _link("1Mb", "10ms", queue="CBQ", queue_params={"classes": [{"name": "leaf", "parent": "root", "allot": 0.5}, {"name": "root", "allot": 1}]}), "parent 'root' must be the name of a class listed before 'leaf'"),
    ("link-queue-limit-zero", lambda: _link("1Mb", "10ms", queue_limit=0), "queue_limit"),
    ("link-queue-limit-real", lambda: _link("1Mb", "10ms", queue_limit=2.5), "queue_limit"),
    ("link-duplex-not-bool", lambda: _link("1Mb", "10ms", duplex="yes"), "duplex must be True or False"),
    ("link-queue-params-not-dict", lambda: _link("1Mb", "10ms", queue="RED", queue_params=[1]), "queue_params must be a dict"),
    ("red-thresh-above-maxthresh", lambda: _red(thresh=20, maxthresh=5), "thresh (20) must not be above maxthresh (5)"),
    ("red-q-weight-above-one", lambda: _red(q_weight=5), "q_weight must be > 0 and <= 1 (or 0, -1, -2)"),
    ("red-q-weight-negative", lambda: _red(q_weight=-0.5), "q_weight"),
    ("red-linterm-zero", lambda: _red(linterm=0), "linterm must be > 0"),
    ("red-mark-p-above-one", lambda: _red(mark_p=2), "mark_p must be >= 0 and <= 1"),
    ("red-mean-pktsize-zero", lambda: _red(mean_pktsize=0), "mean_pktsize must be > 0"),
    ("red-thresh-negative", lambda: _red(thresh=-1), "thresh must be >= 0"),
    ("red-unknown-parameter", lambda: _red(thres=5), "unknown parameter 'thres'"),
    ("codel-target-zero", lambda: _link("1Mb", "10ms", queue="CoDel", queue_params={"target": 0}), "target must be positive"),
    ("codel-unknown-parameter", lambda: _link("1Mb", "10ms", queue="CoDel", queue_params={"tgt": 1}), "unknown parameter"),
    # error models
    ("error-model-rate-above-one", lambda: _error_model(rate=2), "rate"),
    ("error-model-unknown-kind", lambda: _error_model(kind="gilbert", rate=0.1), "kind"),
    ("error-model-unknown-unit", lambda: _error_model(rate=0.1, unit="bit"), "unit"),
    ("error-model-period-zero", lambda: _error_model(kind="periodic", period=0), "period must be positive"),
    # running
    ("run-until-zero", lambda: _run(0), "until must be a positive time"),
    ("run-until-word", lambda: _run("soon"), "until"),
    ("run-max-events-zero", lambda: _run(max_events=0), "max_events must be a positive integer"),
    ("run-max-wall-negative", lambda: _run(max_wall=-1), "max_wall must be a positive number"),
    ("run-trace-file-without-tracing", lambda: _run(trace_file="x.tr"), "nothing is traced"),
    # results
    ("result-var-not-traced", _var_not_traced, "var(): nosuch_ was not traced; traced here: cwnd_"),
    ("read-trace-of-a-binary", _read_trace_of_a_binary, "not an ns-2 trace file"),
]


@pytest.mark.parametrize("call,needle", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_api_case(call, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as e:
        call()
    assert needle in str(e.value), str(e.value)


def test_case_names_are_unique():
    names = [c[0] for c in CASES]
    assert len(names) == len(set(names))
