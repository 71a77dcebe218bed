"""Hamann's simple model (seed 000, section 3.2 / Appendix A): the listing's
rules hold step by step, and the behaviour section 3.2 reports."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dumbbell.models import hamann_simple as hs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runs():
    return {m: [hs.simulate(m, seed=s) for s in range(8)] for m in hs.MODELS}


def test_parameters_are_section_3_2s():
    p = hs.Params()
    assert (p.max_p, p.max_th, p.min_th, p.w_q) == (0.25, 20, 10, 0.002)
    assert (p.alpha_wnd, p.alpha_slp, p.beta) == (0.9, 0.7, 16)
    assert p.rtt == (0.040, 0.020) and p.packet_size_bytes == 512 and p.bottleneck_bps == 5e6
    e = hs.Params.for_model("ecn")
    assert (e.alpha_wnd, e.alpha_slp, e.beta) == (0.5, 1.0, 0.0)
    with pytest.raises(ValueError):
        hs.Params.for_model("vegas")


def test_windows_stay_within_the_access_cap_and_positive(runs):
    for rs in runs.values():
        for r in rs:
            cap = np.array(r.params.access_bps) * np.array(r.params.rtt) / (8 * r.params.packet_size_bytes)
            assert (r.cwnd > 0).all()
            assert (r.cwnd <= cap + 1e-9).all()
            assert (r.queue >= 0).all() and (r.avg_queue >= 0).all()


def test_a_reaction_cuts_the_window_by_alpha_wnd(runs):
    # eq. 3.3: wherever the window falls, it falls to alpha_wnd times the
    # previous step's (a slow-start re-entry only ever raises it).
    for m, rs in runs.items():
        a = rs[0].params.alpha_wnd
        for r in rs:
            w = r.cwnd
            down = w[1:] < w[:-1] - 1e-12
            assert down.any()
            np.testing.assert_allclose(w[1:][down], a * w[:-1][down])


def test_new_ecn_slope_moves_by_eq_3_2_and_3_5(runs):
    r = runs["new-ecn"][0]
    for i, rtt in enumerate(r.params.rtt):
        s = r.slope[:, i]
        ch = np.flatnonzero(np.abs(np.diff(s)) > 0)
        assert len(ch) > 0
        for k in ch:
            up = s[k] + 16 * rtt ** 2
            assert np.isclose(s[k + 1], up) or np.isclose(s[k + 1], 0.7 * s[k])
    assert (runs["ecn"][0].slope == 1).all()


def test_reactions_are_at_most_once_per_rtt(runs):
    for m, rs in runs.items():
        for r in rs:
            for i, rtt in enumerate(r.params.rtt):
                w = r.cwnd[:, i]
                cuts = np.flatnonzero(w[1:] < w[:-1] - 1e-12) + 1
                gaps = np.diff(cuts) * r.params.t_incr
                assert (gaps >= rtt - 1e-9).all()


def test_conserving_queue_conserves_packets():
    r = hs.simulate("new-ecn", seed=3, queue="conserving")
    mserve = r.params.bottleneck_bps / (8 * r.params.packet_size_bytes) * r.params.t_incr
    dq = np.diff(r.queue)
    arr = r.arrivals[1:].sum(axis=1)
    # a step adds its arrivals and serves at most a step's worth of packets
    assert (dq <= arr + 1e-9).all()
    assert (dq >= arr - mserve - 1e-6).all()


def test_jain_is_eq_2_6():
    r = hs.simulate("new-ecn", seed=0)
    x = r.mean_rate_bps
    assert np.isclose(r.jain, x.sum() ** 2 / (2 * (x ** 2).sum()))


def test_new_ecn_is_fair_and_fairer_than_ecn(runs):
    # Section 3.2: Jain ~0.99 for New-ECN; the New-ECN algorithm is what
    # brings the 40 ms connection to the 20 ms connection's rate.
    ne = [r.jain for r in runs["new-ecn"]]
    ecn = [r.jain for r in runs["ecn"]]
    assert min(ne) >= 0.98
    assert np.mean(ne) > np.mean(ecn)
    # windows roughly linear in RTT (X's twice Y's RTT): ratio 1.5..2.2
    for r in runs["new-ecn"]:
        x, y = r.cwnd_mean_pkts
        assert 1.5 < x / y < 2.2


def test_example_json_contract():
    p = subprocess.run([sys.executable, str(ROOT / "examples" / "seed000_simple_model.py"), "--json"],
                       capture_output=True, text=True, check=True)
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 2
    docs = [json.loads(x) for x in lines]
    assert [d["model"] for d in docs] == ["new-ecn", "ecn"]
    for d in docs:
        assert set(d) == {"model", "jain", "cwnd_mean_pkts"}
        assert 0.5 <= d["jain"] <= 1 and len(d["cwnd_mean_pkts"]) == 2
    ref = hs.simulate("new-ecn", seed=0)
    assert np.isclose(docs[0]["jain"], ref.jain)
    assert np.allclose(docs[0]["cwnd_mean_pkts"], ref.cwnd_mean_pkts)
