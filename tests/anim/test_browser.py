"""The page in a real browser (headless Chromium, driven over the DevTools
protocol, anim_cdp.py): it loads with the network off and fetches nothing,
seeks, plays, and draws what the nam trace says is where."""

from __future__ import annotations

import json
import shutil

import pytest

from dumbbell.anim import animate

from anim_cdp import Browser, find_chromium
from anim_reference import probe_times, state_at

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian: apt-get install chromium); "
                                "the page's logic is still tested by test_model_js.py")


@pytest.fixture(scope="module")
def browser():
    b = Browser(CHROMIUM)
    b.call("Network.enable")
    b.call("Network.emulateNetworkConditions", offline=True, latency=0, downloadThroughput=-1, uploadThroughput=-1)
    b.call("Page.enable")
    b.call("Runtime.enable")
    # what the page's Content-Security-Policy blocked (a fetch it tried) is recorded too
    b.call("Page.addScriptToEvaluateOnNewDocument", source="window.__blocked = []; document.addEventListener("
           "'securitypolicyviolation', function (e) { window.__blocked.push(e.blockedURI + ' ' + e.violatedDirective); });")
    yield b
    b.close()


def open_page(browser, path, hash_=""):
    browser.call("Page.navigate", url="about:blank")
    browser.wait_for("document.readyState === 'complete' && location.href === 'about:blank'")
    browser.events.clear()
    browser.call("Page.navigate", url=path.as_uri() + hash_)
    browser.wait_for("window.namAnim && (namAnim.ready || namAnim.error)")
    assert browser.evaluate("namAnim.error") is None
    return [e["params"]["request"]["url"] for e in browser.events if e["method"] == "Network.requestWillBeSent"]


@pytest.fixture(scope="module")
def hints(tmp_path_factory, ns2_fixtures):
    d = tmp_path_factory.mktemp("hints")
    shutil.copy(ns2_fixtures / "nam_hints_red" / "out.nam.gz", d / "out.nam.gz")
    animate(d / "out.nam.gz", d / "hints.html", warn=lambda _: None)
    return d / "out.nam.gz", d / "hints.html"


# Pixels of the canvas where the last frame drew each packet, and the packet's colour as the canvas sees it.
PIXELS = """(function () {
  var c = document.getElementById('view'), g = c.getContext('2d'), dpr = window.devicePixelRatio || 1;
  var probe = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  function rgb(css) { probe.clearRect(0, 0, 1, 1); probe.fillStyle = css; probe.fillRect(0, 0, 1, 1);
                      return Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3)); }
  var out = [];
  namAnim.drawn.%s.forEach(function (p) {
    var px = Array.from(g.getImageData(Math.round(p[2] * dpr), Math.round(p[3] * dpr), 1, 1).data.slice(0, 3));
    out.push([px, rgb(p[4])]);
  });
  return out;
})()"""


def test_loads_offline_and_fetches_nothing(browser, hints):
    nam, page = hints
    urls = open_page(browser, page)
    assert urls == [page.as_uri()]
    assert browser.evaluate("window.__blocked") == []
    assert browser.evaluate("namAnim.meta.n_hops") == 335
    assert browser.evaluate("document.getElementById('status').textContent").startswith("t = 0.000000 s")


def test_seek_draws_what_the_trace_says(browser, hints):
    nam, page = hints
    open_page(browser, page)
    checked = 0
    for t in probe_times(nam, 30):
        drawn = browser.evaluate(f"namAnim.seek({t!r})")
        summary = browser.evaluate("namAnim.summary()")
        want = state_at(nam, t)
        for (s, d, queued, wire, drops, marks), q in zip(summary["edges"], summary["queues"]):
            ref = want.get((s, d), [[], 0, 0, 0])
            assert (q, wire, drops, marks) == tuple(ref), f"t={t} {s}->{d}"
        assert len(drawn["packets"]) == summary["totals"]["wire"]
        assert len(drawn["queued"]) == summary["totals"]["queued"]
        # each drawn packet is on its link's line, in its flow's colour on the canvas
        pixels = browser.evaluate(PIXELS % "packets") + browser.evaluate(PIXELS % "queued")
        same = sum(1 for px, want_rgb in pixels if max(abs(a - b) for a, b in zip(px, want_rgb)) <= 40)
        assert same >= 0.9 * len(pixels), (t, pixels)
        checked += len(pixels)
        status = browser.evaluate("document.getElementById('status').textContent")
        assert f"on the wire {summary['totals']['wire']} " in status
    assert checked > 50


def test_hash_seeks_on_load_and_hints_are_drawn(browser, hints):
    nam, page = hints
    open_page(browser, page, "#t=0.45")
    assert browser.evaluate("namAnim.now()") == 0.45
    drawn = browser.evaluate("namAnim.drawn")
    nodes = {n[0]: (n[1], n[2]) for n in drawn["nodes"]}
    # nam's orientation: 2-3 is "right" (same height), 0-2 "right-down" (0 above and left of 2),
    # 3-5 "down" (5 straight below 3)
    assert abs(nodes[2][1] - nodes[3][1]) <= 1 and nodes[3][0] > nodes[2][0]
    assert nodes[0][0] < nodes[2][0] and nodes[0][1] < nodes[2][1]
    assert abs(nodes[5][0] - nodes[3][0]) <= 1 and nodes[5][1] > nodes[3][1]
    # node 2 is orange at 0.45: its outline pixel
    x, y = nodes[2]
    r = browser.evaluate("(function(){var c=document.getElementById('view');"
                         "var g=c.getContext('2d'),d=window.devicePixelRatio||1;"
                         "for (var dx=-40; dx<40; dx++){var p=g.getImageData(Math.round((%d+dx)*d),Math.round(%d*d),1,1).data;"
                         "if (p[0]>200 && p[1]>120 && p[1]<200 && p[2]<60) return true;} return false;})()" % (x, y))
    assert r, "node 2's orange outline"
    assert browser.evaluate("document.getElementById('annotation').hidden") is True
    browser.evaluate("namAnim.seek(0.56)")
    assert browser.evaluate("document.getElementById('annotation').textContent") == "bottleneck busy"


