"""The page's model (model.js), run without a browser in QuickJS, against an
independent replay of the nam trace (reference.py): what is queued, on the
wire, dropped and marked at chosen times, per link."""

from __future__ import annotations

import base64
import gzip
import json
import shutil
from importlib import resources

import pytest

from dumbbell.anim import animate

from anim_pagedata import page_parts
from anim_reference import probe_times, state_at

quickjs = pytest.importorskip("quickjs", reason="the QuickJS engine (requirements-dev.txt) is not installed")

FIXTURES = ["nam_hints_red", "nam_hints_droptail", "nam_dyn_det_static", "nam_traceall_edrop",
            "nam_dyn_exp_session_traced", "nam_agents_reno"]


def js_model(page):
    """A QuickJS context holding the page's model over the page's data."""
    _, meta, raw = page_parts(page)
    ctx = quickjs.Context()
    ctx.eval(resources.files("dumbbell.anim").joinpath("model.js").read_text())
    ctx.eval(f"var META = {json.dumps(meta)};")
    ctx.eval(f"var M = new NamModel.Model(META, NamModel.base64Bytes({json.dumps(base64.b64encode(raw).decode())}));")
    return ctx, meta


def js_summary(ctx, t):
    return json.loads(ctx.eval(f"JSON.stringify(M.summary({t!r}))"))


def compare(ctx, meta, nam, t):
    got = js_summary(ctx, t)
    want = state_at(nam, t)
    seen = set()
    for (s, d, queued, wire, drops, marks), q in zip(got["edges"], got["queues"]):
        ref = want.get((s, d), [[], 0, 0, 0])
        assert (q, wire, drops, marks) == (ref[0], ref[1], ref[2], ref[3]), f"t={t!r} link {s}->{d}"
        assert queued == len(q)
        seen.add((s, d))
    for link, ref in want.items():  # links the reference saw are in the page
        assert link in seen or ref == [[], 0, 0, 0], link
    return got


@pytest.fixture(scope="module")
def pages(tmp_path_factory, ns2_fixtures):
    out = {}
    for name in FIXTURES:
        d = tmp_path_factory.mktemp(name)
        nam = d / "out.nam.gz"
        shutil.copy(ns2_fixtures / name / "out.nam.gz", nam)
        animate(nam, d / "out.html", warn=lambda _: None)
        out[name] = (nam, d / "out.html")
    return out


@pytest.mark.parametrize("name", FIXTURES)
def test_state_matches_replay(pages, name):
    nam, page = pages[name]
    ctx, meta = js_model(page)
    times = probe_times(nam)
    assert len(times) > 20
    busy = 0
    for t in times:
        got = compare(ctx, meta, nam, t)
        busy += got["totals"]["wire"] > 0
    assert busy > len(times) // 3  # the probes do see packets moving


def test_seek_back_and_forth_is_stateless(pages):
    nam, page = pages["nam_hints_red"]
    ctx, _ = js_model(page)
    times = probe_times(nam, 10)
    forward = [js_summary(ctx, t) for t in times]
    backward = [js_summary(ctx, t) for t in reversed(times)][::-1]
    assert forward == backward
    assert len({json.dumps(s["totals"]) for s in forward}) > 3


def test_drops_and_hints_at_chosen_times(pages):
    # nam_hints_red: RED drops at the 2->3 bottleneck; node 2 turns orange at 0.3, labels at 0.35/0.4,
    # a mark on node 3 from 0.45 to 0.6, link 2-3 red at 0.5, annotations at 0.55 and 0.9
    nam, page = pages["nam_hints_red"]
    ctx, meta = js_model(page)
    assert meta["colors"] == {"1": "blue", "2": "red", "3": "#00ff00"}  # Tk's green is X11's
    s = js_summary(ctx, 0.43)
    edge = {(e[0], e[1]): e for e in s["edges"]}
    assert edge[(2, 3)][4] == 2  # the first two drops, at 0.4229 and 0.4271
    assert s["totals"]["drops"] == 2
    assert js_summary(ctx, 0.422906666666667)["totals"]["drops"] == 1
    assert js_summary(ctx, 0.4229066666666)["totals"]["drops"] == 0
    scene = json.loads(ctx.eval("JSON.stringify(M.sceneAt(0.5))"))
    assert scene["nodes"]["2"]["color"] == "orange" and scene["nodes"]["2"]["label"] == "still congested"
    assert [m["name"] for m in scene["nodes"]["3"]["marks"]] == ["m1"]
    link23 = [k for k, l in enumerate(meta["links"]) if {l["a"], l["b"]} == {2, 3}][0]
    assert scene["links"][str(link23)]["color"] == "red"
    assert json.loads(ctx.eval("JSON.stringify(M.sceneAt(0.49))"))["links"][str(link23)]["color"] == "black"
    later = json.loads(ctx.eval("JSON.stringify(M.sceneAt(0.95))"))
    assert later["nodes"]["3"]["marks"] == [] and later["annotation"]["text"] == "done"
    assert later["nodes"]["5"]["labelAt"] == "down" and later["nodes"]["5"]["labelColor"] == "blue"


def test_link_down_drops_packets_on_the_wire(pages):
    # nam_dyn_det_static: link 1-2 goes down at 0.8; what it held (queued and in flight) is dropped
    nam, page = pages["nam_dyn_det_static"]
    ctx, meta = js_model(page)
    before, after = js_summary(ctx, 0.7999999), js_summary(ctx, 0.8)
    e12 = [i for i, e in enumerate(before["edges"]) if e[:2] == [1, 2]][0]
    lost = after["edges"][e12][4] - before["edges"][e12][4]
    assert lost > 10 and after["edges"][e12][2] == 0 and after["edges"][e12][3] == 0
    assert before["edges"][e12][3] > 0  # some of them were on the wire
    assert json.loads(ctx.eval("JSON.stringify(M.sceneAt(0.8))"))["links"]
    down = json.loads(ctx.eval("JSON.stringify(M.sceneAt(0.85).links)"))
    k = [i for i, l in enumerate(meta["links"]) if {l["a"], l["b"]} == {1, 2}][0]
    assert down[str(k)]["up"] is False


def test_ecn_marks(ecn_page):
    nam, page = ecn_page
    ctx, meta = js_model(page)
    end = meta["t1"]
    got = compare(ctx, meta, nam, end)
    assert got["totals"]["marks"] > 5
    for t in probe_times(nam, 15):
        compare(ctx, meta, nam, t)
    # marked packets carry CE afterwards: the flag is in the page
    n_ce = ctx.eval("(function(){var c=0;for(var i=0;i<M.n;i++) if (M.flags[i] & NamModel.flags.CE) c++; return c;})()")
    assert n_ce >= got["totals"]["marks"]
