"""`Queue/PIE` from ns-2 scripts.  ns-2 2.35 has no PIE, so there is no ns-2
fixture: the algorithm itself is checked call by call against ns-3.37 logs
in the engine (crates/engine/src/qdisc/pie.rs, testdata/pie); these tests
check the class as scripts reach it (variables in ns-2.36's names, ns-3's
defaults, bad values) and its behaviour on a link: it holds the queuing
delay near its reference where DropTail lets the queue fill, no early drop
comes within the burst allowance, and with `setbit_` it marks ECN-capable
packets instead of dropping them while the probability is low."""

from __future__ import annotations

import statistics

import pytest

from test_codel import events, overload, run, tcp_flows


def test_variables_and_defaults(tmp_path):
    names = ("a_ b_ tUpdate_ sUpdate_ qdelay_ref_ burst_allowance_ dq_threshold_ use_dq_rate_estimator_ "
             "cap_drop_adjustment_ setbit_ mark_p_ derandomize_ active_threshold_ prob_ curq_ qdelay_ limit_ "
             "queue_in_bytes_ mean_pktsize_")
    r = run(tmp_path, f"""set ns [new Simulator]
set q [new Queue/PIE]
foreach v {{{names}}} {{ puts "$v [$q set $v]" }}
$q set tUpdate_ 30ms
$q set active_threshold_ 1ms
Queue/PIE set qdelay_ref_ 20ms
set q2 [new Queue/PIE]
puts "after [$q set tUpdate_] [$q set active_threshold_] [$q2 set qdelay_ref_]"
""")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "a_ 0.125",
        "b_ 1.25",
        "tUpdate_ 0.014999999999999999",
        "sUpdate_ 0",
        "qdelay_ref_ 0.014999999999999999",
        "burst_allowance_ 0.14999999999999999",
        "dq_threshold_ 16384",
        "use_dq_rate_estimator_ 0",
        "cap_drop_adjustment_ 1",
        "setbit_ 0",
        "mark_p_ 0.10000000000000001",
        "derandomize_ 0",
        "active_threshold_ -1",
        "prob_ 0",
        "curq_ 0",
        "qdelay_ 0",
        "limit_ 50",
        "queue_in_bytes_ 0",
        "mean_pktsize_ 1000",
        "after 0.029999999999999999 0.001 0.02",
    ]


@pytest.mark.parametrize("var,value,expect", [
    ("tUpdate_", "0", "a time of 1 ns or more"),
    ("qdelay_ref_", "-1ms", "a time of zero or more"),
    ("burst_allowance_", "-0.1", "a time of zero or more"),
    ("mark_p_", "1.5", "a number from 0 to 1"),
    ("prob_", "-0.5", "a number from 0 to 1"),
    ("a_", "inf", "a finite number"),
    ("dq_threshold_", "-5", "must be zero or a positive integer"),
    ("mean_pktsize_", "0", "a positive integer"),
])
def test_bad_values_are_errors(tmp_path, var, value, expect):
    r = run(tmp_path, f"set ns [new Simulator]\nset q [new Queue/PIE]\n$q set {var} {value}\n")
    assert r.returncode == 1
    assert var in r.stderr and value in r.stderr and expect in r.stderr and "s.tcl:3" in r.stderr


def test_overload_is_dropped_early_after_the_burst_allowance(tmp_path):
    """An unresponsive 1.5x overload: every drop is an early drop (the
    1000-packet buffer never fills, where DropTail's does), none before the
    150 ms burst allowance has run out from the first arrival, and the
    delay stays far below DropTail's."""
    soj, drops = {}, {}
    for q in ("PIE", "DropTail"):
        r = run(tmp_path, overload(q))
        assert r.returncode == 0, r.stderr
        ev = events(tmp_path / "q.tr")
        drops[q] = [(t, left) for k, t, _, _, left in ev if k == "d"]
        soj[q] = [s for k, t, _, s, _ in ev if k == "-" and t > 1.0]
        first = next(t for k, t, *_ in ev if k == "+")
        if q == "PIE":
            assert len(drops[q]) > 500
            assert drops[q][0][0] > first + 0.15
            assert max(left for _, left in drops[q]) < 1000 * 1000
    assert drops["DropTail"][0][0] > 1.5
    assert statistics.median(soj["PIE"]) < 0.03 < 0.3 < statistics.median(soj["DropTail"])


def test_pie_holds_the_delay_near_its_reference(tmp_path):
    """With responsive flows PIE keeps the queuing delay near its 15 ms
    reference (ns-3's default) at full utilisation, and near 5 ms when told
    so; DropTail lets the buffer fill."""
    late = {}
    for name, q, qv in (("PIE", "PIE", ""), ("PIE5", "PIE", "[[$ns link $r $b] queue] set qdelay_ref_ 5ms"),
                        ("DropTail", "DropTail", "")):
        r = run(tmp_path, tcp_flows(q, queue_vars=qv))
        assert r.returncode == 0, r.stderr
        ev = events(tmp_path / "q.tr")
        late[name] = [soj for k, t, _, soj, _ in ev if k == "-" and t > 5.0]
    assert 0.005 < statistics.median(late["PIE"]) < 0.030
    assert statistics.median(late["PIE5"]) < statistics.median(late["PIE"])
    assert statistics.median(late["DropTail"]) > 0.1
    for name in ("PIE", "PIE5"):
        assert len(late[name]) > 0.95 * 5 * 1250


def test_setbit_marks_ecn_capable_packets_instead_of_dropping(tmp_path):
    """ECN-capable TCP through a 2 Mb/s PIE bottleneck: with `setbit_`
    packets are marked, and dropped only while the probability is at or
    above `mark_p_` (ns-3's MarkEcnThreshold), less often still with
    `mark_p_` 1 (only at probability 1); without `setbit_`, nothing is
    marked."""
    def script(setbit: str, mark_p: str = "0.1") -> str:
        return tcp_flows("PIE", flows=3, bottleneck="2Mb", window=200, tcp_vars="$tcp set ecn_ 1",
                         queue_vars=f"[[$ns link $r $b] queue] set setbit_ {setbit}\n"
                                    f"[[$ns link $r $b] queue] set mark_p_ {mark_p}")

    counts = {}
    for key, args in (("on", ("true",)), ("on1", ("true", "1")), ("off", ("false",))):
        r = run(tmp_path, script(*args))
        assert r.returncode == 0, r.stderr
        lines = (tmp_path / "q.tr").read_text().splitlines()
        drops = sum(1 for x in lines if x.startswith("d "))
        marked = len({x.split()[11] for x in lines if x.startswith("- ") and x.split()[6][4] == "E"})
        counts[key] = (drops, marked)
    assert counts["on"][1] > 20 and counts["on"][0] < counts["off"][0]
    assert counts["on1"][0] < counts["on"][0] and counts["on1"][1] > counts["on"][1]
    assert counts["off"][0] > 20 and counts["off"][1] == 0
