"""Seed 000 (New-ECN): the paper's qualitative results hold in Dumbbell.

The exact figures are printed by examples/seed000_newecn.py beside the
paper's; these tests pin the behaviour the paper reports, on shorter runs.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import seed000_newecn as ex  # noqa: E402


@pytest.fixture(scope="module")
def one_flow():
    return {m: ex.one_flow(m, 30.0) for m in ("reno", "ecn", "newecn")}


def test_new_ecn_outperforms_ecn_which_outperforms_reno(one_flow):
    # Section 4.3.1: 1208 > 1157 > 1077 packets/s.
    assert one_flow["newecn"]["rate_pps"] > one_flow["ecn"]["rate_pps"] > one_flow["reno"]["rate_pps"]


def test_new_ecn_is_marked_rather_than_dropped(one_flow):
    assert one_flow["newecn"]["marks"] > one_flow["newecn"]["drops"] > 0
    assert one_flow["reno"]["marks"] == 0


def test_new_ecn_shares_fairly_across_rtts_and_ecn_does_not():
    ne = ex.four_flows("8", 30.0)
    ecn = ex.four_flows("1", 30.0)
    assert ne["jain"] > 0.95, ne["rates"]
    assert ecn["jain"] < 0.7, ecn["rates"]
    # the window slope grows with the RTT (Table 4.4)
    slopes = [ne["means"][i][2] for i in (1, 2, 3, 4)]
    assert slopes == sorted(slopes) and slopes[3] > 10 * slopes[0]


NEWECN_SCRIPT = """
set ns [new Simulator]
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 2Mb 10ms RED
Queue/RED set setbit_ true
[[$ns link $a $b] queue] set setbit_ true
set tcp [$ns create-connection TCP/Reno $a TCPSink $b 0]
$tcp set ecn_ 1
$tcp set windowOption_ 8
$tcp set newecn_ %s
set ftp [$tcp attach-app FTP]
$ns at 0 "$ftp start"
$ns at 20 {puts "first=[$tcp set first_time_] slope=[$tcp set slope_window_] necn=[$tcp set necnresponses_]"; exit 0}
$ns run
"""


def run_tcl(tmp_path, text):
    f = tmp_path / "s.tcl"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "dumbbell.cli", "run", str(f)], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return dict(kv.split("=") for kv in p.stdout.split())


def test_window_option_8_is_highspeed_unless_newecn_is_on(tmp_path):
    on = run_tcl(tmp_path, NEWECN_SCRIPT % "true")
    assert on["first"] == "1" and int(on["necn"]) > 0
    assert float(on["slope"]) != 1.0, "the slope moves once marks arrive"
    off = run_tcl(tmp_path, NEWECN_SCRIPT % "false")
    assert off["first"] == "0" and off["slope"] == "1", "HighSpeed TCP (ns-2 2.35) leaves New-ECN state alone"
