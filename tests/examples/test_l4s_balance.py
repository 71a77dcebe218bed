"""examples/l4s_balance.py: the measured laws behind the L4S balance
(docs/full-tcp.md, "L4S rate balance", item 3).  The ratio is the model's
times f_L / f_C x 2 / k_eff, each factor measured at the bottleneck; at
40 Mb/s, 50 ms Prague holds more than 2/p_L (one cut per CWR episode, about
1 + 1/(p_L W_L)) and the coupling meets k_eff under 2 (p' varies, the
classic flow meets p'^2); at 40 Mb/s, 10 ms ns-3.37's CUBIC holds well
under Reno's window at its own drop rate, and with the Reno-friendly
region (`--cubic-friendly`) it holds Reno's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import l4s_balance  # noqa: E402

# The step's gate these claims were measured with: RFC 9332's T_len rule
# with 0 bytes (a step mark only while the L4S queue still held a packet
# after the marked one left), examples/l4s.py's default until it took the
# gate of the L4S team's sch_dualpi2 of the published runs (min_qlen_step
# 2), which moves the first tens of seconds at 40 Mb/s (slow start's
# bursts): at 40 Mb/s, 50 ms, 20 s, k_eff is 0.93 with it.
T_LEN_0 = {"min_qlen_step": -1, "step_min_bytes": 0}


def test_factors_explain_the_ratio():
    """(60 s, seed 1: k_eff 1.69; over seeds 1-5 1.18-1.69, and 1.18 at
    seed 1 over 20 s since the round robin stopped charging the classic
    queue for the packets the PI drops, Linux's rule.)"""
    x = l4s_balance.measure(40, 50, duration=60, cubic_friendly=0, aqm=T_LEN_0)
    assert abs(x["ratio"] / x["model_ratio"] - x["f_l"] / x["f_c"] * 2 / x["k_eff"]) < 0.01, x
    assert 1.2 < x["f_l"] < 1.8, x
    assert abs(x["f_l"] - (1 + 1 / (x["p_l"] * x["w_l"]))) < 0.25, x
    assert 1.2 < x["k_eff"] < 1.9, x
    y = l4s_balance.measure(40, 10, duration=60, cubic_friendly=0, aqm=T_LEN_0)
    assert y["f_c"] < 0.5 and y["f_l"] < 0.8, y
    assert y["ratio"] > 1.5 * y["model_ratio"], y



def test_reno_friendly_cubic_holds_renos_window():
    """With RFC 9438's Reno-friendly region (`tcp_friendliness`, Linux's
    rule 2 and the RFC's 1) the classic CUBIC holds Reno's window at its
    drop rate at 40 Mb/s, 10 ms (f_C 0.99-1.02 over seeds 1-5, 60 s,
    where ns-3.37's CUBIC holds 0.30-0.41), and the ratio falls from about
    twice the model to under it (0.58-0.66 of it): what is left there is
    Prague's RTT independence (f_L about 0.6).  (60 s: over 20 s seed 2
    reads 0.93 of the model since the round robin stopped charging the
    classic queue for the packets the PI drops, Linux's rule.)"""
    for seed in (1, 2, 3):
        x = l4s_balance.measure(40, 10, seed=seed, duration=60, cubic_friendly=2, aqm=T_LEN_0)
        assert 0.85 < x["f_c"] < 1.25 and x["f_l"] < 0.8, x
        assert x["ratio"] < 0.8 * x["model_ratio"], x
    y = l4s_balance.measure(40, 10, duration=60, cubic_friendly=1, aqm=T_LEN_0)
    assert 0.85 < y["f_c"] < 1.25 and y["ratio"] < 0.8 * y["model_ratio"], y


def test_json_lines():
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s_balance.py"), "--rates", "10", "--rtts", "50",
                        "--duration", "10", "--json", "--classic", "newreno"],
                       capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(rows) == 1 and rows[0]["classic"] == "newreno" and rows[0]["f_l"] is not None
    bad = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s_balance.py"), "--rtts", "3"],
                         capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert bad.returncode != 0 and "--rtts must be above 4 ms" in bad.stderr and "Traceback" not in bad.stderr
