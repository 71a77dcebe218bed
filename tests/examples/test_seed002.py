"""Seed 002 (Dordal, chapter 31): the book's figures, reproduced exactly.

examples/seed002_dordal.py prints every experiment beside the book; these
tests run the ones that take seconds and pin the figures the book prints.
Each is a sweep through dumbbell.sweep (with a throwaway cache), so they also
exercise sweeps, metrics functions in run directories, dumbbell.metrics and
the nstrace interface end to end.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import seed002_dordal as ex  # noqa: E402


@pytest.fixture(scope="module")
def r(tmp_path_factory):
    d = tmp_path_factory.mktemp("seed002")
    return ex.Runner(d / "cache", d / "out", None, False)


def test_basic1(r):
    df = ex.exp_basic1(r, True)
    a, b = df.row(0, named=True), df.row(1, named=True)
    assert (round(a["peak1"], 3), round(a["peak2"], 3), round(a["peak3"], 3)) == (20.931, 20.934, 20.934)
    assert round(b["last_peak"], 3) == 20.935 and b["spacing"] == 1.946
    assert a["first_timeout"] == 1.22579
    assert (a["last_ack"], b["last_ack"], b["loss_events"]) == (808, 94915, 512)
    assert a["delivered_twice"] == "43 45 47 49 51 53 55 57 58 59 60 61 62"


def test_queue_limit_table(r):
    df = ex.exp_qlimit(r, True)
    assert dict(df.select("queuesize", "received").iter_rows()) == ex.QLIMIT_BOOK


def test_queue_utilization(r):
    df = ex.exp_queue40(r, True)
    assert round(df["avg_queue"][0], 2) == 23.76


def test_delayB_table(r):
    df = ex.exp_delayB(r, True)
    got = {d: (a, b) for d, a, b in df.select("delayB", "recv0", "recv1").iter_rows()}
    assert got == ex.DELAYB_BOOK


def test_synchronized_losses(r):
    x = ex.exp_sync(r, True).row(0, named=True)
    assert x["loss_events"] == 67 and x["one_drop_per_flow"] == 67


def test_phase_effect_mean_deviations(r):
    df = ex.exp_phase(r, True)
    got = {o: round(ex.meandev(g["ratio1"]), 3) for (o,), g in df.group_by(["overhead"])}
    assert got == {0: 1.286, 0.005: 0.638, 0.01: 0.136, 0.02: 0.090}


def test_reno_teeth_and_coarse_timeouts(r):
    df = ex.exp_teeth(r, True)
    z = df.filter(df["delayB"] == 0).row(0, named=True)
    # the book: one flow has three coarse timeouts at about T = 30, 125, 145,
    # the other seven
    assert (z["cto0"], z["cto1"]) == (3, 7)
    assert [int(t) for t in z["cto_times0"].split()] == [28, 124, 144]
    frac = (df["cto0"].sum() + df["cto1"].sum()) / (df["teeth0"].sum() + df["teeth1"].sum())
    assert 0.25 < frac < 0.40      # the book: about 30-35% of loss responses


def test_sack_loss_rate_table(r):
    df = ex.basic2("sack_t", r, {"delayB": [400], "overhead": 0.002, "bottleneckBW": 8.0, "endtime": 3000},
                   extra_args=["0", "v.tr", "Sack1", "vars"], metrics={"function": "analysis:sack_losses"})
    assert ex.sack_row(df.row(0, named=True), 3000) == ex.SACK_BOOK[400]
