"""SCFQ queues and VoIP call processes from the Python API (Dumbbell's own
`Queue/SCFQ` and `Application/Traffic/VoIPCalls`; seed 003): the
birth-death process's long-run mean number of calls, the on fraction and
rate of a call, determinism by seed, parameter errors; the API's SCFQ
equal to its `to_tcl()` script under `dumbbell run`; the example."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest

import dumbbell as db
from api_scenarios import ROOT
from test_builder_exact import same_as_ns2_layer

ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
ON = 1.008 / (1.008 + 1.587)


def voip_run(until, seed=1, sink="null", **kw):
    sim = db.Simulation(seed=seed)
    a, b = sim.nodes(2)
    sim.link(a, b, "1000Mb", "1ms", queue_limit=100_000)
    v = sim.voip_calls(a, b, sink=sink, **kw)
    res = sim.run(until, monitor_queues=False)
    return res, v


def test_mean_number_of_calls_is_lambda_over_mu():
    """M/M/inf: the time-average number of calls is lambda/mu = 200; over
    T = 20000 s its standard deviation is sqrt(2 * 200 * 100 / T) = 1.41
    (the count's variance 200 times twice its correlation time 100 s,
    over T)."""
    res, v = voip_run(20_000.0, lam=2.0, mean_holding=100.0, interval=5.0)
    st = res.voip[v.id]
    sd = math.sqrt(2 * 200 * 100 / 20_000)
    assert abs(st["mean_calls"] - 200) < 4 * sd, st
    # calls are conserved: started = ended + up; arrivals ~ 2/s over T, plus the initial ~200
    assert st["calls_started"] == st["calls_ended"] + st["calls"]
    assert abs(st["calls_started"] - 200 - 40_000) < 5 * math.sqrt(40_200), st
    assert st["calls_blocked"] == 0


def test_call_count_spreads_as_m_m_inf_over_seeds():
    """Seed to seed, the process is M/M/inf started in its stationary
    state: at t = 1 s the number of calls up is Poisson(200) (variance
    200), and the time-average over T = 1000 s has variance
    2 m tau^2 / T^2 (T / tau - 1 + e^(-T / tau)) = 36.0 (m = 200 calls,
    tau = 1/mu = 100 s: the count's autocovariance m e^(-t / tau)
    integrated over [0, T]^2).  300 seeds; each check allows 4 standard
    errors (the sample variance's is sqrt(2 / (n - 1)) of it).  Packets
    every 10^6 s (one per talk spurt at most) keep the runs cheap; the
    calls' own draws are those of any interval."""
    n, T = 300, 1000.0
    want = 2 * 200 * 100**2 / T**2 * (T / 100 - 1 + math.exp(-T / 100))
    for until, mean_key, var_want in ((1.0, "calls", 200.0), (T, "mean_calls", want)):
        xs = [voip_run(until, seed=s, lam=2.0, mean_holding=100.0, interval=1e6)[0].voip for s in range(1, n + 1)]
        xs = [next(iter(x.values()))[mean_key] for x in xs]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        assert abs(mean - 200) < 4 * math.sqrt(var_want / n), (until, mean)
        assert abs(var / var_want - 1) < 4 * math.sqrt(2 / (n - 1)), (until, var, var_want)


def test_without_stationary_start_the_process_fills_from_zero():
    res, v = voip_run(50.0, lam=2.0, mean_holding=100.0, interval=5.0, stationary_start=False)
    st = res.voip[v.id]
    # E[N(50)] = 200 (1 - e^-0.5) = 78.7, Poisson
    assert abs(st["calls"] - 78.7) < 4 * math.sqrt(78.7), st
    assert st["mean_calls"] < 60


def test_on_fraction_and_rate_per_call():
    """A call talks 1.008 / (1.008 + 1.587) = 38.8% of the time and sends
    96 kb/s then: 37.3 kb/s on average.  10 calls over 4000 s: about
    40000 call-seconds, 15000 talk spurts."""
    res, v = voip_run(4000.0, lam=0.1, mean_holding=100.0, sink="loss-monitor")
    st = res.voip[v.id]
    call_seconds = st["mean_calls"] * 4000.0
    on = st["pkts_sent"] * 0.01 / call_seconds
    assert abs(on - ON) < 0.03 * ON, (on, ON, st)
    row = res.sources.row(0, named=True)
    rate = row["received_bytes"] * 8 / call_seconds
    assert abs(rate - 96_000 * ON) < 0.03 * 96_000 * ON, rate
    assert row["received_pkts"] == st["pkts_sent"] and row["lost_pkts"] == 0


def test_determinism_by_seed():
    a = voip_run(300.0, seed=5, sink="loss-monitor")
    b = voip_run(300.0, seed=5, sink="loss-monitor")
    c = voip_run(300.0, seed=6, sink="loss-monitor")
    assert a[0].voip == b[0].voip and a[0].sources.equals(b[0].sources)
    assert a[0].voip != c[0].voip


@pytest.mark.parametrize("kw,msg", [
    ({"lam": -1}, "lam must be a number of zero or more"),
    ({"mean_holding": 0}, "mean_holding must be a positive number"),
    ({"interval": 0}, "interval must be a positive number"),
    ({"burst_time": -2}, "burst_time must be a positive number"),
    ({"packet_size": 0}, "packet_size must be a positive integer"),
    ({"max_calls": 0}, "max_calls must be a positive integer"),
    ({"lam": float("nan")}, "lam must be a number"),
])
def test_bad_parameters_are_clear_errors(kw, msg):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match="voip_calls\\(\\): " + msg.replace("(", "\\(")):
        sim.voip_calls(a, b, **kw)


