"""FQ links' flow queues (`FQLink set queueManagement_`) beyond the corpus
cases (tests/ns2, `fq_red_*`, `fq_sfq`, `fq_drr`, ...): the kinds Dumbbell
does not make are refused by name, so are SFQ and DRR class defaults ns-2
cannot run, and a RED flow queue whose average overflows (Queue/RED's default
`q_weight_` -1, which ns-2 never turns into a weight in a flow queue) stops
the run where ns-2 dies of a floating-point exception, with the reason."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tclrun import run

NS = shutil.which("ns")

# Two flows through an FQ link: a TCP and a 400-byte CBR at 0.6 Mb/s (about
# 190 arrivals a second, so a RED flow queue with q_weight_ -1 doubles its
# average past 2^1024 within some six seconds).
SCRIPT = """set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set a [$ns node]; set r1 [$ns node]; set r2 [$ns node]
$ns duplex-link $a $r1 10Mb 2ms DropTail
$ns simplex-link $r1 $r2 1Mb 10ms FQ
$ns simplex-link $r2 $r1 1Mb 10ms DropTail
SETUP
set t [$ns create-connection TCP/Sack1 $a TCPSink/Sack1 $r2 1]
$ns at 0.0 "[$t attach-app FTP] start"
set u [$ns create-connection UDP $a Null $r2 2]
set c [$u attach-app Traffic/CBR]
$c set rate_ 0.6Mb; $c set packetSize_ 400
$ns at 0.1 "$c start"
$ns at STOP {$ns flush-trace; close $tf; puts done; exit 0}
$ns run
"""


def script(setup: str, stop: float = 3.0) -> str:
    return SCRIPT.replace("SETUP", setup).replace("STOP", str(stop))


@pytest.mark.parametrize("kind, message", [
    ("Marker", "not Queue/Marker ones (ns-2 makes a Queue/Marker for each flow)"),
    ("dsRED/core", "not Queue/dsRED/core ones"),
    ("RED/Semantic", "ns-2 makes a Queue/RED/Semantic for each flow; class Queue/RED/Semantic is not supported by "
                     "Dumbbell: ns-2 2.35's Queue/RED/Semantic picks its victims through a PacketQueue/Semantic"),
    ("SimpleIntServ", "class Queue/SimpleIntServ is not supported by Dumbbell yet"),
    ("NoSuchQueue", "there is no class Queue/NoSuchQueue"),
])
def test_other_flow_queue_kinds_are_refused_by_name(tmp_path: Path, kind: str, message: str):
    r = run(tmp_path, script("FQLink set queueManagement_ %s" % kind))
    assert r.returncode == 1
    assert message in r.stderr
    assert "FQLink set queueManagement_ %s" % kind in r.stderr


def test_the_kind_can_be_set_before_the_link(tmp_path: Path):
    """The kind is read when a flow starts: set before the FQ link is made,
    it is refused there (the link reads it at once)."""
    s = script("").replace("$ns simplex-link $r1 $r2 1Mb 10ms FQ", "FQLink set queueManagement_ Marker\n$ns simplex-link $r1 $r2 1Mb 10ms FQ")
    r = run(tmp_path, s)
    assert r.returncode == 1 and "not Queue/Marker ones" in r.stderr


@pytest.mark.parametrize("setup, message", [
    ("Queue/DRR set quantum_ 0", "quantum_ must be"),
    ("Queue/DRR set buckets_ 0", "buckets_ must be"),
    ("Queue/SFQ set buckets_ -2", "buckets_ must be"),
])
def test_fair_flow_queue_defaults_ns2_cannot_run_are_refused(tmp_path: Path, setup: str, message: str):
    kind = setup.split()[0].split("/")[1]
    r = run(tmp_path, script("%s\nFQLink set queueManagement_ %s" % (setup, kind)))
    assert r.returncode == 1, r.stdout
    a = "an" if kind.startswith("S") else "a"
    assert "%s %s flow queue (FQLink set queueManagement_ %s) takes Queue/%s's class defaults" % (a, kind, kind, kind) in r.stderr
    assert message in r.stderr


@pytest.mark.parametrize("setup, message", [
    ("Queue/REM set pupdtime_ 0", "pupdtime_"),
    ("Queue/REM set mean_pktsize_ -1", "mean_pktsize_"),
])
def test_made_flow_queue_defaults_dumbbell_cannot_run_are_refused(tmp_path: Path, setup: str, message: str):
    """A kind made as `new Queue/KIND` (PI, REM, Vq, ...) is made with its
    class defaults when the kind or they change: one the class refuses is
    refused there, naming the kind."""
    r = run(tmp_path, script("%s\nFQLink set queueManagement_ REM" % setup))
    assert r.returncode == 1, r.stdout
    assert "a REM flow queue (FQLink set queueManagement_ REM) takes Queue/REM's class defaults" in r.stderr
    assert message in r.stderr


def test_a_red_flow_queues_average_overflows(tmp_path: Path):
    r = run(tmp_path, script("FQLink set queueManagement_ RED", stop=10.0))
    assert r.returncode == 1
    assert "Queue/RED: the average queue overflowed: q_weight_ -1 scales it by 2" in r.stderr
    assert "done" not in r.stdout
    # it stopped at the packet that overflowed it
    last = (tmp_path / "out.tr").read_text().splitlines()[-1].split()
    assert 4.0 < float(last[1]) < 10.0


@pytest.mark.skipif(NS is None, reason="needs ns-2 (ns)")
def test_ns2_dies_there_too(tmp_path: Path):
    (tmp_path / "s.tcl").write_text(script("FQLink set queueManagement_ RED", stop=10.0))
    p = subprocess.run([NS, "s.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode < 0 or p.returncode == 136, p.returncode
    assert "done" not in p.stdout
    # and runs through with a weight between 0 and 1
    ok = run(tmp_path, script("FQLink set queueManagement_ RED\nQueue/RED set q_weight_ 0.002", stop=10.0))
    assert ok.returncode == 0 and ok.stdout == "done\n"
