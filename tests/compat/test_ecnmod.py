"""Seed 003's ECN-mod (Misra & Ott 2001) from ns-2 scripts: the sender's
`ecnmod_` window rule (crates/engine/src/tcp/growth/ecnmod.rs), the sink's
`ecnmod_` echo of each mark, and RED's `pmod_` marking function and
`geometric_` drop-biasing (crates/engine/src/qdisc/red.rs).  No simulator
has ECN-mod, so there is no oracle fixture: these tests check the paper's
rules on traces (every marked packet's ACK cuts the window by c2 of it,
losses stay NewReno's), the variables and their bad values, and the
Python API's "ecn-mod" variant against its own ns-2 script."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tclrun import run

ROOT = Path(__file__).resolve().parents[2]


def scenario(sender: str, sink: str, queue: str = "$q set pmod_ true", limit: int = 200, until: int = 30) -> str:
    """One flow through a 2 Mb/s RED bottleneck marking ECN-capable packets."""
    return f"""set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]; set n1 [$ns node]; set s [$ns node]; set d [$ns node]
$ns duplex-link $s $n0 100Mb 5ms DropTail
$ns duplex-link $n0 $n1 2Mb 20ms RED
$ns duplex-link $n1 $d 100Mb 5ms DropTail
$ns queue-limit $n0 $n1 {limit}
set q [[$ns link $n0 $n1] queue]
$q set setbit_ true; $q set thresh_ 5; $q set maxthresh_ 40; $q set linterm_ 2
{queue}
set t [new Agent/TCP/Newreno]
$t set ecn_ 1; $t set window_ 200
{sender}
set k [new Agent/TCPSink]
{sink}
$ns attach-agent $s $t; $ns attach-agent $d $k; $ns connect $t $k
set cf [open cwnd.tr w]
$t attach $cf; $t trace cwnd_
set f [$t attach-app FTP]; $ns at 0 "$f start"
proc fin {{}} {{ global t tf cf
  puts "necn [$t set necnresponses_] rexmit [$t set nrexmit_] ack [$t set ack_]"
  flush $tf; close $cf; exit 0 }}
$ns at {until} "fin"
$ns run
"""


def counters(r) -> dict[str, float]:
    assert r.returncode == 0, r.stderr
    w = r.stdout.split()
    return {w[i]: float(w[i + 1]) for i in range(0, len(w), 2)}


def trace(tmp_path: Path) -> list[list[str]]:
    return [line.split() for line in (tmp_path / "out.tr").read_text().splitlines()]


def echoes_received(tr) -> int:
    """ACKs with ECN-Echo (flag C) arriving at the sender (node 2)."""
    return sum(1 for w in tr if w[0] == "r" and w[4] == "ack" and w[3] == "2" and w[6][0] == "C")


def marks_received(tr) -> int:
    """Data packets with CE (flag E) arriving at the receiver (node 3)."""
    return sum(1 for w in tr if w[0] == "r" and w[4] == "tcp" and w[3] == "3" and w[6][4] == "E")


def test_every_marked_ack_cuts_the_window_by_c2(tmp_path):
    c = counters(run(tmp_path, scenario("$t set ecnmod_ true", "$k set ecnmod_ true")))
    tr = trace(tmp_path)
    assert not any(w[0] == "d" for w in tr), "marks only: nothing dropped"
    assert c["rexmit"] == 0
    marks = marks_received(tr)
    assert marks > 50
    # Each CE mark is echoed once; the first ACK's echo is ns-2's ECN
    # negotiation (the sender's first packet asks for it), which every ECN
    # sender answers.
    assert echoes_received(tr) == marks + 1
    assert c["necn"] == marks + 1, "a response to every echo, not one per window"
    # cwnd_ trace: every decrease is a cut to 7/8 (c2 = 1/8, beta = 1); every
    # increase in congestion avoidance is c1 = 1/16 (alpha = 0).
    cw = [float(line.split()[6]) for line in (tmp_path / "cwnd.tr").read_text().splitlines()]
    cuts = ups = 0
    for a, b in zip(cw, cw[1:]):
        if b < a:
            cuts += 1
            assert b == pytest.approx(max(a * 7 / 8, 1.0), abs=2e-3), (a, b)
        elif b > a and b - a != 1.0:  # (slow start, after the first ACK or a timeout, adds 1)
            ups += 1
            assert b - a == pytest.approx(1 / 16, abs=2e-3), (a, b)
    assert cuts >= marks - 1 and ups > 1000


def test_parameters_set_the_cut_and_the_increase(tmp_path):
    counters(run(tmp_path, scenario(
        "$t set ecnmod_ true; $t set ecnmod_c1_ 0.25; $t set ecnmod_c2_ 0.5", "$k set ecnmod_ true")))
    cw = [float(line.split()[6]) for line in (tmp_path / "cwnd.tr").read_text().splitlines()]
    # congestion avoidance adds c1; slow start (after the first ACK, or
    # after a timeout these halvings can cause) adds 1
    steps = {round(b - a, 2) for a, b in zip(cw, cw[1:]) if b > a}
    assert steps - {1.0} == {0.25}
    # every cut halves (a mark with c2 = 1/2, or NewReno's fast retransmit),
    # or is a timeout's to one packet
    assert all(b == pytest.approx(max(a / 2, 1.0), abs=2e-3) or b == 1.0 for a, b in zip(cw, cw[1:]) if b < a)


def test_newreno_responds_once_per_window(tmp_path):
    """The same path with plain ECN NewReno: far fewer responses than marks
    (RFC 3168: once per window), each a halving."""
    c = counters(run(tmp_path, scenario("", "", queue="")))
    tr = trace(tmp_path)
    marks = marks_received(tr)
    assert marks > 5 and c["necn"] < marks


def test_ecnmod_keeps_its_window_where_newreno_halves(tmp_path):
    """The paper's point (Fig. 2-4): at the same bottleneck, ECN-mod's gentle
    per-mark cut keeps the queue from draining, so it delivers at least as
    much as ECN NewReno, with no losses either way here."""
    mod = counters(run(tmp_path, scenario("$t set ecnmod_ true", "$k set ecnmod_ true")))
    reno = counters(run(tmp_path, scenario("", "", queue="")))
    assert mod["ack"] >= reno["ack"] * 0.99, (mod, reno)


def test_losses_stay_newreno(tmp_path):
    """A queue too short for its marks to hold the window: drops are
    recovered by NewReno's fast retransmit, not by per-mark cuts."""
    c = counters(run(tmp_path, scenario("$t set ecnmod_ true; $t set ecnmod_c1_ 1",
                                        "$k set ecnmod_ true", queue="$q set pmod_ true", limit=8)))
    tr = trace(tmp_path)
    assert any(w[0] == "d" for w in tr)
    assert c["rexmit"] > 0


