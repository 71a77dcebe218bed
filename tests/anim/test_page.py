"""`dumbbell animate` and `dumbbell.animate`: the page's contents, the
window and the hop limit, warnings and errors, determinism, layout."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dumbbell
from dumbbell.anim import NamError, animate, read_nam
from dumbbell.anim.colors import color_or_none
from dumbbell.anim.layout import layout
from dumbbell.anim.namfile import orient_angle

from anim_pagedata import page_parts
from anim_reference import state_at

DUMBBELL = str(Path(sys.executable).with_name("dumbbell"))


def run(*args, cwd=None):
    return subprocess.run([DUMBBELL, *map(str, args)], cwd=cwd, capture_output=True, text=True)


@pytest.fixture
def hints(tmp_path, ns2_fixtures):
    nam = tmp_path / "hints.nam"
    nam.write_bytes(gzip.decompress((ns2_fixtures / "nam_hints_red" / "out.nam.gz").read_bytes()))
    return nam


def test_cli_writes_a_self_contained_page(hints, tmp_path):
    r = run("animate", hints, "-o", tmp_path / "a.html")
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r".*a\.html: 335 packet hops, 0\.\.0\.992427 s, 0\.0 MB, \d+\.\d s\n", r.stdout)
    text, meta, raw = page_parts(tmp_path / "a.html")
    # nothing is fetched: no URL, no src/href attribute, no fetch/XHR/import in the page's code
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I)
    assert not re.search(r"<[a-z]+[^>]*\s(src|href|action|srcset)\s*=", text, re.I)
    assert not re.search(r"\.(src|href)\s*=|url\(", text)
    assert not re.search(r"\bfetch\(|XMLHttpRequest|import\(|WebSocket|EventSource|sendBeacon", text)
    # and the page's CSP forbids it anyway: nothing but its own inline script and style
    csp = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    assert csp == ["default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"]
    assert meta["n_hops"] == 335
    assert len(raw) == 335 * sum(c["width"] for c in meta["columns"]) + 12 * sum(c.get("n_exc", 0) for c in meta["columns"])
    # the default output name: NAMFILE with .html
    r = run("animate", hints, "-q")
    assert r.returncode == 0 and r.stdout == "" and hints.with_suffix(".html").exists()


def test_same_input_same_page(hints, tmp_path):
    animate(hints, tmp_path / "a.html", warn=lambda _: None)
    animate(hints, tmp_path / "b.html", warn=lambda _: None)
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()


def test_python_entry_point(hints, tmp_path):
    res = dumbbell.animate(hints, tmp_path / "p.html", warn=lambda _: None)
    assert res["hops"] == 335 and res["t1"] == 0.992426666666666 and res["truncated_at"] is None
    assert res["page_bytes"] == (tmp_path / "p.html").stat().st_size


def test_gzipped_input(ns2_fixtures, tmp_path):
    res = animate(ns2_fixtures / "nam_hints_red" / "out.nam.gz", tmp_path / "g.html", warn=lambda _: None)
    assert res["hops"] == 335


def test_window_keeps_what_overlaps_it(hints, tmp_path):
    res = animate(hints, tmp_path / "w.html", start=0.5, end=0.6, warn=lambda _: None)
    _, meta, _ = page_parts(tmp_path / "w.html")
    assert (meta["t0"], meta["t1"]) == (0.5, 0.6)
    tr = read_nam(str(hints), start=0.5, end=0.6)
    full = read_nam(str(hints))
    # the hops alive somewhere in [0.5, 0.6]: started by 0.6, not finished before 0.5
    want = 0
    for i in range(full.n_hops):
        st = [x for x in (full.hops["t_in"][i], full.hops["t_out"][i], full.hops["t_end"][i]) if x == x][0]
        if st <= 0.6 and full.hops["t_end"][i] >= 0.5:
            want += 1
    assert 0 < tr.n_hops == want == res["hops"] < full.n_hops
    # the state at 0.5 and 0.55 is complete (what was queued before the window is there)
    for t in (0.5, 0.55):
        ref = state_at(hints, t)
        queued = sum(1 for i in range(tr.n_hops) if tr.hops["t_in"][i] <= t < tr.hops["t_out"][i])
        assert queued == sum(len(v[0]) for v in ref.values()) > 0
    # changes before the window are kept (node 2's colour at 0.3)
    assert any(c[1] == "ncolor" and c[0] == 0.3 for c in meta["changes"])


def test_hop_limit_stops_with_a_clear_message(hints, tmp_path):
    r = run("animate", hints, "-o", tmp_path / "l.html", "--max-hops", "100")
    assert r.returncode == 0
    assert re.search(r"warning: .*hints\.nam: stopped at t=0\.\d+ s after 100 packet hops \(the limit, --max-hops\); "
                     r"the page ends there: choose a window with --start/--end, or raise --max-hops", r.stderr)
    _, meta, _ = page_parts(tmp_path / "l.html")
    assert meta["n_hops"] == 100 and meta["t1"] == meta["truncated_at"] < 0.99


UNKNOWN = """\
V -t * -v 1.0a5 -a 0
n -t * -a 0 -s 0 -S UP -v circle -c black -i black
n -t * -a 1 -s 1 -S UP -v pentagon -c black -i black
l -t * -s 0 -d 1 -S UP -r 1000000 -D 0.01 -c nosuchcolour -o sideways
Z -t 0.1 -s 0
Z -t 0.2 -s 0
v -t 0.3 some_tcl_command 1 2
+ -t 0.5 -s 0 -d 1 -p cbr -e 100 -c 1 -i 0 -a 1 -x {0.0 1.0 0 ------- null}
"""


def test_unknown_records_warn_once_with_file_and_line(tmp_path):
    f = tmp_path / "u.nam"
    f.write_text(UNKNOWN)
    r = run("animate", f, "-o", tmp_path / "u.html")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert f"dumbbell animate: warning: {f}:5: nam record 'Z' is not supported (line ignored)" in lines
    assert not any(":6:" in x for x in lines)  # once
    assert any(f"{f}:3: node shape 'pentagon'" in x for x in lines)
    assert any(f"{f}:4: unknown colour 'nosuchcolour'" in x for x in lines)
    assert any(f"{f}:4: unknown link orientation 'sideways'" in x for x in lines)
    assert any(f"{f}:7: nam command 'some_tcl_command'" in x for x in lines)
    assert "Traceback" not in r.stderr
    _, meta, _ = page_parts(tmp_path / "u.html")
    assert len(meta["warnings"]) == 5


LINK01 = "n -t * -a 0 -s 0\nn -t * -a 1 -s 1\nl -t * -s 0 -d 1 -S UP -r 1000000 -D 0.01\n"


@pytest.mark.parametrize("text, message", [
    ("", "no nodes: not a nam trace"),
    ("hello world\n", ":1: not a nam record (expected a letter, then -t TIME and flags"),
    ("+ 0.1 0 2 tcp 1000 ------- 0 0.0 2.0 0 0\n", ":1: expected a flag like -t, got '0.1'"),  # a packet trace
    ("n -t * -a 0 -s x -S UP\n", ":1: -s expects an integer, got 'x'"),
    ("n -t * -a 0 -s 0\nl -t * -s 0 -d 7 -S UP -r 1 -D 0.1\n", ":2: node 7 is not declared"),
    ("n -t * -a 0 -s 0\n+ -t abc -s 0 -d 0 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 1.0 0 ------- null}\n",
     ":2: -t expects a time in seconds or '*', got 'abc'"),
    ("n -t * -a 0 -s 0 -l \"open\n", ":1: unterminated quoted string"),
    ("n -t * -a 0 -s 0\nl -t 0.5 -s 0 -d 1 -S COLOR -c red\n", ":2: link 0-1 is not declared"),
    (LINK01 + "+ -t 1 -s 0 -d 1 -p tcp -e -40 -c 1 -i 0 -a 1 -x {0.0 1.0 0 ------- null}\n",
     ":4: a number out of range"),
    (LINK01 + "+ -t 1 -s 0 -d 1 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 1.0 99999999999 ------- null}\n",
     ":4: a number out of range"),
    ("n -t * -a 0 -s 0\n+ -t nan -s 0 -d 0 -p tcp -e 40 -c 1 -i 0 -a 1 -x {0.0 1.0 0 ------- null}\n",
     ":2: -t expects a finite time"),
])
def test_bad_input_is_file_line_message(tmp_path, text, message):
    f = tmp_path / "bad.nam"
    f.write_text(text)
    r = run("animate", f, "-o", tmp_path / "bad.html")
    assert r.returncode == 1
    assert r.stderr.startswith(f"dumbbell animate: {f}") and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "bad.html").exists()


def test_bad_arguments(hints, tmp_path):
    r = run("animate", tmp_path / "missing.nam")
    assert r.returncode == 1 and "missing.nam: cannot read: No such file or directory" in r.stderr
    r = run("animate", hints, "--start", "nan")
    assert r.returncode == 2 and "--start: expects a number of seconds, got 'nan'" in r.stderr
    r = run("animate", hints, "--max-hops", "-3")
    assert r.returncode == 2 and "--max-hops: expects a number of hops" in r.stderr
    r = run("animate", hints, "--start", "2", "--end", "1")
    assert r.returncode == 1 and "the window ends (1.0) before it starts (2.0)" in r.stderr
    r = run("animate", hints, "-o", tmp_path / "no" / "dir.html")
    assert r.returncode == 1 and "cannot write" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(ValueError, match="max_hops must be a positive integer"):
        animate(hints, tmp_path / "x.html", max_hops=0)
    with pytest.raises(NamError):
        animate(tmp_path / "missing.nam", tmp_path / "x.html")
    r = run("animate", "--help")
    assert r.returncode == 0 and "--max-hops N" in r.stdout and "docs/animate.md" in r.stdout


def test_orientations_and_colours():
    assert [orient_angle(x) for x in ("right", "up", "left-down", "right-down", "60deg", "0.25", "x")] == \
        [0.0, 0.5, 1.25, 1.75, 60 / 180, 0.25, None]
    assert color_or_none("Blue") == "blue" and color_or_none("navy blue") == "#000080"
    assert color_or_none("green") == "#00ff00" and color_or_none("gray50") == "#808080"
    assert color_or_none("red3") == "#cd0000" and color_or_none("#ABC") == "#abc"
    assert color_or_none("no such") is None


def test_layout_follows_orient_and_coordinates():
    # every link oriented: nam's placement, exactly (unit lengths here)
    pos = layout([0, 1, 2], {}, [(0, 1, 1.0, 0.0), (1, 2, 2.0, 0.5)])
    assert pos[1] == pytest.approx((pos[0][0] + 1, pos[0][1]))
    assert pos[2] == pytest.approx((pos[1][0], pos[1][1] + 2))
    # coordinates given for all: kept
    assert layout([0, 1], {0: (3.0, 4.0), 1: (5.0, 6.0)}, [(0, 1, 1.0, None)]) == {0: (3.0, 4.0), 1: (5.0, 6.0)}
    # nothing oriented: a dumbbell's two sides end up apart, the same way every time
    links = [(0, 2, 1.0, None), (1, 2, 1.0, None), (2, 3, 2.0, None), (3, 4, 1.0, None), (3, 5, 1.0, None)]
    a = layout(list(range(6)), {}, links)
    assert a == layout(list(range(6)), {}, links)
    import math
    d = lambda u, v: math.dist(a[u], a[v])  # noqa: E731
    assert d(2, 3) == pytest.approx(2.0, rel=0.15) and d(0, 2) == pytest.approx(1.0, rel=0.15)
    assert d(0, 4) > d(0, 2) + d(2, 3) * 0.8


def test_nodes_links_and_queues_in_the_page(hints, tmp_path):
    animate(hints, tmp_path / "h.html", warn=lambda _: None)
    _, meta, _ = page_parts(tmp_path / "h.html")
    nodes = {n["id"]: n for n in meta["nodes"]}
    assert nodes[0]["shape"] == "box" and nodes[4]["shape"] == "hexagon" and nodes[4]["color"] == "blue"
    assert nodes[1]["color"] == "red"
    links = {(l["a"], l["b"]): l for l in meta["links"]}
    assert links[(3, 4)]["color"] == "#00ff00" and links[(2, 3)]["rate"] == 1e6 and links[(2, 3)]["delay"] == 0.02
    queues = {(e["s"], e["d"]): e["queue"] for e in meta["edges"]}
    assert queues[(2, 3)] == 0.5 and queues[(5, 3)] == 0.25 and queues[(0, 2)] is None
    # labels given before the run (written before the topology) and during it
    assert ["llabel", 3, 4, "access"] in [c[1:] for c in meta["changes"]]
    assert [0.35, "nlabel", 2, "congested"] in meta["changes"]
    assert [0.55, "annotate", "bottleneck busy"] in meta["changes"]
    assert [0.65, "rate", 0.002] in meta["changes"]


def test_many_nodes_are_laid_out_in_layers_quickly():
    import time

    n = 2000
    links = [(i, (i - 1) // 3, 1.0, None) for i in range(1, n)]
    t = time.perf_counter()
    pos = layout(list(range(n)), {}, links)
    assert time.perf_counter() - t < 5
    assert pos == layout(list(range(n)), {}, links)
    assert len(set(pos.values())) == n  # no two nodes on the same spot
    assert pos[1][0] == pos[0][0] + 1 and pos[4][0] == pos[0][0] + 2  # breadth-first layers


def test_text_from_the_trace_cannot_break_the_page(tmp_path):
    f = tmp_path / "x.nam"
    f.write_text('n -t * -a 0 -s 0 -S UP -v circle -c black -i black\n'
                 'v -t 0.1 -e sim_annotation 0.1 1 </script><script>document.title="owned"</script><!--\n'
                 'n -t 0.2 -s 0 -S DLABEL -l "<b>x</b>" -L ""\n')
    animate(f, tmp_path / "x.html", warn=lambda _: None)
    text, meta, _ = page_parts(tmp_path / "x.html")
    assert text.count("</script>") == 4 and "<!--" not in text  # the page's own four scripts only
    assert [0.1, "annotate", '</script><script>document.title="owned"</script><!--'] in meta["changes"]
    assert [0.2, "nlabel", 0, "<b>x</b>"] in meta["changes"]


def test_a_late_window_keeps_only_what_overlaps_it(hints, tmp_path):
    from dumbbell.anim.namfile import _Reader

    seen = []
    real = _Reader._enter_window

    def spy(self):
        seen.append(len(self.pending))
        real(self)

    _Reader._enter_window = spy
    try:
        read_nam(str(hints), start=0.9)
    finally:
        _Reader._enter_window = real
    # at 0.9 s only the hops still open were kept aside (not the ~300 that ended before)
    assert seen and seen[0] < 40
