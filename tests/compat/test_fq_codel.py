"""`Queue/FQ_CoDel` from ns-2 scripts.  ns-2 2.35 has no FQ-CoDel, so there
is no ns-2 fixture: the algorithm itself is checked call by call against
ns-3.37 logs in the engine (crates/engine/src/qdisc/fq_codel.rs,
testdata/fq_codel); these tests check the class as scripts reach it
(variables, ns-3's defaults, bad values) and its behaviour on a link: a
sparse flow is not delayed by a bulk one, responsive flows' delay is held
near CoDel's target, overflow drops come from the fattest flow, and
ECN-capable traffic is marked (ns-3's default) rather than dropped."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from test_codel import run, tcp_flows


def test_variables_and_defaults(tmp_path):
    names = ("target_ interval_ setbit_ ce_threshold_ flows_ quantum_ drop_batch_size_ perturbation_ "
             "set_associative_hash_ set_ways_ curq_ limit_")
    r = run(tmp_path, f"""set ns [new Simulator]
set q [new Queue/FQ_CoDel]
foreach v {{{names}}} {{ puts "$v [$q set $v]" }}
$q set flows_ 64
$q set set_ways_ 16
$q set set_associative_hash_ true
Queue/FQ_CoDel set quantum_ 300
set q2 [new Queue/FQ_CoDel]
puts "after [$q set flows_] [$q set set_ways_] [$q set set_associative_hash_] [$q2 set quantum_]"
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "target_ 0.0050000000000000001",
        "interval_ 0.10000000000000001",
        "setbit_ 1",
        "ce_threshold_ -1",
        "flows_ 1024",
        "quantum_ 1500",
        "drop_batch_size_ 64",
        "perturbation_ 0",
        "set_associative_hash_ 0",
        "set_ways_ 8",
        "curq_ 0",
        "limit_ 50",
        "after 64 16 1 300",
    ]


@pytest.mark.parametrize("setup,expect", [
    ("$q set target_ 0", "target_ must be a positive time"),
    ("$q set flows_ 0", "flows_ must be a positive integer"),
    ("$q set quantum_ -1500", "quantum_ must be a positive integer"),
    ("$q set drop_batch_size_ 0", "drop_batch_size_ must be a positive integer"),
    ("$q set perturbation_ -1", "perturbation_ must be zero or a positive integer"),
    ("$q set set_ways_ 3\n$q set set_associative_hash_ true",
     "set_associative_hash_ true: with set_associative_hash_, flows_ (1024) must be a multiple of set_ways_ (3)"),
])
def test_bad_values_are_errors(tmp_path, setup, expect):
    r = run(tmp_path, f"set ns [new Simulator]\nset q [new Queue/FQ_CoDel]\n{setup}\n")
    assert r.returncode == 1
    assert expect in r.stderr and f"s.tcl:{2 + setup.count(chr(10)) + 1}" in r.stderr


def two_flows(queue: str, limit: int = 1000, queue_vars: str = "") -> str:
    """A 15 Mb/s CBR flow (fid 1, 1000-byte packets) and a 64 kb/s one (fid
    2, 200-byte packets) into a 10 Mb/s link for 3 s; its queue traced."""
    return f"""set ns [new Simulator]
set a [$ns node]
set r [$ns node]
set b [$ns node]
$ns duplex-link $a $r 100Mb 1ms DropTail
$ns duplex-link $r $b 10Mb 10ms {queue}
$ns queue-limit $r $b {limit}
{queue_vars}
set f [open q.tr w]
$ns trace-queue $r $b $f
set null [new Agent/Null]
$ns attach-agent $b $null
foreach {{fid rate size}} {{1 15Mb 1000 2 64Kb 200}} {{
    set udp [new Agent/UDP]
    $udp set fid_ $fid
    $ns attach-agent $a $udp
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr set packetSize_ $size
    $cbr set rate_ $rate
    $cbr attach-agent $udp
    $ns at 0.0 "$cbr start"
}}
$ns at 3.0 "$ns flush-trace; close $f; exit 0"
$ns run
"""


def flow_events(path: Path):
    """Per packet of the queue: (fid, kind, time, sojourn if it left)."""
    enq, out = {}, []
    for line in path.read_text().splitlines():
        f = line.split()
        kind, t, fid, uid = f[0], float(f[1]), int(f[7]), f[11]
        if kind == "+":
            enq[uid] = t
        elif kind in "-d":
            out.append((fid, kind, t, t - enq.pop(uid)))
    return out


def test_a_sparse_flow_is_not_delayed_by_a_bulk_one(tmp_path):
    soj, drops = {}, {}
    for q in ("FQ_CoDel", "CoDel", "DropTail"):
        r = run(tmp_path, two_flows(q))
        assert r.returncode == 0, r.stderr
        ev = flow_events(tmp_path / "q.tr")
        soj[q] = {fid: [s for f, k, t, s in ev if f == fid and k == "-" and t > 1.0] for fid in (1, 2)}
        drops[q] = {fid: sum(1 for f, k, *_ in ev if f == fid and k == "d") for fid in (1, 2)}
    # the sparse flow's packets go out at once under FQ-CoDel, behind the
    # bulk flow's standing queue under CoDel, behind the full buffer under DropTail
    assert max(soj["FQ_CoDel"][2]) < 0.002
    assert statistics.median(soj["CoDel"][2]) > 0.003
    assert statistics.median(soj["DropTail"][2]) > 0.3
    # only the bulk flow loses packets (its CoDel's drops)
    assert drops["FQ_CoDel"][1] > 100 and drops["FQ_CoDel"][2] == 0


def test_overflow_drops_from_the_fattest_flow(tmp_path):
    """With a 100-packet limit and CoDel's target out of reach, the bulk
    flow overflows the queue: batches from its head are dropped (up to half
    its bytes), never the sparse flow's packets."""
    r = run(tmp_path, two_flows("FQ_CoDel", limit=100, queue_vars="[[$ns link $r $b] queue] set target_ 10"))
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "q.tr").read_text().splitlines()
    drops = [x.split() for x in lines if x.startswith("d ")]
    assert len(drops) > 100 and all(d[7] == "1" for d in drops)
    times = [float(d[1]) for d in drops]
    batches = [times.count(t) for t in sorted(set(times))]
    assert max(batches) > 1


def test_tcp_flows_delay_is_held_near_the_target(tmp_path):
    from test_codel import events
    late = {}
    for q in ("FQ_CoDel", "DropTail"):
        r = run(tmp_path, tcp_flows(q))
        assert r.returncode == 0, r.stderr
        late[q] = [soj for k, t, _, soj, _ in events(tmp_path / "q.tr") if k == "-" and t > 5.0]
    assert statistics.median(late["FQ_CoDel"]) < 0.010 < 0.1 < statistics.median(late["DropTail"])
    assert len(late["FQ_CoDel"]) > 0.95 * 5 * 1250


def test_ecn_capable_flows_are_marked_by_default(tmp_path):
    def script(setbit: str) -> str:
        return tcp_flows("FQ_CoDel", flows=3, bottleneck="2Mb", window=200, tcp_vars="$tcp set ecn_ 1",
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
