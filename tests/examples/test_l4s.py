"""examples/l4s.py: its --json contract and plots on a short run, and RFC
9332's claims for a paced Prague flow and a CUBIC flow sharing a DualPI2
bottleneck, as far as they hold in 20-30 s runs: the L4S queue stays near
its 1 ms step while the classic queue sits near its 15 ms target; against
Linux's CUBIC (the example's default) the rates are about 1:1 at 10 Mb/s,
10 ms, by tcp_prague's RTT independence; against ns-3.37's CUBIC they
followed the coupling's own steady-state equation at 10 ms (about 2, over
five seeds) with the step's earlier gate; at 100 Mb/s, 100 ms 30 s is far
from the steady state; a coupling of almost nothing (k = 0.01) lets the
L4S flow starve the classic one and a stronger one (k = 4) gives the
classic flow more; mainline Linux's step gate (min_qlen_step 0) starves
Prague at 10 Mb/s in this link model, the gate of the published runs (2)
does not; and the published Linux testbed's Prague:CUBIC ratios (Heist
and Morton, 1.7-2.7, not 1:1) against ours on their grid.  DCTCP's ECT(0)
packets go to the classic queue (RFC 8257's codepoint is not L4S's) and
get no 1 ms delay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import l4s  # noqa: E402

# The step's gate several claims below were measured with: RFC 9332's
# T_len rule with 0 bytes (a step mark only while the L4S queue still held
# a packet after the marked one left), the example's default until it took
# the gate of the L4S team's sch_dualpi2 of the published runs
# (min_qlen_step 2).  The two differ at 10 Mb/s, where a packet takes
# 1.2 ms, and in the first tens of seconds at 40 Mb/s (slow start's
# bursts); from 40 Mb/s up over 120 s they agree (docs/full-tcp.md, "L4S
# rate balance").
T_LEN_0 = {"min_qlen_step": -1, "step_min_bytes": 0}

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
        assert set(x) == KEYS and x["l4s"] == "prague" and x["paced"] is True and x["cubic_friendly"] == 2
        # (at 10 Mb/s a 1500-byte packet takes 1.2 ms: an L4S packet may
        # wait behind one classic packet the round robin sends)
        assert x["l4s_delay_ms"] < 2.0, x
        assert 10 < x["classic_delay_ms"] < 20, x
    for name in ("l4s_rates.png", "l4s_delays.png"):
        assert (tmp_path / name).stat().st_size > 10_000


def test_balance_follows_rfc9332s_model_at_10ms_over_seeds_with_ns3s_cubic():
    """At 10 Mb/s, 10 ms the coupling's own equation predicts about 1.9
    (the classic RTT carries the 15 ms queue): paced Prague against
    ns-3.37's CUBIC (`cubic_friendly=0`) gives it within 15% at each of
    five seeds, the link full (0.87-1.00 of it, 60 s; a coincidence of
    three factors: docs/full-tcp.md, "L4S rate balance"; Linux's CUBIC,
    the default, is at 1:1 there, below).  With the step's earlier gate
    (T_LEN_0); with the published runs' gate the ratio is 1.8 times the
    model (seed 1).  60 s: since the round robin stopped charging the
    classic queue for the packets the PI drops (Linux's rule), the first
    20 s read 0.82-0.95 of the model (0.90-1.10 before)."""
    for seed in range(1, 6):
        x = l4s.run_point(10, 10, seed=seed, duration=60, cubic_friendly=0, aqm=T_LEN_0)
        assert abs(x["ratio"] / x["model_ratio"] - 1) < 0.15, x
        assert x["utilisation"] > 0.98, x


def test_rates_within_a_factor_of_two_at_10mbps_40ms():
    """Against Linux's CUBIC (the default) at 10 Mb/s, 40 ms, 20 s: the
    link full and the ratio within a factor of two at each of seeds 1-5
    (1.18-1.53).  ns-3.37's CUBIC, whose slow start adds every segment an
    ACK covers, opened its window from 41 to 722 segments on the
    cumulative ACK after a timeout at seed 3 and collapsed (ratio 2.99,
    utilisation 0.94; `slow_start_cap`, cc/cubic.rs).  With the step's
    earlier gate (T_LEN_0): with the published runs' gate one seed of five
    gives 2.18."""
    for seed in range(1, 6):
        x = l4s.run_point(10, 40, seed=seed, duration=20, aqm=T_LEN_0)
        assert x["utilisation"] > 0.98 and 0.5 < x["ratio"] < 2.0, x


def test_coupling_sets_the_balance():
    """(ns-3.37's CUBIC, `cubic_friendly=0`, whose balance at 10 Mb/s,
    10 ms meets the model's with the step's earlier gate, T_LEN_0.)"""
    weak = l4s.run_point(10, 10, duration=20, aqm={"coupling_factor": 0.01, **T_LEN_0}, cubic_friendly=0)
    k2 = l4s.run_point(10, 10, duration=20, cubic_friendly=0, aqm=T_LEN_0)
    strong = l4s.run_point(10, 10, duration=20, aqm={"coupling_factor": 4, **T_LEN_0}, cubic_friendly=0)
    # without coupling only the L4S queue's 1 ms step (under a packet time
    # at 10 Mb/s) holds Prague back; the round robin's priority leaves the
    # classic flow the gaps
    assert weak["ratio"] > 2, weak
    assert strong["ratio"] < k2["ratio"] < weak["ratio"]
    # k = 2 gives RFC 9332 section 2.1's steady state (its equation with
    # the measured queue delays: window fairness, not rate fairness)
    assert abs(k2["ratio"] / k2["model_ratio"] - 1) < 0.15, k2
    assert l4s.run_point(10, 10, duration=20, cubic_friendly=0, aqm=T_LEN_0) == k2, "same input, same output"


def test_rtt_independence_brings_10ms_to_one():
    """With Linux's CUBIC (the default) the balance at 10 Mb/s, 10 ms is
    about 1 (seeds 1-3, 60 s: 1.04-1.10), though RFC 9332's model says
    about 2 there: tcp_prague's RTT independence (its default) scales
    Prague's increase by (10/25)^2 below its 25 ms target.  Without it
    (`rtt_scaling` 0) the ratio is 1.41-1.65, at least 0.3 above, toward
    the published Linux testbed's 2.12-2.13 there
    (test_published_linux_testbed_ratios; 1.66-1.76 at 20 s before the
    round robin stopped charging the classic queue for the packets the PI
    drops, Linux's rule); ns-3.37's CUBIC gives more than 1.5 (4.8)
    (docs/full-tcp.md, "L4S rate balance")."""
    for seed in (1, 2, 3):
        k2 = l4s.run_point(10, 10, seed=seed, duration=60)
        assert abs(k2["ratio"] - 1) < 0.3, k2
        off = l4s.run_point(10, 10, seed=seed, duration=60, cc_params={"rtt_scaling": 0})
        assert off["ratio"] > 1.3 and off["ratio"] > k2["ratio"] + 0.25, (off, k2)
    assert l4s.run_point(10, 10, duration=60, cubic_friendly=0)["ratio"] > 1.5


def test_mainline_linux_step_gate_starves_prague_at_10mbps():
    """Mainline Linux's sch_dualpi2 applies the 1 ms step to every L4S
    packet (min_qlen_step 0).  At 10 Mb/s a 1500-byte packet takes
    1.2 ms, and here an L4S packet's sojourn includes the wait behind the
    packet on the wire: Prague is step-marked whenever it waits behind
    one, and gets 0.20-0.22 of CUBIC's rate at 10 Mb/s, 50 ms (60 s, seeds
    1-5), where the published runs' gate (the example's default: the step
    only for a packet that found more than one queued) gives 1.53-2.11.
    (60 s: at 20 s the start-up's overload, p' at 1/2 or more while both
    flows leave slow start, now drops Prague's packets too, RFC 9332
    section 4.2.3 and Linux's `drop_overload`, and seeds 2 and 3 read
    1.20-1.21.)
    No published Linux result shows such a starvation; a Linux qdisc under
    a shaper or a NIC ring hands packets on before the previous one has
    left the wire, which ns-2's link does not (docs/full-tcp.md)."""
    for seed in (1, 2, 3):
        mainline = l4s.run_point(10, 50, seed=seed, duration=60, aqm={"min_qlen_step": 0})
        assert mainline["ratio"] < 0.3, mainline
        default = l4s.run_point(10, 50, seed=seed, duration=60)
        assert default["ratio"] > 1.3 and default["utilisation"] > 0.99, default


