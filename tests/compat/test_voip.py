"""`Application/Traffic/VoIPCalls` (Dumbbell's own class; seed 003's VoIP
calls, crates/engine/src/voip.rs) from ns-2 scripts: its variables and
defaults, bad values as errors naming the line, `use-rng`, and the
counters a script reads.  The process's statistics are tested through the
API (tests/api/test_scfq_voip.py)."""

from __future__ import annotations

import pytest
from tclrun import run


HEAD = """set ns [new Simulator]
set n0 [$ns node]; set n1 [$ns node]
$ns duplex-link $n0 $n1 100Mb 1ms DropTail
$ns queue-limit $n0 $n1 100000
set u [new Agent/UDP]; $u set fid_ 7; $ns attach-agent $n0 $u
set k [new Agent/LossMonitor]; $ns attach-agent $n1 $k; $ns connect $u $k
set v [new Application/Traffic/VoIPCalls]
$v attach-agent $u
"""


def test_variables_and_defaults(tmp_path):
    r = run(tmp_path, HEAD + """foreach x {lambda_ holding_ mu_ burst_time_ idle_time_ packetSize_ interval_ stationary_start_ max_calls_ calls_} { puts "$x [$v set $x]" }
$v set mu_ 0.02
puts [$v set holding_]
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "lambda_ 2", "holding_ 100", "mu_ 0.01", "burst_time_ 1.008", "idle_time_ 1.587", "packetSize_ 120",
        "interval_ 0.01", "stationary_start_ 1", "max_calls_ 100000", "calls_ 0", "50"]


@pytest.mark.parametrize("var,value,msg", [
    ("lambda_", "-1", "lambda_ must be a number of zero or more"),
    ("interval_", "0", "interval_ must be a positive time"),
    ("holding_", "-5", "holding_ must be a positive time"),
    ("mu_", "0", "mu_ must be a number above 0"),
    ("packetSize_", "0", "packetSize_ must be a positive number of bytes"),
    ("max_calls_", "-3", "max_calls_ must be a positive integer"),
])
def test_bad_values_are_errors(tmp_path, var, value, msg):
    r = run(tmp_path, HEAD + f"$v set {var} {value}\n")
    assert r.returncode == 1
    assert msg in r.stderr and "s.tcl:9" in r.stderr, r.stderr


COUNT = HEAD + """$v set lambda_ 1
$v set holding_ 20
RNG
$ns at 0.0 "$v start"
proc done {} {
    global v k
    puts "[$v set calls_started_] [$v set calls_ended_] [$v set calls_] [$v set pkts_sent_] [$k set npkts_]"
    exit 0
}
$ns at 200.0 done
$ns run
"""


def counts(tmp_path, rng):
    r = run(tmp_path, COUNT.replace("RNG", rng))
    assert r.returncode == 0, r.stderr
    return list(map(int, r.stdout.split()))


def test_counters_and_use_rng(tmp_path):
    a = counts(tmp_path, "")
    started, ended, up, sent, got = a
    assert started == ended + up and abs(up - 20) < 20 and 200 * 0.8 < started < 200 * 1.3 + 40
    assert got == sent > 10_000
    # the same again; another RNG stream gives another process
    assert counts(tmp_path, "") == a
    b = counts(tmp_path, "set r [new RNG]; $r seed 99; $v use-rng $r")
    assert b != a and b == counts(tmp_path, "set r [new RNG]; $r seed 99; $v use-rng $r")
