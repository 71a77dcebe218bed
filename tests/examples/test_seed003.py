"""examples/seed003_ecnmod.py: its --json contract (one object a line with
the issue's keys) on a quick run, and the paper's statements that hold even
in 40 s runs: VoIP goodput does not depend on the TCP protocol, ECN-mod
sees more marks than ECN NewReno (p_mod), and total goodput fills the link."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"figure", "proto", "lambda", "pmax", "tcp_goodput_mbps", "total_goodput_mbps", "mark_rate", "queue_cov"}


def test_quick_json_contract_and_claims():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "seed003_ecnmod.py"), "--quick", "--json", "--jobs", "2"],
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows and all(set(x) == KEYS for x in rows)
    assert {x["figure"] for x in rows} == {"2", "3", "4"}
    assert {x["proto"] for x in rows} == {"ecn-newreno", "ecn-mod-0.25", "ecn-mod-0.125", "ecn-mod-0.0625"}
    f2 = {(x["proto"], x["lambda"]): x for x in rows if x["figure"] == "2"}
    for lam in (1.0, 2.0):
        base = f2[("ecn-newreno", lam)]
        for c1 in ("0.25", "0.125", "0.0625"):
            mod = f2[(f"ecn-mod-{c1}", lam)]
            voip = lambda x: x["total_goodput_mbps"] - x["tcp_goodput_mbps"]
            assert abs(voip(mod) - voip(base)) < 0.01 * voip(base), (lam, c1)
            assert mod["mark_rate"] > base["mark_rate"]
        assert all(f2[(p, lam)]["total_goodput_mbps"] > 9.8 for p in ("ecn-newreno", "ecn-mod-0.0625"))
    # a smaller c1 means fewer marks for the same window (eq. 11)
    assert f2[("ecn-mod-0.25", 2.0)]["mark_rate"] > f2[("ecn-mod-0.125", 2.0)]["mark_rate"] > f2[("ecn-mod-0.0625", 2.0)]["mark_rate"]
    f4 = [x for x in rows if x["figure"] == "4"]
    assert {x["pmax"] for x in f4} == {0.05, 1.0} and all(x["lambda"] == 2.0 for x in f4)
