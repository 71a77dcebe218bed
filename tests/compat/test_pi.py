"""`Queue/PI` (ns-2 2.35's queue/pi.cc) from scripts and from the Python
API.  ns-2's own suite (test-suite-pi.tcl, 5 tests) runs byte for byte under
tests/suites (run_suites.py's EXPECTED); these tests check the class as a
script reaches it (variables, defaults, bad values, the curq_ trace) and a
Python-API scenario (ECN and non-ECN flows through one PI queue) exported
with to_tcl() and run by both Dumbbell and the real ns-2."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import dumbbell as db
from tclrun import run


def test_variables_and_defaults(tmp_path):
    names = "a_ b_ w_ qref_ bytes_ queue_in_bytes_ mean_pktsize_ setbit_ prob_ curq_ limit_"
    r = run(tmp_path, f"""set ns [new Simulator]
set q [new Queue/PI]
foreach v {{{names}}} {{ puts "$v [$q set $v]" }}
puts [$q trace-type]
""")
    assert r.returncode == 0, r.stderr
    # as ns-2 2.35 prints them
    assert r.stdout.splitlines() == ["a_ 1.8219999999999998e-05", "b_ 1.8159999999999999e-05", "w_ 170", "qref_ 50",
                                     "bytes_ 0", "queue_in_bytes_ 0", "mean_pktsize_ 500", "setbit_ 0",
                                     "prob_ 0", "curq_ 0", "limit_ 50", "Drop"]


@pytest.mark.parametrize("var,value,msg", [("w_", "0", "w_ must be a number above 0"),
                                           ("a_", "nan", "a_ must be a finite number"),
                                           ("mean_pktsize_", "0", "mean_pktsize_ must be a positive number")])
def test_bad_values_are_refused(tmp_path, var, value, msg):
    r = run(tmp_path, f"set ns [new Simulator]\nset q [new Queue/PI]\n$q set {var} {value}\n")
    assert r.returncode != 0 and msg in r.stderr and "s.tcl:3" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


TRACED = """set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 20ms PI
set q [[$ns link $n0 $n1] queue]
$q set qref_ 5
$q set a_ 0.01
$q set b_ 0.0099
$q set w_ 100
set f [open q.tr w]
$q trace curq_
$q trace prob_
$q attach $f
set tcp [$ns create-connection TCP/Reno $n0 TCPSink $n1 0]
$tcp set window_ 40
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp start"
$ns at 5 "close $f; exit 0"
$ns run
"""


def traced(tmp_path):
    r = run(tmp_path, TRACED)
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "q.tr").read_text().splitlines()
    return [ln for ln in lines if ln.startswith("Q ")], [ln for ln in lines if ln.startswith("p ")]


def test_curq_and_prob_traces(tmp_path):
    # "Q time len" at every change of the queue an arrival sees or a
    # departure leaves, "p time prob" at every change of the probability:
    # the update law p += a (q - q_ref) - b (q_old - q_ref), w_ times a second
    qs, ps = traced(tmp_path)
    assert len(qs) > 100 and all(len(ln.split()) == 3 for ln in qs + ps)
    assert max(int(ln.split()[2]) for ln in qs) > 5
    t = [float(ln.split()[1]) for ln in ps]
    p = [float(ln.split()[2]) for ln in ps]
    assert all(0 <= x <= 1 for x in p) and max(p) > 0
    # updates fall on the 10 ms grid of w_ = 100
    assert all(abs(x * 100 - round(x * 100)) < 1e-6 for x in t)


@pytest.mark.skipif(not shutil.which("ns"), reason="the real ns-2 is not installed")
def test_traces_against_ns2(tmp_path):
    qs, ps = traced(tmp_path)
    r = subprocess.run(["ns", "s.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "q.tr").read_text().splitlines()
    ns_q = [ln for ln in lines if ln.startswith("Q ")]
    ns_p = [ln for ln in lines if ln.startswith("p ")]
    assert qs == ns_q
    # the probability's updates are run at the queue's packet events, so
    # those after the last one (before the script stops) are not written
    assert ps == ns_p[:len(ps)] and len(ns_p) - len(ps) <= 2


def scenario():
    sim = db.Simulation()
    a, r, b = sim.nodes(3)
    sim.link(a, r, "10Mb", "2ms")
    sim.link(r, b, "1.5Mb", "20ms", queue="PI", queue_limit=30,
             queue_params={"a": 0.00743488595689, "b": 0.00736090699216, "w": 435.37, "qref": 6, "setbit": True})
    sim.tcp(a, b, window=30, ecn=True)
    sim.tcp(a, b, window=30, start=1)
    return sim


def test_api_scenario_runs_as_its_script(tmp_path):
    # the API's run and `dumbbell run` of its to_tcl() export agree, and
    # the ECN flow's packets are marked where the other's are dropped
    sim = scenario()
    res = sim.run(10, trace_packets=True, trace_file=tmp_path / "api.tr")
    (tmp_path / "pi.tcl").write_text(sim.to_tcl(10, trace_packets=True, trace_file="out.tr"))
    r = run(tmp_path, (tmp_path / "pi.tcl").read_text(), "pi.tcl")
    assert r.returncode == 0, r.stderr
    trace = (tmp_path / "out.tr").read_text()
    assert trace == (tmp_path / "api.tr").read_text()
    drops = [ln.split() for ln in trace.splitlines() if ln.startswith("d ")]
    assert drops and all(f[7] == "1" for f in drops), "only the non-ECN flow loses packets to PI"
    assert res.flows["ack"].min() > 300


@pytest.mark.skipif(not shutil.which("ns"), reason="the real ns-2 is not installed")
def test_api_scenario_against_ns2(tmp_path):
    sim = scenario()
    (tmp_path / "pi.tcl").write_text(sim.to_tcl(10, trace_packets=True, trace_file="out.tr"))
    r = subprocess.run(["ns", "pi.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    ours = run(tmp_path, (tmp_path / "pi.tcl").read_text().replace("out.tr", "db.tr"), "db.tcl")
    assert ours.returncode == 0, ours.stderr
    assert (tmp_path / "db.tr").read_text() == (tmp_path / "out.tr").read_text()
