"""ns-2's Agent/TCP/Linux from the Python API (`Simulation.tcp(...,
variant="linux", cc=...)`): the same trace as the script `to_tcl` exports
(run by `dumbbell run`), different congestion controls giving different
windows, and unknown names refused with the known ones listed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import dumbbell as db

ROOT = Path(__file__).resolve().parents[2]
DUMBBELL = ROOT / ".venv" / "bin" / "dumbbell"


def two_flows(cc: str, sink: str = "sack-delack") -> db.Simulation:
    sim = db.Simulation()
    a, b, r1, r2 = sim.nodes(4)
    sim.link(a, r1, "100Mb", "2ms")
    sim.link(r1, r2, "10Mb", "20ms", queue_limit=30)
    sim.link(r2, b, "100Mb", "3ms")
    sim.tcp(a, b, variant="linux", cc=cc, sink=sink, window=1000, trace_vars=("cwnd",))
    sim.tcp(a, b, variant="linux", cc="reno", sink="delack", start=1.0, window=1000)
    return sim


@pytest.mark.parametrize("cc", ["cubic", "vegas", "highspeed"])
def test_api_and_exported_script_give_the_same_trace(tmp_path, cc):
    sim = two_flows(cc)
    path = tmp_path / "api.tr"
    sim.run(6, trace_packets=True, trace_file=path, monitor_queues=False)
    script = sim.to_tcl(6, trace_packets=True, trace_file="out.tr")
    assert f"$tcp(0) select_ca {cc}" in script and "new Agent/TCP/Linux" in script
    (tmp_path / "s.tcl").write_text(script)
    subprocess.run([str(DUMBBELL), "run", "s.tcl"], cwd=tmp_path, capture_output=True, check=True)
    want = (tmp_path / "out.tr").read_bytes()
    assert len(want) > 100_000
    assert path.read_bytes() == want


def test_congestion_controls_differ():
    # Each module grows and cuts the window its own way: over the same
    # path the cwnd_ traces of reno, cubic and scalable all differ.
    seen = {}
    for cc in ("reno", "cubic", "scalable"):
        res = two_flows(cc).run(8, monitor_queues=False)
        v = res.vars
        seen[cc] = tuple(v.filter(v["flow"] == 0)["value"].to_list())
        assert len(seen[cc]) > 20
    assert len(set(seen.values())) == 3


def test_known_names():
    assert "cubic" in db.api.CONGESTION_CONTROLS and "compound" in db.api.CONGESTION_CONTROLS
    assert db.api.VARIANTS["linux"] == "Agent/TCP/Linux"


@pytest.mark.parametrize("kwargs, words", [
    ({"variant": "linux", "cc": "bbr"}, "unknown congestion control cc='bbr'; choose one of reno, "),
    ({"variant": "linux", "cc": 3}, "unknown congestion control"),
    ({"variant": "reno", "cc": "cubic"}, "needs variant='linux'"),
])
def test_bad_names_are_refused(kwargs, words):
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b)
    with pytest.raises(ValueError, match=words) as e:
        sim.tcp(a, b, **kwargs)
    if "choose one of" in words:
        assert "westwood" in str(e.value) and "yeah" in str(e.value)
