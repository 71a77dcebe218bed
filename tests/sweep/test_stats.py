"""Means over seeds with Student-t confidence intervals, and the sweep plot."""

from __future__ import annotations

import math

import polars as pl
import pytest

from dumbbell.sweep import plot_sweep, summarise, t_quantile

# two-sided 95% (p = 0.975) and other quantiles from standard tables
T_TABLE = [
    (0.975, 1, 12.706204736), (0.975, 2, 4.302652730), (0.975, 3, 3.182446305), (0.975, 4, 2.776445105),
    (0.975, 5, 2.570581836), (0.975, 9, 2.262157163), (0.975, 10, 2.228138852), (0.975, 19, 2.093024054),
    (0.975, 29, 2.045229642), (0.975, 30, 2.042272456), (0.975, 100, 1.983971519), (0.975, 1000, 1.962339081),
    (0.95, 10, 1.812461123), (0.995, 5, 4.032142984), (0.995, 30, 2.749995654), (0.9995, 3, 12.923978636),
    (0.9, 7, 1.414923928),
]


@pytest.mark.parametrize("p, df, t", T_TABLE)
def test_t_quantile_matches_the_tables(p, df, t):
    assert t_quantile(p, df) == pytest.approx(t, rel=1e-9)
    assert t_quantile(1 - p, df) == pytest.approx(-t, rel=1e-9)


def test_t_quantile_limits():
    assert t_quantile(0.5, 4) == 0.0
    assert t_quantile(0.975, 1e7) == pytest.approx(1.959963985, rel=1e-6)  # the normal quantile
    assert t_quantile(0.975, 3.5) == pytest.approx(2.93, abs=0.02)  # between df 3 and 4
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0)


def _table():
    # x = 1: four seeds 1, 2, 3, 4; x = 2: 10 and 12 (and a failed run); x = 3: one seed
    return pl.DataFrame({
        "x": [1, 1, 1, 1, 2, 2, 2, 3], "seed": [1, 2, 3, 4, 1, 2, 3, 1],
        "m": [1.0, 2.0, 3.0, 4.0, 10.0, 12.0, None, 7.0],
        "status": ["ok"] * 6 + ["failed", "ok"],
    })


def test_summarise_hand_worked():
    s = summarise(_table(), "m")
    assert s["x"].to_list() == [1, 2, 3] and s["m_n"].to_list() == [4, 2, 1]
    assert s["m_mean"].to_list() == [2.5, 11.0, 7.0]
    # x = 1: s = sqrt(5/3) = 1.290994449; half = 3.182446305 * s / 2 = 2.0542603
    assert s["m_std"][0] == pytest.approx(math.sqrt(5 / 3))
    assert s["m_ci_lo"][0] == pytest.approx(2.5 - 2.0542603, abs=1e-6)
    assert s["m_ci_hi"][0] == pytest.approx(2.5 + 2.0542603, abs=1e-6)
    # x = 2: s = sqrt(2); half = 12.706204736 * sqrt(2) / sqrt(2) = 12.706204736
    assert s["m_ci_hi"][1] == pytest.approx(11.0 + 12.706204736, rel=1e-9)
    # x = 3: one value, no interval
    assert s["m_std"][2] is None and s["m_ci_lo"][2] is None
    s90 = summarise(_table(), ["m"], by=["x"], level=0.90)
    assert s90["m_ci_hi"][0] == pytest.approx(2.5 + 2.353363435 * math.sqrt(5 / 3) / 2, rel=1e-9)
    with pytest.raises(ValueError, match="no column 'q'"):
        summarise(_table(), "q")


def test_plot_sweep_writes_files(tmp_path):
    df = pl.DataFrame({"x": [1, 1, 2, 2, 3, 3] * 2, "h": ["a"] * 6 + ["b"] * 6, "seed": [1, 2] * 6,
                       "m": [1.0, 1.5, 2.0, 2.2, 3.0, 3.1, 2.0, 2.5, 3.0, 3.3, 4.0, 4.4],
                       "n": [0.5] * 12, "status": ["ok"] * 12})
    fig = plot_sweep(df, "x", "m", hue="h", path=tmp_path / "s.png")
    assert (tmp_path / "s.png").stat().st_size > 5000
    ax = fig.axes[0]
    assert len(ax.lines) == 2 and len(ax.collections) == 2  # two means, two bands
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["h=a", "h=b"]
    fig = plot_sweep(df.filter(pl.col("h") == "a"), "x", ["m", "n"], path=tmp_path / "s.svg")
    assert (tmp_path / "s.svg").read_text().startswith("<?xml")
    assert len(fig.axes[0].lines) == 2
    with pytest.raises(ValueError, match=r"'h' varies \(2 values\) but is neither x nor hue"):
        plot_sweep(df, "x", "m")
    # one seed: a line, no band
    fig = plot_sweep(df.filter(pl.col("seed") == 1, pl.col("h") == "a"), "x", "m", path=tmp_path / "s.pdf")
    assert len(fig.axes[0].collections) == 0 and (tmp_path / "s.pdf").exists()
