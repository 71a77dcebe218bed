"""examples/l4s.py: its --json contract and plots on a short run, and RFC
9332's claims for a paced Prague flow and a CUBIC flow sharing a DualPI2
bottleneck, as far as they hold in 20-30 s runs: the L4S queue stays near
its 1 ms step while the classic queue sits near its 15 ms target; the
rates follow the coupling's own steady-state equation at 10 ms (about 2,
over five seeds) and come to 1:1 where that equation says so (40 Mb/s,
100 ms), which unpaced Prague does not; a coupling of almost nothing
(k = 0.01) lets the L4S flow starve the classic one and a stronger one
(k = 4) gives the classic flow more.  DCTCP's ECT(0) packets go to the
classic queue (RFC 8257's codepoint is not L4S's) and get no 1 ms delay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import l4s  # noqa: E402

KEYS = {"rate_mbps", "rtt_ms", "l4s", "l4s_mbps", "classic_mbps", "ratio", "l4s_delay_ms", "classic_delay_ms",
        "utilisation", "stack", "model_ratio", "paced", "cubic_friendly"}


def test_json_contract_plots_and_claims(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s.py"), "--rates", "10", "--rtts", "10,40",
                        "--duration", "20", "--json", "--plots", str(tmp_path)],
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["rate_mbps"], x["rtt_ms"]) for x in rows] == [(10, 10), (10, 40)]
    for x in rows:
        assert set(x) == KEYS and x["l4s"] == "prague" and x["paced"] is True and x["cubic_friendly"] == 0
        # (at 10 Mb/s a 1500-byte packet takes 1.2 ms: an L4S packet may
        # wait behind one classic packet the round robin sends)
        assert x["l4s_delay_ms"] < 2.0, x
        assert 10 < x["classic_delay_ms"] < 20, x
    for name in ("l4s_rates.png", "l4s_delays.png"):
        assert (tmp_path / name).stat().st_size > 10_000


def test_balance_follows_rfc9332s_model_at_10ms_over_seeds():
    """At 10 Mb/s, 10 ms the coupling's own equation predicts about 1.9
    (the classic RTT carries the 15 ms queue): paced Prague against CUBIC
    gives it within 15% at each of five seeds, the link full."""
    for seed in range(1, 6):
        x = l4s.run_point(10, 10, seed=seed, duration=20)
        assert abs(x["ratio"] / x["model_ratio"] - 1) < 0.15, x
        assert x["utilisation"] > 0.98, x


@pytest.mark.xfail(strict=True, reason="10 Mb/s, 40 ms, 20 s, seed 1: ratio 2.20 (RFC 9332's model 1.10) and "
                   "utilisation 0.967; over seeds 1-5 the ratio runs 1.6-16 (a CUBIC collapse at seed 3), "
                   "unpaced 1.2-20 (docs/full-tcp.md, 'L4S rate balance')")
def test_rates_within_a_factor_of_two_at_10mbps_40ms():
    x = l4s.run_point(10, 40, duration=20)
    assert x["utilisation"] > 0.98 and 0.5 < x["ratio"] < 2.0, x


def test_coupling_sets_the_balance():
    weak = l4s.run_point(10, 10, duration=20, aqm={"coupling_factor": 0.01})
    k2 = l4s.run_point(10, 10, duration=20)
    strong = l4s.run_point(10, 10, duration=20, aqm={"coupling_factor": 4})
    # without coupling only the L4S queue's 1 ms step (under a packet time
    # at 10 Mb/s) holds Prague back; the round robin's priority leaves the
    # classic flow the gaps
    assert weak["ratio"] > 2, weak
    assert strong["ratio"] < k2["ratio"] < weak["ratio"]
    # k = 2 gives RFC 9332 section 2.1's steady state (its equation with
    # the measured queue delays: window fairness, not rate fairness)
    assert abs(k2["ratio"] / k2["model_ratio"] - 1) < 0.15, k2
    assert l4s.run_point(10, 10, duration=20) == k2, "same input, same output"


@pytest.mark.xfail(strict=True, reason="the classic:L4S balance at 10 Mb/s, 10 ms is about 2 (RFC 9332's "
                   "model: 1.9), not the ~1 of the L4S team's Linux results (docs/full-tcp.md, 'L4S rate balance')")
def test_coupling_balances_rates_as_linux_does():
    k2 = l4s.run_point(10, 10, duration=20)
    assert abs(k2["ratio"] - 1) < 0.3, k2


def test_paced_prague_balances_cubic_where_the_model_says_one():
    """Where RFC 9332's model gives about 1:1 (40 Mb/s, 100 ms: 0.89, the
    classic queue's 9 ms against the L4S queue's 0.2 ms on a 100 ms base)
    paced Prague and CUBIC share the link near 1:1 (0.87-0.98 over three
    seeds, 30 s), within 15% of the model; unpaced Prague gets 0.35-0.50
    of CUBIC's rate there (its bursts meet the 1 ms step)."""
    for seed in (1, 2, 3):
        x = l4s.run_point(40, 100, seed=seed, duration=30)
        assert abs(x["ratio"] - 1) < 0.2 and abs(x["ratio"] / x["model_ratio"] - 1) < 0.15, x
        u = l4s.run_point(40, 100, seed=seed, duration=30, paced=False)
        assert u["ratio"] < 0.6 and not u["paced"], u


def test_dctcp_is_classic_traffic_to_dualpi2_on_ns2s_tcp_l4s_on_the_full_tcp():
    """ns-2's Linux DCTCP sends ECT(0): DualPI2's classic queue; the full
    TCP's DCTCP runs with use_ect0=0 here: ECT(1), the L4S queue."""
    d = l4s.run_point(10, 10, l4s="dctcp", duration=20, stack="ns2")
    assert d["l4s_delay_ms"] > 10, d
    d = l4s.run_point(10, 10, l4s="dctcp", duration=20)
    assert d["l4s_delay_ms"] < 3, d


def test_model_ratio_is_rfc9332s_equation():
    """2 R_C / (1.22 k R_L): equal RTTs give 2 / 2.44 = 0.8197; a 10 ms
    base RTT with queues of 15 and 0.3 ms gives 0.8197 * 25 / 10.3."""
    assert abs(l4s.model_ratio(50, 0, 0) - 0.8197) < 1e-4
    assert abs(l4s.model_ratio(10, 0.3, 15) - 0.8197 * 25 / 10.3) < 1e-3


def test_bad_arguments_are_clear():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s.py"), "--rtts", "3"],
                       capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode != 0 and "--rtts must be above 4 ms" in r.stderr and "Traceback" not in r.stderr
