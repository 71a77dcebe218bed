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


def _example():
    import importlib
    if str(ROOT / "examples") not in sys.path:
        sys.path.insert(0, str(ROOT / "examples"))
    return importlib.import_module("seed003_ecnmod")


def test_ecn_rules_mark_or_drop():
    """p_max 1 at lambda 2: with ns-2 2.35's mark_p_ rule RED drops the
    ECN-capable packets it picks once p reaches 0.1 (several per cent of
    ECN NewReno's packets); marking them whatever p (the example's
    default, the paper's "practically zero" losses) drops next to none,
    and marks more."""
    ex = _example()
    runs = {rule: ex.one_run("ecn-newreno", 2.0, 1.0, True, 40.0, 1, {"ecn_rule": rule}) for rule in ex.ECN_RULES}
    assert runs["mark_p"]["drop_rate"] > 0.01
    assert runs["always"]["drop_rate"] < 0.2 * runs["mark_p"]["drop_rate"]
    assert runs["always"]["mark_rate"] > runs["mark_p"]["mark_rate"]
    assert ex.DEFAULTS["ecn_rule"] == "always"


def test_readings_change_what_they_say():
    """Payload goodput is the wire bytes times 1000/1040 (TCP) and 80/120
    (VoIP); a warm-up measures the same run after it (calls and TCP bytes
    over [W, W+D] are those of the long run minus the short one); the
    VoIP queue counted at 8 Mb/s holds less, so VoIP loses more packets."""
    ex = _example()
    wire = ex.one_run("ecn-newreno", 2.0, 0.2, False, 30.0, 2)
    pay = ex.one_run("ecn-newreno", 2.0, 0.2, False, 30.0, 2, {"goodput": "payload"})
    assert abs(pay["tcp"] - wire["tcp"] * 1000 / 1040) < 1e-9
    assert abs(pay["voip"] - wire["voip"] * 80 / 120) < 1e-9
    long = ex.one_run("ecn-newreno", 2.0, 0.2, False, 30.0, 2)
    short = ex.one_run("ecn-newreno", 2.0, 0.2, False, 10.0, 2)
    warm = ex.one_run("ecn-newreno", 2.0, 0.2, False, 20.0, 2, {"warmup": 10.0})
    assert abs(warm["tcp"] * 20 - (long["tcp"] * 30 - short["tcp"] * 10)) < 1e-6
    assert abs(warm["calls"] * 20 - (long["calls"] * 30 - short["calls"] * 10)) < 1e-6
    from scfq_voip import build
    drops = {}
    for rate in (10e6, 8e6):
        sim, _, _, bott = build(lam=2.5, seed=1, voip_drain_rate=rate)
        res = sim.run(30.0, monitor_queues=False)
        drops[rate] = res.scfq[(bott.src.id, bott.dst.id)][0]["drops"]
    assert drops[8e6] > drops[10e6] > 0


def test_pmod_input_2p_marks_ecnmod_more():
    """--pmod-input 2p (footnote 1's words: p_mod fed 2 p(Q) while RED's
    spreading keeps wait_) marks ECN-mod more than the default, which feeds
    the spreading's real rate 2p / (3 - p); ECN NewReno has no p_mod and
    Figure 4's geometric biasing feeds p(Q) either way."""
    ex = _example()
    assert ex.DEFAULTS["pmod_input"] == "spread"
    run = lambda proto, geo, inp: ex.one_run(proto, 2.0, 0.2, geo, 40.0, 1, {"pmod_input": inp})  # noqa: E731
    assert run("ecn-mod-0.25", False, "2p")["mark_rate"] > 1.05 * run("ecn-mod-0.25", False, "spread")["mark_rate"]
    assert run("ecn-newreno", False, "2p") == run("ecn-newreno", False, "spread")
    assert run("ecn-mod-0.0625", True, "2p") == run("ecn-mod-0.0625", True, "spread")


def test_level_at_expected_calls_and_t_quantiles():
    """Figure 4's level at the calls' expected mean: the regression line
    of the runs' goodput on their mean calls, at lambda / mu; exact data on
    a line give the line's value with no width, and noise widens it by
    Student's t with n - 2 degrees of freedom."""
    ex = _example()
    calls = [195.0, 198.0, 201.0, 204.0, 207.0]
    level, width = ex.at_expected_calls(calls, [2.7 - 0.03 * (c - 200) for c in calls], 200.0)
    assert abs(level - 2.7) < 1e-12 and width < 1e-9
    level, width = ex.at_expected_calls(calls, [2.7 - 0.03 * (c - 200) + e for c, e in
                                                zip(calls, (0.01, -0.01, 0.02, -0.02, 0.0))], 200.0)
    assert abs(level - 2.7) < 0.02 and 0 < width < 0.1
    assert [ex.t975(d) for d in (3, 15)] == [3.182, 2.131]
    assert abs(ex.t975(31) - 2.0395) < 1e-3 and abs(ex.t975(120) - 1.9799) < 1e-3
