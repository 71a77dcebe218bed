"""Seed 001 (ECN/RED with heterogeneous flows, ECNM, AECN): the thesis'
qualitative findings hold, and marks only ever hit ECN-capable packets."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import seed001_aecn as ex  # noqa: E402

T = 40.0


def test_ecn_beats_red_on_goodput_and_drops():
    red, ecn = ex.run("ch4", 15, "red", 0.1, T), ex.run("ch4", 15, "ecn", 0.1, T)
    assert ecn["goodput"] > red["goodput"]
    assert ecn["drops"] < red["drops"] and red["marks"] == 0 and ecn["marks"] > 0


def test_ecnm_marks_above_max_th_instead_of_dropping():
    ecn, ecnm = ex.run("ch4", 60, "ecn", 0.1, T), ex.run("ch4", 60, "ecnm", 0.1, T)
    assert ecnm["drops"] < ecn["drops"] / 10
    assert ecnm["marks"] > ecn["marks"]


def test_aecn_shares_more_fairly_across_rtt_groups_than_ecn():
    ecn = ex.run("ch5", 60, "ecn", 0.5, T)
    aecn = ex.run("ch5", 60, "aecn:1.25:1.25", 0.5, T)
    assert aecn["jain"] > ecn["jain"] + 0.05
    assert aecn["groups"]["fragile"] > ecn["groups"]["fragile"]
    assert aecn["drops"] < ecn["drops"]


MIXED = """
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set r [$ns node]; set d [$ns node]
$ns duplex-link $r $d 2Mb 10ms RED
$ns queue-limit $r $d 30
set q [[$ns link $r $d] queue]
$q set setbit_ true
$q set %s true
for {set i 0} {$i < 6} {incr i} {
    set s [$ns node]
    $ns duplex-link $s $r 10Mb [expr {2 + 20 * $i}]ms DropTail
    set tcp [$ns create-connection TCP/Reno $s TCPSink $d $i]
    $tcp set ecn_ [expr {$i %% 2}]
    $ns at [expr {0.1 * $i}] "[$tcp attach-app FTP] start"
}
$ns at 15 {$ns flush-trace; close $f; exit 0}
$ns run
"""


@pytest.mark.parametrize("variant", ["ecnm_", "mark_front_", "aecn_"])
def test_marks_only_on_ecn_capable_packets(tmp_path, variant):
    (tmp_path / "s.tcl").write_text(MIXED % variant)
    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", "s.tcl"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    marked = bad = 0
    for line in (tmp_path / "out.tr").read_text().splitlines():
        flags = line.split()[6]
        if "E" in flags:
            marked += 1
            if "N" not in flags:
                bad += 1
    assert marked > 0, "the scenario marks"
    assert bad == 0, f"{bad} CE-marked packets were not ECN-capable"
