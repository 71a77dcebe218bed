"""Result.events comes straight from the engine (typed columns, no text
trace); it must equal what reading the ns-2 text trace of the same run gives."""

import polars as pl
import pytest

import dumbbell as db


def _scenario(red: bool):
    sim = db.Simulation()
    a, b, r, d = sim.nodes(4)
    sim.link(a, r, bandwidth="10Mb", delay="5ms")
    sim.link(b, r, bandwidth="10Mb", delay="25ms")
    if red:
        sim.link(r, d, bandwidth="1.5Mb", delay="20ms", queue="RED",
                 queue_params={"setbit_": True, "thresh_": 3, "maxthresh_": 10, "q_weight_": 0.02})
    else:
        sim.link(r, d, bandwidth="800Kb", delay="50ms", queue_limit=7)
    sim.tcp(a, d, variant="reno", window=100, packet_size=960, ecn=red, trace_vars=("cwnd_", "ack_"))
    sim.tcp(b, d, variant="newreno", packet_size=500, trace_vars=("cwnd_",))
    return sim


@pytest.mark.parametrize("red", [False, True])
def test_recorded_events_equal_the_text_trace(tmp_path, red):
    mem = _scenario(red).run(until=8, trace_packets=True)
    txt = _scenario(red).run(until=8, trace_packets=True, trace_file=tmp_path / "t.tr")
    assert mem.trace_file is None and txt.trace_file is not None
    assert mem.events.height > 5000
    # categories may be numbered differently; compare as strings
    def norm(df):
        return df.with_columns(pl.col(c).cast(pl.String) for c in ("event", "ptype", "flags"))
    assert norm(mem.events).equals(norm(txt.events))
    assert mem.vars.equals(txt.vars)
    assert mem.flows.equals(txt.flows)
    if red:
        # ECN marks are among the recorded flags
        assert mem.events.filter(pl.col("flags").cast(pl.String).str.contains("C")).height > 0
    # and the text trace read back is exactly what the engine recorded
    ev = db.read_trace(tmp_path / "t.tr")
    assert norm(ev).equals(norm(mem.events.drop("flow")))


def test_vars_only_run_records_no_events():
    sim = _scenario(False)
    res = sim.run(until=3)
    assert res.events.height == 0 and res.vars.height > 0