def test_variables_defaults_and_bad_values(tmp_path):
    r = run(tmp_path, """set ns [new Simulator]
set t [new Agent/TCP/Newreno]
foreach v {ecnmod_ ecnmod_c1_ ecnmod_c2_ ecnmod_alpha_ ecnmod_beta_ windowOption_} { puts "$v [$t set $v]" }
set k [new Agent/TCPSink]
puts "sink [$k set ecnmod_]"
set q [new Queue/RED]
foreach v {pmod_ pmod_c1_ pmod_c2_ geometric_ pmod_2p_} { puts "$v [$q set $v]" }
$t set ecnmod_ true
$t set windowOption_ 8
puts "option [$t set windowOption_]"
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:12] == [
        "ecnmod_ 0", "ecnmod_c1_ 0.0625", "ecnmod_c2_ 0.125", "ecnmod_alpha_ 0", "ecnmod_beta_ 1", "windowOption_ 1",
        "sink 0", "pmod_ 0", "pmod_c1_ 0.0625", "pmod_c2_ 0.125", "geometric_ 0", "pmod_2p_ 0"]
    assert "option 8" in r.stdout, "windowOption_ reads back as set while ECN-mod is on"


@pytest.mark.parametrize("line,msg", [
    ("$t set ecnmod_c2_ 1.5", "ecnmod_c2_ must be a number above 0 and below 1"),
    ("$t set ecnmod_c2_ 0", "ecnmod_c2_ must be a number above 0 and below 1"),
    ("$t set ecnmod_c1_ -1", "ecnmod_c1_ must be a number above 0"),
    ("$t set ecnmod_alpha_ nan", "ecnmod_alpha_ must be a finite number"),
    ("$q set pmod_c1_ 0", "pmod_c1_ must be a number above 0"),
])
def test_bad_values_name_the_line(tmp_path, line, msg):
    r = run(tmp_path, f"set ns [new Simulator]\nset t [new Agent/TCP/Newreno]\nset q [new Queue/RED]\n{line}\n")
    assert r.returncode == 1
    assert "s.tcl:4" in r.stderr and msg in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_api_variant_is_its_ns2_script(tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "api"))
    from test_builder_exact import _dumbbell, same_as_ns2_layer

    sim, S, D, _ = _dumbbell(3, queue="RED", limit=60,
                             queue_params={"thresh": 5, "maxthresh": 30, "setbit": True, "pmod": True, "geometric": True})
    sim.tcp(S[0], D[0], variant="ecn-mod", window=80, trace_vars="cwnd")
    sim.tcp(S[1], D[1], variant="ecn-mod", window=80, ecnmod_c1=0.125, start=0.2)
    sim.tcp(S[2], D[2], variant="newreno", window=80, ecn=True, start=0.4)
    res = same_as_ns2_layer(sim, 8, tmp_path)
    flows = res.flows
    assert flows["variant"].to_list() == ["ecn-mod", "ecn-mod", "newreno"]
    assert all(a > 100 for a in flows["ack"].to_list())
    script = sim.to_tcl(8)
    assert script.count("ecnmod_ true") == 4, "sender and sink of both ECN-mod flows"


def test_pmod_2p_from_the_api_is_its_ns2_script(tmp_path):
    """RED's ``pmod_2p`` (p_mod fed 2 p(Q), the paper's footnote 1, while
    the spreading keeps wait_) reaches the engine from Python as from Tcl,
    and changes the run: with uniform drop-biasing p_mod is fed 2p, more
    than the spreading's 2p / (3 - p) (the rates themselves are checked in
    red.rs, long_run_rates_of_each_biasing)."""
    sys.path.insert(0, str(ROOT / "tests" / "api"))
    from test_builder_exact import _dumbbell, same_as_ns2_layer

    got = {}
    for two_p in (False, True):
        sim, S, D, _ = _dumbbell(3, queue="RED", limit=200, queue_params={
            "thresh": 5, "maxthresh": 60, "linterm": 5, "setbit": True, "pmod": True, "pmod_2p": two_p})
        for i in range(3):
            sim.tcp(S[i], D[i], variant="ecn-mod", window=200, start=0.1 * i)
        (tmp_path / str(two_p)).mkdir()
        res = same_as_ns2_layer(sim, 30, tmp_path / str(two_p))
        assert sim.to_tcl(30).count("pmod_2p_ true") == 2 * int(two_p), "both directions of the duplex link"
        got[two_p] = res
    acks = {k: got[k].flows["ack"].to_list() for k in got}
    assert acks[False] != acks[True], "the option changes the run"
