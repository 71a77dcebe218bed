"""The wireless Python API (dumbbell.WirelessSimulation): its scenarios give
the real ns-2's traces (seed 002's wireless section built in Python against
ns-2's fixture of the book's script; mixed TCP/CBR scenarios with 802.11,
radio and mobility settings against ns-2's traces of their `to_tcl()`), its
frames say what the trace says, bad values are refused by name, and
plot_wireless draws positions and routes."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dumbbell as db
from dumbbell.api._wireless import _range_of, radio_threshold

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.insert(0, str(HERE))

import seed002_wireless  # noqa: E402
import wireless_scenarios  # noqa: E402


def first_difference(want: bytes, got: bytes) -> str:
    a, b = want.split(b"\n"), got.split(b"\n")
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}:\n  ns-2:     {x.decode()}\n  dumbbell: {y.decode()}"
    return f"ns-2 {len(a)} lines, dumbbell {len(b)}"


# ---- exactness ---------------------------------------------------------------------


@pytest.mark.parametrize("routing", ["AODV", "DSDV"])
def test_seed002_built_in_python_gives_ns2s_trace_of_the_books_script(routing, tmp_path):
    w = seed002_wireless.scenario(routing)
    res = w.run(until=100, trace_file=tmp_path / "w.tr")
    want = gzip.decompress((ROOT / "tests/wireless/seed" / routing.lower() / "wireless.tr.gz").read_bytes())
    got = (tmp_path / "w.tr").read_bytes()
    assert got == want, first_difference(want, got)
    assert len(res.trace) == want.count(b"\n") - want.count(b"\nM ") - want.startswith(b"M ")


@pytest.mark.parametrize("name", sorted(wireless_scenarios.UNTIL))
def test_mixed_scenario_gives_ns2s_trace(name, tmp_path):
    fix = HERE / "wireless"
    w = wireless_scenarios.mixed(name.split("_")[1].upper())
    until = wireless_scenarios.UNTIL[name]
    # the script ns-2 ran is the scenario's to_tcl()
    assert w.to_tcl(until, trace_file=f"{name}.tr") == (fix / f"{name}.tcl").read_text()
    res = w.run(until=until, trace_file=tmp_path / "w.tr")
    want = gzip.decompress((fix / f"{name}.tr.gz").read_bytes())
    got = (tmp_path / "w.tr").read_bytes()
    assert got == want, first_difference(want, got)
    # the TCP counters ns-2 printed are the result's
    printed = {int(ln.split()[1]): ln.split() for ln in (fix / f"{name}.out").read_text().splitlines()
               if ln.startswith("tcp ")}
    assert set(printed) == set(res.tcp_vars)
    for k, words in printed.items():
        assert res.tcp_vars[k]["nrexmit_"] == float(words[7])
        assert res.flows.filter(res.flows["flow"] == k)["retransmits"][0] == int(words[7])


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (/usr/bin/ns) is not installed")
def test_to_tcl_under_real_ns2_gives_runs_trace(tmp_path):
    w = db.WirelessSimulation(600, 600, routing="AODV", seed=11, range=200, basic_rate="2Mb", data_rate="2Mb")
    n = [w.node(100 + 90 * k, 300 + (40 if k % 2 else -40)) for k in range(5)]
    w.random_waypoint(15, nodes=n[1:4], speed=(2, 10), seed=5)
    w.tcp(n[0], n[4], variant="reno", window=10, start=0.2)
    w.cbr(n[4], n[0], rate="16kb", start=1)
    res = w.run(until=15, trace_file=tmp_path / "api.tr")
    (tmp_path / "exp.tcl").write_text(w.to_tcl(15, trace_file="exp.tr"))
    r = subprocess.run(["ns", "exp.tcl"], cwd=tmp_path, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    want, got = (tmp_path / "exp.tr").read_bytes(), (tmp_path / "api.tr").read_bytes()
    assert got == want, first_difference(want, got)
    assert res.flows["received"].min() > 0


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (/usr/bin/ns) is not installed")
def test_tdma_scenario_under_real_ns2_gives_runs_trace(tmp_path):
    # (ns-2's TDMA MAC: five nodes in a row, AODV, TCP over four hops and
    # CBR back over two, the middle node moving, 800-byte slots)
    w = db.WirelessSimulation(800, 400, routing="AODV", seed=3, mac="tdma", slot_bytes=800, mac_trace=True)
    n = [w.node(80 + 150 * k, 200 + (30 if k % 2 else -30)) for k in range(5)]
    w.random_waypoint(20, nodes=n[2:3], speed=(1, 5), seed=9)
    w.tcp(n[0], n[4], variant="newreno", window=8, packet_size=512, start=3)
    w.cbr(n[3], n[1], rate="8kb", packet_size=256, start=4)
    res = w.run(until=20, trace_file=tmp_path / "api.tr")
    tcl = w.to_tcl(20, trace_file="exp.tr")
    assert "-macType Mac/Tdma" in tcl and "Mac/Tdma set slot_packet_len_ 800" in tcl
    (tmp_path / "exp.tcl").write_text(tcl)
    r = subprocess.run(["ns", "exp.tcl"], cwd=tmp_path, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    want, got = (tmp_path / "exp.tr").read_bytes(), (tmp_path / "api.tr").read_bytes()
    assert got == want, first_difference(want, got)
    assert res.flows["received"].min() > 0


def test_tdma_refuses_80211_parameters():
    with pytest.raises(ValueError, match="rts_threshold set 802.11's MAC, not mac='tdma'"):
        db.WirelessSimulation(100, 100, mac="tdma", rts_threshold=0)
    with pytest.raises(ValueError, match="slot_bytes is the TDMA MAC's"):
        db.WirelessSimulation(100, 100, slot_bytes=600)
    with pytest.raises(ValueError, match="mac must be '802.11' or 'tdma', got 'csma'"):
        db.WirelessSimulation(100, 100, mac="csma")


# ---- frames ------------------------------------------------------------------------


def test_one_hop_cbr_is_all_delivered_without_routing_traffic():
    w = db.WirelessSimulation(500, 500, routing="DumbAgent")
    a, b = w.node(100, 100), w.node(200, 100)
    w.cbr(a, b, rate="64kb", packet_size=512, start=1.0, stop=6.0)
    res = w.run(until=7)
    f = res.flows.row(0, named=True)
    # 64 kb/s of 512-byte packets: one every 64 ms from 1.0 s while before 6.0 s
    assert f["sent"] == 79 and f["received"] == 79 and f["delivery_ratio"] == 1.0
    assert 0 < f["delay_mean"] < 0.01
    assert f["goodput_bps"] == pytest.approx(79 * 512 * 8 / 5.0)
    assert res.routing["routing_packets"].sum() == 0 and res.routing_load == 0
    assert res.route(0, 7) == [0, 1] and res.route(0, 0.5) is None


def test_out_of_range_nothing_arrives_and_a_longer_range_reaches():
    def run(**kw):
        w = db.WirelessSimulation(1000, 500, routing="DumbAgent", **kw)
        a, b = w.node(100, 100), w.node(500, 100)
        w.cbr(a, b, rate="32kb", start=0.5, stop=3)
        return w.run(until=4).flows.row(0, named=True)

    short = run()                   # 400 m: beyond the default 250 m
    assert short["sent"] == 20 and short["received"] == 0 and short["delivery_ratio"] == 0
    long = run(range=450)           # (and carrier sense raised to match)
    assert long["received"] == long["sent"] == 20


def test_range_sets_ns2s_threshold():
    # ns-2's defaults: 3.652e-10 W is its 250 m, 1.559e-11 W its 550 m
    assert radio_threshold(250) == pytest.approx(3.652e-10, rel=1e-3)
    assert radio_threshold(550) == pytest.approx(1.559e-11, rel=1e-3)
    w = db.WirelessSimulation(100, 100, range=300)
    assert _range_of(w) == pytest.approx(300)
    assert "Phy/WirelessPhy set RXThresh_" in (w.node(1, 1) and w.to_tcl(1))
    assert _range_of(db.WirelessSimulation(100, 100)) == pytest.approx(250, rel=1e-3)


def test_aodv_chain_routes_hop_by_hop_and_counts_its_overhead():
    w = db.WirelessSimulation(1000, 300, routing="AODV")
    n = [w.node(50 + 200 * k, 150) for k in range(4)]
    w.cbr(n[0], n[3], rate="32kb", start=1, stop=9)
    res = w.run(until=10)
    assert res.route(0, 10) == [0, 1, 2, 3]
    f = res.flows.row(0, named=True)
    assert f["received"] >= f["sent"] - 2 and f["delay_mean"] > 0
    # requests flooded by every node, a reply back along the chain
    r = res.routing
    assert (r["routing_packets"] > 0).all()
    assert r.filter(r["node"].is_in([1, 2]))["data_forwarded"].to_list() == [f["received"]] * 2
    assert res.routing_load == pytest.approx(r["routing_packets"].sum() / f["received"])
    # the trace frame: every AGT send of the flow at node 0
    t = res.trace
    sent = t.filter((t["layer"] == "AGT") & (t["event"] == "s") & (t["ptype"] == "cbr"))
    assert len(sent) == f["sent"] and set(sent["node"]) == {0} and set(sent["dst"]) == {3}


def test_dsr_follows_the_mover_with_source_routes_and_counts_its_packets(tmp_path):
    w = seed002_wireless.scenario("DSR")
    script = w.to_tcl(100)
    assert "-adhocRouting DSR " in script and "-ifqType CMUPriQueue " in script
    res = w.run(until=100, trace_file=tmp_path / "dsr.tr")
    # the source route grows a hop each time the mover leaves the last
    # relay's range, as AODV's and DSDV's routes do
    assert [res.route(0, t) for t in (10, 35, 60, 85)] == [[0, 5], [0, 1, 5], [0, 1, 2, 5], [0, 1, 2, 3, 5]]
    f = res.flows.row(0, named=True)
    assert f["received"] > 0.9 * f["sent"] > 0
    # res.routing: DSR's own packets (requests, replies, errors) sent or
    # forwarded at the routing layer, counted from the trace's text; the
    # agent's note lines (Sconfig, SFs, ...) are passed over by the parser
    text = (tmp_path / "dsr.tr").read_text().splitlines()
    assert any(line.startswith("Sconfig ") for line in text)
    want = {}
    for line in text:
        w_ = line.split()
        if w_[0] in ("s", "f") and " -Nl RTR " in line and " -It DSR " in line:
            k = int(w_[w_.index("-Ni") + 1])
            want[k] = want.get(k, 0) + 1
    r = res.routing
    assert dict(zip(r["node"], r["routing_packets"])) == {k: want.get(k, 0) for k in range(6)}
    assert r["routing_packets"].sum() > 20 and res.routing_load > 0
    assert len(res.trace) == sum(1 for line in text if line[:1] in "srfd" and line[1:4] == " -t")


def test_positions_follow_setdest_and_the_moves_reach_the_trace():
    w = db.WirelessSimulation(500, 500, routing="DumbAgent")
    a = w.node(100, 100)
    w.node(400, 400)
    a.move(at=1, x=300, y=100, speed=10)
    assert w.position(a, 0.5) == (100, 100)
    assert w.position(a, 6) == pytest.approx((150, 100))
    assert w.position(a, 30) == (300, 100)
    a.move(at=11, x=300, y=300, speed=20)      # 100 m along x by then, re-targeted
    assert w.position(a, 16) == pytest.approx((200 + 100 / 5 ** 0.5, 100 + 200 / 5 ** 0.5))
    res = w.run(until=20)
    m = res.movements
    assert m.filter(m["node"] == 0)["dest_x"].to_list() == [300.0, 300.0]
    assert res.positions(6).row(0) == pytest.approx((0, 150, 100))


def test_random_waypoint_is_seeded_and_stays_inside():
    def moves(seed):
        w = db.WirelessSimulation(400, 300)
        for k in range(3):
            w.node(10 + k, 20)
        made = w.random_waypoint(100, speed=(1, 5), pause=2, seed=seed)
        return made, w.moves

    made, mv = moves(4)
    assert made == len(mv) >= 6 and moves(4) == (made, mv) and moves(5)[1] != mv
    assert all(0 < x < 400 and 0 < y < 300 and 1 <= s <= 5 and t < 100 for t, _, x, y, s in mv)


# ---- bad values ---------------------------------------------------------------------


def _w(**kw):
    return db.WirelessSimulation(500, 500, **kw)


BAD = [
    (lambda: db.WirelessSimulation(500.5, 500), "width (metres) must be a whole number"),
    (lambda: db.WirelessSimulation(0, 500), "width (metres) must be a whole number of 1 or more, got 0"),
    (lambda: _w(routing="TORA"), "routing must be one of AODV, DSDV, DSR, DumbAgent, got 'TORA'"),
    (lambda: _w(routing="DSR", ifq_len=20), "ifq_len 20 has no effect with routing='DSR' (its CMUPriQueue holds 50"),
    (lambda: _w(data_rate="fast"), "data_rate"),
    (lambda: _w(seed=0), "seed must be an integer in 1..2147483647, got 0 (ns-2's seed 0 means 'from the clock'"),
    (lambda: _w(rts_threshold=-1), "rts_threshold must be a whole number of 0 or more, got -1"),
    (lambda: _w(short_retry_limit=0), "short_retry_limit must be a whole number of 1 or more, got 0"),
    (lambda: _w(range=-5), "range must be above 0, got -5"),
    (lambda: _w(range=100, rx_threshold=1e-10), "give range or rx_threshold, not both"),
    (lambda: _w(range=300, carrier_sense_range=200), "make the carrier-sense range at least the radio range"),
    (lambda: _w(ifq_len=0), "ifq_len must be a whole number of 1 or more, got 0"),
    (lambda: _w(mac_trace="yes"), "mac_trace must be True or False, got 'yes'"),
    (lambda: _w().node(600, 10), "node 0: position (600, 10) is outside the topography"),
    (lambda: _w().node("a", 10), "node 0: x must be a number, got 'a'"),
    (lambda: _w().node(1, 1).move(at=1, x=500, y=10, speed=5),
     "setdest(node 0): destination (500, 10) must lie inside the topography"),
    (lambda: _w().node(1, 1).move(at=-1, x=50, y=10, speed=5), "setdest(node 0): at"),
    (lambda: _w().node(1, 1).move(at=1, x=50, y=10, speed=-5), "setdest(node 0): speed must be at least 0"),
    (lambda: _w().setdest("n0", 1, 5, 5, 1), "setdest(): expected a node of this WirelessSimulation"),
    (lambda: _w().cbr(*[_w().node(1, 1)] * 2), "cbr(flow 0): src: expected a node of this WirelessSimulation"),
    (lambda: (lambda w, a: w.cbr(a, a))(*(lambda w: (w, w.node(1, 1)))(_w())),
     "cbr(flow 0): src and dst are the same node (0)"),
    (lambda: (lambda w: w.tcp(w.node(1, 1), w.node(2, 2), variant="cubic"))(_w()),
     "tcp(flow 0): variant must be one of tahoe, reno, newreno, sack, vegas, fack, got 'cubic'"),
    (lambda: (lambda w: w.tcp(w.node(1, 1), w.node(2, 2), window=0))(_w()),
     "tcp(flow 0): window must be a whole number of 1 or more, got 0"),
    (lambda: (lambda w: w.cbr(w.node(1, 1), w.node(2, 2), start=5, stop=2))(_w()),
     "cbr(flow 0): stop (2) must come after start (5)"),
    (lambda: (lambda w: w.random_waypoint(10, speed=(5, 1)))(_w()),
     "random_waypoint(): speed (min, max) has max below min"),
    (lambda: (lambda w: w.random_waypoint(10, speed=(0, 1)))(_w()),
     "random_waypoint(): speed min must be above 0"),
    (lambda: (lambda w: w.random_waypoint(10, nodes=5))(_w()), "random_waypoint(): nodes must be a list"),
    (lambda: _w().to_tcl(10), "no nodes"),
    (lambda: (lambda w: (w.node(1, 1), w.to_tcl(0)))(_w()), "run(): until must be a positive time, got 0"),
    (lambda: (lambda w: (w.node(1, 1), w.to_tcl(5, trace_file="a{b")))(_w()), "trace_file must not contain"),
]


@pytest.mark.parametrize("call,msg", BAD, ids=[f"bad{k}" for k in range(len(BAD))])
def test_bad_values_are_refused_by_name(call, msg):
    with pytest.raises(ValueError) as e:
        call()
    assert msg in str(e.value)


GOOD = ("s -t 0.100000000 -Hs 0 -Hd -2 -Ni 0 -Nx 100.00 -Ny 100.00 -Nz 0.00 -Ne -1.000000 -Nl AGT -Nw --- -Ma 0 "
        "-Md 0 -Ms 0 -Mt 0 -Is 0.0 -Id 1.3 -It cbr -Il 512 -If 2 -Ii 7 -Iv 32 -Pn cbr -Pi 5 -Pf 0 -Po 0 ")


def test_the_trace_reader_reads_fields_and_names_a_bad_line(tmp_path):
    t, m = db.read_wireless_trace(_write(tmp_path, GOOD + "\nM 1.00000 0 (100.00, 100.00, 0.00), (200.00, 50.00), 3.00\n"))
    assert t.row(0, named=True) == {"event": "s", "time": 0.1, "node": 0, "x": 100.0, "y": 100.0, "layer": "AGT",
                                    "reason": "---", "uid": 7, "ptype": "cbr", "size": 512, "src": 0, "sport": 0,
                                    "dst": 1, "dport": 3, "ttl": 32, "flow": 2, "next_hop": -2, "seqno": 5,
                                    "mac_type": "0"}
    assert m.row(0) == (1.0, 0, 100.0, 100.0, 200.0, 50.0, 3.0)
    with pytest.raises(ValueError, match=r"w\.tr:2: cannot read .*a field is missing"):
        db.read_wireless_trace(_write(tmp_path, GOOD + "\n" + GOOD.replace("-Nl AGT ", "")))
    with pytest.raises(ValueError, match=r"w\.tr:3: cannot read .*could not convert string to float: '0\.1x'"):
        db.read_wireless_trace(_write(tmp_path, GOOD + "\n\n" + GOOD.replace("-t 0.100000000", "-t 0.1x")))


def _write(tmp_path, text):
    p = tmp_path / "w.tr"
    p.write_text(text)
    return p


def test_the_old_format_reads_as_the_new_one():
    """Seed 002's script in both formats (ns-2's traces): the same frame,
    but for what the old format lacks (positions, flow ids) and its next
    hop, printed 0 where the new format prints -2 (none set)."""
    from dumbbell.analysis.wtrace import parse_wireless_trace

    seed = ROOT / "tests" / "wireless" / "seed"
    new, new_m = parse_wireless_trace(gzip.decompress((seed / "aodv" / "wireless.tr.gz").read_bytes()).decode())
    old, old_m = parse_wireless_trace(gzip.decompress((seed / "oldtrace" / "wireless.tr.gz").read_bytes()).decode())
    same = [c for c in new.columns if c not in ("x", "y", "flow", "next_hop")]
    assert len(new) == 32_702 and new.select(same).equals(old.select(same)) and new_m.equals(old_m)
    assert old["x"].null_count() == len(old) and old["flow"].null_count() == len(old)
    hop = new["next_hop"].to_list()
    assert old["next_hop"].to_list() == [0 if h == -2 else h for h in hop] and -2 in hop
    assert set(old["event"]) == {"s", "r", "f", "d"} and old["seqno"].max() > 4000


def test_a_line_of_neither_format_is_refused_with_its_line(tmp_path):
    p = tmp_path / "odd.tr"
    p.write_text("s 0.1 _0_ AGT  --- 0 cbr 512 [0 0 0 0] ------- [0:0 1:0 32 0] [0] 0 0\nhello world\n")
    with pytest.raises(ValueError, match=r"odd\.tr:2: cannot read this line of a wireless trace \(not a packet line "
                                         r"of the old wireless format\): 'hello world'"):
        db.read_wireless_trace(p)
    p.write_text(GOOD + "\nhello\n")
    with pytest.raises(ValueError, match=r"odd\.tr:2: .*not a packet line of use-newtrace's format"):
        db.read_wireless_trace(p)


def test_read_wireless_trace_passes_over_dsrs_note_lines(tmp_path):
    # (a DSR trace starts with the agent's Sconfig lines; either format)
    notes = "Sconfig 0.00000 tap: on snoop: rts? on errs? on\nSFs 1.384000000 _0_ 7 [0 -> 5] 1(0) to 3 \n"
    old = ("s 1.007216194 _0_ RTR  --- 1 DSR 32 [0 0 0 0] ------- [0:255 4:255 32 0] 1 [1 1] [0 1 0 0->0] "
           "[0 0 0 0->0]\n")
    new = ("s -t 1.007216194 -Hs 0 -Hd -1 -Ni 0 -Nx 50.00 -Ny 200.00 -Nz 0.00 -Ne -1.000000 -Nl RTR -Nw --- -Ma 0 "
           "-Md 0 -Ms 0 -Mt 0 -Is 0.255 -Id 4.255 -It DSR -Il 32 -If 0 -Ii 1 -Iv 32 -P dsr -Ph 1 -Pq 1 -Ps 1 -Pp 0 "
           "-Pn 1 -Pl 0 -Pe 0->0 -Pw 0 -Pm 0 -Pc 0 -Pb 0->0\n")
    for k, line in enumerate((old, new)):
        p = tmp_path / f"dsr{k}.tr"
        p.write_text(notes + line + notes)
        t, _ = db.read_wireless_trace(p)
        assert t["ptype"].to_list() == ["DSR"] and t["uid"].to_list() == [1] and t["layer"].to_list() == ["RTR"]
        assert t["x"].to_list() == [None if k == 0 else 50.0]


# ---- the plot ---------------------------------------------------------------------------


def test_plot_wireless_draws_positions_ranges_and_routes(tmp_path):
    res = seed002_wireless.scenario("AODV").run(until=100)
    at = [10, 35, 60, 85]
    fig = db.plot.plot_wireless(res, tmp_path / "w.png", at=at, title="seed 002")
    png = (tmp_path / "w.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    axes = [a for a in fig.axes if a.get_visible()]
    assert [a.get_title() for a in axes] == [f"t = {t} s" for t in at]
    for ax, t in zip(axes, at):
        route = res.route(0, t)
        arrows = [c for c in ax.texts if getattr(c, "arrow_patch", None) is not None]
        assert len(arrows) == len(route) - 1          # one arrow per hop
        circles = [p for p in ax.patches if type(p).__name__ == "Circle"]
        assert len(circles) == 6 and circles[0].get_radius() == pytest.approx(250, rel=1e-3)
    # the route grows as the mover leaves the row behind
    assert [len(res.route(0, t)) for t in at] == [2, 3, 4, 5]
    fig2 = res.plot(tmp_path / "w.svg", at=50, show_range=False, tracks=False)
    assert (tmp_path / "w.svg").read_text().startswith("<?xml")
    assert not [p for p in fig2.axes[0].patches if type(p).__name__ == "Circle"]


def test_plot_wireless_refuses_bad_arguments(tmp_path):
    res = seed002_wireless.scenario("AODV").run(until=5)
    with pytest.raises(ValueError, match=r"at must be times within the run \(0 to 5 s\), got 9"):
        db.plot.plot_wireless(res, at=[1, 9])
    with pytest.raises(ValueError, match=r"path must end in \.png, \.pdf or \.svg"):
        db.plot.plot_wireless(res, tmp_path / "w.jpg")
    with pytest.raises(ValueError, match="expected the WirelessResult"):
        db.plot.plot_wireless(res.trace)
    with pytest.raises(ValueError, match=r"route\(\): flow must be a flow of this simulation or its id \(0 to 0\), got 3"):
        res.route(3, 1.0)
    with pytest.raises(ValueError, match=r"positions\(\): at must be a time in seconds, got '1s'"):
        res.positions("1s")


def test_the_example_prints_the_growing_route_and_draws_it(tmp_path, capsys):
    assert seed002_wireless.main(["--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "t =  10 s: route 0 -> 5" in out and "t =  90 s: route 0 -> 1 -> 2 -> 3 -> 5" in out
    assert "AODV: 4883 packets sent, 4565 delivered (93.5%)" in out
    assert (tmp_path / "wireless-aodv.png").stat().st_size > 20_000
    assert (tmp_path / "wireless-aodv.tr").stat().st_size == 6730968   # ns-2's trace of the book's script


def test_run_keeps_the_nam_file(tmp_path):
    w = db.WirelessSimulation(300, 200, routing="DumbAgent")
    a, b = w.node(10, 10), w.node(110, 10)
    w.cbr(a, b, start=0.5, stop=1)
    w.run(until=1, nam_file=tmp_path / "w.nam")
    nam = (tmp_path / "w.nam").read_text().splitlines()
    assert nam[:2] == ["V -t * -v 1.0a5 -a 0", "W -t * -x 300 -y 200"]
    assert any(line.startswith("+ -t 0.5") for line in nam)


def test_a_run_past_its_timeout_is_stopped_with_a_clear_error():
    w = db.WirelessSimulation(1000, 1000, routing="AODV")
    n = [w.node(100 + 150 * k, 500) for k in range(6)]
    for k in range(5):
        w.cbr(n[k], n[5 - k], rate="400kb", start=0.1)
    with pytest.raises(db.api.SimulationError, match=r"ran longer than timeout=0\.05 s and was stopped"):
        w.run(until=500, timeout=0.05)
    with pytest.raises(ValueError, match=r"run\(\): timeout must be above 0, got -1"):
        w.run(until=5, timeout=-1)


def test_a_route_not_in_use_is_not_drawn():
    # DSDV in seed 002's scenario delivers nothing from about 25 s until
    # its routes through the row form (as in ns-2's trace)
    res = seed002_wireless.scenario("DSDV").run(until=100)
    assert res.route(0, 60) == [0, 5] and res.route(0, 60, within=2) is None
    assert res.route(0, 100, within=2) == [0, 1, 2, 3, 5]
    fig = db.plot.plot_wireless(res, at=[10, 60, 100])
    arrows = [len([c for c in ax.texts if getattr(c, "arrow_patch", None) is not None]) for ax in fig.axes[:3]]
    assert arrows == [1, 0, 4]
    with pytest.raises(ValueError, match=r"route\(\): within must be a time above 0 s, got 0"):
        res.route(0, 60, within=0)