def test_published_linux_testbed_ratios():
    """Heist and Morton's Linux testbed (examples/l4s.py's PUBLISHED:
    tcp_prague and sch_dualpi2 of the L4S team's kernel of August 2020,
    180 s, the last 60 s) gives Prague:CUBIC 1.7-2.7 at equal RTTs, not
    1:1.  Ours on their points, seed 1, flows starting together: 50 Mb/s,
    20 ms 2.32 against 2.05-2.17, 10 Mb/s, 80 ms 1.74 against 1.70-1.74;
    at 50 Mb/s, 10 ms 2.56 against 2.61-2.73 with RTT independence off,
    2.54 with it as the L4S team's tree of 2020 had it (a 10 ms target,
    PUBLISHED_PRAGUE, which `--published` uses) and 1.31 with tcp_prague
    v0.6's (25 ms; our default)."""
    assert l4s.published_ratios(10, 10) == (2.12, 2.13)
    assert l4s.published_ratios(50, 80) == (1.66, 1.71)

    def ours(rate, rtt, **kw):
        return l4s.run_point(rate, rtt, duration=l4s.PUBLISHED_DURATION, measure=l4s.PUBLISHED_MEASURE,
                             classic_start=0.0, **kw)["ratio"]

    for rate, rtt in ((50, 20), (10, 80)):
        pub = sum(l4s.published_ratios(rate, rtt)) / 2
        assert abs(ours(rate, rtt) / pub - 1) < 0.15, (rate, rtt)
    pub = sum(l4s.published_ratios(50, 10)) / 2
    assert abs(ours(50, 10, cc_params={"rtt_scaling": 0}) / pub - 1) < 0.1
    assert abs(ours(50, 10, cc_params=l4s.PUBLISHED_PRAGUE) / pub - 1) < 0.1
    assert ours(50, 10) < 0.6 * pub
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s.py"), "--published", "--rates", "10",
                        "--rtts", "80", "--json"], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(rows) == 1 and rows[0]["published_ratio"] == [1.7, 1.74] and set(rows[0]) == KEYS | {"published_ratio"}


