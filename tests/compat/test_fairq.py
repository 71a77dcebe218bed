"""`Queue/DRR` and `Queue/SFQ` (ns-2 2.35's deficit round robin and
stochastic fair queueing) from ns-2 scripts: the trace of scenarios that
exercise their rounds, their overflow drops (DRR's from the fattest flow,
SFQ's per-bucket limits) and their commands is the real ns-2's byte for
byte; values ns-2 would crash or hang on are errors naming them.  The
scheduling decisions themselves are unit-tested in the engine
(crates/engine/src/qdisc/drr.rs, sfq.rs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tclrun import run

NS = shutil.which("ns")

# Four UDP CBR sources of different packet sizes (with random intervals) and
# a Reno flow through a 1 Mb/s bottleneck: QUEUE is the bottleneck's type,
# SETUP configures its queue $q.
SCRIPT = """set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set r1 [$ns node]; set r2 [$ns node]
for {set i 0} {$i < 4} {incr i} { set s($i) [$ns node]; $ns duplex-link $s($i) $r1 10Mb [expr 1+$i]ms DropTail }
$ns duplex-link $r1 $r2 1Mb 10ms QUEUE
set q [[$ns link $r1 $r2] queue]
SETUP
for {set i 0} {$i < 4} {incr i} {
    set u($i) [new Agent/UDP]; $ns attach-agent $s($i) $u($i); $u($i) set fid_ $i
    set k($i) [new Agent/Null]; $ns attach-agent $r2 $k($i); $ns connect $u($i) $k($i)
    set c($i) [new Application/Traffic/CBR]; $c($i) attach-agent $u($i)
    $c($i) set packetSize_ [expr 200+300*$i]; $c($i) set rate_ RATE; $c($i) set random_ 1
    $ns at [expr 0.1*$i] "$c($i) start"
}
set t [new Agent/TCP/Reno]; $ns attach-agent $s(0) $t
set sk [new Agent/TCPSink]; $ns attach-agent $r2 $sk; $ns connect $t $sk
set ftp [$t attach-app FTP]; $ns at 0.2 "$ftp start"
AT
$ns at 4 "close $tf; exit 0"
$ns run
"""

CASES = {
    # DRR: overflow drops from the fattest flow, the limit raised by command
    "drr-blimit": ("DRR", "$q set blimit_ 6000; $q set quantum_ 700", "500Kb", '$ns at 0.5 "$q blimit 9000"'),
    # a quantum below most packets' sizes: several turns per packet
    "drr-small-quantum": ("DRR", "$q set quantum_ 150", "300Kb", ""),
    # few buckets (sources share them), node-part hashing, buckets by command
    "drr-buckets": ("DRR", "$q buckets 2; $q mask 1; $q set blimit_ 20000", "400Kb", ""),
    "drr-defaults": ("DRR", "", "250Kb", ""),
    # SFQ: the defaults (40 packets in 16 buckets; limit_ is not used)
    "sfq-defaults": ("SFQ", "$q set limit_ 5", "500Kb", ""),
    # fewer buckets than sources, a small queue: the fair-share rule
    "sfq-small": ("SFQ", "$q set buckets_ 2; $q set maxqueue_ 9", "400Kb", ""),
    # the limit command (the fair share follows it) during the run
    "sfq-limit": ("SFQ", "$q set buckets_ 4", "500Kb", '$ns at 1.0 "$q limit 12"'),
}


def script(case: str, at: str | None = None) -> str:
    queue, setup, rate, at_ = CASES[case]
    at = at_ if at is None else at
    return SCRIPT.replace("QUEUE", queue).replace("SETUP", setup).replace("RATE", rate).replace("AT", at)


@pytest.mark.skipif(NS is None, reason="needs the real ns-2 (ns)")
@pytest.mark.parametrize("case", sorted(CASES))
def test_trace_is_ns2s(tmp_path: Path, case: str):
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "s.tcl").write_text(script(case))
    r = subprocess.run([NS, "s.tcl"], cwd=tmp_path / "ns", capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = run(tmp_path, script(case))
    assert r.returncode == 0, r.stderr
    want = (tmp_path / "ns" / "out.tr").read_bytes()
    got = (tmp_path / "out.tr").read_bytes()
    assert got == want
    # the scenario does what it is there for: the queue drops
    assert b"\nd " in got


def test_drr_keeps_to_its_byte_limit(tmp_path: Path):
    """However much is offered, DRR holds at most blimit_ bytes."""
    s = script("drr-blimit", at="")
    s = s.replace("$ns at 4", 'proc probe {} { global ns q; if {[$q byteLength] > 6000} { puts "over [$q byteLength]" }; '
                  '$ns at [expr [$ns now] + 0.001] probe }\n$ns at 0.0 probe\n$ns at 4')
    r = run(tmp_path, s)
    assert r.returncode == 0, r.stderr
    assert "over" not in r.stdout


@pytest.mark.parametrize("setup, message", [
    ("$q set quantum_ 0", 'quantum_ must be a positive integer, got "0"'),
    ("$q set buckets_ -3", 'buckets_ must be a positive integer, got "-3"'),
    ("$q set blimit_ -1", 'blimit_ must be zero or a positive integer, got "-1"'),
    ("$q quantum -5", 'quantum must be a positive integer, got "-5"'),
])
def test_drr_bad_values_are_errors(tmp_path: Path, setup: str, message: str):
    r = run(tmp_path, script("drr-defaults").replace("\n\n", "\n" + setup + "\n", 1))
    assert r.returncode != 0
    assert message in r.stderr
    assert "s.tcl:8" in r.stderr or "line 8" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_commands_ns2_cannot_survive_are_errors(tmp_path: Path):
    """Lowering DRR's limit below what it holds exits ns-2; changing SFQ's
    buckets after its first packet makes ns-2 loop for ever: both errors."""
    r = run(tmp_path, script("drr-defaults", at='$ns at 1.0 "$q blimit 10"'))
    assert r.returncode != 0 and "more than the new limit" in r.stderr, r.stderr
    r = run(tmp_path, script("sfq-defaults", at='$ns at 1.0 "$q buckets 4"'))
    assert r.returncode != 0 and "cannot change once it has seen a packet" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
