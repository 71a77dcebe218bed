"""`Queue/CoDel` from ns-2 scripts.  ns-2 2.35 has no CoDel, so there is no
ns-2 fixture: the algorithm itself is checked call by call against ns-3.37
logs in the engine (crates/engine/src/qdisc/codel.rs, testdata/codel);
these tests check the class as scripts reach it (variables, defaults, bad
values) and its behaviour on a link: it holds the standing delay near its
target where DropTail lets the queue fill, and with `setbit_` it marks
ECN-capable packets instead of dropping them."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from tclrun import run



def test_variables_and_defaults(tmp_path):
    r = run(tmp_path, """set ns [new Simulator]
set q [new Queue/CoDel]
foreach v {target_ interval_ minbytes_ setbit_ ce_threshold_ curq_ d_exp_ limit_} { puts "$v [$q set $v]" }
$q set target_ 2ms
$q set interval_ 20ms
Queue/CoDel set minbytes_ 3000
set q2 [new Queue/CoDel]
puts "after [$q set target_] [$q set interval_] [$q2 set minbytes_]"
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "target_ 0.0050000000000000001",
        "interval_ 0.10000000000000001",
        "minbytes_ 1500",
        "setbit_ 0",
        "ce_threshold_ -1",
        "curq_ 0",
        "d_exp_ 0",
        "limit_ 50",
        "after 0.002 0.02 3000",
    ]


@pytest.mark.parametrize("var,value", [("target_", "0"), ("interval_", "-1ms"), ("minbytes_", "-5")])
def test_bad_values_are_errors(tmp_path, var, value):
    r = run(tmp_path, f"set ns [new Simulator]\nset q [new Queue/CoDel]\n$q set {var} {value}\n")
    assert r.returncode == 1
    assert var in r.stderr and value in r.stderr and "s.tcl:3" in r.stderr


def overload(queue: str) -> str:
    """A 15 Mb/s CBR source into a 10 Mb/s link for 2 s (1000-byte packets,
    a 1000-packet buffer), the bottleneck's queue traced."""
    return f"""set ns [new Simulator]
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 100Mb 1ms DropTail
$ns duplex-link $r $b 10Mb 10ms {queue}
$ns queue-limit $r $b 1000
set f [open q.tr w]
$ns trace-queue $r $b $f
set udp [new Agent/UDP]
$ns attach-agent $a $udp
set null [new Agent/Null]
$ns attach-agent $b $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set rate_ 15Mb
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
$ns at 2.0 "$ns flush-trace; close $f; exit 0"
$ns run
"""


def events(path: Path):
    """The queue's events in order: (kind, time, uid, sojourn of a packet
    leaving, bytes left queued after the event)."""
    enq, out, queued = {}, [], 0
    for line in path.read_text().splitlines():
        f = line.split()
        kind, t, size, uid = f[0], float(f[1]), int(f[5]), f[11]
        if kind == "+":
            enq[uid] = (t, size)
            queued += size
            out.append(("+", t, uid, None, queued))
        elif kind in "-d":
            t0, size = enq.pop(uid)
            queued -= size
            out.append((kind, t, uid, t - t0, queued))
    return out


def codel_time(seconds: float) -> int:
    return int(round(seconds * 1e9)) >> 10


def test_first_drops_follow_the_control_law(tmp_path):
    """Against an unresponsive 1.5x overload: the first drop comes at the
    first dequeue after packets have stayed above the 5 ms target (with
    at least MinBytes behind them) for 100 ms, and the next ones
    interval/sqrt(count) apart, with ns-3's fixed-point steps for counts
    2, 3, 4 (48829, 54931, 47635 units of 1.024 us: 0.5, 0.56, 0.49 of the
    interval), each at the first dequeue at or after its deadline."""
    r = run(tmp_path, overload("CoDel"))
    assert r.returncode == 0, r.stderr
    ev = events(tmp_path / "q.tr")
    drops = [t for k, t, *_ in ev if k == "d"]
    assert len(drops) > 100
    first_above = None
    for kind, t, _, soj, left in ev:
        if kind == "d":
            break
        if kind == "-":
            if soj >= 0.005 - 1e-9 and left >= 1500:
                first_above = first_above if first_above is not None else codel_time(t) + codel_time(0.1)
            else:
                first_above = None
            assert first_above is None or codel_time(t) <= first_above, f"no drop at {t}"
    assert first_above is not None and codel_time(drops[0]) > first_above
    deadline = codel_time(drops[0])
    dequeues = [t for k, t, *_ in ev if k == "-"]
    for step, t in zip((97654, 48829, 54931, 47635), drops[1:5]):
        deadline += step
        due = next(x for x in dequeues if codel_time(x) >= deadline)
        assert t == due


def tcp_flows(queue: str, flows: int = 4, bottleneck: str = "10Mb", window: int = 2000,
              tcp_vars: str = "$tcp set packetSize_ 960", queue_vars: str = "") -> str:
    """`flows` NewReno flows through a `bottleneck` link with a 1000-packet
    buffer, for 10 s; the bottleneck's queue traced."""
    return f"""set ns [new Simulator]
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 100Mb 1ms DropTail
$ns duplex-link $r $b {bottleneck} 20ms {queue}
$ns queue-limit $r $b 1000
{queue_vars}
set f [open q.tr w]
$ns trace-queue $r $b $f
for {{set i 0}} {{$i < {flows}}} {{incr i}} {{
    set tcp [new Agent/TCP/Newreno]
    $tcp set window_ {window}
    {tcp_vars}
    $ns attach-agent $a $tcp
    set sink [new Agent/TCPSink]
    $ns attach-agent $b $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at 0.$i "$ftp start"
}}
$ns at 10.0 "$ns flush-trace; close $f; exit 0"
$ns run
"""


def test_codel_holds_the_delay_where_droptail_fills(tmp_path):
    """With responsive flows, CoDel keeps the standing delay near its 5 ms
    target at full utilisation; DropTail lets the buffer fill."""
    late = {}
    for q in ("CoDel", "DropTail"):
        r = run(tmp_path, tcp_flows(q))
        assert r.returncode == 0, r.stderr
        ev = events(tmp_path / "q.tr")
        late[q] = [soj for k, t, _, soj, _ in ev if k == "-" and t > 5.0]
    assert statistics.median(late["CoDel"]) < 0.010
    assert statistics.median(late["DropTail"]) > 0.1
    # the link stays busy: as many packets leave in the last 5 s either way
    # (10 Mb/s of 1000-byte packets is 1250 a second)
    assert len(late["CoDel"]) > 0.95 * 5 * 1250


def test_setbit_marks_ecn_capable_packets_instead_of_dropping(tmp_path):
    def script(setbit: str) -> str:
        return tcp_flows("CoDel", flows=3, bottleneck="2Mb", window=200, tcp_vars="$tcp set ecn_ 1",
                         queue_vars=f"[[$ns link $r $b] queue] set setbit_ {setbit}")

    counts = {}
    for setbit in ("true", "false"):
        r = run(tmp_path, script(setbit))
        assert r.returncode == 0, r.stderr
        lines = (tmp_path / "q.tr").read_text().splitlines()
        drops = sum(1 for x in lines if x.startswith("d "))
        marked = len({x.split()[11] for x in lines if x.startswith("- ") and x.split()[6][4] == "E"})
        counts[setbit] = (drops, marked)
    assert counts["true"][0] == 0 and counts["true"][1] > 20
    assert counts["false"][0] > 20 and counts["false"][1] == 0