def test_paced_prague_balances_cubic_where_the_model_says_one():
    """Where RFC 9332's model gives about 1:1 (40 Mb/s, 100 ms: 0.89, the
    classic queue's 9 ms against the L4S queue's 0.2 ms on a 100 ms base)
    paced Prague and CUBIC share the link near 1:1 over 15-30 s (0.87-0.98
    over three seeds), within 15% of the model; unpaced Prague gets
    0.35-0.50 of CUBIC's rate there (its bursts meet the 1 ms step).  Not
    yet the steady state: over 60-120 s Prague grows on to 1.6-1.8
    (docs/full-tcp.md, "L4S rate balance").  With the step's earlier gate
    (T_LEN_0): with the published runs' gate the first 30 s differ (slow
    start's bursts meet the step differently), 1.13 at seed 1."""
    for seed in (1, 2, 3):
        x = l4s.run_point(40, 100, seed=seed, duration=30, aqm=T_LEN_0)
        assert abs(x["ratio"] - 1) < 0.2 and abs(x["ratio"] / x["model_ratio"] - 1) < 0.15, x
        u = l4s.run_point(40, 100, seed=seed, duration=30, paced=False, aqm=T_LEN_0)
        assert u["ratio"] < 0.6 and not u["paced"], u


def test_100mbps_100ms_is_not_steady_within_30s():
    """At 100 Mb/s, 100 ms (a BDP of about 830 packets) Prague's one
    segment a round has not reached its share in 30 s: 0.35 (0.33-0.35
    over seeds 1-3); over the second minute of a 120 s run it has
    (1.26-1.79)."""
    short = l4s.run_point(100, 100, duration=30)
    assert short["ratio"] < 0.5, short
    long = l4s.run_point(100, 100, duration=120)
    assert long["ratio"] > 1.0 and long["utilisation"] > 0.98, long


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
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "l4s.py"), "--cwnd-limited", "--l4s", "dctcp"],
                       capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode != 0 and "--cwnd-limited is the full TCP's Prague's" in r.stderr and "Traceback" not in r.stderr


def test_cwnd_limited_gate_does_not_hold_back_a_paced_bulk_prague():
    """tcp_prague v0.6's growth gate (`cwnd_limited` 1, `--cwnd-limited`)
    stops growth while the window does not limit sending.  Paced bulk
    Prague is window-limited whenever it grows: at 10 Mb/s, 10 ms over
    20 s the run is the default's exactly (over the two grids, seeds 1-5,
    120-180 s, 65 of 75 runs are identical and the others move within
    the seeds' spread, most at 10 ms: docs/full-tcp.md); a window frozen
    by a wrong record would not be
    (tests/api/test_full_tcp_prague.py checks the gate where it bites)."""
    base = l4s.run_point(10, 10, duration=20)
    gated = l4s.run_point(10, 10, duration=20, cc_params={"cwnd_limited": 1})
    assert gated == base
    assert abs(gated["ratio"] - 1) < 0.3 and gated["utilisation"] > 0.98, gated
