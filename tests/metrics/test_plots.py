"""The metric plots (dumbbell.plot) and the `dumbbell plot` / `dumbbell
metrics` commands, on small hand-made traces and a real run."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest

import dumbbell as db
from dumbbell import cli
from dumbbell import plot as dp

MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF"}

# Two flows 0.0 -> 2.0 (fid 1) and 3.0 -> 2.1 (fid 2) through queue 1 -> 2.
#   Queue 1 -> 2: + @1 (1), + @1.5 (2), - @2 (1), + @2.5 (2), + @2.5 (3),
#   d @2.5 (tail drop of fid 2's uid 4: back to 2), - @3 with CE set (RED
#   marked uid 2: 1), - @3.5 (0).
#   ACKs arriving at the senders: fid 1 acks 1 @2.5, 2 @3.6; fid 2 acks 1 @3.8.
#   New data delivered at node 2: fid 1 seq 1 @2.2, seq 2 @3.2; fid 2 seq 1 @3.7.
TRACE = """
+ 1 1 2 tcp 1000 ------N 1 0.0 2.0 1 1
+ 1.5 1 2 tcp 1000 ------N 1 0.0 2.0 2 2
- 2 1 2 tcp 1000 ------N 1 0.0 2.0 1 1
r 2.2 1 2 tcp 1000 ------N 1 0.0 2.0 1 1
+ 2.5 1 2 tcp 1000 ------N 2 3.0 2.1 1 3
+ 2.5 1 2 tcp 1000 ------N 2 3.0 2.1 2 4
d 2.5 1 2 tcp 1000 ------N 2 3.0 2.1 2 4
r 2.5 1 0 ack 40 ------- 1 2.0 0.0 1 5
- 3 1 2 tcp 1000 ----E-N 1 0.0 2.0 2 2
r 3.2 1 2 tcp 1000 ----E-N 1 0.0 2.0 2 2
- 3.5 1 2 tcp 1000 ------N 2 3.0 2.1 1 3
r 3.6 1 0 ack 40 C------ 1 2.0 0.0 2 6
r 3.7 1 2 tcp 1000 ------N 2 3.0 2.1 1 3
r 3.8 1 3 ack 40 ------- 2 2.1 3.0 1 7
3.00000 0 0 2 0 cwnd_ 4.000
3.70000 0 0 2 0 cwnd_ 2.000
"""


@pytest.fixture
def trace(tmp_path):
    p = tmp_path / "t.tr"
    p.write_text(textwrap.dedent(TRACE).lstrip())
    return p


def _check_file(path):
    data = path.read_bytes()
    assert len(data) > 1000
    if path.suffix == ".svg":
        assert b"<svg" in data[:2000]
    else:
        assert data.startswith(MAGIC[path.suffix])


@pytest.mark.parametrize("ext", [".png", ".pdf", ".svg"])
def test_plot_queue(trace, tmp_path, ext):
    out = tmp_path / f"q{ext}"
    fig = dp.plot_queue(trace, (1, 2), out, "queue", queue_limit=2)
    _check_file(out)
    ax = fig.axes[0]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    step = lines["queue 1\u21922"]
    # From 0 (the window starts at 0) through every queue change to the end (3.8).
    assert list(step.get_xdata()) == [0, 1, 1.5, 2, 2.5, 2.5, 2.5, 3, 3.5, 3.8]
    assert list(step.get_ydata()) == [0, 1, 2, 1, 2, 3, 2, 1, 0, 0]
    # Markers sit at the queue length after the events of their time.
    drops = lines["drops (1)"]
    assert list(drops.get_xdata()) == [2.5] and list(drops.get_ydata()) == [2]
    marks = lines["ECN marks (1)"]
    assert list(marks.get_xdata()) == [3.0] and list(marks.get_ydata()) == [1]
    # 1, 2, 1, 2, 1 packets on the half-seconds from 1 to 3.5: 3.5 / 3.8
    avg = [ln for label, ln in lines.items() if label.startswith("time average")][0]
    assert avg.get_ydata()[0] == pytest.approx(3.5 / 3.8)
    assert ax.get_xlabel() == "time (s)" and ax.get_ylabel() == "queue length (packets)"
    assert ax.get_legend() is not None
    dp._plt().close(fig)


def test_plot_ack_seqno(trace, tmp_path):
    fig = dp.plot_ack_seqno(db.read_trace(trace), tmp_path / "a.png")
    _check_file(tmp_path / "a.png")
    ax = fig.axes[0]
    data = {ln.get_label(): (list(ln.get_xdata()), list(ln.get_ydata())) for ln in ax.get_lines()}
    assert data == {"fid 1": ([2.5, 3.6], [1, 2]), "fid 2": ([3.8], [1])}
    assert ax.get_ylabel() == "ACK sequence number (packets)"
    fig = dp.plot_ack_seqno(db.read_trace(trace), by="conn")
    assert [ln.get_label() for ln in fig.axes[0].get_lines()] == ["0.0 \u2192 2.0", "3.0 \u2192 2.1"]
    dp._plt().close("all")


def test_plot_goodput_groups(trace, tmp_path):
    out = tmp_path / "g.svg"
    fig = dp.plot_goodput_groups(trace, {"one": [1], "both": [1, 2]}, out, bin=1.0, window=(2, 4), per_flow=False)
    _check_file(out)
    ax = fig.axes[0]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    # Bins [2, 3) and [3, 4): fid 1 delivers 1000 B in each (8 kb/s), fid 2
    # 1000 B in the second: "both" 8 and 16 kb/s.
    assert list(lines["one (1 flow)"].get_xdata()) == [2.5, 3.5]
    assert list(lines["one (1 flow)"].get_ydata()) == [8, 8]
    assert list(lines["both (2 flows)"].get_ydata()) == [8, 16]
    assert ax.get_ylabel() == "goodput (kb/s)"
    fig = dp.plot_goodput_groups(trace, {"both": [1, 2]}, bin=1.0, window=(2, 4))   # mean per flow
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [4, 8]
    assert fig.axes[0].get_ylabel() == "goodput per flow (kb/s)"
    dp._plt().close("all")


def test_plot_errors(trace, tmp_path):
    with pytest.raises(ValueError, match=r"plot_queue\(\): path must end in .png, .pdf or .svg"):
        dp.plot_queue(trace, (1, 2), tmp_path / "q.jpg")
    with pytest.raises(ValueError, match=r"plot_queue\(\): link \(2, 1\) has no events"):
        dp.plot_queue(trace, (2, 1))
    with pytest.raises(ValueError, match=r"plot_ack_seqno\(\): no ack_ records to plot"):
        dp.plot_ack_seqno(db.read_vartrace(trace))
    with pytest.raises(ValueError, match=r"groups\['x'\] must list flow keys"):
        dp.plot_goodput_groups(trace, {"x": ["a"]})


def test_result_plots(tmp_path):
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, "10Mb", "10ms")
    bott = sim.link(R, B, "800Kb", "50ms", queue_limit=7)
    f0 = sim.tcp(A, B, window=100, packet_size=960, trace_vars=("ack_",))
    f1 = sim.tcp(A, B, window=100, packet_size=960, start=1.0)
    res = sim.run(until=5, trace_packets=True)
    fig = res.plot_queue(bott, tmp_path / "q.png")
    _check_file(tmp_path / "q.png")
    assert "limit 7" in [ln.get_label() for ln in fig.axes[0].get_lines()]
    fig = res.plot_ack_seqno(tmp_path / "a.pdf")
    _check_file(tmp_path / "a.pdf")
    assert [ln.get_label() for ln in fig.axes[0].get_lines()] == ["flow 0: reno", "flow 1: reno"]
    fig = res.plot_goodput_groups({"first": [f0], "second": [f1]}, tmp_path / "g.png")
    _check_file(tmp_path / "g.png")
    (first, second) = fig.axes[0].get_lines()
    assert len(first.get_xdata()) == 5 and second.get_ydata()[0] == 0    # f1 starts at 1 s


# ---- the command line ---------------------------------------------------------------------


@pytest.mark.parametrize("kind, extra", [
    ("queue", ["--link", "1", "2"]),
    ("ack", []),
    ("goodput", ["--group", "a=1", "--group", "b=1,2", "--bin", "0.5"]),
    ("goodput", []),
    ("seqno", []),
    ("cwnd", []),
])
def test_cli_plot(trace, tmp_path, kind, extra, capsys):
    out = tmp_path / f"{kind}.png"
    assert cli.main(["plot", kind, str(trace), "-o", str(out), *extra]) == 0
    _check_file(out)
    assert capsys.readouterr().out.strip() == f"wrote {out}"


def test_cli_plot_errors(trace, tmp_path, capsys):
    assert cli.main(["plot", "queue", str(trace), "-o", str(tmp_path / "q.png")]) == 2
    assert "plot queue needs --link FROM TO" in capsys.readouterr().err
    assert cli.main(["plot", "ack", str(trace), "-o", str(tmp_path / "q.gif")]) == 2
    assert "-o must end in .png, .pdf or .svg" in capsys.readouterr().err
    assert cli.main(["plot", "ack", str(tmp_path / "none.tr"), "-o", str(tmp_path / "q.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli.main(["plot", "goodput", str(trace), "-o", str(tmp_path / "g.png"), "--group", "x"]) == 2
    assert "--group must look like NAME=1,2,3" in capsys.readouterr().err
    assert cli.main(["plot", "queue", str(trace), "--link", "5", "6", "-o", str(tmp_path / "q.png")]) == 2
    assert "link (5, 6) has no events" in capsys.readouterr().err


def test_cli_metrics_table(trace, capsys):
    assert cli.main(["metrics", str(trace), "--link", "1", "2", "--bandwidth", "16Kb", "--period", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = out[0].split()
    assert header == ["fid", "thr_mbps", "thr_pkts", "goodput_mbps", "distinct_pkts", "drops", "marks",
                      "locked_seconds", "longest_gap"]        # no delay: the sources' links are not traced
    rows = {r.split()[0]: r.split() for r in out[1:3]}
    # fid 1: 2 packets delivered (both new), 1 mark; fid 2: 1 packet, 1 drop.
    assert rows["1"][2] == "2" and rows["1"][4] == "2" and rows["1"][5:7] == ["0", "1"]
    assert rows["2"][2] == "1" and rows["2"][5:7] == ["1", "0"]
    # Goodputs 2000 and 1000 bytes: (3000)^2 / (2 * (4e6 + 1e6)) = 0.9
    assert "Jain's fairness index of goodput: 0.9000 over 2 flows" in out
    # Queue average over [0, 3.8]: 3.5 / 3.8 = 0.9211 (1000-byte packets);
    # utilisation at 16 kb/s: transmissions @2, @3, @3.5 of 0.5 s each, the
    # last clipped at 3.8: 0.5 + 0.5 + 0.3 = 1.3 / 3.8 = 34.21%.
    # Waits in the queue: uid1 2 - 1, uid2 3 - 1.5, uid3 3.5 - 2.5: mean 1.1667 s.
    assert "queue 1->2: time average 0.9211 packets (921.1 bytes), mean wait 1166.7 ms" in out
    assert "link 1->2: utilisation 34.21%" in out
    assert "loss responses (cwnd_ decreases) per sender:" in out


def test_cli_metrics_csv_and_json(trace, capsys):
    assert cli.main(["metrics", str(trace), "--format", "csv", "--by", "conn"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("src_node,src_port,dst_node,dst_port,thr_mbps")
    assert len(lines) == 3
    assert cli.main(["metrics", str(trace), "--format", "json", "--window", "0", "4", "--granularity", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [f["distinct_pkts"] for f in doc["flows"]] == [2, 1]
    assert doc["jain_goodput"] == pytest.approx(0.9)
    assert doc["teeth"] == [{"src_node": 0, "src_port": 0, "teeth": 1, "coarse_timeouts": 0, "clusters": 1,
                             "shared": 0, "alone": 1}]


def test_cli_metrics_errors(trace, tmp_path, capsys):
    assert cli.main(["metrics", str(tmp_path / "none.tr")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli.main(["metrics", str(trace), "--window", "3", "1"]) == 2
    assert "window (3, 1) is empty" in capsys.readouterr().err
    assert cli.main(["metrics", str(trace), "--link", "1", "2", "--bandwidth", "lots"]) == 2
    assert "bandwidth" in capsys.readouterr().err
    empty = tmp_path / "empty.tr"
    empty.write_text("")
    assert cli.main(["metrics", str(empty)]) == 2
    assert "neither packet events nor cwnd_ records" in capsys.readouterr().err


def test_cli_metrics_json_has_no_nan(tmp_path, capsys):
    """Nothing delivered: Jain's index is undefined, which JSON writes as null."""
    p = tmp_path / "nothing.tr"
    p.write_text("+ 1 0 1 tcp 1000 ------- 1 0.0 2.0 0 1\n")
    assert cli.main(["metrics", str(p), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out and json.loads(out)["jain_goodput"] is None


def test_ack_plot_of_a_bottleneck_trace_uses_ack_records(tmp_path, capsys):
    """A trace of the bottleneck only has packet events but no ACKs arriving
    at a sender; the command, like the function, draws the ack_ records."""
    p = tmp_path / "b.tr"
    p.write_text("+ 1 1 2 tcp 1000 ------- 1 0.0 2.0 1 1\n"
                 "1.00000 0 0 2 0 ack_ 1\n2.00000 0 0 2 0 ack_ 5\n")
    assert dp.ack_source(*db.read_trace_all(p)).columns[0] == "time"     # the vars frame
    out = tmp_path / "a.png"
    assert cli.main(["plot", "ack", str(p), "-o", str(out)]) == 0
    _check_file(out)
    fig = dp.plot_ack_seqno(p)
    assert list(fig.axes[0].lines[0].get_ydata()) == [1, 5]
