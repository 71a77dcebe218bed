"""`Queue/Vq` (ns-2 2.35's adaptive virtual queue, queue/vq.cc) and
`Queue/GK` (Gibbens-Kelly virtual-queue marking, queue/gk.cc) from ns-2
scripts: the packet trace and the `curq_` trace of scenarios covering their
modes (Vq: drop or ECN mark, tail or front, bytes or packets, buffer and
rate fractions; GK: virtual fractions, drop-front, packet sizes) are the
real ns-2's byte for byte."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tclrun import run

NS = shutil.which("ns")

SCRIPT = """set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
SETUP
set r1 [$ns node]; set r2 [$ns node]
for {set i 0} {$i < 3} {incr i} { set s($i) [$ns node]; $ns duplex-link $s($i) $r1 10Mb [expr 2+3*$i]ms DropTail }
$ns duplex-link $r1 $r2 1.5Mb 20ms QUEUE
$ns queue-limit $r1 $r2 LIMIT
set q [[$ns link $r1 $r2] queue]
set qf [open q.tr w]
$q trace curq_
$q attach $qf
for {set i 0} {$i < 3} {incr i} {
    set t($i) [new Agent/TCP/Reno]; $t($i) set window_ 60; $t($i) set ecn_ ECN
    $ns attach-agent $s($i) $t($i)
    set k($i) [new Agent/TCPSink]; $ns attach-agent $r2 $k($i); $ns connect $t($i) $k($i)
    set f($i) [$t($i) attach-app FTP]; $ns at [expr 0.2*$i] "$f($i) start"
}
set u [new Agent/UDP]; $ns attach-agent $s(2) $u; $u set fid_ 9
set n [new Agent/Null]; $ns attach-agent $r2 $n; $ns connect $u $n
set c [new Application/Traffic/CBR]; $c attach-agent $u; $c set packetSize_ 300; $c set rate_ 400Kb; $c set random_ 1
$ns at 1.0 "$c start"
$ns at 6 "close $tf; close $qf; exit 0"
$ns run
"""

CASES = {
    "vq-defaults": ("Vq", "", 25, 0),
    "vq-drop-front": ("Vq", "Queue/Vq set drop_front_ 1; Queue/Vq set buflim_ 0.5", 20, 0),
    "vq-packets": ("Vq", "Queue/Vq set queue_in_bytes_ false; Queue/Vq set gamma_ 0.895; Queue/Vq set buflim_ 0.25", 25, 0),
    "vq-mark": ("Vq", "Queue/Vq set markpkts_ true; Queue/Vq set ecnlim_ 0.6", 30, 1),
    "vq-mark-front": ("Vq", "Queue/Vq set markpkts_ true; Queue/Vq set markfront_ 1; Queue/Vq set queue_in_bytes_ false",
                      15, 1),
    # GK marks; the drops are the real queue's
    "gk-defaults": ("GK", "", 12, 1),
    "gk-small": ("GK", "Queue/GK set ecnlim_ 0.5; Queue/GK set mean_pktsize_ 500; Queue/GK set drop_front_ 1", 15, 1),
}


def script(case: str) -> str:
    queue, setup, limit, ecn = CASES[case]
    return SCRIPT.replace("SETUP", setup).replace("LIMIT", str(limit)).replace("ECN", str(ecn)).replace("QUEUE", queue)


@pytest.mark.skipif(NS is None, reason="needs the real ns-2 (ns)")
@pytest.mark.parametrize("case", sorted(CASES))
def test_traces_are_ns2s(tmp_path: Path, case: str):
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "s.tcl").write_text(script(case))
    r = subprocess.run([NS, "s.tcl"], cwd=tmp_path / "ns", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = run(tmp_path, script(case))
    assert r.returncode == 0, r.stderr
    for f in ("out.tr", "q.tr"):
        assert (tmp_path / f).read_bytes() == (tmp_path / "ns" / f).read_bytes(), f
    tr = (tmp_path / "out.tr").read_text()
    # the virtual queue acts: drops, or with markpkts_ CE marks (the "E" flag) and few drops
    if CASES[case][3]:
        assert any(ln.startswith("- ") and " 0 1 tcp " in ln and ln.split()[6][4] == "E" for ln in tr.splitlines())
    else:
        assert "\nd " in tr


@pytest.mark.parametrize("case, cls", [("vq-defaults", "Queue/Vq"), ("gk-defaults", "Queue/GK")])
def test_trace_of_another_variable_is_an_error(tmp_path: Path, case: str, cls: str):
    r = run(tmp_path, script(case).replace("$q trace curq_", "$q trace ave_"))
    assert r.returncode != 0
    assert f"ave_ is not a TracedVar of {cls}" in r.stderr and "Traceback" not in r.stderr
