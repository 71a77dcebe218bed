"""Plots ready for a paper (issue 21): one resolution for every PNG, legend
texts and titles settable, legends beside the data, New-ECN flows named as
such, drop/mark markers thinned on long runs, RED's average queue, units on
every axis; and the names of `dumbbell metrics`' columns."""

from __future__ import annotations

import json
import struct

import numpy as np
import polars as pl
import pytest

import dumbbell as db
from dumbbell import cli
from dumbbell import plot as dp
from dumbbell.sweep.plot import plot_sweep


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def png_dpi(path) -> float:
    """The resolution a PNG records (its pHYs chunk), dots per inch."""
    data = path.read_bytes()
    i = data.index(b"pHYs")
    ppm, _, unit = struct.unpack(">IIB", data[i + 4:i + 13])
    assert unit == 1
    return ppm * 0.0254


@pytest.fixture(scope="module")
def newecn_run():
    # Two flows over RED with ECN: flow 0 New-ECN (windowOption_ 8 with
    # newecn_), flow 1 plain ECN.
    sim = db.Simulation()
    s, r, d = sim.nodes(3)
    sim.link(s, r, "10Mb", "5ms")
    bott = sim.link(r, d, "1Mb", "20ms", queue="RED", queue_limit=30, queue_params={"setbit_": True})
    f0 = sim.tcp(s, d, window=64, trace_vars=("cwnd_",), ecn_=1, windowOption_=8, newecn_=True)
    f1 = sim.tcp(s, d, window=64, trace_vars=("cwnd_",), ecn_=1, start=0.5)
    return sim.run(until=20, trace_packets=True), bott, (f0, f1)


def test_every_png_has_the_same_resolution(newecn_run, tmp_path):
    res, bott, (f0, f1) = newecn_run
    paths = {"cwnd": tmp_path / "c.png", "queue": tmp_path / "q.png", "ack": tmp_path / "a.png",
             "goodput": tmp_path / "g.png", "seqno": tmp_path / "s.png"}
    res.plot_cwnd(paths["cwnd"])          # was 120 dpi (the figure's own)
    res.plot_queue(bott, paths["queue"])
    res.plot_ack_seqno(paths["ack"])
    res.plot_goodput_groups({"a": [f0], "b": [f1]}, paths["goodput"])
    res.plot_seqno(paths["seqno"])
    for name, p in paths.items():
        assert png_dpi(p) == pytest.approx(dp.DPI, abs=0.5), name
        w, h = png_size(p)
        assert w > 6 * dp.DPI and h > 3 * dp.DPI, (name, w, h)


def test_new_ecn_flows_are_named_and_labels_can_be_set(newecn_run, tmp_path):
    res, bott, (f0, f1) = newecn_run
    fig = res.plot_cwnd()
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == ["flow 0: reno New-ECN 0->2", "flow 1: reno ECN 0->2"]
    fig = res.plot_ack_seqno()
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["flow 0: reno New-ECN",
                                                                          "flow 1: reno ECN"]
    fig = res.plot_cwnd(labels={f0: "New-ECN, 40 ms", 1: "ECN, 40 ms"}, title="Two flows")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["New-ECN, 40 ms", "ECN, 40 ms"]
    assert ax.get_title() == "Two flows"
    fig = res.plot_goodput_groups({"a": [f0], "b": [f1]}, labels=["first", "second"])
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["first", "second"]
    with pytest.raises(ValueError, match="labels must be a list"):
        res.plot_cwnd(labels="oops")


def test_legends_sit_beside_the_data_and_are_saved(newecn_run, tmp_path):
    res, bott, _ = newecn_run
    for fig in (res.plot_cwnd(tmp_path / "c.png"), res.plot_queue(bott, tmp_path / "q.png")):
        fig.canvas.draw()
        ax = fig.axes[0]
        leg = ax.get_legend().get_window_extent()
        box = ax.get_window_extent()
        assert leg.x0 >= box.x1, "the legend overlaps the axes"
    # the saved figure keeps the legend: its right edge, in the saved
    # image's pixels, lies inside the image (bbox_inches="tight")
    fig = res.plot_cwnd(tmp_path / "c.png")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    tight = fig.get_tightbbox(renderer)
    leg = fig.axes[0].get_legend().get_tightbbox(renderer)
    w, _ = png_size(tmp_path / "c.png")
    assert (leg.x1 - tight.x0 * fig.dpi) * dp.DPI / fig.dpi <= w


def test_queue_markers_are_thinned_or_hidden():
    # 5000 drops: "auto" draws 1 in 17 (at most 300), "none" none, "all" all.
    n = 5000
    t = np.arange(n) * 0.01
    ev = pl.DataFrame({
        "event": ["+"] * n + ["d"] * n, "time": np.concatenate([t, t]),
        "from_node": [1] * (2 * n), "to_node": [2] * (2 * n), "ptype": ["tcp"] * (2 * n),
        "size": [1000] * (2 * n), "flags": ["-------"] * (2 * n), "fid": [0] * (2 * n),
        "src_node": [0] * (2 * n), "src_port": [0] * (2 * n), "dst_node": [2] * (2 * n), "dst_port": [0] * (2 * n),
        "seqno": list(range(n)) * 2, "uid": list(range(n)) * 2})

    def drops(fig):
        (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("drops")]
        return line

    line = drops(dp.plot_queue(ev, (1, 2)))
    assert len(line.get_xdata()) == 295 and line.get_label() == "drops (5000, 1 in 17 drawn)"
    line = drops(dp.plot_queue(ev, (1, 2), markers="none"))
    assert len(line.get_xdata()) == 0 and line.get_label() == "drops (5000, not drawn)"
    assert len(drops(dp.plot_queue(ev, (1, 2), markers="all")).get_xdata()) == n
    assert len(drops(dp.plot_queue(ev, (1, 2), max_markers=1000)).get_xdata()) == 1000
    with pytest.raises(ValueError, match="markers must be"):
        dp.plot_queue(ev, (1, 2), markers="some")