def test_blocked_beyond_max_calls():
    res, v = voip_run(100.0, lam=2.0, mean_holding=100.0, interval=5.0, max_calls=50)
    st = res.voip[v.id]
    assert st["calls"] <= 50 and st["calls_blocked"] > 100


def _paper(lam=2.0, until=30.0):
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import scfq_voip
    finally:
        sys.path.pop(0)
    return scfq_voip.build(lam=lam, seed=3, flows=6)


def test_scfq_api_equals_its_script(tmp_path):
    """The API's SCFQ (classes, their queues, classification) and VoIP
    calls give exactly what the `to_tcl()` script gives under `dumbbell
    run`: the same trace bytes and counters."""
    sim, tcps, voip, bott = _paper()
    res = same_as_ns2_layer(sim, 8.0, tmp_path, trace_packets=[bott])
    per = res.scfq[(bott.src.id, bott.dst.id)]
    assert set(per) == {0, 1}
    for st in per.values():
        assert st["arrivals"] == st["departures"] + st["drops"] + st["queued"]
    assert per[0]["arrivals"] > 1000 and per[1]["arrivals"] > 1000
    assert res.voip[voip.id]["pkts_sent"] >= per[0]["arrivals"]


def test_scfq_queue_params_errors():
    sim = db.Simulation()
    a, b = sim.nodes(2)
    for qp, msg in [
        (None, "SCFQ needs a dict"),
        ({"classes": []}, "non-empty list"),
        ({"classes": [{"weight": 0}]}, "weight must be a positive number"),
        ({"classes": [{"weight": 1, "queue": "PIE"}]}, "queue must be 'DropTail' or 'RED'"),
        ({"classes": [{"weight": 1}], "classify": {3: 7}}, "class 7, which is not in classes"),
        ({"classes": [{"weight": 1}], "default_class": 2}, "default_class 2 is not in classes"),
        ({"classes": [{"weight": 1, "queue": "RED", "params": {"thresh": 9, "maxthresh": 3}}]}, "thresh (9)"),
        ({"classes": [{"weight": 1, "params": {"nosuch": 1}}]}, "unknown parameter 'nosuch'"),
        ({"classes": [{"weight": 1, "id": 0}, {"weight": 1, "id": 0}]}, "given twice"),
        ({"classes": [{"weight": 1}], "weights": 3}, "unknown SCFQ parameter"),
    ]:
        with pytest.raises(ValueError, match=msg.replace("(", "\\(").replace(")", "\\)")):
            sim.link(a, b, queue="SCFQ", queue_params=qp)


def test_example_prints_goodputs(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "scfq_voip.py"), "--duration", "20"], cwd=tmp_path,
                       capture_output=True, text=True, env=ENV, timeout=300)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    vo = float(out.split("VoIP goodput")[1].split()[0])
    tcp = float(out.split("TCP goodput")[1].split()[0])
    # about 200 calls at 37.3 kb/s each: ~7.5 Mb/s of VoIP; TCP takes the rest of the 10 Mb/s
    assert 5.5 < vo < 9.0 and 1.0 < tcp < 4.5 and vo + tcp > 9.5, out
