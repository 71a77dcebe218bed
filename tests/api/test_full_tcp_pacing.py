"""Pacing on the full TCP (`tcp(stack="full", pacing=True)`, ns-3.37's
TcpSocketState EnablePacing and its attributes; docs/full-tcp.md): the
sender's departures spaced at the pacing rate, and its parameters checked."""

import polars as pl
import pytest

import dumbbell as db


def _departures(**params):
    """Times the sender put data segments on its access link over 3 s of a
    10 Mb/s, 20 ms path."""
    sim = db.Simulation(seed=1)
    R1, R2, S, D = sim.nodes(4)
    sim.link(S, R1, "100Mb", "1ms")
    sim.link(R2, D, "100Mb", "1ms")
    sim.link(R1, R2, "10Mb", "20ms", queue_limit=100)
    sim.tcp(S, D, stack="full", **params)
    ev = sim.run(3, trace_packets=True).events
    snd = ev.filter((pl.col("event") == "+") & (pl.col("from_node") == S.id) & (pl.col("ptype") == "tcp")
                    & (pl.col("size") > 100)).sort("time")
    return snd["time"].to_list()


def _gaps(times, skip):
    return [b - a for a, b in zip(times[skip:], times[skip + 1:])]


def test_paced_segments_leave_one_at_a_time():
    """Unpaced, ACKs release segments in bursts (several at the same
    instant); paced, after the initial window of 10 segments each leaves
    alone, a segment's time at the pacing rate after the one before (the
    spacing itself: the next test)."""
    plain = _departures()
    paced = _departures(pacing=True)
    assert len(plain) > 500 and len(paced) > 500
    assert sum(1 for g in _gaps(plain, 10) if g == 0) > 100
    assert min(_gaps(paced, 10)) > 0
    # the first window goes at once unless it is paced too
    assert paced[9] - paced[0] == 0
    iw = _departures(pacing=True, pace_initial_window=True)
    assert min(_gaps(iw, 1)) > 0


def test_pacing_ratios_and_ceiling_change_the_spacing():
    """A ceiling of 5 Mb/s spaces segments by at least 1448 B at 5 Mb/s
    (2.3 ms); ratios of 1000% let them out faster than the defaults."""
    capped = _departures(pacing=True, max_pacing_rate="5Mb")
    # (the packet events' times are in whole microseconds)
    assert min(_gaps(capped, 10)) >= 1448 * 8 / 5e6 - 2e-6
    fast = _departures(pacing=True, pacing_ss_ratio=1000, pacing_ca_ratio=1000)
    slow = _departures(pacing=True)
    assert sum(_gaps(fast, 10)[:50]) < sum(_gaps(slow, 10)[:50])


@pytest.mark.parametrize("params, msg", [
    ({"pacing": 1}, "pacing must be True or False, got 1"),
    ({"pacing": True, "pacing_ss_ratio": 0}, "pacing_ss_ratio (percent) must be a whole number from 1 to 65535, got 0"),
    ({"pacing": True, "pacing_ca_ratio": 1.5}, "pacing_ca_ratio (percent) must be a whole number"),
    ({"pacing": True, "max_pacing_rate": "fast"}, "max_pacing_rate must be a positive number of bits/s"),
    ({"pacing": True, "max_pacing_rate": -1}, "max_pacing_rate must be a positive number of bits/s"),
    ({"pacing": True, "pace_initial_window": "yes"}, "pace_initial_window must be True or False"),
    ({"pacing_ss_ratio": 150}, "pacing_ss_ratio is a pacing parameter; it needs pacing=True"),
    ({"max_pacing_rate": "1Gb"}, "max_pacing_rate is a pacing parameter; it needs pacing=True"),
])
def test_bad_pacing_parameters_are_refused(params, msg):
    sim = db.Simulation()
    S, D = sim.nodes(2)
    sim.link(S, D, "10Mb", "10ms")
    with pytest.raises(ValueError) as e:
        sim.tcp(S, D, stack="full", **params)
    assert msg in str(e.value)