def test_play_advances_and_pause_stops(browser, hints):
    nam, page = hints
    open_page(browser, page, "#t=0.2&speed=0.5")
    browser.evaluate("namAnim.play()")
    browser.wait_for("namAnim.now() > 0.25", timeout=10)
    browser.evaluate("namAnim.pause()")
    t = browser.evaluate("namAnim.now()")
    import time as _time

    _time.sleep(0.3)
    assert browser.evaluate("namAnim.now()") == t
    assert browser.evaluate("Number(document.getElementById('view').dataset.time)") == t


def test_drops_fall_and_marks_show(browser, ecn_page):
    nam, page = ecn_page
    open_page(browser, page)
    first_drop = next(float(l.split()[2]) for l in open(nam) if l.startswith("d "))
    drawn = browser.evaluate(f"namAnim.seek({first_drop + 1e-4!r})")
    assert len(drawn["falling"]) >= 1
    s = browser.evaluate("namAnim.summary()")
    assert s["totals"]["drops"] == sum(v[2] for v in state_at(nam, first_drop + 1e-4).values())
    end = browser.evaluate("namAnim.meta.t1")
    browser.evaluate(f"namAnim.seek({end!r})")
    rows = browser.evaluate("Array.from(document.querySelectorAll('#links tbody tr'))"
                            ".map(function(r){return Array.from(r.cells).map(function(c){return c.textContent;});})")
    by_link = {r[0]: r for r in rows}
    want = state_at(nam, end)[(2, 3)]
    assert by_link["2→3"][3:5] == [str(want[2]), str(want[3])] and want[3] > 5


def test_large_page_loads_and_seeks(browser, tmp_path):
    """basic1 for 100 s (about 40,000 hops): the page opens and seeks in well under a second each."""
    import subprocess
    import sys
    import pathlib

    src = pathlib.Path(__file__).parents[2] / "examples" / "basic1.tcl"
    shutil.copy(src, tmp_path)
    subprocess.run([str(pathlib.Path(sys.executable).with_name("dumbbell")), "run", "basic1.tcl", "100"],
                   cwd=tmp_path, check=True, capture_output=True)
    res = animate(tmp_path / "basic1.nam", tmp_path / "basic1.html", warn=lambda _: None)
    assert res["hops"] > 30000
    open_page(browser, tmp_path / "basic1.html")
    ms = browser.evaluate("(function(){var t=performance.now(); for (var k=0;k<20;k++) namAnim.seek(5*k+0.123);"
                          "return (performance.now()-t)/20;})()")
    assert ms < 250
    for t in (17.5, 63.25, 99.9):
        summary = browser.evaluate(f"(namAnim.seek({t}), namAnim.summary())")
        want = state_at(tmp_path / "basic1.nam", t)
        for (s, d, queued, wire, drops, marks), q in zip(summary["edges"], summary["queues"]):
            assert (q, wire, drops, marks) == tuple(want.get((s, d), [[], 0, 0, 0]))


def test_click_on_a_packet_shows_it(browser, hints):
    nam, page = hints
    open_page(browser, page, "#t=0.45")
    drawn = browser.evaluate("namAnim.drawn")
    uid, edge, x, y, _ = drawn["packets"][0]
    left, top = browser.evaluate("(function(){var r=document.getElementById('view').getBoundingClientRect();"
                                 "return [r.left, r.top];})()")
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", type=kind, x=left + x, y=top + y, button="left", clickCount=1)
    info = browser.wait_for("!document.getElementById('pktinfo').hidden && document.getElementById('pktinfo').textContent")
    s, d = browser.evaluate(f"[namAnim.meta.edges[{edge}].s, namAnim.meta.edges[{edge}].d]")
    assert info.startswith(f"packet {uid} (") and f"link {s}→{d}" in info
    # the times are the trace's: the '+' line of this packet on this link
    plus = next(l for l in open_gz(nam) if l.startswith("+ ") and f" -s {s} -d {d} " in l and f" -i {uid} " in l)
    assert f"queued   {float(plus.split()[2]):.6f} s" in info


def open_gz(path):
    import gzip

    return gzip.open(path, "rt")


def test_text_from_the_trace_is_shown_as_text(browser, tmp_path):
    f = tmp_path / "x.nam"
    f.write_text('n -t * -a 0 -s 0 -S UP -v circle -c black -i black\n'
                 'v -t 0.1 -e sim_annotation 0.1 1 </script><script>document.title="owned"</script><!--\n')
    animate(f, tmp_path / "x.html", warn=lambda _: None)
    open_page(browser, tmp_path / "x.html", "#t=0.1")
    assert browser.evaluate("document.title").startswith("x.nam")
    assert browser.evaluate("document.getElementById('annotation').textContent") == \
        '</script><script>document.title="owned"</script><!--'
