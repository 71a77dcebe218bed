"""`Queue/CBQ`, `Queue/CBQ/WRR` and `CBQClass` (ns-2 2.35's class-based
queueing) from ns-2 scripts.  The traces are ns-2's byte for byte in ns-2's
own suite (tests/suites: cbq, 23 tests), the corpus (tests/ns2: cbq_*) and
the random --queues scenarios; here: the class commands as ns-2 answers
them, ns-2's unknown-flow handling for a flow bound to no class, and what
ns-2 would refuse, crash on or silently mishandle as errors that say what
is wrong.  The scheduler's decisions are unit-tested in the engine
(crates/engine/src/qdisc/cbq.rs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from tclrun import run

NS = shutil.which("ns")

# Two leaves under a root on a 1 Mb/s CBQ link, two CBR flows (fids 1, 2);
# SETUP runs after the classes are made, before they are inserted; AFTER
# after the insertion and binding.
SCRIPT = """set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set a [$ns node]; set b [$ns node]; set r [$ns node]
$ns duplex-link $a $r 10Mb 2ms DropTail
$ns simplex-link $r $b 1Mb 10ms LINKTYPE
$ns simplex-link $b $r 1Mb 10ms DropTail
set l [$ns link $r $b]
set root [new CBQClass]
$root setparams none 0 1.0 auto 8 2 0
set c1 [new CBQClass]
set q1 [new Queue/DropTail]; $q1 set limit_ 10; $c1 install-queue $q1
$c1 setparams $root true 0.3 auto 1 1 0
set c2 [new CBQClass]
set q2 [new Queue/DropTail]; $q2 set limit_ 10; $c2 install-queue $q2
$c2 setparams $root false 0.6 auto 2 1 0
SETUP
$l insert $root; $l insert $c1; $l insert $c2
$l bind $c1 1; $l bind $c2 2
AFTER
foreach {i fid size rate} {1 1 500 700Kb 2 2 1000 700Kb 3 FID3 200 50Kb} {
    set u($i) [new Agent/UDP]; $ns attach-agent $a $u($i); $u($i) set fid_ $fid
    set k($i) [new Agent/Null]; $ns attach-agent $b $k($i); $ns connect $u($i) $k($i)
    set c [new Application/Traffic/CBR]; $c attach-agent $u($i)
    $c set packetSize_ $size; $c set rate_ $rate
    $ns at 0.1 "$c start"
}
$ns at 2 "close $tf; exit 0"
$ns run
"""


def script(setup: str = "", after: str = "", link: str = "CBQ", fid3: int = 1) -> str:
    return (SCRIPT.replace("LINKTYPE", link).replace("SETUP", setup).replace("AFTER", after)
            .replace("FID3", str(fid3)))


@pytest.mark.skipif(NS is None, reason="needs the real ns-2 (ns)")
@pytest.mark.parametrize("link, fid3, after", [
    ("CBQ", 1, "puts \"[$c1 allot] [$c2 allot] [$root allot] [expr {[$c1 qdisc] eq $q1}] '[$root qdisc]'\""),
    ("CBQ/WRR", 1, "[$l queue] algorithm top-level; puts [[$l queue] set maxpkt_]"),
    # a flow bound to no class: ns-2's classifier has no unknown-flow
    # handler and the run stops there
    ("CBQ", 5, "[$l queue] algorithm 2"),
    ("CBQ/WRR", 1, '$ns at 1.0 "$c1 newallot 0.05; $c2 newallot 0.9"'),
])
def test_as_ns2(tmp_path: Path, link: str, fid3: int, after: str):
    s = script(after=after, link=link, fid3=fid3)
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "s.tcl").write_text(s)
    want = subprocess.run([NS, "s.tcl"], cwd=tmp_path / "ns", capture_output=True, text=True, timeout=300)
    got = run(tmp_path, s)
    assert (got.returncode != 0) == (want.returncode != 0), (got.stderr, want.stdout)
    if want.returncode != 0:
        assert "unknown-flow 0 1 5" in want.stdout and "unknown-flow 0 1 5" in got.stdout + got.stderr, got
        return
    assert got.stdout == want.stdout
    trace = (tmp_path / "out.tr").read_bytes()
    assert trace == (tmp_path / "ns" / "out.tr").read_bytes()
    # the scenario is there for what CBQ does: the link is oversubscribed
    assert b"\nd " in trace


@pytest.mark.parametrize("algorithm, c1, c2", [
    # c1 (priority 1, may borrow) takes all it is offered from the root
    ("ancestor-only", (0.72, 0.76), (0.24, 0.28)),
    # formal: no loan while c2 is under its allotment with a backlog; c2
    # (may not borrow) gets its allotment, c1 what is left
    ("formal", (0.38, 0.42), (0.58, 0.62)),
])
def test_link_sharing_rules_show(tmp_path: Path, algorithm: str, c1, c2):
    """Receive rates after 0.5 s, Mb/s: c1 (0.3 of 1 Mb/s) is offered 0.75
    Mb/s, c2 (0.6, no borrowing) 0.7 Mb/s."""
    r = run(tmp_path, script(after="[$l queue] algorithm " + algorithm))
    assert r.returncode == 0, r.stderr
    got = {1: 0, 2: 0}
    for line in (tmp_path / "out.tr").read_text().splitlines():
        f = line.split()
        if f[0] == "r" and f[3] == "1" and float(f[1]) > 0.5:
            got[int(f[7])] += int(f[5]) * 8
    rate = {k: v / 1.5 / 1e6 for k, v in got.items()}
    assert c1[0] < rate[1] < c1[1] and c2[0] < rate[2] < c2[1], rate


@pytest.mark.parametrize("setup, after, message", [
    ("", "[$l queue] algorithm weighted", 'unknown link-sharing algorithm "weighted"'),
    ("", "[$l queue] algorithm old-formal", "old-formal link-sharing is not supported"),
    ("$c1 set priority_ 10", "", "CBQ: trouble inserting class _o"),
    ("$c1 set priority_ 10", "", "priority 10 out of range (0..9)"),
    ("$c1 set level_ 0", "", "level 0 out of range (1..32)"),
    ("$c1 allot 0.4", "", "already has allotment of 0.300000"),
    ("$c1 allot -1", "", 'allotment must be zero or more, got "-1"'),
    ("$c1 maxidle -0.5", "", "invalid maxidle value -0.5 (must be non-negative)"),
    ("$c1 parent $q1", "", "is not a CBQClass (or none)"),
    ("$c1 parent $c1", "", "a class cannot borrow from itself"),
    ("", "$root parent $c1", "a class cannot borrow from itself or from a class below it"),
    ("$c1 newallot 0.5", "", "not inserted in a CBQ link yet"),
    # ns-2 runs Marker and dsRED/core class queues too; Dumbbell's take
    # DropTail, RED, SFQ, DRR, PI, REM, Vq, GK, SRR or RIO (tests/ns2
    # cbq_red_*, cbq_fair_*, cbq_aqm*)
    ("set mq [new Queue/Marker]; $c2 install-queue $mq", "", "is a Queue/Marker; Dumbbell's CBQ classes queue with Queue/DropTail, Queue/RED, Queue/SFQ, Queue/DRR, Queue/PI, Queue/REM, Queue/Vq, Queue/GK, Queue/SRR or Queue/RED/RIO"),
    ("set dq [new Queue/dsRED/core]; $c2 install-queue $dq", "", "is a Queue/dsRED/core; Dumbbell's CBQ classes queue with Queue/DropTail, Queue/RED, Queue/SFQ, Queue/DRR, Queue/PI, Queue/REM, Queue/Vq, Queue/GK, Queue/SRR or Queue/RED/RIO"),
    ("$c1 set maxidle_ {}", "", 'maxidle: expected a number, got ""'),
    ("", "$l insert [new CBQClass] [new QueueMonitor]", "takes no queue monitor"),
    ("", "$l insert $c1", "is already inserted"),
    ("", "$l bind [new CBQClass] 4", "is not inserted in this link"),
    ("", '$ns at 1.0 "$c1 newallot abc"', 'expected a number, got "abc"'),
])
def test_bad_input_is_an_error(tmp_path: Path, setup: str, after: str, message: str):
    r = run(tmp_path, script(setup=setup, after=after))
    assert r.returncode != 0, r.stdout
    assert message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


READBACK = """set ns [new Simulator]
set a [$ns node]; set b [$ns node]
$ns simplex-link $a $b 1Mb 10ms CBQ/WRR
set l [$ns link $a $b]
set c [new CBQClass]
set q [new Queue/DropTail]
$c install-queue $q
puts "[$q set blocked_] [$q set unblock_on_resume_] [[$l queue] set algorithm_] [[$l queue] set maxpkt_]"
puts "[$c set priority_] [$c set level_] [$c set extradelay_] [$c set okborrow_] [[$l classifier] info class]"
$c set priority_ 0x1f; $c set level_ 2.9; $c set extradelay_ 1e-3x
puts "[$c set priority_] [$c set level_] [$c set extradelay_]"
foreach v {true T false 0 1 7 yes -1 10abc} { $c set okborrow_ $v; puts -nonewline "[$c set okborrow_] " }
puts ""
"""


@pytest.mark.skipif(NS is None, reason="needs the real ns-2 (ns)")
def test_variables_read_back_as_ns2(tmp_path: Path):
    """CBQClass's variables ns-2 binds in C++ read back as C++ prints them
    (an int, a double, a bool's number); install-queue blocks the queue."""
    (tmp_path / "ns").mkdir()
    (tmp_path / "ns" / "s.tcl").write_text(READBACK)
    want = subprocess.run([NS, "s.tcl"], cwd=tmp_path / "ns", capture_output=True, text=True, timeout=300)
    assert want.returncode == 0, want.stdout
    got = run(tmp_path, READBACK)
    assert got.returncode == 0, got.stderr
    assert got.stdout == want.stdout
    assert "31 2 0.001" in got.stdout