def test_red_average_queue_on_the_queue_plot(tmp_path):
    # A RED queue traced as ns-2 scripts do: the ave_ line is drawn from
    # the queue trace file.
    script = tmp_path / "red.tcl"
    script.write_text("""set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set s [$ns node]; set r [$ns node]; set d [$ns node]
$ns duplex-link $s $r 10Mb 2ms DropTail
$ns duplex-link $r $d 1Mb 20ms RED
$ns queue-limit $r $d 30
set q [[$ns link $r $d] queue]
set qf [open q.tr w]
$q trace ave_
$q trace curq_
$q attach $qf
set tcp [$ns create-connection TCP/Reno $s TCPSink $d 0]
$tcp set window_ 64
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp start"
$ns at 10 "flush $f; flush $qf; exit 0"
$ns run
""")
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "red.tcl"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    red = dp.read_red_trace(tmp_path / "q.tr")
    ave = red.filter(pl.col("var") == "a")
    assert ave.height > 100
    fig = dp.plot_queue(tmp_path / "out.tr", (1, 2), red_average=tmp_path / "q.tr")
    (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_label() == "RED average queue (ave_)"]
    assert np.allclose(line.get_ydata(), ave["value"].to_numpy())
    assert cli.main(["plot", "queue", str(tmp_path / "out.tr"), "--link", "1", "2", "--red-trace",
                     str(tmp_path / "q.tr"), "-o", str(tmp_path / "q.png")]) == 0
    with pytest.raises(ValueError, match="no ave_ records"):
        dp.plot_queue(tmp_path / "out.tr", (1, 2), red_average=red.filter(pl.col("var") == "Q"))


def test_every_axis_has_a_unit(newecn_run):
    res, bott, (f0, f1) = newecn_run
    figs = [res.plot_cwnd(), res.plot_queue(bott), res.plot_ack_seqno(), res.plot_seqno(),
            res.plot_goodput_groups({"a": [f0], "b": [f1]})]
    df = pl.DataFrame({"delayB_ms": [0, 10, 20] * 2, "seed": [1, 1, 1, 2, 2, 2],
                       "ratio1": [1.0, 2.0, 3.0, 1.1, 2.1, 3.1], "ratio2": [0.5, 0.4, 0.3, 0.6, 0.5, 0.4]})
    figs.append(plot_sweep(df, "delayB_ms", ["ratio1", "ratio2"]))
    for fig in figs:
        ax = fig.axes[0]
        for label in (ax.get_xlabel(), ax.get_ylabel()):
            assert label.endswith(")") and "(" in label, label
            assert "value" != label.split(" (")[0], label
    ax = figs[-1].axes[0]
    assert ax.get_xlabel() == "delayB_ms (ms)" and ax.get_ylabel() == "ratio1, ratio2 (ratio)"
    ax = plot_sweep(df, "delayB_ms", "ratio1", xlabel="delay of link B (ms)", ylabel="ratio (1)").axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("delay of link B (ms)", "ratio (1)")


def test_metrics_and_flows_do_not_share_a_name_for_different_counts(tmp_path, capsys):
    # basic1 for 10 s ends with a hole: 817 distinct packets arrived, 808 of
    # them in order (the sink's bytes_, Result.flows' goodput_pkts).
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, bandwidth="10Mb", delay="10ms")
    sim.link(R, B, bandwidth="800Kb", delay="50ms", queue_limit=7)
    sim.tcp(A, B, variant="reno", window=100, packet_size=960)
    res = sim.run(until=10, trace_file=tmp_path / "b.tr", trace_packets=True)
    assert res.flows["goodput_pkts"].to_list() == [808]
    assert cli.main(["metrics", str(tmp_path / "b.tr"), "--format", "json"]) == 0
    (flow,) = json.loads(capsys.readouterr().out)["flows"]
    assert "goodput_pkts" not in flow
    assert flow["distinct_pkts"] == 817 == res.goodput()["packets"][0]


def test_plot_queue_without_link_lists_the_traced_links(tmp_path, capsys):
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, bandwidth="10Mb", delay="10ms")
    sim.link(R, B, bandwidth="800Kb", delay="50ms", queue_limit=7)
    sim.tcp(A, B, window=100, packet_size=960)
    sim.run(until=2, trace_file=tmp_path / "b.tr", trace_packets=True)
    assert cli.main(["plot", "queue", str(tmp_path / "b.tr"), "-o", str(tmp_path / "q.png")]) == 2
    err = capsys.readouterr().err
    assert "plot queue needs --link FROM TO" in err
    assert "--link 0 1, --link 1 0, --link 1 2, --link 2 1" in err
