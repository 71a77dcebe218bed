"""examples/seed004_ns3.py: seed 004's sections 4.2-4.5 on the full TCP
against ns-3.37 (its --quick subset), the JSON-lines contract, the plots."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from api_scenarios import ROOT

SCRIPT = ROOT / "examples" / "seed004_ns3.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

# ns-3.37, config A (../shared/oracle/ns3/results/tables.md), typed here
# from the tables so that the test does not read the example's own copy.
NS3_42_RANGE = {"newreno": (1.27, 1.77), "vegas13": (0.46, 0.61), "veno": (1.73, 2.12)}
NS3_43 = {"scalable:newreno": (3.65, 1.40)}
NS3_44 = {"vegas:vegas": (1.13, 1.13)}
NS3_45 = {("scalable", 100): 4.59, ("vegas", 100): 1.13, ("yeah", 50): 5.73}


def _run(tmp_path, *args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=tmp_path, capture_output=True, text=True,
                          env=ENV, timeout=600)


def test_quick_json_contract_and_ns3_figures(tmp_path):
    r = _run(tmp_path, "--quick", "--json", "--plots", str(tmp_path / "figs"))
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    # exactly these keys, in this order, with these types
    for row in rows:
        assert list(row) == ["section", "case", "delay_ms", "goodput_mbps"], row
        assert isinstance(row["section"], str) and isinstance(row["case"], str)
        assert isinstance(row["delay_ms"], int)
        assert isinstance(row["goodput_mbps"], list) and all(isinstance(g, float) for g in row["goodput_mbps"])
    got = {(r["section"], r["case"], r["delay_ms"]): r["goodput_mbps"] for r in rows}
    assert len(got) == len(rows) == 8
    # 4.2: the mean of runs 1-5 within ns-3.37's 5-run range widened by 10%
    for case, (lo, hi) in NS3_42_RANGE.items():
        (g,) = got[("4.2", case, 100)]
        assert lo * 0.9 <= g <= hi * 1.1, (case, g)
    # 4.3 / 4.4: both flows (flow 0 first) within 10% of ns-3.37
    for section, table in (("4.3", NS3_43), ("4.4", NS3_44)):
        for pair, ref in table.items():
            gs = got[(section, pair, 100)]
            assert len(gs) == 2
            for g, x in zip(gs, ref):
                assert abs(g - x) <= 0.10 * x, (section, pair, gs, ref)
    # 4.5 within 5%
    for (case, d), ref in NS3_45.items():
        (g,) = got[("4.5", case, d)]
        assert abs(g - ref) <= 0.05 * ref, (case, d, g, ref)
    # Vegas-1,3 and Vegas-2,4 are different runs: the alpha/beta reach the flow
    assert got[("4.2", "vegas13", 100)][0] < 0.8 * got[("4.2", "newreno", 100)][0]
    # the figures
    figs = sorted(os.listdir(tmp_path / "figs"))
    assert "fig8_goodput_vs_delay.png" in figs and "fig6_scalable_newreno.png" in figs
    for f in figs:
        assert (tmp_path / "figs" / f).read_bytes()[:4] == b"\x89PNG"


def test_table_is_side_by_side_and_bad_section_is_refused(tmp_path):
    r = _run(tmp_path, "--quick", "--sections", "4.4")
    assert r.returncode == 0, r.stderr
    line = next(x for x in r.stdout.splitlines() if x.strip().startswith("vegas:vegas"))
    assert "1.13 : 1.13" in line and line.rstrip().endswith("ok ok")
    r = _run(tmp_path, "--sections", "4.6")
    assert r.returncode == 2
    assert "unknown section '4.6'" in r.stderr and "Traceback" not in r.stderr
